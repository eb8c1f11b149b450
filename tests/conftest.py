"""Fixtures the test modules share."""

import signal

import pytest


@pytest.fixture
def sigint_raises_keyboard_interrupt():
    """Python's own SIGINT handler, even where the runner ignores SIGINT (``nohup``)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)
