"""The parameters of a search space: how each kind of value is drawn, moved and encoded.

A parameter of a branch is a distribution (``_Distribution``, one column),
a list of numbers (``_Ordinal``, a unary code) or any other list
(``_Categorical``, one-hot), as the docstring of
:mod:`sksel.spaces.space` describes; ``_build_params`` makes those of every
branch, sharing columns where the encoding is the same, and the helpers below
them tell values and distributions apart.
"""

import numbers
from collections.abc import Sequence

import numpy as np

_LOG_DISTRIBUTIONS = ("loguniform", "reciprocal")


def _draw(values, n, rng):
    """`n` independent draws of a list (uniformly) or a distribution."""
    if hasattr(values, "rvs"):
        return np.atleast_1d(values.rvs(size=n, random_state=rng)).tolist()
    return [values[i] for i in rng.randint(len(values), size=n)]


class _Param:
    """One parameter: its `name`, its values `spec`, the `branch` that first has it.

    The space then sets ``label`` (the name, made unique) and ``columns`` (a slice).
    """

    def __init__(self, name, branch, spec):
        self.name, self.branch, self.spec = name, branch, spec


class _Distribution(_Param):
    """A distribution: one column, linear, on a log axis, or through its CDF."""

    suffixes = ("",)
    expects = "a real number"

    def __init__(self, name, branch, dist):
        super().__init__(name, branch, dist)
        self.scale = _scale(dist)
        self.lo, self.hi = (float(bound) for bound in _support(dist))

    def admits(self, value):
        return _is_number(value)

    def absorb(self, other):
        return isinstance(other, _Distribution) and _same_distribution(self.spec, other.spec)

    def can_move(self):
        return True

    def neighbour(self, value, rng, step):
        """A value a step of `step` away in the CDF, reflected into (0, 1).

        An integer distribution moves by at least one.
        """
        delta = rng.normal(0.0, step)
        u = float(self.spec.cdf(value)) + delta
        u = float(np.clip(-u if u < 0 else 2.0 - u if u > 1 else u, 1e-9, 1 - 1e-9))
        moved = self.spec.ppf(u).item()
        if not _is_discrete(self.spec):
            return moved
        moved = int(round(moved))
        if moved == value:
            moved = int(np.clip(value + (1 if delta > 0 else -1), self.lo, self.hi))
        return moved

    def encode(self, values):
        h = np.asarray(values, dtype=float)
        if self.scale == "cdf":
            return np.asarray(self.spec.cdf(h), dtype=float).reshape(-1, 1)
        h, lo, hi = np.clip(h, self.lo, self.hi), self.lo, self.hi
        if self.scale == "log":
            h, lo, hi = np.log(h), np.log(lo), np.log(hi)
        return ((h - lo) / ((hi - lo) or 1.0)).reshape(-1, 1)


class _Ordinal(_Param):
    """A list of numbers: unary code over its sorted distinct values."""

    def __init__(self, name, branch, values):
        super().__init__(name, branch, values)
        distinct = sorted(set(values))
        self.levels = np.asarray(distinct, dtype=float)
        self.suffixes = [f">={v}" for v in distinct]
        self.expects = f"one of {values!r}"

    def admits(self, value):
        return _is_number(value) and bool(np.any(self.levels == value))

    def absorb(self, other):
        return isinstance(other, _Ordinal) and np.array_equal(self.levels, other.levels)

    def can_move(self):
        return len(self.levels) > 1

    def neighbour(self, value, rng, step):
        """The next smaller or larger value, at random (the only one at an end)."""
        rank = int(np.searchsorted(self.levels, value))
        options = [r for r in (rank - 1, rank + 1) if 0 <= r < len(self.levels)]
        moved = self.levels[options[rng.randint(len(options))]]
        return next(v for v in self.spec if v == moved)

    def encode(self, values):
        ranks = np.searchsorted(self.levels, np.asarray(values, dtype=float))
        return (np.arange(len(self.levels)) <= ranks[:, None]).astype(float)


class _Categorical(_Param):
    """Any other list: one-hot over its distinct values (estimators by identity)."""

    def __init__(self, name, branch, values):
        super().__init__(name, branch, values)
        self.categories = []
        self._add(values)
        self.expects = f"one of {values!r}"

    def _add(self, values):
        for value in values:
            if self.index(value) is None:
                self.categories.append(value)

    @property
    def suffixes(self):
        return [
            f"={i}" if _is_estimator(v) else f"={v}" for i, v in enumerate(self.categories)
        ]

    def index(self, value):
        return next(
            (i for i, c in enumerate(self.categories) if _same_value(value, c)), None
        )

    def admits(self, value):
        return any(_same_value(value, v) for v in self.spec)

    def can_move(self):
        return len(self.spec) > 1

    def neighbour(self, value, rng, step):
        """Another value of the list, uniformly."""
        others = [v for v in self.spec if not _same_value(v, value)]
        return others[rng.randint(len(others))]

    def absorb(self, other):
        if isinstance(other, _Categorical):
            self._add(other.spec)
            return True
        return False

    def encode(self, values):
        return np.eye(len(self.categories))[[self.index(v) for v in values]]


def _build_params(grids):
    """Parameters of every branch, sharing columns where the encoding is the same.

    Returns the branches, each a dict mapping a name to ``(shared, own)``: the
    parameter that owns the columns and the branch's own parameter, which says
    what values the branch admits; and the distinct parameters, labelled.
    """
    params, branches = [], []
    for b, grid in enumerate(grids):
        branch = {}
        for name in sorted(grid):
            own = _make_param(name, b, grid[name])
            shared = next((p for p in params if p.name == name and p.absorb(own)), None)
            if shared is None:
                shared = own
                params.append(own)
            branch[name] = (shared, own)
        branches.append(branch)
    for param in params:
        same_name = sum(p.name == param.name for p in params)
        param.label = param.name if same_name == 1 else f"{param.name}[{param.branch}]"
    return branches, params


def _make_param(name, branch, values):
    """The encoding of one (validated) value of a grid."""
    if hasattr(values, "rvs"):
        return _Distribution(name, branch, values)
    if all(_is_number(v) for v in values):
        return _Ordinal(name, branch, values)
    return _Categorical(name, branch, values)


def _support(dist):
    return dist.support() if hasattr(dist, "support") else (-np.inf, np.inf)


def _scale(dist):
    """How `dist` maps to [0, 1]: ``"linear"``, ``"log"``, ``"cdf"``, or None if it cannot."""
    lo, hi = _support(dist)
    if np.isfinite(lo) and np.isfinite(hi):
        log_scaled = getattr(getattr(dist, "dist", None), "name", None) in _LOG_DISTRIBUTIONS
        return "log" if log_scaled and lo > 0 else "linear"
    return "cdf" if hasattr(dist, "cdf") else None


def _same_distribution(a, b):
    """Whether `a` and `b` are the same distribution (frozen scipy.stats ones by value)."""
    if a is b:
        return True
    return (
        hasattr(a, "dist") and hasattr(b, "dist") and type(a.dist) is type(b.dist)
        and a.args == b.args and a.kwds == b.kwds
    )


def _same_value(x, y):
    """Equality of list values, bools apart from numbers.

    Values whose ``==`` is not a truth value, such as arrays, match by
    identity, as estimators do.
    """
    if x is y:
        return True
    if isinstance(x, (bool, np.bool_)) != isinstance(y, (bool, np.bool_)):
        return False
    try:
        return bool(x == y)
    except (TypeError, ValueError):
        return False


def _is_discrete(dist):
    return hasattr(dist, "pmf")


def _is_estimator(value):
    return hasattr(value, "get_params") and not isinstance(value, type)


def _is_number(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _is_list(values):
    return (isinstance(values, np.ndarray) and values.ndim == 1) or (
        isinstance(values, Sequence) and not isinstance(values, str)
    )
