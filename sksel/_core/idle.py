"""Idle tasks: what a free worker gets while the policy waits for results.

Where the backend streams results as they finish (``return_as=
"generator_unordered"``: loky, threading, dask), a worker that frees up gets
the next task at once: joblib reads the engine's task generator whenever a
worker is free. When the policy has nothing to give yet, the generator hands
out a short idle task (:class:`IdleTasks`), so that it never blocks (joblib
reads it under its dispatch lock) and never ends before the search does.

Idle tasks in a row sleep twice as long as the one before, up to a share of
a task's mean seconds: each one costs the calling process a dispatch, which a
worker waiting for a long fit would otherwise repeat every few milliseconds;
and the task that the policy then gives waits behind the idle tasks already
handed to joblib, which for short fits would idle the workers longer than the
dispatches saved.
"""

import time

from sklearn.utils.parallel import delayed

#: An idle task's first sleep, doubled for each idle task in a row up to the longest, and
#: to at most a share of the tasks' mean seconds (see `IdleTasks._longest`).
_IDLE_SECONDS, _IDLE_LONGEST, _IDLE_SHARE = 0.005, 0.08, 0.05


def _idle(seconds):
    time.sleep(seconds)


class IdleTasks:
    """The idle tasks of one run, each sleeping longer than the one before it.

    Parameters
    ----------
    started : float
        The ``time.perf_counter()`` at which the run started: before any
        task's seconds are known, a task is taken to last since then.
    """

    def __init__(self, started):
        self._started = started
        self._task_seconds, self._n_timed = 0.0, 0
        self._sleep = _IDLE_SECONDS

    def note(self, output):
        """Count the fit and score seconds of a task's `output` (a dict that has them)."""
        if not isinstance(output, dict) or "fit_time" not in output:
            return
        self._task_seconds += output["fit_time"] + output.get("score_time", 0.0)
        self._n_timed += 1

    def reset(self):
        """Start again from the shortest sleep: a worker got a task of the policy's."""
        self._sleep = _IDLE_SECONDS

    def task(self):
        """The next idle task, for joblib; the one after it sleeps twice as long."""
        task = delayed(_idle)(self._sleep)
        self._sleep = min(2 * self._sleep, self._longest())
        return task

    def _longest(self):
        """The longest sleep of an idle task: `_IDLE_SHARE` of a task's mean seconds.

        A task's seconds are its output's ``fit_time`` and ``score_time``;
        before any output holds them, the seconds since the run started
        (the first tasks are still running). Within `_IDLE_SECONDS` and
        `_IDLE_LONGEST`.
        """
        if self._n_timed:
            typical = self._task_seconds / self._n_timed
        else:
            typical = time.perf_counter() - self._started
        return min(_IDLE_LONGEST, max(_IDLE_SECONDS, _IDLE_SHARE * typical))
