"""The size and shape of the core, now and at a base revision read in the same run (issues 28
§2 and 36).

Prints, for the working tree and for ``--base`` (a git revision, read with ``git show``; the
instrumented counts run its code from a ``git archive`` in a temporary folder):

* the package's lines of Python, ``companion/system.py``'s, and the central class ``System``:
  its methods (functions defined in its body) and lines;
* the keyword arguments of ``System.__init__`` (the model) and of ``Definition``;
* ``Parameter.check`` calls for one parameter per slider move, instrumented: the knife-edge
  explorer's ``update(m=2.0)`` (the explorer's own check and the simulation's);
* right-hand-side forms: the functions that build an f(t, x) of the equations —
  ``rhs``/``c_rhs`` of the compiled forms (``numerics/compile.py``, ``numerics/elimination.py``),
  ``rhs_in_independent_speeds`` (``mechanics/agreement.py``), and the ``exec`` factory
  ``_rhs_factory`` (``system.py``), where the base revision has them (now the Python and the
  C printing of the one ``Program`` in ``numerics/compile.py``, which the elimination and
  the Lagrange form build instead of an f of their own);
* places that start an integration: functions calling ``solve_ivp``, ``odeint``,
  ``solve_events`` or a C right-hand side's ``integrate(x0, t, rtol, atol)``;
* the places that map a parameter's name to its position in ``p`` outside the one
  ParameterTable (list comprehensions such as ``[pv[s.name] for s in …]``);
* the integrator parts' calls back into the System for the guards of a run
  (``system.check_start(…)``, ``check_finite``, ``check_coordinates``,
  ``nonholonomic_residuals``, ``evaluate``), where they run the Setup's guards instead.

Usage: ``.venv/bin/python benchmarks/core_size.py [--base b4f372f]``
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: ``[values[s.name] for s in symbols]``: a name → position map written by hand.
BY_NAME = re.compile(r"\[\s*\w+\[\s*\w+\.name\s*\]\s+for\s+\w+\s+in\s+[\w.]*"
                     r"(?:parameter_symbols|PARAMETERS|SYMBOLS|parameters)\b")
#: An integrator part calling the System back for a guard or the evaluation of its run.
CALLBACK = re.compile(r"\bsystem\.(?:check_start|check_finite|check_coordinates|"
                      r"nonholonomic_residuals|evaluate)\(")

#: Where right-hand-side forms are built, and the names of the functions that build them.
FORMS = {"companion/numerics/compile.py": {"rhs", "c_rhs"},
         "companion/numerics/elimination.py": {"rhs", "c_rhs"},
         "companion/mechanics/agreement.py": {"rhs_in_independent_speeds"},
         "companion/system.py": {"_rhs_factory"}}

#: One slider move on the knife-edge explorer, counting Parameter.check calls for m.
SLIDER_MOVE = """
import os
os.environ.setdefault("MPLBACKEND", "Agg")
from companion import examples
from companion.mechanics.definition import Parameter
explorer = examples.explorer("knife_edge")
calls = []
check = Parameter.check
def counted(self, value):
    if self.name == "m":
        calls.append(1)
    return check(self, value)
Parameter.check = counted
assert explorer.update(m=2.0) is not None, explorer.error
print(len(calls))
"""


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


def central_class(source: str, cls: str = "System") -> tuple[int, int]:
    """(methods, lines) of ``cls`` in ``source``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            methods = sum(isinstance(item, ast.FunctionDef) for item in node.body)
            return methods, node.end_lineno - node.lineno + 1
    return 0, 0


def forms(tree: dict[str, str]) -> int:
    """Functions that build a right-hand side (:data:`FORMS`)."""
    return sum(isinstance(node, ast.FunctionDef) and node.name in names
               for path, names in FORMS.items() if path in tree
               for node in ast.walk(ast.parse(tree[path])))


def _starts(call: ast.Call) -> bool:
    func = call.func
    if isinstance(func, ast.Attribute) and getattr(func.value, "id", "") == "self":
        return False  # the C integrator's entry points calling one another, not a caller
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
    if name in ("solve_ivp", "odeint", "solve_events"):
        return True
    return name == "integrate" and isinstance(func, ast.Attribute) and len(call.args) >= 4


def _own_nodes(function: ast.FunctionDef):
    """The nodes of ``function``'s body, not those of functions defined inside it."""
    stack = [n for n in function.body
             if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(c for c in ast.iter_child_nodes(node)
                     if not isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef)))


def integration_starts(tree: dict[str, str]) -> int:
    """Functions that start an integration themselves (a call of a solver in their body)."""
    return sum(any(isinstance(c, ast.Call) and _starts(c) for c in _own_nodes(node))
               for text in tree.values() for node in ast.walk(ast.parse(text))
               if isinstance(node, ast.FunctionDef))


def checks_per_slider_move(rev: str | None) -> str:
    """``Parameter.check`` calls for m in one knife-edge slider move, run at ``rev``."""
    with tempfile.TemporaryDirectory() as tmp:
        where = ROOT
        if rev is not None:
            archive = subprocess.run(["git", "archive", rev, "companion"], cwd=ROOT,
                                     capture_output=True, check=True).stdout
            with tarfile.open(fileobj=BytesIO(archive)) as tar:
                tar.extractall(tmp, filter="data")
            where = Path(tmp)
        run = subprocess.run([sys.executable, "-c", SLIDER_MOVE], cwd=where,
                             env={**os.environ, "PYTHONPATH": str(where)},
                             capture_output=True, text=True)
    return run.stdout.strip() if run.returncode == 0 else f"failed: {run.stderr[-200:]}"


def measure(rev: str | None) -> dict[str, object]:
    tree = files(rev)
    definition = tree.get("companion/mechanics/definition.py", "")
    methods, lines = central_class(tree["companion/system.py"])
    return {
        "package lines": sum(t.count("\n") for t in tree.values()),
        "system.py lines": tree["companion/system.py"].count("\n"),
        "System methods": methods,
        "System lines": lines,
        "System.__init__ arguments": keywords(tree["companion/system.py"], "System"),
        "Definition arguments": keywords(definition, "Definition") if definition else "-",
        "Parameter.check per slider move": checks_per_slider_move(rev),
        "right-hand-side forms": forms(tree),
        "places starting an integration": integration_starts(tree),
        "hand-written name → position maps": sum(len(BY_NAME.findall(t))
                                                 for t in tree.values()),
        "guard callbacks into the System": sum(len(CALLBACK.findall(t)) for t in tree.values()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="b4f372f", help="the revision to compare with")
    args = parser.parse_args()
    before, after = measure(args.base), measure(None)
    print(f"{'':36s} {args.base:>10s} {'now':>10s}")
    for key in before:
        print(f"{key:36s} {before[key]!s:>10s} {after[key]!s:>10s}")


if __name__ == "__main__":
    main()
