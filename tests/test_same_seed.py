"""The same `random_state`, the same search: by default a search's decisions, and
``cv_results_`` apart from its times, are a function of the data, the candidates and
`random_state`, whatever the seconds its fits take and whatever `n_jobs`."""

from types import SimpleNamespace

import numpy as np
import pytest
import sklearn.model_selection._validation as validation
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

from sksel import DAUBSearch, GPUCBSelector


class _Clock:
    """The clock scikit-learn's ``_fit_and_score`` reads, moved on by the fits only."""

    now = 0.0
    #: ``{max_depth: exponent}``: a fit of a tree of that depth takes ``1e-3 * rows **
    #: exponent`` seconds, as the machine's load of the moment has it.
    exponents = {}


class ClockedTree(DecisionTreeClassifier):
    """A decision tree whose fit takes the seconds of :class:`_Clock` (none of the wall's)."""

    def fit(self, X, y, sample_weight=None, check_input=True):
        _Clock.now += 1e-3 * len(X) ** _Clock.exponents.get(self.max_depth, 1.0)
        return super().fit(X, y, sample_weight=sample_weight, check_input=check_input)


def _decisions(results):
    """`results` without their times, as text (NaN equal to NaN, estimators by their repr)."""
    return {key: repr(np.asarray(value).tolist()) for key, value in results.items()
            if not key.endswith("_time")}


def _data():
    return make_classification(n_samples=3000, n_features=10, n_informative=4, flip_y=0.05,
                               random_state=0)


def _learners():
    return [ClockedTree(max_depth=d, random_state=0) for d in (1, 2, 3, 4, 6, 8, None)]


@pytest.mark.parametrize("risk", [0.1, 0])
def test_daub_decides_alike_whatever_the_seconds_its_fits_take(risk, monkeypatch):
    # The same fits, timed two ways: every fit's seconds linear in its rows, or the
    # deepest trees' nearly flat (a machine loaded otherwise). Today's main read its
    # costs from those seconds (cost="time"): it sent a flat learner to all the rows at
    # once (risk=0) or scaled the learners' thresholds by them (risk > 0).
    monkeypatch.setattr(validation, "time", SimpleNamespace(time=lambda: _Clock.now))
    X, y = _data()
    runs = []
    for exponents in ({}, {8: 0.1, None: 0.1, 6: 2.0}):
        monkeypatch.setattr(_Clock, "exponents", exponents)
        runs.append(DAUBSearch(_learners(), cv=3, risk=risk, random_state=0).fit(X, y))
    assert _decisions(runs[1].cv_results_) == _decisions(runs[0].cv_results_)
    assert runs[1].best_index_ == runs[0].best_index_


@pytest.mark.parametrize("search", [DAUBSearch, GPUCBSelector])
def test_runs_with_the_same_random_state_give_the_same_results_for_any_n_jobs(search):
    X, y = _data()
    runs = [search(_learners(), cv=3, random_state=0, n_jobs=n_jobs).fit(X, y)
            for n_jobs in (1, 2, 1)]
    for other in runs[1:]:
        assert _decisions(other.cv_results_) == _decisions(runs[0].cv_results_)
        assert other.best_index_ == runs[0].best_index_


@pytest.mark.parametrize("reward", ["auto", "mean"])
def test_mutant_ucb_gives_the_same_results_for_any_n_jobs(reward):
    # Without max_time its decisions wait for the results of the actions eight
    # behind, in the order handed out: the same run on one worker or two.
    from scipy.stats import loguniform
    from sklearn.linear_model import SGDClassifier

    from sksel import MutantUCBSearch

    X, y = _data()
    runs = [MutantUCBSearch(SGDClassifier(random_state=0), {"alpha": loguniform(1e-6, 1e-1)},
                            budget=40, max_subtrains=4, reward=reward, cv=3, random_state=0,
                            n_jobs=n_jobs).fit(X, y)
            for n_jobs in (1, 2, 1)]
    for other in runs[1:]:
        assert _decisions(other.all_cv_results_) == _decisions(runs[0].all_cv_results_)
        assert _decisions(other.cv_results_) == _decisions(runs[0].cv_results_)
        assert other.best_index_ == runs[0].best_index_
    assert len(runs[0].policy_.parents_) > 4  # mutants were bred
