"""The site offline, in headless Chromium: the service worker (sw.js, written by tools/coursebook/offline.py from
the build's file list) keeps every page a reader opens, and only the worker can: the site is served with
`Cache-Control: no-store`, and every request outside 127.0.0.1 is aborted.

- Three chapters and the search page visited, the network cut (`context.set_offline(True)`), each reloaded: every
  figure decoded, the styles applied, the explorer started, a search answering; a chapter never opened says in
  Korean that it was not kept (the worker's page, not the browser's error page).
- A new build of the site (a copy of the build whose pages and an explorer's state file change, its worker written
  again by the build's own step, offline.write_worker) is seen after reconnecting: the notice "새 판이 있다 —
  다시 불러오기", the old build's page and state file until it is pressed; a page the old build never kept says a
  new edition is there (never the new page under the old worker); pressing swaps: only the new build's pages, files
  and cache.
- "오프라인으로 모두 받아 두기" pressed by keyboard: then, offline, the never-opened chapter and the site's root open.
- The live mode run once on one page, then offline on another: the library's values, and nothing fetched from the
  server (the server's own log of requests). Before the first run, pointing at the button, focusing it and an idle
  page fetch nothing of it; after it, a page with the live mode starts Python before the press (from the device). The press-to-result times are figures
  (<build>/screenshots/offline-measurements.json), never assertions.
- The site is served under a base path (/course/), as a GitHub Pages project site is: the worker's scope is that.
- Installable: Chromium's own checks (Page.getInstallabilityErrors, the parsed manifest) find nothing. The manifest: name, Korean short name, icons that exist at their stated sizes, theme colours for both modes.
"""
from __future__ import annotations

import functools
import http.server
import json
import shutil
import threading
import time

import pytest
from playwright.sync_api import expect

from browser_helpers import (
    HANGUL,
    chromium,
    html_dir,
    label_page,
    local_context,
    page_file,
    screenshot_dir,
    start_explorer,
)
from coursebook import offline as site_offline
from roofline.show import engine

pytestmark = pytest.mark.heavy(60)   # rough seconds, for the order of the run (tests/conftest.py)

DESKTOP = {"width": 1280, "height": 900}
WAIT_MS = 600_000                      # a generous bound on a busy machine, not a target
MEASURED: dict = {}

FIGURES_DECODED = """async () => {
  const images = [...document.querySelectorAll("article img")];
  images.forEach((i) => { i.loading = "eager"; });
  await Promise.all(images.map((i) => i.decode().then(() => true, () => false)));
  return images.map((i) => [i.getAttribute("src"), i.complete && i.naturalWidth > 0]);
}"""
STYLED = """() => [...document.querySelectorAll('link[rel="stylesheet"]')].every((l) => l.sheet && l.sheet.cssRules.length > 0)
  && getComputedStyle(document.querySelector(".bd-sidebar-primary") || document.body).display !== "inline"
  && getComputedStyle(document.documentElement).getPropertyValue("--pst-color-primary").trim().length > 0"""
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
FETCH_TEXT = "(url) => fetch(url).then((r) => r.text())"
CACHES = "async () => (await caches.keys()).sort()"


class _Handler(http.server.SimpleHTTPRequestHandler):
    """The built site with no HTTP caching, logging every path it serves."""

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_GET(self):
        self.server.served.append(self.path.split("?")[0])
        super().do_GET()

    def log_message(self, *args):
        pass


def pages_served(server, since: int) -> list[str]:
    """What the server sent after request `since`, less the browser's own update check of the registered worker
    script: Chromium fetches it from its browser process on a navigation, which `context.set_offline` does not cut
    (for a reader who is really offline that check fails quietly, and the worker goes on serving)."""
    return [path for path in server.served[since:] if not path.endswith("/" + site_offline.WORKER)]


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass    # a fetch the page left before it finished


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A copy of the built site (the update step writes a new build into it) on 127.0.0.1, no-store, under a base
    path as a GitHub Pages project site is (http://…/course/)."""
    root = tmp_path_factory.mktemp("offline") / "course"
    shutil.copytree(html_dir(), root)
    assert (root / site_offline.WORKER).is_file(), "the build wrote no service worker"
    server = _Server(("127.0.0.1", 0), functools.partial(_Handler, directory=str(root.parent)))
    server.served = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with chromium() as browser:
        yield root, server, f"http://127.0.0.1:{server.server_address[1]}/{root.name}/", browser
    server.shutdown()
    server.server_close()
    (screenshot_dir() / "offline-measurements.json").write_text(json.dumps(MEASURED, indent=2), encoding="utf-8")


class Reader:
    def __init__(self, site):
        self.root, self.server, self.base, browser = site
        self.blocked: list[str] = []
        self.errors: list[str] = []
        self.context = local_context(browser, self.base, self.blocked, service_workers="allow", viewport=DESKTOP)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self, docname: str, query: str = ""):
        self.page.goto(self.base + page_file(docname) + query, wait_until="load")
        self.page.wait_for_function(CONTROLLED, timeout=WAIT_MS)
        return self.page

    def kept(self, docname: str) -> None:
        """Wait until the worker holds the page and everything it needs."""
        self.page.evaluate("""(url) => new Promise((ok, no) => { const c = new MessageChannel();
            c.port1.onmessage = (e) => e.data.error ? no(e.data.error) : ok(); 
            navigator.serviceWorker.controller.postMessage({type: "keep-page", url}, [c.port2]); })""",
                           self.base + page_file(docname))

    def close(self):
        assert not self.blocked, f"requests left the machine: {self.blocked[:5]}"
        assert not self.errors, self.errors
        self.context.close()


def chapter_works(page, explorer: bool) -> None:
    figures = page.evaluate(FIGURES_DECODED)
    assert all(ok for _, ok in figures), [src for src, ok in figures if not ok]
    assert page.evaluate(STYLED), "the page's styles are not applied"
    if explorer:
        start_explorer(page.locator("[data-rl-explorer]").first)
    panels_open(page, explorer)


def panels_open(page, explorer: bool) -> None:
    """A number's derivation opens, on the page and in its first explorer."""
    panel_opens(page.locator("button.rl-why:not([data-rl-explorer] *)").first)
    if explorer:
        root = start_explorer(page.locator("[data-rl-explorer]").first)
        panel_opens(root.locator("button.rl-why[data-why]").first)


def panel_opens(button) -> None:
    """The number's panel shows its derivation (its records kept with the page), and closes."""
    button.scroll_into_view_if_needed()
    button.click()
    button.page.wait_for_selector("#rl-why-panel .rl-why-result", timeout=WAIT_MS)
    button.page.keyboard.press("Escape")


def search_answers(page) -> list[str]:
    page.wait_for_function("""() => { const s = document.querySelector("#search-results .search-summary");
      return s !== null && s.innerText.trim().length > 0; }""", timeout=WAIT_MS)
    return page.evaluate("""() => [...document.querySelectorAll("#search-results ul.search > li a")].map((a) => a.href)""")


def test_visited_pages_open_offline_and_a_new_build_swaps_whole(site):
    root = site[0]
    reader = Reader(site)
    chapters = [label_page("ch-roofline"), label_page("ch-tiling"), label_page("ch-week3")]
    explorers = {d: "data-rl-explorer" in (root / page_file(d)).read_text(encoding="utf-8") for d in chapters}
    assert any(explorers.values())
    for docname in chapters:
        page = reader.open(docname)
        reader.kept(docname)
        # a number's panel opened once (its records are fetched then, and kept): it opens offline too
        panels_open(page, explorers[docname])
    assert page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).scope") == reader.base
    # installable, by Chromium's own checks (the manifest parsed without errors; icons, worker, scope)
    cdp = reader.context.new_cdp_session(page)
    assert cdp.send("Page.getAppManifest")["errors"] == []
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    cdp.detach()
    page = reader.open("search", "?q=타일")
    online = search_answers(page)
    assert online
    reader.kept("search")
    # offline: each reloaded, from the worker alone
    reader.context.set_offline(True)
    served = len(site[1].served)
    for docname in chapters:
        page = reader.open(docname)
        chapter_works(page, explorers[docname])
    page = reader.open("search", "?q=타일")
    assert search_answers(page) == online
    never = label_page("ch-flash")
    response = page.goto(reader.base + page_file(never))
    text = page.locator("body").inner_text()
    assert "받아 두지 않았다" in text and HANGUL.search(text) and response.status == 503, text
    assert page.locator("main a").count() >= len(chapters), "the notice lists the kept pages"
    assert pages_served(site[1], served) == [], "offline pages came from the server"
    reader.context.set_offline(False)

    # a new build: ②'s page, its explorer's state file and the never-opened chapter change; the worker is written
    # again by the build's own step
    old_caches = page.evaluate(CACHES)
    assert len(old_caches) == 1
    roofline, flash = root / page_file(chapters[0]), root / page_file(never)
    states = sorted((root / "_static" / "states").glob("w4_2_roofline-roofline.*.json"))[0]
    state_url = reader.base + states.relative_to(root).as_posix()
    old_state = states.read_text(encoding="utf-8")
    for changed in (roofline, flash):
        text = changed.read_text(encoding="utf-8")
        changed.write_text(text.replace("</article>", '<p id="rl-edition">새 판</p></article>', 1), encoding="utf-8")
    states.write_text(old_state.replace("{", '{"edition":"new",', 1), encoding="utf-8")
    landing = json.loads((root / site_offline.MANIFEST).read_text(encoding="utf-8"))["start_url"]
    digest = site_offline.write_worker(root, landing, "", landing)
    assert f"rl-{digest}" not in old_caches
    page = reader.open(chapters[0])
    page.locator(".rl-update").wait_for(state="visible", timeout=WAIT_MS)
    # until the reader presses: the old build's page and state file, both
    assert page.locator("#rl-edition").count() == 0
    assert page.evaluate(FETCH_TEXT, state_url) == old_state
    # a page the old build never kept: the server has only the new build's, so the old worker says so
    page.goto(reader.base + page_file(never))
    assert "새 판이 있다" in page.locator("h1").inner_text() and page.locator("#rl-edition").count() == 0
    with page.expect_navigation(timeout=WAIT_MS):
        page.get_by_role("button", name="다시 불러오기").click()
    page.locator("#rl-edition").wait_for()
    assert page.evaluate(CACHES) == [f"rl-{digest}"], "the old build's cache is still there"
    page = reader.open(chapters[0])
    assert page.locator("#rl-edition").count() == 1
    assert page.evaluate(FETCH_TEXT, state_url) == states.read_text(encoding="utf-8")

    # "오프라인으로 모두 받아 두기", by keyboard; then offline: every page opens, in the new build's bytes
    page = reader.open(label_page("home"))
    control = page.locator(".rl-offline")
    control.wait_for(state="visible")
    assert "MiB" in control.inner_text()
    control.get_by_role("button", name="오프라인으로 모두 받아 두기").focus()
    page.keyboard.press("Enter")
    # the line is made by the control's script, which may still be on its way when the key is pressed
    expect(control.locator("[role=status]")).to_contain_text("받아 두었다", timeout=WAIT_MS)
    reader.context.set_offline(True)
    page = reader.open(never)
    chapter_works(page, False)
    assert page.locator("#rl-edition").count() == 1
    page = reader.open(chapters[0])
    assert page.locator("#rl-edition").count() == 1
    for docname in chapters[1:]:
        chapter_works(reader.open(docname), explorers[docname])
    page.goto(reader.base)            # the site's address: its root page sends the reader to the landing page
    page.wait_for_url("**/" + page_file(label_page("home")))
    page.locator(".rl-offline").wait_for(state="visible")
    reader.context.set_offline(False)
    reader.close()


def press_live(page, uid: str) -> tuple[float, dict]:
    root = page.locator(f"#{uid}")
    root.scroll_into_view_if_needed()
    root.locator(".rl-live-button").wait_for()
    page.evaluate("(uid) => { window.__live = 0; document.getElementById(uid).addEventListener('rl-live', "
                  "() => { window.__live += 1; }); }", uid)
    started = time.perf_counter()
    root.locator(".rl-live-button").click()
    page.wait_for_function("() => window.__live > 0", timeout=WAIT_MS)
    ms = (time.perf_counter() - started) * 1000
    fields = root.evaluate("""(root) => Object.fromEntries([...root.querySelectorAll("span[data-rl-field]")]
      .map((el) => [el.dataset.rlField, el.textContent.replace(/\\u00a0/g, " ").replace(/\\s+/g, " ").trim()]))""")
    return ms, fields


def form_values(page, uid: str) -> dict:
    return page.locator(f"#{uid}").evaluate("""(root) => Object.fromEntries([...root.querySelectorAll("[data-rl-live]")]
      .map((el) => [el.dataset.rlLive, el.value]))""")


def shown(page: str, values: dict) -> dict:
    out = json.loads(engine.live(page, json.dumps(values)))
    return {k: " ".join(str(v).replace("\u00a0", " ").split()) for k, v in out["state"].get("fields", {}).items()}


# what the page itself loaded: the document, its resources, and its icon (the browser's own fetch, not timed)
LOADED = """() => [location.pathname, ...performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname),
  ...[...document.querySelectorAll('link[rel~="icon"]')].map((l) => new URL(l.href).pathname)]"""


def test_a_first_visit_fetches_the_page_the_worker_and_nothing_ahead_but_the_explorer_s_files(site):
    """What the offline work adds to a first visit is the worker and offline.js: not the manifest, the icons,
    offline-ui.js (until the landing control is used), the site root, fonts the page did not use. The one thing
    fetched ahead is what an explorer loads when it starts (its states, uPlot), so that it starts offline: not its
    predict parts, nor the predict mode's or the variants' scripts (kept when the reader asks for them)."""
    server = site[1]
    later = tuple("/" + name for name in site_offline.EXPLORER_LATER) + ("/_static/states/",)
    for docname in (label_page("home"), label_page("ch-roofline")):
        reader = Reader(site)
        served = len(server.served)
        page = reader.open(docname)
        reader.kept(docname)
        loaded = set(page.evaluate(LOADED))
        extra = {path for path in server.served[served:] if path not in loaded
                 and not path.endswith(("/" + site_offline.WORKER, "/_static/offline.js"))
                 and not (any(part in path for part in later) and ".predict." not in path)}
        assert extra == set(), f"{docname}: fetched on a first visit besides the page and the worker: {sorted(extra)}"
        reader.close()


# The page left idle long enough for every idle-time job it schedules to have run: the live mode's `prepare` is asked
# for with requestIdleCallback(…, {timeout: 3000}) (_static/live.js) and the worker's registration with {timeout: 2000}
# (_static/offline.js), both scheduled by the time the live button exists. An idle callback asked for after them with a
# longer timeout runs after them, idle or not (in the headless shell no idle period comes: each runs at its
# timeout); the 500 ms after it let a fetch the idle work started reach the server. No longer than that: a longer wait
# shows nothing more.
IDLE = "() => new Promise((ok) => requestIdleCallback(() => setTimeout(ok, 500), {timeout: 3500}))"
LIVE_MARKS = "() => performance.getEntriesByType('mark').map((m) => m.name).filter((n) => n.startsWith('rl-live:'))"


def test_live_mode_kept_after_its_first_run(site):
    server = site[1]
    reader = Reader(site)
    page = reader.open(label_page("ch-roofline"))
    # a reader who has not run it: pointing at the button, focusing it, the page idle — nothing is fetched
    served = len(server.served)
    page.locator("#rl-roofline").scroll_into_view_if_needed()
    button = page.locator("#rl-roofline .rl-live-button")
    button.wait_for()
    button.hover()
    button.focus()
    page.evaluate(IDLE)
    assert not [p for p in pages_served(server, served) if "/_static/live/" in p]
    assert page.evaluate(LIVE_MARKS) == []
    MEASURED["live_cold_ms"], fields = press_live(page, "rl-roofline")
    want = shown("roofline", form_values(page, "rl-roofline"))
    assert {k: fields[k] for k in want if k in fields} == {k: v for k, v in want.items() if k in fields}
    # another page, opened once (so it is kept), then offline: the live mode from the worker's cache alone
    reader.open(label_page("ch-matmul"))
    reader.kept(label_page("ch-matmul"))
    reader.context.set_offline(True)
    page = reader.open(label_page("ch-matmul"))
    served = len(server.served)
    # a returning reader: Python starts before the press, from this device's files (the page's own modules too)
    page.locator("#rl-matmul").scroll_into_view_if_needed()
    page.wait_for_function("() => performance.getEntriesByName('rl-live:engine').length > 0", timeout=WAIT_MS)
    MEASURED["live_warm_ms"], fields = press_live(page, "rl-matmul")
    assert pages_served(server, served) == [], "the second run fetched from the server"
    want = shown("matmul", form_values(page, "rl-matmul"))
    assert want and {k: fields[k] for k in want if k in fields} == {k: v for k, v in want.items() if k in fields}
    MEASURED["live_warm_over_cold"] = round(MEASURED["live_warm_ms"] / MEASURED["live_cold_ms"], 2)
    reader.context.set_offline(False)
    reader.close()


def test_manifest_is_installable():
    from PIL import Image

    root = html_dir()
    manifest = json.loads((root / site_offline.MANIFEST).read_text(encoding="utf-8"))
    assert manifest["name"] and HANGUL.search(manifest["short_name"]) and len(manifest["short_name"]) <= 12
    assert manifest["display"] == "standalone" and (root / manifest["start_url"]).is_file()
    sizes = set()
    for icon in manifest["icons"]:
        with Image.open(root / icon["src"]) as image:
            assert f"{image.width}x{image.height}" == icon["sizes"] and image.format == "PNG"
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes and any(i["purpose"] == "maskable" for i in manifest["icons"])
    for page in [root / page_file(label_page("home")), root / "search.html"]:
        head = page.read_text(encoding="utf-8").split("</head>")[0]
        assert 'rel="manifest"' in head
        assert 'name="theme-color" media="(prefers-color-scheme: light)"' in head
        assert 'name="theme-color" media="(prefers-color-scheme: dark)"' in head
