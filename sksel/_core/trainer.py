"""The contract between a search and how its candidates are trained.

A policy hands out actions ``(candidate, resource)`` (:mod:`sksel._core.policy`);
a *trainer* says what a resource is and gives it. The search base
(:class:`~sksel._core.search.BaseSelectionSearch`) and its run call the
trainer its subclass's ``_make_policy`` returns, and no method of the search:

``split(resource)``
    The folds ``[(train, test), ...]`` an evaluation at `resource` runs on.
``iter_of(resource)``
    Its position in the trainer's schedule (``iter`` in ``cv_results_``).
``prepare(job, action)``
    Called once as `action` is handed out, before its tasks are made or
    replayed from a checkpoint.
``task(job, action, fold, train, test)``
    The task ``(func, args, kwargs)`` that evaluates `action` on one fold; it
    has no side effect, and its output is a dict as scikit-learn's
    ``_fit_and_score`` returns it.
``on_evaluation(action, outputs, **info)``
    As a listener of the fit (:class:`~sksel._core.run.Listener`), the raw
    outputs of every split of a finished action, before the policy hears of
    them: what later tasks take up is kept here.
``row_params(job, action)``, ``columns(job, actions)``
    The ``params`` of the results row of `action`, and the columns
    ``{name: values}`` the rows of `actions` add.
``ranking_resource(results)``
    The resource of each row of `results` that ranks before its score: a row
    trained less measures a model the refit does not rebuild.
``refit(job, candidate, resource, fit_params)``
    The selected candidate, trained on all the rows as its row measured it.
``refit_task(job, candidate, resource, fit_params)``
    The task ``(func, args, kwargs)`` whose call returns what ``refit`` does,
    to run on a worker the search would otherwise leave idle
    (:mod:`~sksel._core.early_refit`); None where the refit needs what only
    the trainer holds.
``close()``
    Release what the fit held (called when the fit ends, however it ends).
``state_key``
    The entry of a task's output holding learned state that later tasks
    take up (the engine's ``state_key``), or None.

:class:`Trainer` gives every member but `split`, `iter_of` and `task` a
default: nothing to prepare or keep, the candidate's parameters as they are,
ranking by the resource itself, and a refit of a fresh estimator (a task that
runs anywhere). The trainers
are in :mod:`sksel.training`.
"""

from .run import Listener


class Trainer(Listener):
    """Base of the trainers: the defaults of the contract (see the module docstring)."""

    state_key = None

    def split(self, resource):
        raise NotImplementedError

    def iter_of(self, resource):
        raise NotImplementedError

    def task(self, job, action, fold, train, test):
        raise NotImplementedError

    def prepare(self, job, action):
        """Nothing to prepare: the candidate's estimator is built already."""

    def row_params(self, job, action):
        """The candidate's parameters, as drawn."""
        return job.candidates[action[0]]

    def columns(self, job, actions):
        """No column of its own."""
        return {}

    def ranking_resource(self, results):
        """``n_resources``, the resource each row was evaluated with."""
        return results["n_resources"]

    def refit(self, job, candidate, resource, fit_params):
        """A fresh estimator of `candidate`, fitted on all the rows."""
        func, args, kwargs = self.refit_task(job, candidate, resource, fit_params)
        return func(*args, **kwargs)

    def refit_task(self, job, candidate, resource, fit_params):
        """The task of :meth:`refit`: a fresh estimator of `candidate` fitted on all the rows."""
        return _fitted, (job.space.build(job.candidates[candidate]), job.X, job.y, fit_params), {}

    def close(self):
        """Nothing held."""


def _fitted(estimator, X, y, fit_params):
    """`estimator` fitted on `X` and `y` (None: unsupervised) with `fit_params`."""
    if y is None:
        estimator.fit(X, **fit_params)
    else:
        estimator.fit(X, y, **fit_params)
    return estimator
