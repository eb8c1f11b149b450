"""GP-UCB's prior and its tuning: from earlier datasets' scores and fit times.

The prior mean and covariance of the candidates' scores come from their scores
on earlier datasets (:func:`prior_from_scores`) or, without history, from a
kernel over their configurations (:func:`kernel_prior`); prior fit costs come
from earlier fit times (:func:`cost_prior_from_times`). The exploration scale
of ``beta_scale="tune"`` is tuned offline on those datasets
(:func:`tune_beta_scale`, replaying :class:`~sksel.gpucb.policy.GPUCBPolicy`
leave-one-dataset-out with :func:`evaluations_to_best` or
:func:`time_to_best`).
"""

import warnings

import numpy as np
from sklearn.covariance import ledoit_wolf

from .._core.simulate import simulate
from ..spaces.kernels import configuration_kernel, default_bandwidth
from ..spaces.params import _same_value
from ..spaces.space import SearchSpace
from .policy import GPUCBPolicy

#: Exploration scales tried by ``beta_scale="tune"`` on the prior's own datasets.
BETA_SCALES = (0.0, 0.01, 0.03, 0.1, 0.3, 1.0)


def prior_from_scores(scores):
    """Prior mean and covariance of K candidates from their scores on earlier datasets.

    A candidate's score on a dataset is modelled as its mean score, plus a
    level shared by all candidates on that dataset (some datasets are harder
    than others), plus its own deviation. The mean is each candidate's mean
    score; the covariance is the variance of the levels (the same for every
    pair of candidates) plus the Ledoit-Wolf shrinkage estimate of the
    deviations' covariance, which stays well conditioned with fewer datasets
    than candidates without shrinking the shared level away. Missing scores
    (NaN) are skipped in the means and count as no deviation.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, n_candidates)
        Earlier scores, "higher is better"; NaN where missing.

    Returns
    -------
    mean : ndarray of shape (n_candidates,)
    cov : ndarray of shape (n_candidates, n_candidates)
        Symmetric positive definite.

    Examples
    --------
    >>> import numpy as np
    >>> from sksel.gpucb import prior_from_scores
    >>> mean, cov = prior_from_scores([[0.9, 0.8], [0.7, 0.5], [0.8, np.nan]])
    >>> mean.round(3).tolist()
    [0.8, 0.65]
    >>> bool(cov[0, 1] > 0)
    True
    """
    scores = _check_scores(scores)
    mean = np.nanmean(scores, axis=0)
    level = np.nanmean(scores - mean, axis=1, keepdims=True)
    deviations = np.nan_to_num(scores - mean - level)
    cov, _ = ledoit_wolf(deviations, assume_centered=True)
    return mean, cov + np.mean(level**2)


def cost_prior_from_times(times):
    """Relative fit cost of K candidates from their fit times on earlier datasets.

    On a log scale, a candidate's fit time on a dataset is modelled as a level
    shared by all candidates on that dataset (bigger datasets are slower for
    everyone) plus the candidate's own offset. The relative cost is the
    exponential of the offset, the mean over datasets of the log time less
    the dataset's level (missing and non-positive times are skipped): a
    geometric mean that a dataset where a candidate is missing does not bias
    (levels and offsets are fitted by alternating means, 20 rounds).

    Parameters
    ----------
    times : array-like of shape (n_datasets, n_candidates)
        Earlier fit times in seconds (any unit); NaN where missing.

    Returns
    -------
    cost : ndarray of shape (n_candidates,)
        Positive, geometric mean 1. A candidate without any time gets the
        geometric mean of the others, 1.

    Examples
    --------
    >>> from sksel.gpucb import cost_prior_from_times
    >>> cost_prior_from_times([[1.0, 4.0], [10.0, 40.0]]).round(6).tolist()
    [0.5, 2.0]
    """
    times = np.asarray(times, dtype=float)
    if times.ndim != 2:
        raise ValueError(f"times must be a (n_datasets, n_candidates) matrix; got shape "
                         f"{times.shape}.")
    with np.errstate(divide="ignore", invalid="ignore"):
        log_t = np.where(times > 0, np.log(times), np.nan)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN rows or columns
        offset = np.nanmean(log_t, axis=0)
        for _ in range(20):  # alternate: levels given offsets, offsets given levels
            level = np.nanmean(log_t - offset, axis=1, keepdims=True)
            offset = np.nanmean(log_t - level, axis=0)
    if not np.any(np.isfinite(offset)):
        return np.ones(times.shape[1])
    return np.exp(np.nan_to_num(offset - np.nanmean(offset)))


def kernel_prior(candidates, kernel="rbf"):
    """Prior correlation of candidates from their configurations, without history.

    The candidates' parameters are featurized
    (:class:`~sksel.spaces.SearchSpace`) and compared by an RBF or Arc
    kernel with the bandwidth :func:`~sksel.spaces.default_bandwidth` of K
    points. The values a parameter takes among the candidates form its list:
    ordinal for numbers, one-hot otherwise (estimators by identity, so the
    candidates of a list of estimators are one-hot by estimator); candidates
    with different parameter names are branches of a tree-structured space.

    Parameters
    ----------
    candidates : list of dict
        Parameters of the K candidates.
    kernel : {"rbf", "arc"}, default="rbf"

    Returns
    -------
    corr : ndarray of shape (K, K)
        Unit diagonal, positive semi-definite.

    Examples
    --------
    >>> from sksel.gpucb import kernel_prior
    >>> kernel_prior([{"C": 0.1}, {"C": 1.0}, {"C": 10.0}]).round(2)
    array([[1.  , 0.59, 0.35],
           [0.59, 1.  , 0.59],
           [0.35, 0.59, 1.  ]])
    """
    grid = _values_by_branch(candidates)
    if not any(grid):
        return np.eye(len(candidates))
    space = SearchSpace(param_grid=grid)
    F, active = space.featurize(candidates)
    sigma = default_bandwidth(len(candidates), F.shape[1])
    return configuration_kernel(kernel, F, active, groups=space.feature_params_,
                                bandwidth=sigma)


def _values_by_branch(candidates):
    """The candidates as a space: per set of parameter names, each one's distinct values."""
    branches = {}
    for params in candidates:
        branch = branches.setdefault(tuple(sorted(params)), {})
        for name, value in params.items():
            values = branch.setdefault(name, [])
            if not any(_same_value(value, v) for v in values):
                values.append(value)
    return list(branches.values())


def _check_scores(scores):
    scores = np.asarray(scores, dtype=float)
    if scores.ndim != 2 or scores.shape[0] < 2:
        raise ValueError(
            "prior must be a (n_datasets, n_candidates) matrix of earlier scores with "
            f"at least 2 datasets; got shape {scores.shape}."
        )
    empty = np.flatnonzero(np.all(np.isnan(scores), axis=0))
    if empty.size:
        raise ValueError(f"prior has no score at all for candidates {empty.tolist()}.")
    return scores


def evaluations_to_best(policy, scores):
    """Number of evaluations a policy needs until it has evaluated the best candidate.

    The policy is run sequentially on `scores` (one dataset's true scores of
    the K candidates; NaN is a failed evaluation) until it evaluates a
    candidate with the highest score.

    Parameters
    ----------
    policy : GPUCBPolicy
        A fresh policy over the K candidates.
    scores : array-like of shape (K,)

    Returns
    -------
    n : int
    """

    scores = np.asarray(scores, dtype=float)
    best = np.nanmax(scores)
    run = simulate(policy, scores, until=lambda run: run.events[-1][3] >= best)
    return len(run.events)


def time_to_best(policy, scores, times):
    """Share of the time to fit every candidate a policy spends until it fits the best.

    As :func:`evaluations_to_best`, with each evaluation costing its
    candidate's fit time.

    Parameters
    ----------
    policy : GPUCBPolicy
        A fresh policy over the K candidates.
    scores, times : array-like of shape (K,)
        True scores (NaN: a failed evaluation) and fit times (positive).

    Returns
    -------
    share : float
        In (0, 1].
    """

    scores, times = np.asarray(scores, dtype=float), np.asarray(times, dtype=float)
    best = np.nanmax(scores)
    run = simulate(policy, scores, durations=times,
                   until=lambda run: run.events[-1][3] >= best)
    return run.wall_time / times.sum()


def tune_beta_scale(scores, *, noise=0.01, delta=0.1, scales=BETA_SCALES, times=None,
                    empirical_bayes=False):
    """The exploration scale that finds the best candidate soonest on earlier datasets.

    Leave-one-dataset-out on `scores`: for every dataset, GP-UCB with the prior
    of the other datasets (:func:`prior_from_scores`) is run on its known
    scores, for every scale in `scales`; the scale with the fewest mean evaluations until
    the dataset's best candidate is evaluated wins (ties: the smaller scale).
    A candidate that only the held-out dataset scores has no prior without
    it, and is left out of that dataset's run (a dataset left with no
    candidate is skipped).

    With `times`, the policy is the cost-aware one (``cost`` of
    :class:`GPUCBPolicy`, from :func:`cost_prior_from_times` of the other
    datasets' times) and "soonest" is the least fit time until the best,
    summed over the datasets, as a share of the time to fit every candidate
    on all of them (:func:`time_to_best`): the total seconds, which the
    slow datasets weigh most. Datasets without a positive time for every
    known candidate are skipped.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, K)
        Earlier scores; NaN where missing.
    noise, delta : float
        As in :class:`GPUCBPolicy`.
    scales : sequence of float, default=BETA_SCALES
    times : array-like of shape (n_datasets, K), default=None
        Earlier fit times; NaN where missing.
    empirical_bayes : bool, default=False
        As in :class:`GPUCBPolicy`: the policy replayed learns how far to
        trust the prior from each dataset's scores.

    Returns
    -------
    scale : float
    mean_evaluations : ndarray of shape (len(scales),)
        Mean evaluations until the best, per scale (with `times`: the share
        of the summed time to fit every candidate).
    """
    scores = _check_scores(scores)
    if times is not None:
        times = np.asarray(times, dtype=float)
        if times.shape != scores.shape:
            raise ValueError(f"times must have the shape of scores, {scores.shape}; got "
                             f"{times.shape}.")
    counts, n_runs, total = np.zeros(len(scales)), 0, 0.0
    for i, row in enumerate(scores):
        others = np.delete(scores, i, axis=0)
        covered = ~np.all(np.isnan(others), axis=0)
        row = row[covered]
        known = np.flatnonzero(~np.isnan(row))  # a missing score is unknown, not a failure
        if not known.size:
            continue
        cost = None
        if times is not None:
            row_times = times[i, covered][known]
            if not np.all(row_times > 0):
                continue
            cost = cost_prior_from_times(np.delete(times, i, axis=0)[:, covered])[known]
        mean, cov = prior_from_scores(others[:, covered])
        for j, scale in enumerate(scales):
            policy = GPUCBPolicy(mean[known], cov[np.ix_(known, known)], noise=noise,
                                 delta=delta, beta_scale=scale, cost=cost,
                                 empirical_bayes=empirical_bayes)
            if cost is None:
                counts[j] += evaluations_to_best(policy, row[known])
            else:
                counts[j] += time_to_best(policy, row[known], row_times) * row_times.sum()
        n_runs += 1
        total += 1.0 if cost is None else row_times.sum()
    counts /= max(total, 1e-300)
    return float(scales[int(np.argmin(counts))]), counts
