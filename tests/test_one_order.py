"""``cv_results_`` in one order: sorted by ``mean_test_score`` or by ``rank_test_score``.

Every search, where some candidates got less training than the selected one (a race of
the folds, a subsample, fewer sub-trains, looks on subsamples), keeps ``mean_test_*`` for
the rows evaluated as the selected one was, ranked by it; the others have NaN there and
rank last, their own means in ``mean_test_*_at_resource``, and say why in
``why_not_evaluated``.
"""

import signal
import warnings

import numpy as np
import pandas as pd
import pytest
from _common import InterruptedAtFit
from sklearn.datasets import load_iris, make_classification
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression, SGDClassifier
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from sksel import DAUBSearch, GPUCBSelector, KDPPSearch, MutantUCBSearch

CV3 = StratifiedKFold(3, shuffle=True, random_state=0)
CV5 = StratifiedKFold(5, shuffle=True, random_state=0)


def _metrics(results):
    return [key[len("rank_test_"):] for key in results if key.startswith("rank_test_")]


def assert_one_order(search):
    """Sorting ``cv_results_`` by each ``mean_test_<metric>`` (descending, NaN last) and by
    ``rank_test_<metric>`` gives one order, the selected row first; every row evaluated with
    less training than the search's full evaluation says why."""
    results = search.cv_results_
    for metric in _metrics(results):
        mean = np.asarray(results[f"mean_test_{metric}"], dtype=float)
        rank = np.asarray(results[f"rank_test_{metric}"])
        by_mean = np.argsort(np.where(np.isnan(mean), np.inf, -mean), kind="stable")
        by_rank = np.argsort(rank, kind="stable")
        np.testing.assert_array_equal(by_mean, by_rank, err_msg=metric)
        # Ties share a rank, as GridSearchCV's; so do the rows without a mean, last.
        finite = np.isfinite(mean)
        for i in range(len(mean)):
            for j in range(len(mean)):
                if finite[i] and finite[j]:
                    assert (mean[i] > mean[j]) == (rank[i] < rank[j]), metric
                    assert (mean[i] == mean[j]) == (rank[i] == rank[j]), metric
                elif finite[i]:
                    assert rank[i] < rank[j], metric
                elif not finite[j]:
                    assert rank[i] == rank[j], metric
        # The same order in pandas, whichever column the user sorts by.
        frame = pd.DataFrame(results)
        assert list(frame.sort_values(f"mean_test_{metric}", ascending=False,
                                      kind="stable").index) == list(
            frame.sort_values(f"rank_test_{metric}", kind="stable").index)
    if hasattr(search, "best_index_") and not callable(search.refit):
        metric = search.refit if isinstance(search.refit, str) else "score"
        assert results[f"rank_test_{metric}"][search.best_index_] == 1
        assert search.best_score_ == results[f"mean_test_{metric}"][search.best_index_]
    full = search._display_info().full_resource
    resources = np.asarray(results.get("n_resources_total", results["n_resources"]))
    folds = np.asarray(results["n_folds_run"])
    less = (folds < search.n_splits_) | (resources < full)
    why = np.asarray(results["why_not_evaluated"], dtype=object)
    assert all(why[less]), pd.DataFrame(results)[["candidate_name", "n_resources",
                                                  "n_folds_run", "why_not_evaluated"]]


def assert_own_means_kept(search):
    """A row without a mean keeps its own, over the folds it ran at its resource."""
    results = search.cv_results_
    for metric in _metrics(results):
        own = np.asarray(results[f"mean_test_{metric}_at_resource"], dtype=float)
        mean = np.asarray(results[f"mean_test_{metric}"], dtype=float)
        splits = np.array([results[f"split{k}_test_{metric}"] for k in range(search.n_splits_)],
                          dtype=float).T
        ran = np.asarray(results["n_folds_run"]) > 0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # the rows not evaluated
            expected = np.nanmean(np.where(ran[:, None], splits, np.nan), axis=1)
        np.testing.assert_allclose(own[ran], expected[ran])
        assert np.isnan(own[~ran]).all()
        shown = np.isfinite(mean)
        np.testing.assert_array_equal(mean[shown], own[shown])


# ------------------------------------------------------------------- DAUB


def test_daub_raced_and_subsampled_rows_sort_alike_by_mean_and_by_rank():
    """A learner raced out at N after 4 of 5 folds and one stopped at 106 rows: NaN means,
    ranked after the learner selected, their own means and why kept."""
    X, y = make_classification(n_samples=1200, n_features=20, n_informative=6,
                               random_state=0)
    cands = [DecisionTreeClassifier(max_depth=2, random_state=0), LogisticRegression(),
             DecisionTreeClassifier(max_depth=1, random_state=0)]
    search = DAUBSearch(cands, cv=CV5, b=360, r=2, cost="rows", rungs="all",
                        random_state=0).fit(X, y)
    results = search.cv_results_
    assert_one_order(search)
    assert_own_means_kept(search)
    raced = (results["n_resources"] == 960) & (results["n_folds_run"] < 5)
    small = results["n_resources"] < 960
    assert raced.any() and small.any()
    assert np.isnan(results["mean_test_score"][raced | small]).all()
    for i in np.flatnonzero(raced):
        assert results["why_not_evaluated"][i].startswith(
            f"raced out after {results['n_folds_run'][i]} of 5 folds at 960 rows: ")
    for i in np.flatnonzero(small):
        assert results["why_not_evaluated"][i].startswith(
            f"dropped at {results['n_resources'][i]} of 960 rows: ")
    assert results["why_not_evaluated"][search.best_index_] == ""


def test_daub_learning_curves_keep_every_evaluations_mean():
    """``all_cv_results_`` keeps each evaluation's mean at its size (a race's apart)."""
    X, y = load_iris(return_X_y=True)
    search = DAUBSearch([GaussianNB(), DecisionTreeClassifier(max_depth=1, random_state=0),
                         LogisticRegression(max_iter=1000)], cv=CV3, b=10, rungs="all",
                        random_state=0).fit(X, y)
    every = search.all_cv_results_
    assert set(search.cv_results_) - {"why_not_evaluated"} == set(every) - {"speculative"}
    shown = np.isfinite(every["mean_test_score"])
    assert shown.sum() > len(search.cv_results_["params"])
    np.testing.assert_array_equal(every["mean_test_score_at_resource"][shown],
                                  every["mean_test_score"][shown])
    assert_one_order(search)


def test_daub_multimetric_ranks_each_metric_in_one_order():
    X, y = make_classification(n_samples=1200, n_features=20, n_informative=6,
                               random_state=0)
    cands = [DecisionTreeClassifier(max_depth=2, random_state=0), LogisticRegression(),
             DecisionTreeClassifier(max_depth=1, random_state=0)]
    search = DAUBSearch(cands, cv=CV5, b=360, r=2, cost="rows", random_state=0,
                        scoring=["accuracy", "f1"], refit="accuracy",
                        return_train_score=True).fit(X, y)
    assert_one_order(search)
    assert_own_means_kept(search)
    results = search.cv_results_
    hidden = ~np.isfinite(results["mean_test_accuracy"]) & (results["n_folds_run"] > 0)
    assert hidden.any()
    assert np.isnan(results["mean_train_f1"][hidden]).all()
    assert np.isfinite(results["mean_train_f1_at_resource"][hidden]).all()


# ------------------------------------------------------------------ GP-UCB


def _gpucb_data():
    return make_classification(n_samples=3000, n_features=20, n_informative=6, random_state=0)


def _gpucb_learners():
    return [LogisticRegression(max_iter=1000), GaussianNB(), DecisionTreeClassifier(
        max_depth=1, random_state=0), KNeighborsClassifier(1), DecisionTreeClassifier(
        max_depth=3, random_state=0)]


def test_gpucb_candidates_dropped_after_their_looks_show_no_mean_and_say_why(monkeypatch):
    """The looks' scores (one fold of a subsample) stay in their own column."""
    monkeypatch.setattr(GPUCBSelector, "_look_cost", lambda self, n_total: None)
    X, y = _gpucb_data()
    mean = np.array([0.85, 0.70, 0.70, 0.70, 0.70])
    search = GPUCBSelector(_gpucb_learners(), prior=(mean, np.diag(np.full(5, 0.15**2))),
                           cv=CV3, random_state=0, looks=True, risk=1e-6).fit(X, y)
    results = search.cv_results_
    dropped = [i for i, c in enumerate(results["candidate_id"])
               if c in search.policy_.dropped_]
    assert dropped
    assert np.isnan(results["mean_test_score"][dropped]).all()
    assert np.isfinite(results["mean_test_score_at_resource"][dropped]).all()
    for i in dropped:
        assert results["why_not_evaluated"][i].startswith(
            "dropped after its looks on subsamples (the last on "
            f"{results['n_resources'][i]:,} of 2,000 rows): ")
    assert_one_order(search)
    assert_own_means_kept(search)


def test_gpucb_candidate_settled_by_its_looks_is_the_only_row_with_a_mean():
    """Selected from its looks, never cross-validated on all the rows: its look's score is
    the one compared, and the rows on all the rows keep theirs apart."""
    learners = [DecisionTreeClassifier(max_depth=1, random_state=0),
                DecisionTreeClassifier(max_depth=3, random_state=0), GaussianNB(),
                DummyClassifier(), LogisticRegression(max_iter=1000)]
    prior = (np.array([0.85, 0.72, 0.68, 0.6, 0.7]), np.diag(np.full(5, 0.15**2)))
    X, y = _gpucb_data()
    search = GPUCBSelector(learners, prior=prior, cv=CV3, random_state=0,
                           looks=True).fit(X, y)
    results = search.cv_results_
    best = search.best_index_
    assert results["settled_by_looks"][best]
    assert results["why_not_evaluated"][best].startswith(
        f"selected from its looks on subsamples (the last on {2000 // 3:,} of 2,000 rows)")
    assert np.isfinite(results["mean_test_score"]).sum() == 1
    assert_one_order(search)
    assert_own_means_kept(search)


def test_gpucb_first_looks_sort_alike_by_mean_and_by_rank():
    X, y = load_iris(return_X_y=True)
    search = GPUCBSelector(LogisticRegression(max_iter=1000),
                           {"C": np.logspace(-5, 2, 8).tolist()}, prior="kernel", cv=CV3,
                           tol=0.005, random_state=0).fit(X, y)
    results = search.cv_results_
    looks = results["first_look"]
    assert looks.any()
    for i in np.flatnonzero(looks):
        assert results["why_not_evaluated"][i].startswith(
            f"raced out after {results['n_folds_run'][i]} of 3 folds at ")
    assert_one_order(search)
    assert_own_means_kept(search)


# ------------------------------------------------------------- Mutant-UCB


def test_mutant_ucb_models_trained_less_show_no_mean_and_say_why():
    X, y = load_iris(return_X_y=True)
    search = MutantUCBSearch(SGDClassifier(loss="log_loss", random_state=0),
                             {"alpha": [1e-5, 1e-4, 1e-3, 1e-2, 1e-1]}, budget=20,
                             max_subtrains=5, mutation=False, cv=CV3,
                             random_state=0).fit(X, y)
    results = search.cv_results_
    less = results["n_resources_total"] < 5
    assert less.any() and (~less).any()
    assert np.isnan(results["mean_test_score"][less]).all()
    for i in np.flatnonzero(less):
        assert results["why_not_evaluated"][i].startswith(
            f"trained {results['n_resources_total'][i]} of 5 sub-trains: ")
    assert_one_order(search)
    assert_own_means_kept(search)


# ------------------------------------------------------------------ k-DPP


def test_kdpp_rows_sort_alike_by_mean_and_by_rank():
    X, y = load_iris(return_X_y=True)
    search = KDPPSearch(DecisionTreeClassifier(random_state=0),
                        {"max_depth": [1, 2, 3, 4, 5], "min_samples_leaf": [1, 5, 20]},
                        n_iter=6, cv=CV3, random_state=0).fit(X, y)
    assert_one_order(search)
    assert_own_means_kept(search)


@pytest.mark.filterwarnings("ignore:DAUBSearch. a Ctrl-C ended the search")
@pytest.mark.filterwarnings("ignore:DAUBSearch interrupted. keeping")
def test_a_search_cut_short_compares_the_rows_at_its_selection():
    """A Ctrl-C ends DAUB before N: the rows at another size than the selected one's have no
    mean, and say that the search ended."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        X, y = make_classification(n_samples=1200, n_features=20, n_informative=6,
                                   random_state=0)
        InterruptedAtFit.n_fits = 0
        # The last learner's third fit (at 240 rows, the others done there) is cut short.
        cands = [DecisionTreeClassifier(max_depth=2, random_state=0), LogisticRegression(),
                 InterruptedAtFit(at=0), InterruptedAtFit(at=6, var_smoothing=1e-3)]
        search = DAUBSearch(cands, cv=CV5, b=60, r=2, cost="rows", random_state=0,
                            risk=0).fit(X, y)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert search.stop_reason_ == "interrupted"
    results = search.cv_results_
    assert_one_order(search)
    assert_own_means_kept(search)
    assert list(results["n_resources"]) == [240, 240, 240, 120]
    assert np.isfinite(results["mean_test_score"][:3]).all()
    assert np.isnan(results["mean_test_score"][3]) and results["rank_test_score"][3] == 4
    assert list(results["why_not_evaluated"]) == [
        f"stopped at {n} of 960 rows: a Ctrl-C then ended the search"
        for n in (240, 240, 240, 120)]
