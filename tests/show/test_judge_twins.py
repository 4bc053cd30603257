"""The judge and its JavaScript twin, from one table, without a build or a browser (issue 55, deliverable 3).

- tests/show/judge_cases.json: typed answers with the verdict each must get — right roundings and cuts at each digit
  setting, a whole number's trailing zeros read as meant ("60" for 60.235 at two digits, "1820" for 1,820.01), round
  wrong numbers that are a mistake's value or another unit and not "the answer cut short" (100 for 52, 0.5 for
  0.5369, 40 for 40.13, 16 for 15.876), mistakes that give the same value named together, choices answered by what
  they rest on, exponents far beyond any answer and separators where a number has none (fuzz-2 F-8).
- Rows made here from the library, for every page's questions of the term: every named mistake at its value (and a
  value typed in full or to 12 digits), the answer rounded and cut off at each digit setting, every choice.
- Each row judged by `exercises.judge` and by `_static/judge.js` itself, imported by Node (tests/show/twins.js): the
  same verdict, kind and message. Every explorer state's predict questions likewise: `predict.guess` against
  predict.js's `judgeGuess`.
"""
from __future__ import annotations

import json
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest

from coursebook.assets import explorer_data
from exercise_answers import PAGES, sig
from roofline.show import exercises as ex
from roofline.show import predict as pr
from roofline.show.mistakes import Mistake
from roofline.show.pages import w4_2_roofline, w4_4_tile_size, w4_5_matmul, week3_vector_add

BOTH_TERMS = True    # the rows made from the pages run for the live term and the next one (tests/conftest.py)

HERE = Path(__file__).parent
TABLE = json.loads((HERE / "judge_cases.json").read_text(encoding="utf-8"))
pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def node(sets=(), answers=(), guesses=()) -> dict:
    """The page's scripts' verdicts (tests/show/twins.js) for the given cases."""
    done = subprocess.run(["node", str(HERE / "twins.js")], capture_output=True, text=True, encoding="utf-8",
                          input=json.dumps({"sets": list(sets), "answers": list(answers), "guesses": list(guesses)}),
                          check=False, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def table_question(name: str) -> ex.Question:
    spec = TABLE["questions"][name]
    if "choices" in spec:
        return ex.Question(name, "시험", spec["answer"], ex.CHOICE, spec["hint"],
                           choices=tuple(tuple(c) for c in spec["choices"]),
                           mistakes=tuple(Mistake(k, v, "힌트.") for k, v in spec.get("mistakes", [])))
    unit = ex.UNITS[spec["unit"]]
    return ex.Question(name, "시험", Fraction(spec["answer"]) * unit.size, unit, spec.get("hint", "식"),
                       exact=spec.get("exact", False),
                       mistakes=tuple(Mistake(k, Fraction(v) * unit.size, "힌트.") for k, v in spec.get("mistakes", [])))


def twins(sets: list[ex.Exercises], cases: list[tuple[int, ex.Question, str, int]]) -> list[tuple]:
    """Each case judged by the library and by the page's script: [(case, library verdict, script verdict)]."""
    got = node([s.data() for s in sets], [[i, q.key, typed, digits] for i, q, typed, digits in cases])["answers"]
    return [(case, ex.judge(case[1], case[2], case[3]), js) for case, js in zip(cases, got)]


def same(verdict: ex.Verdict, js: dict) -> bool:
    return (js["reason"], js["message"], js["mistake"]) == (verdict.reason, verdict.message, verdict.mistake)


def test_the_table_in_python_and_in_the_pages_script():
    questions = {name: table_question(name) for name in TABLE["questions"]}
    sheet = ex.Exercises("표", tuple(questions.values()))
    cases = [(0, questions[row["question"]], row["typed"], row["digits"]) for row in TABLE["cases"]]
    wrong = []
    for row, ((_, q, typed, digits), verdict, js) in zip(TABLE["cases"], twins([sheet], cases)):
        want = (row["reason"], row.get("mistake", ""))
        if (verdict.reason, verdict.mistake) != want or ("message" in row and verdict.message != row["message"]):
            wrong.append(("library", q.key, typed, digits, want, verdict.reason, verdict.mistake, verdict.message))
        if not same(verdict, js):
            wrong.append(("script", q.key, typed, digits, verdict.message, js))
    assert wrong == []


def page_rows(course):
    """(set, question, typed, digits, expected reason or None, expected mistake kind): for every page's questions."""
    sets, rows = [], []
    for label, make in PAGES.items():
        sheet = make(course)
        sets.append(sheet)
        i = len(sets) - 1
        for q in sheet.questions:
            if q.is_choice:
                rows += [(i, q, key, ex.DIGITS, "right" if key == q.value else None, "") for key, _ in q.choices]
                continue
            for m in q.mistakes:      # every named mistake at its value: in full (exactly) and to 12 digits
                value = Fraction(m.value) / q.unit.size
                rows += [(i, q, str(value) if value.denominator == 1 else sig(value, 12), ex.DIGITS, "mistake", m.kind)]
                if not q.exact and value.denominator == 1:
                    rows.append((i, q, sig(value, 12), ex.DIGITS, "mistake", m.kind))
            answer = q.in_unit
            for digits in (ex.DIGITS, *ex.FEWER):
                rounded, cut = sig(answer, digits), cut_off(answer, digits)
                exactly = {Fraction(m.value) / q.unit.size for m in q.mistakes}
                for typed in (rounded, cut):   # right, unless it is a mistake's value exactly (then that mistake)
                    value = ex.read(typed).value
                    want = "right" if value == answer or not (q.exact or value in exactly) else None
                    rows.append((i, q, typed, digits, want, ""))
                rows.append((i, q, sig(answer * Fraction(103, 100), 6), digits, None, ""))
    return sets, rows


def cut_off(x: Fraction, k: int) -> str:
    """x cut off (not rounded) after k significant digits, written with its zeros after a point or an exponent."""
    text = sig(x, 30)
    mantissa, _, exp = text.partition("e")
    kept, count, started = [], 0, False
    for ch in mantissa:
        if ch.isdigit():
            started = started or ch != "0"
            if count >= k:
                ch = "0" if "." not in "".join(kept) else None
            elif started:
                count += 1
        if ch is not None:
            kept.append(ch)
    out = "".join(kept).rstrip(".")
    if "." not in out and out.endswith("0"):
        return sig(Fraction(out.replace(",", "")), k) if Fraction(out) else out
    return out + (f"e{exp}" if exp else "")


def test_every_pages_questions_in_python_and_in_the_pages_script(course):
    sets, rows = page_rows(course)
    results = twins(sets, [row[:4] for row in rows])
    wrong = []
    for row, (_, verdict, js) in zip(rows, results):
        _, q, typed, digits, want, kind = row
        if want is not None and (verdict.reason, verdict.mistake) != (want, kind):
            wrong.append(("library", q.key, typed, digits, want, kind, verdict.reason, verdict.mistake, verdict.message))
        if not same(verdict, js):
            wrong.append(("script", q.key, typed, digits, verdict.message, js))
    assert wrong == [], wrong[:10]
    print(f"\n{len(rows)} typed answers judged the same in Python and in _static/judge.js")


def predict_parts(course):
    w3, w4 = course.week3, course.week4
    explorers = [(w4_2_roofline.roofline_explorer(w4), 0), (w4_5_matmul.matmul_explorer(w4, w4.tiles[1]), 0),
                 (week3_vector_add.vector_explorer(w3), 0),
                 (w4_4_tile_size.tile_explorer(w4, w4_4_tile_size.tile_options(w4).Ts[-1]), 1)]
    for e, index in explorers:
        for state in explorer_data(e.html)[0]["parts"][index]["states"].values():
            if state.get("predict"):
                yield state["predict"]


def guesses(q: dict) -> list[tuple[str, str]]:
    """(typed, unit) guesses for a predict question: each choice; for a number the answer, 0.5 % and 1.5 % off, half,
    each mistake's value and 1 % off it, the answer in each other unit, words and an absurd exponent."""
    if q["kind"] == "choice":
        return [(key, "") for key, _ in q["choices"]]
    answer = pr.exact(q["answer"])
    unit = q["unit"]
    size = ex.UNITS[unit].size
    values = [answer, answer * Fraction(1005, 1000), answer * Fraction(1015, 1000), answer / 2]
    for m in q["mistakes"]:
        values += [pr.exact(m["value"]), pr.exact(m["value"]) * Fraction(101, 100)]
    out = [(sig(v / size, 8), unit) for v in values]
    out += [(sig(answer / Fraction(int(p), int(qq)), 6), name) for name, p, qq in q["units"][1:]]
    return out + [("열일곱", unit), ("1e999999999", unit), ("2,3,.,1", unit)]


def test_predict_guesses_in_python_and_in_the_pages_script(course):
    cases = [(q, part, typed, unit) for part in predict_parts(course) for q in part["questions"]
             for typed, unit in guesses(q)]
    got = node(guesses=[list(c) for c in cases])["guesses"]
    wrong = []
    for (q, part, typed, unit), js in zip(cases, got):
        want = pr.guess(q, typed, unit)
        if js != want:
            wrong.append((q["id"], typed, unit, want, js))
    assert wrong == [], wrong[:10]
    named = {g["mistake"] for g in got if g.get("mistake")}
    assert "ideal-min" in named      # the shorter time, named as the exercises name it (content review 5, item 22)
    print(f"\n{len(cases)} predict guesses judged the same in Python and in _static/predict.js")
