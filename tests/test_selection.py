"""The selection of a fitted search: the rows used, the best row, a cut short search's words."""

from types import SimpleNamespace

import numpy as np
import pytest
from sklearn.naive_bayes import GaussianNB

from sksel import KDPPSearch
from sksel._core.selection import _cut_short_words, row_of_action, used_actions


class _Policy:
    def __init__(self, decisions, will_use=()):
        self.decisions_ = list(decisions)
        self._will_use = set(will_use)

    def will_use(self, action):
        return action in self._will_use


def test_the_rows_used_are_the_decisions_then_those_the_policy_will_use():
    run = SimpleNamespace(evaluations=[((2, 10), []), ((0, 10), []), ((1, 10), [])])
    policy = _Policy([(0, 10)], will_use=[(1, 10)])
    assert used_actions(run, policy) == [(0, 10), (1, 10)]
    assert used_actions(run, policy, cut=True) == [(0, 10), (2, 10), (1, 10)]


def test_only_rows_evaluated_on_every_fold_are_keyed_by_their_action():
    results = {"candidate_id": np.array([0, 1, 2]), "n_resources": [10, 10, 20],
               "n_folds_run": [3, 1, 3]}
    assert row_of_action(results) == {(0, 10): 0, (2, 20): 2}


def _search(**params):
    search = KDPPSearch(GaussianNB(), {"var_smoothing": [1e-9, 1e-8]}, **params)
    search.cv_results_ = {"mean_test_score": np.array([0.5, 0.9]),
                          "params": [{"var_smoothing": 1e-9}, {"var_smoothing": 1e-8}]}
    return search


def test_select_sets_the_best_row_its_params_and_score():
    search = _search()
    search._select(1, "score")
    assert (search.best_index_, search.best_score_) == (1, 0.9)
    assert search.best_params_ == {"var_smoothing": 1e-8}


def test_a_callable_refit_selects_no_score():
    search = _search(refit=lambda results: 0)
    search._select(0, "score")
    assert search.best_index_ == 0 and not hasattr(search, "best_score_")


@pytest.mark.parametrize("unit, noun, words", [
    ("resource", None, "resource 600 of 6000"),
    ("rows", None, "600 of 6,000 rows"),
    ("resource", "sub-trains", "600 of 6,000 sub-trains"),
])
def test_a_resource_in_words(monkeypatch, unit, noun, words):
    search = _search()
    monkeypatch.setattr(search, "_resource_unit", unit)
    monkeypatch.setattr(search, "_resource_noun", noun)
    assert search._resource_words(600, 6000) == words


def test_what_cut_the_search_short_in_words():
    search = _search(max_time=30)
    search.stop_reason_ = "max_time"
    assert search._cut_cause() == "max_time=30 s"
    search.stop_reason_ = "interrupted"
    assert search._cut_cause() == "a Ctrl-C"


def test_the_candidates_not_evaluated_say_what_ended_the_search():
    search = _search(max_time=30)
    search.stop_reason_ = "max_time"
    job = SimpleNamespace(candidates=[{}, {}, {}])
    assert search._not_evaluated(job, [((1, 10), [])], None) == {
        0: "max_time=30 s ended the search first", 2: "max_time=30 s ended the search first"}


def test_a_cut_short_search_names_its_leaders_and_what_is_left():
    every = {"mean_test_score": np.array([0.8, 0.7]), "std_test_score": np.array([0.02, 0.04]),
             "n_folds_run": np.array([3, 3])}
    results = {"candidate_id": np.array([0, 1, 2]), "n_folds_run": np.array([3, 3, 0]),
               "candidate_name": ["a", "b", "c"], "mean_test_score": np.array([0.85, 0.7, 0.0]),
               "std_test_score": np.array([0.0, 0.04, 0.0])}
    words = _cut_short_words(100, [(0, 0), (1, 1)], every, results,
                             resources=np.array([200, 100, 0]), metric="score", n_candidates=3)
    assert words.startswith("The candidates are compared at resource 100, the most training "
                            "that 2 of them got")
    assert "a 0.8000 ± 0.0141, went on to 200: 0.8500 ± 0.0000; b 0.7000 ± 0.0283" in words
    assert words.endswith("0 candidates were compared at less training only, 1 was never "
                          "evaluated.")
