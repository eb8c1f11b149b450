"""
Mutant-UCB over MLPs, one epoch per sub-train, and the family tree of the winner
================================================================================

:class:`sksel.MutantUCBSearch` draws a few MLP configurations (layer sizes,
L2 penalty, learning rate, batch size), trains each for one epoch
(``partial_fit``), and then spends its budget of 120 epochs on the models
whose validation accuracy, plus an exploration bonus, is highest. A model
already trained for ``Nbar`` of its 8 epochs breeds a mutant with
probability ``Nbar / 8`` (one parameter moved to a neighbouring value); the
mutant starts from its parent's weights when the layer sizes are unchanged.

It prints the search's best configuration, its test accuracy after refitting
on all training rows for 8 epochs, and the best model's family tree: its
ancestors, each with the parameter that changed and its validation accuracy.

Run ``python examples/mutant_ucb_mlp.py`` (about 20 s on 2 cores).
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import warnings  # noqa: E402

from scipy.stats import loguniform  # noqa: E402
from sklearn.datasets import load_digits  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402
from sklearn.model_selection import train_test_split  # noqa: E402
from sklearn.neural_network import MLPClassifier  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

from sksel import MutantUCBSearch  # noqa: E402

warnings.filterwarnings("ignore", category=ConvergenceWarning)

X, y = load_digits(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, stratify=y,
                                                    random_state=0)
pipe = make_pipeline(StandardScaler(), MLPClassifier(random_state=0))
space = {
    "mlpclassifier__hidden_layer_sizes": [(16,), (32,), (64,), (64, 32)],
    "mlpclassifier__alpha": loguniform(1e-6, 1e-1),
    "mlpclassifier__learning_rate_init": loguniform(1e-4, 1e-1),
    "mlpclassifier__batch_size": [32, 64, 128],
}
search = MutantUCBSearch(pipe, space, budget=120, max_subtrains=8, cv=0.2, n_jobs=2,
                         random_state=0).fit(X_train, y_train)

res = search.cv_results_
print(f"{len(res['params'])} models tried ({int((res['parent_id'] >= 0).sum())} mutants), "
      f"{len(search.all_cv_results_['params'])} epochs spent")
print(f"best: {search.best_params_}")
print(f"validation accuracy {search.best_score_:.3f}, "
      f"test accuracy {search.score(X_test, y_test):.3f}")

print("\nfamily tree of the best model (newest first):")
row = {c: i for i, c in enumerate(res["candidate_id"])}
model = int(res["candidate_id"][search.best_index_])
while model >= 0:
    i = row[model]
    parent = int(res["parent_id"][i])
    params = res["params"][i]
    if parent >= 0:
        before = res["params"][row[parent]]
        change = ", ".join(f"{k.split('__')[-1]}={v}" for k, v in params.items()
                           if before[k] != v)
    else:
        change = "initial: " + ", ".join(f"{k.split('__')[-1]}={v}" for k, v in params.items())
    print(f"  model {model:3d}  {int(res['n_resources'][i])} epochs  "
          f"accuracy {res['mean_test_score_at_resource'][i]:.3f}  {change}")
    model = parent
