"""All four methods on a rheonomic nonholonomic system (test-only): the knife-edge dumbbell
whose blade is forced to slip sideways at a prescribed rate s(t) = a sin(ω t), with a
forward drive force F on particle 1.  Exercises Ψ_t, Φ_t, explicit time and applied loads."""

from functools import partial

import pytest
import sympy as sp

from companion.examples.knife_edge import system as knife_edge
from companion.mechanics.agreement import max_disagreement
from companion.system import Parameter, System


def _system() -> System:
    t = sp.Symbol("t")
    x, y, phi = sp.symbols("x y phi")
    xd, yd, phid = sp.symbols(r"\dot{x} \dot{y} \dot{\phi}")
    u1, u2, u3 = sp.symbols("u_1 u_2 u_3")
    m, l, a, w, F = sp.symbols("m l a w F", positive=True)
    slip = a * sp.sin(w * t)
    definitions = [xd * sp.cos(phi) + yd * sp.sin(phi), phid,
                   -xd * sp.sin(phi) + yd * sp.cos(phi) - slip]
    # T from the particles' velocities, written in u: particle 1 moves with (u1, u3 + s),
    # particle 2 with (u1, u3 + s + l u2) in the rod frame.
    T = m / 2 * (u1**2 + (u3 + slip) ** 2) + m / 2 * (u1**2 + (u3 + slip + l * u2) ** 2)
    params = [Parameter(m, 1.0, 0.5, 2.0, positive=True), Parameter(l, 1.0, 0.5, 2.0,
                                                                    positive=True),
              Parameter(a, 0.3, 0.1, 1.0, positive=True), Parameter(w, 2.0, 0.5, 3.0,
                                                                    positive=True),
              Parameter(F, 0.5, 0.1, 2.0, positive=True)]
    return System(
        name="slipping_knife", title="slipping knife edge",
        q=[x, y, phi], qdot=[xd, yd, phid], u=[u1, u2, u3], definitions=definitions, T=T,
        n_constraints=1, Q=[F, 0], t=t, parameters=params,
        initial=[Parameter(x, 0, -1, 1), Parameter(y, 0, -1, 1), Parameter(phi, 0, -3, 3),
                 Parameter(u1, 0.5, -2, 2), Parameter(u2, 1.0, -2, 2)],
        mechanics_model=partial(knife_edge.mechanics_model, m, l, drive=F),
    )


@pytest.fixture(scope="module")
def system():
    return _system()


def test_rheonomic_system_is_rheonomic(system):
    assert system.derive("boltzmann_hamel").rheonomic


def test_every_method_agrees_on_a_rheonomic_forced_system(system):
    worst = max_disagreement(system, n_states=15, seed=5)
    assert set(worst) == {"lagrange_multipliers", "maggi", "kane"}
    for method, diff in worst.items():
        assert diff < 1e-12, (method, diff)
