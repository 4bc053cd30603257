"""Rosters (issue 56): the students of a class as the instructor's spreadsheet or LMS exports them, each identifier
read with the page's rule (`roofline.show.variants.normal`), for the answer key and `make grade`.

A roster is a CSV in UTF-8 or CP949 (Excel's Korean CSV), separated by `,`, `;` (Excel where the list separator is
one) or a tab, with every BOM dropped wherever it stands (two exports joined with `cat`); its first line is a header
when a cell's words name an identifier or a name (학번, 학번 (ID), ID, Student ID, 이름, Name; in any order), else the
identifier is the first column and a name the second. What cannot be read is one Korean line naming the line.
"""
from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from roofline.errors import ParameterError
from roofline.show import variants as V

# a header cell's words (lower case, split at anything but letters and digits: "학번 (ID)" → 학번, id)
ID_WORDS = {"학번", "id", "student", "students", "identifier", "studentid", "학생", "번호", "아이디", "sisid",
            "loginid", "username"}
NAME_WORDS = {"이름", "성명", "name", "fullname", "sortablename", "학생명"}


@dataclass(frozen=True)
class Student:
    id: str          # as roofline.show.variants.normal reads it: what the page draws with
    name: str
    line: int        # in the roster


def decode(data: bytes, name: str) -> str:
    """A file's text: UTF-8, or CP949 (Excel's Korean CSV) when no line of it is UTF-8 with non-ASCII letters;
    every BOM dropped wherever it stands (two exports joined). ParameterError naming the first line neither reads."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        lines = data.split(b"\n")

        def utf8(raw: bytes) -> bool:
            try:
                raw.decode("utf-8")
                return True
            except UnicodeDecodeError:
                return False
        text = None
        if not any(not raw.isascii() and utf8(raw) for raw in lines):
            try:
                text = data.decode("cp949")
            except UnicodeDecodeError:
                pass
        if text is None:
            number = next(n for n, raw in enumerate(lines, 1) if not utf8(raw))
            raise ParameterError(f"{name}: {number}번째 줄이 UTF-8이 아니다(CP949도 아니다). 파일을 UTF-8로 저장하자") from None
    return text.replace("\ufeff", "")


def rows_of(text: str) -> tuple[list[tuple[int, list[str]]], str]:
    """The CSV's non-blank rows with their line numbers, read with the separator its first line uses (`,`, `;` or a
    tab: Excel writes `;` where the list separator is one)."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    sep = max((",", ";", "\t"), key=lambda c: (first.count(c), c == ","))
    out, number = [], 1
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep)
    for row in reader:
        if row and "".join(row).strip():
            out.append((number, row))
        number = reader.line_num + 1
    return out, sep


def words(cell: str) -> set[str]:
    return set(re.findall(r"[0-9a-z가-힣]+", unicodedata.normalize("NFKC", cell).lower()))


def header_columns(row: list[str]) -> tuple[int, int | None] | None:
    """(identifier column, name column or None) when `row` is a header: a cell whose words name a person's name, or
    an identifier (학번, ID, Student ID, 학번 (ID), …); None when no cell is such a word."""
    kinds = ["name" if words(c) & NAME_WORDS else "id" if words(c) & ID_WORDS else "" for c in row]
    if not any(kinds):
        return None
    ident = kinds.index("id") if "id" in kinds else -1
    return ident, (kinds.index("name") if "name" in kinds else None)


def read_students(data: bytes, name: str = "roster.csv") -> list[Student]:
    """A roster: UTF-8 or CP949, `,` `;` or tab separated, a header recognised by its words (the identifier's column
    anywhere in it) or none (the identifier first, a name second); every identifier read with the page's rule
    (`roofline.show.variants.normal`). ParameterError naming the line for a header with no identifier column, a first
    line that looks like a header and is none this reads, an empty or repeated identifier, an empty roster."""
    rows, sep = rows_of(decode(data, name))
    ident, named, start = 0, 1, 0
    if rows:
        number, first = rows[0]
        found = header_columns(first)
        if found is not None:
            ident, named = found
            start = 1
            if ident < 0:
                raise ParameterError(f"{name}: {number}번째 줄의 머리글({sep.join(first)})에 학번 칸이 없다. 학번이 있는 "
                                     "칸의 머리글을 \"학번\"으로 하자")
        elif not re.search(r"\d", first[0]) and len(rows) > 2 and all(re.search(r"\d", r[0]) for _, r in rows[1:]):
            raise ParameterError(f"{name}: {number}번째 줄({sep.join(first)})이 머리글 같은데 알아볼 수 없다. 학번 칸의 "
                                 "머리글을 \"학번\"으로, 이름 칸을 \"이름\"으로 하거나 그 줄을 지우자")
    students, seen = [], {}
    for number, row in rows[start:]:
        first = V.normal(row[ident]) if ident < len(row) else ""
        if not first:
            raise ParameterError(f"{name}: {number}번째 줄의 학번({ident + 1}번째 칸)이 비어 있다")
        if first in seen:
            raise ParameterError(f"{name}: {number}번째 줄의 학번 {first!r}이 {seen[first]}번째 줄과 같다. 학번은 한 번씩만 적자")
        seen[first] = number
        who = row[named].strip() if named is not None and named < len(row) else ""
        students.append(Student(first, who, number))
    if not students:
        raise ParameterError(f"{name}: 학번이 하나도 없다. 한 줄에 학번 하나씩 적자(첫 줄은 머리글 \"학번\"이어도 된다)")
    return students


def read_roster(data: bytes, name: str = "roster.csv") -> list[str]:
    """The identifiers of a roster (`read_students`)."""
    return [s.id for s in read_students(data, name)]


def roster_bytes(roster: Path) -> bytes:
    try:
        return Path(roster).read_bytes()
    except OSError as err:
        raise ParameterError(f"{roster}: 명단 파일을 읽을 수 없다 ({err.strerror}). ROSTER=명단.csv 경로를 확인하자") from None
