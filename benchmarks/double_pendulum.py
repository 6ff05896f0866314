"""Double pendulum and n-link chains (Loparo & Vakalis §7.7–7.8, reconstructed): figures.

1. Derivation time and operation counts of the equations of motion for n = 2…6 links:
   our pull-back builder (Jᵀ G J, Jᵀ F, first-kind Christoffel symbols) side by side with
   sympy.physics.mechanics' KanesMethod on the same chains.
2. Explorer update for 20 s of simulated motion (re-simulate + redraw), kernel side.
3. Relative energy drift of the default run, and the joint-force Newton–Euler residuals.

Run: ``PYTHONPATH=. python benchmarks/double_pendulum.py [max_links]``
"""

from __future__ import annotations

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


def explorer_update(repeats: int = 5) -> None:
    system = examples.get("double_pendulum")
    # (imports here so that the derivation table can run without matplotlib set up)
    try:
        from companion.examples.chain_views import ChainView

        from companion.widgets import Explorer
    except ImportError:  # the widgets have not been merged yet: time the simulation alone
        Explorer = None
    system.simulate()  # derive and compile once, as the notebook does before any slider
    times, cpu = [], []
    if Explorer is None:
        for k in range(repeats):
            start, c0 = time.perf_counter(), time.process_time()
            system.simulate(initial={"theta_1": 1.8 + 0.01 * k})
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - c0)
        what = "simulate only (widgets not available)"
    else:
        import matplotlib

        matplotlib.use("Agg")
        explorer = Explorer(system, ChainView(system))
        for k in range(repeats):
            start, c0 = time.perf_counter(), time.process_time()
            explorer.update(theta_1=1.8 + 0.01 * k)  # re-simulates and redraws (Agg draws now)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - c0)
        what = "re-simulate + redraw"
    median = sorted(times)[len(times) // 2]
    if Explorer is not None:
        import matplotlib.pyplot as plt
        import numpy as np

        fig, ax = plt.subplots(figsize=explorer.figure.get_size_inches())
        ax.plot(np.arange(600), np.sin(np.arange(600)))
        fig.canvas.draw()
        c0 = time.process_time()
        fig.canvas.draw()
        print(f"(machine speed reference: drawing a one-line figure of the same size takes "
              f"{1e3 * (time.process_time() - c0):.0f} ms CPU here)")
    print(f"explorer update, 20 s of motion ({what}): wall best {1e3 * min(times):.0f} ms, "
          f"median {1e3 * median:.0f} ms; CPU of this process best {1e3 * min(cpu):.0f} ms "
          "(budget 100 ms, goal 50 ms; wall exceeds CPU when the machine is shared)")


def accuracy() -> None:
    system = examples.get("double_pendulum")
    traj = system.simulate()
    print(f"energy drift of the default run (θ₁ = 1.8, θ₂ = 2.4 rad, 20 s): "
          f"{traj.drift('energy'):.1e} relative (budget 1e-9)")
    worst = max(traj.max_residual(k) for k in traj.residuals)
    print(f"joint forces in every body's Newton–Euler equations: max residual {worst:.1e} "
          "(budget 1e-10)")


if __name__ == "__main__":
    accuracy()
    explorer_update()
    derivation_table(int(sys.argv[1]) if len(sys.argv) > 1 else 6)
