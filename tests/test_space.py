"""SearchSpace: what a search can try, enumerated, sampled, mutated, featurized, built."""

from collections import Counter

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats
from scipy.stats import loguniform, norm, poisson, randint, uniform
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import ParameterGrid
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from sksel.spaces import SearchSpace


def _same_estimator(a, b):
    """Same class and same parameters (compared by their repr for nested estimators)."""
    return type(a) is type(b) and repr(a.get_params(deep=True)) == repr(b.get_params(deep=True))


# ------------------------------------------------ candidates, from what users write


@pytest.mark.parametrize(
    "grid",
    [
        {"C": [0.1, 1.0, 10.0], "penalty": ["l2", None]},
        [{"C": [0.1, 1.0]}, {"penalty": [None], "max_iter": [50, 100]}],
        {},
    ],
)
def test_estimator_and_grid_is_parameter_grid(grid):
    base = LogisticRegression(max_iter=123)
    space = SearchSpace(base, grid)
    assert space.candidates == list(ParameterGrid(grid))
    assert space.first_estimator is base
    for params in space.candidates:
        built = space.build(params)
        assert built is not base
        assert _same_estimator(built, clone(base).set_params(**params))
    assert base.get_params()["max_iter"] == 123 and base.C == 1.0  # base untouched


def test_list_of_estimators():
    ests = [GaussianNB(), LogisticRegression(C=0.5), DecisionTreeClassifier(max_depth=3)]
    space = SearchSpace(ests)
    assert space.candidates == [{"estimator": e} for e in ests]
    assert space.first_estimator is ests[0]
    for est, params in zip(ests, space.candidates):
        built = space.build(params)
        assert built is not est and _same_estimator(built, est)


def test_list_of_pairs_and_mixed():
    tree = DecisionTreeClassifier(random_state=0)
    svc = SVC()
    space = SearchSpace([
        GaussianNB(),
        (tree, {"max_depth": [2, 4], "criterion": ["gini", "entropy"]}),
        (svc, [{"kernel": ["linear"]}, {"kernel": ["rbf"], "C": [1.0, 10.0]}]),
    ])
    assert len(space.candidates) == 1 + 4 + 3
    tree_rows = space.candidates[1:5]
    assert [
        {k[len("estimator__"):]: v for k, v in row.items() if k != "estimator"}
        for row in tree_rows
    ] == list(ParameterGrid({"max_depth": [2, 4], "criterion": ["gini", "entropy"]}))
    assert all(row["estimator"] is tree for row in tree_rows)
    built = [space.build(row) for row in space.candidates]
    assert isinstance(built[0], GaussianNB)
    assert [(b.criterion, b.max_depth) for b in built[1:5]] == [
        ("gini", 2), ("gini", 4), ("entropy", 2), ("entropy", 4)
    ]
    assert all(b.random_state == 0 for b in built[1:5])
    assert [(b.kernel, b.C) for b in built[5:]] == [("linear", 1.0), ("rbf", 1.0), ("rbf", 10.0)]
    # Building does not touch the user's estimators.
    assert tree.max_depth is None and svc.kernel == "rbf" and svc.C == 1.0


def test_pipeline_step_choices():
    pipe = Pipeline([("scale", StandardScaler()), ("clf", LogisticRegression())])
    grid = {"clf": [LogisticRegression(), SVC()], "clf__C": [0.1, 10.0]}
    space = SearchSpace(pipe, grid)
    assert space.candidates == list(ParameterGrid(grid))
    built = [space.build(p) for p in space.candidates]
    got = [(type(b.named_steps["clf"]).__name__, b.named_steps["clf"].C) for b in built]
    assert got == [("LogisticRegression", 0.1), ("LogisticRegression", 10.0),
                   ("SVC", 0.1), ("SVC", 10.0)]
    for params, b in zip(space.candidates, built):
        assert isinstance(b.named_steps["scale"], StandardScaler)
        # Each build is a fresh clone: the grid's step objects are not reused or changed.
        assert b.named_steps["clf"] is not params["clf"]
        assert params["clf"].C == 1.0
    assert pipe.named_steps["clf"].C == 1.0


@pytest.mark.parametrize("estimator,param_grid", [([], None), (LogisticRegression(), [])])
def test_empty_space_raises(estimator, param_grid):
    with pytest.raises(ValueError, match="estimator"):
        SearchSpace(estimator, param_grid)


@pytest.mark.parametrize(
    "items,bad",
    [
        ([LogisticRegression(), "svc"], 1),
        ([LogisticRegression(), GaussianNB(), 3], 2),
        ([(LogisticRegression(), {"C": [1.0]}), (None, {})], 1),
    ],
)
def test_non_estimator_item_names_its_position(items, bad):
    with pytest.raises(TypeError, match=rf"estimator\[{bad}\]"):
        SearchSpace(items)


@pytest.mark.parametrize("item", [(LogisticRegression(),), (LogisticRegression(), 3)])
def test_malformed_pair_names_its_position(item):
    with pytest.raises(ValueError, match=r"estimator\[1\]"):
        SearchSpace([GaussianNB(), item])


def test_non_estimator_single():
    with pytest.raises(TypeError, match="estimator"):
        SearchSpace("logistic", {"C": [1.0]})


def test_param_grid_with_list_estimator_raises():
    with pytest.raises(ValueError, match="param_grid"):
        SearchSpace([LogisticRegression(), SVC()], {"C": [1.0]})
    with pytest.raises(ValueError, match="param_distributions must be None"):
        SearchSpace([LogisticRegression(), SVC()], param_distributions={"C": [1.0]})


def test_param_grid_or_param_distributions_not_both():
    with pytest.raises(ValueError, match="param_grid or param_distributions"):
        SearchSpace(SVC(), {"C": [1.0]}, param_distributions={"C": [1.0]})


@pytest.mark.parametrize(
    "estimator, param_grid, match",
    [
        (SVC(), {"C": loguniform(1e-2, 1e2)}, "'C' of param_grid must be a list of values;"),
        ([GaussianNB(), (SVC(), {"C": [1.0], "gamma": 0.1})], None,
         r"'gamma' of estimator\[1\]\[1\] must be a list"),
        ([(SVC(), [{"C": [1.0]}, {"C": []}])], None,
         r"'C' of estimator\[0\]\[1\]\[1\] is an empty list"),
    ],
)
def test_grid_values_are_lists_named_where_they_are(estimator, param_grid, match):
    with pytest.raises(ValueError, match=match):
        SearchSpace(estimator, param_grid)


def test_list_of_estimators_is_a_tree_of_estimator_branches():
    gnb, tree, svc = GaussianNB(), DecisionTreeClassifier(), SVC()
    space = SearchSpace([
        gnb, (tree, {"max_depth": [2, 4]}),
        (svc, [{"kernel": ["linear"]}, {"kernel": ["rbf"], "C": [1.0, 10.0]}]),
    ])
    tree_space = SearchSpace(param_grid=[
        {"estimator": [gnb]},
        {"estimator": [tree], "estimator__max_depth": [2, 4]},
        {"estimator": [svc], "estimator__kernel": ["linear"]},
        {"estimator": [svc], "estimator__kernel": ["rbf"], "estimator__C": [1.0, 10.0]},
    ])
    assert space.candidates == tree_space.candidates
    assert space.feature_names_.tolist() == tree_space.feature_names_.tolist() == [
        "estimator=0", "estimator=1", "estimator=2", "estimator__max_depth>=2",
        "estimator__max_depth>=4", "estimator__kernel=linear", "estimator__kernel=rbf",
        "estimator__C>=1.0", "estimator__C>=10.0",
    ]
    F, active = space.featurize(space.candidates)
    assert_array_equal(F[:, :3], [[1, 0, 0]] + [[0, 1, 0]] * 2 + [[0, 0, 1]] * 3)
    assert_array_equal(active[0], [1, 1, 1, 0, 0, 0, 0, 0, 0])
    # Samples and mutants are candidates of the space, and build as candidates do.
    rng = np.random.RandomState(0)
    samples = space.sample(50, random_state=rng)
    mutants = [space.mutate(params, rng) for params in samples]
    assert all(params in space.candidates for params in samples + mutants)
    assert {type(space.build(params)) for params in samples} == {GaussianNB,
                                                                 DecisionTreeClassifier, SVC}


def test_estimator_with_distributions_samples_mutates_and_builds():
    svc = SVC()
    space = SearchSpace(svc, param_distributions={"C": loguniform(1e-2, 1e2),
                                                  "kernel": ["rbf", "linear"]})
    assert space.first_estimator is svc and not space.is_finite
    with pytest.raises(ValueError, match="'C' is a distribution"):
        space.candidates
    params = space.sample(1, random_state=0)[0]
    mutant = space.mutate(params, random_state=0)
    for config in (params, mutant):
        built = space.build(config)
        assert built is not svc and (built.C, built.kernel) == (config["C"], config["kernel"])
    assert svc.C == 1.0


def test_values_without_a_truth_valued_equality_match_by_identity():
    priors = [None, np.array([0.3, 0.7]), np.array([0.5, 0.5]), np.array([0.2, 0.3, 0.5])]
    space = SearchSpace(GaussianNB(), {"priors": priors})
    assert space.feature_names_.shape == (4,)
    F, _ = space.featurize(space.candidates)
    assert_array_equal(F, np.eye(4))
    assert space.build(space.candidates[1]).priors is not priors[1]


# ---------------------------------------------------------------- features


def _features(space, name, values):
    """Features of one-parameter configurations ``{name: v}``."""
    F, active = space.featurize([{name: v} for v in values])
    assert active.all()
    return F


def test_loguniform_on_log_axis():
    space = SearchSpace(param_distributions={"C": loguniform(1e-4, 1e1)})
    assert space.feature_names_.tolist() == ["C"]
    F = _features(space, "C", [1e-4, 1e-1, 1e-2, 1e1, 1e3, 1e-6])
    # log10 positions -4, -1, -2, 1 on [-4, 1]; out-of-support values are clipped.
    assert_allclose(F[:, 0], [0.0, 0.6, 0.4, 1.0, 1.0, 0.0])


def test_loguniform_is_log_even_on_a_narrow_range():
    F = _features(SearchSpace(param_distributions={"x": loguniform(1, 4)}), "x", [2.0])
    assert_allclose(F, [[0.5]])


def test_uniform_is_linear():
    space = SearchSpace(param_distributions={"alpha": uniform(2, 4)})  # support [2, 6]
    F = _features(space, "alpha", [2.0, 3.0, 5.5, 6.0])
    assert_allclose(F[:, 0], [0.0, 0.25, 0.875, 1.0])


def test_wide_uniform_stays_linear():
    # Sampled on a linear axis, featurized on it: uniform samples, uniform features.
    space = SearchSpace(param_distributions={"tol": uniform(1e-3, 10.0)})
    F = _features(space, "tol", [5.0 + 1e-3])
    assert_allclose(F, [[0.5]])


def test_randint_scaled_like_numbers():
    space = SearchSpace(param_distributions={"max_depth": randint(1, 11)})  # support {1, ..., 10}
    F = _features(space, "max_depth", [1, 4, np.int64(10)])
    assert_allclose(F[:, 0], [0.0, 3 / 9, 1.0])


@pytest.mark.parametrize(
    "dist, values",
    [(norm(2.0, 3.0), [2.0, 2.0 + 1.96 * 3.0, -100.0]), (poisson(3), [0, 3, 20])],
)
def test_unbounded_through_cdf(dist, values):
    F = _features(SearchSpace(param_distributions={"x": dist}), "x", values)
    assert_allclose(F[:, 0], dist.cdf(values))
    if dist.dist.name == "norm":
        assert_allclose(F[:2, 0], [0.5, 0.975], atol=1e-4)


def test_unordered_list_one_hot():
    space = SearchSpace(param_distributions={"kernel": ["linear", "rbf", "poly"]})
    assert space.feature_names_.tolist() == ["kernel=linear", "kernel=rbf", "kernel=poly"]
    F = _features(space, "kernel", ["rbf", "poly", "linear"])
    assert_array_equal(F, [[0, 1, 0], [0, 0, 1], [1, 0, 0]])


def test_bools_none_and_mixed_are_categorical():
    space = SearchSpace(param_distributions={"a": [True, False], "b": [None, 1, "x"]})
    assert space.feature_names_.tolist() == ["a=True", "a=False", "b=None", "b=1", "b=x"]
    F, _ = space.featurize([{"a": False, "b": 1}, {"a": True, "b": None}])
    assert_array_equal(F, [[0, 1, 0, 1, 0], [1, 0, 1, 0, 0]])
    with pytest.raises(ValueError, match=r"a=1 is not one of \[True, False\]"):
        space.featurize([{"a": 1, "b": None}])  # 1 is not True


def test_ordered_numeric_list_unary():
    space = SearchSpace(param_distributions={"n": [10, 1, 100, 10]})
    assert space.feature_names_.tolist() == ["n>=1", "n>=10", "n>=100"]
    F = _features(space, "n", [1, 10, 100, 10.0])
    assert_array_equal(F, [[1, 0, 0], [1, 1, 0], [1, 1, 1], [1, 1, 0]])
    # Unary: neighbours in the order are closer than the extremes.
    assert np.linalg.norm(F[0] - F[1]) < np.linalg.norm(F[0] - F[2])


def _svc_tree():
    return [
        {"kernel": ["linear"], "C": loguniform(1e-2, 1e2)},
        {"kernel": ["rbf"], "C": loguniform(1e-2, 1e2), "gamma": loguniform(1e-3, 1e1)},
    ]


def test_tree_inactive_parameter_is_zero_and_ignored():
    space = SearchSpace(param_distributions=_svc_tree())
    assert space.feature_names_.tolist() == ["C", "kernel=linear", "kernel=rbf", "gamma"]
    gamma = space.feature_names_ == "gamma"
    configs = [
        {"kernel": "linear", "C": 1.0},
        {"kernel": "linear", "C": 1.0, "gamma": 0.1},
        {"kernel": "linear", "C": 1.0, "gamma": 10.0},
    ]
    F, active = space.featurize(configs)
    assert_array_equal(F[0], F[1])
    assert_array_equal(F[1], F[2])
    assert_array_equal(active[0], active[2])
    assert_array_equal(F[:, gamma], 0.0)
    assert not active[:, gamma].any() and active[:, ~gamma].all()

    F, active = space.featurize([{"kernel": "rbf", "C": 1.0, "gamma": 0.1}])
    assert_allclose(F, [[0.5, 0.0, 1.0, 0.5]])
    assert active.all()


def test_tree_shares_columns_only_for_the_same_values():
    space = SearchSpace(param_distributions=[
        {"C": loguniform(1e-2, 1e2), "degree": [2, 3]},
        {"C": loguniform(1e-2, 1e2), "degree": [2, 3, 4]},
        {"C": uniform(0, 1)},
    ])
    assert space.feature_names_.tolist() == [
        "C[0]", "degree[0]>=2", "degree[0]>=3", "degree[1]>=2", "degree[1]>=3",
        "degree[1]>=4", "C[2]",
    ]
    assert space.feature_params_.tolist() == ["C[0]"] + ["degree[0]"] * 2 + [
        "degree[1]"] * 3 + ["C[2]"]
    F, active = space.featurize([
        {"C": 1.0, "degree": 3}, {"C": 1.0, "degree": 4}, {"C": 0.25},
    ])
    assert_allclose(F, [
        [0.5, 1, 1, 0, 0, 0, 0],
        [0.5, 0, 0, 1, 1, 1, 0],
        [0.0, 0, 0, 0, 0, 0, 0.25],
    ])
    assert_array_equal(active, [
        [1, 1, 1, 0, 0, 0, 0], [1, 0, 0, 1, 1, 1, 0], [0, 0, 0, 0, 0, 0, 1]])


def test_most_specific_branch_wins():
    space = SearchSpace(param_distributions=[{"a": [1, 2]}, {"a": [1, 2], "b": ["x"]}])
    _, active = space.featurize([{"a": 1}, {"a": 1, "b": "x"}])
    assert_array_equal(active, [[1, 1, 0], [1, 1, 1]])


def test_pipeline_step_choices_one_hot_by_position():
    lr, svc, lr2 = LogisticRegression(), SVC(), LogisticRegression()
    space = SearchSpace(param_distributions={"clf": [lr, svc, lr2],
                                             "clf__C": loguniform(1e-2, 1e2)})
    assert space.feature_names_.tolist() == ["clf=0", "clf=1", "clf=2", "clf__C"]
    F, _ = space.featurize([{"clf": c, "clf__C": 1.0} for c in (lr2, svc, lr)])
    assert_allclose(F, [[0, 0, 1, 0.5], [0, 1, 0, 0.5], [1, 0, 0, 0.5]])
    with pytest.raises(ValueError, match=r"clf=SVC\(\) is not one of"):
        space.featurize([{"clf": clone(svc), "clf__C": 1.0}])


def test_one_dict_per_model_makes_one_categorical():
    lr, svc, tree = LogisticRegression(), SVC(), DecisionTreeClassifier()
    space = SearchSpace(param_distributions=[
        {"clf": [lr], "clf__C": loguniform(1e-2, 1e2)},
        {"clf": [svc], "clf__C": loguniform(1e-2, 1e2), "clf__gamma": [0.1, 1.0]},
        {"clf": [tree, lr]},
    ])
    assert space.feature_names_.tolist() == [
        "clf=0", "clf=1", "clf=2", "clf__C", "clf__gamma>=0.1", "clf__gamma>=1.0"]
    F, active = space.featurize([
        {"clf": svc, "clf__C": 100.0, "clf__gamma": 0.1}, {"clf": tree}, {"clf": lr},
    ])
    assert_array_equal(F, [[0, 1, 0, 1, 1, 0], [0, 0, 1, 0, 0, 0], [1, 0, 0, 0, 0, 0]])
    assert_array_equal(active[:, :3], True)
    assert_array_equal(active[:, 3:], [[1, 1, 1], [0, 0, 0], [0, 0, 0]])


def test_features_in_unit_cube_and_zero_where_inactive():
    space = SearchSpace(
        param_distributions=_svc_tree() + [{"kernel": ["poly"], "degree": randint(2, 6)}])
    F, active = space.featurize(space.sample(200, random_state=0))
    assert F.shape == active.shape == (200, space.n_features)
    assert space.n_features == len(space.feature_names_) == len(space.feature_params_)
    assert F.min() >= 0.0 and F.max() <= 1.0
    assert_array_equal(F[~active], 0.0)


def test_sample_branch_frequencies_and_marginals():
    space = SearchSpace(param_distributions=[
        {"kind": ["a"], "C": loguniform(1e-4, 1e1), "p": ["x", "y", "z"]},
        {"kind": ["b"], "k": randint(1, 5)},
        {"kind": ["c"]},
    ])
    samples = space.sample(3000, random_state=0)
    kinds = Counter(params["kind"] for params in samples)
    assert stats.chisquare([kinds[k] for k in "abc"]).pvalue > 0.01

    branch_a = [params for params in samples if params["kind"] == "a"]
    log_c = np.log10([params["C"] for params in branch_a])
    assert stats.kstest(log_c, stats.uniform(-4, 5).cdf).pvalue > 0.01
    p_counts = Counter(params["p"] for params in branch_a)
    assert stats.chisquare([p_counts[v] for v in "xyz"]).pvalue > 0.01

    k_counts = Counter(int(params["k"]) for params in samples if params["kind"] == "b")
    assert sorted(k_counts) == [1, 2, 3, 4]
    assert stats.chisquare([k_counts[v] for v in range(1, 5)]).pvalue > 0.01
    assert all(sorted(params) == ["kind"] for params in samples if params["kind"] == "c")


def test_sample_lists_with_replacement():
    space = SearchSpace(param_distributions={"a": [1, 2]})
    assert space.is_finite
    assert len(space.sample(50, random_state=0)) == 50
    assert space.sample(0) == []
    with pytest.raises(ValueError, match="n must"):
        space.sample(-1)


@pytest.mark.parametrize(
    "grid",
    [
        {"C": [0.1, 1.0, 10.0], "penalty": ["l2", None]},
        [{"kernel": ["linear"], "C": [1, 10]}, {"kernel": ["rbf"], "gamma": [0.1]}, {}],
        {"clf": [LogisticRegression(), SVC()], "clf__C": np.array([1.0, 2.0])},
    ],
)
def test_candidates_are_the_parameter_grid(grid):
    space = SearchSpace(param_distributions=grid)
    assert space.is_finite
    assert space.candidates == list(ParameterGrid(grid))
    F, _ = space.featurize(space.candidates)
    assert len(np.unique(F, axis=0)) == len(F)  # distinct configurations, distinct features


def test_candidates_refuse_distributions():
    space = SearchSpace(param_distributions=[{"a": [1]}, {"b": norm()}])
    assert not space.is_finite
    with pytest.raises(ValueError, match="'b' is a distribution"):
        space.candidates


class _OnlyRvs:
    """A sampler with neither a support nor a cdf."""

    def rvs(self, random_state=None):
        return 0.5


class _UnboundedNoCdf(_OnlyRvs):
    def support(self):
        return -np.inf, np.inf


@pytest.mark.parametrize(
    "dists, match",
    [
        ({"C": []}, "'C'.*empty"),
        ({"C": 1.0}, "'C'.*list"),
        ({"C": "rbf"}, "'C'.*list"),
        ([{"a": [1]}, {"C": _OnlyRvs()}], r"'C' of param_distributions\[1\].*cdf"),
        ({"C": _UnboundedNoCdf()}, "'C'.*finite support"),
        ([], "empty list"),
    ],
)
def test_bad_spaces_raise(dists, match):
    with pytest.raises(ValueError, match=match):
        SearchSpace(param_distributions=dists)


@pytest.mark.parametrize(
    "dists, match",
    [("C", "dict or a list of dicts"), ([{"a": [1]}, ["b"]], r"param_distributions\[1\]")],
)
def test_spaces_of_wrong_type_raise(dists, match):
    with pytest.raises(TypeError, match=match):
        SearchSpace(param_distributions=dists)


@pytest.mark.parametrize(
    "config, match",
    [
        ({"kernel": "sigmoid", "C": 1.0}, "kernel='sigmoid'"),
        ({"kernel": "rbf", "C": "big", "gamma": 0.1}, "C='big' is not a real number"),
        ({"kernel": "rbf", "gamma": 0.1}, "'C' is missing"),
        ({"kernel": "linear", "C": 1.0, "degree": 3}, r"\['degree'\]"),
    ],
)
def test_bad_configurations_raise(config, match):
    with pytest.raises(ValueError, match=match):
        SearchSpace(param_distributions=_svc_tree()).featurize([config])
    with pytest.raises(TypeError, match="must be a dict"):
        SearchSpace(param_distributions=_svc_tree()).featurize([["kernel", "linear"]])


# ----------------------------------------------------------------- mutation


def test_mutate_moves_one_parameter_to_a_neighbour():
    space = SearchSpace(param_distributions={
        "depth": [2, 4, 8, 16], "criterion": ["gini", "entropy", "log_loss"], "fixed": ["only"]})
    rng = np.random.RandomState(0)
    start = {"depth": 4, "criterion": "gini", "fixed": "only"}
    changed = Counter()
    for _ in range(2000):
        mutant = space.mutate(start, rng, extra_rate=0.0)
        diff = [k for k in start if mutant[k] != start[k]]
        assert len(diff) == 1  # exactly one, never the one-valued parameter
        changed[diff[0]] += 1
        assert mutant["depth"] in (2, 4, 8)  # adjacent values only
    # Uniform over the two movable parameters; depth up or down alike.
    assert stats.binomtest(changed["depth"], 2000, 0.5).pvalue > 1e-3


def test_mutate_steps_in_the_cdf_of_any_distribution():
    dists = {"C": stats.loguniform(1e-3, 1e3), "alpha": stats.norm(0, 1),
             "n": stats.randint(1, 100)}
    space = SearchSpace(param_distributions=dists)
    rng = np.random.RandomState(0)
    start = {"C": 1.0, "alpha": 0.0, "n": 50}
    moves = {name: [] for name in dists}
    for _ in range(3000):
        mutant = space.mutate(start, rng, step=0.05, extra_rate=0.0)
        for name, dist in dists.items():
            if mutant[name] != start[name]:
                moves[name].append(dist.cdf(mutant[name]) - dist.cdf(start[name]))
    for name in dists:
        assert len(moves[name]) > 800
        # A step of standard deviation 0.05 in the CDF, whatever the distribution
        # (integers move by at least one value, about 0.01 of the mass).
        assert np.std(moves[name]) == pytest.approx(0.05, rel=0.15)
        assert abs(np.mean(moves[name])) < 0.01
    assert all(isinstance(v, int) for v in [space.mutate(start, rng)["n"] for _ in range(50)])


def test_mutate_jumps_branch_rarely():
    space = SearchSpace(param_distributions=[
        {"clf": ["svc"], "C": stats.loguniform(1e-2, 1e2)}, {"clf": ["tree"], "depth": [1, 2, 3]}])
    rng = np.random.RandomState(0)
    jumps = sum(space.mutate({"clf": "svc", "C": 1.0}, rng, branch_rate=0.1)["clf"] == "tree"
                for _ in range(2000))
    assert stats.binomtest(jumps, 2000, 0.1).pvalue > 1e-3
    mutant = space.mutate({"clf": "tree", "depth": 2}, 0, branch_rate=1.0)
    assert mutant["clf"] == "svc" and set(mutant) == {"clf", "C"}
