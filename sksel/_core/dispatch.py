"""Which task a free worker takes next: the queue of an engine's run.

A policy's actions become tasks, one per cross-validation split, queued in
the order the actions were handed out. Two tasks per worker are handed to
joblib at a time, so that a worker that finishes starts the next at once
rather than when the calling process gets to it; a policy's speculative
actions are asked for only while fewer tasks than that are queued or
running, so that they are picked on the latest results (:meth:`TaskQueue.refill`).

Under ``max_time`` the policy is asked for actions (speculative ones too)
until each worker may take a candidate of its own; a free worker takes the
first fold of an action not started before a later fold of one under way,
and among later folds those of the action with the most outputs in; and
joblib gets no more tasks than workers are free: a quick candidate's
evaluation then ends while a slow one's folds run, rather than wait behind
them. No task starts whose action's folds left cannot end by ``max_time``,
as the mean seconds of its folds finished predict (:attr:`TaskQueue.cut_short`):
with one worker such a fold would run past the deadline, with several it
would be abandoned there.

The race of an action's folds (``enough``) ends on its first outputs, in task
order, and only on the policy's next decision: while that race may still end,
the action's task ``k + 1`` is handed to joblib only once the outputs of tasks
``0`` to ``k`` are in, so that no fold runs that the race then drops. A free
worker meanwhile takes the queued tasks of other actions (the policy is asked
for more); no more are handed out than workers are free, so that none waits
in joblib's queue ahead of the held fold. Where nothing else is queued, the
free worker takes the held fold, as speculative work it would otherwise idle
through. Which tasks run changes, not the outputs the race decides on: the
results are the same for any ``n_jobs``.
"""

import threading
from collections import deque

import numpy as np

from .workers import key_of, keyed_task

#: The output slot of a task that a race left unrun.
_SKIPPED = object()


class EarlyRefit(tuple):
    """The key, in the queue's task keys, of the early refit of ``(candidate, resource)``."""


class TaskQueue:
    """The tasks of the actions handed out, queued or running, and their outputs so far.

    joblib reads :meth:`next_task` in a thread of its own while the engine's
    thread queues, races and reports: a lock guards the queue and the keys of
    `running`.

    Parameters
    ----------
    policy : Policy
        Asked for actions (:meth:`refill`); its ``next_decision`` is the one
        action whose folds race.
    make_tasks : callable
        ``make_tasks(action) -> list of (func, args, kwargs)``.
    n_workers : int
        The workers the tasks share.
    share : SearchShare
        The search's share of ``max_time`` (:class:`~sksel._core.deadline.SearchShare`).
    enough : callable or None
        ``enough(action, outputs) -> bool``: whether the first `outputs` of
        `action` end its race; None: no race.
    search_id : str or None
        Names the search for the worker processes sharing the GPUs.

    Attributes
    ----------
    running : dict
        ``{action: outputs}`` of the actions handed out and not reported,
        None for an output not in yet.
    refitting : set
        The :class:`EarlyRefit` keys of the early refits queued or running.
    cut_short : tuple or None
        ``(action, seconds, folds finished, folds)`` once no queued task can
        end before ``max_time`` (see :meth:`next_task`); else None.
    """

    def __init__(self, policy, make_tasks, n_workers, share, enough=None, search_id=None):
        self.policy = policy
        self.make_tasks = make_tasks
        self.n_workers = n_workers
        self.share = share
        self.enough = enough
        self.search_id = search_id
        self.running = {}
        self.refitting = set()
        self.cut_short = None
        self._queue = deque()
        self._lock = threading.Lock()

    def __len__(self):
        """The tasks queued, not handed to joblib yet."""
        return len(self._queue)

    @property
    def _timed(self):
        return self.share.max_time is not None

    def refill(self, stop):
        """Queue actions until every worker has a task not held or the policy has none.

        Speculative actions only while fewer than two tasks per worker are
        queued or running (handed to joblib included): asked earlier, the
        policy would pick them on older results, and more of them would be
        wasted; a guess (``idle``) only while fewer than one per worker are,
        for a worker that would otherwise idle. Actions whose results will
        be used are queued ahead further, which keeps workers fed where
        tasks take a while to reach them. Asks nothing once ``stop()``.

        Returns
        -------
        asked_all : bool
            False where the policy had no action to give.
        """
        while (self._n_ready() < self.n_workers or self._spreads()) and not stop():
            n_left = self.n_left()
            speculative = n_left < 2 * self.n_workers or self._spreads()
            actions = self.policy.ask(1, speculative=speculative,
                                      idle=n_left < self.n_workers)
            if not actions:
                return False
            self._add(actions[0])
        return True

    def _add(self, action):
        tasks = self.make_tasks(action)
        with self._lock:
            self.running[action] = [None] * len(tasks)
            self._queue.extend(keyed_task(action, i, task, self.search_id)
                               for i, task in enumerate(tasks))

    def add_early_refit(self, key, task):
        """Queue `task`, the early refit of `key` ``(candidate, resource)``."""
        with self._lock:
            self.refitting.add(EarlyRefit(key))
            self._queue.append(keyed_task(EarlyRefit(key), 0, task, self.search_id))

    def popleft(self):
        """Take the first queued task, whatever holds it."""
        with self._lock:
            return self._queue.popleft()

    def next_task(self):
        """Take the first queued task that is not held (see `_held`), in `_task_order`, or None.

        While a task is held, or under `max_time`, another is taken only for
        a worker that is free (fewer tasks handed out than workers), not to
        wait in joblib's queue ahead of the held one, or ahead of the folds
        of a quicker candidate; a held task is taken only where nothing
        else is queued, as speculative work that the worker would otherwise
        idle through. None: the worker gets an idle task. Where no queued
        task can end in time, none is taken, and `cut_short` says why.
        """
        with self._lock:
            if not self._queue:
                return None
            held = [self._held(key_of(task)) for task in self._queue]
            if ((any(held) or self._timed)
                    and self.n_left() - len(self._queue) >= self.n_workers):
                return None
            ready = [k for k, is_held in enumerate(held) if not is_held] or [0]
            late = {k: self._late(key_of(self._queue[k])[0]) for k in ready}
            timely = [k for k in ready if late[k] is None]
            if not timely:
                self.cut_short = late[ready[0]]
                return None
            position = min(timely, key=self._task_order)
            task = self._queue[position]
            del self._queue[position]
            return task

    def take(self, key, output):
        """Keep the `output` of task `key`; whether its action is now to be reported.

        It is when all its outputs are in, or when its race ended on its
        first outputs (:meth:`_race`). An output of a task that a race
        dropped, handed to joblib before the race ended, is not kept.
        """
        action, i = key
        outputs = self.running.get(action)
        if outputs is None or outputs[i] is _SKIPPED:
            return False
        outputs[i] = output
        if None in outputs:
            self._race(action, outputs)
        return None not in outputs

    def pop(self, action):
        """The outputs of `action`, all in or the first ones of its race, which leaves."""
        with self._lock:
            outputs = self.running.pop(action)
        if _SKIPPED in outputs:
            outputs = outputs[:outputs.index(_SKIPPED)]
        return outputs

    def drop(self, action):
        """Drop the queued tasks of `action`."""
        with self._lock:
            self._drop(action)

    def _drop(self, action):
        self._queue = deque(task for task in self._queue if key_of(task)[0] != action)

    def clear(self):
        """Forget every task queued or running; the ``{action: outputs}`` that were running."""
        with self._lock:
            running, self.running = self.running, {}
            self._queue.clear()
            self.refitting.clear()
        return running

    def n_left(self):
        """Tasks whose outputs are not in, queued or running: of the actions handed out, and
        the early refits."""
        return (sum(out is None for outputs in self.running.values() for out in outputs)
                + len(self.refitting))

    def _n_ready(self):
        """Queued tasks that are not held (see `_held`)."""
        with self._lock:
            return sum(not self._held(key_of(task)) for task in self._queue)

    def _spreads(self):
        """Whether, under `max_time`, fewer actions are queued or running than workers: each
        worker may then take a candidate of its own (speculative or not) rather than a later
        fold of another's, so that a quick candidate's evaluation ends while a slow one's
        folds run."""
        return self._timed and len(self.running) < self.n_workers

    def _held(self, key):
        """Whether the queued task `key` waits for the outputs of its action's earlier tasks.

        A task of an action whose race may still end (`_may_race`) does while
        a task before it is out: the race may end on that one's output, and
        this task would then run for nothing.
        """
        action, i = key
        return i > 0 and self._may_race(action) and None in self.running[action][:i]

    def _may_race(self, action):
        """Whether ``enough`` may end the race of `action`: it is the policy's next decision.

        A policy that races folds races its sequential run's next decision
        only (:attr:`~sksel._core.policy.SequentialPolicy.next_decision`); an
        action handed out ahead of it has its tasks held once it becomes it.
        """
        return self.enough is not None and action == self.policy.next_decision

    def _task_order(self, position):
        """Sort key of the queued task at `position`: the queue's order; under `max_time`,
        first folds before later ones, so that a free worker starts a candidate not started
        rather than a later fold of one under way, then the later folds of the action with
        the most outputs in, the nearest its end (a quick candidate's folds go on while a
        slow one's first fold runs).

        Without `max_time` an action's folds go first, in order: its result comes
        soonest, and the policy's next decisions wait on it.
        """
        if not self._timed:
            return position
        action, i = key_of(self._queue[position])
        n_in = sum(out is not None for out in self.running.get(action, ()))
        return (i > 0, -n_in, position)

    def _race(self, action, outputs):
        """End the race of `action` if ``enough`` says its first outputs suffice.

        Its tasks still queued are dropped; those already handed to joblib
        (speculatively, see `next_task`) finish, and their outputs are not
        reported.
        """
        first = outputs[:outputs.index(None)]
        if self.enough is None or not first or not self.enough(action, first):
            return
        with self._lock:
            self._drop(action)
            outputs[len(first):] = [_SKIPPED] * (len(outputs) - len(first))

    def _late(self, action):
        """None where the folds of `action` not finished can end before `max_time`; else what
        says they cannot, ``(action, mean seconds of a fold, folds finished, folds)``.

        As its folds finished so far predict: their mean seconds, times its
        folds left over the workers. None without `max_time`, or before one
        of its folds finished.
        """
        if not self._timed:
            return None
        outputs = self.running.get(action, ())
        seconds = [out["fit_time"] + out.get("score_time", 0.0) for out in outputs
                   if isinstance(out, dict) and "fit_time" in out]
        if not seconds:
            return None
        left = sum(out is None for out in outputs)
        rounds = -(-left // self.n_workers)
        if np.mean(seconds) * rounds <= self.share.time_left():
            return None
        return action, float(np.mean(seconds)), len(seconds), len(outputs)
