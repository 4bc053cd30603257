"""`make answer-key ROSTER=roster.csv` (coursebook answer-key, tools/coursebook/handout.py), for this term and the next.
Needs the built site (`make book`): the key is made for the term the site shows, from its variants files.

- A roster (UTF-8 or CP949, `,` `;` or tab separated, a header recognised by its words — 학번 (ID), Student ID, 이름
  first — or none, a BOM at the start or inside, blank lines) gives one row per student and exercise of every page
  with variants: the variant the student's page shows (the same draw as roofline.show.variants), its conditions, an
  answer the judge accepts, its unit and precision; a spreadsheet runs no cell of it. It names the term it used.
- A term the site does not show (course.toml changed, not refreshed: fuzz-2 F-6) is refused like `make book` does.
- A bad roster (empty, only a header, an identifier twice, an empty identifier, a line neither UTF-8 nor CP949, a
  header with no identifier column, a header this cannot read: fuzz-2 F-7) stops with one Korean line naming the
  line, exit 2, and no file; an earlier key is left as it was.
"""
from __future__ import annotations

import csv
import os
import subprocess
import sys

import pytest

from conftest import term_path
from coursebook import handout, roster
from roofline.show import variants as V

BOTH_TERMS = True
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_key(tmp_path, data: bytes, course_path=None):
    roster = tmp_path / "roster.csv"
    roster.write_bytes(data)
    env = dict(os.environ)
    if course_path:
        env["ROOFLINE_COURSE"] = str(course_path)
    out = tmp_path / "answer-key.csv"
    done = subprocess.run([sys.executable, "-m", "coursebook", "answer-key", str(roster), "--out", str(out)],
                          capture_output=True, text=True, env=env, cwd=ROOT)
    return done, out


def test_the_key_gives_each_student_the_variant_of_the_page(course, tmp_path, request):
    ids = ["2026001", "2026002", "김철수", "S-50"]
    data = ("\ufeff학번,이름\n" + "\n".join(f"{i},학생 {n}" for n, i in enumerate(ids)) + "\n\n").encode("utf-8")
    term = request.node.callspec.params["course"]
    done, out = run_key(tmp_path, data, term_path(term))
    if term != "live":      # the site shows the live term: a key for another is refused, as `make book` refuses
        assert done.returncode == 2 and not out.exists(), done.stderr
        line = done.stderr.strip().splitlines()
        assert len(line) == 1 and "course.toml이 장의 매개변수 셀과 다르다" in line[0] and "make refresh" in line[0]
        return
    assert done.returncode == 0, done.stderr
    assert f"학기 {handout.course_digest(course)}" in done.stdout            # the term used, named
    rows = list(csv.reader(out.read_text(encoding="utf-8-sig").splitlines()))
    assert rows[0] == handout.KEY_HEADER
    modules = handout.varied_pages()
    per_student = sum(len(m.exercises(getattr(course, m.VARIANTS.problem)).questions) for m in modules.values())
    assert len(rows) - 1 == len(ids) * per_student
    assert [r[0] for r in rows[1::per_student]] == ids
    found = {name: V.variants(m, getattr(course, m.VARIANTS.problem)) for name, m in modules.items()}
    for student, name, key, conditions, given, answer, unit, precision in rows[1:]:
        module = modules[name]
        v = V.draw(module, getattr(course, module.VARIANTS.problem), student, found[name])
        q = v.exercises.question(key)
        assert conditions == v.conditions
        assert v.exercises.check(key, answer).right, (name, key, answer)
        assert unit == ("" if q.is_choice else q.unit.name) and precision
        assert not answer.startswith(("=", "+", "@"))


ROSTERS = {   # fuzz-2 F-7 and the forms an LMS or Excel writes: what each roster means
    "no header": (b"a1\na2\n", ["a1", "a2"]),
    "English header": ("student,name\n1,김\n".encode(), ["1"]),
    "BOM inside (two exports joined)": (b"\xef\xbb\xbf\xed\x95\x99\xeb\xb2\x88\r\n2024001\r\n\xef\xbb\xbf2024002\r\n",
                                        ["2024001", "2024002"]),
    "semicolons": ("학번;이름\n2024001;김철수\n2024002;이영희\n".encode(), ["2024001", "2024002"]),
    "tabs": ("학번\t이름\n2024001\t김철수\n".encode(), ["2024001"]),
    "학번 (ID)": ("학번 (ID),이름\n2024001,김\n".encode(), ["2024001"]),
    "Student ID after the name": ("Name,Student ID\n김,2024001\n".encode(), ["2024001"]),
    "CP949, header in another order": ("이름,학번\n김철수,2024001\n이영희,2024002\n".encode("cp949"), ["2024001", "2024002"]),
    "spaces and full-width digits": ("학번\n 2024 001 \n２０２４００２\n".encode(), ["2024001", "2024002"]),
    "Korean identifiers": ("김철수\n홍길동\n".encode(), ["김철수", "홍길동"]),
}


@pytest.mark.parametrize("case", ROSTERS)
def test_a_roster_is_read_with_the_pages_identifier_rule(case):
    data, ids = ROSTERS[case]
    assert roster.read_roster(data) == ids
    assert all(V.normal(i) == i for i in ids)


BAD = {
    "empty": (b"", "학번이 하나도 없다"),
    "header only": ("학번,이름\n".encode(), "학번이 하나도 없다"),
    "twice": ("학번\n2026001\n2026002\n2026001\n".encode(), "4번째 줄의 학번 '2026001'이 2번째 줄과 같다"),
    "empty id": ("학번,이름\n2026001,김\n,이\n".encode(), "3번째 줄의 학번(1번째 칸)이 비어 있다"),
    "not utf-8": ("학번\n2026001\n".encode() + "김철수,x\n".encode("cp949"), "3번째 줄이 UTF-8이 아니다"),
    "no identifier column": ("이름,나이\n김,3\n".encode(), "1번째 줄의 머리글(이름,나이)에 학번 칸이 없다"),
    "a header it cannot read": ("foo;bar\n2024001;a\n2024002;b\n".encode(), "1번째 줄(foo;bar)이 머리글 같은데 알아볼 수 없다"),
    "twice, once with a BOM": ("학번\n2026001\n\ufeff2026001\n".encode(), "3번째 줄의 학번 '2026001'이 2번째 줄과 같다"),
}


@pytest.mark.parametrize("case", BAD)
def test_a_bad_roster_is_one_korean_line_and_no_file(tmp_path, case):
    data, said = BAD[case]
    out = tmp_path / "answer-key.csv"
    out.write_text("earlier key", encoding="utf-8")
    done, out = run_key(tmp_path, data)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and said in lines[0] and lines[0].startswith("roster.csv: "), done.stderr
    assert out.read_text(encoding="utf-8") == "earlier key"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["answer-key.csv", "roster.csv"]   # no temp file left


def test_make_answer_key_names_the_roster_it_needs():
    done = subprocess.run(["make", "-s", "answer-key"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode != 0 and "ROSTER=" in done.stderr
