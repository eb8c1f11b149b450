"""The layers of sksel, read from the code: who imports whom, what the search base leaves open.

See doc/develop.rst: the shared layers import no method, a method imports no
other, a policy imports no estimator library, and the search base has no hook
shaped for one search.
"""

import ast
import importlib
import inspect
from pathlib import Path

import pytest
from _registry import CASES

import sksel
from sksel.extend import BaseSelectionSearch

PACKAGE = Path(sksel.__file__).parent
#: The searches of the registry that sksel ships (the test-only ones excepted).
SEARCHES = sorted({type(case.build()) for case in CASES
                   if type(case.build()).__module__.startswith("sksel.")}, key=str)
#: Each shipped search's method: the package it lives in (``sksel.daub``: ``daub``).
METHODS = tuple(search.__module__.split(".")[1] for search in SEARCHES)
ESTIMATOR_LIBRARIES = ("sklearn", "joblib", "xgboost", "torch", "skorch", "dask")


def _modules():
    """``{dotted name: ast}`` of every module of the package."""
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = (ast.parse(path.read_text()), path.name == "__init__.py")
    return modules


MODULES = _modules()


def _imports(name):
    """The modules `name` imports, absolute, at any depth of its code."""
    tree, is_package = MODULES[name]
    package = name.split(".") if is_package else name.split(".")[:-1]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def _method_of(name):
    """The method whose package holds `name`, or None for shared code."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in METHODS else None


def _defines_policy(tree):
    return any(isinstance(node, ast.ClassDef)
               and {"ask", "tell"} <= {f.name for f in node.body if isinstance(f, ast.FunctionDef)}
               for node in tree.body)


@pytest.mark.parametrize("name", [n for n, (tree, _) in MODULES.items() if _defines_policy(tree)])
def test_a_policy_imports_no_estimator_library(name):
    heavy = {m for m in _imports(name) if m.split(".")[0] in ESTIMATOR_LIBRARIES
             and not m.startswith("sklearn.utils")}
    assert not heavy, f"{name} defines a policy and imports {sorted(heavy)}"


@pytest.mark.parametrize("method", METHODS)
def test_every_method_has_its_policy_in_a_module_of_its_own(method):
    module = importlib.import_module(f"sksel.{method}.policy")
    policies = [obj for obj in vars(module).values() if inspect.isclass(obj)
                and obj.__module__ == module.__name__
                and hasattr(obj, "ask") and hasattr(obj, "tell")]
    assert len(policies) == 1
    heavy = {m for m in _imports(module.__name__) if m.split(".")[0] in ESTIMATOR_LIBRARIES
             and not m.startswith("sklearn.utils")}
    assert not heavy


@pytest.mark.parametrize("name", [n for n in MODULES if n != "sksel"])
def test_shared_code_imports_no_method_and_a_method_no_other(name):
    mine = _method_of(name)
    others = {m for m in _imports(name) if m.startswith("sksel.")
              and _method_of(m) not in (None, mine)}
    assert not others, f"{name} ({mine or 'shared'}) imports {sorted(others)}"


def test_the_search_base_has_at_most_two_hooks_that_one_search_overrides():
    searches = [getattr(sksel, name) for name in sksel.__all__
                if inspect.isclass(getattr(sksel, name))
                and issubclass(getattr(sksel, name), BaseSelectionSearch)]
    hooks = [name for name, member in vars(BaseSelectionSearch).items()
             if name.startswith("_") and not name.startswith("__") and callable(member)]
    lonely = {hook: [s.__name__ for s in searches if hook in vars(s)] for hook in hooks}
    lonely = {hook: who for hook, who in lonely.items() if len(who) == 1}
    assert set(searches) == set(SEARCHES)
    assert len(lonely) <= 2, lonely


def _imported_anywhere(root):
    """The top-level names of the modules imported by the code of the repository at `root`."""
    found = set()
    for folder in ("sksel", "examples", "benchmarks"):
        for path in (root / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Import):
                    found.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    found.add(node.module.split(".")[0])
    return found


def test_the_torch_extra_installs_only_what_the_code_imports():
    """`pip install sksel[torch]` pulls in no package that nothing imports (torchvision's
    pinned torch replaced a CPU build with the CUDA one, 5.9 GB against 1.2 GB)."""
    tomllib = pytest.importorskip("tomllib")
    root = PACKAGE.parent
    extras = tomllib.loads((root / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    names = {req.split(">")[0].split("=")[0].split("[")[0].strip() for req in extras["torch"]}
    assert names and names <= _imported_anywhere(root)
