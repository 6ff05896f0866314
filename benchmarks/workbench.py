"""The workbench on each preset: what each part costs, as ratios to a baseline of the same run.

The baseline is the knife edge's explorer built from scratch (derive, compile, simulate, first
figure), the cheapest complete explorer among the worked examples, so that the figures say
"the workbench of the snakeboard costs N knife-edge explorers" whatever the machine's load.

Run: ``PYTHONPATH=. python benchmarks/workbench.py [preset ...]``
"""

import sys
import time

import matplotlib

matplotlib.use("Agg")

from companion import examples  # noqa: E402
from companion.workbench import presets, workbench  # noqa: E402


def baseline() -> float:
    """Seconds to build the knife edge's explorer from a fresh system."""
    start = time.perf_counter()
    explorer = examples.worked("knife_edge").explorer(examples.build("knife_edge"))
    seconds = time.perf_counter() - start
    explorer.close()
    return seconds


def main(names: list[str]) -> None:
    baseline()  # imports and first-figure costs paid once, outside every figure below
    for name in names or list(presets.PRESETS):
        before = baseline()
        start = time.perf_counter()
        bench = workbench(presets.PRESETS[name]())
        total = time.perf_counter() - start
        after = baseline()
        unit = (before + after) / 2
        parts = ", ".join(f"{part} {s / unit:.1f}" for part, s in bench.seconds.items())
        print(f"{name}: whole workbench {total / unit:.1f} × the knife-edge explorer "
              f"({unit:.2f} s this run; {before:.2f} s before, {after:.2f} s after); parts: "
              f"{parts}")
        bench.close()


if __name__ == "__main__":
    main(sys.argv[1:])
