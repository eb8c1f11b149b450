"""GP-UCB: the posterior and the choice against closed forms, priors, the selector."""


import time
import warnings

import numpy as np
import pandas as pd
import pytest
from _common import CountingClassifier
from scipy import stats
from sklearn.base import clone
from sklearn.datasets import load_iris
from sklearn.exceptions import FitFailedWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sksel import GPUCBSelector
from sksel._core.simulate import simulate
from sksel.gpucb import (
    AUTO_BETA_SCALE,
    GPUCBPolicy,
    cost_prior_from_times,
    evaluations_to_best,
    prior_from_scores,
    time_to_best,
    tune_beta_scale,
)

CV3 = StratifiedKFold(3, shuffle=True, random_state=0)


def _evaluated(results):
    """Whether each row of `results` is a candidate evaluated (on one fold at least)."""
    return np.asarray(results["n_folds_run"]) > 0


def _closed_form_posterior(mean, cov, noise, observed, y):
    """Textbook GP regression with an explicit inverse, independent of the policy."""
    A = list(observed)
    inv = np.linalg.inv(cov[np.ix_(A, A)] + noise**2 * np.eye(len(A)))
    mu = mean + cov[:, A] @ inv @ (np.asarray(y) - mean[A])
    var = np.array([cov[k, k] - cov[k, A] @ inv @ cov[A, k] for k in range(len(mean))])
    return mu, np.sqrt(var)


def _random_prior(rng, K):
    F = rng.normal(size=(K, 3))
    return rng.uniform(0.5, 0.9, size=K), 0.01 * (F @ F.T / 3 + 0.1 * np.eye(K))


# ------------------------------------------------------------------ the policy


@pytest.mark.parametrize("t", [1, 2, 5])
def test_posterior_equals_closed_form(t):
    rng = np.random.RandomState(t)
    mean, cov = _random_prior(rng, 8)
    policy = GPUCBPolicy(mean, cov, noise=0.05)
    observed, y = [], rng.uniform(0.4, 1.0, size=t)
    for score in y:
        (c, r), = policy.ask()
        policy.tell(c, r, score)
        observed.append(c)
    mu, std = policy.posterior()
    mu_ref, std_ref = _closed_form_posterior(mean, cov, 0.05, observed, y)
    np.testing.assert_allclose(mu, mu_ref, rtol=1e-10)
    np.testing.assert_allclose(std, std_ref, rtol=1e-8)


def test_pending_candidates_shrink_the_variance_not_the_mean():
    rng = np.random.RandomState(0)
    mean, cov = _random_prior(rng, 6)
    policy = GPUCBPolicy(mean, cov, noise=0.05)
    (c, r), = policy.ask()
    policy.tell(c, r, 0.7)
    other = (c + 1) % 6
    mu, std = policy.posterior(pending=[other])
    mu_ref, _ = _closed_form_posterior(mean, cov, 0.05, [c], [0.7])
    _, std_ref = _closed_form_posterior(mean, cov, 0.05, [c, other], [0.7, 0.0])
    np.testing.assert_allclose(mu, mu_ref, rtol=1e-10)
    np.testing.assert_allclose(std, std_ref, rtol=1e-8)


def test_choice_is_the_ucb_argmax_hand_checked():
    # K = 3, delta = 0.1, t = 1: beta_1 = log(3 / 0.1) = log(30) = 3.4012.
    # UCB = mean + sqrt(beta) * std:  0.5 + 1.8442 * 0.2 = 0.869,
    # 0.6 + 1.8442 * 0.01 = 0.618, 0.55 + 1.8442 * 0.1 = 0.734: arm 0.
    mean, cov = [0.5, 0.6, 0.55], np.diag([0.04, 0.0001, 0.01])
    policy = GPUCBPolicy(mean, cov, delta=0.1)
    assert policy.beta(1) == pytest.approx(np.log(30))
    assert policy.ask() == [(0, "all")]
    # beta_scale 0.01: sqrt(0.034) = 0.1844: 0.537, 0.602, 0.568: arm 1.
    assert GPUCBPolicy(mean, cov, delta=0.1, beta_scale=0.01).ask() == [(1, "all")]
    # t = 2 after observing arm 0 at 0.5 (independent arms: nothing else moves):
    # beta_2 = log(3 * 4 / 0.1) = 4.787, sqrt 2.188: arm 2 (0.769) over arm 1 (0.622).
    policy.tell(0, "all", 0.5)
    assert policy.beta(2) == pytest.approx(np.log(120))
    assert policy.ask() == [(2, "all")]


def test_never_evaluates_a_candidate_twice_and_stops_at_n_iter():
    rng = np.random.RandomState(0)
    mean, cov = _random_prior(rng, 7)
    policy = GPUCBPolicy(mean, cov, n_iter=5, random_state=0)
    seen = [c for (c, _), *_ in simulate(policy, rng.uniform(size=7)).events]
    assert len(seen) == 5 == len(set(seen))
    assert policy.ask() == []


def _closed_form_posterior_cov(mean, cov, noise, observed, y):
    """Joint posterior mean and covariance of all candidates, by an explicit inverse."""
    A = list(observed)
    inv = np.linalg.inv(cov[np.ix_(A, A)] + noise**2 * np.eye(len(A)))
    return (mean + cov[:, A] @ inv @ (np.asarray(y) - mean[A]),
            cov - cov[:, A] @ inv @ cov[A, :])


def test_stop_hand_checked():
    # Independent arms, an observation noise of 1e-4: after arm 0 (the highest
    # mean; beta_scale 0 is greedy) is observed at 0.85, its posterior is 0.85
    # (to 1e-6), and arm 1 (0.75 +/- 0.05) beats it by more than tol = 0 with
    # probability Phi((0.75 - 0.85) / 0.05) = Phi(-2) = 0.02275.
    mean, cov = [0.8, 0.75], np.diag([0.01, 0.0025])
    for risk, n_evaluations in ((0.0228, 1), (0.0227, 2)):
        policy = GPUCBPolicy(mean, cov, noise=1e-4, beta_scale=0.0, tol=0.0, risk=risk)
        assert policy.probability_left() == np.inf
        assert policy.ask() == [(0, "all")]
        policy.tell(0, "all", 0.85)
        assert policy.probability_left() == pytest.approx(stats.norm.cdf(-2), abs=2e-6)
        assert policy.done == (n_evaluations == 1)
        if not policy.done:
            policy.tell(*policy.ask()[0], 0.7)
        assert policy.done and len(policy.decisions_) == n_evaluations
        assert policy.probability_left() == 0.0 or n_evaluations == 1


@pytest.mark.parametrize("seed", range(4))
def test_stops_exactly_when_the_closed_form_condition_holds(seed):
    rng = np.random.RandomState(seed)
    K, noise, tol, risk = 9, 0.01, 0.002, 0.3
    mean, cov = _random_prior(rng, K)
    scores = rng.multivariate_normal(mean, cov)
    policy = GPUCBPolicy(mean, cov, noise=noise, beta_scale=0.1, tol=tol, risk=risk,
                         random_state=seed)
    observed = []
    while True:
        if observed:
            mu, C = _closed_form_posterior_cov(np.asarray(mean), cov, noise, observed,
                                               scores[observed])
            b = observed[int(np.argmax(scores[observed]))]
            left = [k for k in range(K) if k not in observed]
            sd = np.sqrt(C[b, b] + C[left, left] - 2 * C[b, left])
            p = stats.norm.cdf((mu[left] - mu[b] - tol) / sd).sum()
            assert policy.probability_left() == pytest.approx(p, rel=1e-6, abs=1e-12)
            assert policy.done == (p <= risk or not left)
        if policy.done:
            break
        (c, r), = policy.ask()
        policy.tell(c, r, scores[c])
        observed.append(c)
    # Without tol, the same picks, until all K are evaluated.
    full = GPUCBPolicy(mean, cov, noise=noise, beta_scale=0.1, random_state=seed)
    order = [c for (c, _), *_ in simulate(full, scores).events]
    assert order[:len(observed)] == observed and len(order) == K


@pytest.mark.parametrize("seed", range(3))
def test_probability_left_against_monte_carlo_from_the_posterior(seed):
    # Draws of the joint posterior: the share where some candidate left beats the
    # best observed by more than tol. Each term of the bound is that share for one
    # candidate; the sum is at least the share for any of them.
    rng = np.random.RandomState(seed)
    K, noise, tol = 8, 0.01, 0.01
    mean, cov = _random_prior(rng, K)
    policy = GPUCBPolicy(mean, cov, noise=noise, beta_scale=0.0, tol=tol)
    for _ in range(3):
        (c, r), = policy.ask()
        policy.tell(c, r, rng.uniform(0.6, 0.9))
    observed = list(policy.observed_)
    mu, C = _closed_form_posterior_cov(mean, cov, noise, observed,
                                       [policy.observed_[c] for c in observed])
    draws = np.random.default_rng(seed).multivariate_normal(mu, C, size=200_000,
                                                            method="eigh")
    left, b = [k for k in range(K) if k not in observed], policy.best_
    beats = draws[:, left] - draws[:, [b]] > tol
    se = 3 * np.sqrt(0.25 / len(draws))
    for k in range(len(left)):
        assert policy.probability_left([left[k]]) == pytest.approx(beats[:, k].mean(), abs=se)
    any_beats = beats.any(axis=1).mean()
    assert any_beats - se <= policy.probability_left() <= beats.mean(axis=0).sum() + se


def _fitted_scale_and_weight(mean, cov, noise, observed, y):
    """Brute force over the grid: the (scale, weight) of the highest posterior density."""
    K = len(mean)
    level = np.clip((cov.sum() - np.trace(cov)) / (K * (K - 1)), 0, np.diag(cov).min())
    target = np.diag(np.diag(cov) - level) + level
    best = (-np.inf, None)
    for w in (1.0, 0.75, 0.5, 0.25, 0.0):
        for s in 4.0 ** np.arange(-3, 3):
            C = s * (w * cov + (1 - w) * target)[np.ix_(observed, observed)]
            density = (stats.multivariate_normal(mean[observed], C + noise**2 * np.eye(len(y)))
                       .logpdf(y) + stats.norm(0, np.log(4)).logpdf(np.log(s)))
            if density > best[0] + 1e-12:
                best = (density, (s, w))
    return best[1]


@pytest.mark.parametrize("true_scale", [1 / 16, 1.0, 16.0])
def test_empirical_bayes_scales_the_prior_to_the_scores_seen(true_scale):
    # Scores drawn with a spread 1/16, 1 or 16 times the prior's: the scale fitted
    # follows it, and is the grid's highest posterior density, found by brute force.
    rng = np.random.RandomState(0)
    K, noise = 12, 0.001
    mean, cov = _random_prior(rng, K)
    scores = rng.multivariate_normal(mean, true_scale * cov)
    policy = GPUCBPolicy(mean, cov, noise=noise, beta_scale=0.0, n_iter=6,
                         empirical_bayes=True)
    simulate(policy, scores)
    observed = list(policy.observed_)
    scale, weight = _fitted_scale_and_weight(mean, cov, noise, observed, scores[observed])
    fitted = policy._observed_prior()[2]
    K_ = len(mean)
    level = np.clip((cov.sum() - np.trace(cov)) / (K_ * (K_ - 1)), 0, np.diag(cov).min())
    target = np.diag(np.diag(cov) - level) + level
    np.testing.assert_allclose(fitted, scale * (weight * cov + (1 - weight) * target))
    assert scale / true_scale in (0.25, 1.0, 4.0)
    mu, std = policy.posterior()
    mu_ref, std_ref = _closed_form_posterior(mean, fitted, noise, observed, scores[observed])
    np.testing.assert_allclose(mu, mu_ref, rtol=1e-8)
    np.testing.assert_allclose(std, std_ref, rtol=1e-6)


def test_empirical_bayes_shrinks_correlations_the_scores_contradict():
    # The prior says candidates 0-2 move together, and so do 3-5; on this dataset
    # neighbours in a block move apart: the correlations are shrunk, by as much as
    # the brute force over the grid says.
    block = np.kron(np.eye(2), np.ones((3, 3)))
    cov = 1e-3 * (0.1 * np.eye(6) + 0.8 * block + 0.1)
    mean = np.array([0.80, 0.79, 0.78, 0.80, 0.79, 0.78])
    deviation = 0.03 * np.array([1, -1, 0, -1, 1, 0])
    policy = GPUCBPolicy(mean, cov, noise=0.001, beta_scale=0.0, n_iter=4,
                         empirical_bayes=True)
    simulate(policy, mean + deviation)
    observed = list(policy.observed_)
    assert sorted(observed) == [0, 1, 3, 4]
    scale, weight = _fitted_scale_and_weight(mean, cov, 0.001, observed,
                                             (mean + deviation)[observed])
    assert weight < 1
    level = (cov.sum() - np.trace(cov)) / 30
    target = np.diag(np.diag(cov) - level) + level
    np.testing.assert_allclose(policy._observed_prior()[2],
                               scale * (weight * cov + (1 - weight) * target))


def test_kernel_prior_does_not_stop_on_a_plateau():
    # Two neighbours score the same (e.g. both predict the majority class): the
    # spread fitted from them is not below the noise, so the 8 candidates left,
    # some far from the plateau, may still beat them by more than tol.
    from sksel.gpucb import kernel_prior

    corr = kernel_prior([{"C": c} for c in np.logspace(-3, 3, 10)])
    policy = GPUCBPolicy(np.zeros(10), corr, fit_scale=True, noise=0.01, tol=0.01,
                         random_state=0)
    for score in (0.55, 0.55):
        (c, r), = policy.ask()
        policy.tell(c, r, score)
    assert policy.prior()[1].min() == pytest.approx(0.01)
    assert not policy.done and policy.probability_left() > policy.risk


def test_wide_prior_never_stops_before_the_cap():
    rng = np.random.RandomState(0)
    policy = GPUCBPolicy(np.zeros(8), np.eye(8), noise=0.01, tol=0.01, n_iter=5,
                         random_state=0)
    simulate(policy, rng.uniform(0.6, 0.9, size=8))
    assert len(policy.decisions_) == 5
    assert policy.probability_left() > policy.risk
    assert policy.stop_reason() == "5 evaluations made (n_iter=5)"


def test_risk_zero_never_stops_early_even_when_the_probability_underflows():
    # Candidate 1 is 50 standard deviations below candidate 0's score: its
    # probability is 0.0 in floating point, yet risk=0 evaluates all n_iter.
    mean, cov = [0.9, 0.4, 0.3], np.diag([1e-6, 1e-6, 1e-6])
    policy = GPUCBPolicy(mean, cov, noise=1e-4, beta_scale=0.0, tol=0.0, risk=0.0)
    policy.tell(*policy.ask()[0], 0.9)
    assert policy.probability_left() == 0.0 and not policy.done
    stopping = GPUCBPolicy(mean, cov, noise=1e-4, beta_scale=0.0, tol=0.0, risk=1e-12)
    stopping.tell(*stopping.ask()[0], 0.9)
    assert stopping.done


def test_stop_waits_for_a_score_and_never_selects_a_failed_candidate():
    # Candidate 0 fails: nothing is observed, so the answer is not known yet.
    mean, cov = [0.9, 0.8, 0.5], np.diag([1e-4, 1e-4, 1e-4])
    policy = GPUCBPolicy(mean, cov, beta_scale=0.0, tol=0.01)
    assert policy.ask() == [(0, "all")]
    policy.tell(0, "all", np.nan, failed=True)
    assert not policy.done and policy.best_ is None
    assert policy.ask() == [(1, "all")]
    policy.tell(1, "all", 0.8)
    # Candidate 2 (0.5 +/- 0.01) cannot beat 0.8: stop, with candidate 1.
    assert policy.done and policy.best_ == 1 and policy.decisions_ == [(0, "all"), (1, "all")]
    assert policy.stop_reason().startswith("the answer is known after 2 evaluations")


def _true_scores(rng, mean, cov):
    return rng.multivariate_normal(mean, cov)


def test_independent_arms_need_all_evaluations_correlated_ones_fewer():
    # Identical prior means: with a diagonal covariance no evaluation tells
    # anything about another arm, so GP-UCB is no better than random order,
    # (K + 1) / 2 = 6.5 evaluations on average to reach the best. With a
    # strongly correlated prior (scores driven by two latent factors), each
    # evaluation moves every arm's posterior and the best comes much sooner.
    K, rng = 12, np.random.RandomState(0)
    F = rng.normal(size=(K, 2))
    C = F @ F.T + 1e-3 * np.eye(K)
    correlated = 0.01 * C / np.sqrt(np.outer(np.diag(C), np.diag(C)))  # equal variances
    diagonal = 0.01 * np.eye(K)
    mean = np.full(K, 0.7)
    counts = {"diagonal": [], "correlated": []}
    for _ in range(300):
        scores = _true_scores(rng, mean, correlated)
        for name, cov in (("diagonal", diagonal), ("correlated", correlated)):
            policy = GPUCBPolicy(mean, cov, noise=1e-3, beta_scale=0.1, random_state=rng)
            counts[name].append(evaluations_to_best(policy, scores))
    diag, corr = np.mean(counts["diagonal"]), np.mean(counts["correlated"])
    assert diag == pytest.approx((K + 1) / 2, abs=0.6)
    assert corr < 3.0
    # Diagonal: the posterior of an unevaluated arm never moves.
    policy = GPUCBPolicy(mean, diagonal)
    (c, r), = policy.ask()
    policy.tell(c, r, 0.99)
    mu, std = policy.posterior()
    others = np.arange(K) != c
    np.testing.assert_allclose(mu[others], mean[others])
    np.testing.assert_allclose(std[others], np.sqrt(np.diag(diagonal))[others])


def test_kernel_prior_fits_level_and_scale():
    cov = np.array([[1.0, 0.5, 0.0], [0.5, 1.0, 0.2], [0.0, 0.2, 1.0]])
    policy = GPUCBPolicy(np.zeros(3), cov, noise=1e-6, fit_scale=True, random_state=0)
    picked = []
    for score in (0.8, 0.6):
        (c, r), = policy.ask()
        policy.tell(c, r, score)
        picked.append(c)
    # Level: the mean of the observed scores; scale: r' C^-1 r / t.
    r = np.array([0.1, -0.1])
    scale2 = r @ np.linalg.solve(cov[np.ix_(picked, picked)], r) / 2
    mu, std = policy.posterior()
    mu_ref, std_ref = _closed_form_posterior(np.full(3, 0.7), scale2 * cov, 1e-6, picked,
                                             [0.8, 0.6])
    np.testing.assert_allclose(mu, mu_ref, rtol=1e-6)
    np.testing.assert_allclose(std, std_ref, rtol=1e-4, atol=1e-9)


# ------------------------------------------------------------------- the prior


def test_prior_from_scores_mean_and_level_structure():
    rng = np.random.RandomState(0)
    levels = rng.normal(0, 0.1, size=(40, 1))
    scores = 0.7 + levels + rng.normal(0, 0.01, size=(40, 5))
    mean, cov = prior_from_scores(scores)
    np.testing.assert_allclose(mean, scores.mean(axis=0))
    # The shared level dominates: every pair strongly correlated.
    corr = cov / np.sqrt(np.outer(np.diag(cov), np.diag(cov)))
    assert corr[np.triu_indices(5, 1)].min() > 0.9
    assert np.linalg.eigvalsh(cov)[0] > 0


def test_tune_beta_scale_picks_the_best_on_the_prior_datasets():
    rng = np.random.RandomState(0)
    F = rng.normal(size=(10, 2))
    scores = rng.multivariate_normal(np.full(10, 0.7), 0.01 * (F @ F.T + 0.01 * np.eye(10)),
                                     size=30)
    scores[3, 4] = np.nan  # a missing score: that candidate is not in the replay
    scales = (0.0, 1.0, 10.0)
    scale, counts = tune_beta_scale(scores, scales=scales)
    assert scale == scales[int(np.argmin(counts))]
    # Recomputed by hand: leave one dataset out, count evaluations to its best.
    for j, beta_scale in enumerate(scales):
        n = []
        for i in range(len(scores)):
            others = np.delete(scores, i, axis=0)
            mean, cov = prior_from_scores(others)
            known = np.flatnonzero(~np.isnan(scores[i]))
            policy = GPUCBPolicy(mean[known], cov[np.ix_(known, known)], beta_scale=beta_scale)
            order = []
            while scores[i, known][order[-1:]].tolist() != [np.nanmax(scores[i])]:
                (c, r), = policy.ask()
                order.append(c)
                policy.tell(c, r, scores[i, known][c])
            n.append(len(order))
        assert counts[j] == pytest.approx(np.mean(n))


def test_tune_beta_scale_leaves_out_candidates_only_the_held_out_dataset_scores():
    # Candidate 5 is scored on dataset 0 only: held out, dataset 0 has no prior
    # for it and is replayed on candidates 0-4; the other datasets lack its score.
    rng = np.random.RandomState(1)
    scores = 0.7 + rng.normal(0, 0.05, size=(8, 1)) + rng.normal(0, 0.02, size=(8, 6))
    scores[1:, 5] = np.nan
    scores[0, 5] = 1.0  # dataset 0's best, which its run cannot see
    scales = (0.0, 1.0)
    _, counts = tune_beta_scale(scores, scales=scales)
    for j, beta_scale in enumerate(scales):
        n = []
        for i in range(len(scores)):
            columns = np.arange(5) if i == 0 else np.flatnonzero(~np.isnan(scores[i]))
            mean, cov = prior_from_scores(np.delete(scores, i, axis=0)[:, :5 if i == 0 else 6])
            policy = GPUCBPolicy(mean[columns], cov[np.ix_(columns, columns)],
                                 beta_scale=beta_scale)
            n.append(evaluations_to_best(policy, scores[i, columns]))
        assert counts[j] == pytest.approx(np.mean(n))
    # The selector tunes its scale on such a prior instead of failing, replaying its
    # own policy.
    X, y = load_iris(return_X_y=True)
    search = GPUCBSelector(LogisticRegression(max_iter=1000), {"C": [0.01, 0.1, 1, 10, 100, 1e3]},
                           prior=scores, n_iter=2, cv=3, beta_scale="tune").fit(X, y)
    assert search.beta_scale_ == tune_beta_scale(scores, empirical_bayes=True)[0]


# ---------------------------------------------------------------- the selector

GRID = {"C": np.logspace(-4, 2, 9).tolist()}


def test_a_row_per_candidate_those_evaluated_equal_grid_search_and_posterior_exposed():
    """As GridSearchCV's: one row per candidate, in its order; the evaluated ones score as
    GridSearchCV's, the others have NaN scores, rank after them and say why."""
    X, y = load_iris(return_X_y=True)
    est = LogisticRegression(max_iter=1000)
    search = GPUCBSelector(est, GRID, n_iter=4, cv=CV3, random_state=0).fit(X, y)
    gs = GridSearchCV(est, GRID, cv=CV3).fit(X, y)
    results = pd.DataFrame(search.cv_results_)
    assert results["params"].tolist() == gs.cv_results_["params"]
    assert results["candidate_id"].tolist() == list(range(9))
    evaluated = results["n_folds_run"].to_numpy() > 0
    assert evaluated.sum() == 4
    np.testing.assert_allclose(results["mean_test_score"][evaluated],
                               gs.cv_results_["mean_test_score"][evaluated], rtol=1e-12)
    assert results.loc[~evaluated, ["mean_test_score", "split0_test_score"]].isna().all().all()
    assert results["rank_test_score"][~evaluated].min() > results["rank_test_score"][
        evaluated].max()
    assert (results["why_not_evaluated"][evaluated] == "").all()
    assert (results["why_not_evaluated"][~evaluated]
            == "not needed: the 4 evaluations allowed were made").all()
    assert search.best_index_ == results["rank_test_score"].idxmin()
    assert search.best_score_ == pytest.approx(results["mean_test_score"].max())
    mu, std = search.policy_.posterior()
    np.testing.assert_allclose(search.posterior_mean_, mu)
    np.testing.assert_allclose(results["posterior_mean"], mu)
    np.testing.assert_allclose(results["posterior_std"], std)
    assert search.posterior_std_.shape == (9,)


def test_a_list_of_learners_lists_the_learners_the_stop_skipped_and_why():
    """Stopped by its rule, the selector lists every learner passed: those it did not
    evaluate with NaN scores, ranked last, with their posterior and the probability that
    made them not needed."""
    X, y = load_iris(return_X_y=True)
    learners = [LogisticRegression(max_iter=1000), GaussianNB(),
                DecisionTreeClassifier(max_depth=1, random_state=0),
                DecisionTreeClassifier(max_depth=2, random_state=0)]
    mean = np.array([0.95, 0.80, 0.60, 0.70])
    cov = 0.0004 * (0.5 + 0.5 * np.eye(4))
    search = GPUCBSelector(learners, prior=(mean, cov), cv=CV3, random_state=0).fit(X, y)
    results = pd.DataFrame(search.cv_results_)
    assert len(results) == 4
    skipped = results[results["n_folds_run"] == 0]
    assert len(skipped) and skipped["mean_test_score"].isna().all()
    assert skipped["posterior_mean"].notna().all()
    policy = search.policy_
    for c, why in zip(skipped["candidate_id"], skipped["why_not_evaluated"]):
        assert why == ("not needed: the probability that it scores more than tol=0.01 "
                       f"above the selected candidate is {policy.probability_left([c]):.2g} "
                       "(summed over all the candidates left: "
                       f"{policy.probability_left():.2g} <= risk=0.1)")
    assert results["rank_test_score"][skipped.index].min() == len(results) - len(skipped) + 1


def test_prior_from_earlier_cv_results_is_a_one_liner():
    X, y = load_iris(return_X_y=True)
    est = LogisticRegression(max_iter=1000)
    earlier = [GridSearchCV(est, GRID, cv=3).fit(X[rows], y[rows]).cv_results_
               for rows in (np.arange(0, 150, 2), np.arange(1, 150, 2))]
    search = GPUCBSelector(est, GRID, prior=earlier, n_iter=3, cv=CV3, cost=None,
                           random_state=0).fit(X, y)
    scores = np.array([r["mean_test_score"] for r in earlier])
    mean, cov = prior_from_scores(scores)
    np.testing.assert_allclose(search.policy_.mean, mean)
    np.testing.assert_allclose(search.policy_.cov, cov)
    # The prior's best candidate is the first one evaluated (its mean is highest,
    # and the variances are comparable at the scale "auto" picks here).
    assert search.policy_.history_[0][0] == int(np.argmax(mean + np.sqrt(
        search.policy_.beta(1)) * np.sqrt(np.diag(cov))))


def test_param_distributions_sampled_to_k_candidates():
    X, y = load_iris(return_X_y=True)
    search = GPUCBSelector(LogisticRegression(max_iter=1000),
                           param_distributions={"C": stats.loguniform(1e-4, 1e2)},
                           n_candidates=12, n_iter=4, cv=CV3, random_state=0).fit(X, y)
    assert len(search.candidates_) == 12
    assert len(search.cv_results_["params"]) == 12
    assert np.count_nonzero(search.cv_results_["n_folds_run"]) == 4


def test_inside_a_pipeline_and_cloned():
    X, y = load_iris(return_X_y=True)
    search = GPUCBSelector(LogisticRegression(max_iter=1000), GRID, n_iter=3, cv=CV3,
                           random_state=0)
    pipe = make_pipeline(StandardScaler(), clone(search)).fit(X, y)
    assert pipe.score(X, y) > 0.9


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(prior=np.zeros((5, 4))), "one column per candidate"),
        (dict(prior=(np.zeros(3), -np.eye(3))), "positive semi-definite"),
        (dict(prior=(np.zeros(2), np.eye(2))), "shapes"),
        (dict(n_iter=4), "n_iter=4 is larger than the 3 candidates"),
        (dict(n_iter="all"), "'n_iter' parameter"),
        (dict(n_iter=0), "'n_iter' parameter"),
        (dict(tol=-0.01), "'tol' parameter"),
        (dict(risk=1.5), "'risk' parameter"),
        (dict(beta_scale="tune"), 'beta_scale="tune" replays'),
        (dict(empirical_bayes="yes"), "'empirical_bayes' parameter"),
        (dict(max_iter=0), "'max_iter' parameter"),
        (dict(n_iter=2, max_iter=2), "max_iter=2 caps n_iter='auto'"),
        (dict(delta=1.0), "'delta' parameter"),
        (dict(delta=0.0), "'delta' parameter"),
        (dict(noise=0.0), "'noise' parameter"),
        (dict(prior="past"), "'prior' parameter"),
    ],
)
def test_bad_input_fails_before_any_fit(kwargs, match):
    X, y = load_iris(return_X_y=True)
    CountingClassifier.n_fits = 0
    with pytest.raises(ValueError, match=match):
        GPUCBSelector(CountingClassifier(), {"C": [1, 2, 3]}, **kwargs).fit(X, y)
    assert CountingClassifier.n_fits == 0


def test_default_prior_with_the_default_portfolio():
    from sksel.gpucb.portfolio import default_portfolio, default_prior

    X, y = load_iris(return_X_y=True)
    learners = [estimator for _, estimator in default_portfolio()]
    search = GPUCBSelector(learners, prior="default", n_iter=2, cv=CV3,
                           random_state=0).fit(X, y)
    mean, cov = prior_from_scores(default_prior()[1])
    np.testing.assert_allclose(search.policy_.mean, mean)
    assert search.beta_scale_ == AUTO_BETA_SCALE
    with pytest.raises(ValueError, match="default_portfolio"):
        GPUCBSelector(learners[:-1], prior="default").fit(X, y)


def test_n_jobs_evaluates_distinct_candidates_with_grid_search_scores():
    X, y = load_iris(return_X_y=True)
    est = LogisticRegression(max_iter=1000)
    search = GPUCBSelector(est, GRID, n_iter=5, cv=CV3, n_jobs=2, random_state=0).fit(X, y)
    evaluated = _evaluated(search.cv_results_)
    ids = search.cv_results_["candidate_id"][evaluated]
    assert len(ids) == 5 == len(set(ids.tolist()))
    gs = GridSearchCV(est, GRID, cv=CV3).fit(X, y)
    np.testing.assert_allclose(search.cv_results_["mean_test_score"][evaluated],
                               gs.cv_results_["mean_test_score"][ids], rtol=1e-12)


def test_lcdb_prior_with_the_lcdb_portfolio():
    from sksel.gpucb.portfolio import lcdb_portfolio, lcdb_prior

    X, y = load_iris(return_X_y=True)
    learners = [estimator for _, estimator in lcdb_portfolio()]
    search = GPUCBSelector(learners, prior="lcdb", n_iter=2, cv=CV3, beta_scale=0.1,
                           cost=None, random_state=0).fit(X, y)
    mean, _ = prior_from_scores(lcdb_prior()[1])
    np.testing.assert_allclose(search.policy_.mean, mean)
    assert search.policy_.history_[0][0] == int(np.argmax(mean + np.sqrt(
        search.policy_.beta(1)) * np.sqrt(np.diag(search.policy_.cov))))


# ------------------------------------------------------------- cost-aware choice


def _cheap_and_expensive(cost):
    """Expensive candidate 0 a little better in prior mean than cheap candidate 1;
    candidate 2 cheap but clearly worse and sure of it."""
    mean = [0.81, 0.80, 0.50]
    cov = np.array([[0.01, 0.003, 0.0], [0.003, 0.01, 0.0], [0.0, 0.0, 0.0004]])
    return GPUCBPolicy(mean, cov, noise=0.01, delta=0.1, cost=cost)


def test_cost_aware_evaluates_a_cheap_near_equal_candidate_first():
    # The paper's rule takes the expensive candidate: its upper bound is highest.
    assert _cheap_and_expensive(None).ask() == [(0, "all")]
    # Per unit of cost (30 vs 1), the cheap near-equal one goes first:
    # beta_1 = log(30), sqrt 1.844; gains over the best prior mean 0.81:
    # 0: 0.1844 / 30 = 0.006, 1: 0.1744 / 1, 2: (0.537 - 0.81)^+ = 0.
    policy = _cheap_and_expensive([30.0, 1.0, 1.0])
    assert policy.ask() == [(1, "all")]
    # It disappoints (0.60): the expensive one is still the next, although it
    # costs 30 times more, and the cheap worse candidate 2 (upper bound
    # 0.5 + 2.188 * 0.02 = 0.544 < 0.60) has nothing to gain.
    policy.tell(1, "all", 0.60, fit_time=2.0)
    assert policy.ask() == [(0, "all")]


def test_cost_aware_with_equal_costs_is_the_papers_rule():
    rng = np.random.RandomState(3)
    for seed in range(5):
        mean, cov = _random_prior(np.random.RandomState(seed), 9)
        scores = _true_scores(rng, mean, cov)
        picks = []
        for cost in (None, np.full(9, 2.5)):
            policy = GPUCBPolicy(mean, cov, noise=0.02, random_state=seed, cost=cost)
            run = simulate(policy, scores, durations=rng.uniform(0.1, 5.0, size=9))
            picks.append([c for (c, _), *_ in run.events])
        assert picks[0] == picks[1]
    # The hand-checked case of the paper's rule is unchanged.
    mean, cov = [0.5, 0.6, 0.55], np.diag([0.04, 0.0001, 0.01])
    policy = GPUCBPolicy(mean, cov, delta=0.1, cost=[1.0, 1.0, 1.0])
    assert policy.ask() == [(0, "all")]
    policy.tell(0, "all", 0.5)
    assert policy.ask() == [(2, "all")]


def test_cost_scale_is_the_geometric_mean_of_observed_over_predicted():
    cost = np.array([2.0, 8.0, 1.0])
    policy = GPUCBPolicy([0.8, 0.7, 0.6], np.eye(3) * 0.01, cost=cost)
    assert policy.cost_scale_ == 1.0
    (c, r), = policy.ask()
    policy.tell(c, r, 0.75, fit_time=5.0)
    assert policy.cost_scale_ == pytest.approx(5.0 / cost[c])
    np.testing.assert_allclose(policy.expected_cost_, cost * 5.0 / cost[c])
    (c2, r), = policy.ask()
    policy.tell(c2, r, 0.65, fit_time=3.0)
    assert policy.cost_scale_ == pytest.approx(np.sqrt(5.0 / cost[c] * 3.0 / cost[c2]))


def test_budget_passes_over_candidates_expected_not_to_finish():
    cov = np.eye(3) * 0.01
    # Told 1 s for candidate 1 (prior cost 1): candidate 0 is expected to take
    # 50 s, more than the 10 s left of a budget of 11 s; candidate 2 (5 s) fits.
    # Gains per cost after 0.6 (sqrt(beta_2) * std = 0.069): 0.369 / 50 = 0.0074
    # for candidate 0, 0.019 / 5 = 0.0038 for candidate 2.
    for budget, expected in ((None, 0), (11.0, 2), (100.0, 0)):
        policy = GPUCBPolicy([0.9, 0.89, 0.55], cov, cost=[50.0, 1.0, 5.0], budget=budget,
                             beta_scale=0.1)
        assert policy.ask() == [(1, "all")]
        policy.tell(1, "all", 0.6, fit_time=1.0)
        assert policy.ask() == [(expected, "all")]


def test_cost_prior_from_times_levels_and_offsets():
    # Dataset levels differ by a factor 10; candidate 1 is 4 times candidate 0.
    times = np.array([[1.0, 4.0, np.nan], [10.0, np.nan, 20.0], [0.5, 2.0, 1.0]])
    cost = cost_prior_from_times(times)
    assert cost[1] / cost[0] == pytest.approx(4.0)
    assert cost[2] / cost[0] == pytest.approx(2.0)
    assert np.exp(np.mean(np.log(cost))) == pytest.approx(1.0)


def test_selector_cost_from_earlier_cv_results_and_reproducible():
    X, y = load_iris(return_X_y=True)
    est = LogisticRegression(max_iter=1000)
    earlier = [GridSearchCV(est, GRID, cv=3).fit(X[rows], y[rows]).cv_results_
               for rows in (np.arange(0, 150, 2), np.arange(1, 150, 2))]
    searches = [GPUCBSelector(est, GRID, prior=earlier, n_iter=3, cv=CV3, cost="prior",
                              random_state=0).fit(X, y) for _ in range(2)]
    times = np.array([r["mean_fit_time"] for r in earlier])
    np.testing.assert_allclose(searches[0].cost_, cost_prior_from_times(times))
    assert searches[0].policy_.history_ == searches[1].policy_.history_
    # Without fit times in the prior, equal costs: the paper's rule, cost_ None.
    kernel = GPUCBSelector(est, GRID, n_iter=3, cv=CV3, random_state=0).fit(X, y)
    paper = GPUCBSelector(est, GRID, n_iter=3, cv=CV3, cost=None, random_state=0).fit(X, y)
    assert kernel.cost_ is None and kernel.policy_.history_ == paper.policy_.history_
    given = GPUCBSelector(est, GRID, n_iter=3, cv=CV3, cost=np.arange(1.0, 10.0),
                          random_state=0).fit(X, y)
    assert np.exp(np.mean(np.log(given.cost_))) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="positive numbers"):
        GPUCBSelector(est, GRID, cost=[1.0, -1.0] + [1.0] * 7).fit(X, y)


def test_shipped_priors_come_with_their_costs():
    from sksel.gpucb.portfolio import lcdb_cost, lcdb_portfolio

    X, y = load_iris(return_X_y=True)
    learners = [estimator for _, estimator in lcdb_portfolio()]
    search = GPUCBSelector(learners, prior="lcdb", n_iter=2, cv=CV3, beta_scale=0.1,
                           cost="prior", random_state=0).fit(X, y)
    np.testing.assert_allclose(search.cost_, cost_prior_from_times(lcdb_cost()[1]))
    assert search.policy_.cost is search.cost_


def test_time_to_best_and_tuning_on_time():
    # Paper's rule on independent arms: 0 (mean 0.8), then 1; the best is 1.
    policy = GPUCBPolicy([0.8, 0.7, 0.6], np.eye(3) * 1e-4, beta_scale=0.0)
    assert time_to_best(policy, [0.5, 0.9, 0.6], [3.0, 1.0, 6.0]) == pytest.approx(0.4)
    rng = np.random.RandomState(0)
    mean, cov = _random_prior(rng, 6)
    scores = rng.multivariate_normal(mean, cov, size=12)
    times = np.exp(rng.normal(size=(12, 6)) + np.arange(6))
    scale, shares = tune_beta_scale(scores, times=times, scales=(0.0, 0.1, 1.0))
    assert scale in (0.0, 0.1, 1.0) and np.all((shares > 0) & (shares <= 1))
    assert shares[[0.0, 0.1, 1.0].index(scale)] == shares.min()


# -------------------------------------------------------------- speculative picks
def test_a_list_of_learners_with_the_kernel_prior_warns_and_says_what_to_pass_instead():
    X, y = load_iris(return_X_y=True)
    learners = [LogisticRegression(max_iter=1000), GaussianNB(), DecisionTreeClassifier()]
    with pytest.warns(UserWarning, match="prior='kernel' shares nothing between the 3 "
                      "candidates") as caught:
        GPUCBSelector(learners, prior="kernel", cv=CV3, random_state=0).fit(X, y)
    message = str(caught[0].message)
    for advice in ("GridSearchCV", "prior=<their scores>", "cv_results_", "prior='lcdb'",
                   "DAUBSearch"):
        assert advice in message
    assert caught[0].filename == __file__  # points at the fit


@pytest.mark.parametrize("make", [
    lambda: GPUCBSelector(LogisticRegression(max_iter=1000), {"C": [0.1, 1.0, 10.0]}),
    lambda: GPUCBSelector([LogisticRegression(max_iter=1000), GaussianNB()], n_iter=2),
    lambda: GPUCBSelector([LogisticRegression(max_iter=1000), GaussianNB()],
                          prior=[[0.9, 0.8], [0.7, 0.75], [0.8, 0.8]]),
])
def test_no_warning_where_the_prior_tells_candidates_apart_or_n_iter_bounds_the_cost(make):
    X, y = load_iris(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        make().set_params(cv=CV3, random_state=0).fit(X, y)




def _branching_prior():
    """The pick after candidate 0 depends on its score: 1 if it is high, 2 if it is low.

    1 and 3 move with 0 (correlation 0.9), 2 does not; 3 is never the
    second pick, since 1 moves as much and starts higher.
    """
    sd = 0.05
    corr = np.eye(4)
    corr[0, 1] = corr[1, 0] = corr[0, 3] = corr[3, 0] = 0.9
    corr[1, 3] = corr[3, 1] = 0.81
    return np.array([0.80, 0.79, 0.78, 0.785]), sd**2 * corr


@pytest.mark.parametrize("score_of_0, second", [(0.85, 1), (0.70, 2)])
def test_speculative_picks_are_the_sequential_runs_likely_next_picks(score_of_0, second):
    mean, cov = _branching_prior()
    policy = GPUCBPolicy(mean, cov, beta_scale=0.0, n_iter=2, random_state=0)
    # The hallucinated variance alone would run 1 and 3 beside 0 (the means
    # unchanged, 3 has the highest mean after 1); 3 is never picked, and the
    # branches at least a quarter of the simulated runs take are.
    first = [c for c, _ in policy.ask(3)]
    picked = policy._likely_picks()  # as computed for the ask
    assert first[0] == 0 and first[1:] == [c for c, _ in picked if c != 0]
    assert first[1:] and set(first[1:]) <= {1, 2}
    policy.tell(0, "all", score_of_0)
    # The second pick is the decision now: running already, or handed out.
    assert policy.ask(1) == ([] if second in first else [(second, "all")])
    for c in first[1:]:
        policy.tell(c, "all", 0.5 if c == second else 0.6)
    if second not in first:
        policy.tell(second, "all", 0.5)
    assert policy.done and [c for c, _ in policy.decisions_] == [0, second]


def test_speculates_only_on_picks_the_run_makes_more_often_than_not():
    """A speculative pick is wasted when the run does not make it: one it makes in fewer
    than half the simulated runs would waste more worker seconds than it saves."""
    sd = 0.05
    loads = np.array([1.0, 0.8, 0.0, -0.5])  # 1 rises with 0, 3 falls with it, 2 neither
    cov = sd**2 * (np.outer(loads, loads) + np.diag([0.0, 0.36, 0.5, 0.75]))
    policy = GPUCBPolicy([0.9, 0.8, 0.8, 0.8], cov, n_iter=2, random_state=0)
    runs = policy._LOOKAHEAD_RUNS
    shares = {}
    for k in range(1, runs + 1):  # how many of the simulated runs pick each candidate
        policy._SPECULATE_SHARE = k / runs
        policy._likely = None
        shares.update({c: k for c, _ in policy._simulate_ahead()})
    assert shares == {0: 8, 1: 5, 3: 3}
    del policy._SPECULATE_SHARE
    policy._likely = None
    assert policy.ask(3) == [(0, "all"), (1, "all")]  # 3, picked by 3 runs in 8, idles


@pytest.mark.parametrize("asynchronous", [False, True])
def test_not_speculative_asks_give_decisions_only(asynchronous):
    mean, cov = _branching_prior()
    policy = GPUCBPolicy(mean, cov, beta_scale=0.0, n_iter=3, random_state=0,
                         asynchronous=asynchronous)
    # Sequentially only the run's next pick is sure; asynchronously every pick is a decision.
    assert len(policy.ask(3, speculative=False)) == (3 if asynchronous else 1)
    # Speculatively, more: the sequential run's likely next picks; asynchronously, n_iter is
    # reached.
    assert bool(policy.ask(3)) != asynchronous


# ------------------------------------------------------------- asynchronous picks


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("tol", [None, 0.003])
def test_asynchronous_with_one_worker_is_the_sequential_algorithm(seed, tol):
    rng = np.random.RandomState(seed)
    mean, cov = _random_prior(rng, 10)
    scores = rng.uniform(0.5, 0.9, size=10)
    runs = {}
    for asynchronous in (False, True):
        policy = GPUCBPolicy(mean, cov, n_iter=6, tol=tol, random_state=0,
                             asynchronous=asynchronous)
        runs[asynchronous] = simulate(policy, scores).decisions
    assert runs[True] == runs[False]


def test_asynchronous_picks_condition_on_the_evaluations_running():
    rng = np.random.RandomState(0)
    mean, cov = _random_prior(rng, 8)
    policy = GPUCBPolicy(mean, cov, n_iter=5, random_state=0, asynchronous=True)
    picks = [c for c, _ in policy.ask(3)]
    # By hand: each pick is the UCB argmax with the earlier ones' variance known.
    for k, pick in enumerate(picks):
        given = picks[:k]  # nothing observed yet: the mean is the prior's
        var = np.diag(cov).copy()
        if given:
            inv = np.linalg.inv(cov[np.ix_(given, given)] + 0.01**2 * np.eye(len(given)))
            var -= np.einsum("kg,gh,hk->k", cov[:, given], inv, cov[given, :])
        ucb = mean + np.sqrt(policy.beta(k + 1)) * np.sqrt(np.maximum(var, 0))
        ucb[given] = -np.inf
        assert pick == int(np.argmax(ucb))
    # Every pick is a decision: after their results, two more, then done.
    scores = rng.uniform(0.5, 0.9, size=8)
    for c in picks:
        assert not policy.done  # the evaluations running are decisions
        policy.tell(c, "all", scores[c])
    rest = [c for c, _ in policy.ask(5)]
    assert len(rest) == 2 and not set(rest) & set(picks)
    for c in rest:
        policy.tell(c, "all", scores[c])
    assert policy.done and policy.ask(1) == []
    assert sorted(c for c, _ in policy.decisions_) == sorted(picks + rest)
    assert policy.best_ == max(picks + rest, key=lambda c: scores[c])


def test_asynchronous_selector_with_one_worker_equals_the_sequential_one():
    X, y = load_iris(return_X_y=True)
    est = LogisticRegression(max_iter=1000)
    runs = [GPUCBSelector(est, GRID, n_iter=4, cv=CV3, random_state=0, asynchronous=a)
            .fit(X, y) for a in (False, True)]
    assert runs[0].policy_.decisions_ == runs[1].policy_.decisions_
    assert runs[0].best_params_ == runs[1].best_params_
    parallel = GPUCBSelector(est, GRID, n_iter=4, cv=CV3, random_state=0, n_jobs=2,
                             asynchronous=True).fit(X, y)
    # Every evaluation run is a decision: none speculative.
    assert not np.any(parallel.all_cv_results_["speculative"])
    assert np.count_nonzero(parallel.cv_results_["n_folds_run"]) == 4


# ------------------------------------------------------------ batch picks (GP-BUCB)


def _gp_bucb_by_hand(mean, cov, scores, batch_size, n_iter, noise=0.01, delta=0.1):
    """GP-BUCB with a fixed lag, by hand: pick p is the UCB argmax with the mean of the first
    p - batch_size + 1 picks' scores and the variance given all p picks before it."""
    picks = []
    for p in range(n_iter):
        known = picks[:max(0, p - batch_size + 1)]
        mu = _closed_form_posterior(mean, cov, noise, known, scores[known])[0] if known \
            else np.asarray(mean, dtype=float)
        std = (_closed_form_posterior(mean, cov, noise, picks, np.zeros(len(picks)))[1]
               if picks else np.sqrt(np.diag(cov)))
        beta = np.log(len(mean) * (p + 1) ** 2 / delta)
        ucb = mu + np.sqrt(beta) * std
        ucb[picks] = -np.inf
        picks.append(int(np.argmax(ucb)))
    return picks


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("batch_size", [1, 2, 4])
def test_batch_picks_are_gp_bucb_by_hand_for_any_workers(seed, batch_size):
    rng = np.random.RandomState(seed)
    mean, cov = _random_prior(rng, 12)
    scores = rng.uniform(0.5, 0.9, size=12)
    expected = _gp_bucb_by_hand(mean, cov, scores, batch_size, n_iter=7)
    for n_workers in (1, 3, 8):
        policy = GPUCBPolicy(mean, cov, n_iter=7, random_state=0, batch_size=batch_size)
        run = simulate(policy, scores, n_workers, durations=rng.uniform(1, 5, size=12))
        assert [c for c, _ in run.decisions] == expected


def test_a_batch_is_handed_out_at_once_and_n_iter_counts_it():
    rng = np.random.RandomState(0)
    mean, cov = _random_prior(rng, 10)
    policy = GPUCBPolicy(mean, cov, n_iter=5, random_state=0, batch_size=3)
    first = policy.ask(10, speculative=False)
    assert len(first) == 3  # picks 0, 1, 2: none needs a result
    (c, r), = first[:1]
    policy.tell(c, r, 0.7)
    assert len(policy.ask(10, speculative=False)) == 1  # pick 3 needs pick 0's result only
    for c, r in first[1:]:
        policy.tell(c, r, 0.6)
    last = policy.ask(10, speculative=False)
    assert len(last) == 1  # n_iter=5 counts the evaluations running
    assert len(policy.history_) == 5


def test_the_batch_stops_growing_once_the_pending_evaluations_would_settle_the_answer():
    # Candidate 0 is far ahead in the prior and 1 to 4 follow it closely (correlated):
    # pending at its posterior mean, 0 leaves the others no chance, so nothing joins it.
    mean = np.array([0.95, 0.70, 0.70, 0.70, 0.70])
    cov = 0.0004 * (0.9 * np.ones((5, 5)) + 0.1 * np.eye(5))
    policy = GPUCBPolicy(mean, cov, tol=0.01, risk=0.1, random_state=0, batch_size=4)
    assert policy.ask(4, speculative=False) == [(0, "all")]
    # Without the stop (no tol), the batch fills up.
    policy = GPUCBPolicy(mean, cov, n_iter=5, random_state=0, batch_size=4)
    assert len(policy.ask(4, speculative=False)) == 4


@pytest.mark.parametrize("slow_first", [False, True])
def test_two_workers_and_two_seconds_select_the_quick_learner_not_the_slow_ones_folds(
        slow_first):
    # A learner whose fit takes 20 s beside a quick one, max_time=2 on two workers: a
    # worker takes the quick learner's folds while the other is in the slow one's first
    # fold, and the search ends with the quick learner, long before the slow fit would.
    from _common import NappingTree
    from joblib import Parallel, delayed

    X, y = load_iris(return_X_y=True)
    # Workers started beforehand: the case is the schedule, not loky's start (which the
    # grace of max_time covers, tests/test_engine.py).
    Parallel(n_jobs=2)(delayed(abs)(i) for i in range(4))
    learners = [NappingTree(nap=20.0), LogisticRegression(max_iter=1000)]
    if not slow_first:
        learners.reverse()
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the limit ended the search: said
        search = GPUCBSelector(learners, max_time=2, n_jobs=2, random_state=0).fit(X, y)
    assert time.perf_counter() - start < 20
    assert isinstance(search.best_estimator_, LogisticRegression)
    assert search.stop_reason_ == "max_time"
    quick = learners.index(learners[0] if not slow_first else learners[1])
    assert search.cv_results_["n_folds_run"][quick] == 5
    assert search.cv_results_["rank_test_score"][quick] == 1


# ------------------------------------------------------------ stopping, selector


def _earlier_results():
    """Fixed earlier ``cv_results_`` (scores and fit times) over the candidates of GRID."""
    from sklearn.model_selection import ParameterGrid

    params = list(ParameterGrid(GRID))
    return [{"params": params,
             "mean_test_score": 0.9 + 0.003 * np.arange(9)
             + 0.04 * np.sin((s + 1) * (np.arange(9) + 1)),
             "mean_fit_time": np.array([64.0, 32, 16, 8, 4, 2, 1, 1, 1]) * (1 + s)}
            for s in range(4)]


def test_int_n_iter_keeps_the_previous_evaluation_order():
    # Pinned: the candidates evaluated by n_iter=5 before n_iter="auto" existed,
    # with the prior costs (then the default) and without; the paper's prior, taken
    # as it is (empirical_bayes=False).
    X, y = load_iris(return_X_y=True)
    est = LogisticRegression(max_iter=1000)
    for cost in ("prior", None):
        search = GPUCBSelector(est, GRID, prior=_earlier_results(), n_iter=5, cv=CV3,
                               beta_scale=0.1, cost=cost, empirical_bayes=False,
                               random_state=0).fit(X, y)
        assert [c for c, _ in search.policy_.history_] == [6, 7, 1, 0, 4]
        assert search.policy_.tol is None


def test_auto_stops_by_tol_within_max_iter_and_is_reproducible(capsys):
    X, y = load_iris(return_X_y=True)
    est = LogisticRegression(max_iter=1000)
    runs = [GPUCBSelector(est, GRID, prior=_earlier_results(), cv=CV3, random_state=0,
                          n_jobs=n_jobs, verbose=1).fit(X, y) for n_jobs in (1, 2)]
    search = runs[0]
    n = np.count_nonzero(search.cv_results_["n_folds_run"])
    policy = search.policy_
    assert (policy.tol, policy.risk, policy.n_iter) == (0.01, 0.1, 9)
    assert policy.empirical_bayes and search.beta_scale_ == AUTO_BETA_SCALE
    assert n < 9 and policy.probability_left() <= 0.1
    # The same answer with two workers (the decisions are the sequential run's).
    assert runs[1].policy_.decisions_ == policy.decisions_
    assert runs[1].best_params_ == search.best_params_
    # verbose says why it stopped.
    assert capsys.readouterr().out.count(
        f"(stopped: the answer is known after {n} evaluations") == 2
    # risk=0 never stops early; max_iter caps it.
    everything = GPUCBSelector(est, GRID, prior=_earlier_results(), cv=CV3, risk=0.0,
                               random_state=0).fit(X, y)
    assert _evaluated(everything.cv_results_).sum() == 9
    capped = GPUCBSelector(est, GRID, prior=_earlier_results(), cv=CV3, risk=0.0, max_iter=3,
                           random_state=0).fit(X, y)
    assert _evaluated(capped.cv_results_).sum() == 3
    # n_iter_ is where each stopped, as scikit-learn's estimators with a max_iter say.
    assert (search.n_iter_, everything.n_iter_, capped.n_iter_) == (n, 9, 3)


@pytest.mark.parametrize("seed", range(3))
def test_auto_cost_reorders_only_with_max_time(seed):
    # Brute force on random priors and costs: cost="auto" without max_time is
    # the paper's rule, pick for pick; with a time budget it is the cost rule.
    rng = np.random.RandomState(seed)
    X, y = load_iris(return_X_y=True)
    est = LogisticRegression(max_iter=1000)
    earlier = _earlier_results()
    for r in earlier:
        r["mean_test_score"] = rng.uniform(0.85, 0.95, 9)
        r["mean_fit_time"] = rng.uniform(0.01, 10.0, 9)
    kwargs = dict(prior=earlier, n_iter=6, cv=CV3, beta_scale=0.1, random_state=seed)
    auto = GPUCBSelector(est, GRID, **kwargs).fit(X, y)
    paper = GPUCBSelector(est, GRID, cost=None, **kwargs).fit(X, y)
    assert auto.cost_ is None and auto.policy_.history_ == paper.policy_.history_
    timed = GPUCBSelector(est, GRID, max_time=1e6, **kwargs).fit(X, y)
    times = np.array([r["mean_fit_time"] for r in earlier])
    np.testing.assert_allclose(timed.cost_, cost_prior_from_times(times))


class _FailsAboveC(LogisticRegression):
    """A logistic regression whose fit fails for C > 1."""

    def fit(self, X, y, sample_weight=None):
        if self.C > 1:
            raise ValueError("C too large")
        return super().fit(X, y, sample_weight)


def test_auto_never_selects_a_failed_candidate():
    X, y = load_iris(return_X_y=True)
    earlier = _earlier_results()  # the prior favours the large C, which fail
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FitFailedWarning)
        with pytest.warns(UserWarning, match="non-finite"):
            search = GPUCBSelector(_FailsAboveC(max_iter=1000), GRID, prior=earlier, cv=CV3,
                                   random_state=0).fit(X, y)
    failed = np.isnan(search.cv_results_["mean_test_score"])
    assert failed.any() and not failed.all()
    assert search.best_params_["C"] <= 1
    assert not failed[search.best_index_]


# -------------------------------------------------------------- first looks


def _look_probability(policy, candidate, scores):
    """Hand-computed P(f(candidate) - f(best) > tol) once `scores` (first folds) are observed."""
    best = policy.best_
    observed = list(policy.observed_)
    pooled = np.mean([np.var(s, ddof=1) for s in policy._fold_scores.values()])
    extra = max(pooled, policy.noise**2) * (1 / len(scores) - 1 / policy.n_folds)
    y = np.r_[[policy.observed_[c] for c in observed], np.mean(scores)]
    noise = np.r_[[policy.noise**2] * len(observed), policy.noise**2 + extra]
    points = observed + [candidate]
    K = policy.cov[np.ix_(points, points)] + np.diag(noise)
    pair = [best, candidate]
    k = policy.cov[np.ix_(pair, points)]
    mean = policy.mean[pair] + k @ np.linalg.solve(K, y - policy.mean[points])
    cov = policy.cov[np.ix_(pair, pair)] - k @ np.linalg.solve(K, k.T)
    sd = np.sqrt(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
    return stats.norm.cdf((mean[1] - mean[0] - policy.tol) / sd)


@pytest.mark.parametrize("seed", range(20))
def test_a_first_look_ends_where_the_posterior_says(seed):
    rng = np.random.RandomState(seed)
    K, n_folds = 6, 5
    A = rng.normal(size=(K, K))
    cov = 0.01 * (A @ A.T / K + np.eye(K))
    policy = GPUCBPolicy(rng.uniform(0.6, 0.8, K), cov, tol=0.01, risk=0.1, race=True,
                         n_folds=n_folds, random_state=seed)
    (first, resource), = policy.ask()
    folds = rng.uniform(0.7, 0.9, n_folds)
    policy.tell(first, resource, folds.mean(), fold_scores=list(folds))
    (candidate, resource), = policy.ask()
    scores = rng.uniform(0.4, 1.0, n_folds)
    expected = next((j for j in range(1, n_folds) if _look_probability(
        policy, candidate, scores[:j]) < policy.risk / K), None)
    ends = [policy.enough_folds(candidate, resource, list(scores[:j]))
            for j in range(1, n_folds)]
    assert ends.index(True) + 1 == expected if expected else not any(ends)


def test_first_looks_score_their_folds_as_grid_search_and_are_never_selected():
    X, y = load_iris(return_X_y=True)
    grid = {"C": np.logspace(-5, 2, 8).tolist()}
    est = LogisticRegression(max_iter=1000)
    searches = [GPUCBSelector(est, grid, prior="kernel", cv=CV3, tol=0.005, random_state=0,
                              n_jobs=n_jobs).fit(X, y) for n_jobs in (1, 2)]
    search = searches[0]
    results = search.cv_results_
    looks = results["first_look"]
    assert looks.any() and not looks.all()
    assert not looks[search.best_index_]
    gs = GridSearchCV(est, grid, cv=CV3).fit(X, y)
    for i in np.flatnonzero(_evaluated(results)):
        candidate = results["candidate_id"][i]
        n_run = search.policy_.folds_used_.get((candidate, search.policy_.resource), 3)
        assert n_run < 3 if looks[i] else n_run == 3
        for fold in range(3):
            score = results[f"split{fold}_test_score"][i]
            if fold < n_run:
                assert score == pytest.approx(gs.cv_results_[f"split{fold}_test_score"][candidate])
            else:
                assert np.isnan(score)
    ranks = results["rank_test_score"]
    assert ranks[looks].min() > ranks[~looks & _evaluated(results)].max()
    for key in ("candidate_id", "mean_test_score", "first_look", "rank_test_score"):
        np.testing.assert_array_equal(searches[1].cv_results_[key], results[key])


def test_without_race_every_candidate_runs_every_fold():
    X, y = load_iris(return_X_y=True)
    grid = {"C": np.logspace(-5, 2, 8).tolist()}
    search = GPUCBSelector(LogisticRegression(max_iter=1000), grid, prior="kernel", cv=CV3,
                           tol=0.005, random_state=0, race_folds=False).fit(X, y)
    assert "first_look" not in search.cv_results_
    evaluated = _evaluated(search.cv_results_)
    assert not np.isnan(search.cv_results_["split2_test_score"][evaluated]).any()
