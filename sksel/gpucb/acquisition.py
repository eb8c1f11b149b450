"""GP-UCB's acquisition: which candidate to evaluate next, and at which size.

The candidate of highest upper confidence bound, or with costs, of highest
gain of it over the best score per unit of expected cost; a candidate
climbs a ladder of looks on subsamples first where the probability that
they drop it exceeds their price relative to its full evaluation (an
overhead plus a part linear in the rows). Mixed into
:class:`~sksel.gpucb.policy.GPUCBPolicy`, whose attributes it reads.
"""

import numpy as np
from scipy.stats import norm

from ..curves.gap_model import KINDS


class Acquisition:
    """The next step of :class:`~sksel.gpucb.policy.GPUCBPolicy` (see the module)."""

    def beta(self, t):
        """``beta_scale * log(K t^2 / delta)``, the exploration weight of the t-th pick."""
        return self.beta_scale * np.log(self.n_candidates * t**2 / self.delta)

    def _ucb_argmax(self, candidates, pending=()):
        """The candidate of `candidates` to evaluate next; ties by a random order.

        The highest upper bound, or with `cost` the highest gain per cost.
        """
        if not candidates:
            return None
        mean, std = self._posterior(pending)
        t = self.n_evaluations_ + len(pending) + 1
        ucb = mean[candidates] + np.sqrt(self.beta(t)) * std[candidates]
        if self.cost is not None:
            choice = self._cost_argmax(candidates, ucb)
            if choice is not None:
                return choice
        best = [c for c, u in zip(candidates, ucb) if u >= ucb.max() - 1e-12]
        return min(best, key=lambda c: self._tie_rank[c])

    def _cost_argmax(self, candidates, ucb):
        """Argmax of upper-bound gain per expected cost, or None when no gain is positive."""
        candidates, ucb = np.asarray(candidates), np.asarray(ucb)
        if self.budget is not None:
            left = self.budget - sum(self._times.values())
            fits = self._cost_scale() * self.cost[candidates] <= left
            if fits.any():
                candidates, ucb = candidates[fits], ucb[fits]
        gain = self._gain(ucb, candidates)
        if not np.any(gain > 0):
            return None
        value = gain / np.array([self._step_cost(c) for c in candidates])
        best = candidates[value >= value.max() * (1 - 1e-9)]
        return int(min(best, key=lambda c: self._tie_rank[c]))

    def _gain(self, ucb, candidates):
        """``(u(k) - b)^+``: the upper bound's gain over the best score so far."""
        if self._observed:
            baseline = max(self._observed.values())
        else:
            baseline = self._observed_prior()[1].max()
        return np.maximum(ucb - baseline, 0.0)

    @property
    def cost_scale_(self):
        """Observed over predicted fit time, geometric mean (see the class attributes)."""
        return self._cost_scale()

    def _cost_scale(self):
        ratios = [t / self.cost[c] for c, t in self._times.items()] if self.cost is not None \
            else []
        return float(np.exp(np.mean(np.log(ratios)))) if ratios else 1.0

    @property
    def expected_cost_(self):
        """Expected fit time of every candidate (see the class attributes)."""
        return None if self.cost is None else self.cost_scale_ * self.cost

    def _next_step(self, candidate):
        """The action that evaluates `candidate` next: its next look where it climbs the
        looks (the leader's look at that size first, where it has none), else its full
        evaluation."""
        if not self._looks_next(candidate):
            return candidate, self.resource
        size, leader = self._next_look(candidate), self.best_
        if size not in self._look_scores.get(leader, {}):
            return leader, size
        return candidate, size

    def _looks_next(self, candidate):
        """Whether `candidate`'s next evaluation is a look (see `looks`).

        A candidate looked at goes on to its next look size while it has one;
        one not looked at yet starts only where that pays (:meth:`_dropped_by_look`),
        and while the leader's looks all succeeded.
        """
        if (not self.looks or self.looks_contradicted_ or candidate in self._observed
                or self._next_look(candidate) is None):
            return False
        leader = self.best_
        if leader is None or not all(np.isfinite(list(self._look_scores.get(leader, {})
                                                      .values()))):
            return False
        scores = self._look_scores.get(candidate)
        if scores:
            return all(np.isfinite(list(scores.values())))
        return self._dropped_by_look(candidate) > self._look_ratio(candidate)

    def _next_look(self, candidate):
        """The smallest size of `candidate`'s looks (:meth:`_ladder`) it has no look at, or
        None."""
        done = self._look_scores.get(candidate, {})
        return next((n for n in self._ladder(candidate) if n not in done), None)

    def _ladder(self, candidate):
        """The sizes of `candidate`'s looks, increasing: the largest whose prices sum to at
        most `look_share` of its full evaluation's (see `looks`)."""
        return self.looks[len(self.looks) - len(self._ladder_prices(candidate)):]

    def _ladder_prices(self, candidate):
        """The prices (:meth:`_look_prices`) of `candidate`'s looks, those of :meth:`_ladder`."""
        prices = self._look_prices(candidate)
        n_kept = int(np.searchsorted(np.cumsum(prices[::-1]), self.look_share * (1 + 1e-12),
                                     side="right"))
        return prices[len(prices) - n_kept:]

    def _look_prices(self, candidate):
        """The expected cost of each look of `looks` over `candidate`'s full evaluation's.

        ``look_folds / n_folds * min(1, n / resource + o(k))``: an overhead
        plus a part linear in the rows, the overhead ``o(k) = min(look_cost)
        / look_cost(k)``, the cheapest candidate's cost standing for it (0
        without `look_cost`).
        """
        folds = 1.0 if not (self.look_folds and self.n_folds) else min(
            self.look_folds / self.n_folds, 1.0)
        overhead = 0.0 if self.look_cost is None else (self.look_cost.min()
                                                       / self.look_cost[candidate])
        return folds * np.minimum(np.array(self.looks) / self.resource + overhead, 1.0)

    def _look_ratio(self, candidate):
        """The expected cost of `candidate`'s looks over its full evaluation's: the sum of
        the prices of its ladder (:meth:`_look_prices`), at most `look_share`."""
        return float(np.sum(self._ladder_prices(candidate)))

    def _dropped_by_look(self, candidate):
        """The probability that `candidate`'s looks drop it, before they are made.

        Taken as that of its last look, the largest of its ladder
        (:meth:`_ladder`): a look drops a candidate when the gap model's mean
        of its final gap to the leader falls below ``m*``, the mean at the
        look gap where the model's probability of a
        gap above `tol` is `look_threshold`. Before the look, that mean is
        taken as the posterior's gap ``d = f(k) - f(b)`` plus the model's
        error there: the probability is ``Phi((m* - E d) / sqrt(Var d +
        v))``, ``v`` the variance of a look's observation.
        """
        leader = self.best_
        bar, var = self._drop_bar(leader, self._ladder(candidate)[-1])
        mean, cov = self._posterior_cov([leader, candidate])
        var_d = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
        return float(norm.cdf((bar - (mean[1] - mean[0])) / np.sqrt(var_d + var)))

    def _within_scores(self, score):
        """`score` within the scores the gap model's kind can take: [0, 1] for accuracies,
        at most 1 and at least the lowest its features count (-1) for R²."""
        return min(max(score, KINDS[self.gap_model.kind]), 1.0)

    def _drop_bar(self, leader, size):
        """``(m*, v)`` of a last look at `size` rows against `leader` (see
        :meth:`_dropped_by_look`)."""
        leader_score = self._look_scores.get(leader, {}).get(size, self._observed[leader])
        key = (leader, leader_score, size)
        if key not in self._bar_cache:
            low, high = -1.0, self.tol + 1.0
            for _ in range(40):  # bisection: the probability grows with the look gap
                gap = (low + high) / 2
                score = self._within_scores(leader_score + gap)
                features = self.gap_model.features([score], [leader_score], [size],
                                                   self.resource, self.n_validation)
                if self.gap_model.prob_above(features, self.tol)[0] < self.look_threshold:
                    low = gap
                else:
                    high = gap
            mean, scale = self.gap_model.mean_scale(features)
            self._bar_cache[key] = (float(mean[0]), float(scale[0] * self._look_sd) ** 2)
        return self._bar_cache[key]

    def _step_cost(self, candidate):
        """The expected cost of evaluating `candidate`, relative: with a look first, the look's
        plus the full evaluation's when the look does not drop it."""
        if not self._looks_next(candidate):
            return self.cost[candidate]
        return self.cost[candidate] * (self._look_ratio(candidate)
                                       + 1.0 - self._dropped_by_look(candidate))


def _checked_cost(cost, n_candidates):
    """`cost` as floats, once it holds `n_candidates` positive, finite numbers."""
    cost = np.asarray(cost, dtype=float)
    if cost.shape != (n_candidates,) or not np.all(np.isfinite(cost) & (cost > 0)):
        raise ValueError(f"cost must hold {n_candidates} positive numbers, one per "
                         f"candidate; got {cost!r}.")
    return cost
