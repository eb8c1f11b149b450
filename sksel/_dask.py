"""Running on a dask cluster: joblib's dask backend made to survive dead
workers, and a schedule that leaves learned state on the workers.

The engine runs its tasks through joblib's dask backend, made to survive
workers that die under their task (`surviving_dead_workers`). Tasks whose
output holds state that later tasks take up again (Mutant-UCB's model between
two sub-trains) are submitted to dask directly instead (`StateOnWorkers`):
that state stays on the worker that computed it as a dask future, the tasks
that take it up receive the future, and dask runs them where the state is,
as dask-ml's incremental searches do. The state never comes back through the
process that runs the search, whatever its size.
"""

import functools
import sys

from sklearn import config_context, get_config


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


def dask_client(backend):
    """The dask client of joblib's dask `backend`, or None for any other backend."""
    dask = sys.modules.get("joblib._dask")
    if dask is None or not isinstance(backend, dask.DaskDistributedBackend):
        return None
    return backend.client


#: Arguments larger than this (bytes) go to the cluster once per search, not with every task.
_SCATTER_BYTES = 100_000


class StateOnWorkers:
    """Submit tasks to a dask `client`, the `state_key` entry of their outputs left on the workers.

    A task is a ``(func, args, kwargs)`` tuple whose call returns ``(key,
    output)`` with ``output`` a dict. Its ``output[state_key]`` (None or
    learned state) stays on the worker as a dask future, which `submit`
    hands back in place of the state: a later task given that future among
    its arguments receives the state itself, computed or fetched on the
    worker dask runs it on (by default the one that holds the state). The
    large arguments of the tasks (the data, the splits' indices) go to the
    cluster once.

    Parameters
    ----------
    client : distributed.Client
        The client of the cluster.
    state_key : str
        The output entry that holds the learned state.
    """

    def __init__(self, client, state_key):
        self.client = client
        self.state_key = state_key
        self._scattered = {}
        self._submitted = {}

    def submit(self, task):
        """Submit `task`; a future of its output without the state."""
        func, args, kwargs = task
        args = [self._sent_once(arg) for arg in args]
        kwargs = {name: self._sent_once(arg) for name, arg in kwargs.items()}
        whole = self.client.submit(_call, func, args, kwargs, get_config(), pure=False)
        light = self.client.submit(_without_state, whole, self.state_key, pure=False)
        state = self.client.submit(_state_of, whole, self.state_key, pure=False)
        self._submitted[light] = task, state
        return light

    def key(self, future):
        """The key of the task a future of `submit` runs (the first argument of its call)."""
        (task, _) = self._submitted[future]
        return task[1][0]

    def result(self, future):
        """The ``(key, output)`` of a finished `future`, the state's future in the output."""
        key, output = future.result()
        _, state = self._submitted.pop(future)
        output[self.state_key] = state if output[self.state_key] else None
        return key, output

    def cancel(self, futures):
        """Cancel `futures` and their states."""
        pairs = [(future, self._submitted.pop(future)[1]) for future in futures]
        self.client.cancel([f for pair in pairs for f in pair])

    def _sent_once(self, arg):
        """`arg`, or for a large one the future of its copy on the cluster, sent once."""
        from dask.sizeof import sizeof

        if sizeof(arg) < _SCATTER_BYTES:
            return arg
        if id(arg) not in self._scattered:
            self._scattered[id(arg)] = arg, self.client.scatter(arg, broadcast=True, hash=False)
        return self._scattered[id(arg)][1]


def _call(func, args, kwargs, config):
    """``func(*args, **kwargs)`` under scikit-learn's `config` (that of the search's thread)."""
    with config_context(**config):
        return func(*args, **kwargs)


def _state_of(item, state_key):
    return item[1].get(state_key)


def _without_state(item, state_key):
    """``(key, output)`` with ``output[state_key]`` replaced by whether it holds a state."""
    key, output = item
    return key, {**output, state_key: output.get(state_key) is not None}
