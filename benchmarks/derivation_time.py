"""Derivation time of each example: our Boltzmann–Hamel engine vs sympy's KanesMethod.

Both derive the same system (same coordinates and speeds) from scratch, on fresh System
objects; each figure is the median of a few runs.  Goal: ratio ours / Kane ≤ 1.0.

    PYTHONPATH=$PWD python benchmarks/derivation_time.py [--repeat N] [names...]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from companion import examples
from companion.mechanics import boltzmann_hamel
from companion.mechanics.quasi_velocities import psi_from_definitions


def ours(name: str) -> Callable[[], object]:
    system = examples.build(name)

    def derive():
        psi, psi_t = psi_from_definitions(system.definitions, system.qdot)
        return boltzmann_hamel(system.T, system.q, system.u, psi,
                               n_constraints=system.n_constraints, Q=system.Q, t=system.t,
                               Psi_t=psi_t)

    return derive


def kane(name: str) -> Callable[[], object]:
    system = examples.build(name)
    return lambda: examples.independent_models()[name](system).derive()


def median_seconds(make: Callable[[str], Callable[[], object]], name: str, repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        fn = make(name)  # fresh System (and sympy objects) every run
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # The examples that have an independent sympy KanesMethod model (companion.independent).
    parser.add_argument("names", nargs="*", default=list(examples.independent_models()))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'example':<16} {'ours [ms]':>10} {'Kane [ms]':>10} {'ratio':>7}")
    ratios = []
    for name in args.names:
        a = median_seconds(ours, name, args.repeat)
        b = median_seconds(kane, name, args.repeat)
        ratios.append(a / b)
        print(f"{name:<16} {1e3 * a:>10.1f} {1e3 * b:>10.1f} {a / b:>7.2f}")
    print(f"worst ratio {max(ratios):.2f} (goal ≤ 1.0), median of {args.repeat} runs each")


if __name__ == "__main__":
    main()
