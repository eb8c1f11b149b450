"""GP-UCB's batch: the next picks made while earlier ones are still being evaluated.

Desautels, Krause and Burdick, "Parallelizing Exploration-Exploitation
Tradeoffs in Gaussian Process Bandit Optimization" (JMLR 2014), GP-BUCB: a
pick made while others are pending takes them as observed at their posterior
mean. The mean is then that of the results in, and the variance also
conditions on the candidates pending, so the upper bounds of a batch spread
out over candidates the pending ones tell little about.

Here with a fixed lag, so that the picks depend on the scores and the batch
size only, never on when results come in: the ``p``-th pick takes the
results of picks ``0 .. p - batch_size`` as they came and the
``batch_size - 1`` picks before it as pending, whether their results are in
yet or not. Up to `batch_size` picks are then evaluated at once. A pick joins
the batch only while the candidates neither picked nor pending could still
change the answer: the stop counts the pending evaluations as made, at their
posterior mean, and `n_iter` counts them. With a batch size of 1 this is
GP-UCB as the paper runs it. Mixed into
:class:`~sksel.gpucb.policy.GPUCBPolicy`, whose attributes it reads.
"""

import copy

import numpy as np
from scipy.stats import norm


class Batch:
    """The batch picks of :class:`~sksel.gpucb.policy.GPUCBPolicy` (see the module)."""

    def _next_of_batch(self):
        """The pick that joins the batch now, or None where the batch is full or stops.

        The ``p``-th pick, ``p`` the picks made so far, once the results of
        picks ``0 .. p - batch_size`` are used; None where `n_iter` picks are
        made or pending, or where the answer is known with the pending ones
        counted (:meth:`_answer_known_with`).
        """
        position = self.n_decisions + len(self._ahead)
        n_known = position - self.batch_size + 1
        if n_known > self.n_decisions:
            return None
        run = self._as_of(max(n_known, 0))
        pending = [action[0] for action in (*self._decisions[run.n_decisions:], *self._ahead)]
        if run.n_evaluations_ + len(pending) >= self.n_iter:
            return None
        picked = set(run._observed) | run._failed | set(pending)
        left = [c for c in range(self.n_candidates) if c not in picked]
        if pending and run._answer_known_with(left, pending):
            return None
        if not pending and run._answer_known(left):
            return None
        candidate = run._ucb_argmax(left, pending=pending)
        if candidate is None:
            return None
        action = (candidate, self.resource)
        self._ahead.append(action)
        return action

    def _as_of(self, n_known):
        """A copy of the run that has used the results of its first `n_known` picks only."""
        if n_known == self.n_decisions:
            return self
        known = {action[0] for action in self._decisions[:n_known]}
        run = copy.copy(self)
        run._decisions = self._decisions[:n_known]
        run._observed = {c: y for c, y in self._observed.items() if c in known}
        run._failed = self._failed & known
        run._times = {c: t for c, t in self._times.items() if c in known}
        run._extra_var = {c: v for c, v in self._extra_var.items() if c in known}
        run._fold_scores = {c: s for c, s in self._fold_scores.items() if c in known}
        run._fitted = (None, None)
        return run

    def _answer_known_with(self, left, pending):
        """Whether the candidates `left` could not change the answer once `pending` are in.

        The pending evaluations count as observed at their posterior mean
        (their variance conditions the posterior, as in the picks): the
        selection is then the best of the scores observed and the pending
        means, and the run stops adding to the batch once the probability
        that a candidate of `left` ends more than `tol` above it is at most
        `risk` (the sum of :meth:`probability_left`). Without `tol` or a
        positive `risk`, never.
        """
        if self.tol is None or self.risk <= 0:
            return False
        if not left:
            return True
        mean, _ = self.posterior()
        values = {c: y for c, y in self._observed.items() if c not in self._extra_var}
        values.update({c: mean[c] for c in pending})
        best = max(values, key=values.get)
        _, post = self._posterior_cov([best, *left], pending=pending)
        var = post[0, 0] + np.diag(post)[1:] - 2 * post[0, 1:]
        var = np.maximum(var, self._family_floor(left))
        z = (mean[left] - values[best] - self.tol) / np.sqrt(np.maximum(var, 1e-24))
        return float(np.sum(norm.cdf(z))) <= self.risk
