"""The built site (_build/html, made by `make book` with warnings as errors) shows the library's values.

`make test` builds the book first; these tests read the HTML it wrote. Expected values are the seed's.
"""
from __future__ import annotations

import html
import os
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
HTML = Path(os.environ.get("ROOFLINE_HTML", ROOT / "_build" / "html"))


def toc_pages() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    pages = [toc["root"]]
    for part in toc.get("parts", []):
        pages += [entry["file"] for entry in part["chapters"]]
    return pages


def text_of(page: str) -> str:
    path = HTML / f"{page}.html"
    if not path.exists():
        pytest.fail(f"{path} does not exist: run `make book` first")
    raw = path.read_text(encoding="utf-8")
    main = re.search(r'<main[^>]*id="main-content".*?</main>', raw, re.S)
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", main.group(0) if main else raw, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))


@pytest.mark.parametrize("page", toc_pages())
def test_no_raw_myst_on_the_page(page):
    text = text_of(page)
    for raw in ("{glue", "{term}", "{ref}", "```", ":::"):
        assert raw not in text, f"{page}: raw {raw!r} on the built page"


def test_guide_states_the_ridge_point_and_shows_the_figure():
    text = text_of("chapters/week4_guide")
    assert re.search(r"\b20 FLOPs/Byte", text)
    raw = (HTML / "chapters/week4_guide.html").read_text(encoding="utf-8")
    assert re.search(r'<img[^>]+src="[^"]+\.png"', raw), "the guide shows no figure"


def test_chapter_one_shows_the_vector_add_and_matmul_intensities():
    text = text_of("chapters/w4_1_intensity")
    assert "1/12" in text
    assert re.search(r"N/\(4N\+2\) ≈ 0\.249969", text)
    assert "682.667" in text


def test_interface_words_are_korean():
    from roofline.korean_ui import WORDS

    english = [word for words in WORDS.values() for word in words] + ["Search this book"]
    for page in toc_pages():
        raw = (HTML / f"{page}.html").read_text(encoding="utf-8")
        left = [word for word in english if re.search(rf'(>|")\s*{re.escape(word)}', raw)]
        assert not left, f"{page}: interface words still in English: {left}"


def test_an_edit_to_the_library_or_its_parameters_changes_the_execution_cache(tmp_path, monkeypatch):
    """jupyter-cache does not see imported modules: the cache folder is keyed on the library's hash."""
    import shutil

    from roofline import sphinx_ext

    lib = tmp_path / "roofline"
    shutil.copytree(sphinx_ext.LIB, lib, ignore=shutil.ignore_patterns("__pycache__"))
    before = sphinx_ext.library_hash(lib)
    assert before == sphinx_ext.library_hash(sphinx_ext.LIB)
    toml = lib / "course.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("N = 4096", "N = 2048"), encoding="utf-8")
    after_toml = sphinx_ext.library_hash(lib)
    (lib / "fmt.py").write_text((lib / "fmt.py").read_text(encoding="utf-8") + "\n# edit\n", encoding="utf-8")
    assert len({before, after_toml, sphinx_ext.library_hash(lib)}) == 3

    class App:
        outdir = str(tmp_path / "_build" / "html")

    class Config:
        nb_execution_mode = "cache"
        nb_execution_cache_path = ""

    monkeypatch.setenv("ROOFLINE_BOOK", "0")   # on_config sets it to "1": restored after the test
    sphinx_ext.on_config(App, Config)
    assert os.environ["ROOFLINE_BOOK"] == "1"
    assert Config.nb_execution_cache_path == str(tmp_path / "_build" / ".jupyter_cache" / before)
