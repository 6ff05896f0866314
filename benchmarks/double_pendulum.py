"""Double pendulum and n-link chains (Loparo & Vakalis §7.7–7.8, reconstructed): figures.

1. Derivation time and operation counts of the equations of motion for n = 2…6 links:
   our pull-back builder (Jᵀ G J, Jᵀ F, first-kind Christoffel symbols) side by side with
   sympy.physics.mechanics' KanesMethod on the same chains.
2. Explorer update for 20 s of simulated motion (re-simulate + redraw), kernel side.
3. Relative energy drift of the default run, and the joint-force Newton–Euler residuals.

Run: ``PYTHONPATH=. python benchmarks/double_pendulum.py [max_links]``
"""

from __future__ import annotations

import os
import sys
import time

import sympy as sp

from companion import examples
from companion.examples.planar_chain import chain_mechanism, kane_chain


def derivation_table(max_links: int = 6) -> None:
    print("n  | pull-back: time [s]  ops(M)  ops(f) | KanesMethod: time [s]  ops(M)  ops(f)")
    for n in range(2, max_links + 1):
        start = time.perf_counter()
        d = chain_mechanism(n).derive()
        t_ours = time.perf_counter() - start
        start = time.perf_counter()
        M, F, _, _ = kane_chain(n)
        t_kane = time.perf_counter() - start
        print(f"{n:<2} | {t_ours:19.2f}  {sp.count_ops(d.mass_matrix):6d}  "
              f"{sp.count_ops(d.forcing):6d} | {t_kane:21.2f}  {sp.count_ops(M):6d}  "
              f"{sp.count_ops(F):6d}")


def explorer_update(repeats: int = 9) -> None:
    """Time ``Explorer.update`` on the ipympl canvas (re-simulate 20 s, evaluate the joint
    forces, move the artists, ``draw_idle``), and separately the Agg render of the figure that
    ipympl then performs in the kernel, as ``benchmarks/greenwood.py`` does."""
    import matplotlib

    matplotlib.use("module://ipympl.backend_nbagg")
    import numpy as np

    from companion.explorers.double_pendulum import explorer as make_explorer

    ex = make_explorer()  # derives and compiles once, as the notebook does
    ex.figure.canvas.draw()  # first render (fonts, caches)
    updates, sims, renders, cpu = [], [], [], []
    for value in np.linspace(1.0, 2.6, repeats):
        c0, start = time.process_time(), time.perf_counter()
        if ex.update(theta_1=float(value)) is None:
            raise RuntimeError(f"θ₁ = {value} failed: {ex.error}")
        updates.append(time.perf_counter() - start)
        sims.append(ex.elapsed)
        start = time.perf_counter()
        ex.figure.canvas.draw()
        renders.append(time.perf_counter() - start)
        cpu.append(time.process_time() - c0)

    def stats(samples):
        ms = 1e3 * np.asarray(samples)
        return f"median {np.median(ms):5.0f} ms, best {np.min(ms):5.0f} ms"

    print("explorer update, 20 s of motion (budget 100 ms, goal 50 ms), wall clock:")
    print(f"  update (re-simulate + joint forces + move artists): {stats(updates)}")
    print(f"    of which simulate + evaluate:                   {stats(sims)}")
    print(f"  Agg render of the figure:                          {stats(renders)}")
    print(f"  update + render, CPU time of this process:         {stats(cpu)}")


def accuracy() -> None:
    system = examples.get("double_pendulum")
    traj = system.simulate()
    print(f"energy drift of the default run (θ₁ = 1.8, θ₂ = 2.4 rad, 20 s): "
          f"{traj.drift('energy'):.1e} relative (budget 1e-9)")
    worst = max(traj.max_residual(k) for k in traj.residuals)
    print(f"joint forces in every body's Newton–Euler equations: max residual {worst:.1e} "
          "(budget 1e-10)")


if __name__ == "__main__":
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"# double pendulum benchmarks ({os.cpu_count()} CPUs, load average {load:.1f})")
    accuracy()
    explorer_update()
    derivation_table(int(sys.argv[1]) if len(sys.argv) > 1 else 6)
