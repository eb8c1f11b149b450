"""What a search's scorer measures: the metric behind it, and whether its scores lie in [0, 1];
and what it calls of a candidate.

Policies read it to set their scales (DAUB's largest score and noise,
Mutant-UCB's exploration unit): it is read from what the scorer is, not from
how `scoring` spells it. :func:`response_needs` says which methods the
scorers call, for the check of the candidates before any training.
"""

from sklearn.base import is_classifier, is_regressor
from sklearn.metrics import (
    accuracy_score,
    average_precision_score,
    balanced_accuracy_score,
    f1_score,
    fbeta_score,
    get_scorer,
    jaccard_score,
    precision_score,
    r2_score,
    recall_score,
    roc_auc_score,
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
    if isinstance(scorer, _MultimetricScorer):
        scorer = scorer._scorers.get(metric)
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


def curve_kind(scorer, metric, estimator, n_classes):
    """The kind of score the learned curve models know the search's scores as, or None.

    ``"accuracy"`` for a classifier scored in [0, 1] (:func:`unit_scored_classifier`),
    ``"r2"`` for a regressor scored by R² (its own ``score``, ``"r2"``), None otherwise
    (a loss, another regression score).
    """
    function, sign = ranking_metric(scorer, metric, estimator)
    if sign <= 0:
        return None
    if n_classes is not None:
        return "accuracy" if function in _UNIT_METRICS else None
    return "r2" if function is r2_score and is_regressor(first_estimator(estimator)) else None


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
