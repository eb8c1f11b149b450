"""A search's scorers: one or several metrics, the one that drives the policy, the scale."""

import numpy as np
import pytest
from sklearn.linear_model import Ridge
from sklearn.metrics import accuracy_score, mean_squared_error
from sklearn.naive_bayes import GaussianNB

from sksel import KDPPSearch


def _search(estimator=None, **params):
    estimator = GaussianNB() if estimator is None else estimator
    return KDPPSearch(estimator, {"var_smoothing": [1e-9, 1e-8]}, **params)


def test_one_scorer_ranks_by_score():
    scorer, metric = _search(scoring="accuracy")._get_scorers()
    assert metric == "score" and callable(scorer)


def test_among_several_metrics_refit_names_the_one_that_drives():
    _, metric = _search(scoring=["accuracy", "f1_macro"], refit="f1_macro")._get_scorers()
    assert metric == "f1_macro"


def test_several_metrics_without_a_named_refit_are_refused():
    with pytest.raises(ValueError, match="refit must name it"):
        _search(scoring=["accuracy", "f1_macro"], refit=False)._get_scorers()


def test_a_callable_refit_lets_the_first_metric_drive():
    search = _search(scoring=["f1_macro", "accuracy"], refit=lambda results: 0)
    assert search._get_scorers()[1] == "f1_macro"


def test_a_callable_scoring_that_returns_a_dict_is_read_by_refit():
    search = _search(scoring=lambda est, X, y: {"a": 1.0, "b": 0.5}, refit="b")
    outputs = [{"fit_error": "failed", "test_scores": np.nan},
               {"fit_error": None, "test_scores": {"a": 1.0, "b": 0.5}}]
    assert search._callable_metric(outputs, "score") == "b"
    assert search._callable_metric(outputs[1:], "a") == "a"


def test_the_driving_metric_and_its_sign():
    assert _search(scoring="accuracy")._ranking_metric() == (accuracy_score, 1)
    search = _search(Ridge(), scoring="neg_mean_squared_error")
    assert search._ranking_metric() == (mean_squared_error, -1)


def test_without_a_scale_tol_is_read_as_given():
    search = _search()
    search._scale_ = None
    assert search._policy_tol(0.01) == 0.01 and search._policy_tol(None) is None
    assert search._tol_words(0.01) == "tol=0.01"
    assert search._curve_kind() is None


def test_accuracy_of_a_classifier_lies_in_the_unit_interval():
    assert _search(scoring="accuracy")._unit_scored_classifier(3)
    assert not _search(Ridge(), scoring="neg_mean_squared_error")._unit_scored_classifier(None)
