"""Lecture-speed interactivity, measured (issue: real-browser latency benchmark).

Prints one table per part:

1. kernel-side update of every explorer (re-simulate + move the artists + ask for a redraw),
   median and 90th percentile over N slider moves, and the Agg render of the whole figure
   that the ipympl canvas then does in the kernel;
2. fast dragging: a burst of slider moves arriving while an update runs is coalesced;
3. the package's import time in a fresh interpreter;
4. each chapter notebook's headless run time (nbclient) and the total;
5. with ``--browser``: slider-to-plot latency in JupyterLab in Debian's headless Chromium for
   each chapter notebook's main (first) explorer, median and p90.

Usage: ``python benchmarks/interactivity.py [--moves 20] [--browser] [--skip-notebooks]``
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from explorer_timing import scrub

from companion import examples

ROOT = Path(__file__).resolve().parents[1]
GOAL, BAR = 0.050, 0.100
#: Every worked example that has an explorer.
EXPLORER_NAMES = [r.name for r in examples.worked_examples() if r.explorer is not None]


def p90(xs: list[float]) -> float:
    return float(np.percentile(xs, 90))


def ms(x: float) -> str:
    return f"{1e3 * x:7.1f}"


def kernel_updates(moves: int) -> None:
    print(f"\n1. Kernel-side explorer update over {moves} slider moves "
          "(goal ≤ 50 ms, bar ≤ 100 ms)")
    print(f"{'explorer':<20} {'control':<10} {'median':>8} {'p90':>8} {'render':>8}  verdict")
    for name in EXPLORER_NAMES:
        explorer = examples.explorer(name)
        control = next(iter(explorer.controls))
        timing = scrub(explorer, control, n=moves)
        med = statistics.median(timing.updates)
        verdict = "goal" if med <= GOAL else ("bar" if med <= BAR else "OVER BAR")
        print(f"{name:<20} {control:<10} {ms(med)} {ms(p90(timing.updates))} "
              f"{ms(statistics.median(timing.renders))}  {verdict}")


def fast_drag(burst: int = 30) -> None:
    print(f"\n2. Fast dragging: {burst} slider moves arrive while the kernel is busy")
    explorer = examples.explorer("knife_edge")
    slider = explorer.controls["u_1"]
    targets = [float(v) for v in np.linspace(slider.min, slider.max, burst)]

    async def drag():
        for v in targets:
            slider.value = v
        start = time.perf_counter()
        while explorer.values["u_1"] != targets[-1]:
            await asyncio.sleep(0.001)
        return time.perf_counter() - start

    before = explorer.n_updates
    settle = asyncio.run(drag())
    print(f"updates run: {explorer.n_updates - before} for {burst} moves; the figure shows the "
          f"last value {settle * 1e3:.0f} ms after the last move (one update, no backlog)")


def import_time() -> None:
    print("\n3. Import time in a fresh interpreter (goal ≤ 2 s), median of 3")
    for stmt in ("import companion",
                 "import companion.examples, companion.widgets.explorer"):
        runs = []
        for _ in range(3):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", stmt], check=True, cwd=ROOT)
            runs.append(time.perf_counter() - start)
        print(f"{statistics.median(runs):6.2f} s  {stmt}")


def notebooks() -> None:
    import nbformat
    from nbclient import NotebookClient

    print("\n4. Headless notebook runs (nbclient, bar ≤ 30 s each)")
    total = 0.0
    for path in sorted((ROOT / "chapters").rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        nb = nbformat.read(path, as_version=4)
        start = time.perf_counter()
        NotebookClient(nb, timeout=120, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}).execute()
        seconds = time.perf_counter() - start
        total += seconds
        print(f"{seconds:6.1f} s  {path.relative_to(ROOT)}")
    print(f"{total:6.1f} s  total")


def browser(moves: int) -> None:
    from companion.devtools import lab_browser as lb

    print(f"\n5. Real-browser slider-to-plot latency, JupyterLab + Chromium, {moves} moves "
          "(goal ≤ 250 ms median, bar ≤ 400 ms)")
    paths = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "chapters").rglob("*.ipynb")
                   if p.name != "index.ipynb" and ".ipynb_checkpoints" not in p.parts)
    print(f"{'notebook':<48} {'median':>8} {'p90':>8}")
    with lb.jupyter_server(ROOT) as server, lb.chromium() as b:
        for path in paths:
            page = b.new_page(viewport={"width": 1400, "height": 1000})
            run = lb.open_notebook(page, server, path)
            lb.run_all_cells(page, run)
            page.wait_for_selector(f".{lb.EXPLORER_CLASS} canvas", timeout=60_000)
            page.wait_for_timeout(1000)
            lat = [lb.slider_latency(page) for _ in range(moves)]
            print(f"{path:<48} {ms(statistics.median(lat))} {ms(p90(lat))}")
            page.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--browser", action="store_true")
    parser.add_argument("--skip-notebooks", action="store_true")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    kernel_updates(args.moves)
    fast_drag()
    import_time()
    if not args.skip_notebooks:
        notebooks()
    if args.browser:
        browser(args.moves)


if __name__ == "__main__":
    main()
