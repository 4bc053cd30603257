"""The built site in a real browser (headless Chromium via Playwright), every page of _toc.yml.

The site is read from $ROOFLINE_HTML (default _build/html) and served on 127.0.0.1; the browser may
reach nothing else (every other request is aborted and reported), so the site must work offline
(formulas are MathML written at build time, drawn with a math font the site ships).

Each page is opened once per mode (light desktop, dark desktop, 390 px phone) by the session's `visits`
(tests/browser_helpers.py); `make screenshots` also saves each of the three to <build>/screenshots/. The per-page tests below check
what was recorded; the link crawl reads the HTML files directly. The page tests and the accessibility tests are
one module, and the tests of one page are the methods of that page's class (`TestPage_<docname>`), which xdist's
`--dist loadscope` sends to one worker, so each page is opened once per mode in the whole run.

Accessibility (the section at the end): axe-core (the copy bundled by axe-playwright-python)
on every page of _toc.yml with every folded answer opened and every explorer started: all rules in light mode
on a desktop window, the colour rules again in dark mode, the scrolling-box rule at a phone's width; and a keyboard
reader scrolling every table wider than its box (desktop and phone). The colours of code and formulas (many nodes, few
colours on plain backgrounds) are read from their styles and their contrast computed here, with axe's thresholds;
axe's colour rule judges every other text: one of each distinct case of colours, size and backgrounds
(browser_helpers.CASES).
No serious or critical violation may appear. A moderate or minor one must be fixed or listed in
ACCEPTED below with its reason; a listed rule that no page breaks any more is an error too, so the list
stays true.
"""
from __future__ import annotations

import functools
import re
from collections import deque
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
import yaml

from browser_helpers import (
    HANGUL,
    MODES,
    PHONE,
    ROOT,
    SCREENSHOTS,
    html_dir,
    page_file,
    screenshot_dir,
    shot_name,
    toc_pages,
)

pytestmark = pytest.mark.heavy(25)   # rough seconds, for the order of the run (tests/conftest.py)

PAGES = toc_pages()
MAX_PAGE_BYTES = 1_500_000          # everything a first visit loads: HTML, CSS, scripts, fonts, images
MIN_FIGURE_CONTRAST = 3.0           # WCAG contrast for graphics, between a figure's light and dark pixels


class Site:
    """site[docname]: the page's three visits as the tests below read them."""

    def __init__(self, visits):
        self.visits = visits

    def __getitem__(self, docname):
        return PageView(*(self.visits[docname, mode] for mode in MODES))


class PageView:
    def __init__(self, light, dark, phone):
        self.url, self.light, self.phone = light.url, light.collected, phone.sideways
        self.visits = (light, dark, phone)
        self.dark_theme, self.figure_contrast = dark.theme, dark.figure_contrast
        self.first_visit = light.first_visit
        self.console_errors = [f"{v.mode}: {e}" for v in self.visits for e in v.console_errors]
        self.failed_requests = sorted({e for v in self.visits for e in v.failed_requests})
        self.external_requests = sorted({e for v in self.visits for e in v.external_requests})
        self.unstarted = sorted({f"{v.mode}: {uid}" for v in self.visits for uid in v.unstarted})


@pytest.fixture(scope="session")
def site(visits):
    return Site(visits)


# A page's tests are the methods of its own class (`TestPage_<docname>`, made at the end of the module for every page
# of _toc.yml): xdist's `--dist loadscope` (the Makefile's) sends a class to one worker, so each page's three visits
# are made once in the whole run, and the pages spread over the workers.
PAGE_TESTS: list = []       # (test, which pages) in the order written


def per_page(which=None):
    """The test runs for every page (its `docname`) that `which(docname)` accepts (every page without it)."""
    def gather(test):
        PAGE_TESTS.append((test, which))
    return gather


def test_every_toc_page_is_tested():
    """_toc.yml is read (not a fixed list): the root, the appendix pages and every chapter are here."""
    assert PAGES[0] == yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))["root"]
    assert "chapters/glossary" in PAGES and "chapters/bibliography" in PAGES
    assert len(PAGES) == len(set(PAGES))
    for docname in PAGES:
        assert (ROOT / f"{docname}.md").is_file() or (ROOT / f"{docname}.ipynb").is_file(), docname


@per_page()
def test_loads_cleanly_and_offline(site, docname):
    r = site[docname]
    assert r.failed_requests == [], f"{docname}: failed requests for local resources"
    assert r.console_errors == [], f"{docname}: console errors"
    assert r.external_requests == [], f"{docname}: the page reaches outside the site (it must work offline)"
    assert r.unstarted == [], f"{docname}: explorers that did not start when scrolled to"


@per_page()
def test_images_loaded_with_korean_alt(site, docname):
    images = site[docname].light["images"]
    broken = [i["src"] for i in images if not i["complete"] or i["naturalWidth"] == 0]
    assert broken == [], f"{docname}: images not loaded"
    no_korean = [(i["src"], i["alt"]) for i in images if not i["alt"] or not HANGUL.search(i["alt"])]
    assert no_korean == [], f"{docname}: images without Korean alt text"


@per_page()
def test_math_rendered_no_raw_markup(site, docname):
    light = site[docname].light
    text = light["visibleText"]
    for raw in ("$$", "\\frac", "\\text", "{glue", "{term}", "{ref}", "{math}", "{cite}", "<Figure size", "```"):
        assert raw not in text, f"{docname}: raw {raw!r} visible: …{text[max(0, text.find(raw) - 60):text.find(raw) + 60]}…"
    assert light["mathErrors"] == [], f"{docname}: formulas that did not convert"
    assert light["mathRendered"] == light["mathSource"], \
        f"{docname}: {light['mathSource']} formulas but only {light['mathRendered']} drawn as MathML"
    assert light["flatFractions"] == [], f"{docname}: fractions not laid out as math"
    if light["mathSource"]:
        assert "Roofline STIX Two Math" in light["mathFonts"], f"{docname}: the math font did not load"


def test_some_pages_have_math():
    """The math checks above check something: the course's formulas (I = F/Q and the rest) are on its pages
    (counted in the built HTML, so that this test opens no page: each page's visits stay in one worker)."""
    boxes = sum(len(re.findall(r'class="[^"]*\bmath\b', (html_dir() / page_file(d)).read_text(encoding="utf-8")))
                for d in PAGES)
    assert boxes >= len(PAGES)


@per_page()
def test_no_stderr_warning_or_traceback(site, docname):
    light = site[docname].light
    assert light["stderr"] == [], f"{docname}: cells show stderr/tracebacks"
    bad = re.findall(r".{0,60}(?:Traceback|\w*Warning:|\w*Error:|Glyph \d+ .*missing|<Figure size).{0,60}",
                     light["outputText"])
    assert bad == [], f"{docname}: cell output shows a warning or an error"


@per_page()
def test_external_links_https_wellformed(site, docname):
    bad = []
    base = site[docname].url[: -len(page_file(docname))]
    for link in site[docname].light["links"]:
        href = link["href"]
        if href.startswith(base):
            continue                                       # internal: see test_internal_links_resolve
        parts = urlparse(href)
        if (parts.scheme != "https" or "." not in parts.netloc or re.search(r"\s", link["raw"])
                or parts.netloc.endswith(".") or link["raw"] != link["raw"].strip()):
            bad.append(link["raw"])
    assert bad == [], f"{docname}: external links must be well-formed https URLs"


def _repository():
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    repo = config["repository"]
    org_repo = urlparse(repo["url"]).path.strip("/").removesuffix(".git")
    return org_repo, repo.get("branch", "main"), (repo.get("path_to_book") or "").strip("/")


def _is_notebook(docname: str) -> bool:
    source = ROOT / f"{docname}.md"
    return source.is_file() and re.search(r"^kernelspec:", source.read_text(encoding="utf-8")[:2000], re.M) is not None


@per_page(_is_notebook)
def test_colab_button(site, docname):
    org_repo, branch, book = _repository()
    links = {l["href"] for l in site[docname].light["links"] if "colab.research.google.com" in l["href"]}
    assert len(links) == 1, f"{docname}: expected one Colab launch link, found {sorted(links)}"
    url = links.pop()
    path = "/".join(p for p in (book, f"{docname}.ipynb") if p)
    expected = f"https://colab.research.google.com/github/{org_repo}/blob/{branch}/{path}"
    assert re.fullmatch(r"https://colab\.research\.google\.com/github/[\w.-]+/[\w.-]+/blob/[\w./-]+/chapters/[\w.-]+\.ipynb",
                        url), url
    assert url == expected, f"{docname}: Colab opens {url}, expected {expected}"
    notebook = ROOT / f"{docname}.ipynb"
    assert notebook.is_file(), f"{docname}: {notebook.relative_to(ROOT)} (what Colab opens) is missing"
    # (built by `make book`, never committed: the publishing workflow pushes it to `branch`, where Colab opens it;
    # tests/tooling/test_editions.py checks that the workflow writes that branch)


@per_page()
def test_phone_width_no_sideways_scroll(site, docname):
    phone = site[docname].phone
    assert phone["scrolled"] == 0 and phone["scrollWidth"] <= phone["width"], \
        f"{docname}: at {PHONE['width']} px the page scrolls sideways ({phone}); wide elements: {phone['culprits']}"


@per_page()
def test_dark_mode_figures_legible(site, docname):
    r = site[docname]
    assert r.dark_theme == "dark", f"{docname}: dark mode did not switch on ({r.dark_theme!r})"
    faint = [(src, round(c, 2)) for src, c in r.figure_contrast if c < MIN_FIGURE_CONTRAST]
    assert faint == [], f"{docname}: figures with low contrast in dark mode"


@per_page()
def test_page_weight(site, docname):
    """A reader's first visit (cold cache, every image loaded) moves at most MAX_PAGE_BYTES, counted in the
    browser over all responses; neither the theme's full icon script and fonts nor a math script are among them."""
    first = site[docname].first_visit
    assert any(url == site[docname].url for url, _ in first), f"{docname}: the page itself was not recorded"
    total = sum(size for _, size in first)
    heavy = sorted(first, key=lambda r: -r[1])[:5]
    assert total <= MAX_PAGE_BYTES, \
        f"{docname}: a first visit moves {total:,} bytes in {len(first)} requests > {MAX_PAGE_BYTES:,}; largest {heavy}"
    unwanted = [url for url, _ in first if re.search(r"fontawesome\.js|/vendor/fontawesome/|mathjax", url, re.I)]
    assert unwanted == [], f"{docname}: loads {unwanted}"


@per_page()
def test_icons_in_shipped_fonts(site, docname):
    """Every Font Awesome icon the page draws (its CSS ::before, also hidden ones) is a glyph of the cut-down font
    the site ships for that family and weight, so no icon shows as an empty box."""
    fonts = _icon_fonts()
    icons = site[docname].light["icons"]
    assert icons, f"{docname}: no icons found (the sidebar's and the header's buttons have some)"
    missing = sorted({(i["cls"][:40], hex(ord(i["char"])), i["weight"]) for i in icons
                      if ord(i["char"]) not in fonts.get((_family(i["family"]), str(i["weight"])), set())})
    assert missing == [], f"{docname}: icons whose glyph the shipped font lacks"


def _family(css_family: str) -> str:
    return next(f.strip().strip('"') for f in css_family.split(",") if "Font Awesome" in f)


@functools.lru_cache(maxsize=None)
def _icon_fonts() -> dict:
    """{(family, weight): codepoints} of the icon fonts named by the site's icons.css."""
    from fontTools.ttLib import TTFont

    folder = html_dir() / "_static" / "icons"
    css = (folder / "icons.css").read_text(encoding="utf-8")
    fonts = {}
    for family, weight, url in re.findall(
            r'font-family:\s*"([^"]+)";[^}]*font-weight:\s*(\d+);[^}]*url\("([^"]+)"\)', css):
        fonts[family, weight] = set(TTFont(folder / url).getBestCmap())
    assert fonts, "icons.css names no fonts"
    return fonts


@per_page()
def test_reader_comforts(site, docname):
    light = site[docname].light
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert light["lang"] == "ko"
    assert light["h1"].strip(" #¶") and light["h1"].strip(" #¶") in light["title"], (light["h1"], light["title"])
    assert HANGUL.search(light["description"]) and len(light["description"]) >= 10, \
        f"{docname}: meta description {light['description']!r}"
    assert light["favicon"].endswith("favicon.svg")
    assert config["author"] in light["footer"] and str(config["copyright"]) in light["footer"], light["footer"]
    assert not re.search(r"으로\s*" + re.escape(config["author"]), light["footer"]), \
        f"{docname}: the theme's 'By' reads '으로 …': {light['footer']!r}"


@per_page()
def test_previous_next_follow_course_order(site, docname):
    """The page's 'previous'/'next' buttons link to its neighbours in _toc.yml."""
    i = PAGES.index(docname)
    light, base = site[docname].light, site[docname].url[: -len(page_file(docname))]
    prev = base + page_file(PAGES[i - 1]) if i > 0 else None
    nxt = base + page_file(PAGES[i + 1]) if i + 1 < len(PAGES) else None
    assert light["prev"] == prev, f"{docname}: previous is {light['prev']}, expected {prev}"
    assert light["next"] == nxt, f"{docname}: next is {light['next']}, expected {nxt}"


@per_page()
@pytest.mark.skipif(not SCREENSHOTS, reason="screenshots are taken by `make screenshots`")
def test_screenshots_saved(site, docname):
    site[docname]
    for kind in MODES:
        assert (screenshot_dir() / shot_name(docname, kind)).stat().st_size > 1000, (docname, kind)


def test_internal_links_resolve():
    """Crawl from every _toc.yml page: every relative link points to an existing file and anchor."""
    from bs4 import BeautifulSoup

    root = html_dir()
    ids: dict[Path, set[str]] = {}

    def anchors(path: Path) -> set[str]:
        if path not in ids:
            soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
            ids[path] = {t.get("id") for t in soup.find_all(id=True)} | {t.get("name") for t in soup.find_all("a", attrs={"name": True})}
            ids[path].add("")
            links[path] = [a.get("href") for a in soup.find_all("a", href=True)]
        return ids[path]

    links: dict[Path, list[str]] = {}
    queue = deque(root / page_file(d) for d in PAGES)
    seen, broken = set(queue), []
    while queue:
        page = queue.popleft()
        if not page.is_file():
            broken.append(f"{page.relative_to(root)} (not built)")
            continue
        anchors(page)
        for href in links[page]:
            parts = urlparse(href)
            if parts.scheme or parts.netloc or href.startswith("mailto:"):
                continue                                   # external: see test_external_links_https_wellformed
            target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file() or root not in target.parents:
                broken.append(f"{page.relative_to(root)} → {href}")
                continue
            if target.suffix == ".html":
                if unquote(parts.fragment) not in anchors(target):
                    broken.append(f"{page.relative_to(root)} → {href} (no such anchor)")
                if target not in seen:
                    seen.add(target)
                    queue.append(target)
    assert broken == [], "broken internal links:\n" + "\n".join(broken)
    assert len(seen) >= len(PAGES)


# ---- accessibility: axe-core and the keyboard, read from the same visits ----------------------------------------

KEYBOARD_MODES = tuple(mode for mode, m in MODES.items() if m.keyboard)   # the table widths differ by window
BLOCKING = {"serious", "critical"}
# rule id -> why it stays (moderate/minor only); empty while every such rule is fixed
ACCEPTED: dict[str, str] = {}


@per_page()
@pytest.mark.parametrize("mode", MODES)
def test_no_serious_or_critical_violation(visits, docname, mode):
    audit = visits[docname, mode]
    assert audit.theme == MODES[mode].theme, f"{docname}: the page shows theme {audit.theme!r}, not {MODES[mode].theme!r}"
    bad = [v for v in audit.violations if v[1] in BLOCKING]
    assert bad == [], f"{docname} ({mode}): axe-core finds " + "; ".join(
        f"{rule} ({impact}): {text} at {targets}" for rule, impact, text, targets in bad)


COLOUR_MODES = tuple(mode for mode, m in MODES.items() if m.checks_colour)


def _rgba(css: str) -> tuple[float, float, float, float]:
    found = re.fullmatch(r"rgba?\(([\d.]+), ([\d.]+), ([\d.]+)(?:, ([\d.]+))?\)", css)
    assert found, f"a colour not in rgb()/rgba(): {css!r}"
    r, g, b, a = found.groups()
    return float(r), float(g), float(b), float(a) if a is not None else 1.0


def _over(top, below):
    """`top` (r, g, b, alpha) painted over an opaque `below` (r, g, b)."""
    return tuple(top[3] * t + (1 - top[3]) * b for t, b in zip(top[:3], below))


def _luminance(rgb) -> float:
    def lin(v):
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = map(lin, rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def colour_contrast(colour: dict) -> float:
    """WCAG contrast of one COLOURS entry: its background layers painted over the (white) canvas from the outermost
    in, the text colour over them."""
    background = (255.0, 255.0, 255.0)
    for layer in reversed(colour["layers"]):
        background = _over(_rgba(layer), background)
    text = _over(_rgba(colour["color"]), background)
    hi, lo = sorted((_luminance(text), _luminance(background)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@per_page()
@pytest.mark.parametrize("mode", COLOUR_MODES)
def test_code_and_formula_colours_contrast(visits, docname, mode):
    """The texts that axe's colour rule leaves out (code and formulas, browser_helpers.CODE_AND_FORMULAS) meet
    its thresholds too: 4.5 : 1, or 3 : 1 for large text."""
    colours = visits[docname, mode].colours
    unknown = [(c["unknown"], c["example"]) for c in colours if c["unknown"]]
    assert unknown == [], f"{docname} ({mode}): the colour behind these texts cannot be read from styles"
    faint = [(c["example"], c["color"], c["layers"], round(colour_contrast(c), 2)) for c in colours
             if colour_contrast(c) < (3.0 if c["large"] else 4.5)]
    assert faint == [], f"{docname} ({mode}): text colours below the contrast threshold"


@functools.lru_cache(maxsize=None)
def most_code_and_formulas_page() -> str:
    """The page whose built HTML has the most code blocks and formulas."""
    def count(docname):
        return len(re.findall(r'class="highlight|<math\b', (html_dir() / page_file(docname)).read_text(encoding="utf-8")))
    return max(PAGES, key=count)


@per_page(lambda docname: docname == most_code_and_formulas_page())
def test_the_colour_check_checks_something(visits, docname):
    """The colour check checks something: the page with the most code and formulas has several distinct colour pairs
    in every mode that checks colours; and the contrast is WCAG's (black on white 21 : 1, #767676 on white 4.54 : 1,
    as axe reports it; translucent layers are painted over what is behind them)."""
    for mode in COLOUR_MODES:
        assert len(visits[docname, mode].colours) >= 5, (docname, mode, visits[docname, mode].colours)
        texts, cases = visits[docname, mode].contrast_cases   # and axe judged several cases of the prose's texts
        assert texts > cases >= 10, (docname, mode, texts, cases)
    assert round(colour_contrast({"color": "rgb(0, 0, 0)", "layers": []}), 2) == 21.0
    assert round(colour_contrast({"color": "rgb(118, 118, 118)", "layers": ["rgb(255, 255, 255)"]}), 2) == 4.54
    assert round(colour_contrast({"color": "rgba(0, 0, 0, 0.5)", "layers": ["rgba(255, 255, 255, 0.5)"]}), 2) == 3.98


@per_page()
def test_lesser_violations_fixed_or_listed(visits, docname):
    found = [f"{rule}: {docname} ({mode}, {impact}): {text} at {targets}" for mode in MODES
             for rule, impact, text, targets in visits[docname, mode].violations
             if impact not in BLOCKING and rule not in ACCEPTED]
    assert found == [], "fix these or list them in ACCEPTED with the reason:\n" + "\n".join(found[:5])


def test_accepted_rules_still_apply(visits):
    """A rule listed in ACCEPTED that no page breaks any more is taken off the list (it opens every page, in this
    test's worker: only while the list is not empty)."""
    found = {rule for rule in ACCEPTED for docname in PAGES for mode in MODES
             if any(v[0] == rule for v in visits[docname, mode].violations)}
    assert sorted(set(ACCEPTED) - found) == [], "listed in ACCEPTED but no page breaks them any more"


@per_page()
@pytest.mark.parametrize("mode", KEYBOARD_MODES)
def test_keyboard_scrolls_wide_tables(visits, docname, mode):
    """Every table wider than its box is a named region that Tab reaches and the arrow keys scroll."""
    wide = visits[docname, mode].wide_tables
    labels = [t["label"] for t in wide]
    assert all(t["tabIndex"] == 0 for t in wide), f"{docname}: a wide table takes no keyboard focus: {wide}"
    assert all(t["role"] == "region" and t["label"] and t["label"].startswith("표") for t in wide), wide
    assert len(set(labels)) == len(labels), f"{docname}: two tables share a name: {labels}"
    assert [t["label"] for t in wide if not t["reached"]] == [], f"{docname} ({mode}): Tab does not reach"
    assert [t["label"] for t in wide if not t["scrolled"]] == [], f"{docname} ({mode}): arrow keys do not scroll"


@functools.lru_cache(maxsize=None)
def widest_table_page() -> str:
    """The page whose built HTML has the table with the most header cells in a row (the likeliest to be wider than a
    phone's screen)."""
    def columns(docname):
        text = (html_dir() / page_file(docname)).read_text(encoding="utf-8")
        return max((len(re.findall(r"<th\b", row)) for row in re.findall(r"<tr\b.*?</tr>", text, re.S)), default=0)
    return max(PAGES, key=columns)


@per_page(lambda docname: docname == widest_table_page())
def test_keyboard_check_has_tables(visits, docname):
    """The keyboard check checks something: at a phone's width the page with the widest table has a table wider
    than its box."""
    assert visits[docname, "phone"].wide_tables, f"{docname}: no table wider than its box at a phone's width"


def _page_class(docname: str) -> type:
    def page(self):
        return docname

    tests = {test.__name__: staticmethod(test) for test, which in PAGE_TESTS if which is None or which(docname)}
    return type("TestPage_" + re.sub(r"\W", "_", docname), (), {"docname": pytest.fixture(page), **tests})


for _class in map(_page_class, PAGES):
    globals()[_class.__name__] = _class
