"""Kernels over featurized configurations: RBF and the Arc kernel.

Features come from :meth:`sksel.spaces.SearchSpace.featurize`: a matrix in
[0, 1]^d and, for conditional (tree-structured) spaces, a mask of the entries
that are active.

- :func:`rbf_kernel` is the similarity of the k-DPP of Dodge et al. (2017),
  ``exp(-||f - g||^2 / (2 sigma^2))``, with :func:`default_bandwidth` for sigma.
- :func:`arc_kernel` is the RBF kernel over the embedding of Swersky et al.,
  "Raiders of the Lost Architecture: Kernels for Bayesian Optimization in
  Conditional Parameter Spaces" (2014), :func:`arc_embedding`: two
  configurations compare only on the parameters both have, and a parameter
  that one of them lacks puts them at a fixed distance omega.
- :func:`configuration_kernel` picks one of the two by name, as the searches'
  ``kernel`` parameter does.
"""

import numbers

import numpy as np
from scipy.spatial.distance import cdist


def default_bandwidth(k, d):
    """RBF bandwidth for `k` diverse points in [0, 1]^d: ``sqrt(2) * k ** (-1 / d)``.

    Dodge et al. use ``sqrt(2) / k``, which is stated for one dimension. Taken
    literally for ``d >= 2`` it is much smaller than the spacing of `k` points
    in [0, 1]^d, so that the points hardly repel and a k-DPP behaves like
    uniform sampling. ``k ** (-1 / d)`` is the typical spacing of `k` points in
    the unit cube: ``sqrt(2)`` times it reproduces the one-dimensional
    behaviour in any dimension, and equals ``sqrt(2) / k`` when ``d = 1``.

    Parameters
    ----------
    k : int
        Number of points to draw, >= 1.
    d : int
        Number of feature columns, >= 1.

    Returns
    -------
    sigma : float
        The bandwidth.

    Examples
    --------
    >>> from sksel.spaces import default_bandwidth
    >>> round(default_bandwidth(10, 1), 4), round(default_bandwidth(16, 2), 4)
    (0.1414, 0.3536)
    """
    for name, value in (("k", k), ("d", d)):
        if not isinstance(value, numbers.Integral) or value < 1:
            raise ValueError(f"{name} must be a positive integer; got {value!r}.")
    return float(np.sqrt(2) * k ** (-1 / d))


def rbf_kernel(F, G=None, bandwidth=1.0):
    """RBF kernel ``exp(-||f - g||^2 / (2 * bandwidth^2))`` between rows.

    Parameters
    ----------
    F : array-like of shape (n_samples_F, n_features)
        Feature vectors.
    G : array-like of shape (n_samples_G, n_features), default=None
        Feature vectors; None means `F`.
    bandwidth : float, default=1.0
        The length scale sigma, > 0; see :func:`default_bandwidth`.

    Returns
    -------
    K : ndarray of shape (n_samples_F, n_samples_G)
        Kernel values in (0, 1].

    Examples
    --------
    >>> from sksel.spaces import rbf_kernel
    >>> rbf_kernel([[0.0, 0.0], [1.0, 0.0]], bandwidth=1.0)
    array([[1.        , 0.60653066],
           [0.60653066, 1.        ]])
    """
    F, G = _check_features(F, G)
    return _rbf(F, G, bandwidth)


def arc_embedding(F, active, omega=1.0, rho=0.5, groups=None):
    """Embed features so that inactive parameters sit at a fixed distance.

    Column ``i`` of a row maps to two coordinates,
    ``omega_i * [sin(pi * rho_i * x_i), cos(pi * rho_i * x_i)]`` where it is
    active and ``[0, 0]`` where it is not (Swersky et al., with the bounds
    ``[l_i, u_i] = [0, 1]`` of the features). Per column, two rows are at
    distance 0 when both are inactive, ``omega_i`` when one is, and
    ``2 * omega_i * sin(pi * rho_i * |x_i - x'_i| / 2)`` when both are, which
    increases with ``|x_i - x'_i|`` for ``rho_i <= 1``: on columns that are
    always active, the embedding keeps the order of distances.

    Parameters
    ----------
    F : array-like of shape (n_samples, n_features)
        Features in [0, 1].
    active : array-like of bool of shape (n_samples, n_features)
        Whether each entry of `F` is active.
    omega : float or array-like of shape (n_features,), default=1.0
        Distance, > 0, between a row where a column is active and one where it
        is not.
    rho : float or array-like of shape (n_features,), default=0.5
        Fraction, in [0, 1], of a half-turn that the range [0, 1] of a column
        covers: the larger, the more two active values differ.
    groups : array-like of shape (n_features,), default=None
        The parameter of each column, such as
        :attr:`~sksel.spaces.SearchSpace.feature_params_`. When given, the
        omega of each column is divided by the square root of the number of
        columns of its parameter, so that a parameter (say a one-hot over three
        values), rather than each of its columns, is at distance omega when it
        is inactive in one row only.

    Returns
    -------
    E : ndarray of shape (n_samples, 2 * n_features)
        The sine coordinates of every column, then the cosine coordinates.

    Examples
    --------
    >>> import numpy as np
    >>> from sksel.spaces import arc_embedding
    >>> E = arc_embedding([[0.3], [0.3]], [[True], [False]], omega=2.0)
    >>> float(np.linalg.norm(E[0] - E[1]))
    2.0
    """
    F = _check_features(F)[0]
    active = np.asarray(active, dtype=bool)
    if active.shape != F.shape:
        raise ValueError(
            f"active must have the shape of F, {F.shape}; got {active.shape}."
        )
    n_features = F.shape[1]
    omega = _per_column(omega, n_features, "omega")
    rho = _per_column(rho, n_features, "rho")
    if np.any(omega <= 0):
        raise ValueError(f"omega must be positive; got {omega.tolist()}.")
    if np.any((rho < 0) | (rho > 1)):
        raise ValueError(f"rho must lie in [0, 1]; got {rho.tolist()}.")
    if groups is not None:
        groups = np.asarray(groups)
        if groups.shape != (n_features,):
            raise ValueError(
                f"groups must have shape (n_features,) = ({n_features},); "
                f"got {groups.shape}."
            )
        _, group_of, size = np.unique(groups, return_inverse=True, return_counts=True)
        omega = omega / np.sqrt(size[group_of])
    angle = np.pi * rho * F
    scale = omega * active
    return np.hstack([scale * np.sin(angle), scale * np.cos(angle)])


def arc_kernel(
    F, active_F, G=None, active_G=None, *, omega=1.0, rho=0.5, groups=None, bandwidth=1.0
):
    """Arc kernel: the RBF kernel over :func:`arc_embedding` of the rows.

    It is a valid (positive semi-definite) kernel over conditional spaces:
    two configurations are compared on the parameters both have, and one that
    lacks a parameter the other has is at distance omega on it, whatever the
    value of that parameter.

    Parameters
    ----------
    F : array-like of shape (n_samples_F, n_features)
        Features in [0, 1].
    active_F : array-like of bool of shape (n_samples_F, n_features)
        Whether each entry of `F` is active.
    G : array-like of shape (n_samples_G, n_features), default=None
        Features in [0, 1]; None means `F`.
    active_G : array-like of bool of shape (n_samples_G, n_features), default=None
        Whether each entry of `G` is active; given with `G` only.
    omega, rho, groups
        As in :func:`arc_embedding`.
    bandwidth : float, default=1.0
        Length scale, > 0, of the RBF kernel over the embedding.

    Returns
    -------
    K : ndarray of shape (n_samples_F, n_samples_G)
        Kernel values in (0, 1].

    Examples
    --------
    >>> import numpy as np
    >>> from sksel.spaces import arc_kernel
    >>> F = np.array([[0.5, 0.2], [0.5, 0.9], [0.5, 0.0]])
    >>> active = np.array([[True, False], [True, False], [True, True]])
    >>> K = arc_kernel(F, active, omega=1.0, bandwidth=1.0)
    >>> bool(K[0, 1] == 1.0), bool(K[0, 2] == K[1, 2])
    (True, True)
    """
    if (G is None) != (active_G is None):
        raise ValueError("G and active_G must be given together, or neither.")
    F, G = _check_features(F, G)
    E_F = arc_embedding(F, active_F, omega, rho, groups)
    E_G = E_F if active_G is None else arc_embedding(G, active_G, omega, rho, groups)
    return _rbf(E_F, E_G, bandwidth)


def configuration_kernel(kernel, F, active_F, G=None, active_G=None, *, groups=None,
                         bandwidth=1.0):
    """The kernel named `kernel` between featurized configurations.

    Parameters
    ----------
    kernel : {"rbf", "arc"}
        :func:`rbf_kernel` on the features (inactive entries are 0), or
        :func:`arc_kernel` on features and active-masks.
    F, active_F, G, active_G
        As in :func:`arc_kernel`; the masks are ignored by ``"rbf"``.
    groups : array-like of shape (n_features,), default=None
        As in :func:`arc_embedding`; ignored by ``"rbf"``.
    bandwidth : float, default=1.0
        Length scale, > 0.

    Returns
    -------
    K : ndarray of shape (n_samples_F, n_samples_G)

    Examples
    --------
    >>> import numpy as np
    >>> from sksel.spaces import configuration_kernel, rbf_kernel
    >>> F = np.array([[0.0], [0.5]])
    >>> active = np.ones_like(F, dtype=bool)
    >>> bool(np.all(configuration_kernel("rbf", F, active) == rbf_kernel(F)))
    True
    """
    if kernel == "arc":
        return arc_kernel(F, active_F, G, active_G, groups=groups, bandwidth=bandwidth)
    return rbf_kernel(F, G, bandwidth=bandwidth)


def _rbf(F, G, bandwidth):
    if (
        not isinstance(bandwidth, numbers.Real)
        or not np.isfinite(bandwidth)
        or bandwidth <= 0
    ):
        raise ValueError(f"bandwidth must be a positive number; got {bandwidth!r}.")
    return np.exp(-cdist(F, G, "sqeuclidean") / (2.0 * bandwidth**2))


def _check_features(F, G=None):
    """`F` and `G` (`F` when None) as 2-D float arrays with as many columns."""
    F = np.asarray(F, dtype=float)
    G = F if G is None else np.asarray(G, dtype=float)
    for name, X in (("F", F), ("G", G)):
        if X.ndim != 2:
            raise ValueError(
                f"{name} must be a 2-D array of shape (n_samples, n_features); "
                f"got shape {X.shape}."
            )
    if G.shape[1] != F.shape[1]:
        raise ValueError(f"F has {F.shape[1]} features but G has {G.shape[1]}.")
    return F, G


def _per_column(value, n_features, name):
    """`value` (a number or one per column) as an array of shape (n_features,)."""
    value = np.asarray(value, dtype=float)
    if value.ndim > 1 or value.size not in (1, n_features):
        raise ValueError(
            f"{name} must be a number or an array of shape (n_features,) = "
            f"({n_features},); got shape {value.shape}."
        )
    return np.broadcast_to(value, (n_features,))
