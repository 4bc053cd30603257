"""The matmul / FlashAttention note's sentences, tables, diagrams and figures (chapters/flashattention.md).

Each function takes the problem object the chapter built (`Note`, from its parameter cell) and, for the
measured parts, what the chapter measured; it returns {glue name: value}. `glue_page` hands them to the page.
Every number is formatted by `fmt`; the text diagrams are drawn from the note's own sizes.
"""
from __future__ import annotations

import inspect
from dataclasses import replace
from fractions import Fraction

import numpy as np
from IPython.display import Markdown, Math

from roofline import attention, cachelines, gemm, kernels, occupancy, transformer
from roofline.cost import Timing
from roofline.derive import Term, ceil, ceil_div, floor_div, named, tmax, var
from roofline.show import claims, fmt, ko, tables, why
from roofline.show.figures import figure

EPS = float(np.finfo(np.float64).eps)   # float64's machine epsilon: the unit of the error columns


def source(function) -> Markdown:
    """The library's own code of `function`, shown as a Python block (what runs is what is shown)."""
    return Markdown("```python\n" + inspect.getsource(function).rstrip() + "\n```")


def text_block(text: str) -> Markdown:
    """A text diagram as a code block (monospace, no highlighting). A diagram written with `why.sentence` keeps its
    numbers' records (`why_block`: glue stores them, the page makes each number its button)."""
    block = Markdown("```text\n" + text.rstrip("\n") + "\n```")
    record = getattr(text, "why", None)
    if record is not None and record.get("parts"):
        block.why_block = record
    return block


def lines(*rows) -> str:
    """Lines joined by newlines, each keeping its numbers' records (`why.sentence`)."""
    return why.sentence(*[x for i, row in enumerate(rows) for x in (["\n"] * bool(i) + [row])])


def _width(text: str) -> int:
    """Columns `text` takes in a monospace font (Hangul and other wide characters take two)."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return why.sentence(text, " " * (width - _width(text)))


def _box(rows: list[tuple[str, ...]]) -> list[str]:
    """Rows of cells behind a left border, columns padded to their widest cell. Only the last column may hold
    Hangul (browsers do not draw it exactly two columns wide, so nothing may follow it)."""
    widths = [max(_width(str(r[i])) for r in rows) for i in range(len(rows[0]) - 1)]

    def line(r):
        cells = [*(_pad(x, widths[i]) for i, x in enumerate(r[:-1])), r[-1]]
        return why.rstripped(why.sentence("│ ", *[x for i, c in enumerate(cells) for x in (["   "] * bool(i) + [c])]))

    inner = sum(widths) + 3 * len(widths) + 1            # the border runs under the columns before the last
    return ["┌" + "─" * inner, *[line(r) for r in rows], "└" + "─" * inner]


# ---------------------------------------------------------------- why matmul

def sources(note) -> dict:
    """symbol → origin of the note's inputs (roofline.show.why): the note's table in course.toml (or the parameter
    cell for seq), the dtype table for s, the preset for P, BW and the SM's Shared Memory."""
    hw, dtype = note.hardware, note.dtype
    src = {**why.NOTE_NAMES, **{k: f"toml:note.gpt3.{k}" for k in ("n_ctx", "n_layers", "n_heads", "n_vocab")}}
    src.update({"d": "toml:note.attention.d_head", "N": note.origin("attention.seq"), "h": "toml:note.attention.heads",
                "layers": "toml:note.attention.layers",
                "s": f"toml:dtypes.{dtype}", "BW": f"toml:presets.{hw}.BW", "P": f"toml:presets.{hw}.peak.{dtype}",
                "smem": f"toml:presets.{hw}.smem_per_SM"})
    src[("d", note.gpt3.d_model)] = "toml:note.gpt3.d_model"   # d_model in the GPT-3 section, d_head after it
    src[("s", note.catalog.bytes_per("FP32"))] = "toml:dtypes.FP32"
    src[("s", note.s)] = f"toml:dtypes.{dtype}"
    src[("name", "M")] = ("SRAM에 담기는 원소 수", "원소")   # the note's M (not week 4's rows of C)
    src[("name", "d")] = ("헤드 차원", "")
    src[("name", "N")] = ("시퀀스 길이", "토큰")   # the note's N (the GEMM sections' N: GEMM_NAMES)
    src[why.WORK] = dtype   # the note's quantities count its dtype's work (OPs for INT8); sections of another say so
    return src


GEMM_NAMES = {("name", "N"): why.NAMES["N"], ("name", "M"): why.NAMES["M"]}   # a matrix's side, C's rows


def gpt3(note) -> dict:
    model = transformer.Transformer.from_table(note.gpt3)
    src = sources(note)
    src[("name", "d")] = ("모델 차원 d_model", "")   # here d is d_model
    src.pop(why.WORK)   # a model's FLOPs per token, as Kaplan et al. count them: no dtype's work
    plain, causal = transformer.share_terms(model), transformer.share_terms(model, causal=True)
    flops = transformer.layer_terms(model)
    rows = [(ko.PART[name], why.percent(plain[name], 1, src), why.percent(causal[name], 1, src),
             why.integer(flops[name], src)) for name in transformer.PARTS]
    every = lambda shares: named("Σ 비율", sum((shares[name] for name in transformer.PARTS[1:]), shares[transformer.PARTS[0]]))  # noqa: E731
    rows.append(("층 하나 합계", why.percent(every(plain), 1, src), why.percent(every(causal), 1, src),
                 why.integer(transformer.layer_total(model), src)))
    g = lambda key: why.var(key if key != "d_model" else "d", getattr(model, key), src)   # noqa: E731
    return {
        "gpt3-table": tables.markdown(["연산", "비율", "비율 (인과 마스크)", "토큰당 FLOPs (층 하나, 마스크 없음)"], rows, "lrrr"),
        "gpt3-d": g("d_model"), "gpt3-layers": g("n_layers"), "gpt3-ctx": g("n_ctx"), "gpt3-heads": g("n_heads"),
        "gpt3-vocab": g("n_vocab"),
        "gpt3-qkv": why.percent(plain[transformer.QKV], 1, src), "gpt3-out": why.percent(plain[transformer.OUT], 1, src),
        "gpt3-ffn": why.percent(plain[transformer.FFN], 1, src), "gpt3-attn": why.percent(plain[transformer.ATTN], 1, src),
        "gpt3-attn-causal": why.percent(causal[transformer.ATTN], 1, src),
        "gpt3-proj-sum": why.percent(named("1 − F_attn/F_층", 1 - plain[transformer.ATTN]), 1, src),
        "gpt3-rest": why.percent(transformer.rest_share_term(model), 1, src),
        "gpt3-softmax": why.percent(transformer.softmax_share_term(model), 4, src),
        "gpt3-softmax-elements": why.integer(transformer.softmax_elements_term(model), src),
        "gpt3-total": why.giga(transformer.per_token_term(model), 1, src),
    }


# ---------------------------------------------------------------- naive, tiled, BLAS

def matmul_section(note) -> dict:
    big, m = note.gemm.N, note.measure
    src = {**why.NOTE_NAMES, **sources(note), **GEMM_NAMES, "N": "toml:note.gemm.N",
           "P_FP32": f"toml:presets.{note.hardware}.peak.FP32", why.WORK: "FP32"}   # FP32 work
    N = var("N", big)
    P32 = var("P_FP32", note.preset.P("FP32"))
    F = named("F", 2 * N**3)
    return {
        "naive-source": source(gemm.naive_matmul), "tiled-source": source(gemm.tiled_matmul),
        "big-N": why.var("N", big, src), "big-MAC": why.integer(named("MAC", N**3), src), "big-F": why.giga(F, 1, src),
        "big-fp32-ms": why.ms(named("t_compute", F / P32), 2, src), "preset": note.preset.name,
        "memory": ko.memory_name(note.preset.memory),   # the note's GPU's memory by its name (HBM, GDDR6)
        "blas-N": why.var("N", m.blas_N, {**src, "N": "toml:note.measure.blas_N"}), **epsilon(),
    }


def tera_number(q, digits: int, src: dict, dtype: str = ""):
    """`fmt.number(q / 10¹², digits)` (a peak in TFLOPs/s, or TOPS for an integer `dtype`: `fmt.unit`; trailing
    zeros dropped) with its record."""
    x = Fraction(q.value) / 10**12
    return why.shown(q, fmt.number(x, digits), src, digits=None if x.denominator == 1 else digits,
                     scale=Fraction(1, 10**12), unit=fmt.unit("TFLOPs/s", dtype),
                     rounding=None if x.denominator == 1 else f"{why.rounded_to(digits)}, 끝의 0은 생략")


LABELS = {"naive": "단순 루프", "tiled": "타일 T = {T}", "blas": "BLAS"}


def measured(runs, note, machine) -> dict:
    """The timing table of `matmul_timing.implementations` and the sentences that read it (measured values)."""
    big, T = note.gemm.N, note.measure.T
    m = note.measure
    src = {**why.NOTE_NAMES, "N_큰": "toml:note.gemm.N", ("N", m.naive_N): "toml:note.measure.naive_N",
           ("N", m.tiled_N): "toml:note.measure.tiled_N", ("N", m.blas_N): "toml:note.measure.blas_N"}
    src[("name", "N_큰")] = ("외삽할 행렬 한 변", "")
    N_big = var("N_큰", big)
    eps = named("ε", 1 / Term.of(2) ** 52)

    def seconds(r):
        """The measured time of run `r` as an input: what, on which machine, how."""
        symbol = f"t_{r.label}"
        src[(symbol, Fraction(r.seconds))] = (f"measured:{LABELS[r.label].format(T=T)}, N = {r.N}, {r.repeats}번 잰 가장 짧은 시간 "
                       f"(이 페이지를 빌드한 컴퓨터: {machine.cpu}, {machine.blas})")
        src[("name", symbol)] = (f"{LABELS[r.label].format(T=T)}의 잰 시간", "s")
        return var(symbol, Fraction(r.seconds))

    def of_run(r):
        src[("repeats", r.repeats)] = "code:matmul_timing.implementations(naive_N, tiled_N, blas_N, T_meas)"
        return var("N", r.N), seconds(r)

    def row(r):
        N, t = of_run(r)
        per_mac = named("t/N³", t / N**3)
        extra = named("t·(N_큰/N)³", t * (N_big / N) ** 3)
        if r.error is None:
            error = "기준"
        else:
            src[f"오차_{r.label}"] = f"measured:max |C − C_BLAS| ({LABELS[r.label].format(T=T)}, N = {r.N})"
            src[("name", f"오차_{r.label}")] = (f"{LABELS[r.label].format(T=T)}와 BLAS의 최대 차이", "")
            err = var(f"오차_{r.label}", Fraction(r.error))
            error = why.decimal(named("오차/ε", err / eps), 1, src)
        name = why.sentence("타일 T = ", why.label(T, "toml:note.measure.T")) if r.label == "tiled" else LABELS[r.label]
        return (name, why.var("N", r.N, src), why.var("repeats", r.repeats, src),
                grouped(t, 3, src, scale=1000, unit="ms"), grouped(per_mac, 2, src, scale=10**9, unit="ns"),
                grouped(extra, 1, src, unit="s"), error)

    naive = next(r for r in runs if r.label == "naive")
    blas_small = next(r for r in runs if r.label == "blas" and r.N == naive.N)
    blas_big = runs[-1]
    table = tables.markdown(
        ["구현", "N", "잰 횟수", "시간 (ms)", "MAC당 (ns)", f"{fmt.integer(big)} 외삽 (s)", "오차 (ε)"],
        [row(r) for r in runs], "lrrrrrr")
    N_n, t_naive = var("N", naive.N), seconds(naive)
    t_blas_small = seconds(blas_small)
    N_b, t_big = var("N", blas_big.N), seconds(blas_big)
    repeats = max(r.repeats for r in runs)
    hours = named("t·(N_큰/N)³/3600", t_naive * (N_big / N_n) ** 3 / 3600)
    vs = named("t_naive/t_blas", t_naive / t_blas_small)
    rate = named("2·N³/t", 2 * N_b**3 / t_big)
    return {
        "measure-table": table,
        "blas-reading": reading(runs, T, machine, src, seconds),
        "naive-ns": why.shown(q := named("t/N³", t_naive / N_n**3), fmt.decimal(Fraction(q.value) * 10**9, 0), src,
                              digits=0, scale=10**9, unit="ns"),
        "naive-hours": grouped(hours, 1, src, unit="시간"),
        "naive-vs-blas": why.around(grouped(vs, 0, src, unit="배"), fmt.decimal(Fraction(vs.value), 0, grouping=True) + "배"),
        # the two times the ratio is computed from, to 6 decimals (the table rounds them to 3: the ratio of its
        # rounded values is not this one)
        "naive-small-ms": grouped(t_naive, 6, src, scale=1000, unit="ms"),
        "blas-small-ms": grouped(t_blas_small, 6, src, scale=1000, unit="ms"),
        "blas-big-ms": grouped(t_big, 1, src, scale=1000, unit="ms"),
        "blas-big-rate": grouped(rate, 1, src, scale=Fraction(1, 10**9), unit="GFLOPs/s"),
        "blas-big-extra": grouped(named("t·(N_큰/N)³", t_big * (N_big / N_b) ** 3), 1, src, unit="s"),
        "meas-repeats": why.var("repeats", repeats, src),
        "meas-cpu": machine.cpu, "meas-cores": why.var("cores", machine.cores,
                                                       {**why.NOTE_NAMES, "cores": f"measured:이 기계의 코어 수 ({machine.cpu})"}),
        "meas-blas": machine.blas, "meas-numpy": machine.numpy,
    }


def reading(runs, T: int, machine, src: dict, seconds) -> str:
    """What the timing table shows about BLAS, in the direction it was measured (the measurement decides each
    clause): the smallest and the largest N's BLAS per multiply-add — a call's fixed cost makes the small one slower,
    and the extrapolation takes the large one; when the large one came out slower, or BLAS slower than the tiled
    kernel at the same N, why: a BLAS library computes a small product in one thread and a large one in several,
    and on a few busy cores waking and joining the threads can take longer than the product (the tiled kernel hands
    BLAS only T×T pieces: one thread each). Every number is the table's, with its record."""
    src.update({"T": "toml:note.measure.T", ("name", "T"): ("타일 한 변", ""),   # (`seconds` adds to the same src)
                "cores": f"measured:이 기계의 코어 수 ({machine.cpu})"})
    blas = [r for r in runs if r.label == "blas"]
    small, big = blas[0], blas[-1]

    def per_mac(r):
        return grouped(named("t/N³", seconds(r) / var("N", r.N) ** 3), 2, src, scale=10**9, unit="ns")

    def n(r):
        return why.var("N", r.N, src)

    def ms(r):
        return grouped(seconds(r), 3, src, scale=1000, unit="ms")

    threads = ("BLAS 라이브러리는 대개 작은 행렬곱을 한 스레드로, 큰 행렬곱을 여러 스레드로 나누어 계산한다. 논리 코어 ",
               why.var("cores", machine.cores, src), "개를 다른 일과 나눠 쓰는 기계에서는 스레드를 깨우고 기다리는 "
               "시간이 계산보다 길어질 수 있다.")
    if small.seconds / small.N**3 > big.seconds / big.N**3:
        said = ["곱셈-덧셈 하나에 BLAS는 N = ", n(small), "에서 ", per_mac(small), " ns, N = ", n(big), "에서 ",
                per_mac(big), " ns가 들었다. 작은 N에서는 한 번 부르는 비용이 계산에 비해 커서 느리다. 그래서 외삽에는 "
                "N = ", n(big), "에서 잰 시간을 쓴다."]
        explained = False
    else:
        said = ["이번 측정에서는 곱셈-덧셈 하나에 BLAS가 N = ", n(big), "에서 ", per_mac(big), " ns로, N = ", n(small),
                "의 ", per_mac(small), " ns보다 오히려 오래 걸렸다. ", *threads, " 그래서 외삽 열의 값은 잴 때마다 크게 "
                "달라진다."]
        explained = True
    for r in blas:
        tiled = next((t for t in runs if t.label == "tiled" and t.N == r.N), None)
        if tiled is not None and r.seconds > tiled.seconds:
            said += [" N = ", n(r), "에서는 BLAS(", ms(r), " ms)가 타일 구현(", ms(tiled), " ms)보다 느렸다. 타일 구현도 ",
                     why.side("T", T, src), "×", why.side("T", T, src), " 조각마다 BLAS를 부르니 계산하는 방법은 같고, 다른 "
                     "것은 한 번에 맡기는 크기다."]
            said += [" 작은 조각은 한 스레드로 계산된다."] if explained else [" ", *threads]
            explained = True
    return why.sentence(*said)


def epsilon() -> dict:
    # float64 keeps 52 mantissa bits: ε = 2⁻⁵² (numpy.finfo(np.float64).eps, EPS)
    eps = named("ε", 1 / Term.of(2) ** 52)
    assert eps.value == Fraction(EPS)
    text = fmt.decimal(Fraction(EPS) * 10**16, 2) + " × 10⁻¹⁶"
    return {"eps": why.shown(eps, text, why.NOTE_NAMES, digits=2, scale=10**16, unit="")}


# ---------------------------------------------------------------- cache lines and one tile step

def cache_sources(note) -> dict:
    """The cache example's inputs: the note's cache and latency tables, FP32's size, the H100 preset's smem."""
    c = note.cache
    src = {**why.NOTE_NAMES, "line": "toml:note.cache.line", "T": "toml:note.cache.tile", "K": "toml:note.cache.K",
           "L1_CPU": "toml:note.cache.CPU_L1", "L1_GPU": "toml:note.cache.GPU_L1", "N": "toml:note.gemm.N",
           "s": "toml:dtypes.FP32", "smem_H100": "toml:presets.H100_SXM.smem_per_SM",
           "L1": "toml:note.latency.L1", "L1_긴": "toml:note.latency.L1", "L1_짧은": "toml:note.latency.L1",
           "shared": "toml:note.latency.shared", "L2": "toml:note.latency.L2",
           "HBM": "toml:note.latency.HBM", ("캐시", c.GPU_L1): "toml:note.cache.GPU_L1",
           **{("캐시", x): "toml:note.cache.CPU_L1" for x in c.CPU_L1}}
    for key, name in (("line", ("캐시 줄의 크기", "Byte")), ("T", ("타일 한 변", "")), ("K", ("행렬 한 변", "")),
                      ("L1_CPU", ("CPU L1 데이터 캐시", "Byte")), ("L1_GPU", ("GPU SM 하나의 L1", "Byte")),
                      ("smem_H100", ("H100 SM 하나의 Shared Memory", "Byte")), ("L1", ("L1 지연", "사이클")),
                      ("shared", ("Shared Memory 지연", "사이클")), ("L2", ("L2 지연", "사이클")),
                      ("HBM", ("HBM 지연", "사이클")), ("N", ("행렬 한 변", "")),
                      ("L1_긴", ("가장 긴 L1 지연", "사이클")), ("L1_짧은", ("가장 짧은 L1 지연", "사이클"))):
        src[("name", key)] = name
    return src


def cache(note) -> dict:
    c, lat = note.cache, note.latency
    s32 = note.catalog.bytes_per("FP32")
    big, line = note.gemm.N, c.line
    T4, K8 = c.tile, c.K
    src = cache_sources(note)
    N_, line_, s_, T_, K_ = var("N", big), var("line", line), var("s", s32), var("T", T4), var("K", K8)
    mac_step_, bytes_step_ = gemm.tile_step_terms(T4, s32)
    steps = named("K 단계 수", floor_div(K_, T_))
    HBM = var("HBM", lat.HBM)
    cpu = [var("L1_CPU", x) for x in c.CPU_L1]
    def span(*shown):   # "a–b": each end a number with its own derivation
        return why.sentence(*[piece for i, x in enumerate(shown) for piece in (["–"] * bool(i) + [x])])

    kib_range = lambda qs: span(*(why.binary(q, "KiB", src) for q in qs))  # noqa: E731
    return {
        "line": why.var("line", line, src), "line-elems": why.integer(named("줄의 원소 수", floor_div(line_, s_)), src),
        "col-lines": why.var("N", big, src),
        "col-bytes": why.binary(named("N·line", N_ * line_), "KiB", src), "cpu-l1": kib_range(cpu),
        "ex-T": why.var("T", T4, src), "ex-K": why.var("K", K8, src), "ex-outputs": why.integer(named("T²", T_**2), src),
        "ex-mac-step": why.integer(mac_step_, src), "ex-bytes-step": why.integer(bytes_step_, src),
        "ex-steps": why.integer(steps, src), "ex-mac-tile": why.integer(named("타일의 MAC", mac_step_ * steps), src),
        "ex-mac-per-byte": why.number(named("MAC/Byte", mac_step_ / bytes_step_), 3, src),
        "ex-naive-per-byte": why.number(named("1/(2·s)", 1 / (2 * s_)), 3, src),
        "gpu-l1": why.binary(var("L1_GPU", c.GPU_L1), "KiB", src),
        "T-gpu-l1": why.root(gemm.tile_area_term(c.GPU_L1, s32), 1, src, "T_캐시"),
        "T-cpu-l1": span(*(why.root(gemm.tile_area_term(x, s32), 1, src, "T_캐시") for x in c.CPU_L1)),
        "lat-L1": span(*(why.var("L1", x, src) for x in lat.L1)),
        "lat-shared": why.var("shared", lat.shared, src),
        "lat-L2": why.var("L2", lat.L2, src), "lat-HBM": why.var("HBM", lat.HBM, src),
        "lat-ratio": span(why.decimal(named("HBM/L1_긴", HBM / var("L1_긴", max(lat.L1))), 1, src),   # the two ends
                          why.ratio(named("HBM/L1_짧은", HBM / var("L1_짧은", min(lat.L1))), 1, src)),
        "h100-smem": why.binary(var("smem_H100", note.catalog.preset("H100_SXM").smem_per_SM), "KiB", src),
        "walk-diagram": text_block(walk_diagram(big, s32, line, src)),
        "tile-diagram": text_block(tile_diagram(K8, T4, src)),
        "hierarchy-diagram": text_block(hierarchy_diagram(note)),
        **walk_counts(note),
    }


def walk_diagram(n: int, s: int, line: int, src: dict, shown: int = 3) -> str:
    """Seed 003's row-versus-column walk, counted: which accesses of A[0, k] and B[k, 0] hit a cold cache (the counts
    with their records: the accesses are N, the misses the cold-cache walk's)."""
    out = []
    N = var("N", n)
    last_k = {**src, ("name", "N − 1"): ("마지막 k", "")}
    for name, along, fmt_index in (("A", cachelines.ROW, "A[0, {k}]"), ("B", cachelines.COLUMN, "B[{k}, 0]")):
        walk = cachelines.walk(n, s, line, along)
        per_line = line // s if along == cachelines.ROW else 1
        picks = sorted({*range(shown), per_line - 1, per_line} & set(range(n)))
        out.append(f"{name}: {'행을 따라' if along == cachelines.ROW else '열을 따라'} 읽는다 (k = 0, 1, 2, …)")
        last = -1
        for k in picks:
            if k > last + 1:
                out.append("  …")
            a = walk[k]
            out.append(f"  {fmt_index.format(k=k):<12} 줄 {fmt.integer(a.line):>9}   "
                       + ("적중 (이미 올라온 줄)" if a.hit else "미스 (줄을 새로 올린다)"))
            last = k
        misses = sum(not a.hit for a in walk)
        walked = f"simulated:빈 캐시에서 {'행' if along == cachelines.ROW else '열'}을 따라 N번 읽기 (cachelines.walk)"
        counted = var(f"미스_내적,{name}", misses)
        out.append(why.sentence("  내적 하나(k = 0 … ", why.integer(named("N − 1", N - 1), last_k), "): 접근 ",
                                why.var("N", n, src),
                                "번 중 미스 ", why.integer(counted, {**src, counted.symbol: walked,
                                                                  ("name", counted.symbol): ("내적 하나의 미스", "")}), "번"))
        out.append("")
    return lines(*out)


def walk_counts(note) -> dict:
    """Misses of reading the whole n×n FP32 matrix by rows and by columns through the CPU L1 (the model)."""
    n, s32, line = note.gemm.N, note.catalog.bytes_per("FP32"), note.cache.line
    l1 = max(note.cache.CPU_L1)
    row = cachelines.whole_matrix_misses(n, s32, line, l1, cachelines.ROW)
    col = cachelines.whole_matrix_misses(n, s32, line, l1, cachelines.COLUMN)
    src = cache_sources(note)
    N, s_, line_ = var("N", n), var("s", s32), var("line", line)
    # cachelines.whole_matrix_misses, written as the derivation it computes (checked against it): by rows every line
    # is brought up once, N·⌈N·s/line⌉; by columns, when a column's N lines do not fit the L1, every access misses, N²
    row_ = named("미스_행", N * ceil_div(N * s_, line_))
    col_ = named("미스_열", N**2) if n * line > l1 else named("미스_열", N * ceil_div(N * s_, line_))
    assert (row_.value, col_.value) == (row, col)
    cpus = [var(f"L1_CPU,{i + 1}", x) for i, x in enumerate(note.cache.CPU_L1)]   # each CPU's its own symbol
    cpu_src = {**src, **{x.symbol: "toml:note.cache.CPU_L1" for x in cpus},
               **{("name", x.symbol): (f"CPU L1 데이터 캐시 ({i + 1}번째 값)", "Byte") for i, x in enumerate(cpus)}}
    return {"misses-row": why.integer(row_, src), "misses-col": why.integer(col_, src),
            "misses-ratio": why.ratio(named("미스_열/미스_행", col_ / row_), 0, src),
            "l1-max": why.binary(named("max(L1_CPU)", tmax(*cpus)), "KiB", cpu_src)}


def tile_diagram(K: int, T: int, src: dict) -> str:
    """Seed 003's block picture: K×K matrices in T×T tiles and each output tile as a sum of tile products (the sizes
    with their records)."""
    b = K // T
    width = len(f"A{b - 1}{b - 1}")
    rule = lambda left, mid, right: left + mid.join("─" * (width + 2) for _ in range(b)) + right   # noqa: E731
    def grid(name):
        out = [rule("┌", "┬", "┐")]
        for i in range(b):
            out.append("│" + "│".join(f" {name}{i}{j} " for j in range(b)) + "│")
            out.append(rule("├", "┼", "┤") if i < b - 1 else rule("└", "┴", "┘"))
        return out
    a, bb, c = grid("A"), grid("B"), grid("C")
    pad = " " * len(a[0])
    K_, T_ = why.side("K", K, src), why.side("T", T, src)
    b_q = named("K/T", var("K", K) / var("T", T))
    b_ = why.shown(b_q, str(b), {**src, ("name", "K/T"): ("한 변의 타일 수", "")}, digits=None)
    head = why.sentence(K_, "×", K_, " 행렬을 ", T_, "×", T_, " 타일 ", b_, "×", b_,
                        f"개로 나눈다. X_ij = X[{T}i:{T}i+{T}, {T}j:{T}j+{T}]")
    rows = [head, "", f"{'A':<{len(pad)}}   {'B':<{len(pad)}}   C"]
    rows += [f"{x}   {y}   {z}" for x, y, z in zip(a, bb, c)]
    rows.append("")
    for i in range(b):
        for j in range(b):
            rows.append(f"C{i}{j} = " + " + ".join(f"A{i}{k}·B{k}{j}" for k in range(b)))
    return lines(*rows)


def hierarchy_diagram(note) -> str:
    """Seed 003's memory-hierarchy box with the GPU's sizes from its preset and latencies from Luo et al."""
    p, c, lat = note.catalog.preset("H100_SXM"), note.cache, note.latency   # the GPU the L1 size and latencies are of
    src = {**cache_sources(note), "BW_H100": "toml:presets.H100_SXM.BW", ("name", "BW_H100"): ("H100의 메모리 대역폭", "Byte/s")}
    l1 = why.sentence(*[piece for i, x in enumerate(lat.L1) for piece in (["–"] * bool(i) + [why.var("L1", x, src)])])
    l1_line = why.sentence(l1, " (Shared ", why.var("shared", lat.shared, src), ")")
    rows = [
        ("Registers", "—", "스레드마다"),
        ("L1 · Shared Memory", l1_line, why.sentence("SM마다 ", why.binary(var("L1_GPU", c.GPU_L1), "KiB", src), " (Shared 최대 ",
                                                     why.binary(var("smem_H100", p.smem_per_SM), "KiB", src), ")")),
        ("L2", why.var("L2", lat.L2, src), "모든 SM이 공유"),
        (f"HBM ({p.memory})", why.var("HBM", lat.HBM, src),
         why.sentence("GPU 전체, ", why.number(var("BW_H100", p.BW), 6, src, Fraction(1, 10**12), "TB/s"), " TB/s")),
    ]
    return lines(f"{p.name} 메모리 계층 (위가 연산 장치에 가깝다)", "각 줄: 층, 지연(사이클), 크기와 범위", *_box(rows))


def stride_result(result, note) -> dict:
    """The stride experiment's measured times (they differ on every run)."""
    how = f"{fmt.integer(result.n)}×{fmt.integer(result.n)} FP32 행렬 복사, {result.repeats}번 잰 가장 짧은 시간"
    src = {**why.NOTE_NAMES, "N": "toml:note.gemm.N", "s": "toml:dtypes.FP32",
           "repeats": "code:matmul_timing.stride(note.gemm.N)",
           "t_행": f"measured:행 순서 복사 A.copy() ({how})", "t_열": f"measured:열 순서 복사 ({how})"}
    src[("name", "t_행")], src[("name", "t_열")] = ("행 순서로 읽은 시간", "s"), ("열 순서로 읽은 시간", "s")
    N, s_ = var("N", result.n), var("s", result.itemsize)
    row, col = var("t_행", Fraction(result.row_seconds)), var("t_열", Fraction(result.column_seconds))
    ms1 = lambda q: why.shown(q, fmt.decimal(Fraction(q.value) * 1000, 1), src, digits=1, scale=1000, unit="ms")  # noqa: E731
    slow = named("t_열/t_행", col / row)
    return {"stride-n": why.var("N", result.n, src),
            "stride-mib": why.binary(named("N²·s", N**2 * s_), "MiB", src),
            "stride-repeats": why.var("repeats", result.repeats, src),
            "stride-row-ms": ms1(row), "stride-col-ms": ms1(col),
            "stride-slowdown": why.around(why.shown(slow, fmt.decimal(Fraction(slow.value), 1), src, digits=1, unit="배"),
                                          fmt.decimal(Fraction(slow.value), 1) + "배"),
            "stride-reading": _stride_reading(result, note)}


def _stride_reading(result, note) -> str:
    """How the measured slowdown compares with the modelled ratio of L1 misses."""
    n, s32, line, l1 = result.n, result.itemsize, note.cache.line, max(note.cache.CPU_L1)
    ratio = Fraction(cachelines.whole_matrix_misses(n, s32, line, l1, cachelines.COLUMN),
                     cachelines.whole_matrix_misses(n, s32, line, l1, cachelines.ROW))
    if result.slowdown <= 1:
        return ("이 컴퓨터에서는 열 순서가 느리지 않았다. 하드웨어 프리페처와 큰 캐시가 미스를 거의 다 숨긴 경우다. "
                "행렬을 키우거나 다른 컴퓨터에서 다시 재어 보자.")
    shown = walk_counts(note)["misses-ratio"]   # the ratio the walk above counted, with its record
    assert shown == fmt.ratio(ratio, 0)
    if result.slowdown < ratio:
        return why.sentence("열 순서가 느린 것은 같은 Byte를 옮기면서 줄을 더 자주 올리기 때문이다. 느려진 정도가 위에서 센 L1 미스의 비(",
                            shown, ")보다 작은 것은 L1 미스의 상당 부분을 L2와 하드웨어 프리페처가 받아 주기 때문이다.")
    return why.sentence("열 순서가 느린 것은 같은 Byte를 옮기면서 줄을 더 자주 올리기 때문이다. 느려진 정도는 위에서 센 L1 미스의 비(",
                        shown, ")보다도 크다. L1 밖의 캐시와 TLB에서도 미스가 나기 때문이다.")


# ---------------------------------------------------------------- BLAS

def blas(note) -> dict:
    n, s = note.blas.n, note.catalog.bytes_per(note.blas.dtype)
    src = {**why.NOTE_NAMES, "n": "toml:note.blas.n", "s": f"toml:dtypes.{note.blas.dtype}"}
    src[("name", "n")] = ("벡터 길이, 행렬 한 변", "")
    rows = [(why.sentence(why.name(f"Level-{L.level}"), f" {L.name}"), why.decimal(L.cost.derivation("I"), 3, src),
             L.intensity, L.operation, why.integer(L.cost.derivation("F"), src), why.integer(L.cost.derivation("Q"), src))
            for L in gemm.blas_levels(n, s)]
    return {"blas-table": tables.markdown(
        ["수준·루틴", f"I (n = {fmt.integer(n)})", "I 식", "연산", "F (FLOPs)", "Q (Byte)"], rows, "lrllrr"),
        "blas-n": why.var("n", n, src), "blas-dtype": note.blas.dtype}


# ---------------------------------------------------------------- Tensor Core

def tensor_core(note) -> dict:
    preset, dtype = note.preset, note.dtype
    a100 = note.catalog.preset("A100_SXM")   # the previous generation, for TF32
    hw = note.hardware
    tc = note.tensor_core
    src = sources(note)
    for name in preset.peak:
        src[f"P_{name}"] = f"toml:presets.{hw}.peak.{name}"
        src[f"P_{name},희소"] = f"toml:presets.{hw}.sparse.{name}"
        src[("name", f"P_{name},희소")] = (f"{name} 2:4 희소 최대 연산 성능", "FLOPs/s", name)
    for name in a100.peak:
        src[f"P_{name},A100"] = f"toml:presets.A100_SXM.peak.{name}"
        src[("name", f"P_{name},A100")] = (f"A100 {name} 최대 연산 성능", "FLOPs/s", name)
    for key in ("m", "n", "k", "tc_per_SM", "tc_flops", "cuda_per_SM", "cuda_flops"):
        src[key] = f"toml:note.tensor_core.{key}"
    src["SMs"] = f"toml:presets.{hw}.SMs"
    P = {name: var(f"P_{name}", value) for name, value in preset.peak.items()}
    BW = var("BW", preset.BW)
    # the FP32 row's own ratio divides by the baseline under its own symbol (P_FP32 / P_기준, not P_FP32 / P_FP32)
    src["P_기준"] = f"toml:presets.{hw}.peak.FP32"
    src[("name", "P_기준")] = ("비교 기준인 FP32 최대 연산 성능", "FLOPs/s", "FP32")
    src[why.WORK] = TC_DTYPE   # the per-clock counts (tc_flops, an MMA's) are FP16's FLOPs: course.toml's note
    base = {name: var("P_기준", preset.P("FP32")) if name == "FP32" else P["FP32"] for name in P}
    rows = []
    for name, P_ in P.items():
        unit = "CUDA Core" if name == "FP32" else "Tensor Core"
        sparse = preset.sparse.get(name)
        rows.append((f"{name} ({unit}{', 정수' if fmt.integer_dtype(name) else ''})", tera_number(P_, 1, src, name),
                     tera_number(var(f"P_{name},희소", sparse), 1, src, name) if sparse else "–",
                     why.ratio(named(f"P_{name}/{base[name].symbol}", P_ / base[name]), 1, src),
                     why.decimal(named(f"I*_{name}", P_ / BW), 1, src)))
    m_, n_, k_ = var("m", tc.m), var("n", tc.n), var("k", tc.k)
    mma = named("MMA의 MAC", m_ * n_ * k_)
    sm_tc_, sm_cuda_ = gemm.per_clock_terms(tc)
    clocked = TC_DTYPE if TC_DTYPE in P else dtype   # the peak whose work tc_flops counts: the clock solved from it
    ratio = lambda a, b, digits: why.ratio(named(f"{a.symbol}/{b.symbol}", a / b), digits, src)   # noqa: E731
    a100_tf32, a100_fp32 = var("P_TF32,A100", a100.P("TF32")), var("P_FP32,A100", a100.P("FP32"))
    return {
        "tc-table": tables.markdown(["자료형 (장치)", "dense 최대", "2:4 희소 최대", "FP32 대비", "분기점 I*"], rows, "lrrrr"),
        "tc-dtypes": ", ".join(d for d in preset.peak if d != "FP32"),
        "tc-int": ", ".join(d for d in preset.peak if fmt.integer_dtype(d)),
        "mma-m": why.var("m", tc.m, src), "mma-n": why.var("n", tc.n, src), "mma-k": why.var("k", tc.k, src),
        "mma-mac": why.integer(mma, src), "mma-flops": why.integer(named("MMA의 FLOPs", 2 * mma), src),
        "tc-per-SM": why.var("tc_per_SM", tc.tc_per_SM, src), "tc-flops": why.var("tc_flops", tc.tc_flops, src),
        "cuda-per-SM": why.var("cuda_per_SM", tc.cuda_per_SM, src),
        "cuda-flops": why.var("cuda_flops", tc.cuda_flops, src),
        "sm-tc": why.integer(sm_tc_, src), "sm-cuda": why.integer(sm_cuda_, src), "sm-ratio": ratio(sm_tc_, sm_cuda_, 0),
        # peak = SMs × FLOPs per clock × clock  →  the clock solved backwards (GHz)
        "clock-tc": why.shown(c := gemm.clock_term(P[clocked], preset.SMs, sm_tc_), fmt.decimal(c.value / 10**9, 2), src,
                              digits=2, scale=Fraction(1, 10**9), unit="GHz"),
        "clock-cuda": why.shown(c := gemm.clock_term(P["FP32"], preset.SMs, sm_cuda_), fmt.decimal(c.value / 10**9, 2),
                                src, digits=2, scale=Fraction(1, 10**9), unit="GHz"),
        "tc-dense": tera_number(P[dtype], 1, src, dtype),
        "tc-sparse": tera_number(var(f"P_{dtype},희소", preset.sparse[dtype]), 1, src, dtype) if dtype in preset.sparse else "–",
        "tc-clock-dtype": clocked, "tc-clock-ratio": ratio(P[clocked], P["FP32"], 1),
        "tc-fp32": tera_number(P["FP32"], 1, src), "tc-ratio": ratio(P[dtype], P["FP32"], 1),
        "tf32-ratio": ratio(P["TF32"], P["FP32"], 1) if "TF32" in preset.peak else "–",
        "tf32-ratio-a100": ratio(a100_tf32, a100_fp32, 0), "a100": a100.name,
        "sparsity": "2:4", "source-link": Markdown(f"[{preset.name} 제품 페이지]({preset.source})"),
    }


# ---------------------------------------------------------------- GEMM Roofline

SCALING_BOOK_GPUS = "cite:scalingbook, How to Think About GPUs 장"   # large-matmul efficiency
# the H100's ridge 1e15 / 3.35e12 = 298 is the rooflines chapter's last problem (the GPU chapter's own quiz says 295)
SCALING_BOOK_RIDGE = "cite:scalingbook, All About Rooflines 장, Problem 5 (Memory Rooflines for GPUs)"
MANTISSA_FIGURE = "cite:nvidia-a100, 그림 9 TensorFloat-32 (TF32): FP32 가수 23비트, TF32 가수 10비트"


TC_DTYPE = "FP16"   # the dtype whose FLOPs course.toml's note.tensor_core counts per clock ("dense FP16 … FLOPs")
QUOTED_DTYPE = "FP16"
PAPER_DTYPE = "FP16"   # FlashAttention-2 and -3 report FP16 FLOPs/s (their abstracts: A100, H100)   # the dtype of the quoted GEMM claims (t_주장, R_주장, the batch table): FP16 on an H100


def gemm_sources(note) -> dict:
    """The GEMM sections' inputs: the note's (b×K)·(K×N) example, the preset's P for the dtype, and the quoted values."""
    src = {**why.NOTE_NAMES, **sources(note), **GEMM_NAMES, "N": "toml:note.gemm.N", "K": "toml:note.gemm.K",
           "b": "toml:note.gemm.batches",
           "align": "toml:note.tensor_core.align",
           "η_lo": "cite:shah2024flashattention3, §1", "η_hi": "cite:shah2024flashattention3, §1",
           "η_SB,lo": SCALING_BOOK_GPUS, "η_SB,hi": SCALING_BOOK_GPUS, "I*_SB": SCALING_BOOK_RIDGE,
           "t_주장": "quoted:흔히 인용되는 주장 (4096³ FP16 GEMM, H100)", "R_주장": "quoted:흔히 인용되는 주장 (4096³ FP16 GEMM, H100)",
           "R_표": "quoted:흔히 인용되는 배치별 성능 표", "b_표": "quoted:흔히 인용되는 배치별 성능 표"}
    hw = note.hardware
    for name, value in [*note.preset.peak.items(), (note.dtype, note.preset.P(note.dtype))]:   # the dtype's last
        src[("P", value)] = f"toml:presets.{hw}.peak.{name}"
    for name in note.preset.sparse:
        src[f"P_{name},희소"] = f"toml:presets.{hw}.sparse.{name}"
        src[("name", f"P_{name},희소")] = (f"{name} 2:4 희소 최대 연산 성능", "FLOPs/s", name)
    src[("name", "η_lo")] = ("큰 cuBLAS GEMM 효율의 하한", "")
    src[("name", "η_hi")] = ("큰 cuBLAS GEMM 효율의 상한", "")
    src[("name", "η_SB,lo")] = ("Scaling Book 효율의 하한", "")
    src[("name", "η_SB,hi")] = ("Scaling Book 효율의 상한", "")
    src[("name", "I*_SB")] = ("Scaling Book의 H100 분기점", "FLOPs/Byte", "BF16")   # (its bf16 peak over HBM)
    src[("name", "t_주장")] = ("인용되는 시간", "s")
    src[("name", "R_주장")] = ("인용되는 성능", "FLOPs/s", QUOTED_DTYPE)
    src[("name", "R_표")] = ("인용 표의 성능", "FLOPs/s", QUOTED_DTYPE)
    src[("name", "b_표")] = ("인용 표의 배치 크기", "")
    return src


def grouped(q, digits: int, src: dict, scale=1, unit: str | None = None):
    """`fmt.decimal(q × scale, digits, grouping=True)` with its record."""
    return why.shown(q, fmt.decimal(Fraction(q.value) * scale, digits, grouping=True), src, digits=digits,
                     scale=scale, unit=unit)


def share_range(lo, hi, src: dict):
    """"80–90%" (two quoted shares), each end with its record."""
    return why.sentence(why.shown(lo, fmt.number(lo.value * 100), src, digits=None, scale=100, unit="%"), "–",
                        why.percent(hi, 0, src))


def ms_range(fast, slow, src: dict):
    """"a–b" ms, two times to 3 decimals, each with its record."""
    return why.sentence(why.ms(fast, 3, src), "–", why.ms(slow, 3, src))


def gemm_roofline(note) -> dict:
    preset, dtype, s = note.preset, note.dtype, note.s
    hw = preset.roofline(dtype)
    N_w, K_w = note.gemm.N, note.gemm.K
    src = gemm_sources(note)
    sweep = gemm.batch_sweep(note.gemm.batches, N_w, K_w, hw, s)
    P_, BW_, ridge_ = hw.derivation("P"), hw.derivation("BW"), hw.derivation("I*")

    def row(r):
        R = r.timing.derivation("R_roof")
        return (why.var("b", r.b, src), grouped(r.cost.derivation("I"), 1, src),
                why.shown(R, fmt.decimal(r.timing.R_roof / 10**12, 1), src, digits=1, scale=Fraction(1, 10**12),
                          unit=fmt.unit("TFLOPs/s", dtype)),
                why.percent(named("R_roof/P", R / P_), 1, src),
                why.shown(t := r.timing.derivation("t_ideal"), fmt.decimal(t.value * 10**6, 2), src, digits=2,
                          scale=10**6, unit="µs"),
                ko.memory_name(r.timing.hw.memory) if r.timing.memory_bound else "연산")

    rows = [row(r) for r in sweep]
    b_star_ = gemm.crossover_term(N_w, K_w, hw, s)
    b_star = None if b_star_ is None else b_star_.value
    T_star_ = kernels.tile_threshold_term(N_w, ridge_, s, s)   # week 4's model: reuse only inside one output tile
    a, c, e = gemm.intensity_terms(N_w, K_w, s)   # I(b) = a·b / (c·b + e), in lowest terms
    N_, K_, s_ = var("N", N_w), var("K", K_w), var("s", s)
    F_sq_ = named("F", 2 * N_ * K_ * N_)
    lo, hi = (var("η_lo", x) for x in gemm.LARGE_GEMM_EFFICIENCY)
    gemv = gemm.gemm(1, N_w, K_w, s, rows="b")
    gemv_no_out_ = named("F/Q_read", gemv.derivation("F") / gemv.derivation("Q_read"))
    hi = var("η_hi", hi.value)
    claim_t, claim_rate = var("t_주장", gemm.CLAIMED_SQUARE_GEMM[0]), var("R_주장", gemm.CLAIMED_SQUARE_GEMM[1])
    sb_lo, sb_hi = (var(k, x) for k, x in zip(("η_SB,lo", "η_SB,hi"), gemm.SCALING_BOOK_EFFICIENCY))
    memory_rows = [r for r in sweep if r.timing.memory_bound]
    last = memory_rows[-1] if memory_rows else sweep[0]
    gemv_t = Timing(gemv, hw)
    gemv_R = gemv_t.derivation("R_roof")
    sparse = var(f"P_{dtype},희소", preset.sparse[dtype]) if dtype in preset.sparse else None
    weight = named("s·K·N", s_ * K_ * N_)
    claimed = QUOTED_DTYPE if QUOTED_DTYPE in preset.peak else dtype
    hw_c, s_c = preset.roofline(claimed), note.catalog.bytes_per(claimed)
    P_c = hw_c.derivation("P")
    src_c = {**src, why.WORK: claimed, ("P", hw_c.P): f"toml:presets.{note.hardware}.peak.{claimed}",
             ("s", s_c): f"toml:dtypes.{claimed}"}
    return {
        "batch-table": tables.markdown(["b", "I(b)", f"상한 ({fmt.unit('TFLOPs/s', dtype)})", "최대 대비", "하한 (µs)", "제한 자원"],
                                       rows, "rrrrrl"),
        "unit-rate": ko.units(dtype)["unit-rate"], "unit-I": ko.units(dtype)["unit-I"],
        "ridge": why.decimal(ridge_, 1, src), "P-dense": tera_number(P_, 1, src, dtype),
        "bw": why.shown(BW_, fmt.number(preset.BW / 10**12, 2), src, digits=2, scale=Fraction(1, 10**12), unit="TB/s"),
        "dtype": dtype, "s": why.var("s", s, src),
        "b-star": why.decimal(b_star_, 1, src) if b_star is not None else "없음",
        "b-star-int": why.integer(named("⌈b*⌉", ceil(b_star_)), src) if b_star is not None else "없음",
        "I-formula": Math(rf"I(b) = \frac{{2bKN}}{{s\,(bK + KN + bN)}} = "
                          rf"\frac{{{a}\,b}}{{{'' if c == 1 else c}b + {e}}}"),
        "gemm-N": why.var("N", N_w, src), "gemm-K": why.var("K", K_w, src),
        "sq-F": why.giga(F_sq_, 1, src), "unit-giga": fmt.unit("GFLOPs", dtype), "sq-I": grouped(gemm.gemm(N_w, N_w, K_w, s).derivation("I"), 1, {**src, "M": "toml:note.gemm.N"}),
        "sq-tmin": why.ms(named("t_compute", F_sq_ / P_), 3, src),
        "cublas-eff": share_range(lo, hi, src),
        "sq-treal": ms_range(named("t", F_sq_ / (P_ * hi)), named("t", F_sq_ / (P_ * lo)), src),
        "gemv-I": why.decimal(gemv.derivation("I"), 4, src), "gemv-frac": why.fraction(gemv.derivation("I"), src),
        "gemv-no-out-frac": why.fraction(gemv_no_out_, src), "gemv-no-out": why.decimal(gemv_no_out_, 4, src),
        "sq-shape": why.around(why.var("N", N_w, src), f"{fmt.integer(N_w)}×{fmt.integer(N_w)}"),
        "w-shape": why.around(why.var("K", K_w, src), f"{fmt.integer(K_w)}×{fmt.integer(N_w)}"),
        "claim-ms": why.ms(claim_t, 1, src), "claim-tera": tera_number(claim_rate, 1, src),
        # the quoted claims are about a QUOTED_DTYPE GEMM: judged against that dtype's peak, counted in its units
        "claim-dtype": claimed, "claim-dense": tera_number(P_c, 1, src_c, claimed),
        "claim-implied": why.shown(ci := named("F/t_주장", F_sq_ / claim_t), fmt.decimal(ci.value / 10**12, 1), src_c,
                                   digits=1, scale=Fraction(1, 10**12), unit=fmt.unit("TFLOPs/s", claimed)),
        "claim-unit": fmt.unit("TFLOPs/s", claimed),
        "claim-vs-dense": "넘는다" if claim_rate.value > P_c.value else "넘지 않는다",
        "claim-tmin": why.ms(named("t_compute", F_sq_ / P_c), 3, src_c),
        "sb-eff": share_range(sb_lo, sb_hi, src),
        "sb-treal": ms_range(named("t", F_sq_ / (P_c * sb_hi)), named("t", F_sq_ / (P_c * sb_lo)), src_c),
        "sb-ridge": why.var("I*_SB", gemm.SCALING_BOOK_RIDGE, src),
        "gemv-R": why.tera(gemv_R, 1, src), "gemv-share": why.percent(named("R_roof/P", gemv_R / P_), 2, src),
        "ridge-sparse": why.decimal(named("I*_희소", sparse / BW_), 1, src) if sparse is not None else "–",
        "P-sparse": tera_number(sparse if sparse is not None else P_, 1, src, dtype),
        "align": why.var("align", note.tensor_core.align, src),
        "q-b": why.var("b", last.b, src), "q-b-I": why.decimal(last.cost.derivation("I"), 1, src),
        "q-b-share": why.percent(named("R_roof/P", last.timing.derivation("R_roof") / P_), 1, src),
        "q-b-bound": ko.particle(ko.bound(last.timing), "이다/다"),
        "q-b-weight": why.percent(named("s·K·N/Q", weight / last.cost.derivation("Q")), 1, src),
        **claimed_gap(gemm.batch_sweep(note.gemm.batches, N_w, K_w, hw_c, s_c), src_c),
        **tf32_discussion(note, last.b),
        "w4-Tstar": why.decimal(T_star_, 1, src) if T_star_ is not None else "없음",
        "fig-gemm-batch": batch_figure(note),
    }


def tf32_discussion(note, b: int) -> dict:
    """The discussion "TF32": the batch-b GEMM in FP32 on CUDA Cores and on TF32 Tensor Cores (same 4 Byte)."""
    preset, N_w, K_w = note.preset, note.gemm.N, note.gemm.K
    s = note.catalog.bytes_per("FP32")
    src = {**gemm_sources(note), why.WORK: "FP32", ("s", s): "toml:dtypes.FP32"}   # FP32 (and TF32) work, 4 Byte
    cost = gemm.gemm(b, N_w, K_w, s, rows="b")
    out = {"q-tf-b": why.var("b", b, src), "q-tf-I": why.decimal(cost.derivation("I"), 1, src)}
    if "TF32" not in preset.peak:
        return {**out, "q-tf-text": f"{preset.name}에는 TF32 Tensor Core가 없어 TF32를 켜도 이 GEMM은 그대로다."}
    hw = note.hardware
    src32, srcTF = ({**src, "P": f"toml:presets.{hw}.peak.{d}"} for d in ("FP32", "TF32"))
    fp32, tf32 = Timing(cost, preset.roofline("FP32")), Timing(cost, preset.roofline("TF32"))
    t32, tTF = fp32.derivation("t_ideal"), tf32.derivation("t_ideal")
    P32, PTF = var("P_FP32", preset.P("FP32")), var("P_TF32", preset.P("TF32"))
    src_both = {**src, "P_FP32": f"toml:presets.{hw}.peak.FP32", "P_TF32": f"toml:presets.{hw}.peak.TF32"}
    gain = t32.value / tTF.value
    us = lambda q, sr: why.shown(q, fmt.decimal(q.value * 10**6, 2), sr, digits=2, scale=10**6, unit="µs")  # noqa: E731
    # the two records of t_ideal have the same symbol: the ratio's formula names them by their P
    gain_ = named("t_FP32/t_TF32", var("t_FP32", t32.value) / var("t_TF32", tTF.value))
    src_gain = {**src_both, "t_FP32": t32, "t_TF32": tTF}
    return {**out,
            "q-tf-ridge32": why.decimal(preset.roofline("FP32").derivation("I*"), 1, src32),
            "q-tf-ridge": why.decimal(preset.roofline("TF32").derivation("I*"), 1, srcTF),
            "q-tf-bound32": ko.particle(ko.bound(fp32), "이다/다") + ".", "q-tf-bound": ko.particle(ko.bound(tf32), "이다/다") + ".",
            "q-tf-t32": us(t32, src32), "q-tf-t": us(tTF, srcTF),
            "q-tf-gain": why.ratio(gain_, 1, src_gain) if gain_.value == gain else fmt.ratio(gain, 1),
            "q-tf-peak": why.ratio(named("P_TF32/P_FP32", PTF / P32), 1, src_both),
            "q-tf-text": (f"빨라진 배율이 최대 성능의 배율보다 작은 것은 TF32에서는 {ko.particle(ko.bound(tf32), '이/가')} "
                          "상한을 정하기 때문이다."
                          if tf32.memory_bound else "TF32에서도 연산 성능이 상한을 정하므로 최대 성능의 배율만큼 빨라진다.")}


# The often-quoted batch table (seed 003), TFLOPs/s per batch size b: below the bound by about 200×, and at
# b = 4096 above the dense peak. Quoted so that the note can measure how far off it is; never a model value.
QUOTED_BATCH_TFLOPS = {1: Fraction("0.016"), 4: Fraction("0.063"), 16: Fraction("0.25"), 64: Fraction("0.98"),
                       256: Fraction("3.8"), 1024: Fraction("14.2"), 4096: Fraction(1847)}


def claimed_gap(sweep, src: dict | None = None) -> dict:
    """bound / quoted for the memory-bound batches and for the largest batch still below the bound."""
    pairs = [(r, r.timing.R_roof / (QUOTED_BATCH_TFLOPS[r.b] * 10**12)) for r in sweep if r.b in QUOTED_BATCH_TFLOPS]
    small = [x for r, x in pairs if r.timing.memory_bound]
    big = [(r, x) for r, x in pairs if not r.timing.memory_bound and x > 1]
    src = src or {}
    quoted = lambda b: why.shown(var("R_표", QUOTED_BATCH_TFLOPS[b] * 10**12), fmt.number(QUOTED_BATCH_TFLOPS[b]), src,  # noqa: E731
                                 digits=None, scale=Fraction(1, 10**12), unit="TFLOPs/s")
    def gap(r):   # the bound over the quoted rate at batch b, with its record
        q = named("R_roof/R_표", r.timing.derivation("R_roof") / var("R_표", QUOTED_BATCH_TFLOPS[r.b] * 10**12))
        return why.shown(q, fmt.decimal(q.value, 0), {**src, ("name", "R_roof/R_표"): ("상한이 인용 표의 몇 배인가", "")},
                         digits=0, unit="배")

    below = [r for r, _ in pairs if r.timing.memory_bound]
    lo = min(below, key=lambda r: r.timing.R_roof / QUOTED_BATCH_TFLOPS[r.b]) if below else None
    hi = max(below, key=lambda r: r.timing.R_roof / QUOTED_BATCH_TFLOPS[r.b]) if below else None
    out = {"gap-small": why.sentence("약 ", gap(lo), "–", gap(hi), "배") if small else "–",
           "gap-big": why.sentence("b = ", why.var("b", big[0][0].b, src), "에서는 약 ", gap(big[0][0]), "배") if big else "",
           "quoted-b": why.var("b_표", 256, src) if src else fmt.integer(256), "quoted-256": quoted(256) if src else fmt.number(QUOTED_BATCH_TFLOPS[256]),
           "quoted-max": why.shown(var("R_표", QUOTED_BATCH_TFLOPS[4096] * 10**12), fmt.integer(QUOTED_BATCH_TFLOPS[4096]), src,
                                   digits=None, scale=Fraction(1, 10**12), unit="TFLOPs/s") if src else fmt.integer(QUOTED_BATCH_TFLOPS[4096])}
    return out


# ---------------------------------------------------------------- attention

def attention_memory(note) -> dict:
    preset, dtype, s, seq = note.preset, note.dtype, note.s, note.seq
    heads, d_head, layers = note.attention.heads, note.attention.d_head, note.attention.layers
    src = sources(note)
    N, s_, h, d = var("N", seq), var("s", s), var("h", heads), var("d", d_head)
    L, s32 = var("layers", layers), var("s", note.catalog.bytes_per("FP32"))
    BW, P = var("BW", preset.BW), var("P", preset.P(dtype))
    per_head, all_heads = attention.score_bytes_term(N, s_), attention.score_bytes_term(N, s_, h)
    quad = attention.standard_traffic_quadratic_term(N, s_, h)
    quad6 = attention.standard_traffic_quadratic_term(N, s_, h, separate_scale=True)
    linear = attention.standard_traffic_linear_term(N, d, s_, h)
    F = attention.flops_term(N, d, h)
    per_head32 = attention.score_bytes_term(N, s32)
    return {
        "seq": why.var("N", seq, src), "heads": why.var("h", heads, src), "d-head": why.var("d", d_head, src),
        "layers": why.var("layers", layers, src), "score-head": why.binary(per_head, "MiB", src),
        "score-head-B": why.integer(per_head, src),
        "score-all": why.binary(all_heads, "GiB", src), "score-all-B": why.integer(all_heads, src),
        "traffic-quad": why.binary(quad, "GiB", src), "traffic-quad-B": why.integer(quad, src),
        "traffic-quad6": why.binary(quad6, "GiB", src),
        "traffic-linear": why.binary(linear, "MiB", src), "traffic-ms": why.ms(named("t_N²", quad / BW), 2, src),
        "traffic-all-ms": why.ms(named("t_memory", (quad + linear) / BW), 2, src),
        "traffic6-ms": why.ms(named("t_N²", quad6 / BW), 2, src),
        "saved": why.binary(named("Q_S,층", h * L * per_head), "GiB", src),
        "saved-fp32-head": why.binary(per_head32, "MiB", src),
        "saved-fp32": why.binary(named("Q_S,층", h * L * per_head32), "GiB", src),
        "attn-F": why.giga(F, 1, src), "attn-F-ms": why.ms(named("t_compute", F / P), 3, src),
        "standard-source": source(attention.standard_forward),
        "saved-dtype": ko.particle(dtype, "으로/로"), "score-dtype": ko.particle(dtype, "이면/면"),
    }


def flash(note) -> dict:
    """The FlashAttention code, its check's setting, the HBM model and the tile diagram."""
    preset, s, seq, d_head = note.preset, note.s, note.seq, note.attention.d_head
    check = note.flash_check
    src = sources(note)
    blocks_src = {**src, "B_r": "toml:note.flash_check.blocks", "B_c": "toml:note.flash_check.blocks"}
    N, d, s_ = var("N", seq), var("d", d_head), var("s", s)
    M_ = attention.sram_term(var("smem", preset.smem_per_SM), s_)
    B_r_, B_c_ = attention.flash_blocks_terms(M_, d)
    B_c = B_c_.value
    std_ = attention.standard_traffic_term(N, d, s_)
    flash_ = attention.flash_traffic_term(N, d, B_c_, s_)
    std_seq = std_.value
    return {
        "flash-source": source(attention.flash_forward),
        "check-d": why.var("d", check.d, {**src, "d": "toml:note.flash_check.d"}),
        "check-N": why.listed("N", check.N, "toml:note.flash_check.N", ", ".join(fmt.integer(n) for n in check.N),
                              src),   # (the note's N: a sequence's length, not a matrix's side)
        "check-blocks": why.sentence(*[x for i, (r, c) in enumerate(check.blocks) for x in (
            [", "] * bool(i) + ["(", why.var("B_r", r, blocks_src), ", ", why.var("B_c", c, blocks_src), ")"])]),
        "sram": why.binary(var("smem", preset.smem_per_SM), "KiB", src), "M": why.integer(M_, src),
        "B-r": why.integer(B_r_, src), "B-c": why.integer(B_c_, src),
        "T-c": why.integer(attention.block_count_term(N, B_c_), src), "std-seq": why.binary(std_, "MiB", src),
        "flash-seq": why.binary(flash_, "MiB", src),
        "flash-gain": why.ratio(named("Q_표준/Q_Flash", std_ / flash_), 2, src),
        "flash-fit": fitting_traffic_text(note, B_c, std_seq),
        "flash-diagram": text_block(flash_diagram(note)), **flash_blocks_text(note),
        **head_dim_discussion(note, B_c),
        "sram-block": sram_block(preset),
        "fig-flash-traffic": traffic_figure(note),
    }


FA_THREADS = 128   # the residency sentence's block: 4 warps


def sram_block(preset) -> str:
    """M is the model's SRAM, the SM's whole shared memory; what one block may take and how many such blocks the
    SM holds come from the per-SM limits (roofline.occupancy). Empty for a preset without them."""
    from roofline.show.pages.w4_4_tile_size import sm_origins

    sm = preset.sm
    if sm is None:
        return ""
    r = occupancy.occupancy(preset, FA_THREADS, sm.registers_per_thread, sm.smem_per_block)
    # the Shared Memory limit alone: what the fewest registers a thread can hold would give too
    fewest = occupancy.occupancy(preset, FA_THREADS, 1, sm.smem_per_block)
    # the block's threads: 4 warps, as FlashAttention-2's forward kernel (Dao 2023, §3.3)
    src = {**sm_origins(preset), "스레드": "cite:dao2023flashattention2, §3.3"}
    limit = lambda key: var(f"sm.{key}", getattr(sm, key))   # noqa: E731
    how = occupancy.derivation(preset, var("스레드", FA_THREADS), limit("registers_per_thread"), limit("smem_per_block"))
    lead = ("레지스터를 얼마나 쓰든 Shared Memory 때문에 " if r.blocks and fewest.blocks == r.blocks
            and fewest.limits["smem"] == r.blocks else "")
    held = (why.sentence(f"{lead}SM 하나에 ", why.integer(how["blocks"], src), "개만 상주하고, 점유율은 ",
                         why.particle(why.percent(how["occupancy"], 1, src), "이다/다")) if r.blocks else "SM에 올라가지 않는다")
    return why.sentence(
        f"M은 모델의 값이다. {preset.name.split(' (')[0]}에서 블록 하나가 받을 수 있는 Shared Memory의 최대는 ",
        why.particle(why.kib(limit("smem_per_block"), src), "이다/다"), ". ",
        *(["드라이버는 이와 별도로 블록마다 ", why.integer(limit("smem_reserved"), src), " Byte를 잡는다. "] if sm.smem_reserved else []),
        "그 최대치를 쓰는 블록(스레드 ", why.integer(var("스레드", FA_THREADS), src), "개, 워프 ", why.integer(how["W"], src),
        "개)은 ", held, ".")


def fitting_traffic_text(note, B_c: int, std_seq: int) -> str:
    """The traffic with the diagram's B_c (the largest that fits), when the paper's rule gives another: the model
    keeps the rule's B_c, and says what the tile that fits would move."""
    seq, d, s = note.seq, note.attention.d_head, note.s
    fit_r, fit_c = fitting_blocks(attention.sram_elements(note.preset.smem_per_SM, s), d, note.tensor_core.align)
    if fit_c == B_c:
        return ""
    moved = attention.flash_traffic(seq, d, fit_c) * s
    B_c_, found = fitted_Bc(note, fit_r, fit_c, d)   # the diagram's B_c, as flash_blocks_text derives it
    src = {**sources(note), **found}
    N, d_, s_ = var("N", seq), var("d", d), var("s", s)
    flash_, std_ = attention.flash_traffic_term(N, d_, B_c_, s_), attention.standard_traffic_term(N, d_, s_)
    assert (flash_.value, std_.value) == (moved, std_seq)
    return why.sentence(   # (the sentence before it, on the page, names the paper's Algorithm 1: a label, not a value)
        "앞의 타일 그림처럼 실제로 들어가는 B_c = ",
        why.particle(why.integer(B_c_, src), "으로/로"), " 세면 T_c = ", why.integer(attention.block_count_term(N, B_c_), src),
        ", 이동은 ", why.particle(why.binary(flash_, "MiB", src), "으로/로"), " 표준보다 ",
        why.ratio(named("Q_표준/Q_Flash", std_ / flash_), 2, src), " 적다.")


def sram_elements(B_r: int, B_c: int, d: int) -> dict[str, int]:
    """Elements one step of FA1 keeps in SRAM: Q_i, K_j, V_j, S_ij, O_i, m_i, ℓ_i."""
    return {"Q_i": B_r * d, "K_j": B_c * d, "V_j": B_c * d, "S_ij": B_r * B_c, "O_i": B_r * d, "m_i": B_r, "ℓ_i": B_r}


def sram_step_term(B_r, B_c, d):
    """`sram_elements`' sum as a derivation: Q_i + K_j + V_j + S_ij + O_i + m_i + ℓ_i."""
    return named("SRAM 원소", B_r * d + B_c * d + B_c * d + B_r * B_c + B_r * d + B_r + B_r)


def fitted_Bc(note, B_r: int, fit_c: int, d: int):
    """The diagram's B_c as a derivation: align·k, where k (the number of align-wide pieces) is what
    `fitting_blocks` found by trying, not a formula; returns (B_c,맞춤, the src entries for align and k)."""
    align = note.tensor_core.align
    M = attention.sram_elements(note.preset.smem_per_SM, note.s)
    k = var("k_align", fit_c // align)
    src = {"align": "toml:note.tensor_core.align", ("name", "k_align"): ("B_c에 들어가는 align 조각의 수", ""),
           "k_align": ("search:한 단계의 블록이 SRAM에 들어가는 가장 큰 align 조각 수 "
                       f"(B_r = {fmt.integer(B_r)}, d = {fmt.integer(d)}, M = {fmt.integer(M)} 원소, "
                       f"align = {fmt.integer(align)})")}
    return named("B_c,맞춤", var("align", align) * k), src


def fitting_blocks(M: int, d: int, align: int) -> tuple[int, int]:
    """(B_r, B_c) for the diagram: FA1's B_r, and the largest B_c ≤ FA1's that is a multiple of `align` (the Tensor
    Core's) and keeps every block of one step within the M elements of SRAM (FA1's rule only bounds them by O(M))."""
    B_r, B_c = attention.flash_blocks(M, d)
    for c in range(B_c - B_c % align, 0, -align):
        if sum(sram_elements(B_r, c, d).values()) <= M:
            return B_r, c
    return B_r, 1


def flash_blocks_text(note) -> dict:
    """How the diagram's blocks were chosen: FA1's rule, what its blocks would take, the blocks that fit."""
    preset, s, d = note.preset, note.s, note.attention.d_head
    M = attention.sram_elements(preset.smem_per_SM, s)
    B_r, B_c = attention.flash_blocks(M, d)
    fr, fc = fitting_blocks(M, d, note.tensor_core.align)
    rule = sum(sram_elements(B_r, B_c, d).values())
    fit = sum(sram_elements(fr, fc, d).values())
    over = rule > M
    src = sources(note)
    s_, d_ = var("s", s), var("d", d)
    B_r_, B_c_ = attention.flash_blocks_terms(attention.sram_term(var("smem", preset.smem_per_SM), s_), d_)
    rule_ = sram_step_term(B_r_, B_c_, d_)
    Bc = why.integer(B_c_, src)
    # the diagram's B_c: the largest multiple of the Tensor Core's `align` whose step fits M (fitting_blocks' search)
    fit_c, found = fitted_Bc(note, fr, fc, d)
    src.update(found)
    assert fit_c.value == fc and fit <= M
    return {
        "sram-rule-Bc": why.particle(Bc, "을/를"), "sram-rule-Bc-tried": why.particle(Bc, "이면/면"),
        "sram-fit-Bc": why.particle(why.integer(fit_c, src), "으로/로"), "sram-rule-elems": why.integer(rule_, src),
        "sram-rule-bytes": why.integer(named("SRAM Byte", rule_ * s_), src),
        "sram-bytes": why.var("smem", preset.smem_per_SM, src),
        "sram-fit-bytes": why.integer(named("SRAM Byte", sram_step_term(B_r_, fit_c, d_) * s_), src),
        "sram-align": why.var("align", note.tensor_core.align, {**src, "align": "toml:note.tensor_core.align"}),
        "sram-rule-verdict": "넘는다" if over else "넘지 않는다",
    }


def head_dim_discussion(note, B_c: int) -> dict:
    """The discussion "d를 두 배로": FA1's blocks and HBM traffic at d and 2d (standard attention beside it)."""
    preset, s, seq, d_head = note.preset, note.s, note.seq, note.attention.d_head
    src = sources(note)
    N, d, s_ = var("N", seq), var("d", d_head), var("s", s)
    d2 = named("2d", 2 * d)
    M = attention.sram_term(var("smem", preset.smem_per_SM), s_)
    _, B_c1 = attention.flash_blocks_terms(M, d)
    _, B_c2 = attention.flash_blocks_terms(M, d2)
    flash1, flash2 = attention.flash_traffic_term(N, d, B_c1, s_), attention.flash_traffic_term(N, d2, B_c2, s_)
    std1, std2 = attention.standard_traffic_term(N, d, s_), attention.standard_traffic_term(N, d2, s_)
    return {
        "q-d": why.particle(why.var("d", d_head, src), "이면/면"), "q-2d": why.particle(why.integer(d2, src), "이면/면"),
        "q-Bc": why.integer(B_c1, src), "q-Bc2": why.particle(why.integer(B_c2, src), "이다/다"),
        "q-Tc": why.integer(attention.block_count_term(N, B_c1), src),
        "q-Tc2": why.particle(why.integer(attention.block_count_term(N, B_c2), src), "으로/로"),
        "q-flash-d": why.binary(flash1, "MiB", src), "q-flash-2d": why.binary(flash2, "MiB", src),
        "q-flash-d-ratio": why.ratio(named("Q_Flash(2d)/Q_Flash(d)", named("Q_Flash(2d)", flash2.term)   # each case its
                                           / named("Q_Flash(d)", flash1.term)), 2, src),                    # own symbol
        "q-std-d": why.binary(std1, "MiB", src), "q-std-2d": why.binary(std2, "MiB", src),
        "q-std-d-ratio": why.ratio(named("Q_표준(2d)/Q_표준(d)", named("Q_표준(2d)", std2.term)
                                         / named("Q_표준(d)", std1.term)), 2, src),
    }


def flash_diagram(note) -> str:
    """Seed 003's HBM → SRAM picture (the memory named by the note's GPU: GDDR6 on a GPU without HBM), with blocks that fit the SRAM it names (sizes computed, their sum shown), each
    number with its record."""
    preset, s, seq, d = note.preset, note.s, note.seq, note.attention.d_head
    M = attention.sram_elements(preset.smem_per_SM, s)
    B_r, B_c = fitting_blocks(M, d, note.tensor_core.align)
    memory = ko.memory_name(preset.memory)
    elems = sram_elements(B_r, B_c, d)
    total = sum(elems.values())
    src = {**sources(note), "align": "toml:note.tensor_core.align",
           **{("name", k): (f"{k} 블록의 원소", "원소") for k in elems}}
    N_, d_, s_ = var("N", seq), var("d", d), var("s", s)
    M_ = attention.sram_term(var("smem", preset.smem_per_SM), s_)
    B_r_, _ = attention.flash_blocks_terms(M_, d_)
    B_c_, found = fitted_Bc(note, B_r, B_c, d)   # as flash_blocks_text derives it
    src.update(found)
    terms = {"Q_i": B_r_ * d_, "K_j": B_c_ * d_, "V_j": B_c_ * d_, "S_ij": B_r_ * B_c_, "O_i": B_r_ * d_, "m_i": B_r_,
             "ℓ_i": B_r_}
    parts = {k: named(k, term) for k, term in terms.items()}
    total_ = sram_step_term(B_r_, B_c_, d_)
    bytes_ = named("SRAM Byte", total_ * s_)
    assert (B_r_.value, M_.value, total_.value) == (B_r, M, total) and all(parts[k].value == v for k, v in elems.items())

    def n(q):
        return why.integer(q, src)

    def shape(a, b):
        return why.sentence(n(a), "×", n(b))

    box = _box([("Q_i", shape(B_r_, d_), n(parts["Q_i"]), ""), ("K_j", shape(B_c_, d_), n(parts["K_j"]), ""),
                ("V_j", shape(B_c_, d_), n(parts["V_j"]), ""),
                ("S_ij = Q_i K_jᵀ / √d", shape(B_r_, B_c_), n(parts["S_ij"]), f"{memory}에 쓰지 않는다"),
                ("O_i", shape(B_r_, d_), n(parts["O_i"]), ""),
                ("m_i", n(B_r_), n(parts["m_i"]), "행마다 최댓값"), ("ℓ_i", n(B_r_), n(parts["ℓ_i"]), "행마다 지수 합"),
                ("Σ", "", n(total_), why.sentence("원소 ≤ M = ", n(M_)))])
    return lines(
        why.sentence(f"{memory}: Q, K, V (", shape(N_, d_), "), O (", shape(N_, d_), "), m, ℓ (", n(N_), ")"),
        why.sentence("   │  블록 단위로 올린다 (K, V는 B_c = ", n(B_c_), "행, Q는 B_r = ", n(B_r_), "행)"),
        "   ▼",
        why.sentence("SRAM (SM 하나의 Shared Memory ", why.binary(var("smem", preset.smem_per_SM), "KiB", src),
                     f", {note.dtype} 원소 M = ", n(M_), "개)"),
        "각 줄: 블록, 모양, 원소 수",
        *box,
        why.sentence("   합계 ", n(total_), "원소 × ", n(s_), " Byte = ", n(bytes_), " Byte ≤ ",
                     n(var("smem", preset.smem_per_SM)), " Byte"),
        f"   │  S_ij와 P̃_ij는 SRAM에서 쓰고 버린다: {memory}에 쓰지 않는다",
        "   ▼",
        f"{memory}: O_i, m_i, ℓ_i만 고쳐 쓴다",
    )


def check_table(results, d: int) -> dict:
    """The FlashAttention check: error against standard attention and counted vs modelled HBM traffic."""
    src = {**why.NOTE_NAMES, "N": "toml:note.flash_check.N", "d": "toml:note.flash_check.d", "B_r": "toml:note.flash_check.blocks",
           "B_c": "toml:note.flash_check.blocks"}
    eps = named("ε", 1 / Term.of(2) ** 52)

    def row(N, B_r, B_c, error, counted):
        key = f"N = {N}, B_r = {B_r}, B_c = {B_c}"
        src[("오차", Fraction(error))] = f"measured:max |O_flash − O_표준| (float64, {key})"
        src[("센 이동", counted)] = f"simulated:attention.flash_forward가 센 DRAM 원소 ({key})"   # a count, not a timing
        src[("name", "센 이동")] = ("flash_forward가 센 DRAM 이동", "원소")
        src[("name", "오차")] = ("표준 어텐션과의 최대 차이", "")
        src[("name", "N")], src[("name", "d")] = ("시퀀스 길이", "토큰"), ("헤드 차원", "")
        src[("name", "Q_Flash")] = ("FlashAttention의 DRAM 이동 (원소 수)", "원소")   # the table counts elements
        return (why.var("N", N, src), why.var("B_r", B_r, src), why.var("B_c", B_c, src),
                "예" if N % B_r or N % B_c else "아니오",
                why.decimal(named("오차/ε", var("오차", Fraction(error)) / eps), 1, src), why.var("센 이동", counted, src),
                why.integer(attention.flash_traffic_term(N, d, B_c), src))

    rows = [row(*r) for r in results]
    worst = max(r[3] for r in results)
    return {
        "check-table": tables.markdown(["N", "B_r", "B_c", "나머지", "오차 (ε)", "센 이동", "식의 값"], rows, "rrrlrrr"),
        "check-verdict": f"모두 허용치 {attention.TOLERANCE_TEXT} 이내였다" if worst <= attention.TOLERANCE
        else f"일부가 허용치 {attention.TOLERANCE_TEXT}를 넘었다",
    }


def papers(note) -> dict:
    preset, dtype = note.preset, note.dtype
    a100 = note.catalog.preset("A100_SXM")
    short = {"FlashAttention": "FA1", "FlashAttention-2": "FA2", "FlashAttention-3": "FA3"}
    bib = {"FlashAttention": "dao2022flashattention", "FlashAttention-2": "dao2023flashattention2",
           "FlashAttention-3": "shah2024flashattention3"}
    # the papers' rates are FP16 FLOPs/s (PAPER_DTYPE): against that dtype's peak, never the note's own dtype's
    paper_dtype = PAPER_DTYPE if PAPER_DTYPE in preset.peak and PAPER_DTYPE in a100.peak else dtype
    src = {**why.NOTE_NAMES, **sources(note), "P_A100": f"toml:presets.A100_SXM.peak.{paper_dtype}",
           why.WORK: paper_dtype, "P": f"toml:presets.{note.hardware}.peak.{paper_dtype}"}
    src[("name", "논문 값")] = ("논문이 보고한 값", "")

    def claim(c):
        """The claim's value, each end a citation (the paper's key, where it says so), the prefix ("최대 ") outside."""
        scale, unit = {"percent": (100, "%"), "ratio": (1, "배"), "tera": (Fraction(1, 10**12), " TFLOPs/s"),
                       "peta": (Fraction(1, 10**15), " PFLOPs/s")}[c.kind]
        paper = {**src, "논문 값": f"cite:{bib[c.paper]}, 초록",   # (each paper states these results in its abstract)
                 ("name", "논문 값"): (f"{short[c.paper]} 논문이 보고한 값: {c.what}",
                                      "FLOPs/s" if c.kind in ("tera", "peta") else "")}

        def end(x, last: bool):   # one end of the claim ("50" of "50–73%"), with its record
            shown_ = claims.claim_text(replace(c, low=x, high=None, prefix=""))
            digits = None if (x * scale).denominator == 1 and c.kind != "ratio" else 1
            return why.shown(var("논문 값", x), shown_ if last else shown_.removesuffix(unit), paper, digits=digits,
                             scale=scale, unit=unit.strip())

        value = end(c.low, True) if c.high is None else why.sentence(end(c.low, False), "–", end(c.high, True))
        return why.sentence(c.prefix, value) if c.prefix else value

    rows = [(f"[{short[c.paper]}]({c.url})", claim(c), claims.what_text(c)) for c in claims.CLAIMS]
    fa3 = next(c for c in claims.CLAIMS if c.paper == "FlashAttention-3" and c.kind == "tera")
    fa2 = next(c for c in claims.CLAIMS if c.paper == "FlashAttention-2" and c.kind == "tera")
    lo, hi = attention.FA1_SHARE_OF_PEAK
    sram_bw, sram_size = attention.FA1_A100_SRAM
    bits = gemm.MANTISSA_BITS
    fa1 = {**why.NOTE_NAMES, "η_FA1": "cite:dao2023flashattention2, 초록", "η_FA1,상한": "cite:dao2023flashattention2, 초록",
           ("name", "η_FA1,상한"): ("FA1이 A100 최대 성능에서 낸 비율의 상한", "")}
    return {
        "paper-table": tables.markdown(["논문", "값", "결과"], rows, "lrl"),
        "paper-dtype": paper_dtype,
        "fa3-share": why.percent(named("R_FA3/P", (r3 := var("R_FA3", fa3.low)) / var("P", preset.P(paper_dtype))), 1,
                                 {**src, "R_FA3": "cite:shah2024flashattention3, 초록"}),
        "fa3-tera": tera_number(r3, 6, {**src, "R_FA3": "cite:shah2024flashattention3, 초록"}),
        "fa2-share": why.percent(named("R_FA2/P_A100", (r2 := var("R_FA2", fa2.low)) / var("P_A100", a100.P(paper_dtype))), 1,
                                 {**src, "R_FA2": "cite:dao2023flashattention2, 초록"}),
        "fa2-tera": tera_number(r2, 6, {**src, "R_FA2": "cite:dao2023flashattention2, 초록"}),
        "fa1-share": why.sentence(
            why.shown(var("η_FA1", lo), fmt.number(lo * 100), fa1, digits=None if (lo * 100).denominator == 1 else 6,
                      scale=100, unit="%"), "–", why.percent(var("η_FA1,상한", hi), 0, fa1)),
        "fa1-sram-bw": why.shown(var("BW_SRAM", sram_bw), fmt.number(sram_bw / 10**12), {**why.NOTE_NAMES, "BW_SRAM": "cite:dao2022flashattention, §2.1"},
                                 digits=None if (Fraction(sram_bw) / 10**12).denominator == 1 else 6, scale=Fraction(1, 10**12), unit="TB/s"),
        "fa1-sram-size": why.shown(var("SRAM 크기", sram_size), fmt.number(sram_size / 10**6), {**why.NOTE_NAMES, "SRAM 크기": "cite:dao2022flashattention, 그림 1 왼쪽 (§2.1은 SM당 192KB × 108)"},
                                   digits=None if (Fraction(sram_size) / 10**6).denominator == 1 else 6, scale=Fraction(1, 10**6), unit="MB"),
        "q-bits-fp32": why.var("bits_FP32", bits["FP32"], {**why.NOTE_NAMES, "bits_FP32": MANTISSA_FIGURE}),
        "q-bits-tf32": why.var("bits_TF32", bits["TF32"], {**why.NOTE_NAMES, "bits_TF32": MANTISSA_FIGURE}),
        "q-ulp-ratio": why.around(why.integer(named("2^(bits_FP32 − bits_TF32)", Term.of(2) ** (bits["FP32"] - bits["TF32"])), why.NOTE_NAMES),
                                  fmt.integer(2 ** (bits["FP32"] - bits["TF32"])) + "배"),
    }


# ---------------------------------------------------------------- figures: model bounds, not measurements

FIG_TERA = float(fmt.TERA)
MIB = 2**20


def traffic_curves(note, N_values):
    """(standard, flash) HBM Byte per head for each N, with the note's d, dtype and SRAM (smem per SM)."""
    d, s = note.attention.d_head, note.s
    M = attention.sram_elements(note.preset.smem_per_SM, s)
    _, B_c = attention.flash_blocks(M, d)
    standard = [attention.standard_traffic(N, d) * s for N in N_values]
    flash = [attention.flash_traffic(N, d, B_c) * s for N in N_values]
    return standard, flash, M, B_c


@figure("flash-hbm-traffic", "note")
def traffic_figure(note):
    """Standard attention Θ(Nd + N²) against FlashAttention Θ(N²d²/M), per head, log–log."""
    from roofline.show import style
    from roofline.show.style import Figure

    d, seq = note.attention.d_head, note.attention.seq
    N_values = [2**k for k in range(8, 18)]
    if seq not in N_values:
        N_values = sorted(set(N_values) | {seq})
    standard, flash, M, B_c = traffic_curves(note, N_values)
    fig = Figure(figsize=(5.6, 4.4))
    ax = fig.subplots()
    # mathtext only for superscripts (N², d²): no minus sign inside $…$ (U+2212 is missing)
    ax.loglog(N_values, np.array(standard) / MIB, "o-", color="#d62728", ms=4,
              label=r"표준: $(4Nd + 4N^2)\,s$, $\Theta(Nd + N^2)$")
    ax.loglog(N_values, np.array(flash) / MIB, "s-", color="#1f77b4", ms=4,
              label=r"FlashAttention: $\Theta(N^2 d^2 / M)$")
    i = N_values.index(seq)
    for values, color, offset, ha in ((standard, "#d62728", (-8, 10), "right"),
                                      (flash, "#1f77b4", (8, -16), "left")):
        ax.annotate(f"N = {fmt.integer(seq)}: {fmt.decimal(values[i] / MIB, 1)} MiB",
                    xy=(seq, values[i] / MIB), xytext=offset, ha=ha, textcoords="offset points",
                    fontsize=11, color=color,
                    bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "none", "alpha": 0.9})
    ax.set_xlabel("시퀀스 길이 N (로그 축)")
    ax.set_ylabel(f"헤드 하나의 {ko.memory_name(note.preset.memory)} 이동 (MiB, 로그 축)")
    ax.set_title(f"{note.dtype}, d = {d}, M = {fmt.integer(M)} 원소, B_c = {B_c}\n모델 값 (측정값 아님)",
                 fontsize=11)
    ax.legend(loc="upper left", fontsize=11, framealpha=0.95)
    style.plain_log_ticks(ax)
    return fig


@figure("gemm-batch-roofline", "note")
def batch_figure(note):
    """R_roof(b) = min(P, BW · I(b)) for (b×K)·(K×N) on the note's preset, with the dense and 2:4-sparse peaks."""
    from roofline.show import style
    from roofline.show.style import Figure

    hw = note.preset.roofline(note.dtype)
    N, K, s = note.gemm.N, note.gemm.K, note.s
    rows = gemm.batch_sweep(note.gemm.batches, N, K, hw, s)
    b = np.unique(np.geomspace(1, max(note.gemm.batches) * 2, 300).round().astype(int))
    I = np.array([float(gemm.gemm(int(batch), N, K, s).I) for batch in b])   # the library's I(b), whole batches
    P, BW = float(hw.P), float(hw.BW)
    fig = Figure(figsize=(5.6, 4.4))
    ax = fig.subplots()
    ax.loglog(b, np.minimum(P, BW * I) / FIG_TERA, color="black", lw=2, label="상한 min(P, BW × I(b))")
    sparse = note.preset.sparse.get(note.dtype)
    if sparse is not None:
        ax.axhline(float(sparse) / FIG_TERA, color="gray", ls=":", lw=1.2,
                   label=f"2:4 희소 최대 {fmt.number(sparse / 10**12, 1)} {fmt.unit('TFLOPs/s', note.dtype)}\n(dense GEMM은 못 쓴다)")
    b_star = gemm.crossover_batch(N, K, hw, s)
    if b_star is not None:
        ax.axvline(float(b_star), color="gray", ls="--", lw=1)
        ax.annotate(f"I(b) = I* = {fmt.decimal(hw.ridge, 1)}\nb ≈ {fmt.decimal(b_star, 1)}",
                    xy=(float(b_star), P / FIG_TERA), xytext=(float(b_star) * 1.3, P / FIG_TERA / 8), fontsize=11,
                    arrowprops={"arrowstyle": "->", "color": "gray"})
    for row in rows:
        ax.plot(row.b, float(row.timing.R_roof) / FIG_TERA, "o", color="#d62728" if row.timing.memory_bound else "#2ca02c",
                ms=6)
    # under the dense roof it names, on the left where the roof is the bandwidth line far below: never beside the sparse line
    ax.text(1.2, P / FIG_TERA / 1.12, f"dense 최대 P = {fmt.number(hw.P / 10**12, 1)} {fmt.unit('TFLOPs/s', note.dtype)}", fontsize=11,
            color="dimgray", va="top")
    ax.plot([], [], "o", color="#d62728", label=f"{ko.memory_name(note.preset.memory)} 대역폭이 상한을 정함")
    ax.plot([], [], "o", color="#2ca02c", label="연산 성능이 상한을 정함")
    ax.set_ylim(top=float(sparse or hw.P) / FIG_TERA * 3)
    ax.set_xlabel("배치 크기 b (로그 축)")
    ax.set_ylabel(f"성능 상한 ({fmt.unit('TFLOPs/s', note.dtype)}, 로그 축)")
    ax.set_title(f"{note.preset.name} {note.dtype}: (b×{fmt.integer(K)})·({fmt.integer(K)}×{fmt.integer(N)}) GEMM\nRoofline 상한 (측정값 아님)",
                 fontsize=11)
    ax.legend(loc="lower right", fontsize=10, framealpha=0.95)
    style.plain_log_ticks(ax)
    return fig
