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

import matplotlib

matplotlib.use("module://ipympl.backend_nbagg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from companion import examples  # noqa: E402
from companion.explorers import euler_body, knife_edge  # noqa: E402

#: The slider each explorer is scrubbed along, over its whole range.
SCRUB = {"euler_body": (euler_body, "omega_x"), "knife_edge": (knife_edge, "u_2")}


def _stats(samples: list[float]) -> str:
    ms = 1e3 * np.asarray(samples)
    return f"median {np.median(ms):6.1f} ms   p90 {np.percentile(ms, 90):6.1f} ms"


def bench_explorer(name: str, n: int) -> None:
    module, control = SCRUB[name]
    ex = module.explorer()
    slider = ex.controls[control]
    ex.figure.canvas.draw()  # first render (fonts, caches)
    updates, simulations, renders = [], [], []
    for value in np.linspace(slider.min, slider.max, n):
        start = time.perf_counter()
        traj = ex.update(**{control: float(value)})
        updates.append(time.perf_counter() - start)
        simulations.append(ex.elapsed)
        if traj is None:
            raise RuntimeError(f"{name}: {control} = {value} failed: {ex.error}")
        start = time.perf_counter()
        ex.figure.canvas.draw()
        renders.append(time.perf_counter() - start)
    live = "ipympl canvas" if ex._live_canvas else "static canvas"
    print(f"{name:11s} update ({live}, {n} values of {control}): {_stats(updates)}")
    print(f"{'':11s}   of which simulate + invariants:       {_stats(simulations)}")
    print(f"{'':11s} Agg render of the figure (per update):  {_stats(renders)}")
    plt.close(ex.figure)


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
          f"{knife_edge.closed_form_error(traj):.2e}   (goal ≤ 1e-9)")
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
