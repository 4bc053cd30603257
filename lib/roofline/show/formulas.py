"""The course's closed forms as text, written from the kernels' own derivations (`roofline.kernels`, whose `derive`
terms compute the values): the byte sizes put in, like terms added, and I = F/Q reduced.

    no reuse:  Q = 2·s_in·N³ + s_out·N²      → "8N³ + 4N²",     I → "N/(4N+2)"   in FP32
    T×T tiles: Q = 2·s_in·N³/T + s_out·N²    → "8N³/T + 4N²",   I → "NT/(4N+2T)"
    ideal:     Q = 2·s_in·N² + s_out·N²      → "12N²",          I → "N/6"
"""
from __future__ import annotations

import re
from fractions import Fraction
from math import gcd

from roofline import kernels

_SUP = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
_TO_SUP = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_FACTOR = re.compile(r"(\d+|s_in|s_out|s|N|T)([⁰¹²³⁴⁵⁶⁷⁸⁹]*)")


def _monomials(q, sizes: dict[str, int]) -> dict[tuple[int, int], Fraction]:
    """A kernel's formula (a sum of products such as 2·s·N³/T) as {(power of N, power of T): coefficient}, the
    element sizes put in and like terms added."""
    found: dict[tuple[int, int], Fraction] = {}
    for part in q.term.formula.split(" + "):
        c, a, b, divide = Fraction(1), 0, 0, False
        for factor in re.split(r"([·/])", part):
            if factor in "·/":
                divide = factor == "/"
                continue
            m = _FACTOR.fullmatch(factor)
            if m is None:
                raise ValueError(f"formulas: {factor!r} in {q.term.formula!r} is no factor of a matmul's cost")
            power = int(m[2].translate(_SUP) or 1) * (-1 if divide else 1)
            if m[1] == "N":
                a += power
            elif m[1] == "T":
                b += power
            else:
                c *= Fraction(sizes[m[1]] if m[1] in sizes else int(m[1])) ** power
        found[(a, b)] = found.get((a, b), 0) + c
    return found


def _written(c: Fraction, a: int, b: int) -> str:
    """c·Nᵃ·Tᵇ as the course writes it: "8N³/T", "NT", "4", "N"."""
    def sym(name, k):
        return "" if k == 0 else name + ("" if k == 1 else str(k).translate(_TO_SUP))
    top = sym("N", max(a, 0)) + sym("T", max(b, 0))
    bottom = sym("N", max(-a, 0)) + sym("T", max(-b, 0))
    coefficient = str(c) if c != 1 or not top else ""
    return coefficient + (top or ("" if coefficient else "1")) + (f"/{bottom}" if bottom else "")


def _cost(kind: str, s_in: int, s_out: int):
    """The kernel's cost (its derivations) at any N and T: the formulas do not depend on them."""
    return {"none": lambda: kernels.matmul_no_reuse(1, s_in, s_out), "tiled": lambda: kernels.matmul_tiled(1, 1, s_in, s_out),
            "ideal": lambda: kernels.matmul_ideal(1, s_in, s_out)}[kind]()


def _q(kind: str, s_in: int, s_out: int) -> str:
    terms = _monomials(_cost(kind, s_in, s_out).derivation("Q"), {"s": s_in, "s_in": s_in, "s_out": s_out})
    return " + ".join(_written(c, a, b) for (a, b), c in terms.items())


def _intensity(kind: str, s_in: int, s_out: int) -> str:
    """I = F / Q, reduced: numerator and denominator multiplied by T^k / N^j so that no term has T below or a
    common power of N, then divided by their coefficients' gcd."""
    cost = _cost(kind, s_in, s_out)
    (top_power, top_c), = _monomials(cost.derivation("F"), {}).items()
    bottom = _monomials(cost.derivation("Q"), {"s": s_in, "s_in": s_in, "s_out": s_out})
    j, k = min(a for a, _ in bottom), -min(b for _, b in bottom)
    shift = lambda p: (p[0] - j, p[1] + k)   # noqa: E731
    top, bottom = (shift(top_power), top_c), {shift(p): c for p, c in bottom.items()}
    g = gcd(int(top[1]), *(int(c) for c in bottom.values()))
    numerator = _written(top[1] / g, *top[0])
    parts = [_written(c / g, a, b) for (a, b), c in bottom.items()]
    return f"{numerator}/({'+'.join(parts)})" if len(parts) > 1 else f"{numerator}/{parts[0]}"


def tiled_coefficients(s_in: int, s_out: int) -> tuple[int, int, int]:
    """(k, a, b) with I_T = kNT/(aN + bT) in lowest terms (1, 4, 2 in FP32): ⑤ solves I_T ≥ I* for T with them."""
    cost = _cost("tiled", s_in, s_out)
    (_, top), = _monomials(cost.derivation("F"), {}).items()
    bottom = _monomials(cost.derivation("Q"), {"s": s_in, "s_in": s_in, "s_out": s_out})
    k, a, b = int(top), int(bottom[(3, -1)]), int(bottom[(2, 0)])
    g = gcd(k, a, b)
    return k // g, a // g, b // g


def intensity_no_reuse(s_in: int, s_out: int) -> str:
    return _intensity("none", s_in, s_out)


def intensity_tiled(s_in: int, s_out: int) -> str:
    return _intensity("tiled", s_in, s_out)


def intensity_ideal(s_in: int, s_out: int) -> str:
    return _intensity("ideal", s_in, s_out)


def q_no_reuse(s_in: int, s_out: int) -> str:
    return _q("none", s_in, s_out)


def q_tiled(s_in: int, s_out: int) -> str:
    return _q("tiled", s_in, s_out)


def q_ideal(s_in: int, s_out: int) -> str:
    return _q("ideal", s_in, s_out)
