"""What a Mutant-UCB mutant inherits from its parent's trained model.


A mutant is its parent's configuration with some parameters changed. It goes
on from the parent's trained model when that model can take the new
parameters and keep training: :func:`inheritable` says which parameters to
set (or that it cannot), :func:`inherited` sets them on a copy of the model
and keeps what it learned where shapes allow, and :func:`continued` runs one
sub-train of a model, new, continued or inherited, starting the mutant
afresh when its parent's model cannot take the parameters after all.
"""

from .._compat import check_parameters
from .subtrain import _is_skorch, _last_step

#: Parameters of scikit-learn models whose change reshapes what was learned.
_RESHAPING = ("hidden_layer_sizes",)


def inheritable(parent, mutant, estimator):
    """The parameters to set on the parent's fitted model, or None when it cannot go on.

    Parameters
    ----------
    parent, mutant : dict
        The configurations of the parent and of its mutant.
    estimator : estimator
        The searched estimator: of a ``Pipeline``, only parameters of the last
        step (the part that trains incrementally) may change.

    Returns
    -------
    changed : dict or None
        The mutant's parameters that differ from the parent's, or None when
        the mutant changes which parameters are set, reshapes the model
        (scikit-learn's ``hidden_layer_sizes``), or changes an earlier step
        of a ``Pipeline``.
    """
    changed = {k: v for k, v in mutant.items()
               if k not in parent or parent[k] is not v and parent[k] != v}
    if set(mutant) != set(parent) or any(k.endswith(_RESHAPING) for k in changed):
        return None
    _, prefix = _last_step(estimator)
    if any(not k.startswith(prefix) for k in changed):
        return None
    return changed


def inherited(model, params):
    """`model` with `params` set, keeping all it learned.

    The parameters are checked as a fresh ``fit`` checks them
    (:func:`~sksel._compat.check_parameters`): a scikit-learn model's
    ``partial_fit`` would otherwise go on with a value its ``fit`` rejects. A
    skorch net that `params` re-initialises gets back its module's
    ``state_dict``; where `params` reshape or drop one of its tensors (a
    module parameter such as a layer's width), the net cannot keep what it
    learned, and a ``ValueError`` says so: the mutant starts afresh, as one
    that changes scikit-learn's ``hidden_layer_sizes`` does.
    """
    net, _ = _last_step(model)
    if not _is_skorch(net):
        model.set_params(**params)
        check_parameters(net)
        return model
    learned = {k: v.detach().clone() for k, v in net.module_.state_dict().items()}
    model.set_params(**params)
    state = net.module_.state_dict()
    lost = [k for k, v in learned.items() if k not in state or state[k].shape != v.shape]
    if lost or set(state) != set(learned):
        raise ValueError(f"{sorted(params)} reshape the learned tensors {lost} of the net.")
    net.module_.load_state_dict(learned)
    return model


def continued(model, estimator, subtrainer, inherit, X, y, fit_params):
    """``(model, restarted)``: one sub-train of `model` (or of `estimator`, new).

    With `inherit` (parameters), the parent's `model` takes them and goes on;
    if it cannot, the mutant starts afresh from `estimator` (``restarted``).
    """
    if model is None:
        return subtrainer.first(estimator, X, y, **fit_params), False
    if inherit is None:
        return subtrainer.next(model, X, y, **fit_params), False
    try:
        return subtrainer.next(inherited(model, inherit), X, y, **fit_params), False
    except Exception:
        return subtrainer.first(estimator, X, y, **fit_params), True
