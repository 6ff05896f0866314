"""Advanced Dynamics Companion.

An interactive companion to Greenwood, *Advanced Dynamics* §4.3–4.4, and Loparo & Vakalis,
"The Dynamics of Systems of Interacting Rigid Bodies".  Every worked example is *derived*
here with sympy from its definition (see :mod:`companion.examples`), simulated with scipy and
shown with ipywidgets/ipympl (see :mod:`companion.widgets`).

Importing the package is kept light: heavy modules are imported by the modules that need them.
"""

__version__ = "0.1.0"
