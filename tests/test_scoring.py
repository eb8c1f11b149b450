"""The scale the curve models read a scorer on: errors and losses mapped to skills, fold by fold."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_regression
from sklearn.dummy import DummyRegressor
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import (
    brier_score_loss,
    get_scorer,
    log_loss,
    mean_absolute_error,
    r2_score,
)
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsRegressor
from sklearn.pipeline import Pipeline
from sklearn.tree import DecisionTreeRegressor

from sksel import DAUBSearch, GPUCBSelector
from sksel._core.scoring import ShareOfError, curve_scale
from sksel._core.simulate import simulate
from sksel.curves.gap_model import shipped_model
from sksel.daub import RungPolicy


def _scale(scoring, estimator, n_classes=None):
    return curve_scale(get_scorer(scoring), None, estimator, n_classes)


def _fold(seed=0, n=200):
    rng = np.random.RandomState(seed)
    y = rng.gamma(2.0, 3.0, size=n)
    return y, y + rng.normal(scale=2.0, size=n)


@pytest.mark.parametrize("scoring", ["neg_mean_squared_error", "neg_root_mean_squared_error"])
def test_a_squared_error_reads_as_the_folds_r2(scoring):
    """Exact within a fold: 1 - MSE / Var(y) is sklearn's R² of the same predictions."""
    scale = _scale(scoring, Ridge())
    scores, targets, r2 = [], [], []
    for seed in range(3):
        y, pred = _fold(seed)
        scores.append(get_scorer(scoring)._sign * get_scorer(scoring)._score_func(y, pred))
        targets.append(y)
        r2.append(r2_score(y, pred))
    assert scale.kind == "r2" and scale.mapped
    np.testing.assert_allclose(scale.read(scores, targets), r2, rtol=1e-12)


def test_an_absolute_error_reads_as_its_squared_skill_over_the_median():
    """1 - (MAE / MAE0)², MAE0 the median's: for Gaussian residuals about the R²."""
    y, pred = _fold()
    score = -mean_absolute_error(y, pred)
    median = mean_absolute_error(y, np.full_like(y, np.median(y)))
    [skill] = _scale("neg_mean_absolute_error", Ridge()).read([score], [y])
    assert skill == pytest.approx(1 - (mean_absolute_error(y, pred) / median) ** 2)
    rng = np.random.RandomState(0)
    y = rng.normal(size=200_000)
    pred = 0.8 * y + rng.normal(scale=0.6, size=y.size)  # R² 0.64
    [skill] = _scale("neg_mean_absolute_error", Ridge()).read(
        [-mean_absolute_error(y, pred)], [y])
    assert skill == pytest.approx(r2_score(y, pred), abs=0.01)
    # The median is the best constant: its skill is 0, any other constant's below.
    [constant] = _scale("neg_mean_absolute_error", Ridge()).read(
        [-mean_absolute_error(y, np.full_like(y, y.mean()))], [y])
    assert constant < 0


@pytest.mark.parametrize("scoring, loss", [("neg_log_loss", log_loss),
                                           ("neg_brier_score", brier_score_loss)])
def test_a_classifiers_loss_reads_as_its_skill_over_the_class_frequencies(scoring, loss):
    """The baseline is the loss of predicting the fold's class frequencies: skill 0."""
    rng = np.random.RandomState(0)
    y = (rng.uniform(size=300) < 0.3).astype(int)
    proba = np.clip(0.3 + 0.5 * (y - 0.3) + rng.normal(scale=0.1, size=300), 0.01, 0.99)
    scale = _scale(scoring, LogisticRegression(), n_classes=2)
    [skill] = scale.read([-loss(y, proba)], [y])
    prior = np.full(300, y.mean())
    assert skill == pytest.approx(1 - loss(y, proba) / loss(y, prior))
    assert scale.read([-loss(y, prior)], [y]) == pytest.approx([0.0], abs=1e-12)


def test_scores_read_as_they_are_and_unknown_ones():
    assert not _scale("accuracy", LogisticRegression(), n_classes=2).mapped
    assert _scale("roc_auc", LogisticRegression(), n_classes=2).kind == "accuracy"
    assert _scale("r2", Ridge()).kind == "r2"
    # No map: a median error, a regressor's log loss, a classifier's squared error.
    assert _scale("neg_median_absolute_error", Ridge()) is None
    assert _scale("neg_mean_squared_error", LogisticRegression(), n_classes=2) is None
    # A failed fit's error_score stays as it is.
    scale = _scale("neg_mean_squared_error", Ridge())
    assert np.isnan(scale.read([np.nan], [np.arange(5.0)])[0])


def _regression():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(3000, 8))
    y = X @ rng.normal(size=8) + 0.5 * rng.normal(size=3000) + 0.3 * X[:, 0] ** 2
    learners = [Ridge(), DummyRegressor(), DecisionTreeRegressor(max_depth=2, random_state=0),
                DecisionTreeRegressor(random_state=0), KNeighborsRegressor(),
                RandomForestRegressor(10, random_state=0)]
    return X, y, learners, list(KFold(5, shuffle=True, random_state=0).split(X))


def test_daub_scored_by_rmse_decides_as_by_mse_at_twice_the_tol():
    """Each fold's RMSE and MSE map to its R² exactly, and a share q of an RMSE is about 2q of
    the MSE: the rungs drop the same learners and use the same evaluations; the pick is
    GridSearchCV's over the same folds and scorer."""
    X, y, learners, folds = _regression()
    by_mse = DAUBSearch(learners, scoring="neg_mean_squared_error", tol=0.01, cv=folds,
                        random_state=0).fit(X, y)
    by_rmse = DAUBSearch(learners, scoring="neg_root_mean_squared_error", tol=0.005, cv=folds,
                         random_state=0).fit(X, y)
    assert isinstance(by_rmse.policy_, RungPolicy) and by_rmse.policy_.model.kind == "r2"
    assert by_rmse.policy_.dropped_ and by_rmse.policy_.dropped_ == by_mse.policy_.dropped_
    assert by_rmse.policy_.decisions_ == by_mse.policy_.decisions_
    grid = GridSearchCV(Pipeline([("estimator", learners[0])]), {"estimator": learners},
                        scoring="neg_root_mean_squared_error", cv=folds).fit(X, y)
    assert by_rmse.best_index_ == grid.best_index_
    assert by_rmse.best_score_ == pytest.approx(grid.best_score_)
    # cv_results_ holds the scorer's scores, not the skills.
    assert np.nanmax(by_rmse.cv_results_["mean_test_score"]) < 0


def test_gpucb_scored_by_a_squared_error_reads_the_regression_prior_as_by_r2():
    """Without a stop (n_iter set), the scores told are the folds' R²: the same posterior."""
    X, y, learners, folds = _regression()
    by_r2 = GPUCBSelector(learners, n_iter=4, cv=folds, random_state=0).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning that the prior knows too few learners
        by_mse = GPUCBSelector(learners, scoring="neg_mean_squared_error", n_iter=4, cv=folds,
                               random_state=0).fit(X, y)
    assert by_mse.prior_ == by_r2.prior_ == "regression"
    assert by_mse.prior_match_ == by_r2.prior_match_
    np.testing.assert_allclose(by_mse.posterior_mean_, by_r2.posterior_mean_, rtol=1e-9)
    assert by_mse.best_index_ == by_r2.best_index_


def test_an_errors_tol_is_a_share_of_the_leaders_error():
    """Near a perfect fit, half a point of R² is a large share of the error: a share of it
    keeps a learner a fixed tol would drop. The rung's leader scores 0.99; #2, outside
    halving's top third, 0.984."""
    curves = {0: 0.99, 1: 0.989, 2: 0.984, 3: 0.5, 4: 0.4, 5: 0.3}
    probabilities = {}
    for name, tol in [("points", 0.005), ("share", ShareOfError(0.005, 2.0))]:
        policy = RungPolicy(6, [30, 90, 270], model=shipped_model("r2"), threshold=0.05,
                            n_validation=300, tol=tol, first_cut=True)
        simulate(policy, lambda c, s: curves[c])
        probabilities[name] = policy.probabilities_[2, 30]
    assert probabilities["share"] > probabilities["points"]
    assert ShareOfError(0.005, 2.0)(0.99) == pytest.approx(2 * 0.005 * 0.01)


def test_gpucb_scored_by_log_loss_keeps_the_kernel_prior_and_says_why():
    """The classifiers' priors hold accuracies, not log-loss skills: the kernel prior, and
    a warning that names the scorer, not the learners."""
    X, y = make_classification(600, 10, random_state=0)
    learners = [LogisticRegression(), GaussianNB(), RandomForestClassifier(20, random_state=0)]
    with pytest.warns(UserWarning, match="no earlier scores of log_loss"):
        search = GPUCBSelector(learners, scoring="neg_log_loss", cv=3, random_state=0).fit(X, y)
    assert search.prior_ == "kernel"


def test_gpucb_warns_of_a_scorer_without_prior_by_its_name():
    X, y = make_regression(300, 5, noise=1.0, random_state=0)
    with pytest.warns(UserWarning, match="no earlier scores of median_absolute_error"):
        GPUCBSelector([Ridge(), DecisionTreeRegressor(random_state=0), KNeighborsRegressor()],
                      scoring="neg_median_absolute_error", cv=3, random_state=0).fit(X, y)


def test_the_header_gives_tol_in_the_scorers_units(capsys):
    """For an error, tol is a share of the leader's error; the header gives the baseline's
    error on the targets: their standard deviation (RMSE), the median's MAE."""
    X, y, learners, folds = _regression()
    headers = {}
    for scoring in ("neg_root_mean_squared_error", "neg_mean_absolute_error"):
        DAUBSearch(learners[:3], scoring=scoring, cv=folds, random_state=0, verbose=1).fit(X, y)
        headers[scoring] = capsys.readouterr().out.splitlines()[0]
    assert ("tol=0.005: 0.5% of the leader's RMSE" in headers["neg_root_mean_squared_error"]
            and f"RMSE on these targets is {np.std(y):.4g}"
            in headers["neg_root_mean_squared_error"])
    assert (f"MAE on these targets is {np.mean(np.abs(y - np.median(y))):.4g}"
            in headers["neg_mean_absolute_error"])
