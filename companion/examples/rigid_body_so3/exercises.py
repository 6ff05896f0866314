"""Exercises on Loparo & Vakalis §7.4 (Example 1): B(ω, ω) and ω̇ for the inertia operator
A = diag(I_xx, I_yy, I_zz), from the ``arnold`` derivation.
"""

from __future__ import annotations

from operator import methodcaller

from companion.exercises.exercise import ChoiceExercise, Declare, Exercise, parameter_symbol
from companion.exercises.outcomes import decided_by, is_zero, sign_changes
from companion.mechanics.derivation import Step
from companion.system import System

_OMEGA = ("omega_x", "omega_y", "omega_z")
_MOMENTS = ("I_xx", "I_yy", "I_zz")
_EX = Declare("rigid_body_so3")
_arnold = methodcaller("derive", "arnold")


def rigid_body_so3() -> list[Exercise | ChoiceExercise]:
    """B(ω, ω) and ω̇ for the inertia operator A = diag(I_xx, I_yy, I_zz); the wrong bracket
    sign, and which spin axis is unstable."""
    return [
        _EX.typed("B", "B(ω, ω) for a diagonal inertia operator", (
            r"On $so(3) \cong \mathbb{R}^3$ with bracket $[a, b] = a \times b$ and the "
            r"inertia operator $A = \mathrm{diag}(I_{xx}, I_{yy}, I_{zz})$, the operator "
            r"$B$ is defined by $\langle [a, b], c\rangle = \langle B(c, a), b\rangle$ "
            r"for all $b$. Compute the column $B(\omega, \omega)$."),
            answer=lambda s: _arnold(s).result("B(omega, omega)"),
            names=(*_OMEGA, *_MOMENTS),
            hints=("With ⟨x, y⟩ = xᵀ A y the definition gives B(c, a) = A⁻¹((A c) × a).",
                   "Put c = a = ω: B(ω, ω) = A⁻¹((A ω) × ω).",
                   r"The first entry is $(I_{yy} - I_{zz})\,\omega_y \omega_z / I_{xx}$."),
            solution=lambda s: _arnold(s).steps,
            example_answer="[a, b, c]",
        ),
        _EX.typed("omega_dot", "Euler's equations as a geodesic", (
            r"With a body torque $\tau = (M_x, M_y, M_z)$ (its components keep the "
            r"names of Greenwood's moments; $M$ alone is the angular momentum "
            r"$A\omega$ here) the motion obeys "
            r"$\dot\omega = B(\omega, \omega) + A^{-1} \tau$. Give the column "
            r"$\dot\omega$."),
            answer=lambda s: _arnold(s).explicit_rates,
            names=(*_OMEGA, *_MOMENTS, "M_x", "M_y", "M_z"),
            hints=("Start from your B(ω, ω) and add A⁻¹ τ = (M_x/I_xx, M_y/I_yy, M_z/I_zz).",
                   "Compare with Greenwood's (4.104): the same three equations."),
            solution=lambda s: [
                *_arnold(s).steps,
                Step("Solved for the rates", _arnold(s).explicit_rates, "§7.4",
                     "B(ω, ω) plus the torque term.", r"\dot\omega"),
            ],
            example_answer="[a, b, c]",
        ),
        _EX.choice("bracket_sign", "The wrong sign of the bracket", (
            r"Take the bracket of right-invariant fields, $[a, b] = -a\times b$, "
            r"instead of $a\times b$ in the definition of $B$. What happens to the "
            r"torque-free equations $\dot\omega = B(\omega, \omega)$?"),
            ("The physical time reversal: the body retraces its motion",
             "B is linear in the bracket, so the wrong equation is ω̇ = −B(ω, ω), "
             "solved by ω(−t). A body filmed and played backwards turns the other "
             "way, −ω(−t), and that solves the right equation (B is quadratic in ω), "
             "so the right equations already contain every reversed motion."),
            ("Nothing: B(ω, ω) is symmetric, so the sign cancels",
             "The sign enters B once, linearly: it cannot cancel."),
            ("A different motion that is not the time-reversed one",
             "B is linear in the bracket, so ω̇ = −B(ω, ω): every term changes sign, "
             "and the solutions are ω(−t). The physical reversal is −ω(−t), which "
             "solves the right equation because B(ω, ω) is quadratic; ω(−t) solves it "
             "only where B(ω, ω) = 0 (a steady spin about a principal axis). The "
             "wrong sign is the right-invariant, spatial convention."),
            ("A is replaced by its inverse",
             "The inertia operator enters B the same way for both signs."),
            right=decided_by(_bracket_outcome, {"reversed": 0, "same": 1, "other": 2}),
        ),
        _EX.predict("unstable_axis", "Predict: which spin axis is unstable", (
            r"With $I_{xx} = 1 < I_{yy} = 2 < I_{zz} = 3$, spin the body at 2 rad/s "
            r"about one principal axis with a wobble of 0.05 rad/s about the others. "
            r"About which axis does the spin turn over?"),
            ("x, the axis of the smallest moment",
             "Spins about the smallest and the largest moments are stable: the "
             "wobble stays small."),
            ("y, the axis of the middle moment",
             "Linearize ω̇ = B(ω, ω) about a spin about y: the wobble grows "
             "exponentially because (I_yy − I_xx)(I_zz − I_yy) > 0."),
            ("z, the axis of the largest moment",
             "The largest moment is a stable spin (without damping)."),
            ("None: all three spins are stable",
             "One of them is not: the tennis-racket theorem."),
            right=decided_by(_unstable_axes, {("x",): 0, ("y",): 1, ("z",): 2, (): 3}),
            then=("Now try each axis in the explorer below: set that ω component to 2, the "
                  "others to 0.05, and press ▶."),
        ),
    ]


# --------------------------------------------------------------------------- understanding
def _bracket_outcome(system: System) -> str:
    """What the wrong-sign rates g(ω) are: the right ones f(ω) ("same"), the physical time
    reversal ("reversed"), or another motion ("other").

    A motion filmed backwards turns the other way: ω_r(t) = −ω(−t), whose rate is f(ω(−t)) =
    f(−ω_r), so it obeys ω̇ = f(−ω).  The wrong sign gives the reversal iff g(ω) = f(−ω).
    """
    from companion.geometry import lie

    moments = [parameter_symbol(system, n) for n in ("I_xx", "I_yy", "I_zz")]
    omega = system.u
    rates = {sign: lie.arnold_equations(lie.inertia_operator(moments), omega, sign=sign)
             .explicit_rates for sign in (1, -1)}
    reversal = rates[1].subs({w: -w for w in omega}, simultaneous=True)
    if is_zero(rates[-1] - reversal):
        return "reversed"
    return "same" if is_zero(rates[-1] - rates[1]) else "other"


def _unstable_axes(system: System) -> tuple[str, ...]:
    """The axes about which a slightly perturbed spin turns over (simulated)."""
    unstable = []
    for axis in ("x", "y", "z"):
        start = {f"omega_{a}": (2.0 if a == axis else 0.05) for a in "xyz"}
        if len(sign_changes(system.simulate(initial=start)[f"omega_{axis}"])):
            unstable.append(axis)
    return tuple(unstable)


