"""The time limit of a whole fit, ``max_time``: a first model, the search's share, the refit's.

Every search reads ``max_time`` as FLAML's users read ``time_budget``: the
whole ``fit``, the refit included, ends by about ``max_time`` seconds (at most
``1.1 * max_time + 1``, :func:`hard_limit`), with the best model evaluated
so far.

- **A first model** (:func:`first_model`): before the search starts, a
  candidate is fitted, in this process, on a small stratified subsample of
  the first fold's training rows and scored on that fold's validation rows,
  the cheapest evidence there is; one candidate of each estimator class is
  tried, the quickest found first. Where no evaluation of the search ends
  in time, it is the selection, and its model the one handed back.
- **The search's share** (:class:`SearchShare`): the search runs until
  ``max_time`` less the seconds kept for the refit (:func:`refit_reserve`);
  the fits still running then are cut (:func:`cut_at` in this process; loky's
  workers are stopped, :mod:`~sksel._core.alarm`).
- **The refit** (:func:`refit_in_time`): on all the rows where it is
  predicted to end within the time left (and half the slack of
  :func:`hard_limit`); else on the largest of a ladder of stratified
  subsamples that does, never fewer rows than the selected evaluation
  trained on, so that the model the search evaluated is always handed
  back. A fit still running at the hard limit is cut.

A fit's seconds are predicted from those of the largest fit of the
candidate timed so far (:func:`scaled_seconds`).
"""

import signal
import threading
import time
from contextlib import contextmanager
from copy import copy
from dataclasses import dataclass

import numpy as np
from sklearn.base import clone
from sklearn.utils import _safe_indexing

from .._compat import _check_method_params, _fit_and_score, _num_samples
from ..training.rows import nested_permutation
from .run import _fold_scores
from .trainer import Trainer

#: The most of ``max_time`` the search keeps for the refit.
RESERVE_SHARE = 0.25
#: ``seconds ~ rows ** exponent`` where a fit's seconds are scaled to more rows: up to three
#: times the rows, and beyond.
ROWS_EXPONENT, FAR_EXPONENT = 1.5, 2.0
#: The training rows of the first model: this many per class, and at least
#: `FIRST_MODEL_ROWS` (at most the fold's).
FIRST_MODEL_ROWS_PER_CLASS, FIRST_MODEL_ROWS = 10, 100


class OutOfTime(BaseException):
    """Raised in this process by :func:`cut_at` once the seconds given to a fit are up.

    A ``BaseException``, as ``KeyboardInterrupt`` is, so that scikit-learn's
    ``_fit_and_score``, which turns a fit's ``Exception`` into its
    ``error_score``, lets it through.
    """


def hard_limit(max_time):
    """The most seconds a fit under `max_time` takes: ``1.1 * max_time + 1``."""
    return 1.1 * max_time + 1.0


def can_cut():
    """Whether :func:`cut_at` can cut a fit here: in the main thread, with
    ``signal.setitimer``, while no other timer of the process is armed."""
    return (hasattr(signal, "setitimer")
            and threading.current_thread() is threading.main_thread()
            and signal.getitimer(signal.ITIMER_REAL)[0] == 0)


@contextmanager
def cut_at(seconds):
    """Raise :class:`OutOfTime` in the block once `seconds` have passed (None: never).

    A SIGALRM rings then and raises it at the next Python instruction, within
    a model's fit too (a long call into compiled code, libsvm's, ends
    first). Where the alarm cannot ring (:func:`can_cut`), the block runs to
    its end.
    """
    if seconds is None or not can_cut():
        yield
        return
    armed = [True]

    def ring(signum, frame):
        if armed[0]:
            armed[0] = False
            raise OutOfTime

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 1e-3))
    try:
        yield
    finally:
        armed[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def seconds_left(max_time, started, hard=False):
    """Seconds from now until `max_time` (`hard`: :func:`hard_limit`) counted from `started`,
    a ``time.perf_counter()``."""
    limit = hard_limit(max_time) if hard else max_time
    return limit - (time.perf_counter() - started)


def scaled_seconds(seconds, rows, to_rows):
    """The `seconds` of a fit on `rows`, scaled to a fit on `to_rows`: as ``rows ** 1.5``
    up to three times the rows, as their square beyond (a fit quadratic in its rows, libsvm's,
    is not predicted short from far)."""
    ratio = to_rows / max(rows, 1)
    return seconds * ratio ** (ROWS_EXPONENT if ratio <= 3 else FAR_EXPONENT)


def refit_reserve(max_time, refit_seconds):
    """The seconds a search keeps for the refit: the predicted `refit_seconds` of the best
    candidate so far, at most ``RESERVE_SHARE * max_time`` (0 while none is known)."""
    return min(RESERVE_SHARE * max_time, refit_seconds or 0.0)


def first_rows(train, y, classifier, n_rows=None):
    """The first model's training rows of a fold's `train` rows, stratified where `classifier`
    (`n_rows`: that many rows instead)."""
    if n_rows is None:
        n_classes = len(np.unique(np.asarray(y)[train], axis=0)) if classifier else 1
        n_rows = max(FIRST_MODEL_ROWS, FIRST_MODEL_ROWS_PER_CLASS * n_classes)
    n_rows = min(n_rows, len(train))
    rng = np.random.RandomState(0)
    if y is None or not classifier:
        order = rng.permutation(len(train))
    else:
        order = nested_permutation(np.asarray(y)[train], rng)
    return np.sort(np.asarray(train)[order[:n_rows]])


@dataclass
class FirstModel:
    """A candidate fitted on a few rows of the first fold: ``(candidate, rows)`` and the
    output of scikit-learn's ``_fit_and_score`` (its ``estimator`` taken out into `model`)."""

    candidate: int
    rows: int
    output: dict
    model: object

    @property
    def action(self):
        return self.candidate, self.rows


@dataclass
class NoFirstModel:
    """No candidate fitted on the first model's `rows` rows: ``{candidate: seconds}`` of the
    fits cut (`cuts`; none: every fit tried failed)."""

    rows: int
    cuts: dict


def first_model(job, splits, classifier, max_time, started):
    """The :class:`FirstModel` of a fit under `max_time` (see the module docstring); where
    none is fitted, a :class:`NoFirstModel` that says what was cut.

    One candidate of each estimator class is tried (the first one listed);
    with several classes, in rounds of cuts at a sixteenth, a quarter, then
    all of the time left, so that a quick class is found before a slow one
    takes the time. A candidate whose fit fails is passed over. The fold's
    validation rows are all scored.
    """
    train, test = splits[0]
    rows = first_rows(train, job.y, classifier)
    tried = _one_per_class(job.estimators)
    cuts = {}
    for share in [1 / 16, 1 / 4, 1] if len(tried) > 1 else [1]:
        for candidate in list(tried):
            cut = share * seconds_left(max_time, started)
            if cut <= 0:
                return NoFirstModel(len(rows), cuts)
            try:
                with cut_at(cut):
                    output = _fit_and_score(
                        clone(job.estimators[candidate]), job.X, job.y, train=rows, test=test,
                        parameters=None, scorer=job.scorers,
                        fit_params=job.fit_params(candidate), score_params=job.score_params,
                        return_train_score=True, return_n_test_samples=True,
                        return_times=True, return_estimator=True, error_score=np.nan,
                        verbose=0)
            except OutOfTime:
                cuts[candidate] = cut
                continue
            if output["fit_error"] is None:
                return FirstModel(candidate, len(rows), output, output.pop("estimator"))
            tried.remove(candidate)
    return NoFirstModel(len(rows), cuts)


def _one_per_class(estimators):
    """The first of `estimators` of each class (a pipeline's by its last step's)."""
    first = {}
    for i, estimator in enumerate(estimators):
        final = estimator.steps[-1][1] if hasattr(estimator, "steps") else estimator
        first.setdefault(type(final), i)
    return list(first.values())

class FirstModelTrainer(Trainer):
    """The trainer of the first model's row and refit: a plain fit of the candidate."""

    def iter_of(self, resource):
        return 0


class RefitReserve:
    """``reserve()``, the engine's: the seconds a search under `max_time` keeps for its refit.

    :func:`refit_reserve` of the refit of the best evaluation that `run` has
    told so far, predicted from the seconds of its folds (read again once
    another is told).
    """

    def __init__(self, run, max_time):
        self._run = run
        self._max_time = max_time
        self._n_rows = _num_samples(run.job.X)
        self._known = (0, 0.0)

    def __call__(self):
        evaluations = self._run.evaluations
        if len(evaluations) != self._known[0]:
            self._known = (len(evaluations), self._leaders_refit(evaluations))
        return refit_reserve(self._max_time, self._known[1])

    def _leaders_refit(self, evaluations):
        """The predicted seconds of the refit of the best of `evaluations` (0 for none)."""
        best, leader = -np.inf, None
        for action, outputs in evaluations:
            score = np.mean(_fold_scores(outputs, "test_scores", self._run.refit_metric))
            if np.isfinite(score) and score > best:
                best, leader = score, (action, outputs)
        if leader is None:
            return 0.0
        action, outputs = leader
        seconds = float(np.mean([out["fit_time"] for out in outputs]))
        rows = len(self._run.trainer.split(action[1])[0][0])
        return scaled_seconds(seconds, rows, self._n_rows)


class SearchShare:
    """The search's share of `max_time`: its seconds less those kept for the refit.

    The engine reads it at every look at the clock: no action is asked for
    once it has :meth:`passed`, and the wait for a result ends at
    :meth:`time_left` (see :mod:`~sksel._core.alarm`).

    Parameters
    ----------
    max_time : float or None
        The fit's ``max_time``; None: no deadline.
    reserve : callable or None
        ``reserve() -> seconds`` of `max_time` kept for the refit
        (:class:`RefitReserve`), read at every look; None: none.
    started : float
        The ``time.perf_counter()`` from which `max_time` counts.
    """

    def __init__(self, max_time, reserve, started):
        self.max_time = max_time
        self.reserve = reserve
        self.started = started

    def seconds(self):
        """Seconds from `started` after which the search's share ends."""
        return self.max_time - (0.0 if self.reserve is None else self.reserve())

    def passed(self):
        """Whether the share has ended (never without `max_time`)."""
        return (self.max_time is not None
                and time.perf_counter() - self.started >= self.seconds())

    def time_left(self):
        """Seconds until the share ends, at least 0; None without `max_time`."""
        if self.max_time is None:
            return None
        return max(0.0, self.seconds() - (time.perf_counter() - self.started))


def refit_in_time(job, trainer, key, fit_params, *, seconds, rows, model=None, max_time,
                  started, classifier):
    """``(model, rows trained on)``: the candidate `key` refitted within `max_time`.

    A fold of its evaluation trained `seconds` on `rows` rows (`model`: that
    model, where the search has it). The refit climbs a ladder of nested
    stratified subsamples: from the largest fit timed so far, all the rows
    where their predicted seconds (:func:`scaled_seconds`) end within the
    time left and half the slack of :func:`hard_limit`, else three times the
    rows where those do, else it stops; each fit is cut at the hard limit,
    and the largest that ended is handed back. Where the search has no model
    of `rows`, one is fitted first (uncut) unless a refit on all the rows is
    predicted to end, and then ends, in time, with room left for it: the
    model the search evaluated is always handed back.
    """
    n_rows = _num_samples(job.X)
    best = None if model is None else (model, rows)
    size, took = rows, seconds
    climb = True
    while best is None or best[1] < n_rows:
        budget = seconds_left(max_time, started) + (hard_limit(max_time) - max_time) / 2
        cut = seconds_left(max_time, started, hard=True) - (seconds if best is None else 0)
        floor = rows if best is None else best[1]
        ladder = [m for m in (n_rows, min(n_rows, 3 * size))
                  if m > floor and scaled_seconds(took, size, m) <= budget]
        if not (climb and ladder and cut > 0):
            if best is not None:
                break
            ladder, cut = [rows], None  # the model the search evaluated, whatever the time
        start = time.perf_counter()
        try:
            with cut_at(cut):
                fitted = _refit_on(job, trainer, key, fit_params, ladder[0], classifier)
        except OutOfTime:
            if best is not None:
                break
            climb = False
            continue
        best, size, took = (fitted, ladder[0]), ladder[0], time.perf_counter() - start
    return best


def _refit_on(job, trainer, key, fit_params, size, classifier):
    """The trainer's refit of `key` on the first `size` rows of a fair subsample of `job`'s."""
    n_rows = _num_samples(job.X)
    if size >= n_rows:
        return trainer.refit(job, *key, fit_params)
    rows = first_rows(np.arange(n_rows), job.y, classifier, n_rows=size)
    sub = copy(job)
    sub.X = _safe_indexing(job.X, rows)
    sub.y = None if job.y is None else _safe_indexing(job.y, rows)
    return trainer.refit(sub, *key, _check_method_params(job.X, fit_params, rows))
