"""Numbers marked where they are made. A glued value that `roofline.show.why` made carries its record in the glue
bundle (WHY_MIME: one number's, a sentence's parts, a table's cells by row and column, a text diagram's parts). The
glue roles and directive below are myst-nb's own (`{glue:text}`, `{glue:md}`), registered again in myst-nb's `glue`
domain with Sphinx's public `add_role_to_domain` / `add_directive_to_domain`: each lets myst-nb paste its nodes, then
reads the key's bundle (`retrieve_glue_data`, as myst-nb's roles do) and splits the pasted text at the numbers `why.*`
made into `number` nodes that hold the number's entry and records. The gate's rule (`derivations.gate`) is read on the
same bundle, and its result stays in the page's doctree (`gate`).

`NumberButtons` (a post-transform, HTML only) numbers the page's `number` nodes in document order; the HTML visitor
writes each as the disclosure button `_static/why.js` opens (`<button class="rl-why" data-why="i">`), and a text
diagram as the highlighted block Pygments writes for plain text, its numbers buttons. Other builders read a
`number` as an inline and a `block` as a literal block. No rendered HTML is searched."""
from __future__ import annotations

import functools
import tomllib
from pathlib import Path

from docutils import nodes
from myst_nb.core.variables import RetrievalError
from myst_nb.ext.glue.directives import PasteMarkdownDirective
from myst_nb.ext.glue.roles import PasteMarkdownRole, PasteTextRole
from myst_nb.ext.glue.utils import retrieve_glue_data
from sphinx.transforms.post_transforms import SphinxPostTransform

from coursebook import derivations as rules

GATE = "rl-why-gate"   # the doctree's attribute: the gate's result for each glued value (`gate`)


class number(nodes.inline):   # noqa: N801 (a docutils node class is named as its visitor's methods)
    """A number `why.*` made: its text, `entry` (the panel's fields and the records it cites), `index` (its button)."""


class block(nodes.literal_block):   # noqa: N801
    """A text diagram whose numbers are `number` nodes (`language`: its code block's)."""


@functools.lru_cache(maxsize=4)
def _names(path: str, stamp: float) -> tuple[str, ...]:
    return tuple(rules.preset_names(tomllib.loads(Path(path).read_text(encoding="utf-8"))))


def preset_names(document) -> tuple[str, ...]:
    """The presets' names of the course.toml in force (a number inside one is a name's)."""
    path = rules.course_file(Path(document.settings.env.srcdir))
    return _names(str(path), path.stat().st_mtime)


def bundle(document, key: str) -> dict | None:
    """The mime bundle glued as `key` on this page (myst-nb's glue data), None when there is none."""
    try:
        return retrieve_glue_data(document, key).data
    except RetrievalError:
        return None


def split(text: str, record: dict | None) -> list[nodes.Node]:
    """`text` as Text and `number` nodes, a number for each piece `why.*` made (derivations.pieces)."""
    out = []
    for piece, found in rules.pieces(text, record):
        if found is None:
            out.append(nodes.Text(piece))
        else:
            made = number(piece, piece)
            made["entry"] = found
            out.append(made)
    return out


def gated(document, key: str, kind: str, data: dict, line: int | None) -> None:
    """Keep the gate's result for glued value `key` (`derivations.gate`) in the page's doctree, in reading order."""
    count, missing, unmarked, labels = rules.gate(kind, data, preset_names(document))
    document.setdefault(GATE, []).append({"key": key, "line": line, "marked": count, "missing": missing,
                                          "unmarked": unmarked + rules.not_names(labels),
                                          "labels": labels, "records": rules.carried(data) if labels else {}})


class MarkedText(PasteTextRole):
    """`{glue:text}`: myst-nb's pasted text, its numbers marked."""

    def run(self):
        made, messages = super().run()
        key = self.text.rsplit(":", 1)[0] if ":" in self.text else self.text
        data = bundle(self.document, key)
        if data is None or len(made) != 1 or not isinstance(made[0], nodes.inline):
            return made, messages
        pasted = made[0]
        record = data.get(rules.WHY_MIME)
        text = pasted.astext()
        if record is not None and text == pasted.rawsource:
            pasted.children = []
            pasted.extend(split(text, record))
        gated(self.document, key, "text", data, self.line)
        return made, messages


class MarkedMarkdownRole(PasteMarkdownRole):
    """`{glue:md}` in a sentence: Markdown carries no record; the gate refuses any number in it (`unmarked`)."""

    def run(self):
        made, messages = super().run()
        key = self.text.rsplit(":", 1)[0] if ":" in self.text else self.text
        data = bundle(self.document, key)
        if data is not None:
            gated(self.document, key, "mdrole", data, self.line)
        return made, messages


class MarkedMarkdown(PasteMarkdownDirective):
    """```{glue:md}```: a table's cells and a text diagram's numbers that `why.*` made, marked."""

    def run(self):
        made = super().run()
        key = self.arguments[0]
        data = bundle(self.document, key)
        if data is None:
            return made
        record = data.get(rules.WHY_MIME) or {}
        if "block" in record:
            made = [self.diagram(node, record["block"]) for node in made]
        elif "cells" in record:
            self.cells(made, rules.cell_records(record))
        gated(self.document, key, "md", data, self.line)
        return made

    @staticmethod
    def diagram(node: nodes.Node, record: dict) -> nodes.Node:
        """The glued code block as a `block`, its numbers marked."""
        if not isinstance(node, nodes.literal_block):
            return node
        code = node.astext().rstrip("\n")   # (the block's own text ends with a line break: the visitor writes it)
        made = block(code, "", *split(code, record), language=node.get("language", "text"))
        made.source, made.line = node.source, node.line
        return made

    @staticmethod
    def cells(made: list[nodes.Node], records: dict) -> None:
        """Each body cell (row, column) of the glued table that `why.*` made, marked in its paragraph."""
        for top in made:
            for body in top.findall(nodes.tbody):
                for i, row in enumerate(body.findall(nodes.row)):
                    for j, cell in enumerate(row.findall(nodes.entry)):
                        found = records.get((i, j))
                        paragraphs = list(cell.findall(nodes.paragraph))
                        if found is None or len(paragraphs) != 1 or paragraphs[0].astext() != found["cell"]:
                            continue
                        paragraphs[0].children = []
                        paragraphs[0].extend(split(found["cell"], found))


class NumberButtons(SphinxPostTransform):
    """Number the page's marked numbers in document order: a button's `data-why` is its place in the page's list;
    on a page with numbers, the parameter cell is `#rl-params`."""

    default_priority = 900
    formats = ("html",)

    def run(self, **kwargs) -> None:
        for index, node in enumerate(self.document.findall(number)):
            node["index"] = index
            if index == 0:   # the parameter cell: where a "cell:" input's link goes (why.js: #rl-params)
                cell = next(self.document.findall(lambda n: isinstance(n, nodes.container)
                                                  and "tag_parameters" in n["classes"]), None)
                if cell is not None:
                    cell["ids"].append("rl-params")


def numbers(doctree) -> list[number]:
    """The page's marked numbers, in the order of their buttons."""
    return list(doctree.findall(number))


def gate(doctree) -> list[dict]:
    """The gate's result for each glued value of the page, in reading order: key, source line, how many numbers
    `why.*` made in it, the numbers without a derivation and the numbers in its words no `why.*` made (both stop the
    build), the labels `why.label` and `why.name` made (text, origin: their origins are checked)."""
    return doctree.get(GATE, [])


def visit_number(self, node: number) -> None:
    self.body.append(f'<button type="button" class="rl-why" aria-expanded="false" data-why="{node["index"]}">')


def depart_number(self, node: number) -> None:
    self.body.append("</button>")


def visit_block(self, node: block) -> None:
    """A text diagram as Pygments writes plain text (`<div class="highlight-text notranslate"><div class="highlight">
    <pre><span></span>…`), its numbers buttons."""
    self.body.append(self.starttag(node, "div", suffix="", CLASS=f"highlight-{node['language']} notranslate")
                     + '<div class="highlight"><pre><span></span>')


def depart_block(self, node: block) -> None:
    self.body.append("\n</pre></div>\n</div>\n")


def setup(app) -> None:
    app.setup_extension("myst_nb")   # its glue domain first: these are registered into it
    app.add_node(number, html=(visit_number, depart_number))
    app.add_node(block, html=(visit_block, depart_block))
    app.add_role_to_domain("glue", "text", MarkedText(), override=True)
    app.add_role_to_domain("glue", "md", MarkedMarkdownRole(), override=True)
    app.add_directive_to_domain("glue", "md", MarkedMarkdown, override=True)
    app.add_post_transform(NumberButtons)
