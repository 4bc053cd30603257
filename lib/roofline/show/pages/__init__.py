"""One module per page of the book: `roofline.show.pages.<stem>` holds the values, tables, sentences, explorer (its
states and live form), exercise sheet and figures of `chapters/<stem>.md`, each a function of the problem object the
chapter builds, returning what the page glues (`glue_page(page.setup(w3))`). The generic pieces they use (fmt, ko, tex,
tables, glue, style, the figure registry, the explorer's engine and HTML, the exercise judge) stay in `roofline.show`.

A page module with an explorer is imported by the page's live mode (Pyodide, `engine.form`): it imports nothing heavy
at the top (its figures import matplotlib, its equations IPython, when they are made).

The registry is this folder: `names()` lists the page modules without importing them (the page's live engine imports
only what it uses), and a page of the book's _toc.yml that glues a value must have its module here (tests/show/test_pages.py),
and every module its tests in tests/pages/test_<stem>.py.
"""
from __future__ import annotations

import pkgutil


def names() -> tuple[str, ...]:
    """The stems of the pages that have a module here ("w4_5_matmul", …), sorted."""
    return tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")))


def source(name: str) -> str:
    """The page's MyST source, relative to the repository: "chapters/w4_5_matmul.md"."""
    if name not in names():
        raise KeyError(f"no page module {name!r}; pages: {', '.join(names())}")
    return f"chapters/{name}.md"
