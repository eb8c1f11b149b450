"""GP-UCB's policy: which candidate to evaluate next, given a Gaussian prior over their scores.

Srinivas, Krause, Kakade and Seeger, "Gaussian Process Optimization in the
Bandit Setting" (ICML 2010). The policy knows nothing of estimators: it hands
out candidates with ``ask`` and learns their scores through ``tell``
(:mod:`sksel._core.policy`). :class:`~sksel.GPUCBSelector` is the search built on
it; :mod:`sksel.gpucb.prior` turns earlier results into its prior.
"""


import numpy as np
from scipy.stats import norm
from sklearn.utils import check_random_state

from .._core.policy import Outcome, SequentialPolicy
from ..curves.gap_model import gap_features
from .prior_fit import level_and_scale, scaled_and_shrunk_cov


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
    that pick runs, free workers get speculative picks: the steps (a look,
    or a full evaluation) the sequential run is likeliest to take next,
    found by simulating it a few picks ahead with the scores it waits for
    drawn from its posterior, and only those that at least half the
    simulated runs take (a step, not a candidate: one picked may be looked
    at before it is evaluated in full): a worker idles rather than run a
    step whose expected waste, its cost times the probability that the run
    never asks for it, exceeds what it is expected to save, its cost times
    the probability that the run asks for it. A speculative result is used
    only when the sequential run picks that step. With ``asynchronous=True`` every
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
        Most evaluations, T <= K; None means K. Without `tol`, the policy
        makes exactly `n_iter` evaluations (failed ones included).
    tol : float, default=None
        Stop before `n_iter` once the answer is known: once a candidate left
        beats the best one observed (the one a search selects) by more than
        `tol` with a posterior probability of at most `risk`
        (:meth:`probability_left`). In score units, >= 0; None never stops
        early.
    risk : float, default=0.1
        The posterior probability, in [0, 1], under which the policy stops
        (with `tol`); 0 never stops before `n_iter`.
    fit_scale : bool, default=False
        Treat `mean` as unknown and `cov` as a correlation known up to a
        scale: after each observation the prior becomes the constant mean of
        the observed scores and ``s^2 * cov``, with ``s^2`` the maximum
        likelihood estimate from them, at least ``noise^2`` (a kernel prior
        without history).
    empirical_bayes : bool, default=False
        Learn from the scores observed how far to trust `cov` (a prior from
        earlier datasets), rather than taking it as it is: after each
        observation the covariance becomes ``s * ((1 - w) * T + w * cov)``,
        where ``T`` keeps the variances of `cov` and the covariance all
        candidates share (the mean of its covariances) but none of the
        structure that would reorder them, and the scale ``s`` (among
        ``4^-3 .. 4^2``) and the weight ``w`` (among 0, 0.25, .., 1) have
        the highest posterior density of the observed scores: their
        marginal likelihood times a log-normal prior of ``s`` (median 1,
        log standard deviation ``log 4``). The mean stays `mean`. Ignored
        with `fit_scale`.
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
    race : bool, default=False
        Give a candidate a cheap first look: score it fold by fold, and stop
        after ``j`` of its `n_folds` folds once its mean over them, taken as
        an observation with the extra noise of fewer folds, gives it a
        posterior probability below ``risk / K`` of beating the best
        candidate evaluated on every fold by more than `tol`
        (:meth:`enough_folds`). Its other folds are not run; the observation
        stays in the posterior with variance ``noise^2 + v (1 / j - 1 /
        n_folds)``, ``v`` the variance of one fold's score pooled over the
        candidates evaluated on every fold; it is never selected, and it
        counts among the candidates the stop weighs. Only the sequential
        run's next pick is raced, against the results it has used, so the
        decisions stay those of one worker. Needs `tol`, a positive `risk`
        and ``n_folds >= 2``.
    n_folds : int, default=None
        The folds of an evaluation, with `race` and `look_folds`.
    looks : sequence of int, default=()
        Rows of the looks on subsamples, a ladder (sorted, duplicates
        dropped): before a candidate is evaluated at `resource`, it may be
        evaluated at each of these (a subsample of the training folds,
        scored on the same validation folds; on the first `look_folds` of
        them), the smallest first, those whose cost stays within `look_share`
        of its full evaluation's (see below). Only with
        `gap_model`, `tol` and a positive `risk`, and not `asynchronous`.
        After each look, `gap_model` gives the law of the candidate's final
        gap to the leader ``b`` (the best candidate evaluated in full, which
        gets its own look at each size first) from the two candidates' scores
        at the sizes both were looked at. Where the probability of a gap
        above `tol` is below `look_threshold`, the candidate is dropped: it is
        not evaluated further, never selected, and out of the stop's sum.
        Otherwise the look enters the posterior as an observation of its
        full score, ``b``'s full score plus the model's mean gap, with
        variance ``noise^2`` plus the gap's (a Gaussian matched to the two
        0.5% tails of the model's residual law), and the candidate stays a
        candidate: picked again, it takes its next look, then its full
        evaluation. A candidate not looked at yet starts the ladder only
        where that pays in expectation: where the probability that the
        looks drop it (:meth:`_dropped_by_look`) exceeds their cost relative
        to its full evaluation. A look at ``n`` rows is priced, relative to
        the full evaluation, ``look_folds / n_folds * min(1, n / resource +
        o(k))``: a fit costs an overhead plus a part linear in its rows, the
        overhead ``o(k) = min(look_cost) / look_cost(k)`` (the cheapest
        candidate's cost standing for it; 0 without `look_cost`). A
        candidate's looks are the largest sizes whose prices sum to at most
        `look_share` (where a fit is mostly overhead, a larger look tells
        more of the full score for about the same price), climbed smallest
        first: a candidate looked at, then evaluated in full, costs at most
        ``1 + look_share`` full evaluations, and one dropped at most
        `look_share`.
        With `cost`, a candidate's cost in the choice of the next evaluation
        is that of its looks plus its full evaluation's times the
        probability that the looks do not drop it. The decisions depend on
        the scores and the prior costs only, never on measured times.
    gap_model : object, default=None
        The law of a candidate's final gap to the leader,
        :class:`~sksel.curves.gap_model.GapModel`: ``mean_scale(features)``
        and the standardized ``residuals``.
    n_validation : int, default=None
        The validation rows a score is measured on (the noise of a score in
        the gap model's features), with `looks`.
    look_threshold : float, default=0.05
        The probability of a final gap above `tol` under which a look drops a
        candidate (see `looks`).
    look_cost : array-like of shape (K,), default=None
        Relative fit costs that price the looks (see `looks`); None prices
        them by their rows only.
    look_folds : int, default=None
        The folds a look is made on, the first `look_folds` of `n_folds`
        (the price of a look, see `looks`); None: every fold.
    look_share : float, default=0.5
        The most a candidate's looks may cost, as a share of its full
        evaluation's cost (see `looks`).
    settle : bool, default=True
        With `looks`, select a candidate from its looks, without its full
        evaluation, where they settle the answer: when the run would next
        evaluate in full a candidate ``c`` whose ladder of looks is made,
        and every other candidate's probability of ending more than `tol`
        above it sums to at most `risk` (:meth:`settled_by_looks`), the run
        stops with ``c`` as its selection (:attr:`selection_`).
    families : array-like of shape (K,), default=None
        A label per candidate (its learner's class), for `family_floor`.
    family_floor : float, default=0.0
        In the stop (:meth:`probability_left`), a candidate whose family no
        evaluation nor look has observed keeps at least this share of its
        prior variance in its difference to the selection: where the data
        is unlike the prior's datasets, a family the prior rates low still
        gets a look or an evaluation before the search stops. 0: none.

    Attributes
    ----------
    history_ : list of tuple
        The actions ``(candidate, resource)`` handed out, in order.
    decisions_ : list of tuple
        The actions ``(candidate, resource)`` of the sequential run, in
        order, whose results are in.
    observed_ : dict
        Candidate -> observed score, of the sequential run.
    folds_used_ : dict
        ``{action: j}`` of the evaluations the run used on their first ``j``
        folds only (`race`): the candidates' first looks.
    look_scores_ : dict
        Candidate -> ``{size: its score at size rows}`` of its looks (NaN
        where a look failed), of the sequential run.
    dropped_ : set
        The candidates a look dropped (see `looks`).
    n_evaluations_ : int
        The sequential run's evaluations at `resource`, looks left out.
    selection_ : int or None
        The candidate the run selects: the one its looks settled
        (`settle`), else the best evaluated at `resource` (:attr:`best_`).
    settled_ : int or None
        The candidate selected from its looks, or None.
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

    races_folds = True
    _LOOKAHEAD_RUNS = 8
    _LOOKAHEAD_DEPTH = 3
    _SPECULATE_SHARE = 0.5

    def __init__(self, mean, cov, *, noise=0.01, delta=0.1, beta_scale=1.0, n_iter=None,
                 tol=None, risk=0.1, fit_scale=False, empirical_bayes=False,
                 random_state=None, resource="all", cost=None, budget=None,
                 asynchronous=False, race=False, n_folds=None, looks=(), gap_model=None,
                 n_validation=None, look_threshold=0.05, look_cost=None, look_folds=None,
                 look_share=0.5, settle=True, families=None, family_floor=0.0):
        self.mean = np.asarray(mean, dtype=float)
        self.cov = np.asarray(cov, dtype=float)
        self.noise = noise
        self.delta = delta
        self.beta_scale = beta_scale
        self.n_iter = len(self.mean) if n_iter is None else n_iter
        self.tol = tol
        self.risk = risk
        self.fit_scale = fit_scale
        self.empirical_bayes = empirical_bayes
        self._fitted = (None, None)  # (observed scores' key, fitted covariance)
        self._tie_rank = np.argsort(check_random_state(random_state).permutation(len(self.mean)))
        self.resource = resource
        self.cost = None if cost is None else _checked_cost(cost, len(self.mean))
        self.budget = budget
        self.asynchronous = asynchronous
        self.race = race and tol is not None and risk > 0 and (n_folds or 0) >= 2
        self.n_folds = n_folds
        self.folds_used_ = {}
        self._times = {}
        self._observed = {}
        self._extra_var = {}  # candidate -> its observation's variance beyond noise^2
        self._fold_scores = {}  # candidate evaluated on every fold -> its fold scores
        self._failed = set()
        self.looks = tuple(sorted(set(looks))) if (gap_model is not None and tol is not None
                                              and risk > 0 and not asynchronous) else ()
        self.gap_model = gap_model
        self.n_validation = n_validation
        self.look_threshold = look_threshold
        self.look_cost = None if look_cost is None else _checked_cost(look_cost, len(self.mean))
        self.look_folds = look_folds
        self.look_share = look_share
        self._look_sd = _tail_matched_sd(gap_model.residuals) if self.looks else None
        self._look_scores = {}  # candidate -> {size: its score at `size` rows}
        self._look_obs = {}  # candidate without a full evaluation -> (observation, variance)
        self.dropped_ = set()
        self.settle = settle
        self.settled_ = None
        self.families = None if families is None else np.asarray(families)
        self.family_floor = family_floor
        self._bar_cache = {}  # (leader, its score, size) -> (m*, v)
        self._likely = None
        super().__init__()
        self._advance()

    @property
    def n_candidates(self):
        """K, the number of candidates."""
        return len(self.mean)

    # ------------------------------------------------------------------ ask/tell
    def ask(self, n_actions=1, speculative=True):
        """Up to `n_actions` candidates to evaluate now, as ``(candidate, resource)``.

        The first is the sequential run's next pick unless it is running
        already; the others are speculative (see the class description), or
        none with ``speculative=False``. Asynchronously, every pick is a
        decision.
        """
        return super().ask(n_actions, speculative)

    def tell(self, candidate, resource, score, train_score=None, fit_time=None, failed=False,
             give_up=False, fold_scores=None):
        """Record the score of `candidate`.

        `resource`, `train_score` and `give_up` are unused: a candidate is
        evaluated once, and a failed one is never picked again. `fit_time`
        only scales the expected costs (`cost_scale_`) and counts against
        `budget`. `fold_scores`, the score of every fold run, is read with
        `race`.
        """
        self._likely = None
        super().tell(candidate, resource, score, train_score, fit_time, failed, give_up,
                     fold_scores)

    def enough_folds(self, candidate, resource, fold_scores):
        """Whether the first folds of the next pick, scoring `fold_scores`, end its first look.

        See `race`: True once their mean gives `candidate` a posterior
        probability below ``risk / K`` of beating the best candidate
        evaluated on every fold by more than `tol`. Only the sequential
        run's next pick is raced.
        """
        return ((candidate, resource) == self.next_decision and resource == self.resource
                and self._race_length(candidate, fold_scores) is not None)

    @property
    def done(self):
        """Whether `n_iter` picks have their results, the answer is known (`tol`, `risk`), or no
        candidate is left."""
        # Asynchronously, the evaluations running are decisions: wait for them.
        return self.next_decision is None and not (self.asynchronous and self.pending)

    @property
    def observed_(self):
        """Candidate -> observed score, of the sequential run (see the class attributes)."""
        return dict(self._observed)

    @property
    def best_(self):
        """The candidate with the best score observed on every fold, or None."""
        observed = {c: y for c, y in self._observed.items() if c not in self._extra_var}
        if not observed:
            return None
        return max(observed, key=observed.get)

    @property
    def selection_(self):
        """The candidate the run selects (see the class attributes), or None."""
        return self.best_ if self.settled_ is None else self.settled_

    @property
    def n_evaluations_(self):
        """The sequential run's evaluations at `resource` (looks on a subsample left out)."""
        return sum(1 for action in self._decisions if action[1] == self.resource)

    @property
    def look_scores_(self):
        """Candidate -> ``{size: score}`` of its looks (see the class attributes)."""
        return {c: dict(scores) for c, scores in self._look_scores.items()}

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
        level and scale fitted to the scores observed so far; with
        `empirical_bayes`, its covariance scaled and shrunk to them.

        Returns
        -------
        mean, std : ndarray of shape (K,)
        """
        _, mean, cov = self._observed_prior()
        return mean, np.sqrt(np.diag(cov))

    def _observed_list(self):
        """The candidates observed: evaluated (first looks included), then those looked at only."""
        return list(self._observed) + [c for c in self._look_obs if c not in self._observed]

    def _observed_prior(self):
        """``(observed scores, prior mean, prior covariance)`` of the sequential run.

        The scores are those of :meth:`_observed_list`, a look's as the
        observation of the full score it stands for.
        """
        observed = self._observed_list()
        y = np.array([self._observed[c] if c in self._observed else self._look_obs[c][0]
                      for c in observed])
        return (y, *self._prior(observed, y))

    def _posterior(self, pending):
        observed = self._observed_list()
        y, mean, cov = self._observed_prior()
        if observed:
            K_oo = cov[np.ix_(observed, observed)] + np.diag(self._noise_vars(observed))
            mean = mean + cov[:, observed] @ np.linalg.solve(K_oo, y - mean[observed])
        given = observed + [c for c in pending if c not in self._observed]
        var = np.diag(cov).copy()
        if given:
            K_gg = cov[np.ix_(given, given)] + np.diag(self._noise_vars(given))
            K_kg = cov[:, given]
            var -= np.einsum("kg,gk->k", K_kg, np.linalg.solve(K_gg, K_kg.T))
        return mean, np.sqrt(np.maximum(var, 0.0))

    def probability_left(self, candidates=None, tol=None):
        """What stopping now risks: the probability that a candidate left beats the selection.

        An upper bound of the posterior probability that some candidate of
        `candidates` (default: those neither evaluated nor failed) beats the
        best candidate observed ``b``, the one a search selects, by more than
        `tol` (default: the policy's, 0 when it has none): the sum over them
        of ``P(f(k) - f(b) > tol) = Phi((mu_t(k) - mu_t(b) - tol) / s_k)``,
        with ``s_k^2`` the posterior variance of ``f(k) - f(b)``
        (Bonferroni's bound of the probability of the union; its terms are
        exact under the posterior). The policy stops once it is at most
        `risk`. ``inf`` before any observation, 0 without candidates.
        """
        if candidates is None:
            candidates = self._available() + sorted(self._extra_var)
        if self.best_ is None:
            return np.inf
        if not len(candidates):
            return 0.0
        if tol is None:
            tol = self.tol or 0.0
        mean, cov = self._posterior_cov([self.best_, *candidates])
        var = cov[0, 0] + np.diag(cov)[1:] - 2 * cov[0, 1:]
        var = np.maximum(var, self._family_floor(candidates))
        z = (mean[1:] - mean[0] - tol) / np.sqrt(np.maximum(var, 1e-24))
        return float(np.sum(norm.cdf(z)))

    def _family_floor(self, candidates):
        """The least variance of each of `candidates`' difference to the selection: a share
        `family_floor` of its prior variance where no candidate of its family is observed."""
        if self.families is None or not self.family_floor:
            return np.zeros(len(candidates))
        seen = set(self.families[[*self._observed_list(), *self._look_scores]])
        _, _, cov = self._observed_prior()
        unseen = np.array([self.families[c] not in seen for c in candidates])
        return np.where(unseen, self.family_floor * np.diag(cov)[list(candidates)], 0.0)

    def settled_by_looks(self, candidate):
        """What selecting `candidate` from its looks risks, or ``inf`` where it cannot be.

        The sum, over the other candidates neither dropped nor failed, of
        the probability that one ends more than `tol` above `candidate`: for
        one looked at (the leader, every candidate evaluated after its
        looks), the gap model's, from their looks at the sizes both were
        looked at, `candidate` as the leader; for one never looked at, the
        posterior's of ending more than `tol` above the best candidate
        evaluated in full (:meth:`probability_left`'s term). ``inf`` unless
        `candidate`'s ladder of looks is made, all of them scored.
        """
        scores = self._look_scores.get(candidate, {})
        if (not scores or self._next_look(candidate) is not None
                or not np.all(np.isfinite(list(scores.values())))):
            return np.inf
        others = [c for c in range(self.n_candidates) if c != candidate
                  and c not in self.dropped_ and c not in self._failed]
        looked = [c for c in others if set(self._look_scores.get(c, {})) & set(scores)]
        total = 0.0
        for other in looked:
            features = self._gap_features(other, candidate)
            total += float(self.gap_model.prob_above(features, self.tol)[0])
        rest = [c for c in others if c not in looked]
        return total + (self.probability_left(rest) if rest else 0.0)

    def standing(self):
        """``(n_evaluations, best, others)``: where the sequential run stands, for its progress.

        Its evaluations at `resource` (:attr:`n_evaluations_`, what counts
        against `n_iter`), the best of them as ``(score, candidate,
        resource)`` (:attr:`best_`, the one a search would select) or None,
        and the other evaluations told, in words: the looks on a subsample
        the run used, and the evaluations told that it has not used
        (speculative ones; ``""`` where there are none).
        """
        leader = self.best_
        best = None if leader is None else (self._observed[leader], leader, self.resource)
        n_looks = sum(len(scores) for scores in self._look_scores.values())
        others = [f"{n} {one if n == 1 else many}" for n, one, many in (
            (n_looks, "look on a subsample", "looks on a subsample"),
            (len(self._told), "speculative evaluation not used",
             "speculative evaluations not used")) if n]
        return self.n_evaluations_, best, ", ".join(others)

    def describe(self, candidate, resource):
        """``{"first look": True}`` for a progress line of a first look, ``{"look": "<n>
        rows"}`` for a look on a subsample, else None."""
        if resource in self.looks:
            return {"look": f"{resource} rows"}
        return {"first look": True} if candidate in self._extra_var else None

    def columns(self, candidates):
        """``posterior_mean`` and ``posterior_std`` of `candidates`, given every score observed.

        With `race`, ``first_look`` too: whether the candidate's evaluation
        stopped after its first folds; with `looks`, ``settled_by_looks``:
        whether it is the candidate selected from its looks.
        """
        mean, std = self.posterior()
        columns = {"posterior_mean": mean[candidates], "posterior_std": std[candidates]}
        if self.looks:
            columns["settled_by_looks"] = np.asarray(candidates) == self.settled_
        if self.race:
            columns["first_look"] = np.isin(candidates, list(self._extra_var))
        return columns

    def stop_reason(self):
        """Why the sequential run stopped, in words; None while it goes on."""
        if not self.done:
            return None
        left, n = self._available(), self.n_evaluations_
        if self.settled_ is not None:
            n_looks = sum(len(scores) for scores in self._look_scores.values())
            return (f"the answer is known after {n} evaluations and {n_looks} looks on a "
                    f"subsample: candidate {self.settled_}, selected from its looks, ends more "
                    f"than tol={self.tol:g} below another with a probability of at most "
                    f"{self.settled_by_looks(self.settled_):.2g} <= risk={self.risk:g}")
        if not left and self.dropped_:
            return (f"every candidate evaluated or dropped: {n} evaluated, "
                    f"{len(self.dropped_)} dropped by looks")
        if not left:
            return f"every candidate evaluated ({n})"
        if n >= self.n_iter:
            return f"{n} evaluations made (n_iter={self.n_iter})"
        looks = f", {len(self.folds_used_)} of them first looks" if self.folds_used_ else ""
        if self._look_scores:
            n_looks = sum(len(scores) for scores in self._look_scores.values())
            looks += f", and {n_looks} looks on a subsample"
        return (f"the answer is known after {n} evaluations{looks}: a candidate left beats the "
                f"selected one by more than tol={self.tol:g} with a probability of at most "
                f"{self.probability_left():.2g} <= risk={self.risk:g}")

    # --------------------------------------------------------------- internals
    def _decide(self):
        """The sequential run's next pick, as an action, or None once it stops.

        Asynchronously, every told result is used first, in the order of the
        picks, and the next pick is the UCB argmax given those running.
        """
        if self.asynchronous:
            for action in [a for a in self.history_ if a in self.waiting]:
                self._use_told(action)
            return self._speculate()
        available = self._available()
        if self.n_evaluations_ >= self.n_iter or self._answer_known(available):
            return None
        candidate = self._ucb_argmax(available)
        if candidate is None:
            return None
        step = self._next_step(candidate)
        if (self.settle and step == (candidate, self.resource)
                and self.settled_by_looks(candidate) <= self.risk):
            self.settled_ = candidate
            return None
        return step

    def _answer_known(self, candidates):
        """Whether `tol` is set, `risk` is positive, and a candidate left beats the best
        by `tol` with probability at most `risk`."""
        return (self.tol is not None and self.risk > 0
                and self.probability_left([*candidates, *sorted(self._extra_var)]) <= self.risk)

    def _posterior_cov(self, candidates, look=None):
        """Posterior mean and covariance of `candidates`, given the scores observed.

        `look`, ``(candidate, score, variance)``, is one more observation.
        """
        observed = self._observed_list()
        y, mean, cov = self._observed_prior()
        noise = self._noise_vars(observed)
        if look is not None:
            observed, y, noise = observed + [look[0]], np.r_[y, look[1]], np.r_[noise, look[2]]
        mean_c, cov_c = mean[candidates], cov[np.ix_(candidates, candidates)]
        if not observed:
            return mean_c, cov_c
        K_oo = cov[np.ix_(observed, observed)] + np.diag(noise)
        K_co = cov[np.ix_(candidates, observed)]
        solved = np.linalg.solve(K_oo, np.column_stack([y - mean[observed], K_co.T]))
        return mean_c + K_co @ solved[:, 0], cov_c - K_co @ solved[:, 1:]

    def _use(self, action, outcome):
        candidate = action[0]
        if action[1] != self.resource:
            self._use_look(action, outcome)
            return
        self._look_obs.pop(candidate, None)
        folds = self._folds_used(action, outcome)
        if outcome.fit_time is not None and np.isfinite(outcome.fit_time) \
                and outcome.fit_time > 0:
            # A first look's time, scaled to every fold: what the candidate costs.
            scale = self.n_folds / folds if folds else 1.0
            self._times[candidate] = float(outcome.fit_time) * scale
        if outcome.failed:
            self._failed.add(candidate)
        elif folds is None:
            self._observed[candidate] = float(outcome.score)
            if outcome.fold_scores is not None and len(outcome.fold_scores) == self.n_folds:
                self._fold_scores[candidate] = np.asarray(outcome.fold_scores, dtype=float)
        else:
            self.folds_used_[action] = folds
            self._observed[candidate] = float(np.mean(outcome.fold_scores[:folds]))
            self._extra_var[candidate] = self._look_var(folds)

    def _use_look(self, action, outcome):
        """Fold in a look on a subsample: the leader's is kept for the gap's features; another
        candidate's becomes an observation of its full score, or drops it (see `looks`)."""
        candidate, size = action
        scores = self._look_scores.setdefault(candidate, {})
        scores[size] = np.nan if outcome.failed else float(outcome.score)
        if candidate in self._observed or outcome.failed:
            return
        leader = self.best_
        features = self._gap_features(candidate, leader)
        mean, scale = self.gap_model.mean_scale(features)
        self._look_obs[candidate] = (self._observed[leader] + float(mean[0]),
                                     float(scale[0] * self._look_sd) ** 2)
        if self.gap_model.prob_above(features, self.tol)[0] < self.look_threshold:
            self.dropped_.add(candidate)

    def _gap_features(self, candidate, leader, score=None):
        """The gap model's features of `candidate`'s looks against `leader`'s at the same sizes.

        `score`: the score of `candidate`'s next look, as if made.
        """
        leader_scores = self._look_scores.get(leader, {})
        scores = dict(self._look_scores.get(candidate, {}))
        if score is not None:
            scores[self._next_look(candidate)] = score
        sizes = [n for n in self.looks if n in scores and n in leader_scores]
        return gap_features([scores[n] for n in sizes], [leader_scores[n] for n in sizes],
                            sizes, self.resource, self.n_validation)

    def _next_look(self, candidate):
        """The smallest size of `candidate`'s looks (:meth:`_ladder`) it has no look at, or
        None."""
        done = self._look_scores.get(candidate, {})
        return next((n for n in self._ladder(candidate) if n not in done), None)

    def _ladder(self, candidate):
        """The sizes of `candidate`'s looks, increasing: the largest whose prices sum to at
        most `look_share` of its full evaluation's (see `looks`)."""
        return self.looks[len(self.looks) - len(self._ladder_prices(candidate)):]

    def _ladder_prices(self, candidate):
        """The prices (:meth:`_look_prices`) of `candidate`'s looks, those of :meth:`_ladder`."""
        prices = self._look_prices(candidate)
        n_kept = int(np.searchsorted(np.cumsum(prices[::-1]), self.look_share * (1 + 1e-12),
                                     side="right"))
        return prices[len(prices) - n_kept:]

    def _look_prices(self, candidate):
        """The expected cost of each look of `looks` over `candidate`'s full evaluation's.

        ``look_folds / n_folds * min(1, n / resource + o(k))``: an overhead
        plus a part linear in the rows, the overhead ``o(k) = min(look_cost)
        / look_cost(k)``, the cheapest candidate's cost standing for it (0
        without `look_cost`).
        """
        folds = 1.0 if not (self.look_folds and self.n_folds) else min(
            self.look_folds / self.n_folds, 1.0)
        overhead = 0.0 if self.look_cost is None else (self.look_cost.min()
                                                       / self.look_cost[candidate])
        return folds * np.minimum(np.array(self.looks) / self.resource + overhead, 1.0)

    def _next_step(self, candidate):
        """The action that evaluates `candidate` next: its next look where it climbs the
        looks (the leader's look at that size first, where it has none), else its full
        evaluation."""
        if not self._looks_next(candidate):
            return candidate, self.resource
        size, leader = self._next_look(candidate), self.best_
        if size not in self._look_scores.get(leader, {}):
            return leader, size
        return candidate, size

    def _looks_next(self, candidate):
        """Whether `candidate`'s next evaluation is a look (see `looks`).

        A candidate looked at goes on to its next look size while it has one;
        one not looked at yet starts only where that pays (:meth:`_dropped_by_look`),
        and while the leader's looks all succeeded.
        """
        if not self.looks or candidate in self._observed or self._next_look(candidate) is None:
            return False
        leader = self.best_
        if leader is None or not all(np.isfinite(list(self._look_scores.get(leader, {})
                                                      .values()))):
            return False
        scores = self._look_scores.get(candidate)
        if scores:
            return all(np.isfinite(list(scores.values())))
        return self._dropped_by_look(candidate) > self._look_ratio(candidate)

    def _look_ratio(self, candidate):
        """The expected cost of `candidate`'s looks over its full evaluation's: the sum of
        the prices of its ladder (:meth:`_look_prices`), at most `look_share`."""
        return float(np.sum(self._ladder_prices(candidate)))

    def _dropped_by_look(self, candidate):
        """The probability that `candidate`'s looks drop it, before they are made.

        Taken as that of its last look, the largest of its ladder
        (:meth:`_ladder`): a look drops a candidate when the gap model's mean
        of its final gap to the leader falls below ``m*``, the mean at the
        look gap where the model's probability of a
        gap above `tol` is `look_threshold`. Before the look, that mean is
        taken as the posterior's gap ``d = f(k) - f(b)`` plus the model's
        error there: the probability is ``Phi((m* - E d) / sqrt(Var d +
        v))``, ``v`` the variance of a look's observation.
        """
        leader = self.best_
        bar, var = self._drop_bar(leader, self._ladder(candidate)[-1])
        mean, cov = self._posterior_cov([leader, candidate])
        var_d = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
        return float(norm.cdf((bar - (mean[1] - mean[0])) / np.sqrt(var_d + var)))

    def _drop_bar(self, leader, size):
        """``(m*, v)`` of a last look at `size` rows against `leader` (see
        :meth:`_dropped_by_look`)."""
        leader_score = self._look_scores.get(leader, {}).get(size, self._observed[leader])
        key = (leader, leader_score, size)
        if key not in self._bar_cache:
            low, high = -1.0, self.tol + 1.0
            for _ in range(40):  # bisection: the probability grows with the look gap
                gap = (low + high) / 2
                score = min(max(leader_score + gap, 0.0), 1.0)
                features = gap_features([score], [leader_score], [size], self.resource,
                                        self.n_validation)
                if self.gap_model.prob_above(features, self.tol)[0] < self.look_threshold:
                    low = gap
                else:
                    high = gap
            mean, scale = self.gap_model.mean_scale(features)
            self._bar_cache[key] = (float(mean[0]), float(scale[0] * self._look_sd) ** 2)
        return self._bar_cache[key]

    def _step_cost(self, candidate):
        """The expected cost of evaluating `candidate`, relative: with a look first, the look's
        plus the full evaluation's when the look does not drop it."""
        if not self._looks_next(candidate):
            return self.cost[candidate]
        return self.cost[candidate] * (self._look_ratio(candidate)
                                       + 1.0 - self._dropped_by_look(candidate))

    def _folds_used(self, action, outcome):
        """The folds of `outcome` the run uses, when its first look ends early; else None."""
        if outcome.failed or outcome.fold_scores is None:
            return None
        return self._race_length(action[0], outcome.fold_scores)

    def _race_length(self, candidate, fold_scores):
        """The first folds after which `candidate`, scoring `fold_scores`, is out (see `race`).

        None when it never is, or before any candidate is evaluated on every fold.
        """
        best = self.best_
        if not self.race or best is None or not self._fold_scores:
            return None
        scores = np.asarray(fold_scores, dtype=float)
        for j in range(1, min(len(scores), self.n_folds - 1) + 1):
            look = (candidate, scores[:j].mean(), self.noise**2 + self._look_var(j))
            mean, cov = self._posterior_cov([best, candidate], look=look)
            sd = np.sqrt(max(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1], 1e-24))
            if norm.cdf((mean[1] - mean[0] - self.tol) / sd) < self.risk / self.n_candidates:
                return j
        return None

    def _look_var(self, j):
        """The variance a mean over `j` folds adds to that over every fold.

        ``v (1 / j - 1 / n_folds)``, ``v`` the variance of one fold's score
        pooled over the candidates evaluated on every fold, at least
        ``noise^2``.
        """
        pooled = np.mean([np.var(s, ddof=1) for s in self._fold_scores.values()])
        return max(pooled, self.noise**2) * (1 / j - 1 / self.n_folds)

    def _noise_vars(self, candidates):
        """The variance of the observation of each of `candidates` (a first look's and a look
        on a subsample's: more)."""
        return np.array([self.noise**2 + self._extra_var.get(c, 0.0)
                         + (self._look_obs[c][1] if c in self._look_obs else 0.0)
                         for c in candidates])

    def _available(self):
        used = set(self._observed) | self._failed | self.dropped_
        return [c for c in range(self.n_candidates) if c not in used]

    def _speculate(self):
        """An action to start now, of a candidate neither running nor told; or None.

        Asynchronously a decision, while fewer than `n_iter` picks are made
        and the answer is not known (`tol`): the UCB argmax given the
        candidates running. Otherwise the likeliest of the sequential run's
        next steps (`_likely_picks`) of a candidate free (or a look of one
        evaluated, the leader's), or None where no step is likely enough.
        """
        busy = {c for c, _ in self.pending} | {c for c, _ in self.waiting}
        free = [c for c in self._available() if c not in busy]
        if self.asynchronous and (self.n_evaluations_ + len(busy) >= self.n_iter
                                  or self._answer_known(free)):
            return None
        if not self.asynchronous:
            steps = [step for step in self._likely_picks() if step not in self._pending
                     and step not in self._told and (step[0] in free or (
                         step[1] != self.resource and step[0] in self._observed))]
            return steps[0] if steps else None
        candidate = self._ucb_argmax(free, pending=sorted(busy))
        if candidate is None:
            return None
        step = self._next_step(candidate)
        return None if step in self._pending or step in self._told else step

    def _sure(self):
        return self._speculate() if self.asynchronous else None

    def _likely_picks(self):
        """Steps ``(candidate, resource)`` the sequential run is likely to take soon, the
        likeliest first.

        The run is simulated `_LOOKAHEAD_RUNS` times from where it stands,
        `_LOOKAHEAD_DEPTH` picks ahead, every score it waits for drawn from
        the posterior predictive of the simulated run (a result told already
        is used as it is), the prior as fitted now. The steps at least half
        the simulated runs take (`_SPECULATE_SHARE`), ranked by how many take
        them, then by how soon: a step, not a candidate, since a candidate
        the run picks may be looked at first rather than evaluated in full.
        Computed once per told result.
        """
        if self._likely is None:
            self._likely = self._simulate_ahead()
        return self._likely

    def _simulate_ahead(self):
        """The ranked steps of `_likely_picks`."""
        rng = np.random.RandomState(len(self.history_))
        picked, depth_sum = {}, {}
        for _ in range(self._LOOKAHEAD_RUNS):
            run = self._copy_of_run()
            action = self.next_decision
            for depth in range(self._LOOKAHEAD_DEPTH):
                if action is None:
                    break
                step = (int(action[0]), action[1])
                picked[step] = picked.get(step, 0) + 1
                depth_sum[step] = depth_sum.get(step, 0) + depth
                outcome = self.waiting.get(action)
                if outcome is None:
                    outcome = run._simulated_outcome(action, rng)
                run._decide_with(action, outcome)
                action = run._decide()
        likely = [step for step, n in picked.items()
                  if n >= self._SPECULATE_SHARE * self._LOOKAHEAD_RUNS]
        return sorted(likely, key=lambda step: (-picked[step], depth_sum[step] / picked[step],
                                                step[0]))

    def _simulated_outcome(self, action, rng):
        """An outcome of `action` drawn from this run's posterior predictive.

        A full evaluation scores its posterior draw plus noise; the leader's
        own look, its full score; another candidate's look, the leader's look
        score plus the posterior gap between them, with the gap model's spread.
        """
        candidate, size = action
        leader = self.best_
        if size != self.resource and candidate in self._observed:
            return Outcome(self._observed[candidate], None, None, False, False)
        mean, std = self._posterior(())
        if size == self.resource:
            score = rng.normal(mean[candidate], np.hypot(std[candidate], self.noise))
            return Outcome(score, None, None, False, False)
        _, scale = self.gap_model.mean_scale(self._gap_features(candidate, leader, score=0.5))
        score = rng.normal(self._look_scores[leader][size] + mean[candidate] - mean[leader],
                           np.hypot(std[candidate], scale[0] * self._look_sd))
        return Outcome(min(max(score, 0.0), 1.0), None, None, False, False)

    def _copy_of_run(self):
        """A copy of the sequential run that simulated results can be folded into.

        Its prior is this run's as fitted now: empirical Bayes and the
        kernel prior's level and scale are not refitted to simulated scores,
        which would cost a fit per simulated pick.
        """
        run = self._branch()
        _, run.mean, run.cov = self._observed_prior()
        run.fit_scale = run.empirical_bayes = False
        run._observed, run._failed = dict(self._observed), set(self._failed)
        run._times, run._extra_var = dict(self._times), dict(self._extra_var)
        run._fold_scores, run.folds_used_ = dict(self._fold_scores), dict(self.folds_used_)
        run._look_scores = {c: dict(scores) for c, scores in self._look_scores.items()}
        run._look_obs = dict(self._look_obs)
        run.dropped_ = set(self.dropped_)
        return run

    def _ucb_argmax(self, candidates, pending=()):
        """The candidate of `candidates` to evaluate next; ties by a random order.

        The highest upper bound, or with `cost` the highest gain per cost.
        """
        if not candidates:
            return None
        mean, std = self._posterior(pending)
        t = self.n_evaluations_ + len(pending) + 1
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
        value = gain / np.array([self._step_cost(c) for c in candidates])
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
        """Prior mean and covariance, fitted to the observed scores with `fit_scale` or
        `empirical_bayes`."""
        if self.fit_scale:
            return level_and_scale(self.cov, observed, y, self.noise)
        if not self.empirical_bayes or len(y) == 0:
            return self.mean, self.cov
        key = (tuple(observed), y.tobytes())
        if self._fitted[0] != key:
            self._fitted = (key, scaled_and_shrunk_cov(self.mean, self.cov, observed, y,
                                                       self._noise_vars(observed)))
        return self.mean, self._fitted[1]


def _checked_cost(cost, n_candidates):
    """`cost` as floats, once it holds `n_candidates` positive, finite numbers."""
    cost = np.asarray(cost, dtype=float)
    if cost.shape != (n_candidates,) or not np.all(np.isfinite(cost) & (cost > 0)):
        raise ValueError(f"cost must hold {n_candidates} positive numbers, one per "
                         f"candidate; got {cost!r}.")
    return cost


def _tail_matched_sd(residuals):
    """The standard deviation of the Gaussian whose 0.5% tails are those of `residuals`."""
    low, high = np.quantile(residuals, [0.005, 0.995])
    return float((high - low) / (2 * norm.isf(0.005)))
