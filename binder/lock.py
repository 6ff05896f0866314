"""Lock the hub image: write every package it installs, pinned, into binder/environment.yml.

The lock is taken from the environment this runs in — the one the tests pass in — so a rebuild
of the image mid-term installs exactly what was tested, the widget stack's dependencies
included (a re-resolution would bring the version skew that shows as "model not found").
It holds the transitive closure of pyproject.toml's runtime dependencies and its ``fast``
extra, as installed here, and the hub-only packages (:data:`HUB_ONLY`), which this
environment need not have: their requirements, read from the package index, must be met by
the rest of the lock.

Refresh (after changing a dependency in pyproject.toml and installing it)::

    .venv/bin/pip install -e '.[test]'
    .venv/bin/python binder/lock.py          # rewrites binder/environment.yml's pip section
    .venv/bin/python -m pytest -p no:xdist tests/test_environment.py

``tests/test_environment.py`` checks that the lock covers every package the runtime imports
and every requirement of every locked package, and that it lies inside pyproject's ranges.
"""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

try:
    import tomllib
except ImportError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
ENVIRONMENT = ROOT / "binder" / "environment.yml"
#: The pyproject extras the image installs besides the runtime dependencies.
EXTRAS = ("fast",)
#: Packages for the hub only (the README's git-pull links), no dependency of the companion.
HUB_ONLY = ("nbgitpuller==1.3.0",)
#: The conda part: repo2docker takes the Python version only from a line `python=3.x`.
CONDA = ("python=3.11", "pip=26.0")
BEGIN, END = "# lock:begin", "# lock:end"


def roots() -> list[Requirement]:
    """pyproject's runtime dependencies and those of :data:`EXTRAS`."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    lines = list(project["dependencies"])
    for extra in EXTRAS:
        lines += project["optional-dependencies"][extra]
    return [Requirement(line) for line in lines]


def requirements_of(requirement: Requirement) -> list[Requirement]:
    """What the installed distribution of ``requirement`` requires, with its extras, on this
    interpreter (markers evaluated)."""
    found = []
    for line in metadata.distribution(requirement.name).requires or ():
        req = Requirement(line)
        extras = [""] + sorted(requirement.extras)
        if req.marker is None or any(req.marker.evaluate({"extra": e}) for e in extras):
            found.append(req)
    return found


def closure(start: list[Requirement]) -> dict[str, str]:
    """Every distribution the requirements ``start`` need, by canonical name → the version
    installed here.

    Raises
    ------
    SystemExit
        A needed distribution that is not installed (install the environment first).
    """
    locked: dict[str, str] = {}
    seen: set[tuple[str, frozenset[str]]] = set()
    todo = [r for r in start if r.marker is None or r.marker.evaluate({"extra": ""})]
    while todo:
        req = todo.pop()
        name = canonicalize_name(req.name)
        if (name, frozenset(req.extras)) in seen:
            continue
        seen.add((name, frozenset(req.extras)))
        try:
            locked[name] = metadata.version(req.name)
        except metadata.PackageNotFoundError:
            raise SystemExit(f"{req.name} is required ({req}) but not installed here: install "
                             "the environment first (pip install -e '.[test]')") from None
        todo += requirements_of(req)
    return locked


def hub_only(locked: dict[str, str]) -> dict[str, str]:
    """:data:`HUB_ONLY`, whose wheels' requirements (read from the package index by pip, for
    the image's Python) must all be met by ``locked``.

    Raises
    ------
    SystemExit
        The index is unreachable, or a hub-only package needs a package or version that the
        lock does not hold (add it to pyproject's or this module's list and lock again).
    """
    python = next(c for c in CONDA if c.startswith("python=")).partition("=")[2]
    cmd = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--no-deps",
           "--quiet", "--no-input", "--disable-pip-version-check", "--python-version", python,
           "--only-binary=:all:", "--report", "-", *HUB_ONLY]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise SystemExit(f"pip could not find {', '.join(HUB_ONLY)} (this step needs the "
                         f"package index):\n{proc.stderr[-2000:]}")
    found, unmet = {}, []
    for item in json.loads(proc.stdout)["install"]:
        meta = item["metadata"]
        found[canonicalize_name(meta["name"])] = meta["version"]
        for line in meta.get("requires_dist", ()):
            req = Requirement(line)
            if req.marker is not None and not req.marker.evaluate({"extra": ""}):
                continue
            have = locked.get(canonicalize_name(req.name))
            if have is None or not req.specifier.contains(have, prereleases=True):
                unmet.append(f"{meta['name']} needs {req}, the lock has {have}")
    if unmet:
        raise SystemExit("the lock does not meet the hub-only packages' requirements:\n"
                         + "\n".join(unmet))
    return found


def render(pins: dict[str, str]) -> str:
    """binder/environment.yml with ``pins`` as its pip section (the header comment kept)."""
    text = ENVIRONMENT.read_text(encoding="utf-8")
    header = text[:text.index("channels:")]
    lines = [header + "channels:", "  - conda-forge", "  - nodefaults", "dependencies:",
             *(f"  - {c}" for c in CONDA), "  - pip:",
             f"    {BEGIN} (written by binder/lock.py from the tested environment; do not edit)",
             *(f"    - {name}=={version}" for name, version in sorted(pins.items())),
             f"    {END}"]
    return "\n".join(lines) + "\n"


def main() -> None:
    locked = closure(roots())
    locked.pop("companion", None)  # the package itself: binder/postBuild installs it
    pins = {**locked, **hub_only(locked)}
    ENVIRONMENT.write_text(render(pins), encoding="utf-8")
    print(f"locked {len(pins)} packages in {ENVIRONMENT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
