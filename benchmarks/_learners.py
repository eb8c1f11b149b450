"""Candidate learners for the sksel benchmarks.

``make_learners(random_state=0)`` returns a list of ``(name, estimator)`` pairs:
fresh, unfitted scikit-learn / XGBoost classifiers spanning linear models,
discriminant analysis, naive Bayes, nearest neighbours, kernel SVMs, single
trees, bagged and boosted ensembles and a small neural net.
``make_regressors(random_state=0)`` does the same for regression: least
squares, ridge, lasso, elastic net, Huber, SGD, nearest neighbours, kernel SVRs,
single trees, bagged and boosted ensembles and a small neural net.  Use
``dict(make_learners())`` for a name -> estimator map, or
``[est for _, est in make_learners()]`` for a plain list.

Scale-sensitive learners are wrapped in ``make_pipeline(StandardScaler(), ...)``;
the regressors whose penalty, margin or step size depend on the scale of the
target (lasso, elastic net, SGD, SVR, MLP) also learn a standardised target
(``TransformedTargetRegressor``).  Everything is single-threaded (``n_jobs=1``
where the estimator has it) because the searches parallelise over candidates;
for HistGradientBoosting (OpenMP) and the BLAS-backed learners, also cap threads
with ``OMP_NUM_THREADS=1`` / ``threadpoolctl.threadpool_limits(1)`` when timing.

Hyper-parameters were chosen so that no single fit on a full benchmark
training set (<= 20,000 rows, <= 784 features) takes much more than a minute on
one core: SGD stops early, the boosters use 50 rounds over 64 bins (default
settings took 75-100 s on fashion_mnist).  The expensive ones are the two
SVCs (~45 s fit + 10 s predict on 32,561 rows of adult, ~30 s + 11 s on
fashion_mnist), the boosters and AdaBoost on fashion_mnist (20-30 s each) and
logistic regression there (~13 s).
"""
from sklearn.compose import TransformedTargetRegressor
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis
from sklearn.ensemble import (
    AdaBoostClassifier,
    AdaBoostRegressor,
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    GradientBoostingRegressor,
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.linear_model import (
    ElasticNet,
    HuberRegressor,
    Lasso,
    LinearRegression,
    LogisticRegression,
    Ridge,
    RidgeClassifier,
    SGDClassifier,
    SGDRegressor,
)
from sklearn.naive_bayes import BernoulliNB, GaussianNB
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from sklearn.neural_network import MLPClassifier, MLPRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, SVR
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor


def _scaled(est):
    return make_pipeline(StandardScaler(), est)


def _scaled_xy(est):
    """Standardised features and target."""
    return TransformedTargetRegressor(regressor=_scaled(est), transformer=StandardScaler())


def make_learners(random_state=0):
    """Return a list of ``(name, unfitted classifier)`` pairs (names are unique)."""
    rs = random_state
    learners = [
        ("logreg", _scaled(LogisticRegression(max_iter=300))),
        ("ridge", _scaled(RidgeClassifier())),
        ("sgd_hinge", _scaled(SGDClassifier(loss="hinge", early_stopping=True,
                                          n_jobs=1, random_state=rs))),
        ("lda", LinearDiscriminantAnalysis()),
        ("qda", _scaled(QuadraticDiscriminantAnalysis(reg_param=0.1))),
        ("gaussian_nb", GaussianNB()),
        # binarize=0 on standardised features = "above the feature's mean"
        ("bernoulli_nb", _scaled(BernoulliNB(binarize=0.0))),
        ("knn15", _scaled(KNeighborsClassifier(n_neighbors=15, n_jobs=1))),
        ("svc_rbf_C1", _scaled(SVC(kernel="rbf", C=1.0, cache_size=1000, random_state=rs))),
        ("svc_rbf_C10", _scaled(SVC(kernel="rbf", C=10.0, cache_size=1000, random_state=rs))),
        ("tree_d5", DecisionTreeClassifier(max_depth=5, random_state=rs)),
        ("tree_full", DecisionTreeClassifier(random_state=rs)),
        ("random_forest", RandomForestClassifier(n_estimators=100, n_jobs=1, random_state=rs)),
        ("extra_trees", ExtraTreesClassifier(n_estimators=100, n_jobs=1, random_state=rs)),
        ("hist_gb", HistGradientBoostingClassifier(
            max_iter=50, learning_rate=0.2, max_bins=64, random_state=rs)),
        ("adaboost", AdaBoostClassifier(n_estimators=50, random_state=rs)),
        ("xgboost", _xgb(rs)),
        ("mlp", _scaled(MLPClassifier(hidden_layer_sizes=(64,), early_stopping=True,
                                      max_iter=100, random_state=rs))),
    ]
    return [(n, e) for n, e in learners if e is not None]


def _xgb(random_state):
    try:
        from xgboost import XGBClassifier
    except ImportError:  # optional: the benchmark runs without it
        return None
    return XGBClassifier(n_estimators=50, max_depth=6, learning_rate=0.3, max_bin=64,
                         tree_method="hist", n_jobs=1, random_state=random_state)


def make_regressors(random_state=0):
    """Return a list of ``(name, unfitted regressor)`` pairs (names are unique)."""
    rs = random_state
    learners = [
        ("linreg", LinearRegression()),
        ("ridge", _scaled(Ridge())),
        ("lasso", _scaled_xy(Lasso(alpha=0.01))),
        ("elastic_net", _scaled_xy(ElasticNet(alpha=0.01, l1_ratio=0.5))),
        ("huber", _scaled(HuberRegressor(max_iter=300))),
        ("sgd", _scaled_xy(SGDRegressor(early_stopping=True, random_state=rs))),
        ("knn5", _scaled(KNeighborsRegressor(n_neighbors=5, n_jobs=1))),
        ("knn15", _scaled(KNeighborsRegressor(n_neighbors=15, n_jobs=1))),
        ("svr_rbf_C1", _scaled_xy(SVR(kernel="rbf", C=1.0, cache_size=1000))),
        ("svr_rbf_C10", _scaled_xy(SVR(kernel="rbf", C=10.0, cache_size=1000))),
        ("tree_d5", DecisionTreeRegressor(max_depth=5, random_state=rs)),
        ("tree_full", DecisionTreeRegressor(random_state=rs)),
        ("random_forest", RandomForestRegressor(n_estimators=100, n_jobs=1, random_state=rs)),
        ("extra_trees", ExtraTreesRegressor(n_estimators=100, n_jobs=1, random_state=rs)),
        ("hist_gb", HistGradientBoostingRegressor(
            max_iter=50, learning_rate=0.2, max_bins=64, random_state=rs)),
        ("gboost", GradientBoostingRegressor(n_estimators=100, random_state=rs)),
        ("adaboost", AdaBoostRegressor(n_estimators=50, random_state=rs)),
        ("xgboost", _xgb_regressor(rs)),
        ("mlp", _scaled_xy(MLPRegressor(hidden_layer_sizes=(64,), early_stopping=True,
                                        max_iter=100, random_state=rs))),
    ]
    return [(n, e) for n, e in learners if e is not None]


def _xgb_regressor(random_state):
    try:
        from xgboost import XGBRegressor
    except ImportError:  # optional: the benchmark runs without it
        return None
    return XGBRegressor(n_estimators=50, max_depth=6, learning_rate=0.3, max_bin=64,
                        tree_method="hist", n_jobs=1, random_state=random_state)
