"""Issue 55, deliverable 2, on the base problem: the rules a page's variants keep (roofline.show.variants.RULES: a
stored type, the unit of the dtype, the CUDA cores' peak for an element-wise kernel, a tile that fits the machine
named, the memory by its name; a stated P) hold for the problem the term itself sets, on every page, this term, the
next and a term whose base dtype is INT8 (`course_copies.integer_term`). A term whose pages would break them is
refused when the file is read (tests/model/test_params.py has the messages). Numbers in the questions go through
roofline.show.fmt: none of four or more digits is written without its separators.
"""
from __future__ import annotations

import importlib
import re
from pathlib import Path

from exercise_answers import PAGES, PROBLEM
from roofline.show import exercises as ex
from roofline.show import variants as V

BOTH_TERMS = True
INTEGER_TERM = True

BARE = re.compile(r"(?<![\w.,^])\d{4,}(?![\w,.])")   # 1212, not 1,212 nor 10¹² nor a name's "A100"


def base_sheets(course):
    for label in PAGES:
        module = importlib.import_module(PAGES[label].__defaults__[0].__module__)
        problem = getattr(course, PROBLEM[label])
        yield label, module, problem, module.exercises(problem)


def test_every_pages_base_problem_keeps_the_rules_its_variants_keep(course):
    for label, _, problem, sheet in base_sheets(course):
        assert V.broken(problem, sheet) == [], label


def test_a_vector_adds_p_is_the_cuda_cores_peak_of_its_machine(course):
    """Week 3's kernels are element-wise (a Tensor Core cannot run them): the P the page and 3주-2, 3주-4 state is the
    CUDA cores' peak of the week's machine and dtype, which the file must have (params.dtype_of_cuda_cores)."""
    from roofline.show.pages import week3_vector_add

    w3 = course.week3
    P = w3.preset.cuda[w3.dtype]
    assert w3.roofline.P == P
    sheet = week3_vector_add.exercises(w3)
    asked = [q for q in sheet.questions if q.params.get("units") == "CUDA Core"]
    assert asked and all(q.params["P"] == P and f"P = {ex.rate(P)}" in q.text for q in asked)


def test_a_tile_held_on_chip_fits_one_block_of_the_machine(course):
    """④-1 and ④-2 hold their rectangle's inputs on chip on ④'s first GPU (④-3 names it); the week's own tiles fit
    one block of the week's machine (params.tiles_on_chip), so the pages time tiles that can run."""
    from roofline import buffers
    from roofline.show.pages import w4_4_tile_size

    w4 = course.week4
    sheet = w4_4_tile_size.exercises(w4)
    for key in ("④-1", "④-2"):
        q = sheet.question(key)
        preset = w4.catalog.presets[q.params["machine"]]
        assert q.params["on_chip"] <= preset.block_smem, key
    limit = w4.preset.block_smem
    assert limit is None or all(buffers.tile_buffers(T, T, T, w4.s, w4.s).inputs <= limit for T in w4.tiles)


def bare_numbers(sheet) -> list[str]:
    found = []
    for q in sheet.questions:
        for text in [*V.question_texts(q), sheet.statement_text]:
            found += [f"{q.key}: {m[0]} in {text[max(0, m.start() - 30):m.end() + 10]}" for m in BARE.finditer(text)]
    return found


def test_no_question_writes_a_long_number_without_separators(course):
    """Every page's questions, hints and solutions, base and variants, write 1,212, never 1212 (the preset names,
    "A100", are no numbers: left out)."""
    names = [p.name for p in course.catalog.presets.values()]
    for label, module, problem, sheet in base_sheets(course):
        for s in (sheet, *(v.exercises for v in V.variants(module, problem))):
            found = [f for f in bare_numbers(s) if not any(f.split(": ", 1)[1].split(" in ")[0] in n for n in names)]
            assert not found, (label, found)


def test_week_3s_heavy_kernel_writes_its_work_per_element_with_separators(course, tmp_path):
    """3주-4's work per element f = ⌊3·s·ridge/2⌋ reaches four digits on a machine whose ridge is high (issue 55 saw
    "1212 OPs"): on the week's machine with its P a thousand times its BW, f is written 1,212-style."""
    from course_copies import set_peak
    from roofline import load
    from roofline.show import fmt
    from roofline.show.pages import week3_vector_add

    w3 = course.week3
    text = set_peak(Path(course.path).read_text(encoding="utf-8"), w3.hardware, w3.dtype, float(w3.preset.BW * 1000))
    path = tmp_path / "course.toml"
    path.write_text(text, encoding="utf-8")
    high = load(path).week3
    q = week3_vector_add.exercises(high).question("3주-4")
    assert q.params["f"] >= 1000 and f"원소마다 {fmt.integer(q.params['f'])} " in q.text
    assert not bare_numbers(ex.Exercises("3주", (q,))), q.text
