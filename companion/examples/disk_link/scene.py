"""Scene of the disk on the pivoted link (L&V §7.10–7.11, reconstructed), seen from the side:
the link, the disk with a spoke, the contact forces N and F, the friction cone ±μ_s about the
normal, and the disk coloured by mode (rolling / slipping / flight).  The view follows the
disk (:data:`REACH` link lengths around its centre), as the knife edge's follows its rod: framing
the whole fall left the disk about 25 px across on a projector, its stick–slip unseen."""

from __future__ import annotations

import numpy as np

from companion.examples.disk_link.view import ARROW_SCALE, timeline
from companion.numerics import Trajectory
from companion.scene.describe import at, mode_story
from companion.scene.items import (
    COLORS,
    Arrow,
    Cone,
    Declaration,
    Modes,
    Point,
    Rod,
    disk,
    quaternion_about_z,
)

PHRASES = {"rolling": "rolls", "slipping forward": "slips forward",
           "slipping backward": "slips backward", "separated": "leaves the link",
           "rolling model valid": "rolls", "rolling model violated":
           "would slip (the rolling model no longer holds)"}

#: Link lengths shown on each side of the disk's centre: the force arrows (a quarter of the
#: link for m g, :data:`ARROW_SCALE`) and the friction cone fit, and the default disk (a
#: tenth of the link in radius) spans a quarter of the view's height.
REACH = 0.4


def scene(trajectory: Trajectory) -> Declaration:
    tr, p = trajectory, trajectory.params
    theta = tr["theta"]
    e1 = np.array([np.cos(theta), np.sin(theta)])
    e2 = np.array([-np.sin(theta), np.cos(theta)])
    centre = np.array([tr["x_D"], tr["y_D"]])
    contact = centre - p["r"] * e2
    scale = ARROW_SCALE * p["L"] / (p["m"] * p["g"])
    segments, colors = timeline(tr)
    names = list(colors)
    labels = np.empty(len(tr.t), dtype=int)
    for start, end, label in segments:
        labels[(tr.t >= start) & (tr.t <= end)] = names.index(label)
    modes = Modes(labels, names, [colors[n] for n in names])
    touching = (tr["N"] > 0).astype(float)
    items = [Rod((0.0, 0.0), e1 * p["L"], color=COLORS["link"], width=7.0),
             Point((0.0, 0.0), "#000000", radius=5.0),
             Point(centre, COLORS["path"], radius=1.5, trail=True, label="disk centre"),
             *disk(p["r"], centre, quaternion_about_z(tr["psi"]), modes=modes),
             Cone(contact, e2 * 0.3 * p["L"] * touching, float(np.arctan(p["mu_s"])),
                  label="friction cone ±μ_s"),
             Arrow(contact, e2 * tr["N"] * scale, COLORS["normal"], label="N"),
             Arrow(contact, e1 * tr["F"] * scale, COLORS["friction"], label="F")]
    legend = [(c, n) for n, c in colors.items()]
    story = mode_story(segments, PHRASES, "the disk")
    return Declaration(items, view="2d", aspect=0.75, hud=modes,
                       follow=(centre, REACH * p["L"]),
                       title="Disk on a pivoted link (L&V §7.10–7.11, reconstructed)",
                       legend=[(COLORS["normal"], "N"), (COLORS["friction"], "F"), *legend],
                       description=f"{story[0].upper()}{story[1:]}; the run ends at "
                                   f"{at(tr.t[-1])} with the disk at s = {tr['s'][-1]:.2f} m "
                                   f"on the {p['L']:.2g} m link.")

