"""What a partly trained model's scores say of its score once fully trained: a model learned
from real training curves.

:class:`~sksel.mutant_ucb.MutantUCBPolicy` (``reward="finish"``) ranks its
models by what they are predicted to score after ``N`` sub-trains, not by the
scores they reached so far: a model with one sub-train and a model with ten
are compared at the same length, and a curve that still climbs is credited
with what it has left. The quantity needed is the law of the *finish*, the
score at ``N`` sub-trains minus the last score told, given the curve so far.
The model here is a location-scale one, fitted on training curves recorded
by ``benchmarks/builders/record_training_curves.py`` (MLPs, SGD, histogram
boosting, XGBoost and small CNNs, scored after every unit of training) on
the tune half of their tables:

* the mean of the finish is linear in the :func:`design` terms (the slope
  per doubling of the training, the headroom left, each times the doublings
  of the training left, apart for a curve of one score), zero for a fully
  trained model;
* its scale is ``sqrt(doublings left)`` times the exponential of a linear
  function of the :func:`scale_design` terms (the slope, the headroom, the
  noise of a score);
* the standardized residual follows its empirical law on those curves,
  shipped as its quantiles.

It knows no estimator by name, so any template gets it. The coefficients
and the residual quantiles are shipped in ``sksel/data/finish_model*.csv``
and rebuilt by ``benchmarks/builders/build_finish_model.py``, which also
reports how calibrated the spread is on the tables it was not fitted on.
As for :mod:`~sksel.curves.gap_model`, there is one model per kind of score:
``"accuracy"`` (classifiers scored in [0, 1]) and ``"r2"``.
"""

import math
from functools import lru_cache

import numpy as np

from .gap_model import KINDS, _read_location_scale, score_noise

#: The features of a model's curve at its last score, in the order of :func:`finish_features`.
FEATURES = ("level", "slope", "has_slope", "doublings", "noise")
#: Names of the :func:`design` terms (the mean) and of the :func:`scale_design` terms.
MEAN_TERMS = ("doublings*no_slope", "level*doublings*no_slope", "doublings*has_slope",
              "level*doublings*has_slope", "slope*doublings", "slope*doublings^2")
SCALE_TERMS = ("intercept", "log_slope_or_noise", "has_slope", "log_noise", "sqrt_doublings")
#: The least error ``1 - score`` a level counts.
_LEAST_ERROR = 1e-3


def level(scores):
    """A score's *level*, ``-log(1 - score)``: the scale the finish is modelled on, where
    closing half of the error left is the same step at any score."""
    return -np.log(np.maximum(1.0 - np.asarray(scores, dtype=float), _LEAST_ERROR))


def score_of(levels):
    """The score of a level (:func:`level`'s inverse)."""
    return 1.0 - np.exp(-np.asarray(levels, dtype=float))


def finish_features(scores, lengths, n_full, n_validation, kind="accuracy"):
    """The :data:`FEATURES` of a curve: scores at increasing training `lengths`, of `n_full`.

    The level of the last score (:func:`level`), its slope per doubling of
    the training since the score before (0, and ``has_slope`` 0, for a
    curve of one score), the doublings of the training left, and the noise
    of a score (:func:`~sksel.curves.gap_model.score_noise`) in levels.

    Parameters
    ----------
    scores : array-like of float
        The model's validation scores so far (accuracies in [0, 1], or R²,
        counted as at least -1), one per length; the last is the latest.
    lengths : array-like of int
        The sub-trains each score was measured after, increasing; a mutant's
        count those of its lineage.
    n_full : int
        The sub-trains of a fully trained model, N.
    n_validation : int
        The validation rows a score is measured on.
    kind : {"accuracy", "r2"}, default="accuracy"

    Returns
    -------
    features : ndarray of shape (len(FEATURES),)

    Examples
    --------
    >>> from sksel.curves.finish_model import finish_features
    >>> finish_features([0.6, 0.8], [1, 2], 8, 1000).round(3).tolist()
    [1.609, 0.693, 1.0, 2.0, 0.063]
    """
    scores = np.maximum(np.asarray(scores, dtype=float), KINDS[kind])
    levels = level(scores)
    length = lengths[-1]
    if len(scores) >= 2:
        slope, has_slope = (levels[-1] - levels[-2]) / math.log2(length / lengths[-2]), 1.0
    else:
        slope, has_slope = 0.0, 0.0
    noise = score_noise(scores[-1], n_validation, kind) / max(1.0 - scores[-1], _LEAST_ERROR)
    return np.array([levels[-1], slope, has_slope, math.log2(max(n_full / length, 1.0)), noise])


def design(features):
    """The terms (:data:`MEAN_TERMS`) the mean of the finish, in levels, is linear in: each
    vanishes for a fully trained model.

    Parameters
    ----------
    features : ndarray of shape (n_curves, len(FEATURES))

    Returns
    -------
    terms : ndarray of shape (n_curves, len(MEAN_TERMS))
    """
    levels, slope, has_slope, doublings, _ = np.atleast_2d(features).T
    no_slope = 1 - has_slope
    return np.column_stack([doublings * no_slope, levels * doublings * no_slope,
                            doublings * has_slope, levels * doublings * has_slope,
                            slope * doublings, slope * doublings ** 2])


def scale_design(features):
    """The terms (:data:`SCALE_TERMS`) the log-scale of the finish, over ``sqrt(doublings)``,
    is linear in.

    Parameters
    ----------
    features : ndarray of shape (n_curves, len(FEATURES))

    Returns
    -------
    terms : ndarray of shape (n_curves, len(SCALE_TERMS))
    """
    levels, slope, has_slope, doublings, noise = np.atleast_2d(features).T
    return np.column_stack([np.ones_like(levels), np.log(np.abs(slope) + noise), has_slope,
                            np.log(noise), np.sqrt(doublings)])


class FinishModel:
    """The law of a model's finish (its level fully trained less its last), given its curve.

    Parameters
    ----------
    mean_coef : array-like of shape (len(MEAN_TERMS),)
        Coefficients of the mean on the :func:`design` terms.
    scale_coef : array-like of shape (len(SCALE_TERMS),)
        Coefficients of the log-scale on the :func:`scale_design` terms.
    residuals : array-like of float
        Sorted standardized residuals (or their quantiles): their empirical
        law is that of ``(finish - mean) / scale``.
    kind : {"accuracy", "r2"}, default="accuracy"
        The kind of score it was fitted for.

    Examples
    --------
    >>> from sksel.curves.finish_model import finish_features, shipped_finish_model
    >>> model = shipped_finish_model()
    >>> climbing = finish_features([0.60, 0.70], [1, 2], 10, 1000)
    >>> flat = finish_features([0.72, 0.72], [1, 2], 10, 1000)
    >>> climbing_final, flat_final = model.predict([climbing, flat])
    >>> bool(climbing_final > 0.72 > 0.70)
    True
    """

    def __init__(self, mean_coef, scale_coef, residuals, kind="accuracy"):
        self.mean_coef = np.asarray(mean_coef, dtype=float)
        self.scale_coef = np.asarray(scale_coef, dtype=float)
        self.residuals = np.sort(np.asarray(residuals, dtype=float))
        self.kind = kind

    def features(self, scores, lengths, n_full, n_validation):
        """:func:`finish_features` of the model's kind of score."""
        return finish_features(scores, lengths, n_full, n_validation, self.kind)

    @classmethod
    def fit(cls, features, finishes, n_residuals=None, kind="accuracy"):
        """Fit the mean by least squares, then the log-scale on the log absolute residuals.

        Curves already fully trained (no doublings left) tell nothing and are
        left out.

        Parameters
        ----------
        features : ndarray of shape (n_curves, len(FEATURES))
        finishes : ndarray of shape (n_curves,)
            The level (:func:`level`) fully trained less the last level, observed.
        n_residuals : int, default=None
            Keep this many quantiles of the standardized residuals (None: all).
        kind : {"accuracy", "r2"}, default="accuracy"

        Returns
        -------
        model : FinishModel
        """
        features, finishes = np.atleast_2d(features), np.asarray(finishes, dtype=float)
        left = features[:, FEATURES.index("doublings")] > 0
        features, finishes = features[left], finishes[left]
        terms = design(features)
        mean_coef = np.linalg.lstsq(terms, finishes, rcond=None)[0]
        residuals = finishes - terms @ mean_coef
        root = np.sqrt(features[:, FEATURES.index("doublings")])
        scale_terms = scale_design(features)
        scale_coef = np.linalg.lstsq(
            scale_terms, np.log(np.abs(residuals) / root + 1e-4), rcond=None)[0]
        standardized = residuals / (root * np.exp(scale_terms @ scale_coef))
        if n_residuals is not None:
            standardized = np.quantile(standardized, np.linspace(0, 1, n_residuals))
        return cls(mean_coef, scale_coef, standardized, kind)

    def finish(self, features):
        """The mean and the scale of the finish of each row of `features`."""
        features = np.atleast_2d(np.asarray(features, dtype=float))
        root = np.sqrt(features[:, FEATURES.index("doublings")])
        return design(features) @ self.mean_coef, root * np.exp(
            scale_design(features) @ self.scale_coef)

    def predict(self, features):
        """The predicted final score of each row of `features`: the score of its last level
        plus the mean finish."""
        features = np.atleast_2d(np.asarray(features, dtype=float))
        return score_of(features[:, 0] + self.finish(features)[0])

    def quantile(self, features, q):
        """The `q`-quantile of the final score of each row of `features`."""
        features = np.atleast_2d(np.asarray(features, dtype=float))
        mean, scale = self.finish(features)
        return score_of(features[:, 0] + mean + scale * float(np.quantile(self.residuals, q)))


def shipped_file(name, kind="accuracy"):
    """The name of a shipped file of `kind`'s model: ``finish_model.csv`` for accuracy,
    ``finish_model_r2.csv`` for R² (`name` is the accuracy model's)."""
    return name if kind == "accuracy" else name.replace("finish_model", f"finish_model_{kind}", 1)


@lru_cache(maxsize=None)
def shipped_finish_model(kind="accuracy"):
    """The :class:`FinishModel` of `kind` shipped in ``sksel/data/finish_model*.csv``."""
    return FinishModel(*_read_location_scale(
        shipped_file("finish_model.csv", kind), shipped_file("finish_model_residuals.csv", kind),
        MEAN_TERMS, SCALE_TERMS), kind)


class FinishRule:
    """A policy's ``finish(scores, lengths, n_full) -> (predicted, optimistic)``, by a
    :class:`FinishModel`: the predicted final score of a curve, fully trained at `n_full`
    sub-trains, and its `optimism`-quantile.

    Parameters
    ----------
    model : FinishModel
    n_validation : int
        The validation rows a score is measured on.
    optimism : float in (0, 1), default=0.8
        The quantile of the final score the upper bound is.

    Examples
    --------
    >>> from sksel.curves.finish_model import FinishRule, shipped_finish_model
    >>> rule = FinishRule(shipped_finish_model(), n_validation=1000)
    >>> predicted, optimistic = rule([0.6, 0.7], [1, 2], n_full=10)
    >>> bool(0.7 < predicted < optimistic)
    True
    >>> rule([0.8], [10], n_full=10) == (0.8, 0.8)  # fully trained: its score
    True
    """

    def __init__(self, model, n_validation, optimism=0.8):
        self.model = model
        self.n_validation = n_validation
        self.optimism = optimism

    def __call__(self, scores, lengths, n_full):
        """``(predicted, optimistic)`` final scores of the curve, fully trained at `n_full`
        sub-trains."""
        features = self.model.features(scores, lengths, n_full, self.n_validation)
        if features[FEATURES.index("doublings")] <= 0:
            return float(scores[-1]), float(scores[-1])
        return (float(self.model.predict(features)[0]),
                float(self.model.quantile(features, self.optimism)[0]))
