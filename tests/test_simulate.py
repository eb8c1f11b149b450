"""simulate: a policy replayed on recorded results with simulated workers."""

import numpy as np
import pytest

from sksel._core.policy import SequentialPolicy
from sksel._core.simulate import Simulation, simulate
from sksel.daub import DAUBPolicy
from sksel.gpucb import GPUCBPolicy

SIZES = [50, 100, 200, 400, 800]


def _curves(n_candidates=4, seed=0):
    """Validation and training scores, and fit times, of DAUB's actions: tables by size."""
    rng = np.random.RandomState(seed)
    top, rate = rng.uniform(0.7, 0.95, n_candidates), rng.uniform(5, 60, n_candidates)
    valid = {(c, n): top[c] - rate[c] / n + rng.normal(0, 0.005)
             for c in range(n_candidates) for n in SIZES}
    valid[1, 100] = np.nan  # a failed fit below N: a hole in the curve
    train = {(c, n): valid[c, n] + 0.5 * rate[c] / n for c in range(n_candidates) for n in SIZES}
    times = {(c, n): float(rng.uniform(0.5, 2.0)) * n / 50 for c in range(n_candidates)
             for n in SIZES}
    return valid, train, times


def _gpucb(n_candidates=12, seed=0, **options):
    rng = np.random.RandomState(seed)
    F = rng.normal(size=(n_candidates, 3))
    cov = 0.01 * (F @ F.T / 3 + 0.1 * np.eye(n_candidates))
    scores = rng.multivariate_normal(np.full(n_candidates, 0.8), cov)
    scores[3] = np.nan  # a failed evaluation
    times = rng.uniform(1.0, 10.0, n_candidates)
    policy = GPUCBPolicy(np.full(n_candidates, 0.8), cov, noise=0.01, random_state=seed,
                         **options)
    return policy, scores, times


def _daub(**options):
    return DAUBPolicy(n_candidates=4, sizes=SIZES, cost="time", **options)


def test_one_worker_is_the_sequential_loop_daub():
    valid, train, times = _curves()
    looped = _daub()
    told = []
    while not looped.done:
        (c, n), = looped.ask(1)
        looped.tell(c, n, valid[c, n], train_score=train[c, n], fit_time=times[c, n],
                    failed=np.isnan(valid[c, n]))
        told.append((c, n))

    policy = _daub()
    run = simulate(policy, lambda c, n: valid[c, n], durations=lambda c, n: times[c, n],
                   train_scores=lambda c, n: train[c, n])
    assert [action for action, *_ in run.events] == told
    assert policy.history_ == looped.history_
    assert run.decisions == policy.decisions_ == looped.decisions_
    assert policy.fit_times_ == looped.fit_times_
    assert policy.best_ == looped.best_
    assert (1, 100) in told  # the failed fit was run and told
    assert np.isnan({a: s for a, _, _, s in run.events}[1, 100])


def test_one_worker_is_the_sequential_loop_gpucb():
    looped, scores, times = _gpucb(n_iter=8)
    told = []
    while not looped.done:
        (c, r), = looped.ask(1)
        looped.tell(c, r, scores[c], fit_time=times[c])
        told.append((c, r))

    policy, scores, times = _gpucb(n_iter=8)
    run = simulate(policy, scores, durations=times)
    assert [action for action, *_ in run.events] == told
    assert policy.history_ == looped.history_
    assert run.decisions == policy.decisions_ == looped.decisions_
    assert policy.observed_ == looped.observed_
    assert policy.best_ == looped.best_


def test_one_worker_wall_time_is_the_summed_durations():
    valid, train, times = _curves(seed=1)
    run = simulate(_daub(), lambda c, n: valid[c, n], durations=lambda c, n: times[c, n],
                   train_scores=lambda c, n: train[c, n])
    durations = [times[action] for action, *_ in run.events]
    assert run.wall_time == pytest.approx(sum(durations))
    assert run.busy_time == pytest.approx(sum(durations))
    # One at a time: each starts when the one before ends.
    assert all(end == next_start for (_, _, end, _), (_, next_start, _, _)
               in zip(run.events, run.events[1:]))


@pytest.mark.parametrize("seed", range(3))
def test_sequential_decisions_do_not_depend_on_the_workers(seed):
    rng = np.random.RandomState(seed)
    valid, train, _ = _curves(seed=seed)
    # Random durations, the same recorded ones for every number of workers (DAUB's
    # cost="time" reads them): the results come in in another order.
    times = {action: rng.uniform(0.1, 5.0) for action in valid}
    gpucb_times = rng.uniform(0.1, 5.0, 12)
    daub_runs, gpucb_runs = [], []
    for n_workers in (1, 2, 4):
        policy = _daub()
        assert isinstance(policy, SequentialPolicy)
        daub_runs.append(simulate(policy, lambda c, n: valid[c, n], n_workers,
                                  durations=lambda c, n: times[c, n],
                                  train_scores=lambda c, n: train[c, n]))
        policy, scores, _ = _gpucb(seed=seed, n_iter=8)
        gpucb_runs.append(simulate(policy, scores, n_workers, durations=gpucb_times))
    for runs in (daub_runs, gpucb_runs):
        assert runs[1].decisions == runs[0].decisions
        assert runs[2].decisions == runs[0].decisions
        # More workers ran the decided actions side by side, and speculative ones where
        # they pay (GP-UCB's only where most simulated runs take them): in less wall time.
        assert len(runs[2].events) >= len(runs[0].events)
        assert runs[2].wall_time < runs[0].wall_time


class _Listed:
    """A toy policy: hands out `actions` in order, one per ask; done once all are told."""

    def __init__(self, actions):
        self.actions = list(actions)
        self.history_, self.decisions_, self.told = [], [], []
        self.asked = []

    def ask(self, n_actions=1, speculative=True, idle=False):
        self.asked.append(speculative)
        left = self.actions[len(self.history_):]
        self.history_ += left[:n_actions]
        return left[:n_actions]

    def tell(self, candidate, resource, score, train_score=None, fit_time=None, failed=False,
             give_up=False):
        self.decisions_.append((candidate, resource))
        self.told.append((candidate, score, train_score, fit_time, failed))

    @property
    def done(self):
        return len(self.decisions_) == len(self.actions)


def test_events_follow_the_hand_computed_schedule():
    # Two workers, durations 3, 1, 2, 2, 1:
    #   t=0: 0 starts (ends 3), 1 starts (ends 1)
    #   t=1: 1 ends, 2 starts (ends 3)
    #   t=3: 0 and 2 end, 0 first (started first): 3 starts (ends 5); then 2: 4 starts (ends 4)
    #   t=4: 4 ends; t=5: 3 ends.
    policy = _Listed([(k, "all") for k in range(5)])
    scores = [0.5, np.nan, 0.7, 0.6, 0.4]
    durations = [3.0, 1.0, 2.0, 2.0, 1.0]
    run = simulate(policy, scores, 2, durations=durations, train_scores=[1, 2, 3, 4, 5])
    assert isinstance(run, Simulation)
    starts_ends = [(action[0], start, end) for action, start, end, _ in run.events]
    assert starts_ends == [(0, 0.0, 3.0), (1, 0.0, 1.0), (2, 1.0, 3.0), (3, 3.0, 5.0),
                           (4, 3.0, 4.0)]
    assert [c for c, *_ in policy.told] == [1, 0, 2, 4, 3]
    assert run.decisions == [(1, "all"), (0, "all"), (2, "all"), (4, "all"), (3, "all")]
    assert run.wall_time == 5.0
    assert run.busy_time == sum(durations)
    # fit_time is the duration, train_score is read as the score, NaN fails.
    told = {c: rest for c, *rest in policy.told}
    assert told[0] == [0.5, 1, 3.0, False]
    assert np.isnan(told[1][0]) and told[1][1:] == [2, 1.0, True]
    # One action per worker at most: a free worker may always take a speculative one.
    assert all(policy.asked)


def test_without_durations_every_action_lasts_one_and_no_fit_time_is_told():
    policy = _Listed([(k, "all") for k in range(5)])
    run = simulate(policy, lambda c, r: 0.1 * c, 2)
    assert [(start, end) for _, start, end, _ in run.events] == [
        (0.0, 1.0), (0.0, 1.0), (1.0, 2.0), (1.0, 2.0), (2.0, 3.0)]
    assert run.wall_time == 3.0 and run.busy_time == 5.0
    assert [fit_time for *_, fit_time, _ in policy.told] == [None] * 5
    assert [train for _, _, train, _, _ in policy.told] == [None] * 5


class _DoneAfter(_Listed):
    """Done once `n_done` results are told, whatever still runs."""

    def __init__(self, actions, n_done):
        super().__init__(actions)
        self.n_done = n_done

    @property
    def done(self):
        return len(self.decisions_) >= self.n_done


def test_running_actions_are_abandoned_when_done():
    policy = _DoneAfter([(k, "all") for k in range(6)], n_done=3)
    run = simulate(policy, [0.1] * 6, 3, durations=[1.0, 4.0, 2.0, 1.5, 1.0, 5.0])
    # t=1: 0 ends, 3 starts (ends 2.5); t=2: 2 ends, 4 starts (ends 3); t=2.5: 3 ends: done.
    assert [(a[0], start, end) for a, start, end, _ in run.events] == [
        (0, 0.0, 1.0), (1, 0.0, None), (2, 0.0, 2.0), (3, 1.0, 2.5), (4, 2.0, None)]
    assert [score for *_, score in run.events][1::3] == [None, None]
    assert run.wall_time == 2.5
    assert run.busy_time == 1.0 + 2.0 + 1.5 + 2.5 + 0.5  # the abandoned ones up to 2.5


def test_stops_when_nothing_runs_and_ask_gives_nothing():
    class Stuck(_Listed):
        done = False

    policy = Stuck([(0, "all"), (1, "all")])
    run = simulate(policy, [0.3, 0.4], 4)
    assert len(run.events) == 2 and run.wall_time == 1.0
    assert not policy.done


def test_until_sees_every_result_and_stops_the_run():
    policy = _Listed([(k, "all") for k in range(6)])
    seen = []

    def until(simulation):
        seen.append(simulation)
        return any(score == 0.9 for *_, score in simulation.events)

    run = simulate(policy, [0.1, 0.2, 0.9, 0.3, 0.4, 0.5], 2, durations=[1, 1, 1, 1, 1, 1],
                   until=until)
    # Results at t=1 (0, 1), t=2 (2, 3): it stops on 2, with 3 still running.
    assert [s.wall_time for s in seen] == [1, 1, 2]
    assert [len(s.decisions) for s in seen] == [1, 2, 3]
    assert run.events[-1][2:] == (None, None) and run.events[-1][0] == (3, "all")
    assert run.decisions == [(0, "all"), (1, "all"), (2, "all")]
