"""Fit DAUB's learned bound on LCDB's real learning curves and check its coverage.

Every learner's curve on every usable LCDB dataset (see ``lcdb_replay.py``) is
cut into prefixes, as DAUB sees them: the first 2, 3, ... of its scores on
DAUB's sizes (ratio 2 and ratio 2.8 ladders from ``min(500, N / 32)`` rows)
below N. For each prefix, :func:`sksel.daub.curve_prior.prior_features` describes
what it shows and the target is the rise still to come, the score at N minus
its standard error minus the prefix's latest score. A linear quantile
regression (``QuantileRegressor``, quantile ``--quantile``) is fitted on the
**tune** half of the datasets (even OpenML ids), on the prefixes of the
learners that end within ``--top`` (accuracy, default 0.01) of the best
learner at N: those whose bound must hold, since dropping a learner far
behind loses nothing. Its coefficients are written to
``sksel/data/daub_bound.csv``.

Then, on both halves, the share of prefixes whose bound covers the score at N
(minus its standard error) is printed for DAUBPolicy's ``bound="slope"``
(the previous default), and ``bound="prior"`` (the learned bound), over the
best learner's prefixes, the top learners' and all of them; and the mean
excess of the bound over the score at N (points), the price of the cover.

Run::

    pip install --no-deps lcdb
    python -m benchmarks build_daub_bound [--quantile 0.98] [--dry-run]

It takes about a minute.
"""
import argparse
import csv
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.linear_model import QuantileRegressor

from benchmarks import lcdb_replay as lcdb
from sksel.daub.bound import monotone
from sksel.daub.curve_prior import FEATURES, prior_features

#: Ladders of DAUB's sizes replayed: every STEP-th LCDB anchor (ratios 2 and 2.8).
STEPS = (2, 3)
OUT = Path(__file__).resolve().parents[2] / "sksel" / "data" / "daub_bound.csv"


def prefixes(tasks, b=500, b_divisor=32):
    """One row per (dataset, ladder, learner, prefix): its features, target and labels."""
    rows = []
    for task in tasks:
        final = task.valid[:, -1]
        best = final.max()
        n_total = int(task.anchors[-1])
        for step in STEPS:
            sizes = lcdb.daub_sizes(task.anchors, b, b_divisor, step)
            for learner in range(len(task.learners)):
                target = final[learner] - task.noise(final[learner])
                for n_points in range(2, len(sizes)):
                    columns = sizes[:n_points]
                    scores = monotone(task.valid[learner, columns])
                    features = prior_features(task.anchors[columns], scores, n_total,
                                              task.noise(scores[-1]))
                    rows.append({
                        "openmlid": task.openmlid,
                        "half": lcdb.half(task.openmlid),
                        "step": step,
                        "learner": learner,
                        "points": n_points,
                        "best": final[learner] == best,
                        "lead": best - final[learner],
                        "latest": scores[-1],
                        "rise": target - scores[-1],
                        "final": final[learner],
                        **dict(zip(FEATURES, features)),
                    })
    return pd.DataFrame(rows)


def fit(rows, quantile, top):
    """Coefficients of the quantile regression on the tune half's top learners."""
    train = rows[(rows["half"] == "tune") & (rows["lead"] <= top)]
    model = QuantileRegressor(quantile=quantile, alpha=0.0, solver="highs")
    model.fit(train[list(FEATURES)], train["rise"])
    return model.coef_, float(model.intercept_)


def write(weights, intercept, quantile, path):
    """Write the coefficients as ``term,value`` rows."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["term", "value"])
        for name, value in zip(FEATURES, weights):
            writer.writerow([name, f"{value:.6g}"])
        writer.writerow(["intercept", f"{intercept:.6g}"])
        writer.writerow(["quantile", quantile])


def policy_bounds(tasks, rows, bound):
    """The bound of DAUBPolicy (the library's defaults, `bound`) from every prefix of `rows`."""
    by_id = {task.openmlid: task for task in tasks}
    options = {**lcdb._DEFAULTS, "bound": bound}
    bounds = []
    for row in rows.itertuples():
        task = by_id[row.openmlid]
        sizes = lcdb.daub_sizes(task.anchors, 500, 32, row.step)
        bounds.append(lcdb.prefix_bound(task, row.learner, sizes, row.points,
                                        lcdb._with_noise(options, task)))
    return np.array(bounds)


def coverage(rows, bounds):
    """Coverage (%) of the best, top and all learners' prefixes, and the bound's mean excess."""
    covered = bounds >= rows["latest"] + rows["rise"]
    excess = 100 * (bounds - rows["final"])
    groups = {"best": rows["best"], "top (within 1 pt)": rows["lead"] <= 0.01,
              "all": rows["lead"] >= 0}
    return {
        name: {"prefixes": int(mask.sum()), "covered_pct": 100 * covered[mask].mean(),
               "misses": int((~covered[mask]).sum()), "excess_pts": excess[mask].mean()}
        for name, mask in groups.items()
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quantile", type=float, default=0.98)
    parser.add_argument("--top", type=float, default=0.01)
    parser.add_argument("--dry-run", action="store_true",
                        help="print the coverage without writing the coefficients")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    tasks, _ = lcdb.make_tasks(lcdb.load_curves(lcdb.lcdb_csv_path()))
    rows = prefixes(tasks)
    weights, intercept = fit(rows, args.quantile, args.top)
    print(f"{len(rows)} prefixes of {len(tasks)} datasets; quantile {args.quantile}, "
          f"fitted on {((rows['half'] == 'tune') & (rows['lead'] <= args.top)).sum()} of them")
    print("coefficients:", dict(zip(FEATURES + ("intercept",),
                                     np.round(np.r_[weights, intercept], 4))))
    if not args.dry_run:
        write(weights, intercept, args.quantile, OUT)
        from sksel.daub.curve_prior import prior_coefficients
        prior_coefficients.cache_clear()
    table = {}
    for bound in ("slope", "prior"):
        if bound == "prior" and args.dry_run:
            continue
        bounds = policy_bounds(tasks, rows, bound)
        for name in lcdb.HALVES:
            mask = (rows["half"] == name).to_numpy()
            for group, cells in coverage(rows[mask], bounds[mask]).items():
                table[bound, name, group] = cells
    with pd.option_context("display.width", 200, "display.float_format", "{:.2f}".format):
        print(pd.DataFrame.from_dict(table, orient="index").rename_axis(
            ["bound", "half", "prefixes of"]).to_string())
    print(f"{time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
