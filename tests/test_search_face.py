"""The face the three searches share, under faults and edge inputs.

Faults are injected with seeded wrappers: fits that raise at random, fits
that fail on small or large subsamples, a SIGINT raised inside a fit. Each
test compares against GridSearchCV on the same candidates, or against the
same search run another way (other n_jobs, routing off).
"""

import importlib
import signal
import threading
import time
import warnings

import numpy as np
import pytest
from _common import CountingClassifier, FailsFromRows, InterruptedAtFit, uncapped_daub
from _registry import BY_NAME
from scipy import stats
from sklearn import config_context
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import (
    load_digits,
    load_iris,
    make_classification,
    make_multilabel_classification,
)
from sklearn.decomposition import PCA
from sklearn.exceptions import FitFailedWarning, UnsetMetadataPassedError
from sklearn.linear_model import LogisticRegression, Ridge, SGDClassifier
from sklearn.metrics import accuracy_score, make_scorer
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sksel import DAUBSearch, GPUCBSelector, KDPPSearch, MutantUCBSearch
from sksel._core.results import _rank_by_resource
from sksel.kdpp import KDPPSampler

CV3 = StratifiedKFold(3, shuffle=True, random_state=0)
TIMES = ("mean_fit_time", "std_fit_time", "mean_score_time", "std_score_time")


@pytest.fixture(scope="module")
def clf_data():
    return make_classification(n_samples=300, n_features=20, n_informative=6,
                               n_redundant=2, random_state=0)


# ------------------------------------------------------------ fault wrappers


class Slow(ClassifierMixin, BaseEstimator):
    """Naive Bayes after a nap."""

    def __init__(self, seconds=0.5):
        self.seconds = seconds

    def fit(self, X, y):
        import time

        time.sleep(self.seconds)
        self.nb_ = GaussianNB().fit(X, y)
        self.classes_ = self.nb_.classes_
        return self

    def predict(self, X):
        return self.nb_.predict(X)


# Draws of the random-failure wrapper; reseeded by each test (fits run in-process).
_FAILURES = np.random.RandomState(0)


class RandomlyFailing(ClassifierMixin, BaseEstimator):
    """A decision tree whose fit raises with probability `rate`."""

    def __init__(self, max_depth=None, rate=0.1):
        self.max_depth = max_depth
        self.rate = rate

    def fit(self, X, y):
        if _FAILURES.uniform() < self.rate:
            raise RuntimeError("transient failure")
        self.tree_ = DecisionTreeClassifier(max_depth=self.max_depth, random_state=0).fit(X, y)
        self.classes_ = self.tree_.classes_
        return self

    def predict(self, X):
        return self.tree_.predict(X)


def _same_results(a, b):
    assert set(a) == set(b)
    for key in a:
        if key in TIMES or key.endswith("_time"):
            continue
        if key == "params" or np.asarray(a[key]).dtype == object:
            assert list(map(repr, a[key])) == list(map(repr, b[key])), key
        else:
            np.testing.assert_array_equal(np.asarray(a[key]), np.asarray(b[key]), err_msg=key)


# ---------------------------------------------------------- failed candidates


def test_failed_rows_rank_after_every_finite_row():
    ranks = _rank_by_resource([800, 400, 100, 800, 100], [np.nan, 0.5, 0.9, 0.7, np.inf])
    assert ranks.tolist() == [4, 2, 3, 1, 4]


@pytest.mark.filterwarnings("ignore:One or more of the test scores")
@pytest.mark.parametrize("refit", [False, True])
def test_a_candidate_failing_on_more_rows_is_not_selected(refit):
    with uncapped_daub():
        # The failing learner reaches 400 rows quickly; the slow one is stopped by
        # max_time on fewer rows. A failed row used to outrank it by its resource.
        X, y = load_digits(return_X_y=True)
        search = DAUBSearch([FailsFromRows(400), Slow(0.5)], cv=0.25, r=2.0, max_time=0.8,
                            cost="rows", refit=refit, random_state=0, risk=0)
        with pytest.warns(FitFailedWarning, match="cannot fit"):
            search.fit(X, y)
        res = search.cv_results_
        assert np.isnan(res["mean_test_score"][0])
        assert res["n_resources"][0] > res["n_resources"][1]
        assert search.best_index_ == 1
        assert np.isfinite(search.best_score_)
        assert res["rank_test_score"].tolist() == [2, 1]
        if refit:
            assert isinstance(search.best_estimator_, Slow)


def test_every_candidate_failing_at_full_size_raises_the_summary_before_refit(clf_data):
    X, y = clf_data
    search = DAUBSearch([FailsFromRows(150, d) for d in (1, 3)], cv=CV3, b=20, random_state=0)
    with pytest.raises(ValueError, match=r"All the 6 fits failed") as info, \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")
        search.fit(X, y)
    assert "MemoryError: cannot fit 200 rows" in str(info.value)
    assert not hasattr(search, "best_estimator_")


# Ranked 1, 2, 3, 4 at 200 rows (3-fold training folds); the first two cannot be
# refitted on the 300 rows of `clf_data`.
REFIT_FAILS = [FailsFromRows(250), FailsFromRows(250, 5), GaussianNB(), FailsFromRows(400, 1)]


def test_a_failed_refit_falls_back_to_the_next_candidate_in_rank(clf_data):
    X, y = clf_data
    search = DAUBSearch(REFIT_FAILS, cv=CV3, b=20, random_state=0, risk=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        search.fit(X, y)
    failed = [str(w.message) for w in caught if w.category is FitFailedWarning]
    assert len(failed) == 2
    for message, name in zip(failed, ["#0 FailsFromRows(max_depth=None, rows=250)",
                                      "#1 FailsFromRows(max_depth=5, rows=250)"]):
        assert f"refitting {name} on all the rows failed" in message
        assert "MemoryError('cannot fit 300 rows')" in message
    res = search.cv_results_
    assert np.all(res["n_resources"] == 200)  # every candidate scored, the failing ones best
    assert isinstance(search.best_estimator_, GaussianNB)
    assert hasattr(search.best_estimator_, "classes_")
    best = search.best_index_
    assert res["candidate_id"][best] == 2
    assert search.best_params_ == res["params"][best]
    assert search.best_score_ == res["mean_test_score"][best]
    # The row ranked 1 is the one refitted; those whose refit failed rank last, with #3, raced
    # out after 2 of its 3 folds, their scores apart.
    assert res["rank_test_score"].tolist() == [2, 2, 1, 2]
    assert np.isnan(res["mean_test_score"][[0, 1, 3]]).all()
    assert res["mean_test_score_at_resource"][0] > res["mean_test_score"][best]
    assert res["why_not_evaluated"][0] == "not ranked: its refit on all the rows failed"
    assert search.score(X, y) == search.best_estimator_.score(X, y)


def test_a_failed_refit_raises_with_error_score_raise(clf_data):
    X, y = clf_data
    search = DAUBSearch(REFIT_FAILS, cv=CV3, b=20, random_state=0, error_score="raise")
    with pytest.raises(MemoryError, match="cannot fit 300 rows"):
        search.fit(X, y)


def test_every_refit_failing_raises_and_keeps_the_results(clf_data):
    X, y = clf_data
    search = KDPPSearch(FailsFromRows(250), {"max_depth": [1, 3, 5]}, n_iter=3, cv=CV3,
                        random_state=0)
    with pytest.warns(FitFailedWarning, match="on all the rows failed"), \
            pytest.raises(RuntimeError, match="could not refit any candidate") as info:
        search.fit(X, y)
    assert "each of the 3 candidates" in str(info.value)
    assert isinstance(info.value.__cause__, MemoryError)
    assert len(search.cv_results_["params"]) == 3
    assert not hasattr(search, "best_estimator_")


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.FitFailedWarning")  # injected faults
def test_random_fit_failures_lose_no_more_candidates_than_grid_search():
    """10% of fits raise. GridSearchCV loses a candidate when one of its 5
    folds fails (41%); DAUB retries once a failure at N on some of the folds, and gives
    up a candidate whose subsample (one fold) failed, so over 20 seeds it loses fewer
    and always selects a candidate."""
    X, y = make_classification(n_samples=400, n_features=10, n_informative=5,
                               random_state=0)
    candidates = [RandomlyFailing(max_depth=d) for d in range(1, 11)]
    lost = {"grid": 0, "daub": 0}
    for seed in range(20):
        _FAILURES.seed(seed)
        grid = GridSearchCV(RandomlyFailing(), {"max_depth": list(range(1, 11))}, cv=5,
                            refit=False).fit(X, y)
        lost["grid"] += int(np.sum(~np.isfinite(grid.cv_results_["mean_test_score"])))
        _FAILURES.seed(seed)
        daub = DAUBSearch(candidates, cv=5, refit=False, random_state=seed).fit(X, y)
        # Lost: no finite score of its own (a learner stopped below N or raced out is not).
        lost["daub"] += int(np.sum(~np.isfinite(
            daub.cv_results_["mean_test_score_at_resource"])))
        assert np.isfinite(daub.best_score_)
        assert daub.cv_results_["n_resources"][daub.best_index_] == daub.sizes_[-1]
    assert lost["daub"] <= lost["grid"]
    assert lost["grid"] >= 40  # the faults were injected: about 82 expected


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_candidate_that_cannot_fit_small_subsamples_is_tried_on_whole_folds_where_it_wins():
    # PCA(n_components=60) cannot fit the first subsample (50 rows): it fails on every fold
    # of that size, skips the sizes left below whole training folds and is tried on them,
    # where it is the best, as GridSearchCV finds and as a b that lets it fit (60) finds.
    # On main it was given up at 50 rows and the other candidate was selected.
    X, y = load_digits(return_X_y=True)
    candidates = [make_pipeline(StandardScaler(), PCA(n_components=k, random_state=0),
                                LogisticRegression(max_iter=300)) for k in (5, 60)]
    with pytest.warns(FitFailedWarning, match=r"#1 .* failed on every fold it ran at 50 "
                      r"training rows.*; tried on whole training folds, it scored 0\.9600\."):
        with uncapped_daub(), pytest.warns(FitFailedWarning, match="1 fits failed out of"):
            small = DAUBSearch(candidates, b=50, cv=0.25, random_state=0, risk=0).fit(X, y)
    assert small.sizes_[0] == 50
    assert [n for c, n in small.policy_.history_ if c == 1] == [50, small.sizes_[-1]]
    with uncapped_daub():
        search = DAUBSearch(candidates, b=60, cv=0.25, random_state=0, risk=0).fit(X, y)
    assert search.cv_results_["n_resources"][1] == search.sizes_[-1]
    grid = GridSearchCV(make_pipeline(StandardScaler(), PCA(random_state=0),
                                      LogisticRegression(max_iter=300)),
                        {"pca__n_components": [5, 60]}, cv=search._checked_cv(
                            y, candidates[0], np.random.RandomState(0))).fit(X, y)
    assert grid.best_index_ == search.best_index_ == small.best_index_ == 1
    assert search.best_score_ == small.best_score_ == grid.best_score_


# ------------------------------------------------------------------- Ctrl-C


@pytest.mark.parametrize("make", [
    lambda est: DAUBSearch([est, GaussianNB()], cv=3, random_state=0),
    lambda est: KDPPSearch(est, {"var_smoothing": [1e-9, 1e-8]}, n_iter=2, cv=3,
                           random_state=0),
    lambda est: GPUCBSelector(est, {"var_smoothing": [1e-9, 1e-8]}, cv=3, random_state=0),
])
@pytest.mark.usefixtures("sigint_raises_keyboard_interrupt")
def test_ctrl_c_before_the_first_evaluation_reraises(make):
    X, y = load_iris(return_X_y=True)
    InterruptedAtFit.n_fits = 0
    with pytest.raises(KeyboardInterrupt), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        make(InterruptedAtFit(at=1)).fit(X, y)


def _swallowing_a_ctrl_c(func):
    """`func`, after a SIGINT whose ``KeyboardInterrupt`` is caught, as a finalizer or a fit may."""
    def swallowing(*args, **kwargs):
        try:
            signal.raise_signal(signal.SIGINT)
        except KeyboardInterrupt:
            pass
        return func(*args, **kwargs)
    return swallowing


class _CountsFits(ClassifierMixin, BaseEstimator):
    """Majority class; counts its fits in `fits`."""

    fits = []

    def fit(self, X, y):
        self.fits.append(len(y))
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


_BEFORE_THE_FIRST_FIT = [
    ("sksel._core.search", "BaseSelectionSearch._search_space"),
    ("sksel._core.search", "BaseSelectionSearch._candidates"),
    ("sksel._core.search", "check_cuda_available"),
    ("sksel._core.search", "BaseSelectionSearch._checked_cv"),
    ("sksel.daub.search", "DAUBSearch._make_policy"),
    ("sksel._core.search", "BaseSelectionSearch._open_checkpoint"),
    ("sksel._core.search", "BaseSelectionSearch._run"),
    ("sksel._core.engine", "Engine.run"),
    ("sksel._core.engine", "Engine._parallel"),
]


@pytest.mark.parametrize("module, name", _BEFORE_THE_FIRST_FIT)
@pytest.mark.usefixtures("sigint_raises_keyboard_interrupt")
def test_a_ctrl_c_caught_before_the_first_fit_still_ends_the_fit(monkeypatch, module, name):
    """A Ctrl-C at any step before the first fit (validation, the policy, the checkpoint,
    the engine's start), even where something catches its KeyboardInterrupt, raises
    KeyboardInterrupt from ``fit`` before any candidate is trained."""
    X, y = load_iris(return_X_y=True)
    target = importlib.import_module(module)
    owner, _, attribute = name.rpartition(".")
    owner = getattr(target, owner) if owner else target
    monkeypatch.setattr(owner, attribute, _swallowing_a_ctrl_c(getattr(owner, attribute)))
    _CountsFits.fits = []
    with pytest.raises(KeyboardInterrupt), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        DAUBSearch([_CountsFits(), GaussianNB()], cv=3, random_state=0).fit(X, y)
    assert _CountsFits.fits == []
    # Nothing is kept, and no warning says "keeping the 0 evaluations".
    assert not [w for w in caught if "keeping the" in str(w.message)]


class _NapsAndCounts(DecisionTreeClassifier):
    """A decision tree whose fits nap a second each, counted in `fits` (one process)."""

    fits = []

    def fit(self, X, y, sample_weight=None, check_input=True):
        _NapsAndCounts.fits.append(len(X))
        time.sleep(1.0)
        return super().fit(X, y, sample_weight=sample_weight, check_input=check_input)


def _two_napping_learners():
    _NapsAndCounts.fits = []
    return DAUBSearch([_NapsAndCounts(max_depth=1, random_state=0),
                       _NapsAndCounts(max_depth=2, random_state=0)], cv=3, random_state=0)


def _fit_with_a_ctrl_c_at(search, seconds):
    """Fit `search` on iris, a SIGINT sent to the main thread `seconds` in, as Ctrl-C does."""
    X, y = load_iris(return_X_y=True)
    timer = threading.Timer(seconds, signal.pthread_kill,
                            (threading.main_thread().ident, signal.SIGINT))
    timer.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            search.fit(X, y)
    finally:
        timer.cancel()


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="no signal masks here")
@pytest.mark.usefixtures("sigint_raises_keyboard_interrupt")
def test_a_ctrl_c_in_the_first_fit_reraises_though_sigint_was_left_blocked():
    """Something that ran before in the process left SIGINT blocked in the main thread (loky
    does, where a KeyboardInterrupt lands just after it blocks SIGINT to spawn its resource
    tracker): a Ctrl-C in the first fit of a one-worker search still interrupts it, and the
    mask is left as it was."""
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGINT])
    try:
        with pytest.raises(KeyboardInterrupt):
            _fit_with_a_ctrl_c_at(_two_napping_learners(), 0.5)
        assert len(_NapsAndCounts.fits) == 1  # the first fit, cut short
        assert signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])
    finally:
        # A SIGINT still pending is dropped with SIGINT ignored, before it is unblocked.
        handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])
        signal.signal(signal.SIGINT, handler)


@pytest.mark.usefixtures("sigint_raises_keyboard_interrupt")
def test_a_counting_handler_left_behind_neither_interrupts_a_fit_nor_hides_a_ctrl_c():
    """A fit's handler that counted a Ctrl-C and could not be taken down (its block ended
    where signals cannot be set) is passed over: the next fit runs to its end, and a Ctrl-C
    in the one after interrupts it."""
    from sksel._core.interrupts import noting_interrupts

    left = noting_interrupts()
    interrupts = left.__enter__()  # its handler is installed
    interrupts.count, interrupts.open = 1, False  # it noted a Ctrl-C; its block ended
    try:
        X, y = load_iris(return_X_y=True)
        search = DAUBSearch([GaussianNB(), GaussianNB(var_smoothing=1e-3)], cv=3,
                            random_state=0).fit(X, y)
        assert search.stop_reason_ == "done"
        with pytest.raises(KeyboardInterrupt):
            _fit_with_a_ctrl_c_at(_two_napping_learners(), 0.5)
        assert len(_NapsAndCounts.fits) == 1
    finally:
        left.__exit__(None, None, None)  # the handler it replaced, back


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="no signal masks here")
@pytest.mark.usefixtures("sigint_raises_keyboard_interrupt")
def test_a_ctrl_c_while_joblib_starts_loky_leaves_sigint_unblocked(monkeypatch):
    """Starting its executor, on the first search of a process (or after its resource
    tracker died), loky blocks SIGINT to spawn the tracker and unblocks it only once the
    call that blocked it has returned the mask to restore. A Ctrl-C handled right after
    that call (where the interpreter runs a pending SIGINT's handler), as emulated here,
    interrupts the search and leaves SIGINT unblocked: the next Ctrl-C is seen."""
    import joblib.parallel

    initialize = joblib.parallel.Parallel._initialize_backend

    def block_sigint_then_handle_one():
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGINT])
        signal.getsignal(signal.SIGINT)(signal.SIGINT, None)
        return blocked

    def initialize_as_loky_spawns_its_tracker(parallel):
        previous = None
        try:
            previous = block_sigint_then_handle_one()
            return initialize(parallel)
        finally:
            if previous is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, previous)

    monkeypatch.setattr(joblib.parallel.Parallel, "_initialize_backend",
                        initialize_as_loky_spawns_its_tracker)
    X, y = load_iris(return_X_y=True)
    search = DAUBSearch([GaussianNB(), GaussianNB(var_smoothing=1e-3)], cv=3, n_jobs=2,
                        random_state=0)
    try:
        with pytest.raises(KeyboardInterrupt), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            search.fit(X, y)
        assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])
    finally:
        handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])
        signal.signal(signal.SIGINT, handler)
    monkeypatch.undo()
    with pytest.raises(KeyboardInterrupt):
        _fit_with_a_ctrl_c_at(_two_napping_learners(), 0.5)


@pytest.mark.usefixtures("sigint_raises_keyboard_interrupt")
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")  # lbfgs on iris
def test_a_ctrl_c_caught_in_the_refit_ends_the_fit_without_a_best_estimator(monkeypatch):
    """A model that returns early from a Ctrl-C in its refit (as scikit-learn's MLP does)
    does not become ``best_estimator_``: ``fit`` raises KeyboardInterrupt, the results stay."""
    X, y = load_iris(return_X_y=True)
    monkeypatch.setattr(_CountsFits, "fit", _swallowing_a_ctrl_c(_CountsFits.fit))
    monkeypatch.setattr("sksel._core.search.BaseSelectionSearch._refit_best",
                        lambda self, *args: _CountsFits().fit(X, y) and (
                            setattr(self, "best_estimator_", _CountsFits())))
    search = DAUBSearch([GaussianNB(), LogisticRegression()], cv=3, random_state=0)
    with pytest.raises(KeyboardInterrupt):
        search.fit(X, y)
    assert not hasattr(search, "best_estimator_")
    assert len(search.cv_results_["params"]) == 2


def test_kdpp_search_keeps_the_evaluations_finished_after_one_still_running_at_max_time():
    """Every evaluation of a k-DPP search is used: those that finished while an earlier
    one ran on (a slow configuration drawn first) are kept when max_time ends the search,
    and the slow one is listed as not evaluated."""
    from _common import NappingTree
    from joblib import parallel_config

    X, y = load_iris(return_X_y=True)
    space = [{"nap": [2.0], "max_depth": [1]}, {"nap": [0.0], "max_depth": [2, 3, 4, 5]}]
    search = KDPPSearch(NappingTree(), space, n_iter=5, cv=CV3, n_jobs=2, max_time=3,
                        random_state=0)
    with parallel_config(backend="threading"), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        search.fit(X, y)
    results = search.cv_results_
    assert [params["nap"] for params in results["params"]] == [2.0, 0, 0, 0, 0]
    assert results["n_folds_run"].tolist() == [0, 3, 3, 3, 3]
    assert results["why_not_evaluated"][0] == "max_time=3 s ended the search first"
    grid = GridSearchCV(NappingTree(), [{k: [v] for k, v in p.items()}
                                        for p in results["params"][1:]], cv=CV3).fit(X, y)
    np.testing.assert_allclose(results["mean_test_score"][1:],
                               grid.cv_results_["mean_test_score"], rtol=1e-12)
    assert search.best_params_["max_depth"] == grid.best_params_["max_depth"]


@pytest.mark.usefixtures("sigint_raises_keyboard_interrupt")
def test_kdpp_search_keeps_finished_evaluations_on_ctrl_c():
    X, y = load_iris(return_X_y=True)
    space = {"var_smoothing": [1e-9, 1e-6, 1e-3, 1e-1]}
    InterruptedAtFit.n_fits = 0
    search = KDPPSearch(InterruptedAtFit(at=7), space, n_iter=4, cv=CV3, random_state=0)
    with (pytest.warns(RuntimeWarning, match="interrupted"),
          pytest.warns(UserWarning, match="Ctrl-C ended the search")):
        search.fit(X, y)
    assert search.stop_reason_ == "interrupted"
    drawn = KDPPSampler(space, 4, random_state=0).as_grid()
    results = search.cv_results_
    # Every configuration drawn is listed; those the Ctrl-C left unrun say so.
    assert results["params"] == [{k: v[0] for k, v in p.items()} for p in drawn]
    assert results["n_folds_run"].tolist() == [3, 3, 0, 0]  # 6 fits = 2 configs
    assert results["why_not_evaluated"].tolist() == ["", ""] + [
        "a Ctrl-C ended the search first"] * 2
    grid = GridSearchCV(GaussianNB(), drawn[:2], cv=CV3).fit(X, y)
    np.testing.assert_allclose(results["mean_test_score"][:2],
                               grid.cv_results_["mean_test_score"], rtol=1e-12)
    assert hasattr(search, "best_estimator_")


# ------------------------------------------------------- same input, same answer


# Whatever n_jobs: test_conformance.py runs every search of the registry so.


def test_decisions_on_rows_are_reproducible(clf_data):
    X, y = clf_data
    first = BY_NAME["daub"].build().fit(X, y)
    second = BY_NAME["daub"].build().fit(X, y)
    assert first.tol == 0.005
    assert first.policy_.decisions_ == second.policy_.decisions_
    _same_results(first.cv_results_, second.cv_results_)
    _same_results(first.all_cv_results_, second.all_cv_results_)


# ------------------------------------------------------------------ edge inputs


def test_unsupervised_candidates_as_grid_search():
    X, _ = load_digits(return_X_y=True)
    with pytest.warns(UserWarning, match="The subsample sizes .* hold fewer than two"):
        search = DAUBSearch([PCA(2), PCA(5)], b=1437, random_state=0).fit(X)
    grid = GridSearchCV(PCA(), {"n_components": [2, 5]}).fit(X)
    np.testing.assert_allclose(search.cv_results_["mean_test_score"],
                               grid.cv_results_["mean_test_score"], rtol=1e-10)
    assert search.best_params_["estimator"].n_components == 5


def test_multilabel_targets():
    X, Y = make_multilabel_classification(n_samples=600, n_classes=4, random_state=0)
    candidates = [DecisionTreeClassifier(random_state=0), KNeighborsClassifier()]
    with pytest.warns(UserWarning, match="The subsample sizes .* hold fewer than two"):
        search = DAUBSearch(candidates, random_state=0, risk=0).fit(X, Y)
    assert search.sizes_[-1] == 480
    grid = GridSearchCV(DecisionTreeClassifier(random_state=0),
                        {"max_depth": [None]}).fit(X, Y)
    at_n = search.cv_results_["n_resources"] == 480
    assert at_n[0]
    assert search.cv_results_["mean_test_score"][0] == grid.best_score_
    # Subsamples are stratified by rows of Y: every label combination of the
    # fold is in the first rows.
    assert search.best_estimator_.predict(X[:5]).shape == (5, 4)


# ---------------------------------------------------------- metadata routing


def _weights(n):
    return np.random.RandomState(0).uniform(0.1, 3.0, size=n)


def _weighted_searches(routing):
    est = LogisticRegression(max_iter=500)
    scoring = make_scorer(accuracy_score)
    if routing:
        est = est.set_fit_request(sample_weight=True)
        scoring = scoring.set_score_request(sample_weight=True)
    grid = {"C": [0.01, 1.0]}
    return {
        "grid": GridSearchCV(est, grid, scoring=scoring, cv=CV3),
        "daub": DAUBSearch(est, grid, scoring=scoring, cv=CV3, b=200, random_state=0,
                           risk=0),
        "gpucb": GPUCBSelector(est, grid, scoring=scoring, cv=CV3, random_state=0),
        "kdpp": KDPPSearch(est, grid, n_iter=2, scoring=scoring, cv=CV3, random_state=0),
    }


@pytest.mark.parametrize("routing", [False, True])
def test_sample_weight_routed_as_grid_search(routing, clf_data):
    X, y = clf_data
    w = _weights(len(y))
    # DAUBSearch's b=200 is the whole training fold: one size, and a warning that says so.
    with (config_context(enable_metadata_routing=routing),
          pytest.warns(UserWarning, match="The subsample sizes .* hold fewer than two")):
        fitted = {k: s.fit(X, y, sample_weight=w) for k, s in _weighted_searches(routing).items()}
    grid = fitted.pop("grid")
    row_of = {p["C"]: i for i, p in enumerate(grid.cv_results_["params"])}
    unweighted = GridSearchCV(LogisticRegression(max_iter=500), {"C": [0.01, 1.0]},
                              cv=CV3).fit(X, y)
    assert not np.allclose(grid.cv_results_["mean_test_score"],
                           unweighted.cv_results_["mean_test_score"])  # weights matter
    for name, search in fitted.items():
        for i, params in enumerate(search.cv_results_["params"]):
            for fold in range(3):  # a first look (GPUCBSelector) runs the first folds only
                score = search.cv_results_[f"split{fold}_test_score"][i]
                if not np.isnan(score):
                    expected = grid.cv_results_[f"split{fold}_test_score"][row_of[params["C"]]]
                    assert score == pytest.approx(expected, rel=1e-12), name
        assert search.best_score_ == grid.best_score_


def test_unrequested_sample_weight_raises_as_grid_search(clf_data):
    X, y = clf_data
    w = _weights(len(y))
    with config_context(enable_metadata_routing=True):
        with pytest.raises(UnsetMetadataPassedError):
            GridSearchCV(LogisticRegression(), {"C": [1.0]}).fit(X, y, sample_weight=w)
        for search in [DAUBSearch([LogisticRegression(), GaussianNB()]),
                       KDPPSearch(LogisticRegression(), {"C": [0.1, 1.0]}, n_iter=2),
                       GPUCBSelector([LogisticRegression(), GaussianNB()])]:
            with pytest.raises(UnsetMetadataPassedError):
                search.fit(X, y, sample_weight=w)


def test_list_of_candidates_in_cross_val_score_with_routing(clf_data):
    X, y = clf_data
    search = DAUBSearch([GaussianNB(), DecisionTreeClassifier(random_state=0)], cv=CV3,
                        random_state=0)
    plain = cross_val_score(search, X, y, cv=3)
    with config_context(enable_metadata_routing=True):
        routed = cross_val_score(search, X, y, cv=3)
    np.testing.assert_array_equal(routed, plain)


# ------------------------------------------------------ accepted, now refused


def test_sizes_without_a_curve_below_n_warn(clf_data):
    X, y = clf_data
    with pytest.warns(UserWarning, match=r"fewer than two sizes below the whole training fold"):
        search = DAUBSearch([GaussianNB(), KNeighborsClassifier()], b=100, r=4.0,
                            cv=CV3, risk=0).fit(X, y)
    assert len(search.sizes_) == 2


def test_classifiers_and_regressors_mixed_raise_before_any_fit(clf_data):
    X, y = clf_data
    CountingClassifier.n_fits = 0
    for search in [DAUBSearch([CountingClassifier(), Ridge()]),
                   GPUCBSelector([CountingClassifier(), Ridge()])]:
        with pytest.raises(ValueError, match="mixes classifiers and regressors"):
            search.fit(X, y)
    assert CountingClassifier.n_fits == 0


def test_gpucb_n_candidates_with_a_grid_raises(clf_data):
    X, y = clf_data
    CountingClassifier.n_fits = 0
    with pytest.raises(ValueError, match="n_candidates=3"):
        GPUCBSelector(CountingClassifier(), {"C": [1, 2, 3, 4]}, n_candidates=3).fit(X, y)
    assert CountingClassifier.n_fits == 0


# ---------------------------------------------------------------- one face


def test_kdpp_search_takes_a_holdout_cv_as_the_others(clf_data):
    X, y = clf_data
    space = {"C": stats.loguniform(1e-3, 1e2)}
    kdpp = KDPPSearch(LogisticRegression(), space, n_iter=4, cv=0.25, random_state=0).fit(X, y)
    grid = KDPPSampler(space, 4, random_state=0).as_grid()
    gpucb = GPUCBSelector(LogisticRegression(), grid, n_iter=4, cv=0.25,
                          random_state=0).fit(X, y)
    assert kdpp.n_splits_ == gpucb.n_splits_ == 1
    order = np.argsort(gpucb.cv_results_["candidate_id"])
    np.testing.assert_array_equal(kdpp.cv_results_["mean_test_score"],
                                  gpucb.cv_results_["mean_test_score"][order])


def test_non_finite_scores_warned_once_about_cv_results(clf_data):
    X, y = clf_data
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        search = DAUBSearch([FailsFromRows(40), GaussianNB()], cv=CV3, b=20, rungs="all",
                            random_state=0).fit(X, y)
    messages = [str(w.message) for w in caught if "non-finite" in str(w.message)]
    assert len(messages) == 1
    assert len(search.all_cv_results_["params"]) > len(search.cv_results_["params"]) == 2
    assert messages[0].count("nan") == 1  # the two rows of cv_results_, one failed


@pytest.mark.parametrize("make", [
    lambda est, space: MutantUCBSearch(est, space, budget=4),
    lambda est, space: KDPPSearch(est, space, n_iter=2),
])
@pytest.mark.parametrize("space", [{}, None])
def test_a_list_of_estimators_is_refused_plainly_by_one_estimator_searches(make, space):
    X, y = make_classification(n_samples=60, random_state=0)
    search = make([CountingClassifier(), CountingClassifier(C=2.0)], space)
    with pytest.raises(ValueError, match=r"^estimator: \w+ searches the parameters of one "
                                         r"estimator, and got a list of 2.*DAUBSearch"):
        search.fit(X, y)
    assert CountingClassifier.n_fits == 0


@pytest.mark.parametrize("make", [
    lambda space: MutantUCBSearch(SGDClassifier(), space, budget=4),
    lambda space: KDPPSearch(LogisticRegression(), space, n_iter=2),
])
def test_no_space_is_refused_by_one_estimator_searches(make):
    X, y = make_classification(n_samples=60, random_state=0)
    with pytest.raises(ValueError, match="^param_distributions: .* needs the space"):
        make(None).fit(X, y)
