"""What a page loads, and what the site ships (tests/book/test_html.py checks both from the built pages).

First paint needs only the page and its CSS; everything else waits or stays away:

- every script the page names is `defer`red (runs in order after parsing, before DOMContentLoaded), also the
  search page's own, and the course's own scripts are ES modules (`type="module"`, deferred as well) (`defer_scripts`,
  applied in `_templates/layout.html` and `_templates/search.html`);
- Sphinx's search stack (searchtools.js, language_data.js, searchindex.js) loads on the search page only:
  pydata-sphinx-theme puts it on every page for its search-as-you-type, which this site does not turn on
  (the search dialog sends the query to search.html) — `_templates/layout.html` drops it from `extrahead`;
- the theme's Bootstrap bundle is not on the page: _static/bootstrap-on-demand.js loads it when a reader comes near
  a menu or a tooltip (`without_bootstrap`); the theme's own script is shipped as the theme wrote it;
- a page loads the explorer's and the exercises' scripts and styles only when it has an explorer or
  exercises (`PAGE_ASSETS`), and names with a script the modules it imports (no import waits for a round trip); the
  plotting library (uPlot) is loaded by explorer.js when the first explorer starts (`LOADED_BY_SCRIPT`), and
  the live mode's manifest (`window.rlLive`) is only on pages with live mode;
- the theme's stylesheets are cut, at the end of the build, to the rules whose selectors can match the built
  pages or what the shipped scripts write (`purge_css`, with tinycss2 as the parser);
- a page's stylesheets (12 to 16 files, each a request before the first paint) are one file, in their order, shared
  by the pages that use the same ones (`bundle_stylesheets`);
- the page is drawn in its light or dark colours from the first paint: the theme's <head> script names "auto"
  (which no rule names) until its deferred script runs, then every element is styled again: a script of
  `_templates/layout.html`, right after the theme's, names "light" or "dark" at once;
- the course's own scripts (the .js files at the top of _static/) are written without their comments and the
  spaces that separate nothing (`minify.compact_scripts`, terser), and so are its own stylesheets
  (`compact_stylesheets`, tinycss2): the sources keep them for the next maintainer;
- source maps, the Font Awesome script and full fonts, and the theme's raw Jinja leftovers are not shipped
  (`UNSHIPPED`);
- figures (matplotlib PNG) carry their size, load lazily, and are WebP when that is smaller (`figures`);
- an explorer's precomputed states (④'s are 320 KB) are not in its page: they are a JSON file of their own,
  named by its content's digest, that explorer.js fetches when the explorer starts (`explorer_states`); the
  page keeps the rest of the explorer's data (controls, plots, the live mode's form) and the file's address.

Valid HTML: MyST-NB writes `<p>` inside the `<summary>` of a folded cell, with an English `aria-label`
over the Korean prompt; `visit_hide_input` writes `<span>`s and no label, so the visible Korean prompt is
the name. The site root gets a valid HTML page that sends the reader to the first page (`root_page`).

Site tooling: `import roofline` does not import this module.
"""
from __future__ import annotations

import hashlib
import html
import io
import json
import os
import re
from pathlib import Path

from coursebook import kept, minify, recordfiles

# static files (under _static) that no page names: a page's script loads them when it needs them
# (explorer.js loads the plotting library when the first explorer starts, and imports predict.js (which loads
# predict.css) when predict mode is on; exercises.js imports variants.js when the "학번" field is first used; why.js
# imports the derivation panel when the reader first comes near a number)
LOADED_BY_SCRIPT = ("vendor/uplot/uPlot.iife.min.js", "predict.js", "predict.css", "variants.js", "why-panel.js")
# static file (under _static) → what in a page's body needs it (any one of a tuple). A module is named where a
# script that imports it is (tests/book/test_html.py checks it against each built module's imports).
_QUIZ, _EXPLORER, _PROGRESS = "data-rl-quiz", "data-rl-explorer", "data-rl-progress"
PAGE_ASSETS = {
    "vendor/uplot/uPlot.min.css": "data-rl-explorer",
    "explorer.js": "data-rl-explorer",
    "explorer.css": "data-rl-explorer",
    "live.js": "data-rl-explorer",
    "live.css": "data-rl-explorer",
    "exercises.js": "data-rl-quiz",
    # the typed number's reader and judge: the exercises' (predict.js imports it when predict mode is on)
    "judge.js": "data-rl-quiz",
    "exercises.css": "data-rl-quiz",
    "why.js": "data-rl-why",          # a glued number's derivation panel, when asked (tools/coursebook/derivations.py)
    "why.css": "data-rl-why",
    "anchor.js": "<section id=",      # sections laid out late (content-visibility): a #link lands where it points
    # the scripts' shared core: the reader's own record (answers, predictions, the student identifier), el, json,
    # pageName: where an exercise, an explorer or the progress page is
    "core.js": (_QUIZ, _EXPLORER, _PROGRESS),
    # the progress page ("내 진도"): the reader's record by chapter, its CSV and its reset
    "progress-page.js": "data-rl-progress",
    "progress-page.css": "data-rl-progress",
}
# inline scripts (by the name they set) → what in a page's body needs them: the live mode's manifest
# (tools/coursebook/live.py) where an explorer has a live form
INLINE_ONLY_WITH = {"window.rlLive": '"live":{'}
# stylesheets cut to what the pages use
PURGED_CSS = ("styles/pydata-sphinx-theme.css", "styles/sphinx-book-theme.css", "mystnb.*.css", "basic.css",
              "pygments.css")
# scripts whose words name classes the pages may get at run time (the rest are data or not loaded)
NOT_CLASS_SOURCES = ("searchindex.js", "language_data.js", "fontawesome.js", "bootstrap.js")
# what bootstrap.js toggles on the theme's tooltips, dropdowns, collapses and dialogs
BOOTSTRAP_TOGGLES = ("show", "showing", "hiding", "fade", "collapse", "collapsing", "collapse-horizontal",
                     "active", "disabled", "dropdown-menu-end", "dropup", "dropend", "dropstart", "tooltip",
                     "tooltip-inner", "tooltip-arrow", "modal-open", "modal-backdrop")
# class-name beginnings that scripts build by joining strings (bootstrap's tooltip placement, Sphinx's result kinds)
SAFELIST_PREFIXES = ("bs-tooltip-", "kind-", "tooltip")
# files of the themes that no page uses: source maps, the Font Awesome script and full fonts (icons.py cuts
# its own), the theme's Jinja macros copied as static files
UNSHIPPED = ("**/*.map", "scripts/fontawesome.js", "scripts/fontawesome.js.LICENSE.txt", "vendor/fontawesome/**/*",
             "webpack-macros.html", "sbt-webpack-macros.html")

# the theme's Bootstrap bundle (81 KB: the header's two menus, the buttons' tooltips, "back to top") is not on the
# page: _static/bootstrap-on-demand.js loads it when the reader comes near such a button (`without_bootstrap`)
ON_DEMAND = "scripts/bootstrap.js"
_ON_DEMAND_TAGS = re.compile(r'\s*<(?:link rel="preload" as="script"|script\b[^>]*)[^>]*\b(?:href|src)="[^"]*_static/'
                             + re.escape(ON_DEMAND) + r'[^"]*"[^>]*>(?:\s*</script>)?')
# scripts that run where they stand: the options object the page's inline scripts fill in (400 bytes)
KEPT_IN_ORDER = ("documentation_options.js",)
_SCRIPT_TAG = re.compile(r"<script\b([^>]*)\bsrc=\"([^\"]+)\"([^>]*)>")


# ---- scripts and stylesheets per page ----------------------------------------------------------------

def needed(filename: str, body: str) -> bool:
    """Whether a page whose body is `body` needs the static file `filename` (site-relative or `_static/…`)."""
    name = str(filename).split("?")[0].removeprefix("_static/")
    if name in LOADED_BY_SCRIPT:
        return False
    marker = PAGE_ASSETS.get(name)
    markers = (marker,) if isinstance(marker, str) else marker
    return marker is None or any(m in body for m in markers)


def defer_scripts(head: str) -> str:
    """Every external <script> of `head` with `defer`, unless it is `async` or `defer` already; the course's own
    scripts (the ES modules at the top of _static/) with `type="module"` (deferred too)."""
    modules = tuple("_static/" + name for name in minify.own_scripts())

    def tag(match):
        before, src, after = match.groups()
        if re.search(r"\b(defer|async)\b", before + after) or 'type="module"' in before + after \
                or src.split("?")[0].endswith(KEPT_IN_ORDER):
            return match.group(0)
        if src.split("?")[0].endswith(modules):
            return f'<script{before}src="{src}"{after.rstrip().removesuffix("/")} type="module">'
        return f'<script{before}src="{src}"{after.rstrip().removesuffix("/")} defer>'

    return _SCRIPT_TAG.sub(tag, head)


def without_bootstrap(head: str) -> str:
    """`head` without the theme's <script> and preload of its Bootstrap bundle (loaded on demand)."""
    return _ON_DEMAND_TAGS.sub("", head)


def page_assets(app, pagename, templatename, context, doctree) -> None:
    """html-page-context: drop the scripts and stylesheets the page does not use. Sphinx's script objects pass
    unchanged: `defer` is written by `defer_scripts` where the templates place them (`_templates/layout.html`
    and `_templates/search.html`), so nothing here builds Sphinx's private asset classes."""
    body = context.get("body", "")
    scripts = []
    for js in context.get("script_files", []):
        filename = getattr(js, "filename", None)
        if not filename:
            inline = str(getattr(js, "attributes", {}).get("body", ""))
            if inline.startswith(tuple(INLINE_ONLY_WITH)) and INLINE_ONLY_WITH[inline.split("=")[0].strip()] not in body:
                continue
            scripts.append(js)
            continue
        if needed(filename, body):
            scripts.append(js)
    context["script_files"] = scripts
    context["css_files"] = [css for css in context.get("css_files", [])
                            if needed(getattr(css, "filename", css), body)]
    context["defer_scripts"] = defer_scripts
    context["without_bootstrap"] = without_bootstrap


# ---- MyST-NB's folded cells ---------------------------------------------------------------------------

def visit_hide_input(self, node) -> None:
    """MyST-NB's folded code cell, as valid HTML whose summary is named by its visible Korean prompt."""
    classes = " ".join(node["classes"])
    self.body.append(f'<details class="admonition hide {classes}">\n<summary>\n')
    self.body.append(f'<span class="collapsed admonition-title">{html.escape(node["prompt_show"])}</span>\n')
    self.body.append(f'<span class="expanded admonition-title">{html.escape(node["prompt_hide"])}</span>\n')
    self.body.append("</summary>\n")


def depart_hide_input(self, node) -> None:
    self.body.append("</details>\n")


# ---- explorers' states ---------------------------------------------------------------------------------

STATES_DIR = "_static/states"     # the explorers' precomputed states, one JSON file per explorer
INLINE_STATES = 8 * 1024          # bytes: smaller states stay in the page (a request costs more than they do)
_EXPLORER_DATA = re.compile(r'(<(?:section|div) class="rl-explorer" id="([^"]+)"[^>]*>.*?'
                            r'<script type="application/json" class="rl-data">)(.*?)(</script>)', re.S)


def _script_json(data) -> str:
    """JSON for a <script> element, as roofline.show.explorer writes it ('</' cannot close it early)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def explorer_states(outdir: Path, pages: list[Path] | None = None) -> dict[str, int]:
    """Every explorer's states (the `states` of each of its data's `parts`) in _static/states/<page>-<id>.<digest>.json,
    a list with one object per part; its data in the page names the file (`"states": url relative to the page`)
    instead. The states' predict parts go to <page>-<id>.predict.<digest>.json (`"predict": url`), the records of
    their numbers to <page>-<id>.why.<digest>.json (`"why": url`), whatever their size. Returns {file: bytes}.
    `pages`: only these (pages just written; every page of `outdir` by default)."""
    folder = outdir / STATES_DIR
    written = {}
    for page in sorted(outdir.rglob("*.html")) if pages is None else pages:
        text = page.read_text(encoding="utf-8")
        if 'class="rl-data"' not in text:
            continue

        def write(body: bytes, kind: str, match) -> str:
            digest = hashlib.sha256(body).hexdigest()[:12]
            name = f"{page.stem}-{match.group(2).removeprefix('rl-')}{kind}.{digest}.json"
            folder.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(body)
            written[name] = len(body)
            return os.path.relpath(folder / name, page.parent).replace(os.sep, "/")

        def move(match):
            data = _data(match.group(3))
            # the predict parts (issue 39: the answers a guess waits for) in a file of their own, fetched only when
            # the reader turns predict mode on: never in the page, and no bytes for a reader who does not
            predict = [{key: state.pop("predict") for key, state in part["states"].items() if "predict" in state}
                       for part in data["parts"]]
            if any(predict):
                data["predict"] = write(json.dumps(predict, ensure_ascii=False, separators=(",", ":")).encode(),
                                        ".predict", match)
            # the records of the states' numbers (issue 38: what a number's panel shows), fetched when a panel first
            # opens, and in parts when it is large, each state naming its own (`"wp"`: coursebook.recordfiles)
            if "why" in data:
                pool, whole = data["why"], recordfiles.dumps(data["why"])
                data["why"] = write(whole, ".why", match)
                if len(whole) > recordfiles.PARTS_FROM:
                    data["whyParts"] = recordfiles.part_names(data["why"])
                    parts = recordfiles.explorer_parts(pool, data["parts"])
                    for name, body in recordfiles.part_files(Path(data["why"]).name, parts).items():
                        (folder / name).write_bytes(body)
                        written[name] = len(body)
            states = [part.pop("states") for part in data["parts"]]
            body = json.dumps(states, ensure_ascii=False, separators=(",", ":")).encode()
            if len(body) <= INLINE_STATES:
                for part, part_states in zip(data["parts"], states):
                    part["states"] = part_states
                moved = any(predict) or "why" in data
                return match.group(0) if not moved else match.group(1) + _script_json(data) + match.group(4)
            data["states"] = write(body, "", match)
            return match.group(1) + _script_json(data) + match.group(4)

        new = _EXPLORER_DATA.sub(move, text)
        if new != text:
            page.write_text(new, encoding="utf-8")
    return written


def _data(raw: str) -> dict:
    """An explorer's data as its page holds it (`</` escaped inside the script element)."""
    return json.loads(raw.replace("<\\/", "</"))


def explorer_data(html: str, folder: Path | None = None) -> list[dict]:
    """The data of every explorer in `html` (a built page's text, or an explorer's own HTML), with its states put back
    from their file when the data names one (relative to `folder`, the page's folder), as the library wrote them: the
    records' parts (`whyParts`, each state's `wp`: coursebook.recordfiles) left out. For tests."""
    out = []
    for match in _EXPLORER_DATA.finditer(html):
        data = _data(match.group(3))
        data.pop("whyParts", None)
        if "states" in data:
            states = json.loads((folder / data.pop("states")).read_text(encoding="utf-8"))
            for part, part_states in zip(data["parts"], states):
                part["states"] = part_states
        for part in data["parts"]:
            for state in part["states"].values():
                state.pop("wp", None)
        if isinstance(data.get("why"), str):
            data["why"] = json.loads((folder / data["why"]).read_text(encoding="utf-8"))
        if "predict" in data:
            predict = json.loads((folder / data.pop("predict")).read_text(encoding="utf-8"))
            for part, part_predict in zip(data["parts"], predict):
                for key, value in part_predict.items():
                    part["states"][key]["predict"] = value
        out.append(data)
    return out


# ---- the site root -------------------------------------------------------------------------------------

ROOT_PAGE = """<!DOCTYPE html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<meta name="description" content="{description}">
<link rel="canonical" href="{target}">
<link rel="icon" href="{icon}">
<meta http-equiv="refresh" content="0; url={target}">
</head>
<body>
<p><a href="{target}">{title}</a></p>
</body>
</html>
"""


def root_page(app, exception) -> None:
    """build-finished (before sphinx-external-toc writes its one-line redirect, which it skips when the file
    exists): /index.html as a valid page that sends the reader on to the first page."""
    if exception is not None or app.builder.name != "html" or app.config.root_doc == "index":
        return   # (singlehtml, for `make pdf`, keeps sphinx-external-toc's redirect to its one page)
    outdir = Path(app.outdir)
    target = app.builder.get_target_uri(app.config.root_doc)
    icon = "_static/" + Path(app.config.html_favicon).name if app.config.html_favicon else ""
    first = (outdir / target).read_text(encoding="utf-8") if (outdir / target).is_file() else ""
    found = re.search(r'<meta name="description" content="([^"]*)"', first)
    description = found.group(1) if found else html.escape(app.config.html_title or app.config.project)
    (outdir / "index.html").write_text(ROOT_PAGE.format(
        title=html.escape(app.config.html_title or app.config.project), description=description,
        target=html.escape(target), icon=html.escape(icon)), encoding="utf-8")


# ---- figures ------------------------------------------------------------------------------------------

_IMG = re.compile(r"<img\b[^>]*>")


MAX_FIGURE_WIDTH = 960   # px: a phone's column (about 360 CSS px) at its pixel ratio (2.6); the desktop column is ~730 px


def webp_if_smaller(png: Path) -> Path:
    """The figure, no wider than MAX_FIGURE_WIDTH, as lossless WebP beside it when that is smaller (the PNG is
    removed), else the PNG (narrowed if it was wider). Kept by the PNG's bytes (coursebook.kept): WebP's slowest
    setting takes about a second a figure."""
    out = figure_kept(png.read_bytes())
    if out.startswith(b"webp"):
        webp = png.with_suffix(".webp")
        webp.write_bytes(out[4:])
        png.unlink()
        return webp
    png.write_bytes(out[4:])
    return png


def figure_kept(data: bytes) -> bytes:
    """_smaller of the PNG `data`, kept by its bytes (coursebook.meanwhile makes them for the editions' figures while
    Sphinx runs: the same bytes myst-nb writes to _images/)."""
    import PIL

    return kept.made("figures", lambda: _smaller(data), data, f"{MAX_FIGURE_WIDTH} {PIL.__version__}".encode())


def _smaller(data: bytes) -> bytes:
    """b"webp" and the lossless WebP of the PNG `data` (narrowed to MAX_FIGURE_WIDTH) when smaller, else b"png " and
    the PNG."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        if image.width > MAX_FIGURE_WIDTH:
            height = round(image.height * MAX_FIGURE_WIDTH / image.width)
            image = image.resize((MAX_FIGURE_WIDTH, height), Image.LANCZOS)
            narrowed = io.BytesIO()
            image.save(narrowed, "PNG", optimize=True)
            data = narrowed.getvalue()
        webp = io.BytesIO()
        image.save(webp, "WEBP", lossless=True, method=6)
    return b"webp" + webp.getvalue() if len(webp.getvalue()) < len(data) else b"png " + data


def figures(outdir: Path) -> None:
    """Every <img> of _images/: lossless WebP when smaller, width and height from the file (its CSS size is
    the column's width, no larger than the file), loaded lazily and decoded off the main thread."""
    from PIL import Image

    images = outdir / "_images"
    renamed = {}
    if images.is_dir():
        for png in sorted(images.glob("*.png")):
            out = webp_if_smaller(png)
            if out != png:
                renamed[png.name] = out.name
    for page in outdir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")

        def img(match):
            tag = match.group(0)
            src = re.search(r'\bsrc="([^"]*_images/([^"/]+))"', tag)
            if not src:
                return tag
            name = renamed.get(src.group(2), src.group(2))
            tag = tag.replace(src.group(1), src.group(1)[: -len(src.group(2))] + name)
            path = images / name
            if "width=" not in tag and path.is_file() and path.suffix != ".svg":
                with Image.open(path) as image:
                    width, height = image.size
                tag = tag.replace("<img ", f'<img width="{width}" height="{height}" ', 1)
            if "loading=" not in tag:
                tag = tag.replace("<img ", '<img loading="lazy" decoding="async" ', 1)
            return tag

        new = _IMG.sub(img, text)
        if new != text:
            page.write_text(new, encoding="utf-8")


# ---- the theme's CSS, cut to what the pages use ----------------------------------------------------------

_PSEUDO = re.compile(r"(?<!\\)::?[A-Za-z-]+")
_CLASS = re.compile(r"\.((?:\\.|[\w-])+)")
_ID = re.compile(r"#((?:\\.|[\w-])+)")
_TYPE = re.compile(r"(?:^|[\s>+~])([A-Za-z][A-Za-z0-9-]*)")
_WORD = re.compile(r"[\w-]+")


def _unescape(name: str) -> str:
    return re.sub(r"\\(.)", r"\1", name)


def _outside_brackets(selector: str) -> str:
    """The selector without what is inside (…) and […] (pseudo-class arguments, attribute tests) and strings."""
    out, depth = [], 0
    for char in selector:
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif depth == 0:
            out.append(char)
    return "".join(out)


def selector_used(selector: str, words: set[str]) -> bool:
    """Whether every class, id and element name in `selector` (outside pseudo-class arguments and attribute
    tests) is among `words`, the way PurgeCSS decides."""
    plain = _PSEUDO.sub(" ", _outside_brackets(selector))
    for name in _CLASS.findall(plain):
        name = _unescape(name)
        if name not in words and not name.startswith(SAFELIST_PREFIXES):
            return False
    for name in _ID.findall(plain):
        if _unescape(name) not in words:
            return False
    plain = _CLASS.sub(" ", _ID.sub(" ", plain))
    return all(name.lower() in words for name in _TYPE.findall(plain))


def _split_selectors(prelude: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, char in enumerate(prelude):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(prelude[start:i].strip())
            start = i + 1
    parts.append(prelude[start:].strip())
    return [p for p in parts if p]


def purge(css: str, words: set[str]) -> str:
    """`css` without the style rules none of whose selectors can match, without emptied @media/@supports
    blocks and without Font Awesome's @font-face (tools/coursebook/icons.py ships the faces in use)."""
    import tinycss2

    def rules(nodes) -> list[str]:
        out = []
        for node in nodes:
            if node.type == "qualified-rule":
                selectors = [s for s in _split_selectors(tinycss2.serialize(node.prelude)) if selector_used(s, words)]
                if selectors:
                    out.append(",".join(selectors) + "{" + tinycss2.serialize(node.content).strip() + "}")
            elif node.type == "at-rule":
                keyword = node.lower_at_keyword
                prelude = tinycss2.serialize(node.prelude).strip()
                if node.content is None:
                    out.append(f"@{node.at_keyword} {prelude};")
                elif keyword in ("media", "supports", "layer", "container", "document"):
                    inner = rules(tinycss2.parse_rule_list(node.content, skip_comments=True, skip_whitespace=True))
                    if inner:
                        out.append(f"@{node.at_keyword} {prelude}{{" + "".join(inner) + "}")
                elif keyword == "font-face" and "Font Awesome" in tinycss2.serialize(node.content):
                    continue
                else:
                    out.append(f"@{node.at_keyword} {prelude}{{" + tinycss2.serialize(node.content).strip() + "}")
        return out

    sheet = tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
    return "\n".join(rules(sheet)) + "\n"


def words_in_use(outdir: Path) -> set[str]:
    """Every element name, class and id of the built pages, every word of their inline scripts and of the
    shipped scripts that can write a class (PurgeCSS's default extractor over those scripts), and the classes
    Bootstrap's script toggles on the components the theme uses (its own words name every component it has)."""
    words: set[str] = {"html", "body", "*", *BOOTSTRAP_TOGGLES}
    for page in outdir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        words.update(t.lower() for t in re.findall(r"<([A-Za-z][\w-]*)", text))
        for value in re.findall(r'\b(?:class|id)="([^"]*)"', text):
            words.update(value.split())
        for script in re.findall(r"<script\b[^>]*>(.*?)</script>", text, re.S):
            words.update(_WORD.findall(script))
    for script in outdir.rglob("*.js"):
        if script.name not in NOT_CLASS_SOURCES:
            words.update(_WORD.findall(script.read_text(encoding="utf-8", errors="replace")))
    return words


_VAR_USE = re.compile(r"--[A-Za-z0-9_-]+")


def drop_unused_variables(css: str, used: set[str]) -> tuple[str, set[str], set[str]]:
    """`css` without the custom-property declarations (`--name: …`) whose name is not in `used`; the names the
    kept custom properties read (var(--…) in their values) and the names the other declarations read."""
    import tinycss2

    refers: set[str] = set()
    plain: set[str] = set()

    def block(content) -> str:
        parts = []
        for decl in tinycss2.parse_blocks_contents(content, skip_comments=True, skip_whitespace=True):
            if decl.type != "declaration":
                parts.append(tinycss2.serialize([decl]).strip())
                continue
            value = tinycss2.serialize(decl.value).strip()
            if decl.name.startswith("--") and decl.name not in used:
                continue
            (refers if decl.name.startswith("--") else plain).update(_VAR_USE.findall(value))
            parts.append(f"{decl.name}:{value}" + ("!important" if decl.important else ""))
        return ";".join(parts)

    def rules(nodes) -> list[str]:
        out = []
        for node in nodes:
            if node.type == "qualified-rule":
                body = block(node.content)
                if body:
                    out.append(tinycss2.serialize(node.prelude).strip() + "{" + body + "}")
            elif node.type == "at-rule" and node.content is not None and node.lower_at_keyword in (
                    "media", "supports", "layer", "container"):
                inner = rules(tinycss2.parse_rule_list(node.content, skip_comments=True, skip_whitespace=True))
                if inner:
                    out.append(f"@{node.at_keyword} " + tinycss2.serialize(node.prelude).strip() + "{" + "".join(inner) + "}")
            else:
                out.append(tinycss2.serialize([node]).strip())
        return out

    sheet = tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
    return "\n".join(rules(sheet)) + "\n", refers, plain


def compact_css(css: str) -> str:
    """`css` without its comments and the spaces between rules and declarations (tinycss2's tokens written back
    by `drop_unused_variables`, every custom property it declares kept): the same rules, in the same order."""
    return drop_unused_variables(css, set(re.findall(r"(--[A-Za-z0-9_-]+)\s*:", css)))[0]


def compact_stylesheets(static: Path, sources: Path = minify.SOURCES) -> list[str]:
    """The course's own stylesheets (the .css files at the top of _static/) in the built `static` folder written
    compact (`compact_css`); the names written. The sources keep their comments (most of them Korean, three bytes
    a character) for the next maintainer; a first visit moves the compact copies."""
    names = sorted(path.name for path in sources.glob("*.css") if (static / path.name).is_file())
    for name in names:
        (static / name).write_text(compact_css((static / name).read_text(encoding="utf-8")), encoding="utf-8")
    return names


def variable_uses(text: str) -> set[str]:
    """The custom properties a text reads: var(--…) and quoted names ("--pst-color-text-base" in scripts)."""
    found = set(re.findall(r"var\(\s*(--[A-Za-z0-9_-]+)", text))
    found.update(re.findall(r"[\"'](--[A-Za-z0-9_-]+)[\"']", text))
    return found


def purge_css(outdir: Path) -> dict[str, tuple[int, int]]:
    """Cut the theme's stylesheets (PURGED_CSS) to what the pages use: first the rules, then the custom
    properties nothing reads (to a fixed point: a property read only by a dropped one goes too).
    Returns {file: (bytes before, after)}. The cut is kept (coursebook.kept) by the stylesheets, the words the pages
    use and the properties the other files read: a build whose pages changed only numbers parses no CSS."""
    import tinycss2

    static = outdir / "_static"
    words = words_in_use(outdir)
    paths = [path for pattern in PURGED_CSS for path in sorted(static.glob(pattern))]
    before = {path.relative_to(static).as_posix(): path.read_text(encoding="utf-8") for path in paths}
    outside: set[str] = set()
    for other in list(static.rglob("*.css")) + list(static.rglob("*.js")) + list(outdir.rglob("*.html")):
        if other not in paths and other.name not in NOT_CLASS_SOURCES[:3]:
            outside |= variable_uses(other.read_text(encoding="utf-8", errors="replace"))
    # (the cut depends on the words and properties only where the stylesheets could look them up: the words of the
    # pages' data, numbers and Korean, do not make another key)
    names = _names_in(before.values())
    words, outside = words & names, outside & names
    given = json.dumps([sorted(before.items()), sorted(words), sorted(outside), tinycss2.__version__])
    after = json.loads(kept.made("purged-css", lambda: json.dumps(_purged(before, words, outside)).encode(),
                                 given.encode(), Path(__file__).read_bytes()))
    sizes = {}
    for path in paths:
        name = path.relative_to(static).as_posix()
        path.write_text(after[name], encoding="utf-8")
        sizes[path.name] = (len(before[name].encode()), len(after[name].encode()))
    return sizes


def _names_in(sheets) -> set[str]:
    """Every name `purge` and `drop_unused_variables` can look up in the stylesheets: each run of word characters
    (element names also lowercased, custom properties) and each class and id with its escapes read. A selector's
    names are runs of the whole text: what `selector_used` blanks out starts with ':' or '[' and ends with ')' or ']'."""
    names: set[str] = set()
    for css in sheets:
        runs = set(_WORD.findall(css))
        names |= runs | {run.lower() for run in runs}
        names |= {_unescape(name) for name in _CLASS.findall(css) + _ID.findall(css)}
    return names


def _purged(before: dict[str, str], words: set[str], outside: set[str]) -> dict[str, str]:
    """purge_css's cut of the stylesheets `before` (name → text), given the words in use and the custom properties
    the other files read."""
    texts = {name: purge(css, words) for name, css in before.items()}
    outside = set(outside)
    for css in texts.values():   # what the kept rules' ordinary properties read
        outside |= drop_unused_variables(css, set())[2]
    used = set(outside)
    while True:                  # and what the properties those read read, …
        wider = set(used)
        for css in texts.values():
            wider |= drop_unused_variables(css, used)[1]
        if wider == used:
            break
        used = wider
    return {name: drop_unused_variables(text, used)[0] for name, text in texts.items()}


_RELATIVE_URL = re.compile(r"""url\((['"]?)(?!['"]|[a-z]+:|/|#)""")


def no_import_chain(static: Path) -> None:
    """pydata-sphinx-theme's styles/theme.css is only `@import "../basic.css"`: a second round trip before the
    first paint. Write the (cut) basic.css into it instead, its url()s made relative to styles/."""
    theme, basic = static / "styles" / "theme.css", static / "basic.css"
    if not (theme.is_file() and basic.is_file()) or '@import "../basic.css"' not in theme.read_text(encoding="utf-8"):
        return
    css = _RELATIVE_URL.sub(r"url(\1../", basic.read_text(encoding="utf-8"))
    theme.write_text("/* Sphinx's basic.css (cut to what the pages use, tools/coursebook/assets.py) */\n" + css,
                     encoding="utf-8")


def fresh_digests(outdir: Path, names: list[str]) -> None:
    """The pages name the static files the build rewrote (`names`, under _static) with a digest of what they
    hold now (`?digest=` or `?v=`, the query the theme or Sphinx gave them): a browser that cached a file of
    an earlier build under its old digest fetches the new one."""
    static = outdir / "_static"
    fresh = {name: hashlib.sha256((static / name).read_bytes()).hexdigest()[:20] for name in names
             if (static / name).is_file()}
    if not fresh:
        return
    pattern = re.compile(r"(_static/(" + "|".join(re.escape(n) for n in fresh) + r")\?(?:digest|v)=)[0-9A-Za-z]+")
    for page in outdir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        new = pattern.sub(lambda m: m.group(1) + fresh[m.group(2)], text)
        if new != text:
            page.write_text(new, encoding="utf-8")


BUNDLES_DIR = "_static/bundles"    # one stylesheet per set of stylesheets some page names (`bundle_stylesheets`)
_STYLESHEET = re.compile(r'[ \t]*<link\b(?=[^>]*\brel="stylesheet")[^>]*\bhref="([^"]+)"[^>]*>\n?')
_SOURCE_MARK = re.compile(r"^/\* (_static/\S+\.css) \*/$", re.M)
_ANY_URL = re.compile(r"""url\(\s*(['"]?)([^'")]+)\1\s*\)""")


def _rebased(css: str, source: Path, bundle_dir: Path) -> str:
    """`css` from the file `source`, its relative url()s made relative to `bundle_dir`, without @charset."""
    def url(match):
        quote, target = match.groups()
        if re.match(r"[a-z]+:|/|#", target):
            return match.group(0)
        moved = os.path.relpath(source.parent / target, bundle_dir).replace(os.sep, "/")
        return f"url({quote}{moved}{quote})"

    return _ANY_URL.sub(url, re.sub(r"^@charset[^;]*;\s*", "", css))


def bundle_stylesheets(outdir: Path) -> dict[str, list[str]]:
    """Every page's stylesheets (a dozen and more files, each a request before the first paint) as one file, in
    their order: _static/bundles/<digest>.css, one per set of stylesheets some page names, each part opened by a
    comment naming its file (`/* _static/explorer.css */`, read by `bundled_sources`), their @charset once at its
    head. The page's first
    <link rel="stylesheet"> names the bundle; the others go. Returns {bundle: its files}."""
    static = outdir / "_static"
    folder = outdir / BUNDLES_DIR
    written: dict[str, list[str]] = {}
    for page in sorted(outdir.rglob("*.html")):
        if static in page.parents:
            continue
        text = page.read_text(encoding="utf-8")
        head, rest = text.split("</head>", 1) if "</head>" in text else (text, None)
        links = _STYLESHEET.findall(head)
        if rest is None or len(links) < 2:
            continue
        files = [(page.parent / href.split("?")[0]).resolve() for href in links]
        missing = [href for href, path in zip(links, files) if not path.is_file()]
        if missing:
            raise RuntimeError(f"{page.relative_to(outdir)}: stylesheets not in the build: {missing}")
        names = [path.relative_to(outdir.resolve()).as_posix() for path in files]
        css = '@charset "UTF-8";\n' + "".join(f"/* {name} */\n" + _rebased(path.read_text(encoding="utf-8"), path, folder.resolve()).rstrip()
                      + "\n" for name, path in zip(names, files))
        bundle = f"{hashlib.sha256(css.encode()).hexdigest()[:20]}.css"
        if bundle not in written:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / bundle).write_text(css, encoding="utf-8")
            written[bundle] = names
        href = os.path.relpath(folder / bundle, page.parent).replace(os.sep, "/")
        first = [True]

        def tag(match):
            if not first[0]:
                return ""
            first[0] = False
            indent = match.group(0)[: len(match.group(0)) - len(match.group(0).lstrip())]
            return f'{indent}<link rel="stylesheet" href="{href}" />\n'

        page.write_text(_STYLESHEET.sub(tag, head) + "</head>" + rest, encoding="utf-8")
    return written


def bundled_sources(bundle: Path) -> list[str]:
    """The files (site-relative) a bundle of `bundle_stylesheets` holds, in order. For tests."""
    return _SOURCE_MARK.findall(bundle.read_text(encoding="utf-8"))


def unship(outdir: Path) -> list[str]:
    static = outdir / "_static"
    removed = []
    for pattern in UNSHIPPED:
        for path in sorted(static.glob(pattern)):
            if path.is_file():
                path.unlink()
                removed.append(path.relative_to(static).as_posix())
    for folder in sorted((p for p in static.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts)):
        if not any(folder.iterdir()):
            folder.rmdir()
    return removed


def site_finished(app, exception) -> None:
    """build-finished, after the icon fonts are cut (icons.py reads the theme's full fonts)."""
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    if app.config.coursebook_dev:
        return dev_finished(app, outdir)
    figures(outdir)
    static = outdir / "_static"
    cut = [path.relative_to(static).as_posix() for pattern in PURGED_CSS for path in sorted(static.glob(pattern))]
    purge_css(outdir)
    explorer_states(outdir)
    if app.builder.name == "html":   # a student's variants, fetched when an identifier is entered; the progress page's list
        from coursebook import handout

        handout.variant_files(outdir)
        handout.progress_catalog(outdir)
    no_import_chain(static)
    compacted = minify.compact_scripts(static) + compact_stylesheets(static)
    fresh_digests(outdir, cut + ["styles/theme.css"] + compacted)
    unship(outdir)
    if app.builder.name == "html":   # the singlehtml build `make pdf` prints writes its links from the top folder
        bundle_stylesheets(outdir)   # (chapters/index.html names "_static/…"), and print needs no fewer requests


def dev_finished(app, outdir: Path) -> None:
    """`make serve`'s build: what the pages it wrote need to work (their explorers' states and exercises' variants
    in files, the progress page's list); none of the cutting and compacting over the whole site, which a build that
    writes some pages cannot redo (the published site is `make book`'s, always whole)."""
    from coursebook import handout
    from coursebook.sphinx_ext import written_pages

    pages = [page for page in written_pages(app) if page.is_file()]
    explorer_states(outdir, pages)
    handout.variant_files(outdir, pages=pages, freeze=False)
    if outdir / "chapters" / "progress.html" in pages:
        handout.progress_catalog(outdir)


def logo_size(app, pagename, templatename, context, doctree) -> None:
    context["logo_size"] = LOGO_SIZE


LOGO_SIZE = 64   # px, the sidebar logo's width and height (_templates/navbar-logo.html)


def one_search_field(app, config) -> None:
    """No header bar above the page holding a second search button on wide screens (pydata-sphinx-theme's
    default `navbar_persistent`): the sidebar's search field is the one."""
    options = dict(config.html_theme_options or {})
    options["navbar_persistent"] = []
    config.html_theme_options = options


def setup(app):
    from myst_nb.sphinx_ import HideCodeCellNode

    app.connect("config-inited", one_search_field)

    app.add_node(HideCodeCellNode, override=True, html=(visit_hide_input, depart_hide_input))
    app.connect("html-page-context", page_assets, priority=950)
    app.connect("html-page-context", logo_size)
    app.connect("build-finished", root_page, priority=400)
    app.connect("build-finished", site_finished, priority=800)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
