"""What a learner is predicted to cost on a number of rows, before it is trained.

:class:`~sksel.DAUBSearch` decides before each rung whether the rung pays:
what it costs against what its drops are expected to save
(:class:`~sksel.daub.RungPolicy`'s plan). It reads the costs from a table,
not from the seconds it measures, so that the same seed gives the same
search. The table (``sksel/data/learner_cost.csv``, written by
``benchmarks/builders/build_learner_cost.py``) holds, per learner class of
scikit-learn and XGBoost, ``seconds ~ a + b * rows ** e`` of one fit and its
scoring (binary classification or regression, 20 features, on the machine it
was measured on). :func:`predicted_cost` scales it to the data and the
parameters: ``b`` by the features over 20 (their square root for the
forests of classifiers, whose splits try that many), a boosted classifier's by its
classes beyond two (a tree per class per round), both by the number of
estimators, rounds or epochs over the template's. A learner of another class gets the
table's median cost: the plan then sees it as a typical learner.
"""

import csv
from functools import lru_cache
from pathlib import Path

import numpy as np

from .._core.naming import _final_position

#: The shipped table: one row per learner class.
COST_TABLE = Path(__file__).resolve().parent.parent / "data" / "learner_cost.csv"
#: The parameter that scales a learner's work (estimators, rounds), by class name.
SCALED_BY = {
    "RandomForestClassifier": "n_estimators", "RandomForestRegressor": "n_estimators",
    "ExtraTreesClassifier": "n_estimators", "ExtraTreesRegressor": "n_estimators",
    "GradientBoostingClassifier": "n_estimators", "GradientBoostingRegressor": "n_estimators",
    "AdaBoostClassifier": "n_estimators", "AdaBoostRegressor": "n_estimators",
    "XGBClassifier": "n_estimators", "XGBRegressor": "n_estimators",
    "HistGradientBoostingClassifier": "max_iter", "HistGradientBoostingRegressor": "max_iter",
    "MLPClassifier": "max_iter", "MLPRegressor": "max_iter",
}
#: Learners whose trees try the square root of the features at a split (their default).
_SQRT_FEATURES = {"RandomForestClassifier", "ExtraTreesClassifier"}
#: Classifiers that grow one tree per class (beyond two) each round.
_PER_CLASS = {"GradientBoostingClassifier", "HistGradientBoostingClassifier", "XGBClassifier"}
#: The features of the table's data.
_FEATURES = 20


@lru_cache(maxsize=1)
def _table():
    """``{class name: (a, b, e, reference)}`` of the shipped table."""
    with open(COST_TABLE, newline="") as f:
        return {row["learner"]: (float(row["a"]), float(row["b"]), float(row["e"]),
                                 float(row["reference"]) if row["reference"] else None)
                for row in csv.DictReader(f)}


def _typical():
    """The median ``(a, b, e)`` of the table: a learner of an unknown class."""
    costs = np.array([cost[:3] for cost in _table().values()])
    a, b, e = np.median(costs, axis=0)
    return float(a), float(b), float(e), None


def predicted_cost(estimator, n_features=_FEATURES, n_classes=None):
    """``(a, b, e)``: the seconds of fitting and scoring `estimator` on ``rows`` rows.

    As :func:`~sksel.daub.cost.fit_cost`'s: ``a + b * rows ** e``
    (:func:`~sksel.daub.cost.predict_cost`), read off the shipped table by the
    class of the learner at the end of `estimator`'s pipelines and scaled to
    `n_features`, `n_classes` and its estimators or rounds (see the module).

    Parameters
    ----------
    estimator : estimator
        An unfitted learner or pipeline.
    n_features : int or None, default=20
        Columns of ``X``; None reads as the table's 20.
    n_classes : int or None, default=None
        Classes of a classifier's target; None for a regressor.

    Returns
    -------
    a, b, e : float

    Examples
    --------
    >>> from sklearn.ensemble import RandomForestClassifier
    >>> from sksel.daub.learner_cost import predicted_cost
    >>> small = predicted_cost(RandomForestClassifier(n_estimators=50))
    >>> large = predicted_cost(RandomForestClassifier(n_estimators=100))
    >>> round(large[0] / small[0], 6), round(large[1] / small[1], 6)
    (2.0, 2.0)
    """
    learner, _ = _final_position(estimator, {})
    name = type(learner).__name__
    a, b, e, reference = _table().get(name) or _typical()
    b *= ((n_features or _FEATURES) / _FEATURES) ** (0.5 if name in _SQRT_FEATURES else 1.0)
    if name in _PER_CLASS and n_classes and n_classes > 2:
        b *= n_classes
    param = SCALED_BY.get(name)
    if reference and param in learner.get_params(deep=False):
        scale = (learner.get_params(deep=False)[param] or reference) / reference
        a, b = a * scale, b * scale
    return float(a), float(b), float(e)
