"""sksel: model selection for scikit-learn that decides the training each candidate deserves."""

from .daub import DAUBSearch
from .display import AllocationDisplay, BestScoreDisplay, SearchCurvesDisplay
from .gpucb import GPUCBSelector, PosteriorDisplay
from .kdpp import DiversityDisplay, KDPPSampler, KDPPSearch
from .mutant_ucb import FamilyTreeDisplay, MutantUCBSearch

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
