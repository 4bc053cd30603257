"""② Roofline (chapters/w4_2_roofline.md): its tables and sentences for one week-4 problem.

Each function takes the model's objects (the problem, its cases, a Roofline) and returns name → value, ready to
glue. Sentences whose truth depends on the parameters are built here, never typed into a page.
"""
from __future__ import annotations

from roofline.cost import Timing
from roofline.problems import week4_cases
from roofline.show import exercises as ex
from roofline.show import fmt, ko, tables, tex
from roofline.show.figures import figure
from roofline.show.palette import case_color

def ridge_equation(hw):
    """I* = P/BW with the machine's numbers, in two short lines."""
    return tex.aligned(r"I^* = \frac{P}{\mathit{BW}} &= \frac{" + tex.power10(hw.P) + r"\ \text{FLOPs/s}}{"
                       + tex.power10(hw.BW) + r"\ \text{Byte/s}} \\ &= " + fmt.number(hw.ridge, 3)
                       + r"\ \text{FLOPs/Byte}")


def points(cases, hw) -> dict:
    """② 's sentence on the figure's points: which cases are memory-bound (their ceilings) and which compute-bound."""
    memory = [c for c in cases if c.timing.memory_bound]
    compute = [c for c in cases if not c.timing.memory_bound]
    parts = []
    if memory:
        parts.append(f"분기점보다 I가 작은 {ko.particle(ko.cases(memory), '은/는')} 메모리 한계로, 기울어진 선 위에 있고, "
                     f"상한은 약 {'·'.join(fmt.tera(c.timing.R_roof, 3) for c in memory)} TFLOPs/s다.")
    if compute:
        parts.append(f"분기점을 넘은 {ko.particle(ko.cases(compute), '은/는')} 연산 한계다. "
                     f"I가 약 {'·'.join(fmt.decimal(c.cost.I, 3) for c in compute)} FLOPs/Byte여도 "
                     f"상한이 P = {fmt.number(hw.P / fmt.TERA, 3)} TFLOPs/s에서 멈춘다.")
    return {"points": " ".join(parts), "n-cases": fmt.integer(len(cases))}


def time_table(cases) -> dict:
    """F (the same for every case) and the table of ceilings and Roofline times."""
    (F,) = {c.cost.F for c in cases}   # reuse does not change the FLOPs
    rows = [(ko.case(c), fmt.tera(c.timing.R_roof, 6), fmt.ms(c.timing.t_ideal, 6)) for c in cases]
    return {"F": fmt.integer(F),
            "time-table": tables.markdown(["경우", "성능 상한 (TFLOPs/s)", "Roofline 예상 시간 (ms)"], rows, "lrr")}


def change(before, after) -> str:
    """"그대로다", "두 배가 된다" or "2.50배가 된다": how a ceiling changed."""
    if after == before:
        return "그대로다"
    ratio = after / before
    return "두 배가 된다" if ratio == 2 else f"{fmt.ratio(ratio)}가 된다"


def limit_sentence(machine, I, new: bool = False) -> str:
    """The limiting resource at intensity I on `machine`, said by comparing I with its ridge point I* = P/BW."""
    ridge = "새 분기점" if new else "분기점"
    if I == machine.ridge:
        star = ko.particle(f"{ridge} I* = {fmt.number(I, 3)} FLOPs/Byte", "과/와")
        return (f"{'이제 ' if new else ''}I가 {star} 같아 두 상한이 만난다. "
                "HBM 대역폭과 연산 성능이 동시에 제한 자원이다.")
    if I < machine.ridge:
        return f"I가 {ridge}보다 작으므로 제한 자원은 HBM 대역폭이다."
    return f"I가 {ridge}보다 크므로 제한 자원은 연산 성능이다."


def doubling(hw, I) -> dict:
    """② 's discussion: the ceiling at I now, with P doubled and with BW doubled; the ridge points and the table."""
    more_P, more_BW = hw.with_(P=2 * hw.P), hw.with_(BW=2 * hw.BW)
    R0, R_P, R_BW = hw.R_roof(I), more_P.R_roof(I), more_BW.R_roof(I)

    def tera(rate):
        return fmt.number(rate / fmt.TERA, 3)

    table = tables.markdown(
        ["경우", "분기점 I*", "상한"],
        [(f"{name}: P = {tera(m.P)}, BW = {tera(m.BW)}", fmt.number(m.ridge, 3), tera(m.R_roof(I)))
         for name, m in [("지금", hw), ("P만 두 배", more_P), ("BW만 두 배", more_BW)]],
        "lrr",
    )
    return {"q-I": fmt.number(I, 3), "q-R0": tera(R0), "q-R0-limit": limit_sentence(hw, I),
            "q-R-P": tera(R_P), "q-R-P-change": change(R0, R_P), "q-R-BW": tera(R_BW),
            "q-R-BW-change": change(R0, R_BW), "q-ridge-P": fmt.number(more_P.ridge, 3),
            "q-ridge-BW": fmt.number(more_BW.ridge, 3), "q-limit-P": limit_sentence(more_P, I, new=True),
            "q-limit-BW": limit_sentence(more_BW, I, new=True), "q-table": table}


# ---------------------------------------------------------------- the page's values, one dict per section

def machine_section(w4) -> dict:
    """The machine the page speaks of: its dtype, its name ("가상 하드웨어" or the GPU's) and its ridge point."""
    return {"dtype": w4.dtype, "machine": w4.preset.name, "ridge": fmt.number(w4.hardware.ridge, 3)}


def figure_section(w4) -> dict:
    return {"roofline-figure": roofline_figure(w4)}


def ridge_section(w4) -> dict:
    return {"ridge-eq": ridge_equation(w4.hardware)}


def points_section(w4) -> dict:
    """The sentence on the figure's points and the matrix shape it names."""
    return {**points(week4_cases(w4), w4.hardware), "shape": f"{w4.N}×{w4.N}"}   # a shape: no thousands separators


# ---------------------------------------------------------------- exercises

def _gpu_roofline(w4):
    """A real GPU of the week (its first example GPU) and a dtype it has, other than the chapter's when it can."""
    gpu = w4.catalog.presets[w4.gpus[0]]
    d2 = ex.other_dtype(w4.catalog, w4.dtype)
    dtype = d2 if d2 in gpu.peak else (w4.dtype if w4.dtype in gpu.peak else next(iter(gpu.peak)))
    return gpu, dtype, gpu.roofline(dtype), w4.catalog.bytes_per(dtype)


def exercises(w4) -> ex.Exercises:
    """② On a real GPU in another dtype: the roof of a tiled matmul at another N and T, its time, and whether it
    is memory- or compute-bound."""
    gpu, dtype, hw, s = _gpu_roofline(w4)
    N1 = ex.half(w4.N)
    T1 = ex.divisor_near(N1, 2 * max(w4.tiles), w4.tiles)
    cost, steps = ex.matmul_steps(N1, T1, s)
    t = Timing(cost, hw)
    P_T, BW_T = ex.tera(hw.P), ex.tera(hw.BW)
    R = ex.equation("R_roof", "min(P, BW × I_T)", f"min({P_T}, {BW_T} × {fmt.number(cost.I, 6)})", t.R_roof, "TFLOPs/s",
            scale=10**12)
    time = ex.equation("t", "F / R_roof", f"{ex.number(cost.F)} / ({fmt.tera(t.R_roof, 6)} × 10¹²)", cost.F / t.R_roof, "ms")
    key, judged = ex.bound_by_ridge(cost.I, hw)
    setting = (f"{gpu.name}의 {dtype} 최대 성능은 P = {P_T} TFLOPs/s, HBM 대역폭은 BW = {BW_T} TB/s다. "
               f"이 GPU에서 {ex.shape(N1)} {ex.dtype_text(dtype, s)} 행렬곱을 T = {ex.number(T1)} 출력 타일로 계산한다"
               "(재사용은 타일 안에서만, C는 한 번 쓴다).")
    given = ex.given(N=N1, T=T1, s=s, P=hw.P, BW=hw.BW)
    return ex.Exercises("②", (
        ex.Question("②-1", f"{setting} 성능 상한 R_roof는?", t.R_roof, ex.UNITS["TFLOPs/s"],
                 "R_roof = min(P, BW × I_T), I_T = 2N³ / (2·s·N³/T + s·N²)", tuple(steps) + (R,), given=given),
        ex.Question("②-2", f"②-1의 행렬곱이 그 상한으로 돈다면 걸리는 시간은?", cost.F / t.R_roof, ex.UNITS["ms"],
                 "t = F / R_roof", (steps[0], R, time), given=given),
        ex.Question("②-3", f"②-1의 행렬곱은 이 GPU에서 메모리 한계인가, 연산 한계인가?", key, ex.CHOICE,
                 "I_T와 분기점 I* = P / BW를 견준다", tuple(steps) + tuple(judged), ex.BOUND_CHOICES, given=given),
    ))


# ---------------------------------------------------------------- the figure (also the week-4 guide's)

FIG_LABEL = {"fontsize": 10, "color": "dimgray"}


def draw_roofline(ax, hw, I_min: float, I_max: float) -> None:
    """The two lines and the ridge point on log–log axes, rates in TFLOPs/s.

    Labels sit beside the lines, never on them: the memory label runs parallel above the slope
    (slope 1 on log–log axes, rotated with the axes), the ceiling label above the flat part, right-aligned at
    the right edge, the ridge label below the ceiling, to the right of the dashed line. Both of these need room
    right of the ridge: the axis reaches far enough right of the ridge that they fit between the ridge and the
    edge for any machine (their widths estimated from their text; a high ridge widens the right part).
    """
    import math

    import numpy as np

    from roofline.show import style

    TERA = float(fmt.TERA)
    P, BW, ridge = float(hw.P), float(hw.BW), float(hw.ridge)
    ceiling = ax.text(I_max / 1.1, P / TERA * 1.3, f"연산 상한\nP = {fmt.number(hw.P / TERA, 3)} TFLOPs/s",
                      ha="right", va="bottom", **FIG_LABEL)
    ridge_label = ax.annotate(
        f"분기점 I* = P/BW\n= {fmt.number(hw.ridge, 3)} FLOPs/Byte",
        xy=(ridge, P / TERA), xytext=(ridge * 1.4, P / TERA / 5), ha="left", va="top",
        arrowprops={"arrowstyle": "->", "color": "gray"}, fontsize=10,
    )
    I_max = max(I_max, ridge * _room_right(ax, [ceiling, ridge_label], ridge / I_min))
    ceiling.set_x(I_max / 1.1)
    I = np.geomspace(I_min, I_max, 200)
    ax.loglog(I, np.minimum(P, BW * I) / TERA, color="black", lw=2, label="성능 상한 min(P, BW×I)")
    ax.axvline(ridge, color="gray", ls="--", lw=1)
    ax.set_xlim(I_min, I_max)
    ax.set_ylim(BW * I_min / TERA / 2, P / TERA * 4)

    # memory line: parallel label, a little above the line, between I_min and the ridge (geometric 1/3)
    I_text = I_min * (ridge / I_min) ** 0.3
    R_text = BW * I_text / TERA * 1.5
    angle = math.degrees(math.atan2(R_text, I_text))   # direction (x, y): slope 1 in log–log coordinates
    ax.text(I_text, R_text, f"메모리 상한 BW×I (BW = {fmt.number(hw.BW / TERA, 3)} TB/s)", rotation=angle,
            rotation_mode="anchor", transform_rotates_text=True, ha="left", va="bottom", **FIG_LABEL)
    ax.set_xlabel("산술 강도 I (FLOPs/Byte, 로그 축)")
    ax.set_ylabel("성능 상한 R (TFLOPs/s, 로그 축)")
    style.plain_log_ticks(ax)


def _width_in(text: str, fontsize: float) -> float:
    """A generous estimate of a label's width in inches, from its characters alone (not from a renderer, whose
    font metrics differ between machines: the figure's data must not): a Hangul or other wide character
    takes 1 em, any other 0.65 em."""
    return max(sum(1.0 if ord(c) >= 0x1100 else 0.65 for c in line) for line in text.split("\n")) * fontsize / 72


def _room_right(ax, labels, left: float) -> float:
    """How far right of the ridge (a factor of I) the axis must reach for `labels` to fit between the ridge and
    the right edge, the axis reaching `left` (a factor) left of it. A label's share w of the axes' width (its
    estimated width over the axes' width before the layout, less a margin) takes w·D of the D decades shown; it
    starts a factor 1.4 right of the ridge (or ends 1.1 left of the edge), with a gap of 0.1 decade.
    Solving d ≥ w(log left + d) + gap."""
    import math

    axes_in = ax.figure.get_figwidth() * ax.get_position().width * 0.9
    share = max(_width_in(label.get_text(), label.get_fontsize()) for label in labels) / axes_in
    gap = math.log10(1.4) + 0.1
    return 10 ** ((share * math.log10(left) + gap) / (1 - share))


@figure("week4-roofline", "week4")
def roofline_figure(w4):
    """The guide's and ②'s picture: the week-4 machine and the no-reuse and tiled cases as points."""
    from roofline.show.style import Figure

    TERA = float(fmt.TERA)
    cases = week4_cases(w4)
    I_values = [float(c.cost.I) for c in cases] + [float(w4.hardware.ridge)]
    fig = Figure(figsize=(6.4, 4.4))   # narrow: the labels stay legible when a phone shrinks the picture
    ax = fig.subplots()
    draw_roofline(ax, w4.hardware, min(I_values) / 4, max(I_values) * 8)
    for index, case in enumerate(cases):
        color = case_color(index)   # shared mapping: 0 = 재사용 없음, then the tiles in order
        I, R = float(case.cost.I), float(case.timing.R_roof) / TERA
        ax.plot(I, R, "o", ms=8, color=color, zorder=3,
                label=f"{ko.case(case)}: I = {fmt.decimal(case.cost.I, 3)}, R = {fmt.tera(case.timing.R_roof, 3)}")
    ax.legend(loc="lower right", fontsize=10, framealpha=0.95, title="I (FLOPs/Byte), R (TFLOPs/s)", title_fontsize=9)
    ax.set_title(f"{w4.N}×{w4.N} {w4.dtype} 행렬곱의 Roofline 상한 (점은 측정값이 아닌 모델 상한)", fontsize=11)
    return fig
