"""Many workers and a dask cluster: the guarantees that hold whatever the workers.

No timing is asserted: these check what the searches decide and spend with
32 threads and on an in-process dask cluster, against one worker.
"""
import pytest
from joblib import parallel_config
from scipy import stats
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression, SGDClassifier
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier
from test_search_face import _same_results

from sksel import DAUBSearch, GPUCBSelector, KDPPSearch, MutantUCBSearch

CV3 = StratifiedKFold(3, shuffle=True, random_state=0)

#: Searches whose results do not depend on the number of workers.
SEARCHES = {
    "daub": lambda **kw: DAUBSearch(
        [GaussianNB(), DecisionTreeClassifier(max_depth=3, random_state=0),
         KNeighborsClassifier(15), LogisticRegression(C=0.01), LogisticRegression(C=1.0)],
        cv=CV3, cost="rows", refit=False, random_state=0, **kw),
    "gpucb": lambda **kw: GPUCBSelector(
        LogisticRegression(), {"C": [0.001, 0.01, 0.1, 1.0, 10.0, 100.0]}, n_iter=4,
        cv=CV3, refit=False, random_state=0, **kw),
    "kdpp": lambda **kw: KDPPSearch(
        LogisticRegression(), {"C": stats.loguniform(1e-3, 1e2)}, n_iter=6, cv=CV3,
        refit=False, random_state=0, **kw),
}


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


@pytest.mark.parametrize("name", sorted(SEARCHES))
def test_32_threads_give_the_one_worker_results(name, iris):
    one = SEARCHES[name](n_jobs=1).fit(*iris)
    with parallel_config("threading"):
        many = SEARCHES[name](n_jobs=32).fit(*iris)
    _same_results(one.cv_results_, many.cv_results_)
    if name != "kdpp":  # k-DPP evaluates its draws open loop, without a policy_
        assert one.policy_.decisions_ == many.policy_.decisions_


def test_mutant_ucb_on_32_threads_keeps_its_budget_and_one_pull_per_model(iris):
    X, y = iris
    search = MutantUCBSearch(SGDClassifier(loss="log_loss", random_state=0),
                             {"alpha": stats.loguniform(1e-5, 1e-1)}, budget=60,
                             max_subtrains=5, cv=CV3, random_state=0, n_jobs=32)
    with parallel_config("threading"):
        search.fit(X, y)
    history = search.policy_.history_
    assert len(history) <= 60
    assert len(set(history)) == len(history)  # no sub-train handed out twice
    # Every model's sub-trains were handed out in order, one at a time.
    for model in {m for m, _ in history}:
        assert [n for m, n in history if m == model] == list(
            range(1, 1 + sum(m == model for m, _ in history)))
    best = search.best_index_
    assert search.cv_results_["n_resources"][best] == 5


@pytest.mark.parametrize("name", ["daub", "gpucb"])
def test_a_dask_cluster_gives_the_one_worker_results(name, iris):
    distributed = pytest.importorskip("distributed")
    one = SEARCHES[name](n_jobs=1).fit(*iris)
    with (distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                   dashboard_address=None) as cluster,
          distributed.Client(cluster), parallel_config("dask")):
        remote = SEARCHES[name](n_jobs=2).fit(*iris)
    _same_results(one.cv_results_, remote.cv_results_)
