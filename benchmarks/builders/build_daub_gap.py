"""Fit and calibrate DAUBSearch's learned drop rule (``sksel/data/daub_gap*.csv``).

:class:`sksel.daub.RungPolicy` drops a learner outside the top third of a rung
once the probability that it ends more than ``tol`` above the leader is below
its threshold: the threshold of the search's ``risk``, scaled by what the
rest of the learner's path is predicted to cost. This script builds what it
ships:

1. **Curves**: LCDB 1.0's single-split learning curves (outer seeds 0-4,
   inner seed 0; not averaged over seeds, as a user's one split is not) of
   the "tune" half of its datasets (even OpenML ids, ``lcdb_replay.half``),
   plus the curves of ``benchmarks/data/own_curves.csv`` when present
   (learners LCDB lacks, on datasets no report half uses).
2. **Model** (:class:`sksel.curves.gap_model.GapModel`): at every rung of the
   schedule (:func:`sksel.daub.rung_sizes` on the dataset's anchors), every
   learner against that rung's leader: the features, and the final gap.
3. **Calibration** (Learn-then-Test): the tune datasets are split into five
   groups; the model fitted without a group replays the group's runs
   (every learner; the nine "strong" learners; two random portfolios of 5-12
   learners; per outer seed), each evaluation costing its rows (what the
   policy reads with DAUBSearch's default ``cost="rows"``; with ``--cost
   time``, LCDB's recorded fit time, what it reads with ``cost="time"``, the
   thresholds written to ``daub_gap_time_risk.csv``), at every threshold of
   `THRESHOLDS`. For each risk, the threshold kept is the
   largest of that increasing sequence whose runs losing more than ``tol`` are, by a
   one-sided binomial test at level `DELTA`, at most that risk on every kind
   of portfolio: the fixed-sequence test stops at the first threshold not
   passing.
4. **Report** (``--report``): the shipped model and thresholds replayed on the
   report half (odd ids; never used above), single splits, on the three
   kinds of portfolio, beside successive halving at factors 2, 3 and 4: the
   speed/loss front of ``risk`` (speedup over training every learner once,
   and ``x_floor``, the median cost over training only the best learner),
   and the share of runs losing more than ``tol`` against each risk; how busy
   the rule keeps 1, 2, 4 and 8 simulated workers; then the model's coverage
   there: pairs binned by the probability it gives, against the share that
   did end above.
5. **Families** (``--families``; measurement only, nothing is written):
   beside the family-free model, two models also told the learner's and the
   leader's family (:mod:`benchmarks.builders._gap_families`: each of LCDB's
   20 learners its own family, or eight families; the learners of
   ``own_curves.csv`` counted as the LCDB learner they stand for), fitted
   the same way. Pair by pair, cross-fitted on the tune half's five groups
   of datasets, then on the report half (models fitted on the whole tune
   half), all pairs and those at rungs above the first outside the top
   third: CRPS of the final gap, the share of losers (ending more than 1
   point below the final best) given a probability below 0.05 and 0.15, the
   share of winners (ending at it) given one too, the losers dropped at the
   probability that drops as many winners as the family-free model does,
   and the coverage. Then the rule replayed on the report half with each
   model: at the thresholds (the shipped ones unless ``--write`` or ``--report``
   calibrates in the same run), at each family model's own thresholds
   (calibrated as in 3), and at every threshold of `THRESHOLDS` (the front).

6. **Variants of the rule** (``--variant NAME``; measurement only, `VARIANTS`):
   ``leader-only``, without halving's third (:class:`LeaderOnlyRungPolicy`:
   only the leader goes on whatever the probabilities), or
   ``first-rung-keeps``, the rule of accuracies before 2026-11-29, whose first
   rung dropped no learner (``RungPolicy(first_cut=False)``), its thresholds
   calibrated as in 3, beside the shipped rule on
   the report half, each at its own thresholds, then both at every threshold
   of `THRESHOLDS`.

``--task regression`` does the same for regressors scored by R² (the model
of kind ``"r2"``, ``sksel/data/daub_gap_r2*.csv``): the curves are those of
``benchmarks/data/regression_curves.csv`` (``record_curves --task
regression``; real regression tables), its tune and report halves those its
``_datasets.csv`` names (one split each, outer seed 0; ``--tune-seeds 0 1 2``
fits and calibrates on the tune half's three recorded splits, measured and
not shipped: see ``doc/daub.rst``), and the "strong" portfolio the eight
regressors a user tries first (`STRONG_REGRESSORS`).

``--curves PATH`` (measurement only, nothing fitted, calibrated or written)
replays the *shipped* model of ``--kind`` (``r2`` by default, or ``accuracy``)
at its shipped thresholds on the report half of the curves at ``PATH`` (in
``record_curves``' format; the tables its ``<stem>_datasets.csv`` puts in the
``report`` half, all of them where it has no ``half`` column; outer seed 0):
the front of each risk beside halving, and the coverage, as ``--report``
prints them. It checks the model on the skills an error is read as
(``record_curves --scoring mae`` or ``log_loss``): the share of runs losing
more than ``tol`` against each risk. With ``--share 2`` (MAE) or ``--share 1``
(log loss), ``tol`` is 0.5% of the leader's error, as DAUBSearch reads an
error's (:class:`sksel._core.scoring.ShareOfError`), and the losses are in
percent of the best learner's error. Seconds to a minute.

Usage::

    pip install --no-deps lcdb
    python -m benchmarks build_daub_gap [--write] [--report] [--families]
        [--variant {leader-only,first-rung-keeps}] [--cost time]
    python -m benchmarks build_daub_gap --task regression [--write] [--report]
        [--tune-seeds 0 1 2]
    python -m benchmarks build_daub_gap --curves benchmarks/data/regression_curves_mae.csv
        [--kind {r2,accuracy}] [--share {1,2}]

About 3 minutes on one core with ``--report`` (the calibration replays most of
it); ``--families`` alone (no calibration of the family-free model) about 1.5
minutes; ``--variant`` alone about 4.
"""
import argparse
import copy
import csv
import time
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import binom
from sklearn.model_selection import GroupKFold

from benchmarks import lcdb_replay as L
from benchmarks.builders import _gap_families as F
from sksel._core.scoring import ShareOfError
from sksel.curves.gap_model import (
    FEATURES,
    MEAN_TERMS,
    SCALE_TERMS,
    GapModel,
    gap_features,
    risk_file,
    shipped_file,
    shipped_model,
)
from sksel.daub import RungPolicy, rung_sizes
from sksel.extend import simulate

#: LCDB's nine learners a user would most likely compare (the "strong" portfolio).
STRONG = ["SVC_rbf", "SVC_linear", "sklearn.ensemble.ExtraTreesClassifier",
          "sklearn.ensemble.GradientBoostingClassifier",
          "sklearn.ensemble.RandomForestClassifier", "sklearn.linear_model.LogisticRegression",
          "sklearn.neighbors.KNeighborsClassifier", "sklearn.neural_network.MLPClassifier",
          "sklearn.discriminant_analysis.LinearDiscriminantAnalysis"]
#: The regressors a user tries first (their names in ``regression_curves.csv``).
STRONG_REGRESSORS = ["scaled Ridge", "scaled Lasso", "RandomForestRegressor",
                     "ExtraTreesRegressor", "HistGradientBoostingRegressor", "XGBRegressor",
                     "scaled KNeighborsRegressor", "scaled MLPRegressor"]
#: Thresholds replayed by the calibration, increasing (more learners dropped).
THRESHOLDS = (0.002, 0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6,
              0.7, 0.8, 0.9, 1.0)
#: Run-level risks a threshold is shipped for.
RISKS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.3)
#: Level of the binomial tests of the calibration.
DELTA = 0.1
TOL = 0.005
ETA = 3
SEEDS = range(5)
DATA = Path(__file__).resolve().parents[2] / "sksel" / "data"
OWN = Path(__file__).resolve().parents[1] / "data" / "own_curves.csv"
REGRESSION = Path(__file__).resolve().parents[1] / "data" / "regression_curves.csv"
#: How the tables print (pandas' options).
DISPLAY = ("display.width", 250, "display.float_format", "{:.3f}".format,
           "display.max_columns", 50)


def load_tasks(path, seeds=SEEDS):
    """Single-split `lcdb_replay.Task` s of the CSV at `path`, one per (dataset, outer seed)."""
    columns = dict(L._COLUMNS)
    columns.update({"outer_seed": "int16", "inner_seed": "int16"})
    raw = pd.read_csv(path, usecols=list(columns), dtype=columns)
    raw = raw[(raw.inner_seed == 0) & raw.outer_seed.isin(list(seeds))]
    raw["learner"] = raw["learner"].astype(str)
    tasks = []
    for seed, rows in raw.groupby("outer_seed"):
        curves = rows.drop(columns=["outer_seed", "inner_seed"]).groupby(
            ["openmlid", "learner", "size_train"]).mean()
        for task in L.make_tasks(curves)[0]:
            task.seed = int(seed)
            task.n_validation = int(rows.loc[rows.openmlid == task.openmlid, "size_test"].max())
            tasks.append(task)
    return tasks


def rung_columns(task):
    """Columns of `task`'s anchors nearest the rung sizes, ``{size: column}`` (sizes distinct)."""
    anchors = np.asarray(task.anchors, dtype=float)
    columns = {}
    for size in rung_sizes(int(anchors[-1]), len(task.learners), ETA, min_size=16):
        column = L.nearest_anchor(anchors, size)
        if not columns or column > max(columns.values()):
            columns[int(anchors[column])] = column
    return columns


def pair_rows(tasks, score_kind="accuracy"):
    """Features and final gap of every learner against the leader at every rung below N.

    `score_kind` is the kind of score (:data:`sksel.curves.gap_model.KINDS`).

    Returns ``(features, gaps, groups, pairs)``: the groups are the datasets'
    ids; `pairs` (a DataFrame) names each pair's ``learner`` and ``leader``
    and gives ``below_best``, the learner's final score below the task's best,
    and ``decision``: whether the pair lies at a rung above the first, outside
    its top third (those the rule of halving plus a threshold asked about).
    """
    features, gaps, groups, pairs = [], [], [], []
    for task in tasks:
        valid = np.asarray(task.valid)
        columns = rung_columns(task)
        sizes = list(columns)
        for rung in range(len(sizes) - 1):
            seen = [columns[n] for n in sizes[max(0, rung - 1):rung + 1]]
            leader = int(np.argmax(valid[:, seen[-1]]))
            ranks = np.argsort(np.argsort(-valid[:, seen[-1]], kind="stable"), kind="stable")
            for j in range(len(valid)):
                if j != leader:
                    features.append(gap_features(valid[j, seen], valid[leader, seen],
                                                 sizes[max(0, rung - 1):rung + 1],
                                                 sizes[-1], task.n_validation, score_kind))
                    gaps.append(valid[j, -1] - valid[leader, -1])
                    groups.append(task.openmlid)
                    pairs.append((task.learners[j], task.learners[leader],
                                  valid[:, -1].max() - valid[j, -1],
                                  rung >= 1 and ranks[j] >= np.ceil(len(valid) / ETA)))
    pairs = pd.DataFrame(pairs, columns=["learner", "leader", "below_best", "decision"])
    return np.array(features), np.array(gaps), np.array(groups), pairs


class LeaderOnlyRungPolicy(RungPolicy):
    """The rule without halving's third (``--variant leader-only``; measured, not shipped):
    only the leader goes on whatever the probabilities, every other learner where its
    probability reaches its threshold."""

    def _kept_by_rank(self, ranked, alive):
        return ranked[:1]


#: The variants of the rule ``--variant`` measures; ``first-rung-keeps`` is the rule of
#: accuracies before 2026-11-29 (the first rung drops no learner where two or more lie
#: below N).
VARIANTS = {"leader-only": LeaderOnlyRungPolicy,
            "first-rung-keeps": partial(RungPolicy, first_cut=False)}


def replay(task, model, threshold, cost="rows", rule=RungPolicy, tol=TOL):
    """``(pick, cost)`` of `rule` on `task` (None `model`: halving on the same rungs).

    A family model (``--families``) is told the learners' families; `tol`, the
    policy's (a :class:`~sksel._core.scoring.ShareOfError` with ``--share``).
    """
    columns = rung_columns(task)
    policy = F.rung_policy(task, list(columns), model, rule=rule, threshold=threshold,
                           n_validation=task.n_validation, tol=tol, eta=ETA, cost=cost)
    run = simulate(policy, lambda c, n: task.valid[c, columns[n]],
                   durations=lambda c, n: task.fit_time[c, columns[n]])
    return policy.best_, run.wall_time


def halving(task, eta):
    """``(pick, cost)`` of successive halving (``lcdb_replay.successive_halving``)."""
    outcome = L.successive_halving(task, eta=eta)
    return outcome.pick, outcome.cost


def subset(task, rows):
    """`task` restricted to the learners at `rows`."""
    part = copy.copy(task)
    part.learners = [task.learners[i] for i in rows]
    for field in ("valid", "train", "test", "fit_time"):
        setattr(part, field, np.asarray(getattr(task, field))[rows])
    return part


def portfolios(task, rng):
    """``[(kind, task)]``: every learner, the strong ones, two random portfolios of 5-12."""
    out = [("all", task)]
    strong = [i for i, name in enumerate(task.learners)
              if name in STRONG or name in STRONG_REGRESSORS]
    if len(strong) >= 5:
        out.append(("strong", subset(task, strong)))
    for _ in range(2):
        size = rng.integers(5, min(12, len(task.learners)) + 1)
        out.append(("random", subset(task, sorted(rng.choice(len(task.learners), size,
                                                             replace=False)))))
    return out


def outcome_rows(task, kind, pickers, share=None):
    """One row per picker: the loss and the speedup over training every learner.

    The loss is in points of the score; with `share` (``--share``: 2 where the
    skill is of a squared root error, RMSE or MAE, 1 for a loss), in percent
    of the best learner's error, ``((1 - s_pick) / (1 - s_best)) ** (1 / share) - 1``.
    """
    valid = np.asarray(task.valid)
    full = np.asarray(task.fit_time)[:, -1].sum()
    floor = np.asarray(task.fit_time)[np.argmax(valid[:, -1]), -1]
    best = valid[:, -1].max()
    rows = []
    for name, picker in pickers.items():
        pick, cost = picker(task)
        loss = (best - valid[pick, -1] if share is None else
                ((1 - valid[pick, -1]) / max(1 - best, 1e-12)) ** (1 / share) - 1)
        rows.append({"openmlid": task.openmlid, "seed": task.seed, "kind": kind, "method": name,
                     "loss": 100 * loss, "speedup": full / cost, "x_floor": cost / floor})
    return rows


def threshold_pickers(model, cost, rule=RungPolicy):
    return {b: (lambda task, b=b: replay(task, model, b, cost, rule)) for b in THRESHOLDS}


def calibrate(tasks, model_name="family-free", cost="rows", score_kind="accuracy",
              rule=RungPolicy):
    """Cross-fitted replays of every threshold (see the module docstring).

    `model_name` is the model's in `_gap_families.fit_model` (``--families``);
    `rule` the policy replayed (``--variant``).
    """
    ids = np.array([t.openmlid for t in tasks])
    features, gaps, groups, pairs = pair_rows(tasks, score_kind)
    rng = np.random.default_rng(0)
    rows = []
    for fit_rows, held_out in GroupKFold(5).split(ids, groups=ids):
        fitted = np.isin(groups, ids[fit_rows])
        model = F.fit_model(model_name, features[fitted], gaps[fitted], pairs[fitted],
                            score_kind)
        for i in held_out:
            for kind, task in portfolios(tasks[i], rng):
                rows += outcome_rows(task, kind, threshold_pickers(model, cost, rule))
    return pd.DataFrame(rows)


def choose_thresholds(calibration):
    """``{risk: (threshold, share of runs losing more than tol, runs)}`` by fixed-sequence tests."""
    fails = calibration.assign(fail=calibration["loss"] > 100 * TOL + 1e-9)
    counts = fails.groupby(["method", "kind"])["fail"].agg(["sum", "size"])
    chosen = {}
    for risk in RISKS:
        kept = THRESHOLDS[0]
        for t in THRESHOLDS:
            if any(binom.cdf(n_fail, n_runs, risk) > DELTA
                   for n_fail, n_runs in counts.loc[t].itertuples(index=False)):
                break
            kept = t
        worst = counts.loc[kept].assign(share=lambda d: d["sum"] / d["size"])
        chosen[risk] = (kept, float(worst["share"].max()), int(worst["size"].sum()))
    return chosen


def front(tasks, rules, seed=0, cost="rows", share=None):
    """The report: each rule (``{method: (model, threshold)}``, or ``(model, threshold,
    rule)`` with `rule` a variant of :class:`RungPolicy` as :func:`replay` takes it) and
    halving at 2, 3, 4 on every portfolio kind. With `share`, `TOL` is a share of the
    leader's error and the losses are in percent of the best's (:func:`outcome_rows`)."""
    tol = TOL if share is None else ShareOfError(TOL, share)
    pickers = {f"halving eta={eta}": (lambda t, eta=eta: halving(t, eta)) for eta in (2, 3, 4)}
    for method, (model, threshold, *rule) in rules.items():
        pickers[method] = (lambda t, m=model, b=threshold, r=rule:
                           replay(t, m, b, cost, *(r or [RungPolicy]), tol=tol))
    rng = np.random.default_rng(seed)
    rows = []
    for task in tasks:
        for kind, part in portfolios(task, rng):
            rows += outcome_rows(part, kind, pickers, share)
    return pd.DataFrame(rows)


def risk_rules(model, thresholds, suffix=""):
    """``{method: (model, threshold)}`` of every risk's threshold."""
    return {f"risk={risk:g}{suffix}": (model, b) for risk, (b, _, _) in thresholds.items()}


def summarize(results):
    """Per (kind, method): runs, geometric-mean speedup, mean/max loss, share of runs > tol."""
    results = results.assign(fail=results["loss"] > 100 * TOL + 1e-9,
                             log_speedup=np.log(results["speedup"]))
    table = results.groupby(["kind", "method"], sort=False).agg(
        runs=("loss", "size"), speedup=("log_speedup", "mean"), loss_mean=("loss", "mean"),
        loss_max=("loss", "max"), share_over_tol=("fail", "mean"),
        x_floor=("x_floor", "median"),
        slower_than_all=("speedup", lambda s: float(np.mean(s < 1))))
    table["speedup"] = np.exp(table["speedup"])
    return table


def reliability(model, tasks, edges=(0, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0)):
    """Coverage: pairs binned by the probability the model gives, against what happened.

    Every learner against the leader at every rung below N of `tasks`; per bin
    of ``P(final gap > tol)``, the pairs, their mean probability and the share
    whose final gap did exceed ``tol``.
    """
    features, gaps, _, _ = pair_rows(tasks, model.kind)
    p = model.prob_above(features, TOL)
    bins = pd.cut(p, edges, include_lowest=True)
    return pd.DataFrame({"p": p, "over": gaps > TOL}).groupby(bins, observed=True).agg(
        pairs=("p", "size"), mean_probability=("p", "mean"), share_over_tol=("over", "mean"))


def families_report(tune, report, thresholds):
    """``--families``: the family models against the family-free one (`_gap_families`).

    Pair by pair (every learner against the leader at every rung below N),
    first cross-fitted on the tune half (each of its five groups of datasets
    scored by the models fitted on the four others), then on the report half
    (models fitted on the whole tune half): coverage, CRPS and how sharp;
    then the rule replayed on the report half at `thresholds` with each model.
    """
    features, gaps, groups, pairs = pair_rows(tune)
    ids = np.array([t.openmlid for t in tune])
    crossed = []
    for fit_rows, held_out in GroupKFold(5).split(ids, groups=ids):
        fitted, scored = np.isin(groups, ids[fit_rows]), np.isin(groups, ids[held_out])
        models = F.fit_models(features[fitted], gaps[fitted], pairs[fitted])
        crossed.append(F.pair_scores(models, features[scored], gaps[scored],
                                     pairs[scored].reset_index(drop=True), TOL))
    crossed = pd.concat(crossed, ignore_index=True)
    print("\nFamily models, tune half cross-fitted by groups of datasets: pairs "
          "(losers end > 1 pt below the final best, winners at it)")
    print(F.sharpness_table(crossed).to_string())
    models = F.fit_models(features, gaps, pairs)
    features, gaps, _, pairs = pair_rows(report)
    scores = F.pair_scores(models, features, gaps, pairs, TOL)
    print(f"\nFamily models, report half ({len(report)} single splits): pairs")
    print(F.sharpness_table(scores).to_string())
    print("\nThe same, of the pairs at rungs above the first, outside the top third")
    print(F.sharpness_table(scores[scores["decision"]]).to_string())
    print("\nCoverage on the report half: pairs by the probability given, and how many "
          "ended > tol above")
    print(F.reliability_table(scores).to_string())
    print("\nThe rule replayed on the report half with each model at the thresholds "
          + ", ".join(f"{r:g}: {t:g}" for r, (t, _, _) in thresholds.items()))
    rules = {}
    for name, model in models.items():
        rules.update(risk_rules(model, thresholds, f" {name}"))
    print(summarize(front(report, rules)).to_string())
    print("\nThresholds calibrated for each model as the shipped ones are (cross-fitted "
          "replays of the tune half): risk, threshold, worst kind's share of runs losing > tol")
    own = {"family-free": thresholds}
    for name in F.GROUPINGS:
        own[name] = choose_thresholds(calibrate(tune, name))
    print(pd.DataFrame({name: {risk: f"{t:g} ({share:.3f})"
                               for risk, (t, share, _) in chosen.items()}
                        for name, chosen in own.items()}).rename_axis("risk").to_string())
    print("\nThe rule replayed on the report half with each model at its own thresholds")
    rules = {}
    for name, model in models.items():
        rules.update(risk_rules(model, own[name], f" {name}"))
    print(summarize(front(report, rules)).to_string())
    print("\nThe front on the report half, all portfolio kinds together, at every threshold: "
          "geometric-mean speedup / share of runs losing > tol")
    rules = {f"{name}|{t}": (model, t) for name, model in models.items() for t in THRESHOLDS}
    print(threshold_front(report, rules, "model", "share_over_tol")[list(models)].to_string())


def threshold_front(tasks, rules, column, value):
    """The front of `rules` (``{"name|threshold": rule}``, as :func:`front` takes them) on
    `tasks`, all portfolio kinds together: per threshold (rows) and name (columns headed
    `column`), the geometric-mean speedup and `value` (a column of :func:`summarize`)."""
    results = front(tasks, rules)
    results = results[results["method"].str.contains("|", regex=False)]
    table = summarize(results.assign(kind="all kinds")).reset_index()
    table[[column, "threshold"]] = table["method"].str.split("|", expand=True)
    table["cell"] = [f"{s:.2f} / {v:.3f}" for s, v in zip(table["speedup"], table[value])]
    return table.pivot(index="threshold", columns=column, values="cell").loc[
        [str(t) for t in THRESHOLDS]]


def variant_report(tune, report, thresholds, name):
    """``--variant NAME``: the rule `VARIANTS[name]`, its thresholds calibrated as the
    shipped ones are, against the shipped rule at `thresholds` on the report half; then
    both at every threshold (all portfolio kinds together: geometric-mean speedup / mean
    loss in points)."""
    variant = VARIANTS[name]
    own = choose_thresholds(calibrate(tune, rule=variant))
    print(f"\nThe rule {name}, calibrated as the shipped one: risk, threshold, worst kind's "
          "share of runs losing > tol")
    for risk, (t, share, _) in own.items():
        print(f"  {risk:g}  {t:g}  {share:.3f}")
    model = fitted_model(tune)
    rules = risk_rules(model, thresholds)
    rules.update({f"risk={risk:g} {name}": (model, t, variant)
                  for risk, (t, _, _) in own.items()})
    print(f"\nReport half ({len(report)} single splits), each rule at its own thresholds")
    print(summarize(front(report, rules)).to_string())
    rules = {f"{label}|{t}": (model, t, rule) for t in THRESHOLDS
             for label, rule in (("shipped", RungPolicy), (name, variant))}
    print("\nThe front on the report half, all portfolio kinds together: geometric-mean "
          "speedup / mean loss (points)")
    print(threshold_front(report, rules, "rule", "loss_mean").to_string())


def busy(tasks, model, thresholds, risk=0.1, workers=(1, 2, 4, 8), cost="rows"):
    """How busy `RungPolicy` keeps `workers` simulated workers on every learner of `tasks`.

    Per number of workers: the seconds of the evaluations the run used over
    workers x wall (``busy``), those of speculative ones it did not use
    (``wasted``), and the wall against one worker's over the workers.
    """
    rows = []
    for task in tasks:
        columns = rung_columns(task)
        for w in workers:
            policy = F.rung_policy(task, list(columns), model, threshold=thresholds[risk][0],
                                   n_validation=task.n_validation, tol=TOL, eta=ETA, cost=cost)
            run = simulate(policy, lambda c, n: task.valid[c, columns[n]], w,
                           durations=lambda c, n: task.fit_time[c, columns[n]])
            used = sum(task.fit_time[c, columns[n]] for c, n in run.decisions)
            rows.append({"workers": w, "openmlid": task.openmlid, "wall": run.wall_time,
                         "busy": used / (w * run.wall_time),
                         "wasted": (run.busy_time - used) / (w * run.wall_time)})
    table = pd.DataFrame(rows)
    one = table[table.workers == 1].set_index("openmlid")["wall"]
    table["efficiency"] = table["openmlid"].map(one) / (table["wall"] * table["workers"])
    return table.groupby("workers")[["busy", "wasted", "efficiency"]].mean()


def write(model, thresholds, tasks, cost):
    """Write the model, its residual quantiles, the thresholds of `cost` and what it was
    fitted on (the files of the model's kind)."""
    with open(DATA / shipped_file("daub_gap.csv", model.kind), "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["part", "term", "coef"])
        out.writerows(["mean", t, f"{c:.6g}"] for t, c in zip(MEAN_TERMS, model.mean_coef))
        out.writerows(["log_scale", t, f"{c:.6g}"] for t, c in zip(SCALE_TERMS, model.scale_coef))
    with open(DATA / shipped_file("daub_gap_residuals.csv", model.kind), "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["z"])
        out.writerows([f"{z:.5g}"] for z in model.residuals)
    with open(DATA / risk_file(model.kind, cost), "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["risk", "threshold", "share_over_tol", "runs"])
        out.writerows([risk, t, f"{share:.4f}", n] for risk, (t, share, n) in thresholds.items())
    with open(DATA / shipped_file("daub_gap_fitted_on.csv", model.kind), "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["source", "openmlid", "outer_seed", "rows", "learners"])
        for task in tasks:
            source = "own" if task.openmlid < 0 else "lcdb-1.0"
            out.writerow([source, task.openmlid, task.seed, int(task.anchors[-1]),
                          ";".join(task.learners)])


def fitted_model(tasks, score_kind="accuracy"):
    """The gap model fitted on every pair of `tasks` (the shipped one: the tune half's)."""
    features, gaps, _, _ = pair_rows(tasks, score_kind)
    return GapModel.fit(features, gaps, n_residuals=1001, kind=score_kind)


def calibrated(tune, write_files, report, cost="rows", score_kind="accuracy"):
    """Calibrate and print (see the module docstring); write, report if asked; the thresholds."""
    calibration = calibrate(tune, cost=cost, score_kind=score_kind)
    thresholds = choose_thresholds(calibration)
    print("\nCross-fitted replays of the tune half (model fitted without each run's dataset)")
    print(summarize(calibration.assign(method=calibration["method"].map(
        lambda t: f"threshold={t:g}"))).to_string())
    print("\nThreshold of each risk (fixed-sequence binomial tests at level "
          f"{DELTA}): risk, threshold, worst kind's share of runs losing > tol, runs")
    for risk, (t, share, n) in thresholds.items():
        print(f"  {risk:g}  {t:g}  {share:.3f}  {n}")
    model = fitted_model(tune, score_kind)
    if write_files:
        write(model, thresholds, tune, cost)
    if report is not None:
        print(f"\nReport half, outer seed 0: {len(report)} datasets, single splits")
        print(summarize(front(report, risk_rules(model, thresholds), cost=cost)).to_string())
        print("\nWorkers, risk=0.1, every learner (report half, simulated on LCDB's times)")
        print(busy(report, model, thresholds, cost=cost).to_string())
        print("\nCoverage on the report half (every learner against the leader at every "
              "rung below N): pairs by the probability given, and how many ended > tol above")
        print(reliability(model, report).to_string())
    return thresholds


def shipped_thresholds(kind="accuracy", cost="rows"):
    """The shipped ``{risk: (threshold, share of runs losing more than tol, runs)}``."""
    rows = pd.read_csv(DATA / risk_file(kind, cost))
    return {float(r.risk): (float(r.threshold), float(r.share_over_tol), int(r.runs))
            for r in rows.itertuples()}


def classification_halves():
    """``(tune, report)`` tasks of LCDB (and ``own_curves.csv``, tune) by its halves."""
    tasks = load_tasks(L.lcdb_csv_path())
    tune = [t for t in tasks if L.half(t.openmlid) == "tune"]
    report = [t for t in tasks if L.half(t.openmlid) == "report" and t.seed == 0]
    if OWN.exists():
        tune += load_tasks(OWN, seeds=[0])
    return tune, report


def regression_halves(tune_seeds=(0,)):
    """``(tune, report)`` tasks of ``regression_curves.csv`` by the halves its tables are in.

    The tune half's of the outer seeds of `tune_seeds` recorded (a split of its
    own each; the shipped model's, seed 0), the report half's of outer seed 0,
    the split a user has.
    """
    halves = pd.read_csv(REGRESSION.with_name(REGRESSION.stem + "_datasets.csv"))
    half = dict(zip(halves["openmlid"], halves["half"]))
    tasks = load_tasks(REGRESSION, seeds=tune_seeds)
    return ([t for t in tasks if half[t.openmlid] == "tune"],
            [t for t in tasks if half[t.openmlid] == "report" and t.seed == 0])


def curves_report_half(path):
    """The report half's tasks of the curves at `path` (outer seed 0): those of the tables
    its ``<stem>_datasets.csv`` puts in the ``report`` half, all of them if it names none."""
    path = Path(path)
    tables = pd.read_csv(path.with_name(path.stem + "_datasets.csv"))
    if "half" in tables:
        tables = tables[tables["half"] == "report"]
    return [t for t in load_tasks(path, seeds=[0]) if t.openmlid in set(tables["openmlid"])]


def shipped_report(path, kind, cost="rows", share=None):
    """``--curves PATH``: the shipped model and thresholds of `kind` replayed on the report
    half of the curves at `path`, and the model's coverage there; nothing fitted. With
    `share` (``--share``), tol is a share of the leader's error (:func:`front`)."""
    report = curves_report_half(path)
    if not report:
        raise SystemExit(f"{path}: no report-half table of 5 learners reaching 1,000 rows")
    model, thresholds = shipped_model(kind), shipped_thresholds(kind, cost)
    print(f"Report half of {path}, outer seed 0: {len(report)} datasets, single splits; the "
          f"shipped {kind} model at its thresholds "
          + ", ".join(f"{r:g}: {t:g}" for r, (t, _, _) in thresholds.items()))
    if share is not None:
        print(f"tol: {TOL:.1%} of the leader's error; losses in percent of the best's error")
    print(summarize(front(report, risk_rules(model, thresholds), cost=cost, share=share))
          .to_string())
    print("\nCoverage on the report half (every learner against the leader at every "
          "rung below N): pairs by the probability given, and how many ended > tol above")
    print(reliability(model, report).to_string())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="write sksel/data/daub_gap*.csv")
    parser.add_argument("--report", action="store_true", help="replay the report half")
    parser.add_argument("--families", action="store_true",
                        help="compare models told the learners' families (alone: no "
                             "calibration, the shipped thresholds)")
    parser.add_argument("--variant", choices=list(VARIANTS),
                        help="compare a variant of the rule, calibrated alike (alone: no "
                             "calibration of the shipped rule, its thresholds)")
    parser.add_argument("--cost", choices=("rows", "time"), default="rows",
                        help="what RungPolicy's cost reads, as DAUBSearch's cost: rows (its "
                             "default), or LCDB's fit times; the thresholds are written to "
                             "that cost's file")
    parser.add_argument("--task", choices=("classification", "regression"),
                        default="classification",
                        help="the curves and the model: classifiers' accuracy, or regressors' R2")
    parser.add_argument("--tune-seeds", nargs="+", type=int, default=[0],
                        help="regression: the outer seeds of the tune half's curves the model "
                             "is fitted and calibrated on (shipped: 0)")
    parser.add_argument("--curves", type=Path,
                        help="replay the shipped model and thresholds of --kind on the report "
                             "half of these curves (record_curves' CSV), nothing else")
    parser.add_argument("--kind", choices=("accuracy", "r2"), default="r2",
                        help="--curves: the model and thresholds replayed (default: r2)")
    parser.add_argument("--share", type=float, choices=(1.0, 2.0), default=None,
                        help="--curves: tol as a share of the leader's error, as DAUBSearch "
                             "reads an error's: 2 for the skill of RMSE or MAE, 1 for a loss")
    args = parser.parse_args(argv)
    if args.task == "regression" and (args.families or args.variant):
        parser.error("--families and --variant measure the classifiers' model only")
    if args.curves and (args.write or args.report or args.families or args.variant):
        parser.error("--curves replays the shipped model alone")
    start = time.perf_counter()
    if args.curves:
        with pd.option_context(*DISPLAY):
            shipped_report(args.curves, args.kind, args.cost, args.share)
        print(f"{time.perf_counter() - start:.0f} s")
        return
    score_kind = "r2" if args.task == "regression" else "accuracy"
    tune, report = (regression_halves(args.tune_seeds) if score_kind == "r2"
                    else classification_halves())
    print(f"{len(tune)} tune runs ({len({t.openmlid for t in tune})} datasets)", flush=True)
    with pd.option_context(*DISPLAY):
        if (args.families or args.variant) and not (args.write or args.report):
            thresholds = shipped_thresholds(cost=args.cost)
        else:
            thresholds = calibrated(tune, args.write, report if args.report else None, args.cost,
                                    score_kind)
        if args.families:
            families_report(tune, report, thresholds)
        if args.variant:
            variant_report(tune, report, thresholds, args.variant)
    print(f"{time.perf_counter() - start:.0f} s ({len(FEATURES)} features)")


if __name__ == "__main__":
    main()
