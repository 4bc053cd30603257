"""Shared fixtures of the tests (the nbval set-up is in the repository's conftest.py).

Two parameter files:
- `seed`: tests/seed/course.toml, a frozen copy of this term's parameters. Only tests that check the seed
  documents' literal values (549,822,922,752, 80.789, …) use it; `seed_glued(md)` runs a chapter with it.
- `course`: the live lib/roofline/course.toml. Every other test derives its expectation from the library for
  these parameters, so the suite stays green after an instructor's change and `make refresh`.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SEED_TOML = Path(__file__).resolve().parent / "seed" / "course.toml"
CHAPTERS = ROOT / "chapters"


@pytest.fixture(scope="session")
def course():
    import roofline

    return roofline.load()


@pytest.fixture(scope="session")
def seed():
    import roofline

    return roofline.load(SEED_TOML)


@lru_cache(maxsize=None)
def seed_glued(stem: str) -> dict[str, dict]:
    """name → {mime: shown value} of chapter `stem` run with the seed's parameters (text unquoted)."""
    from coursebook import editions
    from roofline.show.glue import shown_text

    glued = editions.recompute(CHAPTERS / f"{stem}.md", course_path=SEED_TOML)
    return {k: {m: shown_text(v) if m == "text/plain" else v for m, v in b.items()} for k, b in glued.items()}


@lru_cache(maxsize=None)
def live_glued(stem: str) -> dict[str, dict]:
    """The same for the live parameters (what the site shows now)."""
    from coursebook import editions
    from roofline.show.glue import shown_text

    glued = editions.recompute(CHAPTERS / f"{stem}.md")
    return {k: {m: shown_text(v) if m == "text/plain" else v for m, v in b.items()} for k, b in glued.items()}



# One browser session for the in-browser tests: the server, Chromium and the visits, closed at the end of the session
# (tests/browser_helpers.py).
from browser_helpers import browser, pytest_sessionfinish, site_url, visits  # noqa: E402,F401
