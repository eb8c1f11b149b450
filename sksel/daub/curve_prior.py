"""How far a learning curve can still rise: a bound learned from real curves.

DAUB drops a learner once its projected score on all N training rows falls
below what another learner reaches. A straight-line projection of the last
few points misses curves that start slow and then take off (low learning
rates, many leaves or classes, nominal features). The prior here is a high
quantile of the rise between a curve's latest score and its score at N,
learned from LCDB's real learning curves (Mohr et al., 20 classifiers on 180
OpenML datasets) by linear quantile regression on what the prefix shows:

* ``doublings``: ``log2(N / n)``, how many times the rows still double;
* ``slope_doublings``: the curve's gain per doubling of the rows over its
  last points (least squares, at least 0) times ``doublings``, what a
  log-linear curve would still gain;
* ``headroom_doublings`` and ``headroom``: ``1 - score`` (times
  ``doublings``), what an accuracy-like score can still gain;
* ``noise``: the standard error of the latest score.

Its coefficients are shipped in ``sksel/data/daub_bound.csv`` and rebuilt by
``benchmarks/builders/build_daub_bound.py``, which fits them on half of LCDB's
datasets, on the prefixes of the learners that ended within one point of the
best one (the learners whose bound must not fail), and reports how often the
bound covers the score at N on the other half.
"""

import csv
from functools import lru_cache
from importlib import resources

import numpy as np

#: The shipped coefficients: one row per feature of `prior_features`, and ``intercept``.
_BOUND_FILE = "daub_bound.csv"
#: Feature names, in the order of `prior_features`.
FEATURES = ("doublings", "slope_doublings", "headroom_doublings", "headroom", "noise")


def prior_features(sizes, scores, n_total, noise, n_last=3):
    """The features of a learning-curve prefix (see the module docstring).

    Parameters
    ----------
    sizes : array-like of int
        Increasing training sizes of the prefix, at least two, all below `n_total`.
    scores : array-like of float
        The curve's scores at `sizes`, in [0, 1], already made monotone.
    n_total : int
        The size the bound is for, N.
    noise : float
        Standard error of the latest score.
    n_last : int, default=3
        Number of latest points whose slope is used.

    Returns
    -------
    features : ndarray of shape (len(FEATURES),)
    """
    log_sizes = np.log2(np.asarray(sizes, dtype=float))
    scores = np.asarray(scores, dtype=float)
    slope = np.polyfit(log_sizes[-n_last:], scores[-n_last:], 1)[0]
    doublings = np.log2(n_total) - log_sizes[-1]
    headroom = 1.0 - scores[-1]
    return np.array([doublings, max(slope, 0.0) * doublings, headroom * doublings,
                     headroom, noise])


@lru_cache(maxsize=1)
def prior_coefficients():
    """The shipped coefficients: ``(weights, intercept, quantile)``.

    Returns
    -------
    weights : ndarray of shape (len(FEATURES),)
    intercept : float
    quantile : float
        The quantile of the rise they were fitted for.
    """
    text = (resources.files("sksel") / "data" / _BOUND_FILE).read_text(encoding="utf-8")
    rows = {row["term"]: float(row["value"]) for row in csv.DictReader(text.splitlines())}
    return np.array([rows[name] for name in FEATURES]), rows["intercept"], rows["quantile"]


def prior_rise(sizes, scores, n_total, noise, n_last=3):
    """The rise of a learning curve by N that the prior allows, at least 0.

    Parameters are those of :func:`prior_features`.

    Returns
    -------
    rise : float

    Examples
    --------
    >>> from sksel.daub.curve_prior import prior_rise
    >>> flat = prior_rise([500, 1000, 2000], [0.90, 0.90, 0.90], 16000, noise=0.005)
    >>> rising = prior_rise([500, 1000, 2000], [0.50, 0.60, 0.70], 16000, noise=0.005)
    >>> bool(0 < flat < rising)
    True
    """
    weights, intercept, _ = prior_coefficients()
    features = prior_features(sizes, scores, n_total, noise, n_last)
    return max(float(features @ weights + intercept), 0.0)
