"""Greenwood §4.4's efficiency study on a scaling family, against sympy's KanesMethod.

For every system of :data:`FAMILY` (the planar n-link chain for n = 2…10, the rolling disk
with two rolling constraints; further systems are one :class:`Entry` line each) and every
method — Boltzmann–Hamel, Lagrange with multipliers, Maggi, our general dynamical equation
(Kane's form) and sympy's ``KanesMethod`` as the baseline, derived in the same run — it
prints:

* the number and order of the equations and the first-order ODEs integrated;
* ``count_ops`` of the complete first-order system, kinematical equations q̇ = Φ u included,
  as printed and after common-subexpression elimination;
* the derivation time (every run on a fresh system built outside its timing, KanesMethod's
  too; the system's own construction, shared by our methods, in its own column), its
  ratio to KanesMethod's (``KanesMethod`` constructed and ``kanes_equations`` formed) and
  whether that ratio meets issue 36's goal (≤ 0.5).  On
  the chain the mechanics model (frames, points, bodies, loads) is built with the system, so
  neither form of Kane's method is timed building its input, as no other method is timed
  building T; until issue 36 both timings built it, a share common to both that pulled
  Kane's ratio towards 1 (building it: 0.03 s against KanesMethod's 0.08 s on it for two
  links, 0.13 s against 1.1 s for eight, CPU seconds in one run);
* the compile time (lambdify with cse into math-module scalar code) and the time per
  right-hand-side evaluation (M u̇ = f solved numerically), as evaluations per second;
* the same for the C right-hand side (q̇, M and f printed as C with cse, M u̇ = f solved in
  C, compiled by the system's C compiler into a fresh cache: wall seconds to print and
  compile), when a C compiler is found.

Timings are CPU seconds of this process (time.process_time), which other processes on a
shared machine inflate less than wall time, with the garbage collector off during each
derivation (as timeit does); still, read the ratios, measured in one run.
With ``--repeat R`` every system is derived in R interleaved rounds (KanesMethod, then each
of our methods, then again), so that a change in the machine's load falls on all alike;
times are medians over the rounds and each ratio is the ratio of the medians.  The summary
names each method's worst row and the rows above the goal.
A PNG of the figures against n is written to ``--png`` (default: the system's temporary
directory); it is not part of the repository.

    PYTHONPATH=$PWD python benchmarks/efficiency.py [--max-links N] [--repeat R] [--png PATH]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from companion import examples
from companion.examples.families import BASELINE, Entry, Measure, chain_entry, measure
from companion.mechanics.comparison import BOOK_METHODS
from companion.numerics import c_rhs
from companion.system import System

#: Issue 36's goal for every method's derivation time over KanesMethod's.
GOAL = 0.5


def from_example(name: str) -> Entry:
    """A worked example with an independent KanesMethod model (its slice's independent.py)."""
    def baseline(system: System) -> tuple:
        model = examples.independent_models()[name](system)
        model.derive()
        return model.kane, model.plain, tuple(model.dependent)

    return Entry(name, len(examples.get(name).q), lambda: examples.build(name), baseline)


def family(max_links: int = 10) -> list[Entry]:
    """The systems of the study; a worked example joins with one ``from_example`` line."""
    return [
        *(chain_entry(n) for n in range(2, max_links + 1)),
        from_example("rolling_disk"),
    ]


HEADER = (f"{'system':<13} {'method':<21} {'equations':<44} {'ODEs':>4} {'ops':>7} "
          f"{'ops cse':>7} {'build s':>7} {'derive s':>8} {'/Kanes':>6} {f'≤ {GOAL}':>5} "
          f"{'compile s':>9} {'rhs/s':>8} {'C compile s':>11} {'C rhs/s':>8}")


def row(m: Measure) -> str:
    return (f"{m.system:<13} {m.method:<21} {m.equations:<44} {m.first_order:>4} {m.ops:>7} "
            f"{m.ops_cse:>7} {m.build:>7.2f} {m.derive:>8.2f} {m.ratio:>6.2f} "
            f"{'' if m.method == BASELINE else 'yes' if m.ratio <= GOAL else 'NO':>5} "
            f"{m.compile:>9.2f} {m.per_second:>8.0f} {m.c_compile:>11.2f} "
            f"{m.c_per_second:>8.0f}")


def plot(measures: list[Measure], path: Path) -> None:
    """ops after cse, derivation time and rhs evaluations per second against n (the chain)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    chain = [m for m in measures if m.system.startswith("chain_")]
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    for method in dict.fromkeys(m.method for m in chain):
        pts = sorted((m.size, m) for m in chain if m.method == method)
        ns = [n for n, _ in pts]
        style = "k--" if method == BASELINE else "-o"
        for ax, value in zip(axes, ("ops_cse", "derive", "per_second"), strict=True):
            lines = ax.plot(ns, [getattr(m, value) for _, m in pts], style, label=method, ms=3)
        if any(m.c_per_second for _, m in pts):  # the C right-hand side: dotted, same colour
            axes[2].plot(ns, [m.c_per_second for _, m in pts], ":", marker=".",
                         color=lines[0].get_color())
    for ax, title in zip(axes, ("count_ops of q̇, M, f after cse", "derivation time [s]",
                                "rhs evaluations per second (dotted: C)"), strict=True):
        ax.set_xlabel("links n of the planar chain")
        ax.set_title(title)
        ax.set_yscale("log")
    axes[0].legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-links", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--methods", nargs="*", default=list(BOOK_METHODS))
    parser.add_argument("--only", nargs="*", help="names of the family's systems to run")
    parser.add_argument("--png", type=Path,
                        default=Path(tempfile.gettempdir()) / "companion-efficiency.png")
    args = parser.parse_args()
    c_rhs.CACHE = Path(tempfile.mkdtemp(prefix="companion-c-"))  # every C build is timed
    entries = [e for e in family(args.max_links) if not args.only or e.name in args.only]
    print(HEADER, flush=True)
    measures: list[Measure] = []
    for entry in entries:
        for m in measure(entry, args.methods, args.repeat, with_c=True):
            measures.append(m)
            print(row(m), flush=True)
    ours = [m for m in measures if m.method != BASELINE]
    worst = max(ours, key=lambda m: m.ratio)
    print(f"\nderivation time ours / KanesMethod (medians of {args.repeat} interleaved "
          f"round(s)): worst {worst.ratio:.2f} ({worst.method} on {worst.system}); goal "
          f"≤ {GOAL}, bar ≤ 1.0")
    for method in args.methods:
        mine = [m for m in ours if m.method == method]
        worst = max(mine, key=lambda m: m.ratio)
        above = [m.system for m in mine if m.ratio > GOAL]
        print(f"  {method:<21} worst {worst.ratio:.2f} ({worst.system}), median "
              f"{statistics.median(m.ratio for m in mine):.2f}; "
              + (f"above {GOAL}: {', '.join(above)}" if above else f"every row ≤ {GOAL}"))
    largest = [m for m in ours if m.system == f"chain_{args.max_links}"]
    for m in largest:
        print(f"{m.system} by {m.method}: derived in {m.derive:.1f} s (target < 10 s), "
              f"rhs evaluations/s {m.per_second:,.0f} in Python, {m.c_per_second:,.0f} in C "
              "(target ≥ 20 000)")
    plot(measures, args.png)
    print(f"figure: {args.png}")


if __name__ == "__main__":
    main()
