"""DAUB: Data Allocation using Upper Bounds.

Sabharwal, Samulowitz and Tesauro, "Selecting Near-Optimal Learners via
Incremental Data Allocation", AAAI 2016.

Every candidate learner is trained on a few small subsamples; from then on the
learner whose projected full-data score (its *upper bound*) is highest gets the
next, geometrically larger subsample. A learner whose bound falls below what the
leader already reaches stops receiving data. The search ends when a learner
trained on all the training rows scores at least every other learner's bound
(the paper: as soon as one learner has been trained on all of them).

This module holds the policy (:class:`DAUBPolicy`, pure bookkeeping, no
estimator) and the search estimator built on it (:class:`DAUBSearch`).
"""

import math
import numbers
import warnings
from functools import partial
from itertools import islice

import numpy as np
from sklearn.metrics import accuracy_score, explained_variance_score, r2_score

from ._base import BaseSelectionSearch, DisplayInfo
from ._compat import Interval, StrOptions
from ._policy import SequentialPolicy
from .curve_prior import prior_rise
from .resources import NSamplesResource


#: Rows of a training fold from which ``r="auto"`` grows subsamples by 2 instead of 3.
_LARGE = 10_000
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
        high quantile (:mod:`sksel.curve_prior`), for scores in [0, 1]
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
    A failed evaluation (``failed=True`` or a non-finite score) below N is a
    hole in the learning curve: the candidate keeps its place and its next
    step is the next size. A candidate without two scores has no bound
    (``+inf``), so one that fails on small subsamples is given larger ones,
    up to N. A failed evaluation at N is retried once; the candidate is given
    up only when it fails at N twice, or when told ``give_up=True``.

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
                 cost="rows", race=False):
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

    def tell(self, candidate, size, score, train_score=None, fit_time=None, failed=False,
             give_up=False, fold_scores=None):
        """Record the outcome of the action ``(candidate, size)``.

        Parameters
        ----------
        candidate, size : int
            The action, as returned by :meth:`ask`.
        score : float
            Validation score at `size`.
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
            Validation score of each fold run, in fold order (read at N with
            ``race=True``; fewer than all folds when :meth:`enough_folds`
            ended the race).
        """
        super().tell(candidate, size, score, train_score, fit_time, failed, give_up,
                     fold_scores)

    def enough_folds(self, candidate, size, fold_scores):
        """Whether the first folds of ``(candidate, size)``, scoring `fold_scores`, end its race.

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
        return ((candidate, size) == self._next and size == self.n_total
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
        sizes = sorted(curve)
        if not sizes:
            return np.inf
        valid = _monotone([curve[n] for n in sizes])
        n_j = sizes[-1]
        if len(sizes) < 2:
            projection = np.inf
        else:
            x = np.array(sizes, dtype=float)
            x_total = float(self.n_total)
            if self._log_scale(x, valid):
                x, x_total = np.log(x), np.log(x_total)
            x, last = x[-self.l:], valid[-self.l:]
            slope = np.polyfit(x, last, 1)[0]
            slope += self._noise(valid[-1]) / np.sqrt(np.sum((x - x.mean()) ** 2))
            projection = last[-1] + (x_total - x[-1]) * max(slope, 0.0)
            if self.bound == "prior" and self.max_score == 1 and n_j < self.n_total:
                rise = prior_rise(sizes, valid, self.n_total, self._noise(valid[-1]), self.l)
                projection = max(projection, valid[-1] + rise)
            if self.widening_ > 1:
                projection = valid[-1] + self.widening_ * (projection - valid[-1])
        train = train.get(n_j)
        if self.bound == "train" and train is not None:
            projection = min(train, projection)
        return min(projection, self.max_score)

    def _log_scale(self, sizes, scores):
        """Whether the curve `scores` at `sizes` is projected in log(rows)."""
        if self.projection != "auto":
            return self.projection == "log"
        if len(sizes) < 3:
            return False
        steps = np.diff(np.log(sizes))
        gains = np.diff(scores)
        # Gain of each step had it kept the previous step's gain per doubling.
        kept_pace = gains[:-1] * steps[1:] / steps[:-1]
        return bool(np.all(gains[1:] <= kept_pace + 2 * self._noise(scores[-1])))

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
            if give_up or self._failures_at_n[candidate] >= 2:
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
        bound = self._projected(curve, self._train[candidate])
        if len(curve) < 2 or not np.isfinite(bound):
            return
        latest = _monotone([curve[n] for n in sorted(curve)])[-1]
        seen = score - self._noise(score)
        if seen > bound > latest and not np.isclose(seen, bound):
            self.widening_ *= (seen - latest) / (bound - latest)
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
        """The first warm-up action (`warm_up` first sizes of every candidate) not yet used."""
        while self._warm_up_next < len(self._warm_up):
            action = self._warm_up[self._warm_up_next]
            if self._needs_warm_up(action):
                return action
            self._warm_up_next += 1
        return None

    def _needs_warm_up(self, action):
        candidate, size = action
        if candidate not in self._active or size in self._tried[candidate]:
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
        busy = {c for c, _ in self._pending}
        free = [c for c in self._alive() if c not in busy]
        for c in sorted(free, key=self.upper_bound, reverse=True):
            action = c, self._next_size(c)
            if action not in self._told:
                return action
        return None

    def _sure(self):
        """The first warm-up action not started that the run will need whatever the scores."""
        return next((a for a in self._upcoming_warm_up() if self._warm_up_known(a)), None)

    def _upcoming_warm_up(self):
        """Warm-up actions the run has not reached, needed as far as known, not started."""
        return [a for a in islice(self._warm_up, self._warm_up_next, None)
                if self._needs_warm_up(a) and a not in self._pending and a not in self._told]

    def _warm_up_known(self, action):
        """Whether the run will need the warm-up `action` whatever the scores to come."""
        return self.cost != "time" or self._cost_known(*action)

    def _cost_known(self, candidate, size):
        """Whether `candidate`'s cost decides if it needs `size`: a warm-up size up to its second."""
        return size <= self.sizes[1] or self._cost_exponent(candidate) is not None

    def _alive(self):
        """Candidates neither given up nor scored at N."""
        return sorted(self._active)

    def _next_size(self, candidate):
        """The next size above the largest tried (N from ``N / jump`` on).

        N again after one failure at N.
        """
        reached = max(self._tried[candidate], default=0)
        size = next((s for s in self.sizes if s > reached), self.n_total)
        exponent = self._cost_exponent(candidate)
        if exponent is None:
            return self.n_total if size * self.jump >= self.n_total else size
        return self.n_total if (self.n_total / size) ** exponent <= self.jump else size

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

def accuracy_noise(score, n_validation):
    """Standard error of an accuracy near `score` measured on `n_validation` rows.

    The binomial ``sqrt(p * (1 - p) / n)``, with ``p`` pulled towards 1/2 by
    one row each way so that a score of 0 or 1 keeps some noise.

    Parameters
    ----------
    score : float
        Accuracy, in [0, 1].
    n_validation : int
        Number of validation rows it was measured on.

    Returns
    -------
    noise : float

    Examples
    --------
    >>> from sksel.daub import accuracy_noise
    >>> round(accuracy_noise(0.5, 100), 4), round(accuracy_noise(0.98, 100), 4)
    (0.0495, 0.0167)
    """
    p = (min(max(score, 0.0), 1.0) * n_validation + 1) / (n_validation + 2)
    return math.sqrt(p * (1 - p) / (n_validation + 2))


def _monotone(scores):
    """The paper's monotone correction of a learning curve, point by point.

    When a score falls below the (corrected) previous one, both become their mean.
    """
    scores = np.array(scores, dtype=float)
    for i in range(1, len(scores)):
        if scores[i] < scores[i - 1]:
            scores[i - 1] = scores[i] = (scores[i] + scores[i - 1]) / 2
    return scores


class DAUBSearch(BaseSelectionSearch):
    """Select a learner by giving growing data subsamples to the most promising.

    Every candidate is trained on the `l` smallest nested subsamples of a
    training fold (fewer when fewer sizes lie below the whole fold); from
    then on the candidate with the highest upper bound on its full-data
    score gets the next, about `r` times larger, subsample. The search ends
    when a candidate trained on whole training folds, and scored on every
    fold, scores at least every other candidate's bound; it is selected and
    refitted on all the data. Validation folds are never subsampled. This is
    DAUB (Sabharwal et al., AAAI 2016), which spends training *rows*:
    learners that cannot catch up stop early, on small data.

    Read more in the :ref:`User Guide <daub>`.

    Parameters
    ----------
    estimator : estimator object or list
        One estimator searched over `param_grid`, or a list of candidates:
        estimators and/or ``(estimator, param_grid)`` pairs.

    param_grid : dict or list of dicts, default=None
        Grid of parameters for a single `estimator`, as
        :class:`~sklearn.model_selection.GridSearchCV` takes it. Must be None
        when `estimator` is a list.

    r : float or "auto", default="auto"
        Geometric growth of the subsample sizes, > 1: sizes are the multiples of
        `b` ``n_0 = b``, ``n_{i+1} = min(N, b * ceil(r * n_i / b))``, the last
        one N, the rows of the smallest training fold. The paper uses 1.5.
        ``"auto"`` uses 3 when N is below 10,000 rows and 2 from there on: on
        small data a fit costs about as much on a subsample as on N, so fewer
        steps cost less; on large data finer steps drop learners earlier.

    b : int or "auto", default="auto"
        Granularity and first subsample size. ``"auto"`` uses
        ``min(500, max(N // 32, 10 * n_classes))`` rows (``20`` instead of
        ``10 * n_classes`` for regressors), at most N, so small datasets still
        get several sizes. The paper uses 500.

    l : int or "auto", default="auto"
        Number of most recent points of a learning curve whose least-squares
        slope projects it to N, and number of sizes every candidate is first
        trained on. ``"auto"`` is 3, or the sizes below N where fewer lie
        there (at least 2). An int larger than the sizes below N is lowered
        to them, with a warning.

    bound : {"prior", "slope", "train"}, default="prior"
        Upper bound on a learner's score at N. ``"prior"``, for classifiers
        scored in [0, 1] (the scores listed under `noise`), is the larger of the
        slope projection and the rise that real learning curves with the same
        prefix reached at their 98th percentile (:mod:`sksel.curve_prior`,
        learned from LCDB's curves): a learner that trails on small
        subsamples keeps a bound that lets it catch up later. Other scores
        get ``"slope"``, the slope projection alone. ``"train"`` is the
        paper's: the smaller of the learner's score on its own training
        subsample and the projection; it costs a scoring of the training
        subsample per fit below N, and starves learners that score higher on
        validation data than on their training subsample (strongly
        regularised models, late bloomers). With ``"prior"`` and
        ``"slope"``, once learners reach N the search checks the bounds their earlier points gave: if
        they scored above them, every remaining bound widens by the ratio
        before anyone else is dropped (``policy_.widening_``).

    cost : {"time", "rows"}, default="time"
        What a step costs. ``"time"`` reads the measured fit times: a
        learner whose fit time is nearly flat in rows (on small subsamples,
        many boosting and forest learners) goes to whole training folds as
        soon as its last two sizes show it, skipping the rest of its warm-up,
        and the `jump` and `tol` tie-breaks compare predicted seconds. Fit
        times vary from run to run, so a rerun with the same `random_state`
        may take other steps: on three reruns of each dataset of our real
        benchmark suite it selected the same learner 45 times of 48, and a
        learner tied with it within `tol` the other 3. ``"rows"`` (the
        paper's) counts training rows
        only, so the same `random_state` gives the same ``cv_results_`` on
        every run and for any `n_jobs`.

    projection : {"auto", "linear", "log"}, default="auto"
        How the slope of the last `l` points projects a learning curve to N:
        a line in rows (``"linear"``, the paper's, an upper bound for any
        concave curve) or in log(rows) (``"log"``, much tighter, an upper bound
        for curves with diminishing returns per doubling of the data, as power
        laws have). ``"auto"`` uses the log scale for a curve whose every step
        so far gained no more per doubling than the step before it (up to twice
        `noise`) and the linear one for the others: curves still flat at
        chance level, which may take off later, and accelerating ones.

    noise : float or "auto", default="auto"
        Standard error of a validation score, which raises every learning
        curve's slope by its standard error before projecting, so that a
        learner whose first points are flat or dipping only by chance is not
        dropped. With ``n_validation`` the validation rows of the
        `subsample_folds` folds the learning curves are drawn on, ``"auto"``
        uses, for classifiers scored by accuracy (the default score), the
        binomial standard error of each curve's latest score
        (:func:`accuracy_noise`); for those scored by balanced accuracy, ROC
        AUC, average precision, F1, precision, recall or Jaccard,
        ``0.5 / sqrt(n_validation)``, the largest standard error of a score in
        [0, 1]; and 0 (the paper's bound) otherwise.

    stop : {"first", "strict"}, default="strict"
        ``"first"``, the paper's rule, stops when the first learner reaches N.
        ``"strict"`` stops only when a learner trained on N scores at least
        every other learner's upper bound, and selects the best learner at N.

    tol : float, default=0.005
        Bounds within `tol` (in units of the score: 0.5 accuracy points by
        default) of the highest count as tied, and the tied learner whose next
        subsample is the smallest goes first. ``0`` is the paper's argmax.
        With ``stop="strict"`` the search also ends once no bound exceeds the
        best score at N by more than `tol`: near-ties need not all reach N.

    jump : float, default=3.0
        A learner whose next subsample would hold at least ``N / jump`` rows
        is trained on whole training folds instead: the last rungs of a
        ladder cost nearly as much as N, and a learner that climbs them
        mostly ends at N anyway. ``1`` (never) is the paper's ladder. On
        LCDB's real curves, 3 (chosen on half of the datasets) cut the mean
        training cost from 1.02 to 0.90 of training every learner on the
        other half, at a lower loss.

    subsample_folds : int or "all", default=1
        Number of cross-validation folds, the first ones, on which subsamples
        smaller than N are evaluated; N is evaluated on every fold, so the
        selected candidate's score is a cross-validated one as in
        :class:`~sklearn.model_selection.GridSearchCV`. ``1`` draws the
        learning curves on one fold, at a fifth of the cost with ``cv=5``:
        learners whose fit costs nearly as much on a subsample as on N
        (boosting, forests) pay for every step of their curve. ``"all"``
        draws them on every fold.

    race_folds : bool, default=True
        With several folds, race them at N: a candidate trained on whole
        training folds is scored fold by fold, and once its folds so far
        trail the same folds of the best candidate scored on all of them by
        more than `tol` beyond what the noise of one fold's score explains (a
        one-sided paired test at 1%; from three folds on, the spread of the
        differences too, when larger), its other folds are not trained: it
        gets no more data and is not selected. The selected candidate is
        always scored on every fold; ``cv_results_`` holds the folds each
        candidate ran on. Scores without a noise model (see `noise`) are
        raced from their third fold on. ``False`` trains every candidate
        that reaches N on every fold.

    scoring : str, callable, list, tuple or dict, default=None
        Strategy to evaluate the candidates, as in
        :class:`~sklearn.model_selection.GridSearchCV`. With several metrics,
        `refit` must name the one that drives the allocation, or be a
        callable: the first metric then drives it, and the callable selects
        the candidate from ``cv_results_``.

    n_jobs : int, default=None
        Number of jobs to run in parallel (joblib). Workers take the next fit
        as soon as they are free; any joblib backend can be used through
        :func:`joblib.parallel_config`.

    refit : bool, str, or callable, default=True
        Refit the selected candidate on the whole dataset, as in
        :class:`~sklearn.model_selection.GridSearchCV`, except that a refit
        that raises does not end the fit (a candidate selected on a
        subsample, where `max_time` cut the search before any reached N, may
        fail on all the rows): a ``FitFailedWarning`` names the candidate and
        the error, and the next candidate in rank with a finite score is
        refitted instead. ``best_index_``, ``best_params_`` and
        ``best_score_`` then name the candidate refitted, which ranks 1, and
        the candidates whose refit failed rank last (a callable `refit` keeps
        the ranks). A ``RuntimeError`` is raised where every refit fails;
        with ``error_score="raise"``, the first refit error is.

    cv : int, cross-validation generator, iterable or float, default=None
        Cross-validation splitting strategy, as in
        :class:`~sklearn.model_selection.GridSearchCV` (None means 5-fold). A
        float in (0, 1) is a single holdout split keeping that fraction of the
        rows for validation (stratified for classifiers), as the paper does.

    verbose : int, default=0
        Progress, printed as the search runs. ``0``: nothing. ``1``: a header
        (the search, its candidates, folds and budget), a progress bar where
        tqdm is installed (``pip install sksel[progress]``; in a terminal or
        Jupyter) or else a status line every few seconds (evaluations done,
        elapsed time, best score so far and its candidate), and a final line
        naming the selected candidate and its score. ``2``: one line per
        finished evaluation instead of the bar: the candidate's short name,
        its resource, its mean test score and its upper bound (projected
        score at N, from the results used so far). ``3``: also scikit-learn's
        ``[CV]`` line of every fit (printed by the worker that runs it).

    random_state : int, RandomState instance or None, default=None
        Seed of the subsample orders and of a holdout split.

    error_score : 'raise' or numeric, default=np.nan
        Score of a fit that fails, with a warning; with 'raise' the error is
        raised. An evaluation with a failed fold is a failed evaluation. Below
        the full size it leaves a hole in the candidate's learning curve and
        the candidate goes on to the next size (a candidate with fewer than
        two scores has no bound yet, so it gets larger subsamples until it
        has); at the full size it is retried once on the same folds, and a
        candidate that fails there twice is given up. A failed candidate is
        never selected.

    return_train_score : bool, default=False
        Include training scores in ``cv_results_``.

    max_time : float, default=None
        Wall-clock seconds after which no new fit (one fold) starts; the search
        ends with the best candidate so far. The refit is not counted.

    checkpoint : str, path-like or None, default=None
        Folder where every finished evaluation is written as it finishes,
        one file each, atomically. Fitting again with the same data, fit
        parameters and search parameters (``n_jobs``, ``verbose`` and
        ``max_time`` aside) replays what the folder holds instead of running
        it and goes on, so that a search that was killed ends with the
        ``cv_results_`` of an uninterrupted run (``n_jobs=1``, a fixed
        `random_state`); a folder from another input raises a ``ValueError``
        naming what differs. The files are pickles: only give a folder you
        trust. See :ref:`the User Guide <checkpoint>`.

    Attributes
    ----------
    cv_results_ : dict of numpy (masked) ndarrays
        One row per candidate, at the largest subsample the policy used it on,
        with the keys of :class:`~sklearn.model_selection.GridSearchCV` plus
        ``candidate_id``, ``candidate_name`` (``#id`` and the short name
        ``verbose=2`` prints and the displays draw), ``n_resources`` (training
        rows per fold) and ``iter`` (position of ``n_resources`` in
        :attr:`sizes_`). Ranks order finite
        scores first, then by ``n_resources``, then by folds run, then score,
        so the selected candidate is rank 1 and failed rows share the last
        rank. A candidate whose race of the folds ended early (see
        `race_folds`) has NaN in the ``split<i>_*`` keys of the folds it did
        not run, and its means are over those it ran.

    all_cv_results_ : dict of numpy (masked) ndarrays
        The same keys plus ``speculative``, one row per evaluation (candidate
        x size): the learning curves. First the evaluations the policy used,
        in decision order; then speculative ones it never used (started while
        a worker was free), with ``speculative`` True.

    best_estimator_ : estimator
        The selected candidate refitted on the whole data (``refit=True``).

    best_score_ : float
        Mean cross-validated score of the selected candidate at its largest size.

    best_params_ : dict
        Parameters of the selected candidate.

    best_index_ : int
        Index of the selected candidate in ``cv_results_``.

    sizes_ : list of int
        Subsample sizes (training rows per fold) the search could allocate.

    policy_ : DAUBPolicy
        The allocation policy, with its ``history_`` of decisions.

    scorer_ : function or dict
        Scorer(s) used on the validation folds.

    n_splits_ : int
        Number of cross-validation splits.

    refit_time_ : float
        Seconds spent refitting the selected candidate.

    multimetric_ : bool
        Whether several metrics were used.

    stop_reason_ : str
        ``"done"``, ``"max_time"`` or ``"interrupted"``.

    classes_ : ndarray of shape (n_classes,)
        Class labels (classifiers, ``refit=True``).

    n_features_in_ : int
        Number of features seen during fit.

    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of features seen during fit, when `X` has string column names.

    See Also
    --------
    sklearn.model_selection.HalvingGridSearchCV : Successive halving, which
        also spends training rows, in synchronous rounds.

    Notes
    -----
    Every candidate is first trained on the `l` smallest sizes below N (the
    paper: on two), so that each bound starts from a slope of `l` points; the
    warm-up never trains on N, which would be a grid search and more. Bounds are
    capped at the best score the scorer allows (1 for the scorers listed under
    `noise` and for R², 0 for ``neg_*`` errors). The defaults differ from the
    paper's algorithm (``r=1.5, b=500, l=3, bound="train", cost="rows",
    projection="linear", noise=0, stop="first", tol=0, jump=1``, and two
    warm-up sizes); the :ref:`User Guide <daub>` shows what each difference gains on
    real learning curves.

    When reading the result: the selected candidate has the best score among
    those trained on whole training folds (``n_resources`` at its maximum);
    other rows of ``cv_results_`` were measured on smaller subsamples.

    Examples
    --------
    >>> from sklearn.datasets import load_digits
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sksel import DAUBSearch
    >>> X, y = load_digits(return_X_y=True)
    >>> search = DAUBSearch(
    ...     [GaussianNB(), DecisionTreeClassifier(random_state=0),
    ...      LogisticRegression(max_iter=2000)],
    ...     cv=0.25, random_state=0,
    ... ).fit(X, y)
    >>> search.best_params_["estimator"]
    LogisticRegression(max_iter=2000)
    >>> search.sizes_
    [100, 300, 1347]
    """

    _parameter_constraints: dict = {
        **BaseSelectionSearch._parameter_constraints,
        "param_grid": [dict, list, None],
        "r": [Interval(numbers.Real, 1, None, closed="neither"), StrOptions({"auto"})],
        "b": [Interval(numbers.Integral, 1, None, closed="left"), StrOptions({"auto"})],
        "l": [Interval(numbers.Integral, 2, None, closed="left"), StrOptions({"auto"})],
        "bound": [StrOptions({"train", "slope", "prior"})],
        "cost": [StrOptions({"time", "rows"})],
        "projection": [StrOptions({"auto", "linear", "log"})],
        "noise": [Interval(numbers.Real, 0, None, closed="left"), StrOptions({"auto"})],
        "stop": [StrOptions({"first", "strict"})],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
        "jump": [Interval(numbers.Real, 1, None, closed="left")],
        "subsample_folds": [Interval(numbers.Integral, 1, None, closed="left"),
                            StrOptions({"all"})],
        "race_folds": ["boolean"],
    }

    def __init__(
        self,
        estimator,
        param_grid=None,
        *,
        r="auto",
        b="auto",
        l="auto",
        bound="prior",
        cost="time",
        projection="auto",
        noise="auto",
        stop="strict",
        tol=0.005,
        jump=3.0,
        subsample_folds=1,
        race_folds=True,
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
        self.r = r
        self.b = b
        self.l = l
        self.bound = bound
        self.cost = cost
        self.projection = projection
        self.noise = noise
        self.stop = stop
        self.tol = tol
        self.jump = jump
        self.subsample_folds = subsample_folds
        self.race_folds = race_folds

    def _display_info(self):
        return DisplayInfo("Training rows per fold", self.sizes_[-1],
                           bounds=self.policy_.upper_bound)

    def _needs_train_score(self, n_resources):
        # A learner at N needs no bound any more.
        return self.bound == "train" and n_resources < self.sizes_[-1]

    def _make_policy(self, candidates, splits, y, n_classes, rng):
        n_total = min(len(train) for train, _ in splits)
        b = self._granularity(n_total, n_classes)
        self.sizes_ = daub_sizes(n_total, b, self._growth(n_total))
        self._warn_if_no_curve_below_n(len(candidates))
        self._warn_if_l_exceeds_the_sizes()
        folds = None if self.subsample_folds == "all" else self.subsample_folds
        resource = NSamplesResource(
            splits, y, self.sizes_, stratify=n_classes is not None, random_state=rng,
            n_folds_below_max=folds,
        )
        unit = self._unit_scored_classifier(n_classes)
        self.policy_ = DAUBPolicy(
            len(candidates), self.sizes_, l=self._curve_points(),
            bound="slope" if self.bound == "prior" and not unit else self.bound,
            projection=self.projection, max_score=self._max_score(n_classes),
            noise=self._noise(resource.split(self.sizes_[0]), n_classes), stop=self.stop,
            tol=self.tol,
            warm_up=min(self._curve_points(), max(1, len(self.sizes_) - 1)), jump=self.jump,
            cost=self.cost, race=self.race_folds and len(splits) > 1,
        )
        return self.policy_, resource

    def _progress_budget(self, n_candidates):
        n_max = n_candidates * len(self.sizes_)
        return n_max, False, (
            f"no fixed count: stops once a candidate reaches {self.sizes_[-1]} rows; at most "
            f"{n_max} evaluations ({n_candidates} candidates x {len(self.sizes_)} sizes)")

    def _progress_extra(self, action):
        bound = self.policy_.bound_at(*action)
        return {"bound": "pending" if bound is None else float(bound)}

    def _largest_resource(self):
        return self.sizes_[-1]

    def _warn_if_no_curve_below_n(self, n_candidates):
        if len(self.sizes_) < 3 and n_candidates > 1:
            warnings.warn(
                f"The subsample sizes {self.sizes_} hold fewer than two sizes below "
                "the whole training fold: no learning curve ranks the candidates "
                "before each is trained on all the rows, more training than "
                "GridSearchCV spends. Lower b or r, or give more rows.",
                UserWarning,
            )

    def _curve_points(self):
        """`l` resolved: 3 for ``"auto"``, at most the sizes below N (at least 2)."""
        below = len(self.sizes_) - 1
        return max(2, min(3 if self.l == "auto" else self.l, below))

    def _warn_if_l_exceeds_the_sizes(self):
        below = len(self.sizes_) - 1
        if self.l != "auto" and below >= 2 and self.l > below:
            warnings.warn(
                f"l={self.l} is more than the {below} subsample sizes below the whole "
                f"training fold {self.sizes_}: the warm-up and the slopes use {below} "
                "points. Lower l, or lower b or r for more sizes.",
                UserWarning,
            )

    def _max_score(self, n_classes):
        metric, sign = self._ranking_metric()
        if self._unit_scored_classifier(n_classes):
            return 1.0
        if sign > 0 and metric in (r2_score, explained_variance_score):
            return 1.0
        if sign < 0:
            return 0.0  # a loss, negated
        return np.inf

    def _noise(self, splits, n_classes):
        if self.noise != "auto":
            return self.noise
        # Of the folds a learning curve is drawn on.
        n_validation = sum(len(test) for _, test in splits)
        if not self._unit_scored_classifier(n_classes):
            return 0.0
        if self._ranking_metric() == (accuracy_score, 1):
            return partial(accuracy_noise, n_validation=n_validation)
        return 0.5 / math.sqrt(n_validation)

    def _growth(self, n_total):
        if self.r != "auto":
            return self.r
        return 3.0 if n_total < _LARGE else 2.0

    def _granularity(self, n_total, n_classes):
        if self.b != "auto":
            if self.b > n_total:
                raise ValueError(
                    f"b={self.b} is larger than the smallest training fold "
                    f"({n_total} rows): lower b, or give more samples."
                )
            return self.b
        floor = 10 * n_classes if n_classes else 20
        return min(n_total, 500, max(n_total // 32, floor))
