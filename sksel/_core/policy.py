"""The contract between a search and its policy, and the base of the sequential ones.

A *policy* decides which evaluations run; it knows nothing of estimators.
An action (:class:`Action`) is a pair ``(candidate, resource)``: evaluate
`candidate` with that much training (DAUB: rows; Mutant-UCB: sub-trains; GP-UCB
and k-DPP: whole folds); how the training is given is the search's trainer's
business (:mod:`sksel._core.trainer`). An action may also name a *parent*: a
new candidate bred from another one (a Mutant-UCB mutant) names the parent's
action it starts from. The search's engine keeps every worker busy by asking
the policy for an action whenever a worker is free, runs it on every
cross-validation split, and tells the policy its mean scores when all splits
are in. A policy has:

``ask(n_actions=1, speculative=True, idle=False) -> list of actions``
    Up to `n_actions` actions to start now, each handed out once (an action
    told failed may be handed out again, a retry: DAUB retries once a
    failure at the full size on some of the splits; the results hold both
    evaluations). An empty
    list means nothing can start until a running action is told, or, when
    ``done``, that the search is over. With ``speculative=False``, only
    actions whose results the policy will use: the engine asks so once its
    workers have work ahead, since a speculative pick made early, on older
    results, is more often wasted. With ``idle=True`` a worker would
    otherwise have nothing to run: a policy may then guess further ahead
    (DAUB's rungs: the next size of a learner before its rung is decided).
``tell(candidate, resource, score, train_score=None, fit_time=None, failed=False, give_up=False)``
    The outcome of an action handed out: its mean validation score, its mean
    training score (when the search computes it), the seconds its fits took
    (summed over the splits), whether a split failed, and whether the engine
    gave the action up (its worker died twice). A policy that races the
    folds (below) is also told ``fold_scores``, the score of each split run
    (NaN where its fit failed, whatever `error_score`).
``done``
    Whether the search is over; fits still running are then abandoned.
``history_``
    Every action handed out, in order.
``decisions_``
    The actions whose results made the decisions, in the order they were
    used. ``cv_results_`` is built from them; an action handed out that is not
    among them was speculative, and is reported apart.

Properties are plain reads: a policy uses the results told in ``tell``.

Every policy derives from :class:`Policy`, which declares these members
too, with defaults that a policy overrides where it does more:

``races_folds`` (class attribute, default False)
    Whether it races the folds of an evaluation: as the scores of the first
    splits come in, its ``enough_folds(candidate, resource, fold_scores) ->
    bool`` says that the others need not run (`fold_scores` as ``tell``'s:
    NaN where a split's fit failed); the search then tells the splits run so
    far. Its ``folds_used_``, ``{action: number of splits}``,
    names the evaluations whose results it used on their first splits only:
    ``cv_results_`` holds those splits.
``needs_train_score(resource) -> bool`` (default False)
    Whether it reads the training score of an evaluation at `resource`
    (DAUB's bounds); the search then scores the training rows too.
``describe(candidate, resource) -> dict or None`` (default None)
    What the ``verbose=2`` progress line of a finished evaluation adds,
    ``{column: value}`` (DAUB: the candidate's bound).
``columns(candidates) -> dict`` (default ``{}``)
    Columns ``{name: values}`` the results rows of `candidates` add, read
    once the search is over (GP-UCB: the posterior of each). A
    ``why_not_evaluated`` column, where given, says why each candidate not
    evaluated was not (``""`` for the others): ``cv_results_`` lists those
    candidates too.
``stop_reason() -> str or None`` (default None)
    Once it is ``done`` by a rule of its own, the words the search's last
    progress line prints (None: the search says it is done).
``will_use(action) -> bool`` (default: `action` is among ``decisions_``)
    Whether the result of `action`, once told, is used whatever the results
    to come: the progress report prints the line of an evaluation at once
    where it is (k-DPP's: every evaluation is used), and holds it until the
    policy uses it otherwise.
``counts(action) -> bool`` (default True)
    Whether an evaluation counts against the evaluations planned (a
    GP-UCB look on a subsample does not).
``leader() -> (score, candidate, resource) or None`` (default None)
    The candidate the search would select from the results used so far,
    the best so far of the progress lines; None while there is none.
``likely_selections() -> list of (candidate, resource)`` (default: the leader's)
    The evaluations whose candidates the search may well select, the
    likeliest first, for workers with nothing else to do to refit them early
    (:mod:`~sksel._core.early_refit`); empty: no refit yet.
``dropped_`` (default empty)
    The candidates the policy's rule took out of the running: given no
    more training and never selected (DAUB's rungs, GP-UCB's looks).

:class:`SequentialPolicy` is the base of the policies whose decisions are
those of their one-worker run (DAUB, GP-UCB, k-DPP's evaluate-all): the first
action :meth:`~SequentialPolicy.ask` gives is the sequential run's next
decision; while it runs, idle workers get speculative actions; a result is
used only when the sequential run reaches it, in its order. So the decisions,
and ``cv_results_``, are the same for any number of workers and any order in
which results come in. A subclass says what the sequential run does:

``_decide()``
    Its next action given the results used so far, or None when it stops.
``_use(action, outcome)``
    Fold the outcome of `action` (an :class:`Outcome`) into the state.
``_speculate()``
    An action an idle worker may run now, or None.
``_sure()``
    Such an action that the run will use whatever the results, or None
    (the default).
``_guess()``
    An action for a worker that would otherwise idle (``ask(idle=True)``),
    where `_speculate` has none, or None (the default).

and calls ``_advance()`` at the end of its ``__init__``. It reads where the
run stands through the base's public properties (:attr:`~SequentialPolicy.next_decision`,
:attr:`~SequentialPolicy.pending`, :attr:`~SequentialPolicy.waiting`,
:attr:`~SequentialPolicy.n_decisions`) and may fold an outcome of its own
choosing into a copy of the run (:meth:`~SequentialPolicy._branch`,
:meth:`~SequentialPolicy._decide_with`) to look ahead. Mutant-UCB, whose
decisions follow the order results come in, implements the contract
directly.
"""

import copy
from types import MappingProxyType
from typing import NamedTuple

import numpy as np


class Policy:
    """Base of every policy: the contract between a search and its policy.

    See the module docstring. A subclass implements :meth:`ask` and
    :meth:`tell`, has the attributes (or properties) ``done``,
    ``decisions_`` and ``history_``, and overrides the optional members
    below where it does more than their defaults; the search calls every
    member, never probes for one.

    Attributes
    ----------
    done : bool
        Whether the search is over; fits still running are then abandoned.
    history_ : list of tuple
        Every action handed out, in order.
    decisions_ : list of tuple
        The actions whose results made the decisions, in the order they
        were used.
    races_folds : bool
        Whether :meth:`enough_folds` may cut an evaluation's splits short (a
        class attribute; False: every split runs).
    folds_used_ : mapping
        ``{action: number of splits}`` of the evaluations whose results
        were used on their first splits only (empty unless it races folds).
    dropped_ : collection
        The candidates its rule took out of the running (empty unless it
        drops candidates).
    """

    races_folds = False
    folds_used_ = MappingProxyType({})
    dropped_ = frozenset()

    def ask(self, n_actions=1, speculative=True, idle=False):
        """Up to `n_actions` actions to start now, each handed out once."""
        raise NotImplementedError

    def tell(self, candidate, resource, score, train_score=None, fit_time=None,
             failed=False, give_up=False):
        """The outcome of the action ``(candidate, resource)`` handed out.

        A policy that races folds is also told ``fold_scores``, the score of
        each split run.
        """
        raise NotImplementedError

    def enough_folds(self, candidate, resource, fold_scores):
        """Whether the splits of `fold_scores` suffice for ``(candidate, resource)``."""
        return False

    def needs_train_score(self, resource):
        """Whether the evaluations at `resource` score their training rows (besides
        those the search's ``return_train_score`` scores)."""
        return False

    def describe(self, candidate, resource):
        """``{column: value}`` the progress line of a finished evaluation adds, or None."""
        return None

    def columns(self, candidates):
        """``{name: values}`` the results rows of `candidates` add, once the search is over."""
        return {}

    def stop_reason(self):
        """Why it is ``done``, in the words of the last progress line; None: the search's."""
        return None

    def will_use(self, action):
        """Whether the result of `action` is used whatever the results to come."""
        return action in self.decisions_

    def counts(self, action):
        """Whether the evaluation `action` counts against the evaluations planned."""
        return True

    def leader(self):
        """``(score, candidate, resource)`` the search would select now, or None."""
        return None

    def predicted(self, candidate):
        """The score `candidate` is predicted to reach fully trained, or None where the policy
        predicts none."""
        return None

    def likely_selections(self):
        """``[(candidate, resource)]`` of :meth:`leader`, or none while there is no leader."""
        leader = self.leader()
        return [] if leader is None else [(int(leader[1]), leader[2])]


class Action(tuple):
    """An action of a policy: evaluate `candidate` with `resource` (its training).

    A pair ``(candidate, resource)``: it unpacks, compares, hashes and prints as
    that pair, so that a plain pair stands for it wherever an action is read.
    `parent` says what a new candidate starts from: for a candidate bred from
    another (a mutant), the parent's action whose trained state it takes up,
    ``(parent, parent's resource)``, or ``(parent, 0)`` where it takes up none
    and starts afresh; None for any other action.

    Parameters
    ----------
    candidate : int
        The candidate's index; a bred candidate takes the next free one.
    resource : int
        The training the evaluation gives (rows, sub-trains, or the training
        fold's size for whole folds), as the policy counts it.
    parent : tuple of (int, int) or None, default=None
        See above.

    Examples
    --------
    >>> from sksel._core.policy import Action
    >>> action = Action(5, 1, parent=(2, 3))
    >>> action == (5, 1), action.candidate, action.parent
    (True, 5, (2, 3))
    """

    def __new__(cls, candidate, resource, parent=None):
        action = super().__new__(cls, (candidate, resource))
        action.parent = parent
        return action

    def __reduce__(self):
        return Action, (self[0], self[1], self.parent)

    @property
    def candidate(self):
        """The candidate evaluated."""
        return self[0]

    @property
    def resource(self):
        """The training it gets."""
        return self[1]


class Outcome(NamedTuple):
    """What :meth:`SequentialPolicy.tell` learnt of an action.

    `failed` is True for a failed evaluation, one given up, or a non-finite
    score.
    """

    score: float
    train_score: object
    fit_time: object
    failed: bool
    give_up: bool
    fold_scores: object = None


class SequentialPolicy(Policy):
    """Base of the policies whose decisions are their one-worker run's.

    See the module docstring for what subclasses implement.

    Attributes
    ----------
    history_ : list of tuple
        Every action handed out, in order.
    """

    def __init__(self):
        self.history_ = []
        self._decisions = []
        self._told = {}
        self._pending = set()
        self._next = None

    def ask(self, n_actions=1, speculative=True, idle=False):
        """Up to `n_actions` actions to run now (see the module docstring).

        The first is the sequential run's next decision, unless it is running
        already; the others are speculative, or with ``speculative=False``
        only those the run will use whatever the results; with `idle`, a
        guess where no speculative action is left.
        """
        actions = []
        while len(actions) < n_actions:
            action = self._next
            if action is None:
                break
            if action in self._pending:
                action = self._speculate() if speculative else self._sure()
                if action is None and speculative and idle:
                    action = self._guess()
                if action is None:
                    break
            action = Action(*action)
            self._pending.add(action)
            self.history_.append(action)
            actions.append(action)
        return actions

    def tell(self, candidate, resource, score, train_score=None, fit_time=None, failed=False,
             give_up=False, fold_scores=None):
        """Record the outcome of the action ``(candidate, resource)``; use what the run reaches."""
        action = (candidate, resource)
        self._pending.discard(action)
        failed = bool(failed or give_up or not np.isfinite(score))
        self._told[action] = Outcome(score, train_score, fit_time, failed, give_up, fold_scores)
        self._advance()

    @property
    def done(self):
        """Whether the sequential run has stopped."""
        return self._next is None

    @property
    def decisions_(self):
        """The actions whose results made the decisions, in the order they were used."""
        return list(self._decisions)

    @property
    def n_decisions(self):
        """How many results the sequential run has used."""
        return len(self._decisions)

    @property
    def next_decision(self):
        """The sequential run's next action, None once it has stopped."""
        return self._next

    @property
    def pending(self):
        """The actions handed out whose outcome is not told yet (a frozenset)."""
        return frozenset(self._pending)

    @property
    def waiting(self):
        """``{action: Outcome}`` told and not used yet: the run has not reached them (read-only)."""
        return MappingProxyType(self._told)

    def _branch(self):
        """A copy of the run whose decisions go on apart from this one's.

        A subclass whose `_use` changes containers of its own copies them too.
        """
        run = copy.copy(self)
        run._decisions, run._told = list(self._decisions), dict(self._told)
        run._pending, run.history_ = set(self._pending), list(self.history_)
        return run

    def _advance(self):
        """Use told results in decision order; keep and return the next decision."""
        while True:
            action = self._decide()
            if action is None or action not in self._told:
                self._next = action
                return action
            self._use_told(action)

    def _use_told(self, action):
        """Make the told `action` the next decision and fold its outcome in."""
        self._decide_with(action, self._told.pop(action))

    def _decide_with(self, action, outcome):
        """Make `action` the next decision, with `outcome` (told, or simulated)."""
        self._decisions.append(action)
        self._use(action, outcome)

    def _decide(self):
        raise NotImplementedError

    def _use(self, action, outcome):
        raise NotImplementedError

    def _speculate(self):
        return None

    def _sure(self):
        return None

    def _guess(self):
        return None
