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
# grow by ``r=2`` from ``b=100``. ``risk=0`` asks for DAUB's upper bounds,
# which drop no learner that may still win; the default, ``risk=0.1``,
# compares learners with the leader at the same size and drops more, earlier
# (:ref:`daub`).
import matplotlib.pyplot as plt
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
search = DAUBSearch(list(learners.values()), risk=0, b=100, r=2, cv=0.25,
                    random_state=0).fit(X, y)

res = search.cv_results_
# Each learner's accuracy at the largest subsample it got (mean_test_score has the
# learners trained on all the rows only, the ones compared with the selected one).
for c, rows, score in zip(res["candidate_id"], res["n_resources"],
                          res["mean_test_score_at_resource"]):
    print(f"{names[c]:18s} {int(rows):6d} rows  accuracy {score:.3f}")
print("selected:", names[res["candidate_id"][search.best_index_]])

# %%
# Learning curves
# ---------------
# Each line is a learner's validation accuracy at the subsample sizes it was
# trained on; the selected one is thick. A dashed line goes from each
# learner that stopped early to the accuracy DAUB projected for it on all
# rows: once that upper bound fell below what the leader reached, the learner
# was given no more data. The display colours and names the best ranked
# learners (all seven here; ``top_k=10`` by default) in the legend; here
# ``names=`` gives each the name of the dictionary above.
display = SearchCurvesDisplay.from_search(search, names=names)
ax = display.ax_
ax.set_ylabel("Validation accuracy")
ax.set_title("DAUB: validation accuracy by training size")
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
display = AllocationDisplay.from_search(search, names=names)
display.ax_.set_xlabel("Training rows, summed over the search")
plt.show()
