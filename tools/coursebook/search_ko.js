/* Korean search, query side. The index side is tools/coursebook/search_ko.py, which writes this file into
   language_data.js right after this build's data:
     ROOFLINE_SEARCH = {suffixes: particles and endings, longest first,
                        tf: {page: {word: count}} (count 1 left out), len: {page: words}, hubs: [page],
                        taught: {glossary name, letters only: [pages its entry refers to]},
                        sounds: {consonant skeleton: the glossary's English word that has it},
                        spelled: {a form the glossary lists for an entry, letters only: its first name's words}}.
   Sphinx's searchtools.js (loaded first) calls splitQuery(query) for the words of a query, then
   new Stemmer().stemWord(word) for each, then Scorer.score(result) for each page found. */
var RooflineSearch = (function () {
  "use strict";
  var HANGUL = /[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]/;
  var SCRIPTS = /[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]+|[^\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]+/g;
  var RANK = {k1: 3, b: 0.75, boost: 20, title: 10, cap: 15, hub: 0.5, taught: 30};
  var data = ROOFLINE_SEARCH;
  var has = function (object, key) { return Object.prototype.hasOwnProperty.call(object, key); };
  var index = function () { return (typeof Search !== "undefined" && Search._index) || null; };

  /* a word the index files (in a page's text or in a heading) */
  var known = function (word) {
    var i = index();
    return i !== null && (has(i.terms, word) || has(i.titleterms, word));
  };

  /* "타일을" → "타일": drop a trailing particle when at least two syllables remain and the index knows
     the rest ("강도" stays "강도": "강" is one syllable) */
  var stem = function (word) {
    if (!HANGUL.test(word)) return word;
    for (var i = 0; i < data.suffixes.length; i++) {
      var s = data.suffixes[i];
      if (word.length - s.length >= 2 && word.endsWith(s) && known(word.slice(0, -s.length)))
        return word.slice(0, -s.length);
    }
    return word;
  };
  var knownForm = function (word) { return known(word) || known(stem(word)); };

  /* would Sphinx find anything for the word: the word (or its stem), or, from three letters on,
     an indexed word that contains it */
  var findsSomething = function (word) {
    if (knownForm(word)) return true;
    var i = index();
    if (i === null || word.length <= 2) return false;
    var contains = function (term) { return term.indexOf(word) !== -1; };
    return Object.keys(i.terms).some(contains) || Object.keys(i.titleterms).some(contains);
  };

  /* "산술강도" → ["산술", "강도"]: a word that finds nothing, cut into indexed words, fewest pieces first
     (then the longest first piece); the last piece may carry a particle ("산술강도를"). [word] if none. */
  var pieces = function (word) {
    var n = word.length;
    if (n < 2 || n > 24 || findsSomething(word)) return [word];
    var best = new Array(n + 1);           // best[i]: the fewest pieces that make word.slice(i)
    best[n] = [];
    for (var i = n - 1; i >= 0; i--) {
      for (var j = n; j > i; j--) {
        var piece = word.slice(i, j);
        if (best[j] === undefined || !(j === n ? knownForm(piece) : known(piece))) continue;
        if (best[i] === undefined || best[j].length + 1 < best[i].length) best[i] = [piece].concat(best[j]);
      }
    }
    return best[0] !== undefined && best[0].length > 1 ? best[0] : [word];
  };

  /* "오큐펀시" → "KPNS": the consonant skeleton of a Hangul spelling, as tools/coursebook/search_ko.py's
     sound_key gives it for an English word (each syllable's first and last consonant by class, ㅇ and ㅎ
     silent at the start, vowels only separate). null for a word that is not all Hangul syllables. */
  var FIRST = "KKNTTLMPPSS_JJJKTP_";            // ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ
  var LAST = "_KKKNNNTLLMLLLPLMPPTTGTTKTP_";    // (none)ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ
  var soundKey = function (word) {
    var seq = "";
    for (var i = 0; i < word.length; i++) {
      var code = word.charCodeAt(i) - 0xac00;
      if (code < 0 || code > 11171) return null;
      var first = FIRST[Math.floor(code / 588)], last = LAST[code % 28];
      seq += (first === "_" ? "" : first) + "a" + (last === "_" ? "" : last);
    }
    var collapsed = "";
    for (var k = 0; k < seq.length; k++) if (k === 0 || seq[k] !== seq[k - 1]) collapsed += seq[k];
    return collapsed.replace(/a/g, "");
  };

  /* the English word of the glossary whose skeleton a Hangul word that finds nothing has, also with a
     trailing particle left off ("오큐펀시를" → "occupancy"); null if none */
  var sounded = function (word) {
    if (!data.sounds || !HANGUL.test(word) || findsSomething(word)) return null;
    var forms = [word];
    data.suffixes.forEach(function (s) {
      if (word.length - s.length >= 2 && word.endsWith(s)) forms.push(word.slice(0, -s.length));
    });
    for (var i = 0; i < forms.length; i++) {
      var key = soundKey(forms[i]);
      if (key && has(data.sounds, key)) return data.sounds[key];
    }
    return null;
  };

  /* the query's words: split at spaces, punctuation and Hangul/Latin boundaries, as the index side
     does ("Roofline과" → "Roofline", "과") */
  var tokens = function (query) {
    var out = [];
    query.split(/[^\p{Letter}\p{Number}_]+/u).forEach(function (chunk) {
      var parts = chunk.match(SCRIPTS);
      if (parts) out.push.apply(out, parts);
    });
    return out.filter(function (t) { return t; });
  };

  /* the query as letters and digits only, without a trailing particle when only that form is in table */
  var named = function (table, query) {
    var name = query.toLowerCase().replace(/[^\p{Letter}\p{Number}]+/gu, "");
    if (has(table, name)) return table[name];
    for (var i = 0; i < data.suffixes.length; i++) {
      var s = data.suffixes[i];
      if (name.length > s.length && name.endsWith(s) && has(table, name.slice(0, -s.length)))
        return table[name.slice(0, -s.length)];
    }
    return null;
  };

  /* the words of the glossary entry whose listed forms the whole query is ("어큐펀시" → ["점유율"],
     "텐서 코아를" → ["tensor", "core"]); null if none */
  var spelledAs = function (query) { return data.spelled ? named(data.spelled, query) : null; };

  /* the words of a query as typed: Hangul words written apart whose joined form the index knows are joined
     ("실행 시간" → "실행시간" when the site writes "실행시간"), and a word that finds nothing is cut into
     indexed words ("산술강도" → "산술", "강도") */
  var typed = function (query) {
    var split = tokens(query), out = [];
    for (var i = 0; i < split.length; i++) {
      var next = split[i + 1];
      var joined = next !== undefined && HANGUL.test(split[i]) && HANGUL.test(next) ? split[i] + next : null;
      if (joined !== null && knownForm(joined.toLowerCase())) {
        out.push(joined);
        i++;
      } else {
        var cut = pieces(split[i].toLowerCase());
        var english = cut.length > 1 ? null : sounded(split[i]);
        out.push.apply(out, cut.length > 1 ? cut : [english || split[i]]);
      }
    }
    return out;
  };

  /* words as Sphinx's search searches them: lower case, no stop words or numbers, stemmed, each once */
  var asSearched = function (list) {
    var stopped = typeof stopwords !== "undefined" ? stopwords : [];
    var found = [];
    list.forEach(function (word) {
      var lower = word.toLowerCase();
      if (stopped.indexOf(lower) !== -1 || /^\d+$/.test(lower)) return;
      var t = stem(lower);
      if (found.indexOf(t) === -1) found.push(t);
    });
    return found;
  };

  /* the pages (document numbers) whose text or headings hold a searched term, as Sphinx's search finds them:
     the term, and from three letters on an indexed word that contains it */
  var pagesOf = function (term) {
    var i = index(), found = [];
    if (i === null) return found;
    var add = function (files) {
      if (files === undefined) return;
      (files.length === undefined ? [files] : files).forEach(function (f) { found.push(f); });
    };
    [i.terms, i.titleterms].forEach(function (table) {
      add(table[term]);
      if (term.length > 2 && !has(table, term))
        Object.keys(table).forEach(function (k) { if (k.indexOf(term) !== -1) add(table[k]); });
    });
    return found;
  };

  /* the words to search for: the query as typed, except that a form the glossary lists for an entry is
     searched as the entry's first name when the query as typed does not find the page that teaches the
     entry on every word ("부분합" → "중간 합"; "구조적 희소성", which that page writes, stays as typed) */
  var words = function (query) {
    var asTyped = typed(query), spelled = spelledAs(query);
    if (spelled === null) return asTyped;
    var i = index(), taught = taughtBy(query);
    var numbers = i === null ? [] : taught.map(function (d) { return i.docnames.indexOf(d); });
    var found = numbers.some(function (n) {
      return n >= 0 && asSearched(asTyped).every(function (t) { return pagesOf(t).indexOf(n) !== -1; });
    });
    return found && asTyped.length ? asTyped : spelled.slice();
  };

  /* the searched terms of a query, as Sphinx's search makes them: lower case, no stop words or numbers,
     stemmed */
  var cache = {query: null, terms: []};
  var terms = function (query) {
    if (cache.query !== query) cache = {query: query, terms: asSearched(words(query))};
    return cache.terms;
  };

  /* the pages that teach a glossary term, when the whole query is one of its names however spaced
     or hyphenated ("메모리 바운드", "Memory bound", "memory-bound"; a trailing particle is allowed) */
  var taughtBy = function (query) { return named(data.taught, query) || []; };

  var lengths = Object.values(data.len);
  var average = lengths.length ? lengths.reduce(function (a, b) { return a + b; }, 0) / lengths.length : 1;

  /* score = min(Sphinx's score, cap)             15 if a word is in a heading, 5 if only in the text
           + boost × mean BM25 saturation of the words' counts on the page
           + title if every word is in the page's own title
     and × hub for the landing page, glossary and bibliography;
           + taught for the page the glossary names for the term the query names */
  var score = function (result, query) {
    var docname = result[0], base = Math.min(result[4], RANK.cap);
    var searched = terms(query);
    if (!searched.length || !has(data.len, docname)) return base;
    var counts = data.tf[docname] || {};
    var norm = 1 - RANK.b + RANK.b * data.len[docname] / average;
    var boost = 0, inTitle = true, title = "";
    var i = index();
    if (i !== null) {
      var at = i.docnames.indexOf(docname);
      if (at >= 0) title = String(i.titles[at]).toLowerCase();
    }
    searched.forEach(function (term) {
      var tf = counts[term] || 0;
      if (!tf && term.length > 2) {
        Object.keys(counts).forEach(function (k) { if (k.indexOf(term) !== -1) tf += counts[k]; });
      }
      if (!tf) tf = 1;
      boost += tf / (tf + RANK.k1 * norm);
      if (title.indexOf(term) === -1) inTitle = false;
    });
    var total = base + RANK.boost * boost / searched.length + (inTitle ? RANK.title : 0);
    if (data.hubs.indexOf(docname) !== -1) total *= RANK.hub;
    var taught = taughtBy(query);
    if (!taught.length) taught = taughtBy(words(query).join(""));   // a transliterated name ("오큐펀시")
    return taught.indexOf(docname) !== -1 ? total + RANK.taught : total;
  };

  return {tokens: tokens, words: words, spelledAs: spelledAs, pieces: pieces, stem: stem, terms: terms, taughtBy: taughtBy,
          soundKey: soundKey, sounded: sounded,
          score: score, query: ""};
})();

/* Sphinx's hooks: the splitter (remembering the query for the scorer, which Sphinx hands only the
   result), the stemmer, and the score of a result */
var splitQuery = function (query) {
  RooflineSearch.query = query;
  return RooflineSearch.words(query);
};
var Stemmer = function () {
  this.stemWord = RooflineSearch.stem;
};
if (typeof Scorer !== "undefined") {
  Scorer.score = function (result) { return RooflineSearch.score(result, RooflineSearch.query); };
}
