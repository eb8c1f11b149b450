"""What two workers do during a Mutant-UCB search of a skorch CNN: a timeline.

Runs :class:`sksel.MutantUCBSearch` (``mutant-ucb``) and the same without
mutation (``inf-ucb-e``) on the ``cnn`` task of ``bench_mutant_ucb.py`` (one
epoch of a small CNN per sub-train on 3,000 Fashion-MNIST images, one hold-out
split, budget 24, ``max_subtrains=4``), at ``n_jobs`` 1 and 2 on loky, and
logs every sub-train's training span (a skorch callback: the worker's pid and
the wall clock at ``on_train_begin`` and ``on_train_end``). Printed per run:
the search's wall seconds; per worker its training seconds over the wall
(``train``) and the gaps between two of its trainings (median and longest:
moving the model, scoring it, waiting for the next task); and a timeline of
each worker, one character per ``wall / 72`` seconds, ``#`` while it trains.

    python -m benchmarks timeline_mutant_ucb [--device cpu] [--seed 0]
"""

import argparse
import os
import tempfile
import time

import numpy as np
from joblib import parallel_config
from skorch.callbacks import Callback

from benchmarks.bench_mutant_ucb import TASKS, _holdout
from sksel import MutantUCBSearch

WIDTH = 72


class SpanLog(Callback):
    """Appends ``pid start end`` to the file `path` for every training of the net."""

    def __init__(self, path):
        self.path = path

    def on_train_begin(self, net, **kwargs):
        self._start = time.time()

    def on_train_end(self, net, **kwargs):
        with open(self.path, "a") as log:
            log.write(f"{os.getpid()} {self._start} {time.time()}\n")


def spans(path):
    """``{pid: [(start, end), ...]}`` from the log at `path`."""
    by_worker = {}
    for line in open(path):
        pid, start, end = line.split()
        by_worker.setdefault(int(pid), []).append((float(start), float(end)))
    return {pid: sorted(worker) for pid, worker in by_worker.items()}


def timeline(worker, start, wall):
    """One character per ``wall / WIDTH`` seconds from `start`: ``#`` while training."""
    cells = np.zeros(WIDTH, dtype=bool)
    for begin, end in worker:
        cells[int((begin - start) / wall * WIDTH):int(np.ceil((end - start) / wall * WIDTH))] = True
    return "".join("#" if cell else "." for cell in cells)


def run(method, n_jobs, device, seed):
    task = TASKS["cnn"](device)
    X, _, y, _ = task.load(seed)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "spans")
        task.estimator.set_params(callbacks=[("span", SpanLog(path))])
        search = MutantUCBSearch(
            task.estimator, task.space, budget=24, max_subtrains=4,
            mutation=method == "mutant-ucb", unit=task.unit, cv=_holdout(seed), refit=False,
            n_jobs=n_jobs, random_state=seed)
        with parallel_config(backend="loky"):
            start = time.time()
            search.fit(X, y)
            wall = time.time() - start
        return wall, start, spans(path)


def report(method, n_jobs, wall, start, by_worker):
    print(f"{method} n_jobs={n_jobs}: {wall:.1f} s, {sum(map(len, by_worker.values()))} "
          "trainings")
    for pid, worker in by_worker.items():
        trained = sum(end - begin for begin, end in worker)
        gaps = [b - e for (_, e), (b, _) in zip(worker, worker[1:])] or [0.0]
        print(f"  worker {pid:>7}  train {trained / wall:4.2f}  gap median "
              f"{np.median(gaps):5.2f} s  longest {max(gaps):5.2f} s  "
              f"{timeline(worker, start, wall)}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for method in ("mutant-ucb", "inf-ucb-e"):
        for n_jobs in (1, 2):
            report(method, n_jobs, *run(method, n_jobs, args.device, args.seed))


if __name__ == "__main__":
    main()
