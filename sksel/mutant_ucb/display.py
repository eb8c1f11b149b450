"""The display of a Mutant-UCB model's lineage (:class:`~sksel.FamilyTreeDisplay`)."""

import numbers

import numpy as np

from .._compat import check_matplotlib_support
from ..display._common import (
    _checked_search,
    _configuration,
    _metric,
    _name,
    _names,
    _score_name,
    _selected,
    _start_plot,
)

_DRAWS_LINEAGE = "the lineage of a MutantUCBSearch's model"


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
        its own mean in ``cv_results_`` (``mean_test_score_at_resource``,
        that of a model trained less than the selected one's too) and its changes the
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
            scores=results[f"mean_test_{_metric(search)}_at_resource"][rows],
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
