"""KDPPSearch: the search estimator of k-DPP random search (see :mod:`sksel.kdpp`)."""

import warnings

import numpy as np

from .._core.naming import counted
from .._core.search import BaseSelectionSearch
from ..spaces.sampler import _SAMPLER_CONSTRAINTS, KDPPSampler
from ..spaces.space import one_estimator_space
from ..training.folds import FoldsTrainer
from .policy import EvaluateAll


class KDPPSearch(BaseSelectionSearch):
    """Search over diverse configurations drawn from a k-DPP, evaluated in parallel.

    Like :class:`~sklearn.model_selection.RandomizedSearchCV`, it evaluates
    `n_iter` configurations of `param_distributions` with cross-validation,
    all at once, and keeps the best; but the configurations are drawn
    together from a k-DPP (:class:`KDPPSampler`) instead of independently,
    so they spread over the space: fewer near-duplicates, more of the
    corners. The branches of a tree-structured space share the `n_iter`
    configurations evenly (each gets what random search gives it on average,
    never none while another gets two), and each branch's share is spread
    over its own parameters. The search is open-loop: nothing is learnt from
    the scores while it runs.

    Read more in the :ref:`User Guide <kdpp>`.

    Parameters
    ----------
    estimator : estimator object
        The estimator (or ``Pipeline``) whose parameters are searched.

    param_distributions : dict or list of dicts
        Parameter names mapped to lists of values or scipy.stats
        distributions, as :class:`~sklearn.model_selection.RandomizedSearchCV`
        takes them; a list of dicts is a tree-structured space, each dict one
        branch (e.g. one model of a ``Pipeline`` step with its own
        parameters), drawn branch by branch (see :class:`KDPPSampler`).

    n_iter : int, default=10
        Number of configurations evaluated, k. A finite space (lists only)
        of fewer configurations is evaluated whole, with a warning, as
        :class:`~sklearn.model_selection.RandomizedSearchCV` does.

    sampler : {"auto", "exact", "mcmc", "sequential"}, default="auto"
        How the k-DPP is sampled; see :class:`KDPPSampler`.

    kernel : {"rbf", "arc"}, default="rbf"
        Similarity of configurations; see :class:`KDPPSampler`.

    bandwidth : float or "auto", default="auto"
        Length scale of the kernel, > 0; see :class:`KDPPSampler`.

    pool_size : int or "auto", default="auto"
        Configurations the exact and sequential samplers choose among; see
        :class:`KDPPSampler`.

    scoring : str, callable, list, tuple or dict, default=None
        As in :class:`~sklearn.model_selection.RandomizedSearchCV`.

    n_jobs : int, default=None
        Number of jobs to run in parallel; all ``n_iter * n_splits`` fits are
        independent.

    refit : bool, str, or callable, default=True
        As in :class:`~sklearn.model_selection.RandomizedSearchCV`, except
        that a refit on the whole dataset that raises does not end the fit:
        a ``FitFailedWarning`` names the candidate and the error, and the next
        candidate in rank with a finite score is refitted instead.
        ``best_index_``, ``best_params_`` and ``best_score_`` then name the
        candidate refitted, which ranks 1, and the candidates whose refit
        failed rank last (a callable `refit` keeps the ranks). A
        ``RuntimeError`` is raised where every refit fails; with
        ``error_score="raise"``, the first refit error is.

    cv : int, cross-validation generator, iterable or float, default=None
        As in :class:`~sklearn.model_selection.RandomizedSearchCV`; a float
        in (0, 1) is a single holdout split keeping that fraction of the rows
        for validation (stratified for classifiers).

    verbose : int, default=0
        Progress, printed as the search runs. ``0``: nothing. ``1``: a header
        (the search, its candidates, folds and budget), a progress bar where
        tqdm is installed (``pip install sksel[progress]``; in a terminal or
        Jupyter) or else a status line every few seconds (evaluations done,
        elapsed time, best score so far and its candidate), and a final line
        naming the selected candidate and its score. ``2``: one line per
        finished evaluation instead of the bar: the candidate's short name,
        its resource, its mean test score. ``3``: also
        scikit-learn's ``[CV]`` line of every fit (printed by the worker that
        runs it).

    random_state : int, RandomState instance or None, default=None
        Seed of the k-DPP draw and of a holdout split.

    error_score : 'raise' or numeric, default=np.nan
        Score of a fit that fails, with a warning; a configuration with a
        failed fold is never selected.

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

    keep_predictions, keep_fold_models
        As in :class:`~sksel.DAUBSearch`.

    Attributes
    ----------
    cv_results_ : dict of numpy (masked) ndarrays
        As :class:`~sklearn.model_selection.RandomizedSearchCV`'s, one row per
        configuration drawn (where `max_time` or a Ctrl-C ended the search
        first, those not evaluated too: NaN scores, ranked last,
        ``why_not_evaluated`` saying why), plus ``candidate_id``, ``candidate_name``
        (``#id`` and the short name ``verbose=2`` prints and the displays
        draw), ``n_resources`` (training rows per fold), ``iter`` (0),
        ``n_folds_run`` (the number of folds, every one), ``why_not_evaluated``
        and ``mean_test_score_at_resource`` and ``std_test_score_at_resource``
        (the same means: those of the searches that train some candidates
        less, see the :ref:`User Guide <user_guide>`).

    all_cv_results_ : dict of numpy (masked) ndarrays
        The same rows (every configuration is evaluated once).

    best_estimator_ : estimator
        The best configuration refitted on the whole data (``refit=True``).

    best_score_ : float
        Mean cross-validated score of the best configuration.

    best_params_ : dict
        Parameters of the best configuration.

    cv_predictions_ : :class:`~sksel.ensemble.OutOfFoldPredictions` or None
        With `keep_predictions`, the out-of-fold predictions of the model of
        each row of ``cv_results_`` evaluated on every fold
        (``cv_predictions_.predictions(i)`` for row ``i``); None otherwise.

    best_index_ : int
        Row of the best configuration in ``cv_results_``.

    scorer_ : function or dict
        Scorer(s) used on the validation folds.

    n_splits_ : int
        Number of cross-validation splits.

    refit_time_ : float
        Seconds spent refitting the best configuration.

    multimetric_ : bool
        Whether several metrics were used.

    stop_reason_ : str
        ``"done"``, ``"max_time"`` or ``"interrupted"`` (Ctrl-C keeps the
        configurations evaluated so far).

    classes_ : ndarray of shape (n_classes,)
        Class labels (classifiers, ``refit=True``).

    n_features_in_ : int
        Number of features seen during fit.

    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of features seen during fit, when `X` has string column names.

    See Also
    --------
    KDPPSampler : The configurations alone, e.g. as candidates of another search.
    sklearn.model_selection.RandomizedSearchCV : Independent draws.

    Examples
    --------
    >>> from scipy.stats import loguniform
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.svm import SVC
    >>> from sksel import KDPPSearch
    >>> X, y = load_iris(return_X_y=True)
    >>> search = KDPPSearch(SVC(), {"C": loguniform(1e-3, 1e3),
    ...                             "gamma": loguniform(1e-4, 1e1)},
    ...                     n_iter=8, random_state=0).fit(X, y)
    >>> len(search.cv_results_["params"])
    8
    >>> bool(search.best_score_ > 0.9)
    True
    """

    _parameter_constraints: dict = {
        **BaseSelectionSearch._parameter_constraints,
        **{name: constraint for name, constraint in _SAMPLER_CONSTRAINTS.items()
           if name != "mcmc_steps"},
        # None is refused with what to do instead, by one_estimator_space.
        "param_distributions": [dict, list, None],
    }

    def __init__(
        self,
        estimator,
        param_distributions,
        *,
        n_iter=10,
        sampler="auto",
        kernel="rbf",
        bandwidth="auto",
        pool_size="auto",
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
        self.param_distributions = param_distributions
        self.n_iter = n_iter
        self.sampler = sampler
        self.kernel = kernel
        self.bandwidth = bandwidth
        self.pool_size = pool_size

    def _search_space(self):
        return one_estimator_space("KDPPSearch", self.estimator, self.param_distributions)

    def _candidates(self, space):
        """The k-DPP's `n_iter` configurations, or every one of a smaller finite space."""
        if space.is_finite and self.n_iter > len(space.candidates):
            n = len(space.candidates)
            warnings.warn(
                f"The total space of parameters {n} is smaller than n_iter={self.n_iter}. "
                f"Running {counted(n, 'iteration')}. For exhaustive searches, use "
                "GridSearchCV.", UserWarning)
            return space.candidates
        sampler = KDPPSampler(
            self.param_distributions, self.n_iter, sampler=self.sampler, kernel=self.kernel,
            bandwidth=self.bandwidth, pool_size=self.pool_size, random_state=self.random_state,
        )
        return sampler.sample()

    def _make_policy(self, candidates, splits, y, n_classes, rng):
        policy = EvaluateAll(len(candidates), min(len(train) for train, _ in splits))
        return policy, FoldsTrainer(splits)
