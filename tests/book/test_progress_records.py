"""No student's record is lost (issue 56): today's _static/core.js, run under Node with a stand-in localStorage
(no build, no browser), reads every format it has written (tests/book/progress_records/v<N>.json, one per version),
keeps fields it does not know, reads the malformed and foreign records of fuzz-2 F-9 without throwing — keeps what
it can, sets the rest aside as written and says so in Korean — and, with the storage full, keeps the stored record
as it was and says so. The CSV a student hands in reads as Korean (verdict words, page titles, question labels,
local time with its offset) and keeps, at its end, the page file, question key and term the grader reads.
"""
from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RECORDS = Path(__file__).with_name("progress_records")
pytestmark = pytest.mark.skipif(not shutil.which("node"), reason="node is not installed")

ANSWER = ["answer", {"page": "w4_1_intensity", "exercise": "q1", "typed": "7", "right": True, "reason": "right"}]


def run(stored: str | None, actions=(), quota: int = 0) -> dict:
    out = subprocess.run(["node", str(Path(__file__).with_name("progress_node.js")), str(ROOT / "_static" / "core.js"),
                          "" if stored is None else stored, str(quota), json.dumps(list(actions))],
                         capture_output=True, text=True, encoding="utf-8", check=True, timeout=60,
                         env={**os.environ, "TZ": "Asia/Seoul"})
    return json.loads(out.stdout)


def versions() -> list[Path]:
    return sorted(RECORDS.glob("v*.json"), key=lambda p: int(p.stem[1:]))


def test_a_record_of_every_version_is_kept_for_the_test():
    assert [int(p.stem[1:]) for p in versions()] == list(range(1, len(versions()) + 1))
    script = (ROOT / "_static" / "core.js").read_text(encoding="utf-8")
    assert f"const VERSION = {len(versions())};" in script      # a new format comes with a record of it here


@pytest.mark.parametrize("record", versions(), ids=lambda p: p.stem)
def test_every_format_written_is_read_by_todays_script_and_nothing_is_lost(record):
    stored = json.loads(record.read_text(encoding="utf-8"))
    got = run(json.dumps(stored), [ANSWER])
    assert got["errors"] == [] and got["problem"] == ""
    assert got["student"] == stored["student"] and got["mode"] is True
    assert got["answers"][:-1] == stored["answers"] and got["answers"][-1]["typed"] == "7"
    assert got["predictions"] == stored["predictions"]
    saved = json.loads(got["stored"])
    assert saved["theme"] == stored["theme"] and saved["answers"][:-1] == stored["answers"]   # unknown field kept


@pytest.mark.parametrize("stored, kept_answers, kept_student, aside", [
    ('{"v":1,"answers":null}', 0, "", True),
    ('{"v":1,"predictions":null}', 0, "", True),
    ('{"v":1,"answers":[null,{"page":"p","exercise":"e","typed":"1","right":true,"reason":"right"}]}', 1, "", True),
    ('{"v":1,"student":12345}', 0, "12345", False),           # a number is read as the identifier it spells
    ('{"v":1,"student":{"a":1},"modes":[1]}', 0, "", True),
    ('"abc"', 0, "", True),
    ('{"0":1}', 0, "", True),                                  # no version: set aside whole, its field kept too
    ("not json {", 0, "", True),
    ('{"v":7,"student":"s9","answers":[{"page":"p","exercise":"e","typed":"1"}],"new":"x"}', 1, "s9", True),
])
def test_a_malformed_or_foreign_record_is_read_what_can_be_and_the_rest_set_aside(stored, kept_answers, kept_student,
                                                                                   aside):
    got = run(stored, [ANSWER, ["setMode", "p", "predict", True]])
    assert got["errors"] == []
    assert len(got["answers"]) == kept_answers + 1 and got["answers"][-1]["typed"] == "7"   # the answer is recorded
    assert got["student"] == kept_student
    saved = json.loads(got["stored"])
    assert saved["v"] == 2 and saved["answers"][-1]["typed"] == "7"
    assert ("따로 두었다" in got["problem"]) is aside
    if aside:       # what could not be read is kept as it was written (the record itself, or the part of it)
        values = [a["value"] for a in saved["aside"]]
        assert any(v == stored or v in stored.replace(" ", "") for v in values), values


def test_a_full_storage_keeps_the_stored_record_and_says_so():
    record = versions()[-1].read_text(encoding="utf-8")
    got = run(record, [ANSWER], quota=len(record) + 10)
    assert got["errors"] == []
    assert got["stored"] == record                           # what was stored is as it was
    assert got["answers"][-1]["typed"] == "7"                # the visit still has the answer
    assert "저장 공간이 가득 차" in got["problem"] and "CSV로 내보내" in got["problem"]


def test_the_csv_a_student_hands_in_reads_as_korean():
    got = run(versions()[0].read_text(encoding="utf-8"))
    rows = list(csv.reader(io.StringIO(got["csv"].lstrip("\ufeff"))))
    header = rows[0]
    assert header[:11] == ["종류", "시각", "페이지", "문항", "학번", "적은 값", "맞음", "판정", "모델 값", "오차", "실수"]
    assert header[11:] == ["페이지 파일", "문항 키", "학기"]
    first, right, mistake, guess = rows[1:]
    assert first[1] == "2026-09-01 11:58:46 UTC+09:00"     # the reader's time and zone, not UTC
    assert first[2] == "① 산술 강도" and first[3] == "①-1" and first[7] == "오답" and first[5] == "'=1+1"
    assert right[7] == "정답" and right[13] == "abc" and right[11:13] == ["w4_1_intensity", "q1"]
    assert mistake[7] == "실수: C 쓰기를 빼먹었다" and mistake[10] == "C 쓰기를 빼먹었다"
    assert mistake[2] == "w4_5_matmul"                       # a page not in the catalog: its file
    assert guess[0] == "예측" and guess[6] == "아니오" and guess[7] == "오답" and guess[10] == ""
    assert not any(code in got["csv"] for code in ("mistake:", ",right,", ",wrong,"))
