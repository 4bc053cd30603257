"""The whole course as one printable PDF.

    python -m coursebook.pdf [--out _build/pdf/roofline-tiling.pdf] [--work _build/pdf] [--build-dir _build] [--no-build]
                             [--chapter w4_1_intensity]

1. `jupyter-book build . --builder singlehtml --path-output WORK` puts every page of _toc.yml, in course
   order, into one HTML page (WORK/_build/singlehtml/index.html). The chapters are not executed again: the build
   reads the site's run (BUILD/.jupyter_cache, linked from WORK/_build), so the PDF shows the numbers the local site
   shows; a chapter not run yet is run first into that cache, as `make book` runs it, under the checkout's lock. As
   `make book`, it refuses a course.toml that the parameter cells do not follow yet (a new term: `make refresh`).
2. That page is served on 127.0.0.1 and printed by headless Chromium (Debian's /usr/bin/chromium through
   Playwright, no network): every formula is MathML written at build time (tools/coursebook/mathml.py), the
   folded answers are opened, Hangul comes from the system's CJK fonts.
`--chapter STEM` prints the landing page and that one chapter (and the glossary its terms link to; a table of
contents and a configuration of their own in WORK, which build only the pages they list): what the suite's smoke test prints.
Needs no Makefile; `make pdf` can call it.
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("ROOFLINE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

# Open every folded answer and hidden cell input, wait for pictures and fonts.
PREPARE = """async () => {
  const style = document.createElement("style");   /* opened <details> fade in: print them fully drawn */
  style.textContent = "*, *::before, *::after { animation: none !important; transition: none !important; } " +
    "pre { white-space: pre-wrap !important; overflow-wrap: anywhere; } " +
    /* the whole paper width for the text; tables unclipped */
    ".bd-page-width, .bd-container__inner, .bd-article-container, .bd-main .bd-content { max-width: 100% !important; } " +
    ".bd-sidebar-primary, .bd-sidebar-secondary { display: none !important; } " +
    ".pst-scrollable-table-container { overflow: visible !important; } " +
    ".bd-article table { display: table !important; width: 100% !important; font-size: 0.85em; }";
  document.head.appendChild(style);
  document.querySelectorAll("details").forEach((d) => { d.open = true; });
  document.querySelectorAll(".toggle-hidden").forEach((e) => e.classList.remove("toggle-hidden"));
  document.querySelectorAll(".dropdown").forEach((e) => e.classList.add("toggle-shown"));
  const imgs = [...document.images];
  imgs.forEach((img) => { img.loading = "eager"; });
  await Promise.all(imgs.map((img) => img.complete ? null :
    new Promise((ok) => { img.addEventListener("load", ok); img.addEventListener("error", ok); })));
  await document.fonts.ready;
  const bad = [...document.images].filter((i) => i.naturalWidth === 0).map((i) => i.src);
  const text = document.body ? document.body.innerText : "";
  const raw = ["$$", "\\\\frac", "{glue"].filter((s) => text.includes(s));
  return {bad, raw, math: document.querySelectorAll(".math > math").length};
}"""

FOOTER = ('<div style="font-size:8px; width:100%; text-align:center; color:#666;">'
          '<span class="pageNumber"></span> / <span class="totalPages"></span></div>')


def one_chapter(work: Path, stem: str) -> list[str]:
    """jupyter-book options that build the landing page and chapters/STEM only (files written into WORK)."""
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = [c["file"] for part in toc.get("parts", []) for c in part.get("chapters", [])]
    if f"chapters/{stem}" not in files:
        raise SystemExit(f"--chapter {stem}: _toc.yml에 없는 장이다 (있는 장: {', '.join(f.split('/')[-1] for f in files)})")
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    config["only_build_toc_files"] = True
    work.mkdir(parents=True, exist_ok=True)
    (work / "_toc.yml").write_text(yaml.safe_dump({"format": "jb-book", "root": toc["root"],
                                                   "chapters": [{"file": f"chapters/{stem}"},
                                                                {"file": "chapters/glossary"}]}), encoding="utf-8")
    (work / "_config.yml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return ["--toc", str(work / "_toc.yml"), "--config", str(work / "_config.yml")]


def build(work: Path, quiet: bool = True, chapter: str | None = None, build_dir: Path = ROOT / "_build") -> Path:
    """Single-page build of the book (or of CHAPTER) into WORK from the site's run of each chapter (BUILD_DIR's
    execution cache); returns the folder holding index.html."""
    from coursebook import bookrun, lock
    from coursebook.__main__ import chapter_sources

    jb = Path(sys.executable).with_name("jupyter-book")
    sources = [md for md in chapter_sources() if chapter in (None, md.stem)]
    with lock.held(build_dir, "make pdf"):
        options = one_chapter(work, chapter) if chapter else []
        bookrun.ensure(sources, build_dir)   # (nothing runs when the site is built)
        shutil.rmtree(work / "_build", ignore_errors=True)   # a page left by an earlier build is never printed
        (work / "_build").mkdir(parents=True)
        # sphinx_ext keys the execution cache under the output's parent: there, the site's
        (work / "_build" / ".jupyter_cache").symlink_to(build_dir.resolve() / ".jupyter_cache", target_is_directory=True)
        cmd = [str(jb), "build", str(ROOT), "--builder", "singlehtml", "--path-output", str(work),
               "--keep-going"] + (["--quiet"] if quiet else []) + options
        subprocess.run(cmd, check=True, cwd=ROOT)
    out = work / "_build" / "singlehtml"
    if not (out / "index.html").is_file():
        raise SystemExit(f"singlehtml build produced no {out / 'index.html'}")
    return out


@contextlib.contextmanager
def serve(root: Path):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def entry_page(site: Path) -> str:
    """The single page, placed at the top of SITE. Jupyter Book's index.html only redirects to the root
    document (chapters/index.html), whose links are written relative to the top folder ("_static/…",
    "_images/…"): a copy beside index.html resolves them."""
    index = (site / "index.html").read_text(encoding="utf-8")
    match = re.search(r'http-equiv="Refresh" content="0; url=([^"]+)"', index)
    if not match:
        return "index.html"
    single = site / "_course.html"
    single.write_text((site / match.group(1)).read_text(encoding="utf-8"), encoding="utf-8")
    return single.name


def print_pdf(site: Path, out: Path) -> dict:
    """Print SITE/index.html to OUT (A4, backgrounds, page numbers); returns what PREPARE found."""
    from playwright.sync_api import sync_playwright

    out.parent.mkdir(parents=True, exist_ok=True)
    with serve(site) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1100, "height": 1400}, color_scheme="light")
        context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(base) else r.abort())
        page = context.new_page()
        page.add_init_script('localStorage.setItem("mode", "light"); localStorage.setItem("theme", "light");')
        page.goto(base + entry_page(site), wait_until="load")
        page.emulate_media(media="print")
        report = page.evaluate(PREPARE)
        page.pdf(path=str(out), format="A4", scale=0.9, print_background=True, display_header_footer=True,
                 header_template="<div></div>", footer_template=FOOTER,
                 margin={"top": "16mm", "bottom": "16mm", "left": "14mm", "right": "14mm"})
        browser.close()
    return report


def main(argv: list[str] | None = None) -> int:
    from coursebook import bookrun
    from coursebook.__main__ import STOPPED, said_stale_term, stopped
    from roofline import params

    parser = argparse.ArgumentParser(prog="python -m coursebook.pdf", description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, default=ROOT / "_build" / "pdf",
                        help="folder for the single-page build (default _build/pdf)")
    parser.add_argument("--out", type=Path, default=None,
                        help="PDF file (default WORK/roofline-tiling.pdf)")
    parser.add_argument("--no-build", action="store_true", help="print an existing singlehtml build")
    parser.add_argument("--chapter", metavar="STEM", help="print the landing page and this chapter only")
    parser.add_argument("--build-dir", type=Path, default=ROOT / "_build",
                        help="the site's build folder, whose run of each chapter is printed (default: _build)")
    args = parser.parse_args(argv)
    work = args.work.resolve()
    out = (args.out or work / "roofline-tiling.pdf").resolve()
    start = time.time()
    try:
        if not args.no_build and said_stale_term(params.load(), "PDF를"):
            return 4
        site = work / "_build" / "singlehtml" if args.no_build else build(work, chapter=args.chapter,
                                                                         build_dir=args.build_dir.resolve())
    except STOPPED as err:   # (course.toml, a parameter cell, another run holding the checkout, Ctrl-C)
        return stopped(err)
    except bookrun.ChapterFailed as err:
        print(err, file=sys.stderr)
        return 3
    if not Path(CHROMIUM).is_file():   # (a machine without it: one line, not Playwright's traceback)
        print(f"{CHROMIUM}이 없다: PDF는 Chromium으로 인쇄한다. `make system-deps`로 설치하자", file=sys.stderr)
        return 2
    try:
        report = print_pdf(site, out)
    except KeyboardInterrupt as err:
        return stopped(err)
    problems = []
    if report["bad"]:
        problems.append(f"images not loaded: {report['bad']}")
    if report["raw"]:
        problems.append(f"raw markup visible: {report['raw']}")
    print(f"{out}: {out.stat().st_size:,} bytes, {report['math']} formulas, {time.time() - start:.0f} s")
    for problem in problems:
        print("problem:", problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
