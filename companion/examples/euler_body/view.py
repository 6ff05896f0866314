"""Explorer of Greenwood's Example 4.3: the free rigid body.

Four panels: ω(t); the relative drift of energy and |H|; the polhode (the path of the body-axis
angular velocity ω on the energy ellipsoid ωᵀ I ω = 2T, Poinsot's construction) with the
intermediate-axis flip; and the type I
Euler angle θ(t) with the norm of the engine's Φ (4.91) along the motion, which blows up when
θ passes ±90° (gimbal lock) while the quaternion attitude carries on.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import sympy as sp

from companion.numerics import Trajectory
from companion.scene.rigid import INERTIA, OMEGA
from companion.system import System
from companion.widgets.animation import AnimatedView
from companion.widgets.explorer import (
    KEEP_LIMITS_FILL,
    Explorer,
    Preset,
    drift_limits,
    few_ticks,
    rescale,
)


@cache
def _phi_norm_function(system: System):
    phi = system.derive("boltzmann_hamel").Phi
    norm = sp.sqrt(sum(e**2 for e in phi))
    return sp.lambdify(system.q, norm, modules="numpy", cse=True)


def phi_norm(system: System, theta: Any, psi: Any = 0.0, phi: Any = 0.0) -> np.ndarray:
    """Frobenius norm of Φ (4.91), derived by the engine, at the type I Euler angles given.

    It grows like |sec θ|: at θ = ±90° the Euler angle rates cannot be recovered from ω
    (gimbal lock), and evaluating Φ there fails.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        value = _phi_norm_function(system)(psi, theta, phi)
    return np.broadcast_to(np.asarray(value, dtype=float), np.shape(theta)).copy()


def polhode(trajectory: Trajectory) -> tuple[np.ndarray, np.ndarray]:
    """The polhode: ω in body axes, shape (3, N), and the semi-axes √(2T/I_i) of the energy
    ellipsoid ωᵀ I ω = 2T on which it runs (T from the first sample)."""
    I = np.array([trajectory.params[n] for n in INERTIA])
    omega = np.array([trajectory[n] for n in OMEGA])
    two_T = float(I @ omega[:, 0] ** 2)
    return omega, np.sqrt(two_T / I)


def _ellipsoid(semi_axes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    u, v = np.mgrid[0 : 2 * np.pi : 13j, 0 : np.pi : 7j]
    a, b, c = semi_axes
    return a * np.cos(u) * np.sin(v), b * np.sin(u) * np.sin(v), c * np.cos(v)


def relative_change(values: np.ndarray) -> np.ndarray:
    """(I − I₀)/|I₀| of an invariant's samples."""
    return (values - values[0]) / max(abs(values[0]), 1e-300)


class EulerBodyView(AnimatedView):
    """ω(t), invariant drift, polhode, and gimbal lock of the Euler angles."""

    figsize = (10.0, 7.0)

    def __init__(self, system: System) -> None:
        self.system = system  # whose Φ (4.91) the gimbal-lock panel evaluates

    def build(self, fig, trajectory: Trajectory) -> None:
        ax_w = fig.add_subplot(2, 2, 1)
        ax_e = fig.add_subplot(2, 2, 2)
        ax_p = fig.add_subplot(2, 2, 3, projection="3d")
        ax_g = fig.add_subplot(2, 2, 4)
        self.axes = (ax_w, ax_e, ax_p, ax_g)
        t = trajectory.t
        self.omega = [ax_w.plot(t, trajectory[n], label=f"$\\omega_{n[-1]}$")[0] for n in OMEGA]
        self.add_cursor(ax_w)
        ax_w.set(xlabel="t [s]", ylabel="ω [rad/s]", title="Body angular velocity")
        ax_w.legend(loc="upper right", fontsize="small")

        self.drift = {k: ax_e.plot(t, relative_change(trajectory.invariants[k]), label=k)[0]
                      for k in ("energy", "|H|")}
        ax_e.set(xlabel="t [s]", ylabel="relative change", title="Conservation (should be ~0)")
        ax_e.ticklabel_format(axis="y", style="sci", scilimits=(0, 0))
        ax_e.legend(loc="upper left", fontsize="small")

        omega, semi = polhode(trajectory)
        self.ellipsoid = ax_p.plot_wireframe(*_ellipsoid(semi), color="0.85", lw=0.5)
        (self.polhode,) = ax_p.plot(*omega, color="C3")
        (self.tip,) = ax_p.plot(*omega[:, :1], "o", color="C3")
        ax_p.set(xlabel=r"$\omega_x$", ylabel=r"$\omega_y$", zlabel=r"$\omega_z$",
                 title="Polhode: ω on the energy ellipsoid ωᵀIω = 2T")
        self._fit_polhode(semi)
        ax_p.set_box_aspect((1, 1, 1))
        for axis in (ax_p.xaxis, ax_p.yaxis, ax_p.zaxis):  # the ellipsoid's size needs no ticks
            axis.set_ticklabels([])

        (self.theta,) = ax_g.plot(t, np.degrees(trajectory["theta"]), color="C0")
        ax_g.set(xlabel="t [s]", ylim=(-95, 95), title="Gimbal lock of type I Euler angles")
        ax_g.set_ylabel("θ [deg]", color="C0")
        ax_g.axhline(90, color="0.7", lw=0.8, ls=":")
        ax_g.axhline(-90, color="0.7", lw=0.8, ls=":")
        self.ax_phi = ax_g.twinx()
        (self.phi_norm,) = self.ax_phi.semilogy(t, self._phi_norm(trajectory), color="C1")
        self.ax_phi.set_ylabel("‖Φ‖ along the motion", color="C1")
        few_ticks(ax_w, ax_e, ax_g)

    def _fit_polhode(self, semi: np.ndarray) -> None:
        reach = float(np.max(semi)) * 1.05
        now = self.axes[2].get_xlim()[1]
        if not KEEP_LIMITS_FILL * now <= reach <= now:  # else a good fit still: kept, so the
            now = 1.2 * reach  # frame keeps its cached background; room for small moves
        self.axes[2].set(xlim=(-now, now), ylim=(-now, now), zlim=(-now, now))

    def _phi_norm(self, trajectory: Trajectory) -> np.ndarray:
        return phi_norm(self.system, trajectory["theta"], trajectory["psi"], trajectory["phi"])

    def draw_motion(self, trajectory: Trajectory) -> None:
        t = trajectory.t
        for line, n in zip(self.omega, OMEGA, strict=True):
            line.set_data(t, trajectory[n])
        for k, line in self.drift.items():
            line.set_data(t, relative_change(trajectory.invariants[k]))
        omega, semi = polhode(trajectory)
        self.polhode.set_data_3d(*omega)
        self.ellipsoid.remove()  # a wireframe cannot be reshaped in place; one artist replaced
        self.ellipsoid = self.axes[2].plot_wireframe(*_ellipsoid(semi), color="0.85", lw=0.5)
        self._fit_polhode(semi)
        self.theta.set_data(t, np.degrees(trajectory["theta"]))
        self.phi_norm.set_data(t, self._phi_norm(trajectory))
        for ax in (self.axes[0], self.ax_phi):
            rescale(ax)
        rescale(self.axes[1], y=False)
        drift_limits(self.axes[1])
        self.axes[3].set_xlim(t[0], t[-1])
        self._omega = omega  # the polhode, which the marker follows

    def draw_sample(self, trajectory: Trajectory, i: int) -> None:
        """Move the polhode marker to sample ``i``."""
        self.tip.set_data_3d(*self._omega[:, i : i + 1])

    def describe(self, trajectory: Trajectory) -> str:
        I = np.array([trajectory.params[n] for n in INERTIA])
        h = I[:, None] * np.array([trajectory[n] for n in OMEGA])  # H in body axes
        k = int(np.argmax(np.abs(h[:, 0])))  # the body axis H starts nearest
        flips = int(np.sum(np.diff(np.sign(h[k])) != 0))
        axis = "xyz"[k]
        # θ of the quaternion attitude lies in [−90°, 90°]
        theta_max = float(np.degrees(np.max(np.abs(trajectory["theta"]))))
        return (f"Angular velocity components over {trajectory.t[-1]:.0f} s; energy drift "
                f"{trajectory.drift('energy'):.1e} and |H| drift {trajectory.drift('|H|'):.1e}; "
                f"the angular momentum starts near the body {axis}-axis and its {axis}-component "
                f"changes sign {flips} times; the largest sampled |θ| is {theta_max:.1f}° "
                f"({90 - theta_max:.1f}° short of gimbal lock), where ‖Φ‖ is "
                f"{np.max(self._phi_norm(trajectory)):.3g}.")


#: One-click starts for a lecture, with what to predict (Example 4.3's intermediate axis).
PRESETS = {
    "tennis racket": Preset(
        "spin about the middle axis", {"omega_x": 0.05, "omega_y": 2.0, "omega_z": 0.05},
        "Spun about the middle axis, slightly off: does its spin about y keep its sign?"),
    "smallest axis": Preset(
        "spin about the smallest axis", {"omega_x": 2.0, "omega_y": 0.05, "omega_z": 0.05},
        "The same spin about the axis of least inertia: does its spin keep its sign?"),
}


def explorer(system: System, **kwargs: Any) -> Explorer:
    """The explorer of Example 4.3 (keyword arguments go to :class:`Explorer`)."""
    return Explorer(system, EulerBodyView(system),
                    **{"controls": [*INERTIA, *OMEGA], "presets": PRESETS, **kwargs})
