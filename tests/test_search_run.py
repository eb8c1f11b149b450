"""A search's run: the training scores it asks for, its listeners, a first model."""

from types import SimpleNamespace

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.naive_bayes import GaussianNB

from sksel import KDPPSearch
from sksel._core.checkpoint import Checkpoint


def _search(**params):
    return KDPPSearch(GaussianNB(), {"var_smoothing": [1e-9, 1e-8]}, n_iter=2, cv=3,
                      random_state=0, **params)


def test_training_scores_where_asked_for_or_where_the_policy_needs_them():
    policy = SimpleNamespace(needs_train_score=lambda resource: resource > 10)
    reader = _search()._train_score_reader(policy)
    assert not reader(5) and reader(20)
    assert _search(return_train_score=True)._train_score_reader(policy)(5)


def test_fold_models_are_kept_only_beside_the_predictions():
    X, y = load_iris(return_X_y=True)
    trainer = SimpleNamespace(split=None)
    assert _search()._prediction_keeper(X, y, GaussianNB(), trainer) is None
    with pytest.raises(ValueError, match="keep_fold_models=True keeps the fold models"):
        _search(keep_fold_models=True)._prediction_keeper(X, y, GaussianNB(), trainer)
    keeper = _search(keep_predictions=True)._prediction_keeper(X, y, GaussianNB(), trainer)
    assert keeper is not None


def test_a_checkpoint_only_where_one_is_named(tmp_path):
    X, y = load_iris(return_X_y=True)
    assert _search()._open_checkpoint(X, y, {}, [{}]) is None
    search = _search(checkpoint=tmp_path / "search.ckpt")
    assert isinstance(search._open_checkpoint(X, y, {}, [{}]), Checkpoint)


def test_no_first_model_without_max_time_or_on_a_resumed_fit():
    assert _search()._fit_first_model(None, [], GaussianNB(), resumed=False) is None
    assert _search(max_time=5)._fit_first_model(None, [], GaussianNB(), resumed=True) is None


def test_the_run_sets_why_the_search_stopped():
    X, y = load_iris(return_X_y=True)
    search = _search().fit(X, y)
    assert search.stop_reason_ == "done"
    assert np.isfinite(search.best_score_)
