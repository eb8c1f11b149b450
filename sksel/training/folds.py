"""Whole folds: every evaluation trains on the whole training part of every fold."""

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
