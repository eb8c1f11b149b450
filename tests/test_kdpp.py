"""KDPPSampler and KDPPSearch: the law of the draws, sklearn compatibility, errors."""

from collections import Counter
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from _common import CountingClassifier
from scipy import stats
from scipy.spatial.distance import pdist
from sklearn.base import clone
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from sksel import DAUBSearch, KDPPSampler, KDPPSearch
from sksel.spaces import SearchSpace, arc_kernel, default_bandwidth, rbf_kernel

CV3 = StratifiedKFold(3, shuffle=True, random_state=0)


# ----------------------------------------------------------- the law of draws


def _kdpp_law(L, k):
    """Brute force: probability of every k-subset, det(L_A) / sum of them."""
    subsets = list(combinations(range(len(L)), k))
    dets = np.array([np.linalg.det(L[np.ix_(A, A)]) for A in subsets])
    return subsets, dets / dets.sum()


def _grid_kdpp_law(space, k, kernel):
    """The configurations of a one-branch finite space and the k-DPP law of its subsets."""
    featurized = SearchSpace(param_distributions=space)
    grid = featurized.candidates
    F, active = featurized.featurize(grid)
    sigma = default_bandwidth(k, F.shape[1])
    L = (rbf_kernel(F, bandwidth=sigma) if kernel == "rbf"
         else arc_kernel(F, active, groups=featurized.feature_params_, bandwidth=sigma))
    subsets, law = _kdpp_law(L, k)
    return grid, {A: p for A, p in zip(subsets, law)}


def _observed_law(space, k, kernel, n_draws, index):
    rng = np.random.RandomState(0)
    counts = Counter()
    for _ in range(n_draws):
        drawn = KDPPSampler(space, k, kernel=kernel, random_state=rng).sample()
        counts[tuple(sorted(index(p) for p in drawn))] += 1
    return counts


@pytest.mark.parametrize("kernel", ["rbf", "arc"])
def test_exact_sampler_draws_the_kdpp_of_the_featurized_grid(kernel):
    # A finite space of 6 configurations, k = 2: 15 subsets.
    space = {"C": [0.1, 1.0, 10.0], "kernel": ["rbf", "linear"]}
    grid, law = _grid_kdpp_law(space, 2, kernel)
    n_draws = 3000
    counts = _observed_law(space, 2, kernel, n_draws, grid.index)
    assert sum(counts.values()) == n_draws
    assert stats.chisquare([counts[A] for A in law],
                           np.array(list(law.values())) * n_draws).pvalue > 0.01


@pytest.mark.parametrize("kernel", ["rbf", "arc"])
def test_tree_space_draws_even_branch_counts_then_a_kdpp_within_each_branch(kernel):
    # k = 3 over two branches: 2 + 1 or 1 + 2, each with probability 1/2; a
    # branch's draws are the k_b-DPP of its own varying parameters (the
    # 1-DPP of a kernel with a constant diagonal is uniform).
    space = [{"model": ["a"], "C": [0.1, 1.0, 10.0, 100.0]},
             {"model": ["b"], "depth": [1, 2, 3]}]
    own = [{"C": [0.1, 1.0, 10.0, 100.0]}, {"depth": [1, 2, 3]}]
    law = {}
    for b, k_b in ((0, 2), (1, 2)):
        grid_b, pairs = _grid_kdpp_law(own[b], k_b, kernel)
        n_other = len(SearchSpace(param_distributions=own[1 - b]).candidates)
        for A, p in pairs.items():
            for j in range(n_other):
                law[(b, A, j)] = 0.5 * p / n_other

    def index(params):
        b = 0 if params["model"] == "a" else 1
        name = next(iter(own[b]))
        return b, own[b][name].index(params[name])

    rng = np.random.RandomState(0)
    n_draws = 1500
    counts = Counter()
    for _ in range(n_draws):
        drawn = sorted(index(p) for p in KDPPSampler(space, 3, kernel=kernel,
                                                     random_state=rng).sample())
        pair_branch = 0 if sum(b == 0 for b, _ in drawn) == 2 else 1
        pair = tuple(i for b, i in drawn if b == pair_branch)
        single = next(i for b, i in drawn if b != pair_branch)
        counts[(pair_branch, pair, single)] += 1
    assert set(counts) <= set(law)
    assert stats.chisquare([counts[key] for key in law],
                           np.array(list(law.values())) * n_draws).pvalue > 0.01


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


# Two branches of 1 and 4 parameters: a joint k-DPP over both gives most
# draws to the branch of 4, which spans more volume.
UNEVEN_BRANCHES = [
    {"model": ["small"], "a": stats.loguniform(1e-3, 1e3)},
    {"model": ["big"], "b": stats.uniform(0, 1), "c": stats.uniform(0, 1),
     "d": stats.loguniform(1e-2, 1e2), "e": stats.randint(1, 50)},
]


def _n_big(drawn):
    return sum(p["model"] == "big" for p in drawn)


def test_branches_get_the_draws_random_search_gives_them_in_expectation():
    # Random search picks a branch uniformly per draw: 3.5 of 7 on average.
    # The k-DPP gives 3 or 4 to each branch, the extra one to either branch
    # with probability 1/2: Binomial(100, 1/2) is in [30, 70] but for 8e-5.
    n_big = [_n_big(KDPPSampler(UNEVEN_BRANCHES, 7, pool_size=40, random_state=seed))
             for seed in range(100)]
    assert set(n_big) == {3, 4}
    assert 30 <= n_big.count(4) <= 70


def test_draws_within_a_branch_stay_diverse():
    # 6 draws in each branch: those of the branch of 4 parameters are farther
    # apart than 6 independent draws of that branch.
    space = SearchSpace(param_distributions=UNEVEN_BRANCHES)
    big = SearchSpace(param_distributions=UNEVEN_BRANCHES[1])

    def smallest_gap(drawn):
        F, _ = space.featurize([p for p in drawn if p["model"] == "big"])
        return pdist(F).min()

    dpp = [smallest_gap(KDPPSampler(UNEVEN_BRANCHES, 12, random_state=seed).sample())
           for seed in range(20)]
    uniform = [smallest_gap(big.sample(6, random_state=seed)) for seed in range(20)]
    assert [_n_big(KDPPSampler(UNEVEN_BRANCHES, 12, random_state=seed).sample())
            for seed in range(3)] == [6, 6, 6]
    assert np.mean(dpp) > 1.25 * np.mean(uniform)


def test_a_branch_with_fewer_configurations_than_its_share_gives_them_all():
    space = [{"clf": ["nb"]}, {"clf": ["tree"], "depth": [1, 2]},
             {"clf": ["svc"], "C": stats.loguniform(1e-2, 1e2)}]
    drawn = KDPPSampler(space, 9, random_state=0).sample()
    assert Counter(p["clf"] for p in drawn) == {"nb": 1, "tree": 2, "svc": 6}
    assert len({tuple(sorted(p.items())) for p in drawn}) == 9
    # A finite space drawn whole.
    finite = [{"clf": ["nb"]}, {"clf": ["tree"], "depth": [1, 2, 3]}]
    assert sorted(map(str, KDPPSampler(finite, 4, random_state=0).sample())) == sorted(
        map(str, SearchSpace(param_distributions=finite).candidates))


def test_branches_come_in_turn():
    # The first configurations evaluated (by a search cut short) cover every branch.
    space = [{"m": ["a"], "x": stats.uniform(0, 1)}, {"m": ["b"], "y": stats.uniform(0, 1)},
             {"m": ["c"], "z": stats.uniform(0, 1), "w": stats.uniform(0, 1)}]
    drawn = KDPPSampler(space, 8, random_state=0).sample()
    assert sorted(p["m"] for p in drawn[:3]) == ["a", "b", "c"]
    assert sorted(p["m"] for p in drawn[3:6]) == ["a", "b", "c"]


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
        "candidate_id", "candidate_name", "n_resources", "iter", "n_folds_run",
        "why_not_evaluated", "mean_test_score_at_resource", "std_test_score_at_resource"}
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


def test_same_random_state_gives_the_same_draws_whatever_n_jobs():
    X, y = load_iris(return_X_y=True)
    space = [{"C": stats.loguniform(1e-3, 1e2), "kernel": ["linear"]},
             {"C": stats.loguniform(1e-3, 1e2), "gamma": stats.loguniform(1e-3, 1e1),
              "kernel": ["rbf"]}]
    params = [KDPPSearch(SVC(), space, n_iter=6, cv=2, n_jobs=n_jobs, random_state=0)
              .fit(X, y).cv_results_["params"] for n_jobs in (1, 2)]
    assert params[0] == params[1] == KDPPSampler(space, 6, random_state=0).sample()


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
