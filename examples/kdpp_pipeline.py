"""
Twenty diverse configurations of a four-model pipeline, with a k-DPP
====================================================================

The space is tree-structured: a ``Pipeline`` whose classifier step is one of
four model families, each with its own continuous and categorical
parameters (a list of dicts, one per family, as
:class:`~sklearn.model_selection.RandomizedSearchCV` takes it).
:class:`sksel.KDPPSearch` draws its 20 configurations together from a k-DPP
over the featurized space, so they spread over the families and over each
family's ranges; :class:`~sklearn.model_selection.RandomizedSearchCV` draws 20
independently. Both evaluate their 20 with the same 3-fold cross-validation
on the ``digits`` data (bundled with scikit-learn) and refit the best.

It prints, for each search, the configurations per family, the best
cross-validated accuracy, the test accuracy of the refitted best, and the
smallest distance between two configurations in feature space (larger means
fewer near-duplicates).

Run ``python examples/kdpp_pipeline.py`` (about 10 s on 2 cores).
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

from collections import Counter  # noqa: E402

from scipy.spatial.distance import pdist  # noqa: E402
from scipy.stats import loguniform, randint  # noqa: E402
from sklearn.datasets import load_digits  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.model_selection import (  # noqa: E402
    RandomizedSearchCV,
    StratifiedKFold,
    train_test_split,
)
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.pipeline import Pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.svm import SVC  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

from sksel import KDPPSearch  # noqa: E402
from sksel.spaces import SearchSpace  # noqa: E402

SPACE = [
    {"clf": [LogisticRegression(max_iter=300)],
     "clf__C": loguniform(1e-4, 1e4), "clf__penalty": ["l2", None]},
    {"clf": [SVC()],
     "clf__C": loguniform(1e-4, 1e4), "clf__gamma": loguniform(1e-5, 1e1),
     "clf__kernel": ["rbf", "poly", "sigmoid"]},
    {"clf": [DecisionTreeClassifier(random_state=0)],
     "clf__max_depth": randint(1, 30), "clf__criterion": ["gini", "entropy"],
     "clf__min_samples_leaf": randint(1, 50)},
    {"clf": [KNeighborsClassifier()],
     "clf__n_neighbors": randint(1, 100), "clf__weights": ["uniform", "distance"]},
]


def summarize(name, search, X_test, y_test):
    params = search.cv_results_["params"]
    families = Counter(type(p["clf"]).__name__ for p in params)
    F, _ = SearchSpace(param_distributions=SPACE).featurize(params)
    print(f"{name}:")
    print("  configurations per family: "
          + ", ".join(f"{k} {v}" for k, v in sorted(families.items())))
    print(f"  smallest distance between two configurations: {pdist(F).min():.3f}")
    print(f"  best CV accuracy {search.best_score_:.4f} "
          f"({type(search.best_params_['clf']).__name__}); "
          f"test accuracy {search.score(X_test, y_test):.4f}")


def main():
    X, y = load_digits(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25,
                                                        stratify=y, random_state=0)
    pipe = Pipeline([("scale", StandardScaler()), ("clf", SVC())])
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    common = dict(n_iter=20, cv=cv, n_jobs=-1, random_state=0)
    kdpp = KDPPSearch(pipe, SPACE, **common).fit(X_train, y_train)
    rand = RandomizedSearchCV(pipe, SPACE, **common).fit(X_train, y_train)
    summarize("KDPPSearch", kdpp, X_test, y_test)
    summarize("RandomizedSearchCV", rand, X_test, y_test)
    print("\nOne draw each; benchmarks/bench_kdpp_search.py repeats it 30 times.")


if __name__ == "__main__":
    main()
