"""C DOP853 against SciPy's integrators, measured (issue 36: keep ``"dop853-c"`` or drop it).

For worked examples integrated by the plain ODE, one simulation each with: SciPy's LSODA
(``odeint``) and SciPy's DOP853 (``solve_ivp``) on the Python right-hand side, the same two on
the C right-hand side (called back from Python at every step), and ``"dop853-c"`` (SciPy's
DOP853 steps compiled with the C right-hand side: one call per run).  Prints the CPU seconds
per run (median of ``--repeat``, after one warm-up run that compiles) and the largest
difference of the final state from the LSODA/Python run and from the DOP853/Python run (the
same steps as ``"dop853-c"``: on a chaotic motion, the double pendulum's, only that one is
comparable), so that speed is read with accuracy.

    PYTHONPATH=$PWD python benchmarks/integrators.py [--repeat 5] [--examples double_pendulum]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time

import numpy as np

from companion import examples
from companion.numerics.c_rhs import compiler
from companion.system import OdeIntegrator

#: (label, solver, backend)
VARIANTS = [("lsoda / python", "lsoda", "python"), ("dop853 / python", "dop853", "python"),
            ("lsoda / C rhs", "lsoda", "c"), ("dop853 / C rhs", "dop853", "c"),
            ("dop853-c (one C call)", "dop853-c", "c")]


def timed(system, integrator, repeat: int) -> tuple[float, np.ndarray]:
    traj = system.simulate(integrator=integrator)  # warm-up: derives and compiles
    seconds = []
    for _ in range(repeat):
        start = time.process_time()
        traj = system.simulate(integrator=integrator)
        seconds.append(time.process_time() - start)
    return statistics.median(seconds), traj.states[:, -1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--examples", nargs="*", default=["double_pendulum", "knife_edge",
                                                          "rolling_disk"])
    args = parser.parse_args()
    if compiler() is None:
        raise SystemExit("no C compiler: the C variants cannot be measured")
    for name in args.examples:
        system = examples.get(name)
        base = system.integrator if isinstance(system.integrator, OdeIntegrator) else None
        if base is None:
            print(f"{name}: integrated by {type(system.integrator).__name__}, skipped")
            continue
        print(f"{name} (t_final = {system.t_final:g} s, {system.n_points} samples)")
        ends: list[np.ndarray] = []
        for label, solver, backend in VARIANTS:
            part = dataclasses.replace(base, solver=solver, backend=backend, rtol=None,
                                       atol=None)
            seconds, end = timed(system, part, args.repeat)
            ends.append(end)
            lsoda, dop = (np.max(np.abs(end - e)) for e in (ends[0], ends[min(1, len(ends) - 1)]))
            print(f"  {label:24s} {seconds * 1e3:9.2f} ms   |x(T) − lsoda/python| = "
                  f"{lsoda:.1e}   |x(T) − dop853/python| = {dop:.1e}")


if __name__ == "__main__":
    main()
