"""k-DPP random search: diverse configurations, all evaluated in parallel.

Dodge, Anderson and Smith, "Random Search for Hyperparameters using
Determinantal Point Processes" (2017); Dodge, Jamieson and Smith, "Open Loop
Hyperparameter Optimization and Determinantal Point Processes" (2017).

Random search draws `k` configurations independently; a k-DPP draws them
together, so that they cover the space (see :mod:`sksel.spaces.sampler`).

The sampler (:class:`KDPPSampler`, usable wherever a list of configurations
is wanted, e.g. to give :class:`~sksel.DAUBSearch` its candidates) is shared,
in :mod:`sksel.spaces.sampler`; the search estimator built on it
(:class:`KDPPSearch`) is in :mod:`sksel.kdpp.search`, its policy (evaluate
every configuration drawn) in :mod:`sksel.kdpp.policy`. Both are importable
from here.
"""

from ..spaces.sampler import KDPPSampler
from .display import DiversityDisplay
from .policy import EvaluateAll
from .search import KDPPSearch

__all__ = ["DiversityDisplay", "EvaluateAll", "KDPPSampler", "KDPPSearch"]
