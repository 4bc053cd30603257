"""Korean full-text search for the site (Sphinx has no Korean search language).

Registered from `roofline.sphinx_ext` with `app.add_search_language(SearchKorean)`; Sphinx picks it
because `language: ko` (html_search_language defaults to the language).

Index side (Python, `SearchKorean.split`): a word like "타일을" or "Roofline과" is split at script
boundaries ("Roofline", "과") and every Hangul word is indexed both as written and with a trailing
particle or ending removed ("타일을" → "타일을", "타일"). Bare particles and stop words are not indexed.

Query side (JavaScript, in `language_data.js`): the same script-boundary splitter; the "stemmer" strips a
trailing particle when at least two syllables remain and the index knows the rest ("타일을" → "타일",
but "강도" stays "강도"). Several words are ANDed, as in every Sphinx search ("산술 강도" needs both words).

Synonyms from the glossary: each 용어집 entry pairs a Korean term with its English name ("점유율" ↔
"Occupancy", "온라인 소프트맥스" ↔ "Online softmax"); word by word, each is indexed wherever the other is
written, so "점유율" finds the page that writes "Occupancy" and "온라인 소프트맥스" the page that writes
"온라인 softmax".

Ranking: Sphinx scores a page 15 when a word is in one of its headings and 5 when it is only in the
text, so many pages tie, and a glossary entry scores 100. `Scorer.score` (in language_data.js) takes
min(Sphinx's score, 15), adds a BM25-style boost from the words' counts on the page (k1 = 3, b = 0.75;
counts computed at build time from all doctrees and embedded in language_data.js) and 10 when every word
is in the page's own title, and halves the score of the reference pages (landing page, glossary,
bibliography): the chapter that teaches a term comes first, the glossary entry right after it.
"""
from __future__ import annotations

import json
import re
from collections import Counter

from docutils import nodes
from sphinx.search import SearchLanguage

HANGUL = "\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f"
_TOKEN = re.compile(rf"[{HANGUL}]+|[^\W{HANGUL}]+")
_HANGUL_RE = re.compile(rf"[{HANGUL}]")

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


def tokens(text: str) -> list[str]:
    """Words split at spaces, punctuation and Hangul/Latin boundaries ("Roofline과" → "Roofline", "과")."""
    return _TOKEN.findall(text)


def keep(word: str) -> bool:
    """True if the (lower-cased) word belongs in the index."""
    if not word or word.isdigit():
        return False
    if is_hangul(word):
        return word not in PARTICLES and word not in _SUFFIX_SET
    return len(word) >= 2 and word not in ENGLISH_STOPWORDS


_JS = r"""
/* Korean search (lib/roofline/search_ko.py): splitter, particle-aware stemmer, frequency scorer. */
var ROOFLINE_HANGUL = /[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]/;
var ROOFLINE_SUFFIXES = __SUFFIXES__;
var splitQuery = function (query) {
  var out = [];
  query.split(/[^\p{Letter}\p{Number}_]+/u).forEach(function (word) {
    var parts = word.match(/[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]+|[^\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]+/g);
    if (parts) out.push.apply(out, parts);
  });
  return out.filter(function (t) { return t; });
};
var Stemmer = function () {
  this.stemWord = function (w) {
    var index = (typeof Search !== "undefined") ? Search._index : null;
    if (!index || !ROOFLINE_HANGUL.test(w)) return w;
    var known = function (t) {
      return Object.prototype.hasOwnProperty.call(index.terms, t) ||
             Object.prototype.hasOwnProperty.call(index.titleterms, t);
    };
    /* "타일을" → "타일": drop a trailing particle when at least two syllables remain and the index
       knows the rest ("강도" stays "강도": "강" is one syllable) */
    for (var i = 0; i < ROOFLINE_SUFFIXES.length; i++) {
      var s = ROOFLINE_SUFFIXES[i];
      if (w.length - s.length >= 2 && w.endsWith(s) && known(w.slice(0, -s.length))) return w.slice(0, -s.length);
    }
    return w;
  };
};
/* word counts per page: {docname: {word: count}} (count 1 omitted), page lengths in words, and the
   reference pages (landing page, glossary, bibliography) that rank after the chapters */
var ROOFLINE_TF = __TF__;
var ROOFLINE_LEN = __LEN__;
var ROOFLINE_HUBS = __HUBS__;
var ROOFLINE_RANK = {k1: 3, b: 0.75, boost: 20, title: 10, cap: 15, hub: 0.5};
(function () {
  if (typeof Search === "undefined" || typeof Scorer === "undefined") return;
  var parse = Search._parseQuery;
  Search._parseQuery = function (query) {
    var parsed = parse(query);
    Scorer.rooflineTerms = Array.from(parsed[1]);
    return parsed;
  };
  var lengths = Object.values(ROOFLINE_LEN);
  var avg = lengths.length ? lengths.reduce(function (a, b) { return a + b; }, 0) / lengths.length : 1;
  /* score = min(Sphinx's score, cap)             15 if a word is in a heading, 5 if only in the text
           + boost × mean BM25 saturation of the words' counts on the page
           + title if every word is in the page's own title
     and × hub for the landing page, glossary and bibliography */
  Scorer.score = function (result) {
    var R = ROOFLINE_RANK, docname = result[0], score = Math.min(result[4], R.cap);
    var terms = Scorer.rooflineTerms || [];
    if (!terms.length || !(docname in ROOFLINE_LEN)) return score;
    var counts = ROOFLINE_TF[docname] || {};
    var norm = 1 - R.b + R.b * ROOFLINE_LEN[docname] / avg;
    var boost = 0, inTitle = true;
    var index = Search._index, title = "";
    if (index) {
      var i = index.docnames.indexOf(docname);
      if (i >= 0) title = String(index.titles[i]).toLowerCase();
    }
    terms.forEach(function (term) {
      var tf = counts[term] || 0;
      if (!tf && term.length > 2) {
        Object.keys(counts).forEach(function (k) { if (k.indexOf(term) !== -1) tf += counts[k]; });
      }
      if (!tf) tf = 1;
      boost += tf / (tf + R.k1 * norm);
      if (title.indexOf(term) === -1) inTitle = false;
    });
    score += R.boost * boost / terms.length + (inTitle ? R.title : 0);
    return ROOFLINE_HUBS.indexOf(docname) !== -1 ? score * R.hub : score;
  };
})();
"""


def glossary_pairs(doctree: nodes.Node) -> list[tuple[str, str]]:
    """(Korean term, English name) of every glossary entry: the English name is the definition's
    opening words up to the first ".", "," or "(" ("Occupancy. SM이 …" → "Occupancy")."""
    from sphinx import addnodes

    pairs = []
    for glossary in doctree.findall(addnodes.glossary):
        for item in glossary.findall(nodes.definition_list_item):
            terms = [t.astext().strip() for t in item.findall(nodes.term)]
            definition = next(iter(item.findall(nodes.definition)), None)
            if definition is None:
                continue
            english = re.match(r"\s*([A-Za-z][A-Za-z \-]*?)\s*[.,(]", definition.astext())
            for term in terms:
                if english and is_hangul(term):
                    pairs.append((term, english.group(1)))
    return pairs


def synonyms_from(pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
    """Word-for-word synonyms of glossary pairs with as many Korean as English words
    ("산술 강도" ↔ "Arithmetic intensity": 산술 ↔ arithmetic, 강도 ↔ intensity), both directions."""
    table: dict[str, set[str]] = {}
    for korean, english in pairs:
        ko, en = korean.lower().split(), re.split(r"[\s\-]+", english.lower().strip())
        if len(ko) != len(en):
            continue
        for a, b in zip(ko, en):
            if keep(a) and keep(b):
                table.setdefault(a, set()).add(b)
                table.setdefault(b, set()).add(a)
    return {word: sorted(others) for word, others in sorted(table.items())}


class SearchKorean(SearchLanguage):
    lang = "ko"
    language_name = "Korean"
    stopwords = PARTICLES | ENGLISH_STOPWORDS
    # set by `count_words` (write-started) before pages are indexed and language_data.js is written
    word_counts: dict[str, dict[str, int]] = {}
    page_lengths: dict[str, int] = {}
    synonyms: dict[str, list[str]] = {}
    hubs: list[str] = []

    def split(self, input: str) -> list[str]:
        out: list[str] = []
        for word in tokens(input):
            forms = [word, *stems(word)] if is_hangul(word) else [word]
            out.extend(forms)
            for form in forms:
                out.extend(self.synonyms.get(form.lower(), ()))
        return out

    def word_filter(self, word: str) -> bool:
        return keep(word)

    def stem(self, word: str) -> str:
        return word

    @property
    def js_stemmer_code(self) -> str:  # type: ignore[override]
        tf = {doc: {w: n for w, n in sorted(c.items()) if n > 1} for doc, c in sorted(self.word_counts.items())}
        return (
            _JS.replace("__SUFFIXES__", json.dumps(SUFFIXES, ensure_ascii=False))
            .replace("__TF__", json.dumps(tf, ensure_ascii=False, separators=(",", ":")))
            .replace("__LEN__", json.dumps(dict(sorted(self.page_lengths.items())), separators=(",", ":")))
            .replace("__HUBS__", json.dumps(sorted(self.hubs)))
        )


def doc_words(doctree: nodes.Node) -> list[str]:
    """The indexed words of one page, as Sphinx's index sees them (lower-cased, filtered)."""
    splitter = SearchKorean({})
    words: list[str] = []

    def visit(node: nodes.Node) -> None:
        if isinstance(node, (nodes.comment, nodes.raw)):
            return
        if isinstance(node, nodes.Text):
            words.extend(w.lower() for w in splitter.split(node.astext()) if keep(w.lower()))
            return
        for child in node.children:
            visit(child)

    visit(doctree)
    return words


def count_words(app, builder) -> None:
    """write-started: read the glossary's synonyms, then count every page's words for the scorer
    (all pages, also unchanged ones)."""
    if builder.format != "html" or not getattr(builder, "search", False):
        return
    doctrees = {}
    for docname in sorted(builder.env.found_docs):
        try:
            doctrees[docname] = builder.env.get_doctree(docname)
        except FileNotFoundError:
            continue
    SearchKorean.synonyms = synonyms_from([p for d in doctrees.values() for p in glossary_pairs(d)])
    counts, lengths = {}, {}
    for docname, doctree in doctrees.items():
        words = doc_words(doctree)
        counts[docname] = dict(Counter(words))
        lengths[docname] = max(len(words), 1)
    SearchKorean.word_counts = counts
    SearchKorean.page_lengths = lengths
    SearchKorean.hubs = sorted(d for d, tree in doctrees.items() if d == builder.config.root_doc or is_hub(tree))


def is_hub(doctree) -> bool:
    """A reference page: it holds the glossary or the bibliography."""
    from sphinx import addnodes

    if next(iter(doctree.findall(addnodes.glossary)), None) is not None:
        return True
    return any("bibliography" in type(node).__name__.lower() for node in doctree.findall(nodes.Element))


def setup(app):
    app.add_search_language(SearchKorean)
    app.connect("write-started", count_words)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
