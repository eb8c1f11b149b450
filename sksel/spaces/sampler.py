"""k-DPP random search: diverse configurations, all evaluated in parallel.

Dodge, Anderson and Smith, "Random Search for Hyperparameters using
Determinantal Point Processes" (2017); Dodge, Jamieson and Smith, "Open Loop
Hyperparameter Optimization and Determinantal Point Processes" (2017).

Random search draws `k` configurations independently, so some land close to
each other and parts of the space stay empty. A k-DPP draws the `k`
configurations *together*, with a probability proportional to the determinant
of their kernel matrix: the volume they span in feature space. Close
configurations rarely come together, and the `k` configurations cover the
space and its corners better than independent draws. In a tree-structured
space (a list of dicts: the models of a ``Pipeline`` step choice, the
parameters of each) the branches share the `k` draws evenly, as random
search's independent draws do on average, and a k-DPP spreads each branch's
share over its own parameters.

This module holds the sampler (:class:`KDPPSampler`), usable wherever a list
of configurations is wanted: :class:`~sksel.KDPPSearch` evaluates its draw,
:class:`~sksel.MutantUCBSearch` and :class:`~sksel.GPUCBSelector` may take
their candidates from it, and so may :class:`~sksel.DAUBSearch`.
"""

import math
import numbers
from itertools import zip_longest

import numpy as np
from sklearn.utils import check_random_state

from .._compat import Interval, StrOptions, validate_params
from .dpp import sample_kdpp, sample_kdpp_low_rank, sample_kdpp_mcmc, sample_sequential
from .kernels import configuration_kernel, default_bandwidth
from .params import _is_list
from .space import SearchSpace

# Above this pool size the exact sampler works on a Nystrom factor of the kernel.
_DENSE_POOL_MAX = 1000


# KDPPSampler's parameters, validated by the sampler and by KDPPSearch alike.
_SAMPLER_CONSTRAINTS = {
    "param_distributions": [dict, list],
    "n_iter": [Interval(numbers.Integral, 1, None, closed="left")],
    "sampler": [StrOptions({"auto", "exact", "mcmc", "sequential"})],
    "kernel": [StrOptions({"rbf", "arc"})],
    "bandwidth": [Interval(numbers.Real, 0, None, closed="neither"), StrOptions({"auto"})],
    "pool_size": [Interval(numbers.Integral, 1, None, closed="left"), StrOptions({"auto"})],
    "mcmc_steps": [Interval(numbers.Integral, 0, None, closed="left"), StrOptions({"auto"})],
    "random_state": ["random_state"],
}


class KDPPSampler:
    """Draw `n_iter` diverse configurations from a k-DPP over a parameter space.

    A drop-in for :class:`~sklearn.model_selection.ParameterSampler`: it takes
    the same `param_distributions` (a dict, or a list of dicts for a
    tree-structured space; lists of values, scipy.stats distributions,
    estimators as ``Pipeline`` step choices) and yields parameter dicts.
    Configurations are featurized to [0, 1]^d (see
    :class:`sksel.spaces.SearchSpace`), compared by an RBF or Arc
    kernel, and drawn from the k-DPP of that kernel.

    A list of dicts is drawn branch by branch (each dict a branch). The
    `n_iter` configurations are shared among the branches as evenly as
    possible: each gets ``n_iter // n_branches``, and ``n_iter % n_branches``
    branches drawn at random get one more, so that a branch gets on average
    what :class:`~sklearn.model_selection.ParameterSampler` gives it (it
    picks a dict uniformly for each configuration), never none while another
    gets two, and never more than the configurations it has (a finite
    branch's surplus goes to the others). Each branch's share, ``k_b``, is
    then drawn from the k_b-DPP over the parameters that vary in that branch,
    with its own pool and bandwidth, as if the branch were searched alone.
    One k-DPP over the whole space would instead give most of the draws to
    the branches with more parameters, which span more volume (12 of 20 to
    the two-parameter SVC of a three-model space whose other two models have
    one parameter each).

    Read more in the :ref:`User Guide <kdpp>`.

    Parameters
    ----------
    param_distributions : dict or list of dicts
        The space, as :class:`~sklearn.model_selection.RandomizedSearchCV`
        takes it; a list of dicts is a tree-structured space, drawn branch by
        branch (see above).

    n_iter : int
        Number of configurations, k. At most the number of configurations of
        a finite space (all values lists).

    sampler : {"auto", "exact", "mcmc", "sequential"}, default="auto"
        ``"exact"``: the exact k-DPP over a finite base set: the whole grid of
        a finite space, or a pool of `pool_size` configurations drawn from
        the space (the k-DPP then selects among them); above 1,000 pool items
        the kernel is replaced by its Nystrom approximation of rank
        ``max(2 * n_iter, 500)``. ``"mcmc"``: Algorithm 2 of Dodge et al., a
        Markov chain over the space itself (`mcmc_steps` swaps), for spaces
        where a pool is too coarse; it starts from the exact sampler's draw
        on the pool, already close to its stationary law, rather than from
        `n_iter` independent draws, which mix slowly and, for large
        `n_iter`, can be numerically singular. ``"sequential"``: each configuration of
        the pool drawn in turn with probability proportional to its
        Gaussian-process posterior variance given those already drawn (not
        the k-DPP law; more regular). ``"auto"`` is ``"exact"``.

    kernel : {"rbf", "arc"}, default="rbf"
        Similarity of two configurations. ``"rbf"``:
        ``exp(-||f - g||^2 / (2 bandwidth^2))`` on the features, where an
        inactive parameter (of another branch) is 0. ``"arc"``: the Arc kernel
        of Swersky et al., an RBF over an embedding where a parameter that one
        configuration has and the other lacks counts as distance 1, whatever
        its value (:func:`sksel.spaces.arc_kernel`).

    bandwidth : float or "auto", default="auto"
        Length scale of the kernel, > 0. ``"auto"`` is
        ``sqrt(2) * n_iter ** (-1 / d)`` for d feature columns
        (:func:`sksel.spaces.default_bandwidth`): the paper's ``sqrt(2) / k``
        in one dimension, scaled to the spacing of `n_iter` points in d. For
        a list of dicts, `n_iter` and d are each branch's share and the
        columns of its parameters that vary.

    pool_size : int or "auto", default="auto"
        Number of configurations drawn from a space that is not finite (or
        from a larger grid) for the exact and sequential samplers.
        ``"auto"`` is ``50 * n_iter`` clipped to [200, 2000], and at least
        ``4 * n_iter``. For a list of dicts it is the pool of each branch,
        and ``n_iter`` in ``"auto"`` is the branch's share.

    mcmc_steps : int or "auto", default="auto"
        Number of swap proposals of the ``"mcmc"`` sampler; ``"auto"`` is
        ``max(2000, 200 * n_iter)``, with each branch's share as `n_iter`
        for a list of dicts.

    random_state : int, RandomState instance or None, default=None
        Seed of the draws. With an int, iterating twice gives the same
        configurations.

    Attributes
    ----------
    space_ : SearchSpace
        The space of `param_distributions`, featurized.

    See Also
    --------
    KDPPSearch : Evaluate the configurations of this sampler.
    sklearn.model_selection.ParameterSampler : Independent draws.

    Examples
    --------
    >>> from scipy.stats import loguniform
    >>> from sksel.kdpp import KDPPSampler
    >>> sampler = KDPPSampler({"C": loguniform(1e-3, 1e3)}, n_iter=4, random_state=0)
    >>> sorted(round(float(p["C"]), 3) for p in sampler)
    [0.003, 0.422, 8.177, 94.111]
    >>> sampler.as_grid()[0].keys()
    dict_keys(['C'])
    """

    @validate_params(_SAMPLER_CONSTRAINTS, prefer_skip_nested_validation=True)
    def __init__(self, param_distributions, n_iter, *, sampler="auto", kernel="rbf",
                 bandwidth="auto", pool_size="auto", mcmc_steps="auto", random_state=None):
        self.param_distributions = param_distributions
        self.n_iter = n_iter
        self.sampler = sampler
        self.kernel = kernel
        self.bandwidth = bandwidth
        self.pool_size = pool_size
        self.mcmc_steps = mcmc_steps
        self.random_state = random_state
        self.space_ = SearchSpace(param_distributions=param_distributions)
        self._branches = self.space_.branches
        self._grid = self.space_.candidates if self.space_.is_finite else None
        if self._grid is not None and n_iter > len(self._grid):
            raise ValueError(
                f"n_iter={n_iter} is larger than the {len(self._grid)} "
                "configurations of param_distributions: a k-DPP draws distinct "
                "configurations. Lower n_iter, or give distributions."
            )
        if pool_size != "auto" and pool_size < n_iter:
            raise ValueError(f"pool_size={pool_size} must be at least n_iter={n_iter}.")
        if self.space_.n_features == 0:
            raise ValueError(
                "param_distributions has no parameter to vary: a k-DPP needs at "
                "least one list or distribution with several values."
            )

    def __len__(self):
        """Number of configurations, `n_iter`."""
        return self.n_iter

    def __iter__(self):
        """Yield the `n_iter` configurations (a new draw unless `random_state` is an int)."""
        yield from self.sample()

    def sample(self):
        """Draw the `n_iter` configurations.

        Returns
        -------
        params_list : list of dict
            Distinct configurations, in no particular order for ``"exact"`` and
            ``"mcmc"``, in the order drawn for ``"sequential"``. Those of a
            list of dicts come one branch after the other in turn (one of
            each branch, then a second of each, ...), so that the first
            configurations evaluated cover every branch.
        """
        rng = check_random_state(self.random_state)
        if len(self._branches) == 1:
            return self._draw_kdpp(rng)
        counts = _branch_counts([_n_configurations(branch) for branch in self._branches],
                                self.n_iter, rng)
        per_branch = [self._draw_branch(branch, k_b, rng)
                      for branch, k_b in zip(self._branches, counts) if k_b]
        return [params for turn in zip_longest(*per_branch) for params in turn
                if params is not None]

    def as_grid(self):
        """The configurations as a ``param_grid``: one dict of one-value lists each.

        It gives the same candidates to :class:`~sksel.DAUBSearch`,
        :class:`~sklearn.model_selection.GridSearchCV` or
        :class:`~sklearn.model_selection.HalvingGridSearchCV`.
        """
        return [{name: [value] for name, value in params.items()} for params in self.sample()]

    # ---------------------------------------------------------------- internals
    def _draw_kdpp(self, rng):
        """The k-DPP's `n_iter` configurations of the whole featurized space."""
        pool = self._pool(rng)
        if self.sampler == "sequential":
            chosen = sample_sequential(self._kernel_matrix(pool), self.n_iter, rng)
        elif len(pool) <= _DENSE_POOL_MAX:
            chosen = sample_kdpp(self._kernel_matrix(pool), self.n_iter, rng)
        else:
            chosen = sample_kdpp_low_rank(self._nystrom_factor(pool, rng), self.n_iter, rng)
        drawn = [pool[i] for i in chosen]
        if self.sampler == "mcmc":
            return self._run_chain(drawn, rng)
        return drawn

    def _draw_branch(self, branch, k, rng):
        """`k` configurations of one branch, from a k-DPP over its varying parameters.

        Its one-value lists (the branch's estimator, say) are set as they are;
        the kernel, its bandwidth and the pool are the branch's own, as if
        the branch were searched alone with `k` configurations.
        """
        fixed = {name: values[0] for name, values in branch.items()
                 if _is_list(values) and len(values) == 1}
        varying = {name: values for name, values in branch.items() if name not in fixed}
        if not varying:
            return [fixed]
        sampler = KDPPSampler(varying, k, sampler=self.sampler, kernel=self.kernel,
                              bandwidth=self.bandwidth, pool_size=self.pool_size,
                              mcmc_steps=self.mcmc_steps, random_state=rng)
        return [{**fixed, **params} for params in sampler.sample()]

    def _pool(self, rng):
        if self.pool_size == "auto":
            size = max(4 * self.n_iter, min(max(50 * self.n_iter, 200), 2000))
        else:
            size = self.pool_size
        if self._grid is not None:
            if len(self._grid) <= size:
                return self._grid
            return [self._grid[i] for i in rng.choice(len(self._grid), size, replace=False)]
        return self.space_.sample(size, rng)

    def _bandwidth(self):
        if self.bandwidth == "auto":
            return default_bandwidth(self.n_iter, self.space_.n_features)
        return self.bandwidth

    def _kernel_between(self, F, active_F, G=None, active_G=None):
        return configuration_kernel(self.kernel, F, active_F, G, active_G,
                                    groups=self.space_.feature_params_,
                                    bandwidth=self._bandwidth())

    def _kernel_matrix(self, pool):
        return self._kernel_between(*self.space_.featurize(pool))

    def _nystrom_factor(self, pool, rng):
        """``B`` with ``B @ B.T`` the Nystrom approximation of the pool's kernel matrix."""
        F, active = self.space_.featurize(pool)
        rank = min(len(pool), max(2 * self.n_iter, 500))
        landmarks = rng.choice(len(pool), rank, replace=False)
        K_nm = self._kernel_between(F, active, F[landmarks], active[landmarks])
        eigenvalues, eigenvectors = np.linalg.eigh(K_nm[landmarks])
        keep = eigenvalues > eigenvalues.max() * 1e-10
        return K_nm @ (eigenvectors[:, keep] / np.sqrt(eigenvalues[keep]))

    def _run_chain(self, start, rng):
        """Algorithm 2 over the whole space, from the configurations `start`."""
        n_features = self.space_.n_features

        def features(items):
            return np.hstack(self.space_.featurize(items))

        def propose(n, rng):
            items = self.space_.sample(n, rng)
            return items, features(items)

        def kernel(F, G):
            return self._kernel_between(F[:, :n_features], F[:, n_features:].astype(bool),
                                        G[:, :n_features], G[:, n_features:].astype(bool))

        steps = max(2000, 200 * self.n_iter) if self.mcmc_steps == "auto" else self.mcmc_steps
        items, _ = sample_kdpp_mcmc(propose, kernel, self.n_iter, steps, rng,
                                    init=(start, features(start)))
        return items


def _n_configurations(branch):
    """Number of configurations of a branch: its grid's size, or inf with a distribution."""
    if all(_is_list(values) for values in branch.values()):
        return math.prod(len(values) for values in branch.values())
    return math.inf


def _branch_counts(capacities, k, rng):
    """How many of `k` configurations each branch gets, as evenly as possible.

    Every branch gets ``k // n_branches`` and ``k % n_branches`` branches drawn
    uniformly get one more, so each branch's expected count is that of random
    search, which picks a branch uniformly for each configuration, without its
    spread. A branch with fewer configurations than its share gets all of
    them, and the rest is shared the same way among the others.

    Parameters
    ----------
    capacities : list of int or float
        Number of configurations of each branch (inf without a limit); their
        sum is at least `k`.
    k : int
        Number of configurations.
    rng : RandomState
        Draws the branches that get one more.

    Returns
    -------
    counts : ndarray of int of shape (n_branches,)
    """
    counts = np.zeros(len(capacities), dtype=int)
    order = rng.permutation(len(capacities))
    while counts.sum() < k:
        open_ = [b for b in order if counts[b] < capacities[b]]
        share, extra = divmod(k - counts.sum(), len(open_))
        for rank, b in enumerate(open_):
            counts[b] += min(share + (rank < extra), capacities[b] - counts[b])
    return counts
