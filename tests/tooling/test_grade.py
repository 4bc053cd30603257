"""`make grade` (tools/coursebook/grade.py) on a synthetic class of 200, end to end. Needs the built site (`make book`).

Each student's record (right answers, wrong tries, named mistakes, verdicts edited to "right", base-problem tries) is
exported by today's _static/core.js under Node — the CSV a student hands in — and a few in the older format; a
CP949 roster with its header in another order. Bad input rides along: another term's file, an identifier not on the
roster, a student with two files, a truncated file. The gradebook and the question report equal the site judge's
verdicts (roofline.show.exercises.judge on roofline.show.variants.draw, question by question); each bad input is one
Korean line naming its file; the submissions are unchanged; every other student is graded.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import shutil
import subprocess
import zipfile
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from coursebook import grade, handout
from roofline.show import exercises as ex
from roofline.show import fmt
from roofline.show import variants as V
from roofline.show.mistakes import KINDS

ROOT = Path(__file__).resolve().parents[2]
CLASS = 200
pytestmark = [pytest.mark.heavy(30), pytest.mark.skipif(not shutil.which("node"), reason="node is not installed")]


def typed_value(q, value) -> str:
    """A value as a student types it: a choice's label, else the number in plain digits."""
    if q.is_choice:
        return dict(q.choices)[value]
    x = Fraction(value) / q.unit.size
    return str(x.numerator) if x.denominator == 1 else fmt.decimal(x, 12)


def tries_of(n: int, q, qi: int) -> list[tuple[str, bool]]:
    """Student n's tries at question q (its index qi on the page), with the verdict the file will claim."""
    right = handout.typed_answer(q)
    kind = (n + qi) % 6
    if kind == 0:
        return [(right, True)]
    if kind == 1:
        return [("1", False), ("2", False), (right, True)]
    if kind == 2 and q.mistakes:
        return [(typed_value(q, q.mistakes[0].value), False)]
    if kind == 3:
        return []
    if kind == 4:
        return [("98765", True)]                          # a verdict edited to "right"
    return [(typed_value(q, q.mistakes[-1].value) if q.mistakes else "7", False), (right, True)]


@pytest.fixture(scope="module")
def term(live_course):
    return handout.published_term(live_course)[1]


@pytest.fixture(scope="module")
def records(term):
    return make_records(term, CLASS)


def make_records(term, count: int) -> list[dict]:
    """The stored records (core.js v2) of `count` students: tries_of each question of each page."""
    out = []
    for n in range(count):
        sid = f"2026{n:04d}"
        answers = [{"t": "2026-09-01T03:00:00.000Z", "student": "", "page": "w4_1_intensity",
                    "exercise": term["w4_1_intensity"].found[0].exercises.questions[0].key, "typed": "5",
                    "right": False, "reason": "wrong"}]            # a try at the base problem: not graded
        for page, pub in term.items():
            _, v, _ = pub.draw(sid)
            for qi, q in enumerate(v.exercises.questions):
                for typed, claimed in tries_of(n, q, qi):
                    answers.append({"t": "2026-09-01T03:00:00.000Z", "student": sid, "page": page,
                                    "exercise": q.key, "typed": typed, "right": claimed,
                                    "reason": "right" if claimed else "wrong"})
        out.append({"v": 2, "student": sid, "modes": {}, "answers": answers, "predictions": [], "aside": []})
    return out


def catalog() -> dict:
    page = (ROOT / "_build" / "html" / "chapters" / "progress.html").read_text(encoding="utf-8")
    found = re.search(r'class="rl-progress-data">(.*?)</script>', page, re.S)
    return json.loads(found.group(1).replace("<\\/", "</"))


def export(records, tmp_path) -> list[str]:
    spec = tmp_path / "export.json"
    spec.write_text(json.dumps({"catalog": catalog(), "records": records}, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run(["node", str(ROOT / "tests" / "book" / "progress_node.js"), str(ROOT / "_static" / "core.js"),
                           "--export", str(spec)], capture_output=True, text=True, encoding="utf-8", check=True,
                          timeout=300)
    return json.loads(done.stdout)


def older_format(record) -> str:
    """The CSV before issue 56: 11 columns, file names and keys, English verdict codes, UTC times."""
    rows = [["종류", "시각", "페이지", "문항", "학번", "적은 값", "맞음", "판정", "모델 값", "오차", "실수"]]
    rows += [["답", a["t"], a["page"], a["exercise"], a["student"], a["typed"], "예" if a["right"] else "아니오",
              a["reason"], "", "", ""] for a in record["answers"]]
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerows(rows)
    return "\ufeff" + buffer.getvalue()


def expected(term, sid: str, record) -> tuple[Counter, dict, Counter]:
    """By the judge alone: questions right per page, tries before right per question, mistakes named per question."""
    right, before, named = Counter(), {}, Counter()
    done: set = set()
    tries: Counter = Counter()
    for a in record["answers"]:
        if a["student"] != sid:
            continue
        pub = term[a["page"]]
        v = V.draw(pub.module, pub.problem, sid)
        verdict = ex.judge(v.exercises.question(a["exercise"]), a["typed"])
        spot = (a["page"], a["exercise"])
        if spot in done:
            continue
        if verdict.right:
            done.add(spot)
            right[a["page"]] += 1
            before[spot] = tries[spot]
        else:
            tries[spot] += 1
            if verdict.mistake:
                named[spot, verdict.mistake] += 1
    return right, before, named


@pytest.fixture(scope="module")
def graded(term, records, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("class")
    csvs = export(records, tmp)
    folder = tmp / "submissions"
    folder.mkdir()
    for n, (record, text) in enumerate(zip(records, csvs)):
        sid = record["student"]
        body = older_format(record) if n % 10 == 3 else text             # some in the older format
        (folder / f"student{n}_{sid}_내-진도-{sid}.csv").write_text(body, encoding="utf-8", newline="")
    bad = {}
    other = csvs[5].replace(term["w4_1_intensity"].file["term"], "0123456789ab")   # another term's file
    (folder / f"student5_{records[5]['student']}_내-진도-{records[5]['student']}.csv").write_text(other, encoding="utf-8")
    bad["another term"] = (f"student5_{records[5]['student']}", "다른 학기")
    stranger = csvs[6].replace(records[6]["student"], "2099999")
    (folder / "stranger_내-진도-2099999.csv").write_text(stranger, encoding="utf-8")
    bad["not on the roster"] = ("stranger_내-진도-2099999.csv", "명단에 없다")
    shutil.copy(folder / f"student7_{records[7]['student']}_내-진도-{records[7]['student']}.csv", folder / "again.csv")
    bad["twice"] = ("again.csv", "둘 이상이다")
    truncated = csvs[8]
    cut = truncated.rindex("\r\n", 0, len(truncated) - 2)
    (folder / f"student8_{records[8]['student']}_내-진도-{records[8]['student']}.csv").write_text(
        truncated[:cut + 30], encoding="utf-8")
    bad["truncated"] = (f"student8_{records[8]['student']}", "칸이 모자란다")
    (folder / "notes.csv").write_text("메모,내용\n1,2\n", encoding="utf-8")
    bad["no progress CSV"] = ("notes.csv", "진도 CSV의 머리글이 아니다")
    zipped = tmp / "submissions.zip"
    with zipfile.ZipFile(zipped, "w") as z:
        for p in sorted(folder.iterdir()):
            z.write(p, f"{p.name}")
    roster = tmp / "roster.csv"
    roster.write_bytes(("이름,학번\r\n" + "".join(f"학생{n},{r['student']}\r\n" for n, r in enumerate(records)))
                       .encode("cp949"))
    before = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in [*folder.iterdir(), zipped, roster]}
    out = tmp / "out"
    said = grade.grade(zipped, roster, out)
    after = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in [*folder.iterdir(), zipped, roster]}
    assert before == after                                               # the graded files are only read
    return said, out, bad


def table(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"))))


def test_each_bad_input_is_one_korean_line_naming_its_file(graded):
    said, _, bad = graded
    for case, (file, words) in bad.items():
        assert any(file in line and words in line for line in said), (case, said)
    assert any("student4_" in line and "다시 판정하면 틀렸다" in line for line in said)     # an edited verdict is said
    assert all(re.search("[가-힣]", line) and "\n" not in line for line in said)


def test_the_gradebook_is_the_judges_verdicts_for_every_student(term, records, graded):
    said, out, _ = graded
    rows = table(out / grade.GRADEBOOK)
    pages = list(term)
    titles = grade.page_titles(None)
    lead = len(grade.CANVAS)
    # Canvas's import: Student, ID, SIS User ID, SIS Login ID, Section, then the assignments (the page titles), total
    assert rows[0][:lead] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    assert [h.rsplit(" (", 1)[0] for h in rows[0][lead:-1]] == [titles[p] for p in pages]
    assert len(rows[0]) == lead + len(pages) + 1 and rows[0][-1].startswith("합계")
    assert all(len(r) == len(rows[0]) for r in rows)
    assert [r[2] for r in rows[1:]] == [r["student"] for r in records]          # every roster student, in order
    not_graded = {records[5]["student"], records[7]["student"]}                 # another term's file; two files
    for n, (row, record) in enumerate(zip(rows[1:], records)):
        sid = record["student"]
        assert row[:lead] == [f"학생{n}", "", sid, "", ""]
        scores = row[lead:]
        if sid in not_graded:
            assert scores == ["0"] * (len(pages) + 1), sid
            continue
        right, _, _ = expected(term, sid, record)
        if n == 8:            # truncated: what was read is graded, never more than the whole record's
            assert all(int(scores[i]) <= right[p] for i, p in enumerate(pages))
            continue
        assert [int(x) for x in scores[:-1]] == [right[p] for p in pages], sid
        assert int(scores[-1]) == sum(right.values())


def test_the_question_report_is_the_judges_verdicts(term, records, graded):
    _, out, _ = graded
    rows = table(out / f"{grade.REPORT}.csv")
    assert rows[0] == ["페이지", "문항", "푼 학생", "맞힌 비율(명단)", "맞히기 전 시도(평균)", "실수(많은 순)"]
    skipped = {records[5]["student"], records[7]["student"], records[8]["student"]}
    rights, befores, named = Counter(), {}, Counter()
    for record in records:
        if record["student"] in skipped:
            continue
        right, before, mistakes = expected(term, record["student"], record)
        for spot, k in before.items():
            rights[spot] += 1
            befores.setdefault(spot, []).append(k)
        named.update(mistakes)
    titles = grade.page_titles(None)
    by_spot = {(r[0], r[1]): r for r in rows[1:]}
    assert len(by_spot) == sum(len(p.found[0].exercises.questions) for p in term.values())
    some_named = False
    for page, pub in term.items():
        for q in pub.found[0].exercises.questions:
            row = by_spot[titles.get(page, page), q.key]
            spot = (page, q.key)
            lo, hi = rights[spot], rights[spot] + 1                       # the truncated file may add its own
            share = Fraction(row[3].rstrip("%")) if row[3] != "—" else 0
            assert Fraction(100 * lo, CLASS) - Fraction(1, 10) <= share <= Fraction(100 * hi, CLASS) + Fraction(1, 10)
            counts = Counter({KINDS.get(k, k): c for (s, k), c in named.items() if s == spot})
            if counts and not row[5]:
                raise AssertionError((spot, counts))
            listed = [re.fullmatch(r"(.+) (\d+)번", part).groups() for part in row[5].split(", ")] if row[5] else []
            assert [int(c) for _, c in listed] == sorted((int(c) for _, c in listed), reverse=True)   # ranked
            for name, c in listed:
                assert counts[name] <= int(c) <= counts[name] + 3, (spot, name)
            some_named = some_named or bool(listed)
    assert some_named
    assert "문항 보고서" in (out / f"{grade.REPORT}.html").read_text(encoding="utf-8")


def test_a_bad_roster_or_no_submissions_is_one_line(tmp_path, capsys):
    roster = tmp_path / "r.csv"
    roster.write_text("이름,나이\n김,3\n", encoding="utf-8")
    assert grade.main([str(tmp_path), str(roster), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "학번 칸이 없다" in err[0]
    empty = tmp_path / "empty"
    empty.mkdir()
    roster.write_text("학번\n1\n", encoding="utf-8")
    assert grade.main([str(empty), str(roster), "--out", str(tmp_path / "out")]) == 0
    assert "진도 CSV(.csv)가 하나도 없다" in capsys.readouterr().err
    (tmp_path / "x.zip").write_bytes(b"not a zip")
    roster.write_text("학번\n1\n", encoding="utf-8")
    assert grade.main([str(tmp_path / "x.zip"), str(roster), "--out", str(tmp_path / "out")]) == 2
    assert "zip" in capsys.readouterr().err
