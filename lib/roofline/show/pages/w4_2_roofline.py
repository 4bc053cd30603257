"""② Roofline (chapters/w4_2_roofline.md): its tables, sentences, roofline figure (also the week-4 guide's) and two
explorers (the roofline on every preset and dtype, "내 커널") with their live forms, for one week-4 problem.

Each function takes the model's objects (the problem, its cases, a Roofline) and returns name → value, ready to
glue. Sentences whose truth depends on the parameters are built here, never typed into a page.
"""
from __future__ import annotations

import html
from fractions import Fraction

from roofline import kernels, ncu, problems
from roofline.cost import Timing
from roofline.derive import named, tmin, var
from roofline.errors import ParameterError, check_divides, choice, positive_int, positive_number
from roofline.problems import week4_cases
from roofline.show import engine, explorer, fmt, ko, tables, tex, variants, why
from roofline.show import exercises as ex
from roofline.show import predict as pr
from roofline.show.engine import TERA, coord, keep, log_ticks
from roofline.show.figures import figure
from roofline.show.pages.w4_5_matmul import regimes
from roofline.show.palette import case_color


def ridge_equation(hw, dtype: str = "FP32"):
    """I* = P/BW with the machine's numbers, in two short lines, in `dtype`'s units of work (`fmt.unit`)."""
    return tex.aligned(r"I^* = \frac{P}{\mathit{BW}} &= \frac{" + tex.power10(hw.P)
                       + rf"\ \text{{{fmt.unit('FLOPs/s', dtype)}}}}}{{"
                       + tex.power10(hw.BW) + r"\ \text{Byte/s}} \\ &= " + fmt.number(hw.ridge, 3)
                       + rf"\ \text{{{fmt.unit('FLOPs/Byte', dtype)}}}")


def points(cases, hw, src: dict, dtype: str = "FP32") -> dict:
    """② 's sentence on the figure's points: which cases are memory-bound (their ceilings) and which compute-bound,
    in `dtype`'s units of work (`unit_fields`)."""
    u = unit_fields(dtype)
    memory = [c for c in cases if c.timing.memory_bound]
    compute = [c for c in cases if not c.timing.memory_bound]
    parts = []

    def dotted(values):
        return [x for i, v in enumerate(values) for x in (["·"] * bool(i) + [v])]

    if memory:
        parts.append(why.sentence(
            "분기점보다 I가 작은 ", why.particle(why.cases(memory, src), "은/는"), " 메모리 한계로, 기울어진 선 위에 있고, 상한은 약 ",
            *dotted([why.tera(c.timing.derivation("R_roof"), 3, src) for c in memory]), f" {u['u-rate']}다."))
    if compute:
        parts.append(why.sentence(
            "분기점을 넘은 ", why.particle(why.cases(compute, src), "은/는"), " 연산 한계다. I가 약 ",
            *dotted([why.decimal(c.timing.derivation("I"), 3, src) for c in compute]), f" {u['u-I']}여도 상한이 P = ",
            why.number(hw.derivation("P"), 3, src, Fraction(1, fmt.TERA), u["u-rate"]), f" {u['u-rate']}에서 멈춘다."))
    count = named("경우의 수", 1 + var("len(tiles)", len(cases) - 1))   # no reuse, then one case per tile
    return {"points": why.sentence(*[x for i, part in enumerate(parts) for x in ([" "] * bool(i) + [part])]),
            "n-cases": why.integer(count, src)}


def time_table(cases, w4) -> dict:
    """F (the same for every case) and the table of ceilings and Roofline times, each number with its derivation."""
    (F,) = {c.cost.F for c in cases}   # reuse does not change the FLOPs
    src = op_sources(w4)
    rows = [(why.case_label(c, src), why.tera(c.timing.derivation("R_roof"), 6, src),
             why.ms(c.timing.derivation("t_ideal"), 6, src))
            for c in cases]
    assert cases[0].cost.derivation("F").value == F
    rate = unit_fields(w4.dtype)["u-rate"]
    return {"F": why.integer(cases[0].cost.derivation("F"), src),
            "time-table": tables.markdown(["경우", f"성능 상한 ({rate})", "Roofline 예상 시간 (ms)"], rows, "lrr")}


def change(before, after) -> str:
    """"그대로다", "두 배가 된다" or "2.50배가 된다": how a ceiling changed."""
    if after == before:
        return "그대로다"
    ratio = after / before
    return "두 배가 된다" if ratio == 2 else f"{fmt.ratio(ratio)}가 된다"


def limit_sentence(ridge_q, I, src: dict, new: bool = False, dtype: str = "FP32", *, memory: str) -> str:
    """The limiting resource at intensity I on a machine, said by comparing I with its ridge point I* = P/BW
    (`ridge_q`, the derived I*); `memory` names the machine's memory (`ko.memory_name`: HBM, GDDR6)."""
    ridge = "새 분기점" if new else "분기점"
    if I == ridge_q.value:
        return why.sentence(f"{'이제 ' if new else ''}I가 {ridge} I* = ", why.number(ridge_q, 3, src),
                            f" {fmt.unit('FLOPs/Byte', dtype)}와 같아 두 상한이 만난다. {memory} 대역폭과 연산 성능이 동시에 "
                            "제한 자원이다.")
    if I < ridge_q.value:
        return f"I가 {ridge}보다 작으므로 제한 자원은 {memory} 대역폭이다."
    return f"I가 {ridge}보다 크므로 제한 자원은 연산 성능이다."


def doubling(hw, w4) -> dict:
    """② 's discussion at I = I*/2 (half the ridge point): the ceiling now, with P doubled and with BW doubled; the
    ridge points and the table; each number with its derivation."""
    src, d = op_sources(w4), w4.dtype
    P, BW = var("P", hw.P), var("BW", hw.BW)
    I = named("I", named("I*", P / BW) / 2)
    machines = [("지금", P, BW, named("I*", P / BW)), ("P만 두 배", named("P'", 2 * P), BW, None),
                ("BW만 두 배", P, named("BW'", 2 * BW), None)]
    machines = [(name, p, b, star or named("I*'", p / b)) for name, p, b, star in machines]
    R = [named("R_roof" if k == 0 else "R_roof'", tmin(p, b * I)) for k, (_, p, b, _) in enumerate(machines)]

    def tera(q):
        return why.shown(q, fmt.number(q.value / fmt.TERA, 3), src, digits=3, scale=Fraction(1, fmt.TERA),
                         unit=fmt.unit("TFLOPs/s", d), rounding="소수 3자리로 반올림, 끝의 0은 생략")

    def num(q):
        return why.number(q, 3, src)

    table = tables.markdown(
        ["경우", "분기점 I*", "상한"],
        [(why.sentence(f"{name}: P = ", why.labelled(p, fmt.number(p.value / fmt.TERA, 3), src), ", BW = ",
                       why.labelled(b, fmt.number(b.value / fmt.TERA, 3), src)), num(star), tera(r))
         for (name, p, b, star), r in zip(machines, R)],
        "lrr",
    )
    R0, R_P, R_BW = (r.value for r in R)
    memory = ko.memory_name(hw.memory)
    return {"q-I": num(I), "q-R0": tera(R[0]), "q-R0-limit": limit_sentence(machines[0][3], I.value, src, dtype=d,
                                                                            memory=memory),
            "q-R-P": tera(R[1]), "q-R-P-change": change(R0, R_P), "q-R-BW": tera(R[2]),
            "q-R-BW-change": change(R0, R_BW), "q-ridge-P": num(machines[1][3]),
            "q-ridge-BW": num(machines[2][3]), "q-limit-P": limit_sentence(machines[1][3], I.value, src, True, d, memory=memory),
            "q-limit-BW": limit_sentence(machines[2][3], I.value, src, True, d, memory=memory), "q-table": table}


# ---------------------------------------------------------------- the page's values, one dict per section

def machine_section(w4) -> dict:
    """The machine the page speaks of: its dtype, its name ("가상 하드웨어" or the GPU's), its ridge point, and the
    units its prose counts the dtype's work in (`ko.units`)."""
    return {"dtype": w4.dtype, "machine": w4.preset.name,
            "ridge": why.number(w4.roofline.derivation("I*"), 3, op_sources(w4)), **ko.units(w4.dtype)}


def figure_section(w4) -> dict:
    return {"roofline-figure": roofline_figure(w4)}


def ridge_section(w4) -> dict:
    return {"ridge-eq": ridge_equation(w4.roofline, w4.dtype)}


def points_section(w4) -> dict:
    """The sentence on the figure's points and the matrix shape it names."""
    src = {**op_sources(w4), "len(tiles)": w4.origin("tiles")}
    N = why.var("N", w4.N, src)
    return {**points(week4_cases(w4), w4.roofline, src, w4.dtype),
            "shape": why.around(N, ex.shape(w4.N))}


# ---------------------------------------------------------------- exercises

def _gpu_roofline(w4):
    """A real GPU of the week (its first example GPU) and a dtype it has, other than the chapter's when it can."""
    gpu = w4.catalog.presets[w4.gpus[0]]
    d2 = ex.other_dtype(w4.catalog, w4.dtype)
    dtype = d2 if d2 in gpu.peak else (w4.dtype if w4.dtype in gpu.peak else next(iter(gpu.peak)))
    return gpu, dtype, gpu.roofline(dtype), w4.catalog.bytes_per(dtype)



# a student's variant of this page's exercises (roofline.show.variants): N, the tiles, the real GPU and the dtype
VARIANTS = variants.Bounds("week4", variants.sides, variants.tile_sets, variants.gpus, variants.dtypes)

def exercises(w4) -> ex.Exercises:
    """② On a real GPU in another dtype: the roof of a tiled matmul at another N and T, its time, and whether it
    is memory- or compute-bound."""
    gpu, dtype, hw, s = _gpu_roofline(w4)
    N1 = ex.half(w4.N)
    T1 = ex.divisor_near(N1, 2 * max(w4.tiles), w4.tiles)
    cost, steps = ex.matmul_steps(N1, T1, s, dtype=dtype)
    t = Timing(cost, hw)
    P_T, BW_T = ex.tera(hw.P), ex.tera(hw.BW)
    R_ = t.derivation("R_roof")
    rate = fmt.unit("TFLOPs/s", dtype)
    R = ex.derived(R_, rate)
    time_ = named("t", cost.derivation("F") / R_)
    time = ex.derived(time_, "ms")
    key, judged = ex.bound_by_ridge(cost.I, hw, dtype)
    setting = (f"{gpu.name}의 {dtype} 최대 성능은 P = {P_T} {rate}, {ex.memory_name(gpu)} 대역폭은 BW = {BW_T} TB/s다. "
               f"이 GPU에서 {ex.shape(N1)} {ex.dtype_text(dtype, s)} 행렬곱을 T = {ex.number(T1)} 출력 타일로 계산한다"
               "(재사용은 타일 안에서만, C는 한 번 쓴다).")
    given = ex.given(N=N1, T=T1, s=s, P=hw.P, BW=hw.BW, dtype=dtype, hardware=gpu.key)
    # the common mistakes: the cost a mistake gives on this machine, the machine with TB/s read as TiB/s, the roof
    # without its ceiling (the time at that rate is then Q/BW), the ridge inverted
    wrong = {kind: Timing(c, hw)
             for kind, c in ex.matmul_variants(N1, T1, s, s_other=ex.other_size(w4.catalog, dtype)).items()}
    wrong["tb-tib"] = Timing(cost, hw.with_(BW=hw.BW * Fraction(2**40, 10**12)))
    roof = ("c-write", "fma-one", "tile-reuse-ignored", "tb-tib", "dtype-other")
    rates = {**{kind: c.R_roof for kind, c in wrong.items()}, "no-ceiling": t.memory_rate}
    times = {**{kind: c.t_ideal for kind, c in wrong.items()}, "no-ceiling": t.t_memory}   # F / R_roof
    bound = {kind: ("memory" if c.cost.I < c.hw.ridge else "compute") for kind, c in wrong.items()}
    bound["ridge-inverted"] = "memory" if cost.I < 1 / hw.ridge else "compute"
    return ex.Exercises("②", (
        ex.Question("②-1", f"{setting} 성능 상한 R_roof는?", t.R_roof, ex.UNITS[rate],
                 f"{ex.formula(R_)}, {ex.formula(cost.derivation('I'))}, {ex.formula(cost.derivation('Q'))}",
                 tuple(steps) + (R,), given=given,
                 mistakes=ex.named(rates, ("no-ceiling", *roof), lambda v: v, dtype=dtype)),
        ex.Question("②-2", "②-1의 행렬곱이 그 상한으로 돈다면 걸리는 시간은?", cost.F / t.R_roof, ex.UNITS["ms"],
                 ex.formula(time_), (steps[0], R, time), given=given,
                 mistakes=ex.named(times, ("no-ceiling", *roof), lambda v: v, dtype=dtype)),
        ex.Question("②-3", "②-1의 행렬곱은 이 GPU에서 메모리 한계인가, 연산 한계인가?", key, ex.CHOICE,
                 "I_T와 분기점 I* = P / BW를 견준다", tuple(steps) + tuple(judged), ex.BOUND_CHOICES, given=given,
                 mistakes=ex.named(bound, ("tb-tib", "ridge-inverted", "c-write", "tile-reuse-ignored"), lambda v: v, dtype=dtype)),
    ))


# ---------------------------------------------------------------- the figure (also the week-4 guide's)

FIG_LABEL = {"fontsize": 10, "color": "dimgray"}


def draw_roofline(ax, hw, I_min: float, I_max: float, dtype: str = "FP32") -> None:
    """The two lines and the ridge point on log–log axes, rates in TFLOPs/s (TOPS for an integer `dtype`).

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
    u = unit_fields(dtype)
    P, BW, ridge = float(hw.P), float(hw.BW), float(hw.ridge)
    ceiling = ax.text(I_max / 1.1, P / TERA * 1.3, f"연산 상한\nP = {fmt.number(hw.P / TERA, 3)} {u['u-rate']}",
                      ha="right", va="bottom", **FIG_LABEL)
    ridge_label = ax.annotate(
        f"분기점 I* = P/BW\n= {fmt.number(hw.ridge, 3)} {u['u-I']}",
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
    ax.set_xlabel(f"산술 강도 I ({u['u-I']}, 로그 축)")
    ax.set_ylabel(f"성능 상한 R ({u['u-rate']}, 로그 축)")
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
    u = unit_fields(w4.dtype)
    cases = week4_cases(w4)
    I_values = [float(c.cost.I) for c in cases] + [float(w4.roofline.ridge)]
    fig = Figure(figsize=(6.4, 4.4))   # narrow: the labels stay legible when a phone shrinks the picture
    ax = fig.subplots()
    draw_roofline(ax, w4.roofline, min(I_values) / 4, max(I_values) * 8, w4.dtype)
    for index, case in enumerate(cases):
        color = case_color(index)   # shared mapping: 0 = 재사용 없음, then the tiles in order
        I, R = float(case.cost.I), float(case.timing.R_roof) / TERA
        ax.plot(I, R, "o", ms=8, color=color, zorder=3,
                label=f"{ko.case(case)}: I = {fmt.decimal(case.cost.I, 3)}, R = {fmt.tera(case.timing.R_roof, 3)}")
    ax.legend(loc="lower right", fontsize=10, framealpha=0.95, title=f"I ({u['u-I']}), R ({u['u-rate']})", title_fontsize=9)
    ax.set_title(f"{ex.shape(w4.N)} {w4.dtype} 행렬곱의 Roofline 상한 (점은 측정값이 아닌 모델 상한)", fontsize=11)
    return fig


# ---------------------------------------------------------------- the explorers: the roofline and "내 커널"

def machine_words(hw, src: dict, dtype: str) -> dict[str, str]:
    """P and BW in 10¹², and I*, each with its record; P in the unit `dtype` counts (`fmt.unit`: TOPS for INT8)."""
    tera = Fraction(1, TERA)
    return {"P": why.number(hw.derivation("P"), 3, src, tera, fmt.unit("TFLOPs/s", dtype)),
            "BW": why.number(hw.derivation("BW"), 3, src, tera, "TB/s"), "ridge": why.number(hw.derivation("I*"), 3, src)}




ROOFLINE_ALIGN = "lrrrl"
UNIT_FIELDS = {"u-I": "FLOPs/Byte", "u-rate": "TFLOPs/s", "u-F": "FLOPs"}   # the explorers' fields that name a unit of work


def unit_fields(dtype: str) -> dict[str, str]:
    """The units ②'s explorer writes beside its numbers, as `dtype` counts its work (`fmt.unit`): FLOPs/Byte and
    TFLOPs/s for a floating-point dtype, OPs/Byte and TOPS for an integer one."""
    return {name: fmt.unit(u, dtype) for name, u in UNIT_FIELDS.items()}


def axis_labels(dtype: str) -> dict[str, str]:
    """The axes of ②'s explorer plots, in `dtype`'s units (`unit_fields`): a state carries them (explorer.js)."""
    u = unit_fields(dtype)
    return {"xlabel": f"산술 강도 I ({u['u-I']}, 로그 축)", "ylabel": f"R ({u['u-rate']}, 로그 축)"}


def roofline_headers(dtype: str) -> list[str]:
    """The header of ②'s explorer table, its units those of `dtype` (`unit_fields`)."""
    u = unit_fields(dtype)
    return ["경우", f"I ({u['u-I']})", f"성능 상한 ({u['u-rate']})", "Roofline 예상 시간 (ms)", "제한 자원"]


def op_names(dtype: str) -> dict:
    """The page's own names (`("name", symbol)` in a why source) that count `dtype`'s work in its unit (`fmt.unit`):
    an integer dtype's F, P, I, R_roof … in OPs; none for a floating-point dtype."""
    return {("name", symbol): (name, fmt.unit(u, dtype)) for symbol, (name, u) in why.NAMES.items()
            if fmt.unit(u, dtype) != u}


def op_sources(w4) -> dict:
    """`why.sources(w4)`, its derivations counting w4's dtype's work in its unit (`op_names`)."""
    return {**why.sources(w4), **op_names(w4.dtype)}


def roofline_row(case, src: dict, memory: str) -> list[str]:
    """One row of ②'s explorer table: I, R_roof, t_ideal (each with its record), the limiting resource (the memory
    by its name)."""
    t = case.timing
    return [keep(ko.case(case)), why.decimal(t.derivation("I"), 6, src), why.tera(t.derivation("R_roof"), 6, src),
            why.ms(t.derivation("t_ideal"), 6, src), keep(ko.bound(t, memory))]


def roofline_state(w4) -> dict:
    """② on the problem's machine (`w4.hardware` in `w4.dtype`): the roofline, the week-4 cases as points, the
    table of I, R_roof, t_ideal and limiting resource, and which cases are memory- or compute-bound."""
    hw = w4.roofline
    cases = problems.week4_cases(w4)
    engine.check_colours(cases)
    name = w4.preset.name
    src = op_sources(w4)
    units = unit_fields(w4.dtype)
    fields = {**machine_words(hw, src, w4.dtype), **units, "machine": f"{name}, {w4.dtype}",
              "shape": why.around(why.var("N", w4.N, src), f"{fmt.integer(w4.N)}×{fmt.integer(w4.N)}"),
              "regimes": why.sentence(regimes(cases, src), ".")}
    I_all = [c.cost.I for c in cases] + [hw.ridge]
    lo, hi = min(I_all) / 4, max(I_all) * 8
    xs = sorted({lo, hw.ridge, hi, *(c.cost.I for c in cases)})
    ys = [[coord(hw.R_roof(x) / TERA) for x in xs]]
    ys += [[coord(c.timing.R_roof / TERA) if x == c.cost.I else None for x in xs] for c in cases]
    y_lo, y_hi = hw.BW * lo / TERA / 2, hw.P / TERA * 4
    plot = {
        "x": [coord(x) for x in xs], "y": ys,
        "xticks": log_ticks(lo, hi), "yticks": log_ticks(y_lo, y_hi),
        "xrange": [coord(lo), coord(hi)], "yrange": [coord(y_lo), coord(y_hi)],
        "marks": [{"x": coord(hw.ridge), "y": coord(hw.P / TERA), "text": f"I* = {fields['ridge']}", "vline": True}],
        "aria": (f"{name} {w4.dtype}의 Roofline. 분기점 I* = {fields['ridge']} {units['u-I']}, 연산 상한 P = {fields['P']} "
                 f"{units['u-rate']}. 점은 " + ", ".join(f"{ko.case(c)} (I = {fmt.decimal(c.cost.I, 3)})" for c in cases)
                 + "의 성능 상한이다."),
        **axis_labels(w4.dtype),
        "series": [{"color": "var(--rl-ink)", "width": 2, "line": True}]
                  + [{"color": case_color(i), "points": 9} for i in range(len(cases))],
        "legend": [["var(--rl-ink)", False, "성능 상한 min(P, BW×I)"], ["var(--rl-muted)", True, "분기점 I*"]]
                  + [[case_color(i), False, ko.case(c)] for i, c in enumerate(cases)],
    }
    return {"fields": fields, "tables": {"cases": {"align": ROOFLINE_ALIGN, "rows": [roofline_row(c, src, ex.memory_name(w4.preset)) for c in cases]}},
            "plots": {"roofline": plot}, "predict": roofline_predict(w4)}


def predict_tile(w4) -> int:
    """The tile ②'s predict mode asks about: the middle of the problem's tiles."""
    return w4.tiles[len(w4.tiles) // 2]


def roofline_predict(w4) -> dict:
    """② predict first: for the problem's middle tile T on this machine and dtype, which resource limits and the
    ideal time (`predict.roofline_questions`: the mistakes are the same model calls with C's write left out, an FMA
    counted as one FLOP, no reuse, the shorter or the sum of the two times, or milliseconds and seconds swapped).
    I_T is not asked: it does not depend on the machine, so the page's own table already shows it. Hidden until the
    guess: the table's values, the regimes sentence and the plot."""
    hw, s, N = w4.roofline, w4.s, w4.N
    T = predict_tile(w4)
    label = f"T = {T}"
    cost = kernels.matmul_tiled(N, T, s, s)
    questions = pr.roofline_questions(f"{fmt.integer(N)}×{fmt.integer(N)} 행렬곱, {label}", label, cost, hw,
                                      no_reuse=kernels.matmul_no_reuse(N, s, s), dtype=w4.dtype)
    return pr.part(questions, fields=["regimes"], tables={"cases": [1, 2, 3, 4]}, plots=["roofline"])



KERNELS = {   # kind → (Korean name, its size fields)
    "custom": ("F와 Q를 직접", ("F", "Q")),
    "vector_add": ("Vector Add", ("L",)),
    "matmul": ("정사각 행렬곱 (타일 T)", ("N", "T")),
    "gemv": ("GEMV (M×K 행렬 × 벡터)", ("M", "K")),
    "batched_gemm": ("배치 GEMM (b×K)·(K×N)", ("b", "N", "K")),
    "ncu": ("Nsight Compute CSV", ("ncu", "ncu_id")),   # F, Q and the time from the file (roofline.ncu)
}
NCU_DTYPE = "FP32"   # the file's F counts FP32 instructions: the peak it is held to is FP32's


def kernel_cost(kind: str, sizes: dict, s: int):
    """F and Q of the reader's kernel: given directly, or from the course's kernels in Byte-per-element s."""
    kind = choice(kind, "kernel", KERNELS, "커널")
    if kind == "ncu":
        return ncu.read(sizes.get("ncu"), sizes.get("ncu_id")).cost
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


def kernel_sources(kind: str, sizes: dict, hardware: str, dtype: str, origins: dict) -> dict:
    """Where each input of the reader's kernel comes from: P, BW and s from the file's preset and dtype, a size from
    `origins` (key → origin; a size it does not name is the reader's: "cell:L", the live mode's typed value), and the
    shape a kernel fixes (a GEMV's one column) from the kernel chosen."""
    src = {"P": f"toml:presets.{hardware}.peak.{dtype}", "BW": f"toml:presets.{hardware}.BW",
           **{symbol: f"toml:dtypes.{dtype}" for symbol in ("s", "s_in", "s_out")}, **origins}
    kind = choice(kind, "kernel", KERNELS, "커널")
    for key in KERNELS[kind][1]:
        src[key] = origins.get(key, f"cell:{key}")
    n = {key: sizes.get(key) for key in KERNELS[kind][1]}
    if kind == "gemv":   # M×K times a vector: matmul_tiles(M, 1, K, M, 1, K)
        src.update({("N", 1): f"control:{KERNELS[kind][0]}", ("T_N", 1): f"control:{KERNELS[kind][0]}",
                    ("T_M", n["M"]): var("M", n["M"]), ("T_K", n["K"]): var("K", n["K"])})
    elif kind == "batched_gemm":   # (b×K)·(K×N): matmul_tiles(b, N, K, b, N, K)
        src.update({("M", n["b"]): src["b"], ("T_M", n["b"]): var("M", n["b"]), ("T_N", n["N"]): var("N", n["N"]),
                    ("T_K", n["K"]): var("K", n["K"])})
    return src


def kernel_state(catalog, hardware: str, dtype: str, kind: str, sizes: dict, t_ms=None, origins=None) -> dict:
    """"내 커널": the reader's kernel on the chosen machine's roofline: I, R_roof, the limiting resource and, with a
    measured time (ms), the achieved FLOPs/s and its share of the roof (a warning above the roof). Each number
    carries its record (`origins`: where a size comes from, `kernel_sources`). Kind "ncu": F, Q and the time are an
    Nsight Compute CSV export's (`sizes["ncu"]`, the kernel `sizes["ncu_id"]` when it holds several: `ncu.read`), each
    with its metric and row as its origin, on the FP32 roof (the file counts FP32 instructions)."""
    kind = choice(kind, "kernel", KERNELS, "커널")
    names = {}
    if kind == "ncu":
        reading = ncu.read(sizes.get("ncu"), sizes.get("ncu_id"))
        if dtype != NCU_DTYPE:
            raise ParameterError(f"dtype: Nsight Compute CSV의 F는 FP32 명령(fadd, fmul, ffma)으로 센다. "
                                 f"자료형은 {NCU_DTYPE}를 고른다. 받은 값: {dtype}")
        t_ms, origins = reading.t_ms, {**(origins or {}), **reading.origins}
        names = {("name", symbol): name for symbol, name in ncu.NAMES.items()}
    hw = catalog.roofline(hardware, dtype)
    cost = reading.cost if kind == "ncu" else kernel_cost(kind, sizes, catalog.dtypes[dtype])
    t = Timing(cost, hw)
    src = {**kernel_sources(kind, sizes, hardware, dtype, origins or {}), **op_names(dtype), **names}
    name = catalog.presets[hardware].name
    units = unit_fields(dtype)
    fields = {**units, "k-machine": f"{name}, {dtype}", "k-F": why.integer(t.derivation("F"), src),
              "k-Q": why.integer(t.derivation("Q"), src), "k-I": why.decimal(t.derivation("I"), 6, src),
              "k-R": why.tera(t.derivation("R_roof"), 6, src), "k-bound": ko.bound(t, ex.memory_name(catalog.presets[hardware])),
              "k-t": why.ms(t.derivation("t_ideal"), 6, src), "k-ridge": why.number(hw.derivation("I*"), 3, src),
              "k-achieved": "–", "k-share": "–", "k-verdict": ""}
    lo = min(cost.I, hw.ridge) / 8
    hi = max(cost.I, hw.ridge) * 8
    xs = sorted({lo, hw.ridge, hi, cost.I})
    ys = [[coord(hw.R_roof(x) / TERA) for x in xs], [coord(t.R_roof / TERA) if x == cost.I else None for x in xs]]
    y_lo, y_top = hw.R_roof(lo) / TERA / 2, hw.P / TERA * 4
    achieved = None
    if t_ms not in (None, ""):
        seconds = positive_number(t_ms, "t_ms") / 1000
        achieved = cost.F / seconds
        measured = named("R_meas", t.derivation("F") / (var("t_ms", seconds * 1000) / 1000))
        src["t_ms"] = (origins or {}).get("t_ms", "cell:t_ms")
        share_ = why.percent(named("R_meas/R_roof", measured / t.derivation("R_roof")), 1, src)
        fields.update({"k-achieved": why.tera(measured, 6, src), "k-share": share_})
        fields["k-verdict"] = (
            why.sentence("측정한 처리율이 이 하드웨어의 성능 상한 ", why.tera(t.derivation("R_roof"), 3, src),
                         f" {units['u-rate']}보다 크다. 모델로는 불가능한 값이니 F와 Q, 시간의 단위, 하드웨어와 자료형을 다시 "
                         "확인하자.") if achieved > t.R_roof else
            why.sentence("성능 상한의 ", share_, "에 닿았다."))
        ys.append([coord(achieved / TERA) if x == cost.I else None for x in xs])
        y_lo = min(y_lo, achieved / TERA / 2)
        y_top = max(y_top, achieved / TERA * 4)
    plot = {**axis_labels(dtype), "x": [coord(x) for x in xs], "y": ys, "xticks": log_ticks(lo, hi), "yticks": log_ticks(y_lo, y_top),
            "xrange": [coord(lo), coord(hi)], "yrange": [coord(y_lo), coord(y_top)],
            "marks": [{"x": coord(hw.ridge), "y": coord(hw.P / TERA), "text": f"I* = {fields['k-ridge']}", "vline": True}],
            "aria": (f"{name} {dtype}의 Roofline 위의 내 커널. I = {fmt.decimal(cost.I, 3)} {units['u-I']}, 성능 상한 "
                     f"{fmt.tera(t.R_roof, 3)} {units['u-rate']}"
                     + (f", 측정 처리율 {fmt.tera(achieved, 3)} {units['u-rate']}." if achieved else ".")),
            "series": [{"color": "var(--rl-ink)", "width": 2, "line": True}, {"color": case_color(0), "points": 11}]
                      + ([{"color": "var(--rl-accent)", "points": 11}] if achieved else []),
            "legend": [["var(--rl-ink)", False, "성능 상한 min(P, BW×I)"], [case_color(0), False, "모델이 주는 점 (성능 상한 아래)"]]
                      + ([["var(--rl-accent)", False, "측정한 처리율"]] if achieved else [])}
    return {"fields": fields, "flags": {"above": achieved is not None and achieved > t.R_roof},
            "plots": {"kernel": plot}, "predict": kernel_predict(kind, cost, hw, dtype)}


def kernel_predict(kind: str, cost, hw, dtype: str = "") -> dict:
    """"내 커널" predict first (the live mode): which resource limits and the ideal time of the reader's kernel
    (`predict.roofline_questions`; FMA counted as one FLOP only for the matmul kernels, C's write only where the
    kernel writes). I = F/Q is not asked: F and Q stay on the page (the reader's own numbers, or one step from
    them). Hidden until the guess: I, the ceiling, the limiting resource, the time, the share and the plot; the
    time, wherever else the page shows it (the table of the page's tiles), is masked by predict.js."""
    name = KERNELS[choice(kind, "kernel", KERNELS, "커널")][0]
    questions = pr.roofline_questions(f"내 커널({name})", "내 커널", cost, hw,
                                      fma=kind in ("matmul", "gemv", "batched_gemm"), dtype=dtype)
    return pr.part(questions, fields=["k-I", "k-R", "k-bound", "k-t", "k-share", "k-verdict"], plots=["kernel"])





# Which model ②'s explorer applies (the same as the week's hand calculation), said beside it.
MODEL_NOTE = ("값은 4주차의 모델로 셌다. 재사용은 출력 타일 하나 안에서만 일어나고, 서로 다른 출력 타일 사이의 "
              "재사용(L2 캐시)은 없으며, C는 입력과 같은 자료형으로 한 번 쓴다고 둔다. 실제 GEMM 라이브러리는 "
              "타일 사이에서도 입력을 재사용하므로 I가 이보다 크다.")


def roofline_explorer(w4) -> explorer.Explorer:
    """② The reader chooses the hardware (every preset) and a dtype it has; the roofline, the week-4 cases of the
    problem `w4` and their I, R_roof, t_ideal and limiting resource follow (`roofline_state`)."""
    presets, dtypes = w4.catalog.presets, w4.catalog.dtypes
    start, dtype = w4.hardware, w4.dtype
    uid = "rl-roofline"
    states = {f"{key}|{d}": roofline_state(w4.with_(hardware=key, dtype=d))
              for key, p in presets.items() for d in p.peak}
    options = [[key, p.name] for key, p in presets.items()]
    all_dtypes = [[d, f"{d} (원소당 {dtypes[d]} Byte)"] for d in dtypes]
    allowed = {key: [d for d in dtypes if d in p.peak] for key, p in presets.items()}
    data = {
        "controls": {
            "hw": {"kind": "select", "options": options, "initial": start},
            "dtype": {"kind": "select", "options": all_dtypes, "initial": dtype, "depends": "hw", "allowed": allowed},
        },
        "parts": [{"on": ["hw", "dtype"], "states": states}],
        "plots": {"roofline": axis_labels(dtype)},
        "live": explorer.live_form("roofline", w4),
        "hash": {"hw": "hardware", "dtype": "dtype"},
    }
    first = states[f"{start}|{dtype}"]
    f = first["fields"]
    plot = first["plots"]["roofline"]
    controls = (explorer.select(uid, "hw", "하드웨어", options, start)
                + explorer.select(uid, "dtype", "자료형", all_dtypes, dtype, allowed[start]))
    body = (
        f'<p class="rl-summary" aria-live="polite">{explorer.field("shape", f["shape"])} 행렬곱, {explorer.field("machine", f["machine"])}: '
        f'P = {explorer.field("P", f["P"])} {explorer.field("u-rate", f["u-rate"])}, BW = {explorer.field("BW", f["BW"])} '
        f'TB/s, 분기점 I* = P/BW = {explorer.field("ridge", f["ridge"])} {explorer.field("u-I", f["u-I"])}. '
        f'{explorer.field("regimes", f["regimes"])}</p>'
        + explorer.plot(uid, "roofline", plot["aria"])
        + explorer.legend(plot["legend"], "roofline")
        + unit_headed(explorer.rows_table("cases", roofline_headers(dtype), first["tables"]["cases"]), f)
    )
    intro = (f"{explorer.field('shape', f['shape'])} 행렬곱을 다른 하드웨어와 자료형에서 보면 어떻게 될까? 하드웨어와 자료형을 고르면 Roofline과 "
             f"각 경우의 점, 아래 표가 그 조건의 값으로 바뀐다. {MODEL_NOTE}")
    note = ("강의 사이트의 이 자리에서는 하드웨어와 자료형을 골라 Roofline과 표가 바뀌는 것을 볼 수 있다. "
            "노트북에서는 매개변수 셀의 하드웨어를 바꾸고 다시 실행하면 된다. "
            f"{MODEL_NOTE} 아래는 지금 조건({f['machine']})의 값이다.")
    rows = first["tables"]["cases"]["rows"]
    return explorer.Explorer("roofline", explorer.wrap(uid, intro, controls, body, data),
                    explorer.markdown(note, tables.markdown(roofline_headers(dtype), rows, ROOFLINE_ALIGN)),
                    explorer.count(data))


def unit_headed(table: str, fields: dict) -> str:
    """②'s explorer table (`explorer.rows_table`) with the units in its header as the fields `u-I` and `u-rate`, so
    that the page's script writes the chosen dtype's units there too."""
    for name in ("u-I", "u-rate"):
        said = f"({html.escape(fields[name])})</th>"
        assert table.count(said) == 1, said
        table = table.replace(said, f"({explorer.field(name, fields[name])})</th>")
    return table


def kernel_explorer(w4, w3, note, kind: str = "matmul", sizes=None, t_ms=None) -> explorer.Explorer:
    """② "내 커널": the reader's kernel on the chosen machine's roofline (`kernel_state`). The build shows
    the default example (the chapter's machine, an N×N matmul with its middle tile); the page's live mode lets
    the reader type F and Q, or a kernel and its sizes, and a measured time. The form starts from the course's
    examples: the week-3 vector length L, the note's GEMM (N, K and a batch b)."""
    sizes = sizes or {"N": w4.N, "T": w4.tiles[len(w4.tiles) // 2]}
    state = kernel_state(w4.catalog, w4.hardware, w4.dtype, kind, sizes, t_ms,
                         origins={"N": w4.origin("N"), "T": w4.origin("tiles")})
    f = state["fields"]
    plot = state["plots"]["kernel"]
    uid = "rl-kernel"
    values = {"kernel": kind, "F": 2 * w4.N**3,
              "Q": kernels.matmul_tiled(w4.N, sizes.get("T", 1), w4.s, w4.s).Q if kind == "matmul" else 1,
              "L": w3.L, "N": sizes.get("N", w4.N), "T": sizes.get("T", w4.tiles[0]), "M": note.gemm.N,
              "K": note.gemm.K, "b": note.gemm.batches[len(note.gemm.batches) // 2],
              "t_ms": "" if t_ms is None else t_ms, "ncu": "", "ncu_id": ""}
    # the page's own state is shown as it is: its predict part is the live mode's (no bytes in the page)
    shown = {k: v for k, v in state.items() if k != "predict"}
    data = {"controls": {}, "parts": [{"on": [], "states": {"": shown}}],
            "plots": {"kernel": axis_labels(w4.dtype)},
            "live": explorer.live_form("kernel", w4, **values)}
    data["live"]["choices"] = {"kernel": [[key, name] for key, (name, _) in KERNELS.items()],
                               # the machine and the dtype from lists, as the explorers offer them (not a typed key)
                               "hardware": [[key, preset.name] for key, preset in w4.catalog.presets.items()],
                               "dtype": [[name, name] for name in w4.catalog.dtypes]}
    # the fields each kernel shows: its sizes and the measured time, which an ncu file holds itself
    data["live"]["sizes"] = {key: list(names) + ["t_ms"] * (key != "ncu") for key, (_, names) in KERNELS.items()}
    data["live"]["multiline"] = ["ncu"]   # a text area (with a file's drop) for the CSV
    # each label (its unit a field the chosen dtype rewrites: `unit_fields`), its field
    labels = [("하드웨어", None), ("F", "u-F"), ("Q", "Byte"), ("I", "u-I"), ("성능 상한 R_roof", "u-rate"),
              ("제한 자원", None), ("Roofline 예상 시간", "ms"), ("측정 처리율", "u-rate"), ("성능 상한 대비", None)]
    keys = ["k-machine", "k-F", "k-Q", "k-I", "k-R", "k-bound", "k-t", "k-achieved", "k-share"]

    def label(text, unit, as_html):
        if unit is None:
            return html.escape(text) if as_html else text
        if unit not in UNIT_FIELDS:
            return html.escape(f"{text} ({unit})") if as_html else f"{text} ({unit})"
        return f"{html.escape(text)} ({explorer.field(unit, f[unit])})" if as_html else f"{text} ({f[unit]})"

    rows = [(label(h, u, True), explorer.field(k, f[k])) for (h, u), k in zip(labels, keys)]
    table = ('<div class="pst-scrollable-table-container"><table class="table rl-table"><thead><tr>'
             '<th class="head text-left">항목</th><th class="head text-right">값</th></tr></thead><tbody>'
             + "".join(f'<tr><td class="text-left">{h}</td><td class="text-right">{v}</td></tr>' for h, v in rows)
             + "</tbody></table></div>")
    body = (f'<p class="rl-summary rl-verdict" aria-live="polite">{explorer.field("k-verdict", f["k-verdict"])}</p>'
            + explorer.plot(uid, "kernel", plot["aria"]) + explorer.legend(plot["legend"], "kernel") + table
            + f'<p class="rl-ncu-note">{ncu_note(html.escape, lambda code: f"<code>{html.escape(code)}</code>")}</p>')
    example = f"{ex.shape(w4.N)} 행렬곱(T = {sizes.get('T')})" if kind == "matmul" else KERNELS[kind][0]
    intro = (f"내 커널은 Roofline의 어디에 놓일까? 아래는 예로 든 {html.escape(example)}을 이 장의 하드웨어에 놓은 값이다. "
             "이 페이지에서 직접 계산하기를 켜면 F와 Q를 직접 적거나 커널과 크기를 고르고, 잰 시간을 적어 달성한 처리율까지 볼 수 있다.")
    note = ("강의 사이트의 이 자리에서는 내 커널의 F와 Q(또는 커널과 크기)와 잰 시간을 적어 Roofline 위의 위치를 볼 수 있다. "
            f"아래는 예로 든 {example}의 값이다.")
    md_rows = [(label(h, u, False), f[k]) for (h, u), k in zip(labels, keys)]
    md = explorer.markdown(note, tables.markdown(["항목", "값"], md_rows, "lr"))
    return explorer.Explorer("kernel", explorer.wrap(uid, intro, "", body, data),
                             md + "\n\n" + ncu_note(str, lambda code: f"`{code}`"), 1)


def ncu_note(text, code) -> str:
    """What to run for "내 커널" with Nsight Compute and what the page reads of its CSV (`roofline.ncu`): the command,
    the metrics and the rule F = fadd + fmul + 2·ffma. `text` and `code` write plain words and a command (HTML or
    Markdown)."""
    fadd, fmul, ffma = ncu.FLOPS.values()
    return (text("Nsight Compute로 잰 커널이라면 ") + code(ncu.COMMAND)
            + text("를 실행하고, 직접 계산하기에서 커널을 Nsight Compute CSV로 골라 그 파일을 붙여 넣거나 끌어다 놓는다"
                   "(여러 번 잰 파일이면 읽을 커널의 ID를 적는다). raw 페이지(--page raw)와 details 페이지(--page details) "
                   "모두 읽는다. 시간은 ") + code(ncu.TIME)
            + text(", Q는 DRAM과 주고받은 양 ") + code(ncu.BYTES)
            + text("(또는 읽기와 쓰기의 합), F는 FP32 명령 수로 F = fadd + fmul + 2·ffma다(FMA 하나가 2 FLOPs): ")
            + code(fadd) + text(", ") + code(fmul) + text(", ") + code(ffma)
            + text(". 그래서 자료형은 FP32로 두고, 텐서 코어와 FP16·FP64 연산은 F에 들지 않는다. "
                   "Q는 잰 DRAM 양이라 캐시가 재사용한 만큼 4주차 모델의 Q보다 작을 수 있다."))




def _live_roofline(course, v: dict) -> dict:
    w4 = course.week4.with_cell(v)
    w4.roofline   # the preset must have the dtype
    return roofline_state(w4)


def _live_kernel(course, v: dict) -> dict:
    hardware = choice(v.get("hardware"), "hardware", course.presets, "하드웨어 프리셋")
    dtype = choice(v.get("dtype"), "dtype", course.dtypes, "자료형")
    return kernel_state(course.catalog, hardware, dtype, v.get("kernel"), v, v.get("t_ms"))


LIVE = {   # the live forms: the parameters each takes, fields of its own, and the state of what was typed
    "roofline": engine.Form("week4", ("hardware", "dtype", "N", "tiles"), _live_roofline),
    "kernel": engine.Form("week4", ("hardware", "dtype", ("kernel", "커널"),
                                    ("F", "연산량 F (FLOPs)"), ("Q", "이동량 Q (Byte)"), ("L", "벡터 길이 L"),
                                    ("N", "행렬 한 변 N"), ("T", "타일 한 변 T"), ("M", "행 수 M"), ("K", "안쪽 차원 K"),
                                    ("b", "배치 b"), ("t_ms", "잰 시간 (ms, 없으면 비워 둔다)"),
                                    ("ncu", "ncu --csv가 쓴 파일 (붙여 넣거나 끌어다 놓는다)"),
                                    ("ncu_id", "커널 ID (파일에 커널이 여럿일 때)")), _live_kernel, texts=("ncu",)),
}
