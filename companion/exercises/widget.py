"""The exercise widgets: prompt, answer box or choices, Check / Hint / Reveal solution.

Plain ipywidgets (``HTMLMath``, ``Textarea``, ``RadioButtons``, ``Button``) and no custom
JavaScript, so they work in JupyterLab and in Voilà; text follows the lecture style
(:mod:`companion.widgets.style`).  The solution is the engine's derivation, paged with the
shared :class:`companion.widgets.Stepper`, and stays hidden until the reader asks for it.
In graded mode (:mod:`companion.exercises.graded`) there is neither Check nor Reveal: the
answer box and the hints only.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import ipywidgets as widgets
from sympy import MatrixBase

from companion.exercises.check import NUMERIC, PROVEN, UNDECIDED, Feedback
from companion.widgets import Stepper, style

if TYPE_CHECKING:  # annotations only: ExerciseSet.widget() imports this module
    from companion.exercises.exercise import ChoiceExercise, Exercise, ExerciseSet

#: Verdict line per verdict: mark, words, colour.
_VERDICTS = {
    PROVEN: ("✔", "Right.", "#1a7f37"),
    NUMERIC: ("≈", "Agrees numerically.", "#1a5f7f"),
    UNDECIDED: ("⧗", "Undecided.", "#8a5a00"),
}
_WRONG = ("✘", "Not yet.", "#b3261e")
#: Shown under an exercise in graded mode, in place of Check and Reveal.
GRADED_NOTE = ("<p style='color:#555'><i>Graded: your answer is judged when the assignment is "
               "graded; no check and no solution here.</i></p>")


def feedback_html(feedback: Feedback) -> str:
    """A coloured verdict line: the verdict once, then the checker's message."""
    mark, words, colour = _VERDICTS.get(feedback.verdict, _WRONG)
    return (f"<p style='color:{colour}'><b>{mark} {words}</b> "
            f"{html.escape(feedback.message)}</p>")


def _text(body: str) -> str:
    return f"<p>{body}</p>"


class _Base(widgets.VBox):
    """Heading, prompt, hints and the hidden solution shared by both kinds of exercise;
    ``given`` (widgets shown above how to answer) and the answer area are each kind's."""

    def __init__(self, exercise, number: int | None, answer_area: list, how: str,
                 given: tuple = ()):
        self.exercise = exercise
        self.hints_shown = 0
        self.stepper: Stepper | None = None
        heading = f"Exercise {number}: " if number is not None else ""
        self.prompt = widgets.HTMLMath(f"<h4>{html.escape(heading + exercise.title)}</h4>"
                                       + _text(exercise.prompt))
        self.how = widgets.HTMLMath(_text(f"<span style='color:#555'>{how}</span>"))
        self.check_button = widgets.Button(description="Check", button_style="primary")
        self.hint_button = widgets.Button(description="Hint")
        self.reveal_button = widgets.Button(description="Reveal solution")
        self.feedback = widgets.HTMLMath("")
        self.hints = widgets.HTMLMath("")
        self.solution = widgets.VBox([])  # empty until the reader asks
        self.check_button.on_click(lambda _: self.check())
        self.hint_button.on_click(lambda _: self.next_hint())
        self.reveal_button.on_click(lambda _: self.reveal())
        sealed = exercise.graded()
        buttons = [] if sealed else [self.check_button]
        if exercise.hints:
            buttons.append(self.hint_button)
        if exercise.solution is not None and not sealed:
            buttons.append(self.reveal_button)
        self.feedback.value = GRADED_NOTE if sealed else ""
        super().__init__([self.prompt, *given, self.how, *answer_area, widgets.HBox(buttons),
                          self.feedback, self.hints, self.solution])
        self.add_class(EXERCISE_CLASS)

    def next_hint(self) -> str:
        """Show the next progressive hint under the previous ones."""
        text = self.exercise.hint(self.hints_shown)
        self.hints_shown = min(self.hints_shown + 1, len(self.exercise.hints) + 1)
        shown = [self.exercise.hint(k) for k in range(self.hints_shown)]
        self.hints.value = "".join(_text(f"Hint {k + 1}: {html.escape(h)}")
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


class ExerciseWidget(_Base):
    """An exercise answered by typing; callbacks can be driven directly in tests."""

    def __init__(self, exercise: Exercise, number: int | None = None):
        matrix = (" or matrix" if exercise.graded() or isinstance(exercise.expected(), MatrixBase)
                  else "")
        how = (f"Type a sympy expression{matrix}; names you may use: "
               f"{exercise.allowed_names()}. Powers: ** or ^.")
        self.answer = widgets.Textarea(placeholder=exercise.example_answer or "your answer",
                                       layout=widgets.Layout(width="100%", height="4.5em"))
        self.given: Stepper | None = None
        steps = exercise.steps_before()
        if steps:  # opened at its last step; the reader can page back
            self.given = Stepper(steps, title="The derivation so far")
            self.given.go(len(steps) - 1)
        super().__init__(exercise, number, [self.answer], how,
                         () if self.given is None else (self.given.widget,))

    def check(self) -> Feedback:
        """Judge the text in the answer box and show the verdict."""
        result = self.exercise.check(self.answer.value)
        self.feedback.value = feedback_html(result)
        return result


#: CSS class of every exercise's box.
EXERCISE_CLASS = "companion-exercise"
#: CSS class of a choice exercise's options.
CHOICES_CLASS = "companion-choices"
#: Each option a target at least 24 CSS px tall (WCAG 2.5.8; ipywidgets' rows are 20 px).
CHOICES_CSS = (f"<style>.{CHOICES_CLASS} .widget-radio-box label {{ height: auto; "
               "min-height: 24px; line-height: 24px; }</style>")


class ChoiceWidget(_Base):
    """A conceptual question or a prediction: choose, then Check (a prediction is final)."""

    def __init__(self, exercise: ChoiceExercise, number: int | None = None):
        self.choices = widgets.RadioButtons(options=[o.label for o in exercise.options],
                                            value=None, layout=widgets.Layout(width="100%"))
        self.choices.add_class(CHOICES_CLASS)
        how = ("Commit to a prediction, then check it and run the explorer to see."
               if exercise.kind == "predict" and not exercise.graded() else "Choose one answer.")
        sheet = widgets.HTML(CHOICES_CSS, layout=widgets.Layout(height="0px"))
        super().__init__(exercise, number, [sheet, self.choices], how)

    def check(self) -> Feedback:
        """Judge the chosen option; a prediction cannot be changed once checked."""
        index = self.choices.index
        result = self.exercise.check(index)
        self.feedback.value = feedback_html(result)
        if self.exercise.kind == "predict" and index is not None:
            self.choices.disabled = True
        return result


def exercise_widget(exercise: Exercise | ChoiceExercise, number: int | None = None) -> _Base:
    """The widget of one exercise of either kind."""
    return (ChoiceWidget if hasattr(exercise, "options") else ExerciseWidget)(exercise, number)


def _fold(summary: str, body: str) -> str:
    return f"<details class='book-exercise-part'><summary>{summary}</summary>{body}</details>"


def exercise_html(exercise: Exercise | ChoiceExercise, number: int | None = None, *,
                  solved: bool = True) -> str:
    """One exercise for a page without widgets (an HTML export, the static book): the prompt
    and the choices, then each hint, the derivation so far and the solution folded in
    ``<details>``; the solution is the engine's (its right option, its derivation steps).

    ``solved=False``: the prompt and the choices only (nothing derived), and where the rest is.
    """
    heading = f"Exercise {number}: " if number is not None else ""
    parts = [f"<h4>{html.escape(heading + exercise.title)}</h4>", _text(exercise.prompt)]
    options = getattr(exercise, "options", None)
    choices = [] if options is None else ["<ol type='a'>" + "".join(
        f"<li>{html.escape(o.label)}</li>" for o in options) + "</ol>"]
    if not solved:
        return "".join([*parts, *choices, _text(
            "<i>Answer it in the live notebook: its hints and the engine's solution are "
            "there.</i>")])
    given = [] if options is not None else exercise.steps_before()
    if given:
        parts.append(_fold("The derivation so far", Stepper(given).html()))
    parts += choices
    parts += [_fold(f"Hint {k}", _text(html.escape(hint)))
              for k, hint in enumerate(exercise.hints, start=1)]
    solution = []
    if options is not None:
        right = options[exercise.right_index()]
        solution.append(_text(f"<b>{html.escape(right.label)}</b> — "
                              f"{html.escape(right.explanation)} {html.escape(exercise.then)}"))
    steps = exercise.solution_steps()
    if steps:
        solution.append(Stepper(steps).html())
    if solution:
        parts.append(_fold("Solution (derived by the engine)", "".join(solution)))
    return "".join(parts)


class ExerciseSetBox(widgets.VBox):
    """Every exercise of a worked example, one below the other, and the same exercises as HTML
    for a page without widgets (:func:`exercise_html`): their prompts and choices, and in a
    kernel run for a static page (:func:`companion.widgets.style.static_page`) the hints and
    the engine's solutions too (which take up to seconds to derive: a live reader asks for one
    at a time).  The exercises are numbered from ``first``."""

    def __init__(self, exercise_set: ExerciseSet, first: int = 1):
        self.exercise_set = exercise_set
        self.first = first
        items = [exercise_widget(ex, i) for i, ex in enumerate(exercise_set, start=first)]
        super().__init__([widgets.HTML(self._heading()), *items])

    def _heading(self) -> str:
        """The set's title as an h3 (none for a set without one: an exercise shown alone)."""
        title = self.exercise_set.title
        return f"<h3>{html.escape(title)}</h3>" if title else ""

    def _repr_mimebundle_(self, **kwargs) -> dict:
        bundle = dict(super()._repr_mimebundle_(**kwargs) or {})
        solved = style.static_page()
        bundle["text/html"] = self._heading() + "".join(
            exercise_html(ex, i, solved=solved)
            for i, ex in enumerate(self.exercise_set, start=self.first))
        return bundle
