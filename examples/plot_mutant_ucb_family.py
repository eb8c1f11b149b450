"""
Mutant-UCB over an SGD classifier: learning curves and a family tree
====================================================================

:class:`~sksel.MutantUCBSearch` treats every model as an arm of a bandit:
each pull trains it one more *sub-train* (here one ``partial_fit`` pass over
the training rows), and the next pull goes to the model whose validation
score plus an exploration bonus is highest. A model already trained for
``Nbar`` of its ``max_subtrains`` passes may breed a *mutant*: a copy with
one parameter moved to a neighbouring value that goes on from its parent's
weights.

Two displays show what it did:

* :class:`~sksel.SearchCurvesDisplay`, each model's validation accuracy
  against the passes it received;
* :class:`~sksel.FamilyTreeDisplay`, the lineage of the selected model, with
  the parameter each mutation changed.
"""

# %%
# The search
# ----------
# A logistic regression trained by stochastic gradient descent on the
# ``digits`` data, its L2 penalty ``alpha`` and its initial learning rate
# log-uniform. The budget is 60 passes in all, at most 10 per model; a
# quarter of the rows is the validation set.
import matplotlib.pyplot as plt
from scipy.stats import loguniform
from sklearn.datasets import load_digits
from sklearn.linear_model import SGDClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sksel import (
    FamilyTreeDisplay,
    MutantUCBSearch,
    SearchCurvesDisplay,
)

X, y = load_digits(return_X_y=True)
sgd = SGDClassifier(loss="log_loss", learning_rate="adaptive",
                    random_state=0)
pipe = make_pipeline(StandardScaler(), sgd)
space = {
    "sgdclassifier__alpha": loguniform(1e-6, 1e-1),
    "sgdclassifier__eta0": loguniform(1e-4, 1e-1),
}
search = MutantUCBSearch(pipe, space, budget=60, max_subtrains=10,
                         cv=0.25, random_state=0).fit(X, y)
res = search.cv_results_
n_mutants = int((res["parent_id"] >= 0).sum())
n_passes = len(search.all_cv_results_["params"])
print(f"{len(res['params'])} models trained ({n_mutants} mutants), "
      f"{n_passes} passes spent")
best = search.best_params_
print(f"best: alpha={best['sgdclassifier__alpha']:.3g}, "
      f"eta0={best['sgdclassifier__eta0']:.3g}, "
      f"accuracy {search.best_score_:.3f}")

# %%
# Learning curves
# ---------------
# Each line is a model's validation accuracy after each pass it was given.
# Models that start badly get one or two passes; the budget goes to the few
# that stay ahead and to their mutants. The selected model (red) is the best
# scored of those trained the maximum of ten passes in total, the passes a
# mutant inherited from its parent included.
display = SearchCurvesDisplay.from_search(search)
display.ax_.set_ylabel("Validation accuracy")
display.ax_.set_xlabel("Passes over the training rows (sub-trains)")
display.ax_.set_title("Mutant-UCB: validation accuracy by pass")
plt.show()

# %%
# The selected model's family tree
# --------------------------------
# From its first ancestor (an initial random configuration) through each
# mutant, at its validation accuracy, labelled with its id and the parameter
# its mutation changed. A mutant that continues from its parent's weights
# starts ahead of a fresh model.
display = FamilyTreeDisplay.from_search(search)
display.ax_.set_ylabel("Validation accuracy")
display.ax_.set_title("Lineage of the selected model")
plt.show()
