"""Wall time of every search at 1 to 64 workers, on learners that sleep as recorded ones fit.

Each candidate stands in for a learner whose learning curve was recorded
(``benchmarks/data/own_curves.csv`` and ``regression_curves.csv``, written by
``builders/record_curves.py``): it is an instance of the recorded learner's
own class, with the recorded parameters, in the recorded pipeline (a
``StandardScaler`` first for the "scaled" ones), so every search sees the
portfolio a user would pass (:class:`~sksel.GPUCBSelector`'s ``prior="auto"``
matches it to the shipped priors as it would the real learners). Only two
methods differ (:class:`Sleeping`): ``fit`` sleeps the recorded fit seconds
at the rows it is given, times ``--time-scale``, and ``score`` is the
recorded validation score at those rows. Both are read off the learner's
curve (:class:`Curve`): the seconds interpolated log-log between the recorded
sizes and, above the largest, extrapolated along the log-log slope from the
size nearest half of it; the score interpolated linearly in log rows and
held at the curve's ends. A fit needs no CPU, so 64 loky workers on 2 cores
measure the searches and joblib, not the cores, and every search sees the
same curves (one recorded split: a score does not depend on the fold).

Datasets (``--datasets``), the learners recorded on them:

- ``letter``: KEEL letter (26 classes, accuracy), 8 learners: histogram
  gradient boosting, XGBoost, a random forest, scaled linear SVC, logistic
  regression, RBF SVC, k nearest neighbours and MLP. The only recorded
  classification set above 10,000 rows; GPUCBSelector's shipped priors hold
  KEEL letter (and LCDB's letter), and DAUBSearch's gap model was fitted on
  these curves among others.
- ``diamonds``: ggplot2's diamonds (R²), 10 regressors: ridge scaled and
  not, scaled lasso, a tree, a random forest, extra trees, histogram gradient
  boosting, XGBoost, scaled k nearest neighbours and MLP. A report-half
  table: the shipped regression prior and gap model never saw it.
- ``user``: ten learners a user might list first (letter's eight, Gaussian
  naive Bayes and a decision tree) on ``make_classification`` (25,000
  training rows, 20 features; ``record_curves --half user``), where the RBF
  SVC is the dear candidate that grows fastest (9 s at 20,000 rows, about
  quadratic) and stays close to the best: the path that sets the wall at
  many workers. No shipped model or prior saw it.

``X`` has as many rows as the recorded training part (the pool the curves
were recorded on and its validation fifth: 16,000 for letter, 20,000 for
diamonds, 25,000 for user) and the recorded table's columns, constant (what
DAUBSearch predicts a learner costs reads the rows, features and classes);
``y`` is balanced over the classes, or a ramp. The training part of each of
the 5 folds is then the largest recorded size, at which the recorded
seconds and score are read as they are; the refit on all rows is the one
fit extrapolated.

Searches (``--searches``), all with ``cv=5, refit=True, n_jobs=w`` and
``random_state=0`` where they take one, under joblib's loky backend:

- ``GridSearchCV`` over ``Pipeline([("estimator", ...)])``, the learners its grid;
- ``HalvingGridSearchCV`` over the same, ``resource="n_samples", factor=3,
  min_resources="exhaust"``;
- ``RandomizedSearchCV`` over the same, ``n_iter`` half the learners (rounded up);
- ``DAUBSearch`` and ``GPUCBSelector`` over the list, at their defaults;
- ``KDPPSearch`` over the same pipeline, ``n_iter`` as random search's. Over a
  list of learners its kernel (one-hot) finds every pair equally alike, so the
  k-DPP draws a uniform k-subset: random search without replacement, run by
  sksel's engine.

``MutantUCBSearch`` is not run: it spends sub-trains (epochs, boosting rounds)
of incrementally trained configurations of one model, not a list of learners.

Every search runs at every number of workers w (``--workers``; all searches
at one w before the next w), one row each, printed as soon as it is done
(and all again by dataset at the end):

- ``wall``: seconds of ``fit``, the refit included, on w loky workers started
  and warmed (this module imported) beforehand; ``n_jobs=1`` runs in this
  process. ``/grid`` and ``/halving``: over GridSearchCV's and
  HalvingGridSearchCV's at the same dataset and w.
- ``pick`` and ``regret``: the learner selected, and the recorded final
  validation score (at the largest size) of the best learner minus the
  pick's, in points (accuracy or R² x 100).
- ``fit s``: the recorded (unscaled) seconds of every fit that finished
  during the search, the refit included: the CPU the real learners would
  have spent. ``fits``: how many.
- ``busy``: the seconds slept by those fits over ``w * wall``: the share of
  the workers' time spent training (fits abandoned unfinished at the end
  are not counted). ``peak``: the most of them running at once.
- ``note``: GPUCBSelector's prior (``prior_``), its full evaluations and its
  looks on a subsample.

Then PASS/FAIL against issue 61's floor at 8, 32 and 64 workers: DAUBSearch's
and GPUCBSelector's wall at most HalvingGridSearchCV's and at most 0.6x
GridSearchCV's, their regret within their ``tol`` (in points). ``--figure``
draws wall against workers, one panel per dataset; ``--out`` writes the rows
as CSV, ``--timelines`` every fit noted (:func:`measure`'s `fits`).

    python -m benchmarks bench_scaling [--datasets letter diamonds]
        [--workers 1 2 8 32 64] [--searches GridSearchCV ...] [--time-scale 0.5]
        [--out scaling.csv] [--figure doc/_static/scaling_walls.png] [--timelines fits.csv]

The defaults take about 16 minutes on 2 cores (953 s on 2026-11-29, the
cores kept busy by another benchmark), 10 of them at one and two workers;
``--workers 8 32 64`` about 6, much of it starting and warming the 64
workers (each imports sksel, pandas and XGBoost).
"""

import argparse
import glob
import math
import os
import shutil
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import NamedTuple

import numpy as np
import pandas as pd
from joblib import Parallel, delayed, parallel_config
from sklearn.base import is_classifier
from sklearn.model_selection import RandomizedSearchCV
from sklearn.pipeline import Pipeline

from benchmarks import _table
from benchmarks._harness import list_peer, over_pipeline, timed_fit
from benchmarks.builders.record_curves import learner as recorded_learner
from sksel import DAUBSearch, GPUCBSelector, KDPPSearch

DATA = Path(__file__).resolve().parent / "data"
#: The recorded datasets: name -> (CSV of their curves in `DATA`, openmlid there).
DATASETS = {"letter": ("own_curves.csv", -1), "diamonds": ("regression_curves.csv", -156),
            "user": ("user_curves.csv", -301)}
#: The environment variables that workers read: the factor on recorded seconds, and
#: the folder where every fit notes its start, end and recorded seconds.
TIME_SCALE, NOTES = "SKSEL_BENCH_TIME_SCALE", "SKSEL_BENCH_NOTES"
CV, SEED = 5, 0
#: Issue 61's floor: the workers it is checked at, and the most wall over GridSearchCV's.
FLOOR_WORKERS, FLOOR_VS_GRID = (8, 32, 64), 0.6
FLOOR_SEARCHES = ("DAUBSearch", "GPUCBSelector")


# -------------------------------------------------------------------- the stand-ins
class Curve(NamedTuple):
    """A learner's recorded curve: increasing sizes, fit seconds and validation scores."""

    sizes: np.ndarray
    seconds: np.ndarray
    scores: np.ndarray

    def fit_seconds(self, n_rows):
        """Recorded fit seconds at `n_rows`.

        Log-log between the recorded sizes (the smallest's below them); above
        the largest, along the log-log slope from the size nearest half of it
        (clipped to [0, 2]).
        """
        log_sizes, log_seconds, log_n = np.log(self.sizes), np.log(self.seconds), np.log(n_rows)
        if n_rows <= self.sizes[-1]:
            return float(np.exp(np.interp(log_n, log_sizes, log_seconds)))
        k = int(np.argmin(np.abs(log_sizes - (log_sizes[-1] - np.log(2)))))
        slope = np.clip((log_seconds[-1] - log_seconds[k]) / (log_sizes[-1] - log_sizes[k]), 0, 2)
        return float(np.exp(log_seconds[-1] + slope * (log_n - log_sizes[-1])))

    def score(self, n_rows):
        """Recorded validation score at `n_rows`: linear in log rows, held at the ends."""
        return float(np.interp(np.log(n_rows), np.log(self.sizes), self.scores))


def load_curves(dataset):
    """``({learner: Curve}, rows of the recorded training part)`` of `dataset`."""
    csv, openmlid = DATASETS[dataset]
    table = pd.read_csv(DATA / csv)
    table = table[table["openmlid"] == openmlid]
    curves = {}
    for name, rows in table.groupby("learner"):
        mean = rows.groupby("size_train")[["traintime", "score_valid"]].mean()
        curves[name] = Curve(mean.index.to_numpy(dtype=float),
                             np.maximum(mean["traintime"].to_numpy(), 1e-6),
                             mean["score_valid"].to_numpy())
    return curves, int(table["size_train"].max() + table["size_test"].max())


def sleep_noted(recorded):
    """Sleep `recorded` seconds times the time scale; note the fit in this process's file."""
    start = time.time()
    time.sleep(recorded * float(os.environ.get(TIME_SCALE, "1")))
    folder = os.environ.get(NOTES)
    if folder:
        with open(os.path.join(folder, f"{os.getpid()}.txt"), "a") as notes:
            notes.write(f"{start!r} {time.time()!r} {recorded!r}\n")


class Sleeping:
    """What turns a learner's class into its stand-in: ``fit`` sleeps, ``score`` reads a curve.

    A stand-in class (:func:`stand_in_class`) derives from this and from the
    learner's class, whose name and parameters it keeps. Class attributes:
    `curve`, the learner's :class:`Curve`, and `recorded_as`, its name in the
    curves' CSV.
    """

    curve = None
    recorded_as = None

    def fit(self, X, y, **fit_params):
        sleep_noted(self.curve.fit_seconds(len(X)))
        self.n_rows_ = len(X)
        if is_classifier(self):
            self.classes_ = np.unique(y)
        return self

    def score(self, X, y, sample_weight=None):
        return self.curve.score(self.n_rows_)

    @property
    def classes_(self):
        """The classes ``fit`` saw (a property here, as XGBoost's classifier has one)."""
        return self._classes_seen

    @classes_.setter
    def classes_(self, classes):
        self._classes_seen = classes

    def __sklearn_is_fitted__(self):
        return hasattr(self, "n_rows_")


def stand_in_class(dataset, name, curve):
    """The stand-in class of learner `name` of `dataset`, reachable as ``STAND_INS.<dataset>``.

    Its ``__name__`` is the learner's class name, as the searches read it;
    its ``__qualname__`` says where pickle finds it.
    """
    learner = type(_final_step(recorded_learner(name)))
    return type(learner.__name__, (Sleeping, learner), {
        "curve": curve, "recorded_as": name, "__module__": __name__,
        "__qualname__": f"STAND_INS.{dataset}.{_attribute(name)}",
        "__doc__": f"{name} of {dataset}, asleep (see :class:`Sleeping`)."})


def _attribute(name):
    return name.replace(" ", "_")


def _final_step(estimator):
    return estimator.steps[-1][1] if isinstance(estimator, Pipeline) else estimator


def _stand_ins():
    """``(STAND_INS, CURVES, ROWS)``: the stand-in classes, curves and rows of every dataset."""
    classes, curves, rows = {}, {}, {}
    for dataset in DATASETS:
        curves[dataset], rows[dataset] = load_curves(dataset)
        classes[dataset] = SimpleNamespace(**{
            _attribute(name): stand_in_class(dataset, name, curve)
            for name, curve in curves[dataset].items()})
    return SimpleNamespace(**classes), curves, rows


# Built on import, so that every loky worker finds the classes its tasks name.
STAND_INS, CURVES, ROWS = _stand_ins()


def portfolio(dataset):
    """The stand-ins of `dataset`'s learners: recorded pipelines and parameters, asleep."""
    return [_asleep(recorded_learner(name), getattr(getattr(STAND_INS, dataset), _attribute(name)))
            for name in CURVES[dataset]]


def _asleep(estimator, stand_in):
    """`estimator` with its learner (its last step) replaced by `stand_in`, same parameters."""
    if isinstance(estimator, Pipeline):
        *steps, (name, last) = estimator.steps
        return Pipeline([*steps, (name, _asleep(last, stand_in))])
    return stand_in(**estimator.get_params(deep=False))


def data(dataset):
    """``(X, y)`` of `dataset`: its rows and columns, constant, balanced classes or a ramp.

    The columns are the recorded table's, so that what DAUBSearch predicts the
    learners cost (from the rows, features and classes) is the real table's.
    """
    n_rows = ROWS[dataset]
    csv, openmlid = DATASETS[dataset]
    info = pd.read_csv(DATA / csv.replace(".csv", "_datasets.csv")).set_index("openmlid")
    X = np.ones((n_rows, int(info.loc[openmlid, "columns"])))
    if is_classifier(_final_step(portfolio(dataset)[0])):
        return X, np.arange(n_rows) % int(info.loc[openmlid, "classes"])
    return X, np.linspace(0.0, 1.0, n_rows)


def recorded_name(estimator):
    """The name in the curves' CSV of the learner `estimator` stands in for."""
    return _final_step(estimator).recorded_as


def regret(dataset, pick):
    """Best recorded final validation score minus `pick`'s, in points."""
    finals = {name: curve.scores[-1] for name, curve in CURVES[dataset].items()}
    return 100 * (max(finals.values()) - finals[pick])


# ----------------------------------------------------------------------- searches
def _half(learners):
    return math.ceil(len(learners) / 2)


def grid(learners, n_jobs):
    return list_peer("GridSearchCV", learners, CV, n_jobs, SEED)


def halving(learners, n_jobs):
    return list_peer("HalvingGridSearchCV", learners, CV, n_jobs, SEED)


def randomized(learners, n_jobs):
    return RandomizedSearchCV(*over_pipeline(learners), n_iter=_half(learners), cv=CV,
                              random_state=SEED, n_jobs=n_jobs)


def daub(learners, n_jobs):
    return DAUBSearch(learners, cv=CV, random_state=SEED, n_jobs=n_jobs)


def gpucb(learners, n_jobs):
    return GPUCBSelector(learners, cv=CV, random_state=SEED, n_jobs=n_jobs)


def kdpp(learners, n_jobs):
    return KDPPSearch(*over_pipeline(learners), n_iter=_half(learners), cv=CV,
                      random_state=SEED, n_jobs=n_jobs)


#: Name -> ``search(learners, n_jobs)``; GridSearchCV and halving first, the others'
#: rows are compared with theirs.
SEARCHES = {"GridSearchCV": grid, "HalvingGridSearchCV": halving,
            "RandomizedSearchCV": randomized, "DAUBSearch": daub, "GPUCBSelector": gpucb,
            "KDPPSearch": kdpp}


# ----------------------------------------------------------------------- measures
def warm_workers(n_workers, rounds=5):
    """Start `n_workers` workers and import this module in each, before any timing.

    Tasks are handed out until one round of them ran on every worker (at most
    `rounds` rounds).
    """
    for _ in range(rounds):
        ran_on = Parallel(n_jobs=n_workers)(delayed(_imported)() for _ in range(4 * n_workers))
        if len(set(ran_on)) >= n_workers:
            return


def _imported():
    """This process's id, after a short sleep (this module is imported to run it)."""
    time.sleep(0.05)
    return os.getpid()


def clear_notes():
    """Forget the fits noted so far."""
    for path in glob.glob(os.path.join(os.environ[NOTES], "*.txt")):
        os.remove(path)


def read_notes(since):
    """``(start, end, recorded seconds, process id)`` of every fit noted since `since`.

    The fits that started at `since` or later, in the order they started.
    """
    found = [np.empty((0, 4))]
    for path in glob.glob(os.path.join(os.environ[NOTES], "*.txt")):
        notes = np.loadtxt(path, ndmin=2)
        found.append(np.c_[notes, np.full(len(notes), int(Path(path).stem))])
    notes = np.concatenate(found)
    notes = notes[notes[:, 0] >= since]
    return notes[np.argsort(notes[:, 0], kind="stable")]


def most_at_once(notes):
    """The most fits of `notes` running at the same time."""
    times = np.concatenate([notes[:, 0], notes[:, 1]])
    steps = np.concatenate([np.ones(len(notes)), -np.ones(len(notes))])
    order = np.lexsort((steps, times))  # at the same time, an end before a start
    return int(np.max(np.cumsum(steps[order]), initial=0))


def note(search):
    """GPUCBSelector's prior, full evaluations and looks; blank for the other searches."""
    if not isinstance(search, GPUCBSelector):
        return ""
    return f"prior {search.prior_}, {search.n_iter_} evals, {search.n_looks_} looks"


def measure(name, dataset, n_workers, X, y):
    """Search `name` fitted on `dataset` with `n_workers` workers: ``(row, fits)``.

    `row` is the row of the table; `fits` a DataFrame of the fits noted, one
    row each: ``start`` and ``end`` in seconds from the start of ``fit``,
    ``recorded`` seconds, and ``here``, whether it ran in this process (the
    refit; every fit at ``n_jobs=1``).
    """
    search = SEARCHES[name](portfolio(dataset), n_workers)
    with parallel_config(backend="loky"):
        warm_workers(n_workers)
        clear_notes()
        start = time.time()
        wall = timed_fit(search, X, y, quiet=True).wall
    notes = read_notes(start)
    pick = recorded_name(search.best_params_["estimator"])
    row = {"dataset": dataset, "search": name, "workers": n_workers, "wall": wall,
           "pick": pick, "regret": regret(dataset, pick), "fit_s": notes[:, 2].sum(),
           "fits": len(notes), "busy": (notes[:, 1] - notes[:, 0]).sum() / (n_workers * wall),
           "peak": most_at_once(notes), "note": note(search)}
    fits = pd.DataFrame({"dataset": dataset, "search": name, "workers": n_workers,
                         "start": notes[:, 0] - start, "end": notes[:, 1] - start,
                         "recorded": notes[:, 2], "here": notes[:, 3] == os.getpid()})
    return row, fits


# -------------------------------------------------------------------------- table
#: ``(title, key, width, format)`` of every column; the first two and the last two left.
COLUMNS = [("dataset", "dataset", 8, ""), ("search", "search", 19, ""), ("w", "workers", 3, "d"),
           ("wall s", "wall", 7, ".2f"), ("/grid", "vs_grid", 6, ".2f"),
           ("/halving", "vs_halving", 8, ".2f"), ("regret", "regret", 6, ".2f"),
           ("fit s", "fit_s", 7, ".1f"), ("fits", "fits", 5, "d"), ("busy", "busy", 5, ".2f"),
           ("peak", "peak", 4, "d"), ("pick", "pick", 30, ""), ("note", "note", 0, "")]
LEFT = (0, 1, 11, 12)


def table_line(row=None):
    """The line of `row` in the table; its titles without a row."""
    if row is None:
        return _table.format_line([title for title, *_ in COLUMNS], COLUMNS, LEFT, spec=False)
    return _table.format_line([row[key] for _, key, *_ in COLUMNS], COLUMNS, LEFT)


def with_ratios(row, rows):
    """`row` with its wall over GridSearchCV's and halving's in `rows` (NaN if not there)."""
    walls = {r["search"]: r["wall"] for r in [*rows, row]
             if (r["dataset"], r["workers"]) == (row["dataset"], row["workers"])}
    return {**row, "vs_grid": row["wall"] / walls.get("GridSearchCV", np.nan),
            "vs_halving": row["wall"] / walls.get("HalvingGridSearchCV", np.nan)}


def floor_checks(table):
    """``(passed, line)`` for issue 61's floor on each dataset, floor search and w."""
    found = []
    for (dataset, name, n_workers), row in table.set_index(
            ["dataset", "search", "workers"]).iterrows():
        if name not in FLOOR_SEARCHES or n_workers not in FLOOR_WORKERS:
            continue
        tol = 100 * SEARCHES[name]([], None).tol
        passed = (row["vs_halving"] <= 1 and row["vs_grid"] <= FLOOR_VS_GRID
                  and row["regret"] <= tol)
        found.append((bool(passed), f"{dataset} {name} w={n_workers}: wall {row['wall']:.2f} s, "
                      f"{row['vs_halving']:.2f}x halving's (at most 1), {row['vs_grid']:.2f}x "
                      f"GridSearchCV's (at most {FLOOR_VS_GRID}), regret {row['regret']:.2f} "
                      f"(at most tol {tol:g})"))
    return found


def plot_walls(table, path):
    """Wall against workers (log x), a line per search, a panel per dataset, saved at `path`."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    plain = FuncFormatter(lambda value, _: f"{value:g}")

    datasets = list(dict.fromkeys(table["dataset"]))
    workers = sorted(set(table["workers"]))
    fig, axes = plt.subplots(1, len(datasets), figsize=(5.5 * len(datasets), 4.2), squeeze=False)
    for ax, dataset in zip(axes[0], datasets):
        for name, rows in table[table["dataset"] == dataset].groupby("search", sort=False):
            ax.plot(rows["workers"], rows["wall"], marker="o", label=name)
        ax.set_xscale("log", base=2)
        ax.set_xticks(workers, [str(w) for w in workers])
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(plain)
        ax.yaxis.set_minor_formatter(plain)
        ax.set_xlabel("workers (loky, n_jobs)")
        ax.set_ylabel("wall seconds, refit included")
        ax.set_title(f"{dataset}: {len(CURVES[dataset])} learners, {ROWS[dataset]:,} rows, cv=5")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", nargs="+", choices=list(DATASETS), default=list(DATASETS))
    parser.add_argument("--workers", nargs="+", type=int, default=[1, 2, 8, 32, 64])
    parser.add_argument("--searches", nargs="+", choices=list(SEARCHES), default=list(SEARCHES))
    parser.add_argument("--time-scale", type=float, default=0.5,
                        help="a fit sleeps its recorded seconds times this")
    parser.add_argument("--out", help="write the rows to this CSV")
    parser.add_argument("--figure", help="save the walls' figure here (PNG)")
    parser.add_argument("--timelines", help="write every fit's start, end and recorded "
                                            "seconds to this CSV")
    args = parser.parse_args(argv)
    # Before any worker starts: every worker reads them from its environment.
    folder = tempfile.mkdtemp(prefix="sksel-scaling-")
    os.environ.update({TIME_SCALE: repr(args.time_scale), NOTES: folder})
    print(f"fits sleep {args.time_scale:g} x their recorded seconds; cv={CV}, loky, refit "
          f"included", flush=True)
    print(table_line(), flush=True)
    began = time.perf_counter()
    rows, fits = [], []
    try:
        for n_workers in args.workers:
            for dataset in args.datasets:
                X, y = data(dataset)
                for name in args.searches:
                    row, noted = measure(name, dataset, n_workers, X, y)
                    rows.append(with_ratios(row, rows))
                    fits.append(noted)
                    print(table_line(rows[-1]), flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    order = {dataset: i for i, dataset in enumerate(args.datasets)}
    table = pd.DataFrame(rows).sort_values(
        ["dataset", "workers"], key=lambda c: c.map(order) if c.name == "dataset" else c,
        kind="stable")
    print(f"\nBy dataset ({time.perf_counter() - began:.0f} s in all, warming workers "
          f"included)", flush=True)
    print(table_line())
    for _, row in table.iterrows():
        print(table_line(row))
    if args.out:
        table.to_csv(args.out, index=False)
    if args.timelines:
        pd.concat(fits).to_csv(args.timelines, index=False)
    if args.figure:
        plot_walls(table, args.figure)
    print()
    for passed, line in floor_checks(table):
        print("PASS" if passed else "FAIL", line)


if __name__ == "__main__":
    main()
