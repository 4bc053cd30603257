"""Measurements for the matmul note, on the computer that builds the page (floats: they differ on every run).

- `implementations`: the naive triple loop, the tiled loop and BLAS (`A @ B`), in float64 (NumPy's default),
  each against BLAS's result; the naive loop is timed once (it is slow), the others as the best of `repeats`.
- `stride`: reading an n×n float32 matrix row by row (`A.copy()`) against column by column
  (`np.ascontiguousarray(A.T)`): the same Byte read and written, a different order of reading.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from roofline import gemm
from roofline.errors import check_positive

DTYPE = "FP64"   # what the arrays are: rng.standard_normal gives float64


@dataclass(frozen=True)
class Run:
    label: str            # "naive", "tiled", "blas"
    N: int
    seconds: float        # best of `repeats`
    repeats: int
    error: float | None   # max |C − C_BLAS| (None: this run is BLAS itself)


def implementations(naive_N: int, tiled_N: int, blas_N: int, T: int, repeats: int = 3, seed: int = 0) -> list[Run]:
    """Naive, tiled and BLAS at naive_N; tiled and BLAS at tiled_N; BLAS at blas_N (float64)."""
    check_positive(naive_N=naive_N, tiled_N=tiled_N, blas_N=blas_N, T=T, repeats=repeats)
    rng = np.random.default_rng(seed)
    pairs = {n: rng.standard_normal((2, n, n)) for n in dict.fromkeys((naive_N, tiled_N, blas_N))}
    plan = [("naive", naive_N), ("tiled", naive_N), ("blas", naive_N), ("tiled", tiled_N), ("blas", tiled_N),
            ("blas", blas_N)]
    runs = []
    for label, n in plan:
        A, B = pairs[n]
        run = {"naive": lambda: gemm.naive_matmul(A, B), "tiled": lambda: gemm.tiled_matmul(A, B, T),
               "blas": lambda: A @ B}[label]
        times = 1 if label == "naive" else repeats
        seconds = gemm.best_seconds(run, repeats=times)
        error = None if label == "blas" else float(np.abs(run() - A @ B).max())
        runs.append(Run(label, n, seconds, times, error))
    return runs


@dataclass(frozen=True)
class Stride:
    n: int
    itemsize: int
    repeats: int
    row_seconds: float      # A.copy(): reads A along its rows
    column_seconds: float   # np.ascontiguousarray(A.T): reads A down its columns

    @property
    def slowdown(self) -> float:
        return self.column_seconds / self.row_seconds


def stride(n: int, repeats: int = 3) -> Stride:
    """Best times of copying an n×n float32 matrix in row order and in column order."""
    check_positive(n=n, repeats=repeats)
    A = np.random.default_rng(0).standard_normal((n, n), dtype=np.float32)   # drawn as float32: no float64 copy
    row = gemm.best_seconds(lambda: A.copy(), repeats)
    column = gemm.best_seconds(lambda: np.ascontiguousarray(A.T), repeats)
    return Stride(n, A.itemsize, repeats, row, column)
