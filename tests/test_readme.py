"""README.md's examples run as written, so that they cannot drift from the code.

Its ``python`` code blocks run in order in one namespace, as a reader pasting
them into one session would; its shell commands name extras, files and
scripts that exist.
"""

import doctest
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
_BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def _blocks(language):
    return [code for lang, code in _BLOCK.findall(README) if lang == language]


def test_readme_usage_is_the_doctested_example_of_the_docs_front_page():
    """README's first example is doc/index.rst's, which the doctests run (in seconds), line
    for line: the README's comments and prints aside, the same statements."""
    def statements(code):
        lines = [re.sub(r"\s+#.*$", "", line) for line in code.splitlines()]
        return [line for line in lines if line.strip() and not line.startswith("print(")]

    index = (ROOT / "doc" / "index.rst").read_text(encoding="utf-8")
    doctested = "".join(e.source for e in doctest.DocTestParser().get_examples(index))
    usage = _blocks("python")[0]
    assert statements(usage) == [line for line in statements(doctested)
                                 if not line.startswith("search.predict(")]


@pytest.mark.slow
def test_readme_python_examples_run():
    """Every python block runs, in order, in one namespace (about a minute on 2 cores)."""
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    blocks = _blocks("python")
    assert len(blocks) >= 5
    namespace = {"__name__": "readme"}
    try:
        for code in blocks:
            exec(compile(code, "README.md", "exec"), namespace)
    finally:
        plt.close("all")
    assert len(namespace["ensemble"].members_) >= 1  # the last block fitted its ensemble


def test_readme_commands_name_what_exists():
    """The extras each ``pip install ".[...]"`` names, and the files and modules the commands
    run, exist in this checkout."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = pyproject.split("[project.optional-dependencies]\n", 1)[1].split("\n[", 1)[0]
    extras = set(re.findall(r"^([\w-]+) = ", section, re.M))
    commands = "\n".join(_blocks("bash"))
    named = {extra for group in re.findall(r'"\.\[([\w,-]+)\]"', commands)
             for extra in group.split(",")}
    assert named and named <= extras, named - extras
    for script in re.findall(r"python (\S+\.py)", commands):
        assert (ROOT / script).is_file(), script
    for module in re.findall(r"python -m (benchmarks)\b", commands):
        assert (ROOT / module / "__main__.py").is_file(), module
