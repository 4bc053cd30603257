"""`make book` builds the pages again exactly when something they are built from changed (coursebook/built.py): on a
small checkout of its own (a git repository, as a clone is), never the real _build."""
from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from coursebook import built


@pytest.fixture
def book(tmp_path, monkeypatch) -> tuple[Path, Path]:
    """(checkout, build folder): two sources, a test, an execution cache with its database, and built pages."""
    root = tmp_path / "repo"
    for name, text in {"chapters/a.md": "# 가\n", "lib/roofline/course.toml": "[week4]\nN = 4096\n",
                       "tests/test_a.py": "", ".gitignore": "_build/\n"}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    build = root / "_build"
    for name in ("html/chapters/a.html", ".jupyter_cache/k/executed/x/base.ipynb"):
        (build / name).parent.mkdir(parents=True, exist_ok=True)
        (build / name).write_text(name, encoding="utf-8")
    with sqlite3.connect(build / ".jupyter_cache" / "k" / "global.db") as db:   # (a database SQLite can read)
        db.execute("CREATE TABLE runs (x)")
    db.close()
    monkeypatch.setenv("ROOFLINE_COURSE", str(root / "lib" / "roofline" / "course.toml"))
    built.record(build, root)
    assert built.fresh(build, root)
    return root, build


def later(path: Path) -> None:
    """Move the file's modification time on (a second build writes its files again)."""
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))


def rewritten(path: Path) -> None:
    """One byte of the file changed, its size and modification time kept (fuzz-2 FD10b, FD16): a content change."""
    stat, data = path.stat(), bytearray(path.read_bytes())
    data[0] ^= 1
    path.write_bytes(bytes(data))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


@pytest.mark.parametrize("change", ["source", "untracked source", "parameter file", "environment", "chapter run",
                                    "page changed", "page removed"])
def test_a_change_to_what_the_pages_are_built_from_or_to_a_page_builds_again(book, monkeypatch, change):
    root, build = book
    if change == "source":
        (root / "chapters" / "a.md").write_text("# 나\n", encoding="utf-8")
    elif change == "untracked source":
        (root / "chapters" / "b.md").write_text("# 다\n", encoding="utf-8")
    elif change == "parameter file":
        (root / "lib" / "roofline" / "course.toml").write_text("[week4]\nN = 2048\n", encoding="utf-8")
    elif change == "environment":
        monkeypatch.setenv("ROOFLINE_SOMETHING", "1")
    elif change == "chapter run":
        rewritten(build / ".jupyter_cache" / "k" / "executed" / "x" / "base.ipynb")
    elif change == "page changed":
        rewritten(build / "html" / "chapters" / "a.html")
    else:
        (build / "html" / "chapters" / "a.html").unlink()
    assert not built.fresh(build, root)
    assert not built.record_path(build).exists(), "a stale record stays: a failed build would pass for a good one"


def test_what_the_pages_are_not_built_from_builds_nothing(book):
    root, build = book
    (root / "tests" / "test_a.py").write_text("def test(): pass\n", encoding="utf-8")   # a test
    later(build / ".jupyter_cache" / "k" / "global.db")             # a lookup in the execution cache
    (build / "screenshots").mkdir()                                  # beside the pages, not among them
    assert built.fresh(build, root)
