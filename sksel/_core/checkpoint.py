"""Checkpoint and resume: the finished evaluations of a search, in a folder.

A :class:`Checkpoint` writes every evaluation of a fit as it finishes, one
file each, atomically (a temporary file in the same folder, then
``os.replace``), numbered in the order the policy was told them. A later fit
on the same input opens the same folder and replays them instead of running
them.

The files are pickles: unpickling runs code, so open a checkpoint only from a
folder you trust.
"""

import os
import pickle
import tempfile
from collections import defaultdict, deque
from types import MappingProxyType

import joblib
from scipy.stats import rv_continuous, rv_discrete

from .dask import StateOnAWorker
from .run import Listener

_FINGERPRINT = "fingerprint.pkl"
_SUFFIX = ".pkl"

# Parameters that change how a search runs, not what it evaluates.
_NOT_FINGERPRINTED = ("checkpoint", "max_time", "memory", "n_jobs", "verbose")


def fingerprint(search, X, y, fit_params, candidates):
    """``{part: hash}`` of what the evaluations of `search` depend on, part by part.

    The parts are named as an error about them reads: ``"data (X)"``,
    ``"y"``, ``"fit parameter 'sample_weight'"``, ``"parameter 'r'"``,
    ``"candidates"``. A parameter renamed (the search's
    ``_renamed_parameters``, ``{old: new}``) counts under its new name, the
    value given under either.
    """
    params = search.get_params(deep=False)
    for old, new in search._renamed_parameters.items():
        value = params.pop(old)
        if not (isinstance(value, str) and value == "deprecated"):
            params[new] = value
    parts = {"data (X)": X, "y": y}
    parts.update({f"fit parameter {k!r}": v for k, v in fit_params.items()})
    parts.update({f"parameter {k!r}": v for k, v in params.items()
                  if k not in _NOT_FINGERPRINTED})
    parts["candidates"] = candidates
    return {part: _hash(part, value) for part, value in parts.items()}


def _hash(part, value):
    try:
        return joblib.hash(_without_global_state(value))
    except (pickle.PicklingError, AttributeError, TypeError) as error:
        raise ValueError(
            f"checkpoint recognises a fit by a hash of its input, and the {part} cannot "
            f"be pickled to hash it ({error}); a function given as a parameter must be "
            "defined at the top level of a module."
        ) from error


class Checkpoint(Listener):
    """The evaluations of one search's fits, recorded in `folder` and replayed.

    A listener of the fit (:class:`~sksel._core.run.Listener`): it records
    every evaluation that was not replayed from it.

    Opening a folder that holds evaluations of another input raises a
    ``ValueError`` naming the parts of the input that differ. Every file is
    a pickle, to be loaded only from a trusted folder.

    Parameters
    ----------
    folder : str or path-like
        Created if missing.
    fingerprint : dict
        ``{part: hash}`` of the fit's input, from :func:`fingerprint`.
    renamed : dict, default={}
        ``{old: new}`` names of the search's parameters: a folder recorded
        under an old name resumes under the new one.
    """

    def __init__(self, folder, fingerprint, renamed=MappingProxyType({})):
        self.folder = os.fspath(folder)
        os.makedirs(self.folder, exist_ok=True)
        path = os.path.join(self.folder, _FINGERPRINT)
        if os.path.exists(path):
            _check_same_input(_under_new_names(_load(path), renamed), fingerprint, self.folder)
        else:
            self._write(_FINGERPRINT, fingerprint)
        names = self._record_names()
        self.n_recorded = len(names)
        self._left = defaultdict(deque)
        for name in names:
            action, outputs, give_up = _load(os.path.join(self.folder, name))
            self._left[action].append((outputs, give_up))

    def replay(self, action):
        """``(outputs, give_up)`` of the next recorded evaluation of `action`, or None."""
        left = self._left.get(action)
        return left.popleft() if left else None

    def on_evaluation(self, action, outputs, *, given_up, replayed):
        if not replayed:
            self.record(action, outputs, give_up=given_up)

    def record(self, action, outputs, give_up):
        """Write the `outputs` of the finished `action`, after those recorded so far.

        A model left on a dask worker (see :class:`~sksel._core.dask.StateOnWorkers`) is
        fetched to be written: a resumed search needs the model, not a
        reference to a cluster.
        """
        self._write(f"{self.n_recorded:06d}{_SUFFIX}",
                    (action, _fetched(outputs), give_up))
        self.n_recorded += 1

    def _record_names(self):
        """The files of the recorded evaluations, in the order they were told."""
        names = [name for name in os.listdir(self.folder)
                 if name.endswith(_SUFFIX) and name[:-len(_SUFFIX)].isdigit()]
        return sorted(names, key=lambda name: int(name[:-len(_SUFFIX)]))

    def _write(self, name, obj):
        """Pickle `obj` to `name` in the folder, whole or not at all (:func:`write_whole`)."""
        write_whole(os.path.join(self.folder, name),
                    lambda file: pickle.dump(obj, file, protocol=pickle.HIGHEST_PROTOCOL))


def write_whole(path, write):
    """Write the file `path` whole or not at all.

    ``write(file)`` fills a hidden temporary file of the same folder, opened
    for binary writing, which then replaces `path` (``os.replace``); a killed
    write leaves only the temporary file.
    """
    fd, temp = tempfile.mkstemp(dir=os.path.dirname(path) or ".", prefix=".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temp, path)
    except BaseException:
        os.remove(temp)
        raise


def _without_global_state(value):
    """`value` with scipy's frozen distributions as ``(name, args, kwds)``.

    Pickled, a frozen distribution carries numpy's global random state, which
    differs from process to process; the searches draw with their own.
    """
    if isinstance(value, dict):
        return {k: _without_global_state(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_without_global_state(v) for v in value]
    if isinstance(getattr(value, "dist", None), (rv_continuous, rv_discrete)):
        return (value.dist.name, value.args, value.kwds)
    return value


def _load(path):
    with open(path, "rb") as file:
        return pickle.load(file)


def _under_new_names(recorded, renamed):
    """The `recorded` fingerprint, its parts of renamed parameters under their new names."""
    names = {f"parameter {old!r}": f"parameter {new!r}" for old, new in renamed.items()}
    return {names.get(part, part): value for part, value in recorded.items()}


def _check_same_input(recorded, current, folder):
    differ = [part for part in {**recorded, **current} if recorded.get(part) != current.get(part)]
    if differ:
        raise ValueError(
            f"The checkpoint folder {folder!r} holds the evaluations of a fit on other "
            f"input (different {', '.join(differ)}). Fit with the same data and parameters "
            "to resume, or give another (or an empty) folder to start afresh."
        )


def _fetched(outputs):
    """`outputs` (dicts), a state left on a dask worker replaced by the state."""
    return [{key: value.result() if isinstance(value, StateOnAWorker) else value
             for key, value in output.items()} for output in outputs]
