"""The displays draw what the searches recorded."""

import re

import numpy as np
import pytest
from _common import uncapped_daub
from scipy.stats import loguniform
from sklearn.base import clone
from sklearn.datasets import load_digits, load_iris, make_classification
from sklearn.linear_model import LogisticRegression, SGDClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from sksel import (
    AllocationDisplay,
    BestScoreDisplay,
    DAUBSearch,
    DiversityDisplay,
    FamilyTreeDisplay,
    GPUCBSelector,
    KDPPSearch,
    MutantUCBSearch,
    PosteriorDisplay,
    SearchCurvesDisplay,
)

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def daub():
    X, y = load_digits(return_X_y=True)
    with uncapped_daub():
        return DAUBSearch(
            [GaussianNB(), DecisionTreeClassifier(random_state=0),
             LogisticRegression(max_iter=200)],
            b=100, r=2, cv=3, cost="rows", random_state=0, risk=0,  # steps independent of times
        ).fit(X, y)


@pytest.fixture(scope="module")
def mutant():
    X, y = load_iris(return_X_y=True)
    return MutantUCBSearch(
        SGDClassifier(random_state=0), {"alpha": loguniform(1e-6, 1e-1)},
        budget=80, max_subtrains=5, max_lineage_subtrains=5, reward="mean", cv=3,
        random_state=0,
    ).fit(X, y)


@pytest.fixture(scope="module")
def kdpp():
    X, y = load_iris(return_X_y=True)
    return KDPPSearch(SVC(), {"C": loguniform(1e-3, 1e3), "gamma": loguniform(1e-4, 1e1),
                              "kernel": ["rbf"]},
                      n_iter=8, cv=3, random_state=0).fit(X, y)


@pytest.fixture(scope="module")
def gpucb():
    X, y = load_iris(return_X_y=True)
    grid = {"C": np.logspace(-4, 2, 13).tolist()}
    return GPUCBSelector(LogisticRegression(max_iter=1000), grid, n_iter=5, cv=3,
                         random_state=0).fit(X, y)


@pytest.fixture(scope="module")
def gpucb_looks():
    # Looks on 71 rows before all 1,920 of a fold; GaussianNB's race ends after 1 of 5 folds.
    X, y = make_classification(n_samples=2400, n_features=10, n_informative=4, flip_y=0.1,
                               random_state=0)
    learners = [LogisticRegression(), GaussianNB(), DecisionTreeClassifier(random_state=0),
                KNeighborsClassifier(), DecisionTreeClassifier(max_depth=3, random_state=0)]
    with pytest.warns(UserWarning, match="prior='kernel' shares nothing between the 5"):
        return GPUCBSelector(learners, prior="kernel", cv=5, looks=True, random_state=0).fit(X, y)


def _used(results):
    return ~np.asarray(results["speculative"], dtype=bool)


def _folds_run(search, results):
    return np.sum([np.isfinite(results[f"split{i}_test_score"])
                   for i in range(search.n_splits_)], axis=0)


# ------------------------------------------------------------ learning curves
@pytest.mark.parametrize("name", ["daub", "mutant"])
def test_curves_are_the_results_per_candidate(name, request):
    search = request.getfixturevalue(name)
    display = SearchCurvesDisplay.from_search(search)
    results = search.all_cv_results_
    used = _used(results)
    ids = np.unique(results["candidate_id"])
    assert len(display.lines_) == len(ids)
    resources = results["n_resources_total" if name == "mutant" else "n_resources"]
    for c, line in zip(ids, display.lines_):
        rows = used & (results["candidate_id"] == c)
        np.testing.assert_array_equal(line.get_xdata(), resources[rows])
        np.testing.assert_array_equal(line.get_ydata(), results["mean_test_score"][rows])
    assert display.ax_ is display.lines_[0].axes
    assert display.figure_ is display.ax_.figure


@pytest.mark.parametrize("name", ["daub", "mutant"])
def test_curves_highlight_the_selected_candidate(name, request):
    search = request.getfixturevalue(name)
    display = SearchCurvesDisplay.from_search(search)
    selected = search.cv_results_["candidate_id"][search.best_index_]
    ids = list(np.unique(search.all_cv_results_["candidate_id"]))
    assert display.selected_line_ is display.lines_[ids.index(selected)]
    others = [line for line in display.lines_ if line is not display.selected_line_]
    assert all(display.selected_line_.get_linewidth() > line.get_linewidth()
               for line in others)


def test_mutants_go_on_from_where_they_left_their_parent(mutant):
    display = SearchCurvesDisplay.from_search(mutant)
    results = mutant.all_cv_results_
    ids, parents = results["candidate_id"], results["parent_id"]
    total = results["n_resources_total"]
    inherited = total - results["n_resources"]
    joins = iter(display.origin_lines_)
    went_on = afresh = 0
    for c, line in zip(display.candidate_ids, display.lines_):
        first = np.flatnonzero(ids == c)[0]
        if not inherited[first]:
            afresh += parents[first] >= 0
            assert line.get_xdata()[0] == results["n_resources"][first]
            continue
        went_on += 1
        parent = (ids == parents[first]) & (total == inherited[first])
        assert line.get_xdata()[0] == total[parent][0] + results["n_resources"][first]
        join = next(joins)
        np.testing.assert_allclose(join.get_xdata(), [total[parent][0], line.get_xdata()[0]])
        np.testing.assert_allclose(
            join.get_ydata(), [results["mean_test_score"][parent][0], line.get_ydata()[0]])
        assert join.get_linestyle() == ":" and join.get_color() == line.get_color()
    assert next(joins, None) is None
    assert went_on and afresh  # the fixture has mutants of both kinds
    assert display.ax_.get_xlabel() == "Sub-trains, inherited ones included"


def test_daub_curves_start_at_their_own_resource(daub):
    display = SearchCurvesDisplay.from_search(daub)
    assert display.origin_lines_ is None
    assert display.ax_.get_xlabel() == daub._display_info().resource_name


def test_the_score_axis_frames_the_named_curves():
    # Two named curves high up, a grey one with a bad first point.
    display = SearchCurvesDisplay(candidate_ids=[0, 1, 2], resources=[[1, 2, 3]] * 3,
                                  scores=[[0.8, 0.85, 0.9], [0.82, 0.88, 0.93], [0.1, 0.5, 0.7]],
                                  selected=1).plot(top_k=2)
    bottom, top = display.ax_.get_ylim()
    assert 0.1 < bottom < 0.8 and top > 0.93
    assert bottom > 0.75  # the named curves fill the axes, not 0.1 to 0.93
    every_point = SearchCurvesDisplay(**{k: getattr(display, k) for k in (
        "candidate_ids", "resources", "scores", "selected")}).plot(top_k=2, ylim=None)
    assert every_point.ax_.get_ylim()[0] < 0.1
    assert SearchCurvesDisplay(**{k: getattr(display, k) for k in (
        "candidate_ids", "resources", "scores", "selected")}).plot(
        ylim=(0, 1)).ax_.get_ylim() == (0, 1)


def test_the_score_axis_of_a_mutant_ucb_search_holds_its_named_curves(mutant):
    display = SearchCurvesDisplay.from_search(mutant, top_k=3)
    bottom, top = display.ax_.get_ylim()
    named = [line for line in display.lines_
             if not line.get_label().startswith("_") and "others" not in line.get_label()]
    named_points = np.concatenate([line.get_ydata() for line in named])
    assert bottom < named_points.min() and top > named_points.max()
    worst = min(display.lines_, key=lambda line: line.get_ydata().min())
    assert worst not in named  # the fixture's worst point is a grey curve's
    assert bottom > worst.get_ydata().min()


def test_daub_bounds_end_at_the_upper_bound_at_n(daub):
    display = SearchCurvesDisplay.from_search(daub)
    n_total = daub.sizes_[-1]
    stopped = [(c, line) for c, line in zip(display.candidate_ids, display.lines_)
               if line.get_xdata()[-1] < n_total]
    assert stopped, "the fixture should stop a candidate below N"
    assert len(display.bound_lines_) == len(stopped)
    for (c, line), bound in zip(stopped, display.bound_lines_):
        assert bound.get_linestyle() == "--"
        assert bound.get_xdata().tolist() == [line.get_xdata()[-1], n_total]
        assert bound.get_ydata()[0] == line.get_ydata()[-1]
        assert bound.get_ydata()[1] == daub.policy_.upper_bound(c)


def test_curves_of_a_search_without_bounds(mutant):
    assert SearchCurvesDisplay.from_search(mutant).bound_lines_ is None


def test_curves_on_given_axes(daub):
    _, ax = plt.subplots()
    display = SearchCurvesDisplay.from_search(daub, ax=ax)
    assert display.ax_ is ax


LOOKS = [711, 2133, 6400, 19200]  # GP-UCB's looks on 30,000 rows, then all the rows of a fold


def _curves(resources, n_folds=None, n_splits=None):
    """A display of two candidates over `resources`, the second selected."""
    scores = [np.linspace(0.7, 0.8, len(resources)), np.linspace(0.72, 0.85, len(resources))]
    folds = {} if n_folds is None else {"n_folds": n_folds, "n_splits": n_splits}
    return SearchCurvesDisplay(candidate_ids=[0, 1], resources=[resources] * 2, scores=scores,
                               selected=1, **folds)


@pytest.mark.parametrize("resources, scale", [
    (LOOKS, "log"),
    ([100, 200, 400, 800, 1198], "log"),  # DAUB's doubling sizes, the last all the rows
    ([1, 2, 3, 4, 5, 6], "linear"),  # sub-trains
    ([71, 1920], "linear"),  # two resources lie at the two ends of either axis
])
def test_the_resource_axis_is_logarithmic_where_resources_grow_geometrically(resources, scale):
    display = _curves(resources).plot()
    assert display.ax_.get_xscale() == scale
    if resources == LOOKS:
        # A linear axis would bunch the looks in its first third: 711 to 6,400 of 19,200.
        left, middle, right = display.ax_.transData.transform(
            [[x, 0.8] for x in LOOKS[::2] + LOOKS[-1:]])[:, 0]
        assert (middle - left) / (right - left) > 0.6
        # Labelled at the looks, not at powers of ten (none between 711 and 19,200).
        assert [t.get_text() for t in display.ax_.get_xticklabels()] == [
            "711", "2133", "6400", "19200"]


def test_the_resource_axis_scale_can_be_chosen(daub, mutant):
    assert SearchCurvesDisplay.from_search(daub).ax_.get_xscale() == "log"
    assert SearchCurvesDisplay.from_search(mutant).ax_.get_xscale() == "linear"
    assert SearchCurvesDisplay.from_search(daub, xscale="linear").ax_.get_xscale() == "linear"
    assert SearchCurvesDisplay.from_search(mutant, xscale="log").ax_.get_xscale() == "log"
    with pytest.raises(ValueError, match="xscale must be None .* got xscale='symlog'"):
        _curves(LOOKS).plot(xscale="symlog")


def test_points_scored_on_fewer_folds_are_hollow(daub):
    display = SearchCurvesDisplay.from_search(daub)
    results = daub.all_cv_results_
    used = _used(results)
    folds = _folds_run(daub, results)
    # Below N, DAUB scores on one of the three folds; at N, on all of them.
    assert set(folds[used]) == {1, 3}
    for c, line, hollow in zip(display.candidate_ids, display.lines_, display.partial_markers_):
        rows = used & (results["candidate_id"] == c)
        partial = folds[rows] < daub.n_splits_
        np.testing.assert_array_equal(hollow.get_xdata(), results["n_resources"][rows][partial])
        assert hollow.get_linestyle() == "None"
        assert matplotlib.colors.to_hex(hollow.get_markerfacecolor()) == "#ffffff"
        assert hollow.get_markeredgecolor() == line.get_color()
        # The curve's own, filled, markers are at the points scored on every fold only.
        assert list(line.get_markevery()) == list(np.flatnonzero(~partial))
        assert line.get_markerfacecolor() == line.get_color()
    labels = [t.get_text() for t in display.ax_.get_legend().get_texts()]
    assert labels[-1] == "scored on 1 of 3 folds"
    handle = display.ax_.get_legend().legend_handles[-1]
    assert matplotlib.colors.to_hex(handle.get_markerfacecolor()) == "#ffffff"


def test_the_legend_says_on_how_many_folds_partial_points_were_scored():
    # A GP-UCB race: one candidate out after 2 of 5 folds, another after 3.
    display = _curves(LOOKS, n_folds=[[5, 5, 5, 2], [5, 5, 5, 3]], n_splits=5).plot()
    assert [m.get_xdata().tolist() for m in display.partial_markers_] == [[19200], [19200]]
    assert display.ax_.get_legend().get_texts()[-1].get_text() == "scored on 2 to 3 of 5 folds"
    every_fold = _curves(LOOKS, n_folds=[[5] * 4] * 2, n_splits=5).plot()
    assert every_fold.partial_markers_ == [None, None]
    assert "folds" not in " ".join(t.get_text() for t in every_fold.ax_.get_legend().get_texts())


def test_a_raced_gpucb_evaluation_is_hollow_on_its_curve(gpucb_looks):
    # Its looks on a subsample, scored on the first fold, are hollow too.
    display = SearchCurvesDisplay.from_search(gpucb_looks)
    results = gpucb_looks.all_cv_results_
    raced = np.flatnonzero(results["first_look"])
    assert raced.size and (results["n_folds_run"][raced] == 1).all()  # what the fixture gives
    partial = (results["n_folds_run"] < 5) & ~results["speculative"].astype(bool)
    ids = list(display.candidate_ids)
    for i in raced:
        hollow = display.partial_markers_[ids.index(results["candidate_id"][i])]
        assert results["n_resources"][i] in hollow.get_xdata().tolist()
    for candidate, hollow in zip(ids, display.partial_markers_):
        rows = np.flatnonzero(partial & (results["candidate_id"] == candidate))
        if not rows.size:
            assert hollow is None
            continue
        assert sorted(hollow.get_xdata().tolist()) == sorted(results["n_resources"][rows])
        expected = [np.nanmean([results[f"split{k}_test_score"][i] for k in range(5)])
                    for i in rows[np.argsort(results["n_resources"][rows])]]
        np.testing.assert_allclose(
            np.asarray(hollow.get_ydata())[np.argsort(hollow.get_xdata())], expected)
    assert display.ax_.get_legend().get_texts()[-1].get_text() == "scored on 1 of 5 folds"


@pytest.mark.parametrize("name, title", [
    ("daub", "DAUBSearch: learning curves of 3 candidates"),
    ("halving", "HalvingGridSearchCV: learning curves of 10 candidates"),
])
def test_curves_are_titled_with_the_search_and_what_they_draw(name, title, request):
    display = SearchCurvesDisplay.from_search(request.getfixturevalue(name))
    assert display.ax_.get_title() == title
    assert _curves(LOOKS).plot().ax_.get_title() == "Learning curves of 2 candidates"


# ---------------------------------------------------------------- allocation
def test_allocation_bars_are_the_spends_sorted(daub):
    display = AllocationDisplay.from_search(daub)
    results = daub.all_cv_results_
    cost = results["n_resources"] * _folds_run(daub, results)
    ids = np.unique(results["candidate_id"])
    spent = np.array([cost[results["candidate_id"] == c].sum() for c in ids])
    # Below N, DAUB evaluates on one fold only.
    assert (_folds_run(daub, results)[results["n_resources"] < daub.sizes_[-1]] == 1).all()
    widths = [bar.get_width() for bar in display.bars_]
    np.testing.assert_array_equal(widths, np.sort(spent)[::-1])
    np.testing.assert_array_equal(display.spent, spent)
    assert display.grid_line_.get_xdata()[0] == daub.sizes_[-1] * daub.n_splits_
    assert "GridSearchCV" in display.ax_.get_title()


def test_allocation_of_mutant_ucb_compares_with_random_search_of_its_configurations(mutant):
    display = AllocationDisplay.from_search(mutant)
    n_models = len(mutant.cv_results_["candidate_id"])
    title = " ".join(display.ax_.get_title().split())
    # Its mutants are no grid: random search training the same configurations
    # to max_subtrains is what a user would have run instead.
    assert "GridSearchCV" not in title
    total = n_models * mutant.max_subtrains * mutant.n_splits_
    assert (f"of the {total} that random search of the same {n_models} configurations, "
            f"each trained {mutant.max_subtrains} sub-trains, spends") in title


def test_allocation_counts_each_subtrain_once(mutant):
    display = AllocationDisplay.from_search(mutant)
    results = mutant.all_cv_results_
    ids = np.unique(results["candidate_id"])
    subtrains = np.array([results["n_resources"][results["candidate_id"] == c].max()
                          for c in ids])
    np.testing.assert_array_equal(display.spent, subtrains * mutant.n_splits_)
    assert display.grid_spent == mutant.max_subtrains * mutant.n_splits_


def test_allocation_of_gpucb_counts_every_candidate_for_the_grid(gpucb):
    display = AllocationDisplay.from_search(gpucb)
    assert len(display.bars_) == 5
    assert display.n_grid_candidates == 13


def _with_unused_full_fit(search, candidate):
    """A copy of `search` whose ``all_cv_results_`` ends with an unused speculative row.

    The row evaluates `candidate` on all the rows of every fold, as a free
    worker's speculative pick does, and is marked ``speculative`` as the
    searches mark an evaluation they never used.
    """
    results = search.all_cv_results_
    last = np.flatnonzero(results["candidate_id"] == candidate)[-1]
    every = {k: (list(v) + [v[last]] if k == "params" else np.append(np.asarray(v), v[last]))
             for k, v in results.items()}
    every["n_resources"][-1] = search.sizes_[-1]
    for i in range(search.n_splits_):
        every[f"split{i}_test_score"][-1] = 0.9
    every["n_folds_run"][-1] = search.n_splits_
    every["speculative"][-1] = True
    copied = clone(search)
    copied.__dict__.update({**search.__dict__, "all_cv_results_": every})
    return copied


def test_allocation_draws_unused_speculative_work_apart(daub):
    # A learner whose curve stops below N, whose full fit ran for a free worker, unused.
    stopped = next(c for c in np.unique(daub.cv_results_["candidate_id"])
                   if daub.cv_results_["n_resources"][daub.cv_results_["candidate_id"] == c][0]
                   < daub.sizes_[-1])
    search = _with_unused_full_fit(daub, stopped)
    used = AllocationDisplay.from_search(daub).spent
    display = AllocationDisplay.from_search(search)
    ids = list(display.candidate_ids)
    np.testing.assert_array_equal(display.spent, used)  # what the curves draw
    unused = np.zeros(len(ids))
    unused[ids.index(stopped)] = daub.sizes_[-1] * daub.n_splits_
    np.testing.assert_array_equal(display.speculative, unused)
    # The bars, highest first by all that was spent: the used part, then the unused hatched.
    order = np.argsort(-(used + unused), kind="stable")
    assert [b.get_width() for b in display.bars_] == list(used[order])
    assert [b.get_width() for b in display.speculative_bars_] == list(unused[order])
    assert [b.get_x() for b in display.speculative_bars_] == list(used[order])
    row = list(order).index(ids.index(stopped))
    bar, hatched = display.bars_[row], display.speculative_bars_[row]
    assert hatched.get_y() == bar.get_y()
    assert hatched.get_hatch() and not bar.get_hatch()
    assert hatched.get_facecolor() != bar.get_facecolor()
    legend = display.ax_.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["used", "speculative, never used"]
    total = (used + unused).sum()
    assert " ".join(display.ax_.get_title().split()).startswith(f"Total {total:g}:")
    assert f"hatched: {unused.sum():g} unused" in display.ax_.get_title()
    # Its learning curve still stops where the search left it.
    curves = SearchCurvesDisplay.from_search(search)
    assert curves.lines_[ids.index(stopped)].get_xdata().max() < daub.sizes_[-1]


def test_allocation_without_speculative_work_has_no_hatched_bars(daub):
    display = AllocationDisplay.from_search(daub)
    assert not daub.all_cv_results_["speculative"].any()
    assert display.speculative_bars_ is None
    assert display.ax_.get_legend() is None
    assert "hatched" not in display.ax_.get_title()


# ---------------------------------------------------------------- best score
def test_best_score_is_a_running_max_over_summed_seconds(daub):
    display = BestScoreDisplay.from_search(daub, name="DAUB")
    results = daub.all_cv_results_
    used = _used(results)
    seconds = ((results["mean_fit_time"] + results["mean_score_time"])
               * _folds_run(daub, results))[used]
    np.testing.assert_allclose(display.line_.get_xdata(), np.cumsum(seconds))
    np.testing.assert_array_equal(display.line_.get_ydata(),
                                  np.maximum.accumulate(results["mean_test_score"][used]))
    assert display.line_.get_label() == "DAUB"


def test_several_searches_on_one_axes(daub, kdpp):
    first = BestScoreDisplay.from_search(daub)
    second = BestScoreDisplay.from_search(kdpp, ax=first.ax_)
    assert second.ax_ is first.ax_
    assert [line.get_label() for line in first.ax_.get_lines()] == ["DAUBSearch", "KDPPSearch"]


# ------------------------------------------------------ scikit-learn's searches
from sklearn.ensemble import ExtraTreesClassifier  # noqa: E402
from sklearn.experimental import enable_halving_search_cv  # noqa: E402, F401
from sklearn.model_selection import GridSearchCV, HalvingGridSearchCV  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402

SVC_GRID = {"svc__C": [0.01, 0.1, 1, 10, 100], "svc__gamma": [0.01, 0.1]}


@pytest.fixture(scope="module")
def grid():
    X, y = load_iris(return_X_y=True)
    return GridSearchCV(make_pipeline(StandardScaler(), SVC()), SVC_GRID, cv=3).fit(X, y)


@pytest.fixture(scope="module")
def halving():
    X, y = load_iris(return_X_y=True)
    return HalvingGridSearchCV(make_pipeline(StandardScaler(), SVC()), SVC_GRID, cv=3,
                               factor=2, random_state=0).fit(X, y)


def _rows_by_candidate(search):
    """Each candidate's rows of cv_results_: those with its params, first-iteration row first."""
    params = search.cv_results_["params"]
    first = np.flatnonzero(search.cv_results_.get("iter", np.zeros(len(params))) == 0)
    return [[j for j, p in enumerate(params) if p == params[i]] for i in first]


@pytest.mark.parametrize("name", ["grid", "halving"])
def test_best_score_of_a_scikit_learn_search(name, request):
    search = request.getfixturevalue(name)
    display = BestScoreDisplay.from_search(search)
    results = search.cv_results_
    seconds = (results["mean_fit_time"] + results["mean_score_time"]) * 3
    np.testing.assert_allclose(display.line_.get_xdata(), np.cumsum(seconds))
    np.testing.assert_array_equal(display.line_.get_ydata(),
                                  np.maximum.accumulate(results["mean_test_score"]))
    assert display.line_.get_label() == type(search).__name__
    assert display.ax_.get_ylabel() == "Best accuracy so far"


def test_scikit_learn_searches_beside_an_sksel_search(daub, grid, halving):
    display = BestScoreDisplay.from_search(daub)
    for search in (grid, halving):
        BestScoreDisplay.from_search(search, ax=display.ax_)
    assert [line.get_label() for line in display.ax_.get_lines()] == [
        "DAUBSearch", "GridSearchCV", "HalvingGridSearchCV"]


def test_halving_curves_are_its_rows_per_candidate(halving):
    display = SearchCurvesDisplay.from_search(halving)
    results = halving.cv_results_
    rows = _rows_by_candidate(halving)
    assert len(rows) == halving.n_candidates_[0] == len(display.lines_) == 10
    for line, candidate in zip(display.lines_, rows):
        np.testing.assert_array_equal(line.get_xdata(), results["n_resources"][candidate])
        np.testing.assert_array_equal(line.get_ydata(), results["mean_test_score"][candidate])
    assert [len(r) for r in rows].count(len(halving.n_resources_)) == halving.n_candidates_[-1]
    best = next(c for c, r in enumerate(rows) if halving.best_index_ in r)
    assert display.selected_line_ is display.lines_[best]
    # Named as sksel names candidates: the final step and the parameters that differ.
    assert display.names == [f"#{c} SVC(C={p['svc__C']:g}, gamma={p['svc__gamma']:g})"
                             for c, p in enumerate(results["params"][:10])]
    # The candidates that reached the last iteration come first in the legend.
    labels = [t.get_text() for t in display.ax_.get_legend().get_texts()]
    assert labels[0] == f"selected: {display.names[best]}"
    reached = {display.names[c] for c, r in enumerate(rows) if len(r) == len(rows[best])}
    assert set(labels[:len(reached)]) == {f"selected: {display.names[best]}"} | reached - {
        display.names[best]}
    assert display.ax_.get_xlabel() == "Samples (n_resources)"


def test_halving_allocation_is_its_resources_per_candidate(halving):
    display = AllocationDisplay.from_search(halving)
    results = halving.cv_results_
    spent = [results["n_resources"][r].sum() * 3 for r in _rows_by_candidate(halving)]
    np.testing.assert_array_equal(display.spent, spent)
    np.testing.assert_array_equal([bar.get_width() for bar in display.bars_],
                                  np.sort(spent)[::-1])
    assert display.grid_spent == halving.max_resources_ * 3 == 150 * 3
    assert display.n_grid_candidates == 10
    assert display.ax_.get_xlabel() == "Samples (n_resources), summed over folds"


def test_halving_over_a_parameter_keeps_its_candidates():
    X, y = load_iris(return_X_y=True)
    search = HalvingGridSearchCV(
        ExtraTreesClassifier(random_state=0), {"max_depth": [1, 2, 3, 4]},
        resource="n_estimators", min_resources=2, max_resources=8, factor=2, cv=3,
        random_state=0).fit(X, y)
    display = SearchCurvesDisplay.from_search(search)
    depth_of = [p["max_depth"] for p in search.cv_results_["params"]]
    assert display.names == [f"#{c} ExtraTreesClassifier(max_depth={d})"
                             for c, d in enumerate(depth_of[:4])]
    assert sorted(len(x) for x in display.resources) == [1, 1, 2, 3]
    assert [list(x) for x in display.resources if len(x) == 3] == [[2, 4, 8]]
    assert display.ax_.get_xlabel() == "n_estimators"
    assert AllocationDisplay.from_search(search).grid_spent == 8 * 3


@pytest.mark.parametrize("display", [SearchCurvesDisplay, AllocationDisplay])
def test_a_grid_search_has_no_curves_nor_allocation(grid, display):
    with pytest.raises(ValueError, match=(
            r"GridSearchCV trains every candidate once, on all the training rows of every "
            r"fold \(its cv_results_ has no n_resources\), so that every (curve|bar) would "
            r"be .*Use BestScoreDisplay")):
        display.from_search(grid)


@pytest.mark.parametrize("display, draws", [
    (PosteriorDisplay, "GPUCBSelector's prior and posterior"),
    (DiversityDisplay, "a KDPPSearch's configurations"),
    (FamilyTreeDisplay, "the lineage of a MutantUCBSearch's model"),
])
@pytest.mark.parametrize("name", ["grid", "halving"])
def test_displays_of_one_sksel_search_refuse_scikit_learn_searches(display, draws, name,
                                                                   request):
    search = request.getfixturevalue(name)
    args = ("svc__C", "svc__gamma") if display is DiversityDisplay else ()
    with pytest.raises(TypeError, match=f"^{display.__name__} draws {draws}.*; "
                                        f"scikit-learn's {type(search).__name__} records none"):
        display.from_search(search, *args)


# ----------------------------------------------------------------- posterior
def test_posterior_points_are_the_policy_numbers(gpucb):
    display = PosteriorDisplay.from_search(gpucb)
    prior_mean, prior_std = gpucb.policy_.prior()
    # A row per candidate, the highest posterior mean on top (row 0).
    order = np.argsort(-gpucb.posterior_mean_, kind="stable")
    np.testing.assert_array_equal(display.candidate_ids_, order)
    rows = np.arange(13)
    line, _, (bars,) = display.prior_errorbar_.lines
    np.testing.assert_array_equal(line.get_ydata() + 0.15, rows)
    np.testing.assert_array_equal(line.get_xdata(), prior_mean[order])
    np.testing.assert_allclose([seg[1, 0] - seg[0, 0] for seg in bars.get_segments()],
                               2 * prior_std[order])
    line, _, (bars,) = display.posterior_errorbar_.lines
    np.testing.assert_array_equal(line.get_xdata(), gpucb.posterior_mean_[order])
    np.testing.assert_allclose([seg[1, 0] - seg[0, 0] for seg in bars.get_segments()],
                               2 * gpucb.posterior_std_[order])
    row_of = {c: r for r, c in enumerate(order)}
    evaluated = gpucb.cv_results_["n_folds_run"] > 0  # not the candidates listed only
    np.testing.assert_array_equal(
        display.evaluated_.get_offsets(),
        np.c_[gpucb.cv_results_["mean_test_score"][evaluated],
              [row_of[c] for c in gpucb.cv_results_["candidate_id"][evaluated]]],
    )
    labels = [t.get_text() for t in display.ax_.get_yticklabels()]
    assert labels == [f"#{c} LogisticRegression(C={gpucb.candidates_[c]['C']:.3g})"
                      for c in order]


def test_posterior_stars_of_looks_are_hollow(gpucb, gpucb_looks):
    display = PosteriorDisplay.from_search(gpucb_looks)
    results = gpucb_looks.cv_results_
    looks = results["look"] | (results["n_folds_run"] < gpucb_looks.n_splits_)
    assert looks.any() and not looks.all()  # what the fixture gives
    faces = [matplotlib.colors.to_hex(f) for f in display.evaluated_.get_facecolors()]
    assert faces == ["#ffffff" if look else matplotlib.colors.to_hex("tab:red")
                     for look in looks]
    labels = [t.get_text() for t in display.ax_.get_legend().get_texts()]
    assert labels == ["evaluated", "a look: fewer rows or folds", "prior", "posterior"]
    # A search without looks draws every star filled, under one entry.
    plain = PosteriorDisplay.from_search(gpucb)
    assert {matplotlib.colors.to_hex(f) for f in plain.evaluated_.get_facecolors()} == {
        matplotlib.colors.to_hex("tab:red")}
    assert [t.get_text() for t in plain.ax_.get_legend().get_texts()] == [
        "evaluated", "prior", "posterior"]


def test_prior_is_what_the_posterior_conditions_on(gpucb):
    # The kernel prior is fitted to the scores: its level is their mean.
    prior_mean, prior_std = gpucb.policy_.prior()
    np.testing.assert_allclose(prior_mean, np.mean(list(gpucb.policy_.observed_.values())))
    assert (gpucb.posterior_std_ <= prior_std + 1e-12).all()


# ----------------------------------------------------------------- diversity
def test_diversity_points_are_the_drawn_params(kdpp):
    display = DiversityDisplay.from_search(kdpp, "C", "gamma", random_state=0)
    drawn = [[p["C"], p["gamma"]] for p in kdpp.cv_results_["params"]]
    np.testing.assert_array_equal(display.drawn_.get_offsets(), drawn)
    assert display.uniform_.get_offsets().shape == (8, 2)
    assert display.ax_.get_xscale() == "log"
    again = DiversityDisplay.from_search(kdpp, "C", "gamma", random_state=0)
    np.testing.assert_array_equal(again.uniform, display.uniform)


def test_diversity_rejects_unknown_or_non_numeric_params(kdpp):
    with pytest.raises(ValueError, match="y_name='degree' is not a parameter"):
        DiversityDisplay.from_search(kdpp, "C", "degree")
    with pytest.raises(ValueError, match="'kernel' takes values that are not numbers"):
        DiversityDisplay.from_search(kdpp, "C", "kernel")


# --------------------------------------------------------------- family tree
def _lineage(search, model):
    results = search.cv_results_
    row_of = {c: i for i, c in enumerate(results["candidate_id"])}
    chain = [model]
    while results["parent_id"][row_of[chain[-1]]] >= 0:
        chain.append(results["parent_id"][row_of[chain[-1]]])
    return chain[::-1], [row_of[c] for c in chain[::-1]]


def test_family_tree_is_the_lineage_of_the_best(mutant):
    display = FamilyTreeDisplay.from_search(mutant)
    best = mutant.cv_results_["candidate_id"][mutant.best_index_]
    chain, rows = _lineage(mutant, best)
    assert len(chain) > 1, "the fixture's best model should be a mutant"
    assert list(display.lineage) == chain
    np.testing.assert_array_equal(display.nodes_.get_xdata(), np.arange(len(chain)))
    np.testing.assert_array_equal(display.nodes_.get_ydata(),
                                  mutant.cv_results_["mean_test_score_at_resource"][rows])
    assert len(display.edges_) == len(chain) - 1
    params = [mutant.cv_results_["params"][i] for i in rows]
    assert display.changes[0] == {}
    for parent, child, change in zip(params, params[1:], display.changes[1:]):
        assert change == {"alpha": child["alpha"]} and parent["alpha"] != child["alpha"]
    assert display.labels_[-1].get_text().startswith(f"#{best}: ")


def test_family_tree_labels_name_parameters_without_step_prefix():
    display = FamilyTreeDisplay(lineage=[2, 7], scores=[0.8, 0.9],
                                changes=[{}, {"sgdclassifier__alpha": 0.0123}]).plot()
    assert display.labels_[1].get_text() == "#7: 0.900\nalpha=0.0123"
    low, high = display.ax_.get_ylim()
    assert low < 0.8 - 0.01 and high > 0.9 + 0.01, "room for the labels above the nodes"


def test_family_tree_of_an_initial_model(mutant):
    display = FamilyTreeDisplay.from_search(mutant, candidate=0)
    assert list(display.lineage) == [0] and display.edges_ == []


def test_family_tree_rejects_an_unknown_candidate(mutant):
    with pytest.raises(ValueError, match="candidate=999 is not a candidate_id"):
        FamilyTreeDisplay.from_search(mutant, candidate=999)


# ------------------------------------------------------------------ checks
@pytest.mark.parametrize("display, name, needs", [
    (PosteriorDisplay, "daub", "GPUCBSelector's prior and posterior of every candidate, "
                               "from a search with posterior_mean_; DAUBSearch has none"),
    (DiversityDisplay, "gpucb", "a KDPPSearch's configurations .*, from a search with "
                                "param_distributions; GPUCBSelector has none"),
    (FamilyTreeDisplay, "kdpp", "the lineage of a MutantUCBSearch's model, from a search with "
                                "a parent_id in cv_results_; KDPPSearch has none"),
])
def test_a_display_for_another_search_says_which_it_needs(display, name, needs, request):
    search = request.getfixturevalue(name)
    args = ("C", "C") if display is DiversityDisplay else ()
    with pytest.raises(TypeError, match=f"^{display.__name__} draws {needs}"):
        display.from_search(search, *args)


@pytest.mark.parametrize("display", [BestScoreDisplay, SearchCurvesDisplay, AllocationDisplay])
def test_a_scikit_learn_search_that_selects_no_metric_is_refused(display):
    X, y = load_iris(return_X_y=True)
    grid = GridSearchCV(DecisionTreeClassifier(), {"max_depth": [1, 2]}, cv=3,
                        scoring=["accuracy", "f1_macro"], refit=False).fit(X, y)
    with pytest.raises(ValueError, match=f"^{display.__name__} draws the scores of the metric "
                                         "that selects; GridSearchCV with several metrics and "
                                         "refit=False selects none"):
        display.from_search(grid)


def test_diversity_refuses_the_configurations_a_mutant_ucb_search_bred(mutant):
    first = next(iter(mutant.param_distributions))
    with pytest.raises(TypeError, match=(
            "^DiversityDisplay draws a KDPPSearch's configurations .*; MutantUCBSearch "
            "breeds its configurations from parents")):
        DiversityDisplay.from_search(mutant, first, first)


@pytest.mark.parametrize("name", ["kdpp", "gpucb"])
def test_curves_of_a_search_at_one_resource_are_refused(name, request):
    search = request.getfixturevalue(name)
    n_rows = search.cv_results_["n_resources"][0]
    with pytest.raises(ValueError, match=(
            rf"^SearchCurvesDisplay draws learning curves over a resource; "
            rf"{type(search).__name__} evaluated every candidate at one resource "
            rf"\(n_resources={n_rows}\), so that every curve would be one point. "
            rf"Use BestScoreDisplay")):
        SearchCurvesDisplay.from_search(search)


def test_allocation_of_a_search_that_spent_as_the_grid_is_refused(kdpp):
    with pytest.raises(ValueError, match=r"^AllocationDisplay draws how a search shared .*; "
                                         r"KDPPSearch evaluated every candidate at one "
                                         r"resource .* every bar would be GridSearchCV's"):
        AllocationDisplay.from_search(kdpp)


def test_something_else_than_a_search_is_refused():
    with pytest.raises(TypeError, match="BestScoreDisplay.from_search needs a fitted search, "
                                        "an sksel search or a scikit-learn one"):
        BestScoreDisplay.from_search(LogisticRegression())


def test_an_unfitted_search_is_refused():
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        SearchCurvesDisplay.from_search(DAUBSearch([GaussianNB()]))


def test_importing_sksel_does_not_import_matplotlib():
    import subprocess
    import sys

    code = "import sys, sksel; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_candidates_are_named_as_the_progress_lines_name_them(daub, mutant, capsys):
    """Legend and bar labels: the names verbose=2 prints and cv_results_ holds."""
    classes = ["#0 GaussianNB", "#1 DecisionTreeClassifier", "#2 LogisticRegression"]
    curves = SearchCurvesDisplay.from_search(daub)
    assert curves.names == classes
    best = daub.cv_results_["candidate_id"][daub.best_index_]
    assert curves.selected_line_.get_label() == f"selected: {classes[best]}"
    bars = AllocationDisplay.from_search(daub)
    order = np.argsort(-np.asarray(bars.spent, dtype=float), kind="stable")
    assert [t.get_text() for t in bars.ax_.get_yticklabels()] == [classes[i] for i in order]
    # A search over one estimator: the parameter that varies, as verbose=2 prints it.
    names = SearchCurvesDisplay.from_search(mutant).names
    search = clone(mutant).set_params(verbose=2).fit(*load_iris(return_X_y=True))
    printed = capsys.readouterr().out
    assert all(re.match(r"#\d+ (\(from #\d+\) )?SGDClassifier\(alpha=", name)
               and name in printed for name in names)
    assert search.cv_results_["params"] == mutant.cv_results_["params"]


# ------------------------------------------------ a new search gets the displays
from sksel._core.policy import SequentialPolicy  # noqa: E402
from sksel._core.search import BaseSelectionSearch  # noqa: E402
from sksel.training import RowsTrainer  # noqa: E402


class _FirstHalf(SequentialPolicy):
    """Evaluates the first half of the candidates, in order, at each of two sizes."""

    def __init__(self, n_candidates, sizes):
        self.n_candidates, self.sizes = n_candidates, sizes
        super().__init__()
        self._advance()

    def _decide(self):
        k, size = divmod(len(self._decisions), 2)
        return (k, self.sizes[size]) if k < (self.n_candidates + 1) // 2 else None

    def _use(self, action, outcome):
        pass


class HalfSearch(BaseSelectionSearch):
    """A fifth search, written against the documented contract only."""

    _parameter_constraints = {**BaseSelectionSearch._parameter_constraints,
                              "param_grid": [dict, list, None]}

    def __init__(self, estimator, param_grid=None, *, cv=None, random_state=None):
        super().__init__(estimator, cv=cv, random_state=random_state)
        self.param_grid = param_grid

    def _make_policy(self, candidates, splits, y, n_classes, rng):
        n_rows = min(len(train) for train, _ in splits)
        sizes = [n_rows // 2, n_rows]
        return (_FirstHalf(len(candidates), sizes),
                RowsTrainer(splits, y, sizes, stratify=False, random_state=0))


def test_a_new_search_gets_every_generic_display():
    X, y = load_iris(return_X_y=True)
    search = HalfSearch(LogisticRegression(max_iter=500), {"C": [0.01, 0.1, 1.0, 10.0]},
                        cv=3).fit(X, y)
    n_rows = int(search.cv_results_["n_resources"].max())
    curves = SearchCurvesDisplay.from_search(search)
    assert list(curves.candidate_ids) == [0, 1]
    assert all(list(r) == [n_rows // 2, n_rows] for r in curves.resources)
    allocation = AllocationDisplay.from_search(search)
    assert allocation.grid_spent == n_rows * 3
    assert list(allocation.spent) == [(n_rows // 2 + n_rows) * 3] * 2
    best = BestScoreDisplay.from_search(search)
    assert best.best_scores[-1] == pytest.approx(search.best_score_)
    with pytest.raises(TypeError, match="from a search with posterior_mean_; HalfSearch has"):
        PosteriorDisplay.from_search(search)


def test_displays_take_names_as_a_list_or_a_callable(daub):
    ids = list(SearchCurvesDisplay.from_search(daub).candidate_ids)
    given = ["naive Bayes", "tree", "logistic"]
    assert SearchCurvesDisplay.from_search(daub, names=given).names == [given[c] for c in ids]
    allocation = AllocationDisplay.from_search(
        daub, names=lambda params: type(params["estimator"]).__name__.lower())
    by_id = ["gaussiannb", "decisiontreeclassifier", "logisticregression"]
    assert allocation.names == [by_id[c] for c in allocation.candidate_ids]


def test_posterior_and_family_tree_take_names_too(gpucb, mutant):
    given = [f"C number {c}" for c in range(13)]
    posterior = PosteriorDisplay.from_search(gpucb, names=given)
    assert [t.get_text() for t in posterior.ax_.get_yticklabels()] == [
        given[c] for c in posterior.candidate_ids_]
    tree = FamilyTreeDisplay.from_search(mutant, names=lambda p: f"alpha {p['alpha']:.1e}")
    rows = [list(mutant.cv_results_["candidate_id"]).index(c) for c in tree.lineage]
    alphas = [mutant.cv_results_["params"][i]["alpha"] for i in rows]
    assert [label.get_text().split(":")[0] for label in tree.labels_] == [
        f"alpha {a:.1e}" for a in alphas]
    assert tree.ax_.get_title() == f"Lineage of alpha {alphas[-1]:.1e}"


def test_family_tree_title_is_the_model_name(mutant):
    tree = FamilyTreeDisplay.from_search(mutant)
    best = mutant.best_index_
    assert tree.ax_.get_title() == f"Lineage of {mutant.cv_results_['candidate_name'][best]}"
    assert tree.labels_[-1].get_text().startswith(
        f"#{mutant.cv_results_['candidate_id'][best]}: ")


def test_posterior_names_every_candidate_by_the_results_rule(gpucb):
    names = PosteriorDisplay.from_search(gpucb).names
    results = gpucb.cv_results_
    assert [names[c] for c in results["candidate_id"]] == list(results["candidate_name"])
    assert names == [f"#{c} LogisticRegression(C={p['C']:.3g})"
                     for c, p in enumerate(gpucb.candidates_)]


def test_posterior_names_pipeline_candidates_by_their_final_estimator():
    """Candidates never evaluated are named by the results' rule: the estimator in place."""
    X, y = load_iris(return_X_y=True)
    pipe = Pipeline([("scale", StandardScaler()), ("clf", LogisticRegression())])
    grid = [{"clf": [GaussianNB()]}, {"clf": [SVC()], "clf__C": [0.1, 10.0]}]
    search = GPUCBSelector(pipe, grid, n_iter=2, cv=3, random_state=0).fit(X, y)
    assert np.count_nonzero(search.cv_results_["n_folds_run"]) == 2
    assert PosteriorDisplay.from_search(search).names == [
        "#0 GaussianNB", "#1 SVC(C=0.1)", "#2 SVC(C=10)"]


@pytest.mark.parametrize("names, error, match", [
    ({0: "a"}, TypeError, "names must be a list of labels indexed by candidate_id, or a "
                          "callable"),
    ("abc", TypeError, "names must be a list"),
    (["a", "b"], ValueError, r"names has 2 labels; the search has 3 candidates"),
])
def test_bad_names_are_refused_by_every_display(daub, names, error, match):
    for display in (SearchCurvesDisplay, AllocationDisplay):
        with pytest.raises(error, match=match):
            display.from_search(daub, names=names)


@pytest.mark.parametrize("top_k", [0, 2.5, True])
def test_top_k_must_be_a_positive_integer(daub, top_k):
    with pytest.raises(ValueError, match=f"top_k must be a positive integer; got top_k={top_k}"):
        AllocationDisplay.from_search(daub, top_k=top_k)


def test_top_k_groups_the_others(daub):
    bars = AllocationDisplay.from_search(daub, top_k=1)
    spent = np.sort(np.asarray(bars.spent, dtype=float))[::-1]
    assert [bar.get_width() for bar in bars.bars_] == [spent[0], spent[1:].mean()]
    assert bars.ax_.get_yticklabels()[-1].get_text() == "2 others, mean"
    curves = SearchCurvesDisplay.from_search(daub, top_k=1)
    labels = [t.get_text() for t in curves.ax_.get_legend().get_texts()]
    assert labels[0].startswith("selected: ") and labels[1] == "2 others"


# ------------------------------------------- readable with 5, 25, 100 candidates
from matplotlib.transforms import Bbox  # noqa: E402

RULE = re.compile(r"#(\d+)( \(from #(\d+)\))? (SGDClassifier|DecisionTreeClassifier|"
                  r"LogisticRegression)\(\w+=")


@pytest.fixture(scope="module", params=[5, 25, 100])
def many(request):
    """Searches of about n candidates on 60 rows: DAUB, Mutant-UCB and GP-UCB, each a Pipeline."""
    n = request.param
    X, y = make_classification(n_samples=60, random_state=0)
    tree = make_pipeline(StandardScaler(), DecisionTreeClassifier(random_state=0))
    daub = DAUBSearch(tree, {"decisiontreeclassifier__max_depth": list(range(1, n + 1))},
                      b=5, r=2, cv=3, cost="rows", random_state=0, risk=0).fit(X, y)
    sgd = make_pipeline(StandardScaler(), SGDClassifier(random_state=0))
    mutant = MutantUCBSearch(sgd, {"sgdclassifier__alpha": loguniform(1e-6, 1e-1)},
                             budget=3 * n, max_subtrains=4, n_initial=max(2, n // 2), cv=3,
                             random_state=0).fit(X, y)
    logistic = make_pipeline(StandardScaler(), LogisticRegression())
    gpucb = GPUCBSelector(logistic, {"logisticregression__C": np.logspace(-4, 4, n).tolist()},
                          n_iter=3, cv=3, random_state=0).fit(X, y)
    return n, {"daub": daub, "mutant": mutant, "gpucb": gpucb}


def _drawn_names(display):
    """The candidates' labels a display drew, as Text artists."""
    if isinstance(display, (AllocationDisplay, PosteriorDisplay)):
        return _drawn_tick_labels(display.ax_.yaxis)
    if isinstance(display, SearchCurvesDisplay):
        return list(display.ax_.get_legend().get_texts())
    return list(display.labels_) + [display.ax_.title]


def _drawn_tick_labels(axis):
    """The tick labels with text at ticks within the axis' view."""
    low, high = sorted(axis.get_view_interval())
    return [label for which in (False, True)
            for loc, label in zip(axis.get_ticklocs(minor=which),
                                  axis.get_ticklabels(minor=which))
            if low <= loc <= high and label.get_visible() and label.get_text()]


def _no_two_overlap(texts, renderer):
    boxes = [t.get_window_extent(renderer) for t in texts]
    for i, a in enumerate(boxes):
        for j in range(i + 1, len(boxes)):
            assert not a.overlaps(boxes[j]), (texts[i].get_text(), texts[j].get_text())


@pytest.mark.parametrize("display, search", [
    (SearchCurvesDisplay, "daub"), (SearchCurvesDisplay, "mutant"),
    (AllocationDisplay, "daub"), (AllocationDisplay, "mutant"), (AllocationDisplay, "gpucb"),
    (PosteriorDisplay, "gpucb"), (FamilyTreeDisplay, "mutant"),
])
def test_displays_are_readable_with_many_candidates(many, display, search):
    """Labels apart and inside the figure, the legend off the data, names by the rule."""
    n, searches = many
    search = searches[search]
    shown = display.from_search(search)
    figure, ax = shown.figure_, shown.ax_
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    texts = _drawn_names(shown)
    ticks = [t for axis in (ax.xaxis, ax.yaxis) for t in _drawn_tick_labels(axis)]
    _no_two_overlap(ticks, renderer)
    _no_two_overlap(texts, renderer)
    inside = Bbox.from_bounds(0, 0, *figure.canvas.get_width_height())
    for text in texts + ticks + [ax.xaxis.label, ax.yaxis.label]:
        box = text.get_window_extent(renderer)
        assert inside.containsx(box.x0) and inside.containsx(box.x1), text.get_text()
    assert ax.get_xlabel() and ax.get_ylabel()
    legend = ax.get_legend()
    if legend is not None:
        assert not legend.get_window_extent(renderer).overlaps(ax.get_window_extent(renderer))
    # At most top_k names, and the others grouped, when there are more.
    names = [t.get_text().removeprefix("selected: ").removeprefix("Lineage of ")
             for t in texts]
    named = [name for name in names if RULE.match(name)]
    ids = {int(RULE.match(name).group(1)) for name in named}
    assert len(named) >= min(n, 3) if display is not FamilyTreeDisplay else named
    assert all("Pipeline" not in name for name in names)
    results = search.all_cv_results_
    row_name = dict(zip(results["candidate_id"], results["candidate_name"]))
    assert all(name == row_name[int(RULE.match(name).group(1))] for name in named
               if int(RULE.match(name).group(1)) in row_name)
    if display is SearchCurvesDisplay:
        others = len(np.unique(_used_ids(search))) - len(ids)
        assert len(ids) <= 10 and (others == 0 or f"{others} others" in names)
    elif display is AllocationDisplay:
        others = len(np.unique(results["candidate_id"])) - len(ids)
        assert len(ids) <= 20 and (others == 0 or f"{others} others, mean" in names)
    elif display is PosteriorDisplay:
        assert len(ids) == min(n, 20)
        assert (n <= 20) == ("not shown" not in ax.get_ylabel())


def _used_ids(search):
    results = search.all_cv_results_
    return results["candidate_id"][_used(results)]


# ------------------------------------------------------------------ long names
from scipy.stats import uniform  # noqa: E402

SGD_SPACE = {"sgdclassifier__alpha": loguniform(1e-6, 1e-1),
             "sgdclassifier__eta0": loguniform(1e-4, 1e-1),
             "sgdclassifier__l1_ratio": uniform(0, 1),
             "sgdclassifier__power_t": uniform(0.1, 0.8)}


@pytest.fixture(scope="module")
def long_names():
    """A Mutant-UCB search over four parameters: its names are longer than 60 characters."""
    X, y = load_iris(return_X_y=True)
    sgd = make_pipeline(StandardScaler(), SGDClassifier(
        penalty="elasticnet", learning_rate="adaptive", random_state=0))
    return MutantUCBSearch(sgd, SGD_SPACE, budget=60, max_subtrains=5, cv=3,
                           random_state=0).fit(X, y)


def _values(params):
    return [f"{params[key]:.3g}" for key in SGD_SPACE]


def _head(results, i):
    parent = results["parent_id"][i]
    return f"#{results['candidate_id'][i]}" + (f" (from #{parent})" if parent >= 0 else "")


def _inside_and_apart(figure, texts):
    """Every text inside the figure, and no two overlapping, as drawn."""
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    inside = Bbox.from_bounds(0, 0, *figure.canvas.get_width_height())
    for text in texts:
        box = text.get_window_extent(renderer)
        assert inside.containsx(box.x0) and inside.containsx(box.x1), text.get_text()
        assert inside.containsy(box.y0) and inside.containsy(box.y1), text.get_text()
    _no_two_overlap(texts, renderer)


def test_long_names_are_drawn_whole(long_names):
    results = long_names.cv_results_
    assert all(len(name) > 60 for name in results["candidate_name"])
    names = SearchCurvesDisplay.from_search(long_names).names
    ids = list(np.unique(results["candidate_id"]))
    for i, c in enumerate(results["candidate_id"]):
        alpha, eta0, l1_ratio, power_t = _values(results["params"][i])
        assert names[ids.index(c)] == (
            f"{_head(results, i)} SGDClassifier(alpha={alpha}, eta0={eta0}, "
            f"l1_ratio={l1_ratio}, power_t={power_t})")


def test_long_names_keep_the_values_and_share_the_rest(long_names):
    results = long_names.cv_results_
    row_of = {c: i for i, c in enumerate(results["candidate_id"])}
    curves = SearchCurvesDisplay.from_search(long_names)
    legend = curves.ax_.get_legend()
    assert legend.get_title().get_text() == "SGDClassifier: alpha, eta0, l1_ratio, power_t"
    selected = results["candidate_id"][long_names.best_index_]
    expected = {c: f"{_head(results, i)} {', '.join(_values(results['params'][i]))}"
                for c, i in row_of.items()}
    named = [line for line in curves.lines_ if not line.get_label().startswith("_")
             and line.get_label() != f"{len(row_of) - 10} others"]
    assert len(named) == 10
    for line in named:
        c = curves.candidate_ids[curves.lines_.index(line)]
        assert line.get_label() == ("selected: " if c == selected else "") + expected[c]
    _inside_and_apart(curves.figure_, list(legend.get_texts()) + [legend.get_title()])
    bars = AllocationDisplay.from_search(long_names)
    order = np.argsort(-np.asarray(bars.spent, dtype=float), kind="stable")
    ticks = [t.get_text() for t in bars.ax_.get_yticklabels()]
    assert ticks == [expected[bars.candidate_ids[i]] for i in order]
    assert bars.ax_.get_ylabel() == "Candidate: SGDClassifier: alpha, eta0, l1_ratio,\npower_t"
    _inside_and_apart(bars.figure_, _drawn_tick_labels(bars.ax_.yaxis) + [bars.ax_.yaxis.label])


@pytest.mark.parametrize("names, header, drawn", [
    # The estimator and the parameter all share go to the header; the others stay.
    (["#0 MLPClassifier(alpha=0.000154, hidden_layer_sizes=(32,), momentum=0.9)",
      "#4 (from #0) MLPClassifier(alpha=0.00377, hidden_layer_sizes=(32,), momentum=0.8)"],
     "MLPClassifier(hidden_layer_sizes=(32,))",
     ["#0 alpha=0.000154, momentum=0.9", "#4 (from #0) alpha=0.00377, momentum=0.8"]),
    # Still too long: the header names the parameters, the labels keep the values.
    (["#0 MLPClassifier(alpha=0.000154, hidden_layer_sizes=(32,), learning_rate_init=0.0123)",
      "#1 MLPClassifier(alpha=0.00377, hidden_layer_sizes=(64, 32), learning_rate_init=0.01)"],
     "MLPClassifier: alpha, hidden_layer_sizes,\nlearning_rate_init",
     ["#0 0.000154, (32,), 0.0123", "#1 0.00377, (64, 32), 0.01"]),
    # Short names, names of several estimators and names given: as they are.
    (["#0 SVC(C=1)", "#1 SVC(C=10)"], None, ["#0 SVC(C=1)", "#1 SVC(C=10)"]),
    (["#0 LogisticRegression(C=0.000154, class_weight='balanced', max_iter=500)",
      "#1 RandomForestClassifier(max_depth=4, min_samples_leaf=3)"], None, None),
    (["a logistic regression, regularised by C=0.000154, balanced classes",
      "a random forest of depth 4, at least three samples per leaf"], None, None),
])
def test_only_long_names_of_one_estimator_are_shortened(names, header, drawn):
    display = SearchCurvesDisplay(candidate_ids=[0, 1], resources=[[1, 2], [1, 2]],
                                  scores=[[0.5, 0.6], [0.4, 0.5]], selected=1,
                                  names=names).plot()
    legend = display.ax_.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == [
        f"selected: {(drawn or names)[1]}", (drawn or names)[0]]
    assert legend.get_title().get_text() == (header or "")


def _mlp(i, channels, alpha):
    return f"#{i} MLPClassifier(alpha={alpha}, hidden_layer_sizes=({channels},), momentum=0.9)"


@pytest.mark.parametrize("grey, qualified", [
    ([_mlp(2, 8, 0.0012), _mlp(3, 32, 0.0015)], True),  # other hidden_layer_sizes
    (["#2 SVC(C=1)"], True),  # another estimator
    ([_mlp(2, 32, 0.0012)], False),  # all share it
])
def test_the_header_claims_nothing_the_grey_curves_contradict(grey, qualified):
    names = [_mlp(0, 32, 0.000154), _mlp(1, 32, 0.00377)] + grey
    n = len(names)
    display = SearchCurvesDisplay(candidate_ids=list(range(n)), resources=[[1, 2]] * n,
                                  scores=[[0.5, 0.6], [0.4, 0.5]] + [[0.3, 0.4]] * len(grey),
                                  selected=1, names=names).plot(top_k=2)
    title = display.ax_.get_legend().get_title().get_text()
    shared = "MLPClassifier(hidden_layer_sizes=(32,),\nmomentum=0.9)"
    assert title == (f"top 2 of {n}:\n" if qualified else "") + shared
    assert qualified == any("MLPClassifier(" not in name or "(32,)" not in name
                            for name in grey)


def test_allocation_says_whose_the_header_is_when_the_grey_bar_differs():
    names = [_mlp(0, 32, 0.000154), _mlp(1, 32, 0.00377), _mlp(2, 8, 0.0012)]
    display = AllocationDisplay(candidate_ids=[0, 1, 2], spent=[6, 4, 2], grid_spent=6,
                                n_grid_candidates=3, names=names).plot(top_k=2)
    assert display.ax_.get_ylabel() == (
        "Candidate: the 2 that spent most of 3:\n"
        "MLPClassifier(hidden_layer_sizes=(32,),\nmomentum=0.9)")


def test_family_tree_of_a_long_lineage_keeps_labels_and_title_apart():
    """Nine generations of close scores (a 25-model search's lineage) and a long name."""
    scores = [0.938, 0.940, 0.940, 0.944, 0.947, 0.949, 0.951, 0.956, 0.960]
    changes = [{}] + [{"sgdclassifier__eta0": 0.00309}, {"sgdclassifier__alpha": 0.00162}] * 4
    name = ("#20 (from #19) SGDClassifier(alpha=0.00313, eta0=0.00732, l1_ratio=0.568, "
            "power_t=0.723)")
    display = FamilyTreeDisplay(lineage=[6, 9, 14, 15, 16, 17, 18, 19, 20], scores=scores,
                                changes=changes, model_name=name).plot()
    title = display.ax_.title
    assert title.get_text().replace("\n", " ") == f"Lineage of {name}"
    _inside_and_apart(display.figure_, list(display.labels_) + [title])
