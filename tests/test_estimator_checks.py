"""scikit-learn's estimator checks on every search of the registry, classifier and regressor."""

import inspect
import warnings

from _registry import CASES
from sklearn.exceptions import ConvergenceWarning, FitFailedWarning
from sklearn.linear_model import Ridge
from sklearn.utils.estimator_checks import parametrize_with_checks


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


#: An expected failure that passes is an error (scikit-learn >= 1.7 can say so).
STRICT = ({"xfail_strict": True}
          if "xfail_strict" in inspect.signature(parametrize_with_checks).parameters else {})


@parametrize_with_checks(
    [search for case in CASES for search in case.checks()],
    expected_failed_checks=expected_failed_checks,
    **STRICT,
)
def test_sklearn_compatible(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FitFailedWarning)
        # The checks fit on a few dozen rows, too few for DAUB's subsample sizes, and give
        # LogisticRegression too few iterations to converge.
        warnings.filterwarnings("ignore", "The training folds .* leave no rung", UserWarning)
        warnings.filterwarnings("ignore", "The subsample sizes .* hold fewer than two",
                                UserWarning)
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)
