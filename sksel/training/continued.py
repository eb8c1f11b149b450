"""Continued training: models that go on from their state, sub-train after sub-train.

:class:`ContinuedTrainer` is the trainer (:mod:`sksel._core.trainer`) of any
policy whose resource is sub-trains (Mutant-UCB's, or successive halving over
epochs): the fitted model of every (model, fold) is kept between sub-trains
(:class:`_ModelStates`), every fold's rows are cut once (:class:`_FoldRows`),
and a task runs one sub-train on one fold (:func:`_subtrain_and_score`). A new
model whose action names a parent (a mutant) starts from the parent's fitted
model where it can take the new parameters (:mod:`sksel.training.inheritance`).
"""

import os
import shutil
import tempfile
import time
from copy import deepcopy
from traceback import format_exc

import joblib
import numpy as np
from sklearn.base import clone
from sklearn.utils import _safe_indexing, get_tags
from sklearn.utils.multiclass import type_of_target

from .._compat import _check_method_params, _num_samples, _safe_split, _score
from .folds import FoldsTrainer
from .inheritance import continued, inheritable


class ContinuedTrainer(FoldsTrainer):
    """Sub-trains of models that go on from their state; a mutant from its parent's.

    The action ``(model, n)`` brings `model` to `n` sub-trains: a model
    trained before goes on from its state after its last evaluation, ``m``
    sub-trains, for ``n - m`` more (one, for Mutant-UCB; from one rung to the
    next, for successive halving over epochs); a new model starts from a
    fresh estimator and gets `n`, or, for an action that names a parent
    ``(parent, n_parent)`` with ``n_parent > 0`` and `inherit`, from the
    parent's fitted model with the new parameters set
    (:func:`~sksel.training.inheritance.inheritable`). The parameters of a
    results row state the training length its sub-trains add up to, inherited
    ones included, and the refit replays that training on all the rows.

    Parameters
    ----------
    splits : list of (train, test) index arrays
        The cross-validation folds.
    subtrainer : Subtrainer
        How a sub-train continues a model (:class:`~sksel.training.subtrain.Subtrainer`).
    estimator : estimator object
        The estimator of the search, as the user gave it (which of its
        parameters a fitted model can take, its training length).
    max_resource : int
        The most sub-trains a model receives itself: rows of models trained
        that long in total, inherited sub-trains included, rank first.
    inherit : bool
        Whether a new model with a parent starts from the parent's model.
    max_total : int or None, default=None
        The most sub-trains a model is trained for in all, those it inherited
        included, or None. A model's state is dropped once no sub-train or
        mutant can go on from it: trained `max_total` in all, or (without
        `inherit`) `max_resource` itself.
    memory : str, path or None
        Folder where the states are kept, instead of in memory.
    mapped : bool
        Memory-map every fold's rows (the fits run in worker processes).
    score_share : float, default=1.0
        The share of every validation fold that scores a model whose
        training, inherited sub-trains included, is still below
        `max_resource`: a fixed part of the fold, stratified by class for a
        classifier, drawn once from `random_state`. A model trained that long
        is scored on the whole fold, as its row's score ranks it for the
        selection. 1 scores every row every time.
    random_state : int or None, default=None
        Seed of the models whose estimator leaves a ``random_state``
        parameter None: model ``k`` gets its own seed, drawn from
        ``(random_state, k)``, in the search and in the refit, so that its
        sub-trains draw the same numbers in any process, and a search resumed
        from a checkpoint goes on as the interrupted one would have. None
        leaves them as they are.

    Attributes
    ----------
    length_param : str or None
        The parameter that sets a plain fit's training length, or None.
    """

    #: A model between two sub-trains; on a dask cluster it stays on its worker.
    state_key = "model"

    def __init__(self, splits, subtrainer, estimator, *, max_resource, inherit, max_total=None,
                 memory=None, mapped=False, score_share=1.0, random_state=None):
        super().__init__(splits)
        self.subtrainer = subtrainer
        self.estimator = estimator
        self.max_resource = max_resource
        self.inherit = inherit
        self.max_total = max_total
        self.score_share = score_share
        self.random_state = random_state
        self.length_param = subtrainer.length_param(estimator)
        self._states = _ModelStates(memory)
        self._folds = _FoldRows(mapped)
        self._lineage = {}
        self._trained = {}
        self._seeded = {}

    def prepare(self, job, action):
        """Note the sub-trains a new candidate inherits from its parent (``action.parent``).

        A parent named with 0 sub-trains gives nothing: the mutant starts afresh.
        """
        candidate, n = action
        parent = getattr(action, "parent", None)
        if n == 1 and parent is not None and parent[1] > 0 and self._inherit_of(
                job, candidate) is not None:
            self._lineage[candidate] = parent

    def task(self, job, action, fold, train, test):
        """One fold's sub-train: the model's state, or a new estimator, and the fold's rows.

        A model sub-trained again needs no estimator: it goes on from its
        state, and none is built for it.
        """
        candidate, n = action
        state, inherit, estimator = None, None, None
        trained = self._trained.get(candidate, 0)
        if trained:
            state = self._states.get(candidate, fold)
        else:
            estimator = self._estimator(job, candidate)
            if candidate in self._lineage:
                inherit = self._inherit_of(job, candidate)
                state = self._states.get(job.parents[candidate], fold)
        if self.score_share < 1 and self._total_subtrains(candidate, n) < self.max_resource:
            rows, part = self._folds.part(job.estimators[candidate], job.X, job.y, fold, train,
                                          test, self.score_share, self.random_state)
            test = test[part]
        else:
            rows = self._folds.get(job.estimators[candidate], job.X, job.y, fold, train, test)
        score_params = job.score_params or {}
        return (_subtrain_and_score, (state, estimator, self.subtrainer, rows),
                dict(steps=n - trained, inherit=inherit, scorer=job.scorers,
                     fit_params=_check_method_params(job.X, params=job.fit_params(candidate),
                                                     indices=train),
                     score_params=_check_method_params(job.X, params=score_params, indices=test),
                     train_score_params=_check_method_params(
                         job.X, params=score_params, indices=train
                     ) if job.returns_train_score(n) else None,
                     error_score=job.error_score))

    def on_evaluation(self, action, outputs, **info):
        """Keep the model of every fold while it may be sub-trained again, or inherited from."""
        candidate, n = action
        if any(out.pop("restarted", False) for out in outputs):
            self._lineage.pop(candidate, None)  # its parent's model could not take its parameters
        fitted = [out.pop("model", None) for out in outputs]
        if any(f is None for f in fitted) or self._last_of(candidate, n):
            self._states.discard(candidate)
            self._trained.pop(candidate, None)
            return
        for fold, f in enumerate(fitted):
            self._states.put(candidate, fold, f)
        self._trained[candidate] = n

    def _last_of(self, candidate, n):
        """Whether no sub-train of `candidate`, nor a mutant, goes on from its `n` sub-trains."""
        if self.max_total is not None and self._total_subtrains(candidate, n) >= self.max_total:
            return True
        return n >= self.max_resource and not self.inherit

    def row_params(self, job, action):
        """The model's parameters, with the training length its sub-trains add up to."""
        candidate, n = action
        if self.length_param is None:
            return job.candidates[candidate]
        units = self._total_subtrains(candidate, n) * self.subtrainer.unit
        return {**job.candidates[candidate], self.length_param: units}

    def columns(self, job, actions):
        """``n_resources_total`` (inherited sub-trains included) and ``parent_id`` (or -1)."""
        return {"n_resources_total": [self._total_subtrains(*action) for action in actions],
                "parent_id": [job.parents.get(action[0], -1) for action in actions]}

    def ranking_resource(self, results):
        """Training up to `max_resource`, inherited sub-trains included.

        The fully trained models (a lineage counts in total) rank first, by
        score: a model briefly trained that scored high by chance is not
        selected over them, nor is a model preferred for its own sub-trains
        when its score fell in them.
        """
        return np.minimum(results["n_resources_total"], self.max_resource)

    def refit(self, job, candidate, resource, fit_params):
        """Replay on all rows the training the row of ``(candidate, resource)`` measured.

        That is its ancestors' sub-trains it inherited, then its own: the
        first sub-train of each model continues its parent's model, with the
        new parameters set. The model is then configured as a plain
        estimator of that training length (:meth:`Subtrainer.released`).
        """
        lineage = self._lineage_of(candidate, resource)
        model, parent = None, None
        for ancestor, n in lineage:
            params = job.candidates[ancestor]
            inherit = None if parent is None else inheritable(parent, params, self.estimator)
            model, _ = continued(model if inherit is not None else None,
                                 self._estimator(job, ancestor), self.subtrainer, inherit,
                                 job.X, job.y, fit_params)
            for _ in range(n - 1):
                model = self.subtrainer.next(model, job.X, job.y, **fit_params)
            parent = params
        return self.subtrainer.released(model, sum(n for _, n in lineage),
                                        job.estimators[candidate])

    def refit_task(self, job, candidate, resource, fit_params):
        """None: the refit replays a lineage that only this trainer knows (:meth:`refit`)."""
        return None

    def close(self):
        """Drop every state kept, the seeded estimators and the rows cut (and their folder)."""
        self._states.clear()
        self._seeded.clear()
        self._folds.clear()

    def _estimator(self, job, candidate):
        """A fresh estimator of `candidate`, its unset ``random_state`` seeded (see `random_state`).

        The seeded estimator is made once per model; each fold gets a copy
        of it (a deep copy of an unfitted estimator, faster than a clone).
        """
        if candidate not in self._seeded:
            estimator = clone(job.estimators[candidate])
            if self.random_state is not None:
                seed = np.random.RandomState([self.random_state, candidate]).randint(
                    np.iinfo(np.int32).max)
                estimator.set_params(**{
                    name: seed for name, value in estimator.get_params().items()
                    if name.split("__")[-1] == "random_state" and value is None})
            self._seeded[candidate] = estimator
        return deepcopy(self._seeded[candidate])

    def _inherit_of(self, job, candidate):
        """The parameters a new `candidate` sets on its parent's trained model, or None."""
        parent = job.parents.get(candidate, -1)
        if parent < 0 or not self.inherit:
            return None
        return inheritable(job.candidates[parent], job.candidates[candidate], self.estimator)

    def inherited(self, candidate):
        """The sub-trains `candidate` went on from: its ancestors' (0 for a fresh start)."""
        return self._total_subtrains(candidate, 0)

    def _total_subtrains(self, candidate, n):
        """The sub-trains of `candidate` at its `n`-th, those it inherited included."""
        return sum(k for _, k in self._lineage_of(candidate, n))

    def _lineage_of(self, candidate, n):
        """``(candidate, sub-trains)``, from the first ancestor whose model it inherited."""
        chain = [(candidate, n)]
        while chain[-1][0] in self._lineage:
            chain.append(self._lineage[chain[-1][0]])
        return chain[::-1]


class _ModelStates:
    """The fitted model of every (candidate, fold) between sub-trains, in memory or in a folder."""

    def __init__(self, memory):
        self.memory = memory
        self._models = {}
        if memory is not None:
            os.makedirs(memory, exist_ok=True)

    def put(self, candidate, fold, fitted):
        if self.memory is None:
            self._models[candidate, fold] = fitted
        else:
            joblib.dump(fitted, self._path(candidate, fold))
            self._models[candidate, fold] = None

    def get(self, candidate, fold):
        if self.memory is None:
            return self._models[candidate, fold]
        return joblib.load(self._path(candidate, fold))

    def discard(self, candidate):
        """Forget every fold of `candidate`."""
        for key in [key for key in self._models if key[0] == candidate]:
            self._remove(key)

    def clear(self):
        for key in list(self._models):
            self._remove(key)

    def _remove(self, key):
        del self._models[key]
        if self.memory is not None:
            os.remove(self._path(*key))

    def _path(self, candidate, fold):
        return os.path.join(os.fspath(self.memory), f"model{candidate}_fold{fold}.joblib")


class _FoldRows:
    """Every fold's rows, cut out of ``X`` and ``y`` once for the whole search.

    Each sub-train of a fold gets the same ``(X_train, y_train, X_test,
    y_test)``, rather than its own copy of the rows. With `mapped` (the fits
    run in worker processes), every numeric array of them is written once to
    a temporary folder and handed out memory-mapped, copy-on-write (writable,
    as torch wants the arrays it is given; a write stays in the process that
    made it): it goes to a worker by its file name, where joblib would hash
    ``X`` with every task (and send the arrays under 1 MB whole). The folder
    is removed by :meth:`clear`.

    Parameters
    ----------
    mapped : bool
        Memory-map the large arrays.
    """

    def __init__(self, mapped):
        self.mapped = mapped
        self._rows = {}
        self._parts = {}
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

    def part(self, estimator, X, y, fold, train, test, share, random_state):
        """The rows of `fold` with a fixed `share` of its validation rows, and their positions.

        Every class keeps ``ceil(share * its rows)`` (at least one) of its
        validation rows, drawn once per fold from ``(random_state, fold)``; a
        regressor's rows are drawn as one class. Cut once, as :meth:`get`'s.
        """
        rows = self.get(estimator, X, y, fold, train, test)
        key = fold, get_tags(estimator).input_tags.pairwise, share
        if key not in self._parts:
            rng = np.random.RandomState([0 if random_state is None else random_state, fold])
            positions = _stratified_part(rows[3], share, rng)
            cut = tuple(self._mapped(_safe_indexing(r, positions), f"{fold}_part{i}_{key[1]:d}")
                        for i, r in enumerate(rows[2:]))
            self._parts[key] = rows[:2] + cut, positions
        return self._parts[key]

    def clear(self):
        self._rows.clear()
        self._parts.clear()
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
        return joblib.load(path, mmap_mode="c")


def _subtrain_and_score(model, estimator, subtrainer, rows, *, inherit, scorer, fit_params,
                        score_params, train_score_params, error_score, steps=1):
    """One pull on one fold: `steps` sub-trains of `model`, then its scores.

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
        for _ in range(steps - 1):
            model = subtrainer.next(model, X_train, y_train, **fit_params)
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


def _stratified_part(y, share, rng):
    """Sorted positions of ``ceil(share * n)`` rows of each class of `y` (of all, for values)."""
    labels = np.asarray(y) if type_of_target(y) in ("binary", "multiclass") else np.zeros(len(y))
    chosen = [rng.permutation(np.flatnonzero(labels == label))[
        : int(np.ceil(share * np.sum(labels == label)))] for label in np.unique(labels)]
    return np.sort(np.concatenate(chosen))
