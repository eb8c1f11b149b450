"""The wait for the next result ends at the deadline or after a Ctrl-C."""

import threading
import time

import pytest

from sksel._core.alarm import WaitAlarm, watched
from sksel._core.interrupts import Interrupts

pytestmark = pytest.mark.skipif(not WaitAlarm.usable(), reason="the alarm cannot ring here")


def _one_then_a_long_wait(event):
    """Yield 1, then wait for `event` (never set by the alarm) before yielding 2."""
    yield 1
    event.wait(60)
    yield 2


def _until(seconds):
    end = time.perf_counter() + seconds
    return lambda: end - time.perf_counter()


def test_the_deadline_ends_a_wait_for_the_next_result():
    event = threading.Event()
    with WaitAlarm(_until(0.2), lambda: False) as alarm:
        got = list(alarm.items(_one_then_a_long_wait(event)))
    assert got == [1] and not event.is_set()


def test_a_wait_without_a_deadline_takes_every_item():
    with WaitAlarm(lambda: None, lambda: False) as alarm:
        assert list(alarm.items(iter([1, 2, 3]))) == [1, 2, 3]


def test_a_past_deadline_yields_nothing():
    with WaitAlarm(lambda: 0.0, lambda: False) as alarm:
        assert list(alarm.items(iter([1, 2]))) == []


def test_a_sigint_noted_ends_the_wait_with_keyboard_interrupt():
    interrupted = []
    with WaitAlarm(lambda: None, lambda: bool(interrupted)) as alarm:
        items = alarm.items(_one_then_a_long_wait(threading.Event()))
        assert next(items) == 1
        interrupted.append(True)
        alarm.soon()
        with pytest.raises(KeyboardInterrupt):
            next(items)


def test_watched_rings_soon_after_a_sigint_and_stops_listening_after():
    interrupts = Interrupts()
    with watched(lambda: None, interrupts) as items:
        assert len(interrupts.then) == 1
        assert list(items(iter([1, 2]))) == [1, 2]
    assert interrupts.then == []


def test_outside_the_main_thread_the_wait_ends_with_the_next_result():
    seen = []

    def run():
        with watched(lambda: 0.0, Interrupts()) as items:
            seen.append(list(items(iter([1, 2]))))

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert seen == [[1, 2]]
