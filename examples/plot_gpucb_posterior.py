"""
GP-UCB over a portfolio of 25 classifiers: prior and posterior
==============================================================

:class:`~sksel.GPUCBSelector` evaluates only a few candidates of a portfolio
and uses a Gaussian process to infer how the others would do. Its prior,
``prior="default"``, was learned from the cross-validated accuracies of the 25
classifiers of :func:`sksel.gpucb.portfolio.default_portfolio` on 57 earlier
datasets: it says which classifiers usually do well and which ones rise and
fall together. After each evaluation the belief about *all* 25 moves.

:class:`~sksel.PosteriorDisplay` shows, for every candidate, the prior and the
posterior (mean and one standard deviation) and the scores of the ones
evaluated.
"""

# %%
# The selection
# -------------
# Six evaluations out of 25 candidates on the ``breast_cancer`` data (569
# rows), each a 3-fold cross-validation.
import matplotlib.pyplot as plt
from sklearn.datasets import load_breast_cancer

from sksel import GPUCBSelector, PosteriorDisplay
from sksel.gpucb.portfolio import default_portfolio

X, y = load_breast_cancer(return_X_y=True)
names, learners = zip(*default_portfolio())
search = GPUCBSelector(list(learners), prior="default", n_iter=6,
                       cv=3, random_state=0).fit(X, y)
for step, c in enumerate(search.cv_results_["candidate_id"], start=1):
    score = search.cv_results_["mean_test_score"][step - 1]
    print(f"step {step}: {names[c]:16s} accuracy {score:.3f}")
best = int(search.cv_results_["candidate_id"][search.best_index_])
print(f"selected: {names[best]} ({search.best_score_:.3f})")

# %%
# Prior and posterior of every candidate
# --------------------------------------
# Grey: the prior, what the 57 earlier datasets suggest, its spread fitted to
# the six scores seen here (``empirical_bayes=True``, the default).
# Blue: the posterior after the six evaluations (red stars). The evaluated
# candidates' posteriors collapse onto their scores; the others move with
# them as far as the prior correlates them, and their remaining spread says
# how much an evaluation of them could still change the choice. The rows are
# ordered by posterior mean, named by the portfolio's names (``names=``); the
# display draws the 20 highest by default, ``top_k=25`` all of them.
display = PosteriorDisplay.from_search(search, names=list(names), top_k=25)
display.ax_.set_title("GP-UCB on breast_cancer: 6 of 25 evaluated")
plt.show()
