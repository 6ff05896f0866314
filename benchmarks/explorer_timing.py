"""Shared by the benchmark scripts: scrub an explorer's slider and time each update.

An update is what a slider move costs in the kernel before drawing: re-simulate, evaluate
invariants, move the artists (the layout pass runs once the values settle, as in a kernel, and
is not counted).  The Agg render of the whole figure that the ipympl canvas then
does in the kernel (and sends to the front end) is timed separately: the explorer records both.

Run on its own (``PYTHONPATH=. .venv/bin/python benchmarks/explorer_timing.py``) it prints what
the layout pass costs a synchronous update (issue 36): :func:`layout_passes`.
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


def robot():
    """The differential-drive robot of issue 36 as its user defined it (a system of your own:
    5 coordinates, 3 rolling constraints, a torque on each wheel)."""
    import sympy as sp

    from companion import Parameter, System

    x, y, phi, th_l, th_r = sp.symbols("x y phi theta_L theta_R")
    xd, yd, phid, th_ld, th_rd = sp.symbols("xdot ydot phidot thetadot_L thetadot_R")
    u = sp.symbols("u_1:6")
    m, m_w, inertia, spin, r, b = sp.symbols("M m_w I J r b", positive=True)
    tau_l, tau_r = sp.symbols("tau_L tau_R", real=True)
    v = xd * sp.cos(phi) + yd * sp.sin(phi)
    return System(
        name="robot", q=[x, y, phi, th_l, th_r], qdot=[xd, yd, phid, th_ld, th_rd], u=list(u),
        definitions=[v, phid, -xd * sp.sin(phi) + yd * sp.cos(phi),
                     v - b * phid - r * th_ld, v + b * phid - r * th_rd],
        T_qdot=((m + 2 * m_w) * (xd**2 + yd**2) + (inertia + 2 * m_w * b**2) * phid**2
                + spin * (th_ld**2 + th_rd**2)) / 2,
        n_constraints=3, Q_q=[0, 0, 0, tau_l, tau_r],
        parameters=[Parameter(m, 2.0, 0.5, 10.0, "kg"), Parameter(m_w, 0.3, 0.05, 2.0, "kg"),
                    Parameter(inertia, 0.1, 0.01, 1.0, "kg·m²"),
                    Parameter(spin, 0.01, 0.001, 0.1, "kg·m²"),
                    Parameter(r, 0.1, 0.02, 0.5, "m"), Parameter(b, 0.2, 0.05, 1.0, "m"),
                    Parameter(tau_l, 0.05, -1.0, 1.0, "N·m"),
                    Parameter(tau_r, 0.1, -1.0, 1.0, "N·m")],
        initial=[Parameter(x, 0.0, -5, 5, "m"), Parameter(y, 0.0, -5, 5, "m"),
                 Parameter(phi, 0.0, -3.14, 3.14, "rad"),
                 Parameter(th_l, 0.0, -10, 10, "rad"), Parameter(th_r, 0.0, -10, 10, "rad"),
                 Parameter(u[0], 0.5, -2, 2, "m/s"), Parameter(u[1], 1.0, -3, 3, "rad/s")])


def layout_passes(make, control: str, n: int = 20) -> None:
    """What the layout pass costs a synchronous update (``explorer.update`` in a script or a
    cell, no slider event loop): two explorers of one system (``make(key)``) scrubbed together
    through ``n``
    values of ``control``, one laying out on every update (the baseline: before issue 36),
    one only when what the layout measures changed (``FigureFitter.relayout``).  Prints the
    median update of each, their ratio, the passes run, and whether every PNG is the same."""
    import io

    explorers = {label: make(label) for label in ("every update", "when changed")}
    passes = {label: [] for label in explorers}
    for label, ex in explorers.items():
        layout = ex.fitter.layout

        def counted(layout=layout, record=passes[label]) -> bool:
            record.append(1)
            return layout()

        ex.fitter.layout = counted
        if label == "every update":
            ex.fitter.relayout = counted
    slider = next(iter(explorers.values())).controls[control]
    times = {label: [] for label in explorers}
    same = True
    for value in np.linspace(slider.min, slider.max, n + 2)[1:-1]:
        pngs = []
        for label, ex in explorers.items():  # interleaved: both see the same machine load
            start = time.perf_counter()
            ex.update(**{control: float(value)})
            times[label].append(time.perf_counter() - start)
            buffer = io.BytesIO()
            ex.figure.savefig(buffer, format="png", dpi=60)
            pngs.append(buffer.getvalue())
        same &= pngs[0] == pngs[1]
    name = next(iter(explorers.values())).system.name
    base, new = (float(np.median(t)) for t in times.values())
    print(f"{name} ({n} values of {control}): update median "
          + ", ".join(f"{label} {1e3 * np.median(t):.0f} ms ({len(passes[label])} passes)"
                      for label, t in times.items())
          + f"; ratio {new / base:.2f}; same pixels at every value: {same}")
    for ex in explorers.values():
        ex.close()


def main() -> None:
    from companion import examples
    from companion.widgets import Explorer
    from companion.widgets.timeseries import TimeSeriesView, first_controls

    own = robot()
    # what explore(own, t_final=20) builds, under a key each: both stay open
    layout_passes(lambda key: Explorer(own, TimeSeriesView.for_system(own), key=key,
                                       essential=first_controls(own),
                                       simulate_kwargs={"t_final": 20.0}), "tau_L")
    for name, control in (("knife_edge", "u_1"), ("double_pendulum", "m_1")):
        layout_passes(lambda key, name=name: examples.explorer(name, key=key), control)


if __name__ == "__main__":
    main()
