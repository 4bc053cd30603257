"""Shared fixtures of the tests (the nbval set-up is in the repository's conftest.py).

Parameter files:
- `seed`: tests/seed/course.toml, a frozen copy of this term's parameters. Only tests that check the seed
  documents' literal values (549,822,922,752, 80.789, …) use it; `seed_glued(stem)` runs a chapter with it, and
  `seed_page(stem)` gives what the chapter then shows (table, equation or text). Its week-4 cases are `seed_cases`,
  and the seed documents' week-4 tables are SEED_TABLE, SEED_COST and SEED_TIME, written out literally once: the
  library's values (tests/model) and the pages' (tests/pages) must both equal them.
- `course`: the live lib/roofline/course.toml. Every other test derives its expectation from the library for
  these parameters, so the suite stays green after an instructor's change and `make refresh`. Its week-4 cases are
  `cases`.
- `live_course`: the live course.toml too, but never parametrised: for a test that compares with what reads the live
  file itself (the live engine, built pages) inside a module whose `course` runs for both terms.
- the next term (`course_copies.next_term`: other sizes, another machine, a GPU preset of its own): in a test module
  that sets `BOTH_TERMS = True`, every test that takes `course` runs for the live term and for the next one, and
  `live_glued(stem)` inside it gives the chapter's values for that test's term (run in-process, no kernel).
  The instructor test (a copy of the repository, `make refresh`) then only checks the refresh itself.
- a term drawn at random from the valid range (`course_copies.random_term`, seeded: TERM_SEED unless
  $ROOFLINE_TERM_SEED names another; the seed is in the test's id): a module that sets `RANDOM_TERM = True` runs its
  `course` tests for it too, and for the term issue 36 found failing (`course_copies.issue_36_term`).
- a term whose base dtype is an integer one (`course_copies.integer_term`: INT8 in week 4, week 3 and the note): a
  module that sets `INTEGER_TERM = True` runs its `course` tests for it too.
  A module that compares with built pages or committed editions (made for the live term) stays out.
"""
from __future__ import annotations

import os
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SEED_TOML = Path(__file__).resolve().parent / "seed" / "course.toml"
CHAPTERS = ROOT / "chapters"


LIVE_TOML = ROOT / "lib" / "roofline" / "course.toml"
TERMS = ("live", "next_term")


def term_seed() -> int:
    from course_copies import TERM_SEED

    return int(os.environ.get("ROOFLINE_TERM_SEED", TERM_SEED))


RANDOM = f"random-term-seed-{term_seed()}"   # the id says which seed drew the term (ROOFLINE_TERM_SEED=… to redraw it)
ISSUE_36 = "issue-36-term"   # the term issue 36 found failing (course_copies.issue_36_term), run with the random one
INTEGER = "integer-term"     # an INT8 base dtype (course_copies.integer_term): a module with INTEGER_TERM runs it


def term_file(prefix: str, text: str) -> Path:
    """`text` written as a course.toml in a new folder inside this run's folder (SHARED, removed when the run ends),
    so that no run leaves its terms behind in the system's temporary folder."""
    path = Path(tempfile.mkdtemp(prefix=prefix, dir=os.environ.get(SHARED))) / "course.toml"
    path.write_text(text, encoding="utf-8")
    return path


@lru_cache(maxsize=None)
def next_term_toml() -> Path:
    """Next term's course.toml (written once per process into this run's folder)."""
    from course_copies import next_term

    return term_file("roofline-next-term-", next_term(LIVE_TOML.read_text(encoding="utf-8")))


@lru_cache(maxsize=None)
def random_term_toml() -> Path:
    """A term drawn at random (seeded, see RANDOM), written once per process into this run's folder."""
    from course_copies import random_term

    return term_file("roofline-random-term-", random_term(LIVE_TOML.read_text(encoding="utf-8"), term_seed()))


@lru_cache(maxsize=None)
def issue_36_toml() -> Path:
    from course_copies import issue_36_term

    return term_file("roofline-issue-36-", issue_36_term(LIVE_TOML.read_text(encoding="utf-8")))


@lru_cache(maxsize=None)
def integer_toml() -> Path:
    from course_copies import integer_term

    return term_file("roofline-integer-term-", integer_term(LIVE_TOML.read_text(encoding="utf-8")))


def term_path(term: str) -> Path | None:
    """The parameter file of `term` (None: the live one, as `roofline.load()` reads it)."""
    if term == "live":
        return None
    return {RANDOM: random_term_toml, ISSUE_36: issue_36_toml, INTEGER: integer_toml}.get(term, next_term_toml)()


def pytest_generate_tests(metafunc):
    if "course" in metafunc.fixturenames and getattr(metafunc.module, "BOTH_TERMS", False):
        terms = TERMS + ((RANDOM, ISSUE_36) if getattr(metafunc.module, "RANDOM_TERM", False) else ())
        terms += (INTEGER,) if getattr(metafunc.module, "INTEGER_TERM", False) else ()
        metafunc.parametrize("course", terms, indirect=True, scope="session")


@pytest.fixture(scope="session")
def course(request):
    import roofline

    return roofline.load(term_path(getattr(request, "param", "live")))


@pytest.fixture(scope="session")
def live_course():
    import roofline

    return roofline.load()


_TERM: dict[str, Path | None] = {"path": None}


@pytest.fixture(autouse=True)
def glued_term(request):
    """`live_glued` inside a test follows the term of the test's `course` (live unless parametrised)."""
    callspec = getattr(request.node, "callspec", None)
    _TERM["path"] = term_path(callspec.params.get("course", "live") if callspec else "live")
    yield
    _TERM["path"] = None


@pytest.fixture(scope="session")
def seed():
    import roofline

    return roofline.load(SEED_TOML)


@pytest.fixture(scope="session")
def note(seed):
    """The seed's note problem (matmul, BLAS, FlashAttention)."""
    return seed.note


@pytest.fixture(scope="session")
def h100(seed):
    """The seed's H100 SXM roofline in FP16 (dense)."""
    return seed.preset("H100_SXM").roofline("FP16")


@pytest.fixture(scope="session")
def cases(course):
    """The live parameters' week-4 cases (the next term's in a module with BOTH_TERMS)."""
    from roofline import problems

    return problems.week4_cases(course.week4)


@pytest.fixture(scope="session")
def seed_cases(seed):
    """The seed's week-4 cases: no reuse, then each tile."""
    from roofline import problems

    return problems.week4_cases(seed.week4)


# The seed documents' week-4 tables, literally (the library's values and the pages' must both equal them)
SEED_TABLE = [  # 경우, 성능 상한 (TFLOPs/s), Roofline 예상 시간 (ms)
    ("재사용 없음", "0.249969", "549.822923"),
    ("T = 32", "7.968872", "17.246978"),
    ("T = 64", "15.875969", "8.657043"),
    ("T = 128", "20.000000", "6.871948"),
]

SEED_COST = [  # label, F, A·B reads, C writes, Q, Q GB, I
    ("재사용 없음", "137,438,953,472", "549,755,813,888", "67,108,864", "549,822,922,752", "549.822923", "0.249969"),
    ("T = 32", "137,438,953,472", "17,179,869,184", "67,108,864", "17,246,978,048", "17.246978", "7.968872"),
    ("T = 64", "137,438,953,472", "8,589,934,592", "67,108,864", "8,657,043,456", "8.657043", "15.875969"),
    ("T = 128", "137,438,953,472", "4,294,967,296", "67,108,864", "4,362,076,160", "4.362076", "31.507692"),
]

SEED_TIME = [  # label, BW×I, R_roof, compute, memory, ideal, limit, t0/t
    ("재사용 없음", "0.249969", "0.249969", "6.871948", "549.822923", "549.822923", "HBM 대역폭", "1.00배"),
    ("T = 32", "7.968872", "7.968872", "6.871948", "17.246978", "17.246978", "HBM 대역폭", "31.88배"),
    ("T = 64", "15.875969", "15.875969", "6.871948", "8.657043", "8.657043", "HBM 대역폭", "63.51배"),
    ("T = 128", "31.507692", "20.000000", "6.871948", "4.362076", "6.871948", "연산 성능", "80.01배"),
]


@lru_cache(maxsize=None)
def seed_glued(stem: str) -> dict[str, dict]:
    """name → {mime: shown value} of chapter `stem` run with the seed's parameters (text unquoted)."""
    return shared_glued(stem, SEED_TOML)


def seed_page(stem: str) -> dict[str, str]:
    """What chapter `stem` shows, run with the seed's parameters: table, equation or text (no-break spaces as spaces)."""
    return {key: next(bundle[m] for m in ("text/markdown", "text/latex", "text/plain") if m in bundle).replace("\u00a0", " ")
            for key, bundle in seed_glued(stem).items()}


def live_glued(stem: str) -> dict[str, dict]:
    """The same for the live parameters (what the site shows now), or for the next term's in a test whose
    `course` is the next term's."""
    return term_glued(stem, _TERM["path"])


@lru_cache(maxsize=None)
def term_glued(stem: str, course_path: Path | None) -> dict[str, dict]:
    return shared_glued(stem, course_path)


# A chapter run in-process for a parameter file takes a CPU-second or two, and the modules that read it (tests/pages,
# test_why, test_exercises, the dry runs of test_work_units, …) are spread over the workers, each of which ran it
# again. Every in-process run of the tests goes through editions.recompute's own memo (the one `make check` and the
# dry run of `make refresh` keep in _build/.recomputed): a folder of this run (SHARED: made by the controller, or by
# the one process of a run without xdist, before any test starts, and removed when it ends), one subfolder per
# parameter file's contents (each worker writes the next term's file to a temporary path of its own; the memo keeps
# one run per chapter and folder). The first worker to run a chapter for a file keeps its records there, named by the
# digest of everything the run reads, and the others read them: exactly what they would have computed. The
# checkout's own _build/.recomputed is left to the commands (a copy made by tests/flows starts from the live term's).
SHARED = "COURSE_TESTS_SHARED"   # (not ROOFLINE_*: those are build inputs, coursebook.built)


def chapter_memo(course_path: Path | None, folder: str | None = None) -> Path | None:
    """This run's memo of in-process chapter runs for the parameter file `course_path` (None: the live one), to pass
    as `memo` to editions.recompute or coursebook's validate_term; None outside a test run."""
    import hashlib

    folder = folder or os.environ.get(SHARED)
    if not folder or not Path(folder).is_dir():
        return None
    digest = hashlib.sha256((course_path or LIVE_TOML).read_bytes()).hexdigest()[:24]
    return Path(folder) / "recomputed" / digest


def shared_glued(stem: str, course_path: Path | None) -> dict[str, dict]:
    from coursebook import editions
    from roofline.show.glue import shown_text

    glued = editions.recompute(CHAPTERS / f"{stem}.md", course_path=course_path, memo=chapter_memo(course_path))
    return {k: {m: shown_text(v) if m == "text/plain" else v for m, v in b.items()} for k, b in glued.items()}


# ---- how pytest-xdist shares the work ---------------------------------------------------------------------------
# `make test` runs xdist's public `--dist loadscope --no-loadscope-reorder`: a module's tests go to one worker (its
# module fixtures, e.g. a copy of the repository, are made once), and so do an nbval edition's cells (one kernel) and
# the tests of one test class: tests/book/test_site_browser.py has a class per page (the page's three visits, each
# with axe-core, are made once, in one worker), so its pages spread over the workers. Modules marked
# `heavy(seconds)` (rough seconds on a quiet machine: an order, never a check) are collected first, the heaviest
# first, and the scopes are handed out in that order, so that the workers finish together.

def pytest_configure(config):
    config.addinivalue_line("markers", "heavy(seconds): a module of long flows, scheduled first (see conftest.py)")
    if not hasattr(config, "workerinput"):   # the xdist controller, or a run without xdist
        import shutil

        from coursebook.__main__ import RECOMPUTED  # the live term's runs `make check` kept (by what they read)

        folder = os.environ[SHARED] = tempfile.mkdtemp(prefix="roofline-test-run-")   # (the workers inherit it)
        if RECOMPUTED.is_dir():
            shutil.copytree(RECOMPUTED, chapter_memo(None, folder))


def pytest_unconfigure(config):
    if not hasattr(config, "workerinput") and os.environ.get(SHARED):
        import shutil

        shutil.rmtree(os.environ.pop(SHARED), ignore_errors=True)


def pytest_collection_modifyitems(config, items):
    def weight(item):
        heavy = item.get_closest_marker("heavy")
        return -heavy.args[0] if heavy else 0

    items.sort(key=weight)      # stable: the order within a module, and among the others, stays


# One browser session for the in-browser tests: the server, Chromium and the visits, closed at the end of the session
# (tests/browser_helpers.py).
from browser_helpers import browser, pytest_sessionfinish, site_url, visits  # noqa: E402,F401
