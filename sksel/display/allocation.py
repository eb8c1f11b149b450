"""The resource a search spent per candidate (:class:`~sksel.AllocationDisplay`)."""

import numpy as np

from .._compat import check_matplotlib_support
from ._common import (
    _NAMED_FIGSIZE,
    _allocation_like_grid,
    _checked_search,
    _folds_run,
    _legend_outside,
    _name,
    _names,
    _one_resource,
    _resource_added,
    _shortened,
    _start_plot,
    _top_k,
    _wrapped_header,
)


class AllocationDisplay:
    """Resource spent per candidate, sorted, against GridSearchCV's spending.

    A horizontal bar per candidate, named on its left, highest on top: the
    resource it was trained on, summed over its evaluations and the folds
    each ran on (training rows for :class:`~sksel.DAUBSearch`, sub-trains
    for :class:`~sksel.MutantUCBSearch`, which continue a model: each
    sub-train counts once; samples or the `resource` parameter for
    scikit-learn's halving searches). Speculative work the search never
    used (an evaluation started for a free worker and not picked after all)
    is drawn apart, hatched at the end of the candidate's bar, with its own
    legend entry: it was spent, but it is not on the candidate's curve.
    The `top_k` highest get a bar each;
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
        The resource spent on each candidate by the evaluations the search
        used.

    speculative : array-like of shape (n_candidates,), default=None
        The resource spent on each candidate by speculative evaluations the
        search never used, drawn hatched after `spent`. None: none.

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
        The bars of the work used, in the order of the whole bars (used and
        speculative), highest first; with more than `top_k` candidates, the
        last is the others' mean.

    speculative_bars_ : matplotlib BarContainer or None
        The hatched bars of the unused speculative work, each after its bar
        of `bars_` (of zero width for a candidate without); None where
        nothing was speculative.

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
                 speculative=None, baseline="GridSearchCV", resource_name="Resource",
                 names=None):
        self.candidate_ids = candidate_ids
        self.spent = spent
        self.speculative = speculative
        self.grid_spent = grid_spent
        self.n_grid_candidates = n_grid_candidates
        self.baseline = baseline
        self.resource_name = resource_name
        self.names = names

    @classmethod
    def from_search(cls, search, *, names=None, ax=None, **kwargs):
        """Plot the resource a fitted search spent per candidate.

        Every row of ``all_cv_results_`` costs its ``n_resources`` (for a
        :class:`~sksel.MutantUCBSearch`, the sub-trains added since the
        model's previous row) times the folds it ran on, those whose test
        score is not NaN; the rows with ``speculative`` True, evaluations
        the search started for a free worker and never used, are the
        `speculative` work, the others `spent`. A scikit-learn halving
        search's rows are those of its ``cv_results_``, each trained anew,
        none speculative.
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
        unused = np.asarray(results["speculative"], dtype=bool)
        candidate_ids = np.unique(ids)
        info = record._display_info()
        n_grid = len(getattr(record, "candidates_", candidate_ids))
        display = cls(
            candidate_ids=candidate_ids,
            spent=np.array([cost[(ids == c) & ~unused].sum() for c in candidate_ids]),
            speculative=np.array([cost[(ids == c) & unused].sum() for c in candidate_ids]),
            grid_spent=info.full_resource * record.n_splits_,
            n_grid_candidates=n_grid,
            baseline=info.baseline.format(n=n_grid),
            resource_name=info.resource_name,
            names=_names(record, candidate_ids, names),
        )
        if reason is not None and display.n_grid_candidates == len(candidate_ids) and np.all(
                display.spent + display.speculative == display.grid_spent):
            raise ValueError(_allocation_like_grid(cls, search, reason))
        return display.plot(ax=ax, **kwargs)

    def plot(self, ax=None, *, top_k=20, bar_kw=None, speculative_kw=None, grid_kw=None):
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

        speculative_kw : dict, default=None
            Keyword arguments of ``ax.barh`` for the unused speculative work.

        grid_kw : dict, default=None
            Keyword arguments of ``ax.axvline`` for GridSearchCV's spending.

        Returns
        -------
        display : AllocationDisplay
        """
        ax = _start_plot(self, ax, _NAMED_FIGSIZE)
        spent = np.asarray(self.spent, dtype=float)
        unused = (np.zeros_like(spent) if self.speculative is None
                  else np.asarray(self.speculative, dtype=float))
        order = np.argsort(-(spent + unused), kind="stable")
        shown = _top_k(order, top_k)
        rest = order[len(shown):]
        widths = list(spent[shown]) + ([spent[rest].mean()] if len(rest) else [])
        hatched = list(unused[shown]) + ([unused[rest].mean()] if len(rest) else [])
        header, labels = _shortened(
            [_name(self.names, self.candidate_ids, self.candidate_ids[i]) for i in shown],
            [_name(self.names, self.candidate_ids, self.candidate_ids[i]) for i in rest],
            f"the {len(shown)} that spent most of {len(order)}")
        labels += [f"{len(rest)} others, mean"] if len(rest) else []
        colours = ["tab:blue"] * len(shown) + ["tab:gray"] * bool(len(rest))
        positions = np.arange(len(widths))
        self.bars_ = ax.barh(positions, widths, **{"color": colours, "label": "used",
                                                   **(bar_kw or {})})
        self.speculative_bars_ = None
        if unused.any():
            self.speculative_bars_ = ax.barh(
                positions, hatched, left=widths,
                **{"color": "white", "edgecolor": colours, "hatch": "///", "linewidth": 0.8,
                   "label": "speculative, never used", **(speculative_kw or {})})
            _legend_outside(ax, handles=[self.bars_, self.speculative_bars_])
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
        total = spent.sum() + unused.sum()
        wasted = f", hatched: {unused.sum():g} unused" if unused.any() else ""
        ax.set_title(f"Total {total:g}: {total / grid_total:.0%} of the "
                     f"{grid_total:g} that\n{self.baseline} spends\n(dashed: "
                     f"{self.grid_spent:g} per candidate{wasted})", fontsize="medium")
        return self
