"""Search spaces, the kernels over their configurations, and samplers that draw from them.

:mod:`~sksel.spaces.space` (:class:`~sksel.spaces.SearchSpace`: grids,
distributions, tree-structured spaces, features and mutation), with
:mod:`~sksel.spaces.validation` (the space as given, checked, into branches)
and :mod:`~sksel.spaces.params` (each parameter's draws, moves and encoding);
:mod:`~sksel.spaces.kernels` (RBF and Arc kernels), :mod:`~sksel.spaces.dpp`
(k-DPP samplers of a kernel matrix) and :mod:`~sksel.spaces.sampler`
(:class:`~sksel.KDPPSampler`, diverse configurations of a space).
"""

from .dpp import (
    dpp_map,
    elementary_symmetric_polynomials,
    sample_dpp,
    sample_kdpp,
    sample_kdpp_low_rank,
    sample_kdpp_mcmc,
    sample_sequential,
)
from .kernels import (
    arc_embedding,
    arc_kernel,
    configuration_kernel,
    default_bandwidth,
    rbf_kernel,
)
from .sampler import KDPPSampler
from .space import SearchSpace, first_estimator

__all__ = [
    "KDPPSampler",
    "SearchSpace",
    "arc_embedding",
    "arc_kernel",
    "configuration_kernel",
    "default_bandwidth",
    "dpp_map",
    "elementary_symmetric_polynomials",
    "first_estimator",
    "rbf_kernel",
    "sample_dpp",
    "sample_kdpp",
    "sample_kdpp_low_rank",
    "sample_kdpp_mcmc",
    "sample_sequential",
]
