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
import shutil
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from coursebook import roster as R
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


def page_body(module, course, memo: Path | None = None) -> bytes:
    """The page's variants file (`roofline.show.variants.page_file` for the course's problem), as published.

    `memo` (a build folder's `.variants`, given by the commands, never by code that may have changed the library in
    its own process): the body kept there for this library and term, if its digest holds, else drawn and kept. The
    body is a pure function of the library's bytes, this file's and the course file's, which name the entry (a few
    seconds per term: the site build, `make check` and the answer key would each draw it again)."""
    if memo is None:
        return _json(V.page_file(module, getattr(course, module.VARIANTS.problem))).encode("utf-8")
    from coursebook.sphinx_ext import library_hash

    # the library's bytes and this file's (which writes the body: `_json`)
    writer = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:8]
    folder = memo / f"{library_hash(Path(V.__file__).resolve().parents[1])}-{writer}"
    name = f"{module.__name__.rsplit('.', 1)[-1]}.{course_digest(course)}"
    for kept in folder.glob(f"{name}.*.json"):
        body = kept.read_bytes()
        if kept.name == f"{name}.{digest_of(body)}.json":
            return body
    body = page_body(module, course)
    try:   # (a folder per library: the others are of code that is gone)
        for old in memo.glob("*/"):
            if old != folder:
                shutil.rmtree(old, ignore_errors=True)
        folder.mkdir(parents=True, exist_ok=True)
        partial = folder / f".{name}.{os.getpid()}.tmp"
        partial.write_bytes(body)
        partial.replace(folder / f"{name}.{digest_of(body)}.json")
    except OSError:   # only a memo: a read-only or full disk draws again next time
        pass
    return body


def digest_of(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()[:12]


# ---------------------------------------------------------------- the term, frozen when published

LOCK = Path(__file__).resolve().parents[2] / "term-lock.json"
COURSE_FILE = Path(params.DEFAULT_PATH).resolve()       # the checkout's own term (a copy for another term locks none)
NEW_TERM = "make new-term"


def course_digest(course) -> str:
    """The term: the digest of the course file's bytes (every parameter, the catalog of dtypes and machines)."""
    return hashlib.sha256(Path(course.path).read_bytes()).hexdigest()[:12]


def read_lock(path: Path | None = None) -> dict | None:
    path = path or LOCK
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as err:
        raise ParameterError(f"{path.name}: 읽을 수 없다 ({err}). `git checkout -- {path.name}`으로 되돌리자") from None
    if not isinstance(data, dict) or not isinstance(data.get("pages"), dict) or not isinstance(data.get("course"), str):
        raise ParameterError(f"{path.name}: 학기 잠금의 모양이 아니다. `git checkout -- {path.name}`으로 되돌리자")
    return data


def lock_data(course, digests: dict[str, str]) -> dict:
    return {"about": "The term as published: course.toml's digest and, per page, the digest of the variants file the "
                     "site serves (_static/variants/<page>.<digest>.json). Written when a term starts (a build for a "
                     "new course.toml, or `make new-term`); `make check` names a page whose students' problems a "
                     "commit would change; the answer key and `make grade` read the term through it.",
            "course": course_digest(course), "pages": dict(sorted(digests.items()))}


def write_lock(course, digests: dict[str, str] | None = None, path: Path | None = None) -> dict:
    """Freeze the term: the lock for `course` with the variants the library draws now (`digests`: already computed)."""
    path = path or LOCK
    data = lock_data(course, digests if digests is not None else page_digests(course))
    partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    partial.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    partial.replace(path)
    return data


def page_digests(course, memo: Path | None = None) -> dict[str, str]:
    """page → the digest of the variants file the library draws now for `course` (`memo`: page_body's)."""
    return {name: digest_of(page_body(module, course, memo)) for name, module in varied_pages().items()}


def thawed(course, path: Path | None = None, now: dict[str, str] | None = None, memo: Path | None = None) -> list[str]:
    """The pages whose variants file would differ from the one the term published, for the term in the lock
    (course.toml as it was when the term started); [] for another course file (a new term: its build locks it)."""
    lock = read_lock(path)
    if lock is None or lock["course"] != course_digest(course):
        return []
    now = page_digests(course, memo) if now is None else now
    return sorted(name for name in {*now, *lock["pages"]} if now.get(name) != lock["pages"].get(name))


def thawed_line(pages: list[str], path: Path | None = None) -> str:
    path = path or LOCK
    return (f"학기 중인데(course.toml 그대로) 학생의 문제가 바뀐다: {', '.join(pages)}의 변형이 {path.name}에 고정된 것과 "
            "다르다(변형의 축, 순서, 문항, 실수를 바꾼 커밋). 그 변경을 되돌리거나, 학기 중이 아니면 "
            f"`{NEW_TERM}`으로 새 학기를 일부러 시작하자(모든 학생의 문제가 바뀐다)")


def frozen_problems(course, path: Path | None = None, memo: Path | None = None) -> list[str]:
    """`make check`'s lines for the term lock: none when the library draws what the term published."""
    pages = thawed(course, path, memo=memo)
    return [thawed_line(pages, path)] if pages else []


_DEV_BODIES: dict[tuple[str, str], bytes] = {}


def memo(build_dir: Path) -> Path:
    """Where a build folder keeps the variants files it drew (page_body's `memo`)."""
    return build_dir / ".variants"


def variant_files(outdir: Path, course=None, pages: list[Path] | None = None, freeze: bool = True) -> dict[str, int]:
    """Write every page's variants file and name it in the page. Returns {file: bytes}. A course file the lock
    does not hold (a new term, or no lock yet) is locked here, with what is published (`freeze`; `make serve`'s
    build, which writes only `pages`, locks nothing)."""
    course = course or params.load()
    folder = outdir / VARIANTS_DIR
    written, digests = {}, {}
    for name, module in varied_pages().items():
        page = outdir / "chapters" / f"{name}.html"
        if not page.is_file() or pages is not None and page not in pages:
            continue
        text = page.read_text(encoding="utf-8")
        found = _QUIZ.search(text)
        if not found:
            continue
        problem = getattr(course, module.VARIANTS.problem)
        shown = json.loads(_QUIZ_DATA.search(text).group(1).replace("<\\/", "</"))
        if shown != module.exercises(problem).data():
            raise ParameterError(f"{name}: 페이지의 연습 문제가 course.toml의 값으로 계산한 것과 다르다. make book을 다시 하자")
        body = page_body(module, course, memo(outdir.parent)) if freeze else _DEV_BODIES.get((name, course_digest(course)))
        if body is None:   # (`make serve`: the library's modules are imported afresh when one changes, this with them)
            body = _DEV_BODIES[name, course_digest(course)] = page_body(module, course)
        digest = digests[name] = digest_of(body)
        file = folder / f"{name}.{digest}.json"
        folder.mkdir(parents=True, exist_ok=True)
        file.write_bytes(body)
        written[file.name] = len(body)
        url = os.path.relpath(file, page.parent).replace(os.sep, "/")
        text = text[:found.end()] + f' data-rl-variants="{html.escape(url)}"' + text[found.end():]
        page.write_text(text, encoding="utf-8")
    if not freeze:
        return written
    lock = read_lock()
    if (digests and set(digests) == set(varied_pages()) and Path(course.path).resolve() == COURSE_FILE
            and (lock is None or lock["course"] != course_digest(course))):
        write_lock(course, digests)
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

KEY_HEADER = ["학번", "페이지", "문항", "변형 조건", "문항의 조건", "답", "단위", "정밀도"]


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


SITE = Path(__file__).resolve().parents[2] / "_build" / "html"


@dataclass(frozen=True)
class Published:
    """One page of the term as the site serves it: its variants file (read from the site) and the library's
    variants of the same term, whose file is that one byte for byte (checked by its digest: `published_term`), so
    the judge's questions are those the students saw."""
    module: object
    problem: object
    found: tuple
    file: dict

    def draw(self, student: str):
        """(index, the library's variant, its published entry) of `student` (the page's rule, the file's term)."""
        i = V.index(self.file["term"], student, len(self.file["variants"]))
        return i, self.found[i], self.file["variants"][i]


def published_term(course=None, site: Path | None = None) -> tuple[str, dict[str, Published]]:
    """The term the site shows, page by page: (the course file's digest, page → Published). ParameterError, one
    Korean line, when it is not the term of course.toml: the chapters' parameter cells are another term's (as
    `make book` and `make pdf` refuse), the library would draw other problems than the lock froze (`make check`'s
    line), or the site has no variants file of this term (not built, or built for another)."""
    from coursebook.__main__ import term_changes

    course = course or params.load()
    site = Path(site or SITE)
    changed = term_changes(course)
    if changed:
        raise ParameterError(f"course.toml이 장의 매개변수 셀과 다르다 ({changed[0]}; 새 학기 값?): 사이트가 보이지 않는 "
                             "학기로 만들지 않는다. `make refresh`로 사이트를 새 학기로 만들거나 course.toml을 되돌리자")
    digests = page_digests(course, memo(site.parent))
    moved = thawed(course, now=digests)
    if moved:
        raise ParameterError(thawed_line(moved))
    out, missing = {}, []
    for name, module in varied_pages().items():
        file = site / VARIANTS_DIR / f"{name}.{digests[name]}.json"
        if not file.is_file():
            missing.append(name)
            continue
        problem = getattr(course, module.VARIANTS.problem)
        out[name] = Published(module, problem, V.variants(module, problem), json.loads(file.read_bytes()))
    if missing:
        raise ParameterError(f"{site}: 사이트가 이 학기(course.toml {course_digest(course)})의 변형을 보이지 않는다"
                             f"({', '.join(missing)}). `make book`으로 사이트를 만들거나, 게시한 사이트의 폴더를 SITE=로 주자")
    return course_digest(course), out


def key_rows(ids, course=None, site: Path | None = None):
    _, term = published_term(course, site)
    for student in ids:
        for name, page in term.items():
            _, v, entry = page.draw(student)
            for q in v.exercises.questions:
                answer = typed_answer(q)
                if not ex.judge(q, answer).right:       # the key says what the page accepts, or nothing is written
                    raise AssertionError(f"{name} {q.key}: {answer!r}")
                yield [student, name, q.key, entry["conditions"], given_text(q), answer,
                       "" if q.is_choice else q.unit.name, precision(q)]


def _safe(cell: str) -> str:
    """A spreadsheet does not run a cell: a leading = + - @ that is no number gets an apostrophe."""
    return "'" + cell if re.match(r"[=+\-@]", cell) and not re.match(r"-?\d", cell) else cell


def write_csv(out: Path, header: list[str], rows) -> None:
    """A CSV a spreadsheet opens (BOM, CRLF, no cell run as a formula), written atomically (a temp file renamed)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([_safe(str(cell)) for cell in row])
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    partial.write_bytes(("\ufeff" + buffer.getvalue()).encode("utf-8"))
    partial.replace(out)


def answer_key(roster: Path, out: Path, course=None, site: Path | None = None) -> int:
    """Write the answer key for `roster` to `out` (atomically), for the term the site shows (`published_term`);
    says which term on stdout. Returns the number of rows."""
    ids = R.read_roster(R.roster_bytes(roster), Path(roster).name)
    course = course or params.load()
    rows = list(key_rows(ids, course, site))
    print(f"학기 {course_digest(course)} ({course.path}), 사이트 {site or SITE}의 변형 파일로 만들었다")
    write_csv(out, KEY_HEADER, rows)
    return len(rows)
