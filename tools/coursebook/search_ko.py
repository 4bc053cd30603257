"""Korean full-text search for the site (Sphinx has no Korean search language).

Registered from `coursebook.sphinx_ext` with `app.add_search_language(SearchKorean)`; Sphinx picks it
because `language: ko` (html_search_language defaults to the language). The query side is JavaScript,
`search_ko.js` beside this file; Sphinx puts it, after this build's data, into language_data.js.

Index side (Python, `SearchKorean.split`): a word like "타일을" or "Roofline과" is split at script
boundaries ("Roofline", "과") and every Hangul word is indexed both as written and with a trailing
particle or ending removed ("타일을" → "타일을", "타일"). Bare particles and stop words are not indexed.

Query side (`search_ko.js`): the same script-boundary splitter; the "stemmer" strips a trailing particle
when at least two syllables remain and the index knows the rest ("타일을" → "타일", but "강도" stays
"강도"). Several words are ANDed, as in every Sphinx search ("산술 강도" needs both words).

Spacing: Korean readers space compounds freely ("산술강도", "산술 강도"; the site writes both "실행 시간"
and "실행시간").
- A query word the index does not know and no indexed word contains is cut into indexed words, fewest
  pieces first ("산술강도" → "산술" + "강도", "텐서코어" → "텐서" + "코어").
- Query words written apart whose joined form the index knows are searched joined ("실행 시간" →
  "실행시간"); and the index files two Hangul words written apart under their joined form too when the
  site writes that form somewhere (`Tables.compounds`): "실행 시간" finds the pages that write it apart.

Spellings, from the glossary (`glossary_entries`): the names of one 용어집 entry — its terms and the
English name that opens its definition — are indexed wherever another of them is written: word by word
when they have as many words ("점유율" ↔ "Occupancy", "텐서 코어" ↔ "Tensor Core", "온라인 소프트맥스" ↔
"Online softmax"), else as phrases ("분기점" ↔ "Ridge point", "GEMM" ↔ "General matrix multiply",
"Roofline" ↔ "Roofline model"). So "점유율" finds the page that writes "Occupancy", "텐서 코어" the page
that writes "Tensor Core", "Ridge point" the page that writes "분기점".

Transliterations, from the glossary (`sounds_from`): a student may type the English word the site writes in
Hangul ("오큐펀시" for Occupancy, "아리스메틱 인텐시티" for arithmetic intensity). Every English word of the
glossary's names gets a consonant skeleton (`sound_key`: "occupancy" → "KPNS", the classes the Korean
loanword spelling keeps, vowels and silent letters left out); the query side gives a Hangul word that finds
nothing the skeleton of its jamo ("오큐펀시" → ㅋ ㅍ ㄴ ㅅ → "KPNS") and searches for the English word with that
skeleton, when exactly one has it.

Forms students type, from the glossary (`spelled` role): an entry may list, in its definition, the other ways
students write the term (`{spelled}`오큐펀시, 어큐펀시``: Hangul spellings of the English, the Korean name written
otherwise). The role leaves no text on the page (an empty comment node carrying the forms) and is not indexed as
the page's words. A query that is one of them (however spaced, a trailing particle allowed) ranks the page the
entry refers to first, as its names do; when that page does not hold every word of the query as typed
("부분합", "와프"), the query side searches the entry's first name instead ("중간 합", "워프").

Ranking: Sphinx scores a page 15 when a word is in one of its headings and 5 when it is only in the
text, so many pages tie, and a glossary entry scores 100. `Scorer.score` (search_ko.js) takes
min(Sphinx's score, 15), adds a BM25-style boost from the words' counts on the page (k1 = 3, b = 0.75;
counts computed at build time from all doctrees and embedded in language_data.js) and 10 when every word
is in the page's own title, and halves the score of the reference pages (landing page, glossary,
bibliography): the chapter that teaches a term comes first, the glossary entry right after it.

Incremental builds: what one page's index entries depend on beyond the page (the glossary's names, the
compounds the site writes) is kept as a digest in the environment; when it changes, every page is
written (and indexed) again, so a rebuild gives the index a clean build gives.
"""
from __future__ import annotations

import functools
import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from docutils import nodes
from sphinx.search import SearchLanguage
from sphinx.util import logging

logger = logging.getLogger(__name__)

HANGUL = "\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f"
_TOKEN = re.compile(rf"[{HANGUL}]+|[^\W{HANGUL}]+")
_HANGUL_RE = re.compile(rf"[{HANGUL}]")
# two Hangul words with only white space between them, also a line break of the source (overlapping:
# "최대 연산 성능" gives two pairs)
_APART = re.compile(rf"(?<![{HANGUL}])(?=([{HANGUL}]+)\s+([{HANGUL}]+))")
# the English name that opens a glossary definition: up to the first ".", "," or "("
_ENGLISH = re.compile(r"\s*([A-Za-z][A-Za-z \-–/]*?)\s*[.,(]")

QUERY_JS = Path(__file__).with_name("search_ko.js")

# Trailing particles (조사) and common endings, longest first. A Hangul word ending in one of them is
# also indexed without it. Over-stripping ("강도" → "강") only adds an extra index entry: the full word
# is always indexed too, so nothing is lost.
SUFFIXES = sorted(
    {
        # particles
        "은", "는", "이", "가", "을", "를", "의", "에", "로", "으로", "와", "과", "도", "만", "나", "이나",
        "에서", "에게", "까지", "부터", "처럼", "보다", "마다", "만큼", "에는", "에도", "에서는", "에서도",
        "으로는", "으로도", "로는", "로도", "와는", "과는", "이라는", "라는", "이라고", "라고", "이란", "란",
        "이며", "이고", "이다", "이면", "이지만", "인", "께",
        # verb endings of nouns + 하다/되다
        "한다", "하는", "하고", "하면", "해서", "했다", "하여", "하기", "할", "한", "해", "된다", "되는",
        "되고", "되면", "돼", "된", "될", "시킨다", "적", "적인", "적으로",
    },
    key=lambda suffix: (-len(suffix), suffix),   # a list, not a set's order: the same every build
)

_SUFFIX_SET = set(SUFFIXES)

# standalone particles / function words: never indexed and ignored in queries
PARTICLES = {"은", "는", "이", "가", "을", "를", "의", "에", "로", "으로", "와", "과", "도", "만", "에서", "이다",
             "및", "또는", "그", "이", "저", "것", "수", "등", "때", "더", "한", "할", "된", "될"}
ENGLISH_STOPWORDS = {"a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is",
                     "it", "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there",
                     "these", "they", "this", "to", "was", "will", "with"}


def is_hangul(word: str) -> bool:
    return bool(_HANGUL_RE.search(word))


def stems(word: str) -> list[str]:
    """A Hangul word without each trailing particle/ending it carries ("타일에서는" → "타일", "타일에서")."""
    out = []
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) > len(suffix):
            stem = word[: -len(suffix)]
            if stem not in out:
                out.append(stem)
    return out


@functools.lru_cache(maxsize=65536)
def forms(word: str) -> tuple[str, ...]:
    """The word and, for a Hangul word, its stems (remembered: a build asks for the same words many times)."""
    return (word, *stems(word)) if is_hangul(word) else (word,)


def tokens(text: str) -> list[str]:
    """Words split at spaces, punctuation and Hangul/Latin boundaries ("Roofline과" → "Roofline", "과")."""
    return _TOKEN.findall(text)


def apart(text: str) -> list[tuple[str, str]]:
    """Every two Hangul words written one after the other with spaces between ("실행 시간을" →
    [("실행", "시간을")])."""
    return [(m.group(1), m.group(2)) for m in _APART.finditer(text)]


def keep(word: str) -> bool:
    """True if the (lower-cased) word belongs in the index."""
    if not word or word.isdigit():
        return False
    if is_hangul(word):
        return word not in PARTICLES and word not in _SUFFIX_SET
    return len(word) >= 2 and word not in ENGLISH_STOPWORDS


# ---- the glossary's names --------------------------------------------------------------------------

@dataclass
class Entry:
    """One 용어집 entry: its names (terms, then the English name that opens its definition) and the
    labels its definition refers to ({ref}`ch-tiling`): the pages that teach it."""

    names: list[str]
    labels: list[str]
    forms: list[str] = field(default_factory=list)


def glossary_entries(doctree: nodes.Node) -> list[Entry]:
    """Every glossary entry of a page ("점유율" + "Occupancy. SM이 … {ref}`ch-tile-size`" →
    Entry(["점유율", "Occupancy"], ["ch-tile-size"])); each name once, ignoring case."""
    from sphinx import addnodes

    entries = []
    for glossary in doctree.findall(addnodes.glossary):
        for item in glossary.findall(nodes.definition_list_item):
            names = [t.astext().strip() for t in item.findall(nodes.term)]
            definition = next(iter(item.findall(nodes.definition)), None)
            english = _ENGLISH.match(definition.astext()) if definition is not None else None
            if english:
                names.append(english.group(1))
            unique: list[str] = []
            for name in names:
                if name and name.lower() not in (u.lower() for u in unique):
                    unique.append(name)
            labels = [] if definition is None else [
                x["reftarget"] for x in definition.findall(addnodes.pending_xref) if x.get("reftype") == "ref"]
            spelled = [] if definition is None else [
                form for c in definition.findall(nodes.comment) for form in c.get("spelled", ())]
            entries.append(Entry(unique, labels, spelled))
    return entries


def glossary_pairs(entries: list[Entry]) -> list[tuple[str, str]]:
    """Every two names of one entry: ("점유율", "Occupancy"), ("Roofline", "루프라인"), …"""
    return [(a, b) for e in entries for i, a in enumerate(e.names) for b in e.names[i + 1:]]


def normal(name: str) -> str:
    """A name as the query side compares it with a whole query: lower case, letters and digits only
    ("Memory-bound" → "memorybound", "산술 강도" → "산술강도")."""
    return re.sub(r"[\W_]+", "", name.lower())


def _words(name: str) -> list[str]:
    return [w.lower() for w in tokens(name)]


def synonyms_from(pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
    """Word-for-word synonyms of names with as many words ("산술 강도" ↔ "Arithmetic intensity":
    산술 ↔ arithmetic, 강도 ↔ intensity; "Memory-bound" is two words), both directions."""
    table: dict[str, set[str]] = {}
    for one, other in pairs:
        a_words, b_words = _words(one), _words(other)
        if len(a_words) != len(b_words):
            continue
        for a, b in zip(a_words, b_words):
            if a != b and keep(a) and keep(b):
                table.setdefault(a, set()).add(b)
                table.setdefault(b, set()).add(a)
    return {word: sorted(others) for word, others in sorted(table.items())}


def phrases_from(pairs: list[tuple[str, str]]) -> dict[tuple[str, ...], list[str]]:
    """Names with different numbers of words, as phrases: where one is written, the other's words are
    indexed ("분기점" → ridge, point; "ridge point" → 분기점; "roofline" → model), both directions."""
    table: dict[tuple[str, ...], set[str]] = {}
    for one, other in pairs:
        a_words, b_words = _words(one), _words(other)
        if len(a_words) == len(b_words) or not a_words or not b_words:
            continue
        for phrase, words in ((a_words, b_words), (b_words, a_words)):
            extra = {w for w in words if keep(w) and w not in phrase}
            if extra:
                table.setdefault(tuple(phrase), set()).update(extra)
    return {phrase: sorted(words) for phrase, words in sorted(table.items())}


VOWELS = "aeiouy"


def sound_key(word: str) -> str | None:
    """The consonant skeleton of an English word as Korean loanword spelling writes it (search_ko.js's
    `soundKey` gives the same skeleton of a Hangul spelling): K (k, hard c/g, q, x), P (p, b, f, v, ph),
    T (t, d), S (s, soft c, th, sh, ti/si before a vowel), J (j, soft g, dg, z, s between vowels, ch),
    L (l, r before a vowel; r elsewhere is silent), M, N, G (ng); h and w are silent, vowels only separate
    ("occupancy" → "KPNS", "arithmetic" → "LSMTK", "intensity" → "NTNST"). None for a word that is not plain
    ASCII letters."""
    w = word.lower()
    if not (w.isascii() and w.isalpha()):
        return None
    out: list[str] = []
    i = 0
    while i < len(w):
        c, nxt = w[i], w[i + 1: i + 2]
        after = w[i + 2: i + 3]
        prev = w[i - 1] if i else ""
        two = w[i: i + 2]
        step, sound = 1, ""
        if c in VOWELS:
            sound = "a"
        elif two in ("ph",):
            step, sound = 2, "P"
        elif two in ("th", "sh"):
            step, sound = 2, "S"
        elif two == "ch":
            step, sound = 2, "S" if w[i:] == "che" else "J"
        elif two == "ck":
            step, sound = 2, "K"
        elif two == "gh":
            step, sound = 2, ""
        elif two == "dg":
            step, sound = 2, "J"
        elif two == "ng" and after not in tuple(VOWELS):
            step, sound = 2, "G"
        elif c in "ts" and nxt == "i" and after and after in VOWELS:
            sound = "S"
        elif c == "x":
            sound = "KS"
        elif c == "c":
            sound = "S" if nxt and nxt in "eiy" else "K"
        elif c == "g":
            sound = "J" if nxt and nxt in "eiy" else "K"
        elif c == "s":
            sound = "J" if prev and prev in VOWELS and nxt and nxt in VOWELS else "S"
        elif c in "zj":
            sound = "J"
        elif c in "bpfv":
            sound = "P"
        elif c in "dt":
            sound = "" if w[i + 1: i + 3] == "th" else "T"   # "bandwidth" → 밴드위스
        elif c in "kq":
            sound = "K"
        elif c == "l":
            sound = "L"
        elif c == "m":
            sound = "M"
        elif c == "n":
            sound = "" if prev == "m" and not nxt else "N"
        elif c == "r":
            sound = "L" if nxt and nxt in VOWELS else ""
        out.append(sound)
        i += step
    letters = "".join(out)
    collapsed = "".join(ch for k, ch in enumerate(letters) if k == 0 or ch != letters[k - 1])
    return collapsed.replace("a", "")


def sounds_from(entries: list[Entry]) -> dict[str, str]:
    """skeleton → the one English word of the glossary's names that has it (words of three letters or more;
    a skeleton of two words or of fewer than two consonants is left out: it would guess)."""
    words = sorted({w.lower() for e in entries for name in e.names for w in tokens(name)
                    if w.isascii() and w.isalpha() and len(w) >= 3})
    found: dict[str, set[str]] = {}
    for word in words:
        key = sound_key(word)
        if key and len(key) >= 2:
            found.setdefault(key, set()).add(word)
    return {key: next(iter(ws)) for key, ws in sorted(found.items()) if len(ws) == 1}


# ---- the tables one build's index uses -------------------------------------------------------------

@dataclass
class Tables:
    """What the index of one page depends on beyond the page: synonyms and phrases from the glossary,
    and `compounds`, the joined forms of Hangul words written apart somewhere that the site also writes
    together somewhere ("실행시간"), each a stem as the index files it."""

    synonyms: dict[str, list[str]] = field(default_factory=dict)
    phrases: dict[tuple[str, ...], list[str]] = field(default_factory=dict)
    compounds: frozenset[str] = frozenset()

    @functools.cached_property
    def phrases_by_first_word(self) -> dict[str, list[tuple[int, tuple[str, ...], list[str]]]]:
        """first word → (its place in `phrases`, phrase, extra words), to look up only the phrases a word can start."""
        found: dict[str, list] = {}
        for number, (phrase, extra) in enumerate(self.phrases.items()):
            found.setdefault(phrase[0], []).append((number, phrase, extra))
        return found

    def digest(self) -> str:
        data = [self.synonyms, sorted(map(list, self.phrases.items())), sorted(self.compounds)]
        return hashlib.sha256(json.dumps(data, ensure_ascii=False).encode()).hexdigest()[:16]


def text_nodes(doctree: nodes.Node):
    """The text Sphinx indexes: every Text node outside comments and raw output."""
    def visit(node):
        if isinstance(node, (nodes.comment, nodes.raw)):
            return
        if isinstance(node, nodes.Text):
            yield node.astext()
            return
        for child in node.children:
            yield from visit(child)

    yield from visit(doctree)


def taught_pages(entries: list[Entry], labels: dict[str, tuple]) -> dict[str, list[str]]:
    """Every name and listed form of every glossary entry, as `normal` writes it → the pages its definition refers to
    (`labels`: Sphinx's label → (docname, …)). The query side ranks those pages first for that name."""
    table: dict[str, set[str]] = {}
    for entry in entries:
        pages = {labels[label][0] for label in entry.labels if label in labels}
        for name in [*entry.names, *entry.forms]:
            if pages and normal(name):
                table.setdefault(normal(name), set()).update(pages)
    return {name: sorted(pages) for name, pages in sorted(table.items())}


def spelled_from(entries: list[Entry]) -> dict[str, list[str]]:
    """Every form a glossary entry lists (`spelled`), as `normal` writes it → the words of the entry's first
    name, which the query side searches instead ("오큐펀시" → ["점유율"], "텐서코아" → ["tensor", "core"]);
    a form that is a name of an entry is left out (the name is searched as written)."""
    names = {normal(n) for e in entries for n in e.names}
    table: dict[str, list[str]] = {}
    for entry in entries:
        words = [w for w in _words(entry.names[0]) if keep(w)] if entry.names else []
        for form in entry.forms:
            if words and normal(form) and normal(form) not in names:
                table.setdefault(normal(form), words)
    return dict(sorted(table.items()))


def spelled_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """{spelled}`오큐펀시, 어큐펀시` in a glossary definition: the forms students type for the entry's term,
    kept on an empty comment node (nothing shows on the page, nothing is indexed as its text)."""
    forms = [form.strip() for form in text.split(",") if form.strip()]
    if not forms:
        message = inliner.reporter.error(f"spelled: 표기가 하나도 없다 ({rawtext}). 쉼표로 나눠 적는다.", line=lineno)
        return [inliner.problematic(rawtext, rawtext, message)], [message]
    return [nodes.comment("", "", spelled=forms)], []


def tables_from(pages: dict[str, Page]) -> Tables:
    pairs = glossary_pairs([e for page in pages.values() for e in page.entries])
    written: set[str] = set()        # every Hangul word of the site, as written and as its stems
    joined: set[str] = set()         # every two Hangul words written apart, joined
    for page in pages.values():
        for text in page.texts:
            for word in tokens(text):
                if is_hangul(word):
                    written.update(w.lower() for w in forms(word))
            for a, b in apart(text):
                joined.add((a + b).lower())
    compounds = frozenset(w for w in joined if any(f in written for f in forms(w)))
    return Tables(synonyms_from(pairs), phrases_from(pairs), compounds)


class SearchKorean(SearchLanguage):
    lang = "ko"
    language_name = "Korean"
    stopwords = PARTICLES | ENGLISH_STOPWORDS
    # set by `prepare` (env-updated) before pages are indexed and language_data.js is written
    tables: Tables = Tables()
    word_counts: dict[str, dict[str, int]] = {}
    page_lengths: dict[str, int] = {}
    hubs: list[str] = []
    taught: dict[str, list[str]] = {}
    sounds: dict[str, str] = {}
    spelled: dict[str, list[str]] = {}

    def split(self, input: str) -> list[str]:
        tables = self.tables
        out: list[str] = []
        lowered: list[set[str]] = []
        for word in tokens(input):
            word_forms = forms(word)
            out.extend(word_forms)
            for form in word_forms:
                out.extend(tables.synonyms.get(form.lower(), ()))
            lowered.append({f.lower() for f in word_forms})
        if tables.phrases:
            by_first = tables.phrases_by_first_word
            for i in range(len(lowered)):
                starting = sorted(c for f in lowered[i] for c in by_first.get(f, ()))   # in `phrases` order
                for _, phrase, extra in starting:
                    if i + len(phrase) <= len(lowered) and all(p in lowered[i + k] for k, p in enumerate(phrase)):
                        out.extend(extra)
        for a, b in apart(input):
            compound = forms(a + b)
            if any(f.lower() in tables.compounds for f in compound):
                out.extend(compound)
        return out

    def word_filter(self, word: str) -> bool:
        return keep(word)

    def stem(self, word: str) -> str:
        return word

    @property
    def js_stemmer_code(self) -> str:  # type: ignore[override]
        """language_data.js: this build's data (ROOFLINE_SEARCH), then the query side (search_ko.js)."""
        data = {
            "suffixes": SUFFIXES,
            "tf": {doc: {w: n for w, n in sorted(c.items()) if n > 1} for doc, c in sorted(self.word_counts.items())},
            "len": dict(sorted(self.page_lengths.items())),
            "hubs": sorted(self.hubs),
            "taught": self.taught,
            "sounds": self.sounds,
            "spelled": self.spelled,
        }
        blob = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        return f"var ROOFLINE_SEARCH = {blob};\n" + QUERY_JS.read_text(encoding="utf-8")


def doc_words(texts: tuple[str, ...]) -> list[str]:
    """The indexed words of one page (its `text_nodes`), as Sphinx's index sees them (lower-cased, filtered)."""
    splitter = SearchKorean({})
    return [w.lower() for text in texts for w in splitter.split(text) if keep(w.lower())]


@dataclass(frozen=True)
class Page:
    """What `prepare` reads of a page: its indexed text (`text_nodes`), its glossary entries, whether it holds the
    glossary or the bibliography (`is_hub`)."""

    texts: tuple[str, ...]
    entries: list[Entry]
    hub: bool


def page_of(doctree: nodes.Node) -> Page:
    return Page(tuple(text_nodes(doctree)), glossary_entries(doctree), is_hub(doctree))


def read_page(app, doctree) -> None:
    """doctree-read, after every other handler (the doctree as Sphinx stores it): the page's `Page`, kept in the
    environment, so that `prepare` does not load every page's doctree again (a pickle read per page, about half of
    its time)."""
    kept_pages(app.env)[app.env.docname] = page_of(doctree)


def kept_pages(env) -> dict[str, Page]:
    """The pages `read_page` kept in the environment (an attribute of it, as `prepare`'s tables' digest is)."""
    if not hasattr(env, "roofline_search_pages"):
        env.roofline_search_pages = {}
    return env.roofline_search_pages


def forget_page(app, env, docname) -> None:
    kept_pages(env).pop(docname, None)


def merge_pages(app, env, docnames, other) -> None:
    """env-merge-info: the pages a parallel reader read."""
    theirs = kept_pages(other)
    kept_pages(env).update((d, theirs[d]) for d in docnames if d in theirs)


def prepare(app, env):
    """env-updated: read the glossary's names and the site's compounds, count every page's words for the
    scorer (all pages, also unchanged ones); when the tables changed since the last build, name every
    page as updated, so that all are indexed again with the new tables. Each page as `read_page` kept it (its
    doctree is loaded only if the environment has not kept it: one from before this extension kept pages)."""
    builder = app.builder
    if builder is None or builder.format != "html" or not getattr(builder, "search", False):
        return None
    kept = kept_pages(env)
    pages = {}
    for docname in sorted(env.found_docs):
        if docname in kept:
            pages[docname] = kept[docname]
            continue
        try:
            pages[docname] = page_of(env.get_doctree(docname))
        except FileNotFoundError:
            continue
    tables = tables_from(pages)
    SearchKorean.tables = tables
    counts, lengths = {}, {}
    for docname, page in pages.items():
        words = doc_words(page.texts)
        counts[docname] = dict(Counter(words))
        lengths[docname] = max(len(words), 1)
    SearchKorean.word_counts = counts
    SearchKorean.page_lengths = lengths
    SearchKorean.hubs = sorted(d for d, page in pages.items() if d == app.config.root_doc or page.hub)
    entries = [e for page in pages.values() for e in page.entries]
    SearchKorean.taught = taught_pages(entries, env.domaindata["std"]["labels"])
    SearchKorean.sounds = sounds_from(entries)
    SearchKorean.spelled = spelled_from(entries)
    names = {normal(n): e.names[0] for e in entries for n in e.names}
    for docname, page in pages.items():
        for entry in page.entries:
            for form in entry.forms:
                if normal(form) in names:
                    logger.warning(f"용어집 {entry.names[0]!r}의 spelled 표기 {form!r}: '{names[normal(form)]}' 항목의 "
                                   f"이름이라 찾는 말로 쓰지 않는다. spelled에서 빼야 한다.", location=docname)
    digest, before = tables.digest(), getattr(env, "roofline_search_tables", None)
    env.roofline_search_tables = digest
    return sorted(pages) if before != digest else None


def is_hub(doctree) -> bool:
    """A reference page: it holds the glossary or the bibliography."""
    from sphinx import addnodes

    if next(iter(doctree.findall(addnodes.glossary)), None) is not None:
        return True
    return any("bibliography" in type(node).__name__.lower() for node in doctree.findall(nodes.Element))


def setup(app):
    app.add_role("spelled", spelled_role)
    app.add_search_language(SearchKorean)
    app.connect("doctree-read", read_page, priority=990)
    app.connect("env-purge-doc", forget_page)
    app.connect("env-merge-info", merge_pages)
    app.connect("env-updated", prepare)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
