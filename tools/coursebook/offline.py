"""The site offline: a service worker and a web app manifest, written by the build from its own file list.

Sphinx extension (registered by coursebook.sphinx_ext). At `build-finished`, after every other step has written
its files (priority 990), it
- lists the built site (`site_files`) and, of it, what the worker knows (`kept_files`): every page, what the pages
  need, link to or load on demand, the manifest, its icons, the live mode's files (`_static/live/`: kept only when
  the reader runs the live mode or asks) — each with a short sha-256 of its bytes;
- names the build by the digest of that list (`build_digest`): the cache the worker fills is `rl-<digest>`;
- writes what each page needs (its styles, scripts, figures, fonts, explorer states and the scripts that load
  later) as indexes into that list (`page_needs`, `worker_data`), so that the worker keeps a page whole when it is
  opened;
- puts the control "오프라인으로 모두 받아 두기" on the landing page, with the sizes of the site and of the live mode
  (formatted by roofline.show.fmt; the numbers are the build's own byte counts);
- writes `manifest.webmanifest` and `sw.js` at the site root (the worker's scope is the folder it is in: the
  site's base path, so a GitHub Pages project site works), the worker being `offline_sw.js` after one line
  holding the build's data.
What every first visit fetches is kept small (issue 42: + at most 10 KiB): the worker's file list is front-coded
(`front_coded`), its script is written without comments or spaces that separate nothing (coursebook.minify: terser, as
every script of the course's own is, `_static/offline.js` among them), and offline.js only registers the worker:
the update notice and the landing page's control are `_static/offline-ui.js` (from `offline_ui.js`), loaded when a
new edition is waiting or the control is used.
At `html-page-context` each page gets the manifest's link and the theme colours of light and dark mode; every
page loads `_static/offline.js` (Jupyter Book names every script of _static; coursebook.assets defers it).
A page that is not kept answers, offline, with a short Korean page saying so (the worker writes it).
"""
from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from fractions import Fraction
from pathlib import Path

from coursebook.minify import compact

WORKER = "sw.js"
MANIFEST = "manifest.webmanifest"
TEMPLATE = Path(__file__).with_name("offline_sw.js")
UI_SOURCE = Path(__file__).with_name("offline_ui.js")
REGISTER = "_static/offline.js"  # on every page (Jupyter Book names every script of _static), compact (coursebook.assets)
LIVE = "_static/live/"
# not for readers: Sphinx's build record and inventory, the worker itself, the unused translations of Sphinx, the
# wheel the Colab editions install (pip fetches it, no page: live.COLAB)
SKIPPED = (".buildinfo", "objects.inv", WORKER, "_static/locales/", "_static/colab/")
THEME = {"light": "#ffffff", "dark": "#14181e"}               # the page background of the two modes
APP_COLOUR = "#1f3a5f"                                         # the logo's
ICONS = ("_static/app-icon-192.png", "_static/app-icon-512.png")
LANDING_MARK = '<div class="rl-offline"'
HASH_CHARS = 4                  # of the short sha-256 in the worker's list: 24 bits, enough to see a changed file
UI = "_static/offline-ui.js"    # the update notice and the landing control, loaded by offline.js when needed
_REF = re.compile(r'''\b(?:src|href)="([^"#?:]+)(?:[?#][^"]*)?"''')
# an explorer's states (not its predict parts, nor the derivation records: fetched, and then kept, only when the
# reader turns predict mode on or opens a number's panel; the records are in the worker's list for the whole site)
_STATES = re.compile(r'"states":"([^"]+)"')
# (the whole files, not their parts "….part3.<digest>.json", coursebook.recordfiles: no page or state name has a dot)
RECORDS = re.compile(r"^_static/(?:why/[^./]+|states/[^./]+\.why)\.[0-9a-f]{12}\.json$")
# what explorer.js loads when an explorer starts (the predict mode's and the variants' scripts are kept when asked for)
EXPLORER_LATER = ("_static/vendor/uplot/uPlot.iife.min.js",)


def short_hash(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest())[:8].decode()


def site_files(outdir: Path) -> dict[str, tuple[str, int]]:
    """{site-relative path: (short sha-256, bytes)} of every file a reader may fetch, in path order."""
    files = {}
    for path in sorted(p for p in outdir.rglob("*") if p.is_file()):
        name = path.relative_to(outdir).as_posix()
        if name.startswith(SKIPPED):
            continue
        data = path.read_bytes()
        files[name] = (short_hash(data), len(data))
    return files


def build_digest(files: dict[str, tuple[str, int]]) -> str:
    digest = hashlib.sha256()
    for name, (hashed, _) in files.items():
        digest.update(f"{name}\0{hashed}\n".encode())
    return digest.hexdigest()[:16]


def _resolve(base: Path, ref: str, outdir: Path) -> str | None:
    target = (base.parent / ref).resolve()
    try:
        return target.relative_to(outdir.resolve()).as_posix()
    except ValueError:
        return None


def page_needs(outdir: Path, files: dict) -> dict[str, list[str]]:
    """{page: [files it loads]}: what its HTML names that is not another page (and the explorer's states and the
    scripts that load more later) — not the live mode's files. Not what its stylesheets' url()s name (fonts,
    images): a page uses few of them, and the worker keeps those the page loaded (offline.js sends them) and
    those it asks for later."""
    needs = {}
    for page in (p for p in files if p.endswith(".html")):
        path = outdir / page
        text = path.read_text(encoding="utf-8")
        found: list[str] = []
        for ref in _REF.findall(text.split("</head>")[0]) + re.findall(r'<img\b[^>]*\bsrc="([^"#?:]+)', text):
            name = _resolve(path, ref, outdir)
            if name in files and not name.endswith(".html") and name not in found:
                found.append(name)
        for ref in _STATES.findall(text):
            name = _resolve(path, ref, outdir)
            if name in files and name not in found:
                found.append(name)
        if "data-rl-explorer" in text:    # what explorer.js loads when an explorer starts
            found += [name for name in EXPLORER_LATER if name in files and name not in found]
        # not the manifest and the icons its head names (the browser asks for them when it installs the site: the
        # worker keeps them then, or with the whole site), nor the live mode's files
        needs[page] = [name for name in found if not name.startswith(LIVE) and name != MANIFEST and name not in ICONS]
    return needs


def size_text(nbytes: int) -> str:
    from roofline.show import fmt

    return fmt.number(Fraction(nbytes, 2**20), 1) + " MiB"


# the control's buttons: the theme's small buttons (with a border in its colour: _static/text.css)
_BUTTON = 'class="btn btn-sm"'   # its colours: _static/text.css (.rl-offline .btn)


def landing_control(site_bytes: int, live_bytes: int) -> str:
    """The landing page's control, each button naming its size (offline.js shows the control and loads
    offline-ui.js when it is used; without the worker it stays hidden). Short: it is on the landing page's first
    visit."""
    site, live = html.escape(size_text(site_bytes)), html.escape(size_text(live_bytes))
    return (f'{LANDING_MARK} hidden>\n<h2>오프라인으로 읽기</h2>\n'
            '<p>한 번 연 페이지는 그림, 탐색기와 함께 인터넷 없이도 다시 열린다.</p>\n'
            f'<p><button {_BUTTON}>오프라인으로 모두 받아 두기 ({site})</button>\n'   # no form: a button needs no type
            f'<button {_BUTTON} data-live>실시간 계산까지 받아 두기 (+{live})</button></p>\n'
            '</div>\n')


def add_landing_control(page: Path, site_bytes: int, live_bytes: int) -> None:
    """The control at the end of the landing page's article (written once; a rebuild writes it again)."""
    text = page.read_text(encoding="utf-8")
    text = re.sub(r'<div class="rl-offline".*?</div>\n', "", text, flags=re.S)
    control = landing_control(site_bytes, live_bytes)
    if "</article>" not in text:
        raise RuntimeError(f"{page.name}: no <article> for the offline control")
    head, tail = text.rsplit("</article>", 1)
    page.write_text(head + control + "</article>" + tail, encoding="utf-8")


def _base36(number: int) -> str:
    digits = ""
    while True:
        number, digit = divmod(number, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[digit] + digits
        if not number:
            return digits


def front_coded(files: dict[str, tuple[str, int]]) -> str:
    """The file list as the worker reads it (offline_sw.js `decode`), one line a file, in path order: how many
    characters of the name before it it begins with (one base-36 digit, so at most 35), the rest of its name, a
    space, the first HASH_CHARS characters of its short sha-256. About half of the names written out in JSON."""
    lines, before = [], ""
    for name, (hashed, _) in files.items():
        same = 0
        while same < min(len(before), len(name), 35) and before[same] == name[same]:
            same += 1
        lines.append(f"{_base36(same)}{name[same:]} {hashed[:HASH_CHARS]}")
        before = name
    return "\n".join(lines)


def decoded(listing: str) -> dict[str, str]:
    """{name: hash} of a front_coded list (as the worker decodes it)."""
    files, name = {}, ""
    for line in listing.split("\n") if listing else []:
        coded, hashed = line.split(" ")
        name = name[:int(coded[0], 36)] + coded[1:]
        files[name] = hashed
    return files


def worker_data(digest: str, files: dict[str, tuple[str, int]], needs: dict[str, list[str]]) -> dict:
    """The worker's BUILD: its digest, the file list (front_coded), the live mode's folder, and each page's needs
    as base-36 indexes into that list, the files that every page of the book needs ("common") written once and
    named by a leading "+"."""
    index = {name: number for number, name in enumerate(files)}
    full = [set(need) for need in needs.values() if len(need) > 1]
    common = sorted(set.intersection(*full), key=index.get) if full else []
    pages = {}
    for page, need in needs.items():
        shared = bool(common) and set(common) <= set(need)
        rest = [name for name in need if not (shared and name in common)]
        pages[_base36(index[page])] = ("+" if shared else "") + ",".join(_base36(index[name]) for name in rest)
    return {"digest": digest, "files": front_coded(files), "common": ",".join(_base36(index[n]) for n in common),
            "pages": pages, "live": LIVE}


def manifest(title: str, start: str) -> dict:
    return {
        "name": title,
        "short_name": "루프라인",
        "lang": "ko",
        "dir": "ltr",
        "description": "GPU 성능 모델링 강의: 산술 강도, Roofline, 타일링, 점유율",
        "start_url": start,
        "scope": "./",
        "display": "standalone",
        "background_color": THEME["light"],
        "theme_color": APP_COLOUR,
        "icons": [{"src": icon, "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
                  for icon, size in zip(ICONS, (192, 512)) for purpose in ("any", "maskable")],
    }


def kept_files(outdir: Path, files: dict[str, tuple[str, int]] | None = None
               ) -> tuple[dict[str, tuple[str, int]], dict[str, list[str]]]:
    """(files, page needs): the files the worker knows — every page, what the pages need (`page_needs`), what a
    script loads on demand (the theme's menus), the manifest and its icons, and the live mode's files — in path
    order. Not what no page loads (the stylesheets that the bundles replaced, licence texts beside vendored code)
    nor the chapters' sources that the pages offer to download (for Colab or Jupyter, which need the network or
    a checkout anyway): the worker leaves those to the network, and its list stays short (it is on every first
    visit). `files`: `site_files(outdir)` if the caller has it already."""
    from coursebook.assets import LOADED_BY_SCRIPT, ON_DEMAND

    files = site_files(outdir) if files is None else files
    needs = page_needs(outdir, files)
    wanted = set(needs) | {name for need in needs.values() for name in need}
    wanted |= {MANIFEST, *ICONS, *(f"_static/{name}" for name in (*LOADED_BY_SCRIPT, ON_DEMAND))}
    # the records of the numbers' derivations (the pages' and the explorers'): in the list, so that "오프라인으로 모두 받아
    # 두기" takes them and every panel opens offline; a visit does not fetch them ahead (not a page's need)
    wanted |= {name for name in files if RECORDS.match(name)}
    return {name: entry for name, entry in files.items() if name in wanted or name.startswith(LIVE)}, needs


def write_worker(outdir: Path, landing: str | None = None, title: str = "", start: str = "index.html") -> str:
    """Manifest, landing control and worker of the built site `outdir`; returns the build's digest. Runs again
    on a build folder whose files changed (the tests' second build)."""
    outdir = Path(outdir)
    (outdir / UI).write_text(compact(UI_SOURCE.read_text(encoding="utf-8"), module=True), encoding="utf-8")
    (outdir / MANIFEST).write_text(json.dumps(manifest(title, start), ensure_ascii=False, indent=1) + "\n",
                                   encoding="utf-8")
    every = site_files(outdir)   # (read and hashed once: below, only the landing page changes)
    if landing and (outdir / landing).is_file():
        for _ in range(3):    # the control holds the sizes, which count the page that holds it
            files, _ = kept_files(outdir, every)
            live = sum(size for name, (_, size) in files.items() if name.startswith(LIVE))
            site = sum(size for _, size in files.values()) - live
            before = (outdir / landing).read_bytes()
            add_landing_control(outdir / landing, site, live)
            after = (outdir / landing).read_bytes()
            if after == before:
                break
            if landing in every:
                every[landing] = (short_hash(after), len(after))
    files, needs = kept_files(outdir, every)
    digest = build_digest(files)
    worker = ("const BUILD = " + json.dumps(worker_data(digest, files, needs), ensure_ascii=False,
                                            separators=(",", ":")) + ";\n"
              + compact(TEMPLATE.read_text(encoding="utf-8")))
    (outdir / WORKER).write_text(worker, encoding="utf-8")
    return digest


# ---- Sphinx -------------------------------------------------------------------------------------------

def page_context(app, pagename, templatename, context, doctree) -> None:
    """The manifest and the theme colours on every page of the site (not of the one-page print edition)."""
    if app.builder.name != "html":
        return
    pathto = context["pathto"]
    tags = [f'<link rel="manifest" href="{pathto(MANIFEST, 1)}">',
            f'<meta name="theme-color" media="(prefers-color-scheme: light)" content="{THEME["light"]}">',
            f'<meta name="theme-color" media="(prefers-color-scheme: dark)" content="{THEME["dark"]}">']
    context["metatags"] = context.get("metatags", "") + "\n" + "\n".join(tags) + "\n"


def finished(app, exception) -> None:
    if exception is not None or app.builder.name != "html" or not Path(app.outdir, "index.html").is_file() \
            or app.config.coursebook_dev:   # (`make serve`'s pages change under it: no worker keeps them)
        return   # the site only (not the print edition's singlehtml); a failed build has left no pages (no_half_built_site)
    landing = app.builder.get_target_uri(app.config.root_doc)
    write_worker(Path(app.outdir), landing, app.config.html_title or app.config.project, landing)


def setup(app):
    app.connect("html-page-context", page_context)
    app.connect("build-finished", finished, priority=990)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
