"""Worker deaths: which errors are one, the suspects run again alone, a second death gives up."""

import time
from concurrent.futures.process import BrokenProcessPool

import pytest

from sksel._core.deadline import SearchShare
from sksel._core.dispatch import TaskQueue
from sksel._core.suspects import WorkerDeaths, is_worker_death


class _Policy:
    def __init__(self, actions):
        self.actions = list(actions)
        self.next_decision = None

    def ask(self, n_actions=1, speculative=True, idle=False):
        return [self.actions.pop(0)] if self.actions else []


def _deaths(actions, interrupted=False):
    """WorkerDeaths over a queue running `actions` ``(name, n)``; the reports it made."""
    tasks = TaskQueue(_Policy(actions), lambda a: [(print, (), {})] * a[1], max(1, len(actions)),
                      SearchShare(None, None, time.perf_counter()))
    tasks.refill(stop=lambda: False)
    reports = {}
    deaths = WorkerDeaths(tasks, "Search", lambda: interrupted,
                          lambda action, i, reason: f"failed {i}: {reason}",
                          lambda action: reports.update({action: tasks.pop(action)}))
    return deaths, tasks, reports


def _dies():
    raise BrokenProcessPool("a worker died")


def _killed_by_sigint():
    raise BrokenProcessPool("A worker was terminated, signal SIGINT(-2)")


def test_a_broken_pool_is_a_worker_death_and_other_errors_are_not():
    assert is_worker_death(BrokenProcessPool())
    assert not is_worker_death(ValueError())


def test_during_hands_back_a_death_and_raises_other_errors():
    deaths, _, _ = _deaths([])
    assert isinstance(deaths.during(_dies), BrokenProcessPool)
    assert deaths.during(lambda: None) is None
    with pytest.raises(ValueError):
        deaths.during(lambda: int("x"))


def test_any_error_after_a_ctrl_c_is_the_interrupt():
    deaths, _, _ = _deaths([], interrupted=True)
    with pytest.raises(KeyboardInterrupt):
        deaths.during(lambda: int("x"))


def test_a_worker_killed_by_sigint_is_a_ctrl_c():
    deaths, _, _ = _deaths([])
    with pytest.raises(KeyboardInterrupt):
        deaths.during(_killed_by_sigint)


def test_give_up_fills_the_missing_outputs_with_failures_and_reports():
    deaths, tasks, reports = _deaths([("a", 2)])
    tasks.take((("a", 2), 0), "first")
    with pytest.warns(RuntimeWarning, match="candidate a at 2: it died; giving it up"):
        deaths.give_up(("a", 2), "it died")
    assert reports == {("a", 2): [
        "first", "failed 1: this candidate's evaluation was given up: it died"]}


def test_each_suspect_runs_again_alone_and_one_that_dies_again_is_given_up():
    deaths, tasks, reports = _deaths([("innocent", 1), ("culprit", 1)])
    alone = []

    def run_alone(action):
        alone.append(action)
        if action[0] == "culprit":
            _dies()
        tasks.take((action, 0), "ok")
        deaths.report(action)

    with pytest.warns(RuntimeWarning) as record:
        deaths.retry(BrokenProcessPool(), run_alone, stop=lambda: False)
    assert alone == [("innocent", 1), ("culprit", 1)]
    assert reports[("innocent", 1)] == ["ok"]
    assert reports[("culprit", 1)][0].startswith("failed 0")
    assert "running each of them again alone" in str(record[0].message)
    assert tasks.running == {} and len(tasks) == 0


def test_no_suspect_runs_once_stopped():
    deaths, tasks, reports = _deaths([("a", 1)])
    with pytest.warns(RuntimeWarning):
        deaths.retry(BrokenProcessPool(), pytest.fail, stop=lambda: True)
    assert reports == {} and tasks.running == {}
