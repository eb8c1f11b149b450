"""What one evaluation of a learner costs on a number of rows: overhead plus rows.

A fit on a small subsample costs mostly its overhead (building the
estimator, checking the input, scoring the validation rows); a fit on many
rows costs mostly its rows, as a power of them. :func:`fit_cost` reads
``seconds ~ a + b * rows ** e`` off a learner's evaluations so far and
:func:`predict_cost` extends it to other sizes.
"""

import math

import numpy as np

#: Exponents of the rows tried when three or more sizes are timed.
_EXPONENTS = np.round(np.arange(0.25, 2.51, 0.125), 3)
#: The largest exponent read off two sizes (a fit quadratic in its rows, and some slack).
_MAX_EXPONENT = 2.5


def fit_cost(rows, seconds, exponent=1.0):
    """``(a, b, e)`` with ``seconds ~ a + b * rows ** e``, ``a, b >= 0``, from timed evaluations.

    One size: no overhead, `exponent`. Two sizes: the two points exactly with
    `exponent`; where that needs a negative overhead (the cost grows faster),
    no overhead and the exponent of the two points (at most 2.5); where the
    larger size cost less, a flat cost, their mean. Three sizes or more: the
    exponent among 0.25, 0.375, ..., 2.5 whose least-squares fit (``a, b >=
    0``) has the smallest relative error.

    Parameters
    ----------
    rows : array-like of int
        Sizes the learner was evaluated on, distinct.
    seconds : array-like of float
        What each evaluation took.
    exponent : float, default=1.0
        The exponent used when the sizes do not tell it.

    Returns
    -------
    a, b, e : float

    Examples
    --------
    >>> from sksel.daub.cost import fit_cost, predict_cost
    >>> a, b, e = fit_cost([100, 300], [0.2, 0.4])
    >>> round(a, 3), round(predict_cost((a, b, e), 2700), 3)
    (0.1, 2.8)
    """
    rows = np.asarray(rows, dtype=float)
    seconds = np.maximum(np.asarray(seconds, dtype=float), 1e-6)
    order = np.argsort(rows)
    rows, seconds = rows[order], seconds[order]
    if len(rows) == 1:
        return 0.0, float(seconds[0] / rows[0] ** exponent), float(exponent)
    if len(rows) == 2:
        return _two_sizes(rows, seconds, exponent)
    return min((_least_squares(rows, seconds, e) for e in _EXPONENTS),
               key=lambda fit: _relative_error(fit, rows, seconds))


def predict_cost(cost, rows):
    """Seconds of an evaluation on `rows` by the ``(a, b, e)`` of :func:`fit_cost`."""
    a, b, e = cost
    return a + b * rows ** e


def _two_sizes(rows, seconds, exponent):
    (n1, n2), (t1, t2) = rows, seconds
    if t2 <= t1:
        return float((t1 + t2) / 2), 0.0, float(exponent)
    b = (t2 - t1) / (n2 ** exponent - n1 ** exponent)
    a = t1 - b * n1 ** exponent
    if a >= 0:
        return float(a), float(b), float(exponent)
    e = min(math.log(t2 / t1) / math.log(n2 / n1), _MAX_EXPONENT)
    return 0.0, float(t2 / n2 ** e), float(e)


def _least_squares(rows, seconds, e):
    """``(a, b, e)``: the non-negative least-squares overhead and slope for exponent `e`.

    Residuals are relative (divided by the seconds), so small fits count as
    much as large ones.
    """
    weights = 1 / seconds
    design = np.column_stack([np.ones_like(rows), rows ** e]) * weights[:, None]
    target = seconds * weights
    (a, b), *_ = np.linalg.lstsq(design, target, rcond=None)
    if a < 0:
        a, b = 0.0, float(target @ design[:, 1] / (design[:, 1] @ design[:, 1]))
    if b < 0:
        a, b = float(target @ design[:, 0] / (design[:, 0] @ design[:, 0])), 0.0
    return float(a), float(b), float(e)


def _relative_error(cost, rows, seconds):
    return float(np.sum((predict_cost(cost, rows) / seconds - 1) ** 2))
