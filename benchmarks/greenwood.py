"""Benchmarks of Greenwood §4.3: explorer update times and the accuracy of the default
simulations.  Run: ``PYTHONPATH=. python benchmarks/greenwood.py [--updates N]``.

(a) Explorer update, kernel side, with the ipympl canvas: re-simulate, evaluate invariants,
    move the artists, ``draw_idle``.  Reported separately: the Agg render of the whole figure
    that ipympl then performs in the kernel when the front end asks for the new image.
(b) Energy drift and constraint residuals of the default simulations, and the knife edge
    against its closed form.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from explorer_timing import report, scrub

from companion import examples
from companion.examples.knife_edge.closed_form import closed_form_error

#: The slider each explorer is scrubbed along, over its whole range.
SCRUB = {"euler_body": "omega_x", "knife_edge": "u_2"}


def bench_explorer(name: str, n: int) -> None:
    control = SCRUB[name]
    report(name, control, scrub(examples.explorer(name), control, n=n))


def accuracy() -> None:
    traj = examples.get("euler_body").simulate()
    for key in traj.invariants:
        print(f"euler_body  drift of {key:22s} {traj.drift(key):.2e}   (goal ≤ 1e-9)")
    for key in traj.residuals:
        print(f"euler_body  max |{key}| {'':5s} {traj.max_residual(key):.2e}   (goal ≤ 1e-9)")
    traj = examples.get("knife_edge").simulate()
    print(f"knife_edge  drift of energy {'':16s} {traj.drift('energy'):.2e}   (goal ≤ 1e-9)")
    lam = traj["lambda"] - traj.params["m"] * traj["u_1"] * traj["u_2"]
    print(f"knife_edge  max |λ − m v φ̇| {'':15s} {np.max(np.abs(lam)):.2e}")
    print(f"knife_edge  max |numeric − closed form| {'':4s} "
          f"{closed_form_error(traj):.2e}   (goal ≤ 1e-9)")
    print("knife_edge  constraint u_3 = 0 holds by construction (u_3 is not a state)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=25, help="updates per explorer (≥ 20)")
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"# Greenwood §4.3 benchmarks ({os.cpu_count()} CPUs, load average {load:.1f})")
    for name in SCRUB:
        start = time.perf_counter()
        examples.get(name).simulate(n_points=2)  # derive + compile once, outside the timing
        print(f"{name:11s} derive + compile + first simulation: "
              f"{1e3 * (time.perf_counter() - start):.0f} ms")
    for name in SCRUB:
        bench_explorer(name, max(args.updates, 20))
    accuracy()


if __name__ == "__main__":
    main()
