"""Validation of a search space as given, into its branches, each a dict of parameters.

``_check_space`` reads what :class:`~sksel.spaces.space.SearchSpace`
takes (an estimator and a ``param_grid`` or ``param_distributions``, a list of
estimators and ``(estimator, param_grid)`` pairs, or parameters alone), checks
every value and every estimator, and returns the branches of the
tree-structured space, those of a list of estimators under the virtual
``estimator`` step; each mistake raises an error that names the entry at fault.
"""

from collections.abc import Mapping, Sequence

from sklearn.base import is_classifier, is_regressor

from .params import _is_list, _scale

_STEP = "estimator"


def _check_space(estimator, param_grid, param_distributions):
    """The branches of the space, each a dict of parameters, validated."""
    if param_grid is not None and param_distributions is not None:
        raise ValueError("Give param_grid or param_distributions, not both.")
    if param_distributions is None:
        name, spec, lists_only = "param_grid", param_grid, True
    else:
        name, spec, lists_only = "param_distributions", param_distributions, False
    if _is_list(estimator):
        if spec is not None:
            raise ValueError(
                f"{name} must be None when estimator is a list; give each "
                "estimator its own grid as an (estimator, param_grid) pair."
            )
        grids, given = _list_branches(estimator), "estimator"
    else:
        if estimator is not None:
            _check_estimator(estimator)
        grids = _check_grids({} if spec is None else spec, name, lists_only)
        given = name if estimator is None else f"estimator and {name}"
    if not grids:
        raise ValueError(
            f"The search space of {given} is empty: an empty list of dicts has no "
            "candidate."
        )
    return grids


def _list_branches(estimators):
    """The branches of a list of candidates, one per dict of each one's grid.

    A branch has the estimator as its only ``estimator`` value and the grid's
    parameters under that step.
    """
    if len(estimators) == 0:
        raise ValueError("estimator is an empty list: give at least one candidate estimator.")
    grids = []
    for i, item in enumerate(estimators):
        if isinstance(item, tuple):
            if len(item) != 2 or not isinstance(item[1], (Mapping, Sequence)):
                raise ValueError(
                    f"estimator[{i}] must be an estimator or an (estimator, param_grid) "
                    f"pair; got {item!r}."
                )
            estimator, param_grid = item
        else:
            estimator, param_grid = item, {}
        _check_estimator(estimator, name=f"estimator[{i}]")
        for grid in _check_grids(param_grid, f"estimator[{i}][1]", lists_only=True):
            grids.append({_STEP: [estimator], **{f"{_STEP}__{k}": v for k, v in grid.items()}})
    _check_one_task([grid[_STEP][0] for grid in grids])
    return grids


def _check_grids(spec, name, lists_only):
    """The dicts of `spec` (a dict or a list of dicts), their values validated.

    `name` is what the user called `spec`; with `lists_only`, values must be
    lists, as in a ``param_grid``.
    """
    if isinstance(spec, Mapping):
        grids = [spec]
    elif _is_list(spec):
        grids = list(spec)
    else:
        raise TypeError(f"{name} must be a dict or a list of dicts; got {spec!r}.")
    for b, grid in enumerate(grids):
        if not isinstance(grid, Mapping):
            raise TypeError(f"{name}[{b}] must be a dict of parameters; got {grid!r}.")
        where = f"{name}[{b}]" if len(grids) > 1 else name
        for key in sorted(grid):
            _check_values(key, grid[key], where, lists_only)
    return [dict(grid) for grid in grids]


def _check_values(key, values, where, lists_only):
    """Raise unless `values` is a non-empty list, or a distribution mapped to [0, 1]."""
    if hasattr(values, "rvs") and not lists_only:
        if _scale(values) is None:
            raise ValueError(
                f"Parameter {key!r} of {where}: cannot map {values!r} to [0, 1], it has "
                "neither a finite support (a support method) nor a cdf method."
            )
    elif not _is_list(values):
        expected = "a list of values" if lists_only else (
            "a list of values or a distribution with an rvs method")
        raise ValueError(f"Parameter {key!r} of {where} must be {expected}; got {values!r}.")
    elif len(values) == 0:
        raise ValueError(
            f"Parameter {key!r} of {where} is an empty list: give at least one value."
        )


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
