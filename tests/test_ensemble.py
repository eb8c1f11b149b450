"""Ensembles of a search's candidates: the DPP law, Caruana's rounds, out of fold only."""

import itertools
import pickle
import warnings

import numpy as np
import pytest
from scipy.stats import chisquare
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import load_breast_cancer, make_classification
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold, train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from sksel import DAUBSearch, KDPPSearch
from sksel.ensemble import EnsembleClassifier, recording_predictions
from sksel.ensemble.selection import dpp_selection, error_similarity, greedy_selection
from sksel.spaces.dpp import dpp_map, sample_dpp

GRID = {"max_depth": [1, 2, 3, None], "min_samples_leaf": [1, 20]}


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(n_samples=300, n_features=8, n_informative=4, random_state=0)
    return X, y


def _accuracy(y):
    def score(p):
        return np.mean(np.argmax(p, axis=2) == y[None, :], axis=1)
    return score


# ---------------------------------------------------------------- the DPP law
def test_sample_dpp_follows_the_l_ensemble_law():
    rng = np.random.RandomState(1)
    B = rng.normal(size=(4, 3))
    L = B @ B.T / 2
    subsets = [s for r in range(5) for s in itertools.combinations(range(4), r)]
    probabilities = np.array([np.linalg.det(L[np.ix_(s, s)]) if s else 1.0 for s in subsets])
    probabilities /= np.linalg.det(L + np.eye(4))
    assert probabilities.sum() == pytest.approx(1.0)
    keep = probabilities * 20_000 >= 5  # the subsets of 4 have det 0: rank 3
    draws = [tuple(int(i) for i in sample_dpp(L, random_state=rng)) for _ in range(20_000)]
    assert all(probabilities[subsets.index(d)] > 0 for d in draws)
    counts = np.array([draws.count(s) for s in subsets])
    assert chisquare(counts[keep], probabilities[keep] / probabilities[keep].sum()
                     * counts[keep].sum()).pvalue > 0.01


def test_dpp_map_adds_items_while_they_make_the_subset_more_probable():
    # Independent items (diagonal L): the mode is exactly the items with L_ii > 1.
    L = np.diag([3.0, 0.5, 1.5, 0.9])
    assert sorted(dpp_map(L).tolist()) == [0, 2]
    # Correlated ones: every addition multiplies det(L_A) by more than 1 and
    # no item left would; on 6 items the greedy mode is the brute-force one here.
    rng = np.random.RandomState(0)
    B = rng.normal(size=(6, 6))
    L = B @ B.T / 3

    def det(s):
        return np.linalg.det(L[np.ix_(s, s)]) if len(s) else 1.0
    chosen = dpp_map(L).tolist()
    for t in range(1, len(chosen) + 1):
        assert det(chosen[:t]) > det(chosen[: t - 1])
    assert all(det(chosen + [i]) <= det(chosen) for i in range(6) if i not in chosen)
    subsets = [list(s) for r in range(7) for s in itertools.combinations(range(6), r)]
    assert sorted(chosen) == sorted(max(subsets, key=det))


# ------------------------------------------------------------ Caruana's rounds
def test_greedy_selection_reproduces_caruanas_rounds_worked_by_hand():
    # Four rows of class 1; probabilities of class 1 of three models.
    # Round 1: accuracies 3/4, 2/4, 2/4: model 0.
    # Round 2: 0+0 -> 3/4; 0+1 -> (0.6+0.8)/2, (0.6+0.8)/2, (0.9+0.2)/2 ... see below.
    p1 = np.array([[0.6, 0.6, 0.6, 0.4],    # right on rows 0-2
                   [0.8, 0.8, 0.2, 0.2],    # right on rows 0-1
                   [0.2, 0.2, 0.9, 0.9]])   # right on rows 2-3
    predictions = np.stack([1 - p1, p1], axis=2)
    y = np.ones(4, dtype=int)
    # Round 2, averages of class 1 with model 0: +0 [.6 .6 .6 .4] 3/4;
    # +1 [.7 .7 .4 .3] 2/4; +2 [.4 .4 .75 .65] 2/4 -> model 0 (tie to the lower index).
    # Round 3, sum so far [1.2 1.2 1.2 .8]: +0 3/4; +1 [.67 .67 .47 .33] 2/4;
    # +2 [.47 .47 .7 .57] 2/4 -> model 0. Every later round: model 0 again.
    assert greedy_selection(predictions, _accuracy(y), n_rounds=3).tolist() == [3, 0, 0]
    # Without model 0, round 1: model 1 (tie, lower index); round 2: +1 [.8 .8 .2 .2]
    # 2/4, +2 [.5 .5 .55 .55] -> 4/4 (0.5 counts for class 0? argmax ties to class 0: 2/4)
    counts = greedy_selection(predictions, _accuracy(y), n_rounds=2, allowed=[1, 2])
    assert counts.tolist() == [0, 2, 0]


def test_similarity_one_for_all_pairs_recovers_caruanas_rounds():
    # Dodge, Section 5.2.3: quality q_i = the score of the ensemble with model i
    # added, similarity 1 for every pair; each round adds the most probable draw
    # of size one of the DPP, det(L_{i}) / det(L + I).
    rng = np.random.RandomState(3)
    raw = rng.dirichlet(np.ones(3), size=(7, 60))
    y = rng.randint(3, size=60)
    score = _accuracy(y)
    ones = np.ones((7, 7))
    total, counts = np.zeros((60, 3)), np.zeros(7, dtype=int)
    for t in range(1, 21):
        q = score((total + raw) / t)
        L = q[:, None] * ones * q[None, :]
        size_one = np.array([L[i, i] for i in range(7)]) / np.linalg.det(L + np.eye(7))
        winner = int(np.argmax(size_one))
        counts[winner] += 1
        total += raw[winner]
    assert counts.tolist() == greedy_selection(raw, score, n_rounds=20).tolist()


def test_dpp_selection_keeps_one_of_two_copies_and_the_diverse_good_model():
    y = np.array([0, 1] * 30)
    one_hot = np.eye(2)[y]
    rng = np.random.RandomState(0)
    good = np.where(rng.uniform(size=(60, 1)) < 0.8, one_hot, 1 - one_hot) * 0.8 + 0.1
    other = np.where(rng.uniform(size=(60, 1)) < 0.8, one_hot, 1 - one_hot) * 0.8 + 0.1
    bad = np.full((60, 2), 0.5)
    predictions = np.stack([good, good.copy(), other, bad])
    counts = dpp_selection(predictions, _accuracy(y)(predictions), _accuracy(y), y=one_hot)
    assert counts[0] + counts[1] > 0 and min(counts[0], counts[1]) == 0
    similarity = error_similarity(predictions, one_hot)
    assert similarity[0, 1] == pytest.approx(1.0)
    assert similarity[0, 2] < 0.9


# ------------------------------------------------------------- out of fold only
def test_kept_predictions_are_each_fold_models_predictions_of_its_held_out_rows(data):
    X, y = data
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    search = KDPPSearch(DecisionTreeClassifier(random_state=0), GRID, n_iter=4, cv=cv,
                        random_state=0, keep_predictions=True).fit(X, y)
    for row in search.cv_predictions_.keys_:
        expected = np.empty((len(y), 2))
        for train, test in cv.split(X, y):
            model = clone(search.estimator).set_params(**search.cv_results_["params"][row])
            expected[test] = model.fit(X[train], y[train]).predict_proba(X[test])
        np.testing.assert_allclose(search.cv_predictions_.predictions(row), expected, atol=1e-6)


def test_the_choice_never_sees_the_rows_it_is_scored_on():
    # Labels are noise: a model that sees a row predicts it (1-NN, a deep
    # tree); a choice that saw them would score ~1.
    rng = np.random.RandomState(0)
    X, y = rng.normal(size=(200, 5)), rng.randint(2, size=200)
    search = GridSearchCV(KNeighborsClassifier(), {"n_neighbors": [1, 3, 15]}, cv=4)
    for method in ("greedy", "dpp"):
        ensemble = EnsembleClassifier(search, method=method).fit(X, y)
        assert ensemble.oof_score_ < 0.65
        assert np.all(ensemble.candidate_scores_ < 0.65)


def test_recorded_predictions_of_grid_search_match_sksel_kept_ones(data):
    X, y = data
    grid = recording_predictions(GridSearchCV(DecisionTreeClassifier(random_state=0), GRID,
                                              cv=3, n_jobs=2)).fit(X, y)
    recorded = grid.scoring.predictions(grid, X, y)
    for row, params in enumerate(grid.cv_results_["params"]):
        expected = np.empty((len(y), 2))
        for train, test in StratifiedKFold(3).split(X, y):
            model = DecisionTreeClassifier(random_state=0, **params).fit(X[train], y[train])
            expected[test] = model.predict_proba(X[test])
        np.testing.assert_allclose(recorded.predictions(row), expected, atol=1e-6)
    # The same scores as without the recorder.
    plain = GridSearchCV(DecisionTreeClassifier(random_state=0), GRID, cv=3).fit(X, y)
    np.testing.assert_allclose(grid.cv_results_["mean_test_score"],
                               plain.cv_results_["mean_test_score"])


def test_numpy_booleans_keep_predictions_as_python_ones_do(data):
    X, y = data
    fits = {keep: KDPPSearch(DecisionTreeClassifier(random_state=0), GRID, n_iter=2, cv=3,
                             random_state=0, keep_predictions=keep).fit(X, y)
            for keep in (np.False_, np.True_)}
    assert fits[np.False_].cv_predictions_ is None
    assert len(fits[np.True_].cv_predictions_) == 2


def test_kept_predictions_do_not_depend_on_n_jobs_or_on_disk(data, tmp_path):
    X, y = data
    fits = [KDPPSearch(DecisionTreeClassifier(random_state=0), GRID, n_iter=5, cv=3,
                       random_state=0, n_jobs=n_jobs, keep_predictions=keep).fit(X, y)
            for n_jobs, keep in ((1, True), (2, True), (1, str(tmp_path / "kept")))]
    assert list((tmp_path / "kept").glob("*.npy"))
    for fit in fits[1:]:
        assert fit.cv_predictions_.keys_ == fits[0].cv_predictions_.keys_
        for row in fits[0].cv_predictions_.keys_:
            np.testing.assert_array_equal(fit.cv_predictions_.predictions(row),
                                          fits[0].cv_predictions_.predictions(row))


def test_daub_pool_is_the_learners_trained_on_all_rows(data):
    X, y = data
    learners = [LogisticRegression(), GaussianNB(), DecisionTreeClassifier(random_state=0),
                KNeighborsClassifier()]
    search = DAUBSearch(learners, cv=3, random_state=0, keep_predictions=True).fit(X, y)
    ensemble = EnsembleClassifier.from_search(search, X, y, method="greedy")
    resources = search.cv_results_["n_resources"]
    assert set(ensemble.candidates_) == {
        row for row in search.cv_predictions_.keys_
        if resources[row] == resources[search.best_index_]}
    assert search.best_index_ in ensemble.candidates_


# ------------------------------------------------------------------ estimator
def test_best_is_grid_searchs_own_choice(data):
    X, y = data
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), GRID, cv=3)
    ensemble = EnsembleClassifier(search, method="best").fit(X, y)
    plain = clone(search).fit(X, y)
    assert ensemble.members_.tolist() == [plain.best_index_]
    np.testing.assert_array_equal(ensemble.predict_proba(X), plain.predict_proba(X))


SVC_PROBA = make_pipeline(StandardScaler(), SVC(probability=True, random_state=0))
SVC_GRID = {"svc__C": [0.1, 1.0, 10.0]}
IGNORE_PROBABILITY = pytest.mark.filterwarnings("ignore:The `probability` parameter")


@pytest.fixture(scope="module")
def breast_cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return train_test_split(X, y, test_size=0.3, random_state=0)


@IGNORE_PROBABILITY
@pytest.mark.parametrize("search", [
    GridSearchCV(SVC_PROBA, SVC_GRID, cv=3),
    KDPPSearch(SVC_PROBA, SVC_GRID, n_iter=3, cv=3, random_state=0),
])
def test_best_predicts_as_the_searchs_best_estimator(search, breast_cancer):
    """SVC(probability=True) predicts by its decision function, on which the argmax of its
    Platt probabilities disagrees for some rows: "best" is the selected model, its predict."""
    X_train, X_test, y_train, y_test = breast_cancer
    ensemble = EnsembleClassifier(search, method="best").fit(X_train, y_train)
    best = ensemble.search_.best_estimator_
    grid = GridSearchCV(SVC_PROBA, SVC_GRID, cv=3).fit(X_train, y_train)
    assert ensemble.members_.tolist() == [ensemble.search_.best_index_]
    np.testing.assert_array_equal(ensemble.predict(X_test), best.predict(X_test))
    np.testing.assert_array_equal(ensemble.predict(X_test), grid.predict(X_test))
    assert ensemble.score(X_test, y_test) == grid.score(X_test, y_test)
    np.testing.assert_array_equal(ensemble.predict_proba(X_test), best.predict_proba(X_test))
    np.testing.assert_array_equal(ensemble.decision_function(X_test),
                                  best.decision_function(X_test))
    assert ensemble.set_params(voting="hard").fit(X_train, y_train).predict(X_test).tolist() == (
        best.predict(X_test).tolist())


@IGNORE_PROBABILITY
def test_hard_voting_counts_the_members_predicted_classes(breast_cancer):
    X_train, X_test, y_train, _ = breast_cancer
    search = GridSearchCV(SVC_PROBA, {"svc__C": [0.03, 0.1, 0.3, 1.0, 3.0, 10.0]}, cv=3)
    hard = EnsembleClassifier(search, method="greedy", voting="hard", n_rounds=10).fit(
        X_train, y_train)
    assert len(hard.members_) > 1
    votes = sum(w * np.eye(2)[m.predict(X_test)] for w, m in zip(hard.weights_, hard.estimators_))
    np.testing.assert_allclose(hard.predict_proba(X_test), votes)
    assert not hasattr(hard, "decision_function")  # several members: no one's scores


def test_predictions_are_the_weighted_members(data):
    X, y = data
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), GRID, cv=3)
    soft = EnsembleClassifier(search, method="greedy", n_rounds=10).fit(X, y)
    expected = sum(w * m.predict_proba(X) for w, m in zip(soft.weights_, soft.estimators_))
    np.testing.assert_allclose(soft.predict_proba(X), expected)
    assert soft.weights_.sum() == pytest.approx(1.0)
    hard = clone(soft).set_params(voting="hard").fit(X, y)
    votes = sum(w * np.eye(2)[m.predict(X)] for w, m in zip(hard.weights_, hard.estimators_))
    np.testing.assert_array_equal(hard.predict(X), np.argmax(votes, axis=1))
    reused = EnsembleClassifier.from_search(
        recording_predictions(clone(search), fold_models=True).fit(X, y), X, y,
        method="greedy", n_rounds=10, refit=False)
    expected = sum(w * np.mean([f.predict_proba(X) for f in folds], axis=0)
                   for w, folds in zip(reused.weights_, reused.estimators_))
    np.testing.assert_allclose(reused.predict_proba(X), expected)
    assert all(len(folds) == 3 for folds in reused.estimators_)


def test_clones_pickles_and_works_in_a_pipeline():
    X, y = load_breast_cancer(return_X_y=True)
    search = GridSearchCV(LogisticRegression(max_iter=500), {"C": [0.01, 1.0]}, cv=3)
    pipe = make_pipeline(StandardScaler(), EnsembleClassifier(search, method="greedy"))
    pipe.fit(X, y)
    again = pickle.loads(pickle.dumps(pipe))
    np.testing.assert_array_equal(again.predict(X), pipe.predict(X))
    unfitted = clone(pipe[-1])
    assert not hasattr(unfitted, "members_") and not hasattr(unfitted.search, "cv_results_")
    assert pipe.score(X, y) > 0.95


def test_same_random_state_same_members_whatever_n_jobs(data):
    X, y = data
    members = [EnsembleClassifier(
        KDPPSearch(DecisionTreeClassifier(random_state=0), GRID, n_iter=6, cv=3,
                   random_state=0, n_jobs=n_jobs), sample=True, random_state=0).fit(X, y)
        for n_jobs in (1, 2)]
    assert members[0].members_.tolist() == members[1].members_.tolist()
    np.testing.assert_array_equal(members[0].weights_, members[1].weights_)


# ------------------------------------------------------------------ bad input
class _FailsIfFitted(ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        raise AssertionError("trained before the input was checked")


class _RegressorFailsIfFitted(Ridge):
    def fit(self, X, y):
        raise AssertionError("trained before the input was checked")


def test_bad_input_is_refused_before_any_training(data):
    X, y = data
    regressor = GridSearchCV(_RegressorFailsIfFitted(), {"alpha": [1.0]})
    with pytest.raises(ValueError, match="ensembles classifiers.*_RegressorFailsIfFitted"):
        EnsembleClassifier(regressor).fit(X, y)
    with pytest.raises(ValueError, match="not fitted"):
        EnsembleClassifier.from_search(GridSearchCV(_FailsIfFitted(), {}), X, y)
    plain = GridSearchCV(DecisionTreeClassifier(), GRID, cv=3).fit(X, y)
    with pytest.raises(ValueError, match="kept no out-of-fold predictions.*recording_predictions"):
        EnsembleClassifier.from_search(plain, X, y)
    kept = KDPPSearch(DecisionTreeClassifier(), GRID, n_iter=2, cv=3, random_state=0,
                      keep_predictions=True).fit(X, y)
    with pytest.raises(ValueError, match="keep_fold_models=True"):
        EnsembleClassifier.from_search(kept, X, y, refit=False)
    with pytest.raises(ValueError, match="keep_fold_models=True keeps.*keep_predictions"):
        DAUBSearch([_FailsIfFitted(), _FailsIfFitted()], keep_fold_models=True).fit(X, y)
    with pytest.raises(ValueError, match="method"):
        EnsembleClassifier.from_search(kept, X, y, method="stacking")


def test_other_folds_than_the_searchs_are_refused(data):
    X, y = data
    search = recording_predictions(GridSearchCV(
        DecisionTreeClassifier(random_state=0), GRID, cv=KFold(3, shuffle=True))).fit(X, y)
    with pytest.raises(ValueError, match="same folds again"):
        EnsembleClassifier.from_search(search, X, y)


# -------------------------------------------------------------------- display
def test_display_draws_the_members_scores_weights_and_disagreements(data):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from sksel.ensemble import EnsembleDisplay

    X, y = data
    search = GridSearchCV(DecisionTreeClassifier(random_state=0), GRID, cv=3)
    ensemble = EnsembleClassifier(search, method="greedy", n_rounds=10).fit(X[:200], y[:200])
    X_test, y_test = X[200:], y[200:]
    display = EnsembleDisplay.from_estimator(ensemble, X_test, y_test)
    predicted = np.array([m.predict(X_test) for m in ensemble.estimators_])
    np.testing.assert_allclose(display.scores, (predicted == y_test).mean(axis=1))
    np.testing.assert_allclose(display.disagreement,
                               (predicted[:, None] != predicted[None]).mean(axis=2))
    np.testing.assert_allclose(display.image_.get_array(), display.disagreement)
    assert display.ensemble_score == ensemble.score(X_test, y_test)
    assert display.best_score == ensemble.search_.best_estimator_.score(X_test, y_test)
    np.testing.assert_array_equal(display.weights, ensemble.weights_)
    oof = EnsembleDisplay.from_estimator(ensemble)
    position = [list(ensemble.candidates_).index(m) for m in ensemble.members_]
    np.testing.assert_allclose(oof.scores, ensemble.candidate_scores_[position])
    assert oof.ensemble_score == ensemble.oof_score_
    assert len(oof.ax_.get_yticklabels()) == len(ensemble.members_)
    with pytest.raises(ValueError, match="both X and y"):
        EnsembleDisplay.from_estimator(ensemble, X_test)


def test_passes_scikit_learns_estimator_checks():
    from sklearn.utils.estimator_checks import check_estimator

    ensemble = EnsembleClassifier(
        GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 3]}, cv=2),
        n_rounds=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(ensemble, on_fail=None)
    failed = {r["check_name"]: str(r["exception"]) for r in results if r["status"] == "failed"}
    assert not failed


def test_a_resumed_search_keeps_the_predictions_of_an_uninterrupted_one(data, tmp_path):
    X, y = data
    learners = [GaussianNB(), DecisionTreeClassifier(random_state=0), LogisticRegression()]
    whole = DAUBSearch(learners, cv=3, random_state=0, keep_predictions=True).fit(X, y)
    folder = tmp_path / "checkpoint"
    DAUBSearch(learners, cv=3, random_state=0, keep_predictions=True,
               checkpoint=folder).fit(X, y)
    resumed = DAUBSearch(learners, cv=3, random_state=0, keep_predictions=True,
                         checkpoint=folder).fit(X, y)
    assert resumed.cv_predictions_.keys_ == whole.cv_predictions_.keys_
    for row in whole.cv_predictions_.keys_:
        np.testing.assert_array_equal(resumed.cv_predictions_.predictions(row),
                                      whole.cv_predictions_.predictions(row))


def test_randomized_search_and_mutant_ucb_give_their_candidates(data):
    from scipy.stats import loguniform
    from sklearn.linear_model import SGDClassifier
    from sklearn.model_selection import RandomizedSearchCV

    from sksel import MutantUCBSearch

    X, y = data
    randomized = RandomizedSearchCV(DecisionTreeClassifier(random_state=0), GRID, n_iter=4,
                                    cv=3, random_state=0)
    best = EnsembleClassifier(randomized, method="best").fit(X, y)
    assert best.members_.tolist() == [clone(randomized).fit(X, y).best_index_]
    mutant = MutantUCBSearch(SGDClassifier(loss="log_loss", random_state=0),
                             {"alpha": loguniform(1e-5, 1e-1)}, budget=8, max_subtrains=2,
                             cv=3, random_state=0)
    with pytest.raises(ValueError, match="refit=False"):
        EnsembleClassifier(mutant, method="greedy").fit(X, y)
    reused = EnsembleClassifier(mutant, method="greedy", refit=False).fit(X, y)
    results = reused.search_.cv_results_
    # The pool: models trained as long as the selected one, each with its fold models.
    assert set(results["n_resources"][reused.candidates_]) == {
        results["n_resources"][reused.search_.best_index_]}
    assert all(len(folds) == 3 for folds in reused.estimators_)
    # Each fold model is as its row measured it, not as later sub-trains left it.
    store = reused.search_.cv_predictions_
    for row in reused.candidates_:
        for test, model in store.fold_models(row):
            np.testing.assert_allclose(model.predict_proba(X[test]),
                                       store.predictions(row)[test], atol=1e-6)
