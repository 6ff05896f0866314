"""The nonholonomic half of Loparo & Vakalis §7.9, reconstructed (ours): the knife edge under the
constrained connection against the engine's Boltzmann–Hamel derivation of Example 4.4, the
σ-orthogonal choice of u₃, the parking manoeuvre against the Lie bracket, and the vertical
rolling disk (two constraints) through the same code.  No printed result is read: the
comparisons are with the engine's other methods, so every line is a reconstruction."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, partial

import sympy as sp

from companion.checks import RECONSTRUCTION, Check, entrywise_equal
from companion.examples.euler_body.checks import residuals
from companion.examples.knife_edge.system import build as build_knife_edge
from companion.examples.nonholonomic import connection as c
from companion.examples.nonholonomic import steering
from companion.examples.rolling_disk.system import build as build_rolling_disk

BOOK = "Loparo §7.9 (ours)"

_knife = cache(build_knife_edge)
_disk = cache(build_rolling_disk)


def _from_connection(system) -> tuple[bool, str]:
    d = system().derive("boltzmann_hamel")
    con = c.constrained_connection(system())
    ok_eq, why_eq = entrywise_equal(con.reduced, residuals(d))
    ok_acc, why_acc = entrywise_equal(con.udot, d.accelerations())
    return ok_eq and ok_acc, f"Xᵀσ(q̈ + Γ̃) = XᵀF vs (4.85): {why_eq}; u̇: {why_acc}"


def _reaction(system) -> tuple[bool, str]:
    """A suppressed row r of (4.85) needs Q_r = (applied force on u_r) + λ_r."""
    s = system()
    d = s.derive("boltzmann_hamel")
    k = len(s.u_independent)
    applied = (d.Phi[:, k:].T * sp.Matrix(s.Q_q) if s.Q_q is not None
               else sp.zeros(s.n_constraints, 1))
    con = c.constrained_connection(s)
    ok, why = entrywise_equal(con.multipliers, d.constraint_forces() - applied)
    return ok, (f"λ from σ♭(P^⊥∇_c′c′) vs the suppressed rows of (4.85): {why} "
                f"(λ = {', '.join(map(str, con.multipliers))})")


def _not_integrable() -> tuple[bool, str]:
    blocks = c.constrained_connection(_knife()).obstruction
    ok = all(b != sp.zeros(*b.shape) for b in blocks) and blocks[0][0, 1] == -1
    return ok, f"γ³_rl (r, l allowed) = {blocks[0].tolist()}: D is not integrable"


def _orthogonal_u3() -> tuple[bool, str]:
    s = _knife()
    choice = c.orthogonal_quasi_velocities(s)
    right = s.derive("boltzmann_hamel").accelerations()
    good = c.renamed(choice.constrained.accelerations(), choice.u, s.u)
    same = c.renamed(choice.unconstrained.accelerations(), choice.u, s.u)
    wrong = c.constrained_T_first(s).accelerations()
    ok_good, why = entrywise_equal(good, right)
    ok_same, _ = entrywise_equal(same, right)
    ok_wrong, _ = entrywise_equal(wrong, right)
    return (ok_good and ok_same and not ok_wrong,
            f"σ-orthogonal u₃′, constrained T: {why}; Greenwood's u₃, constrained T gives "
            f"u̇ = {list(wrong)} instead of {list(right)}")


def _parking_scaling() -> tuple[bool, str]:
    small = steering.parking(1e-3, q0=(0.3, -0.2, 0.7))
    sweep = steering.scaling(q0=(0.3, -0.2, 0.7))
    slope = float(sweep["slope"])
    ok = small.relative_error < 1e-3 and abs(slope - 2) < 0.01
    return ok, (f"|Δq − ε²[X₁, X₂]|/|ε²[X₁, X₂]| = {small.relative_error:.1e} at ε = 1e-3; "
                f"log–log slope of |Δq| against ε = {slope:.4f}")


def _parking_direction() -> tuple[bool, str]:
    run = steering.parking(0.01, q0=(0.3, -0.2, 0.7))
    along, heading = run.along_bracket, run.displacement[2]
    ok = bool(abs(along - 1) < 1e-3 and abs(heading) < 1e-12)
    return ok, (f"component along [X₁, X₂] over ε² = {along:.6f} at ε = 0.01; "
                f"net turn {heading:.1e} rad")


def checks(printed: Mapping[str, str]) -> list[Check]:
    """The reconstruction's results, one :class:`Check` each (``printed`` is unused: the
    books print none of them)."""
    return [
        Check(BOOK, "(4.119)/§7.9", "knife edge: γ³₁₂ = ⟨ω³, [X₁, X₂]⟩ ≠ 0, D not integrable",
              _not_integrable, RECONSTRUCTION),
        Check(BOOK, "(4.122)–(4.123)/§7.9", "knife edge: ∇̃_c′c′ = P(σ♯F) gives (4.122)–(4.123)",
              partial(_from_connection, _knife), RECONSTRUCTION),
        Check(BOOK, "Ex 4.4/§7.9", "knife-edge force λ = m v φ̇ from the D^⊥ part",
              partial(_reaction, _knife), RECONSTRUCTION),
        Check(BOOK, "(4.108)/§7.9", "σ-orthogonal u₃: the constrained T gives (4.122)–(4.123)",
              _orthogonal_u3, RECONSTRUCTION),
        Check(BOOK, "§7.9", "parking manoeuvre: net displacement ε²[X₁, X₂], scaling ε²",
              _parking_scaling, RECONSTRUCTION),
        Check(BOOK, "§7.9", "parking manoeuvre: sideways along [X₁, X₂], heading restored",
              _parking_direction, RECONSTRUCTION),
        Check(BOOK, "§7.9", "rolling disk (2 constraints): ∇̃ gives the Boltzmann–Hamel u̇",
              partial(_from_connection, _disk), RECONSTRUCTION),
        Check(BOOK, "§7.9", "rolling disk: rolling forces from the D^⊥ part",
              partial(_reaction, _disk), RECONSTRUCTION),
    ]

