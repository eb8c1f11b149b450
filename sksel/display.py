"""Displays of a fitted search, following scikit-learn's Display convention.

Each display is built from a fitted search with its ``from_search`` class
method (scikit-learn's displays have ``from_estimator``; these read what a
search recorded, not an estimator's predictions), holds the plotted data as
attributes, and draws them with ``plot(ax=None, ...)``, which sets ``ax_``,
``figure_`` and the artists drawn. Matplotlib is imported only when plotting.
"""

import numbers
import re
import textwrap

import numpy as np
from sklearn.base import is_classifier, is_regressor
from sklearn.utils.validation import check_is_fitted

from ._base import DisplayInfo, _rank_by_resource
from ._compat import BaseSearchCV, check_matplotlib_support
from ._progress import CandidateNames, ShortNames
from .space import _STEP, SearchSpace, first_estimator

__all__ = [
    "AllocationDisplay",
    "BestScoreDisplay",
    "DiversityDisplay",
    "FamilyTreeDisplay",
    "PosteriorDisplay",
    "SearchCurvesDisplay",
]


class SearchCurvesDisplay:
    """Learning curves of a search: each candidate's score against its resource.

    One line per candidate through its scores at the resources it received
    (training rows per fold for :class:`~sksel.DAUBSearch`, sub-trains for
    :class:`~sksel.MutantUCBSearch`, samples or the `resource` parameter for
    scikit-learn's :class:`~sklearn.model_selection.HalvingGridSearchCV` and
    :class:`~sklearn.model_selection.HalvingRandomSearchCV`). The `top_k`
    best ranked candidates are drawn in colour and named in the legend,
    right of the axes, the selected one highlighted; the others are grey,
    one legend entry for all of them. Names too long to read (over 48
    characters) lose what the named candidates share, the estimator and the
    parameters set alike, which the legend's title gives; each keeps its id
    and the parameters that differ.
    For DAUB, a dashed line goes from the last point of every candidate that
    did not reach the full size to its projected upper bound at that size,
    the bound that decided its allocation.

    Build it with :meth:`from_search`; all parameters are stored as
    attributes.

    Parameters
    ----------
    candidate_ids : array-like of shape (n_candidates,)
        The candidates, one line each.

    resources : list of ndarray
        The resources of each candidate's points, in the order they were
        evaluated.

    scores : list of ndarray
        The mean test scores at `resources`.

    selected : int
        The selected candidate, one of `candidate_ids`.

    ranks : array-like of shape (n_candidates,), default=None
        The rank of each candidate (1 is the best), which orders the named
        ones; None ranks by the last score, the selected candidate first.

    bounds : array-like of shape (n_candidates,), default=None
        Projected score at `max_resource` of each candidate (DAUB's upper
        bounds); a candidate whose last point is at `max_resource`, or whose
        bound is not finite, has none drawn. None draws no bound.

    max_resource : float, default=None
        The resource the bounds project to; needed with `bounds`.

    resource_name : str, default="Resource"
        Label of the x-axis.

    score_name : str, default="Score"
        Label of the y-axis.

    names : list of str, default=None
        Names of the candidates, in the order of `candidate_ids`, for the
        legend; None names them ``#id``. :meth:`from_search` gives the names
        of ``cv_results_["candidate_name"]``, those ``verbose=2`` prints.

    Attributes
    ----------
    lines_ : list of matplotlib Line2D
        The learning curve of each candidate, in the order of `candidate_ids`.

    selected_line_ : matplotlib Line2D
        The highlighted line of the selected candidate (one of `lines_`).

    bound_lines_ : list of matplotlib Line2D or None
        The dashed projections to the bounds drawn, or None without `bounds`.

    ax_ : matplotlib Axes
        Axes with the curves.

    figure_ : matplotlib Figure
        Figure containing the curves.

    See Also
    --------
    AllocationDisplay : The resource each candidate was given.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn.datasets import load_digits
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sksel import DAUBSearch, SearchCurvesDisplay
    >>> X, y = load_digits(return_X_y=True)
    >>> search = DAUBSearch([GaussianNB(), DecisionTreeClassifier(random_state=0)],
    ...                     b=100, r=2, cv=3, random_state=0).fit(X, y)
    >>> display = SearchCurvesDisplay.from_search(search)
    >>> len(display.lines_)
    2
    """

    def __init__(self, *, candidate_ids, resources, scores, selected, ranks=None, bounds=None,
                 max_resource=None, resource_name="Resource", score_name="Score",
                 names=None):
        self.candidate_ids = candidate_ids
        self.resources = resources
        self.scores = scores
        self.selected = selected
        self.ranks = ranks
        self.bounds = bounds
        self.max_resource = max_resource
        self.resource_name = resource_name
        self.score_name = score_name
        self.names = names

    @classmethod
    def from_search(cls, search, *, names=None, ax=None, **kwargs):
        """Plot the learning curves a fitted search drew.

        The rows of ``all_cv_results_`` the search used (not the speculative
        ones) give the points (for a scikit-learn halving search, the rows of
        ``cv_results_``: a candidate's are those with its params in the
        iterations it reached), the ranks of ``cv_results_`` the order of the
        names (a halving search's rows ranked as sksel ranks them, those at
        larger resources first, as it selects its best in its last
        iteration). For a :class:`~sksel.DAUBSearch`, its
        ``policy_.upper_bound`` gives the bounds at ``sizes_[-1]``.

        Parameters
        ----------
        search : DAUBSearch, MutantUCBSearch, HalvingGridSearchCV or HalvingRandomSearchCV
            A fitted search that evaluated candidates at several resources.
            One that evaluated every candidate at one resource
            (:class:`~sksel.KDPPSearch`, :class:`~sksel.GPUCBSelector`,
            :class:`~sklearn.model_selection.GridSearchCV`,
            :class:`~sklearn.model_selection.RandomizedSearchCV`) has no
            curves: it is refused.

        names : list of str or callable, default=None
            Labels of the candidates: a list indexed by ``candidate_id``, or
            a callable taking a candidate's ``params`` (a dict) and returning
            its label; drawn as given. None: ``cv_results_["candidate_name"]``,
            the names ``verbose=2`` prints (``#12 SGDClassifier(alpha=0.0017)``:
            the id, the estimator, a ``Pipeline`` named by its final step, and
            the parameters that differ between candidates); a scikit-learn
            search's candidates are named by the same rule, numbered in the
            order of its ``cv_results_`` (of its first iteration for a
            halving search).

        ax : matplotlib Axes, default=None
            Axes to plot on; None creates a figure and axes.

        **kwargs : dict
            Passed to :meth:`plot`.

        Returns
        -------
        display : SearchCurvesDisplay

        Raises
        ------
        ValueError
            If the search evaluated every candidate at one resource.
        """
        check_matplotlib_support(f"{cls.__name__}.from_search")
        record = _checked_search(search, cls)
        results = _used_rows(record, "all_cv_results_")
        reason = _one_resource(search, results)
        if reason is not None:
            raise ValueError(f"{cls.__name__} draws learning curves over a resource; "
                             f"{type(search).__name__} {reason}, so that every curve would be "
                             f"one point. {_USE_BEST_SCORE}")
        ids = results["candidate_id"]
        candidate_ids = np.unique(ids)
        scores = results[f"mean_test_{_metric(record)}"]
        bounds = max_resource = None
        info = record._display_info()
        if info.bounds is not None:
            max_resource = info.full_resource
            bounds = np.array([info.bounds(c) for c in candidate_ids])
        display = cls(
            candidate_ids=candidate_ids,
            resources=[results["n_resources"][ids == c] for c in candidate_ids],
            scores=[scores[ids == c] for c in candidate_ids],
            selected=_selected(record), ranks=_ranks(record, candidate_ids), bounds=bounds,
            max_resource=max_resource, resource_name=info.resource_name,
            score_name=_score_name(search), names=_names(record, candidate_ids, names),
        )
        return display.plot(ax=ax, **kwargs)

    def plot(self, ax=None, *, top_k=10, log_scale="auto", line_kw=None, selected_kw=None,
             bound_kw=None):
        """Plot the curves.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to plot on; None creates a figure and axes.

        top_k : int, default=10
            The best ranked candidates drawn in colour and named, the
            selected one included; the others are drawn in grey under one
            legend entry. Beyond ten, colours repeat.

        log_scale : "auto" or bool, default="auto"
            Log scale on the resource axis; ``"auto"`` puts it on a log scale
            when the resources span more than two decades (DAUB's sizes).

        line_kw : dict, default=None
            Keyword arguments of ``ax.plot`` for every curve.

        selected_kw : dict, default=None
            Keyword arguments of ``ax.plot`` for the selected curve, over
            `line_kw`.

        bound_kw : dict, default=None
            Keyword arguments of ``ax.plot`` for the dashed bounds.

        Returns
        -------
        display : SearchCurvesDisplay
        """
        ax = _start_plot(self, ax, _NAMED_FIGSIZE)
        line_kw = {"marker": "o", "markersize": 4, "linewidth": 1.5, **(line_kw or {})}
        other_kw = {**line_kw, "color": "tab:gray", "alpha": 0.5, "linewidth": 1, "zorder": 1}
        selected_kw = {**line_kw, "color": "tab:red", "linewidth": 2.5, "zorder": 3,
                       **(selected_kw or {})}
        ids = list(self.candidate_ids)
        named = _top_k(self._order(), top_k)
        runners_up = [c for c in named if c != self.selected]
        styles = {c: {**line_kw, "color": colour, "zorder": 2}
                  for c, colour in zip(runners_up, _colours(len(runners_up)))}
        styles[self.selected] = selected_kw
        self.lines_ = [
            ax.plot(x, y, **styles.get(c, other_kw))[0]
            for c, x, y in zip(ids, self.resources, self.scores)
        ]
        self.selected_line_ = self.lines_[ids.index(self.selected)]
        header, labels = _shortened([_name(self.names, ids, c) for c in named])
        for c, label in zip(named, labels):
            self.lines_[ids.index(c)].set_label(
                f"selected: {label}" if c == self.selected else label)
        others = [line for c, line in zip(ids, self.lines_) if c not in named]
        if others:
            others[0].set_label(f"{len(others)} others")
        self.bound_lines_ = None if self.bounds is None else self._plot_bounds(ax, bound_kw)
        from matplotlib.ticker import MaxNLocator

        resources = np.concatenate([np.asarray(x, dtype=float) for x in self.resources])
        if log_scale is True or log_scale == "auto" and _spans_decades(resources):
            ax.set_xscale("log")
        elif np.all(resources == np.round(resources)):
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(self.resource_name)
        ax.set_ylabel(self.score_name)
        handles = [self.lines_[ids.index(c)] for c in named] + others[:1] + (
            self.bound_lines_ or [])[:1]
        _legend_outside(ax, handles=handles, title=_wrapped_header(header),
                        alignment="left")
        return self

    def _order(self):
        """`candidate_ids` by rank, or by last score: the selected one first."""
        ids = list(self.candidate_ids)
        if self.ranks is not None:
            key = dict(zip(ids, self.ranks)).get
        else:
            last = {c: -np.nan_to_num(y[-1], nan=-np.inf) for c, y in zip(ids, self.scores)}
            key = last.get
        return sorted(ids, key=lambda c: (c != self.selected, key(c)))

    def _plot_bounds(self, ax, bound_kw):
        """The dashed line from each curve's last point to its bound at `max_resource`."""
        bound_kw = {"linestyle": "--", "color": "tab:blue", "alpha": 0.6, **(bound_kw or {})}
        lines = []
        for x, y, bound in zip(self.resources, self.scores, self.bounds):
            if x[-1] < self.max_resource and np.isfinite(bound):
                label = "projected bound" if not lines else None
                lines += ax.plot([x[-1], self.max_resource], [y[-1], bound], label=label,
                                 **bound_kw)
        return lines


class AllocationDisplay:
    """Resource spent per candidate, sorted, against GridSearchCV's spending.

    A horizontal bar per candidate, named on its left, highest on top: the
    resource it was trained on, summed over its evaluations and the folds
    each ran on (training rows for :class:`~sksel.DAUBSearch`, sub-trains
    for :class:`~sksel.MutantUCBSearch`, which continue a model: each
    sub-train counts once; samples or the `resource` parameter for
    scikit-learn's halving searches). The `top_k` highest get a bar each;
    the others share one grey bar, at their mean. Names too long to read
    lose what the named candidates share, which the y-axis label gives (as
    :class:`SearchCurvesDisplay`'s legend does). A dashed line marks what
    :class:`~sklearn.model_selection.GridSearchCV` spends on every candidate:
    the full resource on every fold; the title says so, and gives the total
    as a share of GridSearchCV's.

    Build it with :meth:`from_search`; all parameters are stored as
    attributes.

    Parameters
    ----------
    candidate_ids : array-like of shape (n_candidates,)
        The candidates.

    spent : array-like of shape (n_candidates,)
        The resource spent on each candidate.

    grid_spent : float
        GridSearchCV's spending on one candidate.

    n_grid_candidates : int
        The candidates GridSearchCV would train, for the total in the title.

    resource_name : str, default="Resource"
        The resource, for the label of the x-axis.

    names : list of str, default=None
        Names of the candidates, in the order of `candidate_ids`, left of
        the bars; None names them ``#id``. :meth:`from_search` gives the
        names of ``cv_results_["candidate_name"]``, those ``verbose=2``
        prints.

    Attributes
    ----------
    bars_ : matplotlib BarContainer
        The bars, highest first; with more than `top_k` candidates, the last
        is the others' mean.

    grid_line_ : matplotlib Line2D
        GridSearchCV's spending on one candidate.

    ax_ : matplotlib Axes
        Axes with the bars.

    figure_ : matplotlib Figure
        Figure containing the bars.

    See Also
    --------
    SearchCurvesDisplay : Where the resource went, point by point.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sksel import AllocationDisplay
    >>> display = AllocationDisplay(candidate_ids=[0, 1, 2], spent=[300, 1200, 600],
    ...                             grid_spent=1200, n_grid_candidates=3).plot()
    >>> [float(bar.get_width()) for bar in display.bars_]
    [1200.0, 600.0, 300.0]
    """

    def __init__(self, *, candidate_ids, spent, grid_spent, n_grid_candidates,
                 resource_name="Resource", names=None):
        self.candidate_ids = candidate_ids
        self.spent = spent
        self.grid_spent = grid_spent
        self.n_grid_candidates = n_grid_candidates
        self.resource_name = resource_name
        self.names = names

    @classmethod
    def from_search(cls, search, *, names=None, ax=None, **kwargs):
        """Plot the resource a fitted search spent per candidate.

        Every row of ``all_cv_results_``, speculative ones included, costs
        its ``n_resources`` (for a :class:`~sksel.MutantUCBSearch`, the
        sub-trains added since the model's previous row) times the folds it
        ran on, those whose test score is not NaN; a scikit-learn halving
        search's rows are those of its ``cv_results_``, each trained anew.
        GridSearchCV spends the largest resource (``sizes_[-1]`` for DAUB,
        ``max_subtrains`` for Mutant-UCB, ``max_resources_`` for a halving
        search, ``n_resources`` otherwise) on all ``n_splits_`` folds of
        every candidate (every one of ``candidates_`` for a
        :class:`~sksel.GPUCBSelector`).

        Parameters
        ----------
        search : DAUBSearch, MutantUCBSearch, GPUCBSelector or a halving search
            A fitted search that spent its resource unevenly (scikit-learn's
            :class:`~sklearn.model_selection.HalvingGridSearchCV` and
            :class:`~sklearn.model_selection.HalvingRandomSearchCV` too). One that gave
            every candidate GridSearchCV's share, the full resource on every
            fold (:class:`~sksel.KDPPSearch`,
            :class:`~sklearn.model_selection.GridSearchCV`,
            :class:`~sklearn.model_selection.RandomizedSearchCV`), would
            draw every bar on GridSearchCV's line: it is refused.

        names : list of str or callable, default=None
            Labels of the candidates: a list indexed by ``candidate_id``, or
            a callable taking a candidate's ``params`` (a dict) and returning
            its label; drawn as given. None: ``cv_results_["candidate_name"]``,
            the names ``verbose=2`` prints (``#12 SGDClassifier(alpha=0.0017)``:
            the id, the estimator, a ``Pipeline`` named by its final step, and
            the parameters that differ between candidates); a scikit-learn
            search's candidates are named by the same rule, numbered in the
            order of its ``cv_results_`` (of its first iteration for a
            halving search).

        ax : matplotlib Axes, default=None
            Axes to plot on; None creates a figure and axes.

        **kwargs : dict
            Passed to :meth:`plot`.

        Returns
        -------
        display : AllocationDisplay

        Raises
        ------
        ValueError
            If every candidate of the search had GridSearchCV's share.
        """
        check_matplotlib_support(f"{cls.__name__}.from_search")
        record = _checked_search(search, cls)
        results = record.all_cv_results_
        reason = _one_resource(search, results)
        if reason is not None and "n_resources" not in results:
            raise ValueError(_allocation_like_grid(cls, search, reason))
        ids = results["candidate_id"]
        cost = _resource_added(record, results) * _folds_run(record, results)
        candidate_ids = np.unique(ids)
        info = record._display_info()
        display = cls(
            candidate_ids=candidate_ids,
            spent=np.array([cost[ids == c].sum() for c in candidate_ids]),
            grid_spent=info.full_resource * record.n_splits_,
            n_grid_candidates=len(getattr(record, "candidates_", candidate_ids)),
            resource_name=info.resource_name,
            names=_names(record, candidate_ids, names),
        )
        if reason is not None and display.n_grid_candidates == len(candidate_ids) and np.all(
                display.spent == display.grid_spent):
            raise ValueError(_allocation_like_grid(cls, search, reason))
        return display.plot(ax=ax, **kwargs)

    def plot(self, ax=None, *, top_k=20, bar_kw=None, grid_kw=None):
        """Plot the bars.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to plot on; None creates a figure and axes.

        top_k : int, default=20
            The candidates that spent most, a named bar each; the others
            share one grey bar, at their mean.

        bar_kw : dict, default=None
            Keyword arguments of ``ax.barh``.

        grid_kw : dict, default=None
            Keyword arguments of ``ax.axvline`` for GridSearchCV's spending.

        Returns
        -------
        display : AllocationDisplay
        """
        ax = _start_plot(self, ax, _NAMED_FIGSIZE)
        spent = np.asarray(self.spent, dtype=float)
        order = np.argsort(-spent, kind="stable")
        shown = _top_k(order, top_k)
        rest = order[len(shown):]
        widths = list(spent[shown]) + ([spent[rest].mean()] if len(rest) else [])
        header, labels = _shortened(
            [_name(self.names, self.candidate_ids, self.candidate_ids[i]) for i in shown])
        labels += [f"{len(rest)} others, mean"] if len(rest) else []
        colours = ["tab:blue"] * len(shown) + ["tab:gray"] * bool(len(rest))
        positions = np.arange(len(widths))
        self.bars_ = ax.barh(positions, widths, **{"color": colours, **(bar_kw or {})})
        self.grid_line_ = ax.axvline(
            self.grid_spent,
            **{"linestyle": "--", "color": "black", "label": "GridSearchCV, per candidate",
               **(grid_kw or {})},
        )
        ax.set_yticks(positions, labels, fontsize="small")
        ax.set_ylim(len(widths) - 0.5, -0.5)  # the highest on top
        ax.set_ylabel(_wrapped_header(header and f"Candidate: {header}") or "Candidate")
        ax.set_xlabel(f"{self.resource_name.split(' per fold')[0]}, summed over folds")
        grid_total = self.grid_spent * self.n_grid_candidates
        ax.set_title(f"Total {spent.sum():g}: {spent.sum() / grid_total:.0%} of "
                     f"GridSearchCV's {grid_total:g}\n(dashed: GridSearchCV's "
                     f"{self.grid_spent:g} per candidate)", fontsize="medium")
        return self


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


class PosteriorDisplay:
    """GP-UCB's prior and posterior mean ± one standard deviation per candidate.

    A row per candidate, named on its left, the highest posterior mean on
    top: the prior just above the row, the posterior just below, a star at
    the score of an evaluated candidate. The `top_k` highest posterior means
    are drawn; the y-axis label says how many others are not, and what the
    names share where they are too long to read (as
    :class:`SearchCurvesDisplay`'s legend does).

    Build it with :meth:`from_search`; all parameters are stored as
    attributes.

    Parameters
    ----------
    prior_mean, prior_std : array-like of shape (n_candidates,)
        The prior of every candidate.

    posterior_mean, posterior_std : array-like of shape (n_candidates,)
        The posterior of every candidate after the evaluations.

    evaluated : array-like of shape (n_evaluated,)
        The candidates evaluated.

    scores : array-like of shape (n_evaluated,)
        Their mean test scores.

    score_name : str, default="Score"
        Label of the x-axis.

    names : list of str, default=None
        Names of the candidates, in the order of `prior_mean` (by
        ``candidate_id``), left of the rows; None names them ``#id``.
        :meth:`from_search` gives the names of
        ``cv_results_["candidate_name"]``, by the same rule for those not
        evaluated.

    Attributes
    ----------
    candidate_ids_ : ndarray
        The candidates drawn, top row first.

    prior_errorbar_ : matplotlib ErrorbarContainer
        The prior, drawn just above each candidate's row.

    posterior_errorbar_ : matplotlib ErrorbarContainer
        The posterior, drawn just below each candidate's row.

    evaluated_ : matplotlib PathCollection
        The scores of the evaluated candidates drawn, on their rows.

    ax_ : matplotlib Axes
        Axes with the posterior.

    figure_ : matplotlib Figure
        Figure containing the posterior.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sksel import PosteriorDisplay
    >>> display = PosteriorDisplay(
    ...     prior_mean=[0.8, 0.8], prior_std=[0.1, 0.1], posterior_mean=[0.9, 0.85],
    ...     posterior_std=[0.01, 0.05], evaluated=[0], scores=[0.9]).plot()
    >>> display.evaluated_.get_offsets().tolist()
    [[0.9, 0.0]]
    """

    def __init__(self, *, prior_mean, prior_std, posterior_mean, posterior_std, evaluated,
                 scores, score_name="Score", names=None):
        self.prior_mean = prior_mean
        self.prior_std = prior_std
        self.posterior_mean = posterior_mean
        self.posterior_std = posterior_std
        self.evaluated = evaluated
        self.scores = scores
        self.score_name = score_name
        self.names = names

    @classmethod
    def from_search(cls, search, *, names=None, ax=None, **kwargs):
        """Plot a fitted :class:`~sksel.GPUCBSelector`'s prior and posterior.

        The prior is ``policy_.prior()`` (with ``prior="kernel"``, fitted to
        the scores observed), the posterior ``posterior_mean_`` and
        ``posterior_std_``, the evaluated candidates and scores those of
        ``cv_results_``.

        Parameters
        ----------
        search : GPUCBSelector
            A fitted selector; another search, sksel's or scikit-learn's, has
            no posterior: it is refused with a TypeError.

        names : list of str or callable, default=None
            Labels of the candidates: a list indexed by ``candidate_id``, or
            a callable taking a candidate's ``params`` (a dict) and returning
            its label; drawn as given. None: ``cv_results_["candidate_name"]``,
            the names ``verbose=2`` prints (``#12 SGDClassifier(alpha=0.0017)``:
            the id, the estimator, a ``Pipeline`` named by its final step, and
            the parameters that differ between candidates); a scikit-learn
            search's candidates are named by the same rule, numbered in the
            order of its ``cv_results_`` (of its first iteration for a
            halving search).

        ax : matplotlib Axes, default=None
            Axes to plot on; None creates a figure and axes.

        **kwargs : dict
            Passed to :meth:`plot`.

        Returns
        -------
        display : PosteriorDisplay
        """
        check_matplotlib_support(f"{cls.__name__}.from_search")
        results = _checked_search(search, cls, attribute="posterior_mean_",
                                  draws=_DRAWS_POSTERIOR).cv_results_
        prior_mean, prior_std = search.policy_.prior()
        display = cls(
            prior_mean=prior_mean, prior_std=prior_std,
            posterior_mean=search.posterior_mean_, posterior_std=search.posterior_std_,
            evaluated=results["candidate_id"], scores=results[f"mean_test_{_metric(search)}"],
            score_name=_score_name(search),
            names=_names(search, np.arange(len(prior_mean)), names),
        )
        return display.plot(ax=ax, **kwargs)

    def plot(self, ax=None, *, top_k=20, offset=0.15):
        """Plot the prior, the posterior and the evaluated scores.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to plot on; None creates a figure and axes.

        top_k : int, default=20
            The candidates of highest posterior mean drawn.

        offset : float, default=0.15
            Vertical shift of the prior (up) and posterior (down) from each
            candidate's row.

        Returns
        -------
        display : PosteriorDisplay
        """
        ax = _start_plot(self, ax, _NAMED_FIGSIZE)
        posterior_mean = np.asarray(self.posterior_mean, dtype=float)
        shown = np.array(_top_k(np.argsort(-posterior_mean, kind="stable"), top_k))
        self.candidate_ids_ = shown
        rows = np.arange(len(shown))
        self.prior_errorbar_ = ax.errorbar(
            np.asarray(self.prior_mean)[shown], rows - offset,
            xerr=np.asarray(self.prior_std)[shown], fmt="o", color="tab:gray", label="prior")
        self.posterior_errorbar_ = ax.errorbar(
            posterior_mean[shown], rows + offset, xerr=np.asarray(self.posterior_std)[shown],
            fmt="o", color="tab:blue", label="posterior")
        row_of = {c: r for r, c in enumerate(shown)}
        evaluated = [(score, row_of[c]) for c, score in zip(self.evaluated, self.scores)
                     if c in row_of]
        self.evaluated_ = ax.scatter(*np.reshape(evaluated, (-1, 2)).T, marker="*", s=120,
                                     color="tab:red", zorder=3, label="evaluated")
        ids = range(len(posterior_mean))
        header, labels = _shortened([_name(self.names, ids, c) for c in shown])
        ax.set_yticks(rows, labels, fontsize="small")
        ax.set_ylim(len(rows) - 0.5, -0.5)  # the highest posterior mean on top
        hidden = len(posterior_mean) - len(shown)
        ax.set_ylabel("Candidate, by posterior mean" + (
            f" ({hidden} lower not shown)" if hidden else "") + (
            f"\n{_wrapped_header(header)}" if header else ""))
        ax.set_xlabel(self.score_name)
        _legend_outside(ax)
        return self


class DiversityDisplay:
    """A k-DPP's configurations in two parameters against a uniform draw as large.

    Build it with :meth:`from_search`; all parameters are stored as
    attributes.

    Parameters
    ----------
    drawn : array-like of shape (n_drawn, 2)
        The two parameters of the configurations drawn by the k-DPP.

    uniform : array-like of shape (n_uniform, 2)
        The same of configurations drawn independently.

    x_name, y_name : str
        The two parameters.

    Attributes
    ----------
    drawn_ : matplotlib PathCollection
        The k-DPP's configurations.

    uniform_ : matplotlib PathCollection
        The independent ones.

    ax_ : matplotlib Axes
        Axes with the configurations.

    figure_ : matplotlib Figure
        Figure containing the configurations.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sksel import DiversityDisplay
    >>> display = DiversityDisplay(drawn=[[1, 1], [9, 9]], uniform=[[4, 5], [5, 4]],
    ...                            x_name="a", y_name="b").plot()
    >>> display.drawn_.get_offsets().tolist()
    [[1.0, 1.0], [9.0, 9.0]]
    """

    def __init__(self, *, drawn, uniform, x_name, y_name):
        self.drawn = drawn
        self.uniform = uniform
        self.x_name = x_name
        self.y_name = y_name

    @classmethod
    def from_search(cls, search, x_name, y_name, *, random_state=None, ax=None, **kwargs):
        """Plot a fitted :class:`~sksel.KDPPSearch`'s configurations in two parameters.

        The drawn configurations are those of ``cv_results_["params"]``; the
        uniform ones as many independent draws from the same
        `param_distributions` (:meth:`sksel.space.SearchSpace.sample`).
        Configurations without one of the two parameters (another branch of
        a tree-structured space) are left out. The values must be numbers.

        Parameters
        ----------
        search : KDPPSearch
            A fitted search; another search, sksel's or scikit-learn's, did
            not draw its configurations from a k-DPP: it is refused with a
            TypeError.

        x_name, y_name : str
            Two parameters of the search's `param_distributions`.

        random_state : int, RandomState instance or None, default=None
            Seed of the uniform draw.

        ax : matplotlib Axes, default=None
            Axes to plot on; None creates a figure and axes.

        **kwargs : dict
            Passed to :meth:`plot`.

        Returns
        -------
        display : DiversityDisplay
        """
        check_matplotlib_support(f"{cls.__name__}.from_search")
        drawn = _checked_search(search, cls, attribute="param_distributions",
                                draws=_DRAWS_DIVERSITY).cv_results_["params"]
        if "parent_id" in search.cv_results_:
            raise TypeError(f"{cls.__name__} draws {_DRAWS_DIVERSITY}; "
                            f"{type(search).__name__} breeds its configurations from "
                            "parents, it does not draw them together.")
        names = _param_names(search.param_distributions)
        for arg, name in (("x_name", x_name), ("y_name", y_name)):
            if name not in names:
                raise ValueError(f"{arg}={name!r} is not a parameter of the search's "
                                 f"param_distributions: {sorted(names)}.")
        uniform = SearchSpace(param_distributions=search.param_distributions).sample(
            len(drawn), random_state=random_state)
        display = cls(drawn=_two_params(drawn, x_name, y_name),
                      uniform=_two_params(uniform, x_name, y_name),
                      x_name=x_name, y_name=y_name)
        return display.plot(ax=ax, **kwargs)

    def plot(self, ax=None, *, log_scale="auto"):
        """Plot the two sets of configurations.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to plot on; None creates a figure and axes.

        log_scale : "auto" or bool, default="auto"
            Log scale on both axes; ``"auto"`` puts an axis on a log scale
            when its values are positive and span more than two decades.

        Returns
        -------
        display : DiversityDisplay
        """
        ax = _start_plot(self, ax)
        drawn = np.asarray(self.drawn, dtype=float).reshape(-1, 2)
        uniform = np.asarray(self.uniform, dtype=float).reshape(-1, 2)
        self.uniform_ = ax.scatter(uniform[:, 0], uniform[:, 1], marker="x",
                                   color="tab:gray", label="uniform draw")
        self.drawn_ = ax.scatter(drawn[:, 0], drawn[:, 1], color="tab:red", label="k-DPP")
        both = np.vstack([drawn, uniform])
        for set_scale, values in zip((ax.set_xscale, ax.set_yscale), both.T):
            if log_scale is True or log_scale == "auto" and _spans_decades(values):
                set_scale("log")
        ax.set_xlabel(self.x_name)
        ax.set_ylabel(self.y_name)
        _legend_outside(ax)
        return self


class FamilyTreeDisplay:
    """Mutant-UCB's lineage of one model: its ancestors, their mutations and scores.

    A node per model, from the first ancestor (an initial model) to the
    model, at its generation (x) and its score (y), labelled with its id (or
    name), score and the parameters its mutation changed (named by their
    last ``__`` component: ``alpha`` for ``sgdclassifier__alpha``); an arrow
    goes from each parent to its mutant. The title names the model.

    Build it with :meth:`from_search`; all parameters are stored as
    attributes.

    Parameters
    ----------
    lineage : array-like of shape (n_generations,)
        The models, first ancestor first.

    scores : array-like of shape (n_generations,)
        Their mean test scores at their last sub-train.

    changes : list of dict
        The parameters each model's mutation set (empty for the first).

    score_name : str, default="Score"
        Label of the y-axis.

    names : list of str, default=None
        Labels of the models of `lineage`, first ancestor first; None labels
        them ``#id``.

    model_name : str, default=None
        Name of the last model of `lineage`, for the title; None: its
        ``#id``.

    Attributes
    ----------
    nodes_ : matplotlib Line2D
        The models, at ``(generation, score)``.

    edges_ : list of matplotlib Annotation
        The arrows from each parent to its mutant.

    labels_ : list of matplotlib Text
        The label of each model.

    ax_ : matplotlib Axes
        Axes with the tree.

    figure_ : matplotlib Figure
        Figure containing the tree.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sksel import FamilyTreeDisplay
    >>> display = FamilyTreeDisplay(lineage=[2, 7], scores=[0.8, 0.9],
    ...                             changes=[{}, {"alpha": 0.01}]).plot()
    >>> display.nodes_.get_ydata().tolist(), len(display.edges_)
    ([0.8, 0.9], 1)
    """

    def __init__(self, *, lineage, scores, changes, score_name="Score", names=None,
                 model_name=None):
        self.lineage = lineage
        self.scores = scores
        self.changes = changes
        self.score_name = score_name
        self.names = names
        self.model_name = model_name

    @classmethod
    def from_search(cls, search, *, candidate=None, names=None, ax=None, **kwargs):
        """Plot the lineage of a model of a fitted :class:`~sksel.MutantUCBSearch`.

        Ancestors follow ``cv_results_["parent_id"]``; each model's score is
        its ``mean_test_score`` in ``cv_results_`` and its changes the
        parameters of ``cv_results_["params"]`` that differ from its
        parent's.

        Parameters
        ----------
        search : MutantUCBSearch
            A fitted search; another search, sksel's or scikit-learn's, has
            no lineage: it is refused with a TypeError.

        candidate : int, default=None
            The model (a ``candidate_id``); None is the selected one.

        names : list of str or callable, default=None
            Labels of the models: a list indexed by ``candidate_id``, or a
            callable taking a model's ``params`` (a dict) and returning its
            label; drawn as given, on the nodes and in the title. None: the
            nodes are labelled ``#id`` and the title gives the model's
            ``cv_results_["candidate_name"]``, the name ``verbose=2`` prints
            (``#12 (from #3) SGDClassifier(alpha=0.0017)``).

        ax : matplotlib Axes, default=None
            Axes to plot on; None creates a figure and axes.

        **kwargs : dict
            Passed to :meth:`plot`.

        Returns
        -------
        display : FamilyTreeDisplay
        """
        check_matplotlib_support(f"{cls.__name__}.from_search")
        results = _checked_search(search, cls, column="parent_id",
                                  draws=_DRAWS_LINEAGE).cv_results_
        row_of = {int(c): i for i, c in enumerate(results["candidate_id"])}
        candidate = _selected(search) if candidate is None else candidate
        if not isinstance(candidate, numbers.Integral) or candidate not in row_of:
            raise ValueError(f"candidate={candidate!r} is not a candidate_id of the "
                             f"search's cv_results_.")
        rows = _ancestry(results["parent_id"], row_of, candidate)
        params = [_configuration(search, results["params"][i]) for i in rows]
        display = cls(
            lineage=results["candidate_id"][rows],
            scores=results[f"mean_test_{_metric(search)}"][rows],
            changes=[{}] + [_changed(parent, child) for parent, child in zip(params, params[1:])],
            score_name=_score_name(search),
            names=None if names is None else _names(search, results["candidate_id"][rows], names),
            model_name=_names(search, [candidate], names)[0],
        )
        return display.plot(ax=ax, **kwargs)

    def plot(self, ax=None):
        """Plot the lineage.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to plot on; None creates a figure and axes.

        Returns
        -------
        display : FamilyTreeDisplay

        Notes
        -----
        A figure made here is wide enough for the labels of neighbouring
        generations to stand apart (matplotlib's default width, or more for
        a long lineage), and the title is broken into lines that fit it; on
        given axes, the labels take the room the axes give.
        """
        check_matplotlib_support(f"{type(self).__name__}.plot")  # before measuring the labels
        texts = [_node_label(_name(self.names, self.lineage, model), score, change)
                 for model, score, change in zip(self.lineage, self.scores, self.changes)]
        ax = _start_plot(self, ax, None if ax is not None else _tree_figsize(texts))
        generations = np.arange(len(self.lineage))
        self.nodes_ = ax.plot(generations, self.scores, "o", markersize=10, color="tab:blue",
                              linestyle="none")[0]
        self.edges_ = [
            ax.annotate("", xy=(g + 1, child), xytext=(g, parent),
                        arrowprops={"arrowstyle": "->", "color": "tab:gray"})
            for g, (parent, child) in enumerate(zip(self.scores, self.scores[1:]))
        ]
        self.labels_ = [
            ax.annotate(text, (g, score), textcoords="offset points", xytext=(0, 10),
                        ha="center", fontsize=_TREE_FONTSIZE)
            for g, (text, score) in enumerate(zip(texts, self.scores))
        ]
        model = self.model_name or _name(None, self.lineage, self.lineage[-1])
        # the width of the axes before the layout, less than the title may take
        width = ax.get_position().width * ax.figure.get_figwidth() * 72
        ax.set_title(_wrapped(f"Lineage of {model}", width, "medium"), fontsize="medium")
        ax.set_xticks(generations)
        ax.set_xlim(-0.5, len(generations) - 0.5)
        # room above the top node for its label, which is in points, not data
        ax.margins(y=0.3)
        ax.set_xlabel("Generation")
        ax.set_ylabel(self.score_name)
        return self


# ---------------------------------------------------------------- helpers
def _start_plot(display, ax, figsize=None):
    """The axes to plot `display` on, set as its ``ax_`` with its ``figure_``.

    A figure made here has constrained layout, which keeps the labels and a
    legend outside the axes in the figure, and `figsize` (None:
    matplotlib's default); the displays that name candidates ask for
    `_NAMED_FIGSIZE`, wider, for the names.
    """
    check_matplotlib_support(f"{type(display).__name__}.plot")
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=figsize, layout="constrained")
    display.ax_, display.figure_ = ax, ax.figure
    return ax


_NAMED_FIGSIZE = (9.6, 4.8)


def _legend_outside(ax, **kwargs):
    """The legend of `ax`, right of its axes, so that it covers no data."""
    return ax.legend(**{"loc": "upper left", "bbox_to_anchor": (1.02, 1), "borderaxespad": 0,
                        "fontsize": "small", **kwargs})


def _names(search, candidate_ids, names):
    """Labels of `candidate_ids`: from `names` (a list or a callable), or the results' names.

    `names` is checked here, for every display: a list (or tuple, or array)
    needs an entry for every ``candidate_id``; anything else must be callable.
    """
    if names is None:
        default = _candidate_names(search)
        return [default[int(c)] for c in candidate_ids]
    if callable(names):
        params = _params_by_id(search)
        return [str(names(params[int(c)])) for c in candidate_ids]
    if not isinstance(names, (list, tuple, np.ndarray)):
        raise TypeError(f"names must be a list of labels indexed by candidate_id, or a "
                        f"callable of a candidate's params; got {type(names).__name__}.")
    n_candidates = max(_candidate_names(search)) + 1
    if len(names) < n_candidates:
        raise ValueError(f"names has {len(names)} labels; the search has {n_candidates} "
                         f"candidates (candidate_id 0 to {n_candidates - 1}), one label each.")
    return [str(names[int(c)]) for c in candidate_ids]


def _candidate_names(search):
    """``candidate_id -> name``: the ``candidate_name`` column of the results, whole.

    A search with ``candidates_`` (:class:`~sksel.GPUCBSelector`) has
    candidates it never evaluated; every one of them is named by the same
    rule (:class:`~sksel._progress.CandidateNames`).
    """
    results = search.all_cv_results_
    names = {int(c): str(n) for c, n in zip(results["candidate_id"], results["candidate_name"])}
    candidates = getattr(search, "candidates_", None)
    if candidates is not None:
        rule = CandidateNames(ShortNames(candidates, first_estimator(search.estimator)))
        names = {c: rule(c) for c in range(len(candidates))} | names
    return names


def _arguments(text):
    """`text` (``alpha=0.01, sizes=(64, 32)``) split at the commas outside brackets and quotes."""
    arguments, depth, quote, start = [], 0, None, 0
    for i, char in enumerate(text):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            arguments.append(text[start:i])
            start = i + 2 if text[i + 1:i + 2] == " " else i + 1
    return arguments + [text[start:]]


_LABEL_WIDTH = 48
_NAME = re.compile(r"(#\d+(?: \(from #\d+\))?) (\w+)(?:\((.*)\))?")


def _shortened(labels):
    """`labels` without what they all share, and that, when one is too long to read.

    Labels of at most 48 characters stay as they are, and so do labels that
    do not all read as names of one estimator's candidates, as the results
    name them (``#12 (from #3) MLPClassifier(alpha=0.01, ...)``; names given
    by ``names=`` are drawn as given). Longer ones lose the estimator and
    the parameters they all set alike, given back as the header
    (``MLPClassifier(hidden_layer_sizes=(32,))``); when they still are too
    long, and set the same parameters, the header names those and each
    label keeps its values, in that order.

    Returns
    -------
    header : str or None
        What the labels share, for a legend's title or an axis label; None
        when they are kept as they are.

    labels : list of str
        The labels to draw.
    """
    parts = [_name_parts(label) for label in labels]
    if (max(map(len, labels), default=0) <= _LABEL_WIDTH or None in parts
            or len({estimator for _, estimator, _ in parts}) != 1):
        return None, list(labels)
    heads, (estimator, *_), arguments = zip(*parts)
    shared = [a for a in arguments[0] if all(a in other for other in arguments[1:])]
    own = [[a for a in these if a not in shared] for these in arguments]
    header = estimator + (f"({', '.join(shared)})" if shared else "")
    short = [" ".join([head, ", ".join(these)]).strip() for head, these in zip(heads, own)]
    keys = {tuple(a.split("=", 1)[0] for a in these) for these in own}
    if max(map(len, short)) > _LABEL_WIDTH and len(keys) == 1:
        header += ": " + ", ".join(keys.pop())
        short = [" ".join([head, ", ".join(a.split("=", 1)[-1] for a in these)])
                 for head, these in zip(heads, own)]
    return header, short


def _name_parts(label):
    """``(head, estimator, arguments)`` of a candidate's name, or None for another label."""
    match = _NAME.fullmatch(label)
    if match is None:
        return None
    head, estimator, arguments = match.groups()
    return head, estimator, _arguments(arguments) if arguments else []


def _wrapped_header(header):
    """`header` (of :func:`_shortened`) on lines of at most 48 characters; None stays None."""
    return header and textwrap.fill(header, _LABEL_WIDTH, break_long_words=False)


def _name(names, candidate_ids, candidate):
    """The label of `candidate`: its entry of `names` (by `candidate_ids`), or ``#id``."""
    if names is None:
        return f"#{candidate}"
    return names[list(candidate_ids).index(candidate)]


def _top_k(ordered, top_k):
    """The first `top_k` of `ordered`, once `top_k` is checked."""
    if not isinstance(top_k, numbers.Integral) or isinstance(top_k, bool) or top_k < 1:
        raise ValueError(f"top_k must be a positive integer; got top_k={top_k!r}.")
    return list(ordered)[:top_k]


def _colours(n):
    """`n` colours of the tab10 cycle, red (the selected candidate's) left out, repeating."""
    import matplotlib

    cycle = [c for c in matplotlib.colormaps["tab10"].colors
             if matplotlib.colors.to_hex(c) != matplotlib.colors.to_hex("tab:red")]
    return [cycle[i % len(cycle)] for i in range(n)]


def _ranks(search, candidate_ids):
    """The rank in ``cv_results_`` of each of `candidate_ids` (1 is the selected one)."""
    results = search.cv_results_
    rank = dict(zip(results["candidate_id"], results[f"rank_test_{_metric(search)}"]))
    return np.array([rank[c] for c in candidate_ids])


def _params_by_id(search):
    """``candidate_id -> params`` of the rows of ``all_cv_results_``, or of ``candidates_``."""
    results = search.all_cv_results_
    params = dict(enumerate(getattr(search, "candidates_", [])))
    return params | {int(c): p for c, p in zip(results["candidate_id"], results["params"])}


def _configuration(search, params):
    """`params` without the training length a search adds to them (``length_param_``)."""
    length = getattr(search, "length_param_", None)
    return {k: v for k, v in params.items() if k != length}


def _checked_search(search, display, attribute=None, column=None, draws=None):
    """`search` as `display` reads it, once it is fitted and records what `display` draws.

    An sksel search is read as it is, a scikit-learn search (any
    ``BaseSearchCV``: GridSearchCV, RandomizedSearchCV, the halving searches)
    through :class:`_ScikitLearnSearch`. The displays of one kind of search
    need an `attribute` (``"posterior_mean_"``, ``"param_distributions"``)
    or a `column` of ``cv_results_`` (``"parent_id"``) that only an sksel
    search of that kind has, and say what they `draws` to a search without.
    """
    if not isinstance(search, BaseSearchCV):
        raise TypeError(f"{display.__name__}.from_search needs a fitted search, an sksel "
                        f"search or a scikit-learn one (GridSearchCV, HalvingGridSearchCV, "
                        f"...); got {type(search).__name__}.")
    sksel = hasattr(search, "_display_info")
    check_is_fitted(search, "all_cv_results_" if sksel else "cv_results_")
    if not sksel and not hasattr(search, "best_index_"):
        raise ValueError(f"{display.__name__} draws the scores of the metric that selects; "
                         f"{type(search).__name__} with several metrics and refit=False "
                         "selects none: set refit to one of its metrics.")
    if attribute is None and column is None:
        return search if sksel else _ScikitLearnSearch(search)
    if not sksel:
        raise TypeError(f"{display.__name__} draws {draws}; scikit-learn's "
                        f"{type(search).__name__} records none.")
    if attribute is not None and getattr(search, attribute, None) is None:
        missing = attribute
    elif column is not None and column not in search.cv_results_:
        missing = f"a {column} in cv_results_"
    else:
        return search
    raise TypeError(f"{display.__name__} draws {draws}, from a search with {missing}; "
                    f"{type(search).__name__} has none.")


_DRAWS_POSTERIOR = "GPUCBSelector's prior and posterior of every candidate"
_DRAWS_DIVERSITY = "a KDPPSearch's configurations against as many drawn independently"
_DRAWS_LINEAGE = "the lineage of a MutantUCBSearch's model"
_USE_BEST_SCORE = "Use BestScoreDisplay to compare it with other searches."


class _ScikitLearnSearch:
    """A fitted scikit-learn search, as the displays read an sksel search.

    The displays read a search's results, ``cv_results_`` and
    ``all_cv_results_`` with the columns every sksel search adds
    (``candidate_id``, ``candidate_name``, ``speculative``), its
    ``_display_info()`` (:class:`~sksel._base.DisplayInfo`) and what the
    scikit-learn searches have too (``best_index_``, ``n_splits_``,
    ``multimetric_``, ``refit``). Here both results are the search's
    ``cv_results_`` with those columns: a row of GridSearchCV or
    RandomizedSearchCV is a candidate; a halving search's candidate is a row
    of its first iteration, and keeps its ``candidate_id`` in the iterations
    it goes on to. Names follow sksel's rule (:class:`~sksel._progress.ShortNames`),
    no row is speculative. Only a halving search has a resource: its
    ``n_resources``, samples or the values of its `resource` parameter (left
    out of the candidates' names, as ``length_param_``), up to
    ``max_resources_``; its rows are ranked as sksel ranks them, those at
    larger resources first (scikit-learn ranks the rows of all iterations
    by score alone, but selects in the last one). The others have no
    ``_display_info()``.

    Parameters
    ----------
    search : BaseSearchCV
        A fitted scikit-learn search.
    """

    def __init__(self, search):
        results = search.cv_results_
        halving = "iter" in results and "n_resources" in results
        resource = search.resource if halving else None
        self.length_param_ = None if resource == "n_samples" else resource
        ids = _candidate_ids(results, self.length_param_)
        first = [_configuration(self, results["params"][i]) for i in np.unique(ids)]
        names = CandidateNames(ShortNames(first, search.estimator))
        self.cv_results_ = {**results, "candidate_id": ids,
                            "candidate_name": np.array([names(c) for c in ids])}
        if halving:
            self.cv_results_["rank_test_score"] = _rank_by_resource(
                results["n_resources"], results["mean_test_score"])
        self.all_cv_results_ = {**self.cv_results_, "speculative": np.zeros(len(ids), bool)}
        self.best_index_ = search.best_index_
        self.n_splits_ = search.n_splits_
        self.multimetric_ = search.multimetric_
        self.refit = search.refit
        self._info = None
        if halving:
            self._info = DisplayInfo(
                "Samples (n_resources)" if resource == "n_samples" else resource,
                search.max_resources_)

    def _display_info(self):
        return self._info


def _candidate_ids(results, length_param):
    """The candidate of each row of a scikit-learn search's `results`.

    Every row of the first iteration (every row, without ``iter``) is a
    candidate, numbered from 0; a row of a later halving iteration is the
    candidate with the same params but for `length_param`.
    """
    if "iter" not in results:
        return np.arange(len(results["params"]))
    keys = [repr({k: v for k, v in p.items() if k != length_param}) for p in results["params"]]
    first = np.flatnonzero(np.asarray(results["iter"]) == 0)
    candidate = {}
    for i in first:
        candidate.setdefault(keys[i], i)
    return np.array([candidate[key] for key in keys])


def _one_resource(search, results):
    """Why every candidate of `results` had one resource, or None where resources differ."""
    if "n_resources" not in results:
        return ("trains every candidate once, on all the training rows of every fold (its "
                "cv_results_ has no n_resources)")
    resources = np.unique(results["n_resources"])
    if len(resources) == 1:
        return f"evaluated every candidate at one resource (n_resources={resources[0]})"
    return None


def _allocation_like_grid(display, search, reason):
    """Why `display` does not draw `search`, whose candidates all had GridSearchCV's share."""
    return (f"{display.__name__} draws how a search shared its resource among candidates, "
            f"against GridSearchCV's, the full resource on every fold of every candidate; "
            f"{type(search).__name__} {reason}, so that every bar would be GridSearchCV's. "
            f"{_USE_BEST_SCORE}")


def _metric(search):
    """Suffix of the results' keys of the metric the search ranked by."""
    return search.refit if search.multimetric_ else "score"


def _score_name(search):
    """Label of a score axis: the scoring's name, the estimators' own score's, or "Score"."""
    name = search.refit if search.multimetric_ else search.scoring
    if isinstance(name, str):
        return name.replace("_", " ").capitalize()
    if name is None and is_classifier(search):
        return "Accuracy"
    return "R²" if name is None and is_regressor(search) else "Score"


def _selected(search):
    return int(search.cv_results_["candidate_id"][search.best_index_])


def _used_rows(search, key):
    """The rows of ``search.<key>`` the policy used: not the speculative ones."""
    results = getattr(search, key)
    used = ~np.asarray(results["speculative"], dtype=bool)
    return {k: np.asarray(v)[used] if k != "params" else [p for p, u in zip(v, used) if u]
            for k, v in results.items()}


def _folds_run(search, results):
    """The folds each row of `results` ran on: those whose test score is not NaN.

    A fold that failed with ``error_score=np.nan`` counts as not run.
    """
    metric = _metric(search)
    split_scores = np.stack([np.asarray(results[f"split{i}_test_{metric}"], dtype=float)
                             for i in range(search.n_splits_)], axis=1)
    return np.isfinite(split_scores).sum(axis=1)


def _resource_added(search, results):
    """The resource each row trained: its ``n_resources``, or for continued models the increment.

    A :class:`~sksel.MutantUCBSearch` continues a model from its previous
    sub-train, so its row at ``n`` sub-trains adds ``n - previous``.
    """
    n = np.asarray(results["n_resources"], dtype=float)
    if not search._display_info().resources_add_up:
        return n
    added, previous = n.copy(), {}
    for i, (c, n_i) in enumerate(zip(results["candidate_id"], n)):
        added[i] = n_i - previous.get(c, 0)
        previous[c] = max(n_i, previous.get(c, 0))
    return added


def _param_names(param_distributions):
    grids = param_distributions if isinstance(param_distributions, list) else [
        param_distributions]
    return {name for grid in grids for name in grid}


def _two_params(params_list, x_name, y_name):
    """``(n, 2)`` array of the `x_name` and `y_name` values of the configurations with both."""
    rows = [(p[x_name], p[y_name]) for p in params_list if x_name in p and y_name in p]
    for values, name in zip(zip(*rows), (x_name, y_name)):
        if not all(isinstance(v, numbers.Real) for v in values):
            raise ValueError(f"{name!r} takes values that are not numbers; DiversityDisplay "
                             "plots numeric parameters.")
    return np.array(rows, dtype=float).reshape(-1, 2)


def _spans_decades(values):
    return bool(values.size and np.all(values > 0) and values.max() / values.min() > 100)


def _ancestry(parent_id, row_of, candidate):
    """Rows of `candidate`'s lineage in the results, first ancestor first."""
    rows = [row_of[candidate]]
    while parent_id[rows[-1]] >= 0:
        rows.append(row_of[int(parent_id[rows[-1]])])
    return rows[::-1]


def _changed(parent, child):
    """The parameters of `child` set to other values than in `parent`."""
    return {k: v for k, v in child.items() if k not in parent or parent[k] != v}


_TREE_FONTSIZE = 8


def _tree_figsize(texts):
    """Size of a figure for a lineage labelled `texts`: a generation as wide as the widest.

    Matplotlib's default (6.4 by 4.8 inches), or wider where the
    generations, each as wide as the widest label and a gap, need more
    than its axes, about an inch and a half less.
    """
    widest = max(_text_width(line, _TREE_FONTSIZE) for text in texts
                 for line in text.split("\n"))
    return max(6.4, len(texts) * (widest + 12) / 72 + 1.5), 4.8


def _text_width(text, fontsize):
    """Width of `text` in points, drawn in matplotlib's default font at `fontsize`."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import text_to_path

    return text_to_path.get_text_width_height_descent(
        text, FontProperties(size=fontsize), ismath=False)[0]


def _wrapped(text, width, fontsize):
    """`text` broken at spaces into lines of at most `width` points at `fontsize`.

    A word wider than `width` has a line of its own.
    """
    lines = []
    for word in text.split(" "):
        if lines and _text_width(f"{lines[-1]} {word}", fontsize) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return "\n".join(lines)


def _node_label(label, score, change):
    """``label: score`` and a line per changed parameter, named without its step prefixes."""
    changes = "\n".join(
        f"{k.rsplit('__', 1)[-1]}={v:.3g}" if isinstance(v, numbers.Real)
        else f"{k.rsplit('__', 1)[-1]}={v}"
        for k, v in change.items())
    return f"{label}: {score:.3f}" + (f"\n{changes}" if changes else "")
