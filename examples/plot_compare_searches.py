"""
Best score against training time: sksel's searches beside scikit-learn's
========================================================================

:class:`~sksel.BestScoreDisplay` draws a search's best cross-validated score
so far against the seconds it spent training and scoring, summed over its
evaluations. Drawn on one axes, several searches compare as the methods'
papers compare them: which one reaches a good model sooner. It draws
scikit-learn's searches too, so that an sksel search is seen beside the one
it replaces.

This example searches the same three model families on the ``digits`` data
with :class:`~sksel.DAUBSearch` (a grid per family, trained on growing
subsamples) and the two scikit-learn searches it replaces:
:class:`~sklearn.model_selection.GridSearchCV` (every candidate on all rows)
and :class:`~sklearn.model_selection.HalvingGridSearchCV` (every candidate on
a few rows, the better half of them on twice as many, and so on). Then with
:class:`~sksel.KDPPSearch` (diverse configurations, all trained on all rows)
and the search it replaces,
:class:`~sklearn.model_selection.RandomizedSearchCV`.
"""

# %%
# The space
# ---------
# An RBF SVC, a logistic regression and a k-nearest-neighbours classifier,
# each with a scale-sensitive parameter. DAUB and the two grid searches take
# a small grid per family; the two samplers take distributions over the same
# ranges and 12 configurations each. All five use the same 3-fold
# cross-validation.
import matplotlib.pyplot as plt
from scipy.stats import loguniform, randint
from sklearn.datasets import load_digits
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    HalvingGridSearchCV,
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
grid = [
    {"clf": [svc], "clf__C": [0.1, 1, 10, 100]},
    {"clf": [logistic], "clf__C": [0.01, 0.1, 1, 10]},
    {"clf": [knn], "clf__n_neighbors": [1, 5, 15, 45]},
]
space = [
    {"clf": [svc], "clf__C": loguniform(1e-1, 1e2)},
    {"clf": [logistic], "clf__C": loguniform(1e-2, 1e1)},
    {"clf": [knn], "clf__n_neighbors": randint(1, 46)},
]

daub = DAUBSearch([(pipe, family) for family in grid], cv=cv,
                  random_state=0).fit(X, y)
grid_search = GridSearchCV(pipe, grid, cv=cv).fit(X, y)
halving = HalvingGridSearchCV(pipe, grid, cv=cv, factor=2,
                              random_state=0).fit(X, y)
kdpp = KDPPSearch(pipe, space, n_iter=12, cv=cv, random_state=0)
kdpp.fit(X, y)
rand = RandomizedSearchCV(pipe, space, n_iter=12, cv=cv,
                          random_state=0)
rand.fit(X, y)
searches = {"DAUB": daub, "grid": grid_search, "halving": halving,
            "k-DPP": kdpp, "random": rand}
for name, search in searches.items():
    # DAUB names them after its candidate list: estimator__clf__C
    best = {k.rsplit("__", 1)[-1]: v
            for k, v in search.best_params_.items()}
    param = "C" if "C" in best else "n_neighbors"
    model = type(best["clf"]).__name__
    print(f"{name:7s} best accuracy {search.best_score_:.4f}: "
          f"{model} with {param}={best[param]:.3g}")

# %%
# DAUB beside the grid searches it replaces
# -----------------------------------------
# ``from_search`` reads an sksel search or a scikit-learn one; each call
# with ``ax=`` draws one more line on the same axes. The seconds are on a
# log scale, which spreads out the first scores, those of models trained
# on small subsamples.
#
# DAUB's first points come from models trained on a hundred-odd rows, and
# halving's from models trained on a few hundred samples: both have a score
# long before the grid search has its first, once a candidate is trained
# on all the rows. On a space this small (twelve candidates, the SVCs first
# in the grid) the grid search comes to the best score early; DAUB and
# halving, which try every family on small subsamples first, come to it
# later, after about as many seconds in all. DAUB saves more where the rows
# are many and the learners far apart, as in
# :ref:`sphx_glr_auto_examples_plot_daub_curves.py`.
display = BestScoreDisplay.from_search(daub, name="DAUBSearch")
BestScoreDisplay.from_search(grid_search, ax=display.ax_)
BestScoreDisplay.from_search(halving, ax=display.ax_)
display.ax_.set_xscale("log")
display.ax_.set_title("DAUB and the grid searches on digits")
plt.show()

# %%
# k-DPP beside random search
# --------------------------
# The two samplers pay every configuration in full. On a space this small
# (three families, one parameter each) both end on an SVC with C between 6
# and 11, and random search happened to draw a good one first; what differs
# is the time spent on the way.
display = BestScoreDisplay.from_search(kdpp, name="KDPPSearch")
BestScoreDisplay.from_search(rand, ax=display.ax_)
display.ax_.set_title("k-DPP and random search on digits")
plt.show()
