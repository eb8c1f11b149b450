"""Rebuild the LCDB prior shipped with sksel, ``sksel/data/lcdb_prior.csv``.

LCDB (Mohr et al.) holds the learning curves of 20 scikit-learn classifiers,
with their default parameters, on 248 OpenML datasets. This script takes, for
every dataset that ``lcdb_replay.make_tasks`` keeps (N >= 1,000 rows and at
least 5 learners there: 180 datasets), each learner's validation accuracy at
the dataset's full size N, averaged over LCDB's seeds, and writes one row per
dataset::

    dataset,<learner1>,<learner2>,...
    3,0.9567,,...

Columns are the short names of :func:`sksel.gpucb.portfolio.lcdb_portfolio`, in
order; an empty cell is a learner LCDB lacks at N on that dataset.
``PassiveAggressiveClassifier`` is left out: scikit-learn 1.8 deprecates it.
The learners' training times at N, averaged over the seeds, go to
``--cost-out`` (default ``sksel/data/lcdb_cost.csv``, same layout, 4
significant digits): the cost prior of ``GPUCBSelector(prior="lcdb")``.

    pip install --no-deps lcdb          # 459 MB of CSVs
    python -m benchmarks build_lcdb_prior      # about 15 s
"""

import argparse
import os

import numpy as np
import pandas as pd

from benchmarks.lcdb_replay import final_size_matrix, lcdb_csv_path, load_curves, make_tasks
from sksel.gpucb.portfolio import LCDB_LEARNERS

BENCHMARKS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # above builders/
DEFAULT_OUT = os.path.join(BENCHMARKS, os.pardir, "sksel", "data", "lcdb_prior.csv")
DEFAULT_COST_OUT = os.path.join(BENCHMARKS, os.pardir, "sksel", "data", "lcdb_cost.csv")


def lcdb_matrix(field="valid"):
    """The (datasets x learners) final-size validation accuracies, NaN where missing.

    ``field="fit_time"``: the training times at N instead.
    """
    tasks, _ = make_tasks(load_curves(lcdb_csv_path()))
    scores = final_size_matrix(tasks, list(LCDB_LEARNERS), field=field)
    return pd.DataFrame(scores, index=[t.openmlid for t in tasks],
                        columns=list(LCDB_LEARNERS.values()))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=DEFAULT_OUT, help="CSV of scores to write")
    parser.add_argument("--cost-out", default=DEFAULT_COST_OUT,
                        help="CSV of training times to write")
    args = parser.parse_args(argv)
    table = lcdb_matrix()
    table.to_csv(args.out, index_label="dataset", na_rep="", float_format="%.4f")
    times = lcdb_matrix("fit_time").where(table.notna())
    times.to_csv(args.cost_out, index_label="dataset", na_rep="", float_format="%.4g")
    print(f"{table.shape[0]} datasets x {table.shape[1]} learners, "
          f"{np.isnan(table.to_numpy()).mean():.1%} missing -> {args.out}")


if __name__ == "__main__":
    main()
