"""The likely selection refitted on a worker that would otherwise idle (sksel._core.early_refit)."""

import os
import threading
import time
import warnings

import numpy as np
import pytest
from _common import FailsFromRows, NappingTree
from joblib import parallel_config
from joblib.externals.loky import get_reusable_executor
from sklearn.datasets import load_iris
from sklearn.exceptions import FitFailedWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline

from sksel import KDPPSearch
from sksel._core.early_refit import _MOST, EarlyRefits
from sksel._core.trainer import Trainer
from sksel.curves.gap_model import shipped_model
from sksel.daub import RungPolicy

X, y = load_iris(return_X_y=True)


class SlowRefit(LogisticRegression):
    """A logistic regression whose fit on all of iris naps `nap` seconds; its fits on all the
    rows are noted with the thread that made them (class attribute)."""

    refits = []

    def __init__(self, nap=0.0, C=1.0, max_iter=1000):
        self.nap = nap
        super().__init__(C=C, max_iter=max_iter)

    def fit(self, X, y, sample_weight=None):
        if len(X) == 150:
            SlowRefit.refits.append(threading.get_ident())
            time.sleep(self.nap)
        return super().fit(X, y, sample_weight=sample_weight)


def _kdpp(candidates, n_jobs):
    return KDPPSearch(Pipeline([("model", candidates[0])]), {"model": candidates},
                      n_iter=len(candidates), cv=3, n_jobs=n_jobs, random_state=0)


def test_the_leaders_refit_runs_on_an_idle_worker_and_the_search_waits_for_it():
    # The logistic regression leads once its quick folds are in; while the napping tree's
    # folds run, an idle worker refits it (1 s), and the search, done at 0.5 s, waits for
    # that refit rather than making its own.
    SlowRefit.refits = []
    candidates = [SlowRefit(nap=1.0), NappingTree(nap=0.5, max_depth=1)]
    with parallel_config("threading"):
        search = _kdpp(candidates, n_jobs=8).fit(X, y)
    assert SlowRefit.refits == [SlowRefit.refits[0]]  # one fit on all the rows
    assert SlowRefit.refits[0] != threading.get_ident()  # made by a worker
    assert search.refit_time_ >= 1.0  # the worker's seconds

    grid = GridSearchCV(Pipeline([("model", candidates[0])]), {"model": candidates},
                        cv=3).fit(X, y)
    alone = _kdpp(candidates, n_jobs=1).fit(X, y)
    assert search.best_params_ == grid.best_params_ == alone.best_params_
    np.testing.assert_array_equal(search.best_estimator_.predict_proba(X),
                                  alone.best_estimator_.predict_proba(X))


@pytest.mark.parametrize("kwargs", [{"refit": lambda results: 0}, {"max_time": 60}])
def test_no_early_refit_with_a_callable_refit_or_under_max_time(kwargs):
    # A callable picks the row itself, and max_time counts no refit: the search refits.
    SlowRefit.refits = []
    candidates = [SlowRefit(), NappingTree(nap=0.5, max_depth=1)]
    with parallel_config("threading"):
        search = _kdpp(candidates, n_jobs=8).set_params(**kwargs).fit(X, y)
    assert SlowRefit.refits == [threading.get_ident()]  # one fit on all rows, made here
    assert isinstance(search.best_estimator_[-1], SlowRefit)


def test_a_refit_that_fails_early_fails_again_as_with_one_worker():
    # The tree fails on all 150 rows only: its refit on a worker fails, and the search's
    # own refit then warns and refits the next in rank, as on one worker.
    candidates = [FailsFromRows(rows=150), NappingTree(nap=0.5, max_depth=1)]
    fitted = {}
    for n_jobs in (1, 8):
        with parallel_config("threading"), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            search = _kdpp(candidates, n_jobs=n_jobs).fit(X, y)
        assert [w for w in caught if issubclass(w.category, FitFailedWarning)]
        fitted[n_jobs] = (search.best_index_, search.best_params_["model"].get_params(),
                          list(search.cv_results_["rank_test_score"]))
    assert fitted[1] == fitted[8]
    assert isinstance(search.best_estimator_[-1], NappingTree)


class DiesRefittedInAWorker(LogisticRegression):
    """A logistic regression that kills the worker process fitting it on all of iris; in the
    process `main_pid` it fits."""

    def __init__(self, main_pid=None, max_iter=1000):
        self.main_pid = main_pid
        super().__init__(max_iter=max_iter)

    def fit(self, X, y, sample_weight=None):
        if len(X) == 150 and os.getpid() != self.main_pid:
            os._exit(1)
        return super().fit(X, y, sample_weight=sample_weight)


def test_a_worker_that_dies_under_an_early_refit_leaves_the_one_worker_answer():
    # The leader's early refit kills its loky worker while the napping tree's folds run:
    # those run again, alone, and the search refits the leader itself.
    candidates = [DiesRefittedInAWorker(main_pid=os.getpid()), NappingTree(nap=1.0, max_depth=1)]
    with parallel_config("loky"), pytest.warns(RuntimeWarning, match="a worker died"):
        search = _kdpp(candidates, n_jobs=4).fit(X, y)
    get_reusable_executor().shutdown(wait=True)  # the next test gets workers of its own
    alone = _kdpp(candidates, n_jobs=1).fit(X, y)
    assert search.stop_reason_ == "done"
    for key in ("params", "mean_test_score", "split0_test_score", "split2_test_score"):
        assert list(search.cv_results_[key]) == list(alone.cv_results_[key])
    assert isinstance(search.best_estimator_[-1], DiesRefittedInAWorker)
    np.testing.assert_array_equal(search.best_estimator_.predict_proba(X),
                                  alone.best_estimator_.predict_proba(X))


class _Policy:
    def __init__(self):
        self.selections = []

    def likely_selections(self):
        return self.selections


class _Job:
    candidates = [{"C": 1.0}, {"C": 2.0}, {"C": 3.0}, {"C": 4.0}]
    estimators = [LogisticRegression(C=c) for c in (1.0, 2.0, 3.0, 4.0)]
    X, y = X, y

    @staticmethod
    def fit_params(candidate):
        return {}


class _Trainer(Trainer):
    def refit_task(self, job, candidate, resource, fit_params):
        model = LogisticRegression(C=job.candidates[candidate]["C"], max_iter=1000)
        return model.fit, (X, y), {}


def test_early_refits_take_the_likeliest_not_started_and_at_most_two():
    policy = _Policy()
    refits = EarlyRefits(_Job(), _Trainer(), policy)
    assert refits.task() is None and refits.wanted() is None
    policy.selections = [(2, 100), (0, 100)]
    key, task = refits.task()
    assert key == (2, 100) and refits.wanted() == (2, 100)
    key, task = refits.task()  # the likeliest is started: the next one
    assert key == (0, 100)
    estimator, seconds = task[0](*task[1], **task[2])
    assert estimator.C == 1.0 and seconds >= 0
    policy.selections = [(3, 100)]
    assert _MOST == 2 and refits.task() is None  # two made: no more

    refits.take((0, 100), (estimator, seconds))
    refits.take((2, 100), (None, 0.1))  # it raised: left to the search's own refit
    assert refits.done == {(0, 100): (estimator, seconds)}


class OnGPU(LogisticRegression):
    """A model asking for ``device="cuda"``, as a skorch net does."""

    def __init__(self, C=1.0, device="cuda"):
        self.device = device
        super().__init__(C=C)


def test_no_early_refit_of_a_gpu_model_nor_where_the_trainer_keeps_the_refit():
    policy = _Policy()
    policy.selections = [(0, 100), (1, 100)]
    job = _Job()
    job.estimators = [OnGPU(), LogisticRegression(), LogisticRegression(), LogisticRegression()]
    assert EarlyRefits(job, _Trainer(), policy).task()[0] == (1, 100)  # 0 asks for the GPU

    class Keeps(_Trainer):
        def refit_task(self, job, candidate, resource, fit_params):
            return None

    assert EarlyRefits(_Job(), Keeps(), policy).task() is None


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_daub_rungs_name_likely_selections_at_n_only(seed):
    # Before N's rung none; at it the leader at N, then the learners alive not scored at N,
    # the best at its largest size below N first.
    rng = np.random.RandomState(seed)
    finals, slopes = rng.uniform(0.6, 0.9, 6), rng.uniform(10, 80, 6)

    def score(c, n):
        return finals[c] - slopes[c] / n

    policy = RungPolicy(6, [100, 300, 900], model=shipped_model(), threshold=0.1,
                        n_validation=300)
    seen_n = False
    while not policy.done:
        told = set(policy.history_)  # every action handed out is told at once
        if policy.size != 900:
            assert policy.likely_selections() == []
        else:
            seen_n = True
            leader = policy.leader()
            expected = [] if leader is None else [(leader[1], 900)]
            open_ = [c for c in range(6) if c not in policy.dropped_ and (c, 900) not in told]
            below = {c: score(c, max(n for d, n in told if d == c and n < 900)) for c in open_}
            expected += [(c, 900) for c in sorted(open_, key=lambda c: (-below[c], c))]
            assert policy.likely_selections() == expected
        for candidate, size in policy.ask():
            policy.tell(candidate, size, score(candidate, size))
    assert seen_n and policy.likely_selections()[0] == (policy.best_, 900)


@pytest.mark.parametrize("seed", range(3))
def test_daub_rungs_name_the_learners_guessed_at_n_at_the_rung_below(seed):
    # At the rung below N, the learners a worker already trains at N (guesses for idle
    # workers), the best placed first: the order the guesses were handed out in while no
    # result came in.
    rng = np.random.RandomState(seed)
    scores = {(c, n): float(rng.uniform(0.5, 0.9)) for c in range(9) for n in (100, 300, 900)}
    # The first rung keeps every learner (first_cut=False): all 9 go on to 300.
    policy = RungPolicy(9, [100, 300, 900], model=shipped_model(), threshold=0.1,
                        n_validation=300, first_cut=False)
    for action in policy.ask(9, speculative=False):
        assert policy.likely_selections() == []
        policy.tell(*action, scores[action])
    for action in policy.ask(9, speculative=False)[:4]:  # rung 300, the rung below N
        policy.tell(*action, scores[action])
    assert policy.likely_selections() == []  # nothing at N yet
    guessed = []
    while actions := policy.ask(1, idle=True):
        guessed += actions
    assert guessed and all(size == 900 for _, size in guessed)
    assert policy.likely_selections() == guessed
