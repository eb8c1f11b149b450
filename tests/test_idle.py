"""Idle tasks: a sleep that doubles in a row, up to a share of a task's seconds."""

import time

import pytest

from sksel._core import idle
from sksel._core.idle import IdleTasks

# The tasks are called here, not through joblib.
pytestmark = pytest.mark.filterwarnings("ignore:`sklearn.utils.parallel.delayed`:UserWarning")


def _sleeps(tasks, n):
    """The seconds of the next `n` idle tasks of `tasks`."""
    return [tasks.task()[1][0] for _ in range(n)]


def test_idle_tasks_in_a_row_sleep_twice_as_long_up_to_the_longest():
    tasks = IdleTasks(time.perf_counter() - 100)  # the run started long ago
    assert _sleeps(tasks, 6) == [0.005, 0.01, 0.02, 0.04, 0.08, 0.08]


def test_the_longest_sleep_is_a_share_of_a_tasks_mean_seconds():
    tasks = IdleTasks(time.perf_counter())
    tasks.note({"fit_time": 0.3, "score_time": 0.1})
    tasks.note({"fit_time": 0.1})
    tasks.note("not an output with seconds")
    assert _sleeps(tasks, 4) == [0.005, 0.01, 0.0125, 0.0125]  # 5% of 0.25 s


def test_reset_starts_again_from_the_shortest_sleep():
    tasks = IdleTasks(time.perf_counter() - 100)
    _sleeps(tasks, 3)
    tasks.reset()
    assert _sleeps(tasks, 1) == [0.005]


def test_an_idle_task_calls_the_module_sleep(monkeypatch):
    slept = []
    monkeypatch.setattr(idle, "_idle", slept.append)
    func, args, kwargs = IdleTasks(time.perf_counter()).task()
    func(*args, **kwargs)
    assert slept == [0.005]
