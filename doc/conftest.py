"""Run the documentation pages' examples as doctests (``--doctest-glob='*.rst'``).

Each page is one doctest: its examples run in order in one namespace. A page
whose examples need an optional package is skipped where that package is
missing; figures are drawn with matplotlib's Agg backend, off screen.
"""

import pytest

# Sphinx's configuration and helpers, and what the build writes, are not tests.
collect_ignore = ["conf.py", "_ext", "_build", "auto_examples", "generated",
                  "sg_execution_times.rst"]

#: The optional packages (extras of pyproject.toml) each page's examples import.
_NEEDS = {
    "daub.rst": ["pandas", "dask.distributed"],
    "displays.rst": ["matplotlib"],
    "ensembles.rst": ["matplotlib"],
}


@pytest.fixture(autouse=True)
def _page_needs(request):
    for module in _NEEDS.get(request.node.path.name, ()):
        pytest.importorskip(module)
    if "matplotlib" in _NEEDS.get(request.node.path.name, ()):
        import matplotlib
        import matplotlib.pyplot as plt

        matplotlib.use("Agg")
        yield
        plt.close("all")
    else:
        yield
