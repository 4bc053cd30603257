"""Explorers: the reader changes the conditions on the page itself (②, ④, ⑤, the week-3 note, ②'s "내 커널").

This module is the generic part: the `Explorer` a chapter glues and the HTML pieces it is built of (controls, fields,
tables, plot areas, legends, the live form, the wrapper holding every state). Each explorer itself lives in its
page's module (`roofline.show.pages.<page>`: `roofline_explorer` and `kernel_explorer` in ②, `tile_explorer` in ④,
`matmul_explorer` in ⑤, `vector_explorer` in the week-3 note): it takes the chapter's problem (`Week4`, `Week3`),
computes EVERY state the controls can reach with the page's state functions (texts formatted by `fmt`, words from
`ko`, float coordinates; see `roofline.show.engine`), and returns an `Explorer` for `glue`:

- on the site (book build), its HTML: the form controls (hidden until the page's script runs), the
  values of the chapter's own condition already filled in (what a reader without JavaScript, a printer
  or a PDF sees), an empty plot area, and a `<script type="application/json">` holding every state;
  the page's script (_static/explorer.js) only picks the state that the controls name, copies its
  strings into the page and hands its float coordinates to the plotting library (no model arithmetic);
  the live mode (_static/live.js) runs the same engine in the page (Pyodide) for values no state has;
- elsewhere (Colab, Jupyter, the .ipynb editions), its Markdown: a note that the controls live on the
  site and the table of the chapter's own condition.

Data layout (read by explorer.js and live.js; the site's build moves large `states` into a JSON file of their own that
explorer.js fetches, tools/coursebook/assets.py):
    {"controls": {name: {"kind": "select"|"range"|"radio", "options": [[key, label], …], "initial": key,
                         "depends": other, "allowed": {other_key: [key, …]}}},          # depends/allowed optional
     "parts": [{"on": [control, …], "states": {"k1|k2": state}}],                         # state: see engine
     "plots": {name: {"series": [{"color": …, "width": …, "dash": […], "points": size, "line": bool}],
                      "xlabel": …, "ylabel": …}},     # a state's plot may carry its own series, legend, xlabel, ylabel
     "hash": {control: name in the page's address},               # optional: the state link
     "live": {"page": …, "fields": [[name, label, value], …]}}    # optional: the live mode's form
"""
from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass

from roofline.params import cell_fields
from roofline.show import engine, why


@dataclass(frozen=True)
class Explorer:
    """What a chapter glues: its record holds both HTML (the site shows it: controls, states, static fallback) and
    Markdown (the Colab edition's text and what a notebook shows, since the controls need the site's script)."""

    key: str
    html: str
    markdown: str
    states: int

    def _repr_html_(self):
        return self.html

    def _repr_markdown_(self):
        return self.markdown

    def __repr__(self):
        return f"<조건 탐색기 {self.key}: 상태 {self.states}개>"


# ---------------------------------------------------------------- small helpers

def _attr(text: str) -> str:
    return html.escape(str(text), quote=True)


def _json(data) -> str:
    """JSON for a <script> element: '</' cannot close it early."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def why_button(text: str, attrs: str = "") -> str:
    """A shown number that carries its record (`roofline.show.why.Shown`) as the button that opens its derivation
    (_static/why.js; the explorer's states name their entries, `why.pooled`); plain text otherwise."""
    if isinstance(text, why.Shown) and "parts" in text.why:   # a sentence: each of its numbers a button
        inner, at = [], 0
        for part in sorted(text.why["parts"], key=lambda p: p["at"]):
            start, end = part["at"], part["at"] + part["length"]
            number = why.Shown(text[start:end], {**part, "records": text.why["records"]})
            inner += [html.escape(text[at:start]), why_button(number)]
            at = end
        inner.append(html.escape(text[at:]))
        return f"<span{attrs}>{''.join(inner)}</span>" if attrs else "".join(inner)
    if not isinstance(text, why.Shown):
        return f"<span{attrs}>{html.escape(text)}</span>" if attrs else html.escape(text)
    return (f'<button type="button" class="rl-why" aria-expanded="false" data-why="{why.entry_id(text)}"{attrs}>'
            f"{html.escape(text)}</button>")


def field(name: str, text: str) -> str:
    return why_button(text, f' data-rl-field="{name}"')


def select(uid: str, name: str, label: str, options, initial, allowed=None) -> str:
    shown = allowed if allowed is not None else [key for key, _ in options]
    items = "".join(f'<option value="{_attr(key)}"{" selected" if key == initial else ""}>{html.escape(text)}</option>'
                    for key, text in options if key in shown)
    return (f'<div class="rl-control"><label for="{uid}-{name}">{html.escape(label)}</label>'
            f'<select id="{uid}-{name}" data-rl-control="{name}">{items}</select></div>')


def slider(uid: str, name: str, label: str, options, initial, allowed=None) -> str:
    shown = allowed if allowed is not None else [key for key, _ in options]
    labels = dict(options)
    index = shown.index(initial)
    return (f'<div class="rl-control rl-range"><label for="{uid}-{name}">{html.escape(label)}</label>'
            f'<input type="range" id="{uid}-{name}" data-rl-control="{name}" min="0" max="{len(shown) - 1}" '
            f'step="1" value="{index}" aria-valuetext="{_attr(labels[initial])}">'
            f'<output for="{uid}-{name}" data-rl-output="{name}">{html.escape(labels[initial])}</output></div>')


def radios(uid: str, name: str, label: str, options, initial) -> str:
    items = "".join(
        f'<label class="rl-radio"><input type="radio" name="{uid}-{name}" value="{_attr(key)}" '
        f'data-rl-control="{name}"{" checked" if key == initial else ""}> {html.escape(text)}</label>'
        for key, text in options)
    return f'<fieldset class="rl-control rl-radios"><legend>{html.escape(label)}</legend>{items}</fieldset>'


def table(headers, rows, align: str, fields) -> str:
    """An HTML table whose cells carry field names (`fields[r][c]`, None: a fixed cell)."""
    side = {"l": "text-left", "r": "text-right", "c": "text-center"}
    head = "".join(f'<th class="head {side[a]}">{html.escape(h)}</th>' for h, a in zip(headers, align))
    body = []
    for row, names in zip(rows, fields):
        cells = "".join(
            f'<td class="{side[a]}">{field(n, c) if n else why_button(c)}</td>' for c, n, a in zip(row, names, align))
        body.append(f"<tr>{cells}</tr>")
    table = f'<table class="table rl-table"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'
    return f'<div class="pst-scrollable-table-container">{table}</div>'   # scrolls in its own box, as the site's tables


def legend(items, name: str | None = None) -> str:
    """Static legend of a plot: (colour, dash?, text); a named one the page's script rewrites from a state's plot."""
    spans = "".join(
        f'<span class="rl-key"><span class="rl-swatch{" rl-dashed" if dashed else ""}" style="--rl-swatch: {color}">'
        f'</span>{html.escape(text)}</span>' for color, dashed, text in items)
    named = f' data-rl-legend="{name}"' if name else ""
    return f'<p class="rl-legend"{named} hidden>{spans}</p>'


def plot(uid: str, name: str, aria: str) -> str:
    return f'<div class="rl-plot" data-rl-plot="{name}" id="{uid}-plot-{name}" role="img" aria-label="{_attr(aria)}" hidden></div>'


def with_records(data: dict, renames: dict | None = None) -> dict:
    """The explorer's data with every state's numbers as plain texts naming their entries, and the entries and
    records of all its states in `data["why"]` (`why.pooled`; the site's build moves them to a file of their own,
    fetched when a panel first opens). An input that a control changed from the chapter's problem is the control's
    ("cell:N" → "control:N": a new record, so `renames` gets each entry's id before → after)."""
    pool: dict = {}
    parts = [{**part, "states": {k: why.pooled(s, pool, CONTROL, renames) for k, s in part["states"].items()}}
             for part in data["parts"]]
    return {**data, "parts": parts, **({"why": pool} if pool else {})}


CONTROL = {"cell": "control"}


_BUTTON_ID = re.compile(r'data-why="(e-[0-9a-f]+)"')


def wrap(uid: str, intro: str, controls: str, body: str, data: dict) -> str:
    renames: dict = {}
    data = with_records(data, renames)
    body = _BUTTON_ID.sub(lambda m: f'data-why="{renames.get(m.group(1), m.group(1))}"', body)   # (`with_records`)
    return (
        f'<div class="rl-explorer" id="{uid}" data-rl-explorer>'
        f'<p class="rl-intro">{intro}</p>'
        f'<form class="rl-controls" hidden onsubmit="return false">{controls}</form>'
        f'<noscript><p class="rl-note">JavaScript를 켜면 이 자리에서 조건을 바꿔 볼 수 있다. '
        f'지금 보이는 값은 이 장의 조건에서 계산한 것이다.</p></noscript>'
        f'{body}'
        f'<script type="application/json" class="rl-data">{_json(data)}</script>'
        f'</div>'
    )


def markdown(note: str, table) -> str:
    return f"> **조건 바꿔 보기.** {note}\n\n{table.data}"


def count(data: dict) -> int:
    return max(len(part["states"]) for part in data["parts"])


# ---------------------------------------------------------------- the live form, tables a state rewrites

def _literal(value) -> str:
    """A parameter cell's value as the live form shows it: 4096, 100_000_000, [32, 64, 128], H100_SXM."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_literal(v) for v in value) + "]"
    if isinstance(value, int) and not isinstance(value, bool) and value >= 100_000:
        return f"{value:_}"
    return str(value)


def live_form(page: str, problem, **own) -> dict:
    """The live mode's form: the page's fields (name, label, first value): a parameter's value is the chapter's
    (`problem`'s), a field of the page's own takes its value from `own`."""
    key = engine.key(page)
    form = engine.form(key)
    known = cell_fields(form.table)
    values = {**{name: known[name].of(problem) for name in form.parameters}, **own}
    return {"page": key, "fields": [[name, label, _literal(values[name])] for name, label in form.fields
                                    if name in values]}


def rows_table(name: str, headers, table: dict) -> str:
    """A table whose body the page's script rewrites from a state's `tables[name]` (the row count may change)."""
    side = {"l": "text-left", "r": "text-right", "c": "text-center"}
    align = table["align"]
    head = "".join(f'<th class="head {side[a]}">{html.escape(h)}</th>' for h, a in zip(headers, align))
    body = "".join("<tr>" + "".join(f'<td class="{side[a]}">{why_button(c)}</td>' for c, a in zip(row, align)) + "</tr>"
                   for row in table["rows"])
    return (f'<div class="pst-scrollable-table-container"><table class="table rl-table"><thead><tr>{head}</tr></thead>'
            f'<tbody data-rl-table="{name}">{body}</tbody></table></div>')
