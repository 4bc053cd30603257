"""The chapters' runner (coursebook/bookrun.py): what its threads may import, and a chapter's own timeout."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from coursebook import bookrun

ROOT = Path(__file__).resolve().parents[2]


def test_a_run_in_a_thread_imports_nothing_after_import_for_threads():
    """`ensure` runs chapters in threads while its `meanwhile` (the figures) imports in the main thread. Two threads
    importing one package from different ends can deadlock, and CPython then fails one import; so, once
    `import_for_threads` has run, a chapter's run must import no package (a fresh interpreter, a one-cell notebook)."""
    program = textwrap.dedent("""
        import json, sys
        import nbformat
        from coursebook import bookrun

        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("6 * 7")])
        bookrun.import_for_threads(bookrun.kernel_of(nb))
        before = set(sys.modules)
        bookrun.execute(nb, timeout=120)
        assert nb.cells[0].outputs[0]["data"]["text/plain"] == "42"
        print(json.dumps(sorted(set(sys.modules) - before)))
    """)
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True).stdout
    imported = json.loads(out.splitlines()[-1])
    # the codecs module a byte string's decoding looks up is the standard library's, not a package's
    assert [name for name in imported if not name.startswith("encodings.")] == []


def test_a_chapter_s_own_timeout_is_read_from_its_front_matter_as_myst_nb_reads_it(tmp_path):
    """`mystnb: execution_timeout` in a chapter's front matter (myst-nb's per-file setting) bounds its cells instead of
    _config.yml's `execute.timeout`; a value that is not a positive whole number of seconds is one Korean line naming
    the chapter (tests/flows/test_failures.py waits out a timed-out chapter's own, short timeout)."""
    source = (ROOT / "chapters" / "w4_summary.md").read_text(encoding="utf-8")
    assert source.startswith("---\n")
    md = tmp_path / "w4_summary.md"
    md.write_text(source, encoding="utf-8")
    assert bookrun.timeout_of(md, bookrun.book_notebook(md), 120) == 120
    for value, wanted in (("7", 7), ("0", None), ("-3", None), ("2.5", None), ("true", None), ("'9'", None)):
        md.write_text(f"---\nmystnb:\n  execution_timeout: {value}\n" + source[len("---\n"):], encoding="utf-8")
        nb = bookrun.book_notebook(md)
        if wanted is not None:
            assert bookrun.timeout_of(md, nb, 120) == wanted
            continue
        with pytest.raises(bookrun.ChapterFailed) as refused:
            bookrun.timeout_of(md, nb, 120)
        said = str(refused.value)
        assert "w4_summary.md" in said and "mystnb.execution_timeout" in said and "\n" not in said, said
