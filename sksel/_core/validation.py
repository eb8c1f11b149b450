"""Checks of a search's fit input and of what its subclass builds, before any training.

The targets (finite, at least two rows), the policy (it derives from the
contract, :class:`~sksel._core.policy.Policy`) and the estimators that
metadata is routed to (one entry per estimator of a list of candidates).
"""

import numpy as np

from .._compat import _num_samples
from .policy import Policy


def check_policy(policy, search):
    """Refuse, before any training, a policy that lacks what the contract needs."""
    if not isinstance(policy, Policy):
        raise TypeError(
            f"{search}'s policy {type(policy).__name__} does not derive from "
            "sksel.extend.Policy, the policy contract."
        )


def check_targets(y):
    if y is None:
        return
    y = np.asarray(y)
    if y.dtype.kind in "fc" and not np.isfinite(y).all():
        raise ValueError(
            "y contains NaN or infinity; remove or impute those rows before the search."
        )
    if _num_samples(y) < 2:
        raise ValueError(
            f"The search needs at least 2 samples to split; got n_samples = {_num_samples(y)}."
        )


def is_1d(y):
    return y is not None and np.ndim(y) == 1


def count_classes(y):
    """Classes of `y`: its distinct values, or distinct rows of a 2-D `y`."""
    return len(np.unique(np.asarray(y), axis=0 if np.ndim(y) > 1 else None))


def routed_estimators(estimator):
    """``(name, estimator)`` of every estimator that metadata is routed to."""
    if not isinstance(estimator, list):
        return [("estimator", estimator)]
    items = [item[0] if isinstance(item, tuple) else item for item in estimator]
    return [(f"estimator_{i}", item) for i, item in enumerate(items)]
