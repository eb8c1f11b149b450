"""Dispatch cost of sksel's engine against bare joblib and loky's futures, on short fits.

Whether an engine built on futures (loky's reusable executor: submit, wait
for the first done) would run a search faster than today's, which streams
its tasks through one ``joblib.Parallel`` (``return_as="generator_unordered"``,
one task per batch, two per worker in flight). On ``w`` warm loky workers
(``--workers``), for fits that sleep ``s`` seconds (``--seconds``):

- ``bare joblib``: ``n`` tasks that sleep ``s``, through joblib's generator as
  the engine sets it up;
- ``bare futures``: the same tasks on loky's reusable executor, two per worker
  in flight, one submitted as each is done: the loop of an engine on futures;
- ``GridSearchCV``: ``n / 3`` candidates of a classifier whose fit sleeps
  ``s``, ``cv=3``, ``refit=False`` (scikit-learn's fit-and-score tasks, one
  ``Parallel`` call, joblib's automatic batching);
- ``KDPPSearch``: the same candidates through sksel's engine, every one of
  them (``n_iter`` all: a search that decides nothing between results).

``ideal`` is ``n * s / w``. The two bare rows differ by the dispatch alone;
the two searches by what each does per task and per result (the same
fit-and-score payload).

    python -m benchmarks bench_dispatch [--seconds 0.01 0.1] [--workers 2 8]

About 4 minutes on 2 cores at the defaults.
"""

import argparse
import time
import warnings
from concurrent.futures import FIRST_COMPLETED, wait

import numpy as np
from joblib import Parallel, delayed, parallel_config
from joblib.externals.loky import get_reusable_executor
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline

from sksel import KDPPSearch

#: Tasks (fits) per row: 200 candidates x 3 folds.
N_TASKS = 600


class Napping(ClassifierMixin, BaseEstimator):
    """A classifier whose fit sleeps `seconds`; `k` tells the candidates apart."""

    def __init__(self, seconds=0.01, k=0):
        self.seconds = seconds
        self.k = k

    def fit(self, X, y):
        time.sleep(self.seconds)
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


def nap(seconds):
    time.sleep(seconds)
    return seconds


def _warm(n_workers):
    Parallel(n_jobs=n_workers)(delayed(nap)(0.0) for _ in range(4 * n_workers))


def bare_joblib(seconds, n_workers):
    _warm(n_workers)
    start = time.perf_counter()
    tasks = (delayed(nap)(seconds) for _ in range(N_TASKS))
    for _ in Parallel(n_jobs=n_workers, return_as="generator_unordered", batch_size=1,
                      pre_dispatch="2 * n_jobs")(tasks):
        pass
    return time.perf_counter() - start


def bare_futures(seconds, n_workers):
    executor = get_reusable_executor(max_workers=n_workers)
    list(executor.map(nap, [0.0] * (4 * n_workers)))
    start = time.perf_counter()
    left, pending = N_TASKS, set()
    while left or pending:
        while left and len(pending) < 2 * n_workers:
            pending.add(executor.submit(nap, seconds))
            left -= 1
        _, pending = wait(pending, return_when=FIRST_COMPLETED)
    wall = time.perf_counter() - start
    executor.shutdown(wait=True)  # joblib starts an executor of its own kind again
    return wall


def _searches(seconds, n_workers):
    X, y = make_classification(300, random_state=0)
    n_candidates = N_TASKS // 3
    pipe = Pipeline([("model", Napping())])
    grid = {"model__k": list(range(n_candidates)), "model__seconds": [seconds]}
    walls = {}
    for name, search in (
        ("GridSearchCV", GridSearchCV(pipe, grid, cv=3, n_jobs=n_workers, refit=False)),
        ("KDPPSearch", KDPPSearch(pipe, grid, n_iter=n_candidates, cv=3, n_jobs=n_workers,
                                  refit=False, random_state=0)),
    ):
        _warm(n_workers)
        start = time.perf_counter()
        search.fit(X, y)
        walls[name] = time.perf_counter() - start
    return walls


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", nargs="+", type=float, default=[0.01, 0.1])
    parser.add_argument("--workers", nargs="+", type=int, default=[2, 8])
    args = parser.parse_args(argv)
    print(f"{N_TASKS} tasks (200 candidates x 3 folds), loky, warm workers; wall seconds")
    print(f"{'fit s':>6} {'w':>3} {'ideal':>6} {'bare joblib':>12} {'bare futures':>13} "
          f"{'GridSearchCV':>13} {'KDPPSearch':>11}")
    with warnings.catch_warnings(), parallel_config("loky"):
        warnings.simplefilter("ignore")
        for seconds in args.seconds:
            for n_workers in args.workers:
                joblib_wall = bare_joblib(seconds, n_workers)
                futures_wall = bare_futures(seconds, n_workers)
                walls = _searches(seconds, n_workers)
                print(f"{seconds:>6} {n_workers:>3} {N_TASKS * seconds / n_workers:>6.2f} "
                      f"{joblib_wall:>12.2f} {futures_wall:>13.2f} "
                      f"{walls['GridSearchCV']:>13.2f} {walls['KDPPSearch']:>11.2f}",
                      flush=True)


if __name__ == "__main__":
    main()
