"""GP-UCB's model: the Gaussian posterior of the candidates' scores, looks on subsamples included.

The candidates' scores at all the training rows are one draw of
``N(mean, cov)`` (fitted to the scores seen with `fit_scale` or
`empirical_bayes`, :mod:`sksel.gpucb.prior_fit`); an evaluation observes one
of them with noise. A look on a subsample is an observation at its size: the
law of learning curves (:mod:`sksel.curves.gap_model`) turns a candidate's
scores at the sizes it and the leader were looked at into an observation of
its full score, with the variance of that law. Mixed into
:class:`~sksel.gpucb.policy.GPUCBPolicy`, whose attributes it reads.
"""

import numpy as np
from scipy.stats import norm

from .prior_fit import level_and_scale, scaled_and_shrunk_cov


class GaussianModel:
    """The posterior of :class:`~sksel.gpucb.policy.GPUCBPolicy` (see the module)."""

    def posterior(self, pending=()):
        """Posterior mean and standard deviation of every candidate.

        Parameters
        ----------
        pending : sequence of int, default=()
            Candidates being evaluated: the variance conditions on them too.

        Returns
        -------
        mean, std : ndarray of shape (K,)
        """
        return self._posterior(pending)

    def prior(self):
        """Prior mean and standard deviation of every candidate.

        The prior that :meth:`posterior` conditions on: with `fit_scale`, its
        level and scale fitted to the scores observed so far; with
        `empirical_bayes`, its covariance scaled and shrunk to them.

        Returns
        -------
        mean, std : ndarray of shape (K,)
        """
        _, mean, cov = self._observed_prior()
        return mean, np.sqrt(np.diag(cov))

    def _observed_list(self):
        """The candidates observed: evaluated (first looks included), then those looked at only."""
        return list(self._observed) + [c for c in self._look_obs if c not in self._observed]

    def _observed_prior(self):
        """``(observed scores, prior mean, prior covariance)`` of the sequential run.

        The scores are those of :meth:`_observed_list`, a look's as the
        observation of the full score it stands for.
        """
        observed = self._observed_list()
        y = np.array([self._observed[c] if c in self._observed else self._look_obs[c][0]
                      for c in observed])
        return (y, *self._prior(observed, y))

    def _posterior(self, pending):
        observed = self._observed_list()
        y, mean, cov = self._observed_prior()
        if observed:
            K_oo = cov[np.ix_(observed, observed)] + np.diag(self._noise_vars(observed))
            mean = mean + cov[:, observed] @ np.linalg.solve(K_oo, y - mean[observed])
        given = observed + [c for c in pending if c not in self._observed]
        var = np.diag(cov).copy()
        if given:
            K_gg = cov[np.ix_(given, given)] + np.diag(self._noise_vars(given))
            K_kg = cov[:, given]
            var -= np.einsum("kg,gk->k", K_kg, np.linalg.solve(K_gg, K_kg.T))
        return mean, np.sqrt(np.maximum(var, 0.0))

    def _posterior_cov(self, candidates, look=None, pending=()):
        """Posterior mean and covariance of `candidates`, given the scores observed.

        `look`, ``(candidate, score, variance)``, is one more observation. The
        covariance also conditions on the candidates `pending`, taken as observed
        at their posterior mean, which leaves the mean as it is (GP-BUCB).
        """
        observed = self._observed_list()
        y, mean, cov = self._observed_prior()
        noise = self._noise_vars(observed)
        if look is not None:
            observed, y, noise = observed + [look[0]], np.r_[y, look[1]], np.r_[noise, look[2]]
        mean_c, cov_c = mean[candidates], cov[np.ix_(candidates, candidates)]
        extra = [c for c in pending if c not in observed]
        if extra:
            given = observed + extra
            K_gg = cov[np.ix_(given, given)] + np.diag(np.r_[noise, self._noise_vars(extra)])
            K_cg = cov[np.ix_(candidates, given)]
            return (self._posterior_cov(candidates, look)[0],
                    cov_c - K_cg @ np.linalg.solve(K_gg, K_cg.T))
        if not observed:
            return mean_c, cov_c
        K_oo = cov[np.ix_(observed, observed)] + np.diag(noise)
        K_co = cov[np.ix_(candidates, observed)]
        solved = np.linalg.solve(K_oo, np.column_stack([y - mean[observed], K_co.T]))
        return mean_c + K_co @ solved[:, 0], cov_c - K_co @ solved[:, 1:]

    def _noise_vars(self, candidates):
        """The variance of the observation of each of `candidates` (a first look's and a look
        on a subsample's: more)."""
        return np.array([self.noise**2 + self._extra_var.get(c, 0.0)
                         + (self._look_obs[c][1] if c in self._look_obs else 0.0)
                         for c in candidates])

    def _prior(self, observed, y):
        """Prior mean and covariance, fitted to the observed scores with `fit_scale` or
        `empirical_bayes`."""
        if self.fit_scale:
            return level_and_scale(self.cov, observed, y, self.noise)
        if not self.empirical_bayes or len(y) == 0:
            return self.mean, self.cov
        key = (tuple(observed), y.tobytes())
        if self._fitted[0] != key:
            self._fitted = (key, scaled_and_shrunk_cov(self.mean, self.cov, observed, y,
                                                       self._noise_vars(observed)))
        return self.mean, self._fitted[1]

    def _use_look(self, action, outcome):
        """Fold in a look on a subsample: the leader's is kept for the gap's features; another
        candidate's becomes an observation of its full score, or drops it (see `looks`)."""
        candidate, size = action
        scores = self._look_scores.setdefault(candidate, {})
        scores[size] = np.nan if outcome.failed else float(outcome.score)
        if candidate in self._observed or outcome.failed or self.looks_contradicted_:
            return
        leader = self.best_
        features = self._gap_features(candidate, leader)
        mean, scale = self.gap_model.mean_scale(features)
        self._look_obs[candidate] = (self._observed[leader] + float(mean[0]),
                                     float(scale[0] * self._look_sd) ** 2)
        if self.gap_model.prob_above(features, self.tol)[0] < self.look_threshold:
            self.dropped_.add(candidate)

    def _check_looks(self, candidate, leader):
        """Check the gap model on `candidate`'s full score against `leader`'s.

        Both evaluated in full, after looks at the same sizes: the model is
        contradicted where their final gap, standardized by the model's mean
        and scale given those looks, lies beyond the model's 0.5% tails (of
        its standardized residuals). The data's learning curves are then
        unlike those the model was fitted on (a learner at chance on a third
        of the rows and perfect on all of them: 5-bit parity), and the looks
        are set aside (:meth:`_set_looks_aside`); otherwise the check counts
        in ``n_looks_checked_``. Nothing is checked without shared looks.
        """
        if leader is None or not set(self._look_scores.get(candidate, {})) & set(
                self._look_scores.get(leader, {})):
            return
        mean, scale = self.gap_model.mean_scale(self._gap_features(candidate, leader))
        gap = self._observed[candidate] - self._observed[leader]
        low, high = self._look_tails
        if low <= (gap - float(mean[0])) / float(scale[0]) <= high:
            self.n_looks_checked_ += 1
        else:
            self._set_looks_aside()

    def _set_looks_aside(self):
        """No more looks, none of them an observation, and no candidate dropped by them: the
        candidates they dropped are candidates again."""
        self.looks_contradicted_ = True
        self.dropped_ = set()
        self._look_obs = {}

    def _gap_features(self, candidate, leader, score=None):
        """The gap model's features of `candidate`'s looks against `leader`'s at the same sizes.

        `score`: the score of `candidate`'s next look, as if made.
        """
        leader_scores = self._look_scores.get(leader, {})
        scores = dict(self._look_scores.get(candidate, {}))
        if score is not None:
            scores[self._next_look(candidate)] = score
        sizes = [n for n in self.looks if n in scores and n in leader_scores]
        return self.gap_model.features([scores[n] for n in sizes],
                                       [leader_scores[n] for n in sizes], sizes, self.resource,
                                       self.n_validation)

    def _look_var(self, j):
        """The variance a mean over `j` folds adds to that over every fold.

        ``v (1 / j - 1 / n_folds)``, ``v`` the variance of one fold's score
        pooled over the candidates evaluated on every fold, at least
        ``noise^2``.
        """
        pooled = np.mean([np.var(s, ddof=1) for s in self._fold_scores.values()])
        return max(pooled, self.noise**2) * (1 / j - 1 / self.n_folds)


def _tail_matched_sd(tails):
    """The standard deviation of the Gaussian whose 0.5% tails are `tails`, ``(low, high)``."""
    low, high = tails
    return float((high - low) / (2 * norm.isf(0.005)))
