"""Greenwood §4.4: the rolling disk by the alternate form (4.144)–(4.146), momenta resolved in
the heading frame, which does not spin with the disk."""

from companion.examples.record import WorkedExample, part

EXAMPLES = (
    WorkedExample(
        name="rolling_disk_frame",
        system=part(__name__, "system:build"),
        scene=part(__name__, "scene:scene"),
        checks=part(__name__, "checks:checks"),
    ),
)
