"""The private scikit-learn and joblib names sksel relies on, in one place.

sksel's searches are scikit-learn meta-estimators and reuse its own machinery
where a public equivalent does not exist: the fit-and-score of one split, the
multimetric scorer, parameter validation, metadata routing. These names can
move between scikit-learn releases; importing them here only means a new
release is adapted to in one file (and :mod:`~sksel._core.dask`, which
extends joblib's dask backend, imported only once dask is the active
backend). The lowest
scikit-learn supported is the one ``pyproject.toml`` declares, and continuous
integration runs the test suite against it too.
"""

from joblib._parallel_backends import ThreadingBackend
from joblib.parallel import get_active_backend
from sklearn import get_config
from sklearn.base import _fit_context
from sklearn.metrics._scorer import (
    _check_multimetric_scoring,
    _MultimetricScorer,
    _PassthroughScorer,
)
from sklearn.model_selection._search import BaseSearchCV
from sklearn.model_selection._validation import (
    _fit_and_score,
    _insert_error_scores,
    _score,
    _warn_or_raise_about_fit_failures,
)
from sklearn.utils._optional_dependencies import check_matplotlib_support
from sklearn.utils._param_validation import (
    HasMethods,
    Hidden,
    Interval,
    StrOptions,
    validate_params,
)
from sklearn.utils.metadata_routing import _routing_enabled
from sklearn.utils.metaestimators import _safe_split
from sklearn.utils.validation import _check_method_params, _num_samples


def check_parameters(estimator):
    """Check the parameters of `estimator` as its ``fit`` would, before any training.

    A scikit-learn estimator's ``partial_fit`` checks them at its first call
    only, so a fitted model given new parameters would go on with values its
    ``fit`` rejects. Estimators that declare no constraints (those outside
    scikit-learn) pass unchecked, as does everything under scikit-learn's
    ``skip_parameter_validation``.

    Raises
    ------
    InvalidParameterError
        A parameter breaks its constraints (a ``ValueError`` and a ``TypeError``).
    """
    if hasattr(estimator, "_parameter_constraints") and not get_config()[
            "skip_parameter_validation"]:
        estimator._validate_params()


__all__ = [
    "BaseSearchCV",
    "HasMethods",
    "Hidden",
    "Interval",
    "StrOptions",
    "ThreadingBackend",
    "_MultimetricScorer",
    "_PassthroughScorer",
    "_check_method_params",
    "_check_multimetric_scoring",
    "_fit_and_score",
    "_fit_context",
    "_insert_error_scores",
    "_num_samples",
    "_routing_enabled",
    "_safe_split",
    "_score",
    "_warn_or_raise_about_fit_failures",
    "check_matplotlib_support",
    "check_parameters",
    "get_active_backend",
    "validate_params",
]
