"""④ tile size: the tables and the sentences whose truth depends on the parameters, and the explorer (tile side,
buffering, GPU: buffers, occupancy and its binding limit) with its live form.

    storage_table(s, dtype)                  → A·B pieces and the partial sums in T_M, T_N, T_K
    buffer_table(single), double_table(single, double)
    sm_table(gpu), occupancy_table(gpu, cases), worked_steps(gpu, case, w4), gpus_table(gpus, cases)   (roofline.occupancy)
    k_widths(N, T) → the K widths to compare for a T×T output tile; k_width_table(N, T, s)
    big_verdict(timing, T, src)

The `*_section(w4, …)` functions return name → value for one section of the page (`glue_page(page.storage_section(w4))`);
`exercises(w4)` its questions.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from fractions import Fraction

from roofline import buffers, kernels, occupancy
from roofline.cost import Timing
from roofline.derive import named, tceil, var
from roofline.errors import ParameterError, check_divides, positive_int
from roofline.problems import powers_of_two
from roofline.show import engine, explorer, fmt, ko, tables, tex, variants, why
from roofline.show import exercises as ex
from roofline.show import predict as pr
from roofline.show.engine import keep
from roofline.show.mistakes import Mistake


def _byte_kib(n, src=None) -> str:
    if src is not None:   # a derived quantity: the text with its record
        return why.around(why.integer(n, src), f"{fmt.integer(n.value)} B ({fmt.kib(n.value)})")
    return f"{fmt.integer(n)} B ({fmt.kib(n)})"


def _kib(n, src=None) -> str:
    return why.kib(n, src) if src is not None else fmt.kib(n)


class _Buffers:
    """A tile's buffers as derived quantities (buffers.derivation), with the origins of their inputs (`src`): read
    like a TileBuffers (A, B, inputs, acc, total)."""

    def __init__(self, how: dict, src: dict):
        self.src = src
        for k, q in how.items():
            setattr(self, k, q)


def derived_buffers(w4, T_M: int, T_N: int, T_K: int, copies: int, T_from: str = "tiles") -> _Buffers:
    """buffers.derivation for this problem's s (inputs and partial sums), T_M = T_N = T_K's origins: the tiles."""
    src = {**why.sources(w4), **{k: var("T", v) for k, v in (("T_M", T_M), ("T_N", T_N), ("T_K", T_K))}}
    return _Buffers(buffers.derivation(T_M, T_N, T_K, w4.s, w4.s, copies), src)


def buffer_row(b) -> tuple[str, ...]:
    """One tile's buffers (TileBuffers): A and B in Byte and KiB, the inputs, the partial sums and the total in KiB."""
    src = getattr(b, "src", None)
    return _byte_kib(b.A, src), _byte_kib(b.B, src), _kib(b.inputs, src), _kib(b.acc, src), _kib(b.total, src)


def _gpu(gpu) -> str:
    """A preset's name without its parenthesised detail: "NVIDIA H100 SXM (80GB)" → "NVIDIA H100 SXM"."""
    return gpu.name.split(" (")[0]


def storage_table(s: int, dtype: str):
    rows = [
        ("A 입력 조각", "T_M×T_K", f"{s}·T_M·T_K Byte"),
        ("B 입력 조각", "T_K×T_N", f"{s}·T_K·T_N Byte"),
        ("출력의 중간 합 acc", "T_M×T_N", f"{s}·T_M·T_N Byte"),
    ]
    return tables.markdown(["보관 대상", "모양", f"{dtype} 공간 (원소당 {s} Byte)"], rows, "lll")


def tile_label(T: int, src: dict | None, what: str = "T"):
    """"T = 32" as a row's label (no button): the side a `why.label` with its origin in `src` (a plain text without
    `src`, the tables' plain variant)."""
    if src is None:
        return ko.nbsp(f"{what} = {fmt.integer(T)}")
    return why.sentence(f"{what}\u00a0=\u00a0", why.label_of(what, T, src, fmt.integer(T)))


def buffer_table(single: dict, src: dict | None = None):
    """T → TileBuffers (one copy of A·B): each piece in Byte and KiB, the sums in KiB."""
    rows = [(tile_label(T, src), *buffer_row(b)) for T, b in single.items()]
    return tables.markdown(["타일", "A 입력 버퍼", "B 입력 버퍼", "입력 합계", "중간 합", "논리적 총합"], rows)


def double_table(single: dict, double: dict, src: dict | None = None):
    def k(b, name):
        return _kib(getattr(b, name), getattr(b, "src", None))

    rows = [(tile_label(T, src), k(single[T], "inputs"), k(double[T], "inputs"), k(double[T], "acc"),
             k(single[T], "total"), k(double[T], "total")) for T in single]
    return tables.markdown(["타일", "입력 (단일 버퍼)", "입력 (이중 버퍼링)", "중간 합", "총합 (단일 버퍼)",
                            "총합 (이중 버퍼링)"], rows)


def k_widths(N: int, T: int) -> list[int]:
    """K widths to compare for a T×T output tile: T/8, T/4, T/2, T, 2T, 4T, those that are whole and divide N."""
    widths = {T // d for d in (8, 4, 2) if T % d == 0} | {T * m for m in (1, 2, 4)}
    return sorted(w for w in widths if w > 0 and N % w == 0)


def k_width_table(N: int, T: int, s: int, by_T_K: dict, w4=None):
    """For a T×T output tile and K = N: steps, Byte per step and per tile, all A·B reads (`by_T_K[T_K]`, the
    kernel's Cost), buffers — one row per K width. With the problem `w4`, each number carries its derivation."""
    rows = []
    for T_K, cost in by_T_K.items():
        b = buffers.tile_buffers(T, T, T_K, s, s)
        step = s * 2 * T * T_K
        if w4 is None:
            rows.append((ko.nbsp(f"T_K = {fmt.integer(T_K)}"), fmt.integer(N // T_K), fmt.integer(step),
                         fmt.integer(N // T_K * step), fmt.integer(cost.Q_read), fmt.kib(b.inputs), fmt.kib(b.acc)))
            continue
        # K = N, T_M = T_N = T: each an input under the course's name; T_K one of the widths the page compares
        N_, T_, TK_, s_ = var("N", N), var("T", T), var("T_K", T_K), var("s", s)
        # T_K is T/8 … 4T (k_widths): the width as the course writes it from T
        width = (T_ if T_K == T else named("T_K", T_ / (T // T_K)) if T_K < T else named("T_K", (T_K // T) * T_))
        assert width.value == T_K
        src = {**why.sources(w4), "K": N_, "M": N_, "T_M": T_, "T_N": T_, ("T_K", T_K): width}
        TM_, TN_, K_ = var("T_M", T), var("T_N", T), var("K", N)
        steps = named("K 단계 수", K_ / TK_)
        per_step = named("단계당 읽기", s_ * (TM_ * TK_ + TK_ * TN_))
        per_tile = named("출력 타일 하나의 입력", steps * per_step)
        assert (steps.value, per_step.value, per_tile.value) == (N // T_K, step, N // T_K * step)
        bd = _Buffers(buffers.derivation(T, T, T_K, s, s), src)
        rows.append((why.sentence("T_K\u00a0=\u00a0", why.labelled(width, fmt.integer(T_K), src)),
                     why.integer(steps, src), why.integer(per_step, src),
                     why.integer(per_tile, src), why.integer(cost.derivation("Q_read"), src),
                     why.kib(bd.inputs, src), why.kib(bd.acc, src)))
    return tables.markdown(["K 조각 폭", "K 단계 수", "단계당 입력 (Byte)", "출력 타일 하나의 입력 (Byte)",
                            "전체 A·B 읽기 (Byte)", "입력 버퍼", "중간 합"], rows)


def cancel_math(N: int, T: int, s: int):
    """(K/T_K)·s(T_M T_K + T_K T_N) = sK(T_M + T_N), and its value for K = N, T_M = T_N = T."""
    from IPython.display import Math

    return Math(rf"\begin{{gathered}}\frac{{K}}{{T_K}} \times {s}\,(T_M T_K + T_K T_N) = {s}K\,(T_M + T_N) \\"
                rf"{s} \times {tex.integer(N)} \times ({T} + {T}) = {tex.integer(s * N * 2 * T)}\ \text{{Byte}}"
                rf"\end{{gathered}}")


def per_thread(outputs: int, threads: int) -> str:
    """Outputs per thread: a whole number as is, else two decimals."""
    x = Fraction(outputs, threads)
    return fmt.integer(x) if x.denominator == 1 else fmt.decimal(x, 2, grouping=True)


def big_verdict(timing, T: int, src: dict) -> str:
    """Where the largest tile stands on the roofline, and what that means for larger tiles (two sentences)."""
    T_ = why.side("T", T, src)
    if timing.memory_bound:
        return why.sentence("I가 아직 분기점에 못 미치므로 T = ", T_, " 타일도 메모리 한계다. 메모리 시간이 연산 시간보다 길다. "
                            "이상적 시간은 둘 가운데 긴 쪽이다. 아직은 메모리 시간이 길므로, 타일을 더 키우면 이상적 시간도 줄어든다.")
    return why.sentence("I가 분기점을 넘었으므로 T = ", T_, " 타일은 연산 한계다. 연산 시간이 메모리 시간보다 길다. "
                        "이상적 시간은 둘 가운데 긴 쪽이다. 그러니 타일을 더 키워 메모리 시간을 깎아도 F/P보다 짧아지지는 않는다.")


# ---------------------------------------------------------------- occupancy (roofline.occupancy)

LIMIT_NAMES = {"warps": "워프 수", "registers": "레지스터", "smem": "Shared Memory", "blocks": "블록 수"}
OVER = {"threads": "블록당 스레드", "smem": "블록당 Shared Memory", "registers": "스레드당 레지스터"}


def gpu_name(preset) -> str:
    return _gpu(preset)


def limit_text(n) -> str:
    """A limit in blocks; None: the resource sets no limit."""
    return "제한 없음" if n is None else fmt.integer(n)


def binding(result) -> str:
    """The binding limit(s): "Shared Memory", or "워프 수·Shared Memory" when they tie."""
    return "·".join(LIMIT_NAMES[name] for name in result.binding)


def over_text(case, preset, w4=None, T_origin: str | None = None) -> str:
    """Why no block of `case` can launch, one sentence (with the problem `w4`, each number with its record;
    `T_origin`: see `case_derivation`)."""
    sm = preset.sm
    if w4 is None:
        kib, integer, limit = fmt.kib, fmt.integer, lambda key: fmt.integer(getattr(sm, key))
        smem, registers, threads = case.smem, case.registers, case.threads
        kib_limit = fmt.kib(sm.smem_per_block)
    else:
        how, src = case_derivation(case, preset, w4, T_origin)
        kib, integer = (lambda q: why.kib(q, src)), (lambda q: why.integer(q, src))
        smem, registers, threads = how["smem"], how["registers"], var("스레드", case.threads)
        limit = lambda key: why.var(f"sm.{key}", getattr(sm, key), src)   # noqa: E731
        kib_limit = why.kib(var("sm.smem_per_block", sm.smem_per_block), src)
    if case.over == "smem":
        # the input buffers (the table's "블록당 Shared Memory (입력 버퍼)"), not the record "블록당 Shared Memory" that
        # adds the reserved 1 KiB: the opt-in maximum is compared with the buffers alone
        return why.sentence("블록당 Shared Memory(입력 버퍼) ", why.particle(kib(smem), "이/가"), " 블록 하나의 최대 ",
                            why.particle(kib_limit, "을/를"), " 넘어 블록이 하나도 올라가지 않는다.")
    if case.over == "registers":
        return why.sentence("스레드당 레지스터 ", integer(registers), "개가 한도 ", limit("registers_per_thread"),
                            "개를 넘는다. 컴파일러는 넘치는 값을 메모리로 내보내고(spill), 그러면 이 계산의 가정이 무너진다.")
    return why.sentence("블록 하나의 스레드 ", integer(threads), "개가 최대 ", limit("threads_per_block"), "개를 넘는다.")


def sm_origins(preset) -> dict:
    """The course.toml key of each per-SM limit the occupancy derivations use (roofline.occupancy.derivation)."""
    if preset.sm is None:
        return {}
    keys = {f"sm.{k}": f"toml:presets.{preset.key}.sm.{k}" for k in (
        "warp_size", "warps", "blocks", "registers", "register_unit", "register_partitions", "smem_reserved",
        "smem_unit", "threads_per_block", "threads", "registers_per_thread", "smem_per_block")}
    return {**keys, "smem_per_SM": f"toml:presets.{preset.key}.smem_per_SM",
            "compute capability": f"toml:presets.{preset.key}.sm.compute_capability"}


def case_derivation(case, preset, w4, T_origin: str | None = None) -> tuple[dict, dict]:
    """A tile case's demand and occupancy as derived quantities (buffers, occupancy), and the origins of their inputs:
    T from the tiles (or `T_origin`: the explorer's own T), s from the dtype, the threads and the extra registers
    from week4, the limits from the preset."""
    T_ = var("T", case.T)
    src = {**why.sources(w4), **sm_origins(preset), "T_M": T_, "T_N": T_, "T_K": T_,
           **({"T": T_origin} if T_origin else {}),
           "스레드": w4.origin("threads"), "여유분": w4.origin("extra_registers")}
    threads, extra = var("스레드", case.threads), var("여유분", case.extra_registers)
    smem = buffers.derivation(case.T, case.T, case.T, case.s, case.s, case.copies)["inputs"]
    partial = occupancy.partial_sum_derivation(T_, T_, var("s", case.s), threads)
    registers = named("스레드당 레지스터", partial + extra)
    how = {"smem": smem, "registers": registers, "partial": partial}
    if case.result is not None:
        how.update(occupancy.derivation(preset, threads, registers, smem))
    assert (smem.value, registers.value) == (case.smem, case.registers)
    return how, src


def occupancy_words(case, preset, w4=None, T_origin: str | None = None) -> dict[str, str]:
    """The shown values of one tile case: demand, each limit, the result (— when no block can take it). With the
    problem `w4`, each number carries its derivation (`T_origin`: see `case_derivation`)."""
    if w4 is not None:
        how, src = case_derivation(case, preset, w4, T_origin)
        words = _derived_words(occupancy_words(case, preset), how, src)
        r = case.result
        if r is None:
            words["verdict"] = over_text(case, preset, w4, T_origin)
        elif r.blocks:
            words["verdict"] = why.sentence(
                f"{gpu_name(preset)}의 SM 하나에 블록 ", why.integer(how["blocks"], src), "개가 상주한다. 활성 워프는 ",
                why.integer(how["warps"], src), "개, 점유율은 ", why.particle(why.percent(how["occupancy"], 1, src), "이다/다"),
                f". {ko.particle(binding(r), '이/가')} 그 수를 정한다.")
        return words
    r = case.result
    words = {"smem": fmt.kib(case.smem), "regs": f"{case.partial_sums} + {case.extra_registers} = {case.registers}"}
    if r is None:
        words.update({k: "—" for k in ("smem-alloc", "lim-warps", "lim-registers", "lim-smem", "lim-blocks", "blocks",
                                       "warps", "occupancy", "binding")})
        words["verdict"] = over_text(case, preset)
        return words
    words.update({
        "smem-alloc": fmt.kib(r.smem_per_block),
        **{f"lim-{name}": limit_text(n) for name, n in r.limits.items()},
        "blocks": fmt.integer(r.blocks),
        "warps": f"{fmt.integer(r.warps)} / {fmt.integer(r.max_warps)}",
        "occupancy": fmt.percent(r.occupancy, 1),
        "binding": binding(r),
    })
    words["verdict"] = (f"{gpu_name(preset)}의 SM 하나에 블록 {fmt.integer(r.blocks)}개가 상주한다. 활성 워프는 "
                        f"{fmt.integer(r.warps)}개, 점유율은 {ko.particle(fmt.percent(r.occupancy, 1), '이다/다')}. "
                        f"{ko.particle(binding(r), '이/가')} 그 수를 정한다." if r.blocks else
                        f"{gpu_name(preset)}의 SM 하나에 이 블록이 올라가지 않는다. "
                        f"{ko.particle(binding(r), '이/가')} 모자라다.")
    return words


def _derived_words(words: dict, how: dict, src: dict) -> dict:
    """`words` (occupancy_words' texts) with the record of each number: the text as it is, carrying its derivation."""
    kinds = {"smem": ("smem", why.kib), "smem-alloc": ("smem_per_block", why.kib), "regs": ("registers", why.integer),
             "lim-warps": ("lim-warps", why.integer), "lim-registers": ("lim-registers", why.integer),
             "lim-smem": ("lim-smem", why.integer), "lim-blocks": ("lim-blocks", why.integer),
             "blocks": ("blocks", why.integer), "warps": ("warps", why.integer),
             "occupancy": ("occupancy", lambda q, src: why.percent(q, 1, src))}
    out = dict(words)
    for key, (name, shown) in kinds.items():
        if name in how and words.get(key, "—")[:1].isdigit():
            out[key] = why.around(shown(how[name], src), words[key])
    if "warps" in how and " / " in words.get("warps", ""):   # "48 / 64": the SM's maximum its own button
        most = int(words["warps"].split(" / ")[1].replace(",", ""))
        out["warps"] = why.sentence(why.integer(how["warps"], src), " / ", why.integer(var("sm.warps", most), src))
    return out


OCC_HEADERS = ["블록당 Shared Memory (입력 버퍼)", "할당되는 Shared Memory (예약분 포함)", "스레드당 레지스터 (중간 합 + 여유분)",
               "워프 수 한도", "레지스터 한도", "Shared Memory 한도", "블록 수 한도", "상주 블록", "활성 워프 / 최대",
               "점유율", "수를 정한 한도"]
OCC_KEYS = ["smem", "smem-alloc", "regs", "lim-warps", "lim-registers", "lim-smem", "lim-blocks", "blocks", "warps",
            "occupancy", "binding"]


def sm_table(preset):
    """The per-SM limits of `preset` that the occupancy example uses, with the Programming Guide's names; each number
    with its course.toml key."""
    sm, src = preset.sm, sm_origins(preset)

    def v(field, text=None, kib=False):
        q = var("smem_per_SM" if field == "smem" else f"sm.{field}", getattr(sm, field))
        shown = why.kib(q, src) if kib else why.integer(q, src)
        return shown if text is None else why.around(shown, text)

    rows = [
        ("Compute capability", compute_capability(preset)),
        ("블록 하나의 최대 스레드", v("threads_per_block")),
        ("SM당 최대 워프 (스레드)", why.sentence(v("warps"), " (", v("threads"), ")")),
        ("SM당 최대 상주 블록", v("blocks")),
        (why.sentence("SM당 ", why.label(32, "cite:cuda-occupancy, Calculating Occupancy 절"), "비트 레지스터"), v("registers")),
        ("스레드당 최대 레지스터", v("registers_per_thread")),
        ("레지스터 할당 단위 (워프마다)", why.sentence(v("register_unit"), "개, SM 분할 ", v("register_partitions"), "개에 나뉨")),
        ("SM당 Shared Memory", v("smem", kib=True)),
        ("블록 하나의 최대 Shared Memory (opt-in)", v("smem_per_block", kib=True)),
        ("블록마다 예약되는 Shared Memory", v("smem_reserved", f"{fmt.integer(sm.smem_reserved)} Byte")),
        ("Shared Memory 할당 단위", v("smem_unit", f"{fmt.integer(sm.smem_unit)} Byte")),
    ]
    return tables.markdown(["SM 하나의 한도", ko.nbsp(gpu_name(preset))], rows, "lr")


def _nbsp(text):
    """ko.nbsp keeping a number's record."""
    return why.around(text, ko.nbsp(text)) if getattr(text, "why", None) else ko.nbsp(text)


def occupancy_table(preset, cases, w4=None):
    """One row per tile case (T, buffering) on `preset`: the demand, the four limits and the result."""
    mode = {1: "단일 버퍼", 2: "이중 버퍼링"}
    rows = []
    for c in cases:
        w = occupancy_words(c, preset, w4)
        name = (ko.nbsp(f"T = {c.T}, {mode[c.copies]}") if w4 is None else
                why.sentence(tile_label(c.T, why.sources(w4)), ko.nbsp(f", {mode[c.copies]}")))
        rows.append((name, *(_nbsp(w[k]) for k in OCC_KEYS)))
    return tables.markdown(["경우", *OCC_HEADERS], rows, "l" + "r" * 10 + "l")


def resident(case, w4=None) -> tuple[str, str]:
    """A tile case in one cell pair: "resident blocks, occupancy" and the binding limit ("올라가지 않음" when no block
    can take it). With the problem `w4`, the first carries the resident blocks' derivation."""
    if case.result is None:
        return "올라가지 않음", "—"
    text = f"{fmt.integer(case.result.blocks)}개, {fmt.percent(case.result.occupancy, 1)}"
    if w4 is not None:
        how, src = case_derivation(case, w4.catalog.presets[case.preset], w4)
        text = why.sentence(why.integer(how["blocks"], src), "개, ", why.percent(how["occupancy"], 1, src))
    return text, binding(case.result)


def gpus_table(gpus, cases, w4=None):
    """The box: for each GPU and tile, resident blocks, occupancy and the binding limit, single and double buffering.
    `cases[(gpu.key, T, copies)]` is the TileCase."""
    Ts = sorted({T for _, T, _ in cases})
    rows = []
    for g in gpus:
        for T in Ts:
            one, two = resident(cases[g.key, T, 1], w4), resident(cases[g.key, T, 2], w4)
            rows.append((ko.nbsp(gpu_name(g)), tile_label(T, None if w4 is None else why.sources(w4)), _nbsp(one[0]), ko.nbsp(one[1]), _nbsp(two[0]),
                         ko.nbsp(two[1])))
    return tables.markdown(["GPU", "타일", "단일 버퍼: 상주 블록, 점유율", "정한 한도", "이중 버퍼링: 상주 블록, 점유율",
                            "정한 한도"], rows, "llrlrl")


def occupancy_misfits(gpus, cases, src: dict) -> str:
    """Which (GPU, T, buffering) no block can take, as one sentence."""
    clauses = []
    Ts = sorted({T for _, T, _ in cases})
    for g in gpus:
        parts = []
        for T in Ts:
            single, double = (cases[g.key, T, c].result is None or not cases[g.key, T, c].result.blocks for c in (1, 2))
            label = why.sentence("T = ", why.side("T", T, src))
            if single and double:
                parts.append(why.sentence(why.particle(label, "이면/면"), " 단일 버퍼든 이중 버퍼링이든"))
            elif double:
                parts.append(why.sentence(why.particle(label, "을/를"), " 이중 버퍼링하면"))
            elif single:
                parts.append(why.sentence(why.particle(label, "을/를"), " 단일 버퍼로 두면"))
        if parts:
            clauses.append(why.sentence(f"{gpu_name(g)}에서 ", *joined(parts, ", ")))
    if not clauses:
        return "이 표의 경우는 모두 SM 하나에 블록이 하나 이상 올라간다."
    return why.sentence(*joined(clauses, ", 그리고 "), " 블록이 하나도 올라가지 않는다.")


def joined(pieces, between: str) -> list:
    """`between.join(pieces)` as the pieces of a `why.sentence` (each keeps its records)."""
    return [x for i, piece in enumerate(pieces) for x in ([between] * bool(i) + [piece])]


def worked_case(cases):
    """The case the page works through by hand: the largest tile a block can take (single buffer), else the first."""
    fits = [c for c in cases if c.copies == 1 and c.result is not None and c.result.blocks]
    return fits[-1] if fits else cases[0]


def case_label(case, src: dict | None = None) -> str:
    """"T = 128, 단일 버퍼" (with `src`, T with its record)."""
    T = why.side("T", case.T, src) if src is not None else str(case.T)
    return why.sentence("T = ", T, f", {'단일 버퍼' if case.copies == 1 else '이중 버퍼링'}")


def compute_capability(preset):
    """The preset's compute capability ("9.0") with its course.toml key."""
    sm = preset.sm
    digits = len(sm.compute_capability.partition(".")[2])
    return why.shown(var("compute capability", Fraction(sm.compute_capability)), sm.compute_capability,
                     sm_origins(preset), digits=digits)


def sm_sources(preset):
    """Where the per-SM limits come from, as a Markdown sentence with the two links of course.toml (the compute
    capability after it is a glued number of its own: `compute_capability`, occ-cc)."""
    from IPython.display import Markdown

    sm = preset.sm
    return Markdown(f"값은 CUDA C++ Programming Guide의 [Compute Capability별 기술 사양]({sm.source})과 "
                    f"[아키텍처 튜닝 가이드]({sm.architecture})에서 옮겼다")


def occupancy_headline(preset, case, w4) -> str:
    """The section's one-line answer, from the worked case (each number with its record)."""
    r = case.result
    how, src = case_derivation(case, preset, w4)
    label = case_label(case, src)
    if r is None and case.over == "registers":   # ptxas caps a thread's registers and spills the rest: it launches
        return why.sentence(f"{gpu_name(preset)}에서 ", label, "의 블록은 이 계산의 가정대로 돌지 않는다. ",
                            over_text(case, preset, w4))
    if r is None:
        return why.sentence(f"{gpu_name(preset)}에서 ", label, "의 블록은 SM에 올라가지 않는다. ", over_text(case, preset, w4))
    held = "입력을 단일 버퍼로 둔" if case.copies == 1 else "입력을 이중 버퍼링한"
    return why.sentence(
        f"{gpu_name(preset)}의 SM 하나에는 {held} T = ", why.side("T", case.T, src), " 타일의 블록이 ",
        why.integer(how["blocks"], src), "개 상주하고, 점유율은 ", why.particle(why.percent(how["occupancy"], 1, src), "이다/다"),
        f". 워프, 레지스터, Shared Memory, 블록 수의 네 한도 가운데 가장 작은 {ko.particle(binding(r), '이/가')} 그 수를 정한다.")


STEPS = 7   # the lines of the worked example (the chapter glues occ-step-1 … occ-step-7)


def worked_steps(preset, case, w4) -> dict:
    """④'s worked example, one glued sentence per line (occ-step-1 …): every rounding and every division of the
    occupancy rules in numbers, each number a button with its record (`case_derivation`: the model's own steps, the
    SM's limits with their course.toml keys). A case no block can take has two lines, the rest empty."""
    how, src = case_derivation(case, preset, w4)
    sm, r = preset.sm, case.result

    def n(q):
        return why.integer(q, src)

    def sm_(key):   # an SM limit as an input, by the name of its course.toml key
        return why.var("smem_per_SM" if key == "smem" else f"sm.{key}", getattr(sm, key), src)

    def limit(key):
        q = how.get(f"lim-{key}")
        return limit_text(None) if q is None else n(q)

    threads, extra = why.var("스레드", case.threads, src), why.var("여유분", case.extra_registers, src)
    head = why.sentence("블록당 Shared Memory(입력 버퍼): ", n(how["smem"]), " Byte, 스레드당 레지스터: 중간 합 ",
                        n(how["partial"]), "개 + 여유분 ", extra, "개 = ", n(how["registers"]), "개")
    if r is None:
        return dict(zip((f"occ-step-{k}" for k in range(1, STEPS + 1)),
                        [head, over_text(case, preset, w4)] + [""] * (STEPS - 2)))
    W = n(how["W"])
    if "warps_by_registers" in how:
        part, per_warp, reg_warps = n(how["regs_per_partition"]), n(how["registers_per_warp"]), n(how["warps_by_registers"])
        registers = why.sentence(
            "레지스터 한도: 워프 하나에 ⌈", n(how["registers"]), " × ", sm_("warp_size"), " ÷ ", sm_("register_unit"), "⌉ × ",
            sm_("register_unit"), " = ", per_warp, "개가 잡힌다. SM 분할 하나(", part, "개)에 워프 ⌊", part, " ÷ ", per_warp,
            "⌋ = ", n(how["warps_per_partition"]), "개, SM 전체에 ", sm_("register_partitions"), "배인 ", reg_warps,
            "개가 들어가므로 ⌊", reg_warps, " ÷ ", W, "⌋ = ", limit("registers"))
    else:
        registers = why.sentence("레지스터 한도: 워프 하나에 ", n(how["registers_per_warp"]), "개가 잡혀 블록의 워프가 SM 분할 "
                                 "하나의 레지스터에 들어가지 않으므로 ", limit("registers"))
    smem = (why.sentence("Shared Memory 한도: 블록마다 ⌈(", n(how["smem"]), " + 예약 ", sm_("smem_reserved"), ") ÷ ",
                         sm_("smem_unit"), "⌉ × ", sm_("smem_unit"), " = ", n(how["smem_per_block"]), " Byte가 잡히고, ⌊",
                         sm_("smem"), " ÷ ", n(how["smem_per_block"]), "⌋ = ", limit("smem"))
            if "lim-smem" in how else "Shared Memory 한도: 블록이 Shared Memory를 쓰지 않으므로 제한이 없다")
    limits = [limit(k) for k in ("warps", "registers", "smem", "blocks") if f"lim-{k}" in how]
    blocks = n(how["blocks"])
    lines = [
        head,
        why.sentence("블록 하나의 워프: ⌈", threads, " ÷ ", sm_("warp_size"), "⌉ = ", W, "개"),
        why.sentence("워프 수 한도: ⌊", sm_("warps"), " ÷ ", W, "⌋ = ", limit("warps")),
        registers, smem,
        why.sentence("블록 수 한도: ", limit("blocks")),
        why.sentence("상주 블록 = min(", *[x for i, v in enumerate(limits) for x in ([", "] * bool(i) + [v])], ") = ", blocks,
                     ", 활성 워프 = ", blocks, " × ", W, " = ", n(how["warps"]), ", 점유율 = ", n(how["warps"]), " ÷ ",
                     sm_("warps"), " = ", why.percent(how["occupancy"], 1, src)),
    ]
    return dict(zip((f"occ-step-{k}" for k in range(1, STEPS + 1)), lines))


def worked_verdict(preset, case, w4) -> str:
    """The sentence under the worked example: which limit binds, and what would lift it."""
    r = case.result
    if r is None:
        return over_text(case, preset, w4)
    name = binding(r)
    if r.binding == ("warps",):
        why = "스레드 수가 정하는 한도라 자원을 줄여도 블록이 더 올라가지 않는다."
    elif "smem" in r.binding:
        why = "입력 버퍼를 줄이면(타일이나 T_K를 줄이거나 단일 버퍼로 두면) 블록이 더 올라갈 수 있다."
    elif "registers" in r.binding:
        why = "스레드당 레지스터를 줄이면(스레드 수를 늘려 중간 합을 나누거나 여유분을 줄이면) 블록이 더 올라갈 수 있다."
    else:
        why = "SM이 품는 블록 수의 상한에 닿았다."
    return f"가장 작은 한도는 {ko.particle(name, '이다/다')}. {why}"


# ---------------------------------------------------------------- the page's values, one dict per section

def storage_section(w4) -> dict:
    s, src = w4.s, why.sources(w4)
    s_ = var("s", s)
    return {"storage-dtype": ko.particle(w4.dtype, "이면/면"), "N": why.var("N", w4.N, src), "s": why.integer(s_, src),
            "input-coef": why.integer(named("입력 계수", 2 * s_), src),
            "double-coef": why.integer(named("이중 계수", 2 * 2 * s_), src), "acc-coef": why.integer(s_, src),
            "table-storage": storage_table(s, w4.dtype)}


def buffer_section(w4, single: dict, double: dict) -> dict:
    """The tables of the page's single and double buffers (T → TileBuffers, as its visible cell computes them)."""
    s, T_big, src = w4.s, w4.tiles[-1], why.sources(w4)
    # the same buffers with their derivations (buffers.derivation), checked against the visible cell's
    single_d = {T: derived_buffers(w4, T, T, T, 1) for T in single}
    double_d = {T: derived_buffers(w4, T, T, T, 2) for T in double}
    for given, derived in ((single, single_d), (double, double_d)):
        assert all((b.A, b.B, b.acc) == (derived[T].A.value, derived[T].B.value, derived[T].acc.value)
                   for T, b in given.items())
    s_ = var("s", s)
    scalar_in = named("스칼라 입력", 2 * s_)
    big = single_d[T_big]
    return {"table-single": buffer_table(single_d, src), "table-double": double_table(single_d, double_d, src),
            "big-total": why.particle(why.kib(big.total, big.src), "을/를"), "T-big": why.var("T", T_big, src),
            "scalar-in": why.integer(scalar_in, src), "scalar-acc": why.integer(s_, src),
            "scalar-total": why.integer(named("스칼라 합", scalar_in + s_), src)}


def occupancy_section(w4) -> dict:
    """The worked occupancy on the parameter cell's GPU `w4.gpu`, every tile with one and two buffers."""
    example = w4.catalog.preset(w4.gpu)
    cases = [occupancy.tile_case(example, T, w4.s, copies, w4.threads, w4.extra_registers)
             for T in w4.tiles for copies in (1, 2)]
    worked = worked_case(cases)
    return {"occ-gpu": ko.particle(gpu_name(example), "을/를"), "occ-headline": occupancy_headline(example, worked, w4),
            "occ-extra": why.integer(var("여유분", w4.extra_registers), {"여유분": w4.origin("extra_registers")}),
            "occ-threads": why.integer(var("스레드", w4.threads), {"스레드": w4.origin("threads")}),
            "occ-sources": sm_sources(example), "occ-cc": compute_capability(example), "table-sm": sm_table(example),
            "occ-worked-label": why.particle(case_label(worked, case_derivation(worked, example, w4)[1]), "을/를"), **worked_steps(example, worked, w4),
            "occ-verdict": worked_verdict(example, worked, w4), "table-occupancy": occupancy_table(example, cases, w4),
            "occ-missing-hw": ko.particle(w4.roofline.name or "주어진 하드웨어", "은/는")}


def residency_section(w4) -> dict:
    """Resident blocks on every GPU of the parameter cell's `gpus`."""
    gpu_presets = [w4.catalog.preset(key) for key in w4.gpus]
    by_gpu = {(g.key, T, copies): occupancy.tile_case(g, T, w4.s, copies, w4.threads, w4.extra_registers)
              for g in gpu_presets for T in w4.tiles for copies in (1, 2)}
    return {"table-resident": gpus_table(gpu_presets, by_gpu, w4), "misfits": occupancy_misfits(gpu_presets, by_gpu, why.sources(w4))}


def per_thread_section(w4) -> dict:
    T_small, T_big, threads = w4.tiles[0], w4.tiles[-1], w4.threads
    src = {**why.sources(w4), "스레드": w4.origin("threads")}
    threads_ = var("스레드", threads)
    outputs = {T: named("T²", var("T", T) ** 2) for T in (T_small, T_big)}

    def share(T):
        q = named("스레드당 출력", outputs[T] / threads_)
        text = per_thread(outputs[T].value, threads)
        return why.shown(q, text, src, digits=None if Fraction(q.value).denominator == 1 else 2)

    return {"T-small": why.var("T", T_small, src), "outputs-small": why.integer(outputs[T_small], src),
            "outputs-big": why.integer(outputs[T_big], src), "threads": why.integer(threads_, src),
            "per-thread-small": share(T_small), "per-thread-big": share(T_big)}


def k_width_section(w4, T_mid: int, by_T_K: dict) -> dict:
    """The table of K widths for the output tile T_mid×T_mid (T_K → Cost, as the page's visible cell computes them)."""
    src = why.sources(w4)
    return {"table-tk": k_width_table(w4.N, T_mid, w4.s, by_T_K, w4), "cancel": cancel_math(w4.N, T_mid, w4.s),
            "T-mid": why.var("T", T_mid, src)}


def big_tile_section(w4) -> dict:
    """The largest tile on the Roofline: its intensity, its times and the verdict."""
    hw, T_big = w4.roofline, w4.tiles[-1]
    big = Timing(kernels.matmul_tiled(w4.N, T_big, w4.s, w4.s), hw)
    src = why.sources(w4)
    return {"ridge": why.number(hw.derivation("I*"), 3, src), "hw-name": hw.name or "주어진 하드웨어",
            "unit-I": ko.units(w4.dtype)["unit-I"],
            "I-big": why.decimal(big.cost.derivation("I"), 3, src), "t-compute": why.ms(big.derivation("t_compute"), 3, src),
            "t-memory": why.ms(big.derivation("t_memory"), 3, src), "t-ideal": why.ms(big.derivation("t_ideal"), 3, src),
            "big-verdict": big_verdict(big, T_big, src)}


def k_width_question_section(w4) -> dict:
    """The discussion: two buffers of the largest tile on the first GPU of `gpus`, and the widest T_K that fits the
    Shared Memory one block may ask for (the per-block rule of the section above; the SM's whole where a preset has
    no per-SM limits)."""
    N, s, T_big = w4.N, w4.s, w4.tiles[-1]
    gpu = w4.catalog.preset(w4.gpus[0])
    limit = gpu.block_smem
    fit_T_K = [T_K for T_K in range(1, T_big + 1)          # the divisors of N whose two buffers fit
               if N % T_K == 0 and buffers.tile_buffers(T_big, T_big, T_K, s, s, copies=2).inputs <= limit]
    full_two = buffers.tile_buffers(T_big, T_big, T_big, s, s, copies=2)
    src = {**why.sources(w4), **sm_origins(gpu)}
    if fit_T_K:
        best = max(fit_T_K)
        # the widest T_K is found by trying N's divisors (the model's search, no formula): its buffers and K steps are
        # derived from it
        found = {"T_K": ("search:N의 약수 가운데 두 벌의 입력 버퍼가 블록 하나의 한도 안에 드는 가장 큰 T_K "
                         f"(N = {fmt.integer(N)}, T = {T_big}, s = {s} Byte, "
                         f"한도 {fmt.integer(limit)} Byte: {gpu.name})")}
        fitted = derived_buffers(w4, T_big, T_big, best, 2)
        fitted.src.update({**found, ("T_K", best): found["T_K"]})
        N_ = var("N", N)
        fit = why.sentence(
            "N의 약수 가운데 들어가는 가장 큰 T_K는 ", why.particle(why.side("T_K", best, {**src, **found}), "이다/다"),
            ". 그때 두 벌의 입력 버퍼는 ", why.particle(why.kib(fitted.inputs, fitted.src), "이다/다"), ". K 단계는 ",
            why.integer(named("K 단계 수", N_ / var("T", T_big)), src), "번에서 ",
            why.integer(named("K 단계 수", N_ / var("T_K", best)), {**src, **found}), "번으로 는다.")
        assert fitted.inputs.value == buffers.tile_buffers(T_big, T_big, best, s, s, copies=2).inputs
    else:
        fit = f"이 출력 타일에서는 T_K를 가장 작게 잡아도 두 벌의 입력 버퍼가 {gpu.name}의 블록 하나에 들어가지 않는다."
    limit_q = var("sm.smem_per_block" if gpu.sm else "smem_per_SM", limit)
    two = derived_buffers(w4, T_big, T_big, T_big, 2)
    assert (two.inputs.value, two.acc.value) == (full_two.inputs, full_two.acc)
    return {"q-gpu": gpu.name, "q-smem": why.kib(limit_q, src), "q-T-big": why.var("T", T_big, src),
            "q-T-K-big": why.particle(why.var("T", T_big, src), "이면/면"), "q-two-full": why.kib(two.inputs, two.src),
            "q-two-full-verdict": "넘는다" if full_two.inputs > limit else "넘지 않는다",
            "q-acc": why.kib(two.acc, two.src), "q-fit": fit}


# ---------------------------------------------------------------- exercises

def shown_bytes(w4) -> set[int]:
    """The amounts of Byte ④ shows: every square tile's buffers in its explorer and tables (alone and with a block's
    reserve) and each GPU's shared memory per SM and per block."""
    presets = [p for p in w4.catalog.presets.values() if p.sm]
    reserves = {0, *(p.sm.smem_reserved for p in presets)}
    amounts = {p.sm.smem for p in presets} | {p.sm.smem_per_block for p in presets}
    for T in tile_options(w4).Ts:
        for copies in (1, 2):
            b = buffers.tile_buffers(T, T, T, w4.s, w4.s, copies)
            amounts |= {a + r for a in (b.A, b.B, b.inputs, b.acc, b.total) for r in reserves}
    return amounts



# a student's variant of this page's exercises (roofline.show.variants): N, the tiles, the real GPU and the dtype
VARIANTS = variants.Bounds("week4", variants.sides, variants.tile_sets, variants.gpus, variants.dtypes)

def rectangle(w4, s2: int, s_acc: int, limit: int) -> tuple[int, int, int]:
    """④-1 and ④-2's tile T_M×T_N×T_K = k·T×T_s×T_m (k odd, T the largest compared tile, else a smaller one; T_K = T_s
    when no T_m fits): the first whose amounts are none the page shows (its square tiles' buffers, with a block's
    reserve, and the GPUs' shared memory), in every term, and whose double-buffered inputs fit one block of the GPU the
    page names (④-3's, `limit`): the questions hold it on chip (roofline.show.variants.on_chip_fits)."""
    tiles = sorted(w4.tiles)
    T_s, T_m = tiles[0], tiles[len(tiles) // 2]
    shown = shown_bytes(w4)
    for TK, T in itertools.product(dict.fromkeys((T_m, T_s)), dict.fromkeys(reversed(tiles))):
        for k in (3, 5, 7, 9, 11, 13, 15):
            TM, TN = k * T, T_s
            one = buffers.tile_buffers(TM, TN, TK, s2, s_acc)
            two = buffers.tile_buffers(TM, TN, TK, s2, s_acc, copies=2)
            if two.inputs > limit:
                break                 # a longer one holds more
            if not {one.inputs, two.total} & shown:
                return TM, TN, TK
    raise ParameterError(f"week4.gpus: {w4.catalog.presets[w4.gpus[0]].name}의 블록 하나(Shared Memory "
                         f"{fmt.kib(limit)})에 들어가는 ④-1의 직사각 타일이 없다. 타일 한 변(week4.tiles)을 줄이자")


def exercises(w4) -> ex.Exercises:
    """④ A rectangular tile's input buffers in another dtype, its double-buffered storage with an FP32 partial sum,
    whether a larger tile's double-buffered inputs fit one SM's Shared Memory, and the A·B reads for a T_K."""
    cat = w4.catalog
    d2 = ex.other_dtype(cat, w4.dtype)
    s2, s_acc = cat.bytes_per(d2), cat.bytes_per("FP32")
    tiles = sorted(w4.tiles)
    T_s, T_m, T_b = tiles[0], tiles[len(tiles) // 2], tiles[-1]
    gpu = cat.presets[w4.gpus[0]]
    limit = gpu.block_smem   # what one block may ask for (the page's rule)
    TM, TN, TK = rectangle(w4, s2, s_acc, limit)
    one = buffers.tile_buffers(TM, TN, TK, s2, s_acc)
    two = buffers.tile_buffers(TM, TN, TK, s2, s_acc, copies=2)
    tile = f"T_M×T_N×T_K = {fmt.integer(TM)}×{fmt.integer(TN)}×{fmt.integer(TK)}"
    one_, two_ = (buffers.derivation(TM, TN, TK, s2, s_acc, copies) for copies in (1, 2))
    steps1 = (ex.derived(one_["A"], "Byte"), ex.derived(one_["B"], "Byte"),
              ex.derived(one_["inputs"], "Byte", "KiB", name="입력 버퍼"))
    steps2 = (ex.derived(two_["A"], "Byte"), ex.derived(two_["B"], "Byte"),
              ex.derived(two_["inputs"], "Byte"), ex.derived(two_["acc"], "Byte"), ex.derived(two_["total"], "Byte", "KiB"))
    FM, FN, FK = 2 * T_b, T_b, T_b
    fit = buffers.tile_buffers(FM, FN, FK, s2, s_acc, copies=2)
    key = "fits" if fit.inputs <= limit else "no"
    held = (f" (SM에는 드라이버의 예약분을 더한 {fmt.kib(fit.inputs + gpu.sm.smem_reserved)}가 잡힌다)"
            if key == "fits" and gpu.sm and gpu.sm.smem_reserved else "")
    choices = (("fits", "들어간다"), ("no", "들어가지 않는다"))
    fit_ = buffers.derivation(FM, FN, FK, s2, s_acc, copies=2)
    steps3 = (ex.derived(fit_["A"], "Byte"), ex.derived(fit_["B"], "Byte"),
              ex.derived(fit_["inputs"], "Byte", "KiB", name="입력 버퍼 (두 벌)"),
              ex.Step(f"{fmt.kib(fit.inputs)} {'≤' if key == 'fits' else '>'} 블록 하나의 최대 Shared Memory {fmt.kib(limit)}이므로 "
                   f"{dict(choices)[key]}{held}", key, "fits"))
    N1 = ex.half(w4.N)
    T_mm = T_m if N1 % T_m == 0 else ex.divisor_near(N1, T_m)
    T_K = T_s if N1 % T_s == 0 else ex.divisor_near(N1, T_s)
    reads = kernels.matmul_tiles(N1, N1, N1, T_mm, T_mm, T_K, s2, s2)
    steps4 = (ex.Step(f"출력 타일 (N/T_M)·(N/T_N) = {ex.number(N1 // T_mm)}·{ex.number(N1 // T_mm)}개, 타일마다 K 단계 N/T_K = "
                   f"{ex.number(N1 // T_K)}번, 단계마다 s·(T_M·T_K + T_K·T_N) = {ex.number(s2 * (2 * T_mm * T_K))} Byte",
                   Fraction(s2 * 2 * T_mm * T_K), "per step"),
              ex.derived(reads.derivation("Q_read"), "Byte", "GB", name="A·B 읽기"))
    # the common mistakes, each the same buffers or reads with one term or input changed
    bits_one = buffers.tile_buffers(TM, TN, TK, 8 * s2, s_acc)
    wrong1 = {"double-buffer-extra": two.inputs, "acc-counted": one.total, "one-input": one.A,
              "bits-bytes": bits_one.inputs, "dtype-other": buffers.tile_buffers(TM, TN, TK, ex.other_size(cat, d2), s_acc).inputs}
    wrong2 = {"double-buffer": one.total, "acc-input-dtype": buffers.tile_buffers(TM, TN, TK, s2, s2, copies=2).total,
              "acc-doubled": two.inputs + 2 * two.acc,
              "bits-bytes": buffers.tile_buffers(TM, TN, TK, 8 * s2, 8 * s_acc, copies=2).total,
              "dtype-other": buffers.tile_buffers(TM, TN, TK, ex.other_size(cat, d2), s_acc, copies=2).total}
    single = buffers.tile_buffers(FM, FN, FK, s2, s_acc)
    wrong3 = {"double-buffer": "fits" if single.inputs <= limit else "no",
              "acc-counted": "fits" if fit.total <= limit else "no"}
    if gpu.sm:
        wrong3["per-sm-block"] = "fits" if fit.inputs <= gpu.sm.smem else "no"
        wrong3["reserved-added"] = "fits" if fit.inputs + gpu.sm.smem_reserved <= limit else "no"
    wrong4 = {"tile-reuse-ignored": kernels.matmul_no_reuse(N1, s2, s2).Q_read, "c-counted": reads.Q,
              "bits-bytes": kernels.matmul_tiles(N1, N1, N1, T_mm, T_mm, T_K, 8 * s2, 8 * s2).Q_read,
              "dtype-other": kernels.matmul_tiles(N1, N1, N1, T_mm, T_mm, T_K, *[ex.other_size(cat, d2)] * 2).Q_read}
    return ex.Exercises("④", (
        ex.Question("④-1", f"{ex.dtype_text(d2, s2)} 행렬곱의 직사각 타일 {ko.particle(tile, '이/가')} 붙잡는 A·B 입력 버퍼(한 벌)는?",
                 one.inputs, ex.UNITS["KiB"], f"{ex.formula(one_['A'])}, {ex.formula(one_['B'])}, {ex.formula(one_['inputs'])}, KiB = 2¹⁰ Byte", steps1,
                 given=ex.given(T_M=TM, T_N=TN, T_K=TK, s=s2, dtype=d2, machine=gpu.key, on_chip=one.inputs),
                 mistakes=ex.named(wrong1, ("double-buffer-extra", "acc-counted", "one-input", "bits-bytes", "dtype-other"),
                                   lambda v: v,
                                   BUFFER_HINTS, dtype=d2)),
        ex.Question("④-2", f"같은 타일에 이중 버퍼링을 쓰고 중간 합은 FP32({s_acc} Byte)로 누산한다. 입력 버퍼와 중간 합을 "
                 "합친 공간은?", two.total, ex.UNITS["KiB"], ", ".join(ex.formula(two_[k]) for k in ("A", "B", "acc", "total")), steps2,
                 given=ex.given(T_M=TM, T_N=TN, T_K=TK, s=s2, s_acc=s_acc, dtype=d2, machine=gpu.key,
                                on_chip=two.inputs),
                 mistakes=ex.named(wrong2, ("double-buffer", "acc-input-dtype", "acc-doubled", "bits-bytes", "dtype-other"),
                                   lambda v: v,
                                   BUFFER_HINTS, dtype=d2)),
        ex.Question("④-3", f"{d2} 타일 T_M×T_N×T_K = {fmt.integer(FM)}×{fmt.integer(FN)}×{fmt.integer(FK)}의 입력 버퍼를 이중 버퍼링으로 Shared Memory에 둔다. "
                 f"{gpu.name}의 블록 하나(Shared Memory 최대 {fmt.kib(limit)})에 들어가는가?", key, ex.CHOICE,
                 f"이중 버퍼링 입력({ex.formula(fit_['A'])}, {ex.formula(fit_['B'])})을 블록 하나가 받을 수 있는 Shared Memory와 견준다",
                 steps3, choices,
                 given=ex.given(T_M=FM, T_N=FN, T_K=FK, s=s2, dtype=d2, hardware=gpu.key),
                 mistakes=ex.named(wrong3, ("double-buffer", "acc-counted", "per-sm-block", "reserved-added"), lambda v: v,
                                   BUFFER_HINTS, dtype=d2)),
        ex.Question("④-4", f"{ex.shape(N1)} {ex.dtype_text(d2, s2)} 행렬곱에서 출력 타일을 {ko.particle(ex.shape(T_mm), '으로/로')} "
                 f"두고 K 조각 폭을 T_K = {ko.particle(str(T_K), '으로/로')} 잡는다. 타일 사이의 재사용이 없을 때 DRAM에서 읽는 A·B의 양은?", reads.Q_read, ex.UNITS["GB"],
                 f"A·B 읽기 = {reads.derivation('Q_read').term.formula}: T_K는 약분된다", steps4,
                 given=ex.given(N=N1, T_M=T_mm, T_N=T_mm, T_K=T_K, s=s2, dtype=d2),
                 mistakes=ex.named(wrong4, ("tile-reuse-ignored", "c-counted", "bits-bytes", "dtype-other"), lambda v: v,
                                   dtype=d2)),
    ))


BUFFER_HINTS = {   # what a mistake about a tile's on-chip storage left out or added
    "double-buffer-extra": "한 벌만 묻는다: 입력 버퍼 = s·(T_M·T_K + T_K·T_N).",
    "double-buffer": "이중 버퍼링이면 A·B 조각이 두 벌이다.",
    "acc-counted": "중간 합은 입력 버퍼와 따로 센다.",
    "acc-input-dtype": "중간 합은 FP32로 누산한다: s_acc·T_M·T_N.",
    "acc-doubled": "두 벌이 되는 것은 입력 버퍼뿐이다. 중간 합은 한 벌이다.",
    "one-input": "A 조각과 B 조각을 모두 붙잡는다.",
    "dtype-other": ex.MATMUL_HINTS["dtype-other"],
    "bits-bytes": ex.MATMUL_HINTS["bits-bytes"],
    "per-sm-block": "SM 전체가 아니라 블록 하나가 받을 수 있는 한도와 견준다.",
    "reserved-added": "예약분은 SM 쪽에서 더한다. 블록 한도와 견줄 것은 입력 버퍼뿐이다.",
}


# ---------------------------------------------------------------- the explorer


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


EXPLORER_T = "cell:T"   # the explorer's own T: "control:T" on the page, "typed:T" in the live mode (why.pooled)


def tile_buffers_state(w4, T, copies) -> dict:
    """④'s buffer sizes of one T×T×T tile with `copies` sets of A·B in the problem's dtype (roofline.buffers), each
    with its record."""
    T, copies = tile_choice(w4, T, copies)
    b = derived_buffers(w4, T, T, T, copies)
    b.src["T"] = EXPLORER_T
    return {"fields": {**{f"b{j}": text for j, text in enumerate(buffer_row(b))},
                       "tile": why.sentence("T = ", why.side("T", T, b.src), f", {BUFFERING[copies]}")}}


def tile_occupancy_state(w4, T, copies) -> dict:
    """④'s tile on one SM of the problem's `gpu` with its `threads` and `extra_registers`: the demand, the four
    limits, resident blocks, active warps, occupancy and the binding limit (roofline.occupancy.tile_case), in the
    chapter's words (show.occupancy_words)."""
    T, copies = tile_choice(w4, T, copies)
    preset = w4.catalog.presets[w4.gpu]
    case = occupancy.tile_case(preset, T, w4.s, copies, w4.threads, w4.extra_registers)
    r = case.result
    predict = tile_predict(w4, T, copies)
    return {"fields": occupancy_words(case, preset, w4, EXPLORER_T),
            "widths": {"occupancy": fmt.percent(r.occupancy if r else 0, 1).replace(" ", "")},
            "flags": {"misfit": r is None or not r.blocks}, **({"predict": predict} if predict else {})}


LIMIT_CHOICES = [[name, LIMIT_NAMES[name]] for name in occupancy.LIMITS]


def _blocks_with(preset, w4, T, copies) -> int:
    """Resident blocks of ④'s tile on `preset` (0 when no block can take it): the model's one call."""
    r = occupancy.tile_case(preset, T, w4.s, copies, w4.threads, w4.extra_registers).result
    return r.blocks if r else 0


def _binding_with(preset, w4, T, copies) -> str:
    r = occupancy.tile_case(preset, T, w4.s, copies, w4.threads, w4.extra_registers).result
    return r.binding[0] if r and r.binding else ""


def blocks_why(case, preset) -> str:
    """Why this many blocks: each limit's blocks, the smallest one decides."""
    r = case.result
    if r is None:
        return over_text(case, preset)
    limits = ", ".join(f"{LIMIT_NAMES[name]} {limit_text(n)}" for name, n in r.limits.items())
    return (f"상주 블록은 네 한도 가운데 가장 작은 값이다: {limits}. 블록 하나가 Shared Memory를 "
            f"{fmt.kib(r.smem_per_block)}(예약분 포함) 잡으므로 SM의 {fmt.kib(preset.sm.smem)}에는 "
            f"{limit_text(r.limits['smem'])}개까지 들어간다.")


def smem_why(w4, T, copies, smem) -> str:
    return (f"입력 버퍼 = 벌 수·s·(T·T + T·T) = {copies}·{w4.s}·({T}·{T} + {T}·{T}) = {fmt.integer(smem)} Byte = "
            f"{fmt.kib(smem)}다 (1 KiB = 1,024 Byte). T를 두 배로 하면 네 배가 된다.")


def tile_predict(w4, T, copies) -> dict:
    """④ predict first: the tile's input buffers (KiB), the resident blocks per SM and the binding limit. The
    mistakes are the model's calls with one thing changed: KB for KiB, the other buffering, the 1 KiB a block
    reserves left out, the per-block Shared Memory maximum taken for the SM's. A value the page's own tables show is
    not asked: the buffers of the problem's tiles (its buffer tables), the resident blocks and the binding limit of
    the problem's tiles on the GPUs of its tables (`gpus`) — None when nothing is left to ask. Hidden until the
    guess: the buffers, the demand and limits, the result and the problem's tiles on this GPU (the occupancy bar
    too)."""
    preset = w4.catalog.presets[w4.gpu]
    sm = preset.sm
    case = occupancy.tile_case(preset, T, w4.s, copies, w4.threads, w4.extra_registers)
    other = 3 - copies
    smem = case.smem
    no_reserve = replace(preset, sm=replace(sm, smem_reserved=0))
    per_block = replace(preset, sm=replace(sm, smem=sm.smem_per_block))
    kib = pr.number(
        "smem", f"T = {T}, {BUFFERING[copies]}: 블록 하나가 Shared Memory에 두는 입력 버퍼는?", smem, "KiB",
        fmt.kib(smem), smem_why(w4, T, copies, smem),
        [Mistake("kb-kib", Fraction(smem * 1024, 1000), "Byte를 1,000으로 나누어 KB로 센 값을 KiB로 적었다."),
         Mistake("double-buffer", buffers.tile_buffers(T, T, T, w4.s, w4.s, other).inputs,
                 f"{BUFFERING[other]}의 입력 버퍼다.")])
    tabled = T in w4.tiles                                  # this T's buffers and occupancy are in the page's tables
    questions = [] if tabled else [kib]
    if case.result is not None and not (tabled and w4.gpu in w4.gpus):
        r = case.result
        questions.append(pr.number(
            "blocks", f"{gpu_name(preset)}의 SM 하나에 이 블록이 몇 개 상주할까?", r.blocks, "개", f"{fmt.integer(r.blocks)}개",
            blocks_why(case, preset),
            [Mistake("reserved", _blocks_with(no_reserve, w4, T, copies), "블록마다 예약되는 Shared Memory 없이 센 수다."),
             Mistake("per-sm-block", _blocks_with(per_block, w4, T, copies),
                     f"SM의 Shared Memory로 블록 하나의 최대 {fmt.kib(sm.smem_per_block)}를 썼다."),
             Mistake("double-buffer", _blocks_with(preset, w4, T, other), f"{BUFFERING[other]}로 센 수다.")]))
        if r.binding:
            choice = pr.choice(
                "binding", "그 수를 정하는 한도는?", LIMIT_CHOICES, r.binding[0],
                f"{ko.particle(binding(r), '이/가')} 가장 작은 한도다: " + blocks_why(case, preset).split(": ", 1)[1],
                [Mistake("reserved", _binding_with(no_reserve, w4, T, copies), "예약분을 빼면 다른 한도가 먼저 닿는다."),
                 Mistake("per-sm-block", _binding_with(per_block, w4, T, copies),
                         "블록 하나의 최대를 SM의 Shared Memory로 쓰면 다른 한도가 먼저 닿는다.")],
                also=r.binding[1:])                # limits that tie are right too
            questions.append(choice)
    hidden = ["b0", "b1", "b2", "b3", "b4", "smem", "smem-alloc", "lim-warps", "lim-registers", "lim-smem",
              "lim-blocks", "blocks", "warps", "occupancy", "binding", "verdict"]
    return pr.part(questions, fields=hidden, tables={"tiles": [1, 2, 3, 4]}, widths=["occupancy"], flags=["misfit"])


def tile_cases_state(w4) -> dict:
    """The problem's tiles on its `gpu`, single and double buffering (the chapter's table of GPUs, one GPU), and
    the words of the sentences that name the condition: dtype, Byte per element, GPU, threads, registers allowance."""
    preset = w4.catalog.presets[w4.gpu]
    rows = []
    for T in w4.tiles:
        one, two = (resident(occupancy.tile_case(preset, T, w4.s, copies, w4.threads, w4.extra_registers), w4)
                    for copies in (1, 2))
        rows.append([keep(f"T = {fmt.integer(T)}"), _nbsp(one[0]), keep(one[1]), _nbsp(two[0]), keep(two[1])])
    src = {**why.sources(w4), **sm_origins(preset), "스레드": w4.origin("threads"), "여유분": w4.origin("extra_registers")}
    threads = var("스레드", w4.threads)
    W = named("W", tceil(threads / var("sm.warp_size", preset.sm.warp_size)))
    assert W.value == occupancy.warps_per_block(w4.threads, preset.sm.warp_size)
    fields = {"dtype": w4.dtype, "s": why.var("s", w4.s, src), "gpu-name": gpu_name(preset),
              "threads": why.integer(threads, src), "warps-per-block": why.integer(W, src),
              "extra": why.var("여유분", w4.extra_registers, src)}
    return {"fields": fields, "tables": {"tiles": {"align": TILES_ALIGN, "rows": rows}}}


def tile_state(w4, T, copies) -> dict:
    """④ for the problem `w4`, the tile side T and `copies`: the buffers, the occupancy and the problem's tiles."""
    parts = [tile_buffers_state(w4, T, copies), tile_occupancy_state(w4, T, copies), tile_cases_state(w4)]
    state: dict = {}
    for part in parts:
        for kind, values in part.items():
            state.setdefault(kind, {}).update(values)
    return state



BUFFER_MODES = [[str(k), label] for k, label in BUFFERING.items()]


@dataclass(frozen=True)
class TileOptions:
    """What ④'s static explorer offers: the presets with per-SM limits and the tile sides (the problem's threads
    and registers allowance; any other value, N and tiles are the live mode's)."""

    gpus: tuple[str, ...]
    Ts: tuple[int, ...]

    @property
    def count(self) -> int:
        return len(self.gpus) * len(self.Ts) * 2


def tile_options(w4) -> TileOptions:
    """Every power of two from 8 that divides N, up to the first whose single input buffers no GPU's block can
    take (one such T is shown), and the problem's tiles; every preset with per-SM limits."""
    presets = w4.catalog.presets
    gpus = tuple(key for key, p in presets.items() if p.sm)
    most = max(presets[key].sm.smem_per_block for key in gpus)
    Ts = []
    for T in powers_of_two(w4.N):
        Ts.append(T)
        if buffers.tile_buffers(T, T, T, w4.s, w4.s, 1).inputs > most:
            break
    return TileOptions(gpus, tuple(sorted(set(Ts) | set(w4.tiles))))


def tile_explorer(w4, T: int) -> explorer.Explorer:
    """④ The reader chooses T, single or double buffering and the GPU (presets with per-SM limits): the buffers,
    the four limits on resident blocks, the resident blocks, active warps, occupancy and the binding limit follow,
    and the problem's tiles on that GPU (`tile_buffers_state`, `tile_occupancy_state`,
    `tile_cases_state`: roofline.occupancy, the one function). The threads per block and the registers
    allowance are the problem's; the live mode takes any value of them, of N, the tiles and the dtype."""
    o = tile_options(w4)
    if T not in o.Ts:
        raise ParameterError(f"T: T = {T}은(는) 고를 수 있는 타일 한 변이 아니다. 고를 수 있는 값: {list(o.Ts)}")
    uid = "rl-tile"
    problems_at = {key: w4.with_(gpu=key) for key in o.gpus}
    sizes = {f"{t}|{c}": tile_buffers_state(w4, t, c) for t in o.Ts for c in (1, 2)}
    states = {f"{t}|{c}|{key}": tile_occupancy_state(p, t, c) for key, p in problems_at.items()
              for t in o.Ts for c in (1, 2)}
    cases = {key: tile_cases_state(p) for key, p in problems_at.items()}
    t_options = [[str(t), fmt.integer(t)] for t in o.Ts]
    g_options = [[key, w4.catalog.presets[key].name] for key in o.gpus]
    data = {
        "controls": {
            "T": {"kind": "range", "options": t_options, "initial": str(T)},
            "copies": {"kind": "radio", "options": BUFFER_MODES, "initial": "1"},
            "gpu": {"kind": "select", "options": g_options, "initial": w4.gpu},
        },
        "parts": [{"on": ["T", "copies"], "states": sizes},
                  {"on": ["T", "copies", "gpu"], "states": states},
                  {"on": ["gpu"], "states": cases}],
        "plots": {},
        "live": explorer.live_form("tile-size", w4, T=T, copies=1),
        "hash": {"T": "T", "copies": "copies", "gpu": "gpu"},
    }
    data["live"]["choices"] = {"copies": BUFFER_MODES}
    first = tile_state(w4, T, 1)
    f = first["fields"]
    row = [f[f"b{j}"] for j in range(len(TILE_HEADERS))]
    occ_rows = [(h, f[k]) for h, k in zip(OCC_HEADERS, OCC_KEYS)]
    controls = (explorer.slider(uid, "T", "타일 한 변 T (T_M = T_N = T_K)", t_options, str(T))
                + explorer.radios(uid, "copies", "입력 버퍼 A·B", BUFFER_MODES, "1")
                + explorer.select(uid, "gpu", "GPU 프리셋", g_options, w4.gpu))
    condition = (f'GPU는 {explorer.field("gpu-name", f["gpu-name"])}이고, 블록은 스레드 '
                 f'{explorer.field("threads", f["threads"])}개(워프 {explorer.field("warps-per-block", f["warps-per-block"])}개)에 '
                 f'스레드당 레지스터 여유분이 {explorer.field("extra", f["extra"])}개다')
    body = (
        f'<p class="rl-summary" aria-live="polite">{explorer.field("tile", f["tile"])}: {explorer.field("verdict", f["verdict"])}</p>'
        f'<div class="rl-meter" hidden><span class="rl-meter-label">점유율: SM 하나의 최대 워프 가운데 '
        f'활성 워프의 몫</span><span class="rl-meter-track"><span class="rl-meter-fill" '
        f'data-rl-width="occupancy" style="width: {first["widths"]["occupancy"]}"></span></span></div>'
        + explorer.table(["블록 하나의 공간", "값"], [(h, v) for h, v in zip(TILE_HEADERS, row)], "lr",
                 [[None, f"b{j}"] for j in range(len(row))])
        + explorer.table(["SM 하나의 점유율", "값"], occ_rows, "lr", [[None, k] for k in OCC_KEYS])
        + f'<p>매개변수 셀의 비교할 타일을 모두 같은 블록으로 {explorer.field("gpu-name", f["gpu-name"])}에 놓으면 다음과 같다. '
        '칸마다 상주 블록, 점유율과 그 수를 정한 한도다.</p>'
        + explorer.rows_table("tiles", TILES_HEADERS, first["tables"]["tiles"])
    )
    intro = (f"{explorer.field('dtype', f['dtype'])} 원소 {explorer.field('s', f['s'])} Byte로 T×T 출력 타일 하나를 맡는 블록이 실제 GPU의 "
             f"SM 하나에 몇 개 상주하는지 본다. {condition}. 입력 버퍼는 Shared Memory에, 중간 합은 스레드들의 "
             "레지스터에 나누어 둔다고 본다. 네 한도(워프 수, 레지스터, Shared Memory, 블록 수)는 위의 표와 같은 규칙으로 "
             '계산했다. <span class="rl-static-only">타일 한 변, 버퍼링, GPU를 바꿔 보자. 스레드 수와 레지스터 여유분, '
             "N과 타일은 ‘이 페이지에서 직접 계산하기’를 켜면 바꿀 수 있다.</span>")
    note = ("강의 사이트의 이 자리에서는 타일 한 변, 단일·이중 버퍼링, GPU를 골라 버퍼 크기와 네 한도, 상주 블록과 점유율이 "
            "바뀌는 것을 볼 수 있고, 그곳의 ‘이 페이지에서 직접 계산하기’를 켜면 스레드 수, 레지스터 여유분, N과 타일도 바꿀 수 있다. "
            "노트북에서는 매개변수 셀의 값을 바꾸고 다시 실행하면 된다. "
            f"아래는 지금 조건({f['tile']}, {w4.catalog.presets[w4.gpu].name}, 스레드 {w4.threads}개, "
            f"여유분 {w4.extra_registers}개)의 값이다.")
    table = tables.markdown(["항목", "값"], list(zip(TILE_HEADERS, row)) + occ_rows, "lr")
    return explorer.Explorer("tile-size", explorer.wrap(uid, intro, controls, body, data), explorer.markdown(note, table), len(states))




def _live_tile(course, v: dict) -> dict:
    w4 = course.week4.with_cell(v)
    return tile_state(w4, v["T"], v["copies"])


LIVE = {   # the live form: the parameters it takes, fields of its own, and the state of what was typed
    "tile-size": engine.Form("week4", ("dtype", "N", "tiles", "threads", "gpu", "extra_registers",
                                       ("T", "조건 탐색기에서 고른 타일 한 변 T (N의 약수)"), ("copies", "입력 버퍼 A·B")),
                             _live_tile),
}
