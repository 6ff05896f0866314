"""Lecture mode's page-to-usable time (issue 39 §4), cold and warm, quiet and under load.

"Usable": from asking headless Chromium (1920×1080) to open the chapter's page in Voilà's
lecture mode (``make lecture``'s template and configuration) until its first explorer has
drawn its figure and has answered a key press on its first slider with a new picture
(``tests/lab_browser.py``'s ``slider_latency``).

- cold: the kernel is started when the page is opened (``make lecture``);
- warm: the notebook is named in ``COMPANION_WARM`` (``make lecture WARM=…``), so a kernel
  has run it before the page is opened (Voilà's pre-heated kernels,
  companion/widgets/lecture/voila.py); before each warm page the script waits until that
  kernel has finished (the load paused meanwhile: the lecturer prepared it before class);
- quiet, and under load: two CPU hogs per core, started (and stopped) by the script;
- the baseline, measured in the same run under the same load: the floor, a bare ipympl
  figure under one slider (``interactivity.py``'s) opened cold in the same lecture mode.

Each figure is the median of ``--repeat`` pages, printed in seconds and as a ratio to the
floor's; the warm/cold ratio is printed per notebook.  Every page is closed as a tab is
(its kernel goes); the live kernels are counted after each.

Run: ``PYTHONPATH=. .venv/bin/python benchmarks/lecture_start.py [--notebooks NAME …]
[--repeat R] [--quiet-only]``
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import psutil
from interactivity import FLOOR_NOTEBOOK

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the browser harness
import lab_browser as lb  # noqa: E402

#: Generous: a cold page under load took up to 56 s in the instructor's trial.
PAGE_SECONDS = 300


def _kernels(server) -> list[psutil.Process]:
    """The server's live kernel processes."""
    found = []
    for process in psutil.Process(server.proc.pid).children(recursive=True):
        try:
            if (process.status() != psutil.STATUS_ZOMBIE
                    and "ipykernel" in " ".join(process.cmdline())):
                found.append(process)
        except psutil.Error:
            pass
    return found


def _wait_settled(server, count: int, timeout: float = 600) -> None:
    """Wait until the server has ``count`` kernels, all of them idle (under 3 % of a core
    for 3 s running): a warm kernel has run its notebook, a closed page's kernel is gone."""
    deadline, calm = time.monotonic() + timeout, 0
    while time.monotonic() < deadline:
        kernels = _kernels(server)
        try:
            busy = [k.cpu_percent(interval=None) for k in kernels]
            time.sleep(1.0)
            busy = [k.cpu_percent(interval=None) for k in kernels]
        except psutil.Error:
            busy = [100.0]
        calm = calm + 1 if len(kernels) == count and max(busy, default=0) < 3 else 0
        if calm >= 3:
            return
    raise TimeoutError(f"the server did not settle on {count} idle kernels in {timeout} s "
                       f"(it has {len(_kernels(server))})")


@contextmanager
def _hogs(load: bool):
    """Two CPU hogs per core while ``load``; the context's value pauses them (``pause(True)``)
    and resumes them."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(2 * os.cpu_count() if load else 0)]

    def pause(paused: bool) -> None:
        for hog in hogs:
            hog.send_signal(signal.SIGSTOP if paused else signal.SIGCONT)

    try:
        yield pause
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


def page_to_usable(context, server, path: str) -> float:
    """Seconds from opening ``path`` in lecture mode to its first explorer answering a key
    (in a page of ``context``, a browser context that outlives the page: the page's goodbye,
    which shuts its kernel down, is sent after the page has closed)."""
    page = context.new_page()
    lb.install_paint_probe(page)
    start = time.monotonic()
    try:
        page.goto(server.link(f"voila/render/{path}"), timeout=PAGE_SECONDS * 1000)
        page.wait_for_selector(f".{lb.EXPLORER_CLASS} canvas", timeout=PAGE_SECONDS * 1000)
        lb.wait_painted(page, timeout=PAGE_SECONDS)
        lb.slider_latency(page, timeout=PAGE_SECONDS)
        return time.monotonic() - start
    finally:
        page.close(run_before_unload=True)  # as a tab is closed: its kernel goes


def _measure(browser, server, path: str, pool: int, pause) -> float:
    """:func:`page_to_usable` in a fresh browser context (nothing cached), the load paused
    (``pause``) until the server has its ``pool`` of warm kernels, idle, and no other, and
    again until the page's kernel has gone."""
    pause(True)
    _wait_settled(server, pool)
    pause(False)
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    try:
        return page_to_usable(context, server, path)
    finally:
        pause(True)
        _wait_settled(server, pool)
        context.close()


def _resolve(name: str) -> str:
    """A chapter notebook's path below the repository from its name (``knife-edge``)."""
    found = sorted((ROOT / "chapters").rglob(f"{name}.ipynb"))
    if len(found) != 1:
        raise SystemExit(f"--notebooks: {name!r} names {len(found)} notebooks below chapters/ "
                         "(give a notebook's name without .ipynb, e.g. knife-edge)")
    return found[0].relative_to(ROOT).as_posix()


def main(names: list[str], repeat: int, loads: list[bool]) -> None:
    paths = [_resolve(name) for name in names]
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} at the start; "
          f"medians of {repeat} pages; 'load' is two CPU hogs per core")
    results: dict[tuple[str, bool, bool], list[float]] = {}
    with (tempfile.TemporaryDirectory(dir=ROOT / "chapters") as tmp, lb.chromium() as browser):
        floor = (Path(tmp) / "floor.ipynb")
        floor.write_text(json.dumps(FLOOR_NOTEBOOK))
        floor_path = floor.relative_to(ROOT).as_posix()
        for warm in (False, True):
            env = {"COMPANION_WARM": " ".join(paths)} if warm else {}
            with lb.jupyter_server(ROOT, app="voila", lecture=True, env=env) as server:
                pool = len(paths) if warm else 0
                for load in loads:
                    with _hogs(load) as pause:
                        for _ in range(repeat):
                            for path in ([] if warm else [floor_path]) + paths:
                                seconds = _measure(browser, server, path, pool, pause)
                                results.setdefault((path, warm, load), []).append(seconds)
                                print(f"  {'warm' if warm else 'cold'} "
                                      f"{'load ' if load else 'quiet'} {path}: {seconds:.1f} s",
                                      flush=True)
    medians = {key: statistics.median(values) for key, values in results.items()}
    print(f"\n{'page-to-usable':<46}" + "".join(
        f"{'load' if load else 'quiet':>10} {'× floor':>8}" for load in loads))
    rows = [("floor (bare ipympl figure), cold", floor_path, False)]
    rows += [(f"{path.removeprefix('chapters/')}, {'warm' if warm else 'cold'}", path, warm)
             for path in paths for warm in (False, True)]
    for label, path, warm in rows:
        cells = [(medians[path, warm, load], medians[floor_path, False, load]) for load in loads]
        print(f"{label:<46}" + "".join(f"{s:9.1f}s {s / base:8.2f}" for s, base in cells))
    for path in paths:
        print(f"{path.removeprefix('chapters/') + ', warm / cold':<46}" + "".join(
            f"{'':>10} {medians[path, True, load] / medians[path, False, load]:8.2f}"
            for load in loads))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--notebooks", nargs="+", default=["knife-edge"],
                        help="chapter notebooks by name (default: knife-edge)")
    parser.add_argument("--repeat", type=int, default=3, help="pages per figure (median)")
    parser.add_argument("--quiet-only", action="store_true", help="no run under load")
    args = parser.parse_args()
    main(args.notebooks, args.repeat, [False] if args.quiet_only else [False, True])
