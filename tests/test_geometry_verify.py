"""``verify`` covers Loparo §7.2–7.6, and its checks fail on a wrong table entry."""

from __future__ import annotations

import pytest

from companion import verify
from companion.book import loparo


def test_loparo_module_is_registered():
    assert "companion.book.loparo" in verify.BOOK_MODULES


def test_every_loparo_check_matches():
    outcomes = verify.run_checks(loparo.checks())
    bad = [(o.check.eq, o.check.what, o.detail) for o in outcomes if not o.matched]
    assert not bad
    assert {o.check.eq for o in outcomes} >= {"(7.1)", "(7.2)", "§7.3", "§7.4", "§7.5",
                                              "Lemma 7.1"}


@pytest.mark.parametrize("name, wrong, run", [
    ("EULER", ["(I_3 - I_2)*w_2*w_3/I_1", "(I_3 - I_1)*w_3*w_1/I_2",
               "(I_1 - I_2)*w_1*w_2/I_3"], loparo._euler_from_b),
    ("B_SO3", "A**-1 * a.cross(A*c)", loparo._b_formula),
    ("LEMMA_7_1_FACTOR", 1.0, loparo._lemma_7_1),
])
def test_checks_can_fail(monkeypatch, name, wrong, run):
    monkeypatch.setattr(loparo, name, wrong)
    matched, _ = run()
    assert not matched
