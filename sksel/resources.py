"""How a candidate gets more training: whole folds, or the ``n_samples`` resource.

A candidate at resource ``n`` is trained on the first ``n`` rows of a fixed
permutation of each training fold. The permutations are nested (a larger
subsample contains every smaller one) and, for classifiers, stratified: every
prefix holds each class in about its share of the fold, and the first rows hold
one example of every class. Validation folds are never subsampled.
"""

from itertools import islice

import numpy as np
from sklearn.utils import check_random_state


def nested_permutation(y, random_state=None, stratify=True):
    """A permutation of ``range(len(y))`` whose every prefix is a fair subsample.

    Parameters
    ----------
    y : array-like of shape (n_samples,) or (n_samples, n_outputs)
        Targets of the rows to order. The classes of a 2-D `y` (multilabel
        or multioutput) are its distinct rows.
    random_state : int, RandomState instance or None, default=None
        Seed of the order.
    stratify : bool, default=True
        Interleave the classes of `y` so that the first rows hold one row of
        every class and any longer prefix of length ``n`` holds about
        ``n * n_c / len(y)`` rows of class ``c`` (within a row on balanced or
        mildly imbalanced classes). Otherwise a plain random permutation.

    Returns
    -------
    order : ndarray of shape (n_samples,)
        Row positions, in the order they enter the subsamples.

    Examples
    --------
    >>> import numpy as np
    >>> from sksel.resources import nested_permutation
    >>> y = np.array([0] * 8 + [1] * 4)
    >>> order = nested_permutation(y, random_state=0)
    >>> [int(np.sum(y[order[:n]])) for n in (2, 3, 6, 12)]
    [1, 1, 2, 4]
    """
    rng = check_random_state(random_state)
    y = np.asarray(y)
    if not stratify:
        return rng.permutation(len(y))
    axis = 0 if y.ndim > 1 else None
    _, inverse, counts = np.unique(y, axis=axis, return_inverse=True, return_counts=True)
    inverse = inverse.ravel()
    # Rank of each row inside its class, in a random order.
    shuffled = rng.permutation(len(y))
    by_class = shuffled[np.argsort(inverse[shuffled], kind="stable")]
    rank = np.empty(len(y), dtype=float)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    rank[by_class] = np.arange(len(y)) - np.repeat(starts, counts)
    # Row k of class c enters at about position (k + 1/2) * n / n_c, ties in a
    # random order; the first row of every class goes first.
    key = (rank + 0.5) / counts[inverse]
    key[rank == 0] -= 1.0
    return np.lexsort((rng.uniform(size=len(y)), key))


class NSamplesResource:
    """Nested, stratified training subsamples of every cross-validation fold.

    Parameters
    ----------
    splits : list of (train, test) index arrays
        The cross-validation folds.
    y : array-like of shape (n_samples,) or (n_samples, n_outputs), or None
        Targets, used to stratify (None: unsupervised candidates).
    sizes : list of int
        The resource schedule: the sizes a policy may ask for, increasing.
    stratify : bool
        Whether to stratify the subsamples by `y` (classifiers); the classes
        of a 2-D `y` are its distinct rows.
    random_state : int, RandomState instance or None
        Seed of the subsample orders.
    n_folds_below_max : int, default=None
        Number of folds, the first ones, that a subsample smaller than
        :attr:`max_resources` is evaluated on; None means every fold.

    Attributes
    ----------
    max_resources : int
        Rows of the smallest training fold: the largest size every fold can give.
    """

    def __init__(self, splits, y, sizes, *, stratify, random_state=None,
                 n_folds_below_max=None):
        rng = check_random_state(random_state)
        self.splits = splits
        self.sizes = list(sizes)
        self.n_folds_below_max = n_folds_below_max
        if y is None or not stratify:
            self._orders = [train[rng.permutation(len(train))] for train, _ in splits]
        else:
            y = np.asarray(y)
            self._orders = [train[nested_permutation(y[train], rng)] for train, _ in splits]
        self.max_resources = min(len(train) for train, _ in splits)

    def level(self, n_resources):
        """Position of `n_resources` in the schedule (``iter`` in ``cv_results_``)."""
        return self.sizes.index(n_resources)

    def split(self, n_resources):
        """The folds with each training part cut to its first `n_resources` rows.

        At :attr:`max_resources` every fold keeps its whole training part, in
        its original order; below, only the first `n_folds_below_max` folds
        are returned.
        """
        if n_resources >= self.max_resources:
            return list(self.splits)
        folds = zip(self._orders, self.splits)
        return [
            (np.sort(order[:n_resources]), test)
            for order, (_, test) in islice(folds, self.n_folds_below_max)
        ]


class WholeFolds:
    """Whole cross-validation folds: the one resource of a search that trains once.

    Parameters
    ----------
    splits : list of (train, test) index arrays
        The cross-validation folds.
    """

    def __init__(self, splits):
        self.splits = splits

    def split(self, n_resources):
        """The folds, whatever `n_resources`."""
        return list(self.splits)

    def level(self, n_resources):
        """``iter`` in ``cv_results_``: always 0."""
        return 0


# Ways to continue training, in the order "auto" tries them, with the size of
# one sub-train by default.
SUBTRAIN_KINDS = {
    "xgboost": 10,        # boosting rounds, fit(..., xgb_model=booster)
    "partial_fit": 1,     # passes of partial_fit (epochs for skorch nets)
    "n_estimators": 10,   # trees or stages added with warm_start
    "max_iter": 10,       # iterations added with warm_start
}


def subtrain_kind(estimator, resource="auto"):
    """How `estimator` (or the last step of a ``Pipeline``) continues training.

    Parameters
    ----------
    estimator : estimator object
        The estimator, or a ``Pipeline`` whose last step trains incrementally.
    resource : {"auto", "xgboost", "partial_fit", "n_estimators", "max_iter"}, default="auto"
        ``"auto"`` takes the first that `estimator` supports, in this order:
        xgboost booster continuation (``fit(X, y, xgb_model=booster)``),
        ``partial_fit``, ``warm_start`` with a growing ``n_estimators``,
        ``warm_start`` with a growing ``max_iter``.

    Returns
    -------
    kind : str
        One of the names above.

    Examples
    --------
    >>> from sklearn.ensemble import RandomForestClassifier
    >>> from sklearn.linear_model import SGDClassifier
    >>> from sksel.resources import subtrain_kind
    >>> subtrain_kind(SGDClassifier()), subtrain_kind(RandomForestClassifier())
    ('partial_fit', 'n_estimators')
    """
    last = estimator.steps[-1][1] if hasattr(estimator, "steps") else estimator
    supported = [kind for kind in SUBTRAIN_KINDS if _supports(last, kind)]
    if resource == "auto" and supported:
        return supported[0]
    if resource in supported:
        return resource
    raise ValueError(
        f"{type(last).__name__} cannot continue training by resource={resource!r}: "
        f"it supports {supported or 'none of the ways'}. A sub-train needs xgboost's "
        "booster continuation, partial_fit, or warm_start with n_estimators or max_iter."
    )


def _supports(estimator, kind):
    if kind == "xgboost":
        return type(estimator).__module__.startswith("xgboost")
    if kind == "partial_fit":
        return hasattr(estimator, "partial_fit")
    params = estimator.get_params(deep=False)
    return "warm_start" in params and kind in params


def _is_skorch(estimator):
    return any(cls.__name__ == "NeuralNet" for cls in type(estimator).__mro__)


class Subtrainer:
    """One sub-train: a model's training continued by `unit` units.

    A skorch net gets ``train_split=None`` at its first sub-train (the
    search validates on its own folds) and ``unit`` epochs per sub-train;
    its inputs must be float32, as skorch expects.

    Parameters
    ----------
    kind : str
        How the model continues, from :func:`subtrain_kind`.
    unit : int
        Units in one sub-train: boosting rounds, ``partial_fit`` passes (skorch:
        epochs), trees or iterations.
    classes : ndarray or None
        Every class of the targets, for a classifier's first ``partial_fit``.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.ensemble import RandomForestClassifier
    >>> from sksel.resources import Subtrainer
    >>> X, y = load_iris(return_X_y=True)
    >>> subtrainer = Subtrainer("n_estimators", unit=5)
    >>> model = subtrainer.first(RandomForestClassifier(random_state=0), X, y)
    >>> model = subtrainer.next(model, X, y)
    >>> len(model.estimators_)
    10
    """

    def __init__(self, kind, unit, classes=None):
        self.kind = kind
        self.unit = unit
        self.classes = classes

    def first(self, estimator, X, y, **fit_params):
        """The first sub-train of an unfitted `estimator` (cloned by the caller).

        In a ``Pipeline`` the steps before the last are fitted here, once; the
        last step is sub-trained on their output, and `fit_params` go to it.
        """
        if hasattr(estimator, "steps"):
            Xt = estimator[:-1].fit_transform(X, y)
            name, last = estimator.steps[-1]
            estimator.steps[-1] = (name, self.first(last, Xt, y, **fit_params))
            return estimator
        if self.kind in ("n_estimators", "max_iter"):
            estimator.set_params(warm_start=True, **{self.kind: self.unit})
            return estimator.fit(X, y, **fit_params)
        if self.kind == "xgboost":
            estimator.set_params(n_estimators=self.unit)
            return estimator.fit(X, y, **fit_params)
        if _is_skorch(estimator):
            # The search validates on its own folds: no split of the training rows.
            estimator.set_params(train_split=None)
        return self._partial_fit(estimator, X, y, fit_params)

    def next(self, model, X, y, **fit_params):
        """`model`, fitted by earlier sub-trains, trained `unit` units more."""
        if hasattr(model, "steps"):
            name, last = model.steps[-1]
            model.steps[-1] = (name, self.next(last, model[:-1].transform(X), y, **fit_params))
            return model
        if self.kind in ("n_estimators", "max_iter"):
            grown = model.get_params()[self.kind] + self.unit
            return model.set_params(**{self.kind: grown}).fit(X, y, **fit_params)
        if self.kind == "xgboost":
            return model.fit(X, y, xgb_model=model.get_booster(), **fit_params)
        return self._partial_fit(model, X, y, fit_params)

    def _partial_fit(self, model, X, y, fit_params):
        if _is_skorch(model):
            return model.partial_fit(X, y, epochs=self.unit, **fit_params)
        if self.classes is not None:
            fit_params = {"classes": self.classes, **fit_params}
        for _ in range(self.unit):
            model.partial_fit(X, y, **fit_params)
        return model
