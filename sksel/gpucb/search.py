"""GPUCBSelector: GP-UCB over candidate algorithms, the search estimator.

Its policy is :class:`~sksel.gpucb.policy.GPUCBPolicy`; its prior comes from
:mod:`sksel.gpucb.prior` and the shipped portfolios of :mod:`sksel.gpucb.portfolio`
(see :mod:`sksel.gpucb`).
"""

import numbers
import warnings
from collections.abc import Mapping

import numpy as np
from joblib import effective_n_jobs

from .._compat import Interval, StrOptions
from .._core.naming import counted
from .._core.search import BaseSelectionSearch
from ..curves.gap_model import shipped_model
from ..spaces.sampler import KDPPSampler
from ..spaces.space import SearchSpace
from ..training.folds import FoldsTrainer
from ..training.rows import RowsTrainer
from .acquisition import _checked_cost
from .known import known_prior, learner_family
from .policy import GPUCBPolicy
from .portfolio import _SHIPPED
from .prior import (
    cost_prior_from_times,
    kernel_prior,
    prior_from_scores,
    tune_beta_scale,
)

#: The looks train on these shares of a training fold's rows: halving's rungs (factor 3).
_LOOK_DIVISORS = (27, 9, 3)
#: A look drops a candidate whose final gap to the leader exceeds `tol` with a probability
#: below this (the gap model's), chosen on LCDB's tune half (benchmarks/bench_gpucb_looks.py).
_LOOK_THRESHOLD = 0.05
#: A look trains on the first fold only: its fits cost a fifth of a 5-fold evaluation's even
#: where a fit costs about the same whatever its rows (an overhead: scoring, a fixed number of
#: iterations), which looks on every fold could not keep below the evaluation they replace.
_LOOK_FOLDS = 1
#: The most a candidate's looks may cost, as a share of its full evaluation's, priced before
#: they are made (:class:`GPUCBPolicy`, `look_share`): its looks are the largest sizes within.
_LOOK_SHARE = 0.5
#: With looks, in the stop, a candidate whose learner's family no look or evaluation has
#: observed keeps this share of its prior variance (:class:`GPUCBPolicy`, `family_floor`):
#: a family costs a look. Without looks it would cost full evaluations: on the KEEL tasks
#: (small data) the floor took the search from 18.3 to 20.6 evaluations of 25 and from 0.85x
#: to 0.91x the CPU of cross-validating all 25 (2026-11-28, bench_gpucb_fits.py).
_FAMILY_FLOOR = 0.5
#: The fewest rows of a look: smaller subsamples are not looked at.
_SMALLEST_LOOK = 30
#: ``looks="auto"`` looks only where the training folds hold this many rows: on LCDB's tune
#: half looks cost more than they saved below 2,000 rows and saved 13% from 2,000 to 4,000,
#: where, trained on the KEEL tasks (2,400 rows a fold), they cost more.
_LOOKS_FROM_ROWS = 4000


class GPUCBSelector(BaseSelectionSearch):
    """Select among K candidates with GP-UCB, evaluating only a few of them.

    The candidates' cross-validated scores on the data are modelled as one
    draw of a Gaussian process whose prior comes from earlier datasets
    (``prior=<scores>``, ``prior="default"``) or from a kernel over the
    candidates' configurations (``prior="kernel"``). Each step evaluates one
    candidate fully (all cross-validation folds, all training rows), updates
    the posterior of every candidate, and evaluates next the candidate with
    the highest upper confidence bound. It stops once the posterior
    probability that a candidate not evaluated beats the best one evaluated
    by more than `tol` is at most `risk` (or after `n_iter` evaluations when
    it is an int); the best evaluated candidate is selected and refitted.
    With a prior from earlier datasets, how far to trust it is learnt from
    the scores of the dataset at hand (`empirical_bayes`). Correlated
    candidates are what makes it pay: one evaluation tells about many, and
    about when to stop.

    Read more in the :ref:`User Guide <gpucb>`.

    Parameters
    ----------
    estimator : estimator object or list
        One estimator searched over `param_grid` or `param_distributions`, or
        a list of candidates: estimators and/or ``(estimator, param_grid)``
        pairs (as :class:`~sksel.DAUBSearch` takes them).

    param_grid : dict or list of dicts, default=None
        Grid for a single `estimator`, as
        :class:`~sklearn.model_selection.GridSearchCV` takes it.

    param_distributions : dict or list of dicts, default=None
        Distributions for a single `estimator`, as
        :class:`~sklearn.model_selection.RandomizedSearchCV` takes them,
        sampled to `n_candidates` diverse candidates with
        :class:`~sksel.KDPPSampler`.

    n_candidates : int, default=None
        K when `param_distributions` is given.

    prior : "auto", "kernel", "default", "lcdb", array-like, list of dict or tuple, \
            default="auto"
        Where the prior mean and covariance come from:

        - ``"auto"``: what the shipped priors know of the candidates' learners
          (:mod:`sksel.gpucb.known`): a candidate whose learner (the last step
          of a ``Pipeline``) is one of the default portfolio's or LCDB's (for
          a regressor, the regression portfolio's) gets that column's mean,
          covariances and fit times, exactly where its parameters are the
          column's, with an extra variance growing with how far they are
          otherwise; a learner none knows gets the shipped learners' mean
          score and a variance above any of theirs. Used for a classifier
          scored in [0, 1] or a regressor scored by R² whose candidates'
          learners match at least two classes of the shipped learners
          (``prior_`` says which prior, ``prior_match_`` how each candidate
          matched); otherwise, as for one learner over a grid, ``"kernel"``;
        - a tuple ``(mean, cov)``: the prior itself, shapes ``(K,)`` and
          ``(K, K)``, ``cov`` symmetric positive semi-definite;
        - an array of shape ``(n_datasets, K)``: scores of the same K
          candidates, in the same order, on earlier datasets (NaN where
          missing); mean and Ledoit-Wolf covariance (:func:`prior_from_scores`);
        - a list of earlier searches' ``cv_results_`` over the same
          candidates (e.g. ``[s.cv_results_ for s in earlier_searches]``): their
          ``mean_test_score`` rows, matched to the candidates by parameters;
        - ``"default"``: the prior shipped with sksel for the default portfolio
          of candidates (``sksel.gpucb.portfolio.default_portfolio()``, in that
          order);
        - ``"lcdb"``: the prior of LCDB's 19 default-parameter classifiers
          (``sksel.gpucb.portfolio.lcdb_portfolio()``, in that order) on 180 OpenML
          datasets;
        - ``"kernel"``: no history; the covariance is a kernel over the
          candidates' featurized configurations (``kernel``), scaled, and the
          mean constant, both fitted to the scores as they come. Candidates
          that differ only by their estimator (a list of learners) are all
          alike to it: with ``n_iter="auto"`` the search then warns that it
          can cost as much as cross-validating every candidate, or more.

    n_iter : "auto" or int, default="auto"
        How many candidates are evaluated:

        - ``"auto"``: until the answer is known, at most `max_iter`: the
          search stops once a candidate not evaluated beats the best one
          evaluated by more than `tol` with a posterior probability of at
          most `risk` (see `tol`). It spends evaluations where the posterior
          is uncertain, few when the prior and the first scores leave no
          doubt. ``n_iter_`` says where it stopped, and ``verbose=1`` why;
        - an int T <= K: exactly T evaluations (failed ones included),
          whatever the posterior says (the paper's algorithm).

    tol : float, default=0.01
        With ``n_iter="auto"``, the score the search may leave on the table:
        0.01 is one accuracy or R² point, and for an error or a loss a share
        of the leader's error, 1% (:ref:`scorers`; ``verbose=1`` says it
        with the data's baseline error): it stops once
        ``sum_k P(f(k) - f(b) > tol) <= risk`` over the candidates k not
        evaluated, ``b`` the best candidate evaluated, ``f`` the scores
        under the posterior. The sum bounds the probability that some
        candidate left beats the one selected by more than `tol`
        (``GPUCBPolicy.probability_left``).

    risk : float, default=0.1
        With ``n_iter="auto"``, the posterior probability in [0, 1] at which
        the search stops (see `tol`); 0 never stops before `max_iter`. The
        bound is cautious: 0.1 is the largest risk at which the regret at
        the stop exceeded `tol` on at most 5% of LCDB's tune half (even
        OpenML ids; 4%), and it did on at most 2.4% of the datasets of
        every collection not tuned on (see the :ref:`User Guide <gpucb>`).

    max_iter : int, default=None
        With ``n_iter="auto"``, the most evaluations; None means K.

    noise : float, default=0.01
        Standard deviation of a score's noise, in score units, > 0.

    delta : float, default=0.1
        Confidence parameter of ``beta_t = beta_scale * log(K t^2 / delta)``,
        in (0, 1).

    beta_scale : float, "auto" or "tune", default="auto"
        Factor of ``beta_t``:

        - ``"auto"``: 0.3 with a prior from earlier scores or ``(mean,
          cov)`` (the scale that found the best candidate soonest on LCDB's
          tune half, with `empirical_bayes`; the formula as written
          explores too much for model selection), 1 with
          ``prior="kernel"``;
        - ``"tune"``: runs this search's GP-UCB leave-one-dataset-out on the
          prior's earlier scores for each scale of
          ``sksel.gpucb.BETA_SCALES`` and keeps the one that finds the best
          candidate soonest (in evaluations; with prior costs from earlier
          fit times, in share of the time to fit every candidate, with the
          cost-aware rule): seconds to a minute at each fit; it needs a
          prior from at least 3 earlier datasets;
        - a float: that factor (1 is the formula as written, 0 greedy on
          the posterior mean).

    empirical_bayes : bool, default=True
        With a prior from earlier datasets (any `prior` but ``"kernel"``),
        whether to learn how far to trust it from the scores seen on the
        data at hand: after each evaluation the prior covariance is scaled,
        and its correlations shrunk towards the level all candidates share,
        to the values under which the scores seen are most likely (see
        ``GPUCBPolicy``). A prior from other datasets is often too sure
        (the search stops too soon) or too vague (too late), and its
        correlations can mislead the order. False takes the prior as it is
        (the paper's algorithm). The kernel prior always fits its level and
        scale to the scores.

    kernel : {"rbf", "arc"}, default="rbf"
        Kernel of ``prior="kernel"`` (see :class:`~sksel.KDPPSampler`).

    cost : "auto", "prior", None or array-like of shape (K,), default="auto"
        What an evaluation costs, to find the best candidate in fewer
        seconds rather than fewer evaluations:

        - ``"auto"``: ``"prior"`` when `max_time` is set, None otherwise.
          With a time budget the cost-aware rule has a good model early,
          when the paper's rule may still be fitting an expensive
          favourite; without one, the search runs to its stop, and cheap
          candidates first only delay that stop (see the :ref:`User Guide
          <gpucb>`);
        - ``"prior"``: each candidate's relative fit cost learned from the
          same history as the scores (:func:`cost_prior_from_times`): the
          fit times shipped with ``prior="default"`` and ``prior="lcdb"``,
          the ``mean_fit_time`` of earlier ``cv_results_``. The next
          candidate is the one with the largest gain of its upper
          confidence bound over the best score so far per unit of expected
          cost (see :class:`GPUCBPolicy`): a cheap candidate nearly as
          promising as an expensive one goes first. Priors without fit times
          (``"kernel"``, an array of scores, ``(mean, cov)``) give every
          candidate the same cost, which is the paper's rule;
        - an array of K positive relative costs, in the candidates' order;
        - None: the paper's rule, the highest upper confidence bound,
          which counts evaluations, not seconds.

        The choice depends only on the relative prior costs, so the same
        `random_state` gives the same search whatever the measured fit
        times; the measured times (summed over the folds) only rescale the
        expected costs (``policy_.expected_cost_``), and, with `max_time`,
        pass over candidates expected not to finish in the time left.

    asynchronous : bool, default=False
        With ``n_jobs > 1``, whether every evaluation a worker runs is a
        decision. ``False``: the decisions are the sequential run's (its
        batches, see `batch_size`), the
        same whatever `n_jobs` given `batch_size`; free workers beyond the
        batch evaluate speculative picks, the
        candidates the sequential run is likeliest to pick next (simulated a
        few picks ahead from its posterior), used only when the sequential
        run picks them, so part of their work is wasted. ``True``: GP-BUCB
        run asynchronously; each free worker gets the highest upper bound
        given the results in and, as if known, the evaluations running, and
        every result counts: no work is wasted, but the evaluated
        candidates, and so the selection, can depend on `n_jobs` and on the
        order results come in. With ``n_jobs=1`` both are the paper's
        algorithm.

    batch_size : int or "auto", default="auto"
        How many candidates may be evaluated at once, each chosen by GP-BUCB
        (Desautels, Krause and Burdick, JMLR 2014): the ``p``-th candidate
        is chosen on the results of the first ``p - batch_size + 1`` and the
        others before it taken as observed at their posterior mean, so the
        upper bounds of a batch spread over candidates the pending ones tell
        little about (:mod:`sksel.gpucb.batch`). A candidate joins the batch
        only while the answer is not known with the pending evaluations
        counted as made, and `n_iter` counts them. The evaluated candidates,
        and so the selection, are a function of the scores and `batch_size`:
        the same for any `n_jobs` and any order results come in, given
        `batch_size`. ``"auto"``: the evaluations the workers run at once,
        ``ceil(n_jobs / n_splits)`` (``n_jobs`` under joblib's backend; an
        evaluation runs its folds side by side): 1, the same answer as one
        worker, up to as many workers as folds; pass an int to get the same
        answer whatever `n_jobs`; and 1 where `looks` are made, which save
        more than a batch on the large data they are made on. More picks at
        once fill more workers but are chosen on fewer results, and the stop
        comes later (the scaling benchmark, :ref:`benchmark_scaling`). 1 is
        the paper's GP-UCB, one candidate after another, free workers taking
        speculative picks (see `asynchronous`). An int above 1 makes no
        `looks`, and `asynchronous` ignores it.

    race_folds : bool, default=True
        Give every candidate a cheap first look: with several folds, a
        candidate is cross-validated fold by fold, and once its mean over
        its first folds, taken as a noisier observation, gives it a posterior
        probability below ``risk / K`` of beating the best candidate
        evaluated on every fold by more than `tol`, its other folds are not
        run (:meth:`GPUCBPolicy.enough_folds`). The full evaluation goes to
        the contenders only. Such a candidate is never selected; its row of
        ``cv_results_`` holds the folds it ran on (the others NaN), ranks
        below the rows scored on every fold and has ``first_look`` True;
        its ``mean_test_*`` and ``std_test_*`` are NaN (a mean over fewer
        folds is not comparable with the others; it is in
        ``mean_test_*_at_resource``), and ``why_not_evaluated`` says
        ``"raced out after 1 of 5 folds ..."``.
        Needs `tol` and a positive `risk` (``n_iter="auto"``).

    looks : bool or "auto", default="auto"
        Before a candidate is cross-validated on all the rows, look at it on
        subsamples: train it on stratified subsamples of the first training
        fold, a 27th, a ninth and a third (halving's rungs; those of at least
        30 rows), the largest of them whose cost is at most half its full
        evaluation's (priced before they are made: a fit's cost an overhead
        plus a part linear in its rows, the overhead taken from the prior's
        fit costs, or as a whole fit's without them), score each on
        that fold's validation rows, and after each ask the model of learning
        curves that :class:`~sksel.DAUBSearch` drops learners by
        (:mod:`sksel.curves.gap_model`, fitted on LCDB 1.0 and recorded
        curves) how likely the candidate is to end more than `tol` above the
        leader (the best candidate evaluated on all the rows, which gets its
        own look at each size first). Below 0.05 the candidate is dropped;
        otherwise the look is a noisy observation of its full score in the
        posterior, and the candidate goes on to its next look, then to all
        the rows, when picked again. A candidate starts on the looks only
        where that pays in expectation: where the probability that they drop
        it exceeds their cost relative to its full evaluation, priced with
        the prior's fit costs (:class:`GPUCBPolicy`, `looks`). A dropped
        candidate is never selected and its row of ``cv_results_`` holds its
        last look (``look`` True, ``n_resources`` the subsample's rows, ranked
        below the rows on all the rows, with NaN ``mean_test_*``: the look's
        score is in ``mean_test_*_at_resource``, and ``why_not_evaluated``
        says ``"dropped after its looks on subsamples ..."``). A candidate whose looks settle the
        answer (every other candidate's probability of ending more than `tol`
        above it sums to at most `risk`) is selected from them and refitted
        on all the rows, without its cross-validation, once a full evaluation
        has checked the model of learning curves on the data: its row is its
        last look, ranked first, with ``settled_by_looks`` True, and
        ``best_score_`` is that look's score; it is then the only row with a
        ``mean_test_*`` (the rows on all the rows keep theirs in
        ``mean_test_*_at_resource``: a look's score is not comparable with
        theirs). A full evaluation whose gap to
        the leader lies beyond the model's 0.5% tails given their looks sets
        the looks aside: no more looks, and the candidates they dropped are
        candidates again (``policy_.looks_contradicted_``). ``"auto"``: looks where they can be
        made and pay -- a stop (`tol`, `risk` > 0), not `asynchronous`, a
        `batch_size` of 1 or ``"auto"``, a
        classifier scored in [0, 1] or a regressor scored by R² (the gap
        models' scores) and training
        folds of at least 4,000 rows. ``True``: wherever they can be made (a
        ``ValueError`` before any training where they cannot); ``False``:
        never, every candidate evaluated is on all the rows.

    scoring, n_jobs, refit, cv, verbose, random_state, error_score
        As in :class:`~sksel.DAUBSearch` (see `asynchronous` for ``n_jobs >
        1``). The progress `verbose` prints counts evaluations on all the
        rows against `n_iter` (with ``"auto"``, against `max_iter`); its
        best is the best of them; looks on a subsample and speculative
        evaluations not used are counted apart, on its last line.

    return_train_score, checkpoint
        As in :class:`~sksel.DAUBSearch`.

    max_time : float, default=None
        Seconds the whole ``fit`` may take, the refit included, as FLAML's
        ``time_budget``: it ends by about `max_time` (at most ``1.1 *
        max_time + 1`` seconds) with the best model evaluated so far. Before
        the search, a first model, the cheapest evidence there is (one
        candidate of each estimator class fitted on a few rows of the first
        fold, the quickest found first), is fitted and scored; the search
        then runs until `max_time` less the predicted seconds of the leader's
        refit, and the fits still running then are cut. Where the limit ends
        the search before its choice is settled, the candidates are compared
        at the most training two or more of them got (where none shares one,
        the most any got), the best there is selected (it ranks 1), and a
        ``UserWarning`` says so; where no evaluation of the search ended in
        time, the first model is selected, with a ``UserWarning``. The refit
        trains on all the rows where it is predicted to end in time, else on
        the largest stratified subsample that does, never fewer rows than
        the selected evaluation trained on, with a ``UserWarning``. ``fit``
        raises only where not even the first model ends in time, saying
        what it measured. See :ref:`the User Guide <max_time>`.

    keep_predictions, keep_fold_models
        As in :class:`~sksel.DAUBSearch`.

    Attributes
    ----------
    cv_results_ : dict of numpy (masked) ndarrays
        One row per candidate, those not evaluated included (NaN scores,
        ranked last, ``why_not_evaluated`` saying why), with the keys of
        :class:`~sklearn.model_selection.GridSearchCV` plus ``candidate_id``,
        ``candidate_name`` (``#id`` and the short name ``verbose=2`` prints
        and the displays draw), ``n_resources``, ``iter``, ``posterior_mean``
        and ``posterior_std`` (after the last evaluation; for an error or a
        loss, on the scale the policy reads it on, :ref:`scorers`), and, with
        `race_folds` and a stop (`tol`, `risk`), ``first_look``: whether the
        candidate's evaluation stopped after its first folds (the others
        NaN). ``n_folds_run`` is the number of folds each row's scores
        are over. With `looks`, ``look``: whether the row is a look on a
        subsample (``all_cv_results_`` holds the looks of the candidates
        evaluated further too), and ``settled_by_looks``: whether it is the
        candidate selected from its looks. The means of scores are given for
        the rows evaluated as the selected candidate was (on all the rows, on
        every fold), ranked by them; the others (first looks, looks, failed
        or not evaluated) have NaN there and share the last rank, their own
        means in ``mean_test_*_at_resource``, and ``why_not_evaluated`` says
        why (:ref:`User Guide <user_guide>`, *One order*).

    n_iter_ : int
        The evaluations made (candidates evaluated, first looks included,
        looks on a subsample left out; ``n_looks_`` counts those):
        with ``n_iter="auto"``, where the search stopped (``verbose=1``
        prints why).

    n_looks_ : int
        The looks on a subsample made (`looks`), the leader's included.

    posterior_mean_, posterior_std_ : ndarray of shape (K,)
        Posterior of every candidate, evaluated or not, on the scale the
        policy reads the scores on (that of the scorer, or for an error or a
        loss its skill: :ref:`scorers`).

    candidates_ : list of dict
        The K candidates' parameters, in order.

    batch_size_ : int
        The candidates that could be evaluated at once (`batch_size`).

    beta_scale_ : float
        The exploration scale used.

    cost_ : ndarray of shape (K,) or None
        The relative prior costs used (geometric mean 1), or None for the
        paper's rule.

    prior_ : str
        The prior used: ``"kernel"``, ``"default"`` or ``"lcdb"`` (shipped;
        with ``prior="auto"``, the one that matched), ``"scores"`` (earlier
        scores or ``cv_results_``) or ``"given"`` (``(mean, cov)``).

    prior_match_ : list of str or None
        With ``prior="auto"`` and a shipped prior used, how each candidate
        matched it: ``"exact"``, ``"family"`` or ``"unknown"``; else None.

    policy_ : GPUCBPolicy
        The policy, with its ``history_``.

    all_cv_results_, best_estimator_, best_score_, best_params_, best_index_, scorer_
        As in :class:`~sksel.DAUBSearch`.

    n_splits_, refit_time_, multimetric_, stop_reason_, cv_predictions_
        As in :class:`~sksel.DAUBSearch`.

    classes_, n_features_in_, feature_names_in_
        As in :class:`~sksel.DAUBSearch`.

    See Also
    --------
    sksel.DAUBSearch : Spends training rows instead of whole fits.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sksel import GPUCBSelector
    >>> X, y = load_iris(return_X_y=True)
    >>> grid = {"C": np.logspace(-4, 2, 13).tolist()}
    >>> search = GPUCBSelector(LogisticRegression(max_iter=1000), grid, n_iter=5,
    ...                        random_state=0).fit(X, y)
    >>> len(search.cv_results_["params"]), search.posterior_mean_.shape
    (13, (13,))
    >>> int((search.cv_results_["n_folds_run"] > 0).sum())  # the candidates evaluated
    5
    """

    _resource_noun = "rows"

    _maps_scores = True

    _parameter_constraints: dict = {
        **BaseSelectionSearch._parameter_constraints,
        "param_grid": [dict, list, None],
        "param_distributions": [dict, list, None],
        "n_candidates": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "prior": [StrOptions({"auto", "kernel", "default", "lcdb"}), "array-like", list, tuple],
        "n_iter": [Interval(numbers.Integral, 1, None, closed="left"), StrOptions({"auto"})],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
        "risk": [Interval(numbers.Real, 0, 1, closed="both")],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "noise": [Interval(numbers.Real, 0, None, closed="neither")],
        "delta": [Interval(numbers.Real, 0, 1, closed="neither")],
        "beta_scale": [Interval(numbers.Real, 0, None, closed="left"),
                       StrOptions({"auto", "tune"})],
        "empirical_bayes": ["boolean"],
        "kernel": [StrOptions({"rbf", "arc"})],
        "cost": [StrOptions({"auto", "prior"}), "array-like", None],
        "asynchronous": ["boolean"],
        "batch_size": [Interval(numbers.Integral, 1, None, closed="left"), StrOptions({"auto"})],
        "race_folds": ["boolean"],
        "looks": ["boolean", StrOptions({"auto"})],
    }

    def __init__(
        self,
        estimator,
        param_grid=None,
        *,
        param_distributions=None,
        n_candidates=None,
        prior="auto",
        n_iter="auto",
        tol=0.01,
        risk=0.1,
        max_iter=None,
        noise=0.01,
        delta=0.1,
        beta_scale="auto",
        empirical_bayes=True,
        kernel="rbf",
        cost="auto",
        asynchronous=False,
        batch_size="auto",
        race_folds=True,
        looks="auto",
        scoring=None,
        n_jobs=None,
        refit=True,
        cv=None,
        verbose=0,
        random_state=None,
        error_score=np.nan,
        return_train_score=False,
        max_time=None,
        checkpoint=None,
        keep_predictions=False,
        keep_fold_models=False,
    ):
        super().__init__(
            estimator,
            scoring=scoring,
            n_jobs=n_jobs,
            refit=refit,
            cv=cv,
            verbose=verbose,
            random_state=random_state,
            error_score=error_score,
            return_train_score=return_train_score,
            max_time=max_time,
            checkpoint=checkpoint,
            keep_predictions=keep_predictions,
            keep_fold_models=keep_fold_models,
        )
        self.param_grid = param_grid
        self.param_distributions = param_distributions
        self.n_candidates = n_candidates
        self.prior = prior
        self.n_iter = n_iter
        self.tol = tol
        self.risk = risk
        self.max_iter = max_iter
        self.noise = noise
        self.delta = delta
        self.beta_scale = beta_scale
        self.empirical_bayes = empirical_bayes
        self.kernel = kernel
        self.cost = cost
        self.asynchronous = asynchronous
        self.batch_size = batch_size
        self.race_folds = race_folds
        self.looks = looks

    def fit(self, X, y=None, **params):
        """Run GP-UCB over the candidates, then refit the best on all of `X`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training vectors.
        y : array-like of shape (n_samples,), default=None
            Targets.
        **params : dict of str -> object
            Parameters passed to the ``fit`` method of every candidate;
            ``groups`` goes to the cross-validation splitter.

        Returns
        -------
        self : object
            Instance of fitted search.
        """
        super().fit(X, y, **params)
        self.n_looks_ = sum(map(len, self.policy_.look_scores_.values()))
        self.n_iter_ = self.policy_.n_evaluations_
        self.posterior_mean_, self.posterior_std_ = self.policy_.posterior()
        return self

    def _search_space(self):
        if self.param_distributions is None:
            if self.n_candidates is not None:
                raise ValueError(
                    f"n_candidates={self.n_candidates} samples K candidates from "
                    "param_distributions; with param_grid or a list of estimators the "
                    "candidates are given: leave n_candidates=None."
                )
            return SearchSpace(self.estimator, self.param_grid)
        if self.param_grid is not None or self.n_candidates is None:
            raise ValueError(
                "param_distributions needs n_candidates (K) and no param_grid; got "
                f"n_candidates={self.n_candidates}, param_grid={self.param_grid!r}."
            )
        return SearchSpace(self.estimator, param_distributions=self.param_distributions)

    def _candidates(self, space):
        """The candidates given, or `n_candidates` diverse ones of `param_distributions`."""
        if self.param_distributions is None:
            return super()._candidates(space)
        return KDPPSampler(self.param_distributions, self.n_candidates,
                           random_state=self.random_state).sample()

    def _make_policy(self, candidates, splits, y, n_classes, rng):
        self.candidates_ = candidates
        estimators = self._estimators
        n_iter, tol = self._n_iter_tol(len(candidates))
        mean, cov, fit_scale, scores = self._prior(candidates, estimators, n_classes)
        self.cost_, times = self._cost(candidates)
        self.beta_scale_ = self._beta_scale(fit_scale, scores, times)
        full = min(len(train) for train, _ in splits)
        looks = self._look_sizes(full, tol)
        self.batch_size_ = self._batch_size(n_iter, len(splits), looks)
        self.policy_ = GPUCBPolicy(
            mean, cov, noise=self.noise, delta=self.delta, beta_scale=self.beta_scale_,
            n_iter=n_iter, tol=tol, risk=self.risk, fit_scale=fit_scale,
            empirical_bayes=self.empirical_bayes and not fit_scale, random_state=rng,
            resource=full, cost=self.cost_,
            budget=self.max_time if self.cost_ is not None else None,
            asynchronous=self.asynchronous, batch_size=self.batch_size_, race=self.race_folds,
            n_folds=len(splits),
            looks=looks, gap_model=shipped_model(self._curve_kind()) if looks else None,
            n_validation=sum(len(test) for _, test in splits[:_LOOK_FOLDS]),
            look_threshold=_LOOK_THRESHOLD,
            look_cost=self._look_cost(len(candidates)) if looks else None,
            look_folds=_LOOK_FOLDS, look_share=_LOOK_SHARE,
            families=[learner_family(estimator) for estimator in estimators],
            family_floor=_FAMILY_FLOOR if looks else 0.0,
        )
        if not looks:
            return self.policy_, FoldsTrainer(splits)
        return self.policy_, _LooksTrainer(splits, y, [*looks, full],
                                           stratify=n_classes is not None, random_state=rng,
                                           n_folds_below_max=_LOOK_FOLDS)

    def _look_sizes(self, full, tol):
        """The rows of the looks on a subsample (`looks`), increasing; empty without looks."""
        sizes = sorted({full // d for d in _LOOK_DIVISORS if full // d >= _SMALLEST_LOOK})
        reasons = [why for why, missing in (
            ("a stop (n_iter='auto', risk > 0)", tol is None or self.risk == 0),
            ("asynchronous=False", self.asynchronous),
            ("batch_size=1 or 'auto'", self.batch_size != "auto" and self.batch_size > 1),
            ("a score the curve models know (a classifier's in [0, 1], log loss or Brier "
             "score; a regressor's R², squared or absolute error)",
             self._curve_kind() is None),
            (f"training folds of at least {_SMALLEST_LOOK * min(_LOOK_DIVISORS)} rows",
             not sizes),
        ) if missing]
        if self.looks is True and reasons:
            raise ValueError(f"looks=True needs {' and '.join(reasons)}; or leave "
                             "looks='auto'.")
        if not self.looks or reasons or (self.looks == "auto" and full < _LOOKS_FROM_ROWS):
            return []
        return sizes

    def _batch_size(self, n_iter, n_folds, looks):
        """The candidates that may be evaluated at once: `batch_size`, with ``"auto"`` the
        evaluations of `n_folds` folds the workers run at once, at most `n_iter`; 1 with
        `asynchronous`, and with ``"auto"`` where `looks` are made."""
        if self.asynchronous or (self.batch_size == "auto" and len(looks)):
            return 1
        size = (-(-effective_n_jobs(self.n_jobs) // n_folds) if self.batch_size == "auto"
                else self.batch_size)
        return max(1, min(size, n_iter))

    def _look_cost(self, n_total):
        """Relative fit costs that price the looks: the prior's (`cost`'s source), or, without
        fit times, equal costs: every fit's overhead taken as a whole fit's, whatever its
        rows."""
        if self.cost_ is not None:
            return self.cost_
        times = self._shipped_times()
        return np.ones(n_total) if times is None else cost_prior_from_times(times)

    def _n_iter_tol(self, n_total):
        """``(most evaluations, tol or None)`` of the policy for K = `n_total` candidates."""
        if self.n_iter == "auto":
            return min(n_total, self.max_iter or n_total), self._policy_tol(self.tol)
        if self.max_iter is not None:
            raise ValueError(f"max_iter={self.max_iter} caps n_iter='auto'; with "
                             f"n_iter={self.n_iter} leave max_iter=None.")
        if self.n_iter > n_total:
            raise ValueError(f"n_iter={self.n_iter} is larger than the "
                             f"{counted(n_total, 'candidate')} (K).")
        return self.n_iter, None

    def _why_less_training(self, results, row, full, cut):
        """A candidate only looked at on subsamples: dropped by its looks, selected from them,
        or left when the search stopped; a first look (:meth:`BaseSelectionSearch.
        _why_less_training`'s race) in rows."""
        n = results["n_resources"][row]
        if n >= full or row in self._failed_refits:
            return super()._why_less_training(results, row, full, cut)
        policy, candidate = self.policy_, results["candidate_id"][row]
        last = f"the last on {n:,} of {full:,} rows"
        if candidate in policy.dropped_:
            return (f"dropped after its looks on subsamples ({last}): the model of learning "
                    f"curves gives it a probability below {policy.look_threshold:g} of ending "
                    f"more than tol={self.tol:g} above the leader")
        if candidate == policy.settled_:
            return (f"selected from its looks on subsamples ({last}), without a "
                    "cross-validation on all the rows: the looks settled the answer")
        if cut:
            return (f"looked at on subsamples only ({last}): {self._cut_cause()} then ended "
                    "the search")
        return (f"looked at on subsamples only ({last}): the search stopped before its "
                "evaluation on all the rows")

    def _progress_budget(self, n_candidates):
        n_iter = self.policy_.n_iter
        if self.policy_.tol is None:
            return n_iter, True, (f"{counted(n_iter, 'evaluation')} planned (n_iter) of the "
                                  f"{n_candidates}")
        looks = self.policy_.looks
        apart = (f"; looks on a subsample ({', '.join(map(str, looks))} rows) counted apart"
                 if looks else "")
        return n_iter, False, (f"at most {counted(n_iter, 'evaluation')} of the {n_candidates}, "
                               f"until the answer is known ({self._tol_words(self.tol)}, "
                               f"risk={self.policy_.risk:g}){apart}")

    def _prior(self, candidates, estimators, n_classes):
        """``(mean, cov, fit_scale, earlier_scores or None)`` for the `candidates`, built as
        `estimators`; sets ``prior_`` and ``prior_match_``."""
        n_total = len(candidates)
        self.prior_match_, self._known = None, None
        if isinstance(self.prior, str) and self.prior in ("auto", "kernel"):
            corr = kernel_prior(candidates, self.kernel)
            if self.prior == "auto":
                self._known = self._known_prior(estimators, corr, n_classes)
            if self._known is not None:
                self.prior_, self.prior_match_ = self._known.name, self._known.match
                return self._known.mean, self._known.cov, False, self._known.scores
            self.prior_ = "kernel"
            self._warn_if_the_kernel_shares_nothing(candidates, n_classes)
            return np.zeros(n_total), corr, True, None
        if isinstance(self.prior, tuple):
            self.prior_ = "given"
            return (*_check_mean_cov(*self.prior, n_total), False, None)
        self.prior_ = self.prior if isinstance(self.prior, str) else "scores"
        if isinstance(self.prior, str):  # "default" or "lcdb"
            scores = _shipped_prior_scores(candidates, self.prior)
        elif len(self.prior) and isinstance(self.prior[0], Mapping):
            scores = _scores_from_results(self.prior, candidates)
        else:
            scores = np.asarray(self.prior, dtype=float)
        if scores.ndim != 2 or scores.shape[1] != n_total:
            raise ValueError(
                f"prior must have one column per candidate: got shape "
                f"{scores.shape} for {counted(n_total, 'candidate')}."
            )
        mean, cov = prior_from_scores(scores)
        return mean, cov, False, scores

    def _known_prior(self, estimators, kernel_corr, n_classes):
        """The shipped prior's knowledge of the candidates' learners
        (:func:`~sksel.gpucb.known.known_prior`), or None: that of the classifiers' priors
        or the regressors', chosen by the learners, for the scores they hold and those read
        on their scale (:meth:`_curve_scale`: an error as an R²). Not for a classifier's
        loss: the classifiers' priors hold accuracies, whose gaps are not a loss's (on
        ring, by log loss, the accuracy prior's view of naive Bayes stopped the search on a
        pick 50% worse)."""
        if self._no_shipped_scores(n_classes):
            return None
        return known_prior(estimators, kernel_corr,
                           "accuracy" if n_classes is not None else "r2")

    def _no_shipped_scores(self, n_classes):
        """Whether the shipped priors hold no scores of the fit's scorer: one the curve models
        do not read, or a classifier's loss (they hold accuracies)."""
        return self._scale_ is None or (n_classes is not None and self._scale_.mapped)

    def _shipped_times(self):
        """The earlier fit times of the candidates shipped with the prior used, or None."""
        if self._known is not None:
            return self._known.times
        return _shipped_times(self.prior)

    def _warn_if_the_kernel_shares_nothing(self, candidates, n_classes):
        """Warn where ``prior="kernel"`` cannot tell the candidates apart before evaluating them.

        Candidates that differ only by an estimator (a list of learners) are
        one-hot to the kernel: every pair is alike, so a score tells nothing
        of which other candidate is better, and with ``n_iter="auto"`` the
        search may evaluate about all of them, looks and speculative work on
        top.
        """
        only_estimators = all(len(params) == 1 and hasattr(next(iter(params.values())), "fit")
                              for params in candidates)
        same_name = len({tuple(params) for params in candidates}) == 1
        if self.n_iter != "auto" or len(candidates) < 2 or not (only_estimators and same_name):
            return
        if self.prior == "kernel":
            which = "prior='kernel'"
        elif self._no_shipped_scores(n_classes):
            metric, _ = self._ranking_metric()
            which = ("prior='auto' has no earlier scores of "
                     f"{getattr(metric, '__name__', 'the scorer given')} (the shipped priors "
                     "hold classifiers' accuracies and regressors' R²: see the User Guide's "
                     "Scorers), and the kernel prior it uses")
        else:
            which = "prior='auto' knows too few of the learners, and the kernel prior it uses"
        warnings.warn(
            f"{type(self).__name__}: {which} shares nothing between the {len(candidates)} "
            "candidates, which differ only by their estimator: one "
            "evaluation tells nothing about which other is better, so the search can cost as "
            "much as cross-validating every candidate (GridSearchCV), or more. Pass a prior "
            "from earlier datasets (prior=<their scores> or prior=[earlier searches' "
            "cv_results_]; prior='lcdb' or 'default' with the candidates of "
            "sksel.gpucb.portfolio), or use DAUBSearch, which drops learners on subsamples.",
            UserWarning, stacklevel=8,
        )

    def _cost(self, candidates):
        """``(relative prior costs or None, earlier fit times or None)``.

        None costs: the paper's rule.
        """
        n_total = len(candidates)
        if self.cost is None or (isinstance(self.cost, str) and self.cost == "auto"
                                 and self.max_time is None):
            return None, None
        if not isinstance(self.cost, str):
            cost = _checked_cost(self.cost, n_total)
            return cost / np.exp(np.mean(np.log(cost))), None
        times = self._shipped_times()
        if times is None and (not isinstance(self.prior, (str, tuple)) and len(self.prior)
                              and isinstance(self.prior[0], Mapping)):
            times = _scores_from_results(self.prior, candidates, key="mean_fit_time")
        if times is None:
            return None, None  # no fit times: equal costs, the paper's rule
        return cost_prior_from_times(times), times

    def _beta_scale(self, kernel, scores, times=None):
        """The factor of ``beta_t``: `beta_scale` resolved for a kernel prior or not."""
        if self.beta_scale == "auto":
            return 1.0 if kernel else AUTO_BETA_SCALE
        if self.beta_scale != "tune":
            return float(self.beta_scale)
        if scores is None or len(scores) < 3:
            raise ValueError(
                'beta_scale="tune" replays the search on the earlier datasets of the prior, '
                "and needs scores from at least 3 of them; prior="
                f"{self.prior if isinstance(self.prior, str) else type(self.prior).__name__} "
                "has none or fewer: give beta_scale a number or 'auto'."
            )
        scale, _ = tune_beta_scale(scores, noise=self.noise, delta=self.delta, times=times,
                                   empirical_bayes=self.empirical_bayes)
        return scale


#: ``beta_scale="auto"`` with a prior from earlier scores: the scale that found the best
#: candidate soonest on LCDB's tune half (``benchmarks/bench_gpucb_stop.py``).
AUTO_BETA_SCALE = 0.3


class _LooksTrainer(RowsTrainer):
    """:class:`~sksel.training.rows.RowsTrainer` that marks the looks on a subsample."""

    def columns(self, job, actions):
        """``look``: whether each evaluation is on fewer rows than the training folds'."""
        return {"look": np.array([resource < self.max_resources for _, resource in actions])}

    def ranking_resource(self, results):
        """``n_resources``, but above every other for the candidate selected from its looks
        (``settled_by_looks``): it ranks first."""
        return np.where(results["settled_by_looks"], 2 * self.max_resources,
                        results["n_resources"])


def _shipped_times(prior):
    """The fit times shipped with `prior` ("default", "lcdb"), or None."""
    if isinstance(prior, str) and prior in _SHIPPED:
        return _SHIPPED[prior][2]()[1]
    return None


def _check_mean_cov(mean, cov, n_total):
    """The prior ``(mean, cov)`` as arrays, checked against K = `n_total` candidates."""
    mean, cov = np.asarray(mean, dtype=float), np.asarray(cov, dtype=float)
    if mean.shape != (n_total,) or cov.shape != (n_total, n_total):
        raise ValueError(
            f"prior=(mean, cov) must have shapes ({n_total},) and ({n_total}, {n_total}) "
            f"for {counted(n_total, 'candidate')}; got {mean.shape} and {cov.shape}."
        )
    if not np.allclose(cov, cov.T):
        raise ValueError("prior=(mean, cov): cov must be symmetric.")
    smallest = np.linalg.eigvalsh(cov)[0]
    if smallest < -1e-10 * max(1.0, np.abs(cov).max()):
        raise ValueError(
            "prior=(mean, cov): cov must be positive semi-definite; its smallest "
            f"eigenvalue is {smallest:.3g}."
        )
    return mean, cov


def _scores_from_results(results, candidates, key="mean_test_score"):
    """Rows of earlier ``cv_results_``, matched to `candidates` by their parameters.

    `key` is the column read (``"mean_fit_time"`` for the fit times).
    """
    keys = [repr(sorted(params.items())) for params in candidates]
    column = {key: j for j, key in enumerate(keys)}
    scores = np.full((len(results), len(candidates)), np.nan)
    for i, result in enumerate(results):
        for params, score in zip(result["params"], result[key]):
            j = column.get(repr(sorted(params.items())))
            if j is not None:
                scores[i, j] = score
    return scores


def _shipped_prior_scores(candidates, name):
    """The scores of a prior shipped with sksel, once the candidates are its portfolio's."""
    make_portfolio, read_prior, _ = _SHIPPED[name]
    portfolio = [estimator for _, estimator in make_portfolio()]
    given = [params.get("estimator") for params in candidates]
    if len(given) != len(portfolio) or any(
        type(g) is not type(p) or repr(g) != repr(p) for g, p in zip(given, portfolio)
    ):
        raise ValueError(
            f'prior="{name}" is the prior of sksel.gpucb.portfolio.{make_portfolio.__name__}(): '
            "give those estimators, in that order, as the list of candidates."
        )
    return read_prior()[1]
