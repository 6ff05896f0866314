"""One colour per body across explorer, scene and legend (issue 27 §1 item 9): each explorer's
lines have the colour the scene beside it gives the same body or force."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_hex, to_rgb  # noqa: E402

from companion import examples  # noqa: E402


def _scene_colours(name: str, trajectory) -> dict[str, str]:
    """Label → colour of every labelled item the scene declares for this trajectory."""
    declaration = examples.worked(name).scene.resolve()(trajectory)
    return {item.label: to_hex(item.color) for item in declaration.items
            if getattr(item, "label", "") and hasattr(item, "color")}


def _colour(artist) -> str:
    colour = artist.get_color() if hasattr(artist, "get_color") else artist.get_facecolor()
    return to_hex(colour[0] if hasattr(colour, "ndim") and colour.ndim == 2 else colour)


# example → pairs (scene label, explorer attribute holding the same body's artist)
PAIRS = {
    "knife_edge": [("particle 1 (knife edge)", "path1"), ("particle 2", "path2"),
                   ("λ (blade force)", "lam")],
    "sphere_particle": [("particle path", "path"), ("particle path", "dot"),
                        ("reaction", "arrow"), ("reaction", "normal")],
    "double_pendulum": [("tip", "trail_line"), ("pin force", "arrows")],
    "rigid_body_so3": [("H", "momentum")],
    "thrown_body": [("H", "momentum"), ("path of the centre", "path")],
}


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_explorer_and_scene_agree_on_colours(name):
    ex = examples.explorer(name)
    try:
        scene = _scene_colours(name, ex.trajectory)
        for label, attribute in PAIRS[name]:
            assert label in scene, f"{name}: the scene has no item {label!r}: {sorted(scene)}"
            assert _colour(getattr(ex.view, attribute)) == scene[label], (name, label)
    finally:
        plt.close(ex.figure)


def test_knife_edge_legend_names_the_particles_in_their_colours():
    ex = examples.explorer("knife_edge")
    try:
        legend = ex.view.axes[0].get_legend()
        shown = {t.get_text(): to_hex(h.get_color())
                 for t, h in zip(legend.get_texts(), legend.legend_handles, strict=True)}
        scene = _scene_colours("knife_edge", ex.trajectory)
        assert shown["particle 1 (knife)"] == scene["particle 1 (knife edge)"]
        assert shown["particle 2"] == scene["particle 2"]
        assert "blue" not in ex.view.axes[0].get_title()  # no colour named in words
    finally:
        plt.close(ex.figure)


# --------------------------------------------------------------- colour-vision deficiencies
# Issue 38 item 4 (WCAG 1.4.1 A, 1.4.11 AA): colours that must be told apart stay at least
# MIN_DELTA_E apart (CIEDE2000) for readers with protanopia, deuteranopia or tritanopia, as
# simulated by Machado, Oliveira & Fernandes (2009), severity 1, on linear sRGB.

#: The smallest CIEDE2000 difference between two colours that must be told apart.
MIN_DELTA_E = 10.0

MACHADO_2009 = {
    "protanopia": np.array([[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "tritanopia": np.array([[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602],
                            [0.004733, 0.691367, 0.303900]]),
}
_SRGB_TO_XYZ = np.array([[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750],
                         [0.0193339, 0.1191920, 0.9503041]])
_D65 = np.array([0.95047, 1.0, 1.08883])


def lab(colour, deficiency: str | None = None) -> np.ndarray:
    """CIELAB (D65) of a matplotlib colour, as seen with ``deficiency`` (a MACHADO_2009 key)."""
    srgb = np.asarray(to_rgb(colour))
    linear = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
    if deficiency is not None:
        linear = np.clip(MACHADO_2009[deficiency] @ linear, 0.0, 1.0)
    xyz = _SRGB_TO_XYZ @ linear / _D65
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def ciede2000(lab1, lab2) -> float:
    """CIEDE2000 colour difference (Sharma, Wu & Dalal 2005, eqs. 1–21)."""
    (L1, a1, b1), (L2, a2, b2) = lab1, lab2
    c_mean = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_mean**7 / (c_mean**7 + 25.0**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = np.hypot(a1, b1), np.hypot(a2, b2)
    h1, h2 = np.degrees(np.arctan2(b1, a1)) % 360, np.degrees(np.arctan2(b2, a2)) % 360
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    d_hue = 2 * np.sqrt(c1 * c2) * np.sin(np.radians(dh / 2))
    l_mean, c_mean = (L1 + L2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (1 - 0.17 * np.cos(np.radians(h_mean - 30)) + 0.24 * np.cos(np.radians(2 * h_mean))
         + 0.32 * np.cos(np.radians(3 * h_mean + 6)) - 0.20 * np.cos(np.radians(4 * h_mean - 63)))
    rotation = -np.sin(np.radians(60 * np.exp(-(((h_mean - 275) / 25) ** 2)))) * 2 * np.sqrt(
        c_mean**7 / (c_mean**7 + 25.0**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / np.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_mean, 1 + 0.015 * c_mean * t
    dl, dc = (L2 - L1) / s_l, (c2 - c1) / s_c
    dhh = d_hue / s_h
    return float(np.sqrt(dl**2 + dc**2 + dhh**2 + rotation * dc * dhh))


def closest_pair(colours) -> tuple[float, str | None, tuple[str, str]]:
    """The smallest ΔE between two distinct colours of ``colours``, under normal vision and each
    simulated deficiency: (ΔE, deficiency or None, the pair)."""
    distinct = sorted({to_hex(c) for c in colours})
    return min((ciede2000(lab(a, d), lab(b, d)), d, (a, b))
               for d in (None, *MACHADO_2009)
               for k, a in enumerate(distinct) for b in distinct[k + 1:])


def test_ciede2000_matches_sharma_s_test_data():
    assert ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)
    assert ciede2000((50, 2.5, 0), (50, 0, -2.5)) == pytest.approx(4.3065, abs=1e-4)


def test_matplotlib_s_default_cycle_fails_and_okabe_ito_passes():
    """The check can fail: matplotlib's own cycle has pairs under ΔE 10 (orange and green 1.3
    apart under protanopia, what the issue measured)."""
    default = plt.rcParamsDefault["axes.prop_cycle"].by_key()["color"]
    delta, deficiency, pair = closest_pair(default)
    assert delta < 2 and deficiency == "protanopia" and pair == ("#2ca02c", "#ff7f0e")


def _palettes() -> dict[str, list[str]]:
    from companion.examples.disk_link import view as disk_link
    from companion.examples.knife_edge import scene as knife_edge
    from companion.examples.nonholonomic import view as steering
    from companion.scene import keyframes, points
    from companion.scene.items import COLORS
    from companion.widgets import style

    return {
        "explorer cycle (every reading)": style.PROJECTOR_COLOURS,
        # every scene colour but the grey of a trail (a thin line behind a moving point)
        "scene": [c for name, c in COLORS.items() if name != "path"],
        "workbench points": list(points._PALETTE),
        "knife edge particles and force": [*knife_edge.PARTICLE_COLORS.values(),
                                           knife_edge.FORCE_COLOR],
        "steering path and target": [*knife_edge.PARTICLE_COLORS.values(),
                                     steering.TARGET_COLOR],
        # and the grey of a disk whose mode a prediction hides
        "disk–link modes": [*disk_link.MODE_COLORS.values(), keyframes.NEUTRAL_COLOR],
        "disk–link validity": list(disk_link.VALIDITY_COLORS.values()),
    }


@pytest.mark.parametrize("palette", sorted(_palettes()))
def test_palette_is_told_apart_under_colour_vision_deficiencies(palette):
    delta, deficiency, pair = closest_pair(_palettes()[palette])
    assert delta >= MIN_DELTA_E, (
        f"{palette}: {pair[0]} and {pair[1]} are ΔE {delta:.1f} apart "
        f"under {deficiency or 'normal vision'} (at least {MIN_DELTA_E} needed)")


def test_scene_omega_and_h_and_n_and_f_and_body_axes_differ():
    """The pairs the issue names, drawn together in one scene."""
    from companion.scene.items import COLORS

    for group in (("omega", "H", "x", "y", "z", "body"), ("normal", "friction", "link")):
        assert len({COLORS[k] for k in group}) == len(group), group


def test_disk_link_n_and_f_differ_by_line_style_too():
    """Not by colour alone (WCAG 1.4.1): N and F are one solid and one dashed curve."""
    ex = examples.explorer("disk_link_friction")
    try:
        assert ex.view.N.get_linestyle() != ex.view.F.get_linestyle()
    finally:
        ex.close()


def test_scene_arrows_are_labelled():
    """A scene's arrows carry their names beside their tips: never told apart by colour alone."""
    from companion.scene.items import Arrow

    for name in ("rigid_body_so3", "disk_link_friction", "sphere_particle"):
        ex = examples.explorer(name)
        try:
            declaration = examples.worked(name).scene.resolve()(ex.trajectory)
            arrows = [item for item in declaration.items if isinstance(item, Arrow)]
            assert arrows and all(a.label for a in arrows), name
        finally:
            ex.close()
