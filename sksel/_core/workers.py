"""Where a search's tasks run, and what a task takes there: threads, a GPU, its key.

The fits run in this process (one worker, or the threading backend:
:func:`runs_in_process`), on joblib's worker processes, or on a dask cluster
(:func:`runs_on_dask`). Fits run in this process are capped at the CPUs they
share (:func:`threads_within_cpus`): OpenMP and BLAS start a thread per CPU
the process may run on, which in a container with a CPU quota can be far more
than the quota runs at once (16 OpenMP threads on 2 CPUs make a
HistGradientBoosting fit 20 times slower). joblib caps the threads of loky's
workers itself.

Every task goes to joblib keyed (:func:`keyed_task`): it returns ``(key,
output)``, so that results that come back in any order find their action.
In a worker process, a task whose model asks for ``device="cuda"`` on a
machine with several GPUs first takes one of them for the process
(:mod:`~sksel._core.devices`).
"""

from joblib import cpu_count, effective_n_jobs
from sklearn.utils.parallel import delayed
from threadpoolctl import threadpool_info, threadpool_limits

from .._compat import ThreadingBackend, get_active_backend
from .dask import dask_client
from .devices import on_own_gpu


def runs_in_process(n_jobs):
    """Whether fits with `n_jobs` under the active joblib backend run in this process."""
    backend, _ = get_active_backend()
    return effective_n_jobs(n_jobs) == 1 or isinstance(backend, ThreadingBackend)


def runs_on_dask():
    """Whether the active joblib backend is a dask cluster's."""
    backend, _ = get_active_backend()
    return dask_client(backend) is not None


def threads_within_cpus(n_workers=1):
    """Cap the BLAS and OpenMP threads of this process at its CPUs over `n_workers`.

    ``joblib.cpu_count`` counts the CPUs a container's quota allows, where
    OpenMP and BLAS count those the process may be scheduled on. A lower
    limit already set (``threadpool_limits``, ``OMP_NUM_THREADS``) is kept.
    """
    cap = max(1, cpu_count() // n_workers)
    threads = {}
    for library in threadpool_info():
        api = library["user_api"]
        threads[api] = max(threads.get(api, 1), library["num_threads"])
    return threadpool_limits(limits={api: min(n, cap) for api, n in threads.items()})


def _keyed(key, search_id, func, *args, **kwargs):
    """``(key, func(*args, **kwargs))``; in a worker process (`search_id` set), on its own GPU."""
    if search_id is not None:
        on_own_gpu(search_id, [*args, *kwargs.values()])
    return key, func(*args, **kwargs)


def keyed_task(action, i, task, search_id):
    """Task `i` of `action`, a ``(func, args, kwargs)`` tuple, made to return its key too.

    `search_id` names the search for the worker processes sharing the GPUs;
    None where the task runs in this process.
    """
    func, args, kwargs = task
    return _keyed, ((action, i), search_id, func, *args), kwargs


def key_of(task):
    """The ``(action, i)`` of a task of :func:`keyed_task`."""
    return task[1][0]


def for_joblib(task):
    """The ``(func, args, kwargs)`` `task` as joblib takes it: ``delayed(func)(...)``."""
    func, args, kwargs = task
    return delayed(func)(*args, **kwargs)
