"""DAUB's policy: which learner gets the next, larger subsample (see :mod:`sksel.daub`).

The bound each learner is ranked by is computed in :mod:`sksel.daub.bound`.
"""

import math
from itertools import islice

import numpy as np

from .._core.policy import SequentialPolicy
from .bound import projected_bound, widening_ratio

#: One-sided 1% quantile of the normal law: how far a learner trails in a race of the folds.
_RACE_Z = 2.33


def daub_sizes(n_total, b, r):
    """Allocation sizes of DAUB: multiples of `b` growing by about `r`, ending at `n_total`.

    ``n_0 = b`` and ``n_{i+1} = min(n_total, b * ceil(r * n_i / b))``, as in the
    paper, except that a size less than ``sqrt(r)`` times below `n_total` is
    skipped: a step from 12,160 to 12,172 rows costs a fit and tells nothing.

    Parameters
    ----------
    n_total : int
        Number of training rows, the last size.
    b : int
        Granularity, the first size.
    r : float
        Geometric ratio, > 1.

    Returns
    -------
    sizes : list of int
        Strictly increasing sizes, the last one `n_total`.

    Examples
    --------
    >>> from sksel.daub import daub_sizes
    >>> daub_sizes(5000, b=500, r=1.5)
    [500, 1000, 1500, 2500, 4000, 5000]
    """
    sizes = [min(b, n_total)]
    while sizes[-1] < n_total:
        # Rounded first: 1.1 * 170 is 187.00000000000003 in floating point.
        sizes.append(min(n_total, b * math.ceil(round(r * sizes[-1] / b, 9))))
    if len(sizes) > 2 and n_total < math.sqrt(r) * sizes[-2]:
        del sizes[-2]
    return sizes


class DAUBPolicy(SequentialPolicy):
    """Which learner gets how many training rows next, by DAUB's upper bounds.

    The policy knows nothing of estimators: it hands out ``(candidate, size)``
    actions with :meth:`ask` and learns their scores through :meth:`tell`.
    Scores are "higher is better".

    Parameters
    ----------
    n_candidates : int
        Number of candidate learners.

    sizes : list of int
        Increasing training sizes; the last one is the full training set, N.

    l : int, default=3
        Number of most recent points of a learning curve whose least-squares
        slope projects the curve to N.

    bound : {"train", "slope", "prior"}, default="train"
        ``"train"`` is the paper's bound, the smaller of the training score and
        the slope projection; ``"slope"`` uses the projection alone (the
        training score is not always an upper bound: strongly regularised
        learners can score higher on validation data than on their training
        subsample). ``"prior"`` is the larger of the slope projection and
        the rise that real learning curves with the same prefix reach at a
        high quantile (:mod:`sksel.daub.curve_prior`), for scores in [0, 1]
        (`max_score` 1); for other scores it is ``"slope"``.

    projection : {"linear", "log", "auto"}, default="linear"
        How the slope projects a learning curve to N. ``"linear"`` is the
        paper's: a straight line in the number of rows, an upper bound for any
        concave curve. ``"log"`` draws the line in log(rows): an upper bound
        for curves that are concave in log(rows), which power laws
        (``a - c * n ** -alpha``) are, and a much tighter one; a learner whose
        curve steepens late on a log scale can be underrated. ``"auto"`` uses
        ``"log"`` for a curve that has shown diminishing returns so far (at
        least three points, and no step gaining more per doubling of the rows
        than the step before it, up to twice `noise`) and ``"linear"`` for the
        others: curves still flat at chance level, or accelerating.

    max_score : float, default=inf
        Best score possible (1 for accuracy): bounds are capped there.

    noise : float or callable, default=0.0
        Standard error of one validation score, or a function of the score
        returning it (as :func:`accuracy_noise` does). The slope of a learning
        curve is raised by its own standard error under that noise (of the
        curve's latest score), ``noise / sqrt(sum((x - mean(x)) ** 2))``,
        before projecting: a curve that looks flat only because of noise on
        small subsamples keeps a bound above its score. ``0`` is the paper's
        bound.

    stop : {"first", "strict"}, default="first"
        ``"first"`` is the paper's rule: stop when the first learner reaches N.
        ``"strict"`` stops only when a learner trained on N scores at least every
        other learner's upper bound, so a learner that already showed a better
        score on less data is not passed over; it costs more fits.

    tol : float, default=0.0
        Bounds within `tol` of the highest one count as tied; among tied
        learners the one whose next step is the smallest subsample gets the
        data. ``0`` is the paper's argmax. With ``stop="strict"``, a learner
        whose bound is within `tol` of the best score at N gets no more
        data either: the selected learner is then within `tol` of the best
        as far as the bounds know.

    warm_up : int, default=2
        Every candidate is first trained on the `warm_up` smallest sizes, in
        candidate order. The paper uses 2, the fewest a slope needs.

    jump : float, default=1.0
        A learner whose next size is at least ``N / jump`` gets N instead:
        the last steps of a ladder cost nearly as much as N and a learner that
        climbs them usually ends at N anyway. ``1`` (never) is the paper's.
        With ``cost="time"`` the ratio is one of seconds: N when its fit is
        predicted to cost at most `jump` times the next size's.

    cost : {"rows", "time"}, default="rows"
        What a step costs. ``"rows"`` (the paper's) counts training rows:
        the decisions depend on the scores alone and are the same on every
        run. ``"time"`` also reads the ``fit_time`` told: the seconds of a
        learner's two latest sizes below N give the exponent ``p`` of its
        cost in rows (``seconds ~ rows ** p``, ``p`` in [0, 2]), which
        predicts the seconds of its next sizes. A learner whose cost is flat
        enough that N is predicted to cost at most `jump` times its next
        size goes to N at once, skipping the rest of its warm-up, and ties
        within `tol` go to the learner whose next step is predicted to take
        the fewest seconds. Decisions then depend on measured times: reruns
        may take other steps.

    race : bool, default=False
        Race the cross-validation folds at N: a learner's folds at N are
        compared, as their scores come in, with the same folds of the best
        learner already scored on all of them, and once it trails them by
        more than `tol` beyond what fold-to-fold noise explains (a one-sided
        paired test at 1%, see :meth:`enough_folds`) its other folds are
        not needed: it gets no more data and is not selected. The selected
        learner is always scored on every fold. Needs the ``fold_scores``
        of each evaluation at N in :meth:`tell`.

    budget : float or None, default=None
        Cap on what one learner's subsamples cost: a learner whose subsamples
        so far, with its next one, would cost more than ``budget - 1`` times
        its cost at N goes to N instead (and skips the rest of its warm-up).
        So no learner costs more than `budget` times its fit at N, and the
        search no more than `budget` times training every learner once, as
        far as the costs are predicted right. Costs are rows, or with
        ``cost="time"`` seconds (the exponent of :attr:`fit_times_`'s two
        latest sizes; while fewer are timed, the median exponent of the
        learners with one, from two sizes or from a size and N, or linear in
        rows before any has, so the first learners whose cost grows more
        slowly than their rows can overshoot on their first sizes). A learner
        whose warm-up the cap cuts goes to N at once. None (the paper's): no
        cap.

    folds_ratio : float, default=1.0
        Folds an evaluation at N runs on over those a smaller one runs on
        (5 with ``cv=5`` and learning curves drawn on one fold): what N
        costs in units of a subsample's folds, for `budget`.

    Attributes
    ----------
    history_ : list of tuple
        Every action handed out, ``(candidate, size)``, in order.

    decisions_ : list of tuple
        The actions whose results made the decisions, in the order they were
        used: the run of the sequential algorithm. With ``ask(1)`` it equals
        :attr:`history_`; with more workers, extra actions are speculative and
        only those the sequential run asks for are used, so the selection does
        not depend on the number of workers or on the order results come in.

    best_ : int or None
        The selected candidate, once :attr:`done`: the best score among the
        candidates trained on the largest size. ``None`` when every candidate
        failed.

    widening_ : float
        How much this dataset's curves rise faster than the bounds expect,
        at least 1. When a learner reaches N and scores, less its noise,
        above the bound its earlier points gave, every bound's rise above its
        curve's latest score is multiplied by the ratio of the rise seen to
        the rise bounded (the largest ratio so far) before anyone else is
        dropped. Always 1 with ``bound="train"``, the paper's.

    fit_times_ : dict
        The ``fit_time`` of every action used so far, ``{(candidate, size):
        seconds}``; with ``cost="time"``, what the decisions read.

    folds_used_ : dict
        ``{(candidate, N): number of folds}`` of the learners whose race at N
        ended before their last fold (``race=True``): their score at N is the
        mean over those first folds.

    Notes
    -----
    A failed evaluation (``failed=True`` or a non-finite score) on every
    fold it ran (every ``fold_scores`` NaN, or no ``fold_scores`` told) gives
    the candidate up: a fit that fails on every fold mostly fails again, on
    more rows too. One that failed on some of its folds only is, below N, a
    hole in the learning curve: the candidate keeps its place and its next
    step is the next size; at N it is retried once, and the candidate is
    given up when it fails at N twice. A candidate told ``give_up=True`` is
    given up at once.

    Examples
    --------
    >>> from sksel.daub import DAUBPolicy
    >>> curves = {0: lambda n: 0.9 - 50 / n, 1: lambda n: 0.8 - 50 / n}
    >>> policy = DAUBPolicy(n_candidates=2, sizes=[100, 200, 400, 800])
    >>> while not policy.done:
    ...     for cand, size in policy.ask():
    ...         policy.tell(cand, size, curves[cand](size))
    >>> policy.best_, policy.history_
    (0, [(0, 100), (0, 200), (1, 100), (1, 200), (0, 400), (1, 400), (0, 800)])
    """

    races_folds = True

    def __init__(self, n_candidates, sizes, *, l=3, bound="train", projection="linear",
                 max_score=np.inf, noise=0.0, stop="first", tol=0.0, warm_up=2, jump=1.0,
                 cost="rows", race=False, budget=None, folds_ratio=1.0):
        self.n_candidates = n_candidates
        self.sizes = list(sizes)
        self.l = l
        self.bound = bound
        self.projection = projection
        self.max_score = max_score
        self.noise = noise
        self.stop = stop
        self.tol = tol
        self.warm_up = warm_up
        self.jump = jump
        self.cost = cost
        self.race = race
        self.budget = budget
        self.folds_ratio = folds_ratio
        self.widening_ = 1.0
        self.fit_times_ = {}
        self.folds_used_ = {}
        super().__init__()
        self._valid = [{} for _ in range(n_candidates)]
        self._train = [{} for _ in range(n_candidates)]
        self._tried = [set() for _ in range(n_candidates)]
        self._failures_at_n = [0] * n_candidates
        self._failed = set()
        self._fold_scores = {}
        self._bounds = {}
        self._bounds_at_use = {}
        self._active = set(range(n_candidates))
        self._finished = set()
        self._warm_up = [(c, n) for c in range(n_candidates) for n in self.sizes[:warm_up]]
        self._warm_up_next = 0
        self._advance()

    @property
    def n_total(self):
        """The largest size, N."""
        return self.sizes[-1]

    # ------------------------------------------------------------------ ask/tell
    def ask(self, n_actions=1, speculative=True):
        """Return up to `n_actions` actions ``(candidate, size)`` to run now.

        The first action is the sequential algorithm's next decision, unless it
        is already running; the others are speculative: warm-up actions, then
        the next steps of the learners with the highest bounds; with
        ``speculative=False``, only the warm-up actions the run will use
        whatever the results. An empty list means nothing to start until a
        pending result is told, or, when :attr:`done`, that the search is
        over. After the warm-up (the `warm_up` first sizes of every
        candidate, all independent), a candidate never has two pending
        actions.
        """
        return super().ask(n_actions, speculative)

    def tell(self, candidate, resource, score, train_score=None, fit_time=None, failed=False,
             give_up=False, fold_scores=None):
        """Record the outcome of the action ``(candidate, resource)``.

        Parameters
        ----------
        candidate, resource : int
            The action, as returned by :meth:`ask`.
        score : float
            Validation score at `resource` (rows).
        train_score : float, default=None
            Score on the training subsample (needed by ``bound="train"``).
        fit_time : float, default=None
            Seconds the fit took (read with ``cost="time"``; the same number
            of folds at every size below N).
        failed : bool, default=False
            The fit failed (see Notes).
        give_up : bool, default=False
            The candidate cannot go on (its worker died twice): it gets no
            more data.
        fold_scores : list of float, default=None
            Validation score of each fold run, in fold order, NaN for a fold
            whose fit failed (read at N with ``race=True``; fewer than all
            folds when :meth:`enough_folds` ended the race; and where the
            evaluation failed, to tell whether every fold did: see Notes).
        """
        super().tell(candidate, resource, score, train_score, fit_time, failed, give_up,
                     fold_scores)

    def needs_train_score(self, resource):
        """Whether the bound reads the training score at `resource`: ``bound="train"`` below N."""
        return self.bound == "train" and resource < self.n_total

    def describe(self, candidate, resource):
        """``{"bound": ...}``: the bound a progress line of ``(candidate, resource)`` shows.

        :meth:`bound_at`, ``"none"`` where it is `max_score` (the curve sets
        no bound below the best possible score yet), or ``"pending"`` while
        the run has not used the result.
        """
        bound = self.bound_at(candidate, resource)
        if bound is None:
            return {"bound": "pending"}
        return {"bound": "none" if bound >= self.max_score else float(bound)}

    def enough_folds(self, candidate, resource, fold_scores):
        """Whether the first folds of ``(candidate, resource)``, scoring `fold_scores`, end a race.

        With ``race=True``, a learner at N stops after ``j`` folds, fewer than
        all, when its paired differences ``d`` with the best learner scored on
        every fold (the same ``j`` folds) have a mean above
        ``tol + 2.33 * se``: ``se`` is ``sqrt(2) * noise / sqrt(j)`` (the
        noise of one fold's score), or the standard error of the differences
        themselves from three folds on if larger. Only the sequential run's
        next decision is raced, against the best learner of the results it
        has used, so a race ends alike for any number of workers; a
        speculative evaluation runs every fold and the run uses its first
        folds only.
        """
        return ((candidate, resource) == self.next_decision and resource == self.n_total
                and self._race_length(fold_scores) is not None)

    @property
    def best_(self):
        """The selected candidate (see the class attributes)."""
        scored = [c for c in range(self.n_candidates) if self._valid[c]]
        if not scored:
            return None

        def last_score(c):
            size = max(self._valid[c])
            return size, self._valid[c][size]

        return max(scored, key=last_score)

    def upper_bound(self, candidate):
        """Projected score of `candidate` at N (paper's ``UpdateBound``).

        Computed from the results used so far (:attr:`decisions_`): a result
        told is used once the sequential run reaches it.
        """
        if candidate not in self._bounds:
            self._bounds[candidate] = self._projected(self._valid[candidate],
                                                      self._train[candidate])
        return self._bounds[candidate]

    def bound_at(self, candidate, size):
        """The bound of `candidate` once the sequential run used its result at `size`.

        What :meth:`upper_bound` gave right after that result was used, the
        widening of every bound by then included: the bound a progress line
        of that evaluation shows, the same for any number of workers. None
        while the run has not used it (a result that came in ahead of its
        turn, or one still running).
        """
        return self._bounds_at_use.get((candidate, size))

    def _projected(self, curve, train):
        """The bound at N of a learning curve ``{size: score}``, training scores `train`."""
        return projected_bound(curve, train, self.n_total, l=self.l, bound=self.bound,
                               projection=self.projection, max_score=self.max_score,
                               noise=self._noise, widening=self.widening_)

    def _noise(self, score):
        """Standard error of a validation score near `score`."""
        return self.noise(score) if callable(self.noise) else self.noise

    # ------------------------------------------------- the sequential algorithm
    def _use(self, action, outcome):
        self._fold_in(action, outcome)
        self._bounds_at_use[action] = self.upper_bound(action[0])

    def _fold_in(self, action, outcome):
        """Update the curves, the widening and the learners left with the used `outcome`."""
        candidate, size = action
        score, train_score, fit_time, failed, give_up, fold_scores = outcome
        self._bounds.pop(candidate, None)
        self._tried[candidate].add(size)
        if fit_time is not None and np.isfinite(fit_time):
            self.fit_times_[action] = float(fit_time)
        if size == self.n_total and not failed and self._raced_out(action, fold_scores):
            return
        if size == self.n_total and not failed and self.bound != "train":
            self._check_bound(candidate, float(score))
        if failed:
            if size == self.n_total:
                self._failures_at_n[candidate] += 1
            if (give_up or _every_fold_failed(fold_scores)
                    or self._failures_at_n[candidate] >= 2):
                self._failed.add(candidate)
                self._active.discard(candidate)
            return
        self._valid[candidate][size] = float(score)
        if size == self.n_total:
            self._active.discard(candidate)
            self._finished.add(candidate)
            if fold_scores is not None:
                self._fold_scores[candidate] = np.asarray(fold_scores, dtype=float)
        if train_score is not None and np.isfinite(train_score):
            self._train[candidate][size] = float(train_score)

    def _raced_out(self, action, fold_scores):
        """Whether the race of `action` at N ends before its last fold; if so, drop its learner."""
        length = self._race_length(fold_scores) if fold_scores is not None else None
        if length is None:
            return False
        self.folds_used_[action] = length
        self._active.discard(action[0])
        return True

    def _race_length(self, fold_scores):
        """The number of first folds after which `fold_scores` trail the bar (see `enough_folds`).

        None when they never do, or without a bar: a learner scored on every
        fold at N, the best of them (ties: the first).
        """
        if not self.race:
            return None
        scored = [c for c in sorted(self._finished) if c in self._fold_scores]
        if not scored:
            return None
        bar = self._fold_scores[max(scored, key=lambda c: self._valid[c][self.n_total])]
        scores = np.asarray(fold_scores, dtype=float)
        for j in range(1, min(len(scores), len(bar) - 1) + 1):
            gaps = bar[:j] - scores[:j]
            se = math.sqrt(2) * self._noise(scores[:j].mean()) / math.sqrt(j)
            if j >= 3:
                se = max(se, gaps.std(ddof=1) / math.sqrt(j))
            if se > 0 and gaps.mean() - self.tol > _RACE_Z * se:
                return j
        return None

    def _check_bound(self, candidate, score):
        """Widen every bound if `candidate`'s `score` at N beat the bound its curve gave."""
        curve = self._valid[candidate]
        ratio = widening_ratio(curve, self._projected(curve, self._train[candidate]), score,
                               self._noise)
        if ratio is not None:
            self.widening_ *= ratio
            self._bounds.clear()

    def _decide(self):
        """The paper's next step given the results used so far; None when stopping."""
        warm_up = self._warm_up_action()
        if warm_up is not None:
            return warm_up
        alive = self._alive()
        if not alive or self._stopped(alive):
            return None
        bounds = {c: self.upper_bound(c) for c in alive}
        top = max(bounds.values())
        tied = [c for c in alive if bounds[c] >= top - self.tol]
        costs = self._next_costs(tied)
        chosen = min(tied, key=lambda c: (costs[c], -bounds[c], c))
        return chosen, self._next_size(chosen)

    def _stopped(self, alive):
        if not self._finished:
            return False
        if self.stop == "first":
            return True
        best = max(self._valid[c][self.n_total] for c in self._finished)
        return all(best >= self.upper_bound(c) - self.tol for c in alive)

    def _warm_up_action(self):
        """The first warm-up action (`warm_up` first sizes of every candidate) not yet used.

        A learner whose warm-up `budget` cuts goes to N there and then: it
        would go there anyway, having no bound, and its cost at N tells the
        learners after it how costs grow with the rows on this dataset.
        """
        while self._warm_up_next < len(self._warm_up):
            action = self._warm_up[self._warm_up_next]
            if self._needs_warm_up(action):
                return action
            if self._untried(*action) and self._over_budget(*action):
                return action[0], self.n_total
            self._warm_up_next += 1
        return None

    def _untried(self, candidate, size):
        """Whether `candidate` is still in the running and was never given `size`."""
        return candidate in self._active and size not in self._tried[candidate]

    def _needs_warm_up(self, action):
        candidate, size = action
        if not self._untried(candidate, size) or self._over_budget(candidate, size):
            return False
        # With cost="time", a learner whose cost is flat goes to N without it.
        return (self._cost_exponent(candidate) is None
                or self._next_size(candidate) != self.n_total)

    def _speculate(self):
        """An action the sequential run will or likely will ask for soon.

        Warm-up actions first; with ``cost="time"``, those past a learner's
        second size only once its cost is known (a flat one skips them), unless
        nothing else is left. When none is left to start, the next step (N
        included) of the free learner with the highest bound.
        """
        upcoming = self._upcoming_warm_up()
        known = [a for a in upcoming if self._warm_up_known(a)]
        if known or upcoming:
            return (known or upcoming)[0]
        busy = {c for c, _ in self.pending}
        free = [c for c in self._alive() if c not in busy]
        for c in sorted(free, key=self.upper_bound, reverse=True):
            action = c, self._next_size(c)
            if action not in self.waiting:
                return action
        return None

    def _sure(self):
        """The first warm-up action not started that the run will need whatever the scores."""
        return next((a for a in self._upcoming_warm_up() if self._warm_up_known(a)), None)

    def _upcoming_warm_up(self):
        """Warm-up actions the run has not reached, needed as far as known, not started."""
        return [a for a in islice(self._warm_up, self._warm_up_next, None)
                if self._needs_warm_up(a) and a not in self.pending and a not in self.waiting]

    def _warm_up_known(self, action):
        """Whether the run will need the warm-up `action` whatever the scores to come."""
        return self.cost != "time" or self._cost_known(*action)

    def _cost_known(self, candidate, size):
        """Whether `candidate`'s cost decides if it needs `size`: a warm-up size to its second."""
        return size <= self.sizes[1] or self._cost_exponent(candidate) is not None

    def _alive(self):
        """Candidates neither given up nor scored at N."""
        return sorted(self._active)

    def _next_size(self, candidate):
        """The next size above the largest tried (N from ``N / jump`` on, or past `budget`).

        N again after one failure at N.
        """
        reached = max(self._tried[candidate], default=0)
        size = next((s for s in self.sizes if s > reached), self.n_total)
        if self._over_budget(candidate, size):
            return self.n_total
        exponent = self._cost_exponent(candidate)
        if exponent is None:
            return self.n_total if size * self.jump >= self.n_total else size
        return self.n_total if (self.n_total / size) ** exponent <= self.jump else size

    def _over_budget(self, candidate, size):
        """Whether training `candidate` on `size` too would cost past `budget` (see it)."""
        if self.budget is None or size >= self.n_total:
            return False
        cost = self._cost_function(candidate)
        spent = sum(self.fit_times_.get((candidate, n), cost(n)) if self.cost == "time"
                    else cost(n) for n in self._tried[candidate] if n < self.n_total)
        return spent + cost(size) > (self.budget - 1) * cost(self.n_total) * self.folds_ratio

    def _cost_function(self, candidate):
        """``rows -> predicted cost`` of one fit of `candidate` below N, in its `cost` units.

        In seconds, from its latest timed size and its exponent; until two of
        its sizes are timed, the median exponent of the learners that have
        one (`_exponent_to_n`; 1, linear in rows, before any has).
        """
        if self.cost != "time":
            return float
        timed = self._timed_sizes(candidate, self._tried[candidate])
        exponent = self._cost_exponent(candidate)
        if exponent is None:
            known = [p for p in map(self._exponent_to_n, range(self.n_candidates))
                     if p is not None]
            exponent = float(np.median(known)) if known else 1.0
        if not timed:
            return lambda rows: rows ** exponent
        latest = timed[-1]
        seconds = max(self.fit_times_[candidate, latest], 1e-6)
        return lambda rows: seconds * (rows / latest) ** exponent

    def _exponent_to_n(self, candidate):
        """`_cost_exponent`, or failing it the exponent from its smallest timed size to N.

        Its seconds at N are per fold of a subsample (over `folds_ratio`);
        only a learner scored on every fold at N has them. None otherwise.
        """
        exponent = self._cost_exponent(candidate)
        timed = self._timed_sizes(candidate, self._tried[candidate])
        if exponent is not None or not timed or candidate not in self._finished:
            return exponent
        at_n = (candidate, self.n_total)
        if at_n not in self.fit_times_:
            return None
        small = timed[0]
        ratio = (max(self.fit_times_[at_n] / self.folds_ratio, 1e-6)
                 / max(self.fit_times_[candidate, small], 1e-6))
        return float(np.clip(np.log(ratio) / np.log(self.n_total / small), 0.0, 2.0))

    def _cost_exponent(self, candidate):
        """``p`` of ``seconds ~ rows ** p`` from the two latest timed sizes below N.

        None with ``cost="rows"`` or fewer than two timed sizes.
        """
        if self.cost != "time":
            return None
        timed = self._timed_sizes(candidate, self._valid[candidate])
        if len(timed) < 2:
            return None
        small, large = timed[-2:]
        ratio = (max(self.fit_times_[candidate, large], 1e-6)
                 / max(self.fit_times_[candidate, small], 1e-6))
        return float(np.clip(np.log(ratio) / np.log(large / small), 0.0, 2.0))

    def _next_costs(self, candidates):
        """Cost of each candidate's next step, the tie-break among bounds within `tol`.

        Its rows; with ``cost="time"``, its predicted seconds when every
        candidate has an exponent (`_cost_exponent`). All 0 when ``tol=0``.
        """
        if self.tol == 0:
            return dict.fromkeys(candidates, 0)
        sizes = {c: self._next_size(c) for c in candidates}
        exponents = {c: self._cost_exponent(c) for c in candidates}
        if any(p is None for p in exponents.values()):
            return sizes
        costs = {}
        for c in candidates:
            latest = self._timed_sizes(c, self._tried[c])[-1]
            costs[c] = self.fit_times_[c, latest] * (sizes[c] / latest) ** exponents[c]
        return costs

    def _timed_sizes(self, candidate, sizes):
        """The sizes of `sizes` below N at which `candidate`'s fit time is known, increasing."""
        return sorted(n for n in sizes if n < self.n_total and (candidate, n) in self.fit_times_)


def _every_fold_failed(fold_scores):
    """Whether an evaluation failed on every fold it ran: `fold_scores` None or all NaN."""
    return fold_scores is None or not np.isfinite(np.asarray(fold_scores, dtype=float)).any()
