"""Greenwood, *Advanced Dynamics* (2003), §4.3: the printed results of Examples 4.3 and 4.4.

This is the reference table: the book's matrices and equations (4.89)–(4.123), typed once, as
text in the book's own notation (``sec``, ``tan``; ``<name>_dot`` is the time derivative of a
speed).  :func:`checks` compares each entry with what the engine derives from the systems of
:mod:`companion.examples`; nothing else in the package may import this module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache

import sympy as sp

from companion.mechanics.boltzmann_hamel import BoltzmannHamelResult, dot_symbol
from companion.system import System
from companion.verify import Check

BOOK = "Greenwood"

#: Example 4.3: type I Euler angles q = (psi, theta, phi), u = (omega_x, omega_y, omega_z).
EX_4_3: dict[str, str] = {
    "Psi": "[[-sin(theta), 0, 1], [cos(theta)*sin(phi), cos(phi), 0],"
    " [cos(theta)*cos(phi), -sin(phi), 0]]",  # (4.90)
    "Phi": "[[0, sec(theta)*sin(phi), sec(theta)*cos(phi)], [0, cos(phi), -sin(phi)],"
    " [1, tan(theta)*sin(phi), tan(theta)*cos(phi)]]",  # (4.91)
    "T": "(I_xx*omega_x**2 + I_yy*omega_y**2 + I_zz*omega_z**2)/2",  # (4.93)
    "dT/du": "[I_xx*omega_x, I_yy*omega_y, I_zz*omega_z]",  # (4.94)
    "C1": "[[0, -cos(theta), 0], [cos(theta), 0, 0], [0, 0, 0]]",  # (4.97)
    "C2": "[[0, -sin(theta)*sin(phi), cos(theta)*cos(phi)], [sin(theta)*sin(phi), 0, -sin(phi)],"
    " [-cos(theta)*cos(phi), sin(phi), 0]]",  # (4.98)
    "C3": "[[0, -sin(theta)*cos(phi), -cos(theta)*sin(phi)], [sin(theta)*cos(phi), 0, -cos(phi)],"
    " [cos(theta)*sin(phi), cos(phi), 0]]",  # (4.99)
    "gamma1": "[[0, 0, 0], [0, 0, 1], [0, -1, 0]]",  # (4.100)
    "gamma2": "[[0, 0, -1], [0, 0, 0], [1, 0, 0]]",  # (4.101)
    "gamma3": "[[0, 1, 0], [-1, 0, 0], [0, 0, 0]]",  # (4.102)
    "gyro": "[[0, I_zz*omega_z, -I_yy*omega_y], [-I_zz*omega_z, 0, I_xx*omega_x],"
    " [I_yy*omega_y, -I_xx*omega_x, 0]]",  # (4.103)
    "equations": "[I_xx*omega_x_dot + (I_zz - I_yy)*omega_y*omega_z - M_x,"
    " I_yy*omega_y_dot + (I_xx - I_zz)*omega_z*omega_x - M_y,"
    " I_zz*omega_z_dot + (I_yy - I_xx)*omega_x*omega_y - M_z]",  # (4.104), as lhs − rhs
}

#: Example 4.4: q = (x, y, phi), u = (u_1, u_2, u_3) = (v, phi_dot, sideways speed), u_3 = 0.
EX_4_4: dict[str, str] = {
    "Psi": "[[cos(phi), sin(phi), 0], [0, 0, 1], [-sin(phi), cos(phi), 0]]",  # (4.110)
    "Phi": "[[cos(phi), 0, -sin(phi)], [sin(phi), 0, cos(phi)], [0, 1, 0]]",  # (4.111)
    "T": "m*(u_1**2 + u_3**2 + l**2*u_2**2/2 + l*u_2*u_3)",  # (4.108)
    "C1": "[[0, 0, -sin(phi)], [0, 0, cos(phi)], [sin(phi), -cos(phi), 0]]",  # (4.115)
    "C2": "[[0, 0, 0], [0, 0, 0], [0, 0, 0]]",  # (4.106) is integrable
    "C3": "[[0, 0, -cos(phi)], [0, 0, -sin(phi)], [cos(phi), sin(phi), 0]]",  # (4.116)
    "gamma1": "[[0, 0, 0], [0, 0, -1], [0, 1, 0]]",  # (4.117)
    "gamma2": "[[0, 0, 0], [0, 0, 0], [0, 0, 0]]",  # (4.118)
    "gamma3": "[[0, -1, 0], [1, 0, 0], [0, 0, 0]]",  # (4.119)
    "dT/du": "[2*m*u_1, m*(l**2*u_2 + l*u_3), m*(2*u_3 + l*u_2)]",  # (4.120)
    "gyro": "[[0, -m*l*u_2, 0], [m*l*u_2, 0, -2*m*u_1], [0, 2*m*u_1, 0]]",  # (4.121), u_3 = 0
    "equations": "[2*m*u_1_dot - m*l*u_2**2, m*l**2*u_2_dot + m*l*u_1*u_2]",  # (4.122)-(4.123)
    "kinematics": "[u_1*cos(phi), u_1*sin(phi), u_2]",  # ẋ, ẏ, φ̇
    "lambda": "m*u_1*u_2",  # knife-edge force from the r = 3 row
    "energy": "m*u_1**2 + m*l**2*u_2**2/2",  # conserved
}

#: Both examples: registry name -> printed results.
REFERENCE: dict[str, dict[str, str]] = {"euler_body": EX_4_3, "knife_edge": EX_4_4}


@cache
def _system(name: str) -> System:
    # Imported here so that importing the table stays light.
    from companion import examples

    return examples.get(name)


def _derived(name: str) -> BoltzmannHamelResult:
    return _system(name).derive("boltzmann_hamel")


def _namespace(system: System) -> dict[str, sp.Basic]:
    """Names the printed text may use: the system's own symbols (with their assumptions)."""
    symbols = [*system.q, *system.u, *system.parameter_symbols]
    ns: dict[str, sp.Basic] = {s.name: s for s in symbols}
    ns.update({f"{s.name}_dot": dot_symbol(s) for s in system.u})
    ns.update({"sin": sp.sin, "cos": sp.cos, "tan": sp.tan, "sec": sp.sec})
    return ns


def printed(name: str, key: str, reference: Mapping[str, Mapping[str, str]] = REFERENCE):
    """The printed result ``key`` of example ``name`` as a sympy Matrix (or expression)."""
    value = sp.parse_expr(reference[name][key], local_dict=_namespace(_system(name)))
    return sp.Matrix(value) if isinstance(value, (list, tuple)) else value


def compare(derived, book) -> tuple[bool, str]:
    """Entrywise ``simplify(derived − book) == 0``; the detail names the entries that differ."""
    a = derived if isinstance(derived, sp.MatrixBase) else sp.Matrix([derived])
    b = book if isinstance(book, sp.MatrixBase) else sp.Matrix([book])
    if a.shape != b.shape:
        return False, f"shape {a.shape} derived, {b.shape} in the book"
    bad = []
    for idx in range(len(a)):
        diff = sp.expand(a[idx] - b[idx])
        if diff != 0 and sp.simplify(diff) != 0:
            where = f"[{idx // a.cols},{idx % a.cols}]" if a.cols > 1 else f"[{idx}]"
            bad.append(f"{where}: derived {a[idx]}, book {b[idx]}")
    if bad:
        return False, "; ".join(bad)
    return True, f"{len(a)} entr{'y' if len(a) == 1 else 'ies'} agree"


def _gyroscopic(d: BoltzmannHamelResult) -> sp.Matrix:
    """The matrix Σ_j (∂T/∂u_j) γ^j as the derivation shows it (its gyroscopic-matrix step)."""
    return next(s.expr for s in d.steps if s.title.startswith("Gyroscopic matrix"))


def _residuals(d: BoltzmannHamelResult) -> sp.Matrix:
    """The dynamical equations as ``M u̇ − f`` (left side minus right side)."""
    udot = sp.Matrix(d.udot[: len(d.u)])
    return d.mass_matrix * udot - d.forcing


def _energy_rate(name: str, key: str, reference) -> sp.Expr:
    """d/dt of a printed invariant along the derived motion (q̇ and u̇ from the engine)."""
    d = _derived(name)
    E = printed(name, key, reference)
    rate = sp.Matrix([E]).jacobian(d.q) * d.kinematics
    rate += sp.Matrix([E]).jacobian(d.u) * d.accelerations()
    return rate[0]


# Each item: (example, eq, what, derived-object getter, reference key)
_Getter = Callable[[BoltzmannHamelResult], object]
_ITEMS: list[tuple[str, str, str, _Getter | None, str]] = [
    ("euler_body", "(4.89)→(4.90)", "Ex 4.3 Ψ, by differentiating the definitions of ω",
     lambda d: d.Psi, "Psi"),
    ("euler_body", "(4.91)", "Ex 4.3 Φ = Ψ⁻¹", lambda d: d.Phi, "Phi"),
    ("euler_body", "(4.91)", "Ex 4.3 kinematical equations: ∂q̇/∂ω of q̇ = Φ ω is Φ",
     lambda d: d.kinematics.jacobian(d.u), "Phi"),
    ("euler_body", "(4.93)", "Ex 4.3 kinetic energy T", None, "T"),
    ("euler_body", "(4.94)", "Ex 4.3 momenta ∂T/∂ω", lambda d: d.momenta, "dT/du"),
    ("euler_body", "(4.97)", "Ex 4.3 C¹", lambda d: d.C[0], "C1"),
    ("euler_body", "(4.98)", "Ex 4.3 C²", lambda d: d.C[1], "C2"),
    ("euler_body", "(4.99)", "Ex 4.3 C³", lambda d: d.C[2], "C3"),
    ("euler_body", "(4.100)", "Ex 4.3 γ¹", lambda d: d.gamma[0], "gamma1"),
    ("euler_body", "(4.101)", "Ex 4.3 γ²", lambda d: d.gamma[1], "gamma2"),
    ("euler_body", "(4.102)", "Ex 4.3 γ³", lambda d: d.gamma[2], "gamma3"),
    ("euler_body", "(4.103)", "Ex 4.3 gyroscopic matrix Σ_j (∂T/∂u_j) γ^j", _gyroscopic, "gyro"),
    ("euler_body", "(4.104)", "Ex 4.3 Euler's equations", _residuals, "equations"),
    ("knife_edge", "(4.105)–(4.107)→(4.110)", "Ex 4.4 Ψ, by differentiating the definitions",
     lambda d: d.Psi, "Psi"),
    ("knife_edge", "(4.108)", "Ex 4.4 unconstrained kinetic energy T", None, "T"),
    ("knife_edge", "(4.111)", "Ex 4.4 Φ = Ψ⁻¹", lambda d: d.Phi, "Phi"),
    ("knife_edge", "(4.112)", "Ex 4.4 C² = 0 ((4.106) is integrable)", lambda d: d.C[1], "C2"),
    ("knife_edge", "(4.115)", "Ex 4.4 C¹", lambda d: d.C[0], "C1"),
    ("knife_edge", "(4.116)", "Ex 4.4 C³", lambda d: d.C[2], "C3"),
    ("knife_edge", "(4.117)", "Ex 4.4 γ¹", lambda d: d.gamma[0], "gamma1"),
    ("knife_edge", "(4.118)", "Ex 4.4 γ² = 0", lambda d: d.gamma[1], "gamma2"),
    ("knife_edge", "(4.119)", "Ex 4.4 γ³", lambda d: d.gamma[2], "gamma3"),
    ("knife_edge", "(4.120)", "Ex 4.4 momenta ∂T/∂u_j (unconstrained T)",
     lambda d: d.momenta, "dT/du"),
    ("knife_edge", "(4.121)", "Ex 4.4 gyroscopic matrix with u₃ = 0", _gyroscopic, "gyro"),
    ("knife_edge", "(4.122)–(4.123)", "Ex 4.4 equations of motion", _residuals, "equations"),
    ("knife_edge", "(4.134)", "Ex 4.4 kinematics ẋ = v cosφ, ẏ = v sinφ, φ̇ = u₂",
     lambda d: d.kinematics, "kinematics"),
    ("knife_edge", "Ex 4.4", "knife-edge force λ = m v φ̇ from the unreduced r = 3 row",
     lambda d: d.constraint_forces()[0], "lambda"),
]


def _run(name: str, getter: _Getter | None, key: str, reference) -> Callable[[], tuple]:
    def run() -> tuple[bool, str]:
        book = printed(name, key, reference)
        derived = _system(name).T if getter is None else getter(_derived(name))
        return compare(derived, book)

    return run


def checks(reference: Mapping[str, Mapping[str, str]] = REFERENCE) -> list[Check]:
    """One :class:`Check` per printed result of Examples 4.3 and 4.4.

    ``reference`` defaults to the book's table; tests pass an altered copy to see a check fail.
    """
    out = [Check(BOOK, eq, what, _run(name, getter, key, reference))
           for name, eq, what, getter, key in _ITEMS]

    def energy() -> tuple[bool, str]:
        rate = sp.simplify(_energy_rate("knife_edge", "energy", reference))
        return (rate == 0, "dE/dt = 0 on the derived motion" if rate == 0 else f"dE/dt = {rate}")

    out.append(Check(BOOK, "Ex 4.4", "energy m v² + ½ m l² φ̇² conserved by (4.122)–(4.123)",
                     energy))
    return out
