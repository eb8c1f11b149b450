"""
DAUB's learning curves and where the training rows went
========================================================

:class:`~sksel.DAUBSearch` chooses among learners by training each on a small
subsample first and giving more rows only to those whose projected score on
all rows could still beat the leader. This example runs it over six
scikit-learn classifiers on the ``digits`` data (1,797 images, bundled with
scikit-learn) and draws two of its displays:

* :class:`~sksel.SearchCurvesDisplay`, the learning curve of each learner
  with the dashed projection that decided it got no more data;
* :class:`~sksel.AllocationDisplay`, the training rows spent per learner
  against what :class:`~sklearn.model_selection.GridSearchCV` spends.
"""

# %%
# The search
# ----------
# Six learners of different cost and accuracy. ``cv=0.25`` holds out a
# quarter of the rows for validation, and DAUB hands out the other rows in
# nested subsamples that grow by ``r=2`` from ``b=100``.
import matplotlib.pyplot as plt
from sklearn.datasets import load_digits
from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sksel import AllocationDisplay, DAUBSearch, SearchCurvesDisplay

X, y = load_digits(return_X_y=True)
learners = [
    GaussianNB(),
    DecisionTreeClassifier(random_state=0),
    KNeighborsClassifier(),
    make_pipeline(StandardScaler(), LogisticRegression(max_iter=500)),
    RandomForestClassifier(n_estimators=100, random_state=0),
    ExtraTreesClassifier(n_estimators=100, random_state=0),
]
search = DAUBSearch(learners, b=100, r=2, cv=0.25, random_state=0).fit(X, y)

for i, (params, rows, score) in enumerate(zip(search.cv_results_["params"],
                                              search.cv_results_["n_resources"],
                                              search.cv_results_["mean_test_score"])):
    name = type(params["estimator"]).__name__
    if name == "Pipeline":
        name = type(params["estimator"][-1]).__name__
    print(f"{i}: {name:28s} {int(rows):5d} rows  accuracy {score:.3f}")
print("selected:", search.best_params_["estimator"])

# %%
# Learning curves
# ---------------
# Each grey line is a learner's validation accuracy at the subsample sizes it
# was trained on; the selected one is red. A dashed line goes from each
# learner that stopped early to the accuracy DAUB projected for it on all
# rows: once that upper bound fell below what the leader reached, the learner
# was given no more data.
display = SearchCurvesDisplay.from_search(search)
display.ax_.set_title("DAUB on digits: validation accuracy by training size")
display.ax_.set_xscale("log")
plt.show()

# %%
# Where the training went
# -----------------------
# The bars sum the training rows each learner was fitted on over the whole
# search, highest first. The dashed line is what a grid search spends on
# every learner: all rows, on every fold. The title gives DAUB's total as a
# share of the grid search's.
AllocationDisplay.from_search(search)
plt.show()
