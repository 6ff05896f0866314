"""Nothing a reader types is silently ignored (issue #28 §1): a Symbol key and its name mean
the same everywhere, and each bad input gets its own message saying what to change."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from companion import examples
from companion.mechanics.boltzmann_hamel import dot_symbol
from companion.stability import stability_sweep
from companion.system import MAX_POINTS, Evaluation, Parameter, System

x, k, m = sp.symbols("x"), *sp.symbols("k m", positive=True)


def spring(**changes) -> System:
    spec = dict(name="spring", q=[x], T=m * dot_symbol(x) ** 2 / 2, Q_q=[-k * x],
                parameters=[Parameter(m, 1.0, 0.1, 5.0, positive=True),
                            Parameter(k, 4.0, 0.1, 10.0, positive=True)],
                initial=[Parameter(x, 0.5, -1.0, 1.0), Parameter(dot_symbol(x), 0.0, -1, 1)],
                evaluation=Evaluation(t_final=2.0, n_points=50))
    spec.update(changes)
    return System(**spec)


def rot(axis: str, a: sp.Expr) -> sp.Matrix:
    c, s = sp.cos(a), sp.sin(a)
    return {"x": sp.Matrix([[1, 0, 0], [0, c, -s], [0, s, c]]),
            "z": sp.Matrix([[c, -s, 0], [s, c, 0], [0, 0, 1]])}[axis]


def rolling_disk() -> System:
    """The classic uniform disk rolling on a floor, set up as a new reader would from the
    README: q = (x, y, ψ heading, θ lean, φ spin), T in q̇, the two rolling constraints (the
    contact point's velocity) as the last two u's, and two validity conditions."""
    q = list(sp.symbols("x y psi theta phi"))
    qd = [dot_symbol(s) for s in q]
    u = list(sp.symbols("u_1:6"))
    r, g = sp.symbols("r g", positive=True)
    lean = rot("z", q[2]) * rot("x", q[3])  # heading, then lean about the rolling direction
    omega = qd[2] * sp.Matrix([0, 0, 1]) + qd[3] * rot("z", q[2])[:, 0] + qd[4] * lean[:, 1]
    centre = sp.Matrix([q[0], q[1], 0]) + r * lean[:, 2]
    v_centre = centre.jacobian(q) * sp.Matrix(qd)
    v_contact = v_centre - omega.cross(r * lean[:, 2])
    w = lean.T * omega  # the axle is the disk's y-axis
    T = m * v_centre.dot(v_centre) / 2 + m * r**2 * (w[0]**2 + w[2]**2 + 2 * w[1]**2) / 8
    theta_ddot = dot_symbol(u[0])
    return System(
        name="classic_disk", q=q, qdot=qd, u=u,
        definitions=[qd[3], qd[2], qd[4], sp.expand(v_contact[0]), sp.expand(v_contact[1])],
        T_qdot=sp.expand(T), n_constraints=2, Q_q=[-(m * g * centre[2]).diff(s) for s in q],
        parameters=[Parameter(m, 1.0, 0.1, 5.0, positive=True),
                    Parameter(r, 0.3, 0.05, 1.0, positive=True),
                    Parameter(g, 9.81, 1.0, 20.0, positive=True)],
        initial=[*(Parameter(s, 0.0, -1.0, 1.0) for s in q),
                 *(Parameter(s, 0.0, -20.0, 20.0) for s in u[:3])],
        evaluation=Evaluation(
            validity={"centre height": centre[2],
                      # N = m (g + z̈_G), z_G = r cos θ
                      "normal force": m * (g - r * (theta_ddot * sp.sin(q[3])
                                                   + u[0]**2 * sp.cos(q[3])))},
            t_final=3.0, n_points=300))


@pytest.fixture(scope="module")
def disk() -> System:
    return rolling_disk()


# ------------------------------------------------------------- one identity per parameter
def test_a_symbol_key_and_its_name_give_the_same_motion():
    s = spring()
    by_name = s.simulate(params={"k": 9.0}, initial={"x": 0.2})
    by_symbol = s.simulate(params={k: 9.0}, initial={x: 0.2})
    default = s.simulate()
    assert by_symbol.params["k"] == 9.0
    np.testing.assert_array_equal(by_symbol.states, by_name.states)
    assert not np.allclose(by_symbol.states, default.states)
    # the linearization too: ω² = k/m from the Symbol key as from the name
    for params in ({"k": 9.0}, {k: 9.0}):
        ev = s.linearize({x: 0.0}, params).eigenvalues()
        np.testing.assert_allclose(ev.imag, [-3.0, 3.0], rtol=1e-9)


def test_symbols_and_names_alike_in_states_series_and_small_oscillations():
    from companion.mechanics.small_oscillations import normal_modes

    s = spring()
    traj = s.simulate()
    np.testing.assert_array_equal(traj[x], traj["x"])
    np.testing.assert_array_equal(s.initial_state({x: 0.2, dot_symbol(x): 0.0}),
                                  s.initial_state({"x": 0.2, dot_symbol(x).name: 0.0}))
    d = s.derive("lagrange_multipliers")
    by_name, by_symbol = normal_modes(d, {"m": 1.0, "k": 4.0}), normal_modes(d, {m: 1.0, k: 4.0})
    np.testing.assert_allclose(by_name[0], [4.0])
    np.testing.assert_array_equal(by_name[0], by_symbol[0])
    with pytest.raises(ValueError, match="unknown parameter.* c; the equations have "):
        normal_modes(d, {"m": 1.0, "k": 4.0, "c": 1.0})


def test_a_symbol_key_is_refused_when_unknown_or_given_twice():
    s = spring()
    with pytest.raises(ValueError, match=r"unknown parameter\(s\) c; known: m, k \(the keys of "
                                         r"params\)"):
        s.simulate(params={sp.Symbol("c"): 1.0})
    with pytest.raises(ValueError, match="gives k twice"):
        s.simulate(params={k: 2.0, "k": 3.0})
    with pytest.raises(TypeError, match="a key of initial must be a name or a sympy Symbol"):
        s.simulate(initial={0: 1.0})


def test_rhs_takes_the_documented_order_or_a_mapping():
    s = spring()
    x0 = np.array([0.5, 0.0])
    expected = [0.0, -4.0 * 0.5 / 2.0]
    for p in ([2.0, 4.0], {"m": 2.0}, {m: 2.0, k: 4.0}):
        np.testing.assert_allclose(s.rhs(p)(0.0, x0), expected)
    with pytest.raises(ValueError, match=r"p holds 1 value\(s\) but spring has 2 parameters, "
                                         r"in this order: m, k"):
        s.rhs([2.0])
    with pytest.raises(TypeError, match="in the order m, k, or a mapping by name"):
        s.rhs(["a", "b"])
    # a state of the wrong length, by every method
    for f in (s.rhs(method=name) for name in s.applicable_methods()):
        for size in (1, 3):
            with pytest.raises(ValueError, match=rf"the state x must hold 2 values, \(q, u\) "
                                                 rf"in the order of System\.state_names\(\), "
                                                 rf"got {size}"):
                f(0.0, np.zeros(size))


# ------------------------------------------------------------- bad input, each its message
def test_constructor_input_errors_name_what_to_change():
    with pytest.raises(ValueError, match=r"T \(the kinetic energy\) is not a sympy expression"):
        spring(T=[m * dot_symbol(x) ** 2 / 2])
    with pytest.raises(ValueError, match=r"n_constraints .* an integer from 0 to 0 .* got 1\.5"):
        spring(n_constraints=1.5)
    with pytest.raises(TypeError, match="validity must map a name to each condition"):
        spring(evaluation=Evaluation(validity=[x + 1]))
    with pytest.raises(ValueError, match=r"initial of spring holds z, which the motion never "
                                         r"reads \(its start values are those of x, "):
        spring(initial=[Parameter(x, 0.5, -1, 1), Parameter(dot_symbol(x), 0.0, -1, 1),
                        Parameter(sp.Symbol("z"), 0.0, -1, 1)])
    with pytest.raises(TypeError, match="a Parameter's symbol must be a sympy Symbol, .* got "
                                        "str 'm'"):
        Parameter("m", 1.0, 0.1, 5.0)
    with pytest.raises(ValueError, match=r"the range of m must have low ≤ high, got \[5\.0, "):
        Parameter(m, 1.0, 5.0, 0.1)
    with pytest.raises(TypeError, match="initial must be a mapping of names to values"):
        spring().initial_state([0.5, 0.0])


def test_simulate_bounds_the_samples():
    with pytest.raises(ValueError, match=rf"n_points = 100000000 would store 800 MB .* at most "
                                         rf"{MAX_POINTS}"):
        spring().simulate(n_points=10**8)
    assert spring().simulate(n_points=np.int64(7)).t.shape == (7,)  # numpy's integers are integers
    with pytest.raises(ValueError, match=r"the end time \(every motion starts at t = 0; not a "
                                         r"time span\), got \[0, 5\]"):
        spring().simulate([0, 5])


@pytest.mark.parametrize(("name", "parameter"), [("rolling_disk", "R"), ("knife_edge", "l"),
                                                   ("euler_body", "I_xx")])
def test_absurd_parameters_are_named_not_a_singular_configuration(name, parameter):
    system = examples.get(name)
    with pytest.raises(ValueError, match=rf"{parameter} = 1e\+300") as info:
        with np.errstate(all="ignore"):
            system.simulate(1.0, {parameter: 1e300}, n_points=20)
    assert "not a singular configuration" in str(info.value) or "overflow" in str(info.value)


# ------------------------------------------------------------- the rolling disk
def test_cyclic_coordinates_as_symbols_or_names(disk):
    spin = {"u_3": 10.0}
    by_symbol = disk.linearize(spin, cyclic=disk.q[:3] + disk.q[4:])
    by_name = disk.linearize(spin, cyclic=["x", "y", "psi", "phi"])
    assert by_symbol.states == by_name.states == ["theta", "u_1", "u_2", "u_3"]
    np.testing.assert_array_equal(by_symbol.A, by_name.A)
    with pytest.raises(ValueError, match="cyclic names unknown coordinates"):
        disk.linearize(spin, cyclic=[sp.Symbol("z")])
    with pytest.raises(TypeError, match="an entry of cyclic must be a name or a sympy Symbol, "
                                        "got int 3"):
        disk.linearize(spin, cyclic=3)
    with pytest.raises(ValueError, match="tolerance must be a positive number, got 'a'"):
        disk.linearize(spin, cyclic="x", tolerance="a")


def test_stability_sweep_finds_the_disks_critical_speed(disk):
    """Upright rolling is stable above Ω = √(g / 3r), a speed r Ω = √(g r / 3) for a uniform
    disk.  Here the closed form comes from sympy: the symbolic Jacobian of the derived
    equations at upright rolling with spin Ω, its characteristic polynomial λ² (a λ² + b(Ω)),
    and the root of b; the sweep finds it from numeric Jacobians and eigenvalues."""
    th, u1, u2, u3, w, lam = sp.symbols("theta u_1 u_2 u_3 Omega lambda")
    r, g = sp.symbols("r g", positive=True)
    d = disk.derive()
    rates = sp.Matrix([*d.kinematics, *d.accelerations()])
    rows = [d.q.index(th), *(len(d.q) + d.u.index(s) for s in (u1, u2, u3))]
    jac = sp.Matrix([rates[i] for i in rows]).jacobian([th, u1, u2, u3])
    jac = jac.subs({th: 0, u1: 0, u2: 0, u3: w})
    poly = sp.Poly(sp.cancel(jac.charpoly(lam).as_expr() / lam**2), lam)
    assert poly.degree() == 2
    omega_c = [s for s in sp.solve(poly.coeff_monomial(1), w) if s.is_positive]
    assert len(omega_c) == 1
    assert sp.simplify(r * omega_c[0] - sp.sqrt(g * r / 3)) == 0  # the physics: √(g r/3)
    pv = {r: 0.3, g: 9.81}
    expected_speed = float((r * omega_c[0]).subs(pv))

    sweep = stability_sweep(disk, sp.Symbol("u_3"), np.linspace(0.5, 8.0, 8),
                            cyclic=sp.symbols("x y psi phi"))
    assert list(sweep.stable) == [False] * 3 + [True] * 5
    assert len(sweep.critical) == 1
    assert abs(sweep.critical[0] * 0.3 - expected_speed) < 1e-10 * expected_speed
    by_radius = stability_sweep(disk, "r", [0.05, 0.5], nominal={"u_3": 5.0},
                                cyclic=["x", "y", "psi", "phi"])
    assert by_radius.stable.tolist() == [False, True]
    # the same condition solved for r at Ω = 5 rad/s
    radius = sp.solve(sp.Eq(omega_c[0].subs(g, 9.81), 5.0), r)
    np.testing.assert_allclose(by_radius.critical, [float(radius[0])], rtol=1e-10)
    with pytest.raises(ValueError, match="vary names w, neither a parameter"):
        stability_sweep(disk, "w", [1.0, 2.0])
    with pytest.raises(ValueError, match="tolerance must be a number ≥ 0, got '1e-6'"):
        stability_sweep(disk, "u_3", [1.0, 2.0], tolerance="1e-6")


def test_a_disk_without_spin_leaving_the_floor_is_reported(disk):
    fallen = disk.simulate(3.0, initial={"theta": 0.1})
    assert fallen.events[0].startswith("t = ")
    assert "the motion leaves the model" in fallen.events[0]
    assert "not physical" in fallen.events[0]
    valid = fallen.series["model valid"]
    assert valid[0] == 1.0 and valid[-1] == 0.0
    assert np.min(fallen.series["centre height"]) < 0  # it did go through the floor
    rolling = disk.simulate(3.0, initial={"theta": 0.1, sp.Symbol("u_3"): 10.0})
    assert not rolling.events
    assert np.all(rolling.series["model valid"] == 1.0)
    assert np.min(rolling.series["normal force"]) > 0


# ------------------------------------------------------------- the workbench's define
def particle_model(loads_factor: float | None):
    """A particle on a line as a mechanics model, with a spring load k·factor or none."""
    import sympy.physics.mechanics as me

    from companion.mechanics.model import MechanicsModel

    def build() -> MechanicsModel:
        q = me.dynamicsymbols("x")
        N = me.ReferenceFrame("N")
        O = me.Point("O")
        O.set_vel(N, 0)
        P = O.locatenew("P", q * N.x)
        loads = [] if loads_factor is None else [(P, -loads_factor * k * q * N.x)]
        return MechanicsModel(frame=N, q=[q], bodies=[me.Particle("P", P, m)], loads=loads)

    return build


def spring_draft(**changes):
    from companion.workbench import define

    spec = dict(q=[x], T=m / 2 * dot_symbol(x) ** 2, V=k * x**2 / 2,
                parameters={m: 1.0, k: 4.0}, initial={"x": 0.5})
    spec.update(changes)
    return define("spring", **spec)


def test_define_takes_a_mechanics_model_and_its_forces_once():
    bh = spring_draft().build().derive("boltzmann_hamel")
    # the model without loads: Kane's method takes the System's forces (from V)
    for model in (particle_model(None), particle_model(1.0)):  # or the same forces twice
        kane = spring_draft(mechanics_model=model).build().derive("kane")
        assert sp.simplify(kane.mass_matrix.inv() * kane.forcing
                           - bh.mass_matrix.inv() * bh.forcing) == sp.zeros(1, 1)
    with pytest.raises(ValueError, match=r"given twice and differ: the System's Q_1 = -k\*x "
                                         r"but its mechanics model's loads give "
                                         r"Q_1 = -2(\.0)?\*k\*x"):
        spring_draft(mechanics_model=particle_model(2.0)).build().derive("kane")
    with pytest.raises(NotImplementedError, match=r"define\(\.\.\., mechanics_model=\.\.\.\)"):
        spring_draft().build().derive("kane")


def test_loads_only_in_the_mechanics_model_are_refused_not_seen_by_kane_alone():
    """The spring force given only as a load of the model: Kane's method would oscillate
    while Boltzmann–Hamel, Lagrange and Maggi (which read the System's forces) stay at rest."""
    from companion.workbench import DefinitionError

    draft = spring_draft(V=0, mechanics_model=particle_model(1.0))
    for run in ("kane", "boltzmann_hamel", "maggi", "rhs", "simulate"):  # no method moves
        free = draft.build()  # a fresh System each time: nothing cached
        with pytest.raises(ValueError, match=r"the loads of the mechanics model give Q = "
                                             r"\[-(1\.0\*)?k\*x\] but the System has no forces"):
            getattr(free, run)() if run in ("rhs", "simulate") else free.derive(run)
    with pytest.raises(DefinitionError, match="mechanics_model must be a function returning "
                                              "the MechanicsModel"):
        spring_draft(mechanics_model=particle_model(1.0)()).build()


def test_define_reads_parameters_by_name_or_symbol_and_names_an_assumption_clash():
    from companion.workbench import DefinitionError

    by_name = spring_draft(parameters={"m": 1.0, "k": 9.0}).build()
    by_symbol = spring_draft(parameters={m: 1.0, k: 9.0}).build()
    assert by_name.parameter_symbols == by_symbol.parameter_symbols == [m, k]
    np.testing.assert_array_equal(by_name.simulate(2.0).states, by_symbol.simulate(2.0).states)
    with pytest.raises(DefinitionError, match=r"the parameter k and the symbol k in V differ "
                                              r"only in their assumptions \(no assumptions vs "
                                              r"positive=True"):
        spring_draft(parameters={m: 1.0, sp.Symbol("k"): 4.0}).build()
    with pytest.raises(DefinitionError, match="the parameter 'c' is not used"):
        spring_draft(parameters={"m": 1.0, "k": 4.0, "c": 1.0}).build()


def test_every_step_key_is_there_or_the_error_says_why():
    disk = rolling_disk()  # n − m = 3 free speeds: λ too long to show
    with pytest.raises(KeyError, match=r"no step 'multipliers' here: λ is solved symbolically "
                                       r"for display only up to n − m = 2 free speeds \(here 3"):
        disk.derive("lagrange_multipliers").step("multipliers")
    with pytest.raises(KeyError, match="the system has no constraints, so no multipliers"):
        spring().derive("lagrange_multipliers").step("multipliers")


# ------------------------------------------------------------- widgets
def test_friction_explorer_refuses_a_negative_mu_s_and_has_no_dead_zone():
    ex = examples.explorer("disk_link_friction")
    good = ex.trajectory
    assert ex.update(mu_s=-1.0) is None  # a message, not traitlets' "setting max < min"
    assert ex.error.startswith("mu_s must be ≥ 0")  # the parameter's own rule, checked first
    assert ex.trajectory is good and ex.values["mu_s"] == good.params["mu_s"]
    assert ex.controls["mu_k"].max == ex.values["mu_s"]
    # μ_s at the slider's position 0 drags μ_k down with it instead of being refused
    low = ex.controls["mu_s"].min
    assert ex.update(mu_s=low) is not None, ex.error
    assert ex.values["mu_k"] == low and ex.controls["mu_k"].value == low
    assert ex.update(mu_s=0.5, mu_k=0.8) is None and "μ_k = 0.8" in ex.error  # typed both
    ex.close()


def test_explore_starts_at_params_and_initial_and_survives_a_failed_build():
    from companion import explore
    from companion.widgets.explorer import live_explorers

    s = spring()
    with pytest.raises(ValueError, match="unknown keyword.* bogus of simulate"):
        explore(s, bogus=1)  # fails in its first simulation, after the sliders exist
    assert not [e for e in live_explorers() if e.system is s]  # nothing half-built is live
    ex = explore(s, params={k: 9.0}, initial={"x": 0.2})  # was: 'multiple values for params'
    assert ex.values["k"] == 9.0 and ex.controls["k"].value == 9.0
    np.testing.assert_array_equal(ex.trajectory.states,
                                  s.simulate(params={"k": 9.0}, initial={x: 0.2}).states)
    with pytest.raises(ValueError, match=r"explore\(spring\): x = 5 is outside this "
                                         r"explorer's range"):
        explore(s, initial={x: 5.0})
    assert ex.closed  # replaced by the refused one, which is closed too
    assert not [e for e in live_explorers() if e.system is s]


def test_play_control_and_stepper_refuse_bad_arguments():
    from companion.widgets.play import PlayControl
    from companion.widgets.stepper import Stepper

    shown = []
    play = PlayControl(1000, shown.append)
    play.show(play.n_frames - 1)
    assert shown == [999]
    for frame in (10**6, -5, 1.5, True):
        with pytest.raises(ValueError, match=rf"frame must be an integer from 0 to "
                                             rf"{play.n_frames - 1} .* got {frame!r}"):
            play.show(frame)
    assert shown == [999]
    play.close()
    with pytest.raises(TypeError, match=r"a Stepper shows a Derivation \(e\.g\. system\.derive"
                                        r"\('maggi'\)\) or a list of Steps, got NoneType None"):
        Stepper(None)


def test_define_names_an_argument_of_the_wrong_shape():
    from companion.workbench import DefinitionError

    for changes, message in (
            (dict(validity=[x + 0.3]), "validity must be a mapping by name or symbol"),
            (dict(parameters=[m, k]), "parameters must be a mapping by name or symbol"),
            (dict(q=x), r"q must be a list, e\.g\. \[x\] for one alone, got Symbol x"),
            (dict(speeds=dot_symbol(x)), "speeds must be a list, e\\.g\\. \\[x\u0307\\] for one"),
            (dict(forces=-k * x), r"forces must be a list, e\.g\. \[-k\*x\] for one")):
        with pytest.raises(DefinitionError, match=message):
            spring_draft(**changes)
    assert spring_draft(q=(x,), forces=(0,)).build().q == (x,)  # any sequence: a tuple


def test_define_says_what_the_speeds_are_called_when_initial_names_a_rate():
    from companion.workbench import DefinitionError

    with pytest.raises(DefinitionError, match="initial names x\u0307, which is none of x, u_1 "
                                              "\\(the speeds are named by their order: "
                                              "u_1 = x\u0307\\)"):
        spring_draft(initial={dot_symbol(x): 1.0}).build()
    assert spring_draft(initial={"u_1": 1.0}).build().initial_values()["u_1"] == 1.0


def test_define_declares_validity_conditions():
    from companion.workbench import DefinitionError

    system = spring_draft(validity={"x above -0.3": x + 0.3}).build()
    traj = system.simulate(2.0)  # x = 0.5 cos 2t reaches −0.3 at t = acos(−0.6)/2
    assert traj.events[0].startswith("t = ") and "x above -0.3" in traj.events[0]
    first = traj.t[np.argmin(traj.series["model valid"])]
    assert abs(first - np.arccos(-0.6) / 2) <= traj.t[1]
    from companion import explore

    status = explore(system, t_final=2.0).readout_html().split("<details>")[0]
    assert "the motion leaves the model (x above -0.3 = " in status  # the status line says it
    with pytest.raises(DefinitionError, match=r"validity condition h \(c\) uses c"):
        spring_draft(validity={"h": sp.Symbol("c")}).build()


# ------------------------------------------------------------ a new user's robot (issue 36)
def _robot_definition():
    from test_forces import _robot  # the differential-drive robot: 5 q's, 3 constraints

    return _robot().definition


@pytest.mark.parametrize("n_constraints", [2, 4])
def test_a_wrong_constraint_count_names_the_count_not_a_start_value(n_constraints):
    robot = _robot_definition()
    with pytest.raises(ValueError, match=rf"n_constraints={n_constraints} leaves "
                       rf"{5 - n_constraints} of the 5 u's free .* start values of 2 speed\(s\) "
                       r"\(u_1, u_2\): with 3 constraint\(s\) .* set n_constraints=3"):
        System(robot.replace(n_constraints=n_constraints))


def test_fewer_u_symbols_than_definitions_is_named():
    robot = _robot_definition()
    with pytest.raises(ValueError, match=r"u \(the quasi-velocities\) must hold one entry per "
                       r"coordinate \(5: x, y, phi, theta_L, theta_R\), got 4; u and its "
                       "definitions pair up one to one"):
        robot.replace(u=robot.u[:4])


def test_T_in_the_u_s_given_as_T_qdot_says_pass_it_as_T():
    robot = _robot_definition()
    u1 = robot.u[0]
    with pytest.raises(ValueError, match=r"T_qdot is the kinetic energy in q̇, but it "
                       r"uses the quasi-velocities u_1: a T written in the u's is passed as T="):
        robot.replace(T_qdot=m * u1**2 / 2)


def test_rates_typed_without_qdot_are_named_as_rates():
    robot = _robot_definition()
    with pytest.raises(ValueError, match=r"T_qdot uses xdot \(of x\), ydot \(of y\), "
                       r"phidot \(of phi\), .*look like rates of the coordinates but are not the "
                       r"declared rates .*: qdot=\[xdot, ydot, phidot, thetadot_L, thetadot_R\] "
                       "declares them"):
        robot.replace(qdot=None)


def test_a_rate_misspelled_in_the_forces_is_not_called_a_parameter():
    robot = _robot_definition()
    wrong = sp.Symbol("thetadotL")
    with pytest.raises(ValueError, match="Q_q uses thetadotL \\(of theta_L\\), which "
                       "look like rates .* not the rates declared in qdot: write thetadot_L "
                       "for thetadotL"):
        robot.replace(Q_q=[0, 0, 0, -wrong, 0])


def test_an_acceleration_in_the_forces_is_named_as_one():
    robot = _robot_definition()
    with pytest.raises(ValueError, match=r"Q_q uses xddot, which look like accelerations of the "
                       "coordinates: forces, energies and definitions may depend on q, the "
                       "rates, the speeds, t and parameters, not on accelerations"):
        robot.replace(Q_q=[-sp.Symbol("xddot"), 0, 0, 0, 0])


def test_a_definition_in_the_u_s_it_defines_is_refused_when_made():
    """It used to pass and fail at simulate as "Ψ is singular"."""
    robot = _robot_definition()
    with pytest.raises(ValueError, match=r"the definitions u = Ψ q̇ \+ Ψ_t use the "
                       r"quasi-velocities u_1 they define: write each in the rates xdot, "):
        robot.replace(definitions=[robot.u[0], *robot.definitions[1:]])


def test_a_definition_not_linear_in_the_rates_is_named_when_made():
    robot = _robot_definition()
    xd = robot.qdot[0]
    with pytest.raises(ValueError, match=r"definitions\[0\] \(of u_1\) = xdot\*\*2 is not "
                       r"linear in the rates xdot, ydot, .*: a quasi-velocity is u = Ψ q̇ \+ Ψ_t"):
        robot.replace(definitions=[xd**2, *robot.definitions[1:]])


def test_constraint_forces_of_a_system_without_constraints_are_refused():
    """They used to be an empty series, without a word."""
    from companion.model import CONSTRAINT_FORCES

    x, xd = sp.symbols("x xdot")
    spring = System(name="spring", q=[x], qdot=[xd], T_qdot=m * xd**2 / 2, Q_q=[-x],
                    parameters=[Parameter(m, 1.0, 0.1, 2.0)],
                    initial=[Parameter(x, 1.0, -2.0, 2.0), Parameter(xd, 0.0, -1.0, 1.0)],
                    evaluation=Evaluation(observables={"lambda": CONSTRAINT_FORCES}))
    with pytest.raises(ValueError, match=r"spring holds no u at zero \(n_constraints=0\): it "
                       "has no constraint forces; leave CONSTRAINT_FORCES out of its observables"):
        spring.simulate(1.0)


def test_Q_with_one_force_per_coordinate_says_Q_q():
    robot = _robot_definition()
    with pytest.raises(ValueError, match=r"Q holds the generalized forces of the free speeds u, "
                       r"one per free u \(2: u_1, u_2\), got 5; forces of the coordinates, one "
                       "per q, go in Q_q="):
        robot.replace(Q=list(robot.Q_q), Q_q=None)


@pytest.mark.parametrize("field", ["definitions", "Q_q", "T_qdot", "series"])
def test_text_that_does_not_parse_is_named(field):
    robot = _robot_definition()
    bad = "xdot*cos(phi) +"
    value = {"definitions": [bad, *robot.definitions[1:]], "Q_q": [0, 0, 0, bad, 0],
             "T_qdot": bad, "series": {"speed": bad}}[field]
    with pytest.raises(ValueError, match="is not a sympy expression: 'xdot\\*cos\\(phi\\) \\+'"):
        if field == "series":  # evaluated along a motion: the model's, not the definition's
            System(robot, evaluation=Evaluation(series=value))
        else:
            robot.replace(**{field: value})


def test_velocity_dependent_forces_in_u_are_accepted_and_converted():
    robot = _robot_definition()
    u1, u2 = robot.u[:2]
    c = sp.Symbol("c", positive=True)
    damped = robot.replace(Q_q=[0, 0, -c * u2, -c * robot.u[3], 0],  # u_4 is held at zero
                           parameters=[*robot.parameters, Parameter(c, 0.1, 0.0, 1.0)])
    assert damped.Q[1].free_symbols <= {c, u2, *robot.parameter_symbols}
    assert sp.expand(damped.Q[1] + c * u2) == 0


def test_the_workbench_forces_message_lists_the_coordinates_in_the_users_order():
    from companion.workbench.define import DefinitionError, coordinates, define

    q, qd = coordinates("x y phi theta_L theta_R")
    with pytest.raises(DefinitionError, match="the 5 coordinates x, y, φ, θ_L, θ_R: give 5, "
                       "got 2"):
        define("robot", q=q, T=m * qd[0] ** 2 / 2, forces=[0, 0],
               parameters={m: 1.0}).build()


def test_the_workbench_names_text_instead_of_a_parse_error():
    from companion.workbench.define import DefinitionError, coordinates, define

    q, _ = coordinates("x")
    with pytest.raises(DefinitionError, match="T is given as the text 'm\\*xdot\\*\\*2/2 \\+': "
                       "build it from the symbols"):
        define("cart", q=q, T="m*xdot**2/2 +", parameters={"m": 1.0}).build()


def test_the_workbench_summary_after_a_failed_definition_says_why():
    from companion.workbench import workbench
    from companion.workbench.define import coordinates, define

    q, _ = coordinates("x")
    bench = workbench(define("cart", q=q, T="m*xdot**2/2", parameters={"m": 1.0}))
    assert bench.system is None
    assert bench.summary().startswith("The definition failed, so there is no system: T is "
                                      "given as the text 'm*xdot**2/2'")
    bench.close()


def test_forces_as_a_sympy_column_are_read_as_a_list_and_one_expression_is_refused():
    robot = _robot_definition()
    u1, u2 = robot.u[:2]
    assert robot.replace(Q=sp.Matrix([-u1, -u2]), Q_q=None).Q == (-u1, -u2)
    with pytest.raises(ValueError, match=r"Q must be a list of expressions, e.g. \[-u_1\]"):
        robot.replace(Q=-u1)


def test_a_parameter_default_outside_its_range_is_refused_when_made():
    with pytest.raises(ValueError, match=r"the default 20.0 of M lies outside its range "
                       r"\[0.5, 10.0\]: move the default into the range or widen the range"):
        Parameter(sp.Symbol("M"), 20.0, 0.5, 10.0, "kg")


def test_an_undeclared_time_in_the_forces_says_pass_it_as_t():
    robot = _robot_definition()
    t = sp.Symbol("t")
    tau_L = robot.parameter_symbols[5]
    with pytest.raises(ValueError, match=r"Q_q uses t, which looks like the time: pass "
                       r"it as the time, t=t"):
        robot.replace(Q_q=[0, 0, 0, tau_L * sp.sin(t), 0])
    timed = robot.replace(Q_q=[0, 0, 0, tau_L * sp.sin(t), 0], t=t)
    assert timed.Q[0].has(t)
    with pytest.raises(ValueError, match=r"uses t, which looks like the time but is not the "
                       r"declared time symbol t \(real=True\): use that same symbol"):
        robot.replace(Q_q=[0, 0, 0, tau_L * sp.sin(t), 0], t=sp.Symbol("t", real=True))


def test_a_start_value_for_a_constrained_speed_says_it_is_held_at_zero():
    from test_forces import _robot

    with pytest.raises(ValueError, match=r"u_3: a constrained \(suppressed\) speed, held at zero "
                       r"by its constraint, has no initial value of its own: remove it from "
                       r"initial, which may hold x, y, phi, theta_L, theta_R, u_1, u_2$"):
        _robot().simulate(1.0, initial={"u_3": 1.0})


@pytest.mark.parametrize("call, near", [(lambda s: s.simulate(1.0, method="kanes"), "'kane'"),
                                        (lambda s: s.derive("lagrange"),
                                         "'lagrange_multipliers'")])
def test_a_misspelt_method_gets_the_nearest_name(call, near):
    with pytest.raises(ValueError, match=r"unknown method '\w+'; known: boltzmann_hamel, .*; "
                                         rf"did you mean {near}\?"):
        call(spring())


def test_a_motion_stalling_where_psi_is_singular_blames_the_configuration():
    """u = (1 − x) ẋ with a constant force: x reaches 1, where Ψ = 1 − x vanishes and LSODA
    runs out of steps; the configuration is named, not the time span."""
    u = sp.Symbol("u_1")
    bead = System(name="bead", q=[x], u=[u], definitions=[(1 - x) * dot_symbol(x)],
                  T_qdot=m * dot_symbol(x) ** 2 / 2, Q_q=[1],
                  parameters=[Parameter(m, 1.0, 0.1, 5.0, positive=True)],
                  initial=[Parameter(x, 0.0, -1, 1), Parameter(u, 1.0, -2, 2)],
                  evaluation=Evaluation(t_final=3.0))
    with pytest.raises(ValueError, match=r"the integration of bead stalled after t = 0\.7\d* s "
                       r"\(x = 0\.9\d*\): the configuration is the cause, not the time span: "
                       r"\|det Ψ\| of the quasi-velocities fell to 0\.0\d* of its start value, "
                       r".* change the definitions of the u's so that Ψ stays invertible along "
                       r"the motion, or simulate to before t = 0\.7\d* s"):
        bead.simulate()


def test_coordinates_that_are_not_plain_symbols_are_named():
    from sympy.physics.mechanics import dynamicsymbols

    with pytest.raises(TypeError, match=r"^q must be sympy Symbols \(x, y = sp\.symbols\('x y'\)"
                                        r"\), got str 'x'$"):
        spring(q=["x"])
    with pytest.raises(TypeError, match=r"^q must be plain sympy Symbols, not dynamicsymbols "
                                        r"x\(t\); use sp\.symbols\(\.\.\.\): x, xdot = "
                                        r"sp\.symbols\('x xdot'\)$"):
        spring(q=[dynamicsymbols("x")])
    with pytest.raises(TypeError, match=r"^u must be sympy Symbols .* got str 'u_1'$"):
        spring(u=["u_1"], definitions=[dot_symbol(x)])


def test_a_parameter_default_that_is_not_finite_is_named():
    with pytest.raises(ValueError, match=r"^the default of m must be a finite number, got nan$"):
        Parameter(m, float("nan"), 0.1, 5.0)
    with pytest.raises(ValueError, match=r"^the high of m must be a finite number, got '5'$"):
        Parameter(m, 1.0, 0.1, "5")


def test_linearize_names_its_own_argument_for_an_unknown_key():
    with pytest.raises(ValueError, match=r"unknown initial condition\(s\) u_9; known: x, .* "
                                         r"\(the keys of linearize's nominal\)"):
        spring().linearize({"u_9": 1.0})


def test_a_singular_parameter_without_description_has_no_empty_brackets():
    bead = spring(T=m * k * dot_symbol(x) ** 2 / 2, parameters=[
        Parameter(m, 1.0, 0.1, 5.0, positive=True), Parameter(k, 4.0, 0.0, 10.0)])
    with pytest.raises(ValueError, match=r"^k = 0 makes the equations of spring singular from "
                                         r"the start \(with k = 4 they are not\)"):
        bead.simulate(params={"k": 0.0})


def test_text_is_read_with_the_declared_symbols():
    """"I/2*v**2" means the parameter I (positive), not sympy's imaginary unit or a new I."""
    v, inertia = sp.Symbol("v"), sp.Symbol("I", positive=True)
    spec = dict(q=[x], qdot=[v], parameters=[Parameter(inertia, 1.0, 0.1, 5.0, positive=True)],
                Q_q=["-I*x"], initial=[Parameter(x, 0.5, -1, 1), Parameter(v, 0.0, -1, 1)])
    typed = System(name="typed", T_qdot="I/2*v**2", **spec)
    assert typed.definition.T_qdot == inertia / 2 * v**2
    assert typed.definition.Q_q == (-inertia * x,)
    built = System(name="built", T_qdot=inertia / 2 * v**2, **spec)
    assert np.array_equal(typed.simulate(1.0).states, built.simulate(1.0).states)


def test_compare_methods_takes_one_system_alone():
    from companion import compare_methods

    one = spring()
    methods = [r.method for r in compare_methods(one).rows]
    assert "boltzmann_hamel" in methods and methods == [r.method for r in
                                                        compare_methods([one]).rows]


def test_a_scene_of_a_closed_explorer_says_build_a_new_one():
    from companion import explore
    from companion.scene import scene_for

    explorer = explore(spring())
    explorer.close()
    with pytest.raises(RuntimeError, match=r"^this explorer of spring was closed .* build a new "
                                           r"one with explore\(\.\.\.\) and give that to "
                                           r"scene_for$"):
        scene_for(explorer)
