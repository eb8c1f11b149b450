"""What the displays share: checks, names and labels, axes, colours, and reading a search."""

import numbers
import re
import textwrap

import numpy as np
from sklearn.base import is_classifier, is_regressor
from sklearn.utils.validation import check_is_fitted

from .._compat import BaseSearchCV, check_matplotlib_support
from .._core.naming import candidate_names
from .._core.results import _rank_by_resource
from .._core.search import DisplayInfo


# ---------------------------------------------------------------- helpers
def _start_plot(display, ax, figsize=None):
    """The axes to plot `display` on, set as its ``ax_`` with its ``figure_``.

    A figure made here has constrained layout, which keeps the labels and a
    legend outside the axes in the figure, and `figsize` (None:
    matplotlib's default); the displays that name candidates ask for
    `_NAMED_FIGSIZE`, wider, for the names.
    """
    check_matplotlib_support(f"{type(display).__name__}.plot")
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=figsize, layout="constrained")
    display.ax_, display.figure_ = ax, ax.figure
    return ax


_NAMED_FIGSIZE = (9.6, 4.8)


def _legend_outside(ax, **kwargs):
    """The legend of `ax`, right of its axes, so that it covers no data."""
    return ax.legend(**{"loc": "upper left", "bbox_to_anchor": (1.02, 1), "borderaxespad": 0,
                        "fontsize": "small", **kwargs})


def _names(search, candidate_ids, names):
    """Labels of `candidate_ids`: from `names` (a list or a callable), or the results' names.

    `names` is checked here, for every display: a list (or tuple, or array)
    needs an entry for every ``candidate_id``; anything else must be callable.
    """
    if names is None:
        default = _candidate_names(search)
        return [default[int(c)] for c in candidate_ids]
    if callable(names):
        params = _params_by_id(search)
        return [str(names(params[int(c)])) for c in candidate_ids]
    if not isinstance(names, (list, tuple, np.ndarray)):
        raise TypeError(f"names must be a list of labels indexed by candidate_id, or a "
                        f"callable of a candidate's params; got {type(names).__name__}.")
    n_candidates = max(_candidate_names(search)) + 1
    if len(names) < n_candidates:
        raise ValueError(f"names has {len(names)} labels; the search has {n_candidates} "
                         f"candidates (candidate_id 0 to {n_candidates - 1}), one label each.")
    return [str(names[int(c)]) for c in candidate_ids]


def _candidate_names(search):
    """``candidate_id -> name``: the ``candidate_name`` column of the results, whole.

    A search with ``candidates_`` (:class:`~sksel.GPUCBSelector`) has
    candidates it never evaluated; every one of them is named by the same
    rule (:func:`~sksel._core.naming.candidate_names`).
    """
    results = search.all_cv_results_
    names = {int(c): str(n) for c, n in zip(results["candidate_id"], results["candidate_name"])}
    candidates = getattr(search, "candidates_", None)
    if candidates is not None:
        rule = candidate_names(candidates, search.estimator)
        names = {c: rule(c) for c in range(len(candidates))} | names
    return names


def _arguments(text):
    """`text` (``alpha=0.01, sizes=(64, 32)``) split at the commas outside brackets and quotes."""
    arguments, depth, quote, start = [], 0, None, 0
    for i, char in enumerate(text):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            arguments.append(text[start:i])
            start = i + 2 if text[i + 1:i + 2] == " " else i + 1
    return arguments + [text[start:]]


_LABEL_WIDTH = 48


_NAME = re.compile(r"(#\d+(?: \(from #\d+\))?) (\w+)(?:\((.*)\))?")


def _shortened(labels, others=(), whose=None):
    """`labels` without what they all share, and that, when one is too long to read.

    Labels of at most 48 characters stay as they are, and so do labels that
    do not all read as names of one estimator's candidates, as the results
    name them (``#12 (from #3) MLPClassifier(alpha=0.01, ...)``; names given
    by ``names=`` are drawn as given). Longer ones lose the estimator and
    the parameters they all set alike, given back as the header
    (``MLPClassifier(hidden_layer_sizes=(32,))``); when they still are too
    long, and set the same parameters, the header names those and each
    label keeps its values, in that order.

    The header is what `labels` share: where the figure draws `others`
    too, unnamed (grey), and one of them does not share it (another
    estimator, another value of a parameter the header sets), the header
    begins with `whose` on a line of its own (``"top 10 of 38:"``), so that
    it claims nothing of the others.

    Parameters
    ----------
    labels : list of str
        The labels of the named candidates.

    others : list of str, default=()
        The labels of the candidates drawn beside them without a name.

    whose : str, default=None
        Which candidates `labels` are, of all drawn; needed with `others`.

    Returns
    -------
    header : str or None
        What the labels share, for a legend's title or an axis label; None
        when they are kept as they are.

    labels : list of str
        The labels to draw.
    """
    parts = [_name_parts(label) for label in labels]
    if (max(map(len, labels), default=0) <= _LABEL_WIDTH or None in parts
            or len({estimator for _, estimator, _ in parts}) != 1):
        return None, list(labels)
    heads, (estimator, *_), arguments = zip(*parts)
    shared = [a for a in arguments[0] if all(a in other for other in arguments[1:])]
    own = [[a for a in these if a not in shared] for these in arguments]
    header = estimator + (f"({', '.join(shared)})" if shared else "")
    if not all(_shares(label, estimator, shared) for label in others):
        header = f"{whose}:\n{header}"
    short = [" ".join([head, ", ".join(these)]).strip() for head, these in zip(heads, own)]
    keys = {tuple(a.split("=", 1)[0] for a in these) for these in own}
    if max(map(len, short)) > _LABEL_WIDTH and len(keys) == 1:
        header += ": " + ", ".join(keys.pop())
        short = [" ".join([head, ", ".join(a.split("=", 1)[-1] for a in these)])
                 for head, these in zip(heads, own)]
    return header, short


def _shares(label, estimator, arguments):
    """Whether `label` names a candidate of `estimator` that sets all of `arguments` alike."""
    parts = _name_parts(label)
    return parts is not None and parts[1] == estimator and set(arguments) <= set(parts[2])


def _name_parts(label):
    """``(head, estimator, arguments)`` of a candidate's name, or None for another label."""
    match = _NAME.fullmatch(label)
    if match is None:
        return None
    head, estimator, arguments = match.groups()
    return head, estimator, _arguments(arguments) if arguments else []


def _wrapped_header(header):
    """`header` (of :func:`_shortened`) on lines of at most 48 characters; None stays None."""
    return header and "\n".join(textwrap.fill(line, _LABEL_WIDTH, break_long_words=False)
                                 for line in header.split("\n"))


def _name(names, candidate_ids, candidate):
    """The label of `candidate`: its entry of `names` (by `candidate_ids`), or ``#id``."""
    if names is None:
        return f"#{candidate}"
    return names[list(candidate_ids).index(candidate)]


def _top_k(ordered, top_k):
    """The first `top_k` of `ordered`, once `top_k` is checked."""
    if not isinstance(top_k, numbers.Integral) or isinstance(top_k, bool) or top_k < 1:
        raise ValueError(f"top_k must be a positive integer; got top_k={top_k!r}.")
    return list(ordered)[:top_k]


def _colours(n):
    """`n` colours of the tab10 cycle, red (the selected candidate's) left out, repeating."""
    import matplotlib

    cycle = [c for c in matplotlib.colormaps["tab10"].colors
             if matplotlib.colors.to_hex(c) != matplotlib.colors.to_hex("tab:red")]
    return [cycle[i % len(cycle)] for i in range(n)]


def _ranks(search, candidate_ids):
    """The place in ``cv_results_`` of each of `candidate_ids` (1 is the selected one).

    By ``rank_test_<metric>``; the rows that share the last rank (trained
    less than the selected one, failed) by their training, then their own
    mean (``mean_test_<metric>_at_resource``), as their curves end.
    """
    results = search.cv_results_
    metric = _metric(search)
    n = len(results["candidate_id"])
    own = np.asarray(results.get(f"mean_test_{metric}_at_resource",
                                 results[f"mean_test_{metric}"]), dtype=float)
    resource = np.asarray(results.get("n_resources_total", results.get("n_resources", np.zeros(n))))
    folds = np.asarray(results.get("n_folds_run", np.zeros(n)))
    order = np.lexsort((-np.nan_to_num(own, nan=-np.inf), -folds, -resource,
                        results[f"rank_test_{metric}"]))
    place = np.empty(n, dtype=int)
    place[order] = np.arange(1, n + 1)
    rank = dict(zip(results["candidate_id"], place))
    return np.array([rank[c] for c in candidate_ids])


def _params_by_id(search):
    """``candidate_id -> params`` of the rows of ``all_cv_results_``, or of ``candidates_``."""
    results = search.all_cv_results_
    params = dict(enumerate(getattr(search, "candidates_", [])))
    return params | {int(c): p for c, p in zip(results["candidate_id"], results["params"])}


def _configuration(search, params):
    """`params` without the training length a search adds to them (``length_param_``)."""
    length = getattr(search, "length_param_", None)
    return {k: v for k, v in params.items() if k != length}


def _checked_search(search, display, attribute=None, column=None, draws=None):
    """`search` as `display` reads it, once it is fitted and records what `display` draws.

    An sksel search is read as it is, a scikit-learn search (any
    ``BaseSearchCV``: GridSearchCV, RandomizedSearchCV, the halving searches)
    through :class:`_ScikitLearnSearch`. The displays of one kind of search
    need an `attribute` (``"posterior_mean_"``, ``"param_distributions"``)
    or a `column` of ``cv_results_`` (``"parent_id"``) that only an sksel
    search of that kind has, and say what they `draws` to a search without.
    """
    if not isinstance(search, BaseSearchCV):
        raise TypeError(f"{display.__name__}.from_search needs a fitted search, an sksel "
                        f"search or a scikit-learn one (GridSearchCV, HalvingGridSearchCV, "
                        f"...); got {type(search).__name__}.")
    sksel = hasattr(search, "_display_info")
    check_is_fitted(search, "all_cv_results_" if sksel else "cv_results_")
    if not sksel and not hasattr(search, "best_index_"):
        raise ValueError(f"{display.__name__} draws the scores of the metric that selects; "
                         f"{type(search).__name__} with several metrics and refit=False "
                         "selects none: set refit to one of its metrics.")
    if attribute is None and column is None:
        return search if sksel else _ScikitLearnSearch(search)
    if not sksel:
        raise TypeError(f"{display.__name__} draws {draws}; scikit-learn's "
                        f"{type(search).__name__} records none.")
    if attribute is not None and getattr(search, attribute, None) is None:
        missing = attribute
    elif column is not None and column not in search.cv_results_:
        missing = f"a {column} in cv_results_"
    else:
        return search
    raise TypeError(f"{display.__name__} draws {draws}, from a search with {missing}; "
                    f"{type(search).__name__} has none.")


_USE_BEST_SCORE = "Use BestScoreDisplay to compare it with other searches."


class _ScikitLearnSearch:
    """A fitted scikit-learn search, as the displays read an sksel search.

    The displays read a search's results, ``cv_results_`` and
    ``all_cv_results_`` with the columns every sksel search adds
    (``candidate_id``, ``candidate_name``, ``speculative``), its
    ``_display_info()`` (:class:`~sksel._core.search.DisplayInfo`) and what the
    scikit-learn searches have too (``best_index_``, ``n_splits_``,
    ``multimetric_``, ``refit``). Here both results are the search's
    ``cv_results_`` with those columns: a row of GridSearchCV or
    RandomizedSearchCV is a candidate; a halving search's candidate is a row
    of its first iteration, and keeps its ``candidate_id`` in the iterations
    it goes on to. Names follow sksel's rule (:class:`~sksel._core.naming.ShortNames`),
    no row is speculative. Only a halving search has a resource: its
    ``n_resources``, samples or the values of its `resource` parameter (left
    out of the candidates' names, as ``length_param_``), up to
    ``max_resources_``; its rows are ranked as sksel ranks them, those at
    larger resources first (scikit-learn ranks the rows of all iterations
    by score alone, but selects in the last one). The others have no
    ``_display_info()``.

    Parameters
    ----------
    search : BaseSearchCV
        A fitted scikit-learn search.
    """

    def __init__(self, search):
        results = search.cv_results_
        halving = "iter" in results and "n_resources" in results
        resource = search.resource if halving else None
        self.length_param_ = None if resource == "n_samples" else resource
        ids = _candidate_ids(results, self.length_param_)
        first = [_configuration(self, results["params"][i]) for i in np.unique(ids)]
        names = candidate_names(first, search.estimator)
        self.cv_results_ = {**results, "candidate_id": ids,
                            "candidate_name": np.array([names(c) for c in ids])}
        if halving:
            self.cv_results_["rank_test_score"] = _rank_by_resource(
                results["n_resources"], results["mean_test_score"])
        self.all_cv_results_ = {**self.cv_results_, "speculative": np.zeros(len(ids), bool)}
        self.best_index_ = search.best_index_
        self.n_splits_ = search.n_splits_
        self.multimetric_ = search.multimetric_
        self.refit = search.refit
        self._info = None
        if halving:
            self._info = DisplayInfo(
                "Samples (n_resources)" if resource == "n_samples" else resource,
                search.max_resources_)

    def _display_info(self):
        return self._info


def _candidate_ids(results, length_param):
    """The candidate of each row of a scikit-learn search's `results`.

    Every row of the first iteration (every row, without ``iter``) is a
    candidate, numbered from 0; a row of a later halving iteration is the
    candidate with the same params but for `length_param`.
    """
    if "iter" not in results:
        return np.arange(len(results["params"]))
    keys = [repr({k: v for k, v in p.items() if k != length_param}) for p in results["params"]]
    first = np.flatnonzero(np.asarray(results["iter"]) == 0)
    candidate = {}
    for i in first:
        candidate.setdefault(keys[i], i)
    return np.array([candidate[key] for key in keys])


def _one_resource(search, results):
    """Why every candidate of `results` had one resource, or None where resources differ."""
    if "n_resources" not in results:
        return ("trains every candidate once, on all the training rows of every fold (its "
                "cv_results_ has no n_resources)")
    resources = np.unique(results["n_resources"])
    if len(resources) == 1:
        return f"evaluated every candidate at one resource (n_resources={resources[0]})"
    return None


def _allocation_like_grid(display, search, reason):
    """Why `display` does not draw `search`, whose candidates all had GridSearchCV's share."""
    return (f"{display.__name__} draws how a search shared its resource among candidates, "
            f"against GridSearchCV's, the full resource on every fold of every candidate; "
            f"{type(search).__name__} {reason}, so that every bar would be GridSearchCV's. "
            f"{_USE_BEST_SCORE}")


def _metric(search):
    """Suffix of the results' keys of the metric the search ranked by."""
    return search.refit if search.multimetric_ else "score"


def _score_name(search):
    """Label of a score axis: the scoring's name, the estimators' own score's, or "Score"."""
    name = search.refit if search.multimetric_ else search.scoring
    if isinstance(name, str):
        return name.replace("_", " ").capitalize()
    if name is None and is_classifier(search):
        return "Accuracy"
    return "R²" if name is None and is_regressor(search) else "Score"


def _selected(search):
    return int(search.cv_results_["candidate_id"][search.best_index_])


def _used_rows(search, key):
    """The rows of ``search.<key>`` the policy used: not the speculative ones."""
    results = getattr(search, key)
    used = ~np.asarray(results["speculative"], dtype=bool)
    return {k: np.asarray(v)[used] if k != "params" else [p for p, u in zip(v, used) if u]
            for k, v in results.items()}


def _split_scores(search, results):
    """``(n_rows, n_splits)`` test scores of the metric the search ranked by, NaN where not run."""
    metric = _metric(search)
    return np.stack([np.asarray(results[f"split{i}_test_{metric}"], dtype=float)
                     for i in range(search.n_splits_)], axis=1)


def _folds_run(search, results):
    """The folds each row of `results` ran on: those whose test score is not NaN.

    A fold that failed with ``error_score=np.nan`` counts as not run.
    """
    return np.isfinite(_split_scores(search, results)).sum(axis=1)


def _mean_scores(search, results):
    """Each row's mean test score over the folds it ran (:func:`_folds_run`), NaN where none.

    ``mean_test_<metric>`` is NaN for a row whose race ended after fewer folds
    than its peers ran; a curve still draws the mean of its first folds.
    """
    split_scores = _split_scores(search, results)
    run = np.isfinite(split_scores)
    total = np.where(run, split_scores, 0.0).sum(axis=1)
    return np.divide(total, run.sum(axis=1), out=np.full(len(total), np.nan),
                     where=run.any(axis=1))


def _resource_added(search, results):
    """The resource each row trained: its ``n_resources``, or for continued models the increment.

    A :class:`~sksel.MutantUCBSearch` continues a model from its previous
    sub-train, so its row at ``n`` sub-trains adds ``n - previous``.
    """
    n = np.asarray(results["n_resources"], dtype=float)
    if not search._display_info().resources_add_up:
        return n
    added, previous = n.copy(), {}
    for i, (c, n_i) in enumerate(zip(results["candidate_id"], n)):
        added[i] = n_i - previous.get(c, 0)
        previous[c] = max(n_i, previous.get(c, 0))
    return added


def _spans_decades(values):
    return bool(values.size and np.all(values > 0) and values.max() / values.min() > 100)


def _grows_geometrically(values):
    """Whether positive `values` read better on a log axis: they grow as a geometric ladder.

    That is, their two closest distinct values are further apart, as a share
    of the axis from the least to the largest, on a log axis than on a
    linear one: 711, 2,133, 6,400 and 19,200 rows (a third of the log axis
    against 8% of the linear one), DAUB's 100, 200, 400, 800 and 1,198 (16%
    against 9%); not sub-trains 1, 2, ..., 6 (10% against 20%). Fewer than
    three values read alike on both.
    """
    values = np.unique(values)
    if values.size < 3 or values[0] <= 0:
        return False
    linear = np.diff(values).min() / (values[-1] - values[0])
    log = np.diff(np.log(values)).min() / np.log(values[-1] / values[0])
    return bool(log > linear)


def _checked_xscale(xscale, values):
    """The scale of a resource axis: `xscale`, or for None the one `values` read best on."""
    if xscale is None:
        return "log" if _grows_geometrically(values) else "linear"
    if xscale not in ("linear", "log"):
        raise ValueError(f"xscale must be None (chosen from the resources), 'linear' or "
                         f"'log'; got xscale={xscale!r}.")
    return xscale


def _folds_words(n_folds, n_splits):
    """``"scored on 1 of 5 folds"``, or ``"1 to 3 of 5"``, for the `n_folds` of partial points."""
    low, high = int(np.min(n_folds)), int(np.max(n_folds))
    some = str(low) if low == high else f"{low} to {high}"
    return f"scored on {some} of {n_splits} folds"
