"""Command line: `python -m coursebook parameters | figures | notebooks [MD …] | check`.

    parameters write course.toml's values into each chapter's parameter cell (the .md sources)
    figures    draw every registered figure into figures/NAME.svg (deterministic bytes)
    notebooks  write each chapter's Colab/nbval edition .ipynb beside its .md (git-ignored: `book` writes them too), from the book's run of it (the one way a
               chapter runs: those not in the book's execution cache are executed into it first)
    execute    execute each chapter not yet in the book's execution cache, in parallel, into that cache
               (`make book` then only renders); with --editions, also write every edition from that run
    refresh    a new term: every chapter's code run in-process with course.toml's values first (a term that fails
               stops here, naming the key, and nothing is written), then parameters, every chapter executed once
               while the figures are drawn, the figures and editions written, the site built (--build)
    book       the site: stops if course.toml disagrees with the parameter cells (`make refresh` is the command
               for a new term), runs the chapters not in the cache, writes the editions from those runs (built,
               never committed), builds (--build) unless `built` says it is
    check      say what is stale, precisely: a figure, an edition (.ipynb) or a built page (_build) that
               differs from its .md or from what the library computes now (which figure, notebook, value), and
               whether _build/html is the whole, finished build of the sources as they are now
    answer-key ROSTER [--out answer-key.csv]: every student's variant of every exercise, its answer, unit and
               precision (coursebook/handout.py); a bad roster is one Korean line naming the line, and no file
    new-term   lock the term's variants as the library draws them now (term-lock.json): a new term on purpose
    built      exit 0 if _build/html is the build of what the pages are built from now (`make book` then builds
               nothing), else 1; with --record, remember that it is (coursebook/built.py)

The commands that write (all but check and built) hold the checkout's lock (coursebook/lock.py): a second run
stops with "이미 실행 중: …". A bad input (a key of course.toml, a missing or unreadable file, a truncated
edition) is one Korean line naming it, never a traceback.
"""
from __future__ import annotations

import sys

if __name__ == "__main__":
    def interrupted(kind, value, tb, default=sys.excepthook):
        """Ctrl-C before `main` can catch it (while the library and the tooling are imported, a second or so): the same
        one line as `stopped`, no traceback; Python then ends by SIGINT, which the shell reports as 130."""
        if issubclass(kind, KeyboardInterrupt):
            print("중단했다 (Ctrl-C 또는 kill). 다음 실행이 남은 것을 고친다", file=sys.stderr)
        else:
            default(kind, value, tb)
    sys.excepthook = interrupted

# the imports after the hook: an interruption while they load is said in one line too
import argparse
import functools
import io
import re
import shutil
from pathlib import Path

from coursebook import lock
from roofline import params

ROOT = Path(__file__).resolve().parents[2]
FIGURE_DIR = ROOT / "figures"
CHAPTERS = ROOT / "chapters"
RECOMPUTED = ROOT / "_build" / ".recomputed"   # the chapters' in-process runs, kept (editions.recompute's memo)


def svg(name: str, course) -> bytes:
    """Figure `name` for `course` as SVG bytes, the same bytes on every run."""
    from roofline.show.figures import draw  # (matplotlib: imported by the commands that draw, not by every command)

    return svg_bytes(draw(name, course))


def drawn(name: str, course) -> bytes:
    """`svg(name, course)`, kept (coursebook.kept) so that `make check` then `make refresh` (and the check after it)
    draw each figure once, and a new term redraws only the figures whose problem it changed: the key is everything
    the drawing reads (the library's code, the pinned versions of requirements.txt, and the one problem the figure
    draws, with the catalog it was checked against: `figures.PROBLEM`).
    The test suite draws each figure itself (tests/show/test_figures.py)."""
    from coursebook import kept
    from roofline.show.figures import PROBLEM

    problem = getattr(course, PROBLEM[name])
    return kept.made("figures-svg", lambda: svg(name, course), _drawing_key().encode(), name.encode(),
                     f"{problem!r}\n{problem.catalog!r}".encode("utf-8"))


@functools.lru_cache(maxsize=None)
def _drawing_key() -> str:
    """A hash of the code a drawing runs (see `drawn`), read once per process: a command does not change it."""
    import hashlib

    from coursebook.sphinx_ext import library_hash

    digest = hashlib.sha256(library_hash(suffixes=(".py",)).encode())
    requirements = ROOT / "requirements.txt"
    digest.update(requirements.read_bytes() if requirements.is_file() else b"")
    return digest.hexdigest()[:16]


def svg_bytes(fig) -> bytes:
    """A drawn figure as SVG bytes (no date, no creator: the same bytes on every run)."""
    from roofline.show import style

    buffer = io.BytesIO()
    fig.savefig(buffer, format="svg", metadata=style.SVG_METADATA)
    return buffer.getvalue()


def chapter_sources() -> list[Path]:
    """Chapters that are notebooks (they have a kernelspec in their front matter)."""
    return sorted(p for p in CHAPTERS.glob("*.md") if "kernelspec:" in source_text(p)[:600])


def source_text(path: Path) -> str:
    """A source file's text, or ParameterError naming it if it is not UTF-8."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise params.ParameterError(f"{path.relative_to(ROOT).as_posix()}: UTF-8이 아니다 (바이트 {err.start}). "
                                    "UTF-8로 저장하자 (`git diff`로 바뀐 곳을 보자)") from None


def write_figures(course, pictures: dict[str, bytes] | None = None) -> None:
    """figures/NAME.svg for every figure (`pictures`: name → SVG bytes already drawn), each drawn before one is
    written."""
    from roofline.show.figures import FIGURES

    pictures = {name: (pictures or {}).get(name) or drawn(name, course) for name in sorted(FIGURES)}
    FIGURE_DIR.mkdir(exist_ok=True)
    for name, picture in pictures.items():
        path = FIGURE_DIR / f"{name}.svg"
        if not path.is_file() or path.read_bytes() != picture:
            path.write_bytes(picture)
        print(f"figures/{name}.svg")
    for stale in sorted(set(FIGURE_DIR.glob("*.svg")) - {FIGURE_DIR / f"{n}.svg" for n in FIGURES}):
        stale.unlink()
        print(f"removed figures/{stale.name} (no such figure any more)")


def stale_figures(course, pictures: dict[str, bytes] | None = None) -> list[str]:
    """What in figures/ differs from what the library draws for `course` (`pictures`: name → SVG bytes already
    drawn, so a caller that has them draws nothing again)."""
    from roofline.show.figures import FIGURES

    problems = []
    for name in sorted(FIGURES):
        path = FIGURE_DIR / f"{name}.svg"
        if not path.exists():
            problems.append(f"figures/{name}.svg is missing: run `make figures`")
        elif path.read_bytes() != (pictures[name] if pictures is not None else drawn(name, course)):
            problems.append(f"figures/{name}.svg differs from what the library draws now: run `make figures`")
    for path in sorted(FIGURE_DIR.glob("*.svg")):
        if path.stem not in FIGURES:
            problems.append(f"figures/{path.name} is drawn by no registered figure: remove it or run `make figures`")
    return problems


def in_chapter(md: Path, read, *args):
    """`read(text of md, *args)` (a paramcell function), its ParameterError naming the chapter (`chapters/X.md:`)."""
    try:
        return read(source_text(md), *args)
    except (params.ParameterError, ValueError) as err:
        raise params.ParameterError(f"chapters/{md.name}: {err}") from None


def write_parameters(course) -> None:
    """Put course.toml's values into every chapter's parameter cell (every cell computed before one is written)."""
    from coursebook import paramcell

    texts = {md: source_text(md) for md in chapter_sources()}
    new = {md: in_chapter(md, paramcell.write, course) for md in texts}
    for md, text in new.items():
        if text != texts[md]:
            md.write_text(text, encoding="utf-8")
            print(f"chapters/{md.name}: parameter cell rewritten from course.toml")


def term_changes(course) -> list[str]:
    """Every parameter cell line that disagrees with course.toml (a new term not yet refreshed)."""
    from coursebook import paramcell

    return [f"chapters/{md.name}: {line}" for md in chapter_sources()
            for line in in_chapter(md, paramcell.disagreements, course)]


def said_stale_term(course, what: str) -> bool:
    """Whether course.toml disagrees with the chapters' parameter cells (a new term not yet refreshed); if so, the
    lines that disagree and why `what` (the site, the PDF) is not made from last term's cells, on stderr."""
    changed = term_changes(course)
    for line in changed[:8] + ([f"… and {len(changed) - 8} more"] if len(changed) > 8 else []):
        print(line, file=sys.stderr)
    if changed:
        print(f"course.toml이 장의 매개변수 셀과 다르다 (새 학기 값?): 지난 학기 값으로 {what} 만들지 않는다. "
              "`make refresh`가 매개변수 셀, 그림, 노트북 판, 사이트를 함께 새로 만든다", file=sys.stderr)
    return bool(changed)


TERM_FIX = "run `make refresh`"
TERM = ("course.toml disagrees with the chapters' parameter cells (a new term?): one `make refresh` writes them, the "
        "figures, the editions and the site")


def derivation_gaps(md: Path, glued, names) -> list[str]:
    """The site build's derivation gate (coursebook.derivations.refused: a glued number, a number inside a glued
    sentence or a number in a glued table's cell that no `why.*` made stops the build) on a chapter's records alone,
    before any page exists: each gap as "glue 'KEY'의 '4,096'". `names`: the presets' names (a number inside one is a name's)."""
    from coursebook import derivations as gate

    return [f"glue {key!r}의 {why}" for kind, key in gate.uses(source_text(md))
            for why in gate.refused(kind, glued.get(key, {}), names)]


def validate_term(course, memo: Path | None = RECOMPUTED) -> None:
    """Everything each chapter asks of the model for `course`, computed before anything is written: every chapter's
    code run in-process with the file's values in its parameter cell (editions.recompute), and the site build's
    derivation gate on its records (derivation_gaps). Raises ParameterError naming the first chapter that fails and
    why. `memo`: where the chapters' runs are kept (editions.recompute's; a test run keeps its own)."""
    import tomllib

    from coursebook import derivations, editions

    names = derivations.preset_names(tomllib.loads(course.path.read_text(encoding="utf-8")))
    for md in chapter_sources():
        try:
            glued = editions.recompute(md, course_path=course.path, memo=memo)
        except editions.ChapterError as err:
            cause = err.__cause__
            if isinstance(cause, KeyboardInterrupt):   # Ctrl-C in a cell is an interruption, never a bad value
                raise KeyboardInterrupt from None
            said = f"{cause}" if isinstance(cause, params.ParameterError) else f"{err}"
            raise params.ParameterError(f"{said} (chapters/{md.name}을(를) 이 값으로 실행할 수 없다)") from None
        gaps = derivation_gaps(md, glued, names)
        if gaps:
            more = f" 외 {len(gaps) - 1}곳" if len(gaps) > 1 else ""
            raise params.ParameterError(f"chapters/{md.name}: 이 값으로는 {gaps[0]}{more}에 유도가 없어 사이트 빌드가 "
                                        "멈춘다 (roofline.show.why). course.toml의 값이 단위나 자릿수를 잘못 쓴 것이 "
                                        "아닌지 docs/parameters.md와 견주자")


class Saved:
    """The bytes of every file `make refresh` writes (chapters' sources and editions, figures), to put back if
    the run fails or is interrupted before it has written them all: a refresh is all or nothing."""

    def __init__(self):
        self.files = {p: p.read_bytes() for pattern in ("*.md", "*.ipynb") for p in CHAPTERS.glob(pattern)}
        self.files.update({p: p.read_bytes() for p in FIGURE_DIR.glob("*.svg")})

    def restore(self) -> list[str]:
        changed = []
        for path, data in self.files.items():
            if not path.is_file() or path.read_bytes() != data:
                path.write_bytes(data)
                changed.append(path.relative_to(ROOT).as_posix())
        for path in [*CHAPTERS.glob("*.ipynb"), *FIGURE_DIR.glob("*.svg")]:
            if path not in self.files:
                path.unlink()
                changed.append(path.relative_to(ROOT).as_posix())
        return changed


def build_site(build_dir: Path, command: str | None) -> int:
    """The Makefile's BUILD `command`, with no build record while it runs (an interrupted build leaves none),
    recorded when it succeeds. The previous <build>/html is kept aside while it runs and put back if the build
    fails or is interrupted: a failed command never deletes a working site. Called just after bookrun.ensure put
    every chapter into the execution cache, which the build is told (bookrun.CHAPTERS_RUN: its extension need not
    look again)."""
    import errno
    import os
    import subprocess

    from coursebook import bookrun
    from coursebook import built as site
    from coursebook.sphinx_ext import library_hash

    if not command:
        site.forget(build_dir)
        return 0
    html, kept = build_dir / "html", build_dir / "html.previous"
    record, kept_record = site.record_path(build_dir), build_dir / "html.built.previous"
    if kept.is_dir():   # a run killed mid-build (SIGKILL) left its partial pages beside the previous site
        shutil.rmtree(html, ignore_errors=True)
        kept.rename(html)
        if kept_record.is_file():
            kept_record.replace(record)
    if html.is_dir():
        html.rename(kept)
    if record.is_file():
        record.replace(kept_record)
    # what the build's end and `make check` read, computed meanwhile on the core that Sphinx leaves idle (memos only:
    # stopped, not waited for, when the build ends)
    meanwhile = subprocess.Popen([sys.executable, "-m", "coursebook.meanwhile", str(build_dir)], cwd=ROOT,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    done = room = None
    try:
        print(command, flush=True)
        # its output is held until it ends: a build that ran out of room is one line (below), not Sphinx's tracebacks
        ran = {bookrun.CHAPTERS_RUN: str((build_dir / ".jupyter_cache" / library_hash()).resolve())}
        done = subprocess.run(command, shell=True, cwd=ROOT, pass_fds=() if lock.HELD is None else (lock.HELD,),
                              env={**os.environ, **ran}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        room = None if not done.returncode else out_of_room(
            OSError(errno.ENOSPC, "") if f"[Errno {errno.ENOSPC}]".encode() in done.stdout else None, build_dir)
        if not room:
            sys.stdout.buffer.write(done.stdout)
            sys.stdout.flush()
        if done.returncode == 0 and html.is_dir():
            site.record(build_dir)
    finally:
        meanwhile.kill()
        meanwhile.wait()
        if done is not None and done.returncode == 0 and html.is_dir() or not kept.is_dir():
            shutil.rmtree(kept, ignore_errors=True)
            kept_record.unlink(missing_ok=True)
        else:
            shutil.rmtree(html, ignore_errors=True)
            kept.rename(html)
            if kept_record.is_file():
                kept_record.replace(record)
            if done is None or done.returncode:
                print(f"{build_dir.name}/html: 빌드가 끝나지 않아 지난 사이트를 그대로 두었다", file=sys.stderr)
    if room:
        print(room, file=sys.stderr)
        return 2
    return done.returncode


def refresh(course, build_dir: Path, command: str | None) -> int:
    """A new term, all or nothing: the dry run (validate_term) first; then the writes and the site build, and if any
    of them fails or is interrupted every written file is put back and the previous site kept (build_site)."""
    from coursebook import bookrun, editions

    validate_term(course)
    saved = Saved()
    pictures: dict[str, bytes] = {}
    code = None
    try:
        write_parameters(course)
        # the figures' modules (matplotlib, IPython) are imported here, before the chapters' threads start:
        # a module imported by two threads at once can reach one of them half made
        from roofline.show.figures import FIGURES
        runs = bookrun.ensure(chapter_sources(), build_dir, measure_alone=False,   # (a local preview: the published
                              meanwhile=lambda: pictures.update((n, drawn(n, course)) for n in sorted(FIGURES)))  # site
        made = {md: editions.from_book_run(md, run) for md, run in runs.items()}  # is a clean `make book`)
        for md, nb in made.items():
            print(editions.write(md, nb=nb).relative_to(ROOT))
        write_figures(course, pictures)
        code = build_site(build_dir, command)
    except bookrun.ChapterFailed as err:
        print(f"{err}\n{build_dir.name}/html은 그대로 두었다", file=sys.stderr)
        code = 3
    finally:
        if code != 0:
            put_back = saved.restore()
            if put_back:
                print(f"make refresh did not finish: put back {len(put_back)} files as they were "
                      f"({', '.join(put_back[:4])}{', …' if len(put_back) > 4 else ''})", file=sys.stderr)
    return code


def book(course, build_dir: Path, command: str | None) -> int:
    from coursebook import bookrun, editions
    from coursebook import built as site

    if said_stale_term(course, "사이트를"):
        return 4
    try:
        runs = bookrun.ensure(chapter_sources(), build_dir)
    except bookrun.ChapterFailed as err:   # the previous site stays; `make check` says it is not of these sources
        print(f"{err}\n{build_dir.name}/html은 그대로 두었다", file=sys.stderr)
        return 3
    # the editions (built, never committed) before the pages: a page's Colab button names its .ipynb if it exists
    for md, run in runs.items():
        editions.write(md, run)
    if site.fresh(build_dir):
        print(f"{build_dir.name}/html is the build of the current sources: not built again")
        return 0
    return build_site(build_dir, command)


def stale(course, site: Path | None = None, figures: bool = True) -> list[str]:
    """Everything that no longer matches the library and the sources, one line each, naming the file,
    the value and the command that fixes it. Cheap: each chapter's code runs once, in-process.
    `site`: the build folder whose pages are checked too (that _build/html is there, whole, finished and the
    build of the sources as they are now: coursebook/built.py; that each page shows what the library computes).
    `figures=False`: figures/ is left to the caller (the test suite draws each figure once and compares it).
    When course.toml disagrees with a parameter cell (a new term), the one fix of everything is `make refresh`."""
    from coursebook import built, editions, paramcell

    problems = stale_figures(course) if figures else []
    # the site's own lines come last: the editions are among what it is built from, so `make notebooks` (or
    # figures) first and `make book` after them is the order in which the printed fixes converge
    site_lines = built.problems(site) + built.site_files(site) if site is not None else []
    check_site = site is not None and (site / "html").is_dir()
    term = []
    for md in chapter_sources():
        term += [f"chapters/{md.name}: {line}: {TERM_FIX}" for line in in_chapter(md, paramcell.disagreements, course)]
        try:
            now = editions.recompute(md, course_path=course.path, memo=RECOMPUTED)   # the file's values in its cell
        except editions.ChapterError as err:
            if isinstance(err.__cause__, KeyboardInterrupt):
                raise KeyboardInterrupt from None
            problems.append(f"chapters/{md.name} fails to run with the current library and course.toml: {err}")
            now = None
        problems += editions.edition_problems(md, now, ROOT)
        if check_site:
            site_lines += editions.site_problems(md, now, site, ROOT)
    from coursebook import handout
    # a commit that would give students other problems mid-term (the draws the site build kept, if of this library)
    problems += handout.frozen_problems(course, memo=handout.memo(site if site is not None else ROOT / "_build"))
    problems += site_lines
    if term:   # every other line follows from the new term: the command that fixes it is the refresh
        problems = [f"{TERM}: {TERM_FIX}", *term,
                    *(re.sub(r": (?:remove it or )?run `make (?:figures|notebooks|book)`.*$", f": {TERM_FIX}", line)
                      for line in problems)]
    return problems


STOPPED = (params.ParameterError, lock.Busy, UnicodeDecodeError, OSError, KeyboardInterrupt)
ROOM = 64 * 2**20   # a site build that fails with less free space than this on its disk is said to be out of room


def out_of_room(err: BaseException | None, build_dir: Path) -> str | None:
    """The one line for a full disk (fuzz-2 FE1): `err` or what caused it is ENOSPC or EDQUOT, or SQLite's "database
    or disk is full" (the execution cache, wrapped by jupyter-cache and SQLAlchemy), or with no error (a build
    subprocess that failed) the build's disk has less than ROOM left. None if it is not that."""
    import errno

    free = shutil.disk_usage(build_dir if build_dir.exists() else ROOT).free
    seen, full = set(), err is None and free < ROOM
    while err is not None and id(err) not in seen and not full:
        seen.add(id(err))
        full = (isinstance(err, OSError) and err.errno in (errno.ENOSPC, errno.EDQUOT)
                or "database or disk is full" in str(err))
        err = getattr(err, "orig", None) or err.__cause__ or err.__context__
    if not full:
        return None
    return (f"{build_dir}: 디스크에 빈 자리가 없다 (남은 자리 {free / 2**20:,.1f} MiB). 자리를 비운 뒤 같은 명령을 "
            "다시 실행하자")


def stopped(err: BaseException) -> int:
    """What stopped a command (one of STOPPED), said in one Korean line on stderr; returns the command's exit code."""
    if isinstance(err, params.ParameterError):   # (course.toml, a parameter cell, a term a chapter cannot run with)
        said = str(err)
        print(said if said.startswith(("course.toml", "chapters/", "/")) or ".toml" in said.split(":")[0]
              else f"course.toml: {said}", file=sys.stderr)
        return 2
    if isinstance(err, lock.Busy):
        print(err, file=sys.stderr)
        return 75
    if isinstance(err, UnicodeDecodeError):
        print(f"{getattr(err, 'filename', None) or '파일'}: UTF-8이 아니다 ({err.reason}). UTF-8로 저장하자", file=sys.stderr)
        return 2
    if isinstance(err, OSError):
        where = err.filename or "파일"
        print(f"{where}: {'없다' if isinstance(err, FileNotFoundError) else '읽거나 쓸 수 없다'} ({err.strerror}). "
              "`git status`로 지워지거나 바뀐 파일을 확인하자", file=sys.stderr)
        return 2
    print("중단했다 (Ctrl-C 또는 kill). 다음 실행이 남은 것을 고친다", file=sys.stderr)   # KeyboardInterrupt
    return 130


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m coursebook", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("parameters", help="write course.toml's values into the chapters' parameter cells")
    sub.add_parser("figures", help="write figures/*.svg")
    books = sub.add_parser("notebooks", help="write each chapter's .ipynb edition beside its .md, from the book's run "
                                             "(running the chapters not in the book's cache)")
    books.add_argument("sources", nargs="*", type=Path, help="chapter .md files (default: all)")
    books.add_argument("--build-dir", type=Path, default=ROOT / "_build", help="the book's build folder (default: _build)")
    runs = sub.add_parser("execute", help="run every chapter not in the book's cache into it (one kernel per core)")
    runs.add_argument("--editions", action="store_true", help="also write each edition from the book's run")
    runs.add_argument("--build-dir", type=Path, default=ROOT / "_build", help="the book's build folder (default: _build)")
    refreshing = sub.add_parser("refresh", help="parameters, figures, one run of each chapter, the editions from it")
    refreshing.add_argument("--build-dir", type=Path, default=ROOT / "_build", help="the book's build folder")
    refreshing.add_argument("--build", help="the shell command that builds the site afterwards (the Makefile's BUILD)")
    booking = sub.add_parser("book", help="the site: the chapters not in the cache run, then built unless it is")
    booking.add_argument("--build-dir", type=Path, default=ROOT / "_build", help="the book's build folder")
    booking.add_argument("--build", help="the shell command that builds the site (the Makefile's BUILD)")
    checks = sub.add_parser("check", help="report stale figures, notebook editions and built pages")
    checks.add_argument("--site", type=Path, default=ROOT / "_build",
                        help="the book's build folder to check too, if it exists (default: _build)")
    checks.add_argument("--no-site", action="store_true", help="do not check the built pages")
    checks.add_argument("--no-figures", action="store_true",
                        help="do not draw the figures (`make test`: tests/show/test_figures.py compares each, drawn once)")
    keys = sub.add_parser("answer-key", help="the instructor's answer key: every student's variant of every exercise")
    keys.add_argument("roster", type=Path, help="a UTF-8 CSV, one student identifier a line (a header row allowed)")
    keys.add_argument("--out", type=Path, default=Path("answer-key.csv"), help="the key (default: answer-key.csv)")
    keys.add_argument("--site", type=Path, default=None, help="the published site whose term it is (default: _build/html)")
    sub.add_parser("new-term", help="start a new term on purpose: lock the variants the library draws now "
                                    "(term-lock.json; every student's problems change)")
    built = sub.add_parser("built", help="whether _build/html is the build of the current sources (exit 0) or not (1)")
    built.add_argument("--record", action="store_true", help="after a build: record that it is")
    built.add_argument("--build-dir", type=Path, default=ROOT / "_build", help="the book's build folder")
    args = parser.parse_args(argv)
    try:
        return command(args)
    except KeyboardInterrupt as err:   # (answer-key, new-term: the others say it in `run`)
        return stopped(err)


def command(args) -> int:
    if args.command == "answer-key":
        from coursebook import handout

        try:
            rows = handout.answer_key(args.roster, args.out, site=args.site)
        except params.ParameterError as err:   # a bad roster: one line naming it, and no file
            print(err, file=sys.stderr)
            return 2
        print(f"{args.out}: {rows}줄 (학번마다 모든 장의 연습 문제)")
        return 0
    if args.command == "new-term":
        from coursebook import handout

        try:
            lock = handout.write_lock(params.load())
        except params.ParameterError as err:
            print(err, file=sys.stderr)
            return 2
        print(f"{handout.LOCK.name}: 새 학기 {lock['course']}의 변형을 고정했다 ({len(lock['pages'])}개 페이지). "
              "사이트를 다시 빌드하고(make book) 이 파일을 커밋하자")
        return 0
    try:
        return run(args)
    except Exception as err:
        if said := out_of_room(err, getattr(args, "build_dir", ROOT / "_build").resolve()):
            print(said, file=sys.stderr)
            return 2
        if isinstance(err, STOPPED):
            return stopped(err)
        raise
    except STOPPED as err:   # (KeyboardInterrupt)
        return stopped(err)


WRITERS = {"parameters": "make parameters", "figures": "make figures", "notebooks": "make notebooks",
           "execute": "make book", "refresh": "make refresh", "book": "make book"}


def terminated(signum, frame):
    """SIGTERM (a `kill`) ends a run as Ctrl-C does: what it was writing is put back (`refresh`), its lock let go."""
    raise KeyboardInterrupt


def run(args) -> int:
    if args.command in WRITERS:
        import signal

        signal.signal(signal.SIGTERM, terminated)
        build_dir = getattr(args, "build_dir", ROOT / "_build").resolve()
        name = WRITERS[args.command] if not (args.command == "execute" and args.editions) else "make editions"
        with lock.held(build_dir, name):
            return write(args, params.load(), build_dir)
    course = params.load()
    if args.command == "built":
        from coursebook import built as site

        build_dir = args.build_dir.resolve()
        if args.record:
            site.record(build_dir)
        elif site.fresh(build_dir):
            print(f"{build_dir.name}/html is the build of the current sources: not built again")
        else:
            return 1
    elif args.command == "check":
        site = None if args.no_site else args.site.resolve()
        problems = stale(course, site, figures=not args.no_figures)
        for line in problems:
            print(line, file=sys.stderr)
        if not problems:
            print("up to date: " + ("" if args.no_figures else "figures/, ") + "the .ipynb editions"
                  + (f" and the built pages ({site})" if site else ""))
        return 1 if problems else 0
    return 0


def write(args, course, build_dir: Path) -> int:
    from coursebook import bookrun, editions

    if args.command == "parameters":
        write_parameters(course)
    elif args.command == "figures":
        write_figures(course)
    elif args.command == "refresh":
        return refresh(course, build_dir, args.build)
    elif args.command == "book":
        return book(course, build_dir, args.build)
    else:   # execute, notebooks: `notebooks` may name chapters; `execute` runs every one
        try:
            runs = bookrun.ensure([md.resolve() for md in getattr(args, "sources", [])] or chapter_sources(),
                                  build_dir)
        except bookrun.ChapterFailed as err:
            # no edition is written from an incomplete run; the previous site stays (check says it is stale)
            print(f"{err}\nnothing written", file=sys.stderr)
            return 3
        if args.command != "execute" or args.editions:
            made = {md: editions.from_book_run(md, run) for md, run in runs.items()}   # all made, then written
            for md, nb in made.items():
                print(editions.write(md, nb=nb).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
