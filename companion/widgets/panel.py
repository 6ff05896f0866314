"""A column of widgets that keeps a static form: a notebook's own arrangement of controls and
companion widgets (a slider steering a scene) still reads on a page without widgets (the
static book, an HTML export), where an ``ipywidgets.VBox`` would leave an empty box."""

from __future__ import annotations

import base64
import html
from typing import Any

import ipywidgets as w


def static_html(widget: w.Widget) -> str | None:
    """``widget``'s static form as HTML, or None when it has none.

    A widget with a static form of its own (a scene's filmstrip, a figure's PNG, a stepper's
    derivation) shows it; a control shows its label and the value it was run with; an HTML
    or label widget its text; a :class:`Panel` or any box its children's forms in order.
    """
    shown = widget._repr_mimebundle_() or {}
    data = shown[0] if isinstance(shown, tuple) else shown
    if "text/html" in data:
        return data["text/html"]
    if "image/png" in data:
        png = data["image/png"]
        png = png if isinstance(png, str) else base64.b64encode(png).decode("ascii")
        return f'<img alt="{html.escape(data.get("text/plain", "figure"))}" ' \
               f'src="data:image/png;base64,{png}">'
    if isinstance(widget, w.Box):
        parts = [static_html(child) for child in widget.children]
        return None if None in parts else "".join(parts)
    if isinstance(widget, (w.HTML, w.HTMLMath)):
        return widget.value
    if isinstance(widget, w.Label):
        return f"<p>{html.escape(widget.value)}</p>"
    if isinstance(widget, w.ValueWidget) and hasattr(widget, "description"):
        value = widget.value
        form = getattr(widget, "readout_format", "")
        shown_value = format(value, form) if form and isinstance(value, (int, float)) else value
        return (f'<p class="companion-static-control">{html.escape(widget.description)} = '
                f"{html.escape(str(shown_value))}</p>")
    return None


class Panel(w.VBox):
    """An ``ipywidgets.VBox`` whose static form is its children's (:func:`static_html`), e.g.
    ``Panel([epsilon_slider, scene])``: on a page without widgets, "ε = 0.60" and the scene
    playing from its keyframes.  With a child that has no static form the panel has none
    either (it still shows live): ``make book`` and the notebook tests name its cell.
    """

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = dict(super()._repr_mimebundle_(**kwargs) or {})
        parts = [static_html(child) for child in self.children]
        if None not in parts:
            bundle["text/html"] = "".join(parts)
        return bundle
