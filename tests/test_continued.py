"""Continued training over several sub-trains at once (a rung of successive halving)."""

import numpy as np
from asha_epochs import ASHAEpochsSearch
from sklearn.base import clone
from sklearn.datasets import load_iris
from sklearn.linear_model import SGDClassifier
from sklearn.model_selection import StratifiedKFold


def test_a_promoted_model_scores_as_one_trained_that_long_from_scratch():
    # A model promoted from rung 2 to rung 4 goes on from its state for two
    # more sub-trains: its score is that of 4 partial_fit passes in a row.
    X, y = load_iris(return_X_y=True)
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    sgd = SGDClassifier(random_state=0)
    grid = {"alpha": [1e-5, 1e-4, 1e-3, 1e-2]}
    search = ASHAEpochsSearch(sgd, grid, eta=2, max_subtrains=4, cv=cv, refit=False).fit(X, y)
    results = search.all_cv_results_
    checked = 0
    for row, (candidate, n) in enumerate(zip(results["candidate_id"], results["n_resources"])):
        if n == 1:
            continue
        scores = []
        for train, test in cv.split(X, y):
            model = clone(sgd).set_params(alpha=grid["alpha"][candidate])
            for _ in range(n):
                model.partial_fit(X[train], y[train], classes=np.unique(y))
            scores.append(model.score(X[test], y[test]))
        np.testing.assert_allclose(results["mean_test_score"][row], np.mean(scores))
        assert results["params"][row]["max_iter"] == n
        checked += 1
    assert checked >= 2  # promotions to 2 and to 4 sub-trains
