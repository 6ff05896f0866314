"""Lecture style: bigger fonts, thicker lines and wider sliders for a projector.

Two halves.  The kernel's: explorers and scenes read the switch when they build their figures
and controls (so call :func:`use_lecture_style` before creating them) and draw with
:data:`LECTURE_RC`, a high-contrast palette with thick lines.  The page's: ``lecture.css``
scales prose, LaTeX, sliders, buttons and steppers to about 150 % and hides the outputs of
cells tagged :data:`HIDE_TAG`; the Voilà template :data:`VOILA_TEMPLATE` (``make lecture``)
puts it in the page, :func:`use_lecture_style` shows it in JupyterLab.
"""

from __future__ import annotations

import os
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

#: Lecture mode starts on when the kernel's environment says so, e.g. for Voilà:
#: ``COMPANION_LECTURE=1 voila chapters/...`` (see the README's section for instructors).
LECTURE_ENV = "COMPANION_LECTURE"

_state = {"on": os.environ.get(LECTURE_ENV, "") not in ("", "0")}

#: Set (to anything but "" or "0") in the environment of a kernel whose notebook is run for a
#: static page (``make book`` does): the parts whose static form costs real work (the engine's
#: exercise solutions, the workbench's figures) carry it only then.
STATIC_ENV = "COMPANION_STATIC"


def static_page() -> bool:
    """Whether this kernel runs its notebook for a static page (:data:`STATIC_ENV`)."""
    return os.environ.get(STATIC_ENV, "") not in ("", "0")

#: A data directory to put on ``JUPYTER_PATH``: it holds the Voilà template below.
VOILA_DATA_DIR = Path(__file__).parent / "lecture"
#: Voilà's lab template with the lecture style: ``voila --template=companion-lecture``.
VOILA_TEMPLATE = "companion-lecture"
#: The projector style sheet (one file, read by the template and by use_lecture_style).
LECTURE_CSS = VOILA_DATA_DIR / "voila" / "templates" / VOILA_TEMPLATE / "lecture.css"
#: Cell tag of outputs that make no sense without their code (a bare matrix, a dict of
#: residuals, a system's repr): lecture mode hides them.
HIDE_TAG = "lecture-hide"

#: The explorers' palette, in every reading: the Okabe–Ito colours, told apart by readers with
#: any of the three colour-vision deficiencies (no two closer than CIEDE2000 ΔE 10 under
#: Machado et al.'s 2009 simulation of protanopia, deuteranopia and tritanopia: tests/
#: test_colours.py; matplotlib's default cycle has its orange and green 1.3 apart under
#: protanopia, WCAG 1.4.1 and 1.4.11, issue 38), dark enough on white to survive a washed-out
#: projector, in the hue order of matplotlib's default cycle (C0 blue, C1 orange, C2 green),
#: so that a body drawn "C0" is blue as its panel title and its scene say (issue 32).
PROJECTOR_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#000000", "#CC79A7", "#E69F00",
                     "#56B4E9"]

#: matplotlib rc settings applied to explorer figures in lecture mode.
LECTURE_RC: dict[str, Any] = {
    "font.size": 15,
    "axes.titlesize": 16,
    "axes.labelsize": 15,
    "xtick.labelsize": 13,
    "ytick.labelsize": 13,
    "legend.fontsize": 13,
    "lines.linewidth": 2.5,
    "lines.markersize": 9,
    "axes.linewidth": 1.6,
    "axes.edgecolor": "black",
    "axes.labelcolor": "black",
    "xtick.color": "black",
    "ytick.color": "black",
    "xtick.major.width": 1.6,
    "ytick.major.width": 1.6,
    "grid.color": "#999999",
    "grid.linewidth": 1.0,
    "text.color": "black",
    "legend.framealpha": 1.0,
    "legend.edgecolor": "black",
}


def use_lecture_style(on: bool = True):
    """Switch the lecture style on (or off) for figures and controls created afterwards.

    Returns the page's half as an HTML style sheet (empty when off): the last line of a
    JupyterLab cell, ``use_lecture_style()``, shows it and so enlarges the notebook's prose,
    LaTeX and controls as Voilà's lecture template does.
    """
    from IPython.display import HTML

    _state["on"] = bool(on)
    return HTML(f"<style>{LECTURE_CSS.read_text(encoding='utf-8')}</style>" if on else "")


def is_lecture() -> bool:
    """Whether the lecture style is on."""
    return _state["on"]


#: matplotlib rc settings for every explorer figure: fixed title positions (matplotlib
#: otherwise measures every tick label at each draw to place titles), high enough above the
#: axes to clear the axis's offset text ("1e−11" above the tick labels).
EXPLORER_RC: dict[str, Any] = {"axes.titley": 1.0, "axes.titlepad": 16.0}


def pin_cycle_colours(fig: Any) -> None:
    """Resolve the colour-cycle references ("C0", "C1", …) of ``fig``'s lines (with their
    markers and legend handles), texts and collections to the colours of the current style.

    matplotlib keeps a "Cn" and resolves it again whenever it draws, under the rc settings of
    that moment: an explorer's figure is made under :func:`rc_context` and drawn outside it, so
    in lecture mode its curves and arrows came out in the default palette while a legend made
    in the context showed the projector's (the disk–link's friction cone: a green band, an
    orange legend patch).  Call it while the figure's style is in force, after its artists are
    made and before it is drawn."""
    from matplotlib.collections import Collection
    from matplotlib.colors import to_rgba
    from matplotlib.lines import Line2D
    from matplotlib.text import Text

    def cycle(spec: Any) -> bool:
        specs = [spec] if isinstance(spec, str) else (spec if isinstance(spec, list) else [])
        return any(isinstance(c, str) and c[:1] == "C" and c[1:].isdigit() for c in specs)

    # texts too: an axis label coloured as its curve
    colours = {Line2D: ("color", "markerfacecolor", "markeredgecolor"), Text: ("color",)}
    for kind, parts in colours.items():
        for artist in fig.findobj(kind):
            for part in parts:
                if cycle(colour := getattr(artist, f"get_{part}")()):
                    getattr(artist, f"set_{part}")(to_rgba(colour))
    for collection in fig.findobj(Collection):
        # what a collection was given is kept privately; its resolved colours are public
        for part in ("facecolor", "edgecolor"):
            if cycle(getattr(collection, f"_original_{part}", None)):
                getattr(collection, f"set_{part}")(getattr(collection, f"get_{part}")())


def rc_context() -> AbstractContextManager:
    """A matplotlib rc context for explorer figures: the palette :data:`PROJECTOR_COLOURS`,
    and the lecture settings when on."""
    import matplotlib
    from cycler import cycler

    cycle = {"axes.prop_cycle": cycler(color=PROJECTOR_COLOURS)}
    lecture = LECTURE_RC if _state["on"] else {}
    return matplotlib.rc_context({**EXPLORER_RC, **cycle, **lecture})


def slider_width() -> str:
    """The narrowest a slider gets in an explorer's grid of controls (CSS length)."""
    return "480px" if _state["on"] else "330px"


def control_layout() -> dict[str, Any]:
    """Keyword arguments for ipywidgets sliders (layout and label style): a slider fills its
    cell of the explorer's grid."""
    return {"layout": {"width": "auto"},
            "style": {"description_width": "150px" if _state["on"] else "110px"}}


def whole_buttons_css(scope_class: str) -> str:
    """A style sheet under which the buttons inside elements of class ``scope_class`` show
    their whole text: in a narrow output area a flex row otherwise squeezes them to an
    ellipsis ("ne" for "next")."""
    return (f"<style>.{scope_class} .jupyter-button {{ overflow: visible; "
            f"text-overflow: clip; min-width: max-content; }}</style>")


#: CSS class of text for screen readers only (in the page, read aloud, not shown): the usual
#: clip of a 1-pixel box, which keeps it in the accessibility tree (``display: none`` would not).
SCREEN_READER_CLASS = "companion-sr-only"
SCREEN_READER_CSS = (f"<style>.{SCREEN_READER_CLASS} {{ position: absolute; width: 1px; "
                     "height: 1px; padding: 0; margin: -1px; overflow: hidden; "
                     "clip: rect(0, 0, 0, 0); white-space: nowrap; border: 0; }</style>")


#: Figure width (CSS pixels, outside lecture mode) below which an explorer stacks its panels in
#: one column, unless its view sets its own (``View.stack_below``).
STACK_BELOW_PX = 1000.0


def stack_below_px(nominal: float = STACK_BELOW_PX) -> float:
    """Figure width (CSS pixels) below which an explorer stacks its panels in one column: side
    by side they would be narrower than their tick labels and legends need.  ``nominal`` is
    the breakpoint outside lecture mode; lecture mode's larger text moves it up."""
    return nominal * _scale()


def figure_size(size: tuple[float, float]) -> tuple[float, float]:
    """A view's figure size, enlarged in lecture mode."""
    return (size[0] * _scale(), size[1] * _scale())


def _scale() -> float:
    """How much larger figures are in lecture mode."""
    return 1.35 if _state["on"] else 1.0
