"""Korean full-text search for the site (Sphinx has no Korean search language).

Registered from `roofline.sphinx_ext` with `app.add_search_language(SearchKorean)`; Sphinx picks it
because `language: ko` (html_search_language defaults to the language).

Index side (Python, `SearchKorean.split`): a word like "타일을" or "Roofline과" is split at script
boundaries ("Roofline", "과") and every Hangul word is indexed both as written and with a trailing
particle or ending removed ("타일을" → "타일을", "타일"). Bare particles and stop words are not indexed.

Query side (JavaScript, in `language_data.js`): the same script-boundary splitter; the "stemmer" keeps a
query word the index knows and otherwise strips a particle ("타일을" → "타일") if the stripped form is
known. Several words are ANDed, as in every Sphinx search ("산술 강도" needs both words).

Ranking: Sphinx scores a page 15 when a word is in one of its headings and 5 when it is only in the
text, so many pages tie. `Scorer.score` adds a BM25-style boost from the word's count on the page
(counts computed at build time from the doctrees, embedded in language_data.js): the page about tiles
ranks above a page that mentions a tile once.
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
        "이며", "이고", "이다", "이면", "이지만", "인", "일", "께",
        # verb endings of nouns + 하다/되다
        "한다", "하는", "하고", "하면", "해서", "했다", "하여", "하기", "할", "한", "해", "된다", "되는",
        "되고", "되면", "돼", "된", "될", "시킨다", "적", "적인", "적으로",
    },
    key=len,
    reverse=True,
)

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
        return word not in PARTICLES
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
    if (known(w)) return w;
    for (var i = 0; i < ROOFLINE_SUFFIXES.length; i++) {
      var s = ROOFLINE_SUFFIXES[i];
      if (w.length > s.length && w.endsWith(s) && known(w.slice(0, -s.length))) return w.slice(0, -s.length);
    }
    return w;
  };
};
/* word counts per page: {docname: {word: count}} (count 1 omitted), and page lengths in words */
var ROOFLINE_TF = __TF__;
var ROOFLINE_LEN = __LEN__;
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
  Scorer.score = function (result) {
    var docname = result[0], score = result[4];
    var terms = Scorer.rooflineTerms || [];
    if (!terms.length || !(docname in ROOFLINE_LEN)) return score;
    var counts = ROOFLINE_TF[docname] || {};
    var norm = 0.25 + 0.75 * ROOFLINE_LEN[docname] / avg;
    var boost = 0;
    terms.forEach(function (term) {
      var tf = counts[term] || 0;
      if (!tf && term.length > 2) {
        Object.keys(counts).forEach(function (k) { if (k.indexOf(term) !== -1) tf += counts[k]; });
      }
      if (!tf) tf = 1;
      boost += tf / (tf + 1.2 * norm);
    });
    return score + 20 * boost / terms.length;
  };
})();
"""


class SearchKorean(SearchLanguage):
    lang = "ko"
    language_name = "Korean"
    stopwords = PARTICLES | ENGLISH_STOPWORDS
    # set by `count_words` before language_data.js is written
    word_counts: dict[str, dict[str, int]] = {}
    page_lengths: dict[str, int] = {}

    def split(self, input: str) -> list[str]:
        out: list[str] = []
        for word in tokens(input):
            out.append(word)
            if is_hangul(word):
                out.extend(stems(word))
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
    """write-started: count every page's words for the scorer (all pages, also unchanged ones)."""
    if builder.format != "html" or not getattr(builder, "search", False):
        return
    counts, lengths = {}, {}
    for docname in sorted(builder.env.found_docs):
        try:
            doctree = builder.env.get_doctree(docname)
        except FileNotFoundError:
            continue
        words = doc_words(doctree)
        counts[docname] = dict(Counter(words))
        lengths[docname] = max(len(words), 1)
    SearchKorean.word_counts = counts
    SearchKorean.page_lengths = lengths


def setup(app):
    app.add_search_language(SearchKorean)
    app.connect("write-started", count_words)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
