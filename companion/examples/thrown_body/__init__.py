"""Loparo & Vakalis §7.4–7.6: a tumbling body thrown in gravity (rotation on SO(3), the mass
centre on a parabola)."""

from companion.examples.record import WorkedExample, part
from companion.examples.rigid_body_so3 import NOTEBOOK

EXAMPLES = (
    WorkedExample(
        name="thrown_body",
        system=part(__name__, "system:build"),
        scene=part(__name__, "scene:scene"),
        notebook=NOTEBOOK,
        explorer=part(__name__, "view:explorer"),
    ),
)
