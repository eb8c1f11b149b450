"""Running on a dask cluster: joblib's dask backend made to survive dead
workers, and a schedule that leaves learned state on the workers.

The engine runs its tasks through joblib's dask backend, made to survive
workers that die under their task (`surviving_dead_workers`). Tasks whose
output holds state that later tasks take up again (Mutant-UCB's model between
two sub-trains) are submitted to dask directly instead (`StateOnWorkers`):
that state stays on the worker that computed it (in the result of its task, a
dask future), the tasks that take it up receive it there, and dask runs them
where the state is, as dask-ml's incremental searches do. The state never
comes back through the process that runs the search, whatever its size; the
rest of the output (the scores) comes back as a dask event.
"""

import functools
import queue
import sys
from copy import deepcopy
from uuid import uuid4

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


class StateOnAWorker:
    """Learned state left on a dask worker: the future of the output of the task that holds it.

    Given among a task's arguments to :meth:`StateOnWorkers.submit`, the task
    receives the state itself, on the worker dask runs it on (by default the
    one that holds it).
    """

    def __init__(self, output, state_key):
        self.output = output
        self.state_key = state_key

    def result(self):
        """The state, fetched to this process."""
        return self.output.result()[1][self.state_key]


class StateLost(RuntimeError):
    """A task whose state was lost (with its worker, dask unable to compute it again)."""


class StateOnWorkers:
    """Submit tasks to a dask `client`, the `state_key` entry of their outputs left on the workers.

    A task is a ``(func, args, kwargs)`` tuple whose call returns ``(key,
    output)`` with ``output`` a dict. Its ``output[state_key]`` (None or
    learned state) stays on the worker, in the result of the task (a dask
    future); the rest of the output comes back as a dask event the task
    logs as it ends, at once (a second task reading the result would wait
    behind the next task on that worker). :meth:`next_done` hands back a
    :class:`StateOnAWorker` in place of the state, which a later task may
    take among its arguments. The large arguments of the tasks (the data,
    the splits' indices) go to the cluster once.

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
        self._done = queue.Queue()
        self._topic = f"sksel-{uuid4().hex}"
        client.subscribe_topic(self._topic, self._on_output)

    def submit(self, task):
        """Submit `task`; its token, which :meth:`next_done` returns when it is done."""
        func, args, kwargs = task
        states = {}
        args = [self._sent(i, arg, states) for i, arg in enumerate(args)]
        kwargs = {name: self._sent(name, arg, states) for name, arg in kwargs.items()}
        token = uuid4().hex
        whole = self.client.submit(_call, func, args, kwargs, get_config(), states,
                                   self.state_key, self._topic, token, pure=False)
        whole.add_done_callback(functools.partial(self._on_failure, token))
        self._submitted[token] = task, whole
        return token

    def key(self, token):
        """The key of the task of `token` (the first argument of its call)."""
        (task, _) = self._submitted[token]
        _, args, _ = task
        return args[0]

    def next_done(self, timeout=None):
        """``(token, key, output)`` of a task done, or ``(token, key, error)`` of one dask gave up.

        Raises ``queue.Empty`` after `timeout` seconds without one.
        """
        while True:
            token, outcome = self._done.get(timeout=timeout)
            if token not in self._submitted:
                continue  # a task dask ran again after its worker died, or cancelled
            key = self.key(token)
            _, whole = self._submitted.pop(token)
            if isinstance(outcome, BaseException):
                return token, key, outcome
            output = outcome
            output[self.state_key] = (StateOnAWorker(whole, self.state_key)
                                      if output[self.state_key] else None)
            return token, key, output

    def cancel(self, tokens):
        """Cancel the tasks of `tokens`."""
        self.client.cancel([self._submitted.pop(token)[1] for token in tokens
                            if token in self._submitted])

    def close(self):
        """Stop listening to the tasks' outputs."""
        self.client.unsubscribe_topic(self._topic)

    def _on_output(self, event):
        """Called by the client for the output a task logged: ``(time, (token, output))``."""
        self._done.put(event[1])

    def _on_failure(self, token, future):
        """Called by dask once the task of `token` is done: note it if it failed."""
        if future.status == "error":
            self._done.put((token, future.exception()))
        elif future.status == "cancelled":
            self._done.put((token, StateLost("its task was cancelled: its state was lost")))

    def _sent(self, where, arg, states):
        """`arg` as sent with a task; a state on a worker goes to `states` at `where`."""
        if isinstance(arg, StateOnAWorker):
            states[where] = arg.output
            return None
        return self._sent_once(arg)

    def _sent_once(self, arg):
        """`arg`, or for a large one the future of its copy on the cluster, sent once."""
        from dask.sizeof import sizeof

        if sizeof(arg) < _SCATTER_BYTES:
            return arg
        if id(arg) not in self._scattered:
            self._scattered[id(arg)] = arg, self.client.scatter(arg, broadcast=True, hash=False)
        return self._scattered[id(arg)][1]


def _call(func, args, kwargs, config, states, state_key, topic, token):
    """``func(*args, **kwargs)`` under scikit-learn's `config` (that of the search's thread).

    `states` maps positions of `args` (or names in `kwargs`) to the results,
    dask having fetched them here, whose output's `state_key` entry goes
    there, as a copy: dask runs a task again where its result was lost with a
    worker, on the state it took up the first time, which a task that trains it
    in place would have changed. The call's output, its state replaced by
    whether it has one, is logged to `topic` with `token`; the result, ``(key,
    output)``, stays here.
    """
    from distributed import get_worker

    for where, (_, output) in states.items():
        (args if isinstance(where, int) else kwargs)[where] = deepcopy(output[state_key])
    with config_context(**config):
        key, output = func(*args, **kwargs)
    light = {**output, state_key: output.get(state_key) is not None}
    get_worker().log_event(topic, (token, light))
    return key, output
