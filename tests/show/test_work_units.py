"""Issue 55, deliverable 2: the unit of each question is the one the page teaches for its quantity — OPs, OPs/s,
TOPS and OPs/Byte for an integer dtype's work, FLOPs, FLOPs/s, TFLOPs/s and FLOPs/Byte for a floating-point one —
over every page's exercises and every variant, this term, the next, and a term whose base dtype is INT8
(`course_copies.integer_term`). Also: every chapter recomputes for that term (the dry run of `make refresh`), and
the predict questions of its explorers count OPs.
"""
from __future__ import annotations

import importlib
import re

import pytest

from exercise_answers import PAGES, PROBLEM
from roofline.show import fmt
from roofline.show import variants as V

BOTH_TERMS = True
INTEGER_TERM = True

FLOAT_UNIT = re.compile(r"FLOP")
INTEGER_UNIT = re.compile(r"(?<![A-Za-z])(?:[GT]?OPs?(?:/s|/Byte)?|[GT]OPS)(?![A-Za-z])")
# a quantity the text tags with its own dtype ("FP32 256 FLOPs", "FP32 최대 66.9 TFLOPs/s"): judged by that dtype
TAGGED = re.compile(r"\b(FP32|TF32|FP16|BF16|FP8|INT8)(?: 최대)? [0-9][0-9,.]* ((?:[GT]?FL)?OPs?(?:/s|/Byte)?|[GT]OPS)")


def counted(q):
    p = q.params
    return p.get("dtype", p.get("dtype_in"))


def slips(q) -> list[str]:
    """What the question says in a unit its dtype does not count in (FLOP for an integer one, OP for a float one)."""
    dtype = counted(q)
    if dtype is None:
        return []
    found = []
    for text in [q.ask, q.unit.name, q.hint, *q.solution, *(m.hint for m in q.mistakes), *(c for _, c in q.choices)]:
        for m in TAGGED.finditer(text):
            if fmt.integer_dtype(m[1]) == bool(FLOAT_UNIT.search(m[2])):
                found.append(m[0])
        rest = TAGGED.sub("", text)
        wrong = INTEGER_UNIT if not fmt.integer_dtype(dtype) else FLOAT_UNIT
        found += [f"{dtype}: {text}" for _ in wrong.finditer(rest)][:1]
    return found


def sheets(course):
    for label in PAGES:
        module = importlib.import_module(PAGES[label].__defaults__[0].__module__)
        problem = getattr(course, PROBLEM[label])
        yield label, "기본", module.exercises(problem)
        for v in V.variants(module, problem):
            yield label, v.conditions, v.exercises


def test_no_question_counts_work_in_another_dtype_s_unit(course):
    asked = 0
    for label, which, sheet in sheets(course):
        for q in sheet.questions:
            assert not slips(q), (label, which, q.key, slips(q))
            asked += counted(q) is not None and fmt.integer_dtype(counted(q))
    if fmt.integer_dtype(course.week4.dtype):
        assert asked, "an integer term asks no question in OPs"


def test_an_integer_term_asks_in_ops_and_its_variants_keep_the_rule(course):
    """On the integer term the base questions on its dtype are asked in OPs units (the judge's units know them);
    the variant rule refuses a question that says FLOPs for INT8."""
    if not fmt.integer_dtype(course.week4.dtype):
        pytest.skip("a floating-point term")
    from roofline.show.pages import week4_guide

    sheet = week4_guide.exercises(course.week4)
    assert {q.unit.name for q in sheet.questions} >= {"OPs", "OPs/Byte", "TOPS"}
    q = next(q for q in sheet.questions if q.unit.name == "TOPS")
    from coursebook import handout

    assert sheet.check(q.key, f"{handout.typed_answer(q)} TOPS").right
    from roofline.show import exercises as ex

    flops = ex.Question("x", "INT8 행렬곱의 F는?", q.value, ex.UNITS["TFLOPs/s"], "F = 2N³", given=ex.given(dtype="INT8"))
    assert V.work_units(course.week4, flops) and not V.work_units(course.week4, q)


def test_the_predict_questions_count_the_dtype_s_work(course):
    from coursebook.assets import explorer_data
    from roofline.show.pages import w4_2_roofline, w4_5_matmul

    w4 = course.week4
    wrong = INTEGER_UNIT if not fmt.integer_dtype(w4.dtype) else FLOAT_UNIT
    html = w4_5_matmul.matmul_explorer(w4, w4.tiles[1]).html
    for state in explorer_data(html)[0]["parts"][0]["states"].values():
        for q in (state.get("predict") or {}).get("questions", []):
            said = " ".join([q["ask"], q.get("why", ""), q.get("unit", ""), *q.get("inputs", []),
                             *(m.get("text", "") + m.get("hint", "") for m in q.get("mistakes", []))])
            assert not wrong.search(said), said
    assert w4_2_roofline.roofline_explorer(w4)


def test_every_chapter_recomputes_for_the_term(course):
    """The dry run of `make refresh` (every chapter's code in-process, its derivation gate) passes for the term."""
    from conftest import chapter_memo
    from coursebook import __main__ as coursebook

    coursebook.validate_term(course, memo=chapter_memo(course.path))   # (the chapters' runs kept for this test run)


def _said(section: dict) -> str:
    """A section's glued values as the page gets them (`glue.bundle`: the text, table or math, and the records of
    their derivations, units included)."""
    from roofline.show.glue import bundle

    return " ".join(str(text) for value in section.values() for kind, text in bundle(value).items()
                    if not kind.startswith("image/"))


def test_the_week_4_pages_count_the_week_s_dtype(course):
    """The week-4 pages' tables, sentences and derivation records (`why.sources` names the week's dtype) say the
    week's dtype's units: OPs for an INT8 week, FLOPs for a floating-point one."""
    from roofline.show.pages import w4_1_intensity, w4_3_tiling, w4_5_matmul, w4_summary, week4_guide

    w4 = course.week4
    wrong = FLOAT_UNIT if fmt.integer_dtype(w4.dtype) else INTEGER_UNIT
    sections = {"guide": week4_guide.problem_table(w4), "①": w4_1_intensity.four_ways(w4, max(w4.tiles)),
                "③ counts": w4_3_tiling.counts(w4), "③ general": w4_3_tiling.general(w4),
                "③ discussion": w4_3_tiling.discussion(w4), "⑤ headline": w4_5_matmul.headline_section(w4),
                "⑤ cost": w4_5_matmul.cost_section(w4), "⑤ time": w4_5_matmul.time_section(w4),
                "⑤ assumptions": {"t": w4_5_matmul.assumptions(w4)}, "정리": w4_summary.summary_section(w4)}
    for name, section in sections.items():
        said = _said(section)
        assert not wrong.search(said), (name, wrong.search(said), said[max(0, wrong.search(said).start() - 80):][:160])


SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
STATED_P = re.compile(r"(?:P(?: =|:)|최대) ([0-9][0-9,]*(?:\.[0-9]+)?)(?: × 10([⁰¹²³⁴⁵⁶⁷⁸⁹]+))? ?(T?)")


def stated_peaks(sheet, q) -> list[str]:
    """The P a question is judged with (`Question.given`) when its statement does not state it — in the question's
    own text, a question it cites by key ("②-1의 행렬곱") or the worksheet's problem (its statement), as
    "P = 989.4 × 10¹² FLOPs/s", "P = 989.4 TFLOPs/s" or "FP16 최대 989.4 TFLOPs/s"."""
    from fractions import Fraction

    P = q.params.get("P")
    if P is None:
        return []
    cited = [other.text for other in sheet.questions if other.key != q.key and other.key in q.text]   # "②-1의 행렬곱"
    said = " ".join([q.text, *cited, sheet.statement_text])
    for m in STATED_P.finditer(said):
        value = Fraction(m[1].replace(",", "")) * 10 ** int((m[2] or "0").translate(SUPERSCRIPT))
        if value * (10**12 if m[3] else 1) == Fraction(P):
            return []
    return [f"P = {fmt.power10(P)}"]


def test_every_statement_names_the_p_it_is_judged_with(course):
    """A question judged with a peak P states that P (issue 55: ⑤-3, ⑤-4 asked about another dtype and were judged
    with the week's dtype's P, false for an integer week's INT8 peak beside FP16): base and every variant."""
    for label, which, sheet in sheets(course):
        for q in sheet.questions:
            assert not stated_peaks(sheet, q), (label, which, q.key, q.text, stated_peaks(sheet, q))


# an input of an integer dtype: its element size or its peak (course.toml's keys)
INTEGER_ORIGIN = re.compile(r"^toml:(?:dtypes|presets\.[^.]+\.(?:peak|sparse|cuda))\.(INT[0-9]+)$")
FLOAT_ORIGIN = re.compile(r"^toml:(?:dtypes|presets\.[^.]+\.(?:peak|sparse|cuda))\.(?!INT)[A-Z]+[0-9]+$")


def _records(value, entries: list, recs: dict) -> None:
    """Every derivation record (id → record) and every shown number's entry (`of`, `shown`, `unit`, a table's
    `cell`) in a glued value, wherever it is nested."""
    if isinstance(value, dict):
        if isinstance(value.get("records"), dict):
            recs.update(value["records"])
        if "of" in value and isinstance(value.get("of"), str):
            entries.append(value)
        for v in value.values():
            _records(v, entries, recs)
    elif isinstance(value, list):
        for v in value:
            _records(v, entries, recs)


def _origins(key: str, recs: dict, memo: dict) -> set[str]:
    """The origins of every input in record `key`'s chain."""
    if key not in memo:
        memo[key] = set()
        r = recs[key]
        for origin in [r.get("origin", ""), *(x["origin"] for x in r["inputs"])]:
            kind, _, what = origin.partition(":")
            memo[key] |= _origins(what, recs, memo) if kind == "derived" and what in recs else {origin}
    return memo[key]


def integer_work(glued: dict) -> bool:
    """A glued value shows a number of an integer dtype's work: its record's chain takes an integer dtype's element
    size or peak, or the record itself counts in OPs (F = 2N³ has no dtype in its chain; its page names its unit)."""
    entries, recs = [], {}
    _records(glued, entries, recs)
    memo = {}
    return any(e["of"] in recs and (INTEGER_UNIT.fullmatch(recs[e["of"]]["unit"]) is not None
                                    or any(INTEGER_ORIGIN.match(o) for o in _origins(e["of"], recs, memo)))
               for e in entries)


# a glued number in a chapter's prose and the unit the prose writes after it: "{glue:text}`tc-dense` TFLOPs/s"
PROSE_UNIT = re.compile(r"\{glue:text\}`([^`]+)`\s?([GTP]?FLOPs?(?:/s|/Byte)?)(?![A-Za-z])")


def flop_after_integer_work(md_text: str, glued: dict) -> list[str]:
    """The FLOP units a chapter's prose writes after a glued number of an integer dtype's work."""
    return [m[0] for m in PROSE_UNIT.finditer(md_text)
            if m[1] in glued and integer_work({k: v for k, v in glued[m[1]].items() if not k.startswith("image/")})]


def flop_beside_integer_work(glued: dict) -> list[str]:
    """What a chapter's glued values (their records and shown numbers) write in FLOP units for a quantity of an
    integer dtype's work: a record whose chain takes an INT8 element size or peak, in its own unit, the unit of an
    input not tagged with a floating-point dtype of its own (F = 2N³ beside P_INT8), or the unit its number is
    shown with."""
    entries, recs = [], {}
    _records(glued, entries, recs)
    memo, found = {}, []
    integer = {key for key in recs if any(INTEGER_ORIGIN.match(o) for o in _origins(key, recs, memo))}
    for key in integer:
        r = recs[key]
        if FLOAT_UNIT.search(r["unit"]):
            found.append(f"{r['symbol']} ({r['name']}) in {r['unit']}")
        for x in r["inputs"]:
            kind, _, what = x["origin"].partition(":")
            chain = _origins(what, recs, memo) if kind == "derived" and what in recs else {x["origin"]}
            if FLOAT_UNIT.search(x["unit"]) and not any(FLOAT_ORIGIN.match(o) for o in chain):
                found.append(f"{x['symbol']} ({x['name']}) in {x['unit']}, beside {r['symbol']}")
    for key, r in recs.items():   # the converse: a float dtype's work (its chain takes a float dtype alone) in OPs
        chain = _origins(key, recs, memo)
        if key not in integer and any(FLOAT_ORIGIN.match(o) for o in chain) and INTEGER_UNIT.fullmatch(r["unit"]):
            found.append(f"{r['symbol']} ({r['name']}) in {r['unit']}, of a float dtype's work")
    for entry in entries:
        if entry["of"] in integer and any(FLOAT_UNIT.search(str(entry.get(k, ""))) for k in ("unit", "cell")):
            found.append(f"{recs[entry['of']]['symbol']} shown as {entry.get('cell') or entry['shown']} {entry['unit']}")
    return sorted(set(found))


def test_no_page_writes_flops_beside_integer_work(course):
    """Over every chapter run for the term (in-process, as `make refresh` runs it), no number of an integer dtype's
    work is written in FLOPs, FLOPs/s, TFLOPs/s or FLOPs/Byte: records, their inputs, the unit a number is shown
    with, and the unit the chapter's prose writes after it (issue 55: the FlashAttention note's records, week 3's per-element table, ①'s dtype table). A float
    quantity the page states apart from the term (a paper's FP16 rate, a peak tagged FP32) keeps FLOPs."""
    if not fmt.integer_dtype(course.week4.dtype):
        pytest.skip("a floating-point term: every FLOP is its own")
    from conftest import chapter_memo
    from coursebook import editions
    from coursebook.__main__ import chapter_sources

    wrong = {}
    for md in chapter_sources():
        if md.stem == "measured":   # (the measured page states its own GPUs' dtypes; not this term's work)
            continue
        glued = editions.recompute(md, course_path=course.path, memo=chapter_memo(course.path))   # (the dry run's)
        prose = flop_after_integer_work(md.read_text(encoding="utf-8"), glued)
        if prose:
            wrong[f"{md.stem} (prose)"] = prose
        for name, bundle in glued.items():
            said = flop_beside_integer_work({k: v for k, v in bundle.items() if not k.startswith("image/")})
            if said:
                wrong[f"{md.stem}:{name}"] = said
    assert not wrong, wrong
