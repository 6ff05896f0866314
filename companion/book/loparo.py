"""Loparo & Vakalis, ch. 7 (2005), §7.2–7.6: the printed results the companion reproduces.

The reference table holds the chapter's printed statements as text (our copy stops inside
§7.4; Example 1 of §7.5 is worked with the chapter's method, so its "printed" entries are
the §7.4 equations it must reproduce).  :func:`checks` compares each with what the engine
derives; nothing else in the package may import this module.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from companion.verify import Check

BOOK = "Loparo & Vakalis"

#: §7.4: Euler's equations from B, "I₁ω̇₁ = (I₂ − I₃)ω₂ω₃, and cyclic" (principal axes).
EULER = ["(I_2 - I_3)*w_2*w_3/I_1", "(I_3 - I_1)*w_3*w_1/I_2", "(I_1 - I_2)*w_1*w_2/I_3"]
#: §7.4: for SO(3), B(c, a) = A⁻¹((A c) × a).
B_SO3 = "A**-1 * (A*c).cross(a)"
#: Lemma 7.1 (with the ½ our copy lost): L_{exp(a)*} ξ = ξ + ½[a, ξ] + o(a²), in exponential
#: coordinates.
LEMMA_7_1_FACTOR = 0.5
#: §7.3: reaction forces lie in the null space of Jᵀ.
NULL_SPACE = "J.T * R"

_RNG_SEED = 7


def _rng() -> np.random.Generator:
    return np.random.default_rng(_RNG_SEED)


def _inertia():
    I = sp.symbols("I_1:4", positive=True)
    w = sp.symbols("w_1:4")
    return I, w


def _numeric_equal(a: sp.Matrix, b: sp.Matrix, symbols, n: int = 20) -> tuple[bool, str]:
    f = sp.lambdify(list(symbols), list(a - b), modules="numpy")
    rng = _rng()
    worst = max(float(np.max(np.abs(f(*rng.uniform(0.3, 2.0, len(symbols))))))
                for _ in range(n))
    return worst < 1e-10, f"max difference {worst:.1e} at {n} random states"


def _euler_from_b() -> tuple[bool, str]:
    from companion.geometry.lie import arnold_equations, inertia_operator

    I, w = _inertia()
    d = arnold_equations(inertia_operator(I), w)
    printed = sp.Matrix([sp.sympify(e, locals={**{s.name: s for s in (*I, *w)}})
                         for e in EULER])
    return _numeric_equal(d.accelerations(), printed, [*I, *w])


def _sign_trap() -> tuple[bool, str]:
    from companion.geometry.lie import arnold_equations, inertia_operator

    I, w = _inertia()
    A = inertia_operator(I)
    right = arnold_equations(A, w).accelerations()
    wrong = arnold_equations(A, w, sign=-1).accelerations()
    ok, detail = _numeric_equal(wrong, -right, [*I, *w])
    return ok, "[a,b] = −a×b gives ω̇ → −ω̇ (time reversal): " + detail


def _b_formula() -> tuple[bool, str]:
    from companion.geometry.lie import b_operator, inertia_operator

    I, _ = _inertia()
    A = inertia_operator(I)
    a, c = sp.Matrix(sp.symbols("a_1:4")), sp.Matrix(sp.symbols("c_1:4"))
    printed = eval(B_SO3, {"A": A, "a": a, "c": c})  # the table holds a matrix formula
    return _numeric_equal(b_operator(A)(c, a), printed, [*I, *a, *c])


def _b_skew() -> tuple[bool, str]:
    from companion.geometry.lie import b_operator, inertia_operator, inner

    I, _ = _inertia()
    A = inertia_operator(I)
    B = b_operator(A)
    a, b, c = (sp.Matrix(sp.symbols(f"{x}_1:4")) for x in "abc")
    skew = sp.Matrix([inner(A, B(c, a), b) + inner(A, B(c, b), a)])
    return _numeric_equal(skew, sp.zeros(1, 1), [*I, *a, *b, *c])


def _lemma_7_1() -> tuple[bool, str]:
    """d/dt log(exp(a) exp(tξ)) at t = 0 against ξ + ½[a, ξ]: the error must shrink like |a|²
    (with any other factor it shrinks only like |a|)."""
    from scipy.spatial.transform import Rotation

    from companion.geometry.lie import bracket, exp_so3

    rng = _rng()
    xi, direction = rng.normal(size=3), rng.normal(size=3)
    h = 1e-6

    def error(eps: float) -> float:
        a = eps * direction
        ends = [Rotation.from_matrix(exp_so3(a) @ exp_so3(s * xi)).as_rotvec() for s in (-h, h)]
        pushed = (ends[1] - ends[0]) / (2 * h)
        lemma = xi + LEMMA_7_1_FACTOR * np.array(bracket(a, xi), dtype=float).ravel()
        return float(np.linalg.norm(pushed - lemma))

    e1, e2 = error(1e-2), error(5e-3)
    return 3.5 < e1 / e2 < 4.5, (f"error {e1:.1e} → {e2:.1e} when |a| halves "
                                 "(ratio ≈ 4: the remainder is O(|a|²))")


def _greenwood_cross_link() -> tuple[bool, str]:
    import companion.geometry.lie  # noqa: F401 - registers the "arnold" method
    from companion import examples

    system = examples.get("euler_body")
    arnold, bh = system.derive("arnold"), system.derive("boltzmann_hamel")
    syms = [*system.u, *system.parameter_symbols]
    ok, detail = _numeric_equal(arnold.accelerations(), bh.accelerations(), syms)
    return ok, "Arnold's form vs Greenwood Ex. 4.3 (Boltzmann–Hamel): " + detail


def _sphere_lagrange_metric() -> tuple[bool, str]:
    """Mass matrix of sympy's LagrangesMethod for the sphere particle, built from rotating
    frames (no coordinate map, no Jacobian), against the pulled-back metric."""
    from sympy.physics.mechanics import (
        LagrangesMethod,
        Particle,
        Point,
        ReferenceFrame,
        dynamicsymbols,
    )

    from companion import examples

    system = examples.get("sphere_particle")
    theta, phi = dynamicsymbols("theta phi")
    m, R, g = sp.symbols("m R g", positive=True)
    N = ReferenceFrame("N")
    A = N.orientnew("A", "Axis", [phi, N.z])
    B = A.orientnew("B", "Axis", [theta, A.y])
    O = Point("O")
    O.set_vel(N, 0)
    P = O.locatenew("P", R * B.z)
    P.v2pt_theory(O, N, B)
    particle = Particle("p", P, m)
    particle.potential_energy = m * g * P.pos_from(O).dot(N.z)
    L = sp.physics.mechanics.Lagrangian(N, particle)
    lm = LagrangesMethod(L, [theta, phi])
    lm.form_lagranges_equations()
    th, ph = system.q
    plain = {theta: th, phi: ph}
    M_lagrange = lm.mass_matrix.subs(plain)
    return _numeric_equal(M_lagrange, system.induced_metric, [th, ph, m, R])


def _reaction_null_space() -> tuple[bool, str]:
    from companion import examples
    from companion.geometry.metric import reaction_in_null_space

    system = examples.get("sphere_particle")
    R = system.derive("geometric").result("reaction")
    ok = reaction_in_null_space(system.J, R)
    return ok, f"{NULL_SPACE} simplifies to 0 for the sphere particle under gravity"


def _geodesic_great_circle() -> tuple[bool, str]:
    from companion import examples

    traj = examples.get("sphere_particle").simulate(params={"g": 0.0})
    off = float(np.max(np.abs(traj["off great-circle plane"])))
    return off < 1e-7, f"force-free path leaves its great-circle plane by ≤ {off:.1e} m"


def _conserved() -> tuple[bool, str]:
    from companion import examples

    traj = examples.get("rigid_body_so3").simulate()
    drifts = {k: traj.drift(k) for k in ("energy", "|Aω|", "M_s = R A ω")}
    ok = max(drifts.values()) < 1e-8 and traj.max_residual("‖RᵀR − I‖") < 1e-12
    return ok, ", ".join(f"{k} drift {v:.1e}" for k, v in drifts.items())


def checks() -> list[Check]:
    """The chapter's results, one :class:`Check` each."""
    return [
        Check(BOOK, "(7.1)", "force-free motion is a geodesic: great circles on the sphere",
              _geodesic_great_circle),
        Check(BOOK, "(7.2)", "pulled-back metric JᵀσJ = mass matrix of sympy's Lagrange "
              "(sphere particle)", _sphere_lagrange_metric),
        Check(BOOK, "§7.3", "reaction force lies in the null space of Jᵀ", _reaction_null_space),
        Check(BOOK, "Lemma 7.1", "L_exp(a)* ξ = ξ + ½[a, ξ] + o(a²) in exponential coordinates",
              _lemma_7_1),
        Check(BOOK, "§7.4", "B solved from ⟨[a,b],c⟩ = ⟨B(c,a),b⟩ equals A⁻¹((Ac)×a)",
              _b_formula),
        Check(BOOK, "§7.4", "B is skew: ⟨B(c,a),b⟩ + ⟨B(c,b),a⟩ = 0", _b_skew),
        Check(BOOK, "§7.4", "dω/dt = B(ω,ω) gives I₁ω̇₁ = (I₂ − I₃)ω₂ω₃ and cyclic",
              _euler_from_b),
        Check(BOOK, "§7.4", "sign trap: [a,b] = −a×b gives the time-reversed equations",
              _sign_trap),
        Check(BOOK, "§7.5", "Example 1: Arnold's form = Greenwood Ex. 4.3 (cross-link)",
              _greenwood_cross_link),
        Check(BOOK, "§7.4", "energy, |Aω| and M_s conserved; RᵀR = I on SO(3)", _conserved),
    ]
