"""The instructor changes course.toml for next term (a preset of its own among the changes), in a temporary
copy of the repository, following the README's steps, term after term: the next term is derived from the term
in force (`course_copies.next_term`), and every expectation comes from the library for the old and the new file
(`params.load`), never from one term's numbers. The flow runs from two starting terms: the checkout's, then the
same copy, committed after its refresh, moved on again:

1. after the change, `python -m coursebook check` fails and names each stale figure, each chapter's
   parameter cell that disagrees with the file, each stale notebook edition and the values that changed;
   on the first move, a refresh whose site build fails (F-1: a later step fails after the new term's files were
   written; here the site build itself, `--build "exit 7"`) exits with the build's code, says in one Korean line
   that the previous site is kept, with no traceback, and puts back every file it wrote (the parameter cells, every
   edition, since every chapter runs again: the execution cache is keyed on course.toml's bytes,
   sphinx_ext.library_hash; the figures) and leaves the previous _build/html byte for byte: what is put back does
   not depend on how many files were written. Its chapter runs are not lost: the execution cache is not put back
   (it is keyed by content), so the next refresh reuses them;
2. `make refresh` (parameter cells, figures, notebooks, book) takes it all along, executing each chapter
   exactly once (the site and the editions share that run; on the first move, counted over the failed refresh
   and this one); its time is printed, not asserted;
3. afterwards the check passes (it runs each chapter in-process and compares every glued value of each new
   edition with it), and the built pages show the values the library computes for the new parameters — words too
   (which tiles are memory-bound) since they are glued values.

That an edition re-run in a kernel gives the outputs it holds is nbval's run of the checkout's editions in `make
test`: the same cells, the same library, another term's numbers (which step 3 compares), so it is not run again here.

The rest of the suite is not run again here: the tests that depend on the parameters run in-process for this
term and the next one (tests/conftest.py), much faster than a nested run of the whole suite.

The second move also carries a maintainer's change of the library (a docstring of the model that the note shows with
its function's code): the check names each edition's pin of the old library, the refresh writes them again, and one
commit of both leaves the check green (an edition pins the library by its wheel's sha256, not by a commit: no second
commit "editions pinned"). `make editions`, the command for a change of the library alone, then runs no chapter (the
refresh's runs are in the cache) and leaves the check green. (Its own flow, in a copy of its own, ran every chapter
again: the same runs as this move's, 40 CPU-s more.)

The copy is the instructor's checkout as the README leaves it: committed once (step 4), with the site `make test`
built of the checkout in its _build/html (the previous site a failed refresh must keep). It reuses the main .venv
(VENV=…, its install stamp marked old so `make` never reinstalls) and puts its own lib/ first on PYTHONPATH. Nothing
is written to the repository or its _build.
"""
from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

import nbformat
import pytest

from browser_helpers import html_dir
from course_copies import cell_of, commit_all, copy_caches, instructor_checkout, next_term, run_coursebook, run_make
from coursebook import bookrun, editions
from coursebook.__main__ import chapter_sources
from roofline import params
from roofline.show import fmt
from roofline.show.figures import FIGURES
from roofline.show.glue import shown_text
from site_pages import page_text

pytestmark = pytest.mark.heavy(170)   # rough seconds, for the order of the run (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[2]
BOUND_WORDS = ("메모리 제한", "연산 제한", "HBM 대역폭", "연산 성능", "memory-bound", "compute-bound")


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Path:
    """A clone of the repository with the working tree's files, the editions `make book` built and the memos it keeps
    in _build (an instructor's checkout after `make book`): all keyed by what they are made from, so a new term runs
    every chapter again (the execution cache is keyed on course.toml's bytes too) and only what no term changes, the
    compacted scripts, is reused."""
    repo = copy_caches(instructor_checkout(tmp_path_factory.mktemp("instructor") / "repo"))
    # the site `make test` built of this very checkout (the same sources, cache and tooling): copied, not made again
    shutil.copytree(html_dir(), repo / "_build" / "html")
    return repo


def test_instructor_changes_course_toml_and_refreshes(repo):
    # (that the checkout is not stale before the change is `make test`'s first step, `coursebook check`, and
    # tests/show/test_figures.py, on the same files: the copy holds the working tree's files)
    move_to_next_term(repo, "1", first_build_fails=True)
    commit_all(repo, "next term")
    move_to_next_term(repo, "2", library_change=True)   # from a term already moved: term after term
    count = ["git", "-C", str(repo), "rev-list", "--count", "HEAD"]
    commits = int(subprocess.run(count, check=True, capture_output=True, text=True).stdout)
    commit_all(repo, "다음 학기, 모델의 설명을 다듬었다")
    assert int(subprocess.run(count, check=True, capture_output=True, text=True).stdout) == commits + 1
    assert subprocess.run(["git", "-C", str(repo), "status", "--porcelain"], check=True, capture_output=True,
                          text=True).stdout == ""
    # (what a commit holds is up to date; the local build, never committed, is `make book`'s)
    after = run_coursebook(repo, "check", "--no-site")
    assert after.returncode == 0, after.stdout + after.stderr
    kernels = repo.parent / "kernels-editions.log"
    make = run_make(repo, "editions", env={bookrun.KERNEL_LOG: str(kernels)}, timeout=1800)
    assert make.returncode == 0, make.stdout[-3000:] + make.stderr[-3000:]
    assert not kernels.exists() or not kernels.read_text(encoding="utf-8").split(), \
        f"make editions ran chapters the refresh had run: {kernels.read_text(encoding='utf-8')}"
    assert LIBRARY_CHANGE in (repo / "chapters" / "flashattention.ipynb").read_text(encoding="utf-8")
    again = run_coursebook(repo, "check", "--no-site")
    assert again.returncode == 0, again.stdout + again.stderr


LIBRARY_CHANGE = "(설명을 다듬었다) "


def change_a_docstring(repo: Path) -> None:
    """A maintainer's change of the model: a few words more in a docstring the note shows with its function's code."""
    gemm = repo / "lib" / "roofline" / "gemm.py"
    text = gemm.read_text(encoding="utf-8")
    start = text.index('"""', text.index("def naive_matmul")) + 3
    gemm.write_text(text[:start] + LIBRARY_CHANGE + text[start:], encoding="utf-8")


def move_to_next_term(repo: Path, name: str, first_build_fails: bool = False, library_change: bool = False) -> None:
    toml = repo / "lib" / "roofline" / "course.toml"
    term_was = params.load(toml)
    toml.write_text(next_term(toml.read_text(encoding="utf-8")), encoding="utf-8")
    course = params.load(toml)
    w4, w4_was = course.week4, term_was.week4
    assert (w4.N, w4.tiles) != (w4_was.N, w4_was.tiles), "next_term did not move week 4"
    sources = [repo / "chapters" / md.name for md in chapter_sources()]
    old = {md.stem: editions.records(nbformat.read(md.with_suffix(".ipynb"), as_version=4), compared_only=True)
           for md in sources}
    if library_change:
        change_a_docstring(repo)

    # 1. the check names what is stale, precisely
    stale = run_coursebook(repo, "check", "--no-site")
    assert stale.returncode == 1, stale.stdout + stale.stderr
    report = stale.stderr
    figures_before = {name: (repo / "figures" / f"{name}.svg").read_bytes() for name in FIGURES}
    assert "make refresh" in report   # (a new term: the one command that fixes every stale thing)
    N_line = (f"chapters/w4_1_intensity.ipynb: glued 'N' is '{fmt.integer(w4_was.N)}' but the library now "
              f"gives '{fmt.integer(w4.N)}'") in report
    assert N_line, f"the check does not say which value of chapter ① changed:\n{report}"
    for md in sources:
        if old[md.stem]:
            assert f"chapters/{md.stem}.ipynb" in report, f"the check does not name the stale edition {md.stem}:\n{report}"
    assert f"chapters/w4_5_matmul.md: parameter cell: N = {w4_was.N} but course.toml's week4.N is {w4.N}" in report, \
        f"the check does not name the parameter cell that disagrees with the file:\n{report}"
    for md in sources if library_change else ():
        assert f"chapters/{md.stem}.ipynb: its setup cell installs the library's wheel of sha256" in report, \
            f"the check does not name {md.stem}'s pin of the old library:\n{report}"

    # every kernel started names its chapter in this log (bookrun.KERNEL_LOG)
    kernels = repo.parent / f"kernels-{name}.log"
    if first_build_fails:
        refresh_whose_build_fails(repo, kernels)

    # 2. one command refreshes everything, executing each chapter once
    start = time.perf_counter()
    make = run_make(repo, "refresh", env={bookrun.KERNEL_LOG: str(kernels)}, timeout=1800)
    print(f"\nmake refresh after parameter change {name}: {time.perf_counter() - start:.1f} s (a figure, not a check)")
    assert make.returncode == 0, make.stdout[-3000:] + make.stderr[-3000:]
    started = Counter(kernels.read_text(encoding="utf-8").split()) if kernels.exists() else Counter()
    labels = {label for label, (md, _) in editions.chapter_of(repo).items() if md.name in {s.name for s in sources}}
    assert len(labels) == len(sources), f"not every chapter has a (label)= line: {sorted(labels)}"
    assert started == Counter(labels), \
        f"make refresh (after the failed one, if any) did not execute each chapter exactly once: {dict(started)}"

    # 3. nothing stale any more: figures, editions and built pages equal what the library computes now
    after = run_coursebook(repo, "check")
    assert after.returncode == 0, after.stderr
    assert "built pages" in after.stdout and (repo / "_build" / "html").is_dir()
    # so figures/ now holds what the library draws for the new term: each figure that changed was named as stale
    redrawn = [name for name in FIGURES if (repo / "figures" / f"{name}.svg").read_bytes() != figures_before[name]]
    assert redrawn, "no figure changed with the next term's parameters"
    for name in redrawn:
        assert f"figures/{name}.svg" in report, f"the check did not name the stale figure {name}:\n{report}"

    changed_words = False
    for md in sources:
        page = repo / "_build" / "html" / "chapters" / f"{md.stem}.html"
        text = page_text(page)
        new = editions.records(nbformat.read(md.with_suffix(".ipynb"), as_version=4), compared_only=True)
        for key in sorted(set(re.findall(r"\{glue(?::text)?\}`([^`:]+)`", md.read_text(encoding="utf-8"))) & set(new)):
            value = " ".join(shown_text(new[key]["text/plain"]).split())
            assert value in text, f"{md.stem}.html does not show {key!r} = {value!r} for the new parameters"
            before = old[md.stem].get(key, {}).get("text/plain")
            if before != new[key]["text/plain"] and any(w in value for w in BOUND_WORDS):
                changed_words = True
        assert editions.colab_url(f"chapters/{md.stem}.ipynb") in page.read_text(encoding="utf-8")
    assert changed_words, "no glued sentence about which cases are memory- or compute-bound changed with the parameters"
    assert fmt.integer(w4.N) in page_text(repo / "_build" / "html" / "chapters" / "w4_1_intensity.html")
    # the worksheet's answers on the built page (the fractions its script compares with) are the new term's
    guide = (repo / "_build" / "html" / "chapters" / "week4_guide.html").read_text(encoding="utf-8")
    data = json.loads(html.unescape(re.search(r'<script type="application/json" class="rl-quiz-data">(.*?)</script>',
                                              guide, re.S)[1]).replace("<\\/", "</"))["questions"]
    assert set(data) == {f"{row}-{case}" for row in ("F", "Q", "I", "R_roof", "t_compute", "t_memory", "t_ideal",
                                                      "inputs", "acc") for case in ("없음", *map(str, w4.tiles))}
    s, N, T = course.dtypes[w4.dtype], w4.N, max(w4.tiles)
    unit, p, q = data[f"Q-{T}"]["targets"][0]
    assert unit == "GB" and Fraction(int(p), int(q)) == Fraction(2 * s * N**3 // T + s * N**2, 10**9)
    assert Fraction(*map(int, data["F-없음"]["targets"][0][1:])) == 2 * N**3
    assert cell_of(repo / "chapters" / "w4_5_matmul.md")[2].get("N") == N, \
        "make refresh did not write the new N into the parameter cell"
    if library_change:   # the note's edition shows the model's code with its new docstring
        assert LIBRARY_CHANGE in (repo / "chapters" / "flashattention.ipynb").read_text(encoding="utf-8"), \
            "the note's edition shows the old docstring of naive_matmul"

    # the new preset is on the pages that compare real GPUs and in the note
    added = set(course.presets) - set(term_was.presets)
    assert len(added) == 1, f"next_term did not add one preset: {sorted(added)}"
    key = added.pop()
    assert key in course.week4.gpus and course.note.hardware == key
    name = course.presets[key].name
    assert name in page_text(repo / "_build" / "html" / "chapters" / "flashattention.html"), \
        f"the note does not name the new preset {name!r}"


def refresh_whose_build_fails(repo: Path, kernels: Path) -> None:
    """F-1: `coursebook refresh` whose site build (the last step, after every file is written) exits 7."""
    from course_copies import checkout_tree

    before = checkout_tree(repo)
    run = run_coursebook(repo, "refresh", "--build", "exit 7", timeout=1800, env={bookrun.KERNEL_LOG: str(kernels)})
    said = run.stdout + run.stderr
    assert run.returncode == 7 and "Traceback" not in said, said[-3000:]
    assert "put back" in run.stderr and "지난 사이트를 그대로 두었다" in run.stderr, run.stderr[-3000:]
    assert checkout_tree(repo) == before, "the failed refresh left files rewritten or the site changed"
    assert not (repo / "_build" / "html.previous").exists()
