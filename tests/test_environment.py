"""The three descriptions of the environment must agree.

``pyproject.toml`` declares the ranges the package works with; ``environment.yml`` (local
conda users) pins one version of each dependency, and ``binder/environment.yml``
(repo2docker) locks the whole image: Python and pip from conda, every other package pinned in
its pip section, written by ``binder/lock.py`` from the tested environment.  These tests fail
when a dependency is missing from an environment file, when a pin falls outside pyproject's
range, when the two environment files disagree, when the lock misses a package the runtime
imports or a requirement of a locked package, and (with the package index) when a pinned
version does not exist or the pins cannot be installed together.
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
ENV_FILES = {"root": ROOT / "environment.yml", "binder": ROOT / "binder" / "environment.yml"}

#: conda-forge names whose PyPI name differs by more than ``-``/``_``/case.
CONDA_TO_PYPI = {"matplotlib-base": "matplotlib", "python-isal": "isal"}
#: Entries of an environment file that are not Python packages of pyproject.
NOT_PYPROJECT = {"python", "pip"}
#: Entries of binder/environment.yml only, for the hub image: not dependencies of the package.
HUB_ONLY = {"nbgitpuller"}
#: The widget stack: a version skew between these breaks widgets in the browser.
WIDGET_STACK = {"jupyterlab", "ipywidgets", "jupyterlab-widgets", "ipympl"}

_CONDA_PIN = re.compile(
    r"^(?P<name>[A-Za-z0-9][A-Za-z0-9_.\-]*)\s*==?\s*(?P<version>[0-9][^=\s]*)$"
)


@dataclass(frozen=True)
class Pin:
    conda_name: str
    version: str

    @property
    def pypi_name(self) -> str:
        return canonicalize_name(CONDA_TO_PYPI.get(self.conda_name, self.conda_name))


def load_env(path: Path) -> dict:
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def conda_entries(env: dict) -> list[str]:
    return [d for d in env["dependencies"] if isinstance(d, str)]


def pip_entries(env: dict) -> list[str]:
    sections = [d["pip"] for d in env["dependencies"] if isinstance(d, dict) and "pip" in d]
    return [line for section in sections for line in section]


def pins(env: dict) -> dict[str, Pin]:
    """Conda entries and the pip section's ``name==version`` lines (binder's lock) by
    canonical PyPI name; an unpinned entry raises with its text."""
    out: dict[str, Pin] = {}
    for entry in conda_entries(env):
        m = _CONDA_PIN.match(entry.strip())
        if m is None:
            raise AssertionError(f"{entry!r} is not pinned as 'name=version'")
        pin = Pin(m["name"], m["version"])
        out[pin.pypi_name] = pin
    return {**out, **lock_pins(env)}


def lock_pins(env: dict) -> dict[str, Pin]:
    """The pip section's pins (``-e .`` and other options left out); an entry pinned otherwise
    than ``name==version`` raises with its text."""
    out: dict[str, Pin] = {}
    for entry in pip_entries(env):
        if entry.startswith("-"):
            continue
        name, sep, version = entry.partition("==")
        if not sep or not re.fullmatch(r"[0-9][^=\s;]*", version.strip()):
            raise AssertionError(f"pip entry {entry!r} is not pinned as 'name==version'")
        out[canonicalize_name(name.strip())] = Pin(name.strip(), version.strip())
    return out


def pyproject() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)


def runtime_requirements() -> dict[str, Requirement]:
    reqs = (Requirement(r) for r in pyproject()["project"]["dependencies"])
    return {canonicalize_name(r.name): r for r in reqs}


def all_requirements() -> dict[str, Requirement]:
    """Runtime dependencies and every extra: an environment file may also pin extras."""
    project = pyproject()["project"]
    lines = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        lines.extend(extra)
    return {canonicalize_name(r.name): r for r in map(Requirement, lines)}


@pytest.fixture(params=sorted(ENV_FILES), ids=lambda k: str(ENV_FILES[k].relative_to(ROOT)))
def env(request) -> dict:
    return load_env(ENV_FILES[request.param])


def test_conda_forge_only(env):
    channels = env.get("channels", [])
    assert "conda-forge" in channels, f"channels {channels} lack conda-forge"
    assert set(channels) <= {"conda-forge", "nodefaults"}, f"channels {channels}: conda-forge only"


def test_every_entry_pinned(env):
    pins(env)  # raises with the offending entry


def test_every_runtime_dependency_present(env):
    pinned = pins(env)
    missing = sorted(set(runtime_requirements()) - set(pinned))
    assert not missing, f"pyproject dependencies missing from the environment file: {missing}"


def test_pins_inside_pyproject_ranges(env):
    reqs = all_requirements()
    locked = lock_pins(env)  # the lock also pins what the dependencies need
    outside = []
    for name, pin in pins(env).items():
        if name in NOT_PYPROJECT | HUB_ONLY or (name in locked and name not in reqs):
            continue
        assert name in reqs, f"{pin.conda_name} is pinned but not a dependency in pyproject.toml"
        if not reqs[name].specifier.contains(Version(pin.version), prereleases=True):
            outside.append(f"{pin.conda_name}={pin.version} not in {reqs[name]}")
    assert not outside, "pins outside pyproject's ranges:\n" + "\n".join(outside)


def test_python_pin_satisfies_requires_python(env):
    python = pins(env)["python"]
    requires = SpecifierSet(pyproject()["project"]["requires-python"])
    assert requires.contains(Version(python.version)), f"python={python.version} vs {requires}"


def test_widget_stack_pinned_in_both_files():
    for key, path in ENV_FILES.items():
        missing = WIDGET_STACK - set(pins(load_env(path)))
        assert not missing, f"{key}: {sorted(missing)} must be pinned with the widget stack"


def test_root_and_binder_pins_agree():
    root, binder = (pins(load_env(p)) for p in ENV_FILES.values())
    missing = sorted(set(root) - set(binder))
    assert not missing, f"binder/environment.yml lacks {missing}"
    binder = {n: binder[n] for n in root}
    differ = [f"{n}: {root[n].version} vs {binder[n].version}" for n in root
              if root[n].version != binder[n].version]
    assert not differ, "environment.yml and binder/environment.yml pin differently:\n" + "\n".join(
        differ
    )


def test_hub_image_has_nbgitpuller():
    """The README's git-pull link needs nbgitpuller in the image ``repo2docker .`` builds from
    binder/ (pinned like everything else there; resolved with the rest against the index)."""
    binder = pins(load_env(ENV_FILES["binder"]))
    for name in HUB_ONLY:
        assert name in binder, f"binder/environment.yml lacks {name} (the hub recipe needs it)"
        assert Version(binder[name].version), binder[name]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "/hub/user-redirect/git-pull?repo=" in readme


def test_binder_python_line_in_repo2docker_form():
    # repo2docker takes the Python version only from an entry written exactly `python=3.x`.
    entries = conda_entries(load_env(ENV_FILES["binder"]))
    assert [e for e in entries if re.fullmatch(r"python=3\.\d+", e)], entries


def test_binder_does_not_list_local_package():
    # A local package in the pip section defeats repo2docker's caching; postBuild installs it.
    local = [line for line in pip_entries(load_env(ENV_FILES["binder"]))
             if line.startswith(("-e", ".", "/", "file:"))]
    assert not local, f"binder/environment.yml pip section lists a local package: {local}"


def test_root_env_installs_the_package():
    assert "-e ." in pip_entries(load_env(ENV_FILES["root"]))


def test_postbuild():
    path = ROOT / "binder" / "postBuild"
    text = path.read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env bash\n") or text.startswith("#!/bin/bash\n")
    assert "set -euo pipefail" in text
    assert re.search(r"^pip install --no-deps \.$", text, re.M), "must `pip install --no-deps .`"
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    assert "lab build" not in code, "JupyterLab 4 extensions are prebuilt: no `jupyter lab build`"
    assert path.stat().st_mode & stat.S_IXUSR, "postBuild must be executable"


def test_jupyterlab_news_turned_off():
    postbuild = (ROOT / "binder" / "postBuild").read_text(encoding="utf-8")
    assert "binder/overrides.json" in postbuild and "share/jupyter/lab/settings" in postbuild
    settings = json.loads((ROOT / "binder" / "overrides.json").read_text(encoding="utf-8"))
    assert settings["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"


# --- against the package index ----------------------------------------------------------------

_OFFLINE = re.compile(
    r"NewConnectionError|Temporary failure in name resolution|Network is unreachable"
    r"|Max retries exceeded|ConnectTimeout|ReadTimeout",
    re.I,
)


def test_every_pin_resolves_on_the_package_index():
    """One pip resolution of binder's pins, for binder's Python, as binary wheels.

    A version that does not exist, or pins that cannot be installed together, fail here.
    (The root file's pins equal binder's: ``test_root_and_binder_pins_agree``.)
    """
    binder = pins(load_env(ENV_FILES["binder"]))
    wanted = {n: p.version for n, p in binder.items() if n not in NOT_PYPROJECT}
    python = binder["python"].version
    if f"{sys.version_info.major}.{sys.version_info.minor}" == python:
        python = ".".join(map(str, sys.version_info[:3]))  # conda's python=3.x is its latest 3.x.y
    cmd = [
        sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet",
        "--no-input", "--disable-pip-version-check", "--timeout", "60",
        "--python-version", python, "--only-binary=:all:", "--report", "-",
        *(f"{name}=={version}" for name, version in sorted(wanted.items())),
    ]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        if _OFFLINE.search(proc.stderr) and not os.environ.get("CI"):
            pytest.skip("package index unreachable (this test needs the network; CI runs it)")
        pytest.fail(f"the pins do not resolve on the package index:\n{proc.stderr[-3000:]}")
    report = json.loads(proc.stdout)
    resolved = {
        canonicalize_name(item["metadata"]["name"]): item["metadata"]["version"]
        for item in report["install"]
    }
    wrong = {n: (v, resolved.get(n)) for n, v in wanted.items() if resolved.get(n) != v}
    assert not wrong, f"pinned vs resolved versions differ: {wrong}"


# --- binder's lock -----------------------------------------------------------------------------

#: What the hub image runs: the companion's modules (its dev tools left out) in the kernel, and
#: the servers and kernels that serve them.
RUNTIME = """
import importlib, json, pkgutil, sys
before = set(sys.modules)  # the interpreter's start-up (site's .pth hooks), not the runtime
import companion
for info in pkgutil.walk_packages(companion.__path__, "companion."):
    if ".devtools" not in info.name and not info.name.endswith("__main__"):
        importlib.import_module(info.name)
for name in ("jupyterlab.labapp", "voila.app", "ipykernel.kernelapp", "ipympl.backend_nbagg",
             "jupyter_server.serverapp"):
    importlib.import_module(name)
print(json.dumps(sorted({m.partition(".")[0] for m in set(sys.modules) - before})))
"""


def test_binder_lock_covers_what_the_runtime_imports():
    """Every distribution the runtime imports a module of (the companion's modules, JupyterLab,
    Voilà, the kernel, ipympl) is pinned in binder's lock."""
    from importlib import metadata

    run = subprocess.run([sys.executable, "-c", RUNTIME], capture_output=True, text=True,
                         timeout=600, cwd=ROOT, env={**os.environ, "MPLBACKEND": "Agg"})
    assert run.returncode == 0, run.stderr[-3000:]
    providers = metadata.packages_distributions()
    imported = {canonicalize_name(dist) for module in json.loads(run.stdout.splitlines()[-1])
                if module not in sys.stdlib_module_names
                for dist in providers.get(module, ())} - {"companion"}
    locked = lock_pins(load_env(ENV_FILES["binder"]))
    assert imported and not imported - set(locked), (
        f"imported but not locked: {sorted(imported - set(locked))}: run binder/lock.py")


def test_binder_lock_is_closed():
    """Every requirement of every locked package (as the installed distribution of the locked
    version states it) is locked too, at a version it accepts: nothing is left for pip to
    resolve when the image is rebuilt."""
    from importlib import metadata

    locked = lock_pins(load_env(ENV_FILES["binder"]))
    unmet, checked = [], 0
    for name, pin in locked.items():
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue  # a hub-only package (nbgitpuller): binder/lock.py checked it on the index
        if canonicalize_name(dist.version) != canonicalize_name(pin.version):
            continue  # another version installed here: its requirements may differ
        checked += 1
        for line in dist.requires or ():
            req = Requirement(line)
            if req.marker is not None and not req.marker.evaluate({"extra": ""}):
                continue
            have = locked.get(canonicalize_name(req.name))
            if have is None or not req.specifier.contains(have.version, prereleases=True):
                unmet.append(f"{name}=={pin.version} needs {req}, the lock has "
                             f"{have and have.version}")
    assert checked > len(locked) / 2, "the lock is far from this environment: run binder/lock.py"
    assert not unmet, "\n".join(unmet)


def test_binder_lock_widget_stack_and_no_local_package():
    """The widget stack is locked (not left to conda's resolution), and the lock names no
    local package."""
    binder = load_env(ENV_FILES["binder"])
    assert WIDGET_STACK <= set(lock_pins(binder))
    assert [e for e in conda_entries(binder)] == ["python=3.11", "pip=26.0"]
