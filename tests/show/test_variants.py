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

import dataclasses
import importlib
import re
from fractions import Fraction

import pytest

from coursebook import handout
from exercise_answers import PAGES, PROBLEM
from roofline.errors import ParameterError
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


# ---------------------------------------------------------------- issue 55: the student's problem, stated; the rules

THREE = ["2026123456", "20261001", "\ufeff 2026123456 "]   # the audit's two, and one pasted with a BOM and spaces


def _shown_forms(catalog, name, value) -> set[str]:
    """How a page may write a question's condition: a count with or without separators, a rate in units of 10¹²
    or as a × 10ⁿ, a dtype or a machine by its name."""
    from roofline.show import exercises as ex
    from roofline.show import fmt

    if name == "hardware":
        return {catalog.presets[value].name}
    if name.startswith("dtype"):
        return {value}
    if name in ("P", "BW"):
        return {ex.tera(value), ex.rate(value), fmt.power10(value)}
    return {fmt.integer(value), str(value)}


def _page_text(v) -> str:
    """What the page shows a student of variant `v`: every question as asked, a choice's labels, and a worksheet's
    problem (its sentence and table) — not the "바뀐 조건" line, which is made from the same conditions."""
    sheet = v.exercises
    parts = [q.ask for q in sheet.questions] + [label for q in sheet.questions for _, label in q.choices]
    return " ".join(parts + [sheet.statement_text])


def test_every_condition_a_question_is_judged_on_is_stated_on_the_page(course, drawn):
    """For every page and three identifiers (one with a leading BOM and spaces): each condition a question's answer
    is computed from (`Question.given`: N, T, L, the capacity, a dtype, the machine, P and BW) is written on the
    page the student sees, and "바뀐 조건" names only conditions the page's questions state."""
    for label, (module, problem, found) in drawn.items():
        for student in THREE:
            v = V.draw(module, problem, student, found)
            text = _page_text(v)
            for q in v.exercises.questions:
                for name, value in q.given:
                    if name in V.LABELS and value is not None:
                        forms = _shown_forms(problem.catalog, name, value)
                        assert any(f in text for f in forms), (label, student, q.key, name, value)
            # "바뀐 조건": each item is a condition some question states (and so, above, the page writes)
            stated = {V._shown(problem.catalog, name, value, V.work_dtype(q)) for q in v.exercises.questions
                      for name, value in q.given if name in V.LABELS and value is not None}
            for item in v.conditions.split(" · "):
                assert re.sub(r" \([^()]*-[^()]*\)$", "", item) in stated, (label, student, item)


def test_the_worksheets_statement_is_the_pages_table_for_the_base_and_follows_the_variant(course, drawn):
    from roofline.show.pages import week4_guide

    for label, (module, problem, found) in drawn.items():
        if module is not week4_guide:
            continue
        table = week4_guide.problem_table(problem)["problem-table"]
        shown = str(table._repr_markdown_() if hasattr(table, "_repr_markdown_") else table)
        for item, value in module.exercises(problem).statement[1]:
            if item != "하드웨어":
                assert item in shown and value.replace(" ", " ") in shown.replace(" ", " "), (item, value)
        for student in THREE:
            v = V.draw(module, problem, student, found)
            sentence, rows = v.exercises.statement
            q = v.exercises.questions[0].params
            rows = dict(rows)
            from roofline.show import exercises as ex
            from roofline.show import fmt

            assert f"N = {fmt.integer(q['N'])}" in rows["행렬 크기"].replace("\u00a0", " ")
            assert rows["자료형"].startswith(q["dtype"]) and f"{ex.shape(q['N'])} {q['dtype']}" in sentence
            assert fmt.power10(q["P"]) in rows["최대 연산 성능 P"] and fmt.power10(q["BW"]) in rows[week4_guide.bw_row(
                problem.with_(hardware=q["hardware"], dtype=q["dtype"]))]
            if q["hardware"] != "course":
                assert rows["하드웨어"] == problem.catalog.presets[q["hardware"]].name
            assert V.page_file(module, problem)["variants"][found.index(v)]["problem"] == v.exercises.statement_data()


def test_every_variant_of_every_page_keeps_the_pages_rules(course, drawn):
    """The rules the pages teach, over every variant of every page (this term and the next), checked on the
    questions' own conditions: a stored dtype is a storage type (no TF32) and mixed precision widens (FP16 in, FP32
    out); an integer dtype's work is said in OPs (tests/show/test_work_units.py reads every unit); an element-wise kernel's P is the CUDA
    cores' peak of its machine (never a Tensor Core's); a tile held on chip fits one block's Shared Memory on the
    machine named; "HBM" is written only for a machine whose memory is HBM."""
    for label, (module, problem, found) in drawn.items():
        cat = problem.catalog
        for v in found:
            assert V.broken(problem, v.exercises) == [], (label, v.conditions)
            for q in v.exercises.questions:
                p = q.params
                dtypes = [d for k, d in q.given if k.startswith("dtype")]
                assert not {"TF32"} & set(dtypes), (label, q.key)
                if V.work_dtype(q) and V.work_dtype(q).startswith("INT"):
                    assert "FLOP" not in q.unit.name and "FLOP" not in q.solution[-1], (label, q.key)
                if "dtype_in" in p:
                    assert cat.bytes_per(p["dtype_in"]) <= cat.bytes_per(p["dtype_out"]), (label, q.key)
                if p.get("units") == "CUDA Core":
                    preset = cat.presets[p.get("hardware", p.get("machine"))]
                    assert p["P"] == preset.cuda[p["dtype"]] and p["P"] not in set(preset.peak.values()) - {preset.cuda[p["dtype"]]}
                if "on_chip" in p:
                    preset = cat.presets[p.get("hardware", p.get("machine"))]
                    assert preset.sm is None or p["on_chip"] <= preset.sm.smem_per_block, (label, q.key, p["on_chip"])
                if "hardware" in p and not cat.presets[p["hardware"]].memory.startswith("HBM"):
                    assert "HBM" not in q.text, (label, q.key, q.text)
            if v.exercises.statement:
                hw = v.exercises.questions[0].params["hardware"]
                assert cat.presets[hw].memory.startswith("HBM") or "HBM" not in v.exercises.statement_text
                assert not any("HBM" in lbl for _, lbl in v.exercises.sheet) or cat.presets[hw].memory.startswith("HBM")


def test_the_rules_refuse_what_the_audit_found(course):
    """Each rule does refuse the premise the audit found in a variant (content-5 items 2–4, 31)."""
    from roofline.show.pages import w4_1_intensity, w4_4_tile_size, week3_vector_add, week4_guide

    w3, w4 = course.week3, course.week4
    tensor = next((k, d) for k, p in course.catalog.presets.items() for d in p.peak
                  if d != "FP32" and p.peak[d] not in p.cuda.values() and not d.startswith("INT") and d != "TF32")
    with pytest.raises(ParameterError, match="CUDA Core"):   # a Tensor Core P for a vector add: the cell refuses it,
        w3.with_(hardware=tensor[0], dtype=tensor[1])
    q = week3_vector_add.exercises(w3).question("3주-2")     # and the rule too (a question stated with one)
    tensor_p = {"P": course.catalog.presets[tensor[0]].peak[tensor[1]], "dtype": tensor[1], "machine": tensor[0]}
    vector = dataclasses.replace(q, given=tuple((k, tensor_p.get(k, v)) for k, v in q.given))
    assert V.element_wise_peak(w3, vector) and "CUDA Core" in V.element_wise_peak(w3, vector)
    if "FP8" in course.catalog.dtypes:   # ①-3 of an FP8 (or INT8) week: FP8 in, a wider output (issue 55), never
        narrow = w4_1_intensity.exercises(w4.with_(dtype="FP8", hardware="H100_SXM"))   # FP32 in, FP8 out
        q = narrow.question("①-3")
        cat = course.catalog
        assert cat.bytes_per(q.params["dtype_in"]) <= cat.bytes_per(q.params["dtype_out"])
        assert not any("①-3" in why for why in V.broken(w4, narrow))
        from roofline.show import exercises as ex

        wide_in = ex.Question("x", "FP32 입력, FP8 출력", q.value, q.unit, "", given=ex.given(dtype_in="FP32", dtype_out="FP8"))
        assert V.stored_types(w4, wide_in)                                          # the rule still refuses it
    from dataclasses import replace

    from roofline.show.pages import w4_5_matmul

    sheet5 = w4_5_matmul.exercises(w4)   # ⑤-3 as it read before issue 55: another dtype, the week's P unstated
    q5 = sheet5.question("⑤-3")
    assert not V.stated_peak(sheet5, q5) and V.stated_peak(sheet5, replace(q5, text="같은 FP16 행렬곱에서 T*는?"))
    tf32 = w4_1_intensity.exercises(w4.with_(dtype="TF32", hardware="H100_SXM"))
    assert any("TF32" in why for why in V.broken(w4, tf32))
    gddr = next(k for k, p in course.catalog.presets.items() if not p.memory.startswith("HBM") and "FP16" in p.peak)
    sheet = week4_guide.exercises(w4.with_(hardware=gddr, dtype="FP16"))
    memory = course.catalog.presets[gddr].memory
    assert not any("HBM" in why for why in V.broken(w4, sheet))   # the sheet calls it by its own name (GDDR6)
    assert any(memory in label for _, label in sheet.sheet)
    q = next(q for q in sheet.questions if "hardware" in q.params)
    assert V.memory_named(w4, dataclasses.replace(q, text=q.text + " HBM"))   # and "HBM" on a GDDR GPU is refused
    big = [t for t in V.tile_sets(w4) if max(t["tiles"]) == 4 * max(w4.tiles)]
    if big:
        try:
            wide = w4_4_tile_size.exercises(w4.with_(**big[0]))
        except Exception:   # a tile that does not divide N: the draw leaves it out anyway
            wide = None
        if wide is not None:
            assert any("④-1" in why for why in V.broken(w4, wide))
