"""Out-of-fold predictions of scikit-learn's own searches, recorded by their scorer.

:class:`~sklearn.model_selection.GridSearchCV` and
:class:`~sklearn.model_selection.RandomizedSearchCV` keep no predictions, and
their fits run in worker processes. :func:`recording_predictions` gives such
a search a scorer (:class:`PredictionRecorder`) that, beside scoring, writes
each fitted model's predictions of its validation fold to a folder, one file
per candidate and fold, named by a hash of the candidate's parameters and
of the fold's rows. After the fit, :meth:`PredictionRecorder.predictions`
finds each row of ``cv_results_`` again by the same hashes, on the folds
that the search's ``cv`` gives again.
"""

import os
import shutil
import tempfile
import weakref

import joblib
import numpy as np
from sklearn.base import clone, is_classifier
from sklearn.metrics import check_scoring
from sklearn.model_selection import check_cv
from sklearn.utils import _safe_indexing

from .._compat import _check_multimetric_scoring, _MultimetricScorer
from .._core.checkpoint import write_whole
from .._core.predictions import OutOfFoldPredictions, fold_predictions


class PredictionRecorder:
    """A scorer that also records the predictions of the model it scores.

    Called as any scorer, ``recorder(estimator, X, y)``, it returns the score
    of `scoring` and writes ``estimator``'s predictions of ``X`` (class
    probabilities of a classifier, with its classes) to `folder`, as
    ``<hash of the estimator's parameters>-<hash of X>.npz`` (and, with
    `fold_models`, the fitted estimator beside). Made by
    :func:`recording_predictions`.

    Parameters
    ----------
    scoring : str, callable, list, tuple, dict or None
        What the search scored with, as its ``scoring`` parameter.
    folder : str or path-like
        Where the predictions go; shared by the workers.
    fold_models : bool, default=False
        Whether to keep each fitted model too.
    """

    def __init__(self, scoring, folder, fold_models=False):
        self.scoring = scoring
        self.folder = os.fspath(folder)
        self.fold_models = fold_models

    def __call__(self, estimator, X, y=None, **kwargs):
        classes = np.asarray(estimator.classes_) if is_classifier(estimator) else None
        name = os.path.join(self.folder, f"{estimator_key(estimator)}-{data_key(X)}")
        recorded = {"predictions": fold_predictions(estimator, X, classes)}
        if classes is not None:
            recorded["classes"] = classes
        write_whole(name + ".npz", lambda file: np.savez(file, **recorded))
        if self.fold_models:
            write_whole(name + ".joblib", lambda file: joblib.dump(estimator, file))
        scorer = _scorer(estimator, self.scoring)
        return scorer(estimator, X, y, **kwargs)

    def predictions(self, search, X, y, groups=None):
        """The out-of-fold predictions of every row of the fitted `search`'s ``cv_results_``.

        Parameters
        ----------
        search : GridSearchCV or RandomizedSearchCV
            Fitted with this recorder as its scoring.
        X, y : array-like
            The data the search was fitted on.
        groups : array-like or None, default=None
            The groups its splitter was given, if any.

        Returns
        -------
        predictions : OutOfFoldPredictions
            Keyed by ``cv_results_`` row; a row whose fit failed is missing.
        """
        estimator = search.estimator
        classifier = is_classifier(estimator)
        cv = check_cv(search.cv, y, classifier=classifier)
        splits = list(cv.split(X, y, groups))
        tests = [(test, data_key(_safe_indexing(X, test))) for _, test in splits]
        classes = np.unique(y) if classifier else None
        store = OutOfFoldPredictions(len(y), classes, fold_models=self.fold_models)
        for row, params in enumerate(search.cv_results_["params"]):
            stem = os.path.join(self.folder, estimator_key(clone(estimator).set_params(**params)))
            paths = [f"{stem}-{key}" for _, key in tests]
            if all(os.path.exists(path + ".npz") for path in paths):
                store.put(row, [(test, _aligned(path + ".npz", classes),
                                 joblib.load(path + ".joblib") if self.fold_models else None)
                                for (test, _), path in zip(tests, paths)])
        if not len(store):
            raise ValueError(
                "No recorded predictions match the rows of the search's cv_results_ on the "
                "folds its cv gives now: fit the search with this recorder, on the same X, "
                "and with a cv that gives the same folds again (an int, or a splitter with "
                "an int random_state)."
            )
        return store


def recording_predictions(search, folder=None, fold_models=False):
    """`search`, set to record its candidates' out-of-fold predictions.

    Replaces the ``scoring`` of a scikit-learn search
    (:class:`~sklearn.model_selection.GridSearchCV`,
    :class:`~sklearn.model_selection.RandomizedSearchCV`) by a
    :class:`PredictionRecorder` of it, which scores as before; after
    ``search.fit(X, y)``, ``search.scoring.predictions(search, X, y)`` gives
    every row's out-of-fold predictions, and
    :meth:`EnsembleClassifier.from_search <sksel.ensemble.EnsembleClassifier.from_search>`
    finds them. (sksel's searches keep them themselves: ``keep_predictions``.)

    Each fit writes ``n_test_rows x n_classes x 4`` bytes (and, with
    `return_train_score`, as much for its training rows, which no ensemble
    reads).

    Parameters
    ----------
    search : GridSearchCV or RandomizedSearchCV
        Not fitted yet; changed in place.
    folder : str, path-like or None, default=None
        Where to write; None: a temporary folder, removed when the recorder
        is garbage collected.
    fold_models : bool, default=False
        Whether to keep each fold's fitted model too (an ensemble that
        reuses its members as trained on their folds needs them).

    Returns
    -------
    search : the same search, with its new ``scoring``.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sksel.ensemble import recording_predictions
    >>> X, y = load_iris(return_X_y=True)
    >>> search = recording_predictions(
    ...     GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 3]}))
    >>> predictions = search.fit(X, y).scoring.predictions(search, X, y)
    >>> predictions.predictions(0).shape
    (150, 3)
    """
    if isinstance(search.scoring, PredictionRecorder):
        return search
    created = folder is None
    folder = tempfile.mkdtemp(prefix="sksel-recorded-") if created else os.fspath(folder)
    os.makedirs(folder, exist_ok=True)
    recorder = PredictionRecorder(search.scoring, folder, fold_models=fold_models)
    if created:
        weakref.finalize(recorder, shutil.rmtree, folder, True)
    return search.set_params(scoring=recorder)


def estimator_key(estimator):
    """A hash of `estimator`'s parameters, nested estimators included, fitted or not."""
    return joblib.hash(_parameters(estimator))


def data_key(X):
    """A hash of the rows `X` (an array, a memory map of one or a DataFrame)."""
    if isinstance(X, np.ndarray):
        X = np.asarray(X)
    return joblib.hash(X)


def _aligned(path, classes):
    """The recorded predictions of `path`, their columns under `classes`."""
    # Classes of object dtype (strings) are pickled; the folder is the recorder's own.
    with np.load(path, allow_pickle=True) as recorded:
        predictions = recorded["predictions"]
        if classes is None:
            return predictions
        out = np.zeros((len(predictions), len(classes)), dtype=predictions.dtype)
        out[:, np.searchsorted(classes, recorded["classes"])] = predictions
        return out


def _parameters(value):
    """`value`, each estimator in it replaced by its class and parameters, random states marked."""
    if hasattr(value, "get_params") and not isinstance(value, type):
        return (type(value).__qualname__,
                {k: _parameters(v) for k, v in value.get_params(deep=False).items()})
    if isinstance(value, (list, tuple)):
        return [_parameters(v) for v in value]
    if isinstance(value, dict):
        return {k: _parameters(v) for k, v in value.items()}
    if isinstance(value, (np.random.RandomState, np.random.Generator)):
        return "random state instance"
    return value


def _scorer(estimator, scoring):
    if isinstance(scoring, (list, tuple, set, dict)):
        return _MultimetricScorer(scorers=_check_multimetric_scoring(estimator, scoring))
    return check_scoring(estimator, scoring)
