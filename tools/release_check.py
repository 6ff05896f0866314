"""Run the live figures' tests against other releases of their libraries, in a throwaway venv.

    python -m tools.release_check matplotlib==3.8.4 ipympl==0.9.4
    python -m tools.release_check --newest

The throwaway venv sees this environment's packages (a ``.pth`` file) with the requested
releases installed over them (``--newest``: the newest releases of matplotlib, ipympl, scipy
and sympy that pip resolves, whatever ``pyproject.toml`` allows), and runs the tests of
:mod:`companion.widgets.private_hooks` and of the layered render on them (``--tests`` to choose
others), with the hooks taken whatever the releases.  How the hooks'
:data:`~companion.widgets.private_hooks.TESTED` range was checked.
"""

from __future__ import annotations

import argparse
import os
import site
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

from companion.widgets.private_hooks import PLAIN_ENV

ROOT = Path(__file__).resolve().parents[1]
NEWEST = ["matplotlib", "ipympl", "scipy", "sympy"]
TESTS = ["tests/test_private_hooks.py", "tests/test_background.py", "tests/test_frames.py"]


def run(requirements: list[str], tests: list[str]) -> int:
    """Install ``requirements`` over this environment in a throwaway venv, print the releases
    it then has, and run ``tests`` there; pytest's exit status."""
    with tempfile.TemporaryDirectory(prefix="companion-releases-") as tmp:
        venv.create(tmp, with_pip=True)
        python = str(Path(tmp) / "bin" / "python")
        own = subprocess.run([python, "-c", "import site; print(site.getsitepackages()[0])"],
                             capture_output=True, text=True, check=True).stdout.strip()
        Path(own, "companion_base.pth").write_text(site.getsitepackages()[0] + "\n")
        subprocess.run([python, "-m", "pip", "install", "-q", "--upgrade", *requirements],
                       check=True)
        subprocess.run([python, "-c", "import importlib.metadata as m; print(', '.join("
                        f"f'{{p}} {{m.version(p)}}' for p in {NEWEST!r}))"], check=True)
        return subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests],
                              cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), PLAIN_ENV: "0"}
                              ).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("requirements", nargs="*", help="pip requirements, e.g. ipympl==0.9.4")
    parser.add_argument("--newest", action="store_true",
                        help=f"the newest releases of {', '.join(NEWEST)}")
    parser.add_argument("--tests", nargs="+", default=TESTS, help="test files to run")
    args = parser.parse_args(argv)
    requirements = [*args.requirements, *(NEWEST if args.newest else [])]
    if not requirements:
        parser.error("name the releases to try (e.g. matplotlib==3.8.4), or --newest")
    return run(requirements, args.tests)


if __name__ == "__main__":
    sys.exit(main())
