"""Replay model-selection policies on LCDB's real learning curves, without training.

LCDB (Mohr et al.) holds the learning curves of 20 scikit-learn classifiers on
248 OpenML datasets: validation, test and training accuracy and training time
at training sizes 16, 23, 32, 45, ... (a factor sqrt(2) apart) up to each
dataset's full training set. Since every (learner, size) outcome is already
there, a policy that decides "which learner gets how many rows next" can be
replayed on them: its choice costs the recorded training time and its pick is
judged by the recorded scores at the full size. This script measures, per
dataset and then on average:

* the **loss**: best validation accuracy at the full size N minus that of the
  learner the policy picks, in percentage points (and the same regret with
  test accuracy, where the "train all" policy has a loss too, since it selects
  on validation accuracy);
* the **cost**: the summed training time of every (learner, size) the policy
  trains, against training every learner on N.

Policies: train every learner on N ("train all", the reference), successive
halving (sklearn's ``HalvingGridSearchCV`` schedule replayed on the anchors)
and :class:`sksel.daub.DAUBPolicy` in the variants listed in `DAUB_VARIANTS`,
each on the allocation sizes of `--daub-steps`.

Bound coverage
--------------
With ``--coverage`` the script measures instead how often the upper bound of
the defaults (`_DEFAULTS`, with the ``"auto"``, ``"linear"`` and ``"log"``
projections) covers the score it bounds: for every dataset, learner and prefix
of at least two points of its curve on DAUB's sizes below N, whether the bound
from that prefix is at least the learner's score at N minus its standard
error there. It reports the share covered, overall, on the prefixes DAUB
decides on, by prefix length and by how far below N the prefix ends; the mean
shortfall of the misses; and the misses of the best learner at N, each of
which implies the loss of its lead over the next learner if it were cut
there. It then replays the defaults and splits their losses between the
datasets where a bound of the best learner missed and the others. Every
table is given for the two halves of the datasets: defaults are chosen on the
"tune" half (even OpenML ids) and checked on the "report" half (odd ids).

Data preparation
----------------
* Scores are accuracies (higher is better); seeds (5 outer x 5 inner, more
  for a few anchors) are averaged per (dataset, learner, size).
* Learners stop early on some datasets (time-outs), and some learners are
  missing on whole datasets. N is the largest anchor reached by at least
  `--min-reach` (default 90%) of the learners present on the dataset;
  learners without a value at N are dropped from that dataset.
* Anchors at which a kept learner has no value (a few small-size holes,
  mostly QuadraticDiscriminantAnalysis) are removed from the dataset's grid.
* Datasets with N < `--min-n` or fewer than `--min-learners` learners left
  are skipped.

Usage
-----
::

    pip install --no-deps lcdb          # 459 MB of CSVs; only the CSV is read
    pip install -e .                    # or run with PYTHONPATH=. from the repo root
    python -m benchmarks lcdb_replay [--daub-steps 1 2] [--out results.csv]
    python -m benchmarks lcdb_replay --coverage [--daub-steps 2 3]
    python -m benchmarks lcdb_replay --late-bloomers --daub-steps 2

It takes about 25 s on one core (``--coverage --daub-steps 2 3``: about 15 s).
"""
import argparse
import importlib.util
import math
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from benchmarks import _harness
from sksel.daub import DAUBPolicy, accuracy_noise
from sksel.extend import simulate

#: :class:`DAUBPolicy`'s options as DAUBSearch(risk=0) sets them on a holdout.
_DEFAULTS = {"bound": "prior", "projection": "auto", "max_score": 1.0, "noise": "auto",
             "stop": "strict", "tol": 0.005, "warm_up": 3, "jump": 3.0, "cost": "time",
             "budget": 1.1}
#: The halves of LCDB's datasets (see `half`).
HALVES = ("tune", "report")
#: Projections whose bound coverage ``--coverage`` measures (the shipped one too).
COVERAGE_PROJECTIONS = ("auto", "linear", "log")
DAUB_VARIANTS = {
    "paper": {},
    "sksel defaults": _DEFAULTS,
    "defaults, projection=linear": {**_DEFAULTS, "projection": "linear"},
    "defaults, projection=log": {**_DEFAULTS, "projection": "log"},
    "defaults, bound=slope": {**_DEFAULTS, "bound": "slope"},
    "defaults, cost=rows": {**_DEFAULTS, "cost": "rows"},
    "defaults, bound=slope, cost=rows": {**_DEFAULTS, "bound": "slope", "cost": "rows"},
    "defaults, bound=train": {**_DEFAULTS, "bound": "train"},
    "defaults, noise=0": {**_DEFAULTS, "noise": 0.0},
    "defaults, stop=first": {**_DEFAULTS, "stop": "first"},
    "defaults, tol=0": {**_DEFAULTS, "tol": 0.0},
    "defaults, warm-up on 2 sizes": {**_DEFAULTS, "warm_up": 2},
    "defaults, jump=1": {**_DEFAULTS, "jump": 1.0},
    "defaults, no budget": {**_DEFAULTS, "budget": None},
}

_COLUMNS = {
    "openmlid": "int32",
    "learner": "category",
    "size_train": "int64",
    "traintime": "float64",
    "score_train": "float64",
    "score_valid": "float64",
    "score_test": "float64",
    "size_test": "float64",
}


@dataclass
class Task:
    """The learning curves of one dataset, on a common grid of anchors.

    Arrays are ``(n_learners, n_anchors)``; the last anchor is N.
    """

    openmlid: int
    learners: list
    anchors: np.ndarray
    valid: np.ndarray
    train: np.ndarray
    test: np.ndarray
    fit_time: np.ndarray
    noise: object  # a score -> its standard error


@dataclass
class Outcome:
    """What one policy did on one task: the learner it picked and its summed fit time."""

    pick: int
    cost: float


def lcdb_csv_path():
    """Path of ``database-accuracy.csv`` in the installed ``lcdb`` package."""
    spec = importlib.util.find_spec("lcdb")
    if spec is None or spec.origin is None:
        raise SystemExit("LCDB is not installed: pip install --no-deps lcdb")
    return Path(spec.origin).parent / "database-accuracy.csv"


def load_curves(path):
    """Read the LCDB accuracy table and average it over seeds.

    Returns
    -------
    curves : DataFrame
        Indexed by ``(openmlid, learner, size_train)``, sorted, with the mean
        ``score_valid``, ``score_train``, ``score_test`` and ``traintime``.
    """
    raw = pd.read_csv(path, usecols=list(_COLUMNS), dtype=_COLUMNS)
    return raw.groupby(["openmlid", "learner", "size_train"], observed=True).mean()


def make_task(openmlid, curves, min_reach):
    """Build the `Task` of one dataset: choose N, drop late learners and holes.

    Parameters
    ----------
    openmlid : int
        The dataset.
    curves : DataFrame
        Its rows of `load_curves`, indexed by ``(learner, size_train)``.
    min_reach : float
        Fraction of the dataset's learners that must have reached N.

    Returns
    -------
    task : Task
    """
    valid = curves["score_valid"].unstack()  # learners x anchors, NaN where missing
    n_learners = len(valid)
    reached = valid.notna().sum(axis=0)
    n_total = reached.index[reached >= math.ceil(min_reach * n_learners)].max()
    kept = valid.index[valid[n_total].notna()]
    grid = valid.loc[kept, :n_total].dropna(axis=1).columns

    def table(column):
        return curves[column].unstack().loc[kept, grid].to_numpy()

    return Task(
        openmlid=int(openmlid),
        learners=list(kept),
        anchors=grid.to_numpy(),
        valid=table("score_valid"),
        train=table("score_train"),
        test=table("score_test"),
        fit_time=table("traintime"),
        noise=_noise(curves),
    )


def _noise(curves, n_seeds=25):
    """Standard error of a seed-averaged accuracy (DAUBSearch's ``noise="auto"``).

    The binomial one at the score (:func:`sksel.daub.accuracy_noise`) on the
    validation rows of all seeds; LCDB's validation and test folds have about
    the same size, so ``size_test`` stands for the validation size.
    """
    return partial(accuracy_noise, n_validation=int(n_seeds * curves["size_test"].max()))


def make_tasks(curves, min_reach=0.9, min_n=1000, min_learners=5):
    """Build the tasks of every usable dataset (see the module docstring).

    Returns
    -------
    tasks : list of Task
    n_datasets : int
        Number of datasets in LCDB, usable or not.
    """
    datasets = curves.groupby(level="openmlid")
    tasks = [make_task(d, c.droplevel("openmlid"), min_reach) for d, c in datasets]
    usable = [t for t in tasks if t.anchors[-1] >= min_n and len(t.learners) >= min_learners]
    return usable, len(tasks)


def final_size_matrix(tasks, learners, field="valid"):
    """Validation accuracy at each task's N: a (tasks x `learners`) array, NaN where missing.

    ``field="fit_time"`` gives the training time at N instead.
    """
    scores = np.full((len(tasks), len(learners)), np.nan)
    for i, task in enumerate(tasks):
        for j, name in enumerate(task.learners):
            if name in learners:
                scores[i, learners.index(name)] = getattr(task, field)[j, -1]
    return scores


def nearest_anchor(anchors, size):
    """Index of the anchor nearest to `size` on a log scale."""
    return int(np.argmin(np.abs(np.log(anchors) - np.log(size))))


def train_all(task):
    """Train every learner on N and pick the best validation score."""
    return Outcome(int(np.argmax(task.valid[:, -1])), float(task.fit_time[:, -1].sum()))


def successive_halving(task, eta=3):
    """Successive halving with sklearn's ``HalvingGridSearchCV`` schedule.

    ``1 + floor(log_eta(n_learners))`` rungs, the last at N and each one `eta`
    times smaller than the next (snapped to the nearest anchor, as sklearn's
    ``min_resources="exhaust"``); after each rung the best ``ceil(n / eta)``
    learners by validation score go on; the last rung picks the best.
    """
    n_rungs = 1
    while eta**n_rungs <= len(task.learners):
        n_rungs += 1
    n_total = task.anchors[-1]
    rungs = [nearest_anchor(task.anchors, n_total / eta**k) for k in reversed(range(n_rungs))]
    alive = np.arange(len(task.learners))
    cost = 0.0
    for rung, anchor in enumerate(rungs):
        cost += task.fit_time[alive, anchor].sum()
        ranked = alive[np.argsort(-task.valid[alive, anchor], kind="stable")]
        if rung == n_rungs - 1:
            return Outcome(int(ranked[0]), float(cost))
        alive = ranked[: math.ceil(len(alive) / eta)]


def daub_sizes(anchors, b, b_divisor, step):
    """Indices of DAUB's allocation sizes among `anchors` (increasing, the last N).

    Every `step`-th anchor counted down from N (``step=1``: ratio sqrt(2), near
    the paper's r = 1.5; ``step=2``: ratio 2), down to the anchor nearest to
    ``min(b, N / b_divisor)``.
    """
    first = nearest_anchor(anchors, min(b, anchors[-1] / b_divisor))
    return list(range(len(anchors) - 1, first - 1, -step))[::-1]


def _with_noise(options, task):
    """`options` with ``noise="auto"`` replaced by the task's standard error function."""
    return {**options, "noise": task.noise} if options.get("noise") == "auto" else options


def _warm_up(options, n_sizes):
    """The number of warm-up sizes on a ladder of `n_sizes`: as DAUBSearch, never N."""
    return min(options["warm_up"], max(1, n_sizes - 1))


def daub(task, b, b_divisor, step, **options):
    """Replay :class:`DAUBPolicy`, with keyword `options`, on the sizes of `daub_sizes`."""
    column = {int(task.anchors[i]): i for i in daub_sizes(task.anchors, b, b_divisor, step)}
    options = _with_noise(options, task)
    if "warm_up" in options:
        options = {**options, "warm_up": _warm_up(options, len(column))}
    policy = DAUBPolicy(n_candidates=len(task.learners), sizes=list(column), **options)
    run = simulate(policy, lambda cand, size: task.valid[cand, column[size]],
                   durations=lambda cand, size: task.fit_time[cand, column[size]],
                   train_scores=lambda cand, size: task.train[cand, column[size]])
    return Outcome(int(policy.best_), float(run.wall_time))


def make_policies(args):
    """Name -> function ``task -> Outcome`` of every policy to replay."""
    policies = {
        "train all at N": train_all,
        f"successive halving (eta={args.eta})": partial(successive_halving, eta=args.eta),
    }
    for step in args.daub_steps:
        for name, options in DAUB_VARIANTS.items():
            policies[f"DAUB {name} (r={math.sqrt(2) ** step:.2g})"] = partial(
                daub, b=args.b, b_divisor=args.b_divisor, step=step, **options
            )
    return policies


def replay(tasks, policies):
    """Run every policy on every task.

    Returns
    -------
    results : DataFrame
        One row per (dataset, policy): picks, losses (percentage points) and costs.
    """
    rows = []
    for task in tasks:
        reference = train_all(task)
        for name, policy in policies.items():
            outcome = policy(task)
            rows.append(
                {
                    "openmlid": task.openmlid,
                    "policy": name,
                    "n_learners": len(task.learners),
                    "n_total": int(task.anchors[-1]),
                    "pick": task.learners[outcome.pick],
                    "best": task.learners[reference.pick],
                    "loss_valid": 100 * (task.valid[:, -1].max() - task.valid[outcome.pick, -1]),
                    "loss_test": 100 * (task.test[:, -1].max() - task.test[outcome.pick, -1]),
                    "cost": outcome.cost,
                    "cost_all": reference.cost,
                }
            )
    return pd.DataFrame(rows)


def summarize(results):
    """One row per policy: losses, share of zero-loss datasets, cost fraction, speedups.

    ``speedup_geomean`` is the geometric mean of the per-dataset speedups over
    training every learner on N, ``slower`` the number of datasets where the
    policy cost more than that (speedup below 1).
    """
    results = results.assign(
        fraction=results["cost"] / results["cost_all"],
        speedup=results["cost_all"] / results["cost"],
        zero=results["loss_valid"] <= 1e-9,
    )
    table = _harness.summarize(results, "policy", {
        "datasets": ("openmlid", "size"),
        "loss_mean": ("loss_valid", "mean"),
        "loss_max": ("loss_valid", "max"),
        "zero_loss_pct": ("zero", "mean"),
        "test_loss_mean": ("loss_test", "mean"),
        "cost_fraction": ("fraction", "mean"),
        "speedup_geomean": ("speedup", "geomean"),
        "speedup_min": ("speedup", "min"),
        "slower": ("speedup", lambda s: int((s < 1).sum())),
    })
    table["zero_loss_pct"] *= 100
    grouped = results.groupby("policy", sort=False)
    table["speedup_total"] = grouped["cost_all"].sum() / grouped["cost"].sum()
    return table


def half(openmlid):
    """The half of LCDB a dataset belongs to: ``"tune"`` (even id) or ``"report"`` (odd id).

    Defaults are chosen on the tune half and checked on the report half.
    """
    return "tune" if openmlid % 2 == 0 else "report"


def prefix_bound(task, learner, sizes, n_points, options):
    """Upper bound at N of :class:`DAUBPolicy` told one learner's first points.

    Parameters
    ----------
    task : Task
    learner : int
        Row of the learner in `task`.
    sizes : list of int
        Indices of DAUB's sizes among ``task.anchors`` (`daub_sizes`).
    n_points : int
        Length of the prefix: the learner's scores at the `n_points` first sizes.
    options : dict
        Keyword options of the policy (``noise`` resolved by `_with_noise`).
    """
    ladder = [int(task.anchors[i]) for i in sizes]
    policy = DAUBPolicy(n_candidates=1, sizes=ladder, **{**options, "warm_up": n_points})
    for i in sizes[:n_points]:
        policy.tell(0, int(task.anchors[i]), task.valid[learner, i])
    policy.ask()  # uses the points told
    return policy.upper_bound(0)


def bound_coverage(tasks, step, b, b_divisor, projection="auto"):
    """Whether the default policy's bound from each prefix of a curve covers its score at N.

    For every dataset, learner, and prefix of at least two points of its curve
    on DAUB's sizes below N, the bound of `_DEFAULTS` (with `projection`) is
    compared with the learner's score at N minus the standard error there.

    Returns
    -------
    rows : DataFrame
        One row per (dataset, learner, prefix): ``half``, ``learner``,
        ``points`` (prefix length), ``last_fraction`` (its last size over N),
        ``met`` (whether DAUB can decide on that prefix: the warm-up one, or
        a later one whose last size was not jumped over to N), ``covered``,
        ``shortfall`` (score at N minus bound), ``best`` (the learner is the
        best at N) and ``implied_loss`` (for the best learner, its lead at N
        over the next one: what cutting it there would lose).
    """
    rows = []
    for task in tasks:
        options = _with_noise({**_DEFAULTS, "projection": projection}, task)
        sizes = daub_sizes(task.anchors, b, b_divisor, step)
        n_total = task.anchors[-1]
        warm_up = _warm_up(options, len(sizes))
        final = task.valid[:, -1]
        best = int(np.argmax(final))
        lead = final[best] - np.delete(final, best).max()
        for learner, name in enumerate(task.learners):
            target = final[learner] - task.noise(final[learner])
            for n_points in range(2, len(sizes)):
                last = task.anchors[sizes[n_points - 1]]
                bound = prefix_bound(task, learner, sizes, n_points, options)
                rows.append(
                    {
                        "openmlid": task.openmlid,
                        "half": half(task.openmlid),
                        "learner": name,
                        "points": n_points,
                        "last_fraction": last / n_total,
                        "met": n_points == warm_up
                        or (n_points > warm_up and last * options["jump"] < n_total),
                        "covered": bound >= target,
                        "shortfall": final[learner] - bound,
                        "best": learner == best,
                        "implied_loss": lead if learner == best else 0.0,
                    }
                )
    return pd.DataFrame(rows)


def coverage_table(rows):
    """Coverage and the misses' cost, overall and by prefix length and last size.

    Returns
    -------
    table : DataFrame
        One row per group of prefixes: their number, the percentage covered,
        the misses, their mean shortfall (points), the misses of the best
        learner at N and the mean and max loss (points) those imply.
    """
    groups = {
        "all": rows["points"] >= 2,
        "met by DAUB": rows["met"],
        "2 points": rows["points"] == 2,
        "3 points": rows["points"] == 3,
        "4+ points": rows["points"] >= 4,
        "last <= N/16": rows["last_fraction"] <= 1 / 16,
        "N/16 < last <= N/4": rows["last_fraction"].between(1 / 16, 1 / 4, "right"),
        "last > N/4": rows["last_fraction"] > 1 / 4,
    }
    table = {}
    for name, mask in groups.items():
        group = rows[mask]
        misses = group[~group["covered"]]
        best = misses[misses["best"]]
        table[name] = {
            "prefixes": len(group),
            "covered_pct": 100 * group["covered"].mean(),
            "misses": len(misses),
            "shortfall_mean": 100 * misses["shortfall"].mean(),
            "best_misses": len(best),
            "best_datasets": best["openmlid"].nunique(),
            "loss_mean": 100 * best["implied_loss"].mean(),
            "loss_max": 100 * best["implied_loss"].max(),
        }
    return pd.DataFrame.from_dict(table, orient="index")


def replay_by_coverage(results, missed):
    """Summarize a replay per half: on all datasets, and apart on those in `missed`.

    Parameters
    ----------
    results : DataFrame
        The rows of `replay` of one policy.
    missed : set of int
        The datasets where a bound of the best learner at N missed its score.
    """
    label = np.where(results["openmlid"].isin(missed), "best missed", "best covered")
    results = pd.concat([results.assign(policy="all"), results.assign(policy=label)])
    halves = results["openmlid"].map(half)
    tables = {h: summarize(results[halves == h]).sort_index() for h in HALVES}
    return pd.concat(tables, names=["half", "group"])


def coverage(tasks, args):
    """Print the bound coverage of each step, projection and half, and the defaults' losses."""
    for step in args.daub_steps:
        r = f"r={math.sqrt(2) ** step:.2g}"
        rows = {}
        for projection in COVERAGE_PROJECTIONS:
            rows[projection] = bound_coverage(tasks, step, args.b, args.b_divisor, projection)
            by_half = rows[projection].groupby("half")
            tables = {h: coverage_table(by_half.get_group(h)) for h in HALVES}
            print(f"\nBound coverage, {r}, projection={projection}")
            print(pd.concat(tables, names=["half", "group"]).to_string())
        shipped = rows[_DEFAULTS["projection"]]
        missed = set(shipped.loc[~shipped["covered"] & shipped["best"], "openmlid"])
        policy = partial(daub, b=args.b, b_divisor=args.b_divisor, step=step, **_DEFAULTS)
        results = replay(tasks, {"defaults": policy})
        print(f"\nReplay of the defaults, {r}, on the datasets where a bound of the best "
              "learner missed or not")
        print(replay_by_coverage(results, missed).to_string())


def late_bloomers(tasks, args, min_rank=4, min_lead=0.002):
    """Print what halving and DAUB select on the datasets whose best learner blooms late.

    A dataset's best learner at N is a late bloomer when it ranks `min_rank`th
    or lower at the anchor nearest N / 9 (where halving's first rung of about
    20 learners lies) and leads the runner-up at N by at least `min_lead`.
    """
    late = []
    for task in tasks:
        final = task.valid[:, -1]
        best = int(np.argmax(final))
        early = task.valid[:, nearest_anchor(task.anchors, task.anchors[-1] / 9)]
        rank = int(np.sum(early > early[best])) + 1
        if rank >= min_rank and final[best] - np.sort(final)[-2] >= min_lead:
            late.append((task, rank))
    step = args.daub_steps[0]
    policies = {
        "halving": partial(successive_halving, eta=args.eta),
        "DAUB defaults": partial(daub, b=args.b, b_divisor=args.b_divisor, step=step,
                                 **_DEFAULTS),
        "DAUB bound=slope, cost=rows": partial(
            daub, b=args.b, b_divisor=args.b_divisor, step=step,
            **{**_DEFAULTS, "bound": "slope", "cost": "rows"}),
    }
    results = replay([task for task, _ in late], policies)
    table = results.pivot(index="openmlid", columns="policy", values="loss_valid")
    table.insert(0, "best learner", [t.learners[int(np.argmax(t.valid[:, -1]))].split(".")[-1]
                                     for t, _ in late])
    table.insert(1, "N", [int(t.anchors[-1]) for t, _ in late])
    table.insert(2, "rank at N/9", [rank for _, rank in late])
    table.insert(3, "half", [half(t.openmlid) for t, _ in late])
    print(f"\nLate bloomers: {len(late)} datasets whose best learner at N ranks "
          f"{min_rank}th or lower at N/9 and leads by {100 * min_lead:g} points or more; "
          f"loss (points) of each policy, r={math.sqrt(2) ** step:.2g}")
    print(table[table.columns[:4].tolist() + list(policies)].to_string())
    print(summarize(results)[["loss_mean", "loss_max", "zero_loss_pct", "speedup_geomean"]]
          .to_string())


def parse_args(argv=None):
    """Command-line options (see ``--help``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add = parser.add_argument
    add("--csv", type=Path, help="LCDB accuracy CSV (default: the installed lcdb's)")
    add("--min-reach", type=float, default=0.9,
        help="fraction of a dataset's learners that must reach N (default: 0.9)")
    add("--min-n", type=int, default=1000, help="skip datasets with N below this (default: 1000)")
    add("--min-learners", type=int, default=5,
        help="skip datasets with fewer learners left at N (default: 5)")
    add("--eta", type=int, default=3, help="successive halving's factor (default: 3)")
    add("--b", type=float, default=500,
        help="DAUB's first size is the anchor nearest min(B, N / B_DIVISOR) (default: 500)")
    add("--b-divisor", type=float, default=32, help="see --b (default: 32)")
    add("--daub-steps", type=int, nargs="+", default=[1, 2],
        help="DAUB's sizes are every STEP-th anchor: 1 is ratio sqrt(2), 2 is ratio 2 "
             "(default: 1 2)")
    add("--out", type=Path, help="write the per-(dataset, policy) results to this CSV")
    add("--coverage", action="store_true",
        help="measure how often the defaults' bounds cover the scores at N instead")
    add("--late-bloomers", action="store_true",
        help="replay halving and DAUB on the datasets whose best learner blooms late instead")
    return parser.parse_args(argv)


def main(argv=None):
    """Load LCDB, replay every policy and print the summary table, or the bound coverage."""
    args = parse_args(argv)
    start = time.perf_counter()
    curves = load_curves(args.csv or lcdb_csv_path())
    tasks, n_datasets = make_tasks(curves, args.min_reach, args.min_n, args.min_learners)
    n_learners = [len(t.learners) for t in tasks]
    print(
        f"LCDB: {len(tasks)} of {n_datasets} datasets used (N >= {args.min_n}, "
        f">= {args.min_learners} learners at N), {sum(n_learners)} curves, "
        f"{min(n_learners)}-{max(n_learners)} learners per dataset, "
        f"N from {min(t.anchors[-1] for t in tasks)} to {max(t.anchors[-1] for t in tasks)}"
    )
    with pd.option_context("display.width", 200, "display.float_format", "{:.3g}".format):
        if args.coverage:
            coverage(tasks, args)
        elif args.late_bloomers:
            late_bloomers(tasks, args)
        else:
            results = replay(tasks, make_policies(args))
            halves = results["openmlid"].map(half)
            for name in HALVES:
                print(f"\n-- {name} half")
                print(summarize(results[halves == name]).to_string())
            if args.out:
                results.to_csv(args.out, index=False)
    print(f"{time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
