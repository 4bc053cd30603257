"""「모델과 실측」: published kernels (roofline.published) under the model's two-level bound (roofline.hierarchy).

    hierarchy_section(note)   → the A6000's shared-memory bandwidth and clock, the level formulas
    ladder_section(note)      → the SGEMM ladder's table, the sentences for points above a bound, the rank correlation
    attention_section(note)   → FlashAttention's points (A100, H100)
    ladder_explorer(note)     → pick a kernel: each level's bound, the measurement, the share (predict: which level)
    exercises(note)           → a thread tile's shared-memory traffic

The off-chip memory level is DRAM (Nsight Compute's word; its symbols Q_DRAM, R_DRAM): a sentence, a label or a
panel about one GPU names that GPU's memory (`ex.memory_name`: GDDR6 on the RTX A6000, HBM on the A100, H100).

The measured values are quoted with their bib key and locator (origin "cite:<key>, <locator>", the locator in the
record's name too); every bound is the model's, each with its derivation. The page's problem is the note's (`Note`): its `dtype`
is the element of the exercise's thread tile; the kernels' own GPUs and types are the sources'.
"""
from __future__ import annotations

from fractions import Fraction

from roofline import hierarchy, published
from roofline.derive import named, var
from roofline.show import exercises as ex
from roofline.show import explorer, fmt, ko, variants, why
from roofline.show import predict as pr
from roofline.show.figures import figure
from roofline.show.mistakes import Mistake

A6000 = "RTX_A6000"
NAMES = {   # the page's symbols: (Korean name, unit); M and K are the course's (why.NAMES)
    "M": why.NAMES["M"], "K": why.NAMES["K"],
    "BM": ("블록 타일의 행 수", ""), "BN": ("블록 타일의 열 수", ""), "BK": ("K 조각의 폭", ""),
    "TM": ("스레드 타일의 행 수", ""), "TN": ("스레드 타일의 열 수", ""),
    "Q_smem": ("Shared Memory를 오간 양", "Byte"),
    "BW_smem": ("Shared Memory 대역폭 (모든 SM)", "Byte/s"), "f": ("FP32 최대 성능이 뜻하는 클럭", "Hz"),
    "f_meas": ("측정값이 요구하는 Shared Memory 클럭", "Hz"), "smem_per_clock": ("SM 하나가 클럭마다 내주는 Shared Memory", "Byte"),
    "fp32_per_clock": ("SM 하나의 클럭당 FP32 FLOPs", "FLOPs"),
    "R_smem": ("Shared Memory 단계의 상한", "FLOPs/s"), "R_bound": ("묶는 단계의 상한", "FLOPs/s"),
    "R_meas/R_bound": ("묶는 상한 대비 측정 처리율", ""), "R_meas/R_smem": ("Shared Memory 상한 대비 측정 처리율", ""),
    "q_thread": ("스레드 하나가 k 하나마다 읽는 Shared Memory", "Byte"), "t": ("측정 시간", "s"),
    "ρ": ("모델 상한과 측정값의 순위 상관 (Spearman)", ""),
}
LEVEL_WORDS = {"Shared Memory": "Shared Memory", "연산": "연산 성능"}   # and "DRAM": the GPU's memory (level_word)


def memory_names(memory: str) -> dict:
    """The names of the DRAM level's symbols on a GPU whose memory is `memory` (GDDR6, HBM): the generic level and
    that GPU's kind of it."""
    level = f"DRAM({memory})"
    return {"Q_DRAM": (f"{level}과 칩 사이에 옮긴 양", "Byte"), "R_DRAM": (f"{level} 단계의 상한", "FLOPs/s"),
            "BW_smem/BW": (f"Shared Memory 대역폭 / {memory} 대역폭", ""),
            "R_meas/R_DRAM": (f"{level} 상한 대비 측정 처리율", ""), "BW": (f"{memory} 대역폭", "Byte/s")}


def level_word(level: str, memory: str) -> str:
    """The binding level as the page says it: the GPU's memory by its name for DRAM ("GDDR6"), else its word."""
    return memory if level == "DRAM" else LEVEL_WORDS[level]


def level_choices(memory: str) -> list[list[str]]:
    """The three levels to choose from, the DRAM one named by the GPU's memory."""
    return [["DRAM", memory], ["Shared Memory", "Shared Memory"], ["연산", "연산 성능"]]


def memory_of(kernel, catalog) -> str:
    """The memory of the GPU `kernel` ran on, by its name (course.toml's `memory`)."""
    return ex.memory_name(catalog.presets[kernel.gpu])


def sources(kernel, catalog) -> dict:
    """symbol → origin for one kernel: the preset's keys, the dtype table, the source's sizes, tiles and values."""
    key, cite = kernel.gpu, f"cite:{kernel.bibkey}, {kernel.locator}"
    tiles_cite = f"cite:{kernel.bibkey}, {kernel.tiling_locator or kernel.locator}"
    src = {("name", k): v for k, v in {**NAMES, **memory_names(memory_of(kernel, catalog))}.items()}
    src.update({"P": f"toml:presets.{key}.peak.{kernel.dtype}", "BW": f"toml:presets.{key}.BW",
                "P_FP32": f"toml:presets.{key}.peak.FP32", "SMs": f"toml:presets.{key}.SMs",
                "smem_per_clock": f"toml:presets.{key}.smem_per_clock",
                "fp32_per_clock": f"toml:presets.{key}.fp32_per_clock", "s": f"toml:dtypes.{kernel.dtype}",
                "R_meas": cite, "F": cite, "Q": cite, "t": cite})
    src.update({k: cite for k in ("M", "N", "K")})
    src.update({k: tiles_cite for k in ("BM", "BN", "BK", "TM", "TN")})
    src[("name", "R_meas")] = ("측정 처리율", "FLOPs/s")   # (where it is quoted from: its origin, the locator)
    if kernel.rate is None:   # (the figure and column they are read from: their origin's locator)
        src[("name", "F")] = ("논문이 센 연산량", "FLOPs")
        src[("name", "Q")] = (f"논문이 잰 {memory_of(kernel, catalog)} 읽기·쓰기", "Byte")
        src[("name", "t")] = ("논문이 잰 시간", "s")
    return src


def tera(q, src, digits: int = 2):
    """FLOPs/s in TFLOPs/s with its record."""
    return why.shown(q, fmt.decimal(Fraction(q.value) / 10**12, digits, grouping=True), src, digits=digits,
                     scale=Fraction(1, 10**12), unit="TFLOPs/s")


def cited(value, bibkey: str):
    """A measured value in a table's cell with its bib key after it ("0.31 [boehm2022sgemm]"), keeping its record."""
    return why.sentence(value, f" [{bibkey}]")   # (the key outside the number's button)


def tiling_sentence(t, src, label: bool = False):
    """`tiling_text` with each side's record (the source's tile parameters): a button each, or (`label`, a table's
    name of the kernel's tiles) a `why.label` each, with the same origin."""
    side = why.label_of if label else why.side
    if t is None:
        return tiling_text(t)
    if not t.smem:
        return why.sentence("BM×BN = ", side("BM", t.BM, src), "×", side("BN", t.BN, src), ", Shared Memory 없음")
    sides = [side(k, getattr(t, k), src) for k in ("BM", "BN", "BK", "TM", "TN")]
    return why.sentence("BM×BN×BK = ", sides[0], "×", sides[1], "×", sides[2], ", TM×TN = ", sides[3], "×", sides[4])


def tiling_text(t) -> str:
    if t is None:
        return "공개되지 않음"
    if not t.smem:
        return "Shared Memory 없음"
    return f"BM×BN×BK = {t.BM}×{t.BN}×{t.BK}, TM×TN = {t.TM}×{t.TN}"


def placed(note):
    """Every published kernel placed (the term's presets)."""
    return published.placements(note.catalog)


def ranks_of(ladder) -> tuple[list, list]:
    """The model's and the measured ranks over the ladder (1 = the slowest; ties share the average rank)."""
    return (hierarchy.ranks([p.R_bound.value for p in ladder]), hierarchy.ranks([p.R_meas.value for p in ladder]))


RANKED = "code:page.ladder_section(note)"   # ranks and ρ: the page's call ranks the ladder (roofline.hierarchy.ranks)


def rank_text(r, symbol: str):
    """A rank (1 = the slowest; a tie's average, 1.5) with its record: the ladder's order, ranked by the page."""
    name = {"모델 순위": "모델의 상한으로 센 순위", "측정 순위": "측정 처리율로 센 순위"}[symbol] + " (느린 쪽이 1, 같으면 평균)"
    return why.shown(var(symbol, r), fmt.number(r, 1), {("name", symbol): (name, ""), symbol: RANKED}, digits=1)


# ---------------------------------------------------------------- the two levels of the A6000

def hierarchy_section(note) -> dict:
    """The A6000's clock, shared-memory bandwidth, peak and memory bandwidth, each with its record, and the name of
    its memory (course.toml's `memory`)."""
    preset = note.catalog.presets[A6000]
    kernel = published.sgemm_ladder()[0]
    src = sources(kernel, note.catalog)
    f, bw = hierarchy.clock(preset), hierarchy.smem_bandwidth(preset)
    return {
        "a6000": preset.name, "a6000-memory": ex.memory_name(preset),
        "a6000-P": tera(var("P", preset.P("FP32")), src, 1),
        "a6000-BW": why.shown(var("BW", preset.BW), fmt.decimal(Fraction(preset.BW) / 10**9, 0), src, digits=0,
                              scale=Fraction(1, 10**9), unit="GB/s"),
        "a6000-SMs": why.integer(var("SMs", preset.SMs), src),
        "a6000-per-clock": why.integer(var("smem_per_clock", preset.smem_per_clock), src),
        "a6000-clock": why.shown(f, fmt.decimal(Fraction(f.value) / 10**6, 1, grouping=True), src, digits=1, scale=Fraction(1, 10**6),
                                 unit="MHz"),
        "a6000-smem-bw": why.shown(bw, fmt.decimal(Fraction(bw.value) / 10**12, 2), src, digits=2,
                                   scale=Fraction(1, 10**12), unit="TB/s"),
        "a6000-ratio": why.number(named("BW_smem/BW", bw / var("BW", preset.BW)), 1, src),
    }


# ---------------------------------------------------------------- the SGEMM ladder

def ladder_headers(memory: str) -> list[str]:
    """The ladder table's columns; its kernels ran on one GPU, whose memory (`memory`) names the DRAM level."""
    return ["커널", "블록 타일, 스레드 타일", f"{memory} 상한", "Shared Memory 상한", "묶는 단계", "측정", "몫",
            "모델 순위", "측정 순위"]


def ladder_rows(note) -> list[list]:
    ladder = [p for p in placed(note) if p.kernel.family == "sgemm"]
    model, meas = ranks_of(ladder)
    rows = []
    for p, rm, rr in zip(ladder, model, meas):
        src = sources(p.kernel, note.catalog)
        rows.append([
            why.names_in(p.kernel.name, KERNEL_NAMES),
            tiling_text(p.kernel.tiling) if not p.kernel.tiling or not p.kernel.tiling.smem
            else tiling_sentence(p.kernel.tiling, src, label=True),
            tera(p.R_DRAM, src) if p.R_DRAM else "–",
            tera(p.R_smem, src) if p.R_smem else "–",
            level_word(p.level, memory_of(p.kernel, note.catalog)) + (" (넘음)" if p.above else ""),
            cited(tera(p.R_meas, src), p.kernel.bibkey),
            why.percent(p.share, 1, src), rank_text(rm, "모델 순위"), rank_text(rr, "측정 순위")])
    return rows


def above_sentences(note) -> str:
    """For every kernel above its binding bound, what the model says it asks of the machine."""
    out = []
    for p in placed(note):
        if p.above is None:
            continue
        src = sources(p.kernel, note.catalog)
        memory = memory_of(p.kernel, note.catalog)
        if p.above == "DRAM":
            pieces = [f"{p.kernel.name}의 측정값은 재사용 없이 센 {memory} 상한의 ", why.number(p.reason, 1, src),
                      f"배다. 모델이 센 {memory} 이동량 가운데 일부만 실제로 {ko.particle(memory, '을/를')} 오갔다는 뜻이다. 이 커널은 Shared Memory를 쓰지 "
                      "않지만, 블록의 스레드들이 같은 A 행과 B 열을 읽으므로 L1·L2 캐시가 그것을 붙잡는다(③의 캐시 "
                      "시뮬레이션이 세는 재사용). "]
            if p.cached_R is not None:
                t = p.kernel.cached
                pieces += ["캐시가 ", why.side("BM", t.BM, src), "×", why.side("BN", t.BN, src),
                           f" 블록의 입력을 모두 붙잡는다면 {memory} 상한은 ",
                           tera(p.cached_R, src), " TFLOPs/s로, 측정값보다 높다. "]
        else:
            f = hierarchy.clock(note.catalog.presets[p.kernel.gpu])
            over = named("R_meas/R_smem", p.R_meas / p.R_smem)
            pieces = [f"{p.kernel.name}의 측정값은 Shared Memory 상한의 ", why.percent(over, 1, src),
                      "다. 이 측정값을 내려면 Shared Memory가 ",
                      why.shown(p.reason, fmt.decimal(Fraction(p.reason.value) / 10**6, 0, grouping=True), src,
                                digits=0, scale=Fraction(1, 10**6), unit="MHz"),
                      " MHz 이상으로 돌아야 한다. FP32 최대 성능이 뜻하는 클럭 ",
                      why.shown(f, fmt.decimal(Fraction(f.value) / 10**6, 1, grouping=True), src, digits=1, scale=Fraction(1, 10**6),
                                unit="MHz"),
                      " MHz보다 높다. GPU는 부하에 따라 사양의 클럭보다 빨리 돌 수 있다(GPU Boost). 상한은 사양의 클럭으로 "
                      "계산했다. "]
        out.append(why.sentence(*pieces))
    return why.sentence(*out) if out else "모든 커널이 묶는 상한 아래에 있다."


def rank_correlation(note):
    """ρ between the model's bound and the measured rate over the kernels whose tiles the source publishes."""
    ladder = [p for p in placed(note) if p.kernel.family == "sgemm" and p.kernel.tiling]
    return hierarchy.spearman([p.R_bound.value for p in ladder], [p.R_meas.value for p in ladder]), len(ladder)


def rank_correlation_square(note) -> Fraction:
    """ρ² exactly (`rank_correlation` takes its root to 12 digits): the panel shows ρ = √ρ², not that truncated root
    as an exact value."""
    ladder = [p for p in placed(note) if p.kernel.family == "sgemm" and p.kernel.tiling]
    return hierarchy.spearman_square([p.R_bound.value for p in ladder], [p.R_meas.value for p in ladder])


def ladder_section(note) -> dict:
    from roofline.show import tables

    rho, n = rank_correlation(note)
    square = rank_correlation_square(note)
    if rho >= 0 and fmt.root(square, 2) == fmt.decimal(rho, 2):   # ρ = √ρ²: its one inexact step shown as a root
        shown_rho = why.root(var("ρ²", square), 2, {("name", "ρ"): NAMES["ρ"], "ρ²": RANKED,
                                                   ("name", "ρ²"): ("순위 상관의 제곱", "")}, "ρ")
    else:
        shown_rho = why.shown(var("ρ", rho), fmt.decimal(rho, 2), {("name", "ρ"): NAMES["ρ"], "ρ": RANKED}, digits=2)
    rows = ladder_rows(note)
    first = published.sgemm_ladder()[0]
    src = sources(first, note.catalog)
    M, N, K = first.size
    warp = next(k for k in published.sgemm_ladder() if k.key == "sgemm-10").tiling
    return {"sgemm-size": why.sentence(why.var("M", M, src), "×", why.var("N", N, src), "×", why.var("K", K, src)),
            "warp-thread-tile": why.sentence(why.side("TM", warp.TM, src), "×", why.side("TN", warp.TN, src)),
            "table-ladder": tables.markdown(ladder_headers(memory_of(first, note.catalog)), rows, "llrrlrrrr"),
            "above": above_sentences(note), "rho": shown_rho,
            "rho-n": why.shown(var("커널 수", n), str(n), {("name", "커널 수"): ("타일을 공개한 커널 수", ""), "커널 수": RANKED},
                               digits=None),
            "fig-ladder": ladder_figure(note)}


# ---------------------------------------------------------------- FlashAttention

KERNEL_NAMES = ("FlashAttention-2", "FlashAttention-3", "GPT-2")   # names with digits in the kernels' names (why.name)
# the kernels ran on several GPUs: the memory column is the generic level, each row's level word its GPU's memory
ATTENTION_HEADERS = ["커널", "GPU", "자료형", "DRAM 상한", "연산 상한", "묶는 단계", "측정", "몫"]


def attention_section(note) -> dict:
    from roofline.show import tables

    rows = []
    for p in placed(note):
        if p.kernel.family != "attention":
            continue
        src = sources(p.kernel, note.catalog)
        preset = note.catalog.presets[p.kernel.gpu]
        rows.append([why.names_in(p.kernel.name, KERNEL_NAMES), preset.name, p.kernel.dtype,
                     tera(p.R_DRAM, src, 1) if p.R_DRAM else "공개되지 않음",
                     tera(var("P", preset.P(p.kernel.dtype)), src, 1), level_word(p.level, ex.memory_name(preset)),
                     cited(tera(p.R_meas, src, 1), p.kernel.bibkey), why.percent(p.share, 1, src)])
    return {"table-attention": tables.markdown(ATTENTION_HEADERS, rows, "lllrrlrr")}


# ---------------------------------------------------------------- the figure

# the figure's colours, each named once (the marks and their legend entries): the DRAM roof, the Shared Memory roof
# and a measurement at I_smem, a measurement under its binding bound, and one above it
DRAM_COLOR, SMEM_COLOR, UNDER_COLOR, OVER_COLOR = "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728"


@figure("measured-ladder", "note")
def ladder_figure(note):
    """The A6000's two rooflines (DRAM, its GDDR6 by the preset's name; Shared Memory; the FP32 peak) on log–log
    axes, each SGEMM kernel of the ladder at its DRAM intensity: its measured rate (a dot) joined to its binding bound (a ring)."""
    from roofline.show import style
    from roofline.show.style import Figure

    preset = note.catalog.presets[A6000]
    P, BW = float(preset.P("FP32")), float(preset.BW)
    BWs = float(hierarchy.smem_bandwidth(preset).value)
    fig = Figure(figsize=(6.4, 4.6))
    ax = fig.subplots()
    xs = [2.0**k for k in range(-4, 11)]
    memory = ex.memory_name(preset)
    ax.loglog(xs, [min(P, BW * x) for x in xs], color=DRAM_COLOR, lw=2, label=f"DRAM({memory}) 지붕 (x = I_DRAM)")
    ax.loglog(xs, [min(P, BWs * x) for x in xs], color=SMEM_COLOR, lw=2, ls="--", label="Shared Memory 지붕 (x = I_smem)")
    groups: dict[float, list] = {}
    for p in placed(note):
        k = p.kernel
        if k.family != "sgemm" or k.tiling is None:
            continue
        b = p.bound
        x = float(b.F.value / b.Q_DRAM.value)
        y_meas, y_bound = float(p.R_meas.value), float(p.R_bound.value)
        ax.plot([x, x], [y_meas, y_bound], color="gray", lw=1)
        ax.plot([x], [y_bound], "o", mfc="none", color="black", ms=7)
        ax.plot([x], [y_meas], "o", color=UNDER_COLOR if y_meas <= y_bound else OVER_COLOR, ms=5)
        if b.Q_smem is not None:   # the same measurement at the shared-memory intensity, under the dashed roof
            ax.plot([float(b.F.value / b.Q_smem.value)], [y_meas], "D", mfc="none", color=SMEM_COLOR, ms=5)
        groups.setdefault(x, []).append((y_meas, k.name))
    for x, items in groups.items():   # kernels at one DRAM intensity share one label, listed from the slowest
        items.sort()
        ax.annotate(", ".join(name for _, name in items), (x, items[0][0]), textcoords="offset points",
                    xytext=(6, -4), fontsize=7, va="top", ha="left")
    ax.plot([], [], "o", mfc="none", color="black", label="묶는 상한")
    ax.plot([], [], "o", color=UNDER_COLOR, label="측정 (상한 아래)")
    ax.plot([], [], "o", color=OVER_COLOR, label="측정 (상한 위)")
    ax.plot([], [], "D", mfc="none", color=SMEM_COLOR, label="측정 (x = I_smem)")
    ax.set_xlabel("산술 강도 (FLOPs/Byte, 로그 축): 원은 I_DRAM = F/Q_DRAM, 마름모는 I_smem = F/Q_smem")
    ax.set_ylabel("성능 (FLOPs/s, 로그 축)")
    ax.set_title(f"{preset.name}, FP32: SGEMM 사다리와 두 지붕", fontsize=11)
    ax.legend(loc="lower right", fontsize=8, framealpha=0.95)
    style.power_log_ticks(ax)
    return fig


# ---------------------------------------------------------------- the explorer: pick a kernel, predict the level

def kernel_state(note, key: str) -> dict:
    """One kernel of the ladder (a tiling the source publishes): each level's bound, the binding level, the measured
    rate and the share; predict first: which level binds."""
    p = next(p for p in placed(note) if p.kernel.key == key)
    src = sources(p.kernel, note.catalog)
    memory = memory_of(p.kernel, note.catalog)
    fields = {"k-name": p.kernel.name, "k-tiles": tiling_sentence(p.kernel.tiling, src),
              "k-dram": tera(p.R_DRAM, src), "k-smem": tera(p.R_smem, src) if p.R_smem else "– (Shared Memory 없음)",
              "k-level": level_word(p.level, memory), "k-meas": tera(p.R_meas, src),
              "k-share": why.percent(p.share, 1, src)}
    return {"fields": fields,
            "predict": level_predict(p, note.catalog.presets[p.kernel.gpu].P(p.kernel.dtype), memory)}


def level_predict(p, preset_peak, memory: str) -> dict:
    """Which level binds this kernel: the lowest of the bounds (the DRAM level named by the GPU's `memory`).
    Mistakes: the thread tile's reads left out (the DRAM level alone), the block tile's reuse left out (no reuse)."""
    why_text = (f"{memory} 상한 {fmt.tera(p.R_DRAM.value, 2)} TFLOPs/s"
                + (f", Shared Memory 상한 {fmt.tera(p.R_smem.value, 2)} TFLOPs/s" if p.R_smem else "")
                + f" 가운데 낮은 쪽이 묶는다: {level_word(p.level, memory)}.")
    P = preset_peak
    dram_only = hierarchy.binding(P, p.R_DRAM.value)
    mistakes = [Mistake("hbm-only", dram_only,
                        f"Shared Memory 단계를 빼고 {memory}만 보았다. 스레드 타일이 작으면 Shared Memory가 먼저 닿는다.")]
    q = pr.choice("level", f"{p.kernel.name}: 어느 단계가 성능을 묶을까?", level_choices(memory), p.level, why_text,
                  mistakes)
    return pr.part([q], fields=["k-dram", "k-smem", "k-level", "k-share"])


def ladder_explorer(note) -> explorer.Explorer:
    """The reader picks a kernel of the ladder (those with a published tiling) and first guesses the binding level."""
    keys = [k.key for k in published.sgemm_ladder() if k.tiling is not None]
    names = {k.key: k.name for k in published.KERNELS}
    options = [[key, names[key]] for key in keys]
    first = keys[2]
    states = {key: kernel_state(note, key) for key in keys}
    data = {"controls": {"kernel": {"kind": "select", "options": options, "initial": first}},
            "parts": [{"on": ["kernel"], "states": states}], "plots": {}, "hash": {"kernel": "kernel"}}
    uid = "rl-measured"
    f = states[first]["fields"]
    keys_shown = ["k-dram", "k-smem", "k-level", "k-share", "k-tiles"]
    memory = ex.memory_name(note.catalog.presets[A6000])   # the ladder's GPU
    heads = [f"{memory} 상한 (TFLOPs/s)", "Shared Memory 상한 (TFLOPs/s)", "묶는 단계", "묶는 상한 대비 측정",
             "블록 타일, 스레드 타일"]
    # the summary's first number is a single one (k-meas): a sentence field's buttons are replaced, not updated,
    # when the kernel changes
    body = (f'<p class="rl-summary" aria-live="polite">{explorer.field("k-name", f["k-name"])}: 측정 '
            f'{explorer.field("k-meas", f["k-meas"])} TFLOPs/s</p>'
            + explorer.table(["항목", "값"], list(zip(heads, [f[k] for k in keys_shown])), "lr",
                             [[None, k] for k in keys_shown]))
    controls = explorer.select(uid, "kernel", "커널", options, first)
    intro = ("SGEMM 사다리의 커널 하나를 골라 두 단계의 상한과 측정값을 본다. 예측 모드를 켜면 어느 단계가 묶는지 "
             "먼저 고른 뒤에 값이 나온다.")
    note_md = ("강의 사이트의 이 자리에서는 커널을 골라 두 단계의 상한과 측정값을 볼 수 있다. 아래는 "
               f"{f['k-name']}의 값이다.")
    from roofline.show import tables

    rows = [("측정 (TFLOPs/s)", f["k-meas"])] + list(zip(heads, [f[k] for k in keys_shown]))
    table = tables.markdown(["항목", "값"], rows, "lr")
    return explorer.Explorer("measured", explorer.wrap(uid, intro, controls, body, data),
                             explorer.markdown(note_md, table), len(states))


def explorer_section(note) -> dict:
    return {"explorer-measured": ladder_explorer(note)}


# ---------------------------------------------------------------- exercises

# a student's variant of this page's exercises (roofline.show.variants): the note's GPU and dtype
VARIANTS = variants.Bounds("note", variants.machines)


def exercise_gpu(note):
    """The note's GPU when its preset has smem_per_clock and fp32_per_clock (the shared-memory level needs them),
    else the page's own RTX A6000 in FP32 (a new GPU of the term without them still gets exercises)."""
    preset = note.catalog.presets[note.hardware]
    return preset if preset.smem_per_clock is not None else note.catalog.presets[A6000]


def exercises(note) -> ex.Exercises:
    """On the note's GPU (`hardware`, a preset with smem_per_clock) in its `dtype`: a thread tile's shared-memory
    reads per k, the GPU's shared-memory bandwidth, and which level binds a block and thread tiling
    (roofline.hierarchy)."""
    cat = note.catalog
    gpu = exercise_gpu(note)
    dtype = note.dtype if note.dtype in gpu.peak else "FP32"   # the A6000 has the FP32 peak only
    s = cat.bytes_per(dtype)
    rate = fmt.unit("TFLOPs/s", dtype)   # the work of `dtype` (TOPS for an integer one); the FP32 clock's stays FLOPs
    hints = {"tile-outputs-read": "출력 TM·TN개를 읽는 것이 아니다: A에서 TM개, B에서 TN개를 읽어 TM·TN번 곱한다.",
             "one-input": "A 조각의 TM개와 B 조각의 TN개를 모두 읽는다.",
             "bits-bytes": ex.MATMUL_HINTS["bits-bytes"],
             "hbm-only": "Shared Memory 단계의 상한도 계산해 낮은 쪽을 고른다.",
             "one-sm": "SM 하나의 대역폭이다: SM 수를 곱한다.",
             "no-ceiling": "상한은 최대 연산 성능 P를 넘지 않는다: min(P, …).",
             "fma-one": "곱셈·덧셈 한 쌍은 2 FLOPs다: F = 2N³.",
             "dtype-other": ex.MATMUL_HINTS["dtype-other"]}
    TM, TN = 8, 4
    q_ = hierarchy.thread_smem_per_k(s, TM, TN)
    q = q_.value
    steps1 = (ex.derived(q_, "Byte", name="k 하나의 읽기"),)
    s_o = ex.other_size(cat, dtype)
    wrong1 = {"tile-outputs-read": s * TM * TN, "one-input": s * TM, "bits-bytes": 8 * s * (TM + TN),
              "dtype-other": s_o * (TM + TN)}
    f, bw_smem = Fraction(hierarchy.clock(gpu).value), Fraction(hierarchy.smem_bandwidth(gpu).value)
    N = 4096
    t2 = hierarchy.Tiling(64, 64, 8, TM, TN)
    b2 = hierarchy.bound(gpu, dtype, s, N, N, N, t2)
    P, P32 = gpu.P(dtype), gpu.P("FP32")
    R2 = b2.R_smem.value
    F2, Qs2 = b2.F.value, b2.Q_smem.value
    reads_only = Fraction(Qs2) - s * (N**3 // t2.BN + N**3 // t2.BM)
    f_, bw_smem_ = hierarchy.clock(gpu), hierarchy.smem_bandwidth(gpu)
    steps2 = (ex.Step(f"{ex.formula(f_)} = {fmt.decimal(Fraction(f) / 10**6, 1, grouping=True)} MHz", Fraction(f), "f"),
              ex.Step(f"{ex.formula(bw_smem_)} = {fmt.decimal(Fraction(bw_smem) / 10**12, 3)} TB/s",
                      Fraction(bw_smem), "BW_smem"),
              ex.derived(b2.Q_smem, "Byte", "GB"), ex.derived(b2.R_smem, fmt.unit("FLOPs/s", dtype), rate))
    wrong2 = {"one-sm": min(P, Fraction(bw_smem, gpu.SMs) * F2 / Qs2),
              "tile-outputs-read": min(P, bw_smem * F2 / (s * N**3 + Qs2 - reads_only)),
              "no-ceiling": bw_smem * F2 / Qs2, "fma-one": min(P, bw_smem * F2 / 2 / Qs2),
              "dtype-other": min(P, bw_smem * F2 / (Fraction(Qs2) * s_o / s))}   # Q_smem is s times a count
    t = hierarchy.Tiling(64, 64, 8, 2, 2)
    b = hierarchy.bound(gpu, dtype, s, N, N, N, t)
    memory = ex.memory_name(gpu)
    choices = tuple((key, label) for key, label in level_choices(memory))
    steps3 = (ex.Step(f"{ex.formula(b.R_DRAM)} = {fmt.tera(b.R_DRAM.value, 2)} {rate}", Fraction(b.R_DRAM.value),
                      "R_DRAM"),
              ex.Step(f"{ex.formula(b.R_smem)} = {fmt.tera(b.R_smem.value, 2)} {rate}",
                      Fraction(b.R_smem.value), "R_smem"),
              ex.Step(f"가장 낮은 상한이 묶는다: {level_word(b.level, memory)}", b.level, "level"))
    wrong3 = {"hbm-only": hierarchy.binding(P, b.R_DRAM.value)}
    where = f"{gpu.name}에서 {ex.dtype_text(dtype, s)} 행렬곱을 계산한다. "
    key = next(k for k, p in cat.presets.items() if p is gpu)
    stated = ex.given(hardware=key, dtype=dtype)   # what `where` names (a variant's rules and "바뀐 조건" read them)
    peaks = f"FP32 최대 {fmt.tera(P32, 1)} TFLOPs/s" + ("" if dtype == "FP32" else f", {dtype} 최대 {fmt.tera(P, 1)} {rate}")
    return ex.Exercises("실측", (
        ex.Question("실측-1", where + f"스레드 타일 TM×TN = {ko.particle(f'{TM}×{TN}', '을/를')} 맡은 스레드가 k 하나마다 Shared Memory에서 "
                    "읽는 양은?", Fraction(q), ex.UNITS["Byte"], f"k 하나마다 A에서 TM개, B에서 TN개: {q_.term.formula}", steps1,
                    given=stated + ex.given(TM=TM, TN=TN, s=s),
                    mistakes=ex.named(wrong1, ("tile-outputs-read", "one-input", "bits-bytes", "dtype-other"), lambda v: v,
                                      hints, dtype=dtype)),
        ex.Question("실측-2", where + f"{ex.shape(N)} 행렬을 블록 타일 {t2.BM}×{t2.BN}×{t2.BK}, 같은 스레드 타일로 곱한다. "
                    f"SM {gpu.SMs}개는 저마다 클럭마다 Shared Memory에서 {gpu.smem_per_clock} Byte를 내주고 FP32 "
                    f"{gpu.fp32_per_clock} FLOPs를 한다({peaks}). FP32 최대 성능이 뜻하는 클럭에서 Shared Memory 단계의 상한은?", Fraction(R2),
                    ex.UNITS[rate], ", ".join(ex.formula(x) for x in (b2.R_smem, bw_smem_, f_)), steps2,
                    given=stated + ex.given(N=N, BM=t2.BM, BN=t2.BN, TM=TM, TN=TN, s=s, SMs=gpu.SMs,
                                   smem_per_clock=gpu.smem_per_clock,
                                   fp32_per_clock=gpu.fp32_per_clock, P_FP32=P32, P=P, kernel="smem"),
                    mistakes=ex.named(wrong2, ("one-sm", "tile-outputs-read", "no-ceiling", "fma-one", "dtype-other"),
                                      lambda v: v, hints, dtype=dtype)),
        ex.Question("실측-3", where + f"{ex.shape(N)} 행렬을 블록 타일 {t.BM}×{t.BN}×{t.BK}, "
                    f"스레드 타일 {ko.particle(f'{t.TM}×{t.TN}', '으로/로')} "
                    f"곱한다(P = {ex.tera(P)} {rate}, BW = {ex.tera(gpu.BW)} TB/s, "
                    f"Shared Memory 대역폭 {fmt.decimal(Fraction(bw_smem) / 10**12, 2)} TB/s). 어느 단계가 성능을 묶는가?",
                    b.level, ex.CHOICE, "두 단계의 상한 min(P, BW·F/Q)를 모두 계산해 가장 낮은 쪽을 고른다", steps3, choices,
                    given=stated + ex.given(N=N, BM=t.BM, BN=t.BN, TM=t.TM, TN=t.TN, s=s, P=P, BW=gpu.BW, BW_smem=bw_smem,
                                   kernel="tiled"),
                    mistakes=ex.named(wrong3, ("hbm-only",), lambda v: v, hints, dtype=dtype)),
    ))
