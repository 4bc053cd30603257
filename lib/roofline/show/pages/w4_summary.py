"""정리: the summary table, the precision-step correction and the remedies table, from the week's problem.

    limit_cell(case, ridge)          → "연산 성능 (I* = 20 초과)"
    summary_table(cases, ridge)
    precision_gpu(w4)             → the first GPU of `gpus` with every precision step (FP32, TF32, FP16, FP8)
    precision_steps(machine)      → the values and sentences of the correction box ("정밀도를 한 단계 낮추면 약 두 배")
    remedies_table(machine)
    occupancy_example(w4)   → ④'s occupancy, one sentence (roofline.occupancy)
"""
from __future__ import annotations

from fractions import Fraction

from roofline import occupancy
from roofline.derive import named, var
from roofline.errors import ParameterError
from roofline.problems import week4_cases
from roofline.show import fmt, ko, tables, why


def limit_cell(case, ridge, src: dict | None = None) -> str:
    """The limiting resource; when compute, how I stands to the ridge ("초과" or "와 같음"), I* with its record given
    `src`."""
    if case.timing.memory_bound:
        return ko.bound(case.timing)
    relation = "초과" if case.cost.I > ridge else "와 같음"
    if src is None:
        return f"{ko.bound(case.timing)} (I* = {fmt.number(ridge, 3)} {relation})"
    return why.sentence(f"{ko.bound(case.timing)} (I* = ", why.number(case.timing.hw.derivation("I*"), 3, src), f" {relation})")


def summary_table(cases, ridge, src: dict | None = None):
    if src is None:
        rows = [(ko.nbsp(ko.case(c)), fmt.decimal(c.cost.I, 3), fmt.ms(c.timing.t_ideal, 3), limit_cell(c, ridge))
                for c in cases]
    else:   # each number with its record
        rows = [(why.case_label(c, src, nbsp=True), why.decimal(c.cost.derivation("I"), 3, src),
                 why.ms(c.timing.derivation("t_ideal"), 3, src), limit_cell(c, ridge, src)) for c in cases]
    return tables.markdown(["방식", f"산술 강도 I ({fmt.unit('FLOPs/Byte', why.work(src))})", "이상적 시간 (ms)", "모델상 제한 자원"],
                           rows, "lrrl")


def shift(cases, src: dict) -> str:
    """Which compared cases have already moved to the flat roof (one sentence)."""
    flat = [c for c in cases if not c.timing.memory_bound]
    if flat:
        return why.sentence(why.cases(flat, src), "에서는 제한 자원이 이미 연산 성능으로 바뀌었다.")
    return "비교한 경우는 모두 아직 메모리 한계여서 타일을 더 키울 여지가 있다."


def _step(ratios) -> str:
    """"2.0배씩" when every step shows the same ratio, else "각각 2.0배, 2.1배"."""
    shown = [fmt.ratio(r, 1) for r in ratios]
    return f"{shown[0]}씩" if len(set(shown)) == 1 else "각각 " + ", ".join(shown)


def _beyond(ratio) -> str:
    """How the FP32 → TF32 step compares with two (the words follow the number)."""
    if ratio >= 3:
        return "두 배를 훌쩍 넘는다"
    if ratio > 2:
        return "두 배를 넘는다"
    return "두 배에 못 미친다" if ratio < 2 else "두 배다"


def peaks(machine) -> tuple[dict, dict]:
    """The dense peaks of PRECISIONS on `machine` as inputs P_FP32 … (and the FP16 2:4 sparse peak when the preset has
    one), and their origins."""
    names = {d: f"P_{d}" for d in PRECISIONS}
    src = {names[d]: f"toml:presets.{machine.key}.peak.{d}" for d in names}
    P = {d: var(names[d], machine.P(d)) for d in names}
    if "FP16" in machine.sparse:
        src.update({"P_FP16,희소": f"toml:presets.{machine.key}.sparse.FP16",
                    ("name", "P_FP16,희소"): ("FP16 2:4 구조적 희소 최대 연산 성능", "FLOPs/s")})
        P["FP16,희소"] = var("P_FP16,희소", machine.sparse["FP16"])
    return P, src


def peak_ratio(P: dict, src: dict, a: str, b: str):
    """P_a / P_b with its record, "2.0배"."""
    q = named(f"{P[a].symbol}/{P[b].symbol}", P[a] / P[b])
    return why.shown(q, fmt.ratio(q.value, 1), src, digits=1, unit="배")


def precision_steps(machine) -> dict[str, str]:
    """The correction box's glued values for `machine`: peaks (TFLOPs/s), the steps, the FP8 / FP16-sparse note."""
    P32, P_tf32, P16, P8 = (machine.P(d) for d in ("FP32", "TF32", "FP16", "FP8"))
    up = P_tf32 / P32
    sparse16 = machine.sparse.get("FP16")
    fp8 = fmt.number(P8 / 10**12, 1)
    P, src = peaks(machine)

    def ratio(a, b):
        return peak_ratio(P, src, a, b)

    steps = _step([P16 / P_tf32, P8 / P16])
    r16, r8 = ratio("FP16", "TF32"), ratio("FP8", "FP16")   # each step a number with its record, in every term
    tensor = why.sentence(r16, "씩") if steps.endswith("씩") else why.sentence("각각 ", r16, ", ", r8)
    assert tensor == steps
    up_ = ratio("TF32", "FP32")
    by = str(why.particle(up_, "으로/로"))[len(up_):]   # the particle, outside the number's button
    return {
        "gpu-name": machine.name,
        "p-fp32": why.tera(P["FP32"], 1, src),
        "p-tf32": why.tera(P["TF32"], 1, src),
        "p-fp16": why.tera(P["FP16"], 1, src),
        "p-fp8": why.shown(P["FP8"], fp8, src, digits=1, scale=Fraction(1, 10**12), unit="TFLOPs/s",
                           rounding="소수 1자리로 반올림, 끝의 0은 생략"),
        "tensor-steps": tensor,
        "tf32-step": why.sentence(up_, f"{by} 연산 유닛 자체가 바뀌는 만큼 {_beyond(up)}"),
        "fp8-note": (why.sentence(
            "FP8의 dense 최대 성능 ", why.particle(why.shown(P["FP8"], fp8, src, digits=1, scale=Fraction(1, 10**12),
                                                      unit="TFLOPs/s", rounding="소수 1자리로 반올림, 끝의 0은 생략"), "은/는"),
            " FP16의 2:4 구조적 희소 최대 성능과 숫자만 같다. 앞의 것은 보통의 dense GEMM이 FP8로 닿을 수 있는 상한이고, "
            "뒤의 것은 2:4 구조를 지킨 FP16 행렬에서만 나온다.") if sparse16 == P8 else ""),
    }


def remedies_table(machine):
    """Three directions once a kernel is compute-bound: faster units, fewer FLOPs, higher utilisation."""
    P32, P_tf32, P16, P8 = (machine.P(d) for d in ("FP32", "TF32", "FP16", "FP8"))
    P, src = peaks(machine)
    sparse_note = ""
    if "FP16" in machine.sparse:   # (no code span in a cell with buttons: the cell's text is its Markdown)
        sparse_note = why.sentence(f" 구조적 희소의 최대 성능({machine.name} FP16은 dense의 ",
                                   peak_ratio(P, src, "FP16,희소", "FP16"), ")은 2:4 구조를 지킨 행렬에서만 나온다.")
    nearly = ko.nearly([P16 / P_tf32, P8 / P16])
    rows = [
        ("더 빠른 연산 유닛",
         "낮은 정밀도(FP32 → TF32 → BF16/FP16 → FP8, 최신 세대는 FP4까지), Tensor Core·MXU 같은 전용 유닛, "
         "`2:4` 구조적 희소(structured sparsity), 칩 수 늘리기(병렬화)",
         why.sentence(   # (a range such as "약 1.5–2.4배" would be numbers without their records: the steps say them)
             "Tensor Core 형식끼리는 한 단계 내릴 때마다 처리량이 ",
             f"{nearly}가 된다" if nearly.startswith("거의") else "늘어난다", f"({machine.name}: TF32 → FP16 ",
             peak_ratio(P, src, "FP16", "TF32"), ", FP16 → FP8 ", peak_ratio(P, src, "FP8", "FP16"),
             "). CUDA Core의 FP32에서 Tensor Core의 TF32로 넘어가는 단계는 ",
             why.particle(peak_ratio(P, src, "TF32", "FP32"), "이다/다"), ". 원소가 작아지는 만큼 메모리 트래픽도 준다.",
             sparse_note, " 칩을 늘리면 이번에는 칩 사이 통신이 새 병목으로 떠오른다.")),
        ("연산량 F 줄이기",
         "모델 구조 바꾸기(MoE, sliding window attention, GQA/MQA, pruning, low-rank 분해), 필요 없는 계산 덜어내기"
         "(causal mask로 가려진 블록 건너뛰기, KV cache, speculative decoding, padding 없애기), "
         "Strassen·Winograd처럼 곱셈 수가 적은 알고리즘",
         "알고리즘을 바꾸는 방법은 수치가 불안정해지거나 하드웨어에 잘 맞지 않는 일이 많아 제한적으로 쓴다. "
         "GQA/MQA는 FLOPs보다 KV 캐시 크기를 더 크게 줄이므로 메모리 쪽 처방이기도 하다. "
         "KV cache는 앞선 토큰의 K·V를 다시 계산하지 않게 해 연산량을 덜어 준다. 대신 decode 단계마다 캐시 전체를 "
         "DRAM에서 읽어야 해서 산술 강도가 떨어지고, decode는 메모리 한계 쪽으로 밀려난다. 원래 연산 한계인 prefill "
         "단계에는 이 설명이 들어맞지 않는다."),
        ("활용률(MFU) 높이기",
         "연산 유닛이 한 번에 다루는 크기의 배수로 타일을 맞춰 padding으로 버리는 계산 줄이기, 읽기(load)와 계산(compute)을 겹치는 "
         "파이프라이닝(이중 버퍼링), softmax·layernorm처럼 행렬곱이 아닌 연산의 fusion, autotuning",
         "실제로 낸 성능이 최대 성능에 크게 못 미칠 때 손볼 곳이다."),
    ]
    return tables.markdown(["방향", "방법", "비고"], rows, "lll")


def occupancy_example(w4) -> str:
    """The occupancy of ④'s blocks on the problem's `gpu` for each tile (single buffer), from roofline.occupancy, in
    sentences (each number with its record: ④'s derivation of the case)."""
    from roofline.show.pages.w4_4_tile_size import case_derivation, joined

    gpu = w4.catalog.preset(w4.gpu)
    fits, misfits = [], []
    src = {**why.sources(w4), "스레드": w4.origin("threads"), "여유분": w4.origin("extra_registers")}
    for T in w4.tiles:
        case = occupancy.tile_case(gpu, T, w4.s, 1, w4.threads, w4.extra_registers)
        r = case.result
        if r and r.blocks:
            how, case_src = case_derivation(case, gpu, w4)
            fits.append(why.sentence("T = ", why.side("T", T, case_src), "에서 ", why.percent(how["occupancy"], 1, case_src),
                                     "(블록 ", why.integer(how["blocks"], case_src), "개)"))
        else:
            misfits.append(why.side("T", T, src))
    name = gpu.name.split(" (")[0]
    said = []
    if fits:
        said.append(why.sentence(f"예를 들어 {name}에서 스레드 ", why.var("스레드", w4.threads, src), "개짜리 블록의 점유율은 ",
                                 *joined(fits, ", "), "다."))
    if misfits:
        said.append(why.sentence(f"{'' if fits else name + '에서 '}T = ", *joined(misfits, ", "), "의 블록은 SM에 올라가지 않는다."))
    said.append(why.sentence("입력 버퍼를 한 벌만 두고, 스레드마다 중간 합에 더해 레지스터 ", why.var("여유분", w4.extra_registers, src),
                             "개를 쓴다고 본 값이다."))
    return why.sentence(*joined(said, " "))


# ---------------------------------------------------------------- the page's values, one dict per section

def summary_section(w4) -> dict:
    """The summary table, the shape and dtype it speaks of, which cases moved to the flat roof, and ④'s occupancy."""
    cases = week4_cases(w4)
    src = why.sources(w4)
    return {"table-summary": summary_table(cases, w4.roofline.ridge, src),
            "shape": why.around(why.var("N", w4.N, src), f"{fmt.integer(w4.N)}×{fmt.integer(w4.N)}"),
            "dtype": w4.dtype, "summary-shift": shift(cases, src), "summary-occupancy": occupancy_example(w4),
            "unit-I": ko.units(w4.dtype)["unit-I"]}


PRECISIONS = ("FP32", "TF32", "FP16", "FP8")   # the correction box's steps: CUDA Core FP32, then the Tensor Core formats


def precision_gpu(w4):
    """The GPU of the precision steps: the first of `gpus` with a dense peak for every one of PRECISIONS (a T4 has no
    TF32 or FP8, an A100 no FP8); a Korean error naming `gpus` when none has."""
    presets = [w4.catalog.preset(key) for key in w4.gpus]
    for preset in presets:
        if all(d in preset.peak for d in PRECISIONS):
            return preset
    able = [key for key, p in w4.catalog.presets.items() if p.sm and all(d in p.peak for d in PRECISIONS)]
    raise ParameterError(f"gpus: 정리의 정밀도 비교에는 {', '.join(PRECISIONS)} 최대 성능이 모두 있는 GPU가 하나는 있어야 한다. "
                         f"받은 값: {list(w4.gpus)}. 그런 GPU: {', '.join(able)}")


def precision_section(w4) -> dict:
    """The precision-step correction and the remedies table, on the first GPU of `gpus` that has every step."""
    machine = precision_gpu(w4)
    return {**precision_steps(machine), "table-remedies": remedies_table(machine)}
