"""A search's run: its policy on the engine, and the listeners that observe it.

The run (:class:`~sksel._core.run._Run`) makes the tasks of the policy's
actions and tells the policy their outcome; the engine
(:class:`~sksel._core.engine.Engine`) runs them. The listeners observe every
evaluation: the checkpoint, which a later fit resumes from
(:mod:`~sksel._core.checkpoint`), the prediction keeper
(:mod:`~sksel._core.predictions`), the trainer and the progress report
(:mod:`~sksel._core.progress`). Under ``max_time`` a first model is fitted
before the run (:mod:`~sksel._core.deadline`).
"""

import numpy as np
from sklearn.base import is_classifier

from .._compat import _num_samples
from .checkpoint import Checkpoint, fingerprint
from .deadline import NoFirstModel, RefitReserve, first_model
from .engine import Engine
from .naming import candidate_names
from .predictions import PredictionKeeper, store_for
from .progress import Progress, ProgressBudget
from .run import _Run
from .workers import threads_within_cpus


class RunMixin:
    """The run of :class:`~sksel._core.search.BaseSelectionSearch`: sets ``stop_reason_``."""

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
