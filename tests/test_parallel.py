"""Many workers and a dask cluster: the guarantees that hold whatever the workers.

No timing is asserted: these check what the searches decide and spend with
32 threads and on a dask cluster, against one worker, and that Mutant-UCB's
models stay on the dask workers between sub-trains.
"""
import os
import pickle

import numpy as np
import pytest
from _registry import BY_NAME, CASES, CV3
from joblib import parallel_config
from scipy import stats
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import load_iris
from sklearn.linear_model import SGDClassifier
from test_search_face import _same_results

from sksel import MutantUCBSearch
from sksel._core.dask import StateOnWorkers

#: The searches whose results do not depend on the number of workers.
SAME_FOR_ANY_N_JOBS = [case for case in CASES if case.same_for_any_n_jobs]


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


# Iris's 100-row training folds hold two of DAUB's subsample sizes, and lbfgs does not converge
# on its unscaled features in LogisticRegression's 100 iterations.
@pytest.mark.filterwarnings("ignore:The subsample sizes .* hold fewer than two:UserWarning")
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("case", SAME_FOR_ANY_N_JOBS, ids=str)
def test_32_threads_give_the_one_worker_results(case, iris):
    one = case.build(n_jobs=1, refit=False).fit(*iris)
    with parallel_config("threading"):
        many = case.build(n_jobs=32, refit=False).fit(*iris)
    _same_results(one.cv_results_, many.cv_results_)
    if hasattr(one, "policy_"):  # k-DPP evaluates its draws open loop, without a policy_
        assert one.policy_.decisions_ == many.policy_.decisions_


def test_mutant_ucb_on_32_threads_keeps_its_budget_and_one_pull_per_model(iris):
    X, y = iris
    search = MutantUCBSearch(SGDClassifier(loss="log_loss", random_state=0),
                             {"alpha": stats.loguniform(1e-5, 1e-1)}, budget=60,
                             max_subtrains=5, reward="auto", cv=CV3, random_state=0, n_jobs=32)
    with parallel_config("threading"):
        search.fit(X, y)
    history = search.policy_.history_
    assert len(set(history)) == len(history)  # no sub-train handed out twice
    # Every model's pulls were handed out in order, each doubling its sub-trains (or
    # ending them at the cap), and they add up to at most the budget.
    spent = 0
    for model in {m for m, _ in history}:
        steps = [n for m, n in history if m == model]
        assert steps[0] == 1 and all(a < b <= max(2 * a, 5) for a, b in zip(steps, steps[1:]))
        spent += steps[-1]
    assert spent <= 60
    best = search.best_index_
    assert search.cv_results_["n_resources"][best] == 5
    # On 32 workers as on one: the decisions wait for results eight behind.
    one = clone(search).set_params(n_jobs=1).fit(X, y)
    assert one.policy_.history_ == history


# Iris's warnings, as above.
@pytest.mark.filterwarnings("ignore:The subsample sizes .* hold fewer than two:UserWarning")
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("name", ["daub", "gpucb"])
def test_a_dask_cluster_gives_the_one_worker_results(name, iris):
    distributed = pytest.importorskip("distributed")
    one = BY_NAME[name].build(n_jobs=1, refit=False).fit(*iris)
    with (distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                   dashboard_address=None) as cluster,
          distributed.Client(cluster), parallel_config("dask")):
        remote = BY_NAME[name].build(n_jobs=2, refit=False).fit(*iris)
    _same_results(one.cv_results_, remote.cv_results_)


# ------------------------------------------------ states left on dask workers
_CLIENT_PID = "SKSEL_TEST_CLIENT_PID"


def _in_client():
    return os.environ.get(_CLIENT_PID) == str(os.getpid())


class ClientRefusingState:
    """Learned state that cannot be pickled, nor unpickled, in the process running the search."""

    def __init__(self, data):
        self.data = data

    def __reduce__(self):
        if _in_client():
            raise pickle.PicklingError("a model's state was pickled by the search's process")
        return _state_on_a_worker, (self.data,)


def _state_on_a_worker(data):
    if _in_client():
        raise pickle.UnpicklingError("a model's state came to the search's process")
    return ClientRefusingState(data)


class CountingClassifier(ClassifierMixin, BaseEstimator):
    """Trained by ``partial_fit``, with a state refusing the search's process; counts its calls."""

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def partial_fit(self, X, y, classes=None):
        if not hasattr(self, "state_"):
            self.classes_ = np.unique(y) if classes is None else np.asarray(classes)
            self.state_ = ClientRefusingState(np.ones(1 << 20, dtype=np.uint8))
            self.n_calls_ = 0
        self.n_calls_ += 1
        return self

    def fit(self, X, y):
        return self.partial_fit(X, y)

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


def _calls(estimator, X, y):
    return estimator.n_calls_


def test_mutant_ucb_on_dask_keeps_each_model_on_the_workers(iris, monkeypatch):
    # Between two sub-trains a model stays on the worker that trained it:
    # its state refuses to be pickled or unpickled here, so a sub-train whose
    # model went through this process would fail (its score would be NaN).
    # The score is the model's partial_fit calls: a model that did not go on
    # from where it was would score 1.
    distributed = pytest.importorskip("distributed")
    monkeypatch.setenv(_CLIENT_PID, str(os.getpid()))
    search = MutantUCBSearch(CountingClassifier(), {"alpha": stats.uniform(0, 1)}, budget=24,
                             max_subtrains=4, scoring=_calls, cv=CV3, refit=False,
                             error_score="raise", random_state=0, n_jobs=2)
    with (distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                   host="127.0.0.1", dashboard_address=None) as cluster,
          distributed.Client(cluster), parallel_config("dask")):
        search.fit(*iris)
    results = search.all_cv_results_
    # The budget, less at most max_subtrains - 1 per worker left by the leaders finished at once.
    assert 24 - 2 * 3 <= len(results["params"]) <= 24
    np.testing.assert_array_equal(results["mean_test_score"], results["n_resources_total"])
    assert max(results["n_resources"]) == 4


def test_mutant_ucb_checkpointed_on_dask_resumes_anywhere(iris, tmp_path):
    # The checkpoint holds the models, not the futures of the cluster that
    # trained them, so a fit in this process resumes from it: its first
    # evaluations (the initial models' first sub-trains, which do not depend
    # on timing) are the recorded ones, replayed.
    distributed = pytest.importorskip("distributed")
    folder = tmp_path / "checkpoint"
    search = MutantUCBSearch(SGDClassifier(loss="log_loss", random_state=0),
                             {"alpha": stats.loguniform(1e-5, 1e-1)}, budget=20,
                             max_subtrains=4, cv=CV3, random_state=0, n_jobs=2,
                             checkpoint=folder)
    with (distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                   dashboard_address=None) as cluster,
          distributed.Client(cluster), parallel_config("dask")):
        search.fit(*iris)
    records = [pickle.loads(path.read_bytes()) for path in sorted(folder.glob("[0-9]*.pkl"))]
    # Every evaluation is recorded.
    assert len(records) == len(search.all_cv_results_["params"])
    for _, outputs, _ in records:
        assert all(isinstance(output["model"], SGDClassifier) for output in outputs)
    # The decisions do not depend on the workers: resumed on one, the search
    # replays every record and ends as the one on the cluster did.
    resumed = clone(search).set_params(n_jobs=1).fit(*iris)
    for key in ("params", "mean_test_score", "n_resources"):
        assert list(resumed.all_cv_results_[key]) == list(search.all_cv_results_[key])


class _Tally:
    """Learned state that counts the tasks that trained it."""

    def __init__(self):
        self.n = 0


def _train_once_more(key, tally):
    # Trains the state it takes up in place, as a sub-train does.
    tally = _Tally() if tally is None else tally
    tally.n += 1
    return key, {"model": tally, "n": tally.n}


def test_a_task_run_again_on_the_state_it_took_up_trains_it_as_much():
    # dask runs a task again where its result was lost with a worker, on the
    # state it took up the first time; that state must be as the task that
    # made it left it. Here two tasks take up the same state: each counts 2.
    distributed = pytest.importorskip("distributed")
    with (distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=None)
          as cluster, distributed.Client(cluster) as client):
        tasks = StateOnWorkers(client, "model")
        tasks.submit((_train_once_more, ["first", None], {}))
        _, _, first = tasks.next_done(timeout=30)
        for key in ("second", "second again"):
            tasks.submit((_train_once_more, [key, first["model"]], {}))
        counts = dict(tasks.next_done(timeout=30)[1:] for _ in range(2))
        tasks.close()
    assert first["n"] == 1
    assert {key: output["n"] for key, output in counts.items()} == {
        "second": 2, "second again": 2}


class KillingClassifier(CountingClassifier):
    """A counting classifier whose first sub-train kills its worker when `alpha` > 0.8."""

    def partial_fit(self, X, y, classes=None):
        if self.alpha > 0.8:
            os._exit(1)
        return super().partial_fit(X, y, classes)


@pytest.mark.slow
def test_mutant_ucb_on_dask_survives_a_model_that_kills_its_worker(iris):
    # dask retries the killer's task on other workers until it gives up
    # (KilledWorker): that model is a failed evaluation. A model whose state
    # died with a worker is computed again by dask where it can be, else its
    # sub-train is a failed evaluation too; the search goes on, and every
    # score it keeps is right. About 15 s on 2 cores.
    distributed = pytest.importorskip("distributed")
    search = MutantUCBSearch(KillingClassifier(), {"alpha": stats.uniform(0, 1)}, budget=30,
                             max_subtrains=4, scoring=_calls, cv=CV3, refit=False,
                             random_state=3, n_jobs=2)
    with (distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                   host="127.0.0.1", dashboard_address=None) as cluster,
          distributed.Client(cluster), parallel_config("dask"),
          pytest.warns(RuntimeWarning, match="dask gave up its task")):
        search.fit(*iris)
    results = search.all_cv_results_
    killers = np.array([params["alpha"] > 0.8 for params in results["params"]])
    assert killers.any() and not killers.all()
    scores = np.asarray(results["mean_test_score"], dtype=float)
    kept = np.isfinite(scores)
    assert not kept[killers].any()
    assert kept[~killers].mean() > 0.5
    np.testing.assert_array_equal(scores[kept], results["n_resources_total"][kept])
    assert search.best_params_["alpha"] <= 0.8
