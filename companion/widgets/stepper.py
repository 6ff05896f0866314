"""Step-by-step view of a derivation: "step k of N", the book's equation number, LaTeX.

Equations are shown in the books' form (:mod:`companion.mechanics.presentation`): terms
collected by accelerations and products of speeds, derivatives named ω̇₁, long results broken
over aligned lines that fit the output area.

With a widget front end the reader pages through the steps (previous / next / jump / show
all).  Without one (nbconvert HTML export, a console) the whole derivation is shown as static
Markdown with LaTeX and as plain text.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import Any

import ipywidgets as w
import sympy as sp

from companion.mechanics import presentation
from companion.mechanics.derivation import Derivation, Step
from companion.mechanics.methods import method_title
from companion.widgets import style


def _plain(obj: Any, speeds: Sequence[sp.Symbol], coordinates: Sequence[sp.Symbol]) -> str:
    items = obj if isinstance(obj, (list, tuple)) else [obj]
    if items and all(isinstance(o, sp.Equality) for o in items):
        return "\n".join(presentation.equations_text(items, speeds, coordinates))
    if isinstance(obj, (list, tuple)):
        return "\n".join(_plain(o, speeds, coordinates) for o in obj)
    if isinstance(obj, str):
        return obj
    return sp.pretty(obj, use_unicode=True)


#: CSS class of every stepper's box.
STEPPER_CLASS = "companion-stepper"


class Stepper:
    """Page through a derivation in the book's order.

    Parameters
    ----------
    derivation_or_steps
        A :class:`~companion.mechanics.derivation.Derivation` or a sequence of ``Step``.
    title
        Heading shown above the steps (default: the derivation's method name, if any).

    Attributes
    ----------
    index, n_steps
        The current step (0-based) and the number of steps.
    widget
        The ipywidgets box to display.
    """

    def __init__(self, derivation_or_steps: Derivation | Sequence[Step], title: str | None = None):
        source = derivation_or_steps
        is_derivation = isinstance(source, Derivation)
        if not (is_derivation or isinstance(source, Iterable)) or isinstance(source, str):
            raise TypeError("a Stepper shows a Derivation (e.g. system.derive('maggi')) or a "
                            f"list of Steps, got {type(source).__name__} {source!r:.60}")
        self.steps = list(source.steps if is_derivation else source)
        if not self.steps:
            raise ValueError("the derivation has no steps to show")
        bad = [type(s).__name__ for s in self.steps if not isinstance(s, Step)]
        if bad:
            raise ValueError(f"expected Step objects, got {', '.join(sorted(set(bad)))}")
        if title is None and is_derivation:
            title = method_title(derivation_or_steps.method)
        # a derivation's speeds and coordinates order the terms (a row of M u̇ in u's order)
        # and tell speeds named like parameters (ω₁) from parameters
        self._speeds = list(derivation_or_steps.u) if is_derivation else []
        self._coordinates = list(derivation_or_steps.q) if is_derivation else []
        self.title = title
        self.n_steps = len(self.steps)
        self.index = 0
        self._latex_cache: dict[int, str] = {}

        self._header = w.HTML()
        self._math = w.HTMLMath()
        # buttons keep their text; the step list takes the room left and wraps below them
        # on a narrow window rather than squeezing them ("◀ ne")
        button = {"width": "auto", "flex": "0 0 auto"}
        self._prev = w.Button(description="◀ previous", layout=button)
        self._next = w.Button(description="next ▶", layout=button)
        self._jump = w.Dropdown(  # named by its label (WCAG 4.1.2)
            options=[(self._label(k), k) for k in range(self.n_steps)], value=0,
            description="step", style={"description_width": "initial"},
            layout={"width": "auto", "flex": "1 1 16em", "min_width": "12em"})
        self._all = w.ToggleButton(value=False, description="show all", layout=button)
        self._prev.on_click(lambda _: self.previous())
        self._next.on_click(lambda _: self.next())
        self._jump.observe(lambda ch: self.go(ch["new"]), names="value")
        self._all.observe(lambda _: self._render(), names="value")
        heading = [w.HTML(f"<h4>{html.escape(title)}</h4>")] if title else []
        self.widget = w.VBox([
            w.HTML(style.whole_buttons_css(STEPPER_CLASS), layout={"height": "0px"}),
            *heading,
            w.HBox([self._prev, self._next, self._all, self._jump],
                   layout={"flex_flow": "row wrap", "align_items": "center"}),
            self._header,
            self._math,
        ])
        self.widget.add_class(STEPPER_CLASS)
        self._render()

    # ----------------------------------------------------------------- navigation
    def go(self, k: int) -> None:
        """Show step ``k`` (0-based); ``ValueError`` when out of range."""
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < self.n_steps:
            raise ValueError(f"step index must be an integer in 0..{self.n_steps - 1}, got {k!r}")
        self.index = k
        self._render()

    def next(self) -> None:
        """Go one step forward (stays on the last step)."""
        self.go(min(self.index + 1, self.n_steps - 1))

    def previous(self) -> None:
        """Go one step back (stays on the first step)."""
        self.go(max(self.index - 1, 0))

    @property
    def show_all(self) -> bool:
        return self._all.value

    @show_all.setter
    def show_all(self, on: bool) -> None:
        self._all.value = bool(on)

    # ----------------------------------------------------------------- rendering
    def _label(self, k: int) -> str:
        s = self.steps[k]
        return f"{k + 1}. {s.eq + ' ' if s.eq else ''}{s.title}"

    def latex(self, k: int) -> str:
        """LaTeX of step ``k`` (computed once)."""
        if k not in self._latex_cache:
            self._latex_cache[k] = self.steps[k].latex(self._speeds, self._coordinates)
        return self._latex_cache[k]

    def _html(self, k: int) -> str:
        s = self.steps[k]
        eq = f" <b>{html.escape(s.eq)}</b>" if s.eq else ""
        return (f"<div>Step {k + 1} of {self.n_steps}{eq}: "
                f"<b>{html.escape(s.title)}</b><br><i>{html.escape(s.explanation)}</i></div>")

    def _render(self) -> None:
        self._prev.disabled = self.index == 0
        self._next.disabled = self.index == self.n_steps - 1
        if self._jump.value != self.index:
            self._jump.value = self.index
        if self.show_all:
            self._header.value = ""
            self._math.value = self.html()
        else:
            self._header.value = self._html(self.index)
            self._math.value = f"$$\\displaystyle {self.latex(self.index)}$$"

    def html(self) -> str:
        """Every step as HTML with its LaTeX displayed (the show-all view, a static page)."""
        return "".join(f"{self._html(k)}$$\\displaystyle {self.latex(k)}$$"
                       for k in range(self.n_steps))

    def markdown(self) -> str:
        """The whole derivation as Markdown with LaTeX (the static view)."""
        parts = [f"### {self.title}\n"] if self.title else []
        for k, s in enumerate(self.steps):
            eq = f" {s.eq}" if s.eq else ""
            parts.append(f"**Step {k + 1} of {self.n_steps}{eq}: {s.title}**  \n"
                         f"*{s.explanation}*\n\n$$\n{self.latex(k)}\n$$\n")
        return "\n".join(parts)

    def text(self) -> str:
        """The whole derivation as plain text (console view)."""
        parts = [self.title] if self.title else []
        for k, s in enumerate(self.steps):
            eq = f" {s.eq}" if s.eq else ""
            parts.append(f"Step {k + 1} of {self.n_steps}{eq}: {s.title}\n  {s.explanation}\n"
                         + (f"{s.symbol} =\n" if s.symbol else "")
                         + _plain(s.expr, self._speeds, self._coordinates))
        return "\n\n".join(parts)

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, Any]:
        bundle = dict(self.widget._repr_mimebundle_() or {})
        bundle["text/plain"] = self.text()
        bundle["text/markdown"] = self.markdown()
        return bundle

    def __repr__(self) -> str:
        return f"<Stepper: step {self.index + 1} of {self.n_steps}>"
