"""DAUBSearch's rungs with a learned net (risk > 0): the gap model, RungPolicy, the search."""

import math

import numpy as np
import pytest
from scipy.stats import norm
from sklearn.datasets import make_classification, make_regression
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from sksel import DAUBSearch
from sksel._core.simulate import simulate
from sksel.curves.gap_model import (
    FEATURES,
    MEAN_TERMS,
    SCALE_TERMS,
    GapModel,
    gap_features,
    risk_thresholds,
    shipped_model,
    threshold,
)
from sksel.daub import DAUBPolicy, RungPolicy, rung_sizes
from sksel.daub.cost import fit_cost, predict_cost


def _constant_model(mean, scale, n=20001):
    """A GapModel whose gap is normal(mean, scale) whatever the features."""
    mean_coef = np.zeros(len(MEAN_TERMS))
    mean_coef[0] = mean
    scale_coef = np.zeros(len(SCALE_TERMS))
    scale_coef[0] = math.log(scale)
    residuals = norm.ppf((np.arange(n) + 0.5) / n)
    return GapModel(mean_coef, scale_coef, residuals)


@pytest.mark.parametrize("mean, scale, tol", [(-0.02, 0.01, 0.0), (0.0, 0.03, 0.005),
                                              (-0.1, 0.05, 0.005)])
def test_probability_is_the_normal_tail_for_a_normal_law(mean, scale, tol):
    model = _constant_model(mean, scale)
    features = np.random.RandomState(0).uniform(0.1, 0.9, size=(5, len(FEATURES)))
    expected = norm.sf((tol - mean) / scale)
    assert model.prob_above(features, tol) == pytest.approx(np.full(5, expected), abs=2e-4)


def test_fit_recovers_a_linear_mean_and_its_scale():
    rng = np.random.RandomState(0)
    n = 20000
    features = np.column_stack([
        rng.uniform(-0.2, 0, n), rng.uniform(-0.05, 0.05, n), rng.uniform(0, 0.1, n),
        rng.uniform(0, 0.1, n), rng.uniform(0.5, 1, n), rng.uniform(0.5, 1, n),
        rng.uniform(0.5, 6, n), rng.uniform(0.005, 0.05, n), np.ones(n)])
    gap, doublings = features[:, 0], features[:, 6]
    truth = 0.8 * gap + 0.01 * doublings
    gaps = truth + 0.02 * rng.standard_normal(n)
    model = GapModel.fit(features, gaps)
    mean, scale = model.mean_scale(features)
    assert np.abs(mean - truth).max() < 0.005
    # Half the gaps lie above the mean, 84% below mean + one standard deviation.
    assert model.prob_above(features[:1], mean[0]) == pytest.approx(0.5, abs=0.02)
    upper = model.prob_above(features[:200], 0)
    assert upper == pytest.approx(norm.sf(-truth[:200] / 0.02), abs=0.06)
    assert np.median(scale) == pytest.approx(0.02 * np.exp(np.mean(np.log(np.abs(
        rng.standard_normal(100000))))), rel=0.1)


def test_features_of_two_r2_curves():
    """R²'s features: the noise of an R² on 400 rows, ``(1 - R²) sqrt(2 / n)``, at the two
    learners' mean score; a score below -1 counts as -1 (a regressor far worse than the
    mean, whose R² is unbounded below)."""
    features = dict(zip(FEATURES, gap_features([-3.0, 0.5], [0.6, 0.7], [100, 400], 1600,
                                               400, kind="r2")))
    assert features["gap"] == pytest.approx(-0.2)
    assert features["slope"] == pytest.approx((0.5 - -1.0) / 2)
    assert features["noise"] == pytest.approx((1 - 0.6) * math.sqrt(2 / 400))
    assert features["score"] == 0.5
    model = shipped_model()
    assert model.kind == "accuracy"
    np.testing.assert_array_equal(
        model.features([0.6, 0.7], [0.8, 0.85], [100, 400], 1600, 400),
        gap_features([0.6, 0.7], [0.8, 0.85], [100, 400], 1600, 400))


def test_features_of_two_curves():
    features = dict(zip(FEATURES, gap_features([0.6, 0.7], [0.8, 0.85], [100, 400], 1600, 400)))
    assert features["gap"] == pytest.approx(-0.15)
    assert features["gap_slope"] == pytest.approx((0.1 - 0.05) / 2)  # per doubling
    assert features["slope"] == pytest.approx(0.05)
    assert features["leader_slope"] == pytest.approx(0.025)
    assert features["doublings"] == pytest.approx(2.0)
    assert features["noise"] == pytest.approx(math.sqrt(0.775 * 0.225 / 400))
    assert features["has_slope"] == 1.0
    single = dict(zip(FEATURES, gap_features([0.6], [0.8], [100], 1600, 400)))
    assert single["slope"] == single["gap_slope"] == single["has_slope"] == 0.0


def test_shipped_model_ranks_a_learner_far_behind_below_one_close_behind():
    model = shipped_model()
    far = gap_features([0.50, 0.55], [0.80, 0.85], [300, 900], 8100, 1000)
    close = gap_features([0.83, 0.845], [0.84, 0.85], [300, 900], 8100, 1000)
    rising = gap_features([0.70, 0.80], [0.84, 0.85], [300, 900], 8100, 1000)
    p_far, p_close, p_rising = model.prob_above([far, close, rising], 0.005)
    assert p_far < 0.01 < p_close
    assert p_rising > p_far


def test_thresholds_grow_with_risk_and_interpolate():
    risks, thresholds = risk_thresholds()
    assert np.all(np.diff(risks) > 0) and np.all(np.diff(thresholds) >= 0)
    for r, t in zip(risks, thresholds):
        assert threshold(r) == pytest.approx(t)
    assert threshold(risks[0] / 10) == thresholds[0]
    assert thresholds[0] <= threshold(math.sqrt(risks[0] * risks[1])) <= thresholds[1]


@pytest.mark.parametrize("n_total, n, eta, expected", [
    (16000, 22, 3, [592, 1777, 5333, 16000]),
    (16000, 9, 3, [592, 1777, 5333, 16000]),
    (16000, 8, 3, [1777, 5333, 16000]),
    (1000, 10, 2, [62, 125, 250, 500, 1000]),
])
def test_rung_sizes_are_halving_rungs_and_one_below(n_total, n, eta, expected):
    assert rung_sizes(n_total, n, eta) == expected
    halving_rungs = 1 + int(math.floor(math.log(n) / math.log(eta) + 1e-9))
    assert len(expected) == halving_rungs + 1


def test_rung_sizes_leave_out_sizes_below_min_size():
    assert rung_sizes(600, 9, min_size=50) == [66, 200, 600]
    assert rung_sizes(100, 9, min_size=200) == [100]


def _brute_force(scores, sizes, probability, threshold, eta=3, first_cut=True):
    """Halving's rungs plus the net, written plainly: ``(selected, {candidate: dropped at})``.

    Without `first_cut`, the first of three rungs or more drops no learner."""
    alive = list(range(len(scores)))
    dropped = {}
    for rung, size in enumerate(sizes):
        ranked = sorted(alive, key=lambda c: (-scores[c][size], c))
        if size == sizes[-1]:
            return ranked[0], dropped
        if rung == 0 and len(sizes) > 2 and not first_cut:
            continue
        keep = set(ranked[:math.ceil(len(alive) / eta)])
        keep |= {c for c in ranked if probability(c, size) >= threshold}
        for c in alive:
            if c not in keep:
                dropped[c] = size
        alive = sorted(keep)
        if len(alive) == 1:
            return alive[0], dropped


class _ByCandidate:
    """A stand-in model: the probability of each pair, read back by the learner's score."""

    def __init__(self, table):
        self.table = table

    def prob_above(self, features, tol):
        return np.array([self.table[round(f[FEATURES.index("score")], 9)] for f in features])

    def features(self, *curves):
        return gap_features(*curves)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("n_workers", [1, 3])
@pytest.mark.parametrize("first_cut", [True, False])
def test_rung_policy_matches_the_brute_force_rule(seed, n_workers, first_cut):
    rng = np.random.RandomState(seed)
    n, sizes = 10, [30, 90, 270, 810]
    scores = {c: {s: float(rng.uniform(0.5, 0.9)) for s in sizes} for c in range(n)}
    # A probability per (candidate, size), read back through the score (unique).
    prob = {(c, s): float(rng.uniform(0, 0.3)) for c in range(n) for s in sizes}
    table = {round(scores[c][s], 9): prob[c, s] for c in range(n) for s in sizes}
    policy = RungPolicy(n, sizes, model=_ByCandidate(table), threshold=0.15, n_validation=100,
                        first_cut=first_cut)
    simulate(policy, lambda c, s: scores[c][s], n_workers)
    best, dropped = _brute_force(scores, sizes, lambda c, s: prob[c, s], 0.15,
                                 first_cut=first_cut)
    assert policy.best_ == best
    assert policy.dropped_ == dropped
    for (c, s), p in policy.probabilities_.items():
        assert p == prob[c, s]


def test_the_first_rung_cuts_with_the_model_of_accuracies_and_not_with_r2s():
    # Three rungs: the first drops the learners far behind with the model of accuracies
    # (calibrated so), none with R²'s, whose first cut on one point lost in calibration.
    scores = {0: 0.9, 1: 0.89, 2: 0.88, 3: 0.5, 4: 0.45, 5: 0.4}
    dropped = {}
    for kind in ("accuracy", "r2"):
        policy = RungPolicy(6, [30, 90, 270], model=shipped_model(kind),
                            threshold=threshold(0.1, kind), n_validation=300)
        assert policy.first_cut == (kind == "accuracy")
        simulate(policy, lambda c, s: scores[c])
        dropped[kind] = policy.dropped_
    assert dropped["accuracy"] == {3: 30, 4: 30, 5: 30}
    assert set(dropped["r2"].values()) == {90}


def test_close_learners_skip_the_rungs_that_would_drop_none_and_go_to_n():
    # R²'s first rung drops nobody; where even a cut on its one point would keep every
    # learner (all within a point), the rung between is not run: rows at 30 and at 810.
    close = {c: 0.80 - 0.002 * c for c in range(6)}
    policy = RungPolicy(6, [30, 90, 270, 810], model=shipped_model("r2"),
                        threshold=threshold(0.1, "r2"), n_validation=300)
    simulate(policy, lambda c, s: close[c])
    assert policy.dropped_ == {} and {s for _, s in policy.decisions_} == {30, 810}
    # One learner far behind on its one point: the rungs run, and drop it.
    apart = {**close, 5: 0.3}
    policy = RungPolicy(6, [30, 90, 270, 810], model=shipped_model("r2"),
                        threshold=threshold(0.1, "r2"), n_validation=300)
    simulate(policy, lambda c, s: apart[c])
    assert 90 in {s for _, s in policy.decisions_} and 5 in policy.dropped_


def test_at_n_the_best_below_goes_first_and_sets_the_bar_of_the_race():
    # Six learners, none dropped below N, the best last by index: at N they are trained best
    # first by their score at the rung below, so the leader's folds are the bar from the first.
    scores = {c: 0.70 + 0.002 * c for c in range(6)}
    policy = RungPolicy(6, [30, 90, 270], model=shipped_model("r2"),
                        threshold=threshold(0.1, "r2"), n_validation=300)
    simulate(policy, lambda c, s: scores[c])
    at_n = [c for c, s in policy.decisions_ if s == 270]
    assert at_n == sorted(at_n, key=lambda c: -scores[c]) and at_n[0] == 5


@pytest.mark.parametrize("seed", range(4))
def test_learners_kept_whatever_comes_start_their_next_rung_before_it_is_decided(seed):
    # Sure promotions: an action handed out with speculative=False before the rung's
    # decision is one the one-worker run uses; the decisions are the same on any workers.
    rng = np.random.RandomState(seed)
    n, sizes = 10, [30, 90, 270, 810]
    scores = {c: {s: float(rng.uniform(0.5, 0.9)) for s in sizes} for c in range(n)}
    prob = {(c, s): float(rng.uniform(0, 0.3)) for c in range(n) for s in sizes}
    table = {round(scores[c][s], 9): prob[c, s] for c in range(n) for s in sizes}

    def policy():
        return RungPolicy(n, sizes, model=_ByCandidate(table), threshold=0.15,
                          n_validation=100)

    one = policy()
    simulate(one, lambda c, s: scores[c][s])
    used = set(one.decisions_)
    # At rung 0, 4 of 10 are kept whatever their probability (ceil(10 / 3)): with 8 told,
    # the j-th best told is sure where j + m < ceil((8 + m) / 3) for m = 0, 1, 2 learners
    # untold scoring above it: the best two, and 2 sure learners are needed.
    early = policy()
    rung0 = early.ask(n, speculative=False)
    assert len(rung0) == n and early.ask(1, speculative=False) == []
    for c, s in rung0[:8]:
        early.tell(c, s, scores[c][s])
    best_two = sorted(range(8), key=lambda c: (-scores[c][30], c))[:2]
    promoted = early.ask(n, speculative=False)
    assert sorted(promoted) == sorted((c, 90) for c in best_two)
    # Whatever was handed out early is used.
    for c, s in rung0[8:] + promoted:
        early.tell(c, s, scores[c][s])
    handed = list(early.history_)
    while not early.done:
        actions = early.ask(n, speculative=False)
        handed += actions
        for c, s in actions:
            early.tell(c, s, scores[c][s])
    assert set(handed) <= used
    assert early.decisions_ == one.decisions_
    for n_workers in (2, 5, 10):
        many = policy()
        simulate(many, lambda c, s: scores[c][s], n_workers,
                 durations=lambda c, s: (1 + c % 4) * s)
        assert many.decisions_ == one.decisions_ and many.best_ == one.best_


def _guesses(below, here, share):
    """The rule of RungPolicy._guess written plainly: learners by place, those within the share.

    `below` and `here` map each learner to its score at the rung below and (where told)
    at this rung; a learner is behind another scored above it here where both are told
    here, else at the rung below (ties: the lower index ahead).
    """
    def ahead(d, c):
        scores = here if c in here and d in here else below
        return (scores[d], -d) > (scores[c], -c)

    places = {c: sum(ahead(d, c) for d in below if d != c) for c in below}
    return [c for c in sorted(below, key=lambda c: (places[c], c)) if places[c] < share]


@pytest.mark.parametrize("seed", range(4))
def test_a_worker_that_would_idle_starts_the_next_size_of_the_learners_likely_kept(seed):
    # While rung 1 runs, nothing is sure: a speculative ask gives nothing, one for a
    # worker that would idle the next size of each learner within halving's top third
    # as far as known (scores at rung 1 where told, else at rung 0), best placed first.
    rng = np.random.RandomState(seed)
    n, sizes = 9, [100, 300, 900, 2700]
    below = {c: float(rng.uniform(0.5, 0.9)) for c in range(n)}
    # The first rung keeps every learner (first_cut=False), so all 9 reach rung 1.
    policy = RungPolicy(n, sizes, model=_constant_model(-0.1, 0.01), threshold=0.1,
                        n_validation=100, first_cut=False)
    for c, s in policy.ask(n, speculative=False):
        policy.tell(c, s, below[c])
    assert sorted(policy.ask(n, speculative=False)) == [(c, 300) for c in range(n)]
    here = {int(c): float(rng.uniform(0.5, 0.9)) for c in rng.permutation(n)[:4]}
    for c, score in here.items():
        policy.tell(c, 300, score)
    expected = _guesses(below, here, share=3)  # ceil(9 / 3)
    assert policy.ask(1) == []
    guessed = [policy.ask(1, idle=True) for _ in range(len(expected) + 1)]
    assert guessed == [[(c, 900)] for c in expected] + [[]]


class _NoGuess(RungPolicy):
    def _guess(self):
        return None


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("first_cut", [True, False])
def test_guesses_leave_the_decisions_and_shorten_the_chain_of_rungs(seed, first_cut):
    # 9 learners, the last one slow at every size: the rungs wait for it; a worker that
    # would idle meanwhile starts the next size of the best placed learners.
    rng = np.random.RandomState(seed)
    n, sizes = 9, [100, 300, 900, 2700]
    scores = {c: {s: float(rng.uniform(0.5, 0.9)) for s in sizes} for c in range(n)}

    def run(policy_class, n_workers):
        policy = policy_class(n, sizes, model=_constant_model(-0.1, 0.01), threshold=0.1,
                              n_validation=100, first_cut=first_cut)
        return policy, simulate(policy, lambda c, s: scores[c][s], n_workers,
                                durations=lambda c, s: s * (10 if c == n - 1 else 1))

    one, _ = run(RungPolicy, 1)
    for n_workers in (3, 9, 32):
        many, guessed = run(RungPolicy, n_workers)
        assert many.decisions_ == one.decisions_ and many.best_ == one.best_
        _, waited = run(_NoGuess, n_workers)
        assert guessed.wall_time <= waited.wall_time
    if not first_cut:  # 32 workers: no worker needed elsewhere (with a first cut the slow
        # learner often goes on, and its own sizes are the chain)
        assert guessed.wall_time < waited.wall_time


def _two_behind(cost, seconds_per_row, probability=0.1):
    """Two learners ahead (the top third), two behind with `probability` each; threshold 0.1.

    The first rung keeps every learner, so the costs are read off two timed sizes at 90."""
    sizes = [30, 90, 270]
    scores = {0: 0.9, 1: 0.88, 2: 0.7, 3: 0.6}
    model = _ByCandidate({0.7: probability, 0.6: probability})
    policy = RungPolicy(4, sizes, model=model, threshold=0.1, n_validation=100, cost=cost,
                        first_cut=False)
    simulate(policy, lambda c, s: scores[c], durations=lambda c, s: seconds_per_row[c] * s)
    return policy


@pytest.mark.parametrize("slow", [2, 3])
def test_with_time_costs_a_costly_learner_needs_a_larger_probability_to_go_on(slow):
    seconds_per_row = {0: 1.0, 1: 1.0, 2: 1.0, 3: 1.0, slow: 4.0}
    timed = _two_behind("time", seconds_per_row)
    # Threshold 0.1 * sqrt(4 / 2) for the slow one, 0.1 * sqrt(1 / 2) for the other.
    assert timed.dropped_ == {slow: 90}
    # In rows both paths cost the same: both are at the threshold and go on.
    assert _two_behind("rows", seconds_per_row).dropped_ == {}


def test_seconds_scale_a_threshold_by_at_most_two():
    # 100 times the other's seconds: sqrt(100 / 10) = 3.2, held at 2, so 0.2 <= 0.25 goes on.
    seconds_per_row = {0: 1.0, 1: 1.0, 2: 100.0, 3: 1.0}
    assert _two_behind("time", seconds_per_row, probability=0.25).dropped_ == {}
    assert _two_behind("time", seconds_per_row, probability=0.19).dropped_ == {2: 90}


@pytest.mark.parametrize("a, b, e", [(0.05, 2e-4, 1.0), (0.0, 1e-6, 2.0), (0.3, 1e-3, 0.5),
                                     (0.02, 1e-5, 1.5)])
def test_cost_model_recovers_overhead_plus_rows(a, b, e):
    rows = np.array([100, 300, 900, 2700])
    fitted = fit_cost(rows, a + b * rows ** e)
    assert fitted == pytest.approx((a, b, e), rel=1e-6, abs=1e-9)
    # From two sizes and the right exponent, exactly; predicted at N.
    two = fit_cost(rows[:2], a + b * rows[:2] ** e, exponent=e)
    assert predict_cost(two, 8100) == pytest.approx(a + b * 8100 ** e)


def test_cost_model_of_two_sizes_without_overhead_reads_their_exponent():
    # Quadratic from 100 to 300 rows: no overhead fits linear, the exponent is read instead.
    assert fit_cost([100, 300], [1.0, 9.0]) == pytest.approx((0.0, 1e-4, 2.0))
    # A larger size that cost less: flat, their mean.
    assert fit_cost([100, 300], [0.4, 0.2]) == pytest.approx((0.3, 0.0, 1.0))


def test_without_a_model_it_is_successive_halving():
    rng = np.random.RandomState(1)
    sizes = [10, 30, 90, 270]
    scores = {c: {s: float(rng.uniform()) for s in sizes} for c in range(9)}
    policy = RungPolicy(9, sizes, model=None, threshold=0.5, n_validation=100)
    simulate(policy, lambda c, s: scores[c][s])
    alive = list(range(9))
    for size in sizes:
        if len(alive) == 1 and size < sizes[-1]:
            continue  # a learner left alone goes to N at once
        assert sorted(c for c, n in policy.decisions_ if n == size) == alive
        alive = sorted(sorted(alive, key=lambda c: -scores[c][size])[:math.ceil(len(alive) / 3)])
    assert policy.best_ == alive[0]


def test_threshold_zero_trains_every_learner_on_n():
    sizes = [20, 60, 180]
    policy = RungPolicy(6, sizes, model=shipped_model(), threshold=0.0, n_validation=100)
    simulate(policy, lambda c, s: 0.5 + 0.05 * c + s / 1000)
    assert sorted(c for c, n in policy.decisions_ if n == 180) == list(range(6))
    assert policy.best_ == 5


def test_a_failed_learner_is_never_selected_and_the_rest_go_on():
    sizes = [20, 60, 180]
    policy = RungPolicy(4, sizes, model=shipped_model(), threshold=0.0, n_validation=100)
    simulate(policy, lambda c, s: np.nan if c == 3 else 0.6 + 0.01 * c)
    assert policy.best_ == 2
    # Failed on every fold of the first rung: one try at N, where it fails too: given up.
    assert [n for c, n in policy.history_ if c == 3] == [20, 180]
    assert policy.sent_to_n_ == {3: 20} and policy.given_up_ == {3}
    assert 3 not in policy.dropped_  # given up for its failure, not dropped by the rule


def test_a_learner_failing_below_n_is_tried_after_the_last_rung_and_may_win():
    """Learner 3 cannot fit a rung below N: it skips the rungs left and, once the learners at
    N are scored, gets one try there, where it is the best; the same for 1 and 3 workers. On
    main it was given up at its first rung."""
    sizes = [20, 60, 180]

    def score(c, n):
        if c == 3:
            return np.nan if n < 180 else 0.95
        return 0.5 + 0.05 * c + n / 1000

    runs = []
    for n_workers in (1, 3):
        policy = RungPolicy(6, sizes, model=shipped_model(), threshold=0.1, n_validation=100)
        simulate(policy, score, n_workers=n_workers)
        runs.append(policy.decisions_)
        assert policy.best_ == 3 and policy.sent_to_n_ == {3: 20} and not policy.given_up_
    decisions = runs[0]
    assert runs[1] == decisions
    assert [n for c, n in decisions if c == 3] == [20, 180]
    assert decisions[-1] == (3, 180)
    assert sum(n == 180 for _, n in decisions) >= 2  # the rungs reached N before the try


@pytest.fixture(scope="module")
def clf_data():
    return make_classification(n_samples=900, n_features=12, n_informative=6, n_classes=3,
                               random_state=0)


CANDIDATES = [GaussianNB(), DecisionTreeClassifier(max_depth=2, random_state=0),
              KNeighborsClassifier(), LogisticRegression(max_iter=500),
              LogisticRegression(C=0.001, max_iter=500)]


def test_search_selects_the_best_at_n_with_grid_search_scores(clf_data):
    X, y = clf_data
    cv = StratifiedKFold(3)
    search = DAUBSearch(CANDIDATES, cv=cv, random_state=0).fit(X, y)
    assert isinstance(search.policy_, RungPolicy)
    assert search.sizes_ == rung_sizes(600, 5, min_size=30)
    grid = GridSearchCV(DecisionTreeClassifier(), {}, cv=cv)
    at_n = search.cv_results_["n_resources"] == search.sizes_[-1]
    for i in np.flatnonzero(at_n & (search.cv_results_["mean_test_score"] > 0)):
        grid.estimator = CANDIDATES[search.cv_results_["candidate_id"][i]]
        grid.fit(X, y)
        folds = ~np.isnan([search.cv_results_[f"split{k}_test_score"][i] for k in range(3)])
        if folds.all():
            assert search.cv_results_["mean_test_score"][i] == pytest.approx(grid.best_score_)
    best = search.cv_results_["mean_test_score"][search.best_index_]
    assert best == np.nanmax(search.cv_results_["mean_test_score"][at_n])
    assert set(search.policy_.dropped_) == set(range(5)) - set(
        search.cv_results_["candidate_id"][at_n])


def test_same_answer_whatever_n_jobs(clf_data):
    X, y = clf_data
    one = DAUBSearch(CANDIDATES, cv=3, random_state=0, cost="rows").fit(X, y)
    two = DAUBSearch(CANDIDATES, cv=3, random_state=0, cost="rows", n_jobs=2).fit(X, y)
    assert one.policy_.decisions_ == two.policy_.decisions_
    np.testing.assert_array_equal(one.cv_results_["mean_test_score"],
                                  two.cv_results_["mean_test_score"])


def test_risk_zero_and_other_scores_use_the_bounds(clf_data):
    X, y = clf_data
    assert isinstance(DAUBSearch(CANDIDATES[:2], risk=0, cv=3).fit(X, y).policy_, DAUBPolicy)
    assert not isinstance(DAUBSearch(CANDIDATES[:2], risk=0, cv=3).fit(X, y).policy_,
                          RungPolicy)
    Xr, yr = make_regression(n_samples=300, random_state=0)
    # Regressors' R² has its model of learning curves, and so has a squared error read as
    # R²; another regression score has none.
    for scoring in (None, "neg_mean_squared_error"):
        search = DAUBSearch([Ridge(), Ridge(alpha=100.0)], scoring=scoring, cv=3).fit(Xr, yr)
        assert isinstance(search.policy_, RungPolicy) and search.policy_.model.kind == "r2"
    search = DAUBSearch([Ridge(), Ridge(alpha=100.0)], scoring="neg_median_absolute_error",
                        cv=3).fit(Xr, yr)
    assert not isinstance(search.policy_, RungPolicy)


@pytest.mark.parametrize("risk", [1.0, -0.1, "high"])
def test_bad_risk_raises_before_training(clf_data, risk):
    X, y = clf_data
    with pytest.raises(ValueError, match="risk"):
        DAUBSearch(CANDIDATES, risk=risk).fit(X, y)


def test_a_larger_risk_drops_no_fewer_learners():
    rng = np.random.RandomState(0)
    sizes = [40, 120, 360, 1080]
    shares = []
    for risk in (0.01, 0.1, 0.3):
        dropped = 0
        for seed in range(30):
            rng = np.random.RandomState(seed)
            top = rng.uniform(0.6, 0.9, 12)
            curve = {c: {s: top[c] - 5 / math.sqrt(s) + rng.normal(0, 0.01) for s in sizes}
                     for c in range(12)}
            policy = RungPolicy(12, sizes, model=shipped_model(), threshold=threshold(risk),
                                n_validation=400)
            simulate(policy, lambda c, s: curve[c][s])
            dropped += len(policy.dropped_)
        shares.append(dropped)
    assert shares[0] <= shares[1] <= shares[2]
    assert shares[0] < shares[2]


# ------------------------------------------------------------- rungs where they pay
def _planned(costs, *, folds_ratio=1.0, race=False, model=None, first_cut=None):
    model = shipped_model() if model is None else model
    policy = RungPolicy(len(costs), [100, 300, 900, 2700], model=model, threshold=0.05,
                        n_validation=300, predicted_costs=costs, folds_ratio=folds_ratio,
                        race=race, first_cut=first_cut)
    return policy


#: The plan's chance that a rung keeps a learner not scored yet, on 300 validation rows:
#: 0.5 plus ten standard errors of a score in [0, 1] there.
KEPT_300 = 0.5 + 10 * 0.5 / math.sqrt(300)


def _plan_seconds(costs, sizes, folds_ratio, plan, kept=KEPT_300, spare_first=False):
    """The plan's expected seconds, written out."""
    alive, seconds = 1.0, 0.0
    for i, k in enumerate(sorted(plan)):
        seconds += alive * (predict_cost(costs, sizes[k]) + 0.003)
        if i > 0 or not (spare_first and k < len(sizes) - 2):
            alive *= kept
    return seconds + alive * folds_ratio * (predict_cost(costs, sizes[-1]) + 0.003)


def _cheapest_by_enumeration(costs, sizes, folds_ratio, spare_first=False):
    """The least expected seconds of any subset of the rungs below N."""
    from itertools import combinations
    below = range(len(sizes) - 1)
    return min(_plan_seconds(costs, sizes, folds_ratio, plan, spare_first=spare_first)
               for r in range(len(below) + 1) for plan in combinations(below, r))


@pytest.mark.parametrize("costs", [
    (0.1, 0.0, 1.0),       # a flat cost: a subsample costs N's
    (0.0, 1e-4, 1.0),      # linear in the rows
    (0.0, 1e-6, 2.0),      # quadratic
    (0.05, 1e-5, 1.0),     # overhead and rows
])
@pytest.mark.parametrize("folds_ratio", [1.0, 5.0])
def test_each_learner_is_planned_the_rungs_of_its_cheapest_expected_path(costs, folds_ratio):
    policy = _planned([costs, (0.0, 1e-4, 1.0)], folds_ratio=folds_ratio)
    planned = _plan_seconds(costs, policy.sizes, folds_ratio, policy.rungs_planned_[0])
    assert planned == pytest.approx(_cheapest_by_enumeration(costs, policy.sizes, folds_ratio))


def test_a_learner_costing_as_much_on_a_subsample_goes_straight_to_n_on_a_holdout():
    flat, growing = (0.2, 0.0, 1.0), (0.0, 1e-5, 1.5)
    policy = _planned([flat, growing, flat])
    assert policy.rungs_planned_[0] == policy.rungs_planned_[2] == frozenset()
    assert policy.rungs_planned_[1] == frozenset({0, 1, 2})
    # Only the growing learner is trained below N; the others' first fit is on N.
    first = policy.ask()
    assert first == [(1, 100)]


def test_no_learner_planned_below_n_makes_the_run_the_grid():
    curves = {0: 0.7, 1: 0.8, 2: 0.75}
    policy = _planned([(0.5, 0.0, 1.0)] * 3)
    asked = []
    while not policy.done:
        for action in policy.ask():
            asked.append(action)
            policy.tell(*action, curves[action[0]])
    assert sorted(asked) == [(0, 2700), (1, 2700), (2, 2700)]
    assert policy.best_ == 1


def test_a_first_point_spared_by_the_model_is_not_planned_alone():
    # R²'s model spares a learner's first point (no first cut): one rung below N then
    # costs without dropping, so a plan holds two rungs or none.
    from sksel.curves.gap_model import shipped_model as model_of
    policy = _planned([(0.0, 1e-4, 1.0), (0.02, 1e-5, 1.0)], folds_ratio=5.0,
                      model=model_of("r2"))
    for c, plan in policy.rungs_planned_.items():
        assert len(plan) != 1 or max(plan) == policy.n_sizes - 2
        assert _plan_seconds(policy.predicted_costs[c], policy.sizes, 5.0, plan,
                             spare_first=True) == pytest.approx(_cheapest_by_enumeration(
                                 policy.predicted_costs[c], policy.sizes, 5.0, spare_first=True))


def test_same_seed_same_search_whatever_the_machine_measures(monkeypatch):
    # The plan reads predicted costs only: measured fit times change nothing.
    X, y = make_classification(600, 8, random_state=0)
    learners = [LogisticRegression(), GaussianNB(), DecisionTreeClassifier(random_state=0),
                KNeighborsClassifier()]
    one = DAUBSearch(learners, cv=5, random_state=0).fit(X, y)
    two = DAUBSearch(learners, cv=5, random_state=0).fit(X, y)
    assert one.policy_.rungs_planned_ == two.policy_.rungs_planned_
    assert one.policy_.history_ == two.policy_.history_


def test_rungs_all_trains_every_learner_on_the_first_rung():
    X, y = make_classification(600, 8, random_state=0)
    learners = [LogisticRegression(), GaussianNB(), DecisionTreeClassifier(random_state=0)]
    search = DAUBSearch(learners, cv=5, rungs="all", random_state=0).fit(X, y)
    first = search.sizes_[0]
    assert {c for c, n in search.policy_.history_ if n == first} == {0, 1, 2}
    assert all(plan == frozenset(range(len(search.sizes_) - 1))
               for plan in search.policy_.rungs_planned_.values())


def test_a_worker_that_would_idle_starts_n_on_the_learner_predicted_dearest_there():
    # Three learners climbing the rungs; once every fit of the rung is handed out, a
    # worker that would idle takes N's folds of the dearest on N, then the next dearest.
    costs = [(0.0, 1e-4, 1.0), (0.0, 1e-6, 2.0), (0.0, 2e-4, 1.0)]
    policy = _planned(costs, folds_ratio=5.0, race=True)
    first = policy.ask(n_actions=3)
    assert sorted(first) == [(0, 100), (1, 100), (2, 100)]
    assert policy.ask(n_actions=1) == []  # without idle, nothing speculative
    n_total = policy.sizes[-1]
    assert policy.ask(n_actions=2, idle=True) == [(1, n_total), (2, n_total)]


def test_the_folds_of_a_learner_the_rule_dropped_end_at_its_first_fold():
    costs = [(0.0, 1e-4, 1.0)] * 4
    policy = _planned(costs, folds_ratio=5.0, race=True)
    n_total = policy.sizes[-1]
    scores = {0: 0.9, 1: 0.5, 2: 0.85, 3: 0.6}
    policy.ask(n_actions=4)
    [(guessed, size)] = policy.ask(n_actions=1, idle=True)
    assert size == n_total and not policy.enough_folds(guessed, n_total, [0.5])
    for c in range(4):
        policy.tell(c, 100, scores[c])
    dropped = set(policy.dropped_)
    assert 1 in dropped
    assert policy.enough_folds(1, n_total, [0.5])
    assert not policy.enough_folds(0, n_total, [0.9])
