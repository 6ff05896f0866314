"""Loparo & Vakalis §7.8 onward: the reconstructed worked examples (Examples 2–4).

Our copy of the chapter stops inside §7.4, so these "printed" results are the reconstruction
recorded in the project's fact sheet (worked instances of the chapter's method), and every
check says "(reconstruction)".  ``companion/examples/double_pendulum/checks.py`` compares the
engine's pull-back with the formulas below.
"""

from __future__ import annotations

# ----------------------------------------------------------------- Example 2 (§7.8)
#: The constraint map f: (θ₁, θ₂) → (x₁, y₁, θ₁, x₂, y₂, θ₂).
EX2_MAP = ["a_1*sin(theta_1)", "-a_1*cos(theta_1)", "theta_1",
           "l_1*sin(theta_1) + a_2*sin(theta_2)", "-l_1*cos(theta_1) - a_2*cos(theta_2)",
           "theta_2"]
#: Pulled-back metric entries.
EX2_M = {"M11": "J_1 + m_1*a_1**2 + m_2*l_1**2",
         "M12": "m_2*l_1*a_2*cos(theta_1 - theta_2)",
         "M22": "J_2 + m_2*a_2**2"}
#: Equations of motion as left − right (θ̈ written thetaddot_i).
EX2_EQUATIONS = [
    "M11*thetaddot_1 + M12*thetaddot_2 + m_2*l_1*a_2*sin(theta_1 - theta_2)*omega_2**2"
    " + (m_1*a_1 + m_2*l_1)*g*sin(theta_1) - (tau_1 - tau_2)",
    "M12*thetaddot_1 + M22*thetaddot_2 - m_2*l_1*a_2*sin(theta_1 - theta_2)*omega_1**2"
    " + m_2*a_2*g*sin(theta_2) - tau_2",
]
#: Joint forces: elbow force on link 2, base force on link 1 (accelerations of the centres).
EX2_R2 = ["m_2*xddot_2", "m_2*(yddot_2 + g)"]
EX2_R1 = ["m_1*xddot_1 + R2x", "m_1*(yddot_1 + g) + R2y"]


#: Printed (reconstructed) results by worked example.
PRINTED: dict[str, dict[str, object]] = {
    "double_pendulum": {"EX2_MAP": EX2_MAP, "EX2_M": EX2_M, "EX2_EQUATIONS": EX2_EQUATIONS,
                        "EX2_R2": EX2_R2, "EX2_R1": EX2_R1},
}
