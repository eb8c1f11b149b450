"""GPUCBSelector over a plain list of ten learners against GridSearchCV: CPU seconds and pick.

The case of a new user: the ten learners one tries first (logistic regression,
random forest, extra trees, histogram gradient boosting, k nearest neighbours,
Gaussian naive Bayes, a decision tree, LDA, an MLP and XGBoost where it is
installed; small ensembles to keep it short) on a generated table of
``--rows`` rows, 9 features and 24% positives, 5-fold cross-validation, the
same folds for both searches. ``GPUCBSelector`` runs at its defaults
(``prior="kernel"``, which shares nothing between different learners: it
warns so). Each search runs in a fresh process, one after the other, for
every ``--n-jobs``; its CPU seconds are those of that process and of its
workers (``psutil``), the refit included. Printed per search and ``n_jobs``:
CPU and wall seconds, CPU over ``GridSearchCV``'s at the same ``n_jobs``,
the learner picked and its score, and for ``GPUCBSelector`` its full
evaluations, looks on a subsample and the speculative evaluations not used.
CPU seconds vary by 10-20% from run to run on a loaded machine: repeat with
``--repeat``.

    python -m benchmarks bench_gpucb_list [--rows 30000] [--n-jobs 1 2] [--repeat 1]

About 5 minutes at the defaults on two cores; set ``OMP_NUM_THREADS=1`` to
keep the learners' own threads out of the comparison.
"""

import argparse
import json
import subprocess
import sys
import time
import warnings

import numpy as np
import pandas as pd


def learners():
    """The ten learners, XGBoost where it is installed."""
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.ensemble import (
        ExtraTreesClassifier,
        HistGradientBoostingClassifier,
        RandomForestClassifier,
    )
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.neural_network import MLPClassifier
    from sklearn.tree import DecisionTreeClassifier

    found = [LogisticRegression(max_iter=500), RandomForestClassifier(30, random_state=0),
             ExtraTreesClassifier(30, random_state=0),
             HistGradientBoostingClassifier(max_iter=50, random_state=0),
             KNeighborsClassifier(), GaussianNB(), DecisionTreeClassifier(random_state=0),
             LinearDiscriminantAnalysis(), MLPClassifier((32,), max_iter=40, random_state=0)]
    try:
        from xgboost import XGBClassifier
    except ImportError:
        return found
    return found + [XGBClassifier(n_estimators=50, n_jobs=1, random_state=0)]


def _cpu_seconds():
    """User and system seconds of this process and of its live children."""
    import psutil

    me = psutil.Process()
    total = sum(me.cpu_times()[:2])
    for child in me.children(recursive=True):
        try:
            total += sum(child.cpu_times()[:2])
        except psutil.NoSuchProcess:
            pass
    return total


def run_one(search, n_jobs, rows):
    """Fit one search in this process; a dict of what it spent and picked."""
    from sklearn.datasets import make_classification
    from sklearn.model_selection import GridSearchCV, StratifiedKFold
    from sklearn.pipeline import Pipeline

    from sksel import GPUCBSelector

    X, y = make_classification(rows, 9, n_informative=6, n_redundant=2, weights=[0.76],
                               flip_y=0.03, random_state=0)
    folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
    warnings.simplefilter("ignore")
    cpu, wall = _cpu_seconds(), time.perf_counter()
    if search == "GridSearchCV":
        fitted = GridSearchCV(Pipeline([("estimator", learners()[0])]),
                              {"estimator": learners()}, cv=folds, n_jobs=n_jobs).fit(X, y)
        more = {}
    else:
        fitted = GPUCBSelector(learners(), cv=folds, random_state=0, n_jobs=n_jobs).fit(X, y)
        more = {"evaluations": int(fitted.n_iter_), "looks": int(fitted.n_looks_),
                "unused": int(np.sum(fitted.all_cv_results_["speculative"]))}
    return {"search": search, "n_jobs": n_jobs, "cpu_s": _cpu_seconds() - cpu,
            "wall_s": time.perf_counter() - wall,
            "pick": type(fitted.best_params_["estimator"]).__name__,
            "score": float(fitted.best_score_), **more}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=30000)
    parser.add_argument("--n-jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--one", nargs=2, metavar=("SEARCH", "N_JOBS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(run_one(args.one[0], int(args.one[1]), args.rows)))
        return
    rows = []
    for _ in range(args.repeat):
        for n_jobs in args.n_jobs:
            for search in ("GridSearchCV", "GPUCBSelector"):
                out = subprocess.run(
                    [sys.executable, "-m", "benchmarks.bench_gpucb_list", "--one", search,
                     str(n_jobs), "--rows", str(args.rows)],
                    capture_output=True, text=True, check=True)
                rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
    table = pd.DataFrame(rows)
    grid = table[table["search"] == "GridSearchCV"].groupby("n_jobs")["cpu_s"].mean()
    table["cpu_vs_grid"] = table["cpu_s"] / table["n_jobs"].map(grid)
    print(f"{args.rows} rows x 9 features, 24% positives, {len(learners())} learners, 5-fold cv")
    print(table.round(3).to_string(index=False))


if __name__ == "__main__":
    main()
