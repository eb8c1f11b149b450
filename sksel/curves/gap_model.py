"""How a learner's final score compares with the leader's: a model learned from real curves.

:class:`~sksel.daub.RungPolicy` drops a learner once it is unlikely to end
more than ``tol`` above the *leader*, the learner it would select now;
:class:`~sksel.GPUCBSelector` turns a candidate's score on a subsample into
an observation of its score on all the rows. The quantity both need is the
law of the final gap (the learner's score on all N rows minus the leader's),
given what the two learning curves show at the same size. The model here is
a location-scale one, fitted on real learning curves (LCDB 1.0's
single-split curves of 20 classifiers on the "tune" half of its datasets,
and curves of learners it lacks recorded by ``benchmarks/builders/record_curves.py``):

* the mean of the final gap is linear in the :data:`FEATURES` (the gap now,
  how it moved since the previous size, both learners' slopes and levels,
  the doublings of the rows left, the noise of a score) and a few of their
  products with the doublings left (:func:`design`);
* its log-scale is linear in the :func:`scale_design` terms;
* the standardized residual follows its empirical law on those curves, shipped
  as its quantiles.

It knows no learner by name (a family-free model), so any estimator gets it.
The coefficients, the residual quantiles, the threshold of each ``risk``
(chosen on datasets the model was not fitted on) and the list of what it was
fitted on are shipped in ``sksel/data/daub_gap*.csv`` and rebuilt by
``benchmarks/builders/build_daub_gap.py``.

There is one model per *kind* of score (:data:`KINDS`): ``"accuracy"``, for
classifiers scored in [0, 1], fitted on classification curves; ``"r2"``, for
regressors scored by R², fitted on regression curves
(``sksel/data/daub_gap_r2*.csv``, the same features, a score's noise that of
an R² and scores below -1 counted as -1). A difference of 0.005 is half a
point of either.
"""

import csv
import math
from functools import lru_cache
from importlib import resources

import numpy as np

#: The features of a (learner, leader) pair at one size, in the order of :func:`gap_features`.
FEATURES = ("gap", "gap_slope", "slope", "leader_slope", "score", "leader_score",
            "doublings", "noise", "has_slope")
#: Names of the :func:`design` terms (the mean) and of the :func:`scale_design` terms.
MEAN_TERMS = ("intercept", "gap", "gap_slope*doublings", "slope*doublings",
              "leader_slope*doublings", "gap*doublings", "headroom*doublings",
              "leader_headroom*doublings", "noise", "noise*sqrt_doublings", "doublings",
              "has_slope")
SCALE_TERMS = ("intercept", "sqrt_doublings", "doublings", "log_noise", "abs_gap",
               "abs_gap_slope*doublings", "abs_slope*doublings", "headroom", "leader_headroom",
               "has_slope")


#: The kinds of score a model is fitted for, with the lowest score its features count.
KINDS = {"accuracy": 0.0, "r2": -1.0}


def score_noise(score, n_validation, kind="accuracy"):
    """The standard error of a score near `score` measured on `n_validation` rows.

    An accuracy's is binomial, ``sqrt(p (1 - p) / n)``, with ``p (1 - p)`` at
    least ``0.25 / n``; an R²'s ``(1 - R²) sqrt(2 / n)`` (the relative error of
    a mean of squared Gaussian residuals), at least ``0.5 / n``.

    Parameters
    ----------
    score : float
    n_validation : int
    kind : {"accuracy", "r2"}, default="accuracy"

    Returns
    -------
    noise : float

    Examples
    --------
    >>> from sksel.curves.gap_model import score_noise
    >>> round(score_noise(0.5, 100), 4), round(score_noise(0.5, 100, kind="r2"), 4)
    (0.05, 0.0707)
    """
    if kind == "r2":
        return max((1.0 - min(score, 1.0)) * math.sqrt(2.0 / n_validation), 0.5 / n_validation)
    mean = min(max(score, 0.0), 1.0)
    return math.sqrt(max(mean * (1 - mean), 0.25 / n_validation) / n_validation)


def gap_features(scores, leader_scores, sizes, n_total, n_validation, kind="accuracy"):
    """The :data:`FEATURES` of a learner against the leader, from their curves at `sizes`.

    Parameters
    ----------
    scores, leader_scores : array-like of float
        The two learners' validation scores at `sizes` (accuracies in [0, 1],
        or R², counted as at least -1), the same sizes for both; the last is
        the size the decision is made at.
    sizes : array-like of int
        Increasing training sizes, all below `n_total`.
    n_total : int
        The full size, N.
    n_validation : int
        The validation rows each score was measured on.
    kind : {"accuracy", "r2"}, default="accuracy"
        The kind of score (:data:`KINDS`).

    Returns
    -------
    features : ndarray of shape (len(FEATURES),)
    """
    lowest = KINDS[kind]
    scores = np.maximum(np.asarray(scores, dtype=float), lowest)
    leader_scores = np.maximum(np.asarray(leader_scores, dtype=float), lowest)
    if len(sizes) >= 2:
        step = math.log2(sizes[-1] / sizes[-2])
        slope = (scores[-1] - scores[-2]) / step
        leader_slope = (leader_scores[-1] - leader_scores[-2]) / step
        has_slope = 1.0
    else:
        slope = leader_slope = has_slope = 0.0
    noise = score_noise((scores[-1] + leader_scores[-1]) / 2, n_validation, kind)
    return np.array([scores[-1] - leader_scores[-1], slope - leader_slope, slope, leader_slope,
                     scores[-1], leader_scores[-1], math.log2(n_total / sizes[-1]), noise,
                     has_slope])


def design(features):
    """The terms (:data:`MEAN_TERMS`) the mean of the final gap is linear in.

    Parameters
    ----------
    features : ndarray of shape (n_pairs, len(FEATURES))

    Returns
    -------
    terms : ndarray of shape (n_pairs, len(MEAN_TERMS))
    """
    gap, gap_slope, slope, leader_slope, score, leader_score, doublings, noise, has_slope = (
        np.asarray(features, dtype=float).T)
    return np.column_stack([
        np.ones_like(gap), gap, gap_slope * doublings, slope * doublings,
        leader_slope * doublings, gap * doublings, (1 - score) * doublings,
        (1 - leader_score) * doublings, noise, noise * np.sqrt(doublings), doublings, has_slope,
    ])


def scale_design(features):
    """The terms (:data:`SCALE_TERMS`) the log-scale of the final gap is linear in.

    Parameters
    ----------
    features : ndarray of shape (n_pairs, len(FEATURES))

    Returns
    -------
    terms : ndarray of shape (n_pairs, len(SCALE_TERMS))
    """
    gap, gap_slope, slope, leader_slope, score, leader_score, doublings, noise, has_slope = (
        np.asarray(features, dtype=float).T)
    return np.column_stack([
        np.ones_like(gap), np.sqrt(doublings), doublings, np.log(noise), np.abs(gap),
        np.abs(gap_slope) * doublings, np.abs(slope) * doublings, 1 - score, 1 - leader_score,
        has_slope,
    ])


class GapModel:
    """The law of a learner's final gap to the leader, given the :data:`FEATURES`.

    Parameters
    ----------
    mean_coef : array-like of shape (len(MEAN_TERMS),)
        Coefficients of the mean on the :func:`design` terms.
    scale_coef : array-like of shape (len(SCALE_TERMS),)
        Coefficients of the log-scale on the :func:`scale_design` terms.
    residuals : array-like of float
        Sorted standardized residuals (or their quantiles): their empirical
        law is that of ``(gap - mean) / scale``.
    kind : {"accuracy", "r2"}, default="accuracy"
        The kind of score it was fitted for (:data:`KINDS`): its
        :meth:`features` are those of that kind.

    Examples
    --------
    >>> from sksel.curves.gap_model import gap_features, shipped_model
    >>> model = shipped_model()
    >>> far = gap_features([0.60, 0.70], [0.80, 0.90], [500, 1000], 16000, 500)
    >>> near = gap_features([0.86, 0.89], [0.88, 0.90], [500, 1000], 16000, 500)
    >>> p_far, p_near = model.prob_above([far, near], tol=0.005)
    >>> bool(p_far < p_near)
    True
    """

    def __init__(self, mean_coef, scale_coef, residuals, kind="accuracy"):
        self.mean_coef = np.asarray(mean_coef, dtype=float)
        self.scale_coef = np.asarray(scale_coef, dtype=float)
        self.residuals = np.sort(np.asarray(residuals, dtype=float))
        self.kind = kind

    def features(self, scores, leader_scores, sizes, n_total, n_validation):
        """:func:`gap_features` of the model's kind of score."""
        return gap_features(scores, leader_scores, sizes, n_total, n_validation, self.kind)

    @classmethod
    def fit(cls, features, gaps, n_residuals=None, kind="accuracy"):
        """Fit the mean by least squares, then the log-scale on the log absolute residuals.

        Parameters
        ----------
        features : ndarray of shape (n_pairs, len(FEATURES))
        gaps : ndarray of shape (n_pairs,)
            The final gaps observed.
        n_residuals : int, default=None
            Keep this many quantiles of the standardized residuals (None: all).
        kind : {"accuracy", "r2"}, default="accuracy"
            The kind of score of the features.

        Returns
        -------
        model : GapModel
        """
        features, gaps = np.asarray(features, dtype=float), np.asarray(gaps, dtype=float)
        terms = design(features)
        mean_coef = np.linalg.lstsq(terms, gaps, rcond=None)[0]
        residuals = gaps - terms @ mean_coef
        scale_terms = scale_design(features)
        scale_coef = np.linalg.lstsq(scale_terms, np.log(np.abs(residuals) + 1e-4), rcond=None)[0]
        standardized = residuals / np.exp(scale_terms @ scale_coef)
        if n_residuals is not None:
            standardized = np.quantile(standardized, np.linspace(0, 1, n_residuals))
        return cls(mean_coef, scale_coef, standardized, kind)

    def mean_scale(self, features):
        """The mean and the scale of the final gap of each row of `features`."""
        features = np.atleast_2d(np.asarray(features, dtype=float))
        return design(features) @ self.mean_coef, np.exp(scale_design(features) @ self.scale_coef)

    def prob_above(self, features, tol):
        """The probability that each final gap exceeds `tol`.

        Parameters
        ----------
        features : array-like of shape (n_pairs, len(FEATURES))
        tol : float

        Returns
        -------
        probabilities : ndarray of shape (n_pairs,)
        """
        mean, scale = self.mean_scale(features)
        below = np.searchsorted(self.residuals, (tol - mean) / scale, side="right")
        return 1.0 - below / len(self.residuals)


def _read(name):
    text = (resources.files("sksel") / "data" / name).read_text(encoding="utf-8")
    return list(csv.DictReader(text.splitlines()))


def shipped_file(name, kind="accuracy"):
    """The name of a shipped file of `kind`'s model: ``daub_gap_risk.csv`` for accuracy,
    ``daub_gap_r2_risk.csv`` for R² (`name` is the accuracy model's)."""
    return name if kind == "accuracy" else name.replace("daub_gap", f"daub_gap_{kind}", 1)


def is_shipped(kind):
    """Whether a model of `kind` is shipped."""
    return (resources.files("sksel") / "data" / shipped_file("daub_gap.csv", kind)).is_file()


def _read_location_scale(coefficients, residuals, mean_terms, scale_terms):
    """``(mean_coef, scale_coef, residuals)`` of a location-scale model shipped in the files
    `coefficients` (rows ``part, term, coef``) and `residuals` (a column ``z``)."""
    coef = _read(coefficients)
    mean = {row["term"]: float(row["coef"]) for row in coef if row["part"] == "mean"}
    scale = {row["term"]: float(row["coef"]) for row in coef if row["part"] == "log_scale"}
    return ([mean[t] for t in mean_terms], [scale[t] for t in scale_terms],
            [float(row["z"]) for row in _read(residuals)])


@lru_cache(maxsize=None)
def shipped_model(kind="accuracy"):
    """The :class:`GapModel` of `kind` shipped in ``sksel/data/daub_gap*.csv``."""
    return GapModel(*_read_location_scale(
        shipped_file("daub_gap.csv", kind), shipped_file("daub_gap_residuals.csv", kind),
        MEAN_TERMS, SCALE_TERMS), kind)


@lru_cache(maxsize=None)
def risk_file(kind="accuracy", cost="rows"):
    """The name of the shipped thresholds of `kind`'s model for DAUBSearch's `cost`:
    ``daub_gap_risk.csv`` (accuracy, rows), ``daub_gap_time_risk.csv`` (accuracy, measured
    seconds), ``daub_gap_r2_risk.csv``, ``daub_gap_r2_time_risk.csv``."""
    return shipped_file("daub_gap_risk.csv" if cost == "rows" else f"daub_gap_{cost}_risk.csv",
                        kind)


def risk_thresholds(kind="accuracy", cost="rows"):
    """The shipped ``(risks, thresholds)`` of `kind` for `cost`: a learner is dropped below
    its risk's threshold.

    Chosen on datasets the model was not fitted on, with the costs of `cost`
    scaling each learner's threshold (:func:`risk_file`).
    """
    rows = _read(risk_file(kind, cost))
    return (np.array([float(r["risk"]) for r in rows]),
            np.array([float(r["threshold"]) for r in rows]))


def threshold(risk, kind="accuracy", cost="rows"):
    """The probability below which a learner is dropped, for a run-level `risk` in (0, 1).

    Interpolated (in log-risk) between the shipped risks of `kind`'s model for
    `cost`, constant beyond them.

    Examples
    --------
    >>> from sksel.curves.gap_model import threshold
    >>> bool(0 < threshold(0.05) <= threshold(0.1) <= threshold(0.2) < 1)
    True
    """
    risks, thresholds = risk_thresholds(kind, cost)
    return float(np.interp(math.log(risk), np.log(risks), thresholds))
