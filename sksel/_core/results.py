"""``cv_results_`` from a fit's evaluations: which rows, their means, their ranks."""

import warnings

import numpy as np
from scipy.stats import rankdata

from .._compat import _warn_or_raise_about_fit_failures


def _split_by_decisions(evaluations, decisions):
    """The evaluations the policy decided on, in decision order, and the others.

    An action run twice (a retry) matches its evaluations in the order they
    finished. The others were speculative: started while a worker was free,
    never used by the policy; they keep the order they finished in.
    """
    unused = {}
    for i, (action, _) in enumerate(evaluations):
        unused.setdefault(action, []).append(i)
    decided = [unused[action].pop(0) for action in decisions if unused.get(action)]
    speculative = sorted(i for left in unused.values() for i in left)
    return [evaluations[i] for i in decided], [evaluations[i] for i in speculative]


def _check_some_candidate_scored(mean_scores, last):
    """Raise, in the words of sklearn's summary, when no candidate has a finite score."""
    if np.isfinite(mean_scores).any():
        return
    failed = [out for _, outputs in last for out in outputs if out["fit_error"] is not None]
    _warn_or_raise_about_fit_failures(failed, error_score=np.nan)
    raise ValueError(
        f"No candidate has a finite mean test score: every one of the {len(last)} "
        "candidates scored NaN or infinity at its largest resource."
    )


def _check_scored_at_largest_resource(mean_scores, resources, last, resource, search):
    """Raise, with sklearn's summary, where every candidate evaluated at `resource` failed there.

    For a search that selects among the candidates evaluated at its largest
    `resource` once it has run to its end: none is left to select, and a
    candidate it stopped below `resource` is no answer. The summary is
    :func:`_check_some_candidate_scored`'s over the last evaluations at
    `resource` (`last`).
    """
    at = np.asarray(resources) == resource
    if not at.any():
        return
    try:
        _check_some_candidate_scored(np.asarray(mean_scores)[at],
                                     [(action, outputs) for action, outputs in last
                                      if action[1] == resource])
    except ValueError as summary:
        raise ValueError(
            f"{search}: every candidate evaluated at the largest resource ({resource}) failed "
            f"there, so none can be selected (those stopped below it are no answer).\n{summary}"
        ) from None


def _last_per_candidate(evaluations):
    """The evaluation of each candidate at the largest resource it received."""
    last = {}
    for (candidate, n), outputs in evaluations:
        if candidate not in last or n >= last[candidate][0][1]:
            last[candidate] = ((candidate, n), outputs)
    return [last[c] for c in sorted(last)]


def _missing_fold(output):
    """The output of a fold an evaluation did not run on: NaN times and scores."""
    missing = {**output, "fit_error": None, "fit_time": np.nan, "score_time": np.nan}
    for key in ("test_scores", "train_scores"):
        if key in output:
            value = output[key]
            missing[key] = dict.fromkeys(value, np.nan) if isinstance(value, dict) else np.nan
    return missing


def _average_over_folds_run(results, n_folds, outs, n_splits):
    """Means and standard deviations in `results` over the first `n_folds` splits of each row.

    NaN for a row run on no fold (a candidate not evaluated), which the warning
    about non-finite scores leaves out.
    """
    run = np.arange(n_splits) < n_folds[:, None]
    times = {key: np.array([out[key] for out in outs], dtype=float).reshape(-1, n_splits)
             for key in ("fit_time", "score_time")}
    folds = np.where(n_folds > 0, n_folds, np.nan)
    for key in [k[5:] for k in results if k.startswith("mean_")]:
        if key in times:
            values = times[key]
        else:
            values = np.stack([results[f"split{i}_{key}"] for i in range(n_splits)], axis=1)
        values = np.where(run, values, 0.0)
        mean = values.sum(axis=1) / folds
        results[f"mean_{key}"] = mean
        results[f"std_{key}"] = np.sqrt(np.where(run, (values - mean[:, None]) ** 2, 0.0)
                                         .sum(axis=1) / folds)
    evaluated = n_folds > 0
    for key in [k for k in results
                if k.startswith("mean_t") and not np.isfinite(results[k][evaluated]).all()]:
        warnings.warn(f"One or more of the {key[5:].split('_')[0]} scores are non-finite: "
                      f"{results[key][evaluated]}", UserWarning)


#: The columns of a row's score means, hidden where the row is not compared.
_MEANS = ("mean_test_", "std_test_", "mean_train_", "std_train_")
#: The suffix of the columns that keep every row's own means (:func:`_keep_own_means`).
AT_RESOURCE = "_at_resource"


def _mean_keys(results):
    """The keys of `results`' score means and deviations (``mean_test_score``, ...), their
    copies at each row's resource left out."""
    return [k for k in results if k.startswith(_MEANS) and not k.endswith(AT_RESOURCE)]


def _keep_own_means(results):
    """Copy each score mean and deviation to ``<key>_at_resource``: the row's own, over the
    folds it ran at its resource, whatever it is compared with (NaN where it ran none)."""
    for key in _mean_keys(results):
        results[key + AT_RESOURCE] = np.array(results[key], dtype=float)


def _ranked_alike(results, alike):
    """Keep the score means of the rows `alike` only, ranked by them; the others NaN, last.

    `alike` marks the rows evaluated as the selected one was. For each
    metric, those with a finite ``mean_test_<metric>`` rank 1, 2, ... by it,
    ties sharing the smallest rank, as GridSearchCV's; every other row has
    NaN means and deviations of scores (its own stay in the ``_at_resource``
    columns) and shares the rank after them, as GridSearchCV ranks NaN
    means. Sorting by ``mean_test_<metric>`` (descending, NaN last) or by
    ``rank_test_<metric>`` then gives one order.
    """
    for key in [k for k in results if k.startswith("rank_test_")]:
        metric = key[len("rank_test_"):]
        mean = np.asarray(results[f"mean_test_{metric}"], dtype=float)
        ranked = np.asarray(alike) & np.isfinite(mean)
        for prefix in _MEANS:
            if prefix + metric in results:
                results[prefix + metric] = np.where(ranked, results[prefix + metric], np.nan)
        ranks = np.full(len(mean), ranked.sum() + 1, dtype=np.int32)
        ranks[ranked] = rankdata(-mean[ranked], method="min")
        results[key] = ranks


def _hide_incomparable_means(results, resources, n_folds):
    """NaN for the score means and deviations of rows run on fewer folds than their peers.

    Rows at the same ranking resource whose evaluations ran on the same (first)
    folds have means over the same folds; a row whose race ended after fewer
    folds than the most that one of them ran has a mean over other folds,
    which is not comparable. Its ``split<i>_*`` scores stay; its means and
    deviations of scores become NaN, so that, at each resource, ordering by
    ``mean_test_<metric>`` agrees with ``rank_test_<metric>``.
    """
    resources, n_folds = np.asarray(resources), np.asarray(n_folds)
    most = {resource: n_folds[resources == resource].max() for resource in np.unique(resources)}
    partial = n_folds < np.array([most[resource] for resource in resources])
    if not partial.any():
        return
    for key in _mean_keys(results):
        results[key] = np.where(partial, np.nan, results[key])


def _scored_over_folds_run(results, key, n_splits):
    """Whether each row's `key` scores (e.g. ``"test_score"``) are finite on the folds it ran,
    one at least (a candidate not evaluated is not scored)."""
    n_folds = np.asarray(results["n_folds_run"])
    run = np.arange(n_splits) < n_folds[:, None]
    splits = np.stack([results[f"split{i}_{key}"] for i in range(n_splits)], axis=1)
    return (n_folds > 0) & np.where(run, np.isfinite(np.asarray(splits, dtype=float)),
                                    True).all(axis=1)


def _leaders_at_shared_resource(candidates, resources, scores):
    """The resource most candidates can be compared at, and their rows there, best first.

    `candidates`, `resources` and `scores` describe evaluations (rows whose
    score is NaN do not count). The resource is the largest that two or more
    candidates were evaluated at (the largest any was, where none is
    shared); returns ``(resource, [(candidate, row), ...])``, the best score
    first, ties in candidate order.
    """
    candidates, resources = np.asarray(candidates), np.asarray(resources)
    scored = np.isfinite(np.asarray(scores, dtype=float))
    reached = {}
    for c, resource in zip(candidates[scored], resources[scored]):
        reached.setdefault(resource, set()).add(c)
    shared = [resource for resource, at in reached.items() if len(at) > 1]
    resource = max(shared or reached)
    at = {c: i for i, (c, r) in enumerate(zip(candidates, resources))
          if r == resource and scored[i]}
    return resource, sorted(at.items(), key=lambda item: (-scores[item[1]], item[0]))


def _ranked_first(ranks, first):
    """`ranks` with the rows `first` ranked 1, 2, ... in that order, the others after them.

    The others keep their order and ties, each one after the rows ahead of it.
    """
    ranks = np.asarray(ranks)
    others = np.setdiff1d(np.arange(len(ranks)), first)
    new = np.empty(len(ranks), dtype=ranks.dtype)
    new[list(first)] = np.arange(1, len(first) + 1)
    for i in others:
        new[i] = len(first) + 1 + np.sum(ranks[others] < ranks[i])
    return new


def _ranked_last(ranks, demoted, scored):
    """`ranks` with the rows `demoted` ranked last, with the rows not `scored`.

    The other rows keep their order and ties: each ranks one after the rows
    kept ahead of it, as ``rankdata(method="min")`` does.
    """
    ranks = np.asarray(ranks)
    kept = np.ones(len(ranks), dtype=bool)
    kept[demoted] = False
    ahead = np.array([np.sum(kept & (ranks < r)) for r in ranks])
    last = np.sum(kept & scored)
    return np.where(kept, ahead, last).astype(ranks.dtype) + 1


def _rank_by_resource(n_resources, mean_scores, n_folds=None):
    """Rank finite scores first, then by resource received, folds run, then score.

    Failed (non-finite) scores share the last rank, whatever their resource:
    they are ranked as a score of -inf at resource 0, below every resource
    received. At the same resource, a row whose evaluation ran on fewer
    folds (a race's) ranks below the rows that ran on more. Ties share the
    smallest rank, as ``rankdata(method="min")`` does.
    """
    mean_scores = np.asarray(mean_scores, dtype=float)
    failed = ~np.isfinite(mean_scores)
    n = np.where(failed, 0, n_resources)
    folds = np.where(failed, 0, 1 if n_folds is None else n_folds)
    scores = np.where(failed, -np.inf, mean_scores)
    order = np.lexsort((-scores, -folds, -n))
    n, folds, scores = n[order], folds[order], scores[order]
    new = np.r_[True, (n[1:] != n[:-1]) | (folds[1:] != folds[:-1])
                | (scores[1:] != scores[:-1])]
    ranks = np.empty(len(order), dtype=np.int32)
    ranks[order] = np.maximum.accumulate(np.where(new, np.arange(len(order)), 0)) + 1
    return ranks


def results_table(evaluations, *, job, trainer, policy, names, n_splits, return_train_score,
                  format_results, speculative=None, not_evaluated=None):
    """``cv_results_``-style dict of `evaluations`, failed rows last, then by resource.

    An evaluation that ran on the first folds only has NaN in the
    ``split*`` keys of the others, and its means and standard deviations
    are over the folds it ran on. The trainer gives each row's ``params``,
    its ``iter``, the resource it ranks by and its own columns; the policy
    adds its columns (its ``columns(candidates)``). `names` names a row's
    candidate; `format_results` is scikit-learn's table of the search
    (``BaseSearchCV._format_results``); `speculative`, one flag per row,
    adds that column.

    `not_evaluated`, ``{candidate: why}``, lists those candidates too, as
    rows run on no fold (``n_resources`` 0, ``iter`` -1, NaN scores, ranked
    after every evaluated row), all the rows in candidate order, with the
    column ``why_not_evaluated``: the policy's words where its columns give
    them, else `why`; ``""`` for the candidates evaluated. None: neither.
    """
    missing = _missing_fold(evaluations[0][1][0])
    entries = [(action, outputs, "") for action, outputs in evaluations]
    if not_evaluated is not None:
        entries = sorted(entries + [((c, 0), [], why) for c, why in not_evaluated.items()],
                         key=lambda entry: entry[0][0])
    actions = [action for action, _, _ in entries]
    evaluated = np.array([len(outputs) > 0 for _, outputs, _ in entries])
    params = [trainer.row_params(job, action) for action in actions]
    n_folds = np.array([len(outputs) for _, outputs, _ in entries])
    outs = [out for _, outputs, _ in entries
            for out in outputs + [missing] * (n_splits - len(outputs))]
    if not return_train_score:
        outs = [{k: v for k, v in out.items() if k != "train_scores"} for out in outs]
    more = {
        "candidate_id": [c for c, _ in actions],
        "candidate_name": [names(c) for c, _ in actions],
        "n_resources": [n for _, n in actions],
        "iter": [trainer.iter_of(n) if run else -1 for (_, n), run in zip(actions, evaluated)],
        **_in_rows(trainer.columns(job, [a for a, run in zip(actions, evaluated) if run]),
                   evaluated),
    }
    more.update(policy.columns(np.array([c for c, _ in actions], dtype=int)))
    given = more.pop("why_not_evaluated", [""] * len(actions))
    if not_evaluated is not None:
        more["why_not_evaluated"] = np.array(
            [why and (words or why) for (_, _, why), words in zip(entries, given)], dtype=object)
    if speculative is not None:
        more["speculative"] = speculative
    if np.all(n_folds == n_splits):
        results = format_results(params, n_splits, outs, more)
    else:
        with warnings.catch_warnings():
            # Warned below, once the missing folds are left out of the means.
            warnings.filterwarnings("ignore", message="One or more of the (test|train) scores")
            results = format_results(params, n_splits, outs, more)
        _average_over_folds_run(results, n_folds, outs, n_splits)
    results["n_folds_run"] = n_folds
    _keep_own_means(results)
    resources = trainer.ranking_resource(results)
    for key in [k for k in results if k.startswith("rank_test_")]:
        ranks = _rank_by_resource(resources, results[f"mean{key[4:]}"], n_folds)
        results[key] = np.where(evaluated, ranks, ranks[evaluated].max(initial=0) + 1)
    _hide_incomparable_means(results, resources, n_folds)
    return results


def _in_rows(columns, evaluated):
    """`columns` of the evaluated rows spread over all rows: False, -1 or NaN in the rows not
    `evaluated`, by the column's type."""
    if evaluated.all():
        return columns
    spread = {}
    for name, values in columns.items():
        values = np.asarray(values)
        fill = {"b": False, "i": -1, "f": np.nan}.get(values.dtype.kind)
        column = np.full(len(evaluated), fill, dtype=values.dtype)
        column[evaluated] = values
        spread[name] = column
    return spread
