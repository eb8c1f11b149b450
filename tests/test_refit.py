"""The refit of the selection: a failed refit passes to the next candidate in rank."""

from types import SimpleNamespace

import numpy as np
import pytest
from sklearn.exceptions import FitFailedWarning
from sklearn.naive_bayes import GaussianNB

from sksel import KDPPSearch
from sksel._core.refit import _each_of


class _Trainer:
    """Refits a candidate as a string naming it; the candidates in `failing` raise."""

    def __init__(self, failing=()):
        self.failing = set(failing)
        self.refitted = []

    def refit(self, job, candidate, resource, fit_params):
        self.refitted.append(candidate)
        if candidate in self.failing:
            raise ValueError(f"candidate {candidate} cannot fit all the rows")
        return f"model {candidate}"


def _search(best, **params):
    """A search whose results rank candidates 0, 1, 2 as 2, 1, 3; row `best` selected."""
    search = KDPPSearch(GaussianNB(), {"var_smoothing": [1e-9, 1e-8, 1e-7]}, **params)
    search.n_splits_ = 2
    search.cv_results_ = {
        "candidate_id": np.array([0, 1, 2]), "n_resources": np.array([100, 100, 100]),
        "candidate_name": ["a", "b", "c"], "n_folds_run": np.array([2, 2, 2]),
        "split0_test_score": np.array([0.8, 0.9, 0.5]),
        "split1_test_score": np.array([0.8, 0.9, 0.5]),
        "mean_test_score": np.array([0.8, 0.9, 0.5]),
        "rank_test_score": np.array([2, 1, 3]),
        "params": [{"var_smoothing": v} for v in (1e-9, 1e-8, 1e-7)],
    }
    search.best_index_ = best
    search._failed_refits = []
    return search


def _refit_best(search, trainer):
    search._refit_best(SimpleNamespace(), trainer, lambda candidate: {}, "score", None)


def test_the_selected_candidate_is_refitted():
    search, trainer = _search(best=1), _Trainer()
    _refit_best(search, trainer)
    assert search.best_estimator_ == "model 1" and trainer.refitted == [1]
    assert search.refit_time_ >= 0


def test_a_failed_refit_passes_to_the_next_in_rank_which_ranks_first():
    search, trainer = _search(best=1), _Trainer(failing=[1])
    with pytest.warns(FitFailedWarning, match="refitting b on all the rows failed"):
        _refit_best(search, trainer)
    assert trainer.refitted == [1, 0]
    assert (search.best_index_, search.best_score_, search.best_estimator_) == (0, 0.8, "model 0")
    assert list(search.cv_results_["rank_test_score"]) == [1, 3, 2]
    assert search._failed_refits == [1]


def test_where_every_refit_fails_the_search_says_so():
    search = _search(best=1)
    with pytest.warns(FitFailedWarning), pytest.raises(
            RuntimeError, match="failed for each of the 3 candidates with a finite score"):
        _refit_best(search, _Trainer(failing=[0, 1, 2]))
    assert not hasattr(search, "best_estimator_")


def test_error_score_raise_raises_the_refits_error():
    search = _search(best=1, error_score="raise")
    with pytest.raises(ValueError, match="candidate 1 cannot fit"):
        _refit_best(search, _Trainer(failing=[1]))


def test_an_early_refit_is_taken_as_it_is():
    search, trainer = _search(best=1), _Trainer()
    early = SimpleNamespace(done={(1, 100): ("early model", 2.5)})
    search._refit_best(SimpleNamespace(), trainer, lambda candidate: {}, "score", early)
    assert (search.best_estimator_, search.refit_time_) == ("early model", 2.5)
    assert trainer.refitted == []


def test_each_of_in_words():
    assert _each_of(1) == "the one candidate" and _each_of(3) == "each of the 3 candidates"
