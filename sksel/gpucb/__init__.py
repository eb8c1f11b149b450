"""GP-UCB over candidate algorithms, with a prior learned from earlier datasets.

Srinivas, Krause, Kakade and Seeger, "Gaussian Process Optimization in the
Bandit Setting" (ICML 2010), applied to model selection: the scores of K
candidates on a new dataset are modelled as one draw of a Gaussian
``N(mu, Sigma)``. ``mu`` and ``Sigma`` come from the candidates' scores on
earlier datasets (candidates that do well together are correlated), or,
without history, from a kernel over the candidates' configurations (Arc
kernel for conditional spaces: Swersky, Duvenaud, Snoek, Hutter and Osborne,
"Raiders of the Lost Architecture", 2014). Each evaluation is one full
cross-validated fit; after it, the posterior of *every* candidate moves, and
the next candidate is the one with the highest upper confidence bound.

The search estimator (:class:`GPUCBSelector`) is in :mod:`sksel.gpucb.search`,
its policy (:class:`GPUCBPolicy`, no estimator) in :mod:`sksel.gpucb.policy`, the
concerns of its decisions in :mod:`sksel.gpucb.model` (the posterior, looks on
subsamples as observations at their size), :mod:`sksel.gpucb.acquisition` (the
next candidate and size), :mod:`sksel.gpucb.stop`, :mod:`sksel.gpucb.batch` (picks
made while others are pending, GP-BUCB) and :mod:`sksel.gpucb.lookahead`
(speculative steps); what the shipped priors know of the learners a user passes
(``prior="auto"``) in :mod:`sksel.gpucb.known`,
the helpers that turn earlier results into a prior and tune its exploration
(:func:`prior_from_scores`, :func:`tune_beta_scale`) in
:mod:`sksel.gpucb.prior`, the shipped portfolios with their priors and costs
(:func:`default_portfolio`, :func:`default_prior`, :func:`lcdb_portfolio`, ...)
in :mod:`sksel.gpucb.portfolio`, the display of the posterior in
:mod:`sksel.gpucb.display`; all are importable from here.
"""

from .display import PosteriorDisplay
from .policy import GPUCBPolicy
from .portfolio import (
    default_cost,
    default_portfolio,
    default_prior,
    lcdb_cost,
    lcdb_portfolio,
    lcdb_prior,
)
from .prior import (
    BETA_SCALES,
    cost_prior_from_times,
    evaluations_to_best,
    kernel_prior,
    prior_from_scores,
    time_to_best,
    tune_beta_scale,
)
from .search import AUTO_BETA_SCALE, GPUCBSelector

__all__ = ["AUTO_BETA_SCALE", "BETA_SCALES", "GPUCBPolicy", "GPUCBSelector", "PosteriorDisplay",
           "cost_prior_from_times", "default_cost", "default_portfolio", "default_prior",
           "evaluations_to_best", "kernel_prior", "lcdb_cost", "lcdb_portfolio", "lcdb_prior",
           "prior_from_scores", "time_to_best", "tune_beta_scale"]
