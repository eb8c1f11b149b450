"""A Ctrl-C belongs to the search: every SIGINT of a fit is noted, and ends it.

Some models catch the ``KeyboardInterrupt`` a Ctrl-C raises in their fit and
return early (scikit-learn's MLP, skorch's nets), and a finalizer that the
garbage collector runs when it comes drops it. The search's ``fit`` therefore
notes every SIGINT from its start (:func:`noting_interrupts`); the engine
starts no task once one came, and it stops without reporting any output that
arrives after it: a sub-train cut short is neither told to the policy nor
checkpointed. Any error that follows a noted SIGINT is taken for the
interrupt's.

While joblib starts its executor and workers, a SIGINT is only noted
(:meth:`Interrupts.held`), and acted on once they are started: its
``KeyboardInterrupt`` there would cut loky's start short, and joblib's abort
would then fail on the thread left half started (an error instead of the
interrupt, and a pool that hangs), or, landing just after loky blocks SIGINT
to spawn its resource tracker, leave SIGINT blocked in the main thread for the
rest of the process (every later Ctrl-C unseen: ``fit`` also unblocks it for
its own run).

A Ctrl-C reaches the worker processes too. One in a fit sends its
``KeyboardInterrupt`` back as the task's error; one waiting for its next
task, or reading it, exits, and loky reports a broken pool: that worker death
is the Ctrl-C too (:func:`is_ctrl_c_in_a_worker`, as is any after a SIGINT was
noted), and the search stops rather than running the actions in flight again.
"""

import signal
import threading
from contextlib import contextmanager


class Interrupts:
    """The SIGINTs received in the block of :func:`noting_interrupts`: ``count``."""

    def __init__(self):
        self.count = 0
        self._held = 0
        #: Whether the block is running: a handler left noting after its block ended is
        #: not nested into.
        self.open = True
        #: Called, without arguments, after each SIGINT is counted.
        self.then = []

    @contextmanager
    def held(self):
        """Count the SIGINTs in the block without raising their ``KeyboardInterrupt`` there.

        For code that a ``KeyboardInterrupt`` would leave broken rather than
        stopped (loky starting its workers and its manager thread: joblib's
        abort then fails to join a thread not yet started); the caller reads
        ``count`` after the block.
        """
        self._held += 1
        try:
            yield
        finally:
            self._held -= 1


@contextmanager
def noting_interrupts():
    """Count every SIGINT while in the block, then handle it as before; yields :class:`Interrupts`.

    Within an outer such block (the search's ``fit``), the outer count goes
    on: a SIGINT before the inner block is in it.

    Only in the main thread, where signals are handled, and only over a
    handler that is a function (the default one raises
    ``KeyboardInterrupt``); an ignored SIGINT stays ignored. The count
    keeps a Ctrl-C whose ``KeyboardInterrupt`` something caught (a model's
    fit, a finalizer run by the garbage collector meanwhile).

    Whatever ran before in the process, a Ctrl-C reaches the block: a
    SIGINT blocked in this thread (loky blocks it while it starts its
    resource tracker, and a ``KeyboardInterrupt`` landing there leaves it
    blocked: every later Ctrl-C would wait, pending, unseen) is unblocked
    for the block, and a counting handler left behind by a block that could
    not restore the one before it is passed over for that one.
    """
    previous = signal.getsignal(signal.SIGINT)
    if isinstance(getattr(previous, "interrupts", None), Interrupts):
        if previous.interrupts.open:
            yield previous.interrupts  # within an outer block: its count goes on
            return
        previous = previous.before  # left behind: the handler it counted for
    interrupts = Interrupts()
    if threading.current_thread() is not threading.main_thread() or not callable(previous):
        yield interrupts
        return

    def note(signum, frame):
        interrupts.count += 1
        for call in interrupts.then:
            call()
        if not interrupts._held:
            previous(signum, frame)

    note.interrupts, note.before = interrupts, previous
    try:
        signal.signal(signal.SIGINT, note)
        with _sigint_unblocked():
            yield interrupts
    finally:
        interrupts.open = False
        signal.signal(signal.SIGINT, previous)


@contextmanager
def _sigint_unblocked():
    """SIGINT unblocked in this thread within the block, blocked again after where it was."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    blocked = signal.SIGINT in signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])
    try:
        yield
    finally:
        if blocked:
            signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGINT])


def is_ctrl_c_in_a_worker(error):
    """Whether the worker death `error` is a Ctrl-C that reached a worker between tasks.

    loky's worker that receives ``KeyboardInterrupt`` while it waits for its
    next task, or reads it, sends back the traceback and exits (the pool is
    then broken, the traceback its cause); one that SIGINT kills outright
    exits with that signal's code.
    """
    cause = error.__cause__
    if cause is not None and type(cause).__name__ == "_RemoteTraceback":
        lines = str(cause).strip().strip('"').strip().splitlines()  # loky quotes it
        if lines and lines[-1].startswith("KeyboardInterrupt"):
            return True
    return "SIGINT(" in str(error)
