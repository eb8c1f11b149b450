"""A search's best score against its seconds (:class:`~sksel.BestScoreDisplay`)."""

import numpy as np

from .._compat import check_matplotlib_support
from ._common import (
    _checked_search,
    _folds_run,
    _legend_outside,
    _metric,
    _score_name,
    _start_plot,
    _used_rows,
)


class BestScoreDisplay:
    """Best mean test score so far against the seconds spent training and scoring.

    A step line, so that several searches drawn on one axes (each with its
    `name`) compare as the figures of the methods' papers do: sksel's
    searches, and scikit-learn's beside them, GridSearchCV or
    HalvingGridSearchCV drawn with the sksel search that replaces it.

    Build it with :meth:`from_search`; all parameters are stored as
    attributes.

    Parameters
    ----------
    elapsed : array-like of shape (n_evaluations,)
        Seconds spent after each evaluation.

    best_scores : array-like of shape (n_evaluations,)
        Best mean test score after each evaluation.

    name : str, default=None
        Name of the search, the line's label.

    score_name : str, default="Score"
        Label of the y-axis.

    Attributes
    ----------
    line_ : matplotlib Line2D
        The best score so far.

    ax_ : matplotlib Axes
        Axes with the line.

    figure_ : matplotlib Figure
        Figure containing the line.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sksel import BestScoreDisplay
    >>> display = BestScoreDisplay(elapsed=[0.5, 1.5, 2.0], best_scores=[0.8, 0.8, 0.9],
    ...                            name="DAUB").plot()
    >>> display.line_.get_ydata().tolist()
    [0.8, 0.8, 0.9]
    """

    def __init__(self, *, elapsed, best_scores, name=None, score_name="Score"):
        self.elapsed = elapsed
        self.best_scores = best_scores
        self.name = name
        self.score_name = score_name

    @classmethod
    def from_search(cls, search, *, name=None, ax=None, **kwargs):
        """Plot a fitted search's best score so far against its training and scoring time.

        The rows of ``all_cv_results_`` the search used (not the speculative
        ones), in order: a row's seconds are its ``mean_fit_time +
        mean_score_time`` times the folds it ran on (those whose test score
        is not NaN), summed from the first row. These are the seconds of
        training and scoring added up, not wall-clock time: parallel workers
        and the search's own overhead are not counted. The best score is the
        running maximum of ``mean_test_score`` (of the metric `refit` names
        with several), whatever resource each row had. A scikit-learn
        search's rows are those of its ``cv_results_``, in their order: every
        candidate in turn for GridSearchCV and RandomizedSearchCV (which train
        them in parallel, in that order), iteration by iteration for the
        halving searches.

        Parameters
        ----------
        search : sksel or scikit-learn search
            A fitted search: any of sksel's, or scikit-learn's
            :class:`~sklearn.model_selection.GridSearchCV`,
            :class:`~sklearn.model_selection.RandomizedSearchCV`,
            :class:`~sklearn.model_selection.HalvingGridSearchCV` or
            :class:`~sklearn.model_selection.HalvingRandomSearchCV`, so that
            a search drawn beside the one it replaces compares with it.

        name : str, default=None
            The line's label; None uses the search's class name.

        ax : matplotlib Axes, default=None
            Axes to plot on, e.g. those of another search's display; None
            creates a figure and axes.

        **kwargs : dict
            Passed to :meth:`plot`.

        Returns
        -------
        display : BestScoreDisplay
        """
        check_matplotlib_support(f"{cls.__name__}.from_search")
        record = _checked_search(search, cls)
        results = _used_rows(record, "all_cv_results_")
        seconds = (results["mean_fit_time"] + results["mean_score_time"]) * _folds_run(
            record, results)
        display = cls(
            elapsed=np.cumsum(seconds),
            best_scores=np.fmax.accumulate(results[f"mean_test_{_metric(record)}"]),
            name=type(search).__name__ if name is None else name,
            score_name=f"Best {_score_name(search).lower()} so far",
        )
        return display.plot(ax=ax, **kwargs)

    def plot(self, ax=None, *, name=None, **kwargs):
        """Plot the line.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to plot on; None creates a figure and axes.

        name : str, default=None
            The line's label; None uses `name` given at construction.

        **kwargs : dict
            Keyword arguments of ``ax.plot``.

        Returns
        -------
        display : BestScoreDisplay
        """
        ax = _start_plot(self, ax)
        label = self.name if name is None else name
        self.line_ = ax.plot(self.elapsed, self.best_scores,
                             **{"drawstyle": "steps-post", "label": label, **kwargs})[0]
        ax.set_xlabel("Training and scoring seconds, summed")
        ax.set_ylabel(self.score_name)
        if label is not None:
            _legend_outside(ax)
        return self
