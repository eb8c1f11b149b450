"""What the benchmark scripts share: timing a fit and summarizing result rows.

The other shared parts: datasets in ``_datasets.py`` (every KEEL set through
``load_keel``), fixed-width lines in ``_table.py``, and the replay of a policy
on recorded results, :func:`sksel.extend.simulate`.
"""

import time
import warnings
from contextlib import nullcontext
from typing import NamedTuple

import numpy as np
import pandas as pd


class TimedFit(NamedTuple):
    """The fitted search, and the CPU seconds of this process and wall seconds of its fit."""

    search: object
    cpu: float
    wall: float


def timed_fit(search, X, y, *, quiet=False, cpu_clock=time.process_time):
    """Fit `search` on ``(X, y)``; a :class:`TimedFit`.

    With `quiet`, the warnings of the fit are ignored. `cpu_clock` reads the
    CPU seconds (this process's; :func:`process_tree_seconds` for its workers
    too).
    """
    with warnings.catch_warnings() if quiet else nullcontext():
        if quiet:
            warnings.simplefilter("ignore")
        cpu, wall = cpu_clock(), time.perf_counter()
        search.fit(X, y)
        cpu, wall = cpu_clock() - cpu, time.perf_counter() - wall
    return TimedFit(search, cpu, wall)


def grid_learner_scores(grid, name):
    """``{name(learner): mean test score}`` of a :func:`list_peer` ``GridSearchCV``, fitted."""
    return {name(params["estimator"]): float(score)
            for params, score in zip(grid.cv_results_["params"],
                                     grid.cv_results_["mean_test_score"])}


def process_tree_seconds():
    """CPU seconds (user and system) of this process and of its children, live or ended.

    The workers of a search with ``n_jobs > 1`` are child processes; a search
    that ends some of them (cancelling speculative work stops loky's
    processes) would hide their seconds from a count of the live ones alone,
    so the children ended and reaped count too (``RUSAGE_CHILDREN``).
    """
    import resource

    import psutil

    me = psutil.Process()
    ended = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = sum(me.cpu_times()[:2]) + ended.ru_utime + ended.ru_stime
    for child in me.children(recursive=True):
        try:
            total += sum(child.cpu_times()[:2])
        except psutil.NoSuchProcess:
            pass
    return total


def over_pipeline(learners):
    """``(Pipeline, grid)``: a list of learners as the grid of a one-step pipeline's step,
    ``estimator``, the form scikit-learn's searches take such a list in."""
    from sklearn.pipeline import Pipeline

    return Pipeline([("estimator", learners[0])]), {"estimator": learners}


def list_peer(search, learners, folds, n_jobs, seed=0):
    """``GridSearchCV`` or ``HalvingGridSearchCV`` (named by `search`) over a list of learners.

    The learners are the grid of :func:`over_pipeline`; halving runs as
    ``PEERS.md`` says (``resource="n_samples"``, ``factor=3``,
    ``min_resources="exhaust"``).
    """
    from sklearn.experimental import enable_halving_search_cv  # noqa: F401
    from sklearn.model_selection import GridSearchCV, HalvingGridSearchCV

    if search == "GridSearchCV":
        return GridSearchCV(*over_pipeline(learners), cv=folds, n_jobs=n_jobs)
    return HalvingGridSearchCV(*over_pipeline(learners), cv=folds, resource="n_samples",
                               factor=3, min_resources="exhaust", random_state=seed,
                               n_jobs=n_jobs)


def split_grid_scores(results, key):
    """``(grid_scores, table)`` of `results`, one dict per run: ``{(key value, n_jobs):
    GridSearchCV's mean test score by learner}`` and the runs without those scores."""
    grid_scores = {(r[key], r["n_jobs"]): r["grid_scores"] for r in results
                   if r["search"] == "GridSearchCV"}
    table = pd.DataFrame([{k: v for k, v in r.items() if k != "grid_scores"}
                          for r in results])
    return grid_scores, table


def add_ratios_to_grid(table, key):
    """Add ``cpu_vs_grid`` and ``wall_vs_grid`` to `table`: each row's seconds over those of
    ``GridSearchCV``'s row at the same `key` (the dataset's column) and ``n_jobs``."""
    grid = table[table["search"] == "GridSearchCV"].set_index([key, "n_jobs"])
    at = pd.MultiIndex.from_frame(table[[key, "n_jobs"]])
    table["cpu_vs_grid"] = table["cpu_s"].to_numpy() / grid["cpu_s"].reindex(at).to_numpy()
    table["wall_vs_grid"] = table["wall_s"].to_numpy() / grid["wall_s"].reindex(at).to_numpy()
    return table


def geomean(values):
    """Geometric mean of a Series of positive values; NaN skipped (NaN when all are)."""
    return float(np.exp(np.log(values).mean()))


def summarize(results, by, columns, *, overall=None):
    """One row per group of `results`, in order of appearance, one column per `columns` entry.

    Parameters
    ----------
    results : DataFrame
        One row per run.
    by : str or list of str
        The columns that make the groups.
    columns : dict
        ``{name: (column, how)}``: the column `name` of the summary reduces
        the column `column` of each group by `how`, a reduction pandas knows
        (``"mean"``, ``"sem"``, ``"median"``, ``"min"``, ``"max"``,
        ``"sum"``, ``"size"``, ``"count"``), ``"geomean"`` (:func:`geomean`)
        or a function of the group's column.
    overall : str, default=None
        The label of a last row, over all of `results`.

    Returns
    -------
    summary : DataFrame
        Indexed by the groups (and `overall`).
    """
    named = {name: (column, geomean if how == "geomean" else how)
             for name, (column, how) in columns.items()}
    summary = results.groupby(by, sort=False).agg(**named)
    if overall is not None:
        everything = results.assign(_overall=overall).groupby("_overall").agg(**named)
        summary = pd.concat([summary, everything.rename_axis(summary.index.names)])
    return summary
