"""Sub-trains: continuing a fitted model equals training it at once."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_iris
from sklearn.ensemble import (
    ExtraTreesClassifier,
    GradientBoostingClassifier,
    HistGradientBoostingClassifier,
    RandomForestClassifier,
)
from sklearn.linear_model import SGDClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from sksel.resources import Subtrainer, subtrain_kind

X, Y = load_iris(return_X_y=True)
CLASSES = np.unique(Y)


def _subtrained(estimator, kind, unit, n):
    subtrainer = Subtrainer(kind, unit, classes=CLASSES)
    model = subtrainer.first(clone(estimator), X, Y)
    for _ in range(n - 1):
        model = subtrainer.next(model, X, Y)
    return model


CASES = [
    (SGDClassifier(loss="log_loss", random_state=0), "partial_fit"),
    (MLPClassifier(hidden_layer_sizes=(8,), random_state=0), "partial_fit"),
    (GaussianNB(), "partial_fit"),
    (RandomForestClassifier(random_state=0), "n_estimators"),
    (ExtraTreesClassifier(random_state=0), "n_estimators"),
    (GradientBoostingClassifier(random_state=0), "n_estimators"),
    (HistGradientBoostingClassifier(random_state=0), "max_iter"),
]


@pytest.mark.parametrize("estimator,kind", CASES, ids=lambda c: type(c).__name__)
def test_k_subtrains_of_one_unit_equal_one_subtrain_of_k(estimator, kind):
    assert subtrain_kind(estimator) == kind
    step = _subtrained(estimator, kind, unit=2, n=3)
    once = _subtrained(estimator, kind, unit=6, n=1)
    np.testing.assert_array_equal(step.predict_proba(X), once.predict_proba(X))


@pytest.mark.parametrize("estimator,kind", CASES[3:], ids=lambda c: type(c).__name__)
def test_warm_start_subtrains_equal_a_plain_fit(estimator, kind):
    """Trees and iterations added by sub-trains: the model a plain fit of all of them gives."""
    step = _subtrained(estimator, kind, unit=5, n=3)
    plain = clone(estimator).set_params(**{kind: 15}).fit(X, Y)
    np.testing.assert_allclose(step.predict_proba(X), plain.predict_proba(X))


def test_partial_fit_continues_instead_of_restarting():
    sgd = SGDClassifier(random_state=0)
    two = _subtrained(sgd, "partial_fit", unit=1, n=2)
    one = _subtrained(sgd, "partial_fit", unit=1, n=1)
    assert two.t_ > one.t_
    assert not np.array_equal(two.coef_, one.coef_)


def test_xgboost_rounds_continue_the_booster():
    xgboost = pytest.importorskip("xgboost")
    model = xgboost.XGBClassifier(random_state=0, n_jobs=1)
    assert subtrain_kind(model) == "xgboost"
    step = _subtrained(model, "xgboost", unit=4, n=3)
    plain = clone(model).set_params(n_estimators=12).fit(X, Y)
    assert step.get_booster().num_boosted_rounds() == 12
    np.testing.assert_allclose(step.predict_proba(X), plain.predict_proba(X), rtol=1e-6)


def test_pipeline_fits_the_head_once_and_subtrains_the_last_step():
    pipe = make_pipeline(StandardScaler(), MLPClassifier(hidden_layer_sizes=(8,), random_state=0))
    assert subtrain_kind(pipe) == "partial_fit"
    step = _subtrained(pipe, "partial_fit", unit=1, n=4)
    scaled = StandardScaler().fit_transform(X)
    alone = MLPClassifier(hidden_layer_sizes=(8,), random_state=0)
    for _ in range(4):
        alone.partial_fit(scaled, Y, classes=CLASSES)
    np.testing.assert_array_equal(step.predict_proba(X), alone.predict_proba(scaled))


def test_named_resource_and_clear_error():
    assert subtrain_kind(MLPClassifier(), resource="max_iter") == "max_iter"
    with pytest.raises(ValueError, match=r"SVC cannot continue training.*partial_fit"):
        subtrain_kind(SVC())
    with pytest.raises(ValueError, match=r"resource='n_estimators'"):
        subtrain_kind(SGDClassifier(), resource="n_estimators")

