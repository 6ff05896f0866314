"""A projected scene's display rate on a busy laptop (issue 39 §4): frames drawn per second and
the scene's playback clock against the wall clock, quiet and under load.

    PYTHONPATH=. .venv/bin/python benchmarks/display_rate.py [--seconds 4] [--scenes knife_edge …]

Each scene plays on its exported page (``Scene.standalone_html``: the module and keyframes
inline, no kernel, as ``companion/scene/export.py`` writes a chapter), filling a 1400×1000
window of headless Chromium, looping at 1×.  Two probes in the page, called on every
requestAnimationFrame just before and just after the scene's own callback, read the frames the
scene drew and its playback time (``globalThis.__companionScenes``) against
``performance.now()``; they print, per scene:

- frames/s drawn, its page's requestAnimationFrame callbacks per second (equal: the scene draws
  in every frame it is given) and frames/s as a ratio to an empty page's requestAnimationFrame
  rate measured in the same run under the same load (the display's ceiling in this browser on
  this machine);
- playback / wall: the least-squares slope of the playback time (a loop's jump back unwrapped)
  against the wall clock over every frame (1: the motion keeps real time; under 1: it falls
  behind);
- the lag spread: how much further the shown time fell behind the wall clock at its worst frame
  than at its best (ms of motion), and the longest wait between two frames drawn (ms): a
  skipped frame shows as a long wait with no lasting lag;
- the scene's frame callback (its draw), median and longest (ms): the profile of the drawing.

Then again while ``os.cpu_count()`` busy processes (one per core) load the machine, started and
stopped by the script (each also ends by itself a minute later); the loaded part lasts about
``3 + len(scenes) × (seconds + 2)`` seconds.  The figures to compare between runs on a shared,
noisy machine are the ratios: loaded / quiet, frames / the empty page's, playback / wall.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from itertools import pairwise
from pathlib import Path

from companion import examples

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the browser harness
import lab_browser as lb  # noqa: E402

VIEWPORT = {"width": 1400, "height": 1000}
#: A busy process that ends by itself after a minute, should this script be killed.
HOG = "import time\nend = time.time() + 60\nwhile time.time() < end: pass"
#: Before the scene's draw in every frame (started before the scene plays, so its request for
#: each next frame comes first): when the frame's callbacks began.
_BEFORE = """() => { const f = () => { globalThis.__beforeScene = performance.now();
  requestAnimationFrame(f); }; requestAnimationFrame(f); }"""
#: After the scene's draw in every frame, for ``seconds``: the wall clock (performance.now(),
#: s), the playback time the first scene advanced since the start (a loop's jump back
#: unwrapped) and, in frames the scene drew, how long its callback took (_BEFORE to here, ms).
_PROBE = """async ([seconds, span]) => {
  const s = globalThis.__companionScenes && globalThis.__companionScenes[0];
  const select = document.querySelector('.companion-scene select');
  const out = {speed: select ? Number(select.value) : 1, ticks: 0, frames: 0,
               wall: [], played: [], drawn: [], draw: []};
  let start = null, before = 0, played = 0, frames = 0;
  return await new Promise((resolve) => {
    const step = () => {
      const now = performance.now();
      if (start === null) { start = now; frames = s ? s.frames : 0; before = s ? s.time : 0; }
      else out.ticks += 1;
      if (s) {
        let advanced = s.time - before;
        if (advanced < 0) advanced += span;  // the loop went back to the start
        played += advanced; before = s.time;
        out.wall.push((now - start) / 1000); out.played.push(played);
        if (s.frames !== frames) {
          out.drawn.push((now - start) / 1000); out.frames += s.frames - frames;
          if (globalThis.__beforeScene !== undefined) out.draw.push(now - globalThis.__beforeScene);
          frames = s.frames;
        }
      }
      if (now - start >= 1000 * seconds) { out.seconds = (now - start) / 1000; resolve(out); }
      else requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });
}"""


@contextmanager
def busy(processes: int):
    """``processes`` busy Python processes for the duration of the context."""
    hogs = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(processes)]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


def empty_rate(chromium, seconds: float) -> float:
    """requestAnimationFrame callbacks per second on an empty page: the ceiling."""
    page = chromium.new_page(viewport=VIEWPORT)
    try:
        page.set_content("<!doctype html><html><body></body></html>")
        found = page.evaluate(_PROBE, [seconds, 1.0])
        return found["ticks"] / found["seconds"]
    finally:
        page.close()


def play(chromium, page_file: Path, span: float, seconds: float) -> dict[str, float]:
    """The scene of ``page_file`` (``span`` seconds of motion) playing for ``seconds``: the
    figures of the module's docstring (the slope over every frame, so that neither end's frame
    weighs more)."""
    page = chromium.new_page(viewport=VIEWPORT)
    errors = lb.collect_page_errors(page, [])
    try:
        page.goto(page_file.as_uri())
        page.wait_for_selector(f".{lb.SCENE_CLASS} canvas", timeout=60_000)
        page.evaluate(_BEFORE)
        lb.scene_button(page).click()
        page.wait_for_timeout(500)
        found = page.evaluate(_PROBE, [seconds, span])
    finally:
        page.close()
    if errors or found["frames"] < 2:
        raise RuntimeError(f"{page_file.name}: the scene did not play ({errors})")
    speed, wall, played = found["speed"], found["wall"], found["played"]
    lag = [speed * w - p for w, p in zip(wall, played, strict=True)]
    return {"fps": found["frames"] / found["seconds"], "rAF": found["ticks"] / found["seconds"],
            "playback": statistics.linear_regression(wall, played).slope / speed,
            "lag": 1e3 * (max(lag) - min(lag)),
            "wait": 1e3 * max(b - a for a, b in pairwise(found["drawn"])),
            "draw": statistics.median(found["draw"]), "longest draw": max(found["draw"])}


def main(scenes: list[str], seconds: float) -> None:
    cores = os.cpu_count() or 1
    print(f"scenes on their exported pages, {VIEWPORT['width']}×{VIEWPORT['height']} headless "
          f"Chromium, {seconds:g} s each; loaded: {cores} busy processes (one per core); "
          f"load average {os.getloadavg()[0]:.1f} at the start", flush=True)
    rows: dict[str, dict[str, dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp, lb.chromium() as chromium:
        pages = {}
        for name in scenes:
            scene = examples.scene(name)
            pages[name] = (Path(tmp) / f"{name}.html",
                           float(scene.trajectory.t[-1]) - scene.spec_start)
            pages[name][0].write_text("<!doctype html><html><body style='margin:8px'>"
                                      f"{scene.standalone_html()}</body></html>",
                                      encoding="utf-8")
        for label, processes in (("quiet", 0), ("loaded", cores)):
            with busy(processes):
                rows.setdefault("(empty page)", {})[label] = {"fps": empty_rate(chromium, 3.0)}
                for name, (page_file, span) in pages.items():
                    rows.setdefault(name, {})[label] = play(chromium, page_file, span, seconds)
                    print(f"  {label:6s} {name}: " + ", ".join(
                        f"{k} {v:.3g}" for k, v in rows[name][label].items()), flush=True)
            print(f"  {label}: load average {os.getloadavg()[0]:.1f}", flush=True)
    ceiling = rows.pop("(empty page)")
    print(f"\n{'':22s}{'quiet':>9s}{'loaded':>9s}{'loaded/quiet':>14s}")
    print(f"{'empty page rAF/s':22s}{ceiling['quiet']['fps']:9.1f}{ceiling['loaded']['fps']:9.1f}"
          f"{ceiling['loaded']['fps'] / ceiling['quiet']['fps']:14.2f}")
    for name, row in rows.items():
        quiet, loaded = row["quiet"], row["loaded"]
        print(f"{name}")
        print(f"{'  frames/s':22s}{quiet['fps']:9.1f}{loaded['fps']:9.1f}"
              f"{loaded['fps'] / quiet['fps']:14.2f}")
        print(f"{'  its page rAF/s':22s}{quiet['rAF']:9.1f}{loaded['rAF']:9.1f}")
        print(f"{'  ÷ empty page rAF/s':22s}{quiet['fps'] / ceiling['quiet']['fps']:9.2f}"
              f"{loaded['fps'] / ceiling['loaded']['fps']:9.2f}")
        print(f"{'  playback / wall':22s}{quiet['playback']:9.3f}{loaded['playback']:9.3f}")
        for key, text in (("lag", "lag spread (ms)"), ("wait", "longest wait (ms)"),
                          ("draw", "median draw (ms)"), ("longest draw", "longest draw (ms)")):
            print(f"{'  ' + text:22s}{quiet[key]:9.1f}{loaded[key]:9.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="seconds of play per scene")
    parser.add_argument("--scenes", nargs="+", default=["knife_edge", "double_pendulum"],
                        choices=examples.system_names(), metavar="NAME",
                        help="worked examples whose scene plays (default: knife_edge "
                             "double_pendulum)")
    args = parser.parse_args()
    main(args.scenes, args.seconds)
