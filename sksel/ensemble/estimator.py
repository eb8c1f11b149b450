"""An ensemble of the models a search trained, chosen from their out-of-fold predictions."""

import numbers
import time
from copy import deepcopy

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone, is_classifier
from sklearn.metrics import accuracy_score, check_scoring
from sklearn.model_selection._search import BaseSearchCV
from sklearn.utils import get_tags, indexable
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted, column_or_1d

from .._compat import Interval, StrOptions, _fit_context
from .._core.predictions import fold_predictions
from .._core.scoring import ranking_metric
from ..spaces.space import SearchSpace
from .recording import PredictionRecorder, recording_predictions
from .selection import agreement_similarity, dpp_selection, greedy_selection


class EnsembleClassifier(MetaEstimatorMixin, ClassifierMixin, BaseEstimator):
    """An ensemble of the candidates a search evaluated, chosen from their out-of-fold predictions.

    A search trains many models and keeps one. This classifier keeps a
    weighted set of them, chosen on the predictions each candidate made of
    the validation rows it did not train on (the search's folds), so that
    the choice never sees a row it is then scored on:

    - ``"dpp"``: the members of a determinantal point process over the
      candidates, whose kernel rewards each candidate's score and penalises
      how alike two candidates' errors are (Dodge, "Diversity in machine
      learning", Section 5.2): its most probable subset, or a draw of it
      (`sample`), weighed by greedy rounds among the members. How many join
      comes out of the data: few where the good candidates make the same
      errors, more where good candidates differ.
    - ``"greedy"``: Caruana et al.'s ensemble selection with replacement, as
      auto-sklearn builds it: `n_rounds` rounds each adding the candidate
      that makes the ensemble's score best; weights are shares of rounds.
    - ``"best"``: the search's selected candidate alone, for comparison.

    An ensemble of one refitted member (always with ``"best"``, and where
    ``"dpp"`` or ``"greedy"`` keep one) predicts as that member does: its
    ``predict``, ``predict_proba`` and ``decision_function``, so that
    ``"best"`` scores as the search's ``best_estimator_`` (an
    ``SVC(probability=True)`` predicts by its decision function, not by the
    argmax of its Platt probabilities).

    `fit` runs a clone of `search` with its predictions kept, then chooses;
    :meth:`from_search` builds the ensemble from a search already fitted
    with them (``keep_predictions=True`` for sksel's searches,
    :func:`~sksel.ensemble.recording_predictions` for scikit-learn's
    :class:`~sklearn.model_selection.GridSearchCV` and
    :class:`~sklearn.model_selection.RandomizedSearchCV`). The pool is the
    rows of ``cv_results_`` evaluated on every fold, with a finite score,
    trained as much as the selected candidate (``n_resources``, where the
    search has it: DAUB's candidates on all the rows).

    Read more in the :ref:`User Guide <ensembles>`.

    Parameters
    ----------
    search : search estimator
        An sksel search or a scikit-learn ``GridSearchCV`` /
        ``RandomizedSearchCV`` of a classifier; `fit` fits a clone of it.
    method : {"dpp", "greedy", "best"}, default="dpp"
        How the members are chosen (see above).
    n_rounds : int, default=50
        Greedy rounds that set the weights (``"dpp"``, ``"greedy"``).
    quality_weight : float, default=1.0
        ``"dpp"``: weight of a candidate's score against its diversity. A
        candidate's quality is ``exp(1 - quality_weight * z)``, ``z`` its
        distance below the best score in units of the best's gap to the
        median candidate; 0 chooses by diversity alone, large values keep
        the best candidate only.
    similarity : {"errors", "agreement"}, default="errors"
        ``"dpp"``: how alike two candidates are: the correlation of their
        errors (probabilities minus the one-hot truth) or the share of rows
        on which they predict the same class.
    sample : bool, default=False
        ``"dpp"``: draw the members from the DPP instead of taking its most
        probable subset.
    refit : bool, default=True
        Refit each member on all the rows of ``fit`` (as the search refits
        its best); ``False`` reuses the models trained on the folds, each
        member predicting the average of its fold models (the search must
        have kept them: ``keep_fold_models=True``).
    voting : {"soft", "hard"}, default="soft"
        Average the members' weighted class probabilities, or take the
        weighted vote of their predicted classes (a refitted member's
        ``predict``; with ``refit=False``, the class of largest average
        probability of its fold models).
    scoring : str, callable or None, default=None
        What the rounds maximise on the out-of-fold predictions; None: the
        search's (its refit metric).
    random_state : int, RandomState instance or None, default=None
        Seed of the draw (`sample`).

    Attributes
    ----------
    search_ : search estimator
        The fitted search the members come from.
    candidates_ : ndarray of int
        The pool: rows of ``search_.cv_results_`` the members were chosen from.
    members_ : ndarray of int
        The rows of ``search_.cv_results_`` of the members.
    weights_ : ndarray of float
        Each member's weight; they sum to 1.
    estimators_ : list
        The members' fitted estimators (with ``refit=False``, each a list of
        its fold models).
    oof_score_ : float
        The ensemble's score on the out-of-fold predictions (the rows
        chosen on: optimistic for ``"greedy"`` and ``"dpp"``).
    candidate_scores_ : ndarray of float
        Each pool candidate's own out-of-fold score.
    disagreement_ : ndarray of shape (n_candidates, n_candidates)
        The share of out-of-fold rows on which two pool candidates predict
        different classes (what :class:`EnsembleDisplay` draws).
    selection_time_ : float
        Seconds spent choosing the members (the search and refits aside).
    refit_time_ : float
        Seconds spent refitting the members (0 with ``refit=False``).
    classes_ : ndarray of shape (n_classes,)
        The classes.
    n_features_in_ : int
        Number of features seen during fit.

    See Also
    --------
    EnsembleDisplay : Members, weights, disagreements and scores, drawn.
    sklearn.ensemble.VotingClassifier : Soft or hard voting over given estimators.

    References
    ----------
    .. [1] R. Caruana, A. Niculescu-Mizil, G. Crew and A. Ksikes, "Ensemble
       selection from libraries of models", ICML 2004.
    .. [2] J. Dodge, "Diversity in machine learning", 2019, Section 5.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sksel.ensemble import EnsembleClassifier
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> search = GridSearchCV(DecisionTreeClassifier(random_state=0),
    ...                       {"max_depth": [1, 2, 4, None], "min_samples_leaf": [1, 10]})
    >>> ensemble = EnsembleClassifier(search, method="greedy").fit(X, y)
    >>> print(round(float(ensemble.weights_.sum()), 6))
    1.0
    """

    _parameter_constraints: dict = {
        "search": [BaseSearchCV],
        "method": [StrOptions({"dpp", "greedy", "best"})],
        "n_rounds": [Interval(numbers.Integral, 1, None, closed="left")],
        "quality_weight": [Interval(numbers.Real, 0, None, closed="left")],
        "similarity": [StrOptions({"errors", "agreement"})],
        "sample": ["boolean"],
        "refit": ["boolean"],
        "voting": [StrOptions({"soft", "hard"})],
        "scoring": [str, callable, None],
        "random_state": ["random_state"],
    }

    def __init__(self, search, *, method="dpp", n_rounds=50, quality_weight=1.0,
                 similarity="errors", sample=False, refit=True, voting="soft", scoring=None,
                 random_state=None):
        self.search = search
        self.method = method
        self.n_rounds = n_rounds
        self.quality_weight = quality_weight
        self.similarity = similarity
        self.sample = sample
        self.refit = refit
        self.voting = voting
        self.scoring = scoring
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, **fit_params):
        """Fit a clone of `search` keeping its predictions, choose the members, fit them.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,)
            Classes.
        **fit_params : dict
            Passed to the search's ``fit``.

        Returns
        -------
        self : object
            The fitted ensemble.
        """
        _check_classifier_search(self.search)
        _check_refit(self.search, self.refit)
        X, y = _checked_data(X, y, type(self).__name__)
        search = clone(self.search)
        if _is_sksel(search):
            search.set_params(keep_predictions=search.keep_predictions or True,
                              keep_fold_models=search.keep_fold_models or not self.refit)
        elif isinstance(search.scoring, PredictionRecorder):
            search.scoring.fold_models = search.scoring.fold_models or not self.refit
        else:
            recording_predictions(search, fold_models=not self.refit)
        search.fit(X, y, **fit_params)
        return self._build(search, X, y, fit_params)

    @classmethod
    def from_search(cls, search, X, y, **params):
        """The ensemble of a fitted `search` that kept its out-of-fold predictions.

        Parameters
        ----------
        search : fitted search
            An sksel search fitted with ``keep_predictions`` (and
            ``keep_fold_models`` for ``refit=False``), or a scikit-learn search
            fitted after :func:`~sksel.ensemble.recording_predictions`.
        X, y : array-like
            The data the search was fitted on (the members are refitted on it).
        **params : dict
            The ensemble's parameters (`method`, `refit`, ...).

        Returns
        -------
        ensemble : EnsembleClassifier
            Fitted; ``search_`` is `search` itself.
        """
        ensemble = cls(search, **params)
        ensemble._validate_params()
        _check_classifier_search(search)
        _check_refit(search, ensemble.refit)
        X, y = _checked_data(X, y, cls.__name__)
        return ensemble._build(search, X, y, {})

    # ----------------------------------------------------------------- build
    def _build(self, search, X, y, fit_params):
        store = _kept_predictions(search, X, y, self.refit)
        pool = _pool(search, store)
        self.search_ = search
        self.classes_ = store.classes_
        self.candidates_ = pool
        y = np.asarray(y)
        predictions = np.stack([store.predictions(row) for row in pool]).astype(float)
        covered = ~np.isnan(predictions).any(axis=(0, 2))
        predictions, truth = predictions[:, covered], y[covered]
        one_hot = (truth[:, None] == self.classes_[None, :]).astype(float)
        score = _score_function(self._scorer(search), _first_estimator(search), self.classes_,
                                truth)
        start = time.perf_counter()
        self.candidate_scores_ = score(predictions)
        counts = self._counts(search, pool, predictions, score, one_hot)
        self.selection_time_ = time.perf_counter() - start
        self.disagreement_ = 1 - agreement_similarity(predictions)
        chosen = np.flatnonzero(counts)
        self.members_ = pool[chosen]
        self.weights_ = counts[chosen] / counts.sum()
        self.oof_score_ = float(score(np.tensordot(self.weights_, predictions[chosen], 1)[None])[0])
        start = time.perf_counter()
        self.estimators_ = [self._member(search, store, row, X, y, fit_params)
                            for row in self.members_]
        self.refit_time_ = time.perf_counter() - start if self.refit else 0.0
        if hasattr(search, "n_features_in_"):
            self.n_features_in_ = search.n_features_in_
        if hasattr(search, "feature_names_in_"):
            self.feature_names_in_ = search.feature_names_in_
        return self

    def _counts(self, search, pool, predictions, score, one_hot):
        """Rounds won by each pool candidate."""
        if self.method == "best":
            counts = np.zeros(len(pool), dtype=int)
            selected = np.flatnonzero(pool == getattr(search, "best_index_", -1))
            counts[selected[0] if len(selected) else np.argmax(self.candidate_scores_)] = 1
            return counts
        if self.method == "greedy":
            return greedy_selection(predictions, score, n_rounds=self.n_rounds)
        return dpp_selection(predictions, self.candidate_scores_, score,
                             quality_weight=self.quality_weight, similarity=self.similarity,
                             y=one_hot, n_rounds=self.n_rounds, sample=self.sample,
                             random_state=self.random_state)

    def _scorer(self, search):
        """The scorer the rounds maximise: `scoring`, or the search's refit metric."""
        if self.scoring is not None:
            return check_scoring(search.estimator, self.scoring)
        scoring = search.scoring
        if isinstance(scoring, PredictionRecorder):
            scoring = scoring.scoring
        if isinstance(scoring, (list, tuple, set, dict)):
            refit = search.refit if isinstance(search.refit, str) else None
            scoring = scoring[refit] if isinstance(scoring, dict) and refit else refit
        return check_scoring(_first_estimator(search), scoring)

    def _member(self, search, store, row, X, y, fit_params):
        """The fitted member of results row `row`: refitted, or its fold models."""
        if not self.refit:
            return [model for _, model in store.fold_models(row)]
        estimator = _row_estimator(search, row)
        return estimator.fit(X, y, **fit_params)

    # --------------------------------------------------------------- predict
    def predict_proba(self, X):
        """The members' class probabilities, averaged with their weights.

        With ``voting="hard"``, the weighted share of the members' votes.
        An ensemble of one refitted member gives that member's.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input samples.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
        """
        check_is_fitted(self, "estimators_")
        total = 0.0
        for i, weight in enumerate(self.weights_):
            if self.voting == "hard":
                p = self._member_classes(i, X)[:, None] == self.classes_[None, :]
            else:
                p = self._member_probabilities(i, X)
            total = total + weight * p
        return np.asarray(total, dtype=float)

    def _member_probabilities(self, i, X):
        """Member `i`'s class probabilities of `X` (the average of its fold models')."""
        member = self.estimators_[i]
        models = member if isinstance(member, list) else [member]
        return np.mean([fold_predictions(model, X, self.classes_, dtype=float) for model in models],
                       axis=0)

    def _member_classes(self, i, X):
        """Member `i`'s classes of `X`: its ``predict``, or its fold models' largest average."""
        member = self.estimators_[i]
        if isinstance(member, list):
            return self.classes_[np.argmax(self._member_probabilities(i, X), axis=1)]
        return np.asarray(member.predict(X))

    def predict(self, X):
        """The class of largest weighted probability (or vote); a sole member's ``predict``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input samples.

        Returns
        -------
        y : ndarray of shape (n_samples,)
        """
        check_is_fitted(self, "estimators_")
        sole = self._sole_member()
        if sole is not None:
            return sole.predict(X)
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    @available_if(lambda self: _sole_member_has(self, "decision_function"))
    def decision_function(self, X):
        """The sole member's ``decision_function`` (``method="best"``, ``refit=True``).

        Only an ensemble of one refitted member has it, whose scores these are.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Input samples.

        Returns
        -------
        scores : ndarray of shape (n_samples,) or (n_samples, n_classes)
        """
        check_is_fitted(self, "estimators_")
        return self._sole_member().decision_function(X)

    def _sole_member(self):
        """The fitted estimator of an ensemble of one refitted member; None otherwise."""
        if len(self.estimators_) == 1 and not isinstance(self.estimators_[0], list):
            return self.estimators_[0]
        return None

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        searched = get_tags(_first_estimator(self.search))
        tags.input_tags.allow_nan = searched.input_tags.allow_nan
        tags.input_tags.sparse = searched.input_tags.sparse
        tags.classifier_tags = deepcopy(searched.classifier_tags)
        tags.classifier_tags.multi_label = False
        return tags


# ------------------------------------------------------------------- helpers
def _is_sksel(search):
    return hasattr(search, "keep_predictions")


def _sole_member_has(ensemble, name):
    """Whether `ensemble` delegates method `name` to its sole member.

    Fitted: whether it has one refitted member with that method. Not fitted
    yet: whether ``method="best"`` with ``refit`` will, as far as the
    search's estimator tells.
    """
    if hasattr(ensemble, "estimators_"):
        sole = ensemble._sole_member()
        return sole is not None and hasattr(sole, name)
    return (ensemble.method == "best" and ensemble.refit
            and hasattr(_first_estimator(ensemble.search), name))


def _first_estimator(search):
    estimator = search.estimator
    return estimator[0] if isinstance(estimator, list) else estimator


def _checked_data(X, y, name):
    """`X` and `y` as a search indexes them; a ``ValueError`` for a missing `y`."""
    if y is None:
        raise ValueError(f"{name} requires y to be passed, but the target y is None.")
    X, y = indexable(X, y)
    return X, column_or_1d(y, warn=True)


def _check_refit(search, refit):
    """A ``ValueError`` where members cannot be refitted from scratch."""
    if refit and not getattr(search, "_trains_from_scratch", True):
        raise ValueError(
            f"The models of {type(search).__name__} go on from their parents' training, "
            "which a refit from scratch does not rebuild: use refit=False (the search "
            "fitted with keep_fold_models=True)."
        )


def _check_classifier_search(search):
    """A ``TypeError`` naming the search unless it searches a classifier."""
    if not isinstance(search, BaseSearchCV):
        raise TypeError(
            f"search must be a search estimator (an sksel search, GridSearchCV or "
            f"RandomizedSearchCV); got {type(search).__name__}."
        )
    if not is_classifier(_first_estimator(search)):
        raise ValueError(
            f"EnsembleClassifier ensembles classifiers; the {type(search).__name__} given "
            f"searches {type(_first_estimator(search)).__name__}, which is not one: its "
            "candidates have no classes to vote on."
        )
    if "Halving" in type(search).__name__:
        raise ValueError(
            f"{type(search).__name__} evaluates candidates on several resources on "
            "the same folds, whose predictions a recording scorer cannot tell apart; use "
            "sksel.DAUBSearch(keep_predictions=True) or GridSearchCV."
        )


def _kept_predictions(search, X, y, refit):
    """The fitted `search`'s out-of-fold predictions; a ``ValueError`` says how to keep them."""
    if not hasattr(search, "cv_results_"):
        raise ValueError(
            f"This {type(search).__name__} is not fitted: fit it first "
            "(or pass it unfitted to EnsembleClassifier(search).fit(X, y))."
        )
    if isinstance(search.scoring, PredictionRecorder):
        store = search.scoring.predictions(search, X, y)
        kept_models = search.scoring.fold_models
    elif getattr(search, "cv_predictions_", None) is not None:
        store = search.cv_predictions_
        kept_models = store.keep_fold_models
    else:
        how = ("fit it with keep_predictions=True" if _is_sksel(search) else
               "fit it after sksel.ensemble.recording_predictions(search)")
        raise ValueError(
            f"The {type(search).__name__} kept no out-of-fold predictions to choose an "
            f"ensemble from: {how}, or let EnsembleClassifier(search).fit(X, y) run it."
        )
    if not refit and not kept_models:
        raise ValueError(
            "refit=False reuses the models trained on the folds, and the search did not keep "
            "them: fit it with keep_fold_models=True (recording_predictions(search, "
            "fold_models=True) for a scikit-learn search), or use refit=True."
        )
    return store


def _pool(search, store):
    """Rows kept, with a finite score and as much training as the selected row."""
    results = search.cv_results_
    metric = search.refit if isinstance(search.refit, str) else "score"
    means = np.asarray(results[f"mean_test_{metric}"], dtype=float)
    rows = [row for row in store.keys_ if np.isfinite(means[row])]
    if "n_resources" in results and hasattr(search, "best_index_"):
        resource = results["n_resources"][search.best_index_]
        rows = [row for row in rows if results["n_resources"][row] == resource]
    if not rows:
        raise ValueError(
            f"No candidate of the {type(search).__name__} was evaluated on every fold with a "
            "finite score: there is nothing to ensemble."
        )
    return np.array(sorted(rows), dtype=int)


def _row_estimator(search, row):
    """A fresh estimator of the candidate of results row `row`."""
    params = search.cv_results_["params"][row]
    if isinstance(search.estimator, list):  # params name the estimator: the space builds it
        return SearchSpace(search.estimator).build(params)
    return clone(search.estimator).set_params(**clone(params, safe=False))


def _score_function(scorer, estimator, classes, y):
    """``score(p)``: the scorer's value of each of the averaged probabilities ``p``."""
    function, sign = ranking_metric(scorer, "score", estimator)
    if function is accuracy_score and sign > 0 and not getattr(scorer, "_kwargs", {}):
        def accuracy(p):
            return np.mean(classes[np.argmax(p, axis=2)] == y[None, :], axis=1)
        return accuracy
    fixed = _FixedProbabilities(classes)
    rows = np.arange(len(y))[:, None]

    def scored(p):
        return np.array([scorer(fixed.set(q), rows, y) for q in p])
    return scored


class _FixedProbabilities(ClassifierMixin, BaseEstimator):
    """A classifier that answers with probabilities given in advance: what a scorer reads."""

    def __init__(self, classes):
        self.classes = classes

    def set(self, proba):
        self.classes_ = self.classes
        self.proba_ = proba
        return self

    def predict_proba(self, X):
        return self.proba_

    def predict(self, X):
        return self.classes_[np.argmax(self.proba_, axis=1)]
