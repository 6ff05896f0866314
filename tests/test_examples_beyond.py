"""The three systems beyond the books: what each exercises, and physics checks.

Their agreement with an independent KanesMethod derivation is in test_boltzmann_hamel.py.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from companion import examples

NEW = ["moving_carriage", "rolling_disk", "heavy_top"]


def test_registered():
    assert set(NEW) <= set(examples.names())


def test_moving_carriage_is_rheonomic():
    system = examples.get("moving_carriage")
    psi, psi_t = system.psi
    assert system.t in psi.free_symbols and psi_t != sp.zeros(2, 1)
    d = system.derive()
    assert d.rheonomic and any(g != sp.zeros(2, 1) for g in d.gamma_t)
    assert system.t in d.forcing.free_symbols


def test_rolling_disk_has_two_constraints_and_a_force():
    system = examples.get("rolling_disk")
    d = system.derive()
    assert system.n_constraints == 2 and d.mass_matrix.shape == (2, 2)
    assert any(e != 0 for e in system.Q)
    # The rolling constraints hold by construction: the kinematics make both slips vanish.
    qd = dict(zip(system.qdot, d.kinematics, strict=True))
    slips = [sp.simplify(defn.subs(qd)) for defn in system.definitions[2:]]
    assert slips == [0, 0]


def test_rolling_disk_closed_form():
    """Heading rate constant; spin accelerates as φ̈ = 2 g sinα cosθ / (3R) (Newton–Euler)."""
    system = examples.get("rolling_disk")
    d = system.derive()
    theta = system.q[2]
    m, R, g, alpha = system.parameter_symbols
    expected = sp.Matrix([0, 2 * g * sp.sin(alpha) * sp.cos(theta) / (3 * R)])
    assert sp.simplify(d.accelerations() - expected) == sp.zeros(2, 1)


def test_heavy_top_has_gravity_and_damping_moments():
    system = examples.get("heavy_top")
    assert all(e != 0 for e in system.Q)
    c = next(s for s in system.parameter_symbols if s.name == "c")
    assert all(c in e.free_symbols for e in system.Q)


@pytest.mark.parametrize("name", NEW)
def test_energy_conserved_by_the_default_simulation(name):
    traj = examples.get(name).simulate()
    assert traj.drift("energy") < 1e-8


def test_damping_dissipates_energy():
    traj = examples.get("heavy_top").simulate(2.0, params={"c": 0.3})
    energy = traj.invariants["energy"]
    assert energy[-1] < energy[0] and np.all(np.diff(energy) < 1e-9)
