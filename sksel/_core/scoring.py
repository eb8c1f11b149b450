"""What a search's scorer measures: the metric behind it, whether its scores lie in [0, 1], the
scale the learned curve models read them on; and what it calls of a candidate.

Policies read it to set their scales (DAUB's largest score and noise,
Mutant-UCB's exploration unit): it is read from what the scorer is, not from
how `scoring` spells it. :func:`curve_scale` maps an error or a loss onto a
scale the curve models know, fold by fold (:class:`CurveScale`).
:func:`response_needs` says which methods the scorers call, for the check of
the candidates before any training.
"""

import math

import numpy as np
from sklearn.base import is_classifier, is_regressor
from sklearn.metrics import (
    accuracy_score,
    average_precision_score,
    balanced_accuracy_score,
    brier_score_loss,
    f1_score,
    fbeta_score,
    get_scorer,
    jaccard_score,
    log_loss,
    mean_absolute_error,
    mean_squared_error,
    precision_score,
    r2_score,
    recall_score,
    roc_auc_score,
    root_mean_squared_error,
    top_k_accuracy_score,
)

from .._compat import _MultimetricScorer, _PassthroughScorer
from ..spaces.space import first_estimator

# Metrics whose scores lie in [0, 1], higher is better.
_UNIT_METRICS = (accuracy_score, average_precision_score, balanced_accuracy_score, f1_score,
                 fbeta_score, jaccard_score, precision_score, recall_score, roc_auc_score,
                 top_k_accuracy_score)


def ranking_metric(scorer, metric, estimator):
    """``(metric function, sign)`` of the scorer that drives the policy; None if unknown.

    The string ``"accuracy"``, ``get_scorer("accuracy")``, a dict entry and
    ``make_scorer(accuracy_score)`` all give ``(accuracy_score, 1)``. The
    estimator's own ``score`` is accuracy for a classifier and R² for a
    regressor; any other callable is unknown.

    Parameters
    ----------
    scorer : scorer or _MultimetricScorer
        The search's scorer(s).
    metric : str
        The name of the metric that drives the policy, among several.
    estimator : estimator or list
        The search's estimator (a list: the first candidate stands for all).
    """
    scorer = _driving_scorer(scorer, metric)
    if isinstance(scorer, _PassthroughScorer):
        estimator = first_estimator(estimator)
        own = accuracy_score if is_classifier(estimator) else (
            r2_score if is_regressor(estimator) else None)
        return own, 1
    if getattr(scorer, "_kwargs", {}).get("adjusted"):
        return None, 1  # adjusted balanced accuracy: below 0 for worse than chance
    return getattr(scorer, "_score_func", None), getattr(scorer, "_sign", 1)


def unit_scored_classifier(scorer, metric, estimator, n_classes):
    """Whether the scores lie in [0, 1]: a classifier (`n_classes` set) scored by a unit metric."""
    function, sign = ranking_metric(scorer, metric, estimator)
    return n_classes is not None and sign > 0 and function in _UNIT_METRICS


class CurveScale:
    """How the learned curve models read a scorer's scores: as they are, or mapped fold by fold.

    An error ``e`` of a fold maps to a skill ``1 - e / e0`` on R²'s scale,
    where ``e0`` is the error on the same fold of the constant prediction
    the error is smallest for (its *baseline*): the validation targets' mean
    for a squared error (the skill is then the fold's R², exactly), the
    classes' frequencies for log loss and the Brier score. An absolute error
    is squared first, ``1 - (MAE / MAE0)²`` against the targets' median, so
    that it moves as an R² does (for Gaussian residuals MAE is proportional
    to their standard deviation). A skill is 1 for a perfect model, 0 for the
    baseline, and below 0 for worse; the curve models read it as an R² (kind
    ``"r2"``). The map is monotone within a fold, so the order of two
    candidates on a fold is the scorer's; the mean of the skills over folds
    may order them otherwise than the mean of the errors by a hair, and the
    search still ranks them by the scorer (``cv_results_``).

    Parameters
    ----------
    kind : {"accuracy", "r2"}
        The kind of score the curve models know (see
        :mod:`sksel.curves.gap_model`).
    name : str
        The scale in words (``"R²"``, ``"MAE skill"``).
    error : callable or None, default=None
        ``error(score) -> e``: the error the skill is linear in, of a
        (greater-is-better) score; None reads the scores as they are.
    baseline : callable or None, default=None
        ``baseline(y) -> e0``: the baseline's error on targets `y`.
    words : tuple of str, default=("", "", "")
        ``(formula, error, root)`` for :meth:`tol_words`: the skill's formula,
        the error's name, and where the scorer gives the error's root (RMSE,
        MAE), the root's name (else ``""``).
    """

    def __init__(self, kind, name, error=None, baseline=None, words=("", "", "")):
        self.kind = kind
        self.name = name
        self.error = error
        self.baseline = baseline
        self.words = words

    @property
    def mapped(self):
        """Whether scores are mapped (an error or a loss), not read as they are."""
        return self.error is not None

    def read(self, scores, targets):
        """The scores of the folds on this scale: `scores[i]` measured on targets `targets[i]`.

        A score that is not finite (a failed fit's ``error_score``) stays as it is.
        """
        if not self.mapped:
            return list(scores)
        return [score if not np.isfinite(score)
                else 1.0 - self.error(score) / max(self.baseline(y), _TINY)
                for score, y in zip(scores, targets)]

    def policy_tol(self, tol):
        """The `tol` a policy reads on this scale: `tol` itself for a score read as it is;
        for an error, a share `tol` of the leader's (:class:`ShareOfError`)."""
        if not self.mapped:
            return tol
        return ShareOfError(tol, 2.0 if self.words[2] else 1.0)

    def tol_words(self, tol, y):
        """`tol` in words: points of this scale, or for an error a share of the leader's, with
        the baseline's error on targets `y`."""
        if not self.mapped:
            return f"tol={tol:g} of {self.name}"
        formula, error, root = self.words
        baseline = self.baseline(np.asarray(y))
        shown, value = (root, math.sqrt(baseline)) if root else (error, baseline)
        factor = "2 x " if root else ""
        return (f"tol={tol:g}: {tol:.1%} of the leader's {shown}, read as {self.name} "
                f"({formula}; {factor}{tol:g} x (1 - {self.name}) at the leader's); the "
                f"baseline's {shown} on these targets is {value:.4g}")


class ShareOfError:
    """``score -> tol``: a share of the leader's error, in points of its skill.

    Where the leader's skill is ``s`` (``1 - e / e0``), a loss of a share
    `share` of its error is ``factor * share * (1 - s)`` points of skill:
    `factor` is 2 where the scorer gives the root of the error the skill is
    linear in (RMSE of MSE, MAE of MAE²: ``(1 + q)² ~ 1 + 2 q``), else 1.
    Before any leader (``score=None``) the value at a skill of 0.5.

    Parameters
    ----------
    share : float
        The share of the leader's error that counts as a loss (the search's ``tol``).
    factor : float
        2 for a root error, 1 otherwise.

    Examples
    --------
    >>> from sksel._core.scoring import ShareOfError
    >>> tol = ShareOfError(0.01, 2.0)  # 1% of an RMSE
    >>> round(tol(0.9), 6), round(tol(0.99), 6)
    (0.002, 0.0002)
    """

    def __init__(self, share, factor):
        self.share = share
        self.factor = factor

    def __str__(self):
        return f"{self.share:g} ({self.share:.1%} of the leader's error)"

    def __call__(self, score):
        headroom = 0.5 if score is None or not np.isfinite(score) else max(1.0 - score, 0.0)
        return self.factor * self.share * headroom


_TINY = 1e-12


def _squared_baseline(y):
    """The mean squared error of the targets' mean (averaged over outputs)."""
    return float(np.mean(np.var(np.asarray(y, dtype=float), axis=0)))


def _absolute_baseline(y):
    """The squared mean absolute error of the targets' median (averaged over outputs)."""
    y = np.asarray(y, dtype=float)
    return float(np.mean(np.abs(y - np.median(y, axis=0)))) ** 2


def _frequencies(y):
    _, counts = np.unique(np.asarray(y), return_counts=True)
    return counts / counts.sum()


def _log_loss_baseline(y):
    """The log loss of the classes' frequencies (their entropy)."""
    p = _frequencies(y)
    return float(-np.sum(p * np.log(p)))


def _brier_baseline(y):
    """The Brier score of the classes' frequencies (halved for two classes, as sklearn's)."""
    p = _frequencies(y)
    return float((1.0 - np.sum(p ** 2)) * (0.5 if len(p) <= 2 else 1.0))


def _negated(score):
    return -score


def _squared(score):
    return score ** 2


_MSE = "1 - MSE / the MSE of their mean"
_FREQUENCIES = "the classes' frequencies"
#: ``{metric: (name, error of a greater-is-better score, baseline, words)}``, the maps.
_MAPS = {
    mean_squared_error: ("R²", _negated, _squared_baseline, (_MSE, "MSE", "")),
    root_mean_squared_error: ("R²", _squared, _squared_baseline, (_MSE, "MSE", "RMSE")),
    mean_absolute_error: ("MAE skill", _squared, _absolute_baseline,
                          ("1 - (MAE / the MAE of their median)²", "MAE²", "MAE")),
    log_loss: ("log-loss skill", _negated, _log_loss_baseline,
               (f"1 - log loss / the log loss of {_FREQUENCIES}", "log loss", "")),
    brier_score_loss: ("Brier skill", _negated, _brier_baseline,
                       (f"1 - Brier score / the Brier score of {_FREQUENCIES}", "Brier score",
                        "")),
}
_REGRESSION_MAPS = (mean_squared_error, root_mean_squared_error, mean_absolute_error)
_CLASSIFICATION_MAPS = (log_loss, brier_score_loss)


def curve_scale(scorer, metric, estimator, n_classes):
    """The :class:`CurveScale` the curve models read the search's scores on, or None.

    As they are: a classifier scored in [0, 1] (:func:`unit_scored_classifier`;
    kind ``"accuracy"``), a regressor scored by R² (its own ``score``,
    ``"r2"``). Mapped to a skill of kind ``"r2"``: a regressor scored by a
    squared error (MSE, RMSE: the fold's R²) or by the absolute error (its
    square against the median's), a
    classifier scored by log loss or the Brier score (each negated, as
    ``neg_*`` scorers give them). None for any other score: the curve models
    do not know it.
    """
    function, sign = ranking_metric(scorer, metric, estimator)
    if sign < 0 and function in _MAPS and (
            function in _CLASSIFICATION_MAPS if n_classes is not None
            else function in _REGRESSION_MAPS) and not _weighted_or_multi(scorer, metric):
        name, error, baseline, words = _MAPS[function]
        return CurveScale("r2", name, error=error, baseline=baseline, words=words)
    if sign <= 0:
        return None
    if n_classes is not None:
        return (CurveScale("accuracy", _score_name(function)) if function in _UNIT_METRICS
                else None)
    if function is r2_score and is_regressor(first_estimator(estimator)):
        return CurveScale("r2", "R²")
    return None


def _driving_scorer(scorer, metric):
    """The scorer of `metric` among several (a ``_MultimetricScorer``), or `scorer` itself."""
    if isinstance(scorer, _MultimetricScorer):
        return scorer._scorers.get(metric)
    return scorer


def _weighted_or_multi(scorer, metric):
    """Whether the scorer was made with options the map does not follow (weights, outputs)."""
    return bool(set(getattr(_driving_scorer(scorer, metric), "_kwargs", {})) - {"labels"})


def _score_name(function):
    return {accuracy_score: "accuracy", roc_auc_score: "ROC AUC"}.get(
        function, function.__name__.removesuffix("_score").replace("_", " "))


def response_needs(scoring):
    """``[(methods, words)]``: what the scorers of `scoring` call of a candidate.

    Each scorer calls one of its `methods` (a tuple: ``("predict",)``, or
    ``("decision_function", "predict_proba")`` where either will do), and
    `words` say which scorer in a message (``"scoring='accuracy' calls"``).
    ``scoring=None`` calls the candidate's own ``score``; a string, a scorer
    of :func:`~sklearn.metrics.get_scorer` or
    :func:`~sklearn.metrics.make_scorer`, and a list or dict of them, the
    response method each declares. A plain callable cannot be told: it needs
    nothing here, nor does a `scoring` that is not valid (its own check says so).

    Examples
    --------
    >>> from sksel._core.scoring import response_needs
    >>> response_needs(None)
    [(('score',), "scoring=None calls (a candidate's own score)")]
    >>> response_needs("roc_auc")
    [(('decision_function', 'predict_proba'), "scoring='roc_auc' calls")]
    """
    if scoring is None:
        return [(("score",), "scoring=None calls (a candidate's own score)")]
    if isinstance(scoring, str) or callable(scoring):
        named = [(f"scoring={scoring!r}", scoring)]
    elif isinstance(scoring, dict):
        named = [(f"scoring[{name!r}] ({scorer!r})", scorer) for name, scorer in scoring.items()]
    elif isinstance(scoring, (list, tuple, set, frozenset)):
        named = [(f"scoring's {name!r}", name) for name in scoring]
    else:
        return []
    needs = []
    for words, scorer in named:
        try:
            methods = (get_scorer(scorer) if isinstance(scorer, str) else scorer)._response_method
        except (AttributeError, ValueError, TypeError):
            continue
        methods = (methods,) if isinstance(methods, str) else tuple(methods)
        if methods:
            needs.append((methods, f"{words} calls"))
    return needs
