"""Greenwood §4.4: the rolling disk by the alternate form (4.144)–(4.146), momenta resolved in
the heading frame, which does not spin with the disk."""

from companion.examples.record import Part, worked_example

EXAMPLES = (
    worked_example(
        __name__, "rolling_disk_frame",
        # moves as the rolling disk: the same scene
        scene=Part("companion.examples.rolling_disk.scene", "scene"),
        checks="checks:checks",
    ),
)
