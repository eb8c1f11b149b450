"""What learning curves tell: models fitted on real curves, shared by the methods.

:mod:`sksel.curves.gap_model` gives the law of a learner's score on all the
rows relative to another's, from their scores on a subsample:
:class:`~sksel.daub.RungPolicy` drops learners by it, and
:class:`~sksel.GPUCBSelector` turns a look on a subsample into an observation
of a candidate's full score by it.
"""
