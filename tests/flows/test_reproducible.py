"""Two clean builds of one commit give the same site, byte for byte, except the values that the build
machine measures while it builds; and a build prints only what a person needs.

The first build is the one under test ($ROOFLINE_HTML, default _build/html: `make test` builds it first). The
second is `make book` in a copy of the checkout that starts from a copy of the first build's execution cache, so no
chapter runs again: this test is about rendering (Sphinx, myst-nb, the extensions) giving the same bytes; the steps
the build keeps (coursebook.kept: fonts, CSS, figures' WebP) are made again in the copy. Nondeterminism in the
chapters' execution is still caught elsewhere: nbval re-runs every edition (made from the book's run) and compares
every output, the glued figures' PNG records too. Every file of the two builds is compared. A file that differs is
allowed to differ only where a page shows a measured value named in MEASURED: the page's text pieces (the text between
two tags) are compared one by one, and a piece that differs must be, in the two builds, that value as each build
glued it (for a table, the same cell of it). Everything else must be equal.

That second `make book` is also the repair of a broken one: before it, in the same copy, `make book` is stopped midway
through the Sphinx build (Ctrl-C, and a kill of the whole run) while a second `make book` is refused (one run at a
time); `coursebook check` must then be red, and the next `make book` (the second build) must repair it, and then
build nothing (no loop).
"""
from __future__ import annotations

import contextlib
import html
import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import nbformat
import pytest

from browser_helpers import ROOT, html_dir, label_page
from course_copies import check_copy, copy_caches, copy_checkout, env_for, make_command, run_make
from coursebook import editions
from roofline.show.glue import shown_text

pytestmark = pytest.mark.heavy(45)   # rough seconds, for the order of the run (tests/conftest.py)

# Values that are measured on the build machine while the page is built, so that two builds of one
# commit cannot agree on them: page label → glue names. Nothing else may differ.
MEASURED = {
    # 3주차 노트, "직접 재어 보기": NumPy's np.add on arrays much larger than the CPU caches, timed
    # (best of a few runs) on the build machine: the best time, the achieved bandwidth, the additions
    # per second, and the time of the length-L vector add at that bandwidth.
    "ch-week3": {"meas-ms", "meas-bw", "meas-gflops", "meas-L-ms"},
    # FlashAttention note, "세 구현을 재 보기": a Python triple loop, a tiled NumPy matmul and BLAS, timed
    # on the build machine: the table of times (and its extrapolations) and the sentences quoting it.
    "ch-flash": {"measure-table", "naive-ns", "naive-hours", "naive-vs-blas", "blas-big-ms",
                 "blas-big-rate", "blas-big-extra",
                 # the row- versus column-order copy of one matrix, timed on the build machine
                 "stride-row-ms", "stride-col-ms", "stride-slowdown", "stride-reading"},
}
# lines a build may print: the commands `make book` runs (its own, then the site build it hands to coursebook; and
# make's own "Entering directory" when it runs inside another make, as under `make test`) and jupyter-book's own banner
# (where the book is); anything else is noise or a problem
BANNER = re.compile(r"\s*(\S+/python -m coursebook book --build '.*'|rm -rf _build/html _build/\.doctrees && .*"
                    r"|make\[\d+\]: (Entering|Leaving) directory '.*'"
                    r"|지난 실행 make book \(pid \d+, .*\)은\(는\) 끝나지 못하고 멈췄다: .*"   # (after a stopped one)
                    r"|Running Jupyter-Book v\S+|Source Folder: .*|Config Path: .*|Output Path: .*"
                    r"|Finished generating HTML for book\.|Your book's HTML pages are here:"
                    r"|You can look at your book by opening this file in a browser:"
                    r"|Or paste this line directly into your browser bar:"
                    r"|(file://)?\S*_build/html/(index\.html)?|=+|)\s*")


# ---- a build stopped midway, then the second build -------------------------------------------------------

def site_lines(run: subprocess.CompletedProcess) -> list[str]:
    """What the check says of the built site (the editions may be stale for other reasons while a branch is
    being worked on: `make editions` after a commit pins them)."""
    return [line for line in run.stderr.splitlines() if line.startswith("_build/")]


def start_book(repo: Path) -> subprocess.Popen:
    """`make book` in its own process group (so that the test can stop it, and everything it started, at once),
    with Ctrl-C's default action, as in a terminal: a suite started in the background (`nohup make test &`)
    ignores SIGINT, and everything it starts would inherit that."""
    import signal

    return subprocess.Popen(make_command("book"), cwd=repo,
                            env=env_for(repo), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def until(condition, what: str, process: subprocess.Popen, limit_s: float = 900) -> None:
    """Wait for `condition()` (not a time assertion: the limit only keeps a broken run from hanging the suite)."""
    deadline = time.monotonic() + limit_s
    while not condition():
        if process.poll() is not None:
            pytest.fail(f"make book ended (exit {process.returncode}) before {what}:\n{process.stdout.read()[-3000:]}")
        if time.monotonic() > deadline:
            os.killpg(process.pid, 9)
            pytest.fail(f"make book never reached {what}")
        time.sleep(0.2)


def sphinx_started(repo: Path) -> bool:
    """The Sphinx build has started (its doctrees are written again after the Makefile's BUILD removed them)."""
    return (repo / "_build" / ".doctrees").is_dir()


@pytest.fixture(scope="module")
def interrupted_copy(tmp_path_factory) -> Path:
    """A clone of the checkout at its commit (the pages' date is the commit's) with the working tree's files, the
    first build's caches (course_copies.copy_caches: execution, in-process runs, variants draws, bytecode; not the
    build's kept steps), and the first build in _build/html (a working site, which a stopped build must not lose)."""
    repo = tmp_path_factory.mktemp("second-build") / "repo"
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(ROOT), str(repo)], check=True, capture_output=True)
    copy_caches(copy_checkout(repo))
    shutil.rmtree(repo / "_build" / ".kept", ignore_errors=True)   # (the build's kept steps: made again)
    if (ROOT.parent / "shared").is_dir():
        (repo.parent / "shared").symlink_to(ROOT.parent / "shared")
    shutil.copytree(html_dir(), repo / "_build" / "html")
    return repo


@pytest.mark.parametrize("signal_name", ["SIGINT", "SIGKILL"])
def test_a_build_stopped_midway_is_red_in_check_and_a_second_run_meanwhile_is_refused(interrupted_copy,
                                                                                      signal_name):
    import signal

    repo = interrupted_copy
    (repo / "_build" / "html.built").unlink(missing_ok=True)   # the copied pages are not this copy's build
    shutil.rmtree(repo / "_build" / ".doctrees", ignore_errors=True)
    first = start_book(repo)
    try:
        until(lambda: sphinx_started(repo), "the Sphinx build", first)
        # held where it is (a stopped process still holds the lock), so that it cannot finish, however slow the
        # machine is, before the second run has been refused and the signal comes
        os.killpg(first.pid, signal.SIGSTOP)
        second = run_make(repo, "book")   # one run at a time: the second stops at once, naming the first
        said = second.stdout + second.stderr
        assert second.returncode != 0 and "이미 실행 중: make book (pid" in said, said[-3000:]
        assert "Traceback" not in said, said[-3000:]
    finally:
        os.killpg(first.pid, getattr(signal, signal_name))   # Ctrl-C, or a kill, of the whole run
        with contextlib.suppress(ProcessLookupError):       # a Ctrl-C is delivered when the run goes on
            os.killpg(first.pid, signal.SIGCONT)
        first.communicate(timeout=600)
    check = check_copy(repo)
    assert check.returncode != 0 and site_lines(check), \
        f"after a build stopped by {signal_name}, `make check` does not say the site is unfinished:\n{check.stderr[-3000:]}"
    assert all("run `make book`" in line for line in site_lines(check)), check.stderr[-3000:]


@pytest.fixture(scope="module")
def second(interrupted_copy):
    """`make book` of the copy (after the stopped builds above, when they ran; else the copied pages are marked as
    not this copy's build): (html folder, jupyter_execute folder, printed output, seconds)."""
    repo = interrupted_copy
    (repo / "_build" / "html.built").unlink(missing_ok=True)
    start = time.perf_counter()
    run = run_make(repo, "book")
    seconds = time.perf_counter() - start
    output = run.stdout + run.stderr
    assert run.returncode == 0, f"the second build failed:\n{output[-4000:]}"
    print(f"\nsecond clean build (from the first build's execution cache): {seconds:.1f} s")
    return repo / "_build" / "html", repo / "_build" / "jupyter_execute", output, seconds


def test_the_next_make_book_repairs_an_interrupted_build(second, interrupted_copy):
    repo = interrupted_copy
    check = check_copy(repo)
    assert not site_lines(check), f"`make book` after an interrupted build left the site stale:\n{check.stderr[-3000:]}"
    again = run_make(repo, "book")   # and no loop: the check's fix, done, is not asked for again
    assert again.returncode == 0 and "not built again" in again.stdout, again.stdout[-2000:]


def files(root: Path) -> dict[str, Path]:
    return {p.relative_to(root).as_posix(): p for p in sorted(root.rglob("*")) if p.is_file()}


def glued(folder: Path, page: str) -> dict[str, dict]:
    """name → mime bundle of the page's glue records (myst-nb's <page>.glue.json), {} for a page without."""
    path = folder / f"{page}.glue.json"
    if not path.is_file():
        return {}
    return {name: record["data"] for name, record in json.loads(path.read_text(encoding="utf-8")).items()}


def measured_pages() -> dict[str, set[str]]:
    return {label_page(label): names for label, names in MEASURED.items()}


# ---- comparing pages with the measured values masked -------------------------------------------------

PIECES = re.compile(r"(<[^>]*>)")


def pieces(text: str) -> list[str]:
    """The page cut at its tags: tag, text, tag, text, …"""
    return PIECES.split(text)


def shown(record: dict) -> list[str]:
    """What a glue record puts on the page, piece by piece: its text, or a table's cells in order."""
    if "text/markdown" in record:
        cells = []
        for line in record["text/markdown"].splitlines():
            if line.startswith("|") and not re.fullmatch(r"[|:\-\s]+", line):
                cells.extend(cell.strip() for cell in line.strip().strip("|").split("|"))
        return cells
    if "text/plain" in record:
        return [shown_text(record["text/plain"])]
    return []


def allowed_pairs(names, glue_a: dict, glue_b: dict) -> set[tuple[str, str]]:
    """(as the first build shows it, as the second shows it) for every measured value of a page."""
    pairs = set()
    for name in names:
        a, b = shown(glue_a.get(name, {})), shown(glue_b.get(name, {}))
        if len(a) == len(b):
            pairs.update(zip(a, b))
    return pairs


def page_differences(a: str, b: str, pairs: set[tuple[str, str]]) -> list[str]:
    """The differences between two builds of one page that are not a measured value (described)."""
    pa, pb = pieces(a), pieces(b)
    if len(pa) != len(pb):
        first = next((i for i, (x, y) in enumerate(zip(pa, pb)) if x != y), min(len(pa), len(pb)))
        return [f"structure differs from piece {first}: {pa[first:first + 3]!r} vs {pb[first:first + 3]!r}"]
    found = []
    for x, y in zip(pa, pb):
        if x != y and (html.unescape(x).strip(), html.unescape(y).strip()) not in pairs:
            found.append(f"{x.strip()[:80]!r} vs {y.strip()[:80]!r}")
    return found


# ---- the tests -----------------------------------------------------------------------------------------

def test_measured_values_are_named_and_marked():
    """Each name in MEASURED is glued on its page, by a cell the chapter marks as varying from run to
    run (tagged nbval-ignore-output, so nbval does not compare it either)."""
    for label, names in MEASURED.items():
        page = label_page(label)
        edition = ROOT / f"{page}.ipynb"
        marked = editions.glued_of(nbformat.read(edition, as_version=4)).measured
        assert names <= marked, f"{page}: {sorted(names - marked)} are not glued by a cell tagged nbval-ignore-output"


def test_only_measured_glue_values_differ(second):
    """The values each page glues are the same in both builds (pictures too), except the measured ones."""
    _, execute_b, _, _ = second
    execute_a = html_dir().parent / "jupyter_execute"
    measured = measured_pages()
    pages = sorted({p.relative_to(execute_b).as_posix().removesuffix(".glue.json")
                    for p in execute_b.rglob("*.glue.json")})
    assert pages, "the second build glued nothing"
    for page, names in measured.items():
        assert page in pages and names <= set(glued(execute_b, page)), f"{page}: not all of {sorted(names)} glued"
    differing = {}
    for page in pages:
        a, b = glued(execute_a, page), glued(execute_b, page)
        assert set(a) == set(b), f"{page}: glued names differ: {sorted(set(a) ^ set(b))}"
        names = sorted(n for n in a if a[n] != b[n] and n not in measured.get(page, set()))
        if names:
            differing[page] = names
    assert not differing, f"glued values that differ between two builds of one commit: {differing}"


def test_two_clean_builds_give_the_same_files(second):
    """Every file of a clean build, byte for byte, except the measured values on their pages.

    A file only in the tested build that none of its pages names is left over from an earlier build of an
    older checkout (Sphinx never deletes old outputs): it is not part of the site and is not compared."""
    html_b, execute_b, _, _ = second
    html_a, execute_a = html_dir(), html_dir().parent / "jupyter_execute"
    files_a, files_b = files(html_a), files(html_b)
    assert len(files_b) > 50, f"the second build wrote only {len(files_b)} files"

    named = "\n".join(p.read_text(encoding="utf-8", errors="replace") for name, p in files_a.items()
                      if name.endswith(".html") or name == "searchindex.js")
    missing = sorted(set(files_b) - set(files_a))
    extra = sorted(name for name in set(files_a) - set(files_b) if Path(name).name in named)

    measured = measured_pages()
    differing = {}
    for name in sorted(set(files_a) & set(files_b)):
        a, b = files_a[name].read_bytes(), files_b[name].read_bytes()
        if a == b:
            continue
        page = name.removesuffix(".html")
        if name.endswith(".html") and page in measured:
            pairs = allowed_pairs(measured[page], glued(execute_a, page), glued(execute_b, page))
            found = page_differences(a.decode("utf-8"), b.decode("utf-8"), pairs)
            if found:
                differing[name] = found[:5]
        else:
            differing[name] = ["bytes differ"]
    report = [f"only in the second build: {missing}"] if missing else []
    report += [f"only in {html_a} (and named by its pages): {extra}"] if extra else []
    report += [f"{name}: {'; '.join(found)}" for name, found in differing.items()]
    assert not report, (f"{len(missing) + len(extra) + len(differing)} files differ between two clean builds "
                        f"of one commit outside measured values (if {html_a} is older than the checkout, "
                        f"run `make book` first):\n" + "\n".join(report))


def test_build_prints_only_what_a_person_needs(second):
    """No kernel transport warning ("Kernel is running over TCP without encryption", once per chapter),
    no other warning or log line: only the commands it runs and jupyter-book's banner."""
    _, _, output, _ = second
    assert "Kernel is running over TCP" not in output
    noise = [line for line in re.sub(r"\x1b\[[0-9;]*m", "", output).splitlines() if not BANNER.fullmatch(line)]
    assert not noise, "the build printed more than its banner:\n" + "\n".join(noise[:20])
