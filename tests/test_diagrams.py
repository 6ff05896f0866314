"""The labelled diagrams (issue 27 §3): every example's module draws without error, carries
the labels a reader looks for, and its PNG is committed where the notebooks embed it."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from companion import diagrams  # noqa: E402
from tools import diagrams as saving  # noqa: E402

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
    "knife_edge_steering": [r"$X_1$: drive along the blade", r"$[X_1, X_2]$: the bracket",
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
    "puck": [r"$C = (x, y)$", r"$\theta$", r"$u_1$ along the axis", r"$u_2$ across the axis",
             r"$u_3 = \dot\theta$", r"thrust $F$", r"mass $m$, moment of inertia $I$"],
    "cart_pendulum": [r"cart $M$", r"bob $m$", r"$x$", r"$L$", r"$\theta$", r"$u_1 = \dot x$",
                      r"$u_2 = \dot\theta$", r"$g$", r"$O$"],
    "two_link": [r"pin $O$", r"$m_1$", r"$m_2$", r"$l_1$", r"$l_2$", r"$\theta_1$",
                 r"$\theta_2$", r"$u_1 = \dot\theta_1$", r"$u_2 = \dot\theta_2$", r"$g$"],
    "cone": [r"$s$", r"$\phi$", r"$\alpha$", r"$O$", r"$m g$", r"$N\,\hat n$", r"$X$", r"$Z$",
             r"$j(s, \phi)"],
    "bowl": [r"$r$", r"$\phi$", r"$z = k r^2$", r"$O$", r"$m g$", r"$N\,\hat n$", r"$X$",
             r"$Z$", r"$j(r, \phi)"],
    "thrown_body": [r"$X$", r"$Z$", r"$O$", r"$p$", r"$v_0$", r"$e_1$", r"$e_3$", r"$\omega$",
                    r"$m g$", "parabola", r"\tau = 0", "in body axes", "inertial frame"],
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


# --- a figure for every system a notebook derives (issue 37 §3) ----------------------------------
#: The diagram that draws each worked example a notebook uses (the examples that share a system
#: or a mechanism share its figure).
DRAWN_BY = {"knife_edge_kane": "knife_edge", "nonholonomic": "knife_edge_steering",
            "rolling_disk_frame": "rolling_disk", "disk_link_rolling": "disk_link",
            "disk_link_friction": "disk_link"}
#: Figures that draw the same system another way (the knife edge's steering diagram and the
#: bridge's frame figure draw the dumbbell; §7.4's body draws Example 4.3's).
ALSO_DRAWN_BY = {"knife_edge": {"knife_edge_steering", "bridge_frames"},
                 "euler_body": {"rigid_body_so3"}}
#: The summary page checks identities on systems drawn where each is derived (and links there).
SUMMARY_PAGES = {"identities.ipynb"}
#: Where the figure must come before the first cell deriving its system: the practice notebooks
#: (general-dynamical-equation, methods-compared and nonholonomic set up the knife edge in an
#: opening code cell and show its figure further down).
FIGURE_FIRST = "practice-"


def _notebooks():
    import pathlib

    chapters = pathlib.Path(__file__).resolve().parents[1] / "chapters"
    return sorted(p for p in chapters.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def derived(source: str) -> set[str]:
    """The systems a cell derives: ``examples.get/explorer/scene/build("name")``, the workbench's
    presets, and the systems of the exercises ``practice.show(set, only=[…])`` poses."""
    import re

    from companion import practice

    used = set(re.findall(r'examples\.(?:get|explorer|scene|build)\("([a-z_0-9]+)"', source))
    used |= set(re.findall(r'presets\.PRESETS\["?([a-z_]+)', source)) - {"preset"}
    for name, only in re.findall(r'practice\.show\("([a-z_]+)",\s*only=\[([^\]]*)\]', source):
        system_of = {e.key: e.example for e in practice.exercise_set(name)}
        used |= {system_of[key] for key in re.findall(r'"(\w+)"', only)}
    return used


def shown(source: str) -> dict[str, str]:
    """The diagrams a markdown cell shows, each with its alt text."""
    import re

    return {name: alt for alt, name in
            re.findall(r'!\[(.*?)\]\([^)\s]*diagram-([a-z_0-9]+)\.png\)', source)
            + [(a, n) for n, a in
               re.findall(r'<img src="[^"]*diagram-([a-z_0-9]+)\.png" alt="([^"]*)"', source)]}


def test_the_notebook_parsing_finds_what_it_should():
    assert derived('practice.show("kane", only=["cart_Qstar1", "link_Q2"])') == {
        "cart_pendulum", "two_link"}
    assert derived('k = examples.get("knife_edge")\np = presets.PRESETS["skate"]') == {
        "knife_edge", "skate"}
    assert shown('![The puck, [u, v] from above](../images/diagram-puck.png)\n'
                 '<img src="../images/diagram-cone.png" alt="A cone" width="560">') == {
        "puck": "The puck, [u, v] from above", "cone": "A cone"}


@pytest.mark.parametrize("path", _notebooks(), ids=lambda p: p.name)
def test_every_system_a_notebook_derives_is_drawn_there(path):
    """Each system a notebook derives has its figure shown there, with a description for screen
    readers; in a practice notebook before the cell that derives it."""
    import nbformat

    if path.name in SUMMARY_PAGES:
        return
    cells = nbformat.read(path, as_version=4).cells
    if not path.name.startswith(FIGURE_FIRST):  # anywhere in the notebook will do
        cells = sorted(cells, key=lambda cell: cell.cell_type != "markdown")
    figures: dict[str, int] = {}
    missing = []
    for index, cell in enumerate(cells):
        if cell.cell_type == "markdown":
            for name, alt in shown(cell.source).items():
                assert len(alt.split()) >= 5, f"{path.name}: {name}'s alt text {alt!r} is short"
                figures.setdefault(name, index)
            continue
        for system in sorted(derived(cell.source)):
            figure = DRAWN_BY.get(system, system)
            assert figure in diagrams.names(), f"{system}: no diagram {figure!r}"
            if not ({figure} | ALSO_DRAWN_BY.get(figure, set())) & set(figures):
                missing.append(f"{system} (diagram-{figure}.png) in cell {index}")
    assert not missing, f"{path.name} derives {', '.join(missing)} before showing its figure"


def test_a_figure_shown_after_its_derivation_fails(tmp_path):
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell('practice.show("pull_back", only=["cone_metric"])'),
        nbformat.v4.new_markdown_cell("![A particle on the inside of a cone]"
                                      "(../images/diagram-cone.png)")])
    path = tmp_path / "practice-x.ipynb"
    nbformat.write(nb, path)
    with pytest.raises(AssertionError, match=r"cone \(diagram-cone.png\) in cell 0"):
        test_every_system_a_notebook_derives_is_drawn_there(path)
    nb.cells.reverse()
    nbformat.write(nb, path)
    test_every_system_a_notebook_derives_is_drawn_there(path)


def test_every_practice_system_has_a_diagram():
    from companion import practice

    systems = {e.example for name in practice.set_names() for e in practice.exercise_set(name)}
    assert systems == {"chaplygin_sleigh", "puck", "cart_pendulum", "two_link", "cone", "bowl"}
    assert systems <= set(diagrams.names())


def test_every_diagram_is_shown_in_a_notebook():
    import nbformat

    shown_anywhere = "\n".join(c.source for p in _notebooks()
                                for c in nbformat.read(p, as_version=4).cells)
    assert [n for n in diagrams.names() if f"diagram-{n}.png" not in shown_anywhere] == []
