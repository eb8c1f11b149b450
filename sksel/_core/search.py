"""The scikit-learn face shared by every sksel search.

:class:`BaseSelectionSearch` validates the input, builds the search space and
the candidates drawn from it, the cross-validation folds and the scorers,
runs a subclass's policy on the :class:`~sksel._core.engine.Engine`, and turns
what happened into ``cv_results_``, ``all_cv_results_``, ``best_*`` and a
refitted ``best_estimator_``. Prediction methods are delegated to
``best_estimator_`` exactly as in
:class:`~sklearn.model_selection.GridSearchCV`, whose base class it extends.

This module holds its parameters, the hooks a subclass implements, and the
steps of ``fit``; each step's work has a module of its own: the checks of
the input (:mod:`~sksel._core.validation`), the scorers
(:mod:`~sksel._core.search_scoring`), the run on the engine and its listeners
(:mod:`~sksel._core.search_run`), the selection and the ranks
(:mod:`~sksel._core.selection`) and the refit (:mod:`~sksel._core.refit`).
"""

import numbers
import os
import time
import warnings
from abc import abstractmethod
from copy import deepcopy
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np
from sklearn.base import is_classifier
from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit, check_cv
from sklearn.utils import check_random_state, get_tags, indexable
from sklearn.utils.metadata_routing import MetadataRouter, MethodMapping

from .._compat import (
    BaseSearchCV,
    HasMethods,
    Interval,
    _check_method_params,
    _fit_context,
    _insert_error_scores,
    _MultimetricScorer,
    _routing_enabled,
    _warn_or_raise_about_fit_failures,
)
from ..spaces.space import _STEP, SearchSpace, first_estimator
from ..spaces.validation import _check_responses
from .deadline import FirstModelTrainer
from .devices import check_cuda_available
from .interrupts import noting_interrupts
from .missing import check_missing_values
from .naming import candidate_names, counted
from .progress import ProgressBudget
from .refit import RefitMixin
from .results import _last_per_candidate, _split_by_decisions
from .run import _Job, _stop_words
from .scoring import response_needs
from .search_run import RunMixin
from .search_scoring import ScoringMixin
from .selection import SelectionMixin, row_of_action, used_actions
from .validation import check_policy, check_targets, count_classes, is_1d, routed_estimators
from .workers import threads_within_cpus


class BaseSelectionSearch(RunMixin, ScoringMixin, SelectionMixin, RefitMixin, BaseSearchCV):
    """Base class of the searches that spend a budget through a policy.

    Subclasses implement :meth:`_make_policy` and may override the other hooks.

    Read more in the :ref:`User Guide <user_guide>`.
    """

    #: Whether a row's model is a plain fit of its parameters, which a refit
    #: from scratch rebuilds (not so for models that go on from a parent's).
    _trains_from_scratch = True

    #: ``{old: new}`` names of parameters renamed under a deprecation: a
    #: checkpoint recorded under the old name resumes under the new one.
    _renamed_parameters = MappingProxyType({})

    #: The word of a resource in the progress lines (``rows=200``), where the resource of an
    #: evaluation varies (the search knows its largest, `_largest_resource`).
    _resource_unit = "resource"

    #: The word of a resource in ``why_not_evaluated``, where the lines show none
    #: (`_resource_unit` is ``"resource"``) but the resource has a unit; None: as the lines.
    _resource_noun = None

    #: Whether ``cv_results_`` has a row for every candidate, those not evaluated included
    #: (NaN scores, ranked last, ``why_not_evaluated``), as GridSearchCV's has; not so for
    #: a search whose candidates are drawn and bred as it goes.
    _lists_every_candidate = True

    #: Whether the search, run to its end, selects among the candidates
    #: evaluated at :meth:`_largest_resource` only: where every one of them
    #: failed there, the fit raises the summary of those failed fits.
    _selects_at_largest_resource = False

    #: Whether the search's policy keeps the time its refit takes within `max_time` itself
    #: (the search then keeps none aside for it, see :mod:`~sksel._core.deadline`).
    _plans_its_refit = False

    #: Whether the policy is told the scores of an error or a loss mapped onto a scale the
    #: learned curve models know (:class:`~sksel._core.scoring.CurveScale`), fold by fold.
    _maps_scores = False

    _parameter_constraints: dict = {
        **{k: v for k, v in BaseSearchCV._parameter_constraints.items() if k != "pre_dispatch"},
        "estimator": [HasMethods(["fit"]), list],
        "cv": ["cv_object", Interval(numbers.Real, 0, 1, closed="neither")],
        "random_state": ["random_state"],
        "max_time": [Interval(numbers.Real, 0, None, closed="neither"), None],
        "checkpoint": [str, os.PathLike, None],
        "keep_predictions": ["boolean", str, os.PathLike],
        "keep_fold_models": ["boolean"],
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
        checkpoint=None,
        keep_predictions=False,
        keep_fold_models=False,
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
        self.checkpoint = checkpoint
        self.keep_predictions = keep_predictions
        self.keep_fold_models = keep_fold_models

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
    def _make_policy(self, candidates, splits, y, n_classes, rng):
        """Return ``(policy, trainer)`` for this fit.

        The policy derives from :class:`sksel.extend.Policy` (``ask``,
        ``tell``, ``done``, ``history_``, ``decisions_`` and the optional
        members it declares); a policy whose decisions should not depend on
        the number of workers subclasses :class:`sksel.extend.SequentialPolicy`
        and gets speculative work for idle workers. The trainer derives from
        :class:`sksel.extend.Trainer` (see :mod:`sksel.training`): it says
        what an action's resource is and gives it. During the fit the search
        holds the candidates built (``_estimators``, one per `candidates`) and
        the columns of ``X`` (``_n_features``, None where it has no shape).

        Parameters
        ----------
        candidates : list of dict
            The parameters of the candidates.
        splits : list of (train, test)
            The cross-validation folds.
        y : ndarray or None
            The targets.
        n_classes : int or None
            Number of classes, for a classifier.
        rng : RandomState
            The fit's random generator.
        """

    def _search_space(self):
        """The space of this search (built, and so checked, before any fit)."""
        return SearchSpace(self.estimator, getattr(self, "param_grid", None))

    def _candidates(self, space):
        """The parameters of the candidates evaluated: every one of `space`."""
        return space.candidates

    def _breed(self, space, params, candidates):
        """The parameters of a new candidate bred from a candidate's `params`.

        Called for an action of a candidate not drawn yet, which names its
        parent (a mutant), with every candidate so far (`candidates`, by
        index); a search whose policy breeds implements it.
        """
        raise NotImplementedError(
            f"{type(self).__name__}'s policy handed out a new candidate bred from another; "
            "the search breeds none."
        )

    def _display_info(self):
        """What the displays read besides the results (see :class:`DisplayInfo`)."""
        return DisplayInfo("Training rows per fold (whole folds)",
                           int(np.max(self.all_cv_results_["n_resources"])))

    def _progress_budget(self, n_candidates):
        """``(planned, exact, words[, head])``: the evaluations the budget allows, for the
        header (:class:`~sksel._core.progress.ProgressBudget`).

        `planned` is None when unknown; `exact` is False when the search may
        stop before `planned` evaluations; `head`, what the header says of the
        candidates (None: their count).
        """
        return ProgressBudget(n_candidates, True,
                              f"{counted(n_candidates, 'evaluation')} planned")

    def _largest_resource(self):
        """The largest resource of an evaluation, known before the search runs, or None.

        It sets the width of the resource column of the ``verbose=2`` lines.
        """
        return None

    def _store_results(self, job, trainer, policy, run, names):
        """Set ``cv_results_``, ``all_cv_results_`` and ``multimetric_``.

        An evaluation whose first splits only were used by the policy (its
        ``folds_used_``, ``{action: number of splits}``, a race's) holds those.
        Rows name their candidates by `names`. Returns the last decided
        evaluation of every candidate, which ``cv_results_`` holds.
        """
        folds_used = policy.folds_used_
        decided, speculative = _split_by_decisions(
            run.evaluations, used_actions(run, policy, cut=self.stop_reason_ != "done"))
        decided = [(action, outputs[:folds_used.get(action, len(outputs))])
                   for action, outputs in decided]
        self._selected_first_model = (not decided and self._first_model is not None
                                      and self.stop_reason_ == "max_time")
        if self._selected_first_model:
            return self._store_first_model(job, policy, names)
        if not decided:
            if self.stop_reason_ == "interrupted":
                raise KeyboardInterrupt
            remedy = (f"; give the search a larger max_time (now {self.max_time:g} s)"
                      if self.stop_reason_ == "max_time" else "")
            raise RuntimeError(
                f"{type(self).__name__} finished no evaluation (stopped: "
                f"{self.stop_reason_}){self._measured_words(names)}{remedy}."
            )
        outputs = [out for _, outs in decided + speculative for out in outs]
        _insert_error_scores(outputs, self.error_score)
        _warn_or_raise_about_fit_failures(
            [out for _, outs in decided for out in outs], self.error_score
        )
        self.multimetric_ = isinstance(outputs[0]["test_scores"], dict)
        last = _last_per_candidate(decided)
        table = self._table_maker(job, trainer, policy, names)
        self.cv_results_ = table(last, not_evaluated=self._not_evaluated(job, last, policy))
        with warnings.catch_warnings():
            # Warned once, about cv_results_, just above.
            warnings.filterwarnings("ignore", message="One or more of the test scores")
            warnings.filterwarnings("ignore", message="One or more of the train scores")
            self.all_cv_results_ = table(
                decided + speculative,
                speculative=[False] * len(decided) + [True] * len(speculative),
            )
        return last

    def _why_less_training(self, results, row, full, cut):
        """Why the row `row` of ``cv_results_`` got less training than the search's full
        evaluation (`full`, the resource, on every fold), in words; ``""`` where it did not.

        `cut`: whether `max_time` or a Ctrl-C ended the search before its policy
        was done. A search may say it in its own words.
        """
        n, folds = results["n_resources"][row], results["n_folds_run"][row]
        if row in self._failed_refits:
            return "not ranked: its refit on all the rows failed"
        if n < full:
            words = self._resource_words(n, full)
            if cut:
                return f"stopped at {words}: {self._cut_cause()} then ended the search"
            return (f"dropped at {words}: the search stopped training it there, as unlikely to "
                    "beat the leader")
        if folds < self.n_splits_:
            return (f"raced out after {folds} of {self.n_splits_} folds at "
                    f"{self._resource_words(n)}: its first folds trailed the leader's, so its "
                    "other folds were not run")
        return ""

    # -------------------------------------------------------------------- fit
    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y=None, **params):
        """Run the search, then refit the best candidate on all of `X`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training vectors.
        y : array-like of shape (n_samples,) or (n_samples, n_outputs), default=None
            Targets for classification or regression; None for unsupervised
            candidates.
        **params : dict of str -> object
            Parameters passed to the ``fit`` method of every candidate;
            ``groups`` goes to the cross-validation splitter. With metadata
            routing enabled (``sklearn.set_config(enable_metadata_routing=True)``)
            they go where the candidates, the scorer and the splitter request
            them, as in :class:`~sklearn.model_selection.GridSearchCV`.

        Returns
        -------
        self : object
            Instance of fitted search.
        """
        with noting_interrupts() as interrupts:
            self._fit(X, y, params, interrupts)
        return self

    def _fit(self, X, y, params, interrupts):
        """The body of :meth:`fit`; `interrupts` counts the Ctrl-C that came meanwhile.

        A Ctrl-C whose ``KeyboardInterrupt`` something caught (a model's fit,
        a finalizer the garbage collector ran) still ends the fit: before the
        search starts, with ``KeyboardInterrupt``; in the search, as the
        engine handles it; after it (the results, the refit), with
        ``KeyboardInterrupt`` and no ``best_estimator_``. `max_time` counts from
        here (``_fit_started``).
        """
        self._fit_started = time.perf_counter()
        space = self._search_space()
        candidates = self._candidates(space)
        estimators = [space.build(params) for params in candidates]
        check_cuda_available(estimators)
        needs = response_needs(self.scoring)
        try:
            scorers, refit_metric = self._get_scorers()
        except TypeError:  # scoring=None and a first candidate without score: said as for any
            _check_responses(space, needs, candidates, estimators)
            raise
        _check_responses(space, needs, candidates, estimators)
        X, y = indexable(X, y)
        check_targets(y)
        base = space.first_estimator
        check_missing_values(X, estimators, candidate_names(candidates, self.estimator),
                             is_classifier(base))
        params = _check_method_params(X, params=params)
        routed = self._get_routed_params_for_fit(params)
        rng = check_random_state(self.random_state)
        cv = self._checked_cv(y, base, rng)
        splits = list(cv.split(X, y, **routed.splitter.split))
        self.n_splits_ = len(splits)
        n_classes = count_classes(y) if is_classifier(base) and y is not None else None
        self._scale_, self._targets = self._curve_scale(n_classes), y
        shape = getattr(X, "shape", ())
        # What _make_policy may read of the candidates and the data (a prior, a plan).
        self._n_features, self._estimators = (shape[1] if len(shape) == 2 else None), estimators
        policy, trainer = self._make_policy(candidates, splits, y, n_classes, rng)
        check_policy(policy, type(self).__name__)
        fit_params = self._fit_params_by_candidate(candidates, routed)
        job = _Job(space, candidates, estimators, X, y, scorers, fit_params, routed.scorer.score,
                   error_score=self.error_score, verbose=self.verbose,
                   returns_train_score=self._train_score_reader(policy))
        keeper = self._prediction_keeper(X, y, base, trainer)
        try:
            if interrupts.count:
                raise KeyboardInterrupt
            checkpoint = self._open_checkpoint(X, y, params, candidates)
            self._first_model = self._fit_first_model(
                job, splits, base, resumed=checkpoint is not None and checkpoint.n_recorded)
            run, progress = self._run(job, policy, trainer, refit_metric, checkpoint, keeper)
            seen = interrupts.count
            last = self._store_results(job, trainer, policy, run, progress.names)
            self.cv_predictions_ = None if keeper is None else keeper.store.rekeyed(
                row_of_action(self.cv_results_))
            self._set_best(run.refit_metric, last)
            cut = self.stop_reason_ in ("max_time", "interrupted") and not policy.done
            # The trainer of the rows of cv_results_: the first model's has one of its own.
            rows_trainer = FirstModelTrainer() if self._selected_first_model else trainer
            if self._selected_first_model:
                self._warn_first_model_selected(progress.names)
            elif cut:
                self._select_cut_short(trainer, run.refit_metric, len(job.candidates))
            self._failed_refits = []
            try:
                if self.refit:
                    with threads_within_cpus():
                        self._refit_best(job, rows_trainer, fit_params, run.refit_metric,
                                         run.early_refits)
            finally:
                self._rank_in_one_order(rows_trainer, run.refit_metric, cut)
            if interrupts.count > seen:
                self.__dict__.pop("best_estimator_", None)  # its fit may have been cut short
                raise KeyboardInterrupt
        finally:
            trainer.close()
            # the header's and the plan's; not kept with the fitted search
            self._targets = self._estimators = None
        if self._selected_first_model:
            progress.close(f"{self.stop_reason_}; the first model is selected: "
                           f"{progress.names(self._first_model.candidate)} on "
                           f"{self._first_model.rows:,} rows of one fold")
        else:
            progress.close(_stop_words(self.stop_reason_, policy), self._progress_best())
        self.scorer_ = scorers._scorers if isinstance(scorers, _MultimetricScorer) else scorers

    def _checked_cv(self, y, estimator, rng):
        """The cross-validation splitter of `cv`; a float `cv` is one holdout of that share,
        stratified for a classifier of a 1-D `y`, its seed drawn from `rng`."""
        classifier = is_classifier(estimator)
        if isinstance(self.cv, numbers.Real) and not isinstance(self.cv, numbers.Integral):
            holdout = StratifiedShuffleSplit if classifier and is_1d(y) else ShuffleSplit
            seed = rng.randint(np.iinfo(np.int32).max)
            return holdout(n_splits=1, test_size=self.cv, random_state=seed)
        return check_cv(self.cv, y, classifier=classifier)

    def _fit_params_by_candidate(self, candidates, routed):
        """``candidate -> fit parameters``, as metadata routing gives them."""
        if not _routing_enabled() or not isinstance(self.estimator, list):
            return lambda candidate: routed.estimator.fit
        names = {id(est): name for name, est in routed_estimators(self.estimator)}
        return lambda candidate: routed[names[id(candidates[candidate][_STEP])]].fit

    def get_metadata_routing(self):
        """Get metadata routing of this object.

        As :class:`~sklearn.model_selection.GridSearchCV`'s, with one entry per
        estimator of a list of candidates: ``estimator_0``, ``estimator_1``, ...
        (``estimator`` for a single estimator).

        Returns
        -------
        routing : MetadataRouter
            A :class:`~sklearn.utils.metadata_routing.MetadataRouter`
            encapsulating routing information.
        """
        router = MetadataRouter(owner=self)
        for name, estimator in routed_estimators(self.estimator):
            router.add(**{name: estimator},
                       method_mapping=MethodMapping().add(caller="fit", callee="fit"))
        scorer, _ = self._get_scorers()
        router.add(
            scorer=scorer,
            method_mapping=MethodMapping().add(caller="score", callee="score")
            .add(caller="fit", callee="score"),
        )
        router.add(splitter=self.cv,
                   method_mapping=MethodMapping().add(caller="fit", callee="split"))
        return router


@dataclass(frozen=True)
class DisplayInfo:
    """What the displays of :mod:`sksel.display` read of a fitted search, besides its results.

    A search gives it with ``_display_info()``; with it and the results every
    search has (``cv_results_``, ``all_cv_results_`` with ``speculative``,
    ``best_index_``, ``n_splits_``, ``multimetric_``, ``refit``, ``scoring``),
    a new search gets every generic display.

    Parameters
    ----------
    resource_name : str
        Axis label of ``n_resources``.
    full_resource : int
        The resource GridSearchCV trains every candidate on.
    resources_add_up : bool
        Whether a row at ``n`` continues the candidate's row before it, so
        that it trains ``n - previous`` (sub-trains), rather than ``n`` anew.
    bounds : callable or None
        ``candidate -> projected score at full_resource`` (DAUB's upper
        bounds), drawn dashed by :class:`~sksel.SearchCurvesDisplay`.
    baseline : str
        What a user would have run instead, training every candidate on
        `full_resource`, as :class:`~sksel.AllocationDisplay` names it;
        ``{n}`` stands for the number of candidates.
    """

    resource_name: str
    full_resource: int
    resources_add_up: bool = False
    bounds: object = None
    baseline: str = "GridSearchCV"

