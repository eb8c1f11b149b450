"""Sphinx configuration of the sksel documentation.

Build with ``sphinx-build -W -b html doc doc/_build/html`` from the repository
root. The build needs no network access: there is no intersphinx inventory to
fetch, so references to scikit-learn objects render as plain code.
"""

import os
import sys

# The gallery's examples fit many small models one after another: BLAS threads
# competing for a couple of cores make them many times slower, not faster.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import matplotlib  # noqa: E402

matplotlib.use("Agg")

# The gallery resolves the names every example uses, in this process, without
# running the examples that are not plots: examples/daub_letter.py compares
# with HalvingGridSearchCV, which scikit-learn only gives once enabled.
from sklearn.experimental import enable_halving_search_cv  # noqa: E402,F401

import sksel  # noqa: E402

# local Sphinx helpers (the gallery's sort key)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "_ext"))

project = "sksel"
author = "the sksel developers"
copyright = "2026, the sksel developers"
version = sksel.__version__
release = sksel.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]

# The gallery (doc/auto_examples, git-ignored) is built from examples/. Only the
# plot_*.py scripts, small and quick, are executed; the others need downloads
# or minutes of training and are shown without their output.
sphinx_gallery_conf = {
    "examples_dirs": "../examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "within_subsection_order": "gallery_order.ExecutedFirstSortKey",
    "plot_gallery": "True",
    "download_all_examples": False,
    "abort_on_example_error": True,
}

# API pages are generated from the docstrings into doc/generated (git-ignored).
autosummary_generate = True
autodoc_default_options = {"members": False, "inherited-members": False}
templates_path = ["_templates"]

# numpydoc renders the Parameters/Attributes sections; the class template
# (_templates/autosummary/class.rst) lists the public methods itself.
numpydoc_show_class_members = False
numpydoc_show_inherited_class_members = False
numpydoc_class_members_toctree = False

exclude_patterns = [
    "_build",
    "generated/*.examples",
    # pulled into daub.rst by `.. include::`, not a page of its own
    "benchmark_daub.rst",
    "benchmark_daub_suite.rst",
    "benchmark_daub_small.rst",
    "benchmark_scoring.rst",
    "benchmark_kdpp.rst",
    "benchmark_kdpp_search.rst",
    "benchmark_gpucb.rst",
    "benchmark_faults.rst",
    "benchmark_ensembles.rst",
]

# References to objects outside sksel (sklearn, joblib, numpy) have no target
# without intersphinx; keep them as code instead of warning about them.
nitpicky = False

html_theme = "pydata_sphinx_theme"
html_title = f"sksel {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
}
html_sidebars = {"install": [], "api": []}


# ---------------------------------------------------------------------------
# Docstrings inherited from scikit-learn (predict_proba, score, the
# n_features_in_ / classes_ properties that numpydoc quotes in the Attributes
# section) use roles that point into scikit-learn's own documentation: its
# glossary (:term:`fit`) and labels (:ref:`... <metadata_routing>`). Without
# intersphinx those have no target here, so render them as plain text instead
# of failing the -W build.
import pathlib
import re

_HERE = pathlib.Path(__file__).parent
_LABELS = {
    m.group(1)
    for page in _HERE.glob("*.rst")
    for m in re.finditer(r"^\.\. _([\w-]+):\s*$", page.read_text(encoding="utf-8"), re.M)
}
_TERM = re.compile(r":term:`([^`<]+?)(?:\s*<([^`>]+)>)?`")
_TRAILING_UNDERSCORE = re.compile(r"\b([A-Za-z]\w*?)_(?!\w)")
_REF = re.compile(r":ref:`([^`<]+?)\s*<([^`>]+)>`|:ref:`([^`<]+?)`")


def _plain_foreign_roles(app, what, name, obj, options, lines):
    if name == "sksel.glossary":  # the glossary page itself: its terms are this site's
        return
    def term(m):
        return f"*{m.group(1).strip()}*"

    def ref(m):
        if m.group(2) is not None:
            text, label = m.group(1).strip(), m.group(2)
        else:
            text = label = m.group(3)
        return m.group(0) if label in _LABELS else f"*{text}*"

    for i, line in enumerate(lines):
        line = _REF.sub(ref, _TERM.sub(term, line))
        # numpydoc writes a parameter's type as plain reST, where a name with a
        # trailing underscore, as in "ndarray of shape (n_features_in_,)", is a
        # link to an unknown target: escape it.
        head, sep, tail = line.partition(" : ")
        if sep and head.strip().startswith("**") and "`" not in tail:
            line = head + sep + _TRAILING_UNDERSCORE.sub(r"\1\\_", tail)
        lines[i] = line


def setup(app):
    # after numpydoc (priority 500), which inserts the property summaries
    app.connect("autodoc-process-docstring", _plain_foreign_roles, priority=900)
