"""The learning curves of a search (:class:`~sksel.SearchCurvesDisplay`)."""

import numpy as np

from .._compat import check_matplotlib_support
from ._common import (
    _NAMED_FIGSIZE,
    _USE_BEST_SCORE,
    _checked_search,
    _checked_xscale,
    _colours,
    _folds_run,
    _folds_words,
    _legend_outside,
    _mean_scores,
    _name,
    _names,
    _one_resource,
    _ranks,
    _score_name,
    _selected,
    _shortened,
    _start_plot,
    _top_k,
    _used_rows,
    _wrapped_header,
)


class SearchCurvesDisplay:
    """Learning curves of a search: each candidate's score against its resource.

    One line per candidate through its scores at the resources it received
    (training rows per fold for :class:`~sksel.DAUBSearch`, sub-trains for
    :class:`~sksel.MutantUCBSearch`, samples or the `resource` parameter for
    scikit-learn's :class:`~sklearn.model_selection.HalvingGridSearchCV` and
    :class:`~sklearn.model_selection.HalvingRandomSearchCV`). The `top_k`
    best ranked candidates are drawn in colour and named in the legend,
    right of the axes, the selected one highlighted; the others are grey,
    one legend entry for all of them. A point scored on fewer folds than
    the cross-validation has (a race's first folds, DAUB's single fold
    below the full size) is hollow, and the legend says on how many
    (``scored on 1 of 5 folds``). The resource axis is logarithmic where
    the resources grow geometrically (DAUB's sizes, GP-UCB's looks, a
    halving search's rungs), linear otherwise (`xscale`); the title names
    the search. Names too long to read (over 48 characters) lose what the
    named candidates share, the estimator and the parameters set alike,
    which the legend's title gives, headed ``top 10 of 38:`` where a grey
    curve does not share it; each keeps its id and the parameters that
    differ.
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

    n_folds : list of ndarray, default=None
        The folds each point's score is a mean over, as `scores`; a point
        on fewer than `n_splits` is drawn hollow. None draws every point
        filled.

    n_splits : int, default=None
        The folds of the cross-validation; needed with `n_folds`.

    search_name : str, default=None
        Name of the search, for the title (``DAUBSearch: learning curves
        of 12 candidates``); None leaves it out.

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

    partial_markers_ : list of (matplotlib Line2D or None) or None
        For each candidate, in the order of `candidate_ids`, the hollow
        markers of its points scored on fewer than `n_splits` folds, or
        None where it has none; None without `n_folds`.

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
                 max_resource=None, origins=None, n_folds=None, n_splits=None,
                 search_name=None, resource_name="Resource", score_name="Score", names=None):
        self.candidate_ids = candidate_ids
        self.resources = resources
        self.scores = scores
        self.selected = selected
        self.ranks = ranks
        self.bounds = bounds
        self.max_resource = max_resource
        self.origins = origins
        self.n_folds = n_folds
        self.n_splits = n_splits
        self.search_name = search_name
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
        parent's row at that many as its origin. A row's scores are a mean
        over the folds whose ``split<i>_test_<metric>`` is not NaN: those of
        ``n_folds_run`` (a race that ended after its first folds, DAUB's one
        fold below ``sizes_[-1]``), less any whose fit failed; a row with
        fewer than ``n_splits_`` is drawn hollow.

        Parameters
        ----------
        search : DAUBSearch, MutantUCBSearch, GPUCBSelector or a halving search
            A fitted search that evaluated candidates at several resources
            (a :class:`~sksel.GPUCBSelector` that made looks on subsamples,
            scikit-learn's
            :class:`~sklearn.model_selection.HalvingGridSearchCV` and
            :class:`~sklearn.model_selection.HalvingRandomSearchCV` too).
            One that evaluated every candidate at one resource
            (:class:`~sksel.KDPPSearch`, a :class:`~sksel.GPUCBSelector`
            without looks,
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
        folds = _folds_run(record, results)
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
            max_resource=max_resource, origins=origins,
            n_folds=[folds[ids == c] for c in candidate_ids], n_splits=record.n_splits_,
            search_name=type(search).__name__, resource_name=resource_name,
            score_name=_score_name(search), names=_names(record, candidate_ids, names),
        )
        return display.plot(ax=ax, **kwargs)

    def plot(self, ax=None, *, top_k=10, xscale=None, ylim="auto", line_kw=None,
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

        xscale : {None, "linear", "log"}, default=None
            Scale of the resource axis. None chooses from the resources drawn:
            logarithmic where they are spread more evenly on it, the two
            closest of three or more further apart as a share of the axis
            than on a linear one (sizes that grow geometrically: DAUB's,
            GP-UCB's looks on a 27th, a ninth and a third of the rows, a
            halving search's rungs), linear otherwise (Mutant-UCB's
            sub-trains 1, 2, 3, ...).

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
        resources = np.concatenate([np.asarray(x, dtype=float) for x in self.resources])
        xscale = _checked_xscale(xscale, resources)
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
        self.partial_markers_, partial = None, []
        if self.n_folds is not None:
            self.partial_markers_, partial = self._plot_partial_points(ax)
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
        ax.set_xscale(xscale)
        _resource_ticks(ax, xscale, resources)
        ax.set_xlabel(self.resource_name)
        ax.set_ylabel(self.score_name)
        what = f"learning curves of {len(ids)} candidate{'s' * (len(ids) != 1)}"
        ax.set_title(f"{self.search_name}: {what}" if self.search_name else what.capitalize(),
                     fontsize="medium")
        if isinstance(ylim, str) and ylim == "auto":
            ylim = self._framing(named)
        if ylim is not None:
            ax.set_ylim(ylim)
        handles = [self.lines_[ids.index(c)] for c in named] + others[:1] + (
            self.bound_lines_ or [])[:1] + (self.origin_lines_ or [])[:1] + partial
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

    def _plot_partial_points(self, ax):
        """Hollow markers over each curve's points scored on fewer than `n_splits` folds.

        The curve keeps its filled markers at the other points only. Returns
        the markers of each candidate (None where it has none) and the
        legend's handle for them (a list of one, or empty).
        """
        markers, folds = [], []
        for line, x, y, n in zip(self.lines_, self.resources, self.scores, self.n_folds):
            n = np.asarray(n)
            partial = (n < self.n_splits) & np.isfinite(np.asarray(y, dtype=float))
            if not partial.any():
                markers.append(None)
                continue
            line.set_markevery(list(np.flatnonzero(~partial)))
            folds.append(n[partial])
            markers += ax.plot(
                np.asarray(x)[partial], np.asarray(y)[partial], linestyle="none",
                marker=line.get_marker(), markersize=line.get_markersize(),
                markeredgecolor=line.get_color(), markerfacecolor="white",
                alpha=line.get_alpha(), zorder=line.get_zorder())
        if not folds:
            return markers, []
        from matplotlib.lines import Line2D

        handle = Line2D([], [], linestyle="none", marker="o", markeredgecolor="black",
                        markerfacecolor="white",
                        label=_folds_words(np.concatenate(folds), self.n_splits))
        return markers, [handle]

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


def _resource_ticks(ax, xscale, resources):
    """Ticks of the resource axis: whole numbers; on a log axis, the resources themselves.

    A log axis with up to ten distinct resources has a labelled tick at
    each (``711``, ``2133``, ...) and no labels between them, which would
    run into each other over less than a decade.
    """
    from matplotlib.ticker import MaxNLocator, NullFormatter

    distinct = np.unique(resources)
    if xscale == "log" and distinct.size <= 10:
        ax.set_xticks(distinct, [f"{value:g}" for value in distinct])
        ax.xaxis.set_minor_formatter(NullFormatter())
    elif xscale == "linear" and np.all(resources == np.round(resources)):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))


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
