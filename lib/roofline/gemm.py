"""General matrix multiply (GEMM) for the FlashAttention note: its cost on a roofline, the batch
sweep, the BLAS levels, the tile step of the cache example, and three matmuls to time in NumPy.

    C (M×N) = A (M×K) · B (K×N):  F = 2MNK,  Q = s (MK + KN + MN)  (A, B read once, C written once)
    batch b against a K×N weight: I(b) = 2bKN / (s (bK + KN + bN))   = 4096 b / (2b + 4096) in FP16 at K = N = 4096
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from roofline.cost import Cost, Timing
from roofline.hardware import Roofline
from roofline.errors import ParameterError, check_positive


def gemm(M: int, N: int, K: int, s: int = 2) -> Cost:
    """F = 2MNK, Q_read = s (MK + KN), Q_write = s MN (Byte)."""
    check_positive(M=M, N=N, K=K, s=s)
    return Cost(F=2 * M * N * K, Q_read=s * (M * K + K * N), Q_write=s * M * N)


@dataclass(frozen=True)
class BatchRow:
    b: int
    cost: Cost
    timing: Timing


def batch_sweep(batches, N: int, K: int, hw: Roofline, s: int = 2) -> list[BatchRow]:
    """One row per batch size b: the GEMM (b×K)·(K×N) and its roofline bound on `hw`."""
    rows = []
    for b in batches:
        cost = gemm(b, N, K, s)
        rows.append(BatchRow(b, cost, Timing(cost, hw)))
    return rows


def crossover_batch(N: int, K: int, hw: Roofline, s: int = 2):
    """Smallest real b with I(b) ≥ I*: b = s I* K N / (2KN − s I* (K + N)); None if no b reaches I*."""
    check_positive(N=N, K=K, s=s)
    ridge = hw.ridge
    denominator = 2 * K * N - s * ridge * (K + N)
    if denominator <= 0:
        return None
    return s * ridge * K * N / denominator


def whole_crossover_batch(N: int, K: int, hw: Roofline, s: int = 2) -> int | None:
    """The smallest whole batch b with I(b) ≥ I*: ⌈crossover_batch⌉; None if no b reaches I*."""
    b = crossover_batch(N, K, hw, s)
    return None if b is None else -(-b.numerator // b.denominator)


def intensity_terms(N: int, K: int, s: int = 2) -> tuple[int, int, int]:
    """I(b) = 2bKN / (s (bK + KN + bN)) = a·b / (c·b + e): (a, c, e) in lowest terms (divided by their gcd)."""
    check_positive(N=N, K=K, s=s)
    a, c, e = 2 * K * N, s * (K + N), s * K * N
    k = math.gcd(a, c, e)
    return a // k, c // k, e // k


def clock(peak, SMs: int, per_clock: int) -> Fraction:
    """The clock (Hz) a peak implies: peak = SMs × FLOPs per clock of one SM × clock."""
    check_positive(SMs=SMs, per_clock=per_clock)
    return Fraction(peak) / (SMs * per_clock)


@dataclass(frozen=True)
class Level:
    level: int
    name: str
    operation: str
    cost: Cost
    intensity: str     # the closed form in n and s


def blas_levels(n: int, s: int) -> list[Level]:
    """BLAS Level-1/2/3 on length-n vectors and n×n matrices, β = 0 (y and C are not read):

    dot   F = 2n,  Q = 2sn (+ s)        axpy  F = 2n,  Q = 3sn       (I ≈ 1/s, 2/(3s))
    gemv  F = 2n², Q = s (n² + 2n)      (I ≈ 2/s)
    gemm  F = 2n³, Q = 3sn²             (I = 2n/(3s))
    """
    check_positive(n=n, s=s)
    return [
        Level(1, "dot", "x·y", Cost(2 * n, 2 * s * n, s), "1/s"),
        Level(1, "axpy", "y ← αx + y", Cost(2 * n, 2 * s * n, s * n), "2/(3s)"),
        Level(2, "gemv", "y ← αAx", Cost(2 * n * n, s * (n * n + n), s * n), "2n/(s(n+2))"),
        Level(3, "gemm", "C ← αAB", Cost(2 * n**3, 2 * s * n * n, s * n * n), "2n/(3s)"),
    ]


def tile_step(T: int, s: int) -> tuple[int, int]:
    """One step of a T×T output tile with K step T: T·T·T MAC, s·(T² + T²) Byte of A and B tiles."""
    check_positive(T=T, s=s)
    return T**3, 2 * s * T * T


def tile_area_for(cache_bytes: int, s: int, tiles: int = 3) -> Fraction:
    """T² with `tiles` T×T tiles of s Byte filling the cache: cache / (tiles · s), exactly. The side T is its
    square root, in general irrational: `fmt.root(T², digits)` writes it rounded."""
    check_positive(cache_bytes=cache_bytes, s=s, tiles=tiles)
    return Fraction(cache_bytes, tiles * s)


# ----- three matmuls to time (floats: these are measurements, not the model) -----

def naive_matmul(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """C[i, j] = Σ_k A[i, k] B[k, j]: one multiply-add per inner step,
    M·N·K steps in all."""
    M, K = A.shape
    K2, N = B.shape
    if K != K2:
        raise ParameterError(f"B: {K}행이어야 한다. 받은 B: {K2}×{N}")
    C = np.zeros((M, N))
    for i in range(M):
        for j in range(N):
            acc = 0.0
            for k in range(K):
                acc += A[i, k] * B[k, j]
            C[i, j] = acc
    return C


def tiled_matmul(A: np.ndarray, B: np.ndarray, T: int) -> np.ndarray:
    """T×T output tiles, K in steps of T; each tile step is one small
    NumPy product."""
    M, K = A.shape
    K2, N = B.shape
    if K != K2:
        raise ParameterError(f"B: {K}행이어야 한다. 받은 B: {K2}×{N}")
    check_positive(T=T)
    C = np.zeros((M, N))
    for i in range(0, M, T):
        for j in range(0, N, T):
            for k in range(0, K, T):
                a = A[i:i + T, k:k + T]
                b = B[k:k + T, j:j + T]
                C[i:i + T, j:j + T] += a @ b
    return C


def best_seconds(run, repeats: int = 3) -> float:
    """Best wall time (s) of `run()` over `repeats` runs."""
    check_positive(repeats=repeats)
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


# What large cuBLAS GEMMs reach on an H100, as a share of the dense peak (FlashAttention-3 paper;
# the Scaling Book says 80–85 %). Used for "about", never as a bound.
LARGE_GEMM_EFFICIENCY = (Fraction(80, 100), Fraction(90, 100))

# Values quoted from elsewhere that the note checks or cites (not parameters of the model):
# a commonly repeated claim for a 4096³ FP16 GEMM on an H100 (time in s, rate in FLOPs/s) …
CLAIMED_SQUARE_GEMM = (Fraction(1, 2000), Fraction(2000 * 10**12))
# … the Scaling Book's H100 ridge (FLOPs/Byte, https://jax-ml.github.io/scaling-book/gpus/) and its
# "80–85 %" of the dense peak for large matmuls.
SCALING_BOOK_RIDGE = 298
SCALING_BOOK_EFFICIENCY = (Fraction(80, 100), Fraction(85, 100))
# Stored mantissa bits (the TF32 trade-off): unit of the last place is 2^-bits.
MANTISSA_BITS = {"FP32": 23, "TF32": 10, "FP16": 10, "BF16": 7}


def per_clock(tensor_core) -> tuple[int, int]:
    """FLOPs per clock of one SM (`course.note.tensor_core`): (Tensor Cores · tc_flops, CUDA Cores · cuda_flops)."""
    tc = tensor_core.tc_per_SM * tensor_core.tc_flops
    cuda = tensor_core.cuda_per_SM * tensor_core.cuda_flops
    check_positive(tc=tc, cuda=cuda)
    return tc, cuda
