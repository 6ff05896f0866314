"""Names as the books print them, for labels a reader sees: ``omega_x`` → ω<sub>x</sub>,
``theta_dot`` → θ̇, ``mu_s`` → μ<sub>s</sub>; HTML without LaTeX (slider descriptions and
readouts are not typeset by MathJax); and a symmetric matrix in LaTeX, entry by entry, where
the whole matrix would be wider than a page."""

from __future__ import annotations

import html
import re

# the letters and the combining dots of the equations' plain text
from companion.mechanics.presentation import _DOTS_TEXT as DOTS
from companion.mechanics.presentation import _GREEK_TEXT as GREEK


def pretty(name: str) -> str:
    """HTML for a parameter's name in the books' notation.

    ``theta_dot`` → ``θ̇``, ``omega_x`` → ``ω<sub>x</sub>``, ``I_xx`` → ``I<sub>xx</sub>``,
    ``tau_0`` → ``τ<sub>0</sub>``, ``K_theta`` → ``K<sub>θ</sub>``.
    """
    latex = re.fullmatch(r"\\(dot|ddot)\{\\?(\w+)\}", name)
    if latex:  # a symbol named in LaTeX, e.g. \dot{\theta}
        return pretty(latex.group(2)) + DOTS[latex.group(1)]
    head, *rest = name.split("_")
    dots = ""
    if rest and rest[-1] in DOTS:
        dots = DOTS[rest.pop()]
    text = html.escape(GREEK.get(head, head)) + dots
    if rest:
        text += "<sub>" + html.escape(",".join(GREEK.get(r, r) for r in rest)) + "</sub>"
    return text


#: A subscript a widget's description keeps: its sanitizer drops ``<sub>`` but keeps a styled
#: ``<span>``.
SUBSCRIPT_SPAN = "<span style='vertical-align: sub; font-size: 75%'>"


def with_unit(name: str, unit: str) -> str:
    """``pretty(name)`` followed by the unit in brackets (HTML for a widget's description:
    subscripts as :data:`SUBSCRIPT_SPAN`)."""
    text = re.sub(r"<sub>(.*?)</sub>", SUBSCRIPT_SPAN + r"\1</span>", pretty(name))
    return text + (f" [{html.escape(unit)}]" if unit else "")


def plain(name: str) -> str:
    """The name in the books' notation as plain text (for messages): ``mu_k`` → ``μ_k``."""
    return re.sub(r"<sub>(.*?)</sub>", r"_\1", html.unescape(pretty(name)))
