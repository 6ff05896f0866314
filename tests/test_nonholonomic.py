"""The nonholonomic half of §7.9, reconstructed (issue 29), and the bridge's γ-test (issue 27
§1.2): every identity computed from the engine, and each can fail."""

from __future__ import annotations

import pytest
import sympy as sp

from companion.examples.bridge import computations as bridge
from companion.geometry.distribution import gamma_test, lie_bracket, structure_functions


def test_hamel_gamma_are_structure_functions_of_the_frame_in_both_examples():
    for name in ("euler_body", "knife_edge"):
        frame, engine = bridge.structure_function_identity(name)
        assert all((a - b).applyfunc(sp.simplify) == sp.zeros(3, 3)
                   for a, b in zip(frame, engine, strict=True))
        assert any(g != sp.zeros(3, 3) for g in frame)  # not vacuous


def test_gamma_test_of_the_knife_edge_and_the_counterexamples_to_C():
    g = bridge.knife_edge_gamma_test()
    assert g["gamma3_12"] == -1 and g["block"] == sp.Matrix([[0, -1], [1, 0]])
    counter = bridge.c_is_not_the_test()
    assert counter["x_ydot"]["C3"] != sp.zeros(3, 3)  # C³ ≠ 0 ...
    assert counter["x_ydot"]["block"] == sp.zeros(2, 2)  # ... yet holonomic
    assert counter["rescaled"]["C3"] != g["C3"]
    assert counter["rescaled"]["block"] == sp.exp(sp.Symbol("x")) * g["block"]


def test_bracket_sign_and_bad_input():
    x, y = sp.symbols("x y")
    assert lie_bracket([1, 0], [0, x], [x, y]) == sp.Matrix([0, 1])
    with pytest.raises(ValueError, match="columns of 2"):
        lie_bracket([1, 0, 0], [0, 1], [x, y])
    with pytest.raises(ValueError, match="singular"):
        structure_functions(sp.Matrix([[1, 0], [1, 0]]), [x, y])
    with pytest.raises(ValueError, match="n_constraints"):
        gamma_test(sp.eye(2), [x, y], 2)
