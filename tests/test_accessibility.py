"""What the kernel gives screen readers and keyboards (issue 38; the browser half is in
tests/test_browser_a11y.py): each explorer's figure has a text alternative that follows the
motion, its status line starts with the outcome and hides the timing, a figure outside an
explorer is named by its panels, and controls whose labels were hidden have names."""

from __future__ import annotations

import html

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from companion import examples  # noqa: E402
from companion.exercises import widget as exercise_widgets  # noqa: E402
from companion.widgets import Stepper, style  # noqa: E402
from companion.widgets.responsive import STATUS_CLASS, figure_summary  # noqa: E402


def test_explorer_figure_description_follows_the_motion():
    ex = examples.explorer("knife_edge")
    try:
        before = ex.fitter.probe.description
        assert before == ex.describe() and ex.system.title in before
        ex.update(u_2=ex.range_of("u_2")[1])
        assert ex.fitter.probe.description == ex.describe() != before
    finally:
        ex.close()


def test_status_line_announces_the_outcome_not_the_timing():
    ex = examples.explorer("knife_edge")
    try:
        assert STATUS_CLASS in ex.readout._dom_classes
        outcome = html.escape(ex.view.describe(ex.trajectory))
        assert f"<span class='{style.SCREEN_READER_CLASS}'>{outcome}</span>" in ex.readout.value
        assert "<span aria-hidden='true'>simulated in" in ex.readout.value
        ex._set_predicting(True)  # the outcome is not told while the reader predicts
        assert f"<span class='{style.SCREEN_READER_CLASS}'></span>" in ex.readout.value
        assert ex.view.describe(ex.trajectory) not in ex.fitter.probe.description
    finally:
        ex.close()


def test_a_figure_outside_an_explorer_is_named_by_its_panels():
    fig, (a, b) = plt.subplots(1, 2)
    try:
        a.set_title("energy")
        a.set(xlabel="t [s]", ylabel="E [J]")
        b.set_ylabel("λ [N]")
        fig.suptitle("The knife edge")
        assert figure_summary(fig) == ("Figure The knife edge: energy (E [J] against t [s]); "
                                       "(λ [N])")
        assert figure_summary(plt.figure()) == "Figure"
    finally:
        plt.close("all")


def test_stepper_step_list_is_named():
    stepper = Stepper(examples.get("knife_edge").derive("boltzmann_hamel"))
    assert stepper._jump.description == "step"


def test_every_exercise_box_has_its_class_and_choices_24_px_rows():
    ex = next(e for e in examples.exercises_for("knife_edge").exercises
              if getattr(e, "options", None) is not None)
    box = exercise_widgets.exercise_widget(ex)
    assert exercise_widgets.EXERCISE_CLASS in box._dom_classes
    assert exercise_widgets.CHOICES_CLASS in box.choices._dom_classes
    assert "min-height: 24px" in exercise_widgets.CHOICES_CSS
