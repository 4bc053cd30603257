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

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((ROOT / "chapters").glob("*.md"))

# Phrases whose numerals are definitions or names, not results. Each with its reason.
ALLOWED = {
    r"[34]주차": "week numbers of the course, a name",
    r"Scaling Book 1장": "the chapter number of a cited book",
    r"\b1 Byte": "the unit in a definition (FLOPs per 1 Byte)",
    r"10의 거듭제곱": "log-axis tick labels are powers of ten",
    r"1 KiB = 1024 Byte": "definition of the unit KiB",
    r"1 GB = 10⁹ Byte|1 TFLOPs/s = 10¹² FLOPs/s|1 GFLOPs = 10⁹ FLOPs|1 ms = 10⁻³ s|1 TB/s = 10¹² Byte/s": "unit definitions",
    r"2 FLOPs": "one FMA counts as 2 FLOPs, the convention of the course",
    r"\b10번|열 번": "an example count in the definition of Q (read ten times, counted ten times)",
    r"워프\(warp\) 하나는 스레드 32개|스레드 32개": "warp size of NVIDIA GPUs, a hardware constant",
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


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.name for p in CHAPTERS])
def test_every_section_opens_with_its_one_line_answer(path):
    source = path.read_text(encoding="utf-8")
    if "kernelspec:" not in source[:600]:
        return   # the landing page, glossary and bibliography are not chapters
    parts = re.split(r"^## (.+)$", strip_fences(re.sub(r"\A---\n.*?\n---\n", "", source, flags=re.S)), flags=re.M)
    missing = [parts[i] for i in range(1, len(parts), 2)
               if not SECTIONS_WITHOUT_ANSWER.match(parts[i]) and not parts[i + 1].strip().startswith("**한 줄 답.**")]
    assert not missing, f"{path.name}: sections without a \"**한 줄 답.**\" opening: {missing}"
