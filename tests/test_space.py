"""CandidateSpace: the candidates of a search, from what users write for sklearn."""

import pytest
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import ParameterGrid
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from sksel.space import CandidateSpace


def _same_estimator(a, b):
    """Same class and same parameters (compared by their repr for nested estimators)."""
    return type(a) is type(b) and repr(a.get_params(deep=True)) == repr(b.get_params(deep=True))


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
    space = CandidateSpace(base, grid)
    assert space.candidates == list(ParameterGrid(grid))
    assert space.first_estimator is base
    for params in space.candidates:
        built = space.build(params)
        assert built is not base
        assert _same_estimator(built, clone(base).set_params(**params))
    assert base.get_params()["max_iter"] == 123 and base.C == 1.0  # base untouched


def test_list_of_estimators():
    ests = [GaussianNB(), LogisticRegression(C=0.5), DecisionTreeClassifier(max_depth=3)]
    space = CandidateSpace(ests)
    assert space.candidates == [{"estimator": e} for e in ests]
    assert space.first_estimator is ests[0]
    for est, params in zip(ests, space.candidates):
        built = space.build(params)
        assert built is not est and _same_estimator(built, est)


def test_list_of_pairs_and_mixed():
    tree = DecisionTreeClassifier(random_state=0)
    svc = SVC()
    space = CandidateSpace([
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
    space = CandidateSpace(pipe, grid)
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
        CandidateSpace(estimator, param_grid)


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
        CandidateSpace(items)


@pytest.mark.parametrize("item", [(LogisticRegression(),), (LogisticRegression(), 3)])
def test_malformed_pair_names_its_position(item):
    with pytest.raises(ValueError, match=r"estimator\[1\]"):
        CandidateSpace([GaussianNB(), item])


def test_non_estimator_single():
    with pytest.raises(TypeError, match="estimator"):
        CandidateSpace("logistic", {"C": [1.0]})


def test_param_grid_with_list_estimator_raises():
    with pytest.raises(ValueError, match="param_grid"):
        CandidateSpace([LogisticRegression(), SVC()], {"C": [1.0]})
