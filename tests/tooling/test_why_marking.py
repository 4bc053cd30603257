"""The marking, in a small Sphinx project of its own (myst-nb and coursebook.derivations, a notebook whose glue
outputs are written here with roofline.show.glue): each number `why.*` made becomes its own button, in page order,
from the doctree (a sentence's numbers, a table cell by its row and column); the words around them stay text; a
number in a glued sentence that no `why.*` made is a warning naming it at its line, so the site's build
(warnings as errors) stops. No chapter is run and no site is built."""
from __future__ import annotations

import io
import json

import nbformat
from bs4 import BeautifulSoup

from conftest import LIVE_TOML

SOURCE = """# 표시

N은 {glue:text}`n`이고, {glue:text}`said`. 출처는 {glue:md}`pasted`이다.

```{glue:md} table
:format: myst
```
"""


def notebook(values: dict) -> nbformat.NotebookNode:
    """A notebook whose one code cell has glued `values` (as roofline.show.glue records them) and a Markdown cell."""
    from roofline.show.glue import PREFIX, bundle

    outputs = [nbformat.v4.new_output("display_data", data={PREFIX + m: v for m, v in bundle(value).items()},
                                      metadata={"scrapbook": {"name": name, "mime_prefix": PREFIX}})
               for name, value in values.items()]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("", outputs=outputs),
                                         nbformat.v4.new_markdown_cell(SOURCE)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


def build(tmp_path, monkeypatch, said: str, cell: str = "나", pasted: str = "[안내서](https://example.org)",
          origin: str = "toml:week4.tiles") -> tuple[BeautifulSoup, str, dict]:
    """Build the one-page project with `said` as the glued sentence's tail, `cell` as a table cell's words and `pasted`
    as Markdown pasted in a sentence: (the page, the warnings, its records)."""
    from IPython.display import Markdown
    from sphinx.application import Sphinx

    from roofline.derive import var
    from roofline.show import tables, why

    monkeypatch.setenv("ROOFLINE_COURSE", str(LIVE_TOML))
    src = {"N": "toml:week4.N"}
    n = why.integer(var("N", 4096), src)
    label = why.sentence("T = ", why.label(32, origin))   # a row's label: made, checked, no button
    values = {"n": n, "said": why.sentence("T = ", why.var("T", 32, {"T": "toml:week4.tiles"}), said),
              "table": tables.markdown(["경우", "N"], [[label, n], [n, cell]]), "pasted": Markdown(pasted)}
    root = tmp_path / "src"
    root.mkdir()
    (root / "conf.py").write_text('extensions = ["myst_nb", "coursebook.derivations"]\nnb_execution_mode = "off"\n')
    (root / "index.ipynb").write_text(nbformat.writes(notebook(values)), encoding="utf-8")
    warnings = io.StringIO()
    app = Sphinx(str(root), str(root), str(tmp_path / "html"), str(tmp_path / "doctrees"), "html",
                 status=None, warning=warnings, freshenv=True)
    app.build()
    page = BeautifulSoup((tmp_path / "html" / "index.html").read_text(encoding="utf-8"), "html.parser")
    holder = page.find(attrs={"data-rl-why": True})
    records = json.loads((tmp_path / "html" / holder["data-rl-why"]).read_text(encoding="utf-8")) if holder else {}
    return page, warnings.getvalue(), records


def test_each_number_why_made_is_its_own_button_in_page_order(tmp_path, monkeypatch):
    page, warned, records = build(tmp_path, monkeypatch, "에서 끝난다")
    assert "WARNING" not in warned, warned
    buttons = page.select("button.rl-why")
    assert [(b.get_text(), b["data-why"]) for b in buttons] == [
        ("4,096", "0"), ("32", "1"), ("4,096", "2"), ("4,096", "3")]   # text, sentence, row 0 column 1, row 1 column 0
    assert [g["shown"] for g in records["g"]] == ["4,096", "32", "4,096", "4,096"]
    assert {records["r"][g["of"]]["symbol"] for g in records["g"]} == {"N", "T"}
    sentence = buttons[1].find_parent("span", class_="pasted-text")
    assert sentence.get_text() == "T = 32에서 끝난다" and sentence.find_all("button") == [buttons[1]]
    cells = [[td.find("button") is not None for td in tr.find_all("td")] for tr in page.select("tbody tr")]
    assert cells == [[False, True], [True, False]]
    assert page.select("tbody td")[0].get_text() == "T = 32"   # the label is text


def test_the_tooling_names_the_librarys_entry_fields():
    """derivations.ENTRY (the tooling does not import the library) is roofline.show.why.ENTRY, and so for the mime
    type and the rule of a name's words (the gate checks a `why.name` as the library made it)."""
    from coursebook import derivations
    from roofline.show import why

    assert derivations.ENTRY == why.ENTRY and derivations.WHY_MIME == why.WHY_MIME
    assert derivations._NAME_WORD.pattern == why.NAME_WORD.pattern


def test_a_number_no_why_made_in_a_glued_sentence_stops_the_build(tmp_path, monkeypatch):
    _, warned, _ = build(tmp_path, monkeypatch, "에서 15.5배 빠르다")
    assert "index.ipynb" in warned and "'said'" in warned and "'15.5'" in warned and "유도가 없다" in warned, warned


def test_a_number_no_why_made_in_a_table_cells_words_stops_the_build(tmp_path, monkeypatch):
    _, warned, _ = build(tmp_path, monkeypatch, "에서 끝난다", cell="나 (최대 7.6배)")
    assert "index.ipynb" in warned and "'table'" in warned and "'7.6'" in warned and "만들지 않았다" in warned, warned


def test_a_number_in_pasted_markdown_stops_the_build(tmp_path, monkeypatch):
    _, warned, _ = build(tmp_path, monkeypatch, "에서 끝난다", pasted="[안내서](https://example.org)의 9.0 열")
    assert "index.ipynb" in warned and "'pasted'" in warned and "'9.0'" in warned and "만들지 않았다" in warned, warned


def test_a_labels_origin_that_does_not_resolve_stops_the_build(tmp_path, monkeypatch):
    _, warned, _ = build(tmp_path, monkeypatch, "에서 끝난다", origin="toml:week4.no_such_key")
    assert "'toml:week4.no_such_key'" in warned and "찾을 수 없다" in warned, warned
