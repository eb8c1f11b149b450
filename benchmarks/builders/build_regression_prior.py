"""Rebuild the regression prior shipped with sksel, ``sksel/data/regression_prior.csv``.

From the regression curves ``record_curves --task regression`` recorded
(``benchmarks/data/regression_curves.csv``; real regression tables, one split
each), the tables of its tune half (the half ``_datasets.csv`` names; the
report half is left to the benchmarks): each regressor's validation R² at the
table's full training size N, below -1 counted as -1 (as DAUB's gap model
counts it: one regressor far worse than predicting the mean would otherwise
set the prior's spread), and its training seconds there. One row per table::

    dataset,ridge,ridge_unscaled,...
    bikeshare,0.3871,0.3865,...

Columns are the short names of :func:`sksel.gpucb.portfolio.regression_portfolio`,
in order; an empty cell is a regressor not recorded at N (the SVR above 5,000
rows). The training times go to ``--cost-out`` (default
``sksel/data/regression_cost.csv``, same layout): the cost prior of
``GPUCBSelector(prior="auto")`` for regressors.

    python -m benchmarks build_regression_prior      # a few seconds
"""

import argparse
import os

import numpy as np
import pandas as pd

from benchmarks.builders.build_daub_gap import regression_halves
from benchmarks.lcdb_replay import final_size_matrix
from sksel.curves.gap_model import KINDS
from sksel.gpucb.portfolio import REGRESSION_LEARNERS

BENCHMARKS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # above builders/
DATA = os.path.join(BENCHMARKS, os.pardir, "sksel", "data")


def regression_matrix(tasks, field="valid"):
    """The (tables x regressors) R² at N of `tasks`, NaN where missing; ``field="fit_time"``:
    the training seconds there instead."""
    names = pd.read_csv(os.path.join(BENCHMARKS, "data", "regression_curves_datasets.csv"))
    name_of = dict(zip(names["openmlid"], names["dataset"]))
    table = final_size_matrix(tasks, list(REGRESSION_LEARNERS), field=field)
    if field == "valid":
        table = np.maximum(table, KINDS["r2"])
    return pd.DataFrame(table, index=[name_of[t.openmlid] for t in tasks],
                        columns=list(REGRESSION_LEARNERS.values()))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join(DATA, "regression_prior.csv"))
    parser.add_argument("--cost-out", default=os.path.join(DATA, "regression_cost.csv"))
    args = parser.parse_args(argv)
    tune, _ = regression_halves()
    table = regression_matrix(tune)
    table.to_csv(args.out, index_label="dataset", na_rep="", float_format="%.4f")
    times = regression_matrix(tune, "fit_time").where(table.notna())
    times.to_csv(args.cost_out, index_label="dataset", na_rep="", float_format="%.4g")
    print(f"{table.shape[0]} tables x {table.shape[1]} regressors, "
          f"{np.isnan(table.to_numpy()).mean():.1%} missing -> {args.out}")


if __name__ == "__main__":
    main()
