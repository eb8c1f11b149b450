"""The learning curves both DAUB policies keep: scores by size, failures, races at N.

:class:`CurvePolicy` is the bookkeeping shared by :class:`~sksel.daub.DAUBPolicy`
(DAUB's upper bounds, ``risk=0``) and :class:`~sksel.daub.RungPolicy` (the
relative rule, ``risk > 0``): what each learner scored at each size, which
sizes it was given, which learners failed, finished or are still in the
running, and the race of the cross-validation folds at N. Each policy adds its
own rule of who gets the next rows.
"""

import math

import numpy as np

from .._core.policy import SequentialPolicy
from .cost import fit_cost

#: One-sided 1% quantile of the normal law: how far a learner trails in a race of the folds.
_RACE_Z = 2.33


class CurvePolicy(SequentialPolicy):
    """Learning curves ``{size: score}`` of `n_candidates` learners, told by ``tell``.

    Parameters
    ----------
    n_candidates : int
        Number of candidate learners.
    sizes : list of int
        Increasing training sizes; the last one is the full training set, N.
    noise : float or callable
        Standard error of one validation score, or a function of the score
        returning it: the noise of a fold's score in the race at N.
    tol : float or callable
        The gap a race must show beyond the noise; or a function of the
        leader's score returning it (a share of an error: see
        :class:`~sksel._core.scoring.CurveScale`).
    race : bool
        Race the cross-validation folds at N (see :meth:`enough_folds`).

    Attributes
    ----------
    fit_times_ : dict
        The seconds (fits and scoring) of every action used so far,
        ``{(candidate, size): seconds}``, but those that failed on every fold
        (the seconds of fits that raised say nothing of a learner's cost).
    folds_used_ : dict
        ``{(candidate, N): number of folds}`` of the learners whose race at N
        ended before their last fold: their score at N is the mean over those
        first folds; and of the learners whose try at N failed on its first
        fold (see Notes): 1.
    sent_to_n_ : dict
        ``{candidate: size}`` of the learners whose evaluation at `size`,
        below N, failed on every fold it ran: each is given one try at N
        (see Notes).
    given_up_ : set
        The learners given up for their failed evaluations (see Notes): they
        get no more data and are never selected.

    Notes
    -----
    A failed evaluation (``failed=True`` or a non-finite score) on every fold
    it ran (every ``fold_scores`` NaN, or no ``fold_scores`` told), below N,
    sends the candidate to N: a fit may fail on a small subsample only
    (``PCA(n_components=60)`` on 50 rows, a nearest-neighbours model with
    more neighbours than rows, a model that needs every class), and a grid
    search would train it on whole folds, where it may win. It skips the
    sizes between, is out of the comparisons below N, and once the policy's
    own run is over (its next decision would be to stop) it gets one try at
    N, the learners sent there in candidate order, raced against the best
    learner at N as any other. The try's first fold decides: where that
    fold's fit fails, its other folds are not needed (:meth:`enough_folds`)
    and the candidate is given up; otherwise its other folds run, and the
    candidate is given up if any of them fails too (no retry), or else
    scored at N as any learner, where it may be selected. So such a learner
    costs at most one evaluation at N, the fits a grid search spends on it,
    besides its subsamples. With several workers, a worker that would
    otherwise idle may fit the try's next folds ahead (see
    :mod:`~sksel._core.engine`): those fits are unused when the first one
    failed, and the run is the same.

    An evaluation that failed on some of its folds only is, below N, a hole
    in the learning curve: the candidate keeps its place and its next step is
    the next size; at N it is retried once, and the candidate is given up
    when it fails at N twice. A candidate told ``give_up=True`` is given up
    at once. A failed fold ends no race: an evaluation at N whose first folds
    trail the bar before any of them failed ends there, as if its later
    folds had not run (a worker may have fitted them ahead), and is not a
    failure.
    """

    races_folds = True

    def __init__(self, n_candidates, sizes, *, noise, tol, race):
        self.n_candidates = n_candidates
        self.sizes = list(sizes)
        self.noise = noise
        self.tol = tol
        self.race = race
        self.fit_times_ = {}
        self.folds_used_ = {}
        super().__init__()
        self.sent_to_n_ = {}
        self.given_up_ = set()
        self._valid = [{} for _ in range(n_candidates)]
        self._tried = [set() for _ in range(n_candidates)]
        self._failures_at_n = [0] * n_candidates
        self._fold_scores = {}
        self._active = set(range(n_candidates))
        self._finished = set()

    @property
    def n_total(self):
        """The largest size, N."""
        return self.sizes[-1]

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
            Score on the training subsample (read by DAUB's ``bound="train"``).
        fit_time : float, default=None
            Seconds the evaluation took, its fits and their scoring (read
            with ``cost="time"``; the same number of folds at every size
            below N).
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

    def _tol_at(self, score):
        """`tol` where the leader scores `score`: `tol`, or its value there where it is a
        function of the leader's score."""
        return self.tol(score) if callable(self.tol) else self.tol

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
        folds only. A fold whose fit failed (NaN) ends no race, but the
        first fold of a learner's try at N (see Notes) ends it when it
        failed: the learner is given up, whatever its other folds. The
        folds of a learner the rule dropped (one started at N early, on a
        worker that would have idled) end at its first fold in.
        """
        if resource != self.n_total:
            return False
        if candidate in self.dropped_ or (candidate in self.sent_to_n_
                                          and not np.isfinite(fold_scores[0])):
            return True
        return ((candidate, resource) == self.next_decision
                and self._race_length(fold_scores) is not None)

    @property
    def best_(self):
        """The selected candidate: the best score among those trained on the largest size."""
        scored = [c for c in range(self.n_candidates) if self._valid[c]]
        if not scored:
            return None

        def last_score(c):
            size = max(self._valid[c])
            return size, self._valid[c][size]

        return max(scored, key=last_score)

    def leader(self):
        """``(score, candidate, N)`` of the best learner scored at N so far, or None."""
        if not self._finished:
            return None
        best = max(sorted(self._finished), key=lambda c: self._valid[c][self.n_total])
        return self._valid[best][self.n_total], best, self.n_total

    def _noise(self, score):
        """Standard error of a validation score near `score`."""
        return self.noise(score) if callable(self.noise) else self.noise

    def _alive(self):
        """Candidates neither given up nor scored at N."""
        return sorted(self._active)

    def _timed_sizes(self, candidate, sizes):
        """The sizes of `sizes` below N at which `candidate`'s fit time is known, increasing."""
        return sorted(n for n in sizes if n < self.n_total and (candidate, n) in self.fit_times_)

    def _fitted_cost(self, candidate, timed, exponent):
        """`candidate`'s ``(a, b, e)`` of :func:`~sksel.daub.cost.fit_cost` on its `timed` sizes.

        `exponent` where its sizes do not tell it.
        """
        return fit_cost(timed, [self.fit_times_[candidate, n] for n in timed], exponent)

    def _fold_in(self, action, outcome):
        """Record the used `outcome` of `action` in the curves and the learners left.

        Returns whether it is a score at N that the run keeps: neither failed
        nor ended by its race.
        """
        candidate, size = action
        score, _, fit_time, failed, give_up, fold_scores = outcome
        self._tried[candidate].add(size)
        every_fold_failed = failed and _every_fold_failed(fold_scores)
        if fit_time is not None and np.isfinite(fit_time) and not every_fold_failed:
            self.fit_times_[action] = float(fit_time)
        if size == self.n_total and self._raced_out(action, fold_scores):
            return False
        if failed:
            self._fail(action, give_up, every_fold_failed, fold_scores)
            return False
        self._valid[candidate][size] = float(score)
        if size != self.n_total:
            return False
        self._active.discard(candidate)
        self._finished.add(candidate)
        if fold_scores is not None:
            self._fold_scores[candidate] = np.asarray(fold_scores, dtype=float)
        return True

    def _fail(self, action, give_up, every_fold_failed, fold_scores):
        """After the failed evaluation `action`: send its learner to N, or give it up (Notes).

        Neither where it failed on some folds only: below N, or at N for the
        first time.
        """
        candidate, size = action
        if size < self.n_total:
            if give_up:
                self._give_up(candidate)
            elif every_fold_failed:
                self.sent_to_n_[candidate] = size
                self._active.discard(candidate)
            return
        self._failures_at_n[candidate] += 1
        tried = candidate in self.sent_to_n_
        if tried and fold_scores is not None and not np.isfinite(fold_scores[0]):
            self.folds_used_[action] = 1  # the others were not needed (`enough_folds`)
        if give_up or every_fold_failed or tried or self._failures_at_n[candidate] >= 2:
            self._give_up(candidate)

    def _give_up(self, candidate):
        """Give `candidate` up: no more data, never selected."""
        self.given_up_.add(candidate)
        self._active.discard(candidate)

    def _try_at_n(self):
        """The try at N of the first learner sent there and not tried yet (Notes), or None."""
        return next(((c, self.n_total) for c in sorted(self.sent_to_n_)
                     if self.n_total not in self._tried[c]), None)

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

        None when they never do before a failed fold (NaN), or without a bar:
        a learner scored on every fold at N, the best of them (ties: the
        first).
        """
        if not self.race:
            return None
        scored = [c for c in sorted(self._finished) if c in self._fold_scores]
        if not scored:
            return None
        bar = self._fold_scores[max(scored, key=lambda c: self._valid[c][self.n_total])]
        scores = np.asarray(fold_scores, dtype=float)
        failed = np.flatnonzero(~np.isfinite(scores))
        before_failure = failed[0] if failed.size else len(scores)
        for j in range(1, min(before_failure, len(bar) - 1) + 1):
            gaps = bar[:j] - scores[:j]
            se = math.sqrt(2) * self._noise(scores[:j].mean()) / math.sqrt(j)
            if j >= 3:
                se = max(se, gaps.std(ddof=1) / math.sqrt(j))
            if se > 0 and gaps.mean() - self._tol_at(bar[:j].mean()) > _RACE_Z * se:
                return j
        return None


def _every_fold_failed(fold_scores):
    """Whether an evaluation failed on every fold it ran: `fold_scores` None or all NaN."""
    return fold_scores is None or not np.isfinite(np.asarray(fold_scores, dtype=float)).any()
