"""The week-4 guide and chapter ② (Roofline): their tables and sentences for one week-4 problem.

Each function takes the model's objects (the problem, its cases, a Roofline) and returns name → value, ready to
glue. Sentences whose truth depends on the parameters are built here, never typed into a page.
"""
from __future__ import annotations

from roofline.show import fmt, ko, tables, tex

TERA = 10**12


def names(cases) -> str:
    """"재사용 없음·T = 32·T = 64" (the cases as the tables name them), or "" for none."""
    return "·".join(ko.case(c) for c in cases)


def problem_table(w4) -> dict:
    """The guide's table of the shared problem (shape, dtype, P, BW, ridge point, tile sides; the maker's source
    when the machine is a real GPU) and the names the guide's sentences use."""
    hw, N = w4.hardware, w4.N
    rows = [
        ("행렬 크기", f"A, B, C 모두 {N}×{N} ({ko.nbsp(f'N = {fmt.integer(N)}')})"),
        ("자료형", f"{w4.dtype}, 원소와 중간 합 모두 원소당 {fmt.integer(w4.s)} Byte"),
        ("최대 연산 성능 P", f"{fmt.power10(hw.P)} FLOPs/s ({ko.nbsp(f'{fmt.number(hw.P / TERA, 3)} TFLOPs/s')})"),
        ("HBM 대역폭 BW", f"{fmt.power10(hw.BW)} Byte/s"),
        ("분기점 I* = P/BW", f"{fmt.number(hw.ridge, 3)} FLOPs/Byte"),
        ("타일 한 변 T", ", ".join(str(T) for T in w4.tiles)),
    ]
    if w4.hardware_key != "course":   # a real GPU: its numbers are the maker's
        rows.append(("하드웨어 수치의 출처", f"[{w4.preset.name}]({w4.preset.source})"))
    tiles = "·".join(str(T) for T in w4.tiles)
    return {"problem-table": tables.markdown(["항목", "값"], rows, "ll"), "shape": f"{N}×{N}", "dtype": w4.dtype,
            "tiles": tiles, "tiles-to": ko.particle(tiles, "으로/로"), "ridge": fmt.number(hw.ridge, 3),
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
        text = f"{names(top)}만 연산 상한에 닿는다"
    else:
        text = f"{ko.particle(names(top), '이/가')} 연산 상한에 닿는다"
    return {"reach": text}


def step(cases) -> dict:
    """The guide's question on the last two cases: the ratio of Q and of the ideal time (same digits, "배")."""
    before, after = cases[-2], cases[-1]
    return {"step-from": ko.case(before), "step-to": ko.particle(ko.case(after), "으로/로"),
            "step-Q": fmt.ratio(after.cost.Q / before.cost.Q), "step-t": fmt.ratio(after.timing.t_ideal / before.timing.t_ideal)}


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
        parts.append(f"분기점보다 I가 작은 {ko.particle(names(memory), '은/는')} 메모리 한계로, 기울어진 선 위에 있고, "
                     f"상한은 약 {'·'.join(fmt.tera(c.timing.R_roof, 3) for c in memory)} TFLOPs/s다.")
    if compute:
        parts.append(f"분기점을 넘은 {ko.particle(names(compute), '은/는')} 연산 한계다. "
                     f"I가 약 {'·'.join(fmt.decimal(c.cost.I, 3) for c in compute)} FLOPs/Byte여도 "
                     f"상한이 P = {fmt.number(hw.P / TERA, 3)} TFLOPs/s에서 멈춘다.")
    return {"points": " ".join(parts), "n-cases": fmt.integer(len(cases)),
            "mem-rates": "·".join(fmt.tera(c.timing.R_roof, 3) for c in memory) or "–"}


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


def limit(machine, I, new: bool = False) -> str:
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
        return fmt.number(rate / TERA, 3)

    table = tables.markdown(
        ["경우", "분기점 I*", "상한"],
        [(f"{name}: P = {tera(m.P)}, BW = {tera(m.BW)}", fmt.number(m.ridge, 3), tera(m.R_roof(I)))
         for name, m in [("지금", hw), ("P만 두 배", more_P), ("BW만 두 배", more_BW)]],
        "lrr",
    )
    return {"q-I": fmt.number(I, 3), "q-R0": tera(R0), "q-R0-limit": limit(hw, I),
            "q-R-P": tera(R_P), "q-R-P-change": change(R0, R_P), "q-R-BW": tera(R_BW),
            "q-R-BW-change": change(R0, R_BW), "q-ridge-P": fmt.number(more_P.ridge, 3),
            "q-ridge-BW": fmt.number(more_BW.ridge, 3), "q-limit-P": limit(more_P, I, new=True),
            "q-limit-BW": limit(more_BW, I, new=True), "q-table": table}
