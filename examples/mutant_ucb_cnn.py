"""
Mutant-UCB over skorch CNNs on Fashion-MNIST, one epoch per sub-train
=====================================================================

A CNN whose width (``channels``), depth (``n_layers``) and ``dropout`` are
module parameters is wrapped in skorch's ``NeuralNetClassifier`` and searched
with its learning rate and batch size by :class:`sksel.MutantUCBSearch`: a
sub-train is one epoch (``partial_fit``), a mutant keeps every weight of its
parent whose shape its new configuration leaves unchanged. The data are
2,000 training and 2,000 test images of Fashion-MNIST, which Debian ships::

    apt-get update && apt-get install -y dataset-fashion-mnist
    pip install ".[torch]"
    python examples/mutant_ucb_cnn.py                 # under a minute on 2 cores
    python examples/mutant_ucb_cnn.py --device cuda   # on a GPU

It prints the best configuration, its validation accuracy and its test
accuracy after training on all 2,000 images for as many epochs as its
lineage trained (``max_epochs`` in the printed configuration): its own
(at most ``max_subtrains``) and those it inherited from its ancestors.
"""

import argparse
import gzip
import os

import numpy as np
import torch
from scipy.stats import loguniform, uniform
from skorch import NeuralNetClassifier
from torch import nn

from sksel import MutantUCBSearch

FOLDER = "/usr/share/datasets/fashion-mnist"


class CNN(nn.Module):
    """`n_layers` conv blocks of `channels` filters (doubling), dropout, a linear layer."""

    def __init__(self, channels=16, n_layers=2, dropout=0.25):
        super().__init__()
        blocks, width, size = [], 1, 28
        for i in range(n_layers):
            out = channels * 2**i
            blocks += [nn.Conv2d(width, out, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2)]
            width, size = out, size // 2
        self.features = nn.Sequential(*blocks)
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(dropout),
                                  nn.Linear(width * size * size, 10))

    def forward(self, X):
        return self.head(self.features(X.reshape(-1, 1, 28, 28)))


def load(split, n, seed=0):
    """`n` images of the `split` ("train" or "t10k"), as float32 rows in [0, 1]."""
    def read(kind, dims):
        path = os.path.join(FOLDER, f"{split}-{kind}-idx{dims}-ubyte.gz")
        with gzip.open(path, "rb") as f:
            data = f.read()
        return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * dims)

    images = read("images", 3).reshape(-1, 784).astype(np.float32) / 255
    labels = read("labels", 1).astype(np.int64)
    rows = np.random.RandomState(seed).choice(len(labels), size=n, replace=False)
    return images[rows], labels[rows]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args()
    torch.set_num_threads(1)
    X_train, y_train = load("train", 2000)
    X_test, y_test = load("t10k", 2000)
    net = NeuralNetClassifier(CNN, criterion=nn.CrossEntropyLoss, optimizer=torch.optim.Adam,
                              lr=1e-3, batch_size=64, device=args.device, verbose=0)
    space = {
        "module__channels": [8, 16, 32],
        "module__n_layers": [1, 2],
        "module__dropout": uniform(0.0, 0.5),
        "lr": loguniform(1e-4, 1e-2),
        "batch_size": [32, 64, 128],
    }
    # n_jobs=1: a worker process could not send back a net of a CNN class defined
    # in a script (__main__), and the search says so before any fit; define it in
    # a module of its own, or use the threading backend, to train several at once.
    search = MutantUCBSearch(net, space, budget=30, max_subtrains=5, cv=0.25,
                             random_state=0).fit(X_train, y_train)
    res = search.cv_results_
    print(f"{len(res['params'])} models tried ({int((res['parent_id'] >= 0).sum())} "
          f"mutants) on {args.device}")
    print(f"best: {search.best_params_}")
    print(f"validation accuracy {search.best_score_:.3f}, "
          f"test accuracy {search.score(X_test, y_test):.3f}")


if __name__ == "__main__":
    main()
