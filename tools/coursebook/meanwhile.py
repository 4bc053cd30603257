"""Beside the site build (`coursebook book` and `refresh`: __main__.build_site). Sphinx keeps one core busy; what
the build does only at its end, and what `make check` does after it, is done meanwhile on the other core, into the
memos they read:

1. each figure's WebP (assets.figure_kept, `_build/.kept/figures`), from the PNGs in the editions the build was just
   handed (the bytes myst-nb writes to _images/), which the build's last step makes first (assets.figures);
2. every varied page's variants file for the course in force (handout.page_body's memo, `<build>/.variants`), which
   the build's last step writes into the site (handout.variant_files);
3. every chapter's in-process run for the course in force (editions.recompute's memo, `_build/.recomputed`), which
   `make check` compares with the editions and the built pages (and `make test` hands to its workers).

All three are only memos, keyed by what they are computed from: what is not there when it is needed is computed there.
So build_site stops this process when the build ends, and nothing here prints. `python -m coursebook.meanwhile BUILD`
"""
from __future__ import annotations

import base64
import json
import sys
from pathlib import Path


def fill(build_dir: Path) -> None:
    from coursebook import assets, editions, handout
    from coursebook.__main__ import RECOMPUTED, chapter_sources
    from roofline import params

    course, chapters = params.load(), chapter_sources()
    pngs = set()   # (a figure two chapters show, as ② and the week-4 guide do, is made once)
    for md in chapters:
        try:
            edition = json.loads(md.with_suffix(".ipynb").read_text(encoding="utf-8"))
        except (OSError, ValueError):   # none yet (the build writes it, or fails naming the chapter)
            continue
        pngs |= {output["data"]["image/png"] for cell in edition.get("cells", []) for output in cell.get("outputs", [])
                 if "image/png" in output.get("data", {})}
    for png in sorted(pngs):
        assets.figure_kept(base64.b64decode(png))
    for module in handout.varied_pages().values():
        handout.page_body(module, course, handout.memo(build_dir))
    for md in chapters:
        try:
            editions.recompute(md, course_path=course.path, memo=RECOMPUTED)
        except editions.ChapterError:   # the build names it; `make check` runs it again and says so
            continue


if __name__ == "__main__":
    fill(Path(sys.argv[1]))
