"""The course's own scripts as a reader's browser gets them: without their comments and the spaces that separate
nothing (`compact`), by terser with neither its compressor nor its mangler (pinned in tools/js/package.json, installed
by the Makefile): a parser's printer, so what a script means is kept (a regular expression after `=>` keeps its
spaces). Every name is kept and no statement is rewritten, so an error in a reader's console points at the same
code; non-ASCII text stays as it is. (esbuild's --minify-whitespace renames a parameter that shadows a later `const`
of the same name, `node` → `node2`: the test below caught it.)

The course's scripts are ES modules (the .js files at the top of `_static/`): a page names the ones it runs
(coursebook.assets.PAGE_ASSETS, each with the modules it imports, so no import waits for another round trip), and
they import what they share (core.js: the reader's record and the helpers; judge.js: the number reader). No bundler: each module is one file, and one file is
fetched once however many scripts of a page import it. The build writes each import of another module with that
module's digest (`./core.js?v=<digest>`, tools/js/compact.mjs --versioned), the one the pages name it by
(coursebook.assets.fresh_digests), so that a page and its imports are one module instance of one build.

The sources in `_static/` keep their comments for the next maintainer (most of them Korean, three bytes a
character); a first visit moves the compact copies the build writes in their place (`compact_scripts`, from
coursebook.assets at `build-finished`), as it does for the offline worker's scripts (coursebook.offline).
tests/tooling/test_offline_files.py checks with acorn that each compact copy parses to the source's program, names
included.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from coursebook import kept

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "_static"   # the course's own scripts are the .js files at its top level
TOOLS = "ROOFLINE_JS_TOOLS"  # another folder of the installed JS tools (a copy of the checkout uses this one's)
COMPACT = Path(__file__).resolve().parents[1] / "js" / "compact.mjs"   # terser's `minify`, no compress, no mangle


def js_tools() -> Path:
    """The folder the Makefile installs tools/js/package.json into (`make book` does it before the build)."""
    return Path(os.environ.get(TOOLS) or ROOT / "_build" / "tools" / "js")


def compacted(scripts: dict[str, tuple[str, bool]], versioned: bool = False) -> dict[str, str]:
    """name → (script, is an ES module) → name → the script without comments and the spaces that separate nothing;
    all in one Node process (each start of Node and terser costs about a second on a busy machine). `versioned`: each
    module's imports of the others name them with their digest (compact.mjs --versioned)."""
    node = shutil.which("node")
    if node is None or not (js_tools() / "node_modules" / "terser").is_dir():
        raise RuntimeError(f"node와 terser가 없다({js_tools()}): `make book`이 tools/js/package.json의 도구를 먼저 설치한다")
    given = {name: {"code": code, "module": module} for name, (code, module) in scripts.items()}
    flag = ["--versioned"] if versioned else []

    def run() -> bytes:
        done = subprocess.run([node, str(COMPACT), str(js_tools()), *flag],
                              input=json.dumps(given), capture_output=True, text=True, encoding="utf-8")
        if done.returncode:
            raise RuntimeError(f"terser could not compact the scripts:\n{done.stderr[-2000:]}")
        return done.stdout.encode("utf-8")

    # kept (coursebook.kept) by all it is made from: the scripts, the flag, compact.mjs and the installed terser (its
    # package.json names its version), so a build whose scripts did not change starts no Node (a second a start on a
    # busy machine)
    terser = js_tools() / "node_modules" / "terser" / "package.json"
    return json.loads(kept.made("compacted-js", run, json.dumps([given, versioned], sort_keys=True).encode(),
                                COMPACT.read_bytes(), terser.read_bytes(), folder=KEPT))


KEPT = kept.KEPT   # (a test's own folder in its place)


def compact(script: str, module: bool = False) -> str:
    """`script` (an ES module if `module`) without comments and the spaces that separate nothing."""
    return compacted({"script": (script, module)})["script"]


def own_scripts(sources: Path = SOURCES) -> list[str]:
    """The names (under _static) of the course's own scripts, all ES modules; those in its folders (vendor/, live/)
    are others'."""
    return sorted(path.name for path in sources.glob("*.js") if path.is_file())


def compact_scripts(static: Path, sources: Path = SOURCES) -> list[str]:
    """Each of the course's own scripts in the built `static` folder written compact, its imports of the others
    with their digests; the names written."""
    names = [name for name in own_scripts(sources) if (static / name).is_file()]
    made = compacted({name: ((sources / name).read_text(encoding="utf-8"), True) for name in names}, versioned=True)
    for name in names:
        (static / name).write_text(made[name], encoding="utf-8")
    return names
