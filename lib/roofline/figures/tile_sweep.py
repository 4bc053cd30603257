"""⑤'s sweep over tile sides: I_T and t_ideal for every divisor T of N, with the ridge crossing.

    I_T = 2N³ / (2 s N³/T + s N²)        t_ideal = max(F/P, Q_T/BW)
    I_T ≥ I* exactly when T ≥ T* = 2 s N I* / (2N − s I*)   (80N/(N−40) in FP32 at I* = 20)
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from matplotlib.figure import Figure

from .. import fmt, kernels, style
from ..cost import Timing
from . import figure
from .roofline import COLORS

MS = 1e3


def divisors(N: int) -> list[int]:
    """Every T with N % T == 0, increasing (1 and N included)."""
    if isinstance(N, bool) or not isinstance(N, int) or N <= 0:
        raise ValueError(f"N must be a positive whole number, got {N!r}")
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
    return [SweepPoint(T, Timing(kernels.matmul_tiled(w4.N, T, w4.s, w4.s), w4.hardware)) for T in divisors(w4.N)]


@figure("week4-tile-sweep")
def week4_tile_sweep(course) -> Figure:
    """Top: I_T against T with the ridge I*; bottom: t_compute, t_memory and t_ideal against T."""
    style.apply()
    w4 = course.week4
    hw = w4.hardware
    points = sweep(w4)
    Ts = [p.T for p in points]
    threshold = kernels.tile_threshold(w4.N, hw.ridge, w4.s, w4.s)
    crossing = threshold is not None and threshold <= w4.N

    fig = Figure(figsize=(7.5, 7.6))
    left, right = fig.subplots(2, 1, sharex=True)   # top: intensity, bottom: times (one column reads on a phone)

    left.loglog(Ts, [float(p.I) for p in points], "o-", ms=3, color="#1f77b4", label="산술 강도 I_T")
    left.axhline(float(hw.ridge), color="gray", ls="--", lw=1, label=f"분기점 I* = {fmt.number(hw.ridge, 3)}")
    left.set_ylabel("I_T (FLOPs/Byte, 로그 축)")
    left.set_title("타일 크기와 산술 강도", fontsize=11)
    left.tick_params(labelbottom=True)

    t_c = float(points[0].timing.t_compute) * MS
    right.loglog(Ts, [float(p.timing.t_memory) * MS for p in points], ":", color="#ff7f0e", label="메모리 시간 Q/BW")
    right.axhline(t_c, color="#2ca02c", ls=":", lw=1.5, label="연산 시간 F/P")
    right.loglog(Ts, [float(p.timing.t_ideal) * MS for p in points], "o-", ms=3, color="black", label="이상적 시간 max")
    right.set_xlabel("타일 한 변 T (N의 약수, 로그 축)")
    right.set_ylabel("시간 (ms, 로그 축)")
    right.set_title("타일 크기와 이상적 시간", fontsize=11)

    for color, T in zip(COLORS, w4.tiles):
        p = next(q for q in points if q.T == T)
        left.plot(T, float(p.I), "o", ms=8, color=color, label=f"T = {T}")
        right.plot(T, float(p.timing.t_ideal) * MS, "o", ms=8, color=color)
    if crossing:
        for ax in (left, right):
            ax.axvline(float(threshold), color="#d62728", ls="--", lw=1)
        left.annotate(f"T* ≈ {fmt.decimal(threshold, 3)}", xy=(float(threshold), float(hw.ridge)),
                      xytext=(float(threshold) * 1.3, float(hw.ridge) / 8), color="#d62728", fontsize=9,
                      arrowprops={"arrowstyle": "->", "color": "#d62728"})
        right.text(float(threshold) * 1.1, t_c * 1.6, f"T ≥ {fmt.decimal(threshold, 3)}:\n연산 제한", color="#d62728",
                   fontsize=9, va="bottom")
    for ax in (left, right):
        ax.legend(fontsize=8, loc="best", framealpha=0.95)
        style.plain_log_ticks(ax)
    fig.suptitle(f"{w4.N}×{w4.N} {w4.dtype} 행렬곱: 타일 사이 재사용 없이 T만 바꿀 때 (모델 상한)", fontsize=11)
    return fig
