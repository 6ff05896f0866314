"""Lecture mode's Voilà server (``make lecture``; the browser tests' ``lecture=True``): read
by Voilà as its config file (``voila.py`` in each configuration folder) once this folder is
on ``JUPYTER_CONFIG_PATH``.

- No kernel left behind.  A page that is closed or reloaded asks Voilà to shut its kernel
  down (Voilà's own ``beforeunload`` beacon, which sends the ``_xsrf`` cookie back as a form
  field).  Voilà's notebook page never sets that cookie, so every such request was refused
  (``403 … '_xsrf' argument missing``) and each reload kept a 230–290 MiB kernel.  The
  prelaunch hook asks tornado for the page's XSRF token before the page is sent, which sets
  the cookie (``RequestHandler.xsrf_token``).
- A backstop for pages that never say goodbye (a crashed tab, a laptop put to sleep): a
  kernel with no page connected and idle for :data:`CULL_IDLE_SECONDS` is shut down
  (jupyter_server's culler; a page that is open keeps its kernel however long it idles).
"""

#: A kernel idle this long with no page connected is shut down (seconds).
CULL_IDLE_SECONDS = 600

c = get_config()  # noqa: F821  (traitlets runs this file with get_config defined)


def issue_xsrf_cookie(handler, notebook, cwd):
    """Voilà's prelaunch hook: set the ``_xsrf`` cookie the page's shutdown beacon returns
    (tornado sets it on the first read of ``xsrf_token``); the notebook is left as it is."""
    handler.xsrf_token  # noqa: B018  (read for its side effect: the cookie)
    return None


c.VoilaConfiguration.prelaunch_hook = issue_xsrf_cookie
c.MappingKernelManager.cull_idle_timeout = CULL_IDLE_SECONDS
c.MappingKernelManager.cull_interval = 60
