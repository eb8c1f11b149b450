"""MutantUCBSearch, the estimator: sub-trains against hand-run loops, errors, execution."""

import os
import re
import signal
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import load_iris, make_regression
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.exceptions import FitFailedWarning
from sklearn.linear_model import LogisticRegression, SGDClassifier, SGDRegressor
from sklearn.model_selection import StratifiedKFold
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from sksel import KDPPSampler, MutantUCBSearch
from sksel._core.simulate import simulate
from sksel.mutant_ucb import MutantUCBPolicy
from sksel.training import Subtrainer
from sksel.training.continued import _subtrain_and_score

X, Y = load_iris(return_X_y=True)
CLASSES = np.unique(Y)
CV3 = StratifiedKFold(3, shuffle=True, random_state=0)
SGD = SGDClassifier(loss="log_loss", random_state=0)
ALPHAS = {"alpha": [1e-5, 1e-4, 1e-3, 1e-2, 1e-1]}


def _configuration(params):
    """`params` without the training length that every row states."""
    return {k: v for k, v in params.items() if k != "max_iter"}


def _by_hand(params, n, train, test):
    """Score of SGD with `params` after `n` partial_fit passes on `train`."""
    model = clone(SGD).set_params(**params)
    for _ in range(n):
        model.partial_fit(X[train], Y[train], classes=CLASSES)
    return model.score(X[test], Y[test])


def test_every_pull_scores_the_model_continued_by_hand():
    search = MutantUCBSearch(SGD, ALPHAS, budget=14, n_initial=3, max_subtrains=4,
                             mutation=False, cv=CV3, random_state=0, refit=False).fit(X, Y)
    every = search.all_cv_results_
    assert len(every["params"]) == len(search.policy_.history_)
    splits = list(CV3.split(X, Y))
    for params, n, score in zip(every["params"], every["n_resources"],
                                every["mean_test_score"]):
        expected = np.mean([_by_hand(params, n, train, test) for train, test in splits])
        assert score == pytest.approx(expected, abs=1e-12)
    # One row per model at its last pull.
    res = search.cv_results_
    assert sorted(res["candidate_id"]) == list(range(3))
    assert (res["parent_id"] == -1).all()
    for k, n in zip(res["candidate_id"], res["n_resources"]):
        assert n == max(m for c, m in search.policy_.history_ if c == k)


def test_best_estimator_is_the_selected_configuration_trained_as_its_score_measured():
    search = MutantUCBSearch(SGD, ALPHAS, budget=20, max_subtrains=5, mutation=False,
                             cv=CV3, random_state=0).fit(X, Y)
    assert search.best_index_ == int(np.argmin(search.cv_results_["rank_test_score"]))
    n = search.cv_results_["n_resources"][search.best_index_]
    alone = clone(SGD).set_params(**search.best_params_)
    for _ in range(n):
        alone.partial_fit(X, Y, classes=CLASSES)
    np.testing.assert_array_equal(search.predict(X), alone.predict(X))
    assert search.subtrain_kind_ == "partial_fit"


def test_the_fully_trained_models_rank_first_a_lineage_counting_in_total():
    """Rank: trained to max_subtrains in total (inherited included) first, by score; the
    others after them, their means apart (``mean_test_score_at_resource``)."""
    not_longest = 0
    for seed in range(4):
        search = MutantUCBSearch(SGD, {"alpha": stats.loguniform(1e-6, 1e-1)}, budget=80,
                                 reward="mean", max_subtrains=5, cv=CV3,
                                 random_state=seed).fit(X, Y)
        res = search.cv_results_
        trained = res["n_resources_total"] >= 5
        own = res["mean_test_score_at_resource"]
        expected = [1 + sum(other > score for other in own[trained]) if full
                    else 1 + trained.sum() for full, score in zip(trained, own)]
        np.testing.assert_array_equal(res["rank_test_score"], expected)
        np.testing.assert_array_equal(res["mean_test_score"], np.where(trained, own, np.nan))
        best = search.best_index_
        assert trained[best] and res["mean_test_score"][best] == own[trained].max()
        not_longest += res["n_resources"][best] < res["n_resources"].max()
    assert not_longest  # some selected model had fewer sub-trains of its own than another


def test_refit_replays_the_inherited_training_of_the_selected_model():
    search = MutantUCBSearch(SGD, {"alpha": stats.loguniform(1e-6, 1e-1)}, budget=40,
                             n_initial=3, max_subtrains=4, cv=CV3, random_state=0).fit(X, Y)
    res, every = search.cv_results_, search.all_cv_results_
    pulls = list(zip(every["candidate_id"], every["n_resources"]))
    chain, model = [], int(res["candidate_id"][search.best_index_])
    n = int(res["n_resources"][search.best_index_])
    while True:
        chain.append((model, n))
        parent = int(res["parent_id"][model])
        if parent < 0 or res["n_resources_total"][model] == res["n_resources"][model]:
            break  # an initial model, or a mutant that started afresh
        born = pulls.index((model, 1))  # the parent's sub-trains before its mutant's first
        n = max(m for c, m in pulls[:born] if c == parent)
        model = parent
    assert len(chain) > 1  # the selected model is a mutant: the replay is exercised
    by_hand = clone(SGD)
    for model, n in chain[::-1]:
        by_hand.set_params(**res["params"][model])
        for _ in range(n):
            by_hand.partial_fit(X, Y, classes=CLASSES)
    np.testing.assert_array_equal(search.best_estimator_.coef_, by_hand.coef_)


def test_mutants_descend_from_earlier_models_and_respect_the_cap():
    space = {"alpha": stats.loguniform(1e-6, 1e-1), "penalty": ["l2", "l1", "elasticnet"]}
    search = MutantUCBSearch(SGD, space, budget=60, n_initial=4, max_subtrains=3, cv=CV3,
                             random_state=0).fit(X, Y)
    res = search.cv_results_
    assert len(res["params"]) > 4  # mutants were bred
    assert res["n_resources"].max() == 3
    for k, parent, params in zip(res["candidate_id"], res["parent_id"], res["params"]):
        assert (parent == -1) == (k < 4)
        if parent >= 0:
            assert parent < k
            parent_params = res["params"][list(res["candidate_id"]).index(parent)]
            assert _configuration(params) != _configuration(parent_params)


def test_a_mutant_inherits_its_parents_trees():
    subtrainer = Subtrainer("n_estimators", 5)
    train, test = np.arange(0, 150, 2), np.arange(1, 150, 2)
    rows = X[train], Y[train], X[test], Y[test]
    kwargs = dict(scorer=lambda est, X, y: est.score(X, y), fit_params={}, score_params={},
                  train_score_params=None, error_score=np.nan)
    parent = _subtrain_and_score(None, RandomForestClassifier(max_depth=2, random_state=0),
                                 subtrainer, rows, inherit=None, **kwargs)["model"]
    trees = list(parent.estimators_)
    mutant = _subtrain_and_score(parent, RandomForestClassifier(max_depth=4, random_state=0),
                                 subtrainer, rows, inherit={"max_depth": 4}, **kwargs)["model"]
    assert len(mutant.estimators_) == 10
    for kept, tree in zip(mutant.estimators_[:5], trees):  # the parent's trees, kept
        np.testing.assert_array_equal(kept.tree_.threshold, tree.tree_.threshold)
        np.testing.assert_array_equal(kept.predict_proba(X), tree.predict_proba(X))
    assert all(t.max_depth == 4 for t in mutant.estimators_[5:])
    assert len(parent.estimators_) == 5 and parent.max_depth == 2  # and left as it was


@pytest.mark.parametrize("inherit", [True, False])
def test_inherit_on_and_off_select_a_finite_model(inherit):
    forest = RandomForestClassifier(random_state=0)
    search = MutantUCBSearch(forest, {"max_depth": [1, 2, 3, 4], "max_features": [1, 2, 3]},
                             budget=24, max_subtrains=3, unit=4, inherit=inherit, cv=CV3,
                             random_state=0).fit(X, Y)
    assert search.subtrain_kind_ == "n_estimators"
    trees = len(search.best_estimator_.estimators_)
    # 3 sub-trains of 4 trees, plus those inherited from its ancestors.
    assert trees == 12 if not inherit else trees >= 12 and trees % 4 == 0
    assert np.isfinite(search.best_score_)


def test_k_dpp_init_starts_from_the_samplers_draw():
    space = {"alpha": stats.loguniform(1e-6, 1e-1), "penalty": ["l2", "l1"]}
    search = MutantUCBSearch(SGD, space, budget=12, n_initial=4, max_subtrains=3,
                             init="k-dpp", cv=CV3, random_state=0, refit=False).fit(X, Y)
    initial = [_configuration(params) for params, parent in zip(
        search.all_cv_results_["params"], search.all_cv_results_["parent_id"]) if parent == -1][:4]
    expected = KDPPSampler(space, 4, random_state=np.random.RandomState(0)).sample()
    assert initial == expected
    random = MutantUCBSearch(SGD, space, budget=12, n_initial=4, max_subtrains=3,
                             cv=CV3, random_state=0, refit=False).fit(X, Y)
    assert [_configuration(p) for p in random.all_cv_results_["params"][:4]] != initial


def test_memory_folder_gives_the_same_results(tmp_path):
    kwargs = dict(budget=20, max_subtrains=4, cv=CV3, random_state=0, refit=False)
    plain = MutantUCBSearch(SGD, ALPHAS, **kwargs).fit(X, Y)
    spilled = MutantUCBSearch(SGD, ALPHAS, memory=tmp_path / "models", **kwargs).fit(X, Y)
    np.testing.assert_array_equal(plain.all_cv_results_["mean_test_score"],
                                  spilled.all_cv_results_["mean_test_score"])
    assert os.listdir(tmp_path / "models") == []  # nothing left behind


def test_models_that_cannot_be_trained_again_leave_the_memory_folder(tmp_path):
    seen = []

    def scorer(estimator, X_test, y_test):
        seen.append(set(os.listdir(tmp_path)))
        return estimator.score(X_test, y_test)

    search = MutantUCBSearch(SGD, ALPHAS, budget=10, n_initial=4, max_subtrains=2,
                             mutation=False, memory=tmp_path, scoring=scorer, cv=CV3,
                             random_state=0, refit=False).fit(X, Y)
    history = search.policy_.history_
    assert sum(n == 2 for _, n in history) >= 3
    for i, (model, n) in enumerate(history):
        capped = {m for m, k in history[:i] if k == 2}
        on_disk = {int(name[5:].split("_")[0]) for name in set.union(*seen[3 * i:3 * i + 3])}
        assert not on_disk & capped  # a model at the cap is gone as soon as it is scored
        assert {m for m, _ in history[:i]} - capped <= on_disk  # the others are kept
    assert os.listdir(tmp_path) == []


def test_pipeline_clone_and_pandas():
    pd = pytest.importorskip("pandas")
    pipe = make_pipeline(StandardScaler(), SGD)
    search = MutantUCBSearch(pipe, {"sgdclassifier__alpha": stats.loguniform(1e-5, 1e-1)},
                             budget=20, max_subtrains=4, cv=CV3, random_state=0)
    fitted = clone(search).fit(X, Y)
    frame = pd.DataFrame(fitted.cv_results_)
    assert {"candidate_id", "parent_id", "n_resources", "iter"} <= set(frame.columns)
    assert fitted.score(X, Y) > 0.8
    outer = make_pipeline(StandardScaler(), clone(search)).fit(X, Y)
    assert outer.score(X, Y) > 0.8


def test_regression_scores_set_the_exploration_scale_from_the_initial_spread():
    Xr, yr = make_regression(n_samples=200, n_features=5, noise=10, random_state=0)
    search = MutantUCBSearch(SGDRegressor(random_state=0), {"alpha": [1e-4, 1e-2, 1.0]},
                             budget=12, max_subtrains=3, scoring="neg_mean_squared_error",
                             cv=3, random_state=0).fit(Xr, yr)
    assert search.policy_.scale == "range"
    classifier = MutantUCBSearch(SGD, ALPHAS, budget=12, max_subtrains=3, cv=CV3,
                                 random_state=0).fit(X, Y)
    assert classifier.policy_.scale == 1.0


# ------------------------------------------------------------------ failures


class CountingSGD(ClassifierMixin, BaseEstimator):
    """Counts its partial_fit calls; fails when `alpha` is `fails_at`."""

    n_fits = 0

    def __init__(self, alpha=1e-4, fails_at=None):
        self.alpha = alpha
        self.fails_at = fails_at

    def partial_fit(self, X, y, classes=None):
        type(self).n_fits += 1
        if self.alpha == self.fails_at:
            raise RuntimeError(f"cannot train alpha={self.alpha}")
        if not hasattr(self, "sgd_"):
            self.sgd_ = SGDClassifier(loss="log_loss", alpha=self.alpha, random_state=0)
        self.sgd_.partial_fit(X, y, classes=classes)
        self.classes_ = self.sgd_.classes_
        return self

    def fit(self, X, y):
        return self.partial_fit(X, y, classes=np.unique(y))

    def predict(self, X):
        return self.sgd_.predict(X)


class _NoRvs:
    def cdf(self, x):
        return x


@pytest.mark.parametrize("estimator,space,kwargs,match", [
    (CountingSGD(), ALPHAS, dict(budget=3, n_initial=5), "the smallest budget that can is 14"),
    (CountingSGD(), ALPHAS, dict(max_subtrains=0), "'max_subtrains' parameter"),
    (CountingSGD(), ALPHAS, dict(exploration=-1.0), "'exploration' parameter"),
    (CountingSGD(), {"beta": [1, 2]}, {}, "beta"),
    (CountingSGD(), {"alpha": _NoRvs()}, {}, "'alpha'"),
    (SVC(), {"C": [1.0, 2.0]}, {}, "SVC cannot continue training"),
    (CountingSGD(), ALPHAS, dict(subtrain_kind="n_estimators"), "subtrain_kind='n_estimators'"),
])
def test_bad_input_fails_before_any_training(estimator, space, kwargs, match):
    CountingSGD.n_fits = 0
    with pytest.raises((ValueError, TypeError), match=match):
        MutantUCBSearch(estimator, space, **kwargs).fit(X, Y)
    assert CountingSGD.n_fits == 0


@pytest.mark.filterwarnings("ignore:One or more of the test scores")
def test_a_failing_model_is_marked_failed_and_the_search_goes_on():
    search = MutantUCBSearch(CountingSGD(fails_at=1e-3), {"alpha": [1e-3, 1e-2]}, budget=20,
                             n_initial=4, max_subtrains=3, cv=CV3, random_state=0)
    with pytest.warns(FitFailedWarning, match="cannot train alpha=0.001"):
        search.fit(X, Y)
    res = search.cv_results_
    failed = np.array([p["alpha"] == 1e-3 for p in res["params"]])
    assert failed.any() and not failed.all()
    assert np.isnan(res["mean_test_score"][failed]).all()
    assert (res["n_resources"][failed] == 1).all()  # never chosen again
    assert (res["parent_id"][~failed] != np.flatnonzero(failed)[:, None]).all()  # no mutant of them
    assert search.best_params_["alpha"] == 1e-2


def test_a_mutant_given_a_value_fit_rejects_fails_as_a_fresh_fit_does():
    """A fitted model's partial_fit skips scikit-learn's check of its parameters; the search
    checks a mutant's, so alpha=-1 fails as it does at the first fit, without a numpy warning
    (the parent's SGD went on with it, taking a square root of alpha)."""
    # The mutation gives alpha=-1 (once: a value that failed is not drawn again).
    search = MutantUCBSearch(SGD, {"alpha": [1e-4, 1e-3]}, budget=10, n_initial=2,
                             init="k-dpp", max_subtrains=3, cv=CV3, random_state=0,
                             mutation=_to_negative_alpha)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        search.fit(X, Y)
    # FitFailedWarning is a RuntimeWarning too: the failed fits, expected.
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)
                and not issubclass(w.category, FitFailedWarning)]
    res = search.all_cv_results_
    rejected = np.array([p["alpha"] < 0 for p in res["params"]])
    # Once its failure is used, a value is not drawn again: the mutants bred before
    # that (at most the eight decisions in flight) may take it.
    assert 1 <= (res["parent_id"][rejected] >= 0).sum() <= 8
    assert np.isnan(res["mean_test_score"][rejected]).all()
    # Every fold of every rejected model failed in its fit.
    failures = [w for w in caught if issubclass(w.category, FitFailedWarning)]
    assert len(failures) == 1
    assert re.search(rf"\b{3 * rejected.sum()} fits failed", str(failures[0].message))
    assert "The 'alpha' parameter of SGDClassifier must be" in str(failures[0].message)
    assert search.best_params_["alpha"] in (1e-4, 1e-3)


def _to_negative_alpha(params, rng):
    return {**params, "alpha": -1.0}


@pytest.mark.filterwarnings("ignore:One or more of the test scores")
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.FitFailedWarning")
@pytest.mark.parametrize("space, bad", [
    ({"alpha": [-1.0, 1e-4]}, lambda p: p["alpha"] < 0),
    ({"alpha": [-1.0, 1e-4, 1e-3], "penalty": ["l2", "l1"]}, lambda p: p["alpha"] < 0),
    # Each value scores with another; only the pair fails (elasticnet needs l1_ratio).
    ({"penalty": ["l2", "elasticnet"], "l1_ratio": [0.5, None]},
     lambda p: p["penalty"] == "elasticnet" and p["l1_ratio"] is None),
])
def test_a_failed_value_or_configuration_is_not_bred_again(space, bad):
    search = MutantUCBSearch(SGDClassifier(random_state=0), space, budget=80, reward="mean",
                             max_subtrains=5, cv=CV3, random_state=0).fit(X, Y)
    res = search.cv_results_
    failed = np.array([bool(bad(p)) for p in res["params"]])
    assert failed.any()  # drawn at first, and failed
    mutants = res["parent_id"] >= 0
    assert mutants.sum() > 3
    # Drawn from the space at first; once its failure is used, never bred again:
    # the failed configurations are initial models, or mutants bred by the (at
    # most eight) decisions made before that.
    row = {c: i for i, c in enumerate(res["candidate_id"])}
    used = [c for c, _ in search.policy_.decisions_]  # in the order handed out
    first_failure = min(used.index(res["candidate_id"][i]) for i in np.flatnonzero(failed))
    bred_after = {c for c, _ in search.policy_.history_[first_failure + 8:]} - set(
        used[:first_failure + 8])
    assert not any(failed[row[c]] and mutants[row[c]] for c in bred_after)
    assert np.isfinite(search.best_score_)


@pytest.mark.parametrize("space, kind, match", [
    ({"solver": ["adam", "lbfgs"]}, "auto",
     r"param_distributions gives solver='lbfgs', with which MLPClassifier cannot continue "
     r"training by subtrain_kind='partial_fit'.*or pass subtrain_kind='max_iter'"),
    ([{"solver": ["sgd"]}, {"solver": ["lbfgs"], "alpha": [1e-4]}], "partial_fit",
     "solver='lbfgs'"),
])
def test_a_value_no_model_can_be_continued_with_is_refused_before_any_training(
        space, kind, match, monkeypatch):
    monkeypatch.setattr(Subtrainer, "first", _no_training)
    with pytest.raises(ValueError, match=match):
        MutantUCBSearch(MLPClassifier(), space, subtrain_kind=kind, budget=20,
                        max_subtrains=5).fit(X, Y)


def test_a_searched_pipeline_step_takes_its_parameters_as_the_template_step_would():
    """``{"clf": [SGD], "clf__alpha": ...}`` over a pipeline whose clf is LogisticRegression
    searches exactly as over one whose clf already is that SGD: the nested values are set on
    the step the configuration puts there, not on the template's (which has no alpha)."""
    space = {"clf": [SGD], "clf__alpha": [1e-4, 1e-3, 1e-2]}
    kwargs = dict(subtrain_kind="max_iter", budget=12, max_subtrains=3, cv=CV3, random_state=0)
    searched = MutantUCBSearch(Pipeline([("scale", StandardScaler()),
                                         ("clf", LogisticRegression())]), space, **kwargs).fit(X, Y)
    template = MutantUCBSearch(Pipeline([("scale", StandardScaler()), ("clf", SGD)]), space,
                               **kwargs).fit(X, Y)
    assert all(isinstance(p["clf"], SGDClassifier) for p in searched.all_cv_results_["params"])
    for key in ("mean_test_score", "n_resources", "parent_id"):
        np.testing.assert_array_equal(searched.all_cv_results_[key],
                                      template.all_cv_results_[key])
    assert ([p["clf__alpha"] for p in searched.all_cv_results_["params"]]
            == [p["clf__alpha"] for p in template.all_cv_results_["params"]])
    assert searched.best_params_["clf__alpha"] == template.best_params_["clf__alpha"]
    np.testing.assert_array_equal(searched.predict(X), template.predict(X))
    assert isinstance(searched.best_estimator_[-1], SGDClassifier)
    assert space["clf"][0].get_params() == SGD.get_params()  # the value itself is left as given


@pytest.mark.parametrize("space, random_state, match", [
    ({"clf": [SGD], "clf__alpha": [1e-4, 1e-3], "clf__C": [1.0]}, 0,
     r"Invalid parameter 'C' for estimator SGDClassifier"),
    # The initial draws of seed 3 miss the second branch, which is checked all the same.
    ([{"clf": [SGD], "clf__alpha": [1e-4, 1e-3]}, {"clf": [SGD], "clf__C": [1.0]}], 3,
     r"param_distributions gives clf__C=1.0, which the estimator cannot take with "
     r"clf=SGDClassifier\(.*\): Invalid parameter 'C' for estimator SGDClassifier"),
])
def test_a_parameter_the_searched_step_does_not_have_fails_before_any_training(
        space, random_state, match, monkeypatch):
    monkeypatch.setattr(Subtrainer, "first", _no_training)
    pipe = Pipeline([("scale", StandardScaler()), ("clf", LogisticRegression())])
    with pytest.raises(ValueError, match=match):
        MutantUCBSearch(pipe, space, subtrain_kind="max_iter", budget=12, max_subtrains=3,
                        n_initial=2, random_state=random_state).fit(X, Y)


@pytest.mark.parametrize("template, space, match", [
    (SGD, {"clf": [MLPClassifier()], "clf__solver": ["adam", "lbfgs"]},
     r"param_distributions gives clf__solver='lbfgs', with which MLPClassifier cannot "
     r"continue training by subtrain_kind='partial_fit'"),
    # The kind that every value supports is one the template's step does not: passing it
    # alone would be refused.
    (LogisticRegression(), {"clf": [RandomForestClassifier()], "clf__max_depth": [2, 4]},
     r"with which RandomForestClassifier cannot continue training by subtrain_kind='max_iter'"
     r".*give the estimator a last step that continues by subtrain_kind='n_estimators'"),
])
def test_a_value_the_searched_step_cannot_be_continued_with_is_refused_naming_the_step(
        template, space, match, monkeypatch):
    monkeypatch.setattr(Subtrainer, "first", _no_training)
    pipe = Pipeline([("scale", StandardScaler()), ("clf", template)])
    with pytest.raises(ValueError, match=match):
        MutantUCBSearch(pipe, space, budget=12, max_subtrains=3).fit(X, Y)


def test_resource_is_the_deprecated_name_of_subtrain_kind():
    space = {"alpha": [1e-4, 1e-2]}
    kwargs = dict(budget=8, max_subtrains=3, cv=3, random_state=0)
    renamed = MutantUCBSearch(MLPClassifier(max_iter=5), space, subtrain_kind="max_iter",
                              **kwargs).fit(X, Y)
    with pytest.warns(FutureWarning, match="resource was renamed subtrain_kind"):
        old = MutantUCBSearch(MLPClassifier(max_iter=5), space, resource="max_iter",
                              **kwargs).fit(X, Y)
    assert old.subtrain_kind_ == renamed.subtrain_kind_ == "max_iter"
    np.testing.assert_array_equal(old.cv_results_["mean_test_score"],
                                  renamed.cv_results_["mean_test_score"])


def _no_training(*args, **kwargs):
    raise AssertionError("a model was trained")


def test_rows_memory_mapped_for_worker_processes_give_the_same_results(monkeypatch, tmp_path):
    """The fold's rows as worker processes get them (memory-mapped), here in process."""
    pipe = make_pipeline(StandardScaler(), SGD)
    space = {"sgdclassifier__alpha": stats.loguniform(1e-5, 1e-1)}
    kinds = []

    def scorer(estimator, X_test, y_test):
        kinds.append((type(X_test), type(y_test)))
        return estimator.score(X_test, y_test)

    kwargs = dict(budget=20, max_subtrains=4, cv=CV3, random_state=0, scoring=scorer,
                  return_train_score=True)
    plain = MutantUCBSearch(pipe, space, **kwargs).fit(X, Y)
    assert set(kinds) == {(np.ndarray, np.ndarray)}
    kinds.clear()
    monkeypatch.setattr("sksel.mutant_ucb.search.runs_in_process", lambda n_jobs: False)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    mapped = MutantUCBSearch(pipe, space, **kwargs).fit(X, Y)
    assert set(kinds) == {(np.memmap, np.memmap)}
    for key in ("mean_test_score", "mean_train_score", "candidate_id", "parent_id"):
        np.testing.assert_array_equal(plain.all_cv_results_[key], mapped.all_cv_results_[key])
    np.testing.assert_array_equal(plain.best_estimator_.predict(X),
                                  mapped.best_estimator_.predict(X))
    assert os.listdir(tmp_path) == []  # the mapped rows are removed with the fit


def test_memory_mapped_rows_are_writable(monkeypatch, tmp_path):
    """torch warns of undefined behaviour on a read-only array: the mapped rows are writable."""
    writable = []

    def scorer(estimator, X_test, y_test):
        writable.append((X_test.flags.writeable, y_test.flags.writeable))
        return estimator.score(X_test, y_test)

    monkeypatch.setattr("sksel.mutant_ucb.search.runs_in_process", lambda n_jobs: False)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    MutantUCBSearch(SGD, {"alpha": stats.loguniform(1e-5, 1e-1)}, budget=6, max_subtrains=2,
                    cv=CV3, random_state=0, scoring=scorer).fit(X, Y)
    assert writable and all(x and y for x, y in writable)


def test_two_workers_keep_the_invariants(monkeypatch, tmp_path):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    search = MutantUCBSearch(SGD, {"alpha": stats.loguniform(1e-6, 1e-1)}, budget=30,
                             max_subtrains=3, reward="auto", cv=CV3, n_jobs=2,
                             random_state=0).fit(X, Y)
    assert os.listdir(tmp_path) == []  # the rows the workers read are removed
    history = search.policy_.history_
    # reward="finish": a model's pulls double its sub-trains, the sub-trains of all pulls
    # stay within the budget.
    assert search.reward_ == "finish"
    spent = 0
    for k in set(c for c, _ in history):
        steps = [n for c, n in history if c == k]
        assert steps[0] == 1 and all(a < b <= max(2 * a, 3) for a, b in zip(steps, steps[1:]))
        spent += steps[-1]
    assert spent <= 30
    assert search.cv_results_["n_resources"].max() == 3


# ------------------------------------------------------------------- budget
@pytest.mark.parametrize("kwargs,smallest", [
    (dict(budget=3, max_subtrains=10), 11),
    (dict(budget=10, max_subtrains=10), 11),
    (dict(budget=12, n_initial=10, max_subtrains=4), 13),
])
def test_a_budget_that_cannot_finish_a_model_is_refused_before_any_training(kwargs, smallest):
    CountingSGD.n_fits = 0
    with pytest.raises(ValueError, match=f"smallest budget that can is {smallest}"):
        MutantUCBSearch(CountingSGD(), ALPHAS, cv=CV3, **kwargs).fit(X, Y)
    assert CountingSGD.n_fits == 0
    kwargs["budget"] = smallest  # and the smallest budget said works, spent exactly
    search = MutantUCBSearch(CountingSGD(), ALPHAS, cv=CV3, random_state=0, **kwargs).fit(X, Y)
    results = search.all_cv_results_
    # Every model's last evaluation counts its sub-trains: they add up to the budget.
    last = {c: n for c, n in zip(results["candidate_id"], results["n_resources"])}
    assert sum(last.values()) == smallest
    assert search.cv_results_["n_resources"].max() == kwargs["max_subtrains"]


@pytest.mark.parametrize("n_jobs", [1, 2])
@pytest.mark.parametrize("kwargs", [
    dict(budget=11, max_subtrains=10), dict(budget=13, n_initial=10, max_subtrains=4),
    dict(budget=30, max_subtrains=4), dict(budget=30, max_subtrains=4, mutation=False),
    dict(budget=17, n_initial=3, max_subtrains=5, reward="last"),
])
def test_the_search_never_spends_more_than_its_budget(kwargs, n_jobs):
    space = {"alpha": stats.loguniform(1e-6, 1e-1)}
    search = MutantUCBSearch(SGD, space, cv=CV3, n_jobs=n_jobs, random_state=0,
                             **kwargs).fit(X, Y)
    assert len(search.all_cv_results_["params"]) <= kwargs["budget"]
    assert len(search.policy_.history_) <= kwargs["budget"]
    assert search.cv_results_["n_resources"].max() == kwargs["max_subtrains"]  # one finished


def test_the_policy_alone_keeps_a_budget_too_small_to_finish():
    policy = MutantUCBPolicy(n_initial=10, budget=12, max_subtrains=4, random_state=0)
    simulate(policy, lambda model, n: 0.5 + 0.01 * model + 0.001 * n)
    assert policy.done
    assert len(policy.history_) <= 12


# ------------------------------------------------- training length, rebuilt
def _lineage_total(res, every, model, n, cap):
    """Sub-trains of `model` at its `n`-th and of the ancestors' it continued, by brute force.

    A mutant goes on from its parent as trained when it was bred, unless the
    parent's lineage had reached `cap` then: it starts afresh.
    """
    pulls = list(zip(every["candidate_id"], every["n_resources"]))
    parent = int(res["parent_id"][list(res["candidate_id"]).index(model)])
    if parent < 0:
        return n
    born = pulls.index((model, 1))
    inherited = _lineage_total(res, every, parent,
                               max(m for c, m in pulls[:born] if c == parent), cap)
    return n + (inherited if inherited < cap else 0)


def test_every_row_states_its_total_training_inherited_included():
    space = {"alpha": stats.loguniform(1e-6, 1e-1), "penalty": ["l2", "l1"]}
    search = MutantUCBSearch(SGD, space, budget=40, n_initial=3, max_subtrains=4, cv=CV3,
                             random_state=0).fit(X, Y)
    res, every = search.cv_results_, search.all_cv_results_
    totals = [_lineage_total(res, every, int(c), int(n), np.inf)
              for c, n in zip(res["candidate_id"], res["n_resources"])]
    assert max(totals) > 4  # some model was trained beyond max_subtrains through its parent
    np.testing.assert_array_equal(res["n_resources_total"], totals)
    assert [p["max_iter"] for p in res["params"]] == totals  # unit 1: passes
    assert (every["n_resources_total"] >= every["n_resources"]).all()


def test_max_lineage_subtrains_caps_the_training_of_a_lineage():
    # The cap counts the sub-trains a model inherited: no model, and so not
    # the selected one, is trained beyond it, and its refit trains as long.
    space = {"alpha": stats.loguniform(1e-6, 1e-1), "penalty": ["l2", "l1"]}
    search = MutantUCBSearch(SGD, space, budget=60, n_initial=4, max_subtrains=3,
                             max_lineage_subtrains=3, cv=CV3, random_state=0).fit(X, Y)
    res, every = search.cv_results_, search.all_cv_results_
    assert (res["parent_id"] >= 0).sum() > 10  # mutants were bred, of models at the cap too
    totals = [_lineage_total(res, every, int(c), int(n), 3)
              for c, n in zip(every["candidate_id"], every["n_resources"])]
    assert max(totals) == 3
    assert search.best_params_["max_iter"] == res["n_resources_total"][search.best_index_] == 3
    assert (search.best_estimator_.t_ - 1) / len(X) == 3  # passes over the rows, refitted


def _n_trees(model):
    return len(model.estimators_)


def _hgb_iterations(model):
    return model.n_iter_


def _epochs(model):
    return len(model[-1].loss_curve_)


def _xgb_rounds(model):
    return model.get_booster().num_boosted_rounds()


def _rebuild_cases():
    cases = [
        (make_pipeline(StandardScaler(), SGDClassifier(loss="log_loss", tol=None,
                                                       random_state=0)),
         {"sgdclassifier__alpha": stats.loguniform(1e-5, 1e-1)}, 1,
         lambda model: (model[-1].t_ - 1) / len(X)),  # passes over the rows
        (make_pipeline(StandardScaler(), MLPClassifier(
            hidden_layer_sizes=(8,), n_iter_no_change=10_000, random_state=0)),
         {"mlpclassifier__alpha": stats.loguniform(1e-5, 1e-1)}, 1, _epochs),
        (HistGradientBoostingClassifier(early_stopping=False, random_state=0),
         {"learning_rate": stats.loguniform(0.01, 0.5)}, 5, _hgb_iterations),
        (RandomForestClassifier(random_state=0), {"max_depth": [1, 2, 3, 4]}, 4, _n_trees),
        (LogisticRegression(C=1e6, tol=0.0), {"fit_intercept": [True, False]}, 3, None),
    ]
    try:
        import xgboost
    except ImportError:
        return cases
    return cases + [(xgboost.XGBClassifier(n_jobs=1, random_state=0),
                     {"learning_rate": stats.loguniform(0.01, 0.5)}, 4, _xgb_rounds)]


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("estimator,space,unit,count", _rebuild_cases(),
                         ids=lambda c: type(c).__name__ if hasattr(c, "fit") else None)
def test_best_estimator_is_a_plain_estimator_that_rebuilds_from_best_params(
        estimator, space, unit, count):
    search = MutantUCBSearch(estimator, space, budget=24, n_initial=3, max_subtrains=4,
                             unit=unit, cv=CV3, random_state=0).fit(X, Y)
    best = search.best_estimator_
    total = int(search.cv_results_["n_resources_total"][search.best_index_])
    assert search.best_params_[search.length_param_] == total * unit
    configured = clone(estimator).set_params(**search.best_params_).get_params()
    stated = [k for k in configured if k.endswith("warm_start")] + list(search.best_params_)
    assert {k: best.get_params()[k] for k in stated} == {k: configured[k] for k in stated}
    rebuilt = clone(estimator).set_params(**search.best_params_).fit(X, Y)
    if count is not None:
        assert count(best) == count(rebuilt) == total * unit
    # Fitting the selected model again trains it from scratch, as the rebuilt one.
    X_new, y_new = X[::2], Y[::2]
    np.testing.assert_array_equal(best.fit(X_new, y_new).predict(X),
                                  clone(rebuilt).fit(X_new, y_new).predict(X))


def test_searching_the_training_length_is_refused():
    with pytest.raises(ValueError, match="param_distributions searches 'n_estimators'"):
        MutantUCBSearch(RandomForestClassifier(), {"n_estimators": [10, 20]}).fit(X, Y)


# ------------------------------------------------------------------- scorers
def test_how_the_scorer_is_spelled_does_not_change_the_search():
    from sklearn.metrics import accuracy_score, get_scorer, make_scorer

    def searched(scoring, refit=True):
        return MutantUCBSearch(SGD, {"alpha": stats.loguniform(1e-6, 1e-1)}, budget=40,
                               max_subtrains=4, scoring=scoring, refit=refit, cv=CV3,
                               random_state=0).fit(X, Y)

    plain = searched("accuracy")
    assert plain.policy_._bonus_scale() == 1.0
    for other, key in [(searched(get_scorer("accuracy")), "score"),
                       (searched(make_scorer(accuracy_score)), "score"),
                       (searched({"acc": "accuracy"}, refit="acc"), "acc")]:
        assert other.policy_._bonus_scale() == 1.0
        assert other.policy_.history_ == plain.policy_.history_
        np.testing.assert_array_equal(other.all_cv_results_[f"mean_test_{key}"],
                                      plain.all_cv_results_["mean_test_score"])


# ------------------------------------------------------------------- Ctrl-C
class InterruptedMLP(MLPClassifier):
    """An MLP that receives a Ctrl-C in the epoch `interrupt_at` (counted over all fits)."""

    epochs = 0
    interrupt_at = None

    def _update_no_improvement_count(self, *args, **kwargs):
        type(self).epochs += 1
        if type(self).epochs == type(self).interrupt_at:
            os.kill(os.getpid(), signal.SIGINT)  # the MLP catches the KeyboardInterrupt
        return super()._update_no_improvement_count(*args, **kwargs)


@pytest.mark.skipif(not hasattr(signal, "SIGINT"), reason="no SIGINT on this platform")
@pytest.mark.usefixtures("sigint_raises_keyboard_interrupt")
def test_a_ctrl_c_the_model_swallows_still_interrupts_the_search(tmp_path):
    def search(**kwargs):
        return MutantUCBSearch(
            InterruptedMLP(hidden_layer_sizes=(5,), random_state=0),
            {"alpha": stats.loguniform(1e-5, 1)}, budget=20, max_subtrains=4, cv=CV3,
            random_state=0, **kwargs)

    InterruptedMLP.epochs, InterruptedMLP.interrupt_at = 0, None
    uninterrupted = search().fit(X, Y)
    InterruptedMLP.epochs, InterruptedMLP.interrupt_at = 0, 7  # the 3rd sub-train, 1st fold
    with (pytest.warns(RuntimeWarning, match="interrupted: keeping the 2 evaluations"),
          pytest.warns(UserWarning, match="Ctrl-C ended the search"),
          pytest.warns(UserWarning, match="Training interrupted by user")):  # the MLP's
        interrupted = search(checkpoint=tmp_path).fit(X, Y)
    assert interrupted.stop_reason_ == "interrupted"
    assert len(interrupted.all_cv_results_["params"]) == 2  # the cut sub-train is not kept
    assert len([f for f in os.listdir(tmp_path) if f != "fingerprint.pkl"]) == 2  # nor recorded
    InterruptedMLP.interrupt_at = None
    resumed = search(checkpoint=tmp_path).fit(X, Y)
    np.testing.assert_array_equal(resumed.all_cv_results_["mean_test_score"],
                                  uninterrupted.all_cv_results_["mean_test_score"])
    assert resumed.best_params_ == uninterrupted.best_params_


class StubbornSGD(CountingSGD):
    """A CountingSGD that refuses to go on once its `alpha` changed since its first fit."""

    def partial_fit(self, X, y, classes=None):
        if getattr(self, "first_alpha_", self.alpha) != self.alpha:
            raise ValueError("alpha changed after the first fit")
        self.first_alpha_ = self.alpha
        return super().partial_fit(X, y, classes=classes)


def test_a_mutant_its_parent_cannot_pass_on_to_counts_only_its_own_training():
    search = MutantUCBSearch(StubbornSGD(), {"alpha": stats.loguniform(1e-6, 1e-1)},
                             budget=30, n_initial=3, max_subtrains=4, cv=CV3,
                             random_state=0).fit(X, Y)
    res = search.cv_results_
    assert (res["parent_id"] >= 0).any()  # mutants were bred, and every one restarted
    np.testing.assert_array_equal(res["n_resources_total"], res["n_resources"])
    alone = clone(search.estimator).set_params(**search.best_params_)
    for _ in range(res["n_resources"][search.best_index_]):
        alone.partial_fit(X, Y, classes=CLASSES)
    np.testing.assert_array_equal(search.best_estimator_.sgd_.coef_, alone.sgd_.coef_)


def test_verbose_two_lines_name_the_model_and_its_parent_as_cv_results(capsys):
    import re

    search = MutantUCBSearch(SGD, ALPHAS, budget=14, n_initial=3, max_subtrains=4, cv=CV3,
                             random_state=0, verbose=2).fit(X, Y)
    lines = [line for line in capsys.readouterr().out.splitlines()
             if line.startswith("[MutantUCBSearch] used")]
    results = search.all_cv_results_
    assert len(lines) == len(results["params"])
    for line, model, n, parent, name in zip(lines, results["candidate_id"],
                                            results["n_resources"], results["parent_id"],
                                            results["candidate_name"]):
        found = re.search(r"(#(\d+)(?: \(from #(\d+)\))? \S.*?)\s+sub-trains=(\d+)", line)
        assert found and found.group(1) == name
        model_, parent_, n_ = found.group(2, 3, 4)
        assert (int(model_), int(parent_ or -1), int(n_)) == (model, parent, n)


def test_budget_none_needs_max_time_before_any_training():
    CountingSGD.n_fits = 0
    with pytest.raises(ValueError, match="budget=None .* give max_time"):
        MutantUCBSearch(CountingSGD(), ALPHAS, cv=CV3, budget=None).fit(X, Y)
    assert CountingSGD.n_fits == 0


def test_time_budget_selects_a_fully_trained_model_among_models_the_seconds_started():
    # budget=None: max_time is the budget. The policy starts as many initial
    # models as the seconds pay for, out of the 128 drawn, finishes its
    # leader, and ends the search by itself (not cut by the deadline).
    X, y = load_iris(return_X_y=True)
    search = MutantUCBSearch(
        SGDClassifier(random_state=0), {"alpha": stats.loguniform(1e-6, 1e-1)}, budget=None,
        max_time=1.5, max_subtrains=4, cv=3, random_state=0).fit(X, y)
    results = search.cv_results_
    assert search.stop_reason_ == "done"
    assert results["n_resources_total"][search.best_index_] >= 4
    initial = results["candidate_id"][results["parent_id"] < 0]
    assert 2 <= len(initial) < 128
    np.testing.assert_array_equal(np.sort(initial), np.arange(len(initial)))


# ------------------------------------------------ always a model on a time budget

#: Each pass naps 0.1 s: a plain fit of one configuration (10 passes on all rows) takes
#: 1 s, a sub-train (a pass on each of 5 folds) 0.5 s; starting two worker processes takes
#: about a second too.
_NAP = 0.1


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_time_budget_of_five_plain_fits_ends_by_itself_with_a_model(n_jobs):
    """Given max_time = 5 plain fits of one configuration, the search fits its first model
    (here a plain fit: the model naps whatever its rows), starts one model, prices its
    sub-train, widens as the seconds pay for, and ends by its own plan (not the deadline)
    with a model refitted on all the rows, whatever n_jobs: the rule the time budget keeps
    for any model whose plain fit takes at most a quarter of what the first model leaves."""
    from _common import NappingSGD

    X, y = load_iris(return_X_y=True)
    search = MutantUCBSearch(NappingSGD(nap=_NAP), {"alpha": stats.loguniform(1e-5, 1e-1)},
                             budget=None, max_time=5 * 10 * _NAP, cv=5, n_jobs=n_jobs,
                             random_state=0).fit(X, y)
    assert search.stop_reason_ == "done"
    assert search.best_estimator_.predict(X).shape == y.shape
    assert np.isfinite(search.best_score_)


def test_time_budget_that_no_evaluation_fits_says_so_with_what_it_measured():
    """Where not even the first model (a fit on a few rows of one fold) can end within
    max_time, the search says so with the seconds it measured, and runs nothing more: a
    sub-train naps 0.6 s, a plain fit 6 s."""
    from _common import NappingSGD

    X, y = load_iris(return_X_y=True)
    calls = []

    class Counted(NappingSGD):
        def partial_fit(self, X, y, classes=None, sample_weight=None):
            calls.append(1)
            return super().partial_fit(X, y, classes=classes, sample_weight=sample_weight)

    search = MutantUCBSearch(Counted(nap=0.6), {"alpha": stats.loguniform(1e-5, 1e-1)},
                             budget=None, max_time=1.0, cv=5, n_jobs=1, random_state=0)
    with pytest.raises(RuntimeError, match=r"no model can be trained within max_time=1 s\. "
                       r"The quickest evidence, one candidate of each estimator class fitted on "
                       r"100 rows of the first fold, did not end in time: #0 .* cut after "
                       r"(0\.9\d|1) s"):
        search.fit(X, y)
    assert calls == []  # the first model's plain fit naps 6 s, cut at 1 s: no sub-train ran


# ------------------------------------------------------- the template's training length


@pytest.mark.parametrize("template, length_param, expected, units", [
    (SGDClassifier(max_iter=50, tol=None, random_state=0), "max_iter", (10, 5), "passes"),
    (SGDClassifier(max_iter=15, tol=None, random_state=0), "max_iter", (8, 2), "passes"),
    (HistGradientBoostingClassifier(max_iter=30, early_stopping=False, random_state=0),
     "max_iter", (10, 3), "iterations"),
    (RandomForestClassifier(n_estimators=40, random_state=0), "n_estimators", (10, 4),
     "trees"),
])
def test_defaults_train_a_model_fully_for_the_templates_own_length(template, length_param,
                                                                    expected, units):
    """Left at their defaults, max_subtrains and unit split the template's own training
    length (max_iter, n_estimators) into at most 10 sub-trains: a fully trained model trains
    as long as a plain fit of the template (rounded up to whole sub-trains), as
    RandomizedSearchCV would train it, and the header says so."""
    import io
    from contextlib import redirect_stdout

    X, y = load_iris(return_X_y=True)
    space = ({"alpha": stats.loguniform(1e-5, 1e-1)} if isinstance(template, SGDClassifier)
             else {"min_samples_leaf": [1, 5, 20]})
    out = io.StringIO()
    with redirect_stdout(out):
        search = MutantUCBSearch(template, space, budget=3 * expected[0], cv=3, verbose=1,
                                 random_state=0).fit(X, y)
    max_subtrains, unit = expected
    assert (search.max_subtrains_, search.unit_) == expected
    length = template.get_params()[length_param]
    assert length <= max_subtrains * unit < length + unit
    results = search.cv_results_
    full = results["n_resources_total"] >= max_subtrains
    assert full[search.best_index_]
    assert search.best_params_[length_param] == results["n_resources_total"][
        search.best_index_] * unit
    assert (f"fully trained: {max_subtrains} sub-trains of {unit} {units} "
            f"({length_param}={max_subtrains * unit})") in out.getvalue()


def test_a_given_max_subtrains_or_unit_keeps_its_meaning():
    """max_subtrains given: sub-trains of the kind's unit (one pass); unit given: as many
    sub-trains as the template's length takes."""
    X, y = load_iris(return_X_y=True)
    space = {"alpha": stats.loguniform(1e-5, 1e-1)}
    template = SGDClassifier(max_iter=50, tol=None, random_state=0)
    given = MutantUCBSearch(template, space, budget=12, max_subtrains=4, cv=3,
                            random_state=0).fit(X, y)
    assert (given.max_subtrains_, given.unit_) == (4, 1)
    by_unit = MutantUCBSearch(template, space, budget=30, unit=7, cv=3,
                              random_state=0).fit(X, y)
    assert (by_unit.max_subtrains_, by_unit.unit_) == (8, 7)
