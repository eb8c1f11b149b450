"""The deadline's alarm: a wait for the next result that ends at ``max_time`` or a Ctrl-C.

Where results stream in, the engine waits for the next one while every
worker may be in a long fit. A SIGALRM (:class:`WaitAlarm`) ends that wait at
the deadline, and joblib then aborts the tasks in flight (loky kills the
workers running them; threads cannot be killed, so under the threading
backend those fits run to their end, unused). A SIGINT noted meanwhile rings
it a moment later, so that a Ctrl-C ends the wait even where its own
``KeyboardInterrupt`` was caught. Where the alarm cannot ring (outside the
main thread, without ``signal.setitimer``, or while another timer of the
process is armed), the deadline and the interrupts are read when the next
result comes in (:func:`watched`).
"""

import signal
from contextlib import contextmanager

from .deadline import can_cut


class _DeadlineReached(Exception):
    """Raised in the main thread, while it waits for a result, when `max_time` is reached."""


class WaitAlarm:
    """A SIGALRM that ends a wait for the next result, at the deadline or after a Ctrl-C.

    ``items(outputs)`` yields the items of `outputs`. Where the deadline comes
    while the calling thread waits for the next one, the wait ends with
    :class:`_DeadlineReached`, raised in the joblib generator, which then
    aborts the tasks in flight (loky kills the workers running them). A
    SIGINT noted meanwhile (:meth:`soon`) rings it a moment later, and a
    wait then ends with ``KeyboardInterrupt``, even where the SIGINT's own
    was caught (by a finalizer the garbage collector ran in the wait). The
    alarm rings outside a wait too, and is then ignored: the caller reads the
    clock and the interrupts after every item.

    Only in the main thread, where signals are handled, on a platform with
    ``signal.setitimer`` and while no other timer of the process is armed
    (:meth:`usable`); the wait otherwise ends with the next result.

    Parameters
    ----------
    time_left : callable
        ``time_left() -> seconds`` until the deadline, or None without one.
    interrupted : callable
        ``interrupted() -> bool``: whether a SIGINT was noted.
    """

    #: Seconds from a noted SIGINT to the ring that ends the wait.
    _AFTER_SIGINT = 0.05

    def __init__(self, time_left, interrupted):
        self._time_left = time_left
        self._interrupted = interrupted
        self._waiting = False
        self._closed = False

    @staticmethod
    def usable():
        """Whether the alarm can ring in this thread without taking another one's timer."""
        return can_cut()

    def __enter__(self):
        self._previous = signal.signal(signal.SIGALRM, self._ring)
        self._arm_deadline()
        return self

    def __exit__(self, *exc_info):
        self._closed = True  # a ring from now on arms nothing again
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self._previous)

    def _arm_deadline(self):
        left = self._time_left()
        if left is not None:
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3))

    def soon(self):
        """Ring shortly: a SIGINT was noted."""
        signal.setitimer(signal.ITIMER_REAL, self._AFTER_SIGINT)

    def _ring(self, signum, frame):
        if self._closed:
            return
        if self._waiting and self._interrupted():
            self._waiting = False
            raise KeyboardInterrupt
        left = self._time_left()
        if left is not None and left > 0:  # rang early (another clock, a SIGINT)
            self._arm_deadline()
        elif left is not None and self._waiting:
            self._waiting = False
            raise _DeadlineReached

    def items(self, outputs):
        """The items of `outputs`, until the deadline or a Ctrl-C ends a wait for one."""
        outputs = iter(outputs)
        while True:
            self._waiting = True
            try:
                if self._interrupted():
                    raise KeyboardInterrupt
                left = self._time_left()
                if left is not None and left <= 0:
                    return
                if left is not None and not 0 < signal.getitimer(signal.ITIMER_REAL)[0] <= left:
                    self._arm_deadline()  # the deadline came nearer: an evaluation finished
                item = next(outputs)
            except (StopIteration, _DeadlineReached):
                return
            finally:
                self._waiting = False
            yield item


@contextmanager
def watched(time_left, interrupts):
    """Yield ``items(outputs)``: the results of `outputs` until the deadline or a Ctrl-C.

    Where :class:`WaitAlarm` can ring, the deadline (`time_left`, as
    :class:`WaitAlarm` reads it), or a SIGINT that `interrupts`
    (:class:`~sksel._core.interrupts.Interrupts`) notes, ends a wait for the
    next result, and the fits still running are abandoned; otherwise the
    wait ends with the next result.
    """
    if not WaitAlarm.usable():
        yield iter
        return
    with WaitAlarm(time_left, lambda: interrupts.count > 0) as alarm:
        interrupts.then.append(alarm.soon)
        try:
            yield alarm.items
        finally:
            interrupts.then.remove(alarm.soon)
