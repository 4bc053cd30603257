"""Korean search (tools/coursebook/search_ko.py, the index side, and search_ko.js, the query side): the
splitter in Python, and real queries on the built site's search page in headless Chromium ($ROOFLINE_HTML,
default _build/html). The page is loaded once; each query then runs through the page's own search functions
(Sphinx's parse and search with search_ko.js's hooks, over the loaded index), and a few queries also through the
page a reader opens (search.html?q=…), which must list the same ranking.

Expected pages are named by their labels ((ch-tiling)= …), so a renamed file does not break the test.
"A page among the first three" counts distinct pages in the order the search page lists them (a page
and one of its sections are one page).

The glossary (chapters/glossary.md) is the list of the course's terms: every name of every entry (its
terms and the English name that opens its definition), spaced as written and with no spaces, must find
the page the entry refers to ({ref}`label`) among the first three results.
"""
from __future__ import annotations

import html
import json
import pickle
import re
from urllib.parse import quote, urlparse

import pytest

from browser_helpers import ROOT, html_dir, label_page, local_context, toc_pages
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
INDEX_LOADED = "() => typeof Search !== 'undefined' && Search.hasIndex() && typeof RooflineSearch !== 'undefined'"
# What Search.query(q) does before it shows the results (Sphinx 7.4 searchtools.js): parse the query (search_ko.js's
# splitQuery and Stemmer), search the index (its Scorer.score). The page shows the results from the end of the list.
RANKED = """(queries) => queries.map((query) => {
  const results = Search._performSearch(...Search._parseQuery(query)).reverse();
  const docs = [];
  results.forEach((r) => { if (!docs.includes(r[0])) docs.push(r[0]); });
  return docs;
})"""


# ---- the glossary, read from its source ---------------------------------------------------------------

def glossary_source() -> list[tuple[list[str], list[str]]]:
    """(names, labels) of every entry of chapters/glossary.md, read from the MyST source: the term lines
    of an entry, then the definition's opening English words (up to its first ".", "," or "("), and the
    labels of the {ref}s in the definition."""
    text = (ROOT / "chapters" / "glossary.md").read_text(encoding="utf-8")
    body = re.search(r"```\{glossary\}\n(.*?)\n```", text, re.S).group(1)
    entries = []
    for block in re.split(r"\n\s*\n", body.strip()):
        lines = block.splitlines()
        terms = [line.strip() for line in lines if line.strip() and not line[0].isspace()]
        definition = " ".join(line.strip() for line in lines if line[:1].isspace())
        head = re.split(r"[.,(]", definition, maxsplit=1)[0].strip()
        names = []
        for name in terms + ([head] if re.fullmatch(r"[A-Za-z][\w \-–/]*", head) else []):
            if name.lower() not in [n.lower() for n in names]:
                names.append(name)
        entries.append((names, re.findall(r"\{ref\}`([^`]+)`", definition)))
    return entries


def glossary_queries() -> list[tuple[str, str]]:
    """(query, label of the page that teaches it): every name, as written and without its spaces."""
    queries = []
    for names, labels in glossary_source():
        for name in names:
            for query in dict.fromkeys([name, re.sub(r"\s+", "", name)]):
                queries.extend((query, label) for label in labels)
    return queries


# ---- the splitter, in Python ----------------------------------------------------------------------

def split(text, tables=None):
    lang = search_ko.SearchKorean({})
    if tables is not None:
        lang.tables = tables
    return [w.lower() for w in lang.split(text) if lang.word_filter(w.lower())]


def test_particles_are_stripped_and_the_word_kept():
    words = split("타일을 타일의 타일에서는 점유율이")
    for word in ("타일", "타일을", "타일의", "점유율", "점유율이"):
        assert word in words, word
    assert "을" not in words and "에서는" not in words


def test_suffixes_longest_first_in_a_fixed_order():
    """The list the query side strips particles with: longest first, the same in every build."""
    assert search_ko.SUFFIXES == sorted(set(search_ko.SUFFIXES), key=lambda s: (-len(s), s))


def test_hangul_latin_boundary():
    assert "roofline" in split("Roofline과 FP32는")
    assert "fp32" in split("Roofline과 FP32는")
    assert "과" not in split("Roofline과") and "는" not in split("FP32는")


def test_numbers_and_stopwords_not_indexed():
    assert split("4096 the 그 및") == []


def test_glossary_synonyms_word_by_word():
    table = search_ko.synonyms_from([("점유율", "Occupancy"), ("산술 강도", "Arithmetic intensity"),
                                     ("분기점", "Ridge point"), ("메모리 한계", "Memory-bound")])
    assert table["점유율"] == ["occupancy"] and table["occupancy"] == ["점유율"]
    assert table["강도"] == ["intensity"] and table["arithmetic"] == ["산술"]
    assert table["한계"] == ["bound"]                 # a hyphen separates two words
    assert "분기점" not in table                     # one Korean word, two English words: a phrase


def test_glossary_phrases_when_word_counts_differ():
    table = search_ko.phrases_from([("분기점", "Ridge point"), ("Roofline", "Roofline model"),
                                    ("점유율", "Occupancy")])
    assert table[("분기점",)] == ["point", "ridge"] and table[("ridge", "point")] == ["분기점"]
    assert table[("roofline",)] == ["model"]         # the shared word is not added to itself
    assert ("점유율",) not in table                  # as many words: word by word instead


def test_synonyms_and_phrases_are_indexed():
    tables = search_ko.Tables(synonyms={"softmax": ["소프트맥스"], "소프트맥스": ["softmax"]},
                              phrases={("ridge", "point"): ["분기점"], ("분기점",): ["point", "ridge"]})
    assert "소프트맥스" in split("온라인 softmax로", tables)
    assert "분기점" in split("the ridge point of", tables) and "분기점" not in split("ridge and point", tables)
    assert {"ridge", "point"} <= set(split("분기점에서", tables))      # the phrase's word with a particle


def test_words_written_apart_are_indexed_joined_when_the_site_writes_them_together():
    tables = search_ko.Tables(compounds=frozenset({"실행시간"}))
    assert "실행시간" in split("실행 시간을 잰다", tables)
    assert "실행시간" not in split("실행, 시간", tables)           # not two words in a row
    assert "연산시간" not in split("연산 시간", tables)             # the site never writes it so


def test_glossary_entries_as_the_index_reads_them():
    """The index side reads the same names and references from the built glossary as its source has."""
    glossary = label_page("glossary")
    with open(html_dir().parent / ".doctrees" / f"{glossary}.doctree", "rb") as f:
        doctree = pickle.load(f)
    read = [(e.names, e.labels) for e in search_ko.glossary_entries(doctree)]
    assert read == glossary_source()


# ---- the built index ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def index():
    text = (html_dir() / "searchindex.js").read_text(encoding="utf-8")
    assert text.startswith("Search.setIndex(") and text.endswith(")")
    return json.loads(text[len("Search.setIndex("):-1])


def pages(index, word):
    found = index["terms"].get(word, []), index["titleterms"].get(word, [])
    return {index["docnames"][i] for f in found for i in (f if isinstance(f, list) else [f])}


def test_index_built_with_korean_splitter(index):
    language_data = (html_dir() / "_static" / "language_data.js").read_text(encoding="utf-8")
    assert search_ko.QUERY_JS.read_text(encoding="utf-8") in language_data, "language_data.js lacks search_ko.js"
    assert "var ROOFLINE_SEARCH = {" in language_data
    # the page writes "타일을", "타일의", "타일로" …: the bare word is indexed (Sphinx's English splitter would not)
    assert label_page("ch-tiling") in pages(index, "타일"), "'타일' not indexed"
    assert "을" not in index["terms"] and "타일을" in index["terms"]


# ---- queries in the browser -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def search_page(site_url, browser):
    """search.html of the built site, offline, loaded once with its index (the session's server and Chromium)."""
    blocked: list[str] = []
    context = local_context(browser, site_url, blocked)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{site_url}search.html", wait_until="load")
    page.wait_for_function(INDEX_LOADED, timeout=30000)
    yield page, site_url
    context.close()
    assert blocked == [], f"the search page reached outside the site: {blocked}"


def listed(page, base) -> list[str]:
    """Docnames of the search page's result list, in order, distinct (after the search has finished)."""
    page.wait_for_function(WAIT_DONE, timeout=30000)
    docs = []
    for href in page.evaluate(RESULTS):
        doc = urlparse(href).path[len(urlparse(base).path):].removesuffix(".html")
        if doc not in docs:
            docs.append(doc)
    assert page.errors == [], f"JavaScript errors on the search page: {page.errors}"
    return docs


@pytest.fixture(scope="module")
def search_all(search_page):
    """search_all([query, …]) → for each query the docnames Sphinx's search ranks, in the order the page lists
    them, distinct: the page's own parse and search (with search_ko.js's splitter, stemmer and scorer) over the
    loaded index, without a page load per query."""
    page, _ = search_page

    def run(queries: list[str]) -> list[list[str]]:
        found = page.evaluate(RANKED, list(queries))
        assert page.errors == [], f"JavaScript errors on the search page: {page.errors}"
        return found

    return run


@pytest.fixture(scope="module")
def search(search_all):
    """search(query) → docnames of the results, in the order the search page lists them, distinct."""
    return lambda query: search_all([query])[0]


def test_the_search_page_lists_what_the_search_ranks(search_page, search):
    """The page a reader opens (search.html?q=…) lists exactly the ranking the tests below read through the page's
    own functions: the same index, the same hooks, the same order."""
    page, base = search_page
    tab = page.context.new_page()
    tab.errors = []
    tab.on("pageerror", lambda e: tab.errors.append(str(e)))
    try:
        for query in ("타일을", "산술강도", "Occupancy"):
            tab.goto(f"{base}search.html?q={quote(query)}", wait_until="load")
            shown = listed(tab, base)
            assert shown, f"search {query!r}: the page lists nothing"
            assert shown == search(query), f"search {query!r}: the page lists {shown[:5]}, the search ranks {search(query)[:5]}"
    finally:
        tab.close()


def test_js_splitter_matches_python(search_page):
    """The query splitter in language_data.js splits like the Python indexer (words it need not join
    or cut)."""
    page, _ = search_page
    for text in ("Roofline과 타일을", "FP32는 HBM에서", "온라인 softmax", "T_M×T_N 타일"):
        assert page.evaluate("(t) => splitQuery(t)", text) == search_ko.tokens(text), text
    # the stemmer strips a particle only to reach a word the index knows
    assert page.evaluate("() => new Stemmer().stemWord('타일을')") == "타일"
    assert page.evaluate("() => new Stemmer().stemWord('없는단어를')") == "없는단어를"


def test_js_cuts_a_word_that_finds_nothing(search_page, index):
    """"산술강도" is nowhere in the site: the query side cuts it into the two words the site writes."""
    page, _ = search_page
    assert "산술강도" not in index["terms"] and pages(index, "산술") and pages(index, "강도")
    assert page.evaluate("(t) => splitQuery(t)", "산술강도") == ["산술", "강도"]
    assert page.evaluate("(t) => splitQuery(t)", "산술강도를") == ["산술", "강도를"]
    assert page.evaluate("(t) => splitQuery(t)", "타일링") == ["타일링"]       # a word the index knows


def page_text(page: str) -> str:
    """The words a reader sees in a built page's article (what the index is built from)."""
    markup = (html_dir() / f"{page}.html").read_text(encoding="utf-8")
    article = re.search(r"<article.*?</article>", markup, re.S)
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", article.group(0) if article else markup, flags=re.S)
    text = re.sub(r"</?(span|a|em|strong|code|b|i|sub|sup|abbr)\b[^>]*>", "", text)   # inside a line
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


def written_both_ways() -> dict[str, tuple[str, set[str], set[str]]]:
    """Compounds the pages write both apart and together: joined → (as written apart, pages writing it
    apart, pages writing it together), read from the built pages. "Together": at the start of a run of Hangul;
    "apart": a whole run, one space, then the start of the next run."""
    hangul = search_ko.HANGUL
    texts = {page: page_text(page) for page in toc_pages()}
    pairs, apart_in, together_in = set(), {}, {}
    for page, text in texts.items():
        pairs.update(re.findall(rf"(?<![{hangul}])([{hangul}]{{2,}}) ([{hangul}]{{2,}})", text))
        runs = list(re.finditer(rf"[{hangul}]+", text))
        for run in runs:
            for end in range(1, len(run[0]) + 1):
                together_in.setdefault(run[0][:end], set()).add(page)
        for first, second in zip(runs, runs[1:]):
            if second.start() == first.end() + 1 and text[first.end()] == " ":
                for end in range(1, len(second[0]) + 1):
                    apart_in.setdefault((first[0], second[0][:end]), set()).add(page)
    found = {}
    for a, b in sorted(pairs):
        for end in range(2, len(b) + 1):          # "실행 시간을" → "실행 시간": the second word without a particle
            words, joined = f"{a} {b[:end]}", a + b[:end]
            apart, together = apart_in.get((a, b[:end]), set()), together_in.get(joined, set())
            if apart and together and joined not in found:
                found[joined] = (words, apart, together)
    return found


def test_compound_found_however_spaced(search_all):
    """Every compound the site writes both ways ("실행 시간", "실행시간"): each spelling finds every page that
    writes either."""
    both = written_both_ways()
    assert both, "the pages write no compound both apart and together: nothing to check here"
    queries = [(query, words, joined, apart | together) for joined, (words, apart, together) in both.items()
               for query in (joined, words)]
    failures = [f"search {query!r}: pages writing {words!r} or {joined!r} not found: {sorted(pages - set(found))}"
                for (query, words, joined, pages), found in zip(queries, search_all([q[0] for q in queries]))
                if pages - set(found)]
    assert not failures, f"{len(failures)} of {len(queries)} spellings fail:\n" + "\n".join(failures)


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


def test_every_glossary_name_finds_the_page_that_teaches_it(search_all):
    """Each name of each glossary entry — Korean and English, spaced as the glossary writes it and
    with no spaces ("산술강도", "텐서코어", "Tensorcore") — finds the page its entry refers to among the
    first three results."""
    queries = glossary_queries()
    assert len(queries) >= 2 * len(glossary_source())
    failures, first = [], 0
    for (query, label), results in zip(queries, search_all([q for q, _ in queries])):
        expected = label_page(label)
        first += results[:1] == [expected]
        if expected not in results[:3]:
            failures.append(f"{query!r}: {expected} not among the first three: {results[:5]}")
    print(f"\n{len(queries)} glossary queries: {len(queries) - len(failures)} find the teaching page "
          f"among the first three, {first} first")
    assert not failures, f"{len(failures)} of {len(queries)} glossary queries fail:\n" + "\n".join(failures)
