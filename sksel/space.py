"""Search spaces: grids, distributions and tree-structured spaces.

The public names of :mod:`sksel.spaces.space`, importable from here as well.
"""

from .spaces.space import SearchSpace, first_estimator

__all__ = ["SearchSpace", "first_estimator"]
