"""Cache lines touched when a row-major matrix is read along a row or down a column (행렬곱 노트, §캐시 줄).

Model. An n×n row-major matrix of s-Byte elements, lines of `line` Byte, rows starting on a line boundary
(n·s a multiple of `line`, or one row per line otherwise), a fully associative LRU cache of `cache` Byte.
- `walk(n, s, line, along)`: the accesses of one dot-product operand, A[i, 0…n−1] ("row") or
  B[0…n−1, j] ("column"), from a cold cache: for each access its line and whether it hits.
- `whole_matrix_misses(n, s, line, cache, along)`: reading every element once, row after row ("row") or
  column after column ("column"): row order misses once per line; column order also, if the n lines of one
  column stay cached until the next column reuses them (n·line ≤ cache), else every access misses.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from roofline.errors import ParameterError, check_positive

ROW, COLUMN = "row", "column"


@dataclass(frozen=True)
class Access:
    index: tuple[int, int]   # (row, column) of the element read
    line: int                # which cache line holds it
    hit: bool


def _line(r: int, c: int, n: int, s: int, line: int) -> int:
    per_row = -(-n * s // line)                  # lines per row (a row starts on a line boundary)
    return r * per_row + (c * s) // line


def _check(n, s, line, along):
    check_positive(n=n, s=s, line=line)
    if along not in (ROW, COLUMN):
        raise ParameterError(f"along: {ROW!r}, {COLUMN!r} 가운데 하나여야 한다. 받은 값: {along!r}")


def walk(n: int, s: int, line: int, along: str) -> list[Access]:
    """One operand of a dot product from a cold cache: A[0, k] ("row") or B[k, 0] ("column"), k = 0 … n−1."""
    _check(n, s, line, along)
    seen: set[int] = set()
    accesses = []
    for k in range(n):
        r, c = (0, k) if along == ROW else (k, 0)
        number = _line(r, c, n, s, line)
        accesses.append(Access((r, c), number, number in seen))
        seen.add(number)
    return accesses


def whole_matrix_misses(n: int, s: int, line: int, cache: int, along: str) -> int:
    """Misses when every element is read once in row order or in column order (formula, see the module)."""
    _check(n, s, line, along)
    check_positive(cache=cache)
    lines = n * -(-n * s // line)
    if along == ROW or n * line <= cache:
        return lines
    return n * n


def lru_misses(n: int, s: int, line: int, cache: int, along: str) -> int:
    """The same count by simulating the LRU cache access by access (small n; tests check the formula)."""
    _check(n, s, line, along)
    check_positive(cache=cache)
    capacity = max(cache // line, 1)
    lru: OrderedDict = OrderedDict()
    misses = 0
    for outer in range(n):
        for inner in range(n):
            r, c = (outer, inner) if along == ROW else (inner, outer)
            number = _line(r, c, n, s, line)
            if number in lru:
                lru.move_to_end(number)
                continue
            misses += 1
            lru[number] = True
            if len(lru) > capacity:
                lru.popitem(last=False)
    return misses
