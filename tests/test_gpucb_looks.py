"""GP-UCB's looks on subsamples: the observation a look stands for, drops, the selector's rows."""

import re

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline
from sklearn.tree import DecisionTreeClassifier

from sksel import GPUCBSelector
from sksel._core.simulate import simulate
from sksel.curves.gap_model import gap_features, shipped_model
from sksel.gpucb import GPUCBPolicy

N, LOOKS, N_VALIDATION = 2000, (74, 222, 666), 1000


def _policy(mean, sd, **kw):
    """Independent candidates, a stop at tol 0.01 and risk 0.1, looks at N/27, N/9, N/3."""
    mean = np.asarray(mean, dtype=float)
    return GPUCBPolicy(mean, np.diag(np.full(len(mean), sd**2)), tol=0.01, risk=0.1,
                       resource=N, looks=LOOKS, gap_model=shipped_model(),
                       n_validation=N_VALIDATION, random_state=0, **kw)


def _curves(finals):
    """Score at `n` rows of candidate `c`: its final score less a gap closing with the rows."""
    return lambda c, n: finals[c] - 0.1 * (1 - n / N)


def test_a_look_stands_for_the_leaders_score_plus_the_models_mean_gap():
    policy = _policy([0.85, 0.70, 0.70], sd=0.15)
    policy.tell(0, N, 0.86)
    assert policy.ask() == [(0, 74)]  # the leader's own look comes first
    policy.tell(0, 74, 0.80)
    (candidate, size), = policy.ask()
    assert size == 74 and candidate != 0
    policy.tell(candidate, 74, 0.77)
    features = gap_features([0.77], [0.80], [74], N, N_VALIDATION)
    mean, scale = shipped_model().mean_scale(features)
    low, high = np.quantile(shipped_model().residuals, [0.005, 0.995])
    var = (scale[0] * (high - low) / (2 * norm.isf(0.005))) ** 2
    # Its posterior is GP regression with that observation and variance noise^2 + var.
    y = np.array([0.86, 0.86 + mean[0]])
    noise = np.array([0.01**2, 0.01**2 + var])
    cov = np.diag(np.full(3, 0.15**2))
    A = [0, candidate]
    expected = policy.mean + cov[:, A] @ np.linalg.solve(cov[np.ix_(A, A)] + np.diag(noise),
                                                         y - policy.mean[A])
    np.testing.assert_allclose(policy.posterior()[0], expected)


@pytest.mark.parametrize("gap, dropped", [(-0.30, True), (0.0, False)])
def test_a_look_drops_a_candidate_exactly_below_the_threshold(gap, dropped):
    policy = _policy([0.85, 0.70, 0.70], sd=0.15)
    policy.tell(0, N, 0.86)
    policy.tell(*policy.ask()[0], 0.80)
    (candidate, size), = policy.ask()
    policy.tell(candidate, size, 0.80 + gap)
    probability = shipped_model().prob_above(
        gap_features([0.80 + gap], [0.80], [74], N, N_VALIDATION), 0.01)[0]
    assert (probability < policy.look_threshold) == dropped
    assert (candidate in policy.dropped_) == dropped
    # A dropped candidate is out of the stop's sum and is never evaluated in full.
    left = policy.probability_left()
    assert (left == policy.probability_left([c for c in (1, 2) if c != candidate])) == dropped


def test_looks_climb_the_ladder_and_the_best_is_evaluated_in_full():
    finals = np.array([0.80, 0.62, 0.90, 0.55, 0.58, 0.60])
    policy = _policy([0.80, 0.70, 0.70, 0.70, 0.70, 0.70], sd=0.15, settle=False)
    run = simulate(policy, _curves(finals))
    full = [c for c, n in policy.decisions_ if n == N]
    assert policy.best_ == 2 and 2 in full
    # Every look of a candidate came after the leader's at that size, and in increasing size.
    seen = {}
    for (c, n), *_ in run.events:
        if n != N:
            assert n > seen.get(c, 0)
            seen[c] = n
    assert policy.dropped_ and not policy.dropped_ & set(full)
    # What was dropped is far behind; what is evaluated in full is a contender.
    assert all(finals[c] < 0.7 for c in policy.dropped_)


def test_a_candidate_far_ahead_on_its_looks_is_selected_from_them():
    finals = np.array([0.79, 0.91, 0.86, 0.57, 0.88, 0.64])
    policy = _policy([0.83, 0.61, 0.68, 0.62, 0.72, 0.81], sd=0.15)
    simulate(policy, _curves(finals))
    full = [c for c, n in policy.decisions_ if n == N]
    assert policy.settled_ == policy.selection_ == 1 and 1 not in full
    # A full evaluation after looks checked the gap model first.
    assert policy.n_looks_checked_ >= 1 and not policy.looks_contradicted_
    # What it risks: the gap model's probability for every candidate looked at, 1 the leader,
    # and the posterior's stop term for the others; within risk.
    looks = policy.look_scores_
    others = [c for c in range(6) if c != 1 and c not in policy.dropped_]
    looked = [c for c in others if set(looks.get(c, {})) & set(looks[1])]
    expected = 0.0
    for c in looked:
        sizes = [n for n in LOOKS if n in looks[c] and n in looks[1]]
        expected += shipped_model().prob_above(gap_features(
            [looks[c][n] for n in sizes], [looks[1][n] for n in sizes], sizes, N,
            N_VALIDATION), 0.01)[0]
    rest = [c for c in others if c not in looked]
    expected += policy.probability_left(rest) if rest else 0.0
    assert policy.settled_by_looks(1) == pytest.approx(expected) and expected <= 0.1
    assert "selected from its looks" in policy.stop_reason()


def test_a_candidate_whose_looks_leave_doubt_is_evaluated_in_full():
    finals = np.array([0.80, 0.62, 0.90, 0.90, 0.58, 0.60])  # a rival as good
    policy = _policy([0.80, 0.70, 0.70, 0.70, 0.70, 0.70], sd=0.15)
    simulate(policy, _curves(finals))
    full = [c for c, n in policy.decisions_ if n == N]
    assert policy.settled_ is None and {2, 3} <= set(full) and policy.selection_ in (2, 3)


def test_without_looks_the_policy_is_the_one_before_looks():
    mean, cov = np.array([0.8, 0.75, 0.7, 0.72]), 0.01 * (0.5 * np.eye(4) + 0.5)
    finals = np.array([0.78, 0.8, 0.6, 0.7])
    plain = GPUCBPolicy(mean, cov, tol=0.01, risk=0.1, resource=N, random_state=0)
    off = GPUCBPolicy(mean, cov, tol=0.01, risk=0.1, resource=N, random_state=0, looks=(),
                      gap_model=shipped_model(), n_validation=N_VALIDATION)
    simulate(plain, finals)
    simulate(off, finals)
    assert plain.decisions_ == off.decisions_ and not off.look_scores_


def test_the_probability_that_a_look_drops_falls_with_the_posterior_mean():
    policy = _policy([0.85, 0.80, 0.70, 0.55], sd=0.1)
    policy.tell(0, N, 0.85)
    drops = [policy._dropped_by_look(c) for c in (1, 2, 3)]
    assert drops[0] < drops[1] < drops[2]


def test_the_same_looks_and_decisions_for_any_number_of_workers():
    finals = np.array([0.80, 0.62, 0.90, 0.55, 0.58, 0.60, 0.79])
    mean = [0.80, 0.70, 0.70, 0.70, 0.70, 0.70, 0.70]
    runs = [_policy(mean, sd=0.15) for _ in range(3)]
    for workers, policy in zip((1, 2, 4), runs):
        simulate(policy, _curves(finals), n_workers=workers)
    assert runs[0].decisions_ == runs[1].decisions_ == runs[2].decisions_


def test_a_free_worker_speculates_the_step_the_run_will_take_a_look_not_a_full_evaluation():
    """Before the leader's score is in, candidate 2 would go to all the rows; once it is in,
    the run looks at 2 first: the simulated runs take (2, 74), never (2, N)."""
    policy = _policy([0.85, 0.70, 0.70, 0.70], sd=0.15)
    assert policy._next_step(2) == (2, N)  # as things stand, with no leader yet
    assert policy.ask(2) == [(0, N), (2, LOOKS[0])]
    policy.tell(0, N, 0.86)
    assert policy.ask(1) == [(0, LOOKS[0])]  # the leader's own look, then 2's, running already
    policy.tell(0, LOOKS[0], 0.80)
    assert policy.next_decision == (2, LOOKS[0])


def test_workers_the_likely_steps_leave_idle_make_the_looks_the_run_will_need():
    """Past its likely steps, a free worker makes the first pick's looks at every size of
    a ladder, the smallest first (its looks are what the others' are compared with), then
    each other candidate's first look, the highest upper bound first; once the first pick
    leads, the next look of each; no full evaluation."""
    policy = _policy([0.85, 0.70, 0.69, 0.68], sd=0.15)
    handed = policy.ask(20)
    likely = policy._likely_picks()
    spare = [action for action in handed[1:] if action not in likely]
    assert handed[0] == (0, N) and len(set(handed)) == len(handed)
    assert spare == [(0, n) for n in LOOKS if (0, n) not in likely] + [
        (c, LOOKS[0]) for c in (1, 2, 3) if (c, LOOKS[0]) not in likely]
    policy.tell(0, N, 0.86)
    for n in LOOKS:
        policy.tell(0, n, 0.86 - 0.1 * (1 - n / N))
    for c in (1, 2, 3):
        policy.tell(c, LOOKS[0], 0.70)
    assert all(action[1] == LOOKS[1] for action in policy.ask(3)[1:])


def test_looks_made_side_by_side_leave_the_decisions_of_one_worker():
    finals = np.array([0.80, 0.62, 0.90, 0.55, 0.58, 0.60, 0.79])
    mean = [0.80, 0.70, 0.70, 0.70, 0.70, 0.70, 0.70]
    runs = {workers: _policy(mean, sd=0.15) for workers in (1, 8, 32)}
    for workers, policy in runs.items():
        simulate(policy, _curves(finals), n_workers=workers)
    assert runs[1].decisions_ == runs[8].decisions_ == runs[32].decisions_
    assert runs[1].selection_ == runs[32].selection_
    # The looks the run made were all handed out, many of them side by side.
    assert set(runs[1].decisions_) <= set(runs[32].history_)


def test_a_free_worker_starts_nothing_while_the_last_evaluation_the_run_needs_runs():
    """Once #1's full evaluation is in, the answer is known: while it runs, a free worker
    starts no look, neither the leader's (evaluated in full: its looks serve only the looks of
    others, which the run will not make) nor one of a candidate the stop leaves out."""
    policy = _policy([0.85, 0.84, 0.5, 0.45, 0.4], sd=0.1)
    policy.tell(*policy.ask()[0], 0.86)
    assert policy.ask(speculative=False) == [(1, N)]
    assert policy.ask(2, idle=True) == []
    policy.tell(1, N, 0.84)
    assert policy.done


def test_the_leader_evaluated_in_full_is_not_looked_at_where_no_candidate_will_be():
    """Candidates close to the leader go to all the rows (a look would rarely drop them):
    a look of the leader, whose full score is known, would serve none, and free workers
    take the full evaluations the run is likely to make instead."""
    policy = _policy([0.85, 0.86, 0.855, 0.858, 0.85, 0.852], sd=0.03)
    (leader, _), = policy.ask()
    policy.tell(leader, N, 0.86)
    assert not any(policy._looks_next(c) for c in range(6) if c != leader)
    assert policy.ask(speculative=False)[0][1] == N
    handed = policy.ask(3, idle=True)
    assert handed and all(resource == N for _, resource in handed)


def test_free_workers_look_at_no_candidate_the_stop_leaves_out():
    """Candidates 4 to 6, far below the leader, end more than tol above it with probabilities
    that sum to less than risk: the run stops without them once 1 to 3 are evaluated and
    none does better than expected, so no free worker looks at them."""
    policy = _policy([0.85, 0.80, 0.80, 0.80, 0.55, 0.5, 0.45], sd=0.1)
    policy.tell(*policy.ask()[0], 0.86)
    assert sum(policy.probability_left([c]) for c in (4, 5, 6)) <= policy.risk
    policy.ask(speculative=False)
    handed = {c for c, _ in policy.ask(12, idle=True)}
    assert {1, 2, 3} <= handed and not {4, 5, 6} & handed


def test_a_look_of_a_candidate_evaluated_in_full_is_only_ever_the_leaders():
    """Replayed on two workers, every look of a candidate whose full evaluation was told
    is the leader's at the time, at a size the run looks at another candidate."""
    finals = np.array([0.80, 0.62, 0.90, 0.55, 0.58, 0.60, 0.79])
    mean = [0.80, 0.70, 0.70, 0.70, 0.70, 0.70, 0.70]
    policy = _policy(mean, sd=0.15)
    told, leaders = set(), []
    original_tell, original_ask = policy.tell, policy.ask

    def tell(candidate, resource, *args, **kwargs):
        if resource == N:
            told.add(candidate)
        original_tell(candidate, resource, *args, **kwargs)

    def ask(*args, **kwargs):
        handed = original_ask(*args, **kwargs)
        leaders.extend((action, policy.best_) for action in handed
                       if action[1] != N and action[0] in told)
        return handed

    policy.tell, policy.ask = tell, ask
    simulate(policy, _curves(finals), n_workers=2)
    looked = {n for c, n in policy.decisions_ if n != N and c != policy.best_}
    assert all(candidate == leader and size in looked
               for (candidate, size), leader in leaders)


@pytest.mark.parametrize("look_cost, look_share, ladders", [
    # Rows only, on every fold: 0.037, 0.111, 0.333 of a full evaluation.
    (None, 0.5, [LOOKS, LOOKS]),
    (None, 0.4, [LOOKS[2:], LOOKS[2:]]),  # the largest first: 0.333, then 0.111 is too much
    # Candidate 0's fit is all overhead (the cheapest cost): each look costs a full evaluation
    # on one fold of five, 0.2; candidate 1's overhead is a tenth: 0.027, 0.042, 0.087.
    ([1.0, 10.0], 0.5, [LOOKS[1:], LOOKS]),
    ([1.0, 10.0], 0.1, [(), LOOKS[2:]]),
])
def test_a_candidate_looks_while_its_looks_cost_at_most_look_share(look_cost, look_share,
                                                                   ladders):
    folds = {} if look_cost is None else {"look_folds": 1, "n_folds": 5}
    policy = _policy([0.8, 0.7], sd=0.1, look_cost=look_cost, look_share=look_share, **folds)
    for candidate, ladder in enumerate(ladders):
        assert policy._ladder(candidate) == ladder
        prices = (np.array(LOOKS) / N if look_cost is None else 0.2 * np.minimum(
            np.array(LOOKS) / N + min(look_cost) / look_cost[candidate], 1.0))
        assert policy._look_ratio(candidate) == pytest.approx(
            sum(price for n, price in zip(LOOKS, prices) if n in ladder))
        assert policy._look_ratio(candidate) <= look_share


# ----------------------------------------------------------------- the selector
def _data():
    return make_classification(n_samples=3000, n_features=20, n_informative=6, random_state=0)


def _learners():
    return [LogisticRegression(max_iter=1000), GaussianNB(), DecisionTreeClassifier(
        max_depth=1, random_state=0), KNeighborsClassifier(1), DecisionTreeClassifier(
        max_depth=3, random_state=0)]


@pytest.fixture
def every_look(monkeypatch):
    """Looks priced by their rows only, as a learner whose fits cost in proportion to them: on
    one fold of three, the three sizes cost 0.16 of a full evaluation."""
    monkeypatch.setattr(GPUCBSelector, "_look_cost", lambda self, n_total: None)


def _selector(**kw):
    mean = np.array([0.85, 0.70, 0.70, 0.70, 0.70])
    return GPUCBSelector(_learners(), prior=(mean, np.diag(np.full(5, 0.15**2))),
                         cv=StratifiedKFold(3, shuffle=True, random_state=0), random_state=0,
                         looks=True, **kw)


def test_selector_looks_are_rows_of_their_own_never_selected_full_rows_equal_grid_search(
        every_look):
    X, y = _data()
    search = _selector().fit(X, y)
    results = pd.DataFrame(search.all_cv_results_)
    looks = results[results["look"]]
    assert search.n_looks_ == len(looks) > 0
    full = results[~results["look"]]
    assert set(looks["n_resources"]) <= {2000 // 27, 2000 // 9, 2000 // 3}
    assert (full["n_resources"] == 2000).all()
    best = search.cv_results_
    assert not best["look"][search.best_index_]
    assert best["n_resources"][search.best_index_] == 2000
    # Rows of candidates only looked at rank below every row on all the rows.
    ranks = pd.DataFrame(search.cv_results_)
    full_rows = ~ranks["look"] & (ranks["n_folds_run"] > 0)
    assert ranks.loc[ranks["look"], "rank_test_score"].min() > \
        ranks.loc[full_rows, "rank_test_score"].max()
    pipe = Pipeline([("estimator", _learners()[0])])
    grid = GridSearchCV(pipe, {"estimator": _learners()},
                        cv=StratifiedKFold(3, shuffle=True, random_state=0)).fit(X, y)
    for c, score in zip(full["candidate_id"], full["mean_test_score"]):
        if not np.isnan(score):
            assert score == pytest.approx(grid.cv_results_["mean_test_score"][c])


def test_selector_looks_are_the_same_for_any_n_jobs():
    X, y = _data()
    one, two = (_selector(n_jobs=n).fit(X, y) for n in (1, 2))
    for key in ("candidate_id", "n_resources", "look", "mean_test_score"):
        np.testing.assert_array_equal(one.cv_results_[key], two.cv_results_[key])
    assert one.best_index_ == two.best_index_


def test_selector_looks_cost_at_most_half_a_full_evaluation_even_if_rows_cost_nothing():
    """Looks on one fold, while their fits number at most half a full evaluation's: even
    where a fit costs the same whatever its rows, no candidate's looks cost more than half
    the evaluation they may spare."""
    X, y = _data()
    search = _selector(risk=1e-6).set_params(
        cv=StratifiedKFold(5, shuffle=True, random_state=0)).fit(X, y)
    results = pd.DataFrame(search.all_cv_results_)
    looks = results[results["look"]]
    assert len(looks) and (looks["n_folds_run"] == 1).all()
    assert (looks.groupby("candidate_id")["n_folds_run"].sum() <= 5 / 2).all()
    full = results[~results["look"] & ~results["first_look"]]
    assert (full["n_folds_run"] == 5).all()


@pytest.mark.parametrize("kwargs, match", [
    ({"n_iter": 3}, "looks=True needs a stop"),
    ({"asynchronous": True}, "looks=True needs .*asynchronous=False"),
])
def test_looks_true_where_looks_cannot_be_made_fails_before_any_fit(kwargs, match):
    X, y = _data()
    with pytest.raises(ValueError, match=match):
        _selector(**kwargs).fit(X, y)


def test_looks_auto_leaves_small_data_alone():
    X, y = _data()
    search = _selector().set_params(looks="auto").fit(X[:600], y[:600])
    assert search.n_looks_ == 0 and "look" not in search.cv_results_


# ------------------------------------------------------------------- the progress
class _FewRowsOnly(ClassifierMixin, BaseEstimator):
    """Gaussian naive Bayes on a look's few rows, the majority class on all the rows: its looks
    score above every full evaluation, its own full evaluation below."""

    def __init__(self, rows=700):
        self.rows = rows

    def fit(self, X, y):
        self.model_ = (GaussianNB() if len(X) <= self.rows else DummyClassifier()).fit(X, y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)


def _progress_lines(capsys):
    return [line for line in capsys.readouterr().out.splitlines()
            if line.startswith("[GPUCBSelector]")]


def test_progress_counts_full_evaluations_only_and_says_how_many_looks_dropped(capsys,
                                                                               every_look):
    X, y = _data()
    search = _selector(verbose=2, risk=1e-6).fit(X, y)  # runs until all are done or dropped
    lines = _progress_lines(capsys)
    dropped = len(search.policy_.dropped_)
    assert dropped and search.n_looks_ and search.n_iter_ + dropped == 5
    lines_of = [line for line in lines[1:-1] if "  dropped #" not in line]
    assert len(lines_of) == len(search.all_cv_results_["params"])
    # A full evaluation's line counts the full evaluations; a look's, the looks: a look is
    # not shown as one of the full evaluations.
    full = [int(re.match(r"\[GPUCBSelector\] used +(\d+)/<=5 ", line).group(1))
            for line in lines_of if " look=" not in line]
    looks = [int(re.match(r"\[GPUCBSelector\] look +(\d+) #", line).group(1))
             for line in lines_of if " look=" in line]
    assert full == list(range(1, search.n_iter_ + 1))
    assert looks == list(range(1, search.n_looks_ + 1))
    assert "looks on a subsample (74, 222, 666 rows) counted apart" in lines[0]
    assert lines[-1].startswith(f"[GPUCBSelector] done: {search.n_iter_} evaluations used "
                                f"({search.n_looks_} looks on a subsample; {dropped} candidates "
                                "dropped) in ")
    assert (f"(stopped: every candidate evaluated or dropped: {search.n_iter_} evaluated, "
            f"{dropped} dropped by looks)") in lines[-1]


def test_progress_best_is_the_best_full_evaluation_never_a_look(capsys, monkeypatch,
                                                                every_look):
    monkeypatch.setattr("sksel._core.progress._STATUS_EVERY_S", 0.0)
    monkeypatch.setattr("sksel._core.progress._tqdm", lambda: None)
    learners = _learners()
    learners[2] = _FewRowsOnly()
    X, y = _data()
    search = _selector(verbose=1).set_params(estimator=learners).fit(X, y)
    results = pd.DataFrame(search.all_cv_results_)
    full = results[~results["look"] & ~results["first_look"]]
    # A look of #2 scored above the leader's full evaluation, #0, the best one before #1's.
    assert results.loc[results["look"] & (results["candidate_id"] == 2),
                       "mean_test_score"].max() > full.loc[full["candidate_id"] == 0,
                                                           "mean_test_score"].item()
    shown = {(int(c), round(s, 4)) for c, s in zip(full["candidate_id"], full["mean_test_score"])}
    bests = [re.search(r"best (\d\.\d+) #(\d+) ", line).groups()
             for line in _progress_lines(capsys)[1:-1]]
    assert bests and all((int(c), float(s)) in shown for s, c in bests)
    assert float(bests[-1][0]) == round(search.best_score_, 4)


def _settled_selector(**kw):
    """Three learners evaluated in full after their looks (the gap model checked), then naive
    Bayes, far ahead on its look."""
    learners = [DecisionTreeClassifier(max_depth=1, random_state=0),
                DecisionTreeClassifier(max_depth=3, random_state=0), GaussianNB(),
                DummyClassifier(), LogisticRegression(max_iter=1000)]
    prior = (np.array([0.85, 0.72, 0.68, 0.6, 0.7]), np.diag(np.full(5, 0.15**2)))
    return GPUCBSelector(learners, prior=prior, cv=StratifiedKFold(3, shuffle=True,
                                                                   random_state=0),
                         random_state=0, looks=True, **kw)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_selector_selects_from_its_looks_what_they_settle_and_refits_it_on_all_rows(n_jobs):
    X, y = _data()
    search = _settled_selector(n_jobs=n_jobs).fit(X, y)
    every = pd.DataFrame(search.all_cv_results_)
    results = pd.DataFrame(search.cv_results_)
    best = results.loc[search.best_index_]
    # Naive Bayes, never cross-validated on all the rows, is selected from its look: its row
    # ranks first, says so, and holds the look's score.
    assert search.policy_.n_looks_checked_ >= 1
    assert best["candidate_id"] == 2 and best["look"] and best["settled_by_looks"]
    assert best["rank_test_score"] == 1 and best["n_resources"] == 2000 // 3
    assert not ((every["candidate_id"] == 2) & ~every["look"]).any()
    assert search.best_score_ == best["mean_test_score"]
    assert "selected from its looks" in search.policy_.stop_reason()
    # GridSearchCV over the five selects it too; the refit is on all the rows.
    pipe = Pipeline([("estimator", LogisticRegression())])
    grid = GridSearchCV(pipe, {"estimator": _settled_selector().estimator},
                        cv=StratifiedKFold(3, shuffle=True, random_state=0)).fit(X, y)
    assert grid.best_index_ == 2
    np.testing.assert_allclose(search.best_estimator_.theta_, GaussianNB().fit(X, y).theta_)


def test_selector_without_settle_cross_validates_the_candidate_before_selecting_it(
        monkeypatch):
    X, y = _data()
    original = GPUCBPolicy.__init__
    monkeypatch.setattr(GPUCBPolicy, "__init__",
                        lambda self, *a, **kw: original(self, *a, **{**kw, "settle": False}))
    search = _settled_selector().fit(X, y)
    best = pd.DataFrame(search.cv_results_).loc[search.best_index_]
    assert best["candidate_id"] == 2 and not best["look"] and best["n_resources"] == 2000


def _chance_on_looks(c, n):
    """Candidate 2 at chance on every subsample and best on all the rows (5-bit parity's
    learners); candidate 1 looks like the leader 0 on subsamples and ends far above it."""
    finals = {0: 0.80, 1: 0.95, 2: 0.99, 3: 0.60}
    if n == N:
        return finals[c]
    if c == 2:
        return 0.5
    return (0.80 if c == 1 else finals[c]) - 0.1 * (1 - n / N)


def test_a_full_score_beyond_the_gap_models_tails_sets_the_looks_aside():
    policy = _policy([0.85, 0.70, 0.75, 0.70], sd=0.15)
    simulate(policy, _chance_on_looks)
    full = [c for c, n in policy.decisions_ if n == N]
    assert policy.looks_contradicted_ and not policy.dropped_
    # Candidate 1's gap to the leader 0 lies beyond the model's 0.5% tails given their looks.
    low, high = np.quantile(shipped_model().residuals, [0.005, 0.995])
    looks = policy.look_scores_
    sizes = [n for n in LOOKS if n in looks[1] and n in looks[0]]
    mean, scale = shipped_model().mean_scale(gap_features(
        [looks[1][n] for n in sizes], [looks[0][n] for n in sizes], sizes, N, N_VALIDATION))
    assert not low <= (0.95 - 0.80 - mean[0]) / scale[0] <= high
    # Candidate 2, dropped at chance on its look, is a candidate again: evaluated and selected.
    assert full.index(2) > full.index(1) and policy.selection_ == 2
    assert all(n == N for c, n in policy.decisions_[policy.decisions_.index((1, N)):])


def test_without_the_check_the_learner_at_chance_on_its_looks_stays_dropped(monkeypatch):
    monkeypatch.setattr(GPUCBPolicy, "_set_looks_aside", lambda self: None)
    policy = _policy([0.85, 0.70, 0.75, 0.70], sd=0.15)
    simulate(policy, _chance_on_looks)
    assert 2 in policy.dropped_ and policy.selection_ == 1


def test_a_family_nothing_observed_keeps_a_floor_of_variance_in_the_stop():
    """Closed form: after candidate 0's score, the difference of candidate 2 (its family
    unobserved) to it keeps half of 2's prior variance; candidate 1 (0's family) does not."""
    mean = np.array([0.80, 0.78, 0.70])
    cov = 0.01 * np.array([[1.0, 0.95, 0.9], [0.95, 1.0, 0.9], [0.9, 0.9, 1.0]])
    kw = dict(noise=0.01, tol=0.01, risk=0.0, resource=N, random_state=0)  # never stops
    plain = GPUCBPolicy(mean, cov, **kw)
    floored = GPUCBPolicy(mean, cov, families=["trees", "trees", "nets"], family_floor=0.5,
                          **kw)
    for policy in (plain, floored):
        assert policy.ask() == [(0, N)]
        policy.tell(0, N, 0.80)
    # GP regression on the one observation, by hand.
    gain = cov[:, 0] / (cov[0, 0] + 0.01**2)
    post_mean = mean + gain * (0.80 - mean[0])
    post_cov = cov - np.outer(gain, cov[0])
    terms = []
    for c, floor in ((1, 0.0), (2, 0.5 * cov[2, 2])):
        var = post_cov[0, 0] + post_cov[c, c] - 2 * post_cov[0, c]
        terms.append(norm.cdf((post_mean[c] - post_mean[0] - 0.01) / np.sqrt(max(var, floor))))
    assert floored.probability_left() == pytest.approx(sum(terms))
    assert floored.probability_left() > plain.probability_left()
    # Once a look or an evaluation observes its family, the floor goes.
    for policy in (plain, floored):
        for score in (0.78, 0.70):
            (candidate, _), = policy.ask()
            policy.tell(candidate, N, score)
        assert set(policy.observed_) == {0, 1, 2}
    assert floored.probability_left([2]) == pytest.approx(plain.probability_left([2]))


def test_a_simulated_look_of_r2_scores_keeps_negative_scores():
    # R² may be below 0, as on a small subsample: a look the lookahead simulates against
    # a leader whose look scored -0.3, for a candidate with the leader's posterior mean,
    # centres on -0.3 rather than being held at 0 as an accuracy would be.
    policy = GPUCBPolicy(np.array([0.85, 0.70, 0.70]), np.diag(np.full(3, 0.15**2)), tol=0.01,
                         risk=0.1, resource=N, looks=LOOKS, gap_model=shipped_model("r2"),
                         n_validation=N_VALIDATION, random_state=0)
    assert policy.ask() == [(0, N)]
    policy.tell(0, N, 0.86)
    assert policy.ask() == [(0, 74)]  # the leader's own look comes first
    policy.tell(0, 74, -0.3)
    policy.mean = policy.mean.copy()
    policy.mean[1] = policy.posterior()[0][0]  # a priori level with the leader
    rng = np.random.RandomState(0)
    scores = np.array([policy._simulated_outcome((1, 74), rng).score for _ in range(2000)])
    assert scores.mean() == pytest.approx(-0.3, abs=0.05)
    assert scores.min() >= -1.0 and np.mean(scores < 0) > 0.75
