"""Reporting the progress of a search, as its `verbose` parameter asks.

An *evaluation* is one candidate at one resource on every cross-validation
split: one row of ``all_cv_results_``. :class:`Progress` prints

- at ``verbose >= 1``, a header (the search, its candidates, folds and
  budget) and a final line (evaluations done, time, the selected candidate
  and its score); between them a tqdm bar where tqdm is installed (``pip
  install sksel[progress]``; ``tqdm.auto`` draws it in a terminal or in
  Jupyter), otherwise a plain status line every few seconds; both count
  against the evaluations planned (at most that many, where the search may
  stop early) and estimate the time left; where the search plans no count
  (DAUB's, which stops once a candidate reaches N), they count without a
  total and give no time left;
- at ``verbose >= 2``, one line per finished evaluation instead of the bar,
  in the order they finish: the candidate's name (:class:`~sksel._core.naming.CandidateNames`,
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

import sys
import time

from .run import Listener

_STATUS_EVERY_S = 5.0

#: The glossary's term of each column a ``verbose=2`` line may add.
_TERMS = {"bound": "bound", "first look": "first look", "look": "look on a subsample",
          "ahead": "speculative evaluation"}
#: Where a ``verbose=2`` line sends its reader: installed with sksel, unlike doc/.
_GLOSSARY = 'the glossary, help("sksel.glossary")'


def _tqdm():
    """``tqdm.auto.tqdm``, or None where tqdm is not installed."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm


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
        ``names(candidate) -> str``, the candidate's name
        (:class:`~sksel._core.naming.CandidateNames`).
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
    standing : callable or None, default=None
        ``standing() -> (n_done, best, others)``, read after each evaluation
        told, where not every evaluation counts against `planned`
        (GPUCBSelector's looks on a subsample and speculative evaluations do
        not): the evaluations that count so far, the best of them as
        ``(score, candidate, resource)`` or None, and the words the final
        line gives the others (``""``: none). None: every evaluation told
        counts, and the best is the best told.
    file : file-like or None
        Where lines go; None is ``sys.stdout`` at the time of printing.
    """

    def __init__(self, verbose, search, names, *, n_candidates, n_splits, planned=None,
                 exact=True, budget="", max_resource=None, describe=None, used=None,
                 standing=None, file=None):
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
        self.standing = standing
        self.file = file
        self._explained = set()
        self.n_done = 0
        self.best = None  # (score, candidate, resource)
        self._others = ""
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
        if self.planned is None or not 0 < self.n_done < self.planned:
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
            desc = self.search if self.exact or self.planned is None else (
                f"{self.search} (at most)")
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
        best = self.best
        self._tally(candidate, resource, score)
        now = time.perf_counter()
        if self._bar is not None:
            if self.best != best:
                self._bar.set_postfix_str(self._best(), refresh=False)
            self._bar.update(self.n_done - self._bar.n)
        elif self.verbose >= 2:
            self._print(self._line(candidate, resource, score, extra, now - self._start,
                                   n_folds, ahead))
        elif self.n_done == 1 or now - self._last_status >= _STATUS_EVERY_S:
            self._last_status = now
            self._print(f"{self._count()} evaluations, {now - self._start:.1f}s"
                        f"{self._time_left(now)}, {self._best()}")

    def _tally(self, candidate, resource, score):
        """Count the evaluation told and keep the best: by `standing` where given."""
        if self.standing is not None:
            self._read_standing()
            return
        self.n_done += 1
        if self.best is None or score > self.best[0]:
            self.best = (float(score), candidate, resource)

    def _read_standing(self):
        """The count, the best and the others' words from `standing`."""
        self.n_done, self.best, self._others = self.standing()

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
        if self.standing is not None:
            self._read_standing()
        others = f" ({self._others})" if self._others else ""
        line = (f"done: {self.n_done} evaluations{others} in {self._end - self._start:.1f}s"
                f" (stopped: {stop_reason})")
        if best is not None:
            candidate, resource, score = best
            line += f"; selected {self.names(candidate)}{self._at(resource)}, score {score:.4f}"
        self._print(line)
