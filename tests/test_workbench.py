"""The workbench: presets checked three ways (methods against each other, against sympy's
KanesMethod built from frames and bodies, and by physics), the one-line errors a reader's
typos get, and the workbench's parts."""

from __future__ import annotations

import zlib

import matplotlib
import numpy as np
import pytest
import sympy as sp
from sympy.physics import mechanics as me

from companion.examples.independent import KaneModel, dynamic_symbols, symbols_by_name
from companion.mechanics.agreement import (
    independent_accelerations,
    max_disagreement,
    random_states,
)
from companion.workbench import DefinitionError, coordinates, define, presets, workbench
from companion.workbench.bench import AGREEMENT_TOLERANCE, COST_COLUMNS

matplotlib.use("Agg")

RTOL = 1e-10


@pytest.fixture(scope="module", params=sorted(presets.PRESETS))
def preset(request):
    return presets.PRESETS[request.param]()


def test_every_applicable_method_agrees_on_every_preset(preset):
    assert {"boltzmann_hamel", "lagrange_multipliers", "maggi"} <= set(
        preset.applicable_methods())
    worst = max_disagreement(preset, n_states=15, seed=zlib.crc32(preset.name.encode()))
    assert worst and all(d <= AGREEMENT_TOLERANCE for d in worst.values()), worst


# ---------------------------------------------------------- independent KanesMethod models
def _sleigh_kane(system) -> KaneModel:
    """A rigid body with its mass centre C on the blade's line, a distance a ahead of the
    contact point P, which has no velocity across the blade."""
    s = symbols_by_name(system)
    (x, y, theta), plain = dynamic_symbols(system, ["x", "y", "theta"])
    u, plain_u = dynamic_symbols(system, ["u_1", "u_2", "u_3"])
    plain.update(plain_u)
    N = me.ReferenceFrame("N")
    B = N.orientnew("B", "Axis", [theta, N.z])
    O = me.Point("O")
    O.set_vel(N, 0)
    P = O.locatenew("P", x * N.x + y * N.y)
    P.set_vel(N, P.pos_from(O).dt(N))
    C = P.locatenew("C", s["a"] * B.x)
    C.v2pt_theory(P, N, B)
    body = me.RigidBody("sleigh", C, B, s["m"], (me.inertia(B, 0, 0, s["I"]), C))
    v = P.vel(N)
    kd = [u[0] - v.dot(B.x), u[1] - theta.diff(), u[2] - v.dot(B.y)]
    kane = me.KanesMethod(N, q_ind=[x, y, theta], u_ind=u[:2], u_dependent=u[2:], kd_eqs=kd,
                          velocity_constraints=[v.dot(B.y)])
    return KaneModel(kane, [], [body], plain, u[2:])


def _turntable_kane(system) -> KaneModel:
    """A uniform ball whose contact point moves with the table: v_C + ω × (−r e_z) equals the
    table's velocity Ω e_z × r_C there."""
    s = symbols_by_name(system)
    q, plain = dynamic_symbols(system, ["x", "y", "alpha_x", "alpha_y", "alpha_z"])
    u, plain_u = dynamic_symbols(system, [f"u_{i}" for i in range(1, 6)])
    plain.update(plain_u)
    x, y = q[:2]
    omega_dot = [a.diff() for a in q[2:]]
    N = me.ReferenceFrame("N")
    ball = me.ReferenceFrame("ball")
    omega = omega_dot[0] * N.x + omega_dot[1] * N.y + omega_dot[2] * N.z
    ball.set_ang_vel(N, omega)
    O = me.Point("O")
    O.set_vel(N, 0)
    C = O.locatenew("C", x * N.x + y * N.y)
    C.set_vel(N, C.pos_from(O).dt(N))
    r, m, Omega = s["r"], s["m"], s["Omega"]
    contact_point = C.pos_from(O) - r * N.z
    slip = C.vel(N) + omega.cross(-r * N.z) - (Omega * N.z).cross(contact_point)
    I0 = 2 * m * r**2 / 5
    # isotropic: the same dyadic in every frame (the ball's orientation is never needed)
    body = me.RigidBody("ball", C, ball, m, (me.inertia(N, I0, I0, I0), C))
    kd = [u[0] - x.diff(), u[1] - y.diff(), u[2] - omega_dot[2],
          u[3] - slip.dot(N.x), u[4] - slip.dot(N.y)]
    kane = me.KanesMethod(N, q_ind=q, u_ind=u[:3], u_dependent=u[3:], kd_eqs=kd,
                          velocity_constraints=[slip.dot(N.x), slip.dot(N.y)])
    return KaneModel(kane, [], [body], plain, u[3:])


def _snakeboard_kane(system) -> KaneModel:
    """Board, rotor and two massless steered axles as bodies; each axle's own no-slide
    condition (with the angle sums θ ± φ, not the preset's added and subtracted form);
    the springs as torque pairs between the bodies."""
    s = symbols_by_name(system)
    q, plain = dynamic_symbols(system, ["x", "y", "theta", "psi", "phi"])
    u, plain_u = dynamic_symbols(system, [f"u_{i}" for i in range(1, 6)])
    plain.update(plain_u)
    x, y, theta, psi, phi = q
    l = s["l"]  # noqa: E741 (the board's half-length, as printed)
    N = me.ReferenceFrame("N")
    B = N.orientnew("B", "Axis", [theta, N.z])
    R = B.orientnew("R", "Axis", [psi, B.z])
    F = B.orientnew("F", "Axis", [phi, B.z])
    K = B.orientnew("K", "Axis", [-phi, B.z])
    O = me.Point("O")
    O.set_vel(N, 0)
    G = O.locatenew("G", x * N.x + y * N.y)
    G.set_vel(N, G.pos_from(O).dt(N))
    front = G.locatenew("front", l * B.x)
    back = G.locatenew("back", -l * B.x)
    front.v2pt_theory(G, N, B)
    back.v2pt_theory(G, N, B)
    bodies = [me.RigidBody("board", G, B, s["m"], (me.inertia(B, 0, 0, s["J"]), G)),
              me.RigidBody("rotor", G, R, 0, (me.inertia(R, 0, 0, s["J_r"]), G)),
              me.RigidBody("front axle", front, F, 0, (me.inertia(F, 0, 0, s["J_w"]), front)),
              me.RigidBody("back axle", back, K, 0, (me.inertia(K, 0, 0, s["J_w"]), back))]
    steer, spin = s["k_phi"] * phi / 2, s["k_psi"] * psi
    loads = [(F, -steer * B.z), (K, steer * B.z), (R, -spin * B.z), (B, spin * B.z)]
    v = G.vel(N)
    forward = v.dot(B.x)
    kd = [u[0] - forward, u[1] - psi.diff(), u[2] - phi.diff(), u[3] - v.dot(B.y),
          u[4] - (l * sp.cos(phi) * theta.diff() - sp.sin(phi) * forward)]
    axles = [front.vel(N).dot(F.y), back.vel(N).dot(K.y)]
    kane = me.KanesMethod(N, q_ind=q, u_ind=u[:3], u_dependent=u[3:], kd_eqs=kd,
                          velocity_constraints=axles)
    return KaneModel(kane, loads, bodies, plain, u[3:])


INDEPENDENT = {"chaplygin_sleigh": _sleigh_kane, "ball_on_turntable": _turntable_kane,
               "snakeboard": _snakeboard_kane}


def test_every_preset_has_an_independent_model():
    assert set(INDEPENDENT) == set(presets.PRESETS)


def test_presets_agree_with_kanes_method(preset):
    model = INDEPENDENT[preset.name](preset)
    model.derive()
    kane = model.accelerations_function(preset)
    for t, q, u, params in random_states(preset, 10, seed=zlib.crc32(preset.name.encode())):
        ours = independent_accelerations(preset, "boltzmann_hamel", t, q, u, params)
        theirs = kane(t, q, u, [params[p.name] for p in preset.parameters])
        scale = max(float(np.max(np.abs(theirs))), 1.0)
        assert np.max(np.abs(ours - theirs)) <= RTOL * scale, (q, u, params, ours, theirs)


# -------------------------------------------------------------------------------- physics
@pytest.mark.parametrize("Omega", [1.5, -0.8])
def test_ball_on_turntable_circles_at_two_sevenths_of_the_table_rate(Omega):
    """A uniform ball (I = 2/5 m r²) on a turntable: v̇ = (2/7) Ω e_z × v, so the centre
    runs round a fixed circle at the rate (2/7) Ω whatever its start."""
    system = presets.ball_on_turntable()
    traj = system.simulate(20.0, params={"Omega": Omega},
                           initial={"x": 0.4, "y": -0.2, "u_1": 0.3, "u_2": 0.1, "u_3": 2.0},
                           n_points=2001)
    rate = 2 * Omega / 7
    heading = np.unwrap(np.arctan2(traj["u_2"], traj["u_1"]))
    assert np.allclose(heading - heading[0], rate * traj.t, atol=1e-7)
    # the circle's centre r + e_z × v / rate stays where it was
    centre = np.array([traj["x"] - traj["u_2"] / rate, traj["y"] + traj["u_1"] / rate])
    assert np.max(np.abs(centre - centre[:, :1])) < 1e-7
    assert traj.drift("speed") < 1e-8 and traj.drift("spin") < 1e-8


def _across(traj, name: str, heading: np.ndarray) -> np.ndarray:
    """Velocity of a declared point across a wheel of the given heading, by finite
    differences of its positions along the motion."""
    vx, vy = (np.gradient(traj[f"{a}_{name}"], traj.t) for a in "xy")
    return -np.sin(heading) * vx + np.cos(heading) * vy


def test_chaplygin_sleigh_keeps_its_energy_and_its_blade_does_not_slide():
    traj = presets.chaplygin_sleigh().simulate(10.0, n_points=4001)
    assert traj.drift("energy") < 1e-8
    across = _across(traj, "P", traj["theta"])[2:-2]
    assert np.max(np.abs(across)) < 1e-4 * np.max(np.abs(traj["u_1"]))
    assert abs(traj["u_2"][-1]) < 0.2 * abs(traj["u_2"][0])  # its spin dies out


def test_snakeboard_keeps_its_energy_and_neither_axle_slides():
    """The preset's constraints are the axle conditions added and subtracted: the axles
    themselves, at headings θ + φ (front) and θ − φ (back), do not slide."""
    traj = presets.snakeboard().simulate(10.0, n_points=4001)
    assert traj.drift("energy") < 1e-8
    scale = np.max(np.abs(traj["u_1"]))
    for name, sign in (("front", 1), ("back", -1)):
        across = _across(traj, name, traj["theta"] + sign * traj["phi"])[2:-2]
        assert np.max(np.abs(across)) < 1e-4 * scale, name


# ------------------------------------------------------------------------- the workbench
def test_the_workbench_shows_every_part_of_a_preset():
    system = presets.chaplygin_sleigh()
    bench = workbench(system, n_states=5)
    try:
        assert bench.errors == {}
        assert bench.agrees() and set(bench.agreement) == {"lagrange_multipliers", "maggi"}
        assert "kane" in bench.skipped  # no bodies declared: the reason is shown
        offered = tuple(value for _, value in bench.selector.method.options)
        assert offered == tuple(system.applicable_methods())
        assert bench.selector.stepper is not None
        sliders = {p.name for p in (*system.parameters, *system.initial)}
        assert set(bench.explorer.controls) == sliders
        assert bench.scene is not None
        assert {r.method for r in bench.table.rows} == {"boltzmann_hamel",
                                                        "lagrange_multipliers", "maggi"}
        header = bench.table.markdown(COST_COLUMNS).splitlines()[0]
        assert header == "| " + " | ".join(COST_COLUMNS) + " |" and "example" not in header
        with pytest.raises(ValueError, match="unknown column"):
            bench.table.markdown(["cost"])
    finally:
        bench.close()


x, y, theta = sp.symbols("x y theta")
(_, _, _), (xd, yd, thd) = coordinates("x y theta")
m, I, w = sp.symbols("m I w", positive=True)
SKATE = dict(q=[x, y, theta], speeds=[xd * sp.cos(theta) + yd * sp.sin(theta), thd],
             constraints=[-xd * sp.sin(theta) + yd * sp.cos(theta)],
             T=m / 2 * (xd**2 + yd**2) + I / 2 * thd**2, parameters={m: 1.0, I: 0.2},
             points={"P": (x, y)})

TYPOS = {
    "a speed that is not a coordinate rate": (dict(speeds=[w, thd]), "speed u_1 = w uses w"),
    "a speed without a rate": (dict(speeds=[x, thd]), "is not a coordinate rate"),
    "a constraint in unknown symbols": (
        dict(constraints=[-xd * sp.sin(theta) + w * yd]), "constraint 1"),
    "a point in unknown symbols": (dict(points={"P": (x + w, y)}), "point P (x_P = w + x)"),
    "a speed not linear in the rates": (dict(speeds=[xd**2, thd]), "not linear in the rates"),
    "speeds that are not independent": (dict(speeds=[thd, 2 * thd]), "Ψ is singular"),
    "too few speeds": (dict(speeds=[thd]), "need 2 speeds, got 1"),
    "a holonomic constraint": (dict(constraints=[x - y]), "holonomic"),
    "T in an unknown symbol": (dict(T=m / 2 * xd**2 + w), "T uses w"),
    "a start value of no coordinate or speed": (dict(initial={"u_7": 1.0}), "initial names u_7"),
    "a point with one component": (dict(points={"P": (x,)}), "needs (x, y) or (x, y, z)"),
    "T typed as a string": (dict(T="m*xdot**2/2"), "T is given as the text 'm*xdot**2/2': "
                            "build it from the symbols"),
    "a zero positive mass": (dict(parameters={m: 0.0, I: 0.2}),
                             "m is declared positive but its value is 0"),
    "a negative positive mass": (dict(parameters={m: -1.0, I: 0.2}),
                                 "m is declared positive but its value is -1"),
    "a start value not a number": (dict(initial={"u_2": float("nan")}),
                                   "u_2: the value must be a finite number, got nan"),
    "a force in an unknown speed": (dict(forces=[0, 0, -w * sp.Symbol("u_3")]),
                                    "neither a coordinate, a rate, a speed (u_1, u_2)"),
}


@pytest.mark.parametrize("change, expected", [
    (dict(constraint=[]), "define() has no argument 'constraint': did you mean constraints?"),
    (dict(T=None), "define() needs T= (the kinetic energy in q and the rates)"),
])
def test_define_names_a_misspelt_or_missing_argument(change, expected):
    given = {k: v for k, v in {**SKATE, **change}.items() if v is not None}
    with pytest.raises(DefinitionError) as raised:
        define("typo", **given)
    assert str(raised.value) == expected


def test_a_damper_may_be_written_in_the_speeds_or_the_rates():
    """The skate's spin damped by −c θ̇ and by −c u₂ (u₂ = θ̇): the same motion."""
    c = sp.Symbol("c", positive=True)
    runs = [define("damped", **{**SKATE, "forces": [0, 0, -c * rate],
                                "parameters": {m: 1.0, I: 0.2, c: 0.3},
                                "initial": {"u_1": 1.0, "u_2": 0.5}}).build().simulate(3.0)
            for rate in (thd, sp.Symbol("u_2"))]
    assert np.abs(runs[0].states - runs[1].states).max() == 0.0
    assert runs[0].states[-1, -1] == pytest.approx(0.5 * np.exp(-0.3 / 0.2 * 3.0), rel=1e-6)


@pytest.mark.parametrize("change, expected", TYPOS.values(), ids=list(TYPOS))
def test_a_bad_definition_gets_one_line_in_the_workbench(change, expected):
    draft = define("typo", **{**SKATE, **change})
    with pytest.raises(DefinitionError, match=None) as raised:
        draft.build()
    assert expected in str(raised.value)
    bench = workbench(draft)
    message = bench.errors["definition"]
    assert bench.system is None and expected in message and "\n" not in message
    assert not bench.agrees()  # nothing was compared: no agreement to claim
    shown = bench.widget.children[0].value
    assert "Cannot build this system" in shown and "Traceback" not in shown


def test_a_part_that_fails_on_the_readers_values_says_so_in_its_place():
    """Polar coordinates started at the origin: the explorer cannot simulate from there, the
    rest of the workbench still shows, and the explorer's place carries the reason."""
    (r, phi), (rd, phid) = coordinates("r phi")
    draft = define("polar", q=[r, phi], speeds=[rd, r * phid], T=m / 2 * (rd**2 + r**2 * phid**2),
                   parameters={m: 1.0}, initial={r: (0.0, -1.0, 1.0)})
    bench = workbench(draft, n_states=3)
    assert set(bench.errors) == {"explorer"} and "singular" in bench.errors["explorer"]
    assert bench.selector is not None and bench.table is not None
    texts = [getattr(c, "value", "") for c in bench.widget.children]
    assert any("Cannot show this part" in t for t in texts)


def test_the_workbench_refuses_what_is_not_a_system():
    bench = workbench("knife_edge")
    assert bench.system is None and "define()" in bench.errors["definition"]


def test_the_doubled_speeds_preset_retraces_a_free_sleighs_path_twice_as_fast():
    """Without forces and time in its equations a system's path does not depend on its
    speed: the preset's run at t/2 ends where the default run ends at t."""
    from companion.workbench.bench import speeds_doubled

    system = presets.chaplygin_sleigh()
    (preset,) = speeds_doubled(system).values()
    defaults = {p.name: p.default for p in system.initial}
    assert preset.values == {n: 2 * defaults[n] for n in preset.values}
    slow = system.simulate(2.0, rtol=1e-10, atol=1e-12)
    fast = system.simulate(1.0, initial=preset.values, rtol=1e-10, atol=1e-12)
    for name in ("x", "y", "theta"):
        assert fast[name][-1] == pytest.approx(slow[name][-1], abs=1e-7)
