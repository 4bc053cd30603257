"""The course's worked problems as lists of cases, shared by chapters, tables and figures.

Week 4: C = A @ B, N×N, without reuse and with each tile side T of the parameter file (②, ⑤); the tile sides
a sweep or an explorer ranges over (every divisor of N, the powers of two that divide N).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from roofline import kernels
from roofline.cost import Cost, Timing
from roofline.errors import check_positive
from roofline.hardware import Roofline
from roofline.params import Week4


@dataclass(frozen=True)
class Case:
    T: int | None       # tile side, None without reuse (its name on a page: roofline.show.ko.case)
    cost: Cost
    timing: Timing


def week4_cases(w4: Week4, hw: Roofline | None = None) -> list[Case]:
    """No reuse, then one case per tile side, on the week's machine (or `hw`)."""
    hw = hw or w4.roofline
    costs = [(None, kernels.matmul_no_reuse(w4.N, w4.s, w4.s))]
    costs += [(T, kernels.matmul_tiled(w4.N, T, w4.s, w4.s)) for T in w4.tiles]
    return [Case(T, cost, Timing(cost, hw)) for T, cost in costs]


def powers_of_two(N: int, smallest: int = 8) -> list[int]:
    """Every power of two T ≥ `smallest` that divides N, increasing."""
    check_positive(N=N, smallest=smallest)
    found, T = [], 1
    while T <= N:
        if T >= smallest and N % T == 0:
            found.append(T)
        T *= 2
    return found


def divisors(N: int) -> list[int]:
    """Every T with N % T == 0, increasing (1 and N included)."""
    check_positive(N=N)
    small, large = [], []
    d = 1
    while d * d <= N:
        if N % d == 0:
            small.append(d)
            if d * d != N:
                large.append(N // d)
        d += 1
    return small + large[::-1]


@dataclass(frozen=True)
class SweepPoint:
    T: int
    timing: Timing

    @property
    def I(self) -> Fraction:
        return self.timing.cost.I


def sweep(w4) -> list[SweepPoint]:
    """One point per divisor T of N on the week's machine (exact values; the figure's data)."""
    return [SweepPoint(T, Timing(kernels.matmul_tiled(w4.N, T, w4.s, w4.s), w4.roofline)) for T in divisors(w4.N)]
