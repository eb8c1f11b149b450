"""What the shipped priors know of the learners a user passes: ``prior="auto"``.

The shipped priors (:func:`~sksel.gpucb.portfolio.default_prior`,
:func:`~sksel.gpucb.portfolio.lcdb_prior`, and for regressors
:func:`~sksel.gpucb.portfolio.regression_prior`) hold the scores of named
learners on earlier datasets. A candidate is matched to one of their
columns by its learner, the last step of a ``Pipeline``:

- **exact**: a column of the same class whose parameters are the
  candidate's (seeds, ``n_jobs``, ``verbose``, ``max_iter`` and ``tol`` aside)
  behind the same preprocessing steps;
- **family**: otherwise the closest column of the same class (or of a
  related one: XGBoost's, LightGBM's and CatBoost's classifiers are gradient
  boosting; parameters compared on a log scale), with an extra variance that
  grows with how far it is from that column: per unit of distance (a
  parameter that differs, a decade of a number, other preprocessing steps, a
  related class), the median over pairs of columns of one class of half
  their mean squared score difference per unit of their distance (where a
  prior has fewer than three such pairs, the tenth percentile of that
  difference over every pair of its columns); it is correlated between
  candidates of a family by the kernel over their configurations;
- **unknown**: none; the mean score of the shipped columns, a variance
  above any of theirs, and only the covariance that every pair of learners
  shares (the datasets' difficulty), candidates of one class correlated
  by the kernel over their configurations.

Of the shipped priors of the candidates' kind of score (the two of
classifiers, the regression one), the one that matches more candidates is used
(the default portfolio's where as many). :func:`known_prior` gives none where fewer
than two of the candidates' learner classes are matched: one learner over a
grid of its parameters keeps the kernel prior over them.
"""

import functools
import math
import numbers

import numpy as np
from sklearn.pipeline import Pipeline

from .._core.naming import _final_position
from .portfolio import _SHIPPED, _SHIPPED_KIND
from .prior import prior_from_scores

__all__ = ["KnownPrior", "known_prior", "learner_family"]

#: Parameters that do not change what a learner learns, left out of the comparison.
_NUISANCE = frozenset({"random_state", "n_jobs", "verbose", "max_iter", "tol", "cache_size",
                       "copy", "copy_X"})
#: Pairs of columns of one class needed to measure the variance of a unit of distance.
_MIN_PAIRS = 3
#: Classes the shipped priors lack, matched to the family of a related one.
_RELATED = {
    "XGBClassifier": ("HistGradientBoostingClassifier", "GradientBoostingClassifier"),
    "XGBRFClassifier": ("RandomForestClassifier",),
    "LGBMClassifier": ("HistGradientBoostingClassifier", "GradientBoostingClassifier"),
    "CatBoostClassifier": ("HistGradientBoostingClassifier", "GradientBoostingClassifier"),
    "GradientBoostingClassifier": ("HistGradientBoostingClassifier",),
    "HistGradientBoostingClassifier": ("GradientBoostingClassifier",),
    "ExtraTreeClassifier": ("DecisionTreeClassifier",),
    "DecisionTreeClassifier": ("ExtraTreeClassifier",),
    "LinearSVC": ("SVC",),
    "XGBRegressor": ("HistGradientBoostingRegressor",),
    "XGBRFRegressor": ("RandomForestRegressor",),
    "LGBMRegressor": ("HistGradientBoostingRegressor",),
    "CatBoostRegressor": ("HistGradientBoostingRegressor",),
    "GradientBoostingRegressor": ("HistGradientBoostingRegressor",),
    "ExtraTreeRegressor": ("DecisionTreeRegressor",),
    "LinearRegression": ("Ridge",),
    "ElasticNet": ("Lasso",),
    "LinearSVR": ("SVR",),
}


class KnownPrior:
    """A prior of K candidates built from a shipped prior (see :func:`known_prior`).

    Attributes
    ----------
    name : str
        The shipped prior used, ``"default"`` or ``"lcdb"``.
    mean : ndarray of shape (K,)
    cov : ndarray of shape (K, K)
        Symmetric positive definite.
    match : list of str
        ``"exact"``, ``"family"`` or ``"unknown"``, per candidate.
    columns : list of str or None
        The shipped column each candidate was matched to (None: unknown).
    scores : ndarray of shape (n_datasets, K)
        The matched columns' earlier scores (NaN for unknown candidates).
    times : ndarray of shape (n_datasets, K)
        Their earlier fit times (an unknown candidate's: the dataset's
        geometric mean over the shipped columns).
    """

    def __init__(self, name, mean, cov, match, columns, scores, times):
        self.name, self.mean, self.cov = name, mean, cov
        self.match, self.columns, self.scores, self.times = match, columns, scores, times


def learner_family(estimator):
    """The class name of `estimator`'s learner: the last step of a ``Pipeline``, recursively.

    Examples
    --------
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn.svm import SVC
    >>> from sksel.gpucb.known import learner_family
    >>> learner_family(make_pipeline(StandardScaler(), SVC()))
    'SVC'
    """
    return type(_learner(estimator)).__name__


def known_prior(estimators, kernel_corr, kind="accuracy"):
    """The prior of the shipped prior that matches most of `estimators`, or None.

    Among the shipped priors of scores of `kind`: a classifier's accuracy
    (the default portfolio's, LCDB's) or a regressor's R² (the regression
    portfolio's).

    Parameters
    ----------
    estimators : list of estimator objects
        The K candidates, built.
    kernel_corr : ndarray of shape (K, K)
        A correlation between the candidates' configurations (the kernel
        prior's), which shapes the variance of family matches and unknown
        learners within a class.
    kind : {"accuracy", "r2"}, default="accuracy"
        The kind of the candidates' scores.

    Returns
    -------
    prior : KnownPrior or None
        None where fewer than two of the candidates' learner classes are
        matched.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.ensemble import RandomForestClassifier
    >>> from sksel.gpucb.known import known_prior
    >>> learners = [LogisticRegression(), GaussianNB(), RandomForestClassifier(30)]
    >>> prior = known_prior(learners, np.eye(3))
    >>> prior.name, prior.match  # the shipped logreg_C1 standardizes its features first
    ('default', ['family', 'exact', 'family'])
    >>> prior.columns
    ['logreg_C1', 'gaussian_nb', 'random_forest']
    """
    best = None
    for name in [name for name, of in _SHIPPED_KIND.items() if of == kind]:
        columns, match, distances = _matches(estimators, name)
        key = (sum(m != "unknown" for m in match), sum(m == "exact" for m in match))
        if best is None or key > best[0]:
            best = (key, name, columns, match, distances)
    _, name, columns, match, distances = best
    families = [learner_family(e) for e in estimators]
    if len({f for f, c in zip(families, columns) if c is not None}) < 2:
        return None
    return _built(name, columns, match, np.array(distances), np.asarray(kernel_corr, dtype=float),
                  families)


def _learner(estimator):
    """The last step of `estimator`, through nested ``Pipeline`` steps."""
    return _final_position(estimator, {})[0]


def _preprocessing(estimator):
    """The class names of the steps before the learner, flattened."""
    if not isinstance(estimator, Pipeline):
        return ()
    return tuple(name for _, step in estimator.steps[:-1]
                 for name in (*_preprocessing(step), type(step).__name__)
                 if step not in (None, "passthrough"))


def _params(learner):
    return {k: v for k, v in learner.get_params(deep=False).items() if k not in _NUISANCE}


def _distance(a, b):
    """How far two learners' parameters are: 1 per differing value, log10 ratio for numbers."""
    pa, pb = _params(a), _params(b)
    total = 0.0
    for key in set(pa) | set(pb):
        x, y = pa.get(key), pb.get(key)
        if repr(x) == repr(y):
            continue
        numbers_ = (isinstance(x, numbers.Real) and isinstance(y, numbers.Real)
                    and not isinstance(x, bool) and not isinstance(y, bool))
        if numbers_ and x > 0 and y > 0:
            total += min(abs(math.log10(x / y)), 1.0)
        else:
            total += 1.0
    return total


@functools.lru_cache(maxsize=None)
def _table(name):
    """``(names, estimators, scores, times, variance per unit)`` of a shipped prior."""
    make_portfolio, read_prior, read_cost = _SHIPPED[name]
    names, estimators = zip(*make_portfolio())
    scores, times = read_prior()[1], read_cost()[1]
    return list(names), list(estimators), scores, times, _variance_per_unit(estimators, scores)


@functools.lru_cache(maxsize=None)
def _table_prior(name):
    """``(mean, cov)`` of a shipped prior's columns (:func:`prior_from_scores`)."""
    return prior_from_scores(_table(name)[2])


def _variance_per_unit(estimators, scores):
    """The median over pairs of columns of one class of half their mean squared score
    difference over their distance (:func:`_distance`).

    With fewer than `_MIN_PAIRS` such pairs (the regression prior has one, ridge
    with and without a scaler, which score alike), the tenth percentile over
    every pair of columns, each pair one unit apart: a unit is as far as the
    closest distinct learners are from each other (on the default prior, which
    has pairs enough, that percentile is 0.0018, its pairs of one class 0.0032).
    """
    families = [learner_family(e) for e in estimators]
    pairs = [(i, j) for i in range(len(families)) for j in range(i + 1, len(families))]
    ratios = [np.nanmean((scores[:, i] - scores[:, j]) ** 2) / 2
              / max(_distance(_learner(estimators[i]), _learner(estimators[j])), 0.1)
              for i, j in pairs if families[i] == families[j]]
    if len(ratios) < _MIN_PAIRS:
        return float(np.quantile([np.nanmean((scores[:, i] - scores[:, j]) ** 2) / 2
                                  for i, j in pairs], 0.1))
    return float(np.median(ratios))


def _matches(estimators, name):
    """``(column names or None, matches, distances)`` of the estimators against the shipped
    prior `name`."""
    names, shipped, _, _, _ = _table(name)
    columns, match, distances = [], [], []
    for estimator in estimators:
        learner, family = _learner(estimator), learner_family(estimator)
        for related in (family, *_RELATED.get(family, ())):
            same = [j for j, e in enumerate(shipped) if learner_family(e) == related]
            if same:
                break
        if not same:
            columns.append(None)
            match.append("unknown")
            distances.append(np.nan)
            continue
        steps = _preprocessing(estimator)
        if related == family:
            distance, j = min((_distance(learner, _learner(shipped[j]))
                               + (steps != _preprocessing(shipped[j])), j) for j in same)
        else:
            j = same[0]
            distance = 1.0 + (steps != _preprocessing(shipped[j]))
        columns.append(names[j])
        match.append("exact" if distance == 0 else "family")
        distances.append(distance)
    return columns, match, distances


def _built(name, columns, match, distances, kernel_corr, families):
    """The :class:`KnownPrior` of the matched `columns`, `distances` from them."""
    names, _, table_scores, table_times, per_unit = _table(name)
    table_mean, table_cov = _table_prior(name)
    index = [None if c is None else names.index(c) for c in columns]
    known = np.array([i is not None for i in index])
    safe = np.array([0 if i is None else i for i in index])
    shared = float((table_cov.sum() - np.trace(table_cov))
                   / (table_cov.size - len(table_cov)))
    same_family = np.equal.outer(families, families)
    mean = np.where(known, table_mean[safe], table_mean.mean())
    cov = np.where(np.outer(known, known), table_cov[np.ix_(safe, safe)], shared)
    extra = np.where(known, per_unit * np.nan_to_num(distances), 0.0)
    cov += np.sqrt(np.outer(extra, extra)) * kernel_corr * same_family
    unknown = ~known
    unknown_var = float(np.diag(table_cov).max()) - shared
    cov += np.outer(unknown, unknown) * unknown_var * kernel_corr * same_family
    cov = _positive_definite(cov)
    geo = np.exp(np.nanmean(np.log(np.where(table_times > 0, table_times, np.nan)), axis=1))
    scores = np.where(known, table_scores[:, safe], np.nan)
    times = np.where(known, table_times[:, safe], geo[:, None])
    return KnownPrior(name, mean, cov, list(match), list(columns), scores, times)


def _positive_definite(cov):
    """`cov`, its eigenvalues raised to at least a millionth of the largest."""
    values, vectors = np.linalg.eigh((cov + cov.T) / 2)
    floor = 1e-6 * max(values.max(), 1e-12)
    if values.min() >= floor:
        return (cov + cov.T) / 2
    return (vectors * np.maximum(values, floor)) @ vectors.T
