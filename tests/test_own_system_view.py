"""A system of your own gets a first view worth keeping (issue 36, "Seeing your own system"):
quantities of one kind per panel, the speeds shown, the declared forces in reach, and a
scene (and its static filmstrip) that follows a small mechanism along a long path."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
import sympy as sp  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from companion import Evaluation, Parameter, System, explore  # noqa: E402
from companion.model import CONSTRAINT_FORCES, KINETIC_ENERGY  # noqa: E402
from companion.numerics import Trajectory  # noqa: E402
from companion.scene import scene_for  # noqa: E402
from companion.scene.filmstrip import draw_frame  # noqa: E402
from companion.scene.items import (
    Point,  # noqa: E402
    Rod,  # noqa: E402
)
from companion.scene.keyframes import build  # noqa: E402
from companion.scene.points import points_declaration  # noqa: E402
from companion.widgets.timeseries import (  # noqa: E402
    RANGE_RATIO,
    TimeSeriesView,
    by_range,
    coordinate_kinds,
    first_controls,
)


def robot(**changes) -> System:
    """A differential-drive robot: body at (x, y) heading φ, wheels θ_L, θ_R of radius r a
    half-track b from the middle, three rolling constraints, a torque on each wheel; its
    wheels' and centre's points as series unless ``changes`` says otherwise."""
    x, y, phi, thL, thR = sp.symbols("x y phi theta_L theta_R")
    xd, yd, phid, thLd, thRd = sp.symbols("xdot ydot phidot thetadot_L thetadot_R")
    u = sp.symbols("u_1:6")
    m, inertia, J, r, b, tau_L, tau_R = sp.symbols("m I J r b tau_L tau_R")
    definitions = [thLd, thRd,
                   xd * sp.cos(phi) + yd * sp.sin(phi) - r * (thLd + thRd) / 2,
                   -xd * sp.sin(phi) + yd * sp.cos(phi),
                   phid - r * (thRd - thLd) / (2 * b)]
    T = m * (xd**2 + yd**2) / 2 + inertia * phid**2 / 2 + J * (thLd**2 + thRd**2) / 2
    return System(
        name="robot", q=[x, y, phi, thL, thR], qdot=[xd, yd, phid, thLd, thRd], u=list(u),
        definitions=definitions, T_qdot=T, n_constraints=3, Q_q=[0, 0, 0, tau_L, tau_R],
        parameters=[Parameter(m, 4.0, 1, 10, "kg"), Parameter(inertia, 0.1, 0.01, 1, "kg·m²"),
                    Parameter(J, 0.002, 0.0005, 0.01, "kg·m²"), Parameter(r, 0.05, 0.02, 0.1, "m"),
                    Parameter(b, 0.15, 0.05, 0.3, "m"), Parameter(tau_L, 0.02, -0.1, 0.1, "N·m"),
                    Parameter(tau_R, 0.03, -0.1, 0.1, "N·m")],
        initial=[*(Parameter(s, 0.0, -1, 1) for s in (x, y, phi, thL, thR)),
                 Parameter(u[0], 5.0, -20, 20), Parameter(u[1], 5.0, -20, 20)],
        evaluation=Evaluation(**{
            "series": {"x_L": x - b * sp.sin(phi), "y_L": y + b * sp.cos(phi), "x_C": x,
                       "y_C": y, "x_R": x + b * sp.sin(phi), "y_R": y - b * sp.cos(phi)},
            **changes}))


@pytest.fixture(scope="module")
def system() -> System:
    return robot()


def test_coordinates_are_grouped_by_kind_and_the_speeds_shown(system):
    assert coordinate_kinds(system) == {"x": "length", "y": "length", "phi": "angle",
                                        "theta_L": "angle", "theta_R": "angle"}
    view = TimeSeriesView.for_system(system)
    # no unit given for x, y: SI's m; u_1, u_2 are defined as wheel rates: rad/s
    assert view.panels == [("Positions", ["x", "y"], "m"),
                           ("Angles", ["phi", "theta_L", "theta_R"], "rad"),
                           ("Angular speeds", ["u_1", "u_2"], "rad/s")]
    assert view.path == ("x", "y")


def test_speeds_are_split_by_unit_and_angles_by_range():
    """The robot of issue 36 as its user wrote it: u_1 in m/s and u_2 in rad/s get a panel
    each, every panel names its unit, and the heading φ (118 rad over the first motion) gets
    a panel apart from the wheel angles (516 and 988 rad): on their axis it was flat."""
    x, y, phi, thL, thR = sp.symbols("x y phi theta_L theta_R")
    xd, yd, phid, thLd, thRd = sp.symbols("xdot ydot phidot thetadot_L thetadot_R")
    u = sp.symbols("u_1:6")
    M, mw, inertia, J, r, b = sp.symbols("M m_w I J r b", positive=True)
    tL, tR = sp.symbols("tau_L tau_R", real=True)
    v = xd * sp.cos(phi) + yd * sp.sin(phi)
    T = ((M + 2 * mw) * (xd**2 + yd**2) / 2 + (inertia + 2 * mw * b**2) * phid**2 / 2
         + J * (thLd**2 + thRd**2) / 2)
    user = System(
        name="robot", q=[x, y, phi, thL, thR], qdot=[xd, yd, phid, thLd, thRd], u=list(u),
        definitions=[v, phid, -xd * sp.sin(phi) + yd * sp.cos(phi),
                     v - b * phid - r * thLd, v + b * phid - r * thRd],
        T_qdot=T, n_constraints=3, Q_q=[0, 0, 0, tL, tR],
        parameters=[Parameter(M, 2.0, 0.5, 10.0, "kg"), Parameter(mw, 0.3, 0.05, 2.0, "kg"),
                    Parameter(inertia, 0.1, 0.01, 1.0, "kg·m²"),
                    Parameter(J, 0.01, 0.001, 0.1, "kg·m²"), Parameter(r, 0.1, 0.02, 0.5, "m"),
                    Parameter(b, 0.2, 0.05, 1.0, "m"), Parameter(tL, 0.05, -1.0, 1.0, "N·m"),
                    Parameter(tR, 0.1, -1.0, 1.0, "N·m")],
        initial=[Parameter(x, 0.0, -5, 5, "m"), Parameter(y, 0.0, -5, 5, "m"),
                 Parameter(phi, 0.0, -3.14, 3.14, "rad"), Parameter(thL, 0.0, -10, 10, "rad"),
                 Parameter(thR, 0.0, -10, 10, "rad"), Parameter(u[0], 0.5, -2, 2, "m/s"),
                 Parameter(u[1], 1.0, -3, 3, "rad/s")])
    explorer = explore(user, t_final=20.0)
    try:
        shown = [(ax.get_title(), ax.get_ylabel(), sorted(line.get_label()
                  for line in ax.get_lines())) for ax in explorer.figure.axes]
        assert shown[:-1] == [("Positions", "[m]", ["x", "y"]),
                              ("Angles (θ_L, θ_R)", "[rad]", ["θ_L", "θ_R"]),
                              ("Angles (φ)", "[rad]", ["φ"]),
                              ("Speeds", "[m/s]", ["u_1"]),
                              ("Angular speeds", "[rad/s]", ["u_2"])]
        assert shown[-1][0] == "Path"
        path = explorer.figure.axes[-1]
        assert (path.get_xlabel(), path.get_ylabel()) == ("x [m]", "y [m]")
        spans = {n: np.ptp(explorer.trajectory[n]) for n in ("phi", "theta_L", "theta_R")}
        assert spans["theta_R"] > RANGE_RATIO * spans["phi"]
        assert spans["theta_R"] < RANGE_RATIO * spans["theta_L"]
        # each panel keeps its legible height: the figure grew with the split
        assert explorer.fitter.nominal_inches[1] == pytest.approx(1.9 * 5)
    finally:
        explorer.close()


def test_angles_are_grouped_by_range_deterministically():
    from companion.numerics import Trajectory

    t = np.linspace(0.0, 1.0, 5)
    series = {"a": 100 * t, "b": 1000 * t, "c": 0 * t, "d": 900 * t, "e": 15 * t}
    trajectory = Trajectory(t=t, states=np.zeros((0, 5)), names=[], params={}, series=series)
    # b, d within 5× of b; a more than 5× below b starts a group; e more than 5× below a
    # another, which c (still) joins
    assert by_range(trajectory, list(series)) == [["b", "d"], ["a"], ["c", "e"]]
    assert by_range(trajectory, ["c"]) == [["c"]]


def test_a_unit_names_the_kind_before_the_name_does():
    q, qd = sp.symbols("theta s"), sp.symbols("thetadot sdot")
    m = sp.Symbol("m", positive=True)
    slider = System(name="slider", q=list(q), qdot=list(qd), T_qdot=m * (qd[0]**2 + qd[1]**2) / 2,
                    parameters=[Parameter(m, 1.0, 0.5, 2.0, "kg")],
                    initial=[Parameter(q[0], 0.0, -1, 1, "m"), Parameter(q[1], 0.0, -1, 1),
                             Parameter(qd[0], 1.0, -1, 1), Parameter(qd[1], 0.0, -1, 1)])
    assert coordinate_kinds(slider) == {"theta": "length", "s": "length"}


def test_the_explorer_shows_a_panel_per_kind_and_the_torques_first(system):
    explorer = explore(system, t_final=4.0)
    try:
        assert explorer.essential[:4] == ["tau_L", "tau_R", "u_1", "u_2"]
        assert first_controls(system) == explorer.essential
        titles = [ax.get_title() for ax in explorer.figure.axes]
        plotted = {ax.get_title(): {line.get_label() for line in ax.get_lines()}
                   for ax in explorer.figure.axes}
        assert titles[-1] == "Path" and plotted["Angular speeds"] == {"u_1", "u_2"}
        assert "angular speeds: u_1, u_2" in explorer.describe()
    finally:
        explorer.close()


def test_a_small_body_on_a_long_path_is_drawn_whole_and_followed(system):
    trajectory = system.simulate(20.0)
    declaration = points_declaration(trajectory)
    rods = [item for item in declaration.items if isinstance(item, Rod)]
    assert len(rods) == 2  # L–C and C–R: one body
    centre, reach = declaration.follow
    b = trajectory.params["b"]
    assert reach == pytest.approx(2.5 * b)  # the wheels are b from the centroid
    np.testing.assert_allclose(centre[:2], [trajectory["x"], trajectory["y"]], atol=1e-12)
    # the filmstrip follows too: each frame centred on the robot, its reach around it
    keyframes = build(declaration, trajectory.t)
    ax = Figure().add_subplot()
    frame = keyframes.n_frames - 1
    draw_frame(ax, keyframes, frame)
    middle = keyframes.value(keyframes.spec["follow"]["point"], frame)
    assert np.mean(ax.get_xlim()) == pytest.approx(middle[0])
    assert np.ptp(ax.get_xlim()) == pytest.approx(2 * reach)


def test_points_that_move_apart_are_not_joined_nor_followed():
    from companion.numerics import Trajectory

    t = np.linspace(0.0, 1.0, 11)
    trajectory = Trajectory(t=t, states=np.zeros((0, 11)), names=[], params={},
                            series={"x_a": t, "y_a": 0 * t, "x_b": 0 * t, "y_b": 2 * t})
    declaration = points_declaration(trajectory)
    assert not any(isinstance(item, Rod) for item in declaration.items)
    assert declaration.follow is None


def test_a_system_without_series_is_drawn_at_its_coordinates_x_y():
    """Issue 36: a robot of one's own that declares no series gets a scene of the point
    (x, y) its coordinates name, rather than "no points to draw"."""
    explorer = explore(robot(series=None), t_final=4.0)
    try:
        scene = scene_for(explorer)
        trajectory = explorer.trajectory
        declaration = points_declaration(trajectory)
        (point,) = [item for item in declaration.items if isinstance(item, Point)]
        np.testing.assert_array_equal(point.position[:2], [trajectory["x"], trajectory["y"]])
        assert "point travels" in scene.caption
    finally:
        explorer.close()


def test_a_system_without_x_y_is_told_how_to_declare_its_points():
    t = np.linspace(0.0, 1.0, 3)
    trajectory = Trajectory(t=t, states=np.array([t, t]), names=["s", "theta"], params={})
    with pytest.raises(ValueError, match=r"no coordinates x, y .*"
                       r"System\(\.\.\., evaluation=Evaluation\(series=\{'x': x, 'y': y\}\)\)"):
        points_declaration(trajectory)


def test_declared_observables_get_a_panel_per_kind(system):
    """The robot's three constraint forces (λ_0, λ_1 along the rolling and lateral
    constraints, in m/s: N; λ_2 along the turning one, in rad/s: N·m) and its kinetic energy:
    forces with forces, torques with torques, the energy alone, each with its unit."""
    observed = robot(observables={"lambda": CONSTRAINT_FORCES, "T": KINETIC_ENERGY})
    explorer = explore(observed, t_final=4.0)
    try:
        shown = {ax.get_title(): (ax.get_ylabel(), [line.get_label() for line in ax.get_lines()])
                 for ax in explorer.figure.axes}
        assert shown["Constraint forces"] == ("[N]", ["λ_0", "λ_1"])
        assert shown["Constraint torques"] == ("[N·m]", ["λ_2"])
        assert shown["Kinetic energy"] == ("[J]", ["T"])
        # what is plotted is the trajectory's own observable
        line = explorer.view.lines["lambda_2"]
        np.testing.assert_array_equal(line.get_ydata(), explorer.trajectory["lambda_2"])
    finally:
        explorer.close()


def test_legends_cover_no_point_of_the_curves():
    """At a phone's, a narrow notebook's and a wide screen's width (stacked, and beside the
    path), no legend hides a point of its panel's curves (upper right, the robot's rising
    wheel angles ran under it: 25 to 122 points per panel)."""
    explorer = explore(robot(observables={"lambda": CONSTRAINT_FORCES}), t_final=10.0)
    try:
        for width_px in (360, 700, 1400):
            explorer.fitter.fit(width_px)
            explorer.figure.canvas.draw()
            for ax in explorer.view.axes_t:
                box = ax.get_legend().get_window_extent()
                for line in ax.get_lines():
                    shown = line.get_transform().transform(line.get_xydata())
                    covered = ((shown > box.min) & (shown < box.max)).all(axis=1)
                    assert not covered.any(), (width_px, ax.get_title(), covered.sum())
    finally:
        explorer.close()
