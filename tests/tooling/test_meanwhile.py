"""coursebook.meanwhile, run beside the site build, keeps what the build's end and `make check` read, for the same
keys: its figures are the site's (the PNG bytes myst-nb wrote to _images/, each file named by their sha256), its
variants files are every varied page's for the course in force in the build folder's memo, and its in-process runs
are `make check`'s (every chapter, the course file in force, the same memo). Recorded here, not computed: what each
memo holds is tested with its owner (test_site_tooling, test_editions, test_term_lock)."""
from __future__ import annotations

import hashlib
import re

from browser_helpers import html_dir
from coursebook import assets, editions, handout, meanwhile
from coursebook.__main__ import RECOMPUTED, chapter_sources
from roofline import params


def test_it_keeps_what_the_build_and_the_check_read(monkeypatch, tmp_path):
    figures, bodies, runs = [], [], []
    monkeypatch.setattr(assets, "figure_kept", lambda data: figures.append(hashlib.sha256(data).hexdigest()))
    monkeypatch.setattr(handout, "page_body", lambda module, course, memo: bodies.append((module, course.path, memo)))
    monkeypatch.setattr(editions, "recompute", lambda md, course_path, memo: runs.append((md, course_path, memo)))
    meanwhile.fill(tmp_path)
    site = {p.stem for p in (html_dir() / "_images").iterdir() if re.fullmatch(r"[0-9a-f]{64}", p.stem)}
    assert figures and set(figures) == site, (sorted(set(figures) - site), sorted(site - set(figures)))
    path = params.load().path
    assert bodies == [(module, path, handout.memo(tmp_path)) for module in handout.varied_pages().values()]
    assert runs == [(md, path, RECOMPUTED) for md in chapter_sources()]
