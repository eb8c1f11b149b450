"""Training rows: nested, stratified subsamples of every fold, and the trainer on them.

A candidate at resource ``n`` is trained on the first ``n`` rows of a fixed
permutation of each training fold. The permutations are nested (a larger
subsample contains every smaller one) and, for classifiers, stratified: every
prefix holds each class in about its share of the fold, and the first rows hold
one example of every class. Validation folds are never subsampled.
"""

from itertools import islice

import numpy as np
from sklearn.utils import check_random_state

from .folds import FoldsTrainer


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
    >>> from sksel.training import nested_permutation
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


class RowsTrainer(FoldsTrainer):
    """Nested, stratified training subsamples of every cross-validation fold.

    An evaluation at ``n`` fits the candidate anew on the first ``n`` rows of
    each fold's subsample order (see the module docstring), as
    :class:`~sksel.training.folds.FoldsTrainer` fits it on whole folds.

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
        super().__init__(splits)
        rng = check_random_state(random_state)
        self.sizes = list(sizes)
        self.n_folds_below_max = n_folds_below_max
        if y is None or not stratify:
            self._orders = [train[rng.permutation(len(train))] for train, _ in splits]
        else:
            y = np.asarray(y)
            self._orders = [train[nested_permutation(y[train], rng)] for train, _ in splits]
        self.max_resources = min(len(train) for train, _ in splits)

    def iter_of(self, resource):
        """Position of `resource` in the schedule (``iter`` in ``cv_results_``)."""
        return self.sizes.index(resource)

    def split(self, resource):
        """The folds with each training part cut to its first `resource` rows.

        At :attr:`max_resources` every fold keeps its whole training part, in
        its original order; below, only the first `n_folds_below_max` folds
        are returned.
        """
        if resource >= self.max_resources:
            return list(self.splits)
        folds = zip(self._orders, self.splits)
        return [
            (np.sort(order[:resource]), test)
            for order, (_, test) in islice(folds, self.n_folds_below_max)
        ]
