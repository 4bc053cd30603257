"""`make grade SUBMISSIONS=<folder or zip> ROSTER=<csv>` (issue 56): a class's progress files graded without a server.

Each student hands in the CSV that "내 진도" exports (_static/core.js: the Korean format with the page file,
question key and term at its end, or the older one with file names and keys in 페이지/문항). For the term the site
shows (`handout.published_term`: the same refusals as the answer key), every typed answer of a roster student is
judged again against that student's frozen variant with the site's own judge (`roofline.show.exercises.judge`): the
file's own verdict is never believed, so editing it changes nothing. Written to the output folder (outside the
checkout by default, `make grade`'s CLASS):

- 성적.csv, the gradebook in the shape Canvas and Moodle import: Canvas's five leading columns (`CANVAS`: Student =
  이름, ID empty as Canvas fills its own, SIS User ID = 학번, SIS Login ID and Section empty), then one column per
  page titled with the page's title (questions right, a question counting once it was answered right), then 합계;
  every roster student has a row, and no "Points Possible" row (Canvas takes it as optional, Moodle would read it as
  a student). Moodle maps any column: its identifier is SIS User ID (학번) as 'ID number'.
- 문항-보고서.csv and 문항-보고서.html: per question, how many tried, the share of the class right, the mean tries
  before the first right one, and the named mistakes ranked by count (their Korean names).

Bad input is one Korean line naming the file, the line and what to do, on stderr, and the rest is still graded: a
file from another term, an identifier not on the roster, a student with two files, a truncated or hand-edited row,
a file that is no progress CSV. The submissions are only read.
"""
from __future__ import annotations

import argparse
import csv
import html
import io
import sys
import zipfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from coursebook import handout
from coursebook import roster as R
from roofline import params
from roofline.errors import ParameterError
from roofline.show import exercises as ex
from roofline.show import fmt
from roofline.show import variants as V
from roofline.show.mistakes import KINDS

# column → the header words of each format (the Korean export first, then the older one)
COLUMNS = {"kind": ("종류",), "student": ("학번",), "typed": ("적은 값",), "page": ("페이지 파일", "페이지"),
           "key": ("문항 키", "문항"), "term": ("학기",), "claimed": ("맞음",)}
GRADEBOOK = "성적.csv"
# Canvas's gradebook import: these columns, in this order, before the assignment columns (its export's own shape)
CANVAS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
REPORT = "문항-보고서"


@dataclass
class Submission:
    name: str                       # the file, as the instructor sees it (inside the zip: zip name/file)
    rows: list                      # [(line, {column: value})]
    student: str = ""


@dataclass
class Tally:
    tried: set = field(default_factory=set)
    right: dict = field(default_factory=dict)           # student → tries before the first right one
    mistakes: Counter = field(default_factory=Counter)


def read_submissions(source: Path) -> list[tuple[str, bytes]]:
    """(name, bytes) of every .csv in a folder (recursively) or a zip (an LMS's download of all submissions)."""
    source = Path(source)
    if source.is_dir():
        return [(str(p.relative_to(source)), p.read_bytes()) for p in sorted(source.rglob("*.csv")) if p.is_file()]
    try:
        with zipfile.ZipFile(source) as z:
            return [(f"{source.name}/{i.filename}", z.read(i)) for i in sorted(z.infolist(), key=lambda i: i.filename)
                    if not i.is_dir() and i.filename.lower().endswith(".csv")]
    except (zipfile.BadZipFile, OSError) as err:
        raise ParameterError(f"{source}: 제출 폴더도 zip도 아니다 ({err}). SUBMISSIONS=폴더 또는 .zip을 주자") from None


def parse(name: str, data: bytes, said: list[str]) -> Submission | None:
    """A progress CSV's answer rows by column name; None (and a line said) when it is no progress CSV."""
    try:
        text = R.decode(data, name)
    except ParameterError as err:
        said.append(str(err))
        return None
    rows = list(csv.reader(io.StringIO(text, newline="")))
    header = rows[0] if rows else []
    where = {}
    for column, names in COLUMNS.items():
        where[column] = next((header.index(n) for n in names if n in header), None)
    missing = [COLUMNS[c][0] for c in ("kind", "student", "typed", "page", "key") if where[c] is None]
    if missing:
        said.append(f"{name}: 1번째 줄이 진도 CSV의 머리글이 아니다({', '.join(missing)} 칸이 없다). 학생이 \"내 진도\"에서 "
                    "내보낸 파일을 그대로 받자")
        return None
    out, short = [], []
    for line, row in enumerate(rows[1:], 2):
        if not row:
            continue
        if len(row) < len(header):
            short.append(line)
            continue
        out.append((line, {c: row[i] for c, i in where.items() if i is not None}))
    if short:
        said.append(f"{name}: {', '.join(map(str, short[:5]))}번째 줄의 칸이 모자란다(잘렸거나 손으로 고친 파일). 그 줄은 "
                    "채점하지 않았다. 학생에게 \"내 진도\"에서 다시 내보내 달라고 하자")
    return Submission(name, out)


def typed_of(cell: str) -> str:
    """What the student typed: the export's apostrophe before a leading = + - @ taken off."""
    return cell[1:] if cell[:1] == "'" and cell[1:2] in ("=", "+", "-", "@") else cell


def grade(source: Path, roster: Path, out: Path, course=None, site: Path | None = None) -> list[str]:
    """Grade every submission of `source` for the students of `roster`; write the gradebook and the report into `out`.
    Returns the Korean lines said about the input (empty when everything was read)."""
    students = R.read_students(R.roster_bytes(roster), Path(roster).name)
    course = course or params.load()
    digest, term = handout.published_term(course, site)
    titles = page_titles(site)
    on_roster = {s.id: s for s in students}
    said: list[str] = []
    owner: dict[str, Submission] = {}
    twice: dict[str, list[str]] = defaultdict(list)
    files = read_submissions(source)
    if not files:
        said.append(f"{source}: 진도 CSV(.csv)가 하나도 없다. 학생들이 \"내 진도\"에서 내보낸 파일을 모은 폴더나 zip을 주자")
    for name, data in files:
        sub = parse(name, data, said)
        if sub is None:
            continue
        ids = Counter(V.normal(r["student"]) for _, r in sub.rows if r["kind"] == "답" and V.normal(r["student"]))
        known = [i for i in ids if i in on_roster]
        if not known:
            shown = ", ".join(sorted(ids)) or "없음(기본 문제만 풀었다)"
            said.append(f"{name}: 파일의 학번({shown})이 명단에 없다. 학번을 명단에 넣거나 학생에게 학번을 적고 풀게 하자")
            continue
        sub.student = max(known, key=lambda i: ids[i])
        others = sorted(i for i in ids if i != sub.student)
        if others:
            said.append(f"{name}: 학번 {sub.student}의 답만 채점한다(다른 학번 {', '.join(others)}의 줄은 뺐다)")
        foreign = sorted({r["term"] for _, r in sub.rows if r.get("term") and r["page"] in term
                          and r["term"] != term[r["page"]].file["term"]})
        if foreign:
            said.append(f"{name}: 다른 학기({', '.join(foreign)})의 파일이다. 이 학기 사이트에서 푼 기록을 다시 받자 "
                        "(채점하지 않았다)")
            continue
        twice[sub.student].append(name)
        owner[sub.student] = sub
    for student, names in twice.items():
        if len(names) > 1:
            said.append(f"학번 {student}의 파일이 둘 이상이다({', '.join(names)}). 하나만 남기고 다시 채점하자 "
                        "(이 학생은 채점하지 않았다)")
            del owner[student]

    tallies: dict[tuple[str, str], Tally] = {(p, q.key): Tally() for p, pub in term.items()
                                              for q in pub.found[0].exercises.questions}
    scores = {s.id: Counter() for s in students}
    for student, sub in owner.items():
        claimed_wrong, unknown, tries = 0, [], Counter()
        for line, row in sub.rows:
            if row["kind"] != "답" or V.normal(row["student"]) != student:
                continue
            page = term.get(row["page"])
            if page is None or (row["page"], row["key"]) not in tallies:
                unknown.append(line)
                continue
            _, variant, _ = page.draw(student)
            q = variant.exercises.question(row["key"])
            try:
                verdict = ex.judge(q, typed_of(row["typed"]))
            except ParameterError:
                unknown.append(line)
                continue
            tally = tallies[row["page"], row["key"]]
            if student in tally.right:
                continue                                  # tries after the first right one count for nothing
            tally.tried.add(student)
            if verdict.right:
                tally.right[student] = tries[row["page"], row["key"]]
                scores[student][row["page"]] += 1
            else:
                tries[row["page"], row["key"]] += 1
                if verdict.mistake:
                    tally.mistakes[verdict.mistake] += 1
            if row.get("claimed") == "예" and not verdict.right:
                claimed_wrong += 1
        if claimed_wrong:
            said.append(f"{sub.name}: 파일이 맞았다고 적은 답 {claimed_wrong}개가 다시 판정하면 틀렸다(손으로 고친 파일?). "
                        "성적은 다시 판정한 것으로 매겼다")
        if unknown:
            said.append(f"{sub.name}: {', '.join(map(str, unknown[:5]))}번째 줄의 페이지나 문항이 이 학기의 것이 아니다"
                        "(손으로 고친 줄?). 그 줄은 채점하지 않았다")
    write(out, students, scores, tallies, term, titles, digest)
    return said


def page_titles(site: Path | None) -> dict[str, str]:
    """page → its title, from the progress page's catalog in the site (the page file when it is not there)."""
    import json
    import re

    page = Path(site or handout.SITE) / "chapters" / "progress.html"
    try:
        found = re.search(r'class="rl-progress-data">(.*?)</script>', page.read_text(encoding="utf-8"), re.S)
        return {c["page"]: c["title"] for c in json.loads(found.group(1).replace("<\\/", "</"))["chapters"]}
    except (OSError, AttributeError, ValueError, KeyError):
        return {}


def share(part: int, whole: int) -> str:
    return f"{fmt.decimal(Fraction(100 * part, whole), 1)}%" if whole else "—"


def write(out: Path, students, scores, tallies, term, titles, digest) -> None:
    out = Path(out)
    counts = {p: len(pub.found[0].exercises.questions) for p, pub in term.items()}
    header = [*CANVAS, *(f"{titles.get(p, p)} ({counts[p]}문항)" for p in term), f"합계 ({sum(counts.values())}문항)"]
    handout.write_csv(out / GRADEBOOK, header, ([s.name, "", s.id, "", "", *(scores[s.id][p] for p in term),
                                                 sum(scores[s.id].values())] for s in students))
    rows = []
    for (p, key), t in tallies.items():
        before = Fraction(sum(t.right.values()), len(t.right)) if t.right else None
        named = ", ".join(f"{KINDS.get(k, k)} {n}번" for k, n in t.mistakes.most_common())
        rows.append([titles.get(p, p), key, len(t.tried), share(len(t.right), len(students)),
                     fmt.decimal(before, 1) if before is not None else "—", named])
    head = ["페이지", "문항", "푼 학생", "맞힌 비율(명단)", "맞히기 전 시도(평균)", "실수(많은 순)"]
    handout.write_csv(out / f"{REPORT}.csv", head, rows)
    cells = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>\n" for r in rows)
    (out / f"{REPORT}.html").write_text(
        f'<!doctype html>\n<html lang="ko"><meta charset="utf-8"><title>문항 보고서</title>\n'
        f"<h1>문항 보고서</h1>\n<p>학기 {digest}, 명단 {len(students)}명. 맞힌 비율은 명단의 학생 가운데 그 문항을 맞힌 "
        "학생의 비율이고, 실수는 사이트의 판정이 이름을 붙인 틀린 답을 센 것이다.</p>\n<table>\n<thead><tr>"
        + "".join(f'<th scope="col">{html.escape(h)}</th>' for h in head) + f"</tr></thead>\n<tbody>\n{cells}</tbody>\n</table>\n",
        encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m coursebook.grade", description=__doc__.splitlines()[0])
    parser.add_argument("submissions", type=Path, help="a folder of the students' progress CSVs, or a zip of them")
    parser.add_argument("roster", type=Path, help="the roster CSV (학번, 이름)")
    parser.add_argument("--out", type=Path, required=True, help="the folder for 성적.csv and 문항-보고서.*")
    parser.add_argument("--site", type=Path, default=None, help="the published site (default: _build/html)")
    args = parser.parse_args(argv)
    try:
        said = grade(args.submissions, args.roster, args.out, site=args.site)
    except ParameterError as err:
        print(err, file=sys.stderr)
        return 2
    except OSError as err:
        print(f"{err.filename or args.out}: 읽거나 쓸 수 없다 ({err.strerror}). 경로와 권한을 확인하자", file=sys.stderr)
        return 2
    for line in said:
        print(line, file=sys.stderr)
    print(f"{args.out / GRADEBOOK}, {args.out / REPORT}.csv, {args.out / REPORT}.html"
          + (f" (입력의 문제 {len(said)}건: 위의 줄을 보자)" if said else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
