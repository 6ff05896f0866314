"""The labelled diagrams (issue 27 §3): every example's module draws without error, carries
the labels a reader looks for, and its PNG is committed where the notebooks embed it."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from companion import diagrams  # noqa: E402
from companion.devtools import diagrams as saving  # noqa: E402

#: The symbols each diagram must label (mathtext as drawn), chosen here, not read from the
#: modules.
EXPECTED = {
    "euler_body": [r"$X$", r"$Z$", r"$x$", r"$y$", r"$z$", r"$\omega$", r"$\psi$",
                   r"$\theta$", r"$\phi$"],
    "knife_edge": [r"$x$", r"$y$", r"$\phi$", r"$l$", "particle 1", "particle 2", "blade",
                   r"$v = u_1$", r"$u_3 = 0$", r"$\lambda$"],
    "dumbbell_rigid": [r"$P$", r"$G$", r"\rho_c", r"$\hat a_x$", r"$\hat a_y$", "v_P",
                       r"\omega", r"$\phi$"],
    "whipple_bicycle": [r"$w$", r"$c$", r"$\lambda$", r"$\phi$", r"$\delta$", "rear frame",
                        "front frame", "rear wheel", "front wheel"],
    "sphere_particle": [r"$R$", r"$\theta$", r"$\phi$", "reaction", r"$m g$", "chart"],
    "rigid_body_so3": [r"$e_1$", r"$e_2$", r"$e_3$", r"$\omega$", r"$M = A\omega$",
                       r"SO(3)"],
    "double_pendulum": [r"$\theta_1$", r"$\theta_2$", r"$a_1$", r"$a_2$", r"$l_1$",
                        r"pin $O$", r"pin $E$", r"$G_1$", r"$G_2$", r"$g$"],
    "disk_link": [r"$\theta$", r"$s$", r"$\psi$", r"$h$", r"$r$", r"$e_1$", r"$e_2$",
                  r"$O$", r"$c$", "absolute angle, counter-clockwise"],
    "polar_spring": [r"$x$", r"$y$", r"$\theta$", r"$u_1 = \dot r$", r"$u_2 = r\,\dot{\theta}$",
                     r"$e_r$", r"$e_\theta$", r"$F_r = -k\,r$", "spring"],
    "moving_carriage": [r"$r$", r"$\theta$", r"$u_1$", r"$u_2$", r"$k_x$", r"$k_y$",
                        r"$\Omega t$", r"A\sin\nu t"],
    "knife_edge_steering": [r"$X_1$: drive along the blade", r"$[X_1, X_2]$: reached by parking",
                            r"$X_2$: turn, $\dot\varphi$", r"$\varphi$", r"$l$"],
    "chaplygin_sleigh": [r"$P = (x, y)$", r"$C$", r"$a$", r"$\theta$", r"$u_1$",
                         r"$u_2 = \dot\theta$", r"$\lambda$"],
    "skate": [r"heel $(x, y)$", "toe", r"$\theta$", r"$u_1$", r"$u_3 = 0$", r"$m g \sin\alpha$"],
    "heavy_top_pivot": [r"$O = P$", r"$G$", r"$h$", r"$m g$", r"$\omega$", r"$X$", r"$Z$",
                        r"$x$", r"$z$", r"-c\,\omega"],
    "rolling_disk": [r"$C = (x, y)$", r"$\theta$", r"$\lambda_1$", r"$\lambda_2$",
                     r"$R\dot\phi$", r"$m g\sin\alpha$", "along $x$ and $y$"],
    "ball_on_turntable": [r"$\Omega$", r"$O$", r"centre $(x, y)$", r"$\Omega \times r_C$",
                          r"$(\dot x, \dot y)$", "mark at $R$"],
    "snakeboard": [r"$(x, y)$", r"$\theta$", r"rotor, $\psi$", r"axle $+\phi$",
                   r"axle $-\phi$", r"$l$", r"k_\phi"],
    "bridge_frames": ["so(3)", "se(2)", r"$[X_1, X_2] = X_{3}$", r"$[X_1, X_2] = - X_{3}$",
                      r"$[X_2, X_3] = - X_{1}$", r"$[X_1, X_3] = 0$"],
}


def test_every_example_of_the_issue_has_a_diagram():
    assert sorted(EXPECTED) == diagrams.names()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_diagram_draws_with_its_labels(name):
    fig = diagrams.figure(name)
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.texts] + [ax.get_title()]
    for label in EXPECTED[name]:
        assert any(label in t for t in texts), f"{name}: no label {label!r} in {texts}"
    assert ax.get_title(), name
    fig.canvas.draw()  # mathtext parses: a typo in a label fails here


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_png_is_committed_and_small(name):
    path = saving.path_of(name)
    assert path.exists(), f"{path} missing: run `make figures`"
    assert path.stat().st_size < 120_000
    width = int.from_bytes(path.read_bytes()[16:20], "big")  # PNG IHDR width
    assert 800 <= width <= 1000


def test_unknown_diagram_is_a_clear_error():
    with pytest.raises(ValueError, match="no diagram 'knife'.*knife_edge"):
        diagrams.figure("knife")


def test_saving_writes_the_png(tmp_path):
    assert saving.main(["knife_edge", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "diagram-knife_edge.png").stat().st_size > 10_000
    assert saving.main(["knife", "--out", str(tmp_path)]) == 2
