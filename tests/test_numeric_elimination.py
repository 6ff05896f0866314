"""Numeric elimination (issue 15, item 1) beyond the bicycle: a rheonomic system.

The moving carriage's quasi-velocities depend on time (Ψ(q, t), Ψ_t ≠ 0) while its particle
moves in the inertial frame; formed with the solves left to the numbers, its equations must
give the accelerations of the symbolic Boltzmann–Hamel equations.  A body that moves on its
own in time (v = J q̇ + v_t) is outside this form and must be refused in words.
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


def _numeric_twin(symbolic: System, moving_spring_base: bool = False) -> System:
    """The carriage defined again with a mechanics model and elimination='numeric'."""
    m = next(s for s in symbolic.parameter_symbols if s.name == "m")
    A = next(s for s in symbolic.parameter_symbols if s.name == "A")

    def model() -> MechanicsModel:
        r, theta = me.dynamicsymbols("r theta")
        N = me.ReferenceFrame("N")
        O = me.Point("O")
        O.set_vel(N, 0)
        # with moving_spring_base, r and θ locate the particle from a point that moves in time
        base = O.locatenew("B", A * sp.sin(me.dynamicsymbols._t) * N.x) if moving_spring_base \
            else O
        P = base.locatenew("P", r * sp.cos(theta) * N.x + r * sp.sin(theta) * N.y)
        return MechanicsModel(frame=N, q=[r, theta], bodies=[me.Particle("p", P, m)],
                              loads=[])

    return System(name="carriage_numeric", title="carriage, numeric elimination",
                  source="test", q=symbolic.q, qdot=symbolic.qdot, u=symbolic.u,
                  definitions=symbolic.definitions, Q_q=symbolic.Q_q, t=symbolic.t,
                  parameters=symbolic.parameters, initial=symbolic.initial,
                  mechanics_model=model, elimination="numeric")


def test_rheonomic_quasi_velocities_by_numeric_elimination_match_the_symbolic_equations():
    symbolic = build()
    numeric = _numeric_twin(symbolic)
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


def test_a_body_moving_on_its_own_is_refused_in_words():
    with pytest.raises(ValueError, match="not linear and homogeneous in q̇"):
        _numeric_twin(build(), moving_spring_base=True).derive()
