"""DPP and k-DPP samplers of a kernel matrix.

The public names of :mod:`sksel.spaces.dpp`, importable from here as well.
"""

from .spaces.dpp import (
    dpp_map,
    elementary_symmetric_polynomials,
    sample_dpp,
    sample_kdpp,
    sample_kdpp_low_rank,
    sample_kdpp_mcmc,
    sample_sequential,
)

__all__ = ["dpp_map", "elementary_symmetric_polynomials", "sample_dpp", "sample_kdpp",
           "sample_kdpp_low_rank", "sample_kdpp_mcmc", "sample_sequential"]
