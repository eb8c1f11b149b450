"""Search spaces: what can be tried, built from what users already write for sklearn.

A space is given as

- one estimator and a ``param_grid`` (a dict, or a list of dicts, as
  :class:`~sklearn.model_selection.GridSearchCV` takes it; values may be
  estimators, e.g. the steps of a :class:`~sklearn.pipeline.Pipeline`);
- a list of estimators, each one candidate;
- a list of ``(estimator, param_grid)`` pairs, each expanded to its grid
  (plain estimators and pairs may be mixed).

Candidates of a list are described by parameters of a virtual ``estimator``
step: ``{"estimator": SVC(), "estimator__C": 10}``, which reads like a
``Pipeline`` step choice and gives every candidate its own row in
``cv_results_``.
"""

from collections.abc import Mapping, Sequence

from sklearn.base import clone, is_classifier, is_regressor
from sklearn.model_selection import ParameterGrid

_STEP = "estimator"


class CandidateSpace:
    """A finite set of candidate configurations.

    Parameters
    ----------
    estimator : estimator object, or list of estimators / (estimator, param_grid)
        What to choose among.
    param_grid : dict or list of dicts, default=None
        Grid for a single `estimator`; must be None when `estimator` is a list.

    Attributes
    ----------
    candidates : list of dict
        Parameters of every candidate, in enumeration order.

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sksel.space import CandidateSpace
    >>> space = CandidateSpace([LogisticRegression(),
    ...                         (DecisionTreeClassifier(), {"max_depth": [2, 4]})])
    >>> len(space.candidates)
    3
    >>> space.build(space.candidates[2])
    DecisionTreeClassifier(max_depth=4)
    """

    def __init__(self, estimator, param_grid=None):
        if isinstance(estimator, Sequence) and not isinstance(estimator, str):
            if param_grid is not None:
                raise ValueError(
                    "param_grid must be None when estimator is a list; give each "
                    "estimator its own grid as an (estimator, param_grid) pair."
                )
            self.base = None
            self.candidates = _list_candidates(estimator)
        else:
            _check_estimator(estimator)
            self.base = estimator
            self.candidates = list(ParameterGrid(param_grid if param_grid is not None else {}))
        if not self.candidates:
            raise ValueError(
                "The search space is empty: estimator and param_grid give no candidate."
            )

    @property
    def first_estimator(self):
        """An estimator of the space, standing for all of them (tags, default scorer)."""
        if self.base is not None:
            return self.base
        return self.candidates[0][_STEP]

    def build(self, params):
        """A fresh, unfitted estimator for the candidate with `params`."""
        if self.base is not None:
            return clone(self.base).set_params(**clone(params, safe=False))
        inner = {k[len(_STEP) + 2 :]: v for k, v in params.items() if k != _STEP}
        return clone(params[_STEP]).set_params(**clone(inner, safe=False))


def first_estimator(estimator):
    """The estimator that stands for `estimator` (an estimator or a list) before fit."""
    if isinstance(estimator, Sequence) and not isinstance(estimator, str) and estimator:
        head = estimator[0]
        return head[0] if isinstance(head, tuple) else head
    return estimator


def _list_candidates(estimators):
    if len(estimators) == 0:
        raise ValueError("estimator is an empty list: give at least one candidate estimator.")
    candidates = []
    for i, item in enumerate(estimators):
        if isinstance(item, tuple):
            if len(item) != 2 or not isinstance(item[1], (Mapping, Sequence)):
                raise ValueError(
                    f"estimator[{i}] must be an estimator or an (estimator, param_grid) "
                    f"pair; got {item!r}."
                )
            est, grid = item
        else:
            est, grid = item, {}
        _check_estimator(est, name=f"estimator[{i}]")
        for params in ParameterGrid(grid):
            row = {_STEP: est}
            row.update({f"{_STEP}__{k}": v for k, v in params.items()})
            candidates.append(row)
    _check_one_task([row[_STEP] for row in candidates])
    return candidates


def _check_one_task(estimators):
    """Raise when a list holds both classifiers and regressors."""
    classifiers = [type(e).__name__ for e in estimators if is_classifier(e)]
    regressors = [type(e).__name__ for e in estimators if is_regressor(e)]
    if classifiers and regressors:
        raise ValueError(
            "estimator mixes classifiers and regressors, whose scores cannot be "
            f"compared: classifiers {sorted(set(classifiers))}, regressors "
            f"{sorted(set(regressors))}. Give candidates of one kind."
        )


def _check_estimator(est, name="estimator"):
    if not hasattr(est, "fit") or not hasattr(est, "get_params"):
        raise TypeError(
            f"{name} must be a scikit-learn estimator (with fit and get_params); "
            f"got {est!r}."
        )
