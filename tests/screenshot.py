"""The README's screenshot of a chapter, from a real browser run (``make screenshot``).

    python tests/screenshot.py            # rewrite chapters/images/knife-edge.png

Starts JupyterLab through the harness (``tests/lab_browser.py``), runs the
knife-edge notebook in Debian's headless Chromium, scrolls to its explorer's section and saves
the window, reduced to an adaptive palette so the PNG stays small (under 300 kB).
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

import lab_browser as lb

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = "chapters/greenwood-04/knife-edge.ipynb"
#: The section of the notebook the picture starts at.
HEADING = "Explorer"
OUTPUT = ROOT / "chapters" / "images" / "knife-edge.png"
#: The browser window: a laptop screen, so the picture is what a reader sees on one.
VIEWPORT = {"width": 1280, "height": 800}
#: The README promises a light page: fail rather than commit a heavy picture.
MAX_BYTES = 300_000


def small_png(png: bytes, colours: int = 128) -> bytes:
    """``png`` reduced to an adaptive palette of ``colours`` (text and lines stay sharp)."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    out = io.BytesIO()
    image.quantize(colors=colours, method=Image.Quantize.MEDIANCUT).save(
        out, format="PNG", optimize=True)
    return out.getvalue()


def take(output: Path = OUTPUT, notebook: str = NOTEBOOK) -> int:
    """Run ``notebook`` in JupyterLab, save the window with its first explorer in view;
    returns the PNG's size in bytes."""
    with lb.jupyter_server(ROOT) as server, lb.chromium() as browser:
        page = browser.new_page(viewport=VIEWPORT)
        run = lb.open_and_run(page, server, notebook, settle_ms=2000)
        if run.error_outputs or run.js_errors:
            raise RuntimeError(f"{notebook} did not run cleanly: {run.error_outputs} "
                               f"{run.js_errors}")
        # the notebook alone, as a reader reads it: no file browser beside it
        page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
        page.wait_for_timeout(500)
        # from the heading of the explorer's section: its sentence, sliders, presets, figure
        heading = page.locator(".jp-MarkdownOutput h2", has_text=HEADING).first
        heading.evaluate("el => { el.scrollIntoView({block: 'start'}); "
                         "el.closest('.jp-WindowedPanel-outer').scrollBy(0, -90); }")
        page.wait_for_timeout(1000)
        png = small_png(page.screenshot())
    if len(png) > MAX_BYTES:
        raise RuntimeError(f"the screenshot is {len(png)} bytes, over {MAX_BYTES}")
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_bytes(png)
    return len(png)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=OUTPUT, help=f"default {OUTPUT}")
    args = parser.parse_args(argv)
    if lb.chromium_path() is None:
        print("Chromium is not installed (apt-get install chromium)", file=sys.stderr)
        return 1
    size = take(args.output)
    print(f"wrote {args.output} ({size / 1000:.0f} kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
