"""The week-3 note's sentences, tables, equations and explorer (P, BW and capacity ×k, with its live form)
(chapters/week3_vector_add.md), built from its problem.

Each function takes the problem object the chapter built (`Week3`, and the values the chapter computed in
its visible cells) and returns {glue name: value}; `glue_page` hands them to the page. Nothing here reads the
parameter file, and every number is formatted by `fmt` (the only place that rounds).
"""
from __future__ import annotations

from fractions import Fraction

import roofline as rl
from roofline import kernels
from roofline.cost import Cost, Timing
from roofline.derive import floor_div, named, var
from roofline.errors import ParameterError, positive_number
from roofline.show import engine, explorer, fmt, ko, tables, tex, variants, why
from roofline.show import exercises as ex
from roofline.show import predict as pr
from roofline.show.engine import TERA, keep

WARP = 32   # NVIDIA GPU의 워프 크기(warpSize): CUDA C++ Programming Guide, "SIMT Architecture"


def ms(seconds) -> str:
    """Seconds in ms, exact until `fmt.number` rounds: 0.0012 → "1.2"."""
    return fmt.number(Fraction(seconds) * 1000)


def mb(nbytes) -> str:
    return fmt.number(Fraction(nbytes, 10**6)) + " MB"


def gb(nbytes) -> str:
    return fmt.number(Fraction(nbytes, 10**9)) + " GB"


def shown_number(q, text: str, src: dict, scale=1, unit: str | None = None, digits: int = 6) -> why.Shown:
    """`text` — `fmt.number` of q's value × `scale` (exact when whole, else `digits` decimals with trailing zeros
    dropped) with words around it — carrying q's record."""
    whole = (Fraction(q.value) * Fraction(scale)).denominator == 1
    return why.shown(q, text, src, digits=None if whole else digits, scale=scale, unit=unit,
                     rounding=None if whole else f"{why.rounded_to(digits)}, 끝의 0은 생략")


def w3_sources(w3) -> dict:
    """The origins of the week-3 inputs: L, s (the dtype's, BF16's by its size), P, BW, the capacity and the real
    GPU's values (its preset's keys)."""
    gpu = w3.catalog.preset(w3.gpu)
    src = {**why.sources(w3, also=("BF16",)), "capacity": w3.origin("capacity"),
           "BW_GPU": f"toml:presets.{gpu.key}.BW", "SMs": f"toml:presets.{gpu.key}.SMs",
           "smem_per_SM": f"toml:presets.{gpu.key}.smem_per_SM",
           ("name", "t₀/t"): ("바꾸기 전 대비 속도 (이상적 시간의 비)", "")}   # (④, ⑤: against no reuse)
    for d in ("FP32", "BF16"):
        src[f"P_{d}"] = f"toml:presets.{gpu.key}.peak.{d}"
    src["warp_size"] = (f"toml:presets.{gpu.key}.sm.warp_size" if gpu.sm and gpu.sm.warp_size == WARP
                        else "cite:nvidia-a100, 표 5 (Compute Capability: GP100 vs GV100 vs GA100)의 Threads / Warp")
    return src


def tex_number(x) -> str:
    """A whole number below 10⁹ with separators, a larger value as a × 10ⁿ (LaTeX)."""
    x = Fraction(x)
    return tex.integer(x) if x.denominator == 1 and x < 10**9 else tex.power10(x)


def setup(w3) -> dict:
    """The problem's own values and the real GPU used as the example."""
    from IPython.display import Markdown

    hw, gpu = w3.roofline, w3.catalog.preset(w3.gpu)
    src = w3_sources(w3)
    P32, P16 = var("P_FP32", gpu.P("FP32")), var("P_BF16", gpu.P("BF16"))
    ratio = named("P_BF16/P_FP32", P16 / P32)
    return {
        "L": why.var("L", w3.L, src), "dtype": w3.dtype, "machine": w3.preset.name, "s": why.var("s", w3.s, src),
        # the memories by their names (course.toml's `memory`): the problem's machine, the example GPU
        "memory": ko.memory_name(w3.preset.memory), "h100-memory": ko.memory_name(gpu.memory),
        "unit-rate": ko.units(w3.dtype)["unit-rate"], "unit-I": ko.units(w3.dtype)["unit-I"],
        "unit-work": ko.units(w3.dtype)["unit-work"], "work-note": ko.work_note(w3.dtype),
        "P-tera": shown_number(hw.derivation("P"), fmt.number(Fraction(hw.P, 10**12)), src, Fraction(1, 10**12),
                              fmt.unit("TFLOPs/s", w3.dtype)),
        "BW-tera": shown_number(hw.derivation("BW"), fmt.number(Fraction(hw.BW, 10**12)), src, Fraction(1, 10**12), "TB/s"),
        "warp": why.var("warp_size", WARP, src), "h100-SMs": why.var("SMs", gpu.SMs, src),
        "h100-fp32": why.tera(P32, 1, src), "h100-bf16": why.tera(P16, 1, src),
        "h100-tensor-ratio": why.shown(ratio, fmt.ratio(ratio.value, 1), src, digits=1, unit="배"), "h100-name": gpu.name,
        "h100-source-link": Markdown(f"[제품 페이지]({gpu.source})"),
        # the Shared Memory per SM is not on the product page: the CUDA guide's table per compute capability
        "h100-smem-source-link": Markdown(f"[CUDA C++ Programming Guide의 compute capability별 표]"
                                          f"({gpu.sm.source if gpu.sm else gpu.source})"),
    }


ROLES = [   # GPUs in general: the off-chip memory is DRAM (HBM, GDDR6: the glossary's word)
    ("DRAM (HBM, GDDR)", "칩 밖, GPU 전체", "가중치·활성화 같은 큰 텐서를 둔다"),
    ("L2 Cache", "칩 안, 모든 SM이 공유", "반복되는 DRAM 접근을 줄인다 (하드웨어가 관리)"),
    ("L1 Cache", "SM마다", "가까운 데이터를 자동으로 캐시한다 (하드웨어가 관리)"),
    ("Shared Memory", "SM마다, 같은 블록의 스레드가 공유", "프로그램이 명시적으로 올리고 나눠 쓴다"),
    ("Registers", "SM마다, 스레드별", "연산의 피연산자와 중간 결과를 둔다"),
]


def hierarchy(w3) -> dict:
    """The two memory-hierarchy tables and how small all shared memory is next to one vector."""
    gpu = w3.catalog.preset(w3.gpu)
    src = w3_sources(w3)
    smem_total = gpu.smem_per_SM * gpu.SMs
    memory = ko.memory_name(gpu.memory)   # the example GPU's memory by its name (HBM, GDDR6)
    sizes = [
        (memory, "GPU 전체의 주 메모리로 가장 크다",
         shown_number(var("BW_GPU", gpu.BW), f"{fmt.number(Fraction(gpu.BW, 10**12))} TB/s ({gpu.memory})", src,
                      Fraction(1, 10**12), "TB/s")),
        ("L2 Cache", f"{memory}보다 훨씬 작다", f"{memory}보다 높다"),
        ("L1 Cache", "SM마다 작다 (Shared Memory와 같은 SRAM을 나눠 쓴다)", "L2보다 높다"),
        ("Shared Memory", why.sentence("SM당 최대 ", why.label(fmt.number(Fraction(gpu.smem_per_SM, 1024), 3),
                                                                f"toml:presets.{w3.gpu}.smem_per_SM"), " KiB"),
         "L1과 비슷하다"),
        ("Registers", "SM 전체로는 Shared Memory와 비슷하지만 스레드 하나의 몫은 가장 작다", "가장 높다"),
    ]
    share = Fraction(w3.s * w3.L) / smem_total
    shown = fmt.decimal(share, 0)
    s_, L_ = var("s", w3.s), var("L", w3.L)
    A = named("Q_A", s_ * L_)
    share_q = named("Q_A / 전체 Shared Memory", A / (var("smem_per_SM", gpu.smem_per_SM) * var("SMs", gpu.SMs)))
    assert share_q.value == share
    return {
        "table-hierarchy": tables.markdown(["저장 공간", "위치·접근 범위", "역할"], ROLES, "lll"),
        "table-capacity": tables.markdown(["저장 공간", "용량", "대역폭"], sizes, "lll"),
        "A-size": shown_number(A, mb(w3.s * w3.L), src, Fraction(1, 10**6), "MB"),
        # "약 13배" (only the ratio in the button: "약" is the sentence's word, as in the note's "약 11.7–14.5배")
        "smem-share": why.sentence("" if share == int(shown) else "약 ",
                                   why.shown(share_q, f"{shown}배", src, digits=0, unit="배")),
    }


def per_element(w3) -> dict:
    """Reading, adding and writing one element, in the problem's dtype and in BF16."""
    bf16 = w3.catalog.bytes_per("BF16")
    one = {w3.dtype: kernels.vector_add(1, w3.s), "BF16": kernels.vector_add(1, bf16)}

    src = w3_sources(w3)
    per = {}

    def cells(cost, size, dtype):
        s_ = var("s", size)
        L_ = var("L", w3.L)   # one addition per element: F = L over the problem's L, so F/L = 1 with its reason
        read, write, F = named("Q_read/L", s_ + s_), named("Q_write/L", s_), named("F/L", named("F", L_) / L_)
        Q = named("Q/L", read + write)
        I = named("I", F / Q)
        assert (read.value, write.value, F.value, Q.value, I.value) == (cost.Q_read, cost.Q_write, cost.F, cost.Q, cost.I)
        per[size] = (Q, I)

        def i(q, text):   # (one addition is "1 FLOP", "1 OP" in an integer dtype: the panel says the unit so too)
            return why.around(why.integer(q, {**src, why.WORK: dtype, ("name", "F/L"): ("원소 하나의 연산량", "FLOP")}), text)

        return (i(read, f"{size} + {size} = {cost.Q_read} Byte"), i(F, f"{cost.F} {fmt.unit('FLOP', dtype)}"),
                i(write, f"{cost.Q_write} Byte"), i(Q, f"{cost.Q} Byte"))

    fp, half = cells(one[w3.dtype], w3.s, w3.dtype), cells(one["BF16"], bf16, "BF16")
    steps = [("읽기", "A[i]와 B[i]를 가져온다"), ("계산", "두 값을 더한다"), ("쓰기", "결과를 C[i]에 저장한다"),
             ("합계", f"{ko.particle(ko.memory_name(w3.preset.memory), '과/와')} 오간 Byte")]   # the problem's machine
    rows = [(step, action, fp[k], half[k]) for k, (step, action) in enumerate(steps)]
    return {
        "table-per-element": tables.markdown(["단계", "동작", f"{w3.dtype} 비용", "BF16 비용"], rows, "llrr"),
        "Q-per": why.integer(per[w3.s][0], src), "Q-per-bf16": why.integer(per[bf16][0], src),
        "I-add": why.fraction(per[w3.s][1], src), "I-add-bf16": why.fraction(per[bf16][1], {**src, why.WORK: "BF16"}),
    }


def times(w3, add, t) -> dict:
    """The amounts table, the three times as equations, and why the kernel is bound the way it is."""
    from IPython.display import Math

    s, L, hw = w3.s, w3.L, w3.roofline
    src = w3_sources(w3)
    s_, L_ = var("s", s), var("L", L)
    A, B = named("Q_A", s_ * L_), named("Q_B", s_ * L_)
    MB, GB = Fraction(1, 10**6), Fraction(1, 10**9)

    def d(name):
        return add.derivation(name)

    rows = [
        ("A 읽기", f"{s} × L", shown_number(A, mb(s * L), src, MB, "MB")),
        ("B 읽기", f"{s} × L", shown_number(B, mb(s * L), src, MB, "MB")),
        ("입력 읽기 합계", f"{2 * s} × L", shown_number(d("Q_read"), mb(add.Q_read), src, MB, "MB")),
        ("C 쓰기", f"{s} × L", shown_number(d("Q_write"), mb(add.Q_write), src, MB, "MB")),
        ("총 이동량 Q", f"{3 * s} × L", shown_number(d("Q"), gb(add.Q), src, GB, "GB")),
        ("총 연산량 F", "L", why.around(why.integer(d("F"), src), f"{fmt.integer(add.F)} {fmt.unit('FLOPs', w3.dtype)}")),
    ]
    footprint = named("세 벡터의 Byte", 3 * s_ * L_)
    capacity = var("capacity", w3.capacity)

    def in_ms(name):
        return shown_number(t.derivation(name), ms(getattr(t, name)), src, 1000, "ms")

    over = named("t_memory / t_compute", t.derivation("t_memory") / t.derivation("t_compute"))
    fits = 3 * s * L <= w3.capacity
    ratio = fmt.number(t.t_memory / t.t_compute)
    per = named("Q/L", d("Q") / L_)   # the Byte moved per element (one addition each)
    reason = (why.sentence("덧셈 능력이 모자라서 생긴 일이 아니다. 원소 하나마다 덧셈은 한 번인데 오가는 데이터는 ",
                           shown_number(per, f"{fmt.number(per.value)} Byte", src, unit="Byte"),
                           "라서, 연산 장치는 대부분의 시간 동안 데이터가 도착하기를 기다린다.")
              if t.memory_bound else "덧셈을 처리하는 시간이 데이터를 옮기는 시간보다 길기 때문이다.")
    explain = why.sentence("메모리 시간이 연산 시간의 ", shown_number(over, f"{ratio}배", src, unit="배"),
                           f"다. 시간을 정하는 자원은 {ko.particle(ko.bound(t), '이다/다')}. ")
    # the mistake of leaving C's write out: the memory time of the reads alone
    reads_only = named("t_읽기만", d("Q_read") / t.derivation("BW"))
    src_reads = {**src, ("name", "t_읽기만"): ("C 쓰기를 빼고 읽기만 센 메모리 시간", "s")}
    return {
        "table-amounts": tables.markdown(["항목", "Byte 식", "결과"], rows, "llr"),
        "Q": shown_number(d("Q"), gb(add.Q), src, GB, "GB"), "footprint": shown_number(footprint, gb(3 * s * L), src, GB, "GB"),
        "capacity": shown_number(capacity, gb(w3.capacity), src, GB, "GB"),
        "fits": "세 벡터가 모두 들어간다" if fits else "세 벡터가 한꺼번에 들어가지 않는다",
        "F": why.integer(d("F"), src), "t-compute": in_ms("t_compute"), "t-memory": in_ms("t_memory"),
        "t-ideal": in_ms("t_ideal"), "mem-over-compute": shown_number(over, ratio, src), "bound-kind": "메모리 한계" if t.memory_bound else "연산 한계",
        "bound-explain": why.sentence(
            explain, reason, " 출력 쓰기를 빠뜨리면 메모리 시간을 ",
            shown_number(reads_only, f"{ms(reads_only.value)} ms", src_reads, 1000, "ms"),
            "로 잘못 계산하게 된다. 쓰기도 반드시 센다."),
        "eq-t-compute": Math(
            rf"\begin{{aligned}} t_\text{{compute}} &= \frac{{F}}{{P}} = \frac{{{tex_number(add.F)}\ \text{{{fmt.unit('FLOPs', w3.dtype)}}}}}"
            rf"{{{tex_number(hw.P)}\ \text{{{fmt.unit('FLOPs/s', w3.dtype)}}}}} \\ &= {ms(t.t_compute)}\ \text{{ms}} \end{{aligned}}"),
        "eq-t-memory": Math(
            rf"\begin{{aligned}} t_\text{{memory}} &= \frac{{Q}}{{BW}} = \frac{{{tex_number(add.Q)}\ \text{{Byte}}}}"
            rf"{{{tex_number(hw.BW)}\ \text{{Byte/s}}}} \\ &= {ms(t.t_memory)}\ \text{{ms}} \end{{aligned}}"),
        "eq-t-ideal": Math(
            rf"t_\text{{ideal}} \approx \max({ms(t.t_compute)},\ {ms(t.t_memory)})\ \text{{ms}} = {ms(t.t_ideal)}\ \text{{ms}}"),
    }


def doubling(w3, add, timings: dict, factor: int) -> dict:
    """The "double one resource" table (rows in the order of `timings`: base, P, BW, capacity) and its reading."""

    labels = list(timings)
    base, x_P, x_BW = timings[labels[0]], timings[labels[1]], timings[labels[2]]
    capacity, footprint = w3.capacity, 3 * w3.s * w3.L
    base_src = w3_sources(w3)
    # the factor, the code cell's; the changed machine's resource under its own symbol: t_compute = F / P',
    # P' = factor·P (never "F / P" with P = 40 TFLOPs/s beside the chapter's P = 20 TFLOPs/s)
    x_src = {**base_src, "factor": f"code:factor = {factor}", ("name", "factor"): ("늘린 배율", "")}

    def row_name(label: str):
        """A row's name with the chapter's factor in it as a label (no button) of the code cell's `factor`."""
        at = label.rfind(f"{factor}배")
        return label if at < 0 else why.sentence(label[:at], why.label(factor, x_src["factor"]),
                                                 label[at + len(str(factor)):])

    GB = Fraction(1, 10**9)
    cap_q = var("capacity", capacity)
    grown = named("capacity'", var("factor", factor) * cap_q)
    grown_src = {**x_src, **SCALED}
    shown = {labels[3]: why.sentence(row_name(labels[3]), " (", why.labelled(cap_q, fmt.number(capacity * GB), base_src),
                                     " GB → ", why.labelled(grown, fmt.number(factor * capacity * GB), grown_src), " GB)")}

    def changed(x) -> dict:
        """x's t_compute = F / P', t_memory = Q / BW', t_ideal = max(…): P', BW' only where x changed them."""
        F, Q = x.cost.derivation("F"), x.cost.derivation("Q")
        P, BW, k = var("P", base.hw.P), var("BW", base.hw.BW), var("factor", factor)
        P1 = named("P'", k * P) if x.hw.P != base.hw.P else P
        BW1 = named("BW'", k * BW) if x.hw.BW != base.hw.BW else BW
        t_c, t_m = named("t_compute", F / P1), named("t_memory", Q / BW1)
        found = {"t_compute": t_c, "t_memory": t_m, "t_ideal": named("t_ideal", why.tmax_of(t_c, t_m))}
        assert all(q.value == getattr(x, name) for name, q in found.items())
        return found

    rows = []
    for label, x in timings.items():
        times = changed(x)

        def t_(name):
            return why.around(shown_number(times[name], ms(getattr(x, name)), x_src, 1000, "ms"),
                              f"{ms(getattr(x, name))} ms")

        speed = named("t₀/t", base.derivation("t_ideal") / named("t_ideal'", times["t_ideal"].term))
        rows.append((shown.get(label, row_name(label)), t_("t_compute"), t_("t_memory"), t_("t_ideal"),
                     shown_number(speed, fmt.number(base.t_ideal / x.t_ideal) + "배", x_src, unit="배")))

    def quoted(label: str):
        """“label” with the chapter's factor in it as the code cell's choice (`factor = 2`)."""
        at = label.rfind(f"{factor}배")
        if at < 0:
            return f"“{label}”"
        k = why.chosen("factor", "늘린 배율", factor, f"factor = {factor}")
        return why.sentence(f"“{label[:at]}", k, f"{label[at + len(str(factor)):]}”")

    faster = [quoted(label) for label, x in timings.items() if x.t_ideal < base.t_ideal]
    winner = (why.sentence(faster[0], " 하나뿐이다") if len(faster) == 1 else
              why.sentence(*[x for i, f in enumerate(faster) for x in ([", "] * bool(i) + [f])], "이다") if faster else "없다")
    # every number of the reading with its record: the times of the changed machines, the capacities, the factor
    k = why.chosen("factor", "늘린 배율", factor, f"factor = {factor}")
    cap_src = {**x_src, ("name", "capacity'"): SCALED[("name", "capacity'")]}   # one name: the table's (SCALED)
    s_, L_, cap_ = var("s", w3.s), var("L", w3.L), var("capacity", capacity)
    cap = shown_number(cap_, gb(capacity), base_src, GB, "GB")
    feet = shown_number(named("세 벡터의 Byte", 3 * s_ * L_), gb(footprint), base_src, GB, "GB")
    more = shown_number(named("capacity'", var("factor", factor) * cap_), gb(factor * capacity), cap_src, GB, "GB")

    def t_ideal(label):
        x = timings[label]
        return shown_number(changed(x)["t_ideal"], f"{ms(x.t_ideal)} ms", x_src, 1000, "ms")

    explain = []
    if x_P.t_ideal == base.t_ideal:
        explain.append("연산 성능을 높이면 연산 시간만 줄고, 더 긴 메모리 시간은 그대로라 실행 시간이 변하지 않는다.")
    else:
        explain.append(why.sentence("연산 성능을 높이면 더 긴 쪽이던 연산 시간이 줄어 실행 시간이 ", t_ideal(labels[1]), "가 된다."))
    if x_BW.t_ideal == base.t_ideal:
        explain.append("대역폭을 높이면 메모리 시간만 줄고, 더 긴 연산 시간은 그대로라 실행 시간이 변하지 않는다.")
    elif x_BW.memory_bound:
        explain.append(why.sentence("대역폭을 ", k, "배로 하면 메모리 시간이 1/", k, "이 된다. 메모리 시간이 여전히 더 길므로 "
                                    "실행 시간도 ", t_ideal(labels[2]), "로 준다."))
    else:
        explain.append(why.sentence("대역폭을 ", k, "배로 하면 메모리 시간은 줄지만, 이제 연산 시간이 더 길어 실행 시간은 ",
                                    t_ideal(labels[2]), "에서 멈춘다."))
    if footprint <= capacity:
        explain.append(why.sentence("용량은 이미 ", why.particle(cap, "으로/로"), " 세 벡터(", feet, ")를 담고도 남는다. "
                                    "그러니 ", why.particle(more, "으로/로"), " 늘려도 속도는 그대로다."))
    else:
        explain.append(why.sentence("세 벡터(", feet, ")가 ", cap, "에 들어가지 않으면 한 번에 실행할 수 없다. "
                                    "이 경우는 위의 시간 모델 밖이다."))
    long_side = "메모리 시간" if base.memory_bound else "연산 시간"
    return {
        "table-double": tables.markdown(["변경 조건", "연산 시간", "메모리 시간", "이상적 실행 시간", "기준 대비 속도"], rows),
        "double-winner": winner, "long-side": ko.particle(long_side, "을/를"),
        "double-explain": why.sentence(*[x for i, e in enumerate(explain) for x in ([" "] * bool(i) + [e])]),
    }


def measurement_sources(n: int, repeats: int) -> dict:
    """The measurement's size and repeats (set in the section's code cell: not measured) and FP32's size, as the
    origins of its inputs."""
    size, times = f"code:n = {fmt.integer(n)}", f"code:repeats = {fmt.integer(repeats)}"   # set in the code cell
    return {"L": size, "n": size, "repeats": times, "s": "toml:dtypes.FP32"}


def measurement_setup(n: int, itemsize: int, repeats: int) -> dict:
    """What the measurement moves (exact Byte), before anything is timed."""
    Q = kernels.vector_add(n, itemsize).Q
    src = measurement_sources(n, repeats)
    n_, s_ = var("n", n), var("s", itemsize)
    array = named("배열 하나의 Byte", n_ * s_)
    Q_q = kernels.vector_add(n, itemsize).derivation("Q")
    wa = named("Q_wa", Q_q + array)
    low = named("배열 하나의 Byte / Q_wa", array / wa)
    assert (Q_q.value, wa.value) == (Q, Q + n * itemsize)
    return {
        "meas-n": why.integer(n_, src),
        "meas-array": why.shown(array, f"{fmt.mib(n * itemsize)}({fmt.integer(n * itemsize)} Byte)", src, digits=3,
                                scale=Fraction(1, 2**20), unit="MiB", rounding="MiB(2²⁰ Byte)로, 소수 3자리로 반올림, 끝의 0은 생략"),
        "meas-Q": why.around(why.integer(Q_q, src), f"{fmt.integer(Q)} Byte({fmt.mib(Q)})"),
        "meas-Q-write-allocate": why.around(why.integer(wa, src), f"{fmt.integer(Q + n * itemsize)} Byte"),
        "meas-wa-low": why.percent(low, 0, src),
        "meas-repeats": why.integer(var("repeats", repeats), src),
    }


def measured(bw: float, n: int, itemsize: int, Q_L: int, machine, w3=None, repeats: int | None = None) -> dict:
    """The measured values (they differ on every run) and the computer they were measured on. With the problem `w3`
    (and the measurement's `repeats`), each number carries its derivation: the achieved bandwidth is the measured
    input (to the Byte/s), the rest follows from it exactly."""
    if w3 is None:
        best = kernels.vector_add(n, itemsize).Q / bw
        return {
            "meas-bw": fmt.decimal(bw / 1e9, 1), "meas-ms": fmt.decimal(best * 1e3, 2),
            "meas-gflops": fmt.decimal(n / best / 1e9, 2), "meas-L-ms": fmt.decimal(Q_L / bw * 1e3, 1),
            "meas-cpu": machine.cpu, "meas-cores": fmt.integer(machine.cores), "meas-numpy": machine.numpy,
        }
    conditions = (f"np.add(a, b, out=c), FP32, n = {fmt.integer(n)}, {fmt.integer(repeats or 1)}번 중 가장 빠른 한 번; "
                  f"{machine.cpu}, 논리 코어 {machine.cores}개, NumPy {machine.numpy}")
    src = {**measurement_sources(n, repeats or 1), "BW_meas": f"measured:달성 대역폭 ({conditions})",
           "cores": f"measured:os.cpu_count() ({machine.cpu})"}
    bw_q = var("BW_meas", round(bw))            # Byte/s, to the Byte
    cost = kernels.vector_add(n, itemsize)
    best = named("t_best", cost.derivation("Q") / bw_q)
    rate = named("F / t_best", cost.derivation("F") / best)
    week = kernels.vector_add(w3.L, w3.s)
    assert week.Q == Q_L
    t_L = named("t_L", week.derivation("Q") / bw_q)
    w_src = {**w3_sources(w3), "BW_meas": src["BW_meas"]}
    return {
        "meas-bw": why.shown(bw_q, fmt.decimal(Fraction(bw_q.value, 10**9), 1), src, digits=1, scale=Fraction(1, 10**9),
                             unit="GB/s"),
        "meas-ms": why.ms(best, 2, src),
        "meas-gflops": why.shown(rate, fmt.decimal(Fraction(rate.value) / 10**9, 2), src, digits=2,
                                 scale=Fraction(1, 10**9), unit="GFLOPs/s"),
        "meas-L-ms": why.ms(t_L, 1, w_src),
        "meas-cpu": machine.cpu, "meas-cores": why.integer(var("cores", machine.cores), src), "meas-numpy": machine.numpy,
    }


def bf16(w3, t) -> dict:
    """The BF16 discussion answer: the same add with 2-Byte elements on the same machine."""
    cost = kernels.vector_add(w3.L, w3.catalog.bytes_per("BF16"))
    half = rl.Timing(cost, w3.roofline)
    src = w3_sources(w3)
    speed = named("t₀/t", t.derivation("t_ideal") / named("t_ideal,BF16", half.derivation("t_ideal").term))
    return {
        "bf16-Q": shown_number(cost.derivation("Q"), gb(cost.Q), src, Fraction(1, 10**9), "GB"),
        "bf16-t-memory": shown_number(half.derivation("t_memory"), ms(half.t_memory), src, 1000, "ms"),
        "bf16-t-ideal": shown_number(half.derivation("t_ideal"), ms(half.t_ideal), src, 1000, "ms"),
        "bf16-bound": ko.particle(ko.bound(half), "이다/다"),
        "bf16-still": "여전히" if half.bound == t.bound else "이제",
        "bf16-speedup": shown_number(speed, fmt.number(t.t_ideal / half.t_ideal) + "배", src, unit="배"),
    }


# ---------------------------------------------------------------- the page's values, one dict per section

def fusion_section(w3, add) -> dict:
    """The discussion: C = A + B then D = max(C, 0) as two kernels, against one fused kernel (Byte per element, times)."""
    L, s, hw = w3.L, w3.s, w3.roofline
    relu = Cost(F=L, Q_read=s * L, Q_write=s * L)          # D = max(C, 0): read C, write D
    fused = Cost(F=2 * L, Q_read=2 * s * L, Q_write=s * L)  # one kernel: read A and B, write D
    apart = Timing(add, hw).t_ideal + Timing(relu, hw).t_ideal
    together = Timing(fused, hw).t_ideal
    # the same with their formulas: each kernel's t_ideal = max(F/P, Q/BW)
    from roofline.derive import tmax

    src = w3_sources(w3)
    s_, L_, P, BW = var("s", s), var("L", L), hw.derivation("P"), hw.derivation("BW")
    Q_add, F_add = add.derivation("Q"), add.derivation("F")
    Q_relu, F_relu = named("Q_ReLU", s_ * L_ + s_ * L_), named("F_ReLU", L_)
    Q_fused, F_fused = named("Q_합침", 2 * s_ * L_ + s_ * L_), named("F_합침", 2 * L_)
    t_add = named("t_덧셈", tmax(F_add / P, Q_add / BW))
    t_relu = named("t_ReLU", tmax(F_relu / P, Q_relu / BW))
    t_apart = named("t_따로", t_add + t_relu)
    t_fused = named("t_합침", tmax(F_fused / P, Q_fused / BW))
    gain = named("t_따로 / t_합침", t_apart / t_fused)
    per_apart, per_fused = named("Q/L 따로", (Q_add + Q_relu) / L_), named("Q/L 합침", Q_fused / L_)
    assert (t_apart.value, t_fused.value, per_apart.value, per_fused.value) == (
        apart, together, (add.Q + relu.Q) // L, fused.Q // L)
    return {"q-fuse-per-apart": why.integer(per_apart, src), "q-fuse-per": why.integer(per_fused, src),
            "q-fuse-apart-ms": why.ms(t_apart, 3, src), "q-fuse-ms": why.ms(t_fused, 3, src),
            "q-fuse-gain": why.shown(gain, fmt.ratio(apart / together), src, digits=2, unit="배")}


# ---------------------------------------------------------------- exercises


# a student's variant of this page's exercises (roofline.show.variants): L, the memory capacity and the machine with its
# dtype
VARIANTS = variants.Bounds("week3", variants.lengths, variants.capacities, variants.machines)

def exercises(w3) -> ex.Exercises:
    """The week-3 note: the memory time of a longer vector in another dtype, a three-input kernel's ideal time,
    the longest vectors that fit in another dtype, and whether a heavier element-wise kernel is memory-bound."""
    hw, s, L, cat = w3.roofline, w3.s, w3.L, w3.catalog
    d2 = ex.other_dtype(cat, w3.dtype)
    s2 = cat.bytes_per(d2)
    L1 = 3 * L
    longer = kernels.vector_add(L1, s2)
    t1 = Timing(longer, hw)
    steps1 = (ex.derived(longer.derivation("Q"), "Byte"), ex.derived(t1.derivation("t_memory"), "ms"))
    three = kernels.elementwise(L, s, reads=3, flops=2)
    t2 = Timing(three, hw)
    steps2 = (ex.derived(three.derivation("F"), fmt.unit("FLOPs", w3.dtype)), ex.derived(three.derivation("Q"), "Byte"),
              *ex.time_steps(three, hw)[1])
    fitting = named("L", floor_div(var("capacity", w3.capacity), 3 * var("s", s2)))   # A, B, C: s Byte each
    longest = fitting.value
    steps3 = (ex.derived(fitting, "원소"),)
    f = max(1, int(3 * s * hw.ridge / 2))
    heavy = kernels.elementwise(L, s, reads=2, flops=f)
    t4, (tc4, tm4, _) = ex.time_steps(heavy, hw)
    steps4 = (ex.derived(heavy.derivation("F"), fmt.unit("FLOPs", w3.dtype)), ex.derived(heavy.derivation("Q"), "Byte"),
              tc4, tm4, ex.bound_by_times(t4))
    # 3주-1 asks a memory time: its machine is its BW (the week's P is the week's dtype's, not d2's: 3주-2 and 3주-4,
    # in the week's dtype, state it)
    machine = f"BW = {ex.rate(hw.BW)} Byte/s"
    peak = f"{w3.dtype} 덧셈 성능이 P = {ex.rate(hw.P)} {fmt.unit('FLOPs/s', w3.dtype)}인"
    # the common mistakes, each the same model call with one term or input changed
    wrong1 = {"c-write": Cost(longer.F, longer.Q_read, 0), "bits-bytes": kernels.vector_add(L1, 8 * s2),
              "dtype-other": kernels.vector_add(L1, ex.other_size(cat, d2))}
    wrong2 = {"ideal-sum": t2.t_compute + t2.t_memory, "ideal-min": min(t2.t_compute, t2.t_memory),
              "out-write": Timing(Cost(three.F, three.Q_read, 0), hw).t_ideal,
              "dtype-other": Timing(Cost(three.F, 3 * s2 * L, s2 * L), hw).t_ideal}
    wrong3 = {"c-vector": w3.capacity // (2 * s2), "dtype-other": w3.capacity // (3 * ex.other_size(cat, d2)),
              "bits-bytes": w3.capacity // (3 * 8 * s2)}
    wrong4 = {"c-write": Timing(Cost(heavy.F, heavy.Q_read, 0), hw).bound,
              "bits-bytes": Timing(kernels.elementwise(L, 8 * s, reads=2, flops=f), hw).bound}
    return ex.Exercises("3주", (
        ex.Question("3주-1", f"{machine}인 하드웨어에서 길이 L = {ex.number(L1)}인 {ex.dtype_text(d2, s2)} 벡터로 Vector Add를 하면 "
                 "메모리 시간 Q/BW는?", t1.t_memory, ex.UNITS["ms"],
                 f"{ex.formula(longer.derivation('Q'))}, 메모리 시간 {ex.formula(t1.derivation('t_memory'))}", steps1,
                 given=ex.given(L=L1, s=s2, BW=hw.BW, dtype=d2),
                 mistakes=ex.named(wrong1, ("c-write", "bits-bytes", "dtype-other"), lambda c: Timing(c, hw).t_memory,
                                   VECTOR_HINTS, dtype=d2)),
        ex.Question("3주-2", f"{peak} 같은 하드웨어에서 D[i] = A[i] + B[i] + C[i]를 길이 L = {ex.number(L)}인 {ex.dtype_text(w3.dtype, s)} "
                 "벡터로 계산한다. 원소마다 덧셈 두 번, 읽기 셋, 쓰기 하나다. 이상적 시간은?", t2.t_ideal, ex.UNITS["ms"],
                 f"{ex.formula(three.derivation('F'))}, {ex.formula(three.derivation('Q'))}, "
                 f"이상적 시간 {ex.formula(t2.derivation('t_ideal'))}", steps2,
                 given=ex.given(kernel="D = A + B + C", L=L, s=s, P=hw.P, BW=hw.BW, dtype=w3.dtype,
                                machine=w3.hardware, units="CUDA Core"),
                 mistakes=ex.named(wrong2, ("ideal-sum", "ideal-min", "out-write", "dtype-other"), lambda v: v, VECTOR_HINTS,
                                   dtype=w3.dtype)),
        ex.Question("3주-3", f"메모리 {ex.number(w3.capacity)} Byte에 {ex.dtype_text(d2, s2)} 벡터 A, B, C가 모두 들어가는 가장 긴 "
                 "길이 L은? L은 원소 개수라 정수다.", Fraction(longest), ex.UNITS["원소"],
                 f"3·s·L ≤ capacity, L은 정수이므로 {ex.formula(fitting)}", steps3, given=ex.given(capacity=w3.capacity, s=s2, dtype=d2),
                 exact=True, mistakes=ex.named(wrong3, ("c-vector", "dtype-other", "bits-bytes"), Fraction, VECTOR_HINTS, dtype=d2)),
        ex.Question("3주-4", f"{peak} 같은 하드웨어에서 C[i] = g(A[i], B[i])가 원소마다 {ex.number(f)} {fmt.unit('FLOPs', w3.dtype)}를 계산한다. 길이 L = {ex.number(L)}인 "
                 f"{w3.dtype} 벡터라면 이 커널은 메모리 한계인가, 연산 한계인가?", t4.bound, ex.CHOICE,
                 "F/P와 Q/BW를 구해 긴 쪽을 본다", steps4, ex.BOUND_CHOICES, given=ex.given(L=L, s=s, f=f, P=hw.P, BW=hw.BW, dtype=w3.dtype,
                                                           machine=w3.hardware, units="CUDA Core"),
                 mistakes=(ex.shorter_time(t4),) + ex.named(wrong4, ("c-write", "bits-bytes"), lambda v: v, VECTOR_HINTS,
                                                                           dtype=w3.dtype)),
    ))


VECTOR_HINTS = {   # what a mistake about an element-wise kernel left out or added
    "c-write": "결과 벡터 C를 쓰는 s·L Byte도 Q에 든다.",
    "out-write": "결과 벡터 D를 쓰는 s·L Byte도 Q에 든다.",
    "bits-bytes": ex.MATMUL_HINTS["bits-bytes"],
    "dtype-other": ex.MATMUL_HINTS["dtype-other"],
    "ideal-sum": ex.MATMUL_HINTS["ideal-sum"],
    "ideal-min": ex.MATMUL_HINTS["ideal-min"],
    "c-vector": "A, B, C 세 벡터가 모두 들어가야 한다: 3·s·L ≤ 용량.",
}


# ---------------------------------------------------------------- the explorer: P, BW and capacity ×k


VECTOR_HEADERS = ["연산 시간", "메모리 시간", "이상적 실행 시간", "기준 대비 속도", "제한 자원", "메모리 용량"]
VECTOR_ALIGN = "rrrrlr"


def vector_row(t: Timing, base: Timing, how: dict | None = None, src: dict | None = None) -> list[str]:
    """The week-3 note's columns: the three times (ms), the speedup over the base machine, the limiting resource;
    with `how` (`scaled_times`) and `src`, each number carries its record."""
    texts = [f"{ms(t.t_compute)} ms", f"{ms(t.t_memory)} ms", f"{ms(t.t_ideal)} ms",
             fmt.number(base.t_ideal / t.t_ideal) + "배", keep(ko.bound(t))]
    if how is None:
        return texts
    return [*(shown_number(how[k], text, src, 1000, "ms") for k, text in zip(("t_compute", "t_memory", "t_ideal"), texts)),
            shown_number(how["t₀/t"], texts[3], src), texts[4]]


def scaled_times(add, hw, kP, kBW) -> dict:
    """The week-3 times with P×k_P and BW×k_BW as named quantities (`roofline.derive`): P', BW', the three times
    and t₀/t, the speedup over the chapter's machine (k = 1 leaves P or BW as it is)."""
    from roofline.derive import tmax

    F, Q = add.derivation("F"), add.derivation("Q")
    P, BW = var("P", hw.P), var("BW", hw.BW)
    P1 = P if kP == 1 else named("P'", var("k_P", kP) * P)
    BW1 = BW if kBW == 1 else named("BW'", var("k_BW", kBW) * BW)
    t_c, t_m = named("t_compute", F / P1), named("t_memory", Q / BW1)
    t = named("t_ideal", tmax(t_c, t_m))
    t0 = named("t₀", tmax(named("t_compute", F / P), named("t_memory", Q / BW)))
    return {"P": P1, "BW": BW1, "t_compute": t_c, "t_memory": t_m, "t_ideal": t, "t₀/t": named("t₀/t", t0 / t)}


SCALED = {("name", "P'"): ("배율을 곱한 최대 연산 성능", "FLOPs/s"), ("name", "BW'"): ("배율을 곱한 메모리 대역폭", "Byte/s"),
          ("name", "capacity'"): ("배율을 곱한 메모리 용량", "Byte"), ("name", "k_P"): ("연산 성능 P의 배율", ""),
          ("name", "k_BW"): ("메모리 대역폭 BW의 배율", ""), ("name", "k_cap"): ("메모리 용량의 배율", ""),
          ("name", "t₀"): ("배율을 곱하기 전의 이상적 시간", "s"),
          # a factor is the explorer's ("control:kP") or the live form's ("typed:kP"): why.pooled renames "cell:"
          # (named as the controls are, with the course's symbols: "연산 성능 P의 배율 k_P")
          "k_P": "cell:연산 성능 P의 배율 k_P", "k_BW": "cell:메모리 대역폭 BW의 배율 k_BW",
          "k_cap": "cell:메모리 용량의 배율 k_cap"}


def fits_text(footprint, capacity) -> str:
    """Whether the three vectors fit the memory: `footprint` and `capacity` their texts (with their records: GB)."""
    if Fraction(footprint.why["records"][footprint.why["of"]]["exact"].replace(",", "")) <= \
            Fraction(capacity.why["records"][capacity.why["of"]]["exact"].replace(",", "")):
        return why.sentence("세 벡터(", footprint, ")가 용량 ", capacity, "에 모두 들어간다.")
    return why.sentence("세 벡터(", footprint, ")가 용량 ", capacity, "에 한꺼번에 들어가지 않는다. 이때는 한 번에 실행할 수 없어 "
                        "위의 시간 모델 밖이다.")


def vector_times(w3, kP=1, kBW=1) -> dict:
    """Week 3 with P×kP and BW×kBW on the problem's machine: the three times, the speedup over the problem's own
    machine and the limiting resource (the part of the state that does not depend on the capacity)."""
    kP, kBW = positive_number(kP, "kP"), positive_number(kBW, "kBW")
    hw = w3.roofline
    add = kernels.vector_add(w3.L, w3.s)
    base = Timing(add, hw)
    machine = hw.with_(P=kP * hw.P, BW=kBW * hw.BW)
    t = Timing(add, machine)
    how, src = scaled_times(add, hw, kP, kBW), {**w3_sources(w3), **SCALED}
    assert (how["t_ideal"].value, how["P"].value, how["BW"].value) == (t.t_ideal, machine.P, machine.BW)
    fields = {f"t{j}": text for j, text in enumerate(vector_row(t, base, how, src))}
    fields.update({"P": shown_number(how["P"], fmt.number(machine.P / TERA), src, Fraction(1, TERA),
                                       fmt.unit("TFLOPs/s", w3.dtype)),
                   "BW": shown_number(how["BW"], fmt.number(machine.BW / TERA), src, Fraction(1, TERA), "TB/s"),
                   "kind": "메모리 한계" if t.memory_bound else "연산 한계"})
    longer = max(t.t_compute, t.t_memory)
    widths = {"compute": fmt.percent(t.t_compute / longer, 1).replace(" ", ""),
              "memory": fmt.percent(t.t_memory / longer, 1).replace(" ", "")}
    return {"fields": fields, "widths": widths, "predict": vector_predict(w3, kP, kBW)}


def factor_effect(name: str, k, what: str) -> str:
    """"BW를 4배로 하면 메모리 시간은 1/4이 된다" (k = 1: 그대로다)."""
    if k == 1:
        return f"{name}는 이 장의 하드웨어 그대로이므로 {what}도 그대로다."
    return f"{name}를 {factor_label(k)}로 하면 {what}은 {ko.particle(fmt.fraction(1 / Fraction(k)) + '배', '이/가')} 된다."


def vector_predict(w3, kP=1, kBW=1) -> dict:
    """Week 3 predict first with P×kP and BW×kBW: which resource limits and the ideal time
    (`predict.roofline_questions`; the mistakes: C's write left out, the shorter or the sum of the times, ms and s
    swapped), why from the factors. With one factor moved, the other time is the page's own (its text shows it), so
    when the ideal time is that one, or is computed from it in one step, the time that moved is asked instead.
    Hidden until the guess: the three times, the speedup, the limiting resource and the time bars."""
    kP, kBW = Fraction(kP), Fraction(kBW)
    machine = w3.roofline.with_(P=kP * w3.roofline.P, BW=kBW * w3.roofline.BW)
    add = kernels.vector_add(w3.L, w3.s)
    effect = f" {factor_effect('P', kP, '연산 시간')} {factor_effect('BW', kBW, '메모리 시간')}"
    time = "t" if kP != 1 and kBW != 1 else "t_compute" if kP != 1 else "t_memory" if kBW != 1 else "t"
    questions = pr.roofline_questions(f"L = {fmt.integer(w3.L)} Vector Add", "Vector Add", add, machine, fma=False,
                                      time_extra=effect, ms_text=lambda t: f"{ms(t)} ms", time=time,
                                      dtype=w3.dtype)
    return pr.part(questions, fields=[f"t{j}" for j in range(5)] + ["t2", "kind"], widths=["compute", "memory"])


def vector_fits(w3, kcap=1) -> dict:
    """Week 3 with the memory capacity ×kcap: whether the three vectors fit."""
    kcap = positive_number(kcap, "kcap")
    capacity = kcap * w3.capacity
    footprint = 3 * w3.s * w3.L
    cap = var("capacity", w3.capacity)
    cap = cap if kcap == 1 else named("capacity'", var("k_cap", kcap) * cap)
    src = {**w3_sources(w3), **SCALED}
    shown = shown_number(cap, gb(capacity), src, Fraction(1, 10**9), "GB")
    vectors = named("세 벡터의 Byte", 3 * var("s", w3.s) * var("L", w3.L))
    assert vectors.value == footprint
    return {"fields": {"capacity": shown,
                       "fits": fits_text(shown_number(vectors, gb(footprint), src, Fraction(1, 10**9), "GB"), shown)},
            "flags": {"misfit": footprint > capacity}}


def vector_words(w3) -> dict:
    """The words of the week-3 intro that name the problem: its dtype and its machine (before the factors)."""
    return {"fields": {"dtype": w3.dtype, "base": w3.preset.name}}


def vector_state(w3, kP=1, kBW=1, kcap=1) -> dict:
    times, fits, words = vector_times(w3, kP, kBW), vector_fits(w3, kcap), vector_words(w3)
    return {"fields": {**times["fields"], **fits["fields"], **words["fields"]}, "widths": times["widths"],
            "flags": fits["flags"], "predict": times["predict"]}



FACTORS = tuple(Fraction(2) ** k for k in range(-6, 7))   # ×1/64 … ×64


def factor_label(k) -> str:
    return fmt.fraction(k) + "배"


def vector_explorer(w3, factors=FACTORS) -> explorer.Explorer:
    """Week 3: the reader multiplies P, BW and the memory capacity of the problem `w3` by k each; the three times,
    the speedup over the chapter's machine and whether the three vectors fit follow (`vector_times`,
    `vector_fits`; the intro's words from `vector_words`)."""
    factors = [Fraction(k) for k in factors]
    if 1 not in factors:
        raise ParameterError("factors: 배율에 1(이 장의 하드웨어 그대로)이 있어야 한다")
    uid = "rl-vector"
    options = [[fmt.fraction(k), factor_label(k)] for k in factors]
    times = {f"{fmt.fraction(kP)}|{fmt.fraction(kBW)}": vector_times(w3, kP, kBW) for kP in factors for kBW in factors}
    fits = {fmt.fraction(k): vector_fits(w3, k) for k in factors}
    data = {
        "controls": {name: {"kind": "range", "options": options, "initial": "1"} for name in ("P", "BW", "cap")},
        "parts": [{"on": ["P", "BW"], "states": times}, {"on": ["cap"], "states": fits},
                  {"on": [], "states": {"": vector_words(w3)}}],
        "plots": {},
        "live": explorer.live_form("vector-add", w3, kP=1, kBW=1, kcap=1),
        "hash": {"P": "kP", "BW": "kBW", "cap": "kcap"},
    }
    f = {**times["1|1"]["fields"], **fits["1"]["fields"], **vector_words(w3)["fields"]}
    w = times["1|1"]["widths"]
    row = [f[f"t{j}"] for j in range(5)]
    controls = (explorer.slider(uid, "P", "연산 성능 P의 배율 k", options, "1")
                + explorer.slider(uid, "BW", "메모리 대역폭 BW의 배율 k", options, "1")
                + explorer.slider(uid, "cap", "메모리 용량의 배율 k", options, "1"))

    def bar(name, label):
        return (f'<span class="rl-bar-row"><span class="rl-bar-name">{label}</span><span class="rl-meter-track">'
                f'<span class="rl-meter-fill" data-rl-width="{name}" style="width: {w[name]}"></span></span></span>')

    body = (
        f'<p class="rl-summary" aria-live="polite">P = {explorer.field("P", f["P"])} {fmt.unit("TFLOPs/s", w3.dtype)}, BW = {explorer.field("BW", f["BW"])} TB/s: '
        f'이상적 실행 시간 {explorer.field("t2", f["t2"])}, {explorer.field("kind", f["kind"])}. {explorer.field("fits", f["fits"])}</p>'
        f'<div class="rl-meter rl-bars" hidden>{bar("compute", "연산 시간")}{bar("memory", "메모리 시간")}</div>'
        + explorer.table(VECTOR_HEADERS, [row + [f["capacity"]]], VECTOR_ALIGN, [[f"t{j}" for j in range(len(row))] + ["capacity"]])
    )
    intro = (f"길이 L의 {explorer.field('dtype', f['dtype'])} Vector Add에서 {explorer.field('base', f['base'])}의 연산 성능 P, 메모리 대역폭 BW, "
             "메모리 용량에 각각 배율 k를 곱해 보자. 두 시간과 이상적 실행 시간, 배율을 곱하기 전의 "
             f"{explorer.field('base', f['base'])} 대비 속도, 세 벡터가 들어가는지가 따라 바뀐다.")
    note = ("강의 사이트의 이 자리에서는 P, BW, 메모리 용량에 배율을 곱해 세 시간과 속도, 들어가는지가 바뀌는 것을 볼 수 있다. "
            "노트북에서는 위 코드 셀의 배율을 바꾸고 다시 실행하면 된다. 아래는 세 배율이 모두 1일 때의 값이다.")
    return explorer.Explorer("vector-add", explorer.wrap(uid, intro, controls, body, data),
                    explorer.markdown(note, tables.markdown(VECTOR_HEADERS, [row + [f["capacity"]]], VECTOR_ALIGN)), len(times))


def _live_vector(course, v: dict) -> dict:
    w3 = course.week3.with_cell(v)
    w3.roofline   # the preset must have the dtype
    return vector_state(w3, v["kP"], v["kBW"], v["kcap"])


LIVE = {   # the live form: the parameters it takes, fields of its own, and the state of what was typed
    "vector-add": engine.Form("week3", ("hardware", "dtype", "L", "capacity", ("kP", "연산 성능 P의 배율 k"),
                                        ("kBW", "메모리 대역폭 BW의 배율 k"), ("kcap", "메모리 용량의 배율 k")), _live_vector),
}
