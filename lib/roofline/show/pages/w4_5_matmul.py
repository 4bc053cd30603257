"""⑤ the worked N×N matmul: its tables, equations and the sentences whose truth depends on the parameters, its two
figures (the cases' times, the tile-side sweep) and the explorer (N and T) with its live form.

Every function takes the week's problem (`Week4`) or its cases (`problems.week4_cases`) and returns what a
page glues: IPython Markdown (tables), Math (equations) or a Korean sentence (str). The `*_section(w4)` functions
return name → value for one section of the page (`glue_page(page.cost_section(w4))`); `exercises(w4)` its questions.

    headline(cases)      → "계산량은 어느 방식이나 … T = 128에서는 연산 성능이 한계다."
    regimes(cases)       → "메모리 한계인 경우는 재사용 없음·T = 32·T = 64이고, 연산 한계인 경우는 T = 128이다"
    gain_story(prev, last), last_story(last), threshold(w4) …
"""
from __future__ import annotations

import re
from fractions import Fraction
from math import floor, gcd, log10
from typing import TYPE_CHECKING

from roofline import buffers, kernels, problems
from roofline.cost import Timing
from roofline.derive import named, var
from roofline.errors import ParameterError, check_divides, positive_int
from roofline.problems import powers_of_two, sweep, week4_cases
from roofline.show import engine, explorer, fmt, formulas, ko, tables, tex, variants, why
from roofline.show import exercises as ex
from roofline.show import predict as pr
from roofline.show.engine import coord, keep, log_ticks, tile_ticks
from roofline.show.figures import figure
from roofline.show.palette import case_color

if TYPE_CHECKING:   # annotations only: IPython is imported where a table is made
    from IPython.display import Markdown


def _frac(text: str) -> str:
    """ "N/(4N+2)" → \\frac{N}{4N+2} """
    top, _, bottom = text.partition("/")
    return tex.frac(top, bottom.strip("()"))


def tex_form(text: str) -> str:
    """A closed form of `formulas` in TeX: "8N³/T + 4N²" → 8N^3/T + 4N^2."""
    return re.sub("[²³]", lambda m: "^" + "23"["²³".index(m[0])], text)


def compute_bound(cases) -> list:
    """The cases the model puts on the flat roof (F/P ≥ Q/BW)."""
    return [c for c in cases if not c.timing.memory_bound]


# ---------------------------------------------------------------- sentences
def headline(cases, src: dict) -> str:
    """The chapter's one-line answer: F is common, Q and the ideal time fall, and which tiles compute limits (each
    number with its record)."""
    base, last = cases[0], cases[-1]
    b, l = base.timing.derivation, last.timing.derivation
    memory = ko.memory_name(base.timing.hw.memory)   # the machine's (HBM, GDDR6)
    text = why.sentence(
        "계산량은 어느 방식이나 약 ", why.giga(b("F"), 3, src), f" {fmt.unit('GFLOPs', why.work(src))}로 같다. {memory} 이동량은 재사용 없음의 약 ",
        why.giga(b("Q"), 3, src), " GB에서 ", why.case(last, src), "의 ", why.giga(l("Q"), 3, src), " GB로 줄고, 이상적 시간도 ",
        why.ms(b("t_ideal"), 3, src), " ms에서 ", why.ms(l("t_ideal"), 3, src), " ms로 줄")
    flat = compute_bound(cases)
    if flat:
        return why.sentence(text, "지만, ", why.cases(flat, src), "에서는 연산 성능이 한계다.")
    return why.sentence(text, f"며, 비교한 경우는 모두 아직 {ko.particle(ko.bound(last.timing), '이/가')} 한계다.")


def regimes(cases, src: dict) -> str:
    """Which cases are memory-bound and which compute-bound (no final period), each tile side with its record."""
    parts = []
    slanted = [c for c in cases if c.timing.memory_bound]
    if slanted:
        parts.append(why.sentence("메모리 한계인 경우는 ", why.cases(slanted, src)))
    if compute_bound(cases):
        parts.append(why.sentence("연산 한계인 경우는 ", why.cases(compute_bound(cases), src)))
    return why.sentence(*[x for i, part in enumerate(parts) for x in (["이고, "] * bool(i) + [part])], "이다")


def about_ms(seconds, digits: int = 6) -> str:
    """A time in ms for prose: every digit when the decimal ends within `digits` places, else "약 " and rounded."""
    relation, value = tex.exact_or_about(seconds * 1000, digits)
    return value if relation == "=" else "약 " + value


def t0_memory(timing, src: dict):
    """`about_ms` of the no-reuse memory time, with its record (exact when the decimal ends within 6 places)."""
    text = about_ms(timing.t_memory)
    q = timing.derivation("t_memory")
    exact = not text.startswith("약 ")
    number = why.shown(q, text.removeprefix("약 "), src, digits=None if exact else 6, scale=1000, unit="ms",
                       rounding="" if exact else why.rounded_to(6))
    return why.around(number, text)


def no_reuse_verdict(timing) -> str:
    """Completes "메모리 시간은 … ms로 ___." for the no-reuse case."""
    if timing.memory_bound:
        return "연산 시간보다 길다. 그래서 이상적 시간은 메모리 시간으로 정해지고, 이 경우는 메모리 한계다"
    return "연산 시간보다 짧다. 그래서 이상적 시간은 연산 시간으로 정해지고, 이 경우는 연산 한계다"


def last_story(last, src: dict) -> str:
    """Why the largest tile's ideal time is what it is."""
    t = last.timing
    memory, compute = why.ms(t.derivation("t_memory"), 3, src), why.ms(t.derivation("t_compute"), 3, src)
    if t.memory_bound:
        return why.sentence(why.case(last, src), "에서도 메모리 시간 약 ", memory, " ms가 연산 시간 약 ", compute, " ms보다 "
                            f"길다. 아직 {ko.particle(ko.bound(t), '이/가')} 한계이므로 타일을 더 키우면 이상적 시간이 더 줄 수 "
                            "있다.")
    return why.sentence(why.case(last, src), "에서 메모리는 약 ", memory, " ms 안에 데이터를 공급할 수 있지만, 계산에는 최소 약 ",
                        compute, " ms가 걸린다. 이때 실행 시간의 하한은 더 긴 쪽인 연산 시간이다.")


def gain_story(prev, last, src: dict) -> str:
    """How much the ideal time falls from the second-largest tile to the largest."""
    a, b = prev.timing.t_ideal, last.timing.t_ideal
    ta, tb = (named(f"t_ideal,T={c.T}", c.timing.derivation("t_ideal").term) for c in (prev, last))
    src = {**src, ("name", ta.symbol): (f"T = {prev.T}의 이상적 시간", "s"), ("name", tb.symbol): (f"T = {last.T}의 이상적 시간", "s"),
           ("name", "Δt"): ("줄어든 이상적 시간", "s"), ("name", "Δt/t"): ("이상적 시간이 줄어든 비율", "")}
    if a > b:
        gain = named("Δt", ta - tb)
        return why.sentence(
            "T를 ", why.side("T", prev.T, src), "에서 ", why.particle(why.side("T", last.T, src), "으로/로"),
            " 키우면 이상적 시간은 ", why.ms(ta, 3, src), " ms에서 ", why.ms(tb, 3, src), " ms로 약 ", why.ms(gain, 3, src),
            " ms(", why.percent(named("Δt/t", gain / ta), 1, src), ") 줄어든다.")
    return why.sentence(why.particle(why.case(prev, src), "과/와"), " ", why.case(last, src), "의 이상적 시간은 ",
                        why.ms(tb, 3, src), " ms로 같다. 두 경우 모두 이미 연산 한계이기 때문이다.")


def bw_check(hw, src: dict) -> str:
    """How to read a memory time off Q in GB at this BW."""
    tb = why.number(hw.derivation("BW"), 3, src, Fraction(1, 10**12), "TB/s")
    if hw.BW == 10**12:
        return why.sentence("BW = ", tb, " TB/s이므로 Q를 GB로 적은 숫자가 곧 메모리 시간의 ms 숫자다.")
    return why.sentence("BW = ", tb, " TB/s이므로 메모리 시간(ms)은 Q(GB)를 ", tb, "로 나눈 값이다.")


# ---------------------------------------------------------------- tables
def assumptions(w4) -> Markdown:
    """The problem's assumptions, one row each (the memory by the machine's name: HBM, GDDR6)."""
    hw, s = w4.roofline, w4.s
    memory = ko.memory_name(hw.memory)
    src = why.sources(w4)
    base = week4_cases(w4)[0]   # FLOPs per FMA: F/N³ of the model's F = 2N³ (the convention, as ⑤'s flops section)
    fma = why.integer(named("F/N³", base.cost.derivation("F") / var("N", w4.N) ** 3), src)
    work = fmt.unit("FLOPs", w4.dtype)   # the dtype's work (OPs: INT8)
    rows = [
        ("크기", why.sentence(why.var("N", w4.N, src), " (M = N = K, 이하 정사각 행렬 한 변을 N으로 적는다)")),
        ("자료형", why.sentence(why.around(why.var("s", s, src), f"{s} Byte"), f" (원소 하나, 입력·중간 합·출력 모두 {w4.dtype})")),
        ("연산량 관례", why.sentence("곱셈 + 누산 덧셈 = ", fma, f" {work}, FMA도 ", fma, f" {work}")),
        ("적용 가능한 최대 연산 성능 P", why.around(why.power10(hw.derivation("P"), src),
                                           f"{fmt.power10(hw.P)} {fmt.unit('FLOPs/s', w4.dtype)}")),
        (f"{memory} 대역폭 BW", why.around(why.power10(hw.derivation("BW"), src), f"{fmt.power10(hw.BW)} Byte/s")),
        ("입력 위치", f"이미 장치 {memory}에 있다. CPU 전송 시간은 빼고 센다"),
        ("중간 합", f"계속 온칩에 둔다. {memory}에 쓰거나 읽지 않는다"),
        ("출력", "기존 C를 읽지 않고 최종 C만 한 번 쓴다"),
        ("재사용 범위", "출력 타일 안에서만 재사용한다. 서로 다른 출력 타일 사이의 캐시 재사용은 없다"),
        ("입력 버퍼", "A·B 조각 한 벌, K 조각 폭도 T"),
        ("기타", "추가 이동·spill·padding 없음, 연산과 이동이 충분히 겹친다"),
    ]
    return tables.markdown(["항목", "조건"], rows, "ll")


def cost_table(cases, src: dict | None = None) -> Markdown:
    """F, A·B reads, C writes, Q (Byte and GB) and I for every case (each number with its record, given `src`)."""
    if src is None:
        rows = [(ko.nbsp(ko.case(c)), fmt.integer(c.cost.F), fmt.integer(c.cost.Q_read), fmt.integer(c.cost.Q_write),
                 fmt.integer(c.cost.Q), fmt.giga(c.cost.Q), fmt.decimal(c.cost.I, 6)) for c in cases]
    else:
        def d(c, name):
            return c.cost.derivation(name)

        rows = [(why.case_label(c, src, nbsp=True), why.integer(d(c, "F"), src), why.integer(d(c, "Q_read"), src),
                 why.integer(d(c, "Q_write"), src), why.integer(d(c, "Q"), src), why.giga(d(c, "Q"), 6, src),
                 why.decimal(d(c, "I"), 6, src)) for c in cases]
    return tables.markdown([fmt.in_units(h, why.work(src)) for h in ("방식", "F (FLOPs)", "A·B 읽기 (Byte)", "C 쓰기 (Byte)",
                                                                   "총 Q (Byte)", "총 Q (GB)", "I (FLOPs/Byte)")], rows)


def time_table(cases, digits: int = 6, src: dict | None = None) -> Markdown:
    """BW×I, the roof, the two times, the ideal time, the limiting resource and t₀/t for every case (each number with
    its record, given `src`)."""
    t0 = cases[0].timing.t_ideal
    if src is None:
        rows = [(ko.nbsp(ko.case(c)), fmt.tera(c.timing.memory_rate, digits), fmt.tera(c.timing.R_roof, digits),
                 fmt.ms(c.timing.t_compute, digits), fmt.ms(c.timing.t_memory, digits), fmt.ms(c.timing.t_ideal, digits),
                 ko.nbsp(ko.bound(c.timing)), fmt.ratio(t0 / c.timing.t_ideal)) for c in cases]
    else:
        t0_ = named("t₀", cases[0].timing.derivation("t_ideal").term)

        def ratio(c):
            q = named("t₀/t", t0_ / c.timing.derivation("t_ideal"))
            return why.shown(q, fmt.ratio(q.value), src, digits=2)

        rows = [(why.case_label(c, src, nbsp=True), why.tera(c.timing.derivation("BW·I"), digits, src),
                 why.tera(c.timing.derivation("R_roof"), digits, src), why.ms(c.timing.derivation("t_compute"), digits, src),
                 why.ms(c.timing.derivation("t_memory"), digits, src), why.ms(c.timing.derivation("t_ideal"), digits, src),
                 ko.nbsp(ko.bound(c.timing)), ratio(c)) for c in cases]
    return tables.markdown([fmt.in_units(h, why.work(src)) for h in (
        "방식", "BW×I (TFLOPs/s)", "Roofline 상한 (TFLOPs/s)", "연산 시간 (ms)", "메모리 시간 (ms)", "이상적 시간 (ms)",
        "모델상 제한 자원", "시간 비율 t₀/t")], rows, "lrrrrrlr")


def buffer_table(s: int, cases, src: dict | None = None) -> Markdown:
    """What one unit of work holds on chip: A and B inputs and the partial sums (no reuse: one output element);
    with `src`, each number with its record (buffers' closed forms, checked against roofline.buffers)."""
    s_ = var("s", s)

    def num(q):
        return why.integer(q, src) if src else fmt.integer(q.value)

    def with_kib_(q, src_):
        text = ko.nbsp(f"{fmt.integer(q.value)} ({fmt.kib(q.value)})")
        return why.around(why.integer(q, src_), text) if src_ else text

    def one():   # one element: "원소 하나, 4 B" (only the Byte its button)
        return why.sentence(ko.nbsp("원소 하나, "), why.integer(s_, src), ko.nbsp(" B")) if src else ko.nbsp(f"원소 하나, {s} B")

    rows = [(ko.nbsp("재사용 없음"), one(), one(),
             num(named("입력 합계", s_ + s_)), num(named("중간 합", s_)), num(named("논리적 총합", s_ + s_ + s_)))]
    for c in cases:
        if c.T is None:
            continue
        made = buffers.derivation(c.T, c.T, c.T, s, s)   # the model's buffers: A = s·T_M·T_K, …
        A, B, inputs, acc, total = (made[k] for k in ("A", "B", "inputs", "acc", "total"))
        T = var("T", c.T)
        src_T = {**src, "T_M": T, "T_N": T, "T_K": T} if src else src

        def held(q):   # "4,096 B (32²원소)": the Byte with its record, and the tile side with its own
            if not src:
                return ko.nbsp(f"{fmt.integer(q.value)} B ({c.T}²원소)")
            return why.sentence(why.integer(q, src_T), ko.nbsp(" B ("), why.side("T", c.T, src), ko.nbsp("²원소)"))

        rows.append((why.case_label(c, src, nbsp=True) if src else ko.nbsp(ko.case(c)), held(A), held(B), with_kib_(inputs, src_T), with_kib_(acc, src_T),
                     with_kib_(total, src_T)))
    return tables.markdown(["방식", "보관하는 A 입력", "보관하는 B 입력", "입력 합계 (Byte)", "중간 합 (Byte)",
                            "논리적 총합 (Byte)"], rows)


# ---------------------------------------------------------------- equations
def problem(N: int):
    """A, B, C ∈ ℝ^{N×N}, C = AB."""
    from IPython.display import Math

    return Math(rf"A, B, C \in \mathbb{{R}}^{{{N} \times {N}}}, \qquad C = A\,B")


def common(w4, base):
    """F = 2N³, Q_C = sN², t_compute = F/P (in s and ms, exact when the decimal ends)."""
    s, F, P = w4.s, base.cost.F, w4.roofline.P
    t = base.timing.t_compute
    rel_s, val_s = tex.exact_or_about(t, 9)
    rel_ms, val_ms = tex.exact_or_about(t * 1000, 6)
    return tex.aligned(
        rf"F &= 2N^3 = 2 \times {tex.integer(w4.N)}^3 \\ &= {tex.integer(F)}\ \text{{{fmt.unit('FLOPs', w4.dtype)}}} \\[4pt]"
        rf"Q_C &= {s}N^2 = {tex.integer(base.cost.Q_write)}\ \text{{Byte}} \\[4pt]"
        rf"t_\text{{compute}} &= \frac{{F}}{{P}} = \frac{{{tex.integer(F)}}}{{{tex.power10(P)}}} \\"
        rf"&{rel_s} {val_s}\ \text{{s}} \\ &{rel_ms} {val_ms}\ \text{{ms}}")


def no_reuse(w4, base):
    """Q₀, I₀ and R₀ of the no-reuse case."""
    s, hw = w4.s, w4.roofline
    return tex.aligned(
        rf"Q_0 &= \underbrace{{N^3 \times 2 \times {s}}}_{{\text{{A와 B 읽기}}}} + \underbrace{{{s}N^2}}_{{\text{{C 쓰기}}}} \\"
        rf"&= {tex.integer(base.cost.Q)}\ \text{{Byte}} \\[4pt]"
        rf"I_0 &= \frac{{2N^3}}{{{tex_form(formulas.q_no_reuse(s, s))}}} = {_frac(formulas.intensity_no_reuse(s, s))} \\"
        rf"&\approx {fmt.decimal(base.cost.I, 9)}\ \text{{{fmt.unit('FLOPs/Byte', w4.dtype)}}} \\[4pt]"
        rf"R_0 &= \min\left({tex.power10(hw.P)},\ {tex.power10(hw.BW)} \times I_0\right) \\"
        rf"&\approx {fmt.decimal(base.timing.R_roof / 10**12, 9)} \times 10^{{12}}\ \text{{{fmt.unit('FLOPs/s', w4.dtype)}}}")


def tiled_formula(s: int):
    """Q_T counted tile by tile, and I_T."""
    return tex.aligned(
        rf"Q_T &= \left(\frac{{N}}{{T}}\right)^2 \cdot \frac{{N}}{{T}} \cdot {2 * s}T^2 + {s}N^2 \\"
        rf"&= {tex_form(formulas.q_tiled(s, s))} \\[4pt]"
        rf"I_T &= \frac{{2N^3}}{{{tex_form(formulas.q_tiled(s, s))}}} \\ &= {_frac(formulas.intensity_tiled(s, s))}")


def tile_walk(N: int, T: int, s: int) -> tuple[int, int, int]:
    """(output tiles (N/T)², K steps per tile N/T, input Byte per step 2sT²): their product plus sN² is Q_T."""
    return (N // T) ** 2, N // T, 2 * s * T * T


def tile_walk_math(N: int, T: int, s: int):
    tiles_, steps, per_step = tile_walk(N, T, s)
    Q = kernels.matmul_tiled(N, T, s, s).Q
    return tex.aligned(
        rf"Q_{{{T}}} &= {tex.integer(tiles_)} \times {tex.integer(steps)} \times {tex.integer(per_step)} \\ "
        rf"&\quad + {tex.integer(s * N * N)} \\ &= {tex.integer(Q)}\ \text{{Byte}}")


def time_defs(hw):
    return tex.aligned(rf"R_\text{{roof}} &= \min(P,\ BW \times I) \\ t_\text{{ideal}} &= \max(F/P,\ Q/BW) \\ "
                       rf"I^* &= P/BW = {fmt.number(hw.ridge, 3)}")


def threshold(w4) -> tuple:
    """(Math: I_T ≥ I* solved for T, sentence: which compared tiles reach the ridge)."""
    N, s, ridge, tiles_ = w4.N, w4.s, w4.roofline.ridge, w4.tiles
    T_star = kernels.tile_threshold(N, ridge, s, s)
    # I_T = kNT/(aN + bT) reduced; I_T ≥ I*  ⇔  T (kN − b I*) ≥ a I* N
    k, a, b = formulas.tiled_coefficients(s, s)
    kN = "N" if k == 1 else f"{k}N"
    I_T = _frac(formulas.intensity_tiled(s, s))
    if ridge.denominator == 1:
        I = ridge.numerator
        top, left, right = a * I, k, b * I
        h = gcd(top, left, right)
        top, left, right = top // h, left // h, right // h
        rule = rf"T \ge \frac{{{top}N}}{{{'N' if left == 1 else f'{left}N'} - {right}}}"
        steps = rf"&{I_T} \ge {I} \\ \iff &{kN}T \ge {a * I}N + {b * I}T \\ \iff &{rule}"
    else:
        steps = rf"&{I_T} \ge I^* \\ \iff &T \ge \frac{{{a} I^* N}}{{{kN} - {b} I^*}}"
    if T_star is None:
        return tex.aligned(steps), (f"분모가 0 이하이므로 어떤 T도 I* = {fmt.number(ridge, 3)}에 닿지 못한다. "
                                    "비교한 타일은 모두 메모리 한계다.")
    crossing = [T for T in tiles_ if T >= T_star]
    src = why.sources(w4)

    def listed(Ts):
        return [x for i, T in enumerate(Ts) for x in ([", "] * bool(i) + [why.side("T", T, src)])]

    text = why.sentence("" if T_star <= N else "이 값은 N보다 커서 어떤 타일도 분기점에 닿지 못한다. ",
                        "비교한 타일 ", *listed(tiles_), " 가운데 이를 넘는 것은 ",
                        *((*listed(crossing), "뿐이다.") if crossing else ("없다.",)))
    return tex.aligned(steps + rf" \\ &\approx {fmt.decimal(T_star, 3)}"), text


# ---------------------------------------------------------------- the page's values, one dict per section

def middle_tile(w4) -> int:
    """The tile side the chapter works through by hand: the middle one of the compared tiles."""
    tiled = w4.tiles
    return tiled[len(tiled) // 2]


def headline_section(w4) -> dict:
    """The one-line answer and the names the introduction uses."""
    cases = week4_cases(w4)
    base, last = cases[0], cases[-1]
    src = why.sources(w4)
    return {"headline": headline(cases, src),
            "shape": why.around(why.var("N", w4.N, src), ex.shape(w4.N)),
            "dtype": w4.dtype, "acc-dtype": ko.particle(w4.dtype, "으로/로"),
            "unit-I": ko.units(w4.dtype)["unit-I"],
            "hw-name": w4.roofline.name or "주어진 하드웨어", "t-first": why.ms(base.timing.derivation("t_ideal"), 3, src),
            "last-label": why.case(last, src),
            "tile-list": why.listed("tiles", w4.tiles, w4.origin("tiles"), "·".join(str(T) for T in w4.tiles))}


def problem_section(w4) -> dict:
    return {"table-assumptions": assumptions(w4), "problem": problem(w4.N)}


def flops_section(w4) -> dict:
    base = week4_cases(w4)[0]
    src = why.sources(w4)
    per_fma = named("F/N³", base.cost.derivation("F") / var("N", w4.N) ** 3)   # FLOPs per FMA (one FMA is this many)
    return {"common": common(w4, base), "t-compute": why.ms(base.timing.derivation("t_compute"), 3, src),
            "fma-flops": why.integer(per_fma, src), "unit-work": ko.units(w4.dtype)["unit-work"]}


def no_reuse_section(w4) -> dict:
    base = week4_cases(w4)[0]
    return {"no-reuse": no_reuse(w4, base), "I0-short": why.decimal(base.cost.derivation("I"), 3, why.sources(w4)),
            "t0-memory": t0_memory(base.timing, why.sources(w4)), "t0-verdict": no_reuse_verdict(base.timing)}


def tile_walk_section(w4) -> dict:
    N, s, T_mid = w4.N, w4.s, middle_tile(w4)
    n_tiles, steps, per_step = tile_walk(N, T_mid, s)
    src = why.sources(w4)
    N_, T_, s_ = var("N", N), var("T", T_mid), var("s", s)
    walked = (named("출력 타일 수", (N_ / T_) ** 2), named("K 단계 수", N_ / T_), named("단계당 읽기", 2 * T_**2 * s_))
    assert tuple(q.value for q in walked) == (n_tiles, steps, per_step)
    return {"tiled-formula": tiled_formula(s), "T-mid": why.integer(T_, src),
            "T-mid-example": why.particle(why.sentence("T = ", why.side("T", T_mid, src)), "이면/면"), "step-coef": why.integer(named("2·s", 2 * s_), src),
            "mid-tiles": why.integer(walked[0], src), "mid-steps": why.integer(walked[1], src),
            "mid-per-step": why.integer(walked[2], src),
            "mid-Q": tile_walk_math(N, T_mid, s)}


def cost_section(w4) -> dict:
    cases, s = week4_cases(w4), w4.s
    return {"table-cost": cost_table(cases, why.sources(w4)), "T-over-s-compared": ko.particle(f"T/{s}", "과/와"),
            "T-over-s-approx": ko.particle(f"T/{s}", "은/는"),
            "I-last": why.decimal(cases[-1].cost.derivation("I"), 3, why.sources(w4))}


def time_section(w4, digits: int = 6) -> dict:
    cases, hw = week4_cases(w4), w4.roofline
    return {"table-time": time_table(cases, digits, why.sources(w4)), "digits": why.chosen("d", "표의 소수 자릿수", digits, f"page.time_section(w4, digits={digits})"), "time-defs": time_defs(hw),
            "regimes": regimes(cases, why.sources(w4)), "ridge": why.number(hw.derivation("I*"), 3, why.sources(w4)),
            "last-story": last_story(cases[-1], why.sources(w4)), "gain-story": gain_story(cases[-2], cases[-1], why.sources(w4)),
            "fig-times": times_figure(w4)}


def buffer_section(w4) -> dict:
    s_ = var("s", w4.s)
    return {"buf-coef": why.integer(named("3·s", 3 * s_), why.sources(w4)), "table-buffers": buffer_table(w4.s, week4_cases(w4), why.sources(w4))}


def bandwidth_section(w4) -> dict:
    N, s, hw = w4.N, w4.s, w4.roofline
    src, N_, s_ = why.sources(w4), var("N", N), var("s", s)
    store = named("A·B·C의 Byte", 3 * s_ * N_**2)
    return {"Q-C": why.integer(week4_cases(w4)[0].cost.derivation("Q_write"), src), "bw-check": bw_check(hw, src),
            "store-coef": why.integer(named("3·s", 3 * s_), src), "store-bytes": why.integer(store, src),
            "store-mib": why.shown(store, fmt.mib(store.value), src, digits=3, scale=Fraction(1, 2**20), unit="MiB",
                                   rounding="소수 3자리로 반올림, 끝의 0은 생략 (1 MiB = 2²⁰ Byte)"),
            "I-ideal-formula": formulas.intensity_ideal(s, s),
            "I-ideal": why.decimal(kernels.matmul_ideal(N, s, s).derivation("I"), 3, src)}


def threshold_section(w4) -> dict:
    math, tiles = threshold(w4)
    return {"threshold-math": math, "threshold-tiles": tiles,
            "ridge-again": why.particle(why.number(w4.roofline.derivation("I*"), 3, why.sources(w4)), "을/를")}


def rectangle_section(w4) -> dict:
    """The discussion's values: the same number of outputs T_mid² as a rectangle (square when N does not allow it)."""
    N, s, T_mid = w4.N, w4.s, middle_tile(w4)
    T_M, T_N = (2 * T_mid, T_mid // 2) if T_mid % 2 == 0 and N % (2 * T_mid) == 0 else (T_mid, T_mid)
    square = kernels.matmul_tiles(N, N, N, T_mid, T_mid, T_mid, s, s)
    rect = kernels.matmul_tiles(N, N, N, T_M, T_N, T_mid, s, s)
    # the inputs: M = N = K the problem's N, the square's sides the middle tile, the rectangle's from it
    T = var("T", T_mid)
    src = {**why.sources(w4), "M": w4.origin("N"), "K": w4.origin("N"), ("T_M", T_mid): T, ("T_N", T_mid): T,
           "T_K": T, ("T_M", T_M): named("T_M", 2 * T) if T_M != T_mid else T,
           ("T_N", T_N): named("T_N", T / 2) if T_N != T_mid else T}
    sq_read = named("Q_read,□", square.derivation("Q_read").term)
    rect_read = named("Q_read,▭", rect.derivation("Q_read").term)
    ratio = named("Q_read,▭ / Q_read,□", rect_read / sq_read)
    T_M_, T_N_ = src[("T_M", T_M)], src[("T_N", T_N)]
    # "64×64", "128×32": each side its own button (T_M and T_N of the rectangle have two derivations)
    sq_shape = why.sentence(why.shown(T, str(T_mid), src, digits=None), "×", why.shown(T, str(T_mid), src, digits=None))
    rect_shape = why.sentence(why.shown(T_M_, str(T_M), src, digits=None), "×", why.shown(T_N_, str(T_N), src, digits=None))

    def kib(q):
        return why.shown(q, fmt.kib(q.value), src, digits=3, scale=Fraction(1, 1024), unit="KiB",
                         rounding="소수 3자리로 반올림, 끝의 0은 생략 (1 KiB = 1024 Byte)")

    s_ = var("s", s)
    sq_in = named("입력 버퍼", s_ * (T * T + T * T))
    rect_in = named("입력 버퍼", s_ * (T_M_ * T + T * T_N_))
    assert (sq_in.value, rect_in.value) == (buffers.tile_buffers(T_mid, T_mid, T_mid, s, s).inputs,
                                            buffers.tile_buffers(T_M, T_N, T_mid, s, s).inputs)
    return {"q-sq": sq_shape, "q-sq-shape": why.particle(sq_shape, "을/를"),
            "q-rect-shape": why.particle(rect_shape, "으로/로"),
            "q-rect-read-shape": why.particle(rect_shape, "은/는"),
            "q-rect-in": why.particle(kib(rect_in), "으로/로"),
            "q-outputs": why.integer(named("T²", T**2), src), "q-sq-read": why.integer(sq_read, src),
            "q-rect-read": why.integer(rect_read, src), "q-read-ratio": why.shown(ratio, fmt.ratio(ratio.value), src, digits=2),
            "q-sq-I": why.decimal(square.derivation("I"), 3, src), "q-rect-I": why.decimal(rect.derivation("I"), 3, src),
            "q-sq-in": kib(sq_in)}


def sweep_section(w4) -> dict:
    """The tile-side sweep (every divisor T of N): its figure and the range it spans."""
    points = sweep(w4)
    src = why.sources(w4)
    last = kernels.matmul_tiled(w4.N, points[-1].T, w4.s, w4.s).derivation("I")   # T = N: the largest divisor
    assert last.value == points[-1].I and points[-1].T == w4.N
    src[("T", w4.N)] = named("T", var("N", w4.N))
    assert points[0].T == 1
    return {"fig-sweep": tile_sweep_figure(w4), "sweep-min": why.integer(named("T_min", 1), src),
            "sweep-max": why.integer(src[("T", w4.N)], src),
            "sweep-I-max": why.decimal(last, 3, src)}


# ---------------------------------------------------------------- figures

MS = 1e3


@figure("week4-tile-sweep", "week4")
def tile_sweep_figure(w4):
    """Top: I_T against T (every divisor T of N) with the ridge I*; bottom: t_compute, t_memory and t_ideal
    against T, with the ridge crossing T* = 2 s N I* / (2N − s I*) where I_T ≥ I*.

    One narrow column with large type: it is read on a phone (390 px) as well as on a desktop."""
    from roofline.show import style
    from roofline.show.style import Figure

    hw = w4.roofline
    points = sweep(w4)
    Ts = [p.T for p in points]
    threshold = kernels.tile_threshold(w4.N, hw.ridge, w4.s, w4.s)
    crossing = threshold is not None and threshold <= w4.N

    fig = Figure(figsize=(4.4, 6.6))
    top, bottom = fig.subplots(2, 1, sharex=True)

    top.loglog(Ts, [float(p.I) for p in points], "o-", ms=3, lw=1.5, color="dimgray", label="I_T")
    top.axhline(float(hw.ridge), color="gray", ls="--", lw=1.2, label=f"분기점 I* = {fmt.number(hw.ridge, 3)}")
    top.set_ylabel(f"I_T ({fmt.unit('FLOPs/Byte', w4.dtype)})", fontsize=12)
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
        color = case_color(index)
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
    fig.suptitle(f"{ex.shape(w4.N)} {w4.dtype} 행렬곱, T만 바꿀 때", fontsize=13)
    return fig


@figure("week4-matmul-times", "week4")
def times_figure(w4):
    """⑤'s own view: for each case, the memory time Q/BW as a bar and the compute time F/P as a line;
    t_ideal = max(F/P, Q/BW) is written at the end of each bar (log time axis)."""
    from roofline.show import style
    from roofline.show.style import Figure

    cases = week4_cases(w4)
    t_c = float(cases[0].timing.t_compute) * MS

    fig = Figure(figsize=(4.4, 3.4))
    ax = fig.subplots()
    ys = list(range(len(cases)))[::-1]
    for index, (y, case) in enumerate(zip(ys, cases)):
        t_m = float(case.timing.t_memory) * MS
        ax.barh(y, t_m, height=0.6, color=case_color(index))
        ideal = fmt.ms(case.timing.t_ideal, 3)
        ax.text(max(t_m, t_c) * 1.15, y, f"{ideal} ms", va="center", fontsize=11.5)
    ax.axvline(t_c, color="black", ls="--", lw=1.5)
    ax.text(t_c * 1.12, ys[0] + 0.5, f"연산 시간 F/P = {fmt.ms(cases[0].timing.t_compute, 3)} ms", ha="left",
            va="bottom", fontsize=11.5)
    ax.set_xscale("log")
    # from the decade below half the shortest time drawn (a fast GPU's small N is far under 1 ms) to 20× the longest
    shortest = min(t_c, *(float(case.timing.t_memory) * MS for case in cases))
    ax.set_xlim(10.0 ** floor(log10(shortest / 2)), float(cases[0].timing.t_memory) * MS * 20)
    ax.set_ylim(-0.6, len(cases) - 0.1 + 0.8)
    ax.set_yticks(ys, [ko.case(c) for c in cases], fontsize=12)
    ax.set_xlabel("메모리 시간 Q/BW (ms)", fontsize=12)
    ax.tick_params(axis="x", labelsize=11)
    ax.grid(axis="y", visible=False)
    style.plain_log_ticks(ax)
    ax.set_title("막대: 메모리 시간\n숫자: 이상적 시간", fontsize=12.5)
    return fig


# ---------------------------------------------------------------- exercises


# a student's variant of this page's exercises (roofline.show.variants): N and the machine with its dtype
VARIANTS = variants.Bounds("week4", variants.sides, variants.machines)

def exercises(w4) -> ex.Exercises:
    """⑤ At another N and T: the ideal time, the no-reuse memory time in another dtype, the smallest T that
    reaches the ridge in that dtype, and whether a small tile is memory- or compute-bound there. The other dtype
    runs at its own peak on the same machine (`ex.compared_dtype`), and ⑤-3 and ⑤-4 state it."""
    hw, s, N, cat = w4.roofline, w4.s, w4.N, w4.catalog
    N5 = 3 * N // 2 if N % 2 == 0 else 3 * N
    T5 = ex.divisor_near(N5, 3 * min(w4.tiles), w4.tiles)
    d2, P2 = ex.compared_dtype(w4.preset, cat, w4.dtype)
    hw2 = hw if P2 is None else hw.with_(P=P2)   # d2's roofline: its own peak, the same BW
    s2 = cat.bytes_per(d2)
    machine = f"P = {ex.rate(hw.P)} {fmt.unit('FLOPs/s', w4.dtype)}, BW = {ex.rate(hw.BW)} Byte/s"
    # what ⑤-3 and ⑤-4 run d2 on: its own peak, or (no peak for it on the machine) the week's P, said to be assumed
    machine2 = (f"{d2} 최대 연산 성능 P = {ex.rate(hw2.P)} {fmt.unit('FLOPs/s', d2)}, BW = {ex.rate(hw2.BW)} Byte/s인 "
                "같은 하드웨어" if P2 is not None else
                f"{d2}에도 P = {ex.rate(hw2.P)} {fmt.unit('FLOPs/s', d2)}를 그대로 쓴다고 가정하고 BW = "
                f"{ex.rate(hw2.BW)} Byte/s인 같은 하드웨어")
    cost1, (F1, Q1, _) = ex.matmul_steps(N5, T5, s, dtype=w4.dtype)
    t1, times1 = ex.time_steps(cost1, hw)
    plain = kernels.matmul_no_reuse(N5, s2, s2)
    t2 = Timing(plain, hw2)
    steps2 = (ex.matmul_steps(N5, None, s2, dtype=d2)[1][1], ex.derived(t2.derivation("t_memory"), "ms"))
    # the common mistakes: the cost a mistake gives on the same machine, the two times combined otherwise than by max
    wrong1 = {kind: Timing(c, hw).t_ideal for kind, c in ex.matmul_variants(N5, T5, s, s_other=s2).items()}
    wrong1.update({"ideal-sum": t1.t_compute + t1.t_memory, "ideal-min": min(t1.t_compute, t1.t_memory)})
    wrong2 = {kind: Timing(c, hw2).t_memory for kind, c in ex.matmul_variants(N5, None, s2).items()}
    s_o = ex.other_size(cat, d2)   # the dtype a student takes for d2 (FP32 for FP16)
    wrong2["dtype-other"] = Timing(kernels.matmul_no_reuse(N5, s_o, s_o), hw2).t_memory
    questions = [
        ex.Question("⑤-1", f"{machine}인 하드웨어에서 {ex.shape(N5)} {ex.dtype_text(w4.dtype, s)} 행렬곱을 T = {ex.number(T5)} "
                 "출력 타일로 계산한다. 이상적 시간 t_ideal은?", t1.t_ideal, ex.UNITS["ms"],
                 f"{ex.formula(t1.derivation('t_ideal'))}, {ex.formula(cost1.derivation('Q'))}", (F1, Q1, *times1),
                 given=ex.given(N=N5, T=T5, s=s, P=hw.P, BW=hw.BW, dtype=w4.dtype),
                 mistakes=ex.named(wrong1, ("ideal-sum", "ideal-min", "c-write", "fma-one", "tile-reuse-ignored", "dtype-other"),
                                   lambda v: v, dtype=w4.dtype)),
        ex.Question("⑤-2", f"같은 하드웨어(BW 그대로)에서 {ex.shape(N5)} {ex.dtype_text(d2, s2)} 행렬곱을 재사용 없이 "
                 "계산하면 메모리 시간 Q/BW는?", t2.t_memory, ex.UNITS["ms"],
                 f"{ex.formula(plain.derivation('Q'))}, 메모리 시간 {ex.formula(t2.derivation('t_memory'))}",
                 steps2, given=ex.given(N=N5, s=s2, BW=hw.BW, dtype=d2),
                 mistakes=ex.named(wrong2, ("c-write", "bits-bytes", "dtype-other"), lambda v: v, dtype=d2)),
    ]
    ridge_ = hw2.derivation("I*")
    cost4_ = kernels.matmul_tiled(N5, N5, s2, s2)   # (the formula of I_T, whatever the tile)
    threshold_ = kernels.tile_threshold_term(N5, ridge_, s2, s2)   # T* with the ridge's own derivation linked
    threshold = None if threshold_ is None else Fraction(threshold_.value)
    ridge = ex.derived(ridge_, fmt.unit("FLOPs/Byte", d2))   # d2's own P (as stated), the same BW
    if threshold is not None:
        # the threshold a mistake gives: without the C write's term s·I* (T* = s·I*), with F counted half (the
        # ridge doubled), with the ridge inverted; none where no tile reaches that ridge
        wrong3 = {"c-write": 2 * s2 * N5 * hw2.ridge / (2 * N5),
                  "fma-one": kernels.tile_threshold(N5, 2 * hw2.ridge, s2, s2),
                  "ridge-inverted": kernels.tile_threshold(N5, 1 / hw2.ridge, s2, s2),
                  "dtype-other": kernels.tile_threshold(N5, hw2.ridge, s_o, s_o)}
        wrong3 = {kind: v for kind, v in wrong3.items() if v is not None}
        steps3 = (ridge, ex.derived(threshold_, "원소"))
        questions.append(ex.Question("⑤-3", f"{machine2}에서 {ex.shape(N5)} {d2} 행렬곱의 I_T가 분기점 I*에 닿는 T의 최솟값 T*(실수)는?",
                                  threshold, ex.UNITS["원소"],
                                  f"{ex.formula(cost4_.derivation('I'))}, {ex.formula(cost4_.derivation('Q'))}에서 I_T = I*를 T에 대해 푼다",
                                  steps3, given=ex.given(N=N5, s=s2, P=hw2.P, BW=hw2.BW, dtype=d2),
                                  mistakes=ex.named(wrong3, ("c-write", "fma-one", "ridge-inverted", "dtype-other"), lambda v: v,
                                                    THRESHOLD_HINTS, dtype=d2)))
    else:   # no tile reaches the ridge on this machine: the compute time instead
        t3 = Timing(plain, hw2)
        steps3 = (ex.derived(plain.derivation("F"), fmt.unit("FLOPs", d2)), ex.derived(t3.derivation("t_compute"), "ms"))
        questions.append(ex.Question("⑤-3", f"{machine2}에서 {ex.shape(N5)} {d2} 행렬곱의 연산 시간 F/P는?", t3.t_compute, ex.UNITS["ms"],
                                  f"연산 시간 {ex.formula(t3.derivation('t_compute'))}, {ex.formula(plain.derivation('F'))}", steps3, given=ex.given(N=N5, s=s2, P=hw2.P, dtype=d2),
                                  mistakes=ex.named(ex.matmul_variants(N5, None, s2), ("fma-one",),
                                                    lambda c: Timing(c, hw2).t_compute, dtype=d2)))
    T_small = min(w4.tiles) if N5 % min(w4.tiles) == 0 else ex.divisor_near(N5, min(w4.tiles))
    cost4, steps4 = ex.matmul_steps(N5, T_small, s2, dtype=d2)
    key, judged = ex.bound_by_ridge(cost4.I, hw2, d2)
    wrong4 = {kind: "memory" if c.I < hw2.ridge else "compute" for kind, c in ex.matmul_variants(N5, T_small, s2).items()}
    wrong4["ridge-inverted"] = "memory" if cost4.I < 1 / hw2.ridge else "compute"
    questions.append(ex.Question("⑤-4", f"{machine2}에서 {ex.shape(N5)} {d2} 행렬곱을 T = {ex.number(T_small)} 출력 타일로 계산하면 "
                              "메모리 한계인가, 연산 한계인가?", key, ex.CHOICE, "I_T와 분기점 I* = P / BW를 견준다",
                              tuple(steps4) + tuple(judged), ex.BOUND_CHOICES,
                              given=ex.given(N=N5, T=T_small, s=s2, P=hw2.P, BW=hw2.BW, dtype=d2),
                              mistakes=ex.named(wrong4, ("c-write", "tile-reuse-ignored", "tile-reuse-twice", "fma-one",
                                                         "ridge-inverted"), lambda v: v, dtype=d2)))
    return ex.Exercises("⑤", tuple(questions))


THRESHOLD_HINTS = {   # what a mistake in T* = 2·s·N·I* / (2N − s·I*) left out or changed
    "c-write": "C를 쓰는 s·N²이 분모의 − s·I*를 만든다: 빼면 T* = s·I*가 된다.",
    "fma-one": ex.MATMUL_HINTS["fma-one"],
    "ridge-inverted": ex.MATMUL_HINTS["ridge-inverted"],
    "dtype-other": ex.MATMUL_HINTS["dtype-other"],
}


# ---------------------------------------------------------------- the explorer


def matmul_headers(dtype: str) -> list[str]:
    """⑤'s comparison columns, the work in the units `dtype` counts it (`ko.units`: OPs, OPs/Byte, TOPS for INT8)."""
    u = ko.units(dtype)
    return ["방식", f"F ({u['unit-work']})", "총 Q (Byte)", f"I ({u['unit-I']})", f"Roofline 상한 ({u['unit-rate']})",
            "연산 시간 (ms)", "메모리 시간 (ms)", "이상적 시간 (ms)", "모델상 제한 자원", "시간 비율 t₀/t"]
MATMUL_ALIGN = "lrrrrrrrlr"


def matmul_row(case, base, src: dict) -> list[str]:
    """One row with ⑤'s comparison columns: F, Q, I, R_roof, t_compute, t_memory, t_ideal, limiting resource, t₀/t,
    each number with its record."""
    t = case.timing
    ratio = named("t₀/t", named("t₀", base.timing.derivation("t_ideal").term) / t.derivation("t_ideal"))
    return [keep(ko.case(case)), why.integer(t.derivation("F"), src), why.integer(t.derivation("Q"), src),
            why.decimal(t.derivation("I"), 6, src), why.tera(t.derivation("R_roof"), 6, src),
            why.ms(t.derivation("t_compute"), 6, src), why.ms(t.derivation("t_memory"), 6, src),
            why.ms(t.derivation("t_ideal"), 6, src), keep(ko.bound(t)), why.shown(ratio, fmt.ratio(ratio.value), src, digits=2)]


def matmul_sweep(w4) -> list[int]:
    """The tile sides on ⑤'s curves: every power of two from 8 that divides N, and the problem's tiles."""
    return sorted(set(powers_of_two(w4.N)) | set(w4.tiles))


def matmul_state(w4, T: int) -> dict:
    """⑤ for the problem `w4` and the chosen tile side T: the point on the I–T and time–T curves over
    `matmul_sweep(w4)` (with T), and the table's two rows (no reuse, T) with ⑤'s comparison columns."""
    T = positive_int(T, "T")
    check_divides("T", T, "N", w4.N)
    hw = w4.roofline
    Ts = sorted(set(matmul_sweep(w4)) | {T})
    cases = problems.week4_cases(w4.with_(tiles=Ts))
    base, sweep = cases[0], {c.T: c for c in cases[1:]}
    chosen = sweep[T]
    I_lo = min(min(c.cost.I for c in sweep.values()), hw.ridge) / 2
    I_hi = max(max(c.cost.I for c in sweep.values()), hw.ridge) * 2
    t_c = base.timing.t_compute
    t_lo = min(t_c, min(c.timing.t_memory for c in sweep.values())) * 1000 / 2
    t_hi = max(c.timing.t_ideal for c in sweep.values()) * 1000 * 2
    src = {**why.sources(w4), "T": "cell:T"}   # the chosen T: the slider's ("control:T"), the live form's ("typed:T")
    rows = [matmul_row(base, base, src), matmul_row(chosen, base, src)]
    fields = {f"r{i}-{j}": text for i, row in enumerate(rows) for j, text in enumerate(row) if j}
    rows[1][0] = why.sentence("T\u00a0=\u00a0", why.side("T", T, src))   # (the row's label: the chosen T with its record)
    fields.update({"T": rows[1][0], "shape": why.around(why.var("N", w4.N, src), ex.shape(w4.N)),
                   "N": why.var("N", w4.N, src), "dtype": w4.dtype,
                   "machine": w4.preset.name, "regimes": why.sentence(regimes([base, chosen], src), ".")})
    x = [float(t) for t in Ts]
    xrange = [coord(Fraction(Ts[0]) / Fraction(3, 2)), coord(Ts[-1] * Fraction(3, 2))]
    I_T, t_T = fmt.decimal(chosen.cost.I, 3), fmt.ms(chosen.timing.t_ideal, 3)
    return {"fields": fields, "predict": matmul_predict(w4, T), "plots": {
        "intensity": {
            "x": x, "y": [[coord(c.cost.I) for c in sweep.values()], [coord(hw.ridge)] * len(Ts),
                          [coord(chosen.cost.I) if t == T else None for t in Ts]],
            "xticks": tile_ticks(Ts), "yticks": log_ticks(I_lo, I_hi), "xrange": xrange,
            "yrange": [coord(I_lo), coord(I_hi)],
            "marks": [{"x": coord(T), "y": coord(chosen.cost.I), "text": f"I = {I_T}"}],
            "aria": (f"{ex.shape(w4.N)} 행렬곱의 산술 강도 I_T 곡선. T = {T}에서 I = {I_T} {fmt.unit('FLOPs/Byte', w4.dtype)}, "
                     f"분기점 I* = {fmt.number(hw.ridge, 3)} {fmt.unit('FLOPs/Byte', w4.dtype)}."),
        },
        "times": {
            "x": x, "y": [[coord(c.timing.t_ideal * 1000) for c in sweep.values()], [coord(t_c * 1000)] * len(Ts),
                          [coord(c.timing.t_memory * 1000) for c in sweep.values()],
                          [coord(chosen.timing.t_ideal * 1000) if t == T else None for t in Ts]],
            "xticks": tile_ticks(Ts), "yticks": log_ticks(t_lo, t_hi), "xrange": xrange,
            "yrange": [coord(t_lo), coord(t_hi)],
            "marks": [{"x": coord(T), "y": coord(chosen.timing.t_ideal * 1000), "text": f"{t_T} ms"}],
            "aria": (f"{ex.shape(w4.N)} 행렬곱의 이상적 시간 곡선. T = {T}에서 이상적 시간 {t_T} ms, "
                     f"연산 시간 {fmt.ms(t_c, 3)} ms, 제한 자원은 {ko.bound(chosen.timing)}."),
        },
    }}





def doubling_why(w4, T: int) -> str:
    """Why I_T is what it is at T, from the tile half as wide (the slider's neighbour): the A·B reads 2sN³/T halve,
    C's write sN² stays, so I grows by less than two and the memory time falls."""
    N, s, hw = w4.N, w4.s, w4.roofline
    now = Timing(kernels.matmul_tiled(N, T, s, s), hw)
    head = (f"T = {T}의 I = F/Q = {fmt.integer(now.cost.F)} {fmt.unit('FLOPs', w4.dtype)} / "
            f"{fmt.integer(now.cost.Q)} Byte다. "
            f"Q = 2sN³/T + sN²에서 A·B 읽기 2sN³/T는 T에 반비례하고, C 쓰기 sN² = {fmt.integer(s * N * N)} Byte는 그대로다.")
    if T % 2 or N % (T // 2):
        return head
    half = Timing(kernels.matmul_tiled(N, T // 2, s, s), hw)
    return (f"{head} T = {T // 2}에서 T를 두 배로 하면 I는 {fmt.ratio(now.cost.I / half.cost.I)}가 되고, 메모리 시간은 "
            f"{fmt.ms(half.t_memory, 6)} ms에서 {fmt.ms(now.t_memory, 6)} ms로 준다.")


def matmul_predict(w4, T: int) -> dict:
    """⑤ predict first at the chosen T: which resource limits, I_T and the ideal time (`predict.roofline_questions`),
    the why of I_T from the tile half as wide. Hidden until the guess: both rows' Q onwards, the regimes, the plots."""
    N, s, hw = w4.N, w4.s, w4.roofline
    label = f"T = {T}"
    cost = kernels.matmul_tiled(N, T, s, s)
    questions = pr.roofline_questions(f"{fmt.integer(N)}×{fmt.integer(N)} 행렬곱, {label}", label, cost, hw,
                                      doubling_why(w4, T), no_reuse=kernels.matmul_no_reuse(N, s, s), dtype=w4.dtype)
    hidden = [f"r{i}-{j}" for i in (0, 1) for j in range(2, len(matmul_headers(w4.dtype)))] + ["regimes"]
    return pr.part(questions, fields=hidden, plots=["intensity", "times"])


def matmul_sizes(N: int, smallest: int = 1024, largest: int = 16384) -> list[int]:
    """The N of the explorer: powers of two from `smallest` to `largest`, and the chapter's own N."""
    found, n = set(), smallest
    while n <= largest:
        found.add(n)
        n *= 2
    return sorted(found | {N})


def matmul_explorer(w4, T: int, sizes=None) -> explorer.Explorer:
    """⑤ The reader chooses N (powers of two from 1,024 to 16,384, and the problem's N) and T (every power of
    two from 8 that divides N, and the problem's tiles at its N); the point moves on the I–T and t_ideal–T
    curves and the table shows the no-reuse row and the chosen T's row (`matmul_state`)."""
    N = w4.N
    kernels.check_positive(T=T)
    sizes = sizes or matmul_sizes(N)
    problems_at = {n: w4 if n == N else w4.with_(N=n, tiles=powers_of_two(n)) for n in sizes}
    tile_sets = {n: matmul_sweep(p) for n, p in problems_at.items()}
    if T not in tile_sets[N]:
        raise ParameterError(f"T: T = {T}은(는) N = {N}에서 고를 수 있는 타일 한 변이 아니다. 고를 수 있는 값: {tile_sets[N]}")
    uid = "rl-matmul"
    states = {f"{n}|{t}": matmul_state(p, t) for n, p in problems_at.items() for t in tile_sets[n]}
    n_options = [[str(n), fmt.integer(n)] for n in sizes]
    t_options = [[str(t), fmt.integer(t)] for t in sorted(set().union(*tile_sets.values()))]
    data = {
        "controls": {
            "N": {"kind": "range", "options": n_options, "initial": str(N)},
            "T": {"kind": "range", "options": t_options, "initial": str(T), "depends": "N",
                  "allowed": {str(n): [str(t) for t in Ts] for n, Ts in tile_sets.items()}},
        },
        "parts": [{"on": ["N", "T"], "states": states}],
        "plots": {
            "intensity": {"series": [{"color": "var(--rl-ink)", "width": 1.5, "line": True, "points": 4},
                                     {"color": "var(--rl-muted)", "width": 1.2, "line": True, "dash": [6, 4]},
                                     {"color": "var(--rl-accent)", "points": 11}],
                          "xlabel": "타일 한 변 T (로그 축)", "ylabel": f"I_T ({fmt.unit('FLOPs/Byte', w4.dtype)}, 로그 축)"},
            "times": {"series": [{"color": "var(--rl-ink)", "width": 1.5, "line": True, "points": 4},
                                 {"color": "var(--rl-ink)", "width": 1.2, "line": True, "dash": [6, 4]},
                                 {"color": "var(--rl-muted)", "width": 2, "line": True, "dash": [2, 3]},
                                 {"color": "var(--rl-accent)", "points": 11}],
                      "xlabel": "타일 한 변 T (로그 축)", "ylabel": "시간 (ms, 로그 축)"},
        },
        "live": explorer.live_form("matmul", w4, T=T),
        "hash": {"N": "N", "T": "T"},
    }
    first = states[f"{N}|{T}"]
    f = first["fields"]
    rows = [[keep("재사용 없음")] + [f[f"r0-{j}"] for j in range(1, 10)], [f["T"]] + [f[f"r1-{j}"] for j in range(1, 10)]]
    names = [[None] + [f"r0-{j}" for j in range(1, 10)], ["T"] + [f"r1-{j}" for j in range(1, 10)]]
    allowed = data["controls"]["T"]["allowed"][str(N)]
    controls = (explorer.slider(uid, "N", "행렬 한 변 N", n_options, str(N))
                + explorer.slider(uid, "T", "타일 한 변 T", t_options, str(T), allowed))
    body = (
        f'<p class="rl-summary" aria-live="polite">{explorer.field("shape", f["shape"])} {explorer.field("dtype", f["dtype"])} 행렬곱, '
        f'{explorer.field("T", f["T"])}: 이상적 시간 {explorer.field("r1-7", f["r1-7"])} ms, 제한 자원 {explorer.field("r1-8", f["r1-8"])}</p>'
        '<div class="rl-plots">'
        + explorer.plot(uid, "intensity", first["plots"]["intensity"]["aria"])
        + explorer.plot(uid, "times", first["plots"]["times"]["aria"])
        + '</div>'
        + explorer.legend([("var(--rl-ink)", False, "I_T, 이상적 시간"), ("var(--rl-ink)", True, "연산 시간 F/P"),
                   ("var(--rl-muted)", True, "분기점 I*, 메모리 시간"), ("var(--rl-accent)", False, "고른 T")])
        + explorer.table(matmul_headers(w4.dtype), rows, MATMUL_ALIGN, names)
    )
    intro = ("행렬 한 변 N과 타일 한 변 T를 바꾸면 두 곡선 위의 점이 움직이고, 표의 두 줄이 그 조건의 값으로 바뀐다. "
             f"하드웨어는 {explorer.field('machine', f['machine'])}, 자료형은 {explorer.field('dtype', f['dtype'])}이다.")
    note = ("강의 사이트의 이 자리에서는 N과 T를 바꿔 가며 산술 강도와 이상적 시간 곡선 위의 점과 표가 바뀌는 것을 볼 수 있다. "
            f"노트북에서는 매개변수 셀의 N과 타일을 바꾸고 다시 실행하면 된다. 아래는 지금 조건({f['shape']}, {f['T']})의 값이다.")
    return explorer.Explorer("matmul", explorer.wrap(uid, intro, controls, body, data),
                    explorer.markdown(note, tables.markdown(matmul_headers(w4.dtype), rows, MATMUL_ALIGN)), explorer.count(data))




def _live_matmul(course, v: dict) -> dict:
    w4 = course.week4.with_cell(v)
    w4.roofline   # the preset must have the dtype
    return matmul_state(w4, v["T"])


LIVE = {   # the live form: the parameters it takes, a field of its own, and the state of what was typed
    "matmul": engine.Form("week4", ("hardware", "dtype", "N", "tiles", ("T", "곡선 위에서 고른 타일 한 변 T (N의 약수)")),
                          _live_matmul),
}
