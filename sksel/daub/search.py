"""DAUBSearch: the search estimator of DAUB's policy over training rows (see :mod:`sksel.daub`)."""

import inspect
import math
import numbers
import warnings
from functools import partial

import numpy as np
from sklearn.exceptions import FitFailedWarning
from sklearn.metrics import accuracy_score, explained_variance_score, r2_score

from .._compat import Interval, StrOptions
from .._core.naming import counted
from .._core.search import BaseSelectionSearch, DisplayInfo
from ..curves.gap_model import is_shipped, score_noise, shipped_model, threshold
from ..training.rows import RowsTrainer
from .bound import accuracy_noise
from .learner_cost import predicted_cost
from .policy import DAUBPolicy, daub_sizes
from .rungs import RungPolicy, rung_sizes

#: Rows of a training fold from which ``r="auto"`` grows subsamples by 2 instead of 3.
_LARGE = 10_000
#: Ratio of two rungs' sizes with ``risk > 0``: successive halving's factor 3.
_ETA = 3
#: The default `risk`; another one warns where the rungs do not run (it would do nothing).
_DEFAULT_RISK = 0.1
#: With DAUB's bounds (``risk=0``), no learner costs more than this times its fit on N.
_BUDGET = 1.1
#: The parameters of DAUB's bounds only: the rungs of ``risk > 0`` ignore them.
_DAUB_ONLY = ("r", "b", "l", "bound", "projection", "stop", "jump")


class DAUBSearch(BaseSelectionSearch):
    """Select a learner by giving growing data subsamples to the most promising.

    Learners are compared on small, nested, stratified subsamples of a
    training fold before any is trained on all of it, so that those that
    cannot win stop early, on little data; validation folds are never
    subsampled. The learner that scores best on whole training folds, scored
    on every fold, is selected and refitted on all the data.

    With ``risk > 0`` (the default) and scores in [0, 1] (accuracy and the
    other scorers listed under `noise`), regressors scored by R² (their
    own score, ``scoring="r2"``), or an error or a loss read as its skill
    on R²'s scale (squared and absolute errors, log loss, the Brier score:
    :ref:`scorers`), the learners go through rungs whose
    sizes grow by 3, as in successive halving: after each rung the best third
    goes on, and so does every other learner that may still end more than
    `tol` above the leader (the best learner at that size) with a probability
    at or above its threshold: the threshold of `risk` (with ``cost="time"``
    scaled by the seconds the rest of the learner's path is predicted to
    cost, so that a costly learner needs a larger probability to go on than a
    cheap one; with ``cost="rows"``, the default, every learner's path costs
    the same rows). That probability comes from
    a model of the final gap between two learners given their learning
    curves so far, learned from real learning curves (classifiers', or
    regressors' R² on 57 real regression tables: :mod:`sksel.curves.gap_model`),
    and the threshold of each `risk` was
    chosen on datasets the model was not fitted on, so that at most a share
    `risk` of searches select a learner more than `tol` below the best one
    (:class:`~sksel.daub.RungPolicy`).

    With ``risk=0``, other scores (regression scores other than those above),
    or ``bound="train"``,
    the search is DAUB (Sabharwal et al., AAAI 2016): every candidate is
    trained on the `l` smallest subsamples; from then on the candidate with
    the highest upper bound on its full-data score gets the next, about `r`
    times larger, subsample, until a candidate trained on whole training
    folds scores at least every other candidate's bound
    (:class:`~sksel.daub.DAUBPolicy`). It never drops a learner that its
    bound says may still win, and costs more; a learner whose subsamples would
    cost more than a tenth of its fit on whole training folds (in rows, or in
    seconds with ``cost="time"``) goes to them at once, so the search costs
    at most about 1.1 times training every learner once (the paper's
    ``bound="train"`` has no such cap). The parameters `r`, `b`, `l`,
    `bound`, `projection`, `stop` and `jump` below tune it and do nothing
    where the rungs run (``risk > 0`` with scores in [0, 1] or R²): ``fit`` warns of
    those set away from their defaults there, before any training.

    Read more in the :ref:`User Guide <daub>`.

    Parameters
    ----------
    estimator : estimator object or list
        One estimator searched over `param_grid`, or a list of candidates:
        estimators and/or ``(estimator, param_grid)`` pairs.

    param_grid : dict or list of dicts, default=None
        Grid of parameters for a single `estimator`, as
        :class:`~sklearn.model_selection.GridSearchCV` takes it. Must be None
        when `estimator` is a list.

    risk : float in [0, 1), default=0.1
        Share of searches allowed to select a learner more than `tol` below
        the best one on all the rows (with scores in [0, 1], or R²). A learner
        outside the top third of a rung is dropped once its probability of
        ending more than `tol` above the leader falls below its threshold, that
        of `risk` (chosen on held-out datasets, ``sksel/data/daub_gap_risk.csv``,
        for R² ``daub_gap_r2_risk.csv``; with ``cost="time"`` those of
        ``daub_gap_time_risk.csv``) scaled by its predicted cost. A larger
        `risk` drops more learners, earlier (on LCDB's held-out single splits,
        see :ref:`daub_risk`). ``0`` is DAUB's upper bounds, which drop no
        learner that may still win; so is any `risk` with scores the gap
        model does not know, where a `risk` set away from its default warns
        that it does nothing. Squared and absolute errors, log loss and the
        Brier score are read as their skill, on R²'s scale (:ref:`scorers`).

    tol : float, default=0.005
        The loss that counts: 0.5 accuracy or R² points by default; with
        ``risk > 0`` and an error or a loss, a share of the leader's error
        (0.5%; :ref:`scorers`, ``verbose=1`` says it with the data's
        baseline error). With ``risk > 0``, a learner goes on while it may end more
        than `tol` above the leader. With ``risk=0``, bounds within `tol` of
        the highest count as tied, and the tied learner whose next subsample is
        the smallest goes first (``0`` is the paper's argmax); with
        ``stop="strict"`` the search also ends once no bound exceeds the best
        score at N by more than `tol`: near-ties need not all reach N.

    r : float or "auto", default="auto"
        Geometric growth of the subsample sizes, > 1: sizes are the multiples of
        `b` ``n_0 = b``, ``n_{i+1} = min(N, b * ceil(r * n_i / b))``, the last
        one N, the rows of the smallest training fold. The paper uses 1.5.
        ``"auto"`` uses 3 when N is below 10,000 rows and 2 from there on: on
        small data a fit costs about as much on a subsample as on N, so fewer
        steps cost less; on large data finer steps drop learners earlier.

    b : int or "auto", default="auto"
        Granularity and first subsample size. ``"auto"`` uses
        ``min(500, max(N // 32, 10 * n_classes))`` rows (``20`` instead of
        ``10 * n_classes`` for regressors), at most N, so small datasets still
        get several sizes. The paper uses 500.

    l : int or "auto", default="auto"
        Number of most recent points of a learning curve whose least-squares
        slope projects it to N, and number of sizes every candidate is first
        trained on. ``"auto"`` is 3, or the sizes below N where fewer lie
        there (at least 2). An int larger than the sizes below N is lowered
        to them, with a warning.

    bound : {"prior", "slope", "train"}, default="prior"
        Upper bound on a learner's score at N. ``"prior"``, for classifiers
        scored in [0, 1] (the scores listed under `noise`), is the larger of the
        slope projection and the rise that real learning curves with the same
        prefix reached at their 98th percentile (:mod:`sksel.daub.curve_prior`,
        learned from LCDB's curves): a learner that trails on small
        subsamples keeps a bound that lets it catch up later. Other scores
        get ``"slope"``, the slope projection alone. ``"train"`` is the
        paper's: the smaller of the learner's score on its own training
        subsample and the projection; it costs a scoring of the training
        subsample per fit below N, and starves learners that score higher on
        validation data than on their training subsample (strongly
        regularised models, late bloomers). With ``"prior"`` and
        ``"slope"``, once learners reach N the search checks the bounds
        their earlier points gave: if they scored above them, every
        remaining bound widens by the ratio before anyone else is dropped
        (``policy_.widening_``).

    cost : {"rows", "time"}, default="rows"
        What a learner's next steps cost. ``"rows"`` (the paper's) counts
        training rows, known before any fit, so that the search's decisions,
        and ``cv_results_`` apart from its times, are a function of the data,
        the candidates and `random_state`: the same on every run and for any
        `n_jobs`. ``"time"`` reads the measured seconds of its evaluations
        (fits and scoring) as an overhead plus a power of the rows
        (:func:`~sksel.daub.cost.fit_cost`): with ``risk > 0``, a learner whose
        path to whole training folds is predicted to cost more needs a larger
        probability to go on (the thresholds of `risk` are calibrated for
        each cost, ``sksel/data/daub_gap_time_risk.csv``); with ``risk=0``, a
        learner whose fit time is nearly flat in rows (on small subsamples,
        many boosting and forest learners) goes to whole training folds as
        soon as its last two sizes show it, skipping the rest of its warm-up,
        and the `jump` and `tol` tie-breaks compare predicted seconds.
        Seconds vary from run to run, so with ``"time"`` a rerun with the
        same `random_state` may take other steps: on nine small problems
        (``benchmarks/bench_same_seed.py``, 2026-12-02) four fits of each
        (one and two workers) gave one ``cv_results_`` with ``"rows"`` on
        every problem and two to four on seven of them with ``"time"``; what
        each costs is in :ref:`daub_cost`.

    projection : {"auto", "linear", "log"}, default="auto"
        How the slope of the last `l` points projects a learning curve to N:
        a line in rows (``"linear"``, the paper's, an upper bound for any
        concave curve) or in log(rows) (``"log"``, much tighter, an upper bound
        for curves with diminishing returns per doubling of the data, as power
        laws have). ``"auto"`` uses the log scale for a curve whose every step
        so far gained no more per doubling than the step before it (up to twice
        `noise`) and the linear one for the others: curves still flat at
        chance level, which may take off later, and accelerating ones.

    noise : float or "auto", default="auto"
        Standard error of a validation score, which raises every learning
        curve's slope by its standard error before projecting, so that a
        learner whose first points are flat or dipping only by chance is not
        dropped. With ``n_validation`` the validation rows of the
        `subsample_folds` folds the learning curves are drawn on, ``"auto"``
        uses, for classifiers scored by accuracy (the default score), the
        binomial standard error of each curve's latest score
        (:func:`accuracy_noise`); for those scored by balanced accuracy, ROC
        AUC, average precision, F1, precision, recall or Jaccard,
        ``0.5 / sqrt(n_validation)``, the largest standard error of a score in
        [0, 1]; and 0 (the paper's bound) otherwise.

    stop : {"first", "strict"}, default="strict"
        ``"first"``, the paper's rule, stops when the first learner reaches N.
        ``"strict"`` stops only when a learner trained on N scores at least
        every other learner's upper bound, and selects the best learner at N.

    jump : float, default=3.0
        A learner whose next subsample would hold at least ``N / jump`` rows
        is trained on whole training folds instead: the last rungs of a
        ladder cost nearly as much as N, and a learner that climbs them
        mostly ends at N anyway. ``1`` (never) is the paper's ladder. On
        LCDB's real curves, 3 (chosen on half of the datasets) cut the mean
        training cost from 1.02 to 0.90 of training every learner on the
        other half, at a lower loss.

    subsample_folds : int or "all", default=1
        Number of cross-validation folds, the first ones, on which subsamples
        smaller than N are evaluated; N is evaluated on every fold, so the
        selected candidate's score is a cross-validated one as in
        :class:`~sklearn.model_selection.GridSearchCV`. ``1`` draws the
        learning curves on one fold, at a fifth of the cost with ``cv=5``:
        learners whose fit costs nearly as much on a subsample as on N
        (boosting, forests) pay for every step of their curve. ``"all"``
        draws them on every fold.

    race_folds : bool, default=True
        With several folds, race them at N: a candidate trained on whole
        training folds is scored fold by fold, and once its folds so far
        trail the same folds of the best candidate scored on all of them by
        more than `tol` beyond what the noise of one fold's score explains (a
        one-sided paired test at 1%; from three folds on, the spread of the
        differences too, when larger), its other folds are not trained: it
        gets no more data and is not selected. The selected candidate is
        always scored on every fold; ``cv_results_`` holds the folds each
        candidate ran on. Scores without a noise model (see `noise`) are
        raced from their third fold on. ``False`` trains every candidate
        that reaches N on every fold.

    rungs : {"cost", "all"}, default="cost"
        Which rungs below N each learner is trained on (``risk > 0``).
        ``"cost"``: before any training, each learner is given the rungs whose
        cost is predicted to pay for itself: its predicted seconds on a rung
        (:mod:`sksel.daub.learner_cost`, from the learner's class, the rows,
        features and classes; not measured, so the same seed gives the same
        search) against what the rung is expected to save by dropping it,
        its seconds on the next rungs and on N's folds. A learner whose fit
        costs about as much on a subsample as on N (a forest on a few
        thousand rows, most learners on a holdout of a small table) goes
        straight to N, where the folds are raced, as it would under
        :class:`~sklearn.model_selection.GridSearchCV`; a learner whose cost
        grows with its rows climbs the rungs. ``"all"`` trains every learner
        alive on every rung, as successive halving does.

    scoring : str, callable, list, tuple or dict, default=None
        Strategy to evaluate the candidates, as in
        :class:`~sklearn.model_selection.GridSearchCV`. With several metrics,
        `refit` must name the one that drives the allocation, or be a
        callable: the first metric then drives it, and the callable selects
        the candidate from ``cv_results_``.

    n_jobs : int, default=None
        Number of jobs to run in parallel (joblib). Workers take the next fit
        as soon as they are free; any joblib backend can be used through
        :func:`joblib.parallel_config`.

    refit : bool, str, or callable, default=True
        Refit the selected candidate on the whole dataset, as in
        :class:`~sklearn.model_selection.GridSearchCV`, except that a refit
        that raises does not end the fit (a candidate selected on a
        subsample, where `max_time` cut the search before any reached N, may
        fail on all the rows): a ``FitFailedWarning`` names the candidate and
        the error, and the next candidate in rank with a finite score is
        refitted instead. ``best_index_``, ``best_params_`` and
        ``best_score_`` then name the candidate refitted, which ranks 1, and
        the candidates whose refit failed rank last (a callable `refit` keeps
        the ranks). A ``RuntimeError`` is raised where every refit fails;
        with ``error_score="raise"``, the first refit error is.

    cv : int, cross-validation generator, iterable or float, default=None
        Cross-validation splitting strategy, as in
        :class:`~sklearn.model_selection.GridSearchCV` (None means 5-fold). A
        float in (0, 1) is a single holdout split keeping that fraction of the
        rows for validation (stratified for classifiers), as the paper does.

    verbose : int, default=0
        Progress, printed as the search runs. ``0``: nothing. ``1``: a header
        (the search, its candidates, folds and budget), a progress bar where
        tqdm is installed (``pip install sksel[progress]``; in a terminal or
        Jupyter) or else a status line every few seconds (evaluations done,
        elapsed time, best score so far and its candidate), and a final line
        naming the selected candidate and its score. ``2``: one line per
        finished evaluation instead of the bar: the candidate's short name,
        its resource, its mean test score and its upper bound (projected
        score at N, from the results used so far). ``3``: also scikit-learn's
        ``[CV]`` line of every fit (printed by the worker that runs it).

    random_state : int, RandomState instance or None, default=None
        Seed of the subsample orders and of a holdout split.

    error_score : 'raise' or numeric, default=np.nan
        Score of a fit that fails, with a warning; with 'raise' the error is
        raised. An evaluation with a failed fold is a failed evaluation. A
        candidate whose evaluation failed on every fold it ran on a
        subsample (its one fold, by default) may still fit whole training
        folds (``PCA(n_components=60)`` fails on 50 rows,
        ``KNeighborsClassifier(n_neighbors=100)`` cannot score from them, a
        model may need every class): it skips the sizes left below them and,
        once the search would otherwise end, gets one try on them, as a grid
        search trains it, raced against the best candidate there as any
        other. The try's first fold decides: where that fit fails, the other
        folds are not fitted and the candidate is given up; otherwise they
        are, and the candidate is given up if one of them fails, or else
        scored on whole training folds, where it may be selected. It costs
        no more fits on whole training folds than a grid search spends on
        it; a ``FitFailedWarning`` names it and says what its try gave. One
        that failed on some folds only leaves, below the full size, a hole in
        its learning curve and goes on to the next size; at the full size it
        is retried once on the same folds, and given up when it fails there
        twice. A failed candidate is never selected; where every candidate
        trained on the full size failed there, the fit raises scikit-learn's
        summary of those failed fits (``ValueError: All the ... fits
        failed``) before any refit.

    return_train_score : bool, default=False
        Include training scores in ``cv_results_``.

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

    checkpoint : str, path-like or None, default=None
        Folder where every finished evaluation is written as it finishes,
        one file each, atomically. Fitting again with the same data, fit
        parameters and search parameters (``n_jobs``, ``verbose`` and
        ``max_time`` aside) replays what the folder holds instead of running
        it and goes on, so that a search that was killed ends with the
        ``cv_results_`` of an uninterrupted run (``n_jobs=1``, a fixed
        `random_state`); a folder from another input raises a ``ValueError``
        naming what differs. The files are pickles: only give a folder you
        trust. See :ref:`the User Guide <checkpoint>`.

    keep_predictions : bool, str or path-like, default=False
        Keep each candidate's out-of-fold predictions (``cv_predictions_``):
        every fit also predicts its validation fold with the model it
        fitted (class probabilities for a classifier), which costs one
        ``predict`` per fit and ``n_samples x n_classes x 4`` bytes per
        candidate. ``True`` keeps them in memory; a folder keeps them on disk
        there, as ``.npy`` files. An ensemble of the candidates
        (:class:`~sksel.ensemble.EnsembleClassifier`) is chosen from them.

    keep_fold_models : bool, default=False
        With `keep_predictions`, keep each fold's fitted model as well (one
        per fold and candidate, in memory or in the folder), for an ensemble
        that reuses its members as trained on their folds instead of
        refitting them.

    Attributes
    ----------
    cv_results_ : dict of numpy (masked) ndarrays
        One row per candidate, at the largest subsample the policy used it on,
        with the keys of :class:`~sklearn.model_selection.GridSearchCV` plus
        ``candidate_id``, ``candidate_name`` (``#id`` and the short name
        ``verbose=2`` prints and the displays draw), ``n_resources`` (training
        rows per fold) and ``iter`` (position of ``n_resources`` in
        :attr:`sizes_`). ``n_folds_run`` is the number of folds a row's
        scores are over (the curves below N are drawn on the first). The
        means and deviations of scores are given for the rows scored as the
        selected candidate was (at N, on every fold), ranked by them: the
        selected candidate is rank 1, and sorting by ``mean_test_score`` or
        by ``rank_test_score`` gives one order. A candidate stopped below N,
        or whose race of the folds ended early (see `race_folds`: NaN in the
        ``split<i>_*`` keys of the folds it did not run), has NaN means and
        deviations and shares the last rank with the failed rows; its own,
        at its size over its folds, are in ``mean_test_score_at_resource``
        and ``std_test_score_at_resource``, and ``why_not_evaluated`` says
        why it got less training (``""`` for the others). See the
        :ref:`User Guide <user_guide>` (*One order*).

    all_cv_results_ : dict of numpy (masked) ndarrays
        The same keys (``why_not_evaluated`` aside) plus ``speculative``, one
        row per evaluation (candidate x size): the learning curves, each
        evaluation's mean in ``mean_test_score_at_resource`` (in
        ``mean_test_score`` too, but for a race's, whose mean is over fewer
        folds than its peers' at its size). First the evaluations the policy used,
        in decision order; then speculative ones it never used (started while
        a worker was free), with ``speculative`` True.

    best_estimator_ : estimator
        The selected candidate refitted on the whole data (``refit=True``).

    best_score_ : float
        Mean cross-validated score of the selected candidate at its largest size.

    best_params_ : dict
        Parameters of the selected candidate.

    cv_predictions_ : :class:`~sksel.ensemble.OutOfFoldPredictions` or None
        With `keep_predictions`, the out-of-fold predictions of the model of
        each row of ``cv_results_`` evaluated on every fold
        (``cv_predictions_.predictions(i)`` for row ``i``); None otherwise.

    best_index_ : int
        Index of the selected candidate in ``cv_results_``.

    sizes_ : list of int
        Subsample sizes (training rows per fold) the search could allocate:
        the rungs (:func:`~sksel.daub.rung_sizes`) with ``risk > 0``.

    policy_ : RungPolicy or DAUBPolicy
        The allocation policy, with its ``history_`` of decisions
        (:class:`~sksel.daub.RungPolicy` with ``risk > 0`` and scores in
        [0, 1]: its ``dropped_`` and ``probabilities_`` say who was dropped
        where, and why). Its ``sent_to_n_`` names the candidates tried on
        whole training folds after failing on a subsample (see
        `error_score`), and ``given_up_`` those given up for failing.

    scorer_ : function or dict
        Scorer(s) used on the validation folds.

    n_splits_ : int
        Number of cross-validation splits.

    refit_time_ : float
        Seconds spent refitting the selected candidate.

    multimetric_ : bool
        Whether several metrics were used.

    stop_reason_ : str
        ``"done"``, ``"max_time"`` or ``"interrupted"``.

    classes_ : ndarray of shape (n_classes,)
        Class labels (classifiers, ``refit=True``).

    n_features_in_ : int
        Number of features seen during fit.

    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of features seen during fit, when `X` has string column names.

    See Also
    --------
    sklearn.model_selection.HalvingGridSearchCV : Successive halving, which
        also spends training rows, in synchronous rounds.

    Notes
    -----
    Every candidate is first trained on the `l` smallest sizes below N (the
    paper: on two), so that each bound starts from a slope of `l` points; the
    warm-up never trains on N, which would be a grid search and more. Bounds are
    capped at the best score the scorer allows (1 for the scorers listed under
    `noise` and for R², 0 for ``neg_*`` errors). The defaults differ from the
    paper's algorithm (``r=1.5, b=500, l=3, bound="train", cost="rows",
    projection="linear", noise=0, stop="first", tol=0, jump=1``, and two
    warm-up sizes); the :ref:`User Guide <daub>` shows what each difference gains on
    real learning curves.

    When reading the result: the selected candidate has the best score among
    those trained on whole training folds (``n_resources`` at its maximum);
    other rows of ``cv_results_`` were measured on smaller subsamples.

    Examples
    --------
    >>> from sklearn.datasets import load_digits
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sksel import DAUBSearch
    >>> X, y = load_digits(return_X_y=True)
    >>> search = DAUBSearch(
    ...     [GaussianNB(), DecisionTreeClassifier(random_state=0),
    ...      LogisticRegression(max_iter=2000)],
    ...     random_state=0,
    ... ).fit(X, y)
    >>> search.best_params_["estimator"]
    LogisticRegression(max_iter=2000)
    >>> search.sizes_
    [159, 479, 1437]

    On 1,437 rows the naive Bayes and the logistic regression cost about as
    much on a subsample as on all the rows: only the tree is planned rungs
    below N (``rungs="cost"``), and, alone there, it goes on to N. With every
    learner on every rung, two are dropped on the first:

    >>> search.policy_.dropped_  # {candidate: the rung after which it got no more rows}
    {}
    >>> ladder = DAUBSearch(search.estimator, rungs="all", random_state=0).fit(X, y)
    >>> ladder.policy_.dropped_
    {0: 159, 1: 159}
    """

    @property
    def _maps_scores(self):
        """Whether the policy reads an error mapped (:class:`~sksel._core.scoring.CurveScale`):
        for the rungs' gap model; DAUB's bounds (``risk=0``, ``bound="train"``) read the
        scorer's scores, as their plots and progress lines show them."""
        return self.risk != 0 and self.bound != "train"

    _parameter_constraints: dict = {
        **BaseSelectionSearch._parameter_constraints,
        "param_grid": [dict, list, None],
        "risk": [Interval(numbers.Real, 0, 1, closed="left")],
        "r": [Interval(numbers.Real, 1, None, closed="neither"), StrOptions({"auto"})],
        "b": [Interval(numbers.Integral, 1, None, closed="left"), StrOptions({"auto"})],
        "l": [Interval(numbers.Integral, 2, None, closed="left"), StrOptions({"auto"})],
        "bound": [StrOptions({"train", "slope", "prior"})],
        "cost": [StrOptions({"rows", "time"})],
        "projection": [StrOptions({"auto", "linear", "log"})],
        "noise": [Interval(numbers.Real, 0, None, closed="left"), StrOptions({"auto"})],
        "stop": [StrOptions({"first", "strict"})],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
        "jump": [Interval(numbers.Real, 1, None, closed="left")],
        "subsample_folds": [Interval(numbers.Integral, 1, None, closed="left"),
                            StrOptions({"all"})],
        "race_folds": ["boolean"],
        "rungs": [StrOptions({"cost", "all"})],
    }

    def __init__(
        self,
        estimator,
        param_grid=None,
        *,
        risk=0.1,
        tol=0.005,
        r="auto",
        b="auto",
        l="auto",
        bound="prior",
        cost="rows",
        projection="auto",
        noise="auto",
        stop="strict",
        jump=3.0,
        subsample_folds=1,
        race_folds=True,
        rungs="cost",
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
        self.risk = risk
        self.r = r
        self.b = b
        self.l = l
        self.bound = bound
        self.cost = cost
        self.projection = projection
        self.noise = noise
        self.stop = stop
        self.tol = tol
        self.jump = jump
        self.subsample_folds = subsample_folds
        self.race_folds = race_folds
        self.rungs = rungs

    _selects_at_largest_resource = True
    _resource_unit = "rows"

    def _store_results(self, job, trainer, policy, run, names):
        """Store the results; warn of each learner sent to N for failing below it.

        A ``FitFailedWarning`` names every learner whose evaluation failed on
        every fold of a subsample (``policy_.sent_to_n_``) and says what its
        try on whole training folds gave.
        """
        last = super()._store_results(job, trainer, policy, run, names)
        for candidate, size in sorted(self.policy_.sent_to_n_.items()):
            warnings.warn(
                f"{type(self).__name__}: {names(candidate)} failed on every fold it ran at "
                f"{size} training rows, below whole training folds ({self.sizes_[-1]} rows); "
                f"{self._try_at_n_words(candidate, run.refit_metric)}.",
                FitFailedWarning,
            )
        return last

    def _try_at_n_words(self, candidate, metric):
        """What the try on whole training folds of `candidate`, sent there, gave, in words."""
        results = self.all_cv_results_
        rows = np.flatnonzero((results["candidate_id"] == candidate)
                              & (results["n_resources"] == self.sizes_[-1])
                              & ~np.asarray(results["speculative"]))
        if not rows.size:
            cause = ("a Ctrl-C" if self.stop_reason_ == "interrupted"
                     else f"max_time={self.max_time:g} s")
            return f"{cause} ended the search before its try on whole training folds"
        if candidate in self.policy_.given_up_:
            return "tried on whole training folds, it failed there too and was given up"
        row, folds = rows[0], results["n_folds_run"][rows[0]]
        score = np.mean([results[f"split{i}_test_{metric}"][row] for i in range(folds)])
        words = f"tried on whole training folds, it scored {score:.4f}"
        if folds == self.n_splits_:
            return words
        return (f"{words} on the first {folds} of its {self.n_splits_} folds, trailing the "
                "best learner (its race ended there)")

    def _display_info(self):
        bounds = None if isinstance(self.policy_, RungPolicy) else self.policy_.upper_bound
        return DisplayInfo("Training rows per fold", self.sizes_[-1], bounds=bounds)

    def _make_policy(self, candidates, splits, y, n_classes, rng):
        n_total = min(len(train) for train, _ in splits)
        kind = self._rung_kind()
        rungs = kind is not None
        if rungs:
            self._warn_if_daub_parameters_set()
            self._set_rung_sizes(n_total, len(candidates), n_classes)
        else:
            self._set_daub_sizes(n_total, len(candidates), n_classes)
        folds = None if self.subsample_folds == "all" else self.subsample_folds
        trainer = RowsTrainer(
            splits, y, self.sizes_, stratify=n_classes is not None, random_state=rng,
            n_folds_below_max=folds,
        )
        curve_folds = trainer.split(self.sizes_[0])
        race = self.race_folds and len(splits) > 1
        noise = self._noise(curve_folds, n_classes, kind)
        folds_ratio = len(splits) / min(folds or len(splits), len(splits))
        if rungs:
            self.policy_ = RungPolicy(
                len(candidates), self.sizes_, model=shipped_model(kind),
                threshold=threshold(self.risk, kind, self.cost),
                n_validation=sum(len(test) for _, test in curve_folds),
                tol=self._policy_tol(self.tol), eta=_ETA,
                noise=noise, race=race, cost=self.cost, folds_ratio=folds_ratio,
                predicted_costs=(self._predicted_costs(n_classes)
                                 if self.rungs == "cost" else None),
            )
            return self.policy_, trainer
        unit = self._unit_scored_classifier(n_classes)
        self.policy_ = DAUBPolicy(
            len(candidates), self.sizes_, l=self._curve_points(),
            bound="slope" if self.bound == "prior" and not unit else self.bound,
            projection=self.projection, max_score=self._max_score(n_classes),
            noise=noise, stop=self.stop, tol=self.tol,
            warm_up=min(self._curve_points(), max(1, len(self.sizes_) - 1)), jump=self.jump,
            cost=self.cost, race=race,
            budget=None if self.bound == "train" else _BUDGET,
            folds_ratio=folds_ratio,
        )
        return self.policy_, trainer

    def _predicted_costs(self, n_classes):
        """Each candidate's predicted ``(a, b, e)`` on this data
        (:func:`~sksel.daub.learner_cost.predicted_cost`), for the rungs' plan."""
        return [predicted_cost(estimator, self._n_features, n_classes)
                for estimator in self._estimators]

    def _rung_kind(self):
        """The kind of score of the gap model the rungs use (``risk > 0``), or None: DAUB's
        bounds. Warns where a `risk` set away from its default has no effect."""
        if self.risk == 0 or self.bound == "train":
            return None
        kind = self._curve_kind()
        if kind is not None and is_shipped(kind):
            return kind
        if self.risk != _DEFAULT_RISK:
            metric, _ = self._ranking_metric()
            scored = getattr(metric, "__name__", "the scorer given")
            warnings.warn(
                f"risk={self.risk:g} has no effect with scores of {scored}: the rungs' model "
                "of learning curves knows classifiers' accuracy-like scores in [0, 1], log "
                "loss and Brier score, and regressors' R², squared and absolute errors. The "
                "search uses DAUB's bounds, as with risk=0; pass one of those scorers "
                "(scoring='neg_root_mean_squared_error', 'r2', 'accuracy', 'neg_log_loss', "
                "...) to use the rungs.",
                UserWarning,
            )
        return None

    def _warn_if_daub_parameters_set(self):
        """Warn, before any training, of DAUB's parameters set where the rungs ignore them."""
        defaults = {name: param.default for name, param in
                    inspect.signature(DAUBSearch.__init__).parameters.items()}
        ignored = [f"{name}={getattr(self, name)!r}" for name in _DAUB_ONLY
                   if getattr(self, name) != defaults[name]]
        if ignored:
            warnings.warn(
                f"{', '.join(ignored)} tune DAUB's upper bounds, which the search uses with "
                f"risk=0 (and for regressors, other scores, or bound='train'); at "
                f"risk={self.risk:g} the rungs ignore them. Pass risk=0 to use them, or leave "
                "them at their defaults.",
                UserWarning,
            )

    def _set_daub_sizes(self, n_total, n_candidates, n_classes):
        """DAUB's sizes (``risk=0``): multiples of `b` growing by `r`, with their warnings."""
        b = self._granularity(n_total, n_classes)
        self.sizes_ = daub_sizes(n_total, b, self._growth(n_total))
        self._warn_if_no_curve_below_n(n_candidates)
        self._warn_if_l_exceeds_the_sizes()

    def _set_rung_sizes(self, n_total, n_candidates, n_classes):
        """The rungs of ``risk > 0`` (:func:`rung_sizes`), warning where none lies below N.

        No rung below ten rows per class (a regressor's: 20 rows).
        """
        smallest = 10 * n_classes if n_classes else 20
        self.sizes_ = rung_sizes(n_total, n_candidates, _ETA, min_size=smallest)
        if len(self.sizes_) < 2 and n_candidates > 1:
            held = f"{n_classes} classes" if n_classes else "a regressor"
            warnings.warn(
                f"The training folds ({n_total} rows) leave no rung below them for "
                f"{held}: every candidate is trained on all the rows.",
                UserWarning,
            )

    def _progress_budget(self, n_candidates):
        """No planned count: the bar and the status lines count without a total or time left.

        The search stops once a candidate reaches N, mostly far below the most
        it could run, and its last evaluations (on N) take the longest: a
        total would leave the bar short of its end, and a time left from the
        mean evaluation so far would promise too little.
        """
        n_max = n_candidates * len(self.sizes_)
        tol = (f"; {self._tol_words(self.tol)}, risk={self.risk:g}"
               if isinstance(self.policy_, RungPolicy) else "")
        return None, False, (
            f"no fixed count: stops once a candidate reaches {self.sizes_[-1]} rows; at most "
            f"{counted(n_max, 'evaluation')} ({counted(n_candidates, 'candidate')} x "
            f"{counted(len(self.sizes_), 'size')}){tol}")

    def _largest_resource(self):
        return self.sizes_[-1]

    def _warn_if_no_curve_below_n(self, n_candidates):
        if len(self.sizes_) < 3 and n_candidates > 1:
            warnings.warn(
                f"The subsample sizes {self.sizes_} hold fewer than two sizes below "
                "the whole training fold: no learning curve ranks the candidates "
                "before each is trained on all the rows, more training than "
                "GridSearchCV spends. Lower b or r, or give more rows.",
                UserWarning,
            )

    def _curve_points(self):
        """`l` resolved: 3 for ``"auto"``, at most the sizes below N (at least 2)."""
        below = len(self.sizes_) - 1
        return max(2, min(3 if self.l == "auto" else self.l, below))

    def _warn_if_l_exceeds_the_sizes(self):
        below = len(self.sizes_) - 1
        if self.l != "auto" and below >= 2 and self.l > below:
            warnings.warn(
                f"l={self.l} is more than the {below} subsample sizes below the whole "
                f"training fold {self.sizes_}: the warm-up and the slopes use {below} "
                "points. Lower l, or lower b or r for more sizes.",
                UserWarning,
            )

    def _max_score(self, n_classes):
        metric, sign = self._ranking_metric()
        if self._scale_ is not None:
            return 1.0  # a score in [0, 1], an R² or a skill (an error mapped)
        if sign > 0 and metric in (r2_score, explained_variance_score):
            return 1.0
        if sign < 0:
            return 0.0  # a loss, negated
        return np.inf

    def _noise(self, splits, n_classes, kind=None):
        """`noise` resolved: of a score on the validation rows of `splits`; `kind`, that of
        the rungs' gap model (R²'s noise is its own), or None."""
        if self.noise != "auto":
            return self.noise
        # Of the folds a learning curve is drawn on.
        n_validation = sum(len(test) for _, test in splits)
        if kind == "r2":
            return partial(score_noise, n_validation=n_validation, kind="r2")
        if not self._unit_scored_classifier(n_classes):
            return 0.0
        if self._ranking_metric() == (accuracy_score, 1):
            return partial(accuracy_noise, n_validation=n_validation)
        return 0.5 / math.sqrt(n_validation)

    def _growth(self, n_total):
        if self.r != "auto":
            return self.r
        return 3.0 if n_total < _LARGE else 2.0

    def _granularity(self, n_total, n_classes):
        if self.b != "auto":
            if self.b > n_total:
                raise ValueError(
                    f"b={self.b} is larger than the smallest training fold "
                    f"({n_total} rows): lower b, or give more samples."
                )
            return self.b
        floor = 10 * n_classes if n_classes else 20
        return min(n_total, 500, max(n_total // 32, floor))
