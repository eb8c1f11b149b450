"""The sleeping stand-ins of ``benchmarks/bench_scaling.py``: recorded curves, real names."""

import importlib
import pickle

import numpy as np
import pandas as pd
import pytest


@pytest.fixture
def scaling(monkeypatch):
    """The benchmark module, its fits sleeping no time and noting nothing."""
    pytest.importorskip("xgboost")
    module = importlib.import_module("benchmarks.bench_scaling")
    monkeypatch.setenv(module.TIME_SCALE, "0")
    monkeypatch.delenv(module.NOTES, raising=False)
    return module


def _recorded(scaling, dataset, learner, size):
    """``(traintime, score_valid)`` of `learner` at `size` in `dataset`'s CSV."""
    csv, openmlid = scaling.DATASETS[dataset]
    table = pd.read_csv(scaling.DATA / csv)
    row = table[(table.openmlid == openmlid) & (table.learner == learner)
                & (table.size_train == size)]
    return float(row["traintime"].mean()), float(row["score_valid"].mean())


@pytest.mark.parametrize("dataset, learner, size", [
    ("letter", "XGBClassifier", 12800), ("letter", "scaled MLPClassifier", 2048),
    ("diamonds", "ExtraTreesRegressor", 16000), ("diamonds", "scaled Ridge", 4096)])
def test_score_and_seconds_at_a_recorded_size_are_the_recorded_ones(scaling, dataset, learner,
                                                                    size):
    seconds, score = _recorded(scaling, dataset, learner, size)
    curve = scaling.CURVES[dataset][learner]
    assert curve.fit_seconds(size) == pytest.approx(seconds, rel=1e-9)
    stand_in = next(e for e in scaling.portfolio(dataset) if scaling.recorded_name(e) == learner)
    X, y = scaling.data(dataset)
    assert stand_in.fit(X[:size], y[:size]).score(X, y) == pytest.approx(score, abs=1e-12)


def test_between_and_beyond_the_recorded_sizes(scaling):
    curve = scaling.Curve(np.array([100.0, 400.0]), np.array([1.0, 4.0]), np.array([0.5, 0.7]))
    assert curve.fit_seconds(200) == pytest.approx(2.0)  # log-log: linear in rows here
    assert curve.score(200) == pytest.approx(0.6)  # linear in log rows
    assert curve.score(50) == 0.5 and curve.score(1600) == 0.7  # held at the ends
    assert curve.fit_seconds(800) == pytest.approx(8.0)  # the slope from half the largest


def test_stand_ins_keep_the_learners_names_and_parameters_through_pickle(scaling):
    from sksel.gpucb.known import known_prior

    learners = scaling.portfolio("diamonds")
    again = pickle.loads(pickle.dumps(learners))
    assert [repr(e) for e in again] == [repr(e) for e in learners]
    assert type(scaling._final_step(again[1])) is type(scaling._final_step(learners[1]))
    # GPUCBSelector's prior="auto" matches them as it would the recorded learners.
    prior = known_prior(learners, np.eye(len(learners)), "r2")
    assert prior.name == "regression" and "unknown" not in prior.match
