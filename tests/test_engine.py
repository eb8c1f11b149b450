"""The engine: workers that die under a fit, max_time between folds, Ctrl-C.

The engine is driven by a policy that hands out fixed actions ``(name, n_tasks)``;
a task is a module-level function (loky and dask workers unpickle it) that
logs its start to a file, so that the tests count the tasks that ran in any
process (a list does at ``n_jobs=1``, where the tasks run in this process).
"""

import os
import signal
import threading
import time
import warnings
from collections import deque

import numpy as np
import pytest
from joblib import parallel_config
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_iris, make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier
from threadpoolctl import threadpool_info, threadpool_limits

from sksel import DAUBSearch, GPUCBSelector
from sksel._core.engine import Engine

_MARKER_TIMEOUT = 60


# --------------------------------------------------------------------- tasks
def _log_start(log, name, i):
    with open(log, "a") as f:
        f.write(f"{name} {i}\n")


def _work(log, name, i, seconds=0.0):
    _log_start(log, name, i)
    time.sleep(seconds)
    return f"{name}-{i}"


def _die(log, name, i, marker):
    """Kill the worker process, a moment after saying so in `marker`."""
    _log_start(log, name, i)
    open(marker, "w").close()
    time.sleep(0.5)
    os._exit(1)


def _wait_for_death(log, name, i, marker):
    """Run until a killer has died beside this task, and a while after."""
    _log_start(log, name, i)
    deadline = time.monotonic() + _MARKER_TIMEOUT
    while not os.path.exists(marker) and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(1.2)
    return f"{name}-{i}"


def _fail(log, name, i):
    raise ValueError("a fit error")


class _FixedPolicy:
    """Hands out `actions` in order, one per ask; done once all are told.

    Its next decision is the first action not told, as a sequential run's.
    """

    def __init__(self, actions):
        self._actions = list(actions)
        self._todo = deque(actions)
        self._n_actions = len(actions)
        self.told = []

    def ask(self, n_actions=1, speculative=True, idle=False):
        return [self._todo.popleft() for _ in range(min(n_actions, len(self._todo)))]

    @property
    def next_decision(self):
        return next((a for a in self._actions if a not in self.told), None)

    @property
    def done(self):
        return len(self.told) == self._n_actions


def _failed_output(action, i, reason):
    return {"failed": reason}


def _run_engine(actions, task, on_done=None, **params):
    """Run `actions` through an Engine; `task(name, i)` is one task's tuple.

    Returns the engine, the outputs per action and the warnings raised.
    """
    policy = _FixedPolicy(actions)
    results = {}

    def collect(action, outputs):
        assert action not in results, f"{action} reported twice"
        results[action] = outputs
        policy.told.append(action)
        if on_done is not None:
            on_done(action)

    def make_tasks(action):
        name, n_tasks = action
        return [task(name, i) for i in range(n_tasks)]

    engine = Engine(make_tasks, collect, _failed_output, **params)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        engine.run(policy)
    return engine, results, caught


def _starts(log):
    """How many times each ``"name i"`` task started."""
    if not os.path.exists(log):
        return {}
    with open(log) as f:
        lines = f.read().split("\n")[:-1]
    return {line: lines.count(line) for line in set(lines)}


def _killer_scenario(tmp_path):
    """Actions and tasks where `killer` kills its worker with `innocent` beside it.

    `innocent` runs until the killer has died; `killer`'s task 0 returns,
    its task 1 kills the worker.
    """
    log, marker = str(tmp_path / "log"), str(tmp_path / "marker")

    def task(name, i):
        if name == "innocent":
            return _wait_for_death, (log, name, i, marker), {}
        if name == "killer" and i == 1:
            return _die, (log, name, i, marker), {}
        return _work, (log, name, i), {}

    actions = [("innocent", 1), ("killer", 2), ("a", 2), ("b", 1)]
    return actions, task, log


def _check_killer_run(engine, results, caught, log, error_name):
    """The checks shared by the loky and dask runs of the killer scenario."""
    assert engine.stop_reason_ == "done"
    assert set(results) == {("innocent", 1), ("killer", 2), ("a", 2), ("b", 1)}
    for action in [("innocent", 1), ("a", 2), ("b", 1)]:
        assert results[action] == [f"{action[0]}-{i}" for i in range(action[1])]

    # The task that returned is kept; the one that killed is given up for good.
    killer = results[("killer", 2)]
    assert killer[0] == "killer-0"
    assert "died twice" in killer[1]["failed"]
    assert error_name in killer[1]["failed"]
    starts = _starts(log)
    assert starts["killer 0"] == 1
    assert starts["killer 1"] == 2

    deaths = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)
              and "worker died" in str(w.message)]
    assert len(deaths) == 1
    assert "candidate killer at 2" in deaths[0] and error_name in deaths[0]
    # The innocent was in flight at the death, was run again, and was not blamed.
    assert "candidate innocent at 1" in deaths[0]
    assert starts["innocent 0"] == 2
    given_up = [str(w.message) for w in caught if "giving it up" in str(w.message)]
    assert len(given_up) == 1 and "candidate killer at 2" in given_up[0]


# ------------------------------------------------------------- dead workers
@pytest.fixture(scope="module")
def loky_killer_run(tmp_path_factory):
    actions, task, log = _killer_scenario(tmp_path_factory.mktemp("loky"))
    engine, results, caught = _run_engine(actions, task, n_jobs=2)
    return engine, results, caught, log


def test_dead_worker_costs_only_its_candidate_loky(loky_killer_run):
    engine, results, caught, log = loky_killer_run
    _check_killer_run(engine, results, caught, log, "TerminatedWorkerError")


def test_candidate_beside_a_dead_worker_is_not_given_up(loky_killer_run):
    engine, results, caught, log = loky_killer_run
    (death,) = [str(w.message) for w in caught if "worker died" in str(w.message)]
    assert "candidate innocent at 1" in death
    assert _starts(log)["innocent 0"] == 2
    assert results[("innocent", 1)] == ["innocent-0"]


@pytest.mark.slow
def test_dead_worker_costs_only_its_candidate_dask(tmp_path):
    # Observed with distributed 2026.8 and joblib 1.6: when the killer's
    # worker dies, the nanny restarts it and the scheduler reruns the task,
    # on whichever worker is up, until it has killed allowed-failures + 1
    # workers (4 by default); the future then fails with KilledWorker, and
    # tasks of other actions on a dead worker are rerun elsewhere. joblib's
    # dask backend never calls back for a failed future, so Parallel waited
    # forever; while a worker restarts the cluster has a single thread, at
    # which joblib ran the next tasks in this process (killing it); and the
    # tasks joblib abandons went on running, killing workers again. The engine
    # runs on a backend fixing all three. With the default allowed-failures
    # this scenario kills 8 workers and takes about 11 s on 2 cores;
    # allowed-failures=0 makes the first death fail the task.
    dask = pytest.importorskip("dask")
    distributed = pytest.importorskip("distributed")
    actions, task, log = _killer_scenario(tmp_path)
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                 dashboard_address=None) as cluster,
        distributed.Client(cluster),
        parallel_config("dask"),
    ):
        engine, results, caught = _run_engine(actions, task, n_jobs=2)
    _check_killer_run(engine, results, caught, log, "KilledWorker")


def test_other_errors_propagate(tmp_path):
    log = str(tmp_path / "log")
    with pytest.raises(ValueError, match="a fit error"):
        _run_engine([("a", 1), ("b", 2)],
                    lambda name, i: (_fail if name == "b" else _work, (log, name, i), {}),
                    n_jobs=1)


class KillerClassifier(ClassifierMixin, BaseEstimator):
    """Kills the process that fits it."""

    def fit(self, X, y):
        os._exit(1)


def test_search_survives_a_candidate_that_kills_its_worker():
    X, y = load_iris(return_X_y=True)
    healthy = [LogisticRegression(max_iter=1000), GaussianNB(),
               DecisionTreeClassifier(random_state=0)]
    search = GPUCBSelector([KillerClassifier(), *healthy], n_iter=4, cv=3, n_jobs=2,
                           random_state=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        search.fit(X, y)

    assert search.stop_reason_ == "done"
    results = search.cv_results_
    row = {c: k for k, c in enumerate(results["candidate_id"])}
    assert set(row) == {0, 1, 2, 3}
    assert not np.isfinite(results["mean_test_score"][row[0]])
    assert not isinstance(search.best_params_["estimator"], KillerClassifier)
    assert any("died" in str(w.message) for w in caught)
    for candidate, estimator in enumerate(healthy, start=1):
        expected = cross_val_score(estimator, X, y, cv=StratifiedKFold(3))
        scores = [results[f"split{k}_test_score"][row[candidate]] for k in range(3)]
        np.testing.assert_array_equal(scores, expected)


# ------------------------------------------------------------------ max_time
_STARTED = []


def _nap(name, i, seconds):
    _STARTED.append((name, i))
    time.sleep(seconds)
    return f"{name}-{i}"


def test_max_time_is_read_between_folds():
    _STARTED.clear()
    engine, results, _ = _run_engine(
        [("quick", 1), ("sleepy", 5)],
        lambda name, i: (_nap, (name, i, 0.0 if name == "quick" else 0.3), {}),
        n_jobs=1, max_time=0.5,
    )
    assert engine.stop_reason_ == "max_time"
    # 0.3 s folds: the third would start after the deadline.
    assert len([s for s in _STARTED if s[0] == "sleepy"]) <= 2
    # The sleepy action, not finished, is not reported.
    assert results == {("quick", 1): ["quick-0"]}


def test_max_time_counts_from_started():
    # A search's fit starts the clock (`started`): drawing and building its
    # candidates took 0.5 s of a 1 s limit. The first 0.6 s fold starts at 0.5 s,
    # in this process (one worker), and is cut at the deadline, 1 s from `started`,
    # rather than run to its end: nothing else starts.
    _STARTED.clear()
    started = time.perf_counter() - 0.5
    engine, results, _ = _run_engine(
        [("sleepy", 5)], lambda name, i: (_nap, (name, i, 0.6), {}),
        n_jobs=1, max_time=1.0, started=started,
    )
    assert engine.stop_reason_ == "max_time"
    assert _STARTED == [("sleepy", 0)]
    assert time.perf_counter() - started < 1.1
    assert results == {}


def test_where_no_evaluation_finished_by_max_time_the_one_under_way_is_cut_there():
    # Four 0.4 s folds on one worker and max_time=1: none finished at the limit; the
    # third fold, under way then, is cut there rather than let the evaluation end late
    # (the search hands back its first model instead, see test_deadline.py); nothing is
    # asked of the policy after the limit (a second action waits).
    _STARTED.clear()
    start = time.perf_counter()
    engine, results, _ = _run_engine(
        [("sleepy", 4), ("next", 1)], lambda name, i: (_nap, (name, i, 0.4), {}),
        n_jobs=1, max_time=1.0,
    )
    assert engine.stop_reason_ == "max_time"
    assert results == {}
    assert ("sleepy", 3) not in _STARTED and ("next", 0) not in _STARTED
    assert time.perf_counter() - start < 1.1


def _work_then_mark(log, name, i, seconds, marker):
    """`_work`, then say in `marker` that the task ended."""
    result = _work(log, name, i, seconds)
    open(marker, "w").close()
    return result


def _start_workers(n_jobs):
    """Start the loky workers that the next engine takes up, so that its tasks start at once."""
    _run_engine([("warm", 2 * n_jobs)], lambda name, i: (_sleep_task, (name, i), {}),
                n_jobs=n_jobs)


def test_max_time_abandons_the_fits_still_running(tmp_path):
    """At the deadline, with every worker in a long fit, the fits still running are not waited
    for: the engine ends with what finished."""
    log = str(tmp_path / "log")

    def task(name, i):
        if name == "sleepy":
            return _work_then_mark, (log, name, i, 20.0, str(tmp_path / f"ended-{i}")), {}
        return _work, (log, name, i), {}

    _start_workers(2)
    engine, results, _ = _run_engine([("quick", 1), ("sleepy", 2)], task, n_jobs=2,
                                     max_time=2)
    assert engine.stop_reason_ == "max_time"
    assert results == {("quick", 1): ["quick-0"]}
    starts = _starts(log)
    assert starts.get("sleepy 0") == starts.get("sleepy 1") == 1  # running at the deadline,
    assert not list(tmp_path.glob("ended-*"))  # and abandoned there


class SleepyClassifier(ClassifierMixin, BaseEstimator):
    """Majority class, after sleeping `seconds`; its fit's end is written to `marker`."""

    def __init__(self, seconds=20.0, marker=None):
        self.seconds = seconds
        self.marker = marker

    def fit(self, X, y):
        time.sleep(self.seconds)
        open(self.marker, "w").close()
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


def test_a_search_cut_by_max_time_selects_from_what_finished(tmp_path):
    """GPUCBSelector evaluates LogisticRegression, then starts a learner whose fit takes 20 s;
    max_time abandons that fit and the search selects LogisticRegression, with a warning."""
    X, y = load_iris(return_X_y=True)
    marker = tmp_path / "sleepy-ended"
    search = GPUCBSelector([LogisticRegression(max_iter=1000), SleepyClassifier(20.0, marker)],
                           cv=3, n_jobs=2, max_time=2, random_state=5)
    _start_workers(2)
    with (pytest.warns(UserWarning, match="max_time=2 s ended the search"),
          pytest.warns(UserWarning, match="prior='auto' knows too few of the learners")):
        search.fit(X, y)
    assert search.stop_reason_ == "max_time"
    assert isinstance(search.best_estimator_, LogisticRegression)
    results = search.cv_results_
    assert results["n_folds_run"].tolist() == [3, 0]
    assert results["why_not_evaluated"][1] == "max_time=2 s ended the search first"
    assert not marker.exists()


# ------------------------------------------------------------------- Ctrl-C
def _interrupt_main_thread():
    signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)


@pytest.mark.parametrize("n_jobs", [1, 2])
@pytest.mark.usefixtures("sigint_raises_keyboard_interrupt")
def test_ctrl_c_keeps_what_finished(tmp_path, n_jobs):
    log = str(tmp_path / "log")
    timers = []

    def interrupt_soon(action):
        # While the engine waits for `sleepy`'s 5 s task.
        if action == ("quick", 1):
            timers.append(threading.Timer(0.3, _interrupt_main_thread))
            timers[-1].start()

    def task(name, i):
        return _work, (log, name, i, 5.0 if name == "sleepy" else 0.0), {}

    engine, results, caught = _run_engine(
        [("quick", 1), ("sleepy", 1)], task, on_done=interrupt_soon, n_jobs=n_jobs
    )
    for timer in timers:
        timer.join()
    assert engine.stop_reason_ == "interrupted"
    assert results == {("quick", 1): ["quick-0"]}
    assert any("interrupted" in str(w.message) for w in caught)


@pytest.mark.usefixtures("sigint_raises_keyboard_interrupt")
def test_a_ctrl_c_while_loky_starts_interrupts_and_leaves_loky_working(tmp_path, monkeypatch):
    """A Ctrl-C that lands while loky starts its manager thread (a wait that lasts on a loaded
    machine) interrupts the search before any fit, and the next search runs on loky."""
    from joblib.externals.loky import process_executor, reusable_executor

    if reusable_executor._executor is not None:  # so that the next search starts one
        reusable_executor._executor.shutdown(wait=True, kill_workers=True)
    start, starts = process_executor._ExecutorManagerThread.start, []

    def start_after_a_ctrl_c(thread):
        starts.append(thread)
        signal.raise_signal(signal.SIGINT)  # before the thread runs, as under load
        start(thread)

    monkeypatch.setattr(process_executor._ExecutorManagerThread, "start", start_after_a_ctrl_c)
    log = str(tmp_path / "log")
    engine, results, caught = _run_engine(
        [("a", 1), ("b", 1)], lambda name, i: (_work, (log, name, i, 5.0), {}), n_jobs=2)
    assert starts
    assert engine.stop_reason_ == "interrupted"
    assert results == {}
    # Nothing kept: no warning says so (the search's fit raises the KeyboardInterrupt).
    assert not any("interrupted" in str(w.message) for w in caught)
    monkeypatch.undo()
    _, results, _ = _run_engine([("c", 1)], lambda name, i: (_work, (log, name, i), {}),
                                n_jobs=2)
    assert results == {("c", 1): ["c-0"]}


@pytest.mark.usefixtures("sigint_raises_keyboard_interrupt")
def test_a_ctrl_c_caught_while_waiting_for_the_first_fits_still_stops_them(tmp_path,
                                                                           monkeypatch):
    """A Ctrl-C whose KeyboardInterrupt something caught while the engine waits for results
    (a finalizer that the garbage collector ran there) ends the wait: the fits are abandoned,
    not waited for."""
    import joblib.parallel

    retrieve = joblib.parallel.Parallel._retrieve

    def retrieve_after_a_caught_ctrl_c(parallel):
        try:
            signal.raise_signal(signal.SIGINT)
        except KeyboardInterrupt:
            pass
        yield from retrieve(parallel)

    monkeypatch.setattr(joblib.parallel.Parallel, "_retrieve", retrieve_after_a_caught_ctrl_c)
    log = str(tmp_path / "log")
    engine, results, _ = _run_engine(
        [("a", 1), ("b", 1)],
        lambda name, i: (_work_then_mark, (log, name, i, 5.0, str(tmp_path / f"{name}-ended")), {}),
        n_jobs=2)
    assert engine.stop_reason_ == "interrupted"
    assert results == {}
    assert not list(tmp_path.glob("*-ended"))


# ------------------------------------------------------------------ workers
def _pids(n_jobs, n_actions):
    """The processes that ran the tasks of `n_actions` actions."""
    _, results, _ = _run_engine([(str(k), 1) for k in range(n_actions)],
                                lambda name, i: (os.getpid, (), {}), n_jobs=n_jobs)
    return {outputs[0] for outputs in results.values()}


class _FlagNotingPolicy(_FixedPolicy):
    """A _FixedPolicy that notes, at every ask, its actions not told and the `speculative` flag."""

    def __init__(self, actions):
        super().__init__(actions)
        self.handed, self.asks = [], []

    def ask(self, n_actions=1, speculative=True, idle=False):
        self.asks.append((len(self.handed) - len(self.told), speculative))
        actions = super().ask(n_actions, speculative)
        self.handed += actions
        return actions


def _sleep_task(name, i):
    time.sleep(0.02)
    return name


@pytest.mark.parametrize("n_jobs", [1, 2, 3])
def test_speculative_actions_only_while_fewer_than_two_tasks_per_worker_are_out(n_jobs):
    # One task per action: the actions not told are the tasks queued or running.
    policy = _FlagNotingPolicy([(f"a{k}", 1) for k in range(20)])
    results = {}

    def collect(action, outputs):
        results[action] = outputs
        policy.told.append(action)

    with parallel_config(backend="threading"):
        Engine(lambda action: [(_sleep_task, (action[0], 0), {})], collect, _failed_output,
               n_jobs=n_jobs).run(policy)
    assert len(results) == 20
    assert policy.asks and all(flag == (out < 2 * n_jobs) for out, flag in policy.asks)


def test_workers_outlive_a_search_for_the_next_one():
    """The end of a search lets its idle tasks finish rather than killing the workers."""
    pids = set.union(*(_pids(n_jobs=2, n_actions=4) for _ in range(3)))
    assert os.getpid() not in pids
    assert len(pids) <= 2  # the two workers of the first search, every time


# ------------------------------------------------------------ thread caps


class ThreadCountingClassifier(ClassifierMixin, BaseEstimator):
    """Naive Bayes that records the largest BLAS/OpenMP thread count its fits ran under."""

    seen = []

    def __init__(self, var_smoothing=1e-9):
        self.var_smoothing = var_smoothing

    def fit(self, X, y):
        ThreadCountingClassifier.seen.append(
            max(info["num_threads"] for info in threadpool_info()))
        self.nb_ = GaussianNB(var_smoothing=self.var_smoothing).fit(X, y)
        self.classes_ = self.nb_.classes_
        return self

    def predict(self, X):
        return self.nb_.predict(X)


@pytest.mark.parametrize("make", [
    lambda est: DAUBSearch([est, GaussianNB()], cv=3, random_state=0),
    lambda est: GPUCBSelector(est, {"var_smoothing": [1e-9, 1e-8]}, n_iter=2, cv=3,
                              random_state=0),
])
def test_fits_in_this_process_use_no_more_threads_than_cpus(make, monkeypatch):
    """A container's quota (here 1 CPU) caps the threads of the fits and the refit."""
    monkeypatch.setattr("sksel._core.workers.cpu_count", lambda: 1)
    X, y = load_iris(return_X_y=True)
    with threadpool_limits(limits=2):  # what OpenMP or BLAS would start with 2 visible CPUs
        ThreadCountingClassifier.seen = []
        search = make(ThreadCountingClassifier()).fit(X, y)
        assert max(info["num_threads"] for info in threadpool_info()) == 2  # restored
    fits = len(ThreadCountingClassifier.seen)
    assert fits >= 3 + search.refit  # the folds of at least one evaluation, and a refit
    assert ThreadCountingClassifier.seen == [1] * fits


def test_a_lower_thread_limit_is_kept(monkeypatch):
    """The cap never raises a limit set by the caller (OMP_NUM_THREADS=1, threadpool_limits)."""
    monkeypatch.setattr("sksel._core.workers.cpu_count", lambda: 2)
    X, y = load_iris(return_X_y=True)
    with threadpool_limits(limits=1):
        ThreadCountingClassifier.seen = []
        DAUBSearch([ThreadCountingClassifier(), GaussianNB()], cv=3, random_state=0).fit(X, y)
    assert ThreadCountingClassifier.seen and set(ThreadCountingClassifier.seen) == {1}


# -------------------------------------------------------------------- races
@pytest.mark.parametrize("n_jobs", [1, 2])
def test_a_race_leaves_the_queued_tasks_of_its_action_unrun(tmp_path, n_jobs):
    """``enough`` ends the race of "raced" after its first 2 of 20 tasks.

    With one worker, those 2 are reported and no other task of it starts.
    With two, tasks finish out of order: the first ones in, in task order,
    are reported when the race ends (2 or more), and only the tasks already
    handed to joblib run. The other action runs in full.
    """
    log = str(tmp_path / "log")

    def task(name, i):
        return _work, (log, name, i, 0.2), {}

    asked = []

    def enough(action, outputs):
        asked.append((action, len(outputs)))
        return action[0] == "raced" and len(outputs) >= 2

    engine, results, _ = _run_engine([("raced", 20), ("full", 3)], task, n_jobs=n_jobs,
                                     enough=enough)
    raced = results[("raced", 20)]
    assert raced == [f"raced-{i}" for i in range(len(raced))] and len(raced) >= 2
    assert results[("full", 3)] == ["full-0", "full-1", "full-2"]
    started = [i for i in range(20) if f"raced {i}" in _starts(log)]
    if n_jobs == 1:
        assert started == [0, 1] and len(raced) == 2
        assert asked == [(("raced", 20), 1), (("raced", 20), 2), (("full", 3), 1),
                         (("full", 3), 2)]
    else:
        # Handed to joblib ahead of those reported: two per worker, and one
        # more for a task that finished before this process read it.
        assert started[:2] == [0, 1] and len(started) <= len(raced) + 2 * n_jobs + 1


def test_the_later_folds_of_a_race_wait_for_its_first_fold(tmp_path):
    """A worker takes another action's tasks rather than folds that the race may end.

    ``enough`` ends the race of "raced", the next decision, on its first
    fold. Its later folds were handed to joblib with the first (two tasks
    per worker) and ran unreported; now they wait for the first fold's
    output while the other worker runs the tasks of "other", and never run.
    """
    log = str(tmp_path / "log")

    def task(name, i):
        return _work, (log, name, i, 0.05 if name == "raced" else 0.3), {}

    def enough(action, outputs):
        return action[0] == "raced"

    _, results, _ = _run_engine([("raced", 5), ("other", 6)], task, n_jobs=2, enough=enough)
    assert results == {("raced", 5): ["raced-0"], ("other", 6): [f"other-{i}" for i in range(6)]}
    assert {line for line in _starts(log) if line.startswith("raced")} == {"raced 0"}


def test_a_race_of_the_folds_gives_the_same_results_on_two_workers():
    """DAUBSearch's races end on the same folds whatever the number of workers."""
    X, y = make_classification(n_samples=1200, n_features=20, n_informative=6,
                               random_state=0)
    cands = [DecisionTreeClassifier(max_depth=2, random_state=0), LogisticRegression(),
             DecisionTreeClassifier(max_depth=1, random_state=0), GaussianNB()]
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    results = [DAUBSearch(cands, cv=cv, b=200, r=2, cost="rows", risk=0, random_state=0,
                          refit=False, n_jobs=n_jobs).fit(X, y)
               for n_jobs in (1, 2)]
    assert results[0].policy_.folds_used_  # a race ended early
    one, two = (search.cv_results_ for search in results)
    assert one.keys() == two.keys()
    for column in one:
        if not column.endswith("_time"):
            np.testing.assert_array_equal(np.asarray(one[column]), np.asarray(two[column]),
                                          err_msg=column)
    assert results[0].best_index_ == results[1].best_index_


# ------------------------------------------------------------------ idle tasks
class _OneAtATimePolicy(_FixedPolicy):
    """Hands out its next action only once the one before is told, as sequential decisions do."""

    def ask(self, n_actions=1, speculative=True, idle=False):
        if len(self.told) < self._n_actions - len(self._todo):
            return []
        return super().ask(1, speculative)


def _timed_sleep(seconds):
    start = time.perf_counter()
    time.sleep(seconds)
    return {"fit_time": time.perf_counter() - start, "score_time": 0.0}


def test_a_worker_waiting_for_a_decision_idles_a_small_share_of_a_fit(monkeypatch):
    """Idle tasks back off to a twentieth of a task's seconds, not to a fixed 80 ms.

    The task that a decision gives waits behind the idle tasks handed out
    before it: with fits of 0.2 s, idle tasks of 80 ms idled the workers
    for up to 40% of a fit at every decision.
    """
    from sksel._core import idle as idle_module

    sleeps = []

    def idle(seconds):
        sleeps.append(seconds)
        time.sleep(seconds)

    monkeypatch.setattr(idle_module, "_idle", idle)
    policy = _OneAtATimePolicy([(f"a{k}", 1) for k in range(4)])
    outputs = []

    def collect(action, outs):
        outputs.extend(outs)
        policy.told.append(action)

    with parallel_config(backend="threading"):
        Engine(lambda action: [(_timed_sleep, (0.2,), {})], collect, _failed_output,
               n_jobs=4).run(policy)
    assert len(outputs) == 4
    assert len(sleeps) > 8  # the three other workers waited at every decision
    fit_seconds = min(out["fit_time"] for out in outputs)
    assert max(sleeps) <= 0.2 * fit_seconds
