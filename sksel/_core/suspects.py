"""Worker deaths: the actions in flight when a worker died run again alone.

A worker process that dies under its task (a fit that crashes the
interpreter or exhausts the memory) breaks the ``Parallel`` that sent it. The
actions in flight at that moment are suspects: each of them runs again alone,
on a fresh ``Parallel``, its missing tasks only, so that an action that merely
ran beside the culprit is not blamed. A suspect whose worker dies again is
given up as a failed evaluation; then the schedule goes on
(:class:`WorkerDeaths`). dask retries a task whose worker died itself, and a
task of state left on the workers that dask gives up on (``KilledWorker``, or
its state lost with its worker) is a failed evaluation.

A death that a Ctrl-C caused (:func:`~sksel._core.interrupts.is_ctrl_c_in_a_worker`),
or any error after a SIGINT was noted, is the interrupt's: the search stops
rather than running the actions in flight again.
"""

import sys
import warnings
from concurrent.futures.process import BrokenProcessPool

from .interrupts import is_ctrl_c_in_a_worker


def is_worker_death(error):
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


class WorkerDeaths:
    """What an engine's run does when a worker dies under its task (see the module).

    Parameters
    ----------
    tasks : TaskQueue
        The run's tasks (:class:`~sksel._core.dispatch.TaskQueue`).
    name : str
        Name printed in warnings.
    interrupted : callable
        ``interrupted() -> bool``: whether a SIGINT was noted.
    failed_output : callable
        ``failed_output(action, i, reason) -> output`` standing for task `i`
        of `action` given up without a result.
    report : callable
        ``report(action)``: hands on the outputs of `action`, all in.
    """

    def __init__(self, tasks, name, interrupted, failed_output, report):
        self.tasks = tasks
        self.name = name
        self.interrupted = interrupted
        self.failed_output = failed_output
        self.report = report

    def during(self, run, *args):
        """Call ``run(*args)``; the error of a worker that died meanwhile, or None.

        A death that a Ctrl-C caused, or any error that follows a noted
        SIGINT (the error of what its ``KeyboardInterrupt`` cut short),
        raises ``KeyboardInterrupt``.
        """
        try:
            run(*args)
        except Exception as error:
            if self.interrupted():  # the error of something the Ctrl-C cut short
                raise KeyboardInterrupt from error
            if not is_worker_death(error):
                raise
            if is_ctrl_c_in_a_worker(error):
                raise KeyboardInterrupt from error
            return error
        return None

    def retry(self, death, run_alone, stop):
        """Run each action in flight at a worker's `death` alone, in turn.

        ``run_alone(action)`` runs the missing tasks of `action` on a fresh
        ``Parallel``; one whose worker dies again is given up. Nothing more
        runs once ``stop()``.
        """
        suspects = self.tasks.clear()
        warnings.warn(
            f"{self.name}: a worker died ({death!r}) with "
            + (f"{_describe(suspects)} in flight; running each of them again alone."
               if suspects else "no evaluation in flight (an early refit's); going on."),
            RuntimeWarning,
        )
        for action, outputs in suspects.items():
            if stop():
                return
            self.tasks.running[action] = outputs
            death = self.during(run_alone, action)
            if death is not None:
                self.give_up(action, f"its fit died twice with its worker ({death!r})")
            self.tasks.running.pop(action, None)

    def give_up(self, action, why):
        """Report `action` with failed outputs for the tasks its dead workers left."""
        warnings.warn(f"{self.name}: {_describe([action])}: {why}; giving it up.",
                      RuntimeWarning)
        reason = f"this candidate's evaluation was given up: {why}"
        outputs = self.tasks.running[action]
        for i, out in enumerate(outputs):
            if out is None:
                outputs[i] = self.failed_output(action, i, reason)
        self.report(action)
