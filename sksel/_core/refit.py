"""The refit of a search's selection on all the rows.

The selected candidate is refitted as the trainer does (or its refit is
taken from a worker that made it early, :mod:`~sksel._core.early_refit`);
under ``max_time``, on as many rows as end in time
(:func:`~sksel._core.deadline.refit_in_time`). A refit that raises passes the
selection to the next candidate in rank (:meth:`RefitMixin._refit_best`).
"""

import time
import warnings

import numpy as np
from sklearn.base import is_classifier
from sklearn.exceptions import FitFailedWarning

from .._compat import _num_samples
from .deadline import FirstModelTrainer, refit_in_time
from .results import _ranked_last, _scored_over_folds_run


class RefitMixin:
    """The refit of :class:`~sksel._core.search.BaseSelectionSearch`: ``best_estimator_``,
    ``refit_time_``, and the candidates whose refit failed (``_failed_refits``)."""

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


def _each_of(n):
    """``"the one candidate"``, or ``"each of the 3 candidates"``."""
    return "the one candidate" if n == 1 else f"each of the {n} candidates"
