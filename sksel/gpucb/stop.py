"""GP-UCB's stop: when the answer is known, from full evaluations, first folds or looks.

The run stops once the probability that a candidate left ends more than
`tol` above the selection is at most `risk` (a sum over candidates, each
term exact under the posterior, a family nothing observed keeping a floor
of variance); a candidate whose looks settle the answer is selected from
them; a candidate's first folds end its evaluation once they rule it out.
Mixed into :class:`~sksel.gpucb.policy.GPUCBPolicy`, whose attributes it reads.
"""

import numpy as np
from scipy.stats import norm


class Stop:
    """The stop of :class:`~sksel.gpucb.policy.GPUCBPolicy` (see the module)."""

    def probability_left(self, candidates=None, tol=None, leader=None):
        """What stopping now risks: the probability that a candidate left beats the selection.

        An upper bound of the posterior probability that some candidate of
        `candidates` (default: those neither evaluated nor failed) beats the
        best candidate observed ``b``, the one a search selects, by more than
        `tol` (default: the policy's, 0 when it has none): the sum over them
        of ``P(f(k) - f(b) > tol) = Phi((mu_t(k) - mu_t(b) - tol) / s_k)``,
        with ``s_k^2`` the posterior variance of ``f(k) - f(b)``
        (Bonferroni's bound of the probability of the union; its terms are
        exact under the posterior). The policy stops once it is at most
        `risk`. ``inf`` before any observation, 0 without candidates.
        `leader`: another candidate in place of ``b`` (one whose evaluation
        is running, say).
        """
        if candidates is None:
            candidates = self._available() + sorted(self._extra_var)
        leader = self.best_ if leader is None else leader
        if leader is None:
            return np.inf
        if not len(candidates):
            return 0.0
        if tol is None:
            tol = self.tol or 0.0
        mean, cov = self._posterior_cov([leader, *candidates])
        var = cov[0, 0] + np.diag(cov)[1:] - 2 * cov[0, 1:]
        var = np.maximum(var, self._family_floor(candidates))
        z = (mean[1:] - mean[0] - tol) / np.sqrt(np.maximum(var, 1e-24))
        return float(np.sum(norm.cdf(z)))

    def _family_floor(self, candidates):
        """The least variance of each of `candidates`' difference to the selection: a share
        `family_floor` of its prior variance where no candidate of its family is observed."""
        if self.families is None or not self.family_floor:
            return np.zeros(len(candidates))
        looked = [] if self.looks_contradicted_ else list(self._look_scores)
        seen = set(self.families[[*self._observed_list(), *looked]])
        _, _, cov = self._observed_prior()
        unseen = np.array([self.families[c] not in seen for c in candidates])
        return np.where(unseen, self.family_floor * np.diag(cov)[list(candidates)], 0.0)

    def settled_by_looks(self, candidate):
        """What selecting `candidate` from its looks risks, or ``inf`` where it cannot be.

        The sum, over the other candidates neither dropped nor failed, of
        the probability that one ends more than `tol` above `candidate`: for
        one looked at (the leader, every candidate evaluated after its
        looks), the gap model's, from their looks at the sizes both were
        looked at, `candidate` as the leader; for one never looked at, the
        posterior's of ending more than `tol` above the best candidate
        evaluated in full (:meth:`probability_left`'s term). ``inf`` unless
        `candidate`'s ladder of looks is made, all of them scored, and a full
        evaluation has checked the gap model on the data at hand and no full
        evaluation has contradicted it (``n_looks_checked_``,
        ``looks_contradicted_``).
        """
        scores = self._look_scores.get(candidate, {})
        if (not scores or self.looks_contradicted_ or not self.n_looks_checked_
                or self._next_look(candidate) is not None
                or not np.all(np.isfinite(list(scores.values())))):
            return np.inf
        others = [c for c in range(self.n_candidates) if c != candidate
                  and c not in self.dropped_ and c not in self._failed]
        looked = [c for c in others if set(self._look_scores.get(c, {})) & set(scores)]
        total = 0.0
        for other in looked:
            features = self._gap_features(other, candidate)
            total += float(self.gap_model.prob_above(features, self.tol)[0])
        rest = [c for c in others if c not in looked]
        return total + (self.probability_left(rest) if rest else 0.0)

    def _answer_known(self, candidates):
        """Whether `tol` is set, `risk` is positive, and a candidate left beats the best
        by `tol` with probability at most `risk`."""
        return (self.tol is not None and self.risk > 0
                and self.probability_left([*candidates, *sorted(self._extra_var)]) <= self.risk)

    def enough_folds(self, candidate, resource, fold_scores):
        """Whether the first folds of the next pick, scoring `fold_scores`, end its first look.

        See `race`: True once their mean gives `candidate` a posterior
        probability below ``risk / K`` of beating the best candidate
        evaluated on every fold by more than `tol`. Only the sequential
        run's next pick is raced, and never once a fold failed (NaN): the
        evaluation is a failed one.
        """
        return ((candidate, resource) == self.next_decision and resource == self.resource
                and np.isfinite(fold_scores).all()
                and self._race_length(candidate, fold_scores) is not None)

    def _folds_used(self, action, outcome):
        """The folds of `outcome` the run uses, when its first look ends early; else None."""
        if outcome.failed or outcome.fold_scores is None:
            return None
        return self._race_length(action[0], outcome.fold_scores)

    def _race_length(self, candidate, fold_scores):
        """The first folds after which `candidate`, scoring `fold_scores`, is out (see `race`).

        None when it never is, or before any candidate is evaluated on every fold.
        """
        best = self.best_
        if not self.race or best is None or not self._fold_scores:
            return None
        scores = np.asarray(fold_scores, dtype=float)
        for j in range(1, min(len(scores), self.n_folds - 1) + 1):
            look = (candidate, scores[:j].mean(), self.noise**2 + self._look_var(j))
            mean, cov = self._posterior_cov([best, candidate], look=look)
            sd = np.sqrt(max(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1], 1e-24))
            if norm.cdf((mean[1] - mean[0] - self.tol) / sd) < self.risk / self.n_candidates:
                return j
        return None

    def stop_reason(self):
        """Why the sequential run stopped, in words; None while it goes on."""
        if not self.done:
            return None
        left, n = self._available(), self.n_evaluations_
        evaluations = f"{n} evaluation{'' if n == 1 else 's'}"
        if self.settled_ is not None:
            n_looks = sum(len(scores) for scores in self._look_scores.values())
            return (f"the answer is known after {evaluations} and {n_looks} "
                    f"look{'' if n_looks == 1 else 's'} on a subsample: candidate "
                    f"{self.settled_}, selected from its looks: the probability that another "
                    f"scores more than tol={self._tol_shown} above it is at most "
                    f"{self.settled_by_looks(self.settled_):.2g} <= risk={self.risk:g}")
        if not left and self.dropped_:
            return (f"every candidate evaluated or dropped: {n} evaluated, "
                    f"{len(self.dropped_)} dropped by looks")
        if not left:
            return f"every candidate evaluated ({n})"
        if n >= self.n_iter:
            return f"{evaluations} made (n_iter={self.n_iter})"
        firsts = len(self.folds_used_)
        looks = (f", {firsts} of them first look{'' if firsts == 1 else 's'}" if firsts
                 else "")
        if self._look_scores:
            n_looks = sum(len(scores) for scores in self._look_scores.values())
            looks += f", and {n_looks} look{'' if n_looks == 1 else 's'} on a subsample"
        return (f"the answer is known after {evaluations}{looks}: a candidate left beats the "
                f"selected one by more than tol={self._tol_shown} with a probability of at most "
                f"{self.probability_left():.2g} <= risk={self.risk:g}")
