"""Sub-trains: a fitted model continues training by a number of units.

Boosting rounds, trees, iterations, ``partial_fit`` passes or epochs
(:class:`Subtrainer`; :func:`subtrain_kind` says which an estimator supports).
"""

import warnings
from collections import OrderedDict
from contextlib import contextmanager

import joblib
from sklearn.exceptions import ConvergenceWarning

# Ways to continue training, in the order "auto" tries them, with the size of
# one sub-train by default.
SUBTRAIN_KINDS = {
    "xgboost": 10,        # boosting rounds, fit(..., xgb_model=booster)
    "partial_fit": 1,     # passes of partial_fit (epochs for skorch nets)
    "n_estimators": 10,   # trees or stages added with warm_start
    "max_iter": 10,       # iterations added with warm_start
}


def subtrain_kind(estimator, kind="auto"):
    """How `estimator` (or the last step of a ``Pipeline``) continues training.

    Parameters
    ----------
    estimator : estimator object
        The estimator, or a ``Pipeline`` whose last step trains incrementally.
    kind : {"auto", "xgboost", "partial_fit", "n_estimators", "max_iter"}, default="auto"
        ``"auto"`` takes the first that `estimator` supports, in this order:
        xgboost booster continuation (``fit(X, y, xgb_model=booster)``),
        ``partial_fit``, ``warm_start`` with a growing ``n_estimators``,
        ``warm_start`` with a growing ``max_iter``.

    Returns
    -------
    kind : str
        One of the names above, other than ``"auto"``.

    Examples
    --------
    >>> from sklearn.ensemble import RandomForestClassifier
    >>> from sklearn.linear_model import SGDClassifier
    >>> from sksel.training import subtrain_kind
    >>> subtrain_kind(SGDClassifier()), subtrain_kind(RandomForestClassifier())
    ('partial_fit', 'n_estimators')
    """
    last, _ = _last_step(estimator)
    supported = [name for name in SUBTRAIN_KINDS if _supports(last, name)]
    if kind == "auto" and supported:
        return supported[0]
    if kind in supported:
        return kind
    raise ValueError(
        f"{type(last).__name__} cannot continue training by subtrain_kind={kind!r}: "
        f"it supports {supported or 'none of the ways'}. A sub-train needs xgboost's "
        "booster continuation, partial_fit, or warm_start with n_estimators or max_iter."
    )


def _supports(estimator, kind):
    if kind == "xgboost":
        return type(estimator).__module__.startswith("xgboost")
    if kind == "partial_fit":
        return hasattr(estimator, "partial_fit")
    params = estimator.get_params(deep=False)
    return "warm_start" in params and kind in params


def _is_skorch(estimator):
    return any(cls.__name__ == "NeuralNet" for cls in type(estimator).__mro__)


# Estimators whose ``max_iter`` counts every iteration so far under warm_start
# (boosting iterations); for the others it counts the iterations of one fit call.
_MAX_ITER_IN_TOTAL = ("HistGradientBoostingClassifier", "HistGradientBoostingRegressor")


def _counts_in_total(estimator, kind):
    """Whether `kind` of `estimator` counts all training so far, not that of one fit call."""
    if kind == "max_iter":
        return any(cls.__name__ in _MAX_ITER_IN_TOTAL for cls in type(estimator).__mro__)
    return kind == "n_estimators"


def _last_step(estimator):
    """The step that trains incrementally and its parameter prefix: ``(step, prefix)``."""
    if hasattr(estimator, "steps"):
        name, last = estimator.steps[-1]
        return last, f"{name}__"
    return estimator, ""


class Subtrainer:
    """One sub-train: a model's training continued by `unit` units.

    One rule for every kind: ``k`` sub-trains train exactly as much as one
    sub-train of ``k * unit`` units. Trees (``n_estimators``), boosting rounds
    (xgboost) and HistGradientBoosting's ``max_iter`` count in total, so they
    grow by `unit` at each sub-train; the ``max_iter`` of other estimators
    (MLP, LogisticRegression, linear models) counts the iterations of one fit
    call under ``warm_start``, so it stays at `unit`. A skorch net gets
    ``train_split=None`` at its first sub-train (the search validates on its
    own folds) and ``unit`` epochs per sub-train; its inputs must be float32,
    as skorch expects. The ``ConvergenceWarning`` that stopping a solver
    early raises by design is silenced; other warnings are not.

    Parameters
    ----------
    kind : str
        How the model continues, from :func:`subtrain_kind`.
    unit : int
        Units in one sub-train: boosting rounds, ``partial_fit`` passes (skorch:
        epochs), trees or iterations.
    classes : ndarray or None
        Every class of the targets, for a classifier's first ``partial_fit``.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.ensemble import RandomForestClassifier
    >>> from sksel.training import Subtrainer
    >>> X, y = load_iris(return_X_y=True)
    >>> subtrainer = Subtrainer("n_estimators", unit=5)
    >>> model = subtrainer.first(RandomForestClassifier(random_state=0), X, y)
    >>> model = subtrainer.next(model, X, y)
    >>> len(model.estimators_)
    10
    >>> subtrainer.released(model, 2, RandomForestClassifier()).get_params()["warm_start"]
    False
    """

    def __init__(self, kind, unit, classes=None):
        self.kind = kind
        self.unit = unit
        self.classes = classes

    def first(self, estimator, X, y, **fit_params):
        """The first sub-train of an unfitted `estimator` (cloned by the caller).

        In a ``Pipeline`` the steps before the last are fitted here, once; the
        last step is sub-trained on their output, and `fit_params` go to it.
        """
        if hasattr(estimator, "steps"):
            Xt = estimator[:-1].fit_transform(X, y)
            name, last = estimator.steps[-1]
            estimator.steps[-1] = (name, self.first(last, Xt, y, **fit_params))
            return estimator
        if self.kind in ("n_estimators", "max_iter"):
            estimator.set_params(warm_start=True, **{self.kind: self.unit})
            return _fit_quietly(estimator, X, y, fit_params)
        if self.kind == "xgboost":
            estimator.set_params(n_estimators=self.unit)
            return estimator.fit(X, y, **fit_params)
        if _is_skorch(estimator):
            # The search validates on its own folds: no split of the training rows.
            estimator.set_params(train_split=None)
        return self._partial_fit(estimator, X, y, fit_params)

    def next(self, model, X, y, **fit_params):
        """`model`, fitted by earlier sub-trains, trained `unit` units more."""
        if hasattr(model, "steps"):
            name, last = model.steps[-1]
            model.steps[-1] = (name, self.next(last, model[:-1].transform(X), y, **fit_params))
            return model
        if self.kind in ("n_estimators", "max_iter"):
            if _counts_in_total(model, self.kind):
                model.set_params(**{self.kind: model.get_params()[self.kind] + self.unit})
            return _fit_quietly(model, X, y, fit_params)
        if self.kind == "xgboost":
            return model.fit(X, y, xgb_model=model.get_booster(), **fit_params)
        return self._partial_fit(model, X, y, fit_params)

    def length_param(self, estimator):
        """The parameter that sets how long a plain ``fit`` of `estimator` trains, or None.

        Trees, boosting rounds, iterations, or, for ``partial_fit``, the
        epochs of a plain fit (skorch's ``max_epochs``, else ``max_iter``);
        prefixed by the last step's name in a ``Pipeline``. None when a
        plain fit has no such parameter (e.g. naive Bayes).
        """
        last, prefix = _last_step(estimator)
        if self.kind == "xgboost":
            name = "n_estimators"
        elif self.kind == "partial_fit":
            name = "max_epochs" if _is_skorch(last) else "max_iter"
        else:
            name = self.kind
        return prefix + name if name in last.get_params(deep=False) else None

    def length(self, estimator, n_subtrains):
        """``{length_param: units}`` that `n_subtrains` sub-trains of `estimator` make, or {}."""
        name = self.length_param(estimator)
        return {} if name is None else {name: n_subtrains * self.unit}

    def released(self, model, n_subtrains, template):
        """`model`, trained by `n_subtrains` sub-trains, configured as a plain estimator.

        The parameters the sub-trains set (``warm_start``, skorch's
        ``train_split``) go back to those of `template`, the estimator as the
        user configured it, and the training length is set to the total
        (:meth:`length`), so that refitting `model`, or a clone of it,
        trains as long as it was trained, from scratch.
        """
        last, prefix = _last_step(model)
        configured = _last_step(template)[0].get_params(deep=False)
        touched = {k: configured[k] for k in ("warm_start", "train_split")
                   if k in configured and k in last.get_params(deep=False)}
        last.set_params(**touched)
        return model.set_params(**self.length(model, n_subtrains))

    def _partial_fit(self, model, X, y, fit_params):
        if _is_skorch(model):
            return model.partial_fit(X, y, epochs=self.unit, **fit_params)
        if self.classes is not None:
            fit_params = {"classes": self.classes, **fit_params}
        for _ in range(self.unit):
            model.partial_fit(X, y, **fit_params)
        return model


def _fit_quietly(model, X, y, fit_params):
    """``model.fit`` without the ``ConvergenceWarning`` of a solver stopped at `max_iter`.

    A HistGradientBoosting model bins its training rows once per process
    (:func:`_binned_once`), not at every sub-train.
    """
    with warnings.catch_warnings(), _binned_once(model):
        warnings.filterwarnings("ignore", category=ConvergenceWarning)
        return model.fit(X, y, **fit_params)


#: HistGradientBoosting's binned training rows, ``key -> (fitted bin mapper,
#: binned rows)``, the last `_BINNED_KEPT` of this process.
_BINNED = OrderedDict()
_BINNED_KEPT = 8


@contextmanager
def _binned_once(model):
    """Let a HistGradientBoosting `model` reuse rows binned by an earlier fit in this process.

    Every ``fit`` of a HistGradientBoosting model, a warm start included,
    fits its bin mapper on the training rows again and bins them: at 10
    boosting rounds per sub-train that was 40% of a sub-train. The mapper
    and the binned rows depend only on the rows, the sample weights and the
    mapper's parameters (its ``random_state`` only where the rows exceed its
    ``subsample``), so the same fold's rows are binned once for every
    sub-train and every model of the same parameters: the fit is the same,
    tree for tree. Other estimators fit as they are.
    """
    bin_data = getattr(model, "_bin_data", None)
    if bin_data is None or not hasattr(model, "max_bins"):
        yield
        return

    def binned(X, *args, **kwargs):
        training = kwargs.get("is_training_data", args[-1] if args else False)
        if not training:
            return bin_data(X, *args, **kwargs)
        weight = kwargs.get("sample_weight", args[0] if len(args) == 2 else None)
        params = model._bin_mapper.get_params()
        params.pop("n_threads", None)
        if params.get("subsample") is None or X.shape[0] <= params["subsample"]:
            params.pop("random_state", None)
        key = joblib.hash((params, X, weight))
        if key in _BINNED:
            _BINNED.move_to_end(key)
            model._bin_mapper, rows = _BINNED[key]
            return rows
        rows = bin_data(X, *args, **kwargs)
        _BINNED[key] = (model._bin_mapper, rows)
        while len(_BINNED) > _BINNED_KEPT:
            _BINNED.popitem(last=False)
        return rows

    model._bin_data = binned
    try:
        yield
    finally:
        del model.__dict__["_bin_data"]
