"""One identifier rule in both languages (issue 56): `roofline.show.variants.normal`/`index` and their twins in
_static/variants.js give, for every identifier of tests/show/identifiers.json (a BOM at the start or inside, spaces
around and inside, NBSP, ideographic and zero-width spaces, spreadsheet separators U+001C–U+001F, full-width digits
and letters, NFD Hangul, a combining accent), the identifier the table says and the same variant. The module is
imported by Node (no build, no browser)."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from roofline.show import variants as V

ROOT = Path(__file__).resolve().parents[2]
TABLE = json.loads((Path(__file__).with_name("identifiers.json")).read_text(encoding="utf-8"))

NODE_RUN = r"""
const fs = require("fs"), url = require("url");
const [script, table] = process.argv.slice(1);
globalThis.window = {addEventListener() {}};   // the reader's record (core.js, imported) listens on it
import(url.pathToFileURL(script).href).then(({normal, index}) => {
  const t = JSON.parse(fs.readFileSync(table, "utf8"));
  process.stdout.write(JSON.stringify(t.cases.map((c) => [normal(c.typed), index(t.term, c.typed, t.count)])));
});
"""


def test_the_table_holds_the_forms_a_paste_or_a_spreadsheet_leaves():
    typed = [c["typed"] for c in TABLE["cases"]]
    assert any(t.startswith("\ufeff") for t in typed) and any("\ufeff" in t[1:] for t in typed)
    assert any(ch in t for t in typed for ch in "\u3000\u00a0\u200b\x1f")
    assert any("２" in t for t in typed) and any(" " in t.strip() for t in typed)
    spelled = {c["normal"] for c in TABLE["cases"] if c["normal"].startswith("2026")}
    assert spelled == {"2026123456"}     # fifteen forms, one student


def test_python_gives_the_table():
    for case in TABLE["cases"]:
        assert V.normal(case["typed"]) == case["normal"], case
        assert V.index(TABLE["term"], case["typed"], TABLE["count"]) == case["index"], case
        assert V.normal(case["normal"]) == case["normal"]            # the rule is idempotent


@pytest.mark.skipif(not shutil.which("node"), reason="node is not installed")
def test_the_pages_script_gives_the_table_under_node():
    out = subprocess.run(["node", "-e", NODE_RUN, str(ROOT / "_static" / "variants.js"),
                          str(Path(__file__).with_name("identifiers.json"))],
                         capture_output=True, text=True, encoding="utf-8", check=True, timeout=60)
    got = json.loads(out.stdout)
    for case, (normal, index) in zip(TABLE["cases"], got, strict=True):
        assert (normal, index) == (case["normal"], case["index"]), case
