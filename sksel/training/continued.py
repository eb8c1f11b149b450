"""Continued training: models that go on from their state, sub-train after sub-train.

The fitted model of every (model, fold) is kept between sub-trains
(:class:`_ModelStates`); every fold's rows are cut once (:class:`_FoldRows`);
a task runs one sub-train on one fold (:func:`_subtrain_and_score`).
"""

import os
import shutil
import tempfile
import time
from copy import deepcopy
from traceback import format_exc

import joblib
import numpy as np
from sklearn.utils import get_tags

from .._core.compat import _num_samples, _safe_split, _score
from .inheritance import continued


class _ModelStates:
    """The fitted model of every (model, fold) between sub-trains, in memory or in a folder."""

    def __init__(self, memory):
        self.memory = memory
        self._models = {}
        if memory is not None:
            os.makedirs(memory, exist_ok=True)

    def put(self, model, fold, fitted):
        if self.memory is None:
            self._models[model, fold] = fitted
        else:
            joblib.dump(fitted, self._path(model, fold))
            self._models[model, fold] = None

    def get(self, model, fold):
        if self.memory is None:
            return self._models[model, fold]
        return joblib.load(self._path(model, fold))

    def discard(self, model):
        """Forget every fold of `model`."""
        for key in [key for key in self._models if key[0] == model]:
            self._remove(key)

    def clear(self):
        for key in list(self._models):
            self._remove(key)

    def _remove(self, key):
        del self._models[key]
        if self.memory is not None:
            os.remove(self._path(*key))

    def _path(self, model, fold):
        return os.path.join(os.fspath(self.memory), f"model{model}_fold{fold}.joblib")


class _FoldRows:
    """Every fold's rows, cut out of ``X`` and ``y`` once for the whole search.

    Each sub-train of a fold gets the same ``(X_train, y_train, X_test,
    y_test)``, rather than its own copy of the rows. With `mapped` (the fits
    run in worker processes), every numeric array of them is written once to
    a temporary folder and handed out memory-mapped, read-only: it goes to a
    worker by its file name, where joblib would hash ``X`` with every task
    (and send the arrays under 1 MB whole). The folder is removed by
    :meth:`clear`.

    Parameters
    ----------
    mapped : bool
        Memory-map the large arrays.
    """

    def __init__(self, mapped):
        self.mapped = mapped
        self._rows = {}
        self._folder = None

    def get(self, estimator, X, y, fold, train, test):
        """The rows of `fold` (``train`` and ``test``), as `estimator` takes them."""
        key = fold, get_tags(estimator).input_tags.pairwise  # a kernel's X is cut both ways
        if key not in self._rows:
            X_train, y_train = _safe_split(estimator, X, y, train)
            X_test, y_test = _safe_split(estimator, X, y, test, train)
            self._rows[key] = tuple(self._mapped(rows, f"{fold}_{i}_{key[1]:d}")
                                    for i, rows in enumerate((X_train, y_train, X_test, y_test)))
        return self._rows[key]

    def clear(self):
        self._rows.clear()
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None

    def _mapped(self, array, name):
        if not (self.mapped and isinstance(array, np.ndarray) and array.dtype != object):
            return array
        if self._folder is None:
            self._folder = tempfile.mkdtemp(prefix="sksel-folds-")
        path = os.path.join(self._folder, f"{name}.joblib")
        joblib.dump(array, path)
        return joblib.load(path, mmap_mode="r")


def _subtrain_and_score(model, estimator, subtrainer, rows, *, inherit, scorer, fit_params,
                        score_params, train_score_params, error_score):
    """One pull on one fold: a sub-train of `model`, then its scores.

    `model` is None for a new model, which starts from `estimator`; with
    `inherit` (parameters) it is a parent's fitted model, which takes them
    and goes on. `rows` are the fold's ``(X_train, y_train, X_test, y_test)``
    (:class:`_FoldRows`); `fit_params` and `score_params` are those of its
    training and test rows, `train_score_params` those of the training rows
    to score them too, or None not to. The output is ``_fit_and_score``'s, plus the
    fitted ``model`` (None when the sub-train failed) and ``restarted``,
    whether a mutant started afresh because its parent's model could not take
    its parameters.
    """
    if inherit is not None:
        # The parent's model goes on beside its mutant; copied here, in the
        # worker, rather than by the process that runs the search.
        model = deepcopy(model)
    X_train, y_train, X_test, y_test = rows
    start = time.time()
    result = {"fit_error": None}
    try:
        model, result["restarted"] = continued(model, estimator, subtrainer, inherit,
                                               X_train, y_train, fit_params)
    except Exception:
        if error_score == "raise":
            raise
        result["fit_error"] = format_exc()
        failed = dict.fromkeys(scorer._scorers, error_score) if hasattr(
            scorer, "_scorers") else error_score
        result.update(test_scores=failed, model=None)
        if train_score_params is not None:
            result["train_scores"] = failed
        fit_time, score_time = time.time() - start, 0.0
    else:
        fit_time = time.time() - start
        result["test_scores"] = _score(model, X_test, y_test, scorer, score_params, error_score)
        if train_score_params is not None:
            result["train_scores"] = _score(model, X_train, y_train, scorer,
                                            train_score_params, error_score)
        score_time = time.time() - start - fit_time
        result["model"] = model
    result.update(n_test_samples=_num_samples(X_test), fit_time=fit_time,
                  score_time=score_time)
    return result
