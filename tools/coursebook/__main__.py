"""Command line: `python -m coursebook parameters | figures | notebooks [MD …] | check`.

    parameters write course.toml's values into each chapter's parameter cell (the .md sources)
    figures    draw every registered figure into figures/NAME.svg (deterministic bytes)
    notebooks  write each chapter's Colab/nbval edition .ipynb beside its .md, from the book's run of it (the one way a
               chapter runs: those not in the book's execution cache are executed into it first)
    execute    execute each chapter not yet in the book's execution cache, in parallel, into that cache
               (`make book` then only renders); with --editions, also write every edition from that run
    refresh    parameters, then every chapter executed once (execute --editions) while the figures are drawn
    check      say what is stale, precisely: a figure, an edition (.ipynb) or a built page (_build) that
               differs from its .md or from what the library computes now (which figure, notebook, value)
    built      exit 0 if _build/html is the build of what the pages are built from now (`make book` then builds
               nothing), else 1; with --record, remember that it is (coursebook/built.py)
"""
from __future__ import annotations

import argparse
import functools
import io
import os
import shutil
import sys
from pathlib import Path

from roofline import params

ROOT = Path(__file__).resolve().parents[2]
FIGURE_DIR = ROOT / "figures"
CHAPTERS = ROOT / "chapters"


def svg(name: str, course) -> bytes:
    """Figure `name` for `course` as SVG bytes, the same bytes on every run."""
    from roofline.show.figures import draw   # (matplotlib: imported by the commands that draw, not by every command)

    return svg_bytes(draw(name, course))


def drawn(name: str, course, build_dir: Path = ROOT / "_build") -> bytes:
    """`svg(name, course)`, kept under <build>/figures/<key>/ so that `make check` then `make refresh` (and the
    check after it) draw each figure once: the key is a hash of everything the drawing reads (the library and its
    parameter files, the parameter file `course` was read from, the pinned versions of requirements.txt).
    The test suite draws each figure itself (tests/show/test_figures.py)."""
    kept = build_dir / "figures" / _drawing_key(str(course.path)) / f"{name}.svg"
    if kept.is_file():
        return kept.read_bytes()
    picture = svg(name, course)
    kept.parent.mkdir(parents=True, exist_ok=True)
    partial = kept.with_suffix(f".{os.getpid()}.tmp")
    partial.write_bytes(picture)
    partial.replace(kept)                         # whole or not at all
    return picture


@functools.lru_cache(maxsize=None)
def _drawing_key(course_path: str) -> str:
    """A hash of what a drawing reads (see `drawn`), read once per process: a command does not change them."""
    import hashlib

    from coursebook.sphinx_ext import library_hash

    digest = hashlib.sha256(library_hash().encode())
    for path in (Path(course_path), ROOT / "requirements.txt"):
        digest.update(path.read_bytes() if path.is_file() else b"")
    return digest.hexdigest()[:16]


def svg_bytes(fig) -> bytes:
    """A drawn figure as SVG bytes (no date, no creator: the same bytes on every run)."""
    from roofline.show import style

    buffer = io.BytesIO()
    fig.savefig(buffer, format="svg", metadata=style.SVG_METADATA)
    return buffer.getvalue()


def chapter_sources() -> list[Path]:
    """Chapters that are notebooks (they have a kernelspec in their front matter)."""
    return sorted(p for p in CHAPTERS.glob("*.md") if "kernelspec:" in p.read_text(encoding="utf-8")[:600])


def write_figures(course) -> None:
    from roofline.show.figures import FIGURES

    FIGURE_DIR.mkdir(exist_ok=True)
    for name in sorted(FIGURES):
        (FIGURE_DIR / f"{name}.svg").write_bytes(drawn(name, course))
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


def write_parameters(course) -> None:
    """Put course.toml's values into every chapter's parameter cell."""
    from coursebook import paramcell

    for md in chapter_sources():
        text = md.read_text(encoding="utf-8")
        new = paramcell.write(text, course)
        if new != text:
            md.write_text(new, encoding="utf-8")
            print(f"chapters/{md.name}: parameter cell rewritten from course.toml")


def stale(course, site: Path | None = None, figures: bool = True) -> list[str]:
    """Everything that no longer matches the library and the sources, one line each, naming the file,
    the value and the command that fixes it. Cheap: each chapter's code runs once, in-process.
    `figures=False`: figures/ is left to the caller (the test suite draws each figure once and compares it)."""
    from coursebook import editions, paramcell

    problems = stale_figures(course) if figures else []
    check_site = site is not None and (site / "html").is_dir()
    for md in chapter_sources():
        cell = paramcell.disagreements(md.read_text(encoding="utf-8"), course)
        problems += [f"chapters/{md.name}: {line}: run `make refresh` (or `python -m coursebook parameters`)"
                     for line in cell]
        try:
            now = editions.recompute(md, course_path=course.path)   # with the file's values in the parameter cell
        except editions.ChapterError as err:
            problems.append(f"chapters/{md.name} fails to run with the current library and course.toml: {err}")
            now = None
        problems += editions.edition_problems(md, now, ROOT)
        if check_site:
            problems += editions.site_problems(md, now, site, ROOT)
    return problems


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
    checks = sub.add_parser("check", help="report stale figures, notebook editions and built pages")
    checks.add_argument("--site", type=Path, default=ROOT / "_build",
                        help="the book's build folder to check too, if it exists (default: _build)")
    checks.add_argument("--no-site", action="store_true", help="do not check the built pages")
    checks.add_argument("--no-figures", action="store_true",
                        help="do not draw the figures (`make test`: tests/show/test_figures.py compares each, drawn once)")
    built = sub.add_parser("built", help="whether _build/html is the build of the current sources (exit 0) or not (1)")
    built.add_argument("--record", action="store_true", help="after a build: record that it is")
    built.add_argument("--build-dir", type=Path, default=ROOT / "_build", help="the book's build folder")
    args = parser.parse_args(argv)
    try:
        course = params.load()
    except ValueError as err:
        print(f"course.toml: {err}", file=sys.stderr)
        return 2
    if args.command == "parameters":
        write_parameters(course)
    elif args.command == "figures":
        write_figures(course)
    elif args.command in ("execute", "notebooks", "refresh"):
        from coursebook import bookrun, editions

        build_dir = args.build_dir.resolve()
        try:
            if args.command != "refresh":    # `notebooks` may name chapters; `execute` runs every one
                runs = bookrun.ensure([md.resolve() for md in getattr(args, "sources", [])] or chapter_sources(),
                                      build_dir)
            else:
                write_parameters(course)
                # the figures' modules (matplotlib, IPython) are imported here, before the chapters' threads start:
                # a module imported by two threads at once can reach one of them half made
                import roofline.show.figures  # noqa: F401
                runs = bookrun.ensure(chapter_sources(), build_dir, meanwhile=lambda: write_figures(course),
                                      measure_alone=False)   # a local preview: the published site is a clean `make book`
        except bookrun.ChapterFailed as err:
            # no edition is written from an incomplete run, and no earlier site stays to pass for this one
            shutil.rmtree(build_dir / "html", ignore_errors=True)
            print(f"{err}\nnothing written; removed {build_dir.name}/html", file=sys.stderr)
            return 3
        if args.command != "execute" or args.editions:
            for md, run in runs.items():
                print(editions.write(md, run=run).relative_to(ROOT))
    elif args.command == "built":
        from coursebook import built as site

        build_dir = args.build_dir.resolve()
        if args.record:
            site.record(build_dir)
        elif site.fresh(build_dir):
            print(f"{build_dir.name}/html is the build of the current sources: not built again")
        else:
            return 1
    elif args.command == "check":
        site = None if args.no_site or not (args.site / "html").is_dir() else args.site.resolve()
        problems = stale(course, site, figures=not args.no_figures)
        for line in problems:
            print(line, file=sys.stderr)
        if not problems:
            print("up to date: " + ("" if args.no_figures else "figures/, ") + "the .ipynb editions"
                  + (f" and the built pages ({site})" if site else ""))
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
