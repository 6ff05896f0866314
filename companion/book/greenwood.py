"""Greenwood, *Advanced Dynamics* (2003), §4.3: the printed results of Examples 4.3 and 4.4.

This is the reference table: the book's matrices and equations (4.89)–(4.123), typed once, as
text in the book's own notation (``sec``, ``tan``; ``<name>_dot`` is the time derivative of a
speed).  ``verify`` hands each example's entries to that example's ``checks.py``, which compares
them with what the engine derives; nothing else in the package may import this module.
"""

from __future__ import annotations

#: Example 4.3: type I Euler angles q = (psi, theta, phi), u = (omega_x, omega_y, omega_z).
EX_4_3: dict[str, str | list[str]] = {
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
    # (4.104) as printed, term by term: the form the companion shows (factors space-separated)
    "equations_form": ["I_xx ω̇_x + (I_zz − I_yy) ω_y ω_z = M_x",
                       "I_yy ω̇_y + (I_xx − I_zz) ω_z ω_x = M_y",
                       "I_zz ω̇_z + (I_yy − I_xx) ω_x ω_y = M_z"],
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
    # not printed in our copy: the companion's knife-edge force from the r = 3 row
    # (verify lists it with the reconstructions)
    "lambda": "m*u_1*u_2",
    "energy": "m*u_1**2 + m*l**2*u_2**2/2",  # conserved
}

#: Printed results by worked example.
PRINTED: dict[str, dict[str, str | list[str]]] = {"euler_body": EX_4_3, "knife_edge": EX_4_4}
