"""The site offline: a service worker and a web app manifest, written by the build from its own file list.

Sphinx extension (registered by coursebook.sphinx_ext). At `build-finished`, after every other step has written
its files (priority 990), it
- lists the built site (`site_files`): every file a reader may open, with a short sha-256 of its bytes; the live
  mode's files (`_static/live/`) apart, since they are kept only when the reader runs the live mode or asks;
- names the build by the digest of that list (`build_digest`): the cache the worker fills is `rl-<digest>`;
- writes what each page needs (its styles, scripts, figures, fonts, explorer states and the scripts that load
  later) as indexes into that list (`page_needs`), so that the worker keeps a page whole when it is opened;
- puts the control "오프라인으로 모두 받아 두기" on the landing page, with the sizes of the site and of the live mode
  (formatted by roofline.show.fmt; the numbers are the build's own byte counts);
- writes `manifest.webmanifest` and `sw.js` at the site root (the worker's scope is the folder it is in: the
  site's base path, so a GitHub Pages project site works), the worker being `offline_sw.js` after one line
  holding the build's data.
At `html-page-context` each page gets the manifest's link and the theme colours of light and dark mode; every
page loads `_static/offline.js` (Jupyter Book names every script of _static; coursebook.assets defers it), which
registers the worker, shows "새 판이 있다 — 다시 불러오기" and runs the landing page's control.
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

WORKER = "sw.js"
MANIFEST = "manifest.webmanifest"
TEMPLATE = Path(__file__).with_name("offline_sw.js")
LIVE = "_static/live/"
# not for readers: Sphinx's build record and inventory, the worker itself, the unused translations of Sphinx
SKIPPED = (".buildinfo", "objects.inv", WORKER, "_static/locales/")
THEME = {"light": "#ffffff", "dark": "#14181e"}               # the page background of the two modes
APP_COLOUR = "#1f3a5f"                                         # the logo's
ICONS = ("_static/app-icon-192.png", "_static/app-icon-512.png")
LANDING_MARK = '<div class="rl-offline"'
_REF = re.compile(r'''\b(?:src|href)="([^"#?:]+)(?:[?#][^"]*)?"''')
_STATES = re.compile(r'"states":"([^"]+)"')
_WHY = re.compile(r'data-rl-why="([^"]+)"')   # the page's derivation records (coursebook.derivations)
_CSS_URL = re.compile(r"""url\(\s*['"]?([^'")?#]+)""")


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
    """{page: [files it loads]}: what its HTML names that is not another page (and the stylesheets' url()s, the
    explorer's states and the scripts that load more later) — not the live mode's files."""
    needs = {}
    for page in (p for p in files if p.endswith(".html")):
        path = outdir / page
        text = path.read_text(encoding="utf-8")
        found: list[str] = []
        for ref in _REF.findall(text.split("</head>")[0]) + re.findall(r'<img\b[^>]*\bsrc="([^"#?:]+)', text):
            name = _resolve(path, ref, outdir)
            if name in files and not name.endswith(".html") and name not in found:
                found.append(name)
        for ref in _STATES.findall(text) + _WHY.findall(text):   # explorer states, the numbers' derivations
            name = _resolve(path, ref, outdir)
            if name in files and name not in found:
                found.append(name)
        if "data-rl-explorer" in text:    # what explorer.js loads when an explorer starts
            from coursebook.assets import LOADED_BY_SCRIPT

            later = [f"_static/{name}" for name in LOADED_BY_SCRIPT]
            found += [name for name in later if name in files and name not in found]
        for css in [name for name in found if name.endswith(".css")]:
            for ref in _CSS_URL.findall((outdir / css).read_text(encoding="utf-8")):
                name = _resolve(outdir / css, ref, outdir)
                if name in files and name not in found:
                    found.append(name)
        needs[page] = [name for name in found if not name.startswith(LIVE)]
    return needs


def size_text(nbytes: int) -> str:
    from roofline.show import fmt

    return fmt.number(Fraction(nbytes, 2**20), 1) + " MiB"


def landing_control(site_bytes: int, live_bytes: int) -> str:
    """The landing page's control (offline.js gives it life; without the worker it stays hidden)."""
    site, live = size_text(site_bytes), size_text(live_bytes)
    return (f'{LANDING_MARK} hidden data-site-bytes="{site_bytes}" data-live-bytes="{live_bytes}">\n'
            '<h2 id="offline-keep">오프라인으로 읽기</h2>\n'
            '<p>한 번 연 페이지는 그림과 탐색기까지 이 기기에 남아, 인터넷이 끊겨도 다시 열린다. 사이트 전체를 미리 받아 둘 수도 있다.</p>\n'
            f'<p><button type="button" class="rl-offline-all" aria-describedby="rl-offline-site">오프라인으로 모두 받아 두기</button> '
            f'<span id="rl-offline-site">사이트 전체 {html.escape(site)}</span></p>\n'
            f'<p><button type="button" class="rl-offline-live" aria-describedby="rl-offline-live-size">실시간 계산까지 받아 두기</button> '
            f'<span id="rl-offline-live-size">Python 실행 환경(Pyodide)과 강의 라이브러리 {html.escape(live)} 더</span></p>\n'
            '<p><progress class="rl-offline-progress" max="1" value="0" hidden></progress> '
            '<span class="rl-offline-status" role="status"></span></p>\n'
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


def write_worker(outdir: Path, landing: str | None = None, title: str = "", start: str = "index.html") -> str:
    """Manifest, landing control and worker of the built site `outdir`; returns the build's digest. Runs again
    on a build folder whose files changed (the tests' second build)."""
    outdir = Path(outdir)
    (outdir / MANIFEST).write_text(json.dumps(manifest(title, start), ensure_ascii=False, indent=1) + "\n",
                                   encoding="utf-8")
    if landing and (outdir / landing).is_file():
        for _ in range(3):    # the control holds the sizes, which count the page that holds it
            files = site_files(outdir)
            live = sum(size for name, (_, size) in files.items() if name.startswith(LIVE))
            site = sum(size for _, size in files.values()) - live
            before = (outdir / landing).read_bytes()
            add_landing_control(outdir / landing, site, live)
            if (outdir / landing).read_bytes() == before:
                break
    files = site_files(outdir)
    digest = build_digest(files)
    names = list(files)
    index = {name: number for number, name in enumerate(names)}
    data = {
        "digest": digest,
        "files": [[name, hashed, size] for name, (hashed, size) in files.items()],
        "pages": {page: [index[n] for n in need] for page, need in page_needs(outdir, files).items()},
        "live": LIVE,
        "landing": landing or start,
    }
    worker = ("const BUILD = " + json.dumps(data, ensure_ascii=False, separators=(",", ":")) + ";\n"
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
            f'<meta name="theme-color" media="(prefers-color-scheme: dark)" content="{THEME["dark"]}">',
            f'<link rel="apple-touch-icon" href="{pathto(ICONS[0], 1)}">']
    context["metatags"] = context.get("metatags", "") + "\n" + "\n".join(tags) + "\n"


def compact(script: str) -> str:
    """The worker's source without its comments and indentation (it is fetched on every first visit)."""
    script = re.sub(r"\A/\*.*?\*/\n", "", script, flags=re.S)
    lines = (line.strip() for line in script.splitlines())
    return "\n".join(line for line in lines if line and not line.startswith("//")) + "\n"


def finished(app, exception) -> None:
    if exception is not None or app.builder.name != "html" or not Path(app.outdir, "index.html").is_file():
        return   # the site only (not the print edition's singlehtml); a failed build has left no pages (no_half_built_site)
    landing = app.builder.get_target_uri(app.config.root_doc)
    write_worker(Path(app.outdir), landing, app.config.html_title or app.config.project, landing)


def setup(app):
    app.connect("html-page-context", page_context)
    app.connect("build-finished", finished, priority=990)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
