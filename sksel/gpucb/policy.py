"""GP-UCB's policy: which candidate to evaluate next, given a Gaussian prior over their scores.

Srinivas, Krause, Kakade and Seeger, "Gaussian Process Optimization in the
Bandit Setting" (ICML 2010). The policy knows nothing of estimators: it hands
out candidates with ``ask`` and learns their scores through ``tell``
(:mod:`sksel._core.policy`). :class:`~sksel.GPUCBSelector` is the search built on
it; :mod:`sksel.gpucb.prior` turns earlier results into its prior.

This module holds the run: what it asks, what it makes of what it is told,
and its next decision. Each concern of that decision has its module:
:mod:`~sksel.gpucb.model` (the posterior over candidates, looks on subsamples
as observations at their size), :mod:`~sksel.gpucb.acquisition` (the next
candidate and the size it is evaluated at), :mod:`~sksel.gpucb.stop` (when
the answer is known), :mod:`~sksel.gpucb.batch` (picks made while others are
pending) and :mod:`~sksel.gpucb.lookahead` (speculative steps for free
workers).
"""

import numpy as np
from sklearn.utils import check_random_state

from .._core.policy import SequentialPolicy
from .acquisition import Acquisition, _checked_cost
from .batch import Batch
from .lookahead import Lookahead
from .model import GaussianModel, _tail_matched_sd
from .stop import Stop


class GPUCBPolicy(Stop, Acquisition, Batch, Lookahead, GaussianModel, SequentialPolicy):
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

    With ``batch_size=B > 1``, the sequential run itself picks up to B
    candidates at once, by GP-BUCB (:mod:`sksel.gpucb.batch`): the ``p``-th
    pick takes the results of picks ``0 .. p - B`` and the B - 1 picks
    before it as pending, observed at their posterior mean, whether their
    results are in yet or not. Its picks, and the selection, depend on the
    scores and B only, as with one worker: B picks run at once, and free
    workers beyond them get speculative picks as above. A pick joins the
    batch only while the answer is not known with the pending evaluations
    counted as made (at their posterior mean), and `n_iter` counts them.

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
    tol : float or callable, default=None
        Stop before `n_iter` once the answer is known: once a candidate left
        beats the best one observed (the one a search selects) by more than
        `tol` with a posterior probability of at most `risk`
        (:meth:`probability_left`). In score units, >= 0; or a function of
        the best score observed returning it (a share of an error, see
        :class:`~sksel._core.scoring.CurveScale`); None never stops early.
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
    batch_size : int, default=1
        The picks of the sequential run that may be evaluated at once, >= 1
        (see above); 1 is the paper's GP-UCB. Ignored with `asynchronous`;
        with more than 1, no `looks`.
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
        `gap_model`, `tol` and a positive `risk`, not `asynchronous`, and a
        `batch_size` of 1.
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
        stops with ``c`` as its selection (:attr:`selection_`). Only once a
        full evaluation has checked the gap model on the data at hand
        (``n_looks_checked_``).
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
    looks_contradicted_ : bool
        Whether a full evaluation contradicted the gap model (see `looks`):
        from then on no look is made, none is an observation, and the
        candidates the looks dropped are candidates again.
    n_looks_checked_ : int
        The full evaluations that checked the gap model and agreed with it
        (see `looks`); `settle` waits for one.
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

    def __init__(self, mean, cov, *, noise=0.01, delta=0.1, beta_scale=1.0, n_iter=None,
                 tol=None, risk=0.1, fit_scale=False, empirical_bayes=False,
                 random_state=None, resource="all", cost=None, budget=None,
                 asynchronous=False, batch_size=1, race=False, n_folds=None, looks=(),
                 gap_model=None, n_validation=None, look_threshold=0.05, look_cost=None,
                 look_folds=None, look_share=0.5, settle=True, families=None,
                 family_floor=0.0):
        self.mean = np.asarray(mean, dtype=float)
        self.cov = np.asarray(cov, dtype=float)
        self.noise = noise
        self.delta = delta
        self.beta_scale = beta_scale
        self.n_iter = len(self.mean) if n_iter is None else n_iter
        self._tol = tol
        self.risk = risk
        self.fit_scale = fit_scale
        self.empirical_bayes = empirical_bayes
        self._fitted = (None, None)  # (observed scores' key, fitted covariance)
        self._tie_rank = np.argsort(check_random_state(random_state).permutation(len(self.mean)))
        self.resource = resource
        self.cost = None if cost is None else _checked_cost(cost, len(self.mean))
        self.budget = budget
        self.asynchronous = asynchronous
        self.batch_size = 1 if asynchronous else int(batch_size)
        if self.batch_size < 1:
            raise ValueError(f"batch_size must be at least 1; got {batch_size!r}.")
        self._ahead = []  # the batch's picks not used yet, in order (see sksel.gpucb.batch)
        self.race = race and tol is not None and risk > 0 and (n_folds or 0) >= 2
        self.n_folds = n_folds
        self.folds_used_ = {}
        self._times = {}
        self._observed = {}
        self._extra_var = {}  # candidate -> its observation's variance beyond noise^2
        self._fold_scores = {}  # candidate evaluated on every fold -> its fold scores
        self._failed = set()
        self.looks = tuple(sorted(set(looks))) if (gap_model is not None and tol is not None
                                              and risk > 0 and not asynchronous
                                              and self.batch_size == 1) else ()
        self.gap_model = gap_model
        self.n_validation = n_validation
        self.look_threshold = look_threshold
        self.look_cost = None if look_cost is None else _checked_cost(look_cost, len(self.mean))
        self.look_folds = look_folds
        self.look_share = look_share
        # The 0.5% tails of the gap model's standardized residuals: a look's variance, and
        # where a full evaluation contradicts the model.
        self._look_tails = (np.quantile(gap_model.residuals, [0.005, 0.995]) if self.looks
                            else None)
        self._look_sd = _tail_matched_sd(self._look_tails) if self.looks else None
        self._look_scores = {}  # candidate -> {size: its score at `size` rows}
        self._look_obs = {}  # candidate without a full evaluation -> (observation, variance)
        self.dropped_ = set()
        self.settle = settle
        self.settled_ = None
        self.looks_contradicted_ = False
        self.n_looks_checked_ = 0
        self.families = None if families is None else np.asarray(families)
        self.family_floor = family_floor
        self._bar_cache = {}  # (leader, its score, size) -> (m*, v)
        self._likely = self._looks_ahead = None
        super().__init__()
        self._advance()

    @property
    def n_candidates(self):
        """K, the number of candidates."""
        return len(self.mean)

    # ------------------------------------------------------------------ ask/tell
    def ask(self, n_actions=1, speculative=True, idle=False):
        """Up to `n_actions` candidates to evaluate now, as ``(candidate, resource)``.

        The first is the sequential run's next pick unless it is running
        already; the others are speculative (see the class description), or
        none with ``speculative=False``. Asynchronously, every pick is a
        decision.
        """
        return super().ask(n_actions, speculative, idle)

    def tell(self, candidate, resource, score, train_score=None, fit_time=None, failed=False,
             give_up=False, fold_scores=None):
        """Record the score of `candidate`.

        `resource`, `train_score` and `give_up` are unused: a candidate is
        evaluated once, and a failed one is never picked again. `fit_time`
        only scales the expected costs (`cost_scale_`) and counts against
        `budget`. `fold_scores`, the score of every fold run, is read with
        `race`.
        """
        self._likely = self._looks_ahead = None
        super().tell(candidate, resource, score, train_score, fit_time, failed, give_up,
                     fold_scores)

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
    def tol(self):
        """The gap that counts as a loss now: `tol`, or where it is a function of the best
        score observed, its value there (before any, at None)."""
        if not callable(self._tol):
            return self._tol
        best = self.best_
        return self._tol(None if best is None else self._observed[best])

    @property
    def _tol_shown(self):
        """`tol` as the progress lines say it."""
        return str(self._tol) if callable(self._tol) else f"{self._tol:g}"

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

    def leader(self):
        """``(score, candidate, resource)`` of :attr:`best_`, the candidate a search would
        select, or None."""
        leader = self.best_
        return None if leader is None else (self._observed[leader], leader, self.resource)

    def likely_selections(self):
        """The leader's evaluation; before there is one, the full evaluation the run waits
        for (the first pick, the prior's favourite, often the selection: letter's and
        diamonds' sleeping learners, :ref:`benchmark_scaling`)."""
        likely = super().likely_selections()
        decision = self.next_decision
        if likely or decision is None or decision[1] != self.resource:
            return likely
        return [(int(decision[0]), self.resource)]

    def counts(self, action):
        """Whether `action` counts against `n_iter`: a full evaluation, not a look."""
        return action[1] == self.resource

    def describe(self, candidate, resource):
        """``{"first look": True}`` for a progress line of a first look, ``{"look": "<n>
        rows"}`` for a look on a subsample, else None."""
        if resource in self.looks:
            return {"look": f"{resource} rows"}
        return {"first look": True} if candidate in self._extra_var else None

    def columns(self, candidates):
        """``posterior_mean`` and ``posterior_std`` of `candidates`, given every score observed.

        ``why_not_evaluated``: for a candidate not evaluated once the run
        stopped by its rule, why (the answer was known, `n_iter` reached);
        ``""`` for the others. With `race`, ``first_look`` too: whether the
        candidate's evaluation stopped after its first folds; with `looks`,
        ``settled_by_looks``: whether it is the candidate selected from its
        looks.
        """
        mean, std = self.posterior()
        columns = {"posterior_mean": mean[candidates], "posterior_std": std[candidates],
                   "why_not_evaluated": [self._why_not_evaluated(c) for c in candidates]}
        if self.looks:
            columns["settled_by_looks"] = np.asarray(candidates) == self.settled_
        if self.race:
            columns["first_look"] = np.isin(candidates, list(self._extra_var))
        return columns

    def _why_not_evaluated(self, candidate):
        """Why the run, stopped by its rule, did not evaluate `candidate`, in words; ``""``
        where it did, or where it did not stop by its rule."""
        evaluated = (candidate in self._observed or candidate in self._failed
                     or candidate in self._look_scores)
        if evaluated or not self.done or self.asynchronous:
            return ""
        if self.settled_ is not None:
            return "not needed: the looks settled the answer"
        if self.n_evaluations_ >= self.n_iter:
            if self.n_iter == 1:
                return "not needed: the one evaluation allowed was made"
            return f"not needed: the {self.n_iter} evaluations allowed were made"
        return (f"not needed: the probability that it scores more than tol={self._tol_shown} above "
                f"the selected candidate is {self.probability_left([candidate]):.2g} "
                f"(summed over all the candidates left: {self.probability_left():.2g} "
                f"<= risk={self.risk:g})")

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
        if self.batch_size > 1:
            return self._ahead[0] if self._ahead else self._next_of_batch()
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

    def _use(self, action, outcome):
        if self._ahead and self._ahead[0] == action:
            self._ahead.pop(0)
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
            leader = self.best_
            self._observed[candidate] = float(outcome.score)
            if self.looks and not self.looks_contradicted_:
                self._check_looks(candidate, leader)
            if outcome.fold_scores is not None and len(outcome.fold_scores) == self.n_folds:
                self._fold_scores[candidate] = np.asarray(outcome.fold_scores, dtype=float)
        else:
            self.folds_used_[action] = folds
            self._observed[candidate] = float(np.mean(outcome.fold_scores[:folds]))
            self._extra_var[candidate] = self._look_var(folds)

    def _available(self):
        used = set(self._observed) | self._failed | self.dropped_
        return [c for c in range(self.n_candidates) if c not in used]
