"""Scene figures (issue 13): playback frame rate in headless Chromium, slider release → first
frame of the new motion, keyframe payloads, and a chapter notebook's size with widget state.

    .venv/bin/python benchmarks/scene.py [--seconds 3] [--moves 7]

Frame rates are counted inside the page with requestAnimationFrame: the frames the scene
drew, beside the page's own rAF rate over the same seconds (the display's ceiling in this
browser).  Goals: ≥ 55 fps (bar ≥ 30), ≤ 200 ms median latency, ≤ 250 kB per motion,
≤ 2 MB per notebook saved with widget state.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

import nbformat

from companion import examples
from companion.devtools import lab_browser as lb
from companion.scene import keyframes

ROOT = Path(__file__).resolve().parents[1]
#: The three motions the issue measures, and the notebook each plays in.
PLAYED = {"rigid body (Ex. 4.3)": "chapters/greenwood-04/euler-rigid-body.ipynb",
          "double pendulum": "chapters/loparo-07/double-pendulum.ipynb",
          "disk on the link": "chapters/loparo-07/disk-link-friction.ipynb"}


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
    args = parser.parse_args()
    payloads()
    notebook_with_state("chapters/loparo-07/euler-geodesic.ipynb")
    browser(args.seconds, args.moves)


if __name__ == "__main__":
    main()
