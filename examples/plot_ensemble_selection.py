"""
An ensemble of the models a search trained
==========================================

A search trains every candidate on every fold and keeps one.
:class:`~sksel.ensemble.EnsembleClassifier` keeps a weighted set of them
instead, chosen on the predictions each candidate made of the rows it did
not train on, so that the choice never sees the rows it is scored on.

``method="dpp"`` takes the most probable set of a determinantal point
process whose kernel rewards a candidate's score and penalises candidates
that make the same errors; ``"greedy"`` is Caruana's selection with
replacement (what auto-sklearn builds); ``"best"`` is the search's own
choice. :class:`~sksel.ensemble.EnsembleDisplay` shows the members, their
weights and how often they disagree.
"""

# %%
# The search
# ----------
# Nine candidates of six learner families on the 8x8 ``digits`` (1,797
# images), a quarter held out. The ensemble runs the search itself (a clone
# of it, keeping its out-of-fold predictions), then chooses.
import matplotlib.pyplot as plt
from sklearn.datasets import load_digits
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sksel.ensemble import EnsembleClassifier, EnsembleDisplay

X, y = load_digits(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, stratify=y, random_state=0)
pipe = Pipeline([("scale", StandardScaler()), ("clf", LogisticRegression())])
grid = [
    {"clf": [LogisticRegression(max_iter=500)], "clf__C": [0.01, 1.0]},
    {"clf": [KNeighborsClassifier()], "clf__n_neighbors": [1, 15]},
    {"clf": [DecisionTreeClassifier(random_state=0)], "clf__max_depth": [6, None]},
    {"clf": [GaussianNB()]},
    {"clf": [RandomForestClassifier(n_estimators=50, random_state=0)],
     "clf__max_features": [0.1, 0.5]},
]
search = GridSearchCV(pipe, grid, cv=3, n_jobs=2)

# %%
# Three ways to keep models
# -------------------------
# ``fit`` runs the search and chooses the DPP's members; the search it ran,
# ``search_``, kept the predictions, so the other choices are made from it
# without training anything again but their members' refits. The members and
# their weights come from the out-of-fold predictions only; the test rows
# score them afterwards.
dpp = EnsembleClassifier(search, method="dpp").fit(X_train, y_train)
ensembles = {method: EnsembleClassifier.from_search(dpp.search_, X_train, y_train,
                                                    method=method)
             for method in ("best", "greedy")}
ensembles["dpp"] = dpp
for method, ensemble in ensembles.items():
    print(f"{method:>6}: {len(ensemble.members_)} members, "
          f"test accuracy {ensemble.score(X_test, y_test):.4f}")

# %%
# The DPP's members
# -----------------
# Each row is a member, labelled with its weight and test accuracy; a cell is
# the share of test rows on which two members predict different classes. The
# title sets the ensemble against the best single model.
EnsembleDisplay.from_estimator(dpp, X_test, y_test)
plt.show()
