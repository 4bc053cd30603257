"""Whether <build>/html is the build of what the pages are built from now, so that `make book` (and so `make test`)
builds the pages again only when one of those changed, as `make` does for a file.

What the pages are built from (`inputs`):
- every file of the checkout outside tests/ (`git ls-files --cached --others --exclude-standard`: the sources, the
  library, the tooling, the static files, the pins), by content;
- the book's execution cache: each chapter's run (its files but jupyter-cache's database, which a lookup writes to),
  by content; the database itself is opened and checked (`cache_damage`), and `make book` removes a damaged one;
- the parameter file the library reads (ROOFLINE_COURSE, else lib/roofline/course.toml), by content, and the
  ROOFLINE_* environment (but the tests' own variables, NOT_INPUTS, which no page depends on);
- the Python that builds, and the install stamp of its environment.
What was built (`pages`, `executed`): each file of <build>/html and of <build>/jupyter_execute (the executed
notebooks and their glue records, which `check` reads) by content, so that a page changed or removed after the
build is seen too, even one rewritten with the same size and time.

`coursebook book` and `coursebook refresh` remove the record (`forget`) before they build, so that a build
interrupted at any point leaves none, and write it (`record`) after a successful build, to <build>/html.built
(beside the published folder, not in it). `fresh` compares it with now (`make book` builds again when they
differ); `problems` says, for `make check`, what differs, changing nothing.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from roofline import params

ROOT = Path(__file__).resolve().parents[2]


NOT_INPUTS = {"ROOFLINE_KERNEL_LOG", "ROOFLINE_UV", "ROOFLINE_CHROMIUM", "ROOFLINE_SCREENSHOTS"}   # the tests' own


def checkout_files(root: Path = ROOT) -> list[str]:
    """The files a clone of the branch holds, with the working tree's untracked but not ignored ones."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=root,
                            capture_output=True, text=True)
    if listed.returncode == 0:
        return sorted(f for f in listed.stdout.splitlines() if (root / f).is_file())
    skip = {".git", ".venv", "_build", "build", "__pycache__"}
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*")
                  if p.is_file() and not skip & set(p.relative_to(root).parts))


def _stat_digest(folder: Path, skip: str = "") -> str:
    """A hash of every file under `folder` (but `skip`), by name and content: a page rewritten with the same size
    and time, or one byte of a state file changed, is a change."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")) if folder.is_dir() else []:
        if path.is_file() and not (skip and path.match(skip)):
            digest.update(f"{path.relative_to(folder).as_posix()}\0".encode() + _file_hash(path) + b"\n")
    return digest.hexdigest()


def _file_hash(path: Path) -> bytes:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.digest()


def cache_damage(build_dir: Path) -> list[str]:
    """Each execution cache database under <build>/.jupyter_cache that SQLite cannot read or finds damaged
    (`PRAGMA quick_check`), opened read-only: jupyter-cache would fail on it with a traceback."""
    import sqlite3

    found = []
    for db in sorted((build_dir / ".jupyter_cache").glob("*/global.db")):
        try:
            with sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True) as con:
                verdict = con.execute("PRAGMA quick_check").fetchone()[0]
            con.close()
        except sqlite3.Error as err:
            verdict = str(err)
        if verdict != "ok":
            found.append(f"{db.parent.relative_to(build_dir.parent).as_posix()}: {verdict}")
    return found


def repair_cache(build_dir: Path) -> None:
    """Before a run: a damaged execution cache (cache_damage) is removed, whole (it is only a cache: the chapters run
    again into a new one), and said so."""
    for line in cache_damage(build_dir):
        folder = build_dir.parent / line.split(":")[0]
        shutil.rmtree(folder, ignore_errors=True)
        print(f"{folder.relative_to(build_dir.parent).as_posix()}: 실행 캐시가 망가져 지웠다 ({line.split(': ', 1)[1]}). "
              "장을 다시 실행한다", file=sys.stderr)


def inputs(build_dir: Path, root: Path = ROOT) -> str:
    digest = hashlib.sha256()
    for name in checkout_files(root):
        if not name.startswith("tests/"):
            digest.update(name.encode() + b"\0" + hashlib.sha256((root / name).read_bytes()).digest())
    digest.update(_stat_digest(build_dir / ".jupyter_cache", skip="*.db*").encode())
    course = Path(os.environ.get(params.ENVIRONMENT) or params.DEFAULT_PATH)
    digest.update(course.read_bytes() if course.is_file() else b"")
    digest.update(json.dumps(sorted((k, v) for k, v in os.environ.items()
                                    if k.startswith("ROOFLINE_") and k not in NOT_INPUTS)).encode())
    stamp = Path(sys.prefix) / ".installed"
    digest.update(f"{sys.executable}\0{stamp.stat().st_mtime_ns if stamp.exists() else 0}".encode())
    return digest.hexdigest()


def record_path(build_dir: Path) -> Path:
    return build_dir / "html.built"


def _now(build_dir: Path, root: Path) -> dict[str, str]:
    # the executed notebooks and their glue records are the build's too (`check` reads the values from them)
    return {"inputs": inputs(build_dir, root), "pages": _stat_digest(build_dir / "html"),
            "executed": _stat_digest(build_dir / "jupyter_execute")}


def record(build_dir: Path, root: Path = ROOT) -> None:
    record_path(build_dir).write_text(json.dumps(_now(build_dir, root)), encoding="utf-8")


def forget(build_dir: Path) -> None:
    """Before a build: no record stays to vouch for pages that are about to change (a build interrupted at any
    point then leaves none, and the next `make book` builds again)."""
    record_path(build_dir).unlink(missing_ok=True)


def problems(build_dir: Path, root: Path = ROOT) -> list[str]:
    """Why <build>/html is not the finished build of the sources as they are now (empty: it is), without changing
    anything: each line names what and the one command that fixes it."""
    html, name = build_dir / "html", build_dir.name
    fix = "run `make book`"
    damaged = [f"{line} (the execution cache is damaged; `make book` removes it and runs the chapters again): {fix}"
               for line in cache_damage(build_dir)]
    if damaged:
        return damaged
    if not html.is_dir():
        return [f"{name}/html is missing: {fix}"]
    try:
        was = json.loads(record_path(build_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        was = None
    if not isinstance(was, dict):
        return [f"{name}/html is not a finished build (no build record: interrupted, or built by hand): {fix}"]
    now = _now(build_dir, root)
    found = []
    if was.get("inputs") != now["inputs"]:
        found.append(f"{name}/html was built from other sources, cache or environment than now: {fix}")
    if was.get("pages") != now["pages"]:
        found.append(f"{name}/html changed after its build (a page or file removed, added or rewritten): {fix}")
    if was.get("executed") != now["executed"]:
        found.append(f"{name}/jupyter_execute changed after the build (an executed notebook or glue record): {fix}")
    return found


def site_files(build_dir: Path, root: Path = ROOT) -> list[str]:
    """What the built site lacks: a page of _toc.yml missing or cut short (no closing </html>), a static file of
    _static/ missing or not the checkout's."""
    import yaml

    html, name = build_dir / "html", build_dir.name
    fix = "run `make book`"
    if not html.is_dir():
        return []
    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8")) or {}
    found = []
    for page in ["index", *toc_files(toc)]:
        built = html / f"{page}.html"
        if not built.is_file():
            found.append(f"{name}/html/{page}.html is missing (a page of _toc.yml): {fix}")
        elif not built.read_bytes().rstrip().endswith(b"</html>"):
            found.append(f"{name}/html/{page}.html is cut short (no closing </html>): {fix}")
    from coursebook.assets import compact_css
    from coursebook.minify import compacted, own_scripts

    static = root / "_static"
    # the build writes the course's own scripts compact, as ES modules whose imports name each other by digest
    # (minify.compact_scripts; all compacted at once: one Node process)
    compact = compacted({name: ((static / name).read_text(encoding="utf-8"), True) for name in own_scripts(static)},
                        versioned=True)
    # and its own stylesheets compact (assets.compact_stylesheets)
    compact.update((path.name, compact_css(path.read_text(encoding="utf-8"))) for path in static.glob("*.css"))
    for path in sorted(static.rglob("*")) if static.is_dir() else []:
        if path.is_file():
            rel = path.relative_to(static).as_posix()
            copy = html / "_static" / rel
            want = path.read_bytes()
            if rel in compact:
                want = compact[rel].encode("utf-8")
            if not copy.is_file():
                found.append(f"{name}/html/_static/{rel} is missing: {fix}")
            elif copy.read_bytes() != want:
                found.append(f"{name}/html/_static/{rel} differs from _static/{rel}: {fix}")
    return found


def toc_files(entry) -> list[str]:
    """Every `file:` (and `root:`) of _toc.yml, in reading order."""
    found = []
    if isinstance(entry, dict):
        for key in ("root", "file"):
            if isinstance(entry.get(key), str):
                found.append(entry[key].removesuffix(".md").removesuffix(".ipynb"))
        for value in entry.values():
            if isinstance(value, (list, dict)):
                found += toc_files(value)
    elif isinstance(entry, list):
        for item in entry:
            found += toc_files(item)
    return found


def fresh(build_dir: Path, root: Path = ROOT) -> bool:
    """Whether <build>/html is the build of the inputs as they are now (if not, the stale record is removed)."""
    path = record_path(build_dir)
    try:
        was = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        was = None
    if was == _now(build_dir, root) and not cache_damage(build_dir):
        return True
    path.unlink(missing_ok=True)
    return False
