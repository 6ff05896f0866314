"""The size of the core, now and at a base revision read in the same run (issue 28 §2).

Prints, for the working tree and for ``--base`` (a git revision, read with ``git show``):
the package's lines of Python, ``companion/system.py``'s, the keyword arguments of
``System.__init__`` and of ``Definition`` (when it exists), and the places that map a
parameter's name to its position in ``p`` outside the one ParameterTable (list
comprehensions such as ``[pv[s.name] for s in …]``).

Usage: ``.venv/bin/python benchmarks/core_size.py [--base f683534]``
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: ``[values[s.name] for s in symbols]``: a name → position map written by hand.
BY_NAME = re.compile(r"\[\s*\w+\[\s*\w+\.name\s*\]\s+for\s+\w+\s+in\s+[\w.]*"
                     r"(?:parameter_symbols|PARAMETERS|SYMBOLS|parameters)\b")


def files(rev: str | None) -> dict[str, str]:
    """The package's Python files at ``rev`` (None: the working tree), path → text."""
    if rev is None:
        return {str(p.relative_to(ROOT)): p.read_text() for p in ROOT.glob("companion/**/*.py")}
    names = subprocess.run(["git", "ls-tree", "-r", "--name-only", rev, "companion"],
                           cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    return {n: subprocess.run(["git", "show", f"{rev}:{n}"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout
            for n in names if n.endswith(".py")}


def keywords(source: str, cls: str) -> int | None:
    """The named arguments of ``cls.__init__`` in ``source`` (self and ** not counted)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    a = item.args
                    return len(a.posonlyargs) + len(a.args) - 1 + len(a.kwonlyargs)
    return None


def measure(rev: str | None) -> dict[str, object]:
    tree = files(rev)
    definition = tree.get("companion/mechanics/definition.py", "")
    return {
        "package lines": sum(t.count("\n") for t in tree.values()),
        "system.py lines": tree["companion/system.py"].count("\n"),
        "System.__init__ arguments": keywords(tree["companion/system.py"], "System"),
        "Definition arguments": keywords(definition, "Definition") if definition else "-",
        "hand-written name → position maps": sum(len(BY_NAME.findall(t))
                                                 for t in tree.values()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="f683534", help="the revision to compare with")
    args = parser.parse_args()
    before, after = measure(args.base), measure(None)
    print(f"{'':36s} {args.base:>10s} {'now':>10s}")
    for key in before:
        print(f"{key:36s} {before[key]!s:>10s} {after[key]!s:>10s}")


if __name__ == "__main__":
    main()
