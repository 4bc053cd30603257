"""① 's figure: arithmetic intensity I against the matrix side N, for vector add and the three matmul cases."""
from __future__ import annotations

import numpy as np
from roofline.show.style import Figure

from roofline import kernels
from roofline.show import fmt, style
from roofline.show.figures import figure


def intensity_curves(w4, T: int, sides) -> dict[str, list]:
    """Exact I for each N in `sides` (FLOPs/Byte): vector add (length N²), no reuse, T×T tiles, ideal."""
    s = w4.s
    return {
        "Vector Add": [kernels.vector_add(N * N, s).I for N in sides],
        "행렬곱, 재사용 없음": [kernels.matmul_no_reuse(N, s, s).I for N in sides],
        f"행렬곱, T = {T} 타일": [kernels.matmul_tiled(N, T, s, s).I for N in sides],
        "행렬곱, 이상적 기준": [kernels.matmul_ideal(N, s, s).I for N in sides],
    }


@figure("week4-intensity", "week4")
@style.styled
def week4_intensity(w4) -> Figure:
    """I against N on log–log axes (powers of ten, real minus signs): only reuse makes I grow with N."""
    T = w4.tiles[0]
    sides = [T * 2**k for k in range(int(np.log2(max(w4.N, 16 * T) // T)) + 1)]
    curves = intensity_curves(w4, T, sides)
    fig = Figure(figsize=(6.4, 4.4))
    ax = fig.subplots()
    # the matmul cases keep their colours of the other figures (재사용 없음, the first tile); vector add grey
    colors = ["#7f7f7f", style.case_color(0), style.case_color(1), "#9467bd"]
    for color, (label, values) in zip(colors, curves.items()):
        ax.loglog(sides, [float(v) for v in values], "o-", ms=4, color=color, label=label)
    ax.axvline(w4.N, color="gray", ls="--", lw=1)
    between = (float(curves[f"행렬곱, T = {T} 타일"][-1]) * float(curves["행렬곱, 이상적 기준"][-1])) ** 0.5
    ax.text(w4.N / 1.06, between, f"이 주의 N = {fmt.integer(w4.N)} ", rotation=90, ha="right", va="center",
            fontsize=9, color="dimgray")
    ax.set_xlabel("행렬 한 변 N (로그 축)")
    ax.set_ylabel("산술 강도 I (FLOPs/Byte, 로그 축)")
    ax.set_title(f"{w4.dtype}: 한 번씩만 읽어야 I가 N과 함께 커진다", fontsize=11)
    ax.legend(loc="upper left", fontsize=9, framealpha=0.95)
    style.power_log_ticks(ax)
    return fig
