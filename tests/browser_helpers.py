"""One browser session for the in-browser tests: one HTTP server, one Chromium, one visit per (page, mode).

- `html_dir()`: the built site, from $ROOFLINE_HTML (default _build/html); a missing build is a clear
  failure, never a skip.
- `toc_pages()`: every page of _toc.yml in reading order (pages added later are covered too).
- Session fixtures (registered in tests/conftest.py): `site_url`, the site on 127.0.0.1 (a free port) in a
  background thread; `browser`, Debian's Chromium headless shell through Playwright, with no network use of its own;
  `visits[(docname, mode)]`, every page of _toc.yml opened once per mode (light desktop, dark desktop, 390 px
  phone), with what the page tests and axe-core (test_site_browser.py) read from it.
  `serve(root)` and `chromium()` hand out the same server and browser to code that is not a fixture.
  Under xdist each worker process has its own server, browser and visits; the visits are read by one module
  (test_site_browser.py) whose tests of one page all go to one worker (a class per page, --dist loadscope), so each page
  is opened once per mode in the whole run.
"""
from __future__ import annotations

import contextlib
import dataclasses
import functools
import http.server
import io
import os
import re
import sys
import threading
from pathlib import Path

import pytest

from site_pages import toc_pages  # noqa: F401  (the one reader of _toc.yml; the browser tests import it from here)

ROOT = Path(__file__).resolve().parents[1]
# Chromium's headless shell (Debian's chromium-headless-shell: the same version, Blink and V8 as its chromium, and the
# browser Playwright itself runs for headless tests). The full browser in its headless mode also runs what only a
# window needs (the tab's icon, the browser's own services): the same browser tests (tests/book, -n 3) took 40-50 %
# more CPU with it (machine CPU-s, two pairs back to back: 319 against 208, 243 against 173). What a reader's browser
# does is measured with the full Chromium (`make bench`: the explorers' response, Lighthouse).
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM = os.environ.get("ROOFLINE_CHROMIUM", HEADLESS_SHELL)
# --no-wasm-tier-up: V8 runs Pyodide's WebAssembly (the live mode's Python) with its baseline compiler only, without
# recompiling its hot functions with the optimizing one in the background; what the page does is the same, and the
# live and offline tests spend about a tenth less CPU (57.5 → 51.0 CPU-s, two pairs, 2026-12-08).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--js-flags=--no-wasm-tier-up"]
HANGUL = re.compile(r"[\uac00-\ud7a3]")
DESKTOP = {"width": 1280, "height": 900}
# resolves after the next two frames: what a change scheduled for the next frame did is laid out and painted
TWO_FRAMES = "() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))"
PHONE = {"width": 390, "height": 844}


def html_dir() -> Path:
    """The built HTML folder; fails (does not skip) when it is missing."""
    path = Path(os.environ.get("ROOFLINE_HTML", ROOT / "_build" / "html")).resolve()
    if not (path / "index.html").is_file() or not (path / "searchindex.js").is_file():
        pytest.fail(f"no built site in {path} (index.html, searchindex.js): run `make book` first, "
                    f"or point ROOFLINE_HTML at a jupyter-book html build", pytrace=False)
    return path


# Screenshots to look at (never compared) are taken when asked: `make screenshots` sets ROOFLINE_SCREENSHOTS=1. The
# shots that a check reads (each figure and plot in dark mode, for its contrast) are taken in every run.
SCREENSHOTS = os.environ.get("ROOFLINE_SCREENSHOTS") == "1"


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


# ---- one server and one Chromium per test process -------------------------------------------------------

class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest output clean
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        """A page left before its fetches finished (the search page's summaries) closes the connection:
        not an error worth a traceback."""
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


_SERVERS: dict[Path, tuple[_QuietServer, str]] = {}
_BROWSER: list = []        # [(playwright, browser, executable)] once started


def _url_of(root: Path) -> str:
    """The base URL of a server for `root` (started on first use, stopped at the end of the session)."""
    root = Path(root).resolve()
    if root not in _SERVERS:
        handler = functools.partial(_QuietHandler, directory=str(root))
        server = _QuietServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        _SERVERS[root] = server, f"http://127.0.0.1:{server.server_address[1]}/"
    return _SERVERS[root][1]


def _chromium(executable: str | None = None):
    """The one Playwright Browser on Debian's Chromium (Playwright's own download cannot work here): `executable`,
    else CHROMIUM (the headless shell)."""
    executable = executable or CHROMIUM
    if not _BROWSER:
        from playwright.sync_api import expect, sync_playwright

        expect.set_options(timeout=30_000)   # a page's own default: on a busy machine 5 s is a race, not a check

        if not Path(executable).is_file():
            pytest.fail(f"Chromium not found at {executable} (apt-get install chromium-headless-shell fonts-noto-cjk, "
                        f"or set ROOFLINE_CHROMIUM)", pytrace=False)
        pw = sync_playwright().start()
        try:
            _BROWSER.append((pw, pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS), executable))
        except Exception:
            pw.stop()
            raise
    pw, browser, running = _BROWSER[0]
    assert running == executable, f"the session's Chromium is {running}, not {executable}"
    return browser


def stop_shared() -> None:
    """Close the browser and the servers (at the end of the session)."""
    while _BROWSER:
        pw, browser, _ = _BROWSER.pop()
        with contextlib.suppress(Exception):
            browser.close()
        pw.stop()
    while _SERVERS:
        server, _ = _SERVERS.popitem()[1]
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def serve(root: Path):
    """The site `root` on http://127.0.0.1:<free port>/ (the session's one server for it); yields the base URL."""
    yield _url_of(root)


@contextlib.contextmanager
def chromium(executable: str | None = None):
    """The session's one Chromium (closed at the end of the session, not of the block); `executable` as _chromium."""
    yield _chromium(executable)


@pytest.fixture(scope="session")
def site_url() -> str:
    """Base URL of the built site (html_dir()) on 127.0.0.1."""
    return _url_of(html_dir())


@pytest.fixture(scope="session")
def browser():
    """The session's one headless Chromium (a Playwright Browser); each test file opens its own contexts."""
    return _chromium()


def pytest_sessionfinish(session, exitstatus):
    stop_shared()


def offline(context, base: str, blocked: list[str]) -> None:
    """Let the context reach only the local server; record (and abort) every other request. Only those come to
    this process: the pattern is a regular expression, which Playwright matches in its driver, so the site's own
    requests are not stopped on their way (a handler for every request costs a round trip through Python each)."""

    def route(r):
        blocked.append(r.request.url)
        r.abort()

    context.route(re.compile(f"^(?!{re.escape(base)}|data:|blob:)"), route)


def local_context(browser, base: str, blocked: list[str], service_workers: str = "block", **options):
    """A new browser context that reaches only the local server (`offline`). The site's service worker is blocked
    (Playwright's `service_workers="block"`: its script then finds `register` answering nothing) unless the test is
    about it (`service_workers="allow"`, tests/book/test_offline.py): every page is then loaded from the server, and
    a load does not also install the worker and have it fetch the page's files again."""
    context = browser.new_context(service_workers=service_workers, **options)
    offline(context, base, blocked)
    return context


def start_explorer(root):
    """The explorer `root` (a Locator), brought near the screen as a reader scrolling to it does (an explorer starts
    only then: _static/explorer.js), once it has started."""
    root.scroll_into_view_if_needed()
    root.page.wait_for_function("(root) => root.rlExplorer", arg=root.element_handle())
    return root


# Whether the explorer's shown state has something to guess (a predict part: explorer.js's own `state` of each part).
ASKS = "(root) => { const e = root.rlExplorer; return e.data.parts.some((part) => (e.state(part) || {}).predict); }"


def step_until(control, key: str, done) -> bool:
    """Press `key` on a range control a notch at a time until `done()`; False if the control stops moving first."""
    while not done():
        was = control.input_value()
        control.press(key)
        if control.input_value() == was:
            return False
    return True


def slide_to_other_end(root, control, asking: bool = False) -> None:
    """A range control moved as a reader moves it, to the end it is not at (a term can start it at either end); with
    `asking`, then a notch at a time back from that end until the state has something to guess (a state whose values
    the page's tables already show, or that has none, asks nothing: the next term's largest tile on its GPU)."""
    at_max = control.evaluate("(r) => r.value === r.max")
    control.press("Home" if at_max else "End")
    if asking:
        assert step_until(control, "ArrowRight" if at_max else "ArrowLeft", lambda: root.evaluate(ASKS)), \
            "no state of the range has anything to guess"


# Whether the page's address (#…) names each key of `want` with its value (an explorer writes it when the reader pauses).
ADDRESS_NAMES = """(want) => { const found = new URLSearchParams(location.hash.slice(1));
  return Object.entries(want).every(([key, value]) => found.get(key) === value); }"""


def address_naming(page, want: dict[str, str]) -> str:
    """The page's address, once it names `want`."""
    page.wait_for_function(ADDRESS_NAMES, arg=want)
    return page.evaluate("() => location.href")


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


# ---- one visit per (page, mode) -------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Mode:
    viewport: dict
    theme: str
    axe_rules: list | None       # the axe-core rules to run (None: all of them)
    keyboard: bool               # walk the wide tables with the keyboard

    @property
    def checks_colour(self) -> bool:
        """axe's colour rule runs in this mode (so do CASES and COLOURS)."""
        return self.axe_rules is None or "color-contrast" in self.axe_rules


MODES = {
    "light": Mode(DESKTOP, "light", None, True),
    # the same page in the other colours: only the rules whose outcome depends on colour (axe is slow)
    "dark": Mode(DESKTOP, "dark", ["color-contrast", "link-in-text-block"], False),
    # the same page in a narrow window: what changes is which boxes scroll (and the keyboard walk)
    "phone": Mode(PHONE, "light", ["scrollable-region-focusable"], True),
}

# axe-core's colour-contrast rule is most of a visit's time, and on a page with code or formulas most of its nodes are
# the code's highlighting spans and the formulas' MathML tokens. Their colours are few (a code theme, the text colour)
# on simple backgrounds (the code block's, the page's), so COLOURS below reads each such text's colour and the
# background layers behind it, and test_site_browser.py computes the contrast (the WCAG formula, as axe does) for
# each distinct pair; axe's rule checks every other text of the page.
CODE_AND_FORMULAS = ".highlight, .highlight *, math, math *"
# Of the other texts, many look alike (the prose: one colour, one size, on the page's background). Two texts with the
# same colour, size, weight and shadow, over the same chain of backgrounds, opacities, filters and blend modes up to
# the first opaque background (and below it only opacities), in normal flow, have the same contrast: CASES marks one
# text of each such case (`data-rl-contrast`), and axe's colour rule judges those. A text over a background image,
# or positioned out of the flow, is a case of its own. Its argument is [CODE_AND_FORMULAS, roots]: the texts under
# those selectors' elements (null: the whole page). It returns [texts, cases].
CASES = r"""([codeAndFormulas, roots]) => {
  const behind = new Map();
  const opacity = (el) => { let o = 1; for (let p = el; p; p = p.parentElement) o *= parseFloat(getComputedStyle(p).opacity); return o; };
  const chain = (el) => {
    if (!el) return "";
    if (!behind.has(el)) {
      const s = getComputedStyle(el);
      let own = [s.backgroundColor, s.backgroundImage, s.opacity, s.filter, s.mixBlendMode].join(",");
      if (s.backgroundImage !== "none") own += "#" + behind.size;
      const opaque = !/^rgba|^transparent/.test(s.backgroundColor) && s.backgroundImage === "none";
      behind.set(el, own + "|" + (opaque ? opacity(el.parentElement) : chain(el.parentElement)));
    }
    return behind.get(el);
  };
  const cases = new Set();
  let texts = 0;
  document.querySelectorAll("[data-rl-contrast]").forEach((el) => el.removeAttribute("data-rl-contrast"));
  const candidates = roots ? new Set(roots.flatMap((r) => [...document.querySelectorAll(r)])
                                       .flatMap((root) => [root, ...root.querySelectorAll("*")]))
                          : document.body.querySelectorAll("*");
  for (const el of candidates) {
    if (el.matches(codeAndFormulas)) continue;
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()) || !el.getClientRects().length) continue;
    const s = getComputedStyle(el);
    const flow = s.position === "static" || s.position === "relative" ? "" : "out of flow #" + texts;
    const key = [s.color, s.fontSize, s.fontWeight, s.textShadow, flow, chain(el)].join(";");
    texts += 1;
    if (!cases.has(key)) {
      cases.add(key);
      el.setAttribute("data-rl-contrast", "");
    }
  }
  return [texts, cases.size];
}"""
# Before each run axe-core preloads what some of its rules read: the media's metadata (no-autoplay-audio) and the
# page's stylesheets, fetched and parsed again into a document of its own (the CSSOM, which only css-orientation-lock
# reads: an experimental rule, which axe runs only when asked for by name, and no run here asks for it). Only the media.
AXE_PRELOAD = {"assets": ["media"]}
AXE_SETUP = "() => axe.configure({rules: [{id: 'color-contrast', selector: '[data-rl-contrast]'}]})"

# Each distinct (text colour, background layers up to the first opaque one, large text?) of the texts that axe's
# colour rule leaves to us, with an example. A background image or an ancestor's opacity would make the colour behind
# unknowable from styles alone: such a text is reported with `unknown` set (the test then fails and says why).
COLOURS = r"""(codeAndFormulas) => {
  const found = new Map();
  for (const el of document.querySelectorAll(codeAndFormulas)) {
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    if (!el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    if (style.visibility !== "visible" || style.display === "none") continue;
    const layers = [];
    let unknown = "";
    for (let p = el; p && !unknown; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.backgroundImage !== "none") unknown = "background-image on " + p.tagName.toLowerCase();
      else if (parseFloat(s.opacity) < 1) unknown = "opacity on " + p.tagName.toLowerCase();
      else if (!/^rgba\(.*, 0\)$/.test(s.backgroundColor)) {
        layers.push(s.backgroundColor);
        if (!s.backgroundColor.startsWith("rgba")) break;
      }
    }
    const size = parseFloat(style.fontSize), bold = parseInt(style.fontWeight, 10) >= 700;
    const large = size >= 24 || (bold && size >= 18.66);
    const key = [style.color, layers.join("|"), large, unknown].join(";");
    if (!found.has(key)) {
      found.set(key, {color: style.color, layers, large, unknown,
                      example: el.tagName.toLowerCase() + "." + [...el.classList].join(".") + ": " +
                               el.textContent.trim().slice(0, 40)});
    }
  }
  return [...found.values()];
}"""

# The theme's colour mode before its own script runs (what its switch stores): the page loads in that mode.
THEME = """(mode) => { localStorage.setItem("mode", mode); localStorage.setItem("theme", mode); }"""

# Wait until every <img> has finished (lazy ones forced to load) and the fonts (math, icons) are in.
SETTLE = """async () => {
  const imgs = [...document.images];
  imgs.forEach((img) => { img.loading = "eager"; });
  await Promise.race([
    Promise.all(imgs.map((img) => img.complete ? null :
      new Promise((ok) => { img.addEventListener("load", ok); img.addEventListener("error", ok); }))),
    new Promise((ok) => setTimeout(ok, 5000)),
  ]);
  await document.fonts.ready;
  return true;
}"""

# Open every folded answer (sphinx-togglebutton and <details>), as a reader who reads them does, and start every
# explorer, as a reader who scrolls through the page does (each starts when it comes near the screen, showing its
# controls and the live-mode button: started here, so that none starts under the keyboard walk and adds a tab stop
# between two of its steps); then wait until the opened answers have faded in (the toggle's opacity transition and
# fade-in animation: axe-core judges the colours a reader sees, not a half-transparent text) and for
# _static/scroll-focus.js to look again at the boxes the opening laid out (a box keeps its tab stop only if it
# scrolls). Waited for by what they are, not for a fixed time: a fixed 400 ms was a third of a visit's wall time.
OPEN_ALL = """async () => {
  document.querySelectorAll(".toggle-hidden").forEach((el) => el.classList.remove("toggle-hidden"));
  document.querySelectorAll("details").forEach((el) => { el.open = true; });
  for (const root of document.querySelectorAll("[data-rl-explorer]")) {
    root.scrollIntoView({block: "center"});
    const since = performance.now();
    while (!root.rlExplorer && performance.now() - since < 20000) await new Promise((ok) => setTimeout(ok, 50));
  }
  window.scrollTo(0, 0);
  // a frame laid out (scroll-focus.js's IntersectionObserver has seen the boxes now near), every animation with an end
  // (the fades) at its end, then one more frame (scroll-focus.js writes after a frame)
  const frame = () => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
  const fading = () => document.getAnimations().some((a) => a.playState === "running"
                                                           && isFinite(a.effect.getComputedTiming().endTime));
  let since = performance.now();
  do await frame(); while (fading() && performance.now() - since < 5000);
  await frame();
  await document.fonts.ready;
  // scroll-focus.js looks again after each layout, in a later frame: wait (on a busy machine, longer) until each box
  // that scrolls sideways has its tab stop, which is what the checks after this read
  const boxes = [...document.querySelectorAll("pre, .cell_output > .output, .pst-scrollable-table-container, .bd-article div.math")];
  since = performance.now();
  while (boxes.some((b) => b.scrollWidth > b.clientWidth + 1 && b.getAttribute("tabindex") !== "0")
         && performance.now() - since < 10000) await new Promise((ok) => setTimeout(ok, 50));
  return {theme: document.documentElement.dataset.theme,
          unstarted: [...document.querySelectorAll("[data-rl-explorer]")].filter((r) => !r.rlExplorer).map((r) => r.id)};
}"""

COLLECT = r"""() => {
  const article = document.querySelector(".bd-article") || document.body;
  const visibleText = (() => {
    const copy = article.cloneNode(true);
    copy.querySelectorAll("script, style, pre, code, math, .highlight")
      .forEach((n) => n.remove());
    return copy.textContent;
  })();
  const outputs = [...document.querySelectorAll(".cell_output, .output")];
  return {
    lang: document.documentElement.lang,
    title: document.title,
    h1: (document.querySelector(".bd-article h1") || {}).textContent || "",
    description: (document.querySelector('meta[name="description"]') || {}).content || "",
    favicon: (document.querySelector('link[rel~="icon"]') || {}).href || "",
    footer: (document.querySelector(".bd-footer-content") || document.body).innerText,
    images: [...document.images].map((img) => ({
      src: img.currentSrc || img.src, alt: img.getAttribute("alt"), complete: img.complete,
      naturalWidth: img.naturalWidth })),
    visibleText,
    mathSource: document.querySelectorAll(".math").length,
    // a formula counts as drawn when its box holds one <math> that Chromium lays out as MathML (MathML Core)
    mathRendered: [...document.querySelectorAll(".math")].filter((box) =>
      box.querySelectorAll(":scope > math").length === 1 &&
      box.querySelector("math") instanceof MathMLElement &&
      box.querySelector("math").getBoundingClientRect().width > 0).length,
    mathErrors: [...document.querySelectorAll(".math merror, .math > code")].map((n) => n.textContent),
    // a fraction laid out as math stands taller than a line of its text; as plain text it would not
    flatFractions: [...document.querySelectorAll(".math mfrac")].filter((f) => {
      const r = f.getBoundingClientRect();
      return r.width > 0 && r.height < 1.3 * parseFloat(getComputedStyle(f).fontSize);
    }).map((f) => f.textContent),
    mathFonts: [...document.fonts].filter((f) => f.status === "loaded").map((f) => f.family),
    icons: [...document.querySelectorAll("*")].map((el) => {
      const before = getComputedStyle(el, "::before");
      const family = before.fontFamily, content = before.content;
      return family.includes("Font Awesome") && /^"[\ue000-\uf8ff]"$/.test(content) ?
        {family: family, weight: before.fontWeight, char: content.slice(1, -1), cls: el.className.toString()} : null;
    }).filter(Boolean),
    stderr: [...document.querySelectorAll(".output.stderr, .output.traceback, .stderr, .traceback")]
      .map((n) => n.textContent.slice(0, 200)),
    outputText: outputs.map((n) => n.textContent).join("\n"),
    links: [...document.querySelectorAll("a[href]")].map((a) => ({href: a.href, raw: a.getAttribute("href")})),
    prev: (document.querySelector("a.left-prev") || {}).href || null,
    next: (document.querySelector("a.right-next") || {}).href || null,
  };
}"""

SIDEWAYS = """() => {
  window.scrollTo(10000, 0);
  const scrolled = window.scrollX;
  window.scrollTo(0, 0);
  const width = document.documentElement.clientWidth;
  const clipped = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === "auto" || o === "scroll" || o === "hidden" || o === "clip") return true;
    }
    return false;
  };
  const culprits = [...document.querySelectorAll(".bd-article *")]
    .filter((el) => el.getBoundingClientRect().right > width + 1 && !clipped(el))
    .slice(0, 5)
    .map((el) => el.tagName.toLowerCase() + (el.className && typeof el.className === "string" ?
      "." + el.className.trim().split(/\\s+/).join(".") : ""));
  return {scrolled, scrollWidth: document.documentElement.scrollWidth, width, culprits};
}"""

# Visible figures of the article (each is then shot on its own).
FIGURE_BOXES = """() => [...document.querySelectorAll(".bd-article img")]
  .map((img, index) => ({img, index, r: img.getBoundingClientRect()}))
  .filter(({img, r}) => r.width > 40 && r.height > 40 && img.offsetParent !== null)
  .map(({img, index}) => ({src: img.getAttribute("src"), index}))"""

# The tables wider than their box: each box's tab stop and accessible name.
WIDE = """() => [...document.querySelectorAll(".bd-article .pst-scrollable-table-container")]
  .filter((box) => box.scrollWidth > box.clientWidth + 1)
  .map((box) => ({tabIndex: box.tabIndex, role: box.getAttribute("role"), label: box.getAttribute("aria-label")}))"""
# Put the focus on the last visible tab stop before the i-th wide table (as a reader who tabbed that far).
BEFORE = """(i) => {
  const box = [...document.querySelectorAll(".bd-article .pst-scrollable-table-container")]
    .filter((b) => b.scrollWidth > b.clientWidth + 1)[i];
  const stops = [...document.querySelectorAll("a[href], button, input, select, textarea, summary, [tabindex]")]
    .filter((el) => el.tabIndex >= 0 && !el.disabled && el.getClientRects().length > 0 &&
                    getComputedStyle(el).visibility === "visible" &&
                    (box.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING) && !box.contains(el));
  const last = stops[stops.length - 1];
  last.focus();
  return document.activeElement === last;
}"""
FOCUSED = """() => { const el = document.activeElement;
  return el && el.classList.contains("pst-scrollable-table-container") ?
    {label: el.getAttribute("aria-label"), scrollLeft: el.scrollLeft} : null; }"""


@dataclasses.dataclass
class Visit:
    """What one cold load of a page in one mode showed (every list empty when nothing went wrong)."""
    docname: str
    mode: str
    url: str
    console_errors: list = dataclasses.field(default_factory=list)
    failed_requests: list = dataclasses.field(default_factory=list)
    external_requests: list = dataclasses.field(default_factory=list)
    first_visit: list = dataclasses.field(default_factory=list)      # (url, bytes) of the cold load, until settled
    collected: dict = dataclasses.field(default_factory=dict)        # COLLECT, before the answers are opened
    theme: str = ""                                                  # data-theme the page shows
    unstarted: list = dataclasses.field(default_factory=list)       # explorers that did not start (their ids)
    figure_contrast: list = dataclasses.field(default_factory=list)  # (src, contrast ratio) of each figure
    sideways: dict = dataclasses.field(default_factory=dict)         # SIDEWAYS
    violations: list = dataclasses.field(default_factory=list)       # axe: (rule id, impact, help, [targets])
    colours: list = dataclasses.field(default_factory=list)          # COLOURS (where axe's colour rule runs)
    contrast_cases: list = dataclasses.field(default_factory=list)   # CASES: [texts, cases axe's colour rule judged]
    wide_tables: list = dataclasses.field(default_factory=list)      # WIDE + what the keyboard did
    screenshot: Path | None = None


def _painted(page, image):
    """`image` scrolled into view, decoded and painted (a section away from the screen is not laid out, see
    content-visibility in the site's CSS, so its figure is drawn only once it is near: wait two frames)."""
    image.scroll_into_view_if_needed()
    image.evaluate("(img) => img.decode().catch(() => null)")
    page.evaluate(TWO_FRAMES)
    return image


def keep_shot(locator, name: str) -> None:
    """With SCREENSHOTS (`make screenshots`), `locator` as <build>/screenshots/NAME, to look at."""
    if SCREENSHOTS:
        locator.screenshot(path=screenshot_dir() / name)


def shot_name(docname: str, mode: str) -> str:
    """A whole page as JPEG (quality 80): to look at, not to compare; PNG takes twice as long on a long page."""
    return f"{docname.replace('/', '__')}-{mode}.jpg"


def _body_size(response) -> int:
    """The bytes of a response's body: its Content-Length, which comes with the response (the local server sends one
    with every file), else the body itself, asked for (a round trip that brings the whole body to this process)."""
    length = response.headers.get("content-length")
    if length is not None:
        return int(length)
    try:
        return len(response.body())
    except Exception:        # a redirect or an aborted request has no body
        return 0


def _keyboard(page, wide: list) -> list:
    """For each wide table: Tab from the tab stop before it, then the right arrow key."""
    for i, table in enumerate(wide):
        table["reached"] = table["scrolled"] = False
        if not page.evaluate(BEFORE, i):
            continue
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        table["reached"] = focused is not None and focused["label"] == table["label"]
        if not table["reached"]:
            continue
        for _ in range(5):
            page.keyboard.press("ArrowRight")
        try:                                   # keyboard scrolling is animated: wait for it to move
            page.wait_for_function(f"() => document.activeElement.scrollLeft > {focused['scrollLeft']}",
                                   timeout=3000)
            table["scrolled"] = True
        except Exception:
            pass
    return wide


class _Tab:
    """One browser tab of a mode, kept for every page of that mode: a new tab starts a renderer process, about as much
    work as loading the page itself. Its listeners are registered once and write into the visit under way (`visit`);
    between visits (visit None), or once axe-core is loaded (`reader` False), what the tab does is not the reader's.
    Each page is still a cold load: with routing on, the browser cache is off, so every request reaches the server
    (and is counted)."""

    def __init__(self, context, blocked: list, base: str):
        self.context, self.blocked, self.base = context, blocked, base
        self.page = context.new_page()
        self.visit: Visit | None = None
        self.reader = False
        self.weighing = False      # the bytes of each response are read (light mode, until the page has settled)
        self.responses: list = []
        self.page.on("console", lambda msg: self.visit.console_errors.append(msg.text)
                     if msg.type == "error" and self.reading() else None)
        self.page.on("pageerror", lambda e: self.visit.console_errors.append(f"page error: {e}") if self.reading() else None)
        self.page.on("requestfailed", lambda q: self.visit.failed_requests.append(f"{q.url} ({q.failure})")
                     if self.reading(q.url) else None)
        self.page.on("response", lambda q: self.visit.failed_requests.append(f"{q.url} (HTTP {q.status})")
                     if self.reading(q.url) and q.status >= 400 else None)
        self.page.on("response", lambda q: self.responses.append((q.url, _body_size(q))) if self.weighing else None)

    def reading(self, url: str | None = None) -> bool:
        """Whether what the tab does now is the reader's (and, for a request, the site's)."""
        return self.visit is not None and self.reader and (url is None or url.startswith(self.base))

    def start(self, visit: Visit):
        self.visit, self.reader, self.responses = visit, True, []
        self.weighing = visit.mode == "light"    # (the page weight test reads that mode's; a body is a round trip)
        self.blocked.clear()
        return self.page

    def stop(self) -> None:
        """The visit is over: the tab leaves the page, so that what the page still had in flight (the dark and phone
        visits do not wait for the network to be quiet) ends here, unread, and is not the next visit's failed request
        when the next page's load cancels it."""
        self.visit.external_requests = sorted(set(self.blocked))
        self.visit, self.weighing = None, False
        with contextlib.suppress(Exception):
            self.page.goto("about:blank")


class Visits:
    """visits[(docname, mode)] → Visit, each page opened once per mode on first use (a cold load: with routing on,
    the browser cache is off). Light: the page as loaded (COLLECT, bytes), then with every answer open and every
    explorer started (OPEN_ALL), all axe rules and the keyboard walk. Dark (loaded dark, as the theme's switch leaves
    it): each figure's contrast, axe's colour rules. Phone (390 px): sideways scroll, axe's scrolling-box rule, the
    keyboard walk. With SCREENSHOTS (`make screenshots`), each mode's page as loaded goes to <build>/screenshots/ too.
    The pages of one mode are loaded one after another in one tab (_Tab); a visit that fails closes its tab, and the
    next visit opens another."""

    def __init__(self, root: Path, base: str, browser):
        self.root, self.base, self.browser = root, base, browser
        self.shots = screenshot_dir()
        self._done: dict[tuple[str, str], Visit | Exception] = {}
        self._contexts: dict[str, tuple] = {}
        self._tabs: dict[str, _Tab] = {}

    def __getitem__(self, key: tuple[str, str]) -> Visit:
        if key not in self._done:
            try:
                self._done[key] = self._visit(*key)
            except Exception as err:   # remembered: the other tests of this visit fail at once, with the cause
                self._done[key] = err
        found = self._done[key]
        if isinstance(found, Exception):
            raise found
        return found

    def _tab(self, mode: str) -> _Tab:
        if mode not in self._contexts:
            m, blocked = MODES[mode], []
            context = local_context(self.browser, self.base, blocked, viewport=m.viewport, color_scheme=m.theme)
            context.add_init_script(f"({THEME})({m.theme!r})")
            self._contexts[mode] = context, blocked
        if mode not in self._tabs:
            self._tabs[mode] = _Tab(*self._contexts[mode], self.base)
        return self._tabs[mode]

    def _visit(self, docname: str, mode: str) -> Visit:
        m = MODES[mode]
        visit = Visit(docname, mode, self.base + page_file(docname))
        if not (self.root / page_file(docname)).is_file():
            visit.failed_requests.append(f"{page_file(docname)} was not built")
            return visit
        tab = self._tab(mode)
        page = tab.start(visit)
        done = False
        try:
            page.goto(visit.url, wait_until="load")
            page.evaluate(SETTLE)
            if tab.weighing or SCREENSHOTS:   # every request of the first visit counted (or the page shot) once
                # the network is quiet: the other modes need not wait for it (it is at least 0.5 s)
                page.wait_for_load_state("networkidle")
            visit.first_visit, tab.weighing = list(tab.responses), False
            if SCREENSHOTS:                                # the page as loaded, before any answer is opened
                visit.screenshot = self.shots / shot_name(docname, mode)
                page.screenshot(path=visit.screenshot, full_page=True, quality=80)
            if mode == "light":                           # the page as a reader first sees it
                visit.collected = page.evaluate(COLLECT)
            opened = page.evaluate(OPEN_ALL)
            visit.theme, visit.unstarted = opened["theme"], opened["unstarted"]
            if mode == "dark":
                figures = page.evaluate(FIGURE_BOXES)
                images = page.locator(".bd-article img")   # each figure shot on its own: no offsets to go stale
                visit.figure_contrast = [(f["src"], screenshot_contrast(_painted(page, images.nth(f["index"])).screenshot()))
                                         for f in figures]
            if mode == "phone":
                visit.sideways = page.evaluate(SIDEWAYS)
            # what the page does, up to axe-core (what axe does is not the reader's)
            tab.reader = False
            options = {"resultTypes": ["violations"], "preload": AXE_PRELOAD}
            if m.axe_rules:
                options["runOnly"] = {"type": "rule", "values": m.axe_rules}
            page.evaluate(_axe_script())
            page.evaluate(AXE_SETUP)
            if m.checks_colour:
                visit.contrast_cases = page.evaluate(CASES, [CODE_AND_FORMULAS, None])
            response = page.evaluate("(options) => axe.run(document, options)", options)
            if m.checks_colour:
                visit.colours = page.evaluate(COLOURS, CODE_AND_FORMULAS)
            visit.violations = [(v["id"], v["impact"], v["help"], [" ".join(n["target"]) for n in v["nodes"]][:5])
                                for v in response["violations"]]
            if m.keyboard:
                visit.wide_tables = _keyboard(page, page.evaluate(WIDE))
            done = True
        finally:
            tab.stop()
            if not done:                                   # a tab in an unknown state is not reused
                with contextlib.suppress(Exception):
                    page.close()
                del self._tabs[mode]
        return visit

    def close(self):
        for context, _ in self._contexts.values():
            with contextlib.suppress(Exception):
                context.close()


@functools.lru_cache(maxsize=None)
def _axe_script() -> str:
    from axe_playwright_python.base import AXE_SCRIPT

    return AXE_SCRIPT


def axe_violations(page, within: list[str] | None = None) -> list:
    """axe-core's violations on the page as it is now, every rule, the colour rule judging one text of each case
    (CASES; the code's and the formulas' colours are test_site_browser.py's, and a state of the page shows no new
    ones): [(rule id, impact, [targets] (4 at most), the first node's failure summary)]. `within`: only the elements
    these selectors name, and what they hold (what a change of the page added: the rest of the page is the site
    visits' to judge, test_site_browser.py), else the whole page. axe-core is loaded into the page once (a load
    parses its half megabyte of script again)."""
    if not page.evaluate("() => typeof axe === 'object'"):
        page.evaluate(_axe_script())
    page.evaluate(AXE_SETUP)
    page.evaluate(CASES, [CODE_AND_FORMULAS, within])
    context = {"include": [[selector] for selector in within]} if within else None
    found = page.evaluate("([context, preload]) => axe.run(context || document, {resultTypes: ['violations'], "
                          "preload})", [context, AXE_PRELOAD])["violations"]
    return [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:4], v["nodes"][0].get("failureSummary", "")[:300])
            for v in found]


@pytest.fixture(scope="session")
def visits(site_url, browser):
    """{(docname, mode): Visit} for every page of _toc.yml and every mode of MODES, made on first use."""
    found = Visits(html_dir(), site_url, browser)
    yield found
    found.close()

