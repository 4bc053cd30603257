"""The roofline picture (week-4 guide, ②, ⑤): log–log, memory slope BW×I, ceiling P, ridge I*, the cases."""
from __future__ import annotations

import math

import numpy as np
from roofline.show.style import Figure

from roofline.show import fmt, ko, style
from roofline.hardware import Roofline
from roofline.problems import week4_cases
from roofline.show.figures import figure

TERA = float(fmt.TERA)
LABEL = {"fontsize": 10, "color": "dimgray"}


def draw_roofline(ax, hw: Roofline, I_min: float, I_max: float) -> None:
    """The two lines and the ridge point on log–log axes, rates in TFLOPs/s.

    Labels sit beside the lines, never on them: the memory label runs parallel above the slope
    (slope 1 on log–log axes, rotated with the axes), the ceiling label above the flat part, right-aligned at
    the right edge, the ridge label below the ceiling, to the right of the dashed line. Both of these need room
    right of the ridge: the axis reaches far enough right of the ridge that they fit between the ridge and the
    edge for any machine (their widths estimated from their text; a high ridge widens the right part).
    """
    P, BW, ridge = float(hw.P), float(hw.BW), float(hw.ridge)
    ceiling = ax.text(I_max / 1.1, P / TERA * 1.3, f"연산 상한\nP = {fmt.number(hw.P / TERA, 3)} TFLOPs/s",
                      ha="right", va="bottom", **LABEL)
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
            rotation_mode="anchor", transform_rotates_text=True, ha="left", va="bottom", **LABEL)
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
    axes_in = ax.figure.get_figwidth() * ax.get_position().width * 0.9
    share = max(_width_in(label.get_text(), label.get_fontsize()) for label in labels) / axes_in
    gap = math.log10(1.4) + 0.1
    return 10 ** ((share * math.log10(left) + gap) / (1 - share))


@figure("week4-roofline", "week4")
@style.styled
def week4_roofline(w4) -> Figure:
    """The guide's and ②'s picture: the week-4 machine and the no-reuse and tiled cases as points."""
    cases = week4_cases(w4)
    I_values = [float(c.cost.I) for c in cases] + [float(w4.hardware.ridge)]
    fig = Figure(figsize=(6.4, 4.4))   # narrow: the labels stay legible when a phone shrinks the picture
    ax = fig.subplots()
    draw_roofline(ax, w4.hardware, min(I_values) / 4, max(I_values) * 8)
    for index, case in enumerate(cases):
        color = style.case_color(index)   # shared mapping: 0 = 재사용 없음, then the tiles in order
        I, R = float(case.cost.I), float(case.timing.R_roof) / TERA
        ax.plot(I, R, "o", ms=8, color=color, zorder=3,
                label=f"{ko.case(case)}: I = {fmt.decimal(case.cost.I, 3)}, R = {fmt.tera(case.timing.R_roof, 3)}")
    ax.legend(loc="lower right", fontsize=10, framealpha=0.95, title="I (FLOPs/Byte), R (TFLOPs/s)", title_fontsize=9)
    ax.set_title(f"{w4.N}×{w4.N} {w4.dtype} 행렬곱의 Roofline 상한 (점은 측정값이 아닌 모델 상한)", fontsize=11)
    return fig
