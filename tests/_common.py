"""What the search test modules share: fit-counting estimators."""

from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin


class CountingClassifier(ClassifierMixin, BaseEstimator):
    """Counts its fits (class attribute); never meant to be fitted in a test."""

    n_fits = 0

    def __init__(self, C=1.0):
        self.C = C

    def fit(self, X, y):
        type(self).n_fits += 1
        raise AssertionError("fit must not be called")


class CountingRegressor(RegressorMixin, BaseEstimator):
    """Counts its fits (class attribute); never meant to be fitted in a test."""

    n_fits = 0

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def fit(self, X, y):
        type(self).n_fits += 1
        raise AssertionError("fit must not be called")
