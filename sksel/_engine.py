"""Running a policy's actions on joblib workers.

A policy hands out actions ``(candidate, resource)`` with ``ask`` and learns
their outcome; the engine turns every action into one task per
cross-validation split, runs the tasks on one joblib ``Parallel`` kept open for
the whole search, and calls back when all splits of an action are in.

Where the backend streams results as they finish (``return_as=
"generator_unordered"``: loky, threading, dask), a worker that frees up gets the
next task at once: the task generator is read by joblib whenever a worker is
free, and when the policy has nothing to give yet it hands out a short idle
task, so the generator never blocks (it is read under joblib's dispatch lock)
and never ends before the search does. Once the policy is done, fits still
running (speculative ones) are abandoned. Other backends run the actions in
batches.
"""

import time
import warnings
from collections import deque

from joblib import effective_n_jobs
from joblib.parallel import get_active_backend
from sklearn.utils.parallel import Parallel, delayed

_IDLE_SECONDS = 0.02


def _idle():
    time.sleep(_IDLE_SECONDS)


def _keyed(key, func, *args, **kwargs):
    return key, func(*args, **kwargs)


class Engine:
    """Run a policy's actions, each a set of tasks, on joblib workers.

    Parameters
    ----------
    make_tasks : callable
        ``make_tasks(action) -> list of (func, args, kwargs)``, the tasks of one
        action (one per cross-validation split).
    on_done : callable
        ``on_done(action, outputs)``, called in the calling thread with the
        outputs of all tasks of `action`, in task order; it tells the policy.
    failed_output : callable
        ``failed_output(action, i, reason) -> output``: the output standing
        for task `i` of `action` when it is given up without a result (its
        worker died), `reason` saying why.
    n_jobs : int or None
        Number of joblib workers.
    max_time : float or None
        Wall-clock seconds after which no new action starts and the search
        ends with what it has.
    verbose : int
        Print one line per finished action at ``verbose >= 1``.
    name : str
        Name printed in progress lines.

    Attributes
    ----------
    stop_reason_ : str
        ``"done"``, ``"max_time"`` or ``"interrupted"``.
    """

    def __init__(self, make_tasks, on_done, failed_output, *, n_jobs=None, max_time=None,
                 verbose=0, name="search"):
        self.make_tasks = make_tasks
        self.on_done = on_done
        self.failed_output = failed_output
        self.n_jobs = n_jobs
        self.max_time = max_time
        self.verbose = verbose
        self.name = name

    def run(self, policy):
        """Ask `policy` for actions until it is done, out of time or interrupted.

        `policy` has ``ask(n) -> list of actions`` and a ``done`` property;
        an action is a hashable ``(candidate, resource)`` pair.
        """
        self._start = time.perf_counter()
        self._policy = policy
        self._queue = deque()
        self._running = {}
        self._n_done = 0
        self.stop_reason_ = "done"
        n_workers = effective_n_jobs(self.n_jobs)
        backend, _ = get_active_backend()
        streaming = n_workers > 1 and getattr(backend, "supports_retrieve_callback", False)
        try:
            with Parallel(
                n_jobs=self.n_jobs,
                return_as="generator_unordered" if streaming else "list",
                pre_dispatch="n_jobs",
                batch_size=1,
            ) as parallel:
                if streaming:
                    self._run_streaming(parallel, n_workers)
                else:
                    self._run_batches(parallel, n_workers)
        except KeyboardInterrupt:
            self.stop_reason_ = "interrupted"
            warnings.warn(
                f"{self.name} interrupted: keeping the {self._n_done} evaluations "
                "finished so far.",
                RuntimeWarning,
            )

    # ---------------------------------------------------------------- schedules
    def _run_streaming(self, parallel, n_workers):
        self._refill(n_workers)
        self._finished = not self._running
        outputs = parallel(self._feed())
        try:
            for item in outputs:
                if item is not None:
                    self._receive(*item)
                if self._out_of_time() or self._policy.done:
                    break
                self._refill(n_workers)
                if not self._running:
                    break
        finally:
            self._finished = True
            with warnings.catch_warnings():
                # joblib reports the abandoned fits; they are abandoned on purpose.
                warnings.simplefilter("ignore", UserWarning)
                outputs.close()

    def _run_batches(self, parallel, n_workers):
        while not self._out_of_time():
            self._refill(n_workers)
            if not self._running:
                return
            tasks = list(self._queue)
            self._queue.clear()
            for item in parallel(tasks):
                self._receive(*item)

    def _feed(self):
        """Tasks for joblib; an idle task while the policy waits for results."""
        while not self._finished:
            yield self._queue.popleft() if self._queue else delayed(_idle)()

    # ------------------------------------------------------------- bookkeeping
    def _refill(self, n_workers):
        """Queue actions until every worker has a task or the policy has none."""
        while len(self._queue) < n_workers and not self._out_of_time():
            actions = self._policy.ask(1)
            if not actions:
                return
            action = actions[0]
            tasks = self.make_tasks(action)
            self._running[action] = [None] * len(tasks)
            for i, (func, args, kwargs) in enumerate(tasks):
                self._queue.append(delayed(_keyed)((action, i), func, *args, **kwargs))

    def _receive(self, key, output):
        action, i = key
        outputs = self._running[action]
        outputs[i] = output
        if all(out is not None for out in outputs):
            del self._running[action]
            self._n_done += 1
            self.on_done(action, outputs)
            if self.verbose >= 1:
                elapsed = time.perf_counter() - self._start
                print(f"[{self.name}] {self._n_done:4d} candidate {action[0]} at "
                      f"{action[1]}  ({elapsed:.1f}s)")

    def _out_of_time(self):
        if self.max_time is None:
            return False
        if time.perf_counter() - self._start < self.max_time:
            return False
        if self.stop_reason_ == "done":
            self.stop_reason_ = "max_time"
        return True
