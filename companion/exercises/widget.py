"""The exercise widget: prompt, answer box, Check / Hint / Reveal solution.

Plain ipywidgets (``HTMLMath``, ``Textarea``, ``Button``) and no custom JavaScript, so it works
in JupyterLab and in Voilà; text follows the lecture style (:mod:`companion.widgets.style`).
The solution is the engine's derivation, paged with the shared
:class:`companion.widgets.Stepper`.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import ipywidgets as widgets
from sympy import MatrixBase

from companion.exercises.check import Feedback
from companion.widgets import Stepper, style

if TYPE_CHECKING:  # annotations only: ExerciseSet.widget() imports this module
    from companion.exercises.exercise import Exercise, ExerciseSet

_COLORS = {True: "#1a7f37", False: "#b3261e"}


def feedback_html(feedback: Feedback) -> str:
    """A coloured verdict line."""
    verdict = "✔ Right." if feedback.correct else "✘ Not yet."
    return (f"<p style='color:{_COLORS[feedback.correct]};{style.text_css()}'><b>{verdict}</b> "
            f"{html.escape(feedback.message)}</p>")


class ExerciseWidget(widgets.VBox):
    """One exercise; its callbacks can be driven directly in tests (``check()`` etc.)."""

    def __init__(self, exercise: Exercise, number: int | None = None):
        self.exercise = exercise
        self.hints_shown = 0
        heading = f"Exercise {number}: " if number is not None else ""
        self.stepper: Stepper | None = None
        self.prompt = widgets.HTMLMath(
            f"<h4>{html.escape(heading + exercise.title)}</h4>"
            f"<p style='{style.text_css()}'>{exercise.prompt}</p>"
            f"<p style='color:#555'>Type a sympy expression"
            f"{' or matrix' if isinstance(exercise.expected(), MatrixBase) else ''}; names you may "
            f"use: {html.escape(exercise.allowed_names())}. Powers: ** or ^.</p>")
        self.answer = widgets.Textarea(placeholder=exercise.example_answer or "your answer",
                                       layout=widgets.Layout(width="100%", height="4.5em"))
        self.check_button = widgets.Button(description="Check", button_style="primary")
        self.hint_button = widgets.Button(description="Hint")
        self.reveal_button = widgets.Button(description="Reveal solution")
        self.feedback = widgets.HTMLMath("")
        self.hints = widgets.HTMLMath("")
        self.solution = widgets.VBox([])
        self.check_button.on_click(lambda _: self.check())
        self.hint_button.on_click(lambda _: self.next_hint())
        self.reveal_button.on_click(lambda _: self.reveal())
        buttons = widgets.HBox([self.check_button, self.hint_button, self.reveal_button])
        super().__init__([self.prompt, self.answer, buttons, self.feedback, self.hints,
                          self.solution])

    def check(self) -> Feedback:
        """Judge the text in the answer box and show the verdict."""
        result = self.exercise.check(self.answer.value)
        self.feedback.value = feedback_html(result)
        return result

    def next_hint(self) -> str:
        """Show the next progressive hint under the previous ones."""
        text = self.exercise.hint(self.hints_shown)
        self.hints_shown = min(self.hints_shown + 1, len(self.exercise.hints) + 1)
        shown = [self.exercise.hint(k) for k in range(self.hints_shown)]
        self.hints.value = "".join(f"<p style='{style.text_css()}'>Hint {k + 1}: "
                                   f"{html.escape(h)}</p>"
                                   for k, h in enumerate(shown))
        return text

    def reveal(self) -> Stepper:
        """Show the engine's derivation steps leading to the answer, all at once."""
        if self.stepper is None:
            self.stepper = Stepper(self.exercise.solution_steps(),
                                   title="Solution (derived by the engine)")
            self.stepper.show_all = True
            self.solution.children = (self.stepper.widget,)
        return self.stepper


def exercise_set_widget(exercise_set: ExerciseSet) -> widgets.VBox:
    """Every exercise of a worked example, one below the other."""
    items = [ExerciseWidget(ex, i) for i, ex in enumerate(exercise_set, start=1)]
    heading = widgets.HTML(f"<h3>{html.escape(exercise_set.title)}</h3>")
    return widgets.VBox([heading, *items])
