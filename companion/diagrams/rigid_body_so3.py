"""Loparo & Vakalis §7.4–7.5: the free rigid body on SO(3)."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from companion.diagrams import _draw as d
from companion.diagrams._body import AXIS_COLOURS, box, frame, rotation

TITLE = "A rigid body on SO(3): body frame, ω and M = Aω (L&V §7.4)"
INERTIA = np.array([1.0, 2.0, 3.0])


def draw(ax: Axes) -> None:
    """Space frame E₁, E₂, E₃; body frame e₁, e₂, e₃ = R E_k, turned by R; the body angular
    velocity ω and the body angular momentum M = Aω, not parallel to ω unless ω is along a
    principal axis."""
    d.setup(ax, TITLE, (-1.5, 1.75), (-1.5, 1.45))
    R = rotation(-60.0, 20.0, 40.0)
    box(ax, R, (0.55, 0.35, 0.22))
    frame(ax, np.eye(3), 1.25, (r"$E_1$", r"$E_2$", r"$E_3$"))
    frame(ax, R, 1.0, (r"$e_1$", r"$e_2$", r"$e_3$"), AXIS_COLOURS, lw=2.2)
    w_body = np.array([0.8, 0.25, 0.3])
    m_body = INERTIA * w_body  # M = A ω with A = diag(I₁, I₂, I₃)
    w, m = R @ w_body, R @ m_body / np.linalg.norm(m_body) * 1.05
    d.arrow3(ax, np.zeros(3), w, d.COLORS["omega"], r"$\omega$", offset=(0.1, -0.05), lw=2.4)
    d.arrow3(ax, np.zeros(3), m, d.COLORS["H"], r"$M = A\omega$", offset=(0.05, 0.1), lw=2.4)
    d.notes(ax, -1.45, -1.1, [
        r"$R \in SO(3)$ turns the space frame into the body frame: $e_k = R\,E_k$",
        r"body angular velocity $\hat\omega = R^{T}\dot R$; $A = \mathrm{diag}(I_1, I_2, I_3)$",
        r"$M = A\omega$, body angular momentum; $\tau$: applied torque",
    ], 0.13)
