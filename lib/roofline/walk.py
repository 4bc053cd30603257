"""Counting by walking the loop nest (③): run the matmul loops element by element, count every
FLOP, every element loaded from HBM and every element written, and return a `Cost`.

    no reuse:   for i, j: acc = 0; for k: load A[i,k], B[k,j]; acc += A·B; write C[i,j]
    T×T tiles:  for each output tile: acc = 0 (T×T, on chip)
                    for each K step: load the A tile and the B tile (T×T each) into the input buffer
                        for i, j, k in the tile: acc[i,j] += A[i,k]·B[k,j]     (on-chip reads, not counted)
                    write the output tile once

The walk is the check of the closed forms in `kernels` (matmul_no_reuse, matmul_tiled), not a
replacement: it is O(N³) Python, so it refuses N > MAX_N.
"""
from __future__ import annotations

from dataclasses import dataclass

from roofline.cost import Cost
from roofline.errors import ParameterError, check_divides, check_positive

MAX_N = 64   # 64³ = 262,144 inner iterations: a fraction of a second in CPython


@dataclass(frozen=True)
class Step:
    """One K step of one output tile: which input tiles came from HBM, how much, how many FLOPs."""

    tile: tuple[int, int]      # output tile (row, column) in tile units
    k: int                     # K step index
    A: tuple[int, int]         # A tile (row, k) read in this step
    B: tuple[int, int]         # B tile (k, column)
    loads: int                 # elements read from HBM in this step
    flops: int


@dataclass(frozen=True)
class Walk:
    """The result of a walk: the cost, how often each input element was read, the steps, the writes."""

    N: int
    T: int | None                        # None: no reuse
    cost: Cost
    reads_A: tuple[tuple[int, ...], ...]  # reads_A[i][k]: times A[i,k] was read from HBM
    reads_B: tuple[tuple[int, ...], ...]
    writes: int                          # elements of C written
    steps: tuple[Step, ...]              # tiled walk only

    @property
    def loads(self) -> int:
        """Elements read from HBM (A and B together)."""
        return sum(map(sum, self.reads_A)) + sum(map(sum, self.reads_B))

    def reads_per_element(self) -> set[int]:
        """The distinct read counts over all input elements ({N/T} for the tiled walk, {N} without reuse)."""
        return {c for rows in (self.reads_A, self.reads_B) for row in rows for c in row}

    def tile_steps(self, tile: tuple[int, int]) -> list[Step]:
        """The K steps of one output tile, in order."""
        return [s for s in self.steps if s.tile == tile]


def _check(N: int):
    check_positive(N=N)
    if N > MAX_N:
        raise ParameterError(f"N: 원소 하나하나를 따라가기에는 너무 크다 (N ≤ {MAX_N}). 받은 값: {N}. "
                             f"큰 N은 roofline.kernels의 닫힌 꼴로 센다")


def _tuple(grid):
    return tuple(tuple(row) for row in grid)


def no_reuse(N: int, s_in: int = 4, s_out: int = 4) -> Walk:
    """Walk i, j, k with no input kept on chip: every multiply loads its A and B element.

    Counts F = 2N³, Q_read = 2 s_in N³, Q_write = s_out N² (= kernels.matmul_no_reuse).
    """
    _check(N)
    check_positive(s_in=s_in, s_out=s_out)
    reads_A = [[0] * N for _ in range(N)]
    reads_B = [[0] * N for _ in range(N)]
    flops = writes = 0
    for i in range(N):
        for j in range(N):
            for k in range(N):                 # acc lives on chip; A[i,k] and B[k,j] come from HBM
                reads_A[i][k] += 1
                reads_B[k][j] += 1
                flops += 2                     # one multiply + one add into acc
            writes += 1                        # C[i,j] written once
    loads = sum(map(sum, reads_A)) + sum(map(sum, reads_B))
    cost = Cost(F=flops, Q_read=s_in * loads, Q_write=s_out * writes)
    return Walk(N, None, cost, _tuple(reads_A), _tuple(reads_B), writes, ())


def tiled(N: int, T: int, s_in: int = 4, s_out: int = 4) -> Walk:
    """Walk the tiled loop nest: T×T output tiles, K steps of width T, one A and one B tile on chip.

    An element is loaded when the inner loop needs it and it is not in the on-chip input buffer;
    the buffer is replaced at every K step and nothing survives from one output tile to the next.
    Counts F = 2N³, Q_read = 2 s_in N³/T, Q_write = s_out N² (= kernels.matmul_tiled).
    """
    _check(N)
    check_positive(T=T, s_in=s_in, s_out=s_out)
    check_divides("T", T, "N", N)
    n = N // T
    reads_A = [[0] * N for _ in range(N)]
    reads_B = [[0] * N for _ in range(N)]
    flops = writes = 0
    steps = []
    for ti in range(n):
        for tj in range(n):                        # one output tile; acc (T×T) stays on chip
            for tk in range(n):                    # one K step
                buffer_A, buffer_B = set(), set()  # the input buffer holds this step's tiles only
                loads = step_flops = 0
                for i in range(ti * T, ti * T + T):
                    for j in range(tj * T, tj * T + T):
                        for k in range(tk * T, tk * T + T):
                            if (i, k) not in buffer_A:
                                buffer_A.add((i, k))
                                reads_A[i][k] += 1
                                loads += 1
                            if (k, j) not in buffer_B:
                                buffer_B.add((k, j))
                                reads_B[k][j] += 1
                                loads += 1
                            step_flops += 2
                flops += step_flops
                steps.append(Step((ti, tj), tk, (ti, tk), (tk, tj), loads, step_flops))
            writes += T * T                        # the finished tile is written once
    loads = sum(map(sum, reads_A)) + sum(map(sum, reads_B))
    cost = Cost(F=flops, Q_read=s_in * loads, Q_write=s_out * writes)
    return Walk(N, T, cost, _tuple(reads_A), _tuple(reads_B), writes, tuple(steps))


def uses(N: int) -> tuple[int, int]:
    """How many outputs C[i,j] each A[i,k] and each B[k,j] contributes to, walking C = A @ B: (N, N).

    (Every element of a square matmul is used equally often; the minimum over elements is returned.)
    """
    _check(N)
    used_A: dict[tuple[int, int], set] = {}
    used_B: dict[tuple[int, int], set] = {}
    for i in range(N):
        for j in range(N):
            for k in range(N):
                used_A.setdefault((i, k), set()).add((i, j))
                used_B.setdefault((k, j), set()).add((i, j))
    return min(map(len, used_A.values())), min(map(len, used_B.values()))
