"""Per-page <meta name="description"> for every page (also pages added later), and Korean alt text
for the theme's launch-button logos (sphinx-book-theme's Korean catalog lacks "logo": alt="Colab logo"),
and no duplicated <script> (see `dedupe_scripts`).

The description is the page's "**한 줄 답.** …" paragraph without the label, or else its first
paragraph, cut to about 160 characters. A page that sets its own description (MyST front matter
`html_meta: {description: …}`) keeps it.
"""
from __future__ import annotations

import html
import re

from docutils import nodes

LIMIT = 160
_SKIP = (nodes.admonition, nodes.Admonition, nodes.literal_block, nodes.table, nodes.footnote,
         nodes.citation, nodes.field_list, nodes.definition_list, nodes.comment, nodes.raw)


def _paragraphs(doctree):
    for para in doctree.findall(nodes.paragraph):
        if any(isinstance(a, _SKIP) for a in _ancestors(para)):
            continue
        text = re.sub(r"\s+", " ", para.astext()).strip()
        if text:
            yield text


def _ancestors(node):
    node = node.parent
    while node is not None:
        yield node
        node = node.parent


def describe(doctree) -> str:
    """The description of one page (plain text)."""
    paras = list(_paragraphs(doctree))
    text = next((p for p in paras if p.startswith("한 줄 답")), paras[0] if paras else "")
    text = re.sub(r"^한 줄 답\.?\s*", "", text)
    if len(text) > LIMIT:
        cut = text[:LIMIT].rsplit(" ", 1)[0]
        text = cut.rstrip(",.·:;") + " …"
    return text


def add_description(app, pagename, templatename, context, doctree) -> None:
    metatags = context.get("metatags", "")
    if 'name="description"' in metatags:
        return
    text = describe(doctree) if doctree is not None else ""
    if not text:
        text = app.config.project
    context["metatags"] = metatags + f'\n<meta name="description" content="{html.escape(text, quote=True)}" />'


# words sphinx-book-theme's Korean catalog lacks or gets wrong ("By" → "으로" reads "으로 LLM 인프라 강의 팀")
KOREAN = {"logo": "로고", "By": "지은이:"}


def korean_theme_words(app, pagename, templatename, context, doctree) -> None:
    """Runs after sphinx-book-theme set `translate`: fill the words its Korean catalog lacks."""
    translate = context.get("translate")
    if translate is None or getattr(translate, "roofline", False):
        return

    def translate_ko(message, *args, **kwargs):
        return KOREAN.get(message) or translate(message, *args, **kwargs)

    translate_ko.roofline = True
    context["translate"] = translate_ko


def dedupe_scripts(app, pagename, templatename, context, doctree) -> None:
    """Drop repeated <script> entries: sphinx-thebe adds its inline `const THEBE_JS_URL = …` twice under
    Jupyter Book (same script, another priority), and the second declaration is a console error
    on every page."""
    seen, unique = set(), []
    for script in context.get("script_files", []):
        key = (str(getattr(script, "filename", script) or ""), repr(sorted(getattr(script, "attributes", {}).items())))
        if key not in seen:
            seen.add(key)
            unique.append(script)
    context["script_files"] = unique


def default_mode(app, config) -> None:
    """pydata-sphinx-theme reads the colour mode from localStorage or `default_mode`; with neither (a
    first visit) it logs "Got invalid theme mode" as a console error. "auto" follows the reader's OS."""
    context = dict(config.html_context or {})
    context.setdefault("default_mode", "auto")
    config.html_context = context


def setup(app):
    app.connect("config-inited", default_mode)
    app.connect("html-page-context", add_description)
    app.connect("html-page-context", dedupe_scripts, priority=900)
    app.connect("html-page-context", korean_theme_words, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
