"""Published measurements of real kernels, each with its source (a references.bib key) and where in the source it
is (the locator): what 「모델과 실측」 places under the model's bounds (`roofline.hierarchy`).

Quoted, never computed: a measured rate (FLOPs/s), or a published F, Q and time from which the rate is F / t. The
GPU is the one the source measured on (a preset key), the tiling the one its code launches (`Tiling`; None when the
source does not publish it, as cuBLAS). `cached`: the block tile whose inputs the L1/L2 caches can keep for a kernel
that stages nothing in shared memory (its block of threads shares the rows of A and columns of B it reads), the
tiling ③'s cache simulation gives it.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from roofline.derive import Quantity, named, tmin, var
from roofline.hierarchy import Bound, Tiling, binding, bound, implied_clock, implied_reuse, share

G, T = 10**9, 10**12


@dataclass(frozen=True)
class Kernel:
    """One published kernel: what it is, where it ran, its tiling and what its source measured."""

    key: str
    name: str
    family: str                      # "sgemm" (the worklog's ladder) or "attention"
    gpu: str                         # preset key of the GPU it was measured on
    dtype: str                       # the peak that bounds it
    bibkey: str                      # references.bib
    locator: str                     # where in the source the measured value is
    rate: Fraction | None = None     # measured FLOPs/s, when the source gives a rate
    F: Fraction | None = None        # published FLOPs, Byte moved to/from DRAM and time (s), when it gives those
    Q: Fraction | None = None
    t: Fraction | None = None
    size: tuple[int, int, int] | None = None   # M, N, K of a GEMM
    tiling: Tiling | None = None
    tiling_locator: str = ""
    cached: Tiling | None = None

    @property
    def measured(self) -> Fraction:
        """R_meas (FLOPs/s): the published rate, or F / t."""
        return self.rate if self.rate is not None else self.F / self.t


SGEMM_BIB = "boehm2022sgemm"
TABLE = "README.md, 표 \"GFLOPs at matrix size 4096x4096\""
RUNNER = "src/runner.cu (commit 4820c60, \"Update results\")"
SIZE = (4096, 4096, 4096)


def _sgemm(number: int, name: str, gflops: str, tiling: Tiling | None, cached: Tiling | None = None,
           tiles: str = RUNNER) -> Kernel:
    return Kernel(f"sgemm-{number}", name, "sgemm", "RTX_A6000", "FP32", SGEMM_BIB, f"{TABLE}, 행 \"{number}:\"",
                  rate=Fraction(gflops) * G, size=SIZE, tiling=tiling, tiling_locator=tiles if tiling else "",
                  cached=cached)


KERNELS = (
    _sgemm(1, "단순 구현", "309.0", Tiling(1, 1), cached=Tiling(32, 32)),
    _sgemm(2, "병합 접근", "1986.5", Tiling(1, 1), cached=Tiling(32, 32)),
    _sgemm(3, "Shared Memory 타일", "2980.3", Tiling(32, 32, 32, 1, 1)),
    _sgemm(4, "1D 블록 타일", "8474.7", Tiling(64, 64, 8, 8, 1)),
    _sgemm(5, "2D 블록 타일", "15971.7", Tiling(128, 128, 8, 8, 8)),
    _sgemm(6, "벡터화 접근", "18237.3", Tiling(128, 128, 8, 8, 8)),
    _sgemm(9, "자동 튜닝", "19721.0", Tiling(128, 128, 16, 8, 8)),
    # warp tiling: a thread computes WMITER·TM × WNITER·TN = 1·8 × 4·4 outputs (K10_WM = K10_WN = 64, 128 threads)
    _sgemm(10, "워프 타일", "21779.3", Tiling(128, 128, 16, 8, 16)),
    _sgemm(0, "cuBLAS", "23249.6", None),
    Kernel("attn-standard", "표준 어텐션 (GPT-2 medium)", "attention", "A100_SXM", "FP16", "dao2022flashattention",
           "Figure 2 (왼쪽), 표 \"Standard\" 열: GFLOPs, HBM R/W (GB), Runtime (ms)",
           F=Fraction("66.6") * G, Q=Fraction("40.3") * G, t=Fraction("41.7") / 1000),
    Kernel("attn-flash", "FlashAttention (GPT-2 medium)", "attention", "A100_SXM", "FP16", "dao2022flashattention",
           "Figure 2 (왼쪽), 표 \"FlashAttention\" 열: GFLOPs, HBM R/W (GB), Runtime (ms)",
           F=Fraction("75.2") * G, Q=Fraction("4.4") * G, t=Fraction("7.3") / 1000),
    Kernel("attn-fa2", "FlashAttention-2 (GPT 학습, A100 한 장)", "attention", "A100_SXM", "FP16",
           "dao2023flashattention2", "초록(Abstract): \"up to 225 TFLOPs/s per A100 GPU\"", rate=Fraction(225) * T),
    Kernel("attn-fa3-fp16", "FlashAttention-3 (FP16)", "attention", "H100_SXM", "FP16", "shah2024flashattention3",
           "초록(Abstract): FP16 \"up to 740 TFLOPs/s\"", rate=Fraction(740) * T),
    Kernel("attn-fa3-fp8", "FlashAttention-3 (FP8)", "attention", "H100_SXM", "FP8", "shah2024flashattention3",
           "초록(Abstract): FP8 \"close to 1.2 PFLOPs/s\"", rate=Fraction("1.2") * 10**15),
)


def sgemm_ladder() -> tuple[Kernel, ...]:
    """The worklog's kernels in its order (cuBLAS last)."""
    return tuple(k for k in KERNELS if k.family == "sgemm")


@dataclass(frozen=True)
class Placement:
    """A kernel under its bounds: the measured rate, each level's bound, the binding one and the achieved share;
    when the measurement is above the binding bound, `above` names the level and `reason` is what the model says
    the measurement asks of the machine (the reuse the caches gave, `cached_R` the bound with the block's inputs
    kept; or the clock shared memory ran at)."""

    kernel: Kernel
    R_meas: Quantity
    R_bound: Quantity
    level: str
    share: Quantity
    R_DRAM: Quantity | None = None
    R_smem: Quantity | None = None
    bound: Bound | None = None
    above: str | None = None
    reason: Quantity | None = None
    cached_R: Quantity | None = None


def measured_rate(kernel: Kernel) -> Quantity:
    """R_meas: the published rate, or F / t from the published F and time."""
    if kernel.rate is not None:
        return var("R_meas", kernel.rate)
    return named("R_meas", var("F", kernel.F) / var("t", kernel.t))


def place(kernel: Kernel, catalog) -> Placement:
    """`kernel` under the bounds of the preset it ran on (`catalog`: the course's presets and dtypes)."""
    preset = catalog.presets[kernel.gpu]
    R_meas = measured_rate(kernel)
    P = var("P", preset.P(kernel.dtype))
    if kernel.tiling is not None:
        b = bound(preset, kernel.dtype, catalog.dtypes[kernel.dtype], *kernel.size, kernel.tiling)
        above, reason, cached_R = None, None, None
        if R_meas.value > b.R_bound.value:
            above = "Shared Memory" if b.R_smem is not None and b.R_smem.value < R_meas.value else "DRAM"
            if above == "DRAM":
                reason = implied_reuse(R_meas, b.R_DRAM)
                if kernel.cached is not None:
                    cached_R = bound(preset, kernel.dtype, catalog.dtypes[kernel.dtype], *kernel.size,
                                     kernel.cached).R_DRAM
            else:
                reason = implied_clock(R_meas, b.F, b.Q_smem, preset)
        return Placement(kernel, R_meas, b.R_bound, b.level, share(R_meas, b.R_bound), b.R_DRAM, b.R_smem, b,
                         above, reason, cached_R)
    if kernel.Q is not None:   # published F and Q: the DRAM level of the roofline
        R_DRAM = named("R_DRAM", tmin(P, var("BW", preset.BW) * var("F", kernel.F) / var("Q", kernel.Q)))
        level = binding(P.value, R_DRAM.value)
        return Placement(kernel, R_meas, named("R_bound", R_DRAM), level, share(R_meas, R_DRAM), R_DRAM)   # one level
    R = named("R_bound", P)   # no traffic published: only the compute peak bounds it (R_bound = P)
    return Placement(kernel, R_meas, R, "연산", share(R_meas, R))


def placements(catalog) -> tuple[Placement, ...]:
    return tuple(place(k, catalog) for k in KERNELS)
