"""What a reader sees of the checker: one verdict per answer (no "Not yet. Not yet:"), alias
hints rendered as math, placeholders that show a shape and never the answer, solutions hidden
until asked, and choice exercises whose right option the engine decides."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import sympy as sp

from companion import examples
from companion.exercises.check import Feedback, compare
from companion.exercises.exercise import ChoiceExercise, Exercise
from companion.exercises.parse import parse_answer
from companion.exercises.widget import ChoiceWidget, ExerciseWidget, exercise_widget, feedback_html

CHAPTERS = Path(__file__).resolve().parents[1] / "chapters"
ALL = [(name, ex) for name in examples.exercise_set_names()
       for ex in examples.exercises_for(name)]
TYPED = [(n, e) for n, e in ALL if isinstance(e, Exercise)]
CHOICES = [(n, e) for n, e in ALL if isinstance(e, ChoiceExercise)]


def _ids(items):
    return [f"{n}-{e.key}" for n, e in items]


@pytest.mark.parametrize("feedback", [
    Feedback(False, "Entries (1, 2) (row, column) are wrong; the others are right.", "entries"),
    Feedback(True, "Correct (proved symbolically).", "correct", "proven"),
    Feedback(True, "It matches the right answer at 10 random points.", "correct", "numeric"),
    Feedback(False, "Could not decide in time: too slow.", "timeout", "undecided"),
])
def test_the_verdict_is_said_once(feedback):
    text = re.sub("<[^>]+>", "", feedback_html(feedback))
    for word in ("Not yet", "Right", "Agrees", "Undecided", "Correct"):
        assert text.count(word) <= 1, text
    assert ("Right" in text) == feedback.proven


def test_entry_messages_do_not_repeat_the_verdict():
    x, y = sp.symbols("x y")
    feedback = compare(sp.Matrix([[1, x], [y, 2]]), parse_answer("[[1, x], [y, 3]]",
                                                                {"x": x, "y": y}))
    assert feedback.hint_kind == "entries" and not feedback.message.startswith("Not yet")
    assert feedback_html(feedback).count("Not yet") == 1


def test_alias_hints_are_math_not_raw_latex():
    kane = examples.exercises_for("knife_edge_kane")["Qstar_1"]
    names = kane.allowed_names()
    assert r"<code>u_1dot</code> for $\dot{u_{1}}$" in names
    outside_math = re.sub(r"\$[^$]*\$", "", names)
    assert "\\" not in outside_math, outside_math  # every LaTeX command is inside $...$
    widget = ExerciseWidget(kane, 1)
    assert r"$\dot{u_{1}}$" in widget.how.value


def _placeholder_readings(text: str) -> list[str]:
    """The placeholder as typed, and with its gaps filled by 0 and by 1."""
    return [text, text.replace("...", "0"), text.replace("...", "1")]


@pytest.mark.parametrize("name, ex", TYPED, ids=_ids(TYPED))
def test_placeholder_shows_a_shape_never_the_answer(name, ex):
    assert ex.example_answer, f"{ex.key}: no placeholder"
    for reading in _placeholder_readings(ex.example_answer):
        feedback = ex.check(reading)
        assert not feedback.correct, f"{ex.key}: the placeholder {reading!r} is the answer"


@pytest.mark.parametrize("name, ex", ALL, ids=_ids(ALL))
def test_solution_is_hidden_until_asked(name, ex):
    widget = exercise_widget(ex, 1)
    assert widget.solution.children == () and widget.stepper is None
    if isinstance(ex, Exercise):
        expected = sp.latex(ex.expected())
        if len(expected) > 12:  # a long answer must not appear in the prompt
            assert expected not in widget.prompt.value
        for step in ex.steps_before():  # a derivation step's context holds no answer
            objects = step.expr if isinstance(step.expr, (list, tuple)) else [step.expr]
            assert all(sp.sympify(o) != ex.expected() for o in objects), step.title
    if ex.solution is not None:
        widget.reveal()
        assert widget.solution.children == (widget.stepper.widget,)


# --------------------------------------------------------------------------- choices
@pytest.mark.parametrize("name, ex", CHOICES, ids=_ids(CHOICES))
def test_each_choice_has_explained_feedback_and_one_right_option(name, ex):
    right = ex.right_index()
    verdicts = [ex.check(k) for k in range(len(ex.options))]
    assert [v.correct for v in verdicts].count(True) == 1 and verdicts[right].correct
    for option, verdict in zip(ex.options, verdicts, strict=True):
        assert option.explanation in verdict.message and len(option.explanation) > 30
        if ex.kind == "predict":
            assert ex.then and ex.then in verdict.message
    assert ex.check(None).hint_kind == "unreadable"
    assert len({o.label for o in ex.options}) == len(ex.options) >= 3


def test_every_notebook_asks_for_understanding():
    """What each worked-example notebook shows includes a prediction or a conceptual choice,
    and at least three notebooks ask for a prediction."""
    shown_by_notebooks = set()
    for notebook in CHAPTERS.glob("*/*.ipynb"):
        shown_by_notebooks |= set(re.findall(r'show_exercises\(\\"(\w+)\\"[,)]',
                                             notebook.read_text()))
    assert "polar_spring" in shown_by_notebooks and len(shown_by_notebooks) >= 9
    kinds = {name: {getattr(e, "kind", "compute") for e in examples.exercises_for(name)}
             for name in shown_by_notebooks}
    missing = [n for n, k in kinds.items() if not k & {"predict", "concept"}]
    assert not missing, missing
    predicts = [n for n, k in kinds.items() if "predict" in k]
    assert len(predicts) >= 3, predicts


def test_the_right_option_follows_the_engine(monkeypatch):
    """With every C^j forced to zero by a perturbed engine, the engine's answer to "which
    C^j vanish" and "is u₂ a coordinate rate" changes: the right option is derived."""
    from companion.mechanics import quasi_velocities as qv

    knife = examples.exercises_for("knife_edge")["which_C"]
    polar = examples.exercises_for("polar_spring")["which_C"]
    before = knife.right_index(), polar.right_index()
    real_c = qv.c_matrices
    monkeypatch.setattr(qv, "c_matrices", lambda psi, q: [0 * c for c in real_c(psi, q)])
    after = (knife.right_index(examples.build("knife_edge")),
             polar.right_index(examples.build("polar_spring")))
    assert before == (0, 0) and after == (3, 1)


def test_a_prediction_is_final_once_checked():
    name, ex = next((n, e) for n, e in CHOICES if e.kind == "predict")
    widget = ChoiceWidget(ex, 1)
    widget.check_button.click()
    assert "Choose one" in widget.feedback.value and not widget.choices.disabled
    widget.choices.index = (ex.right_index() + 1) % len(ex.options)
    assert not widget.check().correct and widget.choices.disabled
    assert ex.then.split()[0] in widget.feedback.value
