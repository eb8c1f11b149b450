"""Checkpoint and resume: a search stopped at any point and fitted again on the
same folder ends as an uninterrupted one, without running a finished evaluation again."""

import os
import pickle
import shutil
import signal
import subprocess
import sys
import time
import warnings

import numpy as np
import pytest
from _common import SlowKNN, SlowSGD
from _registry import BY_NAME
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning

TIME_KEYS = ("mean_fit_time", "std_fit_time", "mean_score_time", "std_score_time")
TESTS = os.path.dirname(os.path.abspath(__file__))


def _data():
    return make_classification(n_samples=200, n_features=8, n_informative=4, random_state=0)


#: DAUB over a counted k-nearest-neighbours grid, the search these tests stop and resume.
_daub = BY_NAME["daub"].counted
_mutant = BY_NAME["mutant_ucb"].counted


@pytest.fixture(autouse=True)
def _fresh_counters():
    for cls in (SlowKNN, SlowSGD):
        cls.n_fits, cls.delay, cls.interrupt_at = 0, 0.0, None
    yield
    for cls in (SlowKNN, SlowSGD):
        cls.n_fits, cls.delay, cls.interrupt_at = 0, 0.0, None


def _records(folder):
    """The recorded evaluations in `folder`, ``(action, outputs, give_up)``, in order."""
    names = sorted((n for n in os.listdir(folder) if n[:-4].isdigit()), key=lambda n: int(n[:-4]))
    records = []
    for name in names:
        with open(os.path.join(folder, name), "rb") as file:
            records.append(pickle.load(file))
    return records


def _n_fits(records):
    return sum(len(outputs) for _, outputs, _ in records)


def _assert_same_results(resumed, uninterrupted):
    a, b = resumed.cv_results_, uninterrupted.cv_results_
    assert set(a) == set(b)
    for key in set(a) - set(TIME_KEYS):
        if key == "params":
            assert a[key] == b[key]
        else:
            np.testing.assert_array_equal(a[key], b[key], err_msg=key)
    if hasattr(uninterrupted, "policy_"):
        assert resumed.policy_.decisions_ == uninterrupted.policy_.decisions_


_KILLED_SCRIPT = """
import sys
sys.path.insert(0, {tests!r})
from _common import SlowKNN
from test_checkpoint import _daub, _data
SlowKNN.delay = 0.03
_daub(checkpoint={folder!r}).fit(*_data())
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="no SIGKILL on this platform")
def test_search_killed_by_sigkill_resumes_to_the_uninterrupted_results(tmp_path):
    folder = str(tmp_path / "checkpoint")
    script = _KILLED_SCRIPT.format(tests=TESTS, folder=folder)
    process = subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not os.path.isdir(folder) or len(_records(folder)) < 6:
            assert process.poll() is None, process.stderr.read().decode()
            assert time.monotonic() < deadline, "the search recorded nothing in 60 s"
            time.sleep(0.01)
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        process.stderr.close()
    assert process.returncode == -signal.SIGKILL
    recorded = _records(folder)

    X, y = _data()
    resumed = _daub(checkpoint=folder).fit(X, y)
    resumed_fits = SlowKNN.n_fits
    SlowKNN.n_fits = 0
    uninterrupted = _daub().fit(X, y)

    _assert_same_results(resumed, uninterrupted)
    n_evaluations = len(uninterrupted.all_cv_results_["params"])
    assert 6 <= len(recorded) < n_evaluations
    assert resumed_fits == SlowKNN.n_fits - _n_fits(recorded)
    assert len(_records(folder)) == n_evaluations
    print(f"\nkilled after {len(recorded)} of {n_evaluations} evaluations recorded: "
          f"{len(recorded)} replayed ({_n_fits(recorded)} fits), "
          f"{n_evaluations - len(recorded)} run ({resumed_fits} fits) on resume")


# Every search of the registry, interrupted and resumed: test_conformance.py.


@pytest.mark.parametrize("cost", ["rows", "time"])
def test_finished_checkpoint_replays_every_evaluation(tmp_path, cost):
    X, y = _data()
    first = _daub(checkpoint=tmp_path, cost=cost).fit(X, y)
    SlowKNN.n_fits = 0
    # How the search runs is not part of its input.
    again = _daub(checkpoint=tmp_path, cost=cost, n_jobs=1, verbose=0, max_time=100.0).fit(X, y)
    assert SlowKNN.n_fits == 0
    _assert_same_results(again, first)
    # Decisions on measured times replay exactly: the fit times are recorded.
    assert again.policy_.decisions_ == first.policy_.decisions_
    assert again.policy_.fit_times_ == first.policy_.fit_times_


@pytest.mark.parametrize("given", ["subtrain_kind", "resource"])
def test_a_folder_recorded_before_a_parameter_was_renamed_resumes(tmp_path, given):
    """MutantUCBSearch's `resource` became `subtrain_kind`: a folder recorded under the old
    name (its fingerprint's part "parameter 'resource'") resumes, whichever name is given."""
    X, y = _data()
    first = _mutant(checkpoint=tmp_path).fit(X, y)
    path = tmp_path / "fingerprint.pkl"
    recorded = pickle.loads(path.read_bytes())
    recorded["parameter 'resource'"] = recorded.pop("parameter 'subtrain_kind'")
    path.write_bytes(pickle.dumps(recorded))
    SlowSGD.n_fits = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        again = _mutant(checkpoint=tmp_path, **{given: "auto"}).fit(X, y)
    assert SlowSGD.n_fits == 0
    _assert_same_results(again, first)
    with pytest.raises(ValueError, match=r"different parameter 'subtrain_kind'"):
        _mutant(checkpoint=tmp_path, subtrain_kind="max_iter").fit(X, y)


@pytest.mark.parametrize("other, differs", [
    ({"X": 1.0}, r"data \(X\)"),
    ({"y": True}, "y"),
    ({"l": 3}, r"parameter 'l'"),
    ({"cv": 4, "l": 3}, r"parameter 'cv', parameter 'l'"),
], ids=["X", "y", "l", "cv-and-l"])
# l=3 is more than the two subsample sizes below these training folds: a warning, then the refusal.
@pytest.mark.filterwarnings("ignore:l=3 is more than:UserWarning")
def test_folder_of_other_input_is_refused_before_any_fit(other, differs, tmp_path):
    X, y = _data()
    _daub(checkpoint=tmp_path).fit(X, y)
    SlowKNN.n_fits = 0
    X, y = X + other.pop("X", 0.0), 1 - y if other.pop("y", False) else y
    with pytest.raises(ValueError, match=rf"of a fit on other input \(different {differs}\)"):
        _daub(checkpoint=tmp_path, **other).fit(X, y)
    assert SlowKNN.n_fits == 0


def test_half_written_file_is_ignored(tmp_path):
    X, y = _data()
    uninterrupted = _daub().fit(X, y)
    SlowKNN.n_fits, SlowKNN.interrupt_at = 0, 10
    with (pytest.warns(RuntimeWarning, match="interrupted"),
          pytest.warns(UserWarning, match="Ctrl-C ended the search")):
        _daub(checkpoint=tmp_path).fit(X, y)
    n_recorded = len(_records(tmp_path))
    # What a write killed before its rename leaves.
    (tmp_path / ".cut.tmp").write_bytes(pickle.dumps(list(range(100)))[:20])
    SlowKNN.interrupt_at = None
    resumed = _daub(checkpoint=tmp_path).fit(X, y)
    _assert_same_results(resumed, uninterrupted)
    assert n_recorded > 0


def test_input_that_cannot_be_hashed_is_named(tmp_path):
    X, y = _data()
    search = _daub(checkpoint=tmp_path, scoring=lambda est, X, y: est.score(X, y))
    with pytest.raises(ValueError, match="the parameter 'scoring' cannot be pickled"):
        search.fit(X, y)


def test_distributions_are_hashed_whatever_numpy_global_random_state(tmp_path):
    X, y = _data()
    np.random.seed(0)
    _mutant(checkpoint=tmp_path).fit(X, y)
    np.random.seed(1)
    SlowSGD.n_fits = 0
    _mutant(checkpoint=tmp_path).fit(X, y)
    assert SlowSGD.n_fits == 0


def test_an_unseeded_estimator_resumes_to_the_uninterrupted_results(tmp_path):
    # MLPClassifier() leaves random_state None: the search seeds each model.
    from scipy.stats import loguniform
    from sklearn.neural_network import MLPClassifier

    from sksel import MutantUCBSearch

    X, y = _data()

    def search(folder):
        return MutantUCBSearch(
            MLPClassifier(hidden_layer_sizes=(8,)), {"alpha": loguniform(1e-5, 1e-1)},
            budget=16, max_subtrains=4, cv=2, random_state=0, checkpoint=folder)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        uninterrupted = search(tmp_path / "whole").fit(X, y)
        # Killed after 7 evaluations: the folder holds what was recorded by then.
        os.makedirs(tmp_path / "killed")
        for name in ["fingerprint.pkl"] + [f"{i:06d}.pkl" for i in range(7)]:
            shutil.copy(tmp_path / "whole" / name, tmp_path / "killed" / name)
        resumed = search(tmp_path / "killed").fit(X, y)
    _assert_same_results(resumed, uninterrupted)
    np.testing.assert_array_equal(resumed.best_estimator_.coefs_[0],
                                  uninterrupted.best_estimator_.coefs_[0])
