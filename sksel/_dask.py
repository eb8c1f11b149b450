"""joblib's dask backend, made to survive workers that die under their task.

Used by the engine in place of joblib's own when dask is the active backend.
"""

import functools
import sys


def surviving_dead_workers(backend):
    """`backend`, or for joblib's dask backend, one that survives dead workers.

    joblib's dask backend calls back only for the tasks that return, so a task
    that dask fails (``KilledWorker``, once the task has killed too many
    workers) would leave ``Parallel`` waiting for it forever; and while a dead
    worker restarts, the cluster may have a single thread, at which joblib
    runs the tasks in the calling process, where a task that kills its worker
    kills the search. The backend returned instead, on the same client and
    scattered data, calls back with the error, which ``Parallel`` raises,
    always sends the tasks to the cluster, and cancels the tasks ``Parallel``
    abandons (joblib's would leave them to run, and to run again on another
    worker when theirs dies).
    """
    dask = sys.modules.get("joblib._dask")
    if dask is None or type(backend) is not dask.DaskDistributedBackend:
        return backend
    surviving = _dask_backend_surviving_dead_workers()(
        client=backend.client,
        wait_for_workers_timeout=backend.wait_for_workers_timeout,
        **backend.submit_kwargs,
    )
    surviving.data_futures = backend.data_futures
    return surviving


@functools.cache
def _dask_backend_surviving_dead_workers():
    from joblib._dask import DaskDistributedBackend

    class DaskBackendSurvivingDeadWorkers(DaskDistributedBackend):
        """joblib's dask backend, made to survive dead workers: see `surviving_dead_workers`."""

        def effective_n_jobs(self, n_jobs):
            return max(super().effective_n_jobs(n_jobs), 2)

        def submit(self, func, callback=None):
            future = super().submit(func, callback)
            future.add_done_callback(functools.partial(_call_back_on_failure, callback))
            return future

        def abort_everything(self, ensure_ready=True):
            with self.waiting_futures.lock:
                pending = list(self.waiting_futures.futures)
            self.client.cancel(pending)
            super().abort_everything(ensure_ready=ensure_ready)

    return DaskBackendSurvivingDeadWorkers


def _call_back_on_failure(callback, future):
    """Hand the error of a failed `future` to joblib's `callback`, which raises it."""
    if not future.cancelled() and future.exception() is not None:
        callback(future.exception())
