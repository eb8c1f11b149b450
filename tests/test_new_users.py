"""What a new user meets first: candidates the scoring cannot score, missing values in X,
the words of the messages, and a SIGINT ignored or sent.

Each mistake is refused before any training, with a message that names the candidate at
fault, the parameter and what to do; each message counts in the right number.
"""

import pytest
from sklearn.datasets import load_iris, make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sksel import DAUBSearch, KDPPSearch

CV3 = 3


def _out_of_time_after(monkeypatch, n_evaluations):
    """Make the engine's `max_time` run out once `n_evaluations` have finished."""
    from sksel._core.engine import Engine

    def out_of_time(engine):
        if engine._n_done < n_evaluations:
            return False
        if engine.stop_reason_ == "done":
            engine.stop_reason_ = "max_time"
        return True

    monkeypatch.setattr(Engine, "_out_of_time", out_of_time)


# ------------------------------------------------------------------------ words


def test_no_evaluation_in_max_time_says_to_give_a_larger_max_time(monkeypatch):
    """"raise max_time=..." beside a RuntimeError reads as Python's verb: the message says
    what to do in words, with the value it had."""
    X, y = load_iris(return_X_y=True)
    _out_of_time_after(monkeypatch, 0)
    search = DAUBSearch([GaussianNB(), LogisticRegression()], max_time=0.5, random_state=0)
    with pytest.raises(RuntimeError) as error:
        search.fit(X, y)
    assert str(error.value) == (
        "DAUBSearch finished no evaluation (stopped: max_time); give the search a larger "
        "max_time (now 0.5 s).")


@pytest.mark.parametrize("n_evaluations", [4, 7])
def test_a_search_cut_short_counts_what_it_left_undecided_in_the_right_number(
        monkeypatch, n_evaluations):
    """The warning of a search that max_time cut short says "1 candidate was", "0 were",
    and what to do in words."""
    X, y = make_classification(600, 10, random_state=0)
    _out_of_time_after(monkeypatch, n_evaluations)
    search = DAUBSearch([GaussianNB(), LogisticRegression(),
                         DecisionTreeClassifier(max_depth=2, random_state=0)],
                        cv=CV3, risk=0, b=20, r=2, cost="rows", random_state=0, max_time=100)
    with pytest.warns(UserWarning, match="before its choice was settled") as record:
        search.fit(X, y)
    words = [str(w.message) for w in record if "settled" in str(w.message)][0]
    # Brute force: the candidates evaluated, and those at the largest size two of them got.
    every = search.all_cv_results_
    evaluated = set(every["candidate_id"].tolist())
    sizes = [max(every["n_resources"][every["candidate_id"] == c]) for c in evaluated]
    shared = sorted(sizes)[-2]
    less = sum(size < shared for size in sizes)
    never = 3 - len(evaluated)
    assert 1 in (less, never)  # the singular this test is for
    counts = {0: "0 candidates were", 1: "1 candidate was", 2: "2 candidates were"}
    assert (f"Left undecided: {counts[less]} compared at less training only, {never} "
            f"{'was' if never == 1 else 'were'} never evaluated. Give the search a larger "
            f"max_time (now 100 s) to settle the choice.") in words
    assert "Raise" not in words


def test_one_candidate_and_one_evaluation_read_in_the_singular(capsys):
    X, y = load_iris(return_X_y=True)
    KDPPSearch(LogisticRegression(max_iter=1000), {"C": [1.0]}, n_iter=1, cv=CV3, verbose=1,
               random_state=0).fit(X, y)
    lines = [line for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert lines[0] == "[KDPPSearch] 1 candidate, 3-fold cv; 1 evaluation planned"
    assert lines[-1].startswith("[KDPPSearch] done: 1 evaluation used in ")


def test_counted():
    from sksel._core.naming import counted

    assert [counted(n, "fold") for n in (0, 1, 2)] == ["0 folds", "1 fold", "2 folds"]
    assert counted(1, "look on a subsample", "looks on a subsample") == "1 look on a subsample"
    assert counted(3, "look on a subsample", "looks on a subsample") == "3 looks on a subsample"



def test_a_refit_failing_for_the_one_candidate_scored_says_so_in_the_singular():
    from _common import FailsFromRows
    from sklearn.exceptions import FitFailedWarning

    X, y = make_classification(n_samples=300, random_state=0)
    search = KDPPSearch(FailsFromRows(250), {"max_depth": [3]}, n_iter=1, cv=CV3,
                        random_state=0)
    with pytest.warns(FitFailedWarning, match="on all the rows failed"), \
            pytest.raises(RuntimeError) as error:
        search.fit(X, y)
    assert ("the refit on all the rows failed for the one candidate with a finite score; "
            "the last error: MemoryError('cannot fit 300 rows')") in str(error.value)
