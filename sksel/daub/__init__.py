"""DAUB: Data Allocation using Upper Bounds.

Sabharwal, Samulowitz and Tesauro, "Selecting Near-Optimal Learners via
Incremental Data Allocation", AAAI 2016.

Every candidate learner is trained on a few small subsamples; from then on the
learner whose projected full-data score (its *upper bound*) is highest gets the
next, geometrically larger subsample. A learner whose bound falls below what the
leader already reaches stops receiving data. The search ends when a learner
trained on all the training rows scores at least every other learner's bound
(the paper: as soon as one learner has been trained on all of them).

The policy (:class:`DAUBPolicy`, pure bookkeeping, no estimator) is in
:mod:`sksel.daub.policy`, the upper bound it ranks learners by (and
:func:`accuracy_noise`, the noise of an accuracy) in :mod:`sksel.daub.bound`,
the prior of a learning curve's rise those bounds start from in
:mod:`sksel.daub.curve_prior`,
the search estimator built on it (:class:`DAUBSearch`) in
:mod:`sksel.daub.search`; the public names are importable from here.
"""

from .bound import accuracy_noise
from .policy import DAUBPolicy, daub_sizes
from .rungs import RungPolicy, rung_sizes
from .search import DAUBSearch

__all__ = ["DAUBPolicy", "DAUBSearch", "RungPolicy", "accuracy_noise", "daub_sizes",
           "rung_sizes"]
