"""The search's share of ``max_time``: its seconds less the refit's, counted from the start."""

import time

from sksel._core.deadline import SearchShare


def test_without_max_time_the_share_never_ends():
    share = SearchShare(None, None, time.perf_counter() - 1e6)
    assert share.time_left() is None and not share.passed()


def test_the_share_keeps_the_reserve_aside():
    share = SearchShare(100.0, lambda: 30.0, time.perf_counter())
    assert share.seconds() == 70.0
    assert 60.0 < share.time_left() <= 70.0 and not share.passed()


def test_the_share_counts_from_its_start_and_reads_the_reserve_each_time():
    reserve = [0.0]
    share = SearchShare(100.0, lambda: reserve[0], time.perf_counter() - 80.0)
    assert not share.passed()
    reserve[0] = 30.0  # the leader's refit is predicted to take longer
    assert share.passed() and share.time_left() == 0.0
