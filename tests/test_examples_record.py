"""A slice registers its worked examples with ``worked_example``: parts named in the slice."""

from __future__ import annotations

import pytest

from companion.examples import Part, worked
from companion.examples.record import worked_example

SLICE = "companion.examples.knife_edge"


def test_worked_example_names_its_slices_parts_with_the_defaults():
    record = worked_example(SLICE, "mine", explorer="view:explorer",
                            exercises=("Exercises", "exercises:knife_edge"))
    assert record.system == Part(f"{SLICE}.system", "build")
    assert record.scene == Part(f"{SLICE}.scene", "scene")
    assert record.explorer == Part(f"{SLICE}.view", "explorer")
    assert record.exercises == ("Exercises", Part(f"{SLICE}.exercises", "knife_edge"))
    assert (record.checks, record.independent, record.variants, record.notebook) == (None,) * 4


def test_a_part_of_another_slice_is_kept_and_a_registered_one_resolves():
    elsewhere = Part("companion.examples.euler_body.scene", "scene")
    assert worked_example(SLICE, "mine", scene=elsewhere).scene is elsewhere
    assert worked("knife_edge").scene.resolve().__module__ == f"{SLICE}.scene"


def test_a_part_without_its_attribute_is_refused():
    with pytest.raises(ValueError, match="a part is 'module:attribute', got 'view'"):
        worked_example(SLICE, "mine", explorer="view")
