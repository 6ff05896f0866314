"""The Loparo §7.2–7.6 examples: sphere particle, rigid body on SO(3), thrown body."""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest

from companion import examples
from companion.numerics import SingularConfigurationError

matplotlib.use("Agg")


@pytest.fixture(scope="module")
def sphere():
    return examples.get("sphere_particle")


@pytest.fixture(scope="module")
def body():
    return examples.get("rigid_body_so3")


@pytest.fixture(scope="module")
def thrown():
    return examples.get("thrown_body")


def test_registered():
    for name in ("sphere_particle", "rigid_body_so3", "thrown_body"):
        assert name in examples.names()


def test_sphere_geometric_equals_boltzmann_hamel(sphere):
    a, b = sphere.derive("geometric"), sphere.derive("boltzmann_hamel")
    x = [1.1, 0.4, -0.3, 2.0]
    p = [1.5, 0.8, 9.81]
    np.testing.assert_allclose(sphere.rhs(p, "geometric")(0, np.array(x)),
                               sphere.rhs(p, "boltzmann_hamel")(0, np.array(x)), rtol=1e-12)
    assert a.result("christoffel") and b.mass_matrix.shape == (2, 2)


def test_sphere_physics(sphere):
    tr = sphere.simulate()
    assert tr.drift("energy") < 1e-8 and tr.drift("L_z") < 1e-8
    assert tr.max_residual("JᵀR") < 1e-10
    pos = np.array([tr[f"p_{c}"] for c in "xyz"])
    R = np.array([tr[f"reaction_{i}"] for i in range(3)])
    cross = np.linalg.norm(np.cross(R, pos, axis=0), axis=0)
    assert np.max(cross) < 1e-10 * np.max(np.linalg.norm(R, axis=0))  # R is normal
    np.testing.assert_allclose(np.linalg.norm(pos, axis=0), tr.params["R"], rtol=1e-12)


def test_sphere_geodesics_are_great_circles(sphere):
    tr = sphere.simulate(params={"g": 0.0}, initial={r"\dot{\theta}": 0.8})
    assert np.max(np.abs(tr["off great-circle plane"])) < 1e-7
    with_gravity = sphere.simulate(initial={r"\dot{\theta}": 0.8})
    assert np.max(np.abs(with_gravity["off great-circle plane"])) > 0.1


def test_sphere_pole_is_detected_and_crossed_with_a_second_chart(sphere):
    with pytest.raises(SingularConfigurationError, match="chart is singular"):
        sphere.simulate(initial={"theta": 0.0})
    assert not sphere.simulate().events
    for phid in (0.0, 1e-3):  # through (or next to) the bottom pole: φ̇ would blow up there
        tr = sphere.simulate(initial={r"\dot{\phi}": phid})
        assert any("changed chart" in e for e in tr.events)
        assert tr.drift("energy") < 1e-8 and tr.max_residual("JᵀR") < 1e-10
        pos = np.array([tr[f"p_{c}"] for c in "xyz"])
        assert np.min(pos[2]) < -0.9999 * tr.params["R"]  # it does reach the bottom
        np.testing.assert_allclose(np.linalg.norm(pos, axis=0), tr.params["R"], rtol=1e-12)
    near = sphere.simulate(initial={"theta": 0.05, r"\dot{\theta}": 1.0})  # starts in chart 2
    assert near.drift("energy") < 1e-8


def test_sphere_bad_parameters(sphere):
    with pytest.raises(ValueError, match="must be > 0"):
        sphere.simulate(params={"R": -1})
    with pytest.raises(ValueError, match="unknown"):
        sphere.simulate(params={"radius": 1})


def test_rigid_body_on_so3(body):
    tr = body.simulate()
    assert tr.max_residual("‖RᵀR − I‖") <= 1e-12
    for name in ("energy", "|Aω|", "M_s = R A ω"):
        assert tr.drift(name) < 1e-9
    w = tr["omega_y"]
    assert w[0] > 1.9 and np.min(w) < -1.9  # the intermediate-axis flip


def test_rigid_body_agrees_with_quaternion_simulation(body):
    from companion.numerics.rotations import rotate

    tr = body.simulate(n_points=201)
    ref = examples.get("euler_body").simulate(n_points=201, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(tr.states, ref.states[:3], atol=1e-8)
    ex = rotate(ref.states[3:], np.tile([[1.0], [0.0], [0.0]], (1, 201)))
    np.testing.assert_allclose(tr["e_x"], ex, atol=1e-8)


def test_major_axis_spin_is_stable_and_greenwood_method_runs(body):
    tr = body.simulate(initial={"omega_x": 0.05, "omega_y": 0.05, "omega_z": 2.0},
                       t_final=10.0)
    assert np.min(tr["omega_z"]) > 1.9
    bh = body.simulate(t_final=5.0, method="boltzmann_hamel")
    np.testing.assert_allclose(bh.states, body.simulate(t_final=5.0).states, atol=1e-8)


def test_thrown_body(thrown):
    tr = thrown.simulate()
    t = tr.t
    v0, g = np.array([2.0, 0.0, 8.0]), tr.params["g"]
    np.testing.assert_allclose(tr["x"], v0[0] * t, atol=1e-9)
    np.testing.assert_allclose(tr["z"], v0[2] * t - g * t**2 / 2, atol=1e-9)
    assert tr.drift("total energy") < 1e-9 and tr.max_residual("‖RᵀR − I‖") <= 1e-12
    assert np.min(tr["omega_y"]) < 0 < tr["omega_y"][0]  # flips while in the air
    d = thrown.derive()
    assert d.mass_matrix.shape == (6, 6) and len(d.q) == 3


def test_thrown_body_by_every_applicable_method(thrown):
    """The mass centre's m p̈ = F does not depend on the method chosen for the rotation."""
    reference = thrown.simulate(t_final=1.0)
    for method in thrown.applicable_methods():
        other = thrown.simulate(t_final=1.0, method=method)
        np.testing.assert_allclose(other.states, reference.states, atol=1e-7, err_msg=method)


def test_methods_refuse_other_systems():
    with pytest.raises(NotImplementedError):
        examples.get("knife_edge").derive("geometric")
    with pytest.raises(NotImplementedError):
        examples.get("knife_edge").derive("arnold")


def test_sphere_reaction_simplifies_to_the_normal_law():
    """Issue 14 item 3: the derived reaction is normal, R = [m g cos θ − m R (θ̇² + sin²θ φ̇²)] n̂."""
    import sympy as sp

    from companion import examples
    from companion.examples.sphere_particle.system import normal_reaction

    sphere = examples.get("sphere_particle")
    normal, tangential = normal_reaction(sphere)
    m, R, g = sphere.parameter_symbols
    theta, _phi = sphere.q
    thetad, phid = sphere.qdot
    expected = m * g * sp.cos(theta) - m * R * (thetad**2 + sp.sin(theta)**2 * phid**2)
    assert sp.expand(normal - expected) == 0
    assert tangential == sp.zeros(3, 1)
    assert sp.count_ops(normal) <= sp.count_ops(expected) + 2  # shown simplified


def test_sphere_motion_far_from_the_poles_is_the_atlas_motion(sphere, monkeypatch):
    """A motion that stays at μ ≥ switch is integrated in the first chart alone, and
    is the motion the atlas (DOP853, chart changes at μ = switch) integrates."""
    from companion.geometry.constrained import ChartIntegrator

    first_chart, used = ChartIntegrator._first_chart, []
    monkeypatch.setattr(ChartIntegrator, "_first_chart",
                        lambda *args: used.append(first_chart(*args)) or used[-1])
    fast = sphere.simulate()
    assert used and used[-1] is not None, "the first chart's path was not taken"
    assert not fast.events
    assert np.min(fast["immersion μ"]) >= 0.3  # ChartIntegrator's switch
    assert fast.drift("energy") < 1e-8 and fast.max_residual("JᵀR") < 1e-10
    monkeypatch.setattr(ChartIntegrator, "_first_chart", lambda *args: None)
    atlas = sphere.simulate()
    np.testing.assert_allclose(fast.states, atlas.states, atol=1e-6)


def test_the_sphere_chart_compiled_to_c_is_the_python_chart(sphere, tmp_path, monkeypatch):
    from companion.numerics import c_rhs

    if c_rhs.compiler() is None:
        pytest.skip("no C compiler")
    monkeypatch.setattr(c_rhs, "CACHE", tmp_path)
    monkeypatch.delattr(sphere, "_c_library", raising=False)  # compiled here, afresh
    values = sphere.parameter_values()
    p = [values[s.name] for s in sphere.parameter_symbols]
    compiled, python = sphere.chart_rhs(p), sphere.geometric_rhs(p)
    rng = np.random.default_rng(7)
    for x in rng.uniform([0.3, -3, -2, -2], [2.8, 3, 2, 2], (20, 4)):
        np.testing.assert_allclose(compiled(0.0, x), python(0.0, x), rtol=1e-13, atol=1e-13)
    with pytest.raises(SingularConfigurationError, match="stops being an immersion"):
        compiled(0.0, np.array([1e-6, 0.0, 1.0, 0.0]))  # at the pole
    fast = sphere.simulate()  # the first chart, compiled
    monkeypatch.setattr(c_rhs, "compiler", lambda: None)
    lsoda = sphere.simulate()
    assert not np.array_equal(fast.states, lsoda.states)  # two integrators
    np.testing.assert_allclose(fast.states, lsoda.states, atol=1e-6)
    assert fast.drift("energy") < 1e-8
