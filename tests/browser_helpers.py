"""Shared pieces of the in-browser site tests (test_site_browser.py, test_search.py).

- `html_dir()`: the built site, from $ROOFLINE_HTML (default _build/html); a missing build is a clear
  failure, never a skip.
- `toc_pages()`: every page of _toc.yml in reading order (pages added later are covered too).
- `serve(root)`: the site on 127.0.0.1 (a free port) in a background thread.
- `chromium()`: Debian's headless Chromium through Playwright, with no network use of its own.
"""
from __future__ import annotations

import contextlib
import io
import functools
import http.server
import os
import re
import sys
import threading
from pathlib import Path

import pytest
import yaml

from site_pages import toc_pages  # noqa: F401  (the one reader of _toc.yml; the browser tests import it from here)

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("ROOFLINE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def html_dir() -> Path:
    """The built HTML folder; fails (does not skip) when it is missing."""
    path = Path(os.environ.get("ROOFLINE_HTML", ROOT / "_build" / "html")).resolve()
    if not (path / "index.html").is_file() or not (path / "searchindex.js").is_file():
        pytest.fail(f"no built site in {path} (index.html, searchindex.js): run `make book` first, "
                    f"or point ROOFLINE_HTML at a jupyter-book html build", pytrace=False)
    return path


def screenshot_dir() -> Path:
    """<build>/screenshots beside the html folder (e.g. _build/screenshots)."""
    path = html_dir().parent / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


def page_file(docname: str) -> str:
    """URL path of a page relative to the site root (the root page is index.html)."""
    return f"{docname}.html"


@functools.lru_cache(maxsize=None)
def label_page(label: str) -> str:
    """The docname whose source defines the MyST target `(label)=` (robust against renamed files)."""
    for source in sorted((ROOT / "chapters").glob("*.md")):
        if re.search(rf"^\({re.escape(label)}\)=\s*$", source.read_text(encoding="utf-8"), re.M):
            return source.relative_to(ROOT).with_suffix("").as_posix()
    pytest.fail(f"no page defines the label ({label})= in chapters/*.md", pytrace=False)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest output clean
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        """A page left before its fetches finished (the search page's summaries) closes the connection:
        not an error worth a traceback."""
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serve(root: Path):
    """Serve `root` on http://127.0.0.1:<free port>/ while the block runs; yields the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = _QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def chromium():
    """A Playwright Browser on Debian's Chromium (Playwright's own download cannot work here)."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).is_file():
        pytest.fail(f"Chromium not found at {CHROMIUM} (apt-get install chromium fonts-noto-cjk, "
                    f"or set ROOFLINE_CHROMIUM)", pytrace=False)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def offline(context, base: str, blocked: list[str]) -> None:
    """Let the context reach only the local server; record (and abort) every other request."""

    def route(r):
        url = r.request.url
        if url.startswith(base) or url.startswith("data:") or url.startswith("blob:"):
            r.continue_()
        else:
            blocked.append(url)
            r.abort()

    context.route("**/*", route)


def screenshot_contrast(png: bytes) -> float:
    """Contrast ratio (WCAG formula) between the 1st and 99th percentile luminance of a screenshot
    (a figure or a chart as the dark page shows it)."""
    from PIL import Image

    gray = Image.open(io.BytesIO(png)).convert("L")
    hist = gray.histogram()
    total = sum(hist)

    def percentile(q):
        acc = 0
        for value, count in enumerate(hist):
            acc += count
            if acc >= q * total:
                return value
        return 255

    def lin(v):
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    lo, hi = lin(percentile(0.01)), lin(percentile(0.99))
    return (hi + 0.05) / (lo + 0.05)


def cpu_times() -> dict[int, float]:
    """CPU seconds (user + system) of this process and every process below it (Playwright's driver, Chromium)."""
    import psutil

    me = psutil.Process()
    found = {}
    for proc in [me, *me.children(recursive=True)]:
        try:
            t = proc.cpu_times()
            found[proc.pid] = t.user + t.system
        except psutil.Error:
            pass
    return found
