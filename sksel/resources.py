"""How a candidate gets more training: more rows, or more sub-trains.

The public names of :mod:`sksel.training.rows`, :mod:`sksel.training.folds`
and :mod:`sksel.training.subtrain`, importable from here as before the
training layer had a package of its own: :class:`NSamplesResource` is
:class:`~sksel.training.rows.RowsTrainer` and :class:`WholeFolds` is
:class:`~sksel.training.folds.FoldsTrainer`.
"""

from .training.folds import FoldsTrainer as WholeFolds
from .training.rows import RowsTrainer as NSamplesResource
from .training.rows import nested_permutation
from .training.subtrain import SUBTRAIN_KINDS, Subtrainer, subtrain_kind

__all__ = ["NSamplesResource", "SUBTRAIN_KINDS", "Subtrainer", "WholeFolds",
           "nested_permutation", "subtrain_kind"]
