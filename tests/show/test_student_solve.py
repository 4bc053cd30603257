"""A student solves every page's exercises from what the page states (issue 55, deliverables 1 and 3), this term and
the next: for the page's own problem and for three identifiers' variants (one pasted with a BOM and spaces around it),
every number the judge expects is derived from the statement alone (tests/student_solver.py reads the numbers out of
the text, never out of the answer, the solution or `Question.given`) and the judge calls it right; no statement rests
on a premise the pages call false; the mistakes a student plausibly makes are named, and named rightly.

The worksheet's statement is its problem table (`Exercises.statement`, which the page shows in place of its own for a
student: tests/book/test_variants_browser.py checks that in Chromium, this term and the next).
"""
from __future__ import annotations

import re

import pytest

from coursebook import handout
from roofline.show import exercises as ex
from roofline.show import variants as V
from student_solver import slips, solve, typed

BOTH_TERMS = True   # every test that takes `course` runs for the live and the next term (tests/conftest.py),
RANDOM_TERM = True  # and for a term drawn at random and issue 36's term
pytestmark = pytest.mark.heavy(20)

THREE = ["2026123456", "20261001", "\ufeff 2026123456 "]   # the audit's two, and one pasted with a BOM and spaces


def sheets(course):
    """(page, who, Exercises) for every page with variants: its own problem, then each of THREE's."""
    for name, module in handout.varied_pages().items():
        problem = getattr(course, module.VARIANTS.problem)
        yield name, "base", module.exercises(problem)
        found = V.variants(module, problem)
        for student in THREE:
            yield name, student, V.draw(module, problem, student, found).exercises


def test_every_exercise_solved_from_its_statement_is_right(course):
    wrong, solved = [], 0
    for name, who, sheet in sheets(course):
        answers = solve(sheet)          # raises student_solver.Missing when a statement lacks a number it needs
        assert set(answers) == {q.key for q in sheet.questions}, (name, who)
        for q in sheet.questions:
            verdict = ex.judge(q, typed(q, answers[q.key]))
            solved += 1
            if not verdict.right:
                wrong.append((name, who, q.key, typed(q, answers[q.key]), q.answer, verdict.message))
    assert wrong == [] and solved >= 4 * 60


def _false_premises(problem, sheet) -> list[str]:
    """What a statement says that the pages call false: an integer dtype counted in FLOPs (a quantity the text tags
    with a floating-point dtype, "FP32 256 FLOPs", aside), TF32 as a stored type,
    HBM on a machine whose memory is another, one peak given twice."""
    texts = [q.text for q in sheet.questions] + ([sheet.statement_text] if sheet.statement else [])
    found = []
    for text in texts:
        untagged = re.sub(r"\b(?:FP32|TF32|FP16|BF16|FP8)(?: 최대)? [\d.,]+ T?FLOPs(?:/s)?", "", text)   # FP32 256 FLOPs
        if re.search(r"INT\d", text) and "FLOP" in untagged:
            found.append(f"정수형을 FLOPs로: {text}")
        if "TF32(" in text:
            found.append(f"TF32를 저장 형식으로: {text}")
        for preset in problem.catalog.presets.values():
            if preset.name in text and "HBM" in text and not preset.memory.startswith("HBM"):
                found.append(f"{preset.memory}를 HBM으로: {text}")
        if re.search(r"(\S+ 최대 [\d.,]+ TFLOPs/s), \1", text):
            found.append(f"같은 최대 성능을 두 번: {text}")
    return found


def test_no_variant_states_a_false_premise(course):
    """Over every variant of every page (not only THREE's). (The page's own problem states the term's parameters:
    a term drawn at random may put the week-3 vectors in TF32, which is the instructor's choice, not a variant's.)"""
    found = []
    for name, module in handout.varied_pages().items():
        problem = getattr(course, module.VARIANTS.problem)
        base = {q.text for q in module.exercises(problem).questions}
        for v in V.variants(module, problem):
            new = ex.Exercises(v.exercises.key, tuple(q for q in v.exercises.questions if q.text not in base),
                               statement=v.exercises.statement)
            found += [f"{name}: {why}" for why in _false_premises(problem, new)]
    assert found == []


def test_the_mistakes_a_student_makes_are_named_rightly(course):
    """Every named mistake of every question at its value, and unlisted ones (×2 for the FMA forgotten, the other
    dtype's bytes, another unit prefix), for THREE's variants: none is named as another mistake (or called right or
    "the answer cut short"), at most 5 are not recognised."""
    tried, wrongly, unknown = 0, [], []
    for name, who, sheet in sheets(course):
        if who == "base":
            continue
        for key, answer, names in slips(sheet):
            q = sheet.question(key)
            verdict = ex.judge(q, answer)
            got = set(verdict.mistake.split("+")) if verdict.reason == "mistake" else {verdict.reason}
            tried += 1
            if not names & got:
                (unknown if verdict.reason == "wrong" else wrongly).append((name, who, key, answer, names,
                                                                            verdict.message))
    assert tried >= 80 and wrongly == [] and len(unknown) <= 5, (tried, wrongly, unknown)
