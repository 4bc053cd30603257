"""The one evaluator of the course's notation in the tests, independent of the library: a formula with its numbers
put in ("2·4·4,096³/32 + 4·4,096²", "max(6.871948 ms, 549.822923 ms)", "⌈4,096/(4·128)⌉") evaluated exactly with
Fraction. Numbers with thousands separators and decimals, + − · × /, superscript powers (10¹², 10⁻³), ⌊ ⌋ ⌈ ⌉,
min(…), max(…), parentheses; a trailing unit " ms" is read as given (the caller knows the scale). The derivation
panels (tests/show/test_why.py) and the worked solutions (tests/show/test_exercises.py) both use it."""
from __future__ import annotations

import re
from fractions import Fraction

_TOKEN = re.compile(r"\s*(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|min|max|[+−·×/(),⌊⌋⌈⌉]|[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)")
_SUP = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")
_UNIT = re.compile(r"\s*ms\b")


def tokens(text: str) -> list[str]:
    out, at = [], 0
    text = _UNIT.sub("", text).strip()
    while at < len(text):
        m = _TOKEN.match(text, at)
        if not m:
            raise ValueError(f"not evaluable at {text[at:]!r}")
        out.append(m.group(1))
        at = m.end()
    return out


def evaluate(text: str) -> Fraction:
    """The exact value of `text` in the course's notation."""
    toks = tokens(text)
    at = 0

    def peek():
        return toks[at] if at < len(toks) else None

    def take(expected=None):
        nonlocal at
        tok = toks[at]
        if expected is not None and tok != expected:
            raise ValueError(f"expected {expected!r}, got {tok!r} in {text!r}")
        at += 1
        return tok

    def atom() -> Fraction:
        tok = take()
        if tok in ("min", "max"):
            take("(")
            args = [expr()]
            while peek() == ",":
                take(",")
                args.append(expr())
            take(")")
            value = (min if tok == "min" else max)(args)
        elif tok == "(":
            value = expr()
            take(")")
        elif tok in ("⌊", "⌈"):   # a whole division: floor, ceiling
            inner = expr()
            take("⌋" if tok == "⌊" else "⌉")
            value = Fraction(inner.__floor__() if tok == "⌊" else inner.__ceil__())
        else:
            value = Fraction(tok.replace(",", ""))
        if peek() and peek()[0] in "⁻⁰¹²³⁴⁵⁶⁷⁸⁹":
            value = value ** int(take().translate(_SUP))
        return value

    def product() -> Fraction:
        value = atom()
        while peek() in ("·", "×", "/"):
            value = value / atom() if take() == "/" else value * atom()
        return value

    def expr() -> Fraction:
        value = product()
        while peek() in ("+", "−"):
            value = value + product() if take() == "+" else value - product()
        return value

    value = expr()
    if at != len(toks):
        raise ValueError(f"left over {toks[at:]} in {text!r}")
    return value
