"""`make answer-key ROSTER=roster.csv` (coursebook answer-key, tools/coursebook/handout.py), for this term and the next.

- A roster (UTF-8, a header row or none, Korean names in other columns, a BOM, blank lines) gives one row per student
  and exercise of every page with variants: the variant the student's page shows (the same draw as
  roofline.show.variants), its conditions, an answer the judge accepts, its unit and precision; a spreadsheet runs
  no cell of it.
- A bad roster (empty, only a header, an identifier twice, an empty identifier, a line that is not UTF-8) stops
  with one Korean line naming the line, exit 2, and no file; an earlier key is left as it was.
"""
from __future__ import annotations

import csv
import os
import subprocess
import sys

import pytest

from conftest import term_path
from coursebook import handout
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
    done, out = run_key(tmp_path, data, term_path(request.node.callspec.params["course"]))
    assert done.returncode == 0, done.stderr
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


def test_rosters_without_a_header_or_with_other_header_words(tmp_path):
    assert handout.read_roster(b"a1\na2\n") == ["a1", "a2"]
    assert handout.read_roster("student,name\n1,김\n".encode()) == ["1"]
    assert handout.read_roster("ID;x\n".encode() + b"7\n") == ["ID;x", "7"]   # no header word: an identifier


BAD = {
    "empty": (b"", "학번이 하나도 없다"),
    "header only": ("학번,이름\n".encode(), "학번이 하나도 없다"),
    "twice": ("학번\n2026001\n2026002\n2026001\n".encode(), "4번째 줄의 학번 '2026001'이 2번째 줄과 같다"),
    "empty id": ("학번,이름\n2026001,김\n,이\n".encode(), "3번째 줄의 학번(첫 칸)이 비어 있다"),
    "not utf-8": ("학번\n2026001\n".encode() + "김철수,x\n".encode("cp949"), "3번째 줄이 UTF-8이 아니다"),
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
