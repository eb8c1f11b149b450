"""What a new user meets first: candidates the scoring cannot score, missing values in X,
the words of the messages, and a SIGINT ignored or sent.

Each mistake is refused before any training, with a message that names the candidate at
fault, the parameter and what to do; each message counts in the right number.
"""

import os
import signal
import warnings

import numpy as np
import pytest
from _common import CountingClassifier, FailsFromRows, stop_after
from scipy.stats import loguniform
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.compose import make_column_transformer
from sklearn.datasets import load_iris, make_classification
from sklearn.decomposition import PCA
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.exceptions import FitFailedWarning
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression, SGDClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from sksel import DAUBSearch, GPUCBSelector, KDPPSearch, MutantUCBSearch

CV3 = 3


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
    assert np.isfinite(search.cv_results_["mean_test_score_at_resource"]).all()


def test_a_plain_callable_scorer_is_not_second_guessed():
    """A callable that is not a scikit-learn scorer declares nothing it calls: the
    candidates train, and it scores them as it will."""
    X, y = make_classification(n_samples=60, random_state=0)
    CountingScaler.n_fits = 0
    search = DAUBSearch([GaussianNB(), CountingScaler()], scoring=lambda est, X, y: 0.5,
                        cv=3, random_state=0).fit(X, y)
    assert CountingScaler.n_fits > 0
    assert (search.cv_results_["mean_test_score_at_resource"] == 0.5).all()


# ------------------------------------------------------------------- missing values in X


def _iris_with_nan():
    X, y = load_iris(return_X_y=True)
    X = X.copy()
    X[::7, 1] = np.nan  # 22 cells, in 22 rows
    return X, y


_IMPUTE = ("Impute the missing values within each of them: a Pipeline that starts with "
           "sklearn.impute.SimpleImputer, e.g. make_pipeline(SimpleImputer(), "
           "CountingClassifier()) in place of CountingClassifier(); or add a candidate that "
           "takes NaN, such as HistGradientBoostingClassifier(). (A candidate that takes NaN "
           "says so by scikit-learn's tag input_tags.allow_nan.)")


@pytest.mark.parametrize("as_", ["array", "dataframe", "sparse", "list"])
def test_nan_in_x_that_no_candidate_takes_is_said_before_any_training(as_):
    """Rather than scikit-learn's "All the fits failed" with the cause further down: how
    much of X is NaN, the candidates that cannot take it, and what to do, before any
    fit."""
    X, y = _iris_with_nan()
    if as_ == "dataframe":
        pd = pytest.importorskip("pandas")
        X = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    elif as_ == "sparse":
        from scipy import sparse

        X = sparse.csr_matrix(X)
    elif as_ == "list":
        X = X.tolist()
    CountingClassifier.n_fits = 0
    search = DAUBSearch([CountingClassifier(), CountingClassifier(C=2.0)], random_state=0)
    with pytest.raises(ValueError) as error:
        search.fit(X, y)
    assert str(error.value) == (
        "X holds NaN in 22 cells (22 of its 150 rows), and no candidate can take NaN: "
        "#0 CountingClassifier(C=1), #1 CountingClassifier(C=2). " + _IMPUTE)
    assert CountingClassifier.n_fits == 0


def test_infinity_in_x_is_said_with_its_own_remedy():
    X, y = load_iris(return_X_y=True)
    X = X.copy()
    X[3, 2] = np.inf
    with pytest.raises(ValueError) as error:
        GPUCBSelector([make_pipeline(StandardScaler(), CountingClassifier())]).fit(X, y)
    assert str(error.value) == (
        "X holds infinity in 1 cell (1 of its 150 rows), and the candidate cannot take "
        "infinity: #0 CountingClassifier. Replace the infinite values before the search "
        "(np.nan_to_num, or clip them): scikit-learn's estimators refuse infinity, those "
        "that take NaN included.")


def test_nan_that_some_candidates_take_warns_once_up_front_naming_the_others():
    """Where a candidate takes NaN the search runs: one warning, before any fit fails,
    names those that cannot (scaled, not imputed: NaN reaches the LogisticRegression),
    which fail, scored error_score; those that take it (imputed, or a model that takes
    NaN) are scored."""
    X, y = _iris_with_nan()
    candidates = [make_pipeline(StandardScaler(), LogisticRegression()),
                  make_pipeline(StandardScaler(), SimpleImputer(), LogisticRegression()),
                  HistGradientBoostingClassifier(max_iter=10, random_state=0)]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        search = DAUBSearch(candidates, cv=3, random_state=0).fit(X, y)
    messages = [(w.category, str(w.message)) for w in caught]
    ours = [i for i, (_, message) in enumerate(messages) if message.startswith("X holds")]
    assert len(ours) == 1
    assert messages[ours[0]] == (UserWarning, (
        "X holds NaN in 22 cells (22 of its 150 rows), which 1 candidate of the 3 cannot "
        "take: #0 LogisticRegression. Its fits will fail, scored error_score. Impute the "
        "missing values within it: a sklearn.impute.SimpleImputer as the Pipeline's first "
        "step, or leave it out."))
    failed = [i for i, (category, _) in enumerate(messages) if category is FitFailedWarning]
    assert failed and ours[0] < failed[0]
    scores = search.cv_results_["mean_test_score_at_resource"]  # those trained less included
    assert np.isnan(scores[0]) and np.isfinite(scores[1:]).all()


def test_a_column_transformer_that_imputes_takes_nan_in_a_dataframe():
    """A DataFrame with a categorical column, missing values in it and in a number column:
    a Pipeline whose ColumnTransformer imputes and encodes them takes it, no warning."""
    pd = pytest.importorskip("pandas")
    X, y = _iris_with_nan()
    X = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    X["kind"] = pd.Categorical(np.where(np.arange(150) % 5 == 0, None, "x"))
    columns = make_column_transformer((SimpleImputer(), ["a", "b", "c", "d"]),
                                      (OneHotEncoder(handle_unknown="ignore"), ["kind"]))
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="X holds")
        search = DAUBSearch([make_pipeline(columns, LogisticRegression(max_iter=500)),
                             HistGradientBoostingClassifier(max_iter=10, random_state=0)],
                            cv=3, random_state=0).fit(X, y)
    assert np.isfinite(search.cv_results_["mean_test_score_at_resource"]).all()


def test_the_cells_and_rows_counted_alike_in_every_kind_of_x():
    from scipy import sparse

    from sksel._core.missing import _non_finite

    X, _ = _iris_with_nan()
    X[5, 0] = np.inf
    counts = (22, 1, 23, 150)
    assert _non_finite(X) == _non_finite(X.tolist()) == _non_finite(sparse.csc_matrix(X)) \
        == counts
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(X)
    frame["text"] = np.where(np.arange(150) == 1, None, "x")  # one more cell, one more row
    assert _non_finite(frame) == (23, 1, 24, 150)
    assert _non_finite(np.ones((3, 2))) is None
    assert _non_finite(["some text", "more"]) is None


# ------------------------------------------------------------------------ words


def test_no_evaluation_in_max_time_says_to_give_a_larger_max_time(monkeypatch):
    """"raise max_time=..." beside a RuntimeError reads as Python's verb: the message says
    what to do in words, with the value it had. (Candidates whose every fit fails leave no
    first model to select, so that max_time, run out at once, ends the search with none.)"""
    X, y = load_iris(return_X_y=True)
    stop_after(monkeypatch, 0)
    search = DAUBSearch([FailsFromRows(1), FailsFromRows(1, max_depth=2)], max_time=0.5,
                        random_state=0)
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
    stop_after(monkeypatch, n_evaluations)
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


def test_a_budget_too_small_says_to_increase_it():
    X, y = load_iris(return_X_y=True)
    search = MutantUCBSearch(SGDClassifier(), {"alpha": loguniform(1e-5, 1e-1)}, budget=3,
                             n_initial=5, max_subtrains=10)
    with pytest.raises(ValueError) as error:
        search.fit(X, y)
    assert str(error.value) == (
        "budget=3 cannot give n_initial=5 models one sub-train each and finish one of them "
        "to max_subtrains=10: the smallest budget that can is 14. Increase budget, or lower "
        "n_initial or max_subtrains.")


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


# ------------------------------------------------------------------------ SIGINT


class SendsSigint(ClassifierMixin, BaseEstimator):
    """Naive Bayes whose first fit in a process sends a SIGINT, as Ctrl-C does, to the
    process `pid` (None: its own); it records the SIGINT handler its fits ran under (class
    attributes: those of the fits run in this process)."""

    handlers = []

    def __init__(self, var_smoothing=1e-9, pid=None):
        self.var_smoothing = var_smoothing
        self.pid = pid

    def fit(self, X, y):
        type(self).handlers.append(signal.getsignal(signal.SIGINT))
        if len(type(self).handlers) == 1:
            os.kill(os.getpid() if self.pid is None else self.pid, signal.SIGINT)
        self.nb_ = GaussianNB(var_smoothing=self.var_smoothing).fit(X, y)
        self.classes_ = self.nb_.classes_
        return self

    def predict(self, X):
        return self.nb_.predict(X)


@pytest.mark.skipif(not hasattr(signal, "SIGINT"), reason="no SIGINT on this platform")
@pytest.mark.parametrize("n_jobs", [1, 2])
def test_a_fit_started_with_sigint_ignored_leaves_it_ignored(n_jobs):
    """A process started in the background by a non-interactive shell inherits SIGINT
    ignored: the search leaves it so, during the fit (a SIGINT sent to the process that
    runs the search is then ignored, and the search runs to its end) and after. (A loky
    worker started earlier in the process has Python's own handler: the SIGINT goes to
    this process, as a shell's would.)"""
    X, y = load_iris(return_X_y=True)
    SendsSigint.handlers = []
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        search = DAUBSearch([SendsSigint(pid=os.getpid()),
                             SendsSigint(var_smoothing=1e-3, pid=os.getpid())], cv=3,
                            n_jobs=n_jobs, random_state=0).fit(X, y)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)
    assert search.stop_reason_ == "done"
    assert hasattr(search, "best_estimator_")
    if n_jobs == 1:  # the fits ran in this process, under the handler the search left
        assert set(SendsSigint.handlers) == {signal.SIG_IGN}


@pytest.mark.skipif(not hasattr(signal, "SIGINT"), reason="no SIGINT on this platform")
def test_a_sigint_during_the_fit_raises_keyboard_interrupt_with_the_default_handler():
    """With Python's own handler installed, a SIGINT sent while a candidate trains ends the
    fit with KeyboardInterrupt, and the handler is the same after the fit."""
    X, y = load_iris(return_X_y=True)
    SendsSigint.handlers = []
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            DAUBSearch([SendsSigint(), SendsSigint(var_smoothing=1e-3)], cv=3,
                       random_state=0).fit(X, y)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, previous)
    assert len(SendsSigint.handlers) >= 1
