"""Accessibility fixes of the built pages (axe-core checks them in tests/book/test_site_browser.py):

- a wide table scrolls inside the theme's `pst-scrollable-table-container`; that box becomes a named
  region that takes keyboard focus (`tabindex="0"`, `role="region"`, `aria-label="표 n: 첫 줄의 칸들"`),
  so a keyboard reader can scroll it; code boxes (`<pre>`) and display formulas (`div.math`) get the same
  tab stop (`tabindex="0"`): a box is reachable until `_static/scroll-focus.js` has seen it fit (it checks a
  box once the browser has laid it out near the viewport, instead of the theme's script laying out the
  whole page at load to check them all);
- the bibliography's entries are list items of their `role="list"` (docutils marks them with
  `doc-biblioentry`, a deprecated role that a list may not contain);
- the logo at the top of the left sidebar (a link to the first page) sits in a named `<nav>`, so no
  content of the page is outside a landmark (the theme's hidden top bar already is the `<header>`).

Site tooling: `import roofline` does not import this module.
"""
from __future__ import annotations

import html
import re

_CONTAINER = '<div class="pst-scrollable-table-container">'
_TABLE = re.compile(re.escape(_CONTAINER) + r"(\s*<table\b.*?</table>)", re.S)
_HEAD_ROW = re.compile(r"<thead>.*?<tr[^>]*>(.*?)</tr>", re.S)
_FIRST_ROW = re.compile(r"<tr[^>]*>(.*?)</tr>", re.S)
_CELL = re.compile(r"<t[hd]\b[^>]*>(.*?)</t[hd]>", re.S)
_CAPTION = re.compile(r"<caption\b[^>]*>(.*?)</caption>", re.S)
_TAG = re.compile(r"<[^>]+>")
_MATH = re.compile(r"<math\b[^>]*\balttext=\"([^\"]*)\"[^>]*>.*?</math>", re.S)
LABEL_LIMIT = 80


def _text(fragment: str) -> str:
    fragment = _MATH.sub(lambda m: " " + m.group(1) + " ", fragment)   # a formula reads as its TeX
    return re.sub(r"\s+", " ", html.unescape(_TAG.sub(" ", fragment))).strip()


def table_label(table: str, number: int) -> str:
    """'표 n: …' from the table's caption, or else its header cells (its first row)."""
    caption = _CAPTION.search(table)
    if caption and _text(caption.group(1)):
        words = _text(caption.group(1))
    else:
        row = _HEAD_ROW.search(table) or _FIRST_ROW.search(table)
        cells = [_text(c) for c in _CELL.findall(row.group(1))] if row else []
        words = ", ".join(c for c in cells if c)
    label = f"표 {number}: {words}" if words else f"표 {number}"
    if len(label) > LABEL_LIMIT:
        label = label[:LABEL_LIMIT].rsplit(" ", 1)[0].rstrip(",") + " …"
    return label


def focusable_tables(body: str) -> str:
    counter = iter(range(1, 10_000))

    def region(match):
        label = html.escape(table_label(match.group(1), next(counter)), quote=True)
        return (f'<div class="pst-scrollable-table-container" tabindex="0" role="region" '
                f'aria-label="{label}">' + match.group(1))

    return _TABLE.sub(region, body)


_BOX = re.compile(r'<(pre(?=[\s>])|div class="math[^"]*")(?![^>]*\btabindex=)')


def focusable_boxes(body: str) -> str:
    """`<pre>` and display-formula boxes with a tab stop (scroll-focus.js drops it where the box fits)."""
    return _BOX.sub(lambda m: f'<{m.group(1)} tabindex="0"', body)


def bibliography_roles(body: str) -> str:
    return body.replace('role="doc-biblioentry"', 'role="listitem"')


def page_context(app, pagename, templatename, context, doctree) -> None:
    if "body" in context:
        context["body"] = bibliography_roles(focusable_boxes(focusable_tables(context["body"])))
    sidebars = context.get("sidebars")
    if sidebars:
        context["sidebars"] = ["sidebar-logo.html" if s == "navbar-logo.html" else s for s in sidebars]


def logo_alt(app, config) -> None:
    """The logo's alt text in Korean, naming the course (the theme writes '<project> - Home', and Jupyter Book
    sets the book's title as `html_title`, not as `project`)."""
    options = dict(config.html_theme_options or {})
    logo = dict(options.get("logo") or {})
    logo.setdefault("alt_text", f"{config.html_title or config.project} 첫 페이지")
    options["logo"] = logo
    config.html_theme_options = options


def setup(app):
    app.connect("config-inited", logo_alt)
    app.connect("html-page-context", page_context)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
