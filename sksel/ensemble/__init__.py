"""Ensembles of the models a search trained, chosen from their out-of-fold predictions.

:class:`EnsembleClassifier` keeps a weighted set of a search's candidates
instead of one: chosen by a determinantal point process over their quality
and the diversity of their errors (``"dpp"``), by Caruana's greedy rounds
(``"greedy"``), or the selected candidate alone (``"best"``).
:class:`EnsembleDisplay` draws the members. sksel's searches keep the
predictions with ``keep_predictions=True``; :func:`recording_predictions`
makes scikit-learn's searches record them.
"""

from .._core.predictions import OutOfFoldPredictions
from .display import EnsembleDisplay
from .estimator import EnsembleClassifier
from .recording import PredictionRecorder, recording_predictions

__all__ = ["EnsembleClassifier", "EnsembleDisplay", "OutOfFoldPredictions", "PredictionRecorder",
           "recording_predictions"]
