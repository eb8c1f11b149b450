"""Every display of every search, at its default size, saved as PNG.

Each search runs on a small task with about ``--n-candidates`` candidates
(25 by default) and every display that reads it is drawn as
``from_search(search)`` draws it, with no option and no relabelling, then
saved to ``OUTDIR/<search>_<display>.png``. The figures are for looking at:
whether the names can be read, whether labels overlap, whether the legend
covers data, whether the axes say what they measure.

- DAUBSearch: scaled logistic regressions and SGD classifiers, decision
  trees, k-nearest neighbours and naive Bayes over a few values each
  (``make_classification``, 10,000 rows);
- MutantUCBSearch: a scaled SGD classifier, ``alpha`` and ``eta0``
  log-uniform, ``n_initial`` models and their mutants (``load_digits``);
- KDPPSearch: an RBF SVC, ``C`` and ``gamma`` log-uniform
  (``load_breast_cancer``);
- GPUCBSelector: the 25 classifiers of
  :func:`sksel.gpucb.portfolio.default_portfolio` with the default prior, six
  evaluated (``load_breast_cancer``);
- GPUCBSelector with looks: DAUB's learners, looks on subsamples before all
  the rows, on two workers, which may leave speculative picks unused
  (``make_classification``, 6,000 rows, five folds: looks on 177, 533 and
  1,600 rows before all 4,800).

    python -m benchmarks display_gallery OUTDIR [--n-candidates 25]
"""

import argparse
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from scipy.stats import loguniform  # noqa: E402
from sklearn.datasets import load_breast_cancer, load_digits, make_classification  # noqa: E402
from sklearn.linear_model import LogisticRegression, SGDClassifier  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.svm import SVC  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

from sksel import (  # noqa: E402
    AllocationDisplay,
    BestScoreDisplay,
    DAUBSearch,
    DiversityDisplay,
    FamilyTreeDisplay,
    GPUCBSelector,
    KDPPSearch,
    MutantUCBSearch,
    PosteriorDisplay,
    SearchCurvesDisplay,
)
from sksel.gpucb.portfolio import default_portfolio  # noqa: E402


def learners(n_candidates):
    """`n_candidates` learners of five kinds, a few values of one parameter each."""
    per_kind = int(np.ceil(n_candidates / 5))
    grid = np.logspace(-3, 2, per_kind)
    return (
        [make_pipeline(StandardScaler(), LogisticRegression(C=c)) for c in grid]
        + [make_pipeline(StandardScaler(), SGDClassifier(alpha=a / 100, random_state=0))
           for a in grid]
        + [DecisionTreeClassifier(max_depth=d, random_state=0) for d in range(2, 2 + per_kind)]
        + [KNeighborsClassifier(n_neighbors=k) for k in range(1, 2 * per_kind, 2)]
        + [GaussianNB(var_smoothing=v) for v in np.logspace(-9, -3, per_kind)]
    )[:n_candidates]


def daub(n_candidates):
    """DAUB over `n_candidates` :func:`learners`."""
    X, y = make_classification(n_samples=10_000, n_features=20, n_informative=8,
                               random_state=0)
    return DAUBSearch(learners(n_candidates), b=50, r=2, cv=3, random_state=0).fit(X, y)


def mutant_ucb(n_candidates):
    """Mutant-UCB with about `n_candidates` models: a third initial, the rest mutants."""
    X, y = load_digits(return_X_y=True)
    pipe = make_pipeline(StandardScaler(), SGDClassifier(loss="log_loss",
                                                         learning_rate="adaptive",
                                                         random_state=0))
    space = {"sgdclassifier__alpha": loguniform(1e-6, 1e-1),
             "sgdclassifier__eta0": loguniform(1e-4, 1e-1)}
    return MutantUCBSearch(pipe, space, budget=3 * n_candidates, max_subtrains=6,
                           n_initial=max(2, n_candidates // 3), cv=0.25,
                           random_state=0).fit(X, y)


def kdpp(n_candidates):
    X, y = load_breast_cancer(return_X_y=True)
    pipe = make_pipeline(StandardScaler(), SVC())
    space = {"svc__C": loguniform(1e-2, 1e3), "svc__gamma": loguniform(1e-4, 1e1)}
    return KDPPSearch(pipe, space, n_iter=n_candidates, cv=3, random_state=0).fit(X, y)


def gpucb(n_candidates):
    X, y = load_breast_cancer(return_X_y=True)
    learners = [learner for _, learner in default_portfolio()][:n_candidates]
    return GPUCBSelector(learners, prior="default" if n_candidates == 25 else "kernel",
                         n_iter=6, cv=3, random_state=0).fit(X, y)


def gpucb_looks(n_candidates):
    """GP-UCB over `n_candidates` :func:`learners`, with looks, on two workers."""
    X, y = make_classification(n_samples=6_000, n_features=20, n_informative=8,
                               flip_y=0.1, random_state=0)
    return GPUCBSelector(learners(n_candidates), looks=True, cv=5, n_jobs=2,
                         random_state=0).fit(X, y)


def save(display, folder, name):
    path = os.path.join(folder, f"{name}.png")
    display.figure_.savefig(path)
    plt.close(display.figure_)
    print(path)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("outdir")
    parser.add_argument("--n-candidates", type=int, default=25)
    args = parser.parse_args(argv)
    os.makedirs(args.outdir, exist_ok=True)
    searches = {name: make(args.n_candidates) for name, make in (
        ("daub", daub), ("mutant_ucb", mutant_ucb), ("kdpp", kdpp), ("gpucb", gpucb),
        ("gpucb_looks", gpucb_looks))}
    for name, search in searches.items():
        n = len(np.unique(search.all_cv_results_["candidate_id"]))
        print(f"{name}: {n} candidates evaluated")
        save(BestScoreDisplay.from_search(search), args.outdir, f"{name}_best_score")
    # KDPPSearch gives every candidate GridSearchCV's share: no allocation to draw.
    for name in ("daub", "mutant_ucb", "gpucb", "gpucb_looks"):
        save(AllocationDisplay.from_search(searches[name]), args.outdir, f"{name}_allocation")
    for name in ("daub", "mutant_ucb", "gpucb_looks"):
        save(SearchCurvesDisplay.from_search(searches[name]), args.outdir, f"{name}_curves")
    save(FamilyTreeDisplay.from_search(searches["mutant_ucb"]), args.outdir,
         "mutant_ucb_family_tree")
    save(PosteriorDisplay.from_search(searches["gpucb"]), args.outdir, "gpucb_posterior")
    save(DiversityDisplay.from_search(searches["kdpp"], "svc__C", "svc__gamma",
                                      random_state=0), args.outdir, "kdpp_diversity")
    first = BestScoreDisplay.from_search(searches["daub"])
    for name in ("mutant_ucb", "kdpp", "gpucb"):
        BestScoreDisplay.from_search(searches[name], ax=first.ax_)
    save(first, args.outdir, "all_best_score")


if __name__ == "__main__":
    main()
