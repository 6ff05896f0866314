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


# ------------------------------------------------------------------- the books' equation numbers
#: "(4.85)", "(7.2)", "(4.131, by position)": an equation label of either book, with the mark of
#: a number placed by its position in the text (a section is written "§7.4").
LABEL = re.compile(r"\(([47]\.\d+)(, by position)?\)")


def _unknown_labels(texts: dict[str, str]) -> list[str]:
    """Labels that are no number of the books, placed numbers without their mark, and printed
    numbers wearing it."""
    from companion.book.numbers import NUMBERS, PLACED

    return sorted({f"{where}: {m.group(0)}" for where, text in texts.items()
                   for m in LABEL.finditer(text)
                   if f"({m.group(1)})" not in NUMBERS
                   or (f"({m.group(1)})" in PLACED) != bool(m.group(2))})


def test_a_placed_number_without_its_mark_or_a_printed_one_with_it_is_caught():
    texts = {"a": "d'Alembert (4.124) and (4.85, by position); (4.131, by position), (4.85)."}
    assert _unknown_labels(texts) == ["a: (4.124)", "a: (4.85, by position)"]


def test_the_placed_numbers_are_the_ones_the_fact_sheet_does_not_print():
    from companion.book.numbers import BY_POSITION, NUMBERS, PLACED

    spec = Path("/work/shared/spec/greenwood-ch4.md")
    if spec.exists():  # the fact sheet sits outside the repository
        printed = set(re.findall(r"\(4\.\d+\)", spec.read_text(encoding="utf-8")))
        printed |= {f"(4.{n})" for a, b in re.findall(r"\(4\.(\d+)\)[–-]\(4\.(\d+)\)",
                                                      spec.read_text(encoding="utf-8"))
                    for n in range(int(a), int(b) + 1)}
        assert set(PLACED) == {n for n in NUMBERS if n.startswith("(4.")} - printed
    assert set(PLACED) <= set(NUMBERS) and BY_POSITION == ", by position"
    assert all("placed" in NUMBERS[n] for n in PLACED)


def test_the_table_of_numbers_names_an_object_for_each_and_only_the_books_numbers():
    from companion.book.numbers import GREENWOOD, LOPARO, NUMBERS

    assert list(GREENWOOD) == [f"(4.{n})" for n in range(81, 147)]
    assert list(LOPARO) == ["(7.1)", "(7.2)"] and len(NUMBERS) == 68
    assert all(len(what) > 5 for what in NUMBERS.values())
    assert "(4.80)" not in NUMBERS  # before our copy of §4.3 starts


def test_every_label_in_the_package_and_readme_is_a_number_the_books_print():
    """Step labels, verify rows, docstrings and the README: every (4.xx)/(7.x) is printed."""
    texts = {**_package_texts(), "README.md": (ROOT / "README.md").read_text(encoding="utf-8")}
    del texts["companion/book/numbers.py"]  # the table itself, keyed by the bare numbers
    assert _unknown_labels(texts) == []


def test_every_label_in_the_notebooks_is_a_number_the_books_print_in_notebooks():
    assert _unknown_labels(_notebook_texts()) == []


def test_every_derivation_step_and_verify_row_cites_a_printed_number():
    """The labels as the reader sees them (built at run time), on the Greenwood examples."""
    from companion import examples
    from companion.book.numbers import NUMBERS
    from companion.examples.dumbbell_rigid.system import dalembert_steps
    from companion.verify import all_checks

    labels = {c.eq for c in all_checks(["knife_edge", "dumbbell_rigid", "rolling_disk_frame",
                                        "polar_spring"])}
    for name in ("knife_edge", "euler_body", "rolling_disk_frame"):
        system = examples.get(name)
        labels |= {st.eq or "" for m in ("boltzmann_hamel", "kane")
                   for st in system.derive(m).steps}
    labels |= {st.eq or "" for st in dalembert_steps(examples.get("dumbbell_rigid"))}
    cited = {f"({n})" for label in labels for n, _ in LABEL.findall(label)}
    assert cited - set(NUMBERS) == set()
    for number in ("(4.127, by position)", "(4.128, by position)", "(4.131, by position)",
                   "(4.141, by position)", "(4.82, by position)", "(4.81)", "(4.144)"):
        assert number in " ".join(labels) or number in _kane_texts(), number


def _kane_texts() -> str:
    """What the general dynamical equation's steps say (where (4.141, by position) and (4.145)
    are named)."""
    from companion import examples

    steps = examples.get("rolling_disk_frame").derive("kane").steps
    return " ".join(st.explanation for st in steps)


def test_the_alternate_form_names_its_momenta_by_their_numbers():
    from companion import examples

    steps = examples.get("rolling_disk_frame").derive("kane").steps
    alternate = next(st for st in steps if st.key == "alternate_form")
    assert alternate.eq == "(4.144)–(4.146)"
    assert "ṗ_i (4.145)" in alternate.explanation and "Ḣ_i (4.146)" in alternate.explanation
    assert "(4.144)" in alternate.explanation
    assert "(4.141, by position)" in next(st for st in steps
                                          if st.key == "equations").explanation


def test_unconstrained_kinematics_cite_4_81_and_the_definition_of_u_no_number():
    from companion import examples

    d = examples.get("euler_body").derive("boltzmann_hamel")
    assert d.steps[-1].key == "kinematical_equations" and d.steps[-1].eq == "(4.81)"
    assert examples.get("polar_spring").derive("boltzmann_hamel").step("psi").eq is None
    knife = examples.get("knife_edge").derive("lagrange_multipliers")
    assert knife.step("constraints").eq is None


# ------------------------------------------------------------------------- over-attributions
def test_verify_printed_group_holds_only_printed_results():
    """λ = m v φ̇ and the multiplier equations are not printed in our copy; results by another
    method are agreements of methods."""
    from companion.checks import CONSISTENCY, PRINTED, RECONSTRUCTION
    from companion.verify import all_checks

    checks = all_checks(["knife_edge", "knife_edge_kane", "dumbbell_rigid"])
    kind = {c.what: c.kind for c in checks}
    printed = [c.what for c in checks if c.kind == PRINTED]
    assert not [w for w in printed if "λ" in w or "multiplier" in w or "Maggi" in w
                or "general dynamical equation" in w or "rigid body" in w]
    assert kind["knife-edge force λ = m v φ̇ from the unreduced r = 3 row"] == RECONSTRUCTION
    assert kind["knife edge: Lagrange's equations with a multiplier"] == RECONSTRUCTION
    assert kind["knife edge: Maggi's equations reduce to these"] == CONSISTENCY
    assert kind["rigid body: general dynamical equation gives Euler's"] == CONSISTENCY
    assert len(printed) == 13  # Example 4.4: Ψ, T, Φ, C¹–C³, γ¹–γ³, ∂T/∂u, gyro, eqs, kinematics


def test_so3_specialisations_are_credited_to_section_7_4_as_the_spec_gives_them():
    """The fact sheet lists so(3) ≅ (IR³, ×), A = diag(I₁, I₂, I₃) and B = A⁻¹((Ac)×a) among
    §7.4's statements: the steps cite §7.4 and nothing says the chapter keeps them general."""
    from companion import examples

    steps = {st.key: st for st in examples.get("rigid_body_so3").derive("arnold").steps}
    for key in ("bracket", "inertia_operator", "b_operator"):
        assert steps[key].eq == "§7.4", (key, steps[key].eq)
    assert "diag(I₁, I₂, I₃)" in steps["inertia_operator"].explanation
    keeps_general = re.compile(r"keeps? (B |A |the )?(in )?(the )?general", re.IGNORECASE)
    texts = {**_package_texts(), **_notebook_texts()}
    assert [w for w, t in texts.items() if keeps_general.search(t)] == []


def test_every_reconstruction_says_so_in_its_title_and_its_late_section_labels():
    from companion import examples

    for notebook, _ in examples.notebooks():
        if re.search(r"§7\.([5-9]|1[01])", notebook.title):
            assert "reconstructed" in notebook.title, notebook.title
    for name in ("double_pendulum", "disk_link_rolling", "disk_link_friction"):
        labels = [st.eq for st in examples.get(name).derive("pull_back").steps
                  if st.eq and re.search(r"§7\.(7|9|10)\b", st.eq)]
        assert labels and all("(reconstructed)" in e for e in labels), (name, labels)
