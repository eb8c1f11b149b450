"""Geometry of k-DPP samples on [0, 1]^d: Dodge et al.'s Figure 1 and more.

Dodge, Anderson and Smith (2017, Figure 1) compare, in one dimension, ``k``
points from independent uniform draws, a Sobol sequence and a k-DPP with an
RBF kernel on three measures; this script measures the same for
:class:`sksel.kdpp.KDPPSampler` with its default settings (exact sampler on a
pool of uniformly drawn configurations, ``bandwidth="auto"``), and adds Latin
hypercube sampling, higher dimensions and sampling times. Samplers, all on
[0, 1]^d, seeded by the repetition:

* ``uniform``: ``k`` independent uniform points;
* ``sobol``: the first ``k`` scrambled Sobol points (:class:`scipy.stats.qmc.Sobol`;
  the ``k`` points of a seed contain its ``k' < k`` points, so a nearest point
  can be the same for two values of ``k``);
* ``lhs``: Latin hypercube (:class:`scipy.stats.qmc.LatinHypercube`);
* ``kdpp``: ``KDPPSampler({"x00": uniform(0, 1), ...}, k).sample()``.

Measures of one draw of ``k`` points (lower is better for all three):

* ``star``: star discrepancy, 1-D only, exact for the sorted points:
  ``1 / (2k) + max_i |x_(i) - (2i - 1) / (2k)|``;
* ``centre``: distance from the centre of the cube to the nearest point;
* ``corner``: distance from the nearest of the ``2^d`` corners to the nearest
  point, ``min_i ||min(x_i, 1 - x_i)||``.

Parts (``--parts``):

* ``a``: 1-D, ``k`` in 5 ... 500, mean and standard error over ``--reps``
  draws; the 3-panel figure ``doc/_static/kdpp_figure1.png``;
* ``b``: centre and corner distances for ``d`` in 2, 5, 10, ``k`` in 5 ... 100;
* ``d``: seconds of one ``KDPPSampler(...).sample()`` (best of 3) for ``k`` in
  20, 100, 500 and ``d`` in 2, 10, 30, with Sobol for reference, and of the
  ``"mcmc"`` and ``"sequential"`` samplers at ``d = 10``;
* ``e``: what the floors need in 1-D: the k-DPP's star discrepancy (relative to
  Sobol's) and corner distance with other pool sizes, bandwidths and samplers,
  and their sampling cost (not in the default run).

The script ends with a PASS/FAIL line for each floor, computed from the numbers
of part a (and d): in 1-D the k-DPP's mean distance to a corner is below
Sobol's and uniform's for every ``k >= 10``; its mean star discrepancy is below
uniform's and within 1.5x of Sobol's for every ``k <= 100``; drawing
``k = 500`` points at ``d = 10`` takes under a second.

``--pool-size``, ``--bandwidth-scale`` and ``--kdpp-sampler`` change the
k-DPP's settings in parts a and b (to explore a failing floor); the defaults
are KDPPSampler's.

Run (about 2 minutes on one core with the defaults, ``--reps 50``; part e about
8 minutes with ``--reps 30``)::

    OMP_NUM_THREADS=1 python -m benchmarks bench_kdpp_geometry \\
        --out benchmarks/results_kdpp_geometry.csv
    OMP_NUM_THREADS=1 python -m benchmarks bench_kdpp_geometry --parts e --reps 30
"""

import argparse
import os
import time
import warnings

import numpy as np
import pandas as pd
from scipy import stats
from scipy.stats import qmc
from sklearn.utils import check_random_state

from benchmarks import _harness
from sksel.spaces import (
    KDPPSampler,
    configuration_kernel,
    default_bandwidth,
    sample_kdpp,
)

FIGURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "doc", "_static",
                      "kdpp_figure1.png")
SAMPLERS = ["uniform", "sobol", "lhs", "kdpp"]
K_1D = [5, 10, 20, 50, 100, 200, 500]
K_ND = [5, 10, 20, 50, 100]
D_ND = [2, 5, 10]


# ------------------------------------------------------------------ samplers
def space(d):
    """The k-DPP's space: ``d`` uniform parameters, named so that they sort in order."""
    return {f"x{i:02d}": stats.uniform(0, 1) for i in range(d)}


def kdpp_points(k, d, rep, pool_size="auto", bandwidth_scale=None, sampler="auto",
                mcmc_steps="auto", dense=False):
    """``KDPPSampler(...).sample()`` as a ``(k, d)`` array.

    ``bandwidth_scale`` multiplies the default bandwidth ``sqrt(2) k^(-1/d)``;
    ``dense=True`` keeps the exact kernel matrix above 1,000 pool items (no
    Nystrom factor), a diagnostic (:func:`dense_sample`).
    """
    bandwidth = "auto" if bandwidth_scale is None else bandwidth_scale * default_bandwidth(k, d)
    sampler_ = KDPPSampler(space(d), k, sampler=sampler, pool_size=pool_size,
                           bandwidth=bandwidth, mcmc_steps=mcmc_steps, random_state=rep)
    params = dense_sample(sampler_) if dense else sampler_.sample()
    names = sorted(space(d))
    return np.array([[p[name] for name in names] for p in params], dtype=float)


def dense_sample(sampler):
    """The exact draw of ``sampler`` (one branch, ``sampler="exact"``) on its whole kernel matrix.

    Above 1,000 pool items :class:`~sksel.spaces.KDPPSampler` draws from a
    Nystrom factor of the pool's kernel matrix; this draws as it does below,
    at any pool size: the same pool (``pool_size="auto"``: ``50 * n_iter``
    clipped to [200, 2000], at least ``4 * n_iter``), the same kernel and
    bandwidth, and :func:`~sksel.spaces.sample_kdpp`, from the same seed.
    """
    k, space_ = sampler.n_iter, sampler.space_
    rng = check_random_state(sampler.random_state)
    size = (max(4 * k, min(max(50 * k, 200), 2000)) if sampler.pool_size == "auto"
            else sampler.pool_size)
    pool = space_.sample(size, rng)
    bandwidth = (default_bandwidth(k, space_.n_features) if sampler.bandwidth == "auto"
                 else sampler.bandwidth)
    F, active = space_.featurize(pool)
    L = configuration_kernel(sampler.kernel, F, active, groups=space_.feature_params_,
                             bandwidth=bandwidth)
    return [pool[i] for i in sample_kdpp(L, k, rng)]


def draw(sampler, k, d, rep, kdpp_options):
    if sampler == "uniform":
        return np.random.default_rng([rep, k, d]).uniform(size=(k, d))
    if sampler == "sobol":
        with warnings.catch_warnings():
            # "The balance properties of Sobol' points require n to be a power of 2."
            warnings.simplefilter("ignore", UserWarning)
            return qmc.Sobol(d, scramble=True, seed=rep).random(k)
    if sampler == "lhs":
        return qmc.LatinHypercube(d, seed=rep).random(k)
    if sampler == "kdpp":
        return kdpp_points(k, d, rep, **kdpp_options)
    raise ValueError(sampler)


# ------------------------------------------------------------------ measures
def star_discrepancy(x):
    """Exact star discrepancy of points ``x`` of shape (k,) or (k, 1) in [0, 1]."""
    x = np.sort(np.ravel(x))
    k = len(x)
    return 1 / (2 * k) + np.max(np.abs(x - (2 * np.arange(1, k + 1) - 1) / (2 * k)))


def centre_distance(X):
    return np.min(np.linalg.norm(X - 0.5, axis=1))


def corner_distance(X):
    return np.min(np.linalg.norm(np.minimum(X, 1 - X), axis=1))


def measure_draws(ks, ds, reps, kdpp_options, samplers=SAMPLERS):
    """One row per (sampler, d, k, rep) with the measures of that draw."""
    rows = []
    for d in ds:
        for k in ks:
            for sampler in samplers:
                for rep in range(reps):
                    X = draw(sampler, k, d, rep, kdpp_options)
                    assert X.shape == (k, d), (sampler, X.shape)
                    row = {"sampler": sampler, "d": d, "k": k, "rep": rep,
                           "centre": centre_distance(X), "corner": corner_distance(X)}
                    if d == 1:
                        row["star"] = star_discrepancy(X)
                    rows.append(row)
    return pd.DataFrame(rows)


def summarize(draws, measures):
    """Mean and standard error of each measure per (sampler, d, k), long format."""
    long = draws.melt(id_vars=["sampler", "d", "k", "rep"], value_vars=measures,
                      var_name="measure")
    return _harness.summarize(long, ["measure", "d", "k", "sampler"], {
        "mean": ("value", "mean"), "se": ("value", "sem"), "reps": ("value", "count")
    }).reset_index()


def wide(table, value="mean"):
    """measure x (d, k) rows, one column per sampler."""
    out = table.pivot_table(index=["measure", "d", "k"], columns="sampler", values=value,
                            sort=False)
    return out[[s for s in SAMPLERS if s in out.columns]]


def print_table(table, title):
    print(f"\n{title}  (mean over draws; ±: standard error)")
    mean, se = wide(table, "mean"), wide(table, "se")
    text = mean.copy().astype(object)
    for col in mean.columns:
        text[col] = [f"{m:.4g} ±{s:.2g}" for m, s in zip(mean[col], se[col])]
    if {"kdpp", "sobol", "uniform"} <= set(mean.columns):
        text["kdpp/sobol"] = (mean["kdpp"] / mean["sobol"]).map("{:.2f}".format)
        text["kdpp/unif"] = (mean["kdpp"] / mean["uniform"]).map("{:.2f}".format)
    print(text.to_string())


# --------------------------------------------------------------------- parts
def part_a(reps, kdpp_options, figure=FIGURE):
    """1-D: the three measures for k in K_1D; the figure."""
    table = summarize(measure_draws(K_1D, [1], reps, kdpp_options), ["star", "centre", "corner"])
    table.insert(0, "part", "a")
    print_table(table, "(a) d = 1")
    plot_figure1(table, figure)
    return table


def plot_figure1(table, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    titles = {"star": "star discrepancy", "centre": "distance from the centre",
              "corner": "distance from a corner"}
    fig, axes = plt.subplots(1, 3, figsize=(10, 3.3))
    for ax, (measure, title) in zip(axes, titles.items()):
        for sampler in SAMPLERS:
            rows = table[(table["measure"] == measure) & (table["sampler"] == sampler)]
            ax.errorbar(rows["k"], rows["mean"], yerr=rows["se"], marker="o", markersize=3,
                        capsize=2, label=sampler)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("k (points)")
        ax.set_title(title, fontsize=10)
    axes[0].legend(fontsize=8)
    fig.suptitle("k points on [0, 1]: mean over draws, ± standard error", fontsize=10)
    fig.tight_layout()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(f"\nwrote {os.path.normpath(path)}")


def part_b(reps, kdpp_options):
    """Centre and corner distances in d = 2, 5, 10."""
    table = summarize(measure_draws(K_ND, D_ND, reps, kdpp_options), ["centre", "corner"])
    table.insert(0, "part", "b")
    print_table(table, "(b) d = 2, 5, 10")
    return table


def best_time(fn, repeat=3):
    best = np.inf
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def part_d():
    """Seconds per draw, best of 3."""
    rows = []
    for d in [2, 10, 30]:
        for k in [20, 100, 500]:
            for name, fn in [
                ("kdpp", lambda k=k, d=d: kdpp_points(k, d, 0)),
                ("sobol", lambda k=k, d=d: draw("sobol", k, d, 0, {})),
            ]:
                rows.append({"sampler": name, "d": d, "k": k, "seconds": best_time(fn)})
    for sampler in ["mcmc", "sequential"]:
        for k in [20, 100]:
            seconds = best_time(lambda k=k, s=sampler: kdpp_points(k, 10, 0, sampler=s))
            rows.append({"sampler": f"kdpp-{sampler}", "d": 10, "k": k, "seconds": seconds})
    table = pd.DataFrame(rows)
    print("\n(d) seconds per draw (best of 3)")
    print(table.pivot_table(index=["sampler", "d"], columns="k", values="seconds", sort=False)
          .to_string(float_format="%.4f"))
    out = table.rename(columns={"seconds": "mean"})
    out["measure"] = "seconds"
    out.insert(0, "part", "d")
    return out


# Settings tried in part e (1-D): label, KDPPSampler options, largest k tried.
VARIANTS = [
    ("default (pool 250-2000)", {}, None),
    ("pool=1000 (dense)", {"pool_size": 1000}, None),
    ("pool=default, dense", {"dense": True}, None),
    ("pool=4000", {"pool_size": 4000}, None),
    ("pool=10000", {"pool_size": 10000}, None),
    ("bandwidth x0.5", {"bandwidth_scale": 0.5}, None),
    ("bandwidth x0.7", {"bandwidth_scale": 0.7}, None),
    ("bandwidth x1.5", {"bandwidth_scale": 1.5}, None),
    ("bandwidth x2", {"bandwidth_scale": 2.0}, None),
    ("sequential", {"sampler": "sequential"}, None),
    ("mcmc", {"sampler": "mcmc"}, None),
    ("mcmc, 1000k steps", {"sampler": "mcmc", "mcmc_steps": "1000k"}, 100),
]
K_E = [10, 20, 50, 100, 200, 500]


def part_e(reps):
    """1-D: star discrepancy and corner distance of k-DPP variants, and their cost."""
    reference = summarize(measure_draws(K_E, [1], reps, {}, samplers=["uniform", "sobol"]),
                          ["star", "corner"])
    reference.insert(0, "part", "e")
    ref = reference.set_index(["measure", "k", "sampler"])["mean"]
    rows, errors = [], []
    for label, options, max_k in VARIANTS:
        for k in K_E:
            if max_k is not None and k > max_k:
                continue
            opts = dict(options)
            if opts.get("mcmc_steps") == "1000k":
                opts["mcmc_steps"] = 1000 * k
            start = time.perf_counter()
            try:
                draws = measure_draws([k], [1], reps, opts, samplers=["kdpp"])
            except (ValueError, np.linalg.LinAlgError) as error:
                errors.append(f"{label}, k = {k}: {type(error).__name__}: {error}")
                continue
            seconds = (time.perf_counter() - start) / reps
            for measure in ["star", "corner"]:
                mean = draws[measure].mean()
                rows.append({"part": "e", "sampler": f"kdpp: {label}", "d": 1, "k": k,
                             "measure": measure, "mean": mean, "se": draws[measure].sem(),
                             "reps": reps, "seconds": seconds,
                             "vs_sobol": mean / ref[measure, k, "sobol"],
                             "vs_uniform": mean / ref[measure, k, "uniform"]})
    table = pd.DataFrame(rows)
    print(f"\n(e) d = 1, k-DPP variants: mean / Sobol's mean ({reps} draws each)")
    show = table.pivot_table(index="sampler", columns=["measure", "k"], values="vs_sobol",
                             sort=False)[["star", "corner"]]
    print(show.to_string(float_format="%.2f"))
    print("\nk-DPP star discrepancy: standard error / mean")
    print(table[table["measure"] == "star"].assign(rel_se=lambda t: t["se"] / t["mean"])
           .pivot_table(index="sampler", columns="k", values="rel_se", sort=False)
           .to_string(float_format="%.3f"))
    print("\nseconds per draw (mean)")
    print(table[table["measure"] == "star"].pivot_table(
        index="sampler", columns="k", values="seconds", sort=False).to_string(
        float_format="%.3f"))
    for line in errors:
        print("error:", line)
    return pd.concat([reference, table], ignore_index=True)


# -------------------------------------------------------------------- floors
def floors(results):
    """PASS/FAIL lines for the floors, from the numbers of parts a and d."""
    lines = []
    a = results[results["part"] == "a"]
    if len(a):
        mean = wide(a)

        def col(measure, sampler):
            return mean.loc[measure][sampler].droplevel("d")

        corner_k, star_k = [k for k in K_1D if k >= 10], [k for k in K_1D if k <= 100]
        kd, so, un = col("corner", "kdpp"), col("corner", "sobol"), col("corner", "uniform")
        bad = [k for k in corner_k if not (kd[k] < so[k] and kd[k] < un[k])]
        lines.append(_floor(not bad, "1-D mean corner distance: k-DPP < Sobol and < uniform "
                            f"for every k >= 10 (k-DPP/Sobol {_ratios(kd / so, corner_k)})", bad))
        kd, so, un = col("star", "kdpp"), col("star", "sobol"), col("star", "uniform")
        bad = [k for k in star_k if not (kd[k] < un[k] and kd[k] <= 1.5 * so[k])]
        lines.append(_floor(not bad, "1-D mean star discrepancy: k-DPP < uniform and <= 1.5x "
                            f"Sobol for every k <= 100 (k-DPP/Sobol {_ratios(kd / so, star_k)}; "
                            f"k-DPP/uniform {_ratios(kd / un, star_k)})", bad))
    d = results[(results["part"] == "d") & (results["sampler"] == "kdpp")]
    if len(d):
        seconds = d.set_index(["d", "k"])["mean"][10, 500]
        lines.append(_floor(seconds < 1, f"KDPPSampler k = 500, d = 10 in under 1 s "
                            f"({seconds:.3f} s, best of 3)", []))
    print()
    for line in lines:
        print(line)


def _ratios(series, ks):
    return ", ".join(f"{k}: {series[k]:.2f}" for k in ks)


def _floor(ok, text, bad):
    return ("PASS " if ok else "FAIL ") + text + (f"; fails at k = {bad}" if bad else "")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--parts", nargs="+", default=["a", "b", "d"],
                        choices=["a", "b", "d", "e"])
    parser.add_argument("--reps", type=int, default=50, help="draws per (sampler, d, k)")
    parser.add_argument("--pool-size", default="auto",
                        help="KDPPSampler pool_size in parts a and b (int or 'auto')")
    parser.add_argument("--bandwidth-scale", type=float,
                        help="k-DPP bandwidth in parts a and b: this times sqrt(2) k^(-1/d) "
                             "(default: bandwidth='auto', the same with 1)")
    parser.add_argument("--kdpp-sampler", default="auto",
                        choices=["auto", "exact", "mcmc", "sequential"])
    parser.add_argument("--figure", default=FIGURE, help="where part a's figure goes")
    parser.add_argument("--out", help="write the result rows to this CSV")
    args = parser.parse_args(argv)
    pool_size = args.pool_size if args.pool_size == "auto" else int(args.pool_size)
    kdpp_options = {"pool_size": pool_size, "bandwidth_scale": args.bandwidth_scale,
                    "sampler": args.kdpp_sampler}
    pd.set_option("display.width", 200)
    pd.set_option("display.max_columns", 40)
    start = time.perf_counter()
    tables = []
    if "a" in args.parts:
        tables.append(part_a(args.reps, kdpp_options, args.figure))
    if "b" in args.parts:
        tables.append(part_b(args.reps, kdpp_options))
    if "d" in args.parts:
        tables.append(part_d())
    if "e" in args.parts:
        tables.append(part_e(args.reps))
    results = pd.concat(tables, ignore_index=True)
    floors(results)
    print(f"\nwall time {time.perf_counter() - start:.0f} s")
    if args.out:
        results.to_csv(args.out, index=False)


if __name__ == "__main__":
    main()
