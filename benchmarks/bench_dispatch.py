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
- ``GridSearchCV``: ``n / 3`` candidates of ``bench_parallel``'s sleeping
  classifier, its fit sleeping ``s`` (no state), ``cv=3``, ``refit=False``
  (scikit-learn's fit-and-score tasks, one ``Parallel`` call, joblib's
  automatic batching);
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

from joblib import Parallel, delayed, parallel_config
from joblib.externals.loky import get_reusable_executor
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline

from benchmarks.bench_parallel import SleepingClassifier, data, sleep_noted, warm_workers
from sksel import KDPPSearch

#: Tasks (fits) per row: 200 candidates x 3 folds.
N_TASKS = 600


def bare_joblib(seconds, n_workers):
    warm_workers(n_workers)
    start = time.perf_counter()
    tasks = (delayed(sleep_noted)(seconds) for _ in range(N_TASKS))
    for _ in Parallel(n_jobs=n_workers, return_as="generator_unordered", batch_size=1,
                      pre_dispatch="2 * n_jobs")(tasks):
        pass
    return time.perf_counter() - start


def bare_futures(seconds, n_workers):
    executor = get_reusable_executor(max_workers=n_workers)
    list(executor.map(sleep_noted, [0.0] * (4 * n_workers)))
    start = time.perf_counter()
    left, pending = N_TASKS, set()
    while left or pending:
        while left and len(pending) < 2 * n_workers:
            pending.add(executor.submit(sleep_noted, seconds))
            left -= 1
        _, pending = wait(pending, return_when=FIRST_COMPLETED)
    wall = time.perf_counter() - start
    executor.shutdown(wait=True)  # joblib starts an executor of its own kind again
    return wall


def _searches(seconds, n_workers):
    X, y = data()
    n_candidates = N_TASKS // 3
    pipe = Pipeline([("model", SleepingClassifier(seconds=seconds, state_mb=0))])
    grid = {"model__quality": [0.6 + 0.001 * k for k in range(n_candidates)]}
    walls = {}
    for name, search in (
        ("GridSearchCV", GridSearchCV(pipe, grid, cv=3, n_jobs=n_workers, refit=False)),
        ("KDPPSearch", KDPPSearch(pipe, grid, n_iter=n_candidates, cv=3, n_jobs=n_workers,
                                  refit=False, random_state=0)),
    ):
        warm_workers(n_workers)
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
