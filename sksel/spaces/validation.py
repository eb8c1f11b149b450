"""Validation of a search space as given, into its branches, each a dict of parameters.

``_check_space`` reads what :class:`~sksel.spaces.space.SearchSpace`
takes (an estimator and a ``param_grid`` or ``param_distributions``, a list of
estimators and ``(estimator, param_grid)`` pairs, or parameters alone), checks
every value and every estimator, and returns the branches of the
tree-structured space, those of a list of estimators under the virtual
``estimator`` step; each mistake raises an error that names the entry at fault.

``_check_responses`` checks, before any training, that every candidate has
what the search's scoring calls (``score``, ``predict``, ``predict_proba``,
``decision_function``): the candidates a search built, and one candidate per
estimator a parameter of the space can put in place (a ``Pipeline`` step of
a ``param_grid``), so that an estimator drawn later is checked too.
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


def _check_responses(space, needs, candidates, estimators):
    """Raise a ValueError, before any training, naming the candidates that cannot be scored.

    A candidate can be scored where it has, for each of `needs` (``(methods,
    words)``: the methods a scorer calls, any one of them, and the scorer in
    words), one of the methods, as ``hasattr`` sees it (``available_if``: a
    ``Pipeline`` has ``predict`` where its final step has). Checked are the
    `candidates` (configurations of `space`) built as `estimators`, then one
    configuration per value of each parameter of a branch that holds
    estimators (its other parameters at their first values), which covers
    every estimator a candidate drawn or bred later can put in place.
    """
    if not needs or space.estimator is None:
        return
    missing = _missing_responses(space, needs, zip(candidates, estimators))
    if not missing:
        missing = _missing_responses(space, needs, _estimator_choices(space))
    if missing:
        raise ValueError(_cannot_be_scored(space, missing))


def _missing_responses(space, needs, built):
    """``[(name, methods, words)]`` of the configurations of `built`, ``(params,
    estimator)`` pairs (an estimator None: to build), that lack what `needs` call."""
    missing, seen = [], set()
    for params, estimator in built:
        if estimator is None:
            try:
                estimator = space.build(params)
            except Exception:  # the search's own build says what is wrong
                continue
        for methods, words in needs:
            if not any(_has(estimator, method) for method in methods):
                name = _candidate_words(space, params)
                if name not in seen:
                    seen.add(name)
                    missing.append((name, methods, words))
                break
    return missing


def _has(estimator, method):
    """Whether `estimator` has `method`; True where asking raises (it cannot be told)."""
    try:
        return hasattr(estimator, method)
    except Exception:
        return True


def _estimator_choices(space):
    """``(params, None)`` for each value of each estimator-holding parameter of a branch,
    the others at their first values (distributions left at the estimator's default)."""
    for grid in space.branches:
        first = {key: values[0] for key, values in grid.items() if _is_list(values)}
        held = [key for key, values in grid.items() if _is_list(values)
                and any(hasattr(value, "get_params") for value in values)]
        yield first, None
        for key in held:
            for value in grid[key][1:]:
                yield {**first, key: value}, None


def _candidate_words(space, params):
    """A candidate in words, by the parameter that gave it: ``"estimator[1] StandardScaler()"``,
    ``"estimator Pipeline(...) with clf=StandardScaler()"``."""
    if _is_list(space.estimator):
        step = params[_STEP]
        index = next((i for i, item in enumerate(space.estimator)
                      if (item[0] if isinstance(item, tuple) else item) is step), None)
        name = f"estimator {step!r}" if index is None else f"estimator[{index}] {step!r}"
        params = {key[len(_STEP) + 2:]: value for key, value in params.items() if key != _STEP}
    else:
        name = f"estimator {space.estimator!r}"
    if params:
        name += " with " + ", ".join(f"{key}={value!r}" for key, value in sorted(params.items()))
    return name


def _cannot_be_scored(space, missing):
    """The message of :func:`_check_responses`."""

    def lacks(methods):
        if len(methods) == 1:
            return f"no {methods[0]} method"
        return "neither " + " nor ".join(methods)

    shown = [f"{name} has {lacks(methods)}, which {words}" for name, methods, words in missing]
    if len(missing) == 1:
        head = f"{missing[0][0]} cannot be scored: it has {lacks(missing[0][1])}, which " \
               f"{missing[0][2]}"
    else:
        more = f"; and {len(missing) - 3} more" if len(missing) > 3 else ""
        head = f"{len(missing)} candidates cannot be scored: " + "; ".join(shown[:3]) + more
    where = "estimator" if _is_list(space.estimator) or all(
        " with " not in name for name, _, _ in missing) else (
        "param_grid" if space.param_distributions is None else "param_distributions")
    them, they, their = ("it", "it", "its") if len(missing) == 1 else ("them", "they", "their")
    return (f"{head}. Found before any training: every candidate needs what the scoring "
            f"calls. Give classifiers or regressors (or Pipelines that end in one) in {their} "
            f"place, or remove {them} from {where}; or give a scoring that {they} can answer.")
