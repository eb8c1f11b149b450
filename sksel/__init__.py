"""sksel: pick the best model while spending a fraction of a grid search's training."""

from .daub import DAUBSearch
from .display import (
    AllocationDisplay,
    BestScoreDisplay,
    DiversityDisplay,
    FamilyTreeDisplay,
    PosteriorDisplay,
    SearchCurvesDisplay,
)
from .gpucb import GPUCBSelector
from .kdpp import KDPPSampler, KDPPSearch
from .mutant_ucb import MutantUCBSearch

__version__ = "0.1.0.dev0"

__all__ = [
    "AllocationDisplay",
    "BestScoreDisplay",
    "DAUBSearch",
    "DiversityDisplay",
    "FamilyTreeDisplay",
    "GPUCBSelector",
    "KDPPSampler",
    "KDPPSearch",
    "MutantUCBSearch",
    "PosteriorDisplay",
    "SearchCurvesDisplay",
]
