"""What a lecture or a reader sees before pressing anything: no explorer opens on the outcome
of a preset it asks the room to predict; a notebook's headings and exercise numbers read as
one outline; exercise text shown as plain text carries no raw LaTeX."""

from __future__ import annotations

import math
import re
from pathlib import Path

import nbformat
import pytest
from matplotlib.text import Text
from test_teaching import literal_calls

from companion import examples, practice

#: Text between ``$…$`` or ``$$…$$``: MathJax typesets it (the exercise widgets' HTMLMath).
_MATH = re.compile(r"\$\$.*?\$\$|\$.*?\$", re.S)


#: A component of ω written as a program names it, with a raw underscore (ω_x, ω̇_x, omega_x):
#: between dollars it is $\omega_x$.
_RAW_SUBSCRIPT = re.compile(r"ω\u0307?_|omega_")


def _raw_latex(text: str) -> list[str]:
    """The raw LaTeX marks (``^``, a backslash, ω's raw subscript) of ``text`` a reader
    would see."""
    return sorted({mark for mark in ("^", "\\") if mark in text}
                  | {"ω_" for _ in _RAW_SUBSCRIPT.finditer(text)})


def test_exercise_text_shown_as_plain_text_has_no_raw_latex():
    """A choice's label is a radio button's text (no math at all); the title, prompt, hints,
    explanations and closing line are typeset only between dollars: outside them, neither
    "C^j", "ω_x" nor a backslash (write Cʲ, or the math between dollars)."""
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


ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(p for p in (ROOT / "chapters").rglob("*.ipynb")
                   if ".ipynb_checkpoints" not in p.parts)


#: What a notebook's Markdown shows that is not prose: math, code (fenced, inline: its
#: underscores are Python's), a link's target and an HTML tag (a file name, an attribute).
_NOT_PROSE = re.compile(r"\$\$.*?\$\$|\$.*?\$|^```.*?^```|`[^`\n]*`|\]\([^)]*\)"
                        r"|<[A-Za-z/][^>]*>", re.S | re.M)
#: An index written as a program writes it: a letter (with its dots, a superscript or a star),
#: or a closing bracket, then "_" or "^" and the index (Ψ_t, θ_r, ω̇_x, C¹_ik, Q\*_j, Φ_{·1},
#: (ΨΦ)_cr, C^j, e^{λt}).
_RAW_INDEX = re.compile(r"(?:[^\W_]|[)|*])[\u0300-\u036f]*(?:\\?_|\^)(?:\{|[^\W_])")
#: A figure's alt text (Markdown's ![…], HTML's alt="…"): read aloud, never typeset.
_ALT = re.compile(r"!\[([^\]]*)\]|\balt=\"([^\"]*)\"")


def _raw_indices(markdown: str) -> list[str]:
    """Each raw index of a Markdown cell, in its context: outside math, code, link targets and
    HTML tags, and in alt texts, which must carry no math either."""
    text = _NOT_PROSE.sub(" ", markdown)
    raw = [text[max(m.start() - 30, 0):m.end() + 10] for m in _RAW_INDEX.finditer(text)]
    alts = [alt for m in _ALT.finditer(markdown) for alt in m.groups() if alt]
    return raw + [alt for alt in alts if _RAW_INDEX.search(alt) or "$" in alt]


def test_notebook_prose_writes_indices_as_math():
    r"""A notebook's Markdown (its prose, headings, figure descriptions and presenter notes)
    writes an index between dollars ($\omega_x$, $\Psi_t$, $\gamma^j_{rl}$), never raw: MathJax
    leaves "Ψ_t" and "C^j" as they are, and two underscores on a line turn the text between
    them into italics. A figure's alt text names its quantities without underscores or dollars."""
    raw = [(path.name, i, found) for path in NOTEBOOKS
           for i, cell in enumerate(nbformat.read(path, as_version=4).cells)
           if cell.cell_type == "markdown" for found in _raw_indices(cell.source)]
    assert not raw, raw


@pytest.mark.parametrize("markdown, found", [
    ("a quasi-coordinate θ_r", True), ("Σ_j p_j Ψ_ji", True), ("C¹_ik and Q\\*_j", True),
    ("ω̇_x", True), ("(ΨΦ)_{cr}", True), ("type theta_dot", True), ("C^j ≠ 0", True),
    ("$C^j \\neq 0$", False),
    ("a quasi-coordinate $\\theta_r$", False), ("$$\\gamma^j_{rl}$$", False),
    ("type `theta_dot`", False), ("![the knife edge](../images/diagram-knife_edge.png)", False),
    ('<img src="../images/diagram-knife_edge.png" alt="the blade">', False),
    ('<img src="x.png" alt="the force F_r">', True), ("![the angle $\\theta$](x.png)", True),
])
def test_a_raw_index_is_found_outside_math_code_and_file_names(markdown, found):
    """The check above finds a raw index in prose and in alt text, and nowhere else."""
    assert bool(_raw_indices(markdown)) is found


@pytest.mark.usefixtures("widget_backend")
def test_explorer_figures_and_presets_write_components_of_omega_as_math():
    r"""The texts (labels, titles, legends) of every explorer a notebook opens are mathtext
    (r"$\omega_x$"), and its presets' questions (plain text) name no "ω_y" (the polhode's
    axes read ω_x, ω_y, ω_z)."""
    raw = []
    for notebook, name, keywords in _explorers_opened():
        explorer = examples.explorer(name, **keywords)
        try:
            texts = [t.get_text() for t in explorer.figure.findobj(Text)]
            texts += [p.prompt for p in explorer.presets.values()]
            raw += [(notebook, name, t) for t in texts if _RAW_SUBSCRIPT.search(_MATH.sub("", t))]
        finally:
            explorer.close()
    assert not raw, raw


# ------------------------------------------------------------------ explorers open neutral
def _explorers_opened() -> list[tuple[str, str, dict]]:
    """(notebook, example, keyword arguments) of every ``examples.explorer(...)`` call in
    the chapter notebooks, once each."""
    opened = {}
    for path in NOTEBOOKS:
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code":
                for name, keywords in literal_calls(cell.source, "explorer"):
                    opened.setdefault(repr((name, sorted(keywords.items()))),
                                      (path.name, name, keywords))
    return list(opened.values())


def _shows_an_outcome(explorer) -> list[str]:
    """The predict presets whose outcome ``explorer`` shows as it opens: it is not hiding one
    (predicting) and its values are that preset's."""
    if explorer.predicting:
        return []
    values = explorer.values
    return [key for key, preset in explorer.presets.items() if preset.asks
            and all(math.isclose(values[n], v, abs_tol=1e-12) for n, v in preset.values.items())]


@pytest.mark.usefixtures("widget_backend")
def test_no_explorer_opens_on_the_outcome_it_asks_to_predict():
    """Every explorer a chapter notebook opens (on a live canvas, as there) either hides a
    predict preset's outcome until played (opened on that preset) or starts from values no
    predict preset asks about: never the flip already played while preset 1 asks whether it
    flips."""
    shown = []
    for notebook, name, keywords in _explorers_opened():
        explorer = examples.explorer(name, **keywords)
        try:
            shown += [(notebook, name, key) for key in _shows_an_outcome(explorer)]
        finally:
            explorer.close()
    assert not shown, f"explorers opened on the outcome of a predict preset: {shown}"


def _explorers_before_answers(path: Path) -> list[tuple[str, dict, list[str]]]:
    """(example, keyword arguments, predictions) of the explorers ``path`` opens above or
    beside a prediction of that example that sends the reader to an explorer ("press ▶ in
    the explorer below"), up to the cell that answers it (tagged answers-prediction, often
    the explorer itself)."""
    cells = [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
    answered_by = {}  # (example, key) of a prediction → index of the cell that answers it
    for i, cell in enumerate(cells):
        for name, keywords in literal_calls(cell.source):
            keywords.pop("first", None)
            for e in examples.exercises_shown(name, **keywords):
                if getattr(e, "kind", "") == "predict" and "explorer" in e.then:
                    answers = [j for j, c in enumerate(cells) if j >= i
                               and "answers-prediction" in c.metadata.get("tags", [])]
                    answered_by[e.example, e.key] = min(answers, default=len(cells))
    return [(name, keywords, sorted(key for (example, key), j in answered_by.items()
                                    if example == name and i <= j))
            for i, cell in enumerate(cells) for name, keywords in literal_calls(cell.source,
                                                                                "explorer")]


@pytest.mark.usefixtures("widget_backend")
def test_no_explorer_answers_a_prediction_before_the_reader_plays():
    """An explorer above or beside a prediction that is checked in an explorer (up to the cell
    answering it) opens hiding its outcome, on a predict preset, until the reader plays: never
    the knife edge's turning, posed on the explorer's defaults, drawn by the explorer below
    at its defaults before the reader has answered."""
    answered = []
    for path in NOTEBOOKS:
        for name, keywords, asked in _explorers_before_answers(path):
            if asked:
                explorer = examples.explorer(name, **keywords)
                try:
                    answered += [] if explorer.predicting else [(path.name, name, asked)]
                finally:
                    explorer.close()
    assert not answered, f"explorers that open showing the motion a prediction asks: {answered}"


def _phrases(text: str, n: int) -> set[tuple[str, ...]]:
    """Every run of ``n`` words of ``text``, lower case, numbers left out (an equation's
    number is no outcome; LaTeX's ``\\omega_y`` is a word)."""
    words = [w for w in re.findall(r"\w+", text.lower()) if not w.isdigit()]
    return set(zip(*(words[k:] for k in range(n)), strict=False))


def _prints(cell) -> bool:
    """Whether a code cell prints or displays something of its own (not only a widget)."""
    return bool(re.search(r"\b(print|display)\(", cell.source))


def _told_before_answers(path: Path) -> list[str]:
    """What ``path`` tells of an outcome between a prediction (a markdown cell tagged predict)
    and the prose that answers it (the next markdown cell tagged answers-prediction): presenter
    notes sharing a phrase with that answer or with the right option of a predict exercise
    shown there (four words in a row of the answer, three of the option), and code cells
    that print before it, unless tagged answers-prediction (the answer is theirs to print);
    and, when an explorer opens in between, a cell printing just below the answer, before the
    next prose, not tagged answers-prediction (lecture mode holds the answer back until the
    explorer has played, and would show that cell's output in its place)."""
    cells = nbformat.read(path, as_version=4).cells
    tagged = [set(c.metadata.get("tags", [])) for c in cells]
    told = []
    for i, cell in enumerate(cells):
        if cell.cell_type != "markdown" or "predict" not in tagged[i]:
            continue
        ends = [j for j in range(i + 1, len(cells)) if cells[j].cell_type == "markdown"
                and tagged[j] & {"predict", "answers-prediction"}]
        if not ends or "answers-prediction" not in tagged[ends[0]]:
            continue
        end = ends[0]
        outcome = _phrases(cells[end].source, 4)
        for c in cells[i + 1:end]:
            for name, keywords in literal_calls(c.source) if c.cell_type == "code" else ():
                keywords.pop("first", None)
                outcome |= {phrase for e in examples.exercises_shown(name, **keywords)
                            if getattr(e, "kind", "") == "predict"
                            for phrase in _phrases(e.options[e.right_index()].label, 3)}
        for j in range(i + 1, end):
            said = _phrases(cells[j].source, 3) | _phrases(cells[j].source, 4)
            if "presenter-notes" in tagged[j] and said & outcome:
                shared = sorted(" ".join(p) for p in said & outcome)
                told.append(f"{path.name} cell {j}: presenter notes say {shared[:4]}")
            elif (cells[j].cell_type == "code" and _prints(cells[j])
                  and "answers-prediction" not in tagged[j]):
                told.append(f"{path.name} cell {j}: prints before the answer (cell {end})")
        if not any(literal_calls(c.source, "explorer") for c in cells[i + 1:end]
                   if c.cell_type == "code"):
            continue
        for j in range(end + 1, len(cells)):
            if cells[j].cell_type == "markdown":
                break
            if _prints(cells[j]) and "answers-prediction" not in tagged[j]:
                told.append(f"{path.name} cell {j}: prints below the answer (cell {end}),"
                            " shown in its place in lecture mode")
    return told


def test_no_note_or_output_tells_the_outcome_before_its_answer():
    """Between a prediction and its answer, presenter notes (visible in JupyterLab and the
    static book) say what to do, not what happens, and no code cell prints an outcome: not the
    knife edge's "Show: the turning dies out while v grows", nor its energy drift printed
    under the explorer while lecture mode held the answer back."""
    told = [line for path in NOTEBOOKS for line in _told_before_answers(path)]
    assert not told, "\n".join(told)


# ------------------------------------------------------------------ a notebook's outline
_HEADING = re.compile(r"^ {0,3}(#{1,3})\s+(.+?)\s*#*\s*$", re.M)
_HTML_HEADING = re.compile(r"<h[1-3][^>]*>(.*?)</h[1-3]>", re.S | re.I)
_FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def _shown_exercises(source: str) -> list[tuple[str, list[int]]]:
    """The ``show_exercises(...)`` and ``practice.show(...)`` calls of a code cell, in order
    (a cell has one or the other): the heading each shows
    (an h3; none when empty) and the numbers of its exercises, as the call makes them."""
    shown = []
    for name, keywords in literal_calls(source):
        first = keywords.pop("first", 1)
        exercise_set = examples.exercises_shown(name, **keywords)
        shown.append((exercise_set.title, list(range(first, first + len(exercise_set)))))
    for name, keywords in literal_calls(source, "show", "practice"):  # a practice set's
        first = keywords.get("first", 1)
        chosen = practice.exercise_set(name).chosen(keywords["only"])
        shown.append((keywords.get("title") or "", list(range(first, first + len(chosen)))))
    return shown


def _outline(path: Path) -> tuple[list[str], list[int]]:
    """The h1–h3 headings of a notebook as its page shows them (its markdown's and the
    exercise sets' titles), and the numbers of its exercises, in page order."""
    headings, numbers = [], []
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "markdown":
            text = _FENCE.sub("", cell.source)
            found = [(m.start(), m.group(2)) for m in _HEADING.finditer(text)]
            found += [(m.start(), re.sub(r"<[^>]+>", "", m.group(1)).strip())
                      for m in _HTML_HEADING.finditer(text)]
            headings += [title for _, title in sorted(found)]
        elif cell.cell_type == "code":
            for title, shown in _shown_exercises(cell.source):
                headings += [title] if title else []  # an exercise shown alone has none
                numbers += shown
    return headings, numbers


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_a_notebook_reads_as_one_outline(path):
    """No h1–h3 heading twice in a notebook (two "From before" sets under one title read as
    one), and its exercises numbered 1, 2, 3 … down the page, never "Exercise 1" twice."""
    headings, numbers = _outline(path)
    twice = sorted({h for h in headings if headings.count(h) > 1})
    assert not twice, f"{path.name}: headings shown twice: {twice}"
    assert numbers == list(range(1, len(numbers) + 1)), (
        f"{path.name}: exercise numbers down the page {numbers}: give show_exercises "
        "first= the number after those above it")
