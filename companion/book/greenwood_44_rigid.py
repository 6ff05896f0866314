"""Greenwood §4.4: printed results the rigid-body form of the general dynamical equation must
reproduce on its worked instances (data only; the checks are in the slices' ``checks.py``).

The dumbbell of Example 4.4 written as one rigid body about the knife edge obeys the printed
(4.122)–(4.123); speeds named as in the engine, ``u_1_dot`` for u̇₁.
"""

from __future__ import annotations

PRINTED: dict[str, dict[str, str | list[str]]] = {
    "dumbbell_rigid": {
        # (4.122)–(4.123), left sides (all Q's zero)
        "equations": "[2*m*u_1_dot - m*l*u_2**2, m*l**2*u_2_dot + m*l*u_1*u_2]",
        # the same, as printed term by term (factors space-separated)
        "equations_form": ["2 m u̇_1 − m l u_2^2 = 0", "m l^2 u̇_2 + m l u_1 u_2 = 0"],
    },
}
