"""The anytime reading of ``benchmarks/bench_mutant_ucb_clock.py`` against a brute force."""

import importlib

import numpy as np
import pytest


@pytest.fixture
def clock(monkeypatch):
    """The benchmark module, with the OMP_NUM_THREADS it sets undone after the test."""
    pytest.importorskip("pandas")
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    return importlib.import_module("benchmarks.bench_mutant_ucb_clock")


def _brute_force(timeline, budget, refit_seconds):
    """The latest completion whose pick (the first best so far) and refit fit in `budget`."""
    found = None
    for i, (t, _, _) in enumerate(timeline):
        scores = [score for _, _, score in timeline[:i + 1]]
        if np.isnan(scores).all():  # failures only: no pick yet
            continue
        key = timeline[int(np.nanargmax(scores))][1]
        if t + refit_seconds(key) <= budget:
            found = t, key
    return found


@pytest.mark.parametrize("seed", range(30))
def test_anytime_pick_is_the_latest_affordable_completion(clock, seed):
    rng = np.random.RandomState(seed)
    n = rng.randint(1, 25)
    times = np.sort(rng.uniform(0, 10, n).round(1))  # rounded: equal times occur
    scores = rng.choice([0.5, 0.6, 0.7, 0.8, np.nan], n)  # equal scores and failures too
    timeline = [(t, f"c{i}", score) for i, (t, score) in enumerate(zip(times, scores))]
    refit = dict(zip((key for _, key, _ in timeline), rng.uniform(0, 4, n).round(1)))
    asked = []

    def refit_seconds(key):
        asked.append(key)
        return refit[key]

    for budget in (0.0, 1.0, 3.3, 7.0, 12.0, 20.0):
        assert clock.anytime_pick(timeline, budget, refit_seconds) == _brute_force(
            timeline, budget, refit.__getitem__)
    assert set(asked) <= set(refit)
