"""A chapter that fails, outlives the timeout or loses its kernel fails the build, naming the chapter and the
cell, and writes no page of it: `make book` keeps the previous site as it was (a failed command never deletes a
working site, and `make check` says it is not the build of these sources); Sphinx alone leaves no page.

A copy of the repository gets chapters sabotaged (the other chapters come from a copy of the execution cache,
so only the sabotaged ones run) and is built both ways a chapter can be executed:
- `make book` (the chapters run before Sphinx, side by side, bookrun): the three cases in one build, each in a
  chapter of its own; the failure must name each chapter with its own cause and cell;
- Sphinx alone with the chapters not in the cache (the book's extension runs them before it reads a page, as
  `make book` does, sphinx_ext.run_missing_chapters): the two cases that fail at once in one build, each in a chapter of
  its own, named with its own cause and cell.
A good build is there before (the one under test, copied), so a page left from it would be caught too.

(A `make book` stopped midway through the Sphinx build, and the next one that repairs it: tests/flows/test_reproducible.py,
whose second build it is. A page, a glue record or a static file removed after a build: tests/tooling/test_site_check.py,
on a small build folder of its own. A `make refresh` whose site build fails, F-1: the instructor's first move in
tests/flows/test_instructor.py, whose new term rewrites every file a refresh writes.)
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from browser_helpers import html_dir
from course_copies import check_copy, checkout_tree, copy_caches, copy_checkout, env_for, run_make, tree

pytestmark = pytest.mark.heavy(120)   # rough seconds, for the order of the run (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(sys.prefix)
IN_ONE_BUILD = {"raises": "w4_1_intensity", "times-out": "w4_summary", "kernel-killed": "w4_4_tile_size"}   # make book
SPHINX_ALONE = ("raises", "kernel-killed")   # in one Sphinx build (no case that waits for the timeout)
# The timed-out chapter's own timeout (myst-nb's per-file `mystnb: execution_timeout` in its front matter, which
# bookrun.timeout_of reads as myst-nb does), which the times-out case waits out. It bounds every cell of that chapter,
# so it must exceed its slowest normal cell on a busy machine (w4_summary's: 0.4 s with the load at 11 on 2 cores);
# several times that, no more: the wait is idle time of the suite. The other chapters keep the book's timeout (their
# figure cells took 3.0-3.4 s at that load).
TIMEOUT_S = 3

SABOTAGE = {   # a code cell appended to the chapter, and what the error must say
    "raises": ("raise RuntimeError('부러 낸 오류')", r"RuntimeError.*부러 낸 오류"),
    "times-out": ("import time\ntime.sleep(10 * 60)", r"timed out|CellTimeoutError"),
    "kernel-killed": ("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)", r"kernel died|DeadKernelError"),
}


def sphinx_only(repo: Path) -> subprocess.CompletedProcess:
    """The Makefile's BUILD command (pages from the cache; a chapter not in it is executed by myst-nb)."""
    build = re.search(r"^BUILD\s*:=\s*(.+)$", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M)[1]
    build = build.replace("$(JB)", str(VENV / "bin" / "jupyter-book"))
    return subprocess.run(["bash", "-c", build], cwd=repo, env=env_for(repo), capture_output=True, text=True,
                          timeout=1200)


@pytest.fixture(scope="module")
def good_copy(tmp_path_factory) -> Path:
    """A copy of the checkout with the execution cache and a good build in _build/html (every page there)."""
    copy = tmp_path_factory.mktemp("failures") / "good"
    copy_caches(copy_checkout(copy))
    if (ROOT.parent / "shared").is_dir():
        (copy.parent / "shared").symlink_to(ROOT.parent / "shared")
    # the good build is the one `make test` made of this very checkout (the same sources, cache and tooling), so
    # it is copied rather than made again
    shutil.copytree(html_dir(), copy / "_build" / "html")
    assert all((copy / "_build" / "html" / "chapters" / f"{c}.html").exists() for c in IN_ONE_BUILD.values())
    return copy


def copy_of(good: Path, where: Path) -> Path:
    """A copy of `good` in `where`/repo, the source documents beside it as beside `good`."""
    repo = where / "repo"
    shutil.copytree(good, repo, symlinks=True)
    if (good.parent / "shared").exists():
        (where / "shared").symlink_to((good.parent / "shared").resolve())
    return repo


def sabotaged(good: Path, tmp_path: Path, cases: dict[str, str]) -> Path:
    """A copy of `good` whose chapter cases[case] ends with the sabotage of each case."""
    repo = copy_of(good, tmp_path)
    for case, chapter in cases.items():
        md = repo / "chapters" / f"{chapter}.md"
        text = md.read_text(encoding="utf-8").rstrip("\n")
        if case == "times-out":   # its own timeout, in the front matter's first lines
            assert text.startswith("---\n"), f"{chapter}.md has no front matter"
            text = f"---\nmystnb:\n  execution_timeout: {TIMEOUT_S}\n" + text[len("---\n"):]
        md.write_text(text + f"\n\n```{{code-cell}} ipython3\n{SABOTAGE[case][0]}\n```\n", encoding="utf-8")
    return repo


CELL_NAMED = {"raises": "부러 낸 오류", "times-out": "sleep", "kernel-killed": "SIGKILL"}


def assert_failed_cleanly(run: subprocess.CompletedProcess, repo: Path, case: str, chapter: str,
                          others: tuple[str, ...] = (), kept: Path | None = None) -> None:
    """The build failed, saying (from where it names `chapter` up to where it names one of `others`) what
    happened in which cell, and left no new page: with `kept` (`make book`), the previous site is there byte for
    byte and no build record vouches for it (a failed command never deletes a working site); without (Sphinx
    alone, whose BUILD removes the pages first), no page at all."""
    said = run.stdout + run.stderr
    print(f"\n{case}: exit {run.returncode}")
    assert run.returncode != 0, f"{case}: the build exited 0:\n{said[-3000:]}"
    assert chapter in said, f"{case}: the failure does not name the chapter {chapter}:\n{said[-3000:]}"
    told = said[said.index(chapter):]
    told = told[:min([told.find(o) for o in others if o in told] or [len(told)])]
    assert re.search(SABOTAGE[case][1], told), f"{case}: the failure does not say what happened:\n{said[-3000:]}"
    assert CELL_NAMED[case] in told, f"{case}: the cell is not named:\n{said[-3000:]}"
    if kept is not None:
        assert tree(repo / "_build" / "html") == tree(kept), f"{case}: the failed build changed the previous site"
        assert not (repo / "_build" / "html.built").exists() and not (repo / "_build" / "html.previous").exists()
        return
    pages = sorted((repo / "_build" / "html").rglob("*.html")) if (repo / "_build" / "html").exists() else []
    assert not pages, f"{case}: a failed build left pages in _build/html: {[p.name for p in pages][:5]}"


@pytest.fixture(scope="module")
def make_book_sabotaged(good_copy, tmp_path_factory):
    """`make book` of a copy in which three chapters fail, each its own way (they run side by side)."""
    repo = sabotaged(good_copy, tmp_path_factory.mktemp("sabotaged"), IN_ONE_BUILD)
    return repo, run_make(repo, "book")


def named_apart(case: str, cases) -> tuple[str, tuple[str, ...]]:
    """The sabotaged chapter of `case` as the failure names it, and the other cases' chapters (where its part ends)."""
    return (f"chapters/{IN_ONE_BUILD[case]}.md",
            tuple(f"chapters/{IN_ONE_BUILD[c]}.md" for c in cases if c != case))


@pytest.mark.parametrize("case", SABOTAGE)
def test_make_book_fails_naming_the_chapter_and_keeps_the_previous_site(make_book_sabotaged, good_copy, case):
    repo, run = make_book_sabotaged
    assert_failed_cleanly(run, repo, case, *named_apart(case, IN_ONE_BUILD), kept=good_copy / "_build" / "html")


@pytest.fixture(scope="module")
def sphinx_sabotaged(good_copy, tmp_path_factory):
    """Sphinx alone (the Makefile's BUILD) on a copy in which two chapters fail at once, each its own way."""
    repo = sabotaged(good_copy, tmp_path_factory.mktemp("sphinx"), {case: IN_ONE_BUILD[case] for case in SPHINX_ALONE})
    return repo, sphinx_only(repo)


@pytest.mark.parametrize("case", SPHINX_ALONE)
def test_a_chapter_missing_from_the_cache_fails_the_sphinx_build_too(sphinx_sabotaged, case):
    repo, run = sphinx_sabotaged
    assert_failed_cleanly(run, repo, case, *named_apart(case, SPHINX_ALONE))


# ---------------------------------------------------------------- fuzz-2: nothing half-written, the site kept

@pytest.fixture(scope="module")
def student_copy(good_copy, tmp_path_factory) -> Path:
    """One copy for the typed cells: each case changes one line of one chapter's source, which `make book` refuses to
    build from (asserted: nothing written), and puts it back afterwards."""
    return copy_of(good_copy, tmp_path_factory.mktemp("student"))


@pytest.mark.parametrize("typed, code", [("4096.0", 4), ("True", 4), ("small_N", 2), ("4096)", 2)])
def test_a_student_s_md_cell_stops_make_book_in_one_line_and_keeps_the_site(student_copy, typed, code):
    """F-5: what a student types into a chapter's .md parameter cell is read (a value unlike course.toml's, 4096.0 or
    True, is a new term: exit 4) or refused in one Korean line naming the chapter (exit 2); no traceback, the site
    and the tree unchanged."""
    repo = student_copy
    md = repo / "chapters" / "w4_1_intensity.md"
    source = md.read_text(encoding="utf-8")
    md.write_text(re.sub(r"^N = \d+", f"N = {typed}", source, count=1, flags=re.M), encoding="utf-8")
    try:
        before = checkout_tree(repo)
        run = run_make(repo, "book")
        said = run.stdout + run.stderr
        assert f"Error {code}" in said and "Traceback" not in said, said[-3000:]
        assert any(line.startswith("chapters/w4_1_intensity.md: ") for line in run.stderr.splitlines()), said[-3000:]
        assert checkout_tree(repo) == before
        check = check_copy(repo)
        assert check.returncode in (1, 2) and "Traceback" not in check.stderr, check.stderr[-3000:]
    finally:
        md.write_text(source, encoding="utf-8")
