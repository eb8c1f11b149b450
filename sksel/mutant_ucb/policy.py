"""Mutant-UCB's policy: which model gets the next sub-train, or breeds a mutant.

Pure bookkeeping, no estimator; see :mod:`sksel.mutant_ucb`.
"""

import math
from collections import Counter

import numpy as np
from sklearn.utils import check_random_state

from .._core.policy import Action, Policy


class MutantUCBPolicy(Policy):
    """Which model gets the next sub-train, or breeds a mutant, by Mutant-UCB.

    The policy knows nothing of estimators: it hands out ``(model, n)``
    actions with :meth:`ask`, meaning "bring model `model` to `n` sub-trains"
    (``n = 1`` for a new model, initial or mutant), and learns their scores
    through :meth:`tell`. Scores are "higher is better".

    Parameters
    ----------
    n_initial : int
        K, the number of models sampled at the start (models ``0 .. K-1``).

    budget : int or None
        T, the number of sub-trains in all, the final training of the
        selected model included; never exceeded. At least
        ``n_initial + max_subtrains - 1`` leaves room to finish a model.
        None: no cap on the sub-trains (with a `clock`, the time is the
        budget).

    max_subtrains : int or None, default=None
        N, the most sub-trains a model receives itself (the paper's). None:
        no cap (∞-UCB-E); then no mutant is bred and the selected model gets
        no final training.

    exploration : float, default=0.05
        E, the exploration parameter, >= 0: an arm's bonus is
        ``scale * sqrt(E / N_k)``.

    mutation : bool, default=True
        Breed mutants (Mutant-UCB). With False a chosen model is always
        sub-trained while it has fewer than `max_subtrains` sub-trains, and
        a model at the cap is no longer chosen.

    reward : {"mean", "last", "finish"}, default="mean"
        ``mu_k``: the running mean of the model's scores (the paper's, which
        remembers how low a model started), its last score, or its predicted
        score once trained `max_subtrains` sub-trains in all (`finish`). With
        ``"finish"`` the upper bound is `finish`'s optimistic final score
        rather than the paper's bonus, and a pull doubles the model's own
        training (1, 2, 4, ... sub-trains, within its room) in one action,
        as a model's final sub-trains are given in one action.

    finish : callable or None, default=None
        ``finish(scores, lengths, n_full) -> (predicted, optimistic)``: a
        model's predicted and optimistic final scores, once its lineage has
        `n_full` sub-trains (those it inherited and `max_subtrains` of its
        own, within `max_lineage_subtrains`), from its scores so far, told
        after `lengths` sub-trains of its lineage (a mutant's curve starts
        with its parent's score at the training it went on from). Required
        with ``reward="finish"`` (:class:`~sksel.curves.finish_model.FinishModel`
        gives it).

    scale : float or "range", default=1.0
        Unit of the exploration bonus, in score units. 1 keeps the paper's E
        for scores in [0, 1] (accuracy). ``"range"`` is the spread (max - min)
        of the initial models' first scores, so that E means the same for any
        scorer (e.g. ``neg_mean_squared_error``).

    max_lineage_subtrains : int or None, default=None
        L, the most sub-trains a model is trained for in all, those it
        inherited from its ancestors included: a model whose lineage reached
        ``L`` is no longer sub-trained (a choice of it breeds), and its
        mutants start afresh (their actions name ``parent=(parent, 0)``).
        None: no such cap, as in the paper, where a lineage trains on as
        long as its mutants do.

    inherit : bool, default=True
        Whether a mutant goes on from its parent's training (its sub-trains
        so far, which its lineage's count includes). A chosen model that had
        ``t`` sub-trains itself is sub-trained with probability
        ``1 - t / N`` and otherwise breeds. False: every mutant starts
        afresh, the paper's Algorithm 2 with fresh mutants.

    inherited : callable or None, default=None
        ``inherited(model) -> int``: the sub-trains a mutant went on from,
        asked once its first sub-train is told (the trainer knows whether it
        could go on from its parent's model or had to start afresh). None:
        what it was bred to inherit (see `inherit`).

    clock : SubtrainClock or None, default=None
        A time budget (:class:`~sksel.mutant_ucb.clock.SubtrainClock`):
        the seconds told (`tell`'s ``fit_time``) price every model's
        sub-trains by its lineage. The first model starts alone, so that a
        complete evaluation, and a price, come soonest; another initial model
        starts only where its sub-train and the refit of the best model end
        in time. The pulls stop once one more, the finishing of the leaders
        and a refit would not end within the clock's ``max_time``; a model's
        final sub-trains start only where they and a refit end in time, and
        the first model's each where it and the model's refit do: with too
        little time to train any model fully, the best is trained as far as
        the time allows, and refitted in time. Which arm is pulled does not
        depend on the prices. None: nothing depends on the seconds.

    initial_count : callable or None, default=None
        ``initial_count(budget) -> int``, K for a budget of sub-trains; with
        a `clock`, K is ``initial_count`` of the sub-trains the time pays for,
        from the seconds of the initial models told so far, at most
        `n_initial`, which is then the configurations drawn to choose from.
        None: K is `n_initial`.

    in_flight : int, default=1
        Without a `clock`, the most actions handed out whose results are not
        used yet: the ``i``-th action is decided on the results of the
        actions before ``i - in_flight + 1`` exactly, whatever other results
        are told by then (and, where it cannot be decided on those, on the
        next results in the order handed out), so that the decisions are the
        same on any number of workers and in any order the results come in.
        1 is the sequential algorithm. With a `clock`, the results are used
        as they come in and `in_flight` is not used.

    random_state : int, RandomState instance or None, default=None
        Seed of the sub-train-or-mutate draws and of the ties.

    Attributes
    ----------
    history_ : list of Action
        Every action handed out, ``(model, n)``, in order; the first action
        of a mutant names its parent's, ``parent=(parent, its sub-trains)``
        that the mutant goes on from, or ``(parent, 0)`` for a mutant that
        starts afresh.

    decisions_ : list of tuple
        The actions whose results are in, in the order they came in.

    parents_ : list of int
        The parent of every model so far, -1 for the initial ones.

    best_ : int or None
        The model with the highest ``mu`` among those not failed.

    failed_ : list of int
        The models whose sub-train failed, in order.

    Examples
    --------
    >>> from sksel.mutant_ucb import MutantUCBPolicy
    >>> policy = MutantUCBPolicy(n_initial=2, budget=6, max_subtrains=3,
    ...                          max_lineage_subtrains=3, random_state=0)
    >>> quality = {0: 0.6, 1: 0.8}
    >>> while not policy.done:
    ...     for model, n in policy.ask():
    ...         if model not in quality:  # a mutant: a little better than its parent
    ...             quality[model] = quality[policy.parents_[model]] + 0.01
    ...         policy.tell(model, n, quality[model] + 0.01 * n)
    >>> policy.history_
    [(0, 1), (1, 1), (1, 2), (2, 1), (3, 1), (1, 3)]
    >>> policy.parents_
    [-1, -1, 1, 2]

    Mutant 2 went on from model 1's two sub-trains, which left its lineage
    room for one; mutant 3, bred from it at the lineage's cap, started afresh:

    >>> [policy.lineage_subtrains(model) for model in range(policy.n_models)]
    [1, 3, 3, 1]
    >>> policy.history_[3].parent, policy.history_[4].parent
    ((1, 2), (2, 0))
    """

    def __init__(self, n_initial, budget, *, max_subtrains=None, max_lineage_subtrains=None,
                 exploration=0.05, mutation=True, reward="mean", finish=None, scale=1.0,
                 inherit=True, inherited=None, clock=None, initial_count=None, in_flight=1,
                 random_state=None):
        self.n_initial = n_initial
        self.budget = budget
        self.max_subtrains = max_subtrains
        self.max_lineage_subtrains = max_lineage_subtrains
        self.exploration = exploration
        self.mutation = mutation and max_subtrains is not None
        self.reward = reward
        self.finish = finish
        if reward == "finish" and finish is None:
            raise ValueError("reward='finish' needs finish(scores, lengths, n_full), the "
                             "predicted and optimistic final scores of a curve.")
        self.scale = scale
        self.inherit = inherit
        self.inherited = inherited
        self.clock = clock
        self.initial_count = initial_count
        self.in_flight = in_flight
        self._k = None if clock is not None and initial_count is not None else n_initial
        self._rng = check_random_state(random_state)
        self.history_ = []
        self.decisions_ = []
        self.parents_ = [-1] * n_initial
        self._first = [None] * n_initial
        self._last = [None] * n_initial
        self._sum = [0.0] * n_initial
        self._pulls = [0] * n_initial
        self._trained = [0] * n_initial
        self._inherited = [0] * n_initial
        self._points = [[] for _ in range(n_initial)]  # (lineage sub-trains, score), as told
        self._finishes = {}  # model -> (predicted, optimistic), while its curve is unchanged
        self._busy = {}  # model -> the sub-trains its action in flight adds
        self._spent = 0  # sub-trains handed out
        self._order = {}  # (model, n) -> its place in history_
        self._told = {}  # place in history_ -> (model, n, score, failed), told, not used yet
        self._used = 0  # actions of history_ whose results are used, in order
        self._failed = set()
        self._initial_in = 0
        self._finishing = []
        self._full = None  # whether every pull trains fully (decided once the initial are in)
        self._why_full = ""
        self._scale = None if scale == "range" else float(scale)

    # ------------------------------------------------------------------ ask/tell
    def ask(self, n_actions=1, speculative=True, idle=False):
        """Up to `n_actions` actions ``(model, n)`` to run now: the candidate and its resource,
        the sub-trains it reaches.

        Models with a sub-train in flight are not chosen again until its
        result is used; an empty list means nothing can start until a result
        is told, or, when :attr:`done`, that the search is over. Without a
        `clock`, the results are used in the order the actions were handed
        out, `in_flight` behind (see `in_flight`). Every action is a
        decision, whose result is used: `speculative` and `idle` change
        nothing.
        """
        actions = []
        while len(actions) < n_actions:
            action = self._decide()
            if action is None:
                break
            if self.clock is not None:
                self.clock.handing_out()
            model, n = action
            parent = self.parents_[model]
            if not self._trained[model] and parent >= 0:
                # A mutant: it starts from its parent as trained so far.
                start = self._trained[parent] if self._inherited[model] else 0
                action = Action(model, n, parent=(parent, start))
            else:
                action = Action(model, n)
            self._busy[model] = n - self._trained[model]
            self._spent += n - self._trained[model]
            self._order[model, n] = len(self.history_)
            self.history_.append(action)
            actions.append(action)
        return actions

    def tell(self, candidate, resource, score, train_score=None, fit_time=None, failed=False,
             give_up=False):
        """Record the score of model `candidate` after its `resource`-th sub-train.

        A failed sub-train (``failed``, ``give_up`` or a non-finite score)
        marks the candidate failed: it is never chosen or selected again.
        `fit_time`, the seconds of the sub-train summed over the folds, prices
        the model's sub-trains where a `clock` is given; `train_score` is
        unused. Without a `clock`, the result is used once the decisions
        reach it (:meth:`ask`); with one, at once.
        """
        if self.clock is not None and fit_time is not None and np.isfinite(score) and not (
                failed or give_up):
            self.clock.note(candidate, resource - self._trained[candidate], fit_time)
        if self.clock is not None:
            self._use(candidate, resource, score, failed or give_up)
            return
        self._told[self._order[candidate, resource]] = (candidate, resource, score,
                                                       failed or give_up)
        self._use_due()

    def _use_due(self):
        """Use, in the order handed out, the results told that the next decision is to be
        made on: those up to `in_flight` behind it. False where one is not told yet."""
        while self._used < len(self.history_) - self.in_flight + 1:
            if not self._use_next():
                return False
        return True

    def _decide(self):
        """The next action, on the results used so far, or None. Without a `clock`, where it
        needs one more result, that result is used first if told (None while it is not)."""
        if self.clock is not None:
            return self._next_action()
        if not self._use_due():
            return None
        while True:
            action = self._next_action()
            if action is not None or self._used == len(self.history_) or not self._use_next():
                return action

    def _use_next(self):
        """Use the result of the next action handed out, in order; False where it is not
        told yet."""
        if self._used not in self._told:
            return False
        self._use(*self._told.pop(self._used))
        self._used += 1
        return True

    def _use(self, candidate, resource, score, failed):
        """Fold the result of ``(candidate, resource)`` into the state."""
        self._busy.pop(candidate, None)
        self.decisions_.append((candidate, resource))
        if candidate < self.n_initial and not self._trained[candidate]:
            self._initial_in += 1
        if failed or not np.isfinite(score):
            self._failed.add(candidate)
            return
        score = float(score)
        if self._trained[candidate] == 0:
            self._first[candidate] = score
            if self.parents_[candidate] >= 0 and self.inherited is not None:
                self._inherited[candidate] = self.inherited(candidate)
            self._points[candidate] = self._inherited_point(candidate)
        self._points[candidate].append((self._inherited[candidate] + resource, score))
        self._finishes.pop(candidate, None)
        self._last[candidate] = score
        self._sum[candidate] += score
        self._trained[candidate] = resource

    @property
    def done(self):
        """Whether the budget is spent (or nothing is left to train) and every result is used."""
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

    def leader(self):
        """``(last score, model, its sub-trains)`` of :attr:`best_`, or None."""
        best = self.best_
        return None if best is None else (self._last[best], best, self.subtrains(best))

    @property
    def failed_(self):
        """The models whose sub-train failed, in order."""
        return sorted(self._failed)

    def subtrains(self, model):
        """``Nbar_k``: the sub-trains `model` has received, as told."""
        return self._trained[model]

    def lineage_subtrains(self, model):
        """The sub-trains `model` was trained for: its own and those it inherited."""
        return self._inherited[model] + self._trained[model]

    def mu(self, model):
        """``mu_k``: the mean, the last or the predicted final of the model's scores (see
        `reward`)."""
        if self.reward == "mean":
            return self._sum[model] / self._trained[model]
        if self.reward == "finish":
            return self._finish_of(model)[0]
        return self._last[model]

    def upper_bound(self, model, pulls=None):
        """``mu_k + scale * sqrt(E / N_k)``, ``N_k`` the times the arm was chosen; with
        ``reward="finish"``, the model's optimistic final score."""
        if self.reward == "finish":
            return self._finish_of(model)[1]
        pulls = self._pulls[model] if pulls is None else pulls
        return self.mu(model) + self._bonus_scale() * math.sqrt(self.exploration / pulls)

    def columns(self, candidates):
        """``pulls``: the actions each model got (1 for a model trained fully at once, as
        random search trains one); with ``reward="finish"``, ``predicted_final_score``: its
        predicted score fully trained, as the bandit ranked it (NaN where it failed)."""
        pulls = Counter(k for k, _ in self.decisions_)
        columns = {"pulls": [pulls[c] for c in candidates]}
        if self.finish is not None:
            columns["predicted_final_score"] = [
                self.predicted(c) if self._scored(c) else np.nan for c in candidates]
        return columns

    def stop_reason(self):
        """Where pulls trained their models fully, why (None otherwise: the search's words)."""
        if not self._full:
            return None
        return ("done; every pull after the initial models trained its model fully: "
                f"{self._why_full}")

    def predicted(self, model):
        """The predicted score of `model` fully trained, by `finish`; None without one."""
        return self._finish_of(model)[0] if self.finish is not None else None

    def curve(self, model):
        """``(lengths, scores)``: the model's scores as told, after the sub-trains of its
        lineage (a mutant's first is its parent's score where it went on from it)."""
        points = self._points[model]
        return [length for length, _ in points], [score for _, score in points]

    # ---------------------------------------------------------------- internals
    def _next_action(self, peek=False):
        """The next action, or None; with `peek`, draw nothing and change nothing."""
        started = len(self.history_) if self._k is None else min(len(self.history_), self._k)
        if started < self._initial_models() and self._starts_in_time():
            return (started, 1) if peek else self._start_initial(started)
        if self._initial_in < started:
            return None  # the initial sub-trains are not all in
        if self._full is None:  # the initial models are in: K and the kind of pulls are set
            self._k = started
            self._full = self.reward == "finish" and self._partial_scores_cannot_pay()
        if not self._finishing and self._can_pull():
            arm = self._argmax()
            if arm is not None and self._pays_for(arm):
                return (arm, None) if peek else self._pull(arm)
            if arm is None and self._busy:
                return None
        return self._finalize(peek)

    def _initial_models(self):
        """K, the initial models: `n_initial`, or with `initial_count` as the seconds say.

        Before any initial sub-train is told, one: its folds on every worker
        give a complete evaluation, and a price, soonest.
        """
        if self._k is not None:
            return self._k
        if not self._initial_in:
            return 1
        price = self.clock.typical(self.parents_)
        budget = self._spent + self.clock.subtrains_left(price) if price > 0 else np.inf
        count = self.initial_count(int(min(budget, np.iinfo(np.int32).max)))
        return max(2, min(self.n_initial, count))

    def _starts_in_time(self):
        """Whether a new initial model may start now: always without a `clock`; with one,
        the first at once, the others once a sub-train is told, where a sub-train priced as
        the initial ones' (beside those in flight) and the refit of the best model so far
        end in time."""
        if self.clock is None or not self.history_:
            return True
        if not self._initial_in:
            return False
        best = self.best_
        refit = 0.0 if best is None else self.clock.refit_seconds(
            self.lineage_subtrains(best), self._price(best))
        price = max(self.clock.typical(self.parents_), 1e-9)
        now = self.clock.wall([price] + self._in_flight())
        return now + refit <= self.clock.time_left()

    def _start_initial(self, model):
        self._pulls[model] = 1
        return model, self._worth_a_task(model, 1)

    def _worth_a_task(self, model, step):
        """`step`, or with ``reward="finish"`` and a `clock`, at least the sub-trains whose
        seconds make the task's overhead (:meth:`SubtrainClock.overhead`) at most a tenth
        of the task's, within the model's room."""
        if self.reward != "finish" or self.clock is None or self.max_subtrains is None:
            return step
        overhead = self.clock.overhead()
        if not overhead:
            return step
        worth = math.ceil(_OVERHEAD_RATIO * overhead / self._price(model))
        return max(step, min(worth, self._room(model)))

    def _can_pull(self):
        """Whether a pull leaves the budget to finish the leaders to the cap.

        The leaders are the best models so far, one per worker: the one that
        asks and one per model in flight (one with a single worker).
        """
        return self._spare() >= 1

    def _spare(self):
        """The sub-trains of the budget left beyond the room kept to finish the leaders (see
        `_can_pull`); infinite without a budget."""
        if self.budget is None:
            return np.inf
        kept = 0 if self.max_subtrains is None else sum(
            self._room(k) for k in self._leaders(1 + len(self._busy)))
        return self.budget - self._spent - kept

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

    def _price(self, model):
        """The predicted seconds of a sub-train of `model`; a tiny positive floor."""
        return max(self.clock.price(model, self.parents_), 1e-9)

    def _pays_for(self, arm):
        """Whether pulling `arm`, then finishing the leaders and refitting one, ends in time.

        The pull runs beside the sub-trains in flight; the leaders are those
        `_can_pull` keeps room for. Without a `clock`, always.
        """
        if self.clock is None:
            return True
        leaders = self._leaders(1 + len(self._busy))
        rooms = [self._room(k) if self.max_subtrains is not None else 0 for k in leaders]
        finish = self.clock.wall([room * self._price(k) for k, room in zip(leaders, rooms)])
        refit = max(self.clock.refit_seconds(self.lineage_subtrains(k) + room, self._price(k))
                    for k, room in zip(leaders, rooms))
        now = self.clock.wall([self._step(arm) * self._price(arm)] + self._in_flight())
        return now + finish + refit <= self.clock.time_left()

    def _finishes_in_time(self, model, finished):
        """Whether the final sub-trains of `model`, then a refit, end in time.

        They run beside the work in hand (:meth:`_wall_of_work`). The refit is
        that of `model` or of the best of the models `finished` so far, the
        longer. Always where no `clock` is given. While no model is finished
        or being finished, its next sub-train (:meth:`_step_in_time`): the
        search then ends with the best model trained as far as the time
        allows, fully where it does.
        """
        if self.clock is None:
            return True
        if not (self._finishing or finished):
            return self._step_in_time(model)
        need = self._room(model)
        refit = max(self.clock.refit_seconds(self.lineage_subtrains(k) + room, self._price(k))
                    for k, room in [(model, need)] + [(k, 0) for k in self._by_mu(finished)[:1]])
        return self._wall_of_work(model, need) + refit <= self.clock.time_left()

    def _step_in_time(self, model):
        """Whether the next sub-train of `model`, beside the sub-trains in flight, then its
        refit, end in time; always without a `clock`."""
        if self.clock is None:
            return True
        refit = self.clock.refit_seconds(self.lineage_subtrains(model) + 1, self._price(model))
        wall = self.clock.wall([self._price(model)] + self._in_flight(but=model))
        return wall + refit <= self.clock.time_left()

    def _wall_of_work(self, model, subtrains):
        """The wall seconds of `subtrains` sub-trains of `model`, beside the work in hand.

        That is the final sub-trains of the models being finished and the
        pulls in flight.
        """
        chains = [self._room(k) * self._price(k) for k in self._finishing
                  if k != model and self._unfinished(k)]
        pulls = self._in_flight(but=self._finishing)
        return self.clock.wall([subtrains * self._price(model)] + chains + pulls)

    def _scored(self, model):
        return self._last[model] is not None and model not in self._failed

    def _trainable(self, model):
        """Whether choosing `model` can give a pull: a sub-train below the cap, or a mutant."""
        return self.mutation or self.max_subtrains is None or self._room(model) > 0

    def _room(self, model):
        """The sub-trains `model` may still get: under `max_subtrains`, and its lineage's cap."""
        room = self.max_subtrains - self._trained[model]
        if self.max_lineage_subtrains is None:
            return room
        return min(room, self.max_lineage_subtrains - self.lineage_subtrains(model))

    def _pull(self, arm):
        """Sub-train `arm`, or breed a mutant of it, as Algorithm 2 draws.

        It is sub-trained with probability ``1 - t / N``, ``t`` its own
        sub-trains, and always breeds once its lineage reached its cap.
        """
        self._pulls[arm] += 1
        if self.mutation and (self._rng.uniform() >= 1 - self._trained[arm] / self.max_subtrains
                              or self._room(arm) <= 0):
            return self._breed(arm)
        return arm, self._trained[arm] + self._step(arm)

    def _step(self, model):
        """The sub-trains a pull of `model` adds: one, or with ``reward="finish"`` as many as
        it had itself (its training doubles), within its room."""
        if self.reward != "finish" or not (self._trained[model] or self._full):
            return 1
        if self._full:
            step = self._room(model)
        else:
            step = self._trained[model] if self.max_subtrains is None else min(
                self._trained[model], self._room(model))
            step = self._worth_a_task(model, step)
        return max(1, min(step, self._spare()))  # within what `_can_pull` keeps room for

    def _final_step(self, model):
        """The sub-trains an action of `model`'s final training adds: one, or with
        ``reward="finish"`` all it needs, or as many of them as end in time, with its refit
        (at least one)."""
        need = self._room(model)
        if self.reward != "finish" or need <= 1:
            return 1
        if self.clock is None:
            return need
        left = self.clock.time_left()
        for step in range(need, 1, -1):
            refit = self.clock.refit_seconds(self.lineage_subtrains(model) + step,
                                             self._price(model))
            if self._wall_of_work(model, step) + refit <= left:
                return step
        return 1

    def _partial_scores_cannot_pay(self):
        """Whether pulls should train fully, as random search does, once the initial models
        are in: where the time left pays for fewer than `_FEW_FULL` full trainings a worker,
        or where the initial models' predicted final scores differ by less than
        `_NOISE_SHARE` of their predicted spread (partial scores rank nothing)."""
        if self.max_subtrains is None:
            return False
        if self.clock is not None:
            price = max(self.clock.typical(self.parents_), 1e-9)
            full = self.clock.subtrains_left(price) / self.max_subtrains
            if full < _FEW_FULL * self.clock.n_workers:
                self._why_full = (f"the time left paid for {full:.1f} full trainings on "
                                  f"{self.clock.n_workers} worker(s)")
                return True
        initial = [k for k in range(self._k) if self._scored(k)]
        if len(initial) < 2:
            return False
        predicted, optimistic = np.array([self._finish_of(k) for k in initial]).T
        spread = np.median(optimistic - predicted)
        if np.std(predicted) < _NOISE_SHARE * spread:
            self._why_full = (f"the initial models' predicted final scores spread "
                              f"{np.std(predicted):.4f}, less than half the spread of one "
                              f"prediction ({spread:.4f}): partial scores rank nothing")
            return True
        return False

    def _in_flight(self, but=()):
        """The seconds of the actions in flight (those of the models `but` left out)."""
        but = {but} if isinstance(but, int) else set(but)
        return [step * self._price(k) for k, step in self._busy.items() if k not in but]

    def _finish_of(self, model):
        """``(predicted, optimistic)`` final scores of `model`, by `finish`."""
        if model not in self._finishes:
            lengths, scores = self.curve(model)
            self._finishes[model] = self.finish(scores, lengths, self._full_length(model))
        return self._finishes[model]

    def _full_length(self, model):
        """The sub-trains of `model`'s lineage once it is fully trained: those it inherited
        and `max_subtrains` of its own, within `max_lineage_subtrains` (its lineage's so
        far without a cap)."""
        if self.max_subtrains is None:
            return max(self.lineage_subtrains(model), 1)
        full = self._inherited[model] + self.max_subtrains
        return full if self.max_lineage_subtrains is None else min(
            full, self.max_lineage_subtrains)

    def _inherited_point(self, model):
        """The first point of a mutant's curve: its parent's score at the sub-trains it went
        on from, where it did (none for an initial model or a fresh start)."""
        inherited = self._inherited[model]
        parent = self.parents_[model]
        if parent < 0 or not inherited:
            return []
        return [point for point in self._points[parent] if point[0] == inherited][-1:]

    def _breed(self, parent):
        model = self.n_models
        self.parents_.append(parent)
        self._first.append(None)
        self._last.append(None)
        self._sum.append(0.0)
        self._points.append([])
        self._pulls.append(1)
        self._trained.append(0)
        inherits = self.inherit and (self.max_lineage_subtrains is None or (
            self.lineage_subtrains(parent) < self.max_lineage_subtrains))
        self._inherited.append(self.lineage_subtrains(parent) if inherits else 0)
        return model, 1

    def _finalize(self, peek):
        """The final sub-trains of the leaders, up to `max_subtrains` in all.

        Once the budget stops the pulls, each free worker extends the chain
        of final sub-trains of a model already being finished, or starts
        that of the best model (highest ``mu``) whose chain the budget left
        can pay for beside the chains started and those of better models
        still running a pull; with a `clock`, at most one chain per worker
        runs, and a chain starts only where it ends in time. With one worker
        that is one chain, the best model's; with more, the leaders are
        finished in parallel and the search selects the best finished one.
        """
        if self.max_subtrains is None:
            return None
        for model in self._finishing:
            if model not in self._busy and self._unfinished(model) and self._step_in_time(model):
                return (model, None) if peek else (model, self._trained[model]
                                                   + self._final_step(model))
        if self.clock is not None and sum(map(self._unfinished, self._finishing)) >= (
                self.clock.n_workers):
            return None  # one chain per worker: another starts, if in time, once one ends
        left = np.inf if self.budget is None else self.budget - self._spent - sum(
            self._room(k) - self._busy.get(k, 0) for k in self._finishing if self._unfinished(k))
        waiting = [k for k in range(self.n_models) if k not in self._finishing
                   and self._scored(k) and self._unfinished(k)]
        finished = [k for k in range(self.n_models) if self._scored(k) and not self._unfinished(k)]
        for model in self._by_mu(waiting):
            need = self._room(model)
            if need > left or not self._finishes_in_time(model, finished):
                continue
            if model in self._busy:
                left -= need  # kept for it: it starts its chain once its pull is in
                continue
            if not peek:
                self._finishing.append(model)
            return model, (None if peek else self._trained[model] + self._final_step(model))
        return None

    def _unfinished(self, model):
        return model not in self._failed and self._room(model) > 0

    def _bonus_scale(self):
        if self._scale is None:
            first = [score for score in self._first[: self.n_initial] if score is not None]
            spread = max(first) - min(first) if first else 0.0
            self._scale = spread if spread > 0 else 1.0
        return self._scale


#: A task's sub-trains are at least this many times its overhead, with a clock.
_OVERHEAD_RATIO = 9.0
#: Pulls train fully where the time left pays for fewer full trainings a worker than this.
_FEW_FULL = 2.0
#: Pulls train fully where the initial models' predicted final scores spread less than this
#: share of the spread of one prediction (its optimistic bound less the prediction).
_NOISE_SHARE = 0.5
