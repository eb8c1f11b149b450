"""DAUBSearch, the estimator: sklearn compatibility, results, errors, execution."""

import os
import re
import signal
import time
import warnings
from collections import Counter

import joblib
import numpy as np
import pytest
from _common import (
    CountingClassifier,
    CountingRegressor,
    FailsBelowRows,
    FailsFromRows,
    stop_after,
    uncapped_daub,
)
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import load_iris, make_classification, make_regression
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.exceptions import FitFailedWarning
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import accuracy_score, f1_score
from sklearn.model_selection import (
    GridSearchCV,
    GroupKFold,
    HalvingGridSearchCV,
    KFold,
    ShuffleSplit,
    StratifiedKFold,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from sksel import DAUBSearch
from sksel._core.run import _Run
from sksel.daub import DAUBPolicy, RungPolicy, accuracy_noise, daub_sizes

# ------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def clf_data():
    return make_classification(
        n_samples=300, n_features=20, n_informative=6, n_redundant=2, random_state=0
    )


CV3 = StratifiedKFold(3, shuffle=True, random_state=0)
C_GRID = {"C": [0.001, 0.01, 0.1, 1.0]}


def _n_total(search):
    return search.sizes_[-1]


# ------------------------------------------------------------ helper estimators


class FailingClassifier(ClassifierMixin, BaseEstimator):
    """Raises in fit with a recognisable message."""

    def __init__(self, tag="boom"):
        self.tag = tag

    def fit(self, X, y):
        raise RuntimeError(f"FailingClassifier {self.tag} cannot fit")


class SleepyClassifier(ClassifierMixin, BaseEstimator):
    """Majority class after a nap; `quality` shifts nothing but identifies it."""

    def __init__(self, seconds=0.2, quality=0):
        self.seconds = seconds
        self.quality = quality

    def fit(self, X, y):
        time.sleep(self.seconds)
        self.classes_, counts = np.unique(y, return_counts=True)
        self.majority_ = self.classes_[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_)


PROBE_LOG = []


class ProbeClassifier(ClassifierMixin, BaseEstimator):
    """Remembers which rows (column 0 holds the row id) it was fitted on."""

    def __init__(self, quality=0.5):
        self.quality = quality

    def fit(self, X, y):
        self.rows_ = X[:, 0].astype(int)
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


def probe_scorer(estimator, X, y):
    """Logs (quality, fitted rows, scored rows); a concave curve in the fit size."""
    fitted = frozenset(estimator.rows_.tolist())
    scored = frozenset(X[:, 0].astype(int).tolist())
    PROBE_LOG.append((estimator.quality, fitted, scored))
    return estimator.quality - 1.0 / len(fitted)


# ------------------------------------------------------- against GridSearchCV


def _grid_search(estimator, grid, cv, X, y, **kwargs):
    return GridSearchCV(estimator, grid, cv=cv, **kwargs).fit(X, y)


def _assert_same_row(search, i, gs, j, n_splits):
    """Row `i` of `search` is row `j` of `gs` on the folds it ran (all but a race's)."""
    splits = [f"split{k}_test_score" for k in range(n_splits)]
    ran = [key for key in splits if np.isfinite(search.cv_results_[key][i])]
    assert ran == splits[:len(ran)] and ran
    for key in ran:
        np.testing.assert_allclose(search.cv_results_[key][i], gs.cv_results_[key][j],
                                   rtol=1e-12, err_msg=key)
    scores = [gs.cv_results_[key][j] for key in ran]
    peers = search.cv_results_["n_resources"] == search.cv_results_["n_resources"][i]
    if len(ran) < search.cv_results_["n_folds_run"][peers].max():
        scores = [np.nan]  # a race's: not comparable with its peers' means
    for key, expected in (("mean_test_score", np.mean(scores)), ("std_test_score", np.std(scores))):
        np.testing.assert_allclose(search.cv_results_[key][i], expected, rtol=1e-12, err_msg=key)


@pytest.mark.parametrize("stop", ["first", "strict"])
def test_rows_at_full_size_equal_grid_search(clf_data, stop):
    X, y = clf_data
    search = DAUBSearch(LogisticRegression(), C_GRID, cv=CV3, b=20, stop=stop,
                        random_state=0).fit(X, y)
    gs = _grid_search(LogisticRegression(), C_GRID, CV3, X, y)
    res = search.cv_results_
    at_n = np.flatnonzero(res["n_resources"] == _n_total(search))
    assert len(at_n) >= 1
    for i in at_n:
        _assert_same_row(search, i, gs, gs.cv_results_["params"].index(res["params"][i]), 3)
    # The selected candidate is the best of those trained on whole folds.
    assert search.best_index_ in at_n
    assert search.best_score_ == np.nanmax(res["mean_test_score"][at_n])
    if stop == "strict":
        # Strict DAUB stops only when no candidate left short of N has an upper
        # bound above the selected score.
        for c in set(range(4)) - set(res["candidate_id"][at_n]):
            assert search.policy_.upper_bound(c) <= search.best_score_


@pytest.mark.parametrize("cv", ["splitter", "list"])
@pytest.mark.parametrize("stop", ["first", "strict"])
def test_full_budget_equals_grid_search(clf_data, stop, cv):
    """With b equal to the training-fold size, every candidate is fitted on whole folds."""
    X, y = clf_data
    splits = list(CV3.split(X, y))
    cv_arg = CV3 if cv == "splitter" else splits
    n_train = min(len(train) for train, _ in splits)
    with pytest.warns(UserWarning, match="The subsample sizes .* hold fewer than two"):
        search = DAUBSearch(LogisticRegression(), C_GRID, cv=cv_arg, b=n_train, stop=stop,
                            race_folds=False, random_state=0, risk=0).fit(X, y)
    gs = _grid_search(LogisticRegression(), C_GRID, cv_arg, X, y)
    assert search.sizes_ == [n_train]
    assert list(search.cv_results_["n_resources"]) == [n_train] * 4
    assert search.cv_results_["params"] == gs.cv_results_["params"]
    for i in range(4):
        _assert_same_row(search, i, gs, i, 3)
    np.testing.assert_array_equal(search.cv_results_["rank_test_score"],
                                  gs.cv_results_["rank_test_score"])
    assert search.best_params_ == gs.best_params_
    assert search.best_score_ == pytest.approx(gs.best_score_)


def test_small_data_compares_every_candidate():
    """60 rows, cv=3: b='auto' gives sizes [20, 40], the warm-up sizes."""
    X, y = make_classification(n_samples=60, n_features=5, n_informative=3,
                               n_redundant=0, class_sep=2.0, random_state=0)
    with pytest.warns(UserWarning, match=r"The training folds \(40 rows\) leave no rung"):
        search = DAUBSearch([DummyClassifier(), LogisticRegression()],
                            cv=StratifiedKFold(3), random_state=0).fit(X, y)
    assert len(search.sizes_) <= 2
    # Both candidates must be tried; the constant predictor is far worse.
    assert set(search.cv_results_["candidate_id"]) == {0, 1}
    assert isinstance(search.best_estimator_, LogisticRegression)


def test_warm_up_stops_below_n():
    """l=3 with sizes [30, 60, 100]: the warm-up is the two sizes below N."""
    with uncapped_daub():
        X, y = make_classification(n_samples=150, n_features=5, random_state=0)
        search = DAUBSearch([GaussianNB(), DummyClassifier(), LogisticRegression()],
                            cv=StratifiedKFold(3), b=30, r=2.0, random_state=0, risk=0).fit(X, y)
        assert search.sizes_ == [30, 60, 100]
        assert search.policy_.history_[:6] == [(c, n) for c in range(3) for n in (30, 60)]
        # The constant predictor's flat curve is far below the others: it never gets N.
        at_n = search.all_cv_results_["n_resources"] == 100
        assert 1 not in search.all_cv_results_["candidate_id"][at_n]


def _probed_search(**params):
    """DAUBSearch of three probes on 240 rows, 3 folds; (search, y, folds as row sets)."""
    X0, y = make_classification(n_samples=240, n_features=4, random_state=1)
    X = np.column_stack([np.arange(len(y)), X0])
    cv = StratifiedKFold(3, shuffle=True, random_state=1)
    folds = [(frozenset(tr.tolist()), frozenset(te.tolist())) for tr, te in cv.split(X, y)]
    PROBE_LOG.clear()
    search = DAUBSearch([ProbeClassifier(quality=q) for q in (0.6, 0.9, 0.7)], cv=cv, b=20,
                        scoring=probe_scorer, random_state=0, n_jobs=1, **params).fit(X, y)
    return search, y, folds


def test_subsamples_nested_and_validation_folds_whole():
    """The probe logs which rows every fit and every scoring saw."""
    search, y, folds = _probed_search(bound="train", subsample_folds="all")
    sizes = search.sizes_
    n_total = sizes[-1]
    assert n_total == min(len(tr) for tr, _ in folds)

    validation = [(q, fit, scored) for q, fit, scored in PROBE_LOG if scored != fit]
    training = [(q, fit, scored) for q, fit, scored in PROBE_LOG if scored == fit]
    # bound="train" scores every fitted training subsample below N once, on exactly
    # its rows; a fit on a whole training fold (size N) needs no bound, so no scoring.
    whole = {train for train, _ in folds}
    assert Counter((q, fit) for q, fit, _ in training) == Counter(
        (q, fit) for q, fit, _ in validation if fit not in whole)
    by_candidate_fold = {}
    for q, fit, scored in validation:
        fold = next(k for k, (_, te) in enumerate(folds) if te == scored)  # a whole fold
        assert fit <= folds[fold][0]  # trained only on that fold's training rows
        by_candidate_fold.setdefault((q, fold), []).append(fit)
    for (q, fold), fits in by_candidate_fold.items():
        lengths = [len(f) for f in fits]
        expected = [n if n < n_total else len(folds[fold][0]) for n in sizes]
        assert lengths == expected[: len(lengths)]
        assert all(a < b for a, b in zip(fits, fits[1:]))  # strictly nested subsets
        # Stratified: each subsample keeps the fold's class balance within one row.
        full = np.array(sorted(folds[fold][0]))
        for f in fits:
            rows = np.array(sorted(f))
            share = np.mean(y[full])
            assert abs(np.sum(y[rows]) - share * len(rows)) <= 1
    # The recorded scores are the ones reported, split by split.
    all_res = search.all_cv_results_
    for i in range(len(all_res["params"])):
        n = all_res["n_resources"][i]
        q = all_res["params"][i]["estimator"].quality
        for k in range(3):
            n_fit = n if n < n_total else len(folds[k][0])
            assert all_res[f"split{k}_test_score"][i] == pytest.approx(q - 1 / n_fit)


@pytest.mark.parametrize("subsample_folds", [1, 2])
def test_subsamples_run_on_the_first_folds_only(subsample_folds):
    """Below N, the first `subsample_folds` folds; at N, every fold, as GridSearchCV."""
    search, _, folds = _probed_search(subsample_folds=subsample_folds)
    n_total = search.sizes_[-1]
    whole = {train for train, _ in folds}
    scored_below_n = {scored for _, fit, scored in PROBE_LOG if fit not in whole}
    assert scored_below_n == {test for _, test in folds[:subsample_folds]}
    res = search.all_cv_results_
    splits = np.column_stack([res[f"split{k}_test_score"] for k in range(3)])
    below = res["n_resources"] < n_total
    assert below.any() and (~below).any()
    assert np.isnan(splits[below, subsample_folds:]).all()
    assert np.isfinite(splits[below, :subsample_folds]).all()
    assert np.isfinite(splits[~below]).all()
    np.testing.assert_allclose(res["mean_test_score"],
                               [np.mean(row[np.isfinite(row)]) for row in splits])
    np.testing.assert_allclose(res["std_test_score"],
                               [np.std(row[np.isfinite(row)]) for row in splits])
    assert np.isfinite(res["mean_fit_time"]).all()
    # The selected candidate's row is a whole cross-validation, as GridSearchCV's.
    assert search.best_params_["estimator"].quality == 0.9
    assert search.cv_results_["n_resources"][search.best_index_] == n_total


# ------------------------------------------------------------------ composition


def test_inside_a_pipeline():
    X, y = load_iris(return_X_y=True)
    pipe = make_pipeline(
        StandardScaler(),
        DAUBSearch(LogisticRegression(max_iter=500), {"C": [0.01, 1.0]}, cv=3,
                   random_state=0),
    ).fit(X, y)
    search = pipe[-1]
    scaled = StandardScaler().fit_transform(X)
    np.testing.assert_array_equal(pipe.predict(X), search.best_estimator_.predict(scaled))
    np.testing.assert_allclose(pipe.predict_proba(X),
                               search.best_estimator_.predict_proba(scaled))
    assert search.n_features_in_ == 4
    np.testing.assert_array_equal(search.classes_, [0, 1, 2])


def test_wraps_pipeline_with_step_choices():
    X, y = load_iris(return_X_y=True)
    pipe = Pipeline([("scale", StandardScaler()), ("clf", LogisticRegression())])
    grid = {"clf": [LogisticRegression(max_iter=500), SVC()], "clf__C": [0.001, 1.0]}
    search = DAUBSearch(pipe, grid, cv=3, random_state=0, stop="strict").fit(X, y)
    res = search.cv_results_
    assert [type(c).__name__ for c in res["param_clf"]] == [
        "LogisticRegression", "LogisticRegression", "SVC", "SVC"]
    np.testing.assert_array_equal(res["param_clf__C"], [0.001, 1.0, 0.001, 1.0])
    best = search.best_estimator_
    assert isinstance(best, Pipeline)
    assert type(best.named_steps["clf"]) is type(search.best_params_["clf"])
    assert best.named_steps["clf"].C == search.best_params_["clf__C"] == 1.0
    # The user's pipeline and grid objects are not fitted or changed.
    assert not hasattr(pipe.named_steps["clf"], "coef_")
    assert not hasattr(grid["clf"][0], "coef_")


def test_clone_and_params():
    search = DAUBSearch([GaussianNB(), (SVC(), {"C": [1, 2]})], r=2.0, b=30, l=4,
                        bound="slope", stop="strict", tol=0.01, cv=0.3, random_state=3,
                        max_time=100.0)
    cloned = clone(search)
    assert cloned is not search
    a, b = search.get_params(deep=False), cloned.get_params(deep=False)
    assert a.keys() == b.keys()
    for key in a:
        if key == "estimator":
            assert repr(a[key]) == repr(b[key])
            assert all(x is not y for x, y in zip(a[key], b[key]))  # deep copies
        elif key == "error_score":
            assert np.isnan(a[key]) and np.isnan(b[key])
        else:
            assert a[key] == b[key], key
    assert set(DAUBSearch(LogisticRegression()).get_params()) >= {
        "estimator", "param_grid", "r", "b", "l", "bound", "stop", "tol", "scoring",
        "n_jobs", "refit", "cv", "verbose", "random_state", "error_score",
        "return_train_score", "max_time"}


def test_cv_results_frame(clf_data):
    pd = pytest.importorskip("pandas")
    X, y = clf_data
    search = DAUBSearch(LogisticRegression(), C_GRID, cv=CV3, b=20, random_state=0,
                        return_train_score=True).fit(X, y)
    gs = _grid_search(LogisticRegression(), C_GRID, CV3, X, y, return_train_score=True)
    frame = pd.DataFrame(search.cv_results_)
    assert set(frame.columns) == set(gs.cv_results_) | {"candidate_id", "candidate_name",
                                                        "n_resources", "iter",
                                                        "n_folds_run", "why_not_evaluated"} | {
        f"{key}_at_resource" for key in ("mean_test_score", "std_test_score",
                                         "mean_train_score", "std_train_score")}
    # Every row has its reason where it has one: a race's row at N ran fewer folds.
    full = frame["n_folds_run"] == CV3.get_n_splits()
    assert (frame.loc[full, "why_not_evaluated"] == "").all()
    assert len(frame) == 4
    assert list(frame["candidate_id"]) == [0, 1, 2, 3]
    assert frame.loc[search.best_index_, "rank_test_score"] == 1
    assert (frame["rank_test_score"] == 1).sum() == 1
    assert frame.loc[search.best_index_, "params"] == search.best_params_
    np.testing.assert_array_equal(frame["iter"],
                                  [search.sizes_.index(n) for n in frame["n_resources"]])

    every = pd.DataFrame(search.all_cv_results_)
    # Every evaluation, and whether it was used; no candidate is left out of it.
    assert set(every.columns) == set(frame.columns) - {"why_not_evaluated"} | {"speculative"}
    assert len(every) == len(search.policy_.history_)
    assert list(zip(every["candidate_id"], every["n_resources"])) == search.policy_.decisions_
    assert not every["speculative"].any()
    # cv_results_ holds each candidate's row at its largest size.
    for _, row in frame.iterrows():
        mine = every[every["candidate_id"] == row["candidate_id"]]
        last = mine.loc[mine["n_resources"].idxmax()]
        assert row["n_resources"] == last["n_resources"]
        for key in ["mean_test_score", "split0_test_score", "mean_train_score"]:
            assert row[key] == last[key] or (np.isnan(row[key]) and np.isnan(last[key]))


# ------------------------------------------------------------------ scoring, cv


def test_multimetric_refit_by_name(clf_data):
    X, y = clf_data
    scoring = {"accuracy": "accuracy", "bal": "balanced_accuracy"}
    # Same bound for both scorings, and decisions that do not read fit times.
    kwargs = dict(cv=CV3, b=20, noise=0.0, bound="slope", cost="rows", random_state=0)
    search = DAUBSearch(LogisticRegression(), C_GRID, scoring=scoring, refit="accuracy",
                        return_train_score=True, **kwargs).fit(X, y)
    single = DAUBSearch(LogisticRegression(), C_GRID, scoring="accuracy", **kwargs).fit(X, y)
    assert search.multimetric_
    for metric in scoring:
        for part in ("test", "train"):
            for stat in ("mean", "std", "split0", "split2"):
                assert f"{stat}_{part}_{metric}" in search.cv_results_
        assert f"rank_test_{metric}" in search.cv_results_
    # "accuracy" drives the allocation: same decisions and selection as alone.
    assert search.policy_.history_ == single.policy_.history_
    assert search.best_params_ == single.best_params_
    assert search.best_score_ == single.best_score_
    assert search.cv_results_["rank_test_accuracy"][search.best_index_] == 1
    np.testing.assert_allclose(search.cv_results_["mean_test_accuracy"],
                               single.cv_results_["mean_test_score"])
    assert set(search.scorer_) == set(scoring)


@pytest.mark.parametrize("refit", [True, False])
def test_multimetric_needs_refit_name(clf_data, refit):
    X, y = clf_data
    CountingClassifier.n_fits = 0
    search = DAUBSearch(CountingClassifier(), {"C": [1, 2]}, scoring=["accuracy", "f1"],
                        refit=refit, cv=3)
    with pytest.raises(ValueError, match="refit"):
        search.fit(X, y)
    assert CountingClassifier.n_fits == 0


def _dict_scorer(estimator, X, y):
    pred = estimator.predict(X)
    return {"acc": accuracy_score(y, pred), "f1": f1_score(y, pred)}


def test_multimetric_callable_scoring(clf_data):
    X, y = clf_data
    # Same bound for both scorings, and decisions that do not read fit times.
    kwargs = dict(cv=CV3, b=20, noise=0.0, bound="slope", cost="rows", random_state=0)
    search = DAUBSearch(LogisticRegression(), C_GRID, scoring=_dict_scorer, refit="acc",
                        **kwargs, risk=0).fit(X, y)
    single = DAUBSearch(LogisticRegression(), C_GRID, scoring="accuracy", **kwargs,
                        risk=0).fit(X, y)
    assert search.multimetric_
    assert {"mean_test_acc", "mean_test_f1", "rank_test_acc"} <= set(search.cv_results_)
    assert search.policy_.decisions_ == single.policy_.decisions_
    assert search.best_params_ == single.best_params_


def test_multimetric_callable_scoring_needs_refit_name(clf_data):
    X, y = clf_data
    with pytest.raises(ValueError, match="refit"):
        DAUBSearch(LogisticRegression(), C_GRID, scoring=_dict_scorer, refit=True,
                   cv=CV3, b=20).fit(X, y)


def test_return_train_score(clf_data):
    X, y = clf_data
    for bound in ("train", "slope"):
        plain = DAUBSearch(LogisticRegression(), C_GRID, cv=CV3, b=20, bound=bound,
                           random_state=0).fit(X, y)
        assert not any("train" in key for key in plain.cv_results_)
        assert not any("train" in key for key in plain.all_cv_results_)
    search = DAUBSearch(LogisticRegression(), C_GRID, cv=CV3, b=20, random_state=0,
                        return_train_score=True, stop="strict", race_folds=False).fit(X, y)
    gs = _grid_search(LogisticRegression(), C_GRID, CV3, X, y, return_train_score=True)
    res = search.cv_results_
    assert {"mean_train_score", "std_train_score", "split2_train_score"} <= set(res)
    at_n = np.flatnonzero(res["n_resources"] == _n_total(search))
    assert len(at_n) >= 1
    for i in at_n:
        j = gs.cv_results_["params"].index(res["params"][i])
        for key in ("mean_train_score", "split0_train_score", "split2_train_score"):
            np.testing.assert_allclose(res[key][i], gs.cv_results_[key][j], rtol=1e-12)
    # On small subsamples a regularised model fits its few rows better than the whole fold.
    every = search.all_cv_results_
    assert np.all(np.isfinite(every["mean_train_score"]))


def test_holdout_float_cv(clf_data):
    X, y = clf_data
    search = DAUBSearch(LogisticRegression(), C_GRID, cv=0.25, random_state=0).fit(X, y)
    assert search.n_splits_ == 1
    assert "split0_test_score" in search.cv_results_
    assert "split1_test_score" not in search.cv_results_
    assert search.sizes_[-1] == 225  # 75% of 300 rows train, 25% validate
    # The same seed gives the same holdout and the same result.
    again = DAUBSearch(LogisticRegression(), C_GRID, cv=0.25, random_state=0).fit(X, y)
    np.testing.assert_array_equal(search.cv_results_["mean_test_score"],
                                  again.cv_results_["mean_test_score"])


def test_groups_reach_the_splitter():
    X, y = make_classification(n_samples=120, random_state=0)
    groups = np.repeat(np.arange(6), 20)
    PROBE_LOG.clear()
    Xid = np.column_stack([np.arange(len(y)), X])
    DAUBSearch([ProbeClassifier(0.5), ProbeClassifier(0.6)], cv=GroupKFold(3),
               scoring=probe_scorer, b=10).fit(Xid, y, groups=groups)
    for _, fit, scored in PROBE_LOG:
        if fit != scored:
            assert not set(groups[list(fit)]) & set(groups[list(scored)])


class WeightProbe(ClassifierMixin, BaseEstimator):
    """Checks that it gets the sample weights of exactly its training rows."""

    def fit(self, X, y, sample_weight=None):
        # Column 0 holds the row id, and the weight of row i is 1000 + i.
        np.testing.assert_array_equal(sample_weight, 1000 + X[:, 0])
        self.n_fit_ = len(X)
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


def test_fit_params_follow_the_subsample():
    X, y = make_classification(n_samples=150, n_features=4, n_informative=2, random_state=0)
    Xid = np.column_stack([np.arange(len(y)), X])
    search = DAUBSearch([WeightProbe(), DummyClassifier()], cv=3, b=10, rungs="all",
                        error_score="raise", random_state=0)
    search.fit(Xid, y, sample_weight=1000.0 + np.arange(len(y)))
    assert list(search.all_cv_results_["candidate_id"]).count(0) >= 2  # several sizes


@pytest.mark.parametrize(
    "estimator,n_total,n_classes,expected_b",
    [
        (DummyClassifier(), 20_000, 3, 500),  # N // 32 = 625, capped at 500
        (DummyClassifier(), 8_000, 3, 250),  # N // 32
        (DummyClassifier(), 1_000, 10, 100),  # 10 rows per class
        (DummyRegressor(), 320, None, 20),  # 20 rows for a regressor
        pytest.param(DummyClassifier(), 15, 2, 15,  # at most N: one size, which it warns of
                     marks=pytest.mark.filterwarnings(
                         "ignore:The subsample sizes .* hold fewer than two:UserWarning")),
    ],
)
def test_auto_granularity(estimator, n_total, n_classes, expected_b):
    rng = np.random.RandomState(0)
    n = n_total + 40
    X = rng.normal(size=(n, 2))
    y = np.arange(n) % n_classes if n_classes else rng.normal(size=n)
    cv = [(np.arange(n_total), np.arange(n_total, n))]
    search = DAUBSearch([estimator, clone(estimator)], cv=cv, random_state=0, risk=0).fit(X, y)
    # r="auto": growth 3 below 10,000 rows, 2 from there on.
    assert search.sizes_ == daub_sizes(n_total, expected_b, 2.0 if n_total >= 10_000 else 3.0)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_regressors_scored_by_r2_go_through_the_rungs_and_pick_as_grid_search(n_jobs):
    """With R², the regressors' own score, the default risk runs the rungs with the gap model
    of R² curves: learners are dropped on subsamples, the one selected scores on all the
    rows as in GridSearchCV, and is GridSearchCV's best here (a linear target), whatever
    n_jobs."""
    rng = np.random.RandomState(0)
    X = rng.normal(size=(3000, 8))
    y = X @ rng.normal(size=8) + 0.5 * rng.normal(size=3000)
    learners = [make_pipeline(StandardScaler(), Ridge()), DummyRegressor(),
                DecisionTreeRegressor(max_depth=2, random_state=0),
                DecisionTreeRegressor(random_state=0), KNeighborsRegressor()]
    folds = list(KFold(5, shuffle=True, random_state=0).split(X))
    search = DAUBSearch(learners, cv=folds, random_state=0, n_jobs=n_jobs).fit(X, y)
    assert isinstance(search.policy_, RungPolicy) and search.policy_.model.kind == "r2"
    assert search.policy_.dropped_  # some learners got no more rows
    grid = GridSearchCV(Pipeline([("estimator", learners[0])]), {"estimator": learners},
                        cv=folds).fit(X, y)
    assert search.best_index_ == int(np.argmin(grid.cv_results_["rank_test_score"]))
    assert search.best_score_ == pytest.approx(grid.best_score_)


@pytest.mark.parametrize("scoring", ["neg_median_absolute_error", "explained_variance"])
def test_a_risk_the_rungs_cannot_take_warns_that_it_does_nothing(scoring):
    """Regression scores that are neither R² nor an error the scale maps have no model of
    learning curves: the search uses DAUB's bounds, and a risk set away from its default
    says it has no effect (the default, no warning)."""
    X, y = make_regression(n_samples=300, n_features=3, noise=1.0, random_state=0)
    learners = [DummyRegressor(), DecisionTreeRegressor(random_state=0)]
    with pytest.warns(UserWarning, match=r"risk=0\.2 has no effect with scores of "
                                         r"(median_absolute_error|explained_variance)"):
        search = DAUBSearch(learners, scoring=scoring, risk=0.2, random_state=0).fit(X, y)
    assert isinstance(search.policy_, DAUBPolicy)
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="risk=")
        DAUBSearch(learners, scoring=scoring, random_state=0).fit(X, y)


@pytest.mark.parametrize(
    "scoring,regression,max_score,has_noise",
    [
        (None, False, 1.0, True),
        ("balanced_accuracy", False, 1.0, True),
        ("neg_log_loss", False, 0.0, False),
        (None, True, 1.0, False),  # R²
        ("neg_mean_squared_error", True, 0.0, False),
        ("d2_absolute_error_score", True, np.inf, False),  # not known: no cap
    ],
)
def test_policy_options_follow_the_scorer(scoring, regression, max_score, has_noise):
    with uncapped_daub():
        rng = np.random.RandomState(0)
        X = rng.normal(size=(300, 3))
        y = X[:, 0] if regression else (X[:, 0] > 0).astype(int)
        estimator = DummyRegressor() if regression else DummyClassifier()
        search = DAUBSearch([estimator, clone(estimator)], scoring=scoring, cv=3, l=2,
                            random_state=0, risk=0).fit(X, y)
        policy = search.policy_
        assert policy.max_score == max_score
        # The standard error of a score on the 100 validation rows of the first fold:
        # binomial at the score for accuracy, its largest value for other scores.
        for search, n_validation in [(search, 100), (
                DAUBSearch([estimator, clone(estimator)], scoring=scoring, cv=3, l=2,
                           random_state=0, subsample_folds="all", risk=0).fit(X, y), 300)]:
            noise = search.policy_.noise
            if not has_noise:
                assert noise == 0.0
            elif scoring is None:
                assert noise(0.9) == accuracy_noise(0.9, n_validation)
            else:
                assert noise == pytest.approx(0.5 / np.sqrt(n_validation))
        # Warm-up on the l smallest sizes: both candidates got both.
        assert policy.history_[:4] == [(c, n) for c in range(2) for n in search.sizes_[:2]]


def _spelled_alike(search, key):
    """Every evaluation's score, the policy's noise and its drops: what a spelling changes."""
    policy = search.policy_
    return ([None if np.isnan(v) else v for v in search.all_cv_results_[f"mean_test_{key}"]],
            policy.history_,
            policy.noise(0.8) if callable(policy.noise) else policy.noise,
            policy.probabilities_, policy.dropped_)


@pytest.mark.parametrize("spelling", ["scorer", "make_scorer", "dict"])
def test_how_the_scorer_is_spelled_does_not_change_the_search(clf_data, spelling):
    from sklearn.metrics import get_scorer, make_scorer

    X, y = clf_data
    learners = [LogisticRegression(C=C) for C in C_GRID["C"]] + [GaussianNB()]
    scoring, refit, key = {
        "scorer": (get_scorer("accuracy"), True, "score"),
        "make_scorer": (make_scorer(accuracy_score), True, "score"),
        "dict": ({"acc": "accuracy", "f1": "f1"}, "acc", "acc"),
    }[spelling]
    plain = DAUBSearch(learners, scoring="accuracy", cv=CV3, cost="rows",
                       random_state=0).fit(X, y)
    other = DAUBSearch(learners, scoring=scoring, refit=refit, cv=CV3, cost="rows",
                       random_state=0).fit(X, y)
    assert _spelled_alike(other, key) == _spelled_alike(plain, "score")


# ----------------------------------------------------------------- bad inputs


def _bad_input(search, X, y, match, exc=ValueError):
    CountingClassifier.n_fits = CountingRegressor.n_fits = 0
    with pytest.raises(exc, match=match):
        search.fit(X, y)
    assert CountingClassifier.n_fits == 0 and CountingRegressor.n_fits == 0


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(r=1.0), "'r' parameter"),
        (dict(r=0.5), "'r' parameter"),
        (dict(b=0), "'b' parameter"),
        (dict(b=201), "b=201"),  # 300 rows, cv=3: training folds of 200 rows
        (dict(l=1), "'l' parameter"),
        (dict(bound="upper"), "'bound' parameter"),
        (dict(stop="never"), "'stop' parameter"),
        (dict(tol=-0.1), "'tol' parameter"),
        (dict(cv=1.5), "'cv' parameter"),
    ],
)
def test_bad_parameters_raise_before_training(clf_data, kwargs, match):
    X, y = clf_data
    _bad_input(DAUBSearch(CountingClassifier(), {"C": [1, 2]}, **{"cv": 3, **kwargs}, risk=0),
               X, y, match)


def test_unknown_grid_parameter_raises_before_training(clf_data):
    X, y = clf_data
    _bad_input(DAUBSearch(CountingClassifier(), {"bogus": [1, 2]}, cv=3), X, y,
               "Invalid parameter 'bogus'")


def test_unknown_grid_parameter_in_later_pair_raises_before_training(clf_data):
    X, y = clf_data
    CountingClassifier.n_fits = 0
    search = DAUBSearch(
        [(LogisticRegression(), {"C": [1.0]}), (CountingClassifier(), {"bogus": [1]})],
        cv=3,
    )
    calls = []
    original = LogisticRegression.fit

    def spy(self, *args, **kwargs):
        calls.append(1)
        return original(self, *args, **kwargs)

    try:
        LogisticRegression.fit = spy
        with pytest.raises(ValueError, match="bogus"):
            search.fit(X, y)
    finally:
        LogisticRegression.fit = original
    assert calls == []


@pytest.mark.parametrize("estimator", [[], (CountingClassifier(), [])])
def test_empty_candidates(clf_data, estimator):
    X, y = clf_data
    if isinstance(estimator, tuple):
        search = DAUBSearch(estimator[0], estimator[1], cv=3)
    else:
        search = DAUBSearch(estimator, cv=3)
    _bad_input(search, X, y, "estimator")


def test_non_estimator_candidate(clf_data):
    X, y = clf_data
    _bad_input(DAUBSearch([CountingClassifier(), "svc"], cv=3), X, y, r"estimator\[1\]",
               exc=TypeError)


def test_nan_in_y():
    X, y = make_regression(n_samples=100, n_features=3, random_state=0)
    y[7] = np.nan
    _bad_input(DAUBSearch(CountingRegressor(), {"alpha": [1, 2]}, cv=3), X, y, r"\by\b")


def test_daub_parameters_set_at_risk_above_zero_warn_before_training(clf_data):
    """At the default risk the rungs ignore b, r and l (and DAUB's other knobs): a warning
    names each one set and risk=0, where they apply, before any fit."""
    X, y = clf_data
    search = DAUBSearch(CountingClassifier(), {"C": [1, 2]}, cv=3, l=8, b=25, r=2,
                        jump=1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        _bad_input(search, X, y, r"^r=2, b=25, l=8, jump=1\.0 tune DAUB's upper bounds, "
                   r"which the search uses with risk=0 .* at risk=0\.1 the rungs ignore them",
                   exc=UserWarning)


@pytest.mark.parametrize("kwargs", [dict(), dict(risk=0, b=25, r=2),
                                    dict(risk=0.1, bound="train", b=25, r=2)])
def test_daub_parameters_used_or_left_at_their_defaults_do_not_warn(clf_data, kwargs):
    X, y = clf_data
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        DAUBSearch([GaussianNB(), LogisticRegression()], cv=3, random_state=0,
                   **kwargs).fit(X, y)


def test_l_above_the_sizes_below_n_at_risk_zero_warns_and_is_lowered(clf_data):
    """risk=0 with 6 sizes (5 below N) and l=8: the slopes use the 5 points, with a warning."""
    X, y = clf_data
    search = DAUBSearch([GaussianNB(), LogisticRegression()], cv=3, risk=0, l=8, b=8, r=2,
                        random_state=0)
    with pytest.warns(UserWarning, match=r"l=8 is more than the 5 subsample sizes below"):
        search.fit(X, y)
    assert len(search.sizes_) == 6
    assert search.policy_.l == 5 and search.policy_.warm_up == 5


# ------------------------------------------------------------------- failures


@pytest.mark.filterwarnings("ignore:One or more of the test scores are non-finite")
def test_failing_learner_becomes_error_score(clf_data):
    X, y = clf_data
    search = DAUBSearch([FailingClassifier(), GaussianNB(), LogisticRegression()], rungs="all",
                        cv=CV3, b=20, random_state=0)
    with (pytest.warns(FitFailedWarning, match="FailingClassifier boom cannot fit"),
          pytest.warns(FitFailedWarning, match="FailingClassifier failed on every fold")):
        search.fit(X, y)
    res = search.cv_results_
    failed = res["candidate_id"].tolist().index(0)
    assert np.isnan(res["mean_test_score"][failed])
    # Failed on every fold of its first size, then on the first whole training fold of its
    # one try there: given up.
    sizes = search.sizes_
    assert [n for c, n in search.policy_.history_ if c == 0] == [sizes[0], sizes[-1]]
    assert res["n_resources"][failed] == sizes[-1]
    assert res["rank_test_score"][failed] == 3
    assert not isinstance(search.best_estimator_, FailingClassifier)
    assert search.best_index_ != failed


def test_error_score_raise(clf_data):
    X, y = clf_data
    search = DAUBSearch([GaussianNB(), FailingClassifier()], cv=3, error_score="raise")
    with pytest.raises(RuntimeError, match="FailingClassifier boom cannot fit"):
        search.fit(X, y)


def test_all_learners_failing(clf_data):
    X, y = clf_data
    search = DAUBSearch([FailingClassifier("one"), FailingClassifier("two")], cv=3)
    with pytest.raises(ValueError, match=r"All the \d+ fits failed") as info:
        search.fit(X, y)
    assert "FailingClassifier one cannot fit" in str(info.value)
    assert "FailingClassifier two cannot fit" in str(info.value)


class _CountedFits:
    """Counts its fits, and the rows of each, in a class attribute (``n_jobs=1``: one process)."""

    fitted_rows = []

    def fit(self, X, y):
        _CountedFits.fitted_rows.append(len(X))
        return super().fit(X, y)


class CountedLogisticRegression(_CountedFits, LogisticRegression):
    pass


class CountedGaussianNB(_CountedFits, GaussianNB):
    pass


class CountedDecisionTree(_CountedFits, DecisionTreeClassifier):
    pass


def _summary_and_errors(error):
    """sklearn's summary line of failed fits, and the set of error lines it quotes."""
    text = str(error)
    summary = re.search(r"All the (\d+) fits failed\.", text)
    return summary, set(re.findall(r"^\w+Error: .*$", text, flags=re.MULTILINE))


def test_learners_failing_on_every_fit_are_fit_twice_and_raise_as_grid_search(clf_data):
    """A DataFrame with a string column: each learner fails on the one fold of its first
    subsample, then on the first fold of its try on whole training folds, and is tried no more
    (6 fits, 15 for GridSearchCV); the error is GridSearchCV's summary of the failed fits,
    with the same errors, before any refit."""
    pd = pytest.importorskip("pandas")
    X, y = clf_data
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(X.shape[1])])
    frame["city"] = "Oslo"
    learners = [CountedLogisticRegression(), CountedGaussianNB(),
                CountedDecisionTree(random_state=0)]
    _CountedFits.fitted_rows = []
    with pytest.raises(ValueError) as daub, warnings.catch_warnings():
        warnings.simplefilter("ignore", FitFailedWarning)
        DAUBSearch(learners, rungs="all", cv=5, n_jobs=1, random_state=0).fit(frame, y)
    daub_fits = len(_CountedFits.fitted_rows)
    assert daub_fits == 2 * len(learners)
    # One fit on the first subsample, one on the first whole training fold; never refitted.
    assert sorted(Counter(_CountedFits.fitted_rows).values()) == [3, 3]
    assert max(_CountedFits.fitted_rows) == len(y) * 4 // 5

    _CountedFits.fitted_rows = []
    with pytest.raises(ValueError) as grid:
        GridSearchCV(Pipeline([("clf", learners[0])]), {"clf": learners}, cv=5).fit(frame, y)
    assert len(_CountedFits.fitted_rows) == 5 * len(learners) > daub_fits
    (daub_summary, daub_errors), (grid_summary, grid_errors) = map(
        _summary_and_errors, (daub.value, grid.value))
    assert int(daub_summary.group(1)) == daub_fits
    assert int(grid_summary.group(1)) == 5 * len(learners)
    assert daub_errors == grid_errors and daub_errors


class FailsOnWholeFolds(FailsFromRows):
    """Raises on `rows` rows or more (whole training folds of 200); counts its fits on all."""

    fits_on_all_rows = 0

    def __init__(self, max_depth=1, rows=150):
        super().__init__(rows=rows, max_depth=max_depth)

    def fit(self, X, y):
        if len(X) >= 300:
            type(self).fits_on_all_rows += 1
        return super().fit(X, y)


@pytest.mark.filterwarnings("ignore:One or more of the test scores are non-finite")
def test_every_learner_failing_on_whole_folds_raises_the_summary_before_any_refit(clf_data):
    """The learners fit the subsamples and fail on whole training folds: those that reach
    them fail there, the others were dropped on subsamples, so none is selected. The error
    is sklearn's summary of the failed fits on whole folds, raised before any refit (on
    main: a refit of a learner dropped on a subsample, and "could not refit any
    candidate")."""
    X, y = clf_data
    learners = [FailsOnWholeFolds(max_depth=d) for d in (1, 2, 3, 4, 6, 8)]
    FailsOnWholeFolds.fits_on_all_rows = 0
    # drops some below N
    search = DAUBSearch(learners, rungs="all", cv=CV3, risk=0.2, random_state=0)
    with pytest.raises(ValueError, match=r"every candidate evaluated at the largest resource "
                       r"\(200\) failed there") as info, warnings.catch_warnings():
        warnings.simplefilter("ignore", FitFailedWarning)
        search.fit(X, y)
    summary, errors = _summary_and_errors(info.value)
    n_at_n = sum(n == 200 for _, n in search.policy_.decisions_)
    assert 0 < n_at_n < len(learners)  # some learners were dropped on subsamples
    assert int(summary.group(1)) == 3 * n_at_n
    assert errors == {"MemoryError: cannot fit 200 rows"}
    assert FailsOnWholeFolds.fits_on_all_rows == 0


# The learners of the tries on whole training folds: #2 fails below 150 rows (every subsample
# of clf_data's CV3: 200 rows a fold) and is the best on whole folds; #3 fails there too and
# trails on whole folds; #4 fails on every fit.
SMALL_FAILS = [GaussianNB(), DecisionTreeClassifier(max_depth=2, random_state=0),
               FailsBelowRows(150), FailsBelowRows(150, C=0.01), FailsBelowRows(10**6),
               LogisticRegression()]


def _tried_on_whole_folds(candidate, rows, outcome):
    """The warning's words about `candidate`, sent to 200 rows after failing on `rows`."""
    return (rf"#{candidate} FailsBelowRows.* failed on every fold it ran at {rows} "
            r"training rows, below whole training folds \(200 rows\); tried on whole "
            rf"training folds, {outcome}")


@pytest.mark.filterwarnings("ignore:One or more of the test scores are non-finite")
@pytest.mark.parametrize("risk", [0.1, 0])
def test_a_learner_failing_on_subsamples_is_tried_on_whole_folds_where_it_may_win(
        clf_data, risk):
    """#2 cannot fit any subsample and is the best on whole training folds: it is tried there
    once the others are done (raced as any learner there: #3 trails after one fold) and
    selected, as GridSearchCV selects it, with its scores. On main it was given up on its
    first subsample and never selected."""
    X, y = clf_data
    first = 22 if risk else 20
    with pytest.warns(FitFailedWarning) as record:
        search = DAUBSearch(SMALL_FAILS, rungs="all", cv=CV3, risk=risk, cost="rows",
                            random_state=0).fit(X, y)
    words = "\n".join(str(w.message) for w in record)
    assert re.search(_tried_on_whole_folds(2, first, r"it scored 0\.8567\."), words)
    assert re.search(_tried_on_whole_folds(
        3, first, r"it scored 0\.5100 on the first 1 of its 3 folds, trailing the best "
        r"learner \(its race ended there\)\."), words)
    decisions = search.policy_.decisions_
    assert [n for c, n in decisions if c == 2] == [first, 200]
    assert decisions[-3:] == [(2, 200), (3, 200), (4, 200)]  # once the others are done
    assert search.policy_.folds_used_[3, 200] == 1

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FitFailedWarning)  # #4's
        grid = _grid_search(Pipeline([("estimator", SMALL_FAILS[0])]),
                            {"estimator": SMALL_FAILS}, CV3, X, y)
    assert search.cv_results_["candidate_id"][search.best_index_] == grid.best_index_ == 2
    assert search.best_score_ == pytest.approx(grid.best_score_, rel=1e-12)
    _assert_same_row(search, search.best_index_, grid, 2, 3)
    assert isinstance(search.best_estimator_, FailsBelowRows)


@pytest.mark.filterwarnings("ignore:One or more of the test scores are non-finite")
def test_a_learner_failing_everywhere_costs_no_more_fits_than_grid_search(clf_data):
    """#2 fails on every fit: one on its first subsample, then one on the first whole training
    fold, whose failure spares the two other folds; given up, never selected, named in a
    warning. 2 fits, against GridSearchCV's 3. On main: given up after its first fit, never
    tried on whole folds, named in no warning of its own."""
    X, y = clf_data
    learners = [GaussianNB(), LogisticRegression(), FailsBelowRows(10**6)]
    FailsBelowRows.fitted_rows = []
    with (pytest.warns(FitFailedWarning, match=_tried_on_whole_folds(
            2, 22, r"it failed there too and was given up\.")),
          pytest.warns(FitFailedWarning, match="\n2 fits failed out of")):
        search = DAUBSearch(learners, cv=CV3, cost="rows", rungs="all", n_jobs=1,
                            random_state=0).fit(X, y)
    assert FailsBelowRows.fitted_rows == [22, 200]  # its other folds at 200 are not fitted
    res = search.all_cv_results_
    try_at_n = np.flatnonzero((res["candidate_id"] == 2) & (res["n_resources"] == 200))
    assert len(try_at_n) == 1 and res["n_folds_run"][try_at_n[0]] == 1
    failed = search.cv_results_["candidate_id"].tolist().index(2)
    assert search.cv_results_["n_resources"][failed] == 200
    assert np.isnan(search.cv_results_["mean_test_score"][failed])
    assert search.cv_results_["rank_test_score"][failed] == len(learners)
    assert search.best_index_ != failed
    assert search.policy_.given_up_ == {2}

    FailsBelowRows.fitted_rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FitFailedWarning)
        _grid_search(Pipeline([("estimator", learners[0])]), {"estimator": learners}, CV3,
                     X, y)
    assert FailsBelowRows.fitted_rows == [200] * 3


@pytest.mark.filterwarnings("ignore:One or more of the test scores are non-finite")
@pytest.mark.parametrize("risk", [0.1, 0])
def test_tries_on_whole_folds_give_the_same_results_for_any_n_jobs(clf_data, risk):
    """The tries come after the run's other decisions whatever the workers, and a try whose
    first fold failed holds that fold only, whichever folds a free worker fitted ahead."""
    X, y = clf_data
    params = dict(cv=CV3, risk=risk, cost="rows", random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FitFailedWarning)
        one = DAUBSearch(SMALL_FAILS, n_jobs=1, **params).fit(X, y)
        two = DAUBSearch(SMALL_FAILS, n_jobs=2, **params).fit(X, y)
    assert two.policy_.decisions_ == one.policy_.decisions_
    assert {(2, 200), (3, 200), (4, 200)} <= set(one.policy_.decisions_)
    for key in ("candidate_id", "n_resources", "n_folds_run", "rank_test_score",
                *(f"split{k}_test_score" for k in range(3))):
        np.testing.assert_array_equal(two.cv_results_[key], one.cv_results_[key], err_msg=key)
    assert two.best_index_ == one.best_index_


# ------------------------------------------------------------------ execution


SELECTION_CANDIDATES = [
    DummyClassifier(),
    GaussianNB(),
    DecisionTreeClassifier(max_depth=2, random_state=0),
    KNeighborsClassifier(15),
    LogisticRegression(C=0.001),
    LogisticRegression(C=1.0),
]


def _selection_search(**kwargs):
    # tol=0 and cost="rows": no decision reads measured seconds, so the decisions
    # themselves are reproducible, not only the selection.
    params = dict(cv=CV3, b=20, stop="strict", tol=0.0, cost="rows", random_state=0)
    return DAUBSearch(SELECTION_CANDIDATES, **{**params, **kwargs})


@pytest.mark.parametrize("n_jobs", [2, -1])
def test_n_jobs_same_selection_with_default_tie_break(clf_data, n_jobs):
    """With DAUB's bounds and the default tol, fit times order near-tied steps; the selection
    stays."""
    X, y = clf_data
    one = _selection_search(n_jobs=1, tol=0.005, risk=0, cost="time").fit(X, y)
    many = _selection_search(n_jobs=n_jobs, tol=0.005, risk=0, cost="time").fit(X, y)
    assert many.best_params_ == one.best_params_
    assert many.best_score_ == one.best_score_


def test_n_jobs_same_selection(clf_data):
    X, y = clf_data
    one = _selection_search(n_jobs=1).fit(X, y)
    two = _selection_search(n_jobs=2).fit(X, y)
    assert two.best_params_ == one.best_params_
    assert two.best_score_ == one.best_score_
    assert two.policy_.decisions_ == one.policy_.decisions_ == one.policy_.history_
    # Same subsamples and folds: an evaluation both runs made has the same score.
    def scores(search):
        res = search.all_cv_results_
        return {(c, n): s for c, n, s in zip(res["candidate_id"], res["n_resources"],
                                             res["split0_test_score"])}
    s1, s2 = scores(one), scores(two)
    common = s1.keys() & s2.keys()
    assert common == s1.keys()  # every evaluation of one worker, with the same score
    for key in common:
        assert s1[key] == s2[key]


@pytest.mark.parametrize("processes", [False, True])
def test_dask_backend_same_selection(clf_data, processes):
    distributed = pytest.importorskip("distributed")
    X, y = clf_data
    local = _selection_search(n_jobs=1).fit(X, y)
    # In-process workers talk over inproc://, which takes no host.
    where = dict(host="127.0.0.1") if processes else {}
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=processes,
                                  dashboard_address=None, **where) as cluster:
        with distributed.Client(cluster):
            with joblib.parallel_config(backend="dask"):
                remote = _selection_search(n_jobs=-1).fit(X, y)
    assert remote.best_params_ == local.best_params_
    assert remote.best_score_ == local.best_score_
    assert remote.policy_.decisions_ == local.policy_.decisions_


def test_max_time_keeps_what_finished(clf_data):
    X, y = clf_data
    search = DAUBSearch([SleepyClassifier(0.15, q) for q in range(4)], cv=2, b=10, r=2.0,
                        max_time=0.5, random_state=0, risk=0).fit(X, y)
    assert search.stop_reason_ == "max_time"
    n_evals = len(search.all_cv_results_["params"])
    assert 1 <= n_evals < len(search.sizes_)  # far from a finished search
    # What finished is reported and the selected candidate is refitted.
    assert search.best_estimator_.quality == search.best_params_["estimator"].quality
    assert hasattr(search.best_estimator_, "majority_")


def test_max_time_selects_the_best_at_the_most_training_two_learners_got(monkeypatch):
    """Cut short, the learner that went furthest is not chosen for that: the learners are
    compared at the largest size two of them reached, the best there ranks 1, is refitted,
    and a warning names them and what the limit left undecided."""
    X, y = make_classification(4000, 20, n_informative=5, flip_y=0.1, random_state=0)
    cands = [GaussianNB(), LogisticRegression(), DecisionTreeClassifier(max_depth=3),
             KNeighborsClassifier()]
    stop_after(monkeypatch, 5)
    search = DAUBSearch(cands, cv=3, risk=0, cost="rows", random_state=0, max_time=100)
    with pytest.warns(UserWarning, match="before its choice was settled") as record:
        search.fit(X, y)
    assert search.stop_reason_ == "max_time"
    every, res = search.all_cv_results_, search.cv_results_
    # Brute force: the largest size two learners were scored at, and the best there.
    reached = Counter(every["n_resources"])
    shared = max(n for n, count in reached.items() if count > 1)
    at = np.flatnonzero(every["n_resources"] == shared)
    best = every["candidate_id"][at[np.argmax(every["mean_test_score"][at])]]
    furthest = res["candidate_id"][np.argmax(res["n_resources"])]
    assert best != furthest  # the case the rule is for
    assert res["candidate_id"][search.best_index_] == best
    assert res["rank_test_score"][search.best_index_] == 1
    order = every["candidate_id"][at[np.argsort(-every["mean_test_score"][at])]]
    ranks = dict(zip(res["candidate_id"], res["rank_test_score"]))
    assert [ranks[c] for c in order] == list(range(1, len(order) + 1))
    assert type(search.best_estimator_) is type(cands[best])
    words = str([w for w in record if "settled" in str(w.message)][0].message)
    assert f"resource {shared}" in words and res["candidate_name"][search.best_index_] in words
    assert f"went on to {res['n_resources'].max()}" in words


def _interrupt_after(monkeypatch, n_evaluations):
    """Send the search a SIGINT, as Ctrl-C does, once `n_evaluations` have finished."""
    from sksel._core.engine import Engine

    report = Engine._report

    def reporting_then_interrupting(engine, action):
        report(engine, action)
        if engine._n_done == n_evaluations:
            signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(Engine, "_report", reporting_then_interrupting)


@pytest.mark.usefixtures("sigint_raises_keyboard_interrupt")
def test_a_ctrl_c_selects_as_max_time_does(monkeypatch):
    """Cut short at the same point by a Ctrl-C or by max_time, a search selects the same
    candidate, ranks the same, and warns alike, naming what cut it short."""
    X, y = make_classification(4000, 20, n_informative=5, flip_y=0.1, random_state=0)
    cands = [GaussianNB(), LogisticRegression(), DecisionTreeClassifier(max_depth=3),
             KNeighborsClassifier()]
    searches, words = {}, {}
    for cut, stop in [("max_time", stop_after), ("interrupted", _interrupt_after)]:
        with monkeypatch.context() as patch:
            stop(patch, 5)
            search = DAUBSearch(cands, cv=3, risk=0, cost="rows", random_state=0, max_time=100)
            with pytest.warns(UserWarning, match="before its choice was settled") as record:
                search.fit(X, y)
        assert search.stop_reason_ == cut
        searches[cut] = search
        words[cut] = [str(w.message) for w in record if "settled" in str(w.message)][0]
    timed, interrupted = searches["max_time"], searches["interrupted"]
    res = interrupted.cv_results_
    assert res["n_resources"][interrupted.best_index_] < res["n_resources"].max()
    assert interrupted.best_index_ == timed.best_index_
    np.testing.assert_array_equal(res["rank_test_score"], timed.cv_results_["rank_test_score"])
    assert type(interrupted.best_estimator_) is type(timed.best_estimator_)
    assert "a Ctrl-C ended the search" in words["interrupted"]
    assert "max_time=100 s ended the search" in words["max_time"]
    assert words["interrupted"].split(". ", 1)[1].rsplit(". ", 1)[0] == \
        words["max_time"].split(". ", 1)[1].rsplit(". ", 1)[0]


def test_verbose_two_one_line_per_evaluation(clf_data, capsys):
    X, y = clf_data
    search = DAUBSearch(LogisticRegression(), C_GRID, cv=CV3, b=20, random_state=0,
                        verbose=2).fit(X, y)
    # A header, one line per evaluation, a final line.
    lines = [line for line in capsys.readouterr().out.splitlines() if line.strip()][1:-1]
    assert len(lines) == len(search.all_cv_results_["params"])
    # Each line names the evaluation it reports, in order.
    for line, (c, n) in zip(lines, search.policy_.history_):
        name = f"LogisticRegression(C={C_GRID['C'][c]:.3g})"
        assert f" {name} " in line and re.search(rf"rows={n}\b", line)


def test_verbose_zero_is_silent(clf_data, capsys):
    X, y = clf_data
    DAUBSearch(LogisticRegression(), C_GRID, cv=CV3, b=20, random_state=0).fit(X, y)
    assert capsys.readouterr().out == ""


def test_refit_false_and_feature_names(clf_data):
    pd = pytest.importorskip("pandas")
    X, y = clf_data
    frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    search = DAUBSearch(LogisticRegression(), C_GRID, cv=CV3, b=20, random_state=0,
                        refit=False).fit(frame, y)
    assert not hasattr(search, "best_estimator_")
    assert search.best_params_ == search.cv_results_["params"][search.best_index_]
    with pytest.raises(AttributeError):
        search.predict(frame)
    refitted = DAUBSearch(LogisticRegression(), C_GRID, cv=CV3, b=20,
                          random_state=0).fit(frame, y)
    np.testing.assert_array_equal(refitted.feature_names_in_, frame.columns)
    assert refitted.best_params_ == search.best_params_
    assert refitted.score(frame, y) == refitted.best_estimator_.score(frame, y)
    # best_estimator_ is the selected candidate fitted on all rows.
    alone = LogisticRegression(**refitted.best_params_).fit(frame, y)
    np.testing.assert_allclose(refitted.best_estimator_.coef_, alone.coef_)
    assert refitted.refit_time_ >= 0


# -------------------------------------------------------------------- Ctrl-C


class ReadsCtrlC(ClassifierMixin, BaseEstimator):
    """Naive Bayes that raises ``KeyboardInterrupt`` where another process reads it.

    Only once the file `trigger` holds this process's id, and only once (the
    reader takes the file away): as a Ctrl-C does in a worker process that is
    reading its next task.
    """

    def __init__(self, trigger="", var_smoothing=1e-9):
        self.trigger = trigger
        self.var_smoothing = var_smoothing

    def __setstate__(self, state):
        super().__setstate__(state)
        try:
            with open(self.trigger) as f:
                sender = int(f.read())
        except (OSError, ValueError):
            return
        if sender != os.getpid():
            try:
                os.rename(self.trigger, self.trigger + ".read")
            except OSError:
                return  # another worker read it first
            raise KeyboardInterrupt

    def fit(self, X, y):
        self.nb_ = GaussianNB(var_smoothing=self.var_smoothing).fit(X, y)
        self.classes_ = self.nb_.classes_
        return self

    def predict(self, X):
        return self.nb_.predict(X)


def test_ctrl_c_reaching_a_worker_between_tasks_interrupts(clf_data, tmp_path, monkeypatch):
    """A Ctrl-C that a worker receives while it reads its next task ends its
    process; that broken pool is the Ctrl-C, not a crash to run again."""
    X, y = clf_data
    trigger = str(tmp_path / "ctrl-c")
    on_done = _Run.on_done

    def ctrl_c_after_the_first_evaluation(run, action, outputs):
        on_done(run, action, outputs)
        # After the first decided one: a speculative evaluation that comes in
        # first is not kept, and a Ctrl-C before any decision is re-raised.
        if run.policy.decisions_ and not os.path.exists(trigger + ".read"):
            with open(trigger, "w") as f:
                f.write(str(os.getpid()))

    monkeypatch.setattr(_Run, "on_done", ctrl_c_after_the_first_evaluation)
    search = DAUBSearch(ReadsCtrlC(trigger), {"var_smoothing": [1e-9, 1e-1]}, rungs="all", cv=5,
                        n_jobs=2, random_state=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        search.fit(X, y)
    assert os.path.exists(trigger + ".read")  # a worker read the Ctrl-C
    assert search.stop_reason_ == "interrupted"
    messages = [str(w.message) for w in caught]
    assert not any("a worker died" in m for m in messages)
    kept = len(search.all_cv_results_["params"])
    assert any(f"interrupted: keeping the {kept} evaluation" in m for m in messages)
    assert kept >= 1  # the first evaluation, reported before the Ctrl-C
    assert hasattr(search.best_estimator_, "nb_")


# ------------------------------------------------------------------ late bloomer


class Blooming(ClassifierMixin, BaseEstimator):
    """Predicts the sign of the first feature, wrong on a share of rows set by a curve.

    `curve` holds ``(rows, accuracy)`` points; trained on n rows the model
    is wrong on the validation rows whose second feature's fractional part
    (times 1,000) falls below the interpolated error, a share near it.
    """

    def __init__(self, curve=((500, 0.8), (16000, 0.8))):
        self.curve = curve

    def fit(self, X, y):
        rows, accuracy = zip(*self.curve)
        self.error_ = 1 - np.interp(np.log2(len(X)), np.log2(rows), accuracy)
        self.classes_ = np.array([0, 1])
        return self

    def predict(self, X):
        truth = (X[:, 0] > 0).astype(int)
        wrong = np.modf(np.abs(X[:, 1]) * 1000)[0] < self.error_
        return np.where(wrong, 1 - truth, truth)


# Learner 1 trails until 4,000 rows and then leads; 0 and 2 level off early.
BLOOM = [tuple(zip([500, 1000, 2000, 4000, 8000, 16000], accuracies)) for accuracies in (
    (0.80, 0.82, 0.83, 0.835, 0.84, 0.842),
    (0.60, 0.64, 0.68, 0.74, 0.82, 0.88),
    (0.70, 0.72, 0.73, 0.735, 0.74, 0.74),
)]


@pytest.fixture(scope="module")
def bloom_data():
    X = np.random.RandomState(0).normal(size=(24000, 2))
    return X, (X[:, 0] > 0).astype(int)


@pytest.mark.parametrize("cost", ["rows", "time"])
def test_daub_selects_the_late_bloomer_that_halving_drops(bloom_data, cost):
    with uncapped_daub():
        X, y = bloom_data
        cv = ShuffleSplit(n_splits=1, test_size=1 / 3, random_state=0)  # N = 16,000
        grid = GridSearchCV(Blooming(), {"curve": BLOOM}, cv=cv).fit(X, y)
        assert grid.best_index_ == 1
        daub = DAUBSearch([Blooming(curve) for curve in BLOOM], cv=cv, b=500, r=2.0, cost=cost,
                          random_state=0, risk=0).fit(X, y)
        assert daub.sizes_ == [500, 1000, 2000, 4000, 8000, 16000]
        assert daub.best_params_["estimator"].curve == BLOOM[1]
        assert daub.best_score_ == pytest.approx(grid.best_score_)
        # Halving ranks the three at 5,333 rows, where the late bloomer is last but one.
        halving = HalvingGridSearchCV(Blooming(), {"curve": BLOOM}, cv=cv, random_state=0)
        assert halving.fit(X, y).best_params_["curve"] == BLOOM[0]
        # The slope bound alone (the default before the learned prior) drops it too.
        slope = DAUBSearch([Blooming(curve) for curve in BLOOM], cv=cv, b=500, r=2.0,
                           bound="slope", cost="rows", random_state=0, risk=0).fit(X, y)
        assert slope.best_params_["estimator"].curve == BLOOM[0]


def test_l_larger_than_the_sizes_below_n_warns(clf_data):
    with uncapped_daub():
        X, y = clf_data
        search = DAUBSearch([GaussianNB(), LogisticRegression()], cv=CV3, b=40, r=2.0, l=6,
                            random_state=0, risk=0)
        with pytest.warns(UserWarning, match=r"l=6 is more than the \d+ subsample sizes"):
            search.fit(X, y)
        below = len(search.sizes_) - 1
        assert below < 6
        # Each learner's warm-up is every size below N.
        first = [n for c, n in search.policy_.decisions_ if c == 0][:below]
        assert first == search.sizes_[:below]


def _best_f1(results):
    return int(np.argmax(results["mean_test_f1"]))


def test_callable_refit_with_several_metrics(clf_data):
    X, y = clf_data
    kwargs = dict(cv=CV3, b=20, noise=0.0, bound="slope", cost="rows", random_state=0)
    search = DAUBSearch(LogisticRegression(), C_GRID, scoring=["accuracy", "f1"],
                        refit=_best_f1, **kwargs).fit(X, y)
    # As GridSearchCV: the callable selects from cv_results_, with no best_score_.
    grid = GridSearchCV(LogisticRegression(), C_GRID, cv=CV3, scoring=["accuracy", "f1"],
                        refit=_best_f1).fit(X, y)
    assert search.best_index_ == _best_f1(search.cv_results_)
    assert not hasattr(search, "best_score_") and not hasattr(grid, "best_score_")
    assert search.best_estimator_.C == search.best_params_["C"]
    # The first metric drives the allocation.
    accuracy = DAUBSearch(LogisticRegression(), C_GRID, scoring="accuracy", **kwargs).fit(X, y)
    assert search.policy_.decisions_ == accuracy.policy_.decisions_


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_race_of_the_folds_scores_the_folds_run_as_grid_search(n_jobs):
    """A learner that trails the best one at N on its first folds skips the others.

    Its rows hold the scores of a search without the race on the folds it ran; the selected
    learner ran every fold and is the one chosen without the race.
    """
    X, y = make_classification(n_samples=1200, n_features=20, n_informative=6,
                               random_state=0)
    cands = [DecisionTreeClassifier(max_depth=2, random_state=0), LogisticRegression(),
             DecisionTreeClassifier(max_depth=1, random_state=0)]
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    search = DAUBSearch(cands, rungs="all", cv=cv, b=360, r=2, cost="rows", random_state=0,
                        n_jobs=n_jobs).fit(X, y)
    plain = DAUBSearch(cands, rungs="all", cv=cv, b=360, r=2, cost="rows", random_state=0,
                       race_folds=False).fit(X, y)
    res = search.cv_results_
    n_total = _n_total(search)
    splits = np.array([[res[f"split{k}_test_score"][i] for k in range(5)]
                       for i in range(len(res["params"]))])
    ran = np.isfinite(splits).sum(axis=1)
    at_n = res["n_resources"] == n_total
    assert search.policy_.folds_used_ and all(n < 5 for n in search.policy_.folds_used_.values())
    assert sorted(ran[at_n & (ran < 5)]) == sorted(search.policy_.folds_used_.values())
    # Racing only leaves folds out: same learners at N, same choice, same scores on the folds run.
    plain_res = plain.cv_results_
    assert list(plain_res["n_resources"]) == list(res["n_resources"])
    for i in np.flatnonzero(at_n):
        for k in range(ran[i]):
            assert splits[i, k] == plain_res[f"split{k}_test_score"][i]
    assert search.best_index_ == plain.best_index_ and ran[search.best_index_] == 5
    assert search.best_score_ == plain.best_score_
    assert res["rank_test_score"][search.best_index_] == 1


def test_race_rows_show_no_mean_so_that_mean_and_rank_agree():
    """A raced learner's mean is over fewer folds than its peers': it is NaN, not compared.

    At every n_resources, sorting the rows with a mean by ``mean_test_score`` orders them
    as ``rank_test_score`` does; ``n_folds_run`` says which folds each row's scores are
    over, and the raced rows keep their split scores and rank below the rows at N.
    """
    X, y = make_classification(n_samples=1200, n_features=20, n_informative=6,
                               random_state=0)
    cands = [DecisionTreeClassifier(max_depth=2, random_state=0), LogisticRegression(),
             DecisionTreeClassifier(max_depth=1, random_state=0)]
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    res = DAUBSearch(cands, rungs="all", cv=cv, b=360, r=2, cost="rows",
                     random_state=0).fit(X, y).cv_results_
    splits = np.array([[res[f"split{k}_test_score"][i] for k in range(5)]
                       for i in range(len(res["params"]))])
    np.testing.assert_array_equal(res["n_folds_run"], np.isfinite(splits).sum(axis=1))
    at_n = res["n_resources"] == res["n_resources"].max()
    raced = at_n & (res["n_folds_run"] < 5)
    assert raced.any() and (at_n & ~raced).any()
    assert np.isnan(res["mean_test_score"][raced]).all()
    assert np.isnan(res["std_test_score"][raced]).all()
    assert res["rank_test_score"][raced].min() > res["rank_test_score"][at_n & ~raced].max()
    for n in np.unique(res["n_resources"]):
        shown = np.flatnonzero((res["n_resources"] == n) & np.isfinite(res["mean_test_score"]))
        by_mean = shown[np.argsort(-res["mean_test_score"][shown], kind="stable")]
        assert np.all(np.diff(res["rank_test_score"][by_mean]) >= 0)
