"""How a search reads its scorers: the scorers of a fit, the metric that drives the policy,
and the scale its learned curve models read the scores on.

The scorers are scikit-learn's (``scoring`` as
:class:`~sklearn.model_selection.GridSearchCV` takes it); among several
metrics, the one `refit` names drives the policy. What the scorer measures
(a unit metric, its sign, an error mapped onto a skill) is
:mod:`~sksel._core.scoring`'s; :class:`ScoringMixin` gives a search and its
subclasses those answers for the fit's scorers.
"""

from sklearn.metrics import check_scoring

from .._compat import _check_multimetric_scoring, _MultimetricScorer
from ..spaces.space import first_estimator
from .scoring import curve_scale, ranking_metric, unit_scored_classifier


class ScoringMixin:
    """The scorers of :class:`~sksel._core.search.BaseSelectionSearch` and what they measure.

    Reads `scoring`, `refit`, `error_score` and `estimator`; once a fit chose
    its scale, ``_scale_`` (:class:`~sksel._core.scoring.CurveScale` or None)
    and the fit's targets, ``_targets``.
    """

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
