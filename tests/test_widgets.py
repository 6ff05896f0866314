"""The shared widgets driven without a browser: stepper navigation and static view, explorer
updates in place, errors shown in the readout, play control."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from companion import examples  # noqa: E402
from companion.widgets import Explorer, PlayControl, Stepper, View, use_lecture_style  # noqa: E402


@pytest.fixture(scope="module")
def derivation():
    return examples.get("knife_edge").derive("boltzmann_hamel")


class PathView(View):
    """Minimal view: the path of particle 1."""

    def setup(self, fig, trajectory):
        self.ax = fig.add_subplot()
        (self.line,) = self.ax.plot(trajectory["x"], trajectory["y"])

    def refresh(self, trajectory):
        self.line.set_data(trajectory["x"], trajectory["y"])

    def describe(self, trajectory):
        return "path of particle 1"


# ----------------------------------------------------------------------------- stepper
def test_stepper_navigation(derivation):
    s = Stepper(derivation)
    assert s.n_steps == len(derivation.steps) and s.index == 0
    s.previous()
    assert s.index == 0
    s.next()
    s.next()
    assert s.index == 2
    s.go(s.n_steps - 1)
    s.next()
    assert s.index == s.n_steps - 1
    s._jump.value = 1  # the dropdown jumps
    assert s.index == 1
    assert "Step 2 of" in s._header.value
    assert s.steps[1].latex() in s._math.value
    with pytest.raises(ValueError, match="step index"):
        s.go(s.n_steps)


def test_stepper_show_all_and_static(derivation):
    s = Stepper(derivation, title="Knife edge")
    s.show_all = True
    for k in range(s.n_steps):
        assert s.latex(k) in s._math.value
    bundle = s._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    md, plain = bundle["text/markdown"], bundle["text/plain"]
    for k, step in enumerate(derivation.steps):
        assert f"Step {k + 1} of {s.n_steps}" in md and f"Step {k + 1} of" in plain
        assert step.latex() in md
        if step.eq:
            assert step.eq in md
    assert "(4.110)" in md and "(4.80)" not in md  # the example's own numbers (issue 27)


def test_stepper_refuses_empty():
    with pytest.raises(ValueError, match="no steps"):
        Stepper([])


# ----------------------------------------------------------------------------- explorer
@pytest.fixture
def explorer():
    ex = Explorer(examples.get("knife_edge"), PathView(), simulate_kwargs={"n_points": 200})
    yield ex
    plt.close(ex.figure)


def test_explorer_controls_default_to_everything(explorer):
    system = explorer.system
    assert set(explorer.controls) == {p.name for p in (*system.parameters, *system.initial)}
    slider = explorer.controls["l"]
    assert (slider.min, slider.max, slider.value) == (0.2, 3.0, 1.0)


def test_explorer_update_redraws_in_place(explorer):
    before = np.array(explorer.view.line.get_xydata())
    figs = plt.get_fignums()
    traj = explorer.update(u_2=-2.0)
    assert traj is explorer.trajectory
    assert explorer.controls["u_2"].value == -2.0
    after = np.array(explorer.view.line.get_xydata())
    assert not np.allclose(before, after)
    np.testing.assert_allclose(after[:, 1], traj["y"])
    for k in range(50):
        explorer.update(l=0.5 + 0.02 * k)
    assert plt.get_fignums() == figs
    assert explorer.view.line.figure is explorer.figure


def test_slider_change_resimulates(explorer):
    old = explorer.trajectory
    explorer.controls["u_1"].value = 1.0
    assert explorer.trajectory is not old
    assert explorer.trajectory["u_1"][0] == 1.0


@pytest.mark.parametrize("bad", [{"m": -1.0}, {"l": float("nan")}, {"m": "heavy"}, {"zz": 1.0}])
def test_explorer_bad_values_shown_not_raised(explorer, bad):
    good = explorer.trajectory
    assert explorer.update(**bad) is None
    assert explorer.error and "Cannot simulate" in explorer.readout.value
    assert explorer.trajectory is good
    assert explorer.controls["m"].value == 1.0 and explorer.controls["l"].value == 1.0
    assert explorer.update(m=2.0) is not None  # recovers, the bad value is dropped
    assert explorer.error is None and "drift" in explorer.readout.value


def test_explorer_static_fallback(explorer):
    bundle = explorer._repr_mimebundle_()
    assert "path of particle 1" in bundle["text/plain"]
    assert 'alt="' in bundle["text/html"] and "data:image/png;base64," in bundle["text/html"]
    assert explorer._image.value[:4] == b"\x89PNG"


def test_explorer_unknown_control():
    with pytest.raises(ValueError, match="no parameter or initial condition named"):
        Explorer(examples.get("knife_edge"), PathView(), controls=["mass"])


def test_lecture_style_enlarges_figure():
    use_lecture_style(True)
    try:
        ex = Explorer(examples.get("knife_edge"), PathView(), controls=["m"],
                      simulate_kwargs={"n_points": 50})
        assert ex.view.line.get_linewidth() == 2.5
        plt.close(ex.figure)
    finally:
        use_lecture_style(False)


def test_lecture_style_has_a_page_half_and_a_projector_palette():
    from companion.widgets import style

    assert use_lecture_style(False).data == ""
    try:
        sheet = use_lecture_style(True).data
        assert "celltag_" + style.HIDE_TAG in sheet and "--jp-content-font-size1" in sheet
        with style.rc_context():
            colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        assert colours == style.PROJECTOR_COLOURS
    finally:
        use_lecture_style(False)
    with style.rc_context():  # the palette told apart under colour-vision deficiencies
        assert plt.rcParams["axes.prop_cycle"].by_key()["color"] == style.PROJECTOR_COLOURS
        assert plt.rcParams["lines.linewidth"] != style.LECTURE_RC["lines.linewidth"]


def test_projector_palette_keeps_each_cycle_colour_hue():
    """One colour per body in lecture mode too: C0, C1, C2 stay blue, orange, green (within
    45° of hue of matplotlib's default cycle; its blue and green lie 80° apart), so a body's
    colour named in a title or drawn in its scene holds on the projector."""
    import colorsys

    from matplotlib.colors import to_rgb

    from companion.widgets import style

    default = plt.rcParamsDefault["axes.prop_cycle"].by_key()["color"]
    for ours, theirs in zip(style.PROJECTOR_COLOURS[:3], default[:3], strict=True):
        hue = [360 * colorsys.rgb_to_hsv(*to_rgb(c))[0] for c in (ours, theirs)]
        assert min(abs(hue[0] - hue[1]), 360 - abs(hue[0] - hue[1])) < 45, (ours, theirs)


def test_lecture_curves_arrows_and_legends_share_the_projector_palette():
    """The disk–link's N and F: curve, scene arrow and legend handle in one colour each, the
    projector's; the friction cone's legend patch the cone's colour — as drawn, outside the
    style's context (a line's "Cn" is resolved when it is drawn, a collection's when made)."""
    from matplotlib.colors import to_hex

    from companion.widgets import style

    use_lecture_style(True)
    try:
        ex = examples.explorer("disk_link_friction")
    finally:
        use_lecture_style(False)
    try:
        ex.figure.canvas.draw()
        view = ex.view
        n_arrow, f_arrow = (to_hex(c) for c in view.arrows.get_facecolor())
        assert to_hex(view.N.get_color()) == n_arrow and to_hex(view.F.get_color()) == f_arrow
        assert {n_arrow, f_arrow} <= {c.lower() for c in style.PROJECTOR_COLOURS}
        legend = view.time_axes[1].get_legend()
        cone, n_handle, f_handle = legend.legend_handles
        assert to_hex(cone.get_facecolor()) == to_hex(view.cone.get_facecolor()[0])
        assert to_hex(n_handle.get_color()) == n_arrow and to_hex(f_handle.get_color()) == f_arrow
    finally:
        ex.close()


def test_voila_lecture_template_includes_the_one_style_sheet():
    from companion.widgets import style

    template = style.LECTURE_CSS.parent
    assert template.name == style.VOILA_TEMPLATE
    assert "{% include 'lecture.css' %}" in (template / "index.html.j2").read_text()
    assert '"base_template": "lab"' in (template / "conf.json").read_text()


def test_slider_labels_keep_their_subscripts():
    from companion.widgets import labels

    label = labels.with_unit("omega_x", "rad/s")
    assert "<sub>" not in label and labels.SUBSCRIPT_SPAN + "x</span>" in label
    assert label.startswith("ω") and label.endswith("[rad/s]")


# ----------------------------------------------------------------------------- play
def test_play_control_caps_frames_and_maps_samples():
    seen = []
    play = PlayControl(600, seen.append, max_frames=200)
    assert play.n_frames == 200
    play._slider.value = 199
    play.show(100)
    assert seen[0] == 599 and seen[1] == round(100 * 599 / 199)
    play.set_samples(50)
    assert play.n_frames == 50 and play.sample_index(49) == 49
