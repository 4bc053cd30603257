"""A chapter that fails, outlives the timeout or loses its kernel fails the build, naming the chapter and the
cell, and leaves no page in _build/html (a page whose chapter failed would show no values).

Each case sabotages one chapter of a copy of the repository (the other chapters come from a copy of the
execution cache, so only the sabotaged one runs) and runs the build both ways a chapter can be executed:
`make book` (the chapters run before Sphinx, bookrun) and Sphinx alone with the chapter not in the cache
(myst-nb runs it through jupyter-cache). A good build is there before (the one under test, copied), so a page
left from it would be caught too.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from browser_helpers import html_dir
from course_copies import checkout_files

pytestmark = pytest.mark.heavy(60)   # rough seconds, for the order of the run (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[1]
VENV = Path(sys.prefix)
CHAPTER = "w4_1_intensity"         # the shortest chapter to run
TIMEOUT_S = 20                     # the copy's execute.timeout

SABOTAGE = {   # a code cell appended to the chapter, and what the error must say
    "raises": ("raise RuntimeError('부러 낸 오류')", r"RuntimeError.*부러 낸 오류"),
    "times-out": ("import time\ntime.sleep(10 * 60)", r"timed out|CellTimeoutError"),
    "kernel-killed": ("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)", r"kernel died|DeadKernelError"),
}


def env_for(repo: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"ROOFLINE_BOOK", "ROOFLINE_COURSE"}}
    env["PYTHONPATH"] = f"{repo / 'lib'}:{repo / 'tools'}"
    return env


def make(repo: Path, *targets: str) -> subprocess.CompletedProcess:
    return subprocess.run(["make", f"VENV={VENV}", "-o", str(VENV / ".installed"), *targets], cwd=repo,
                          env=env_for(repo), capture_output=True, text=True, timeout=1200)


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
    for name in checkout_files():
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, copy / name)
    if (ROOT / "_build" / ".jupyter_cache").is_dir():
        shutil.copytree(ROOT / "_build" / ".jupyter_cache", copy / "_build" / ".jupyter_cache")
    if (ROOT.parent / "shared").is_dir():
        (copy.parent / "shared").symlink_to(ROOT.parent / "shared")
    # the good build is the one `make test` made of this very checkout (the same sources, cache and tooling), so
    # it is copied rather than made again
    shutil.copytree(html_dir(), copy / "_build" / "html")
    assert (copy / "_build" / "html" / "chapters" / f"{CHAPTER}.html").exists()
    return copy


def sabotaged(good: Path, tmp_path: Path, case: str) -> Path:
    repo = tmp_path / "repo"
    shutil.copytree(good, repo, symlinks=True)
    if (good.parent / "shared").exists():
        (tmp_path / "shared").symlink_to((good.parent / "shared").resolve())
    md = repo / "chapters" / f"{CHAPTER}.md"
    md.write_text(md.read_text(encoding="utf-8").rstrip("\n") + f"\n\n```{{code-cell}} ipython3\n{SABOTAGE[case][0]}\n```\n",
                  encoding="utf-8")
    config = repo / "_config.yml"
    config.write_text(re.sub(r"^(\s+timeout:)\s*\d+", rf"\1 {TIMEOUT_S}", config.read_text(encoding="utf-8"),
                             count=1, flags=re.M), encoding="utf-8")
    return repo


def assert_failed_cleanly(run: subprocess.CompletedProcess, repo: Path, case: str) -> None:
    said = run.stdout + run.stderr
    print(f"\n{case}: exit {run.returncode}")
    assert run.returncode != 0, f"{case}: the build exited 0:\n{said[-3000:]}"
    assert CHAPTER in said, f"{case}: the failure does not name the chapter:\n{said[-3000:]}"
    assert re.search(SABOTAGE[case][1], said), f"{case}: the failure does not say what happened:\n{said[-3000:]}"
    assert "SIGKILL" in said or "sleep" in said or "부러 낸 오류" in said, f"{case}: the cell is not named:\n{said[-3000:]}"
    pages = sorted((repo / "_build" / "html").rglob("*.html")) if (repo / "_build" / "html").exists() else []
    assert not pages, f"{case}: a failed build left pages in _build/html: {[p.name for p in pages][:5]}"


@pytest.mark.parametrize("case", SABOTAGE)
def test_make_book_fails_naming_the_chapter_and_leaves_no_page(good_copy, tmp_path, case):
    repo = sabotaged(good_copy, tmp_path, case)
    assert_failed_cleanly(make(repo, "book"), repo, case)


@pytest.mark.parametrize("case", ["raises", "kernel-killed"])
def test_a_chapter_missing_from_the_cache_fails_the_sphinx_build_too(good_copy, tmp_path, case):
    repo = sabotaged(good_copy, tmp_path, case)
    assert_failed_cleanly(sphinx_only(repo), repo, case)
