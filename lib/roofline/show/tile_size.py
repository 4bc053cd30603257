"""④ tile size: the tables and the sentences whose truth depends on the parameters.

    storage_table(s, dtype)                  → A·B pieces and the partial sums in T_M, T_N, T_K
    buffer_table(single), double_table(single, double)
    resident_table(gpus, tiles, single, double, bound), misfits(gpus, tiles, bound)
    k_widths(N, T) → the K widths to compare for a T×T output tile; k_width_table(N, T, s)
    big_verdict(timing, T)
"""
from __future__ import annotations

from fractions import Fraction

from roofline import buffers
from roofline.show import fmt, ko, tables, tex


def _byte_kib(n) -> str:
    return f"{fmt.integer(n)} B ({fmt.kib(n)})"


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


def buffer_table(single: dict):
    """T → TileBuffers (one copy of A·B): each piece in Byte and KiB, the sums in KiB."""
    rows = [(ko.nbsp(f"T = {T}"), _byte_kib(b.A), _byte_kib(b.B), fmt.kib(b.inputs), fmt.kib(b.acc), fmt.kib(b.total))
            for T, b in single.items()]
    return tables.markdown(["타일", "A 입력 버퍼", "B 입력 버퍼", "입력 합계", "중간 합", "논리적 총합"], rows)


def double_table(single: dict, double: dict):
    rows = [(ko.nbsp(f"T = {T}"), fmt.kib(single[T].inputs), fmt.kib(double[T].inputs), fmt.kib(double[T].acc),
             fmt.kib(single[T].total), fmt.kib(double[T].total)) for T in single]
    return tables.markdown(["타일", "입력 (단일 버퍼)", "입력 (이중 버퍼링)", "중간 합", "총합 (단일 버퍼)",
                            "총합 (이중 버퍼링)"], rows)


def _blocks(n: int) -> str:
    return fmt.integer(n) if n else ko.nbsp("0 (안 들어감)")


def resident_table(gpus, tiles, single: dict, double: dict, bound: dict):
    """One row per (GPU, T): SM Shared Memory, the inputs and ⌊smem/inputs⌋, single and double buffering.

    `bound[(gpu.key, T, copies)]` is the resident-block bound for that case."""
    rows = [(ko.nbsp(_gpu(g)), ko.nbsp(fmt.kib(g.smem_per_SM)), ko.nbsp(f"T = {T}"),
             ko.nbsp(fmt.kib(single[T].inputs)), _blocks(bound[g.key, T, 1]),
             ko.nbsp(fmt.kib(double[T].inputs)), _blocks(bound[g.key, T, 2]))
            for g in gpus for T in tiles]
    return tables.markdown(["GPU", "SM당 Shared Memory", "타일", "입력 (단일 버퍼)", "상주 블록 상한 (단일 버퍼)",
                            "입력 (이중 버퍼링)", "상주 블록 상한 (이중 버퍼링)"], rows, "llrrrrr")


def misfits(gpus, tiles, bound: dict) -> str:
    """Which (GPU, T, buffering) do not fit even their input buffers into one SM, as one sentence."""
    clauses = []
    for g in gpus:
        parts = []
        for T in tiles:
            single, double = bound[g.key, T, 1] == 0, bound[g.key, T, 2] == 0
            label = f"T = {T}"
            if single and double:
                parts.append(f"{ko.particle(label, '이면/면')} 단일 버퍼든 이중 버퍼링이든")
            elif double:
                parts.append(f"{ko.particle(label, '을/를')} 이중 버퍼링하면")
            elif single:
                parts.append(f"{ko.particle(label, '을/를')} 단일 버퍼로 두면")
        if parts:
            clauses.append(f"{_gpu(g)}에서 " + ", ".join(parts))
    if not clauses:
        return "이 표의 경우는 모두 입력 버퍼가 SM 하나에 들어간다."
    return ", 그리고 ".join(clauses) + " 입력 버퍼조차 SM 하나에 들어가지 않는다."


def k_widths(N: int, T: int) -> list[int]:
    """K widths to compare for a T×T output tile: T/8, T/4, T/2, T, 2T, 4T, those that are whole and divide N."""
    widths = {T // d for d in (8, 4, 2) if T % d == 0} | {T * m for m in (1, 2, 4)}
    return sorted(w for w in widths if w > 0 and N % w == 0)


def k_width_table(N: int, T: int, s: int, by_T_K: dict):
    """For a T×T output tile and K = N: steps, Byte per step and per tile, all A·B reads (`by_T_K[T_K]`, the
    kernel's Cost), buffers — one row per K width."""
    rows = []
    for T_K, cost in by_T_K.items():
        b = buffers.tile_buffers(T, T, T_K, s, s)
        step = s * 2 * T * T_K
        rows.append((ko.nbsp(f"T_K = {fmt.integer(T_K)}"), fmt.integer(N // T_K), fmt.integer(step),
                     fmt.integer(N // T_K * step), fmt.integer(cost.Q_read), fmt.kib(b.inputs), fmt.kib(b.acc)))
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


def big_verdict(timing, T: int) -> str:
    """Where the largest tile stands on the roofline, and what that means for larger tiles (two sentences)."""
    if timing.memory_bound:
        return (f"I가 아직 분기점에 못 미치므로 T = {T} 타일도 메모리 한계다. 메모리 시간이 연산 시간보다 길다. "
                "이상적 시간은 둘 가운데 긴 쪽이다. 아직은 메모리 시간이 길므로, 타일을 더 키우면 이상적 시간도 줄어든다.")
    return (f"I가 분기점을 넘었으므로 T = {T} 타일은 연산 한계다. 연산 시간이 메모리 시간보다 길다. "
            "이상적 시간은 둘 가운데 긴 쪽이다. 그러니 타일을 더 키워 메모리 시간을 깎아도 F/P보다 짧아지지는 않는다.")
