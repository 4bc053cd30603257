"""The course's closed forms as text, with the byte sizes filled in and the fraction reduced.

    no reuse:  I = 2N/(2 s_in N + s_out)        → "N/(4N+2)" in FP32
    T×T tiles: I = 2NT/(2 s_in N + s_out T)     → "NT/(4N+2T)"
    ideal:     I = 2N/(2 s_in + s_out)          → "N/6"
"""
from __future__ import annotations

from math import gcd


def _term(coefficient: int, symbol: str) -> str:
    return symbol if coefficient == 1 else f"{coefficient}{symbol}"


def _quotient(top: int, top_symbol: str, terms: list[tuple[int, str]]) -> str:
    g = gcd(top, *(c for c, _ in terms))
    numerator = _term(top // g, top_symbol)
    parts = [_term(c // g, sym) if sym else str(c // g) for c, sym in terms]
    denominator = "+".join(parts)
    return f"{numerator}/({denominator})" if len(parts) > 1 else f"{numerator}/{denominator}"


def intensity_no_reuse(s_in: int, s_out: int) -> str:
    return _quotient(2, "N", [(2 * s_in, "N"), (s_out, "")])


def intensity_tiled(s_in: int, s_out: int) -> str:
    return _quotient(2, "NT", [(2 * s_in, "N"), (s_out, "T")])


def intensity_ideal(s_in: int, s_out: int) -> str:
    return _quotient(2, "N", [(2 * s_in + s_out, "")])


def q_no_reuse(s_in: int, s_out: int) -> str:
    return f"{2 * s_in}N³ + {s_out}N²"


def q_tiled(s_in: int, s_out: int) -> str:
    return f"{2 * s_in}N³/T + {s_out}N²"


def q_ideal(s_in: int, s_out: int) -> str:
    return f"{2 * s_in + s_out}N²"
