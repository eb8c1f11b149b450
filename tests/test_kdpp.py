"""KDPPSampler and KDPPSearch: the law of the draws, sklearn compatibility, errors."""

from collections import Counter
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from _common import CountingClassifier
from scipy import stats
from sklearn.base import clone
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from sksel import DAUBSearch, KDPPSampler, KDPPSearch
from sksel.kernels import arc_kernel, default_bandwidth, rbf_kernel
from sksel.space import SearchSpace

CV3 = StratifiedKFold(3, shuffle=True, random_state=0)


# ----------------------------------------------------------- the law of draws


def _kdpp_law(L, k):
    """Brute force: probability of every k-subset, det(L_A) / sum of them."""
    subsets = list(combinations(range(len(L)), k))
    dets = np.array([np.linalg.det(L[np.ix_(A, A)]) for A in subsets])
    return subsets, dets / dets.sum()


@pytest.mark.parametrize("kernel", ["rbf", "arc"])
def test_exact_sampler_draws_the_kdpp_of_the_featurized_grid(kernel):
    # A tree-structured finite space of 6 configurations, k = 2: 15 subsets.
    space = [{"model": ["a"], "C": [0.1, 1.0, 10.0]}, {"model": ["b"], "depth": [1, 2, 3]}]
    featurized = SearchSpace(param_distributions=space)
    grid = featurized.candidates
    F, active = featurized.featurize(grid)
    sigma = default_bandwidth(2, F.shape[1])
    L = (rbf_kernel(F, bandwidth=sigma) if kernel == "rbf"
         else arc_kernel(F, active, groups=featurized.feature_params_, bandwidth=sigma))
    subsets, law = _kdpp_law(L, 2)

    rng = np.random.RandomState(0)
    n_draws = 4000
    counts = Counter()
    for _ in range(n_draws):
        drawn = KDPPSampler(space, 2, kernel=kernel, random_state=rng).sample()
        counts[tuple(sorted(grid.index(p) for p in drawn))] += 1
    observed = [counts[A] for A in subsets]
    assert sum(observed) == n_draws
    assert stats.chisquare(observed, law * n_draws).pvalue > 0.01


def test_kdpp_spreads_more_than_independent_draws():
    # 1-D, k = 10: the k-DPP's smallest gap is far larger than independent draws'.
    def min_gap(values):
        return np.min(np.diff(np.sort(np.log10(values))))

    space = {"C": stats.loguniform(1e-3, 1e3)}
    dpp = [min_gap([p["C"] for p in KDPPSampler(space, 10, random_state=s)])
           for s in range(30)]
    uniform = [min_gap(stats.loguniform(1e-3, 1e3).rvs(10, random_state=s)) for s in range(30)]
    # Independent uniform draws: E[min gap] = 6 / (k^2 - 1) decades = 0.06.
    assert np.mean(uniform) == pytest.approx(6 / 99, rel=0.35)
    assert np.mean(dpp) > 3 * np.mean(uniform)


@pytest.mark.parametrize("sampler", ["exact", "mcmc", "sequential"])
def test_every_sampler_gives_distinct_valid_configurations(sampler):
    space = [
        {"clf": ["svc"], "C": stats.loguniform(1e-2, 1e2), "kernel": ["rbf", "linear"]},
        {"clf": ["tree"], "max_depth": stats.randint(1, 10)},
    ]
    drawn = KDPPSampler(space, 12, sampler=sampler, mcmc_steps=3000, random_state=0).sample()
    assert len(drawn) == 12
    # Raises on a configuration outside the space.
    F, _ = SearchSpace(param_distributions=space).featurize(drawn)
    assert len({tuple(row) for row in F}) == 12
    # Both branches are represented: a diverse draw does not pick 12 of one model.
    assert {p["clf"] for p in drawn} == {"svc", "tree"}


def test_sampler_is_reproducible_and_iterable():
    space = {"C": stats.loguniform(1e-3, 1e3), "penalty": ["l1", "l2"]}
    first = list(KDPPSampler(space, 5, random_state=3))
    again = KDPPSampler(space, 5, random_state=3)
    assert first == list(again) == again.sample()
    assert len(again) == 5


def test_as_grid_gives_the_same_candidates_to_grid_searches():
    X, y = load_iris(return_X_y=True)
    sampler = KDPPSampler({"C": stats.loguniform(1e-3, 1e2)}, 4, random_state=0)
    grid = sampler.as_grid()
    gs = GridSearchCV(LogisticRegression(max_iter=500), grid, cv=CV3).fit(X, y)
    assert sorted(p["C"] for p in gs.cv_results_["params"]) == sorted(
        p["C"] for p in sampler.sample())
    daub = DAUBSearch(LogisticRegression(max_iter=500), grid, cv=CV3, random_state=0).fit(X, y)
    assert len(daub.cv_results_["params"]) == 4


# --------------------------------------------------------- the search estimator


def test_scores_equal_grid_search_on_the_same_configurations():
    X, y = load_iris(return_X_y=True)
    space = {"C": stats.loguniform(1e-3, 1e2), "gamma": stats.loguniform(1e-3, 1e1)}
    search = KDPPSearch(SVC(), space, n_iter=6, cv=CV3, random_state=0).fit(X, y)
    drawn = KDPPSampler(space, 6, random_state=0).sample()
    gs = GridSearchCV(SVC(), [{k: [v] for k, v in p.items()} for p in drawn], cv=CV3).fit(X, y)
    assert search.cv_results_["params"] == gs.cv_results_["params"]
    for key in ("mean_test_score", "std_test_score", "rank_test_score"):
        np.testing.assert_allclose(search.cv_results_[key], gs.cv_results_[key], err_msg=key)
    assert set(search.cv_results_) == set(gs.cv_results_) | {
        "candidate_id", "candidate_name", "n_resources", "iter", "n_folds_run"}
    assert search.best_params_ == gs.best_params_
    assert pd.DataFrame(search.cv_results_).shape[0] == 6


def test_pipeline_step_choice_tree_space():
    X, y = load_iris(return_X_y=True)
    pipe = Pipeline([("scale", StandardScaler()), ("clf", LogisticRegression())])
    space = [
        {"clf": [LogisticRegression(max_iter=500)], "clf__C": stats.loguniform(1e-3, 1e2)},
        {"clf": [SVC()], "clf__C": stats.loguniform(1e-2, 1e2),
         "clf__kernel": ["rbf", "linear"]},
        {"clf": [DecisionTreeClassifier(random_state=0)], "clf__max_depth": [1, 2, 3, 5]},
    ]
    search = KDPPSearch(pipe, space, n_iter=9, cv=CV3, random_state=0).fit(X, y)
    models = Counter(type(p["clf"]).__name__ for p in search.cv_results_["params"])
    assert set(models) == {"LogisticRegression", "SVC", "DecisionTreeClassifier"}
    assert search.best_score_ == pytest.approx(np.max(search.cv_results_["mean_test_score"]))
    # Inside a Pipeline, and cloned.
    outer = make_pipeline(StandardScaler(), clone(search)).fit(X, y)
    assert outer.score(X, y) > 0.9


def test_sampler_refuses_more_draws_than_a_finite_grid_holds():
    # The search evaluates the whole grid instead, with a warning (below).
    with pytest.raises(ValueError, match="n_iter=5 is larger than the 3 configurations"):
        KDPPSampler({"C": [1, 2, 3]}, n_iter=5)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(bandwidth=0.0), "'bandwidth' parameter"),
        (dict(bandwidth=-1.0), "'bandwidth' parameter"),
        (dict(n_iter=0), "'n_iter' parameter"),
        (dict(sampler="greedy"), "'sampler' parameter"),
        (dict(kernel="linear"), "'kernel' parameter"),
    ],
)
def test_bad_parameters_fail_before_any_fit(kwargs, match):
    X, y = load_iris(return_X_y=True)
    CountingClassifier.n_fits = 0
    with pytest.raises(ValueError, match=match):
        KDPPSearch(CountingClassifier(), {"C": stats.uniform(0, 1)}, **kwargs).fit(X, y)
    assert CountingClassifier.n_fits == 0


class _NoCdf:
    """A distribution with an rvs but neither a finite support nor a cdf."""

    def rvs(self, size=None, random_state=None):
        return np.zeros(size)


def test_distribution_that_cannot_be_featurized_fails_before_any_fit():
    X, y = load_iris(return_X_y=True)
    CountingClassifier.n_fits = 0
    with pytest.raises(ValueError, match="'C'"):
        KDPPSearch(CountingClassifier(), {"C": _NoCdf()}, n_iter=2).fit(X, y)
    assert CountingClassifier.n_fits == 0


def test_n_iter_above_a_finite_space_warns_and_evaluates_it_all_as_randomized_search():
    from sklearn.model_selection import RandomizedSearchCV

    X, y = load_iris(return_X_y=True)
    space = {"C": [0.1, 1.0, 10.0]}
    with pytest.warns(UserWarning, match="smaller than n_iter=5") as ours:
        search = KDPPSearch(LogisticRegression(max_iter=500), space, n_iter=5, cv=3,
                            random_state=0).fit(X, y)
    with pytest.warns(UserWarning, match="smaller than n_iter=5") as theirs:
        random = RandomizedSearchCV(LogisticRegression(max_iter=500), space, n_iter=5, cv=3,
                                    random_state=0).fit(X, y)
    assert str(ours[0].message) == str(theirs[0].message)
    assert search.cv_results_["params"] == random.cv_results_["params"]
    np.testing.assert_allclose(search.cv_results_["mean_test_score"],
                               random.cv_results_["mean_test_score"])


def test_evaluate_all_hands_out_every_candidate_as_sure():
    from sksel.kdpp import EvaluateAll

    policy = EvaluateAll(4, "all")
    # Every candidate is evaluated, whatever the scores: none is speculative.
    assert policy.ask(10, speculative=False) == [(k, "all") for k in range(4)]
