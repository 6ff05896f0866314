"""The rolling disk–link as a robot: M(q) q̈ + C(q, q̇) q̇ + g(q) = B τ, and its link-angle
loop linearized about the held disk (ours; the handbook's Example 3 is a reconstruction).

In q = (θ, s) the rolling model of :mod:`.contact` (Newton's law (7.2) for the pulled-back
metric) is written in a robotics handbook's form by
:func:`companion.geometry.metric.robotics_form`: C from the first-kind Christoffel symbols,
so that Ṁ − 2C is skew, and g the gradient of gravity's potential.  What is left on the
right is B τ with B = (1, 0)ᵀ: one motor for two coordinates.  The disk rolling on a link
tilted by a motor is the *ball and beam* of control textbooks, with a rolling disk for the
ball: underactuated, the disk moved only through the link's tilt.

Held disk: θ = 0, s = s_ref at rest.  The link torque of :mod:`.controller` holds it there
with its gravity compensation (c_g = 1, τ₀ = 0); without feedback only the constant torque
τ₀ = (M L/2 + m s_ref) g holds it, and the linear equations δẋ = A δx show how each choice
reacts to a disturbance.  A is derived symbolically from the robotics form
(:func:`linearize`) and, independently, differentiated numerically from the accelerations
the simulation integrates (:func:`linearize_simulated`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

import numpy as np
import sympy as sp

from companion.examples.disk_link import contact as ct
from companion.examples.disk_link.controller import HOLDING_GAINS, link_torque
from companion.examples.disk_link.model import DiskLink
from companion.examples.disk_link.parameters import BY_NAME
from companion.geometry.metric import robotics_form
from companion.linearize import jacobian
from companion.system import Linearization

#: The linear equations' state, in the order of A's rows.
STATES = ("theta", "s", "theta_dot", "s_dot")


@cache
def rolling_robotics_form() -> dict[str, sp.Matrix]:
    """M, C, g, τ, Ṁ − 2C and its skew test for the rolling model in q = (θ, s) (see
    :func:`companion.geometry.metric.robotics_form`)."""
    model = ct.mode_model("rolling")
    d = model.derivation
    rolling = ct.CHARTS["rolling"][1]
    return robotics_form(d.mass_matrix, d.forcing, ct.potential().subs(rolling), model.q,
                         model.qdot)


def settings(pv: Mapping[str, float], feedback: bool) -> dict[str, float]:
    """The controller's values that hold the disk at s_ref on a level link: the feedback of
    :data:`~.controller.HOLDING_GAINS` (gravity compensated, c_g = 1, τ₀ = 0), or no
    feedback (every gain and c_g zero) and the constant torque τ₀ = (M L/2 + m s_ref) g."""
    if feedback:
        return {**HOLDING_GAINS, "tau_0": 0.0}
    held = (pv["M"] * pv["L"] / 2 + pv["m"] * pv["s_ref"]) * pv["g"]
    return {**dict.fromkeys(HOLDING_GAINS, 0.0), "tau_0": held}


@cache
def _closed_loop() -> tuple[sp.Matrix, list[sp.Symbol]]:
    """ẋ = f(x) of the rolling model with the link torque of :mod:`.controller`, symbolic:
    x = (θ, s, θ̇, ṡ), q̈ = M⁻¹(B τ(x) − C q̇ − g)."""
    rf = rolling_robotics_form()
    q, qdot = [ct.theta, ct.s], [ct.theta_d, ct.s_d]
    law = link_torque([ct.theta, ct.s, 0, 0, ct.theta_d, ct.s_d], BY_NAME, cos=sp.cos)
    force = rf["tau"].subs(ct.tau, law) - rf["C"] * sp.Matrix(qdot) - rf["g"]
    f = sp.Matrix([*qdot, *rf["M"].LUsolve(force)])
    return f, [*q, *qdot]


def _nominal(pv: Mapping[str, float]) -> dict[str, float]:
    return dict(zip(STATES, (0.0, pv["s_ref"], 0.0, 0.0), strict=True))


def _at_held_disk(pv: Mapping[str, float], feedback: bool):
    """The symbolic closed loop f(x), its state x, the values with the controller's
    :func:`settings` and the substitution that puts both at the held disk."""
    f, x = _closed_loop()
    values = {**pv, **settings(pv, feedback)}
    subs = {s: values[s.name] for s in f.free_symbols if s not in x}
    subs.update(zip(x, _nominal(values).values(), strict=True))
    return f, x, values, subs


def equilibrium_residual(pv: Mapping[str, float], feedback: bool = True) -> float:
    """Largest |ẋ| of the symbolic closed loop at the held disk: zero when it is an
    equilibrium (values by name, s_ref where the disk is held)."""
    f, _, _, subs = _at_held_disk(pv, feedback)
    return float(max(abs(sp.N(e.subs(subs))) for e in f))


def linearize(pv: Mapping[str, float], feedback: bool = True) -> Linearization:
    """δẋ = A δx + B δτ about the held disk from the symbolic closed loop (values by name,
    s_ref where the disk is held), with or without feedback (:func:`settings`).

    At rest q̇ = 0, so C q̇ (quadratic in q̇) leaves no linear term, and at the equilibrium
    B τ − g = 0, so M⁻¹'s variation drops out too:
    A = [[0, I], [M⁻¹(B ∂τ/∂q − ∂g/∂q), M⁻¹ B ∂τ/∂q̇]] and B = [0; M⁻¹ (1, 0)ᵀ], M at the
    held disk.
    """
    f, x, values, subs = _at_held_disk(pv, feedback)
    A = np.array(f.jacobian(x).subs(subs).evalf(), dtype=float)
    mass = np.array(rolling_robotics_form()["M"].subs(subs).evalf(), dtype=float)
    B = np.vstack([np.zeros((2, 1)), np.linalg.solve(mass, [[1.0], [0.0]])])
    return Linearization(A=A, B=B, states=list(STATES), nominal=_nominal(values),
                         params=values)


def linearize_simulated(system: DiskLink, pv: Mapping[str, Any] | None = None,
                        feedback: bool = True) -> Linearization:
    """A by central differences (:func:`companion.linearize.jacobian`) of the
    accelerations the simulation integrates (``system.at_state``, the link torque of
    :mod:`.controller` included): independent of :func:`linearize`'s algebra (B is None)."""
    base = system.parameter_values(pv)
    values = {**base, **settings(base, feedback)}

    def rates(z: np.ndarray) -> np.ndarray:
        out = system.at_state(dict(zip(STATES, z.tolist(), strict=True)), values)
        return np.array([z[2], z[3], out["theta_ddot"], out["s_ddot"]])

    nominal = _nominal(values)
    A = jacobian(rates, np.array(list(nominal.values())))
    return Linearization(A=A, B=None, states=list(STATES), nominal=nominal, params=values)
