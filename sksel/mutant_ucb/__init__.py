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

The policy (:class:`MutantUCBPolicy`, pure bookkeeping, no estimator) is in
:mod:`sksel.mutant_ucb.policy`, the search estimator built on it
(:class:`MutantUCBSearch`) in :mod:`sksel.mutant_ucb.search`, the display of
a model's lineage in :mod:`sksel.mutant_ucb.display`. The continued training
it runs on is :class:`sksel.training.continued.ContinuedTrainer`.
"""

from .display import FamilyTreeDisplay
from .policy import MutantUCBPolicy
from .search import MutantUCBSearch

__all__ = ["FamilyTreeDisplay", "MutantUCBPolicy", "MutantUCBSearch"]
