"""Ready explorers of the worked examples: a :class:`~companion.widgets.View` per example and
a function building the :class:`~companion.widgets.Explorer` from the registry's system."""
