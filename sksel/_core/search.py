"""The scikit-learn face shared by every sksel search.

:class:`BaseSelectionSearch` validates the input, builds the search space and
the candidates drawn from it, the cross-validation folds and the scorers,
runs a subclass's policy on the :class:`~sksel._core.engine.Engine`, and turns
what happened into ``cv_results_``, ``all_cv_results_``, ``best_*`` and a
refitted ``best_estimator_``. Prediction methods are delegated to
``best_estimator_`` exactly as in
:class:`~sklearn.model_selection.GridSearchCV`, whose base class it extends.
"""

import numbers
import os
import time
import warnings
from abc import abstractmethod
from copy import deepcopy
from dataclasses import dataclass
from functools import partial
from types import MappingProxyType

import numpy as np
from joblib import effective_n_jobs
from sklearn.base import is_classifier
from sklearn.exceptions import FitFailedWarning
from sklearn.metrics import (
    check_scoring,
)
from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit, check_cv
from sklearn.utils import check_random_state, get_tags, indexable
from sklearn.utils.metadata_routing import MetadataRouter, MethodMapping

from .._compat import (
    BaseSearchCV,
    HasMethods,
    Interval,
    _check_method_params,
    _check_multimetric_scoring,
    _fit_context,
    _insert_error_scores,
    _MultimetricScorer,
    _num_samples,
    _routing_enabled,
    _warn_or_raise_about_fit_failures,
)
from ..spaces.space import _STEP, SearchSpace, first_estimator
from ..spaces.validation import _check_responses
from .checkpoint import Checkpoint, fingerprint
from .deadline import FirstModelTrainer, NoFirstModel, RefitReserve, first_model, refit_in_time
from .devices import check_cuda_available
from .engine import Engine
from .interrupts import noting_interrupts
from .missing import check_missing_values
from .naming import candidate_names, counted
from .predictions import PredictionKeeper, store_for
from .progress import Progress, ProgressBudget
from .results import (
    _check_scored_at_largest_resource,
    _check_some_candidate_scored,
    _last_per_candidate,
    _leaders_at_shared_resource,
    _ranked_alike,
    _ranked_first,
    _ranked_last,
    _scored_over_folds_run,
    _split_by_decisions,
    results_table,
)
from .run import _Job, _Run, _stop_words
from .scoring import curve_scale, ranking_metric, response_needs, unit_scored_classifier
from .validation import check_policy, check_targets, count_classes, is_1d, routed_estimators
from .workers import threads_within_cpus


class BaseSelectionSearch(BaseSearchCV):
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
        what an action's resource is and gives it.

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
                _row_of_action(self.cv_results_))
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
            self._targets = None  # the header's; not kept with the fitted search
        if self._selected_first_model:
            progress.close(f"{self.stop_reason_}; the first model is selected: "
                           f"{progress.names(self._first_model.candidate)} on "
                           f"{self._first_model.rows:,} rows of one fold")
        else:
            progress.close(_stop_words(self.stop_reason_, policy), self._progress_best())
        self.scorer_ = scorers._scorers if isinstance(scorers, _MultimetricScorer) else scorers

    def _run(self, job, policy, trainer, refit_metric, checkpoint, keeper):
        """Run `policy` on the engine with its listeners; set ``stop_reason_``.

        The listeners observe every evaluation, in this order: the checkpoint
        (records it), the prediction keeper (takes the predictions out of
        the outputs, with `keep_predictions`), the trainer (keeps what later
        evaluations take up), the progress report and the results
        (``run.evaluations``). Returns the run and its progress report.
        """
        names = self._candidate_names(job)
        progress = self._progress(names, len(job.candidates), policy)
        listeners = [listener for listener in (checkpoint, keeper, trainer)
                     if listener is not None]
        run = _Run(job, policy, trainer, listeners + [progress], refit_metric, checkpoint, keeper,
                   metric_of=self._callable_metric if callable(self.scoring) else None,
                   breed=self._breed,
                   early_refits=self.refit is True or isinstance(self.refit, str),
                   scale=self._scale_)
        reserve = (None if self.max_time is None or self._plans_its_refit
                   else RefitReserve(run, self.max_time))
        engine = Engine(run.tasks, run.on_done, run.failed_output, n_jobs=self.n_jobs,
                        max_time=self.max_time, reserve=reserve, started=self._fit_started,
                        name=type(self).__name__,
                        enough=run.enough if policy.races_folds else None,
                        state_key=trainer.state_key, early_refits=run.early_refits)
        run.start()
        try:
            engine.run(policy)
        finally:
            run.end()
        self.stop_reason_ = engine.stop_reason_
        self._cut_short = engine.cut_short_
        return run, progress

    def _train_score_reader(self, policy):
        """``resource -> bool``: whether an evaluation at `resource` scores its training rows."""
        if self.return_train_score:
            return lambda resource: True
        return policy.needs_train_score

    def _store_results(self, job, trainer, policy, run, names):
        """Set ``cv_results_``, ``all_cv_results_`` and ``multimetric_``.

        An evaluation whose first splits only were used by the policy (its
        ``folds_used_``, ``{action: number of splits}``, a race's) holds those.
        Rows name their candidates by `names`. Returns the last decided
        evaluation of every candidate, which ``cv_results_`` holds.
        """
        folds_used = policy.folds_used_
        decided, speculative = _split_by_decisions(
            run.evaluations, _used(run, policy, cut=self.stop_reason_ != "done"))
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

    def _fit_first_model(self, job, splits, base, resumed):
        """The first model of a fit under `max_time` (:mod:`~sksel._core.deadline`), or None
        without `max_time` or where the fit `resumed` a checkpoint's evaluations; raises
        where not even it ends in time."""
        if self.max_time is None or resumed:
            return None
        with threads_within_cpus():
            first = first_model(job, splits, is_classifier(base), self.max_time,
                                self._fit_started)
        if not isinstance(first, NoFirstModel):
            return first
        if not first.cuts:  # every fit failed: the search reports its failures
            return None
        names = self._candidate_names(job)
        cut = "; ".join(f"{names(c)} cut after {seconds:.2g} s" for c, seconds in
                        first.cuts.items())
        raise RuntimeError(
            f"{type(self).__name__}: no model can be trained within max_time="
            f"{self.max_time:g} s. The quickest evidence, one candidate of each estimator "
            f"class fitted on {first.rows:,} rows of the first fold, did not end in time: "
            f"{cut}. Give the search a larger max_time."
        )

    def _table_maker(self, job, trainer, policy, names):
        """``results_table`` of this fit, its rows' `trainer` given: ``(evaluations, **kw) ->
        results``."""
        return partial(results_table, job=job, trainer=trainer, policy=policy, names=names,
                       n_splits=self.n_splits_, return_train_score=self.return_train_score,
                       format_results=self._format_results)

    def _store_first_model(self, job, policy, names):
        """Set the results of a search that `max_time` ended before any evaluation: the
        first model's one row (a fold of its few rows), the candidates not evaluated (where
        the search lists them); returns its evaluation, as :meth:`_store_results` does."""
        first = self._first_model
        evaluation = [(first.action, [dict(first.output)])]
        self.multimetric_ = isinstance(first.output["test_scores"], dict)
        table = self._table_maker(job, FirstModelTrainer(), policy, names)
        not_evaluated = self._not_evaluated(job, evaluation, policy)
        results = self.cv_results_ = table(evaluation, not_evaluated=not_evaluated)
        why = results.setdefault("why_not_evaluated",
                                 np.full(len(results["params"]), "", dtype=object))
        why[int(np.flatnonzero(results["candidate_id"] == first.candidate)[0])] = (
            self._first_model_words())
        self.all_cv_results_ = table(evaluation, speculative=[False])
        return evaluation

    def _first_model_words(self):
        """What the first model's row is, in ``why_not_evaluated`` and the warning."""
        return (f"max_time={self.max_time:g} s ended the search before any evaluation: this "
                f"is the first model, trained on {self._first_model.rows:,} rows of the first "
                "fold and scored on its validation rows")

    def _warn_first_model_selected(self, names):
        """Warn that the selection is the first model (see :mod:`~sksel._core.deadline`)."""
        warnings.warn(
            f"{type(self).__name__}: {self._first_model_words()}; it is selected: "
            f"{names(self._first_model.candidate)}. Give the search a larger max_time to "
            "compare the candidates.", UserWarning)

    def _measured_words(self, names):
        """What the engine measured where `max_time` ended the run before its time: ``": one
        fold of ... took ..."``; nothing otherwise."""
        if self._cut_short is None:
            return ""
        (candidate, resource), seconds, finished, folds = self._cut_short
        workers = effective_n_jobs(self.n_jobs)
        whole = seconds * -(-folds // workers)
        return (f": a fold of the evaluation of {names(candidate)} at resource {resource} took "
                f"{seconds:.1f} s ({finished} of its {counted(folds, 'fold')} run), so the "
                f"evaluation takes about {whole:.0f} s on {counted(workers, 'worker')}, "
                f"and what was left of it could not end in time; the search stopped there")

    def _not_evaluated(self, job, last, policy):
        """``{candidate: why}`` of the candidates given that no evaluation used, where the
        search lists every candidate (`_lists_every_candidate`), else None; the policy's
        columns may say why in their own words."""
        if not self._lists_every_candidate:
            return None
        evaluated = {action[0] for action, _ in last}
        if self.stop_reason_ == "interrupted":
            why = "a Ctrl-C ended the search first"
        elif self.stop_reason_ == "max_time":
            why = f"max_time={self.max_time:g} s ended the search first"
        else:
            why = "the search ended without it"
        return {c: why for c in range(len(job.candidates)) if c not in evaluated}

    # ------------------------------------------------------------- internals
    def _prediction_keeper(self, X, y, estimator, trainer):
        """The :class:`~sksel._core.predictions.PredictionKeeper` of this fit, or None."""
        classes = np.unique(y) if is_classifier(estimator) and y is not None else None
        store = store_for(self.keep_predictions, _num_samples(X), classes,
                          self.keep_fold_models)
        if store is None and self.keep_fold_models:
            raise ValueError(
                "keep_fold_models=True keeps the fold models beside the predictions: it needs "
                "keep_predictions=True (or a folder)."
            )
        return None if store is None else PredictionKeeper(store, trainer.split)

    def _open_checkpoint(self, X, y, fit_params, candidates):
        """The :class:`~sksel._core.checkpoint.Checkpoint` of this fit, or None without one."""
        if self.checkpoint is None:
            return None
        return Checkpoint(self.checkpoint, fingerprint(self, X, y, fit_params, candidates),
                          renamed=self._renamed_parameters)

    def _candidate_names(self, job):
        """The :class:`~sksel._core.naming.CandidateNames` of this fit's candidates.

        The progress lines and the ``candidate_name`` column of the results
        use these, so that a line and a row name a candidate alike; a bred
        candidate names its parent (``job.parents``).
        """
        return candidate_names(job.candidates, self.estimator, job.parents)

    def _progress(self, names, n_candidates, policy):
        """The :class:`~sksel._core.progress.Progress` reporter of this fit, naming by `names`."""
        planned, exact, words, head = ProgressBudget(*self._progress_budget(n_candidates))
        return Progress(self.verbose, type(self).__name__, names, n_candidates=n_candidates,
                        n_splits=self.n_splits_, planned=planned, exact=exact, budget=words,
                        head=head,
                        unit=None if self._largest_resource() is None else self._resource_unit,
                        max_resource=self._largest_resource(), policy=policy)

    def _progress_best(self):
        """``(candidate, resource, score)`` selected, or None when no score selects it."""
        if callable(self.refit) or not (self.refit or not self.multimetric_):
            return None
        i = self.best_index_
        return (int(self.cv_results_["candidate_id"][i]),
                int(self.cv_results_["n_resources"][i]), float(self.best_score_))

    def _get_scorers(self):
        """Scorer(s) and the name of the metric that ranks candidates."""
        estimator = first_estimator(self.estimator)
        if callable(self.scoring):
            return self.scoring, "score"
        if self.scoring is None or isinstance(self.scoring, str):
            return check_scoring(estimator, self.scoring), "score"
        scorers = _check_multimetric_scoring(estimator, self.scoring)
        metric = self._metric_named_by_refit(scorers)
        return _MultimetricScorer(scorers=scorers, raise_exc=self.error_score == "raise"), metric

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

    def _fit_params_by_candidate(self, candidates, routed):
        """``candidate -> fit parameters``, as metadata routing gives them."""
        if not _routing_enabled() or not isinstance(self.estimator, list):
            return lambda candidate: routed.estimator.fit
        names = {id(est): name for name, est in routed_estimators(self.estimator)}
        return lambda candidate: routed[names[id(candidates[candidate][_STEP])]].fit

    def _callable_metric(self, outputs, metric):
        """The ranking metric once a callable `scoring` shows it returns a dict."""
        scores = next((out["test_scores"] for out in outputs if out["fit_error"] is None), None)
        if not isinstance(scores, dict) or metric in scores:
            return metric
        return self._metric_named_by_refit(scores)

    def _metric_named_by_refit(self, metrics):
        """The metric that drives the policy, among several: the one `refit` names.

        A callable `refit` names none: the first metric drives the policy, and
        the callable selects the best candidate from ``cv_results_``, as in
        :class:`~sklearn.model_selection.GridSearchCV`.
        """
        self._check_refit_for_multimetric(metrics)
        if callable(self.refit):
            return next(iter(metrics))
        if not isinstance(self.refit, str):
            raise ValueError(
                f"scoring gives several metrics {sorted(metrics)}: {type(self).__name__} "
                f"decides what to train next by one of them, so refit must name it "
                f"(or be a callable, with the first metric driving the search); "
                f"got refit={self.refit!r}."
            )
        return self.refit

    def _ranking_metric(self):
        """``(metric, sign)`` of the scorer that drives the policy (:func:`ranking_metric`)."""
        return ranking_metric(*self._get_scorers(), self.estimator)

    def _unit_scored_classifier(self, n_classes):
        """Whether the scores lie in [0, 1] (:func:`unit_scored_classifier`)."""
        return unit_scored_classifier(*self._get_scorers(), self.estimator, n_classes)

    def _curve_scale(self, n_classes):
        """The scale the learned curve models read the scores on (:func:`curve_scale`), or
        None; a scale that maps the scores only for a search that tells its policy the
        mapped ones (``_maps_scores``)."""
        scale = curve_scale(*self._get_scorers(), self.estimator, n_classes)
        return None if scale is None or (scale.mapped and not self._maps_scores) else scale

    def _curve_kind(self):
        """The kind of score the learned curve models know the fit's scores as (its
        :meth:`_curve_scale`, ``_scale_``), or None."""
        return None if self._scale_ is None else self._scale_.kind

    def _policy_tol(self, tol):
        """The `tol` the policy reads: `tol`, or for an error mapped a share of the leader's
        error (:meth:`~sksel._core.scoring.CurveScale.policy_tol`); None stays None."""
        if tol is None or self._scale_ is None:
            return tol
        return self._scale_.policy_tol(tol)

    def _tol_words(self, tol):
        """`tol` in words, in points of the policy's scale and, where the scores are mapped, in
        the scorer's units on the targets of this fit."""
        scale = self._scale_
        if scale is None:
            return f"tol={tol:g}"
        return scale.tol_words(tol, self._targets)

    def _checked_cv(self, y, estimator, rng):
        classifier = is_classifier(estimator)
        if isinstance(self.cv, numbers.Real) and not isinstance(self.cv, numbers.Integral):
            holdout = StratifiedShuffleSplit if classifier and is_1d(y) else ShuffleSplit
            seed = rng.randint(np.iinfo(np.int32).max)
            return holdout(n_splits=1, test_size=self.cv, random_state=seed)
        return check_cv(self.cv, y, classifier=classifier)


    def _set_best(self, refit_metric, last):
        results = self.cv_results_
        if self.refit or not self.multimetric_:
            if not callable(self.refit):
                _check_some_candidate_scored(results[f"mean_test_{refit_metric}"], last)
                if self._selects_at_largest_resource and self.stop_reason_ == "done":
                    _check_scored_at_largest_resource(
                        results[f"mean_test_{refit_metric}"], results["n_resources"], last,
                        self._largest_resource(), type(self).__name__)
            self._select(int(self._select_best_index(self.refit, refit_metric, results)),
                         refit_metric)

    def _rank_in_one_order(self, trainer, refit_metric, cut):
        """Compare in ``cv_results_`` the rows evaluated as the selected one was; say why the
        others got less training.

        The rows at the selected row's ranking resource whose evaluation ran
        on as many folds keep their ``mean_test_*`` and rank 1, 2, ... by it;
        every other row (a race's, a subsample's, a model trained less, one
        whose refit failed, one failed or not evaluated) has NaN there and
        ranks after them (:func:`_ranked_alike`); its own means stay in the
        ``_at_resource`` columns. Sorting by ``mean_test_<metric>`` or by
        ``rank_test_<metric>`` then gives one order, the selected row first.
        The selected row is ``best_index_``; with a callable `refit` (or none
        selected), the row ranked 1. A row evaluated with less training than
        the search's full evaluation says why in ``why_not_evaluated``
        (:meth:`_why_less_training`); `cut`: whether `max_time` or a Ctrl-C
        ended the search before its policy was done.
        """
        results = self.cv_results_
        folds = np.asarray(results["n_folds_run"])
        resources = np.asarray(trainer.ranking_resource(results))
        if hasattr(self, "best_index_") and not callable(self.refit):
            top = self.best_index_
        else:
            top = int(np.argmin(results[f"rank_test_{refit_metric}"]))
        alike = (folds > 0) & (resources == resources[top]) & (folds == folds[top])
        alike[self._failed_refits] = False
        _ranked_alike(results, alike)
        why = np.array(results.get("why_not_evaluated", [""] * len(folds)), dtype=object)
        full = self._display_info().full_resource
        for i in np.flatnonzero(folds > 0):
            if not why[i]:
                why[i] = self._why_less_training(results, i, full, cut)
        results["why_not_evaluated"] = why

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

    def _resource_words(self, n, full=None):
        """`n` of the resource, of `full` where given, in words: ``"6,000 rows"``,
        ``"600 of 6,000 rows"``, ``"resource 6000"`` (in `_resource_noun`)."""
        unit = self._resource_noun or self._resource_unit
        if unit == "resource":
            return f"resource {n}" if full is None else f"resource {n} of {full}"
        of = "" if full is None else f" of {full:,}"
        return f"{n:,}{of} {unit}"

    def _cut_cause(self):
        """What ended the search before its policy was done, in words."""
        if self.stop_reason_ == "interrupted":
            return "a Ctrl-C"
        return f"max_time={self.max_time:g} s"

    def _select_cut_short(self, trainer, refit_metric, n_candidates):
        """Select by the scores at the most training that two candidates got, and warn.

        Where `max_time` or a Ctrl-C ended the search before its policy was
        done, the candidate trained most is not settled as the best: the candidates are
        compared at the largest resource that two or more of them were
        evaluated at (``rank_test_<metric>`` then ranks them first, in the
        order of their scores there; a candidate whose last evaluation failed
        is left out), and the best there is selected. A ``UserWarning`` names
        them, how far each went and what the cut left undecided.
        """
        if callable(self.refit) or not (self.refit or not self.multimetric_):
            return
        results = self.cv_results_
        used = ~np.asarray(self.all_cv_results_["speculative"])
        every = {key: np.asarray(values)[used] for key, values in self.all_cv_results_.items()}
        resource, leaders = _leaders_at_shared_resource(
            every["candidate_id"], trainer.ranking_resource(every),
            every[f"mean_test_{refit_metric}"])
        row = {c: i for i, c in enumerate(results["candidate_id"])}
        leaders = [(c, at) for c, at in leaders
                   if np.isfinite(results[f"mean_test_{refit_metric}"][row[c]])]
        if not leaders:
            return
        key = f"rank_test_{refit_metric}"
        results[key] = _ranked_first(results[key], [row[c] for c, _ in leaders])
        self._select(row[leaders[0][0]], refit_metric)
        words = _cut_short_words(resource, leaders, every, results,
                                 trainer.ranking_resource(results), refit_metric, n_candidates)
        if self.stop_reason_ == "interrupted":
            cause, remedy = "a Ctrl-C", "Let the search run on to settle the choice."
        else:
            cause = f"max_time={self.max_time:g} s"
            remedy = (f"Give the search a larger max_time (now {self.max_time:g} s) to settle "
                      "the choice.")
        warnings.warn(f"{type(self).__name__}: {cause} ended the search before its choice was "
                      f"settled. {words} {remedy}", UserWarning)

    def _select(self, index, refit_metric):
        """Set ``best_index_``, ``best_params_`` and ``best_score_`` to the row `index`."""
        self.best_index_ = index
        if not callable(self.refit):
            self.best_score_ = self.cv_results_[f"mean_test_{refit_metric}"][index]
        self.best_params_ = self.cv_results_["params"][index]

    def _refit_best(self, job, trainer, fit_params, refit_metric, early_refits):
        """Refit the selected candidate on all rows; where that fails, the next in rank.

        A refit that raises is warned about (``FitFailedWarning``) and the
        next candidate with a finite score, in the order of
        ``rank_test_<metric>``, is refitted instead; ``best_index_``,
        ``best_params_`` and ``best_score_`` then name the candidate refitted,
        and the candidates whose refit failed are ranked last, beside those
        whose evaluation failed, so that ``best_index_`` remains the row
        ranked 1 (with a callable `refit`, the ranks are left as they are). With
        ``error_score="raise"`` the refit's error is raised, as
        :class:`~sklearn.model_selection.GridSearchCV` does; where every
        candidate's refit fails, a ``RuntimeError`` says so. A refit that a
        worker made during the search (`early_refits`) is taken as it is.
        """
        results = self.cv_results_
        rank = results[f"rank_test_{refit_metric}"]
        scored = _scored_over_folds_run(results, f"test_{refit_metric}", self.n_splits_)
        selected = self.best_index_
        order = [selected] + [int(i) for i in np.argsort(rank, kind="stable")
                              if scored[i] and i != selected]
        failed = []
        for i in order:
            self._select(i, refit_metric)
            try:
                self._refit(job, trainer, i, fit_params(results["candidate_id"][i]),
                            early_refits)
            except Exception as error:
                if self.error_score == "raise":
                    raise
                self.__dict__.pop("best_estimator_", None)
                failed.append(i)
                last_error = error
                warnings.warn(
                    f"{type(self).__name__}: refitting {results['candidate_name'][i]} on all "
                    f"the rows failed ({error!r}); refitting the next candidate in rank "
                    "instead.",
                    FitFailedWarning,
                )
                continue
            if failed and not callable(self.refit):
                results[f"rank_test_{refit_metric}"] = _ranked_last(rank, failed, scored)
                self._failed_refits = failed
            return
        raise RuntimeError(
            f"{type(self).__name__} could not refit any candidate: the refit on all the rows "
            f"failed for {_each_of(len(failed))} with a finite score; the last "
            f"error: {last_error!r}. Pass refit=False to keep the search's results, or "
            "error_score='raise' to see the first error."
        ) from last_error

    def _refit(self, job, trainer, row, fit_params, early_refits):
        """Train the candidate of results row `row` on all the rows, as the trainer does; or
        take its refit from `early_refits` (``refit_time_`` is then its worker's seconds)."""
        results = self.cv_results_
        key = (int(results["candidate_id"][row]), int(results["n_resources"][row]))
        if early_refits is not None and key in early_refits.done:
            self.best_estimator_, self.refit_time_ = early_refits.done[key]
        elif self.max_time is not None:
            start = time.perf_counter()
            self.best_estimator_ = self._refit_in_time(job, trainer, key, fit_params)
            self.refit_time_ = time.perf_counter() - start
        else:
            start = time.perf_counter()
            self.best_estimator_ = trainer.refit(job, *key, fit_params)
            self.refit_time_ = time.perf_counter() - start
        if hasattr(self.best_estimator_, "feature_names_in_"):
            self.feature_names_in_ = self.best_estimator_.feature_names_in_


    def _refit_in_time(self, job, trainer, key, fit_params):
        """The refit of `key` within `max_time` (:func:`~sksel._core.deadline.refit_in_time`),
        from the seconds of a fold of its evaluation; a ``UserWarning`` where it is trained
        on fewer rows than all."""
        first = self._first_model
        if first is not None and key == first.action:
            trainer, seconds, rows = FirstModelTrainer(), first.output["fit_time"], first.rows
            model = first.model
        else:
            seconds, rows = self._fold_seconds(key), len(trainer.split(key[1])[0][0])
            model = None
        model, trained = refit_in_time(
            job, trainer, key, fit_params, seconds=seconds, rows=rows, model=model,
            max_time=self.max_time, started=self._fit_started,
            classifier=is_classifier(job.estimators[key[0]]))
        n_rows = _num_samples(job.X)
        if trained < n_rows:
            warnings.warn(
                f"{type(self).__name__}: max_time={self.max_time:g} s left no time to refit "
                f"{self.cv_results_['candidate_name'][self.best_index_]} on all {n_rows:,} "
                f"rows (a fold of its evaluation trained {seconds:.2g} s on {rows:,} rows): "
                f"best_estimator_ is trained on {trained:,} of them. Give the search a larger "
                "max_time for a refit on all the rows.", UserWarning)
        return model

    def _fold_seconds(self, key):
        """The seconds one fold of the evaluation `key` took to train, what its candidate
        inherited aside (its sub-trains so far, where resources add up)."""
        every = self.all_cv_results_
        candidate, resource = key
        rows = (np.asarray(every["candidate_id"]) == candidate) & ~np.asarray(
            every["speculative"])
        resources = np.asarray(every["n_resources"])
        seconds = np.asarray(every["mean_fit_time"])
        if self._display_info().resources_add_up:
            return float(np.nansum(seconds[rows & (resources <= resource)]))
        return float(np.nanmean(seconds[rows & (resources == resource)]))


def _cut_short_words(resource, leaders, every, results, resources, metric, n_candidates):
    """What a search cut short compared, how far each leader went, what is left.

    `leaders` are ``(candidate, row of every)`` at `resource`, best first; a
    score is given with its standard error over the folds it is a mean of.
    """
    row = {c: i for i, (c, folds) in enumerate(zip(results["candidate_id"],
                                                   results["n_folds_run"])) if folds}

    def score(values, i):
        mean, folds = values[f"mean_test_{metric}"][i], values["n_folds_run"][i]
        if folds < 2:
            return f"{mean:.4f} (one fold)"
        return f"{mean:.4f} ± {values[f'std_test_{metric}'][i] / np.sqrt(folds - 1):.4f}"

    def went_on(c):
        i = row[c]
        if resources[i] == resource:
            return ""
        return f", went on to {resources[i]}: {score(results, i)}"

    shown = "; ".join(f"{results['candidate_name'][row[c]]} {score(every, i)}{went_on(c)}"
                      for c, i in leaders[:3])
    more = f"; and {len(leaders) - 3} more" if len(leaders) > 3 else ""
    less, never = len(row) - len(leaders), n_candidates - len(row)
    return (
        f"The candidates are compared at resource {resource}, the most training that "
        f"{len(leaders)} of them got, and the best there is selected: {shown}{more}. Left "
        f"undecided: {counted(less, 'candidate')} {_was(less)} compared at less training "
        f"only, {never} {_was(never)} never evaluated."
    )


def _was(n):
    """The verb of a count `n`: ``"was"`` for one, ``"were"`` for any other."""
    return "was" if n == 1 else "were"


def _each_of(n):
    """``"the one candidate"``, or ``"each of the 3 candidates"``."""
    return "the one candidate" if n == 1 else f"each of the {n} candidates"


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


def _row_of_action(results):
    """``{(candidate, resource): row}`` of the rows of `results` evaluated on every fold."""
    complete = np.asarray(results["n_folds_run"]) == max(results["n_folds_run"])
    return {(int(c), n): i for i, (c, n, full) in enumerate(
        zip(results["candidate_id"], results["n_resources"], complete)) if full}


def _used(run, policy, cut=False):
    """The actions whose evaluations the results hold as used: the policy's decisions, then
    those told that it uses whatever comes (``will_use``) but had not reached when the search
    ended (k-DPP's, after an evaluation still running at ``max_time``), in the order told.

    Where `max_time` or a Ctrl-C `cut` the search, every evaluation told: one that a
    worker ran speculatively, ahead of the policy's decisions, is an evaluation made in
    the time given, and may be the only one.
    """
    decisions = policy.decisions_
    decided = set(decisions)
    return decisions + [action for action, _ in run.evaluations
                        if action not in decided and (cut or policy.will_use(action))]
