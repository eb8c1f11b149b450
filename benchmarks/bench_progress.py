"""What the progress display of ``verbose`` costs a search.

The same searches run at ``verbose=0, 1, 2`` (``1`` draws the tqdm bar where
tqdm is installed, plain status lines with ``--plain``), in turn, ``--reps``
times each, printing to a discarded stream: DAUBSearch over eight cheap
learners on ``load_digits`` (cv=3) and KDPPSearch over a decision tree's
depth and leaf size (``n_iter=20``, cv=3). The table gives the median wall
seconds of each level and its ratio to ``verbose=0``. Wall times of whole
searches vary by a few percent from run to run on a shared machine, more
than the display costs, so the cost of the reporter alone is also measured:
the microseconds one finished evaluation costs it (10,000 calls).

    python -m benchmarks bench_progress [--reps 5] [--plain]
"""

import argparse
import io
import statistics
import sys
import time
from contextlib import redirect_stderr, redirect_stdout

from scipy.stats import randint
from sklearn.datasets import load_digits
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LogisticRegression, Perceptron, RidgeClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier, NearestCentroid
from sklearn.tree import DecisionTreeClassifier, ExtraTreeClassifier

from sksel import DAUBSearch, KDPPSearch
from sksel._core.naming import ShortNames
from sksel._core.progress import Progress

LEVELS = (0, 1, 2)


def daub(verbose):
    learners = [GaussianNB(), DecisionTreeClassifier(random_state=0),
                ExtraTreeClassifier(random_state=0), KNeighborsClassifier(),
                LinearDiscriminantAnalysis(), RidgeClassifier(), Perceptron(random_state=0),
                NearestCentroid()]
    return DAUBSearch(learners, cv=3, random_state=0, verbose=verbose)


def kdpp(verbose):
    space = {"max_depth": randint(1, 20), "min_samples_leaf": randint(1, 30)}
    return KDPPSearch(DecisionTreeClassifier(random_state=0), space, n_iter=20, cv=3,
                      random_state=0, verbose=verbose)


def wall(make, verbose, X, y):
    sink = io.StringIO()
    start = time.perf_counter()
    with redirect_stdout(sink), redirect_stderr(sink):
        make(verbose).fit(X, y)
    return time.perf_counter() - start


def per_evaluation_us(verbose, n=10_000):
    names = ShortNames([{"C": c} for c in range(8)], LogisticRegression())
    reporter = Progress(verbose, "Search", names, n_candidates=8, n_splits=3, planned=n,
                        budget="", file=io.StringIO())
    with redirect_stderr(io.StringIO()):
        reporter.start()
        start = time.perf_counter()
        for i in range(n):
            reporter.evaluation(i % 8, 100, 0.5 + i * 1e-5, {"bound": 0.9})
        elapsed = time.perf_counter() - start
        reporter.stop()
    return elapsed / n * 1e6


def _no_tqdm():
    """Whether ``tqdm.auto`` fails to import, as the progress display finds it."""
    try:
        from tqdm.auto import tqdm  # noqa: F401
    except ImportError:
        return True
    return False


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--plain", action="store_true", help="no tqdm bar at verbose=1")
    args = parser.parse_args(argv)
    if args.plain:
        sys.modules["tqdm.auto"] = None  # tqdm cannot be imported: plain lines, as without it
    bar = "plain lines" if _no_tqdm() else "tqdm bar"
    X, y = load_digits(return_X_y=True)
    print(f"verbose=1 shows: {bar}; median of {args.reps} runs, levels interleaved")
    print(f"{'search':<28}" + "".join(f"{f'verbose={v}':>12}" for v in LEVELS)
          + f"{'ratio 1/0':>11}{'ratio 2/0':>11}")
    for label, make in [("DAUBSearch, 8 learners", daub), ("KDPPSearch, n_iter=20", kdpp)]:
        wall(make, 0, X, y)  # warm-up: imports, caches
        times = {v: [] for v in LEVELS}
        for _ in range(args.reps):
            for v in LEVELS:
                times[v].append(wall(make, v, X, y))
        med = {v: statistics.median(t) for v, t in times.items()}
        print(f"{label:<28}" + "".join(f"{med[v]:>11.3f}s" for v in LEVELS)
              + f"{med[1] / med[0]:>11.3f}{med[2] / med[0]:>11.3f}")
    print("reporter alone, per evaluation: " + ", ".join(
        f"verbose={v}: {per_evaluation_us(v):.1f} us" for v in LEVELS))


if __name__ == "__main__":
    main()
