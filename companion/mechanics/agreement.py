"""Do the methods agree?  Accelerations of the independent speeds at the same state.

Every method's :class:`~companion.mechanics.derivation.Derivation` solves ``M ẇ = f`` for its
own speeds w: the independent quasi-velocities u (Boltzmann–Hamel, Maggi, the general
dynamical equation) or (q̇, μ) with ẇ = (q̈, λ) (Lagrange with multipliers).  Each is compiled
(:func:`compiled_form`) in the state (t, q, u) of the system: for the Lagrange form
q̇ = Φ u + Φ_t (4.134) feeds its equations, and its q̈ is mapped back through
u̇ = d/dt(Ψ q̇ + Ψ_t) = Ψ q̈ + (∂(Ψ q̇ + Ψ_t)/∂q) q̇ + ∂/∂t, statements of the same program.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import sympy as sp

from companion.mechanics.lagrange import kinematics_of, total_derivative
from companion.mechanics.methods import Derivable, applicable
from companion.mechanics.numeric_elimination import NumericEliminationResult
from companion.numerics.compile import CompiledEOM, Program
from companion.numerics.elimination import EliminationEOM


def compiled_form(system: Derivable, method: str) -> CompiledEOM:
    """``method``'s equations compiled for numbers in the state (q, u) of the independent
    speeds: by numeric elimination, Lagrange's form through the kinematics (the module
    docstring), else M u̇ = f as derived."""
    d = system.derive(method)
    parameters = system.parameter_symbols
    if isinstance(d, NumericEliminationResult):
        return EliminationEOM(d, parameters)
    if d.speeds == "u":
        return CompiledEOM(d, parameters)
    definition, k, n = system.definition, len(system.u_independent), len(system.q)
    program = Program(d.t, [*system.q, *system.u_independent], parameters)
    phi, phi_t = kinematics_of(definition)
    qd = program.let(phi[:, :k] * sp.Matrix(system.u_independent) + phi_t)  # (4.134)
    at = dict(zip(d.u, [*qd, *[0] * (len(d.u) - n)], strict=True))  # μ enters nothing
    values = program.let([*d.mass_matrix, *d.forcing], at)
    qdd = program.solve(values[:len(d.u) ** 2], values[len(d.u) ** 2:], 2)[:n]
    psi, psi_t = definition.psi
    u_expr = (psi * sp.Matrix(definition.qdot) + psi_t)[:k, :]
    rate = (u_expr.jacobian(definition.qdot) * sp.Matrix(qdd)
            + total_derivative(u_expr, definition.q, sp.Matrix(definition.qdot), d.t))
    program.rates = [*qd, *program.let(rate, dict(zip(definition.qdot, qd, strict=True)))]
    return CompiledEOM(d, parameters, program)


def udot_function(system: Derivable, method: str, p: Sequence[float]):
    """``(t, q, u) ↦ u̇`` of the independent speeds by ``method`` for parameter values ``p``."""
    p = list(p)
    eom = system.compiled(method)
    no_q = not system.derive(method).q  # Arnold's form on SO(3): the ω-equations use no q
    return lambda t, q, u: eom.udot(t, [] if no_q else q, u, p)


def independent_accelerations(
    system: Derivable, method: str, t: float, q: Sequence[float], u: Sequence[float],
    params: Mapping[str, float] | None = None,
) -> np.ndarray:
    """u̇ of the system's independent quasi-velocities by ``method`` at state (t, q, u)
    (``NotImplementedError`` when ``method`` does not apply)."""
    return udot_function(system, method, system.parameter_vector(params))(t, q, u)


def random_states(system: Derivable, n: int, seed: int = 0):
    """``n`` random (t, q, u, parameters) drawn from the slider ranges of the system.

    Angles are kept away from coordinate singularities by those ranges (θ within ±1.5 rad
    for the Euler angles).
    """
    rng = np.random.default_rng(seed)
    spec = {p.name: p for p in system.initial}
    qs = [spec[s.name] for s in system.q]
    us = [spec[s.name] for s in system.u_independent]

    def draw(specs):
        return [float(rng.uniform(p.low, p.high)) for p in specs]

    for _ in range(n):
        params = dict(zip([p.name for p in system.parameters], draw(system.parameters),
                          strict=True))
        yield float(rng.uniform(0.0, 1.0)), draw(qs), draw(us), params


def max_disagreement(system: Derivable, n_states: int = 20, seed: int = 0) -> dict[str, float]:
    """Largest relative difference of each method's u̇ from Boltzmann–Hamel's, by method."""
    methods = [m for m in applicable(system, system.methods) if m != "boltzmann_hamel"]
    worst = dict.fromkeys(methods, 0.0)
    for t, q, u, p in random_states(system, n_states, seed):
        ref = independent_accelerations(system, "boltzmann_hamel", t, q, u, p)
        scale = max(1.0, float(np.max(np.abs(ref))))
        for m in methods:
            other = independent_accelerations(system, m, t, q, u, p)
            diff = np.max(np.abs(other - ref)) / scale
            worst[m] = max(worst[m], float(diff))
    return worst
