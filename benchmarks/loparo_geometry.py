"""Benchmarks of the Loparo §7.2–7.6 examples: explorer updates, SO(3) and energy drift.

Run: ``PYTHONPATH=$PWD python benchmarks/loparo_geometry.py [--updates N]``.

An update is what a slider change costs in the kernel: re-simulate, refresh the view's
artists, and render the figure (Agg).  Bar ≤ 100 ms, goal 50 ms (median).
"""

from __future__ import annotations

import argparse
import os
import time

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from companion import examples  # noqa: E402
from companion.geometry.views import EXPLORER_SETTINGS, RigidBodyView, SphereView  # noqa: E402

#: (system, view, slider swept, its range)
CASES = [
    ("sphere_particle", SphereView, r"\dot{\phi}", (1.0, 5.0)),
    ("rigid_body_so3", RigidBodyView, "omega_x", (0.02, 0.5)),
    ("thrown_body", RigidBodyView, "omega_x", (0.05, 0.8)),
]


def explorer_updates(name: str, view_cls, slider: str, span, n: int) -> dict[str, float]:
    system = examples.get(name)
    kwargs = EXPLORER_SETTINGS.get(name, {})
    is_param = slider in {p.name for p in system.parameters}
    view = view_cls()
    fig = plt.figure(figsize=view.figsize)
    view.setup(fig, system.simulate(**kwargs))
    fig.canvas.draw()
    sim, total = [], []
    for value in np.linspace(*span, n):
        change = {"params" if is_param else "initial": {slider: value}}
        start = time.perf_counter()
        traj = system.simulate(**kwargs, **change)
        mid = time.perf_counter()
        view.refresh(traj)
        fig.canvas.draw()
        end = time.perf_counter()
        sim.append(mid - start)
        total.append(end - start)
    plt.close(fig)
    return {"simulate ms": 1e3 * np.median(sim), "update ms": 1e3 * np.median(total)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=20, help="updates per explorer (≥ 20)")
    n = max(parser.parse_args().updates, 20)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'explorer':<18} {'simulate ms':>12} {'update ms':>10}  (median of {n}; "
          "bar 100, goal 50)")
    for name, view_cls, slider, span in CASES:
        r = explorer_updates(name, view_cls, slider, span, n)
        flag = "ok" if r["update ms"] <= 100 else "OVER BAR"
        print(f"{name:<18} {r['simulate ms']:>12.1f} {r['update ms']:>10.1f}  {flag}")

    body = examples.get("rigid_body_so3")
    for t_final in (20.0, 200.0):
        tr = body.simulate(t_final=t_final, n_points=2000)
        print(f"rigid_body_so3 over {t_final:g} s: max ‖RᵀR − I‖ = "
              f"{tr.max_residual('‖RᵀR − I‖'):.2e} (goal ≤ 1e-12); drift of energy "
              f"{tr.drift('energy'):.1e}, |Aω| {tr.drift('|Aω|'):.1e}, "
              f"M_s {tr.drift('M_s = R A ω'):.1e}")
    tr = examples.get("thrown_body").simulate()
    print(f"thrown_body: max ‖RᵀR − I‖ = {tr.max_residual('‖RᵀR − I‖'):.2e}; total energy "
          f"drift {tr.drift('total energy'):.1e}")
    tr = examples.get("sphere_particle").simulate()
    print(f"sphere_particle: energy drift {tr.drift('energy'):.1e}, L_z drift "
          f"{tr.drift('L_z'):.1e}, max |JᵀR| {tr.max_residual('JᵀR'):.1e} N")


if __name__ == "__main__":
    main()
