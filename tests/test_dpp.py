"""Tests of the k-DPP samplers: each sampler against its own law, by brute force."""

import itertools

import numpy as np
import pytest
from scipy.special import gammaln
from scipy.stats import chisquare

from sksel.spaces import (
    elementary_symmetric_polynomials,
    sample_kdpp,
    sample_kdpp_low_rank,
    sample_kdpp_mcmc,
    sample_sequential,
)

N_ITEMS, K = 7, 3


def _rbf_kernel_matrix(n_items, seed=0, length_scale=0.5):
    X = np.random.RandomState(seed).uniform(size=(n_items, 2))
    squared_distances = ((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=-1)
    return np.exp(-squared_distances / (2 * length_scale**2))


@pytest.fixture(scope="module")
def L():
    return _rbf_kernel_matrix(N_ITEMS)


def _finite_set_chain(L):
    """Algorithm 2's `propose` and `kernel` over the items of `L`: uniform item indices."""
    def propose(n, rng):
        indices = rng.randint(len(L), size=n)
        return list(indices), indices[:, None]

    def kernel(F, G):
        return L[np.ix_(F[:, 0], G[:, 0])]

    return propose, kernel


def _unit_interval_chain(sigma):
    """Algorithm 2's `propose` and `kernel` on [0, 1]: uniform points, RBF of length `sigma`."""
    def propose(n, rng):
        x = rng.uniform(size=(n, 1))
        return list(x[:, 0]), x

    def kernel(F, G):
        return np.exp(-((F - G.T) ** 2) / (2 * sigma**2))

    return propose, kernel


def _kdpp_law(L, k):
    """P(A) = det(L_A) / sum_{|A'| = k} det(L_A'), over all subsets of size k."""
    subsets = list(itertools.combinations(range(len(L)), k))
    dets = np.array([np.linalg.det(L[np.ix_(A, A)]) for A in subsets])
    return subsets, dets / dets.sum()


def _sequential_law(L, k):
    """P(i_1, ..., i_k) = prod_t var_t(i_t) / sum_j var_t(j), over all orderings."""
    orderings = list(itertools.permutations(range(len(L)), k))
    probabilities = np.ones(len(orderings))
    for o, ordering in enumerate(orderings):
        for t in range(k):
            S = list(ordering[:t])
            if S:
                L_S = L[np.ix_(S, S)]
                var = np.diag(L) - np.einsum(
                    "ij,ji->i", L[:, S], np.linalg.solve(L_S, L[S, :])
                )
                var[S] = 0.0
            else:
                var = np.diag(L).copy()
            probabilities[o] *= var[ordering[t]] / var.sum()
    return orderings, probabilities


def _chisquare_pvalue(draws, outcomes, probabilities):
    position = {outcome: i for i, outcome in enumerate(outcomes)}
    counts = np.zeros(len(outcomes))
    for draw in draws:
        counts[position[tuple(int(i) for i in draw)]] += 1
    expected = probabilities * len(draws)
    assert expected.min() >= 5, "too few draws for a chi-square test"
    return chisquare(counts, expected).pvalue


def test_elementary_symmetric_polynomials_normalise_the_kdpp(L):
    eigenvalues = np.linalg.eigvalsh(L)
    E = elementary_symmetric_polynomials(eigenvalues, N_ITEMS)
    for k in range(N_ITEMS + 1):
        total = sum(
            np.linalg.det(L[np.ix_(A, A)])
            for A in itertools.combinations(range(N_ITEMS), k)
        )
        assert E[k, N_ITEMS] == pytest.approx(total, rel=1e-9)
    # Every column: coefficients of prod_{j < m} (x + lambda_j) (Vieta).
    for m in range(N_ITEMS + 1):
        coefficients = np.poly(-eigenvalues[:m]) if m else np.ones(1)
        np.testing.assert_allclose(E[: m + 1, m], coefficients, rtol=1e-9)
        np.testing.assert_array_equal(E[m + 1 :, m], 0.0)
    log_E = elementary_symmetric_polynomials(eigenvalues, N_ITEMS, log=True)
    np.testing.assert_allclose(np.exp(log_E), E, rtol=1e-12)


def test_elementary_symmetric_polynomials_large_n_and_k_stay_finite():
    n, k = 2500, 500
    rng = np.random.RandomState(0)
    for eigenvalues in (rng.uniform(0, 2, n), np.geomspace(1e3, 1e-3, n)):
        log_E = elementary_symmetric_polynomials(eigenvalues, k, log=True)
        assert log_E.shape == (k + 1, n + 1)
        rows, columns = np.indices(log_E.shape)
        assert np.all(np.isfinite(log_E[rows <= columns]))
        assert np.all(log_E[rows > columns] == -np.inf)
        assert not np.any(np.isnan(log_E))
    # e_500 of 2,500 ones is binomial(2500, 500), about 1e541.
    log_E = elementary_symmetric_polynomials(np.ones(n), k, log=True)
    expected = gammaln(n + 1) - gammaln(k + 1) - gammaln(n - k + 1)
    assert log_E[k, n] == pytest.approx(expected, rel=1e-12)


def test_sample_kdpp_follows_the_kdpp_law(L):
    subsets, probabilities = _kdpp_law(L, K)
    rng = np.random.RandomState(0)
    draws = [sample_kdpp(L, K, random_state=rng) for _ in range(20_000)]
    assert _chisquare_pvalue(draws, subsets, probabilities) > 0.01


def test_sample_kdpp_low_rank_follows_the_kdpp_law():
    B = np.random.RandomState(1).normal(size=(N_ITEMS, 4))
    subsets, probabilities = _kdpp_law(B @ B.T, K)
    rng = np.random.RandomState(0)
    draws = [sample_kdpp_low_rank(B, K, random_state=rng) for _ in range(20_000)]
    assert _chisquare_pvalue(draws, subsets, probabilities) > 0.01


def test_sample_kdpp_mcmc_converges_to_the_kdpp_law(L):
    # A finite base set seen through Algorithm 2: proposals are uniform item
    # indices (with replacement), the kernel reads entries of L. 300 steps
    # cross a batch boundary (the inverse is refreshed there) and bring the
    # chain within 1e-6 of its stationary law in total variation.
    propose, kernel = _finite_set_chain(L)
    subsets, probabilities = _kdpp_law(L, K)
    draws = []
    for seed in range(2000):
        items, features = sample_kdpp_mcmc(propose, kernel, K, 300, random_state=seed)
        np.testing.assert_array_equal(features[:, 0], items)
        draws.append(sorted(items))
    assert _chisquare_pvalue(draws, subsets, probabilities) > 0.01


def test_sample_kdpp_mcmc_spreads_points_in_a_continuous_space():
    propose, kernel = _unit_interval_chain(0.05)
    k = 10
    items, features = sample_kdpp_mcmc(propose, kernel, k, 3000, random_state=0)
    assert len(items) == k and features.shape == (k, 1)
    np.testing.assert_array_equal(features[:, 0], items)
    # 10 uniform points have a gap below 0.03 with probability 0.96; the
    # k-DPP repels points closer than about a length scale.
    assert np.diff(np.sort(features[:, 0])).min() > 0.03
    # Continuing the chain from its end.
    again = sample_kdpp_mcmc(
        propose, kernel, k, 10, random_state=1, init=(items, features)
    )
    assert len(again[0]) == k


def test_sample_sequential_follows_its_own_law():
    # Qualities q make the first draw (proportional to L[i, i]) non-uniform.
    quality = np.random.RandomState(1).uniform(0.5, 1.5, size=6)
    L = _rbf_kernel_matrix(6) * np.outer(quality, quality)
    orderings, probabilities = _sequential_law(L, K)
    rng = np.random.RandomState(0)
    draws = [sample_sequential(L, K, random_state=rng) for _ in range(20_000)]
    assert _chisquare_pvalue(draws, orderings, probabilities) > 0.01


def test_sequential_law_is_not_the_kdpp_law():
    quality = np.random.RandomState(1).uniform(0.5, 1.5, size=6)
    L = _rbf_kernel_matrix(6) * np.outer(quality, quality)
    orderings, probabilities = _sequential_law(L, K)
    subsets, kdpp_probabilities = _kdpp_law(L, K)
    unordered = dict.fromkeys(subsets, 0.0)
    for ordering, probability in zip(orderings, probabilities):
        unordered[tuple(sorted(ordering))] += probability
    total_variation = (
        0.5 * np.abs(np.array(list(unordered.values())) - kdpp_probabilities).sum()
    )
    assert total_variation > 0.05


def test_sample_kdpp_mcmc_long_chain_on_a_dense_set_stays_non_singular():
    # Many near-duplicate swaps: the kept inverse is refreshed after them.
    k = 40
    propose, kernel = _unit_interval_chain(np.sqrt(2) / k)
    items, features = sample_kdpp_mcmc(propose, kernel, k, 5000, random_state=0)
    eigenvalues = np.linalg.eigvalsh(kernel(features, features))
    assert len(items) == k and np.all(np.isfinite(features))
    assert eigenvalues.min() > 1e-10


def test_sample_kdpp_low_rank_large_pool():
    B = np.random.RandomState(0).normal(size=(2500, 600))
    # e_500 of these eigenvalues (about 2500 each) is far beyond float range.
    log_E = elementary_symmetric_polynomials(np.linalg.eigvalsh(B.T @ B), 500, log=True)
    assert log_E[500, -1] > np.log(np.finfo(float).max)
    indices = sample_kdpp_low_rank(B, 500, random_state=0)
    assert indices.shape == (500,)
    assert len(np.unique(indices)) == 500
    assert np.all((0 <= indices) & (indices < 2500))


@pytest.mark.parametrize(
    "sampler", [sample_kdpp, sample_sequential, sample_kdpp_low_rank]
)
def test_samplers_are_reproducible_and_draw_distinct_items(L, sampler):
    first = sampler(L, K, random_state=3)
    np.testing.assert_array_equal(first, sampler(L, K, random_state=3))
    assert len(np.unique(first)) == K


def test_sample_kdpp_at_full_rank():
    B = np.random.RandomState(0).normal(size=(8, 3))
    assert np.unique(sample_kdpp(B @ B.T, 3, random_state=0)).size == 3
    assert sample_kdpp_low_rank(B, 3, random_state=0).size == 3


@pytest.mark.parametrize("sampler", [sample_kdpp, sample_sequential])
def test_kernel_matrix_samplers_reject_bad_input(L, sampler):
    with pytest.raises(ValueError, match="k must be an integer >= 1"):
        sampler(L, 0)
    with pytest.raises(ValueError, match="k must be an integer >= 1"):
        sampler(L, 1.5)
    with pytest.raises(ValueError, match="k=8 exceeds"):
        sampler(L, N_ITEMS + 1)
    with pytest.raises(ValueError, match="L must be a square"):
        sampler(L[:, :-1], K)
    with pytest.raises(ValueError, match="L must be symmetric"):
        sampler(L + np.triu(np.ones_like(L)), K)
    B = np.random.RandomState(0).normal(size=(N_ITEMS, 2))
    with pytest.raises(ValueError, match="k=3 exceeds the rank of L"):
        sampler(B @ B.T, K)


def test_sample_kdpp_rejects_an_indefinite_matrix():
    with pytest.raises(ValueError, match="L must be positive semi-definite"):
        sample_kdpp(np.diag([1.0, 2.0, -1.0]), 1)


def test_sample_kdpp_low_rank_rejects_bad_input():
    B = np.random.RandomState(0).normal(size=(10, 4))
    with pytest.raises(ValueError, match="k=5 exceeds the rank of B @ B.T"):
        sample_kdpp_low_rank(B, 5)
    with pytest.raises(ValueError, match="k must be an integer >= 1"):
        sample_kdpp_low_rank(B, 0)
    with pytest.raises(ValueError, match="B must be a 2-D array"):
        sample_kdpp_low_rank(B[0], 1)


def test_sample_kdpp_mcmc_rejects_bad_input(L):
    propose, kernel = _finite_set_chain(L)
    with pytest.raises(ValueError, match="k must be an integer >= 1"):
        sample_kdpp_mcmc(propose, kernel, 0, 10)
    with pytest.raises(ValueError, match="n_steps must be an integer >= 0"):
        sample_kdpp_mcmc(propose, kernel, K, -1)
    with pytest.raises(ValueError, match="init must have a non-singular"):
        sample_kdpp_mcmc(
            propose, kernel, K, 10, init=([0, 0, 1], np.array([[0], [0], [1]]))
        )
    with pytest.raises(ValueError, match="init must give a list of 3 items"):
        sample_kdpp_mcmc(propose, kernel, K, 10, init=([0, 1], np.array([[0], [1]])))
    with pytest.raises(ValueError, match="singular kernel matrix"):
        sample_kdpp_mcmc(propose, kernel, N_ITEMS + 1, 10, random_state=0)


def test_elementary_symmetric_polynomials_reject_bad_input():
    with pytest.raises(ValueError, match="eigenvalues must be finite and non-negative"):
        elementary_symmetric_polynomials([1.0, -1.0], 1)
    with pytest.raises(ValueError, match="eigenvalues must be a 1-D array"):
        elementary_symmetric_polynomials(np.eye(2), 1)
    with pytest.raises(ValueError, match="k must be an integer >= 0"):
        elementary_symmetric_polynomials([1.0], -1)
