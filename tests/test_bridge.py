"""The bridge between the books (issue 14 item 10): every identity computed, and each can fail."""

from __future__ import annotations

import sympy as sp

from companion.examples.bridge import computations as bridge
from companion.verify import all_checks, run_checks


def test_hamel_gamma_are_so3_structure_constants():
    gamma, consts, eps = bridge.hamel_gamma(), bridge.structure_constants(), bridge.levi_civita()
    assert all(g == c == e for g, c, e in zip(gamma, consts, eps, strict=True))
    assert gamma[0] != eps[1]  # the comparison is not vacuous


def test_gyroscopic_term_is_minus_A_B():
    gyro, minus_A_B, diff = bridge.gyroscopic_vs_b()
    assert diff == sp.zeros(3, 1) and gyro != sp.zeros(3, 1)


def test_geodesics_of_the_euler_angle_metric_are_eulers_equations():
    assert bridge.geodesic_vs_euler(n_states=10) < 1e-10
    assert bridge.geodesic_vs_euler(n_states=3, sign=-1) > 1e-3  # the reversed bracket fails


def test_knife_edge_is_not_integrable():
    f = bridge.knife_edge_frobenius()
    assert f["a_dot_curl_a"] == -1 and f["det"] == 1


def test_bridge_checks_in_verify():
    outcomes = run_checks(all_checks(["bridge"]))
    assert len(outcomes) == 11 and all(o.matched for o in outcomes)
    kinds = [o.check.kind for o in outcomes]
    assert kinds.count("consistency") == 4 and kinds.count("reconstruction") == 7
