"""Where the tasks run: this process or workers, the threads of a fit, a task's key."""

import pytest
from joblib import parallel_config
from threadpoolctl import threadpool_info, threadpool_limits

from sksel._core import workers
from sksel._core.workers import (
    for_joblib,
    key_of,
    keyed_task,
    runs_in_process,
    runs_on_dask,
    threads_within_cpus,
)

# The tasks are called here, not through joblib.
pytestmark = pytest.mark.filterwarnings("ignore:`sklearn.utils.parallel.delayed`:UserWarning")


def test_a_keyed_task_returns_its_key_with_its_output():
    task = keyed_task(("a", 10), 3, (divmod, (7, 2), {}), None)
    assert key_of(task) == (("a", 10), 3)
    func, args, kwargs = for_joblib(task)
    assert func(*args, **kwargs) == ((("a", 10), 3), (3, 1))


def test_for_joblib_passes_the_keyword_arguments():
    func, args, kwargs = for_joblib((int, ("11",), {"base": 2}))
    assert func(*args, **kwargs) == 3


def test_one_worker_or_threads_run_in_this_process():
    assert runs_in_process(1)
    with parallel_config(backend="threading"):
        assert runs_in_process(4)
    with parallel_config(backend="loky"):
        assert not runs_in_process(2)
    assert not runs_on_dask()


def test_threads_are_capped_at_the_cpus_over_the_workers(monkeypatch):
    monkeypatch.setattr(workers, "cpu_count", lambda: 4)
    with threadpool_limits(limits=8):
        with threads_within_cpus(2):
            assert {info["num_threads"] for info in threadpool_info()} <= {1, 2}
        with threadpool_limits(limits=1), threads_within_cpus(1):
            assert {info["num_threads"] for info in threadpool_info()} == {1}
