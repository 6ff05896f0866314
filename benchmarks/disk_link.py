"""Figures for the disk on a pivoted link (Loparo & Vakalis §7.10–7.11, reconstructed).

Prints: the analytic cases' errors, the default runs' simulation time with the modes compiled
against their Python evaluation (a ratio from the same run), energy behaviour along the default
runs, the time of the default friction demo with its mode switches, the explorer update time
and (with --notebooks) the headless run time of the two notebooks.

    PYTHONPATH=$PWD python benchmarks/disk_link.py [--notebooks]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time
from pathlib import Path

import numpy as np

from companion import examples
from companion.examples.disk_link.modes import MODES
from companion.verify import all_checks

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ["chapters/loparo-07/disk-link-rolling.ipynb",
             "chapters/loparo-07/disk-link-friction.ipynb"]


def timed(fn, repeat: int = 5) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def energy_report(tr) -> str:
    e = tr["energy"]
    worst_roll, worst_rise = 0.0, 0.0
    mode = tr["mode"]
    for i in range(1, len(e)):
        if mode[i] == mode[i - 1] and tr.t[i] > tr.t[i - 1]:
            if MODES[int(mode[i])] in ("rolling", "separated"):
                worst_roll = max(worst_roll, abs(e[i] - e[i - 1]))
            else:
                worst_rise = max(worst_rise, e[i] - e[i - 1])
    return (f"energy balance drift {tr.drift('energy balance'):.1e}; largest step change of E "
            f"while rolling/flying {worst_roll:.1e} J; largest rise of E while slipping "
            f"{worst_rise:.1e} J (τ = 0: must be ≤ 0)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notebooks", action="store_true", help="also run the notebooks")
    args = parser.parse_args()

    print("Analytic cases (reconstruction), tolerance 1e-9:")
    for check in all_checks(["disk_link_rolling", "disk_link_friction"]):
        ok, detail = check.run()
        print(f"  {'ok ' if ok else 'BAD'} {check.what}: {detail}")

    rolling, friction = examples.get("disk_link_rolling"), examples.get("disk_link_friction")
    rolling.simulate()
    friction.simulate()  # compile once
    t_roll, tr_roll = timed(rolling.simulate)
    t_fric, tr_fric = timed(friction.simulate)
    print("\nDefault runs, the modes compiled (C: right-hand side, guards and their location "
          "in one call per segment) against their Python evaluation (solve_ivp), same run:")
    for system, t_c in ((rolling, t_roll), (friction, t_fric)):
        python = dataclasses.replace(system.integrator, backend="python")
        t_py, tr_py = timed(lambda system=system, python=python: system.simulate(
            integrator=python))
        print(f"  {system.name:<20} C {1e3 * t_c:6.2f} ms, Python {1e3 * t_py:6.1f} ms: "
              f"{t_py / t_c:5.1f}× faster; {len(tr_py.switches)} switches")
    print(f"\nRolling model (default run): {1e3 * t_roll:.2f} ms, {len(tr_roll.t)} samples; "
          f"energy drift {tr_roll.drift('energy'):.1e} (τ = 0)")
    for event in tr_roll.events:
        print(f"  {event}")
    print(f"\nFriction demo (default run): {1e3 * t_fric:.2f} ms (budget 200 ms), "
          f"{len(tr_fric.switches)} mode switches:")
    for event in tr_fric.events:
        print(f"  {event}")
    print(f"  {energy_report(tr_fric)}")
    print(f"  W_f non-increasing: {bool(np.all(np.diff(tr_fric['W_fric']) <= 1e-12))}")

    try:
        import matplotlib

        matplotlib.use("Agg")
    except ImportError as exc:
        print(f"\nExplorers: skipped ({exc})")
    else:
        for name in ("disk_link_rolling", "disk_link_friction"):
            ex = examples.explorer(name)
            values = iter(np.linspace(0.1, 0.5, 50))
            t_upd, _ = timed(lambda ex=ex, values=values: ex.update(theta=next(values)),
                             repeat=7)
            print(f"\n{name}: update (simulate + redraw in place) {1e3 * t_upd:.0f} ms "
                  "(budget 100 ms)")

    if args.notebooks:
        import nbclient
        import nbformat

        for path in NOTEBOOKS:
            nb = nbformat.read(ROOT / path, 4)
            start = time.perf_counter()
            nbclient.NotebookClient(nb, timeout=120, kernel_name="python3", resources={
                "metadata": {"path": str((ROOT / path).parent)}}).execute()
            print(f"\n{path}: ran headless in {time.perf_counter() - start:.1f} s (budget 30 s)")


if __name__ == "__main__":
    main()
