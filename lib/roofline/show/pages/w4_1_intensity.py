"""Chapter ① (산술 강도): its equation, tables, sentences and N-sweep figure for one week-4 problem, as the page shows them.

Each function takes the problem object (`course.week4.with_(…)`) and returns name → value, ready to glue.
"""
from __future__ import annotations

from fractions import Fraction

from roofline import gemm, kernels
from roofline.cost import Cost, Timing
from roofline.derive import named, var
from roofline.show import exercises as ex
from roofline.show import fmt, formulas, ko, tables, tex, variants, why
from roofline.show.figures import figure
from roofline.show.palette import case_color


def symbol_over(symbol: str, x) -> str:
    """`symbol` times the fraction x as text: ("T", 1/4) → "T/4", ("T", 1) → "T", ("T", 3/2) → "3T/2"."""
    x = Fraction(x)
    top = symbol if x.numerator == 1 else f"{x.numerator}{symbol}"
    return top if x.denominator == 1 else f"{top}/{x.denominator}"


def vector_add(w4) -> dict:
    """Vector add: the equation I = L/(sL + sL + sL) = 1/(3s) and the bytes per element read and written."""
    s = w4.s
    I = kernels.vector_add(1, s).I   # I does not depend on the length
    relation, value = tex.exact_or_about(I, 5)
    equation = tex.aligned(rf"I = \frac{{F}}{{Q}} &= \frac{{L}}{{{s}L + {s}L + {s}L}} \\"
                           rf" &= {tex.frac(I)} {relation} {value}\ \text{{{fmt.unit('FLOPs/Byte', w4.dtype)}}}")
    src, s_ = why.sources(w4), var("s", s)
    return {"vadd-eq": equation, "vadd-read": why.integer(named("Q_read/L", s_ + s_), src),
            "vadd-write": why.integer(named("Q_write/L", s_), src),
            "vadd-Q-per": why.integer(named("Q/L", s_ + s_ + s_), src), "s": why.integer(s_, src), "dtype": w4.dtype,
            "unit-I": ko.units(w4.dtype)["unit-I"], "unit-work": ko.units(w4.dtype)["unit-work"], "intensity-def": intensity_definition(w4.dtype)}


def intensity_definition(dtype: str):
    """The definition I = F/Q with its units, as `dtype` counts its work (`ko.units`: FLOPs and FLOPs/Byte, OPs and
    OPs/Byte for an integer dtype)."""
    from IPython.display import Math

    u = ko.units(dtype)
    return Math(rf"I = \frac{{F}}{{Q}} = \frac{{\text{{총 {u['unit-work']}}}}}{{\text{{DRAM에서 읽고 쓴 총 Byte}}}}"
                rf" \quad [\text{{{u['unit-I']}}}]")


def four_ways(w4, T: int) -> dict:
    """The table of the four ways (vector add, no reuse, T×T tiles, ideal) with the seed's approximations:
    no reuse "약 1/s" and tiles "N≫T이면 약 T/s" (the output write neglected)."""
    N, s = w4.N, w4.s
    src = why.sources(w4)
    vadd = kernels.vector_add(N * N, s)
    none, tiled, ideal = (kernels.matmul_no_reuse(N, s, s), kernels.matmul_tiled(N, T, s, s),
                          kernels.matmul_ideal(N, s, s))
    vadd_I = vadd.derivation("I")   # at L = N² (I does not depend on the length)
    src["L"] = named("L", var("N", N) ** 2)
    rows = [
        ("Vector Add, 길이 L", "L", f"{3 * s}L", why.fraction(vadd_I, src), why.decimal(vadd_I, 6, src)),
        ("행렬곱, 입력 재사용 없음", "2N³", formulas.q_no_reuse(s, s),
         why.sentence(f"{formulas.intensity_no_reuse(s, s)}, 약 ", why.fraction(named("1/s", 1 / var("s", s)), {
             **src, ("name", "1/s"): ("큰 N에서 재사용 없음의 I (출력 쓰기를 뺀 근사)", fmt.unit("FLOPs/Byte", w4.dtype))})),
         why.decimal(none.derivation("I"), 6, src)),
        ("행렬곱, T×T 출력 타일 안에서 재사용", "2N³", formulas.q_tiled(s, s),
         f"{formulas.intensity_tiled(s, s)}, N≫T이면 약 {symbol_over('T', Fraction(1, s))}",
         why.sentence(why.decimal(tiled.derivation("I"), 6, src), " (T = ", why.side("T", T, src), ")")),   # (T its own)
        ("행렬곱, 입력 전체를 각각 한 번만 읽는 이상적 기준", "2N³", formulas.q_ideal(s, s),
         formulas.intensity_ideal(s, s), why.decimal(ideal.derivation("I"), 6, src)),
    ]
    assert vadd.I == vadd_I.value
    u = ko.units(w4.dtype)
    header = ["계산 방식", f"F ({u['unit-work']})", "Q (Byte)", f"I ({u['unit-I']})", f"I, N = {fmt.integer(N)}"]
    return {"table-four": tables.markdown(header, rows, "lllll"), "N": why.var("N", N, src),
            "I0-formula": formulas.intensity_no_reuse(s, s), "I0": why.decimal(none.derivation("I"), 6, src),
            "I-ideal": why.decimal(ideal.derivation("I"), 3, src)}


def intensity_sides(w4) -> list[int]:
    """The N of the N-sweep: T, 2T, 4T, … up to the problem's N (at least 16T), and N itself (where the figure marks
    it, whether or not N/T is a power of two), T the first compared tile."""
    T = w4.tiles[0]
    return sorted({T * 2**k for k in range((max(w4.N, 16 * T) // T).bit_length())} | {w4.N})


def intensity_curves(w4, T: int, sides) -> dict[str, list]:
    """Exact I for each N in `sides` (FLOPs/Byte): vector add (length N²), no reuse, T×T tiles, ideal."""
    s = w4.s
    return {
        "Vector Add": [kernels.vector_add(N * N, s).I for N in sides],
        "행렬곱, 재사용 없음": [kernels.matmul_no_reuse(N, s, s).I for N in sides],
        f"행렬곱, T = {T} 타일": [kernels.matmul_tiled(N, T, s, s).I for N in sides],
        "행렬곱, 이상적 기준": [kernels.matmul_ideal(N, s, s).I for N in sides],
    }


def n_sweep(w4) -> dict:
    """The N-sweep figure and the sentence under it: the range of N (with its particle), the no-reuse band, the
    growth of the ideal case, the tile drawn."""
    T, sides = w4.tiles[0], intensity_sides(w4)
    src = {**why.sources(w4), "T": w4.origin("tiles")}
    s = w4.s
    flat = [kernels.matmul_no_reuse(N, s, s).derivation("I") for N in sides]
    ideal = [kernels.matmul_ideal(N, s, s).derivation("I") for N in sides]
    T_ = var("T", T)
    for side in sides:   # the sweep's N: T, 2T, 4T, …, and the problem's own N (the file's or the cell's)
        if side != w4.N:
            src[("N", side)] = named("N_k", T_ * (side // T)) if side != T else named("N_k", T_)
    N_max = named("N_max", why.tmax_of(var("N", w4.N), 16 * T_))   # the sweep ends at max(N, 16T)
    growth = named("I_max/I_min", named("I_max", ideal[-1].term) / named("I_min", ideal[0].term))
    return {"fig-intensity": intensity_figure(w4),
            "fig-N-min": why.integer(named("N_min", T_), src),   # (the sweep's smallest N, = T)
            "fig-N-max": why.particle(why.integer(N_max, src), "으로/로"),
            "fig-no-reuse-min": why.decimal(min(flat, key=lambda q: q.value), 3, src),
            "fig-no-reuse-max": why.decimal(max(flat, key=lambda q: q.value), 3, src),
            "fig-ideal-growth": why.number(growth, 1, src), "fig-T": why.integer(T_, src)}


@figure("week4-intensity", "week4")
def intensity_figure(w4):
    """I against N on log–log axes (powers of ten, real minus signs): only reuse makes I grow with N."""
    from roofline.show import style
    from roofline.show.style import Figure

    T, sides = w4.tiles[0], intensity_sides(w4)
    curves = intensity_curves(w4, T, sides)
    fig = Figure(figsize=(6.4, 4.4))
    ax = fig.subplots()
    # the matmul cases keep their colours of the other figures (재사용 없음, the first tile); vector add grey
    colors = ["#7f7f7f", case_color(0), case_color(1), "#9467bd"]
    for color, (label, values) in zip(colors, curves.items()):
        ax.loglog(sides, [float(v) for v in values], "o-", ms=4, color=color, label=label)
    ax.axvline(w4.N, color="gray", ls="--", lw=1)
    between = (float(curves[f"행렬곱, T = {T} 타일"][-1]) * float(curves["행렬곱, 이상적 기준"][-1])) ** 0.5
    ax.text(w4.N / 1.06, between, f"이 주의 N = {fmt.integer(w4.N)} ", rotation=90, ha="right", va="center",
            fontsize=9, color="dimgray")
    ax.set_xlabel("행렬 한 변 N (로그 축)")
    ax.set_ylabel(f"산술 강도 I ({fmt.unit('FLOPs/Byte', w4.dtype)}, 로그 축)")
    ax.set_title(f"{w4.dtype}: 한 번씩만 읽어야 I가 N과 함께 커진다", fontsize=11)
    ax.legend(loc="upper left", fontsize=9, framealpha=0.95)
    style.power_log_ticks(ax)
    return fig


def dtypes(w4, T: int, small: str = "FP16") -> dict:
    """The discussion's table: Q and I with the inputs, then also the output, in the `small` type, against w4's
    type; and the ideal value N/(…) with the particles the sentence needs ("N/6은", "N/6이라고"). When `small` is
    not narrower than w4's type (INT8, FP8: nothing is), the narrow type is w4's and the other the wide one: w4's
    inputs with a `small` output, then all in `small` (a stored output is never narrower than the inputs). I counts
    the work of the inputs' type (`fmt.unit`: OPs/Byte for INT8), named in each cell when the rows differ."""
    N, s, half = w4.N, w4.s, w4.catalog.bytes_per(small)
    if half < s:
        variants = [(f"입력·출력 모두 {w4.dtype}", w4.dtype, s, s), (f"입력만 {small}", small, half, s),
                    (f"입력·출력 모두 {small}", small, half, half)]
    else:
        variants = [(f"입력·출력 모두 {w4.dtype}", w4.dtype, s, s), (f"출력만 {small}", w4.dtype, s, half),
                    (f"입력·출력 모두 {small}", small, half, half)]
    base = kernels.matmul_tiled(N, T, s, s)
    src = why.sources(w4, also=(small,))
    units = {fmt.unit("FLOPs/Byte", d) for _, d, _, _ in variants}
    rows = []
    for label, d_in, s_in, s_out in variants:
        cost = kernels.matmul_tiled(N, T, s_in, s_out)
        I, I_base = cost.derivation("I"), base.derivation("I")
        ratio = named("I/I_base", named("I", I.term) / named("I_base", I_base.term))
        if d_in != w4.dtype:   # the same F in another dtype's units (FLOPs against OPs): the ratio is Q_base / Q
            ratio = named("I/I_base", named("Q_base", base.derivation("Q").term) / named("Q", cost.derivation("Q").term))
        row_src = {**src, why.WORK: d_in,   # the row's work in its inputs' units, the base's in w4's
                   ("name", "I_base"): ("기준 자료형의 I", fmt.unit("FLOPs/Byte", w4.dtype)),
                   ("name", "Q_base"): ("기준 자료형의 Q", "Byte")}
        I_text = why.decimal(I, 6, row_src)
        if len(units) > 1:
            I_text = why.around(I_text, f"{I_text} {fmt.unit('FLOPs/Byte', d_in)}")
        rows.append((label, formulas.q_tiled(s_in, s_out), why.integer(cost.derivation("Q"), src), I_text,
                     why.shown(ratio, fmt.ratio(ratio.value), row_src, digits=2, unit="배")))
    header = ["조건", "Q (Byte)", f"Q, N = {fmt.integer(N)}, T = {T}",
              f"I ({next(iter(units))})" if len(units) == 1 else "I", f"{w4.dtype} 대비 I"]
    ideal = formulas.intensity_ideal(s, s)
    return {"table-dtypes": tables.markdown(header, rows, "llrrr"),
            "I-ideal-claim": ko.particle(ideal, "은/는"), "I-ideal-named": ko.particle(ideal, "이라고/라고")}


# ---------------------------------------------------------------- exercises


# a student's variant of this page's exercises (roofline.show.variants): N and the week's machine with its dtype
VARIANTS = variants.Bounds("week4", variants.sides, variants.machines)

def exercises(w4) -> ex.Exercises:
    """① I of a tiled matmul at another N and T, of another kernel (GEMV: a matrix times a vector) in another dtype,
    of the read-once matmul with mixed precision, and whether a tiled matmul is memory- or compute-bound."""
    N, s, dtype, cat = w4.N, w4.s, w4.dtype, w4.catalog
    # ①-4 states P and BW: the week's machine at the chapter's dtype, or at a dtype it has (① sets no hardware,
    # so a reader may choose a dtype the machine has no peak for)
    preset = cat.presets[w4.hardware]
    hw = preset.roofline(dtype if dtype in preset.peak else next(iter(preset.peak)))
    N1 = ex.half(N)
    # I_T is the same for (N/2, T/2) as for (N, T) in an element twice as wide: T1 is the divisor nearest 2·max(tiles)
    # whose I_T is none the page shows (its tiles at N in every element size, inputs and output apart)
    sizes = set(cat.dtypes.values())
    shown = {kernels.matmul_tiled(N, T, a, b).I for T in w4.tiles for a in sizes for b in sizes}
    avoid = set(w4.tiles)
    T1 = ex.divisor_near(N1, 2 * max(w4.tiles), avoid)
    while kernels.matmul_tiled(N1, T1, s, s).I in shown and T1 not in avoid:   # (N1 itself when none is left)
        avoid.add(T1)
        T1 = ex.divisor_near(N1, 2 * max(w4.tiles), avoid)
    # GEMV's I = 2n/(s2·(n + 2)) at the matmul's side: it depends on the side and the element size, as a student's
    # variant does (an element-wise kernel's I would depend on the element size alone)
    d2 = ex.other_dtype(cat, dtype, avoid=(2 * s,))
    s2 = cat.bytes_per(d2)
    T_small = min(w4.tiles) if N1 % min(w4.tiles) == 0 else ex.divisor_near(N1, min(w4.tiles))

    cost1, steps1 = ex.matmul_steps(N1, T1, s, dtype=dtype)
    gemv = _gemv(N1, s2)
    n = ex.number(N1)
    steps2 = [ex.derived(gemv.derivation("F"), fmt.unit("FLOPs", d2)), ex.derived(gemv.derivation("Q"), "Byte"),
              ex.derived(gemv.derivation("I"), fmt.unit("FLOPs/Byte", d2))]
    # ①-3's mixed precision: narrow inputs, a wider (or as wide) stored output — d2 in and the week's dtype out, or
    # the week's dtype in and d2 out when d2 is the wider (an INT8 week: INT8 in, FP32 out)
    (d_in, s_in), (d_out, s_out) = ((d2, s2), (dtype, s)) if s2 <= s else ((dtype, s), (d2, s2))
    ideal = kernels.matmul_ideal(N1, s_in, s_out)
    steps3 = [ex.derived(ideal.derivation("F"), fmt.unit("FLOPs", d_in)), ex.derived(ideal.derivation("Q"), "Byte"),
              ex.derived(ideal.derivation("I"), fmt.unit("FLOPs/Byte", d_in))]   # the inputs' type does the work
    cost4, (F4, Q4, _) = ex.matmul_steps(N1, T_small, s, dtype=dtype)
    t4, (tc4, tm4, _) = ex.time_steps(cost4, hw)
    machine = f"P = {ex.rate(hw.P)} {fmt.unit('FLOPs/s', dtype)}, BW = {ex.rate(hw.BW)} Byte/s인 하드웨어"
    # the common mistakes, from the model with one term or input changed (exercises.matmul_variants)
    wrong1 = ex.matmul_variants(N1, T1, s, s_other=ex.other_size(cat, dtype))
    wrong2 = {"fma-one": Cost(gemv.F // 2, gemv.Q_read, gemv.Q_write), "out-write": Cost(gemv.F, gemv.Q_read, 0),
              "bits-bytes": _gemv(N1, 8 * s2), "dtype-other": _gemv(N1, s),
              "vector-reread": Cost(gemv.F, gemv.Q_read + s2 * (N1 - 1) * N1, gemv.Q_write)}
    wrong3 = {"c-write": Cost(ideal.F, ideal.Q_read, 0), "fma-one": Cost(ideal.F // 2, ideal.Q_read, ideal.Q_write),
              "mixed-dtype": kernels.matmul_ideal(N1, s_in, s_in), "c-read": Cost(ideal.F, ideal.Q_read + ideal.Q_write, ideal.Q_write)}
    wrong4 = ex.matmul_variants(N1, T_small, s)
    return ex.Exercises("①", (
        ex.Question("①-1", f"{ex.shape(N1)} {ex.dtype_text(dtype, s)} 행렬곱을 T = {ex.number(T1)} 출력 타일로 나눈다. 재사용은 타일 "
                 "안에서만 일어나고 C는 한 번 쓴다. 산술 강도 I_T는?", cost1.I, ex.UNITS[fmt.unit("FLOPs/Byte", dtype)],
                 ", ".join(ex.formula(cost1.derivation(k)) for k in ("I", "F", "Q")), tuple(steps1), given=ex.given(N=N1, T=T1, s=s, dtype=dtype),
                 mistakes=ex.named(wrong1, ("c-write", "fma-one", "tile-reuse-ignored", "output-per-k", "dtype-other"),
                                   lambda c: c.I, dtype=dtype)),
        ex.Question("①-2", f"행렬·벡터 곱(GEMV) y ← A·x에서 A는 {ex.shape(N1)}, x와 y는 길이 {n}인 {ex.dtype_text(d2, s2)} "
                 "배열이다. A와 x를 DRAM에서 한 번씩 읽고(x는 칩 안에 남아 재사용된다) y를 한 번 쓴다면 산술 강도 I는?",
                 gemv.I, ex.UNITS[fmt.unit("FLOPs/Byte", d2)], ", ".join(ex.formula(gemv.derivation(k)) for k in ("I", "F", "Q")) + " (A, x 읽기, y 쓰기)", tuple(steps2),
                 given=ex.given(kernel="GEMV", n=N1, s=s2, dtype=d2),
                 mistakes=ex.named(wrong2, ("fma-one", "out-write", "vector-reread", "bits-bytes", "dtype-other"),
                                   lambda c: c.I, GEMV_HINTS, dtype=d2)),
        ex.Question("①-3", f"입력 A·B는 {ex.dtype_text(d_in, s_in)}, 출력 C는 {ex.dtype_text(d_out, s_out)}인 {ex.shape(N1)} 행렬곱에서 "
                 "A와 B를 DRAM에서 한 번씩만 읽고 C를 한 번 쓴다면 I는?", ideal.I, ex.UNITS[fmt.unit("FLOPs/Byte", d_in)],
                 "I = 2N³ / (2·s_in·N² + s_out·N²)", tuple(steps3),
                 given=ex.given(N=N1, s_in=s_in, s_out=s_out, dtype_in=d_in, dtype_out=d_out),
                 mistakes=ex.named(wrong3, ("c-write", "fma-one", "mixed-dtype", "c-read"), lambda c: c.I, IDEAL_HINTS, dtype=d_in)),
        ex.Question("①-4", f"{machine}에서 {ex.shape(N1)} {ex.dtype_text(dtype, s)} 행렬곱을 T = {ex.number(T_small)} 출력 타일로 "
                 "계산한다. 두 시간을 견주면 이 커널은 메모리 한계인가, 연산 한계인가?", t4.bound, ex.CHOICE,
                 "F/P와 Q_T/BW를 구해 긴 쪽을 본다", (F4, Q4, tc4, tm4, ex.bound_by_times(t4)), ex.BOUND_CHOICES,
                 given=ex.given(N=N1, T=T_small, s=s, P=hw.P, BW=hw.BW, dtype=dtype),
                 mistakes=(ex.shorter_time(t4),) + ex.named(
                     wrong4, ("fma-one", "c-write", "tile-reuse-ignored", "tile-reuse-twice"), lambda c: Timing(c, hw).bound, dtype=dtype)),
    ))


def _gemv(n: int, s: int) -> Cost:
    """GEMV y ← A·x on an n×n matrix in elements of s Byte, as the BLAS levels count it (roofline.gemm)."""
    return next(level.cost for level in gemm.blas_levels(n, s) if level.name == "gemv")


GEMV_HINTS = {
    "fma-one": "곱셈·덧셈 한 쌍은 2 FLOPs다: F = 2n².",
    "out-write": "Q에는 y를 한 번 쓰는 s·n Byte도 든다.",
    "vector-reread": "x는 칩 안에 남아 행마다 다시 읽지 않는다: x 읽기는 s·n Byte다.",
    "bits-bytes": ex.MATMUL_HINTS["bits-bytes"],
    "dtype-other": ex.MATMUL_HINTS["dtype-other"],
}
IDEAL_HINTS = {
    "c-write": "Q에는 C를 한 번 쓰는 s_out·N² Byte도 든다.",
    "fma-one": ex.MATMUL_HINTS["fma-one"],
    "mixed-dtype": ex.MATMUL_HINTS["mixed-dtype"],
    "c-read": "C는 읽지 않고 한 번 쓴다: s_out·N²을 두 번 셌다.",
}
