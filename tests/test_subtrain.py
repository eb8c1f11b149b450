"""Sub-trains: continuing a fitted model equals training it at once."""

import warnings

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
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression, SGDClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from sksel.training import Subtrainer, subtrain_kind

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
    assert subtrain_kind(MLPClassifier(), kind="max_iter") == "max_iter"
    with pytest.raises(ValueError, match=r"SVC cannot continue training.*partial_fit"):
        subtrain_kind(SVC())
    with pytest.raises(ValueError, match=r"subtrain_kind='n_estimators'"):
        subtrain_kind(SGDClassifier(), kind="n_estimators")



# --------------------------------------------- how much training, counted by the model
def _loss_curve(model):
    return len(model.loss_curve_)


def _n_iter(model):
    return int(np.max(model.n_iter_))


def _n_trees(model):
    return len(model.estimators_)


QUIET_MLP = MLPClassifier(hidden_layer_sizes=(8,), n_iter_no_change=10_000, random_state=0)
COUNTED = [
    (QUIET_MLP, "partial_fit", _loss_curve),
    (QUIET_MLP, "max_iter", _loss_curve),
    (HistGradientBoostingClassifier(early_stopping=False, random_state=0), "max_iter", _n_iter),
    (RandomForestClassifier(random_state=0), "n_estimators", _n_trees),
    (GradientBoostingClassifier(random_state=0), "n_estimators", _n_trees),
]


@pytest.mark.filterwarnings("error::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("estimator,kind,count", COUNTED,
                         ids=lambda c: getattr(c, "__name__", type(c).__name__))
def test_k_subtrains_train_k_units_counted_by_the_model(estimator, kind, count):
    """Epochs, iterations and trees after k sub-trains: k units each, no ConvergenceWarning."""
    subtrainer = Subtrainer(kind, 3, classes=CLASSES)
    model = subtrainer.first(clone(estimator), X, Y)
    for k in range(2, 5):
        model = subtrainer.next(model, X, Y)
        assert count(model) == 3 * k


def test_max_iter_of_a_solver_counts_per_call():
    """LogisticRegression restarts its count at each warm-started fit: `unit` iterations each."""
    hard = LogisticRegression(C=1e6, tol=0.0)
    subtrainer = Subtrainer(subtrain_kind(hard), 3)
    assert subtrainer.kind == "max_iter"
    model = subtrainer.first(clone(hard), X, Y)
    per_call = [_n_iter(model)]
    for _ in range(3):
        model = subtrainer.next(model, X, Y)
        per_call.append(_n_iter(model))
    assert per_call == [3, 3, 3, 3]
    assert model.max_iter == 3


@pytest.mark.parametrize("estimator,kind,count", COUNTED + [
    (LogisticRegression(C=1e6, tol=0.0), "max_iter", _n_iter),
    (make_pipeline(StandardScaler(), QUIET_MLP), "partial_fit", lambda p: _loss_curve(p[-1])),
], ids=lambda c: getattr(c, "__name__", type(c).__name__))
def test_released_model_is_a_plain_estimator_of_the_same_length(estimator, kind, count):
    subtrainer = Subtrainer(kind, 3, classes=CLASSES)
    model = subtrainer.first(clone(estimator), X, Y)
    model = subtrainer.released(subtrainer.next(model, X, Y), 2, estimator)
    name = subtrainer.length_param(estimator)
    assert model.get_params()[name] == 6
    assert {k: v for k, v in model.get_params().items() if k.endswith("warm_start")} == {
        k: v for k, v in estimator.get_params().items() if k.endswith("warm_start")}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # a plain fit stopped at 6 units
        refitted = clone(model).fit(X, Y)
        again = model.fit(X, Y)  # from scratch, not continued
    assert count(refitted) == count(again) == 6


def test_xgboost_rounds_count_and_release():
    xgboost = pytest.importorskip("xgboost")
    estimator = xgboost.XGBClassifier(random_state=0, n_jobs=1)
    subtrainer = Subtrainer("xgboost", 4)
    model = subtrainer.first(clone(estimator), X, Y)
    for k in range(2, 4):
        model = subtrainer.next(model, X, Y)
        assert model.get_booster().num_boosted_rounds() == 4 * k
    model = subtrainer.released(model, 3, estimator)
    assert model.n_estimators == 12
    assert clone(model).fit(X, Y).get_booster().num_boosted_rounds() == 12


def test_length_param_names_what_a_plain_fit_trains_by():
    assert Subtrainer("partial_fit", 1).length_param(SGDClassifier()) == "max_iter"
    assert Subtrainer("partial_fit", 1).length_param(GaussianNB()) is None
    pipe = make_pipeline(StandardScaler(), RandomForestClassifier())
    assert Subtrainer("n_estimators", 5).length(pipe, 3) == {
        "randomforestclassifier__n_estimators": 15}


def test_histgradientboosting_bins_each_fold_once_and_fits_the_same_trees(monkeypatch):
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.ensemble._hist_gradient_boosting.binning import _BinMapper

    from sksel.training import subtrain

    X, y = load_iris(return_X_y=True)
    other = X[::-1].copy()

    def subtrained(rows, labels):
        subtrainer = Subtrainer("max_iter", unit=3)
        model = subtrainer.first(
            HistGradientBoostingClassifier(early_stopping=False, random_state=0), rows, labels)
        for _ in range(4):
            model = subtrainer.next(model, rows, labels)
        return model

    monkeypatch.setattr(subtrain, "_BINNED_KEPT", 0)  # every fit bins, as without sharing
    subtrain._BINNED.clear()
    unshared = [subtrained(X, y), subtrained(other, y[::-1])]
    monkeypatch.setattr(subtrain, "_BINNED_KEPT", 8)
    fits = []
    original = _BinMapper.fit_transform

    def counted(self, *args, **kwargs):
        fits.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(_BinMapper, "fit_transform", counted)
    shared = [subtrained(X, y), subtrained(X, y), subtrained(other, y[::-1])]
    assert len(fits) == 2  # 15 fits on two sets of rows
    for model, expected, rows in zip(shared[1:], unshared, (X, other)):
        np.testing.assert_array_equal(model.predict_proba(rows), expected.predict_proba(rows))
        assert len(model._predictors) == len(expected._predictors) == 15
    assert "_bin_data" not in vars(shared[0])

