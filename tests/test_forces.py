"""Forces a user adds to a book example: dampers that depend on velocity, written per
coordinate in q̇ or in the u's (``Q_q``), per free speed (``Q``) or as loads of Kane's
mechanics model, give one motion by every method; and the multipliers of Lagrange's equations
are the constraint forces themselves (a differential-drive robot checked by Newton–Euler)."""

import dataclasses
from functools import partial

import numpy as np
import pytest
import sympy as sp
import sympy.physics.mechanics as me

from companion import examples
from companion.examples.independent import KaneModel
from companion.mechanics.agreement import independent_accelerations, random_states
from companion.system import Evaluation, Parameter, System

METHODS = ["boltzmann_hamel", "lagrange_multipliers", "maggi", "kane"]
c = sp.Symbol("c", positive=True)
DAMPING = Parameter(c, 0.7, 0.0, 2.0, "N s/m", "damping")
t = me.dynamicsymbols._t


def _with_loads(build, extra):
    """A mechanics model builder with ``extra(model)`` appended to its loads."""
    model = build()
    return dataclasses.replace(model, loads=[*model.loads, *extra(model)])


def _variants(base: System, Q_qdot, Q_u, Q, loads) -> dict[str, System]:
    """The book's system plus one damper, given four ways (its own forces kept).  A mechanics
    model with loads of its own (the disk's gravity) must carry the damper too, or Kane's
    method refuses it (the forces would be given twice and differ)."""
    d = base.definition
    params = [*d.parameters, DAMPING]
    own = d.Q_q or [0] * len(d.q)
    add = [a + b for a, b in zip(own, Q_qdot, strict=True)]
    add_u = [a + b for a, b in zip(own, Q_u, strict=True)]
    loaded = partial(_with_loads, base.mechanics_model, loads)
    model = loaded if base.mechanics_model().loads else base.mechanics_model
    return {
        "Q_q in q̇": System(d.replace(Q_q=add, parameters=params), mechanics_model=model),
        "Q_q in u": System(d.replace(Q_q=add_u, parameters=params), mechanics_model=model),
        "Q": System(d.replace(Q=Q, parameters=params), mechanics_model=model),
        "loads and Q_q": System(d.replace(Q_q=add, parameters=params), mechanics_model=loaded),
    }


def _knife_edge() -> dict[str, System]:
    """Greenwood Ex. 4.4 plus a damper on each coordinate: −c ẋ, −c ẏ, −c φ̇."""
    base = examples.get("knife_edge")
    x, y, phi = base.q
    xd, yd, phid = base.qdot
    u1, u2, u3 = base.u
    # ẋ, ẏ, φ̇ in the u's: q̇ = Φ u (4.111), u3 the suppressed sideways speed
    in_u = [u1 * sp.cos(phi) - u3 * sp.sin(phi), u1 * sp.sin(phi) + u3 * sp.cos(phi), u2]

    def loads(model):
        xt, yt, pt = model.q
        p1 = model.bodies[0].point
        turning = model.frame.orientnew("turning", "Axis", (pt, model.frame.z))
        return [(p1, -c * (xt.diff(t) * model.frame.x + yt.diff(t) * model.frame.y)),
                (turning, -c * pt.diff(t) * model.frame.z)]

    return _variants(base, [-c * xd, -c * yd, -c * phid], [-c * e for e in in_u],
                     [-c * u1, -c * u2], loads)


def _rolling_disk() -> dict[str, System]:
    """The rolling disk on its incline plus −c q̇ on each of x, y, θ, φ."""
    base = examples.get("rolling_disk")
    x, y, theta, phi = base.q
    u1, u2, u3, u4 = base.u
    R = next(s for s in base.parameter_symbols if s.name == "R")
    in_u = [u3 + R * u2 * sp.cos(theta), u4 + R * u2 * sp.sin(theta), u1, u2]
    # Φ_kᵀ(−c q̇) by hand: u1 turns θ alone; u2 rolls x, y by R(cos θ, sin θ) and spins φ
    Q = [-c * u1, -c * (1 + R**2) * u2]

    def loads(model):
        xt, yt, th, ph = model.q
        N, disk = model.frame, model.bodies[0]
        heading = N.orientnew("heading", "Axis", (th, N.z))
        # the centre moves with the contact point; the spin axis is the disk's y
        return [(disk.masscenter, -c * (xt.diff(t) * N.x + yt.diff(t) * N.y)),
                (heading, -c * th.diff(t) * N.z), (disk.frame, -c * ph.diff(t) * disk.frame.y)]

    return _variants(base, [-c * s for s in base.qdot], [-c * e for e in in_u], Q, loads)


SYSTEMS = {"knife_edge": _knife_edge, "rolling_disk": _rolling_disk}


@pytest.fixture(scope="module", params=list(SYSTEMS))
def damped(request):
    return request.param, SYSTEMS[request.param]()


def test_a_damper_given_any_way_gives_the_same_accelerations_by_every_method(damped):
    name, variants = damped
    worst, damping_effect = 0.0, 0.0
    reference = variants["Q_q in q̇"]
    undamped = examples.get(name)
    for tt, q, u, p in random_states(reference, 6, seed=2):
        ref = independent_accelerations(reference, "boltzmann_hamel", tt, q, u, p)
        free = {k: v for k, v in p.items() if k != "c"}
        damping_effect = max(damping_effect, float(np.max(np.abs(
            ref - independent_accelerations(undamped, "boltzmann_hamel", tt, q, u, free)))))
        for system in variants.values():
            for method in METHODS:
                got = independent_accelerations(system, method, tt, q, u, p)
                worst = max(worst, float(np.max(np.abs(got - ref)) / max(1.0, np.max(
                    np.abs(ref)))))
    assert worst < 1e-13, worst
    assert damping_effect > 1e-2  # the damper acts: the comparison is not of zeros


def _independent(system: System, name: str) -> KaneModel:
    """sympy's KanesMethod on the example's own independent model plus the damper as loads."""
    model = examples.worked(name).independent(system)
    disk = model.bodies[0]
    N = model.kane._inertial
    q = list(model.kane.q)
    if name == "knife_edge":
        x, y, phi = q
        p1 = disk.point
        frame = N.orientnew("turning", "Axis", (phi, N.z))
        extra = [(p1, -c * (x.diff(t) * N.x + y.diff(t) * N.y)),
                 (frame, -c * phi.diff(t) * N.z)]
    else:
        x, y, th, ph = q
        heading = N.orientnew("heading", "Axis", (th, N.z))
        extra = [(disk.masscenter, -c * (x.diff(t) * N.x + y.diff(t) * N.y)),
                 (heading, -c * th.diff(t) * N.z), (disk.frame, -c * ph.diff(t) * disk.frame.y)]
    model.plain[c] = c
    return dataclasses.replace(model, loads=[*model.loads, *extra])


def test_the_damped_accelerations_equal_sympys_kanesmethod(damped):
    name, variants = damped
    system = variants["Q_q in u"]
    model = _independent(system, name)
    model.derive()
    udot = model.accelerations_function(system)
    worst = 0.0
    for tt, q, u, p in random_states(system, 6, seed=5):
        pv = system.parameter_vector(p)
        expected = udot(tt, q, u, pv)
        got = independent_accelerations(system, "kane", tt, q, u, p)
        worst = max(worst, float(np.max(np.abs(got - expected)) / max(1.0, np.max(
            np.abs(expected)))))
    assert worst < 1e-12, worst


def test_the_damped_motion_is_the_same_by_every_method():
    variants = _knife_edge()
    reference = variants["Q_q in q̇"].simulate(2.0, n_points=20, method="boltzmann_hamel")
    speed = np.linalg.norm(reference.states[3:5][:, [0, -1]], axis=0)
    assert speed[-1] < 0.6 * speed[0]  # the damper slows it down
    for label, system in variants.items():
        for method in METHODS:
            traj = system.simulate(2.0, n_points=20, method=method)
            np.testing.assert_allclose(traj.states, reference.states, rtol=0, atol=1e-7,
                                       err_msg=f"{label}, {method}")


def test_loads_that_differ_from_the_forces_are_refused():
    book = examples.get("knife_edge")
    base = book.definition
    x, y, phi = base.qdot

    def loads(model):
        xt, yt, _ = model.q
        return [(model.bodies[0].point, -2 * c * (xt.diff(t) * model.frame.x
                                                  + yt.diff(t) * model.frame.y))]

    system = System(base.replace(Q_q=[-c * x, -c * y, 0], parameters=[*base.parameters, DAMPING]),
                    mechanics_model=partial(_with_loads, book.mechanics_model, loads))
    with pytest.raises(ValueError, match="given twice and differ"):
        system.derive("kane")


def _robot(wheel_speeds: bool = False) -> System:
    """A differential-drive robot: chassis (mass m with the wheels, yaw inertia I about the
    axle's midpoint O, its mass centre), two wheels of radius r at ±b along the axle with spin
    inertia J, motor torques τ_L, τ_R on the wheel angles.  Constraints: no sideways slip of
    O, each wheel rolls.  Free speeds: O's forward speed and the turning rate, or
    (``wheel_speeds``) the wheels' rates, as a new user chose them."""
    q = sp.symbols("x y phi theta_L theta_R")
    xd, yd, phid, thLd, thRd = qd = sp.symbols("xdot ydot phidot thetadot_L thetadot_R")
    phi = q[2]
    u = sp.symbols("u_1:6")
    m, I, J, r, b = sp.symbols("m I J r b", positive=True)
    tau_L, tau_R = sp.symbols("tau_L tau_R")
    forward = xd * sp.cos(phi) + yd * sp.sin(phi)
    rolling = [forward - b * phid - r * thLd, forward + b * phid - r * thRd]
    free = [thLd, thRd] if wheel_speeds else [forward, phid]
    P = Parameter
    return System(
        name="robot", q=q, qdot=qd, u=u, n_constraints=3,
        definitions=[*free, -xd * sp.sin(phi) + yd * sp.cos(phi), *rolling],
        T_qdot=(m * (xd**2 + yd**2) + I * phid**2 + J * (thLd**2 + thRd**2)) / 2,
        Q_q=[0, 0, 0, tau_L, tau_R],
        parameters=[P(m, 4.0, 1.0, 10.0, positive=True), P(I, 0.2, 0.01, 1.0, positive=True),
                    P(J, 0.01, 0.001, 0.1, positive=True),
                    P(r, 0.05, 0.01, 0.2, positive=True), P(b, 0.15, 0.05, 0.5, positive=True),
                    P(tau_L, 0.1, -1.0, 1.0), P(tau_R, 0.3, -1.0, 1.0)],
        initial=[*(P(s, 0.0, -1.0, 1.0) for s in q), P(u[0], 0.5, -2.0, 2.0),
                 P(u[1], 0.8, -3.0, 3.0)])


def _newton_euler(p: dict, v: float, w: float) -> list[float]:
    """The robot's sideways force S at O and wheel traction forces F_L, F_R (forward, at the
    contacts) by Newton–Euler, at forward speed v and turning rate ω:
        wheels:  J θ̈ = τ − r F,  θ̈_{L,R} = (v̇ ∓ b ω̇)/r
        chassis: m v̇ = F_L + F_R,  m v ω = S,  I ω̇ = b (F_R − F_L)."""
    m, I, J, r, b, tau_L, tau_R = (p[k] for k in ("m", "I", "J", "r", "b", "tau_L", "tau_R"))
    vdot = (tau_L + tau_R) / r / (m + 2 * J / r**2)
    wdot = b * (tau_R - tau_L) / r / (I + 2 * J * b**2 / r**2)
    F_L = (tau_L - J * (vdot - b * wdot) / r) / r
    F_R = (tau_R - J * (vdot + b * wdot) / r) / r
    return [m * v * w, F_L, F_R]


def _defaults(system: System) -> dict[str, float]:
    return {s.name: v.default for s, v in zip(system.parameter_symbols, system.parameters,
                                              strict=True)}


def test_the_robots_multipliers_are_its_wheel_traction_and_sideways_forces():
    system = _robot()
    lam = system.derive("lagrange_multipliers").multiplier_values()  # in q, q̇
    p = _defaults(system)
    r, b = p["r"], p["b"]
    phi, v, w = 0.7, 0.5, 0.8  # heading, forward speed of O, turning rate
    rates = [v * np.cos(phi), v * np.sin(phi), w, (v - b * w) / r, (v + b * w) / r]
    state = {**dict(zip(system.q, [0.3, -0.2, phi, 1.0, 2.0], strict=True)),
             **dict(zip(system.qdot, rates, strict=True)),
             **{s: p[s.name] for s in system.parameter_symbols}}
    got = [float(e.xreplace(state)) for e in lam]
    expected = _newton_euler(p, v, w)
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    assert abs(expected[1] - p["tau_L"] / r) > 1.0  # not τ/r: the wheels' inertia counts


def test_the_robots_multipliers_step_shows_the_same_forces_in_its_speeds():
    system = _robot()
    step = system.derive("lagrange_multipliers").step("multipliers")  # n + m = 8, n − m = 2
    u1, u2 = system.u_independent
    m = system.parameter_symbols[0]
    assert sp.expand(step.expr[0] - m * u1 * u2) == 0  # the sideways force m v ω
    p = _defaults(system)
    at = {**{s: p[s.name] for s in system.parameter_symbols}, u1: 0.5, u2: 0.8,
          **dict.fromkeys(system.q, 0.4)}
    np.testing.assert_allclose([float(e.xreplace(at)) for e in step.expr],
                               _newton_euler(p, 0.5, 0.8), rtol=1e-12)


def test_the_robots_multipliers_step_in_its_wheel_rates_is_solved_in_closed_form():
    """With the wheels' rates as its free speeds the step used to cancel nested fractions for
    minutes: now each λ is one fraction over det M, equal to Newton–Euler's forces."""
    system = _robot(wheel_speeds=True)
    step = system.derive("lagrange_multipliers").step("multipliers")
    p = _defaults(system)
    r, b = p["r"], p["b"]
    left, right = 0.5 / r, 1.1 / r  # wheel rates: v = r(θ̇_L + θ̇_R)/2, ω = r(θ̇_R − θ̇_L)/2b
    u1, u2 = system.u_independent
    at = {**{s: p[s.name] for s in system.parameter_symbols}, u1: left, u2: right,
          **dict.fromkeys(system.q, 0.4)}
    np.testing.assert_allclose([float(e.xreplace(at)) for e in step.expr],
                               _newton_euler(p, r * (left + right) / 2,
                                             r * (right - left) / (2 * b)), rtol=1e-12)


def test_a_method_that_reads_its_own_forces_steps_aside_from_a_damper_saying_why():
    """The pull-back (§7.7) reads the forces of the planar mechanism, not Q: with a damper
    added to Q it no longer applies, and says why; the other methods agree."""
    from companion.mechanics.agreement import max_disagreement

    base = examples.get("double_pendulum")
    d = base.definition
    damped = base.variant(Q=[e - c * u for e, u in zip(d.Q, d.u_independent, strict=True)],
                          parameters=[*d.parameters, DAMPING])
    with pytest.raises(NotImplementedError, match="the pull-back reads the forces of "
                       "the system's mechanism .* differ: give those forces to the "
                       "mechanism too, or use another method"):
        damped.derive("pull_back")
    worst = max_disagreement(damped, n_states=4)
    assert set(worst) == {"lagrange_multipliers", "maggi"} and max(worst.values()) < 1e-12


def test_a_mechanics_model_with_other_masses_than_T_is_refused_by_kane():
    """The knife edge's model with particle 2 given 3 m (T has m): Kane's method would move
    another system than every other method (issue 36)."""
    book = examples.get("knife_edge")
    base = book.definition
    m, l = base.parameter_symbols

    def heavier():
        model = book.mechanics_model()
        p1, p2 = model.bodies
        return dataclasses.replace(model, bodies=[p1, me.Particle("p2", p2.point, 3 * m)])

    system = System(base, mechanics_model=heavier, name="knife_edge_heavier")
    with pytest.raises(ValueError, match=r"the inertia of the mechanics model differs from "
                       r"the System's kinetic energy T: the mass matrix entry m_22 \(the "
                       r"coefficient of du_2/dt in the equation of u_2\) is 3\*l\*\*2\*m "
                       r"from the model's bodies \(= 8.76745\) but 2.92248 from T"):
        system.simulate(1.0, method="kane")
    with pytest.raises(ValueError, match="make the bodies' masses and inertias those of T"):
        system.applicable_methods()  # refused, not set aside quietly
    assert "kane" in book.applicable_methods()


def test_constraint_forces_of_a_system_of_your_own_as_the_docs_say():
    """System's docstring and the README: none unless asked for, then λ along the motion from
    the system's own equations; the robot's sideways one is m v ω (Newton–Euler)."""
    from companion.model import CONSTRAINT_FORCES

    robot = _robot()
    assert robot.simulate(1.0, n_points=3).series == {}
    asked = System(robot.definition,
                   evaluation=Evaluation(observables={"lambda": CONSTRAINT_FORCES}))
    traj = asked.simulate(1.0, n_points=3)
    assert sorted(traj.series) == ["lambda_0", "lambda_1", "lambda_2"]
    p = _defaults(robot)
    S = [_newton_euler(p, v, w)[0] for v, w in zip(traj["u_1"], traj["u_2"], strict=True)]
    assert np.allclose(traj["lambda_0"], S, rtol=1e-9, atol=1e-12)



def test_a_book_example_whose_kane_model_has_loads_takes_a_damper_by_variant():
    """The rolling disk's mechanics model carries gravity as loads (4.137): a variant with a
    damper on the rolling rate φ̇ = u₂, in Q_q or in Q (which adds to the book's Q_q), keeps
    Kane's bodies and reads the new forces, so every method, Kane's included, moves the same
    damped disk (all used to be refused as forces "given twice")."""
    from companion.mechanics.agreement import max_disagreement

    book = examples.get("rolling_disk")
    d = book.definition
    parameters = [*d.parameters, DAMPING]
    in_q = book.variant(Q_q=[*d.Q_q[:-1], d.Q_q[-1] - c * d.qdot[-1]], parameters=parameters)
    in_u = book.variant(Q=[0] * (len(d.u_independent) - 1) + [-c * d.u_independent[-1]],
                        parameters=parameters)
    assert book.mechanics_model().loads
    ends = []
    for damped in (in_q, in_u):
        worst = max_disagreement(damped, n_states=4)
        assert "kane" in worst and max(worst.values()) < 1e-12
        ends.append(damped.simulate(2.0, method="kane").states[:, -1])
    np.testing.assert_allclose(ends[0], ends[1], atol=1e-9)
    assert not np.allclose(ends[0], book.simulate(2.0).states[:, -1], atol=1e-3)
    # The damper takes energy: the book's conserved energy is still plotted, no longer claimed
    # (an explorer would report it "kept to 4e+00"); given again, it is claimed again.
    run = in_q.simulate(2.0)
    assert "energy" in book.invariants and not in_q.invariants and "energy" not in run.invariants
    assert run.series["energy"][-1] < run.series["energy"][0] - 1e-3
    assert in_q.variant(Q_q=d.Q_q, invariants=book.invariants).invariants == book.invariants
