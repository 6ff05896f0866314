"""Tools for the test suite and benchmarks (not used by readers): driving JupyterLab and
Voilà in a real headless Chromium with Playwright."""
