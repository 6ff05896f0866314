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
  in every frame it is given) and frames/s as ratios to two baselines measured on the same
  turns: an empty page's requestAnimationFrame rate (the display's ceiling in this browser on
  this machine) and a bare canvas of the scene's size filled in every frame (what showing a
  new canvas costs, the scene's drawing aside);
- playback / wall: the slope of the playback time (a loop's jump back unwrapped) against the
  wall clock over every frame (Theil–Sen, pairs at least 1 s apart; 1: the motion keeps
  real time; under 1: it falls behind);
- the lag spread: how much further the shown time fell behind the wall clock at its worst frame
  than at its best (ms of motion), and the longest wait between two frames drawn (ms): a
  skipped frame shows as a long wait with no lasting lag;
- the scene's frame callback (its draw), median and longest (ms): the profile of the drawing.

Each page is measured quiet and loaded by turns (``ROUNDS`` windows of each, ``seconds`` of each
in all), loaded meaning ``os.cpu_count()`` busy processes (one per core) started by the script,
held stopped (SIGSTOP) while quiet and let run (SIGCONT) while loaded, so that the loaded part
lasts about ``(2 + len(scenes)) × seconds`` and both kinds of window meet the same moments of a
shared machine.  The busy processes end with the script (and by themselves when their parent
has gone, or after ten minutes).  The figures to compare between runs on a shared, noisy
machine are the ratios: loaded / quiet, frames / a baseline's, playback / wall.
"""

from __future__ import annotations

import argparse
import os
import signal
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
#: A scene's canvas in this window (CSS px): scene.css caps its width, scene.js its height.
CANVAS = (1100, 720)
#: The baselines: an empty page, and a canvas of :data:`CANVAS` filled anew in every frame,
#: nothing else drawn (what showing a new canvas each frame costs this browser).
BASELINES = {
    "empty page": "<!doctype html><html><body></body></html>",
    "bare canvas": "<!doctype html><html><body style='margin:8px'><canvas "
                   f"style='width:{CANVAS[0]}px;height:{CANVAS[1]}px;display:block'></canvas><script>"
                   "const c = document.querySelector('canvas'); c.width = c.clientWidth;"
                   " c.height = c.clientHeight; const ctx = c.getContext('2d'); let k = 0;"
                   " const f = () => { ctx.fillStyle = k++ % 2 ? '#ffffff' : '#fefefe';"
                   " ctx.fillRect(0, 0, c.width, c.height); requestAnimationFrame(f); };"
                   " requestAnimationFrame(f);</script></body></html>"}
#: Windows of each kind (quiet, loaded) taken by turns on every page.
ROUNDS = 2
#: A busy process that ends by itself when its parent has gone (or after ten minutes).
HOG = ("import os, time\nparent, end = os.getppid(), time.time() + 600\n"
       "while os.getppid() == parent and time.time() < end: pass")
#: Before the scene's draw in every frame (started before the scene plays, so its request for
#: each next frame comes first): when the frame's callbacks began, and the frames drawn then.
_BEFORE = """() => { const s = globalThis.__companionScenes[0];
  const f = () => { globalThis.__beforeScene = [performance.now(), s.frames];
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
          const [began, seen] = globalThis.__beforeScene || [];
          if (seen !== undefined && seen !== s.frames) out.draw.push(now - began);
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
    """``processes`` busy Python processes, held stopped until the context's value, ``load``,
    sets them running (``load(True)``) or stops them again (``load(False)``)."""
    hogs = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(processes)]

    def load(on: bool) -> None:
        for hog in hogs:
            hog.send_signal(signal.SIGCONT if on else signal.SIGSTOP)

    load(False)
    try:
        yield load
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


def interleaved(page, load, span: float, seconds: float) -> dict[bool, list[dict]]:
    """The probe's windows on ``page``, quiet and loaded by turns (:data:`ROUNDS` of each,
    ``seconds`` in all for each), so that both meet the same moments of a shared machine."""
    found: dict[bool, list[dict]] = {False: [], True: []}
    for _ in range(ROUNDS):
        for on in (False, True):
            load(on)
            page.wait_for_timeout(200)
            found[on].append(page.evaluate(_PROBE, [seconds / ROUNDS, span]))
    load(False)
    return found


def _slope(windows: list[dict], apart: float = 1.0) -> float:
    """Playback seconds per wall-clock second: the Theil–Sen slope, the median over the pairs of
    frames of one window at least ``apart`` seconds apart.  A frame whose callbacks run late
    shows the time it was due, so its lag is jitter of up to a few hundred ms on a busy machine:
    it tilts a least-squares line, or a window's end-to-end ratio, when it falls near an end, not
    this median."""
    slopes = [(w["played"][j] - w["played"][i]) / (w["wall"][j] - w["wall"][i]) / w["speed"]
              for w in windows for i in range(len(w["wall"])) for j in range(i + 1, len(w["wall"]))
              if w["wall"][j] - w["wall"][i] >= apart]
    return statistics.median(slopes)


def figures(windows: list[dict]) -> dict[str, float]:
    """The figures of the module's docstring from a scene's windows (playback / wall:
    :func:`_slope`)."""
    total = sum(w["seconds"] for w in windows)
    lags, waits, draws = [], [], []
    for w in windows:
        lag = [w["speed"] * t - p for t, p in zip(w["wall"], w["played"], strict=True)]
        lags.append(1e3 * (max(lag) - min(lag)))
        waits += [1e3 * (b - a) for a, b in pairwise(w["drawn"])]
        draws += w["draw"]
    return {"fps": sum(w["frames"] for w in windows) / total,
            "rAF": sum(w["ticks"] for w in windows) / total,
            "playback": _slope(windows), "lag": max(lags), "wait": max(waits),
            "draw": statistics.median(draws), "longest draw": max(draws)}


def rate(chromium, load, seconds: float, html: str) -> dict[bool, float]:
    """requestAnimationFrame callbacks per second on a page of ``html``, quiet and loaded."""
    page = chromium.new_page(viewport=VIEWPORT)
    try:
        page.set_content(html)
        found = interleaved(page, load, 1.0, seconds)
    finally:
        page.close()
    return {on: sum(w["ticks"] for w in windows) / sum(w["seconds"] for w in windows)
            for on, windows in found.items()}


def play(chromium, load, page_file: Path, span: float,
         seconds: float) -> dict[bool, dict[str, float]]:
    """The scene of ``page_file`` (``span`` seconds of motion) playing, quiet and loaded:
    :func:`figures` of each."""
    page = chromium.new_page(viewport=VIEWPORT)
    errors = lb.collect_page_errors(page, [])
    try:
        page.goto(page_file.as_uri())
        page.wait_for_selector(f".{lb.SCENE_CLASS} canvas", timeout=60_000)
        size = page.evaluate(f"() => {{ const c = document.querySelector('.{lb.SCENE_CLASS} "
                             "canvas'); return [c.clientWidth, c.clientHeight]; }")
        if tuple(size) != CANVAS:
            raise RuntimeError(f"{page_file.name}: the scene's canvas is {size[0]}×{size[1]} px,"
                               f" the bare canvas {CANVAS[0]}×{CANVAS[1]}: update CANVAS")
        page.evaluate(_BEFORE)
        lb.scene_button(page).click()
        page.wait_for_timeout(500)
        found = interleaved(page, load, span, seconds)
    finally:
        page.close()
    windows = found[False] + found[True]
    if errors or min(len(w["drawn"]) for w in windows) < 2:
        raise RuntimeError(f"{page_file.name}: the scene did not play ({errors})")
    if not all(w["draw"] for w in windows):
        raise RuntimeError(f"{page_file.name}: no frame's draw came between the two probes")
    return {on: figures(found[on]) for on in (False, True)}


def main(scenes: list[str], seconds: float) -> None:
    cores = os.cpu_count() or 1
    print(f"scenes on their exported pages, {VIEWPORT['width']}×{VIEWPORT['height']} headless "
          f"Chromium, {seconds:g} s quiet and {seconds:g} s loaded each, by turns; loaded: "
          f"{cores} busy processes (one per core); load average {os.getloadavg()[0]:.1f} "
          "at the start", flush=True)
    rows: dict[str, dict[bool, dict[str, float]]] = {}
    with (tempfile.TemporaryDirectory() as tmp, lb.chromium() as chromium,
          busy(cores) as load):
        floor = {name: rate(chromium, load, seconds, html) for name, html in BASELINES.items()}
        for name in scenes:
            scene = examples.scene(name)
            page_file = Path(tmp) / f"{name}.html"
            page_file.write_text("<!doctype html><html><body style='margin:8px'>"
                                 f"{scene.standalone_html()}</body></html>", encoding="utf-8")
            span = float(scene.trajectory.t[-1]) - scene.spec_start
            rows[name] = play(chromium, load, page_file, span, seconds)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    print(f"\n{'':22s}{'quiet':>9s}{'loaded':>9s}{'loaded/quiet':>14s}")
    for name, fps in floor.items():
        print(f"{name + ' frames/s':22s}{fps[False]:9.1f}{fps[True]:9.1f}"
              f"{fps[True] / fps[False]:14.2f}")
    for name, row in rows.items():
        quiet, loaded = row[False], row[True]
        print(f"{name}")
        print(f"{'  frames/s':22s}{quiet['fps']:9.1f}{loaded['fps']:9.1f}"
              f"{loaded['fps'] / quiet['fps']:14.2f}")
        print(f"{'  its page rAF/s':22s}{quiet['rAF']:9.1f}{loaded['rAF']:9.1f}")
        for base, fps in floor.items():
            print(f"{'  ÷ ' + base:22s}{quiet['fps'] / fps[False]:9.2f}"
                  f"{loaded['fps'] / fps[True]:9.2f}")
        print(f"{'  playback / wall':22s}{quiet['playback']:9.3f}{loaded['playback']:9.3f}")
        for key, text in (("lag", "lag spread (ms)"), ("wait", "longest wait (ms)"),
                          ("draw", "median draw (ms)"), ("longest draw", "longest draw (ms)")):
            print(f"{'  ' + text:22s}{quiet[key]:9.1f}{loaded[key]:9.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0,
                        help="seconds of play per scene, quiet and again loaded")
    parser.add_argument("--scenes", nargs="+", default=["knife_edge", "double_pendulum"],
                        choices=examples.system_names(), metavar="NAME",
                        help="worked examples whose scene plays (default: knife_edge "
                             "double_pendulum)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # the busy processes end too
    main(args.scenes, args.seconds)
