"""``prior="auto"``: the shipped priors' knowledge of the learners a user passes."""

import math
import warnings

import numpy as np
import pytest
from _common import CountingClassifier
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from sksel import GPUCBSelector
from sksel.gpucb import prior_from_scores
from sksel.gpucb.known import _table, known_prior, learner_family
from sksel.gpucb.portfolio import (
    default_portfolio,
    default_prior,
    lcdb_portfolio,
    lcdb_prior,
    regression_prior,
)

CV3 = StratifiedKFold(3, shuffle=True, random_state=0)


@pytest.mark.parametrize("portfolio, read_prior, name", [
    (default_portfolio, default_prior, "default"), (lcdb_portfolio, lcdb_prior, "lcdb")])
def test_a_shipped_portfolio_is_matched_exactly_to_its_own_prior(portfolio, read_prior, name):
    estimators = [e for _, e in portfolio()]
    prior = known_prior(estimators, np.eye(len(estimators)))
    mean, cov = prior_from_scores(read_prior()[1])
    assert prior.name == name and prior.match == ["exact"] * len(estimators)
    assert prior.columns == [n for n, _ in portfolio()]
    np.testing.assert_allclose(prior.mean, mean)
    np.testing.assert_allclose(prior.cov, cov, rtol=1e-9, atol=1e-12)


def test_a_variant_of_a_shipped_learner_gets_variance_by_its_distance_from_it():
    forest = RandomForestClassifier(n_estimators=30, random_state=0)
    learners = [LinearDiscriminantAnalysis(), GaussianNB(), forest]
    prior = known_prior(learners, np.eye(3))
    names, _, scores, _, per_unit = _table("default")
    mean, cov = prior_from_scores(scores)
    j = names.index("random_forest")
    assert prior.columns[2] == "random_forest" and prior.match == ["exact", "exact", "family"]
    # one parameter off by log10(100 / 30) decades: that many units of extra variance
    assert prior.cov[2, 2] == pytest.approx(cov[j, j] + per_unit * math.log10(100 / 30))
    assert prior.mean[2] == pytest.approx(mean[j])
    # the extra variance is its own: its covariances with the others are the column's
    assert prior.cov[0, 2] == pytest.approx(cov[names.index("lda"), j])


def test_other_preprocessing_is_a_family_match_one_unit_away():
    prior = known_prior([LinearDiscriminantAnalysis(), make_pipeline(StandardScaler(),
                                                                     GaussianNB())],
                        np.eye(2))
    _, _, _, _, per_unit = _table("default")
    assert prior.match == ["exact", "family"]
    assert prior.cov[1, 1] - prior_from_scores(default_prior()[1])[1][11, 11] \
        == pytest.approx(per_unit)


def test_an_unknown_learner_gets_the_shipped_mean_and_more_variance_than_any():
    learners = [LogisticRegression(), GaussianNB(), CountingClassifier()]
    prior = known_prior(learners, np.eye(3))
    table_mean, table_cov = prior_from_scores(default_prior()[1])
    assert prior.match[2] == "unknown" and prior.columns[2] is None
    assert prior.mean[2] == pytest.approx(table_mean.mean())
    assert prior.cov[2, 2] >= np.diag(table_cov).max() - 1e-12
    assert np.all(np.isnan(prior.scores[:, 2]))
    assert np.linalg.eigvalsh(prior.cov).min() > 0


def test_the_prior_that_matches_more_learners_is_used():
    from sklearn.linear_model import Perceptron, RidgeClassifier
    prior = known_prior([Perceptron(), RidgeClassifier(), LogisticRegression()], np.eye(3))
    assert prior.name == "lcdb" and prior.match == ["exact"] * 3


def test_no_known_prior_where_fewer_than_two_learner_classes_are_matched():
    grid = [LogisticRegression(C=c) for c in (0.01, 1.0, 100.0)]  # three shipped columns
    assert known_prior(grid, np.eye(3)) is None
    assert known_prior([CountingClassifier(), CountingClassifier()], np.eye(2)) is None
    assert known_prior([LogisticRegression(), CountingClassifier()], np.eye(2)) is None


def test_learner_family_is_the_last_step():
    inner = make_pipeline(StandardScaler(), KNeighborsClassifier())
    assert learner_family(make_pipeline(StandardScaler(), inner)) == "KNeighborsClassifier"


def test_auto_on_the_default_portfolio_is_the_default_prior():
    X, y = load_breast_cancer(return_X_y=True)
    learners = [e for _, e in default_portfolio()]
    kwargs = dict(cv=CV3, random_state=0, looks=False)
    auto = GPUCBSelector(learners, **kwargs).fit(X, y)
    shipped = GPUCBSelector(learners, prior="default", **kwargs).fit(X, y)
    assert auto.prior_ == "default" and auto.prior_match_ == ["exact"] * 25
    assert auto.cv_results_["candidate_id"].tolist() == \
        shipped.cv_results_["candidate_id"].tolist()
    np.testing.assert_allclose(auto.posterior_mean_, shipped.posterior_mean_)


def test_auto_over_a_list_of_known_learners_scores_them_as_the_grid_does():
    X, y = load_breast_cancer(return_X_y=True)
    learners = [make_pipeline(StandardScaler(), LogisticRegression()), GaussianNB(),
                DecisionTreeClassifier(random_state=0), KNeighborsClassifier(),
                RandomForestClassifier(30, random_state=0)]
    with warnings.catch_warnings():  # no kernel warning: the prior knows them
        warnings.filterwarnings("error", message=".*shares nothing")
        auto = GPUCBSelector(learners, cv=CV3, random_state=0).fit(X, y)
    grid = GridSearchCV(Pipeline([("estimator", learners[0])]), {"estimator": learners},
                        cv=CV3).fit(X, y)
    assert auto.prior_ == "default" and auto.beta_scale_ == pytest.approx(0.3)
    assert auto.prior_match_ == ["exact", "exact", "exact", "family", "family"]
    for c, score in zip(auto.cv_results_["candidate_id"], auto.cv_results_["mean_test_score"]):
        if np.isfinite(score):  # a first look's mean over fewer folds is hidden
            assert score == pytest.approx(grid.cv_results_["mean_test_score"][c])


def test_auto_knows_a_users_regressors_from_the_regression_prior():
    """Regressors scored by R² get the shipped regression prior's columns, matched by class
    and parameters as classifiers are; the scores evaluated are GridSearchCV's."""
    X, y = load_diabetes(return_X_y=True)
    learners = [Ridge(), DecisionTreeRegressor(random_state=0),
                DecisionTreeRegressor(max_depth=3, random_state=0)]
    folds = KFold(3, shuffle=True, random_state=0)
    auto = GPUCBSelector(learners, cv=folds, random_state=0).fit(X, y)
    assert auto.prior_ == "regression"
    assert auto.prior_match_ == ["exact", "exact", "family"]
    names, scores = regression_prior()
    np.testing.assert_allclose(auto.policy_.mean[:2], np.nanmean(
        scores[:, [names.index("ridge_unscaled"), names.index("tree")]], axis=0), atol=1e-9)
    grid = GridSearchCV(Pipeline([("estimator", learners[0])]), {"estimator": learners},
                        cv=folds).fit(X, y)
    for c, score in zip(auto.cv_results_["candidate_id"], auto.cv_results_["mean_test_score"]):
        if np.isfinite(score):
            assert score == pytest.approx(grid.cv_results_["mean_test_score"][c])


def test_a_related_regressor_is_not_taken_for_the_column_it_is_matched_to():
    """XGBoost's regressor, matched to histogram gradient boosting's column as a related
    class, keeps an uncertainty of its own: the regression prior has one pair of columns
    of one class (ridge with and without a scaler, which score alike), too few to measure
    a unit of distance by; a unit is then as far as the closest distinct learners."""
    from sklearn.ensemble import HistGradientBoostingRegressor, RandomForestRegressor

    xgboost = pytest.importorskip("xgboost")
    learners = [HistGradientBoostingRegressor(), xgboost.XGBRegressor(),
                RandomForestRegressor()]
    prior = known_prior(learners, np.eye(3), kind="r2")
    assert prior.name == "regression" and prior.match == ["exact", "family", "exact"]
    assert prior.columns[:2] == ["hist_gb", "hist_gb"]
    difference_sd = math.sqrt(prior.cov[0, 0] + prior.cov[1, 1] - 2 * prior.cov[0, 1])
    names, _, scores, _, _ = _table("regression")
    half_msd = [np.nanmean((scores[:, i] - scores[:, j]) ** 2) / 2
                for i in range(len(names)) for j in range(i + 1, len(names))]
    assert difference_sd ** 2 == pytest.approx(np.quantile(half_msd, 0.1), rel=1e-6)
    assert difference_sd > 0.05  # 0.0009 when the ridge pair set the unit


@pytest.mark.parametrize("make, data", [
    (lambda: GPUCBSelector(LogisticRegression(max_iter=2000), {"C": [0.1, 1.0, 10.0]}),
     load_breast_cancer),
    (lambda: GPUCBSelector([Ridge(), DecisionTreeRegressor(random_state=0)], n_iter=2,
                           scoring="neg_median_absolute_error"),
     load_diabetes),
])
# lbfgs does not converge on breast cancer's unscaled features, even in 2,000 iterations.
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_auto_keeps_the_kernel_prior_where_the_shipped_priors_cannot_tell(make, data):
    X, y = data(return_X_y=True)
    cv = 3
    auto = make().set_params(cv=cv, random_state=0).fit(X, y)
    kernel = make().set_params(cv=cv, random_state=0, prior="kernel").fit(X, y)
    assert auto.prior_ == "kernel" and auto.prior_match_ is None
    np.testing.assert_allclose(auto.posterior_mean_, kernel.posterior_mean_)


class _OwnTree(DecisionTreeClassifier):
    """A learner the shipped priors do not know."""


def test_auto_over_unknown_learners_warns_as_the_kernel_prior_does():
    X, y = load_breast_cancer(return_X_y=True)
    with pytest.warns(UserWarning, match="prior='auto' knows too few of the learners"):
        search = GPUCBSelector([_OwnTree(random_state=0), _OwnTree(max_depth=2), GaussianNB()],
                               cv=CV3, random_state=0).fit(X, y)
    assert search.prior_ == "kernel"
