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


def test_models_below_the_cap_are_scored_on_a_fixed_stratified_part_of_the_fold():
    from sksel._core.run import _Job
    from sksel.spaces.space import SearchSpace
    from sksel.training.continued import ContinuedTrainer
    from sksel.training.subtrain import Subtrainer

    X, y = load_iris(return_X_y=True)
    splits = list(StratifiedKFold(3, shuffle=True, random_state=0).split(X, y))
    estimator = SGDClassifier(random_state=0)
    space = SearchSpace(estimator, [{"alpha": [1e-4, 1e-3]}])
    candidates = [{"alpha": 1e-4}, {"alpha": 1e-3}]
    job = _Job(space, candidates, [space.build(params) for params in candidates], X, y, None,
               lambda c: {}, None, error_score=np.nan, verbose=0,
               returns_train_score=lambda n: False)

    def scored_rows(trainer, action, fold):
        train, test = splits[fold]
        _, args, kwargs = trainer.task(job, action, fold, train, test)
        return args[3][2], args[3][3]

    trainer = ContinuedTrainer(splits, Subtrainer("partial_fit", 1, classes=np.unique(y)),
                               estimator, max_resource=3, inherit=False, score_share=0.4,
                               random_state=0)
    test = splits[0][1]
    X_part, y_part = scored_rows(trainer, (0, 1), 0)
    # ceil(0.4 x 17) of each class of the fold's 50 validation rows (17, 17, 16), none twice.
    assert np.bincount(y_part).tolist() == [7, 7, 7]
    rows = [np.flatnonzero((X[test] == row).all(axis=1))[0] for row in X_part]
    assert len(set(rows)) == 21
    # The same part for every model and sub-train below the cap; the whole fold at it.
    np.testing.assert_array_equal(scored_rows(trainer, (1, 2), 0)[0], X_part)
    np.testing.assert_array_equal(scored_rows(trainer, (0, 3), 0)[0], X[test])
    whole = ContinuedTrainer(splits, Subtrainer("partial_fit", 1, classes=np.unique(y)),
                             estimator, max_resource=3, inherit=False, random_state=0)
    np.testing.assert_array_equal(scored_rows(whole, (0, 1), 0)[0], X[test])
    other = ContinuedTrainer(splits, Subtrainer("partial_fit", 1, classes=np.unique(y)),
                             estimator, max_resource=3, inherit=False, score_share=0.4,
                             random_state=1)
    assert not np.array_equal(scored_rows(other, (0, 1), 0)[0], X_part)
