"""Greenwood §4.3: every printed result (4.89)–(4.123) reproduced by the engine."""

from __future__ import annotations

import copy

import pytest

from companion.book import greenwood
from companion.examples.euler_body import checks as euler_body
from companion.examples.knife_edge import checks as knife_edge
from companion.verify import all_checks, run_checks

SLICES = {"euler_body": euler_body, "knife_edge": knife_edge}


def _checks(table: dict) -> list:
    """The §4.3 checks of both examples against ``table`` (the book's, or an altered copy)."""
    return [c for name, slice_checks in SLICES.items() for c in slice_checks.checks(table[name])]


CHECKS = _checks(greenwood.PRINTED)


@pytest.mark.parametrize("check", CHECKS, ids=[f"{c.eq} {c.what}" for c in CHECKS])
def test_book_result_matched(check):
    matched, detail = check.run()
    assert matched, detail


def test_verify_lists_every_equation_of_the_examples():
    listed = " ".join(c.eq for c in all_checks())
    wanted = ["(4.90)", "(4.91)", "(4.93)", "(4.94)", "(4.97)", "(4.98)", "(4.99)", "(4.100)",
              "(4.101)", "(4.102)", "(4.103)", "(4.104)", "(4.108)", "(4.110)", "(4.111)",
              "(4.112)", "(4.115)", "(4.116)", "(4.117)", "(4.118)", "(4.119)", "(4.120)",
              "(4.121)", "(4.122)", "(4.123)"]
    assert [eq for eq in wanted if eq not in listed] == []


def _altered(example: str, key: str, old: str, new: str) -> dict:
    table = copy.deepcopy(greenwood.PRINTED)
    assert old in table[example][key]
    table[example][key] = table[example][key].replace(old, new, 1)
    return table


def _run(table: dict, eq: str, what_contains: str = ""):
    (check,) = [c for c in _checks(table) if c.eq == eq and what_contains in c.what]
    return run_checks([check])[0]


@pytest.mark.parametrize(
    ("example", "key", "old", "new", "eq", "what"),
    [
        # the sign trap: a transposed C flips the gyroscopic signs
        ("euler_body", "gamma1", "[0, 0, 1]", "[0, 0, -1]", "(4.100)", ""),
        ("euler_body", "equations", "(I_zz - I_yy)", "(I_yy - I_zz)", "(4.104)", ""),
        ("euler_body", "Phi", "tan(theta)*sin(phi)", "tan(theta)*cos(phi)", "(4.91)", "Φ = Ψ⁻¹"),
        ("knife_edge", "gyro", "-2*m*u_1", "-m*u_1", "(4.121)", ""),
        ("knife_edge", "lambda", "m*u_1*u_2", "2*m*u_1*u_2", "Ex 4.4", "λ"),
        ("knife_edge", "energy", "l**2*u_2**2/2", "l**2*u_2**2", "Ex 4.4", "energy"),
        ("knife_edge", "C2", "[[0, 0, 0],", "[[0, 0, 1],", "(4.112)", ""),
    ],
)
def test_a_wrong_reference_is_reported(example, key, old, new, eq, what):
    outcome = _run(_altered(example, key, old, new), eq, what)
    assert not outcome.matched
    assert outcome.detail  # says what differed


def test_mismatch_detail_names_the_entry():
    outcome = _run(_altered("euler_body", "gamma1", "[0, 0, 1]", "[0, 0, -1]"), "(4.100)")
    assert "[1,2]" in outcome.detail and "book -1" in outcome.detail


def test_shape_mismatch_is_reported():
    table = copy.deepcopy(greenwood.PRINTED)
    table["knife_edge"]["kinematics"] = "[u_1*cos(phi), u_1*sin(phi)]"
    outcome = _run(table, "(4.134)")
    assert not outcome.matched and "shape" in outcome.detail
