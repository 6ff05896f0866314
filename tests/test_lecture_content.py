"""What a lecture or a reader sees before pressing anything: no explorer opens on the outcome
of a preset it asks the room to predict; a notebook's headings and exercise numbers read as
one outline; exercise text shown as plain text carries no raw LaTeX."""

from __future__ import annotations

import re

from companion import examples

#: Text between ``$…$`` or ``$$…$$``: MathJax typesets it (the exercise widgets' HTMLMath).
_MATH = re.compile(r"\$\$.*?\$\$|\$.*?\$", re.S)


def _raw_latex(text: str) -> list[str]:
    """The raw LaTeX marks (``^``, a backslash) of ``text`` a reader would see."""
    return sorted({mark for mark in ("^", "\\") if mark in text})


def test_exercise_text_shown_as_plain_text_has_no_raw_latex():
    """A choice's label is a radio button's text (no math at all); the title, prompt, hints,
    explanations and closing line are typeset only between dollars: outside them, neither
    "C^j" nor a backslash (write Cʲ, or the math between dollars)."""
    raw = []
    for name in examples.exercise_set_names():
        for exercise in examples.exercises_for(name):
            typeset = [exercise.title, exercise.prompt, *exercise.hints]
            options = getattr(exercise, "options", None) or ()
            typeset += [o.explanation for o in options] + [getattr(exercise, "then", "")]
            raw += [(name, exercise.key, "label", o.label) for o in options
                    if _raw_latex(o.label) or "$" in o.label]
            raw += [(name, exercise.key, "text", t) for t in typeset
                    if _raw_latex(_MATH.sub("", t))]
    assert not raw, raw
