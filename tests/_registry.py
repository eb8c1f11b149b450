"""The one registry of the searches the suite runs.

Each :class:`SearchCase` builds a small, fast configured instance of one
search, and says what the search promises. The conformance suite
(``test_conformance.py``) runs every case; the test modules that run each
search another way (many workers, a dask cluster, scikit-learn's estimator
checks, checkpoints) take their configurations from here too. Adding a
search to the suite is adding one case to :data:`CASES`.
"""

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from _common import SlowKNN, SlowSGD
from asha_epochs import ASHAEpochsSearch
from asha_rows import ASHARowsSearch
from scipy import stats
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression, Ridge, SGDClassifier, SGDRegressor
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from sksel import DAUBSearch, GPUCBSelector, KDPPSearch, MutantUCBSearch

CV3 = StratifiedKFold(3, shuffle=True, random_state=0)
C_GRID = {"C": [0.001, 0.01, 0.1, 1.0, 10.0, 100.0]}
KNN_GRID = {"n_neighbors": [1, 3, 5, 7, 9, 13, 17]}
#: A prior over `KNN_GRID` under which GP-UCB looks at the neighbours it doubts on subsamples.
KNN_PRIOR = (np.array([0.8, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55]), np.diag(np.full(7, 0.15**2)))


def classification():
    """300 rows, 20 features: training folds of 200 rows under `CV3`."""
    return make_classification(n_samples=300, n_features=20, n_informative=6, n_redundant=2,
                               random_state=0)


@dataclass(frozen=True)
class SearchCase:
    """One search of the suite.

    Attributes
    ----------
    name : str
        Test id.
    build : callable
        ``build(**params)``: the search over classifiers, `CV3`,
        ``random_state=0``; `params` set more of its parameters.
    counted : callable
        ``counted(**params)``: the search over `counter`, which counts its
        fits (and can be interrupted), ``cv=3``, ``refit=False``.
    counter : type
        :class:`~_common.SlowKNN` or :class:`~_common.SlowSGD`.
    checks : callable
        ``checks()``: a classifier's and a regressor's search, small enough
        for scikit-learn's estimator checks, ``error_score="raise"``.
    data : callable
        ``data() -> (X, y)``: what the conformance suite fits `build` and
        `counted` on.
    fit_params : dict
        Passed to ``fit``.
    same_for_any_n_jobs : bool
        Whether ``cv_results_`` are the same for any number of workers.
    trains_from_scratch : bool
        Whether every evaluation and the refit are plain fits of the
        candidate's parameters (a search that continues models does not).
    """

    name: str
    build: Callable
    counted: Callable
    counter: type
    checks: Callable
    data: Callable = classification
    fit_params: dict = field(default_factory=dict)
    same_for_any_n_jobs: bool = True
    trains_from_scratch: bool = True

    def __str__(self):
        return self.name


CASES = [
    SearchCase(
        "daub",
        build=lambda **kw: DAUBSearch(
            [GaussianNB(), DecisionTreeClassifier(max_depth=3, random_state=0),
             KNeighborsClassifier(15), LogisticRegression(C=0.01), LogisticRegression(C=1.0)],
            **{"cv": CV3, "cost": "rows", "random_state": 0, "risk": 0, **kw}),
        counted=lambda **kw: DAUBSearch(SlowKNN(), KNN_GRID, **{
            "cv": 3, "l": 2, "refit": False, "random_state": 0, "cost": "rows", "risk": 0,
            **kw}),
        counter=SlowKNN,
        checks=lambda: [
            DAUBSearch(LogisticRegression(), {"C": [0.1, 1.0]}, cv=2, error_score="raise",
                       risk=0),
            DAUBSearch(Ridge(), {"alpha": [0.1, 1.0]}, cv=2, error_score="raise")],
    ),
    SearchCase(
        "daub_rungs",
        build=lambda **kw: DAUBSearch(
            [GaussianNB(), DecisionTreeClassifier(max_depth=3, random_state=0),
             KNeighborsClassifier(15), LogisticRegression(C=0.01), LogisticRegression(C=1.0)],
            **{"cv": CV3, "cost": "rows", "random_state": 0, **kw}),
        counted=lambda **kw: DAUBSearch(SlowKNN(), KNN_GRID, **{
            "cv": 3, "refit": False, "random_state": 0, "cost": "rows", **kw}),
        counter=SlowKNN,
        checks=lambda: [
            DAUBSearch(LogisticRegression(), {"C": [0.1, 1.0]}, cv=2, error_score="raise")],
    ),
    SearchCase(
        # Keeping the predictions and fold models: every fault, resume and
        # worker count of the suite with the extra outputs in the tasks.
        "daub_predictions",
        build=lambda **kw: DAUBSearch(
            [GaussianNB(), DecisionTreeClassifier(max_depth=3, random_state=0),
             KNeighborsClassifier(15), LogisticRegression(C=0.01), LogisticRegression(C=1.0)],
            **{"cv": CV3, "cost": "rows", "random_state": 0, "keep_predictions": True,
               "keep_fold_models": True, **kw}),
        counted=lambda **kw: DAUBSearch(SlowKNN(), KNN_GRID, **{
            "cv": 3, "refit": False, "random_state": 0, "cost": "rows",
            "keep_predictions": True, **kw}),
        counter=SlowKNN,
        checks=lambda: [
            DAUBSearch(LogisticRegression(), {"C": [0.1, 1.0]}, cv=2, error_score="raise",
                       keep_predictions=True),
            DAUBSearch(Ridge(), {"alpha": [0.1, 1.0]}, cv=2, error_score="raise",
                       keep_predictions=True, keep_fold_models=True)],
    ),
    SearchCase(
        "gpucb",
        # Picks two at a time (GP-BUCB): the same results for any n_jobs, given batch_size.
        build=lambda **kw: GPUCBSelector(LogisticRegression(), C_GRID, **{
            "n_iter": 4, "prior": "kernel", "batch_size": 2, "cv": CV3, "random_state": 0,
            **kw}),
        counted=lambda **kw: GPUCBSelector(SlowKNN(), KNN_GRID, **{
            "n_iter": 5, "cv": 3, "refit": False, "random_state": 0, **kw}),
        counter=SlowKNN,
        checks=lambda: [
            GPUCBSelector(LogisticRegression(), {"C": [0.01, 0.1, 1.0]}, n_iter=2, cv=2,
                          error_score="raise", random_state=0),
            GPUCBSelector(Ridge(), {"alpha": [0.1, 1.0, 10.0]}, n_iter=2, cv=2,
                          error_score="raise", random_state=0)],
    ),
    SearchCase(
        "gpucb_looks",
        build=lambda **kw: GPUCBSelector(KNeighborsClassifier(), KNN_GRID, **{
            "prior": KNN_PRIOR, "looks": True, "cv": CV3, "random_state": 0, **kw}),
        counted=lambda **kw: GPUCBSelector(SlowKNN(), KNN_GRID, **{
            "prior": KNN_PRIOR, "looks": True, "cv": 3, "refit": False, "random_state": 0,
            **kw}),
        counter=SlowKNN,
        checks=lambda: [
            # The checks' data are too small to look at: "auto" keeps away.
            GPUCBSelector(KNeighborsClassifier(), {"n_neighbors": [1, 3, 5]},
                          prior=(KNN_PRIOR[0][:3], KNN_PRIOR[1][:3, :3]), cv=2,
                          error_score="raise", random_state=0)],
    ),
    SearchCase(
        "kdpp",
        build=lambda **kw: KDPPSearch(LogisticRegression(), {"C": stats.loguniform(1e-3, 1e2)},
                                      **{"n_iter": 6, "cv": CV3, "random_state": 0, **kw}),
        counted=lambda **kw: KDPPSearch(SlowKNN(), {"n_neighbors": list(range(1, 18))}, **{
            "n_iter": 6, "cv": 3, "refit": False, "random_state": 0, **kw}),
        counter=SlowKNN,
        checks=lambda: [
            KDPPSearch(LogisticRegression(), {"C": stats.loguniform(1e-2, 1e2)}, n_iter=2, cv=2,
                       error_score="raise", random_state=0),
            KDPPSearch(Ridge(), {"alpha": stats.loguniform(1e-2, 1e2)}, n_iter=2, cv=2,
                       error_score="raise", random_state=0)],
    ),
    SearchCase(
        "mutant_ucb",
        build=lambda **kw: MutantUCBSearch(
            SGDClassifier(loss="log_loss", random_state=0), {"alpha": stats.loguniform(1e-5, 1e-1)},
            **{"budget": 12, "max_subtrains": 3, "cv": CV3, "random_state": 0, **kw}),
        counted=lambda **kw: MutantUCBSearch(
            SlowSGD(random_state=0), {"alpha": stats.loguniform(1e-5, 1e-1)}, **{
                "budget": 12, "max_subtrains": 3, "cv": 3, "refit": False, "random_state": 0,
                **kw}),
        counter=SlowSGD,
        checks=lambda: [
            MutantUCBSearch(SGDClassifier(random_state=0), {"alpha": [1e-4, 1e-2]}, budget=6,
                            max_subtrains=2, cv=2, error_score="raise", random_state=0),
            MutantUCBSearch(SGDRegressor(random_state=0), {"alpha": [1e-4, 1e-2]}, budget=6,
                            max_subtrains=2, cv=2, error_score="raise", random_state=0)],
        # A freed worker takes the UCB argmax of the results in (see its n_jobs).
        same_for_any_n_jobs=False,
        trains_from_scratch=False,
    ),
    SearchCase(
        "mutant_ucb_lineage",
        build=lambda **kw: MutantUCBSearch(
            SGDClassifier(loss="log_loss", random_state=0), {"alpha": stats.loguniform(1e-5, 1e-1)},
            **{"budget": 12, "max_subtrains": 3, "max_lineage_subtrains": 3, "cv": CV3,
               "random_state": 0, **kw}),
        counted=lambda **kw: MutantUCBSearch(
            SlowSGD(random_state=0), {"alpha": stats.loguniform(1e-5, 1e-1)}, **{
                "budget": 12, "max_subtrains": 3, "max_lineage_subtrains": 3, "cv": 3,
                "refit": False, "random_state": 0, **kw}),
        counter=SlowSGD,
        checks=lambda: [
            MutantUCBSearch(SGDClassifier(random_state=0), {"alpha": [1e-4, 1e-2]}, budget=6,
                            max_subtrains=2, max_lineage_subtrains=2, cv=2,
                            error_score="raise", random_state=0)],
        same_for_any_n_jobs=False,
        trains_from_scratch=False,
    ),
    SearchCase(
        "asha_rows",
        build=lambda **kw: ASHARowsSearch(LogisticRegression(), {
            "C": np.logspace(-3, 2, 9).tolist()}, **{"eta": 2, "cv": CV3, "random_state": 0,
                                                     **kw}),
        counted=lambda **kw: ASHARowsSearch(SlowKNN(), {"n_neighbors": list(range(1, 18, 2))}, **{
            "cv": 3, "refit": False, "random_state": 0, **kw}),
        counter=SlowKNN,
        checks=lambda: [
            ASHARowsSearch(LogisticRegression(), {"C": [0.1, 1.0]}, cv=2, error_score="raise"),
            ASHARowsSearch(Ridge(), {"alpha": [0.1, 1.0]}, cv=2, error_score="raise")],
        # A freed worker promotes from the results in when it asks.
        same_for_any_n_jobs=False,
    ),
    SearchCase(
        "asha_epochs",
        build=lambda **kw: ASHAEpochsSearch(
            SGDClassifier(loss="log_loss", random_state=0),
            {"alpha": np.logspace(-5, -1, 9).tolist()},
            **{"eta": 2, "max_subtrains": 4, "cv": CV3, "random_state": 0, **kw}),
        counted=lambda **kw: ASHAEpochsSearch(
            SlowSGD(random_state=0), {"alpha": np.logspace(-5, -1, 6).tolist()}, **{
                "eta": 2, "max_subtrains": 4, "cv": 3, "refit": False, "random_state": 0,
                **kw}),
        counter=SlowSGD,
        checks=lambda: [
            ASHAEpochsSearch(SGDClassifier(random_state=0), {"alpha": [1e-4, 1e-2]},
                             max_subtrains=2, cv=2, error_score="raise"),
            ASHAEpochsSearch(SGDRegressor(random_state=0), {"alpha": [1e-4, 1e-2]},
                             max_subtrains=2, cv=2, error_score="raise")],
        same_for_any_n_jobs=False,
        trains_from_scratch=False,
    ),
]

#: The cases by name.
BY_NAME = {case.name: case for case in CASES}
