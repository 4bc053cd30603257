"""Handing the exercises out (issue 40): the variants each page fetches when a student identifier is entered, the
progress page's list of exercises, and the instructor's answer key.

- `variant_files(outdir)` (build-finished, from tools/coursebook/assets.py): for every built page with exercises
  whose page module declares `VARIANTS`, the page's variants (`roofline.show.variants.page_file`, for the course's
  problem) in _static/variants/<page>.<digest>.json; the page's exercises section names the file
  (`data-rl-variants`, relative to the page). Nothing else of the page changes: its first-visit bytes stay.
- `progress_catalog(outdir)`: the progress page ("내 진도", chapters/progress.md, `data-rl-progress`) gets, in its
  element, the chapters with exercises in reading order: their title, address, term digest and exercise keys with
  labels, and the mistakes' Korean names (the CSV a student hands in says them, not the codes).
- `answer_key(roster, out)`: `make answer-key ROSTER=roster.csv` → answer-key.csv, one row per student and
  exercise: the variant the student's page shows (the same draw), its conditions, the answer, unit and precision.
  A bad roster is one Korean line naming the line, and no file is written (a temp file renamed at the end).

Site tooling: `import roofline` does not import this module.
"""
from __future__ import annotations

import csv
import hashlib
import html
import importlib
import io
import json
import os
import re
from fractions import Fraction
from pathlib import Path

from roofline import params
from roofline.errors import ParameterError
from roofline.show import exercises as ex
from roofline.show import fmt, pages
from roofline.show import variants as V
from roofline.show.mistakes import KINDS

VARIANTS_DIR = "_static/variants"
_QUIZ = re.compile(r'<section class="rl-quiz" data-rl-quiz="[^"]*"')
_QUIZ_DATA = re.compile(r'<script type="application/json" class="rl-quiz-data">(.*?)</script>', re.S)
_PROGRESS = re.compile(r'(<div[^>]*\bdata-rl-progress\b[^>]*>)')


TOC = Path(__file__).resolve().parents[2] / "_toc.yml"


def reading_order() -> list[str]:
    """The chapters' stems in the order of _toc.yml."""
    text = TOC.read_text(encoding="utf-8") if TOC.is_file() else ""
    return re.findall(r"file:\s*chapters/([A-Za-z0-9_]+)", text)


def varied_pages() -> dict[str, object]:
    """page stem → page module, for the pages whose exercises have variants, in reading order."""
    out = {}
    order = reading_order()
    for name in sorted(pages.names(), key=lambda n: (order.index(n) if n in order else len(order), n)):
        module = importlib.import_module(f"roofline.show.pages.{name}")
        if hasattr(module, "VARIANTS") and hasattr(module, "exercises"):
            out[name] = module
    return out


def _json(data) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def variant_files(outdir: Path, course=None) -> dict[str, int]:
    """Write every page's variants file and name it in the page. Returns {file: bytes}."""
    course = course or params.load()
    folder = outdir / VARIANTS_DIR
    written = {}
    for name, module in varied_pages().items():
        page = outdir / "chapters" / f"{name}.html"
        if not page.is_file():
            continue
        text = page.read_text(encoding="utf-8")
        found = _QUIZ.search(text)
        if not found:
            continue
        problem = getattr(course, module.VARIANTS.problem)
        shown = json.loads(_QUIZ_DATA.search(text).group(1).replace("<\\/", "</"))
        if shown != module.exercises(problem).data():
            raise ParameterError(f"{name}: 페이지의 연습 문제가 course.toml의 값으로 계산한 것과 다르다. make book을 다시 하자")
        body = _json(V.page_file(module, problem)).encode("utf-8")
        digest = hashlib.sha256(body).hexdigest()[:12]
        file = folder / f"{name}.{digest}.json"
        folder.mkdir(parents=True, exist_ok=True)
        file.write_bytes(body)
        written[file.name] = len(body)
        url = os.path.relpath(file, page.parent).replace(os.sep, "/")
        text = text[:found.end()] + f' data-rl-variants="{html.escape(url)}"' + text[found.end():]
        page.write_text(text, encoding="utf-8")
    return written


def _labels(sheet: ex.Exercises) -> dict[str, str]:
    """key → what the progress page calls an exercise: the key, or a worksheet cell's row and case."""
    if not sheet.sheet:
        return {q.key: q.key for q in sheet.questions}
    rows, cases = dict(sheet.sheet), dict(sheet.cases)
    out = {}
    for q in sheet.questions:
        row, _, case = q.key.partition("-")
        out[q.key] = f"{rows.get(row, row)} · {cases.get(case, case)}"
    return out


def _title(page: Path) -> str:
    found = re.search(r"<title>(.*?)</title>", page.read_text(encoding="utf-8"), re.S)
    return html.unescape(found.group(1)).split(" \u2014 ")[0].strip() if found else page.stem


def progress_catalog(outdir: Path, course=None) -> bool:
    """Put the chapters' exercises (reading order: the built pages' order in the sidebar of the progress page) into
    the progress page's element. Returns whether there was such a page."""
    page = outdir / "chapters" / "progress.html"
    if not page.is_file():
        return False
    course = course or params.load()
    text = page.read_text(encoding="utf-8")
    modules = varied_pages()
    chapters = []
    for name in modules:
        sheet = modules[name].exercises(getattr(course, modules[name].VARIANTS.problem))
        chapters.append({"page": name, "title": _title(outdir / "chapters" / f"{name}.html"), "href": f"{name}.html",
                         "term": V.term(getattr(course, modules[name].VARIANTS.problem)),
                         "exercises": [[key, label] for key, label in _labels(sheet).items()]})
    data = _json({"chapters": chapters, "mistakes": KINDS}).replace("</", "<\\/")
    new, count = _PROGRESS.subn(lambda m: m.group(1) + f'<script type="application/json" class="rl-progress-data">{data}</script>',
                                text, count=1)
    if count:
        page.write_text(new, encoding="utf-8")
    return bool(count)


# ---------------------------------------------------------------- the answer key

HEADER_WORDS = {"학번", "id", "student", "students", "identifier", "학생", "번호", "student_id", "studentid"}
KEY_HEADER = ["학번", "페이지", "문항", "변형 조건", "문항의 조건", "답", "단위", "정밀도"]


def read_roster(data: bytes, name: str = "roster.csv") -> list[str]:
    """The identifiers of a roster (UTF-8 CSV, the identifier in the first column, a header row allowed, other
    columns ignored); ParameterError naming the line for an empty roster, an empty or repeated identifier, a line
    that is not UTF-8."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines = data.split(b"\n")
    for number, raw in enumerate(lines, 1):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ParameterError(f"{name}: {number}번째 줄이 UTF-8이 아니다. 명단을 UTF-8로 저장하자") from None
    rows = list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
    ids, seen, header_done = [], {}, False
    for number, row in enumerate(rows, 1):
        if not row or not "".join(row).strip():
            continue                     # a blank line (the last one, or between groups): nothing
        first = row[0].strip()
        if not header_done:
            header_done = True
            if first.lower().replace(" ", "") in HEADER_WORDS:
                continue
        if not first:
            raise ParameterError(f"{name}: {number}번째 줄의 학번(첫 칸)이 비어 있다")
        normal = V.normal(first)
        if normal in seen:
            raise ParameterError(f"{name}: {number}번째 줄의 학번 {first!r}이 {seen[normal]}번째 줄과 같다. 학번은 한 번씩만 적자")
        seen[normal] = number
        ids.append(normal)
    if not ids:
        raise ParameterError(f"{name}: 학번이 하나도 없다. 한 줄에 학번 하나씩 적자(첫 줄은 머리글 \"학번\"이어도 된다)")
    return ids


def typed_answer(q: ex.Question) -> str:
    """The answer as a student would type it and the page accepts (the key gives it, the judge checks it): a choice's
    label, an integer in full, else the exact decimal when it is short, or six significant digits."""
    if q.is_choice:
        return dict(q.choices)[q.value]
    value = q.in_unit
    if q.exact:
        return str(int(value))
    for places in range(0, 13):
        if (value * 10**places).denominator == 1:
            return fmt.decimal(value, places) if places else str(int(value))
    magnitude = len(str(abs(int(value)))) if abs(value) >= 1 else 0
    places = max(0, 6 - magnitude)
    while True:
        text = fmt.decimal(value, places)
        if ex.judge(q, text).right:
            return text.replace(",", "")
        places += 1


def precision(q: ex.Question) -> str:
    if q.is_choice:
        return "보기 하나"
    if q.exact:
        return "정수, 모든 자리"
    return f"유효숫자 {ex.DIGITS}자리"


def given_text(q: ex.Question) -> str:
    parts = []
    for name, value in q.given:
        if isinstance(value, Fraction) and value.denominator == 1 and value >= 10**6:
            shown = fmt.power10(value)
        elif isinstance(value, (int, Fraction)):
            shown = fmt.number(value, 6)
        else:
            shown = str(value)
        parts.append(f"{name} = {shown}")
    return ", ".join(parts)


def key_rows(ids, course=None):
    course = course or params.load()
    modules = varied_pages()
    drawn = {name: V.variants(m, getattr(course, m.VARIANTS.problem)) for name, m in modules.items()}
    for student in ids:
        for name, module in modules.items():
            problem = getattr(course, module.VARIANTS.problem)
            v = V.draw(module, problem, student, drawn[name])
            for q in v.exercises.questions:
                answer = typed_answer(q)
                if not ex.judge(q, answer).right:       # the key says what the page accepts, or nothing is written
                    raise AssertionError(f"{name} {q.key}: {answer!r}")
                yield [student, name, q.key, v.conditions, given_text(q), answer,
                       "" if q.is_choice else q.unit.name, precision(q)]


def _safe(cell: str) -> str:
    """A spreadsheet does not run a cell: a leading = + - @ that is no number gets an apostrophe."""
    return "'" + cell if re.match(r"[=+\-@]", cell) and not re.match(r"-?\d", cell) else cell


def answer_key(roster: Path, out: Path, course=None) -> int:
    """Write the answer key for `roster` to `out` (atomically). Returns the number of rows."""
    try:
        data = Path(roster).read_bytes()
    except OSError as err:
        raise ParameterError(f"{roster}: 명단 파일을 읽을 수 없다 ({err.strerror}). ROSTER=명단.csv 경로를 확인하자") from None
    ids = read_roster(data, Path(roster).name)
    rows = list(key_rows(ids, course))
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(KEY_HEADER)
    for row in rows:
        writer.writerow([_safe(str(cell)) for cell in row])
    out = Path(out)
    partial = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    partial.write_bytes(("\ufeff" + buffer.getvalue()).encode("utf-8"))
    partial.replace(out)
    return len(rows)
