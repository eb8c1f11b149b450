"""``python -m benchmarks`` lists the scripts; ``python -m benchmarks NAME [ARGS...]`` runs one.

NAME is a script of ``benchmarks/`` or of ``benchmarks/builders/`` (the data
builders), without ``.py``; ARGS go to its ``main(argv)`` as they would with
``python -m benchmarks.NAME ARGS...`` (``benchmarks.builders.NAME`` for a
builder). Run it from the repository root, where ``benchmarks`` and ``sksel``
import. Listing reads the scripts' docstrings without importing them, so it
needs none of their packages.
"""

import ast
import importlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: Where the scripts are: (heading of the listing, package, folder).
FOLDERS = (
    ("benchmarks/", "benchmarks", HERE),
    ("benchmarks/builders/: the data builders", "benchmarks.builders", HERE / "builders"),
)


def scripts():
    """``{name: (heading, module, first line of its docstring)}`` of every script."""
    found = {}
    for heading, package, folder in FOLDERS:
        for path in sorted(folder.glob("*.py")):
            if path.name.startswith("_"):
                continue
            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
            found[path.stem] = (heading, f"{package}.{path.stem}", doc.split("\n")[0])
    return found


def listing(found):
    """The scripts under their folders' headings, one line each."""
    width = max(len(name) for name in found)
    lines = ["usage: python -m benchmarks [NAME [ARGS...]]   (from the repository root)"]
    heading = None
    for name, (where, _, summary) in found.items():
        if where != heading:
            heading = where
            lines += ["", f"{heading}"]
        lines.append(f"  {name:<{width}}  {summary}")
    lines += ["", "python -m benchmarks NAME --help gives a script's options; benchmarks/README.md "
                  "says what each measures,", "how long it takes and where its latest results are."]
    return "\n".join(lines)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    found = scripts()
    if not argv or argv[0] in ("-h", "--help"):
        print(listing(found))
        return 0
    name, args = Path(argv[0]).stem, argv[1:]
    if name not in found:
        print(f"python -m benchmarks: no script {argv[0]!r}; python -m benchmarks lists them",
              file=sys.stderr)
        return 2
    # The script's own argparse reads its name from sys.argv[0] for its usage line.
    sys.argv = [f"python -m benchmarks {name}", *args]
    importlib.import_module(found[name][1]).main(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
