"""Replaying a policy on recorded results, with simulated workers.

:func:`simulate` runs a policy (see :mod:`sksel._core.policy`) to its end as the
search's engine (:mod:`sksel._core.engine`) would run it on `n_workers` workers,
but nothing is trained: the score of an action is read from recorded results,
and the clock is simulated. The prior tuning (:mod:`sksel.gpucb.prior`), the
benchmarks and the tests replay policies with it.
"""

import heapq
from typing import NamedTuple

import numpy as np


class Simulation(NamedTuple):
    """What :func:`simulate` ran.

    Attributes
    ----------
    events : list of tuple
        ``(action, start, end, score)`` of every action handed out, in the
        order started; `end` and `score` are None for an action still
        running when the run stopped (abandoned).
    decisions : list of tuple
        The policy's ``decisions_``: the actions whose results made the
        decisions, in the order they were used.
    wall_time : float
        The simulated clock when the run stopped: the end of the last action
        told.
    busy_time : float
        Worker time spent, up to `wall_time`: the durations of the actions
        told, and of an abandoned action the time it ran.
    """

    events: list
    decisions: list
    wall_time: float
    busy_time: float


def _recorded(values, action, default=None):
    """The recorded value of `action`: ``values(candidate, resource)``, or ``values[candidate]``."""
    if values is None:
        return default
    candidate, resource = action
    if callable(values):
        return values(candidate, resource)
    return values[candidate]


def simulate(policy, scores, n_workers=1, *, durations=None, train_scores=None, until=None):
    """Run `policy` to its end on recorded results with `n_workers` simulated workers.

    As the search's engine does, a free worker asks the policy for one
    action, ``policy.ask(1, speculative=..., idle=...)``, speculative while
    fewer than two actions per worker run, a guess (``idle``) while fewer
    than one per worker do (each action here is one task, so a free worker
    always may). The action occupies its worker for its duration;
    results are told in the order the actions finish (ties: in the order they
    started), and the free workers ask again after each. The run stops when
    the policy is ``done`` (actions still running are abandoned, as the
    engine abandons them), when `until` says so, or when nothing runs and the
    policy hands out nothing.

    Parameters
    ----------
    policy : object
        A fresh policy: ``ask``, ``tell``, ``done`` and ``decisions_`` (see
        :mod:`sksel._core.policy`). It is run in place.

    scores : callable or array-like
        The recorded validation score of every action ``(candidate,
        resource)``: ``scores(candidate, resource)``, or ``scores[candidate]``
        for an array (or any sequence) indexed by candidate. A non-finite
        score is told as a failed evaluation (``failed=True``).

    n_workers : int, default=1
        Number of simulated workers.

    durations : callable or array-like, default=None
        The duration of every action, read as `scores`, and told as its
        ``fit_time``. None: every action lasts 1.0, and no ``fit_time`` is
        told (None), since none was recorded.

    train_scores : callable or array-like, default=None
        The training score of every action, read as `scores`, told as its
        ``train_score``; None tells none.

    until : callable, default=None
        ``until(simulation) -> bool``, called after every result told with
        the :class:`Simulation` of the run so far (`wall_time`: the time of
        that result); True stops the run there, as ``done`` does.

    Returns
    -------
    simulation : Simulation
        The events, in the order started, the policy's decisions, the
        simulated wall time and the worker time spent.

    See Also
    --------
    sksel.gpucb.evaluations_to_best : Evaluations until a policy finds the best candidate.

    Examples
    --------
    DAUB on two learning curves, two workers, an action at ``n`` rows lasting
    ``n / 100``: the speculative ``(1, 800)`` still runs when the policy is
    done, and is abandoned.

    >>> from sksel._core.simulate import simulate
    >>> from sksel.daub import DAUBPolicy
    >>> policy = DAUBPolicy(n_candidates=2, sizes=[100, 200, 400, 800])
    >>> curves = [lambda n: 0.9 - 50 / n, lambda n: 0.8 - 50 / n]
    >>> run = simulate(policy, lambda c, n: curves[c](n), n_workers=2,
    ...                durations=lambda c, n: n / 100)
    >>> for action, start, end, score in run.events:
    ...     print(action, start, end)
    (0, 100) 0.0 1.0
    (0, 200) 0.0 2.0
    (1, 100) 1.0 2.0
    (1, 200) 2.0 4.0
    (0, 400) 2.0 6.0
    (1, 400) 4.0 8.0
    (0, 800) 6.0 14.0
    (1, 800) 8.0 None
    >>> run.decisions
    [(0, 100), (0, 200), (1, 100), (1, 200), (0, 400), (1, 400), (0, 800)]
    >>> run.wall_time, run.busy_time, policy.best_
    (14.0, 28.0, 0)
    """
    events = []
    running = []  # heap of (end, index of the event): ties end in the order started
    clock = busy = 0.0
    while True:
        while len(running) < n_workers:
            # One task per action: fewer than two per worker run, as the engine
            # asks for speculative actions.
            actions = policy.ask(1, speculative=True, idle=True)
            if not actions:
                break
            action, = actions
            duration = _recorded(durations, action, 1.0)
            heapq.heappush(running, (clock + duration, len(events), duration))
            events.append((action, clock, None, None))
        if not running:
            break
        clock, i, duration = heapq.heappop(running)
        action, start, _, _ = events[i]
        score = _recorded(scores, action)
        busy += duration
        events[i] = (action, start, clock, score)
        policy.tell(*action, score, train_score=_recorded(train_scores, action),
                    fit_time=None if durations is None else duration,
                    failed=not np.isfinite(score))
        stop = until is not None and until(
            Simulation(list(events), list(policy.decisions_), clock, busy))
        if stop or policy.done:
            break
    busy += sum(clock - events[i][1] for _, i, _ in running)
    return Simulation(events, list(policy.decisions_), clock, busy)
