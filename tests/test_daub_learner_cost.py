"""The shipped costs of learners, scaled to the data and the parameters."""

import csv

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from sksel.daub.learner_cost import COST_TABLE, predicted_cost


def _row(name):
    with open(COST_TABLE, newline="") as f:
        return next(r for r in csv.DictReader(f) if r["learner"] == name)


def test_the_table_read_at_its_own_data():
    row = _row("SVC")
    assert predicted_cost(SVC(), 20, 2) == pytest.approx(
        (float(row["a"]), float(row["b"]), float(row["e"])))


def test_a_pipeline_costs_what_its_last_step_costs():
    assert predicted_cost(make_pipeline(StandardScaler(), SVC()), 20) == predicted_cost(SVC(), 20)


def test_features_scale_the_rows_part_and_not_the_overhead():
    a1, b1, e1 = predicted_cost(LogisticRegression(), 20)
    a2, b2, e2 = predicted_cost(LogisticRegression(), 80)
    assert (a2, e2) == (a1, e1) and b2 == pytest.approx(4 * b1)
    # A forest of classifiers tries the square root of the features at each split.
    _, f1, _ = predicted_cost(RandomForestClassifier(), 20)
    _, f2, _ = predicted_cost(RandomForestClassifier(), 80)
    assert f2 == pytest.approx(2 * f1)


def test_boosting_grows_a_tree_per_class_and_per_round():
    _, two, _ = predicted_cost(HistGradientBoostingClassifier(), 20, 2)
    _, five, _ = predicted_cost(HistGradientBoostingClassifier(), 20, 5)
    _, half, _ = predicted_cost(HistGradientBoostingClassifier(max_iter=50), 20, 2)
    assert five == pytest.approx(5 * two) and half == pytest.approx(two / 2)


def test_an_unknown_learner_costs_the_median_of_the_table():
    class Mine(ClassifierMixin, BaseEstimator):
        pass

    with open(COST_TABLE, newline="") as f:
        rows = list(csv.DictReader(f))
    medians = [float(np.median([float(r[k]) for r in rows])) for k in "abe"]
    assert predicted_cost(Mine(), 20) == pytest.approx(medians)
