"""Search finds a term typed as the Hangul transliteration of the English word the site writes ("오큐펀시" for
Occupancy), through the glossary: every English word of its names gets a consonant skeleton at build time
(tools/coursebook/search_ko.py, `sound_key`), and the query side gives a Hangul word that finds nothing the
skeleton of its jamo (search_ko.js, `soundKey`)."""
from __future__ import annotations

import json

import pytest

from book.test_search import listed, search_page  # noqa: F401  (the search page, loaded once, and its result list)
from browser_helpers import html_dir, label_page
from coursebook import search_ko

# loanword spellings a student types → the glossary word (test data: how Korean writes these words; the
# site's table is derived from the glossary, not from this list)
SPELLINGS = [("오큐펀시", "occupancy"), ("아리스메틱", "arithmetic"), ("인텐시티", "intensity"),
             ("밴드위스", "bandwidth"), ("스루풋", "throughput"), ("쓰루풋", "throughput"), ("레지던트", "resident"),
             ("스파시티", "sparsity"), ("매트릭스", "matrix"), ("멀티플라이", "multiply"), ("디멘션", "dimension"),
             ("버퍼링", "buffering"), ("소프트맥스", "softmax"), ("파셜", "partial"), ("제너럴", "general")]
# query → the page that teaches it (the glossary entry's reference) among the first three
QUERIES = [("오큐펀시", "ch-tile-size"), ("아리스메틱 인텐시티", "ch-intensity"), ("오큐펀시를", "ch-tile-size")]


def language_data() -> dict:
    text = (html_dir() / "_static" / "language_data.js").read_text(encoding="utf-8")
    start = text.index("var ROOFLINE_SEARCH = ") + len("var ROOFLINE_SEARCH = ")
    return json.JSONDecoder().raw_decode(text[start:])[0]


def test_skeletons_of_english_words():
    assert search_ko.sound_key("occupancy") == "KPNS"
    assert search_ko.sound_key("arithmetic") == "LSMTK"
    assert search_ko.sound_key("intensity") == "NTNST"
    assert search_ko.sound_key("GEMM") == "JM" and search_ko.sound_key("FP32") is None


def test_sounds_come_from_the_glossary_and_name_indexed_words():
    """Every English word of the glossary's names with a skeleton of its own is in the table, and the index
    knows it (so searching for it finds a page)."""
    sounds = language_data()["sounds"]
    text = (html_dir() / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(text[len("Search.setIndex("):-1])
    assert sounds, "no skeletons in language_data.js"
    for key, word in sounds.items():
        assert search_ko.sound_key(word) == key
        assert word in index["terms"] or word in index["titleterms"], f"{word!r} is not indexed"
    assert {"occupancy", "arithmetic", "intensity"} <= set(sounds.values())


def test_hangul_skeleton_is_the_english_words(search_page):
    page, _ = search_page
    sounds = language_data()["sounds"]
    for hangul, english in SPELLINGS:
        key = page.evaluate("(w) => RooflineSearch.soundKey(w)", hangul)
        assert key == search_ko.sound_key(english), (hangul, english, key)
        written = page.evaluate("(w) => w in Search._index.terms || w in Search._index.titleterms", hangul)
        if key in sounds and not written:     # a spelling the site writes itself is searched as written
            assert page.evaluate("(w) => RooflineSearch.sounded(w)", hangul) == english, hangul


@pytest.mark.parametrize("query,label", QUERIES)
def test_transliterated_query_finds_the_page_that_teaches_it(search_page, query, label):
    page, base = search_page
    from urllib.parse import quote

    page.goto(f"{base}search.html?q={quote(query)}", wait_until="load")
    results = listed(page, base)
    assert label_page(label) in results[:3], f"search {query!r}: {results[:6]}"
