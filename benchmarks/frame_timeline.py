"""Where a slider move's time goes in the browser, for the floor and each explorer (issue 17).

For each notebook's main explorer (and the floor of ``interactivity.py``: a bare ipympl sine
plot), ``--moves`` key presses on its first slider, each timed inside the page from the key:

* **scene**: the first large message (> 20 kB) before the frame, the mechanism's new motion
  (the kernel sends it as soon as the simulation is done; absent for the floor);
* **frame**: the figure's frame arrives (the kernel has simulated, moved the artists,
  rendered and encoded the PNG);
* **decoded**: the browser has loaded and decoded that PNG (ipympl paints it then);
* **paint**: the explorer's canvas is painted;

with the frame's pixels and bytes.  Medians, in ms from the key.  The difference between an
explorer and the floor splits into the kernel's work (frame) and the decoding of a larger
picture (decoded − frame).

Usage: ``python benchmarks/frame_timeline.py [--moves 15] [--notebooks WORD ...]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

from interactivity import FLOOR_NOTEBOOK

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the browser harness
import lab_browser as lb  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

#: Records, in ``window.__timeline``, each large websocket message, each blob image's ``src``
#: and its load, and each image drawn onto a canvas (ipympl's frame onto its offscreen canvas).
PROBE = """
(() => {
  const log = window.__timeline = [];
  const src = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, 'src');
  Object.defineProperty(HTMLImageElement.prototype, 'src', {configurable: true,
    get() { return src.get.call(this); },
    set(v) {
      if (String(v).startsWith('blob:')) {
        window.__timeline.push(['src', performance.now()]);
        this.addEventListener('load', () => window.__timeline.push(['load', performance.now()]),
                              {once: true});
      }
      src.set.call(this, v);
    }});
  const onmessage = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
  Object.defineProperty(WebSocket.prototype, 'onmessage', {configurable: true,
    get() { return onmessage.get.call(this); },
    set(handler) {
      onmessage.set.call(this, e => {
        const size = e.data.byteLength || e.data.size || e.data.length || 0;
        if (size > 20000) window.__timeline.push(['message', performance.now(), size]);
        return handler(e);
      });
    }});
  const draw = CanvasRenderingContext2D.prototype.drawImage;
  CanvasRenderingContext2D.prototype.drawImage = function (...args) {
    if (args[0] instanceof HTMLImageElement)
      window.__timeline.push(['draw', performance.now(), args[0].naturalWidth *
                              args[0].naturalHeight]);
    return draw.apply(this, args);
  };
})();
"""

COLUMNS = ("scene", "frame", "decoded", "paint")


def moves(page, n: int) -> dict[str, float]:
    """Medians over ``n`` key presses: ms from the key to each stage, pixels and bytes."""
    rows: dict[str, list[float]] = {k: [] for k in (*COLUMNS, "pixels", "bytes")}
    for _ in range(n):
        page.evaluate("() => { window.__timeline = []; window.__companionKeys = []; }")
        lb.slider_latency(page)
        page.wait_for_timeout(200)  # the frame's load event comes after its paint
        log = page.evaluate("window.__timeline")
        key = page.evaluate("window.__companionKeys[0]")
        paint = page.evaluate("k => window.__companionPaints.find(x => x > k)", key)
        src = next((e for e in log if e[0] == "src"), None)
        drawn = next((e for e in log if e[0] == "draw"), None)
        if src is None or drawn is None:
            continue
        # the frame is the message just before its image's src; an earlier large one is
        # the scene's motion
        before = [e for e in log if e[0] == "message" and e[1] <= src[1]]
        frame = before[-1] if before else src  # a small frame is not logged: its src then
        if len(before) > 1:
            rows["scene"].append(before[0][1] - key)
        rows["frame"].append(frame[1] - key)
        rows["decoded"].append(drawn[1] - key)
        rows["paint"].append(paint - key)
        rows["pixels"].append(drawn[2])
        rows["bytes"].append(frame[2] if len(frame) > 2 else float("nan"))
    return {k: statistics.median(v) if v else float("nan") for k, v in rows.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=15)
    parser.add_argument("--notebooks", nargs="+", metavar="WORD")
    args = parser.parse_args()
    paths = lb.chapter_notebooks(ROOT)
    paths = [p for p in paths if Path(p).name != "index.ipynb"
             and (not args.notebooks or any(w in Path(p).name for w in args.notebooks))]
    print(f"ms from the key to each stage, medians of {args.moves} moves; frame pixels, PNG kB")
    print(f"{'notebook':<44} {'scene':>7} {'frame':>7} {'decoded':>8} {'paint':>7} "
          f"{'pixels':>9} {'kB':>5}")
    with tempfile.TemporaryDirectory(dir=ROOT / "chapters") as tmp:
        floor = Path(tmp) / "floor.ipynb"
        floor.write_text(json.dumps(FLOOR_NOTEBOOK))
        with lb.jupyter_server(ROOT) as server, lb.chromium() as browser:
            for path in [floor.relative_to(ROOT).as_posix(), *paths]:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.add_init_script(PROBE)
                try:
                    lb.open_and_run(page, server, path)
                    r = moves(page, args.moves)
                finally:
                    page.close()
                name = "floor (bare ipympl sine plot)" if path.endswith("floor.ipynb") else path
                print(f"{name:<44} {r['scene']:7.1f} {r['frame']:7.1f} {r['decoded']:8.1f} "
                      f"{r['paint']:7.1f} {r['pixels']:9.0f} {r['bytes'] / 1e3:5.0f}")


if __name__ == "__main__":
    main()
