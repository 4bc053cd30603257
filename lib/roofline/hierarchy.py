"""A two-level roofline of a tiled GEMM (Nsight Compute's hierarchical roofline, from the model): the DRAM level of
the block tile and the shared-memory level of the thread tile.

DRAM is the GPU's off-chip memory, whatever its kind (HBM on an A100 or H100, GDDR6 on an RTX A6000: the preset's
`memory`), as Nsight Compute calls that level; a page names the kind of the preset it shows
(`roofline.show.exercises.memory_name`).

C = A·B with A M×K, B K×N, s Byte per element. A thread block computes a BM×BN block tile of C (③'s T_M×T_N output
tile), bringing K slices of A (BM×BK) and B (BK×BN) from DRAM into shared memory; each of its threads computes a TM×TN
thread tile in registers, reading TM elements of A and TN of B from shared memory for each k.

    F        = 2·M·N·K
    Q_DRAM    = s·(M·K·⌈N/BN⌉ + K·N·⌈M/BM⌉ + M·N)          A read once per block column, B once per block row, C written
    Q_smem   = s·M·N·K·(TM + TN)/(TM·TN) + s·(M·K·⌈N/BN⌉ + K·N·⌈M/BM⌉)   thread reads + the stores of the slices
    f        = P_FP32 / (SMs · fp32_per_clock)             the clock the FP32 peak implies
    BW_smem  = smem_per_clock · f · SMs                    (32 banks × 4 Byte per clock of one SM)
    R_DRAM    = min(P, BW · F/Q_DRAM),  R_smem = min(P, BW_smem · F/Q_smem),  R_bound = min(R_DRAM, R_smem)

A kernel without shared-memory tiles (`Tiling(BM, BN)` with no thread tile) has only the DRAM level; BM = BN = 1 is
"no reuse" (every FMA reads its A and B from DRAM: Q = s·(2·M·N·K + M·N)). The bound is an upper bound: caches
(L1, L2) that keep what the model counts as re-read let a kernel beat the no-reuse count (③'s cache simulation), and
`implied_reuse` and `implied_clock` say by how much a measurement above a bound asks of the machine.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from roofline.derive import Quantity, ceil_div, named, tmin, var
from roofline.errors import ParameterError

LEVELS = ("DRAM", "Shared Memory", "연산")   # the level that binds: a memory level, or the compute peak


@dataclass(frozen=True)
class Tiling:
    """Block tile BM×BN (K slices of BK) and thread tile TM×TN; TM = TN = 0: no shared-memory level."""

    BM: int
    BN: int
    BK: int = 0
    TM: int = 0
    TN: int = 0

    def __post_init__(self):
        for key in ("BM", "BN"):
            if not isinstance(getattr(self, key), int) or getattr(self, key) < 1:
                raise ParameterError(f"{key}: 1 이상의 정수여야 한다. 받은 값: {getattr(self, key)!r}")
        for key in ("BK", "TM", "TN"):
            if not isinstance(getattr(self, key), int) or getattr(self, key) < 0:
                raise ParameterError(f"{key}: 0 이상의 정수여야 한다. 받은 값: {getattr(self, key)!r}")
        if (self.TM == 0) != (self.TN == 0) or (self.TM and not self.BK):
            raise ParameterError("TM, TN: 스레드 타일은 TM, TN, BK가 모두 있어야 한다")
        if self.TM and (self.BM % self.TM or self.BN % self.TN):
            raise ParameterError(f"TM, TN: 스레드 타일 {self.TM}×{self.TN}은 블록 타일 {self.BM}×{self.BN}을 "
                                 "나눠야 한다")

    @property
    def smem(self) -> bool:
        """Whether the kernel stages its tiles in shared memory (has a thread tile)."""
        return self.TM > 0


@dataclass(frozen=True)
class Bound:
    """The two-level bound of one kernel: each as a named quantity (its derivation), and the level that binds."""

    F: Quantity
    Q_DRAM: Quantity
    R_DRAM: Quantity
    R_bound: Quantity
    level: str
    Q_smem: Quantity | None = None
    BW_smem: Quantity | None = None
    R_smem: Quantity | None = None


def flops(M: int, N: int, K: int) -> Quantity:
    """F = 2·M·N·K (an FMA is 2 FLOPs)."""
    return named("F", 2 * var("M", M) * var("N", N) * var("K", K))


def dram_traffic(M: int, N: int, K: int, s: int, tiling: Tiling) -> Quantity:
    """Q_DRAM = s·(M·K·⌈N/BN⌉ + K·N·⌈M/BM⌉ + M·N) (Byte): each block reads its A rows and B columns once."""
    M_, N_, K_, s_ = var("M", M), var("N", N), var("K", K), var("s", s)
    BM, BN = var("BM", tiling.BM), var("BN", tiling.BN)
    return named("Q_DRAM", s_ * (M_ * K_ * ceil_div(N_, BN) + K_ * N_ * ceil_div(M_, BM) + M_ * N_))


def smem_traffic(M: int, N: int, K: int, s: int, tiling: Tiling) -> Quantity:
    """Q_smem = s·M·N·K·(TM + TN)/(TM·TN) + s·(M·K·⌈N/BN⌉ + K·N·⌈M/BM⌉) (Byte): every thread reads TM + TN
    elements per k for its TM·TN FMAs, and each slice brought from DRAM is stored once."""
    if not tiling.smem:
        raise ParameterError("TM, TN: 스레드 타일이 없는 커널에는 Shared Memory 단계가 없다")
    M_, N_, K_, s_ = var("M", M), var("N", N), var("K", K), var("s", s)
    BM, BN, TM, TN = (var(k, getattr(tiling, k)) for k in ("BM", "BN", "TM", "TN"))
    return named("Q_smem", s_ * M_ * N_ * K_ * (TM + TN) / (TM * TN)
                 + s_ * (M_ * K_ * ceil_div(N_, BN) + K_ * N_ * ceil_div(M_, BM)))


def thread_smem_per_k(s: int, TM: int, TN: int) -> Quantity:
    """The shared-memory Byte one thread reads per k: s·(TM + TN), for its TM·TN FMAs (the page's exercise)."""
    return named("q_thread", var("s", s) * (var("TM", TM) + var("TN", TN)))


def clock(preset) -> Quantity:
    """f = P_FP32 / (SMs · fp32_per_clock) (Hz): the clock at which the SMs give the FP32 peak."""
    _need_clock(preset)
    per_clock = var("fp32_per_clock", preset.fp32_per_clock)
    return named("f", var("P_FP32", preset.P("FP32")) / (var("SMs", preset.SMs) * per_clock))


def smem_bandwidth(preset) -> Quantity:
    """BW_smem = smem_per_clock · f · SMs (Byte/s): every SM's shared memory at the clock of the FP32 peak."""
    _need_clock(preset)
    return named("BW_smem", var("smem_per_clock", preset.smem_per_clock) * clock(preset) * var("SMs", preset.SMs))


def _need_clock(preset) -> None:
    if preset.smem_per_clock is None:
        raise ParameterError(f"hardware: 프리셋 {preset.key!r}에는 smem_per_clock, fp32_per_clock이 없어 "
                             "Shared Memory 대역폭을 계산할 수 없다")


def _level(P, BW, F, Q, symbol: str) -> Quantity:
    """R = min(P, BW·F/Q) (FLOPs/s)."""
    return named(symbol, tmin(P, BW * F / Q))


def bound(preset, dtype: str, s: int, M: int, N: int, K: int, tiling: Tiling) -> Bound:
    """The two-level bound of a GEMM kernel with `tiling` on `preset` in `dtype` (s Byte per element)."""
    P, BW = var("P", preset.P(dtype)), var("BW", preset.BW)
    F = flops(M, N, K)
    Q = dram_traffic(M, N, K, s, tiling)
    R_DRAM = _level(P, BW, F, Q, "R_DRAM")
    if not tiling.smem:
        return Bound(F, Q, R_DRAM, named("R_bound", R_DRAM), binding(P.value, R_DRAM.value))   # one level: R_DRAM
    Qs, BWs = smem_traffic(M, N, K, s, tiling), smem_bandwidth(preset)
    R_smem = _level(P, BWs, F, Qs, "R_smem")
    R = named("R_bound", tmin(R_DRAM, R_smem))
    return Bound(F, Q, R_DRAM, R, binding(P.value, R_DRAM.value, R_smem.value), Qs, BWs, R_smem)


def binding(P, R_DRAM, R_smem=None) -> str:
    """The level that binds: the lowest bound; the compute peak when no memory level is below it (ties: memory
    first, the level nearer the DRAM first)."""
    levels = [("DRAM", R_DRAM)] + ([("Shared Memory", R_smem)] if R_smem is not None else [])
    level, R = min(levels, key=lambda item: item[1])
    return level if R < P else "연산"


def implied_reuse(R_meas: Quantity, R_level: Quantity) -> Quantity:
    """R_meas / R_DRAM: how many times fewer DRAM Byte than the model counts the measurement implies at least (a
    cache kept the rest)."""
    return named("R_meas/R_DRAM", R_meas / R_level)


def implied_clock(R_meas: Quantity, F: Quantity, Q_smem: Quantity, preset) -> Quantity:
    """f_meas = R_meas · (Q_smem/F) / (smem_per_clock · SMs) (Hz): the clock shared memory needs for the
    measurement (above f, the spec's: the GPU ran faster than the clock its FP32 peak implies)."""
    per_clock = var("smem_per_clock", preset.smem_per_clock)
    return named("f_meas", R_meas * Q_smem / F / (per_clock * var("SMs", preset.SMs)))


def share(R_meas: Quantity, R_bound: Quantity) -> Quantity:
    """R_meas / R_bound: the achieved share of the binding bound."""
    return named("R_meas/R_bound", R_meas / R_bound)


def _rank_moments(xs, ys) -> tuple[Fraction, Fraction, Fraction]:
    """cov(rank x, rank y), var(rank x), var(rank y) (sums, not divided by n: ρ is their ratio)."""
    rx, ry = ranks(xs), ranks(ys)
    n = len(rx)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    return Fraction(cov), Fraction(sum((a - mx) ** 2 for a in rx)), Fraction(sum((b - my) ** 2 for b in ry))


def spearman_square(xs, ys) -> Fraction:
    """ρ² = cov² / (var x · var y) of the ranks, exact (0 when a sequence is constant)."""
    cov, vx, vy = _rank_moments(xs, ys)
    return cov ** 2 / (vx * vy) if vx and vy else Fraction(0)


def spearman(xs, ys) -> Fraction:
    """Spearman's rank correlation of two equal-length sequences (ties get their average rank):
    ρ = cov(rank x, rank y) / √(var(rank x) · var(rank y)); 0 when a sequence is constant. ρ² is exact
    (`spearman_square`); ρ takes its one square root (math.isqrt of the scaled ratio, 12 digits), the only inexact
    step, kept as a Fraction."""
    square = spearman_square(xs, ys)
    scale = 10**12
    root = Fraction(math.isqrt(square.numerator * scale**2 // square.denominator), scale)
    return root if _rank_moments(xs, ys)[0] >= 0 else -root


def ranks(xs) -> list[Fraction]:
    """1-based ranks, ascending, ties given their average rank."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    out = [Fraction(0)] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = Fraction(i + j + 2, 2)
        i = j + 1
    return out
