"""skorch nets as sub-trained models: epochs, inherited weights, a search."""

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_iris

torch = pytest.importorskip("torch")
skorch = pytest.importorskip("skorch")

from sksel import MutantUCBSearch  # noqa: E402
from sksel.training import Subtrainer, subtrain_kind  # noqa: E402
from sksel.training.inheritance import inherited as _inherited  # noqa: E402

X, Y = load_iris(return_X_y=True)
X32 = X.astype(np.float32)


class Net(torch.nn.Module):
    """Two linear layers; `hidden` and `dropout` are module parameters."""

    def __init__(self, hidden=8, dropout=0.0):
        super().__init__()
        self.layers = torch.nn.Sequential(
            torch.nn.Linear(4, hidden), torch.nn.ReLU(), torch.nn.Dropout(dropout),
            torch.nn.Linear(hidden, 3))

    def forward(self, X):
        return self.layers(X)


def _net():
    torch.manual_seed(0)
    return skorch.NeuralNetClassifier(Net, criterion=torch.nn.CrossEntropyLoss, lr=0.05,
                                      batch_size=32, verbose=0)


def _subtrained(unit, n):
    subtrainer = Subtrainer("partial_fit", unit)
    net = subtrainer.first(_net(), X32, Y)
    for _ in range(n - 1):
        net = subtrainer.next(net, X32, Y)
    return net


def test_k_epochs_one_at_a_time_equal_k_epochs_at_once():
    assert subtrain_kind(_net()) == "partial_fit"
    step, once = _subtrained(1, 3), _subtrained(3, 1)
    assert len(step.history) == len(once.history) == 3
    assert step.train_split is None
    np.testing.assert_allclose(step.predict_proba(X32), once.predict_proba(X32), rtol=1e-5)


def test_a_mutant_keeps_the_weights_or_cannot_inherit():
    parent = _subtrained(2, 1)
    learned = {k: v.clone() for k, v in parent.module_.state_dict().items()}
    same = _inherited(parent, {"module__dropout": 0.3, "lr": 0.01})
    for key, value in same.module_.state_dict().items():
        assert torch.equal(value, learned[key])
    with pytest.raises(ValueError, match="reshape the learned tensors"):
        _inherited(_subtrained(2, 1), {"module__hidden": 16})


def test_a_mutant_that_reshapes_the_net_starts_afresh_and_counts_its_own_epochs():
    # Every mutant changes the width: none can keep its parent's weights.
    search = MutantUCBSearch(_net(), {"module__hidden": [4, 8, 16]}, budget=14,
                             n_initial=2, max_subtrains=3, cv=3, random_state=0,
                             mutation=_other_width).fit(X32, Y)
    res = search.cv_results_
    mutants = res["parent_id"] >= 0
    assert mutants.sum() >= 2
    # Counted as trained from scratch: its own epochs, and max_epochs says so.
    np.testing.assert_array_equal(res["n_resources_total"], res["n_resources"])
    assert [p["max_epochs"] for p in res["params"]] == list(res["n_resources"])
    assert len(search.best_estimator_.history) == search.best_params_["max_epochs"]


def _other_width(params, rng):
    return {**params, "module__hidden": {4: 8, 8: 16, 16: 4}[params["module__hidden"]]}


def test_mutant_ucb_search_over_a_skorch_net():
    space = {"lr": stats.loguniform(1e-3, 1e-1), "module__hidden": [4, 8, 16]}
    search = MutantUCBSearch(_net(), space, budget=12, max_subtrains=3, mutation=False,
                             cv=3, random_state=0).fit(X32, Y)
    assert search.subtrain_kind_ == "partial_fit"
    n = search.cv_results_["n_resources"][search.best_index_]
    assert len(search.best_estimator_.history) == n  # its epochs, replayed on all rows
    assert np.isfinite(search.best_score_)


def test_epochs_counted_by_history_and_the_released_net_trains_as_long():
    subtrainer = Subtrainer("partial_fit", 2)
    net = subtrainer.first(_net(), X32, Y)
    for k in range(2, 4):
        net = subtrainer.next(net, X32, Y)
        assert len(net.history) == 2 * k
    configured = _net()
    net = subtrainer.released(net, 3, configured)
    assert net.max_epochs == 6 and net.train_split is configured.train_split
    assert len(net.fit(X32, Y).history) == 6  # from scratch, as the user configured it


class ScriptNet(Net):
    """A module class as a user's script defines it."""


ScriptNet.__module__ = "__main__"


def _script_search(**kwargs):
    net = skorch.NeuralNetClassifier(ScriptNet, max_epochs=1, lr=0.1, train_split=None,
                                     verbose=0, criterion=torch.nn.CrossEntropyLoss)
    return MutantUCBSearch(net, {"lr": [0.05, 0.1]}, budget=4, max_subtrains=2, cv=2,
                           random_state=0, **kwargs)


def test_a_script_module_on_worker_processes_fails_before_any_fit(monkeypatch):
    from joblib import parallel_config

    fits = []
    monkeypatch.setattr(ScriptNet, "forward", lambda self, X: fits.append(1))
    with parallel_config("loky"), pytest.raises(ValueError, match=r"module=ScriptNet .*__main__"):
        _script_search(n_jobs=2).fit(X32, Y)
    assert fits == []


def test_a_script_module_on_threads_is_searched(monkeypatch):
    import sys

    from joblib import parallel_config

    # In the script's own process, __main__ has the class.
    monkeypatch.setattr(sys.modules["__main__"], "ScriptNet", ScriptNet, raising=False)
    with parallel_config("threading"):
        search = _script_search(n_jobs=2).fit(X32, Y)
    assert search.best_estimator_.module_.__class__ is ScriptNet


def test_a_checkpoint_of_a_net_warns_that_a_resume_may_go_on_otherwise(tmp_path):
    search = MutantUCBSearch(_net(), {"lr": [0.01, 0.05]}, budget=4, n_initial=2,
                             max_subtrains=2, cv=2, random_state=0, checkpoint=tmp_path)
    with pytest.warns(UserWarning, match="no random_state that MutantUCBSearch can seed"):
        search.fit(X32, Y)
