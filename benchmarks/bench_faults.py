"""Faults injected into the searches, and what each search keeps.

Every scenario injects faults with a seeded wrapper and prints one row: how
many faults were injected, how many searches ended with a valid best (a
finite score) or a clear error, and how many finished evaluations were lost.

    python -m benchmarks bench_faults            # about a minute on 2 cores

Scenarios:

- ``random 10%``: every fit raises with probability 0.1 (10 decision trees,
  5 folds, 20 seeds); DAUBSearch beside GridSearchCV on the same draws.
  "lost" counts candidates whose row of ``cv_results_`` is non-finite.
- ``small subsamples``: PCA(n_components=60) cannot fit 50 rows (digits, b=50).
- ``all fail at N``: every candidate fails on whole training folds.
- ``dead worker``: one candidate's fit calls ``os._exit(1)`` (loky, n_jobs=2);
  lost = rows of the other candidates missing from a run without it.
- ``Ctrl-C``: SIGINT at the k-th fit (n_jobs=1, 3 folds) for k = 1..30;
  lost = evaluations whose 3 folds finished before fit k but are not in
  ``all_cv_results_``; a ``KeyboardInterrupt`` out of ``fit`` (a SIGINT in the
  refit) counts as a clear error where nothing is lost.
- ``max_time``: 5 folds of 0.5 s fits, max_time=0.75, n_jobs=1: overshoot of
  the search's wall-clock time over max_time.
"""

import argparse
import os
import signal
import time
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_digits, make_classification
from sklearn.decomposition import PCA
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sksel import DAUBSearch

_DRAWS = np.random.RandomState(0)
_FITS = [0]
#: ``(max_depth, rows)`` of every fit started, in order (the Ctrl-C scenario, one worker).
_FIT_LOG = []


class Faulty(ClassifierMixin, BaseEstimator):
    """A decision tree whose fit raises, dies, sleeps or sends SIGINT on demand."""

    def __init__(self, max_depth=None, rate=0.0, fail_from=None, die=False,
                 sigint_at=None, sleep=0.0):
        self.max_depth = max_depth
        self.rate = rate
        self.fail_from = fail_from
        self.die = die
        self.sigint_at = sigint_at
        self.sleep = sleep

    def fit(self, X, y):
        _FITS[0] += 1
        _FIT_LOG.append((self.max_depth, len(X)))
        if self.die:
            os._exit(1)
        if self.sigint_at == _FITS[0]:
            signal.raise_signal(signal.SIGINT)
        if self.rate and _DRAWS.uniform() < self.rate:
            raise RuntimeError("transient failure")
        if self.fail_from is not None and len(X) >= self.fail_from:
            raise MemoryError(f"cannot fit {len(X)} rows")
        time.sleep(self.sleep)
        self.tree_ = DecisionTreeClassifier(max_depth=self.max_depth, random_state=0).fit(X, y)
        self.classes_ = self.tree_.classes_
        return self

    def predict(self, X):
        return self.tree_.predict(X)


def _finite_rows(results):
    """The rows scored: those whose own mean (at their resource, over the folds they ran) is
    finite; a candidate stopped on a subsample or raced out is not lost."""
    return int(np.sum(np.isfinite(results.get("mean_test_score_at_resource",
                                              results["mean_test_score"]))))


def random_failures(n_seeds=20):
    X, y = make_classification(n_samples=400, n_features=10, n_informative=5,
                               random_state=0)
    depths = list(range(1, 11))
    rows = {}
    for name in ("GridSearchCV", "DAUBSearch"):
        faults = valid = lost = 0
        for seed in range(n_seeds):
            _DRAWS.seed(seed)
            if name == "GridSearchCV":
                search = GridSearchCV(Faulty(rate=0.1), {"max_depth": depths}, cv=5,
                                      refit=False)
            else:
                search = DAUBSearch([Faulty(d, rate=0.1) for d in depths], cv=5,
                                    refit=False, random_state=seed)
            search.fit(X, y)
            faults += _count_failed(search)
            valid += bool(np.isfinite(search.best_score_))
            lost += len(depths) - _finite_rows(search.cv_results_)
        rows[f"random 10%, {name}"] = (faults, f"{valid}/{n_seeds}", f"{lost} candidates")
    return rows


def _count_failed(search):
    """Failed fits: non-finite test scores among the splits each row ran (a raced
    evaluation, ``n_folds_run`` below the folds, leaves the others NaN unrun)."""
    results = getattr(search, "all_cv_results_", search.cv_results_)
    splits = [k for k in results if k.startswith("split") and k.endswith("_test_score")]
    ran = np.asarray(results.get("n_folds_run", np.full(len(results["params"]), len(splits))))
    return int(sum(np.sum(~np.isfinite(results[k]) & (i < ran)) for i, k in enumerate(
        sorted(splits, key=lambda k: int(k[5:k.index("_")])))))


def small_subsamples():
    X, y = load_digits(return_X_y=True)
    candidates = [make_pipeline(StandardScaler(), PCA(n_components=k, random_state=0),
                                LogisticRegression(max_iter=300)) for k in (5, 60)]
    search = DAUBSearch(candidates, b=50, cv=0.25, random_state=0).fit(X, y)
    faults = _count_failed(search)
    chosen = search.best_params_["estimator"].steps[1][1].n_components
    return {"small subsamples (PCA 60 on 50 rows)":
            (faults, f"{int(chosen == 60)}/1 (PCA {chosen})", "0 candidates")}


def all_fail_at_n():
    X, y = make_classification(n_samples=300, random_state=0)
    try:
        DAUBSearch([Faulty(d, fail_from=150) for d in (1, 3)], cv=3, b=20).fit(X, y)
        outcome = "0/1"
    except ValueError as error:
        outcome = "1/1 (clear error)" if "fits failed" in str(error) else "0/1"
    return {"all fail at N": ("12", outcome, "-")}


def dead_worker():
    X, y = make_classification(n_samples=300, random_state=0)
    healthy = [Faulty(d) for d in (1, 2, 3, 5)] + [GaussianNB()]
    reference = DAUBSearch(healthy, cv=3, n_jobs=2, random_state=0).fit(X, y)
    search = DAUBSearch([Faulty(4, die=True)] + healthy, cv=3, n_jobs=2,
                        random_state=0).fit(X, y)
    kept = {(c - 1, n) for c, n in zip(search.all_cv_results_["candidate_id"],
                                       search.all_cv_results_["n_resources"]) if c > 0}
    wanted = set(zip(reference.all_cv_results_["candidate_id"],
                     reference.all_cv_results_["n_resources"]))
    valid = np.isfinite(search.best_score_) and search.best_index_ != 0
    return {"dead worker (os._exit, loky)": ("2 deaths", f"{int(valid)}/1",
                                             f"{len(wanted - kept)} evaluations")}


def ctrl_c(n_folds=3):
    """SIGINT at fit k: an evaluation whose `n_folds` fits all ran before fit k is lost
    where no row of ``all_cv_results_`` holds it (its learner at its rows); a search is
    valid with a finite best, or where the KeyboardInterrupt comes out of its ``fit``
    with nothing lost."""
    X, y = make_classification(n_samples=300, random_state=0)
    valid = lost = 0
    ks = range(1, 31)
    for k in ks:
        _FITS[0] = 0
        _FIT_LOG.clear()
        search = DAUBSearch([Faulty(d, sigint_at=k) for d in (1, 2, 3, 5, 8)], cv=n_folds,
                            b=20, random_state=0)
        try:
            search.fit(X, y)
            interrupted = False
        except KeyboardInterrupt:
            interrupted = True
        before = _FIT_LOG[:k - 1]
        finished = {fit for fit in set(before) if before.count(fit) >= n_folds}
        results = getattr(search, "all_cv_results_", None)
        kept = set() if results is None else {
            (params["estimator"].max_depth, int(rows))
            for params, rows in zip(results["params"], results["n_resources"])}
        lost += len(finished - kept)
        # A KeyboardInterrupt (a Ctrl-C in the refit, after the search) is the clear
        # outcome, where what finished is kept.
        valid += (finished <= kept) if interrupted else bool(np.isfinite(search.best_score_))
    return {"Ctrl-C at fit k = 1..30": (len(ks), f"{valid}/{len(ks)}", f"{lost} evaluations")}


def max_time():
    X, y = make_classification(n_samples=300, random_state=0)
    search = DAUBSearch([Faulty(3, sleep=0.5), Faulty(5, sleep=0.5)], b=240, cv=5,
                        max_time=0.75, refit=False)
    start = time.perf_counter()
    try:
        search.fit(X, y)
    except RuntimeError:
        pass
    elapsed = time.perf_counter() - start
    return {"max_time=0.75, 0.5 s folds": ("-", f"search {elapsed:.2f} s",
                                           f"overshoot {100 * (elapsed / 0.75 - 1):+.0f}%")}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.parse_args(argv)
    rows = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for scenario in (random_failures, small_subsamples, all_fail_at_n, dead_worker,
                         ctrl_c, max_time):
            rows.update(scenario())
    print(f"{'scenario':<40} {'faults':>8}  {'valid best or clear error':<26} lost")
    for name, (faults, valid, lost) in rows.items():
        print(f"{name:<40} {faults!s:>8}  {valid:<26} {lost}")


if __name__ == "__main__":
    main()
