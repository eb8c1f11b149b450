"""Search spaces: what can be tried, built from what users already write for sklearn.

A space is given as

- one estimator and a ``param_grid`` (a dict, or a list of dicts, as
  :class:`~sklearn.model_selection.GridSearchCV` takes it; values may be
  estimators, e.g. the steps of a :class:`~sklearn.pipeline.Pipeline`);
- one estimator and ``param_distributions`` (as
  :class:`~sklearn.model_selection.RandomizedSearchCV` takes them: a value is
  a list, sampled uniformly, or a distribution with an ``rvs`` method, any
  ``scipy.stats`` frozen distribution);
- a list of estimators, each one candidate;
- a list of ``(estimator, param_grid)`` pairs, each expanded to its grid
  (plain estimators and pairs may be mixed);
- ``param_grid`` or ``param_distributions`` alone: parameters that build no
  estimator, to featurize or sample.

A list of dicts is a tree-structured space: each dict is one branch, with its
own parameters. Candidates of a list of estimators are described by
parameters of a virtual ``estimator`` step: ``{"estimator": SVC(),
"estimator__C": 10}``, which reads like a ``Pipeline`` step choice and gives
every candidate its own row in ``cv_results_``. Such a list is the
tree-structured space with one branch per dict of each estimator's grid,
whose ``estimator`` is that estimator and whose parameters are the grid's,
under the step.

The features follow Dodge et al., "Random Search for Hyperparameters using
Determinantal Point Processes" (2017), section 3.3.4-3.3.5: each parameter owns
a fixed segment of the vector, and

- a distribution with a finite support ``[lo, hi]`` (continuous or integer)
  gives one column ``(h - lo) / (hi - lo)``, on a log axis for a log-scaled
  distribution (``loguniform`` / ``reciprocal``), so that the features of its
  samples are uniform as the distribution's are; values outside the support
  are clipped to it;
- a distribution with an infinite support (``norm``, ``expon``, ``poisson``)
  gives one column, its CDF at ``h``;
- a list of numbers (``int`` or ``float``, not ``bool``) is ordinal: its m
  distinct values, sorted, get the unary code of m columns, ``[1, 0, 0]``,
  ``[1, 1, 0]``, ``[1, 1, 1]`` for three values, so neighbours in the order are
  closer than values far apart;
- any other list (strings, bools, None, estimators, mixed) is categorical: one
  column per distinct value, one-hot. An estimator is one value by identity:
  ``clf=1`` is the second estimator among the choices of ``clf``;
- a parameter that the branch of a configuration does not have is inactive:
  its columns are 0 and its mask entries False.

Columns are the union over branches. A parameter that several branches give
the same distribution, or the same set of numbers, shares its columns; the
categorical lists of a parameter share one one-hot over all their values, so
that ``[{"clf": [LogisticRegression()], ...}, {"clf": [SVC()], ...}]`` makes
``clf`` one categorical variable, as in the paper's choice among models (and
the estimators of a list one categorical ``estimator``).
"""

import numbers
from collections.abc import Mapping
from functools import cached_property

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import ParameterGrid
from sklearn.utils import check_random_state

from .params import _build_params, _draw, _is_list
from .validation import _STEP, _check_space


class SearchSpace:
    """What a search can try: enumerated, sampled, mutated, featurized and built.

    Parameters
    ----------
    estimator : estimator object, list or None, default=None
        One estimator whose parameters `param_grid` or `param_distributions`
        vary; or a list of candidates, estimators and/or ``(estimator,
        param_grid)`` pairs, described by a virtual ``estimator`` step; or
        None for parameters alone, which build no estimator.

    param_grid : dict or list of dicts, default=None
        Parameter names mapped to lists of values, as
        :class:`~sklearn.model_selection.GridSearchCV` takes them. A list of
        dicts is a tree-structured space: each dict is one branch, with its
        own parameters. Values may be estimators (the steps of a
        :class:`~sklearn.pipeline.Pipeline`). None, with one estimator, is
        that estimator alone. Must be None when `estimator` is a list.

    param_distributions : dict or list of dicts, default=None
        As `param_grid`, with distributions (an ``rvs`` method, such as any
        ``scipy.stats`` frozen distribution) as well as lists, as
        :class:`~sklearn.model_selection.RandomizedSearchCV` takes them. At
        most one of `param_grid` and `param_distributions` is given.

    Attributes
    ----------
    candidates : list of dict
        Every configuration of a finite space, in the order of
        :class:`~sklearn.model_selection.ParameterGrid`; a space with a
        distribution raises a ValueError.

    first_estimator : estimator object or None
        The estimator of the first candidate, standing for all of them (tags,
        default scorer); None for parameters alone.

    is_finite : bool
        Whether every value is a list, so that `candidates` enumerates them.

    n_features : int
        Number of feature columns.

    feature_names_ : ndarray of str of shape (n_features,)
        Name of each column: ``"C"`` for one column, ``"kernel=rbf"`` for a
        one-hot column, ``"degree>=3"`` for a unary column.

    feature_params_ : ndarray of str of shape (n_features,)
        The parameter each column encodes: its name, followed by ``[b]`` when
        the name has distinct encodings in different branches (``b`` the first
        branch of each). The columns of one parameter are contiguous.

    See Also
    --------
    sklearn.model_selection.ParameterGrid : Enumerating a grid.
    sklearn.model_selection.ParameterSampler : Sampling distributions, one at a time.
    sksel.spaces.arc_kernel : A kernel over the features and masks of a space.

    Notes
    -----
    See the module docstring for the encoding of each kind of value. A
    configuration belongs to the branch with the most parameters among those
    whose every parameter it sets to an admissible value; it may also set
    parameters of other branches, which are inactive and ignored, so that two
    configurations differing only there have the same features.

    Examples
    --------
    >>> from scipy.stats import loguniform
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.svm import SVC
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sksel.spaces import SearchSpace
    >>> space = SearchSpace([LogisticRegression(),
    ...                      (DecisionTreeClassifier(), {"max_depth": [2, 4]})])
    >>> len(space.candidates)
    3
    >>> space.build(space.candidates[2])
    DecisionTreeClassifier(max_depth=4)
    >>> space.feature_names_.tolist()
    ['estimator=0', 'estimator=1', 'estimator__max_depth>=2', 'estimator__max_depth>=4']

    A tree-structured space with a distribution is sampled and featurized:

    >>> space = SearchSpace(SVC(), param_distributions=[
    ...     {"kernel": ["linear"], "C": loguniform(1e-2, 1e2)},
    ...     {"kernel": ["rbf"], "C": loguniform(1e-2, 1e2), "gamma": [0.1, 1.0]},
    ... ])
    >>> space.feature_names_.tolist()
    ['C', 'kernel=linear', 'kernel=rbf', 'gamma>=0.1', 'gamma>=1.0']
    >>> F, active = space.featurize([{"kernel": "linear", "C": 1.0},
    ...                              {"kernel": "rbf", "C": 10.0, "gamma": 1.0}])
    >>> F
    array([[0.5 , 1.  , 0.  , 0.  , 0.  ],
           [0.75, 0.  , 1.  , 1.  , 1.  ]])
    >>> active
    array([[ True,  True,  True, False, False],
           [ True,  True,  True,  True,  True]])
    >>> [sorted(params) for params in space.sample(3, random_state=0)]
    [['C', 'kernel'], ['C', 'gamma', 'kernel'], ['C', 'gamma', 'kernel']]
    >>> space.build({"kernel": "rbf", "C": 10.0, "gamma": 1.0})
    SVC(C=10.0, gamma=1.0)
    """

    def __init__(self, estimator=None, param_grid=None, *, param_distributions=None):
        self.estimator = estimator
        self.param_grid = param_grid
        self.param_distributions = param_distributions
        self._grids = _check_space(estimator, param_grid, param_distributions)
        self._branches, params = _build_params(self._grids)
        self._names = {name for grid in self._grids for name in grid}
        self.is_finite = all(
            _is_list(values) for grid in self._grids for values in grid.values()
        )

        feature_names, feature_params, start = [], [], 0
        for param in params:
            n_columns = len(param.suffixes)
            param.columns = slice(start, start + n_columns)
            start += n_columns
            feature_names += [param.label + suffix for suffix in param.suffixes]
            feature_params += [param.label] * n_columns
        self.n_features = start
        self.feature_names_ = np.asarray(feature_names, dtype=object)
        self.feature_params_ = np.asarray(feature_params, dtype=object)

    @cached_property
    def candidates(self):
        """Every configuration of a finite space, in the order of ``ParameterGrid``.

        Examples
        --------
        >>> from sksel.spaces import SearchSpace
        >>> SearchSpace(param_grid=[{"a": [1, 2]}, {"b": ["x"]}]).candidates
        [{'a': 1}, {'a': 2}, {'b': 'x'}]
        """
        if not self.is_finite:
            name = next(
                name for grid in self._grids for name, values in grid.items()
                if not _is_list(values)
            )
            raise ValueError(
                f"Only a space whose values are all lists can be enumerated; parameter "
                f"{name!r} is a distribution."
            )
        return list(ParameterGrid(self._grids))

    @property
    def branches(self):
        """The branches of the space, each a dict of parameters, validated (one for a dict).

        Examples
        --------
        >>> from sksel.spaces import SearchSpace
        >>> SearchSpace(param_grid=[{"a": [1, 2]}, {"b": ["x"]}]).branches
        [{'a': [1, 2]}, {'b': ['x']}]
        """
        return self._grids

    @property
    def first_estimator(self):
        """The estimator of the first candidate, standing for all of them; None without one."""
        if _is_list(self.estimator):
            return self._grids[0][_STEP][0]
        return self.estimator

    def build(self, params):
        """A fresh, unfitted estimator for the configuration `params`.

        Parameters
        ----------
        params : dict
            A configuration, as `candidates`, :meth:`sample` or :meth:`mutate`
            give them.

        Returns
        -------
        estimator : estimator object
            A clone of `estimator` (for a list, of the configuration's
            ``estimator``) with the parameters set to clones of their values,
            so that neither the space's estimators nor those among the values
            are ever fitted.
        """
        if _is_list(self.estimator):
            estimator = params[_STEP]
            params = {k[len(_STEP) + 2 :]: v for k, v in params.items() if k != _STEP}
        else:
            estimator = self.estimator
        return clone(estimator).set_params(**clone(params, safe=False))

    def sample(self, n, random_state=None):
        """Draw `n` configurations, independently and with replacement.

        Each draw picks a branch uniformly, then every parameter of that branch:
        a list uniformly, a distribution by its ``rvs``. The draws of one
        parameter are made at once, so large samples (the pools that k-DPP
        samplers choose from) are fast.

        Parameters
        ----------
        n : int
            Number of configurations.
        random_state : int, RandomState instance or None, default=None
            Seed or generator of the draws.

        Returns
        -------
        params_list : list of dict
            `n` configurations, each with the sorted parameters of its branch.

        Examples
        --------
        >>> from sksel.spaces import SearchSpace
        >>> space = SearchSpace(param_distributions={"a": [1, 2, 3], "b": ["x", "y"]})
        >>> space.sample(2, random_state=0)
        [{'a': 1, 'b': 'x'}, {'a': 2, 'b': 'y'}]
        """
        if not isinstance(n, numbers.Integral) or n < 0:
            raise ValueError(f"n must be a non-negative integer; got {n!r}.")
        rng = check_random_state(random_state)
        branch_of = rng.randint(len(self._grids), size=n)
        params_list = [{} for _ in range(n)]
        for b, grid in enumerate(self._grids):
            rows = np.flatnonzero(branch_of == b)
            for name, values in sorted(grid.items()):
                for i, value in zip(rows, _draw(values, len(rows), rng)):
                    params_list[i][name] = value
        return params_list

    def mutate(self, params, random_state=None, *, step=0.1, branch_rate=0.05,
               extra_rate=0.1):
        """A neighbour of the configuration `params`.

        One parameter of its branch, chosen uniformly among those with more
        than one value, moves to a neighbouring value: a distribution by a
        step of standard deviation `step` in its CDF (so that any
        distribution, log-uniform or integer ones included, moves by a share
        of its probability mass), a list of numbers to an adjacent value, any
        other list to another of its values. Each other parameter moves too
        with probability `extra_rate`. With probability `branch_rate` (and
        more than one branch) the configuration is instead drawn afresh from
        another branch.

        Parameters
        ----------
        params : dict
            A configuration of this space.
        random_state : int, RandomState instance or None, default=None
            Seed or generator of the draws.
        step : float, default=0.1
            Standard deviation of a distribution's step, in CDF units.
        branch_rate : float, default=0.05
            Probability to jump to another branch.
        extra_rate : float, default=0.1
            Probability that each other parameter moves as well.

        Returns
        -------
        mutant : dict
            The neighbour, with the parameters of its branch.

        Examples
        --------
        >>> from sklearn.tree import DecisionTreeClassifier
        >>> from sksel.spaces import SearchSpace
        >>> space = SearchSpace(DecisionTreeClassifier(), param_distributions={
        ...     "max_depth": [2, 4, 8, 16], "criterion": ["gini", "entropy"]})
        >>> space.mutate({"max_depth": 4, "criterion": "gini"}, random_state=1)
        {'criterion': 'gini', 'max_depth': 2}
        """
        rng = check_random_state(random_state)
        b = self._branch_of(params)
        if len(self._grids) > 1 and rng.uniform() < branch_rate:
            other = rng.choice([k for k in range(len(self._grids)) if k != b])
            return {name: _draw(values, 1, rng)[0]
                    for name, values in sorted(self._grids[other].items())}
        movable = [name for name, (_, own) in sorted(self._branches[b].items())
                   if own.can_move()]
        mutant = {name: params[name] for name in self._branches[b]}
        if not movable:
            return mutant
        first = movable[rng.randint(len(movable))]
        for name in movable:
            if name == first or rng.uniform() < extra_rate:
                _, own = self._branches[b][name]
                mutant[name] = own.neighbour(params[name], rng, step)
        return mutant

    def featurize(self, params_list):
        """Feature vectors and active-masks of configurations.

        Parameters
        ----------
        params_list : list of dict
            Configurations, as `candidates` or :meth:`sample` give them. An
            estimator value must be the very object of the space (estimators
            match by identity).

        Returns
        -------
        F : ndarray of shape (len(params_list), n_features)
            Features in [0, 1]; 0 where inactive.
        active : ndarray of bool of shape (len(params_list), n_features)
            Whether the parameter of each column is active in each configuration.

        Examples
        --------
        >>> from scipy.stats import norm
        >>> from sksel.spaces import SearchSpace
        >>> space = SearchSpace(param_distributions={"shift": norm(0, 1),
        ...                                          "penalty": ["l1", "l2", None]})
        >>> space.feature_names_.tolist()
        ['penalty=l1', 'penalty=l2', 'penalty=None', 'shift']
        >>> space.featurize([{"shift": 0.0, "penalty": None}])[0]
        array([[0. , 0. , 1. , 0.5]])
        """
        branch_of = np.array([self._branch_of(params) for params in params_list], dtype=int)
        F = np.zeros((len(params_list), self.n_features))
        active = np.zeros(F.shape, dtype=bool)
        for b, branch in enumerate(self._branches):
            rows = np.flatnonzero(branch_of == b)
            for name, (param, _) in branch.items():
                F[rows, param.columns] = param.encode([params_list[i][name] for i in rows])
                active[rows, param.columns] = True
        return F, active

    def _branch_of(self, params):
        """Index of the branch that `params` belongs to (see Notes of the class)."""
        if not isinstance(params, Mapping):
            raise TypeError(f"A configuration must be a dict of parameters; got {params!r}.")
        unknown = sorted(set(params) - self._names)
        if unknown:
            raise ValueError(
                f"Configuration {params!r} sets {unknown}, which no branch of the "
                "space has."
            )
        reasons = [_mismatch(branch, params) for branch in self._branches]
        matches = [b for b, reason in enumerate(reasons) if reason is None]
        if not matches:
            raise ValueError(
                f"Configuration {params!r} belongs to no branch of the space: "
                + "; ".join(
                    f"branch {b}: {reason}" if len(reasons) > 1 else reason
                    for b, reason in enumerate(reasons)
                )
                + "."
            )
        return max(matches, key=lambda b: len(self._branches[b]))


def first_estimator(estimator):
    """The estimator that stands for `estimator` (an estimator or a list) before fit."""
    if _is_list(estimator) and len(estimator):
        head = estimator[0]
        return head[0] if isinstance(head, tuple) else head
    return estimator


def one_estimator_space(search, estimator, param_distributions):
    """The space of a search over one estimator's parameters, or a plain error.

    Mutant-UCB and the k-DPP search the parameters of one estimator: a list
    of estimators, or no `param_distributions`, is refused with a message that
    says so and what to do instead, before any training.

    Parameters
    ----------
    search : str
        The search's class name, for the messages.
    estimator : estimator object or list
    param_distributions : dict, list of dicts or None

    Returns
    -------
    space : SearchSpace
    """
    if _is_list(estimator):
        raise ValueError(
            f"estimator: {search} searches the parameters of one estimator, and got a "
            f"list of {len(estimator)}. To choose among estimators, give one Pipeline "
            "whose step is a parameter in param_distributions ({'clf': [...]}, one dict "
            "per estimator with its own parameters), or use DAUBSearch or GPUCBSelector, "
            "which take a list of estimators."
        )
    if param_distributions is None:
        raise ValueError(
            f"param_distributions: {search} needs the space of the estimator's "
            "parameters, a dict or a list of dicts; got None."
        )
    return SearchSpace(estimator, param_distributions=param_distributions)


def _mismatch(branch, params):
    """Why `params` is not a configuration of `branch`, or None if it is."""
    for name, (_, own) in branch.items():
        if name not in params:
            return f"{name!r} is missing"
        if not own.admits(params[name]):
            return f"{name}={params[name]!r} is not {own.expects}"
    return None
