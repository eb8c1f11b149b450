"""Kernels over configurations: RBF and Arc.

The public names of :mod:`sksel.spaces.kernels`, importable from here as well.
"""

from .spaces.kernels import (
    arc_embedding,
    arc_kernel,
    configuration_kernel,
    default_bandwidth,
    rbf_kernel,
)

__all__ = ["arc_embedding", "arc_kernel", "configuration_kernel", "default_bandwidth", "rbf_kernel"]
