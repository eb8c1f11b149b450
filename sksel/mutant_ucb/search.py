"""MutantUCBSearch: the search estimator of Mutant-UCB's policy over sub-trains.

See :mod:`sksel.mutant_ucb`; the training runs on
:class:`~sksel.training.continued.ContinuedTrainer`.
"""

import itertools
import numbers
import os
import time
import warnings
from types import MappingProxyType

import numpy as np
from joblib import effective_n_jobs
from sklearn.base import clone, is_classifier
from sklearn.utils import check_random_state

from .._compat import Hidden, Interval, StrOptions
from .._core.naming import counted
from .._core.progress import ProgressBudget
from .._core.search import BaseSelectionSearch, DisplayInfo
from .._core.workers import runs_in_process, runs_on_dask
from ..curves.finish_model import FinishRule, shipped_finish_model
from ..spaces.params import _same_value
from ..spaces.sampler import KDPPSampler
from ..spaces.space import one_estimator_space
from ..training.continued import ContinuedTrainer
from ..training.subtrain import (
    SUBTRAIN_KINDS,
    Subtrainer,
    _is_skorch,
    _last_step,
    _supports,
    subtrain_kind,
)
from .clock import SubtrainClock
from .policy import MutantUCBPolicy


class MutantUCBSearch(BaseSelectionSearch):
    """Search by sub-trains: a UCB bandit over partially trained models that breeds mutants.

    `n_initial` configurations are drawn from `param_distributions` and
    sub-trained once each (a sub-train continues the same fitted model: an
    epoch, some boosting rounds or trees, a ``partial_fit`` pass). From then
    on every pull goes to the model with the highest upper confidence bound
    on its score; a model that had ``t`` sub-trains is sub-trained again with
    probability ``1 - t / max_subtrains`` and otherwise breeds a *mutant*, a
    neighbouring configuration that goes on from its parent's learned state
    (or starts afresh where the parent's lineage reached
    `max_lineage_subtrains`). The loop goes on while the budget left can train the best
    model so far to `max_subtrains` sub-trains; then the best model the
    budget left can finish is trained to `max_subtrains`, so that the budget
    is spent and never exceeded. This is Mutant-UCB (Brégère and Keisler, 2024); with
    ``mutation=False`` it is ∞-UCB-E.

    With ``reward="finish"`` the bandit reads partial training as what it
    predicts: a model's value is its predicted score once fully trained,
    learned from recorded training curves
    (:mod:`sksel.curves.finish_model`), its upper bound the 0.8 quantile of
    that prediction; a pull doubles the model's own training (1, 2, 4, ...
    sub-trains in one task), and where partial scores rank nothing (the
    initial models' predictions closer than their spread) or the time left
    pays for few full trainings, every pull trains its model fully, as
    random search does. The default, ``reward="mean"``, is the paper's rule.

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

    budget : int or None, default=100
        T, the sub-trains of the whole search (per cross-validation fold),
        the final training of the best model included; never exceeded. It
        must cover one sub-train of each initial model and the finishing of
        one model: at least ``n_initial + max_subtrains - 1``, checked before
        any training. None: `max_time` is the budget (it must be given), and
        with ``n_initial="auto"`` the search draws 128 configurations (32
        with ``init="k-dpp"``) and starts as many as the seconds of the first
        sub-trains say the time pays for (as ``"auto"`` does for a budget of
        the sub-trains it predicts).

    n_initial : int or "auto", default="auto"
        K, the configurations drawn at the start. ``"auto"`` is
        ``budget // max_subtrains`` with mutation (as many as the budget
        could train fully; the paper's run drew half as many, which scored
        lower on our MLP and boosting benchmarks at small budgets), and at
        least 8 (a budget of five fully trained models' worth scored below
        ASHA with 5, above it with 8); ``2 * budget // max_subtrains``
        without mutation, since then no model is bred and one at the cap is
        no longer chosen; at least 2, at most ``budget - max_subtrains + 1``
        (and, with ``init="k-dpp"``, at most the configurations of a space of
        lists).

    max_subtrains : int or "auto", default="auto"
        N, the most sub-trains a model receives itself (the paper's cap): a
        model chosen after ``t`` of its own is sub-trained again with
        probability ``1 - t / N`` and otherwise breeds, and a model that had
        N is fully trained. ``"auto"``: with ``unit="auto"``, a fully trained
        model trains as long as a plain fit of the estimator would (the
        training length it states: ``max_iter``, skorch's ``max_epochs``,
        ``n_estimators``; 100 rounds for xgboost's None), in 10 sub-trains
        (fewer below 10 units) of ``ceil(length / 10)`` units, the last
        rounding up: ``MLPClassifier()`` is fully trained at 200 passes, 10
        sub-trains of 20, as ``RandomizedSearchCV`` would train it (an
        estimator whose plain fit stops early on ``tol`` trains up to its
        length here: set it to the training you mean); with `unit` given, as
        many sub-trains of it as that length takes; without a length (naive
        Bayes), 10. ``max_subtrains_`` and ``unit_`` say what was used, the
        ``verbose`` header how long a fully trained model trains. A mutant
        goes on from its parent's training (`inherit`), so a lineage of
        mutants may train for longer than
        ``max_subtrains * unit`` units in all, and so may the selected model
        (its ``n_resources_total`` and ``best_params_`` say how long): cap
        that with `max_lineage_subtrains`.

    max_lineage_subtrains : int or None, default=None
        The most sub-trains a model is trained for in all, those it inherited
        from its ancestors included, so that no model, the selected one
        included, trains longer than ``max_lineage_subtrains * unit`` units
        (its ``length_param_``). A model whose lineage reached it is no
        longer sub-trained, and its mutants start afresh. None: no such cap
        (the paper's). ``max_lineage_subtrains=max_subtrains`` makes
        `max_subtrains` the cap on every model's training; on the benchmark's
        MLP task it scored 2.4 to 3.6 points below the paper's uncapped
        lineages, which trained 3 to 5 times longer (see the User Guide).

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
        the default neighbour (:meth:`sksel.spaces.SearchSpace.mutate`).
        False is ∞-UCB-E: a model at `max_subtrains` is no longer chosen.

    reward : {"mean", "last", "finish", "auto"}, default="mean"
        A model's value. ``"mean"``: the running mean of its scores (the
        paper's), one sub-train a pull; ``"last"``: its last score.
        ``"finish"``: its predicted score once fully trained (its lineage's
        inherited sub-trains and `max_subtrains` of its own), from its scores
        so far and their lengths, by a model of training curves learned on
        recorded MLP, SGD, boosting and CNN curves
        (:mod:`sksel.curves.finish_model`); its upper bound is the 0.8
        quantile of that prediction rather than the paper's bonus (so
        `exploration` is not used), a pull doubles the model's own training
        (1, 2, 4, ... sub-trains in one task) and the final training of a
        model runs in one task; for classifiers scored in [0, 1] and
        regressors scored by R², whose curves the model knows. ``"auto"``:
        ``"finish"`` where the scores are of those kinds, ``"mean"``
        otherwise. ``reward_`` says which. On the clock benchmark the paper's
        rule scored 2 to 4 points higher on the MLP task (its mutants train
        long lineages) and ``"finish"`` no better elsewhere, so it is not
        the default (see the User Guide).

    subtrain_kind : {"auto", "xgboost", "partial_fit", "n_estimators", "max_iter"}, \
            default="auto"
        How a sub-train continues a model; see
        :func:`sksel.training.subtrain_kind` for the order ``"auto"`` tries.
        Whatever the kind, k sub-trains train as much as one plain fit of
        k units (:class:`~sksel.training.Subtrainer`). The parameter that
        sets this training length (``n_estimators``, ``max_iter``,
        ``max_epochs``) must not be in `param_distributions`.

    unit : int or "auto", default="auto"
        Units of one sub-train: ``partial_fit`` passes (skorch: epochs),
        boosting rounds, trees or iterations. ``"auto"``: with
        ``max_subtrains="auto"``, a tenth of the estimator's training length
        (see `max_subtrains`); with `max_subtrains` given, 1 pass, 10 of the
        others.

    inherit : bool, default=True
        A mutant starts from its parent's fitted model with the new
        parameters set (forests and boosters keep their trees, networks their
        weights), where the parameters changed allow it (not the head of a
        ``Pipeline``, not the layer sizes of an MLP, not a skorch module
        parameter that changes the shape of a learned tensor) and the parent
        is below `max_lineage_subtrains`; otherwise it starts afresh, and counts its
        own training only.

    memory : str, path or None, default=None
        Folder where the fitted models between sub-trains are kept (one
        file per model and fold), instead of in memory. Either way only the
        models that may be sub-trained again or inherited from are kept: a
        failed model, or one at `max_lineage_subtrains` (at `max_subtrains`
        where no mutant inherits), is dropped at once.
        On a dask cluster (``joblib.parallel_config(backend="dask")``) the
        models stay on the workers that trained them, as dask futures, and
        the next sub-train of a model runs where its model is; `memory` is
        not used there, dask's own workers spill to their disk as memory
        runs short.

    score_share : float in (0, 1], default=1.0
        The share of every validation fold that scores a model still below
        `max_subtrains` (inherited sub-trains included): a fixed part of the
        fold, stratified by class, drawn once from `random_state`. Those
        scores only steer the bandit; a model trained `max_subtrains` is
        scored on the whole fold, which ranks it for the selection. 1 scores
        every row after every sub-train.

    scoring, n_jobs, refit, cv, verbose, random_state, error_score
        As in :class:`~sksel.DAUBSearch`. Up to eight pulls run at once,
        each decided on the results of the pulls handed out before the last
        eight (and, where it cannot be decided on those, on the next ones in
        the order handed out), so that without `max_time` the search, its
        ``cv_results_`` and a search resumed from its `checkpoint` are the
        same whatever `n_jobs` and however long each fit takes; eight pulls
        of three folds or more keep up to 24 workers busy. As the budget runs
        out, it keeps room to finish the leaders of the pulls in flight, whose
        final sub-trains run in parallel; the best finished model is selected.
        With `max_time`, results are used as they come in.
        The rows of every fold are cut out of `X` once per search; for worker
        processes they are written once to a temporary folder, removed when
        the fit ends, and the workers memory-map them. A sub-train that fails
        marks its model failed. The progress `verbose` prints counts
        sub-trains against `budget`, each an evaluation whose resource is the
        model's sub-trains so far; ``verbose=3`` adds no ``[CV]`` lines (a
        sub-train is not one of scikit-learn's fits).

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

        Within that, the bandit counts seconds: the first model of the
        search starts alone and prices a sub-train (fit and score, summed
        over the folds), every model's sub-trains are priced by the seconds
        its lineage's took, a model starts and a sub-train runs only where it
        and the refit end in time, and the pulls stop once one more, the
        finishing of the leaders and the refit would not, so that the search
        ends by itself with a fully trained model, or, where the time cannot
        pay for one, the best model trained as far as it can; it keeps no
        time aside for the refit beyond that. When the pulls stop depends on
        the machine's timing, and a search resumed from its `checkpoint` may
        end elsewhere. Which model is pulled does not depend on the seconds
        (weighing its optimistic gain per second scored lower, see the User
        Guide); with ``reward="finish"``, how long a pull is does: a task
        trains at least the sub-trains that make its measured overhead
        (dispatching it, moving its model, validating its input) a tenth of
        its seconds, and where the time left pays for fewer than two full
        trainings a worker, every pull trains its model fully. None: no time
        limit, and nothing depends on measured seconds.

    return_train_score, checkpoint
        As in :class:`~sksel.DAUBSearch`. Every model whose estimator leaves
        its ``random_state`` None (``MLPClassifier()``, an ``SGDClassifier``
        in a ``Pipeline``) gets a seed of its own drawn from `random_state`,
        in the search and in the refit, so that a search resumed from its
        `checkpoint` ends as the uninterrupted one, whatever `n_jobs`;
        ``best_params_`` do not state it (``best_estimator_``'s do). A skorch
        net has no ``random_state``: a resumed search replays its recorded
        sub-trains exactly but may go on otherwise, and a warning says so.

    keep_predictions, keep_fold_models
        As in :class:`~sksel.DAUBSearch`.

    resource : {"auto", "xgboost", "partial_fit", "n_estimators", "max_iter"}, \
            default="deprecated"
        The former name of `subtrain_kind`: where given, it is used, with a
        ``FutureWarning``.

        .. deprecated:: 0.1
           `resource` is renamed `subtrain_kind`; it will be removed in 0.2.

    Attributes
    ----------
    cv_results_ : dict of numpy (masked) ndarrays
        One row per model, with its last score, the keys of
        :class:`~sklearn.model_selection.GridSearchCV` plus ``candidate_id``,
        ``parent_id`` (the model whose configuration it was bred from, -1 for
        an initial model; whether it went on from that model's training is
        ``n_resources_total - n_resources``, 0 for a mutant that started
        afresh), ``candidate_name``
        (``#12 (from #3) SGDClassifier(alpha=0.0017)``: the ids and the short
        name ``verbose=2`` prints and the displays draw), ``n_resources`` (sub-trains
        the model received itself), ``n_resources_total`` (those and the
        sub-trains it inherited from its ancestors) and ``iter``. Each row's
        ``params`` state the training length as well: ``length_param_`` set
        to ``n_resources_total * unit``. The means and deviations of scores
        are given for the fully trained models (``n_resources_total`` up to
        `max_subtrains`: trained that long in total, inherited sub-trains
        included), ranked by them, so that sorting by ``mean_test_score`` or
        by ``rank_test_score`` gives one order, the selected model first; a
        model trained less has NaN there and shares the last rank with the
        failed ones, its own mean in ``mean_test_score_at_resource`` (every
        model has it: the one :class:`~sksel.FamilyTreeDisplay` draws) and
        ``why_not_evaluated`` saying how far it was trained and why no
        further (``""`` for the others).

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

    scorer_, n_splits_, refit_time_, multimetric_, stop_reason_
        As in :class:`~sksel.DAUBSearch`.

    cv_predictions_, classes_, n_features_in_, feature_names_in_
        As in :class:`~sksel.DAUBSearch`.

    best_score_, best_params_, best_index_
        As in :class:`~sksel.DAUBSearch`. The selected model is the best
        scored of the fully trained ones (``n_resources_total >=
        max_subtrains``, a lineage counting in total): the bandit's final
        training makes sure its pick is one of them, and where that pick's
        score fell in its last sub-trains (a network that diverged), another
        fully trained model is selected.

    subtrain_kind_ : str
        How a sub-train continued the models.

    max_subtrains_, unit_ : int
        The sub-trains of a fully trained model and the units of one, as
        `max_subtrains` and `unit` resolved (see `max_subtrains`).

    length_param_ : str or None
        The parameter that sets how long a plain fit trains (e.g.
        ``"n_estimators"``, ``"mlpclassifier__max_iter"``), which ``params``
        state; None when the estimator has none (e.g. naive Bayes).

    reward_ : str
        `reward` resolved: ``"finish"``, ``"mean"`` or ``"last"``.

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
    >>> int(search.cv_results_["n_resources"].max())  # a model's own sub-trains
    5
    >>> search.length_param_, search.best_params_["max_iter"] >= 5
    ('max_iter', True)
    >>> search.subtrain_kind_, bool(search.best_score_ > 0.6)
    ('partial_fit', True)
    """

    _trains_from_scratch = False
    _renamed_parameters = MappingProxyType({"resource": "subtrain_kind"})
    _resource_unit = "sub-trains"
    _lists_every_candidate = False
    _plans_its_refit = True

    _parameter_constraints: dict = {
        **BaseSelectionSearch._parameter_constraints,
        # None is refused with what to do instead, by one_estimator_space.
        "param_distributions": [dict, list, None],
        "budget": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "n_initial": [Interval(numbers.Integral, 1, None, closed="left"), StrOptions({"auto"})],
        "max_subtrains": [Interval(numbers.Integral, 1, None, closed="left"),
                          StrOptions({"auto"})],
        "max_lineage_subtrains": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "init": [StrOptions({"random", "k-dpp"})],
        "exploration": [Interval(numbers.Real, 0, None, closed="left")],
        "mutation": ["boolean", callable],
        "reward": [StrOptions({"auto", "finish", "mean", "last"})],
        "subtrain_kind": [StrOptions({"auto", *SUBTRAIN_KINDS})],
        "resource": [StrOptions({"auto", *SUBTRAIN_KINDS}), Hidden(StrOptions({"deprecated"}))],
        "unit": [Interval(numbers.Integral, 1, None, closed="left"), StrOptions({"auto"})],
        "inherit": ["boolean"],
        "memory": [str, os.PathLike, None],
        "score_share": [Interval(numbers.Real, 0, 1, closed="right")],
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
        max_subtrains="auto",
        max_lineage_subtrains=None,
        init="random",
        exploration=0.2,
        mutation=True,
        reward="mean",
        subtrain_kind="auto",
        unit="auto",
        inherit=True,
        memory=None,
        score_share=1.0,
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
        resource="deprecated",
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
        self.budget = budget
        self.n_initial = n_initial
        self.max_subtrains = max_subtrains
        self.max_lineage_subtrains = max_lineage_subtrains
        self.init = init
        self.exploration = exploration
        self.mutation = mutation
        self.reward = reward
        self.subtrain_kind = subtrain_kind
        self.unit = unit
        self.inherit = inherit
        self.memory = memory
        self.score_share = score_share
        self.resource = resource

    # ------------------------------------------------------------------ hooks
    def _search_space(self):
        return one_estimator_space("MutantUCBSearch", self.estimator, self.param_distributions)

    def _candidates(self, space):
        """The `n_initial` models drawn from `space`; mutants join them during the fit."""
        self._rng = check_random_state(self.random_state)
        self.subtrain_kind_ = subtrain_kind(self.estimator, self._subtrain_kind())
        self.max_subtrains_, self.unit_ = self._training_length()
        if self.init == "k-dpp":
            n_initial = self._initial_count()
            if self.n_initial == "auto" and space.is_finite:
                # A k-DPP draws distinct configurations: at most as many as there are.
                n_initial = max(2, min(n_initial, len(space.candidates)))
            return KDPPSampler(self.param_distributions, n_initial,
                               random_state=self._rng).sample()
        return space.sample(self._initial_count(), random_state=self._rng)

    def _initial_count(self):
        """K, checked: the budget must train every initial model and finish one.

        With ``budget=None`` (a time budget): `n_initial`, or where it is
        ``"auto"`` the configurations drawn, from which the policy starts as
        many as the seconds say (:meth:`_auto_initial`).
        """
        if self.budget is None:
            if self.max_time is None:
                raise ValueError(
                    "budget=None leaves the search without a budget: give max_time (seconds), "
                    "or budget in sub-trains.")
            if self.n_initial != "auto":
                return self.n_initial
            return _TIMED_DRAWS_KDPP if self.init == "k-dpp" else _TIMED_DRAWS
        room = self.budget - self.max_subtrains_ + 1
        n_initial = self._auto_initial(self.budget) if self.n_initial == "auto" else self.n_initial
        if n_initial > room:
            raise ValueError(
                f"budget={self.budget} cannot give n_initial={n_initial} models one sub-train "
                f"each and finish one of them to max_subtrains={self.max_subtrains_}: the "
                f"smallest budget that can is {n_initial + self.max_subtrains_ - 1}. Increase "
                "budget, or lower n_initial or max_subtrains."
            )
        return n_initial

    def _auto_initial(self, budget):
        """``n_initial="auto"`` for a budget of `budget` sub-trains (see `n_initial`)."""
        room = budget - self.max_subtrains_ + 1
        if self.mutation:
            return max(2, min(room, max(budget // self.max_subtrains_, _SMALL_BUDGET_INITIAL)))
        return max(2, min(room, 2 * budget // self.max_subtrains_))

    def _clock(self, splits):
        """The policy's clock where `max_time` is set (see `max_time`), else None."""
        if self.max_time is None:
            return None
        rows = len(splits[0][0]) + len(splits[0][1])
        trained = np.mean([len(train) for train, _ in splits])
        started = self._fit_started
        return SubtrainClock(self.max_time, n_workers=effective_n_jobs(self.n_jobs),
                             n_folds=len(splits), refit_factor=rows / trained / len(splits),
                             clock=lambda: time.perf_counter() - started)

    def _make_policy(self, candidates, splits, y, n_classes, rng):
        kind = self._curve_kind()
        self.reward_ = self._resolve_reward(kind)
        classes = np.unique(y) if is_classifier(self.estimator) and y is not None else None
        subtrainer = Subtrainer(self.subtrain_kind_, self.unit_, classes=classes)
        self.length_param_ = subtrainer.length_param(self.estimator)
        self._check_length_not_searched()
        self._check_values_continue()
        self._check_nets_can_come_back()
        # On dask, the states stay on the workers (see the trainer's `state_key`).
        on_dask = runs_on_dask()
        trainer = ContinuedTrainer(
            splits, subtrainer, self.estimator, max_resource=self.max_subtrains_,
            inherit=self.inherit and bool(self.mutation), max_total=self.max_lineage_subtrains,
            memory=None if on_dask else self.memory,
            mapped=not on_dask and not runs_in_process(self.n_jobs),
            score_share=self.score_share, random_state=self._models_seed(),
        )
        self.policy_ = MutantUCBPolicy(
            len(candidates), self.budget, max_subtrains=self.max_subtrains_,
            max_lineage_subtrains=self.max_lineage_subtrains, exploration=self.exploration,
            mutation=bool(self.mutation), reward=self.reward_,
            finish=self._finish_rule(splits, kind),
            scale=1.0 if self._unit_scored_classifier(n_classes) else "range",
            inherit=self.inherit, inherited=trainer.inherited, clock=self._clock(splits),
            initial_count=self._auto_initial if self.budget is None and self.n_initial == "auto"
            else None, in_flight=_IN_FLIGHT, random_state=self._rng,
        )
        return self.policy_, trainer

    def _resolve_reward(self, kind):
        """`reward` resolved (``reward_``): ``"auto"`` is ``"finish"`` where the scores are of
        a `kind` the model of the finish knows (:meth:`_curve_kind`), else ``"mean"``."""
        if self.reward == "finish" and kind is None:
            raise ValueError(
                "reward='finish' predicts scores of classifiers scored in [0, 1] (accuracy and "
                "the like) or of regressors scored by R², from curves of those; the scoring "
                f"{self.scoring!r} gives other scores. Pass reward='mean' (the paper's), or "
                "one of those scorers.")
        if self.reward == "auto":
            return "mean" if kind is None else "finish"
        return self.reward

    def _finish_rule(self, splits, kind):
        """The policy's `finish` (:class:`~sksel.curves.finish_model.FinishRule`) for scores
        of `kind` with ``reward_="finish"``, else None."""
        if self.reward_ != "finish":
            return None
        return FinishRule(shipped_finish_model(kind),
                          n_validation=sum(len(test) for _, test in splits))

    def _progress_budget(self, n_candidates):
        """The header names the models that start (of those drawn, where the time says how
        many), what ranks them and how long a fully trained one trains."""
        models = counted(n_candidates, "model")
        if self.budget is None:
            budget = f"max_time {self.max_time:g} s"
            head = (f"{models} drawn, as many started as the time pays for"
                    if self.n_initial == "auto" else f"{models} to start")
        else:
            budget, head = f"budget {counted(self.budget, 'sub-train')}", f"{models} to start"
        if self.mutation:
            head += " and mutants of the best"
        return ProgressBudget(self.budget, False, (
            f"{budget}; a model ranks by {_REWARD_WORDS[self.reward_]}; "
            f"{self._full_words()}"), head)

    def _full_words(self):
        """How long a fully trained model trains, in words: ``"fully trained: 10 sub-trains of
        20 passes (max_iter=200)"``."""
        units = _UNIT_WORDS[self.subtrain_kind_]
        if self.subtrain_kind_ == "partial_fit" and _is_skorch(_last_step(self.estimator)[0]):
            units = "epochs"
        if self.unit_ == 1:
            units = _ONE_UNIT[units]
        length = self.max_subtrains_ * self.unit_
        named = "" if self.length_param_ is None else f" ({self.length_param_}={length})"
        return (f"fully trained: {counted(self.max_subtrains_, 'sub-train')} of {self.unit_} "
                f"{units}{named}")

    def _largest_resource(self):
        return self.max_subtrains_

    def _why_less_training(self, results, row, full, cut):
        """A model trained fewer sub-trains than `max_subtrains` in total (its lineage's
        included): how many, and why it got no more."""
        total, folds = results["n_resources_total"][row], results["n_folds_run"][row]
        if row in self._failed_refits or (total >= full and folds == self.n_splits_):
            return super()._why_less_training(results, row, full, cut)
        if total >= full:
            return "its sub-trains failed on some folds"
        words = f"trained {total} of {full} sub-trains"
        if cut:
            return f"{words}: {self._cut_cause()} then ended the search"
        return (f"{words}: the search spent its budget on models with higher upper "
                "confidence bounds")

    def _display_info(self):
        # No grid: random search trains as many configurations as the search tried.
        return DisplayInfo("Sub-trains", self.max_subtrains_, resources_add_up=True,
                           baseline=f"random search of the same {{n}} configurations, "
                                    f"each trained {self.max_subtrains_} sub-trains,")

    def _breed(self, space, params, candidates):
        """A mutant of `params`: the `mutation` callable's, or a neighbour in `space`.

        It is drawn again while it is a configuration that failed, or takes a
        value of a list that failed in every configuration tried with it
        (:func:`_refused`); after `_MUTANT_DRAWS` draws, it is a copy of
        `params`, which goes on from its parent's training.
        """
        failed = [candidates[k] for k in self.policy_.failed_]
        scored = [candidates[k] for k in range(len(candidates)) if self.policy_.subtrains(k)]
        refused = _refused(failed, scored, self.param_distributions)
        for _ in range(_MUTANT_DRAWS):
            mutant = (self.mutation(dict(params), self._rng) if callable(self.mutation)
                      else space.mutate(params, self._rng))
            if not any(_holds(mutant, name, value) for name, value in refused) and not any(
                    _same_configuration(mutant, other) for other in failed):
                return mutant
        return dict(params)

    # ------------------------------------------------------------- internals
    def _training_length(self):
        """``(max_subtrains, unit)`` of this fit: as given; where both are "auto", the
        template's own training length split into at most `_FULL_SUBTRAINS` sub-trains.

        The template's length is its `length_param_`'s value (``max_iter``,
        ``max_epochs``, ``n_estimators``; xgboost's default of 100 rounds where
        None). Without one, `_FULL_SUBTRAINS` sub-trains of the kind's unit.
        """
        unit = SUBTRAIN_KINDS[self.subtrain_kind_] if self.unit == "auto" else self.unit
        if self.max_subtrains != "auto":
            return self.max_subtrains, unit
        length = self._template_length()
        if length is None:
            return _FULL_SUBTRAINS, unit
        if self.unit == "auto":
            unit = -(-length // _FULL_SUBTRAINS)
        return -(-length // unit), unit

    def _template_length(self):
        """The units of a plain fit of `estimator` (see `_training_length`), or None."""
        name = Subtrainer(self.subtrain_kind_, 1).length_param(self.estimator)
        if name is None:
            return None
        length = self.estimator.get_params()[name]
        if length is None and self.subtrain_kind_ == "xgboost":
            return _XGBOOST_ROUNDS
        if isinstance(length, numbers.Integral) and length >= 1:
            return int(length)
        return None

    def _subtrain_kind(self):
        """`subtrain_kind`, or the deprecated `resource` where it is given."""
        if self.resource == "deprecated":
            return self.subtrain_kind
        warnings.warn(
            "MutantUCBSearch's resource was renamed subtrain_kind in 0.1 and will be removed "
            "in 0.2: pass subtrain_kind instead.", FutureWarning)
        return self.resource

    def _models_seed(self):
        """The seed the models' own seeds are drawn from (the trainer's `random_state`).

        A skorch net has no ``random_state`` to seed: with a `checkpoint`, a
        warning says that a resumed search may not go on as it would have.
        """
        if self.checkpoint is not None and _is_skorch(_last_step(self.estimator)[0]):
            warnings.warn(
                f"{type(_last_step(self.estimator)[0]).__name__} has no random_state that "
                "MutantUCBSearch can seed: resumed from its checkpoint, the search replays "
                "what was recorded exactly, but the sub-trains it runs after that draw other "
                "random numbers (torch's) than the interrupted search would have, and may "
                "end elsewhere.", UserWarning)
        if isinstance(self.random_state, numbers.Integral):
            return int(self.random_state)
        return int(self._rng.randint(np.iinfo(np.int32).max))

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

    def _check_values_continue(self):
        """Refuse a list value of `param_distributions` that no model can be set or continued with.

        A value is set as a configuration sets it, on the steps that the
        configuration puts above it (``clf__alpha`` on each estimator that
        ``clf`` takes): one it cannot be set on is refused, naming it, and so
        is one with which none of them can be continued, such as
        ``solver="lbfgs"`` of an MLP sub-trained by ``partial_fit``, which
        only the stochastic solvers have: every model drawn with it would fail
        its first sub-train.
        """
        for space in _spaces(self.param_distributions):
            for name, values in space.items():
                if hasattr(values, "rvs"):
                    continue
                for value in values:
                    lasts = self._last_steps_with(space, name, value)
                    if not any(_supports(last, self.subtrain_kind_) for last in lasts):
                        raise ValueError(self._cannot_continue(name, value, lasts))

    def _last_steps_with(self, space, name, value):
        """The last steps of the models that branch `space` builds with ``name=value``.

        One for each combination of the list values of the parameters above
        `name` (``clf`` above ``clf__alpha``), which a configuration sets
        before it; the estimator itself where none is searched.
        """
        above = [key for key, values in space.items()
                 if name.startswith(f"{key}__") and not hasattr(values, "rvs")]
        lasts = []
        for combination in itertools.product(*(space[key] for key in above)):
            params = clone({**dict(zip(above, combination)), name: value}, safe=False)
            try:
                model = clone(self.estimator).set_params(**params)
            except ValueError as error:
                steps = ", ".join(f"{key}={params[key]!r}" for key in above)
                raise ValueError(
                    f"param_distributions gives {name}={value!r}, which the estimator cannot "
                    f"take{f' with {steps}' if steps else ''}: {error}"
                ) from error
            lasts.append(_last_step(model)[0])
        return lasts

    def _cannot_continue(self, name, value, lasts):
        """Why `name=value` of `param_distributions` is refused, and what to do."""
        kinds = [kind for kind in SUBTRAIN_KINDS if all(
            any(_supports(last, kind) for last in self._last_steps_with(space, key, v))
            for space in _spaces(self.param_distributions) for key, values in space.items()
            if not hasattr(values, "rvs") for v in values)]
        # subtrain_kind must suit the estimator's own last step as well, even where the
        # space replaces it.
        template = _last_step(self.estimator)[0]
        passable = [kind for kind in kinds if _supports(template, kind)]
        if passable:
            instead = f", or pass subtrain_kind={passable[0]!r}, which every value supports"
        elif kinds:
            instead = (f", or give the estimator a last step that continues by "
                       f"subtrain_kind={kinds[0]!r}, as every value does "
                       f"({type(template).__name__} does not), and pass that kind")
        else:
            instead = ""
        names = " or ".join(dict.fromkeys(type(last).__name__ for last in lasts))
        return (
            f"param_distributions gives {name}={value!r}, with which {names} "
            f"cannot continue training by subtrain_kind={self.subtrain_kind_!r}: every model "
            f"drawn with it would fail its first sub-train. Remove the value{instead}."
        )

    def _check_length_not_searched(self):
        """Refuse a space that searches the parameter the sub-trains grow."""
        name = self.length_param_
        if name is not None and any(name in space for space in _spaces(self.param_distributions)):
            raise ValueError(
                f"param_distributions searches {name!r}, the training length that "
                f"sub-trains set (subtrain_kind={self.subtrain_kind_!r}): remove it and set "
                "max_subtrains and unit instead."
            )


#: Without max_time, the actions in flight whose results are not used yet: the decisions are
#: the same on any number of workers. With cv=3, 24 tasks kept 8 loky workers 0.94 busy on
#: sleeping sub-trains (4: 0.81); on the recorded curves of the tune half, a budget of 3 full
#: trainings lost 0.46 point against the sequential rule's 0.31 with 2, 4 or 8.
_IN_FLIGHT = 8
#: The fewest initial models with mutation, where the budget allows: a budget of five fully
#: trained models' worth (n_initial 5) scored below ASHA's; 8 scored above it on the tune half.
_SMALL_BUDGET_INITIAL = 8
#: What ranks a model, by `reward`, in the progress header.
_REWARD_WORDS = {"finish": "its predicted score fully trained", "mean": "the mean of its scores",
                 "last": "its last score"}
#: What a sub-train's units are, by its kind, in the progress header.
_UNIT_WORDS = {"xgboost": "boosting rounds", "partial_fit": "passes", "n_estimators": "trees",
               "max_iter": "iterations"}
#: The word of one unit (``unit=1``).
_ONE_UNIT = {"boosting rounds": "boosting round", "passes": "pass", "trees": "tree",
             "iterations": "iteration", "epochs": "epoch"}
#: With ``max_subtrains="auto"``, a model is fully trained in this many sub-trains.
_FULL_SUBTRAINS = 10
#: The boosting rounds of an xgboost model whose ``n_estimators`` is None (xgboost's default).
_XGBOOST_ROUNDS = 100

#: The configurations drawn where the time budget sets how many initial models start; fewer
#: from a k-DPP, whose draw of 128 took 5 s.
_TIMED_DRAWS, _TIMED_DRAWS_KDPP = 128, 32

#: Draws of a mutant that avoid the failed configurations and values, before it copies its parent.
_MUTANT_DRAWS = 100


def _spaces(param_distributions):
    """The dicts of `param_distributions`: itself, or each of a list (one per branch)."""
    return param_distributions if isinstance(param_distributions, list) else [
        param_distributions]


def _refused(failed, scored, param_distributions):
    """``[(name, value)]``: values of lists that some configuration failed with and none scored."""
    return [(name, value) for space in _spaces(param_distributions)
            for name, values in space.items() if not hasattr(values, "rvs")
            for value in values
            if any(_holds(c, name, value) for c in failed)
            and not any(_holds(c, name, value) for c in scored)]


def _holds(params, name, value):
    """Whether configuration `params` sets `name` to `value`."""
    return name in params and _same_value(params[name], value)


def _same_configuration(a, b):
    return a.keys() == b.keys() and all(_holds(b, name, value) for name, value in a.items())
