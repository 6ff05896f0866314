"""``verify`` covers Loparo §7.2–7.6, and its checks fail on a wrong table entry."""

from __future__ import annotations

import pytest

from companion import verify
from companion.book import loparo
from companion.examples.rigid_body_so3 import checks as rigid_body_so3
from companion.examples.sphere_particle import checks as sphere_particle


def _checks(table: dict) -> list:
    return [*sphere_particle.checks(table["sphere_particle"]),
            *rigid_body_so3.checks(table["rigid_body_so3"])]


def test_loparo_results_are_in_the_verify_table():
    listed = {c.what for c in verify.all_checks()}
    assert {c.what for c in _checks(loparo.PRINTED)} <= listed


def test_every_loparo_check_matches():
    outcomes = verify.run_checks(_checks(loparo.PRINTED))
    bad = [(o.check.eq, o.check.what, o.detail) for o in outcomes if not o.matched]
    assert not bad
    assert {o.check.eq for o in outcomes} >= {"(7.1)", "(7.2)", "§7.3", "§7.4", "§7.5",
                                              "Lemma 7.1"}


@pytest.mark.parametrize("name, wrong, eq", [
    ("EULER", ["(I_3 - I_2)*w_2*w_3/I_1", "(I_3 - I_1)*w_3*w_1/I_2",
               "(I_1 - I_2)*w_1*w_2/I_3"], "I₁ω̇₁"),
    ("B_SO3", "A**-1 * a.cross(A*c)", "equals A⁻¹"),
    ("LEMMA_7_1_FACTOR", 1.0, "L_exp(a)*"),
])
def test_checks_can_fail(name, wrong, eq):
    table = {**loparo.PRINTED["rigid_body_so3"], name: wrong}
    (check,) = [c for c in rigid_body_so3.checks(table) if eq in c.what]
    matched, _ = check.run()
    assert not matched


def test_the_companions_derivations_are_not_attributed_to_the_chapter():
    """Our copy of Loparo & Vakalis never mentions Hamel's coefficients (their constancy is the
    companion's own); B = A⁻¹((Ac) × a) for SO(3) is §7.4's, a printed row."""
    from pathlib import Path

    import companion

    claims = ("as the chapter states", "§7.4 explains why", "the chapter states for SO(3)")
    for path in Path(companion.__file__).parent.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for claim in claims:
            assert claim not in text, f"{path}: {claim!r}"
    rows = {c.what: c.kind for c in verify.all_checks(["rigid_body_so3"])}
    (b_row,) = [what for what in rows if "A⁻¹((Ac)×a)" in what]
    assert rows[b_row] == "printed" and "our derivation" not in b_row
