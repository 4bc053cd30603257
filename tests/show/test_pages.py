"""roofline.show.pages (its __init__: the registry of page modules) as a checked interface; no build.

- The registry: every page of _toc.yml that glues a value has its module `roofline.show.pages.<stem>`, and every
  module is a page of the book, so a new chapter cannot escape the checks that loop over `pages.names()`.
- Every page has its test file tests/pages/test_<stem>.py (the checks every page has are in
  tests/pages/test_every_page.py, over `pages.names()`), and every glued page has its golden file
  tests/golden/<stem>.yaml.
- Every module of the library says what it does (its docstring), where a contributor reads it; no test reads
  the README's prose.
"""
from __future__ import annotations

from conftest import ROOT
from golden_values import GOLDEN, glued_pages
from roofline.show import pages

SHOW = ROOT / "lib" / "roofline" / "show"


def printed_by(code: str) -> list[str]:
    """What `code` prints, word by word, run in a fresh interpreter (where no IPython shell has started yet)."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_the_registry_is_the_books_pages_that_glue():
    assert sorted(pages.names()) == sorted(glued_pages())
    for name in pages.names():
        assert (ROOT / pages.source(name)).is_file()


def test_importing_the_registry_imports_no_page():
    code = ("import sys, roofline.show.pages as p; p.names(); "
            "print(sorted(m for m in sys.modules if m.startswith('roofline.show.pages.')))")
    assert printed_by(code) == ["[]"]


def test_every_glued_page_has_a_golden_file():
    assert sorted(p.stem for p in GOLDEN.glob("*.yaml")) == sorted(glued_pages())


def test_every_page_has_its_test_file():
    files = sorted(p.stem.removeprefix("test_") for p in (ROOT / "tests" / "pages").glob("test_*.py"))
    assert files == sorted([*pages.names(), "every_page"]), "tests/pages/ holds one test_<page>.py per page module"


def test_every_module_says_what_it_does():
    import ast

    modules = [*(ROOT / "lib" / "roofline").rglob("*.py"), *(ROOT / "tools" / "coursebook").glob("*.py")]
    assert [str(p.relative_to(ROOT)) for p in modules if not ast.get_docstring(ast.parse(p.read_text(encoding="utf-8")))] == []


def test_importing_roofline_show_changes_nothing_outside_it():
    """In an IPython shell, `import roofline.show` installs no exception handler; the chapter's first cell calls
    short_parameter_errors(), and then a bad parameter is shown as its one Korean line."""
    code = ("from IPython.core.interactiveshell import InteractiveShell\n"
            "shell = InteractiveShell.instance()\n"
            "import roofline.show\n"
            "from roofline.show import glue\n"
            "print(shell.custom_exceptions)\n"
            "roofline.show.short_parameter_errors()\n"
            "from roofline.errors import ParameterError\n"
            "print(shell.custom_exceptions == (ParameterError,))\n")
    assert printed_by(code) == ["()", "True"]


def test_a_record_made_outside_a_notebook_starts_no_shell():
    """Outside a notebook (`make check`, a test process) a glued value's record is made with a formatter of its own,
    the same display data a notebook's shell makes: a shell started here would keep an output cache, and every later
    in-process chapter run (coursebook.editions.recompute resets the shell) would flush it with a full garbage
    collection. In a shell, its own formatter is used."""
    code = ("from IPython.core.interactiveshell import InteractiveShell\n"
            "from roofline.show.glue import bundle\n"
            "class Table:\n"
            "    def __repr__(self): return 'Table'\n"
            "    def _repr_markdown_(self): return '| a |'\n"
            "    def _repr_html_(self): return '<table></table>'\n"
            "alone = bundle(Table())\n"
            "print(InteractiveShell.initialized())\n"
            "InteractiveShell.instance()\n"
            "print(bundle(Table()) == alone == {'text/plain': 'Table', 'text/markdown': '| a |', "
            "'text/html': '<table></table>'})\n")
    assert printed_by(code) == ["False", "True"]
