"""One GPU per worker process: the turns the worker processes of a search take.

CUDA is mocked: a fake ``torch`` module says how many GPUs the machine has
and whether CUDA started, and each call of ``take_one_gpu`` stands for a
worker process (``CUDA_VISIBLE_DEVICES`` restored in between).
"""
import os
import types

import pytest
from sklearn.base import BaseEstimator
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sksel._core import devices as _devices
from sksel._core.workers import _keyed


def _fake_torch(n_gpus, initialized=False):
    cuda = types.SimpleNamespace(device_count=lambda: n_gpus, is_initialized=lambda: initialized)
    return types.SimpleNamespace(cuda=cuda)


@pytest.fixture
def gpus(monkeypatch, tmp_path):
    """Install a fake torch with `n` GPUs; returns a function of one worker process's turn."""
    monkeypatch.setattr(_devices.tempfile, "gettempdir", lambda: str(tmp_path))
    monkeypatch.delenv(_devices._VISIBLE, raising=False)

    def install(n, initialized=False, visible=None):
        monkeypatch.setitem(__import__("sys").modules, "torch", _fake_torch(n, initialized))

        def worker(search_id="search"):
            with monkeypatch.context() as process:
                if visible is None:
                    process.delenv(_devices._VISIBLE, raising=False)
                else:
                    process.setenv(_devices._VISIBLE, visible)
                taken = _devices.take_one_gpu(search_id)
                return taken, os.environ.get(_devices._VISIBLE)

        return worker

    return install


def test_the_workers_take_the_gpus_in_turn(gpus):
    worker = gpus(4)
    taken = [worker() for _ in range(6)]
    assert taken == [(gpu, gpu) for gpu in ["0", "1", "2", "3", "0", "1"]]
    # Another search starts its turns afresh.
    assert worker("another search") == ("0", "0")


def test_only_the_gpus_the_process_may_use_are_shared(gpus):
    worker = gpus(2, visible="5,7")
    assert [worker()[0] for _ in range(3)] == ["5", "7", "5"]


@pytest.mark.parametrize("n_gpus, initialized", [(0, False), (1, False), (4, True)])
def test_a_process_is_left_alone_without_gpus_to_share(gpus, n_gpus, initialized):
    worker = gpus(n_gpus, initialized)
    assert worker() == (None, None)


class Net(BaseEstimator):
    """Stands for a skorch net: a `device` parameter."""

    def __init__(self, device="cpu"):
        self.device = device


@pytest.mark.parametrize("estimator, asks", [
    (Net("cuda"), True),
    (make_pipeline(StandardScaler(), Net("cuda")), True),
    (Net("cuda:1"), False),
    (Net("cpu"), False),
    ("not an estimator", False),
])
def test_a_model_asks_for_cuda_when_it_names_no_gpu(estimator, asks):
    assert _devices.asks_for_cuda(estimator) is asks


def _visible_gpu(model):
    return os.environ.get(_devices._VISIBLE)


def test_a_worker_takes_a_gpu_at_its_first_task_asking_for_cuda(gpus, monkeypatch):
    gpus(2)
    monkeypatch.setattr(_devices, "_decided", False)
    # A task of the search's own process (no search id) or without "cuda" leaves it alone.
    assert _keyed("a", None, _visible_gpu, Net("cuda")) == ("a", None)
    assert _keyed("b", "search", _visible_gpu, Net("cpu")) == ("b", None)
    assert _keyed("c", "search", _visible_gpu, Net("cuda")) == ("c", "0")
    # The process keeps its GPU (a second turn would take "1").
    assert _keyed("d", "search", _visible_gpu, Net("cuda")) == ("d", "0")


class _OnDevice(BaseEstimator):
    """A classifier with skorch's ``device`` parameter; never fitted in these tests."""

    n_fits = 0

    def __init__(self, device="cpu"):
        self.device = device

    def fit(self, X, y):
        type(self).n_fits += 1
        raise AssertionError("fit must not be called")


def _no_gpu_torch(available):
    cuda = types.SimpleNamespace(is_available=lambda: available, device_count=lambda: 0,
                                 is_initialized=lambda: False)
    return types.SimpleNamespace(cuda=cuda)


@pytest.mark.parametrize("make", [
    lambda est: __import__("sksel").DAUBSearch([est, _OnDevice()], cv=2),
    lambda est: __import__("sksel").GPUCBSelector([est, _OnDevice()], cv=2),
    lambda est: __import__("sksel").KDPPSearch(
        est, {f"{est.steps[-1][0]}__device" if hasattr(est, "steps") else "device": ["cuda"]},
        n_iter=1, cv=2),
])
@pytest.mark.parametrize("in_pipeline", [False, True])
def test_cuda_without_a_gpu_raises_before_any_training(monkeypatch, make, in_pipeline):
    monkeypatch.setitem(__import__("sys").modules, "torch", _no_gpu_torch(False))
    est = _OnDevice(device="cuda")
    search = make(make_pipeline(StandardScaler(), est) if in_pipeline else est)
    X, y = [[0.0], [1.0], [2.0], [3.0]] * 5, [0, 1] * 10
    with pytest.raises(ValueError, match=r'^device="cuda": .* torch sees none here'):
        search.fit(X, y)
    assert _OnDevice.n_fits == 0


def test_cuda_with_a_gpu_or_on_the_cpu_is_not_refused(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "torch", _no_gpu_torch(True))
    _devices.check_cuda_available([_OnDevice(device="cuda")])
    monkeypatch.setitem(__import__("sys").modules, "torch", _no_gpu_torch(False))
    _devices.check_cuda_available([_OnDevice(device="cpu"), _OnDevice(device="cuda:1")])
