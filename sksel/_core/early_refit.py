"""Refits of the likely selection, started on workers the search would otherwise leave idle.

While a search runs on several workers, a worker may free up when the policy
has nothing for it: the picks wait for results, or the last evaluations are
running. Such a worker refits a candidate the search may well select on all
the rows, as the trainer's ``refit`` does (its ``refit_task``): the first of
the policy's ``likely_selections()`` not refitted yet (by default the one the
search would select now, its ``leader()``), two at most in a fit (`_MOST`).
Where the search then selects a candidate refitted so, its
``best_estimator_`` is that fit and no refit follows the search: the
refit's wall time is saved. A refit the selection did not need is spent CPU
(the search's benchmarks count it); one still running when the search ends
is abandoned, unless it is the selection's, which the search waits for.
The engine queues one where results stream in and the search has no
``max_time``, for a worker that would otherwise idle.

The estimator is the same either way: a fresh one built from the candidate's
parameters and fitted on the same rows with the same fit parameters, so the
answer does not depend on `n_jobs`. A refit that raises is left to the
search's own refit, which raises or warns as it always does. No early refit
for a callable `refit` (the selection is not the leader's), nor for a
candidate asking for ``device="cuda"`` (its model would come back to this
process's GPU), nor where the trainer's refit needs its own state
(``refit_task`` is None).
"""

import time

from .devices import asks_for_cuda

#: The most refits a fit makes early: what they may waste is bounded by two refits, and a
#: third is more often still running when the search ends, where stopping it costs more
#: (letter's sleeping learners on 32 loky workers: 0.55 s to stop the workers running it).
_MOST = 2


def _timed(func, args, kwargs):
    """``(func(*args, **kwargs), seconds)``, or ``(None, seconds)`` where it raised."""
    start = time.perf_counter()
    try:
        result = func(*args, **kwargs)
    except Exception:  # the search's own refit raises it again, or warns
        result = None
    return result, time.perf_counter() - start


class EarlyRefits:
    """The refits of a fit's likely selections, each started once (see the module).

    Parameters
    ----------
    job : _Job
        The fit's data, candidates and fit parameters.
    trainer : Trainer
        Gives the refit's task (``refit_task``).
    policy : Policy
        Names the likely selections (``likely_selections()``).

    Attributes
    ----------
    done : dict
        ``(candidate, resource) -> (estimator, seconds)`` of every early refit
        that succeeded.
    """

    def __init__(self, job, trainer, policy):
        self.job = job
        self.trainer = trainer
        self.policy = policy
        self.done = {}
        self._started = set()

    def wanted(self):
        """``(candidate, resource)`` of the likeliest selection, or None."""
        return next(iter(self.policy.likely_selections()), None)

    def task(self):
        """``(key, task)`` of the refit of the likeliest selection not refitted yet, or
        None."""
        if len(self._started) >= _MOST:
            return None
        for key in self.policy.likely_selections():
            if key in self._started or asks_for_cuda(self.job.estimators[key[0]]):
                continue
            task = self.trainer.refit_task(self.job, *key, self.job.fit_params(key[0]))
            if task is None:
                return None
            self._started.add(key)
            return key, (_timed, task, {})
        return None

    def take(self, key, output):
        """Keep the refit `key` returned as `output` (a task of :meth:`task`), unless it
        failed."""
        estimator, seconds = output
        if estimator is not None:
            self.done[key] = (estimator, seconds)
