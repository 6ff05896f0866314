"""Shared fixtures of the test suite."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def python3_kernel(tmp_path_factory) -> str:
    """Name of a Jupyter kernel that runs *this* interpreter (the one with ``companion``).

    A ``python3`` kernelspec found first on the search path (say, a user-level one pointing at
    another Python) would otherwise run the notebooks somewhere ``companion`` is not installed.
    ``JUPYTER_PATH`` comes first in that search, so a spec placed there wins.
    """
    data = tmp_path_factory.mktemp("jupyter")
    spec_dir = data / "kernels" / "python3"
    spec_dir.mkdir(parents=True)
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (companion tests)",
        "language": "python",
    }
    (spec_dir / "kernel.json").write_text(json.dumps(spec), encoding="utf-8")
    old = os.environ.get("JUPYTER_PATH")
    os.environ["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(data), old]))
    yield "python3"
    if old is None:
        del os.environ["JUPYTER_PATH"]
    else:
        os.environ["JUPYTER_PATH"] = old


# The browser tests' servers and browser: one JupyterLab, one Voilà of each kind and one
# Chromium for the whole session, started when a test first asks (the harness imports
# Playwright only then).  Each test opens its own page (a fresh context: no shared state).
@pytest.fixture(scope="session")
def lab():
    """JupyterLab serving the repository (tests/lab_browser.py, jupyter_server)."""
    import lab_browser as lb

    with lb.jupyter_server(ROOT) as server:
        yield server


@pytest.fixture(scope="session")
def voila():
    """Voilà serving the repository, as a reader's ``voila NOTEBOOK`` would."""
    import lab_browser as lb

    with lb.jupyter_server(ROOT, app="voila") as server:
        yield server


@pytest.fixture(scope="session")
def lecture_voila():
    """Voilà in lecture mode, as ``make lecture`` runs it (projector style, no code)."""
    import lab_browser as lb

    with lb.jupyter_server(ROOT, app="voila", lecture=True) as server:
        yield server


#: How much of the server's log a failed browser test shows (a kernel that died says why there).
LOG_TAIL = 20000


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test that used a server (JupyterLab or Voilà) gets the end of its log as a
    report section."""
    report = yield
    if report.failed:
        from lab_browser import Server

        for name, server in getattr(item, "funcargs", {}).items():
            if isinstance(server, Server) and server.log.exists():
                report.sections.append((f"{name} server log (end)",
                                        server.log.read_text(errors="replace")[-LOG_TAIL:]))
    return report


@pytest.fixture(scope="session")
def browser():
    """Debian's headless Chromium, driven by Playwright."""
    import lab_browser as lb

    with lb.chromium() as b:
        yield b


#: The module whose checks share one live page per notebook (see its docstring).
SHARED_PAGES = "test_browser_chapters.py"


def pytest_collection_modifyitems(items):
    """Run the checks of tests/test_browser_chapters.py notebook by notebook (each in the
    order the module defines them), so that each notebook is opened and run once.

    Only an ordering for speed: the module's page cache reopens a notebook that was closed,
    so a check run alone (``-k``) or in another order still gets its page.
    """
    slots = [i for i, item in enumerate(items) if item.path.name == SHARED_PAGES]
    ours = [items[i] for i in slots]
    first_seen: dict[str, int] = {}
    for item in ours:
        first_seen.setdefault(_notebook_of(item), len(first_seen))
    ours.sort(key=lambda item: first_seen[_notebook_of(item)])  # stable: definition order
    for i, item in zip(slots, ours, strict=True):
        items[i] = item


def _notebook_of(item) -> str:
    callspec = getattr(item, "callspec", None)
    return callspec.params.get("notebook", "") if callspec else ""


@pytest.fixture
def widget_backend():
    """pyplot makes ipympl canvases (what an explorer shows in a notebook) for one test."""
    import matplotlib  # here, not at the top: importing pyplot early would fix its backend
    import matplotlib.pyplot as plt

    backend = matplotlib.get_backend()
    plt.switch_backend("module://ipympl.backend_nbagg")
    yield
    plt.switch_backend(backend)
