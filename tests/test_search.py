"""Korean search (tools/coursebook/search_ko.py): the splitter in Python, and real queries typed into the
built site's search page in headless Chromium ($ROOFLINE_HTML, default _build/html).

Expected pages are named by their labels ((ch-tiling)= …), so a renamed file does not break the test.
"A page among the first three" counts distinct pages in the order the search page lists them (a page
and one of its sections are one page).
"""
from __future__ import annotations

import json
from urllib.parse import quote, urlparse

import pytest

from browser_helpers import chromium, html_dir, label_page, offline, serve
from coursebook import search_ko

# query → labels of the pages that must be among the first three results
QUERIES = [  # (query, labels, test id)
    ("타일", ["ch-tiling", "ch-tile-size"], "tile"),
    ("산술 강도", ["ch-intensity"], "arithmetic-intensity"),
    ("점유율", ["ch-tile-size"], "occupancy-ko"),
    ("Occupancy", ["ch-tile-size"], "occupancy-en"),
    ("온라인 소프트맥스", ["ch-flash"], "online-softmax"),
    ("Roofline", ["ch-roofline"], "roofline"),
]

WAIT_DONE = """() => {
  const summary = document.querySelector("#search-results .search-summary");
  return summary !== null && summary.innerText.trim().length > 0;
}"""
RESULTS = """() => [...document.querySelectorAll("#search-results ul.search > li")]
  .map((li) => (li.querySelector("a") || {}).href).filter((h) => h)"""


# ---- the splitter, in Python ----------------------------------------------------------------------

def split(text):
    lang = search_ko.SearchKorean({})
    return [w.lower() for w in lang.split(text) if lang.word_filter(w.lower())]


def test_particles_are_stripped_and_the_word_kept():
    words = split("타일을 타일의 타일에서는 점유율이")
    for word in ("타일", "타일을", "타일의", "점유율", "점유율이"):
        assert word in words, word
    assert "을" not in words and "에서는" not in words


def test_hangul_latin_boundary():
    assert "roofline" in split("Roofline과 FP32는")
    assert "fp32" in split("Roofline과 FP32는")
    assert "과" not in split("Roofline과") and "는" not in split("FP32는")


def test_numbers_and_stopwords_not_indexed():
    assert split("4096 the 그 및") == []


def test_glossary_synonyms_word_by_word():
    table = search_ko.synonyms_from([("점유율", "Occupancy"), ("산술 강도", "Arithmetic intensity"),
                                     ("분기점", "Ridge point")])
    assert table["점유율"] == ["occupancy"] and table["occupancy"] == ["점유율"]
    assert table["강도"] == ["intensity"] and table["arithmetic"] == ["산술"]
    assert "분기점" not in table                     # one Korean word, two English words: no pairing


def test_synonyms_are_indexed(monkeypatch):
    monkeypatch.setattr(search_ko.SearchKorean, "synonyms", {"softmax": ["소프트맥스"], "소프트맥스": ["softmax"]})
    assert "소프트맥스" in split("온라인 softmax로")


# ---- the built index ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def index():
    text = (html_dir() / "searchindex.js").read_text(encoding="utf-8")
    assert text.startswith("Search.setIndex(") and text.endswith(")")
    return json.loads(text[len("Search.setIndex("):-1])


def test_index_built_with_korean_splitter(index):
    language_data = (html_dir() / "_static" / "language_data.js").read_text(encoding="utf-8")
    assert "tools/coursebook/search_ko.py" in language_data, "language_data.js lacks the Korean splitter"
    tiling = index["docnames"].index(label_page("ch-tiling"))

    def pages(mapping, word):
        found = mapping.get(word, [])
        return found if isinstance(found, list) else [found]

    # the page writes "타일을", "타일의", "타일로" …: the bare word is indexed (Sphinx's English splitter would not)
    assert tiling in pages(index["terms"], "타일") + pages(index["titleterms"], "타일"), "'타일' not indexed"
    assert "을" not in index["terms"] and "타일을" in index["terms"]


# ---- queries in the browser -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def search_page():
    """The built site's search.html in Chromium, offline; yields (page, base URL)."""
    root = html_dir()
    with serve(root) as base, chromium() as browser:
        blocked: list[str] = []
        context = browser.new_context()
        offline(context, base, blocked)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        yield page, base
        assert blocked == [], f"the search page reached outside the site: {blocked}"


@pytest.fixture(scope="module")
def search(search_page):
    """search(query) → docnames of the result list, in order, distinct."""
    page, base = search_page

    def run(query: str) -> list[str]:
        page.goto(f"{base}search.html?q={quote(query)}", wait_until="load")
        page.wait_for_function(WAIT_DONE, timeout=15000)
        docs = []
        for href in page.evaluate(RESULTS):
            doc = urlparse(href).path[len(urlparse(base).path):].removesuffix(".html")
            if doc not in docs:
                docs.append(doc)
        assert page.errors == [], f"JavaScript errors on the search page: {page.errors}"
        return docs

    return run


def test_js_splitter_matches_python(search, search_page):
    """The query splitter in language_data.js splits like the Python indexer."""
    search("타일")                                     # loads search.html with the index
    page, _ = search_page
    for text in ("Roofline과 타일을", "FP32는 HBM에서", "온라인 softmax", "T_M×T_N 타일"):
        assert page.evaluate("(t) => splitQuery(t)", text) == search_ko.tokens(text), text
    # the stemmer strips a particle only to reach a word the index knows
    assert page.evaluate("() => new Stemmer().stemWord('타일을')") == "타일"
    assert page.evaluate("() => new Stemmer().stemWord('없는단어를')") == "없는단어를"


def test_particle_in_query(search):
    """A reader who types the particle too ("타일을") finds the same pages as "타일"."""
    assert search("타일을")[:3] == search("타일")[:3]


@pytest.mark.parametrize("query,labels", [q[:2] for q in QUERIES], ids=[q[2] for q in QUERIES])
def test_query_finds_page_in_top_three(search, query, labels):
    results = search(query)
    expected = [label_page(label) for label in labels]
    top = results[:3]
    missing = [doc for doc in expected if doc not in top]
    assert not missing, f"search {query!r}: {missing} not among the first three; results: {results[:6]}"
