"""A small CNN for square grey images, searched by its module parameters."""

from torch import nn


class CNN(nn.Module):
    """`n_layers` conv blocks of `channels` filters (doubling), then dropout and a linear layer.

    Takes flattened images (``side * side`` features), as the benchmark
    loaders give them: 28 for Fashion-MNIST, 14 for it downscaled, 8 for
    digits. Each block halves the side (rounding down).
    """

    def __init__(self, channels=16, n_layers=2, dropout=0.25, n_classes=10, side=28):
        super().__init__()
        self.side = side
        blocks, width, size = [], 1, side
        for i in range(n_layers):
            out = channels * 2**i
            blocks += [nn.Conv2d(width, out, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2)]
            width, size = out, size // 2
        self.features = nn.Sequential(*blocks)
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(dropout),
                                  nn.Linear(width * size * size, n_classes))

    def forward(self, X):
        return self.head(self.features(X.reshape(-1, 1, self.side, self.side)))
