"""What the search test modules share: fit-counting estimators, allowed check failures."""

from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.linear_model import Ridge


def expected_failed_checks(search):
    """The estimator checks a search around `search.estimator` may fail.

    sklearn lets its own searches fail these (PER_ESTIMATOR_XFAIL_CHECKS in
    sklearn/utils/_test_common/instance_generator.py); only those that do fail
    are listed. A search copies the estimator's type, classifier, regressor
    and input tags but not ``target_tags.multi_output``, so
    ``check_supervised_y_2d`` expects a DataConversionWarning for a
    column-vector y that Ridge (multi-output) accepts.
    """
    if isinstance(search.estimator, Ridge):
        return {"check_supervised_y_2d": "DataConversionWarning not caught (as GridSearchCV)"}
    return {}


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
