"""The scikit-learn face shared by every sksel search.

:class:`BaseSelectionSearch` validates the input, builds the candidates, the
cross-validation folds and the scorers, runs a subclass's policy on the
:class:`~sksel._engine.Engine`, and turns what happened into ``cv_results_``,
``all_cv_results_``, ``best_*`` and a refitted ``best_estimator_``. Prediction
methods are delegated to ``best_estimator_`` exactly as in
:class:`~sklearn.model_selection.GridSearchCV`, whose base class it extends.
"""

import numbers
import time
from abc import abstractmethod
from copy import deepcopy

import numpy as np
from sklearn.base import _fit_context, clone, is_classifier
from sklearn.metrics import check_scoring
from sklearn.metrics._scorer import _check_multimetric_scoring, _MultimetricScorer
from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit, check_cv
from sklearn.model_selection._search import BaseSearchCV
from sklearn.model_selection._validation import (
    _fit_and_score,
    _insert_error_scores,
    _warn_or_raise_about_fit_failures,
)
from sklearn.utils import check_random_state, get_tags, indexable
from sklearn.utils._param_validation import HasMethods, Interval
from sklearn.utils.validation import _check_method_params, _num_samples

from ._engine import Engine
from .space import CandidateSpace, first_estimator


class BaseSelectionSearch(BaseSearchCV):
    """Base class of the searches that spend a budget through a policy.

    Subclasses implement :meth:`_make_policy` and may extend :meth:`_check_params`.

    Read more in the :ref:`User Guide <user_guide>`.
    """

    _parameter_constraints: dict = {
        **{k: v for k, v in BaseSearchCV._parameter_constraints.items() if k != "pre_dispatch"},
        "estimator": [HasMethods(["fit"]), list],
        "cv": ["cv_object", Interval(numbers.Real, 0, 1, closed="neither")],
        "random_state": ["random_state"],
        "max_time": [Interval(numbers.Real, 0, None, closed="neither"), None],
    }

    @abstractmethod
    def __init__(
        self,
        estimator,
        *,
        scoring=None,
        n_jobs=None,
        refit=True,
        cv=None,
        verbose=0,
        random_state=None,
        error_score=np.nan,
        return_train_score=False,
        max_time=None,
    ):
        self.estimator = estimator
        self.scoring = scoring
        self.n_jobs = n_jobs
        self.refit = refit
        self.cv = cv
        self.verbose = verbose
        self.random_state = random_state
        self.error_score = error_score
        self.return_train_score = return_train_score
        self.max_time = max_time

    def __sklearn_tags__(self):
        tags = super(BaseSearchCV, self).__sklearn_tags__()
        sub = get_tags(first_estimator(self.estimator))
        tags.estimator_type = sub.estimator_type
        tags.classifier_tags = deepcopy(sub.classifier_tags)
        tags.regressor_tags = deepcopy(sub.regressor_tags)
        tags.input_tags.pairwise = sub.input_tags.pairwise
        tags.input_tags.sparse = sub.input_tags.sparse
        return tags

    # ------------------------------------------------------------------ hooks
    @abstractmethod
    def _make_policy(self, space, splits, y, n_classes, rng):
        """Return ``(policy, resource)`` for this fit.

        Parameters
        ----------
        space : CandidateSpace
            The candidates.
        splits : list of (train, test)
            The cross-validation folds.
        y : ndarray or None
            The targets.
        n_classes : int or None
            Number of classes, for a classifier.
        rng : RandomState
            The fit's random generator.
        """

    def _candidate_space(self):
        """The candidates of this search (built before any fit)."""
        return CandidateSpace(self.estimator, getattr(self, "param_grid", None))

    def _needs_train_score(self, n_resources):
        """Whether the policy reads training scores at `n_resources`."""
        return False

    # -------------------------------------------------------------------- fit
    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y=None, **params):
        """Run the search, then refit the best candidate on all of `X`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training vectors.
        y : array-like of shape (n_samples,) or (n_samples, n_outputs), default=None
            Targets for classification or regression.
        **params : dict of str -> object
            Parameters passed to the ``fit`` method of every candidate;
            ``groups`` goes to the cross-validation splitter.

        Returns
        -------
        self : object
            Instance of fitted search.
        """
        space = self._candidate_space()
        scorers, refit_metric = self._scorers(space.first_estimator)
        X, y = indexable(X, y)
        _check_targets(y)
        params = _check_method_params(X, params=params)
        groups = params.pop("groups", None)
        base = space.first_estimator
        rng = check_random_state(self.random_state)
        splits = list(self._checked_cv(y, base, rng).split(X, y, groups))
        self.n_splits_ = len(splits)
        n_classes = len(np.unique(y)) if is_classifier(base) and y is not None else None
        policy, resource = self._make_policy(space, splits, y, n_classes, rng)

        evaluations = []
        score_kwargs = dict(
            scorer=scorers,
            fit_params=params,
            score_params=None,
            return_n_test_samples=True,
            return_times=True,
            error_score=self.error_score,
            verbose=0,
        )

        # Built up front: a wrong parameter name fails before any training.
        estimators = [space.build(candidate) for candidate in space.candidates]

        def make_tasks(action):
            candidate, n_resources = action
            train_score = self.return_train_score or self._needs_train_score(n_resources)
            return [
                (_fit_and_score, (clone(estimators[candidate]), X, y),
                 dict(train=train, test=test, parameters=None,
                      return_train_score=train_score, **score_kwargs))
                for train, test in resource.split(n_resources)
            ]

        def on_done(action, outputs):
            nonlocal refit_metric
            if callable(self.scoring):
                refit_metric = self._callable_metric(outputs, refit_metric)
                _insert_error_scores(outputs, self.error_score)
            evaluations.append((action, outputs))
            self._tell(policy, action, outputs, refit_metric)

        engine = Engine(make_tasks, on_done, n_jobs=self.n_jobs, max_time=self.max_time,
                        verbose=self.verbose, name=type(self).__name__)
        engine.run(policy)
        self.stop_reason_ = engine.stop_reason_
        if not evaluations:
            raise RuntimeError(
                f"{type(self).__name__} finished no evaluation (stopped: "
                f"{self.stop_reason_}); raise max_time={self.max_time}."
            )
        _warn_or_raise_about_fit_failures(
            [out for _, outputs in evaluations for out in outputs], self.error_score
        )
        self.multimetric_ = isinstance(evaluations[0][1][0]["test_scores"], dict)
        self.all_cv_results_ = self._results(space, evaluations, resource)
        self.cv_results_ = self._results(space, _last_per_candidate(evaluations), resource)
        self._set_best(refit_metric)
        if self.refit:
            self._refit(space, X, y, params)
        self.scorer_ = scorers._scorers if isinstance(scorers, _MultimetricScorer) else scorers
        return self

    # ------------------------------------------------------------- internals
    def _scorers(self, estimator):
        """Scorer(s) and the name of the metric that ranks candidates."""
        if callable(self.scoring):
            return self.scoring, "score"
        if self.scoring is None or isinstance(self.scoring, str):
            return check_scoring(estimator, self.scoring), "score"
        scorers = _check_multimetric_scoring(estimator, self.scoring)
        metric = self._metric_named_by_refit(scorers)
        return _MultimetricScorer(scorers=scorers, raise_exc=self.error_score == "raise"), metric

    def _callable_metric(self, outputs, metric):
        """The ranking metric once a callable `scoring` shows it returns a dict."""
        scores = next((out["test_scores"] for out in outputs if out["fit_error"] is None), None)
        if not isinstance(scores, dict) or metric in scores:
            return metric
        return self._metric_named_by_refit(scores)

    def _metric_named_by_refit(self, metrics):
        """The metric that drives the policy, among several: the one `refit` names."""
        self._check_refit_for_multimetric(metrics)
        if not isinstance(self.refit, str):
            raise ValueError(
                f"scoring gives several metrics {sorted(metrics)}: {type(self).__name__} "
                f"decides what to train next by one of them, so refit must name it; "
                f"got refit={self.refit!r}."
            )
        return self.refit

    def _checked_cv(self, y, estimator, rng):
        classifier = is_classifier(estimator)
        if isinstance(self.cv, numbers.Real) and not isinstance(self.cv, numbers.Integral):
            holdout = StratifiedShuffleSplit if classifier else ShuffleSplit
            seed = rng.randint(np.iinfo(np.int32).max)
            return holdout(n_splits=1, test_size=self.cv, random_state=seed)
        return check_cv(self.cv, y, classifier=classifier)

    @staticmethod
    def _tell(policy, action, outputs, metric):
        def score(out, key):
            value = out[key]
            return value[metric] if isinstance(value, dict) else value

        failed = any(out["fit_error"] is not None for out in outputs)
        test = np.mean([score(out, "test_scores") for out in outputs])
        train = (
            np.mean([score(out, "train_scores") for out in outputs])
            if "train_scores" in outputs[0]
            else None
        )
        fit_time = float(np.sum([out["fit_time"] for out in outputs]))
        policy.tell(*action, test, train_score=train, fit_time=fit_time, failed=failed)

    def _results(self, space, evaluations, resource):
        """``cv_results_``-style dict of `evaluations`, ranked resource first."""
        params = [space.candidates[c] for (c, _), _ in evaluations]
        outs = [out for _, outputs in evaluations for out in outputs]
        if not self.return_train_score:
            outs = [{k: v for k, v in out.items() if k != "train_scores"} for out in outs]
        more = {
            "candidate_id": [c for (c, _), _ in evaluations],
            "n_resources": [n for (_, n), _ in evaluations],
            "iter": [resource.level(n) for (_, n), _ in evaluations],
        }
        results = self._format_results(params, self.n_splits_, outs, more)
        for key in [k for k in results if k.startswith("rank_test_")]:
            results[key] = _rank_by_resource(results["n_resources"], results[f"mean{key[4:]}"])
        return results

    def _set_best(self, refit_metric):
        results = self.cv_results_
        if self.refit or not self.multimetric_:
            self.best_index_ = int(self._select_best_index(self.refit, refit_metric, results))
            if not callable(self.refit):
                self.best_score_ = results[f"mean_test_{refit_metric}"][self.best_index_]
            self.best_params_ = results["params"][self.best_index_]

    def _refit(self, space, X, y, fit_params):
        self.best_estimator_ = space.build(self.best_params_)
        start = time.perf_counter()
        if y is None:
            self.best_estimator_.fit(X, **fit_params)
        else:
            self.best_estimator_.fit(X, y, **fit_params)
        self.refit_time_ = time.perf_counter() - start
        if hasattr(self.best_estimator_, "feature_names_in_"):
            self.feature_names_in_ = self.best_estimator_.feature_names_in_


def _check_targets(y):
    if y is None:
        return
    y = np.asarray(y)
    if y.dtype.kind in "fc" and not np.isfinite(y).all():
        raise ValueError(
            "y contains NaN or infinity; remove or impute those rows before the search."
        )
    if _num_samples(y) < 2:
        raise ValueError(
            f"The search needs at least 2 samples to split; got n_samples = {_num_samples(y)}."
        )


def _last_per_candidate(evaluations):
    """The evaluation of each candidate at the largest resource it received."""
    last = {}
    for (candidate, n), outputs in evaluations:
        if candidate not in last or n >= last[candidate][0][1]:
            last[candidate] = ((candidate, n), outputs)
    return [last[c] for c in sorted(last)]


def _rank_by_resource(n_resources, mean_scores):
    """Rank by resource received, then by score; failed (NaN) scores last.

    Ties share the smallest rank, as ``rankdata(method="min")`` does.
    """
    n = np.asarray(n_resources)
    scores = np.where(np.isnan(mean_scores), -np.inf, mean_scores)
    order = np.lexsort((-scores, -n))
    n, scores = n[order], scores[order]
    new = np.r_[True, (n[1:] != n[:-1]) | (scores[1:] != scores[:-1])]
    ranks = np.empty(len(order), dtype=np.int32)
    ranks[order] = np.maximum.accumulate(np.where(new, np.arange(len(order)), 0)) + 1
    return ranks
