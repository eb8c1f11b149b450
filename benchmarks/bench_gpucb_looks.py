"""GPUCBSelector's looks on a subsample and cost-aware choice, replayed on LCDB's curves.

Nothing is trained. On every LCDB dataset (its learning curves averaged over
seeds, ``lcdb_replay.make_tasks``: 180 datasets x up to 20 learners, N the
largest size most learners reach), :class:`sksel.gpucb.GPUCBPolicy` is run
with the prior of the other datasets (``prior_from_scores``), ``tol=0.01``,
``risk=0.1``, empirical Bayes and the selector's ``beta_scale``, and every
action reads its outcome off the curves: a full evaluation the score and the
training seconds at N, a look the score and the seconds at the anchor
nearest N/9. Variants:

* ``no looks``: the choice by upper bound, every candidate evaluated at N
  (``GPUCBSelector(looks=False)``);
* ``looks, threshold t``: looks at N/27, N/9 and N/3 (the anchors nearest),
  the gap model of :mod:`sksel.curves.gap_model` (fitted on the ``tune``
  half's curves) dropping a candidate below probability ``t``; the looks
  priced by the costs learned from the other datasets' seconds at their N
  (``cost_prior_from_times``);
* ``looks N/9, N/3, threshold 0.05``: a shorter ladder;
* ``cost`` and ``cost, looks, threshold 0.05``: the choice by upper-bound gain
  per expected cost instead (``cost="prior"``).

The default threshold is chosen on the ``tune`` half: the largest whose
share of datasets losing more than ``tol`` has a one-sided 90% upper bound
(Clopper-Pearson, ``share_upper90``) of at most ``risk``. The seconds of the
default over those without looks are also printed by N, the training rows:
the size from which ``looks="auto"`` looks.

Measured per dataset: the seconds spent (full evaluations and looks) over
training every learner at N, the regret (points), the full evaluations,
the looks, and the full evaluations until the best learner is evaluated.
Printed per half (``tune``: even OpenML ids, where the gap model was fitted
and the defaults are chosen; ``report``: odd ids): means, quantiles of the
cost ratio, share of datasets whose regret exceeds ``tol`` (the stop's
calibration: at most ``risk``), and with ``--workers 2`` the worker time of
two simulated workers over one's.

Run::

    pip install --no-deps lcdb
    python -m benchmarks bench_gpucb_looks [--workers 1 2] [--out looks.csv]

About 5 minutes on one core (reading LCDB's CSV about 20 s).
"""

import argparse
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import beta

from benchmarks.lcdb_replay import final_size_matrix, half, lcdb_csv_path, load_curves, make_tasks
from sksel.curves.gap_model import shipped_model
from sksel.extend import simulate
from sksel.gpucb import AUTO_BETA_SCALE, GPUCBPolicy, cost_prior_from_times, prior_from_scores

TOL, RISK, NOISE, DELTA = 0.01, 0.1, 0.01, 0.1
#: The variant with GPUCBSelector's defaults, and the sizes its cost is broken down by.
DEFAULT = "looks, threshold 0.05"
N_BUCKETS = [1000, 2000, 4000, 8000, 10**7]
#: Variant -> (cost: None, "prior" or "oracle"; look divisor or None).
VARIANTS = {
    "no looks": (None, ()),
    "looks, threshold 0.02": (None, (27, 9, 3), 0.02),
    "looks, threshold 0.05": (None, (27, 9, 3), 0.05),
    "looks, threshold 0.1": (None, (27, 9, 3), 0.1),
    "looks, threshold 0.15": (None, (27, 9, 3), 0.15),
    "looks N/9, N/3, threshold 0.05": (None, (9, 3), 0.05),
    "cost": ("prior", ()),
    "cost, looks, threshold 0.05": ("prior", (27, 9, 3), 0.05),
}


def replay_task(task, i, M, T, learners, variants, n_workers):
    """Rows of one dataset: one per (variant, workers)."""
    known = [learners.index(name) for name in task.learners]
    scores, seconds = task.valid, task.fit_time
    mean, cov = prior_from_scores(np.delete(M, i, axis=0))
    mean, cov = mean[known], cov[np.ix_(known, known)]
    prior_cost = cost_prior_from_times(np.delete(T, i, axis=0))[known]
    N, best = int(task.anchors[-1]), scores[:, -1].max()
    rows = []
    for name in variants:
        cost_kind, divisors, *threshold = VARIANTS[name]
        looks = [int(task.anchors[np.argmin(np.abs(np.log(task.anchors[:-1])
                                                   - np.log(N / divisor)))])
                 for divisor in divisors]
        cost = {None: None, "prior": prior_cost, "oracle": seconds[:, -1]}[cost_kind]
        column = {int(a): j for j, a in enumerate(task.anchors)}
        for workers in n_workers:
            policy = GPUCBPolicy(mean, cov, noise=NOISE, delta=DELTA,
                                 beta_scale=AUTO_BETA_SCALE, tol=TOL, risk=RISK,
                                 empirical_bayes=True, random_state=0, resource=N, cost=cost,
                                 looks=looks, gap_model=shipped_model(),
                                 n_validation=task.noise.keywords["n_validation"],
                                 look_threshold=threshold[0] if threshold else 0.05,
                                 look_cost=prior_cost)
            run = simulate(policy, lambda c, r: scores[c, column[r]], n_workers=workers,
                           durations=lambda c, r: seconds[c, column[r]])
            full = [c for c, r in policy.decisions_ if r == N]
            order = np.array(full)
            reached = np.flatnonzero(scores[order, -1] >= best)
            look_seconds = sum(seconds[c, column[r]] for (c, r), *_ in run.events if r != N)
            rows.append({
                "half": half(task.openmlid), "dataset": task.openmlid, "variant": name,
                "workers": workers, "N": N, "K": len(known),
                "cost_x_all": run.busy_time / seconds[:, -1].sum(),
                "look_share": look_seconds / max(run.busy_time, 1e-12),
                "regret": 100 * (best - scores[policy.best_, -1]),
                "evals": len(full), "looks": sum(map(len, policy.look_scores_.values())),
                "evals_to_best": int(reached[0]) + 1 if len(reached) else np.nan,
            })
    return rows


def report(results):
    """Print, per half and variant: means, cost quantiles, calibration."""
    options = ("display.width", 200, "display.max_columns", 30)
    for (part, workers), frame in results.groupby(["half", "workers"], sort=False):
        grouped = frame.groupby("variant", sort=False)
        table = grouped[["cost_x_all", "look_share", "regret", "evals", "looks",
                         "evals_to_best"]].mean()
        table["cost_median"] = grouped["cost_x_all"].median()
        table["cost_p90"] = grouped["cost_x_all"].quantile(0.9)
        table["slower_than_all"] = grouped["cost_x_all"].apply(lambda c: np.mean(c > 1))
        table["regret_max"] = grouped["regret"].max()
        table["share_over_tol"] = grouped["regret"].apply(lambda r: np.mean(r > 100 * TOL))
        table["share_upper90"] = grouped["regret"].apply(
            lambda r: beta.ppf(0.9, np.sum(r > 100 * TOL) + 1, np.sum(r <= 100 * TOL)))
        print(f"\n== {part} half, {workers} worker(s), {frame['dataset'].nunique()} datasets "
              "(cost_x_all: seconds spent over training every learner at N)")
        with pd.option_context(*options):
            print(table.to_string(float_format="%.3f"))
    one = results[results["workers"] == results["workers"].min()]
    if {"no looks", DEFAULT} <= set(one["variant"]):
        wide = one.pivot_table(index=["half", "dataset", "N"], columns="variant",
                               values="cost_x_all").reset_index()
        wide["ratio"] = wide[DEFAULT] / wide["no looks"]
        wide["N"] = pd.cut(wide["N"], N_BUCKETS)
        print(f"\n== seconds of '{DEFAULT}' over 'no looks', by N (the training rows)")
        print(wide.groupby(["half", "N"], observed=True)["ratio"].agg(
            ["count", "mean", "median"]).to_string(float_format="%.3f"))
    if results["workers"].nunique() > 1:
        wide = results.pivot_table(index=["half", "dataset", "variant"], columns="workers",
                                   values="cost_x_all")
        ratio = (wide[max(wide.columns)] / wide[min(wide.columns)]).groupby(
            ["half", "variant"], sort=False).agg(["mean", "max"])
        print("\n== worker time at the most workers over one worker's")
        print(ratio.to_string(float_format="%.3f"))


def parse_args(argv=None):
    """Command-line options (see ``--help``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS),
                        metavar="NAME")
    parser.add_argument("--workers", nargs="+", type=int, default=[1])
    parser.add_argument("--csv", type=Path, help="LCDB's database-accuracy.csv")
    parser.add_argument("--out", type=Path, help="write the per-dataset rows here")
    return parser.parse_args(argv)


def main(argv=None):
    """Replay every variant on every dataset, print the tables, write --out."""
    args = parse_args(argv)
    start = time.perf_counter()
    tasks, _ = make_tasks(load_curves(args.csv or lcdb_csv_path()))
    learners = sorted({name for task in tasks for name in task.learners})
    M = final_size_matrix(tasks, learners)
    T = final_size_matrix(tasks, learners, field="fit_time")
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for i, task in enumerate(tasks):
            rows += replay_task(task, i, M, T, learners, args.variants, args.workers)
    results = pd.DataFrame(rows)
    report(results)
    if args.out:
        results.to_csv(args.out, index=False)
    print(f"\nwall time {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
