"""What the exercise tests share (tests/show/test_exercises.py, in Python, and test_exercises_browser.py, in Chromium).

- PAGES: page label → how the page's exercise sheet is built from the course, for every page module that has one
  (`roofline.show.pages.<stem>.exercises`), in the book's order. Nothing is listed by hand: the label is the page's
  own `(label)=`, the problem its parameter cell's `:params:` (`week4` → `course.week4`).
- PROBLEM: page label → the problem its parameter cell sets (`week4`, `week3`): the page's own conditions.
- CONFUSED: a unit and the unit a reader mistakes it for.
- sig(x, k): x as a reader types it with k significant digits.
- mistake_vectors(q): each common mistake the question names, as a reader types it, with its kind.
"""
from __future__ import annotations

import importlib
import math
import re
from decimal import Decimal, localcontext
from fractions import Fraction
from pathlib import Path

from conftest import CHAPTERS
from roofline.show import pages
from site_pages import toc_pages


def _sheets() -> dict:
    found = {}
    for docname in toc_pages():
        name = Path(docname).name
        if name not in pages.names():
            continue
        module = importlib.import_module(f"roofline.show.pages.{name}")
        if not hasattr(module, "exercises"):
            continue
        md = (CHAPTERS / f"{name}.md").read_text(encoding="utf-8")
        label = re.search(r"^\((ch-[\w-]+)\)=$", md, re.M)[1]
        problem = re.search(r"^:params: (\w+)$", md, re.M)[1]
        found[label] = lambda course, make=module.exercises, problem=problem: make(getattr(course, problem))
        PROBLEM[label] = problem
    return found


PROBLEM: dict[str, str] = {}   # page label → the problem of its parameter cell ("week4", "week3")
PAGES = _sheets()   # page label → how its exercises are built from the course
CONFUSED = {"GB": "GiB", "KiB": "KB", "Byte": "KiB", "ms": "s", "TFLOPs/s": "GFLOPs/s", "FLOPs": "GFLOPs", "TOPS": "OPs/s",
            "OPs": "GOPs"}


def sig(x, k: int) -> str:
    """x written with k significant digits, rounded half up: plainly ("17.25"), or with an exponent when a
    whole number would end in zeros that the rule does not count ("5.50e2", not "550")."""
    x = Fraction(x)
    if x == 0:
        return "0"
    with localcontext() as ctx:
        ctx.prec = 60
        d = Decimal(x.numerator) / Decimal(x.denominator)
        exp = math.floor(d.copy_abs().log10())
        text = format(d.quantize(Decimal(1).scaleb(exp - k + 1), rounding="ROUND_HALF_UP"), "f")
        if "." not in text and text.endswith("0"):
            text = format(d, f".{k - 1}e")
        return text


def mistake_vectors(q) -> list[tuple[str, str]]:
    """(typed, kind) for each mistake q keeps: a choice's key; an integer answer's whole number; else the mistake's
    value with 12 significant digits (right to its last digit, so the judge must name that mistake)."""
    out = []
    for m in q.mistakes:
        if q.is_choice:
            out.append((m.value, m.kind))
            continue
        value = Fraction(m.value) / q.unit.size
        out.append((str(value) if q.exact else sig(value, 12), m.kind))
    return out
