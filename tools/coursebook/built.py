"""Whether <build>/html is the build of what the pages are built from now, so that `make book` (and so `make test`)
builds the pages again only when one of those changed, as `make` does for a file.

What the pages are built from (`inputs`):
- every file of the checkout outside tests/ (`git ls-files --cached --others --exclude-standard`: the sources, the
  library, the tooling, the static files, the pins), by content;
- the book's execution cache: each chapter's run (its files but jupyter-cache's database, which a lookup writes to),
  by size and modification time;
- the parameter file the library reads (ROOFLINE_COURSE, else lib/roofline/course.toml), by content, and the
  ROOFLINE_* environment;
- the Python that builds, and the install stamp of its environment.
What was built (`pages`): each file of <build>/html by size and modification time, so that a page changed or removed
after the build is seen too.

After a successful build the Makefile runs `record`, which writes both to <build>/html.built (beside the published
folder, not in it); `fresh` compares them with now and, when they differ, removes the record before the pages are
built again, so that a build that fails leaves none.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

from roofline import params

ROOT = Path(__file__).resolve().parents[2]


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
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")) if folder.is_dir() else []:
        if path.is_file() and not (skip and path.match(skip)):
            stat = path.stat()
            digest.update(f"{path.relative_to(folder).as_posix()}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def inputs(build_dir: Path, root: Path = ROOT) -> str:
    digest = hashlib.sha256()
    for name in checkout_files(root):
        if not name.startswith("tests/"):
            digest.update(name.encode() + b"\0" + hashlib.sha256((root / name).read_bytes()).digest())
    digest.update(_stat_digest(build_dir / ".jupyter_cache", skip="*.db*").encode())
    course = Path(os.environ.get(params.ENVIRONMENT) or params.DEFAULT_PATH)
    digest.update(course.read_bytes() if course.is_file() else b"")
    digest.update(json.dumps(sorted((k, v) for k, v in os.environ.items() if k.startswith("ROOFLINE_"))).encode())
    stamp = Path(sys.prefix) / ".installed"
    digest.update(f"{sys.executable}\0{stamp.stat().st_mtime_ns if stamp.exists() else 0}".encode())
    return digest.hexdigest()


def record_path(build_dir: Path) -> Path:
    return build_dir / "html.built"


def _now(build_dir: Path, root: Path) -> dict[str, str]:
    return {"inputs": inputs(build_dir, root), "pages": _stat_digest(build_dir / "html")}


def record(build_dir: Path, root: Path = ROOT) -> None:
    record_path(build_dir).write_text(json.dumps(_now(build_dir, root)), encoding="utf-8")


def fresh(build_dir: Path, root: Path = ROOT) -> bool:
    """Whether <build>/html is the build of the inputs as they are now (if not, the stale record is removed)."""
    path = record_path(build_dir)
    try:
        was = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        was = None
    if was == _now(build_dir, root):
        return True
    path.unlink(missing_ok=True)
    return False
