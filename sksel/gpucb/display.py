"""The display of GP-UCB's prior and posterior (:class:`~sksel.PosteriorDisplay`)."""

import numpy as np

from .._compat import check_matplotlib_support
from ..display._common import (
    _NAMED_FIGSIZE,
    _checked_search,
    _folds_run,
    _legend_outside,
    _mean_scores,
    _name,
    _names,
    _score_name,
    _shortened,
    _start_plot,
    _top_k,
    _wrapped_header,
)

_DRAWS_POSTERIOR = "GPUCBSelector's prior and posterior of every candidate"


class PosteriorDisplay:
    """GP-UCB's prior and posterior mean ± one standard deviation per candidate.

    A row per candidate, named on its left, the highest posterior mean on
    top: the prior just above the row, the posterior just below, a star at
    the score of an evaluated candidate, hollow where that score is a look
    (on a subsample of the rows, or a mean over fewer folds than the
    cross-validation has: a race's first folds). The `top_k` highest
    posterior means
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

    looks : array-like of bool of shape (n_evaluated,), default=None
        Whether each score is a look, drawn hollow: on a subsample of the
        rows or a mean over fewer folds than the others. None: none is.

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
        The scores of the evaluated candidates drawn, on their rows, in the
        order of `evaluated`; a look's face is white.

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
                 scores, looks=None, score_name="Score", names=None):
        self.prior_mean = prior_mean
        self.prior_std = prior_std
        self.posterior_mean = posterior_mean
        self.posterior_std = posterior_std
        self.evaluated = evaluated
        self.scores = scores
        self.looks = looks
        self.score_name = score_name
        self.names = names

    @classmethod
    def from_search(cls, search, *, names=None, ax=None, **kwargs):
        """Plot a fitted :class:`~sksel.GPUCBSelector`'s prior and posterior.

        The prior is ``policy_.prior()`` (with ``prior="kernel"``, fitted to
        the scores observed), the posterior ``posterior_mean_`` and
        ``posterior_std_``, the evaluated candidates and scores those of
        ``cv_results_``: a row with ``look`` True (on a subsample) or
        scored on fewer than ``n_splits_`` folds (``first_look``, a race's)
        is a look.

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
        # The rows of the candidates evaluated: not those listed only.
        results = {key: np.asarray(values)[np.asarray(results["n_folds_run"]) > 0]
                   for key, values in results.items() if key != "params"}
        subsample = np.asarray(results.get("look", False), dtype=bool)
        prior_mean, prior_std = search.policy_.prior()
        display = cls(
            prior_mean=prior_mean, prior_std=prior_std,
            posterior_mean=search.posterior_mean_, posterior_std=search.posterior_std_,
            evaluated=results["candidate_id"], scores=_mean_scores(search, results),
            looks=subsample | (_folds_run(search, results) < search.n_splits_),
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
        looks = np.zeros(len(self.evaluated), bool) if self.looks is None else self.looks
        evaluated = [(score, row_of[c], look) for c, score, look
                     in zip(self.evaluated, self.scores, looks) if c in row_of]
        x, y, look = np.reshape(evaluated, (-1, 3)).T
        self.evaluated_ = ax.scatter(
            x, y, marker="*", s=120, edgecolors="tab:red", zorder=3, label="evaluated",
            facecolors=["white" if is_look else "tab:red" for is_look in look])
        handles = None
        if look.any():
            from matplotlib.lines import Line2D

            star = {"linestyle": "none", "marker": "*", "markersize": 11, "color": "tab:red"}
            handles = [Line2D([], [], **star, label="evaluated"),
                       Line2D([], [], **star, markerfacecolor="white",
                              label="a look: fewer rows or folds"),
                       self.prior_errorbar_, self.posterior_errorbar_]
        ids = range(len(posterior_mean))
        header, labels = _shortened([_name(self.names, ids, c) for c in shown])
        ax.set_yticks(rows, labels, fontsize="small")
        ax.set_ylim(len(rows) - 0.5, -0.5)  # the highest posterior mean on top
        hidden = len(posterior_mean) - len(shown)
        ax.set_ylabel("Candidate, by posterior mean" + (
            f" ({hidden} lower not shown)" if hidden else "") + (
            f"\n{_wrapped_header(header)}" if header else ""))
        ax.set_xlabel(self.score_name)
        _legend_outside(ax, handles=handles)
        return self
