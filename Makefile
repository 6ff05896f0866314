# Two commands, on Linux or macOS with Python >= 3.10:
#   make lab    install into .venv and open JupyterLab on chapters/index.ipynb
#   make test   install into .venv (with the test extra), lint, and run the whole test suite
#   make check  the edit–test loop: lint and every test but the real-browser ones
#   make lecture  every chapter in Voilà's lecture mode, warm (PORT=, NO_BROWSER=1, WARM=)
#   make nbgrader-course  a class graded by the real nbgrader (STUDENTS=10), in .venv-nbgrader
# Both create the local virtual environment .venv on first use and re-install only when
# pyproject.toml changes (stamp files inside .venv).

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PYTEST_ARGS ?=
# The tests but the browser ones run on two pytest-xdist workers: 281 s against 419 s in one
# process on this 2-core machine.  The browser tests run in a pytest process of their own
# beside them, a test file per worker (pytest-xdist 3.8's --dist loadgroup does not keep a
# group together under pytest 9; loadfile does).  `XDIST=` / `BROWSER_XDIST=`: no workers.
# PYTEST_ARGS go to both runs.
XDIST ?= -n 2

# JupyterLab refuses to run as root unless told to (containers, CI machines).
ifeq ($(shell id -u),0)
LAB_ARGS ?= --allow-root
else
LAB_ARGS ?=
endif

.PHONY: lab test check lecture lint index figures screenshot book axe nbgrader-course \
	clean-venv

# root_dir: serve the whole repository (README, terminal at the top), open on the index.
lab: $(VENV)/.installed-lab
	$(BIN)/jupyter lab $(LAB_ARGS) --ServerApp.root_dir="$(CURDIR)" chapters/index.ipynb

# Lecture mode: every chapter, full screen, without code, in Voilà, with the projector style
# (everything at about 150 %, high contrast, thick lines; outputs tagged lecture-hide and
# cells tagged presenter-notes hidden; keys: space, 1-9, arrows, N/P): one server for the
# whole chapters/ folder, whose root (and the page the browser opens) is the chapter index.
# The template companion-lecture lives in companion/widgets/lecture (on JUPYTER_PATH), and
# so does the server's configuration, voila.py (on JUPYTER_CONFIG_PATH: the kernel of a
# closed or reloaded page is shut down, one idle with no page connected is culled after 2
# minutes).
# WARM names the chapters that start warm, every one by default: each keeps a kernel that
# has already run it (about 250 MiB each; README "A warm start"), so its page is usable as
# soon as it is opened, and the next is prepared once a page takes it (voila.py;
# benchmarks/lecture_start.py measures it).  On a laptop short of memory name the day's.
#   make lecture                         port 8866, opens the browser, every chapter warm
#   make lecture PORT=9000 NO_BROWSER=1  another port, no browser (a projector PC, ssh)
#   make lecture WARM="index knife-edge disk-link-friction"   only these start warm
#   make lecture WARM=                   none (each page starts its kernel when opened)
PORT ?= 8866
NO_BROWSER ?=
WARM ?= $(basename $(notdir $(wildcard chapters/*.ipynb chapters/*/*.ipynb)))
# A name in WARM as the path Voilà knows the notebook by (below chapters/), or an error.
warm_path = $(or $(patsubst chapters/%,%,$(wildcard chapters/$(1).ipynb chapters/*/$(1).ipynb)),\
  $(error WARM: no chapter notebook is named $(1) (a name is a notebook's in chapters/ without\
  .ipynb, e.g. WARM="knife-edge disk-link-friction")))
lecture: $(VENV)/.installed-lab
	COMPANION_LECTURE=1 COMPANION_WARM="$(foreach name,$(WARM),$(call warm_path,$(name)))" \
	  JUPYTER_PATH="$(CURDIR)/companion/widgets/lecture$${JUPYTER_PATH:+:$$JUPYTER_PATH}" \
	  JUPYTER_CONFIG_PATH="$(CURDIR)/companion/widgets/lecture$${JUPYTER_CONFIG_PATH:+:$$JUPYTER_CONFIG_PATH}" \
	  $(BIN)/voila --template=companion-lecture --port=$(PORT) $(if $(NO_BROWSER),--no-browser) \
	  --VoilaExporter.markdown_renderer_class=companion.widgets.voila_markdown.ChapterMarkdownRenderer \
	  "$(CURDIR)/chapters"

# The linter runs first: a lint error fails the test command (and CI).  Two pytest runs at
# once: the browser tier (JupyterLab, Voilà and Chromium: mostly waiting on pages) in the
# background on $(BROWSER_XDIST) workers, a file each (test_browser_chapters.py, about half of
# the tier, on one; each worker starts its own servers), its report printed when it ends,
# beside every other test on $(XDIST) workers; the command fails when either fails.
BROWSER_XDIST ?= -n 2 --dist loadfile
test: lint axe
	@log=$$(mktemp); \
	$(BIN)/python -m pytest -m browser $(BROWSER_XDIST) -p no:cacheprovider $(PYTEST_ARGS) \
	  >"$$log" 2>&1 & \
	browser=$$!; \
	$(BIN)/python -m pytest -m "not browser" $(XDIST) $(PYTEST_ARGS); rest=$$?; \
	echo "make test: waiting for the browser tier, started beside the tests above"; \
	wait $$browser; tier=$$?; cat "$$log"; rm -f "$$log"; \
	test $$rest -eq 0 && test $$tier -eq 0

# axe-core, the accessibility rules the browser tests run in each page (issue 38), from npm
# (never a CDN) into build/axe; once, then kept.  Needs npm (Debian's package: npm).
AXE_VERSION ?= 4.14.1
AXE_JS := build/axe/node_modules/axe-core/axe.min.js
axe: $(AXE_JS)
$(AXE_JS):
	npm install --prefix build/axe --no-audit --no-fund --silent axe-core@$(AXE_VERSION)

# The fast loop while editing: everything but the browser tier (JupyterLab and Voilà in
# Chromium, about two thirds of `make test`'s time); `make test` before a commit.
check: lint
	$(BIN)/python -m pytest -m "not browser" $(XDIST) $(PYTEST_ARGS)

lint: $(VENV)/.installed-test
	$(BIN)/ruff check companion tests benchmarks tools

# The README's chapter table and chapters/index.ipynb, from the list of worked examples.
index: $(VENV)/.installed-lab
	$(BIN)/python -m tools.chapter_index

# The labelled diagram of each example, chapters/images/diagram-<name>.png (companion/diagrams).
figures: $(VENV)/.installed-lab
	$(BIN)/python -m tools.diagrams

# The README's screenshot of a chapter, retaken in JupyterLab in headless Chromium (needs the
# chromium package; Playwright drives it, nothing is downloaded).
screenshot: $(VENV)/.installed-test
	$(BIN)/python tests/screenshot.py

# The static book: every chapter executed and rendered into build/book (open
# build/book/index.html; nothing is fetched, at build or read time, but the packages here).
# Prints each page's size and time and the whole book's; fails above 60 MB.
# `make book BOOK_ARGS=--pdf` also prints each chapter to build/book/pdf/ (a handout).
BOOK_ARGS ?=
book: $(VENV)/.installed-book
	$(BIN)/python -m tools.book --out build/book $(BOOK_ARGS)

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else "Python >= 3.10 is needed; run: make PYTHON=python3.11 ...")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-lab: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e ".[test]"
	touch $@

$(VENV)/.installed-book: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e ".[book]"
	touch $@

# The course kit through the real nbgrader (tools/nbgrader_course.py): the knife edge's
# assignment exported for STUDENTS students, released with `nbgrader generate_assignment`,
# answered (correct, mistaken, blank, hostile), autograded one student at a time (seconds
# printed) and again for the class, exported and fed back; exits 1 naming a failed check.
# nbgrader is no dependency of the companion, nor in the test extra: it lives in a venv of its
# own, $(GRADE_VENV), installed beside the jupyter stack the binder lock pins (-c: no pinned
# version moves).
GRADE_VENV ?= .venv-nbgrader
NBGRADER ?= nbgrader==0.9.6
STUDENTS ?= 10
nbgrader-course: $(GRADE_VENV)/.installed
	$(GRADE_VENV)/bin/python -m tools.nbgrader_course --students $(STUDENTS)

$(GRADE_VENV)/.installed: pyproject.toml binder/environment.yml
	$(PYTHON) -m venv $(GRADE_VENV)
	sed -n 's/^    - \([A-Za-z0-9_.-]*==[^ ]*\)$$/\1/p' binder/environment.yml >$(GRADE_VENV)/lock.txt
	$(GRADE_VENV)/bin/python -m pip install --quiet -c $(GRADE_VENV)/lock.txt -e . "$(NBGRADER)"
	touch $@

clean-venv:
	rm -rf $(VENV) $(GRADE_VENV)
