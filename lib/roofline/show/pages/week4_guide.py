"""The week-4 guide (chapters/week4_guide.md): the shared problem's table and the sentences of its questions.

Each function takes the model's objects (the problem, its cases) and returns name → value, ready to glue.
Sentences whose truth depends on the parameters are built here, never typed into a page.
"""
from __future__ import annotations

from fractions import Fraction

from roofline import buffers, kernels
from roofline.cost import Timing
from roofline.derive import named, var
from roofline.problems import week4_cases
from roofline.show import exercises as ex
from roofline.show import fmt, ko, tables, variants, why


def problem_table(w4) -> dict:
    """The guide's table of the shared problem (shape, dtype, P, BW, ridge point, tile sides; the maker's source
    when the machine is a real GPU) and the names the guide's sentences use, each number with its record."""
    hw, N = w4.roofline, w4.N
    src = {**why.sources(w4), ("N", w4.small_N): w4.origin("small_N"), ("T", w4.small_T): w4.origin("small_T")}
    P, BW = hw.derivation("P"), hw.derivation("BW")
    ridge = why.number(hw.derivation("I*"), 3, src)
    tiles_ = why.listed("tiles", w4.tiles, w4.origin("tiles"), ", ".join(str(T) for T in w4.tiles))
    text = dict(problem_rows(w4))
    rows = [
        # the size leads its cell, a button with its record (a cell is read from its start)
        ("행렬 크기", why.sentence(why.around(why.var("N", N, src), ex.shape(N)), " (A, B, C 모두, ", ko.nbsp("N = "),
                                why.var("N", N, src), ")")),
        # (the dtype leads: a student's worksheet reads it first; s a label of its course.toml key, no button)
        ("자료형", why.sentence(f"{w4.dtype}, 원소와 중간 합 모두 원소당 ", why.label_of("s", w4.s, src, fmt.integer(w4.s)),
                             " Byte")),
        ("최대 연산 성능 P", why.around(why.power10(P, src), text["최대 연산 성능 P"])),
        (bw_row(w4), why.around(why.power10(BW, src), text[bw_row(w4)])),
        ("분기점 I* = P/BW", why.around(ridge, f"{ridge} {fmt.unit('FLOPs/Byte', w4.dtype)}")),
        ("타일 한 변 T", tiles_),
    ]
    if w4.hardware != "course":   # a real GPU: its numbers are the maker's
        rows.append(("하드웨어 수치의 출처", f"[{w4.preset.name}]({w4.preset.source})"))
    tiles = why.listed("tiles", w4.tiles, w4.origin("tiles"), "·".join(str(T) for T in w4.tiles))
    n, t = why.var("N", w4.small_N, src), why.var("T", w4.small_T, src)
    return {"problem-table": tables.markdown(["항목", "값"], rows, "ll"),
            "shape": why.around(why.var("N", N, src), ex.shape(N)), "dtype": w4.dtype,
            "tiles": tiles, "tiles-compared": why.particle(tiles, "으로/로"), "ridge": ridge,
            "small-shape": why.around(n, f"{w4.small_N}×{w4.small_N}"),
            "small-tile": why.around(t, f"{w4.small_T}×{w4.small_T}"),
            **ko.units(w4.dtype)}   # the units of the dtype's work (OPs for INT8): the symbols' table, the problem


def bw_row(w4) -> str:
    """The table's BW row names the machine's memory ("HBM 대역폭 BW", "GDDR6 대역폭 BW")."""
    return f"{ex.memory_name(w4.preset)} 대역폭 BW"


def problem_rows(w4) -> list[tuple[str, str]]:
    """The problem's table as text, row by row (the page's table carries the records of its numbers; a student's
    variant of the worksheet shows these rows for its own problem, with the machine named when it is a real GPU)."""
    hw, N, u = w4.roofline, w4.N, ko.units(w4.dtype)
    rows = [("행렬 크기", f"{ex.shape(N)} (A, B, C 모두, {ko.nbsp(f'N = {fmt.integer(N)}')})"),   # (the number first: the page's cell is its button)
            ("자료형", f"{w4.dtype}, 원소와 중간 합 모두 원소당 {fmt.integer(w4.s)} Byte"),
            ("최대 연산 성능 P", f"{fmt.power10(hw.P)} {u['unit-rate-base']} "
                               f"({ko.nbsp(fmt.number(hw.P / fmt.TERA, 3) + ' ' + u['unit-rate'])})"),
            (bw_row(w4), f"{fmt.power10(hw.BW)} Byte/s"),
            ("분기점 I* = P/BW", f"{fmt.number(hw.ridge, 3)} {u['unit-I']}"),
            ("타일 한 변 T", ", ".join(fmt.integer(T) for T in w4.tiles))]
    return rows + ([("하드웨어", w4.preset.name)] if w4.hardware != "course" else [])


def statement(w4) -> tuple[str, tuple]:
    """The worksheet's problem as the page states it above the sheet: its sentence and its table's rows."""
    small, t = w4.small_N, w4.small_T
    sentence = (f"먼저 {small}×{small} 행렬곱을 {t}×{t} 출력 타일로 나누는 그림을 그린다. 이어서 A, B, C가 모두 "
                f"{ex.shape(w4.N)} {w4.dtype}인 C = A @ B를 계산한다. 수치 조건은 다음과 같다.")
    return sentence, tuple(problem_rows(w4))


def reach(cases, src: dict) -> dict:
    """The guide's caption: which tile sides reach the compute ceiling ("T = 128만 연산 상한에 닿는다")."""
    tiled = [c for c in cases if c.T is not None]
    top = [c for c in tiled if not c.timing.memory_bound]
    if not top:
        text = "어느 타일도 연산 상한에 닿지 못한다"
    elif len(top) == len(tiled):
        text = "모든 타일이 연산 상한에 닿는다"
    elif len(top) == 1:
        text = why.sentence(why.cases(top, src), "만 연산 상한에 닿는다")
    else:
        text = why.sentence(why.particle(why.cases(top, src), "이/가"), " 연산 상한에 닿는다")
    return {"reach": text}


def roofline_section(w4) -> dict:
    """The folded picture after the worksheet: ②'s roofline figure of the problem and which tiles reach the ceiling."""
    from roofline.show.pages import w4_2_roofline

    return {**reach(week4_cases(w4), why.sources(w4)), "roofline-figure": w4_2_roofline.roofline_figure(w4)}


def step(cases, w4) -> dict:
    """The guide's question on the last two cases: the ratio of Q and of the ideal time (same digits, "배")."""
    before, after = cases[-2], cases[-1]
    src = why.sources(w4)

    def at(case, name):   # the case's quantity under a name that says its tile: Q_T(128)
        q = case.timing.derivation(name)
        return named(f"{name}(T = {case.T})" if case.T else f"{name}(재사용 없음)", q.term)

    def ratio(name):
        q = named(f"{name} 비", at(after, name) / at(before, name))
        return why.shown(q, fmt.ratio(q.value), src, digits=2, unit="배")

    return {"step-before": why.case(before, src), "step-after": why.particle(why.case(after, src), "으로/로"),
            "step-Q": ratio("Q"), "step-t": ratio("t_ideal")}


# ---------------------------------------------------------------- the page's values, one dict per section

def largest_tile_section(w4) -> dict:
    T = max(w4.tiles)
    src = why.sources(w4)
    T_ = var("T", T)
    return {"T-max": why.around(why.integer(T_, src), f"{T}×{T}"), "T-max-outputs": why.integer(named("T²", T_**2), src)}


# ---------------------------------------------------------------- exercises

BUFFER_HINTS = {
    "one-input": "A 조각과 B 조각을 모두 붙잡는다.",
    "acc-counted": "중간 합은 입력 버퍼와 따로 센다.",
    "bits-bytes": ex.MATMUL_HINTS["bits-bytes"],
    "dtype-other": ex.MATMUL_HINTS["dtype-other"],
}
NO_REUSE_HINTS = {**BUFFER_HINTS, "one-input": "A와 B의 원소를 하나씩 붙잡는다."}


def sheet_mistakes(N: int, T: int | None, s: int, hw, b, s_other: int, dtype: str) -> dict[str, tuple]:
    """row → the common mistakes of a worksheet cell, each computed with the model from the case's own numbers:
    the cost a mistake gives (`exercises.matmul_variants`, `s_other` the element size of the dtype most often taken
    for the problem's) on the same machine, or the two times combined otherwise than by max; the buffers in bits,
    in the other dtype, with one input, with the partial sums; their hints count `dtype`'s work."""
    def mistakes_of(*args):
        return ex.named(*args, dtype=dtype)

    variants = ex.matmul_variants(N, T, s, s_other=s_other)
    times = {kind: Timing(cost, hw) for kind, cost in variants.items()}
    right = Timing(kernels.matmul_no_reuse(N, s, s) if T is None else kernels.matmul_tiled(N, T, s, s), hw)
    combined = {"ideal-sum": right.t_compute + right.t_memory, "ideal-min": min(right.t_compute, right.t_memory),
                "no-ceiling": right.memory_rate}

    def sized(size):
        return buffers.tile_buffers(T, T, T, size, size) if T else buffers.TileBuffers(size, size, size)

    bits, other = sized(8 * s), sized(s_other)
    buffer = {"one-input": b.A, "acc-counted": b.total, "dtype-other": other.inputs}
    of = lambda quantity: lambda timing: getattr(timing, quantity)   # noqa: E731
    return {
        "F": mistakes_of(variants, ("fma-one",), lambda c: c.F),
        "Q": mistakes_of(variants, ("c-write", "c-read", "bits-bytes", "tile-reuse-ignored", "output-per-k", "dtype-other"),
                      lambda c: c.Q),
        "I": mistakes_of(variants, ("fma-one", "c-write", "tile-reuse-ignored", "dtype-other"), lambda c: c.I),
        "R_roof": mistakes_of(combined, ("no-ceiling",), lambda v: v)
                  + mistakes_of(times, ("c-write", "fma-one", "dtype-other"), of("R_roof")),
        "t_compute": mistakes_of(times, ("fma-one",), of("t_compute")),
        "t_memory": mistakes_of(times, ("c-write", "tile-reuse-ignored", "dtype-other"), of("t_memory")),
        "t_ideal": mistakes_of(combined, ("ideal-sum", "ideal-min"), lambda v: v)
                   + mistakes_of(times, ("dtype-other", "fma-one"), of("t_ideal")),
        "inputs": mistakes_of(buffer, ("one-input", "acc-counted", "dtype-other"), lambda v: v,
                           BUFFER_HINTS if T else NO_REUSE_HINTS),
        "acc": mistakes_of({"bits-bytes": bits.acc, "dtype-other": other.acc}, ("bits-bytes", "dtype-other"), lambda v: v,
                        BUFFER_HINTS),
    }


# a student's variant of this page's exercises (roofline.show.variants): N and the machine with its dtype (the worksheet's cases stay the term's tiles)
VARIANTS = variants.Bounds("week4", variants.sides, variants.machines)


def exercises(w4) -> ex.Exercises:
    """The week-4 guide's shared problem: for every case F, Q, I, R_roof, the two times, t_ideal, the input
    buffers and the partial sums, each with its worked solution."""
    cases = week4_cases(w4)
    s, N, hw = w4.s, w4.N, w4.roofline
    rows = [("F", "F 연산량"), ("Q", f"Q {ex.memory_name(w4.preset)} 이동량"), ("I", "I 산술 강도"), ("R_roof", "R_roof 성능 상한"),
            ("t_compute", "연산 시간 F/P"), ("t_memory", "메모리 시간 Q/BW"), ("t_ideal", "이상적 시간"),
            ("inputs", "입력 버퍼"), ("acc", "중간 합")]
    questions, cols = [], []
    for c in cases:
        case = "없음" if c.T is None else str(c.T)
        label = ko.case(c)
        cols.append((case, label))
        b = buffers.tile_buffers(c.T, c.T, c.T, s, s) if c.T else buffers.TileBuffers(s, s, s)
        cost, (F, Q, I) = ex.matmul_steps(N, c.T, s, q_unit="GB", dtype=w4.dtype)
        assert cost == c.cost
        t, (tc, tm, ti) = ex.time_steps(cost, hw)
        R = ex.derived(t.derivation("R_roof"), fmt.unit("TFLOPs/s", w4.dtype))
        if c.T is None:
            parts = []
            inputs = ex.equation("입력 버퍼", "2·s (A와 B의 원소 하나씩)", f"2·{s}", b.inputs, "Byte")
            acc = ex.equation("중간 합", "s (출력 원소 하나)", str(s), b.acc, "Byte")
        else:
            made = buffers.derivation(c.T, c.T, c.T, s, s)
            parts = [ex.derived(made[k], "Byte") for k in ("A", "B")]
            inputs = ex.derived(made["inputs"], "Byte", name="입력 버퍼")
            acc = ex.derived(made["acc"], "Byte", name="중간 합")
        Q_hint = ex.formula(cost.derivation("Q"))
        values = {
            "F": (c.cost.F, fmt.unit("FLOPs", w4.dtype), ex.formula(cost.derivation("F")), [F]),
            "Q": (c.cost.Q, "GB", f"{Q_hint}, GB = 10⁹ Byte", [Q]),
            "I": (c.cost.I, fmt.unit("FLOPs/Byte", w4.dtype), ex.formula(cost.derivation("I")), [F, Q, I]),
            "R_roof": (c.timing.R_roof, fmt.unit("TFLOPs/s", w4.dtype), ex.formula(t.derivation("R_roof")), [F, Q, I, R]),
            "t_compute": (c.timing.t_compute, "ms", f"연산 시간 {ex.formula(t.derivation('t_compute'))}", [F, tc]),
            "t_memory": (c.timing.t_memory, "ms", f"메모리 시간 {ex.formula(t.derivation('t_memory'))}", [Q, tm]),
            "t_ideal": (c.timing.t_ideal, "ms", f"이상적 시간 {ex.formula(t.derivation('t_ideal'))}", [F, Q, tc, tm, ti]),
            "inputs": (b.inputs, "Byte", "A·B 원소 하나씩 = 2·s" if c.T is None else
                       f"{ex.formula(made['A'])}, {ex.formula(made['B'])}", [*parts, inputs]),
            "acc": (b.acc, "Byte", "출력 원소 하나 = s" if c.T is None else ex.formula(made["acc"]), [acc]),
        }
        mistakes = sheet_mistakes(N, c.T, s, hw, b, w4.catalog.bytes_per(ex.other_dtype(w4.catalog, w4.dtype)), w4.dtype)
        on_chip = {"on_chip": b.inputs} if c.T else {}   # a tile's input buffers are held on chip (the variant rule)
        for row, name in rows:
            value, unit, hint, steps = values[row]
            assert steps[-1].value == value
            questions.append(ex.Question(f"{row}-{case}", f"{label}: {name}", Fraction(value), ex.UNITS[unit], hint,
                                      tuple(steps), given=ex.given(N=N, T=c.T, s=s, P=hw.P, BW=hw.BW, dtype=w4.dtype,
                                                                   hardware=w4.hardware, **on_chip),
                                      mistakes=mistakes[row]))
    return ex.Exercises("guide", tuple(questions), tuple(rows), tuple(cols), statement=statement(w4))
