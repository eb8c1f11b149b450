"""The words sksel's documentation, ``verbose`` lines and ``cv_results_`` columns use.

Each has a sense of its own here. N is the number of training rows of the
smallest training fold: all the rows a learner can be trained on.

This module's docstring is the glossary, shown by ``help("sksel.glossary")``
in a Python session (where a ``verbose=2`` line points to it) and rendered as
the documentation's glossary page; :func:`define` returns one entry.

.. glossary::
   :sorted:

   resource
      What a search hands out to a candidate, as ``n_resources`` in
      ``cv_results_`` and, in the ``verbose=2`` lines, named by its unit: for
      :class:`~sksel.DAUBSearch`, training rows per fold (up to N,
      ``rows=``); for :class:`~sksel.MutantUCBSearch`, :term:`sub-trains
      <sub-train>` (``sub-trains=``); for :class:`~sksel.GPUCBSelector` and
      :class:`~sksel.KDPPSearch`, which train every candidate they evaluate
      on all of each fold, N (their lines show none). A candidate
      ``cv_results_`` lists but never evaluated has 0.

   used
      An evaluation whose result a search's decisions rest on: those of its
      one-worker run (see :term:`speculative evaluation`). The ``verbose``
      lines count the evaluations used (``used 3/<=9``: three of at most
      nine planned; a GP-UCB :term:`look on a subsample` is not counted
      against the plan: its line shows ``look 5``, the looks used so far,
      instead), in the order the search used them; ``best=`` is the
      score of the candidate the search would select from them, and its id;
      until the search would select one (DAUB's, before a learner reaches all
      the rows), ``leader=`` names the candidate with the best score at the
      largest resource reached so far, its score and that resource
      (``leader=#2 0.9015 @100 rows``).

   dropped
      A candidate a search's rule took out of the running: it gets no more
      training and is never selected. :class:`~sksel.DAUBSearch` drops the
      learners a :term:`rung` leaves behind and those whose :term:`race of
      the folds` ends early; :class:`~sksel.GPUCBSelector`, those its
      :term:`look on a subsample` rules out and those of a :term:`first
      look`. A ``verbose=2`` line ends in ``dropped`` where its evaluation
      dropped its candidate; the candidates a rung drops get a line of their
      own. :class:`~sksel.GPUCBSelector` lists the candidates it never
      evaluated in ``cv_results_``, with NaN scores, ranked last, and
      ``why_not_evaluated`` says why.

   sub-train
      :class:`~sksel.MutantUCBSearch`'s unit of training: ``unit`` more
      epochs (skorch), ``partial_fit`` passes, boosting rounds or trees,
      continuing the model where it stopped. One pull of the bandit gives
      one model one sub-train (``reward="mean"``, the paper's, the default)
      or doubles its own sub-trains (``reward="finish"``), scored on the
      validation folds once at its end;
      ``budget`` counts sub-trains over all models. k sub-trains train as much as one
      plain fit of ``k * unit``; a fully trained model has ``max_subtrains``,
      by default the estimator's own training length (``max_iter``,
      ``max_epochs``, ``n_estimators``) in 10 sub-trains. See
      :ref:`mutant_ucb`.

   lineage
   inherited training
      A mutant of :class:`~sksel.MutantUCBSearch` starts from its parent's
      fitted model (``inherit=True``), which may itself be a mutant: the
      model and its ancestors are its lineage. The sub-trains its starting
      model had received are its inherited training: ``n_resources`` counts
      the mutant's own sub-trains, ``n_resources_total`` adds the inherited
      ones, and the refit replays the whole lineage so that the refitted
      model is trained as long as the one its score measured.
      ``max_subtrains`` caps a model's own sub-trains (``n_resources``),
      ``max_lineage_subtrains`` (None by default) its lineage's
      (``n_resources_total``): a mutant bred from a model at that cap, or
      one whose parent's model cannot take its parameters (a learned tensor
      changes shape), starts afresh and inherits nothing
      (``n_resources_total`` equals ``n_resources``). See :ref:`mutant_ucb`.

   rung
      One of :class:`~sksel.DAUBSearch`'s subsample sizes at its default
      ``risk > 0``: N divided by powers of 3 (:func:`~sksel.daub.rung_sizes`,
      ``search.sizes_``). Every learner still in the running is trained at a
      rung before any goes to the next; after each, the best third goes on,
      with any other learner that may still end more than :term:`tol` above
      the leader (:term:`risk`). Below N a rung runs on one fold. The
      ``dropped after`` of a learner is the rung after which it got no more
      rows.

   bound
      :class:`~sksel.DAUBSearch`'s upper bound on a learner's score on all N
      rows, projected from its learning curve so far (the slope of its last
      points, a prior learnt from real learning curves, or its training
      score: ``bound=``). It decides who gets more rows where the search
      uses DAUB's bounds (``risk=0``, and scores the curve models do not
      read: see :ref:`scorers`): the
      learner with the highest bound gets the next size, and a learner whose
      bound falls below the best score already reached on N gets no more.
      ``verbose=2`` prints it as ``bound=``; ``bound=none`` where the curve
      sets no bound below the best possible score yet, ``bound=pending`` on
      the line of a :term:`speculative evaluation` the search never used.
      The rungs of the default ``risk > 0`` use no bound. See :ref:`daub`.

   risk
   tol
      How much a search may lose, and how likely it is to. ``tol`` is the
      loss that counts, in points of a score (:class:`~sksel.DAUBSearch`:
      0.005, half an accuracy or R² point; :class:`~sksel.GPUCBSelector`:
      0.01), and for an error or a loss a share of the leader's error (0.5%,
      1%; :ref:`scorers`).
      For :class:`~sksel.DAUBSearch`, ``risk`` (0.1) is the share of
      searches allowed to select a learner more than ``tol`` below the best
      one on all the rows: a learner outside the best third of a
      :term:`rung` is dropped once a model of the final gap between two
      learners gives it a probability of ending more than ``tol`` above the
      leader below the threshold chosen for that ``risk`` on held-out
      datasets. ``risk=0`` keeps DAUB's :term:`bounds <bound>`, which drop
      no learner that may still win. For :class:`~sksel.GPUCBSelector`,
      the search stops once the posterior probabilities that a candidate
      not evaluated beats the best one evaluated by more than ``tol``, summed
      over those candidates, are at most ``risk``. See :ref:`daub_risk` and
      :ref:`gpucb`.

   race of the folds
      With several folds (``race_folds=True``, the default), a candidate is
      trained and scored fold by fold, and its last folds are not run once
      those it ran show it cannot win: for :class:`~sksel.DAUBSearch`, at N,
      when its folds trail the same folds of the best learner scored on
      every fold by more than :term:`tol` beyond the noise of a fold's score;
      for :class:`~sksel.GPUCBSelector`, a :term:`first look`. A raced
      candidate has NaN in the ``split<i>_*`` keys of the folds it did not
      run, NaN means and standard deviations of its scores (a mean over
      fewer folds is not comparable; ``n_folds_run`` counts them), it ranks
      below the candidates scored on every fold and it is never selected.

   look on a subsample
      :class:`~sksel.GPUCBSelector`'s cheap evaluation of a candidate before
      it is trained on all the rows (``looks``): trained on a stratified
      subsample of the first training fold (a 27th, a ninth, then a third of
      N, the largest of them that cost at most half its full evaluation),
      scored on that fold's validation rows, and compared with the
      leader's look at the same size by the learning-curve model of
      :mod:`sksel.curves.gap_model`. A candidate whose final gap to the
      leader is unlikely to exceed :term:`tol` is dropped; otherwise the look
      is a noisy observation of its full score. Its row of ``cv_results_``
      has ``look`` True and ``n_resources`` the subsample's rows (its score
      in ``mean_test_score_at_resource``: ``mean_test_score`` is NaN there);
      its ``verbose=2`` line says ``look=<rows> rows`` and counts the looks
      (``look 5``), not the evaluations :term:`used`. See :ref:`gpucb`.

   first look
      :class:`~sksel.GPUCBSelector`'s :term:`race of the folds`: a
      candidate's first folds, scored before the others. When they give it a
      posterior probability below ``risk / K`` of beating the best candidate
      evaluated on every fold by more than :term:`tol`, its other folds are
      not run; the look stays in the posterior, the candidate is not
      selected, and its row of ``cv_results_`` has ``first_look`` True (its
      ``verbose=2`` line says ``first look``, with the folds the search
      used, and ``dropped``). See :ref:`gpucb`.

   speculative evaluation
      An evaluation a free worker starts before the search has decided to
      make it, because the sequential run is likely to ask for it next (with
      more workers than decided steps). The search decides as its one-worker
      run does, so ``cv_results_`` is the same whatever ``n_jobs``: a
      speculative evaluation it goes on to ask for is used as if it had
      been asked for, and is :term:`used`; one it never asks for is listed
      in ``all_cv_results_`` only, after the others, with ``speculative``
      True. Its training was paid for all the same. The ``verbose=2`` line
      of an evaluation that finished before the search reached it waits
      until the search uses it; the lines of those it never used come last,
      marked ``speculative``, with no count.

   error_score'd candidate
      A candidate whose evaluation failed: one of its fits raised (or killed
      its worker twice), so its score is ``error_score`` (NaN by default),
      with scikit-learn's ``FitFailedWarning``. It ranks after every
      candidate with a finite score and is never selected; when no
      candidate has a finite score, ``fit`` raises. With
      ``error_score="raise"`` the first error is raised instead. See
      :ref:`user_guide`.
"""

import re

# A term of the glossary directive: a line indented by exactly three spaces.
_TERM = re.compile(r"^   (\S.*)$")


def _entries():
    """``{term: definition}``; the terms of one entry share its definition."""
    entries, terms, lines = {}, [], []
    for line in __doc__.split(".. glossary::", 1)[1].splitlines()[2:]:
        term = _TERM.match(line)
        if term and lines:
            entries.update(dict.fromkeys(terms, " ".join(lines)))
            terms, lines = [], []
        if term:
            terms.append(term.group(1))
        elif line.strip():
            lines.append(line.strip())
    entries.update(dict.fromkeys(terms, " ".join(lines)))
    return entries


def define(term):
    """The glossary's definition of `term`, as one line of reStructuredText.

    Parameters
    ----------
    term : str
        A term of the glossary, e.g. ``"rung"``.

    Returns
    -------
    definition : str
        Its entry's text, the lines joined by spaces.

    Examples
    --------
    >>> from sksel.glossary import define
    >>> define("rung")[:45]
    "One of :class:`~sksel.DAUBSearch`'s subsample"
    """
    entries = _entries()
    if term not in entries:
        raise ValueError(f"term={term!r} is not in the glossary; its terms are "
                         f"{sorted(entries)}.")
    return entries[term]
