"""`make serve`: the author's loop. Builds the site into _build/dev/html, serves it on http://127.0.0.1:PORT/ and,
whenever a source changes, builds again what the change touches; the open page reloads itself when the build is done.

- The same Sphinx configuration as `make book` (Jupyter Book's own `build_sphinx`, _config.yml and _toc.yml), run in
  this process (no interpreter and imports to start again: the build is most of a second on a quiet machine), as an
  incremental Sphinx build: a chapter's prose edit reads and writes that page again.
- A chapter runs again only if its code changed (jupyter-cache's key) or a library file it imports did (`imports`:
  the modules its code cells name, with what they import, read from the source; course.toml always). Its run is kept
  in the development cache (_build/dev/.jupyter_cache/dev); the first `make serve` after `make book` takes the book's
  runs from the book's cache and runs nothing.
- Not the published site: the pages are what Sphinx writes plus what they need to work (coursebook.assets.dev_finished);
  the whole-site cutting and compacting, the service worker and the term lock are `make book`'s alone. The reload
  script and the "개발용 미리보기" mark are added by the server to the pages it sends, never written to a file.
- Sphinx's incremental build has known gaps (a deleted word stays in the search index; a glossary term another page
  links may need that page saved again): `make book` is always a whole, clean build.

Polls the files' modification times (stdlib only): chapters/, _static/, _templates/, lib/roofline/, tools/coursebook/,
_config.yml, _toc.yml, references.bib.
"""
from __future__ import annotations

import argparse
import ast
import hashlib
import http.server
import json
import logging
import shutil
import sys
import threading
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEV = ROOT / "_build" / "dev"
HTML = DEV / "html"
LIB = ROOT / "lib"
FINGERPRINTS = DEV / "runs.json"       # chapter → digest of the library files its run read (`imports`)
WATCHED = ("chapters/*.md", "_static/**/*", "_templates/**/*", "lib/roofline/**/*.py", "lib/roofline/**/*.toml",
           "tools/coursebook/**/*.py", "_config.yml", "_toc.yml", "references.bib")
POLL_S = 0.25


# ---- what a chapter's run depends on -------------------------------------------------------------------------

def _module_file(name: str) -> Path | None:
    """lib/'s file of module `name` ("roofline.show.pages.w4_3_tiling"), or None (not the course's library)."""
    base = LIB.joinpath(*name.split("."))
    for path in (base / "__init__.py", base.with_suffix(".py")):
        if path.is_file():
            return path
    return None


def _imported(tree: ast.AST, package: str) -> set[str]:
    """The module names an AST imports (at any depth: a function's import counts), `package` resolving relative ones."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)   # `from pkg import module`
    return names


_PARSED: dict[Path, tuple[int, set[str]]] = {}   # a library file → (its mtime, the names it imports)


def _imported_by(path: Path, package: str) -> set[str]:
    mtime = path.stat().st_mtime_ns
    if _PARSED.get(path, (None,))[0] != mtime:
        _PARSED[path] = (mtime, _imported(ast.parse(path.read_text(encoding="utf-8")), package))
    return _PARSED[path][1]


def imports(code: str) -> set[Path]:
    """The course library's files that `code` (a chapter's code cells) imports, and the ones they import, each
    package's __init__.py with its modules; every .toml of the library (course.toml: the parameters every chapter
    reads). Read from the source: a module imported by name at run time (importlib) is not followed."""
    found = set(LIB.glob("roofline/**/*.toml"))
    todo = [(name, "") for name in _imported(ast.parse(code), "")]
    while todo:
        name, _ = todo.pop()
        parts = name.split(".")
        for cut in range(1, len(parts) + 1):   # the packages on the way: importing a.b.c runs a/__init__, a/b/__init__
            path = _module_file(".".join(parts[:cut]))
            if path is None or path in found:
                continue
            found.add(path)
            package = ".".join(parts[:cut]) if path.name == "__init__.py" else ".".join(parts[:cut - 1])
            todo += [(n, package) for n in _imported_by(path, package)]
    return found


_NOTEBOOKS: dict[Path, tuple[int, object]] = {}   # a chapter → (its mtime, the notebook the book reads)


def notebook(md: Path):
    """The chapter as the book reads it (bookrun.book_notebook), read again only when the file changed."""
    from coursebook import bookrun

    mtime = md.stat().st_mtime_ns
    if _NOTEBOOKS.get(md, (None,))[0] != mtime:
        _NOTEBOOKS[md] = (mtime, bookrun.book_notebook(md))
    return _NOTEBOOKS[md][1]


def code_of(nb) -> str:
    """A notebook's code cells, IPython's magics and shell lines left out."""
    cells = [c.source for c in nb.cells if c.cell_type == "code"]
    return "\n".join(line for cell in cells for line in cell.splitlines() if not line.lstrip().startswith(("%", "!")))


def fingerprint(nb) -> str:
    """The digest of the library files a chapter's run reads (names and bytes)."""
    digest = hashlib.sha256()
    for path in sorted(imports(code_of(nb))):
        digest.update(path.relative_to(LIB).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


# ---- the chapters' runs ------------------------------------------------------------------------------------

def chapters() -> list[Path]:
    return sorted(p for p in (ROOT / "chapters").glob("*.md")
                  if "kernelspec:" in p.read_text(encoding="utf-8", errors="replace")[:600])


_CHECKED: dict[Path, tuple[int, str]] = {}   # a chapter → (its mtime, fingerprint) when its run was last found


def fresh_runs() -> list[str]:
    """Keep the development cache's run of each chapter only while what it imports is unchanged (else it is dropped
    and runs again, as many side by side as there are cores); a chapter the cache lacks takes the book's run when the
    book's cache has it. Returns the docnames of the chapters run again (Sphinx reads them again)."""
    from coursebook import bookrun
    from coursebook.sphinx_ext import DEV_CACHE

    was = json.loads(FINGERPRINTS.read_text(encoding="utf-8")) if FINGERPRINTS.is_file() else {}
    dev, book = bookrun.cache_of(DEV, DEV_CACHE), bookrun.cache_of(ROOT / "_build")
    now, again = {}, []
    for md in chapters():
        nb = notebook(md)
        now[md.name] = fingerprint(nb)
        if _CHECKED.get(md) == (md.stat().st_mtime_ns, now[md.name]) and was.get(md.name) == now[md.name]:
            continue   # as at the last build, which left its run in the cache
        _CHECKED[md] = (md.stat().st_mtime_ns, now[md.name])
        if was.get(md.name) not in (None, now[md.name]):
            try:
                dev.remove_cache(dev.match_cache_notebook(nb).pk)
            except KeyError:
                pass
        if bookrun.cached(dev, nb) is None:
            from jupyter_cache.base import CacheBundleIn

            ran = bookrun.cached(book, nb) if was.get(md.name) in (None, now[md.name]) else None
            if ran is not None:   # the book's run, of the library as it is now (its cache is keyed on the library)
                dev.cache_notebook_bundle(CacheBundleIn(ran, str(md)), check_validity=False, overwrite=True)
            else:
                again.append(md)
    if again:
        print(f"running {', '.join(md.stem for md in again)}", flush=True)
        bookrun.ensure(again, DEV, ROOT, measure_alone=False, cache_key=DEV_CACHE)
    DEV.mkdir(parents=True, exist_ok=True)
    FINGERPRINTS.write_text(json.dumps(now, indent=1, sort_keys=True), encoding="utf-8")
    return [f"chapters/{md.stem}" for md in again]


# ---- the build ---------------------------------------------------------------------------------------------

def build(reread: list[str]) -> bool:
    """One incremental Sphinx build of _build/dev/html with the book's configuration; True when it succeeded."""
    from jupyter_book.sphinx import build_sphinx

    overrides = {"external_toc_path": (ROOT / "_toc.yml").as_posix(), "nitpicky": True, "latex_individualpages": False,
                 "coursebook_dev": True, "coursebook_reread": reread}
    result = build_sphinx(ROOT, HTML, noconfig=True, path_config=str(ROOT / "_config.yml"), confoverrides=overrides,
                          quiet=True, keep_going=True)
    return result == 0


def forget_modules() -> None:
    """The course's library and this tooling imported afresh by the next build (an edited page module is read again);
    this module stays (it is running)."""
    for name in [n for n in sys.modules if n.split(".")[0] in ("roofline", "coursebook")]:
        if name not in ("coursebook", __name__):
            del sys.modules[name]
    _NOTEBOOKS.clear()


def copy_static(changed: list[Path]) -> None:
    """Sphinx 7 copies a static file only when the output lacks it: an edited one is copied here (the development
    build leaves the site's scripts and stylesheets as they are in _static/)."""
    for path in changed:
        rel = path.relative_to(ROOT / "_static")
        if path.is_file():
            (HTML / "_static" / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, HTML / "_static" / rel)


# ---- the server ----------------------------------------------------------------------------------------------

STATE = {"build": 0, "ok": True}
MARK = """<div id="rl-dev-mark" style="position:fixed;right:.5rem;bottom:.5rem;z-index:2000;padding:.2rem .5rem;\
border-radius:.3rem;background:#7a2e00;color:#fff;font:600 .8rem system-ui,sans-serif">개발용 미리보기 (make serve)</div>
<script>(() => {
  if (navigator.serviceWorker) navigator.serviceWorker.getRegistrations().then((all) => all.forEach((w) => w.unregister()));
  const mark = document.getElementById("rl-dev-mark");
  let seen = null;
  const poll = () => fetch("/__serve__/state", {cache: "no-store"}).then((r) => r.json()).then((s) => {
    if (seen !== null && s.build !== seen && s.ok) location.reload();
    mark.textContent = s.ok ? "개발용 미리보기 (make serve)" : "빌드 실패: make serve의 터미널을 보자";
    seen = s.build;
  }).catch(() => {}).finally(() => setTimeout(poll, 300));
  poll();
})();</script>
"""


# what the pages register as their service worker (offline.WORKER, which the development build does not write): one
# that removes itself, so that no worker keeps a page of an earlier build
NO_WORKER = b"""self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", () => self.registration.unregister());
"""


class Handler(http.server.SimpleHTTPRequestHandler):
    """The development build's files, never cached; each HTML page with the mark and the reload script."""

    def do_GET(self):
        from coursebook.offline import WORKER

        if self.path.split("?")[0] == "/__serve__/state":
            return self._send(json.dumps(STATE).encode(), "application/json")
        if self.path.split("?")[0] == f"/{WORKER}":
            return self._send(NO_WORKER, "text/javascript")
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if path.suffix == ".html" and path.is_file():
            text = path.read_text(encoding="utf-8")
            at = text.rfind("</body>")
            return self._send((text[:at] + MARK + text[at:] if at >= 0 else text + MARK).encode(), "text/html; charset=utf-8")
        return super().do_GET()

    def _send(self, body: bytes, kind: str):
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, *args):
        pass


def serve(port: int, folder: Path = HTML) -> http.server.ThreadingHTTPServer:
    """`folder` on 127.0.0.1:`port` (0: a free port, server.server_port), in a thread of its own."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), partial(Handler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


# ---- the loop ------------------------------------------------------------------------------------------------

def snapshot() -> dict[Path, tuple[int, int]]:
    found = {}
    for pattern in WATCHED:
        for path in ROOT.glob(pattern):
            if path.is_file() and "__pycache__" not in path.parts:
                stat = path.stat()
                found[path] = (stat.st_mtime_ns, stat.st_size)
    return found


def rebuild(changed: list[Path]) -> None:
    started = time.perf_counter()
    if any(p.suffix == ".py" or p.is_relative_to(LIB) for p in changed):
        forget_modules()
    copy_static([p for p in changed if p.is_relative_to(ROOT / "_static")])
    try:
        ok = build(fresh_runs())
    except Exception as err:   # a chapter that fails to run, a build that stops: said, and the last pages kept
        print(f"{type(err).__name__}: {err}", file=sys.stderr, flush=True)
        ok = False
    STATE.update(build=STATE["build"] + 1, ok=ok)
    names = ", ".join(sorted({p.relative_to(ROOT).as_posix() for p in changed})[:3]) or "everything"
    print(f"{'built' if ok else 'FAILED'} in {time.perf_counter() - started:.1f} s ({names})", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m coursebook.serve", description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--once", action="store_true", help="build once and stop (no server)")
    args = parser.parse_args(argv)
    for noisy in ("fontTools", "traitlets"):   # (the font subsetter logs each table, nbclient each run, at INFO)
        logging.getLogger(noisy).setLevel(logging.WARNING)
    before = snapshot()
    rebuild([])
    if args.once:
        return 0 if STATE["ok"] else 1
    serve(args.port)
    print(f"http://127.0.0.1:{args.port}/ (Ctrl-C to stop; the published site is `make book`'s)", flush=True)
    try:
        while True:
            time.sleep(POLL_S)
            now = snapshot()
            if now == before:
                continue
            time.sleep(POLL_S)            # an editor writing in several steps: the files as they are after it
            now = snapshot()
            changed = sorted(p for p in now.keys() | before.keys() if now.get(p) != before.get(p))
            before = now
            rebuild(changed)
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
