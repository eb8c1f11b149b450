"""What a Mutant-UCB mutant inherits from its parent"s trained model.

The public names of :mod:`sksel.training.inheritance`, importable from here as well.
"""

from .training.inheritance import continued, inheritable, inherited

__all__ = ["continued", "inheritable", "inherited"]
