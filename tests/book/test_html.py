"""The built pages as HTML: valid (the W3C Nu HTML Checker), loading nothing they do not use, shipping nothing
no page uses (tools/coursebook/assets.py). Speed itself is a `make bench` figure (tools/bench/lighthouse.py),
not an assertion here.

The Nu checker is npm's vnu-jar, pinned (VNU_VERSION), installed on first use into _build/tools/vnu; it runs
on Java (Debian's default-jre-headless, installed by `make system-deps`).
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from browser_helpers import ROOT, html_dir
from coursebook import assets

VNU_VERSION = "26.9.27"
VNU_DIR = ROOT / "_build" / "tools" / "vnu"
MAX_BLOCKING = 150 * 1024     # bytes of stylesheets and non-deferred scripts in a page's <head>
SEARCH_STACK = ("_static/searchtools.js", "_static/language_data.js", "searchindex.js")

_TAG = re.compile(r"<(link|script)\b([^>]*)>")


def pages() -> list[Path]:
    return sorted(p for p in html_dir().rglob("*.html") if "_static" not in p.parts)


def rel(page: Path) -> str:
    return page.relative_to(html_dir()).as_posix()


def head_assets(page: Path) -> list[dict]:
    """The stylesheets and scripts a page's <head> names: url (site-relative, no query), kind, blocking."""
    text = page.read_text(encoding="utf-8")
    head = text.split("</head>")[0]
    found = []
    for kind, attrs in _TAG.findall(head):
        if kind == "link" and 'rel="stylesheet"' not in attrs:
            continue
        url = re.search(r'(?:href|src)="([^"]+)"', attrs)
        if not url:
            continue
        url_text = url.group(1)
        target = (page.parent / url.group(1).split("?")[0]).resolve()
        # a module script is deferred as `defer` is (it runs after the document is parsed)
        blocking = kind == "link" or not re.search(r'\b(defer|async)\b|type="module"', attrs)
        url = target.relative_to(html_dir().resolve()).as_posix()
        found.append({"url": url, "kind": kind, "blocking": blocking, "path": target, "src": url_text,
                      "module": 'type="module"' in attrs,
                      "parts": assets.bundled_sources(target) if url.startswith(assets.BUNDLES_DIR + "/") else []})
    return found


def body_of(page: Path) -> str:
    text = page.read_text(encoding="utf-8")
    return text.split("<body", 1)[1] if "<body" in text else ""


# ---- validity ------------------------------------------------------------------------------------------

def vnu_jar() -> Path:
    jar = VNU_DIR / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
    version = VNU_DIR / "node_modules" / "vnu-jar" / "package.json"
    if jar.is_file() and json.loads(version.read_text())["version"] == VNU_VERSION:
        return jar
    npm = shutil.which("npm")
    assert npm, "npm is needed to install the Nu HTML Checker (vnu-jar)"
    VNU_DIR.mkdir(parents=True, exist_ok=True)
    subprocess.run([npm, "install", "--prefix", str(VNU_DIR), "--ignore-scripts", "--no-audit", "--no-fund",
                    "--save-exact", f"vnu-jar@{VNU_VERSION}"], check=True, capture_output=True, timeout=600)
    assert jar.is_file(), f"npm installed no {jar}"
    return jar


def test_nu_checker_finds_no_error_on_any_page():
    java = shutil.which("java")
    assert java, "java is needed for the Nu HTML Checker: make system-deps installs default-jre-headless"
    files = [str(p) for p in pages()]
    # the checker's one short run: the JIT's top tier costs more CPU than it saves (C1 alone: about 4 CPU-s instead of
    # 10 for the site), and C1's frames need a larger stack for the schema's recursion; the messages are the same
    run = subprocess.run([java, "-Xss16m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", str(vnu_jar()),
                          "--errors-only", "--format", "json", *files],
                         capture_output=True, text=True, timeout=600)
    messages = json.loads(run.stderr or "{}").get("messages", []) if run.stderr.strip().startswith("{") else []
    assert run.returncode == 0 or messages, run.stderr[-2000:]
    errors = [f"{m.get('url', '').split('/html/')[-1]}:{m.get('lastLine')}: {m.get('message')}"
              for m in messages if m.get("type") == "error"]
    assert errors == [], "\n".join(errors[:30])
    assert len(files) >= 12


def test_root_page_is_a_page_that_leads_to_the_first_page():
    text = (html_dir() / "index.html").read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    assert '<html lang="ko">' in text and re.search(r"<title>[^<]+</title>", text)
    assert 'rel="icon"' in text and 'http-equiv="refresh"' in text
    target = re.search(r'<a href="([^"]+)"', text).group(1)
    assert (html_dir() / target).is_file()


def test_folded_cells_are_named_by_their_korean_prompt():
    """MyST-NB's folded cells: no <p> in <summary> and no English label over the Korean prompt."""
    folded = 0
    for page in pages():
        for summary in re.findall(r"<summary\b[^>]*>(.*?)</summary>", page.read_text(encoding="utf-8"), re.S):
            folded += 1
            assert "<p" not in summary and "Toggle hidden content" not in summary, (rel(page), summary)
        assert 'aria-label="Toggle hidden content"' not in page.read_text(encoding="utf-8"), rel(page)
    assert folded > 0


def test_logo_sized_with_a_korean_alt_naming_the_course():
    import yaml

    title = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["title"]
    for page in pages():
        for img in re.findall(r'<img\b[^>]*class="logo__image[^"]*"[^>]*>', page.read_text(encoding="utf-8")):
            assert re.search(r'\bwidth="\d+"', img) and re.search(r'\bheight="\d+"', img), (rel(page), img)
            alt = re.search(r'alt="([^"]*)"', img).group(1)
            assert title in alt and "Project name" not in alt and "Home" not in alt, (rel(page), alt)


# ---- what a page loads -----------------------------------------------------------------------------------

@pytest.mark.parametrize("page", [p for p in ["index.html", "search.html", "genindex.html"]] +
                         [f"chapters/{p.stem}.html" for p in sorted((ROOT / "chapters").glob("*.md"))])
def test_page_loads_only_what_it_uses(page):
    path = html_dir() / page
    if not path.is_file():
        pytest.skip(f"{page} is not built (not in the table of contents)")
    found = head_assets(path)
    body = body_of(path)
    urls = [a["url"] for a in found] + [part for a in found for part in a["parts"]]   # a bundle's files too
    missing = [a["url"] for a in found if not a["path"].is_file()]
    assert missing == [], f"{page}: names files that are not there"
    # documentation_options.js (400 bytes) defines the object the page's inline scripts fill in: it stays
    sync = [a["url"] for a in found if a["kind"] == "script" and a["blocking"]
            and not a["url"].endswith("documentation_options.js")]
    assert sync == [], f"{page}: scripts that hold up the first paint"
    chained = [a["url"] for a in found if a["kind"] == "link" and "@import" in a["path"].read_text(encoding="utf-8")]
    assert chained == [], f"{page}: stylesheets that @import another (a second round trip before the first paint)"
    blocking = sum(a["path"].stat().st_size for a in found if a["blocking"])
    assert blocking <= MAX_BLOCKING, f"{page}: {blocking:,} bytes of render-blocking CSS/JS in <head>"
    for name, marker in assets.PAGE_ASSETS.items():
        loaded = f"_static/{name}" in urls
        wanted = any(m in body for m in ((marker,) if isinstance(marker, str) else marker))
        assert loaded == wanted, \
            f"{page}: {'loads' if loaded else 'lacks'} {name} (page {'has' if wanted else 'has no'} {marker!r})"
    late = [u for u in urls if u.removeprefix("_static/") in assets.LOADED_BY_SCRIPT]
    assert late == [], f"{page}: names {late}, which a script loads when it is needed"
    manifest = "window.rlLive" in path.read_text(encoding="utf-8").split("</head>")[0]
    assert manifest == ('"live":{' in body), f"{page}: live mode's manifest {'without' if manifest else 'lacking'} a live form"
    stack = [u for u in urls if u in SEARCH_STACK]
    assert stack == (list(SEARCH_STACK) if page == "search.html" else []), f"{page}: search scripts {stack}"
    text = path.read_text(encoding="utf-8")
    for unused in ("thebe", "design-tabs", "sphinx-design", "fontawesome.js"):
        assert unused not in text, f"{page}: still names {unused}"


# the static and dynamic imports of each module given (paths on argv), by acorn's syntax tree
IMPORTS = r"""
const fs = require("fs"), {createRequire} = require("module");
const acorn = require(createRequire(process.argv[1] + "/package.json").resolve("acorn"));
const out = {};
for (const file of process.argv.slice(2)) {
  const found = {static: [], dynamic: []};
  const visit = (node) => {
    if (!node || typeof node.type !== "string") return;
    if (["ImportDeclaration", "ExportNamedDeclaration", "ExportAllDeclaration"].includes(node.type) && node.source)
      found.static.push(node.source.value);
    if (node.type === "ImportExpression" && node.source.type === "Literal") found.dynamic.push(node.source.value);
    for (const v of Object.values(node)) (Array.isArray(v) ? v : [v]).forEach((c) => c && typeof c === "object" && visit(c));
  };
  visit(acorn.parse(fs.readFileSync(file, "utf8"), {ecmaVersion: "latest", sourceType: "module"}));
  out[file] = found;
}
process.stdout.write(JSON.stringify(out));
"""


@pytest.mark.skipif(not shutil.which("node"), reason="node is not installed")
def test_a_page_names_every_module_its_scripts_import_as_they_import_it():
    """The course's own scripts are ES modules (`type="module"`). A page names, beside each, the modules it imports
    (no import waits for a round trip), by the same URL as the import (`?v=` and the digest of the file: one module
    instance); every import of another module, static or dynamic (predict.js, variants.js, why-panel.js), names that
    file's digest, so a page never runs one build's module with another's. The offline worker keeps a page with
    the modules it names."""
    import hashlib

    from coursebook import minify

    static = html_dir() / "_static"
    own = minify.own_scripts()
    done = subprocess.run(["node", "-e", IMPORTS, str(minify.js_tools()), *(str(static / n) for n in own)],
                          capture_output=True, text=True, check=True)
    imports = {Path(f).name: found for f, found in json.loads(done.stdout).items()}
    digest = {n: hashlib.sha256((static / n).read_bytes()).hexdigest()[:20] for n in own}
    for name, found in imports.items():
        for specifier in found["static"] + found["dynamic"]:
            target, _, version = specifier.removeprefix("./").partition("?v=")
            assert target in own and version == digest[target], (name, specifier)
    from coursebook import offline

    needs = offline.page_needs(html_dir(), offline.site_files(html_dir()))   # what the worker keeps with each page
    for path in pages():
        tags = [a for a in head_assets(path) if a["kind"] == "script" and a["url"].removeprefix("_static/") in own]
        assert all(a["module"] for a in tags), rel(path)
        assert {a["url"] for a in tags} <= set(needs[rel(path)]), f"{rel(path)}: modules the offline worker does not keep"
        named = {a["url"].removeprefix("_static/"): a["src"].partition("?v=")[2] for a in tags}
        for name in named:
            assert named[name] == digest[name], (rel(path), name)
            for specifier in imports[name]["static"]:
                target = specifier.removeprefix("./").partition("?")[0]
                assert target in named, f"{rel(path)}: {name} imports {target}, which the page does not name"


def test_site_ships_no_maps_unused_scripts_or_fonts():
    static = html_dir() / "_static"
    left = [p.relative_to(static).as_posix() for pattern in assets.UNSHIPPED for p in static.glob(pattern)]
    assert left == []
    for css in static.rglob("*.css"):
        for url in re.findall(r"url\(['\"]?([^'\")]+)", css.read_text(encoding="utf-8")):
            if not url.startswith(("data:", "http:", "https:", "#")):
                assert (css.parent / url.split("?")[0].split("#")[0]).is_file(), f"{css.name}: url({url}) missing"


def test_the_themes_scripts_are_shipped_as_the_theme_wrote_them():
    """No dependency's file is edited (issue 41): every script the theme ships is byte for byte the installed theme's
    (the build cuts its stylesheets to the rules in use, which is not an edit of its code, and leaves out files)."""
    import pydata_sphinx_theme
    import sphinx_book_theme

    shipped = 0
    for package in (pydata_sphinx_theme, sphinx_book_theme):
        theme = Path(package.__file__).parent
        for source in theme.rglob("static/scripts/*.js"):
            built = html_dir() / "_static" / "scripts" / source.name
            if built.is_file():
                assert built.read_bytes() == source.read_bytes(), f"_static/scripts/{source.name} differs from {source}"
                shipped += 1
    assert shipped >= 2


def test_theme_css_cut_to_what_the_pages_use():
    theme = html_dir() / "_static" / "styles" / "pydata-sphinx-theme.css"
    assert theme.stat().st_size < 150 * 1024
    css = theme.read_text(encoding="utf-8")
    for kept in (".bd-sidebar-primary", "html[data-theme=dark]", ".dropdown-menu.show", ".theme-switch-button"):
        assert kept in css, kept


def test_figures_sized_lazy_and_no_larger_than_shown():
    images = html_dir() / "_images"
    seen = 0
    for page in pages():
        for img in re.findall(r"<img\b[^>]*>", page.read_text(encoding="utf-8")):
            src = re.search(r'src="([^"]*_images/[^"]+)"', img)
            if not src:
                continue
            seen += 1
            assert re.search(r'\bwidth="\d+"', img) and re.search(r'\bheight="\d+"', img), (rel(page), img)
            assert 'loading="lazy"' in img, (rel(page), img)
            assert (page.parent / src.group(1)).is_file(), (rel(page), src.group(1))
            assert int(re.search(r'\bwidth="(\d+)"', img).group(1)) <= assets.MAX_FIGURE_WIDTH, (rel(page), img)
    assert seen > 0
    assert not [p for p in images.glob("*.png") if p.with_suffix(".webp").exists()]


def test_explorer_states_in_their_own_file():
    """Large precomputed states are not in the page: its data names their file, which holds one object per part
    (the states explorer.js picks from); small ones stay in the page."""
    seen = 0
    for page in pages():
        text = page.read_text(encoding="utf-8")
        for raw in re.findall(r'<script type="application/json" class="rl-data">(.*?)</script>', text, re.S):
            data = json.loads(raw.replace("<\\/", "</"))
            if "states" not in data:
                assert all("states" in part for part in data["parts"]), rel(page)
                continue
            seen += 1
            assert len(raw.encode()) < assets.INLINE_STATES, f"{rel(page)}: states left in the page"
            assert all("states" not in part for part in data["parts"]), rel(page)
            target = page.parent / data["states"]
            assert target.is_file() and target.resolve().parent == (html_dir() / assets.STATES_DIR).resolve(), data["states"]
            states = json.loads(target.read_text(encoding="utf-8"))
            assert len(states) == len(data["parts"]) and all(len(s) > 0 for s in states), data["states"]
        for merged in assets.explorer_data(text, page.parent):
            assert all(part["states"] for part in merged["parts"]), rel(page)
    assert seen >= 3


def test_explorer_markup_has_no_nu_warning():
    """What the Nu checker warns about in an explorer: aria-hidden beside hidden (hidden says it already), a
    section without a heading."""
    for page in pages():
        text = page.read_text(encoding="utf-8")
        for tag in re.findall(r"<[a-z]+\b[^>]*\baria-hidden=[^>]*>", text):
            assert not re.search(r"\shidden(?=[\s>=])", tag.replace("aria-hidden", "")), (rel(page), tag[:120])
        assert '<section class="rl-explorer"' not in text, rel(page)


def test_one_stylesheet_per_page_named_by_its_digest():
    """A page's <head> names one stylesheet: the bundle of the stylesheets it uses, in the order the theme and
    Sphinx gave them, each as the build left it (cut, rewritten), named by a digest of what it holds (a
    browser's cached copy of an earlier build's bundle is not reused)."""
    import hashlib

    site = html_dir().resolve()
    bundled = 0
    for page in pages():
        sheets = [a for a in head_assets(page) if a["kind"] == "link"]
        if page.name == "index.html" and page.parent.resolve() == site:
            assert sheets == []
            continue
        assert [a["url"].split("/")[:2] for a in sheets] == [assets.BUNDLES_DIR.split("/")], rel(page)
        (sheet,) = sheets
        data = sheet["path"].read_bytes()
        assert sheet["path"].stem == hashlib.sha256(data).hexdigest()[:20], rel(page)
        parts = sheet["parts"]
        assert parts[:2] == ["_static/styles/theme.css", "_static/styles/pydata-sphinx-theme.css"], (rel(page), parts)
        assert parts.index("_static/icons/icons.css") < parts.index("_static/responsive.css"), parts
        css = data.decode()
        assert css.startswith('@charset "UTF-8";\n') and css.count("@charset") == 1, rel(page)
        for part in parts:   # each file, in full (its url()s rebased), at its place
            own = re.sub(r'^@charset "UTF-8";\s*', "", (site / part).read_text(encoding="utf-8")).strip()
            plain = re.sub(r"url\([^)]*\)", "url()", own)
            assert re.sub(r"url\([^)]*\)", "url()", css).count(plain) >= 1 or not plain, (rel(page), part)
        bundled += 1
    assert bundled >= 12


# ---- the purge's rule --------------------------------------------------------------------------------------

@pytest.mark.parametrize("selector, kept", [
    (".bd-sidebar .nav", True),
    (".nope .nav", False),
    ("html[data-theme=dark] .bd-sidebar", True),
    (".bd-sidebar:not(.nope)", True),
    ("table>tbody", True),
    ("marquee", False),
    (".md\\:d-none", True),
    ("#main-content", True),
    ("#nope", False),
    (".bs-tooltip-top .tooltip-arrow", True),
    ("a:hover::before", True),
])
def test_selector_kept_when_its_names_are_in_use(selector, kept):
    words = {"html", "body", "table", "tbody", "a", "bd-sidebar", "nav", "md:d-none", "main-content", "tooltip-arrow"}
    assert assets.selector_used(selector, words) is kept


def test_figures_keep_their_shape_at_phone_width():
    """Sized figures shrink with the column and keep their aspect ratio (a width/height pair without
    `height: auto` squeezes them)."""
    from browser_helpers import chromium, serve

    with serve(html_dir()) as base, chromium() as browser:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        checked = 0
        for doc in sorted({rel(p) for p in pages() if "_images/" in p.read_text(encoding="utf-8")}):
            page.goto(base + doc, wait_until="load")
            shapes = page.evaluate("""() => [...document.querySelectorAll('.bd-article img[width][height]')].map((img) => {
                const box = img.getBoundingClientRect();
                return [img.getAttribute('src'), box.width / box.height, img.width / img.height,
                        +img.getAttribute('width') / +img.getAttribute('height')];
            })""")
            for src, shown, _, natural in shapes:
                assert abs(shown / natural - 1) < 0.02, f"{doc}: {src} shown at ratio {shown:.3f}, drawn {natural:.3f}"
                checked += 1
        assert checked > 0
