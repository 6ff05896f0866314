"""Scene figures (issue 13): playback frame rate in headless Chromium, slider release → first
frame of the new motion, keyframe payloads, and a chapter notebook's size with widget state.

    .venv/bin/python benchmarks/scene.py [--seconds 3] [--moves 7]
    .venv/bin/python benchmarks/scene.py --display-rate [--seconds 3] [--notebooks covariant euler]

    .venv/bin/python benchmarks/scene.py --causes [--seconds 3] [--notebooks euler-rigid]

``--causes`` (issue 39): a notebook's first scene playing on its exported page, then on a live
page (JupyterLab, every cell run; Voilà in lecture mode), counted by Chromium per second of
play: layouts, style passes, script and main-thread ms, each a ratio to the exported page's in
the same run (the counts hardly depend on the machine's load; the frame rate, a ratio to an
empty page's, does); then, from a trace of the same seconds, the main thread's busiest work,
what invalidated layout or style (the reason, the node, the script frame that asked) and what
forced a layout synchronously.

``--display-rate`` (issue 30): every notebook's first scene playing at 1920×1080 in JupyterLab
(the notebook run), then the same scene in its standalone page (as an exported book shows it,
in a 1100-px column), beside an empty page's requestAnimationFrame rate in the same run: the
ratio scene / empty page is the figure to compare between runs on a shared, noisy machine;
with the page's layouts, style passes and main-thread milliseconds per second of playing
(counted by Chromium: they depend on the machine's load far less than the frame rate).
Last, the drawing alone: ms per frame drawn whole and on the scene's still layer.

Frame rates are counted inside the page with requestAnimationFrame: the frames the scene
drew, beside the page's own rAF rate over the same seconds (the display's ceiling in this
browser).  Goals: ≥ 55 fps (bar ≥ 30), ≤ 200 ms median latency, ≤ 250 kB per motion,
≤ 2 MB per notebook saved with widget state.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

import nbformat

from companion import examples
from companion.scene import keyframes

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the browser harness
import lab_browser as lb  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
#: The three motions the issue measures, and the notebook each plays in.
PLAYED = {"rigid body (Ex. 4.3)": "chapters/greenwood-04/euler-rigid-body.ipynb",
          "double pendulum": "chapters/loparo-07/double-pendulum.ipynb",
          "disk on the link": "chapters/loparo-07/disk-link-friction.ipynb"}
#: The worked example whose scene each chapter notebook plays first (examples.scene(name, ...)).
NOTEBOOK_SCENES = {
    "greenwood-04/euler-rigid-body": "euler_body",
    "greenwood-04/general-dynamical-equation": "knife_edge_kane",
    "greenwood-04/knife-edge": "knife_edge", "greenwood-04/whipple-bicycle": "whipple_bicycle",
    "greenwood-04/boltzmann-hamel": None, "loparo-07/bridge": "knife_edge",
    "loparo-07/covariant-derivative": "sphere_particle",
    "loparo-07/disk-link-friction": "disk_link_friction",
    "loparo-07/disk-link-rolling": "disk_link_rolling",
    "loparo-07/double-pendulum": "double_pendulum", "loparo-07/euler-geodesic": "rigid_body_so3",
}
#: The width of the notebook column a scene fills in JupyterLab at 1920×1080.
COLUMN_PX = 1100
#: Draws 120 frames of a motion (1/60 s apart) whole, then on its still layer, each flushed
#: by reading a pixel back: milliseconds per frame of the drawing alone, page and kernel aside.
_DRAW_COST = """async ([source, spec, frames, width, height]) => {
  const m = await import(URL.createObjectURL(new Blob([source], {type: 'text/javascript'})));
  const bytes = Uint8Array.from(atob(frames), (c) => c.charCodeAt(0));
  const motion = new m.Motion(spec, new Float32Array(bytes.buffer));
  const canvas = document.createElement('canvas');
  canvas.width = width; canvas.height = height; document.body.appendChild(canvas);
  const ctx = canvas.getContext('2d'), out = {};
  for (const mode of ['whole', 'layered', 'whole', 'layered']) {
    const cam = new m.Camera(spec); cam.fit(width, height, 24);
    const layer = mode === 'layered' ? new m.StillLayer() : {update: () => false};
    const start = performance.now();
    for (let k = 0; k < 120; k++) {
      m.drawFrame(ctx, cam, motion, motion.t0 + k / 60, 1, false, layer);
      ctx.getImageData(0, 0, 1, 1);
    }
    out[mode] = (performance.now() - start) / 120;
  }
  return out;
}"""
_EMPTY_PAGE = "<!doctype html><html><body></body></html>"


def payloads() -> None:
    print("keyframe payload of each default motion (limit 250 kB)")
    for name in examples.system_names():
        traj = examples.get(name).simulate()
        frames = keyframes.build(examples.worked(name).scene.resolve()(traj), traj.t)
        print(f"  {name:20s} {frames.n_frames:4d} keyframes  {frames.payload_bytes / 1e3:6.1f} kB")


def notebook_with_state(path: str) -> None:
    from nbclient import NotebookClient

    nb = nbformat.read(ROOT / path, as_version=4)
    NotebookClient(nb, timeout=300, store_widget_state=True,
                   resources={"metadata": {"path": str((ROOT / path).parent)}}).execute()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "saved.ipynb"
        nbformat.write(nb, out)
        size = out.stat().st_size
    print(f"{path} saved with outputs and widget state: {size / 1e6:.2f} MB (limit 2 MB)")


def browser(seconds: float, moves: int) -> None:
    with lb.jupyter_server(ROOT) as lab, lb.chromium() as chromium:
        print(f"playback in headless Chromium over {seconds:g} s (scene fps / page rAF fps), "
              f"and slider key press → first frame of the new motion ({moves} moves)")
        for label, notebook in PLAYED.items():
            for width, height in ((1024, 768), (1920, 1080)):
                page = chromium.new_page(viewport={"width": width, "height": height})
                run = lb.open_notebook(page, lab, notebook)
                lb.run_all_cells(page, run)
                page.wait_for_selector(f".{lb.SCENE_CLASS} canvas", timeout=60_000)
                page.locator(f".{lb.SCENE_CLASS}").first.scroll_into_view_if_needed()
                lb.scene_button(page).click()
                page.wait_for_timeout(500)
                fps, ceiling = lb.scene_frame_rate(page, seconds=seconds)
                lb.scene_button(page).click()
                latency, figure = [], []
                if width == 1024:
                    for _ in range(moves):
                        latency.append(lb.scene_motion_latency(page))
                        figure.append(_figure_latency(page))
                        lb.wait_kernel_idle(page, settle=0.3)
                text = (f"new motion: median {1e3 * statistics.median(latency):4.0f} ms "
                        f"(min {1e3 * min(latency):.0f}, max {1e3 * max(latency):.0f}); "
                        "the explorer's figure of the same moves "
                        f"{1e3 * statistics.median(figure):.0f} ms"
                        if latency else "")
                print(f"  {label:22s} {width}×{height}: {fps:5.1f} fps / {ceiling:5.1f} rAF "
                      f" {text}")
                page.close()


def display_rate(seconds: float, only: list[str] | None = None) -> None:
    """Each notebook's first scene playing in JupyterLab, and the same scene in its standalone
    page (as an exported book shows it), against an empty page's rAF rate in the same run;
    ``only``: the notebooks whose name contains one of these words (all when empty)."""
    chosen = {nb: name for nb, name in NOTEBOOK_SCENES.items()
              if not only or any(word in nb for word in only)}
    if not chosen:
        raise SystemExit(f"--notebooks {' '.join(only)} names none of {sorted(NOTEBOOK_SCENES)}")
    print(f"scenes playing at 1920×1080 over {seconds:g} s: scene fps / page rAF fps "
          "(scene fps / the empty page's rAF fps)")
    with (tempfile.TemporaryDirectory() as tmp, lb.jupyter_server(ROOT) as lab,
          lb.chromium() as chromium):
        def measure(label: str, open_page) -> float:
            page = chromium.new_page(viewport={"width": 1920, "height": 1080})
            open_page(page)
            page.wait_for_selector(f".{lb.SCENE_CLASS} canvas", timeout=60_000)
            page.locator(f".{lb.SCENE_CLASS}").first.scroll_into_view_if_needed()
            lb.scene_button(page).click()
            page.wait_for_timeout(500)
            cdp = page.context.new_cdp_session(page)
            cdp.send("Performance.enable")
            before = _page_work(cdp)
            fps, ceiling = lb.scene_frame_rate(page, seconds=seconds)
            work = {k: (v - before[k]) / seconds for k, v in _page_work(cdp).items()}
            page.close()
            print(f"  {label:46s} {fps:5.1f} / {ceiling:5.1f}  ({fps / empty:4.2f})  "
                  f"per second: {work['LayoutCount']:3.0f} layouts, {work['RecalcStyleCount']:3.0f}"
                  f" style passes, {1e3 * work['TaskDuration']:4.0f} ms main-thread tasks",
                  flush=True)
            return fps

        page = chromium.new_page(viewport={"width": 1920, "height": 1080})
        page.set_content(_EMPTY_PAGE)
        page.evaluate("() => { globalThis.__companionScenes = [{frames: 0, generation: 0,"
                      " shownAt: [], el: document.body}]; const f = () => {"
                      " globalThis.__companionScenes[0].frames++; requestAnimationFrame(f); };"
                      " f(); }")
        empty = lb.scene_frame_rate(page, seconds=seconds)[1]
        page.close()
        print(f"  {'(empty page)':46s} {empty:5.1f} rAF", flush=True)
        for where in ("JupyterLab", "standalone"):
            rates = []
            for notebook, name in chosen.items():
                if where == "JupyterLab":
                    def open_page(page, path=f"chapters/{notebook}.ipynb"):
                        lb.run_all_cells(page, lb.open_notebook(page, lab, path))
                elif name is None:
                    continue
                else:
                    path = Path(tmp) / f"{name}.html"
                    path.write_text(f"<!doctype html><html><body><div style='width:{COLUMN_PX}px'>"
                                    f"{examples.scene(name).standalone_html()}</div></body></html>",
                                    encoding="utf-8")

                    def open_page(page, path=path):
                        page.goto(path.as_uri())
                rates.append(measure(f"{notebook} ({where})", open_page))
            print(f"  {where}: min {min(rates):.1f}, median {statistics.median(rates):.1f}, "
                  f"max {max(rates):.1f} fps; load average {os.getloadavg()[0]:.1f}", flush=True)


#: The trace categories whose events name what invalidated layout and style, and who forced it.
_TRACE = ["devtools.timeline", "disabled-by-default-devtools.timeline",
          "disabled-by-default-devtools.timeline.invalidationTracking"]
#: Chromium's counters compared with the empty page's (per second of play).
_COUNTERS = ("LayoutCount", "RecalcStyleCount", "ScriptDuration", "TaskDuration")


def _play_counted(chromium, page, seconds: float, start_scene: bool = True):
    """Counters per second over ``seconds`` of the scene playing (or the page as it is), and
    the trace events of those seconds."""
    if start_scene:
        page.locator(f".{lb.SCENE_CLASS}").first.scroll_into_view_if_needed()
        lb.scene_button(page).click()
        page.wait_for_timeout(500)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    chromium.start_tracing(page=page, categories=_TRACE)
    before = _page_work(cdp)
    fps, _ = lb.scene_frame_rate(page, seconds=seconds)
    after = _page_work(cdp)
    events = json.loads(chromium.stop_tracing())["traceEvents"]
    work = {k: (after[k] - before[k]) / seconds for k in _COUNTERS}
    work["fps"] = fps
    return work, events


def _top_frame(event: dict) -> str:
    """Where a trace event's stack starts: 'function file:line', or '(no script)'."""
    args = event.get("args", {})
    data = args.get("data") or args.get("beginData") or {}
    stack = data.get("stackTrace") or []
    if not stack:
        return "(no script)"
    top = stack[0]
    where = (top.get("url") or "?").rsplit("/", 1)[-1].split("?")[0][:40]
    return f"{top.get('functionName') or '(anonymous)'} {where}:{top.get('lineNumber', 0) + 1}"


def _tally(found, key, seconds: float, show: int) -> str:
    tally: dict[str, float] = {}
    for e in found:
        tally[key(e)] = tally.get(key(e), 0) + 1
    top = sorted(tally.items(), key=lambda kv: -kv[1])[:show]
    return "; ".join(f"{n / seconds:.1f}/s {where}" for where, n in top) or "nothing"


def _invalidation(event: dict) -> str:
    """An invalidation-tracking event: its reason, the node it marked, the script that asked."""
    data = event.get("args", {}).get("data", {})
    return (f"{data.get('reason') or data.get('invalidationSet') and 'selector' or '?'} "
            f"<{data.get('nodeName', '?')}> {_top_frame(event)}")


def _causes(events: list[dict], seconds: float, show: int = 8) -> None:
    """Per second of play: what invalidated layout and style (and which script asked), what
    forced a layout, and the main thread's busiest kinds of work."""
    main = {(e["pid"], e["tid"]) for e in events
            if e.get("ph") == "M" and e.get("args", {}).get("name") == "CrRendererMain"}
    busy: dict[str, float] = {}
    for e in events:
        if e.get("ph") == "X" and (e.get("pid"), e.get("tid")) in main and e.get("dur"):
            busy[e["name"]] = busy.get(e["name"], 0.0) + e["dur"] / 1e3 / seconds
    top = sorted(busy.items(), key=lambda kv: -kv[1])[:12]
    print("    main thread ms per second (nested events counted in each): "
          + "; ".join(f"{name} {ms:.0f}" for name, ms in top))
    for name in ("LayoutInvalidationTracking", "StyleRecalcInvalidationTracking",
                 "ScheduleStyleInvalidationTracking"):
        found = [e for e in events if e.get("name") == name]
        print(f"    {name}: {_tally(found, _invalidation, seconds, show)}")
    for name in ("Layout", "UpdateLayoutTree"):  # those a script forced
        found = [e for e in events if e.get("name") == name and _top_frame(e) != "(no script)"]
        print(f"    {name} forced by: {_tally(found, _top_frame, seconds, show)}", flush=True)


def causes(seconds: float, only: list[str]) -> None:
    """The first scene of each chosen notebook playing on a live page (JupyterLab with every
    cell run, and Voilà in lecture mode) and on its exported page: Chromium's counters per
    second of play, the live pages' as ratios to the exported page's of the same run, and what
    invalidated or forced their layouts and style passes."""
    chosen = [nb for nb in NOTEBOOK_SCENES if NOTEBOOK_SCENES[nb]
              and any(word in nb for word in only or ["euler-rigid"])]
    if not chosen:
        raise SystemExit(f"--notebooks {' '.join(only)} names none of {sorted(NOTEBOOK_SCENES)}")
    with (tempfile.TemporaryDirectory() as tmp, lb.chromium() as chromium,
          lb.jupyter_server(ROOT) as lab,
          lb.jupyter_server(ROOT, app="voila", lecture=True) as voila):
        page = chromium.new_page(viewport={"width": 1920, "height": 1080})
        page.set_content(_EMPTY_PAGE)
        page.evaluate("() => { globalThis.__companionScenes = [{frames: 0, generation: 0,"
                      " shownAt: [], el: document.body}]; const f = () => {"
                      " globalThis.__companionScenes[0].frames++; requestAnimationFrame(f); };"
                      " f(); }")
        empty = _play_counted(chromium, page, seconds, start_scene=False)[0]["fps"]
        page.close()
        print(f"per second of {seconds:g} s of play: fps (÷ an empty page's rAF rate, "
              f"{empty:.1f}), layouts, style passes, script ms, main-thread task ms "
              "(each ÷ the exported page's in the same run)", flush=True)

        def lab_page(page, notebook):
            lb.run_all_cells(page, lb.open_notebook(page, lab, f"chapters/{notebook}.ipynb"))
            page.wait_for_selector(f".{lb.SCENE_CLASS} canvas", timeout=60_000)
            lb.wait_kernel_idle(page)

        def lecture_page(page, notebook):
            page.goto(voila.link(f"voila/render/chapters/{notebook}.ipynb"), timeout=180_000)
            page.wait_for_selector(f".{lb.SCENE_CLASS} canvas", timeout=180_000)
            page.wait_for_timeout(3000)

        def exported_page(page, notebook):
            path = Path(tmp) / "exported.html"
            path.write_text(f"<!doctype html><html><body><div style='width:{COLUMN_PX}px'>"
                            f"{examples.scene(NOTEBOOK_SCENES[notebook]).standalone_html()}"
                            "</div></body></html>", encoding="utf-8")
            page.goto(path.as_uri())
            page.wait_for_selector(f".{lb.SCENE_CLASS} canvas", timeout=60_000)

        for notebook in chosen:
            base = None
            for where, open_page in (("exported page", exported_page),
                                     ("JupyterLab, all cells run", lab_page),
                                     ("Voilà, lecture mode", lecture_page)):
                page = chromium.new_page(viewport={"width": 1920, "height": 1080})
                open_page(page, notebook)
                work, events = _play_counted(chromium, page, seconds)
                page.close()
                base = base or work
                ratio = {k: work[k] / base[k] if base[k] else float("nan") for k in _COUNTERS}
                print(f"  {notebook} ({where}): {work['fps']:.1f} fps "
                      f"({work['fps'] / empty:.2f}); {work['LayoutCount']:.1f} layouts "
                      f"({ratio['LayoutCount']:.2f}), {work['RecalcStyleCount']:.1f} style passes "
                      f"({ratio['RecalcStyleCount']:.2f}), {1e3 * work['ScriptDuration']:.0f} ms "
                      f"script ({ratio['ScriptDuration']:.2f}), {1e3 * work['TaskDuration']:.0f}"
                      f" ms tasks ({ratio['TaskDuration']:.2f}); load average "
                      f"{os.getloadavg()[0]:.1f}", flush=True)
                _causes(events, seconds)


def _page_work(cdp) -> dict[str, float]:
    """The page's running counts of layouts and style passes and its main thread's busy
    seconds (Chrome DevTools Protocol Performance.getMetrics): what playing asks of the page,
    counted, so less noisy on a shared machine than the frame rate."""
    wanted = _COUNTERS
    return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]
            if m["name"] in wanted}


def draw_cost(names: set[str]) -> None:
    """The drawing alone, each notebook's scene: a frame drawn whole against one drawn on its
    still layer (ms, flushed), in a blank page: no JupyterLab, no kernel."""
    with lb.chromium() as chromium:
        print(f"drawing one {COLUMN_PX}×{round(0.6 * COLUMN_PX)} frame, flushed: ms whole / ms on "
              "the still layer (the second of two passes each)")
        source = (ROOT / "companion" / "scene" / "scene.js").read_text(encoding="utf-8")
        page = chromium.new_page()
        page.set_content(_EMPTY_PAGE)
        for name in sorted(names):
            scene = examples.scene(name)
            cost = page.evaluate(_DRAW_COST, [source, scene.spec,
                                              base64.b64encode(scene.frames).decode(),
                                              COLUMN_PX, round(0.6 * COLUMN_PX)])
            print(f"  {name:24s} {cost['whole']:5.2f} / {cost['layered']:5.2f} ms", flush=True)
        page.close()


def _figure_latency(page) -> float:
    """Seconds from the last slider key press (scene_motion_latency's) to the explorer's next
    paint: the same move seen by the matplotlib figure, the baseline of this run."""
    page.wait_for_function("() => window.__companionPaints.length > 0", timeout=15_000)
    pressed = page.evaluate("() => window.__companionPressedAt || 0")
    page.wait_for_function("t => window.__companionPaints.some(x => x > t)", arg=pressed,
                           timeout=15_000)
    return (page.evaluate("t => window.__companionPaints.find(x => x > t)", pressed)
            - pressed) / 1000.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--moves", type=int, default=7)
    parser.add_argument("--display-rate", action="store_true",
                        help="only the scenes of every notebook against an empty page")
    parser.add_argument("--notebooks", nargs="+", metavar="WORD",
                        help="--display-rate, --causes: only the notebooks whose name has a WORD")
    parser.add_argument("--causes", action="store_true",
                        help="what a live page's playing scene makes Chromium do, and why")
    args = parser.parse_args()
    if args.causes:
        causes(args.seconds, args.notebooks or [])
        return
    if args.display_rate:
        only = args.notebooks or []
        display_rate(args.seconds, only)
        draw_cost({name for nb, name in NOTEBOOK_SCENES.items()
                   if name is not None and (not only or any(w in nb for w in only))})
        return
    payloads()
    notebook_with_state("chapters/loparo-07/euler-geodesic.ipynb")
    browser(args.seconds, args.moves)


if __name__ == "__main__":
    main()
