"""Statements a professor would strike (issue 37 §1), each pinned by a test: what the wrong
bracket sign does, why Example 4.4's γ's are constant, and which equation numbers the books
print.

The scans read the package's sources, the README and the notebooks' cell sources; a test whose
name ends in ``_in_notebooks`` checks the notebooks' prose (owned by the notebooks).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import sympy as sp

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "companion"
CHAPTERS = ROOT / "chapters"


def _package_texts() -> dict[str, str]:
    return {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
            for p in sorted(PACKAGE.rglob("*.py"))}


def _notebook_texts() -> dict[str, str]:
    """Each notebook cell's source, keyed ``path#cell``."""
    out = {}
    for path in sorted(CHAPTERS.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for i, cell in enumerate(cells):
            out[f"{path.relative_to(ROOT)}#{i}"] = "".join(cell["source"])
    return out


# ------------------------------------------------------------------- the wrong bracket sign
#: "runs backwards", "run backwards", "runs each motion backwards", "time runs backwards"
RUNS_BACKWARDS = re.compile(r"\bruns?\b[^.\n]{0,30}\bbackwards?\b", re.IGNORECASE)


def _runs_backwards(texts: dict[str, str]) -> list[str]:
    return [f"{where}: …{text[max(0, m.start() - 60):m.end() + 20]}…"
            for where, text in texts.items() for m in RUNS_BACKWARDS.finditer(text)]


def test_the_wrong_bracket_sign_is_not_said_to_run_the_motion_backwards():
    texts = {**_package_texts(), "README.md": (ROOT / "README.md").read_text(encoding="utf-8")}
    assert _runs_backwards(texts) == []


def test_the_wrong_bracket_sign_is_not_said_to_run_the_motion_backwards_in_notebooks():
    assert _runs_backwards(_notebook_texts()) == []


def test_the_bracket_sign_exercise_keys_a_different_motion_not_the_time_reversal():
    from companion.examples import exercises_for

    exercise = exercises_for("rigid_body_so3")["bracket_sign"]
    keyed = exercise.options[exercise.right_index()]
    assert keyed.label == "A different motion that is not the time-reversed one"
    assert "−ω(−t)" in keyed.explanation
    reversal = exercise.options[0]
    assert "retraces" in reversal.label and exercise.right_index() != 0


# ------------------------------------------------------------ Example 4.4's γ's are constant
def test_the_knife_edge_frame_is_left_invariant_with_constant_brackets():
    from companion.examples.bridge import computations as c
    from companion.geometry.distribution import lie_bracket

    k = c.knife_edge_frame()
    q = k["q"]
    X1, X2, X3 = k["frame"]
    # [X₁, X₂] = −X₃, [X₂, X₃] = −X₁, [X₁, X₃] = 0 with the package's bracket
    assert (lie_bracket(X1, X2, q) + X3).applyfunc(sp.simplify) == sp.zeros(3, 1)
    assert (lie_bracket(X2, X3, q) + X1).applyfunc(sp.simplify) == sp.zeros(3, 1)
    assert lie_bracket(X1, X3, q) == sp.zeros(3, 1)
    assert all(not (g.free_symbols & set(q)) for g in k["brackets"])
    assert k["brackets"][2][0, 1] == -1 and k["brackets"][0][1, 2] == -1
    assert all(v == sp.zeros(3, 1) for v in k["pushforward"])


def test_fixed_axes_give_gamma_3_12_minus_sec_phi():
    from companion.examples.bridge import computations as c

    k = c.knife_edge_frame()
    phi = k["q"][2]
    assert sp.simplify(k["fixed_axes"][2][0, 1] + sp.sec(phi)) == 0


def test_no_package_text_says_example_4_4s_gammas_come_from_phi_dependent_fields():
    texts = {**_package_texts(), "README.md": (ROOT / "README.md").read_text(encoding="utf-8")}
    assert [w for w, t in texts.items() if re.search(r"φ-dependent (fields|directions)", t)] == []


def test_no_notebook_says_example_4_4s_gammas_come_from_phi_dependent_fields_in_notebooks():
    found = [w for w, t in _notebook_texts().items()
             if re.search(r"φ-dependent (fields|directions)", t)]
    assert found == []
