"""Which trained models make an ensemble, from their out-of-fold predictions: the policies.

Every function here reads predictions ``P`` of shape ``(n_models, n_rows,
n_outputs)`` (class probabilities of the rows a model did not train on) and
a ``score(p)`` of ensembles' averaged predictions ``p`` (``(n_ensembles,
n_rows, n_outputs)`` to one score each, higher better); none of them trains
anything.

- :func:`greedy_selection`: Caruana et al. (2004), as auto-sklearn builds its
  ensembles: rounds that each add, with replacement, the model that makes the
  ensemble's average score best; a model's weight is its share of rounds.
- :func:`dpp_selection`: the members of a determinantal point process over
  the models (Dodge, "Diversity in machine learning", Section 5.2), whose
  kernel ``L_ij = q_i S_ij q_j`` rewards each model's quality ``q_i`` and
  penalises the similarity ``S_ij`` of two models' errors; its most
  probable subset (or a draw), weighed by greedy rounds among its members.
  The subset's size comes out of the data: few members where the good
  models make the same errors, more where good models differ.
- :func:`error_similarity`, :func:`agreement_similarity`: ``S``.

References
----------
.. [1] R. Caruana, A. Niculescu-Mizil, G. Crew and A. Ksikes, "Ensemble
   selection from libraries of models", ICML 2004.
.. [2] J. Dodge, "Diversity in machine learning", 2019, Section 5.
"""

import numpy as np
from sklearn.utils import check_random_state

from ..spaces.dpp import dpp_map, sample_dpp


def greedy_selection(predictions, score, n_rounds=50, allowed=None):
    """Caruana's ensemble selection with replacement: the count of rounds each model won.

    Round ``t`` adds the model ``i`` whose predictions, averaged with those
    of the ``t - 1`` models added so far, score best (ties go to the lower
    index). Seen as the seed's construction (Dodge, Section 5.2.3), each
    round takes the most probable draw of size one of the DPP whose quality
    ``q_i`` is the score of the ensemble with model ``i`` added: a draw of
    size one sees only the diagonal ``q_i^2`` of the kernel, so any
    similarity, all ones included, gives these rounds.

    Parameters
    ----------
    predictions : ndarray of shape (n_models, n_rows, n_outputs)
        Out-of-fold predictions.
    score : callable
        ``score(p)``: for averaged predictions ``p`` of shape ``(n_ensembles,
        n_rows, n_outputs)``, the score of each, higher better.
    n_rounds : int, default=50
        Rounds (members counted with repetition).
    allowed : array-like of int or None, default=None
        The models the rounds may add; None: every model.

    Returns
    -------
    counts : ndarray of shape (n_models,)
        Rounds each model won; the ensemble's weights are ``counts / n_rounds``.
    """
    predictions = np.asarray(predictions, dtype=float)
    allowed = np.arange(len(predictions)) if allowed is None else np.asarray(allowed)
    counts = np.zeros(len(predictions), dtype=int)
    total = np.zeros(predictions.shape[1:])
    for t in range(1, n_rounds + 1):
        scores = score((total + predictions[allowed]) / t)
        winner = int(allowed[np.argmax(scores)])
        counts[winner] += 1
        total += predictions[winner]
    return counts


def dpp_selection(predictions, scores, score, *, quality_weight=1.0, similarity="errors",
                  y=None, n_rounds=50, sample=False, random_state=None):
    """The members of the DPP over the models, weighed by greedy rounds among them.

    The kernel is ``L = diag(q) S diag(q)``: ``S`` the similarity of the
    models' predictions (:func:`error_similarity` or
    :func:`agreement_similarity`), ``q_i = exp(1 - quality_weight * z_i)``
    with ``z_i = (best - scores_i) / (best - median)`` the model's distance
    below the best score, in units of the gap between the best and the
    median model (the best has ``q^2 = e^2``, a model as good as the median
    ``e^(2 - 2 quality_weight)``; the constant 1 and the default weight were
    chosen on the tune half of ``benchmarks/bench_ensembles.py``). The members are the kernel's most
    probable subset (:func:`~sksel.spaces.dpp.dpp_map`: a model joins while
    its quality outweighs how much of its errors the members already make),
    or a draw of the DPP (`sample`); greedy rounds with replacement among
    them (:func:`greedy_selection`) then set their weights.
    ``quality_weight`` trades quality for diversity: 0 ranks models by
    diversity alone, large values keep the best model only.

    Parameters
    ----------
    predictions : ndarray of shape (n_models, n_rows, n_outputs)
        Out-of-fold predictions.
    scores : array-like of shape (n_models,)
        Each model's own score (higher better).
    score : callable
        As in :func:`greedy_selection`.
    quality_weight : float, default=1.0
        Weight of quality against diversity.
    similarity : {"errors", "agreement"} or ndarray of shape (n_models, n_models), default="errors"
        ``S``: the correlation of the models' errors, the agreement of their
        predicted classes, or a given positive semi-definite matrix with
        ones on its diagonal.
    y : ndarray of shape (n_rows, n_outputs), default=None
        One-hot targets (classes) or values; needed for ``"errors"``.
    n_rounds : int, default=50
        Greedy rounds that weigh the members.
    sample : bool, default=False
        Draw the members from the DPP instead of taking its most probable subset.
    random_state : int, RandomState instance or None, default=None
        Seed of the draw (`sample`).

    Returns
    -------
    counts : ndarray of shape (n_models,)
        Rounds each model won (0 for non-members).
    """
    L = dpp_kernel(predictions, scores, quality_weight=quality_weight,
                   similarity=similarity, y=y)
    members = (sample_dpp(L, random_state=check_random_state(random_state)) if sample
               else dpp_map(L))
    if len(members) == 0:
        members = np.array([int(np.argmax(scores))])
    return greedy_selection(predictions, score, n_rounds=n_rounds, allowed=np.sort(members))


def dpp_kernel(predictions, scores, *, quality_weight=1.0, similarity="errors", y=None):
    """``L = diag(q) S diag(q)`` of :func:`dpp_selection`."""
    scores = np.asarray(scores, dtype=float)
    if isinstance(similarity, str):
        similarity = (error_similarity(predictions, y) if similarity == "errors"
                      else agreement_similarity(predictions))
    q = np.exp(1.0 - quality_weight * _below_best(scores))
    return q[:, None] * np.asarray(similarity, dtype=float) * q[None, :]


def error_similarity(predictions, y):
    """Cosine similarity of the models' errors ``predictions - y`` (1 on the diagonal).

    Two models whose errors coincide have similarity 1; averaging them
    gains nothing. A model without errors is similar to no other (0).
    """
    errors = (np.asarray(predictions, dtype=float) - np.asarray(y, dtype=float)[None])
    return _cosine(errors.reshape(len(errors), -1))


def agreement_similarity(predictions):
    """The share of rows on which two models predict the same class (a Gram matrix)."""
    predictions = np.asarray(predictions)
    one_hot = np.zeros(predictions.shape)
    winners = predictions.argmax(axis=2)
    np.put_along_axis(one_hot, winners[..., None], 1.0, axis=2)
    flat = one_hot.reshape(len(one_hot), -1)
    return flat @ flat.T / predictions.shape[1]


def _cosine(vectors):
    norms = np.linalg.norm(vectors, axis=1)
    unit = vectors / np.where(norms > 0, norms, 1.0)[:, None]
    gram = unit @ unit.T
    np.fill_diagonal(gram, 1.0)
    return gram


def _below_best(scores):
    """How far below the best each score is, in units of the best's gap to the median."""
    best = np.max(scores)
    unit = best - np.median(scores)
    if not unit > 0:
        unit = max(best - np.min(scores), 1e-12)
    return (best - scores) / unit


