"""The Boltzmann–Hamel equations (4.85) with the inverse of Ψ left to the numbers.

For a large system (the Whipple bicycle: eight coordinates, four rolling constraints and one
configuration constraint) the symbolic Φ = Ψ⁻¹ (4.81) and the γ^j = Φᵀ C^j Φ (4.96) are huge.
Equation (4.85) is Lagrange's expression projected on the quasi-coordinates,

    d/dt(∂T/∂u_r) − ∂T/∂θ_r + Σ_j p_j (γ^j_rl u_l + γ^j_r) = Σ_i Φ_ir [d/dt(∂T/∂q̇_i) − ∂T/∂q_i],

so with q̇ = Φ u + Φ_t and q̈ = Φ (u̇ − Ψ̇ q̇ − Ψ̇_t) (the derivative of u = Ψ q̇ + Ψ_t) the n − m
equations of the independent u's read

    Φ_kᵀ M_q Φ_k u̇_k = Φ_kᵀ [Q_q − b(q, q̇) + M_q Φ (Ψ̇ q̇ + Ψ̇_t)],

where M_q = ∂²T/∂q̇² and b = d/dt(∂T/∂q̇)|_{q̈=0} − ∂T/∂q.  Only Ψ, Ψ_t, the rate terms
Ψ̇ q̇ + Ψ̇_t, M_q and b are formed symbolically; Φ, the projections and the solve for u̇ are
done in the compiled right-hand side (:class:`companion.numerics.elimination.EliminationEOM`).

The kinetic energy is taken in the form T = ½ Σ_b v_bᵀ W_b v_b, v_b = J_b(q, t) q̇ + v_bt(q, t)
the components of each body's mass-centre velocity and angular velocity (W_b its mass and
central inertia), read from the system's mechanics model; v_bt is nonzero only for a body
driven in time (rheonomic).  ∂T/∂q̇ and ∂T/∂q then follow by the chain rule through the
components v_b, never by differentiating the expanded T.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from companion.mechanics.derivation import Derivation, Step
from companion.mechanics.lagrange import total_derivative
from companion.mechanics.methods import Definition


@dataclass
class EliminationParts:
    """The symbolic pieces the compiled right-hand side evaluates (see the module docstring).

    ``k`` independent u's (the first k); Ψ (n×n), Ψ_t (n×1) and the ``rate`` Ψ̇ q̇ + Ψ̇_t at
    q̈ = 0; the stacked velocity ``components`` v = J(q, t) q̇ + v_t(q, t) (C×1) and their
    ``weights`` W (C×C, parameters only), T = ½ vᵀ W v; J = ∂v/∂q̇, its rate J̇ and ∂v/∂q
    (each C×n); the ``forces`` Q_q (n×1); and the ``drift_rate`` v̇_t (C×1), zero unless a
    body moves on its own in time.
    """

    q: list[sp.Symbol]
    qdot: list[sp.Symbol]
    k: int
    t: sp.Symbol | None
    psi: sp.Matrix
    psi_t: sp.Matrix
    rate: sp.Matrix
    components: sp.Matrix
    weights: sp.Matrix
    jacobian: sp.Matrix
    jacobian_rate: sp.Matrix
    gradient: sp.Matrix
    forces: sp.Matrix
    drift_rate: sp.Matrix


@dataclass
class NumericEliminationResult(Derivation):
    """A :class:`Derivation` whose M u̇ = f is assembled numerically (Φ never formed).

    ``mass_matrix``, ``forcing`` and ``kinematics`` are empty: the equations exist only in
    compiled form, through ``parts``.
    """

    parts: EliminationParts | None = None

    def accelerations(self) -> sp.Matrix:
        raise NotImplementedError(
            "this derivation leaves Φ = Ψ⁻¹ and the solve for u̇ to the numbers (numeric "
            "elimination): u̇ has no symbolic form; evaluate it with System.compiled(…).udot")

    def parameters(self) -> list[sp.Symbol]:
        parts = self.parts
        free = set().union(*(m.free_symbols for m in (parts.psi, parts.psi_t, parts.rate,
                                                      parts.components, parts.weights,
                                                      parts.forces)))
        return sorted(free - {*self.q, *parts.qdot, self.t}, key=lambda s: s.name)


def _velocity_components(system: Definition) -> tuple[sp.Matrix, sp.Matrix]:
    """(v, W): stacked velocity components of every body of the mechanics model, in plain
    symbols, and the block-diagonal weights (masses, central inertia matrices)."""
    import sympy.physics.mechanics as me  # slow to import: on first use

    model = system.mechanics_model()
    if len(model.q) != len(system.q):
        raise ValueError(f"the mechanics model has {len(model.q)} "
                         f"coordinates, the system {len(system.q)}")
    t = me.dynamicsymbols._t
    plain = {**{qi.diff(t): s for qi, s in zip(model.q, system.qdot, strict=True)},
             **dict(zip(model.q, system.q, strict=True))}
    if system.t is not None:
        plain[t] = system.t
    N = model.frame
    comps: list[sp.Expr] = []
    blocks: list[sp.Matrix] = []
    for body in model.bodies:
        frame = model.momentum_frames.get(body.name, getattr(body, "frame", N))
        comps.extend(body.masscenter.vel(N).to_matrix(frame))
        blocks.append(body.mass * sp.eye(3))
        if isinstance(body, me.RigidBody):
            inertia = body.central_inertia.to_matrix(frame)
            if inertia.free_symbols & set(model.q):
                raise ValueError(f"the inertia of {body.name} changes in the frame {frame}: "
                                 "name a frame it is constant in (momentum_frames)")
            comps.extend(body.frame.ang_vel_in(N).to_matrix(frame))
            blocks.append(inertia)
    return sp.Matrix(comps).xreplace(plain), sp.diag(*blocks)


def boltzmann_hamel_numeric(system: Definition, holonomic: list[sp.Expr] | None = None
                            ) -> NumericEliminationResult:
    """The Boltzmann–Hamel equations (4.85) of ``system`` with Ψ inverted numerically, T =
    ½ Σ vᵀ W v read from the bodies of its ``mechanics_model`` (``NotImplementedError``
    without one), ``holonomic`` shown as declared.  ``ValueError`` when the bodies' velocities
    are not linear in q̇, or move at q̇ = 0 in a system without time."""
    if system.mechanics_model is None:
        raise NotImplementedError(
            "this system has no mechanics model: numeric elimination reads T = ½ Σ vᵀ W v "
            "from the bodies of System(mechanics_model=…)")
    q, qdot = list(system.q), list(system.qdot)
    n, k = len(q), len(system.u_independent)
    psi, psi_t = system.psi
    t = system.t
    qd = sp.Matrix(qdot)
    # The definitions themselves are Ψ q̇ + Ψ_t: differentiate them, not the product.
    rate = total_derivative(sp.Matrix(system.definitions), q, qd, t)
    v, W = _velocity_components(system)
    J = v.jacobian(qdot)
    if J.free_symbols & set(qdot):
        raise ValueError("the bodies' velocities are not linear in q̇: numeric elimination "
                         "needs v = J(q, t) q̇ + v_t(q, t)")
    # v_t: what moves when every q̇ is zero (a body driven in time, say)
    at_rest = v.xreplace(dict.fromkeys(qdot, 0)).applyfunc(sp.expand)
    if t is None and at_rest != sp.zeros(*v.shape):
        raise ValueError("the bodies move when every q̇ is zero but the system declares no "
                         "time symbol: give System(t=…) for bodies driven in time")

    dJ = sp.Matrix.hstack(*(total_derivative(J[:, c], q, qd, t) for c in range(n)))
    drift_rate = total_derivative(at_rest, q, qd, t)
    forces = sp.Matrix(system.Q_qdot)  # Q_q in q̇ (a damper), with Ψᵀ [Q; 0]
    parts = EliminationParts(q=q, qdot=qdot, k=k, t=t, psi=psi, psi_t=psi_t, rate=rate,
                             components=v, weights=W, jacobian=J, jacobian_rate=dJ,
                             gradient=v.jacobian(q), forces=forces, drift_rate=drift_rate)
    steps = [
        Step("Quasi-velocities u = Ψ q̇ + Ψ_t: the matrix Ψ", psi, None,
             "The last rows are the constraints (the rates of the configuration "
             "constraints among them); Ψ is inverted numerically at each state.", r"\Psi",
             key="psi"),
        Step("Kinetic energy T = ½ Σ_b v_bᵀ W_b v_b", sp.Symbol("T"), "(4.85)",
             f"{v.rows} velocity components v = J q̇ + v_t of the bodies; ∂T/∂q̇ = Jᵀ W v and "
             "∂T/∂q = (∂v/∂q)ᵀ W v by the chain rule.", None, key="kinetic_energy"),
        Step("Boltzmann–Hamel equations projected numerically",
             r"\Phi_k^T M_q \Phi_k \dot u_k = \Phi_k^T\left[Q_q - b + M_q \Phi (\dot\Psi \dot q"
             r" + \dot\Psi_t)\right]", "(4.85)",
             f"{k} first-order dynamical equations in the independent u's; Φ = Ψ⁻¹ (4.81) "
             "and the solve for u̇ happen in the compiled right-hand side.", None,
             key="equations"),
    ]
    if holonomic:
        steps.insert(0, Step("Configuration constraints f(q, t) = 0", sp.Matrix(holonomic),
                             None, "Their rates ḟ = (∂f/∂q) q̇ + ∂f/∂t are constrained "
                             "quasi-velocities; the dependent coordinates stay in q.", "f",
                             key="holonomic"))
    empty = sp.zeros(0, 1)
    return NumericEliminationResult(
        method="boltzmann_hamel", q=q, u=list(system.u_independent), mass_matrix=sp.zeros(0, 0),
        forcing=empty, kinematics=empty, equations=[], steps=steps, t=t, parts=parts)

