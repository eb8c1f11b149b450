"""The names of candidates: one rule for the progress lines, the results and the displays;
and counts in words (:func:`counted`), for every message."""

import numbers

from ..spaces.space import _STEP, first_estimator


def counted(n, noun, plural=None):
    """``"1 candidate"``, ``"3 candidates"``: `n` and its noun in the number `n` takes.

    `plural` where it is not the noun and an ``s``: ``counted(2, "look on a
    subsample", "looks on a subsample")``.

    Examples
    --------
    >>> from sksel._core.naming import counted
    >>> counted(1, "candidate"), counted(0, "candidate"), counted(2, "fold")
    ('1 candidate', '0 candidates', '2 folds')
    """
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def _final_position(estimator, params, path=""):
    """``(final, path)``: the estimator a candidate puts in the final position, and its name.

    The last step of `estimator`, recursively through nested ``Pipeline``
    steps, unless the candidate's `params` replace it: ``params["clf"]``
    replaces the step ``clf``, ``params["model__clf"]`` the step ``clf`` of a
    nested pipeline ``model``. `path` names `estimator` among the parameters
    ("" for the searched estimator itself); the returned path names the final
    position, under which `params` address the final estimator's parameters.
    """
    while hasattr(estimator, "steps"):
        name, step = estimator.steps[-1]
        path = f"{path}__{name}" if path else name
        estimator = params.get(path, step)
    return estimator, path


def _differing_estimator_params(estimators):
    """Class name -> the parameters set differently on the `estimators` of that class."""
    by_class = {}
    for estimator in {id(estimator): estimator for estimator in estimators}.values():
        if hasattr(estimator, "get_params"):
            by_class.setdefault(type(estimator).__name__, []).append(
                estimator.get_params(deep=False))
    return {name: sorted(key for key in set().union(*group)
                         if len({repr(p.get(key)) for p in group}) > 1)
            for name, group in by_class.items()}


def _shown_key(key, path):
    """`key` as a name shows it: within the final estimator at `path`, or from the top."""
    if path and key.startswith(f"{path}__"):
        return key[len(path) + 2 :]
    return key[len(_STEP) + 2 :] if key.startswith(f"{_STEP}__") else key


def _value(value):
    """`value` in a few characters."""
    if isinstance(value, numbers.Real) and not isinstance(value, (bool, numbers.Integral)):
        return f"{value:.3g}"
    if hasattr(value, "get_params"):
        return type(value).__name__
    return repr(value) if isinstance(value, str) else str(value)


class ShortNames:
    """Short names of candidates: the final estimator's class and the parameters that vary.

    A candidate is named after the estimator in its final position: the
    estimator itself, or the final step of a ``Pipeline`` (recursively for
    nested ones), or the estimator a parameter puts in that position
    (``clf`` replacing the final step ``clf``; ``model__clf`` in a nested
    pipeline ``model``). Shown are the parameters whose values differ between
    candidates: those of the search space, those addressed to the final
    estimator by their name within it (``clf__C`` as ``C``), the others by
    their name from the top (a step replaced before the final one as
    ``scale=MinMaxScaler``); and those set on the final estimators of a list
    or a grid of steps that differ between estimators of the same class.
    Those all candidates share are not shown.

    Parameters
    ----------
    candidates : list of dict
        The candidates' parameters; the list may grow during the search
        (MutantUCBSearch's mutants), names are made when asked.
    estimator : estimator object or None
        The searched estimator, which candidates without an ``estimator``
        parameter (those of a list of estimators) configure; None for
        parameters alone, which build no estimator.

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.pipeline import Pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sksel._core.naming import ShortNames
    >>> pipe = Pipeline([("scale", StandardScaler()), ("clf", LogisticRegression())])
    >>> names = ShortNames([{"clf": GaussianNB()}, {"clf__C": 0.1}, {"clf__C": 10.0}], pipe)
    >>> [names(c) for c in range(3)]
    ['GaussianNB', 'LogisticRegression(C=0.1)', 'LogisticRegression(C=10)']
    """

    def __init__(self, candidates, estimator):
        self.candidates = candidates
        self.estimator = estimator
        self.varying = None
        self._names = {}

    def __call__(self, candidate):
        if self.varying is None:
            # Of the candidates known at the first name asked for, not mutants bred later.
            candidates = self.candidates
            keys = {key for params in candidates for key in params if key != _STEP}
            missing = object()
            self.varying = sorted(
                key for key in keys
                if len({repr(params.get(key, missing)) for params in candidates}) > 1
            )
            self._set_on = _differing_estimator_params(
                self._final(params)[0] for params in candidates)
        if candidate not in self._names:
            self._names[candidate] = self._name(self.candidates[candidate])
        return self._names[candidate]

    def _final(self, params):
        """``(final estimator, its path)`` of the candidate `params` (:func:`_final_position`)."""
        if _STEP in params:
            return _final_position(params[_STEP], params, _STEP)
        return _final_position(self.estimator, params)

    def _name(self, params):
        final, path = self._final(params)
        name = "" if final is None else type(final).__name__
        shown = {}
        if hasattr(final, "get_params"):
            own = final.get_params(deep=False)
            shown = {key: own[key] for key in self._set_on.get(name, ())}
        # The parameters that put `final` in its position are its name, not shown.
        shown.update((_shown_key(key, path), params[key]) for key in self.varying
                     if key in params and not (key == path or path.startswith(f"{key}__")))
        shown = ", ".join(f"{key}={_value(value)}" for key, value in shown.items())
        return f"{name}({shown})" if shown else name


def candidate_names(candidates, estimator, parents=None):
    """The names of `candidates` by sksel's one rule (:class:`CandidateNames`).

    The progress lines, the ``candidate_name`` column of the results and the
    displays name candidates by it. `estimator` is the search's (a list of
    candidates: its first one); `parents` maps a bred candidate to its parent,
    a dict the fit fills as it breeds them (None: no candidate has a parent).
    """
    parents = {} if parents is None else parents
    short = ShortNames(candidates, first_estimator(estimator))
    return CandidateNames(short, lambda candidate: parents.get(candidate, -1))


class CandidateNames:
    """Names of candidates: one rule for the progress lines, the results and the displays.

    A candidate's name is ``#`` and its ``candidate_id``, then, for a mutant,
    ``(from #`` and its parent's id ``)``, then its short name
    (:class:`ShortNames`): ``#12 (from #3) SGDClassifier(alpha=0.0017)``.

    Parameters
    ----------
    short_names : callable
        ``short_names(candidate) -> str`` (:class:`ShortNames`).
    parent_of : callable, default=None
        ``parent_of(candidate) -> int``, the candidate's parent id, or -1 for
        a candidate that has none; None: no candidate has a parent.
    """

    def __init__(self, short_names, parent_of=None):
        self.short_names = short_names
        self.parent_of = parent_of

    def __call__(self, candidate):
        parent = -1 if self.parent_of is None else self.parent_of(candidate)
        lineage = f" (from #{parent})" if parent >= 0 else ""
        return f"#{candidate}{lineage} {self.short_names(candidate)}"
