"""The checks of a fit's input: targets, policy, classes, the estimators metadata goes to."""

import numpy as np
import pytest
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sksel._core.validation import (
    check_policy,
    check_targets,
    count_classes,
    is_1d,
    routed_estimators,
)
from sksel.extend import Policy


def test_targets_with_nan_or_infinity_are_refused():
    with pytest.raises(ValueError, match="y contains NaN or infinity"):
        check_targets([0.0, np.nan, 1.0])
    with pytest.raises(ValueError, match="y contains NaN or infinity"):
        check_targets(np.array([1.0, np.inf]))


def test_targets_need_two_samples():
    with pytest.raises(ValueError, match="n_samples = 1"):
        check_targets([1])


def test_no_targets_and_class_labels_pass():
    check_targets(None)
    check_targets(np.array(["a", "b", "a"], dtype=object))


def test_a_policy_must_derive_from_the_contract():
    class NotAPolicy:
        def ask(self, n_actions=1):
            return []

    with pytest.raises(TypeError, match="MySearch's policy NotAPolicy does not derive"):
        check_policy(NotAPolicy(), "MySearch")
    check_policy(Policy(), "MySearch")


def test_classes_are_the_distinct_values_or_rows():
    assert count_classes([0, 1, 1, 2]) == 3
    assert count_classes(np.array([[0, 1], [0, 1], [1, 0]])) == 2


def test_only_a_vector_is_one_dimensional():
    assert is_1d([0, 1]) and not is_1d(np.zeros((2, 2))) and not is_1d(None)


def test_metadata_goes_to_each_estimator_of_a_list_by_position():
    tree, nb = DecisionTreeClassifier(), GaussianNB()
    assert routed_estimators(nb) == [("estimator", nb)]
    assert routed_estimators([(tree, {"max_depth": [1, 2]}), nb]) == [
        ("estimator_0", tree), ("estimator_1", nb)]
