"""ASHA over training rows: a fifth search, written for the tests against sksel's contract.

It adds :class:`~asha_policy.ASHAPolicy` to what sksel offers (the search
base, the nested subsamples of :class:`~sksel.training.rows.RowsTrainer`)
and changes no sksel module; the conformance suite runs it as it runs
sksel's own searches.
"""

import math
import numbers

import numpy as np
from asha_policy import ASHAPolicy

from sksel.extend import BaseSelectionSearch, DisplayInfo, Interval, StrOptions
from sksel.training.rows import RowsTrainer


def rung_sizes(n_total, min_resources, eta):
    """``min_resources * eta ** k`` training rows below `n_total`, then `n_total`."""
    sizes = [min_resources]
    while sizes[-1] * eta < n_total:
        sizes.append(sizes[-1] * eta)
    return sizes + [n_total] if sizes[-1] < n_total else sizes


class ASHARowsSearch(BaseSelectionSearch):
    """Asynchronous successive halving over nested subsamples of the training folds.

    Rung ``k`` trains on ``min_resources * eta ** k`` rows per fold, the top
    rung on whole training folds. ``min_resources="auto"`` is
    ``ceil(N / eta ** 2)`` (three rungs), at least ``10 * n_classes`` (20
    for a regressor), at most N, the rows of the smallest training fold.
    The other parameters are those of :class:`~sksel.DAUBSearch`.
    """

    _parameter_constraints: dict = {
        **BaseSelectionSearch._parameter_constraints,
        "param_grid": [dict, list, None],
        "eta": [Interval(numbers.Integral, 2, None, closed="left")],
        "min_resources": [Interval(numbers.Integral, 1, None, closed="left"),
                          StrOptions({"auto"})],
    }

    def __init__(self, estimator, param_grid=None, *, eta=3, min_resources="auto", scoring=None,
                 n_jobs=None, refit=True, cv=None, verbose=0, random_state=None,
                 error_score=np.nan, return_train_score=False, max_time=None, checkpoint=None):
        super().__init__(estimator, scoring=scoring, n_jobs=n_jobs, refit=refit, cv=cv,
                         verbose=verbose, random_state=random_state, error_score=error_score,
                         return_train_score=return_train_score, max_time=max_time,
                         checkpoint=checkpoint)
        self.param_grid = param_grid
        self.eta = eta
        self.min_resources = min_resources

    def _make_policy(self, candidates, splits, y, n_classes, rng):
        n_total = min(len(train) for train, _ in splits)
        smallest = self.min_resources
        if smallest == "auto":
            smallest = max(math.ceil(n_total / self.eta**2), 10 * n_classes if n_classes else 20)
        self.sizes_ = rung_sizes(n_total, min(smallest, n_total), self.eta)
        self.policy_ = ASHAPolicy(len(candidates), self.sizes_, self.eta)
        return self.policy_, RowsTrainer(splits, y, self.sizes_,
                                         stratify=n_classes is not None, random_state=rng)

    def _display_info(self):
        return DisplayInfo("Training rows per fold", self.sizes_[-1])

    def _progress_budget(self, n_candidates):
        n_max = n_candidates * len(self.sizes_)
        return n_max, False, f"at most {n_max} evaluations ({len(self.sizes_)} rungs)"

    def _largest_resource(self):
        return self.sizes_[-1]
