"""Lecture-speed interactivity, measured (issue: real-browser latency benchmark).

Prints one table per part:

1. kernel-side update of every explorer (re-simulate + move the artists + ask for a redraw),
   median and 90th percentile over N slider moves, and the Agg render of the whole figure
   that the ipympl canvas then does in the kernel;
2. fast dragging: a burst of slider moves arriving while an update runs is coalesced;
3. the package's import time in a fresh interpreter;
4. each chapter notebook's headless run time (nbclient) and the total;
5. with ``--browser``: slider-to-plot latency in JupyterLab in Debian's headless Chromium for
   each chapter notebook's main (first) explorer, median and p90, against the floor (a bare
   ipympl sine plot) moved once before each explorer move.

Usage: ``python benchmarks/interactivity.py [--moves 20] [--browser | --browser-only]
[--skip-notebooks] [--notebooks WORD ...]``
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the browser harness

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


#: The floor: a bare ipympl figure (one sine line) under one slider, in the same run.
FLOOR_NOTEBOOK = {
    "cells": [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
               "source": line} for line in (
        "%matplotlib widget",
        "import ipywidgets as w, matplotlib.pyplot as plt, numpy as np\n"
        "from companion.widgets.explorer import EXPLORER_CLASS\n"
        "with plt.ioff():\n"
        "    fig, ax = plt.subplots(figsize=(6, 3.5))\n"
        "x = np.linspace(0, 10, 300)\n"
        "(line,) = ax.plot(x, np.sin(x))\n"
        "slider = w.FloatSlider(value=1.0, min=0.5, max=100.0, step=0.01)\n"
        "def moved(change):\n"
        "    line.set_ydata(np.sin(change['new'] * x))\n"
        "    fig.canvas.draw()\n"
        "slider.observe(moved, names='value')\n"
        "box = w.VBox([slider, fig.canvas])\n"
        "box.add_class(EXPLORER_CLASS)\n"
        "box")],
    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                "language": "python"}},
    "nbformat": 4, "nbformat_minor": 5}


def _open(b, server, path: str):
    """A page of JupyterLab with the notebook at ``path`` run."""
    import lab_browser as lb

    page = b.new_page(viewport={"width": 1400, "height": 1000})
    lb.open_and_run(page, server, path)
    return page


def _press(page) -> tuple[float, float]:
    """One key press on the page's main explorer's first slider: the latency from the press
    (the slider focused first, as a reader does once) and from the key as the page saw it
    (NaN when the page recorded no paint after the key)."""
    import lab_browser as lb

    page.bring_to_front()
    page.evaluate("() => { window.__companionKeys = []; }")
    pressed = lb.slider_latency(page)
    from_key = page.evaluate("""() => { const key = window.__companionKeys[0];
        const paint = window.__companionPaints.find(x => x > key);
        return paint === undefined ? NaN : paint - key; }""") / 1000
    return pressed, from_key


def browser(moves: int, only: list[str] | None = None) -> None:
    import json
    import tempfile

    import lab_browser as lb

    print(f"\n5. Real-browser slider-to-pixels latency, JupyterLab + Chromium, {moves} moves: "
          "each notebook's main explorer against the floor (a bare ipympl sine plot), one "
          "floor move before each explorer move, so that both see the same machine; target "
          "≤ 1.5× the floor and ≤ 200 ms")
    paths = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "chapters").rglob("*.ipynb")
                   if p.name != "index.ipynb" and ".ipynb_checkpoints" not in p.parts
                   and (not only or any(word in p.name for word in only)))
    with tempfile.TemporaryDirectory(dir=ROOT / "chapters") as tmp:
        floor_path = Path(tmp) / "floor.ipynb"
        floor_path.write_text(json.dumps(FLOOR_NOTEBOOK))
        floor_rel = floor_path.relative_to(ROOT).as_posix()
        with lb.jupyter_server(ROOT) as server, lb.chromium() as b:
            floor_page = _open(b, server, floor_rel)
            print(f"{'':<48} {'from the press':>44}   {'from the key (page)':>26}")
            print(f"{'notebook':<48} {'floor':>8} {'median':>8} {'p90':>8} {'× floor':>8}  "
                  f"{'verdict':<7} {'median':>8} {'p90':>8} {'× floor':>8}")
            for path in paths:
                page = _open(b, server, path)
                try:
                    rounds = [(_press(floor_page), _press(page)) for _ in range(moves)]
                finally:
                    page.close()
                floor = statistics.median(f[0] for f, _ in rounds)
                floor_key = statistics.median(f[1] for f, _ in rounds if f[1] == f[1])
                lat = [e[0] for _, e in rounds]
                key = [e[1] for _, e in rounds if e[1] == e[1]]
                med, med_key = statistics.median(lat), statistics.median(key)
                ok = med <= 1.5 * floor and med <= 0.200
                print(f"{path:<48} {ms(floor)} {ms(med)} {ms(p90(lat))} {med / floor:8.2f}  "
                      f"{'target' if ok else 'OVER':<7} {ms(med_key)} {ms(p90(key))} "
                      f"{med_key / floor_key:8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--browser", action="store_true")
    parser.add_argument("--skip-notebooks", action="store_true")
    parser.add_argument("--browser-only", action="store_true",
                        help="only part 5, the real-browser latency against the floor")
    parser.add_argument("--notebooks", nargs="+", metavar="WORD",
                        help="part 5 only for notebooks whose file name contains a WORD")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if not args.browser_only:
        kernel_updates(args.moves)
        fast_drag()
        import_time()
    if not (args.skip_notebooks or args.browser_only):
        notebooks()
    if args.browser or args.browser_only:
        browser(args.moves, args.notebooks)


if __name__ == "__main__":
    main()
