"""Tests of the default portfolio and of the prior shipped with it."""

import numpy as np
import pytest
from sklearn.base import clone, is_classifier
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted

from sksel.gpucb.portfolio import default_portfolio, default_prior


@pytest.fixture(scope="module")
def prior():
    return default_prior(return_datasets=True)


def test_portfolio_names_unique_and_match_prior_columns(prior):
    names = [name for name, _ in default_portfolio()]
    assert len(names) == len(set(names))
    assert 20 <= len(names) <= 30
    assert prior[0] == names  # same names, same order


def test_portfolio_estimators_are_unfitted_classifiers_that_clone():
    portfolio = default_portfolio()
    for name, est in portfolio:
        assert is_classifier(est), name
        with pytest.raises(NotFittedError):
            check_is_fitted(est)
        cloned = clone(est)
        assert type(cloned) is type(est)
        assert repr(cloned.get_params()) == repr(est.get_params()), name
        params = est.get_params()
        for key, value in params.items():
            if key.endswith("random_state"):
                assert value == 0, (name, key)
            if key.endswith("n_jobs"):
                assert value in (None, 1), (name, key)
    # A fresh list of fresh estimators on every call.
    again = default_portfolio()
    assert all(a is not b for (_, a), (_, b) in zip(portfolio, again))


def test_portfolio_uses_only_sklearn():
    for name, est in default_portfolio():
        for step in getattr(est, "steps", [(None, est)]):
            assert type(step[1]).__module__.startswith("sklearn."), name


def test_portfolio_fits_quickly_on_a_small_problem():
    from sklearn.datasets import make_classification
    X, y = make_classification(n_samples=120, n_features=6, n_classes=3,
                               n_informative=4, random_state=0)
    for name, est in default_portfolio():
        est = clone(est).fit(X, y)
        assert est.score(X, y) > 0.4, name


def test_prior_shape_range_and_missing(prior):
    names, scores, datasets = prior
    assert scores.dtype == np.float64
    assert scores.shape == (len(datasets), len(names))
    assert scores.shape[0] >= 40
    assert len(set(datasets)) == len(datasets)
    finite = scores[np.isfinite(scores)]
    assert np.all((finite >= 0) & (finite <= 1))
    assert np.mean(np.isnan(scores)) < 0.02
    # No dataset or candidate is all-missing.
    assert np.all(np.isfinite(scores).any(axis=0))
    assert np.all(np.isfinite(scores).any(axis=1))


def test_prior_carries_information(prior):
    names, scores, _ = prior
    filled = np.where(np.isnan(scores), -np.inf, scores)
    best = np.argmax(filled, axis=1)
    # No single candidate wins everywhere ...
    assert len(np.unique(best)) >= 4
    assert np.max(np.bincount(best)) < 0.6 * len(best)
    # ... but candidates differ on average, and the datasets differ in difficulty.
    mu = np.nanmean(scores, axis=0)
    assert np.ptp(mu) > 0.05
    assert np.ptp(np.nanmax(scores, axis=1)) > 0.2
    # Related candidates are correlated across datasets (what GP-UCB exploits).
    ok = np.all(np.isfinite(scores), axis=1)
    corr = np.corrcoef(scores[ok].T)
    i, j = names.index("svc_rbf_C1"), names.index("svc_rbf_C10")
    assert corr[i, j] > 0.8
    # The ensembles beat a depth-2 tree on average.
    assert mu[names.index("random_forest")] > mu[names.index("tree_d2")] + 0.05


def test_prior_matches_returning_two_values(prior):
    names, scores = default_prior()
    assert names == prior[0]
    np.testing.assert_array_equal(scores, prior[1])


def test_lcdb_prior_matches_its_portfolio():
    from sksel.gpucb.portfolio import lcdb_portfolio, lcdb_prior

    names, scores, datasets = lcdb_prior(return_datasets=True)
    assert names == [name for name, _ in lcdb_portfolio()]
    assert scores.shape == (180, 19) and len(set(datasets)) == 180
    finite = scores[np.isfinite(scores)]
    assert finite.min() >= 0 and finite.max() <= 1
    assert not np.any(np.all(np.isnan(scores), axis=0))
    # Real information: the forests beat a single extra tree on most datasets.
    rf, tree = names.index("random_forest"), names.index("extra_tree")
    both = np.isfinite(scores[:, rf]) & np.isfinite(scores[:, tree])
    assert np.mean(scores[both, rf] > scores[both, tree]) > 0.8
