"""A live measurement on the reader's own machine (3주차 노트): the memory bandwidth that
NumPy's element-wise add achieves. The result is a float and depends on the machine; the
model's numbers (`cost`, `kernels`) stay exact and never use it.
"""
from __future__ import annotations

import time

import numpy as np

from roofline.errors import check_positive, choice

DTYPES = {"FP32": np.float32, "FP64": np.float64, "FP16": np.float16}


def vector_add_seconds(n: int, repeats: int = 5, dtype: str = "FP32") -> float:
    """Best wall time (s) of `np.add(a, b, out=c)` over `repeats` runs, arrays of n elements.

    a, b and c are allocated and touched once before timing (no page faults in the timed runs).
    """
    check_positive(n=n, repeats=repeats)
    n, repeats = int(n), int(repeats)
    choice(dtype, "dtype", DTYPES, "자료형")
    a = np.full(n, 1, dtype=DTYPES[dtype])
    b = np.full(n, 2, dtype=DTYPES[dtype])
    c = np.empty_like(a)
    np.add(a, b, out=c)            # warm-up: touches every page of c
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        np.add(a, b, out=c)
        best = min(best, time.perf_counter() - start)
    return best


def achieved_bandwidth(n: int, repeats: int = 5, dtype: str = "FP32") -> float:
    """Achieved bandwidth (Byte/s) of C = A + B on this machine: Q / t_best.

    Q counts what the kernel must move, as the course does: read A and B, write C once each,
    Q = 3 × itemsize × n (12n Byte in FP32). t_best is the best of `repeats` timed runs
    (`vector_add_seconds`). Extra traffic the CPU may add (e.g. reading C's cache lines before
    writing them) is not counted, so the true traffic can be higher than Q.
    """
    seconds = vector_add_seconds(n, repeats, dtype)
    Q = 3 * np.dtype(DTYPES[dtype]).itemsize * int(n)
    return float(Q / seconds)
