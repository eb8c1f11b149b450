"""The selection of a fitted search: its best row, what a search cut short selects, and the
ranks of ``cv_results_`` in one order.

The best row is the one `refit` selects (:meth:`SelectionMixin._set_best`).
Where ``max_time`` or a Ctrl-C ended the search before its policy was done,
the candidates are compared at the most training that two of them got
(:meth:`SelectionMixin._select_cut_short`). Where ``max_time`` ended it before
any evaluation, the first model is the selection
(:mod:`~sksel._core.deadline`). The rows evaluated as the selected one was
then rank first, in the order of their scores, and every other row says why
it got less training (:meth:`SelectionMixin._rank_in_one_order`).
"""

import warnings
from functools import partial

import numpy as np
from joblib import effective_n_jobs

from .deadline import FirstModelTrainer
from .naming import counted
from .results import (
    _check_scored_at_largest_resource,
    _check_some_candidate_scored,
    _leaders_at_shared_resource,
    _ranked_alike,
    _ranked_first,
    results_table,
)


class SelectionMixin:
    """The results and the selection of :class:`~sksel._core.search.BaseSelectionSearch`.

    Sets ``cv_results_`` and ``all_cv_results_`` of a search that `max_time`
    ended before any evaluation, ``best_index_``, ``best_params_`` and
    ``best_score_``, and the ranks of ``cv_results_``.
    """

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

    def _progress_best(self):
        """``(candidate, resource, score)`` selected, or None when no score selects it."""
        if callable(self.refit) or not (self.refit or not self.multimetric_):
            return None
        i = self.best_index_
        return (int(self.cv_results_["candidate_id"][i]),
                int(self.cv_results_["n_resources"][i]), float(self.best_score_))

    def _set_best(self, refit_metric, last):
        """Select the row that `refit` selects, once some candidate in `last` (the last
        evaluation of each) has a score; with `refit` False and several metrics, none."""
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

    def _select(self, index, refit_metric):
        """Set ``best_index_``, ``best_params_`` and ``best_score_`` to the row `index`."""
        self.best_index_ = index
        if not callable(self.refit):
            self.best_score_ = self.cv_results_[f"mean_test_{refit_metric}"][index]
        self.best_params_ = self.cv_results_["params"][index]

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

    def _cut_cause(self):
        """What ended the search before its policy was done, in words."""
        if self.stop_reason_ == "interrupted":
            return "a Ctrl-C"
        return f"max_time={self.max_time:g} s"

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

    def _resource_words(self, n, full=None):
        """`n` of the resource, of `full` where given, in words: ``"6,000 rows"``,
        ``"600 of 6,000 rows"``, ``"resource 6000"`` (in `_resource_noun`)."""
        unit = self._resource_noun or self._resource_unit
        if unit == "resource":
            return f"resource {n}" if full is None else f"resource {n} of {full}"
        of = "" if full is None else f" of {full:,}"
        return f"{n:,}{of} {unit}"


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


def row_of_action(results):
    """``{(candidate, resource): row}`` of the rows of `results` evaluated on every fold."""
    complete = np.asarray(results["n_folds_run"]) == max(results["n_folds_run"])
    return {(int(c), n): i for i, (c, n, full) in enumerate(
        zip(results["candidate_id"], results["n_resources"], complete)) if full}


def used_actions(run, policy, cut=False):
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
