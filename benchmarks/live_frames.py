"""What a slider move costs a live figure in the kernel, as a reader clicks (issue 17 item 7).

For every explorer, at the width of JupyterLab's output area at 1400 px with the file browser
open (930 px: most explorers stack their panels there, the disk–link's two columns do not) and
at 1250 px (side by side): ``--moves`` one-step moves of the
first slider shown, to the right (back from its end) as the browser benchmark presses keys,
each followed by the settle pass a kernel runs once the values settle
(:data:`~companion.widgets.responsive.SETTLE_SECONDS`).  Prints, per explorer and width:

* how many moves rendered the figure's background anew (its limits, ticks or layout changed)
  and how many settle passes laid the figure out and redrew it;
* the median kernel time of a move: simulate, move the artists, render the frame and encode it;
* frames sent per move (one: a second would be a duplicate the browser decodes for nothing),
  the frame's pixels and PNG bytes.

Usage: ``python benchmarks/live_frames.py [--moves 20] [--explorers NAME ...]``
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics

from explorer_timing import plt  # the ipympl backend: live canvases, as in JupyterLab

from companion import examples
from companion.widgets import private_hooks
from companion.widgets.responsive import SETTLE_SECONDS

#: Output-area widths (CSS pixels): JupyterLab at 1400 px with its file browser, and wide.
WIDTHS = (930, 1250)


def clicks(explorer, moves: int) -> dict[str, float]:
    """``moves`` one-step moves of the first slider shown, each followed by the settle pass."""
    name = explorer.essential[0]
    slider = explorer.controls[name]
    layers, canvas, fitter = explorer.layers, explorer.figure.canvas, explorer.fitter
    private_hooks.pretend_front_end_ready(canvas)  # as once a browser has shown it
    frames: list[int] = []
    canvas.send = lambda content, buffers=None: frames.extend(len(b) for b in buffers or [])
    layouts = []
    layout = fitter.layout
    fitter.layout = lambda: layouts.append(1) or layout()
    canvas.draw()
    counts = {"backgrounds": 0, "settle redraws": 0}
    kernel, sent = [], []

    async def run() -> None:
        step = slider.step
        for _ in range(moves):
            if not explorer.range_of(name)[0] <= explorer.values[name] + step <= explorer.range_of(
                    name)[1]:
                step = -step
            before, sent_before = layers.backgrounds, len(frames)
            explorer.update(**{name: explorer.values[name] + step})
            kernel.append(explorer.elapsed + explorer.refresh_seconds + explorer.render_seconds)
            counts["backgrounds"] += layers.backgrounds > before
            sent.append(len(frames) - sent_before)
            drawn = layers.frames
            await asyncio.sleep(SETTLE_SECONDS + 0.05)  # the settle pass runs
            counts["settle redraws"] += layers.frames > drawn

    asyncio.run(run())
    width, height = canvas.get_width_height()
    return {**counts, "layouts": len(layouts), "kernel ms": 1e3 * statistics.median(kernel),
            "frames per move": statistics.mean(sent), "pixels": width * height,
            "png kB": statistics.median(frames) / 1e3}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--explorers", nargs="+", metavar="NAME")
    args = parser.parse_args()
    names = args.explorers or [r.name for r in examples.worked_examples()
                               if r.explorer is not None and r.name in examples.system_names()]
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {args.moves} "
          "one-step moves of the first slider, each followed by the settle pass")
    print(f"{'explorer':<22} {'width, layout':<18} {'bg renders':>10} {'layouts':>8} "
          f"{'settle redraws':>14} {'kernel ms':>9} {'frames/move':>11} {'pixels':>9} "
          f"{'PNG kB':>7}")
    for name in names:
        for width in WIDTHS:
            explorer = examples.explorer(name)
            explorer.fitter.fit(width)
            layout = f"{width} px, {'stacked' if explorer.fitter.stacked else 'wide'}"
            try:
                r = clicks(explorer, args.moves)
            finally:
                explorer.close()
                plt.close("all")
            print(f"{name:<22} {layout:<18} {r['backgrounds']:>4}/{args.moves:<5} "
                  f"{r['layouts']:>8} {r['settle redraws']:>14} {r['kernel ms']:>9.1f} "
                  f"{r['frames per move']:>11.2f} {r['pixels']:>9} {r['png kB']:>7.0f}")


if __name__ == "__main__":
    main()
