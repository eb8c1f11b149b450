"""``max_time``, one contract for the four searches (:mod:`sksel._core.deadline`).

The whole ``fit``, the refit included, ends by about ``max_time`` (at most
``1.1 * max_time + 1`` seconds) with the best model evaluated so far; a first
model comes from the cheapest evidence (a few rows of one fold); a search
raises only where not even that ends in time.
"""

import time

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import make_classification
from sklearn.linear_model import SGDClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sksel import DAUBSearch, GPUCBSelector, KDPPSearch, MutantUCBSearch
from sksel._core.deadline import (
    FirstModel,
    NoFirstModel,
    OutOfTime,
    cut_at,
    first_model,
    first_rows,
    hard_limit,
    refit_in_time,
    scaled_seconds,
)
from sksel._core.trainer import Trainer

#: Seconds a fit naps per training row: 0.4 s on the first model's 100 rows, 6.4 s on a
#: training fold of 1,600.
_PER_ROW = 0.004


class RowNappingTree(DecisionTreeClassifier):
    """A decision tree whose fit naps `per_row` seconds per training row: slow on whole
    folds, quick on a few rows."""

    def __init__(self, per_row=0.0, max_depth=None, random_state=0):
        self.per_row = per_row
        super().__init__(max_depth=max_depth, random_state=random_state)

    def fit(self, X, y, sample_weight=None, check_input=True):
        time.sleep(self.per_row * len(X))
        return super().fit(X, y, sample_weight=sample_weight, check_input=check_input)


class RowNappingSGD(SGDClassifier):
    """An SGD classifier whose every pass naps `per_row` seconds per row it trains on."""

    def __init__(self, per_row=0.0, alpha=0.0001, max_iter=10, tol=None, random_state=0):
        self.per_row = per_row
        super().__init__(alpha=alpha, max_iter=max_iter, tol=tol, random_state=random_state)

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        time.sleep(self.per_row * len(X))
        return super().partial_fit(X, y, classes=classes, sample_weight=sample_weight)

    def fit(self, X, y, coef_init=None, intercept_init=None, sample_weight=None):
        time.sleep(self.per_row * len(X) * self.max_iter / 10)
        return super().fit(X, y, coef_init=coef_init, intercept_init=intercept_init,
                           sample_weight=sample_weight)


def _data():
    return make_classification(n_samples=2000, n_features=8, random_state=0)


def _search(name, max_time, n_jobs):
    slow = [RowNappingTree(_PER_ROW, max_depth=3), RowNappingTree(_PER_ROW)]
    common = dict(cv=5, max_time=max_time, n_jobs=n_jobs, random_state=0)
    if name == "daub":
        return DAUBSearch(slow, **common)
    if name == "gpucb":
        return GPUCBSelector(slow, **common)
    if name == "kdpp":
        return KDPPSearch(RowNappingTree(_PER_ROW), {"max_depth": [2, 3, 4, 5]}, n_iter=3,
                          **common)
    return MutantUCBSearch(RowNappingSGD(_PER_ROW / 10),
                           {"alpha": stats.loguniform(1e-5, 1e-1)}, budget=None, **common)


@pytest.mark.parametrize("n_jobs", [1, 2])
@pytest.mark.parametrize("name", ["daub", "gpucb", "kdpp", "mutant"])
def test_a_fit_that_no_evaluation_fits_ends_in_time_with_its_first_model(name, n_jobs):
    # A fold of any candidate trains 6.4 s (Mutant-UCB's sub-train, 0.64 s on each of 5
    # folds), more than max_time; its first model, on 100 rows, 0.4 s. Today's main ran
    # the folds under way to their end (twice max_time) or past it, then raised.
    max_time = 2.0
    X, y = _data()
    start = time.perf_counter()
    with pytest.warns(UserWarning, match="this is the first model, trained on 100 rows"):
        search = _search(name, max_time, n_jobs).fit(X, y)
    assert time.perf_counter() - start <= hard_limit(max_time)
    assert search.stop_reason_ == "max_time"
    results = search.cv_results_
    row = search.best_index_
    assert results["rank_test_score"][row] == 1
    assert results["n_resources"][row] == 100 and results["n_folds_run"][row] == 1
    assert "first model" in results["why_not_evaluated"][row]
    assert np.isfinite(search.best_score_)
    assert search.best_estimator_.predict(X).shape == y.shape
    if name != "mutant":  # the refit trained on the first model's rows at least
        assert 100 <= search.best_estimator_.tree_.n_node_samples[0] <= len(y)


def test_the_first_model_is_the_quickest_class_found_first():
    # The slow class naps 5 s on 100 rows: cut at a sixteenth of the time left, it lets
    # the quick one fit in the first round.
    X, y = _data()
    slow, quick = RowNappingTree(0.05), GaussianNB()
    job = _job([slow, RowNappingTree(0.05, max_depth=2), quick], X, y)
    first = first_model(job, _splits(y), True, max_time=10.0, started=time.perf_counter())
    assert isinstance(first, FirstModel)
    assert first.candidate == 2 and first.rows == 100
    assert first.model.predict(X).shape == y.shape
    assert 0 <= first.output["test_scores"] <= 1


def test_no_first_model_says_which_fits_were_cut():
    X, y = _data()
    job = _job([RowNappingTree(0.05)], X, y)
    first = first_model(job, _splits(y), True, max_time=0.2, started=time.perf_counter())
    assert isinstance(first, NoFirstModel)
    assert list(first.cuts) == [0] and first.cuts[0] == pytest.approx(0.2, abs=0.05)


def test_a_search_that_not_even_its_first_model_fits_raises_what_it_measured():
    X, y = _data()
    search = DAUBSearch([RowNappingTree(0.05), RowNappingTree(0.05, max_depth=2)],
                        cv=5, max_time=0.3, random_state=0)
    with pytest.raises(RuntimeError, match=r"no model can be trained within max_time=0.3 s\. "
                       r"The quickest evidence, one candidate of each estimator class fitted "
                       r"on 100 rows of the first fold, did not end in time: #0 "):
        search.fit(X, y)


def test_cut_at_cuts_a_fit_in_this_process_and_lets_a_quick_one_end():
    with pytest.raises(OutOfTime):
        with cut_at(0.05):
            time.sleep(5)
    with cut_at(5):
        time.sleep(0.01)
    # scikit-learn's _fit_and_score turns a fit's Exception into its error score; the
    # cut is no Exception, so that it lets it through.
    assert not issubclass(OutOfTime, Exception)


def test_first_rows_are_a_stratified_subsample_of_the_fold():
    y = np.array([0] * 900 + [1] * 100)
    rows = first_rows(np.arange(1000), y, classifier=True)
    assert len(rows) == 100 and len(set(rows)) == 100
    assert np.bincount(y[rows]).tolist() == [90, 10]
    many = np.repeat(np.arange(30), 10)
    assert len(first_rows(np.arange(300), many, classifier=True)) == 300  # 10 per class


def test_seconds_scale_as_a_power_of_the_rows():
    assert scaled_seconds(1.0, 100, 300) == pytest.approx(3 ** 1.5)
    assert scaled_seconds(1.0, 100, 1000) == pytest.approx(100.0)  # square beyond 3x


class _FakeClock:
    """``time.perf_counter`` of :mod:`sksel._core.deadline`, moved on by the fits only."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


class _RowsTrainer(Trainer):
    """Refits record the rows they trained on and take ``1e-6 * rows ** 2`` seconds of
    `clock` (0.01 s on 100 rows, 4 s on 2,000)."""

    def __init__(self, clock):
        self.clock = clock
        self.rows = []

    def refit(self, job, candidate, resource, fit_params):
        self.rows.append(len(job.X))
        self.clock.now += 1e-6 * len(job.X) ** 2
        return len(job.X)


@pytest.mark.parametrize("seconds_left, expected", [
    # 0.01 s on 100 rows: all 2,000 are predicted to take 4 s (the square, beyond three
    # times the rows); they end within the 10 s left, so the refit trains on all at once.
    (10.0, [2000]),
    # 1 s left and half the slack, 0.55 s: three times the rows are predicted to take
    # 0.05 s (``rows ** 1.5``), then 900 from 300's 0.09 s, 0.47 s; then 0.66 s are left,
    # and 2,000 rows, predicted from 900's 0.81 s, are not started.
    (1.0, [300, 900]),
    # No time left: the rows the search evaluated, whatever the time.
    (-1.0, [100]),
])
def test_the_refit_climbs_a_ladder_of_subsamples_within_the_time_left(
        seconds_left, expected, monkeypatch):
    X, y = _data()
    clock = _FakeClock()
    monkeypatch.setattr("sksel._core.deadline.time.perf_counter", clock)
    trainer = _RowsTrainer(clock)
    model, rows = refit_in_time(_job([GaussianNB()], X, y), trainer, (0, 100), {},
                                seconds=0.01, rows=100, max_time=10.0,
                                started=clock.now - (10.0 - seconds_left), classifier=True)
    assert trainer.rows == expected
    assert model == rows == expected[-1]


def test_the_refit_hands_back_the_model_it_has_where_no_more_rows_fit(monkeypatch):
    X, y = _data()
    clock = _FakeClock()
    monkeypatch.setattr("sksel._core.deadline.time.perf_counter", clock)
    trainer = _RowsTrainer(clock)
    model, rows = refit_in_time(_job([GaussianNB()], X, y), trainer, (0, 100), {},
                                seconds=5.0, rows=100, model="first", max_time=1.0,
                                started=clock.now, classifier=True)
    assert (model, rows) == ("first", 100) and trainer.rows == []


def _splits(y):
    from sklearn.model_selection import StratifiedKFold
    return list(StratifiedKFold(5).split(np.zeros(len(y)), y))


def _job(estimators, X, y):
    from sklearn.metrics import check_scoring

    from sksel._core.run import _Job
    from sksel.spaces.space import SearchSpace

    space = SearchSpace(estimators, None)
    return _Job(space, space.candidates, list(estimators), X, y,
                check_scoring(estimators[0]), lambda c: {}, {}, error_score=np.nan,
                verbose=0, returns_train_score=lambda r: False)


def test_the_four_searches_say_max_time_in_the_same_words():
    from numpydoc.docscrape import ClassDoc

    def words(search):
        (param,) = [p for p in ClassDoc(search)["Parameters"] if p.name == "max_time"]
        return " ".join(param.desc)

    daub = words(DAUBSearch)
    assert "1.1 * max_time + 1" in daub and "the first model is selected" in daub
    for search in (GPUCBSelector, KDPPSearch, MutantUCBSearch):
        assert words(search).startswith(daub)
