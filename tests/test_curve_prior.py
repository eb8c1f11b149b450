"""The learned bound of a learning curve's rise (sksel.daub.curve_prior)."""
import numpy as np
import pytest

from sksel.daub.curve_prior import FEATURES, prior_coefficients, prior_features, prior_rise


def test_features_of_a_prefix_by_hand():
    # Three points a doubling apart gaining 0.04 each; N three doublings on.
    features = prior_features([500, 1000, 2000], [0.60, 0.64, 0.68], 16000, noise=0.01)
    expected = {"doublings": 3.0, "slope_doublings": 0.04 * 3, "headroom_doublings": 0.32 * 3,
                "headroom": 0.32, "noise": 0.01}
    assert features == pytest.approx([expected[name] for name in FEATURES])


def test_a_falling_slope_counts_as_flat():
    falling = prior_features([500, 1000, 2000], [0.70, 0.70, 0.70], 4000, noise=0.0)
    assert falling[FEATURES.index("slope_doublings")] == 0.0


def test_shipped_rise_grows_with_what_the_curve_can_still_gain():
    weights, intercept, quantile = prior_coefficients()
    assert 0.5 < quantile < 1
    assert np.all(weights >= 0)
    base = dict(sizes=[500, 1000, 2000], n_total=16000, noise=0.005)
    flat = prior_rise(scores=[0.90, 0.90, 0.90], **base)
    steep = prior_rise(scores=[0.82, 0.86, 0.90], **base)
    low = prior_rise(scores=[0.60, 0.60, 0.60], **base)
    farther = prior_rise(scores=[0.90, 0.90, 0.90], **{**base, "n_total": 64000})
    assert 0 <= flat < steep and flat < low and flat < farther
    # At N itself only the terms without doublings are left.
    at_n = prior_rise(scores=[0.9, 0.9, 0.9], **{**base, "n_total": 2000})
    assert at_n == pytest.approx(max(intercept + weights[FEATURES.index("headroom")] * 0.1
                                     + weights[FEATURES.index("noise")] * 0.005, 0.0))
