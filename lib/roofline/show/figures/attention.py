"""The FlashAttention note's two pictures: HBM traffic of attention over N, and the GEMM roofline
bound over the batch size b on the note's preset. Both are model bounds, not measurements."""
from __future__ import annotations

import numpy as np
from roofline.show.style import Figure

from roofline import attention, gemm
from roofline.show import fmt, style
from roofline.show.figures import figure

TERA = float(fmt.TERA)
MIB = 2**20


def traffic_curves(note, N_values):
    """(standard, flash) HBM Byte per head for each N, with the note's d, dtype and SRAM (smem per SM)."""
    d, s = note.attention.d_head, note.s
    M = attention.sram_elements(note.hardware.smem_per_SM, s)
    _, B_c = attention.flash_blocks(M, d)
    standard = [attention.standard_traffic(N, d) * s for N in N_values]
    flash = [attention.flash_traffic(N, d, B_c) * s for N in N_values]
    return standard, flash, M, B_c


@figure("flash-hbm-traffic", "note")
@style.styled
def flash_hbm_traffic(note) -> Figure:
    """Standard attention Θ(Nd + N²) against FlashAttention Θ(N²d²/M), per head, log–log."""
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
    ax.set_ylabel("헤드 하나의 HBM 이동 (MiB, 로그 축)")
    ax.set_title(f"{note.dtype}, d = {d}, M = {fmt.integer(M)} 원소, B_c = {B_c}\n모델 값 (측정값 아님)",
                 fontsize=11)
    ax.legend(loc="upper left", fontsize=11, framealpha=0.95)
    style.plain_log_ticks(ax)
    return fig


@figure("gemm-batch-roofline", "note")
@style.styled
def gemm_batch_roofline(note) -> Figure:
    """R_roof(b) = min(P, BW · I(b)) for (b×K)·(K×N) on the note's preset, with the dense and 2:4-sparse peaks."""
    hw = note.hardware.roofline(note.dtype)
    N, K, s = note.gemm.N, note.gemm.K, note.s
    rows = gemm.batch_sweep(note.gemm.batches, N, K, hw, s)
    b = np.unique(np.geomspace(1, max(note.gemm.batches) * 2, 300).round().astype(int))
    I = np.array([float(gemm.gemm(int(batch), N, K, s).I) for batch in b])   # the library's I(b), whole batches
    P, BW = float(hw.P), float(hw.BW)
    fig = Figure(figsize=(5.6, 4.4))
    ax = fig.subplots()
    ax.loglog(b, np.minimum(P, BW * I) / TERA, color="black", lw=2, label="상한 min(P, BW × I(b))")
    sparse = note.hardware.sparse.get(note.dtype)
    if sparse is not None:
        ax.axhline(float(sparse) / TERA, color="gray", ls=":", lw=1.2,
                   label=f"2:4 희소 최대 {fmt.number(sparse / 10**12, 1)} TFLOPs/s\n(dense GEMM은 못 쓴다)")
    b_star = gemm.crossover_batch(N, K, hw, s)
    if b_star is not None:
        ax.axvline(float(b_star), color="gray", ls="--", lw=1)
        ax.annotate(f"I(b) = I* = {fmt.decimal(hw.ridge, 1)}\nb ≈ {fmt.decimal(b_star, 1)}",
                    xy=(float(b_star), P / TERA), xytext=(float(b_star) * 1.3, P / TERA / 8), fontsize=11,
                    arrowprops={"arrowstyle": "->", "color": "gray"})
    for row in rows:
        ax.plot(row.b, float(row.timing.R_roof) / TERA, "o", color="#d62728" if row.timing.memory_bound else "#2ca02c",
                ms=6)
    ax.text(1.2, P / TERA * 1.15, f"dense 최대 P = {fmt.number(hw.P / 10**12, 1)} TFLOPs/s", fontsize=11, color="dimgray")
    ax.plot([], [], "o", color="#d62728", label="HBM 대역폭이 상한을 정함")
    ax.plot([], [], "o", color="#2ca02c", label="연산 성능이 상한을 정함")
    ax.set_ylim(top=float(sparse or hw.P) / TERA * 3)
    ax.set_xlabel("배치 크기 b (로그 축)")
    ax.set_ylabel("성능 상한 (TFLOPs/s, 로그 축)")
    ax.set_title(f"{note.hardware.name} {note.dtype}: (b×{K})·({K}×{N}) GEMM\nRoofline 상한 (측정값 아님)",
                 fontsize=11)
    ax.legend(loc="lower right", fontsize=10, framealpha=0.95)
    style.plain_log_ticks(ax)
    return fig
