"""The display of a k-DPP draw against independent draws (:class:`~sksel.DiversityDisplay`)."""

import numbers

import numpy as np

from .._compat import check_matplotlib_support
from ..display._common import (
    _checked_search,
    _legend_outside,
    _spans_decades,
    _start_plot,
)
from ..spaces.space import SearchSpace

_DRAWS_DIVERSITY = "a KDPPSearch's configurations against as many drawn independently"


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
        `param_distributions` (:meth:`sksel.spaces.SearchSpace.sample`).
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
