"""Pick an example and a derivation method; the derivation's :class:`Stepper` is re-rendered.

Used by the §4.4 notebook to page through any (method, example) pair of Greenwood §4.3–4.4.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

import ipywidgets as w

from companion.mechanics.methods import METHODS, method_title
from companion.system import System
from companion.widgets.lifecycle import close_tree, quietly

#: Why a method does not apply, in a reader's words (the exceptions speak to programmers).
NOT_APPLICABLE = {
    "kane": "Kane's form works with the velocities of the system's points and bodies, and "
            "this example is given only by its kinetic energy",
    "arnold": "Arnold's form needs the three body angular velocities as the speeds, with an "
              "inertia and torques that do not depend on the attitude",
    "geometric": "the covariant form pulls the metric back through a map from the coordinates "
                 "to positions in space, and this example is not given by one",
    "pull_back": "the pull-back works on a mechanism of linked planar bodies, and this example "
                 "is not one",
}


def _words(name: str) -> str:
    return name.replace("_", " ")


class MethodSelector:
    """Two dropdowns (example, method) above the stepper of the chosen derivation.

    Parameters
    ----------
    get_system
        ``get_system(name) -> System``, e.g. :func:`companion.examples.get`.
    example_names, example, method
        The examples offered; the initial choice.
    methods
        The methods offered (default: every registered one).  With one example, its dropdown
        is hidden (a reader's own system in the workbench).

    Attributes
    ----------
    stepper
        The :class:`~companion.widgets.stepper.Stepper` shown, or ``None`` when the method
        does not apply to the example (the reason is shown instead).
    widget
        The ipywidgets box to display.
    """

    def __init__(self, get_system: Callable[[str], System], example_names: Sequence[str],
                 example: str, method: str = "kane", methods: Sequence[str] | None = None):
        self.get_system = get_system
        names = [(_words(n), n) for n in example_names]
        methods = list(METHODS) if methods is None else list(methods)
        self.example = w.Dropdown(options=names, value=example, description="example",
                                  layout={"width": "auto"})
        if len(names) == 1:
            self.example.layout.display = "none"
        self.method = w.Dropdown(options=[(method_title(m), m) for m in methods], value=method,
                                 description="method", layout={"width": "auto"})
        # the stepper goes in as a child: an Output widget holding it stays empty in Voilà
        self.holder = w.VBox()
        self.message = w.HTML()
        self.stepper = None
        self._quiet = False
        for dropdown in (self.example, self.method):
            dropdown.observe(lambda _: None if self._quiet else self._render(), names="value")
        choices = w.HBox([self.example, self.method], layout={"flex_flow": "row wrap"})
        self.widget = w.VBox([choices, self.message, self.holder])
        self._render()

    def select(self, example: str, method: str) -> None:
        """Choose a pair as the reader would with the dropdowns."""
        with quietly(self):
            self.example.value, self.method.value = example, method
        self._render()

    def _render(self) -> None:
        from companion.widgets.stepper import Stepper

        system = self.get_system(self.example.value)
        self.holder.children = ()
        if self.stepper is not None:
            close_tree(self.stepper.widget)
        try:
            derivation = system.derive(self.method.value)
        except NotImplementedError as exc:
            self.stepper = None
            why = NOT_APPLICABLE.get(self.method.value, str(exc))
            self.message.value = (f"<i>{html.escape(method_title(self.method.value))} does not "
                                  f"apply to the {html.escape(_words(self.example.value))}: "
                                  f"{html.escape(why)}.</i>")
            return
        self.message.value = ""
        self.stepper = Stepper(derivation,
                               title=f"{system.title}: {method_title(self.method.value)}")
        self.holder.children = (self.stepper.widget,)

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = dict(self.widget._repr_mimebundle_() or {})
        if self.stepper is not None:
            bundle["text/markdown"] = self.stepper.markdown()
        else:  # why the chosen method does not apply: the static form says it too
            bundle["text/html"] = self.message.value
        return bundle
