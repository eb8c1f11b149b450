"""The regression recorder of ``benchmarks/builders/record_curves.py`` on generated tables."""

import importlib

import numpy as np
import pytest
from sklearn.datasets import make_regression
from sklearn.model_selection import train_test_split


@pytest.fixture
def recorder(monkeypatch):
    """The builder module, with the thread settings it makes undone after the test."""
    pytest.importorskip("pandas")
    pytest.importorskip("xgboost")
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(var, "1")
    return importlib.import_module("benchmarks.builders.record_curves")


def _table(n_samples, seed=0):
    X, y = make_regression(n_samples=n_samples, n_features=5, noise=1.0, random_state=seed)
    return lambda: train_test_split(X, y, test_size=0.2, random_state=0)


def test_pool_is_a_permutation_beside_a_fifth_for_validation(recorder):
    X = np.arange(1000.0)[:, None]
    X_pool, X_val, y_pool, y_val = recorder.regression_pool(X, X[:, 0] * 2)
    assert (len(X_pool), len(X_val)) == (800, 200)
    assert np.array_equal(np.sort(np.r_[X_pool[:, 0], X_val[:, 0]]), X[:, 0])
    assert np.array_equal(y_pool, X_pool[:, 0] * 2) and np.array_equal(y_val, X_val[:, 0] * 2)
    again = recorder.regression_pool(X, X[:, 0] * 2)[0]
    assert np.array_equal(again, X_pool)  # seeded: the same subsamples every run
    other_pool, other_val, _, _ = recorder.regression_pool(X, X[:, 0] * 2, seed=1)
    assert not np.array_equal(np.sort(other_val[:, 0]), np.sort(X_val[:, 0]))  # its own split
    assert np.array_equal(np.sort(np.r_[other_pool[:, 0], other_val[:, 0]]), X[:, 0])


def test_each_seed_is_a_split_of_its_own_stored_as_the_outer_seed(recorder):
    rows, _ = recorder.regression_curves(-101, _table(600), ["Ridge"], seed=2)
    assert {r[4] for r in rows} == {2}
    pool = recorder.regression_pool(*_table(600)()[::2], seed=2)[0]
    assert rows[-1][2] == len(pool)  # the last anchor is the seed's whole pool


def test_curves_at_the_anchors_and_svr_only_on_small_pools(recorder, monkeypatch):
    monkeypatch.setitem(recorder.MAX_POOL, "scaled SVR", 500)
    learners = ["Ridge", "DecisionTreeRegressor", "scaled SVR"]
    rows, info = recorder.regression_curves(-101, _table(1500), learners)
    assert info == dict(rows=1500, columns=5)
    sizes = [16, 23, 32, 45, 64, 91, 128, 181, 256, 362, 512, 724, 960]
    assert recorder.anchors(960) == sizes
    for name in ("Ridge", "DecisionTreeRegressor"):
        assert [r[2] for r in rows if r[1] == name] == sizes
    assert not [r for r in rows if r[1] == "scaled SVR"]  # a pool of 960 rows
    assert {(r[0], r[3], r[4], r[5]) for r in rows} == {(-101, 240, 0, 0)}
    ridge = rows[len(sizes) - 1]
    assert ridge[1] == "Ridge" and min(ridge[7:]) > 0.99  # R² of a linear target
    small, _ = recorder.regression_curves(-102, _table(500), ["scaled SVR"])
    assert [r[2] for r in small] == recorder.anchors(320)


def _scores(curves):
    """`curves` without the fit times, in a fixed order."""
    order = curves.sort_values(["openmlid", "size_train"]).reset_index(drop=True)
    return order.drop(columns="traintime")


def test_main_writes_both_csvs_and_append_keeps_the_other_tables(recorder, monkeypatch, tmp_path):
    import pandas as pd

    from benchmarks import _regression_datasets as R

    monkeypatch.setattr(R, "REGRESSION_TABLES", {"a": _table(300, 1), "b": _table(400, 2)})
    monkeypatch.setattr(R, "REPORT", frozenset({"b"}))
    out = str(tmp_path / "curves.csv")
    args = ["--task", "regression", "--learners", "Ridge", "--out", out]
    recorder.main(args)
    first = pd.read_csv(out)
    assert list(first.columns) == recorder.COLUMNS
    recorder.main([*args, "--tables", "b", "--append"])  # b again, a kept
    assert _scores(pd.read_csv(out)).equals(_scores(first))
    tables = pd.read_csv(tmp_path / "curves_datasets.csv").sort_values("openmlid")
    assert tables.to_dict("list") == dict(openmlid=[-102, -101], dataset=["b", "a"],
                                          rows=[400, 300], columns=[5, 5],
                                          half=["report", "tune"])
    recorder.main([*args, "--tables", "a", "--seeds", "1", "--append"])  # a's seed 1 added
    both = pd.read_csv(out)
    assert _scores(both[both.outer_seed == 0]).equals(_scores(first))
    assert set(both[both.outer_seed == 1].openmlid) == {-101}
