"""Where MutantUCBSearch's time goes, against RandomizedSearchCV at equal training.

Three tasks on 6,000 rows x 40 features (``make_classification``, 4 classes;
2 for the booster, which grows a tree per class and iteration), ``cv=3``: a
scaled MLPClassifier (a sub-train is one epoch), a scaled SGDClassifier (one
``partial_fit`` pass) and a HistGradientBoostingClassifier (10 boosting
iterations). :class:`sksel.MutantUCBSearch` gets ``budget=120``
sub-trains with ``max_subtrains=6``; RandomizedSearchCV fits 20 configurations
of the same space trained 6 units each in one plain fit: the same 120 units of
training per fold.

For every task and ``n_jobs`` the two searches run interleaved in this
process, ``--repeats`` times each; the table gives the best wall and CPU
seconds of each (the CPU of this process: with ``n_jobs=2`` the workers' CPU
is not in it) and their ratios, and the best score of each (the same seed
gives the same Mutant-UCB results in every ``n_jobs=1`` run). The floor of
issue 31 is a wall ratio of at most 1.2.

Then, at ``n_jobs=1``, the breakdown of one Mutant-UCB search by what runs
(process time, seconds and share), measured by wrapping the functions that
do each part:

- ``train``: the sub-trains themselves (``Subtrainer.first`` and ``next``),
  of which ``partial_fit's checks`` is the input validation that every
  ``partial_fit`` call of an MLP repeats (``_validate_input``);
- ``score``: scoring every fold after every sub-train;
- ``task``: building the tasks (the estimator, the state taken out);
- ``split``: cutting the fold's rows out of ``X`` and ``y``;
- ``state copy``: copying a parent's model for its mutant;
- ``refit``: the selected model's lineage replayed on all rows;
- ``engine``: the rest of the fit: the engine, the policy, the results.

``state round trip`` is what sending each task's model to a worker process
and back would cost (pickled and unpickled both ways, as loky does; measured
beside the run, not part of it): it is what ``n_jobs=2`` adds per task.
RandomizedSearchCV's parts follow, as its ``cv_results_`` (fit and score
times) and ``refit_time_`` give them, in wall seconds. Last, per task, the
cost of continuing a model by itself: random search's 20 configurations
trained 6 units each by one plain fit and by 6 sub-trains (process seconds,
no scoring); and the cost of the configurations each search chose: plain fits
of Mutant-UCB's models for the units each trained, against random search's,
the same units in all. ``--unit-scale k`` gives both searches sub-trains of
``k`` times each task's unit (random search trains ``6 k`` units).

Run it on an otherwise idle machine where possible (the wall times of
``n_jobs=2`` depend on it), single-threaded BLAS and OpenMP::

    python -m benchmarks bench_mutant_ucb_walltime                  # ~15 minutes on 2 cores
    python -m benchmarks bench_mutant_ucb_walltime --tasks mlp --n-jobs 1 --repeats 5
    python -m benchmarks bench_mutant_ucb_walltime --unit-scale 3 --no-breakdown
"""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before numpy and the OpenMP learners load

import argparse  # noqa: E402
import importlib  # noqa: E402
import pickle  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from contextlib import ExitStack, contextmanager  # noqa: E402

import numpy as np  # noqa: E402
from scipy import stats  # noqa: E402
from sklearn.datasets import make_classification  # noqa: E402
from sklearn.ensemble import HistGradientBoostingClassifier  # noqa: E402
from sklearn.linear_model import SGDClassifier  # noqa: E402
from sklearn.model_selection import RandomizedSearchCV  # noqa: E402
from sklearn.neural_network import MLPClassifier  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from benchmarks._harness import timed_fit  # noqa: E402
from sksel import MutantUCBSearch  # noqa: E402
from sksel.training import ContinuedTrainer, Subtrainer  # noqa: E402

# The module of ContinuedTrainer's tasks, whose functions the breakdown wraps (the
# attribute ``sksel.training.continued`` is the function of that name, not the module).
continued = importlib.import_module("sksel.training.continued")

BUDGET, MAX_SUBTRAINS, CV = 120, 6, 3


def _mlp():
    space = {"hidden_layer_sizes": [(32,), (64,), (128,), (64, 32)],
             "alpha": stats.loguniform(1e-6, 1e-2),
             "learning_rate_init": stats.loguniform(1e-4, 3e-2),
             "batch_size": [64, 128, 256]}
    return (make_pipeline(StandardScaler(), MLPClassifier(random_state=0)),
            {f"mlpclassifier__{k}": v for k, v in space.items()}, "mlpclassifier__max_iter", 1)


def _sgd():
    space = {"loss": ["log_loss", "hinge", "modified_huber"],
             "alpha": stats.loguniform(1e-7, 1e-1),
             "penalty": ["l2", "l1", "elasticnet"],
             "learning_rate": ["optimal", "adaptive", "invscaling"],
             "eta0": stats.loguniform(1e-4, 1.0)}
    return (make_pipeline(StandardScaler(), SGDClassifier(tol=None, random_state=0)),
            {f"sgdclassifier__{k}": v for k, v in space.items()}, "sgdclassifier__max_iter", 1)


def _hgb():
    space = {"learning_rate": stats.loguniform(0.01, 0.5),
             "max_leaf_nodes": [7, 15, 31, 63],
             "min_samples_leaf": [5, 20, 50, 100],
             "l2_regularization": stats.loguniform(1e-4, 10)}
    return (HistGradientBoostingClassifier(early_stopping=False, random_state=0), space,
            "max_iter", 10)


TASKS = {"mlp": _mlp, "sgd": _sgd, "hgb": _hgb}

#: Units per sub-train, as a multiple of each task's own (``--unit-scale``), for both searches.
UNIT_SCALE = 1


def _task(task):
    """``(estimator, space, length parameter, unit)`` of `task`, its unit scaled."""
    estimator, space, length, unit = TASKS[task]()
    return estimator, space, length, unit * UNIT_SCALE


def _data(task):
    return make_classification(6000, 40, n_informative=20, n_classes=2 if task == "hgb" else 4,
                               random_state=0)


def _mutant_ucb(task, n_jobs, seed, score_share=1.0):
    estimator, space, _, unit = _task(task)
    return MutantUCBSearch(estimator, space, budget=BUDGET, max_subtrains=MAX_SUBTRAINS,
                           unit=unit, cv=CV, n_jobs=n_jobs, random_state=seed,
                           score_share=score_share)


def _random(task, n_jobs, seed):
    estimator, space, length, unit = _task(task)
    estimator.set_params(**{length: MAX_SUBTRAINS * unit})
    return RandomizedSearchCV(estimator, space, n_iter=BUDGET // MAX_SUBTRAINS, cv=CV,
                              n_jobs=n_jobs, random_state=seed)


def compare(tasks, n_jobs_list, repeats, seed, score_share):
    """Best wall and CPU seconds of both searches, interleaved, per task and n_jobs."""
    print(f"{'task':<5} {'n_jobs':>6} {'mucb wall':>9} {'rs wall':>8} {'ratio':>6} "
          f"{'mucb cpu':>9} {'rs cpu':>7} {'ratio':>6} {'mucb best':>9} {'rs best':>8}")
    for task in tasks:
        X, y = _data(task)
        for n_jobs in n_jobs_list:
            times = {"mucb": [], "rs": []}
            for _ in range(repeats):
                for name, make in (("mucb", _mutant_ucb), ("rs", _random)):
                    search = (_mutant_ucb(task, n_jobs, seed, score_share) if name == "mucb"
                              else make(task, n_jobs, seed))
                    fit = timed_fit(search, X, y)
                    times[name].append((fit.wall, fit.cpu))
                    times[name + "_score"] = search.best_score_
            (mw, mc), (rw, rc) = (np.min(times[name], axis=0) for name in ("mucb", "rs"))
            print(f"{task:<5} {n_jobs:>6} {mw:9.2f} {rw:8.2f} {mw / rw:6.2f} {mc:9.2f} "
                  f"{rc:7.2f} {mc / rc:6.2f} {times['mucb_score']:9.4f} "
                  f"{times['rs_score']:8.4f}", flush=True)


class _Clock:
    """Process time spent in the wrapped functions, by part.

    Re-entrant calls count once, and the refit counts as a whole (the
    sub-trains it replays are not counted as ``train``).
    """

    def __init__(self):
        self.seconds, self.calls, self._inside = {}, {}, set()

    @contextmanager
    def wrapping(self, owner, name, part):
        original = getattr(owner, name)

        def timed(*args, **kwargs):
            if part in self._inside or "refit" in self._inside:
                return original(*args, **kwargs)
            self._inside.add(part)
            start = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                self._inside.discard(part)
                self.seconds[part] = self.seconds.get(part, 0.0) + time.process_time() - start
                self.calls[part] = self.calls.get(part, 0) + 1

        setattr(owner, name, timed)
        try:
            yield
        finally:
            setattr(owner, name, original)


def _round_trip_seconds(clock):
    """Wrap the task function: time pickling its model in and out, beside the run."""
    original = continued._subtrain_and_score

    def measured(model, *args, **kwargs):
        out = original(model, *args, **kwargs)
        start = time.process_time()
        for state in (model, out.get("model")):
            if state is not None:
                pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
        clock.seconds["state round trip"] = (clock.seconds.get("state round trip", 0.0)
                                             + time.process_time() - start)
        return out

    return measured


def breakdown(task, seed, score_share):
    """Process seconds of one Mutant-UCB search at n_jobs=1, by part; and of random search's."""
    clock = _Clock()
    X, y = _data(task)
    search = _mutant_ucb(task, 1, seed, score_share)
    with ExitStack() as stack:
        for owner, name, part in (
                (Subtrainer, "first", "train"), (Subtrainer, "next", "train"),
                (MLPClassifier, "_validate_input", "partial_fit's checks"),
                (continued, "_score", "score"), (ContinuedTrainer, "task", "task"),
                (ContinuedTrainer, "prepare", "task"), (continued, "_safe_split", "split"),
                (continued, "deepcopy", "state copy"), (MutantUCBSearch, "_refit", "refit")):
            stack.enter_context(clock.wrapping(owner, name, part))
        stack.callback(setattr, continued, "_subtrain_and_score",
                       continued._subtrain_and_score)
        continued._subtrain_and_score = _round_trip_seconds(clock)
        start = time.process_time()
        search.fit(X, y)
        elapsed = time.process_time() - start
    parts = dict(clock.seconds)
    round_trip = parts.pop("state round trip", 0.0)
    total = elapsed - round_trip
    refit = parts.pop("refit", 0.0)
    inside = sum(v for k, v in parts.items() if k != "partial_fit's checks")
    parts["engine"] = total - refit - inside
    parts["refit"] = refit
    n_tasks = len(search.all_cv_results_["params"]) * CV
    print(f"\n{task}: MutantUCBSearch, n_jobs=1, {n_tasks} tasks (sub-train + score of one "
          f"fold), process seconds {total:.2f}")
    for part in ("train", "partial_fit's checks", "score", "task", "split", "state copy",
                 "engine", "refit"):
        if part in parts:
            indent = "  " if part == "partial_fit's checks" else ""
            print(f"  {indent + part:<24} {parts[part]:7.3f}  {100 * parts[part] / total:5.1f}%"
                  f"  {1e3 * parts[part] / n_tasks:6.2f} ms/task")
    print(f"  {'(state round trip)':<24} {round_trip:7.3f}  {100 * round_trip / total:5.1f}%"
          f"  {1e3 * round_trip / n_tasks:6.2f} ms/task   pickled in and out, as a "
          "worker process would")
    rs = _random(task, 1, seed)
    start = time.process_time()
    rs.fit(X, y)
    total = time.process_time() - start
    results = rs.cv_results_
    fit = float(np.sum(results["mean_fit_time"]) * CV)
    score = float(np.sum(results["mean_score_time"]) * CV)
    print(f"{task}: RandomizedSearchCV, n_jobs=1, {len(results['params']) * CV} fits, "
          f"process seconds {total:.2f}; wall seconds of its fits {fit:.2f}, scores "
          f"{score:.2f}, refit {rs.refit_time_:.2f}")


def per_call_cost(task, seed):
    """Process seconds of random search's configurations trained by sub-trains, and in one fit.

    The same 20 configurations on the same rows (the first two thirds),
    6 units each: one plain fit of 6 units, or 6 sub-trains of one unit, with
    no scoring in between: what continuing a model costs by itself.
    """
    from sklearn.base import clone
    from sklearn.model_selection import ParameterSampler

    from sksel.training import subtrain_kind

    estimator, space, length, unit = _task(task)
    X, y = _data(task)
    X, y = X[: len(X) * 2 // 3], y[: len(y) * 2 // 3]
    subtrainer = Subtrainer(subtrain_kind(estimator), unit, classes=np.unique(y))
    plain = continued = 0.0
    for params in ParameterSampler(space, BUDGET // MAX_SUBTRAINS, random_state=seed):
        start = time.process_time()
        clone(estimator).set_params(**params, **{length: MAX_SUBTRAINS * unit}).fit(X, y)
        plain += time.process_time() - start
        start = time.process_time()
        model = subtrainer.first(clone(estimator).set_params(**params), X, y)
        for _ in range(MAX_SUBTRAINS - 1):
            model = subtrainer.next(model, X, y)
        continued += time.process_time() - start
    print(f"{task}: the same {BUDGET // MAX_SUBTRAINS} configurations, {MAX_SUBTRAINS} units "
          f"each: one plain fit {plain:.2f} s, {MAX_SUBTRAINS} sub-trains {continued:.2f} s "
          f"({continued / plain:.2f}x)")


def chosen_cost(task, seed):
    """Process seconds of plain fits of the configurations each search trained, as long.

    Mutant-UCB's models (each for the units it trained itself) and random
    search's 20 (6 units each), one plain fit each on the first two thirds of
    the rows: the same units in all, but not the same configurations, and
    some cost more per unit (larger networks, more leaves).
    """
    from sklearn.base import clone

    estimator, _, length, unit = _task(task)
    X, y = _data(task)
    rows = slice(0, len(X) * 2 // 3)

    def seconds(results, units):
        total = 0.0
        for params, n in zip(results["params"], units):
            model = clone(estimator).set_params(
                **{k: v for k, v in params.items() if k != length}, **{length: int(n) * unit})
            start = time.process_time()
            model.fit(X[rows], y[rows])
            total += time.process_time() - start
        return total

    mucb = _mutant_ucb(task, 1, seed).fit(X, y).cv_results_
    rs = _random(task, 1, seed).fit(X, y).cv_results_
    ours = seconds(mucb, mucb["n_resources"])
    theirs = seconds(rs, [MAX_SUBTRAINS] * len(rs["params"]))
    print(f"{task}: plain fits of the configurations trained, {int(mucb['n_resources'].sum())} "
          f"units each search: Mutant-UCB's {ours:.2f} s, random search's {theirs:.2f} s "
          f"({ours / theirs:.2f}x)")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", nargs="+", choices=list(TASKS), default=list(TASKS))
    parser.add_argument("--n-jobs", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-breakdown", action="store_true")
    parser.add_argument("--score-share", type=float, default=1.0,
                        help="MutantUCBSearch's score_share")
    parser.add_argument("--unit-scale", type=int, default=1,
                        help="units per sub-train, as a multiple of each task's own")
    args = parser.parse_args(argv)
    global UNIT_SCALE
    UNIT_SCALE = args.unit_scale
    warnings.simplefilter("ignore")
    print(f"{time.strftime('%Y-%m-%d')}, load average {os.getloadavg()[0]:.1f}; "
          f"MutantUCBSearch budget {BUDGET}, max_subtrains {MAX_SUBTRAINS} against "
          f"RandomizedSearchCV of {BUDGET // MAX_SUBTRAINS} models x {MAX_SUBTRAINS} units, "
          f"cv={CV}, best of {args.repeats}, interleaved")
    with threadpool_limits(1):
        compare(args.tasks, args.n_jobs, args.repeats, args.seed, args.score_share)
        if not args.no_breakdown:
            for task in args.tasks:
                breakdown(task, args.seed, args.score_share)
                per_call_cost(task, args.seed)
                chosen_cost(task, args.seed)


if __name__ == "__main__":
    main()
