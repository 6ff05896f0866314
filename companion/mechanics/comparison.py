"""The efficiency comparison of §4.4: every applicable method on every chosen system.

One function, :func:`compare_methods`, derives each (method, system) pair afresh, times it
and measures the final equations; the notebook's table and chart and
``benchmarks/methods_comparison.py`` all come from its rows.  It takes systems, any
:class:`~companion.system.System` a reader builds included; the worked examples by name are
:func:`companion.examples.compare_methods`.
"""

from __future__ import annotations

import html
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp

from companion.mechanics.derivation import Derivation
from companion.mechanics.lagrange import kinematics_of
from companion.mechanics.methods import METHODS, Definition, method_title
from companion.numerics.compile import CompiledEOM


@dataclass(frozen=True)
class Row:
    """One method on one example."""

    example: str
    method: str
    n_equations: int
    order: int
    n_constraint_equations: int
    first_order_odes: int
    needs_multipliers: bool
    needs_unconstrained_T: bool
    ops: int
    ops_cse: int
    seconds: float
    constraint_form: str = ""

    @property
    def equations(self) -> str:
        text = f"{self.n_equations} × order {self.order}"
        if self.n_constraint_equations:
            text += f" + {self.n_constraint_equations} {self.constraint_form}constraint"
        return text


def operation_count(derivation: Derivation, first_order: bool = False) -> tuple[int, int]:
    """``count_ops`` of the final M and f (``first_order``: of the complete first-order
    system, the kinematical equations q̇ = Φ u + Φ_t included), as printed and after
    common-subexpression elimination."""
    exprs = [*derivation.kinematics] if first_order else []
    exprs += [*derivation.mass_matrix, *derivation.forcing]
    replacements, reduced = sp.cse(exprs)
    after = sum(sp.count_ops(e) for _, e in replacements) + sum(map(sp.count_ops, reduced))
    return int(sum(map(sp.count_ops, exprs))), int(after)


def rhs_evaluations_per_second(eom: CompiledEOM, p: Sequence[float],
                               seconds: float = 0.3, c: bool = False) -> float:
    """How many times per second the compiled right-hand side ``x ↦ ẋ`` is evaluated, at one
    regular state (seeded random numbers in 0.2…0.6), per second of this process's CPU time
    (other processes on a shared machine inflate wall time); ``c``: its C form
    (:meth:`CompiledEOM.c_rhs`, which needs a C compiler)."""
    f = eom.c_rhs(p) if c else eom.rhs(p)
    x = np.random.default_rng(0).uniform(0.2, 0.6, eom.n + eom.k)
    f(0.0, x)
    count, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(100):
            f(0.0, x)
        count += 100
    return count / (time.process_time() - start)


def kanes_method_derivation(kane: Any, plain: Mapping, dependent: Sequence,
                            t: sp.Symbol | None = None) -> Derivation:
    """sympy's ``KanesMethod`` (equations formed) as a :class:`Derivation` in plain Symbols,
    so that it is counted and compiled exactly like ours.

    ``plain`` maps its dynamicsymbols to Symbols; the ``dependent`` speeds are set to zero
    (the constraints hold on the motion).  M u̇ = f is over all its speeds: with dependent
    speeds KanesMethod stacks the differentiated constraints under the dynamical equations.
    """
    on_motion = dict.fromkeys(dependent, 0)

    def plain_of(e):
        return sp.sympify(e).xreplace(on_motion).xreplace(plain)

    kinematics = sp.Matrix([plain_of(kane.kindiffdict()[q.diff()]) for q in kane.q])
    return Derivation(method="KanesMethod", q=[plain[q] for q in kane.q],
                      u=[plain[u] for u in kane.u],
                      mass_matrix=kane.mass_matrix.applyfunc(plain_of),
                      forcing=kane.forcing.applyfunc(plain_of), kinematics=kinematics,
                      equations=[], t=t)


def _row(example: str, method: str, d: Derivation, seconds: float) -> Row:
    ops, ops_cse = operation_count(d)
    return Row(example=example, method=method, n_equations=d.n_dynamical, order=d.order,
               n_constraint_equations=d.n_constraint_equations,
               first_order_odes=d.n_first_order,  # as §4.4 counts them
               needs_multipliers=d.needs_multipliers,
               needs_unconstrained_T=d.needs_unconstrained_T, ops=ops, ops_cse=ops_cse,
               seconds=seconds,
               constraint_form="differentiated " if d.constraints_differentiated else "")


#: The methods whose efficiency Greenwood §4.4 sets out to compare.
BOOK_METHODS: tuple[str, ...] = ("boltzmann_hamel", "lagrange_multipliers", "maggi", "kane")


def compare_methods(
    systems: Sequence[Definition], methods: Sequence[str] | None = None,
) -> ComparisonTable:
    """Derive every applicable method (default: the four Greenwood §4.4 compares,
    :data:`BOOK_METHODS`) on every system, fresh, and measure the results: one :class:`Row`
    per applicable (system, method), the others in ``table.skipped`` with the reason.
    ``TypeError`` for an entry that is not a system (a name: worked examples by name go
    through :func:`companion.examples.compare_methods`)."""
    systems = list(systems)
    for s in systems:
        if not hasattr(s, "definitions"):
            raise TypeError(f"compare_methods takes systems, got {s!r}: for a worked example "
                            "by name use companion.compare_methods or companion.examples.get; "
                            "a model that is no System (the disk–link) has no definition to "
                            "derive every method from")
    chosen = list(methods) if methods is not None else list(BOOK_METHODS)
    rows, skipped = [], []
    for system in systems:
        known = {**METHODS, **getattr(system, "own_methods", {})}
        unknown = sorted(set(chosen) - set(known))
        if unknown:
            raise ValueError(f"unknown method(s) {unknown}; known: {', '.join(known)}")
        for method in chosen:
            kinematics_of.cache_clear()  # every method pays for its own Φ = Ψ⁻¹
            start = time.perf_counter()
            try:
                derivation = known[method](system)  # fresh, not the system's cache
            except NotImplementedError as exc:
                skipped.append((system.name, method, str(exc)))
                continue
            rows.append(_row(system.name, method, derivation, time.perf_counter() - start))
    return ComparisonTable(rows, skipped)


def _words(name: str) -> str:
    """An example's code name in words: ``knife_edge`` → ``knife edge``."""
    return name.replace("_", " ")


_COLUMNS = ("example", "method", "equations", "first-order ODEs", "multipliers",
            "unconstrained T", "count_ops", "count_ops after cse", "time [s]")


@dataclass(repr=False)
class ComparisonTable:
    """Rows of :func:`compare_methods`, rendered as text, markdown or a chart."""

    rows: list[Row]
    skipped: list[tuple[str, str, str]]

    def cells(self) -> list[list[str]]:
        """The rows as a reader sees them: examples in words, methods by the books' names."""
        yes = {True: "yes", False: "no"}
        return [[_words(r.example), method_title(r.method), r.equations, str(r.first_order_odes),
                 yes[r.needs_multipliers], yes[r.needs_unconstrained_T], str(r.ops),
                 str(r.ops_cse), f"{r.seconds:.2f}"] for r in self.rows]

    @staticmethod
    def _chosen(columns: Sequence[str] | None) -> tuple[list[str], list[int]]:
        chosen = list(_COLUMNS) if columns is None else list(columns)
        unknown = sorted(set(chosen) - set(_COLUMNS))
        if unknown:
            raise ValueError(f"unknown column(s) {unknown}; known: {', '.join(_COLUMNS)}")
        return chosen, [_COLUMNS.index(c) for c in chosen]

    def markdown(self, columns: Sequence[str] | None = None) -> str:
        """The table in Markdown, with only ``columns`` (names of the header) when given."""
        chosen, keep = self._chosen(columns)
        lines = ["| " + " | ".join(chosen) + " |", "|" + "---|" * len(chosen)]
        lines += ["| " + " | ".join(c[i] for i in keep) + " |" for c in self.cells()]
        lines += [f"\n{line}" for line in self._skipped_lines()]
        return "\n".join(lines)

    def html(self, columns: Sequence[str] | None = None) -> str:
        """The table in HTML (a page without widgets), with only ``columns`` when given."""
        chosen, keep = self._chosen(columns)
        row = lambda cells, tag: "<tr>" + "".join(  # noqa: E731
            f"<{tag}>{html.escape(c)}</{tag}>" for c in cells) + "</tr>"
        return ("<table>" + row(chosen, "th") + "".join(row([c[i] for i in keep], "td")
                                                        for c in self.cells()) + "</table>"
                + "".join(f"<p>{html.escape(line)}</p>" for line in self._skipped_lines()))

    def _repr_markdown_(self) -> str:
        return self.markdown()

    def __str__(self) -> str:
        cells = [list(_COLUMNS), *self.cells()]
        widths = [max(len(row[i]) for row in cells) for i in range(len(_COLUMNS))]
        out = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in cells]
        out.insert(1, "  ".join("-" * w for w in widths))
        out += self._skipped_lines()
        return "\n".join(out)

    __repr__ = __str__

    def _skipped_lines(self) -> list[str]:
        return [f"{_words(e)} / {method_title(m)}: not applicable ({why})"
                for e, m, why in self.skipped]

    def plot(self, fig=None):
        """Grouped bars: count_ops after cse (left) and derivation time (right), per example."""
        import matplotlib.pyplot as plt

        if fig is None:
            fig = plt.figure(figsize=(9, 3.5))
        ax_ops, ax_time = fig.subplots(1, 2)
        examples_ = list(dict.fromkeys(r.example for r in self.rows))
        methods_ = list(dict.fromkeys(r.method for r in self.rows))
        width = 0.8 / max(1, len(methods_))
        for ax, value, title in ((ax_ops, "ops_cse", "count_ops of M, f after cse"),
                                 (ax_time, "seconds", "derivation time [s]")):
            for i, method in enumerate(methods_):
                mine = [r for r in self.rows if r.method == method]
                xs = [examples_.index(r.example) + (i - (len(methods_) - 1) / 2) * width
                      for r in mine]
                ax.bar(xs, [getattr(r, value) for r in mine], width, label=method_title(method))
            ax.set_xticks(range(len(examples_)), [_words(e) for e in examples_])
            ax.set_title(title)
        ax_ops.set_yscale("log")
        ax_ops.legend(fontsize="small")
        fig.tight_layout()
        return fig
