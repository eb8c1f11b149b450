"""Out-of-fold predictions of a search's candidates, kept for what is built after the search.

With ``keep_predictions``, every task of a search also predicts its
validation fold with the model it fitted (:func:`predicting`, in the worker)
and a listener of the fit (:class:`PredictionKeeper`) takes those
predictions out of the task's output into an :class:`OutOfFoldPredictions`
store, which the search exposes as ``cv_predictions_``: one array per
``cv_results_`` row, every row predicted by the model that did not train on
it. Ensembles of the candidates (:mod:`sksel.ensemble`) are chosen from them.
"""

import os
import shutil
import time
import weakref
from copy import deepcopy

import joblib
import numpy as np
from sklearn.utils import _safe_indexing

from .._compat import _fit_and_score, _num_samples
from .run import Listener

_PREDICTIONS = "predictions"
_FOLD_MODEL = "fold_model"


class OutOfFoldPredictions:
    """Each candidate's predictions on the validation folds of a search.

    Row ``i`` of ``predictions(i)`` is predicted by the model fitted on the
    fold that held row ``i`` out, so no prediction comes from a model that
    saw its row. For a classifier a prediction is the class probabilities
    (``predict_proba``; a one-hot vector of ``predict`` for a classifier
    without it), columns in the order of :attr:`classes_`; for a regressor,
    ``predict``'s value(s). Rows that no validation fold held are NaN.

    Kept as float32: ``n_samples x n_classes x 4`` bytes per candidate (a
    regressor: ``n_samples x 4``), in memory or, with `folder`, in ``.npy``
    files there, read back memory-mapped.

    Parameters
    ----------
    n_samples : int
        Rows of the data the search was fitted on.
    classes : ndarray or None
        The classes of a classifier's target, sorted; None for a regressor.
    folder : str, path-like or None, default=None
        Where to keep them on disk; None keeps them in memory. A folder that
        does not exist is created, and removed with the store.
    fold_models : bool, default=False
        Whether to keep each fold's fitted model too (:meth:`fold_models`).

    Attributes
    ----------
    classes_ : ndarray or None
        As given.
    keys_ : list
        The keys kept (``cv_results_`` row indices once the search is done).
    nbytes : int
        Bytes the predictions take.
    """

    def __init__(self, n_samples, classes=None, folder=None, fold_models=False):
        self.n_samples = n_samples
        self.classes_ = classes
        self.keep_fold_models = fold_models
        self.folder = None if folder is None else os.fspath(folder)
        self._entries = {}
        self._finalizer = None
        if self.folder is not None and not os.path.isdir(self.folder):
            os.makedirs(self.folder)
            self._finalizer = weakref.finalize(self, shutil.rmtree, self.folder, True)

    @property
    def keys_(self):
        return list(self._entries)

    @property
    def nbytes(self):
        return sum(self.predictions(key).nbytes for key in self._entries)

    def __len__(self):
        return len(self._entries)

    def put(self, key, folds):
        """Keep the predictions of `key` from its `folds`, ``[(test, predictions, model)]``."""
        width = 1 if self.classes_ is None else len(self.classes_)
        array = np.full((self.n_samples, width), np.nan, dtype=np.float32)
        models = []
        for test, predictions, model in folds:
            array[test] = np.asarray(predictions, dtype=np.float32).reshape(len(test), -1)
            models.append((np.asarray(test), model))
        entry = {"models": models if self.keep_fold_models else None}
        if self.folder is None:
            entry["predictions"] = array
        else:
            entry["path"] = os.path.join(self.folder, f"{_file_name(key)}.npy")
            np.save(entry["path"], array)
            if self.keep_fold_models:
                entry["models"] = os.path.join(self.folder, f"{_file_name(key)}.models.joblib")
                joblib.dump(models, entry["models"])
        self._entries[key] = entry

    def predictions(self, key):
        """The ``(n_samples, n_outputs)`` out-of-fold predictions of `key` (float32)."""
        entry = self._entries[key]
        if "path" in entry:
            return np.load(entry["path"], mmap_mode="r")
        return entry["predictions"]

    def fold_models(self, key):
        """``[(test indices, fitted model)]``, one per fold, of `key`.

        Raises ``ValueError`` where the store was not asked to keep them.
        """
        models = self._entries[key]["models"]
        if models is None:
            raise ValueError(
                "the fold models were not kept: fit the search with keep_fold_models=True "
                "to reuse them (or refit the members on all rows instead)."
            )
        return joblib.load(models) if isinstance(models, str) else models

    def rekeyed(self, keys):
        """Keep only the entries of `keys`, ``{old key: new key}``, under their new keys."""
        kept = {new: self._entries[old] for old, new in keys.items() if old in self._entries}
        for old, entry in self._entries.items():
            if old not in keys:
                _remove_files(entry)
        self._entries = kept
        return self

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_finalizer"] = None  # a copy never removes the folder of the original
        return state


class PredictionKeeper(Listener):
    """Has each task predict its validation fold; keeps the predictions in `store`.

    A listener of the fit (:class:`~sksel._core.run.Listener`), after the
    checkpoint (which records the predictions, so that a resumed search has
    them too) and before anything reads the outputs: it takes them out of
    the outputs into the store. `splits(resource)` gives the folds of an
    evaluation at `resource`.
    """

    def __init__(self, store, splits):
        self.store = store
        self.splits = splits

    def task(self, task, X, test):
        """`task` ``(func, args, kwargs)``, made to predict the rows `test` of `X` too."""
        func, args, kwargs = task
        return (predicting, (func, args, kwargs, X, test, self.store.classes_,
                             self.store.keep_fold_models), {})

    def on_evaluation(self, action, outputs, **info):
        folds = []
        for (_, test), out in zip(self.splits(action[1]), outputs):
            predictions = out.pop(_PREDICTIONS, None)
            model = out.pop(_FOLD_MODEL, None)
            if predictions is not None:
                folds.append((test, predictions, model))
        if folds and len(folds) == len(outputs):
            self.store.put(tuple(action), folds)


def predicting(func, args, kwargs, X, test, classes, keep_model):
    """Run the task ``func(*args, **kwargs)``, then predict its validation rows `test`.

    The output gets the predictions (:func:`fold_predictions`) and, with
    `keep_model`, the fitted model (a copy of a continued one, which later
    sub-trains change in place); predicting counts in its ``score_time``.
    The model is the one scikit-learn's ``_fit_and_score`` returns with
    ``return_estimator=True``, or a continued model's ``"model"``; a failed
    fit has none and no predictions.
    """
    asks_estimator = func is _fit_and_score
    if asks_estimator:
        kwargs = {**kwargs, "return_estimator": True}
    out = func(*args, **kwargs)
    model = out.pop("estimator", None) if asks_estimator else out.get("model")
    if out.get("fit_error") is not None or model is None:
        return out
    start = time.time()
    out[_PREDICTIONS] = fold_predictions(model, _safe_indexing(X, test), classes)
    out["score_time"] = out.get("score_time", 0.0) + time.time() - start
    if keep_model:
        # A continued model goes on training in place: keep it as it is now.
        out[_FOLD_MODEL] = model if asks_estimator else deepcopy(model)
    return out


def fold_predictions(model, X, classes, dtype=np.float32):
    """`model`'s predictions of `X`: class probabilities over `classes`, or values.

    A classifier's ``predict_proba`` columns follow its own ``classes_``;
    they are placed under `classes` (a class its fold lacked gets 0). A
    classifier without ``predict_proba`` gives one-hot vectors of its
    ``predict``. With `classes` None, ``predict``'s values. Stored as
    `dtype` (float32 where they are kept, float64 where they are served).
    """
    if classes is None:
        values = np.asarray(model.predict(X), dtype=dtype)
        return values.reshape(len(values), -1)
    out = np.zeros((_num_samples(X), len(classes)), dtype=dtype)
    if hasattr(model, "predict_proba"):
        columns = np.searchsorted(classes, model.classes_)
        out[:, columns] = model.predict_proba(X)
    else:
        out[np.arange(len(out)), np.searchsorted(classes, model.predict(X))] = 1.0
    return out


def store_for(keep, n_samples, classes, fold_models):
    """The store that `keep` (``keep_predictions``: a boolean or a folder) asks for, or None."""
    if isinstance(keep, (str, os.PathLike)):
        return OutOfFoldPredictions(n_samples, classes, folder=keep, fold_models=fold_models)
    return OutOfFoldPredictions(n_samples, classes, fold_models=fold_models) if keep else None


def _file_name(key):
    return "_".join(str(part) for part in (key if isinstance(key, tuple) else (key,)))


def _remove_files(entry):
    for name in ("path", "models"):
        if isinstance(entry.get(name), str) and os.path.exists(entry[name]):
            os.remove(entry[name])
