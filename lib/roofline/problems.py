"""The course's worked problems as lists of cases, shared by chapters, tables and figures.

Week 4: C = A @ B, N×N, without reuse and with each tile side T of the parameter file (②, ⑤).
"""
from __future__ import annotations

from dataclasses import dataclass

from roofline import kernels
from roofline.cost import Cost, Timing
from roofline.hardware import Roofline
from roofline.params import Week4


@dataclass(frozen=True)
class Case:
    T: int | None       # tile side, None without reuse (its name on a page: roofline.show.ko.case)
    cost: Cost
    timing: Timing


def week4_cases(w4: Week4, hw: Roofline | None = None) -> list[Case]:
    """No reuse, then one case per tile side, on the week's machine (or `hw`)."""
    hw = hw or w4.hardware
    costs = [(None, kernels.matmul_no_reuse(w4.N, w4.s, w4.s))]
    costs += [(T, kernels.matmul_tiled(w4.N, T, w4.s, w4.s)) for T in w4.tiles]
    return [Case(T, cost, Timing(cost, hw)) for T, cost in costs]
