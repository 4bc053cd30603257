"""Search as students type: every glossary term is found, with the page that teaches it ranked first, by its
English name, its Korean name (as written and without spaces) and the other ways students write it — the English
in Hangul ("오큐펀시", "어큐펀시"), the Korean spaced or worded otherwise.

The forms the search knows come from the glossary: its names, and the forms an entry lists in its definition
(`{spelled}`…``, read by tools/coursebook/search_ko.py). FORMS below is this test's table of how students write
each term (test data, not the site's); the queries run on the built search page in Chromium, one page open, each
query through the page's own parse, search and scorer (test_search.py's `search_all`)."""
from __future__ import annotations

import pickle
import re

from book.test_search import glossary_source, search_all, search_page  # noqa: F401  (fixtures)
from browser_helpers import ROOT, html_dir, label_page
from coursebook import search_ko

# the entry's first name (as the glossary writes it) → forms students type besides the glossary's names
FORMS = {
    "산술 강도": ["아리스메틱 인텐시티", "연산 강도", "연산강도", "산술강도를"],
    "분기점": ["리지 포인트", "릿지 포인트", "리지포인트"],
    "타일": ["타일을", "tile"],
    "중간 합": ["파셜 섬", "부분합", "부분 합", "어큐뮬레이터"],
    "이중 버퍼링": ["더블 버퍼", "더블버퍼링", "이중버퍼링"],
    "점유율": ["오큐펀시", "어큐펀시", "오큐펀씨", "아큐펀시", "점유률"],
    "메모리 한계": ["메모리바운드", "메모리 병목", "메모리 바운디드"],
    "연산 한계": ["컴퓨트바운드", "컴퓨팅 바운드", "연산 병목"],
    "Roofline": ["루프라인 모델", "루프 라인", "루프라인모델"],
    "최대 연산 성능": ["피크 성능", "최대 성능", "피크 연산 성능"],
    "메모리 대역폭": ["메모리 밴드위스", "메모리 밴드위드스", "밴드위스"],
    "DRAM": ["디램", "D램", "dram"],
    "HBM": ["고대역폭 메모리", "에이치비엠", "hbm"],
    "워프": ["와프", "Warp를", "워프를"],
    "온칩 메모리": ["온 칩 메모리", "칩 내부 메모리", "온칩메모리"],
    "재사용": ["리유즈", "데이터 재사용", "재활용"],
    "고쳐 쓰기": ["덮어쓰기", "덮어 쓰기", "인플레이스 업데이트"],
    "타일링": ["블로킹", "타일 분할", "tiling"],
    "온라인 소프트맥스": ["온라인 소프트 맥스", "온라인소프트맥스", "online softmax", "온라인 softmax", "Online 소프트맥스"],
    "LRU 캐시": ["엘알유 캐시", "LRU캐시", "LRU 캐쉬"],
    "GEMM": ["젬", "겜", "일반 행렬곱"],
    "입력 버퍼": ["인풋 버퍼", "입력버퍼", "인풋버퍼"],
    "상주 블록": ["레지던트 블록", "상주블록", "resident block"],
    "Tensor Core": ["텐서 코아", "텐서코아", "텐서코어"],
    "leading dimension": ["리딩 디멘션", "리딩 디멘전", "선행 차원"],
    "행 우선 / 열 우선": ["로우 메이저", "컬럼 메이저", "행 우선", "열 우선"],
    "캐시 줄": ["캐쉬 라인", "캐시라인", "캐시줄"],
    "구조적 희소": ["구조적 희소성", "스트럭처드 스파시티", "2:4 희소"],
    "GEMV": ["젬브이", "겜브이", "행렬 벡터 곱"],
}

# terms with fewer than three forms, and why no third exists
FEW = {"타일": "Tile은 한글로 타일이라고만 쓴다"}


def spelled_in_source() -> list[list[str]]:
    """The forms each glossary entry lists ({spelled}`a, b`), in the order of glossary_source's entries."""
    text = (ROOT / "chapters" / "glossary.md").read_text(encoding="utf-8")
    body = re.search(r"```\{glossary\}\n(.*?)\n```", text, re.S).group(1)
    return [[f.strip() for role in re.findall(r"\{spelled\}`([^`]*)`", block) for f in role.split(",") if f.strip()]
            for block in re.split(r"\n\s*\n", body.strip())]


def form_queries() -> list[tuple[str, str, str]]:
    """(term, query, label of the page that teaches it): every name of every entry as written and without
    spaces, and the table's forms."""
    queries = []
    for names, labels in glossary_source():
        term = names[0]
        forms = [*names, *(re.sub(r"\s+", "", n) for n in names), *FORMS.get(term, [])]
        for query in dict.fromkeys(forms):
            queries.extend((term, query, label) for label in labels[:1])
    return queries


def test_the_table_names_every_glossary_term():
    terms = [names[0] for names, _ in glossary_source()]
    assert sorted(FORMS) == sorted(terms), (
        f"terms without forms: {sorted(set(terms) - set(FORMS))}; not in the glossary: {sorted(set(FORMS) - set(terms))}")


def test_every_term_has_three_forms_or_more():
    """Three forms or more per term, counted letters only ("산술 강도" and "산술강도" are two forms, "Tile" and
    "tile" one) and without a trailing particle ("타일을" is "타일")."""
    by_term: dict[str, set[str]] = {}
    for term, query, _ in form_queries():
        by_term.setdefault(term, set()).add(search_ko.normal(query))
    counts = {}
    for term, forms in by_term.items():
        counts[term] = {f for f in forms if not any(f[:-len(s)] in forms for s in search_ko.SUFFIXES
                                                    if f.endswith(s) and len(f) > len(s))}
    few = {term: sorted(forms) for term, forms in counts.items() if len(forms) < 3 and term not in FEW}
    assert not few, f"terms with fewer than three forms: {few}"
    print(f"\n{len(counts)} terms, {sum(map(len, counts.values()))} distinct forms")


def test_the_forms_the_glossary_lists_are_in_the_table():
    """What the glossary lists is what this test checks: each listed form is one of the table's for its entry."""
    for (names, _), spelled in zip(glossary_source(), spelled_in_source()):
        missing = [f for f in spelled if f not in FORMS.get(names[0], [])]
        assert not missing, f"{names[0]}: the glossary lists {missing}, the table does not"


def test_the_index_side_reads_the_forms_the_source_lists():
    glossary = label_page("glossary")
    with open(html_dir().parent / ".doctrees" / f"{glossary}.doctree", "rb") as f:
        doctree = pickle.load(f)
    assert [e.forms for e in search_ko.glossary_entries(doctree)] == spelled_in_source()


def test_the_forms_leave_no_text_on_the_glossary_page():
    """The role leaves an empty comment: no form shows on the page, and the role's name is nowhere."""
    markup = (html_dir() / f"{label_page('glossary')}.html").read_text(encoding="utf-8")
    assert "spelled" not in markup
    shown = re.sub(r"<[^>]+>", " ", re.sub(r"<!--.*?-->", " ", markup, flags=re.S))
    for form in {f for spelled in spelled_in_source() for f in spelled}:
        assert (form in shown) == (form in re.sub(r"\{spelled\}`[^`]*`", " ", glossary_text())), form


def glossary_text() -> str:
    return (ROOT / "chapters" / "glossary.md").read_text(encoding="utf-8")


def test_every_form_finds_the_teaching_page_first(search_all):
    queries = form_queries()
    results = search_all([q for _, q, _ in queries])
    found = first = 0
    failures = []
    for (term, query, label), ranked in zip(queries, results):
        expected = label_page(label)
        found += expected in ranked
        first += ranked[:1] == [expected]
        if ranked[:1] != [expected]:
            failures.append(f"{term}: {query!r} ranks {ranked[:4]}, not {expected} first")
    n = len(queries)
    print(f"\n{len(FORMS)} terms, {n} forms: {found} ({100 * found / n:.0f} %) find the teaching page, "
          f"{first} ({100 * first / n:.0f} %) rank it first")
    assert not failures, f"{len(failures)} of {n} forms:\n" + "\n".join(failures)


def test_a_listed_form_is_searched_as_its_entry_s_first_name():
    entries = [search_ko.Entry(["점유율", "Occupancy"], ["ch-tile-size"], ["오큐펀시", "어큐 펀시", "occupancy"]),
               search_ko.Entry(["Tensor Core", "텐서 코어"], ["ch-flash"], ["텐서 코아"])]
    assert search_ko.spelled_from(entries) == {"어큐펀시": ["점유율"], "오큐펀시": ["점유율"],
                                               "텐서코아": ["tensor", "core"]}   # a name is left out
    taught = search_ko.taught_pages(entries, {"ch-tile-size": ("chapters/w4_4_tile_size",),
                                              "ch-flash": ("chapters/flashattention",)})
    assert taught["오큐펀시"] == ["chapters/w4_4_tile_size"] and taught["텐서코아"] == ["chapters/flashattention"]


def test_the_query_side_searches_a_form_as_the_name(search_page):
    """A listed form whose words, as typed, are not all on the teaching page is searched as the entry's first
    name; one whose words are ("어큐펀시" sounds as "occupancy", which that page writes) stays as typed."""
    page, _ = search_page
    assert page.evaluate("(q) => splitQuery(q)", "점유률") == ["점유율"]
    assert page.evaluate("(q) => splitQuery(q)", "어큐펀시") == ["occupancy"]
    assert page.evaluate("(q) => splitQuery(q)", "텐서 코아를") == ["tensor", "core"]    # spaced, with a particle
    assert page.evaluate("(q) => RooflineSearch.spelledAs(q)", "타일") is None          # a name: as written
