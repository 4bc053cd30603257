"""Numbers marked where they are made (coursebook.marking), on the built pages: every number `why.*` made in a glued
value the page uses is one button, with that number's text and that number's entry, and no other text is a button;
the gate's counts (why-coverage.json) are the numbers `why.*` made, nothing missing. Needs `make book`."""
from __future__ import annotations

import ast
import json
from collections import Counter

import pytest
from bs4 import BeautifulSoup

from coursebook import derivations
from site_pages import HTML, ROOT

COVERAGE = HTML.parent / "why-coverage.json"
GLUE = HTML.parent / "jupyter_execute"


def gated_pages() -> list[str]:
    return sorted(json.loads(COVERAGE.read_text(encoding="utf-8"))) if COVERAGE.is_file() else []


def made(docname: str) -> Counter:
    """(text, entry) of each number `why.*` made in the glued values page `docname` uses, from the chapter's own glue
    records (not from the page): the text, a sentence's parts, a table's cells, a text diagram's parts."""
    glue = json.loads((GLUE / f"{docname}.glue.json").read_text(encoding="utf-8"))
    found = Counter()
    for kind, key in derivations.uses((ROOT / f"{docname}.md").read_text(encoding="utf-8")):
        data = glue[key]["data"]
        record = data.get(derivations.WHY_MIME)
        if record is None:
            continue
        if kind == "text":
            texts = [(str(ast.literal_eval(data["text/plain"])), record)]
        elif "block" in record:
            code = data["text/markdown"].split("\n", 1)[-1].rsplit("\n```", 1)[0]
            texts = [(code, record["block"])]
        else:
            texts = [(cell["cell"], cell) for cell in record.get("cells", [])]
        for text, one in texts:
            found.update((piece, json.dumps({k: e[k] for k in derivations.ENTRY}, sort_keys=True))
                         for piece, e in derivations.pieces(text, one) if e is not None)
    return found


def shown(docname: str) -> Counter:
    """(text, entry) of each button of the page outside the explorers, its entry from the page's records file."""
    page = HTML / f"{docname}.html"
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    holder = soup.find(attrs={"data-rl-why": True})
    entries = json.loads((page.parent / holder["data-rl-why"]).read_text(encoding="utf-8"))["g"] if holder else []
    buttons = [b for b in soup.select("button.rl-why") if not b.find_parent(attrs={"data-rl-explorer": True})]
    assert [int(b["data-why"]) for b in buttons] == list(range(len(entries))), docname   # numbered in page order
    return Counter((b.get_text(), json.dumps(entries[int(b["data-why"])], sort_keys=True)) for b in buttons)


@pytest.mark.parametrize("docname", gated_pages())
def test_every_number_why_made_is_its_own_button(docname):
    expected, found = made(docname), shown(docname)
    assert found == expected, (docname, list((expected - found).items())[:5], list((found - expected).items())[:5])


@pytest.mark.parametrize("docname", gated_pages())
def test_the_gate_counts_the_numbers_why_made(docname):
    coverage = json.loads(COVERAGE.read_text(encoding="utf-8"))[docname]
    print(f"{docname}: {coverage['marked']} numbers made by why.*, {len(coverage['unmarked'])} in words made by none")
    assert coverage["marked"] == sum(made(docname).values()) > 0
    assert not coverage["missing"] and not coverage["unresolved"] and not coverage["explorers"]["missing"]


def test_the_site_has_gated_pages():
    assert len(gated_pages()) >= 9, "make book first"
