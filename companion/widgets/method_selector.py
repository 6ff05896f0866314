"""Pick an example and a derivation method; the derivation's :class:`Stepper` is re-rendered.

Used by the §4.4 notebook to page through any (method, example) pair of Greenwood §4.3–4.4.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import ipywidgets as w

from companion.mechanics.methods import METHODS
from companion.system import System


class MethodSelector:
    """Two dropdowns (example, method) above the stepper of the chosen derivation.

    Parameters
    ----------
    get_system
        ``get_system(name) -> System``, e.g. :func:`companion.examples.get`.
    example_names
        The examples offered.
    example, method
        The initial choice.
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
        names = list(example_names)
        methods = list(METHODS) if methods is None else list(methods)
        self.example = w.Dropdown(options=names, value=example, description="example")
        if len(names) == 1:
            self.example.layout.display = "none"
        self.method = w.Dropdown(options=methods, value=method, description="method")
        self.output = w.Output()
        self.message = w.HTML()
        self.stepper = None
        self._quiet = False
        for dropdown in (self.example, self.method):
            dropdown.observe(lambda _: None if self._quiet else self._render(), names="value")
        self.widget = w.VBox([w.HBox([self.example, self.method]), self.message, self.output])
        self._render()

    def select(self, example: str, method: str) -> None:
        """Choose a pair as the reader would with the dropdowns."""
        self._quiet = True
        try:
            self.example.value, self.method.value = example, method
        finally:
            self._quiet = False
        self._render()

    def _render(self) -> None:
        from companion.widgets.stepper import Stepper

        system = self.get_system(self.example.value)
        self.output.clear_output()
        try:
            derivation = system.derive(self.method.value)
        except NotImplementedError as exc:
            self.stepper = None
            self.message.value = f"<i>{self.method.value} does not apply here: {exc}</i>"
            return
        self.message.value = ""
        self.stepper = Stepper(derivation, title=f"{system.title}: {self.method.value}")
        self.output.append_display_data(self.stepper.widget)

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = dict(self.widget._repr_mimebundle_() or {})
        if self.stepper is not None:
            bundle["text/markdown"] = self.stepper.markdown()
        return bundle
