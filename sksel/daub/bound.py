"""DAUB's upper bound: the score at N that a learner's learning curve projects.

A learner's validation scores on the subsamples so far, made monotone
(:func:`monotone`), are projected to the full training set by the slope of their
latest points (:func:`projected_bound`), in rows or in log(rows)
(:func:`projects_in_log`), raised for the noise of the scores
(:func:`accuracy_noise` for accuracies), and widened when a learner trained on
all the rows scored above the bound its curve gave (:func:`widening_ratio`).
:class:`~sksel.daub.DAUBPolicy` keeps the curves and the widening so far and
gives each learner the bound of these functions.
"""

import math

import numpy as np

from .curve_prior import prior_rise


def projected_bound(curve, train, n_total, *, l, bound, projection, max_score, noise,
                    widening):
    """The bound at N of the learning curve `curve` (the paper's ``UpdateBound``).

    The curve, made monotone, goes on from its latest score along the
    least-squares slope of its `l` latest points, drawn in rows or log(rows)
    (see `projection`) and raised by its own standard error under `noise`,
    never downwards. With ``bound="prior"`` and `max_score` 1, the bound is
    at least the rise of :func:`~sksel.daub.curve_prior.prior_rise` above the
    latest score; its rise above that score is then multiplied by
    `widening`. With ``bound="train"`` it is at most the training score at
    the latest size, and it is always at most `max_score`.

    Parameters
    ----------
    curve : dict
        Validation scores of the learner so far, ``{size: score}``.
    train : dict
        Its training scores, ``{size: score}`` (read with ``bound="train"``).
    n_total : int
        The full size, N.
    l : int
        Number of latest points whose slope projects the curve.
    bound : {"train", "slope", "prior"}
        Which bound, as in :class:`~sksel.daub.DAUBPolicy`.
    projection : {"linear", "log", "auto"}
        How the slope projects the curve to N, as in
        :class:`~sksel.daub.DAUBPolicy` (see :func:`projects_in_log`).
    max_score : float
        Best score possible.
    noise : callable
        Standard error of a validation score near a score, ``score -> float``.
    widening : float
        Factor of the bound's rise above the latest score, at least 1 (the
        ``widening_`` of :class:`~sksel.daub.DAUBPolicy`).

    Returns
    -------
    bound : float
        The projected score at N: ``inf`` for an empty curve; with one score,
        `max_score`, or the training score if lower with ``bound="train"``.

    Examples
    --------
    >>> from sksel.daub.bound import projected_bound
    >>> curve = {100: 0.70, 200: 0.75, 400: 0.78}
    >>> options = dict(l=3, bound="slope", max_score=1.0, noise=lambda s: 0.0, widening=1.0)
    >>> round(float(projected_bound(curve, {}, 800, projection="linear", **options)), 4)
    0.88
    >>> round(float(projected_bound(curve, {}, 800, projection="log", **options)), 4)
    0.82
    """
    sizes = sorted(curve)
    if not sizes:
        return np.inf
    valid = monotone([curve[n] for n in sizes])
    n_j = sizes[-1]
    if len(sizes) < 2:
        projected = np.inf
    else:
        x = np.array(sizes, dtype=float)
        x_total = float(n_total)
        if projects_in_log(x, valid, projection, noise):
            x, x_total = np.log(x), np.log(x_total)
        x, last = x[-l:], valid[-l:]
        slope = np.polyfit(x, last, 1)[0]
        slope += noise(valid[-1]) / np.sqrt(np.sum((x - x.mean()) ** 2))
        projected = last[-1] + (x_total - x[-1]) * max(slope, 0.0)
        if bound == "prior" and max_score == 1 and n_j < n_total:
            rise = prior_rise(sizes, valid, n_total, noise(valid[-1]), l)
            projected = max(projected, valid[-1] + rise)
        if widening > 1:
            projected = valid[-1] + widening * (projected - valid[-1])
    train = train.get(n_j)
    if bound == "train" and train is not None:
        projected = min(train, projected)
    return min(projected, max_score)


def projects_in_log(sizes, scores, projection, noise):
    """Whether the curve `scores` at `sizes` is projected in log(rows).

    With ``projection="auto"``: when it has at least three points and no
    step gains more per doubling of the rows than the step before it, up to
    twice the noise of its latest score.

    Parameters
    ----------
    sizes : ndarray of shape (n_points,)
        Increasing sizes.
    scores : ndarray of shape (n_points,)
        Monotone scores at `sizes`.
    projection : {"linear", "log", "auto"}
        As in :class:`~sksel.daub.DAUBPolicy`.
    noise : callable
        Standard error of a validation score near a score, ``score -> float``.

    Returns
    -------
    log : bool
    """
    if projection != "auto":
        return projection == "log"
    if len(sizes) < 3:
        return False
    steps = np.diff(np.log(sizes))
    gains = np.diff(scores)
    # Gain of each step had it kept the previous step's gain per doubling.
    kept_pace = gains[:-1] * steps[1:] / steps[:-1]
    return bool(np.all(gains[1:] <= kept_pace + 2 * noise(scores[-1])))


def widening_ratio(curve, bound, score, noise):
    """How much faster than its bound a learner's curve rose to its `score` at N.

    The ratio of the rise seen (the score less its noise, above the latest
    score of the monotone curve) to the rise bounded, when the score beat
    the bound.

    Parameters
    ----------
    curve : dict
        Validation scores of the learner below N, ``{size: score}``.
    bound : float
        The bound at N that `curve` gave (:func:`projected_bound`).
    score : float
        The learner's score at N.
    noise : callable
        Standard error of a validation score near a score, ``score -> float``.

    Returns
    -------
    ratio : float or None
        Above 1; None when the score, less its noise, did not beat the
        bound, or the curve has fewer than two scores or no finite bound.
    """
    if len(curve) < 2 or not np.isfinite(bound):
        return None
    latest = monotone([curve[n] for n in sorted(curve)])[-1]
    seen = score - noise(score)
    if seen > bound > latest and not np.isclose(seen, bound):
        return (seen - latest) / (bound - latest)
    return None


def accuracy_noise(score, n_validation):
    """Standard error of an accuracy near `score` measured on `n_validation` rows.

    The binomial ``sqrt(p * (1 - p) / n)``, with ``p`` pulled towards 1/2 by
    one row each way so that a score of 0 or 1 keeps some noise.

    Parameters
    ----------
    score : float
        Accuracy, in [0, 1].
    n_validation : int
        Number of validation rows it was measured on.

    Returns
    -------
    noise : float

    Examples
    --------
    >>> from sksel.daub import accuracy_noise
    >>> round(accuracy_noise(0.5, 100), 4), round(accuracy_noise(0.98, 100), 4)
    (0.0495, 0.0167)
    """
    p = (min(max(score, 0.0), 1.0) * n_validation + 1) / (n_validation + 2)
    return math.sqrt(p * (1 - p) / (n_validation + 2))


def monotone(scores):
    """The paper's monotone correction of a learning curve, point by point.

    When a score falls below the (corrected) previous one, both become their mean.

    Parameters
    ----------
    scores : array-like of shape (n_sizes,)
        A learner's validation scores, by increasing training size.

    Returns
    -------
    corrected : ndarray of shape (n_sizes,)
        The scores corrected, a new array.

    Examples
    --------
    >>> from sksel.daub.bound import monotone
    >>> monotone([0.5, 0.7, 0.6, 0.8]).round(3).tolist()
    [0.5, 0.65, 0.65, 0.8]
    """
    scores = np.array(scores, dtype=float)
    for i in range(1, len(scores)):
        if scores[i] < scores[i - 1]:
            scores[i - 1] = scores[i] = (scores[i] + scores[i - 1]) / 2
    return scores
