"""Running a policy's actions on joblib workers.

A policy hands out actions ``(candidate, resource)`` with ``ask`` and learns
their outcome; the engine turns every action into one task per
cross-validation split, runs the tasks on one joblib ``Parallel`` kept open for
the whole search (a fresh one after a worker dies), and calls back when all
splits of an action are in.

Where the backend streams results as they finish (``return_as=
"generator_unordered"``: loky, threading, dask), a worker that frees up gets the
next task at once: the task generator is read by joblib whenever a worker is
free, and when the policy has nothing to give yet it hands out a short idle
task, so the generator never blocks (it is read under joblib's dispatch lock)
and never ends before the search does. Once the policy is done, fits still
running (speculative ones) are abandoned. At ``max_time`` too: the wait for
the next result ends at the deadline even while every worker is in a long
fit (:class:`~sksel._core.alarm.WaitAlarm`, a SIGALRM), and joblib aborts the tasks in
flight (loky kills the workers running them; threads cannot be killed, so
under the threading backend those fits run to their end, unused). Where the
alarm cannot ring (outside the main thread, without ``signal.setitimer``,
or while another timer of the process is armed), the deadline is read when
the next result comes in. With one worker (or the threading backend) the
fits run in this process, and the fit running at the deadline is cut there
(:func:`~sksel._core.deadline.cut_at`). The deadline is `max_time` less the
seconds the search keeps for its refit (`reserve`; see
:mod:`~sksel._core.deadline`). Other backends run the tasks in batches of one
task per worker, the clock read between batches. No task starts whose
action's folds left cannot end by ``max_time``, as the mean seconds of its
folds finished predict (``cut_short_``): with one worker such a fold would
run past the deadline, with several it would be abandoned there.

Under ``max_time`` the policy is asked for actions (speculative ones too)
until each worker may take a candidate of its own; a free worker takes the
first fold of an action not started before a later fold of one under way,
and among later folds those of the action with the most outputs in; and
joblib gets no more tasks than workers are free: a quick candidate's
evaluation then ends while a slow one's folds run, rather than wait behind
them. Otherwise tasks go in the order their actions were handed out.

Two tasks per worker are handed to joblib at a time, so that a worker that
finishes starts the next at once rather than when the calling process gets
to it; a policy's speculative actions are asked for only while fewer tasks
than that are queued or running, so that they are picked on the latest
results.

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

Fits run in this process are capped at the CPUs they share, and a worker
process takes a GPU of its own (:mod:`~sksel._core.workers`). A Ctrl-C
belongs to the search (:mod:`~sksel._core.interrupts`).

A worker that the policy has nothing for refits the likeliest selection on
all the rows (``early_refits``, :mod:`~sksel._core.early_refit`), where results
stream in and without `max_time`: once the policy is done, the engine waits
for the selection's refit under way, and leaves the others.

On a dask cluster, the tasks of a search whose outputs hold state that later
tasks take up (``state_key``: Mutant-UCB's model between two sub-trains) are
submitted to dask directly (:mod:`~sksel._core.dask`), so that the state stays
on the worker that trained it and the next task runs there.

A worker process that dies under its task (a fit that crashes the
interpreter or exhausts the memory) breaks the ``Parallel`` that sent it. The
actions in flight at that moment are suspects: each of them runs again alone,
on a fresh ``Parallel``, its missing tasks only, so that an action that merely
ran beside the culprit is not blamed. A suspect whose worker dies again is
given up as a failed evaluation; then the schedule goes on. dask retries a
task whose worker died itself, and a task of state left on the workers that
dask gives up on (``KilledWorker``, or its state lost with its worker) is a
failed evaluation.
"""

import os
import queue
import sys
import threading
import time
import warnings
from collections import deque
from concurrent.futures.process import BrokenProcessPool
from contextlib import ExitStack, nullcontext
from uuid import uuid4

import numpy as np
from joblib import effective_n_jobs
from sklearn.utils.parallel import Parallel, delayed

from .._compat import get_active_backend
from .alarm import watched
from .dask import StateLost, StateOnWorkers, dask_client, surviving_dead_workers
from .deadline import OutOfTime, cut_at
from .interrupts import is_ctrl_c_in_a_worker, noting_interrupts
from .naming import counted
from .workers import for_joblib, key_of, keyed_task, runs_in_process, threads_within_cpus

#: An idle task's first sleep, doubled for each idle task in a row up to the longest, and
#: to at most a share of the tasks' mean seconds (see `Engine._longest_idle`).
_IDLE_SECONDS, _IDLE_LONGEST, _IDLE_SHARE = 0.005, 0.08, 0.05
#: The output slot of a task that a race left unrun.
_SKIPPED = object()


def _idle(seconds):
    time.sleep(seconds)


class _EarlyRefit(tuple):
    """The key, in the engine's task keys, of the early refit of ``(candidate, resource)``."""


def _is_worker_death(error):
    """Whether `error` reports a worker process that died under its task.

    loky's ``TerminatedWorkerError`` is a ``BrokenProcessPool``; dask raises
    ``KilledWorker`` once a task has been on too many workers that died. An
    error of dask's class means that distributed is loaded: it is not imported
    here.
    """
    if isinstance(error, BrokenProcessPool):
        return True
    scheduler = sys.modules.get("distributed.scheduler")
    return scheduler is not None and isinstance(error, scheduler.KilledWorker)


def _describe(actions):
    """Name `actions` in a warning."""
    return ", ".join(f"candidate {candidate} at {resource}" for candidate, resource in actions)


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
        the module docstring).
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
        self._start = time.perf_counter()
        # `max_time` counts from the search's fit where it says when that started.
        self._deadline_from = self._start if self.started is None else self.started
        self._policy = policy
        self._queue = deque()
        # Guards `_queue` and the keys of `_running`: joblib reads `_feed` in a thread of
        # its own, while this one queues, races and reports.
        self._queue_lock = threading.Lock()
        self._running = {}
        self._refitting = set()  # the early refits queued or running
        self._n_done = 0
        self._task_seconds, self._n_timed_tasks = 0.0, 0  # fit and score seconds so far
        self.stop_reason_ = "done"
        self._hopeless = False
        self.cut_short_ = None
        self._n_workers = effective_n_jobs(self.n_jobs)
        backend, _ = get_active_backend()
        self._backend = surviving_dead_workers(backend)
        self._streaming = self._n_workers > 1 and getattr(
            backend, "supports_retrieve_callback", False
        )
        client = dask_client(backend)
        in_process = runs_in_process(self.n_jobs)
        # Names this run for the worker processes sharing the GPUs (`devices`).
        self._search_id = None if in_process else f"{os.getpid()}-{uuid4().hex}"
        try:
            with (threads_within_cpus(self._n_workers) if in_process else nullcontext(),
                  noting_interrupts() as self._interrupts):
                self._stop_if_interrupted()
                if client is not None and self.state_key is not None:
                    self._run_with_state_on_workers(StateOnWorkers(client, self.state_key))
                    return
                while (death := self._death_during(self._run_schedule)) is not None:
                    self._retry_suspects(death)
                self._stop_if_interrupted()
        except KeyboardInterrupt:
            self.stop_reason_ = "interrupted"
            if self._n_done:  # else the search's fit raises the KeyboardInterrupt itself
                warnings.warn(
                    f"{self.name} interrupted: keeping the "
                    f"{counted(self._n_done, 'evaluation')} finished so far.",
                    RuntimeWarning,
                )

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
        return Parallel(
            n_jobs=self.n_jobs,
            backend=self._backend,
            return_as="generator_unordered" if self._streaming else "list",
            pre_dispatch="2 * n_jobs" if self._streaming else "n_jobs",
            batch_size=1,
        )

    def _run_schedule(self):
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
        self._refill()
        self._finished = not self._running
        with self._interrupts.held():  # joblib starts the workers
            outputs = parallel(self._feed())
        try:
            self._stop_if_interrupted()
            with watched(self._time_left, self._interrupts) as items:
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
            if not self._running:
                break
        self._out_of_time()  # the deadline may have ended the wait for an item
        self._finished = True
        self._await_selections_refit(items)
        if not self._running and not self._refitting:
            self._drain_idle(outputs)

    def _await_selections_refit(self, items):
        """Once the policy is done, wait in `items` for the early refit of its likeliest
        selection under way (other results are left unread); nothing where there is none."""
        key = None if self.early_refits is None else self.early_refits.wanted()
        if not self._policy.done or key is None or _EarlyRefit(key) not in self._refitting:
            return
        for item in items:
            if item is not None and item[0][0] == _EarlyRefit(key):
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

    def _run_batches(self, parallel):
        """Run the tasks in batches of one per worker; in this process, the batch running at
        the deadline is cut there (:func:`~sksel._core.deadline.cut_at`)."""
        in_process = runs_in_process(self.n_jobs)
        while not self._out_of_time():
            self._stop_if_interrupted()
            self._refill()
            if not self._queue:
                return
            batch = []
            while len(batch) < self._n_workers and (task := self._next_task()) is not None:
                batch.append(for_joblib(task))
            try:
                with cut_at(self._time_left() if in_process else None):
                    items = parallel(batch)
            except OutOfTime:
                self._hopeless = True  # what ran was cut at the deadline
                self._out_of_time()
                return
            for item in items:
                self._receive(*item)

    def _feed(self):
        """Tasks for joblib; an idle task while the policy waits for results.

        Idle tasks in a row sleep twice as long as the one before, up to
        :meth:`_longest_idle`: each one costs this process a dispatch, which
        a worker waiting for a long fit would otherwise repeat every few
        milliseconds; and the task that the policy then gives waits behind
        the idle tasks already handed to joblib, which for short fits would
        idle the workers longer than the dispatches saved.
        """
        idle = _IDLE_SECONDS
        while not self._finished and not self._out_of_time() and not self._interrupted:
            task = self._next_task()
            if task is not None:
                idle = _IDLE_SECONDS
                yield for_joblib(task)
            else:
                yield delayed(_idle)(idle)
                idle = min(2 * idle, self._longest_idle())

    def _longest_idle(self):
        """The longest sleep of an idle task: `_IDLE_SHARE` of a task's mean seconds.

        A task's seconds are its output's ``fit_time`` and ``score_time``;
        before any output holds them, the seconds since the run started
        (the first tasks are still running). Within `_IDLE_SECONDS` and
        `_IDLE_LONGEST`.
        """
        if self._n_timed_tasks:
            typical = self._task_seconds / self._n_timed_tasks
        else:
            typical = time.perf_counter() - self._start
        return min(_IDLE_LONGEST, max(_IDLE_SECONDS, _IDLE_SHARE * typical))

    def _note_task_seconds(self, output):
        """Count the fit and score seconds of a task's `output` (a dict that has them)."""
        if not isinstance(output, dict) or "fit_time" not in output:
            return
        self._task_seconds += output["fit_time"] + output.get("score_time", 0.0)
        self._n_timed_tasks += 1

    def _run_with_state_on_workers(self, schedule):
        """Run on dask through `schedule`, two tasks per worker in flight."""
        in_flight = set()
        try:
            while not self._out_of_time() and not self._policy.done:
                self._refill()
                while self._queue and len(in_flight) < 2 * self._n_workers:
                    in_flight.add(schedule.submit(self._queue.popleft()))
                if not in_flight:
                    return
                try:
                    token, key, outcome = schedule.next_done(timeout=self._time_left())
                except queue.Empty:
                    continue
                in_flight.discard(token)
                given_up = self._receive_from_dask(key, outcome)
                if given_up is not None:
                    in_flight -= self._drop_tasks_of(given_up, schedule, in_flight)
        finally:
            schedule.cancel(in_flight)
            schedule.close()

    def _receive_from_dask(self, key, outcome):
        """Receive a task's output; the action given up if dask gave the task up, else None."""
        action, _ = key
        if not isinstance(outcome, BaseException):
            self._receive(key, outcome)
            return None
        if not isinstance(outcome, StateLost) and not _is_worker_death(outcome):
            raise outcome
        self._give_up(action, f"dask gave up its task ({outcome!r})")
        return action

    def _drop_tasks_of(self, action, schedule, in_flight):
        """Cancel the tasks of `action` in flight, drop those queued; the tokens cancelled.

        A task that killed its worker until dask gave it up would kill
        workers again on another split.
        """
        self._queue = deque(task for task in self._queue if key_of(task)[0] != action)
        cancelled = {token for token in in_flight if schedule.key(token)[0] == action}
        schedule.cancel(cancelled)
        return cancelled

    # ------------------------------------------------------------ worker deaths
    def _death_during(self, run, *args):
        """Call ``run(*args)``; the error of a worker that died meanwhile, or None.

        A death that a Ctrl-C caused, or any error that follows a noted
        SIGINT (the error of what its ``KeyboardInterrupt`` cut short),
        raises ``KeyboardInterrupt``.
        """
        try:
            run(*args)
        except Exception as error:
            if self._interrupted:  # the error of something the Ctrl-C cut short
                raise KeyboardInterrupt from error
            if not _is_worker_death(error):
                raise
            if is_ctrl_c_in_a_worker(error):
                raise KeyboardInterrupt from error
            return error
        return None

    def _retry_suspects(self, death):
        """Run each action in flight at a worker's `death` alone, in turn."""
        suspects = self._running
        self._running = {}
        self._queue.clear()
        self._refitting.clear()
        warnings.warn(
            f"{self.name}: a worker died ({death!r}) with "
            + (f"{_describe(suspects)} in flight; running each of them again alone."
               if suspects else "no evaluation in flight (an early refit's); going on."),
            RuntimeWarning,
        )
        for action, outputs in suspects.items():
            if self._out_of_time() or self._policy.done:
                return
            self._running[action] = outputs
            death = self._death_during(self._run_alone, action)
            if death is not None:
                self._give_up(action, f"its fit died twice with its worker ({death!r})")
            self._running.pop(action, None)

    def _run_alone(self, action):
        """Run the missing tasks of `action` on a fresh ``Parallel`` of its own.

        The tasks are finite, so the workers are left alive for what follows.
        """
        tasks = self.make_tasks(action)
        missing = (
            for_joblib(keyed_task(action, i, tasks[i], self._search_id))
            for i, out in enumerate(self._running[action])
            if out is None and not self._out_of_time()
        )
        with self._parallel() as parallel, watched(self._time_left,
                                                   self._interrupts) as items:
            for item in items(parallel(missing)):
                self._receive(*item)

    def _give_up(self, action, why):
        """Report `action` with failed outputs for the tasks its dead workers left."""
        warnings.warn(f"{self.name}: {_describe([action])}: {why}; giving it up.",
                      RuntimeWarning)
        reason = f"this candidate's evaluation was given up: {why}"
        outputs = self._running[action]
        for i, out in enumerate(outputs):
            if out is None:
                outputs[i] = self.failed_output(action, i, reason)
        self._report(action)

    # ------------------------------------------------------------- bookkeeping
    def _refill(self):
        """Queue actions until every worker has a task not held (`_held`) or the policy has none.

        Speculative actions only while fewer than two tasks per worker are
        queued or running (handed to joblib included): asked earlier, the
        policy would pick them on older results, and more of them would be
        wasted; a guess (``idle``) only while fewer than one per worker are,
        for a worker that would otherwise idle. Actions whose results will
        be used are queued ahead further, which keeps workers fed where
        tasks take a while to reach them.
        """
        while ((self._n_ready() < self._n_workers or self._spreads())
               and not self._out_of_time() and not self._past_max_time()):
            n_left = self._n_tasks_left()
            speculative = n_left < 2 * self._n_workers or self._spreads()
            actions = self._policy.ask(1, speculative=speculative,
                                       idle=n_left < self._n_workers)
            if not actions:
                self._queue_early_refit()
                return
            action = actions[0]
            tasks = self.make_tasks(action)
            with self._queue_lock:
                self._running[action] = [None] * len(tasks)
                self._queue.extend(keyed_task(action, i, task, self._search_id)
                                   for i, task in enumerate(tasks))

    def _queue_early_refit(self):
        """Queue the likeliest selection's refit where a worker would otherwise idle:
        fewer tasks queued or running than workers, results streaming in, no `max_time`."""
        if (self.early_refits is None or not self._streaming or self.max_time is not None
                or self._n_tasks_left() >= self._n_workers):
            return
        started = self.early_refits.task()
        if started is None:
            return
        key, task = started
        with self._queue_lock:
            self._refitting.add(_EarlyRefit(key))
            self._queue.append(keyed_task(_EarlyRefit(key), 0, task, self._search_id))

    def _spreads(self):
        """Whether, under `max_time`, fewer actions are queued or running than workers: each
        worker may then take a candidate of its own (speculative or not) rather than a later
        fold of another's, so that a quick candidate's evaluation ends while a slow one's
        folds run."""
        return self.max_time is not None and len(self._running) < self._n_workers

    def _held(self, key):
        """Whether the queued task `key` waits for the outputs of its action's earlier tasks.

        A task of an action whose race may still end (`_may_race`) does while
        a task before it is out: the race may end on that one's output, and
        this task would then run for nothing.
        """
        action, i = key
        return i > 0 and self._may_race(action) and None in self._running[action][:i]

    def _may_race(self, action):
        """Whether ``enough`` may end the race of `action`: it is the policy's next decision.

        A policy that races folds races its sequential run's next decision
        only (:attr:`~sksel._core.policy.SequentialPolicy.next_decision`); an
        action handed out ahead of it has its tasks held once it becomes it.
        """
        return self.enough is not None and action == self._policy.next_decision

    def _next_task(self):
        """Take the first queued task that is not held (see `_held`), in `_task_order`, or None.

        While a task is held, or under `max_time`, another is taken only for
        a worker that is free (fewer tasks handed out than workers), not to
        wait in joblib's queue ahead of the held one, or ahead of the folds
        of a quicker candidate; a held task is taken only where nothing
        else is queued, as speculative work that the worker would otherwise
        idle through. None: the worker gets an idle task.
        """
        with self._queue_lock:
            if not self._queue:
                return None
            held = [self._held(key_of(task)) for task in self._queue]
            if ((any(held) or self.max_time is not None)
                    and self._n_tasks_left() - len(self._queue) >= self._n_workers):
                return None
            ready = [k for k, is_held in enumerate(held) if not is_held] or [0]
            late = {k: self._late(key_of(self._queue[k])[0]) for k in ready}
            timely = [k for k in ready if late[k] is None]
            if not timely:
                self.cut_short_ = late[ready[0]]
                self._hopeless = True  # out of time: what is left cannot end before it
                return None
            position = min(timely, key=self._task_order)
            task = self._queue[position]
            del self._queue[position]
            return task

    def _task_order(self, position):
        """Sort key of the queued task at `position`: the queue's order; under `max_time`,
        first folds before later ones, so that a free worker starts a candidate not started
        rather than a later fold of one under way, then the later folds of the action with
        the most outputs in, the nearest its end (a quick candidate's folds go on while a
        slow one's first fold runs).

        Without `max_time` an action's folds go first, in order: its result comes
        soonest, and the policy's next decisions wait on it.
        """
        if self.max_time is None:
            return position
        action, i = key_of(self._queue[position])
        n_in = sum(out is not None for out in self._running.get(action, ()))
        return (i > 0, -n_in, position)

    def _n_ready(self):
        """Queued tasks that are not held (see `_held`)."""
        with self._queue_lock:
            return sum(not self._held(key_of(task)) for task in self._queue)

    def _n_tasks_left(self):
        """Tasks whose outputs are not in, queued or running: of the actions handed out, and
        the early refits."""
        return (sum(out is None for outputs in self._running.values() for out in outputs)
                + len(self._refitting))

    def _receive(self, key, output):
        self._stop_if_interrupted()  # the fit that returned `output` may have caught it
        self._note_task_seconds(output)
        action, i = key
        if isinstance(action, _EarlyRefit):
            self._refitting.discard(action)
            self.early_refits.take(tuple(action), output)
            return
        outputs = self._running.get(action)
        if outputs is None or outputs[i] is _SKIPPED:
            return  # handed to joblib before its action's race ended
        outputs[i] = output
        if None in outputs:
            self._race(action, outputs)
        if None not in outputs:
            self._report(action)

    def _race(self, action, outputs):
        """End the race of `action` if ``enough`` says its first outputs suffice.

        Its tasks still queued are dropped; those already handed to joblib
        (speculatively, see `_next_task`) finish, and their outputs are not
        reported.
        """
        first = outputs[:outputs.index(None)]
        if self.enough is None or not first or not self.enough(action, first):
            return
        with self._queue_lock:
            self._queue = deque(task for task in self._queue if key_of(task)[0] != action)
            outputs[len(first):] = [_SKIPPED] * (len(outputs) - len(first))

    def _report(self, action):
        """Hand the outputs of `action`, all in or the first ones of its race, to ``on_done``."""
        with self._queue_lock:
            outputs = self._running.pop(action)
        if _SKIPPED in outputs:
            outputs = outputs[:outputs.index(_SKIPPED)]
        self._n_done += 1
        self.on_done(action, outputs)

    def _late(self, action):
        """None where the folds of `action` not finished can end before `max_time`; else what
        says they cannot, ``(action, mean seconds of a fold, folds finished, folds)``.

        As its folds finished so far predict: their mean seconds, times its
        folds left over the workers. None without `max_time`, or before one
        of its folds finished. Where no task queued can end in time, nothing
        more is started (`_hopeless`, ``cut_short_``): with one worker the
        fold would run past the deadline, and with more it would be abandoned
        there.
        """
        if self.max_time is None:
            return None
        outputs = self._running.get(action, ())
        seconds = [out["fit_time"] + out.get("score_time", 0.0) for out in outputs
                   if isinstance(out, dict) and "fit_time" in out]
        if not seconds:
            return None
        left = sum(out is None for out in outputs)
        rounds = -(-left // self._n_workers)
        if np.mean(seconds) * rounds <= self._time_left():
            return None
        return action, float(np.mean(seconds)), len(seconds), len(outputs)

    def _deadline(self):
        """Seconds from the deadline's start after which the run ends: `max_time` less what
        the search keeps (`reserve`)."""
        return self.max_time - (0.0 if self.reserve is None else self.reserve())

    def _past_max_time(self):
        """Whether the deadline has passed: no new action is asked for."""
        return (self.max_time is not None
                and time.perf_counter() - self._deadline_from >= self._deadline())

    def _time_left(self):
        """Seconds until the run ends (:meth:`_deadline`), or None without `max_time`."""
        if self.max_time is None:
            return None
        return max(0.0, self._deadline() - (time.perf_counter() - self._deadline_from))

    def _out_of_time(self):
        if self.max_time is None:
            return False
        if time.perf_counter() - self._deadline_from < self._deadline() and not self._hopeless:
            return False
        if self.stop_reason_ == "done":
            self.stop_reason_ = "max_time"
        return True
