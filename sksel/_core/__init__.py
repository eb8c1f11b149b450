"""The core every search shares, and no method owns.

:mod:`~sksel._core.policy` (the contract between a search and its policy),
:mod:`~sksel._core.trainer` (the contract between a search and its training),
:mod:`~sksel._core.engine` (runs a policy's actions on joblib workers), and the
concerns of its loop: :mod:`~sksel._core.dispatch` (which task a free worker
takes; the race of an action's folds), :mod:`~sksel._core.idle` (idle tasks),
:mod:`~sksel._core.alarm` (the wait for a result that ends at the deadline),
:mod:`~sksel._core.interrupts` (Ctrl-C), :mod:`~sksel._core.suspects` (workers
that die under their task), :mod:`~sksel._core.workers` (where the tasks run:
threads, GPUs), :mod:`~sksel._core.devices`, :mod:`~sksel._core.dask` and
:mod:`~sksel._core.early_refit`;
:mod:`~sksel._core.deadline` (``max_time``: a first model, the search's share, the refit's),
:mod:`~sksel._core.run` (one fit's evaluations and the listeners that observe
them), :mod:`~sksel._core.results` (``cv_results_`` from the evaluations),
:mod:`~sksel._core.search` (the scikit-learn face, :class:`BaseSelectionSearch`)
and the steps of its fit: :mod:`~sksel._core.validation` (the checks of the
input), :mod:`~sksel._core.search_scoring` (the scorers of a fit),
:mod:`~sksel._core.search_run` (the run on the engine and its listeners),
:mod:`~sksel._core.selection` (the best row, the ranks) and
:mod:`~sksel._core.refit` (the refit on all the rows);
:mod:`~sksel._core.scoring` (what the scorer measures),
:mod:`~sksel._core.simulate` (a policy replayed on recorded scores),
:mod:`~sksel._core.checkpoint`, :mod:`~sksel._core.progress`,
:mod:`~sksel._core.predictions`, :mod:`~sksel._core.missing` and
:mod:`~sksel._core.naming` (the candidates' names, one rule for the progress
lines, the results and the displays).

scikit-learn's and joblib's private names that they rely on are imported in
one place below every layer, :mod:`sksel._compat`.
"""
