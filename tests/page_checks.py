"""Checks that every page module has, called by name from its tests/pages/test_<page>.py (PAGE: the page's stem).

- its glued values at the seed parameters equal tests/golden/<page>.json byte for byte (in-process, no build; the
  golden files were written from the code before roofline.show was reorganised, see tests/golden_values.py);
- the keys it glues equal the `{glue…}` references of its .md, both ways: no key glued only for a test, no reference
  to a missing key;
- no key is a grammatical case: a value that needs a particle carries it (`ko.particle`), and its key names the value.

tests/show/test_pages.py checks that every page of `roofline.show.pages.names()` has its test file and that the
file runs these checks, so a new page cannot escape them. The checks of the page's own sources (its label and
parameter cell, its folded answers, its terms) are here too, for the pages whose tests call them.
"""
from __future__ import annotations

import json
import re

import pytest

from conftest import CHAPTERS, seed_glued
from golden_values import GOLDEN, golden, text

# the checks that tests/show/test_pages.py requires of every page's test file
EVERY_PAGE = ("test_glued_values_equal_the_golden_file", "test_glued_keys_equal_the_pages_references",
              "test_no_key_is_a_grammatical_case")

REFERENCE = re.compile(r"\{glue(?::\w+)?\}`([^`]+)`|^[`:]{3,}\{glue(?::\w+)?\}[ \t]+(\S+)", re.M)
# a key that ends in a Korean particle's or a case's name ("T-over-s-wa", "q-Bc2-ida", "dtype-obj", "occ-gpu-ui")
GRAMMATICAL = re.compile(r"-(wa|gwa|ida|obj|object|subj|subject|topic|quoting|ro|euro|if|myeon|neun|eun|i|ga|ui|reul|eul|do|ko|eseo|to|from)$")


def source(stem: str) -> str:
    return (CHAPTERS / f"{stem}.md").read_text(encoding="utf-8")


# ---- every page --------------------------------------------------------------------------------------------------

def glued_values_equal_the_golden_file(stem: str) -> None:
    want = (GOLDEN / f"{stem}.json").read_text(encoding="utf-8")
    got = text(golden(stem))
    if got != want:
        old, new = json.loads(want), json.loads(got)
        changed = sorted(k for k in set(old) | set(new) if old.get(k, "<absent>") != new.get(k, "<absent>"))
        pytest.fail(f"{stem}: glued values differ from tests/golden/{stem}.json for keys {changed[:20]}")


def references(stem: str) -> set[str]:
    return {a or b for a, b in REFERENCE.findall(source(stem))}


def glued_keys(stem: str) -> set[str]:
    return set(json.loads((GOLDEN / f"{stem}.json").read_text(encoding="utf-8")))


def glued_keys_equal_the_pages_references(stem: str) -> None:
    keys, refs = glued_keys(stem), references(stem)
    assert not sorted(keys - refs), f"{stem}: glued but never shown on the page"
    assert not sorted(refs - keys), f"{stem}: the page shows a key nothing glues"


def no_key_is_a_grammatical_case(stem: str) -> None:
    assert sorted(k for k in glued_keys(stem) if GRAMMATICAL.search(k)) == []


# ---- the sources of some pages -----------------------------------------------------------------------------------

def label_and_one_parameter_cell(stem: str, label: str) -> None:
    """The week-4 guide and ②: the page's label, one parameter cell, and every link outside code an https URL."""
    md = source(stem)
    assert f"({label})=" in md
    assert md.count(":tags: [parameters, hide-input]") == 1
    assert "# ▶ 매개변수 셀:" in md
    prose = re.sub(r"```\{code-cell\}.*?```", "", md, flags=re.S)
    links = re.findall(r"\]\(([^)]+)\)", prose)
    assert links and all(url.startswith("https://") for url in links), links


def one_parameter_cell(stem: str) -> None:
    """④, ⑤ and 정리: one week-4 parameter cell, a one-line answer, and no problem size in the title."""
    md = source(stem)
    assert len(re.findall(r":tags: \[parameters, hide-input\]\n:params: week4\n(?::[^\n]*\n)*# ▶ 매개변수 셀:", md)) == 1
    assert md.count("**한 줄 답.**") >= 1
    title = md.split("\n# ", 1)[1].split("\n", 1)[0]
    assert not re.search(r"\d{3,}", title), title     # no problem size in the title: it changes with the parameters


def seed_page(stem: str) -> dict[str, str]:
    """What chapter `stem` shows, run with the seed's parameters: table, equation or text (no-break spaces as spaces)."""
    return {key: next(bundle[m] for m in ("text/markdown", "text/latex", "text/plain") if m in bundle).replace("\u00a0", " ")
            for key, bundle in seed_glued(stem).items()}


def canonical_terms_and_shapes(stem: str) -> None:
    md = source(stem)
    for wrong in ("Occupancy", "바운드", "연산 제한", "메모리 제한", "병목에서 연산 병목", "{glue:text}`N`×"):
        assert wrong not in md, wrong
    for term in ("산술 강도", "Roofline", "메모리 한계", "연산 한계", "점유율"):
        assert "{term}`" + term + "`" in md, term
    assert seed_page(stem)["shape"] == "4096×4096"


def discussion_answers_stay_in_the_fold(stem: str) -> None:
    """Under a "토론" heading, a 한 줄 답 only inside the dropdown (the answer is folded until the reader opens it)."""
    md = source(stem)
    for section in re.split(r"\n## ", md)[1:]:
        if not section.startswith("토론"):
            continue
        before_fold = section.split(":class: dropdown", 1)[0]
        assert "한 줄 답" not in before_fold, section[:40]
        assert "답 펼쳐 보기" in section

