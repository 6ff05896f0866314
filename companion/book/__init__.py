"""The books' printed results, used only by tests and ``python -m companion verify``.

One module per text.  Each holds the printed matrices/equations as data and a ``checks()``
function returning :class:`companion.verify.Check` objects that compare them with what the
engine derives.  No other part of the package may import these tables.
"""
