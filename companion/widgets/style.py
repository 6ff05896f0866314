"""Lecture style: bigger fonts, thicker lines and wider sliders for a projector.

The switch is global for the session; explorers read it when they build their figure and
controls, so call :func:`use_lecture_style` before creating them.
"""

from __future__ import annotations

import os
from contextlib import AbstractContextManager
from typing import Any

#: Lecture mode starts on when the kernel's environment says so, e.g. for Voilà:
#: ``COMPANION_LECTURE=1 voila chapters/...`` (see the README's section for instructors).
LECTURE_ENV = "COMPANION_LECTURE"

_state = {"on": os.environ.get(LECTURE_ENV, "") not in ("", "0")}

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
}


def use_lecture_style(on: bool = True) -> None:
    """Switch the lecture style on (or off) for figures and controls created afterwards."""
    _state["on"] = bool(on)


def is_lecture() -> bool:
    """Whether the lecture style is on."""
    return _state["on"]


#: matplotlib rc settings for every explorer figure: fixed title positions (matplotlib
#: otherwise measures every tick label at each draw to place titles), high enough above the
#: axes to clear the axis's offset text ("1e−11" above the tick labels).
EXPLORER_RC: dict[str, Any] = {"axes.titley": 1.0, "axes.titlepad": 16.0}


def rc_context() -> AbstractContextManager:
    """A matplotlib rc context for explorer figures, with the lecture settings when on."""
    import matplotlib

    return matplotlib.rc_context({**EXPLORER_RC, **(LECTURE_RC if _state["on"] else {})})


def slider_width() -> str:
    """The narrowest a slider gets in an explorer's grid of controls (CSS length)."""
    return "480px" if _state["on"] else "330px"


def control_layout() -> dict[str, Any]:
    """Keyword arguments for ipywidgets sliders (layout and label style): a slider fills its
    cell of the explorer's grid."""
    if _state["on"]:
        return {"layout": {"width": "auto"}, "style": {"description_width": "150px"}}
    return {"layout": {"width": "auto"}, "style": {"description_width": "110px"}}


def text_css() -> str:
    """Inline CSS for readouts and step text."""
    return "font-size: 1.35em;" if _state["on"] else ""


def whole_buttons_css(scope_class: str) -> str:
    """A style sheet under which the buttons inside elements of class ``scope_class`` show
    their whole text: in a narrow output area a flex row otherwise squeezes them to an
    ellipsis ("ne" for "next")."""
    return (f"<style>.{scope_class} .jupyter-button {{ overflow: visible; "
            f"text-overflow: clip; min-width: max-content; }}</style>")


def stack_below_px() -> float:
    """Figure width (CSS pixels) below which an explorer stacks its panels in one column: side
    by side they would be narrower than their tick labels and legends need."""
    return 1000.0 * _scale()


def figure_size(size: tuple[float, float]) -> tuple[float, float]:
    """A view's figure size, enlarged in lecture mode."""
    return (size[0] * _scale(), size[1] * _scale())


def _scale() -> float:
    """How much larger figures are in lecture mode."""
    return 1.35 if _state["on"] else 1.0
