"""Running a policy's actions on joblib workers.

A policy hands out actions ``(candidate, resource)`` with ``ask`` and learns
their outcome; the engine turns every action into one task per
cross-validation split, runs the tasks on one joblib ``Parallel`` kept open for
the whole search (a fresh one after a worker dies), and calls back when all
splits of an action are in.

Where the backend streams results as they finish (loky, threading, dask), a
worker that frees up takes the next task at once, or an idle task while the
policy has none (:mod:`~sksel._core.idle`); once the policy is done, fits
still running (speculative ones) are abandoned. Other backends run the tasks
in batches of one task per worker, the clock read between batches; with one
worker (or the threading backend) the fits run in this process, and the fit
running at the deadline is cut there (:func:`~sksel._core.deadline.cut_at`).
The deadline is ``max_time`` less the seconds the search keeps for its refit
(:class:`~sksel._core.deadline.SearchShare`).

Each concern of the loop has its module: which task a free worker takes, and
the race of an action's folds (:mod:`~sksel._core.dispatch`); the wait for a
result that ends at the deadline (:mod:`~sksel._core.alarm`); Ctrl-C
(:mod:`~sksel._core.interrupts`); workers that die under their task
(:mod:`~sksel._core.suspects`); threads, GPUs and task keys
(:mod:`~sksel._core.workers`, :mod:`~sksel._core.devices`); refits that idle
workers make early (:mod:`~sksel._core.early_refit`); and the tasks whose
state stays on a dask cluster's workers (:mod:`~sksel._core.dask`).
"""

import os
import queue
import time
import warnings
from contextlib import ExitStack, nullcontext
from uuid import uuid4

from joblib import effective_n_jobs
from sklearn.utils.parallel import Parallel

from .._compat import get_active_backend
from .alarm import watched
from .dask import StateLost, StateOnWorkers, dask_client, surviving_dead_workers
from .deadline import OutOfTime, SearchShare, cut_at
from .dispatch import EarlyRefit, TaskQueue
from .idle import IdleTasks
from .interrupts import noting_interrupts
from .naming import counted
from .suspects import WorkerDeaths, is_worker_death
from .workers import for_joblib, keyed_task, runs_in_process, threads_within_cpus


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
        Wall-clock seconds after which no new task (one fit on one split)
        starts, `reserve` kept aside. The search then ends with the actions
        finished so far; an action with a split left unrun is dropped. With
        ``n_jobs > 1`` on a backend that streams results, the fits still
        running at the deadline are abandoned there (in the main thread on
        POSIX; elsewhere when the next result comes in); fits run in this
        process are cut there (in the main thread on POSIX); otherwise the
        fit running at the deadline finishes.
    reserve : callable or None, default=None
        ``reserve() -> seconds`` of `max_time` kept for what the search does
        after the engine (its refit), read at every look at the clock; None:
        none.
    started : float or None, default=None
        The ``time.perf_counter()`` from which `max_time` counts (the start
        of the search's ``fit``). None: from the start of :meth:`run`.
    name : str
        Name printed in warnings.
    enough : callable or None, default=None
        ``enough(action, outputs) -> bool``, asked with the outputs of the
        first tasks of `action` as they come in (in task order, while some
        are not): True reports `action` at once with those outputs (racing
        the folds of an evaluation); its tasks still queued never run, and
        those already handed to a worker finish unreported. Only the
        policy's ``next_decision`` is raced; its task ``k + 1`` waits for the
        outputs of tasks ``0`` to ``k`` while other tasks are queued (see
        :mod:`~sksel._core.dispatch`).
    state_key : str or None
        The entry of a task's output (a dict) holding learned state that
        later tasks take up, or None. On a dask cluster that state stays on
        the worker that computed it: ``on_done`` receives a reference to it
        in its place (:class:`~sksel._core.dask.StateOnAWorker`), which a later task may take
        as an argument.
    early_refits : EarlyRefits or None, default=None
        Refits of the likely selections, for workers the policy has nothing for
        (:class:`~sksel._core.early_refit.EarlyRefits`: ``task()``,
        ``wanted()``, ``take(key, output)``); None: no early refit.

    Attributes
    ----------
    stop_reason_ : str
        ``"done"``, ``"max_time"`` or ``"interrupted"``.
    cut_short_ : tuple or None
        ``(action, seconds, folds finished, folds)`` where `max_time` ended the
        run before its time because the folds left of `action` could not end
        by then: the mean seconds of its folds finished; else None.
    """

    def __init__(self, make_tasks, on_done, failed_output, *, n_jobs=None, max_time=None,
                 reserve=None, started=None, name="search", enough=None, state_key=None,
                 early_refits=None):
        self.make_tasks = make_tasks
        self.on_done = on_done
        self.failed_output = failed_output
        self.n_jobs = n_jobs
        self.max_time = max_time
        self.reserve = reserve
        self.started = started
        self.name = name
        self.enough = enough
        self.state_key = state_key
        self.early_refits = early_refits

    def run(self, policy):
        """Ask `policy` for actions until it is done, out of time or interrupted.

        `policy` has ``ask(n) -> list of actions`` and a ``done`` property;
        an action is a hashable ``(candidate, resource)`` pair.
        """
        start = time.perf_counter()
        # `max_time` counts from the search's fit where it says when that started.
        self._share = SearchShare(self.max_time, self.reserve,
                                  start if self.started is None else self.started)
        self._policy = policy
        self._n_workers = effective_n_jobs(self.n_jobs)
        backend, _ = get_active_backend()
        self._backend = surviving_dead_workers(backend)
        self._streaming = self._n_workers > 1 and getattr(
            backend, "supports_retrieve_callback", False
        )
        client = dask_client(backend)
        in_process = runs_in_process(self.n_jobs)
        # Names this run for the worker processes sharing the GPUs (`devices`).
        search_id = None if in_process else f"{os.getpid()}-{uuid4().hex}"
        self._tasks = TaskQueue(policy, self.make_tasks, self._n_workers, self._share,
                                enough=self.enough, search_id=search_id)
        self._idle_tasks = IdleTasks(start)
        self._deaths = WorkerDeaths(self._tasks, self.name, lambda: self._interrupted,
                                    self.failed_output, self._report)
        self._n_done = 0
        self.stop_reason_ = "done"
        self._hopeless = False  # what ran was cut at the deadline
        try:
            with (threads_within_cpus(self._n_workers) if in_process else nullcontext(),
                  noting_interrupts() as self._interrupts):
                self._stop_if_interrupted()
                if client is not None and self.state_key is not None:
                    self._run_with_state_on_workers(StateOnWorkers(client, self.state_key))
                    return
                while (death := self._deaths.during(self._run_schedule)) is not None:
                    self._deaths.retry(death, self._run_alone,
                                       stop=lambda: self._out_of_time() or self._policy.done)
                self._stop_if_interrupted()
        except KeyboardInterrupt:
            self.stop_reason_ = "interrupted"
            if self._n_done:  # else the search's fit raises the KeyboardInterrupt itself
                warnings.warn(
                    f"{self.name} interrupted: keeping the "
                    f"{counted(self._n_done, 'evaluation')} finished so far.",
                    RuntimeWarning,
                )
        finally:
            self.cut_short_ = self._tasks.cut_short

    @property
    def _interrupted(self):
        """Whether a SIGINT came since the search's fit started (or this run, alone)."""
        return self._interrupts.count > 0

    def _stop_if_interrupted(self):
        """Raise ``KeyboardInterrupt`` where a SIGINT came whose own was caught."""
        if self._interrupted:
            raise KeyboardInterrupt

    # ---------------------------------------------------------------- schedules
    def _parallel(self):
        """A joblib ``Parallel`` of `n_jobs` workers: streaming its results as they finish,
        two tasks per worker handed out, where the backend can; else in batches."""
        return Parallel(
            n_jobs=self.n_jobs,
            backend=self._backend,
            return_as="generator_unordered" if self._streaming else "list",
            pre_dispatch="2 * n_jobs" if self._streaming else "n_jobs",
            batch_size=1,
        )

    def _run_schedule(self):
        """Run the policy's actions on one ``Parallel`` until done, out of time or
        interrupted; a worker death breaks it (see :meth:`run`)."""
        with ExitStack() as stack:
            # joblib starts loky's executor and its resource tracker, with SIGINT blocked
            # while it spawns the tracker: a KeyboardInterrupt there would leave it blocked.
            with self._interrupts.held():
                parallel = stack.enter_context(self._parallel())
            self._stop_if_interrupted()
            if self._streaming:
                self._run_streaming(parallel)
            else:
                self._run_batches(parallel)

    def _run_streaming(self, parallel):
        """Feed `parallel` the tasks (:meth:`_feed`) and take their results as they finish;
        the fits still running at the end are abandoned."""
        self._refill()
        self._finished = not self._tasks.running
        with self._interrupts.held():  # joblib starts the workers
            outputs = parallel(self._feed())
        try:
            self._stop_if_interrupted()
            with watched(self._share.time_left, self._interrupts) as items:
                self._take(items(outputs), outputs)
        finally:
            self._finished = True
            with warnings.catch_warnings():
                # joblib reports the abandoned fits; they are abandoned on purpose.
                warnings.simplefilter("ignore", UserWarning)
                outputs.close()

    def _take(self, items, outputs):
        """Receive the results of `items`, read from `outputs`, and keep feeding the workers."""
        for item in items:
            if item is not None:
                self._receive(*item)
            if self._out_of_time() or self._policy.done:
                break
            self._refill()
            if not self._tasks.running:
                break
        self._out_of_time()  # the deadline may have ended the wait for an item
        self._finished = True
        self._await_selections_refit(items)
        if not self._tasks.running and not self._tasks.refitting:
            self._drain_idle(outputs)

    def _await_selections_refit(self, items):
        """Once the policy is done, wait in `items` for the early refit of its likeliest
        selection under way (other results are left unread); nothing where there is none."""
        key = None if self.early_refits is None else self.early_refits.wanted()
        if not self._policy.done or key is None or EarlyRefit(key) not in self._tasks.refitting:
            return
        for item in items:
            if item is not None and item[0][0] == EarlyRefit(key):
                self._receive(*item)
                return

    @staticmethod
    def _drain_idle(outputs):
        """Wait for the idle tasks in flight, so that joblib keeps its workers.

        Closing `outputs` with tasks in flight aborts them, and loky then
        kills its workers: the next search would pay for new ones.
        """
        for _ in outputs:
            pass

    def _feed(self):
        """Tasks for joblib; an idle task while the policy waits for results."""
        self._idle_tasks.reset()
        while not self._finished and not self._out_of_time() and not self._interrupted:
            task = self._tasks.next_task()
            if task is not None:
                self._idle_tasks.reset()
                yield for_joblib(task)
            else:
                yield self._idle_tasks.task()

    def _run_batches(self, parallel):
        """Run the tasks in batches of one per worker; in this process, the batch running at
        the deadline is cut there (:func:`~sksel._core.deadline.cut_at`)."""
        in_process = runs_in_process(self.n_jobs)
        while not self._out_of_time():
            self._stop_if_interrupted()
            self._refill()
            if len(self._tasks) == 0:
                return
            batch = []
            while len(batch) < self._n_workers and (task := self._tasks.next_task()) is not None:
                batch.append(for_joblib(task))
            try:
                with cut_at(self._share.time_left() if in_process else None):
                    items = parallel(batch)
            except OutOfTime:
                self._hopeless = True
                self._out_of_time()
                return
            for item in items:
                self._receive(*item)

    def _run_alone(self, action):
        """Run the missing tasks of `action` on a fresh ``Parallel`` of its own.

        The tasks are finite, so the workers are left alive for what follows.
        """
        tasks = self.make_tasks(action)
        missing = (
            for_joblib(keyed_task(action, i, tasks[i], self._tasks.search_id))
            for i, out in enumerate(self._tasks.running[action])
            if out is None and not self._out_of_time()
        )
        with self._parallel() as parallel, watched(self._share.time_left,
                                                   self._interrupts) as items:
            for item in items(parallel(missing)):
                self._receive(*item)

    def _run_with_state_on_workers(self, schedule):
        """Run on dask through `schedule`, two tasks per worker in flight.

        A task that dask gives up (its state lost with its worker, or
        ``KilledWorker``) gives up its action: its other tasks, in flight or
        queued, would kill workers again on another split.
        """
        in_flight = set()
        try:
            while not self._out_of_time() and not self._policy.done:
                self._refill()
                while len(self._tasks) and len(in_flight) < 2 * self._n_workers:
                    in_flight.add(schedule.submit(self._tasks.popleft()))
                if not in_flight:
                    return
                try:
                    token, key, outcome = schedule.next_done(timeout=self._share.time_left())
                except queue.Empty:
                    continue
                in_flight.discard(token)
                action, _ = key
                if not isinstance(outcome, BaseException):
                    self._receive(key, outcome)
                    continue
                if not isinstance(outcome, StateLost) and not is_worker_death(outcome):
                    raise outcome
                self._deaths.give_up(action, f"dask gave up its task ({outcome!r})")
                self._tasks.drop(action)
                cancelled = {token for token in in_flight if schedule.key(token)[0] == action}
                schedule.cancel(cancelled)
                in_flight -= cancelled
        finally:
            schedule.cancel(in_flight)
            schedule.close()

    # ------------------------------------------------------------- bookkeeping
    def _refill(self):
        """Queue the policy's actions (:meth:`~sksel._core.dispatch.TaskQueue.refill`) until
        the deadline; where it has none, an early refit for a worker that would idle."""
        if not self._tasks.refill(stop=lambda: self._out_of_time() or self._share.passed()):
            self._queue_early_refit()

    def _queue_early_refit(self):
        """Queue the likeliest selection's refit where a worker would otherwise idle:
        fewer tasks queued or running than workers, results streaming in, no `max_time`."""
        if (self.early_refits is None or not self._streaming or self.max_time is not None
                or self._tasks.n_left() >= self._n_workers):
            return
        started = self.early_refits.task()
        if started is not None:
            self._tasks.add_early_refit(*started)

    def _receive(self, key, output):
        """Take the `output` of task `key`; report its action once that is complete."""
        self._stop_if_interrupted()  # the fit that returned `output` may have caught it
        self._idle_tasks.note(output)
        action, _ = key
        if isinstance(action, EarlyRefit):
            self._tasks.refitting.discard(action)
            self.early_refits.take(tuple(action), output)
        elif self._tasks.take(key, output):
            self._report(action)

    def _report(self, action):
        """Hand the outputs of `action`, all in or the first ones of its race, to ``on_done``."""
        outputs = self._tasks.pop(action)
        self._n_done += 1
        self.on_done(action, outputs)

    def _out_of_time(self):
        """Whether the search's share of `max_time` has ended, or what is left cannot end
        before it (``cut_short_``); sets ``stop_reason_`` then."""
        if self.max_time is None:
            return False
        hopeless = self._hopeless or self._tasks.cut_short is not None
        if not self._share.passed() and not hopeless:
            return False
        if self.stop_reason_ == "done":
            self.stop_reason_ = "max_time"
        return True
