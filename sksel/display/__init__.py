"""Displays of a fitted search, following scikit-learn's Display convention.

Each display is built from a fitted search with its ``from_search`` class
method (scikit-learn's displays have ``from_estimator``; these read what a
search recorded, not an estimator's predictions), holds the plotted data as
attributes, and draws them with ``plot(ax=None, ...)``, which sets ``ax_``,
``figure_`` and the artists drawn. Matplotlib is imported only when plotting.

The displays here draw any search (sksel's, and scikit-learn's grid, random
and halving searches); those of one method are in its package:
:class:`~sksel.PosteriorDisplay` (:mod:`sksel.gpucb.display`),
:class:`~sksel.DiversityDisplay` (:mod:`sksel.kdpp.display`) and
:class:`~sksel.FamilyTreeDisplay` (:mod:`sksel.mutant_ucb.display`). What
they share is in :mod:`sksel.display._common`.
"""


import numpy as np

from .._core.compat import check_matplotlib_support
from ._common import (
    _NAMED_FIGSIZE,
    _USE_BEST_SCORE,
    _allocation_like_grid,
    _checked_search,
    _colours,
    _folds_run,
    _legend_outside,
    _mean_scores,
    _metric,
    _name,
    _names,
    _one_resource,
    _ranks,
    _resource_added,
    _score_name,
    _selected,
    _shortened,
    _spans_decades,
    _start_plot,
    _top_k,
    _used_rows,
    _wrapped_header,
)

__all__ = ["AllocationDisplay", "BestScoreDisplay", "SearchCurvesDisplay"]


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
    parameters set alike, which the legend's title gives, headed ``top 10 of
    38:`` where a grey curve does not share it; each keeps its id and the
    parameters that differ.
    For DAUB, a dashed line goes from the last point of every candidate that
    did not reach the full size to its projected upper bound at that size,
    the bound that decided its allocation. A Mutant-UCB model that went on
    from its parent's training is drawn on the sub-trains of its lineage,
    those it inherited included: its curve starts where its parent's was
    when it was bred, joined to that point by a thin dotted line; one that
    started afresh starts at 1.

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

    origins : list of tuple or None, default=None
        For each candidate, the point ``(resource, score)`` its training
        went on from (a Mutant-UCB parent's, at the sub-trains it passed
        on), joined to its first point by a dotted line, or None for one
        trained from scratch. None draws no join.

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

    origin_lines_ : list of matplotlib Line2D or None
        The dotted joins to the origins drawn, or None without `origins`.

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
                 max_resource=None, origins=None, resource_name="Resource", score_name="Score",
                 names=None):
        self.candidate_ids = candidate_ids
        self.resources = resources
        self.scores = scores
        self.selected = selected
        self.ranks = ranks
        self.bounds = bounds
        self.max_resource = max_resource
        self.origins = origins
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
        ``policy_.upper_bound`` gives the bounds at ``sizes_[-1]``. For a
        search whose results have ``parent_id`` and ``n_resources_total``
        (:class:`~sksel.MutantUCBSearch`), the resources are
        ``n_resources_total`` and a model that inherited sub-trains has its
        parent's row at that many as its origin.

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
        scores = _mean_scores(record, results)
        info = record._display_info()
        resources, origins, resource_name = results["n_resources"], None, info.resource_name
        if _continues_parents(results):
            resources = results["n_resources_total"]
            origins = _origins(results, scores, candidate_ids)
            resource_name += ", inherited ones included"
        bounds = max_resource = None
        if info.bounds is not None:
            max_resource = info.full_resource
            bounds = np.array([info.bounds(c) for c in candidate_ids])
        display = cls(
            candidate_ids=candidate_ids,
            resources=[resources[ids == c] for c in candidate_ids],
            scores=[scores[ids == c] for c in candidate_ids],
            selected=_selected(record), ranks=_ranks(record, candidate_ids), bounds=bounds,
            max_resource=max_resource, origins=origins, resource_name=resource_name,
            score_name=_score_name(search), names=_names(record, candidate_ids, names),
        )
        return display.plot(ax=ax, **kwargs)

    def plot(self, ax=None, *, top_k=10, log_scale="auto", ylim="auto", line_kw=None,
             selected_kw=None, bound_kw=None, origin_kw=None):
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

        ylim : "auto", None or tuple of float, default="auto"
            Limits of the score axis. ``"auto"`` frames the named curves:
            the bottom is their lowest point, or the lowest point they went
            on from, the top the highest point or bound drawn, each with a
            margin of 5% of the span; the points of grey curves below the
            bottom (a bad first sub-train, a configuration that never
            learnt) are cut, their lines leaving the axes at its bottom
            edge. None leaves matplotlib's limits, every point in view; a
            pair ``(bottom, top)`` is passed to ``ax.set_ylim``.

        line_kw : dict, default=None
            Keyword arguments of ``ax.plot`` for every curve.

        selected_kw : dict, default=None
            Keyword arguments of ``ax.plot`` for the selected curve, over
            `line_kw`.

        bound_kw : dict, default=None
            Keyword arguments of ``ax.plot`` for the dashed bounds.

        origin_kw : dict, default=None
            Keyword arguments of ``ax.plot`` for the dotted joins to the
            origins, over the colour of the curve each joins.

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
        unnamed = [c for c in ids if c not in named]
        header, labels = _shortened([_name(self.names, ids, c) for c in named],
                                    [_name(self.names, ids, c) for c in unnamed],
                                    f"top {len(named)} of {len(ids)}")
        for c, label in zip(named, labels):
            self.lines_[ids.index(c)].set_label(
                f"selected: {label}" if c == self.selected else label)
        others = [self.lines_[ids.index(c)] for c in unnamed]
        if others:
            others[0].set_label(f"{len(others)} others")
        self.bound_lines_ = None if self.bounds is None else self._plot_bounds(ax, bound_kw)
        self.origin_lines_ = None if self.origins is None else self._plot_origins(ax, origin_kw)
        from matplotlib.ticker import MaxNLocator

        resources = np.concatenate([np.asarray(x, dtype=float) for x in self.resources])
        if log_scale is True or log_scale == "auto" and _spans_decades(resources):
            ax.set_xscale("log")
        elif np.all(resources == np.round(resources)):
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(self.resource_name)
        ax.set_ylabel(self.score_name)
        if isinstance(ylim, str) and ylim == "auto":
            ylim = self._framing(named)
        if ylim is not None:
            ax.set_ylim(ylim)
        handles = [self.lines_[ids.index(c)] for c in named] + others[:1] + (
            self.bound_lines_ or [])[:1] + (self.origin_lines_ or [])[:1]
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

    def _framing(self, named):
        """Score limits from the lowest point of the `named` curves to the highest drawn.

        A named curve's origin counts as one of its points, a bound as a
        point drawn; each limit has a margin of 5% of the span (0.05 where
        the span is 0).
        """
        ids = list(self.candidate_ids)
        origins = self.origins or [None] * len(ids)
        drawn = [np.append(y, [] if o is None else o[1]) for y, o in zip(self.scores, origins)]
        bottom = np.nanmin(np.concatenate([drawn[ids.index(c)] for c in named]))
        bounds = [line.get_ydata() for line in self.bound_lines_ or []]
        top = np.nanmax(np.concatenate(drawn + bounds))
        margin = 0.05 * (top - bottom) or 0.05
        return bottom - margin, top + margin

    def _plot_origins(self, ax, origin_kw):
        """The dotted line from each curve's origin to its first point, in the curve's colour."""
        lines = []
        for line, origin, x, y in zip(self.lines_, self.origins, self.resources, self.scores):
            if origin is not None:
                kw = {"linestyle": ":", "linewidth": 1, "color": line.get_color(),
                      "alpha": line.get_alpha(), "zorder": line.get_zorder(), **(origin_kw or {})}
                label = "went on from its parent" if not lines else None
                lines += ax.plot([origin[0], x[0]], [origin[1], y[0]], label=label, **kw)
        return lines


def _continues_parents(results):
    """Whether a row of `results` may go on from its parent's training (Mutant-UCB's)."""
    return "parent_id" in results and "n_resources_total" in results


def _origins(results, scores, candidate_ids):
    """The point each of `candidate_ids` went on from: its parent's at the sub-trains inherited.

    That is the parent's row whose ``n_resources_total`` is the candidate's
    ``n_resources_total - n_resources``; None for a candidate that inherited
    none (an initial model, a mutant that started afresh).
    """
    ids, parents = results["candidate_id"], results["parent_id"]
    total = np.asarray(results["n_resources_total"])
    inherited = total - np.asarray(results["n_resources"])
    origins = []
    for c in candidate_ids:
        first = np.flatnonzero(ids == c)[0]
        at = np.flatnonzero((ids == parents[first]) & (total == inherited[first]))
        origins.append((total[at[0]], scores[at[0]]) if inherited[first] and at.size else None)
    return origins


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
    :class:`SearchCurvesDisplay`'s legend does, headed ``the 20 that spent
    most of 38:`` where one of the others does not share it). A dashed line marks what
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

    baseline : str, default="GridSearchCV"
        What trains `n_grid_candidates` candidates `grid_spent` each, as the
        title names it. :meth:`from_search` gives random search of the same
        configurations for a :class:`~sksel.MutantUCBSearch`, whose mutants
        are no grid.

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
                 baseline="GridSearchCV", resource_name="Resource", names=None):
        self.candidate_ids = candidate_ids
        self.spent = spent
        self.grid_spent = grid_spent
        self.n_grid_candidates = n_grid_candidates
        self.baseline = baseline
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
        n_grid = len(getattr(record, "candidates_", candidate_ids))
        display = cls(
            candidate_ids=candidate_ids,
            spent=np.array([cost[ids == c].sum() for c in candidate_ids]),
            grid_spent=info.full_resource * record.n_splits_,
            n_grid_candidates=n_grid,
            baseline=info.baseline.format(n=n_grid),
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
            [_name(self.names, self.candidate_ids, self.candidate_ids[i]) for i in shown],
            [_name(self.names, self.candidate_ids, self.candidate_ids[i]) for i in rest],
            f"the {len(shown)} that spent most of {len(order)}")
        labels += [f"{len(rest)} others, mean"] if len(rest) else []
        colours = ["tab:blue"] * len(shown) + ["tab:gray"] * bool(len(rest))
        positions = np.arange(len(widths))
        self.bars_ = ax.barh(positions, widths, **{"color": colours, **(bar_kw or {})})
        self.grid_line_ = ax.axvline(
            self.grid_spent,
            **{"linestyle": "--", "color": "black", "label": "fully trained, per candidate",
               **(grid_kw or {})},
        )
        ax.set_yticks(positions, labels, fontsize="small")
        ax.set_ylim(len(widths) - 0.5, -0.5)  # the highest on top
        ax.set_ylabel(_wrapped_header(header and f"Candidate: {header}") or "Candidate")
        ax.set_xlabel(f"{self.resource_name.split(' per fold')[0]}, summed over folds")
        grid_total = self.grid_spent * self.n_grid_candidates
        ax.set_title(f"Total {spent.sum():g}: {spent.sum() / grid_total:.0%} of the "
                     f"{grid_total:g} that\n{self.baseline} spends\n(dashed: "
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
