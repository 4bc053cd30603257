"""The README's commands that no other test runs still work: `make pdf` prints a chapter (Hangul, formulas and
figures in it), and every other target the README names is one the Makefile can run (`make -n`: its recipe
expands; what each does is tested where its work is — `make refresh` in tests/flows/test_instructor.py,
`make check` before the suite, `make book` by the suite's build)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from browser_helpers import html_dir
from coursebook import bookrun, lock

ROOT = Path(__file__).resolve().parents[2]
DRY_RUN = ("lint", "serve", "clean", "screenshots", "bench", "figures", "parameters", "editions", "notebooks", "refresh",
           "check", "pdf", "upgrade-check")

pytestmark = pytest.mark.heavy(15)   # rough seconds, for the order of the run (tests/conftest.py)


def test_the_pdf_of_one_chapter(tmp_path):
    """Printed from the site's run of the chapter (the build's execution cache): no kernel starts, nothing is added
    to the cache."""
    build = html_dir().parent
    cache = bookrun.cache_of(build)
    before = len(cache.list_cache_records())
    kernels = tmp_path / "kernels.log"
    run = subprocess.run([sys.executable, "-m", "coursebook.pdf", "--chapter", "w4_1_intensity", "--work",
                          str(tmp_path / "work"), "--out", str(tmp_path / "roofline-tiling.pdf"), "--build-dir",
                          str(build)], cwd=ROOT, env={**os.environ, bookrun.KERNEL_LOG: str(kernels)},
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]   # images loaded, no raw markup
    assert not kernels.exists() and len(cache.list_cache_records()) == before, "the PDF ran the chapter again"
    formulas = int(re.search(r"([\d,]+) formulas", run.stdout)[1].replace(",", ""))
    assert formulas > 0, run.stdout
    pdf = (tmp_path / "roofline-tiling.pdf").read_bytes()
    assert pdf.startswith(b"%PDF")
    assert hangul_glyphs(pdf) > 100, "the PDF's fonts map too few glyphs to Hangul (no Korean text in it)"
    assert pdf.count(b"/Subtype /Image") + pdf.count(b"/Subtype/Image") > 0, "no figure in the PDF"


def test_the_pdf_waits_for_no_build(tmp_path):
    """While `make book` holds the checkout's lock, `make pdf` stops at once naming it, and writes nothing."""
    build, work = tmp_path / "_build", tmp_path / "work"
    with lock.held(build, "make book"):
        run = subprocess.run([sys.executable, "-m", "coursebook.pdf", "--chapter", "w4_1_intensity", "--work",
                              str(work), "--build-dir", str(build)], cwd=ROOT, capture_output=True, text=True,
                             timeout=120)
    assert run.returncode == 75 and f"이미 실행 중: make book (pid {os.getpid()}" in run.stderr, run.stderr[-2000:]
    assert not work.exists()


def test_no_site_and_no_pdf_from_last_terms_cells(tmp_path):
    """A new course.toml not yet taken along by `make refresh`: `make book` and `make pdf` stop naming the parameter
    cells that disagree and the command that fixes it, and write nothing (no pages, no PDF, no cache: only the lock's file)."""
    from course_copies import copy_checkout, env_for, next_term

    repo = copy_checkout(tmp_path / "repo")
    toml = repo / "lib" / "roofline" / "course.toml"
    toml.write_text(next_term(toml.read_text(encoding="utf-8")), encoding="utf-8")
    for made, command in (("사이트를", ["coursebook", "book", "--build", "true"]),
                          ("PDF를", ["coursebook.pdf", "--chapter", "w4_1_intensity"])):
        run = subprocess.run([sys.executable, "-m", *command], cwd=repo, env=env_for(repo), capture_output=True,
                             text=True, timeout=300)
        assert run.returncode == 4, (command, run.stdout[-2000:], run.stderr[-2000:])
        assert "chapters/w4_1_intensity.md: parameter cell: N = " in run.stderr, run.stderr
        assert f"지난 학기 값으로 {made} 만들지 않는다. `make refresh`" in run.stderr, run.stderr
    assert [p.name for p in (repo / "_build").iterdir()] == ["run.lock"]   # (`make book` took the lock first)


def hangul_glyphs(pdf: bytes) -> int:
    """How many glyphs the PDF's fonts map to Hangul syllables (their ToUnicode maps: `<gid> <AC00>` …)."""
    found = set()
    for stream in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", pdf, re.S):
        try:
            text = zlib.decompress(stream)
        except zlib.error:
            continue
        if b"beginbfchar" in text or b"beginbfrange" in text:
            found |= {int(code, 16) for code in re.findall(rb"<([0-9A-Fa-f]{4})>", text)
                      if 0xAC00 <= int(code, 16) <= 0xD7A3}
    return len(found)


@pytest.mark.parametrize("target", DRY_RUN)
def test_each_make_target_expands(target):
    run = subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr


def test_the_readme_is_short_and_its_links_resolve():
    """The README is for its readers (≤ 12 KiB); the contributors' pages it points to exist."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.encode()) <= 12 * 1024, f"README.md is {len(readme.encode()):,} B (≤ 12 KiB: the rest goes in docs/)"
    links = re.findall(r"\]\(([^)#:]+)\)", readme)
    assert links and [link for link in links if not (ROOT / link).exists()] == []
