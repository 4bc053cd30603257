"""A term is frozen when it is published (issue 56): term-lock.json holds the course file's digest and, per page, the
digest of the variants file the site serves. A commit that keeps course.toml keeps every student's problem byte for
byte, or `make check` names the pages whose problems it would change and the command that starts a new term.

- For this term and the next: a fresh lock holds and names nothing.
- For the term in force: 40 identifiers' problems (conditions, statements, answers, mistake tables: the page's
  variants file) are recorded; then library changes that keep course.toml — an axis reordered, the variants kept per
  page lowered, a mistake's message reworded — either leave all 40 problems as they were or are named by the check's
  Korean line, with `make new-term`. (A change that draws nothing new, a docstring's, is not named: the committed
  lock, written by another process, holds for this process's draw, test_the_committed_lock_is_the_live_terms_and_holds.)
  (What the lock compares is the drawn files' digests, whatever the term's values: the next term would draw every
  page twice more per change to show the same.)
- The checkout's committed lock is the live term's, and the library draws what it froze (else this fails with the
  check's own line: run `make new-term` only to start a new term on purpose).
"""
from __future__ import annotations

import json

import pytest

from coursebook import handout
from roofline.show import exercises as ex
from roofline.show import variants as V

BOTH_TERMS = True
pytestmark = pytest.mark.heavy(40)   # rough seconds, for the order of the run (tests/conftest.py)
IDS = [f"2026{n:04d}" for n in range(38)] + ["김철수", "\ufeffS-7"]


def problems(course) -> dict[tuple[str, str], str]:
    """(page, identifier) → the identifier's variant of the page as its file publishes it (JSON text)."""
    out = {}
    for name, module in handout.varied_pages().items():
        published = json.loads(handout.page_body(module, course))
        for student in IDS:
            i = V.index(published["term"], student, len(published["variants"]))
            out[name, student] = json.dumps(published["variants"][i], ensure_ascii=False, sort_keys=True)
    return out


@pytest.fixture()
def locked(course, tmp_path):
    """The lock of the library as it is: its draws are the process's (`variants._FOUND`, made once per page and term
    and kept by every test here: each change below draws again into a cache of its own, which monkeypatch then drops)."""
    lock = tmp_path / "term-lock.json"
    handout.write_lock(course, path=lock)
    return lock


def test_a_fresh_lock_holds_and_names_nothing(course, locked):
    assert handout.thawed(course, locked) == [] and handout.frozen_problems(course, locked) == []


def reorder_axes(monkeypatch, module):
    bounds = module.VARIANTS
    monkeypatch.setattr(module, "VARIANTS", V.Bounds(bounds.problem, *reversed(bounds.axes)))


CHANGES = {
    "axes reordered on every page": lambda mp: [reorder_axes(mp, m) for m in handout.varied_pages().values()],
    "fewer variants kept": lambda mp: mp.setattr(V, "LIMIT", V.LIMIT - 7),
    "a mistake's message reworded": lambda mp: mp.setattr(ex, "mistake_message", (
        lambda old: lambda m, q=None: old(m, q) + " (고침)")(ex.mistake_message)),
}
# the changes that surely give some student another problem (the draw's order does not follow the axes' order, so
# reordering them may change nothing: then nothing need be named)
CHANGING = {"fewer variants kept", "a mistake's message reworded"}


@pytest.fixture()
def live_locked(live_course, tmp_path):
    lock = tmp_path / "term-lock.json"
    handout.write_lock(live_course, path=lock)
    return lock


@pytest.mark.parametrize("change", CHANGES)
def test_a_commit_that_keeps_course_toml_keeps_40_problems_or_the_check_names_it(live_course, live_locked, monkeypatch,
                                                                                 change):
    course, locked = live_course, live_locked
    before = problems(course)
    CHANGES[change](monkeypatch)
    monkeypatch.setattr(V, "_FOUND", {})
    after = problems(course)
    changed_pages = sorted({name for (name, student) in before if before[name, student] != after[name, student]})
    named = handout.thawed(course, locked)
    assert set(changed_pages) <= set(named), (change, changed_pages, named)    # no student's problem changes unsaid
    if change in CHANGING:
        assert changed_pages, change
    if changed_pages:
        line = handout.frozen_problems(course, locked)[0]
        assert all(name in line for name in named) and handout.NEW_TERM in line and "학기" in line


def test_the_committed_lock_is_the_live_terms_and_holds(live_course):
    lock = handout.read_lock()
    assert lock is not None, f"{handout.LOCK.name} is missing: `make new-term` writes it"
    assert lock["course"] == handout.course_digest(live_course), "the lock is another course.toml's: `make new-term`"
    assert handout.frozen_problems(live_course) == [], handout.frozen_problems(live_course)


def test_a_lock_holds_its_course_file_and_every_page_and_says_nothing_of_another(course, tmp_path):
    other = tmp_path / "lock.json"
    if handout.Path(course.path).resolve() != handout.COURSE_FILE:
        assert handout.thawed(course) == []                # another term's file: the live lock says nothing of it
    handout.write_lock(course, path=other)
    data = json.loads(other.read_text(encoding="utf-8"))
    assert data["course"] == handout.course_digest(course) and set(data["pages"]) == set(handout.varied_pages())


def test_a_kept_draw_is_the_librarys_and_a_damaged_one_is_drawn_again(course, tmp_path):
    """The variants a build keeps (`handout.page_body(…, memo)`, read by `make check` and the answer key): the same
    bytes as a fresh draw, kept under the library's and the course file's digests; a kept file changed in one byte
    is not trusted but drawn again (and kept right)."""
    module = handout.varied_pages()["measured"]
    fresh = handout.page_body(module, course)
    memo = tmp_path / ".variants"
    assert handout.page_body(module, course, memo) == fresh
    [kept] = memo.glob("*/measured.*.json")
    assert handout.course_digest(course) in kept.name and handout.digest_of(fresh) in kept.name
    damaged = bytearray(fresh)
    damaged[len(damaged) // 2] ^= 1
    kept.write_bytes(bytes(damaged))
    assert handout.page_body(module, course, memo) == fresh
    assert [p.read_bytes() for p in memo.glob("*/measured.*.json")] == [fresh]
