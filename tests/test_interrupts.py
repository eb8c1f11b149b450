"""Ctrl-C noted for the whole fit: counted, held while loky starts, told apart in a worker."""

import signal
import threading
from concurrent.futures.process import BrokenProcessPool

import pytest

from sksel._core.interrupts import is_ctrl_c_in_a_worker, noting_interrupts

pytestmark = pytest.mark.usefixtures("sigint_raises_keyboard_interrupt")


def test_a_sigint_is_counted_and_raised():
    with noting_interrupts() as interrupts:
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
        assert interrupts.count == 1
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_held_sigint_is_counted_without_its_keyboard_interrupt():
    with noting_interrupts() as interrupts:
        with interrupts.held():
            signal.raise_signal(signal.SIGINT)
        assert interrupts.count == 1


def test_a_sigint_calls_what_waits_for_one():
    called = []
    with noting_interrupts() as interrupts:
        interrupts.then.append(lambda: called.append(interrupts.count))
        with interrupts.held():
            signal.raise_signal(signal.SIGINT)
    assert called == [1]


def test_an_inner_block_goes_on_with_the_outer_count():
    with noting_interrupts() as outer:
        with outer.held():
            signal.raise_signal(signal.SIGINT)
        with noting_interrupts() as inner:
            assert inner is outer and inner.count == 1


def test_outside_the_main_thread_nothing_is_counted_nor_changed():
    seen = []

    def run():
        with noting_interrupts() as interrupts:
            seen.append((interrupts.count, signal.getsignal(signal.SIGINT)))

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert seen == [(0, signal.default_int_handler)]


def test_an_ignored_sigint_stays_ignored():
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with noting_interrupts():
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN


def _broken_by(traceback_text):
    error = BrokenProcessPool("A task has failed to un-serialize.")
    error.__cause__ = type("_RemoteTraceback", (Exception,), {})(traceback_text)
    return error


def test_a_worker_death_is_a_ctrl_c_where_its_traceback_ends_with_one():
    assert is_ctrl_c_in_a_worker(_broken_by('"""\nTraceback ...\nKeyboardInterrupt\n"""'))
    assert not is_ctrl_c_in_a_worker(_broken_by('"""\nTraceback ...\nMemoryError\n"""'))


def test_a_worker_that_sigint_killed_is_a_ctrl_c():
    assert is_ctrl_c_in_a_worker(BrokenProcessPool("terminated by signal SIGINT(-2)"))
    assert not is_ctrl_c_in_a_worker(BrokenProcessPool("terminated by signal SIGKILL(-9)"))
