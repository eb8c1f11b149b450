"""Whole folds: every evaluation fits a fresh estimator on the whole training part of every fold."""

from sklearn.base import clone

from .._compat import _fit_and_score
from .._core.trainer import Trainer


class FoldsTrainer(Trainer):
    """Whole cross-validation folds: an evaluation fits the candidate anew on each.

    The trainer of a search that trains every candidate once
    (:class:`~sksel.KDPPSearch`, :class:`~sksel.GPUCBSelector`), and the base of
    those that train on parts of the folds (:class:`~sksel.training.rows.RowsTrainer`):
    a task is scikit-learn's ``_fit_and_score`` of a clone of the candidate's
    estimator, as :class:`~sklearn.model_selection.GridSearchCV` runs it.

    Parameters
    ----------
    splits : list of (train, test) index arrays
        The cross-validation folds.
    """

    def __init__(self, splits):
        self.splits = splits

    def split(self, resource):
        """The folds, whatever `resource`."""
        return list(self.splits)

    def iter_of(self, resource):
        """``iter`` in ``cv_results_``: always 0."""
        return 0

    def task(self, job, action, fold, train, test):
        """``_fit_and_score`` of a clone of the candidate's estimator on one fold."""
        candidate, resource = action
        return (_fit_and_score, (clone(job.estimators[candidate]), job.X, job.y),
                dict(train=train, test=test, parameters=None, scorer=job.scorers,
                     fit_params=job.fit_params(candidate), score_params=job.score_params,
                     return_train_score=job.returns_train_score(resource),
                     return_n_test_samples=True, return_times=True,
                     error_score=job.error_score,
                     verbose=job.verbose if job.verbose >= 3 else 0,
                     split_progress=(fold, len(self.splits))))
