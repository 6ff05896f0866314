"""One colour per body across explorer, scene and legend (issue 27 §1 item 9): each explorer's
lines have the colour the scene beside it gives the same body or force."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

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
