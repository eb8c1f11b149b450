"""How a candidate gets more training: more rows, whole folds, or continued training.

A *trainer* turns a policy's action ``(candidate, resource)`` into the tasks that
evaluate it on every cross-validation fold (:mod:`sksel._core.trainer`):

- :class:`~sksel.training.rows.RowsTrainer`: the resource is training rows, the
  first rows of nested, stratified subsamples (:func:`nested_permutation`);
- :class:`~sksel.training.folds.FoldsTrainer`: whole folds, one evaluation per
  candidate;
- :class:`~sksel.training.continued.ContinuedTrainer`: the resource is
  sub-trains of a model that goes on training from its state (an epoch, some
  boosting rounds, a ``partial_fit`` pass), a mutant from its parent's
  (:mod:`~sksel.training.inheritance`, :class:`Subtrainer`).
"""

from .continued import ContinuedTrainer
from .folds import FoldsTrainer
from .rows import RowsTrainer, nested_permutation
from .subtrain import SUBTRAIN_KINDS, Subtrainer, subtrain_kind

__all__ = [
    "SUBTRAIN_KINDS",
    "ContinuedTrainer",
    "FoldsTrainer",
    "RowsTrainer",
    "Subtrainer",
    "nested_permutation",
    "subtrain_kind",
]
