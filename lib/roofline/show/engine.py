"""The explorers' engine: the generic part of a state, and the live mode's entry point.

A state of a chapter's explorer is a pure function of the chapter's problem object; each lives in its page's module
(`roofline.show.pages.<page>`: `roofline_state`, `kernel_state` in ②, `tile_state` in ④, `matmul_state` in ⑤,
`vector_state` in the week-3 note), with the page's live form (`LIVE`: its fields and the state of what the reader
typed). The build and the page call the same functions. `roofline.show.explorer` precomputes the states a control
can reach with them and renders them to HTML; the page's live mode (Pyodide in the reader's browser,
_static/live.js) calls `live(form, values)` here with whatever the reader typed (the form's key names its page
module: "w4_2_roofline:roofline"), which imports only that form's page module, and places the result with the same
script. A state is plain data: texts formatted by `fmt`, words from `ko`, float coordinates for the plots (floats
only for plotting). This module, and what the live mode imports of a
page module, import neither matplotlib, IPython nor NumPy.

    state = {"fields": {name: text},            # a <span data-rl-field=name> shows text
             "widths": {name: "37.5%"},         # a bar's length
             "flags": {name: bool},             # class rl-NAME on the explorer
             "tables": {name: {"align": "lrr", "rows": [[text, …], …]}},
             "plots": {name: {"x", "y", "xticks", "yticks", "xrange", "yrange", "marks", "aria",
                              "series"?, "legend"?}}}
"""
from __future__ import annotations

import ast
import importlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from roofline.errors import ParameterError
from roofline.params import cell_fields
from roofline.show import fmt
from roofline.show.palette import CASE_COLORS

TERA = 10**12


# ---------------------------------------------------------------- small helpers

def keep(text: str) -> str:
    """No-break spaces: a table cell such as "T = 32" does not wrap inside."""
    return text.replace(" ", "\u00a0")


def coord(x) -> float:
    """A coordinate for the plot (floats only for plotting), 6 significant digits."""
    return float(f"{float(x):.6g}")


def log_ticks(lo, hi) -> list[list]:
    """Tick positions and labels on a log axis between lo and hi: powers of ten (1-2-5 when fewer than 3)."""
    lo, hi = Fraction(lo), Fraction(hi)
    first, last = math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 1
    for steps in ((1,), (1, 2, 5)):
        ticks = []
        for k in range(first, last + 1):
            for m in steps:
                value = m * Fraction(10) ** k
                if lo <= value <= hi:
                    ticks.append([coord(value), fmt.number(value, max(0, -k))])
        if len(ticks) >= 3:
            break
    return ticks


def tile_ticks(Ts: list[int]) -> list[list]:
    """Every tile side on the axis, every other one when there are many (a phone is narrow)."""
    step = 1 if len(Ts) <= 6 else 2
    return [[T, fmt.integer(T)] for T in Ts[::step]]


def check_colours(cases, key: str = "tiles") -> None:
    """The explorer's plot has one colour per case (the figures' colours)."""
    if len(cases) > len(CASE_COLORS):
        raise ParameterError(f"{key}: 조건 탐색기는 타일을 {len(CASE_COLORS) - 1}개까지 비교한다. 받은 값: {len(cases) - 1}개")


# ---------------------------------------------------------------- live mode: what the reader typed

def cell_value(text):
    """What the reader typed in a field, read as a parameter cell's literal: 3000, 100_000_000, [40, 75], 1/4,
    "H100_SXM" or H100_SXM. Whatever is not a literal stays text (the problem's check then names the field)."""
    text = str(text).strip()
    if "/" in text and "[" not in text:
        try:
            return Fraction(text.replace("_", ""))
        except (ValueError, ZeroDivisionError):
            return text
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return text
    return value


@dataclass(frozen=True)
class Form:
    """A page's live form: the problem whose parameters it takes (`table`: "week4", "week3"), its fields in order
    (`items`: a parameter's name, or (name, Korean label) for a field of the page's own: a chosen T, a multiplier)
    and its state for the values read from them (`state(course, values)`, values: name → `cell_value`). A
    parameter's label is its field table's description, which its parameter cell line says too
    (`params.cell_fields`), and its first value the chapter's (`explorer.live_form`)."""

    table: str
    items: tuple
    state: Callable
    texts: tuple = ()   # fields whose text is passed as it is (a pasted file), not read as a literal

    @property
    def fields(self) -> tuple[tuple[str, str], ...]:
        """(name, label) of every field, in order."""
        known = cell_fields(self.table)
        return tuple((item, known[item].about) if isinstance(item, str) else tuple(item) for item in self.items)

    @property
    def parameters(self) -> tuple[str, ...]:
        """The fields that are the problem's parameters (parameter cell variables)."""
        return tuple(item for item in self.items if isinstance(item, str))

    def names(self) -> set[str]:
        return {name for name, _ in self.fields}


def forms() -> tuple[str, ...]:
    """Every live form's key, "<page module>:<form>" ("w4_2_roofline:roofline"), in page order: each page module
    that declares `LIVE` (the folder is the list). Imports every page module: for the build and the tests. The page
    writes the key of its form (`explorer.live_form`), and its live mode imports that one module."""
    from roofline.show import pages

    found = []
    for name in pages.names():
        module = importlib.import_module(f"roofline.show.pages.{name}")
        found += [f"{name}:{form}" for form in getattr(module, "LIVE", {})]
    return tuple(found)


def key(page: str) -> str:
    """The form's key, "<page module>:<form>", for a key or a form's name alone ("roofline")."""
    if ":" in page:
        return page
    found = [k for k in forms() if k.split(":", 1)[1] == page]
    if len(found) != 1:
        raise ValueError(f"page: {page!r}")
    return found[0]


def form(page: str) -> Form:
    """The live form `page` ("w4_2_roofline:roofline", or its name alone), from its page module."""
    module, _, name = key(page).partition(":")
    if not module.isidentifier():
        raise ValueError(f"page: {page!r}")
    try:
        return importlib.import_module(f"roofline.show.pages.{module}").LIVE[name]
    except (ImportError, AttributeError, KeyError):
        raise ValueError(f"page: {page!r}") from None


def live_state(page: str, course, values: dict) -> dict:
    """The state of `page`'s explorer for the typed `values` (field → text), starting from the course's problem."""
    f = form(page)
    return f.state(course, {name: values[name] if name in f.texts else cell_value(values[name])
                            for name, _ in f.fields if name in values})


def error_field(message: str, page: str) -> str | None:
    """The field a ParameterError names (its message starts with the key: "tiles: …")."""
    key = message.split(":", 1)[0].strip()
    return key if key in form(page).names() else None


_COURSE = []


def live(page: str, values_json: str, course=None) -> str:
    """What the page's script calls: the state as JSON with the records of its numbers (`why.pooled`: the panel of a
    number shows the typed values), or the Korean ParameterError and the field it names. `course`: the parameters
    the typed values start from (the page's: the course.toml it was built with)."""
    if course is None:
        if not _COURSE:
            from roofline.params import load
            _COURSE.append(load())
        course = _COURSE[0]
    values = json.loads(values_json)
    try:
        state = live_state(page, course, values)
    except ParameterError as error:
        return json.dumps({"error": str(error), "field": error_field(str(error), page)}, ensure_ascii=False)
    from roofline.show import why

    pool: dict = {}
    state = why.pooled(state, pool, TYPED)
    return json.dumps({"state": state, "why": pool}, ensure_ascii=False)


TYPED = {"cell": "typed"}   # the live mode's inputs: what the reader typed (a changed value), or the file's
