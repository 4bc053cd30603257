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
from roofline.derive import named, var
from roofline.errors import ParameterError, check_positive
from roofline.hardware import Roofline


def gemm(M: int, N: int, K: int, s: int = 2, rows: str = "M") -> Cost:
    """F = 2MNK, Q_read = s (MK + KN), Q_write = s MN (Byte). `rows`: the symbol of M in the derivation (b for
    a batch)."""
    check_positive(M=M, N=N, K=K, s=s)
    from roofline.kernels import _cost

    M, N, K, s = var(rows, M), var("N", N), var("K", K), var("s", s)
    return _cost(2 * M * N * K, s * (M * K + K * N), s * M * N)


@dataclass(frozen=True)
class BatchRow:
    b: int
    cost: Cost
    timing: Timing


def batch_sweep(batches, N: int, K: int, hw: Roofline, s: int = 2) -> list[BatchRow]:
    """One row per batch size b: the GEMM (b×K)·(K×N) and its roofline bound on `hw`."""
    rows = []
    for b in batches:
        cost = gemm(b, N, K, s, rows="b")
        rows.append(BatchRow(b, cost, Timing(cost, hw)))
    return rows


def crossover_batch(N: int, K: int, hw: Roofline, s: int = 2):
    """Smallest real b with I(b) ≥ I*: b = s I* K N / (2KN − s I* (K + N)); None if no b reaches I*."""
    b = crossover_term(N, K, hw, s)
    return None if b is None else Fraction(b.value)


def crossover_term(N: int, K: int, hw: Roofline, s: int = 2):
    """`crossover_batch` as a derivation: b* = s·I*·K·N/(2·K·N − s·I*·(K + N)); None if no b reaches I*."""
    check_positive(N=N, K=K, s=s)
    ridge, N, K, s = hw.derivation("I*"), var("N", N), var("K", K), var("s", s)
    denominator = 2 * K * N - s * ridge * (K + N)
    if denominator.value <= 0:
        return None
    return named("b*", s * ridge * K * N / denominator)


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
    return Fraction(clock_term(peak, SMs, per_clock).value)


def clock_term(peak, SMs, per_clock, symbol: str = "P"):
    """`clock` as a derivation: f = P / (SMs · FLOPs per clock) (the inputs may be named quantities)."""
    from roofline.derive import Term

    P = peak if isinstance(peak, Term) else var(symbol, peak)
    S = SMs if isinstance(SMs, Term) else var("SMs", SMs)
    c = per_clock if isinstance(per_clock, Term) else var("클럭당 FLOPs", per_clock)
    return named("f", P / (S * c))


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
    from roofline.kernels import _cost

    n, s = var("n", n), var("s", s)
    return [
        Level(1, "dot", "x·y", _cost(2 * n, 2 * s * n, s), "1/s"),
        Level(1, "axpy", "y ← αx + y", _cost(2 * n, 2 * s * n, s * n), "2/(3s)"),
        Level(2, "gemv", "y ← αAx", _cost(2 * n**2, s * (n**2 + n), s * n), "2n/(s(n+2))"),
        Level(3, "gemm", "C ← αAB", _cost(2 * n**3, 2 * s * n**2, s * n**2), "2n/(3s)"),
    ]


def tile_step(T: int, s: int) -> tuple[int, int]:
    """One step of a T×T output tile with K step T: T·T·T MAC, s·(T² + T²) Byte of A and B tiles."""
    check_positive(T=T, s=s)
    mac, moved = tile_step_terms(T, s)
    return mac.value, moved.value


def tile_step_terms(T: int, s: int):
    """`tile_step` as derivations: MAC = T³, Byte = 2·s·T²."""
    T, s = var("T", T), var("s", s)
    return named("단계당 MAC", T**3), named("단계당 Byte", 2 * s * T**2)


def tile_area_for(cache_bytes: int, s: int, tiles: int = 3) -> Fraction:
    """T² with `tiles` T×T tiles of s Byte filling the cache: cache / (tiles · s), exactly. The side T is its
    square root, in general irrational: `fmt.root(T², digits)` writes it rounded."""
    check_positive(cache_bytes=cache_bytes, s=s, tiles=tiles)
    return Fraction(tile_area_term(cache_bytes, s, tiles).value)


def tile_area_term(cache_bytes: int, s: int, tiles: int = 3):
    """`tile_area_for` as a derivation: T² = cache / (tiles · s)."""
    return named("T_캐시²", var("캐시", cache_bytes) / (tiles * var("s", s)))


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
# … the Scaling Book's H100 ridge (FLOPs/Byte: 1e15 / 3.35e12, https://jax-ml.github.io/scaling-book/roofline/,
# Problem 5) and its "80–85 %" of the dense peak for large matmuls (https://jax-ml.github.io/scaling-book/gpus/).
SCALING_BOOK_RIDGE = 298
SCALING_BOOK_EFFICIENCY = (Fraction(80, 100), Fraction(85, 100))
# Stored mantissa bits (the TF32 trade-off): unit of the last place is 2^-bits.
MANTISSA_BITS = {"FP32": 23, "TF32": 10, "FP16": 10, "BF16": 7}


def per_clock(tensor_core) -> tuple[int, int]:
    """FLOPs per clock of one SM (`course.note.tensor_core`): (Tensor Cores · tc_flops, CUDA Cores · cuda_flops)."""
    tc, cuda = (q.value for q in per_clock_terms(tensor_core))
    check_positive(tc=tc, cuda=cuda)
    return tc, cuda


def per_clock_terms(tensor_core):
    """`per_clock` as derivations: tc_per_SM · tc_flops, cuda_per_SM · cuda_flops."""
    tc = named("SM 클럭당 TC FLOPs", var("tc_per_SM", tensor_core.tc_per_SM) * var("tc_flops", tensor_core.tc_flops))
    cuda = named("SM 클럭당 CUDA FLOPs",
                 var("cuda_per_SM", tensor_core.cuda_per_SM) * var("cuda_flops", tensor_core.cuda_flops))
    return tc, cuda
