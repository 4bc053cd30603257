"""The exercises: the week-4 guide's worksheet and the questions at the end of ①–⑤ and the week-3 note.

- The answers are the model's values: computed here from the course's formulas (F = 2N³, Q = 2sN³/T + sN², …)
  for the live parameters, and the seed documents' literal values for the frozen seed parameters.
- The judging rule, with the issue's own example (17.246978…: 17.247 and 17.246978 right, 17.2 only when the
  reader asks for three digits, 1 % off wrong, GiB for GB a unit mistake).
- In a real kernel, `check` on the ⑤ edition gives the verdicts and messages that the page gives
  (test_exercises_browser.py checks the page against the same expectations).
"""
from __future__ import annotations

import math
import re
from decimal import Decimal, localcontext
from fractions import Fraction

import nbformat
import pytest

from conftest import CHAPTERS
from coursebook import editions
from roofline.errors import ParameterError
from roofline.show import exercises, fmt

PAGES = {   # page label → how its exercises are built from the course
    "ch-guide": lambda c: exercises.guide(c.week4),
    "ch-intensity": lambda c: exercises.intensity(c.week4),
    "ch-roofline": lambda c: exercises.roofline(c.week4),
    "ch-tiling": lambda c: exercises.tiling(c.week4),
    "ch-tile-size": lambda c: exercises.tile_size(c.week4),
    "ch-matmul": lambda c: exercises.matmul(c.week4),
    "ch-week3": lambda c: exercises.vector_add(c.week3),
}
CONFUSED = {"GB": "GiB", "KiB": "KB", "Byte": "KiB", "ms": "s", "TFLOPs/s": "GFLOPs/s", "FLOPs": "GFLOPs"}


def sig(x, k: int) -> str:
    """x written with k significant digits, rounded half up: plainly ("17.25"), or with an exponent when a
    whole number would end in zeros that the rule does not count ("5.50e2", not "550")."""
    x = Fraction(x)
    if x == 0:
        return "0"
    with localcontext() as ctx:
        ctx.prec = 60
        d = Decimal(x.numerator) / Decimal(x.denominator)
        exp = math.floor(d.copy_abs().log10())
        text = format(d.quantize(Decimal(1).scaleb(exp - k + 1), rounding="ROUND_HALF_UP"), "f")
        if "." not in text and text.endswith("0"):
            text = format(d, f".{k - 1}e")
        return text


def next_tile(N: int, tiles) -> int:
    return min([T for T in range(max(tiles) + 1, N + 1) if N % T == 0] or [max(tiles)])


# ---------------------------------------------------------------- the answers are the model's

def test_the_worksheet_has_every_quantity_of_the_shared_problem_for_every_case(course):
    w4 = course.week4
    sheet = exercises.guide(w4)
    N, s, hw = w4.N, w4.s, w4.hardware
    cases = [None, *w4.tiles]
    assert len(sheet.questions) == 9 * len(cases)
    for T in cases:
        name = "없음" if T is None else str(T)
        Q = 2 * s * N**3 // (1 if T is None else T) + s * N**2
        F = 2 * N**3
        want = {"F": F, "Q": Q, "I": Fraction(F, Q), "R_roof": min(hw.P, hw.BW * Fraction(F, Q)),
                "t_compute": F / hw.P, "t_memory": Q / hw.BW, "t_ideal": max(F / hw.P, Q / hw.BW),
                "inputs": 2 * s * (1 if T is None else T * T), "acc": s * (1 if T is None else T * T)}
        for row, value in want.items():
            assert sheet.question(f"{row}-{name}").value == value, (row, T)


def test_each_chapter_has_at_least_two_exercises_answered_by_the_model(course):
    w4, w3 = course.week4, course.week3
    N, s, hw, T = w4.N, w4.s, w4.hardware, next_tile(w4.N, w4.tiles)
    Q_T = 2 * s * N**3 // T + s * N**2
    want = {
        "①-1": Fraction(2 * N**3, Q_T), "①-2": Fraction(1, 3 * s), "①-3": Fraction(2 * N**3, 3 * s * N**2),
        "③-1": 2 * s * w4.small_N**3, "③-2": 2 * s * w4.small_N**3 // w4.small_T, "③-3": Q_T,
        "④-1": 2 * s * T * T, "④-2": 4 * s * T * T,
        "④-3": course.presets[w4.gpus[0]].smem_per_SM // (2 * s * min(w4.tiles) ** 2),
        "⑤-1": max(2 * N**3 / hw.P, Q_T / hw.BW),
        "⑤-2": (2 * s * (2 * N) ** 3 + s * (2 * N) ** 2) / hw.BW,
        "3주-1": 3 * w3.s * 2 * w3.L / w3.hardware.BW,
        "3주-2": max(w3.L / (2 * w3.hardware.P), 3 * w3.s * w3.L / w3.hardware.BW),
        "3주-3": w3.capacity // (3 * w3.s),
    }
    found = {}
    for make in list(PAGES.values())[1:]:
        ex = make(course)
        assert len(ex.questions) >= 2, ex.key
        found.update({q.key: q.value for q in ex.questions})
    for key, value in want.items():
        assert found[key] == value, key
    I = exercises.roofline(w4).questions[0]
    I_typed = Fraction(re.search(r"I = ([\d.,]+) FLOPs/Byte", I.text)[1].replace(",", ""))
    assert I_typed < hw.ridge and found["②-1"] == hw.BW * I_typed      # memory-bound: below the ridge
    assert found["②-2"] == min(2 * hw.P, hw.BW * I_typed) and found["②-3"] == min(hw.P, 2 * hw.BW * I_typed)


def test_with_the_seed_parameters_the_answers_are_the_seed_documents_values(seed):
    sheet = exercises.guide(seed.week4)
    assert fmt.giga(sheet.question("Q-없음").value) == "549.822923"          # GB, no reuse
    assert fmt.ms(sheet.question("t_ideal-없음").value) == "549.822923"
    assert fmt.ms(sheet.question("t_ideal-64").value) == "8.657043"
    assert fmt.integer(sheet.question("F-32").value) == "137,438,953,472"
    assert fmt.decimal(exercises.matmul(seed.week4).question("⑤-3").value, 3) == "80.789"   # T* = 80N/(N − 40)
    assert fmt.tera(exercises.roofline(seed.week4).question("②-1").value) == "10.000000"


def test_the_answers_follow_a_changed_parameter(course):
    w4 = course.week4.with_(N=course.week4.N * 2)
    before = exercises.guide(course.week4).question("F-없음").value
    after = exercises.guide(w4).question("F-없음").value
    assert after == 8 * before
    assert exercises.matmul(w4).digest() != exercises.matmul(course.week4).digest()


# ---------------------------------------------------------------- the rule

def a_question(value, unit="ms") -> exercises.Question:
    return exercises.Question("예-1", "시험", Fraction(value) * exercises.UNITS[unit].size, exercises.UNITS[unit], "식")


def test_the_rule_of_the_issue():
    q = a_question(Fraction("17.2469783"))
    assert exercises.judge(q, 17.247).right and exercises.judge(q, "17.246978").right
    assert exercises.judge(q, "17.24").right                                    # cut off at its last digit
    assert exercises.judge(q, "17.2").reason == "digits"
    assert exercises.judge(q, "17.2", digits=3).right                           # the reader asked for 3 digits
    assert exercises.judge(q, "17.42").reason == "wrong" and exercises.judge(q, "17.419").reason == "wrong"
    assert exercises.judge(q, "0.017247").reason == "unit"                      # seconds
    assert "ms는 10⁻³ s다" in exercises.judge(q, "0.017247").message
    assert exercises.judge(q, "1.7247e1").right and exercises.judge(q, "1.7247×10¹").right
    assert exercises.judge(q, "17.247 ms").right
    assert exercises.judge(q, "열일곱").reason == "unreadable"


def test_units_of_bytes_are_named():
    gb = a_question(Fraction(549822922752, 10**9), "GB")
    verdict = exercises.judge(gb, sig(Fraction(549822922752, 2**30), 8))
    assert verdict.reason == "unit" and "GB는 10⁹ Byte다" in verdict.message and "GiB" in verdict.message
    assert exercises.judge(gb, "549,822,922,752").reason == "unit"              # Byte
    assert exercises.judge(gb, "549.8").right


def test_significant_digits_are_read_as_written():
    read = exercises.read
    assert (read("137400000000").digits, read("137400000000").last) == (4, 8)
    assert (read("17.20").digits, read("17.20").last) == (4, -2)
    assert read("1.374e11").value == 137_400_000_000 and read("1.374×10^11").value == 137_400_000_000
    assert read("1,024").value == 1024 and read("-0.5").value == Fraction(-1, 2) and read(".25").digits == 2
    assert exercises.typed_text(17.0) == "17" and exercises.typed_text(1.374e11) == "137400000000"
    exact = a_question(Fraction(1, 4), "FLOPs/Byte")
    assert exercises.judge(exact, "0.25").right                                 # exactly the answer


def test_check_in_a_notebook_names_the_question_and_refuses_a_bad_key(course):
    ex = exercises.matmul(course.week4)
    assert ex.check("⑤-1").message.endswith("(단위: ms)")
    assert ex.check("5-1", show=True).message == f"답: {fmt.number(ex.questions[0].value * 1000, 6)} ms"
    with pytest.raises(ParameterError, match="문제 번호: '⑤-9'"):
        ex.check("⑤-9", 1)
    with pytest.raises(ParameterError, match="digits"):
        ex.check("⑤-1", 1, digits=9)
    with pytest.raises(ParameterError, match="답"):
        ex.check("⑤-1", [1])


def test_the_answers_are_not_in_the_page_text_nor_in_the_prose(course):
    """The page carries them only as fractions for its script; no formatted answer sits in the HTML text."""
    for label, make in PAGES.items():
        ex = make(course)
        page = ex._repr_html_()
        visible = re.sub(r"<script.*?</script>", "", page, flags=re.S)
        for q in ex.questions:
            assert q.answer not in visible and f"답: {q.answer}" not in visible, (label, q.key)


# ---------------------------------------------------------------- in a kernel

def test_check_in_a_kernel_gives_the_page_verdicts(course, tmp_path):
    md = CHAPTERS / "w4_5_matmul.md"
    ex = exercises.matmul(course.week4)
    q = ex.questions[0]
    value = Fraction(q.value) / q.unit.size
    tries = [sig(value, 12), sig(value, exercises.DIGITS), sig(value, exercises.DIGITS - 1),
             sig(value * Fraction(101, 100), 8), sig(Fraction(q.value), 8)]
    expected = [exercises.RIGHT, exercises.RIGHT, exercises.digits_message(exercises.DIGITS), f"다시. 힌트: {q.hint}",
                exercises.unit_message(q.unit, exercises.UNITS["s"])]
    nb = nbformat.read(md.with_suffix(".ipynb"), as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    lines = [f'print(check("{q.key}", "{t}").message)' for t in tries] + [f'print(check("5-1", "{tries[0]}", digits=3).message)']
    nb.cells.append(nbformat.v4.new_code_cell("\n".join(lines)))
    with editions.book_mode(False):
        editions.execute(nb, tmp_path, timeout=180)
    printed = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.output_type == "stream").splitlines()
    assert printed == expected + [exercises.RIGHT]
