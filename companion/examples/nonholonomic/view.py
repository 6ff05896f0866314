"""The steering explorer (ours, §7.9 reconstructed): the reader sets four legs of u₁, u₂ and
drives the knife edge towards a target (x*, y*, φ*); the figure shows the path with the blade
and the target, and the inputs with θ₁ = ∫u₁ dt against time."""

from __future__ import annotations

import numpy as np

from companion.examples.knife_edge.scene import PARTICLE_COLORS
from companion.examples.nonholonomic.steering import MANOEUVRES, N_LEGS, SteeredKnifeEdge
from companion.numerics import Trajectory
from companion.widgets import Explorer, View
from companion.widgets.explorer import Preset, rescale

TARGET_COLOR = "#CC79A7"  # Okabe–Ito: told apart from particle 1 (tests/test_colours.py)


class SteeringView(View):
    """Left: particle 1's path, the rod at the start and at the end, the target (a cross with
    its heading); right: u₁ and u₂ (steps) and θ₁ = ∫u₁ dt against time."""

    figsize = (9.0, 4.2)

    def setup(self, fig, trajectory: Trajectory) -> None:
        self.ax_p, self.ax_u = fig.subplots(1, 2)
        (self.path,) = self.ax_p.plot([], [], color=PARTICLE_COLORS["particle 1"],
                                      label="particle 1")
        (self.rod_start,) = self.ax_p.plot([], [], color="0.6", lw=3, label="rod at the start")
        (self.rod_end,) = self.ax_p.plot([], [], color="0.2", lw=3, marker="o", markevery=[0],
                                         label="rod at the end")
        (self.target,) = self.ax_p.plot([], [], color=TARGET_COLOR, lw=2, ls="--", marker="x",
                                        ms=10, markevery=[0], label="target (rod)")
        self.ax_p.set(xlabel="x [m]", ylabel="y [m]", title="Where the blade goes",
                      aspect="equal")
        self.ax_p.set_adjustable("datalim")
        self.ax_p.legend(loc="best", fontsize="small")
        (self.u1,) = self.ax_u.step([], [], where="post", label="u₁ [m/s]")
        (self.u2,) = self.ax_u.step([], [], where="post", ls="--", label="u₂ [rad/s]")
        (self.theta,) = self.ax_u.plot([], [], ls=":", lw=2, label="θ₁ = ∫u₁ dt [m]")
        self.ax_u.set(xlabel="t [s]", title="The inputs", xlim=(0, N_LEGS))
        self.ax_u.legend(loc="upper left", fontsize="small")
        self.refresh(trajectory)

    def refresh(self, trajectory: Trajectory) -> None:
        p, l = trajectory.params, trajectory.params["l"]
        x, y = trajectory["x"], trajectory["y"]
        self.path.set_data(x, y)
        self.rod_start.set_data([x[0], trajectory["x2"][0]], [y[0], trajectory["y2"][0]])
        self.rod_end.set_data([x[-1], trajectory["x2"][-1]], [y[-1], trajectory["y2"][-1]])
        tx, ty, tphi = p["x_target"], p["y_target"], p["phi_target"]
        self.target.set_data([tx, tx + l * np.cos(tphi)], [ty, ty + l * np.sin(tphi)])
        self.u1.set_data(trajectory.t, trajectory["u_1"])
        self.u2.set_data(trajectory.t, trajectory["u_2"])
        self.theta.set_data(trajectory.t, trajectory["theta_1"])
        rescale(self.ax_p)
        rescale(self.ax_u, x=False)

    def describe(self, trajectory: Trajectory) -> str:
        x, y, phi = np.round(trajectory.states[:, -1], 3) + 0.0  # no "-0.000"
        return (f"Particle 1 ends at ({x:.3f}, {y:.3f}) m heading {np.degrees(phi):.0f}°, "
                f"{trajectory['miss'][-1]:.3f} m from the target; θ₁ = ∫u₁ dt changed by "
                f"{round(trajectory['theta_1'][-1], 3) + 0.0:.3f} m.")


def explorer(**kwargs) -> Explorer:
    """Sliders for the legs' v_k, w_k, the start and the target; presets for the circle (a
    closed loop in q with ∮u₁ dt = 4 m) and the parallel parking (∮u₁ dt = 0, q moved)."""
    model = SteeredKnifeEdge()
    presets = {
        "circle": Preset("a closed loop", MANOEUVRES["circle"],
                         "Four legs at u₁ = 1 m/s, u₂ = π/2 rad/s: does q come back, and does "
                         "θ₁ = ∫u₁ dt?"),
        "parking": Preset("parallel parking", MANOEUVRES["parking"],
                          "Forward, turn, back, turn back (ε = 0.6): ∫u₁ dt is zero — does "
                          "q come back?"),
    }
    kwargs.setdefault("essential", [f"{a}_{k}" for k in range(1, N_LEGS + 1) for a in "vw"])
    return Explorer(model, SteeringView(), presets=presets, **kwargs)
