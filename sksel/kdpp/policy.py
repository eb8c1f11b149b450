"""k-DPP search's policy: every configuration drawn, once, on whole folds."""

from .._core.policy import SequentialPolicy


class EvaluateAll(SequentialPolicy):
    """The open-loop policy: every candidate once, in order, on whole folds.

    Every action is a decision; workers take them in order as they free up.
    """

    def __init__(self, n_candidates, resource):
        self.n_candidates = n_candidates
        self.resource = resource
        self._leader = None
        super().__init__()
        self._advance()

    def will_use(self, action):
        """True: every evaluation is used."""
        return True

    def leader(self):
        """``(score, candidate, resource)`` of the best score used so far, or None."""
        return self._leader

    def _decide(self):
        k = self.n_decisions
        return (k, self.resource) if k < self.n_candidates else None

    def _use(self, action, outcome):
        # Nothing to learn, the candidates were drawn up front: only who leads.
        if not outcome.failed and (self._leader is None or outcome.score > self._leader[0]):
            self._leader = (float(outcome.score), *action)

    def _speculate(self):
        k = len(self.history_)
        return (k, self.resource) if k < self.n_candidates else None

    def _sure(self):
        return self._speculate()  # every candidate is evaluated
