"""Portfolios of classifiers and priors over their scores.

GP-UCB model selection (:class:`sksel.GPUCBSelector`) treats the scores of K
candidate algorithms on a new dataset as one draw from a Gaussian whose mean
and covariance are estimated from the candidates' scores on earlier datasets.
This module ships both halves of that: :func:`default_portfolio`, about two
dozen diverse scikit-learn classifiers, and :func:`default_prior`, their mean
5-fold cross-validated accuracy on a few dozen small offline datasets.

The prior file, ``sksel/data/default_prior.csv``, is rebuilt by
``benchmarks/builders/build_default_prior.py``; its columns are the names of
:func:`default_portfolio`, in order, so the two must change together.

A second, fully real prior comes from LCDB (Mohr et al.), the learning-curve
database of 20 scikit-learn classifiers with their default parameters on 248
OpenML datasets: :func:`lcdb_portfolio` and :func:`lcdb_prior`, their
validation accuracy on 180 of those datasets (rebuilt by
``benchmarks/builders/build_lcdb_prior.py``).

For regressors, :func:`regression_portfolio` and :func:`regression_prior`:
the ten scikit-learn regressors a user tries first and their R² on real
regression tables (rebuilt by ``benchmarks/builders/build_regression_prior.py``
from the curves ``record_curves --task regression`` recorded).
"""

import csv
import io
from importlib import resources

import numpy as np
from sklearn.discriminant_analysis import (
    LinearDiscriminantAnalysis,
    QuadraticDiscriminantAnalysis,
)
from sklearn.ensemble import (
    AdaBoostClassifier,
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    GradientBoostingClassifier,
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.linear_model import (
    Lasso,
    LogisticRegression,
    Perceptron,
    Ridge,
    RidgeClassifier,
    SGDClassifier,
)
from sklearn.naive_bayes import BernoulliNB, GaussianNB, MultinomialNB
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from sklearn.neural_network import MLPClassifier, MLPRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, SVR
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor, ExtraTreeClassifier

__all__ = ["default_cost", "default_portfolio", "default_prior", "lcdb_cost",
           "lcdb_portfolio", "lcdb_prior", "regression_cost", "regression_portfolio",
           "regression_prior"]

_PRIOR_FILE = "default_prior.csv"
_LCDB_FILE = "lcdb_prior.csv"
_COST_FILE = "default_cost.csv"
_LCDB_COST_FILE = "lcdb_cost.csv"
_REGRESSION_FILE = "regression_prior.csv"
_REGRESSION_COST_FILE = "regression_cost.csv"

#: The regressors of the recorded regression curves -> the short names of
#: :func:`regression_portfolio`, in order (XGBoost's, recorded too, is not in it: the
#: portfolio needs scikit-learn only; ``prior="auto"`` matches an XGBRegressor to the
#: histogram gradient boosting column).
REGRESSION_LEARNERS = {
    "scaled Ridge": "ridge",
    "Ridge": "ridge_unscaled",
    "scaled Lasso": "lasso",
    "DecisionTreeRegressor": "tree",
    "RandomForestRegressor": "random_forest",
    "ExtraTreesRegressor": "extra_trees",
    "HistGradientBoostingRegressor": "hist_gb",
    "scaled KNeighborsRegressor": "knn",
    "scaled SVR": "svr",
    "scaled MLPRegressor": "mlp",
}

#: LCDB's learner names -> the short names of :func:`lcdb_portfolio`, in order.
LCDB_LEARNERS = {
    "SVC_linear": "svc_linear",
    "SVC_poly": "svc_poly",
    "SVC_rbf": "svc_rbf",
    "SVC_sigmoid": "svc_sigmoid",
    "sklearn.discriminant_analysis.LinearDiscriminantAnalysis": "lda",
    "sklearn.discriminant_analysis.QuadraticDiscriminantAnalysis": "qda",
    "sklearn.ensemble.ExtraTreesClassifier": "extra_trees",
    "sklearn.ensemble.GradientBoostingClassifier": "gradient_boosting",
    "sklearn.ensemble.RandomForestClassifier": "random_forest",
    "sklearn.linear_model.LogisticRegression": "logreg",
    "sklearn.linear_model.Perceptron": "perceptron",
    "sklearn.linear_model.RidgeClassifier": "ridge",
    "sklearn.linear_model.SGDClassifier": "sgd",
    "sklearn.naive_bayes.BernoulliNB": "bernoulli_nb",
    "sklearn.naive_bayes.MultinomialNB": "multinomial_nb",
    "sklearn.neighbors.KNeighborsClassifier": "knn",
    "sklearn.neural_network.MLPClassifier": "mlp",
    "sklearn.tree.DecisionTreeClassifier": "tree",
    "sklearn.tree.ExtraTreeClassifier": "extra_tree",
}


def _scaled(estimator):
    return make_pipeline(StandardScaler(), estimator)


def default_portfolio():
    """About two dozen diverse, cheap scikit-learn classifiers.

    Linear models (logistic regression at three strengths of regularisation,
    linear SVMs), kernel SVMs, nearest neighbours, naive Bayes, discriminant
    analysis, single trees of three depths, bagged, randomised and boosted
    tree ensembles and small neural networks. Scale-sensitive learners are
    wrapped in ``make_pipeline(StandardScaler(), ...)``. Every random
    estimator has ``random_state=0`` and every estimator that takes `n_jobs`
    has ``n_jobs=1`` (parallelise over candidates, not inside them). Each fit
    on up to 3,000 rows and a few hundred features takes at most a few
    seconds on one core; most take well under one.

    Only scikit-learn is used, so the portfolio needs no optional
    dependency. The names are unique and stable: they are the columns of the
    prior returned by :func:`default_prior`.

    Returns
    -------
    portfolio : list of (str, estimator) tuples
        ``(name, unfitted classifier)`` pairs, a fresh list of fresh
        estimators on every call. Use ``dict(default_portfolio())`` for a
        name -> estimator map.

    See Also
    --------
    default_prior : The candidates' scores on earlier datasets.

    Examples
    --------
    >>> from sksel.gpucb.portfolio import default_portfolio
    >>> portfolio = default_portfolio()
    >>> len(portfolio)
    25
    >>> portfolio[0][0]
    'logreg_C0.01'
    >>> dict(portfolio)["knn_5"]
    Pipeline(steps=[('standardscaler', StandardScaler()),
                    ('kneighborsclassifier', KNeighborsClassifier(n_jobs=1))])
    """
    rs = 0
    portfolio = [
        # Linear models.
        ("logreg_C0.01", _scaled(LogisticRegression(C=0.01, max_iter=500, random_state=rs))),
        ("logreg_C1", _scaled(LogisticRegression(C=1.0, max_iter=500, random_state=rs))),
        ("logreg_C100", _scaled(LogisticRegression(C=100.0, max_iter=1000, random_state=rs))),
        ("svc_linear_C0.01", _scaled(SVC(kernel="linear", C=0.01, random_state=rs))),
        ("svc_linear_C1", _scaled(SVC(kernel="linear", C=1.0, random_state=rs))),
        # Kernel SVMs (gamma="scale").
        ("svc_rbf_C1", _scaled(SVC(kernel="rbf", C=1.0, random_state=rs))),
        ("svc_rbf_C10", _scaled(SVC(kernel="rbf", C=10.0, random_state=rs))),
        ("svc_rbf_C100", _scaled(SVC(kernel="rbf", C=100.0, random_state=rs))),
        # Nearest neighbours.
        ("knn_1", _scaled(KNeighborsClassifier(n_neighbors=1, n_jobs=1))),
        ("knn_5", _scaled(KNeighborsClassifier(n_neighbors=5, n_jobs=1))),
        ("knn_25", _scaled(KNeighborsClassifier(n_neighbors=25, n_jobs=1))),
        # Naive Bayes and discriminant analysis.
        ("gaussian_nb", GaussianNB()),
        # binarize=0 on standardised features = "above the feature's mean".
        ("bernoulli_nb", _scaled(BernoulliNB(binarize=0.0))),
        ("lda", LinearDiscriminantAnalysis()),
        ("qda", _scaled(QuadraticDiscriminantAnalysis(reg_param=0.1))),
        # Single trees.
        ("tree_d2", DecisionTreeClassifier(max_depth=2, random_state=rs)),
        ("tree_d6", DecisionTreeClassifier(max_depth=6, random_state=rs)),
        ("tree_full", DecisionTreeClassifier(random_state=rs)),
        # Ensembles.
        ("random_forest", RandomForestClassifier(n_estimators=100, n_jobs=1,
                                                 random_state=rs)),
        ("extra_trees", ExtraTreesClassifier(n_estimators=100, n_jobs=1,
                                             random_state=rs)),
        ("hist_gb_shallow", HistGradientBoostingClassifier(
            max_iter=50, learning_rate=0.2, max_depth=3, max_bins=64,
            early_stopping=False, random_state=rs)),
        ("hist_gb", HistGradientBoostingClassifier(
            max_iter=100, learning_rate=0.1, max_bins=64, early_stopping=False,
            random_state=rs)),
        ("adaboost", AdaBoostClassifier(n_estimators=50, random_state=rs)),
        # Small neural networks.
        ("mlp_64", _scaled(MLPClassifier(hidden_layer_sizes=(64,), early_stopping=True,
                                         max_iter=200, random_state=rs))),
        ("mlp_128_64", _scaled(MLPClassifier(hidden_layer_sizes=(128, 64), alpha=1e-3,
                                             early_stopping=True, max_iter=200,
                                             random_state=rs))),
    ]
    return portfolio


def lcdb_portfolio():
    """The 19 LCDB classifiers with their default parameters, as LCDB ran them.

    LCDB's 20 learners less ``PassiveAggressiveClassifier`` (deprecated in
    scikit-learn 1.8). No preprocessing is added: give them numeric,
    imputed data (``MultinomialNB`` needs non-negative features; where it
    fails, GP-UCB counts the failure and goes on).

    Returns
    -------
    portfolio : list of (str, estimator)
        Fresh unfitted classifiers, in the column order of :func:`lcdb_prior`.

    Examples
    --------
    >>> from sksel.gpucb.portfolio import lcdb_portfolio
    >>> [name for name, _ in lcdb_portfolio()][:4]
    ['svc_linear', 'svc_poly', 'svc_rbf', 'svc_sigmoid']
    """
    estimators = [
        SVC(kernel="linear"), SVC(kernel="poly"), SVC(kernel="rbf"), SVC(kernel="sigmoid"),
        LinearDiscriminantAnalysis(), QuadraticDiscriminantAnalysis(),
        ExtraTreesClassifier(), GradientBoostingClassifier(), RandomForestClassifier(),
        LogisticRegression(), Perceptron(), RidgeClassifier(), SGDClassifier(),
        BernoulliNB(), MultinomialNB(), KNeighborsClassifier(), MLPClassifier(),
        DecisionTreeClassifier(), ExtraTreeClassifier(),
    ]
    return list(zip(LCDB_LEARNERS.values(), estimators))


def regression_portfolio():
    """The ten scikit-learn regressors a user tries first, as their curves were recorded.

    Ridge with and without scaling, scaled Lasso, a tree, a random forest and
    extra trees (100 trees), histogram gradient boosting, scaled nearest
    neighbours, a scaled RBF SVR and a scaled MLP, with scikit-learn's
    defaults (``random_state=0``, ``n_jobs=1``).

    Returns
    -------
    portfolio : list of (str, estimator)
        Fresh unfitted regressors, in the column order of :func:`regression_prior`.

    Examples
    --------
    >>> from sksel.gpucb.portfolio import regression_portfolio
    >>> [name for name, _ in regression_portfolio()][:3]
    ['ridge', 'ridge_unscaled', 'lasso']
    """
    rs = 0
    estimators = [
        _scaled(Ridge()), Ridge(), _scaled(Lasso(max_iter=5000)),
        DecisionTreeRegressor(random_state=rs),
        RandomForestRegressor(n_estimators=100, n_jobs=1, random_state=rs),
        ExtraTreesRegressor(n_estimators=100, n_jobs=1, random_state=rs),
        HistGradientBoostingRegressor(random_state=rs),
        _scaled(KNeighborsRegressor(n_jobs=1)), _scaled(SVR()),
        _scaled(MLPRegressor(random_state=rs)),
    ]
    return list(zip(REGRESSION_LEARNERS.values(), estimators))


def regression_prior(return_datasets=False):
    """R² of :func:`regression_portfolio` on real regression tables, from their curves.

    Each regressor's validation R² at the table's full training size (the
    curves' tune half; R² below -1 counted as -1, as the gap model counts
    it), NaN where it was not recorded there (the SVR above 5,000 rows).

    Parameters
    ----------
    return_datasets : bool, default=False
        Also return the tables' names (the rows).

    Returns
    -------
    names, scores[, datasets]
        As :func:`default_prior`, with R² instead of accuracies.

    Examples
    --------
    >>> from sksel.gpucb.portfolio import regression_portfolio, regression_prior
    >>> names, scores = regression_prior()
    >>> names == [name for name, _ in regression_portfolio()]
    True
    """
    return _read_prior(_REGRESSION_FILE, return_datasets)


def regression_cost(return_datasets=False):
    """Fit times of :func:`regression_portfolio` at the full size of the prior's tables.

    Returns
    -------
    names, times[, datasets]
        As :func:`regression_prior`, with seconds instead of R².

    Examples
    --------
    >>> from sksel.gpucb.portfolio import regression_cost, regression_prior
    >>> regression_cost()[1].shape == regression_prior()[1].shape
    True
    """
    return _read_prior(_REGRESSION_COST_FILE, return_datasets)


def lcdb_prior(return_datasets=False):
    """Validation accuracies of :func:`lcdb_portfolio` on 180 OpenML datasets, from LCDB.

    Each learner's accuracy at the dataset's full training size (the largest
    size at least 90% of its learners reached; datasets of at least 1,000
    rows with at least 5 learners there), averaged over LCDB's seeds; NaN
    where LCDB lacks the learner at that size (15% of the cells).

    Parameters
    ----------
    return_datasets : bool, default=False
        Also return the OpenML ids of the datasets (the rows), as strings.

    Returns
    -------
    names, scores[, datasets]
        As :func:`default_prior`.

    Examples
    --------
    >>> from sksel.gpucb.portfolio import lcdb_portfolio, lcdb_prior
    >>> names, scores = lcdb_prior()
    >>> names == [name for name, _ in lcdb_portfolio()], scores.shape
    (True, (180, 19))
    """
    return _read_prior(_LCDB_FILE, return_datasets)


def _parse_float(cell):
    cell = cell.strip()
    return float(cell) if cell and cell.lower() != "nan" else np.nan


def default_prior(return_datasets=False):
    """Scores of the :func:`default_portfolio` candidates on earlier datasets.

    Reads the prior shipped with the package, ``sksel/data/default_prior.csv``:
    the mean 5-fold stratified cross-validated accuracy of every candidate on
    a few dozen small offline classification datasets (scikit-learn's bundled
    ones, the KEEL "balanced" collection and generated ones, each subsampled
    to at most 3,000 rows). Rebuild it with
    ``benchmarks/builders/build_default_prior.py``.

    The row mean estimates the prior mean ``mu = E_D[A(D)]`` of GP-UCB model
    selection and the row covariance its ``Sigma = Cov_D[A(D)]``.

    Parameters
    ----------
    return_datasets : bool, default=False
        Also return the names of the datasets (the rows).

    Returns
    -------
    names : list of str
        Candidate names (the columns), in the order of
        :func:`default_portfolio`.
    scores : ndarray of shape (n_datasets, n_candidates)
        Accuracy in [0, 1]; NaN where a candidate failed on a dataset.
    datasets : list of str
        Dataset names (the rows). Only returned if `return_datasets` is True.

    See Also
    --------
    default_portfolio : The candidates.

    Examples
    --------
    >>> import numpy as np
    >>> from sksel.gpucb.portfolio import default_portfolio, default_prior
    >>> names, scores = default_prior()
    >>> names == [name for name, _ in default_portfolio()]
    True
    >>> scores.shape[1] == len(names)
    True
    >>> mu = np.nanmean(scores, axis=0)  # prior mean of each candidate
    >>> names, scores, datasets = default_prior(return_datasets=True)
    >>> len(datasets) == scores.shape[0]
    True
    """
    return _read_prior(_PRIOR_FILE, return_datasets)


def default_cost(return_datasets=False):
    """Fit times of the :func:`default_portfolio` candidates on the prior's datasets.

    Reads ``sksel/data/default_cost.csv``: the mean fit time in seconds of
    every candidate over the 5 folds of :func:`default_prior`, on the same
    datasets, measured on one core when the prior was built
    (``benchmarks/builders/build_default_prior.py``). Only ratios between candidates
    are used (:func:`sksel.gpucb.cost_prior_from_times`).

    Parameters
    ----------
    return_datasets : bool, default=False
        Also return the names of the datasets (the rows).

    Returns
    -------
    names, times[, datasets]
        As :func:`default_prior`, with seconds instead of scores.

    Examples
    --------
    >>> from sksel.gpucb.portfolio import default_cost, default_prior
    >>> names, times = default_cost()
    >>> names == default_prior()[0], times.shape == default_prior()[1].shape
    (True, True)
    """
    return _read_prior(_COST_FILE, return_datasets)


def lcdb_cost(return_datasets=False):
    """Training times of :func:`lcdb_portfolio` on the datasets of :func:`lcdb_prior`, from LCDB.

    Each learner's training time in seconds at the dataset's full size,
    averaged over LCDB's seeds, NaN where :func:`lcdb_prior` has no score.

    Parameters
    ----------
    return_datasets : bool, default=False
        Also return the OpenML ids of the datasets (the rows), as strings.

    Returns
    -------
    names, times[, datasets]
        As :func:`lcdb_prior`, with seconds instead of scores.

    Examples
    --------
    >>> from sksel.gpucb.portfolio import lcdb_cost, lcdb_prior
    >>> names, times = lcdb_cost()
    >>> names == lcdb_prior()[0], times.shape
    (True, (180, 19))
    """
    return _read_prior(_LCDB_COST_FILE, return_datasets)


def _read_prior(filename, return_datasets):
    """``(names, scores[, datasets])`` of a prior CSV of the package's data."""
    text = (resources.files("sksel") / "data" / filename).read_text(encoding="utf-8")
    rows = [row for row in csv.reader(io.StringIO(text)) if row]
    header, body = rows[0], rows[1:]
    if header[0] != "dataset":
        raise ValueError(f"{filename}: the first column must be 'dataset', "
                         f"got {header[0]!r}")
    names = header[1:]
    datasets = [row[0] for row in body]
    scores = np.array([[_parse_float(cell) for cell in row[1:]] for row in body],
                      dtype=float).reshape(len(body), len(names))
    if return_datasets:
        return names, scores, datasets
    return names, scores


#: The shipped priors by name: ``(portfolio, prior, cost)`` functions.
_SHIPPED = {"default": (default_portfolio, default_prior, default_cost),
            "lcdb": (lcdb_portfolio, lcdb_prior, lcdb_cost),
            "regression": (regression_portfolio, regression_prior, regression_cost)}
#: The kind of score of each shipped prior (:data:`sksel.curves.gap_model.KINDS`).
_SHIPPED_KIND = {"default": "accuracy", "lcdb": "accuracy", "regression": "r2"}
