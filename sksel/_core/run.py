"""One fit's evaluations, as the engine calls back: tasks, results, failures."""

from .compat import _insert_error_scores, _MultimetricScorer


class _Run:
    """One fit's evaluations, as the engine calls back: tasks, results, failures.

    It makes an action's tasks (or replays them from the checkpoint), and
    when all its splits are in, records them in the checkpoint, tells the
    policy and reports progress; the evaluations gathered so far are in
    `evaluations`, ``(action, outputs)`` in the order they finished.
    """

    def __init__(self, search, job, policy, resource, progress, refit_metric, checkpoint):
        self.search = search
        self.job = job
        self.policy = policy
        self.resource = resource
        self.progress = progress
        self.refit_metric = refit_metric
        self.checkpoint = checkpoint
        self.evaluations = []
        self._replayed = {}
        self._given_up = set()

    def tasks(self, action):
        """The tasks of `action`, one per split; its recorded outputs if replayed."""
        # Prepared even when replayed: preparing is part of the search's state
        # (MutantUCBSearch breeds a mutant there).
        self.search._prepare(self.job, action)
        if self.checkpoint is not None and action not in self._replayed:
            recorded = self.checkpoint.replay(action)
            if recorded is not None:
                self._replayed[action] = recorded
        if action in self._replayed:
            return [(_recorded_output, (out,), {}) for out in self._replayed[action][0]]
        return [self.search._task(self.job, action, fold, train, test)
                for fold, (train, test) in enumerate(self.resource.split(action[1]))]

    def on_done(self, action, outputs):
        """Record, tell and report the outputs of every split of `action`."""
        search = self.search
        if action in self._replayed:
            if self._replayed.pop(action)[1]:
                self._given_up.add(action)
        elif self.checkpoint is not None:
            self.checkpoint.record(action, outputs, give_up=action in self._given_up)
        search._on_evaluation(action, outputs)
        if callable(search.scoring):
            self.refit_metric = search._callable_metric(outputs, self.refit_metric)
        _insert_error_scores(outputs, search.error_score)
        self.evaluations.append((action, outputs))
        score = search._tell(self.policy, action, outputs, self.refit_metric,
                             give_up=action in self._given_up)
        extra = search._progress_extra(action) if self.progress.verbose >= 2 else None
        self.progress.evaluation(*action, score, extra)

    def enough(self, action, outputs):
        """Whether the policy needs no more splits of `action` than those of `outputs`."""
        if any(out["fit_error"] is not None for out in outputs):
            return False
        return self.policy.enough_folds(
            *action, _fold_scores(outputs, "test_scores", self.refit_metric))

    def failed_output(self, action, i, reason):
        """The output of split `i` of `action`, whose worker died: a failed fit."""
        self._given_up.add(action)
        _, test = self.resource.split(action[1])[i]
        score = self.search.error_score
        if isinstance(self.job.scorers, _MultimetricScorer):
            score = dict.fromkeys(self.job.scorers._scorers, score)
        failed = {"fit_error": reason, "test_scores": score,
                  "n_test_samples": len(test), "fit_time": 0.0, "score_time": 0.0}
        if self.search._returns_train_score(action[1]):
            failed["train_scores"] = score
        return failed


class _Job:
    """What every task of one fit shares: data, scorers, parameters, candidates.

    The estimators of the candidates are built up front, so that a wrong
    parameter name fails before any training.
    """

    def __init__(self, space, candidates, X, y, scorers, fit_params, score_params):
        self.space = space
        self.candidates = candidates
        self.X, self.y = X, y
        self.scorers = scorers
        self.fit_params = fit_params
        self.score_params = score_params
        self.estimators = [space.build(candidate) for candidate in candidates]


def _recorded_output(output):
    """The task of a replayed evaluation: its recorded output."""
    return output


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
    if stop_reason != "done" or not hasattr(policy, "stop_reason"):
        return stop_reason
    return policy.stop_reason() or stop_reason
