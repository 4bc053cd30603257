"""What the build writes for the offline site, without a browser (tools/coursebook/offline.py): the worker's file
list read back as the worker reads it, each page's needs as indexes into it, and `compact` (coursebook.minify: terser),
which writes the worker, offline-ui.js and every script of the course's own small: each compacted script parses, by
acorn, to the same program as its source (syntax trees compared without positions and raw literal text:
same_program.mjs; a token stream would differ where the printer drops a redundant parenthesis), and behaves as it does
(in Node, which the build has for Pyodide's npm package). The browser tests are tests/book/test_offline.py."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from coursebook import minify, offline
from coursebook.minify import compact

NODE = shutil.which("node")
SOURCES = [offline.TEMPLATE, offline.UI_SOURCE, *(minify.SOURCES / name for name in minify.own_scripts())]
SAME = Path(__file__).with_name("same_program.mjs")


def same_program(first: Path, second: Path, source_type: str = "script") -> str:
    done = subprocess.run([NODE, str(SAME), str(minify.js_tools()), source_type, str(first), str(second)],
                          capture_output=True, text=True)
    return done.stdout.strip() or done.stderr[-2000:]


def _files(names):
    return {name: (offline.short_hash(name.encode()), len(name)) for name in sorted(names)}


NAMES = ["_images/" + "a" * 64 + ".webp", "_images/" + "a" * 40 + "b.webp", "_static/app.css",
         "_static/bundles/x.css", "_static/bundles/y.css", "_static/live/pyodide/pyodide.asm.wasm",
         "chapters/a.html", "chapters/b.html", "chapters/" + "c" * 50 + ".html", "index.html", "search.html"]


def test_the_file_list_reads_back_name_for_name_and_hash_for_hash():
    files = _files(NAMES)
    listing = offline.front_coded(files)
    assert offline.decoded(listing) == {name: hashed[:offline.HASH_CHARS] for name, (hashed, _) in files.items()}
    assert len(listing) < len(json.dumps([[n, h] for n, (h, _) in files.items()]))
    assert offline.decoded("") == {}


def test_page_needs_are_the_common_files_once_and_each_page_s_own():
    files = _files(NAMES)
    names = list(files)
    common = ["_static/bundles/x.css", "_static/app.css"]
    needs = {"chapters/a.html": [*common, NAMES[0]], "chapters/b.html": [*common, "_static/bundles/y.css"],
             "index.html": ["_static/app.css"], "search.html": common}
    data = offline.worker_data("d", files, needs)
    assert data["live"] == offline.LIVE and data["files"] == offline.front_coded(files)
    index = lambda text: [names[int(n, 36)] for n in text.split(",")] if text else []

    def read(page):       # as offline_sw.js needsOf reads it
        own = data["pages"][offline._base36(names.index(page))]
        return (index(data["common"]) if own.startswith("+") else []) + index(own.lstrip("+"))

    for page, need in needs.items():
        assert sorted(read(page)) == sorted(need), page
    assert sorted(index(data["common"])) == sorted(common)
    assert not data["pages"][offline._base36(names.index("index.html"))].startswith("+")


def is_module(source: Path) -> bool:
    """The course's own scripts and the offline control are ES modules; the worker is a classic script."""
    return source != offline.TEMPLATE


@pytest.fixture(scope="module")
def compacted_sources() -> dict[str, str]:
    return minify.compacted({p.name: (p.read_text(encoding="utf-8"), is_module(p)) for p in SOURCES})


@pytest.mark.skipif(NODE is None, reason="no Node")
@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_compacted_scripts_are_their_sources_program(source, tmp_path, compacted_sources):
    out = tmp_path / (source.stem + ".mjs")
    kind = "module" if is_module(source) else "script"
    text = compacted_sources[source.name]
    out.write_text(("const BUILD = {};\n" if source == offline.TEMPLATE else "") + text, encoding="utf-8")
    done = subprocess.run([NODE, "--check", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "/*" not in text and "\n//" not in text and len(text) < len(source.read_text(encoding="utf-8"))
    compacted = tmp_path / source.name
    compacted.write_text(text, encoding="utf-8")
    assert same_program(source, compacted, kind) == "same", source.name


# what compact has to keep: line breaks where a semicolon is inserted, `- -`, regular expressions with `/` and
# quotes, template literals with templates and regular expressions inside, strings with spaces and comment-like
# text, `return` regexes, a comment right after code
TRICKY = r'''/* a comment */
const a = 1
const b = a - -1  // a comment after code
let text = "x  // not a comment /* nor this */", n = 0
const re = /[/"']+\/ ?/g, t = `a ${`b ${a + 1} c`} d ${"}"} ${"a\"b".replace(/"/g, '""')}`
const c = a// a comment right after code
  + 2
function f(s) {
  return /x y/.test(s)
}
const g = (x) => x
  .toString()
const h = (s) => /^\d+ \w/.test(s)   // a regular expression after `=>` keeps its space
n++
console.log(JSON.stringify([a, b, c, text, re.source, re.flags, t, f("x y"), g(12), h("12 a"), h("12a"), n, "a".replace(/a/, "b")]))
'''


@pytest.mark.skipif(NODE is None, reason="no Node")
def test_compact_keeps_what_the_script_does(tmp_path):
    runs = []
    for name, text in (("source.js", TRICKY), ("compact.js", compact(TRICKY))):
        (tmp_path / name).write_text(text, encoding="utf-8")
        done = subprocess.run([NODE, str(tmp_path / name)], capture_output=True, text=True)
        assert done.returncode == 0, (name, done.stderr, text)
        runs.append(done.stdout)
    assert runs[0] == runs[1]
    assert len(compact(TRICKY)) < len(TRICKY)


@pytest.mark.skipif(NODE is None, reason="no Node")
def test_compact_is_the_same_program_as_the_tricky_source(tmp_path):
    (tmp_path / "source.js").write_text(TRICKY, encoding="utf-8")
    (tmp_path / "compact.js").write_text(compact(TRICKY), encoding="utf-8")
    assert same_program(tmp_path / "source.js", tmp_path / "compact.js") == "same"
    assert "/^\\d+ \\w/" in compact(TRICKY)
    (tmp_path / "other.js").write_text(TRICKY.replace("/^\\d+ \\w/", "/^\\d+\\w/"), encoding="utf-8")
    assert same_program(tmp_path / "source.js", tmp_path / "other.js").startswith("differ at Program.body")


@pytest.mark.skipif(NODE is None, reason="no Node")
def test_the_build_names_each_imported_module_by_its_digest():
    """A module's imports of the others, static and dynamic, name them as the pages do: `?v=` and the first 20 hex
    digits of the sha-256 of the imported module's final text (coursebook.assets.fresh_digests), found through a
    chain; other imports and text that only looks like one stay as they are."""
    import hashlib

    made = minify.compacted({
        "a.js": ('import {x} from "./b.js";\nexport const y = () => import("./c.js");\nexport const s = \'from "./b.js"\';\n'
                 'import("./elsewhere.js");\nconsole.log(x);\n', True),
        "b.js": ('import {z} from "./c.js";\nexport const x = z + 1;\n', True),
        "c.js": ("export const z = 1;\n", True),
    }, versioned=True)
    digest = {name: hashlib.sha256(text.encode()).hexdigest()[:20] for name, text in made.items()}
    assert f'"./c.js?v={digest["c.js"]}"' in made["b.js"]
    assert f'"./b.js?v={digest["b.js"]}"' in made["a.js"] and f'import("./c.js?v={digest["c.js"]}")' in made["a.js"]
    assert "'from \"./b.js\"'" in made["a.js"] and 'import("./elsewhere.js")' in made["a.js"]


@pytest.mark.skipif(NODE is None, reason="no Node")
def test_compacting_the_same_scripts_again_starts_no_node(monkeypatch, tmp_path):
    """What terser made is kept by the digest of what it was made from (minify.KEPT): the same scripts again start
    no Node; another script, or a damaged kept file, is compacted afresh."""
    monkeypatch.setattr(minify, "KEPT", tmp_path)
    first = compact(TRICKY)
    real_run = subprocess.run

    def no_node(*args, **kwargs):
        raise AssertionError("Node started for scripts already compacted")

    monkeypatch.setattr(subprocess, "run", no_node)
    assert compact(TRICKY) == first
    with pytest.raises(AssertionError, match="Node started"):
        compact(TRICKY + "\nn++\n")
    monkeypatch.setattr(subprocess, "run", real_run)
    (kept,) = (tmp_path / "compacted-js").iterdir()
    kept.write_bytes(kept.read_bytes()[:-12])   # (cut short: coursebook.kept does not believe it)
    assert compact(TRICKY) == first and json.loads(kept.read_bytes()[32:]) == {"script": first}
