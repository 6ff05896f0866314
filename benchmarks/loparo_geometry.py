"""Benchmarks of Loparo §7.2–7.6: explorer update times, SO(3) orthogonality drift and the
conservation of the invariants.  Run: ``PYTHONPATH=. python benchmarks/loparo_geometry.py``.

(a) Explorer update, kernel side, with the ipympl canvas: re-simulate, evaluate invariants,
    move the artists, ``draw_idle`` (bar ≤ 100 ms, goal 50 ms, median).  Reported
    separately: the Agg render of the whole figure that ipympl then performs in the kernel.
(b) ‖RᵀR − I‖ of the Lie-group update (goal ≤ 1e-12) and the drift of energy, |Aω|, M_s.
"""

from __future__ import annotations

import argparse
import os

import numpy as np
from explorer_timing import report, scrub

from companion import examples
from companion.examples.sphere_particle.view import SIMULATE

#: The slider each explorer is scrubbed along, over its whole range.
SCRUB = {"sphere_particle": r"\dot{\phi}", "rigid_body_so3": "omega_x", "thrown_body": "omega_x"}


def bench_explorer(name: str, n: int) -> None:
    control = SCRUB[name]
    report(name, control, scrub(examples.explorer(name), control, n=n))


def accuracy() -> None:
    body = examples.get("rigid_body_so3")
    for t_final in (20.0, 200.0):
        tr = body.simulate(t_final=t_final, n_points=2000)
        print(f"rigid_body_so3 over {t_final:5.0f} s: max ‖RᵀR − I‖ "
              f"{tr.max_residual('‖RᵀR − I‖'):.2e} (goal ≤ 1e-12); drift of energy "
              f"{tr.drift('energy'):.1e}, |Aω| {tr.drift('|Aω|'):.1e}, "
              f"M_s {tr.drift('M_s = R A ω'):.1e}")
    tr = examples.get("thrown_body").simulate()
    print(f"thrown_body: max ‖RᵀR − I‖ {tr.max_residual('‖RᵀR − I‖'):.2e}; drift of total "
          f"energy {tr.drift('total energy'):.1e}, M_s {tr.drift('M_s = R A ω'):.1e}")
    sphere = examples.get("sphere_particle")
    for kwargs in ({}, SIMULATE):
        tr = sphere.simulate(**kwargs)
        print(f"sphere_particle {kwargs or '(defaults)'}: drift of energy "
              f"{tr.drift('energy'):.1e}, L_z {tr.drift('L_z'):.1e}; max |JᵀR| "
              f"{tr.max_residual('JᵀR'):.1e} N")
    tr = sphere.simulate(params={"g": 0.0})
    print(f"sphere_particle, g = 0: off the great-circle plane ≤ "
          f"{np.max(np.abs(tr['off great-circle plane'])):.1e} m")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=25, help="updates per explorer (≥ 20)")
    n = max(parser.parse_args().updates, 20)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"# Loparo §7.2–7.6 benchmarks ({os.cpu_count()} CPUs, load average {load:.1f})")
    for name in SCRUB:
        bench_explorer(name, n)
    accuracy()


if __name__ == "__main__":
    main()
