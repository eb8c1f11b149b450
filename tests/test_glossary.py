"""The glossary a ``verbose=2`` line points to is installed with sksel."""

import importlib
import re

import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

import sksel._core.progress as progress
from sksel import DAUBSearch


def _glossary_terms(module_name):
    return set(importlib.import_module(module_name)._entries())


def test_verbose_two_points_to_an_installed_glossary_that_defines_its_terms(capsys):
    """The pointer names something a pip user has (not a file of the repository's doc/),
    and that glossary defines the term the line shows, and every term a line may show."""
    X, y = make_classification(n_samples=300, n_features=20, n_informative=6, random_state=0)
    DAUBSearch(LogisticRegression(), {"C": [0.01, 1.0]}, cv=StratifiedKFold(3), b=20,
               random_state=0, cost="rows", risk=0, verbose=2).fit(X, y)
    pointers = [line for line in capsys.readouterr().out.splitlines() if "glossary" in line]
    assert len(pointers) == 1 and "doc/" not in pointers[0], pointers
    found = re.search(r"\[(\w[\w, ]*): see .*help\(\"([\w.]+)\"\)\]$", pointers[0])
    assert found, pointers[0]
    shown, module_name = found.groups()
    terms = _glossary_terms(module_name)
    assert shown.split(", ") == ["used", "bound"]
    assert {"used", "bound"} <= terms
    assert set(progress._TERMS.values()) <= terms


def test_define_returns_an_entry_and_names_the_terms_of_an_unknown_one():
    from sksel.glossary import define

    assert define("lineage") == define("inherited training")  # one entry, two terms
    assert define("tol") == define("risk") != define("rung")
    assert define("rung").startswith("One of :class:`~sksel.DAUBSearch`'s subsample sizes")
    with pytest.raises(ValueError, match=r"term='rungs' is not in the glossary.*'rung'"):
        define("rungs")
