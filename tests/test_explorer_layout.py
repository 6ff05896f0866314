"""Explorer figures follow their output area's width (issue 17 item 1), without a browser: for
every explorer, at widths from a phone to a projector, no text leaves the figure and no two
panels' labels overlap; below the breakpoint the panels are stacked in one column and come
back side by side above it; bad widths get a clear error, never a collapsed figure."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from figure_checks import (  # noqa: E402
    clipped_texts,
    overlapping_panels,
    panels,
)

from companion import examples  # noqa: E402
from companion.widgets import style  # noqa: E402
from companion.widgets.responsive import MIN_WIDTH_PX, FigureFitter  # noqa: E402

EXPLORERS = [r.name for r in examples.worked_examples()
             if r.explorer is not None and r.name in examples.system_names()]

#: Output-area widths (CSS pixels): JupyterLab at 1024 px with the file browser open, at
#: 1024 px, at 1400 px with the file browser open (all stacked), and wide screens.
WIDTHS = [560, 880, 990, 1250, 1800]


@pytest.fixture(scope="module", params=EXPLORERS)
def explorer(request):
    ex = examples.explorer(request.param)
    yield ex
    ex.close()


def _titles_on_offset_texts(fig) -> list[str]:
    """Titles drawn over their axes' offset text ("1e−11" above the tick labels)."""
    renderer = fig.canvas.get_renderer()
    out = []
    for ax in fig.axes:
        title, offset = ax.title, ax.yaxis.get_offset_text()
        if not (title.get_text() and offset.get_text() and offset.get_visible()):
            continue
        if title.get_window_extent(renderer).overlaps(offset.get_window_extent(renderer)):
            out.append(title.get_text())
    return out


@pytest.mark.parametrize("width", WIDTHS)
def test_figure_fits_its_width_and_nothing_is_clipped(explorer, width):
    explorer.fitter.fit(width)
    fig = explorer.figure
    fig.canvas.draw()
    assert explorer.fitter.width_px() == pytest.approx(width, abs=0.5)
    assert explorer.fitter.stacked == (width < explorer.fitter.breakpoint_px())
    assert clipped_texts(fig) == []
    assert overlapping_panels(fig) == []
    assert _titles_on_offset_texts(fig) == []
    if explorer.fitter.stacked:  # one column: every panel starts at the same left edge
        lefts = {round(ax.get_subplotspec().colspan.start) for ax in panels(fig)}
        assert lefts == {0}
        assert len({ax.get_subplotspec().get_gridspec().ncols for ax in panels(fig)}) == 1


@pytest.mark.parametrize("name", ["disk_link_friction", "disk_link_rolling"])
def test_a_two_column_view_stays_side_by_side_on_a_laptop(name):
    """The disk–link's two columns keep their labels at 806 px (its figure's width in
    JupyterLab at 1024 px) and down to their breakpoint: side by side the figure keeps its
    nominal height, about half the stacked one, so the scene and the curves are seen together;
    below its own breakpoint it stacks like the others."""
    ex = examples.explorer(name)
    try:
        assert ex.fitter.breakpoint_px() <= 806 < style.stack_below_px()
        ex.fitter.fit(ex.fitter.breakpoint_px())
        ex.figure.canvas.draw()
        assert not ex.fitter.stacked
        assert clipped_texts(ex.figure) == [] and overlapping_panels(ex.figure) == []
        ex.fitter.fit(806)
        assert not ex.fitter.stacked
        ex.figure.canvas.draw()
        assert clipped_texts(ex.figure) == [] and overlapping_panels(ex.figure) == []
        side_by_side = ex.figure.get_size_inches()[1]
        assert side_by_side == pytest.approx(ex.fitter.nominal_inches[1])
        ex.fitter.fit(ex.fitter.breakpoint_px() - 1)
        assert ex.fitter.stacked
        assert ex.figure.get_size_inches()[1] > 1.8 * side_by_side
    finally:
        ex.close()


def test_panels_come_back_side_by_side(explorer):
    fig = explorer.figure
    wide = {ax: ax.get_subplotspec() for ax in fig.axes}
    explorer.fitter.fit(1600)
    explorer.fitter.fit(600)
    assert explorer.fitter.stacked
    assert fig.get_size_inches()[1] >= explorer.fitter.nominal_inches[1] - 1e-9
    explorer.fitter.fit(1600)
    assert not explorer.fitter.stacked
    assert {ax: ax.get_subplotspec() for ax in fig.axes} == wide
    assert fig.get_size_inches()[1] == pytest.approx(explorer.fitter.nominal_inches[1])


def test_updates_lay_out_again(explorer):
    """New values bring new tick labels: the layout follows (at once without an event loop)."""
    explorer.fitter.fit(880)
    name = next(iter(explorer.controls))
    low, high = explorer.range_of(name)
    explorer.update(**{name: high})
    explorer.figure.canvas.draw()
    assert clipped_texts(explorer.figure) == []
    explorer.reset()


@pytest.mark.parametrize("bad", [0, -300, float("nan"), float("inf"), "wide", None])
def test_bad_widths_are_refused_clearly(bad):
    ex = examples.explorer("knife_edge")
    try:
        before = tuple(ex.figure.get_size_inches())
        with pytest.raises(ValueError, match="figure width"):
            ex.fitter.fit(bad)
        assert tuple(ex.figure.get_size_inches()) == before
    finally:
        ex.close()


def test_a_hidden_output_never_collapses_the_figure():
    """The probe reports 0 before it is measured (and a detached output measures 0): ignored;
    a tiny width is raised to the minimum."""
    ex = examples.explorer("knife_edge")
    try:
        before = tuple(ex.figure.get_size_inches())
        ex.fitter.probe.width = 0
        assert tuple(ex.figure.get_size_inches()) == before
        ex.fitter.probe.width = 3
        assert tuple(ex.figure.get_size_inches()) == before
        ex.fitter.fit(3)
        assert ex.fitter.width_px() == pytest.approx(MIN_WIDTH_PX)
        ex.fitter.probe.width = 900  # what the front end sends
        assert ex.fitter.width_px() == pytest.approx(900)
        assert ex.fitter.stacked
    finally:
        ex.close()


def test_lecture_mode_stacks_at_a_wider_breakpoint():
    style.use_lecture_style(True)
    try:
        assert style.stack_below_px() > 1000
        ex = examples.explorer("knife_edge")
        try:
            ex.fitter.fit(1100)
            assert ex.fitter.stacked
        finally:
            ex.close()
    finally:
        style.use_lecture_style(False)


def test_closing_stops_following_the_width():
    ex = examples.explorer("knife_edge")
    fitter: FigureFitter = ex.fitter
    figure = ex.figure  # a closed explorer lets go of it (ex.figure is None after close)
    before = tuple(figure.get_size_inches())
    ex.close()
    assert fitter.probe.comm is None and ex.figure is None  # freed in the front end and kernel
    fitter.probe.width = 600
    assert tuple(figure.get_size_inches()) == before


def test_a_figure_outside_an_explorer_follows_its_width_too():
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from companion.widgets.responsive import responsive_figure

    # an Agg figure of its own, not pyplot's: the PNG path whatever backend an earlier test chose
    fig = Figure(figsize=(9, 3.5))
    FigureCanvasAgg(fig)
    for k, ax in enumerate(fig.subplots(1, 2)):
        ax.set(title=f"panel {k} with a long title", xlabel="t [s]", ylabel="y [m]")
    box = responsive_figure(fig)
    try:
        first_png = box.children[1].value
        assert first_png  # shown before any width is known
        box.fitter.probe.width = 640  # what the front end reports
        assert box.fitter.width_px() == pytest.approx(640) and box.fitter.stacked
        assert box.children[1].value != first_png
        fig.canvas.draw()
        assert clipped_texts(fig) == [] and overlapping_panels(fig) == []
    finally:
        box.fitter.close()


def test_the_settle_pass_lays_out_only_when_what_it_measures_changed():
    """The layout pass after a slider move costs about a whole render; it runs only when the
    limits (so the tick labels), titles, labels or size changed since the last one."""
    import asyncio

    from companion.widgets.responsive import SETTLE_SECONDS

    ex = examples.explorer("knife_edge")
    passes = []
    layout = ex.fitter.layout
    ex.fitter.layout = lambda: passes.append(1) or layout()

    async def settle() -> None:
        ex.fitter.data_changed()
        await asyncio.sleep(SETTLE_SECONDS + 0.2)

    try:
        asyncio.run(settle())
        assert passes == [], "laid out again although nothing it measures changed"
        ax = ex.figure.axes[0]
        ax.set_xlim(ax.get_xlim()[0], 10 * ax.get_xlim()[1] + 1)  # new tick labels
        asyncio.run(settle())
        assert passes == [1]
    finally:
        ex.close()


def test_a_skipped_layout_pass_leaves_the_same_pixels():
    """An update lays out again only when what the layout measures changed (its tick labels,
    texts, size: ``layout_key``); the figure is then pixel for pixel the one a pass on every
    update draws, and a move that keeps every tick label runs no pass."""
    import io

    import numpy as np

    def pngs(always: bool) -> list[bytes]:
        ex = examples.explorer("knife_edge")
        passes, layout = [], ex.fitter.layout
        ex.fitter.layout = lambda: passes.append(1) or layout()
        out = []
        try:
            low, high = ex.range_of("u_1")
            for value in np.linspace(low, high, 9)[1:-1]:
                ex.update(u_1=float(value))
                if always:
                    layout()
                buffer = io.BytesIO()
                ex.figure.savefig(buffer, format="png", dpi=60)
                out.append(buffer.getvalue())
            before = len(passes)
            ex.update(u_1=float(value))  # the same values again: the same tick labels
            assert len(passes) == before
        finally:
            ex.close()
        return out

    assert pngs(always=True) == pngs(always=False)


@pytest.mark.parametrize("width", [0, -5, float("nan"), float("inf"), "wide", None])
def test_a_width_that_is_no_positive_number_of_pixels_is_refused(width):
    from matplotlib.figure import Figure

    fitter = FigureFitter(Figure(), lambda: None)
    with pytest.raises(ValueError, match="a figure width must be a positive number of pixels"):
        fitter.fit(width)
