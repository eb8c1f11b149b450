"""DAUB's policy: which learner gets the next, larger subsample (see :mod:`sksel.daub`).

The bound each learner is ranked by is computed in :mod:`sksel.daub.bound`.
"""

import math
from functools import partial
from itertools import islice

import numpy as np

from .bound import projected_bound, widening_ratio
from .cost import predict_cost
from .ledger import CurvePolicy


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


class DAUBPolicy(CurvePolicy):
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

    dropped_ : dict
        ``{candidate: size}`` once the run has stopped: the learners it left
        in the running, which got no more rows (their bound fell within `tol`
        of the best score on N, or, with ``stop="first"``, a learner got
        there), each with the largest size it got; empty before.

    widening_ : float
        How much this dataset's curves rise faster than the bounds expect,
        at least 1. When a learner reaches N and scores, less its noise,
        above the bound its earlier points gave, every bound's rise above its
        curve's latest score is multiplied by the ratio of the rise seen to
        the rise bounded (the largest ratio so far) before anyone else is
        dropped. Always 1 with ``bound="train"``, the paper's.

    fit_times_ : dict
        The ``fit_time`` of every action used so far, ``{(candidate, size):
        seconds}``, but those that failed on every fold; with
        ``cost="time"``, what the decisions read.

    folds_used_ : dict
        ``{(candidate, N): number of folds}`` of the learners whose race at N
        ended before their last fold (``race=True``): their score at N is the
        mean over those first folds; 1 for a try at N that failed on its first
        fold.

    sent_to_n_ : dict
        ``{candidate: size}`` of the learners whose evaluation at `size`, below
        N, failed on every fold: each gets one try at N once the paper's run
        stops (see Notes).

    given_up_ : set
        The learners given up for their failed evaluations.

    Notes
    -----
    Failed evaluations are handled as :class:`~sksel.daub.ledger.CurvePolicy`
    says: a learner failing on every fold of a subsample skips the sizes
    left below N and, once the paper's run stops, gets one try at N (its
    first fold, the others only where that one works), which may make it the
    best; one failing on some folds keeps its place below N and is retried
    once at N; one failing on every fold at N, or at its try there, is given
    up.

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

    def __init__(self, n_candidates, sizes, *, l=3, bound="train", projection="linear",
                 max_score=np.inf, noise=0.0, stop="first", tol=0.0, warm_up=2, jump=1.0,
                 cost="rows", race=False, budget=None, folds_ratio=1.0):
        self.l = l
        self.bound = bound
        self.projection = projection
        self.max_score = max_score
        self.stop = stop
        self.warm_up = warm_up
        self.jump = jump
        self.cost = cost
        self.budget = budget
        self.folds_ratio = folds_ratio
        self.widening_ = 1.0
        super().__init__(n_candidates, sizes, noise=noise, tol=tol, race=race)
        self._train = [{} for _ in range(n_candidates)]
        self._bounds = {}
        self._bounds_at_use = {}
        self._warm_up = [(c, n) for c in range(n_candidates) for n in self.sizes[:warm_up]]
        self._warm_up_next = 0
        self._advance()

    # ------------------------------------------------------------------ ask/tell
    def ask(self, n_actions=1, speculative=True, idle=False):
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
        return super().ask(n_actions, speculative, idle)

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

    # ------------------------------------------------- the sequential algorithm
    def _use(self, action, outcome):
        self._fold_in(action, outcome)
        self._bounds_at_use[action] = self.upper_bound(action[0])

    def _fold_in(self, action, outcome):
        """Update the curves, the widening and the learners left with the used `outcome`."""
        candidate, size = action
        self._bounds.pop(candidate, None)
        if super()._fold_in(action, outcome) and self.bound != "train":
            self._check_bound(candidate, self._valid[candidate][size])
        _, train_score, *_ = outcome
        if (size in self._valid[candidate] and train_score is not None
                and np.isfinite(train_score)):
            self._train[candidate][size] = float(train_score)

    def _check_bound(self, candidate, score):
        """Widen every bound if `candidate`'s `score` at N beat the bound its curve gave."""
        curve = {n: s for n, s in self._valid[candidate].items() if n < self.n_total}
        ratio = widening_ratio(curve, self._projected(curve, self._train[candidate]), score,
                               self._noise)
        if ratio is not None:
            self.widening_ *= ratio
            self._bounds.clear()

    def _decide(self):
        """The paper's next step given the results used so far.

        Once the paper's run stops, the tries at N of the learners sent there
        (:attr:`sent_to_n_`); None when none is left.
        """
        warm_up = self._warm_up_action()
        if warm_up is not None:
            return warm_up
        alive = self._alive()
        if not alive or self._stopped(alive):
            return self._try_at_n()
        bounds = {c: self.upper_bound(c) for c in alive}
        top = max(bounds.values())
        tied = [c for c in alive if bounds[c] >= top - self.tol]
        costs = self._next_costs(tied)
        chosen = min(tied, key=lambda c: (costs[c], -bounds[c], c))
        return chosen, self._next_size(chosen)

    @property
    def dropped_(self):
        """The learners the run left in the running once stopped (see the attributes)."""
        if not self.done:
            return {}
        return {c: max(self._tried[c]) for c in self._alive() if self._tried[c]}

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
        included) of the free learner with the highest bound. None during the
        tries at N (:attr:`sent_to_n_`): the paper's run has stopped.
        """
        if self.next_decision[0] in self.sent_to_n_:
            return None
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

        In seconds, overhead plus rows (:func:`~sksel.daub.cost.fit_cost` of
        its timed sizes, fits and scoring; the median exponent of the learners
        with one, `_exponent_to_n`, where its sizes do not tell it). Before any
        of its sizes is timed, the median over the timed learners of their
        cost relative to N (so a first subsample is priced with the overhead
        they show), or rows before any is timed.
        """
        if self.cost != "time":
            return float
        known = [p for p in map(self._exponent_to_n, range(self.n_candidates)) if p is not None]
        exponent = float(np.median(known)) if known else 1.0
        timed = self._timed_sizes(candidate, self._tried[candidate])
        if not timed:
            return self._typical_cost(exponent)
        return partial(predict_cost, self._fitted_cost(candidate, timed, exponent))

    def _typical_cost(self, exponent):
        """``rows -> cost`` relative to N's, the median of the timed learners'; rows before any."""
        models = [self._fitted_cost(c, timed, exponent) for c in range(self.n_candidates)
                  if (timed := self._timed_sizes(c, self._tried[c]))]
        if not models:
            return float
        return lambda rows: float(np.median([predict_cost(m, rows) / predict_cost(m, self.n_total)
                                             for m in models]))

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
