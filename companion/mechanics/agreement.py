"""Do the methods agree?  Accelerations of the independent speeds at the same state.

Every method's :class:`~companion.mechanics.derivation.Derivation` solves ``M ẇ = f`` for its
own speeds w: the independent quasi-velocities u (Boltzmann–Hamel, Maggi, the general
dynamical equation) or (q̇, μ) with ẇ = (q̈, λ) (Lagrange with multipliers).  To compare them
at a state (t, q, u) of the system, q̇ = Φ u + Φ_t (4.134) feeds the Lagrange form, and its q̈
is mapped back through u̇ = d/dt(Ψ q̇ + Ψ_t) = Ψ q̈ + (∂(Ψ q̇ + Ψ_t)/∂q) q̇ + ∂/∂t.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

import numpy as np
import sympy as sp

from companion.mechanics.lagrange import kinematics_of
from companion.mechanics.methods import Definition, Derivable, applicable
from companion.numerics.compile import CompiledEOM, lambdify_scalar
from companion.numerics.errors import wrong_state_size


@cache
def _u_rate(system: Definition):
    """u̇ of the independent speeds as a function of (t, q, q̇, q̈, p)."""
    psi, psi_t = system.psi
    k = len(system.u_independent)
    t = system.t if system.t is not None else sp.Dummy("t")
    qd = sp.Matrix(system.qdot)
    qdd = sp.symbols(f"qdd_0:{len(system.q)}")
    u_expr = (psi * qd + psi_t)[:k, :]
    rate = u_expr.jacobian(system.qdot) * sp.Matrix(qdd)
    rate += u_expr.jacobian(system.q) * qd + u_expr.diff(t)
    args = [t, *system.q, *system.qdot, *qdd, *system.parameter_symbols]
    return lambdify_scalar(args, list(rate))


@cache
def _qdot(system: Definition):
    """q̇ = Φ u + Φ_t (4.134) as a function of (t, q, u, p)."""
    phi, phi_t = kinematics_of(system)
    k = len(system.u_independent)
    t = system.t if system.t is not None else sp.Dummy("t")
    qdot = phi[:, :k] * sp.Matrix(system.u_independent) + phi_t
    return lambdify_scalar([t, *system.q, *system.u_independent, *system.parameter_symbols],
                           list(qdot))


def udot_function(system: Derivable, method: str, p: Sequence[float]):
    """``(t, q, u) ↦ u̇`` of the independent speeds by ``method`` for parameter values ``p``."""
    p = list(p)
    derivation = system.derive(method)
    eom: CompiledEOM = system.compiled(method)
    if derivation.speeds == "u":
        if not derivation.q:  # Arnold's form on SO(3): the ω-equations use no coordinates
            return lambda t, q, u: eom.udot(t, [], u, p)
        return lambda t, q, u: eom.udot(t, q, u, p)
    # Lagrange form: speeds (q̇, μ), accelerations (q̈, λ); μ never enters the equations.
    n = len(system.q)
    mu = [0.0] * (len(derivation.u) - n)
    # cached per (frozen) definition: a system of the same definition shares them
    qdot_of, rate = _qdot(system.definition), _u_rate(system.definition)

    def f(t: float, q, u) -> np.ndarray:
        qdot = qdot_of(t, *q, *u, *p)
        qddot = eom.udot(t, q, [*qdot, *mu], p)[:n]
        return np.array(rate(t, *q, *qdot, *qddot, *p), dtype=float)

    return f


def rhs_in_independent_speeds(system: Derivable, method: str, p: Sequence[float]):
    """The first-order right-hand side x = (q, u) ↦ ẋ using ``method``'s accelerations."""
    p = list(p)
    n = len(system.q)
    qdot_of, udot = _qdot(system.definition), udot_function(system, method, p)

    size = n + len(system.u_independent)

    def f(t: float, x: np.ndarray) -> np.ndarray:
        q, u = x[:n], x[n:]
        try:
            return np.concatenate([qdot_of(t, *q, *u, *p), udot(t, q, u)])
        except TypeError as exc:
            if len(x) == size:
                raise
            raise wrong_state_size(len(x), size) from exc

    return f


def independent_accelerations(
    system: Derivable, method: str, t: float, q: Sequence[float], u: Sequence[float],
    params: Mapping[str, float] | None = None,
) -> np.ndarray:
    """u̇ of the system's independent quasi-velocities by ``method`` at state (t, q, u).

    Raises
    ------
    NotImplementedError
        When ``method`` does not apply to ``system``.
    """
    return udot_function(system, method, system.parameter_vector(params))(t, q, u)


def applicable_methods(system: Derivable) -> list[str]:
    """The methods that apply to ``system`` (derives each once)."""
    return applicable(system, system.methods)


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
    methods = [m for m in applicable_methods(system) if m != "boltzmann_hamel"]
    worst = dict.fromkeys(methods, 0.0)
    for t, q, u, p in random_states(system, n_states, seed):
        ref = independent_accelerations(system, "boltzmann_hamel", t, q, u, p)
        scale = max(1.0, float(np.max(np.abs(ref))))
        for m in methods:
            other = independent_accelerations(system, m, t, q, u, p)
            diff = np.max(np.abs(other - ref)) / scale
            worst[m] = max(worst[m], float(diff))
    return worst
