"""Asynchronous successive halving (ASHA), a policy written for the tests only.

Li, Jamieson, Rostamizadeh, Gonina, Ben-tzur, Hardt, Recht and Talwalkar, "A
System for Massively Parallel Hyperparameter Tuning", MLSys 2020, Algorithm 2.
It knows nothing of the resource: rows (``asha_rows.py``) or anything else a
search gives each rung. It implements the contract of :class:`sksel.extend.Policy`
directly, as Mutant-UCB does: every action is a decision, so its decisions
follow the order results come in.
"""

import numpy as np

from sksel.extend import Policy


class ASHAPolicy(Policy):
    """ASHA over `n_candidates` candidates and the rungs `sizes`, by a factor `eta`.

    A free worker promotes to the next rung a candidate in the top
    ``1 / eta`` of its rung's results so far (``len // eta`` of them, the
    highest rung first) not promoted yet; otherwise it starts the next new
    candidate on the first rung. A failed evaluation is never promoted. The
    policy is done once every candidate has started, nothing runs and nothing
    can be promoted: every candidate is stopped or at the top rung.

    Examples
    --------
    >>> from asha_policy import ASHAPolicy
    >>> policy = ASHAPolicy(n_candidates=4, sizes=[10, 20, 40], eta=2)
    >>> while not policy.done:
    ...     for candidate, size in policy.ask():
    ...         policy.tell(candidate, size, candidate + size / 100)
    >>> policy.history_
    [(0, 10), (1, 10), (1, 20), (2, 10), (2, 20), (2, 40), (3, 10), (3, 20), (3, 40)]
    >>> policy.stop_reason()
    'every candidate stopped or at the top rung (2 reached 40)'
    """

    def __init__(self, n_candidates, sizes, eta=3):
        self.n_candidates = n_candidates
        self.sizes = list(sizes)
        self.eta = eta
        self.history_ = []
        self.decisions_ = []
        self._results = [{} for _ in self.sizes]  # rung -> {candidate: score}
        self._promoted = [set() for _ in self.sizes]
        self._pending = set()
        self._started = 0

    def ask(self, n_actions=1, speculative=True, idle=False):
        """Up to `n_actions` actions; every one is a decision, `speculative` changes nothing."""
        actions = []
        while len(actions) < n_actions:
            action = self._next()
            if action is None:
                break
            rung = self.sizes.index(action[1])
            if rung:
                self._promoted[rung - 1].add(action[0])
            else:
                self._started += 1
            self._pending.add(action)
            self.history_.append(action)
            actions.append(action)
        return actions

    def tell(self, candidate, resource, score, train_score=None, fit_time=None, failed=False,
             give_up=False):
        """Record the score of ``(candidate, resource)``; -inf where it failed."""
        self._pending.discard((candidate, resource))
        self.decisions_.append((candidate, resource))
        ok = not (failed or give_up) and np.isfinite(score)
        self._results[self.sizes.index(resource)][candidate] = float(score) if ok else -np.inf

    @property
    def done(self):
        """Whether every candidate started, nothing runs and nothing can be promoted."""
        return not self._pending and self._next() is None

    def stop_reason(self):
        """Why the run stopped, for the search's last progress line; None while it goes on."""
        if not self.done:
            return None
        return (f"every candidate stopped or at the top rung "
                f"({len(self._results[-1])} reached {self.sizes[-1]})")

    def _next(self):
        """The next action: a promotion, the highest rung first, else a new candidate."""
        for rung in reversed(range(len(self.sizes) - 1)):
            results = self._results[rung]
            top = sorted(results, key=lambda c: (-results[c], c))[:len(results) // self.eta]
            for candidate in top:
                if candidate not in self._promoted[rung] and np.isfinite(results[candidate]):
                    return candidate, self.sizes[rung + 1]
        if self._started < self.n_candidates:
            return self._started, self.sizes[0]
        return None
