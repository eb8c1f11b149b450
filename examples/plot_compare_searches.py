"""
Best score against training time: DAUB, k-DPP and random search
===============================================================

:class:`~sksel.BestScoreDisplay` draws a search's best cross-validated score
so far against the seconds it spent training and scoring, summed over its
evaluations. Drawn on one axes, several searches compare as the methods'
papers compare them: which one reaches a good model sooner.

This example searches the same three model families on the ``digits`` data
with :class:`~sksel.DAUBSearch` (a grid per family, trained on growing
subsamples), :class:`~sksel.KDPPSearch` (diverse configurations, all trained
on all rows) and :class:`~sklearn.model_selection.RandomizedSearchCV`.
"""

# %%
# The space
# ---------
# An RBF SVC, a logistic regression and a k-nearest-neighbours classifier,
# each with a scale-sensitive parameter. DAUB takes a small grid per family;
# the two samplers take distributions over the same ranges and 12
# configurations each. All three use the same 3-fold cross-validation.
import matplotlib.pyplot as plt
import numpy as np
from scipy.stats import loguniform, randint
from sklearn.datasets import load_digits
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    RandomizedSearchCV,
    StratifiedKFold,
)
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from sksel import BestScoreDisplay, DAUBSearch, KDPPSearch

X, y = load_digits(return_X_y=True)
cv = StratifiedKFold(3, shuffle=True, random_state=0)
pipe = Pipeline([("scale", StandardScaler()), ("clf", SVC())])

svc, logistic = SVC(), LogisticRegression(max_iter=300)
knn = KNeighborsClassifier()
grids = [
    (pipe, {"clf": [svc], "clf__C": [0.1, 1, 10, 100]}),
    (pipe, {"clf": [logistic], "clf__C": [0.01, 0.1, 1, 10]}),
    (pipe, {"clf": [knn], "clf__n_neighbors": [1, 5, 15, 45]}),
]
space = [
    {"clf": [svc], "clf__C": loguniform(1e-1, 1e2)},
    {"clf": [logistic], "clf__C": loguniform(1e-2, 1e1)},
    {"clf": [knn], "clf__n_neighbors": randint(1, 46)},
]

daub = DAUBSearch(grids, cv=cv, random_state=0).fit(X, y)
kdpp = KDPPSearch(pipe, space, n_iter=12, cv=cv, random_state=0)
kdpp.fit(X, y)
rand = RandomizedSearchCV(pipe, space, n_iter=12, cv=cv,
                          random_state=0)
rand.fit(X, y)
searches = {"DAUB": daub, "k-DPP": kdpp, "random": rand}
for name, search in searches.items():
    # DAUB names them after its candidate list: estimator__clf__C
    best = {k.rsplit("__", 1)[-1]: v
            for k, v in search.best_params_.items()}
    param = "C" if "C" in best else "n_neighbors"
    model = type(best["clf"]).__name__
    print(f"{name:7s} best accuracy {search.best_score_:.4f}: "
          f"{model} with {param}={best[param]:.3g}")

# %%
# Best score so far
# -----------------
# ``from_search`` reads an sksel search. A scikit-learn search has no
# ``all_cv_results_``, but its ``cv_results_`` give the same two columns, in
# the order it evaluated its candidates, and the display's constructor takes
# them directly.
#
# DAUB's first points come from models trained on a hundred-odd rows: it
# has a score within a fraction of a second, then climbs as the promising
# families get more rows, and gives full-size training only to those that
# could still win. The two samplers pay every configuration in full from
# the start. On a space this small (three families, one parameter each) all
# three end on an SVC with C between 6 and 10, and random search happened
# to draw a good one first; what differs is the time spent on the way.
display = BestScoreDisplay.from_search(daub, name="DAUBSearch")
BestScoreDisplay.from_search(kdpp, name="KDPPSearch", ax=display.ax_)
res = rand.cv_results_
seconds = res["mean_fit_time"] + res["mean_score_time"]
BestScoreDisplay(
    elapsed=np.cumsum(seconds * cv.get_n_splits()),
    best_scores=np.fmax.accumulate(res["mean_test_score"]),
    name="RandomizedSearchCV",
    score_name=display.score_name,
).plot(ax=display.ax_)
display.ax_.set_title("Three searches on digits")
plt.show()
