"""Loparo & Vakalis, ch. 7 (2005), §7.2–7.6: the printed results the companion reproduces.

The reference table holds the chapter's printed statements as text (our copy stops inside
§7.4; Example 1 of §7.5 is worked with the chapter's method, so its "printed" entries are
the §7.4 equations it must reproduce).  ``verify`` hands them to the worked examples'
``checks.py``, which compare them with what the engine derives; nothing else in the package
may import this module.
"""

from __future__ import annotations

#: §7.4: Euler's equations from B, "I₁ω̇₁ = (I₂ − I₃)ω₂ω₃, and cyclic" (principal axes).
EULER = ["(I_2 - I_3)*w_2*w_3/I_1", "(I_3 - I_1)*w_3*w_1/I_2", "(I_1 - I_2)*w_1*w_2/I_3"]
#: §7.4: for SO(3), B(c, a) = A⁻¹((A c) × a) (the companion solves B from its definition and
#: compares).
B_SO3 = "A**-1 * (A*c).cross(a)"
#: Lemma 7.1 (with the ½ our copy lost, restored): L_{exp(a)*} ξ = ξ + ½[a, ξ] + O(|a|²), i.e.
#: o(|a|), in exponential coordinates (the next term, (1/12)[a, [a, ξ]], is not zero).
LEMMA_7_1_FACTOR = 0.5
#: §7.3: reaction forces lie in the null space of Jᵀ.
NULL_SPACE = "J.T * R"


#: Printed results by worked example.
PRINTED: dict[str, dict[str, object]] = {
    "rigid_body_so3": {"EULER": EULER, "B_SO3": B_SO3, "LEMMA_7_1_FACTOR": LEMMA_7_1_FACTOR},
    "sphere_particle": {"NULL_SPACE": NULL_SPACE},
}
