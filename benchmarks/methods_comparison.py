"""Greenwood §4.4's efficiency comparison: every derivation method on every worked example.

Run: ``PYTHONPATH=. python benchmarks/methods_comparison.py [example ...]``
"""

import sys

from companion import compare_methods, examples
from companion.mechanics.agreement import max_disagreement
from companion.system import System


def main(names: list[str]) -> None:
    chosen = names or examples.system_names()
    # the disk on the link is a model of its own (hybrid contact modes), no System: its
    # rolling model is compared with Newton–Euler and Boltzmann–Hamel in tests/test_disk_link.py
    systems = [n for n in chosen if isinstance(examples.get(n), System)]
    for name in sorted(set(chosen) - set(systems)):
        print(f"{name}: a model of its own, not a System: not compared")
    print(compare_methods(systems))
    print()
    for name in systems:
        worst = max_disagreement(examples.get(name))
        print(f"{name}: largest relative difference from Boltzmann–Hamel's u̇ at 20 random "
              "states: " + ", ".join(f"{m} {d:.1e}" for m, d in worst.items()))


if __name__ == "__main__":
    main(sys.argv[1:])
