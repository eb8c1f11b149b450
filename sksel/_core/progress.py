"""Reporting the progress of a search, as its `verbose` parameter asks.

An *evaluation* is one candidate at one resource on every cross-validation
split: one row of ``all_cv_results_``. Every search reports in the same words:

- **used**: an evaluation whose result the search's decisions rest on. The
  counts of the lines, the bar and the final line are evaluations used (those
  that count against the evaluations planned: a GP-UCB look on a subsample
  does not);
- **speculative**: an evaluation a free worker ran ahead of the search's
  decisions, which the search never used (the work is paid for all the
  same). One the search then used is used, not speculative;
- **dropped**: a candidate the search's rule took out of the running: it
  gets no more training and is never selected (DAUB's rungs and its race
  of the folds, GP-UCB's looks and first looks);
- **best**: the score of the candidate the search would select from the
  evaluations used so far, and its id; until the search would select one
  (DAUB's, before a learner reaches all the rows), the **leader**: the
  candidate with the best score at the largest resource an evaluation used
  has reached, its id, score and resource;
- seconds since the start of the search.

:class:`Progress` prints

- at ``verbose >= 1``, a header (the search, its candidates, folds and
  budget) and a final line (evaluations used, speculative and dropped, time,
  why the search stopped, the selected candidate and its score); between
  them a tqdm bar where tqdm is installed (``pip install sksel[progress]``;
  ``tqdm.auto`` draws it in a terminal or in Jupyter), otherwise a plain
  status line every few seconds; both count the evaluations used against
  those planned (at most that many, where the search may stop early) and
  estimate the time left; where the search plans no count (DAUB's, which
  stops once a candidate reaches N), they count without a total and give no
  time left;
- at ``verbose >= 2``, one line per evaluation instead of the bar: its count
  of evaluations used (``used 3/<=8``; a look on a subsample, which does not
  count, shows ``look`` and the number of looks so far, ``look 5``), the candidate's name
  (:class:`~sksel._core.naming.CandidateNames`, the ``candidate_name`` of its
  rows in ``cv_results_``), its resource in the search's unit (where it
  varies: ``rows=``, ``sub-trains=``), its mean test score, the folds the
  search used of it (``folds=1/5``: DAUB's curves below N, a race ended
  early), any column the policy adds (DAUB's bound, GP-UCB's looks), the
  marks ``dropped`` and ``speculative``, the best so far and the seconds
  since the start. A line is printed once the search uses its evaluation, or
  at once where the search will use it whatever comes; the line of an
  evaluation a free worker ran ahead waits for the search to reach it, and
  the lines of those it never reached come last, marked ``speculative``.
  A candidate dropped after the evaluations of others (at the end of a
  DAUB rung) gets a line of its own. The first line that shows a term of
  the glossary says where it is defined. The lines read as a table: each
  column is as wide as its widest entry so far, or as what is known at the
  start needs (the longest name of the candidates then; a longer one, a
  mutant's, widens it from then on; the largest resource the search allows);
- at ``verbose >= 3``, also sklearn's ``[CV]`` line of every fit (the search
  passes the level on to ``_fit_and_score``; fits on joblib worker processes
  print in those processes).
"""

import sys
import time
from typing import NamedTuple

from .naming import counted
from .run import Listener

_STATUS_EVERY_S = 5.0

#: The glossary's term of each column or mark a ``verbose=2`` line may show.
_TERMS = {"used": "used", "bound": "bound", "first look": "first look",
          "look": "look on a subsample", "speculative": "speculative evaluation",
          "dropped": "dropped"}
#: Where a ``verbose=2`` line sends its reader: installed with sksel, unlike doc/.
_GLOSSARY = 'the glossary, help("sksel.glossary")'


def _tqdm():
    """``tqdm.auto.tqdm``, or None where tqdm is not installed."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm


class ProgressBudget(NamedTuple):
    """What a search's header says of its budget (its ``_progress_budget``).

    Attributes
    ----------
    planned : int or None
        Evaluations the budget allows, or None when unknown.
    exact : bool
        Whether `planned` evaluations will run (else at most that many).
    words : str
        How the budget reads in the header.
    head : str or None
        What the header says of the candidates; None: their count.
    """

    planned: object
    exact: bool
    words: str
    head: object = None


class Progress(Listener):
    """Print a search's progress at its `verbose` level (see the module).

    A listener of the fit (:class:`~sksel._core.run.Listener`): it opens with
    the engine, takes in every evaluation told, reports it once the policy
    uses it, and closes with the engine.

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
    head : str or None, default=None
        What the header says of the candidates; None: their count
        (``"12 candidates"``).
    unit : str or None, default=None
        The word of a resource (``"rows"``, ``"sub-trains"``), where the
        resource of an evaluation varies; None: the lines show none.
    max_resource : int or None, default=None
        The largest resource of an evaluation, where the search knows it
        before it runs: the width of the resource column from the first line.
    policy : Policy or None, default=None
        The search's policy (:mod:`sksel._core.policy`): which evaluations it
        uses (``will_use``, ``decisions_``), which count (``counts``), the
        folds it used (``folds_used_``), who leads (``leader``), who is
        dropped (``dropped_``) and the columns a line adds (``describe``).
        None: every evaluation told is used at once and counts, the best is
        the best told, and nothing is dropped.
    file : file-like or None
        Where lines go; None is ``sys.stdout`` at the time of printing.
    """

    def __init__(self, verbose, search, names, *, n_candidates, n_splits, planned=None,
                 exact=True, budget="", head=None, unit=None, max_resource=None, policy=None,
                 file=None):
        self.verbose = verbose
        self.search = search
        self.names = names
        self.n_candidates = n_candidates
        self.n_splits = n_splits
        self.planned = planned
        self.exact = exact
        self.budget = budget
        self.head = head
        self.unit = unit
        self.max_resource = max_resource
        self.policy = policy
        self.file = file
        self._explained = set()
        self.n_done = 0
        self.n_other = 0  # evaluations used that do not count against `planned`
        self.best = None  # (score, candidate, resource)
        self._scores = {}  # {(candidate, resource): the scorer's mean score told}
        self.front = None  # (resource, score, candidate): the leader where `best` is None
        self._held = {}  # action -> (score, folds run, seconds) of evaluations not used yet
        self._n_reported = 0  # decisions of the policy looked at so far
        self._dropped = set()
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

    def _line(self, candidate, resource, score, extra, elapsed, n_folds=None, marks=(),
              counts=True):
        """The ``verbose=2`` line of one evaluation, its columns padded as a table's.

        The resource is left out where the search gives every evaluation
        the same (no `unit`); the first line showing a term of
        :data:`_TERMS` ends by saying where the glossary defines it. An
        evaluation used that does not `count` against those planned (a look
        on a subsample) shows the number of such evaluations so far, after
        ``look``, not the count of those that do.
        """
        cells = [] if self.unit is None else [
            self._cell("resource", f"{self.unit}={resource}")]
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
        cells.extend(marks)
        cells.append(self._cell("best", self._best_cell()))
        # A speculative evaluation counts for nothing: no count.
        if "speculative" in marks:
            head, count = "    ", ""
        elif not counts:
            head, count = "look", f"{self.n_other}"
        else:
            head, count = "used", self._count()
        shown = [*(["used"] if head == "used" else []), *(extra or {}), *marks]
        return (f"{head} {self._cell('count', count, '>')} "
                f"{self._cell('name', self.names(candidate))} "
                + "  ".join(cells) + f"  ({elapsed:.1f}s){self._terms(shown)}")

    def _terms(self, shown):
        """``"  [term: see the glossary]"`` for the terms of `shown` not explained yet."""
        new = [_TERMS[key] for key in shown if key in _TERMS and _TERMS[key] not in self._explained]
        self._explained.update(new)
        return f"  [{', '.join(new)}: see {_GLOSSARY}]" if new else ""

    def _best_cell(self):
        if self.best is not None:
            return f"best={self.best[0]:.4f} #{self.best[1]}"
        if self.front is not None:
            resource, score, candidate = self.front
            at = "" if self.unit is None else f" @{resource} {self.unit}"
            return f"leader=#{candidate} {score:.4f}{at}"
        return "best=none yet"

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
        if self.best is not None:
            score, candidate, resource = self.best
            return f"best {score:.4f} {self.names(candidate)}{self._at(resource)}"
        if self.front is not None:
            resource, score, candidate = self.front
            return f"leader {score:.4f} {self.names(candidate)}{self._at(resource)}"
        return "best: none yet"

    def _at(self, resource):
        """``" at rows=200"``, or nothing where every evaluation has the same resource."""
        return "" if self.unit is None else f" at {self.unit}={resource}"

    # ------------------------------------------------------------------ events
    def on_start(self):
        self.start()

    def on_told(self, action, outputs, score):
        """Report `action` where the policy uses it, or will; else hold it until it does."""
        self._held[action] = (score, len(outputs))
        if self.policy is None or self.policy.will_use(action):
            self._report(action, self._held.pop(action))
        self._report_used()

    def on_end(self):
        self.stop()

    def _report_used(self):
        """Report the held evaluations the policy has used since, in the order it used them."""
        if self.policy is None:
            return
        decisions = self.policy.decisions_
        for action in decisions[self._n_reported:]:
            if action in self._held:
                self._report(action, self._held.pop(action))
        self._n_reported = len(decisions)
        self._report_dropped()

    def _report(self, action, told, speculative=False):
        """Count `action`, used unless `speculative`, and print its line at ``verbose >= 2``."""
        score, n_folds = told
        if not speculative and self.policy is not None:
            n_folds = self.policy.folds_used_.get(action, n_folds)
        counted = not speculative and (self.policy is None or self.policy.counts(action))
        self.n_done += counted
        self.n_other += not counted and not speculative
        self._update_best(*action, score, speculative)
        marks = ("speculative",) if speculative else ()
        if not speculative and self.policy is not None and (
                action in self.policy.folds_used_ or self._newly_dropped(action[0])):
            marks = ("dropped",)
            self._dropped.add(action[0])
        self.evaluation(*action, score, self._describe(action), n_folds=n_folds, marks=marks,
                        counts=counted or speculative)

    def _update_best(self, candidate, resource, score, speculative):
        if speculative:
            return
        self._scores[candidate, resource] = float(score)
        if score == score and (self.front is None or (resource, score) > self.front[:2]):
            self.front = (resource, float(score), candidate)
        if self.policy is None:
            if self.best is None or score > self.best[0]:
                self.best = (float(score), candidate, resource)
            return
        leader = self.policy.leader()
        # The policy's score may be on its own scale (an error mapped): the scorer's is shown.
        self.best = None if leader is None else (
            self._scores.get((leader[1], leader[2]), leader[0]), *leader[1:])

    def _describe(self, action):
        if self.verbose < 2 or self.policy is None:
            return None
        return self.policy.describe(*action)

    def _newly_dropped(self, candidate):
        return candidate in self.policy.dropped_ and candidate not in self._dropped

    def _report_dropped(self):
        """A line naming the candidates dropped since the last line, where they have none."""
        dropped = [c for c in self.policy.dropped_ if c not in self._dropped]
        if not dropped:
            return
        self._dropped.update(dropped)
        if self.verbose >= 2 and self._bar is None:
            names = ", ".join(self.names(c) for c in sorted(dropped))
            elapsed = time.perf_counter() - self._start
            self._print(f"{'':>{5 + self._widths.get('count', 0)}} dropped {names}  "
                        f"({elapsed:.1f}s){self._terms(['dropped'])}")

    def start(self):
        """Print the header; open the bar at ``verbose == 1`` where tqdm is installed."""
        self._start = self._last_status = time.perf_counter()
        if self.verbose < 1:
            return
        head = self.head or counted(self.n_candidates, "candidate")
        self._print(f"{head}, {self.n_splits}-fold cv; {self.budget}")
        tqdm = _tqdm() if self.verbose == 1 else None
        if tqdm is not None:
            # Where the search may stop early, the total is at most that many.
            desc = self.search if self.exact or self.planned is None else (
                f"{self.search} (at most)")
            self._bar = tqdm(total=self.planned, desc=desc, unit="eval", file=self.file,
                             dynamic_ncols=True)
        elif self.verbose >= 2:
            # Where nothing is planned, as wide as three digits from the start.
            self._widths = {"count": len(self._count(self.planned or 100)),
                            "name": max((len(self.names(c)) for c in range(self.n_candidates)),
                                         default=0),
                            "best": len(f"best=0.0000 #{max(self.n_candidates - 1, 0)}")}
            if self.unit is not None and self.max_resource is not None:
                self._widths["resource"] = len(f"{self.unit}={self.max_resource}")

    def evaluation(self, candidate, resource, score, extra=None, n_folds=None, marks=(),
                   counts=True):
        """Print, at the `verbose` level, one evaluation counted: its mean test `score`, `extra`
        columns, the `n_folds` used and `marks` (``"dropped"``, ``"speculative"``); whether
        it `counts` against the evaluations planned (a look on a subsample does not)."""
        if self.verbose < 1:
            return
        now = time.perf_counter()
        if self._bar is not None:
            if self._bar.postfix != self._best():
                self._bar.set_postfix_str(self._best(), refresh=False)
            self._bar.update(self.n_done - self._bar.n)
        elif self.verbose >= 2:
            self._print(self._line(candidate, resource, score, extra, now - self._start, n_folds,
                                   marks, counts))
        elif "speculative" not in marks and (self.n_done + self.n_other == 1
                                             or now - self._last_status >= _STATUS_EVERY_S):
            self._last_status = now
            count = self._count()
            self._print(f"{count} evaluation{'' if count == '1' else 's'} used, "
                        f"{now - self._start:.1f}s"
                        f"{self._time_left(now)}, {self._best()}")

    def stop(self):
        """Report the evaluations never used, as speculative; close the bar, if any: the search
        has ended, or failed."""
        self._end = time.perf_counter()
        if self.policy is not None:
            self._report_used()
        self.n_speculative = len(self._held)
        for action, told in self._held.items():
            self._report(action, told, speculative=True)
        self._held = {}
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def close(self, stop_reason, best=None):
        """Print the final line, naming `best` ``(candidate, resource, score)``."""
        if self.verbose < 1:
            return
        others = [f"{n} {one if n == 1 else many}" for n, one, many in (
            (self.n_other, "look on a subsample", "looks on a subsample"),
            (self.n_speculative, "speculative, not used", "speculative, not used"),
            (len(self._dropped), "candidate dropped", "candidates dropped"),
        ) if n]
        others = f" ({'; '.join(others)})" if others else ""
        line = (f"done: {counted(self.n_done, 'evaluation')} used{others} in "
                f"{self._end - self._start:.1f}s (stopped: {stop_reason})")
        if best is not None:
            candidate, resource, score = best
            line += f"; selected {self.names(candidate)}{self._at(resource)}, score {score:.4f}"
            line += self._over_a_higher_score(candidate, resource, score)
        self._print(line)

    def _over_a_higher_score(self, candidate, resource, score):
        """Why the selection passed over a higher score the progress showed as best, at less
        training: ``""`` where it did not; with what the policy predicted of it fully trained,
        where it predicts."""
        if self.best is None or self.best[1] == candidate or not self.best[0] > score:
            return ""
        other, at = self.best[1], self.best[2]
        if self.unit is None or not at < resource:
            return ""
        predicted = None if self.policy is None else self.policy.predicted(other)
        words = "" if predicted is None else f", predicted {predicted:.4f} fully trained"
        return (f", over {self.names(other)}'s higher {self.best[0]:.4f} at {self.unit}={at}, "
                f"less training{words}")
