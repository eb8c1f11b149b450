"""How busy each search keeps its workers, on candidates that sleep.

Every candidate's training is a ``time.sleep`` (0.5 s by default, whatever the
number of rows; with ``--per-row``, 0.5 s on a whole training fold of 1,333 rows
and in proportion to the rows on fewer, as most fits grow with their rows), so
it needs no CPU: the seconds of the workers measure the
search and its engine (scheduling, idle workers waiting for a decision,
speculative work, moving models between processes), not the cores. A fitted
candidate carries a learned state of 4 MB (``--state-mb``; a numpy array) that
loky and dask move between processes; its accuracy on the validation rows rises with its
``quality`` (distinct for every candidate, so there is a unique best) and
with the rows it was trained on, ``quality * (1 - 0.3 * 500 / (500 + rows))``
(deterministic: the same rows are wrong on every run).

Data: 2,000 rows x 2 features from ``RandomState(0).normal``, y = x0 > 0,
cv=3, ``random_state=0``, ``refit=False`` (no refit in the wall time). The
searches (``--searches``):

- ``daub``: DAUBSearch over 32 sleeping learners, defaults (``cost="time"``);
- ``daub-rows``: the same with ``cost="rows"``;
- ``gpucb``: GPUCBSelector over 32 candidates, ``prior="kernel"``, ``n_iter=16``
  (``batch_size="auto"``: ``ceil(w / 3)`` picks at once);
- ``gpucb-one``: the same with ``batch_size=1`` (one pick at a time, free
  workers on speculative picks);
- ``gpucb-async``: the same with ``asynchronous=True`` (every pick a decision);
- ``kdpp``: KDPPSearch, ``n_iter=32`` over a uniform ``quality``;
- ``mutant-ucb``: MutantUCBSearch of a sleeping incremental learner, whose
  sub-train, one ``partial_fit`` call, sleeps once and adds the rows to those
  it was trained on, ``budget=400`` (``--budget``), ``max_subtrains=10``;
- ``mucb-client``: the same, its models sent to the search's process and back
  at every sub-train on dask too, as sksel did before models stayed on the
  dask workers (on threads and loky both run the same way).

Each search is fitted once per backend (``--backends``, under
``joblib.parallel_config``) and number of workers w (``--workers``,
``n_jobs=w``), one row each, printed as soon as it is done:

- ``wall``: seconds of ``fit``, on workers started and warmed (sksel
  imported) beforehand, as a search that follows another finds them.
- ``busy``: seconds of training the search used (the rows of
  ``all_cv_results_`` whose ``speculative`` is False, ``mean_fit_time`` times
  the folds the evaluation ran on, its finite ``split{k}_test_score``) over
  ``w * wall``: 1 is every worker training something used, all the time.
- ``wasted``: the same seconds of the speculative rows, started while a worker
  was free and never used, over ``w * wall``. ``1 - busy - wasted`` is the
  share of worker time spent idle, scheduling or moving data, or on fits
  abandoned unfinished when the search ended (they have no row).
- ``speedup``: wall at w=1 over wall at w, same search and backend (with
  ``--dask``, against the search's first w=1 row: joblib runs n_jobs=1 in the
  calling process whatever the backend).
- ``quality``: the selected candidate's; ``same``: whether it is the one
  selected at w=1 (MutantUCBSearch's pulls at w > 1 depend on the order
  results come in, so it may differ there).

``--dask`` adds a row per search on a ``dask.distributed.LocalCluster`` of 4
single-threaded worker processes (``parallel_config(backend="dask")``, w=4).

``--timeline`` has every training note, in the process that runs it, when it
starts and ends, and adds the workers' timeline to each row:

- ``span``: the training seconds of all the workers, used or not, over
  ``w * wall`` of the whole ``fit`` (what runs before the first task and after
  the last result included, the refit left out);
- ``gap ms``: the median and mean milliseconds between a training's end and
  the next one's start in the same process (the work around every task:
  scoring, moving the task and its result, the search's process deciding and
  dispatching, workers waiting for a decision);
- ``first``, ``tail``: seconds from the start of ``fit`` to the first
  training's start, and from the last training's end to the end of ``fit``.

    python -m benchmarks bench_parallel [--searches daub gpucb ...]
        [--workers 1 2 8] [--backends threading loky] [--dask]
        [--seconds 0.5] [--per-row] [--budget 400] [--state-mb 4] [--timeline]

The default run (0.5 s, w = 1, 2, 8, both backends) takes about 50 minutes
on 2 cores (estimated from ``--seconds 0.05``: 45 to 60), three quarters of it
MutantUCBSearch, whose 400 pulls of 3 folds sleep 10 minutes at w=1 on each
backend. ``--seconds 0.05 --workers 1 2 --backends threading`` takes about 2
minutes; ``--seconds 0.05 --dask`` about 7.
"""

import argparse
import glob
import os
import shutil
import tempfile
import time
import warnings
from contextlib import ExitStack, contextmanager
from functools import partial

import numpy as np
from joblib import Parallel, delayed, parallel_config
from scipy.stats import uniform
from sklearn.base import BaseEstimator, ClassifierMixin

from benchmarks._harness import timed_fit
from sksel import DAUBSearch, GPUCBSelector, KDPPSearch, MutantUCBSearch

#: The 32 candidates' qualities: 0.60, 0.61, ..., 0.91.
QUALITIES = [round(0.6 + 0.01 * k, 2) for k in range(32)]
#: The same range, as a distribution for the searches that draw their candidates.
QUALITY_DISTRIBUTION = uniform(0.6, 0.32)
DASK_WORKERS = 4


def accuracy(quality, n_rows):
    """Share of right predictions of a candidate of `quality` trained on `n_rows` rows."""
    return quality * (1 - 0.3 * 500 / (500 + n_rows))


def predictions(X, accuracy):
    """The truth ``X[:, 0] > 0``, wrong on the same share ``1 - accuracy`` of rows every time."""
    wrong = np.modf(np.abs(X[:, 1]) * 1000)[0] < 1 - accuracy
    return (X[:, 0] > 0) ^ wrong


#: Rows of a whole training fold (cv=3 of `data`'s 2,000): a ``--per-row`` fit of them
#: sleeps `seconds`.
FOLD_ROWS = 1333


#: The environment variable naming the folder where trainings note their start and end.
TIMELINE_FOLDER = "SKSEL_BENCH_TIMELINE"


def sleep_noted(seconds):
    """Sleep `seconds`; note the start and end in this process's file, with ``--timeline``."""
    start = time.time()
    time.sleep(seconds)
    folder = os.environ.get(TIMELINE_FOLDER)
    if folder:
        with open(os.path.join(folder, f"{os.getpid()}.txt"), "a") as notes:
            notes.write(f"{start!r} {time.time()!r}\n")


class SleepingClassifier(ClassifierMixin, BaseEstimator):
    """A classifier whose fit sleeps `seconds` and whose accuracy is set by `quality`.

    With `per_row`, the fit sleeps ``seconds * rows / FOLD_ROWS`` instead.
    """

    def __init__(self, quality=0.8, seconds=0.5, state_mb=4, per_row=False):
        self.quality = quality
        self.seconds = seconds
        self.state_mb = state_mb
        self.per_row = per_row

    def fit(self, X, y):
        sleep_noted(self.seconds * (len(X) / FOLD_ROWS if self.per_row else 1.0))
        self.classes_ = np.unique(y)
        self.state_ = np.ones(self.state_mb << 20, dtype=np.uint8)
        self.n_rows_ = len(X)
        return self

    def predict(self, X):
        return predictions(X, accuracy(self.quality, self.n_rows_))


class SleepingIncrementalClassifier(SleepingClassifier):
    """A sleeping classifier trained by ``partial_fit``: each call sleeps `seconds`.

    Its accuracy rises with the rows seen over all calls, so with every
    sub-train. ``fit`` is `max_iter` calls from scratch.
    """

    def __init__(self, quality=0.8, seconds=0.5, state_mb=4, max_iter=10):
        super().__init__(quality, seconds, state_mb)
        self.max_iter = max_iter

    def fit(self, X, y):
        for name in ("classes_", "state_", "n_rows_"):
            self.__dict__.pop(name, None)
        for _ in range(self.max_iter):
            self.partial_fit(X, y, classes=np.unique(y))
        return self

    def partial_fit(self, X, y, classes=None):
        sleep_noted(self.seconds)
        if not hasattr(self, "state_"):
            self.classes_ = np.unique(y) if classes is None else np.asarray(classes)
            self.state_ = np.ones(self.state_mb << 20, dtype=np.uint8)
            self.n_rows_ = 0
        self.n_rows_ += len(X)
        return self


# ---------------------------------------------------------------------- searches
COMMON = dict(cv=3, refit=False, random_state=0)


def daub(seconds, budget, state_mb, per_row=False):
    return DAUBSearch([SleepingClassifier(q, seconds, state_mb, per_row) for q in QUALITIES],
                      **COMMON)


def daub_rows(seconds, budget, state_mb, per_row=False):
    return daub(seconds, budget, state_mb, per_row).set_params(cost="rows")


def gpucb(seconds, budget, state_mb):
    return GPUCBSelector(SleepingClassifier(seconds=seconds, state_mb=state_mb),
                         {"quality": QUALITIES}, prior="kernel", n_iter=16, **COMMON)


def gpucb_one(seconds, budget, state_mb):
    return gpucb(seconds, budget, state_mb).set_params(batch_size=1)


def gpucb_async(seconds, budget, state_mb):
    return gpucb(seconds, budget, state_mb).set_params(asynchronous=True)


def kdpp(seconds, budget, state_mb):
    return KDPPSearch(SleepingClassifier(seconds=seconds, state_mb=state_mb),
                      {"quality": QUALITY_DISTRIBUTION}, n_iter=32, **COMMON)


def mutant_ucb(seconds, budget, state_mb):
    return MutantUCBSearch(SleepingIncrementalClassifier(seconds=seconds, state_mb=state_mb),
                           {"quality": QUALITY_DISTRIBUTION}, budget=budget,
                           max_subtrains=10, **COMMON)


class _MutantUCBStatesThroughClient(MutantUCBSearch):
    """MutantUCBSearch with its models sent to the search's process after every sub-train."""

    def _make_policy(self, *args):
        policy, trainer = super()._make_policy(*args)
        trainer.state_key = None  # the states come back to the client, as on joblib
        return policy, trainer


def mucb_client(seconds, budget, state_mb):
    params = mutant_ucb(seconds, budget, state_mb).get_params(deep=False)
    return _MutantUCBStatesThroughClient(**params)


#: The searches whose candidates' fits may sleep in proportion to their rows (``--per-row``).
PER_ROW = {"daub", "daub-rows"}
SEARCHES = {"daub": daub, "daub-rows": daub_rows, "gpucb": gpucb, "gpucb-one": gpucb_one,
            "gpucb-async": gpucb_async,
            "kdpp": kdpp, "mutant-ucb": mutant_ucb, "mucb-client": mucb_client}


# ----------------------------------------------------------------------- measures
def data():
    X = np.random.RandomState(0).normal(size=(2000, 2))
    return X, X[:, 0] > 0


def warm_workers(n_workers):
    """Start the backend's `n_workers` workers and load sksel in each, before any timing."""
    Parallel(n_jobs=n_workers)(delayed(_load_sksel)() for _ in range(4 * n_workers))


def _load_sksel():
    import sksel  # noqa: F401

    time.sleep(0.05)


def fit_wall(search, backend, X, y):
    """``(start, wall)`` of ``search.fit`` under `backend` on warm workers, its refit left out.

    `start` is the clock (``time.time``) when the fit began; `wall` its seconds.
    """
    with parallel_config(backend=backend):
        warm_workers(search.n_jobs)
        clear_timeline()
        start = time.time()
        wall = timed_fit(search, X, y).wall
    return start, wall - getattr(search, "refit_time_", 0.0)


def clear_timeline():
    """Forget the trainings noted so far (``--timeline``)."""
    for path in glob.glob(os.path.join(os.environ.get(TIMELINE_FOLDER, ""), "*.txt")):
        os.remove(path)


def timeline(start, wall, n_workers):
    """``(span, median gap, mean gap, first, tail)`` of the trainings noted since `start`.

    See the module docstring (``--timeline``); None where nothing was noted.
    """
    folder = os.environ.get(TIMELINE_FOLDER)
    per_process = [np.loadtxt(path, ndmin=2) for path in glob.glob(os.path.join(folder, "*.txt"))]
    if not per_process:
        return None
    per_process = [notes[np.argsort(notes[:, 0])] for notes in per_process]
    every = np.concatenate(per_process)
    gaps = np.concatenate([notes[1:, 0] - notes[:-1, 1] for notes in per_process])
    span = float(np.sum(every[:, 1] - every[:, 0])) / (n_workers * wall)
    median, mean = (1000 * np.median(gaps), 1000 * np.mean(gaps)) if len(gaps) else (0.0, 0.0)
    return span, median, mean, every[:, 0].min() - start, start + wall - every[:, 1].max()


def training_seconds(results, n_splits):
    """Seconds of training of the rows used and of the speculative rows: ``(used, wasted)``."""
    folds = sum(np.isfinite(np.asarray(results[f"split{k}_test_score"], dtype=float))
                for k in range(n_splits))
    seconds = np.asarray(results["mean_fit_time"], dtype=float) * folds
    speculative = np.asarray(results["speculative"], dtype=bool)
    return float(seconds[~speculative].sum()), float(seconds[speculative].sum())


def selected_quality(search):
    """The `quality` of the selected candidate (DAUBSearch's candidates are estimators)."""
    params = search.best_params_
    return params["quality"] if "quality" in params else params["estimator"].quality


def measure(make, backend, n_workers, X, y):
    """``(wall, busy, wasted, quality, timeline)`` of one fit of the search `make` builds.

    `timeline` is :func:`timeline`'s, or None without ``--timeline``.
    """
    search = make().set_params(n_jobs=n_workers)
    start, wall = fit_wall(search, backend, X, y)
    used, wasted = training_seconds(search.all_cv_results_, search.n_splits_)
    capacity = n_workers * wall
    noted = timeline(start, wall, n_workers) if os.environ.get(TIMELINE_FOLDER) else None
    return wall, used / capacity, wasted / capacity, selected_quality(search), noted


# -------------------------------------------------------------------------- table
HEADER = (f"{'search':<12}{'backend':>10}{'w':>4}{'wall s':>9}{'busy':>7}{'wasted':>8}"
          f"{'speedup':>9}{'quality':>9}{'same':>6}")
#: The columns ``--timeline`` adds.
TIMELINE_HEADER = f"{'span':>7}{'gap ms':>13}{'first':>7}{'tail':>7}"


def row(name, backend, n_workers, measured, serial):
    """One line of the table; `serial` is the w=1 ``(wall, quality)`` to compare with, or None."""
    wall, busy, wasted, quality, noted = measured
    speedup = f"{serial[0] / wall:.2f}" if serial else "-"
    same = "-" if serial is None else "yes" if quality == serial[1] else "NO"
    line = (f"{name:<12}{backend:>10}{n_workers:>4}{wall:>9.2f}{busy:>7.2f}{wasted:>8.2f}"
            f"{speedup:>9}{quality:>9.4f}{same:>6}")
    if noted is not None:
        span, median, mean, first, tail = noted
        line += f"{span:>7.2f}{f'{median:.1f}/{mean:.1f}':>13}{first:>7.2f}{tail:>7.2f}"
    return line


def settings(args, stack):
    """``(backend, workers)`` pairs to run, dask's cluster entered on `stack` with ``--dask``."""
    pairs = [(backend, args.workers) for backend in args.backends]
    if args.dask:
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            print("--dask: dask.distributed is not importable; skipping dask.", flush=True)
        else:
            cluster = stack.enter_context(LocalCluster(
                n_workers=DASK_WORKERS, threads_per_worker=1, dashboard_address=None))
            stack.enter_context(Client(cluster))
            pairs.append(("dask", [DASK_WORKERS]))
    return pairs


def run_search(name, args, pairs, X, y):
    """Fit search `name` at every backend and number of workers, printing a row each."""
    per_row = {"per_row": True} if args.per_row and name in PER_ROW else {}
    make = partial(SEARCHES[name], args.seconds, args.budget, args.state_mb, **per_row)
    serial = {}  # backend -> (wall, quality) at w=1; None -> the search's first w=1
    for backend, workers in pairs:
        for n_workers in workers:
            measured = measure(make, backend, n_workers, X, y)
            if n_workers == 1:
                serial.setdefault(backend, (measured[0], measured[3]))
                serial.setdefault(None, serial[backend])
            print(row(name, backend, n_workers, measured, serial.get(backend, serial.get(None))),
                  flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--searches", nargs="+", choices=list(SEARCHES), default=list(SEARCHES))
    parser.add_argument("--workers", nargs="+", type=int, default=[1, 2, 8])
    parser.add_argument("--backends", nargs="*", default=["threading", "loky"])
    parser.add_argument("--dask", action="store_true",
                        help=f"also run on a LocalCluster of {DASK_WORKERS} workers")
    parser.add_argument("--seconds", type=float, default=0.5, help="sleep of one training")
    parser.add_argument("--per-row", action="store_true",
                        help="DAUB's fits sleep in proportion to their rows (SECONDS on a "
                             "whole training fold)")
    parser.add_argument("--budget", type=int, default=400, help="MutantUCBSearch's budget")
    parser.add_argument("--state-mb", type=int, default=4,
                        help="megabytes of learned state of a fitted candidate")
    parser.add_argument("--timeline", action="store_true",
                        help="note every training's start and end in its process; add the "
                             "workers' timeline (span, gap ms median/mean, first, tail)")
    args = parser.parse_args(argv)
    # joblib's note that the speculative fits still running were cancelled at the end.
    warnings.filterwarnings("ignore", message=r"\d+ tasks which were still being processed")
    X, y = data()
    with ExitStack() as stack:
        if args.timeline:  # before any worker starts, so that every worker sees it
            folder = tempfile.mkdtemp(prefix="sksel-timeline-")
            stack.callback(shutil.rmtree, folder, True)
            stack.enter_context(_environ(TIMELINE_FOLDER, folder))
        pairs = settings(args, stack)
        per = f" on {FOLD_ROWS} rows, in proportion below" if args.per_row else ""
        print(f"sleep {args.seconds} s per training{per}; {len(X)} rows, cv=3", flush=True)
        print(HEADER + (TIMELINE_HEADER if args.timeline else ""), flush=True)
        for name in args.searches:
            run_search(name, args, pairs, X, y)


@contextmanager
def _environ(name, value):
    """Set the environment variable `name` to `value` in the block."""
    os.environ[name] = value
    try:
        yield
    finally:
        os.environ.pop(name, None)


if __name__ == "__main__":
    main()
