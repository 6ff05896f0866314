"""``make lecture`` and its template, without a browser (tests/test_browser_course.py drives
them in one): one Voilà server for the whole chapters/ folder, a port and no browser on
request, presenter notes and the page keys in the template."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from companion.widgets import style

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = style.VOILA_DATA_DIR / "voila" / "templates" / style.VOILA_TEMPLATE


def _make_lecture(*args: str) -> str:
    """The command ``make lecture`` would run (``make -n``: nothing runs, nothing installs)."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    run = subprocess.run(["make", "-n", "lecture", "VENV=/nonexistent-venv", *args], cwd=ROOT,
                         capture_output=True, text=True, timeout=60, check=True)
    return run.stdout.split("COMPANION_LECTURE=1", 1)[1]


def test_make_lecture_serves_the_chapters_folder():
    command = _make_lecture("WARM=")
    assert f'"{ROOT / "chapters"}"' in command and ".ipynb" not in command
    assert "--template=companion-lecture" in command and "--port=8866" in command
    assert "--no-browser" not in command


def _voila_config(warm: str | None = None):
    """What lecture mode's voila.py configures, run as Voilà runs it (``get_config``),
    with ``COMPANION_WARM`` set to ``warm``."""
    from traitlets.config import Config

    config = Config()
    with pytest.MonkeyPatch.context() as patch:
        if warm is None:
            patch.delenv("COMPANION_WARM", raising=False)
        else:
            patch.setenv("COMPANION_WARM", warm)
        exec((style.VOILA_DATA_DIR / "voila.py").read_text(encoding="utf-8"),
             {"get_config": lambda: config})
    return config


def test_make_lecture_reads_the_lecture_configuration():
    """The server's configuration (no kernel left behind) is on Voilà's config path; a kernel
    with no page connected goes after two minutes (looked for every 10 s), a page's own kernel
    never while the page holds its websocket; with ``WARM=`` no chapter is pre-heated."""
    command = _make_lecture("WARM=")
    assert f'JUPYTER_CONFIG_PATH="{style.VOILA_DATA_DIR}' in command
    assert 'COMPANION_WARM=""' in command
    config = _voila_config()
    culler = config.MappingKernelManager
    assert (culler.cull_idle_timeout, culler.cull_interval, culler.cull_connected) == (
        120, 10, False)
    assert "preheat_kernel" not in config.VoilaConfiguration
    assert "VoilaKernelManager" not in config


def test_make_lecture_warms_every_chapter_by_default():
    """``make lecture``: every notebook below chapters/ (the index first met among them)
    keeps one pre-heated kernel, by the path Voilà knows it by."""
    warm = _make_lecture().split('COMPANION_WARM="', 1)[1].split('"', 1)[0].split()
    notebooks = sorted(str(p.relative_to(ROOT / "chapters"))
                       for p in (ROOT / "chapters").rglob("*.ipynb")
                       if ".ipynb_checkpoints" not in p.parts)
    assert sorted(warm) == notebooks and "index.ipynb" in warm
    config = _voila_config(" ".join(warm))
    assert config.VoilaConfiguration.preheat_kernel is True
    assert config.VoilaKernelManager.kernel_pools_config == {
        "default": {"pool_size": 0}, **{path: {"pool_size": 1} for path in notebooks}}


def test_make_lecture_warm_names_chapters():
    """``WARM="knife-edge disk-link-friction"``: those two notebooks, by the paths Voilà
    knows them by (below chapters/), keep one pre-heated kernel each, and no other does."""
    command = _make_lecture("WARM=knife-edge disk-link-friction")
    warm = "greenwood-04/knife-edge.ipynb loparo-07/disk-link-friction.ipynb"
    assert f'COMPANION_WARM="{warm}"' in command
    config = _voila_config(warm)
    assert config.VoilaConfiguration.preheat_kernel is True
    assert config.VoilaKernelManager.kernel_pools_config == {
        "default": {"pool_size": 0}, "greenwood-04/knife-edge.ipynb": {"pool_size": 1},
        "loparo-07/disk-link-friction.ipynb": {"pool_size": 1}}


def test_make_lecture_warm_refuses_an_unknown_name():
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    run = subprocess.run(["make", "-n", "lecture", "VENV=/nonexistent-venv", "WARM=knife-edg"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode != 0
    assert "WARM: no chapter notebook is named knife-edg" in run.stderr


def _tree_page(base_url: str) -> str:
    """The template's file-tree page (what Voilà serves at its root and at voila/tree)."""
    import jinja2
    from jupyter_core.paths import jupyter_path

    # as Voilà looks templates up: ours, then the lab and base templates, then data folders
    data = jupyter_path()
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(
        [str(TEMPLATE), *(f"{d}/voila/templates/{t}" for t in ("lab", "base") for d in data),
         *data]), extensions=["jinja2.ext.i18n"])
    env.install_null_translations()
    return env.get_template("tree-lab.html").render(
        base_url=base_url, page_config={"fullStaticUrl": "/static"}, page_title="",
        theme="light", include_css=lambda *a, **k: "", include_js=lambda *a, **k: "",
        include_url=lambda *a, **k: "", include_lab_theme=lambda *a, **k: "")


def test_the_root_is_the_chapter_index():
    """The server's root goes to the chapter index before the tree loads (the browser
    test_browser_lecture.py follows it); voila/tree, the same template, stays the tree."""
    page = _tree_page("/hub/user/ada/")
    script = page.split("<script>", 1)[1].split("</script>", 1)[0]
    assert 'if (location.pathname === "/hub/user/ada/")' in script
    assert 'location.replace("/hub/user/ada/voila/render/index.ipynb")' in script
    assert page.index(script) < page.index("<link")  # before any stylesheet is fetched


def test_standalone_voila_still_has_no_server_side_root_setting():
    """Why the root's redirect is the page's: standalone Voilà has no setting for what "/"
    serves (voila-dashboards/voila#540).  Once it has one, use it and keep the script as the
    fallback of a page already loaded."""
    from voila.app import Voila

    found = [t for t in Voila.class_trait_names(config=True) if "default_url" in t
             or "default_notebook" in t]
    assert not found, f"Voilà now has {found}: serve the chapter index at / with it"


def test_make_lecture_port_and_no_browser():
    command = _make_lecture("PORT=9123", "NO_BROWSER=1")
    assert "--port=9123" in command and "--no-browser" in command


def test_template_hides_presenter_notes_and_carries_the_keys():
    page = (TEMPLATE / "index.html.j2").read_text(encoding="utf-8")
    # a code cell's tags are classes of the cell, a markdown cell's of its rendered markdown
    rule = ".jp-Notebook .jp-Cell.celltag_presenter-notes,"
    assert rule in page
    hidden = page.split(rule, 1)[1].split("}")[0]
    assert ":has(> .jp-Cell-inputWrapper .celltag_presenter-notes) { display: none;" in hidden
    assert "{% include 'lecture.js' %}" in page and "{% include 'lecture.css' %}" in page
    keys = (TEMPLATE / "lecture.js").read_text(encoding="utf-8")
    for key in ('"PageDown"', '"PageUp"', '"n"', '"p"', '"ArrowLeft"', '"ArrowRight"', '" "'):
        assert key in keys
    # JupyterLab shows presenter notes: the style use_lecture_style() puts there hides none.
    assert "presenter-notes" not in style.LECTURE_CSS.read_text(encoding="utf-8")
