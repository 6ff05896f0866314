"""Bad input to the engine and to System.simulate fails early with a clear ValueError."""

from __future__ import annotations

import pytest
import sympy as sp
from sympy.physics.mechanics import dynamicsymbols

from companion import examples
from companion.mechanics import boltzmann_hamel

x, y, phi = sp.symbols("x y phi")
u1, u2, u3 = sp.symbols("u_1 u_2 u_3")
m, l = sp.symbols("m l", positive=True)
Q_ = [x, y, phi]
U = [u1, u2, u3]
T_KNIFE = m * (u1**2 + u3**2 + l**2 * u2**2 / 2 + l * u2 * u3)
PSI = sp.Matrix([[sp.cos(phi), sp.sin(phi), 0], [0, 0, 1], [-sp.sin(phi), sp.cos(phi), 0]])


def call(**changes):
    args = {"T": T_KNIFE, "q": Q_, "u": U, "Psi": PSI, "n_constraints": 1}
    args.update(changes)
    return boltzmann_hamel(args.pop("T"), args.pop("q"), args.pop("u"), args.pop("Psi"), **args)


def test_valid_input_is_accepted():
    assert call().mass_matrix.shape == (2, 2)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"Psi": PSI[:, :2]}, r"Psi must be 3×3, got 3×2"),
        ({"Psi": sp.Matrix([[1, 0, 0], [0, 1, 0], [0, 0, 0]])}, r"Ψ is singular"),
        ({"Psi": sp.Matrix([[sp.cos(phi), sp.sin(phi), 0], [0, 0, 1],
                            [2 * sp.cos(phi), 2 * sp.sin(phi), 0]])}, r"Ψ is singular"),
        ({"u": [u1, u2]}, r"q has 3 coordinates but u has 2"),
        ({"q": [x, y]}, r"q has 2 coordinates but u has 3"),
        ({"Q": [0, 0, 0]}, r"Q must hold n − m = 2 generalized forces, got 3"),
        ({"n_constraints": 3}, r"n_constraints must be between 0 and 2 for n = 3"),
        ({"n_constraints": -1}, r"n_constraints must be between 0 and 2"),
        ({"n_constraints": 1.0}, r"n_constraints must be an integer"),
        ({"n_constraints": True}, r"n_constraints must be an integer"),
        ({"q": [x, x, phi]}, r"q repeats the symbol\(s\) x"),
        ({"u": [u1, u1, u3]}, r"u repeats the symbol\(s\) u_1"),
        ({"u": [u1, u2, x]}, r"\['x'\] used both in q and in u"),
        ({"q": [dynamicsymbols("x"), y, phi]}, r"q\[0\] = x\(t\) is a function of time"),
        ({"u": [u1, dynamicsymbols("u_2"), u3]}, r"u\[1\] = u_2\(t\) is a function of time"),
        ({"T": T_KNIFE + dynamicsymbols("x") ** 2}, r"T contains functions of time"),
        ({"q": "x y phi"}, r"q must be a sequence of sympy Symbols"),
        ({"u": [u1, u2, u3 + 1]}, r"u\[2\] = u_3 \+ 1 is not a sympy Symbol"),
        ({"T": T_KNIFE + m * u1**3}, r"T must be quadratic or lower .* has degree 3"),
        ({"T": T_KNIFE + sp.cos(u1)}, r"T must be a polynomial of degree at most 2"),
        ({"T": T_KNIFE * sp.Symbol("t")}, r"symbol named 't' appears .* pass t=t"),
        ({"Psi": PSI.subs(phi, phi + sp.Symbol("t"))}, r"symbol named 't' appears"),
        ({"Psi": PSI + sp.diag(0, u1, 0)}, r"Ψ and Ψ_t must depend on q \(and t\) only"),
        ({"Psi_t": sp.Matrix([0, 0, u2])}, r"Ψ and Ψ_t must depend on q \(and t\) only"),
        ({"Psi_t": sp.Matrix([0, 0])}, r"Psi_t must be 3×1, got 2×1"),
        ({"t": x}, r"the time symbol x is also used as a coordinate or speed"),
        ({"t": dynamicsymbols("x")}, r"t must be a plain sympy Symbol"),
        ({"Q": ["1 +", 0]}, r"Q\[0\] is not a sympy expression"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(changes, message):
    with pytest.raises(ValueError, match=message):
        call(**changes)


def test_simulate_refuses_an_unknown_parameter():
    with pytest.raises(ValueError, match=r"unknown parameter\(s\) mass; known: m, l"):
        examples.get("knife_edge").simulate(1.0, params={"mass": 2.0})


def test_simulate_refuses_a_negative_mass():
    with pytest.raises(ValueError, match=r"m \(mass of each particle\) must be > 0, got -1.0"):
        examples.get("knife_edge").simulate(1.0, params={"m": -1.0})


def test_simulate_refuses_an_unknown_initial_condition():
    with pytest.raises(ValueError, match=r"u_3: a constrained \(suppressed\) speed, held "
                       r"at zero by its constraint"):
        examples.get("knife_edge").simulate(1.0, initial={"u_3": 1.0})


@pytest.mark.parametrize("name", ["moving_carriage", "rolling_disk", "heavy_top"])
def test_new_systems_refuse_nonpositive_parameters(name):
    system = examples.get(name)
    positive = next(p for p in system.parameters if p.positive)
    with pytest.raises(ValueError, match=rf"{positive.name} .* must be > 0"):
        system.simulate(0.1, params={positive.name: 0.0})
