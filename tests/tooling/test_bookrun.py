"""The chapters' runner (coursebook/bookrun.py): what its threads may import."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap


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
