"""GP-UCB's prior fitted to the scores of the dataset at hand.

With ``fit_scale`` (a kernel prior without history) the prior's level and
scale are those of the scores observed (:func:`level_and_scale`); with
``empirical_bayes`` (a prior from earlier datasets) its covariance is scaled
and shrunk towards a shared level by the marginal likelihood of the scores
observed (:func:`scaled_and_shrunk_cov`). :class:`~sksel.gpucb.GPUCBPolicy`
refits after every observation.
"""

import numpy as np

#: Factors of the prior covariance that ``empirical_bayes`` chooses among.
EB_SCALES = tuple(4.0 ** np.arange(-3, 3))
#: Weights of the prior covariance against its shared-level target (1: as given).
EB_WEIGHTS = (0.0, 0.25, 0.5, 0.75, 1.0)
#: Log standard deviation of the log-normal prior of the scale (median 1).
EB_SCALE_SD = np.log(4.0)


def level_and_scale(cov, observed, y, noise):
    """The constant mean of the scores `y` at `observed`, and `cov` scaled to their spread.

    The scale's square is the maximum likelihood estimate from the scores,
    at least ``noise^2``. Returns ``(mean, cov)`` of every candidate.
    """
    n_candidates = len(cov)
    if len(y) == 0:
        return np.zeros(n_candidates), cov
    level = y.mean()
    scale2 = 1.0
    if len(y) >= 2:
        C = cov[np.ix_(observed, observed)] + 1e-8 * np.eye(len(y))
        r = y - level
        # Scores that differ by less than their noise say nothing of the spread:
        # an estimate below the noise would stop the search on a plateau.
        scale2 = max(float(r @ np.linalg.solve(C, r)) / len(y), noise**2)
    return np.full(n_candidates, level), scale2 * cov


def scaled_and_shrunk_cov(mean, cov, observed, y, noise_vars):
    """``scale * ((1 - weight) * target + weight * cov)`` of the highest posterior
    density of the scores `y` at `observed`, over `EB_SCALES` x `EB_WEIGHTS`.

    ``target`` keeps the variances of `cov` and replaces its covariances by
    their mean (clipped to [0, the smallest variance]): the level the
    candidates share, but none of the structure that would reorder them.
    The density is the marginal likelihood of the scores (prior `mean`, the
    observations' noise variances `noise_vars`) times a log-normal prior of
    the scale (median 1, log standard deviation `EB_SCALE_SD`); ties go to
    the least shrunk covariance.
    """
    r = y - mean[observed]
    noise = np.diag(noise_vars)
    target = _shared_level_target(cov)
    best, fitted = -np.inf, cov
    for weight in sorted(EB_WEIGHTS, reverse=True):
        shrunk = weight * cov + (1 - weight) * target
        shrunk_oo = shrunk[np.ix_(observed, observed)]
        for scale in EB_SCALES:
            density = (_gaussian_log_density(r, scale * shrunk_oo + noise)
                       - 0.5 * (np.log(scale) / EB_SCALE_SD) ** 2)
            if density > best + 1e-12:
                best, fitted = density, scale * shrunk
    return fitted


def _shared_level_target(cov):
    """`cov`'s variances with every covariance replaced by their clipped mean."""
    K = len(cov)
    if K < 2:
        return cov.copy()
    level = (cov.sum() - np.trace(cov)) / (K * (K - 1))
    level = min(max(level, 0.0), np.diag(cov).min())
    return np.diag(np.diag(cov) - level) + level


def _gaussian_log_density(r, cov):
    """``log N(r; 0, cov)``."""
    L = np.linalg.cholesky(cov)
    z = np.linalg.solve(L, r)
    return float(-0.5 * z @ z - np.log(np.diag(L)).sum() - 0.5 * len(r) * np.log(2 * np.pi))
