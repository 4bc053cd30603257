"""`make check` says "up to date" of the built site only when it is (coursebook/built.py `problems`, `site_files`):
every page of _toc.yml there and whole, every static file there and the checkout's, the build record matching the
pages and the executed notebooks on disk; each stale thing named with `make book`, the command that fixes it.
On a small checkout of its own (a git repository, as a clone is), never the real _build."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from coursebook import built, lock
from coursebook.assets import compact_css

TOC = "format: jb-book\nroot: chapters/index\nchapters:\n  - file: chapters/a\n  - file: chapters/b.md\n"
PAGE = "<!DOCTYPE html>\n<html lang=\"ko\"><body>가</body>\n</html>\n"


@pytest.fixture
def book(tmp_path, monkeypatch) -> tuple[Path, Path]:
    """(checkout, build folder): a table of contents of three pages, a static file, their finished build."""
    root = tmp_path / "repo"
    for name, text in {"_toc.yml": TOC, "chapters/index.md": "# 첫\n", "chapters/a.md": "# 가\n",
                       "chapters/b.md": "# 나\n", "_static/x.css": "p {}\n", "lib/roofline/course.toml": "",
                       ".gitignore": "_build/\n"}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    build = root / "_build"
    for name, text in {"html/index.html": PAGE, "html/chapters/index.html": PAGE, "html/chapters/a.html": PAGE,
                       "html/chapters/b.html": PAGE, "html/_static/x.css": compact_css("p {}\n"),   # (as built)
                       "jupyter_execute/chapters/a.glue.json": "{}"}.items():
        (build / name).parent.mkdir(parents=True, exist_ok=True)
        (build / name).write_text(text, encoding="utf-8")
    monkeypatch.setenv("ROOFLINE_COURSE", str(root / "lib" / "roofline" / "course.toml"))
    built.record(build, root)
    assert not built.problems(build, root) and not built.site_files(build, root)
    return root, build


def said(build: Path, root: Path) -> list[str]:
    return built.problems(build, root) + built.site_files(build, root)


@pytest.mark.parametrize("fault, named", [
    ("page removed", "chapters/a.html is missing"),
    ("page cut short", "chapters/b.html is cut short"),
    ("static file removed", "_static/x.css is missing"),
    ("static file changed", "_static/x.css differs"),
    ("glue record removed", "jupyter_execute changed"),
    ("all pages removed", "_build/html is missing"),
    ("no build record (interrupted)", "not a finished build"),
    ("page rewritten, same size and time", "changed after its build"),
    ("state file, one byte, same size and time", "changed after its build"),
    ("execution cache damaged", "the execution cache is damaged"),
])
def test_a_broken_site_is_named_with_make_book(book, fault, named):
    root, build = book
    html = build / "html"
    if fault == "page removed":
        (html / "chapters" / "a.html").unlink()
    elif fault == "page cut short":
        (html / "chapters" / "b.html").write_text(PAGE[:40], encoding="utf-8")
    elif fault == "static file removed":
        (html / "_static" / "x.css").unlink()
    elif fault == "static file changed":
        (html / "_static" / "x.css").write_text("p { color: red }\n", encoding="utf-8")
    elif fault == "glue record removed":
        (build / "jupyter_execute" / "chapters" / "a.glue.json").unlink()
    elif fault == "all pages removed":
        import shutil

        shutil.rmtree(html)
    elif fault.startswith(("page rewritten", "state file")):
        path = html / ("chapters/b.html" if fault.startswith("page") else "_static/states/x.json")
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text('{"N": 4096}', encoding="utf-8")
            built.record(build, root)
        stat, data = path.stat(), path.read_bytes()
        path.write_bytes(data[:10] + b" " * (len(data) - 10) if fault.startswith("page") else data.replace(b"4", b"5"))
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    elif fault == "execution cache damaged":
        db = build / ".jupyter_cache" / "k" / "global.db"
        db.parent.mkdir(parents=True)
        db.write_bytes(bytes(range(256)) * 16)
    else:
        built.forget(build)
    lines = said(build, root)
    assert lines and any(named in line for line in lines), lines
    assert all(line.endswith("run `make book`") for line in lines), lines
    assert not built.fresh(build, root)   # and `make book` builds again: the check's fix is not "not built again"
    if fault == "execution cache damaged":   # `make book` removes it first (bookrun.ensure), and check sees no damage
        built.repair_cache(build)
        assert not built.cache_damage(build) and not (build / ".jupyter_cache" / "k").exists()


def test_a_second_run_is_refused_naming_the_first(tmp_path):
    with lock.held(tmp_path, "make refresh"):
        with pytest.raises(lock.Busy, match=r"^이미 실행 중: make refresh \(pid \d+, "):
            with lock.held(tmp_path, "make book"):
                pass
    with lock.held(tmp_path, "make book"):   # released when the first ends
        assert lock.holder(tmp_path)["command"] == "make book"


def test_a_killed_run_leaves_no_lock(tmp_path):
    """The lock is the kernel's: a run killed by SIGKILL holds it no more; its file names a pid that is gone."""
    import sys

    held = subprocess.Popen([sys.executable, "-c", "import sys, time\nsys.path[:0] = sys.argv[2:]\n"
                             "from pathlib import Path\nfrom coursebook import lock\n"
                             "with lock.held(Path(sys.argv[1]), 'make book'):\n    print('held', flush=True)\n"
                             "    time.sleep(600)\n", str(tmp_path), *sys.path], stdout=subprocess.PIPE, text=True)
    try:
        assert held.stdout.readline().strip() == "held"
        with pytest.raises(lock.Busy):
            with lock.held(tmp_path, "make book"):
                pass
    finally:
        held.kill()
        held.wait()
    assert lock.holder(tmp_path)["pid"] == held.pid and not lock.alive(held.pid)
    with lock.held(tmp_path, "make refresh"):
        assert lock.holder(tmp_path)["command"] == "make refresh"
