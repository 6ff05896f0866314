"""What following the output area's width costs (issue 17 item 1), per explorer.

For each worked example with an explorer, at the widths of JupyterLab at 1024 px (stacked) and
of a wide screen (side by side): the median time of one constrained-layout pass
(``FigureFitter.layout``), of a whole resize (``FigureFitter.fit``: re-arrange, resize and lay out,
then render) and of a plain render of the same figure, the baseline measured in the same run.
Printed as ratios to that render: the layout runs on a resize and once after the values
settle, never per frame, so its ratio is what a reader waits extra after a slider drag.

Run: ``PYTHONPATH=. .venv/bin/python benchmarks/responsive_layout.py``
"""

from __future__ import annotations

import statistics
import time

import matplotlib

matplotlib.use("Agg")

from companion import examples  # noqa: E402

WIDTHS = {"stacked (880 px)": 880, "side by side (1800 px)": 1800}
REPEATS = 5


def median_seconds(action, repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    print(f"{'explorer':<20} {'layout':<24} {'render ms':>9} {'layout/render':>13} "
          f"{'resize/render':>13}")
    for record in examples.worked_examples():
        if record.explorer is None or record.name not in examples.system_names():
            continue
        explorer = examples.explorer(record.name)
        fig, fitter = explorer.figure, explorer.fitter
        try:
            for label, width in WIDTHS.items():
                fitter.fit(width)
                render = median_seconds(fig.canvas.draw)
                layout = median_seconds(fitter.layout)
                resize = median_seconds(
                    lambda w=width, f=fitter: (f.fit(w), f.figure.canvas.draw()))
                print(f"{record.name:<20} {label:<24} {1e3 * render:9.0f} "
                      f"{layout / render:13.2f} {resize / render:13.2f}")
        finally:
            explorer.close()


if __name__ == "__main__":
    main()
