"""DAUBPolicy and its helpers, without any estimator.

Learning curves are plain tables or closed-form functions of the training size,
so every allocation decision can be checked against hand-worked numbers or
against an independent re-implementation of the paper's pseudocode
(Sabharwal et al., AAAI 2016, Algorithm 1).
"""

import math
from fractions import Fraction
from functools import partial

import numpy as np
import pytest

from sksel._core.simulate import simulate
from sksel.daub import DAUBPolicy, accuracy_noise, daub_sizes
from sksel.daub.bound import monotone

# --------------------------------------------------------------------- helpers


def run_sequential(policy, valid, train=None, fit_time=None):
    """Drive `policy` one action at a time (`simulate`) with table/callable curves."""

    def read(table):
        if table is None:
            return None
        return lambda c, n: table[c](n) if callable(table[c]) else table[c][n]

    simulate(policy, read(valid), durations=read(fit_time), train_scores=read(train))
    assert policy.done, "a sequential driver must always get an action"
    return policy


def ls_slope(xs, ys):
    """Least-squares slope, closed form (independent of np.polyfit)."""
    xs, ys = np.asarray(xs, float), np.asarray(ys, float)
    dx = xs - xs.mean()
    return float(np.sum(dx * (ys - ys.mean())) / np.sum(dx * dx))


def reference_daub(valid, train, sizes, *, l=3, bound="train", stop="first"):
    """The paper's DAUB (its Algorithm 1), written from the pseudocode.

    `valid` / `train` map a learner to a callable of the size. Ties of the
    argmax go to the lowest index. Returns (history, selected learner).
    """
    M, N = len(valid), sizes[-1]
    fV = [dict() for _ in range(M)]  # corrected validation scores, by size
    fT = [dict() for _ in range(M)]
    history = []

    def train_learner(j, n):
        history.append((j, n))
        fV[j][n] = valid[j](n)
        fT[j][n] = train[j](n)
        previous = [m for m in fV[j] if m < n]
        if previous:
            p = max(previous)
            if fV[j][n] < fV[j][p]:
                fV[j][n] = fV[j][p] = (fV[j][n] + fV[j][p]) / 2

    def ub(j):
        pts = sorted(fV[j])[-l:]
        s = max(ls_slope(pts, [fV[j][m] for m in pts]), 0.0)
        n_j = max(fV[j])
        proj = fV[j][n_j] + (N - n_j) * s
        return min(fT[j][n_j], proj) if bound == "train" else proj

    for j in range(M):
        train_learner(j, sizes[0])
        train_learner(j, sizes[1])

    def finished():
        return [j for j in range(M) if N in fV[j]]

    def alive():
        return [j for j in range(M) if N not in fV[j]]

    while True:
        if finished():
            if stop == "first":
                break
            best_at_n = max(valid[j](N) for j in finished())
            if all(best_at_n >= ub(j) for j in alive()):
                break
        bounds = [ub(j) for j in alive()]
        j = alive()[int(np.argmax(bounds))]
        n_j = max(fV[j])
        train_learner(j, sizes[sizes.index(n_j) + 1])
    selected = max(finished(), key=lambda j: valid[j](N))
    return history, selected


# ------------------------------------------------------------------ daub_sizes


def test_daub_sizes_paper_setting():
    # b=500, r=1.5, N=38500: n_{i+1} = 500 * ceil(1.5 * n_i / 500)
    #  500 -> ceil(1.5)=2 -> 1000 -> ceil(3)=3 -> 1500 -> ceil(4.5)=5 -> 2500
    #  -> ceil(7.5)=8 -> 4000 -> 12 -> 6000 -> 18 -> 9000 -> 27 -> 13500
    #  -> ceil(40.5)=41 -> 20500 -> ceil(61.5)=62 -> 31000 -> min(N, 46500) = 38500
    assert daub_sizes(38500, b=500, r=1.5) == [
        500, 1000, 1500, 2500, 4000, 6000, 9000, 13500, 20500, 31000, 38500
    ]


@pytest.mark.parametrize("r", [1.25, 1.5, 2.0, 3.0])
@pytest.mark.parametrize("b", [1, 7, 50, 500])
@pytest.mark.parametrize("n_total", [37, 999, 38500])
def test_daub_sizes_formula(n_total, b, r):
    sizes = daub_sizes(n_total, b=b, r=r)
    assert sizes[0] == min(b, n_total)
    assert sizes[-1] == n_total
    assert all(s < t for s, t in zip(sizes, sizes[1:]))
    # Every size but the last is a multiple of b, and each is the smallest
    # multiple of b that is >= r times the previous one (exact arithmetic)...
    R = Fraction(r)
    for prev, nxt in zip(sizes[:-1], sizes[1:-1]):
        assert prev % b == 0
        assert nxt == b * math.ceil(R * prev / b)
    # ... except N, which comes instead of a size less than sqrt(r) below it.
    if len(sizes) > 1:
        skipped = b * math.ceil(R * sizes[-2] / b)
        assert skipped >= n_total or (n_total / skipped) ** 2 < R


def test_daub_sizes_skip_sliver_before_n_total():
    # 380 * 2**5 = 12160 is within sqrt(2) of N = 12172: straight to N.
    assert daub_sizes(12172, b=380, r=2.0) == [380, 760, 1520, 3040, 6080, 12172]
    # 16000 is 1.63 times below 26048, more than sqrt(2): kept.
    assert daub_sizes(26048, b=500, r=2.0)[-2:] == [16000, 26048]


@pytest.mark.parametrize("b", [100, 101, 10_000])
def test_daub_sizes_b_at_least_n_total(b):
    assert daub_sizes(100, b=b, r=1.5) == [100]


def test_daub_sizes_no_float_round_up():
    sizes = daub_sizes(200, b=1, r=1.1)
    assert 170 in sizes
    assert sizes[sizes.index(170) + 1] == 187  # ceil(1.1 * 170) = ceil(187) = 187


# ------------------------------------------------------------------- monotone


def test_monotone_correction_hand_example():
    # 0.5, 0.7 ok; 0.6 < 0.7 -> both (0.7 + 0.6) / 2 = 0.65; 0.8 >= 0.65 ok.
    np.testing.assert_allclose(monotone([0.5, 0.7, 0.6, 0.8]), [0.5, 0.65, 0.65, 0.8])
    # Cascade: 0.5 < 0.6 -> 0.55, 0.55; then 0.4 < 0.55 (the corrected value)
    # -> 0.475, 0.475; the first point keeps its corrected 0.55.
    np.testing.assert_allclose(monotone([0.6, 0.5, 0.4]), [0.55, 0.475, 0.475])
    # Non-decreasing curves and a single point are left alone; the input is not mutated.
    curve = [0.1, 0.1, 0.3]
    np.testing.assert_allclose(monotone(curve), curve)
    assert curve == [0.1, 0.1, 0.3]
    np.testing.assert_allclose(monotone([0.4]), [0.4])


# ----------------------------------------------------------------- upper_bound


def _policy_with_curve(valid, train=None, *, sizes, l=3, bound="train", **options):
    """One learner walked through the first len(valid) sizes by ask/tell."""
    policy = DAUBPolicy(1, sizes, l=l, bound=bound, **options)
    for i, v in enumerate(valid):
        assert policy.ask() == [(0, sizes[i])]
        policy.tell(0, sizes[i], v, train_score=None if train is None else train[i])
    assert not policy.done  # the told results are taken into account
    return policy


@pytest.mark.parametrize("l", [2, 3, 4])
def test_upper_bound_is_least_squares_projection(l):
    sizes = [100, 200, 300, 500, 800, 1200]
    valid = [0.50, 0.62, 0.58, 0.70, 0.74]  # 0.58 < 0.62: corrected to 0.60, 0.60
    corrected = np.array([0.50, 0.60, 0.60, 0.70, 0.74])
    n_seen = np.array(sizes[:5])
    slope = np.polyfit(n_seen[-l:], corrected[-l:], 1)[0]
    projection = 0.74 + (1200 - 800) * slope

    policy = _policy_with_curve(valid, sizes=sizes, l=l, bound="slope")
    assert policy.upper_bound(0) == pytest.approx(projection, rel=1e-12)

    # "train": the smaller of the training score at the last size and the projection.
    high, low = projection + 0.1, projection - 0.1
    for train_last, expected in [(high, projection), (low, low)]:
        train = [0.99, 0.98, 0.97, 0.96, train_last]
        policy = _policy_with_curve(valid, train, sizes=sizes, l=l, bound="train")
        assert policy.upper_bound(0) == pytest.approx(expected, rel=1e-12)
        # "slope" ignores the training score.
        policy = _policy_with_curve(valid, train, sizes=sizes, l=l, bound="slope")
        assert policy.upper_bound(0) == pytest.approx(projection, rel=1e-12)


def test_upper_bound_negative_slope_is_clipped():
    # Corrected curve 0.8, 0.7, 0.7 (0.6 < 0.8 -> 0.7, 0.7; 0.7 >= 0.7):
    # least-squares slope < 0, clipped to 0: the bound is the last corrected score.
    policy = _policy_with_curve([0.8, 0.6, 0.7], sizes=[100, 200, 300, 400], bound="slope")
    assert policy.upper_bound(0) == pytest.approx(0.7)


def test_upper_bound_one_point_is_unbounded_or_train():
    policy = _policy_with_curve([0.5], sizes=[100, 200, 400], bound="slope")
    assert policy.upper_bound(0) == np.inf
    policy = _policy_with_curve([0.5], [0.9], sizes=[100, 200, 400], bound="train")
    assert policy.upper_bound(0) == pytest.approx(0.9)


def _line_projection(x, scores, x_total, noise=0.0):
    """Closed form of the bound: least-squares line through the points, raised by noise."""
    x, scores = np.asarray(x, dtype=float), np.asarray(scores, dtype=float)
    xc = x - x.mean()
    slope = np.sum(xc * (scores - scores.mean())) / np.sum(xc**2)
    slope += noise / np.sqrt(np.sum(xc**2))
    return scores[-1] + (x_total - x[-1]) * max(slope, 0.0)


SIZES = [500, 1000, 2000, 4000, 8000, 16000]


@pytest.mark.parametrize("noise", [0.0, 0.01])
def test_auto_projection_log_for_diminishing_returns(noise):
    # Gains per doubling 0.04, 0.02: diminishing, so the line is drawn in log(rows).
    valid = [0.70, 0.74, 0.76]
    policy = _policy_with_curve(valid, sizes=SIZES, bound="slope", projection="auto",
                                noise=noise)
    expected = _line_projection(np.log(SIZES[:3]), valid, np.log(16000), noise)
    assert policy.upper_bound(0) == pytest.approx(expected, rel=1e-12)
    log = _policy_with_curve(valid, sizes=SIZES, bound="slope", projection="log", noise=noise)
    assert log.upper_bound(0) == pytest.approx(expected, rel=1e-12)


def test_noise_of_the_latest_score():
    """A callable noise is taken at the curve's latest (corrected) score."""
    valid = [0.90, 0.93, 0.95]
    noise = partial(accuracy_noise, n_validation=400)
    policy = _policy_with_curve(valid, sizes=SIZES, bound="slope", projection="log",
                                noise=noise)
    expected = _line_projection(np.log(SIZES[:3]), valid, np.log(16000), noise(0.95))
    assert policy.upper_bound(0) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("p,n", [(0.5, 10_000), (0.9, 10_000), (0.99, 50_000)])
def test_accuracy_noise_is_the_binomial_standard_error(p, n):
    """Against the standard deviation of binomial accuracies, and its closed form."""
    accuracies = np.random.RandomState(0).binomial(n, p, size=20_000) / n
    assert accuracy_noise(p, n) == pytest.approx(np.sqrt(p * (1 - p) / n), rel=1e-3)
    assert accuracy_noise(p, n) == pytest.approx(accuracies.std(), rel=0.02)
    # A perfect score on few rows keeps some noise: at least one error in n + 2.
    assert accuracy_noise(1.0, 50) > np.sqrt(1 / 52 * (1 - 1 / 52) / 52) * 0.99


@pytest.mark.parametrize(
    "valid,noise",
    [
        ([0.50, 0.51], 0.0),  # two points: no evidence of diminishing returns yet
        ([0.50, 0.52, 0.60], 0.0),  # accelerating: 0.02 then 0.08 per doubling
        ([0.70, 0.74, 0.76, 0.80], 0.0),  # 0.04, 0.02, then 0.04: accelerates again
        ([0.50, 0.52, 0.56], 0.009),  # 0.04 > 0.02 + 2 * 0.009
    ],
)
def test_auto_projection_linear_otherwise(valid, noise):
    policy = _policy_with_curve(valid, sizes=SIZES, bound="slope", projection="auto",
                                noise=noise)
    n = len(valid)
    expected = _line_projection(SIZES[max(0, n - 3):n], valid[-3:], 16000, noise)
    assert policy.upper_bound(0) == pytest.approx(expected, rel=1e-12)


def test_auto_projection_tolerates_noise():
    # 0.04 then 0.05 per doubling: accelerating by 0.01, within 2 * noise = 0.02.
    valid = [0.50, 0.54, 0.59]
    flat = _policy_with_curve(valid, sizes=SIZES, bound="slope", projection="auto", noise=0.0)
    noisy = _policy_with_curve(valid, sizes=SIZES, bound="slope", projection="auto", noise=0.01)
    assert flat.upper_bound(0) == pytest.approx(_line_projection(SIZES[:3], valid, 16000))
    assert noisy.upper_bound(0) == pytest.approx(
        _line_projection(np.log(SIZES[:3]), valid, np.log(16000), 0.01))


def test_bound_capped_at_max_score():
    policy = _policy_with_curve([0.5, 0.9], sizes=SIZES, bound="slope", max_score=1.0)
    assert _line_projection(SIZES[:2], [0.5, 0.9], 16000) > 1.0
    assert policy.upper_bound(0) == 1.0
    one_point = _policy_with_curve([0.5], sizes=SIZES, bound="slope", max_score=1.0)
    assert one_point.upper_bound(0) == 1.0


@pytest.mark.parametrize("warm_up", [1, 2, 3, 6])
def test_warm_up_sizes(warm_up):
    policy = DAUBPolicy(3, SIZES, warm_up=warm_up)
    expected = [(c, n) for c in range(3) for n in SIZES[:warm_up]]
    assert policy.ask(len(expected) + 5) == expected


def test_not_speculative_asks_give_the_warm_up_and_the_decisions_only():
    policy = DAUBPolicy(3, SIZES, warm_up=2)
    warm_up = [(c, n) for c in range(3) for n in SIZES[:2]]
    assert policy.ask(10, speculative=False) == warm_up  # every one of them is used
    for c, n in warm_up:
        policy.tell(c, n, 0.6 + 0.1 * c + n / 100_000)
    assert len(policy.ask(5, speculative=False)) == 1  # the decision
    assert policy.ask(5, speculative=False) == []
    assert len(policy.ask(5)) == 2  # the other learners' next steps, speculatively


# ------------------------------------------------------- hand-worked allocation

# Three learners, sizes 100, 200, 300, 500, 800 (N = 800), l = 3, bound="train".
HAND_VALID = {
    0: {100: 0.60, 200: 0.70, 300: 0.75, 500: 0.78, 800: 0.80},
    1: {100: 0.50, 200: 0.65, 300: 0.68, 500: 0.69, 800: 0.70},
    2: {100: 0.72, 200: 0.70, 300: 0.70, 500: 0.70, 800: 0.70},
}
HAND_TRAIN = {
    0: {100: 0.95, 200: 0.90, 300: 0.86, 500: 0.79, 800: 0.81},
    1: {100: 1.00, 200: 0.95, 300: 0.80, 500: 0.78, 800: 0.75},
    2: {100: 0.76, 200: 0.75, 300: 0.75, 500: 0.75, 800: 0.75},
}
# Worked by hand:
# warm-up: (0,100) (0,200) (1,100) (1,200) (2,100) (2,200)
#   ub0 = min(0.90, 0.70 + 600 * 0.001)  = 0.90
#   ub1 = min(0.95, 0.65 + 600 * 0.0015) = 0.95
#   ub2: 0.70 < 0.72 -> corrected 0.71, 0.71, slope 0 -> min(0.75, 0.71) = 0.71
# -> (1,300): slope of (100,.50) (200,.65) (300,.68) = (11 + 7) / 20000 = 0.0009
#   ub1 = min(0.80, 0.68 + 500 * 0.0009 = 1.13) = 0.80 < ub0 = 0.90
# -> (0,300): slope of (.60, .70, .75) = (8.33 + 6.67) / 20000 = 0.00075
#   ub0 = min(0.86, 0.75 + 500 * 0.00075 = 1.125) = 0.86
# -> (0,500): slope of (200,.70) (300,.75) (500,.78) = 11.667 / 46666.7 = 0.00025
#   ub0 = min(0.79, 0.78 + 300 * 0.00025 = 0.855) = 0.79 < ub1 = 0.80
# -> (1,500): slope of (200,.65) (300,.68) (500,.69) = 5.667 / 46666.7 = 0.000121
#   ub1 = min(0.78, 0.69 + 300 * 0.000121 = 0.7264) = 0.7264 < ub0 = 0.79
# -> (0,800): learner 0 reaches N with 0.80, above ub1 = 0.7264 and ub2 = 0.71,
#   so both stopping rules end here and select learner 0.
HAND_HISTORY = [
    (0, 100), (0, 200), (1, 100), (1, 200), (2, 100), (2, 200),
    (1, 300), (0, 300), (0, 500), (1, 500), (0, 800),
]


@pytest.mark.parametrize("stop", ["first", "strict"])
def test_hand_worked_allocation(stop):
    policy = DAUBPolicy(3, [100, 200, 300, 500, 800], l=3, bound="train", stop=stop)
    run_sequential(policy, HAND_VALID, HAND_TRAIN)
    assert policy.history_ == HAND_HISTORY
    assert policy.best_ == 0
    # Final bounds of the two learners left behind, as worked out above.
    slope1 = np.polyfit([200, 300, 500], [0.65, 0.68, 0.69], 1)[0]
    assert slope1 == pytest.approx(17 / 140_000)
    assert policy.upper_bound(1) == pytest.approx(0.69 + 300 * slope1)
    assert policy.upper_bound(2) == pytest.approx(0.71)
    assert policy.ask() == []


@pytest.mark.parametrize("stop", ["first", "strict"])
def test_jump_sends_a_learner_from_the_last_rungs_to_n(stop):
    """With jump=2, learner 0's step to 500 >= 800 / 2 goes to 800 at once."""
    policy = DAUBPolicy(3, [100, 200, 300, 500, 800], l=3, bound="train", stop=stop, jump=2)
    run_sequential(policy, HAND_VALID, HAND_TRAIN)
    # Learner 0 scores 0.80 at N, at least ub1 = 0.80 and ub2 = 0.71: both rules stop.
    assert policy.history_ == HAND_HISTORY[:8] + [(0, 800)]
    assert policy.best_ == 0


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("jump", [1.0, 3.0, 6.0])
def test_jump_skips_exactly_the_sizes_from_n_over_jump(seed, jump):
    valid, train = _random_curves(np.random.RandomState(seed), n_learners=6)
    sizes = daub_sizes(38500, b=500, r=2)
    policy = run_sequential(DAUBPolicy(6, sizes, jump=jump, stop="strict"), valid, train)
    asked = {size for _, size in policy.history_[2 * 6:]}  # after the warm-up
    assert all(size < 38500 / jump or size == 38500 for size in asked)
    if jump == 1.0:
        history, _ = reference_daub(valid, train, sizes, l=3, bound="train", stop="strict")
        assert policy.history_ == history


@pytest.mark.parametrize("tol,expected_last", [(0.0, (1, 400)), (0.005, (0, 400))])
def test_strict_stop_leaves_a_bound_within_tol_of_the_best_at_n(tol, expected_last):
    # Learner 0 reaches N with 0.80; learner 1's bound is 0.794 + 200 * 0.00004 = 0.802.
    valid = {0: {100: 0.70, 200: 0.75, 400: 0.80}, 1: {100: 0.79, 200: 0.794, 400: 0.795}}
    policy = run_sequential(
        DAUBPolicy(2, [100, 200, 400], l=2, bound="slope", stop="strict", tol=tol), valid)
    assert policy.history_[4] == (0, 400)
    assert policy.history_[-1] == expected_last
    assert policy.best_ == 0


# ------------------------------------------------------- stop: first vs strict

# Learner 0 climbs fast (high bound) but plateaus at 0.75; learner 1 is flat at
# 0.78 from the start, so its already observed score beats learner 0 at N.
LATE_VALID = {
    0: {100: 0.50, 200: 0.60, 300: 0.68, 500: 0.74, 800: 0.75},
    1: {n: 0.78 for n in (100, 200, 300, 500, 800)},
}
LATE_TRAIN = {0: {n: 0.99 for n in (100, 200, 300, 500, 800)},
              1: {n: 0.80 for n in (100, 200, 300, 500, 800)}}
# ub1 = min(0.80, 0.78 + 0) = 0.78 throughout; ub0 = 0.99, 0.99, then
# min(0.99, 0.74 + 300 * 0.000443) = 0.873: learner 0 gets every size first.
LATE_COMMON = [(0, 100), (0, 200), (1, 100), (1, 200), (0, 300), (0, 500), (0, 800)]


def test_stop_first_selects_first_learner_at_n():
    policy = run_sequential(DAUBPolicy(2, [100, 200, 300, 500, 800], stop="first"),
                            LATE_VALID, LATE_TRAIN)
    assert policy.history_ == LATE_COMMON
    assert policy.best_ == 0


def test_stop_strict_selects_truly_better_learner():
    policy = run_sequential(DAUBPolicy(2, [100, 200, 300, 500, 800], stop="strict"),
                            LATE_VALID, LATE_TRAIN)
    # After 0 reaches N with 0.75, learner 1's bound 0.78 is higher: it goes on.
    assert policy.history_ == LATE_COMMON + [(1, 300), (1, 500), (1, 800)]
    assert policy.best_ == 1


# ------------------------------------------- against the paper's pseudocode


def _random_curves(rng, n_learners):
    """Concave increasing validation curves below decreasing training curves."""
    valid, train = {}, {}
    for k in range(n_learners):
        a = rng.uniform(0.6, 0.95)
        c = rng.uniform(0.5, 8.0)
        alpha = rng.uniform(0.3, 0.9)
        d = rng.uniform(0.5, 5.0)
        valid[k] = lambda n, a=a, c=c, alpha=alpha: a - c * n ** -alpha
        train[k] = lambda n, a=a, d=d: min(1.0, a + d / np.sqrt(n))
    return valid, train


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("stop", ["first", "strict"])
@pytest.mark.parametrize("bound,l", [("train", 3), ("slope", 2), ("slope", 4)])
def test_matches_reference_pseudocode(seed, stop, bound, l):
    rng = np.random.RandomState(seed)
    valid, train = _random_curves(rng, n_learners=6)
    sizes = daub_sizes(38500, b=500, r=1.5)
    policy = DAUBPolicy(6, sizes, l=l, bound=bound, stop=stop)
    run_sequential(policy, valid, train)
    history, selected = reference_daub(valid, train, sizes, l=l, bound=bound, stop=stop)
    assert policy.history_ == history
    assert policy.best_ == selected


def test_starved_learners_never_come_back():
    """Once a learner's bound is below the leader's score, it gets no more data."""
    sizes = daub_sizes(38500, b=500, r=1.5)
    n_starved = 0
    for seed in range(20):
        rng = np.random.RandomState(100 + seed)
        valid, train = _random_curves(rng, n_learners=6)
        policy = DAUBPolicy(6, sizes, bound="train", stop="strict")
        latest = {}
        cut_at = {}  # learner -> position in history_ when its bound fell below
        while not policy.done:
            ((c, n),) = policy.ask()
            policy.tell(c, n, valid[c](n), train_score=train[c](n))
            latest[c] = (n, valid[c](n))
            leader_score = max(v for _, v in latest.values())
            for k, (n_k, _) in latest.items():
                if k in cut_at or len([m for m in sizes if m <= n_k]) < 2:
                    continue
                # Bound of k computed independently (curves are increasing, so
                # the monotone correction is a no-op).
                pts = [m for m in sizes if m <= n_k][-3:]
                slope = max(ls_slope(pts, [valid[k](m) for m in pts]), 0.0)
                bound_k = min(train[k](n_k), valid[k](n_k) + (sizes[-1] - n_k) * slope)
                if bound_k < leader_score:
                    cut_at[k] = len(policy.history_)
        for k, position in cut_at.items():
            assert k not in [c for c, _ in policy.history_[position:]]
            n_starved += 1
        # The selected learner is the best one at N among those that reached it,
        # and no starved learner is the true best at N.
        best_true = max(range(6), key=lambda k: valid[k](sizes[-1]))
        assert policy.best_ == best_true
    assert n_starved >= 20  # the property was exercised, not vacuous


# --------------------------------------------------------------------- failures


def test_failure_on_some_folds_below_n_leaves_a_hole_and_the_candidate_goes_on():
    sizes = [100, 200, 300, 500, 800]
    policy = DAUBPolicy(3, sizes, stop="strict", bound="slope", l=2)
    curves = {0: lambda n: 0.7 + n / 10_000, 1: lambda n: 0.9 + n / 10_000,
              2: lambda n: 0.8 + n / 10_000}
    while not policy.done:
        ((c, n),) = policy.ask()
        if c == 1 and n == 200:
            policy.tell(c, n, 0.5, failed=True, fold_scores=[0.9, np.nan])
        elif c == 1 and n == 300:
            policy.tell(c, n, np.nan, fold_scores=[np.nan, 0.9])  # NaN counts as a failure
        else:
            policy.tell(c, n, curves[c](n))
    # Learner 1 keeps one score (at 100): no bound, so it gets every next
    # size, and is the best at N.
    assert [n for c, n in policy.history_ if c == 1] == sizes
    assert policy.best_ == 1
    assert policy.upper_bound(1) == curves[1](800)


@pytest.mark.parametrize("fold_scores", [None, [np.nan], [np.nan, np.nan]])
def test_failure_on_every_fold_below_n_sends_the_candidate_to_n_once(fold_scores):
    """A learner that cannot fit 100 rows may fit N, as a grid search would try it: it skips
    the sizes between and gets one try at N; failing there too, it is given up. On main it
    was given up at 100."""
    sizes = [100, 200, 300, 500, 800]
    policy = DAUBPolicy(3, sizes, stop="strict", bound="slope", l=2)
    curves = {0: lambda n: 0.7 + n / 10_000, 2: lambda n: 0.8 + n / 10_000}
    while not policy.done:
        ((c, n),) = policy.ask()
        if c == 1:
            policy.tell(c, n, np.nan, failed=True, fold_scores=fold_scores)
        else:
            policy.tell(c, n, curves[c](n))
    assert [n for c, n in policy.history_ if c == 1] == [100, 800]
    assert policy.sent_to_n_ == {1: 100} and policy.given_up_ == {1}
    assert policy.best_ == 2


@pytest.mark.parametrize("stop", ["first", "strict"])
def test_a_candidate_sent_to_n_is_tried_there_once_the_run_stops_and_may_win(stop):
    """The try at N comes once the paper's run is over (it would stop); the candidate, scored
    on every fold there, is the best and selected."""
    sizes = [100, 200, 300, 500, 800]
    policy = DAUBPolicy(3, sizes, stop=stop, bound="slope", l=2)
    curves = {0: lambda n: 0.7 + n / 10_000, 2: lambda n: 0.8 + n / 10_000}
    while not policy.done:
        ((c, n),) = policy.ask()
        if c == 1 and n < 800:
            policy.tell(c, n, np.nan, failed=True, fold_scores=[np.nan] * 3)
        else:
            score = 0.95 if c == 1 else curves[c](n)
            policy.tell(c, n, score, fold_scores=[score] * 3 if n == 800 else None)
    decisions = policy.decisions_
    assert decisions[-1] == (1, 800) and [n for c, n in decisions if c == 1] == [100, 800]
    assert (2, 800) in decisions  # the paper's run reached N before the try
    assert policy.best_ == 1 and policy.given_up_ == set()


def test_the_first_fold_of_a_try_at_n_decides_it():
    """A try at N whose first fold failed needs no other fold: it is given up, and its result
    holds that fold only (a worker may have fitted the others ahead); a failed first fold of
    any other learner at N ends nothing. A try failing on a later fold is given up too, never
    retried: no more fits than a grid search's."""
    sizes = [100, 200, 400]
    policy = DAUBPolicy(3, sizes, stop="strict", bound="slope", l=2)
    at_n = {0: [np.nan, 0.95, 0.95], 1: [0.95, np.nan, 0.95], 2: [0.9] * 3}
    while not policy.done:
        ((c, n),) = policy.ask()
        if n == 400:
            assert policy.enough_folds(c, n, [np.nan]) == (c != 2)
            assert not policy.enough_folds(c, n, [0.95])
            scores = at_n[c]
        else:
            scores = [np.nan] if (c, n) in ((0, 100), (1, 200)) else [0.5 + n / 1000]
        policy.tell(c, n, np.mean(scores), failed=bool(np.isnan(scores).any()),
                    fold_scores=scores)
    assert policy.sent_to_n_ == {0: 100, 1: 200}
    assert [n for c, n in policy.decisions_ if c == 0] == [100, 400]  # skipped 200
    assert policy.decisions_[-2:] == [(0, 400), (1, 400)]
    assert policy.folds_used_ == {(0, 400): 1}
    assert policy.given_up_ == {0, 1} and policy.best_ == 2
    assert [policy.history_.count((c, 400)) for c in range(3)] == [1, 1, 1]


def test_failure_at_n_on_some_folds_is_retried_once_then_given_up():
    sizes = [100, 200, 400]
    fails_at_n = {0: 0, 1: 1, 2: 2}  # how many of its evaluations at N fail
    policy = DAUBPolicy(3, sizes, stop="strict", bound="slope", l=2)
    seen = dict.fromkeys(range(3), 0)
    while not policy.done:
        ((c, n),) = policy.ask()
        if n == 400:
            seen[c] += 1
            failed = seen[c] <= fails_at_n[c]
            score = 0.9 + c / 100
            policy.tell(c, n, score, failed=failed,
                        fold_scores=[score, np.nan if failed else score])
        else:
            policy.tell(c, n, 0.5 + n / 1000 + c / 10)
    assert [policy.history_.count((c, 400)) for c in range(3)] == [0, 2, 2]
    # 2 is given up; 1 succeeded on its retry and beats the bound of 0 (0.9).
    assert policy.best_ == 1
    assert policy.ask() == []


def test_given_up_candidate_gets_no_more_data():
    """A candidate whose worker died twice is given up at once, below N too."""
    sizes = [100, 200, 300, 500, 800]
    policy = DAUBPolicy(2, sizes, stop="strict", bound="slope", l=2)
    while not policy.done:
        ((c, n),) = policy.ask()
        policy.tell(c, n, np.nan if c == 0 and n == 200 else 0.7 + n / 10_000 + c / 100,
                    failed=c == 0 and n == 200, give_up=c == 0 and n == 200)
    assert [n for c, n in policy.history_ if c == 0] == [100, 200]
    assert policy.best_ == 1


@pytest.mark.parametrize("stop", ["first", "strict"])
@pytest.mark.parametrize("n_asked", [1, 3])
def test_all_failed(stop, n_asked):
    sizes = [100, 200, 400]
    policy = DAUBPolicy(4, sizes, stop=stop)
    while not policy.done:
        actions = policy.ask(n_asked)
        assert actions
        for c, n in actions:
            policy.tell(c, n, np.nan if c % 2 else 0.5, failed=c % 2 == 0)
    assert policy.best_ is None
    # Every candidate fails on every fold of its first size (no fold_scores told), and of its
    # try at N: the end.
    for c in range(4):
        assert [n for k, n in policy.decisions_ if k == c] == [sizes[0], sizes[-1]]
    if n_asked == 1:
        assert policy.history_ == policy.decisions_
    assert policy.ask() == []


# -------------------------------------------------------------------------- tol


def _run_with_tol(tol, fit_time):
    sizes = [100, 200, 300, 500, 800]
    policy = DAUBPolicy(2, sizes, bound="slope", stop="first", tol=tol)
    curves = {0: lambda n: 0.7 + n / 10_000, 1: lambda n: 0.69 + n / 10_000}
    return run_sequential(policy, curves, fit_time=fit_time).history_


def test_tol_prefers_the_smaller_next_subsample_of_tied_learners():
    warm_up = [(0, 100), (0, 200), (1, 100), (1, 200)]
    # tol=0: the argmax, learner 0 all the way; bounds 0.01 apart are tied
    # within tol=0.05, and the learner whose next subsample is smaller goes first.
    assert _run_with_tol(0.0, None) == warm_up + [(0, 300), (0, 500), (0, 800)]
    assert _run_with_tol(0.05, None) == warm_up + [
        (0, 300), (1, 300), (0, 500), (1, 500), (0, 800)]
    assert _run_with_tol(0.005, None) == _run_with_tol(0.0, None)


@pytest.mark.parametrize("tol", [0.0, 0.05])
def test_decisions_do_not_depend_on_fit_times(tol):
    slow_first = {0: lambda n: n / 10, 1: lambda n: n / 1000}
    slow_second = {0: lambda n: n / 1000, 1: lambda n: n / 10}
    assert _run_with_tol(tol, slow_first) == _run_with_tol(tol, slow_second)


# ------------------------------------------------------------- concurrent asks


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("stop", ["first", "strict"])
@pytest.mark.parametrize("bound", ["train", "slope"])
def test_concurrent_asks_follow_the_sequential_run(seed, stop, bound):
    """Several workers, results told in random order: the decisions and the
    selection are those of the one-at-a-time run, and actions are never doubled."""
    rng = np.random.RandomState(seed)
    valid, train = _random_curves(rng, n_learners=7)
    sizes = daub_sizes(5000, b=250, r=1.5)
    warm_up = set(sizes[:2])
    sequential = run_sequential(DAUBPolicy(7, sizes, stop=stop, bound=bound), valid, train)

    policy = DAUBPolicy(7, sizes, stop=stop, bound=bound)
    pending = []
    for _ in range(10_000):
        actions = policy.ask(int(rng.randint(1, 5)))
        assert len(set(actions)) == len(actions)
        assert not set(actions) & set(pending)
        pending.extend(actions)
        # Past the warm-up sizes, a candidate never has two actions in flight.
        late = [c for c, n in pending if n not in warm_up]
        assert len(late) == len(set(late))
        assert not set(late) & {c for c, n in pending if n in warm_up}
        if not pending:
            # Nothing in flight: the policy must be done, not stuck.
            assert policy.done
            break
        c, n = pending.pop(rng.randint(len(pending)))
        policy.tell(c, n, valid[c](n), train_score=train[c](n))
    else:
        pytest.fail("the policy never finished")
    assert len(set(policy.history_)) == len(policy.history_)  # nothing run twice
    assert set(policy.decisions_) <= set(policy.history_)
    assert policy.decisions_ == sequential.history_
    assert policy.best_ == sequential.best_
    # Every candidate walks the sizes in order, with no gap.
    for c in range(7):
        walked = [n for k, n in policy.history_ if k == c]
        assert walked == sizes[: len(walked)]
    if stop == "strict":
        assert policy.best_ == max(range(7), key=lambda k: valid[k](sizes[-1]))


def test_ask_many_at_start_gives_warm_up():
    policy = DAUBPolicy(3, [100, 200, 400, 800])
    assert policy.ask(10) == [(c, n) for c in range(3) for n in (100, 200)]
    assert policy.ask(5) == []  # nothing more until a result is told
    assert not policy.done


# ---------------------------------------------------------- short schedules


@pytest.mark.parametrize("stop", ["first", "strict"])
@pytest.mark.parametrize("sizes", [[100], [50, 100]])
def test_short_schedule_warm_up_covers_every_candidate(sizes, stop):
    """One or two sizes (b >= N, or r * b >= N): the warm-up already reaches N.

    The paper trains every learner on n_0 and n_1 before its stop test, so all
    candidates are compared on N and the best one is selected.
    """
    scores = {0: 0.5, 1: 0.9, 2: 0.7}
    policy = DAUBPolicy(3, sizes, stop=stop, bound="slope")
    run_sequential(policy, {c: (lambda n, s=s: s + n / 1000) for c, s in scores.items()})
    assert policy.history_ == [(c, n) for c in range(3) for n in sizes]
    assert policy.best_ == 1


# ------------------------------------------- late bloomers: the learned bound and widening

# Sizes of a 16,000-row training fold; learner 1 trails until 4,000 rows, then
# leads (the shape of a boosting learner with a low learning rate).
BLOOM_SIZES = [500, 1000, 2000, 4000, 8000, 16000]
BLOOM_CURVES = {
    0: {500: 0.80, 1000: 0.82, 2000: 0.83, 4000: 0.835, 8000: 0.84, 16000: 0.842},
    1: {500: 0.60, 1000: 0.64, 2000: 0.68, 4000: 0.74, 8000: 0.82, 16000: 0.88},
    2: {500: 0.70, 1000: 0.72, 2000: 0.73, 4000: 0.735, 8000: 0.74, 16000: 0.74},
}


def _bloom_policy(bound):
    """DAUBSearch's defaults for accuracy on 4,000 validation rows."""
    return DAUBPolicy(3, BLOOM_SIZES, bound=bound, projection="auto", max_score=1.0,
                      noise=partial(accuracy_noise, n_validation=4000), stop="strict",
                      tol=0.005, warm_up=3, jump=3.0)


def test_learned_bound_keeps_the_late_bloomer_the_slope_drops():
    # Brute force: learner 1 is the best at N.
    assert max(BLOOM_CURVES, key=lambda c: BLOOM_CURVES[c][16000]) == 1
    slope = run_sequential(_bloom_policy("slope"), BLOOM_CURVES)
    # Its three points gain 0.04 per doubling: 0.80 at N by the log slope,
    # below learner 0's 0.842, so it never gets more than 2,000 rows.
    assert slope.best_ == 0
    assert max(n for c, n in slope.history_ if c == 1) == 2000
    prior = run_sequential(_bloom_policy("prior"), BLOOM_CURVES)
    assert prior.best_ == 1
    assert (1, 16000) in prior.history_
    assert prior.upper_bound(1) == 0.88  # at N, the bound is the score


def test_learned_bound_is_the_prior_rise_above_the_slope_projection():
    from sksel.daub.curve_prior import prior_rise

    prior, slope = _bloom_policy("prior"), _bloom_policy("slope")
    for policy in (prior, slope):
        for c in (0, 1):  # in the warm-up's order, so that the run uses them
            for n in BLOOM_SIZES[:3]:
                policy.tell(c, n, BLOOM_CURVES[c][n])
    rise = prior_rise(BLOOM_SIZES[:3], [0.60, 0.64, 0.68], 16000, accuracy_noise(0.68, 4000))
    assert rise > 0.1
    assert prior.bound_at(1, 2000) == pytest.approx(0.68 + rise)
    assert prior.bound_at(1, 2000) > slope.bound_at(1, 2000)


def test_learned_bound_only_for_scores_in_the_unit_interval():
    policy = DAUBPolicy(1, BLOOM_SIZES, bound="prior", max_score=np.inf, warm_up=3)
    slope = DAUBPolicy(1, BLOOM_SIZES, bound="slope", max_score=np.inf, warm_up=3)
    for p in (policy, slope):
        for n in BLOOM_SIZES[:3]:
            p.tell(0, n, BLOOM_CURVES[1][n])
    assert policy.bound_at(0, 2000) == slope.bound_at(0, 2000)


def test_a_learner_beating_its_bound_at_n_widens_every_bound():
    # Log projections of two points, no noise. Learner 0's last bound before N,
    # from (400, .74) and (800, .76), is 0.78; it scores 0.84 there: a rise of
    # 0.08 where 0.02 was bounded, so every bound's rise is multiplied by 4.
    # Learner 1's bound from (100, .60) and (200, .64) becomes
    # 0.64 + 4 * 0.12 = 1.12 (0.76 before): it is not dropped, and ends best.
    sizes = [100, 200, 400, 800, 1600]
    curves = {0: {100: 0.70, 200: 0.72, 400: 0.74, 800: 0.76, 1600: 0.84},
              1: {100: 0.60, 200: 0.64, 400: 0.70, 800: 0.78, 1600: 0.90}}
    policy = DAUBPolicy(2, sizes, l=2, bound="slope", projection="log", stop="strict",
                        warm_up=2)
    for action in [(0, 100), (0, 200), (1, 100), (1, 200), (0, 400), (0, 800), (0, 1600)]:
        assert policy.ask() == [action]
        policy.tell(*action, curves[action[0]][action[1]])
    assert policy.ask() == [(1, 400)]
    assert policy.widening_ == pytest.approx(4.0)
    assert policy.upper_bound(1) == pytest.approx(1.12)
    policy.tell(1, 400, curves[1][400])
    run_sequential(policy, curves)
    assert policy.best_ == 1


def test_the_paper_bound_is_never_widened():
    policy = run_sequential(
        DAUBPolicy(3, [100, 200, 300, 500, 800], l=3, bound="train", stop="strict"),
        HAND_VALID, HAND_TRAIN)
    # Learner 0 scored 0.80 at N above its bound 0.79: the paper's bound stays.
    assert policy.widening_ == 1.0


# ------------------------------------------------------------- costs in seconds

COST_SIZES = [100, 200, 400, 800, 1600, 3200]


def _flat_and_linear(n_candidates=2):
    """Learner 0's fit takes 1 s at any size; the others' grow with the rows."""
    return {c: (lambda n: 1.0) if c == 0 else (lambda n: n / 1000) for c in range(n_candidates)}


def test_a_learner_with_flat_cost_skips_the_rest_of_its_warm_up():
    valid = {0: lambda n: 0.9, 1: lambda n: 0.5 + n / 10_000}
    policy = DAUBPolicy(2, COST_SIZES, warm_up=3, jump=3.0, cost="time", stop="strict")
    run_sequential(policy, valid, fit_time=_flat_and_linear())
    # After 100 and 200 rows at 1 s each, 3,200 rows cost 1 s too: straight to N.
    assert [n for c, n in policy.history_ if c == 0] == [100, 200, 3200]
    assert [n for c, n in policy.history_ if c == 1][:3] == [100, 200, 400]
    assert policy.fit_times_[0, 3200] == 1.0
    rows = DAUBPolicy(2, COST_SIZES, warm_up=3, jump=3.0, cost="rows", stop="strict")
    run_sequential(rows, valid, fit_time=_flat_and_linear())
    assert [n for c, n in rows.history_ if c == 0][:3] == [100, 200, 400]


@pytest.mark.parametrize("seed", range(3))
def test_decisions_on_rows_ignore_fit_times(seed):
    rng = np.random.RandomState(seed)
    valid = {c: (lambda n, c=c: 0.6 + 0.05 * c + 0.02 * math.log2(n)) for c in range(4)}
    times = {c: (lambda n: rng.uniform(0.01, 10.0)) for c in range(4)}
    reference = run_sequential(DAUBPolicy(4, COST_SIZES, cost="rows", tol=0.01), valid)
    timed = run_sequential(DAUBPolicy(4, COST_SIZES, cost="rows", tol=0.01), valid,
                           fit_time=times)
    assert timed.history_ == reference.history_


def test_ties_go_to_the_step_predicted_to_take_the_fewest_seconds():
    # Two learners with the same curve: on rows, candidate order breaks the
    # tie; on time, the learner whose fit is 10 times cheaper goes first.
    valid = {0: lambda n: 0.5 + n / 10_000, 1: lambda n: 0.5 + n / 10_000}
    times = {0: lambda n: n / 100, 1: lambda n: n / 1000}
    timed = DAUBPolicy(2, COST_SIZES, warm_up=2, tol=0.01, cost="time")
    run_sequential(timed, valid, fit_time=times)
    assert timed.decisions_[4] == (1, 400)
    rows = DAUBPolicy(2, COST_SIZES, warm_up=2, tol=0.01, cost="rows")
    run_sequential(rows, valid, fit_time=times)
    assert rows.decisions_[4] == (0, 400)


def test_the_warm_up_waits_for_a_learners_cost_before_its_third_size():
    timed = DAUBPolicy(3, COST_SIZES, warm_up=3, cost="time")
    assert timed.ask(4) == [(0, 100), (0, 200), (1, 100), (1, 200)]
    rows = DAUBPolicy(3, COST_SIZES, warm_up=3, cost="rows")
    assert rows.ask(4) == [(0, 100), (0, 200), (0, 400), (1, 100)]


def test_idle_workers_get_the_next_learner_at_n():
    # Both learners' costs are flat: after their first two sizes both go to N,
    # the second one speculatively, while the first is decided.
    policy = DAUBPolicy(2, COST_SIZES, warm_up=3, cost="time", stop="strict")
    for c in range(2):
        for n in COST_SIZES[:2]:
            assert policy.ask() == [(c, n)]
            policy.tell(c, n, 0.8 + 0.1 * c, fit_time=1.0)
    assert policy.ask(2) == [(1, 3200), (0, 3200)]
    assert policy.decisions_ == [(c, n) for c in range(2) for n in COST_SIZES[:2]]


# ----------------------------------------------------------- racing the folds


def _raced_policy(bar_folds, noise=0.01, tol=0.005):
    """A policy at N = 400 on 5 folds whose candidate 0 is at N with `bar_folds`."""
    policy = DAUBPolicy(n_candidates=2, sizes=[100, 200, 400], warm_up=2, stop="strict",
                        tol=tol, noise=noise, race=True)
    # Steep curves: both bounds lie far above any score at N.
    for size, scores in ((100, (0.6, 0.6)), (200, (0.9, 0.85))):
        policy.tell(0, size, scores[0])
        policy.tell(1, size, scores[1])
    assert policy.ask() == [(0, 400)]
    policy.tell(0, 400, float(np.mean(bar_folds)), fold_scores=list(bar_folds))
    assert policy.ask() == [(1, 400)]
    return policy


def _race_length_by_hand(bar, scores, noise, tol, z=2.33):
    """The first number of folds j < 5 whose paired test says `scores` trail `bar`."""
    for j in range(1, len(bar)):
        gaps = [b - s for b, s in zip(bar[:j], scores[:j])]
        mean = sum(gaps) / j
        se = math.sqrt(2) * noise / math.sqrt(j)
        if j >= 3:
            sd = math.sqrt(sum((g - mean) ** 2 for g in gaps) / (j - 1))
            se = max(se, sd / math.sqrt(j))
        if mean - tol > z * se:
            return j
    return None


@pytest.mark.parametrize("seed", range(30))
def test_race_of_the_folds_ends_where_the_paired_test_says(seed):
    rng = np.random.default_rng(seed)
    bar = list(rng.uniform(0.85, 0.95, size=5))
    scores = list(np.array(bar) - rng.uniform(-0.02, 0.08) + rng.normal(0, 0.02, size=5))
    expected = _race_length_by_hand(bar, scores, noise=0.01, tol=0.005)
    policy = _raced_policy(bar)
    ends = [j for j in range(1, 6) if policy.enough_folds(1, 400, scores[:j])]
    assert ends[:1] == ([] if expected is None else [expected])
    policy.tell(1, 400, float(np.mean(scores)), fold_scores=scores)
    assert policy.done
    if expected is None:
        # Scored on every fold: selected if better on average.
        assert policy.folds_used_ == {}
        assert policy.best_ == int(np.mean(scores) > np.mean(bar))
    else:
        assert policy.folds_used_ == {(1, 400): expected}
        assert policy.best_ == 0


def test_race_ends_only_for_the_next_decision_and_without_race_never():
    bar = [0.9] * 5
    policy = _raced_policy(bar)
    assert policy.enough_folds(1, 400, [0.5])
    assert not policy.enough_folds(1, 200, [0.5])  # not the decision pending
    plain = DAUBPolicy(n_candidates=2, sizes=[100, 200, 400], warm_up=2, stop="strict",
                       tol=0.005, noise=0.01)
    for size, scores in ((100, (0.6, 0.6)), (200, (0.9, 0.85))):
        plain.tell(0, size, scores[0])
        plain.tell(1, size, scores[1])
    plain.ask()
    plain.tell(0, 400, 0.9, fold_scores=bar)
    plain.ask()
    assert not plain.enough_folds(1, 400, [0.5])
    plain.tell(1, 400, 0.5, fold_scores=[0.5] * 5)
    assert plain.folds_used_ == {} and plain.best_ == 0


def test_race_ended_before_a_failed_fold_is_no_failure():
    """Folds that trail the bar before any failed end the race there, as they would have one
    fold at a time: a later fold that a free worker fitted ahead and that failed makes it no
    failure to retry. On main the learner was retried at N."""
    policy = _raced_policy([0.9] * 5)
    scores = [0.5, np.nan, 0.5, 0.5, 0.5]
    assert policy.enough_folds(1, 400, scores[:2])
    policy.tell(1, 400, np.nan, failed=True, fold_scores=scores)
    assert policy.done and policy.folds_used_ == {(1, 400): 1}
    assert policy.history_.count((1, 400)) == 1 and policy.best_ == 0


def test_race_needs_noise_or_three_folds():
    """Without a noise model, one or two folds tell nothing of the spread."""
    policy = _raced_policy([0.9, 0.91, 0.9, 0.92, 0.9], noise=0.0)
    assert not policy.enough_folds(1, 400, [0.5])
    assert not policy.enough_folds(1, 400, [0.5, 0.5])
    assert policy.enough_folds(1, 400, [0.5, 0.52, 0.51])


@pytest.mark.parametrize("folds_ratio", [1.0, 5.0])
@pytest.mark.parametrize("seed", range(4))
def test_budget_caps_each_learners_subsample_rows(folds_ratio, seed):
    rng = np.random.RandomState(seed)
    sizes = daub_sizes(16000, 250, 2.0)
    top = rng.uniform(0.6, 0.95, 8)
    policy = DAUBPolicy(8, sizes, bound="slope", stop="strict", warm_up=3, budget=1.1,
                        folds_ratio=folds_ratio)
    simulate(policy, lambda c, n: top[c] - 20 / np.sqrt(n) + rng.normal(0, 0.002))
    for c in range(8):
        below = sum(n for d, n in policy.decisions_ if d == c and n < 16000)
        assert below <= 0.1 * 16000 * folds_ratio
    uncapped = DAUBPolicy(8, sizes, bound="slope", stop="strict", warm_up=3)
    simulate(uncapped, lambda c, n: top[c] - 20 / np.sqrt(n))
    assert max(sum(n for d, n in uncapped.decisions_ if d == c and n < 16000)
               for c in range(8)) > 0.1 * 16000 * folds_ratio  # the cap binds


@pytest.mark.parametrize("exponent", [0.5, 1.0, 2.0])
def test_budget_in_seconds_follows_the_measured_exponent(exponent):
    sizes = daub_sizes(16000, 250, 2.0)
    policy = DAUBPolicy(4, sizes, bound="slope", stop="strict", warm_up=3, cost="time",
                        budget=1.1)
    seconds = lambda c, n: (n / 1000) ** exponent  # noqa: E731
    simulate(policy, lambda c, n: 0.9 - 0.02 * c - 10 / np.sqrt(n), durations=seconds)
    for c in range(4):
        below = [n for d, n in policy.decisions_ if d == c and n < 16000]
        spent = sum(seconds(c, n) for n in below)
        if exponent == 1.0 or c > 0:
            # Linear is assumed before any exponent is known; the others use the first's.
            assert spent <= 0.1 * seconds(c, 16000) + 1e-9
        else:  # exact once two sizes are timed: only the first two steps can overshoot
            assert spent <= 0.1 * seconds(c, 16000) + sum(seconds(c, n) for n in below[:2])
        assert (c, 16000) in policy.decisions_ or c in policy._active


def test_budget_learns_flat_costs_from_the_first_learner_at_n():
    # Every fit takes 1 s whatever its rows: a subsample costs as much as N.
    sizes = daub_sizes(16000, 500, 2.0)
    policy = DAUBPolicy(5, sizes, bound="slope", stop="strict", warm_up=3, cost="time",
                        budget=1.1)
    simulate(policy, lambda c, n: 0.8 + 0.01 * c, durations=lambda c, n: 1.0)
    # Linear costs are assumed until the first learner's two subsamples show them
    # flat: its third would pass the cap, so it goes to N at once; the others skip
    # their subsamples.
    assert policy.decisions_ == ([(0, 500), (0, 1000), (0, 16000)]
                                 + [(c, 16000) for c in range(1, 5)])
    assert policy.best_ == 4
