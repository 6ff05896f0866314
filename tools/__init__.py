"""Developer tools, run from a clone and not installed with the package: the chapter index
(``make index``), the diagrams' PNGs (``make figures``), the static book (``make book``) and
the live figures' tests against other library releases (``python -m tools.release_check``)."""
