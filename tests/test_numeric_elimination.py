"""Numeric elimination (issue 15, item 1) beyond the bicycle: a rheonomic system.

The moving carriage's quasi-velocities depend on time (Ψ(q, t), Ψ_t ≠ 0) while its particle
moves in the inertial frame, or from a base driven in time (v = J q̇ + v_t); formed with the
solves left to the numbers, its equations must give the accelerations of the symbolic
Boltzmann–Hamel equations from T typed in q̇ and t.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
import sympy.physics.mechanics as me

from companion.examples.moving_carriage.system import build
from companion.mechanics.model import MechanicsModel
from companion.numerics.c_rhs import compiler
from companion.system import System


def _carriage(moving_base: bool, numeric: bool, with_time: bool = True) -> System:
    """The carriage's quasi-velocities, springs and particle; with ``moving_base`` r and θ
    locate the particle from a base B(t) = A sin(νt) x̂ that is driven in time, so the
    particle's velocity has a part v_t free of q̇.  ``numeric``: T from a mechanics model
    by numeric elimination; otherwise T(q, q̇, t) typed, by the symbolic equations."""
    carriage = build()
    s = {p.name: p for p in carriage.parameter_symbols}
    m, A, nu = s["m"], s["A"], s["nu"]
    r, theta = carriage.q
    rd, thetad = carriage.qdot
    t = carriage.t
    base_rate = sp.diff(A * sp.sin(nu * t), t) if moving_base else 0
    T = m / 2 * ((base_rate + rd * sp.cos(theta) - r * sp.sin(theta) * thetad) ** 2
                 + (rd * sp.sin(theta) + r * sp.cos(theta) * thetad) ** 2)

    def model() -> MechanicsModel:
        rf, thf = me.dynamicsymbols("r theta")
        N = me.ReferenceFrame("N")
        O = me.Point("O")
        O.set_vel(N, 0)
        base = O.locatenew("B", A * sp.sin(nu * me.dynamicsymbols._t) * N.x) if moving_base \
            else O
        P = base.locatenew("P", rf * sp.cos(thf) * N.x + rf * sp.sin(thf) * N.y)
        return MechanicsModel(frame=N, q=[rf, thf], bodies=[me.Particle("p", P, m)], loads=[])

    kinetic = {"mechanics_model": model, "elimination": "numeric"} if numeric \
        else {"T_qdot": T}
    return System(name="carriage_twin", title="carriage twin",
                  q=carriage.q, qdot=carriage.qdot, u=carriage.u,
                  definitions=carriage.definitions if with_time else carriage.qdot,
                  Q_q=carriage.Q_q,
                  t=t if with_time else None, parameters=carriage.parameters,
                  initial=carriage.initial, **kinetic)


@pytest.mark.parametrize("moving_base", [False, True], ids=["fixed base", "base driven in time"])
def test_rheonomic_systems_by_numeric_elimination_match_the_symbolic_equations(moving_base):
    """Ψ(q, t) and Ψ_t ≠ 0 always; with the driven base also bodies with v = J q̇ + v_t."""
    symbolic = _carriage(moving_base, numeric=False)
    numeric = _carriage(moving_base, numeric=True)
    pv = symbolic.parameter_values({"Omega": 1.3, "A": 0.4, "nu": 2.5})
    p_sym = [pv[s.name] for s in symbolic.parameter_symbols]
    p_num = [pv[s.name] for s in numeric.parameter_symbols]
    expected, formed = symbolic.compiled().rhs(p_sym), numeric.compiled()
    rhs = [formed.rhs(p_num)] + ([formed.c_rhs(p_num)] if compiler() is not None else [])
    rng = np.random.default_rng(7)
    for _ in range(6):
        t, x = rng.uniform(0.0, 5.0), rng.uniform(0.3, 1.5, 4)
        want = np.asarray(expected(t, x), float)
        for f in rhs:
            got = np.asarray(f(t, x), float)
            assert np.max(np.abs(got - want)) <= 1e-12 * max(1.0, np.max(np.abs(want)))
    if moving_base:  # the driven base changes the motion: the test is not of a zero term
        fixed = _carriage(False, numeric=False).compiled().rhs(p_sym)
        assert np.max(np.abs(np.asarray(fixed(1.0, x)) - np.asarray(expected(1.0, x)))) > 1e-3


def test_a_body_driven_in_time_needs_a_time_symbol():
    """Speeds u = q̇ and no time symbol, but a base driven in time: refused in words."""
    with pytest.raises(ValueError, match="declares no time symbol"):
        _carriage(True, numeric=True, with_time=False).derive()
