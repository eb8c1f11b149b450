"""Samplers of diverse subsets: k-determinantal point processes (k-DPPs).

A DPP over a base set with kernel matrix ``L`` (``L[i, j] = K(phi_i, phi_j)``
for a similarity kernel ``K`` of featurised items ``phi``) draws a subset
``A`` with probability proportional to ``det(L_A)``; a k-DPP only draws
subsets of size ``k``, with probability ``det(L_A) / e_k(lambda)``, where
``e_k`` is the k-th elementary symmetric polynomial of the eigenvalues of
``L``. Similar items rarely appear together, so a k-DPP sample covers the base
set better than ``k`` independent uniform draws.

Samplers, and what each is for:

- :func:`sample_kdpp`: exact sampler over a finite base set given its full
  ``(n, n)`` kernel matrix (spectral algorithm of Kulesza & Taskar, 2012). It
  costs an ``O(n^3)`` eigendecomposition, then ``O(n k^2)``.
- :func:`sample_kdpp_low_rank`: the same exact law for ``L = B @ B.T`` given
  the ``(n, D)`` factor ``B`` (e.g. random features), through the dual
  ``(D, D)`` eigenproblem; ``O(n D^2 + n k^2)``, which makes large candidate
  pools fast.
- :func:`sample_kdpp_mcmc`: Algorithm 2 of Dodge et al. (2017), a
  Metropolis-Hastings chain whose stationary law is the k-DPP over any base
  set one can draw from (continuous, mixed, or tree-structured
  hyperparameter spaces), at ``O(k^2)`` per step.
- :func:`sample_dpp`: exact sampler of the DPP of any size (L-ensemble),
  whose draw's size comes out of ``L``; :func:`dpp_map` its mode, found
  greedily (an ensemble's members, :mod:`sksel.ensemble`).
- :func:`sample_sequential`: sequential draws proportional to the updated
  Gaussian-process posterior variance (Hennig & Garnett, 2016). It grows a
  sample one point at a time cheaply, but its law is **not** the k-DPP law.

:func:`elementary_symmetric_polynomials` gives the table of ``e_l`` that the
spectral samplers use to pick eigenvectors.

References
----------
.. [1] A. Kulesza and B. Taskar, "Determinantal point processes for machine
   learning", Foundations and Trends in Machine Learning, 2012.
.. [2] J. Dodge, K. Jamieson and N. A. Smith, "Open loop hyperparameter
   optimization and determinantal point processes", 2017.
.. [3] P. Hennig and R. Garnett, "Exact sampling from determinantal point
   processes", 2016.
"""

import numbers

import numpy as np
from scipy import linalg
from sklearn.utils import check_random_state

# A point whose kernel variance, conditioned on the other points of a set,
# is below this fraction of its prior variance makes the set singular.
_SINGULAR_RTOL = 1e-10
# Attempts at a non-singular initial set of proposals in `sample_kdpp_mcmc`.
_MAX_INIT_DRAWS = 100
# Largest error amplification of an in-place update of the inverse kernel
# matrix in `sample_kdpp_mcmc`; beyond it the inverse is recomputed. In 1-D
# with sigma = sqrt(2) / k (k = 100, 300) this keeps the diagonal of the
# inverse within 1e-6 (relative) of a fresh inverse, where updates alone
# drift by over 10% within 256 steps.
_MAX_UPDATE_AMPLIFICATION = 1e4


def _check_k(k, name="k", minimum=1):
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {k!r}.")
    return int(k)


def _check_kernel_matrix(L):
    L = np.asarray(L, dtype=float)
    if L.ndim != 2 or L.shape[0] != L.shape[1]:
        raise ValueError(f"L must be a square 2-D array, got shape {L.shape}.")
    if not np.all(np.isfinite(L)):
        raise ValueError("L must contain only finite values.")
    if not np.allclose(L, L.T, rtol=1e-8, atol=1e-12 * np.abs(L).max(initial=0)):
        raise ValueError("L must be symmetric.")
    return L


def _clip_eigenvalues(eigenvalues, size, name):
    """Zero the eigenvalues that are numerically zero; reject negative ones."""
    tol = eigenvalues.max(initial=0.0) * size * np.finfo(float).eps
    if eigenvalues.min(initial=0.0) < -tol:
        raise ValueError(
            f"{name} must be positive semi-definite; it has the eigenvalue "
            f"{eigenvalues.min():.3g}."
        )
    return np.where(eigenvalues > tol, eigenvalues, 0.0)


def _check_k_le_rank(k, eigenvalues, name):
    rank = np.count_nonzero(eigenvalues)
    if k > rank:
        raise ValueError(
            f"k={k} exceeds the rank of {name} ({rank}); a k-DPP draws at most "
            "rank(L) items."
        )


def _log_elementary_symmetric_polynomials(eigenvalues, k):
    """Table of log e_l(eigenvalues[:m]), l <= k, by a log-space recurrence.

    e_l(lambda_1..m) = sum_{j <= m} lambda_j e_{l-1}(lambda_1..j-1) (j is the
    largest index of the subset), a cumulative log-sum-exp along m.
    """
    with np.errstate(divide="ignore"):
        log_eigenvalues = np.log(eigenvalues)
    log_e = np.full((k + 1, len(eigenvalues) + 1), -np.inf)
    log_e[0] = 0.0
    for order in range(1, k + 1):
        log_e[order, 1:] = np.logaddexp.accumulate(
            log_eigenvalues + log_e[order - 1, :-1]
        )
    return log_e


def elementary_symmetric_polynomials(eigenvalues, k, *, log=False):
    """Elementary symmetric polynomials of the leading eigenvalues.

    The table of Kulesza & Taskar (2012), Algorithm 7, which the spectral
    k-DPP samplers use to choose eigenvectors: ``E[l, m]`` is ``e_l``, the sum
    of the products of all ``l``-subsets of ``eigenvalues[:m]``. In
    particular ``E[k, n]`` normalises the k-DPP: it is the sum of ``det(L_A)``
    over all subsets ``A`` of size ``k``.

    The table is computed in log space, where it cannot overflow or underflow
    whatever ``n`` and ``k``; ``e_k`` of thousands of eigenvalues commonly
    exceeds the floating-point range (``e_500`` of 2,500 eigenvalues equal to
    1 is about ``4e541``), so for large ``n`` and ``k`` ask for ``log=True``.

    Parameters
    ----------
    eigenvalues : array-like of shape (n,)
        Non-negative values (the eigenvalues of a kernel matrix).
    k : int
        Largest order ``l`` to compute, ``k >= 0``.
    log : bool, default=False
        Return ``log(E)`` (``-inf`` where ``E`` is zero, i.e. ``l > m`` or too
        few non-zero eigenvalues) instead of ``E``, whose entries beyond the
        floating-point range are ``inf``.

    Returns
    -------
    E : ndarray of shape (k + 1, n + 1)
        ``E[l, m] = e_l(eigenvalues[:m])``, or its logarithm.

    Examples
    --------
    >>> from sksel.spaces import elementary_symmetric_polynomials
    >>> elementary_symmetric_polynomials([1.0, 2.0, 3.0], 2)
    array([[ 1.,  1.,  1.,  1.],
           [ 0.,  1.,  3.,  6.],
           [ 0.,  0.,  2., 11.]])
    >>> E = elementary_symmetric_polynomials([1.0] * 2500, 500, log=True)
    >>> round(float(E[500, 2500]), 2)  # log of binomial(2500, 500)
    1247.09
    """
    eigenvalues = np.asarray(eigenvalues, dtype=float)
    if eigenvalues.ndim != 1:
        raise ValueError(
            f"eigenvalues must be a 1-D array, got shape {eigenvalues.shape}."
        )
    if not np.all(np.isfinite(eigenvalues)) or np.any(eigenvalues < 0):
        raise ValueError("eigenvalues must be finite and non-negative.")
    k = _check_k(k, minimum=0)
    log_e = _log_elementary_symmetric_polynomials(eigenvalues, k)
    return log_e if log else np.exp(log_e)


def _draw_index(weights, rng):
    """An index drawn with probability proportional to non-negative `weights`."""
    cumulative = np.cumsum(weights)
    return int(
        np.searchsorted(cumulative, rng.uniform() * cumulative[-1], side="right")
    )


def _select_eigenvectors(eigenvalues, k, rng):
    """Positions of k eigenvectors drawn as in Kulesza & Taskar, Algorithm 8.

    Algorithm 8 scans m = n, ..., 1 and keeps eigenvector m with probability
    lambda_m e_{l-1}(lambda_1..m-1) / e_l(lambda_1..m), l the number still to
    keep. The skips telescope: the next kept m has cumulative distribution
    e_l(lambda_1..m) / e_l(lambda_1..m_max), so each of the k picks is one
    inverse-CDF draw on a row of the table.
    """
    log_e = _log_elementary_symmetric_polynomials(eigenvalues, k)
    selected = np.empty(k, dtype=int)
    upper = len(eigenvalues)
    for remaining in range(k, 0, -1):
        row = log_e[remaining, : upper + 1]
        target = np.log1p(-rng.uniform()) + row[upper]
        upper = int(np.searchsorted(row, target, side="left")) - 1
        selected[remaining - 1] = upper
    return selected


def _sample_projection_dpp(V, rng):
    """Sample the projection DPP spanned by the orthonormal columns of V.

    Alg. 1 of Kulesza & Taskar, second phase, done as sequential draws: item
    j comes next with probability proportional to the squared norm of row
    V[j] projected off the span of the rows already drawn. That span gets one
    new orthonormal direction per draw, and every residual norm is updated by
    one matrix-vector product.
    """
    size = V.shape[1]
    residual = np.einsum("ij,ij->i", V, V)
    basis = np.zeros((size, size))
    chosen = np.empty(size, dtype=int)
    for step in range(size):
        j = _draw_index(np.clip(residual, 0.0, None), rng)
        direction = V[j]
        # Gram-Schmidt against the drawn rows, twice for orthogonality.
        for _ in range(2):
            direction = direction - basis[:step].T @ (basis[:step] @ direction)
        direction /= np.linalg.norm(direction)
        basis[step] = direction
        residual -= (V @ direction) ** 2
        residual[j] = 0.0
        chosen[step] = j
    return np.sort(chosen)


def sample_kdpp(L, k, random_state=None):
    """Draw an exact sample of a k-DPP over a finite set.

    Spectral algorithm of Kulesza & Taskar (2012): eigendecompose ``L``,
    choose ``k`` eigenvectors with probabilities given by the elementary
    symmetric polynomials of the eigenvalues (their Algorithm 8), then sample
    the projection DPP spanned by the chosen eigenvectors (Algorithm 1,
    second phase). Subset ``A`` with ``|A| = k`` is drawn with probability
    ``det(L_A) / e_k(lambda)``.

    Cost: ``O(n^3)`` for the eigendecomposition, then ``O(n k^2)``.

    Parameters
    ----------
    L : array-like of shape (n, n)
        Symmetric positive semi-definite kernel matrix. Negative eigenvalues
        of rounding-error size are treated as zero.
    k : int
        Number of items to draw, ``1 <= k <= rank(L)``.
    random_state : int, RandomState instance or None, default=None
        Seed of the draw.

    Returns
    -------
    indices : ndarray of shape (k,)
        The drawn items, sorted.

    See Also
    --------
    sample_kdpp_low_rank : The same law given a factor ``B`` of ``L = B @ B.T``.

    Examples
    --------
    >>> import numpy as np
    >>> from sksel.spaces import sample_kdpp
    >>> x = np.linspace(0, 1, 20)
    >>> L = np.exp(-((x[:, None] - x[None, :]) ** 2) / (2 * 0.1**2))
    >>> indices = sample_kdpp(L, 4, random_state=0)
    >>> indices.shape, len(np.unique(indices))
    ((4,), 4)
    """
    rng = check_random_state(random_state)
    L = _check_kernel_matrix(L)
    k = _check_k(k)
    eigenvalues, eigenvectors = linalg.eigh(L)
    eigenvalues = _clip_eigenvalues(eigenvalues, len(L), "L")
    _check_k_le_rank(k, eigenvalues, "L")
    selected = _select_eigenvectors(eigenvalues, k, rng)
    return _sample_projection_dpp(eigenvectors[:, selected], rng)


def sample_dpp(L, random_state=None):
    """Draw an exact sample of the DPP (L-ensemble) of kernel ``L``, of any size.

    Subset ``A`` (the empty set included) is drawn with probability
    ``det(L_A) / det(L + I)``: the size of the draw comes out of ``L``
    (expected size ``sum(lambda / (lambda + 1))`` over its eigenvalues).
    Spectral algorithm of Kulesza & Taskar (2012, Algorithm 1): keep each
    eigenvector with probability ``lambda / (lambda + 1)``, then sample the
    projection DPP they span. Cost: ``O(n^3)`` for the eigendecomposition.

    Parameters
    ----------
    L : array-like of shape (n, n)
        Symmetric positive semi-definite kernel matrix.
    random_state : int, RandomState instance or None, default=None
        Seed of the draw.

    Returns
    -------
    indices : ndarray of shape (size,)
        The drawn items, sorted (possibly none).

    See Also
    --------
    dpp_map : The most probable subset, found greedily.

    Examples
    --------
    >>> import numpy as np
    >>> from sksel.spaces.dpp import sample_dpp
    >>> L = np.array([[2.0, 1.9], [1.9, 2.0]])  # two near-copies
    >>> sizes = [len(sample_dpp(L, random_state=seed)) for seed in range(200)]
    >>> max(sizes) <= 2
    True
    """
    rng = check_random_state(random_state)
    L = _check_kernel_matrix(L)
    eigenvalues, eigenvectors = linalg.eigh(L)
    eigenvalues = _clip_eigenvalues(eigenvalues, len(L), "L")
    kept = rng.uniform(size=len(eigenvalues)) < eigenvalues / (eigenvalues + 1.0)
    if not kept.any():
        return np.empty(0, dtype=int)
    return _sample_projection_dpp(eigenvectors[:, kept], rng)


def dpp_map(L):
    """The subset of largest ``det(L_A)`` found greedily (the DPP's mode, approximately).

    Starting from the empty set (``det = 1``), add the item whose addition
    multiplies the determinant most, while that factor (the item's
    conditional variance ``L_ii - L_iA L_A^-1 L_Ai``) exceeds 1, so that each
    addition makes the subset more probable. Incremental Cholesky updates
    (Chen, Zhang & Zhou, 2018): ``O(n |A|^2)``.

    Parameters
    ----------
    L : array-like of shape (n, n)
        Symmetric positive semi-definite kernel matrix.

    Returns
    -------
    indices : ndarray of shape (size,)
        The subset, in the order its items were added.
    """
    L = _check_kernel_matrix(L)
    n = len(L)
    gains = np.diag(L).astype(float).copy()
    factors = np.zeros((n, n))
    chosen = []
    while len(chosen) < n:
        gains[chosen] = -np.inf
        j = int(np.argmax(gains))
        if gains[j] <= 1.0:
            break
        row = (L[j] - factors[:, : len(chosen)] @ factors[j, : len(chosen)]) / np.sqrt(gains[j])
        factors[:, len(chosen)] = row
        gains = gains - row**2
        chosen.append(j)
    return np.array(chosen, dtype=int)


def sample_kdpp_low_rank(B, k, random_state=None):
    """Draw an exact sample of the k-DPP with kernel ``L = B @ B.T``.

    Dual form of :func:`sample_kdpp` (Kulesza & Taskar, 2012, Section 3.3):
    the non-zero eigenvalues of ``L`` are those of the ``(D, D)`` matrix
    ``C = B.T @ B``, and an eigenvector ``w`` of ``C`` maps to the eigenvector
    ``B @ w / ||B @ w||`` of ``L``. ``L`` is never formed: the cost is
    ``O(n D^2 + D^3)`` for the eigenproblem and ``O(n k^2)`` for the
    projection DPP, instead of ``O(n^3)``. Use it for large candidate pools
    with a low-dimensional feature map (e.g. random Fourier features of an
    RBF kernel).

    Parameters
    ----------
    B : array-like of shape (n, D)
        Feature matrix; row ``i`` is the feature vector of item ``i``.
    k : int
        Number of items to draw, ``1 <= k <= rank(B)`` (so ``k <= D``).
    random_state : int, RandomState instance or None, default=None
        Seed of the draw.

    Returns
    -------
    indices : ndarray of shape (k,)
        The drawn items, sorted; subset ``A`` has probability
        ``det(L_A) / e_k(lambda)``.

    See Also
    --------
    sample_kdpp : The same law given the full kernel matrix.

    Examples
    --------
    >>> import numpy as np
    >>> from sksel.spaces import sample_kdpp_low_rank
    >>> B = np.random.RandomState(0).normal(size=(1000, 50))
    >>> indices = sample_kdpp_low_rank(B, 10, random_state=0)
    >>> indices.shape, len(np.unique(indices))
    ((10,), 10)
    """
    rng = check_random_state(random_state)
    B = np.asarray(B, dtype=float)
    if B.ndim != 2:
        raise ValueError(f"B must be a 2-D array, got shape {B.shape}.")
    if not np.all(np.isfinite(B)):
        raise ValueError("B must contain only finite values.")
    k = _check_k(k)
    eigenvalues, eigenvectors = linalg.eigh(B.T @ B)
    eigenvalues = _clip_eigenvalues(eigenvalues, max(B.shape), "B.T @ B")
    _check_k_le_rank(k, eigenvalues, "B @ B.T")
    selected = _select_eigenvectors(eigenvalues, k, rng)
    V = B @ eigenvectors[:, selected]
    V /= np.linalg.norm(V, axis=0)
    return _sample_projection_dpp(V, rng)


def _check_proposals(proposals, n, name):
    items, features = proposals
    items = list(items)
    features = np.asarray(features)
    if features.ndim != 2 or len(features) != n or len(items) != n:
        raise ValueError(
            f"{name} must give a list of {n} items and a 2-D array of {n} "
            f"feature rows, got {len(items)} items and features of shape "
            f"{features.shape}."
        )
    return items, features


def _invert_kernel_matrix(kernel, features):
    """Inverse and diagonal of kernel(features, features); None if singular."""
    L_A = np.asarray(kernel(features, features), dtype=float)
    try:
        factor = linalg.cholesky(L_A, lower=True)
    except linalg.LinAlgError:
        return None
    diagonal = np.diag(L_A).copy()
    if np.any(np.diag(factor) ** 2 <= _SINGULAR_RTOL * diagonal):
        return None
    return linalg.cho_solve((factor, True), np.eye(len(L_A))), diagonal


def _replace_in_inverse(inverse, u, g, variance):
    """Update, in place, the inverse of L_A when member u is swapped for v.

    Schur-complement formulas: removing u leaves ``inverse - m m^T / m[u]``
    (``m = inverse[:, u]``); adding v with kernel vector ``b`` (``b[u] = 0``)
    and conditional variance ``variance`` given the other members borders it
    with ``-w / variance`` and ``1 / variance``, ``w`` the downdated inverse
    times ``b``. ``g`` is ``inverse @ b``.
    """
    column = inverse[:, u].copy()
    inverse -= np.outer(column, column) / column[u]
    w = g - column * (g[u] / column[u])
    w[u] = 0.0
    inverse += np.outer(w, w) / variance
    inverse[u, :] = inverse[:, u] = -w / variance
    inverse[u, u] = 1.0 / variance


def sample_kdpp_mcmc(propose, kernel, k, n_steps, random_state=None, init=None):
    """Approximately sample a k-DPP over any base set by MCMC.

    Algorithm 2 of Dodge et al. (2017), for base sets with continuous,
    discrete, mixed or tree-structured dimensions, where no finite kernel
    matrix exists: start from ``k`` draws of the base distribution; at each
    step pick a uniform member ``u`` of the current set and a fresh draw
    ``v``, and swap them with probability
    ``0.5 * min(1, det(L_new) / det(L_old))``. The stationary law of the set
    is the k-DPP with respect to the base distribution: sets with density
    proportional to ``det(L_A)``. Proposals are drawn with replacement; a
    set holding a duplicate has determinant 0 and is never accepted, so on a
    finite base set the chain samples the k-DPP over distinct items.

    Each step costs ``O(k^2)``: the inverse of ``L_A`` is kept and updated by
    Schur-complement formulas on acceptance. It is recomputed from scratch
    at the start of each batch of proposals, and after a swap whose update
    would amplify rounding errors more than ten-thousandfold (a point nearly
    determined by the others leaving or entering the set). Swaps that would
    make ``L_A`` numerically singular are rejected.

    Parameters
    ----------
    propose : callable
        ``propose(n, rng)`` returns ``(items, features)``: a list of ``n``
        objects drawn independently from the base distribution, and their
        ``(n, d)`` feature array. Called once per batch of steps.
    kernel : callable
        ``kernel(F, G)`` returns the ``(len(F), len(G))`` kernel matrix
        between two feature arrays; positive semi-definite.
    k : int
        Size of the set, ``k >= 1``.
    n_steps : int
        Number of swap proposals, ``n_steps >= 0``. Dodge et al. report that
        tens of thousands are needed to mix from a uniform start.
    random_state : int, RandomState instance or None, default=None
        Seed of the chain, also passed on to `propose`.
    init : tuple (items, features), default=None
        Start of the chain (e.g. the end of an earlier chain); its kernel
        matrix must be non-singular. By default ``k`` proposals, drawn again
        while their kernel matrix is singular.

    Returns
    -------
    items : list
        The ``k`` objects of the final set.
    features : ndarray of shape (k, d)
        Their features.

    Examples
    --------
    >>> import numpy as np
    >>> from sksel.spaces import sample_kdpp_mcmc
    >>> def propose(n, rng):
    ...     x = rng.uniform(size=(n, 1))
    ...     return list(x[:, 0]), x
    >>> def kernel(F, G):
    ...     return np.exp(-((F - G.T) ** 2) / (2 * 0.05**2))
    >>> items, features = sample_kdpp_mcmc(propose, kernel, 5, 2000, random_state=0)
    >>> len(items), features.shape
    (5, (5, 1))
    """
    rng = check_random_state(random_state)
    k = _check_k(k)
    n_steps = _check_k(n_steps, name="n_steps", minimum=0)
    if init is None:
        for _ in range(_MAX_INIT_DRAWS):
            items, features = _check_proposals(propose(k, rng), k, "propose")
            inverted = _invert_kernel_matrix(kernel, features)
            if inverted is not None:
                break
        else:
            raise ValueError(
                f"{_MAX_INIT_DRAWS} draws of k={k} proposals all gave a "
                "singular kernel matrix; is k larger than the base set?"
            )
    else:
        items, features = _check_proposals(init, k, "init")
        inverted = _invert_kernel_matrix(kernel, features)
        if inverted is None:
            raise ValueError("init must have a non-singular kernel matrix.")
    inverse, diagonal = inverted
    features = features.copy()

    batch_size = max(256, k)
    for start in range(0, n_steps, batch_size):
        size = min(batch_size, n_steps - start)
        inverted = _invert_kernel_matrix(kernel, features) if start else None
        if inverted is not None:
            inverse = inverted[0]
        new_items, new_features = _check_proposals(propose(size, rng), size, "propose")
        new_gram = np.asarray(kernel(new_features, new_features), dtype=float)
        cross = np.asarray(kernel(features, new_features), dtype=float)
        positions = rng.randint(k, size=size)
        uniforms = rng.uniform(size=size)
        for step in range(size):
            u = positions[step]
            b = cross[:, step].copy()
            b[u] = 0.0
            g = inverse @ b
            # Conditional variance of v given the set without u, and the
            # determinant ratio det(L_new) / det(L_old) = inverse[u, u] * it.
            variance = new_gram[step, step] - b @ g + g[u] ** 2 / inverse[u, u]
            ratio = inverse[u, u] * variance
            nonsingular = variance > _SINGULAR_RTOL * new_gram[step, step]
            if not nonsingular or uniforms[step] >= 0.5 * min(1.0, ratio):
                continue
            # Swapping out a point nearly determined by the others, or in one
            # nearly determined by them, amplifies the rounding errors of the
            # updated inverse by about these factors: invert afresh instead.
            amplification = max(
                inverse[u, u] * diagonal[u], new_gram[step, step] / variance
            )
            items[u] = new_items[step]
            features[u] = new_features[step]
            cross[u] = new_gram[step]
            diagonal[u] = new_gram[step, step]
            inverted = None
            if amplification > _MAX_UPDATE_AMPLIFICATION:
                inverted = _invert_kernel_matrix(kernel, features)
            if inverted is None:
                _replace_in_inverse(inverse, u, g, variance)
            else:
                inverse = inverted[0]
    return items, features


def sample_sequential(L, k, random_state=None):
    """Draw k items one by one, proportionally to the GP posterior variance.

    The sampler of Hennig & Garnett (2016) used by Dodge et al. (2017,
    Section 3.3.2): with ``L`` the covariance of a Gaussian process on the
    items, the first item is drawn with probability proportional to
    ``L[i, i]``, and each next one proportionally to the posterior variance
    given the items drawn so far, ``var_t(i) = L[i, i] - L[i, S] L[S, S]^-1
    L[S, i]`` (zero for drawn items). The variances are updated by one
    Cholesky-style rank-one step per draw, ``O(n)`` work per item and draw,
    so growing a sample by one item is cheap.

    Its law is, for an ordered draw ``(i_1, ..., i_k)``::

        P(i_1, ..., i_k) = prod_t var_t(i_t) / sum_j var_t(j),

    with ``var_t`` the posterior variance given ``i_1, ..., i_{t-1}``. This
    is **not** the k-DPP law ``det(L_A) / e_k``, even summed over the
    orderings of a set; use :func:`sample_kdpp` for that law.

    Parameters
    ----------
    L : array-like of shape (n, n)
        Symmetric positive semi-definite kernel (covariance) matrix.
    k : int
        Number of items to draw, ``1 <= k <= rank(L)``.
    random_state : int, RandomState instance or None, default=None
        Seed of the draw.

    Returns
    -------
    indices : ndarray of shape (k,)
        The drawn items, in the order drawn.

    Examples
    --------
    >>> import numpy as np
    >>> from sksel.spaces import sample_sequential
    >>> x = np.linspace(0, 1, 20)
    >>> L = np.exp(-((x[:, None] - x[None, :]) ** 2) / (2 * 0.1**2))
    >>> indices = sample_sequential(L, 4, random_state=0)
    >>> indices.shape, len(np.unique(indices))
    ((4,), 4)
    """
    rng = check_random_state(random_state)
    L = _check_kernel_matrix(L)
    k = _check_k(k)
    n = len(L)
    if k > n:
        raise ValueError(f"k={k} exceeds the number of items in L ({n}).")
    variance = np.diag(L).copy()
    if np.any(variance < 0):
        raise ValueError("L must be positive semi-definite; its diagonal is negative.")
    tol = variance.sum() * n * np.finfo(float).eps
    factor = np.empty((k, n))
    chosen = np.empty(k, dtype=int)
    for step in range(k):
        remaining = np.clip(variance, 0.0, None)
        if remaining.sum() <= tol:
            raise ValueError(
                f"k={k} exceeds the rank of L: no variance is left after {step} items."
            )
        j = _draw_index(remaining, rng)
        factor[step] = (L[j] - factor[:step].T @ factor[:step, j]) / np.sqrt(
            remaining[j]
        )
        variance -= factor[step] ** 2
        variance[j] = 0.0
        chosen[step] = j
    return chosen
