"""Mutant-UCB's clock: the seconds of every lineage's sub-trains, and what fits in the time left.

With a time budget the bandit prices its pulls in seconds
(:class:`SubtrainClock`); without one it counts sub-trains only, and
nothing it decides depends on a measured time. See :mod:`sksel.mutant_ucb`.
"""

import time

import numpy as np

#: The margin `SubtrainClock.time_left` keeps: this share of `max_time`, or where less, the wall of
#: this many typical sub-trains (with a plan filling the time left to within it, SGD searches of
#: 5 ms sub-trains at 2.5 s on two workers ran into the deadline), plus the fit's fixed costs.
_MARGIN_SHARE, _MARGIN_SUBTRAINS = 0.05, 10


class SubtrainClock:
    """Seconds of the models' sub-trains, as told, and the plans that end before `max_time`.

    A model's sub-train is priced by its lineage: the seconds of its own
    sub-trains so far, with the mean of its parent's (or, for an initial
    model or where the parent has none, the median of the initial models')
    counted as one more sub-train, so that one slow or fast sub-train does
    not settle a price; and at least its last sub-train's seconds, as a
    sub-train may cost more as the model grows (scoring more trees).

    Parameters
    ----------
    max_time : float
        Seconds from the start of the search to its end, its refit included.

    n_workers : int
        The workers sub-trains run on at once.

    n_folds : int
        The folds of every sub-train: a sub-train's folds run on up to
        ``min(n_workers, n_folds)`` workers at once.

    refit_factor : float
        The seconds of a refit's sub-train over those of a sub-train told
        (summed over the folds): the rows a refit trains on over a fold's
        training rows, divided by the folds.

    clock : callable or None, default=None
        ``clock() -> float``, seconds since the search started. None: the
        seconds since this clock was made.
    """

    def __init__(self, max_time, *, n_workers=1, n_folds=1, refit_factor=1.0, clock=None):
        self.max_time = max_time
        self.n_workers = n_workers
        self.n_folds = n_folds
        self.refit_factor = refit_factor
        if clock is None:
            start = time.perf_counter()
            clock = lambda: time.perf_counter() - start  # noqa: E731
        self.clock = clock
        self._seconds = {}  # model -> [seconds, sub-trains]
        self._last = {}  # model -> seconds of its last sub-train
        self._typical_price = 0.0  # the last `typical` computed
        self._first_told = None  # when the first sub-train was told
        self._setup = None  # the seconds of the fit before its first sub-train was handed out
        self._since_first = [0.0, 0]  # seconds and sub-trains told after it

    def note(self, model, subtrains, seconds):
        """Count `seconds` (summed over the folds) for `subtrains` sub-trains of `model`."""
        spent = self._seconds.setdefault(model, [0.0, 0])
        spent[0] += seconds
        spent[1] += subtrains
        self._last[model] = seconds / subtrains
        if self._first_told is None:
            self._first_told = self.clock()
        else:
            self._since_first[0] += seconds
            self._since_first[1] += 1

    def handing_out(self):
        """Note that a sub-train is handed out: the first one ends the fit's fixed costs."""
        if self._setup is None:
            self._setup = self.clock()

    def efficiency(self):
        """The share of the workers' wall that went into sub-trains since the first was told.

        What dispatching tasks, moving models to and from workers and
        waiting costs: the seconds told since the first sub-train over the
        workers' wall seconds since, within ``[0.1, 1]``; 1 until
        ``2 * n_workers`` more were told.
        """
        seconds, told = self._since_first
        elapsed = self.clock() - self._first_told if self._first_told is not None else 0.0
        if told < 2 * self.n_workers or elapsed <= 0:
            return 1.0
        return min(1.0, max(0.1, seconds / (self.n_workers * elapsed)))

    def overhead(self):
        """The seconds a task costs beyond its sub-trains, per task told since the first.

        Dispatching it, moving its model to and from a worker, validating its
        input, and the workers' waits for a decision: the workers' wall since
        the first sub-train was told less the seconds told, over the tasks
        told; 0 until ``2 * n_workers`` more were told.
        """
        seconds, told = self._since_first
        if told < 2 * self.n_workers or self._first_told is None:
            return 0.0
        return max(0.0, self.n_workers * (self.clock() - self._first_told) - seconds) / told

    def price(self, model, parents):
        """The predicted seconds of one sub-train of `model` (summed over the folds).

        `parents` are every model's parent (-1 for an initial model).
        """
        parent = parents[model]
        prior = self._mean(parent) if parent >= 0 else None
        if prior is None:
            prior = self.typical(parents)
        seconds, subtrains = self._seconds.get(model, (0.0, 0))
        return max((seconds + prior) / (subtrains + 1), self._last.get(model, 0.0))

    def time_left(self):
        """Seconds until `max_time`, less a margin for what the predictions miss.

        The margin is `_MARGIN_SHARE` of `max_time`, or where less, the wall of
        `_MARGIN_SUBTRAINS` typical sub-trains (:meth:`typical` at the
        :meth:`efficiency` measured, on one worker): a sub-train's result comes
        back later than its seconds say, and the plans fill the time left.
        To it are added the fit's fixed costs, the seconds from the start of
        the fit to the first sub-train handed out (:meth:`handing_out`:
        drawing and building the candidates): storing the results after the
        last takes about as long. Not the workers' start (loky's processes, a
        library's import in them), which delays the first sub-trains once.
        """
        margin = _MARGIN_SHARE * self.max_time
        if self._typical_price:
            margin = min(margin, _MARGIN_SUBTRAINS * self._typical_price / self.efficiency())
        return self.max_time - self.clock() - margin - (self._setup or 0.0)

    def wall(self, chains):
        """The wall seconds of `chains`, each sub-trains in a row (their seconds over folds).

        One chain's folds share ``min(n_workers, n_folds)`` workers; the
        chains share all of them, at the :meth:`efficiency` measured.
        """
        chains = [seconds for seconds in chains if seconds > 0]
        if not chains:
            return 0.0
        return max(max(chains) / min(self.n_workers, self.n_folds),
                   sum(chains) / self.n_workers) / self.efficiency()

    def refit_seconds(self, subtrains, price):
        """The predicted seconds of a refit of `subtrains` sub-trains priced `price` each."""
        return subtrains * price * self.refit_factor

    def subtrains_left(self, price):
        """The sub-trains of price `price` that the time left pays for, on every worker."""
        return max(0.0, self.time_left()) * self.n_workers * self.efficiency() / price

    def _mean(self, model):
        """The mean seconds of the sub-trains of `model` told so far, or None."""
        seconds, subtrains = self._seconds.get(model, (0.0, 0))
        return seconds / subtrains if subtrains else None

    def typical(self, parents):
        """The median price of the initial models' sub-trains told so far (0 where none is)."""
        prices = [self._mean(model) for model, (_, subtrains) in self._seconds.items()
                  if parents[model] < 0 and subtrains]
        self._typical_price = float(np.median(prices)) if prices else 0.0
        return self._typical_price
