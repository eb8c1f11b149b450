"""The n_samples resource: nested, stratified subsamples of the training folds."""

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.model_selection import KFold, StratifiedKFold

from sksel.training import RowsTrainer, nested_permutation


def _prefix_counts(y, order):
    """counts[n - 1, k]: rows of class k among the first n rows of `order`."""
    classes = np.unique(y)
    return (y[order][:, None] == classes[None, :]).cumsum(axis=0)


def _max_prefix_deviation(y, order, start=1):
    """max over prefixes n >= start and classes c of |count_c(n) - n * n_c / N|."""
    _, counts = np.unique(y, return_counts=True)
    n = np.arange(1, len(y) + 1)[:, None]
    deviation = np.abs(_prefix_counts(y, order) - n * counts / len(y))
    return deviation[start - 1 :].max()


CLASS_COUNTS = [
    [50, 50, 50],  # iris
    [8, 4],
    [90, 10],
    [97, 3],
    [1, 50],
    [10] * 10,
]


@pytest.mark.parametrize("counts", CLASS_COUNTS)
@pytest.mark.parametrize("seed", range(5))
def test_nested_permutation_is_a_permutation_with_fair_prefixes(counts, seed):
    rng = np.random.RandomState(seed)
    y = rng.permutation(np.repeat(np.arange(len(counts)), counts))
    order = nested_permutation(y, random_state=seed)
    assert sorted(order) == list(range(len(y)))
    # Brute force over every prefix length n.
    assert _max_prefix_deviation(y, order) <= 1.0
    # The first n_classes rows hold every class.
    assert set(y[order[: len(counts)]]) == set(range(len(counts)))


def test_nested_permutation_string_labels_and_iris():
    _, y = load_iris(return_X_y=True)
    labels = np.array(["setosa", "versicolor", "virginica"])[y]
    order = nested_permutation(labels, random_state=0)
    assert _max_prefix_deviation(labels, order) <= 1.0
    assert set(labels[order[:3]]) == set(labels)


def test_nested_permutation_imbalanced_multiclass_prefixes():
    y = np.repeat([0, 1, 2], [60, 30, 10])
    order = nested_permutation(y, random_state=0)
    # Beyond the first rows (which hold one row of every class by design).
    assert _max_prefix_deviation(y, order, start=len(np.unique(y))) <= 1.0


def test_nested_permutation_reproducible():
    y = np.repeat([0, 1, 2], [30, 20, 10])
    a = nested_permutation(y, random_state=3)
    b = nested_permutation(y, random_state=3)
    c = nested_permutation(y, random_state=4)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    # A RandomState is consumed like a seed would be.
    np.testing.assert_array_equal(nested_permutation(y, np.random.RandomState(3)), a)


def test_nested_permutation_not_stratified_is_plain_permutation():
    y = np.repeat([0, 1], [50, 50])
    order = nested_permutation(y, random_state=0, stratify=False)
    np.testing.assert_array_equal(order, np.random.RandomState(0).permutation(100))


# -------------------------------------------------------------- RowsTrainer


def _resource(stratify=True, cv=None, n=90, seed=0):
    rng = np.random.RandomState(seed)
    y = rng.randint(0, 3, size=n)
    X = np.zeros((n, 1))
    cv = cv if cv is not None else StratifiedKFold(3, shuffle=True, random_state=0)
    splits = list(cv.split(X, y))
    n_total = min(len(train) for train, _ in splits)
    sizes = [10, 20, 40, n_total]
    return RowsTrainer(splits, y, sizes, stratify=stratify, random_state=seed), splits, y


@pytest.mark.parametrize("stratify", [True, False])
def test_split_nested_and_validation_untouched(stratify):
    resource, splits, y = _resource(stratify)
    previous = [set() for _ in splits]
    for size in resource.sizes:
        cut = resource.split(size)
        assert len(cut) == len(splits)
        for k, ((train, test), (full_train, full_test)) in enumerate(zip(cut, splits)):
            np.testing.assert_array_equal(test, full_test)  # validation fold unchanged
            assert set(train) <= set(full_train)  # only training rows
            assert previous[k] <= set(train)  # nested across sizes
            if size < resource.max_resources:
                assert len(train) == size
                assert len(set(train)) == size
            previous[k] = set(train)


def test_split_stratified_subsamples():
    resource, splits, y = _resource(stratify=True)
    for size in resource.sizes[:-1]:
        for (train, _), (full_train, _) in zip(resource.split(size), splits):
            classes, full_counts = np.unique(y[full_train], return_counts=True)
            counts = np.array([np.sum(y[train] == c) for c in classes])
            assert np.all(np.abs(counts - size * full_counts / len(full_train)) <= 1)


def test_split_full_size_returns_original_folds():
    # Unequal folds (100 rows, 3 folds: train parts of 66/67/67 rows): at the
    # largest size every fold keeps its whole training part, in original order.
    resource, splits, _ = _resource(cv=KFold(3), n=100)
    assert resource.max_resources == 66
    for size in (66, 1000):
        for (train, test), (full_train, full_test) in zip(resource.split(size), splits):
            np.testing.assert_array_equal(train, full_train)
            np.testing.assert_array_equal(test, full_test)


def test_split_reproducible_and_levels():
    a, _, _ = _resource(seed=5)
    b, _, _ = _resource(seed=5)
    for (ta, _), (tb, _) in zip(a.split(20), b.split(20)):
        np.testing.assert_array_equal(ta, tb)
    assert [a.iter_of(s) for s in a.sizes] == list(range(len(a.sizes)))
