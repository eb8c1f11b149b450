"""Test configuration shared by the whole suite, the documentation's doctests included.

The documentation pages' examples run as doctests (``--doctest-glob='*.rst'``):
each page is one doctest, its examples run in order in one namespace. A page
whose examples need an optional package is skipped where that package is
missing; figures are drawn with matplotlib's Agg backend, off screen.
"""

import pytest
from threadpoolctl import threadpool_limits

# Sphinx's configuration and helpers, and what the build writes, are not tests.
collect_ignore = [f"doc/{name}" for name in ("conf.py", "_ext", "_build", "auto_examples",
                                             "generated", "sg_execution_times.rst")]

#: The optional packages (extras of pyproject.toml) each page's examples import.
_PAGE_NEEDS = {
    "daub.rst": ["pandas", "dask.distributed"],
    "displays.rst": ["matplotlib"],
    "ensembles.rst": ["matplotlib"],
}


@pytest.fixture(autouse=True, scope="session")
def _single_threaded_blas():
    """One BLAS/OpenMP thread per process.

    The searches parallelise over joblib workers; multi-threaded BLAS on top of
    that oversubscribes a small, shared machine by orders of magnitude.
    """
    with threadpool_limits(limits=1):
        yield


@pytest.fixture(autouse=True)
def _page_needs(request):
    """Skip a docs page whose optional packages are missing; draw its figures off screen."""
    path = request.node.path
    needs = _PAGE_NEEDS.get(path.name, ()) if path.parent.name == "doc" else ()
    for module in needs:
        pytest.importorskip(module)
    if "matplotlib" not in needs:
        yield
        return
    import matplotlib
    import matplotlib.pyplot as plt

    matplotlib.use("Agg")
    yield
    plt.close("all")
