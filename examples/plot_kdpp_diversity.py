"""
How a k-DPP spreads an SVC's configurations
===========================================

:class:`~sksel.KDPPSearch` draws its ``n_iter`` configurations *together*,
from a k-DPP over the search space, so that they repel each other: fewer
near-duplicates, more of the space covered than with as many independent
draws (what :class:`~sklearn.model_selection.RandomizedSearchCV` tries). With
few evaluations, which is when the spread matters most, the best of them is
less often a near-copy of another one.

:class:`~sksel.DiversityDisplay` draws the configurations it evaluated in two
numeric parameters, against a uniform draw of the same size.
"""

# %%
# The search
# ----------
# An RBF SVC on the ``breast_cancer`` data (569 rows, 30 features), with ``C``
# and ``gamma`` log-uniform over several decades, and 12 configurations.
import matplotlib.pyplot as plt
from scipy.stats import loguniform
from sklearn.datasets import load_breast_cancer
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from sksel import DiversityDisplay, KDPPSearch

X, y = load_breast_cancer(return_X_y=True)
pipe = make_pipeline(StandardScaler(), SVC())
space = {
    "svc__C": loguniform(1e-2, 1e3),
    "svc__gamma": loguniform(1e-4, 1e1),
}
search = KDPPSearch(pipe, space, n_iter=12, cv=3, random_state=0)
search.fit(X, y)
print(f"best: C={search.best_params_['svc__C']:.3g}, "
      f"gamma={search.best_params_['svc__gamma']:.3g}, "
      f"accuracy {search.best_score_:.3f}")

# %%
# The configurations
# ------------------
# Red dots are the k-DPP's 12 configurations, grey crosses 12 independent
# draws from the same distributions. Both axes span several decades, so the
# display puts them on a log scale. The k-DPP's points keep their distance
# from each other; the independent draws clump in places and leave holes in
# others.
display = DiversityDisplay.from_search(search, "svc__C", "svc__gamma",
                                       random_state=0)
display.ax_.set_title("k-DPP against independent draws, 12 each")
plt.show()
