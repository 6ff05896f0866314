"""Greenwood §4.4's efficiency comparison: every derivation method on every worked example.

Run: ``PYTHONPATH=. python benchmarks/methods_comparison.py [example ...]``
"""

import sys

from companion import compare_methods, examples
from companion.mechanics.agreement import max_disagreement


def main(names: list[str]) -> None:
    table = compare_methods([examples.get(n) for n in names or examples.system_names()])
    print(table)
    print()
    for name in names or examples.system_names():
        if examples.get(name).u_independent[0].name not in examples.get(name).initial_values():
            # the disk on the link is hybrid, with a state layout of its own: its rolling model
            # is compared with Newton–Euler in tests/test_disk_link.py instead
            print(f"{name}: random states in (q, u) do not apply (own state layout)")
            continue
        worst = max_disagreement(examples.get(name))
        print(f"{name}: largest relative difference from Boltzmann–Hamel's u̇ at 20 random "
              "states: " + ", ".join(f"{m} {d:.1e}" for m, d in worst.items()))


if __name__ == "__main__":
    main(sys.argv[1:])
