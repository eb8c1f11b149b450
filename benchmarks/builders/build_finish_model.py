"""Fit the model of a training's finish (``sksel.curves.finish_model``) on recorded curves.

The curves are ``benchmarks/data/training_curves.csv``
(``record_training_curves.py``): the validation score of every
configuration, fold and unit of training. Per configuration, the score of a
length is the mean over its folds (as a search's evaluation is); a
configuration with a missing score is left out. A curve of ``L`` units read
as a search of ``N`` sub-trains (``N`` in ``GRIDS``, its full training
``L`` or ``L / 2`` units) gives, at every sub-train ``t < N``, the features
of its scores at ``t`` and at the sub-train before it (``t - 1``, as one
sub-train a pull reads it, and ``t / 2``, as a doubling pull does; the first
sub-train with no slope) and the finish, its score at ``N`` less its score at
``t``. The model is fitted on the tune half (one fit per kind of score:
accuracy for the classifiers, R² for the regressors), every table weighted
alike; ``--report`` prints, on the other halves, by family and table:

* the mean absolute error of the predicted final score, against the last
  score taken as final (the paper's ``reward="last"``);
* the coverage of the model's central 80% interval and of its 90% upper
  bound (calibrated: 0.80 and 0.90);
* the rank correlation (Spearman) of the configurations' predicted final
  scores with their final scores at a quarter of the training, against
  that of their last scores.

``--write`` writes ``sksel/data/finish_model*.csv``::

    python -m benchmarks build_finish_model --report
    python -m benchmarks build_finish_model --write
"""
import argparse
import os

import numpy as np
import pandas as pd
from scipy.stats import spearmanr

from sksel.curves.finish_model import (
    FEATURES,
    MEAN_TERMS,
    SCALE_TERMS,
    FinishModel,
    finish_features,
    level,
    score_of,
    shipped_file,
)
from sksel.curves.gap_model import KINDS

HERE = os.path.dirname(os.path.abspath(__file__))
CURVES = os.path.join(HERE, "..", "data", "training_curves.csv")
TASKS = os.path.join(HERE, "..", "data", "training_curves_tasks.csv")
DATA = os.path.join(HERE, "..", "..", "sksel", "data")
#: ``(sub-trains N, share of the recorded length trained fully)`` a curve is read as.
GRIDS = ((10, 1.0), (6, 1.0), (10, 0.5))
KIND = {"classification": "accuracy", "regression": "r2"}
N_RESIDUALS = 201


def mean_curves(curves):
    """``{(family, table): (units, scores of shape (configs, lengths))}``: fold means."""
    out = {}
    for (family, table), rows in curves.groupby(["family", "table"]):
        table_ = rows.pivot_table(index="config", columns="units", values="score",
                                  aggfunc="mean", dropna=False)
        folds = rows.groupby(["config", "units"])["score"].count().unstack()
        complete = folds.eq(folds.max().max()).all(axis=1) & table_.notna().all(axis=1)
        table_ = table_[complete]
        if len(table_):
            out[family, table] = (np.asarray(table_.columns), table_.to_numpy())
    return out


def grid_of(units, n_subtrains, share):
    """The columns of a curve that are sub-trains ``1 .. N`` of a search of `N`."""
    length = int(round(len(units) * share))
    return np.unique(np.clip(np.round(np.arange(1, n_subtrains + 1) * length / n_subtrains)
                             .astype(int) - 1, 0, length - 1))


def examples(scores, n_validation, kind):
    """``(features, finishes, t, N)`` of every curve of `scores`, at every sub-train and
    previous sub-train of every grid."""
    rows = []
    for n_subtrains, share in GRIDS:
        columns = grid_of(np.arange(scores.shape[1]), n_subtrains, share)
        n = len(columns)
        for curve in np.maximum(scores, KINDS[kind]):  # a diverged R² counts as -1
            at = curve[columns]
            for t in range(1, n):
                for previous in sorted({t - 1, t // 2} - {0}) or [None]:
                    lengths = [t] if previous is None else [previous, t]
                    told = [at[t - 1]] if previous is None else [at[previous - 1], at[t - 1]]
                    features = finish_features(told, lengths, n, n_validation, kind)
                    rows.append((features, level(at[n - 1]) - level(at[t - 1]), t, n))
    features, finishes, ts, ns = zip(*rows)
    return np.array(features), np.array(finishes), np.array(ts), np.array(ns)


def table_weights(groups):
    """Weights that give every table the same total."""
    groups = np.asarray(groups)
    counts = pd.Series(groups).map(pd.Series(groups).value_counts()).to_numpy()
    return 1.0 / counts


def tune_examples(curves, tasks, kind):
    """``(features, finishes, groups)`` of the tune half's curves of `kind`, grouped by
    task (family and table)."""
    feats, finishes, groups = [], [], []
    for (family, table), (_, scores) in curves.items():
        task = tasks.loc[(family, table)]
        if task["half"] != "tune" or KIND[task["kind"]] != kind:
            continue
        f, d, _, _ = examples(scores, int(task["rows"]), kind)
        feats.append(f)
        finishes.append(d)
        groups += [f"{family}:{table}"] * len(d)
    return np.vstack(feats), np.concatenate(finishes), np.array(groups)


def fit_weighted(features, finishes, groups, n_residuals=None, kind="accuracy"):
    """:meth:`FinishModel.fit` with every task alike: each task's rows resampled to the
    same total."""
    weights = table_weights(groups)
    rng = np.random.RandomState(0)
    rows = rng.choice(len(finishes), size=len(finishes), p=weights / weights.sum())
    return FinishModel.fit(features[rows], finishes[rows], n_residuals=n_residuals, kind=kind)


def fit(curves, tasks, kind):
    """The model fitted on the tune half, its residual law that of the tasks left out.

    The mean and the scale are fitted on every task of the tune half; the
    standardized residuals shipped are those of each task predicted by the
    model fitted on the other tasks (leave one task out), every task alike,
    so that the spread is calibrated for a task the model has not seen.
    """
    features, finishes, groups = tune_examples(curves, tasks, kind)
    model = fit_weighted(features, finishes, groups, kind=kind)
    held_out = []
    for group in np.unique(groups):
        inside = groups != group
        other = fit_weighted(features[inside], finishes[inside], groups[inside], kind=kind)
        left = ~inside & (features[:, FEATURES.index("doublings")] > 0)
        mean, scale = other.finish(features[left])
        z = (finishes[left] - mean) / scale
        held_out.append(np.quantile(z, np.linspace(0, 1, N_RESIDUALS)))
    model.residuals = np.sort(np.concatenate(held_out))
    model.residuals = np.quantile(model.residuals, np.linspace(0, 1, N_RESIDUALS))
    return model


def report(model, curves, tasks, kind):
    lines = []
    for (family, table), (_, scores) in sorted(curves.items()):
        task = tasks.loc[(family, table)]
        if task["half"] == "tune" or KIND[task["kind"]] != kind:
            continue
        features, finishes, ts, ns = examples(scores, int(task["rows"]), kind)
        predicted = model.predict(features)
        last = score_of(features[:, 0])
        final = score_of(features[:, 0] + finishes)
        low, high = model.quantile(features, 0.1), model.quantile(features, 0.9)
        early = (ns == 10) & (ts == 2) & (features[:, FEATURES.index("has_slope")] == 1)
        ranks = []
        for start in range(0, early.sum(), len(scores)):
            rows = np.flatnonzero(early)[start:start + len(scores)]
            ranks.append((spearmanr(predicted[rows], final[rows])[0],
                          spearmanr(last[rows], final[rows])[0]))
        ranks = np.nanmean(np.array(ranks, dtype=float), axis=0)
        lines.append(dict(
            family=family, table=table, half=task["half"], configs=len(scores),
            mae_model=np.mean(np.abs(predicted - final)),
            mae_last=np.mean(np.abs(last - final)),
            cover80=np.mean((final >= low) & (final <= high)),
            cover90_upper=np.mean(final <= high),
            rank_model=ranks[0], rank_last=ranks[1],
        ))
    table = pd.DataFrame(lines)
    with pd.option_context("display.width", 200, "display.precision", 3):
        print(table.to_string(index=False))
        print(table.select_dtypes("number").mean().to_string())


def write(model, kind):
    coef = [("mean", term, c) for term, c in zip(MEAN_TERMS, model.mean_coef)]
    coef += [("log_scale", term, c) for term, c in zip(SCALE_TERMS, model.scale_coef)]
    pd.DataFrame(coef, columns=["part", "term", "coef"]).to_csv(
        os.path.join(DATA, shipped_file("finish_model.csv", kind)), index=False,
        float_format="%.6g")
    pd.DataFrame({"z": model.residuals}).to_csv(
        os.path.join(DATA, shipped_file("finish_model_residuals.csv", kind)), index=False,
        float_format="%.5g")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--report", action="store_true")
    parser.add_argument("--kinds", nargs="+", default=list(KIND.values()))
    args = parser.parse_args(argv)
    curves = mean_curves(pd.read_csv(CURVES))
    tasks = pd.read_csv(TASKS).set_index(["family", "table"])
    for kind in args.kinds:
        model = fit(curves, tasks, kind)
        print(f"{kind}: mean {dict(zip(MEAN_TERMS, model.mean_coef.round(4)))}\n"
              f"  log-scale {dict(zip(SCALE_TERMS, model.scale_coef.round(3)))}")
        if args.report:
            report(model, curves, tasks, kind)
        if args.write:
            write(model, kind)


if __name__ == "__main__":
    main()
