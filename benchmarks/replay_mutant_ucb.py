"""Mutant-UCB's rules replayed on recorded training curves, against random search, at equal seconds.

Every search here runs on ``benchmarks/data/training_curves.csv``
(``builders/record_training_curves.py``) instead of training: a
configuration's score after a sub-train is its recorded score (the mean over
the recorded folds) and its seconds the recorded seconds of the units it
trained (summed over the folds), plus the scoring of every pull and
``--overhead`` seconds per fold and task (what dispatching a task and moving
the model cost). A curve of ``L`` units is read as a search of
``--subtrains N`` sub-trains of ``L / N`` units (``build_finish_model``'s
``grid_of``). The searches share a pool: the recorded configurations of the
task in an order drawn by the seed.

- ``random``: random search as RandomizedSearchCV runs it: the pool's
  configurations in order, each trained fully in one task (its units' seconds
  and one scoring), on ``--n-jobs`` workers, read anytime: at a budget ``B``
  its pick is the best configuration completed by a time ``t`` whose refit
  (one plain fit on all rows: the summed seconds over the folds times
  ``1.5 / folds`` for 3 folds of a third) ends by ``B``.
- ``paper``: :class:`~sksel.mutant_ucb.MutantUCBPolicy` as the paper's
  ``reward="mean"``, one sub-train a pull, with its clock (``max_time=B``),
  its refit planned inside ``B``.
- ``finish``: the same policy with ``reward="finish"``: the shipped model of
  the finish (:mod:`sksel.curves.finish_model`), doubling pulls.

The policy breeds no mutant here by default (``--mutation off``: the
recorded curves have none); ``--mutation fresh`` lets a breed draw the next
unused configuration of the pool, trained afresh. Budgets are multiples of
the task's unit time ``u``, the median over its configurations of a plain
fit on all rows. A search's regret is the final score of the pool's best
configuration less that of its pick (the best of the models trained fully,
else the most trained), in points (a diverged regressor's R² counted as -1);
``none`` counts the runs with no pick (random search that completed no
configuration whose refit ends in time), left out of the means. The table
gives, per task and budget, the mean regret of each method over the seeds
and the mean over the tasks of a half; no training runs, about 30 seconds
for a half::

    python -m benchmarks replay_mutant_ucb --half report --seeds 20
"""
import argparse
import os

import numpy as np
import pandas as pd

from benchmarks.builders.build_finish_model import CURVES, TASKS, grid_of
from sksel.curves.finish_model import FinishRule, shipped_finish_model
from sksel.mutant_ucb import policy as policy_module
from sksel.mutant_ucb.clock import SubtrainClock
from sksel.mutant_ucb.policy import MutantUCBPolicy

METHODS = ("random", "paper", "finish")
KIND = {"classification": "accuracy", "regression": "r2"}


class Recorded:
    """One task's recorded curves read as searches of `n_subtrains` sub-trains."""

    def __init__(self, rows, n_subtrains, n_validation, kind, overhead):
        self.kind, self.n_validation, self.overhead = kind, n_validation, overhead
        score = rows.pivot_table(index=["config", "fold"], columns="step", values="score")
        fit = rows.pivot_table(index=["config", "fold"], columns="step", values="fit_seconds")
        scoring = rows.pivot_table(index=["config", "fold"], columns="step",
                                   values="score_seconds")
        complete = score.notna().all(axis=1).groupby(level="config").all()
        configs = complete[complete].index
        folds = score.index.get_level_values("fold").nunique()
        shape = (len(configs), folds, score.shape[1])
        self.score = score.loc[configs].to_numpy().reshape(shape).mean(axis=1)
        self.fit = fit.loc[configs].to_numpy().reshape(shape).sum(axis=1)
        self.scoring = scoring.loc[configs].to_numpy().reshape(shape).sum(axis=1)
        self.folds = folds
        self.columns = grid_of(np.arange(shape[2]), n_subtrains, 1.0)
        self.n_subtrains = len(self.columns)
        self.final = self.score[:, self.columns[-1]]
        self.cumulative = np.cumsum(self.fit, axis=1)

    def seconds(self, config, start, end):
        """Summed over the folds: sub-trains `start` to `end` of `config`, then its scoring."""
        before = self.cumulative[config, self.columns[start - 1]] if start > 0 else 0.0
        column = self.columns[end - 1]
        return (self.cumulative[config, column] - before + self.scoring[config, column]
                + self.overhead * self.folds)

    def told(self, config, end):
        return self.score[config, self.columns[end - 1]]

    def plain_fit(self, config):
        """A plain fit on all rows: the fold sums times (1 + 1 / (folds - 1)) / folds."""
        return self.cumulative[config, self.columns[-1]] * (self.folds / (self.folds - 1)) / (
            self.folds)

    @property
    def unit(self):
        return float(np.median([self.plain_fit(c) for c in range(len(self.final))]))


def run_random(task, order, budget, n_jobs):
    free = [0.0] * n_jobs
    done = []  # (end, config)
    for config in order:
        worker = int(np.argmin(free))
        free[worker] += task.seconds(config, 0, task.n_subtrains)
        done.append((free[worker], config))
    done.sort()
    best, pick = -np.inf, None
    for end, config in done:
        if task.final[config] > best and end + task.plain_fit(config) <= budget:
            best, pick = task.final[config], config
    return pick


def run_policy(task, order, budget, n_jobs, rule, mutation, seed):
    now = [0.0]
    clock = SubtrainClock(budget, n_workers=n_jobs, n_folds=1,
                          refit_factor=(1 + 1 / (task.folds - 1)) / task.folds,
                          clock=lambda: now[0])
    pool = list(order)
    config_of = {}
    n_initial = len(pool) if mutation == "off" else max(2, len(pool) // 2)
    for model in range(n_initial):
        config_of[model] = pool[model]
    unused = pool[n_initial:]
    finish = FinishRule(shipped_finish_model(task.kind), n_validation=task.n_validation)

    def initial_count(budget):  # MutantUCBSearch's n_initial="auto" with mutation
        room = budget - task.n_subtrains + 1
        return max(2, min(room, max(budget // task.n_subtrains, 8)))

    policy = MutantUCBPolicy(
        n_initial, None, max_subtrains=task.n_subtrains, exploration=0.2,
        mutation=mutation != "off", reward="mean" if rule == "paper" else "finish",
        finish=None if rule == "paper" else finish, scale=1.0, inherit=False, clock=clock,
        initial_count=initial_count, random_state=seed)
    running = []  # (end, model, resource, seconds)
    trained = {}
    free = n_jobs
    while True:
        for action in policy.ask(free):
            m, n = action
            if m not in config_of:
                config_of[m] = unused.pop(0) if unused else config_of[policy.parents_[m]]
            seconds = task.seconds(config_of[m], trained.get(m, 0), n)
            running.append((now[0] + seconds / 1.0, m, n, seconds))
            free -= 1
        if not running:
            break
        running.sort()
        end, m, n, seconds = running.pop(0)
        now[0] = end
        free += 1
        trained[m] = n
        policy.tell(m, n, task.told(config_of[m], n), fit_time=seconds)
    full = [m for m, n in trained.items() if n >= task.n_subtrains]
    if full:
        return config_of[max(full, key=lambda m: (task.final[config_of[m]], -m))]
    most = max(trained.values())
    return config_of[max((m for m, n in trained.items() if n == most),
                         key=lambda m: (task.told(config_of[m], most), -m))]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--half", nargs="+", default=["report", "check"])
    parser.add_argument("--families", nargs="+", default=None)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--budgets", nargs="+", type=float, default=[5, 10, 20])
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--subtrains", type=int, default=10)
    parser.add_argument("--overhead", type=float, default=0.01)
    parser.add_argument("--mutation", choices=["off", "fresh"], default="off")
    parser.add_argument("--few-full", type=float, default=None,
                        help="the policy's _FEW_FULL (pulls train fully below it)")
    parser.add_argument("--noise-share", type=float, default=None,
                        help="the policy's _NOISE_SHARE")
    args = parser.parse_args(argv)
    if args.few_full is not None:
        policy_module._FEW_FULL = args.few_full
    if args.noise_share is not None:
        policy_module._NOISE_SHARE = args.noise_share
    curves = pd.read_csv(CURVES)
    tasks = pd.read_csv(TASKS).set_index(["family", "table"])
    lines = []
    for (family, table), rows in curves.groupby(["family", "table"]):
        info = tasks.loc[(family, table)]
        if info["half"] not in args.half or (args.families and family not in args.families):
            continue
        task = Recorded(rows, args.subtrains, int(info["rows"]), KIND[info["kind"]],
                        args.overhead)
        # A diverged regressor's R² (down to -1e26 here) counts as -1 in the regret.
        final = np.maximum(task.final, -1.0)
        best = final.max()
        for multiple in args.budgets:
            budget = multiple * task.unit
            regrets = {method: [] for method in METHODS}
            for seed in range(args.seeds):
                order = np.random.RandomState(seed).permutation(len(task.final))
                picks = {"random": run_random(task, order, budget, args.n_jobs)}
                for rule in ("paper", "finish"):
                    picks[rule] = run_policy(task, order, budget, args.n_jobs, rule,
                                             args.mutation, seed)
                for method, pick in picks.items():
                    regret = best - (final[pick] if pick is not None else np.nan)
                    regrets[method].append(100 * regret)
            lines.append(dict(family=family, table=table, half=info["half"], budget=multiple,
                              **{m: np.nanmean(r) for m, r in regrets.items()},
                              none=sum(np.isnan(r).sum() for r in regrets.values())))
    table = pd.DataFrame(lines)
    with pd.option_context("display.width", 200, "display.precision", 2):
        print(table.to_string(index=False))
        print(table.groupby("budget")[list(METHODS)].mean().to_string())
        print("finish <= random:", int((table["finish"] <= table["random"] + 1e-9).sum()),
              "of", len(table), "; finish <= paper:",
              int((table["finish"] <= table["paper"] + 1e-9).sum()))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
