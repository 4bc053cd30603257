"""The built site (_build/html, made by `make book` with warnings as errors) shows the library's values.

`make test` builds the book first; these tests read the HTML it wrote. The site is built from the live parameters,
so every expected value comes from the chapters run with them (`live_glued`) or from the build's own glue records.
"""
from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

from conftest import live_glued
from site_pages import HTML, page_text, toc_pages

ROOT = Path(__file__).resolve().parents[2]
EXECUTED = HTML.parent / "jupyter_execute"


def text_of(page: str) -> str:
    path = HTML / f"{page}.html"
    if not path.exists():
        pytest.fail(f"{path} does not exist: run `make book` first")
    return page_text(path)


@pytest.mark.parametrize("page", toc_pages())
def test_no_raw_myst_on_the_page(page):
    text = text_of(page)
    for raw in ("{glue", "{term}", "{ref}", "```", ":::"):
        assert raw not in text, f"{page}: raw {raw!r} on the built page"


def test_guide_states_the_ridge_point_and_shows_the_figure():
    ridge = live_glued("week4_guide")["ridge"]["text/plain"]
    text = text_of("chapters/week4_guide")
    assert re.search(rf"(?<![\d.]){re.escape(ridge)} FLOPs/Byte", text), ridge
    raw = (HTML / "chapters/week4_guide.html").read_text(encoding="utf-8")
    assert re.search(r'<img[^>]+src="[^"]+\.png"', raw), "the guide shows no figure"


def table_cells(markdown: str) -> list[str]:
    """The body cells of a Markdown table, as the page's text shows them (whitespace collapsed)."""
    rows = [line for line in markdown.splitlines() if line.startswith("|")][2:]
    return [re.sub(r"\s+", " ", cell.strip()) for row in rows for cell in row.strip("|").split("|")]


def test_chapter_one_shows_the_vector_add_and_matmul_intensities():
    glued = live_glued("w4_1_intensity")
    text = text_of("chapters/w4_1_intensity")
    for cell in table_cells(glued["table-four"]["text/markdown"]):
        assert cell in text, cell
    formula, I0 = glued["I0-formula"]["text/plain"], glued["I0"]["text/plain"]
    assert f"{formula} ≈ {I0}" in text
    assert glued["I-ideal"]["text/plain"] in text


def chapters_with_glued_text() -> list[str]:
    return [page for page in toc_pages() if re.search(r"\{glue(?::text)?\}`", (ROOT / f"{page}.md").read_text(encoding="utf-8"))]


@pytest.mark.parametrize("page", chapters_with_glued_text())
def test_glued_text_shows_as_glued(page):
    """myst-nb runs ast.literal_eval on a glued text/plain before showing it: a bare 16,384 would show as
    "(16, 384)" and 0.250 as "0.25". Every value a page pastes as text must be a quoted string in the build's
    records, and the page must show that string."""
    from coursebook import editions

    md = (ROOT / f"{page}.md").read_text(encoding="utf-8")
    keys = {key.split(":")[0].strip() for key in re.findall(r"\{glue(?::text)?\}`([^`]+)`", md)}
    records = editions.site_records(EXECUTED / f"{page}.ipynb")
    assert records, f"{page}: no glue records in the build: run `make book`"
    assert keys <= set(records), sorted(keys - set(records))
    text = text_of(page)
    for key in sorted(keys):
        value = ast.literal_eval(records[key]["text/plain"])
        assert isinstance(value, str), (key, records[key]["text/plain"])
        assert re.sub(r"\s+", " ", value).strip() in text, (key, value)


def test_interface_words_are_korean():
    from coursebook.korean_ui import WORDS

    english = [word for words in WORDS.values() for word in words] + ["Search this book"]
    for page in toc_pages():
        raw = (HTML / f"{page}.html").read_text(encoding="utf-8")
        left = [word for word in english if re.search(rf'(>|")\s*{re.escape(word)}', raw)]
        assert not left, f"{page}: interface words still in English: {left}"


def test_an_edit_to_the_library_or_its_parameters_changes_the_execution_cache(tmp_path, monkeypatch):
    """jupyter-cache does not see imported modules: the cache folder is keyed on the library's hash, of its bytes
    (a page shows the library's own text: an edit of a docstring in gemm.py changes the note's listing of it)."""
    import shutil
    import tomllib

    from course_copies import set_value
    from coursebook import sphinx_ext

    lib = tmp_path / "roofline"
    shutil.copytree(sphinx_ext.LIB, lib, ignore=shutil.ignore_patterns("__pycache__"))
    before = sphinx_ext.library_hash(lib)
    assert before == sphinx_ext.library_hash(sphinx_ext.LIB)
    toml = lib / "course.toml"
    text = toml.read_text(encoding="utf-8")
    N = tomllib.loads(text)["week4"]["N"]
    toml.write_text(set_value(text, "week4", "N", 2 * N), encoding="utf-8")
    after_toml = sphinx_ext.library_hash(lib)
    gemm = lib / "gemm.py"     # the docstring of a function the note shows as code
    shown = gemm.read_text(encoding="utf-8")
    start = shown.index('"""', shown.index("def naive_matmul"))
    gemm.write_text(shown[:start + 3] + "(설명을 다듬었다) " + shown[start + 3:], encoding="utf-8")
    assert len({before, after_toml, sphinx_ext.library_hash(lib)}) == 3

    class App:
        outdir = str(tmp_path / "_build" / "html")

    class Config:
        nb_execution_mode = "cache"
        nb_execution_cache_path = ""
        coursebook_dev = False   # (registered by sphinx_ext.setup: true only in `make serve`'s build)

    environment = dict(os.environ)
    sphinx_ext.on_config(App, Config)
    assert dict(os.environ) == environment      # no mode set through the environment (glue.records_only is a call)
    assert Config.nb_execution_cache_path == str(tmp_path / "_build" / ".jupyter_cache" / before)
