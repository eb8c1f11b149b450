"""Search spaces, the kernels over their configurations, and samplers that draw from them.

:mod:`~sksel.spaces.space` (:class:`~sksel.space.SearchSpace`: grids,
distributions, tree-structured spaces, features and mutation), with
:mod:`~sksel.spaces.validation` (the space as given, checked, into branches)
and :mod:`~sksel.spaces.params` (each parameter's draws, moves and encoding);
:mod:`~sksel.spaces.kernels` (RBF and Arc kernels), :mod:`~sksel.spaces.dpp`
(k-DPP samplers of a kernel matrix) and :mod:`~sksel.spaces.sampler`
(:class:`~sksel.KDPPSampler`, diverse configurations of a space).
"""
