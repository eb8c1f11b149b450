"""What the search test modules share: fit-counting and failing estimators, DAUB's bounds
uncapped."""

import signal
import time
from contextlib import contextmanager

import pytest
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.linear_model import SGDClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier


class CountingClassifier(ClassifierMixin, BaseEstimator):
    """Counts its fits (class attribute); never meant to be fitted in a test."""

    n_fits = 0

    def __init__(self, C=1.0):
        self.C = C

    def fit(self, X, y):
        type(self).n_fits += 1
        raise AssertionError("fit must not be called")


class CountingRegressor(RegressorMixin, BaseEstimator):
    """Counts its fits (class attribute); never meant to be fitted in a test."""

    n_fits = 0

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def fit(self, X, y):
        type(self).n_fits += 1
        raise AssertionError("fit must not be called")


class FailsFromRows(ClassifierMixin, BaseEstimator):
    """A decision tree that raises when fitted on `rows` rows or more."""

    def __init__(self, rows=400, max_depth=None):
        self.rows = rows
        self.max_depth = max_depth

    def fit(self, X, y):
        if len(X) >= self.rows:
            raise MemoryError(f"cannot fit {len(X)} rows")
        self.tree_ = DecisionTreeClassifier(max_depth=self.max_depth, random_state=0).fit(X, y)
        self.classes_ = self.tree_.classes_
        return self

    def predict(self, X):
        return self.tree_.predict(X)


class NappingTree(DecisionTreeClassifier):
    """A decision tree whose every fit first naps `nap` seconds: a slow candidate."""

    def __init__(self, nap=0.0, max_depth=None, random_state=0):
        self.nap = nap
        super().__init__(max_depth=max_depth, random_state=random_state)

    def fit(self, X, y, sample_weight=None, check_input=True):
        time.sleep(self.nap)
        return super().fit(X, y, sample_weight=sample_weight, check_input=check_input)


class NappingSGD(SGDClassifier):
    """An SGD classifier whose every pass (``partial_fit``, and each of a plain fit's
    `max_iter`) first naps `nap` seconds: a model whose sub-trains take a while."""

    def __init__(self, nap=0.0, alpha=0.0001, max_iter=10, tol=None, random_state=0):
        self.nap = nap
        super().__init__(alpha=alpha, max_iter=max_iter, tol=tol, random_state=random_state)

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        time.sleep(self.nap)
        return super().partial_fit(X, y, classes=classes, sample_weight=sample_weight)

    def fit(self, X, y, coef_init=None, intercept_init=None, sample_weight=None):
        time.sleep(self.nap * self.max_iter)
        return super().fit(X, y, coef_init=coef_init, intercept_init=intercept_init,
                           sample_weight=sample_weight)


class FailsBelowRows(ClassifierMixin, BaseEstimator):
    """An RBF support vector classifier that raises when fitted on fewer than `rows` rows, as
    ``KNeighborsClassifier(n_neighbors=rows)`` or ``PCA(n_components=rows)`` do; the rows of
    its fits are counted in a class attribute (``n_jobs=1``: one process)."""

    fitted_rows = []

    def __init__(self, rows=100, C=1.0):
        self.rows = rows
        self.C = C

    def fit(self, X, y):
        FailsBelowRows.fitted_rows.append(len(X))
        if len(X) < self.rows:
            raise ValueError(f"needs {self.rows} rows, got {len(X)}")
        self.svc_ = SVC(C=self.C).fit(X, y)
        self.classes_ = self.svc_.classes_
        return self

    def predict(self, X):
        return self.svc_.predict(X)


class _Interruptible:
    """Counts its fits in a class attribute, naps `delay` seconds in each and
    raises ``KeyboardInterrupt`` at the fit numbered `interrupt_at`."""

    n_fits = 0
    delay = 0.0
    interrupt_at = None

    def _count_fit(self):
        cls = type(self)
        cls.n_fits += 1
        if cls.n_fits == cls.interrupt_at:
            raise KeyboardInterrupt
        time.sleep(cls.delay)


class SlowKNN(_Interruptible, KNeighborsClassifier):
    """A k-nearest-neighbours classifier whose fits are counted, slowed and interrupted."""

    def fit(self, X, y):
        self._count_fit()
        return super().fit(X, y)


class SlowSGD(_Interruptible, SGDClassifier):
    """An SGD classifier whose ``partial_fit`` passes are counted and interrupted."""

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        self._count_fit()
        return super().partial_fit(X, y, classes=classes, sample_weight=sample_weight)


@contextmanager
def uncapped_daub():
    """DAUBSearch's bounds (``risk=0``) without the cap on a learner's subsamples.

    For the tests of the bounds' own mechanics (warm-up, ladders, late
    bloomers) on data too small for the cap to leave them a ladder.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sksel.daub.search._BUDGET", None)
        yield


def stop_after(monkeypatch, n_evaluations):
    """Make the engine's `max_time` run out once `n_evaluations` have finished."""
    from sksel._core.engine import Engine

    def out_of_time(engine):
        if engine._n_done < n_evaluations:
            return False
        if engine.stop_reason_ == "done":
            engine.stop_reason_ = "max_time"
        return True

    monkeypatch.setattr(Engine, "_out_of_time", out_of_time)


class InterruptedAtFit(ClassifierMixin, BaseEstimator):
    """Naive Bayes; the `at`-th fit of the process (counted in ``n_fits``, a class
    attribute) raises SIGINT, as Ctrl-C does."""

    n_fits = 0

    def __init__(self, at=1, var_smoothing=1e-9):
        self.at = at
        self.var_smoothing = var_smoothing

    def fit(self, X, y):
        InterruptedAtFit.n_fits += 1
        if InterruptedAtFit.n_fits == self.at:
            signal.raise_signal(signal.SIGINT)
        self.nb_ = GaussianNB(var_smoothing=self.var_smoothing).fit(X, y)
        self.classes_ = self.nb_.classes_
        return self

    def predict(self, X):
        return self.nb_.predict(X)
