"""Exact values in LaTeX for the displayed equations (`{glue:math}`), built from the numbers, never from text.

    tex.integer(4096)          → "4{,}096"
    tex.power10(20 * 10**12)   → "20 \\times 10^{12}"
    tex.frac(Fraction(1, 12))  → "\\frac{1}{12}"          tex.frac("N", "4N+2") → "\\frac{N}{4N+2}"
    tex.exact_or_about(Fraction(1, 4))  → ("=", "0.25")   tex.exact_or_about(Fraction(1, 3)) → ("\\approx", "0.333333")
    tex.aligned(r"a &= b \\\\ &= c")    → Math: one equation of several short lines (they fit a phone)
"""
from __future__ import annotations

from fractions import Fraction

from roofline.show import fmt


def integer(n) -> str:
    """A whole number with thousands separators that LaTeX does not space out."""
    return fmt.integer(n).replace(",", "{,}")


def power10(x) -> str:
    """a × 10ⁿ (the mantissa as `fmt.power10` rounds it, the exponent a multiple of 3)."""
    mantissa, exponent = fmt.engineering(x)
    return rf"{fmt.number(mantissa, 3)} \times 10^{{{exponent}}}"


def frac(top, bottom=None) -> str:
    """\\frac{top}{bottom}; with one Fraction argument, its numerator over its denominator (a whole number as is)."""
    if bottom is None:
        x = Fraction(top)
        if x.denominator == 1:
            return str(x.numerator)
        top, bottom = x.numerator, x.denominator
    return rf"\frac{{{top}}}{{{bottom}}}"


def exact_or_about(x, digits: int = 6, most: int = 15) -> tuple[str, str]:
    """("=", every digit) when x is a terminating decimal of at most `most` places, else ("\\approx", `digits`)."""
    x = Fraction(x)
    d, twos, fives = x.denominator, 0, 0
    while d % 2 == 0:
        d, twos = d // 2, twos + 1
    while d % 5 == 0:
        d, fives = d // 5, fives + 1
    if d == 1 and max(twos, fives) <= most:
        return "=", fmt.number(x, most)
    return r"\approx", fmt.decimal(x, digits)


def aligned(latex: str):
    """Several display lines (separated by \\\\, aligned at &) as one equation to glue."""
    from IPython.display import Math

    return Math(r"\begin{aligned}" + latex + r"\end{aligned}")
