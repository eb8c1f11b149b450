"""MutantUCBPolicy without any estimator: traces, regret, caps, mutation rate.

Rewards are tables or Bernoulli draws, so every decision can be checked
against hand-worked numbers or a known distribution (Brégère and Keisler,
2024, Algorithms 1 and 2).
"""

import numpy as np
import pytest
from scipy import stats

from sksel._core.simulate import simulate
from sksel.mutant_ucb import MutantUCBPolicy
from sksel.mutant_ucb.clock import SubtrainClock


def run(policy, reward):
    """Drive `policy` one action at a time; ``reward(model, n)`` gives the score."""
    simulate(policy, reward)
    assert policy.done
    return policy


# ------------------------------------------------------------------- ∞-UCB-E


REWARDS = {0: [0.50, 0.70, 0.72], 1: [0.60, 0.58, 0.57], 2: [0.40, 0.90, 0.90]}


def table(k, n):
    """REWARDS, the last value repeated."""
    return REWARDS[k][min(n, 3) - 1]


def test_ucb_e_hand_computed_trace():
    # E = 0.05: bonus sqrt(0.05 / N) = 0.2236, 0.1581, 0.1291 for N = 1, 2, 3.
    # t=4: UCB 0.724, 0.824, 0.624 -> 1 (0.58; mu_1 = 0.590)
    # t=5: 0.724, 0.590 + 0.158 = 0.748, 0.624 -> 1 (0.57; mu_1 = 0.583)
    # t=6: 0.724, 0.583 + 0.129 = 0.712, 0.624 -> 0 (0.70; mu_0 = 0.600)
    # t=7: 0.600 + 0.158 = 0.758, 0.712, 0.624 -> 0 (0.72; mu_0 = 0.640)
    policy = MutantUCBPolicy(3, budget=7, exploration=0.05, mutation=False, random_state=0)
    run(policy, table)
    assert policy.history_ == [(0, 1), (1, 1), (2, 1), (1, 2), (1, 3), (0, 2), (0, 3)]
    assert policy.decisions_ == policy.history_
    assert policy.best_ == 0
    assert policy.mu(0) == pytest.approx(0.64)
    assert policy.parents_ == [-1, -1, -1]
    # Model 2 was never pulled again: its one low score hides its 0.90.
    assert policy.upper_bound(2) == pytest.approx(0.40 + np.sqrt(0.05))


def test_reward_last_follows_the_last_score():
    # Greedy (E = 0). Model 1 starts at 0.60 and drops to 0.45: by the mean
    # (0.525) it still leads model 0 (0.50); by the last score it does not.
    rewards = {0: [0.50] * 4, 1: [0.60, 0.45, 0.45, 0.45]}
    greedy = dict(exploration=0.0, mutation=False, random_state=0)
    mean = run(MutantUCBPolicy(2, budget=4, reward="mean", **greedy),
               lambda k, n: rewards[k][n - 1])
    last = run(MutantUCBPolicy(2, budget=4, reward="last", **greedy),
               lambda k, n: rewards[k][n - 1])
    assert mean.history_ == [(0, 1), (1, 1), (1, 2), (1, 3)]
    assert last.history_ == [(0, 1), (1, 1), (1, 2), (0, 2)]


def test_scale_range_makes_exploration_unit_free():
    """Scores times 1000 with scale="range" take the same steps as the originals."""
    def rewards(factor):
        return lambda k, n: factor * table(k, n)

    unit = run(MutantUCBPolicy(3, budget=7, mutation=False, scale="range"), rewards(1.0))
    big = run(MutantUCBPolicy(3, budget=7, mutation=False, scale="range"), rewards(1000.0))
    assert big.history_ == unit.history_
    # With the paper's unit scale, the same E explores on [0, 1] scores (the
    # hand-computed trace) and not at all on scores in the thousands.
    fixed = [run(MutantUCBPolicy(3, budget=7, mutation=False, scale=1.0), rewards(factor))
             for factor in (1.0, 1000.0)]
    assert fixed[0].history_ != fixed[1].history_
    assert fixed[1].history_ == [(0, 1), (1, 1), (2, 1), (1, 2), (1, 3), (1, 4), (1, 5)]


def _bernoulli_regret(budget, seeds):
    """Mean simple regret of ∞-UCB-E, Theorem 3.4's setting: mu_k ~ U[0, 1]."""
    regrets = []
    n_initial = max(2, round(budget ** 0.4))
    exploration = 25 / 36 * (budget - n_initial) / n_initial**5  # delta = 1 / K
    for seed in range(seeds):
        rng = np.random.RandomState(seed)
        means = rng.uniform(size=n_initial)
        policy = MutantUCBPolicy(n_initial, budget, exploration=exploration, mutation=False,
                                 random_state=seed)
        run(policy, lambda k, n: float(rng.uniform() < means[k]))
        regrets.append(1.0 - means[policy.best_])
    return np.mean(regrets), np.std(regrets) / np.sqrt(seeds)


def test_ucb_e_regret_falls_as_the_budget_grows():
    regret = [_bernoulli_regret(budget, seeds=200) for budget in (20, 80, 320)]
    means = [m for m, _ in regret]
    assert means[0] > means[1] > means[2]
    # Beyond noise: two standard errors between the ends.
    assert means[0] - means[2] > 2 * np.hypot(regret[0][1], regret[2][1])


# --------------------------------------------------------------- Mutant-UCB


def _random_run(seed, budget=400, n_initial=10, max_subtrains=5, max_lineage_subtrains=None):
    rng = np.random.RandomState(seed)
    quality = {}
    policy = MutantUCBPolicy(n_initial, budget, max_subtrains=max_subtrains,
                             max_lineage_subtrains=max_lineage_subtrains,
                             exploration=0.05, random_state=seed)
    log = []
    trained = {}
    while not policy.done:
        (model, n), = policy.ask()
        parent = policy.parents_[model]
        if model not in quality:
            base = rng.uniform(0.3, 0.9) if parent < 0 else quality[parent]
            quality[model] = float(np.clip(base + rng.normal(0, 0.03), 0, 1))
        log.append((model, n, parent, trained.get(parent, 0), trained.get(model, 0)))
        policy.tell(model, n, quality[model] + 0.02 * np.log(n) + rng.normal(0, 0.01))
        trained[model] = n
    return policy, log


@pytest.mark.parametrize("seed", range(5))
def test_budget_and_sub_train_cap(seed):
    policy, _ = _random_run(seed)
    # The loop goes on while the budget left can finish the best model so far
    # (at least T - N + 1 pulls); the final training takes N - Nbar more.
    assert 400 - 5 + 1 <= len(policy.history_) <= 400
    for model in range(policy.n_models):
        steps = [n for k, n in policy.history_ if k == model]
        assert steps == list(range(1, len(steps) + 1))  # one sub-train at a time
        assert len(steps) <= 5
    # The selected model finished its training.
    assert max(n for k, n in policy.history_ if k == policy.best_) == 5
    assert policy.n_models > 10  # mutants were bred
    # Without a cap on lineages, mutants go on from their parents past N in all.
    assert max(policy.lineage_subtrains(k) for k in range(policy.n_models)) > 5


@pytest.mark.parametrize("seed", range(3))
def test_the_lineage_cap_counts_what_a_mutant_inherits(seed):
    policy, _ = _random_run(seed, max_lineage_subtrains=5)
    assert 400 - 5 + 1 <= len(policy.history_) <= 400
    # By hand, from the actions: a mutant goes on from its parent's training
    # in all, as the parent's first action names it (0: it starts afresh).
    inherited, own = {}, {}
    for action in policy.history_:
        model, n = action
        if n == 1:
            parent, start = action.parent or (-1, 0)
            inherited[model] = inherited[parent] + start if start else 0
            if start:
                assert own[parent] == start
        own[model] = n
    totals = [inherited[k] + own[k] for k in range(policy.n_models)]
    assert max(totals) == 5
    assert totals == [policy.lineage_subtrains(k) for k in range(policy.n_models)]
    assert sum(v > 0 for v in inherited.values()) > 20  # mutants went on from their parents
    # and those of parents at the cap, which had no room to give, started afresh
    fresh = [a for a in policy.history_ if a[1] == 1 and a.parent and not a.parent[1]]
    assert fresh and all(totals[a.parent[0]] == 5 for a in fresh)


def test_mutation_probability_is_trained_over_cap():
    """A chosen model with Nbar sub-trains mutates with probability Nbar / N."""
    counts = np.zeros((5, 2))  # rows: Nbar = 1..5; columns: sub-train, mutate
    for seed in range(15):
        policy, log = _random_run(seed)
        loop = log[10 : 400 - 5 + 1]  # after the initial models, before the final training
        for model, n, parent, parent_trained, model_trained in loop:
            if n == 1:
                counts[parent_trained - 1, 1] += 1
            else:
                counts[model_trained - 1, 0] += 1
    p_mutate = np.arange(1, 6) / 5
    expected = np.stack([1 - p_mutate, p_mutate], axis=1) * counts.sum(axis=1, keepdims=True)
    seen = expected.sum(axis=1) > 0
    observed, expected = counts[seen], expected[seen]
    assert counts[4, 0] == 0  # a model at the cap always mutates
    keep = expected > 0
    statistic = np.sum((observed[keep] - expected[keep]) ** 2 / expected[keep])
    dof = int(np.sum(keep.all(axis=1)))
    assert stats.chi2.sf(statistic, dof) > 1e-3
    assert counts[:, 1].sum() > 300  # many mutations were drawn


def test_mutation_false_is_ucb_e_with_a_cap():
    policy = MutantUCBPolicy(3, budget=9, max_subtrains=3, mutation=False, random_state=0)
    run(policy, lambda k, n: [0.5, 0.6, 0.4][k] + 0.01 * n)
    # Model 1 leads and reaches the cap at t = 5; then model 0 (bound 0.51 +
    # 0.224, then 0.515 + 0.158) beats model 2 (0.41 + 0.224) until it reaches
    # the cap too. Model 1, the best, is at N and needs no final training, so
    # the loop spends the budget to the last pull: model 2 gets them.
    assert policy.history_ == [(0, 1), (1, 1), (2, 1), (1, 2), (1, 3), (0, 2), (0, 3),
                               (2, 2), (2, 3)]
    assert policy.n_models == 3 and policy.best_ == 1


def test_failed_model_is_never_chosen_or_selected():
    policy = MutantUCBPolicy(3, budget=10, max_subtrains=4, random_state=0)
    simulate(policy, lambda model, n: np.nan if model == 1 else 0.5 + 0.01 * model)
    assert [n for k, n in policy.history_ if k == 1] == [1]
    assert policy.best_ != 1


def test_concurrent_asks_never_give_one_model_twice():
    rng = np.random.RandomState(0)
    policy = MutantUCBPolicy(6, budget=60, max_subtrains=4, random_state=0)
    pending = []
    while True:
        actions = policy.ask(int(rng.randint(1, 4)))
        busy = [k for k, _ in pending]
        assert not {k for k, _ in actions} & set(busy)
        pending.extend(actions)
        if not pending:
            assert policy.done
            break
        model, n = pending.pop(rng.randint(len(pending)))
        policy.tell(model, n, rng.uniform())
    assert len(policy.history_) <= 60


def _run_with_workers(policy, quality, n_workers):
    """Keep `n_workers` actions in flight, telling the oldest first; returns the policy."""
    simulate(policy, lambda model, n: quality[model] + 0.01 * n, n_workers)
    assert policy.done
    return policy


@pytest.mark.parametrize("n_workers, finished", [(1, [5]), (2, [4, 5]), (4, [3, 4, 5])])
def test_leaders_are_finished_in_parallel_within_the_budget(n_workers, finished):
    # Model k scores 0.5 + 0.04 k: the leaders are the last ones.
    quality = {k: 0.5 + 0.04 * k for k in range(6)}
    policy = MutantUCBPolicy(6, 18, max_subtrains=5, mutation=False, exploration=0.5,
                             in_flight=n_workers, random_state=0)
    _run_with_workers(policy, quality, n_workers)
    assert len(policy.history_) == 18  # the whole budget, never more
    # One chain of final sub-trains per worker, for the leaders, the best among them.
    assert [k for k in range(6) if policy.subtrains(k) == 5] == finished
    assert policy.best_ == 5


# --------------------------------------------------------------- the clock


def timed(policy_kwargs, max_time, durations, **clock_kwargs):
    """A policy with a clock that reads the seconds told so far (one worker, in a row)."""
    told = []
    clock = SubtrainClock(max_time, clock=lambda: sum(told), **clock_kwargs)
    policy = MutantUCBPolicy(clock=clock, **policy_kwargs)
    tell = policy.tell

    def counted(candidate, resource, score, **kwargs):
        told.append(kwargs["fit_time"])
        tell(candidate, resource, score, **kwargs)

    policy.tell = counted
    return policy, told


def test_clock_changes_no_pull_while_the_time_left_pays_for_it():
    # Which arm is pulled does not depend on the prices: with time to spare,
    # the same pulls as without a clock, whatever each sub-train costs.
    quality = np.random.RandomState(0).uniform(0.5, 0.9, size=500)
    kwargs = dict(n_initial=6, budget=60, max_subtrains=4, random_state=0)
    plain = run(MutantUCBPolicy(**kwargs), lambda k, n: quality[k] + 0.01 * n)
    policy, _ = timed(kwargs, 1e9, None)
    simulate(policy, lambda k, n: quality[k] + 0.01 * n, durations=lambda k, n: 1 + k % 5)
    assert policy.history_ == plain.history_


@pytest.mark.parametrize("seed", range(4))
def test_clock_ends_the_search_with_its_refit_within_max_time(seed):
    # One worker, 1 s a sub-train, a refit at half a sub-train's seconds: the
    # pulls stop once one more, the finishing of the leader and its refit would
    # pass 40 s less the margin (5% of it, 2 s; ten sub-trains would be 10 s):
    # the search and the refit end by 38 s, and within the last pull and
    # finishing (up to 4 sub-trains) and refit of a leader before it.
    rng = np.random.RandomState(seed)
    quality = rng.uniform(0.5, 0.9, size=500)
    kwargs = dict(n_initial=30, budget=None, max_subtrains=4, random_state=seed,
                  initial_count=lambda budget: budget // 4)
    policy, told = timed(kwargs, 40.0, None, refit_factor=0.5)
    simulate(policy, lambda k, n: quality[k] + 0.01 * n, durations=lambda k, n: 1.0)
    assert policy.done
    finished = [k for k in range(policy.n_models) if policy.subtrains(k) == 4]
    selected = max(finished, key=policy.mu)  # as the search selects
    assert 38.0 - 1 - 4 - 0.5 * 12 < sum(told) + 0.5 * policy.lineage_subtrains(selected) <= 38.0


def test_clock_keeps_the_fits_fixed_costs_out_of_the_time_left():
    # The first sub-train was handed out 2.5 s into the fit (drawing and building the
    # candidates), and storing the results after the last takes about as long, so the
    # time left keeps them beside the margin (5% of 100 s). The workers' start, which
    # delayed the first result to 6 s, is not kept: the end of the fit pays it no more.
    now = [2.5]
    clock = SubtrainClock(100.0, clock=lambda: now[0])
    clock.handing_out()
    now[0] = 6.0
    clock.handing_out()
    clock.note(0, 1, 1.0)
    assert clock.time_left() == pytest.approx(100 - 6 - 5 - 2.5)
    now[0] = 50.0
    assert clock.time_left() == pytest.approx(100 - 50 - 5 - 2.5)


def test_clock_starts_as_many_initial_models_as_the_time_pays_for():
    # 100 s at 1 s a sub-train, less the margin (5 s): 95 sub-trains,
    # K = 95 // 5 = 19 initial models started out of the 50 drawn.
    kwargs = dict(n_initial=50, budget=None, max_subtrains=5, random_state=0,
                  initial_count=lambda budget: budget // 5)
    policy, _ = timed(kwargs, 100.0, None)
    simulate(policy, lambda k, n: 0.6 + 0.001 * k, durations=lambda k, n: 1.0)
    assert sum(1 for model, n in policy.history_ if model < 50 and n == 1) == 19


def test_clock_starts_one_model_until_a_sub_train_is_priced():
    # With a time budget the first model starts alone: its folds on every worker give a
    # complete evaluation, and a price, soonest; the others once it is told.
    kwargs = dict(n_initial=8, budget=None, max_subtrains=4, random_state=0)
    policy, told = timed(kwargs, 100.0, None)
    assert policy.ask(4) == [(0, 1)]
    assert policy.ask(4) == []
    told.append(1.0)
    policy.tell(0, 1, 0.5, fit_time=1.0)
    assert [action for action in policy.ask(4)] == [(1, 1), (2, 1), (3, 1), (4, 1)]


@pytest.mark.parametrize("seed", range(3))
def test_clock_trains_the_leader_as_far_as_the_time_allows_and_refits_it_in_time(seed):
    # One worker, 1 s a sub-train, max_subtrains=10, 8 s: no model can be trained fully.
    # The search ends by itself with its leader trained as far as the time allows, the
    # refit (half a sub-train's seconds each) included within 8 s less the margin (0.4 s).
    quality = np.random.RandomState(seed).uniform(0.5, 0.9, size=50)
    kwargs = dict(n_initial=8, budget=None, max_subtrains=10, random_state=seed,
                  initial_count=lambda budget: max(2, budget // 10))
    policy, told = timed(kwargs, 8.0, None, refit_factor=0.5)
    simulate(policy, lambda k, n: quality[k] + 0.01 * n, durations=lambda k, n: 1.0)
    assert policy.done
    leader = max(range(policy.n_models), key=policy.lineage_subtrains)
    assert 2 <= policy.lineage_subtrains(leader) < 10
    assert sum(told) + 0.5 * policy.lineage_subtrains(leader) <= 8.0 - 0.4
    # No sub-train more would have fitted with its refit.
    assert sum(told) + 1.0 + 0.5 * (policy.lineage_subtrains(leader) + 1) > 8.0 - 0.4


def test_clock_starts_no_initial_model_the_time_cannot_pay_for():
    # n_initial=8 models given, 1 s a sub-train, 5 s: the first, then as many as a
    # sub-train and the refit of the best end in time (refits of 0.5 s a sub-train).
    kwargs = dict(n_initial=8, budget=None, max_subtrains=3, random_state=0)
    policy, told = timed(kwargs, 5.0, None, refit_factor=0.5)
    simulate(policy, lambda k, n: 0.6 + 0.01 * k, durations=lambda k, n: 1.0)
    started = [model for model, n in policy.history_ if n == 1 and model < 8]
    assert 1 <= len(started) < 8
    assert sum(told) <= 5.0 - 0.25


# ------------------------------------------------------------ reward="finish"

#: Curves by model: a fast starter that stays flat, and slow starters that climb.
CURVES = {0: lambda n: 0.80, 1: lambda n: 0.60 + 0.04 * n, 2: lambda n: 0.50 + 0.01 * n,
          3: lambda n: 0.55 + 0.03 * n}
FIRST = {round(curve(1), 6): model for model, curve in CURVES.items()}


def oracle(full):
    """A `finish` that knows every curve: the final score of the model whose first score
    the curve starts with, and 0.01 above it."""
    def finish(scores, lengths, n_full):
        final = CURVES[FIRST[round(scores[0], 6)]](full)
        return final, final + 0.01
    return finish


def test_finish_selects_the_best_predicted_final_where_the_last_score_misleads():
    # After one sub-train each, model 0 leads (0.80) and stays there; model 1
    # ends at 0.92. Ranked by their last scores, the bandit finishes model 0;
    # ranked by their predicted finals, model 1.
    kwargs = dict(n_initial=4, budget=12, max_subtrains=8, mutation=False, exploration=0.0,
                  random_state=0)
    last = run(MutantUCBPolicy(reward="last", **kwargs), lambda k, n: CURVES[k](n))
    finish = run(MutantUCBPolicy(reward="finish", finish=oracle(8), **kwargs),
                 lambda k, n: CURVES[k](n))
    assert last.best_ == 0
    assert finish.best_ == 1 and finish.subtrains(1) == 8
    assert finish.mu(1) == pytest.approx(CURVES[1](8))


@pytest.mark.parametrize("budget", [12, 20, 33])
def test_finish_pulls_double_the_training_and_keep_the_budget(budget):
    # Every action of a model doubles its own sub-trains (1, 2, 4, ...) or
    # ends its training at the cap in one action (with a budget to spare); the sub-trains handed out
    # never exceed the budget, and the selected model is fully trained.
    kwargs = dict(n_initial=4, budget=budget, max_subtrains=8, mutation=False, random_state=0)
    policy = run(MutantUCBPolicy(reward="finish", finish=oracle(8), **kwargs),
                 lambda k, n: CURVES[k](n))
    spent = 0
    for model in range(policy.n_models):
        steps = [n for k, n in policy.history_ if k == model]
        spent += steps[-1]
        for before, after in zip([0] + steps, steps):
            # A pull doubles, or less where the budget keeps room to finish the leaders.
            assert before < after and (after == 8 or after <= max(1, 2 * before))
            if budget == 33:
                assert after == 8 or after == max(1, 2 * before)
    assert spent <= budget
    assert policy.subtrains(policy.best_) == 8


def test_finish_reads_a_mutants_curve_from_its_parents_score():
    # A mutant that goes on from its parent's t sub-trains starts its curve with
    # the parent's score there; its own scores follow at t + 1, t + 2, t + 4, ...
    policy = MutantUCBPolicy(2, budget=40, max_subtrains=4, reward="finish",
                             finish=lambda scores, lengths, n_full: (scores[-1], scores[-1] + 0.1),
                             random_state=0)
    run(policy, lambda k, n: 0.5 + 0.01 * k + 0.02 * n)
    mutants = [k for k in range(policy.n_models) if policy.parents_[k] >= 0]
    assert mutants
    for mutant in mutants:
        parent, inherited = policy.parents_[mutant], policy.lineage_subtrains(mutant) - (
            policy.subtrains(mutant))
        lengths, scores = policy.curve(mutant)
        own = [n for k, n in policy.history_ if k == mutant]
        assert lengths == [inherited] * (inherited > 0) + [inherited + n for n in own]
        if inherited:
            parents = dict(zip(*policy.curve(parent)))
            assert scores[0] == parents[inherited]


def test_finish_needs_a_finish_rule():
    with pytest.raises(ValueError, match="finish"):
        MutantUCBPolicy(2, budget=10, reward="finish")


def test_finish_pulls_grow_until_a_tasks_overhead_is_a_tenth_of_it():
    # Each task costs 0.09 s beyond its sub-trains of 0.01 s each (one worker):
    # once the clock has measured that overhead, a task trains at least
    # 9 * 0.09 / 0.01 = 81 sub-trains, so every model goes to its cap of 10 in one.
    now = [0.0]
    clock = SubtrainClock(1e6, clock=lambda: now[0])
    policy = MutantUCBPolicy(6, budget=None, max_subtrains=10, mutation=False, reward="finish",
                             finish=lambda scores, lengths, n_full: (scores[-1], scores[-1] + 0.01),
                             clock=clock, random_state=0)
    steps = []
    while len(steps) < 30 and not policy.done:
        (model, n), = policy.ask()
        step = n - policy.subtrains(model)
        steps.append(step)
        now[0] += 0.09 + 0.01 * step
        policy.tell(model, n, CURVES[model % 4](n), fit_time=0.01 * step)
    assert clock.overhead() == pytest.approx(0.09)
    assert steps[:3] == [1, 1, 1]  # before two tasks were told after the first
    assert all(step == 10 or step == 9 for step in steps[4:])


def test_finish_pulls_train_fully_where_the_time_left_pays_for_few_full_trainings():
    # 1 s a sub-train, 25 s in all: after six initial sub-trains, 17.75 s are
    # left (less a margin of 1.25 s), fewer than two full trainings of 10 s:
    # every pull trains fully, each model in one task.
    now = [0.0]
    clock = SubtrainClock(25.0, refit_factor=0.1, clock=lambda: now[0])
    policy = MutantUCBPolicy(6, budget=None, max_subtrains=10, mutation=False, reward="finish",
                             finish=lambda scores, lengths, n_full: (scores[-1], scores[-1] + 0.01),
                             clock=clock, random_state=0)
    while not policy.done:
        for model, n in policy.ask():
            step = n - policy.subtrains(model)
            now[0] += step
            policy.tell(model, n, CURVES[model % 4](n), fit_time=float(step))
    pulls = policy.history_[6:]
    assert pulls and all(n == 10 for _, n in pulls)


@pytest.mark.parametrize("reward", ["mean", "finish"])
def test_in_flight_decisions_are_the_same_on_any_number_of_workers(reward):
    # Without a clock, the i-th action is decided on the results of the actions
    # before i - in_flight + 1: the same run whatever the workers and the seconds.
    rng = np.random.RandomState(0)
    quality = rng.uniform(0.5, 0.9, size=1000)
    finish = None if reward == "mean" else (
        lambda scores, lengths, n_full: (scores[-1], scores[-1] + 0.05))
    runs = []
    for n_workers, seconds in [(1, 1.0), (2, 1.0), (4, 1.0), (3, None)]:
        durations = (lambda k, n: seconds) if seconds else (lambda k, n: 1 + (7 * k + n) % 5)
        policy = MutantUCBPolicy(8, budget=120, max_subtrains=6, reward=reward, finish=finish,
                                 in_flight=4, random_state=0)
        simulate(policy, lambda k, n: quality[k] + 0.01 * n, n_workers, durations=durations)
        assert policy.done
        runs.append(policy)
    for other in runs[1:]:
        assert other.history_ == runs[0].history_
        assert other.decisions_ == runs[0].decisions_
        assert other.parents_ == runs[0].parents_
    assert runs[0].n_models > 8  # mutants were bred
