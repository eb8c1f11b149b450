"""Reporting the progress of a search, as its `verbose` parameter asks.

An *evaluation* is one candidate at one resource on every cross-validation
split: one row of ``all_cv_results_``. :class:`Progress` prints

- at ``verbose >= 1``, a header (the search, its candidates, folds and
  budget) and a final line (evaluations done, time, the selected candidate
  and its score); between them a tqdm bar where tqdm is installed (``pip
  install sksel[progress]``; ``tqdm.auto`` draws it in a terminal or in
  Jupyter), otherwise a plain status line every few seconds; both count
  against the evaluations planned (at most that many, where the search may
  stop early) and estimate the time left;
- at ``verbose >= 2``, one line per finished evaluation instead of the bar,
  in the order they finish: the candidate's name (:class:`CandidateNames`,
  the ``candidate_name`` of its rows in ``cv_results_``), its resource
  (where it varies), its mean test score, the folds it ran (``folds=1/5``:
  DAUB's curves below N, a race ended early), any column the search adds (DAUB's
  bound), ``ahead`` where the search has not reached it yet (a speculative
  evaluation, which may finish before smaller ones) and the seconds since
  the start. The first line that shows one of these terms says where the
  glossary defines it. The lines read as a table: each column is as wide as its
  widest entry so far, or as what is known at the start needs: the names'
  the longest name of the candidates then (a longer one, a mutant's, widens
  it from then on), the resources' the largest the search allows;
- at ``verbose >= 3``, also sklearn's ``[CV]`` line of every fit (the search
  passes the level on to ``_fit_and_score``; fits on joblib worker processes
  print in those processes).
"""

import numbers
import sys
import time

from ..spaces.space import _STEP, first_estimator
from .run import Listener

_STATUS_EVERY_S = 5.0

#: The glossary's term of each column a ``verbose=2`` line may add.
_TERMS = {"bound": "bound", "first look": "first look", "look": "look on a subsample",
          "ahead": "speculative evaluation"}
_GLOSSARY = "the glossary of sksel's documentation (doc/glossary.rst)"


def _tqdm():
    """``tqdm.auto.tqdm``, or None where tqdm is not installed."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm


def _final_position(estimator, params, path=""):
    """``(final, path)``: the estimator a candidate puts in the final position, and its name.

    The last step of `estimator`, recursively through nested ``Pipeline``
    steps, unless the candidate's `params` replace it: ``params["clf"]``
    replaces the step ``clf``, ``params["model__clf"]`` the step ``clf`` of a
    nested pipeline ``model``. `path` names `estimator` among the parameters
    ("" for the searched estimator itself); the returned path names the final
    position, under which `params` address the final estimator's parameters.
    """
    while hasattr(estimator, "steps"):
        name, step = estimator.steps[-1]
        path = f"{path}__{name}" if path else name
        estimator = params.get(path, step)
    return estimator, path


def _differing_estimator_params(estimators):
    """Class name -> the parameters set differently on the `estimators` of that class."""
    by_class = {}
    for estimator in {id(estimator): estimator for estimator in estimators}.values():
        if hasattr(estimator, "get_params"):
            by_class.setdefault(type(estimator).__name__, []).append(
                estimator.get_params(deep=False))
    return {name: sorted(key for key in set().union(*group)
                         if len({repr(p.get(key)) for p in group}) > 1)
            for name, group in by_class.items()}


def _shown_key(key, path):
    """`key` as a name shows it: within the final estimator at `path`, or from the top."""
    if path and key.startswith(f"{path}__"):
        return key[len(path) + 2 :]
    return key[len(_STEP) + 2 :] if key.startswith(f"{_STEP}__") else key


def _value(value):
    """`value` in a few characters."""
    if isinstance(value, numbers.Real) and not isinstance(value, (bool, numbers.Integral)):
        return f"{value:.3g}"
    if hasattr(value, "get_params"):
        return type(value).__name__
    return repr(value) if isinstance(value, str) else str(value)


class ShortNames:
    """Short names of candidates: the final estimator's class and the parameters that vary.

    A candidate is named after the estimator in its final position: the
    estimator itself, or the final step of a ``Pipeline`` (recursively for
    nested ones), or the estimator a parameter puts in that position
    (``clf`` replacing the final step ``clf``; ``model__clf`` in a nested
    pipeline ``model``). Shown are the parameters whose values differ between
    candidates: those of the search space, those addressed to the final
    estimator by their name within it (``clf__C`` as ``C``), the others by
    their name from the top (a step replaced before the final one as
    ``scale=MinMaxScaler``); and those set on the final estimators of a list
    or a grid of steps that differ between estimators of the same class.
    Those all candidates share are not shown.

    Parameters
    ----------
    candidates : list of dict
        The candidates' parameters; the list may grow during the search
        (MutantUCBSearch's mutants), names are made when asked.
    estimator : estimator object or None
        The searched estimator, which candidates without an ``estimator``
        parameter (those of a list of estimators) configure; None for
        parameters alone, which build no estimator.

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.pipeline import Pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sksel._core.progress import ShortNames
    >>> pipe = Pipeline([("scale", StandardScaler()), ("clf", LogisticRegression())])
    >>> names = ShortNames([{"clf": GaussianNB()}, {"clf__C": 0.1}, {"clf__C": 10.0}], pipe)
    >>> [names(c) for c in range(3)]
    ['GaussianNB', 'LogisticRegression(C=0.1)', 'LogisticRegression(C=10)']
    """

    def __init__(self, candidates, estimator):
        self.candidates = candidates
        self.estimator = estimator
        self.varying = None
        self._names = {}

    def __call__(self, candidate):
        if self.varying is None:
            # Of the candidates known at the first name asked for, not mutants bred later.
            candidates = self.candidates
            keys = {key for params in candidates for key in params if key != _STEP}
            missing = object()
            self.varying = sorted(
                key for key in keys
                if len({repr(params.get(key, missing)) for params in candidates}) > 1
            )
            self._set_on = _differing_estimator_params(
                self._final(params)[0] for params in candidates)
        if candidate not in self._names:
            self._names[candidate] = self._name(self.candidates[candidate])
        return self._names[candidate]

    def _final(self, params):
        """``(final estimator, its path)`` of the candidate `params` (:func:`_final_position`)."""
        if _STEP in params:
            return _final_position(params[_STEP], params, _STEP)
        return _final_position(self.estimator, params)

    def _name(self, params):
        final, path = self._final(params)
        name = "" if final is None else type(final).__name__
        shown = {}
        if hasattr(final, "get_params"):
            own = final.get_params(deep=False)
            shown = {key: own[key] for key in self._set_on.get(name, ())}
        # The parameters that put `final` in its position are its name, not shown.
        shown.update((_shown_key(key, path), params[key]) for key in self.varying
                     if key in params and not (key == path or path.startswith(f"{key}__")))
        shown = ", ".join(f"{key}={_value(value)}" for key, value in shown.items())
        return f"{name}({shown})" if shown else name


def candidate_names(candidates, estimator, parents=None):
    """The names of `candidates` by sksel's one rule (:class:`CandidateNames`).

    The progress lines, the ``candidate_name`` column of the results and the
    displays name candidates by it. `estimator` is the search's (a list of
    candidates: its first one); `parents` maps a bred candidate to its parent,
    a dict the fit fills as it breeds them (None: no candidate has a parent).
    """
    parents = {} if parents is None else parents
    short = ShortNames(candidates, first_estimator(estimator))
    return CandidateNames(short, lambda candidate: parents.get(candidate, -1))


class CandidateNames:
    """Names of candidates: one rule for the progress lines, the results and the displays.

    A candidate's name is ``#`` and its ``candidate_id``, then, for a mutant,
    ``(from #`` and its parent's id ``)``, then its short name
    (:class:`ShortNames`): ``#12 (from #3) SGDClassifier(alpha=0.0017)``.

    Parameters
    ----------
    short_names : callable
        ``short_names(candidate) -> str`` (:class:`ShortNames`).
    parent_of : callable, default=None
        ``parent_of(candidate) -> int``, the candidate's parent id, or -1 for
        a candidate that has none; None: no candidate has a parent.
    """

    def __init__(self, short_names, parent_of=None):
        self.short_names = short_names
        self.parent_of = parent_of

    def __call__(self, candidate):
        parent = -1 if self.parent_of is None else self.parent_of(candidate)
        lineage = f" (from #{parent})" if parent >= 0 else ""
        return f"#{candidate}{lineage} {self.short_names(candidate)}"


class Progress(Listener):
    """Print a search's progress at its `verbose` level (see the module).

    A listener of the fit (:class:`~sksel._core.run.Listener`): it opens with
    the engine, prints a line per evaluation told, and closes with it.

    Parameters
    ----------
    verbose : int
        The search's `verbose`.
    search : str
        Name of the search, opening every line.
    names : callable
        ``names(candidate) -> str``, the candidate's name (:class:`CandidateNames`).
    n_candidates, n_splits : int
        Candidates and cross-validation splits.
    planned : int or None
        Evaluations the budget allows, or None when unknown.
    exact : bool
        Whether `planned` evaluations will run (else at most that many).
    budget : str
        How the budget reads in the header.
    max_resource : int or None, default=None
        The largest resource of an evaluation, where the search knows it
        before it runs: the width of the resource column from the first line.
    describe : callable or None, default=None
        ``describe(candidate, resource) -> dict or None``, the columns a
        ``verbose=2`` line adds (the policy's ``describe``).
    used : callable or None, default=None
        ``used(action) -> bool``, whether the search has used the result of
        `action` once told (else the line says ``ahead``); None: all are.
    file : file-like or None
        Where lines go; None is ``sys.stdout`` at the time of printing.
    """

    def __init__(self, verbose, search, names, *, n_candidates, n_splits, planned=None,
                 exact=True, budget="", max_resource=None, describe=None, used=None,
                 file=None):
        self.verbose = verbose
        self.search = search
        self.names = names
        self.n_candidates = n_candidates
        self.n_splits = n_splits
        self.planned = planned
        self.exact = exact
        self.budget = budget
        self.max_resource = max_resource
        self.describe = describe
        self.used = used
        self.file = file
        self._explained = set()
        self.n_done = 0
        self.best = None  # (score, candidate, resource)
        self._bar = None
        self._widths = {}

    def _print(self, line):
        print(f"[{self.search}] {line}", file=self.file or sys.stdout, flush=True)

    def _count(self, n_done=None):
        n_done = self.n_done if n_done is None else n_done
        if self.planned is None:
            return f"{n_done}"
        return f"{n_done}/{self.planned}" if self.exact else f"{n_done}/<={self.planned}"

    def _cell(self, column, text, align="<"):
        """`text` padded to the width of `column`: its widest entry so far."""
        width = self._widths[column] = max(self._widths.get(column, 0), len(text))
        return f"{text:{align}{width}}"

    def _line(self, candidate, resource, score, extra, elapsed, n_folds=None, ahead=False):
        """The ``verbose=2`` line of one evaluation, its columns padded as a table's.

        The resource is left out where the search gives every evaluation
        the same (no `max_resource`); the first line showing a term of
        :data:`_TERMS` ends by saying where the glossary defines it.
        """
        cells = [] if self.max_resource is None else [
            self._cell("resource", f"resource={resource}")]
        cells.append(self._cell("score", f"score={score:.4f}"))
        if n_folds is not None and self.n_splits > 1:
            cells.append(self._cell("folds", f"folds={n_folds}/{self.n_splits}"))
        for key, value in (extra or {}).items():
            if value is True:  # a mark: "first look"
                cells.append(key)
                continue
            # As wide as a score from the start: "bound=none" and "bound=0.7183" align.
            self._widths.setdefault(key, len(f"{key}=0.0000"))
            cells.append(self._cell(key, f"{key}={value:.4f}" if isinstance(value, float)
                                    else f"{key}={value}"))
        if ahead:
            cells.append("ahead")
        shown = [*(extra or {}), *(["ahead"] if ahead else [])]
        new = [_TERMS[key] for key in shown if key in _TERMS and _TERMS[key] not in self._explained]
        self._explained.update(new)
        terms = f"  [{', '.join(new)}: see {_GLOSSARY}]" if new else ""
        return (f"{self._cell('count', self._count(), '>')} "
                f"{self._cell('name', self.names(candidate))} "
                + "  ".join(cells) + f"  ({elapsed:.1f}s){terms}")

    def _time_left(self, now):
        """``", about 12s left"``: the mean time of an evaluation so far times those planned.

        ``"at most about"`` where the search may stop before `planned`;
        nothing where nothing is planned.
        """
        if self.planned is None or self.n_done >= self.planned:
            return ""
        left = (now - self._start) / self.n_done * (self.planned - self.n_done)
        return f", {'about' if self.exact else 'at most about'} {left:.0f}s left"

    def _best(self):
        if self.best is None:
            return "best: none yet"
        score, candidate, resource = self.best
        return f"best {score:.4f} {self.names(candidate)}{self._at(resource)}"

    def _at(self, resource):
        """``" at 200"``, or nothing where every evaluation has the same resource."""
        return "" if self.max_resource is None else f" at {resource}"

    # ------------------------------------------------------------------ events
    def on_start(self):
        self.start()

    def on_told(self, action, outputs, score):
        if self.verbose < 2:
            self.evaluation(*action, score)
            return
        self.evaluation(*action, score, self.describe(*action) if self.describe else None,
                        n_folds=len(outputs),
                        ahead=self.used is not None and not self.used(action))

    def on_end(self):
        self.stop()

    def start(self):
        """Print the header; open the bar at ``verbose == 1`` where tqdm is installed."""
        self._start = self._last_status = time.perf_counter()
        if self.verbose < 1:
            return
        s = "" if self.n_candidates == 1 else "s"
        self._print(f"{self.n_candidates} candidate{s}, {self.n_splits}-fold cv; {self.budget}")
        tqdm = _tqdm() if self.verbose == 1 else None
        if tqdm is not None:
            # Where the search may stop early, the total is at most that many.
            desc = self.search if self.exact else f"{self.search} (at most)"
            self._bar = tqdm(total=self.planned, desc=desc, unit="eval", file=self.file,
                             dynamic_ncols=True)
        elif self.verbose >= 2:
            self._widths = {"count": len(self._count(self.planned or 0)),
                            "name": max((len(self.names(c)) for c in range(self.n_candidates)),
                                         default=0)}
            if self.max_resource is not None:
                self._widths["resource"] = len(f"resource={self.max_resource}")

    def evaluation(self, candidate, resource, score, extra=None, n_folds=None, ahead=False):
        """Report one finished evaluation: its mean test `score` and `extra` columns.

        `n_folds`: the folds it ran, where known; `ahead`: whether the search
        has not reached it yet.
        """
        if self.verbose < 1:
            return
        self.n_done += 1
        if self.best is None or score > self.best[0]:
            self.best = (float(score), candidate, resource)
        now = time.perf_counter()
        if self._bar is not None:
            if self.best[1] == candidate and self.best[2] == resource:
                self._bar.set_postfix_str(self._best(), refresh=False)
            self._bar.update(1)
        elif self.verbose >= 2:
            self._print(self._line(candidate, resource, score, extra, now - self._start,
                                   n_folds, ahead))
        elif self.n_done == 1 or now - self._last_status >= _STATUS_EVERY_S:
            self._last_status = now
            self._print(f"{self._count()} evaluations, {now - self._start:.1f}s"
                        f"{self._time_left(now)}, {self._best()}")

    def stop(self):
        """Close the bar, if any: the search has ended, or failed."""
        self._end = time.perf_counter()
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def close(self, stop_reason, best=None):
        """Print the final line, naming `best` ``(candidate, resource, score)``."""
        if self.verbose < 1:
            return
        line = (f"done: {self.n_done} evaluations in {self._end - self._start:.1f}s"
                f" (stopped: {stop_reason})")
        if best is not None:
            candidate, resource, score = best
            line += f"; selected {self.names(candidate)}{self._at(resource)}, score {score:.4f}"
        self._print(line)
