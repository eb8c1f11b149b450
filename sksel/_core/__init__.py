"""The core every search shares, and no method owns.

:mod:`~sksel._core.policy` (the contract between a search and its policy),
:mod:`~sksel._core.trainer` (the contract between a search and its training),
:mod:`~sksel._core.engine` (runs a policy's actions on joblib workers),
:mod:`~sksel._core.deadline` (``max_time``: a first model, the search's share, the refit's),
:mod:`~sksel._core.run` (one fit's evaluations and the listeners that observe
them), :mod:`~sksel._core.results` (``cv_results_`` from the evaluations),
:mod:`~sksel._core.search` (the scikit-learn face, :class:`BaseSelectionSearch`),
:mod:`~sksel._core.scoring` (what the scorer measures),
:mod:`~sksel._core.simulate` (a policy replayed on recorded scores),
:mod:`~sksel._core.checkpoint`, :mod:`~sksel._core.progress`,
:mod:`~sksel._core.naming` (the candidates' names, one rule for the progress
lines, the results and the displays),
:mod:`~sksel._core.dask` and :mod:`~sksel._core.devices`.

scikit-learn's and joblib's private names that they rely on are imported in
one place below every layer, :mod:`sksel._compat`.
"""
