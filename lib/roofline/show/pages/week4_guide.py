"""The week-4 guide (chapters/week4_guide.md): the shared problem's table and the sentences of its questions.

Each function takes the model's objects (the problem, its cases) and returns name → value, ready to glue.
Sentences whose truth depends on the parameters are built here, never typed into a page.
"""
from __future__ import annotations

from roofline.show import fmt, ko, tables


def problem_table(w4) -> dict:
    """The guide's table of the shared problem (shape, dtype, P, BW, ridge point, tile sides; the maker's source
    when the machine is a real GPU) and the names the guide's sentences use."""
    hw, N = w4.hardware, w4.N
    rows = [
        ("행렬 크기", f"A, B, C 모두 {N}×{N} ({ko.nbsp(f'N = {fmt.integer(N)}')})"),
        ("자료형", f"{w4.dtype}, 원소와 중간 합 모두 원소당 {fmt.integer(w4.s)} Byte"),
        ("최대 연산 성능 P", f"{fmt.power10(hw.P)} FLOPs/s ({ko.nbsp(f'{fmt.number(hw.P / fmt.TERA, 3)} TFLOPs/s')})"),
        ("HBM 대역폭 BW", f"{fmt.power10(hw.BW)} Byte/s"),
        ("분기점 I* = P/BW", f"{fmt.number(hw.ridge, 3)} FLOPs/Byte"),
        ("타일 한 변 T", ", ".join(str(T) for T in w4.tiles)),
    ]
    if w4.hardware_key != "course":   # a real GPU: its numbers are the maker's
        rows.append(("하드웨어 수치의 출처", f"[{w4.preset.name}]({w4.preset.source})"))
    tiles = "·".join(str(T) for T in w4.tiles)
    return {"problem-table": tables.markdown(["항목", "값"], rows, "ll"), "shape": f"{N}×{N}", "dtype": w4.dtype,
            "tiles": tiles, "tiles-compared": ko.particle(tiles, "으로/로"), "ridge": fmt.number(hw.ridge, 3),
            "small-shape": f"{w4.small_N}×{w4.small_N}", "small-tile": f"{w4.small_T}×{w4.small_T}"}


def reach(cases) -> dict:
    """The guide's caption: which tile sides reach the compute ceiling ("T = 128만 연산 상한에 닿는다")."""
    tiled = [c for c in cases if c.T is not None]
    top = [c for c in tiled if not c.timing.memory_bound]
    if not top:
        text = "어느 타일도 연산 상한에 닿지 못한다"
    elif len(top) == len(tiled):
        text = "모든 타일이 연산 상한에 닿는다"
    elif len(top) == 1:
        text = f"{ko.cases(top)}만 연산 상한에 닿는다"
    else:
        text = f"{ko.particle(ko.cases(top), '이/가')} 연산 상한에 닿는다"
    return {"reach": text}


def step(cases) -> dict:
    """The guide's question on the last two cases: the ratio of Q and of the ideal time (same digits, "배")."""
    before, after = cases[-2], cases[-1]
    return {"step-before": ko.case(before), "step-after": ko.particle(ko.case(after), "으로/로"),
            "step-Q": fmt.ratio(after.cost.Q / before.cost.Q), "step-t": fmt.ratio(after.timing.t_ideal / before.timing.t_ideal)}
