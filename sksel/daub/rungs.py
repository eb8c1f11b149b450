"""Rungs with a learned safety net: learners compared with the leader at the same size.

The policy of :class:`~sksel.DAUBSearch` for ``risk > 0`` (see :mod:`sksel.daub`).
"""

import math

import numpy as np

from .cost import predict_cost
from .ledger import CurvePolicy


def rung_sizes(n_total, n_candidates, eta=3, min_size=1):
    """Training sizes of the rungs: N divided by powers of `eta`, one below halving's first.

    Successive halving over `n_candidates` needs ``1 + floor(log_eta(n))``
    rungs for one learner to be left; one more, smaller size makes a first cut
    on the cheapest rows, or gives every learner a slope at the first rung
    where learners are dropped (:class:`RungPolicy`'s `first_cut`). Sizes
    below `min_size` are left out (N is always kept).

    Parameters
    ----------
    n_total : int
        The full size, N.
    n_candidates : int
        Number of candidate learners.
    eta : int, default=3
        Ratio of two rungs' sizes, and halving's factor.
    min_size : int, default=1
        Smallest size kept.

    Returns
    -------
    sizes : list of int
        Strictly increasing, the last one `n_total`.

    Examples
    --------
    >>> from sksel.daub import rung_sizes
    >>> rung_sizes(16000, 22)
    [592, 1777, 5333, 16000]
    >>> rung_sizes(1000, 10, min_size=50)
    [111, 333, 1000]
    """
    n_rungs = 1
    while eta ** n_rungs <= n_candidates:
        n_rungs += 1
    sizes = []
    for k in reversed(range(n_rungs + 1)):
        size = int(n_total // eta ** k)
        if (size >= min_size or k == 0) and (not sizes or size > sizes[-1]):
            sizes.append(size)
    return sizes


#: How much a learner's predicted seconds scale its threshold (``cost="time"``), and
#: the most they scale it by, up or down.
_COST_WEIGHT, _MAX_SCALE = 0.5, 2.0
#: The plan's chance that a rung which may drop a learner keeps it, before the learner is
#: scored: at least the first, at most the second, rising with the noise of a score
#: (:meth:`RungPolicy._kept_before_scores`); then, outside halving's top third of its
#: last rung, the third.
_KEPT_LEAST, _KEPT_MOST, _KEPT_BEHIND = 0.5, 0.9, 0.5
#: The share of its folds at N that a learner is expected to run where they are raced.
_RACED_SHARE = 0.6
#: Seconds the run spends on an evaluation beside the fit (its split, its bookkeeping).
_EVALUATION_SECONDS = 0.003


class RungPolicy(CurvePolicy):
    """Which learners go on to the next rung: halving's top third, and any that may still win.

    Every learner alive is trained on the rung's size; then the best
    ``ceil(n / eta)`` of the `n` alive go on, as in successive halving, and so
    does every other learner whose probability of ending more than `tol`
    above the *leader* (the best learner at this size, the one the run would
    select now) is at least its threshold: the
    :class:`~sksel.curves.gap_model.GapModel` gives the probability from the
    two learners' curves at the rungs so far. The threshold is where the risk
    is spent: `threshold` times ``(seconds / typical) ** 0.5`` (that factor
    kept within [1/2, 2]; the threshold at most 0.5), where ``seconds`` is
    what the rest of the learner's path to N is predicted to cost (the next
    rungs' sizes and N's folds; with ``cost="time"`` from
    :func:`~sksel.daub.cost.fit_cost` of its evaluations so far) and
    ``typical`` the geometric mean of that over the learners outside the top
    third. A costly learner needs a larger probability to go
    on than a cheap one; with ``cost="rows"`` every learner's path costs the
    same rows and the threshold is `threshold`. At the first rung, where two
    or more rungs lie below N, learners are cut on one point of each curve
    (`first_cut`), or none is dropped so that every curve has a slope where
    learners are first dropped; there, where even a cut on one point would
    drop nobody, the learners are close and the rungs left are not expected
    to drop any: they all go to N at once, where the folds are raced. A
    learner left alone goes to N at once. At
    N every learner left is scored, then each learner that failed on every
    fold of a rung below N gets one try there
    (:class:`~sksel.daub.ledger.CurvePolicy`), and the best is selected.

    Scores are of the kind the model was fitted for (its ``features``):
    accuracies (and the like) in [0, 1], or R² (``shipped_model("r2")``).

    Parameters
    ----------
    n_candidates : int
        Number of candidate learners.
    sizes : list of int
        Increasing rung sizes (:func:`rung_sizes`); the last one is N.
    model : GapModel or None
        The law of the final gap (its ``features`` of two curves and its
        ``prob_above``). None is plain successive halving.
    threshold : float
        A learner outside the top third whose path costs the typical seconds
        goes on when its probability is at least this (see above). ``0``
        keeps every learner: training every one on N.
    n_validation : int
        Validation rows each score below N was measured on (the noise of a
        score, a feature of the model).
    tol : float or callable, default=0.005
        The gap that counts as a loss; or a function of the leader's score
        at the rung returning it.
    eta : int, default=3
        Halving's factor: the top ``ceil(n / eta)`` always go on.
    noise : float or callable, default=0.0
        Standard error of one validation score at N, for the race of the folds.
    race : bool, default=False
        Race the folds at N, as :class:`~sksel.daub.DAUBPolicy` does.
    cost : {"rows", "time"}, default="rows"
        What a learner's next rungs cost: their rows (the decisions depend on
        the scores only), or the seconds its evaluations so far predict
        (``fit_time`` told; reruns may then drop other learners).
    folds_ratio : float, default=1.0
        Folds an evaluation at N runs on over those of a rung below it.
    first_cut : bool or None, default=None
        Whether the first rung drops learners where two or more rungs lie
        below N. None: for the model of accuracies (its ``kind``), not for
        R²'s, as calibrated (see the User Guide's :ref:`daub_risk`).
    predicted_costs : list of (a, b, e) or None, default=None
        Each learner's predicted seconds of an evaluation on ``rows`` rows,
        ``a + b * rows ** e`` (:func:`~sksel.daub.learner_cost.predicted_cost`).
        Each learner is then trained only on the rungs of its cheapest plan
        (:attr:`rungs_planned_`): the rungs below N, if any, whose expected
        seconds with N's are the least (a rung keeps a learner with a
        probability that rises with the noise of a score on `n_validation`
        rows, from 0.5 to 0.9; raced folds at N run 0.6 of them), planned
        again after each rung for the learners outside halving's top third
        (kept with probability 0.5); a rung none of the learners alive plans
        is skipped. None trains every learner alive on every rung.

    Attributes
    ----------
    history_, decisions_, best_, fit_times_, folds_used_, sent_to_n_, given_up_
        As :class:`~sksel.daub.DAUBPolicy`'s; a learner sent to N gets its
        try there after the last rung.

    probabilities_ : dict
        ``{(candidate, size): probability}`` of every learner outside the top
        third at a rung where learners were dropped: its probability of
        ending more than `tol` above the leader.

    dropped_ : dict
        ``{candidate: size}``: the rung after which each dropped learner got
        no more rows.

    rungs_planned_ : dict
        ``{candidate: frozenset of rung indices}``: the rungs below N each
        learner is trained on while alive (all of them without
        `predicted_costs`).

    Examples
    --------
    >>> from sksel.daub import RungPolicy
    >>> from sksel.curves.gap_model import shipped_model
    >>> curves = {0: lambda n: 0.9 - 50 / n, 1: lambda n: 0.5 - 50 / n,
    ...           2: lambda n: 0.85 - 10 / n, 3: lambda n: 0.6}
    >>> def run(**options):
    ...     policy = RungPolicy(4, [100, 300, 900], model=shipped_model(), threshold=0.05,
    ...                         n_validation=300, **options)
    ...     while not policy.done:
    ...         for cand, size in policy.ask():
    ...             policy.tell(cand, size, curves[cand](size))
    ...     return policy.best_, policy.dropped_
    >>> run()  # #0, a late bloomer ending half a point above #2, cut on its first point
    (2, {0: 100, 1: 300, 3: 300})
    >>> run(first_cut=False)  # its slope from 100 to 300 rows keeps it
    (0, {1: 300, 3: 300})
    """

    def __init__(self, n_candidates, sizes, *, model, threshold, n_validation, tol=0.005,
                 eta=3, noise=0.0, race=False, cost="rows", folds_ratio=1.0, first_cut=None,
                 predicted_costs=None):
        self.model = model
        self.predicted_costs = predicted_costs
        self.first_cut = (getattr(model, "kind", "accuracy") != "r2" if first_cut is None
                          else first_cut)
        self.threshold = threshold
        self.n_validation = n_validation
        self.eta = eta
        self.cost = cost
        self.folds_ratio = folds_ratio
        self.probabilities_ = {}
        self.dropped_ = {}
        super().__init__(n_candidates, sizes, noise=noise, tol=tol, race=race)
        self._alive_at_rung = list(range(n_candidates))
        self._previous = None
        self.rungs_planned_ = {c: self._planned_rungs(c) for c in range(n_candidates)}
        self._rung = self._next_rung(0)
        self._advance()

    @property
    def size(self):
        """The size of the rung the run is at."""
        return self.sizes[self._rung]

    @property
    def n_sizes(self):
        """Number of rungs, N's included."""
        return len(self.sizes)

    # ------------------------------------------------- the sequential algorithm
    def _use(self, action, outcome):
        self._fold_in(action, outcome)

    def _decide(self):
        """The next learner of this rung to train; the next rung's first once it is decided.

        After the last rung, the tries at N of the learners sent there
        (:attr:`sent_to_n_`); None when none is left.
        """
        while True:
            action = self._next_of_rung()
            if action is not None:
                return action
            if self.size == self.n_total or not self._promote():
                return self._try_at_n()

    def _next_of_rung(self):
        """The first learner alive at this rung whose result the run has not used, or None.

        At N, a learner that failed on some of its folds is trained again
        (DAUB's retry); the learners go in :meth:`_training_order`.
        """
        for candidate in self._training_order(self._alive_here()):
            if self.size not in self._tried[candidate] or (
                    self.size == self.n_total and candidate not in self._finished):
                return candidate, self.size
        return None

    def _training_order(self, alive):
        """`alive` in the order they are trained at this rung: below N, candidate order; at N,
        the best at the largest size below N first (learners sent to N for failing below it
        last). The first at N sets the bar the others' folds are raced against: a strong
        bar ends a weaker learner's evaluation after fewer folds (on a regression table
        whose learners reached N weakest first, every race ran all five folds)."""
        if self.size != self.n_total:
            return alive

        def key(c):
            below = [n for n in self._valid[c] if n < self.n_total]
            return (0, -self._valid[c][max(below)], c) if below else (1, 0.0, c)

        return sorted(alive, key=key)

    def _alive_here(self):
        """The learners of this rung still in the running, in candidate order: at N every
        learner not dropped, below it those planned to be trained on it."""
        return [c for c in self._alive_at_rung if c in self._active
                and (self.size == self.n_total or self._rung in self.rungs_planned_[c])]

    def _promote(self):
        """Decide who goes on from this rung and move to the next; False when nobody does."""
        alive = self._alive_here()
        if not alive:
            return False
        survivors = self._survivors(alive)
        for candidate in alive:
            if candidate not in survivors:
                self.dropped_[candidate] = self.size
                self._active.discard(candidate)
        self._alive_at_rung = sorted(set(self._alive_at_rung).difference(alive) | survivors)
        self._replan(survivors, sorted((c for c in alive if self.size in self._valid[c]),
                                       key=lambda c: (-self._valid[c][self.size], c)))
        to_n = len(survivors) == 1 or self._no_drop_expected(alive)
        self._previous = self.size
        self._rung = self.n_sizes - 1 if to_n else self._next_rung(self._rung + 1)
        return True

    def _next_rung(self, start):
        """The index of the first rung from `start` that a learner alive is planned to be
        trained on (:attr:`rungs_planned_`); N's where none is."""
        return next((k for k in range(start, self.n_sizes - 1)
                     if any(k in self.rungs_planned_[c] for c in self._alive_at_rung)),
                    self.n_sizes - 1)

    def _following(self):
        """The size the learners alive are trained on after this rung, as planned."""
        return self.sizes[self._next_rung(min(self._rung + 1, self.n_sizes - 1))]

    def _planned_rungs(self, candidate, start=0, kept=None):
        """The rungs below N, as indices from `start`, that `candidate` is trained on: those
        of the plan its predicted costs expect to cost least (:meth:`_plan_seconds`), each
        rung keeping it with probability `kept` (:meth:`_kept_before_scores` for None);
        every rung without `predicted_costs`."""
        kept = self._kept_before_scores() if kept is None else kept
        below_n = range(start, self.n_sizes - 1)
        if self.predicted_costs is None:
            return frozenset(below_n)
        plans = [[k for i, k in enumerate(below_n) if mask >> i & 1]
                 for mask in range(2 ** len(below_n))]
        cheapest = min(plans, key=lambda plan: (
            self._plan_seconds(candidate, plan, kept), len(plan)))
        return frozenset(cheapest)

    def _kept_before_scores(self):
        """The plan's chance that a rung keeps a learner not scored yet: 0.5 plus ten times
        the largest standard error of a score in [0, 1] on the rungs' validation rows
        (``0.5 / sqrt(n_validation)``), within [0.5, 0.9]. Where the scores are noisy
        (a few hundred validation rows), the gap model keeps most learners and a rung
        rarely pays; on thousands, rungs drop about half."""
        noise = 0.5 / math.sqrt(max(self.n_validation, 1))
        return float(np.clip(0.5 + 10 * noise, _KEPT_LEAST, _KEPT_MOST))

    def _replan(self, survivors, ranked):
        """Plan again the rungs after this one of each of `survivors` outside halving's top
        third of `ranked` (best first): a rung keeps such a learner with probability 0.5,
        so its rungs pay more. A learner spared on its first point keeps its plan (its
        place says little yet)."""
        if self.predicted_costs is None:
            return
        ahead = set(self._kept_by_rank(ranked, ranked))
        for c in survivors:
            if c in ranked and c not in ahead and not self._on_first_point(c):
                self.rungs_planned_[c] = self._planned_rungs(c, self._rung + 1, _KEPT_BEHIND)

    def _plan_seconds(self, candidate, plan, kept):
        """The seconds `candidate` is expected to cost if trained on the rungs of `plan`
        (indices below N's) and then on N.

        Its predicted seconds at a size (``predicted_costs``, an evaluation's
        bookkeeping added), at N on ``folds_ratio`` times the folds, a share of
        them where the folds are raced, each times the chance that the
        learner is still alive: a rung keeps it with probability `kept`,
        except its first where that keeps its learners
        (:meth:`_spares_first_points`).
        """
        alive, seconds = 1.0, 0.0
        for i, k in enumerate(plan):
            seconds += alive * self._predicted_seconds(candidate, self.sizes[k])
            if not (i == 0 and self._on_first_point(candidate, k)):
                alive *= kept
        raced = _RACED_SHARE if self.race and self.folds_ratio > 1 else 1.0
        return seconds + alive * raced * self.folds_ratio * self._predicted_seconds(
            candidate, self.n_total)

    def _predicted_seconds(self, candidate, size):
        """`candidate`'s predicted seconds of one evaluation on `size` rows."""
        return predict_cost(self.predicted_costs[candidate], size) + _EVALUATION_SECONDS

    def _no_drop_expected(self, alive):
        """Whether the rungs left below N are not expected to drop any of `alive`: at a first
        rung that drops none (no `first_cut`), every learner would go on even on its one point
        of curve. The next rungs would then cost rows and drop nobody; the learners go to N,
        where the folds are raced."""
        return (self._keeps_every_learner()
                and self._survivors(alive, first_cut=True, record=False) == set(alive))

    def _survivors(self, alive, first_cut=False, record=True):
        """The learners of `alive` that go on from this rung (see the class docstring); with
        `first_cut`, even at a first rung that drops none; with `record`, their
        probabilities go to ``probabilities_``."""
        scored = [c for c in alive if self.size in self._valid[c]]
        if not scored or (self._keeps_every_learner() and not first_cut):
            return set(alive)
        ranked = sorted(scored, key=lambda c: (-self._valid[c][self.size], c))
        keep = set(self._kept_by_rank(ranked, alive)) | set(alive).difference(scored)
        if not first_cut:
            keep.update(c for c in scored if self._on_first_point(c))
        others = [c for c in ranked if c not in keep]
        if self.model is None or not others:
            return keep
        features = [self._features(c, ranked[0]) for c in others]
        thresholds = self._thresholds(others)
        tol = self._tol_at(self._valid[ranked[0]][self.size])
        for c, p in zip(others, self.model.prob_above(features, tol)):
            if record:
                self.probabilities_[c, self.size] = float(p)
            if p >= thresholds[c]:
                keep.add(c)
        return keep

    def _keeps_every_learner(self):
        """Whether this rung drops no learner: each learner here was scored on none of the
        rungs below it, where another rung lies below N after it, without `first_cut` (its
        next rung gives its curve a slope)."""
        return all(self._on_first_point(c) for c in self._alive_here())

    def _on_first_point(self, candidate, k=None):
        """Whether `candidate` is not to be dropped on the score of rung `k` (this one for
        None) alone: without `first_cut`, where it is the first rung it is scored on and
        another rung lies below N after it."""
        k = self._rung if k is None else k
        return (self._spares_first_points(k)
                and not any(n < self.sizes[k] for n in self._valid[candidate]))

    def _spares_first_points(self, k):
        """Whether rung `k` keeps the learners it gives their first point (no `first_cut`,
        and another rung below N after it)."""
        return not self.first_cut and self.model is not None and k < self.n_sizes - 2

    def _kept_by_rank(self, ranked, alive):
        """The learners of `ranked` (best first) that go on whatever their probability:
        halving's best ``ceil(n / eta)`` of the `n` alive."""
        return ranked[:math.ceil(len(alive) / self.eta)]

    def _thresholds(self, others):
        """``{candidate: threshold}``: `threshold` scaled by the seconds it would still cost.

        Times ``(seconds / typical) ** 0.5`` within [1/2, 2], ``typical`` the
        geometric mean of `others`' seconds left (:meth:`_seconds_left`); at
        most 0.5.
        """
        seconds = self._seconds_left(others)
        typical = math.exp(np.mean([math.log(seconds[c]) for c in others]))
        return {c: min(0.5, self.threshold * np.clip((seconds[c] / typical) ** _COST_WEIGHT,
                                                     1 / _MAX_SCALE, _MAX_SCALE))
                for c in others}

    def _seconds_left(self, candidates):
        """``{candidate: cost}`` of each one's evaluations on the next rungs, N's folds included.

        In rows, or with ``cost="time"`` in the seconds its timed rungs
        predict (:func:`~sksel.daub.cost.fit_cost`; the median exponent of
        the learners timed on two rungs or more where it has one only).
        """
        following = self.sizes[self._rung + 1:]
        weights = [self.folds_ratio if n == self.n_total else 1.0 for n in following]
        costs = self._cost_models(candidates)
        return {c: max(sum(w * predict_cost(costs[c], n) for w, n in zip(weights, following)),
                       1e-12) for c in candidates}

    def _cost_models(self, candidates):
        """``{candidate: (a, b, e)}`` of :func:`~sksel.daub.cost.fit_cost`; rows: ``(0, 1, 1)``."""
        if self.cost == "rows":
            return dict.fromkeys(candidates, (0.0, 1.0, 1.0))
        timed = {c: self._timed_sizes(c, self._tried[c]) for c in range(self.n_candidates)}
        exponents = [self._fitted_cost(c, sizes, 1.0)[2]
                     for c, sizes in timed.items() if len(sizes) >= 2]
        exponent = float(np.median(exponents)) if exponents else 1.0
        return {c: self._fitted_cost(c, timed[c], exponent) if timed[c] else (0.0, 1.0, exponent)
                for c in candidates}

    def _features(self, candidate, leader):
        """The gap model's features of `candidate` against `leader` at the rungs so far."""
        sizes = [n for n in self.sizes[:self._rung + 1]
                 if n in self._valid[candidate] and n in self._valid[leader]][-2:]
        return self.model.features([self._valid[candidate][n] for n in sizes],
                                   [self._valid[leader][n] for n in sizes],
                                   sizes, self.n_total, self.n_validation)

    def likely_selections(self):
        """At N's rung, the leader at N, then the learners not scored at N yet, the best at
        the largest size below N first (the best below N is not always the best at N:
        diamonds, histogram gradient boosting below, extra trees at N). At the rung below
        N, the learners a worker already trains at N (:meth:`_guess`), the best placed
        first. None before (a refit there would more likely be wasted than needed)."""
        if self.size != self.n_total:
            if self._previous is None or self._following() != self.n_total:
                return []
            alive = self._alive_here()
            places = self._places(alive)
            at_n = [c for c in alive if not self._startable(c, self.n_total)]
            return [(c, self.n_total) for c in sorted(at_n, key=lambda c: (places[c], c))]
        below = {c: self._valid[c][max(self._valid[c])] for c in self._alive_here()
                 if self._valid[c]}
        return super().likely_selections() + [
            (c, self.n_total) for c in sorted(below, key=lambda c: (-below[c], c))]

    def _speculate(self):
        """Only what the run needs whatever comes (:meth:`_sure`); guesses go to workers
        that would otherwise idle (:meth:`_guess`).

        A guessed next rung of the best learners told so far, handed out to
        any worker, was wasted where the rung then dropped them: on 32
        sleeping learners and 8 loky workers (``bench_parallel --searches
        daub``, 2026-11-29) 0.16 of the workers' time went to such guesses,
        for a wall of 6.80 s, against none and 6.38 s without them.
        """
        return self._sure()

    def _guess(self):
        """For a worker that would otherwise idle: the next size of the learner likeliest to
        need it (:meth:`_next_size_guess`), else N's folds of the learner on the critical
        path (:meth:`_critical_guess`); None where neither is."""
        guess = self._next_size_guess()
        return guess if guess is not None else self._critical_guess()

    def _critical_guess(self):
        """N's evaluation of the learner alive, not started there, whose fit on N is
        predicted to be the longest (``predicted_costs``); None without them.

        With more workers than the rung's fits, the wall is set by the learner
        whose path ends last: the dear learner (an MLP on 20,000 rows) kept
        alive rung after rung would otherwise start its fits on N only after
        the last rung, each as long as the rest of the search. Started early
        on a worker that would idle, its folds run beside the rungs. Where the
        rule then drops it, its folds not yet handed to joblib are not run
        (:meth:`enough_folds`) and those that ran were wasted: on a user's ten
        learners at 32 workers, a random forest started so and dropped on its
        first rung cost 44 recorded seconds, a quarter of the fits, for a wall
        0.90 of the one without these guesses (``bench_scaling``, 2026-12-02).
        """
        if self.predicted_costs is None or self.size == self.n_total:
            return None
        alive = [c for c in self._alive_at_rung if c in self._active
                 and self._startable(c, self.n_total)]
        if not alive:
            return None
        return max(alive, key=lambda c: (self._predicted_seconds(c, self.n_total), -c)), \
            self.n_total

    def _next_size_guess(self):
        """The next size of the learner likeliest to need it, before this rung is decided;
        None where none is likely.

        A learner given this rung's size and none above is likely to need the
        next where its place (:meth:`_places`) is within halving's top ``ceil(n
        / eta)`` of the `n` learners alive; the best placed first. This rung's
        slowest fit then no longer delays the next rung of the learners ahead:
        many workers otherwise wait for the rungs one after the other. The run
        uses the result only where it reaches that action, so the decisions
        are the one-worker run's; where this rung drops the learner, the fits
        were wasted.
        """
        if self._previous is None or self.size == self.n_total:
            return None
        alive = self._alive_here()
        share = math.ceil(len(alive) / self.eta)
        places = self._places(alive)
        likely = sorted((places[c], c) for c in alive
                        if c not in self.sent_to_n_ and self._given_this_rung_only(c))
        if not likely or likely[0][0] >= share:
            return None
        return likely[0][1], self._following()

    def _places(self, alive):
        """``{candidate: place}`` of `alive`: how many learners of `alive` are ahead of each
        as far as known, scored above it at this rung, or, not scored here (one of the
        two), at the rung below, where every learner alive was scored (ties: the lower
        index first). Every score is read once."""
        here = {c: self._score_at(c, self.size) for c in alive}
        below = {c: self._score_at(c, self._previous) for c in alive}

        def key(c, scores):
            return (-math.inf if scores[c] is None else scores[c]), -c

        def ahead(d, c):
            scores = here if here[d] is not None and here[c] is not None else below
            return key(d, scores) > key(c, scores)

        return {c: sum(ahead(d, c) for d in alive if d != c) for c in alive}

    def _given_this_rung_only(self, candidate):
        """Whether `candidate` was given this rung's size (tried, running or told) and none
        above."""
        return [n for n in self.sizes[self._rung:]
                if not self._startable(candidate, n)] == [self.size]

    def _score_at(self, candidate, size):
        """`candidate`'s score at `size`, used or told, or None (failed or not told)."""
        if size in self._valid[candidate]:
            return self._valid[candidate][size]
        outcome = self.waiting.get((candidate, size))
        if outcome is None or outcome.failed:
            return None
        return outcome.score

    def _sure(self):
        """An action the run needs whatever comes: a learner of this rung not started yet;
        then the next rung of a learner this rung keeps whatever the others score
        (:meth:`_surely_kept`), before the rung is decided, where that rung is below N (at N
        the folds of the next decision are raced, and an evaluation started early would run
        every fold: on diamonds at 64 workers, 66.8 s of fits against 38.8 s)."""
        action = next(((c, self.size) for c in self._training_order(self._alive_here())
                       if self._startable(c, self.size)), None)
        following = self._following()
        if action is not None or following == self.n_total:
            return action
        return next(((c, following) for c in self._surely_kept()
                     if self._startable(c, following)), None)

    def _surely_kept(self):
        """The learners that go on from this rung whatever the results not told yet, best
        first; none unless two or more do (a learner left alone goes to N at once).

        Every learner with a score told (used or waiting) at a rung where none
        is dropped; else each in halving's top ``ceil(n / eta)`` however the
        learners not told end: for the ``j``-th best told (``j`` from 0),
        ``j + m < ceil((n - o + m) / eta)`` for every ``m`` of the ``o``
        learners not told that may score above it, the others failing on every
        fold (out of the rung's ``n``). The rung's rule keeps them, so their
        next rung can start before the others' results: the decisions, and the
        results, stay those of one worker.
        """
        alive = self._alive_here()
        seen = {c: self._score_at(c, self.size) for c in alive}
        told = sorted((c for c in alive if seen[c] is not None), key=lambda c: (-seen[c], c))
        if self._keeps_every_learner():
            kept = told
        else:
            n_open = len(alive) - len(told)
            kept = [c for j, c in enumerate(told)
                    if all(j + m < math.ceil((len(told) + m) / self.eta)
                           for m in range(n_open + 1))]
        return kept if len(kept) >= 2 else []

    def _startable(self, candidate, size):
        """Whether ``(candidate, size)`` is neither tried, running nor told."""
        action = candidate, size
        return (size not in self._tried[candidate] and action not in self.pending
                and action not in self.waiting)
