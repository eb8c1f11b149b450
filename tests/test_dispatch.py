"""The queue of an engine's run: the order of the tasks, held folds, races, ``max_time``."""

import time

from sksel._core.deadline import SearchShare
from sksel._core.dispatch import EarlyRefit, TaskQueue
from sksel._core.workers import key_of


class _Policy:
    """Hands out `actions` in order, one per ask; `next_decision` is set by the test."""

    def __init__(self, actions, next_decision=None):
        self.actions = list(actions)
        self.next_decision = next_decision
        self.asked = []

    def ask(self, n_actions=1, speculative=True, idle=False):
        self.asked.append((speculative, idle))
        return [self.actions.pop(0)] if self.actions else []


def _tasks(action):
    """An action ``(name, n)``'s `n` tasks."""
    return [(print, (action[0], i), {}) for i in range(action[1])]


def _queue(actions, n_workers=1, max_time=None, enough=None, next_decision=None):
    share = SearchShare(max_time, None, time.perf_counter())
    return TaskQueue(_Policy(actions, next_decision), _tasks, n_workers, share, enough=enough)


def _keys(queue):
    """Take every task that `queue` gives, in turn; their keys."""
    keys = []
    while (task := queue.next_task()) is not None:
        keys.append(key_of(task))
    return keys


def test_refill_queues_actions_until_each_worker_has_a_task():
    queue = _queue([("a", 1), ("b", 1), ("c", 1)], n_workers=2)
    assert queue.refill(stop=lambda: False)
    assert set(queue.running) == {("a", 1), ("b", 1)}
    assert len(queue) == 2 and queue.n_left() == 2


def test_refill_says_when_the_policy_has_nothing():
    queue = _queue([("a", 1)], n_workers=2)
    assert not queue.refill(stop=lambda: False)
    assert set(queue.running) == {("a", 1)}


def test_refill_asks_nothing_once_stopped():
    queue = _queue([("a", 1)])
    assert queue.refill(stop=lambda: True)
    assert queue.policy.asked == [] and len(queue) == 0


def test_tasks_go_in_the_order_their_actions_were_handed_out():
    queue = _queue([("a", 2), ("b", 2)], n_workers=4)
    queue.refill(stop=lambda: False)
    assert _keys(queue) == [(("a", 2), 0), (("a", 2), 1), (("b", 2), 0), (("b", 2), 1)]


def test_under_max_time_a_first_fold_goes_before_a_later_one():
    queue = _queue([("a", 2), ("b", 2)], n_workers=4, max_time=3600)
    queue.refill(stop=lambda: False)
    assert _keys(queue) == [(("a", 2), 0), (("b", 2), 0), (("a", 2), 1), (("b", 2), 1)]


def test_an_action_is_reported_once_all_its_outputs_are_in():
    queue = _queue([("a", 2)])
    queue.refill(stop=lambda: False)
    assert not queue.take((("a", 2), 1), "second")
    assert queue.take((("a", 2), 0), "first")
    assert queue.pop(("a", 2)) == ["first", "second"]
    assert queue.running == {}


def test_a_race_ends_on_the_first_outputs_and_drops_the_tasks_queued():
    queue = _queue([("a", 3)], n_workers=1, enough=lambda action, outputs: len(outputs) == 1,
                   next_decision=("a", 3))
    queue.refill(stop=lambda: False)
    first = queue.next_task()
    assert queue.next_task() is None  # the later folds wait for the first one's output
    assert queue.take(key_of(first), "first")
    assert len(queue) == 0
    assert queue.pop(("a", 3)) == ["first"]


def test_an_output_of_a_fold_the_race_dropped_is_not_kept():
    queue = _queue([("a", 3)], enough=lambda action, outputs: True, next_decision=("a", 3))
    queue.refill(stop=lambda: False)
    queue.next_task()
    assert queue.take((("a", 3), 0), "first")
    assert not queue.take((("a", 3), 2), "dropped")
    assert queue.pop(("a", 3)) == ["first"]


def test_only_the_next_decision_races():
    queue = _queue([("a", 2)], n_workers=2, enough=lambda action, outputs: True,
                   next_decision=("other", 1))
    queue.refill(stop=lambda: False)
    assert [i for _, i in _keys(queue)] == [0, 1]  # none held


def test_a_free_worker_takes_a_held_fold_where_nothing_else_is_queued():
    queue = _queue([("a", 3)], n_workers=3, enough=lambda action, outputs: False,
                   next_decision=("a", 3))
    queue.refill(stop=lambda: False)
    assert [i for _, i in _keys(queue)] == [0, 1, 2]


def test_a_later_fold_goes_once_the_earlier_outputs_are_in():
    queue = _queue([("a", 2)], n_workers=1, enough=lambda action, outputs: False,
                   next_decision=("a", 2))
    queue.refill(stop=lambda: False)
    assert key_of(queue.next_task()) == (("a", 2), 0)
    assert queue.take((("a", 2), 0), "first") is False  # the race goes on
    assert key_of(queue.next_task()) == (("a", 2), 1)


def test_no_task_starts_whose_folds_cannot_end_by_max_time():
    queue = _queue([("slow", 3)], n_workers=1, max_time=10)
    queue.refill(stop=lambda: False)
    queue.next_task()
    queue.take((("slow", 3), 0), {"fit_time": 60.0, "score_time": 0.0})
    assert queue.next_task() is None
    assert queue.cut_short == (("slow", 3), 60.0, 1, 3)


def test_early_refits_count_as_tasks_left_until_cleared():
    queue = _queue([])
    queue.add_early_refit((0, 100), (print, (), {}))
    assert queue.refitting == {EarlyRefit((0, 100))} and queue.n_left() == 1
    assert key_of(queue.popleft())[0] == EarlyRefit((0, 100))
    queue.clear()
    assert queue.n_left() == 0


def test_clear_hands_back_what_was_running_and_forgets_the_queue():
    queue = _queue([("a", 2)])
    queue.refill(stop=lambda: False)
    queue.take((("a", 2), 0), "first")
    assert queue.clear() == {("a", 2): ["first", None]}
    assert len(queue) == 0 and queue.running == {}


def test_drop_leaves_the_other_actions_tasks():
    queue = _queue([("a", 2), ("b", 1)], n_workers=3)
    queue.refill(stop=lambda: False)
    queue.drop(("a", 2))
    assert _keys(queue) == [(("b", 1), 0)]
