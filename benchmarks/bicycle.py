"""The Whipple bicycle benchmark: accuracy against Meijaard et al. (2007), evaluations per
second of the compiled right-hand side, and derivation time ours vs sympy's KanesMethod.

Every timing is a ratio against a figure measured in the same run (the machine is shared):
evaluations per second against a trivial right-hand side of the same signature, derivation
time against KanesMethod on the same bicycle.  Targets: ≥ 20 000 evaluations/s; derivation
ratio ≤ 0.5 (goal), ≤ 1.0 (bar).

    PYTHONPATH=$PWD python benchmarks/bicycle.py [--evals N]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from companion import book
from companion.examples.whipple_bicycle import checks, stability
from companion.examples.whipple_bicycle.independent import kane_model
from companion.examples.whipple_bicycle.system import build


def evaluations_per_second(f, x0: np.ndarray, n: int) -> float:
    f(0.0, x0)  # warm up (first call builds caches)
    start = time.perf_counter()
    for _ in range(n):
        f(0.0, x0)
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evals", type=int, default=3000, help="calls per timing")
    args = parser.parse_args()
    printed = book.printed("whipple_bicycle")

    # Derivation: ours (definition → equations) vs KanesMethod, fresh objects each.
    start = time.perf_counter()
    system = build()
    system.derive()
    ours = time.perf_counter() - start
    other = build()
    start = time.perf_counter()
    kane_model(other).derive()
    theirs = time.perf_counter() - start
    print(f"derivation: ours {ours:.1f} s (build + Boltzmann–Hamel), KanesMethod {theirs:.1f} s,"
          f" ratio {ours / theirs:.2f} (goal ≤ 0.5, bar ≤ 1.0)")

    # Accuracy against the paper.
    weave, capsize = stability.stability_speeds(system)
    errors = [abs(weave - printed["weave speed"]) / printed["weave speed"],
              abs(capsize - printed["capsize speed"]) / printed["capsize speed"]]
    print(f"weave speed {weave:.14f} m/s (relative error {errors[0]:.1e}), capsize speed "
          f"{capsize:.14f} m/s (relative error {errors[1]:.1e})")
    eigen = checks.eigenvalue_errors(printed["eigenvalues"])
    worst = max(eigen, key=eigen.get)
    print(f"eigenvalues at v = 0…10 m/s: largest relative error {eigen[worst]:.1e} "
          f"(v = {worst} m/s)")

    # Evaluations per second of the right-hand side.
    pv = system.parameter_values()
    p = [pv[s.name] for s in system.parameter_symbols]
    x0 = system.initial_state(system.initial_values({"u_1": 0.3, "delta": 0.1}))
    eom = system.compiled()
    size = x0.size

    def trivial(t: float, x: np.ndarray) -> np.ndarray:
        return np.array(x.tolist()[:size])

    python_rhs, c_rhs = eom.rhs(p), eom.c_rhs(p)
    agree = float(np.max(np.abs(python_rhs(0.0, x0) - c_rhs(0.0, x0))))
    base = evaluations_per_second(trivial, x0, args.evals)
    rate_py = evaluations_per_second(python_rhs, x0, max(200, args.evals // 10))
    rate_c = evaluations_per_second(c_rhs, x0, args.evals)
    print(f"trivial right-hand side (baseline): {base:,.0f} evaluations/s")
    print(f"Python right-hand side: {rate_py:,.0f} /s ({rate_py / base:.3f} of the baseline)")
    print(f"C right-hand side: {rate_c:,.0f} /s ({rate_c / base:.3f} of the baseline); "
          f"|C − Python| = {agree:.1e}")
    print(f"load average over the last minute: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
