"""SciPy's DOP853 integrator, compiled with a C right-hand side: the whole integration in C.

:func:`scipy.integrate.solve_ivp` steps ``method="DOP853"`` (Hairer, Nørsett & Wanner §II.5
and §II.10; the method and its coefficients: :mod:`companion.numerics.dop853_coefficients`)
in Python, about 50 µs a step around the right-hand side.  For the planar mechanisms' small
systems that overhead dwarfs the right-hand side itself (a C one costs well under a
microsecond), and at the tolerances a chaotic double pendulum needs the whole 20 s run took
longer than anything else a slider move does.  The loop printed here is SciPy's, statement
for statement, with SciPy's coefficients: the same initial step, the same step-size control
(safety 0.9, factors 0.2–10, the error exponent −1/8), the same rejected steps and the same
dense output at the requested times, so its steps are SciPy's to rounding.  No maintained
package offers a compiled integrator that takes a C right-hand side (SUNDIALS comes to Debian
with MPI and PETSc; numbalsoda needs numba and is no longer released), hence this one file.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np


def _array(name: str, values) -> str:
    values = np.asarray(values, dtype=float)
    body = ", ".join(repr(float(v)) for v in values.ravel())
    dims = "".join(f"[{d}]" for d in values.shape)
    return f"static const double {name}{dims} = {{{body}}};"


@functools.cache
def source() -> str:
    """C source of ``int dop853_events(...)`` (the loop in ``dop853_loop.c``, after SciPy's),
    calling the library's ``rhs``."""
    from companion.numerics import dop853_coefficients as co

    return "\n".join([
        "",  # after the right-hand side's closing brace
        "#undef N\n#undef K\n#undef C  /* the right-hand side's sizes */",
        "#include <math.h>",
        "#include <stdlib.h>",
        "#include <string.h>",
        "int rhs(double t, const double *x, const double *p, double *out);",
        f"#define STAGES {co.N_STAGES}",
        f"#define EXTENDED {co.N_STAGES_EXTENDED}",
        f"#define POWER {co.INTERPOLATOR_POWER}",
        _array("DA", co.A), _array("DB", co.B), _array("DC", co.C), _array("DE3", co.E3),
        _array("DE5", co.E5), _array("DD", co.D),
        (Path(__file__).parent / "dop853_loop.c").read_text(),
    ])
