"""ASHA over epochs: the test-only policy of ``asha_rows.py`` on continued training.

The same :class:`~asha_policy.ASHAPolicy`, whose rungs are now sub-trains
(epochs, boosting rounds, ``partial_fit`` passes): a promoted model goes on
from its state at the rung below, by
:class:`~sksel.training.continued.ContinuedTrainer`. It changes no sksel
module; the conformance suite runs it as it runs sksel's own searches.
"""

import numbers

import numpy as np
from asha_policy import ASHAPolicy
from asha_rows import rung_sizes
from sklearn.base import is_classifier

from sksel.extend import BaseSelectionSearch, DisplayInfo, Interval, StrOptions, runs_in_process
from sksel.training.continued import ContinuedTrainer
from sksel.training.subtrain import SUBTRAIN_KINDS, Subtrainer, subtrain_kind


class ASHAEpochsSearch(BaseSelectionSearch):
    """Asynchronous successive halving over sub-trains of models that go on training.

    Rung ``k`` trains a model for ``eta ** k`` sub-trains in all, the top rung
    for `max_subtrains`; a model promoted goes on from where its rung below
    left it. ``unit`` is the units of one sub-train (``"auto"``: as
    :class:`~sksel.MutantUCBSearch` has it). The other parameters are those of
    :class:`~sksel.DAUBSearch`.
    """

    _parameter_constraints: dict = {
        **BaseSelectionSearch._parameter_constraints,
        "param_grid": [dict, list, None],
        "eta": [Interval(numbers.Integral, 2, None, closed="left")],
        "max_subtrains": [Interval(numbers.Integral, 1, None, closed="left")],
        "unit": [Interval(numbers.Integral, 1, None, closed="left"), StrOptions({"auto"})],
    }

    def __init__(self, estimator, param_grid=None, *, eta=3, max_subtrains=9, unit="auto",
                 scoring=None, n_jobs=None, refit=True, cv=None, verbose=0, random_state=None,
                 error_score=np.nan, return_train_score=False, max_time=None, checkpoint=None):
        super().__init__(estimator, scoring=scoring, n_jobs=n_jobs, refit=refit, cv=cv,
                         verbose=verbose, random_state=random_state, error_score=error_score,
                         return_train_score=return_train_score, max_time=max_time,
                         checkpoint=checkpoint)
        self.param_grid = param_grid
        self.eta = eta
        self.max_subtrains = max_subtrains
        self.unit = unit

    def _make_policy(self, candidates, splits, y, n_classes, rng):
        kind = subtrain_kind(self.estimator)
        classes = np.unique(y) if is_classifier(self.estimator) and y is not None else None
        subtrainer = Subtrainer(kind, SUBTRAIN_KINDS[kind] if self.unit == "auto" else self.unit,
                                classes=classes)
        self.sizes_ = rung_sizes(self.max_subtrains, 1, self.eta)
        self.policy_ = ASHAPolicy(len(candidates), self.sizes_, self.eta)
        trainer = ContinuedTrainer(splits, subtrainer, self.estimator,
                                   max_resource=self.max_subtrains, inherit=False,
                                   mapped=not runs_in_process(self.n_jobs))
        return self.policy_, trainer

    def _display_info(self):
        return DisplayInfo("Sub-trains", self.max_subtrains, resources_add_up=True)

    def _progress_budget(self, n_candidates):
        n_max = n_candidates * len(self.sizes_)
        return n_max, False, f"at most {n_max} evaluations ({len(self.sizes_)} rungs)"

    def _largest_resource(self):
        return self.max_subtrains
