"""GP-UCB with w workers, replayed on recorded scores and fit times.

Nothing is trained: the shipped prior's datasets (``sksel/data/default_prior.csv``
and the mean fit times of ``default_cost.csv``, 25 candidates) are held out one
at a time; the prior is that of the other datasets
(:func:`sksel.gpucb.prior_from_scores`), and a simulated pool of w workers
runs the policy: a free worker asks the policy for an action, the action
"runs" for its candidate's recorded fit time, and its recorded score is told
when it ends. Two ways of using the workers, at ``n_iter=10``:

* ``sequential`` (the default, ``asynchronous=False``): the decisions are the
  one-worker run's; free workers run speculative picks (the candidates the
  sequential run is likeliest to pick next), used only when the sequential
  run picks them;
* ``asynchronous`` (``asynchronous=True``): every pick is a decision.

Printed per w and way, the mean over held-out datasets of: the simulated
wall seconds until the best candidate's score is among the decisions
(``to_best_s``; the whole search's when it never is), that as a share of
the one-worker sequential run's (``to_best_%``), the wall seconds of the
whole search (``wall_s``), the regret at the end (best score minus the best
decided one, in points), how often the best candidate was found
(``found_%``), the evaluations run and those wasted (run, not decided), and
``busy``, the fit seconds of the decided evaluations over w x wall.

    python -m benchmarks bench_gpucb_workers [--workers 1 4 8] [--n-iter 10]

It takes a few seconds.
"""

import argparse

import numpy as np
import pandas as pd

from benchmarks import _harness
from sksel.extend import simulate
from sksel.gpucb import GPUCBPolicy, prior_from_scores
from sksel.gpucb.portfolio import default_cost, default_prior

NOISE, DELTA, BETA_SCALE = 0.01, 0.1, 1.0


def measure(policy, scores, times, n_workers):
    """Run `policy` on `n_workers` simulated workers; a dict of what it spent and found."""
    best = np.nanmax(scores)
    to_best = None

    def note_best(run):  # the first time the best score is among the decisions
        nonlocal to_best
        if to_best is None and any(scores[c] >= best for c in policy.observed_):
            to_best = run.wall_time
        return False

    run = simulate(policy, scores, n_workers, durations=times, until=note_best)
    decided = [c for c, _ in run.decisions]
    return {
        "to_best_s": run.wall_time if to_best is None else to_best,
        "found": to_best is not None,
        "wall_s": run.wall_time,
        "regret_pt": 100 * (best - max(scores[c] for c in decided)),
        "evaluations": len(run.events),
        "wasted": len(run.events) - len(decided),
        "busy": sum(times[c] for c in decided) / (n_workers * run.wall_time),
    }


def replay(M, T, workers, n_iter):
    """Every held-out dataset, way and number of workers: one row each."""
    rows = []
    for i in range(len(M)):
        known = np.flatnonzero(~np.isnan(M[i]) & (T[i] > 0))
        mean, cov = prior_from_scores(np.delete(M, i, axis=0))
        mean, cov = mean[known], cov[np.ix_(known, known)]
        for n_workers in workers:
            for way in ("sequential", "asynchronous"):
                policy = GPUCBPolicy(mean, cov, noise=NOISE, delta=DELTA, beta_scale=BETA_SCALE,
                                     n_iter=min(n_iter, len(known)), random_state=0,
                                     asynchronous=way == "asynchronous")
                rows.append({"dataset": i, "workers": n_workers, "way": way,
                             **measure(policy, M[i, known], T[i, known], n_workers)})
    return pd.DataFrame(rows)


def summarize(results):
    """Means over datasets per (workers, way), the time to best against one sequential worker."""
    one = results[(results["workers"] == 1) & (results["way"] == "sequential")]
    reference = one.set_index("dataset")["to_best_s"]
    results = results.assign(
        to_best_pct=100 * results["to_best_s"] / results["dataset"].map(reference))
    table = _harness.summarize(results, ["workers", "way"], {
        "to_best_s": ("to_best_s", "mean"), "to_best_pct": ("to_best_pct", "mean"),
        "wall_s": ("wall_s", "mean"), "regret_pt": ("regret_pt", "mean"),
        "found_pct": ("found", "mean"), "evaluations": ("evaluations", "mean"),
        "wasted": ("wasted", "mean"), "busy": ("busy", "mean")})
    table["found_pct"] *= 100
    return table


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 4, 8])
    parser.add_argument("--n-iter", type=int, default=10)
    args = parser.parse_args(argv)
    _, M = default_prior()
    _, T = default_cost()
    results = replay(np.asarray(M, dtype=float), np.asarray(T, dtype=float), args.workers,
                     args.n_iter)
    print(f"{len(M)} held-out datasets, {M.shape[1]} candidates, n_iter={args.n_iter}, "
          f"beta_scale={BETA_SCALE}, noise={NOISE}")
    with pd.option_context("display.width", 200, "display.float_format", "{:.3g}".format):
        print(summarize(results).to_string())


if __name__ == "__main__":
    main()
