"""Time scikit-learn's (and XGBoost's) learners at growing sizes: the shipped cost of each.

DAUBSearch decides before each rung whether the rung pays (what it costs
against what it is expected to save), from what each learner is predicted to
cost on a number of rows (:mod:`sksel.daub.learner_cost`), not from what it
measured, so that the same seed gives the same search. This script measures
those predictions once: every learner below (one per class, at the
parameters of the template) is fitted on ``make_classification`` (binary,
20 features) or ``make_regression`` (20 features) at 50, 150, 450, 1,350,
4,050 and 12,150 rows and scored on 1,000 validation rows, single-threaded; the CPU seconds of fit
and scoring, the median of three repeats, are read as ``a + b * rows ** e``
(:func:`sksel.daub.cost.fit_cost`). The table (``sksel/data/learner_cost.csv``)
holds, per class name, ``a``, ``b``, ``e`` and the template's value of the
parameter that scales the learner's work (``n_estimators``, ``max_iter``),
which the prediction scales by the user's.

Run::

    python -m benchmarks build_learner_cost [--dry-run]

It takes about 6 minutes on one core.
"""

import argparse
import csv
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.datasets import make_classification, make_regression
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis
from sklearn.ensemble import (
    AdaBoostClassifier,
    AdaBoostRegressor,
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    GradientBoostingClassifier,
    GradientBoostingRegressor,
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.linear_model import (
    ElasticNet,
    Lasso,
    LinearRegression,
    LogisticRegression,
    Ridge,
    RidgeClassifier,
    SGDClassifier,
    SGDRegressor,
)
from sklearn.naive_bayes import BernoulliNB, GaussianNB
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor, NearestCentroid
from sklearn.neural_network import MLPClassifier, MLPRegressor
from sklearn.svm import SVC, SVR, LinearSVC, LinearSVR
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from threadpoolctl import threadpool_limits
from xgboost import XGBClassifier, XGBRegressor

from sksel.daub.cost import fit_cost
from sksel.daub.learner_cost import COST_TABLE, SCALED_BY

SIZES = (50, 150, 450, 1350, 4050, 12150)
N_VALIDATION, N_FEATURES, REPEATS = 1000, 20, 3

TEMPLATES = [  # (unfitted learner, task)
    (LogisticRegression(max_iter=500), "classification"),
    (LinearSVC(), "classification"),
    (RidgeClassifier(), "classification"),
    (SGDClassifier(early_stopping=True, random_state=0), "classification"),
    (LinearDiscriminantAnalysis(), "classification"),
    (QuadraticDiscriminantAnalysis(reg_param=0.1), "classification"),
    (GaussianNB(), "classification"),
    (BernoulliNB(), "classification"),
    (NearestCentroid(), "classification"),
    (KNeighborsClassifier(), "classification"),
    (SVC(), "classification"),
    (DecisionTreeClassifier(random_state=0), "classification"),
    (RandomForestClassifier(random_state=0), "classification"),
    (ExtraTreesClassifier(random_state=0), "classification"),
    (HistGradientBoostingClassifier(random_state=0), "classification"),
    (GradientBoostingClassifier(random_state=0), "classification"),
    (AdaBoostClassifier(random_state=0), "classification"),
    (XGBClassifier(n_jobs=1, random_state=0), "classification"),
    (MLPClassifier(random_state=0), "classification"),
    (LinearRegression(), "regression"),
    (Ridge(), "regression"),
    (Lasso(alpha=0.1), "regression"),
    (ElasticNet(alpha=0.1), "regression"),
    (SGDRegressor(early_stopping=True, random_state=0), "regression"),
    (LinearSVR(), "regression"),
    (KNeighborsRegressor(), "regression"),
    (SVR(), "regression"),
    (DecisionTreeRegressor(random_state=0), "regression"),
    (RandomForestRegressor(random_state=0), "regression"),
    (ExtraTreesRegressor(random_state=0), "regression"),
    (HistGradientBoostingRegressor(random_state=0), "regression"),
    (GradientBoostingRegressor(random_state=0), "regression"),
    (AdaBoostRegressor(random_state=0), "regression"),
    (XGBRegressor(n_jobs=1, random_state=0), "regression"),
    (MLPRegressor(random_state=0), "regression"),
]


def data(task, n_rows):
    """``(X_train, y_train, X_valid, y_valid)`` of `n_rows` training rows, 20 features."""
    n = n_rows + N_VALIDATION
    if task == "classification":
        X, y = make_classification(n, N_FEATURES, n_informative=8, random_state=0)
    else:
        X, y = make_regression(n, N_FEATURES, n_informative=8, noise=10.0, random_state=0)
    return X[:n_rows], y[:n_rows], X[n_rows:], y[n_rows:]


def seconds(learner, task, n_rows):
    """Median CPU seconds of fitting `learner` on `n_rows` rows and scoring it."""
    X, y, X_valid, y_valid = data(task, n_rows)
    times = []
    for _ in range(REPEATS):
        est = learner.__class__(**learner.get_params())
        start = time.process_time()
        est.fit(X, y)
        est.score(X_valid, y_valid)
        times.append(time.process_time() - start)
    return float(np.median(times))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dry-run", action="store_true", help="print, write nothing")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    rows = []
    with threadpool_limits(1):
        for learner, task in TEMPLATES:
            name = type(learner).__name__
            sizes = list(SIZES)
            times = [seconds(learner, task, n) for n in sizes]
            a, b, e = fit_cost(sizes, times)
            param = SCALED_BY.get(name)
            reference = learner.get_params()[param] if param else ""
            rows.append(dict(learner=name, a=f"{a:.4g}", b=f"{b:.4g}", e=f"{e:g}",
                             reference=reference))
            print(f"{name:32s} a={a:.4f} b={b:.3g} e={e:g}  "
                  + " ".join(f"{n}:{t:.3f}" for n, t in zip(sizes, times)), flush=True)
    if not args.dry_run:
        with open(COST_TABLE, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        print(f"wrote {Path(COST_TABLE).name}")


if __name__ == "__main__":
    main()
