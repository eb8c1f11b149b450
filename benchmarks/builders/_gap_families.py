"""The gap model told the learners' identities: ``build_daub_gap.py --families``.

The shipped :class:`~sksel.curves.gap_model.GapModel` is family-free. Here
the same location-scale model also gets, in its mean and in its log-scale,
one-hot offsets of the learner's family and of the leader's and their
products with the doublings of the rows left, with two groupings of LCDB's
20 learners: each learner its own family (`LEARNER`), or eight families
(`GROUPED`). Both are fitted the way the shipped one is (least squares, then
the log-scale on the log absolute residuals, then the residuals' law) and
compared with it on datasets none of them was fitted on (see
:func:`report`).
"""
import numpy as np
import pandas as pd

from sksel.curves.gap_model import FEATURES, GapModel, design, scale_design
from sksel.daub import RungPolicy

#: LCDB's learners and the learner each of ``own_curves.csv``'s stands for.
_LCDB_NAME = {
    "HistGradientBoostingClassifier": "sklearn.ensemble.GradientBoostingClassifier",
    "XGBClassifier": "sklearn.ensemble.GradientBoostingClassifier",
    "RandomForestClassifier": "sklearn.ensemble.RandomForestClassifier",
    "scaled KNeighborsClassifier": "sklearn.neighbors.KNeighborsClassifier",
    "scaled LinearSVC": "SVC_linear",
    "scaled LogisticRegression": "sklearn.linear_model.LogisticRegression",
    "scaled MLPClassifier": "sklearn.neural_network.MLPClassifier",
    "scaled SVC": "SVC_rbf",
}
#: LCDB's 20 learners by family.
_FAMILIES = {
    "single tree": ["sklearn.tree.DecisionTreeClassifier", "sklearn.tree.ExtraTreeClassifier"],
    "tree ensemble": ["sklearn.ensemble.RandomForestClassifier",
                      "sklearn.ensemble.ExtraTreesClassifier",
                      "sklearn.ensemble.GradientBoostingClassifier"],
    "linear": ["SVC_linear", "sklearn.linear_model.LogisticRegression",
               "sklearn.linear_model.RidgeClassifier", "sklearn.linear_model.SGDClassifier",
               "sklearn.linear_model.Perceptron",
               "sklearn.linear_model.PassiveAggressiveClassifier"],
    "kernel SVM": ["SVC_rbf", "SVC_poly", "SVC_sigmoid"],
    "kNN": ["sklearn.neighbors.KNeighborsClassifier"],
    "naive Bayes": ["sklearn.naive_bayes.BernoulliNB", "sklearn.naive_bayes.MultinomialNB"],
    "discriminant": ["sklearn.discriminant_analysis.LinearDiscriminantAnalysis",
                     "sklearn.discriminant_analysis.QuadraticDiscriminantAnalysis"],
    "MLP": ["sklearn.neural_network.MLPClassifier"],
}
#: ``{LCDB learner: family}``: each learner its own family.
LEARNER = {name: name for names in _FAMILIES.values() for name in names}
#: ``{LCDB learner: family}``: the eight families of `_FAMILIES`.
GROUPED = {name: family for family, names in _FAMILIES.items() for name in names}
#: The groupings :func:`report` compares with the family-free model.
GROUPINGS = {"by learner": LEARNER, "grouped": GROUPED}


def family_codes(learners, grouping):
    """Index of each of `learners`' family among `grouping`'s sorted families."""
    levels = sorted(set(grouping.values()))
    return np.array([levels.index(grouping[_LCDB_NAME.get(str(name).strip(), str(name).strip())])
                     for name in learners])


class FamilyGapModel(GapModel):
    """:class:`GapModel` whose features end with the learner's and the leader's family codes.

    Parameters
    ----------
    mean_coef, scale_coef, residuals
        As :class:`GapModel`'s, on :meth:`mean_terms` and :meth:`scale_terms`.
    grouping : dict
        ``{LCDB learner: family}`` (`LEARNER` or `GROUPED`); the codes are
        indices among its sorted families, the first the reference level.
    """

    def __init__(self, mean_coef, scale_coef, residuals, grouping):
        super().__init__(mean_coef, scale_coef, residuals)
        self.grouping = grouping
        self.n_families = len(set(grouping.values()))

    def _family_terms(self, features):
        doublings = features[:, FEATURES.index("doublings")]
        codes = features[:, -2:].astype(int)
        levels = np.arange(1, self.n_families)
        onehot = np.hstack([(codes[:, [k]] == levels).astype(float) for k in (0, 1)])
        return np.hstack([onehot, onehot * doublings[:, None]])

    def mean_terms(self, features):
        """The :func:`~sksel.curves.gap_model.design` terms, then the family terms."""
        return np.hstack([design(features[:, :-2]), self._family_terms(features)])

    def scale_terms(self, features):
        """The :func:`~sksel.curves.gap_model.scale_design` terms, then the family terms."""
        return np.hstack([scale_design(features[:, :-2]), self._family_terms(features)])

    @classmethod
    def fit(cls, features, gaps, grouping, n_residuals=None):
        """Fit as :meth:`GapModel.fit` does, on the terms with the families'."""
        features, gaps = np.asarray(features, dtype=float), np.asarray(gaps, dtype=float)
        model = cls(None, None, [0.0], grouping)
        terms = model.mean_terms(features)
        mean_coef = np.linalg.lstsq(terms, gaps, rcond=None)[0]
        residuals = gaps - terms @ mean_coef
        scale_terms = model.scale_terms(features)
        scale_coef = np.linalg.lstsq(scale_terms, np.log(np.abs(residuals) + 1e-4), rcond=None)[0]
        standardized = residuals / np.exp(scale_terms @ scale_coef)
        if n_residuals is not None:
            standardized = np.quantile(standardized, np.linspace(0, 1, n_residuals))
        return cls(mean_coef, scale_coef, standardized, grouping)

    def mean_scale(self, features):
        features = np.atleast_2d(np.asarray(features, dtype=float))
        return (self.mean_terms(features) @ self.mean_coef,
                np.exp(self.scale_terms(features) @ self.scale_coef))


class FamilyRungPolicy(RungPolicy):
    """:class:`~sksel.daub.RungPolicy` that appends the two learners' family codes."""

    def __init__(self, n_candidates, sizes, *, codes, **options):
        self.codes = codes
        super().__init__(n_candidates, sizes, **options)

    def _features(self, candidate, leader):
        return np.append(super()._features(candidate, leader),
                         [self.codes[candidate], self.codes[leader]])


def with_families(features, pairs, grouping):
    """`features` with the learner's and the leader's family codes as two last columns."""
    return np.column_stack([features, family_codes(pairs["learner"], grouping),
                            family_codes(pairs["leader"], grouping)])


def fit_model(name, features, gaps, pairs, kind="accuracy"):
    """The model `name` (``"family-free"`` or a key of `GROUPINGS`) fitted on the pairs, of
    scores of `kind` (the family models: accuracy only)."""
    if name == "family-free":
        return GapModel.fit(features, gaps, n_residuals=1001, kind=kind)
    grouping = GROUPINGS[name]
    return FamilyGapModel.fit(with_families(features, pairs, grouping), gaps, grouping,
                              n_residuals=1001)


def fit_models(features, gaps, pairs):
    """``{name: model}``: the family-free model and one family model per grouping."""
    return {name: fit_model(name, features, gaps, pairs)
            for name in ("family-free", *GROUPINGS)}


def model_features(model, features, pairs):
    """The features `model` takes: the family codes appended for a :class:`FamilyGapModel`."""
    if not isinstance(model, FamilyGapModel):
        return features
    return with_families(features, pairs, model.grouping)


def crps(model, features, gaps):
    """Each pair's continuous ranked probability score of its final gap (gap units)."""
    mean, scale = model.mean_scale(features)
    z = model.residuals
    n = len(z)
    cumulative = np.concatenate([[0.0], np.cumsum(z)])
    z0 = (gaps - mean) / scale
    k = np.searchsorted(z, z0, side="right")
    to_observed = (k * z0 - cumulative[k] + (cumulative[-1] - cumulative[k]) - (n - k) * z0) / n
    spread = 2 * np.sum((2 * np.arange(1, n + 1) - n - 1) * z) / n ** 2
    return scale * (to_observed - spread / 2)


def pair_scores(models, features, gaps, pairs, tol):
    """One row per (model, pair): the probability given, the CRPS, loser, winner, decision."""
    frames = []
    for name, model in models.items():
        x = model_features(model, features, pairs)
        frames.append(pd.DataFrame({
            "model": name, "p": model.prob_above(x, tol), "crps": crps(model, x, gaps),
            "scale": model.mean_scale(x)[1], "over": gaps > tol,
            "loser": pairs["below_best"].to_numpy() > 0.01,
            "winner": pairs["below_best"].to_numpy() <= 1e-12,
            "decision": pairs["decision"].to_numpy()}))
    return pd.concat(frames, ignore_index=True)


def reliability_table(scores, edges=(0, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0)):
    """Per model and bin of the probability given: pairs, mean probability, share over tol."""
    bins = pd.cut(scores["p"], edges, include_lowest=True)
    table = scores.groupby(["model", bins], sort=False, observed=True).agg(
        pairs=("p", "size"), mean_probability=("p", "mean"), share_over_tol=("over", "mean"))
    return table.unstack("model").sort_index()


def sharpness_table(scores, thresholds=(0.05, 0.15)):
    """Per model: CRPS (mean, median), scale, losers' probabilities, losers and winners dropped.

    ``losers dropped @t``: share of losers (ending more than 1 point below
    the final best) given ``p < t``; ``winners wrongly @t``: share of winners
    (ending at the final best) given ``p < t``. ``... @matched t`` gives a
    family model the threshold whose winners wrongly dropped are as many as
    the family-free model's at ``t``.
    """
    base = scores[scores["model"] == "family-free"]
    rows = {}
    for name, part in scores.groupby("model", sort=False):
        losers, winners = part.loc[part["loser"], "p"], part.loc[part["winner"], "p"]
        row = {"pairs": len(part), "losers": len(losers), "winners": len(winners),
               "CRPS (pts)": 100 * part["crps"].mean(),
               "median CRPS (pts)": 100 * part["crps"].median(),
               "median scale (pts)": 100 * part["scale"].median(),
               "losers' mean p": losers.mean(), "losers' median p": losers.median()}
        for t in thresholds:
            row[f"losers dropped @{t:g}"] = np.mean(losers < t)
            row[f"winners wrongly @{t:g}"] = np.mean(winners < t)
            wrong = np.mean(base.loc[base["winner"], "p"] < t)
            matched = np.quantile(winners, wrong) if wrong > 0 else 0.0
            row[f"matched t for {t:g}"] = matched
            row[f"losers dropped @matched {t:g}"] = np.mean(losers < matched)
        rows[name] = row
    return pd.DataFrame(rows)


def rung_policy(task, sizes, model, rule=RungPolicy, **options):
    """The rung rule on `task` with `model` (a `rule`, :class:`~sksel.daub.RungPolicy` or a
    variant of it), told the learners' families if it is a family model."""
    if not isinstance(model, FamilyGapModel):
        return rule(len(task.learners), sizes, model=model, **options)
    return FamilyRungPolicy(len(task.learners), sizes, model=model,
                            codes=family_codes(task.learners, model.grouping), **options)
