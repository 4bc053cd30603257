"""⑤'s sweep over tile sides: I_T and t_ideal for every divisor T of N, with the ridge crossing.

    I_T = 2N³ / (2 s N³/T + s N²)        t_ideal = max(F/P, Q_T/BW)
    I_T ≥ I* exactly when T ≥ T* = 2 s N I* / (2N − s I*)   (80N/(N−40) in FP32 at I* = 20)
"""
from __future__ import annotations

from roofline.show.style import Figure

from roofline import kernels
from roofline.show import fmt, ko, style
from roofline.problems import SweepPoint, divisors, sweep  # noqa: F401  (the figure's data, from the model)
from roofline.show.figures import figure

MS = 1e3


@figure("week4-tile-sweep", "week4")
@style.styled
def week4_tile_sweep(w4) -> Figure:
    """Top: I_T against T with the ridge I*; bottom: t_compute, t_memory and t_ideal against T.

    One narrow column with large type: it is read on a phone (390 px) as well as on a desktop."""
    hw = w4.hardware
    points = sweep(w4)
    Ts = [p.T for p in points]
    threshold = kernels.tile_threshold(w4.N, hw.ridge, w4.s, w4.s)
    crossing = threshold is not None and threshold <= w4.N

    fig = Figure(figsize=(4.4, 6.6))
    top, bottom = fig.subplots(2, 1, sharex=True)

    top.loglog(Ts, [float(p.I) for p in points], "o-", ms=3, lw=1.5, color="dimgray", label="I_T")
    top.axhline(float(hw.ridge), color="gray", ls="--", lw=1.2, label=f"분기점 I* = {fmt.number(hw.ridge, 3)}")
    top.set_ylabel("I_T (FLOPs/Byte)", fontsize=12)
    top.set_title("산술 강도", fontsize=13)
    top.tick_params(labelbottom=True)

    t_c = float(points[0].timing.t_compute) * MS
    bottom.loglog(Ts, [float(p.timing.t_memory) * MS for p in points], ":", lw=2, color="#7f7f7f", label="메모리 시간")
    bottom.axhline(t_c, color="black", ls="--", lw=1.2, label="연산 시간")
    bottom.loglog(Ts, [float(p.timing.t_ideal) * MS for p in points], "o-", ms=3, lw=1.5, color="black",
                  label="이상적 시간")
    bottom.set_xlabel("타일 한 변 T", fontsize=12)
    bottom.set_ylabel("시간 (ms)", fontsize=12)
    bottom.set_title("이상적 시간 = max(연산, 메모리)", fontsize=13)

    for index, T in enumerate(w4.tiles, start=1):
        p = next(q for q in points if q.T == T)
        color = style.case_color(index)
        top.plot(T, float(p.I), "o", ms=9, color=color, label=f"T = {T}", zorder=3)
        bottom.plot(T, float(p.timing.t_ideal) * MS, "o", ms=9, color=color, zorder=3)
    if crossing:
        for ax in (top, bottom):
            ax.axvline(float(threshold), color="#9467bd", ls="--", lw=1.2)
        top.annotate(f"T* ≈ {fmt.decimal(threshold, 3)}", xy=(float(threshold), float(hw.ridge)),
                     xytext=(float(threshold) * 1.6, float(hw.ridge) / 15), color="#9467bd", fontsize=12,
                     arrowprops={"arrowstyle": "->", "color": "#9467bd"})
        bottom.text(float(threshold) * 1.25, t_c * 2.2, "연산 한계", color="#9467bd", fontsize=12, va="bottom")
    for ax in (top, bottom):
        ax.tick_params(labelsize=11)
        style.plain_log_ticks(ax)
    top.legend(fontsize=10, loc="upper left", framealpha=0.95, handlelength=1.4)
    bottom.legend(fontsize=10, loc="upper right", framealpha=0.95, handlelength=1.6)
    fig.suptitle(f"{w4.N}×{w4.N} {w4.dtype} 행렬곱, T만 바꿀 때", fontsize=13)
    return fig


@figure("week4-matmul-times", "week4")
@style.styled
def week4_matmul_times(w4) -> Figure:
    """⑤'s own view: for each case, the memory time Q/BW as a bar and the compute time F/P as a line;
    t_ideal = max(F/P, Q/BW) is written at the end of each bar (log time axis)."""
    from roofline.problems import week4_cases

    cases = week4_cases(w4)
    t_c = float(cases[0].timing.t_compute) * MS

    fig = Figure(figsize=(4.4, 3.4))
    ax = fig.subplots()
    ys = list(range(len(cases)))[::-1]
    for index, (y, case) in enumerate(zip(ys, cases)):
        t_m = float(case.timing.t_memory) * MS
        ax.barh(y, t_m, height=0.6, color=style.case_color(index))
        ideal = fmt.ms(case.timing.t_ideal, 3)
        ax.text(max(t_m, t_c) * 1.15, y, f"{ideal} ms", va="center", fontsize=11.5)
    ax.axvline(t_c, color="black", ls="--", lw=1.5)
    ax.text(t_c * 1.12, ys[0] + 0.5, f"연산 시간 F/P = {fmt.ms(cases[0].timing.t_compute, 3)} ms", ha="left",
            va="bottom", fontsize=11.5)
    ax.set_xscale("log")
    ax.set_xlim(1, float(cases[0].timing.t_memory) * MS * 20)
    ax.set_ylim(-0.6, len(cases) - 0.1 + 0.8)
    ax.set_yticks(ys, [ko.case(c) for c in cases], fontsize=12)
    ax.set_xlabel("메모리 시간 Q/BW (ms)", fontsize=12)
    ax.tick_params(axis="x", labelsize=11)
    ax.grid(axis="y", visible=False)
    style.plain_log_ticks(ax)
    ax.set_title("막대: 메모리 시간\n숫자: 이상적 시간", fontsize=12.5)
    return fig
