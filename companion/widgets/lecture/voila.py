"""Lecture mode's Voilà server (``make lecture``; the browser tests' ``lecture=True``): read
by Voilà as its config file (``voila.py`` in each configuration folder) once this folder is
on ``JUPYTER_CONFIG_PATH``.

- A warm start.  The notebooks named in ``COMPANION_WARM`` (paths relative to the folder
  Voilà serves, separated by spaces: ``make lecture`` writes every chapter's, ``make lecture
  WARM="knife-edge …"`` those named; README "A warm start" gives the memory it takes) each
  keep one kernel that has already run the notebook (Voilà's pre-heated kernels, a pool per
  notebook): opening such a page takes that kernel, and Voilà starts the next one
  :data:`REFILL_SECONDS` later (not at once: on a lecturer's two-core laptop its run would
  take a core from the page being opened).  Other notebooks start their kernel with the page.
- No kernel left behind.  A page that is closed or reloaded asks Voilà to shut its kernel
  down (Voilà's ``beforeunload`` beacon, which sends the ``_xsrf`` cookie back as a form
  field).  Voilà's notebook page never sets that cookie, so every such request was refused
  (``403 … '_xsrf' argument missing``) and each reload kept a 230–290 MiB kernel: the
  template's page sets the cookie itself (lecture.js; a page rendered before it was asked
  for, as a warm one is, has no request to set it from).
- A backstop for pages that never say goodbye (a crashed tab): a kernel with no page
  connected and idle for :data:`CULL_IDLE_SECONDS` is shut down (jupyter_server's culler,
  ``cull_connected=False``: an open page holds its kernel's websocket; Voilà never culls a
  warm kernel waiting for its page).  Two minutes: a live page's kernel is unconnected only
  between Voilà's run of the notebook (busy, not idle) and the page's websocket connecting,
  or while the websocket reconnects; the slowest page of the instructor's trial was usable
  56 s after it was asked for, under load: 120 s is twice that.  The idle time counts from
  the moment the culler first finds the kernel outside the warm pool at the earliest
  (:class:`LectureKernelManager`): a warm kernel prepared long before was culled as soon as
  a page took it, before the page could connect.
"""
import os
from datetime import datetime, timezone

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

#: A kernel idle this long with no page connected is shut down (seconds).
CULL_IDLE_SECONDS = 120
#: How often the culler looks (seconds): a vanished page's kernel goes within
#: CULL_IDLE_SECONDS + CULL_INTERVAL_SECONDS.
CULL_INTERVAL_SECONDS = 10
#: The environment variable naming the notebooks kept warm.
WARM_ENV = "COMPANION_WARM"
#: A warm kernel taken by a page is replaced this long after (seconds).
REFILL_SECONDS = 30


class LectureKernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager whose culler counts a kernel idle from the moment it
    first finds the kernel (Voilà's pre-heating manager asks it only about kernels outside
    its warm pool) at the earliest, not from the kernel's last message."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._first_seen: dict[str, datetime] = {}

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        self._first_seen = {k: t for k, t in self._first_seen.items() if k in self}
        seen = self._first_seen.setdefault(kernel_id, datetime.now(timezone.utc))
        kernel = self.get_kernel(kernel_id)
        if getattr(kernel, "last_activity", seen) < seen:
            kernel.last_activity = seen
        await super().cull_kernel_if_idle(kernel_id)


c = get_config()  # noqa: F821  (traitlets runs this file with get_config defined)

c.VoilaConfiguration.multi_kernel_manager_class = LectureKernelManager

c.MappingKernelManager.cull_idle_timeout = CULL_IDLE_SECONDS
c.MappingKernelManager.cull_interval = CULL_INTERVAL_SECONDS
c.MappingKernelManager.cull_connected = False

warm = os.environ.get(WARM_ENV, "").split()
if warm:
    c.VoilaConfiguration.preheat_kernel = True
    c.VoilaKernelManager.kernel_pools_config = {
        "default": {"pool_size": 0}, **{path: {"pool_size": 1} for path in warm}}
    c.VoilaKernelManager.fill_delay = REFILL_SECONDS
