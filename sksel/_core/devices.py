"""One GPU per worker process, on a machine with several.

A model asked to train on ``device="cuda"`` (a skorch net, an XGBoost model)
trains on the first GPU its process sees. On a machine with several GPUs the
worker processes of a search would then all share the first one. Instead, a
worker process that gets such a model before CUDA has started in it takes
one GPU of those it may use (``CUDA_VISIBLE_DEVICES``, or all of them), the
worker processes of a search taking them in turn, and from then on sees only
that one: ``"cuda"`` is the worker's own GPU, for a model built there and for
a trained one that arrives from another worker (a pickled net keeps the
device name ``"cuda"``, which every process maps to its own GPU).

Left alone: the process that runs the search (``n_jobs=1``, threads), a
model that names its GPU (``"cuda:1"``), a process where CUDA already
started, and a machine with one GPU or none.
"""

import os
import sys
import tempfile

_VISIBLE = "CUDA_VISIBLE_DEVICES"


def asks_for_cuda(estimator):
    """Whether `estimator` (or a step of it) has ``device="cuda"``, no GPU named."""
    get_params = getattr(estimator, "get_params", None)
    if get_params is None:
        return False
    return any((name == "device" or name.endswith("__device")) and value == "cuda"
               for name, value in get_params(deep=True).items())


def check_cuda_available(estimators):
    """Raise a ``ValueError`` before any training when a candidate asks for a GPU that is not here.

    A candidate with ``device="cuda"`` (a skorch net, or a step of a
    Pipeline) on a machine where torch sees no CUDA GPU would fail every fit
    in the search's process and fall back to the CPU in its workers. Nothing
    is checked where torch does not import (the candidate cannot run
    anyway) or no candidate asks for ``"cuda"``.

    Parameters
    ----------
    estimators : iterable of estimator objects
        The candidates, as they will be trained.
    """
    asking = next((est for est in estimators if asks_for_cuda(est)), None)
    if asking is None:
        return
    try:
        import torch
    except ImportError:
        return
    if not torch.cuda.is_available():
        raise ValueError(
            f'device="cuda": {type(asking).__name__} asks for a CUDA GPU and torch sees '
            'none here (torch.cuda.is_available() is False). Give device="cpu" (for a '
            'Pipeline, its step\'s <step>__device="cpu"), or run where a GPU is.'
        )


def take_one_gpu(search_id):
    """Make this worker process see one GPU only, its turn among the search's workers.

    `search_id` names the search (unique per fit on the machine): the
    processes that call this with the same one take the GPUs in turn. Returns
    the GPU taken (its name in ``CUDA_VISIBLE_DEVICES``), or None when the
    process is left as it is.
    """
    gpus = _gpus_to_share()
    if len(gpus) < 2:
        return None
    gpu = gpus[_next_turn(search_id) % len(gpus)]
    os.environ[_VISIBLE] = gpu
    return gpu


def _gpus_to_share():
    """The GPUs this process may use, as ``CUDA_VISIBLE_DEVICES`` names them.

    [] once CUDA started.
    """
    torch = sys.modules.get("torch")
    if torch is None:
        try:
            import torch
        except ImportError:
            return []
    if torch.cuda.is_initialized():
        return []
    count = torch.cuda.device_count()
    visible = os.environ.get(_VISIBLE)
    if visible is None:
        return [str(i) for i in range(count)]
    return [gpu.strip() for gpu in visible.split(",") if gpu.strip()][:count]


def _next_turn(search_id):
    """0 for the first process that asks about `search_id`, 1 for the next, ... (a locked file)."""
    path = os.path.join(tempfile.gettempdir(), f"sksel-gpu-turns-{search_id}")
    with open(path, "a+") as turns:
        try:
            import fcntl
        except ImportError:  # Windows: no lock, at worst two workers share a GPU
            fcntl = None
        if fcntl is not None:
            fcntl.flock(turns, fcntl.LOCK_EX)
        turns.seek(0)
        turn = len(turns.read())
        turns.write(".")
        return turn


_decided = False


def on_own_gpu(search_id, args):
    """Before this process's first task that asks for ``"cuda"``, take a GPU (`take_one_gpu`).

    `args` are the task's arguments, the models among them. Once a task
    asked for ``"cuda"`` the process keeps what it decided, CUDA having
    started in it.
    """
    global _decided
    if _decided or not any(asks_for_cuda(arg) for arg in args):
        return
    _decided = True
    take_one_gpu(search_id)
