"""What a new user meets first: candidates the scoring cannot score, missing values in X,
the words of the messages, and a SIGINT ignored or sent.

Each mistake is refused before any training, with a message that names the candidate at
fault, the parameter and what to do; each message counts in the right number.
"""

import numpy as np
import pytest
from _common import CountingClassifier
from scipy.stats import loguniform
from sklearn.datasets import load_iris, make_classification
from sklearn.decomposition import PCA
from sklearn.linear_model import LogisticRegression, SGDClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from sksel import DAUBSearch, GPUCBSelector, KDPPSearch, MutantUCBSearch

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


# ------------------------------------------------------- candidates that cannot be scored


class CountingScaler(StandardScaler):
    """A scaler that counts its fits (class attribute): a candidate that cannot predict."""

    n_fits = 0

    def fit(self, X, y=None, sample_weight=None):
        type(self).n_fits += 1
        return super().fit(X, y, sample_weight=sample_weight)


_REMEDY = ("Found before any training: every candidate needs what the scoring calls. Give "
           "classifiers or regressors (or Pipelines that end in one) in its place, or remove it "
           "from {where}; or give a scoring that it can answer.")
_SCORE = ("cannot be scored: it has no score method, which scoring=None calls (a candidate's "
          "own score). ")
_PIPE = Pipeline([("scale", StandardScaler()), ("clf", CountingClassifier())])
_PIPE_WORDS = ("estimator Pipeline(steps=[('scale', StandardScaler()), "
               "('clf', CountingClassifier())]) with clf=CountingScaler()")


@pytest.mark.parametrize("make, words, where", [
    (lambda: DAUBSearch([CountingClassifier(), CountingScaler()]),
     "estimator[1] CountingScaler()", "estimator"),
    (lambda: DAUBSearch([CountingScaler(), CountingClassifier()]),
     "estimator[0] CountingScaler()", "estimator"),
    (lambda: GPUCBSelector([CountingClassifier(), (CountingScaler(), {"copy": [True]})]),
     "estimator[1] CountingScaler() with copy=True", "estimator"),
    (lambda: GPUCBSelector(_PIPE, {"clf": [CountingClassifier(), CountingScaler()]}),
     _PIPE_WORDS, "param_grid"),
    (lambda: KDPPSearch(_PIPE, [{"clf": [CountingClassifier()], "clf__C": loguniform(1, 10)},
                                {"clf": [CountingScaler()]}], n_iter=2, random_state=0),
     _PIPE_WORDS, "param_distributions"),
], ids=["daub", "daub-first", "gpucb-pair", "gpucb-step", "kdpp-branch"])
def test_a_candidate_that_cannot_be_scored_is_refused_before_any_training(make, words, where):
    """A transformer among the candidates (scoring=None calls its score, which it has not)
    is refused with a ValueError that names it, the parameter that gave it and what to do,
    before any candidate trains; a step a param_grid puts in a Pipeline is checked as the
    Pipeline it makes."""
    X, y = make_classification(n_samples=60, random_state=0)
    CountingClassifier.n_fits = CountingScaler.n_fits = 0
    with pytest.raises(ValueError) as error:
        make().fit(X, y)
    assert str(error.value) == f"{words} {_SCORE}{_REMEDY.format(where=where)}"
    assert CountingClassifier.n_fits == CountingScaler.n_fits == 0


def test_a_step_mutant_ucb_may_draw_later_is_checked_before_any_training():
    """Mutant-UCB draws two models and breeds others: a branch of the space neither drawn
    model is from, whose step cannot be scored, is refused all the same."""
    X, y = make_classification(n_samples=60, random_state=0)
    pipe = Pipeline([("scale", StandardScaler()), ("clf", SGDClassifier())])
    space = [{"clf": [SGDClassifier()], "clf__alpha": loguniform(1e-5, 1e-1)},
             {"clf": [CountingScaler()]}]
    CountingScaler.n_fits = 0
    for seed in range(3):
        with pytest.raises(ValueError, match=r"^estimator Pipeline\(.*\) with clf="
                           r"CountingScaler\(\) cannot be scored: it has no score method"):
            MutantUCBSearch(pipe, space, budget=30, n_initial=2, random_state=seed).fit(X, y)
    assert CountingScaler.n_fits == 0


def test_a_scorer_needs_the_method_it_calls():
    """A string scorer calls what it declares: neg_log_loss predict_proba (SVC has none
    without probability=True), roc_auc decision_function or predict_proba (SVC has the
    first), accuracy predict (a Pipeline has it where its final step has)."""
    X, y = make_classification(n_samples=80, random_state=0)
    with pytest.raises(ValueError) as error:
        DAUBSearch([LogisticRegression(), SVC()], scoring="neg_log_loss").fit(X, y)
    assert str(error.value) == (
        "estimator[1] SVC() cannot be scored: it has no predict_proba method, which "
        "scoring='neg_log_loss' calls. " + _REMEDY.format(where="estimator"))
    with pytest.raises(ValueError) as error:
        GPUCBSelector(SVC(), {"C": [1.0, 10.0], "probability": [False]},
                      scoring=["accuracy", "neg_log_loss"], refit="accuracy").fit(X, y)
    assert str(error.value).startswith(
        "2 candidates cannot be scored: estimator SVC() with C=1.0, probability=False has no "
        "predict_proba method, which scoring's 'neg_log_loss' calls; estimator SVC() with "
        "C=10.0, probability=False has no predict_proba method, which scoring's "
        "'neg_log_loss' calls. Found before any training")
    assert str(error.value).endswith("or remove them from param_grid; or give a scoring "
                                     "that they can answer.")
    with pytest.raises(ValueError, match=r"^estimator\[1\] Pipeline\(steps=\[\('standardscaler', "
                       r"StandardScaler\(\)\), \('pca', PCA\(\)\)\]\) cannot be scored: it has "
                       r"no predict method, which scoring='accuracy' calls\."):
        DAUBSearch([LogisticRegression(), make_pipeline(StandardScaler(), PCA())],
                   scoring="accuracy").fit(X, y)
    search = DAUBSearch([LogisticRegression(), SVC(),
                         make_pipeline(StandardScaler(), LogisticRegression())],
                        scoring="roc_auc", cv=3, random_state=0).fit(X, y)
    assert np.isfinite(search.cv_results_["mean_test_score"]).all()


def test_a_plain_callable_scorer_is_not_second_guessed():
    """A callable that is not a scikit-learn scorer declares nothing it calls: the
    candidates train, and it scores them as it will."""
    X, y = make_classification(n_samples=60, random_state=0)
    CountingScaler.n_fits = 0
    search = DAUBSearch([GaussianNB(), CountingScaler()], scoring=lambda est, X, y: 0.5,
                        cv=3, random_state=0).fit(X, y)
    assert CountingScaler.n_fits > 0
    assert (search.cv_results_["mean_test_score"] == 0.5).all()


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
