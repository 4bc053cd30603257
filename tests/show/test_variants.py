"""roofline.show.variants: a student's variant of every page's exercises (issue 40, part 2), for this term and the next.

- Every page with exercises declares its bounds (`VARIANTS`) for the problem its parameter cell sets, and has variants.
- For 200 identifiers: the variant is one combination of the declared bounds (its conditions lie in them), the same
  on every draw, and the page's own `exercises` of the changed problem (so judged, hinted and mistake-named like the
  base); its answers are not the base's; two different variants differ in at least one condition of the page.
- Per question, too: each takes several forms (its conditions, text and answer) over the 200 identifiers, and two of
  them get the same form of a question — its answer copied from the other's — in at most a fifth of the pairs.
- The answers the answer key writes (`coursebook.handout.typed_answer`) are right for the judge, for every variant.
- The identifier → variant mapping is FNV-1a 32 over UTF-8 (the published test vectors), the same as the page's
  script (test_variants_browser.py checks the page against this module).
- The page's file: one entry per variant, each question with its text and what the page judges with.
"""
from __future__ import annotations

import importlib
from fractions import Fraction

import pytest

from coursebook import handout
from exercise_answers import PAGES, PROBLEM
from roofline.show import variants as V

BOTH_TERMS = True

IDS = [f"2026{n:05d}" for n in range(190)] + ["김철수", "홍길동-01", "  x-7 ", "e\u0301", "é", "A", "a", "학번 9", "id@class", "0"]


def module_of(label):
    found = PAGES[label].__defaults__[0]
    return importlib.import_module(found.__module__)


def base_problem(course, label):
    return getattr(course, PROBLEM[label])


@pytest.fixture(scope="module")
def drawn(course):
    out = {}
    for label in PAGES:
        module = module_of(label)
        problem = base_problem(course, label)
        out[label] = (module, problem, V.variants(module, problem))
    return out


def test_every_page_with_exercises_declares_its_bounds_and_has_variants(course, drawn):
    assert set(PAGES) and len(IDS) == 200
    for label, (module, problem, found) in drawn.items():
        assert module.VARIANTS.problem == PROBLEM[label], label
        assert 2 <= len(found) <= V.LIMIT, (label, len(found))


def test_200_identifiers_get_a_variant_inside_the_bounds_the_same_on_every_draw(course, drawn):
    for label, (module, problem, found) in drawn.items():
        allowed = {tuple(sorted(c.items())) for c in module.VARIANTS.combinations(problem)}
        hit = set()
        for student in IDS:
            v = V.draw(module, problem, student, found)
            assert tuple(sorted(v.changes)) in allowed, (label, student)
            assert V.draw(module, problem, student, found) is v
            assert V.draw(module, problem, f"  {student}\t", found) is v         # trimmed, as the store keeps it
            hit.add(found.index(v))
        for v in (found[i] for i in hit):   # each variant drawn: the page's own exercises of the changed problem
            again = module.exercises(problem.with_(**dict(v.changes)))
            assert [(q.key, q.text, q.value) for q in again.questions] == [(q.key, q.text, q.value) for q in v.exercises.questions]
        assert len(hit) >= min(len(found), 10), (label, len(hit))   # 200 students are spread over the variants
        assert V.draw(module, problem, "e\u0301", found) is V.draw(module, problem, "é", found)   # NFC


def test_a_variants_answers_are_not_the_base_ones_and_variants_differ(course, drawn):
    for label, (module, problem, found) in drawn.items():
        base = module.exercises(problem)
        marks = set()
        for v in found:
            assert v.conditions, label
            assert [q.key for q in v.exercises.questions] == [q.key for q in base.questions]
            for q in v.exercises.questions:
                if not q.is_choice:
                    assert Fraction(q.value) != Fraction(base.question(q.key).value), (label, q.key, v.conditions)
            mark = tuple((q.text, str(q.value)) for q in v.exercises.questions)
            assert mark not in marks, (label, v.conditions)   # two variants differ in a condition of some question
            marks.add(mark)


MIN_FORMS = 6              # forms of one question over the 200 identifiers, at least
MAX_SHARED = Fraction(1, 5)  # pairs of identifiers that get the same form of a question, at most


def test_every_question_differs_between_most_pairs_of_identifiers(course, drawn):
    """A question reads only some of a variant's conditions (③-1 its small example and dtype, not the machine), so
    two students with different variants may still get one of its forms: no question has fewer than MIN_FORMS, and
    no question is the same for more than MAX_SHARED of the pairs of the 200 identifiers."""
    import itertools

    for label, (module, problem, found) in drawn.items():
        sheets = [V.draw(module, problem, student, found).exercises for student in IDS]
        for q in module.exercises(problem).questions:
            forms = [(repr(sheet.question(q.key).given), sheet.question(q.key).text, str(sheet.question(q.key).value))
                     for sheet in sheets]
            shared = Fraction(sum(a == b for a, b in itertools.combinations(forms, 2)), len(IDS) * (len(IDS) - 1) // 2)
            assert len(set(forms)) >= MIN_FORMS and shared <= MAX_SHARED, (label, q.key, len(set(forms)), float(shared))


def test_the_answer_keys_answers_are_right_for_every_variant(course, drawn):
    for label, (module, problem, found) in drawn.items():
        for v in found:
            for q in v.exercises.questions:
                typed = handout.typed_answer(q)
                assert v.exercises.check(q.key, typed).right, (label, q.key, typed)


def test_the_hash_is_fnv1a_32_as_published():
    # the FNV-1a 32-bit test vectors (Fowler, Noll, Vo): "", "a", "foobar"
    assert V.fnv1a("") == 0x811C9DC5
    assert V.fnv1a("a") == 0xE40C292C
    assert V.fnv1a("foobar") == 0xBF9CF968
    assert V.index("t", "x", 7) == V.fnv1a("t\nx") % 7


def test_the_page_file_has_each_variants_questions_as_the_page_judges_them(course, drawn):
    for label, (module, problem, found) in drawn.items():
        data = V.page_file(module, problem)
        assert data["term"] == V.term(problem) and len(data["variants"]) == len(found)
        for entry, v in zip(data["variants"], found):
            assert entry["conditions"] == v.conditions
            expected = v.exercises.data()["questions"]
            assert entry["mistakes"] == v.exercises.data()["mistakes"]
            assert set(entry["questions"]) == set(expected)
            for key, item in entry["questions"].items():
                q = v.exercises.question(key)
                assert item["ask"] == q.ask
                # a choice question's labels are the variant's own (they can name its numbers); the page places them
                assert item.get("choices") == ([list(c) for c in q.choices] if q.is_choice else None)
                assert {k: x for k, x in item.items() if k not in ("ask", "choices")} == expected[key]


def test_another_term_draws_other_variants(course, drawn):
    label = next(iter(drawn))
    module, problem, found = drawn[label]
    assert V.term(problem) != V.term(problem.with_(**dict(found[0].changes)))
