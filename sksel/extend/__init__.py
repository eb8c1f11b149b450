"""Writing a search method of your own: the contract sksel's four searches follow.

A search method is a *policy*, which decides which evaluations run and knows
nothing of estimators, and a *search*, the scikit-learn estimator that
gives the policy a trainer and turns its evaluations into ``cv_results_``.

- :class:`Policy` declares what the search calls on a policy: ``ask``,
  ``tell``, ``done``, ``decisions_`` and ``history_``, and the optional
  members with their defaults (racing the folds, reading training scores,
  progress columns, results columns, the reason it stopped).
  :class:`SequentialPolicy` is the base of the policies whose decisions are
  those of their one-worker run, so that any number of workers gives the same
  results. An :class:`Action` is what a policy hands out: a candidate and
  the resource it gets.
- :class:`Trainer` says what a resource means: rows
  (:class:`~sksel.training.RowsTrainer`), sub-trains of a model that goes on
  training (:class:`~sksel.training.ContinuedTrainer`) or whole folds
  (:class:`~sksel.training.FoldsTrainer`); it is a :class:`Listener` of the
  evaluations, as the checkpoint and the progress report are.
- :class:`BaseSelectionSearch` is the scikit-learn face: a subclass declares
  its parameters (:data:`Interval`, :data:`StrOptions`, as scikit-learn's
  ``_parameter_constraints``) and implements ``_candidates``,
  ``_make_policy``, ``_progress_budget``, ``_largest_resource`` and
  ``_display_info`` (a :class:`DisplayInfo`), and may name its resource in
  the progress lines (``_resource_unit``, ``"resource"`` by default). :func:`runs_in_process` and
  :func:`runs_on_dask` say where its tasks will run, for a trainer that
  keeps state between them.
- :func:`simulate` replays a policy on recorded scores with any number of
  simulated workers, as the engine runs it: for tests and for tuning.

The conformance suite of the tests runs a fifth search, asynchronous
successive halving, written on these names only (``tests/asha_rows.py``,
``tests/asha_epochs.py``).
"""

from .._compat import Interval, StrOptions
from .._core.policy import Action, Outcome, Policy, SequentialPolicy
from .._core.run import Listener
from .._core.search import BaseSelectionSearch, DisplayInfo
from .._core.simulate import simulate
from .._core.trainer import Trainer
from .._core.workers import runs_in_process, runs_on_dask

__all__ = [
    "Action",
    "BaseSelectionSearch",
    "DisplayInfo",
    "Interval",
    "Listener",
    "Outcome",
    "Policy",
    "SequentialPolicy",
    "StrOptions",
    "Trainer",
    "runs_in_process",
    "runs_on_dask",
    "simulate",
]
