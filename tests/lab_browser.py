"""Real-browser harness: start JupyterLab (or Voilà) on a free port, open notebooks in
Debian's headless Chromium with Playwright, run them, move a slider and time the redraw.

Never downloads a browser: Chromium must be installed (``apt-get install chromium``).
"""

from __future__ import annotations

import ast
import base64
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.widgets import style, voila_markdown
from companion.widgets.explorer import EXPLORER_CLASS
from tools import chapter_index
from tools.book import CHROMIUM_ARGS, chromium, chromium_path  # noqa: F401


def chapter_notebooks(root: Path) -> list[str]:
    """The notebooks the chapter index lists (:func:`chapter_index.notebook_paths`), as
    sorted paths relative to ``root`` (what every browser test goes over).

    Raises FileNotFoundError for a listed notebook missing below ``root``/chapters.
    """
    paths = sorted(f"chapters/{path}" for path in chapter_index.notebook_paths())
    missing = [path for path in paths if not (root / path).is_file()]
    if missing:
        raise FileNotFoundError(f"the chapter index lists notebooks not found below {root}: "
                                f"{missing} (add them, or fix their records and run "
                                "`make index`)")
    return paths


#: What a notebook's code calls to show an explorer, or a scene (the workbench shows both).
SHOWS = {"explorer": re.compile(r"\bexplorer?\(|\bworkbench\(", re.IGNORECASE),
         "scene": re.compile(r"\bscene_for\(|\bexamples\.scene\(|\bScene\(|\bworkbench\(")}


def notebooks_showing(root: Path, what: str) -> list[str]:
    """The :func:`chapter_notebooks` whose code shows ``what`` (``"explorer"`` or ``"scene"``):
    the browser checks of a live figure or scene go over these; a notebook of derivations and
    exercises only (the practice notebooks, the identities page) has neither."""
    import nbformat

    pattern = SHOWS[what]
    return [path for path in chapter_notebooks(root)
            if any(pattern.search(c.source) for c in nbformat.read(root / path, as_version=4).cells
                   if c.cell_type == "code")]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_http(url: str, proc: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError(f"server did not answer at {url} within {timeout} s")


@dataclass
class Server:
    url: str
    token: str
    proc: subprocess.Popen
    log: Path

    def link(self, path: str) -> str:
        sep = "&" if "?" in path else "?"
        return f"{self.url}{path}{sep}token={self.token}"

    def end_session(self, session_id: str) -> None:
        """Shut down a notebook session and its kernel (quietly if it is gone already)."""
        request = urllib.request.Request(self.link(f"api/sessions/{session_id}"),
                                         method="DELETE")
        try:
            with urllib.request.urlopen(request, timeout=10):
                pass
        except OSError:  # already ended, or the server is stopping
            pass


def _write_lab_settings(folder: Path) -> None:
    """No news pop-up, and no autosave: a test run must never write outputs into the repo."""
    settings = {
        "@jupyterlab/apputils-extension/notification.jupyterlab-settings": '{"fetchNews": "false"}',
        "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": '{"autosave": false}',
    }
    for rel, text in settings.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@contextmanager
def jupyter_server(root: Path, *, app: str = "lab", timeout: float = 90,
                   env: dict[str, str] | None = None, lecture: bool = False,
                   args: Sequence[str] = ()) -> Iterator[Server]:
    """JupyterLab (``app="lab"``) or Voilà (``app="voila"``) serving ``root``.

    A fresh token, a free port and throw-away workspace/runtime directories, so no earlier
    tabs are restored and nothing leaks between runs.  ``lecture=True`` (Voilà only) runs
    lecture mode as ``make lecture`` does: the kernel's switch, the page's template and the
    server's configuration (companion/widgets/lecture/voila.py).  ``args``: more
    command-line options for the server.
    """
    port, token = free_port(), secrets.token_hex(16)
    tmp = Path(tempfile.mkdtemp(prefix="companion-browser-"))
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp / "runtime"),
           "JUPYTER_CONFIG_DIR": str(tmp / "config"),
           "MPLBACKEND": "module://ipympl.backend_nbagg",
           # a kernel that dies of a fault leaves its Python traceback in the server's log
           "PYTHONFAULTHANDLER": "1", **(env or {})}
    if lecture:
        if app != "voila":
            raise ValueError("lecture mode runs in Voilà: pass app='voila'")
        env[style.LECTURE_ENV] = "1"
        for name in ("JUPYTER_PATH", "JUPYTER_CONFIG_PATH"):
            env[name] = os.pathsep.join(filter(None, [str(style.VOILA_DATA_DIR), env.get(name)]))
    if app == "lab":
        cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
               "--ip=127.0.0.1", f"--IdentityProvider.token={token}", "--allow-root",
               f"--ServerApp.root_dir={root}", f"--LabApp.workspaces_dir={tmp / 'workspaces'}",
               "--LabApp.expose_app_in_browser=True",
               f"--LabApp.user_settings_dir={tmp / 'settings'}",
               "--ServerApp.disable_check_xsrf=True", *args]
        probe = f"http://127.0.0.1:{port}/api/status?token={token}"
    elif app == "voila":
        cmd = [sys.executable, "-m", "voila", "--no-browser", f"--port={port}",
               f"--Voila.root_dir={root}", f"--token={token}",
               "--VoilaConfiguration.file_allowlist=['.*']",
               f"--VoilaExporter.markdown_renderer_class={voila_markdown.RENDERER}",
               *([f"--template={style.VOILA_TEMPLATE}"] if lecture else []), *args]
        probe = f"http://127.0.0.1:{port}/?token={token}"
    else:
        raise ValueError(f"app must be 'lab' or 'voila', got {app!r}")
    _write_lab_settings(tmp / "settings")
    log = tmp / "server.log"
    with open(log, "w") as fh:
        proc = subprocess.Popen(cmd, stdout=fh, stderr=subprocess.STDOUT, cwd=root, env=env)
    try:
        _wait_http(probe, proc, timeout)
        yield Server(f"http://127.0.0.1:{port}/", token, proc, log)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(tmp, ignore_errors=True)


@dataclass
class NotebookRun:
    js_errors: list[str] = field(default_factory=list)
    error_outputs: list[str] = field(default_factory=list)
    seconds: float = 0.0


_KERNEL_STATUS = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const s = w && w.sessionContext && w.sessionContext.session;
  return s && s.kernel ? s.kernel.status : null; }"""

_ERRORS = """() => {
  const w = window.jupyterapp.shell.currentWidget; const out = [];
  const cells = w.content.model.cells;
  for (let i = 0; i < cells.length; i++) {
    const c = cells.get(i); if (c.type !== 'code') continue;
    const o = c.outputs; for (let k = 0; k < o.length; k++) {
      const j = o.get(k).toJSON();
      if (j.output_type === 'error') out.push(`cell ${i}: ${j.ename}: ${j.evalue}`); } }
  return out; }"""


def evaluate_within(page, function: str, timeout: float = 30) -> object:
    """``page.evaluate(function)``, but a page that does not answer within ``timeout`` seconds
    raises a TimeoutError instead of blocking the test run (Playwright's evaluate has no
    timeout; its wait_for_function has one)."""
    handle = page.wait_for_function(f"() => ({{value: ({function})()}})",
                                    timeout=timeout * 1000)
    return handle.json_value()["value"]


def wait_kernel_idle(page, timeout: float = 120, settle: float = 1.0) -> None:
    """Wait until the notebook's kernel reports idle continuously for ``settle`` seconds."""
    deadline = time.monotonic() + timeout
    idle_since = None
    while time.monotonic() < deadline:
        status = evaluate_within(page, _KERNEL_STATUS)
        if status == "idle":
            idle_since = idle_since or time.monotonic()
            if time.monotonic() - idle_since >= settle:
                return
        else:
            idle_since = None
        time.sleep(0.2)
    raise TimeoutError(f"the kernel was not idle within {timeout} s (status {status!r})")


#: Page errors about wall time, not about the page: anywidget rejects a model whose set-up has
#: not finished 2 s after it began (its own ``AbortSignal.timeout(2000)``), which a loaded
#: machine reaches (once in 75 browser tests here).  What such a widget shows is asserted by
#: the tests that look at it (scene pixels, canvas fit), not by the absence of this message.
TIMING_ONLY_ERRORS = ("[anywidget] Failed to initialize model.",)


def collect_page_errors(page, errors: list[str]) -> list[str]:
    """Append the page's uncaught errors to ``errors`` (those of :data:`TIMING_ONLY_ERRORS`
    aside) as they happen; returns ``errors``."""
    page.on("pageerror", lambda exc: None if str(exc) in TIMING_ONLY_ERRORS
            else errors.append(str(exc)))
    return errors


def open_notebook(page, server: Server, path: str) -> NotebookRun:
    """Open a notebook in JupyterLab and wait for its kernel to be really ready.

    The page gets a workspace of its own, so it opens this notebook only: in the server's
    default workspace every page restored every notebook an earlier page had opened, with its
    kernel and widgets (the twelfth page of a module opened twelve notebooks, and one such
    page stopped answering).  When the page closes its kernel is shut down.
    """
    run = NotebookRun()
    install_paint_probe(page)
    collect_page_errors(page, run.js_errors)
    workspace = f"test-{secrets.token_hex(6)}"
    page.goto(server.link(f"lab/workspaces/{workspace}/tree/{path}"))
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget "
                           "&& window.jupyterapp.shell.currentWidget.sessionContext", timeout=60000)
    page.wait_for_function("() => window.jupyterapp.shell.currentWidget.sessionContext.isReady",
                           timeout=60000)
    session = page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext"
                            ".session.id")
    page.once("close", lambda _page: server.end_session(session))
    wait_kernel_idle(page)
    return run


def run_all_cells(page, run: NotebookRun, timeout: float = 120) -> None:
    """Run every cell and wait until the kernel is idle; collect error outputs."""
    start = time.monotonic()
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    time.sleep(0.5)
    wait_kernel_idle(page, timeout=timeout, settle=1.5)
    run.seconds = time.monotonic() - start
    run.error_outputs = page.evaluate(_ERRORS)


def explorer_canvas_snapshot(page, index: int = 0) -> str:
    """Pixels of the first canvas inside the ``index``-th explorer, as a data URL."""
    return page.evaluate(
        """([cls, i]) => { const ex = document.querySelectorAll('.' + cls)[i];
           if (!ex) return null; const cs = ex.querySelectorAll('canvas');
           if (!cs.length) return null;
           return Array.from(cs).map(c => c.toDataURL()).join('|'); }""",
        [EXPLORER_CLASS, index],
    )


def focus_slider(page, index: int = 0, explorer: int = 0) -> None:
    """Scroll to the ``index``-th slider of an explorer and give its handle the focus."""
    handle = page.locator(f".{EXPLORER_CLASS}").nth(explorer).locator(".noUi-handle").nth(index)
    handle.scroll_into_view_if_needed()
    handle.focus()


#: Installed in every page before it loads: records when an image is painted onto a canvas
#: inside an explorer (ipympl paints each new frame with drawImage), so latency is measured
#: without reading pixels back, which would itself take tens of milliseconds.
PAINT_PROBE = """
(() => {
  const draw = CanvasRenderingContext2D.prototype.drawImage;
  window.__companionPaints = [];
  window.__companionKeys = [];  // when a key went down in the page, for latency from the key
  document.addEventListener('keydown', () => window.__companionKeys.push(performance.now()),
                            true);
  CanvasRenderingContext2D.prototype.drawImage = function (...args) {
    const r = draw.apply(this, args);
    if (this.canvas && this.canvas.closest && this.canvas.closest('.EXPLORER_CLASS'))
      window.__companionPaints.push(performance.now());
    return r;
  };
})();
""".replace("EXPLORER_CLASS", EXPLORER_CLASS)


def install_paint_probe(page) -> None:
    """Record explorer canvas paints in ``page`` (call before the page loads)."""
    page.add_init_script(PAINT_PROBE)


def slider_latency(page, *, explorer: int = 0, slider: int = 0, timeout: float = 10) -> float:
    """Seconds from one slider key press to the next paint of the explorer's figure.

    The slider is scrolled to and focused first, as a reader does once before pressing keys;
    the time runs from the moment Playwright is asked to press the key, and the page also
    records when it saw the key go down (``window.__companionKeys``).
    Needs :func:`install_paint_probe` on the page; the pixels are also compared, so a paint
    that shows the same picture does not count.
    """
    before = explorer_canvas_snapshot(page, explorer)
    focus_slider(page, slider, explorer)
    start = page.evaluate("performance.now()")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "t => window.__companionPaints.some(x => x > t)", arg=start, timeout=timeout * 1000)
    painted = page.evaluate("t => window.__companionPaints.find(x => x > t)", start)
    # The first paint after the key may be a part of the update (a busy machine delivered the
    # new frame later than 50 ms after it, twice in one CI run): wait for the picture itself
    # to change, within the same timeout, rather than for a fixed time.
    deadline = time.monotonic() + timeout
    while explorer_canvas_snapshot(page, explorer) == before:
        if time.monotonic() > deadline:
            raise AssertionError("the explorer's figure did not change after the slider moved")
        page.wait_for_timeout(100)
        # the paint that showed the change is at the latest the last one seen by now
        painted = page.evaluate("() => Math.max(...window.__companionPaints)")
    return (painted - start) / 1000.0


# ---------------------------------------------------------------------------- scenes
#: CSS class of every scene (companion.scene.widget.SCENE_CLASS; not imported here, so that
#: the harness does not need the widget's dependencies).
SCENE_CLASS = "companion-scene"

_SCENE_PIXELS = """i => { const c = document.querySelectorAll('.SCENE canvas')[i];
  if (!c) return null;
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let s = 0, s2 = 0, n = 0;
  for (let k = 0; k < d.length; k += 16) {
    const y = 0.299 * d[k] + 0.587 * d[k + 1] + 0.114 * d[k + 2]; s += y; s2 += y * y; n++; }
  const mean = s / n; return {variance: s2 / n - mean * mean, url: c.toDataURL()}; }
""".replace("SCENE", SCENE_CLASS)


def scene_pixels(page, index: int = 0) -> dict | None:
    """The ``index``-th scene's canvas: luminance variance (blank ≈ 0) and its data URL."""
    return page.evaluate(_SCENE_PIXELS, index)


def scene_stats(page, index: int = 0) -> dict:
    """Playback statistics the scene keeps: frames drawn, motions shown, time, playing."""
    return page.evaluate("""i => { const s = (globalThis.__companionScenes || [])
      .filter(x => x.el.isConnected)[i];
      return s ? {frames: s.frames, generation: s.generation, time: s.time,
                  playing: s.playing, shownAt: s.shownAt.slice()} : null; }""", index)


def scene_button(page, index: int = 0):
    """The play/pause button of the ``index``-th scene."""
    return page.locator(f".{SCENE_CLASS}").nth(index).locator("button").first


def scene_frame_rate(page, index: int = 0, seconds: float = 3.0) -> tuple[float, float]:
    """Frames per second the playing scene draws, and the page's own requestAnimationFrame
    rate over the same interval (the ceiling), both counted inside the page."""
    page.evaluate("""() => { window.__rafCount = 0; const f = () => { window.__rafCount++;
      window.__rafHandle = requestAnimationFrame(f); }; f(); }""")
    start = scene_stats(page, index)["frames"]
    page.wait_for_timeout(int(seconds * 1000))
    drawn = scene_stats(page, index)["frames"] - start
    ticks = page.evaluate("() => { cancelAnimationFrame(window.__rafHandle); "
                          "return window.__rafCount; }")
    return drawn / seconds, ticks / seconds


def scene_motion_latency(page, *, explorer: int = 0, slider: int = 0, scene: int = 0,
                         timeout: float = 15) -> float:
    """Seconds from one slider key press of an explorer to the first frame of the scene's
    new motion (the slider must change the motion: a knife edge's mass does not)."""
    before = scene_stats(page, scene)["generation"]
    focus_slider(page, slider, explorer)
    start = page.evaluate("window.__companionPressedAt = performance.now()")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "([i, g]) => globalThis.__companionScenes.filter(x => x.el.isConnected)[i]"
        ".generation > g", arg=[scene, before], timeout=timeout * 1000)
    shown = scene_stats(page, scene)["shownAt"][-1]
    return (shown - start) / 1000.0


def run_in_kernel(page, code: str, timeout: float = 60) -> None:
    """Execute ``code`` in the open notebook's kernel (outside any cell) and wait for it."""
    page.evaluate("""async (code) => {
        const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
        await kernel.requestExecute({code, silent: true}).done; }""", code)
    wait_kernel_idle(page, timeout=timeout, settle=0.5)


def voila_kernels(server: Server) -> list[str]:
    """The ids of the kernels Voilà has started so far (its log names each)."""
    return re.findall(r"Kernel started: (\S+)", server.log.read_text(errors="replace"))


@contextmanager
def voila_kernel(server: Server, known: Sequence[str], timeout: float = 180) -> Iterator[Any]:
    """A client (jupyter_client's) of the first kernel Voilà started that is not in
    ``known`` (:func:`voila_kernels` before a page was opened: that page's kernel), through
    its connection file, in the folder Voilà's log names."""
    from jupyter_client import BlockingKernelClient

    deadline = time.monotonic() + timeout
    while not (new := [k for k in voila_kernels(server) if k not in known]):
        if time.monotonic() > deadline:
            raise TimeoutError(f"Voilà started no kernel within {timeout} s")
        time.sleep(0.2)
    log = server.log.read_text(errors="replace")
    folder = re.search(r"Storing connection files in (\S+?)\.?$", log, re.MULTILINE)[1]
    client = BlockingKernelClient(connection_file=f"{folder}/kernel-{new[0]}.json")
    client.load_connection_file()
    client.start_channels()
    try:
        yield client
    finally:
        client.stop_channels()


def kernel_state(client, expression: str, until: Callable[[Any], bool] = bool,
                 timeout: float = 120) -> Any:
    """The value of ``expression`` (Python giving JSON text) in the kernel of ``client``, once
    ``until`` holds of it: asked again until then (each request waits in the kernel's queue
    behind the messages the page sent before it), a TimeoutError after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        reply = client.execute("", store_history=False, user_expressions={"v": expression},
                               reply=True, timeout=timeout)["content"]
        value = reply["user_expressions"]["v"]
        if value.get("status") != "ok":
            raise RuntimeError(f"{expression!r} failed in the kernel: {value.get('evalue')}")
        state = json.loads(ast.literal_eval(value["data"]["text/plain"]))
        if until(state):
            return state
        if time.monotonic() > deadline:
            raise TimeoutError(f"the kernel's state did not come within {timeout} s: {state}")
        time.sleep(0.2)


def kernel_value(page, expression: str, timeout: float = 60) -> str:
    """``repr`` of ``expression`` evaluated in the open notebook's kernel (outside any cell).

    The request waits in the kernel's queue behind whatever it is doing, so an explorer update
    that is running finishes first."""
    reply = page.evaluate("""async (expression) => {
        const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
        const reply = await kernel.requestExecute({code: '', silent: false, store_history: false,
            user_expressions: {value: expression}}).done;
        return reply.content.user_expressions.value; }""", expression)
    if reply.get("status") != "ok":
        raise RuntimeError(f"{expression!r} failed in the kernel: {reply.get('evalue', reply)}")
    return reply["data"]["text/plain"]


def paint_count(page) -> int:
    """How many times an explorer canvas has been painted (see :data:`PAINT_PROBE`)."""
    return page.evaluate("window.__companionPaints.length")


def settle_explorer(page, name: str = "explorer", timeout: float = 120) -> None:
    """Wait until the kernel's explorer ``name`` has applied every slider move the front end
    sent, and the browser has painted the frame that followed.

    The kernel says it is idle while an explorer update runs (updates run from the event loop,
    not from a message), so idleness alone proves nothing: the explorer is settled when,
    after the kernel has been idle for a while, applying what is pending changes nothing.
    """
    deadline = time.monotonic() + timeout
    updates = None
    while time.monotonic() < deadline:
        wait_kernel_idle(page, timeout=timeout, settle=0.5)
        painted = paint_count(page)
        now = kernel_value(page, f"({name}.flush(), {name}.n_updates)[1]")
        if now == updates:
            # the last frame left the kernel before this reply: wait until it is painted
            page.wait_for_function("n => window.__companionPaints.length > n || "
                                   "performance.now() - (window.__companionPaints.at(-1) || 0)"
                                   " > 1000", arg=painted, timeout=timeout * 1000)
            return
        updates = now
    raise TimeoutError(f"explorer {name!r} kept updating for {timeout} s")


def canvas_pixels(page, index: int = 0) -> bytes:
    """RGBA bytes of the main canvas of the ``index``-th explorer (empty when there is none).

    They cross from the page as one base64 string: as a JSON list of numbers, the millions of
    bytes of a large canvas took a minute or more to arrive."""
    encoded = page.evaluate(
        """([cls, i]) => { const ex = document.querySelectorAll('.' + cls)[i];
           const c = ex && ex.querySelector('canvas'); if (!c || !c.width) return '';
           const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
           let s = ''; const chunk = 0x8000;
           for (let k = 0; k < d.length; k += chunk)
             s += String.fromCharCode.apply(null, d.subarray(k, k + chunk));
           return btoa(s); }""",
        [EXPLORER_CLASS, index])
    return base64.b64decode(encoded)


def painted_fraction(page, index: int = 0) -> float:
    """Fraction of the explorer's canvas that is not blank (0 for a canvas never drawn)."""
    return page.evaluate(
        """([cls, i]) => { const ex = document.querySelectorAll('.' + cls)[i];
           const c = ex && ex.querySelector('canvas'); if (!c || !c.width || !c.height) return 0;
           const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
           let n = 0; for (let k = 0; k < d.length; k += 4) if (d[k + 3] > 200 && d[k] < 200) n++;
           return n / (d.length / 4); }""", [EXPLORER_CLASS, index])


def canvas_size(page, index: int = 0) -> tuple[int, int]:
    """Width and height in pixels of the main canvas of the ``index``-th explorer."""
    return tuple(page.evaluate(
        """([cls, i]) => { const ex = document.querySelectorAll('.' + cls)[i];
           const c = ex && ex.querySelector('canvas');
           return c ? [c.width, c.height] : [0, 0]; }""",
        [EXPLORER_CLASS, index]))


def explorers_state(page) -> str:
    """What the page shows of its explorers, for a test that waited for one in vain: how many
    output areas and explorers there are, each explorer's canvas size, and any error text."""
    return page.evaluate(
        """(cls) => {
          const areas = document.querySelectorAll('.jp-OutputArea-output').length;
          const explorers = [...document.querySelectorAll('.' + cls)].map(ex => {
            const c = ex.querySelector('canvas');
            return c ? `canvas ${c.width}×${c.height}` : 'no canvas'; });
          const errors = [...document.querySelectorAll('.jp-OutputArea-output')]
            .map(e => e.innerText).filter(t => /error|timed out|exception/i.test(t))
            .map(t => t.slice(0, 200));
          return `${areas} output areas; explorers: [${explorers.join(', ')}]; `
                 + `error text: ${JSON.stringify(errors)}`; }""", EXPLORER_CLASS)


def wait_painted(page, index: int = 0, fraction: float = 0.005, timeout: float = 60) -> None:
    """Wait until more than ``fraction`` of the ``index``-th explorer's canvas is painted;
    :class:`TimeoutError` if it is not within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while painted_fraction(page, index) <= fraction:
        if time.monotonic() > deadline:
            raise TimeoutError(f"explorer {index} was not painted within {timeout} s")
        page.wait_for_timeout(250)


def open_and_run(page, server: Server, path: str, settle_ms: int = 1000) -> NotebookRun:
    """Open a notebook, run every cell and wait until its first explorer shows a canvas."""
    run = open_notebook(page, server, path)
    run_all_cells(page, run)
    page.wait_for_selector(f".{EXPLORER_CLASS} canvas", timeout=60_000)
    page.wait_for_timeout(settle_ms)
    return run


# ---------------------------------------------------------------------------- layout
#: Where outputs live, in JupyterLab and in Voilà alike.
OUTPUT_AREA = ".jp-OutputArea-output"

_OVERFLOWING = """([areaSelector, i]) => {
  const areas = Array.from(document.querySelectorAll(areaSelector));
  const out = [];
  const clips = el => getComputedStyle(el).overflowX !== 'visible';
  for (const [k, area] of areas.entries()) {
    if (i !== null && k !== i) continue;
    const box = area.getBoundingClientRect();
    if (box.width === 0) continue;  // hidden (a collapsed output)
    const reported = [], hidden = [];
    for (const el of area.querySelectorAll('*')) {
      if (reported.some(r => r.contains(el)) || hidden.some(h => h.contains(el))) continue;
      const css = getComputedStyle(el);
      if (css.clip !== 'auto' || css.clipPath !== 'none') {  // for screen readers only
        hidden.push(el); continue; }
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.right <= box.right + 1 && r.left >= box.left - 1) continue;
      // inside an element that clips it (a scrolled equation), only that element counts
      let up = el.parentElement, clipped = false;
      while (up && up !== area) { if (clips(up)) { clipped = true; break; } up = up.parentElement; }
      if (clipped) continue;
      const name = el.tagName.toLowerCase() + (el.className && el.className.baseVal === undefined
        ? '.' + String(el.className).trim().split(/\\s+/).join('.') : '');
      const error = el.querySelector('[data-mjx-error]');  // MathJax could not typeset it
      const why = error ? ` (MathJax error: ${error.getAttribute('data-mjx-error')})` : '';
      reported.push(el);
      out.push(`output ${k}: ${name} spans ${Math.round(r.left)}–${Math.round(r.right)} px, ` +
               `its area ${Math.round(box.left)}–${Math.round(box.right)} px${why}`);
    }
  }
  return out; }"""


def outputs_wider_than_their_area(page, area_selector: str = OUTPUT_AREA,
                                  index: int | None = None) -> list[str]:
    """Elements that reach beyond the left or right edge of their output area (1 px of slack),
    described in words; empty when every output fits.  Works in JupyterLab and in Voilà.

    An element inside a box that clips it (a wide equation in a scrolling box) is not counted;
    the box itself is.  ``index`` checks only the ``index``-th output area; outputs scrolled
    out of view may not be laid out by the browser: scroll them into view first.
    """
    return page.evaluate(_OVERFLOWING, [area_selector, index])


_TRUNCATED_BUTTONS = """(scope) => Array.from(document.querySelectorAll(
    `${scope} button, ${scope} .widget-button, ${scope} .jupyter-button`))
  .filter(b => b.getBoundingClientRect().width > 0 && b.scrollWidth > b.clientWidth + 1)
  .map(b => `'${(b.textContent || b.title || '').trim()}' needs ${b.scrollWidth} px, ` +
            `has ${b.clientWidth} px`)"""


def truncated_buttons(page, scope: str = OUTPUT_AREA) -> list[str]:
    """Buttons inside ``scope`` whose text does not fit them (cut or ellipsized)."""
    return page.evaluate(_TRUNCATED_BUTTONS, scope)


def explorer_canvas_fit(page, index: int = 0, area_selector: str = OUTPUT_AREA) -> dict:
    """Where the ``index``-th explorer's figure canvas is against its output area: widths and
    edges in CSS pixels (``canvas`` 0 when there is no canvas)."""
    return page.evaluate(
        """([cls, i, areaSelector]) => { const ex = document.querySelectorAll('.' + cls)[i];
           const c = ex && ex.querySelector('canvas');
           const a = ex && (ex.closest(areaSelector) || ex.parentElement);
           if (!c || !a) return {canvas: 0, area: a ? a.getBoundingClientRect().width : 0};
           const r = c.getBoundingClientRect(), b = a.getBoundingClientRect();
           return {canvas: r.width, area: b.width, left: r.left - b.left,
                   right: b.right - r.right}; }""", [EXPLORER_CLASS, index, area_selector])


def wait_for_explorer_fit(page, index: int = 0, timeout: float = 20,
                          area_selector: str = OUTPUT_AREA) -> dict:
    """Wait until the ``index``-th explorer's canvas lies within its output area (the figure
    follows a resize after a short debounce and a round trip to the kernel); return its
    :func:`explorer_canvas_fit` then, or the last one seen at the timeout."""
    deadline = time.monotonic() + timeout
    while True:
        fit = explorer_canvas_fit(page, index, area_selector)
        inside = fit["canvas"] > 0 and fit.get("left", -1) >= -1 and fit.get("right", -1) >= -1
        if inside or time.monotonic() > deadline:
            return fit
        time.sleep(0.25)
