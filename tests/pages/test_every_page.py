"""The checks every page has, one test per page module of `roofline.show.pages.names()` (so a new page is checked
without a line here); a page's own checks are in its tests/pages/test_<page>.py.

- what it shows at the seed parameters equals tests/golden/<page>.yaml (in-process, no build: the text, tables,
  equations, explorer states and derivation trees with their origins, no record id; `python tests/golden_values.py
  --force-regen PAGE` writes it again after a deliberate change, see tests/golden_values.py);
- the keys it glues equal the `{glue…}` references of its .md, both ways: no key glued only for a test, no reference
  to a missing key;
- no key is a grammatical case: a value that needs a particle carries it (`ko.particle`), and its key names the value;
- its head: its own label right above a title without a problem size, one parameter cell, and every link outside
  code an https URL;
- at least one one-line answer, and under a "토론" heading only inside the fold;
- one term per idea: none of the words the course replaced by its terms.
"""
from __future__ import annotations

import difflib
import re

import pytest

from conftest import CHAPTERS
from coursebook import paramcell
from golden_values import FLAG, golden, load, path_of, text
from roofline.show import pages

REFERENCE = re.compile(r"\{glue(?::\w+)?\}`([^`]+)`|^[`:]{3,}\{glue(?::\w+)?\}[ \t]+(\S+)", re.M)
# a key that ends in a Korean particle's or a case's name ("T-over-s-wa", "q-Bc2-ida", "dtype-obj", "occ-gpu-ui")
GRAMMATICAL = re.compile(r"-(wa|gwa|ida|obj|object|subj|subject|topic|quoting|ro|euro|if|myeon|neun|eun|i|ga|ui|reul|eul|do|ko|eseo|to|from)$")
LABEL = re.compile(r"^\((ch-[\w-]+)\)=\n# (.+)$", re.M)     # a page's label and the title below it
# words the course replaced by one term each ("Occupancy" → 점유율, "바운드" → 한계), and a shape glued number by number
REPLACED = ("Occupancy", "바운드", "연산 제한", "메모리 제한", "병목에서 연산 병목", "{glue:text}`N`×")

pytestmark = pytest.mark.heavy(15)   # rough seconds, for the order of the run (tests/conftest.py)
every_page = pytest.mark.parametrize("stem", pages.names())


def source(stem: str) -> str:
    return (CHAPTERS / f"{stem}.md").read_text(encoding="utf-8")


def glued_keys(stem: str) -> set[str]:
    return set(load(stem))


@every_page
def test_glued_values_equal_the_golden_file(stem):
    path = path_of(stem)
    want = path.read_text(encoding="utf-8") if path.is_file() else ""
    now = golden(stem)
    got = text(now)
    if got != want:
        old = load(stem) if want else {}
        changed = sorted(k for k in set(old) | set(now) if old.get(k, "<absent>") != now.get(k, "<absent>"))
        diff = "".join(list(difflib.unified_diff(want.splitlines(True), got.splitlines(True), f"{path.name} (kept)",
                                                 f"{path.name} (now)", n=1))[:40])
        pytest.fail(f"{stem}: what the page shows differs from tests/golden/{path.name} for keys {changed[:20]}; "
                    f"if the change is meant, `python tests/golden_values.py {FLAG} {stem}` writes it:\n{diff}")


@every_page
def test_glued_keys_equal_the_pages_references(stem):
    keys, refs = glued_keys(stem), {a or b for a, b in REFERENCE.findall(source(stem))}
    assert not sorted(keys - refs), f"{stem}: glued but never shown on the page"
    assert not sorted(refs - keys), f"{stem}: the page shows a key nothing glues"


@every_page
def test_no_key_is_a_grammatical_case(stem):
    assert sorted(k for k in glued_keys(stem) if GRAMMATICAL.search(k)) == []


@every_page
def test_label_title_one_parameter_cell_and_https_links(stem):
    md = source(stem)
    heads = LABEL.findall(md)
    assert len(heads) == 1 and len(re.findall(r"^\(ch-", md, re.M)) == 1, heads
    label, title = heads[0]
    others = [other for other in pages.names() if other != stem and f"({label})=" in source(other)]
    assert others == [], f"{stem}: label {label} is also the label of {others}"
    assert not re.search(r"\d{3,}", title), title     # no problem size in the title: it changes with the parameters
    cell, problem = paramcell.find(md)      # one cell tagged parameters, its `:params:` naming a problem
    assert cell is not None, f"{stem}: no parameter cell"
    assert ":tags: [parameters, hide-input]" in cell["options"] and cell["body"].startswith("# ▶ 매개변수 셀:")
    prose = re.sub(r"```\{code-cell\}.*?```", "", md, flags=re.S)
    links = re.findall(r"\]\(([^)]+)\)", prose)
    assert links and all(url.startswith("https://") for url in links), links


@every_page
def test_one_line_answers_stay_in_the_fold(stem):
    """A page answers in one line at least once; under a "토론" heading, only inside the dropdown (the answer is
    folded until the reader opens it)."""
    md = source(stem)
    assert md.count("**한 줄 답.**") >= 1
    for section in re.split(r"\n## ", md)[1:]:
        if not section.startswith("토론"):
            continue
        before_fold = section.split(":class: dropdown", 1)[0]
        assert "한 줄 답" not in before_fold, section[:40]
        assert "답 펼쳐 보기" in section


@every_page
def test_no_word_the_course_replaced_by_a_term(stem):
    """A link's text is the linked document's own title ("Calculating Occupancy"), not the page's word."""
    prose = re.sub(r"\[([^\]]*)\]\(https://[^)]+\)", "", source(stem))
    assert [word for word in REPLACED if word in prose] == []


# a particle the page writes right after a glued value ("{glue:text}`x`는"), and the endings ko.particle gives a value
PARTICLE_AFTER = re.compile(r"\{glue(?::text)?\}`([^`]+)`([은는이가을를과와로으의에도])")
PARTICLE_ENDINGS = tuple("은는이가을를과와로다면고")


@every_page
def test_no_particle_after_a_value_that_carries_one(stem):
    """A glued value that carries its particle (`ko.particle`) is not followed by another on the page ("…는는")."""
    values = {key: (record or {}).get("text", "") for key, record in load(stem).items()}
    doubled = [f"{key} = {values[key]!r}, then {after!r}" for key, after in PARTICLE_AFTER.findall(source(stem))
               if values.get(key, "").endswith(PARTICLE_ENDINGS)]
    assert doubled == [], f"{stem}: a particle after a value that ends in one: {doubled}"


# a decimal of four or more whole digits without separators ("35185.445831"), not a plot's coordinate (a YAML list
# item), a reference's number (arXiv 2205.14135) or the end of a glued "T = 32" run into the next cell's number
UNGROUPED = re.compile(r"(?<![\d,./:A-Za-z_=-])(?<!= )\d{4,}\.\d")


@every_page
def test_one_number_format(stem):
    """What the page shows writes every decimal a reader reads with separators (1,365.333333, 4,096×4,096: fmt and
    why.decimal), and no power of ten with padded zeros ("121.000000 × 10¹²")."""
    shown = [line for line in text(golden(stem)).splitlines() if not line.lstrip().startswith("- ")]
    assert [line for line in shown if UNGROUPED.search(line)] == []
    assert [line for line in shown if re.search(r"\.0{6} × 10", line)] == []
