"""The explorers' engine: one state of a chapter's explorer as a pure function of the chapter's problem object.

The build and the page call the same functions. `roofline.show.explorer` precomputes the states a control can
reach with them and renders them to HTML; the page's live mode (Pyodide in the reader's browser, _static/live.js)
calls `live(page, values)` with whatever the reader typed and places the result with the same script. A state
is plain data: texts formatted by `fmt`, words from `ko`, float coordinates for the plots (floats only for
plotting). This module imports neither matplotlib, IPython nor NumPy.

    state = {"fields": {name: text},            # a <span data-rl-field=name> shows text
             "widths": {name: "37.5%"},         # a bar's length
             "flags": {name: bool},             # class rl-NAME on the explorer
             "tables": {name: {"align": "lrr", "rows": [[text, …], …]}},
             "plots": {name: {"x", "y", "xticks", "yticks", "xrange", "yrange", "marks", "aria",
                              "series"?, "legend"?}}}
"""
from __future__ import annotations

import ast
import json
import math
from fractions import Fraction

from roofline import buffers, kernels, occupancy, problems
from roofline.cost import Timing
from roofline.problems import powers_of_two
from roofline.errors import ParameterError, check_divides, choice, positive_int, positive_number
from roofline.show import fmt, ko
from roofline.show.pages import w4_4_tile_size as tile_size, w4_5_matmul as matmul
from roofline.show.palette import CASE_COLORS, case_color

TERA = 10**12


# ---------------------------------------------------------------- small helpers

def keep(text: str) -> str:
    """No-break spaces: a table cell such as "T = 32" does not wrap inside."""
    return text.replace(" ", "\u00a0")


def _float(x) -> float:
    """A coordinate for the plot (floats only for plotting), 6 significant digits."""
    return float(f"{float(x):.6g}")


def log_ticks(lo, hi) -> list[list]:
    """Tick positions and labels on a log axis between lo and hi: powers of ten (1-2-5 when fewer than 3)."""
    lo, hi = Fraction(lo), Fraction(hi)
    first, last = math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 1
    for steps in ((1,), (1, 2, 5)):
        ticks = []
        for k in range(first, last + 1):
            for m in steps:
                value = m * Fraction(10) ** k
                if lo <= value <= hi:
                    ticks.append([_float(value), fmt.number(value, max(0, -k))])
        if len(ticks) >= 3:
            break
    return ticks


def tile_ticks(Ts: list[int]) -> list[list]:
    """Every tile side on the axis, every other one when there are many (a phone is narrow)."""
    step = 1 if len(Ts) <= 6 else 2
    return [[T, fmt.integer(T)] for T in Ts[::step]]


def machine_words(hw) -> dict[str, str]:
    return {"P": fmt.number(hw.P / TERA, 3), "BW": fmt.number(hw.BW / TERA, 3), "ridge": fmt.number(hw.ridge, 3)}


def check_colours(cases, key: str = "tiles") -> None:
    """The explorer's plot has one colour per case (the figures' colours)."""
    if len(cases) > len(CASE_COLORS):
        raise ParameterError(f"{key}: 조건 탐색기는 타일을 {len(CASE_COLORS) - 1}개까지 비교한다. 받은 값: {len(cases) - 1}개")


# ---------------------------------------------------------------- ② the roofline

ROOFLINE_HEADERS = ["경우", "I (FLOPs/Byte)", "성능 상한 (TFLOPs/s)", "Roofline 예상 시간 (ms)", "제한 자원"]
ROOFLINE_ALIGN = "lrrrl"


def roofline_row(case) -> list[str]:
    """One row of ②'s explorer table: I, R_roof, t_ideal, the limiting resource."""
    t = case.timing
    return [keep(ko.case(case)), fmt.decimal(t.cost.I, 6), fmt.tera(t.R_roof, 6), fmt.ms(t.t_ideal, 6), keep(ko.bound(t))]


def roofline_state(w4) -> dict:
    """② on the problem's machine (`w4.hardware_key` in `w4.dtype`): the roofline, the week-4 cases as points, the
    table of I, R_roof, t_ideal and limiting resource, and which cases are memory- or compute-bound."""
    hw = w4.hardware
    cases = problems.week4_cases(w4)
    check_colours(cases)
    name = w4.preset.name
    fields = {**machine_words(hw), "machine": f"{name}, {w4.dtype}", "shape": f"{fmt.integer(w4.N)}×{fmt.integer(w4.N)}",
              "regimes": matmul.regimes(cases) + "."}
    I_all = [c.cost.I for c in cases] + [hw.ridge]
    lo, hi = min(I_all) / 4, max(I_all) * 8
    xs = sorted({lo, hw.ridge, hi, *(c.cost.I for c in cases)})
    ys = [[_float(hw.R_roof(x) / TERA) for x in xs]]
    ys += [[_float(c.timing.R_roof / TERA) if x == c.cost.I else None for x in xs] for c in cases]
    y_lo, y_hi = hw.BW * lo / TERA / 2, hw.P / TERA * 4
    plot = {
        "x": [_float(x) for x in xs], "y": ys,
        "xticks": log_ticks(lo, hi), "yticks": log_ticks(y_lo, y_hi),
        "xrange": [_float(lo), _float(hi)], "yrange": [_float(y_lo), _float(y_hi)],
        "marks": [{"x": _float(hw.ridge), "y": _float(hw.P / TERA), "text": f"I* = {fields['ridge']}", "vline": True}],
        "aria": (f"{name} {w4.dtype}의 Roofline. 분기점 I* = {fields['ridge']} FLOPs/Byte, 연산 상한 P = {fields['P']} "
                 f"TFLOPs/s. 점은 " + ", ".join(f"{ko.case(c)} (I = {fmt.decimal(c.cost.I, 3)})" for c in cases)
                 + "의 성능 상한이다."),
        "series": [{"color": "var(--rl-ink)", "width": 2, "line": True}]
                  + [{"color": case_color(i), "points": 9} for i in range(len(cases))],
        "legend": [["var(--rl-ink)", False, "성능 상한 min(P, BW×I)"], ["var(--rl-muted)", True, "분기점 I*"]]
                  + [[case_color(i), False, ko.case(c)] for i, c in enumerate(cases)],
    }
    return {"fields": fields, "tables": {"cases": {"align": ROOFLINE_ALIGN, "rows": [roofline_row(c) for c in cases]}},
            "plots": {"roofline": plot}}


# ---------------------------------------------------------------- ⑤ the matmul

MATMUL_HEADERS = ["방식", "F (FLOPs)", "총 Q (Byte)", "I (FLOPs/Byte)", "Roofline 상한 (TFLOPs/s)", "연산 시간 (ms)",
                  "메모리 시간 (ms)", "이상적 시간 (ms)", "모델상 제한 자원", "시간 비율 t₀/t"]
MATMUL_ALIGN = "lrrrrrrrlr"


def matmul_row(case, base) -> list[str]:
    """One row with ⑤'s comparison columns: F, Q, I, R_roof, t_compute, t_memory, t_ideal, limiting resource, t₀/t."""
    t = case.timing
    return [keep(ko.case(case)), fmt.integer(t.cost.F), fmt.integer(t.cost.Q), fmt.decimal(t.cost.I, 6),
            fmt.tera(t.R_roof, 6), fmt.ms(t.t_compute, 6), fmt.ms(t.t_memory, 6), fmt.ms(t.t_ideal, 6),
            keep(ko.bound(t)), fmt.ratio(base.timing.t_ideal / t.t_ideal)]


def matmul_sweep(w4) -> list[int]:
    """The tile sides on ⑤'s curves: every power of two from 8 that divides N, and the problem's tiles."""
    return sorted(set(powers_of_two(w4.N)) | set(w4.tiles))


def matmul_state(w4, T: int) -> dict:
    """⑤ for the problem `w4` and the chosen tile side T: the point on the I–T and time–T curves over
    `matmul_sweep(w4)` (with T), and the table's two rows (no reuse, T) with ⑤'s comparison columns."""
    T = positive_int(T, "T")
    check_divides("T", T, "N", w4.N)
    hw = w4.hardware
    Ts = sorted(set(matmul_sweep(w4)) | {T})
    cases = problems.week4_cases(w4.with_(tiles=Ts))
    base, sweep = cases[0], {c.T: c for c in cases[1:]}
    chosen = sweep[T]
    I_lo = min(min(c.cost.I for c in sweep.values()), hw.ridge) / 2
    I_hi = max(max(c.cost.I for c in sweep.values()), hw.ridge) * 2
    t_c = base.timing.t_compute
    t_lo = min(t_c, min(c.timing.t_memory for c in sweep.values())) * 1000 / 2
    t_hi = max(c.timing.t_ideal for c in sweep.values()) * 1000 * 2
    rows = [matmul_row(base, base), matmul_row(chosen, base)]
    fields = {f"r{i}-{j}": text for i, row in enumerate(rows) for j, text in enumerate(row) if j}
    fields.update({"T": rows[1][0], "shape": f"{w4.N}×{w4.N}", "N": fmt.integer(w4.N), "dtype": w4.dtype,
                   "machine": w4.preset.name, "regimes": matmul.regimes([base, chosen]) + "."})
    x = [float(t) for t in Ts]
    xrange = [_float(Fraction(Ts[0]) / Fraction(3, 2)), _float(Ts[-1] * Fraction(3, 2))]
    I_T, t_T = fmt.decimal(chosen.cost.I, 3), fmt.ms(chosen.timing.t_ideal, 3)
    return {"fields": fields, "plots": {
        "intensity": {
            "x": x, "y": [[_float(c.cost.I) for c in sweep.values()], [_float(hw.ridge)] * len(Ts),
                          [_float(chosen.cost.I) if t == T else None for t in Ts]],
            "xticks": tile_ticks(Ts), "yticks": log_ticks(I_lo, I_hi), "xrange": xrange,
            "yrange": [_float(I_lo), _float(I_hi)],
            "marks": [{"x": _float(T), "y": _float(chosen.cost.I), "text": f"I = {I_T}"}],
            "aria": (f"{w4.N}×{w4.N} 행렬곱의 산술 강도 I_T 곡선. T = {T}에서 I = {I_T} FLOPs/Byte, "
                     f"분기점 I* = {fmt.number(hw.ridge, 3)} FLOPs/Byte."),
        },
        "times": {
            "x": x, "y": [[_float(c.timing.t_ideal * 1000) for c in sweep.values()], [_float(t_c * 1000)] * len(Ts),
                          [_float(c.timing.t_memory * 1000) for c in sweep.values()],
                          [_float(chosen.timing.t_ideal * 1000) if t == T else None for t in Ts]],
            "xticks": tile_ticks(Ts), "yticks": log_ticks(t_lo, t_hi), "xrange": xrange,
            "yrange": [_float(t_lo), _float(t_hi)],
            "marks": [{"x": _float(T), "y": _float(chosen.timing.t_ideal * 1000), "text": f"{t_T} ms"}],
            "aria": (f"{w4.N}×{w4.N} 행렬곱의 이상적 시간 곡선. T = {T}에서 이상적 시간 {t_T} ms, "
                     f"연산 시간 {fmt.ms(t_c, 3)} ms, 제한 자원은 {ko.bound(chosen.timing)}."),
        },
    }}


# ---------------------------------------------------------------- week 3: vector add

VECTOR_HEADERS = ["연산 시간", "메모리 시간", "이상적 실행 시간", "기준 대비 속도", "제한 자원", "메모리 용량"]
VECTOR_ALIGN = "rrrrlr"


def gb(nbytes) -> str:
    return fmt.number(Fraction(nbytes, 10**9)) + " GB"


def ms(seconds) -> str:
    return fmt.number(Fraction(seconds) * 1000)


def vector_row(t: Timing, base: Timing) -> list[str]:
    """The week-3 note's columns: the three times (ms), the speedup over the base machine, the limiting resource."""
    return [f"{ms(t.t_compute)} ms", f"{ms(t.t_memory)} ms", f"{ms(t.t_ideal)} ms",
            fmt.number(base.t_ideal / t.t_ideal) + "배", keep(ko.bound(t))]


def fits_text(footprint: int, capacity) -> str:
    return (f"세 벡터({gb(footprint)})가 용량 {gb(capacity)}에 모두 들어간다." if footprint <= capacity else
            f"세 벡터({gb(footprint)})가 용량 {gb(capacity)}에 한꺼번에 들어가지 않는다. 이때는 한 번에 실행할 수 없어 "
            "위의 시간 모델 밖이다.")


def vector_times(w3, kP=1, kBW=1) -> dict:
    """Week 3 with P×kP and BW×kBW on the problem's machine: the three times, the speedup over the problem's own
    machine and the limiting resource (the part of the state that does not depend on the capacity)."""
    kP, kBW = positive_number(kP, "kP"), positive_number(kBW, "kBW")
    hw = w3.hardware
    add = kernels.vector_add(w3.L, w3.s)
    base = Timing(add, hw)
    machine = hw.with_(P=kP * hw.P, BW=kBW * hw.BW)
    t = Timing(add, machine)
    fields = {f"t{j}": text for j, text in enumerate(vector_row(t, base))}
    fields.update({"P": fmt.number(machine.P / TERA), "BW": fmt.number(machine.BW / TERA),
                   "kind": "메모리 한계" if t.memory_bound else "연산 한계"})
    longer = max(t.t_compute, t.t_memory)
    widths = {"compute": fmt.percent(t.t_compute / longer, 1).replace(" ", ""),
              "memory": fmt.percent(t.t_memory / longer, 1).replace(" ", "")}
    return {"fields": fields, "widths": widths}


def vector_fits(w3, kcap=1) -> dict:
    """Week 3 with the memory capacity ×kcap: whether the three vectors fit."""
    capacity = positive_number(kcap, "kcap") * w3.capacity
    footprint = 3 * w3.s * w3.L
    return {"fields": {"capacity": gb(capacity), "fits": fits_text(footprint, capacity)},
            "flags": {"misfit": footprint > capacity}}


def vector_words(w3) -> dict:
    """The words of the week-3 intro that name the problem: its dtype and its machine (before the factors)."""
    return {"fields": {"dtype": w3.dtype, "base": w3.preset.name}}


def vector_state(w3, kP=1, kBW=1, kcap=1) -> dict:
    times, fits, words = vector_times(w3, kP, kBW), vector_fits(w3, kcap), vector_words(w3)
    return {"fields": {**times["fields"], **fits["fields"], **words["fields"]}, "widths": times["widths"],
            "flags": fits["flags"]}


# ---------------------------------------------------------------- ④ tile size and occupancy

BUFFERING = {1: "단일 버퍼", 2: "이중 버퍼링"}
TILE_HEADERS = ["A 입력 버퍼", "B 입력 버퍼", "입력 합계", "중간 합", "논리적 총합"]
TILES_HEADERS = ["타일", "단일 버퍼", "정한 한도", "이중 버퍼링", "정한 한도"]   # cells: "resident blocks, occupancy"
TILES_ALIGN = "lrlrl"


def tile_choice(w4, T, copies) -> tuple[int, int]:
    """The explorer's tile side T (a divisor of the problem's N) and its input copies (1 or 2)."""
    T = positive_int(T, "T")
    check_divides("T", T, "N", w4.N)
    if copies not in BUFFERING or isinstance(copies, bool):
        raise ParameterError(f"copies: 입력 버퍼 A·B의 벌 수는 1(단일 버퍼) 또는 2(이중 버퍼링)여야 한다. 받은 값: {copies!r}")
    return T, copies


def tile_buffers_state(w4, T, copies) -> dict:
    """④'s buffer sizes of one T×T×T tile with `copies` sets of A·B in the problem's dtype (roofline.buffers)."""
    T, copies = tile_choice(w4, T, copies)
    b = buffers.tile_buffers(T, T, T, w4.s, w4.s, copies)
    return {"fields": {**{f"b{j}": text for j, text in enumerate(tile_size.buffer_row(b))}, "tile": f"T = {T}, {BUFFERING[copies]}"}}


def tile_occupancy_state(w4, T, copies) -> dict:
    """④'s tile on one SM of the problem's `gpu` with its `threads` and `extra_registers`: the demand, the four
    limits, resident blocks, active warps, occupancy and the binding limit (roofline.occupancy.tile_case), in the
    chapter's words (show.tile_size.occupancy_words)."""
    T, copies = tile_choice(w4, T, copies)
    preset = w4.catalog.presets[w4.gpu]
    case = occupancy.tile_case(preset, T, w4.s, copies, w4.threads, w4.extra_registers)
    r = case.result
    return {"fields": tile_size.occupancy_words(case, preset),
            "widths": {"occupancy": fmt.percent(r.occupancy if r else 0, 1).replace(" ", "")},
            "flags": {"misfit": r is None or not r.blocks}}


def tile_cases_state(w4) -> dict:
    """The problem's tiles on its `gpu`, single and double buffering (the chapter's table of GPUs, one GPU), and
    the words of the sentences that name the condition: dtype, Byte per element, GPU, threads, registers allowance."""
    preset = w4.catalog.presets[w4.gpu]
    rows = []
    for T in w4.tiles:
        one, two = (tile_size.resident(occupancy.tile_case(preset, T, w4.s, copies, w4.threads, w4.extra_registers))
                    for copies in (1, 2))
        rows.append([keep(f"T = {fmt.integer(T)}"), keep(one[0]), keep(one[1]), keep(two[0]), keep(two[1])])
    fields = {"dtype": w4.dtype, "s": str(w4.s), "gpu-name": tile_size.gpu_name(preset),
              "threads": fmt.integer(w4.threads), "warps-per-block": fmt.integer(occupancy.warps_per_block(w4.threads, preset.sm.warp_size)),
              "extra": fmt.integer(w4.extra_registers)}
    return {"fields": fields, "tables": {"tiles": {"align": TILES_ALIGN, "rows": rows}}}


def tile_state(w4, T, copies) -> dict:
    """④ for the problem `w4`, the tile side T and `copies`: the buffers, the occupancy and the problem's tiles."""
    parts = [tile_buffers_state(w4, T, copies), tile_occupancy_state(w4, T, copies), tile_cases_state(w4)]
    state: dict = {}
    for part in parts:
        for kind, values in part.items():
            state.setdefault(kind, {}).update(values)
    return state


# ---------------------------------------------------------------- ② the reader's own kernel

KERNELS = {   # kind → (Korean name, its size fields)
    "custom": ("F와 Q를 직접", ("F", "Q")),
    "vector_add": ("Vector Add", ("L",)),
    "matmul": ("정사각 행렬곱 (타일 T)", ("N", "T")),
    "gemv": ("GEMV (M×K 행렬 × 벡터)", ("M", "K")),
    "batched_gemm": ("배치 GEMM (b×K)·(K×N)", ("b", "N", "K")),
}


def kernel_cost(kind: str, sizes: dict, s: int):
    """F and Q of the reader's kernel: given directly, or from the course's kernels in Byte-per-element s."""
    kind = choice(kind, "kernel", KERNELS, "커널")
    n = {key: positive_int(sizes.get(key), key) for key in KERNELS[kind][1]}
    if kind == "custom":
        from roofline.cost import Cost
        return Cost(F=n["F"], Q_read=n["Q"], Q_write=0)
    if kind == "vector_add":
        return kernels.vector_add(n["L"], s)
    if kind == "matmul":
        check_divides("T", n["T"], "N", n["N"])
        return kernels.matmul_tiled(n["N"], n["T"], s, s)
    # a GEMM reads A and B once and writes C once (roofline.gemm.gemm): ④'s general tiling with one tile
    if kind == "gemv":
        return kernels.matmul_tiles(n["M"], 1, n["K"], n["M"], 1, n["K"], s, s)
    return kernels.matmul_tiles(n["b"], n["N"], n["K"], n["b"], n["N"], n["K"], s, s)


def kernel_state(catalog, hardware: str, dtype: str, kind: str, sizes: dict, t_ms=None) -> dict:
    """"내 커널": the reader's kernel on the chosen machine's roofline: I, R_roof, the limiting resource and, with a
    measured time (ms), the achieved FLOPs/s and its share of the roof (a warning above the roof)."""
    hw = catalog.roofline(hardware, dtype)
    cost = kernel_cost(kind, sizes, catalog.dtypes[dtype])
    t = Timing(cost, hw)
    name = catalog.presets[hardware].name
    fields = {"k-machine": f"{name}, {dtype}", "k-F": fmt.integer(cost.F), "k-Q": fmt.integer(cost.Q),
              "k-I": fmt.decimal(cost.I, 6), "k-R": fmt.tera(t.R_roof, 6), "k-bound": ko.bound(t),
              "k-t": fmt.ms(t.t_ideal, 6), "k-ridge": fmt.number(hw.ridge, 3),
              "k-achieved": "–", "k-share": "–", "k-verdict": ""}
    lo = min(cost.I, hw.ridge) / 8
    hi = max(cost.I, hw.ridge) * 8
    xs = sorted({lo, hw.ridge, hi, cost.I})
    ys = [[_float(hw.R_roof(x) / TERA) for x in xs], [_float(t.R_roof / TERA) if x == cost.I else None for x in xs]]
    y_lo, y_top = hw.R_roof(lo) / TERA / 2, hw.P / TERA * 4
    achieved = None
    if t_ms not in (None, ""):
        seconds = positive_number(t_ms, "t_ms") / 1000
        achieved = cost.F / seconds
        share = achieved / t.R_roof
        fields.update({"k-achieved": fmt.tera(achieved, 6), "k-share": fmt.percent(share, 1)})
        fields["k-verdict"] = (
            f"측정한 처리율이 이 하드웨어의 성능 상한 {fmt.tera(t.R_roof, 3)} TFLOPs/s보다 크다. 모델로는 불가능한 값이니 "
            "F와 Q, 시간의 단위, 하드웨어와 자료형을 다시 확인하자." if achieved > t.R_roof else
            f"성능 상한의 {fmt.percent(share, 1)}에 닿았다.")
        ys.append([_float(achieved / TERA) if x == cost.I else None for x in xs])
        y_lo = min(y_lo, achieved / TERA / 2)
        y_top = max(y_top, achieved / TERA * 4)
    plot = {"x": [_float(x) for x in xs], "y": ys, "xticks": log_ticks(lo, hi), "yticks": log_ticks(y_lo, y_top),
            "xrange": [_float(lo), _float(hi)], "yrange": [_float(y_lo), _float(y_top)],
            "marks": [{"x": _float(hw.ridge), "y": _float(hw.P / TERA), "text": f"I* = {fields['k-ridge']}", "vline": True}],
            "aria": (f"{name} {dtype}의 Roofline 위의 내 커널. I = {fmt.decimal(cost.I, 3)} FLOPs/Byte, 성능 상한 "
                     f"{fmt.tera(t.R_roof, 3)} TFLOPs/s" + (f", 측정 처리율 {fmt.tera(achieved, 3)} TFLOPs/s." if achieved else ".")),
            "series": [{"color": "var(--rl-ink)", "width": 2, "line": True}, {"color": case_color(0), "points": 11}]
                      + ([{"color": "var(--rl-accent)", "points": 11}] if achieved else []),
            "legend": [["var(--rl-ink)", False, "성능 상한 min(P, BW×I)"], [case_color(0), False, "모델의 상한 위의 점"]]
                      + ([["var(--rl-accent)", False, "측정한 처리율"]] if achieved else [])}
    return {"fields": fields, "flags": {"above": achieved is not None and achieved > t.R_roof},
            "plots": {"kernel": plot}}


# ---------------------------------------------------------------- live mode: what the reader typed

LIVE = {   # page → the problem and the form's fields: (name, Korean label as in the parameter cell)
    "roofline": ("week4", [("hardware", "하드웨어: 프리셋 이름"), ("dtype", "자료형 (그 하드웨어에 최대 성능이 있는 것)"),
                           ("N", "정사각 행렬 한 변"), ("tiles", "비교할 타일 한 변 T (N의 약수)")]),
    "matmul": ("week4", [("hardware", "하드웨어: 프리셋 이름"), ("dtype", "자료형: 입력·중간 합·출력 모두"),
                         ("N", "정사각 행렬 한 변 (M = N = K)"), ("tiles", "비교할 타일 한 변 T (N의 약수)"),
                         ("T", "곡선 위에서 고른 타일 한 변 T (N의 약수)")]),
    "vector-add": ("week3", [("hardware", "하드웨어: 프리셋 이름"), ("dtype", "자료형"), ("L", "벡터 길이"),
                             ("capacity", "메모리 용량 (Byte)"), ("kP", "연산 성능 P의 배율 k"),
                             ("kBW", "메모리 대역폭 BW의 배율 k"), ("kcap", "메모리 용량의 배율 k")]),
    "tile-size": ("week4", [("dtype", "자료형: 입력 s_in과 중간 합 s_acc 모두"), ("N", "정사각 행렬 한 변 (M = N = K)"),
                            ("tiles", "비교할 정사각 타일 한 변 T"), ("threads", "예시: 블록 하나의 스레드 수"),
                            ("gpu", "점유율 손계산의 GPU (SM 한도가 있는 NVIDIA GPU 프리셋)"),
                            ("extra_registers", "가정: 중간 합 말고 스레드 하나가 더 쓰는 레지스터 (주소, 루프 변수, 곱할 입력 값)"),
                            ("T", "조건 탐색기에서 고른 타일 한 변 T (N의 약수)"), ("copies", "입력 버퍼 A·B")]),
    "kernel": ("catalog", [("hardware", "하드웨어: 프리셋 이름"), ("dtype", "자료형"), ("kernel", "커널"),
                           ("F", "연산량 F (FLOPs)"), ("Q", "이동량 Q (Byte)"), ("L", "벡터 길이 L"),
                           ("N", "행렬 한 변 N"), ("T", "타일 한 변 T"), ("M", "행 수 M"), ("K", "안쪽 차원 K"),
                           ("b", "배치 b"), ("t_ms", "잰 시간 (ms, 없으면 비워 둔다)")]),
}


def cell_value(text):
    """What the reader typed in a field, read as a parameter cell's literal: 3000, 100_000_000, [40, 75], 1/4,
    "H100_SXM" or H100_SXM. Whatever is not a literal stays text (the problem's check then names the field)."""
    text = str(text).strip()
    if "/" in text and "[" not in text:
        try:
            return Fraction(text.replace("_", ""))
        except (ValueError, ZeroDivisionError):
            return text
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return text
    return value


def live_state(page: str, course, values: dict) -> dict:
    """The state of `page`'s explorer for the typed `values` (field → text), starting from the course's problem."""
    if page not in LIVE:
        raise ValueError(f"page: {page!r}")
    names = [name for name, _ in LIVE[page][1]]
    v = {name: cell_value(values[name]) for name in names if name in values}
    if page == "kernel":
        hardware = choice(v.get("hardware"), "hardware", course.presets, "하드웨어 프리셋")
        dtype = choice(v.get("dtype"), "dtype", course.dtypes, "자료형")
        t_ms = values.get("t_ms", "").strip() or None
        return kernel_state(course.catalog, hardware, dtype, v.get("kernel"), v, None if t_ms is None else v["t_ms"])
    if page == "vector-add":
        w3 = course.week3.with_(**{k: v[k] for k in ("hardware", "dtype", "L", "capacity")})
        w3.hardware   # the preset must have the dtype
        return vector_state(w3, v["kP"], v["kBW"], v["kcap"])
    if page == "tile-size":
        w4 = course.week4.with_(**{k: v[k] for k in ("dtype", "N", "tiles", "threads", "gpu", "extra_registers")})
        return tile_state(w4, v["T"], v["copies"])
    w4 = course.week4.with_(**{k: v[k] for k in ("hardware", "dtype", "N", "tiles")})
    w4.hardware
    return roofline_state(w4) if page == "roofline" else matmul_state(w4, v["T"])


def error_field(message: str, page: str) -> str | None:
    """The field a ParameterError names (its message starts with the key: "tiles: …")."""
    key = message.split(":", 1)[0].strip()
    return key if key in {name for name, _ in LIVE[page][1]} else None


_COURSE = []


def live(page: str, values_json: str) -> str:
    """What the page's script calls: the state as JSON, or the Korean ParameterError and the field it names."""
    if not _COURSE:
        from roofline.params import load
        _COURSE.append(load())
    values = json.loads(values_json)
    try:
        state = live_state(page, _COURSE[0], values)
    except ParameterError as error:
        return json.dumps({"error": str(error), "field": error_field(str(error), page)}, ensure_ascii=False)
    return json.dumps({"state": state}, ensure_ascii=False)
