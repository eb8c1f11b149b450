"""Mutant-UCB and ∞-UCB-E: a bandit over partially trained models.

Brégère and Keisler, "A Bandit Approach with Evolutionary Operators for Model
Selection" (2024), Algorithms 1 and 2.

Arms are models; pulling an arm is one *sub-train* of its model (an epoch,
some boosting rounds, a ``partial_fit`` pass), and the reward is the model's
validation score after it. K models are sampled and sub-trained once each;
then the arm with the highest upper confidence bound
``mu_k + scale * sqrt(E / N_k)`` is pulled. Mutant-UCB caps the sub-trains of a
model at N: a chosen model is sub-trained with probability ``1 - Nbar_k / N``
(``Nbar_k`` its sub-trains so far) and otherwise breeds a *mutant*, a
neighbouring configuration that starts from its parent's learned state and
joins the arms. The loop goes on while the budget left can train the best
model so far up to N sub-trains; then the best model the budget left can
finish is trained up to N. Without mutation this is ∞-UCB-E.

This module holds the policy (:class:`MutantUCBPolicy`, pure bookkeeping, no
estimator) and the search estimator built on it (:class:`MutantUCBSearch`).
"""

import math
import numbers
import os
import shutil
import tempfile
import time
from copy import deepcopy
from traceback import format_exc

import joblib
import numpy as np
from sklearn.base import clone, is_classifier
from sklearn.utils import check_random_state, get_tags

from ._base import BaseSelectionSearch, DisplayInfo
from ._compat import (Interval, StrOptions, _check_method_params, _num_samples, _safe_split,
                      _score)
from ._engine import runs_in_process, runs_on_dask
from .inheritance import continued, inheritable
from .kdpp import KDPPSampler
from .resources import (SUBTRAIN_KINDS, Subtrainer, WholeFolds, _is_skorch, _last_step,
                        subtrain_kind)
from .space import SearchSpace


class MutantUCBPolicy:
    """Which model gets the next sub-train, or breeds a mutant, by Mutant-UCB.

    The policy knows nothing of estimators: it hands out ``(model, n)``
    actions with :meth:`ask`, meaning "bring model `model` to `n` sub-trains"
    (``n = 1`` for a new model, initial or mutant), and learns their scores
    through :meth:`tell`. Scores are "higher is better".

    Parameters
    ----------
    n_initial : int
        K, the number of models sampled at the start (models ``0 .. K-1``).

    budget : int
        T, the number of sub-trains in all, the final training of the
        selected model included; never exceeded. At least
        ``n_initial + max_subtrains - 1`` leaves room to finish a model.

    max_subtrains : int or None, default=None
        N, the most sub-trains a model receives. None: no cap (∞-UCB-E); then
        no mutant is bred and the selected model gets no final training.

    exploration : float, default=0.05
        E, the exploration parameter, >= 0: an arm's bonus is
        ``scale * sqrt(E / N_k)``.

    mutation : bool, default=True
        Breed mutants (Mutant-UCB). With False a chosen model is always
        sub-trained while it has fewer than `max_subtrains` sub-trains, and
        a model at the cap is no longer chosen.

    reward : {"mean", "last"}, default="mean"
        ``mu_k``: the running mean of the model's scores (the paper's, which
        remembers how low a model started) or its last score.

    scale : float or "range", default=1.0
        Unit of the exploration bonus, in score units. 1 keeps the paper's E
        for scores in [0, 1] (accuracy). ``"range"`` is the spread (max - min)
        of the initial models' first scores, so that E means the same for any
        scorer (e.g. ``neg_mean_squared_error``).

    random_state : int, RandomState instance or None, default=None
        Seed of the sub-train-or-mutate draws and of the ties.

    Attributes
    ----------
    history_ : list of tuple
        Every action handed out, ``(model, n)``, in order.

    decisions_ : list of tuple
        The actions whose results are in, in the order they came in.

    parents_ : list of int
        The parent of every model so far, -1 for the initial ones.

    best_ : int or None
        The model with the highest ``mu`` among those not failed.

    Examples
    --------
    >>> from sksel.mutant_ucb import MutantUCBPolicy
    >>> policy = MutantUCBPolicy(n_initial=2, budget=6, max_subtrains=3, random_state=0)
    >>> quality = {0: 0.6, 1: 0.8}
    >>> while not policy.done:
    ...     for model, n in policy.ask():
    ...         if model not in quality:  # a mutant: a little better than its parent
    ...             quality[model] = quality[policy.parents_[model]] + 0.01
    ...         policy.tell(model, n, quality[model] + 0.01 * n)
    >>> policy.history_
    [(0, 1), (1, 1), (1, 2), (2, 1), (2, 2), (2, 3)]
    >>> policy.parents_, policy.best_
    ([-1, -1, 1], 2)
    """

    def __init__(self, n_initial, budget, *, max_subtrains=None, exploration=0.05,
                 mutation=True, reward="mean", scale=1.0, random_state=None):
        self.n_initial = n_initial
        self.budget = budget
        self.max_subtrains = max_subtrains
        self.exploration = exploration
        self.mutation = mutation and max_subtrains is not None
        self.reward = reward
        self.scale = scale
        self._rng = check_random_state(random_state)
        self.history_ = []
        self.decisions_ = []
        self.parents_ = [-1] * n_initial
        self._first = [None] * n_initial
        self._last = [None] * n_initial
        self._sum = [0.0] * n_initial
        self._pulls = [0] * n_initial
        self._trained = [0] * n_initial
        self._busy = set()
        self._failed = set()
        self._initial_in = 0
        self._finishing = []
        self._scale = None if scale == "range" else float(scale)

    # ------------------------------------------------------------------ ask/tell
    def ask(self, n_actions=1, speculative=True):
        """Up to `n_actions` actions ``(model, n)`` to run now.

        Models with a sub-train in flight are not chosen again until it is
        told; an empty list means nothing can start until a result is told,
        or, when :attr:`done`, that the search is over. Every action is a
        decision, whose result is used: `speculative` changes nothing.
        """
        actions = []
        while len(actions) < n_actions:
            action = self._next_action()
            if action is None:
                break
            model, n = action
            self._busy.add(model)
            self.history_.append(action)
            actions.append(action)
        return actions

    def tell(self, model, n, score, train_score=None, fit_time=None, failed=False,
             give_up=False):
        """Record the score of `model` after its `n`-th sub-train.

        A failed sub-train (``failed``, ``give_up`` or a non-finite score)
        marks the model failed: it is never chosen or selected again.
        `train_score` and `fit_time` are unused.
        """
        self._busy.discard(model)
        self.decisions_.append((model, n))
        if model < self.n_initial and n == 1:
            self._initial_in += 1
        if failed or give_up or not np.isfinite(score):
            self._failed.add(model)
            return
        score = float(score)
        if n == 1:
            self._first[model] = score
        self._last[model] = score
        self._sum[model] += score
        self._trained[model] = n

    @property
    def done(self):
        """Whether the budget is spent (or nothing is left to train) and nothing runs."""
        return not self._busy and self._next_action(peek=True) is None

    @property
    def n_models(self):
        """Models so far, initial and mutants."""
        return len(self.parents_)

    @property
    def best_(self):
        """The model with the highest ``mu`` among those not failed (see Attributes)."""
        scored = [k for k in range(self.n_models) if self._scored(k)]
        if not scored:
            return None
        return max(scored, key=lambda k: (self.mu(k), -k))

    def subtrains(self, model):
        """``Nbar_k``: the sub-trains `model` has received, as told."""
        return self._trained[model]

    def mu(self, model):
        """``mu_k``: the mean or the last of the model's scores (see `reward`)."""
        if self.reward == "mean":
            return self._sum[model] / self._trained[model]
        return self._last[model]

    def upper_bound(self, model, pulls=None):
        """``mu_k + scale * sqrt(E / N_k)``, ``N_k`` the times the arm was chosen."""
        pulls = self._pulls[model] if pulls is None else pulls
        return self.mu(model) + self._bonus_scale() * math.sqrt(self.exploration / pulls)

    # ---------------------------------------------------------------- internals
    def _next_action(self, peek=False):
        """The next action, or None; with `peek`, draw nothing and change nothing."""
        started = len(self.history_)
        if started < self.n_initial:
            return (started, 1) if peek else self._start_initial(started)
        if self._initial_in < self.n_initial:
            return None  # the initial sub-trains are not all in
        if not self._finishing and self._can_pull():
            arm = self._argmax()
            if arm is not None:
                return (arm, None) if peek else self._pull(arm)
            if self._busy:
                return None
        return self._finalize(peek)

    def _start_initial(self, model):
        self._pulls[model] = 1
        return model, 1

    def _can_pull(self):
        """Whether a pull leaves the budget to finish the leaders to the cap.

        The leaders are the best models so far, one per worker: the one that
        asks and one per model in flight (one with a single worker).
        """
        left = self.budget - len(self.history_) - 1
        if self.max_subtrains is None:
            return left >= 0
        return left >= sum(self.max_subtrains - self._trained[k]
                           for k in self._leaders(1 + len(self._busy)))

    def _leaders(self, n):
        """The `n` scored models with the highest ``mu``."""
        return self._by_mu(k for k in range(self.n_models) if self._scored(k))[:n]

    def _by_mu(self, models):
        """`models` by decreasing ``mu``, ties to the lowest index."""
        return sorted(models, key=lambda k: (-self.mu(k), k))

    def _argmax(self):
        """The free, trainable arm with the highest upper bound; ties to the lowest index."""
        arms = [k for k in range(self.n_models)
                if self._scored(k) and k not in self._busy and self._trainable(k)]
        if not arms:
            return None
        return max(arms, key=lambda k: (self.upper_bound(k), -k))

    def _scored(self, model):
        return self._last[model] is not None and model not in self._failed

    def _trainable(self, model):
        """Whether choosing `model` can give a pull: a sub-train below the cap, or a mutant."""
        return self.mutation or self.max_subtrains is None or (
            self._trained[model] < self.max_subtrains)

    def _pull(self, arm):
        """Sub-train `arm`, or breed a mutant of it, as Algorithm 2 draws."""
        self._pulls[arm] += 1
        if self.mutation and self._rng.uniform() >= 1 - self._trained[arm] / self.max_subtrains:
            return self._breed(arm)
        return arm, self._trained[arm] + 1

    def _breed(self, parent):
        model = self.n_models
        self.parents_.append(parent)
        self._first.append(None)
        self._last.append(None)
        self._sum.append(0.0)
        self._pulls.append(1)
        self._trained.append(0)
        return model, 1

    def _finalize(self, peek):
        """The final sub-trains of the leaders, up to `max_subtrains`.

        Once the budget stops the pulls, each free worker extends the chain
        of final sub-trains of a model already being finished, or starts
        that of the best model (highest ``mu``) whose chain the budget left
        can pay for beside the chains started and those of better models
        still running a pull. With one worker that is one chain, the best
        model's; with more, the leaders are finished in parallel and the
        search selects the best finished one.
        """
        if self.max_subtrains is None:
            return None
        for model in self._finishing:
            if model not in self._busy and self._unfinished(model):
                return (model, None) if peek else (model, self._trained[model] + 1)
        left = self.budget - len(self.history_) - sum(
            self.max_subtrains - self._trained[k] - (k in self._busy)
            for k in self._finishing if self._unfinished(k))
        waiting = [k for k in range(self.n_models) if k not in self._finishing
                   and self._scored(k) and self._unfinished(k)]
        for model in self._by_mu(waiting):
            need = self.max_subtrains - self._trained[model]
            if need > left:
                continue
            if model in self._busy:
                left -= need  # kept for it: it starts its chain once its pull is in
                continue
            if not peek:
                self._finishing.append(model)
            return model, (None if peek else self._trained[model] + 1)
        return None

    def _unfinished(self, model):
        return model not in self._failed and self._trained[model] < self.max_subtrains

    def _bonus_scale(self):
        if self._scale is None:
            first = [score for score in self._first[: self.n_initial] if score is not None]
            spread = max(first) - min(first) if first else 0.0
            self._scale = spread if spread > 0 else 1.0
        return self._scale


class MutantUCBSearch(BaseSelectionSearch):
    """Search by sub-trains: a UCB bandit over partially trained models that breeds mutants.

    `n_initial` configurations are drawn from `param_distributions` and
    sub-trained once each (a sub-train continues the same fitted model: an
    epoch, some boosting rounds or trees, a ``partial_fit`` pass). From then
    on every pull goes to the model with the highest upper confidence bound
    on its score; a model that already had ``Nbar`` sub-trains is sub-trained
    again with probability ``1 - Nbar / max_subtrains`` and otherwise breeds
    a *mutant*, a neighbouring configuration that starts from its parent's
    learned state. The loop goes on while the budget left can train the best
    model so far to `max_subtrains` sub-trains; then the best model the
    budget left can finish is trained to `max_subtrains`, so that the budget
    is spent and never exceeded. This is Mutant-UCB (Brégère and Keisler, 2024); with
    ``mutation=False`` it is ∞-UCB-E.

    Read more in the :ref:`User Guide <user_guide>`.

    Parameters
    ----------
    estimator : estimator object
        The estimator (or ``Pipeline``, whose last step trains
        incrementally) whose parameters are searched.

    param_distributions : dict or list of dicts
        Parameter names mapped to lists or scipy.stats distributions, as
        :class:`~sklearn.model_selection.RandomizedSearchCV` takes them; a
        list of dicts is a tree-structured space.

    budget : int, default=100
        T, the sub-trains of the whole search (per cross-validation fold),
        the final training of the best model included; never exceeded. It
        must cover one sub-train of each initial model and the finishing of
        one model: at least ``n_initial + max_subtrains - 1``, checked before
        any training.

    n_initial : int or "auto", default="auto"
        K, the configurations drawn at the start. ``"auto"`` is
        ``budget // max_subtrains`` with mutation (as many as the budget
        could train fully; the paper's run drew half as many, which scored
        lower on our MLP and boosting benchmarks at small budgets) and
        ``2 * budget // max_subtrains`` without, since then no model is bred
        and one at the cap is no longer chosen; at least 2, at most
        ``budget - max_subtrains + 1``.

    max_subtrains : int, default=10
        N, the most sub-trains one model receives.

    init : {"random", "k-dpp"}, default="random"
        How the `n_initial` configurations are drawn: independently from
        `param_distributions` (the paper's), or as a diverse set from a k-DPP
        over them (:class:`~sksel.KDPPSampler`).

    exploration : float, default=0.2
        E, the exploration parameter: a model's bonus is
        ``scale * sqrt(E / N_k)``, ``N_k`` the times it was chosen. The scale
        is 1 for classifiers scored in [0, 1] (accuracy and the like, the
        paper's setting) and otherwise the spread of the initial models'
        first scores, so that E means the same for any scorer. The paper
        uses E = 0.05 with budgets of 10,000 sub-trains; at budgets of 60 and
        240, 0.2 scored as well or better on our tuning tasks (see the User
        Guide).

    mutation : bool or callable, default=True
        Breed mutants. A callable ``mutation(params, rng) -> params`` replaces
        the default neighbour (:meth:`sksel.space.SearchSpace.mutate`).
        False is ∞-UCB-E: a model at `max_subtrains` is no longer chosen.

    reward : {"mean", "last"}, default="mean"
        A model's value: the running mean of its scores (the paper's) or its
        last score.

    resource : {"auto", "xgboost", "partial_fit", "n_estimators", "max_iter"}, default="auto"
        How a sub-train continues a model; see
        :func:`sksel.resources.subtrain_kind` for the order ``"auto"`` tries.
        Whatever the kind, k sub-trains train as much as one plain fit of
        k units (:class:`~sksel.resources.Subtrainer`). The parameter that
        sets this training length (``n_estimators``, ``max_iter``,
        ``max_epochs``) must not be in `param_distributions`.

    unit : int or "auto", default="auto"
        Units of one sub-train: ``partial_fit`` passes (skorch: epochs),
        boosting rounds, trees or iterations. ``"auto"``: 1 pass, 10 of the
        others.

    inherit : bool, default=True
        A mutant starts from its parent's fitted model with the new
        parameters set (forests and boosters keep their trees, networks their
        weights), where the parameters changed allow it (not the head of a
        ``Pipeline``, not the layer sizes of an MLP); otherwise it starts
        afresh.

    memory : str, path or None, default=None
        Folder where the fitted models between sub-trains are kept (one
        file per model and fold), instead of in memory. Either way only the
        models that may be sub-trained again or bred from are kept: a failed
        model, or one at `max_subtrains` that no mutant can inherit
        (``mutation=False`` or ``inherit=False``), is dropped at once.
        On a dask cluster (``joblib.parallel_config(backend="dask")``) the
        models stay on the workers that trained them, as dask futures, and
        the next sub-train of a model runs where its model is; `memory` is
        not used there, dask's own workers spill to their disk as memory
        runs short.

    scoring, n_jobs, refit, cv, verbose, random_state, error_score, return_train_score, max_time, checkpoint
        As in :class:`~sksel.DAUBSearch`. With ``n_jobs > 1`` several
        sub-trains run at once: a freed worker gets the current UCB argmax
        among the models not being trained, so results depend on timing;
        ``n_jobs=1`` is the paper's algorithm exactly. As the budget runs
        out, it keeps room to finish one leader per worker, and their final
        sub-trains run in parallel; the best finished model is selected.
        The rows of every fold are cut out of `X` once per search; for worker
        processes they are written once to a temporary folder, removed when
        the fit ends, and the workers memory-map them. A sub-train that fails
        marks its model failed. The progress `verbose` prints counts
        sub-trains against `budget`, each an evaluation whose resource is the
        model's sub-trains so far; ``verbose=3`` adds no ``[CV]`` lines (a
        sub-train is not one of scikit-learn's fits).

    Attributes
    ----------
    cv_results_ : dict of numpy (masked) ndarrays
        One row per model, with its last score, the keys of
        :class:`~sklearn.model_selection.GridSearchCV` plus ``candidate_id``,
        ``parent_id`` (-1 for an initial model), ``candidate_name``
        (``#12 (from #3) SGDClassifier(alpha=0.0017)``: the ids and the short
        name ``verbose=2`` prints and the displays draw), ``n_resources`` (sub-trains
        the model received itself), ``n_resources_total`` (those and the
        sub-trains it inherited from its ancestors) and ``iter``. Each row's
        ``params`` state the training length as well: ``length_param_`` set
        to ``n_resources_total * unit``. Ranks order failed models last, then
        by ``n_resources_total`` up to `max_subtrains` (a model trained that
        long in total, inherited sub-trains included, is fully trained),
        then by score.

    all_cv_results_ : dict of numpy (masked) ndarrays
        The same keys, one row per pull, in order.

    best_estimator_ : estimator
        The selected model's training replayed on all the rows
        (``refit=True``): the sub-trains it inherited from its ancestors,
        then its own, so that it is trained as the model its validation
        score measured. It is then configured as the user configured the
        estimator (``warm_start`` and skorch's ``train_split`` as given), with
        its training length set to the total it was trained for, so that
        calling its ``fit`` again, or ``clone(estimator).set_params(
        **best_params_).fit(X, y)``, trains a model as long, from scratch.

    best_score_, best_params_, best_index_, scorer_, n_splits_, refit_time_, multimetric_, stop_reason_, classes_, n_features_in_, feature_names_in_
        As in :class:`~sksel.DAUBSearch`. The selected model is the best
        scored of the fully trained ones (``n_resources_total >=
        max_subtrains``, a lineage counting in total): the bandit's final
        training makes sure its pick is one of them, and where that pick's
        score fell in its last sub-trains (a network that diverged), another
        fully trained model is selected.

    subtrain_kind_ : str
        How a sub-train continued the models.

    length_param_ : str or None
        The parameter that sets how long a plain fit trains (e.g.
        ``"n_estimators"``, ``"mlpclassifier__max_iter"``), which ``params``
        state; None when the estimator has none (e.g. naive Bayes).

    policy_ : MutantUCBPolicy
        The bandit, with its ``history_`` and ``parents_``.

    See Also
    --------
    sksel.DAUBSearch : Spends training rows instead of sub-trains.
    sklearn.model_selection.HalvingRandomSearchCV : Successive halving on a resource.

    Examples
    --------
    >>> from scipy.stats import loguniform
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import SGDClassifier
    >>> from sksel import MutantUCBSearch
    >>> X, y = load_iris(return_X_y=True)
    >>> search = MutantUCBSearch(
    ...     SGDClassifier(random_state=0), {"alpha": loguniform(1e-6, 1e-1)},
    ...     budget=30, max_subtrains=5, cv=3, random_state=0,
    ... ).fit(X, y)
    >>> int(search.cv_results_["n_resources"].max())
    5
    >>> search.length_param_, search.best_params_["max_iter"] >= 5
    ('max_iter', True)
    >>> search.subtrain_kind_, bool(search.best_score_ > 0.6)
    ('partial_fit', True)
    """

    _parameter_constraints: dict = {
        **BaseSelectionSearch._parameter_constraints,
        "param_distributions": [dict, list],
        "budget": [Interval(numbers.Integral, 1, None, closed="left")],
        "n_initial": [Interval(numbers.Integral, 1, None, closed="left"), StrOptions({"auto"})],
        "max_subtrains": [Interval(numbers.Integral, 1, None, closed="left")],
        "init": [StrOptions({"random", "k-dpp"})],
        "exploration": [Interval(numbers.Real, 0, None, closed="left")],
        "mutation": ["boolean", callable],
        "reward": [StrOptions({"mean", "last"})],
        "resource": [StrOptions({"auto", *SUBTRAIN_KINDS})],
        "unit": [Interval(numbers.Integral, 1, None, closed="left"), StrOptions({"auto"})],
        "inherit": ["boolean"],
        "memory": [str, os.PathLike, None],
    }

    #: A model between two sub-trains; on a dask cluster it stays on its worker.
    _state_key = "model"

    def __init__(
        self,
        estimator,
        param_distributions,
        *,
        budget=100,
        n_initial="auto",
        max_subtrains=10,
        init="random",
        exploration=0.2,
        mutation=True,
        reward="mean",
        resource="auto",
        unit="auto",
        inherit=True,
        memory=None,
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
        )
        self.param_distributions = param_distributions
        self.budget = budget
        self.n_initial = n_initial
        self.max_subtrains = max_subtrains
        self.init = init
        self.exploration = exploration
        self.mutation = mutation
        self.reward = reward
        self.resource = resource
        self.unit = unit
        self.inherit = inherit
        self.memory = memory

    def fit(self, X, y=None, **params):
        """Run the bandit, then train the best configuration on all of `X`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training vectors.
        y : array-like of shape (n_samples,), default=None
            Targets.
        **params : dict of str -> object
            Parameters passed to every sub-train (to the last step of a
            ``Pipeline``); ``groups`` goes to the cross-validation splitter.

        Returns
        -------
        self : object
            Instance of fitted search.
        """
        # On dask, the states stay on the workers (see `_state_key`).
        on_dask = runs_on_dask()
        self._states = _ModelStates(None if on_dask else self.memory)
        self._folds = _FoldRows(mapped=not on_dask and not runs_in_process(self.n_jobs))
        self._lineage = {}
        try:
            super().fit(X, y, **params)
        finally:
            self._states.clear()
            self._folds.clear()
            del self._states, self._folds, self._lineage
        for results in (self.cv_results_, self.all_cv_results_):
            results["parent_id"] = np.asarray(self.policy_.parents_)[results["candidate_id"]]
        return self

    # ------------------------------------------------------------------ hooks
    def _search_space(self):
        return SearchSpace(self.estimator, param_distributions=self.param_distributions)

    def _candidates(self, space):
        """The `n_initial` models drawn from `space`; mutants join them during the fit."""
        self._rng = check_random_state(self.random_state)
        if self.init == "k-dpp":
            return KDPPSampler(self.param_distributions, self._initial_count(),
                               random_state=self._rng).sample()
        return space.sample(self._initial_count(), random_state=self._rng)

    def _initial_count(self):
        """K, checked: the budget must train every initial model and finish one."""
        room = self.budget - self.max_subtrains + 1
        if self.n_initial != "auto":
            n_initial = self.n_initial
        elif self.mutation:
            n_initial = max(2, min(room, self.budget // self.max_subtrains))
        else:
            n_initial = max(2, min(room, 2 * self.budget // self.max_subtrains))
        if n_initial > room:
            raise ValueError(
                f"budget={self.budget} cannot give n_initial={n_initial} models one sub-train "
                f"each and finish one of them to max_subtrains={self.max_subtrains}: the "
                f"smallest budget that can is {n_initial + self.max_subtrains - 1}. Raise "
                "budget, or lower n_initial or max_subtrains."
            )
        return n_initial

    def _make_policy(self, candidates, splits, y, n_classes, rng):
        self.subtrain_kind_ = subtrain_kind(self.estimator, self.resource)
        unit = SUBTRAIN_KINDS[self.subtrain_kind_] if self.unit == "auto" else self.unit
        classes = np.unique(y) if is_classifier(self.estimator) and y is not None else None
        self._subtrainer = Subtrainer(self.subtrain_kind_, unit, classes=classes)
        self.length_param_ = self._subtrainer.length_param(self.estimator)
        self._check_length_not_searched()
        self._check_nets_can_come_back()
        self.policy_ = MutantUCBPolicy(
            len(candidates), self.budget, max_subtrains=self.max_subtrains,
            exploration=self.exploration, mutation=bool(self.mutation), reward=self.reward,
            scale=1.0 if self._unit_scored_classifier(n_classes) else "range",
            random_state=self._rng,
        )
        return self.policy_, WholeFolds(splits)

    def _progress_budget(self, n_candidates):
        return self.budget, False, (
            f"budget {self.budget} sub-trains, one evaluation each; the resource of an "
            "evaluation is the model's sub-trains so far")

    def _largest_resource(self):
        return self.max_subtrains

    def _parent_of(self, candidate):
        return int(self.policy_.parents_[candidate])

    def _display_info(self):
        return DisplayInfo("Sub-trains", self.max_subtrains, resources_add_up=True)

    def _prepare(self, job, action):
        """Breed the mutant a new model's action stands for, and note what it inherits."""
        model, n = action
        parent = self.policy_.parents_[model]
        if model == len(job.candidates):
            job.candidates.append(self._mutant(job.space, job.candidates[parent]))
            job.estimators.append(job.space.build(job.candidates[model]))
        if n == 1 and self._inherit_of(job, model) is not None:
            self._lineage[model] = (parent, self.policy_.subtrains(parent))

    def _inherit_of(self, job, model):
        """The parameters a new `model` sets on its parent's trained model, or None."""
        parent = self.policy_.parents_[model]
        if parent < 0 or not self.inherit:
            return None
        return inheritable(job.candidates[parent], job.candidates[model], self.estimator)

    def _task(self, job, action, fold, train, test):
        """One fold's sub-train: the model's state, or a new estimator, and the fold's rows.

        A model sub-trained again needs no estimator: it goes on from its
        state, and none is built for it.
        """
        model, n = action
        state, inherit, estimator = None, None, None
        if n > 1:
            state = self._states.get(model, fold)
        else:
            estimator = clone(job.estimators[model])
            inherit = self._inherit_of(job, model)
            if inherit is not None:
                state = self._states.get(self.policy_.parents_[model], fold)
        rows = self._folds.get(job.estimators[model], job.X, job.y, fold, train, test)
        score_params = job.score_params or {}
        return (_subtrain_and_score, (state, estimator, self._subtrainer, rows),
                dict(inherit=inherit, scorer=job.scorers,
                     fit_params=_check_method_params(job.X, params=job.fit_params(model),
                                                     indices=train),
                     score_params=_check_method_params(job.X, params=score_params, indices=test),
                     train_score_params=_check_method_params(
                         job.X, params=score_params, indices=train
                     ) if self.return_train_score else None,
                     error_score=self.error_score))

    def _on_evaluation(self, action, outputs):
        model, n = action
        if any(out.pop("restarted", False) for out in outputs):
            self._lineage.pop(model, None)  # its parent's model could not take its parameters
        fitted = [out.pop("model", None) for out in outputs]
        if any(f is None for f in fitted) or not self._needed_after(n):
            self._states.discard(model)
            return
        for fold, f in enumerate(fitted):
            self._states.put(model, fold, f)

    def _needed_after(self, n):
        """Whether a model with `n` sub-trains may be continued, or inherited from, later."""
        return n < self.max_subtrains or (bool(self.mutation) and self.inherit)

    def _row_params(self, candidates, action):
        """The model's parameters, with the training length its sub-trains add up to."""
        model, n = action
        if self.length_param_ is None:
            return candidates[model]
        units = self._total_subtrains(model, n) * self._subtrainer.unit
        return {**candidates[model], self.length_param_: units}

    def _ranking_resource(self, results):
        """Training up to `max_subtrains`, inherited sub-trains included.

        The fully trained models (a lineage counts in total) rank first, by
        score: a model briefly trained that scored high by chance is not
        selected over them, nor is the bandit's final pick preferred for its
        own sub-trains when its score fell in them.
        """
        return np.minimum(results["n_resources_total"], self.max_subtrains)

    def _extra_results(self, actions):
        return {"n_resources_total": [self._total_subtrains(*action) for action in actions]}

    def _refit(self, job, fit_params):
        """Replay on all rows the training the selected model's score measured.

        That is its ancestors' sub-trains it inherited, then its own: the
        first sub-train of each model continues its parent's model, with the
        new parameters set. The model is then configured as a plain
        estimator of that training length (:meth:`Subtrainer.released`).
        """
        start = time.perf_counter()
        best = int(self.cv_results_["candidate_id"][self.best_index_])
        lineage = self._lineage_of(best, int(self.cv_results_["n_resources"][self.best_index_]))
        model, parent = None, None
        for candidate, n in lineage:
            params = job.candidates[candidate]
            inherit = None if parent is None else inheritable(parent, params, self.estimator)
            model, _ = continued(model if inherit is not None else None,
                                 job.space.build(params), self._subtrainer, inherit, job.X,
                                 job.y, fit_params)
            for _ in range(n - 1):
                model = self._subtrainer.next(model, job.X, job.y, **fit_params)
            parent = params
        self.best_estimator_ = self._subtrainer.released(
            model, sum(n for _, n in lineage), job.estimators[best])
        self.refit_time_ = time.perf_counter() - start
        if hasattr(model, "feature_names_in_"):
            self.feature_names_in_ = model.feature_names_in_

    # ------------------------------------------------------------- internals
    def _check_nets_can_come_back(self):
        """Refuse, before any fit, a skorch net of classes from ``__main__`` on other processes.

        A worker process gets such a class by value and can train the net,
        but skorch pickles the trained module by the class's name, which the
        worker's ``__main__`` does not have: the net could not come back.
        """
        net, _ = _last_step(self.estimator)
        if not _is_skorch(net) or runs_in_process(self.n_jobs):
            return
        local = [f"{name}={value.__name__}" for name, value in net.get_params(deep=False).items()
                 if isinstance(value, type) and value.__module__ == "__main__"]
        if local:
            raise ValueError(
                f"{type(net).__name__}'s {', '.join(local)} is defined in the script that "
                "runs the search (__main__): a worker process can train the net but cannot "
                "send it back, as skorch pickles its module by name. Move the class to a "
                "module of its own and import it from there, or run the search with "
                "n_jobs=1 or under joblib.parallel_config(backend=\"threading\")."
            )

    def _check_length_not_searched(self):
        """Refuse a space that searches the parameter the sub-trains grow."""
        name, spaces = self.length_param_, self.param_distributions
        if name is not None and any(name in space for space in (
                spaces if isinstance(spaces, list) else [spaces])):
            raise ValueError(
                f"param_distributions searches {name!r}, the training length that "
                f"sub-trains set (resource={self.subtrain_kind_!r}): remove it and set "
                "max_subtrains and unit instead."
            )

    def _total_subtrains(self, model, n):
        """The sub-trains of `model` at its `n`-th, those it inherited included."""
        return sum(k for _, k in self._lineage_of(model, n))

    def _lineage_of(self, model, n):
        """``(model, sub-trains)`` from the first ancestor whose model it inherited to `model`."""
        chain = [(model, n)]
        while chain[-1][0] in self._lineage:
            chain.append(self._lineage[chain[-1][0]])
        return chain[::-1]

    def _mutant(self, space, params):
        if callable(self.mutation):
            return self.mutation(dict(params), self._rng)
        return space.mutate(params, self._rng)


class _ModelStates:
    """The fitted model of every (model, fold) between sub-trains, in memory or in a folder."""

    def __init__(self, memory):
        self.memory = memory
        self._models = {}
        if memory is not None:
            os.makedirs(memory, exist_ok=True)

    def put(self, model, fold, fitted):
        if self.memory is None:
            self._models[model, fold] = fitted
        else:
            joblib.dump(fitted, self._path(model, fold))
            self._models[model, fold] = None

    def get(self, model, fold):
        if self.memory is None:
            return self._models[model, fold]
        return joblib.load(self._path(model, fold))

    def discard(self, model):
        """Forget every fold of `model`."""
        for key in [key for key in self._models if key[0] == model]:
            self._remove(key)

    def clear(self):
        for key in list(self._models):
            self._remove(key)

    def _remove(self, key):
        del self._models[key]
        if self.memory is not None:
            os.remove(self._path(*key))

    def _path(self, model, fold):
        return os.path.join(os.fspath(self.memory), f"model{model}_fold{fold}.joblib")


class _FoldRows:
    """Every fold's rows, cut out of ``X`` and ``y`` once for the whole search.

    Each sub-train of a fold gets the same ``(X_train, y_train, X_test,
    y_test)``, rather than its own copy of the rows. With `mapped` (the fits
    run in worker processes), every numeric array of them is written once to
    a temporary folder and handed out memory-mapped, read-only: it goes to a
    worker by its file name, where joblib would hash ``X`` with every task
    (and send the arrays under 1 MB whole). The folder is removed by
    :meth:`clear`.

    Parameters
    ----------
    mapped : bool
        Memory-map the large arrays.
    """

    def __init__(self, mapped):
        self.mapped = mapped
        self._rows = {}
        self._folder = None

    def get(self, estimator, X, y, fold, train, test):
        """The rows of `fold` (``train`` and ``test``), as `estimator` takes them."""
        key = fold, get_tags(estimator).input_tags.pairwise  # a kernel's X is cut both ways
        if key not in self._rows:
            X_train, y_train = _safe_split(estimator, X, y, train)
            X_test, y_test = _safe_split(estimator, X, y, test, train)
            self._rows[key] = tuple(self._mapped(rows, f"{fold}_{i}_{key[1]:d}")
                                    for i, rows in enumerate((X_train, y_train, X_test, y_test)))
        return self._rows[key]

    def clear(self):
        self._rows.clear()
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None

    def _mapped(self, array, name):
        if not (self.mapped and isinstance(array, np.ndarray) and array.dtype != object):
            return array
        if self._folder is None:
            self._folder = tempfile.mkdtemp(prefix="sksel-folds-")
        path = os.path.join(self._folder, f"{name}.joblib")
        joblib.dump(array, path)
        return joblib.load(path, mmap_mode="r")


def _subtrain_and_score(model, estimator, subtrainer, rows, *, inherit, scorer, fit_params,
                        score_params, train_score_params, error_score):
    """One pull on one fold: a sub-train of `model`, then its scores.

    `model` is None for a new model, which starts from `estimator`; with
    `inherit` (parameters) it is a parent's fitted model, which takes them
    and goes on. `rows` are the fold's ``(X_train, y_train, X_test, y_test)``
    (:class:`_FoldRows`); `fit_params` and `score_params` are those of its
    training and test rows, `train_score_params` those of the training rows
    to score them too, or None not to. The output is ``_fit_and_score``'s, plus the
    fitted ``model`` (None when the sub-train failed) and ``restarted``,
    whether a mutant started afresh because its parent's model could not take
    its parameters.
    """
    if inherit is not None:
        # The parent's model goes on beside its mutant; copied here, in the
        # worker, rather than by the process that runs the search.
        model = deepcopy(model)
    X_train, y_train, X_test, y_test = rows
    start = time.time()
    result = {"fit_error": None}
    try:
        model, result["restarted"] = continued(model, estimator, subtrainer, inherit,
                                               X_train, y_train, fit_params)
    except Exception:
        if error_score == "raise":
            raise
        result["fit_error"] = format_exc()
        failed = dict.fromkeys(scorer._scorers, error_score) if hasattr(
            scorer, "_scorers") else error_score
        result.update(test_scores=failed, model=None)
        if train_score_params is not None:
            result["train_scores"] = failed
        fit_time, score_time = time.time() - start, 0.0
    else:
        fit_time = time.time() - start
        result["test_scores"] = _score(model, X_test, y_test, scorer, score_params, error_score)
        if train_score_params is not None:
            result["train_scores"] = _score(model, X_train, y_train, scorer,
                                            train_score_params, error_score)
        score_time = time.time() - start - fit_time
        result["model"] = model
    result.update(n_test_samples=_num_samples(X_test), fit_time=fit_time,
                  score_time=score_time)
    return result
