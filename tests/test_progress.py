"""The progress printed at each `verbose` level."""

import io
import re

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression, Perceptron, SGDClassifier
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import MinMaxScaler, StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

import sksel._core.progress as progress
from sksel import DAUBSearch, GPUCBSelector, KDPPSearch, MutantUCBSearch
from sksel._core.naming import ShortNames
from sksel._core.progress import Progress
from sksel.spaces import SearchSpace

CV3 = StratifiedKFold(3, shuffle=True, random_state=0)
C_GRID = {"C": [0.001, 0.01, 0.1, 1.0]}
LINE = re.compile(r"^\[DAUBSearch\] (?:used\s+(\d+)|\s+) (#(\d+) .+?)\s+rows=(\d+)\s+score=(\S+)"
                  r"\s+folds=[123]/3\s+bound=(\S+)(?:\s+(dropped|speculative))?"
                  r"\s+(?:best=\S+ #\d+|leader=#\d+ \S+ @\d+ rows)\s+\(\d+\.\ds\)(?:  \[.*\])?$")


@pytest.fixture(scope="module")
def data():
    return make_classification(n_samples=300, n_features=20, n_informative=6, n_redundant=2,
                               random_state=0)


@pytest.fixture
def no_tqdm(monkeypatch):
    monkeypatch.setattr(progress, "_tqdm", lambda: None)


def _daub(verbose, **kwargs):
    return DAUBSearch(LogisticRegression(), C_GRID, cv=CV3, b=20, random_state=0,
                      cost="rows", verbose=verbose, risk=0, **kwargs)


def _lines(capsys):
    return [line for line in capsys.readouterr().out.splitlines() if line.strip()]


def test_verbose_zero_prints_nothing(data, capsys):
    _daub(0).fit(*data)
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


def test_verbose_one_header_and_selected_candidate(data, capsys, no_tqdm):
    search = _daub(1).fit(*data)
    lines = _lines(capsys)
    n_max = 4 * len(search.sizes_)
    assert lines[0] == (
        f"[DAUBSearch] 4 candidates, 3-fold cv; no fixed count: stops once a candidate "
        f"reaches {search.sizes_[-1]} rows; at most {n_max} evaluations "
        f"(4 candidates x {len(search.sizes_)} sizes)")
    n_evals = len(search.all_cv_results_["params"])
    best = search.best_params_["C"]
    assert re.fullmatch(
        rf"\[DAUBSearch\] done: {n_evals} evaluations used in \d+\.\ds \(stopped: done\); "
        rf"selected #\d LogisticRegression\(C={best:.3g}\) at rows={search.sizes_[-1]}, "
        rf"score {search.best_score_:.4f}", lines[-1])
    # Plain status lines between them: the first evaluation, then every few seconds; the
    # best is the best learner on all the rows, and before one gets there the leader, the
    # best at the largest size reached.
    assert all(re.match(r"\[DAUBSearch\] \d+ evaluations? used, \d+\.\ds, (best|leader) "
                        r"0\.\d{4} #\d LogisticRegression\(C=\S+\) at rows=\d+", line)
               for line in lines[1:-1])
    assert len(lines) >= 3


def _tqdm_states(err):
    """The states a tqdm bar drew on `err`, the last one last."""
    return [state.strip() for state in re.split(r"[\r\n]", err) if state.strip()]


def test_verbose_one_tqdm_bar_ends_at_the_evaluations_made_with_no_time_left(data, capsys):
    """DAUB stops once a learner reaches N, far below the most it could run: the bar counts
    without a total, so that it ends at the evaluations made, and shows no time left."""
    pytest.importorskip("tqdm")
    search = _daub(1).fit(*data)
    captured = capsys.readouterr()
    n_evals = len(search.all_cv_results_["params"])
    # The bar is on stderr; stdout has the header and the final line only.
    assert len(captured.out.splitlines()) == 2
    # The most it could run is in the header, not the bar's total.
    assert f"at most {4 * len(search.sizes_)} evaluations" in captured.out
    states = _tqdm_states(captured.err)
    assert re.match(rf"DAUBSearch: {n_evals}eval \[\d\d:\d\d, .*best 0\.", states[-1])
    # No percentage, no total and no estimate of the time left (tqdm's "<mm:ss").
    assert not any(re.search(r"%|/\d+ |<\d\d:\d\d|at most", state) for state in states)


def test_verbose_two_one_line_per_evaluation(data, capsys):
    search = _daub(2).fit(*data)
    lines = _lines(capsys)[1:-1]
    results = search.all_cv_results_
    assert len(lines) == len(results["params"])
    rows = {(c, n): i for i, (c, n) in enumerate(zip(results["candidate_id"],
                                                     results["n_resources"]))}
    last_bound = {}
    for k, line in enumerate(lines, 1):
        match = LINE.match(line)
        assert match, line
        done, name, candidate, n, score, bound, _ = match.groups()
        assert int(done) == k
        # The line's id is the row's candidate_id, and its name is the row's candidate_name.
        row = rows[int(candidate), int(n)]
        assert name == f"#{candidate} LogisticRegression(C={C_GRID['C'][int(candidate)]:.3g})"
        assert name == results["candidate_name"][row]
        assert float(score) == pytest.approx(results["mean_test_score"][row], abs=5e-5)
        last_bound[row] = search.policy_.max_score if bound == "none" else float(bound)
    # The bound printed after a candidate's last evaluation is the policy's final one.
    for row, bound in last_bound.items():
        c = results["candidate_id"][row]
        if results["n_resources"][row] == max(n for (cc, n) in rows if cc == c):
            assert bound == pytest.approx(search.policy_.upper_bound(c), abs=5e-5)


def test_verbose_two_lines_name_the_leader_until_a_learner_reaches_n(data, capsys):
    """DAUB ranks its learners at every rung: until one reaches all the rows (N), a line
    names the leader, the learner with the best score at the largest size reached so far,
    with that score and size, rather than "best=none yet"; from the first score at N on,
    the best, as the search would select."""
    search = DAUBSearch([GaussianNB(), LogisticRegression(),
                         DecisionTreeClassifier(random_state=0), KNeighborsClassifier()],
                        cv=CV3, rungs="all", random_state=0, verbose=2).fit(*data)
    lines = [line for line in _lines(capsys)[1:-1] if " dropped #" not in line]
    results = search.all_cv_results_
    rows = {(c, n): i for i, (c, n) in enumerate(zip(results["candidate_id"],
                                                     results["n_resources"]))}
    full, seen, leaders = search.sizes_[-1], [], 0
    for line in lines:
        match = re.match(r"\[DAUBSearch\] used +\d+ #(\d+) .* rows=(\d+) .*  "
                         r"((?:best|leader)=.*?) +\(\d+\.\ds\)", line)
        assert match, line
        candidate, n, cell = int(match.group(1)), int(match.group(2)), match.group(3)
        seen.append((n, results["mean_test_score"][rows[candidate, n]], candidate))
        if any(size == full for size, _, _ in seen):
            assert cell.startswith("best="), line
            continue
        size, score, leader = max(seen)
        assert cell == f"leader=#{leader} {score:.4f} @{size} rows", line
        leaders += 1
    assert leaders >= 4  # the first rung, at least
    assert len({size for size, _, _ in seen}) == 3  # two rungs below N
    assert not any("none yet" in line for line in lines)


def test_bound_printed_is_the_same_whatever_n_jobs(data, capsys):
    """Each evaluation's line shows the bound from its curve up to it, in any arrival order."""
    printed = {}
    for n_jobs in (1, 2):
        _daub(2, n_jobs=n_jobs).fit(*data)
        matches = [LINE.match(line) for line in _lines(capsys)[1:-1]]
        printed[n_jobs] = {(m.group(3), m.group(4)): m.group(6) for m in matches}
    assert printed[1].keys() <= printed[2].keys()  # n_jobs=2 ran every one n_jobs=1 ran
    assert "pending" not in printed[1].values()
    known = {k: v for k, v in printed[2].items() if k in printed[1] and v != "pending"}
    assert known == {k: printed[1][k] for k in known}


def test_verbose_three_adds_sklearn_fold_lines(data, capsys):
    search = _daub(3).fit(*data)
    lines = _lines(capsys)
    cv_lines = [line for line in lines if line.startswith("[CV")]
    # One per fit: DAUB's curves below N run on one fold, N on all three
    # (fewer for a learner whose race of the folds ended early).
    results = search.all_cv_results_
    n_fits = sum(np.isfinite(results[f"split{i}_test_score"]).sum() for i in range(3))
    assert n_fits >= sum(3 if n == search.sizes_[-1] else 1
                         for n in results["n_resources"]) - 2 * len(search.policy_.folds_used_)
    assert len(cv_lines) == n_fits
    assert all(re.match(r"\[CV [123]/3\] END .*score=", line) for line in cv_lines)
    assert len([line for line in lines if LINE.match(line)]) == len(results["params"])


@pytest.mark.parametrize("make", [
    lambda: DAUBSearch([GaussianNB(), LogisticRegression(),
                        LogisticRegression(C=0.5, class_weight="balanced", tol=1e-3)],
                       cv=CV3, b=20, random_state=0, cost="rows", verbose=2, risk=0),
    lambda: KDPPSearch(LogisticRegression(), [{"C": [1.0]}, {
        "C": [0.5], "class_weight": ["balanced"], "fit_intercept": [False], "tol": [1e-3]}],
        n_iter=2, cv=CV3, random_state=0, verbose=2),
], ids=["daub", "kdpp"])
def test_verbose_two_columns_aligned_whatever_the_name_length(data, capsys, make):
    search = make().fit(*data)
    lines = _lines(capsys)[1:-1]
    names = set(search.all_cv_results_["candidate_name"])
    widest = max(map(len, names))
    assert widest - min(map(len, names)) > 30
    # The shortest name is padded to the longest: every column starts at one position.
    first_cell = [re.search(r"(rows|score)=", line).start() for line in lines]
    assert {i - line.index("#") for i, line in zip(first_cell, lines)} == {widest + 1}
    for column in ("rows=", "score=", "folds=", "bound=", "  ("):
        assert len({line.rfind(column) for line in lines}) == 1, column
    assert len({re.search(r"(best|leader)=", line).start() for line in lines}) == 1
    if isinstance(search, DAUBSearch):  # resources of 2 and 3 digits, one column
        assert len({len(str(n)) for n in search.all_cv_results_["n_resources"]}) == 2


def test_verbose_two_name_column_widens_from_a_longer_name_on():
    """A name longer than those known at the start (a mutant's) widens the column from then on."""
    out = io.StringIO()
    names = {0: "#0 A", 1: "#1 " + "B" * 30, 2: "#2 (from #1) " + "B" * 30}
    reporter = Progress(2, "S", names.__getitem__, n_candidates=2, n_splits=3, planned=10,
                        exact=False, unit="rows", max_resource=100, file=out)
    reporter.start()
    for candidate, resource in [(0, 5), (1, 100), (2, 5), (0, 100)]:
        reporter.evaluation(candidate, resource, 0.5, {"bound": 0.9})
    reporter.stop()
    lines = out.getvalue().splitlines()[1:]
    # "[S] used ", the count " 0/<=10" and a space: names start at 17.
    assert [line.index("#") for line in lines] == [17] * 4
    assert [line.index("rows=") for line in lines] == [17 + 34] * 2 + [17 + 44] * 2
    assert [line.index("score=") - line.index("rows=") for line in lines] == [
        len("rows=100  ")] * 4


def test_no_duplicate_engine_lines(data, capsys, no_tqdm):
    _daub(1).fit(*data)
    assert not any("candidate 0 at" in line for line in _lines(capsys))


@pytest.mark.parametrize("make, header", [
    (lambda: KDPPSearch(LogisticRegression(), {"C": [0.01, 0.1, 1, 10, 100]}, n_iter=3,
                        cv=CV3, random_state=0, verbose=2),
     "[KDPPSearch] 3 candidates, 3-fold cv; 3 evaluations planned"),
    (lambda: GPUCBSelector([GaussianNB(), DecisionTreeClassifier(random_state=0),
                            LogisticRegression()], prior="kernel", n_iter=2, cv=CV3,
                           random_state=0, verbose=2),
     "[GPUCBSelector] 3 candidates, 3-fold cv; 2 evaluations planned (n_iter) of the 3"),
])
def test_budget_of_other_searches(data, capsys, make, header):
    search = make().fit(*data)
    lines = _lines(capsys)
    assert lines[0] == header
    n_evals = len(search.all_cv_results_["params"])
    assert len(lines) == n_evals + 2
    assert re.match(rf"\[\w+\] used\s+{n_evals}/{n_evals} ", lines[-2])
    assert "selected" in lines[-1]


def test_mutant_ucb_counts_subtrains(data, capsys):
    from sklearn.linear_model import SGDClassifier

    search = MutantUCBSearch(SGDClassifier(random_state=0), {"alpha": [1e-4, 1e-3, 1e-2]},
                             budget=6, max_subtrains=3, cv=CV3, random_state=0,
                             verbose=2).fit(*data)
    lines = _lines(capsys)
    assert "budget 6 sub-trains" in lines[0]
    assert len(lines) == len(search.all_cv_results_["params"]) + 2


def test_short_names():
    space = SearchSpace([GaussianNB(), (LogisticRegression(), {"C": [0.1, 10.0]})])
    names = ShortNames(space.candidates, space.first_estimator)
    assert [names(c) for c in range(3)] == [
        "GaussianNB", "LogisticRegression(C=0.1)", "LogisticRegression(C=10)"]
    long = ShortNames([{"a_long_parameter_name": i, "another_long_one": i, "a_third_one": i}
                       for i in range(2)], SGDClassifier())
    assert long(0) == "SGDClassifier(a_long_parameter_name=0, a_third_one=0, another_long_one=0)"
    assert ShortNames([{"C": 1.0}], LogisticRegression())(0) == "LogisticRegression"


def test_short_names_follow_the_rule_for_pipelines_and_lists():
    from sklearn.linear_model import SGDClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    space = SearchSpace([make_pipeline(StandardScaler(), SGDClassifier(alpha=1e-4)),
                         make_pipeline(StandardScaler(), SGDClassifier(alpha=1e-3)),
                         GaussianNB(), GaussianNB(var_smoothing=1e-8)])
    names = ShortNames(space.candidates, space.first_estimator)
    # A Pipeline is named by its final step; what differs between estimators of
    # one class is shown, what they share (penalty, loss...) is not.
    assert [names(c) for c in range(4)] == [
        "SGDClassifier(alpha=0.0001)", "SGDClassifier(alpha=0.001)",
        "GaussianNB(var_smoothing=1e-09)", "GaussianNB(var_smoothing=1e-08)"]


def _scaled(clf):
    return Pipeline([("scale", StandardScaler()), ("clf", clf)])


def test_short_names_of_a_grid_of_pipeline_steps():
    """A candidate is named after the estimator it puts in the pipeline's final position."""
    space = SearchSpace(_scaled(LogisticRegression()), param_grid=[
        {"clf": [GaussianNB(), SVC(C=1.0), SVC(C=10.0)]},
        {"clf__C": [0.1, 10.0]},
        {"scale": [MinMaxScaler()], "clf": [GaussianNB()]},
    ])
    names = ShortNames(space.candidates, space.first_estimator)
    assert [names(c) for c in range(len(space.candidates))] == [
        "GaussianNB", "SVC(C=1)", "SVC(C=10)",
        "LogisticRegression(C=0.1)", "LogisticRegression(C=10)",
        "GaussianNB(scale=MinMaxScaler)"]


def test_short_names_of_nested_pipelines_and_pairs():
    nested = Pipeline([("scale", StandardScaler()), ("model", _scaled(LogisticRegression()))])
    space = SearchSpace(nested, param_grid=[
        {"model__clf": [SVC()], "model__clf__C": [0.1, 10.0]},
        {"model": [GaussianNB(), _scaled(SVC(kernel="linear"))]},
        {"model__scale": [MinMaxScaler()]},
    ])
    names = ShortNames(space.candidates, space.first_estimator)
    # The two SVCs in place differ in their kernel, which shows.
    assert [names(c) for c in range(len(space.candidates))] == [
        "SVC(kernel='rbf', C=0.1)", "SVC(kernel='rbf', C=10)", "GaussianNB",
        "SVC(kernel='linear')", "LogisticRegression(model__scale=MinMaxScaler)"]
    # A list of (pipeline, grid) pairs: the same rule under the virtual estimator step.
    space = SearchSpace([
        (_scaled(LogisticRegression()), {"clf": [GaussianNB(), SVC()]}),
        (_scaled(SVC()), {"clf__C": [0.1, 10.0], "scale": [MinMaxScaler()]}),
    ])
    names = ShortNames(space.candidates, space.first_estimator)
    assert [names(c) for c in range(len(space.candidates))] == [
        "GaussianNB", "SVC", "SVC(C=0.1, scale=MinMaxScaler)",
        "SVC(C=10, scale=MinMaxScaler)"]


PIPELINE_GRID = [{"clf": [GaussianNB()]}, {"clf": [SVC()], "clf__C": [0.1, 10.0]},
                 {"scale": [MinMaxScaler()], "clf__C": [0.1]}]
# Short names by (final estimator, C, scale) of the candidate.
PIPELINE_NAMES = {
    ("GaussianNB", None, None): "GaussianNB",
    ("SVC", 0.1, None): "SVC(C=0.1)",
    ("SVC", 10.0, None): "SVC(C=10)",
    ("LogisticRegression", 0.1, "MinMaxScaler"): "LogisticRegression(C=0.1, scale=MinMaxScaler)",
}
MUTANT_NAMES = {("SGDClassifier", 1e-4, None): "SGDClassifier(alpha=0.0001)",
                ("SGDClassifier", 1e-2, None): "SGDClassifier(alpha=0.01)",
                ("Perceptron", 1e-4, None): "Perceptron(alpha=0.0001)",
                ("Perceptron", 1e-2, None): "Perceptron(alpha=0.01)"}


def _pipeline_key(params):
    final = type(params.get("clf", LogisticRegression())).__name__
    value = params.get("clf__C", params.get("clf__alpha"))
    scale = type(params["scale"]).__name__ if "scale" in params else None
    return final, value, scale


@pytest.mark.parametrize("make, expected", [
    (lambda: DAUBSearch(_scaled(LogisticRegression()), PIPELINE_GRID, cv=CV3, b=20,
                        random_state=0, verbose=2, risk=0), PIPELINE_NAMES),
    (lambda: KDPPSearch(_scaled(LogisticRegression()), PIPELINE_GRID, n_iter=3, cv=CV3,
                        random_state=0, verbose=2), PIPELINE_NAMES),
    (lambda: GPUCBSelector(_scaled(LogisticRegression()), PIPELINE_GRID, n_iter=3, cv=CV3,
                           random_state=0, verbose=2), PIPELINE_NAMES),
    (lambda: MutantUCBSearch(
        _scaled(SGDClassifier(random_state=0)),
        {"clf": [SGDClassifier(random_state=0), Perceptron(random_state=0)],
         "clf__alpha": [1e-4, 1e-2]},
        budget=12, max_subtrains=3, init="k-dpp", cv=CV3, random_state=0, verbose=2),
     MUTANT_NAMES),
], ids=["daub", "kdpp", "gpucb", "mutant_ucb"])
def test_pipeline_candidates_named_by_their_final_estimator(data, capsys, make, expected):
    """Results rows and verbose=2 lines name a grid of steps by the estimator in place."""
    search = make().fit(*data)
    results = search.all_cv_results_
    parents = results.get("parent_id", np.full(len(results["params"]), -1))
    for c, parent, params, name in zip(results["candidate_id"], parents, results["params"],
                                       results["candidate_name"]):
        lineage = f" (from #{parent})" if parent >= 0 else ""
        assert name == f"#{c}{lineage} {expected[_pipeline_key(params)]}"
    printed = [re.search(r"\] used +\S+ (#.+?) +(?:rows|sub-trains|score)=", line).group(1)
               for line in _lines(capsys)[1:-1]]
    assert sorted(printed) == sorted(results["candidate_name"])


@pytest.mark.parametrize("make", [
    lambda: _daub(2),
    lambda: MutantUCBSearch(make_pipeline(StandardScaler(), SGDClassifier(random_state=0)),
                            {"sgdclassifier__alpha": [1e-4, 1e-3, 1e-2]}, budget=12,
                            max_subtrains=3, cv=CV3, random_state=0, verbose=2),
    lambda: KDPPSearch(LogisticRegression(), {"C": [0.01, 0.1, 1, 10, 100]}, n_iter=3, cv=CV3,
                       random_state=0, verbose=2),
    lambda: GPUCBSelector([GaussianNB(), make_pipeline(StandardScaler(), LogisticRegression())],
                          n_iter=2, cv=CV3, random_state=0, verbose=2),
], ids=["daub", "mutant_ucb", "kdpp", "gpucb"])
def test_verbose_two_lines_and_results_rows_name_candidates_alike(data, capsys, make):
    """A line's name is the candidate_name of the row of its id: #id, (from #parent), name."""
    search = make().fit(*data)
    results = search.all_cv_results_
    row_name = {(int(c), int(n)): name for c, n, name in zip(
        results["candidate_id"], results["n_resources"], results["candidate_name"])}
    parents = results.get("parent_id", np.full(len(results["params"]), -1))
    printed = [re.search(r"\] used +\d+(?:/\S+)? (#(\d+)(?: \(from #(\d+)\))? (\w+).*?) +"
                         r"(?:(?:rows|sub-trains|resource)=(\d+) +)?score=", line)
               for line in _lines(capsys)[1:-1]]
    assert len(printed) == len(results["params"]) and all(printed)
    for match in printed:
        name, candidate, parent, estimator, n = match.groups()
        if n is None:  # a search that trains every candidate on all the rows shows no resource
            assert search._largest_resource() is None
            n = results["n_resources"][list(results["candidate_id"]).index(int(candidate))]
        assert name == row_name[int(candidate), int(n)]
        row = list(results["candidate_id"]).index(int(candidate))
        assert int(parent or -1) == parents[row]
        assert "Pipeline" not in name
        step = search.all_cv_results_["params"][row].get("estimator", search.estimator)
        while hasattr(step, "steps"):
            step = step.steps[-1][1]
        assert estimator == type(step).__name__


# ---------------------------------------------- what the lines say, and where terms are


def test_verbose_two_bound_says_none_where_the_curve_sets_no_bound(data, capsys):
    """A bound at the score's maximum bounds nothing: the line says "none", not 1.0000."""
    search = _daub(2).fit(*data)
    lines = [LINE.match(line) for line in _lines(capsys)[1:-1]]
    policy = search.policy_
    for match in lines:
        candidate, n, bound = int(match.group(3)), int(match.group(4)), match.group(6)
        at_use = policy.bound_at(candidate, n)
        assert bound == ("none" if at_use >= policy.max_score else f"{at_use:.4f}")
    assert any(m.group(6) == "none" for m in lines) and not any(
        m.group(6) == f"{policy.max_score:.4f}" for m in lines)


def test_verbose_two_counts_the_evaluations_used_and_marks_the_others_speculative(data, capsys):
    """With idle workers, the lines of the evaluations the search used count them one by one,
    in the order it used them; those it never used come last, marked "speculative" and not
    counted; the glossary is named on the first line of each term."""
    search = _daub(2, n_jobs=2).fit(*data)
    lines = _lines(capsys)
    final, lines = lines[-1], lines[1:-1]
    matches = [LINE.match(line) for line in lines]
    assert all(matches)
    results = search.all_cv_results_
    speculative = [m.group(7) == "speculative" for m in matches]
    assert speculative == sorted(speculative)  # the speculative lines last
    used = [m for m, spec in zip(matches, speculative) if not spec]
    assert [int(m.group(1)) for m in used] == list(range(1, len(used) + 1))
    assert all(m.group(1) is None for m, spec in zip(matches, speculative) if spec)
    # The lines used are the results rows used, in the order the search used them.
    shown = [(int(m.group(3)), int(m.group(4))) for m in used]
    rows = [(c, n) for c, n, spec in zip(results["candidate_id"], results["n_resources"],
                                         results["speculative"]) if not spec]
    assert shown == rows
    assert sum(speculative) == sum(results["speculative"])
    others = f" \\({sum(speculative)} speculative, not used\\)" if any(speculative) else ""
    assert re.match(rf"\[DAUBSearch\] done: {len(used)} evaluations used{others} in ", final)
    for term, shown in (("bound", ["bound=" in line for line in lines]),
                        ("speculative evaluation", speculative)):
        told = [f"[{term}" in line or f", {term}" in line for line in lines]
        assert told.count(True) == (1 if any(shown) else 0)
        if any(shown):
            assert told[shown.index(True)] and "glossary" in lines[shown.index(True)]


def test_verbose_two_gpucb_counts_what_it_used_when_it_used_it(data, capsys):
    """GP-UCB on two workers: a speculative evaluation that finishes before the pick it waits
    for is reported once the search uses it, counted and not called speculative; the lines
    count the evaluations used one by one, the lines of those never used are marked
    speculative, and the final line's numbers are those of the lines above it."""
    from _common import NappingTree

    # Candidate 0 leads the prior and is evaluated first, slowly; a free worker meanwhile
    # evaluates the likeliest next picks, which come in first.
    learners = [NappingTree(nap=0.4, max_depth=4)] + [NappingTree(max_depth=d)
                                                      for d in (1, 2, 3, 5, 6)]
    mean = np.array([0.9, 0.85, 0.84, 0.83, 0.82, 0.81])
    cov = 0.003 * (0.3 + 0.7 * np.eye(6))
    search = GPUCBSelector(learners, prior=(mean, cov), cv=CV3, random_state=0, verbose=2,
                           n_jobs=2).fit(*data)
    lines = _lines(capsys)
    final, lines = lines[-1], lines[1:-1]
    policy = search.policy_
    pattern = re.compile(r"^\[GPUCBSelector\] (?:used\s+(\d+)/<=6|\s+) (#\d+) .+?\s+score=\S+"
                         r"\s+folds=(\d)/3(  first look)?(  dropped|  speculative)?\s+best=")
    matches = [pattern.match(line) for line in lines]
    assert all(matches), lines
    used = [m for m in matches if m.group(1) is not None]
    speculative = [m for m in matches if m.group(1) is None]
    assert [int(m.group(1)) for m in used] == list(range(1, len(used) + 1))
    assert all(m.group(5) == "  speculative" for m in speculative)
    # The used lines are the evaluations of the search's decisions, the others the
    # speculative rows of all_cv_results_.
    results = search.all_cv_results_
    names = results["candidate_name"]
    assert sorted(m.group(2) for m in used) == sorted(
        name.split()[0] for name, spec in zip(names, results["speculative"]) if not spec)
    assert sorted(m.group(2) for m in speculative) == sorted(
        name.split()[0] for name, spec in zip(names, results["speculative"]) if spec)
    assert len(used) == policy.n_evaluations_ == len(policy.decisions_)
    # A speculative evaluation came in before the pick it waited for, and was used.
    assert any(action in policy.decisions_[1:] for action in policy.history_[1:2])
    # A first look is marked with the folds the search used, as the stop reason counts it.
    looks = [m for m in used if m.group(4)]
    assert len(looks) == len(policy.folds_used_)
    assert all(m.group(5) == "  dropped" and int(m.group(3)) < 3 for m in looks)
    assert re.match(rf"\[GPUCBSelector\] done: {len(used)} evaluations used", final)
    said = re.search(r"(\d+) of them first looks", final)
    assert int(said.group(1)) == len(looks) if said else True
    assert (f"{len(speculative)} speculative, not used" in final) == bool(speculative)


def test_verbose_two_gpucb_lines_show_no_resource_and_mark_first_looks(data, capsys):
    """Every candidate is trained on all the rows: no resource column; a first look says so
    with the folds it ran, as its row of cv_results_ does."""
    from sksel.gpucb.portfolio import default_portfolio

    learners = [est for _, est in default_portfolio()][:10]
    search = GPUCBSelector(learners, cv=CV3, random_state=0, verbose=2).fit(*data)
    lines = _lines(capsys)
    assert not any("resource=" in line or " at 200" in line for line in lines)
    res = search.cv_results_
    looks = {res["candidate_name"][i]: res["n_folds_run"][i]
             for i in np.flatnonzero(res["first_look"])}
    assert looks
    marked = {re.search(r"(#\d+ .+?)\s+score=", line).group(1): line
              for line in lines[1:-1] if "first look" in line}
    assert marked.keys() == looks.keys()
    for name, line in marked.items():
        assert f"folds={looks[name]}/3" in line


def test_verbose_one_status_lines_count_the_evaluations_made_with_no_time_left(
        data, capsys, no_tqdm, monkeypatch):
    """Without tqdm, the status lines count DAUB's evaluations without a total and promise
    no time left (the mean evaluation so far says little of the last ones, on N)."""
    monkeypatch.setattr("sksel._core.progress._STATUS_EVERY_S", 0.0)
    search = _daub(1).fit(*data)
    lines = _lines(capsys)
    status = lines[1:-1]
    n_evals = len(search.all_cv_results_["params"])
    assert len(status) == n_evals
    for k, line in enumerate(status, 1):
        assert re.match(rf"\[DAUBSearch\] {k} evaluations? used, \d+\.\ds, (best|leader) ",
                        line)
        assert "left" not in line
    assert lines[-1].startswith(f"[DAUBSearch] done: {n_evals} evaluations used in ")


def test_mutant_ucb_header_names_the_models_it_starts(data, capsys):
    from sklearn.linear_model import SGDClassifier

    # n_initial="auto" with a budget of 6 and 3 sub-trains a model: at most
    # 6 - 3 + 1 = 4 models can get a sub-train each and one be finished.
    search = MutantUCBSearch(SGDClassifier(random_state=0), {"alpha": [1e-4, 1e-3, 1e-2]},
                             budget=6, max_subtrains=3, cv=CV3, random_state=0,
                             verbose=2).fit(*data)
    assert _lines(capsys)[0] == (
        "[MutantUCBSearch] 4 models to start and mutants of the best, 3-fold cv; budget 6 "
        "sub-trains; a model ranks by the mean of its scores; fully trained: "
        "3 sub-trains of 1 pass (max_iter=3)")
    assert len(search.cv_results_["params"]) >= 4


class _Predicting:
    """A policy whose leader was told a higher score at less training than the selection."""

    def leader(self):
        return (0.7995, 0, 6)

    def predicted(self, candidate):
        return {0: 0.7901}[candidate]

    def describe(self, candidate, resource):
        return None


def test_final_line_says_why_a_higher_score_at_less_training_was_passed_over():
    out = io.StringIO()
    names = {0: "#0 A", 2: "#2 B"}
    reporter = Progress(1, "S", names.__getitem__, n_candidates=3, n_splits=3, unit="sub-trains",
                        max_resource=10, file=out)
    reporter.start()
    reporter.stop()
    reporter.best = _Predicting().leader()
    reporter.policy = _Predicting()
    reporter.close("done", best=(2, 10, 0.7950))
    assert out.getvalue().splitlines()[-1].endswith(
        "selected #2 B at sub-trains=10, score 0.7950, over #0 A's higher 0.7995 at "
        "sub-trains=6, less training, predicted 0.7901 fully trained")
    # Selecting the model that scored highest says nothing more.
    out.truncate(0)
    reporter.close("done", best=(0, 6, 0.7995))
    assert out.getvalue().rstrip().endswith("score 0.7995")
