"""k-DPP search's policy: every configuration drawn, once, on whole folds."""

from .._core.policy import SequentialPolicy


class EvaluateAll(SequentialPolicy):
    """The open-loop policy: every candidate once, in order, on whole folds.

    Every action is a decision; workers take them in order as they free up.
    """

    def __init__(self, n_candidates, resource):
        self.n_candidates = n_candidates
        self.resource = resource
        super().__init__()
        self._advance()

    def _decide(self):
        k = self.n_decisions
        return (k, self.resource) if k < self.n_candidates else None

    def _use(self, action, outcome):
        pass  # nothing to learn: the candidates were drawn up front

    def _speculate(self):
        k = len(self.history_)
        return (k, self.resource) if k < self.n_candidates else None

    def _sure(self):
        return self._speculate()  # every candidate is evaluated
