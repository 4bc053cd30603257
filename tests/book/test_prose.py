"""No hand-typed numbers in the chapters' prose.

A numeral that a reader sees must come from the library through glue. This test strips what is
not prose (front matter, code cells, glue roles and directives, inline code, URLs, labels) and
fails on any numeral left that is neither part of a name (FP32, H100, T_M, GPT-3) nor on the
allow-list below, each entry with its reason. Numerals inside math are allowed only as the small
structural constants of formulas (exponents, 2 FLOPs per FMA, …), listed in MATH_CONSTANTS.
"""
from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from roofline.show import pages

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = sorted((ROOT / "chapters").glob("*.md"))

# Phrases whose numerals are definitions or names, not results. Each with its reason.
ALLOWED = {
    r"[34]주차": "week numbers of the course, a name",
    r"Scaling Book 1장": "the chapter number of a cited book",
    r"\b1 Byte": "the unit in a definition (FLOPs per 1 Byte)",
    r"10의 거듭제곱": "log-axis tick labels are powers of ten",
    r"1 KiB = 1024 Byte": "definition of the unit KiB",
    r"1 GB = 10⁹ Byte|1 TFLOPs/s = 10¹² FLOPs/s|1 GFLOPs = 10⁹ FLOPs|1 ms = 10⁻³ s|1 TB/s = 10¹² Byte/s": "unit definitions",
    r"\b1 {2}= 10¹² ": "a unit definition whose units are glued (1 TFLOPs/s, or 1 TOPS for an integer dtype, = 10¹² …)",
    r"2 FLOPs": "one FMA counts as 2 FLOPs, the convention of the course",
    r"\b10번|열 번": "an example count in the definition of Q (read ten times, counted ten times)",
    r"워프\(warp\) 하나는 스레드 32개|스레드 32개": "warp size of NVIDIA GPUs, a hardware constant",
    r"Algorithm 1": "the number of an algorithm in a cited paper: a label, not a quantity",
}
MATH_CONSTANTS = {"0", "1", "2", "3", "4", "6", "8", "12", "16"}
# Unit definitions written as math, e.g. $1\ \text{KiB} = 1024\ \text{Byte}$, $1\ \text{GB} = 10^9\ \text{Byte}$.
UNIT_DEFINITION = re.compile(r"^\$1\\ \\text\{[^}]+\} = (?:10\^\{?-?\d+\}?|1024)\\ \\text\{[^}]+\}\$$")

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z_]*-?\d+[A-Za-z0-9_]*|\d+[A-Za-z]+\d*(?=\b)")


# Fenced blocks whose content is not prose: skipped whole. Any other directive (admonition,
# dropdown, note …) holds prose: its option lines are dropped and its body is checked.
NOT_PROSE = re.compile(r"\{(?:code-cell|code-block|code|glue(?::(?:md|math|text))?|math)\}|^(?:text|python|bash|console|)$")
FENCE = re.compile(r"^(?P<fence>`{3,}|:{3,})(?P<info>.*)$")


def strip_fences(text: str) -> str:
    """Keep the prose lines, following nested fences with a stack (an opening fence has an info
    string or stands where no block is open; a closing fence repeats the innermost fence)."""
    kept, stack = [], []   # stack of (fence, is_prose)
    for line in text.split("\n"):
        match = FENCE.match(line.strip())
        if match:
            fence, info = match["fence"], match["info"].strip()
            if stack and not info and fence[0] == stack[-1][0][0] and len(fence) >= len(stack[-1][0]):
                stack.pop()
                continue
            inside_prose = all(is_prose for _, is_prose in stack)
            if inside_prose or not stack:
                stack.append((fence, not NOT_PROSE.search(info)))
                continue
            stack.append((fence, False))
            continue
        if all(is_prose for _, is_prose in stack):
            kept.append(line)
    if stack:
        raise AssertionError(f"unclosed fence {stack[-1][0]!r}")
    return "\n".join(kept)


def prose(text: str) -> str:
    text = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.S)                      # front matter
    text = strip_fences(text)
    text = re.sub(r"\{glue(?::\w+)?\}`[^`]*`", "", text)                           # glue roles
    text = re.sub(r"\{(?:ref|doc|term|numref|cite(?::\w)?)\}`[^`]*`", "", text)     # references
    text = re.sub(r"`[^`]*`", "", text)                                              # inline code
    text = re.sub(r"\]\([^)]*\)", "]", text)                                         # link targets
    text = re.sub(r"https?://\S+", "", text)
    text = re.sub(r"^\([\w-]+\)=$", "", text, flags=re.M)                            # labels
    text = re.sub(r"^:[\w-]+:.*$", "", text, flags=re.M)                              # directive options
    return text


def numerals(text: str) -> list[str]:
    found = []
    math = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.S)
    for block in math.findall(text):
        if UNIT_DEFINITION.match(block.strip()):
            continue
        for number in re.findall(r"\d+(?:\.\d+)?", IDENTIFIER.sub("", re.sub(r"\\[a-zA-Z]+", "", block))):
            if number not in MATH_CONSTANTS:
                found.append(f"{number} in math {block.strip()[:60]!r}")
    text = math.sub("", text)
    for pattern in ALLOWED:
        text = re.sub(pattern, "", text)
    text = IDENTIFIER.sub("", text)
    for line in text.splitlines():
        line = re.sub(r"^\s*(?:\d+\.|[-*])\s", "", line)  # list markers
        for match in re.finditer(r"\d+(?:[.,]\d+)*", line):
            found.append(f"{match.group()} in {line.strip()[:80]!r}")
    return found


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.name for p in CHAPTERS])
def test_no_hand_typed_numbers(path):
    found = numerals(prose(path.read_text(encoding="utf-8")))
    assert not found, f"{path.name}: numbers typed into prose (glue them from the library):\n" + "\n".join(found)


def test_the_lint_reads_prose_inside_folded_answers_and_skips_code():
    sample = (
        "````{admonition} 답\n:class: dropdown\n\n답은 7이다.\n\n```{glue:md} t\n:format: myst\n```\n\n"
        "그리고 9.\n````\n\n```python\nx = 5\n```\n\n```{code-cell} ipython3\ny = 6\n```\n끝 3개.\n"
    )
    assert [f.split(" in ")[0] for f in numerals(prose(sample))] == ["7", "9", "3"]


def test_the_lint_catches_a_typed_number():
    sample = "---\nx: 1\n---\n# 제목\n\n분기점은 20 FLOPs/Byte다. {glue:text}`ridge` 와 FP32, H100, $2N^3$.\n"
    assert [f.split(" in ")[0] for f in numerals(prose(sample))] == ["20"]
    assert numerals(prose("시간은 $t = 6.87$ ms다.")) == ["6.87 in math '$t = 6.87$'"]


SEEDS = ROOT.parent / "shared" / "seeds"
COPY_WINDOW = 40   # characters: a run this long, identical to a source document, was pasted, not written


@functools.cache
def seed_windows() -> frozenset[str]:
    windows = set()
    for seed in sorted(SEEDS.glob("*.txt")):
        text = re.sub(r"\s+", " ", seed.read_text(encoding="utf-8"))
        windows.update(text[i:i + COPY_WINDOW] for i in range(len(text) - COPY_WINDOW + 1))
    return frozenset(windows)


@pytest.mark.skipif(not SEEDS.exists(), reason="the source documents (../shared/seeds) are not beside this checkout")
@pytest.mark.parametrize("path", CHAPTERS, ids=[p.name for p in CHAPTERS])
def test_prose_is_written_anew_not_pasted_from_the_sources(path):
    windows = seed_windows()
    source = path.read_text(encoding="utf-8")
    body = re.sub(r"^#+ .*$", "", prose(source), flags=re.M)  # titles may keep the sources' names
    korean_strings = re.findall(r"\"([^\"\n]*[가-힣][^\"\n]*)\"", source)   # glued sentences built in code
    text = re.sub(r"\s+", " ", "\n␞".join([body, *korean_strings]))   # ␞: no run spans two strings
    copied = sorted({text[i:i + COPY_WINDOW] for i in range(len(text) - COPY_WINDOW + 1)} & windows)
    assert not copied, f"{path.name}: runs copied from the source documents:\n" + "\n".join(copied[:10])


SECTIONS_WITHOUT_ANSWER = re.compile(r"^(토론|더 읽기|참고 자료)")   # questions and reading lists
CODE_CELL = re.compile(r"^```\{code-cell\}.*?^```$", re.S | re.M)
FOLD = re.compile(r"^(`{3,}|:{3,})\{admonition\}[^\n]*\n:class: dropdown\n.*?^\1$", re.S | re.M)
ONE_LINE = "**한 줄 답.**"


def sections(source: str) -> tuple[str, list[tuple[str, str]]]:
    """(the text under the title, [(heading, text)] of the ## sections), front matter and code cells removed."""
    body = CODE_CELL.sub("", re.sub(r"\A---\n.*?\n---\n", "", source, flags=re.S))
    parts = re.split(r"^## (.+)$", body, flags=re.M)
    return parts[0], [(parts[i], parts[i + 1]) for i in range(1, len(parts), 2)]


def one_line_answer_problems(source: str) -> list[str]:
    """A chapter opens with its one-line answer under the title; a section has one only at its start; a question
    (토론) never has one before its fold: the answer, one line included, lives inside the dropdown."""
    head, parts = sections(source)
    problems = []
    under_title = re.sub(r"^\(.*\)=$|^# .*$", "", head, flags=re.M).strip()
    if not under_title.startswith(ONE_LINE):
        problems.append("no one-line answer under the title")
    for heading, text in parts:
        outside = FOLD.sub("", text)
        if heading.startswith("토론"):
            if ONE_LINE in outside:
                problems.append(f"{heading}: one-line answer outside the fold (a spoiler)")
        elif outside.count(ONE_LINE) and not outside.strip().startswith(ONE_LINE):
            problems.append(f"{heading}: one-line answer not at the start of the section")
    return problems


# Every page of the book with a page module (roofline.show.pages: the registry, checked against _toc.yml).
ANSWERS_FOLDED_PAGES = [f"{name}.md" for name in pages.names()]


@pytest.mark.parametrize("name", ANSWERS_FOLDED_PAGES)
def test_one_line_answers_open_chapters_and_never_precede_a_question(name):
    path = ROOT / "chapters" / name
    source = path.read_text(encoding="utf-8")
    assert "kernelspec:" in source[:600], f"{name} is not a chapter"
    problems = one_line_answer_problems(source)
    assert not problems, f"{path.name}: " + "; ".join(problems)


def test_the_spoiler_check_catches_an_answer_above_its_question():
    page = ("# 제목\n\n**한 줄 답.** 요약.\n\n## 토론: 질문\n\n**한 줄 답.** 답이다.\n\n**질문.** 왜?\n\n"
            "````{admonition} 답 펼쳐 보기\n:class: dropdown\n\n**한 줄 답.** 답이다.\n````\n\n"
            "## 절\n\n본문.\n\n**한 줄 답.** 뒤늦은 답.\n")
    assert one_line_answer_problems(page) == ["토론: 질문: one-line answer outside the fold (a spoiler)",
                                              "절: one-line answer not at the start of the section"]
    folded = page.replace("## 토론: 질문\n\n**한 줄 답.** 답이다.\n\n", "## 토론: 질문\n\n").replace("본문.\n\n**한 줄 답.** 뒤늦은 답.\n", "본문.\n")
    assert one_line_answer_problems(folded) == []


# ---- one term for one idea (chapters/glossary.md is the list) ----------------------------------------------

RETIRED = {   # a variant the site no longer writes → the one term it writes instead
    r"\bTiling\b": "타일링 (the glossary's term; the English word only as its gloss in the glossary)",
    r"\bFLOP/s": "FLOPs/s",
    r"모형": "모델",
    r"Ridge [Pp]oint|ridge Point": "ridge point, as the glossary writes it",
    r"\d %": "a percentage with no space before % (20.6%)",
    r"(?<!= )(?<![\d.,×])\d+ 타일(?!링)": "T = 32, not \"32 타일\" (the tile side as the tables and figures name it)",
    r"다시 (?:쓰|쓸|쓴|써)": "재사용 (reuse) or 고쳐 쓰기 (rewrite): 쓰기 is a memory write",
    r"실행시간": "실행 시간, spaced as 연산 시간 and 메모리 시간",
    r"앞 줄|뒷 줄": "앞줄, 뒷줄 (one word each)",
    r"읽기량|쓰기량": "읽는 양, 쓰는 양",
}
# The pairs the glossary's 표기 약속 table lists (retired word → the word the site writes): the rule and the page agree.
GLOSSARY_PAIRS = {"다시 쓰다": "재사용하다", "실행시간": "실행 시간", "앞 줄": "앞줄", "모형": "모델", "읽기량": "읽는 양"}
GLOSS = re.compile(r"^\s+[A-Z][\w -]*\. ", re.M)   # a glossary entry's English gloss: "  Tiling. 큰 연산을 …"

# Every page written with the one term: the front page and every page with a page module (`retired_variants` of
# any page lists what is left).
ONE_TERM_PAGES = ["index.md"] + [f"{name}.md" for name in pages.names()]


def readable_text(source: str) -> str:
    """What a reader reads of a page: its prose with each glued value as a placeholder digit, its headings, and the
    Korean sentences its code builds (string literals, each {…} field as a placeholder digit)."""
    text = re.sub(r"\A---\n.*?\n---\n", "", source, flags=re.S)
    literals = [re.sub(r"\{[^{}]*\}", "0", s) for s in re.findall(r"\"([^\"\n]*[가-힣][^\"\n]*)\"", source)]
    text = strip_fences(text)
    text = re.sub(r"\{glue(?::\w+)?\}`[^`]*`", "0", text)
    text = re.sub(r"\{(?:ref|doc|term|numref)\}`([^`<]*)(?:<[^`]*>)?`", r"\1", text)   # the shown words of a link
    text = re.sub(r"\{cite(?::\w)?\}`[^`]*`|`[^`]*`", "", text)
    text = re.sub(r"\]\([^)]*\)|https?://\S+", "]", text)
    return "\n".join([GLOSS.sub("", text), *literals])


def retired_variants(source: str) -> list[str]:
    found = []
    for pattern, instead in RETIRED.items():
        for match in re.finditer(pattern, readable_text(source)):
            found.append(f"{match.group()!r} → {instead}")
    return found


@pytest.mark.parametrize("name", ONE_TERM_PAGES)
def test_one_term_for_one_idea(name):
    found = retired_variants((ROOT / "chapters" / name).read_text(encoding="utf-8"))
    assert not found, f"{name}: retired variants:\n" + "\n".join(found)


def test_the_glossary_lists_each_pair_and_its_rule_retires_it():
    source = (ROOT / "chapters" / "glossary.md").read_text(encoding="utf-8")
    table = source[source.index("## 표기 약속"):]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    for retired, kept in GLOSSARY_PAIRS.items():
        assert any(retired in row.split("|")[1] and kept in row.split("|")[2] for row in rows), (retired, kept)
        assert retired_variants(retired), f"{retired!r} is listed in the glossary but the term check misses it"
        assert not retired_variants(kept), f"{kept!r} is what the site writes, yet the check flags it"
    assert retired_variants("고쳐 쓴다. 재사용한다. 다시 읽는다.") == []


def test_the_term_check_catches_each_retired_variant():
    page = ("# ③ Tiling\n\n실제로 낸 FLOP/s와 모형, 분기점(Ridge Point), {glue:text}`pct` %, 20.6 %, 32 타일.\n\n"
            "```{code-cell} ipython3\nx = f\"{T} 타일만 닿는다\"\n```\n")
    found = [f.split(" → ")[0] for f in retired_variants(page)]
    assert found == ["'Tiling'", "'FLOP/s'", "'모형'", "'Ridge Point'", "'0 %'", "'6 %'", "'32 타일'", "'0 타일'"]
    fine = "# ③ 타일링\n\nFLOPs/s와 모델, 분기점(ridge point), 20.6%, T = 32 타일링, 128×128 출력 타일, T = 32 타일은.\n"
    assert retired_variants(fine) == []
    assert retired_variants("타일링\n  Tiling. 큰 연산을 나눈다.\n") == []   # the glossary's gloss


# ---- a discussion's folded answer is not stated in the body above its question ---------------------------------

QUESTION = re.compile(r"^\*\*질문[^*\n]*\*\*.*$", re.M)
GLUE_NAME = re.compile(r"\{glue(?::\w+)?\}`([^`]+)`|^`{3,}\{glue(?::\w+)?\} (\S+)", re.M)
MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.S)

# Glued names a folded answer may restate from the body above: the question's setting, not its answer.
CONTEXT = {
    "dtype": "the data type of the page", "machine": "the machine of the page", "preset": "the GPU of the note",
    "seq": "the sequence length of the note", "memory": "the name of the note's GPU's memory (HBM, GDDR6)", "ridge": "the machine's ridge point, the axis the answer reads against",
    "a100": "the name of the previous GPU", "N": "the matrix side", "s": "the element size",
    "Q-per": "the Byte per element of the page's dtype (the setting of the BF16 question)",
    "t-memory": "the page's memory time, restated by the question itself",
    "I-ideal-formula": "the read-once formula 2N/(3s), the yardstick both ① and its discussion name",
    "I-ideal": "the read-once I (①'s fourth row), the yardstick ①'s discussion compares against",
    "table-dtypes": "glued after the fold: the dtype table is part of ①'s answer",
    "q-bits-fp32": "mantissa bits of FP32: a property of the format", "q-bits-tf32": "mantissa bits of TF32",
    "q-ulp-ratio": "the rounding step ratio of the two formats",
    "q-tf-peak": "the TF32 peak ratio of the Tensor Core table, against which the answer measures the real gain",
    "b-star": "the crossover batch of the GEMM section, which the batch answer ends on",
    "w-shape": "the weight's shape, the GEMM's setting",
    "Q-per-bf16": "BF16's Byte per element (the per-element table): the question asks for the time and the bound",
    "unit-I": "the unit of intensity for the page's dtype (FLOPs/Byte or OPs/Byte), a word, not an answer",
    "unit-rate": "the unit of performance for the page's dtype (TFLOPs/s or TOPs/s), a word, not an answer",
}


def discussions(source: str) -> list[tuple[str, str, str]]:
    """(the body above the question with earlier folds removed, the question, its folded answer) per question."""
    body = CODE_CELL.sub("", re.sub(r"\A---\n.*?\n---\n", "", source, flags=re.S))
    found = []
    for match in QUESTION.finditer(body):
        rest = body[match.end():]
        fold = FOLD.search(rest)
        if fold is None:
            continue
        question = match.group() + rest[: fold.start()]
        found.append((FOLD.sub("", body[: match.start()]), question, fold.group()))
    return found


def glued(text: str) -> set[str]:
    return {a or b for a, b in GLUE_NAME.findall(text)}


def spoilers(source: str, context=CONTEXT) -> list[str]:
    """A folded answer whose glued values, formulas or one-line answer the body above its question already states."""
    problems = []
    for above, question, fold in discussions(source):
        title = question.split("**")[1]
        for name in sorted((glued(fold) - glued(question) - set(context)) & glued(above)):
            problems.append(f"{title}: the answer's {name!r} is stated above the question")
        for formula in {re.sub(r"\s+", " ", m) for m in MATH.findall(fold)} - {re.sub(r"\s+", " ", m) for m in MATH.findall(question)}:
            if len(formula) >= 10 and formula in re.sub(r"\s+", " ", above):
                problems.append(f"{title}: the answer's formula {formula!r} is stated above the question")
        line = re.search(r"\*\*한 줄 답\.\*\* ([^\n]+)", fold)
        if line and re.sub(r"\{glue[^`]*`[^`]*`", "", line[1])[:24] in above:
            problems.append(f"{title}: the one-line answer is stated above the question")
    return problems


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.name for p in CHAPTERS])
def test_no_discussion_is_answered_above_its_question(path):
    problems = spoilers(path.read_text(encoding="utf-8"))
    assert not problems, f"{path.name}:\n" + "\n".join(problems)


def test_every_discussion_question_has_its_answer_folded():
    for path in CHAPTERS:
        source = path.read_text(encoding="utf-8")
        body = CODE_CELL.sub("", source)
        questions = QUESTION.findall(body)
        assert len(discussions(source)) == len(questions), f"{path.name}: a question without a folded answer"


def test_the_discussion_check_catches_what_the_review_found():
    # ⑤: the read-once I, computed in the body, was the folded answer of "타일을 N까지 키우면?"
    page = ("# ⑤\n\n**한 줄 답.** 요약.\n\n## 검산\n\n**한 줄 답.** 검산.\n\nI는 {glue:text}`I-ideal-formula-x` ≈ {glue:text}`full-I`.\n\n"
            "## 토론\n\n**질문.** 타일을 N까지 키우면?\n\n````{admonition} 답 펼쳐 보기\n:class: dropdown\n\n"
            "**한 줄 답.** 상한에 닿는다.\n\nI_T = {glue:text}`full-I`.\n````\n")
    assert spoilers(page) == ["질문.: the answer's 'full-I' is stated above the question"]
    # the note: the N² answer's formula stood in the section above
    page = ("# 노트\n\n## 모델\n\n이동은 $12N^2d^2/M$이다.\n\n## 토론\n\n**질문: N².** 왜 N²일까?\n\n"
            "````{admonition} 답 펼쳐 보기\n:class: dropdown\n\n**한 줄 답.** 계수만 준다.\n\n약 $12N^2d^2/M$이다.\n````\n")
    assert spoilers(page) == ["질문: N².: the answer's formula '$12N^2d^2/M$' is stated above the question"]
    # week 3: the one-line answer of a section said what the folded answer says
    page = ("# 3주차\n\n## 실행 구조\n\n**한 줄 답.** 숨긴다고 대역폭이 늘지는 않는다. 워프는 지연을 숨긴다.\n\n## 토론\n\n"
            "**질문: 워프.** 워프를 늘리면?\n\n```{admonition} 답 펼쳐 보기\n:class: dropdown\n\n"
            "**한 줄 답.** 숨긴다고 대역폭이 늘지는 않는다.\n```\n")
    assert spoilers(page) == ["질문: 워프.: the one-line answer is stated above the question"]
