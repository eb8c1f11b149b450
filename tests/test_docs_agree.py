"""The figures the README quotes for its end-to-end example are the example's own.

``examples/daub_letter.py`` says what it measured in one paragraph of its
docstring, starting ``Measured``; the README's *Try it* section quotes that
paragraph word for word (a Markdown quote), and neither, nor the
installation page, states seconds anywhere else about the example, so that
they cannot disagree. And what the README says a newcomer installs is what
``pyproject.toml`` installs.
"""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: A figure of seconds: "9.3-9.5 s", "about 60 CPU seconds", "32 s".
SECONDS = re.compile(r"\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)?\s+(?:CPU\s+)?(?:s|seconds)\b")


def _words(text):
    return " ".join(text.split())


def _example_paragraphs():
    doc = ast.get_docstring(ast.parse((ROOT / "examples" / "daub_letter.py").read_text()))
    return [_words(paragraph) for paragraph in doc.split("\n\n")]


def _try_it():
    readme = (ROOT / "README.md").read_text()
    start = readme.index("## Try it")
    section = readme[start:readme.index("Run the tests:", start)]
    return _words(re.sub(r"^> ?", "", section, flags=re.MULTILINE))  # a quote's marks


def test_the_readme_quotes_the_examples_measured_paragraph():
    measured = [p for p in _example_paragraphs() if p.startswith("Measured")]
    assert len(measured) == 1
    assert SECONDS.search(measured[0])
    assert measured[0] in _try_it()


def test_seconds_of_the_example_are_stated_in_its_measured_paragraph_only():
    others = [p for p in _example_paragraphs() if not p.startswith("Measured")]
    assert [SECONDS.findall(p) for p in others if SECONDS.search(p)] == []
    measured = next(p for p in _example_paragraphs() if p.startswith("Measured"))
    assert SECONDS.findall(_try_it().replace(measured, "")) == []
    install = (ROOT / "doc" / "install.rst").read_text()
    section = install.split("The example\n-----------\n", 1)[1]
    end = re.search(r"\n[^\n]+\n[-=~]{3,}\n", section)  # the next heading
    assert SECONDS.findall(section[:end.start() if end else None]) == []


def test_the_tests_and_the_example_install_xgboosts_cpu_build():
    # On Linux, xgboost's wheel brings NVIDIA's NCCL (352 MB) that only GPUs use; the tests
    # and the README's example run XGBoost on the CPU (xgboost-cpu, 5.6 MB).
    pyproject = (ROOT / "pyproject.toml").read_text()

    def extra(name):
        found = re.search(rf"^{re.escape(name)} = \[(.*?)\]$", pyproject, re.M | re.S)
        return re.findall(r'"([^"]+)"', found.group(1))

    assert "sksel[xgboost-cpu]" in extra("test")
    assert not [d for d in extra("test") if re.match(r"xgboost\b(?!-)", d)]
    assert any(d.startswith("xgboost-cpu") for d in extra("xgboost-cpu"))
    readme = (ROOT / "README.md").read_text()
    assert 'pip install ".[xgboost-cpu]" pandas' in readme
    assert re.search(r"The run needs about \d+ CPU minutes", readme)  # the tests' duration
