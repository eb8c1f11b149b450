"""RBF and Arc kernels over featurized configurations."""

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy.stats import loguniform, randint

from sksel.spaces import SearchSpace, arc_embedding, arc_kernel, default_bandwidth, rbf_kernel


def _assert_psd(K):
    assert_allclose(K, K.T, atol=1e-12)
    assert np.linalg.eigvalsh(K).min() >= -1e-10


def _tree_space():
    return SearchSpace(param_distributions=[
        {"model": ["lr"], "C": loguniform(1e-3, 1e3)},
        {"model": ["tree"], "depth": randint(1, 20), "criterion": ["gini", "entropy", "log_loss"]},
        {"model": ["mlp"], "layers": [1, 2, 3], "alpha": loguniform(1e-5, 1e-1)},
    ])


@pytest.mark.parametrize("bandwidth", [0.3, 1.0, 2.5])
def test_rbf_matches_double_loop(bandwidth):
    rng = np.random.RandomState(0)
    F, G = rng.rand(5, 3), rng.rand(4, 3)
    expected = np.array([
        [np.exp(-np.sum((f - g) ** 2) / (2 * bandwidth**2)) for g in G] for f in F
    ])
    assert_allclose(rbf_kernel(F, G, bandwidth=bandwidth), expected, rtol=1e-12)
    assert_allclose(rbf_kernel(F, bandwidth=bandwidth), rbf_kernel(F, F, bandwidth=bandwidth))
    _assert_psd(rbf_kernel(F, bandwidth=bandwidth))


@pytest.mark.parametrize("bandwidth", [0, -1.0, np.inf, np.nan, "1", None])
def test_rbf_bandwidth_checked(bandwidth):
    with pytest.raises(ValueError, match="bandwidth"):
        rbf_kernel([[0.0]], bandwidth=bandwidth)


def test_rbf_shape_checks():
    with pytest.raises(ValueError, match="2-D"):
        rbf_kernel([0.0, 1.0])
    with pytest.raises(ValueError, match="F has 2 features but G has 3"):
        rbf_kernel(np.zeros((2, 2)), np.zeros((2, 3)))


@pytest.mark.parametrize("k, d", [(1, 1), (10, 1), (20, 3), (100, 7)])
def test_default_bandwidth_closed_form(k, d):
    assert default_bandwidth(k, d) == pytest.approx(np.sqrt(2) / k ** (1 / d))
    if d == 1:
        assert default_bandwidth(k, d) == pytest.approx(np.sqrt(2) / k)


@pytest.mark.parametrize("k, d, name", [(0, 2, "k"), (2.5, 2, "k"), (10, 0, "d")])
def test_default_bandwidth_checked(k, d, name):
    with pytest.raises(ValueError, match=f"{name} must be a positive integer"):
        default_bandwidth(k, d)


@pytest.mark.parametrize("omega", [0.1, 1.0, 3.5])
@pytest.mark.parametrize("x", [0.0, 0.37, 1.0])
def test_arc_active_vs_inactive_is_omega(omega, x):
    F = np.array([[0.2, x], [0.2, x], [0.2, 0.9]])
    active = np.array([[True, True], [True, False], [True, False]])
    E = arc_embedding(F, active, omega=omega, rho=0.5)
    assert np.linalg.norm(E[0] - E[1]) == pytest.approx(omega)
    assert np.linalg.norm(E[0] - E[2]) == pytest.approx(omega)
    assert np.linalg.norm(E[1] - E[2]) == 0.0  # both inactive, whatever their values


@pytest.mark.parametrize("omega", [0.5, 2.0])
def test_arc_parameter_groups_are_at_distance_omega(omega):
    space = _tree_space()
    lr = {"model": "lr", "C": 1.0}
    configs = [
        {**lr, "depth": 5, "criterion": "gini"},  # tree parameters set but inactive
        dict(lr),
    ]
    F, active = space.featurize(configs)
    assert np.array_equal(F[0], F[1])
    # Switch on the criterion (a one-hot over 3 columns) in the first row only.
    criterion = space.feature_params_ == "criterion"
    active[0, criterion] = True
    F[0, criterion] = [0, 1, 0]
    E = arc_embedding(F, active, omega=omega, groups=space.feature_params_)
    assert np.linalg.norm(E[0] - E[1]) == pytest.approx(omega)
    E = arc_embedding(F, active, omega=omega)
    assert np.linalg.norm(E[0] - E[1]) == pytest.approx(omega * np.sqrt(3))


def test_arc_both_active_closed_form_and_order():
    rng = np.random.RandomState(0)
    x = rng.rand(15, 1)
    omega, rho = 1.7, 0.8
    E = arc_embedding(x, np.ones_like(x, dtype=bool), omega=omega, rho=rho)
    dist_E = np.linalg.norm(E[:, None] - E[None], axis=-1)
    dist_x = np.abs(x - x.T)
    assert_allclose(dist_E, 2 * omega * np.sin(np.pi * rho * dist_x / 2), atol=1e-12)
    by_x = np.argsort(dist_x, axis=None)
    assert np.all(np.diff(dist_E.ravel()[by_x]) >= -1e-12)


def test_arc_kernel_psd_and_blocks():
    space = _tree_space()
    F, active = space.featurize(space.sample(60, random_state=0))
    K = arc_kernel(F, active, omega=1.0, rho=0.5, groups=space.feature_params_, bandwidth=0.7)
    _assert_psd(K)
    assert_allclose(np.diag(K), 1.0)
    block = arc_kernel(F[:10], active[:10], F[10:], active[10:], omega=1.0, rho=0.5,
                       groups=space.feature_params_, bandwidth=0.7)
    assert_allclose(block, K[:10, 10:])
    _assert_psd(rbf_kernel(F, bandwidth=default_bandwidth(10, F.shape[1])))


def test_arc_kernel_ignores_inactive_values():
    # Swersky et al.: k((x1, off, x2), (x1', on, x2')) does not depend on x2.
    F = np.array([[0.3, 0.1], [0.3, 0.8], [0.6, 0.4]])
    active = np.array([[True, False], [True, False], [True, True]])
    K = arc_kernel(F, active)
    assert K[0, 1] == 1.0
    assert K[0, 2] == K[1, 2]


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"omega": 0.0}, "omega must be positive"),
        ({"omega": [1.0, -1.0]}, "omega must be positive"),
        ({"omega": [1.0, 1.0, 1.0]}, r"omega must be a number or an array of shape"),
        ({"rho": 1.5}, r"rho must lie in \[0, 1\]"),
        ({"groups": ["a"]}, "groups must have shape"),
        ({"active": [[True, False]]}, "active must have the shape of F"),
    ],
)
def test_arc_checks(kwargs, match):
    args = {"F": np.zeros((2, 2)), "active": np.ones((2, 2), dtype=bool), **kwargs}
    with pytest.raises(ValueError, match=match):
        arc_embedding(**args)


def test_arc_kernel_needs_active_with_g():
    with pytest.raises(ValueError, match="G and active_G"):
        arc_kernel(np.zeros((2, 1)), np.ones((2, 1), dtype=bool), G=np.zeros((2, 1)))
