"""GP-UCB over candidate algorithms, with a prior learned from earlier datasets.

Srinivas, Krause, Kakade and Seeger, "Gaussian Process Optimization in the
Bandit Setting" (ICML 2010), applied to model selection: the scores of K
candidates on a new dataset are modelled as one draw of a Gaussian
``N(mu, Sigma)``. ``mu`` and ``Sigma`` come from the candidates' scores on
earlier datasets (candidates that do well together are correlated), or,
without history, from a kernel over the candidates' configurations (Arc
kernel for conditional spaces: Swersky, Duvenaud, Snoek, Hutter and Osborne,
"Raiders of the Lost Architecture", 2014). Each evaluation is one full
cross-validated fit; after it, the posterior of *every* candidate moves, and
the next candidate is the one with the highest upper confidence bound.

This module holds the policy (:class:`GPUCBPolicy`, no estimator) and the
search estimator built on it (:class:`GPUCBSelector`), and the helpers that
turn earlier results into a prior (:func:`prior_from_scores`).
"""

import numbers
import warnings
from collections.abc import Mapping

import numpy as np
from sklearn.covariance import ledoit_wolf
from sklearn.utils import check_random_state

from ._base import BaseSelectionSearch
from ._compat import Interval, StrOptions
from ._policy import SequentialPolicy
from .kdpp import KDPPSampler
from .kernels import configuration_kernel, default_bandwidth
from .portfolio import (
    default_cost,
    default_portfolio,
    default_prior,
    lcdb_cost,
    lcdb_portfolio,
    lcdb_prior,
)
from .resources import WholeFolds
from .space import SearchSpace, _same_value

#: Exploration scales tried by ``beta_scale="auto"`` on the prior's own datasets.
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
    (:class:`~sksel.space.SearchSpace`) and compared by an RBF or Arc
    kernel with the bandwidth :func:`~sksel.kernels.default_bandwidth` of K
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


class GPUCBPolicy(SequentialPolicy):
    """Which candidate to evaluate next, by GP-UCB.

    Scores of the K candidates are modelled as ``N(mean, cov)``; an evaluation
    observes one of them with Gaussian noise of standard deviation `noise`.
    The posterior after observing ``y`` at candidates ``A`` is, for every
    candidate ``k``,

    ``mu_t(k) = mean(k) + cov(k, A) (cov(A, A) + noise^2 I)^-1 (y - mean(A))``,

    ``sigma_t(k)^2 = cov(k, k) - cov(k, A) (cov(A, A) + noise^2 I)^-1 cov(A, k)``,

    and the t-th candidate is ``argmax mu_{t-1}(k) + sqrt(beta_t) sigma_{t-1}(k)``
    over the candidates not evaluated yet, with
    ``beta_t = beta_scale * log(K t^2 / delta)``. A candidate is never
    evaluated twice.

    The decisions are those of the sequential algorithm, whatever the number
    of workers: the first action :meth:`ask` gives is the sequential run's
    next pick, and the results are used in the order of those picks. While
    that pick runs, free workers get speculative picks: the next UCB argmax
    with the variance also conditioned on the evaluations running, as if
    they had been observed (GP-BUCB's hallucination, which keeps a batch from
    piling onto one region). A speculative result is used only when the
    sequential run picks that candidate. With ``asynchronous=True`` every
    pick is a decision instead (GP-BUCB run asynchronously): a free worker
    gets the UCB argmax given the results in and, as if observed, the
    evaluations running, and a result is used as soon as it is told. No
    work is then wasted, but the picks depend on the number of workers and
    on the order results come in; with one worker they are the sequential
    algorithm's.

    Parameters
    ----------
    mean : array-like of shape (K,)
        Prior mean of the scores.
    cov : array-like of shape (K, K)
        Prior covariance, symmetric positive semi-definite.
    noise : float, default=0.01
        Standard deviation of an observation's noise, in score units, > 0.
    delta : float, default=0.1
        Confidence parameter in (0, 1) of ``beta_t``.
    beta_scale : float, default=1.0
        Factor of ``beta_t``; 1 is the formula as written, 0 is greedy on the
        posterior mean.
    n_iter : int, default=None
        Number of evaluations, T <= K; None means K.
    fit_scale : bool, default=False
        Treat `mean` as unknown and `cov` as a correlation known up to a
        scale: after each observation the prior becomes the constant mean of
        the observed scores and ``s^2 * cov``, with ``s^2`` the maximum
        likelihood estimate from them (a kernel prior without history).
    random_state : int, RandomState instance or None, default=None
        Breaks ties between equal upper bounds (e.g. the first pick of a
        kernel prior), by one random order of the candidates drawn up front.
    resource : object, default="all"
        The second item of every action: the training an evaluation gets
        (:class:`GPUCBSelector` passes the rows of a training fold).
    cost : array-like of shape (K,), default=None
        Prior expected fit cost of every candidate, positive, in any unit
        (only ratios matter to the choice). None is the rule above, the
        paper's, which counts evaluations. Given, the t-th candidate is
        instead ``argmax (u_t(k) - b)^+ / c(k)``: the upper bound's gain
        ``u_t(k) - b`` over the best score observed so far ``b`` (before the
        first observation, the highest prior mean), per unit of expected
        cost ``c(k)``. When no candidate's upper bound exceeds ``b``, the
        pick is the UCB argmax, as without costs. Equal costs give the
        paper's picks. The choice depends on the relative costs only, so it
        is reproducible whatever the measured fit times.
    budget : float, default=None
        Time left for fits, in the unit of the `fit_time` told (seconds in
        :class:`GPUCBSelector`); only with `cost`. Candidates whose expected
        cost ``cost_scale_ * c(k)`` exceeds the budget less the fit time
        told so far are passed over while some candidate fits in it. This
        makes the choice depend on measured times.
    asynchronous : bool, default=False
        Whether every pick is a decision (see above), rather than the
        sequential run's picks only.

    Attributes
    ----------
    history_ : list of tuple
        The actions ``(candidate, resource)`` handed out, in order.
    decisions_ : list of tuple
        The actions ``(candidate, resource)`` of the sequential run, in
        order, whose results are in.
    observed_ : dict
        Candidate -> observed score, of the sequential run.
    cost_scale_ : float
        With `cost`: the geometric mean, over the sequential run's evaluated
        candidates told a positive `fit_time`, of ``fit_time / c(k)``; 1
        before any. It scales the prior costs to the data at hand.
    expected_cost_ : ndarray of shape (K,)
        With `cost`: ``cost_scale_ * cost``, the expected fit time of every
        candidate.

    Examples
    --------
    >>> import numpy as np
    >>> from sksel.gpucb import GPUCBPolicy
    >>> cov = np.array([[1.0, 0.9, 0.0], [0.9, 1.0, 0.0], [0.0, 0.0, 1.0]]) * 0.01
    >>> policy = GPUCBPolicy([0.80, 0.79, 0.70], cov, n_iter=2, noise=0.01)
    >>> policy.ask()
    [(0, 'all')]
    >>> policy.tell(0, 'all', 0.60)  # far below its prior: its neighbour 1 drops too
    >>> policy.ask(), policy.posterior()[0].round(3).tolist()
    ([(2, 'all')], [0.602, 0.612, 0.7])
    """

    def __init__(self, mean, cov, *, noise=0.01, delta=0.1, beta_scale=1.0, n_iter=None,
                 fit_scale=False, random_state=None, resource="all", cost=None, budget=None,
                 asynchronous=False):
        self.mean = np.asarray(mean, dtype=float)
        self.cov = np.asarray(cov, dtype=float)
        self.noise = noise
        self.delta = delta
        self.beta_scale = beta_scale
        self.n_iter = len(self.mean) if n_iter is None else n_iter
        self.fit_scale = fit_scale
        self._tie_rank = np.argsort(check_random_state(random_state).permutation(len(self.mean)))
        self.resource = resource
        self.cost = None if cost is None else _checked_cost(cost, len(self.mean))
        self.budget = budget
        self.asynchronous = asynchronous
        self._times = {}
        self._observed = {}
        self._failed = set()
        super().__init__()
        self._advance()

    @property
    def n_candidates(self):
        """K, the number of candidates."""
        return len(self.mean)

    # ------------------------------------------------------------------ ask/tell
    def ask(self, n_actions=1):
        """Up to `n_actions` candidates to evaluate now, as ``(candidate, resource)``.

        The first is the sequential run's next pick unless it is running
        already; the others are speculative (see the class description).
        """
        return super().ask(n_actions)

    def tell(self, candidate, resource, score, train_score=None, fit_time=None, failed=False,
             give_up=False):
        """Record the score of `candidate`.

        `resource`, `train_score` and `give_up` are unused: a candidate is
        evaluated once, and a failed one is never picked again. `fit_time`
        only scales the expected costs (`cost_scale_`) and counts against
        `budget`.
        """
        super().tell(candidate, resource, score, train_score, fit_time, failed, give_up)

    @property
    def done(self):
        """Whether `n_iter` picks have their results, or no candidate is left."""
        # Asynchronously, the evaluations running are decisions: wait for them.
        return self._next is None and not (self.asynchronous and self._pending)

    @property
    def observed_(self):
        """Candidate -> observed score, of the sequential run (see the class attributes)."""
        return dict(self._observed)

    @property
    def best_(self):
        """The candidate with the best observed score, or None."""
        observed = self.observed_
        if not observed:
            return None
        return max(observed, key=observed.get)

    @property
    def cost_scale_(self):
        """Observed over predicted fit time, geometric mean (see the class attributes)."""
        return self._cost_scale()

    def _cost_scale(self):
        ratios = [t / self.cost[c] for c, t in self._times.items()] if self.cost is not None \
            else []
        return float(np.exp(np.mean(np.log(ratios)))) if ratios else 1.0

    @property
    def expected_cost_(self):
        """Expected fit time of every candidate (see the class attributes)."""
        return None if self.cost is None else self.cost_scale_ * self.cost

    def beta(self, t):
        """``beta_scale * log(K t^2 / delta)``, the exploration weight of the t-th pick."""
        return self.beta_scale * np.log(self.n_candidates * t**2 / self.delta)

    def posterior(self, pending=()):
        """Posterior mean and standard deviation of every candidate.

        Parameters
        ----------
        pending : sequence of int, default=()
            Candidates being evaluated: the variance conditions on them too.

        Returns
        -------
        mean, std : ndarray of shape (K,)
        """
        return self._posterior(pending)

    def prior(self):
        """Prior mean and standard deviation of every candidate.

        The prior that :meth:`posterior` conditions on: with `fit_scale`, its
        level and scale fitted to the scores observed so far.

        Returns
        -------
        mean, std : ndarray of shape (K,)
        """
        _, mean, cov = self._observed_prior()
        return mean, np.sqrt(np.diag(cov))

    def _observed_prior(self):
        """``(observed scores, prior mean, prior covariance)`` of the sequential run."""
        y = np.array([self._observed[c] for c in self._observed])
        return (y, *self._prior(list(self._observed), y))

    def _posterior(self, pending):
        observed = list(self._observed)
        y, mean, cov = self._observed_prior()
        if observed:
            K_oo = cov[np.ix_(observed, observed)] + self.noise**2 * np.eye(len(observed))
            mean = mean + cov[:, observed] @ np.linalg.solve(K_oo, y - mean[observed])
        given = observed + [c for c in pending if c not in self._observed]
        var = np.diag(cov).copy()
        if given:
            K_gg = cov[np.ix_(given, given)] + self.noise**2 * np.eye(len(given))
            K_kg = cov[:, given]
            var -= np.einsum("kg,gk->k", K_kg, np.linalg.solve(K_gg, K_kg.T))
        return mean, np.sqrt(np.maximum(var, 0.0))

    # --------------------------------------------------------------- internals
    def _decide(self):
        """The sequential run's next pick, as an action, or None after `n_iter`."""
        if len(self._decisions) >= self.n_iter:
            return None
        candidate = self._ucb_argmax(self._available())
        return None if candidate is None else (candidate, self.resource)

    def _advance(self):
        """Use told results; keep and return the next pick, or None.

        Asynchronously, every told result is used, in the order of the
        picks, and the next pick is the UCB argmax given those running.
        """
        if not self.asynchronous:
            return super()._advance()
        for action in [a for a in self.history_ if a in self._told]:
            self._decisions.append(action)
            self._use(action, self._told.pop(action))
        self._next = self._speculate()
        return self._next

    def _use(self, action, outcome):
        candidate = action[0]
        if outcome.fit_time is not None and np.isfinite(outcome.fit_time) \
                and outcome.fit_time > 0:
            self._times[candidate] = float(outcome.fit_time)
        if outcome.failed:
            self._failed.add(candidate)
        else:
            self._observed[candidate] = float(outcome.score)

    def _available(self):
        used = set(self._observed) | self._failed
        return [c for c in range(self.n_candidates) if c not in used]

    def _speculate(self):
        """The UCB argmax among candidates neither running nor told, given those that are.

        Asynchronously a decision, while fewer than `n_iter` picks are made.
        """
        busy = {c for c, _ in self._pending} | {c for c, _ in self._told}
        if self.asynchronous and len(self._decisions) + len(busy) >= self.n_iter:
            return None
        free = [c for c in self._available() if c not in busy]
        candidate = self._ucb_argmax(free, pending=sorted(busy))
        return None if candidate is None else (candidate, self.resource)

    def _ucb_argmax(self, candidates, pending=()):
        """The candidate of `candidates` to evaluate next; ties by a random order.

        The highest upper bound, or with `cost` the highest gain per cost.
        """
        if not candidates:
            return None
        mean, std = self._posterior(pending)
        t = len(self._decisions) + len(pending) + 1
        ucb = mean[candidates] + np.sqrt(self.beta(t)) * std[candidates]
        if self.cost is not None:
            choice = self._cost_argmax(candidates, ucb)
            if choice is not None:
                return choice
        best = [c for c, u in zip(candidates, ucb) if u >= ucb.max() - 1e-12]
        return min(best, key=lambda c: self._tie_rank[c])

    def _cost_argmax(self, candidates, ucb):
        """Argmax of upper-bound gain per expected cost, or None when no gain is positive."""
        candidates, ucb = np.asarray(candidates), np.asarray(ucb)
        if self.budget is not None:
            left = self.budget - sum(self._times.values())
            fits = self._cost_scale() * self.cost[candidates] <= left
            if fits.any():
                candidates, ucb = candidates[fits], ucb[fits]
        gain = self._gain(ucb, candidates)
        if not np.any(gain > 0):
            return None
        value = gain / self.cost[candidates]
        best = candidates[value >= value.max() * (1 - 1e-9)]
        return int(min(best, key=lambda c: self._tie_rank[c]))

    def _gain(self, ucb, candidates):
        """``(u(k) - b)^+``: the upper bound's gain over the best score so far."""
        if self._observed:
            baseline = max(self._observed.values())
        else:
            baseline = self._observed_prior()[1].max()
        return np.maximum(ucb - baseline, 0.0)

    def _prior(self, observed, y):
        """Prior mean and covariance; with `fit_scale`, fitted to the observed scores."""
        if not self.fit_scale:
            return self.mean, self.cov
        if len(y) == 0:
            return np.zeros(self.n_candidates), self.cov
        level = y.mean()
        scale2 = 1.0
        if len(y) >= 2:
            C = self.cov[np.ix_(observed, observed)] + 1e-8 * np.eye(len(y))
            r = y - level
            scale2 = max(float(r @ np.linalg.solve(C, r)) / len(y), 1e-12)
        return np.full(self.n_candidates, level), scale2 * self.cov


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
    n = 0
    while not policy.done:
        (candidate, resource), = policy.ask(1)
        n += 1
        policy.tell(candidate, resource, scores[candidate])
        if scores[candidate] >= best:
            return n
    return n


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
    best, spent = np.nanmax(scores), 0.0
    while not policy.done:
        (candidate, resource), = policy.ask(1)
        spent += times[candidate]
        policy.tell(candidate, resource, scores[candidate], fit_time=times[candidate])
        if scores[candidate] >= best:
            break
    return spent / times.sum()


def tune_beta_scale(scores, *, noise=0.01, delta=0.1, scales=BETA_SCALES, times=None):
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
                                 delta=delta, beta_scale=scale, cost=cost)
            if cost is None:
                counts[j] += evaluations_to_best(policy, row[known])
            else:
                counts[j] += time_to_best(policy, row[known], row_times) * row_times.sum()
        n_runs += 1
        total += 1.0 if cost is None else row_times.sum()
    counts /= max(total, 1e-300)
    return float(scales[int(np.argmin(counts))]), counts


class GPUCBSelector(BaseSelectionSearch):
    """Select among K candidates with GP-UCB, evaluating only a few of them.

    The candidates' cross-validated scores on the data are modelled as one
    draw of a Gaussian process whose prior comes from earlier datasets
    (``prior=<scores>``, ``prior="default"``) or from a kernel over the
    candidates' configurations (``prior="kernel"``). Each step evaluates one
    candidate fully (all cross-validation folds, all training rows), updates
    the posterior of every candidate, and evaluates next the candidate with
    the highest upper confidence bound. After `n_iter` evaluations the best
    evaluated candidate is selected and refitted. Correlated candidates are
    what makes it pay: one evaluation tells about many.

    Read more in the :ref:`User Guide <gpucb>`.

    Parameters
    ----------
    estimator : estimator object or list
        One estimator searched over `param_grid` or `param_distributions`, or
        a list of candidates: estimators and/or ``(estimator, param_grid)``
        pairs (as :class:`~sksel.DAUBSearch` takes them).

    param_grid : dict or list of dicts, default=None
        Grid for a single `estimator`, as
        :class:`~sklearn.model_selection.GridSearchCV` takes it.

    param_distributions : dict or list of dicts, default=None
        Distributions for a single `estimator`, as
        :class:`~sklearn.model_selection.RandomizedSearchCV` takes them,
        sampled to `n_candidates` diverse candidates with
        :class:`~sksel.KDPPSampler`.

    n_candidates : int, default=None
        K when `param_distributions` is given.

    prior : "kernel", "default", "lcdb", array-like, list of dict or tuple, \
            default="kernel"
        Where the prior mean and covariance come from:

        - a tuple ``(mean, cov)``: the prior itself, shapes ``(K,)`` and
          ``(K, K)``, ``cov`` symmetric positive semi-definite;
        - an array of shape ``(n_datasets, K)``: scores of the same K
          candidates, in the same order, on earlier datasets (NaN where
          missing); mean and Ledoit-Wolf covariance (:func:`prior_from_scores`);
        - a list of earlier searches' ``cv_results_`` over the same
          candidates (e.g. ``[s.cv_results_ for s in earlier_searches]``): their
          ``mean_test_score`` rows, matched to the candidates by parameters;
        - ``"default"``: the prior shipped with sksel for the default portfolio
          of candidates (``sksel.portfolio.default_portfolio()``, in that
          order);
        - ``"lcdb"``: the prior of LCDB's 19 default-parameter classifiers
          (``sksel.portfolio.lcdb_portfolio()``, in that order) on 180 OpenML
          datasets;
        - ``"kernel"``: no history; the covariance is a kernel over the
          candidates' featurized configurations (``kernel``), scaled, and the
          mean constant, both fitted to the scores as they come.

    n_iter : int, default=None
        Number of candidates evaluated, T <= K. None means ``min(K, 10)``.

    noise : float, default=0.01
        Standard deviation of a score's noise, in score units, > 0.

    delta : float, default=0.1
        Confidence parameter of ``beta_t = beta_scale * log(K t^2 / delta)``,
        in (0, 1).

    beta_scale : float or "auto", default="auto"
        Factor of ``beta_t``. ``"auto"``, with a prior from earlier scores,
        runs GP-UCB leave-one-dataset-out on those scores for each scale of
        ``sksel.gpucb.BETA_SCALES`` and keeps the one that finds the best
        candidate soonest (in evaluations; with prior costs from earlier fit
        times, in share of the time to fit every candidate, with the
        cost-aware rule); with ``prior="kernel"``, a ``(mean, cov)`` prior or
        fewer than 3 earlier datasets it is 1 (as written).

    kernel : {"rbf", "arc"}, default="rbf"
        Kernel of ``prior="kernel"`` (see :class:`~sksel.KDPPSampler`).

    cost : "prior", None or array-like of shape (K,), default="prior"
        What an evaluation costs, to find the best candidate in fewer
        seconds rather than fewer evaluations:

        - ``"prior"``: each candidate's relative fit cost learned from the
          same history as the scores (:func:`cost_prior_from_times`): the
          fit times shipped with ``prior="default"`` and ``prior="lcdb"``,
          the ``mean_fit_time`` of earlier ``cv_results_``. The next
          candidate is the one with the largest gain of its upper
          confidence bound over the best score so far per unit of expected
          cost (see :class:`GPUCBPolicy`): a cheap candidate nearly as
          promising as an expensive one goes first. Priors without fit times
          (``"kernel"``, an array of scores, ``(mean, cov)``) give every
          candidate the same cost, which is the paper's rule;
        - an array of K positive relative costs, in the candidates' order;
        - None: the paper's rule, the highest upper confidence bound,
          which counts evaluations, not seconds.

        The choice depends only on the relative prior costs, so the same
        `random_state` gives the same search whatever the measured fit
        times; the measured times (summed over the folds) only rescale the
        expected costs (``policy_.expected_cost_``), and, with `max_time`,
        pass over candidates expected not to finish in the time left.

    asynchronous : bool, default=False
        With ``n_jobs > 1``, whether every evaluation a worker runs is a
        decision. ``False``: the decisions are the sequential run's, the
        same whatever `n_jobs`; free workers evaluate speculative picks,
        chosen with the variance of those still running counted as known
        (GP-BUCB), used only when the sequential run picks them, so part of
        their work is wasted. ``True``: GP-BUCB run asynchronously; each free
        worker gets the highest upper bound given the results in and, as if
        known, the evaluations running, and every result counts: no work is
        wasted, but the evaluated candidates, and so the selection, can
        depend on `n_jobs` and on the order results come in. With
        ``n_jobs=1`` both are the paper's algorithm.

    scoring, n_jobs, refit, cv, verbose, random_state, error_score, return_train_score, max_time, checkpoint
        As in :class:`~sksel.DAUBSearch` (see `asynchronous` for ``n_jobs >
        1``). The progress `verbose` prints counts evaluations against
        `n_iter`.

    Attributes
    ----------
    cv_results_ : dict of numpy (masked) ndarrays
        One row per evaluated candidate, with the keys of
        :class:`~sklearn.model_selection.GridSearchCV` plus ``candidate_id``,
        ``n_resources``, ``iter``, and ``posterior_mean`` / ``posterior_std``
        (after the last evaluation).

    posterior_mean_, posterior_std_ : ndarray of shape (K,)
        Posterior of every candidate, evaluated or not.

    candidates_ : list of dict
        The K candidates' parameters, in order.

    beta_scale_ : float
        The exploration scale used.

    cost_ : ndarray of shape (K,) or None
        The relative prior costs used (geometric mean 1), or None for the
        paper's rule.

    policy_ : GPUCBPolicy
        The policy, with its ``history_``.

    all_cv_results_, best_estimator_, best_score_, best_params_, best_index_, scorer_, n_splits_, refit_time_, multimetric_, stop_reason_, classes_, n_features_in_, feature_names_in_
        As in :class:`~sksel.DAUBSearch`.

    See Also
    --------
    sksel.DAUBSearch : Spends training rows instead of whole fits.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sksel import GPUCBSelector
    >>> X, y = load_iris(return_X_y=True)
    >>> grid = {"C": np.logspace(-4, 2, 13).tolist()}
    >>> search = GPUCBSelector(LogisticRegression(max_iter=1000), grid, n_iter=5,
    ...                        random_state=0).fit(X, y)
    >>> len(search.cv_results_["params"]), search.posterior_mean_.shape
    (5, (13,))
    """

    _parameter_constraints: dict = {
        **BaseSelectionSearch._parameter_constraints,
        "param_grid": [dict, list, None],
        "param_distributions": [dict, list, None],
        "n_candidates": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "prior": [StrOptions({"kernel", "default", "lcdb"}), "array-like", list, tuple],
        "n_iter": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "noise": [Interval(numbers.Real, 0, None, closed="neither")],
        "delta": [Interval(numbers.Real, 0, 1, closed="neither")],
        "beta_scale": [Interval(numbers.Real, 0, None, closed="left"), StrOptions({"auto"})],
        "kernel": [StrOptions({"rbf", "arc"})],
        "cost": [StrOptions({"prior"}), "array-like", None],
        "asynchronous": ["boolean"],
    }

    def __init__(
        self,
        estimator,
        param_grid=None,
        *,
        param_distributions=None,
        n_candidates=None,
        prior="kernel",
        n_iter=None,
        noise=0.01,
        delta=0.1,
        beta_scale="auto",
        kernel="rbf",
        cost="prior",
        asynchronous=False,
        scoring=None,
        n_jobs=None,
        refit=True,
        cv=None,
        verbose=0,
        random_state=None,
        error_score=np.nan,
        return_train_score=False,
        max_time=None,
        checkpoint=None,
    ):
        super().__init__(
            estimator,
            scoring=scoring,
            n_jobs=n_jobs,
            refit=refit,
            cv=cv,
            verbose=verbose,
            random_state=random_state,
            error_score=error_score,
            return_train_score=return_train_score,
            max_time=max_time,
            checkpoint=checkpoint,
        )
        self.param_grid = param_grid
        self.param_distributions = param_distributions
        self.n_candidates = n_candidates
        self.prior = prior
        self.n_iter = n_iter
        self.noise = noise
        self.delta = delta
        self.beta_scale = beta_scale
        self.kernel = kernel
        self.cost = cost
        self.asynchronous = asynchronous

    def fit(self, X, y=None, **params):
        """Run GP-UCB over the candidates, then refit the best on all of `X`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training vectors.
        y : array-like of shape (n_samples,), default=None
            Targets.
        **params : dict of str -> object
            Parameters passed to the ``fit`` method of every candidate;
            ``groups`` goes to the cross-validation splitter.

        Returns
        -------
        self : object
            Instance of fitted search.
        """
        super().fit(X, y, **params)
        self.posterior_mean_, self.posterior_std_ = self.policy_.posterior()
        ids = self.cv_results_["candidate_id"]
        self.cv_results_["posterior_mean"] = self.posterior_mean_[ids]
        self.cv_results_["posterior_std"] = self.posterior_std_[ids]
        return self

    def _search_space(self):
        if self.param_distributions is None:
            if self.n_candidates is not None:
                raise ValueError(
                    f"n_candidates={self.n_candidates} samples K candidates from "
                    "param_distributions; with param_grid or a list of estimators the "
                    "candidates are given: leave n_candidates=None."
                )
            return SearchSpace(self.estimator, self.param_grid)
        if self.param_grid is not None or self.n_candidates is None:
            raise ValueError(
                "param_distributions needs n_candidates (K) and no param_grid; got "
                f"n_candidates={self.n_candidates}, param_grid={self.param_grid!r}."
            )
        return SearchSpace(self.estimator, param_distributions=self.param_distributions)

    def _candidates(self, space):
        """The candidates given, or `n_candidates` diverse ones of `param_distributions`."""
        if self.param_distributions is None:
            return super()._candidates(space)
        return KDPPSampler(self.param_distributions, self.n_candidates,
                           random_state=self.random_state).sample()

    def _make_policy(self, candidates, splits, y, n_classes, rng):
        self.candidates_ = candidates
        n_total = len(candidates)
        n_iter = min(n_total, 10) if self.n_iter is None else self.n_iter
        if n_iter > n_total:
            raise ValueError(f"n_iter={n_iter} is larger than the {n_total} candidates (K).")
        mean, cov, fit_scale, scores = self._prior(candidates)
        self.cost_, times = self._cost(candidates)
        self.beta_scale_ = self._beta_scale(scores, times)
        self.policy_ = GPUCBPolicy(
            mean, cov, noise=self.noise, delta=self.delta, beta_scale=self.beta_scale_,
            n_iter=n_iter, fit_scale=fit_scale, random_state=rng,
            resource=min(len(train) for train, _ in splits), cost=self.cost_,
            budget=self.max_time if self.cost_ is not None else None,
            asynchronous=self.asynchronous,
        )
        return self.policy_, WholeFolds(splits)

    def _progress_budget(self, n_candidates):
        n_iter = self.policy_.n_iter
        return n_iter, True, f"{n_iter} evaluations planned (n_iter) of the {n_candidates}"

    def _prior(self, candidates):
        """``(mean, cov, fit_scale, earlier_scores or None)`` for the `candidates`."""
        n_total = len(candidates)
        if isinstance(self.prior, str) and self.prior == "kernel":
            return np.zeros(n_total), kernel_prior(candidates, self.kernel), True, None
        if isinstance(self.prior, tuple):
            return (*_check_mean_cov(*self.prior, n_total), False, None)
        if isinstance(self.prior, str):  # "default" or "lcdb"
            scores = _shipped_prior_scores(candidates, self.prior)
        elif len(self.prior) and isinstance(self.prior[0], Mapping):
            scores = _scores_from_results(self.prior, candidates)
        else:
            scores = np.asarray(self.prior, dtype=float)
        if scores.ndim != 2 or scores.shape[1] != n_total:
            raise ValueError(
                f"prior must have one column per candidate: got shape "
                f"{scores.shape} for {n_total} candidates."
            )
        mean, cov = prior_from_scores(scores)
        return mean, cov, False, scores

    def _cost(self, candidates):
        """``(relative prior costs or None, earlier fit times or None)``.

        None costs: the paper's rule.
        """
        n_total = len(candidates)
        if self.cost is None:
            return None, None
        if not (isinstance(self.cost, str) and self.cost == "prior"):
            cost = _checked_cost(self.cost, n_total)
            return cost / np.exp(np.mean(np.log(cost))), None
        if isinstance(self.prior, str) and self.prior in _SHIPPED_COSTS:
            times = _SHIPPED_COSTS[self.prior]()[1]
        elif (not isinstance(self.prior, (str, tuple)) and len(self.prior)
              and isinstance(self.prior[0], Mapping)):
            times = _scores_from_results(self.prior, candidates, key="mean_fit_time")
        else:
            return None, None  # no fit times: equal costs, the paper's rule
        return cost_prior_from_times(times), times

    def _beta_scale(self, scores, times=None):
        if self.beta_scale != "auto":
            return float(self.beta_scale)
        if scores is None or len(scores) < 3:
            return 1.0
        scale, _ = tune_beta_scale(scores, noise=self.noise, delta=self.delta, times=times)
        return scale


def _check_mean_cov(mean, cov, n_total):
    """The prior ``(mean, cov)`` as arrays, checked against K = `n_total` candidates."""
    mean, cov = np.asarray(mean, dtype=float), np.asarray(cov, dtype=float)
    if mean.shape != (n_total,) or cov.shape != (n_total, n_total):
        raise ValueError(
            f"prior=(mean, cov) must have shapes ({n_total},) and ({n_total}, {n_total}) "
            f"for {n_total} candidates; got {mean.shape} and {cov.shape}."
        )
    if not np.allclose(cov, cov.T):
        raise ValueError("prior=(mean, cov): cov must be symmetric.")
    smallest = np.linalg.eigvalsh(cov)[0]
    if smallest < -1e-10 * max(1.0, np.abs(cov).max()):
        raise ValueError(
            "prior=(mean, cov): cov must be positive semi-definite; its smallest "
            f"eigenvalue is {smallest:.3g}."
        )
    return mean, cov


def _scores_from_results(results, candidates, key="mean_test_score"):
    """Rows of earlier ``cv_results_``, matched to `candidates` by their parameters.

    `key` is the column read (``"mean_fit_time"`` for the fit times).
    """
    keys = [repr(sorted(params.items())) for params in candidates]
    column = {key: j for j, key in enumerate(keys)}
    scores = np.full((len(results), len(candidates)), np.nan)
    for i, result in enumerate(results):
        for params, score in zip(result["params"], result[key]):
            j = column.get(repr(sorted(params.items())))
            if j is not None:
                scores[i, j] = score
    return scores


_SHIPPED_PRIORS = {
    "default": (default_portfolio, default_prior),
    "lcdb": (lcdb_portfolio, lcdb_prior),
}


_SHIPPED_COSTS = {"default": default_cost, "lcdb": lcdb_cost}


def _checked_cost(cost, n_candidates):
    """`cost` as floats, once it holds `n_candidates` positive, finite numbers."""
    cost = np.asarray(cost, dtype=float)
    if cost.shape != (n_candidates,) or not np.all(np.isfinite(cost) & (cost > 0)):
        raise ValueError(f"cost must hold {n_candidates} positive numbers, one per "
                         f"candidate; got {cost!r}.")
    return cost


def _shipped_prior_scores(candidates, name):
    """The scores of a prior shipped with sksel, once the candidates are its portfolio's."""
    make_portfolio, read_prior = _SHIPPED_PRIORS[name]
    portfolio = [estimator for _, estimator in make_portfolio()]
    given = [params.get("estimator") for params in candidates]
    if len(given) != len(portfolio) or any(
        type(g) is not type(p) or repr(g) != repr(p) for g, p in zip(given, portfolio)
    ):
        raise ValueError(
            f'prior="{name}" is the prior of sksel.portfolio.{make_portfolio.__name__}(): '
            "give those estimators, in that order, as the list of candidates."
        )
    return read_prior()[1]
