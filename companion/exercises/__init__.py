"""Self-study exercises closing each worked-example notebook: the exercise machinery.

Answers are typed in sympy syntax, read by a safe whitelist parser
(:mod:`companion.exercises.parse`) and compared with the engine's result
(:mod:`companion.exercises.check`), both inside a sandboxed grading process
(:mod:`companion.exercises.worker`) that no answer can hang or crash.  The exercises
themselves live in each worked example's slice (``companion/examples/<name>/exercises.py``);
a notebook shows them with::

    from companion import examples
    examples.show_exercises("euler_body")

A slice's builder returns typed exercises and choices (:mod:`companion.exercises.exercise`)
whose answers the engine derives, never typed results.  A second set on the same system, for
another notebook, is a record of its own (``"knife_edge_kane"``).

The package imports none of its modules: the grading worker imports only the parser and the
checker.
"""
