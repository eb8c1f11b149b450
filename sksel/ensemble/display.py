"""The display of an ensemble's members (:class:`~sksel.ensemble.EnsembleDisplay`)."""

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._compat import check_matplotlib_support
from .._core.naming import candidate_names
from ..display._common import _NAMED_FIGSIZE, _start_plot
from .selection import agreement_similarity


class EnsembleDisplay:
    """An ensemble's members: how much each disagrees with the others, its weight and score.

    A heat map of the share of rows on which two members predict different
    classes; each member's row is labelled with its name, weight and score;
    the title sets the ensemble's score against the best single model's
    (the search's selected candidate). Build it with :meth:`from_estimator`;
    all parameters are stored as attributes.

    Parameters
    ----------
    names : list of str
        The members.
    weights : array-like of shape (n_members,)
        Their weights.
    scores : array-like of shape (n_members,)
        Their scores.
    disagreement : array-like of shape (n_members, n_members)
        Share of rows on which two members predict different classes.
    ensemble_score, best_score : float
        The ensemble's score and the best single model's.
    score_name : str
        What the scores are (``"out-of-fold accuracy"``, ``"accuracy on X"``).

    Attributes
    ----------
    image_ : matplotlib AxesImage
        The heat map.
    ax_ : matplotlib Axes
        Axes with the heat map.
    figure_ : matplotlib Figure
        Figure containing it.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sksel.ensemble import EnsembleDisplay
    >>> display = EnsembleDisplay(
    ...     names=["tree", "knn"], weights=[0.6, 0.4], scores=[0.90, 0.88],
    ...     disagreement=[[0.0, 0.12], [0.12, 0.0]], ensemble_score=0.92,
    ...     best_score=0.90, score_name="accuracy").plot()
    >>> display.image_.get_array().tolist()
    [[0.0, 0.12], [0.12, 0.0]]
    """

    def __init__(self, *, names, weights, scores, disagreement, ensemble_score, best_score,
                 score_name):
        self.names = names
        self.weights = weights
        self.scores = scores
        self.disagreement = disagreement
        self.ensemble_score = ensemble_score
        self.best_score = best_score
        self.score_name = score_name

    @classmethod
    def from_estimator(cls, ensemble, X=None, y=None, *, ax=None, **kwargs):
        """Plot a fitted :class:`~sksel.ensemble.EnsembleClassifier`'s members.

        Without `X` the scores and disagreements are those of the
        out-of-fold predictions the members were chosen on (optimistic for
        the ensemble: it was chosen on them); with `X` and `y` (held-out
        data) those of the members' predictions of `X`, and the best single
        model is the search's refitted ``best_estimator_``.

        Parameters
        ----------
        ensemble : EnsembleClassifier
            Fitted.
        X, y : array-like, default=None
            Data to score on; None: the out-of-fold predictions.
        ax : matplotlib Axes, default=None
            Axes to plot on; None creates a figure and axes.
        **kwargs : dict
            Passed to :meth:`plot`.

        Returns
        -------
        display : EnsembleDisplay
        """
        check_matplotlib_support(f"{cls.__name__}.from_estimator")
        check_is_fitted(ensemble, "members_")
        search = ensemble.search_
        rule = candidate_names(list(search.cv_results_["params"]), search.estimator)
        names = [rule(int(row)) for row in ensemble.members_]
        if (X is None) != (y is None):
            raise ValueError("Pass both X and y to score on them, or neither for the "
                             "out-of-fold scores.")
        if X is None:
            position = {row: i for i, row in enumerate(ensemble.candidates_)}
            chosen = [position[row] for row in ensemble.members_]
            scores = ensemble.candidate_scores_[chosen]
            disagreement = ensemble.disagreement_[np.ix_(chosen, chosen)]
            best = search.best_index_
            best_score = (ensemble.candidate_scores_[position[best]] if best in position
                          else float(search.best_score_))
            ensemble_score, score_name = ensemble.oof_score_, "out-of-fold score"
        else:
            probabilities = np.stack([ensemble._member_probabilities(i, X)
                                      for i in range(len(ensemble.members_))])
            y = np.asarray(y)
            scores = np.array([np.mean(ensemble.classes_[p.argmax(1)] == y)
                               for p in probabilities])
            disagreement = 1 - agreement_similarity(probabilities)
            best_score = search.best_estimator_.score(X, y)
            ensemble_score, score_name = ensemble.score(X, y), "accuracy on X"
        display = cls(names=names, weights=ensemble.weights_, scores=scores,
                      disagreement=disagreement, ensemble_score=ensemble_score,
                      best_score=best_score, score_name=score_name)
        return display.plot(ax=ax, **kwargs)

    def plot(self, ax=None, *, cmap="viridis"):
        """Plot the heat map of disagreements, members labelled by weight and score.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to plot on; None creates a figure and axes.
        cmap : str or matplotlib Colormap, default="viridis"
            Colours of the disagreement.

        Returns
        -------
        display : EnsembleDisplay
        """
        ax = _start_plot(self, ax, figsize=_NAMED_FIGSIZE)
        disagreement = np.asarray(self.disagreement, dtype=float)
        self.image_ = ax.imshow(disagreement, cmap=cmap, vmin=0)
        n = len(disagreement)
        middle = disagreement.max() / 2
        for i in range(n):
            for j in range(n):
                if i != j:
                    ax.text(j, i, f"{disagreement[i, j]:.1%}", ha="center", va="center",
                            fontsize="small",
                            color="black" if disagreement[i, j] > middle else "white")
        labels = [f"{name}\nweight {w:.2f}, score {s:.4g}"
                  for name, w, s in zip(self.names, self.weights, self.scores)]
        ax.set_yticks(range(n), labels, fontsize="small")
        ax.set_xticks(range(n), [name.split(" ", 1)[0] for name in self.names])
        ax.set_title(f"{self.score_name}: ensemble {self.ensemble_score:.4g}, "
                     f"best single model {self.best_score:.4g}", fontsize="medium")
        self.figure_.colorbar(self.image_, ax=ax, label="share of rows predicted differently")
        return self
