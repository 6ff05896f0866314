"""so(3), the operator B from its definition, Arnold's form, and the Lie-group update."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from scipy.linalg import expm
from scipy.spatial.transform import Rotation

from companion.geometry import lie

RNG = np.random.default_rng(11)


def test_b_satisfies_its_definition_for_a_general_symmetric_inertia():
    """⟨[a,b],c⟩ = ⟨B(c,a),b⟩ checked on numbers, for a full (non-principal) inertia."""
    L = RNG.normal(size=(3, 3))
    A = sp.Matrix(L @ L.T + 3 * np.eye(3))
    B = lie.b_operator(A)
    for _ in range(5):
        a, b, c = (sp.Matrix(RNG.normal(size=3)) for _ in range(3))
        lhs = lie.inner(A, lie.bracket(a, b), c)
        rhs = lie.inner(A, B(c, a), b)
        assert abs(float(lhs - rhs)) < 1e-9
        np.testing.assert_allclose(np.array(B(c, a), float).ravel(),
                                   np.linalg.solve(np.array(A, float),
                                                   np.cross(np.array(A * c, float).ravel(),
                                                            np.array(a, float).ravel())),
                                   atol=1e-10)


def test_b_from_the_definition_is_not_the_cross_product_typed_in():
    """With another bracket (the sign trap) the same solver gives the opposite operator."""
    I = sp.symbols("I_1:4", positive=True)
    A = lie.inertia_operator(I)
    a, c = sp.Matrix(sp.symbols("a_1:4")), sp.Matrix(sp.symbols("c_1:4"))
    right, wrong = lie.b_operator(A)(c, a), lie.b_operator(A, sign=-1)(c, a)
    assert (right + wrong).applyfunc(sp.simplify) == sp.zeros(3, 1)


def test_arnold_form_gives_eulers_equations():
    from companion.book.loparo import EULER

    I = sp.symbols("I_1:4", positive=True)
    w = sp.symbols("w_1:4")
    d = lie.arnold_equations(lie.inertia_operator(I), w)
    printed = sp.Matrix([sp.sympify(e, locals={s.name: s for s in (*I, *w)}) for e in EULER])
    assert (d.accelerations() - printed).applyfunc(sp.simplify) == sp.zeros(3, 1)
    trap = lie.arnold_equations(lie.inertia_operator(I), w, sign=-1)
    assert (trap.accelerations() + printed).applyfunc(sp.simplify) == sp.zeros(3, 1)
    assert d.q == [] and d.step("b_operator").title.startswith("B(c, a)")


def test_arnold_method_matches_greenwood_example_4_3_with_torque():
    from companion import examples

    system = examples.get("euler_body")
    a, b = system.derive("arnold"), system.derive("boltzmann_hamel")
    syms = [*system.u, *system.parameter_symbols]
    diff = sp.lambdify(syms, list(a.accelerations() - b.accelerations()))
    for _ in range(10):
        assert np.max(np.abs(diff(*RNG.uniform(0.2, 3.0, len(syms))))) < 1e-12


def test_exp_so3_is_rodrigues():
    thetas = RNG.normal(size=(3, 6)) * 2
    thetas[:, 0] = 0.0
    thetas[:, 1] = 1e-9
    Rs = lie.exp_so3(thetas)
    for k in range(thetas.shape[1]):
        np.testing.assert_allclose(Rs[k], expm(lie.hat(thetas[:, k])), atol=1e-14)
        np.testing.assert_allclose(Rs[k], Rotation.from_rotvec(thetas[:, k]).as_matrix(),
                                   atol=1e-14)


def test_magnus_is_exact_for_constant_omega_and_fourth_order():
    w = np.array([0.3, -1.1, 0.7])
    t = np.linspace(0, 5, 101)
    R = lie.magnus_attitude(np.eye(3), lambda s: np.outer(w, np.ones_like(s)), t)
    np.testing.assert_allclose(R[-1], lie.exp_so3(5 * w), atol=1e-13)

    def omega(s):
        return np.array([np.cos(s), np.sin(2 * s), 0.5 + 0 * s])

    ref = lie.magnus_attitude(np.eye(3), omega, np.linspace(0, 2, 4001))[-1]
    errs = [np.linalg.norm(lie.magnus_attitude(np.eye(3), omega, np.linspace(0, 2, n + 1))[-1]
                           - ref) for n in (20, 40)]
    assert 12 < errs[0] / errs[1] < 20  # ≈ 2⁴


def test_orthogonality_drift_on_a_long_horizon():
    w = lambda s: np.array([np.cos(3 * s), 2 + 0 * s, np.sin(s)])  # noqa: E731
    R = lie.magnus_attitude(lie.rotation_from_euler_angles(0.3, -0.4, 1.0), w,
                            np.linspace(0, 200, 40001))
    assert np.max(lie.orthogonality_drift(R)) <= 1e-12


def test_euler_angles_round_trip():
    angles = np.array([[0.3], [-0.7], [2.1]])
    R = lie.rotation_from_euler_angles(*angles[:, 0])[None]
    np.testing.assert_allclose(lie.euler_angles_from_rotations(R), angles, atol=1e-14)


@pytest.mark.parametrize("call", [
    lambda: lie.bracket([1, 0, 0], [0, 1, 0], sign=2),
    lambda: lie.bracket([1, 0], [0, 1]),
    lambda: lie.b_operator(sp.diag(1, 0, 2)),
    lambda: lie.inertia_operator([[1, 2, 0], [0, 1, 0], [0, 0, 1]]),
    lambda: lie.arnold_equations(sp.eye(3), sp.symbols("w1 w2")),
    lambda: lie.arnold_equations(sp.eye(3), sp.symbols("w1:4"), [1, 2]),
    lambda: lie.b_operator(sp.eye(3))([1, 2], [1, 2, 3]),
])
def test_bad_input_raises_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_adjoint_is_conjugation_and_lemma_7_1_order():
    """Ad_g ξ = R ξ on SO(3); L_exp(a)* ξ − (ξ + ½[a, ξ]) shrinks like |a|² (err/|a|² is
    constant: the remainder is O(|a|²), not o(|a|²)), without the bracket term only like |a|;
    with the next term (1/12)[a, [a, ξ]] the error is ~1e-11 at |a| = 1e-2 and falls like |a|⁴."""
    rng = np.random.default_rng(3)
    R, xi = lie.exp_so3(rng.normal(size=3)), rng.normal(size=3)
    assert np.allclose(lie.adjoint(R, xi), R @ xi, atol=1e-12)
    d = rng.normal(size=3)
    d /= np.linalg.norm(d)

    def errors(eps):
        """|L_exp(a)* ξ − series| for the series to order 0, 1, 2, at |a| = eps."""
        pushed = lie.left_translation_pushforward(eps * d, xi)
        return [np.linalg.norm(pushed - lie.pushforward_series(eps * d, xi, order))
                for order in (0, 1, 2)]

    (z1, l1, n1), (z2, l2, n2) = errors(1e-2), errors(5e-3)
    assert 1.7 < z1 / z2 < 2.3  # without the bracket: error ∝ |a|
    assert abs(l1 / 1e-2**2 - l2 / 5e-3**2) < 0.02 * l1 / 1e-2**2  # err/|a|² constant …
    assert l1 / 1e-2**2 > 1e-3  # … and not tending to 0: O(|a|²), not o(|a|²)
    assert n1 < 5e-11 and 12 < n1 / n2 < 20  # with (1/12)[a, [a, ξ]]: ~1e-11, ∝ |a|⁴


def test_the_series_of_the_pushforward_is_derived():
    """cₙ of x/(1 − e⁻ˣ): 1, ½ (Lemma 7.1), 1/12 (the term Lemma 7.1 leaves out), 0, −1/720."""
    c = lie.dexp_inverse_coefficients(4)
    assert c == (1, sp.Rational(1, 2), sp.Rational(1, 12), 0, sp.Rational(-1, 720))
    with pytest.raises(ValueError, match="order"):
        lie.dexp_inverse_coefficients(-1)


def test_package_wording_of_issue_27_item_8():
    """The ½ on J θ̇², the double pendulum's G₂ direction, no 'elbow moment', τ for torque in
    Arnold's form, and the sign trap as ω̇ = −B(ω, ω) solved by ω(−t)."""
    import inspect
    import re

    from companion.examples.double_pendulum import exercises as pendulum
    from companion.examples.rigid_body_so3 import exercises as so3
    from companion.geometry import planar

    assert "½ Σ (m(ẋ² + ẏ²) + J θ̇²)" in inspect.getsource(planar)
    text = inspect.getsource(pendulum)
    assert "(a₂ sin θ₂, −a₂ cos θ₂)" in text and "elbow moment" not in text
    assert "tau" in inspect.signature(lie.arnold_equations).parameters
    joined = re.sub(r'"\s*\n\s*"', "", inspect.getsource(so3))  # implicit concatenations
    assert "ω̇ = −B(ω, ω), solved by ω(−t)" in joined
    assert "spatial convention" in lie.bracket.__doc__
