"""LCCV (Mohr & van Rijn, TPAMI 2023) as a learner selector, run as its authors run it.

``select`` is the authors' model-selection loop over a list of learners: one
call of ``lccv.lccv`` per learner, in the order given, with ``r`` the best
score seen so far (``-inf`` first); the learner that last raised ``r`` is
selected. In ``lccv`` 0.2.2 a score is ``base_scoring`` (here accuracy, or R²
for regressors), higher is better: a learner whose optimistic projection to
the target anchor falls below ``r`` is dropped (``lccv`` returns NaN) and one
whose mean at an anchor already beats ``r`` jumps to the target anchor. (The
docstring's "lower is better" and the error rates of the authors' older
experiment scripts are out of date.) A learner whose call raises is not
selected, as in the authors' loop; ``lccv`` raises as soon as one fit raises,
which happens on its first anchor, 64 rows, to learners that need more rows
per class (QDA with more features than rows of a class, SGD's early-stopping
split with fewer rows than classes); with ``raise_exceptions=False`` instead,
``lccv`` itself crashes (``IndexError``) when its first anchor failed.
``SETTINGS`` holds the two settings the benchmarks run: the package's defaults
(3 to 10 evaluations per anchor; at the target anchor all of them train on the
same rows, in another order) and one evaluation per anchor, a holdout's budget.

The validation set. ``lccv`` cannot be given one: with
``fix_train_test_folds=True`` it reseeds numpy's global RNG with ``seed``,
shuffles the rows (``np.random.shuffle`` of their indices) and keeps the first
``len(X) - target_anchor`` as its test set, the others as its training rows,
the same for every learner called with the same seed. ``select`` therefore
hands it the rows in the order that this shuffle turns into the validation
part of the benchmark's split followed by its training part, so that every
``lccv`` call tests on exactly the holdout the other methods use and draws its
subsamples from exactly their training rows (checked on the first call). The
subsamples themselves are ``lccv``'s: a ``RandomState(seed)`` draw without
replacement at every anchor (64, 128, ... and the training part's size),
neither stratified nor nested.

What ``lccv`` changes around it, undone after every call: it switches on
scikit-learn's global ``enable_metadata_routing`` and reseeds numpy's global
RNG. ``timeout`` stays ``None``: with a timeout, fits run in ``pynisher``
subprocesses whose CPU the calling process does not see. XGBoost wants the
classes of a fit coded ``0..k-1``; on ``lccv``'s small unstratified subsamples
some are missing, so XGBoost learners are trained on the codes of the classes
present (``Tracked``). Every learner goes to ``lccv`` inside ``Tracked``, which
also counts the training rows of every fit, those of a call that raises
included.
"""
import logging
import time
import warnings

import numpy as np
import sklearn
from sklearn.base import BaseEstimator, clone

# name -> keyword arguments of lccv.lccv
SETTINGS = {
    "lccv": {},
    "lccv-1eval": dict(min_evals_for_stability=1, max_evaluations=1),
}

_ROWS = [0]  # training rows of every fit in Tracked (one process: timeout is None)


def _is_xgboost(estimator):
    if hasattr(estimator, "steps"):
        estimator = estimator.steps[-1][1]
    return type(estimator).__module__.split(".")[0] == "xgboost"


class Tracked(BaseEstimator):
    """`estimator` as ``lccv`` trains it: training rows counted, XGBoost's classes recoded.

    The classes of an XGBoost classifier's training rows are coded ``0..m-1``
    (those present) and its predictions decoded back.
    """

    def __init__(self, estimator):
        self.estimator = estimator

    def __sklearn_tags__(self):
        return self.estimator.__sklearn_tags__()

    def _relabels(self):
        tags = self.__sklearn_tags__()
        return _is_xgboost(self.estimator) and tags.estimator_type == "classifier"

    def fit(self, X, y):
        _ROWS[0] += len(y)
        self.estimator_ = clone(self.estimator)
        if self._relabels():
            self.classes_, codes = np.unique(y, return_inverse=True)
            self.estimator_.fit(X, codes)
        else:
            self.estimator_.fit(X, y)
            if hasattr(self.estimator_, "classes_"):
                self.classes_ = self.estimator_.classes_
        return self

    def predict(self, X):
        predicted = self.estimator_.predict(X)
        if self._relabels():
            return self.classes_[np.asarray(predicted, dtype=np.intp)]
        return predicted


def _lccv_order(split, n, seed):
    """The row order that ``lccv``'s shuffle (seed `seed`) makes validation, then training rows."""
    (train, val), = split
    if len(train) + len(val) != n or len(np.union1d(train, val)) != n:
        raise ValueError("LCCV needs a holdout split whose two parts hold every row once")
    shuffle = np.random.RandomState(seed).permutation(n)  # lccv: np.random.seed; np.random.shuffle
    order = np.empty(n, dtype=np.intp)
    order[shuffle[:len(val)]] = val
    order[shuffle[len(val):]] = train
    return order


def select(learners, X, y, split, regression=False, seed=0, **lccv_kwargs):
    """LCCV's choice among `learners`, tested on the validation part of `split`.

    `split` is a one-split list ``[(train, validation)]`` covering all rows of
    `X`. Returns ``(chosen, rows, scores, failed)``: the index of the selected
    learner (None when every call raised), the training rows of all fits, the
    score ``lccv`` returned per learner (NaN when it dropped the learner or
    raised) and the indices of the learners whose call raised.
    """
    import lccv

    (train, val), = split
    order = _lccv_order(split, len(y), seed)
    X_lccv, y_lccv = X[order], y[order]
    kwargs = dict(target_anchor=len(train), fix_train_test_folds=True, seed=seed, timeout=None,
                  base_scoring="r2" if regression else "accuracy")
    kwargs.update(lccv_kwargs)
    loggers = [logging.getLogger(name) for name in ("lccv", "elm")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    routing = sklearn.get_config()["enable_metadata_routing"]
    rows_before = _ROWS[0]
    r, chosen, scores, failed, checked = -np.inf, None, [], [], False
    try:
        for i, learner in enumerate(learners):
            rng_state = np.random.get_state()
            try:
                score, _, _, elm = lccv.lccv(Tracked(learner), X_lccv, y_lccv, r=r, **kwargs)
            except Exception:  # the authors' loop: a learner that raises is not selected
                score, elm = np.nan, None
                failed.append(i)
            finally:
                sklearn.set_config(enable_metadata_routing=routing)
                np.random.set_state(rng_state)
            if elm is not None and not checked:
                if not (np.array_equal(elm.X_test, X[val]) and np.array_equal(elm.y_test, y[val])
                        and np.array_equal(elm.y_train, y[train])):
                    raise RuntimeError("lccv did not test on the given validation rows")
                checked = True
            scores.append(score)
            if score > r:
                r, chosen = score, i
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)
    return chosen, _ROWS[0] - rows_before, scores, failed


def run(learners, X, y, split, regression=False, seed=0, **lccv_kwargs):
    """``select``, then the selected learner refitted on all of `X`, timed as the searches' ``fit``.

    Returns a dict: ``cpu`` (process CPU seconds of the selection and the
    refit), ``rows`` (training rows of the selection; the refit not counted),
    ``chosen``, ``estimator`` (the refitted learner), ``scores`` and ``failed``
    (see ``select``).
    """
    start = time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        chosen, rows, scores, failed = select(learners, X, y, split, regression, seed,
                                              **lccv_kwargs)
        if chosen is None:
            raise RuntimeError(f"LCCV: every learner raised ({failed})")
        estimator = clone(learners[chosen]).fit(X, y)
    cpu = time.process_time() - start
    return dict(cpu=cpu, rows=rows, chosen=chosen, estimator=estimator, scores=scores,
                failed=failed)
