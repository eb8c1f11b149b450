"""
DAUB's learning curves and where the training rows went
========================================================

:class:`~sksel.DAUBSearch` chooses among learners by training each on a small
subsample first and giving more rows only to those whose projected score on
all rows could still beat the leader. This example runs it over seven
scikit-learn classifiers and draws two of its displays:

* :class:`~sksel.SearchCurvesDisplay`, the learning curve of each learner
  with the dashed projection that decided it got no more data;
* :class:`~sksel.AllocationDisplay`, the training rows spent per learner
  against what :class:`~sklearn.model_selection.GridSearchCV` spends.
"""

# %%
# The search
# ----------
# Seven learners of different cost and accuracy on a synthetic problem of
# 20,000 rows and four classes. ``cv=0.25`` holds out a quarter of the rows
# for validation; DAUB hands out the other 15,000 in nested subsamples that
# grow by ``r=2`` from ``b=100``.
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_classification
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.ensemble import (
    HistGradientBoostingClassifier,
    RandomForestClassifier,
)
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from sksel import AllocationDisplay, DAUBSearch, SearchCurvesDisplay

X, y = make_classification(n_samples=20_000, n_features=20,
                           n_informative=10, n_classes=4, flip_y=0.02,
                           random_state=0)
learners = {
    "naive Bayes": GaussianNB(),
    "LDA": LinearDiscriminantAnalysis(),
    "tree, depth 5": DecisionTreeClassifier(max_depth=5,
                                            random_state=0),
    "logistic": LogisticRegression(),
    "5-NN": KNeighborsClassifier(),
    "random forest": RandomForestClassifier(50, random_state=0),
    "gradient boosting": HistGradientBoostingClassifier(random_state=0),
}
names = list(learners)
search = DAUBSearch(list(learners.values()), b=100, r=2, cv=0.25,
                    random_state=0).fit(X, y)

res = search.cv_results_
for c, rows, score in zip(res["candidate_id"], res["n_resources"],
                          res["mean_test_score"]):
    print(f"{names[c]:18s} {int(rows):6d} rows  accuracy {score:.3f}")
print("selected:", names[res["candidate_id"][search.best_index_]])

# %%
# Learning curves
# ---------------
# Each line is a learner's validation accuracy at the subsample sizes it was
# trained on; the selected one is thick. A dashed line goes from each
# learner that stopped early to the accuracy DAUB projected for it on all
# rows: once that upper bound fell below what the leader reached, the learner
# was given no more data. The display draws the other learners in grey; here
# they get a colour and a name each.
display = SearchCurvesDisplay.from_search(search)
colors = plt.cm.tab10.colors
ids = display.candidate_ids
for line, c, color in zip(display.lines_, ids, colors):
    line.set_label(names[c])
    line.set_color(color)
    line.set_alpha(1.0)
ax = display.ax_
ax.set_xscale("log")
ax.set_ylabel("Validation accuracy")
ax.set_title("DAUB: validation accuracy by training size")
ax.legend(loc="lower right", fontsize="small")
plt.show()

# %%
# Where the training went
# -----------------------
# The bars sum the training rows each learner was fitted on over the whole
# search, highest first. The dashed line is what a grid search spends on
# every learner: all 15,000 rows. The title gives DAUB's total as a share of
# the grid search's: the learners that stopped on a few hundred rows cost
# next to nothing, while the ones trained on all rows cost a little more
# than a grid search's single fit, for the smaller subsamples on the way.
display = AllocationDisplay.from_search(search)
order = np.argsort(-np.asarray(display.spent), kind="stable")
labels = [names[display.candidate_ids[i]] for i in order]
display.ax_.set_xticks(range(len(order)), labels, rotation=30,
                       ha="right")
display.ax_.set_xlabel("")
display.ax_.set_ylabel("Training rows, summed over the search")
display.figure_.tight_layout()
plt.show()
