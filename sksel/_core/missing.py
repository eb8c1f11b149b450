"""Missing values in X, said before any training: how many, which candidates cannot take
them, and what to do.

A search trains every candidate on X: where X holds NaN (or infinity) and a
candidate cannot take it, each of its fits fails, and scikit-learn's summary
("All the 6 fits failed") says why only further down. :func:`check_missing_values`
says it first: a ``ValueError`` where no candidate takes NaN, a warning naming
those that cannot where some do (they fail, scored ``error_score``).

A candidate takes NaN where scikit-learn's tag ``input_tags.allow_nan`` says
so. A ``Pipeline``'s own tag does not tell (it is False whatever its steps),
so its steps are read in order: NaN goes through the scalers that keep it
(``StandardScaler`` and the like) to the first other step, which takes it or
not by its own tag (an imputer takes it, and the steps after it see none). A
``ColumnTransformer`` or ``FeatureUnion`` whose parts all keep NaN passes it
on; one with another part may impute the columns that hold NaN, and is taken
to. A meta-estimator whose tag says no defers to the estimator it wraps. Where
the tags cannot be read, the candidate is taken to take NaN: the check errs
towards letting a search run.
"""

import warnings

import numpy as np
from scipy import sparse
from sklearn.utils import get_tags

from .naming import counted

#: The scikit-learn transformers whose output holds NaN where their input does.
_KEEPS_NAN = {("sklearn.preprocessing", name) for name in (
    "StandardScaler", "MinMaxScaler", "MaxAbsScaler", "RobustScaler", "QuantileTransformer",
    "PowerTransformer")} | {("sklearn.feature_selection", "VarianceThreshold")}

#: How many candidates a message names before "and N more".
_SHOWN = 4


def check_missing_values(X, estimators, names, classifier):
    """Raise or warn, before any training, where X holds NaN or infinity that candidates
    cannot take.

    Parameters
    ----------
    X : array-like, sparse matrix or DataFrame
        The search's X.
    estimators : list of estimator objects
        The candidates, built.
    names : callable
        ``names(candidate) -> str``, a candidate's name.
    classifier : bool
        Whether the candidates are classifiers (the estimator the message
        suggests is HistGradientBoostingClassifier, else its regressor).

    Raises
    ------
    ValueError
        Where X holds NaN or infinity and no candidate takes NaN.
    """
    counts = _non_finite(X)
    if counts is None:
        return
    refusing = [c for c, estimator in enumerate(estimators) if not takes_nan(estimator)]
    if not refusing:
        return
    shown = ", ".join(names(c) for c in refusing[:_SHOWN])
    if len(refusing) > _SHOWN:
        shown += f" and {len(refusing) - _SHOWN} more"
    n_nan, n_inf, n_rows, n_total = counts
    held = " and ".join(words for n, words in (
        (n_nan, f"NaN in {counted(n_nan, 'cell')}"),
        (n_inf, f"infinity in {counted(n_inf, 'cell')}")) if n)
    held = f"X holds {held} ({n_rows} of its {counted(n_total, 'row')})"
    what = " or ".join(word for n, word in ((n_nan, "NaN"), (n_inf, "infinity")) if n)
    one = len(refusing) == 1
    impute = (f"impute the missing values within {'it' if one else 'each of them'}: "
              f"{_imputed(estimators[refusing[0]])}")
    replace = ("replace the infinite values before the search (np.nan_to_num, or clip "
               "them): scikit-learn's estimators refuse infinity, those that take NaN included")
    if len(refusing) == len(estimators):
        takers = f"HistGradientBoosting{'Classifier' if classifier else 'Regressor'}()"
        remedy = [f"{impute}; or add a candidate that takes NaN, such as {takers}"] * bool(n_nan)
        remedy += [replace] * bool(n_inf)
        subject = "no candidate can" if len(estimators) > 1 else "the candidate cannot"
        tag = (" (A candidate that takes NaN says so by scikit-learn's tag "
               "input_tags.allow_nan.)") if n_nan else ""
        raise ValueError(
            f"{held}, and {subject} take {what}: {shown}. "
            + ". ".join(words[0].upper() + words[1:] for words in remedy) + "." + tag)
    remedy = [f"{impute}, or leave {'it' if one else 'them'} out"] * bool(n_nan)
    remedy += [replace] * bool(n_inf)
    warnings.warn(
        f"{held}, which {counted(len(refusing), 'candidate')} of the {len(estimators)} cannot "
        f"take: {shown}. {'Its' if one else 'Their'} fits will fail, scored error_score. "
        + "; ".join(words[0].upper() + words[1:] if i == 0 else words
                    for i, words in enumerate(remedy)) + ".",
        UserWarning)


def _imputed(estimator):
    """How to impute in `estimator`, in words: ``"make_pipeline(SimpleImputer(), SVC()) in
    place of SVC()"``, or, for a Pipeline, a SimpleImputer as its first step."""
    if _pipeline_steps(estimator) is not None:
        return "a sklearn.impute.SimpleImputer as the Pipeline's first step"
    name = f"{type(estimator).__name__}()"
    return (f"a Pipeline that starts with sklearn.impute.SimpleImputer, e.g. "
            f"make_pipeline(SimpleImputer(), {name}) in place of {name}")


def takes_nan(estimator):
    """Whether `estimator` takes NaN in its input (see the module); True where it cannot be
    told.

    Examples
    --------
    >>> from sklearn.ensemble import HistGradientBoostingClassifier
    >>> from sklearn.impute import SimpleImputer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sksel._core.missing import takes_nan
    >>> takes_nan(LogisticRegression()), takes_nan(HistGradientBoostingClassifier())
    (False, True)
    >>> takes_nan(make_pipeline(StandardScaler(), LogisticRegression()))
    False
    >>> takes_nan(make_pipeline(StandardScaler(), SimpleImputer(), LogisticRegression()))
    True
    """
    steps = _pipeline_steps(estimator)
    if steps is not None:
        for step in steps[:-1]:
            if not _keeps_nan(step):
                return takes_nan(step)
        return takes_nan(steps[-1]) if steps else True
    parts = _parts(estimator)
    if parts is not None:
        return True  # it may impute the columns that hold NaN; those that keep it, nothing
    try:
        allowed = bool(get_tags(estimator).input_tags.allow_nan)
    except Exception:
        return True
    inner = getattr(estimator, "estimator", None)
    if not allowed and hasattr(inner, "get_params") and hasattr(inner, "fit"):
        return takes_nan(inner)
    return allowed


def _pipeline_steps(estimator):
    """The steps of a ``Pipeline`` that are estimators, in order; None for anything else."""
    from sklearn.pipeline import Pipeline

    if not isinstance(estimator, Pipeline):
        return None
    return [step for _, step in estimator.steps
            if step is not None and not isinstance(step, str)]


def _parts(estimator):
    """The transformers of a ``ColumnTransformer`` (its remainder too) or a ``FeatureUnion``,
    as given (``"passthrough"`` and ``"drop"`` included); None for anything else."""
    from sklearn.compose import ColumnTransformer
    from sklearn.pipeline import FeatureUnion

    if isinstance(estimator, ColumnTransformer):
        return [part for _, part, _ in estimator.transformers] + [estimator.remainder]
    if isinstance(estimator, FeatureUnion):
        return [part for _, part in estimator.transformer_list]
    return None


def _keeps_nan(step):
    """Whether `step`, a Pipeline step before the last, hands NaN on where it gets it: a
    scaler of :data:`_KEEPS_NAN`, an identity ``FunctionTransformer``, a pipeline of such
    steps, a column transformer or union whose every part is one (or passes or drops
    columns)."""
    from sklearn.preprocessing import FunctionTransformer

    if isinstance(step, str) or step is None:
        return step != "drop"
    if type(step) is FunctionTransformer:
        return step.func is None
    steps = _pipeline_steps(step)
    if steps is not None:
        return all(_keeps_nan(s) for s in steps)
    parts = _parts(step)
    if parts is not None:
        return all(_keeps_nan(part) for part in parts)
    return (type(step).__module__.rpartition("._")[0] or type(step).__module__,
            type(step).__name__) in _KEEPS_NAN


def _non_finite(X):
    """``(NaN cells, infinite cells, rows with either, rows)`` of X; None where it has none
    or its values are not numbers (text, objects)."""
    if sparse.issparse(X):
        if X.format not in ("csr", "csc", "coo", "bsr"):
            X = X.tocsr()
        values = X.data
        if values.dtype.kind not in "fc" or np.isfinite(values.sum()):
            return None
        bad = ~np.isfinite(values)
        coo = X.tocoo()
        rows = np.unique(coo.row[~np.isfinite(coo.data)])
        return (int(np.isnan(values).sum()), int(bad.sum() - np.isnan(values).sum()),
                len(rows), X.shape[0])
    if hasattr(X, "isna") and hasattr(X, "columns"):  # a pandas DataFrame
        missing = X.isna().to_numpy()
        numbers = X.select_dtypes("number")
        infinite = np.isinf(numbers.to_numpy(dtype=float, na_value=np.nan)) if len(
            numbers.columns) else np.zeros((len(X), 0), dtype=bool)
        if not missing.any() and not infinite.any():
            return None
        rows = missing.any(axis=1) | infinite.any(axis=1)
        return int(missing.sum()), int(infinite.sum()), int(rows.sum()), len(X)
    if not isinstance(X, np.ndarray):
        if not isinstance(X, (list, tuple)):
            return None
        try:
            X = np.asarray(X)
        except (ValueError, TypeError):
            return None
    if X.dtype.kind not in "fc" or X.size == 0 or np.isfinite(X.sum()):
        return None
    bad = ~np.isfinite(X)
    n_bad = int(bad.sum())
    if not n_bad:
        return None  # the sum overflowed
    n_nan = int(np.isnan(X[bad]).sum())
    rows = bad.reshape(len(X), -1).any(axis=1)
    return n_nan, n_bad - n_nan, int(rows.sum()), len(X)
