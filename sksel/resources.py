"""How a candidate gets more training: more rows, or more sub-trains.

The public names of :mod:`sksel.training.rows`, :mod:`sksel.training.folds`
and :mod:`sksel.training.subtrain`, importable from here as before the
training layer had a package of its own.
"""

from .training.folds import WholeFolds
from .training.rows import NSamplesResource, nested_permutation
from .training.subtrain import SUBTRAIN_KINDS, Subtrainer, subtrain_kind

__all__ = ["NSamplesResource", "SUBTRAIN_KINDS", "Subtrainer", "WholeFolds",
           "nested_permutation", "subtrain_kind"]
