"""One fit's evaluations, as the engine calls back, and the listeners that observe them."""

import numpy as np

from .._compat import _insert_error_scores, _MultimetricScorer
from .early_refit import EarlyRefits


class Listener:
    """Observes one fit's evaluations, as skorch's callbacks observe a net's training.

    The run calls every listener of the fit, in the order the search lists
    them: the checkpoint, the trainer (:mod:`sksel._core.trainer`), the
    progress report. Each method does nothing unless overridden.
    """

    def on_start(self):
        """The engine is about to run the policy."""

    def on_evaluation(self, action, outputs, **info):
        """Every split of `action` is in: its raw `outputs`, before anything reads them.

        `info` has ``given_up`` (the engine gave the action up: its worker
        died twice) and ``replayed`` (the outputs come from the checkpoint).
        """

    def on_told(self, action, outputs, score):
        """The policy was told `action`'s mean `score`; `outputs` have their error scores."""

    def on_end(self):
        """The engine stopped: done, out of time or interrupted."""


class _Recorder(Listener):
    """The evaluations told, ``(action, outputs)`` in the order they finished."""

    def __init__(self):
        self.evaluations = []

    def on_told(self, action, outputs, score):
        self.evaluations.append((action, outputs))


class _Run:
    """One fit's evaluations, as the engine calls back: tasks, results, failures.

    It makes an action's tasks (or replays them from the checkpoint), and
    when all its splits are in, lets the listeners observe the outputs,
    tells the policy, and lets them observe the score; the evaluations
    gathered so far are in `evaluations`, ``(action, outputs)`` in the order
    they finished. With a prediction `keeper`, every task predicts its
    validation fold too. `metric_of`, ``(outputs, metric) -> metric``, names
    the ranking metric once the first outputs show it (a callable scoring's
    dict); `breed`, ``(space, params, candidates) -> params``, breeds a
    candidate from another's configuration. With `early_refits`, the
    leader's refits that workers make while the policy has nothing for them
    are kept in ``early_refits`` (:class:`~sksel._core.early_refit.EarlyRefits`);
    else it is None. With a `scale` that maps the scores
    (:class:`~sksel._core.scoring.CurveScale`), the policy is told the scores
    of each fold mapped on the targets of that fold; the listeners see the
    scorer's.
    """

    def __init__(self, job, policy, trainer, listeners, refit_metric, checkpoint,
                 keeper=None, *, metric_of=None, breed=None, early_refits=False, scale=None):
        self.job = job
        self.policy = policy
        self.trainer = trainer
        self.refit_metric = refit_metric
        self.checkpoint = checkpoint
        self.keeper = keeper
        self.metric_of = metric_of
        self.breed = breed
        self._recorder = _Recorder()
        self.listeners = [*listeners, self._recorder]
        self._replayed = {}
        self._given_up = set()
        self.early_refits = EarlyRefits(job, trainer, policy) if early_refits else None
        self.scale = scale if scale is not None and scale.mapped else None
        self._y = None if self.scale is None else np.asarray(job.y)

    @property
    def evaluations(self):
        """The evaluations told so far, ``(action, outputs)`` in the order they finished."""
        return self._recorder.evaluations

    def start(self):
        for listener in self.listeners:
            listener.on_start()

    def end(self):
        for listener in self.listeners:
            listener.on_end()

    def tasks(self, action):
        """The tasks of `action`, one per split; its recorded outputs if replayed."""
        # Prepared even when replayed: a bred candidate and what the trainer
        # notes of it are part of the fit's state.
        self._take_in(action)
        self.trainer.prepare(self.job, action)
        if self.checkpoint is not None and action not in self._replayed:
            recorded = self.checkpoint.replay(action)
            if recorded is not None:
                self._replayed[action] = recorded
        if action in self._replayed:
            return [(_recorded_output, (out,), {}) for out in self._replayed[action][0]]
        splits = self.trainer.split(action[1])
        tasks = [self.trainer.task(self.job, action, fold, train, test)
                 for fold, (train, test) in enumerate(splits)]
        if self.keeper is None:
            return tasks
        return [self.keeper.task(task, self.job.X, test)
                for task, (_, test) in zip(tasks, splits)]

    def on_done(self, action, outputs):
        """Let the listeners observe the outputs of every split of `action`; tell the policy."""
        replayed = action in self._replayed
        if replayed and self._replayed.pop(action)[1]:
            self._given_up.add(action)
        given_up = action in self._given_up
        for listener in self.listeners:
            listener.on_evaluation(action, outputs, given_up=given_up, replayed=replayed)
        if self.metric_of is not None:
            self.refit_metric = self.metric_of(outputs, self.refit_metric)
        _insert_error_scores(outputs, self.job.error_score)
        score = _tell(self.policy, action, outputs, self.refit_metric, given_up,
                      self._on_scale)
        for listener in self.listeners:
            listener.on_told(action, outputs, score)

    def enough(self, action, outputs):
        """Whether the policy needs no more splits of `action` than those of `outputs`.

        The policy reads NaN for a split whose fit failed, as ``tell`` tells it.
        """
        return self.policy.enough_folds(
            *action, _told_fold_scores(outputs, self.refit_metric, self._on_scale(action)))

    def _on_scale(self, action, key="test_scores"):
        """``scores -> scores``: those of `action`'s folds (`key`: ``"test_scores"`` or
        ``"train_scores"``), on the policy's scale."""
        if self.scale is None:
            return list
        side = 1 if key == "test_scores" else 0
        targets = [self._y[split[side]] for split in self.trainer.split(action[1])]
        return lambda scores: self.scale.read(scores, targets)

    def failed_output(self, action, i, reason):
        """The output of split `i` of `action`, whose worker died: a failed fit."""
        self._given_up.add(action)
        _, test = self.trainer.split(action[1])[i]
        score = self.job.error_score
        if isinstance(self.job.scorers, _MultimetricScorer):
            score = dict.fromkeys(self.job.scorers._scorers, score)
        failed = {"fit_error": reason, "test_scores": score,
                  "n_test_samples": len(test), "fit_time": 0.0, "score_time": 0.0}
        if self.job.returns_train_score(action[1]):
            failed["train_scores"] = score
        return failed

    def _take_in(self, action):
        """Note the parent an action names; breed its candidate if it is a new one."""
        parent = getattr(action, "parent", None)
        if parent is None:
            return
        candidate = action[0]
        self.job.parents[candidate] = parent[0]
        if candidate == len(self.job.candidates):
            self.job.add(self.breed(self.job.space, self.job.candidates[parent[0]],
                                    self.job.candidates))


class _Job:
    """What every task of one fit shares: data, scorers, parameters, candidates.

    `estimators` are the candidates' estimators, built up front by the
    search (so that a wrong parameter name fails before any training); a
    candidate bred during the fit joins them (:meth:`add`), and `parents`
    maps it to its parent.
    """

    def __init__(self, space, candidates, estimators, X, y, scorers, fit_params, score_params, *,
                 error_score, verbose, returns_train_score):
        self.space = space
        self.candidates = candidates
        self.estimators = estimators
        self.X, self.y = X, y
        self.scorers = scorers
        self.fit_params = fit_params
        self.score_params = score_params
        self.error_score = error_score
        self.verbose = verbose
        self.returns_train_score = returns_train_score
        self.parents = {}

    def add(self, params):
        """Add the candidate of `params`; its index is the next free one."""
        self.candidates.append(params)
        self.estimators.append(self.space.build(params))


def _recorded_output(output):
    """The task of a replayed evaluation: its recorded output."""
    return output


def _tell(policy, action, outputs, metric, give_up, on_scale):
    """Tell `policy` the mean scores of `action` over its `outputs`, on its scale
    (``on_scale(action, key)`` maps a key's fold scores); return the scorer's test score."""
    failed = any(out["fit_error"] is not None for out in outputs)
    fold_scores = _fold_scores(outputs, "test_scores", metric)
    to_scale = on_scale(action)
    test = np.mean(to_scale(fold_scores))
    train = (
        np.mean(on_scale(action, "train_scores")(_fold_scores(outputs, "train_scores", metric)))
        if "train_scores" in outputs[0]
        else None
    )
    seconds = float(np.sum([out["fit_time"] + out["score_time"] for out in outputs]))
    races = ({"fold_scores": _told_fold_scores(outputs, metric, to_scale)}
             if policy.races_folds else {})
    policy.tell(*action, test, train_score=train, fit_time=seconds, failed=failed,
                give_up=give_up, **races)
    return np.mean(fold_scores)


def _told_fold_scores(outputs, metric, on_scale=list):
    """The test score of each of `outputs` (mapped by `on_scale`), NaN where its fit failed,
    whatever error_score."""
    scores = on_scale(_fold_scores(outputs, "test_scores", metric))
    return [np.nan if out["fit_error"] is not None else score
            for out, score in zip(outputs, scores)]


def _fold_scores(outputs, key, metric):
    """The `key` score (``"test_scores"`` or ``"train_scores"``) of each of `outputs`.

    Of `metric` where the outputs hold several metrics.
    """
    values = [out[key] for out in outputs]
    return [value[metric] if isinstance(value, dict) else value for value in values]


def _stop_words(stop_reason, policy):
    """Why the search stopped, as its final progress line says it.

    The engine's `stop_reason`, or, where the policy ended the search
    (``"done"``) and says why (its ``stop_reason()``), the policy's words.
    """
    if stop_reason != "done":
        return stop_reason
    return policy.stop_reason() or stop_reason
