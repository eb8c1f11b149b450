"""The contract every policy and every search keeps: the conformance suite.

Policies (the sksel ones and the test-only ASHA) are run to their end on
synthetic learning curves by simulated workers (:func:`sksel._core.simulate.simulate`),
with random durations, so that results come in in many orders. Searches are
the cases of the registry (``_registry.py``), each fitted on small data and
compared with brute force: cross-validation of the same candidates, the same
search run another way, what its results say. A new policy joins
:data:`POLICIES`; a new search joins the registry.
"""

import contextlib
import io
import re
from collections import Counter
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd
import pytest
from _common import SlowKNN, SlowSGD
from _registry import CASES, CV3
from asha_policy import ASHAPolicy
from sklearn.base import clone
from sklearn.datasets import load_iris
from sklearn.model_selection import cross_validate
from test_checkpoint import _assert_same_results, _n_fits, _records
from test_search_face import _same_results

import sksel._core.progress as progress
from sksel import AllocationDisplay, BestScoreDisplay, SearchCurvesDisplay
from sksel._core.simulate import simulate
from sksel.curves.gap_model import shipped_model
from sksel.daub import DAUBPolicy, RungPolicy, rung_sizes
from sksel.gpucb import GPUCBPolicy
from sksel.kdpp import EvaluateAll
from sksel.mutant_ucb import MutantUCBPolicy

# ------------------------------------------------------------------ policies


def _quality(candidate):
    """A candidate's score with all the training, in [0.5, 0.9], for any id (mutants too)."""
    return 0.5 + 0.4 * ((candidate * 0.6180339887) % 1.0)


def _curve(candidate, resource):
    """A learning curve rising to the candidate's quality."""
    return _quality(candidate) - 2.0 / (10.0 + resource)


@dataclass(frozen=True)
class PolicyCase:
    """A policy on synthetic scores, and whether it promises the same decisions for any workers."""

    name: str
    make: Callable
    same_for_any_workers: bool

    def __str__(self):
        return self.name


_POSITIONS = np.arange(12)
_KERNEL = 0.01 * np.exp(-(_POSITIONS[:, None] - _POSITIONS[None]) ** 2 / 8.0)

POLICIES = [
    PolicyCase("daub", lambda: DAUBPolicy(8, [25, 50, 100, 200], bound="slope", stop="strict",
                                          tol=0.005), True),
    PolicyCase("daub_rungs", lambda: RungPolicy(9, rung_sizes(270, 9), model=shipped_model(),
                                                threshold=0.15, n_validation=100), True),
    PolicyCase("gpucb", lambda: GPUCBPolicy(np.full(12, 0.7), _KERNEL, n_iter=8, tol=0.01,
                                            resource=200, random_state=0), True),
    PolicyCase("gpucb_asynchronous", lambda: GPUCBPolicy(
        np.full(12, 0.7), _KERNEL, n_iter=8, resource=200, random_state=0, asynchronous=True),
        False),
    PolicyCase("mutant_ucb", lambda: MutantUCBPolicy(4, 16, max_subtrains=3, in_flight=4,
                                                     random_state=0), True),
    PolicyCase("evaluate_all", lambda: EvaluateAll(7, 200), True),
    PolicyCase("asha", lambda: ASHAPolicy(9, [20, 60, 180], eta=3), False),
]

def _fails(candidate):
    """Whether `candidate` fails at every resource, in the runs with failures: a third do."""
    return candidate % 3 == 1


class _Durations:
    """A random duration for every action, drawn once, from `seed`."""

    def __init__(self, seed):
        self.rng = np.random.RandomState(seed)
        self.drawn = {}

    def __call__(self, candidate, resource):
        if (candidate, resource) not in self.drawn:
            self.drawn[candidate, resource] = self.rng.uniform(0.5, 2.0)
        return self.drawn[candidate, resource]


def _run(case, n_workers, seed=0, failures=False):
    """``(policy, simulation)`` of a fresh policy of `case` run to its end."""
    def scores(candidate, resource):
        return np.nan if failures and _fails(candidate) else _curve(candidate, resource)

    policy = case.make()
    run = simulate(policy, scores, n_workers, durations=_Durations(seed))
    return policy, run


RUNS = [pytest.param(case, n_workers, failures,
                     id=f"{case}-{n_workers}w{'-failures' if failures else ''}")
        for case in POLICIES for n_workers in (1, 2, 4) for failures in (False, True)]


@pytest.mark.parametrize("case, n_workers, failures", RUNS)
def test_no_action_is_handed_out_twice_but_to_retry_a_failure(case, n_workers, failures):
    for seed in range(3):
        policy, run = _run(case, n_workers, seed, failures)
        assert [action for action, *_ in run.events] == policy.history_
        runs = {}
        for action, start, end, score in run.events:
            runs.setdefault(action, []).append((start, end, score))
        for action, spans in runs.items():
            for (_, end, score), (start, *_) in zip(spans, spans[1:]):
                assert end <= start, f"{action} handed out again while it ran"
                assert not np.isfinite(score), f"{action} handed out again after it succeeded"
        retried = [action for action, spans in runs.items() if len(spans) > 1]
        assert failures or not retried


@pytest.mark.parametrize("case", POLICIES, ids=str)
@pytest.mark.parametrize("n_workers", [1, 2, 4])
@pytest.mark.parametrize("failures", [False, True], ids=["", "failures"])
def test_a_done_policy_hands_out_nothing(case, n_workers, failures):
    for seed in range(3):
        policy, run = _run(case, n_workers, seed, failures)
        assert policy.done, "the run ended with the policy not done"
        handed_out = list(policy.history_)
        assert policy.ask() == [] and policy.ask(4) == [] and policy.ask(4, speculative=False) == []
        assert policy.history_ == handed_out and policy.done


@pytest.mark.parametrize("case", POLICIES, ids=str)
@pytest.mark.parametrize("n_workers", [1, 2, 4])
@pytest.mark.parametrize("failures", [False, True], ids=["", "failures"])
def test_decisions_are_actions_handed_out_and_told(case, n_workers, failures):
    for seed in range(3):
        policy, run = _run(case, n_workers, seed, failures)
        told = Counter(action for action, _, end, _ in run.events if end is not None)
        decided = Counter(policy.decisions_)
        assert decided, "no decision"
        assert not decided - told, f"decided, not told: {decided - told}"
        assert not decided - Counter(policy.history_)
        if failures:  # failures were told, and decided on
            assert any(_fails(c) for c, _ in decided)


@pytest.mark.parametrize("case", [c for c in POLICIES if c.same_for_any_workers], ids=str)
@pytest.mark.parametrize("failures", [False, True], ids=["", "failures"])
def test_decisions_do_not_depend_on_the_workers(case, failures):
    policy, run = _run(case, 1, failures=failures)
    assert policy.decisions_ == policy.history_  # one worker: nothing speculative
    for n_workers in (2, 4):
        for seed in range(3):
            other, _ = _run(case, n_workers, seed, failures)
            assert other.decisions_ == run.decisions, (n_workers, seed)


@pytest.mark.parametrize("case", [c for c in POLICIES if not c.same_for_any_workers], ids=str)
def test_the_workers_change_what_a_policy_without_the_promise_decides(case):
    """The simulated workers tell results in other orders: the check above could fail."""
    _, one = _run(case, 1)
    assert any(_run(case, n_workers, seed)[1].decisions != one.decisions
               for n_workers in (2, 4) for seed in range(3))


def _asha_promotion(events, promoted, start, sizes=(20, 60, 180), eta=3):
    """The promotion ASHA's rule makes at `start`, from the results told by then, or None."""
    told = [(action, score) for action, _, end, score in events
            if end is not None and end <= start]
    for rung in reversed(range(len(sizes) - 1)):
        scores = {c: s for (c, n), s in told if n == sizes[rung] and np.isfinite(s)}
        n_top = sum(n == sizes[rung] for (_, n), _ in told) // eta
        top = sorted(scores, key=lambda c: (-scores[c], c))[:n_top]
        free = [(c, sizes[rung + 1]) for c in top if (c, sizes[rung + 1]) not in promoted]
        if free:
            return free[0]
    return None


@pytest.mark.parametrize("n_workers", [1, 4])
@pytest.mark.parametrize("failures", [False, True], ids=["", "failures"])
def test_asha_promotes_the_top_of_a_rung_else_starts_a_candidate(n_workers, failures):
    """Each action against the rule, from the results told before it started."""
    for seed in range(3):
        policy, run = _run(POLICIES[-1], n_workers, seed, failures)
        promoted, new = set(), 0
        for action, start, _, _ in run.events:
            expected = _asha_promotion(run.events, promoted, start)
            if expected is None:
                assert action == (new, 20)
                new += 1
            else:
                assert action == expected
                promoted.add(action)
        assert new == 9 and _asha_promotion(run.events, promoted, np.inf) is None
        assert any(n == 180 for _, n in policy.decisions_)


# ------------------------------------------------------------------ searches


def _build(search, params):
    """A fresh estimator of the configuration `params` (as GridSearchCV would set it)."""
    if isinstance(search.estimator, list):
        step = "estimator"
        estimator = params[step]
        params = {k[len(step) + 2:]: v for k, v in params.items() if k != step}
    else:
        estimator = search.estimator
    return clone(estimator).set_params(**params)


@pytest.fixture(scope="module", params=CASES, ids=str)
def fitted(request):
    """``(case, X, y, search, printed)``: the case's search fitted at ``verbose=2``."""
    case = request.param
    X, y = case.data()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        search = case.build(verbose=2).fit(X, y, **case.fit_params)
    return case, X, y, search, out.getvalue()


def _full_rows(results):
    return np.flatnonzero(results["n_resources"] == np.max(results["n_resources"]))


def test_the_search_face(fitted):
    case, X, y, search, _ = fitted
    results, every = pd.DataFrame(search.cv_results_), pd.DataFrame(search.all_cv_results_)
    # A row per candidate; a candidate listed but not evaluated runs on no fold.
    evaluated = results[results["n_folds_run"] > 0]
    assert len(evaluated) == every["candidate_id"].nunique() == evaluated["candidate_id"].nunique()
    assert results.loc[results["n_folds_run"] == 0, "mean_test_score"].isna().all()
    assert len(every) == len(set(zip(every["candidate_id"], every["n_resources"])))
    best = search.best_index_
    assert results["rank_test_score"][best] == 1
    assert search.best_score_ == results["mean_test_score"][best]
    assert search.best_params_ == results["params"][best]
    # At the largest resource, the ranks of the rows run on every fold order their mean
    # scores; a row whose race of the folds ended early ranks below them; none beats rank 1.
    full = results.iloc[_full_rows(search.cv_results_)]
    full = full[np.isfinite(full["mean_test_score"])]
    complete = np.isfinite(full[[f"split{k}_test_score" for k in range(search.n_splits_)]]
                           .to_numpy(dtype=float)).all(axis=1)
    ranks = full["rank_test_score"].to_numpy()[complete]
    scores = full["mean_test_score"].to_numpy()[complete]
    np.testing.assert_array_equal(np.sign(ranks[:, None] - ranks[None]),
                                  np.sign(scores[None] - scores[:, None]))
    assert (full["rank_test_score"].to_numpy()[~complete] > ranks.max()).all()
    assert search.best_score_ >= full["mean_test_score"].max()
    np.testing.assert_array_equal(search.predict(X), search.best_estimator_.predict(X))
    assert search.score(X, y) == search.best_estimator_.score(X, y)
    if not case.trains_from_scratch:
        return
    fresh = _build(search, search.best_params_).fit(X, y)
    np.testing.assert_array_equal(search.predict(X), fresh.predict(X))
    # Rows trained on whole folds score as cross-validation of the same candidate, on the
    # folds they ran on.
    n_train = min(len(train) for train, _ in CV3.split(X, y))
    splits = [f"split{k}_test_score" for k in range(search.n_splits_)]
    rows = np.flatnonzero(results["n_resources"] == n_train)
    assert len(rows)
    for i in rows:
        expected = cross_validate(_build(search, results["params"][i]), X, y, cv=CV3)
        scores = results.loc[i, splits].to_numpy(dtype=float)
        run = np.isfinite(scores)
        assert run[0]
        np.testing.assert_allclose(scores[run], expected["test_score"][run], rtol=1e-12)


# Iris's 100-row training folds hold two of DAUB's subsample sizes, and lbfgs does not converge
# on its unscaled features in LogisticRegression's 100 iterations.
@pytest.mark.filterwarnings("ignore:The subsample sizes .* hold fewer than two:UserWarning")
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("case", [c for c in CASES if c.same_for_any_n_jobs], ids=str)
@pytest.mark.parametrize("dataset", ["generated", "iris"])
def test_cv_results_do_not_depend_on_n_jobs(case, dataset):
    X, y = case.data() if dataset == "generated" else load_iris(return_X_y=True)
    one = case.build(n_jobs=1).fit(X, y, **case.fit_params)
    two = case.build(n_jobs=2).fit(X, y, **case.fit_params)
    _same_results(one.cv_results_, two.cv_results_)
    assert repr(one.best_params_) == repr(two.best_params_)
    # Speculative evaluations are in all_cv_results_ only, marked, after the decided ones.
    every = two.all_cv_results_
    n_decided = int(np.sum(~every["speculative"]))
    assert not every["speculative"][:n_decided].any()
    np.testing.assert_array_equal(every["mean_test_score"][:n_decided],
                                  one.all_cv_results_["mean_test_score"])


@pytest.mark.parametrize("case", [c for c in CASES
                                  if c.trains_from_scratch and not c.same_for_any_n_jobs],
                         ids=str)
def test_an_evaluation_scores_alike_on_any_number_of_workers(case):
    """Where decisions follow the order results come in, an evaluation still does not."""
    X, y = case.data()
    rows = {}
    for n_jobs in (1, 2):
        search = case.build(n_jobs=n_jobs, refit=False).fit(X, y, **case.fit_params)
        results = search.all_cv_results_
        rows[n_jobs] = {(c, n): s for c, n, s in zip(
            results["candidate_id"], results["n_resources"], results["mean_test_score"])}
    common = rows[1].keys() & rows[2].keys()
    assert len(common) >= len(rows[1]) // 2
    assert {k: rows[1][k] for k in common} == {k: rows[2][k] for k in common}


@pytest.fixture
def _fresh_counters():
    for cls in (SlowKNN, SlowSGD):
        cls.n_fits, cls.delay, cls.interrupt_at = 0, 0.0, None
    yield
    for cls in (SlowKNN, SlowSGD):
        cls.n_fits, cls.delay, cls.interrupt_at = 0, 0.0, None


@pytest.mark.usefixtures("_fresh_counters")
@pytest.mark.parametrize("case", CASES, ids=str)
def test_interrupted_search_resumes_to_the_uninterrupted_results(case, tmp_path):
    X, y = case.data()
    counter = case.counter
    uninterrupted = case.counted().fit(X, y, **case.fit_params)
    total_fits = counter.n_fits

    counter.n_fits, counter.interrupt_at = 0, total_fits // 2
    with (pytest.warns(RuntimeWarning, match="interrupted"),
          pytest.warns(UserWarning, match="Ctrl-C ended the search")):
        case.counted(checkpoint=tmp_path).fit(X, y, **case.fit_params)
    recorded = _records(tmp_path)
    assert 0 < len(recorded) < len(uninterrupted.all_cv_results_["params"])

    counter.n_fits, counter.interrupt_at = 0, None
    resumed = case.counted(checkpoint=tmp_path).fit(X, y, **case.fit_params)
    _assert_same_results(resumed, uninterrupted)
    assert counter.n_fits == total_fits - _n_fits(recorded)  # no evaluation run again


def _used(search):
    results = search.all_cv_results_
    used = ~np.asarray(results["speculative"], dtype=bool)
    return {k: np.asarray(v)[used] for k, v in results.items() if k != "params"}


@pytest.fixture
def pyplot():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    yield plt
    plt.close("all")


@pytest.mark.usefixtures("pyplot")
def test_the_generic_displays(fitted):
    case, _, _, search, _ = fitted
    used = _used(search)
    ids = np.unique(used["candidate_id"])
    best = BestScoreDisplay.from_search(search)
    assert len(best.line_.get_xdata()) == len(used["candidate_id"])
    np.testing.assert_array_equal(best.line_.get_ydata(),
                                  np.fmax.accumulate(used["mean_test_score"]))
    if len(np.unique(used["n_resources"])) == 1:
        with pytest.raises(ValueError, match="at one resource"):
            SearchCurvesDisplay.from_search(search)
    else:
        curves = SearchCurvesDisplay.from_search(search)
        assert len(curves.lines_) == len(ids)
        # A model that goes on from its parent's training is drawn on its lineage's.
        x = used["n_resources_total"] if "n_resources_total" in used else used["n_resources"]
        for c, line in zip(ids, curves.lines_):
            np.testing.assert_array_equal(line.get_xdata(), x[used["candidate_id"] == c])
        selected = search.cv_results_["candidate_id"][search.best_index_]
        assert curves.selected_line_ is curves.lines_[list(ids).index(selected)]
    # What each candidate spent: its rows' resource (added, where models go on) times folds.
    every = search.all_cv_results_
    resource = np.asarray(every["n_resources"], dtype=float)
    if not case.trains_from_scratch:
        before = {}
        for i, (c, n) in enumerate(zip(every["candidate_id"], every["n_resources"])):
            resource[i], before[c] = n - before.get(c, 0), max(n, before.get(c, 0))
    folds = np.isfinite(np.stack([every[f"split{k}_test_score"]
                                  for k in range(search.n_splits_)])).sum(axis=0)
    all_ids = np.unique(every["candidate_id"])
    unused = np.asarray(every["speculative"], dtype=bool)
    spent, speculative = (np.array([(resource * folds)[(every["candidate_id"] == c) & rows].sum()
                                    for c in all_ids]) for rows in (~unused, unused))
    try:
        allocation = AllocationDisplay.from_search(search)
    except ValueError as refused:
        assert "every bar would be GridSearchCV's" in str(refused)
        assert len(np.unique(spent + speculative)) == 1
        assert len(all_ids) == len(every["candidate_id"])
    else:
        assert len(allocation.bars_) == len(all_ids)
        np.testing.assert_array_equal(allocation.spent, spent)
        # Speculative work the search never used is drawn apart, after what it used.
        np.testing.assert_array_equal(allocation.speculative, speculative)
        if unused.any():
            np.testing.assert_array_equal(
                [bar.get_x() for bar in allocation.speculative_bars_],
                [bar.get_width() for bar in allocation.bars_])


def _lines(text):
    return [line for line in text.splitlines() if line.strip()]


def test_verbose_two_names_every_evaluation(fitted):
    _, _, _, search, printed = fitted
    name = type(search).__name__
    lines = _lines(printed)
    every = search.all_cv_results_
    assert re.match(rf"\[{name}\] \d+ (candidates?|models? .*), 3-fold cv; ", lines[0])
    # A line per evaluation; a line of its own names the learners a DAUB rung dropped.
    evaluations = [line for line in lines[1:-1] if not re.match(r"\[\w+\] +dropped #", line)]
    assert len(evaluations) == len(every["params"])
    # The resource where evaluations differ in it (not for searches that train on all rows).
    shown = search._largest_resource() is not None
    named = [re.search(r"\] (?:used +\d+(?:/\S+)?|look +\d+| +) (#.+?) +"
                       r"(?:(?:rows|sub-trains|resource)=(\d+) +)?score=", line)
             for line in evaluations]
    assert all(named), evaluations
    assert all((m.group(2) is not None) == shown for m in named)
    resources = every["n_resources"].tolist() if shown else [None] * len(named)
    key = lambda row: (str(row[0]), row[1] or 0)
    assert sorted(((m.group(1), m.group(2) and int(m.group(2))) for m in named), key=key) == (
        sorted(zip(every["candidate_name"], resources), key=key))
    best = search.best_index_
    assert f"; selected {search.cv_results_['candidate_name'][best]}" in lines[-1]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_verbose_one_header_and_selected_candidate(case, monkeypatch):
    monkeypatch.setattr(progress, "_tqdm", lambda: None)
    X, y = case.data()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        search = case.build(verbose=1, refit=False).fit(X, y, **case.fit_params)
    lines = _lines(out.getvalue())
    name = type(search).__name__
    assert re.match(rf"\[{name}\] \d+ (candidates?|models? .*), 3-fold cv; ", lines[0])
    n_evaluations = len(search.all_cv_results_["params"])
    best = search.best_index_
    results = search.cv_results_
    unit = search._resource_unit
    at = "" if search._largest_resource() is None else (
        f" at {unit}={results['n_resources'][best]}")
    done = re.fullmatch(
        rf"\[{name}\] done: (\d+) evaluations? used(?: \((.+)\))? in \d+\.\ds \(stopped: .+\); "
        rf"selected {re.escape(results['candidate_name'][best])}{at}, "
        rf"score {search.best_score_:.4f}(?:, over .+'s higher \d\.\d{{4}} at .+, less "
        rf"training(?:, predicted \d\.\d{{4}} fully trained)?)?", lines[-1])
    assert done, lines[-1]
    # Evaluations that do not count against the total (GP-UCB's looks on a subsample and
    # unused speculative ones) are counted apart, in parentheses: together, every evaluation.
    others = [int(n) for n in re.findall(r"(\d+) (?:look|speculative)", done.group(2) or "")]
    assert int(done.group(1)) + sum(others) == n_evaluations
    assert all(re.match(rf"\[{name}\] \d+(/(<=)?\d+)? evaluations? used, ", line)
               for line in lines[1:-1])
