"""Chapter ① (산술 강도): its equation, tables and sentences for one week-4 problem, as the page shows them.

Each function takes the problem object (`course.week4.with_(…)`) and returns name → value, ready to glue.
"""
from __future__ import annotations

from fractions import Fraction

from roofline import kernels
from roofline.show import fmt, formulas, ko, tables, tex


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
                           rf" &= {tex.frac(I)} {relation} {value}\ \text{{FLOPs/Byte}}")
    return {"vadd-eq": equation, "vadd-read": fmt.integer(2 * s), "vadd-write": fmt.integer(s),
            "vadd-Q-per": fmt.integer(3 * s), "s": fmt.integer(s), "dtype": w4.dtype}


def four_ways(w4, T: int) -> dict:
    """The table of the four ways (vector add, no reuse, T×T tiles, ideal) with the seed's approximations:
    no reuse "약 1/s" and tiles "N≫T이면 약 T/s" (the output write neglected)."""
    N, s = w4.N, w4.s
    vadd = kernels.vector_add(N * N, s)
    none, tiled, ideal = (kernels.matmul_no_reuse(N, s, s), kernels.matmul_tiled(N, T, s, s),
                          kernels.matmul_ideal(N, s, s))
    rows = [
        ("Vector Add, 길이 L", "L", f"{3 * s}L", fmt.fraction(vadd.I), fmt.decimal(vadd.I, 6)),
        ("행렬곱, 입력 재사용 없음", "2N³", formulas.q_no_reuse(s, s),
         f"{formulas.intensity_no_reuse(s, s)}, 약 {fmt.fraction(Fraction(1, s))}", fmt.decimal(none.I, 6)),
        ("행렬곱, T×T 출력 타일 안에서 재사용", "2N³", formulas.q_tiled(s, s),
         f"{formulas.intensity_tiled(s, s)}, N≫T이면 약 {symbol_over('T', Fraction(1, s))}",
         f"{fmt.decimal(tiled.I, 6)} (T = {T})"),
        ("행렬곱, 입력 전체를 각각 한 번만 읽는 이상적 기준", "2N³", formulas.q_ideal(s, s),
         formulas.intensity_ideal(s, s), fmt.decimal(ideal.I, 6)),
    ]
    header = ["계산 방식", "F (FLOPs)", "Q (Byte)", "I (FLOPs/Byte)", f"I, N = {fmt.integer(N)}"]
    return {"table-four": tables.markdown(header, rows, "lllll"), "N": fmt.integer(N),
            "I0-formula": formulas.intensity_no_reuse(s, s), "I0": fmt.decimal(none.I, 6),
            "I-ideal": fmt.decimal(ideal.I, 3)}


def n_sweep(curves: dict, sides) -> dict:
    """The sentence under the N-sweep figure: the range of N (with its particle), the no-reuse band, the growth
    of the ideal case. `curves` is the figure's name → exact I per side."""
    flat = curves["행렬곱, 재사용 없음"]
    ideal = curves["행렬곱, 이상적 기준"]
    return {"fig-N-min": fmt.integer(sides[0]), "fig-N-max": ko.particle(fmt.integer(sides[-1]), "으로/로"),
            "fig-no-reuse-range": f"{fmt.decimal(min(flat), 3)}–{fmt.decimal(max(flat), 3)}",
            "fig-ideal-growth": fmt.number(ideal[-1] / ideal[0], 1)}


def dtypes(w4, T: int, small: str = "FP16") -> dict:
    """The discussion's table: Q and I with the inputs, then also the output, in the `small` type, against w4's
    type; and the ideal value N/(…) with the particles the sentence needs ("N/6은", "N/6이라고")."""
    N, s, half = w4.N, w4.s, w4.catalog.bytes_per(small)
    variants = [(f"입력·출력 모두 {w4.dtype}", s, s), (f"입력만 {small}", half, s), (f"입력·출력 모두 {small}", half, half)]
    base = kernels.matmul_tiled(N, T, s, s)
    rows = []
    for label, s_in, s_out in variants:
        cost = kernels.matmul_tiled(N, T, s_in, s_out)
        rows.append((label, formulas.q_tiled(s_in, s_out), fmt.integer(cost.Q), fmt.decimal(cost.I, 6),
                     fmt.ratio(cost.I / base.I)))
    header = ["조건", "Q (Byte)", f"Q, N = {fmt.integer(N)}, T = {T}", "I (FLOPs/Byte)", f"{w4.dtype} 대비 I"]
    ideal = formulas.intensity_ideal(s, s)
    return {"table-dtypes": tables.markdown(header, rows, "llrrr"),
            "I-ideal-claim": ko.particle(ideal, "은/는"), "I-ideal-named": ko.particle(ideal, "이라고/라고")}
