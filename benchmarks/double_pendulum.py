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
from companion.examples.double_pendulum.chain import chain_mechanism, kane_chain


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


def explorer_update(repeats: int = 20) -> None:
    """Time the explorer on 20 s of motion (budget 100 ms, goal 50 ms), as the other
    benchmarks do (``explorer_timing``)."""
    import numpy as np
    from explorer_timing import report, scrub
    from explorer_timing import stats as _stats


    timing = scrub(examples.explorer("double_pendulum"), "theta_1", np.linspace(1.0, 2.6, repeats))
    report("double_pendulum", "theta_1", timing)
    print(f"    update + render, CPU time:           {_stats(timing.cpu)}")


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
