"""Shared by the benchmark scripts: scrub an explorer's slider and time each update.

An update is what a slider move costs in the kernel before drawing: re-simulate, evaluate
invariants, move the artists (the layout pass runs once the values settle, as in a kernel, and
is not counted).  The Agg render of the whole figure that the ipympl canvas then
does in the kernel (and sends to the front end) is timed separately: the explorer records both.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

import matplotlib

matplotlib.use("module://ipympl.backend_nbagg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from companion.widgets import private_hooks  # noqa: E402
from companion.widgets.responsive import SETTLE_SECONDS  # noqa: E402


@dataclass
class Timing:
    updates: list[float] = field(default_factory=list)
    simulations: list[float] = field(default_factory=list)
    renders: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    refused: int = 0


def stats(samples: list[float]) -> str:
    ms = 1e3 * np.asarray(samples)
    return f"median {np.median(ms):6.1f} ms   p90 {np.percentile(ms, 90):6.1f} ms"


def scrub(explorer, control: str, values: Iterable[float] | None = None, n: int = 20,
          close: bool = True) -> Timing:
    """Move ``control`` through ``values`` (default: ``n`` values over its slider range)."""
    slider = explorer.controls[control]
    if values is None:
        values = np.linspace(slider.min, slider.max, n + 2)[1:-1]
    explorer.figure.canvas.draw()  # first render (fonts, caches) outside the timing
    if explorer._live_canvas:  # as once a browser has shown the canvas: updates render it
        private_hooks.pretend_front_end_ready(explorer.figure.canvas)
    timing = Timing()

    async def moves() -> None:
        # inside an event loop, as in a kernel: the layout pass waits for the values to settle
        # (FigureFitter.data_changed) instead of running within every update
        for value in values:
            _move(value)
        await asyncio.sleep(SETTLE_SECONDS + 0.1)

    def _move(value: float) -> None:
        cpu = time.process_time()
        refused = explorer.update(**{control: float(value)}) is None
        timing.refused += refused
        if not explorer._live_canvas:  # a static canvas renders only when shown: do it here
            start = time.perf_counter()
            explorer.figure.canvas.draw()
            explorer.render_seconds = time.perf_counter() - start
        timing.cpu.append(time.process_time() - cpu)
        if refused:
            return
        timing.updates.append(explorer.elapsed + explorer.refresh_seconds)
        timing.simulations.append(explorer.elapsed)
        timing.renders.append(explorer.render_seconds)

    asyncio.run(moves())
    if close:
        plt.close(explorer.figure)
    return timing


def report(name: str, control: str, timing: Timing) -> None:
    """Print the update, simulation and render statistics of one scrub."""
    note = f" ({timing.refused} values refused with an explanation)" if timing.refused else ""
    print(f"{name} update ({len(timing.updates)} values of {control}){note}: "
          f"{stats(timing.updates)}")
    print(f"    of which simulate + invariants:      {stats(timing.simulations)}")
    print(f"    Agg render of the figure (ipympl):   {stats(timing.renders)}")
