"""Displays of a fitted search, following scikit-learn's Display convention.

Each display is built from a fitted search with its ``from_search`` class
method (scikit-learn's displays have ``from_estimator``; these read what a
search recorded, not an estimator's predictions), holds the plotted data as
attributes, and draws them with ``plot(ax=None, ...)``, which sets ``ax_``,
``figure_`` and the artists drawn. Matplotlib is imported only when plotting.

The displays here draw any search (sksel's, and scikit-learn's grid, random
and halving searches), one module each: :class:`~sksel.SearchCurvesDisplay`
(:mod:`sksel.display.curves`), :class:`~sksel.AllocationDisplay`
(:mod:`sksel.display.allocation`) and :class:`~sksel.BestScoreDisplay`
(:mod:`sksel.display.best_score`). Those of one method are in its package:
:class:`~sksel.PosteriorDisplay` (:mod:`sksel.gpucb.display`),
:class:`~sksel.DiversityDisplay` (:mod:`sksel.kdpp.display`) and
:class:`~sksel.FamilyTreeDisplay` (:mod:`sksel.mutant_ucb.display`). What
they share is in :mod:`sksel.display._common`.
"""

from .allocation import AllocationDisplay
from .best_score import BestScoreDisplay
from .curves import SearchCurvesDisplay

__all__ = ["AllocationDisplay", "BestScoreDisplay", "SearchCurvesDisplay"]
