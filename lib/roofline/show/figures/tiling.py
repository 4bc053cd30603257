"""③'s pictures, drawn from the library's own counts (walk, cachesim), never from typed numbers.

- week4-tiling-4x4:   small_N×small_N matmul in small_T×small_T tiles: every K step of C00 (the A and B
                      tiles read from HBM, the accumulator kept on chip), then the single write of C00;
- week4-tiling-reuse: inside one K step, row a_i of the A tile meets column b_j of the B tile: each input
                      row and column is used T times;
- week4-tiling-cache: N×N, each tile side T: HBM reads per input element against the cache capacity,
                      row-major (solid) against grouped (dashed) tile order (LRU simulation, cachesim);
                      each panel in its tile's colour, style.case_color (the roofline figure's).
"""
from __future__ import annotations

from roofline.show.style import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, Rectangle

from roofline import cachesim, walk
from roofline.cachesim import miss_curve
from roofline.show import fmt, style
from roofline.show.figures import figure

A_COLOR = "#f4a261"     # A tile read in this step
B_COLOR = "#6fa8dc"     # B tile read in this step
ACC_COLOR = "#93c47d"   # on-chip accumulator / written C tile
IDLE = "#f3f3f3"
EDGE = "#444444"


def tile_name(letter: str, row: int, column: int, tiles: int) -> str:
    """"A01" for small grids, "A0,1" when an index has two digits."""
    return f"{letter}{row}{column}" if tiles <= 10 else f"{letter}{row},{column}"


def _grid(ax, x0: float, y0: float, N: int, T: int, letter: str, highlight=None, color=IDLE, names=True):
    """An N×N matrix of cells at (x0, y0) (top-left), T×T tiles outlined, one tile filled."""
    n = N // T
    for r in range(n):
        for c in range(n):
            filled = highlight == (r, c)
            ax.add_patch(Rectangle((x0 + c * T, y0 - (r + 1) * T), T, T, facecolor=color if filled else "white",
                                   edgecolor=EDGE, lw=1.6))
            if names:            # above the element grid (zorder), on an opaque box: no line runs through a label
                ax.text(x0 + c * T + T / 2, y0 - r * T - T / 2, tile_name(letter, r, c, n), ha="center",
                        va="center", fontsize=12, fontweight="bold" if filled else "normal",
                        color="black" if filled else "#777777", zorder=4,
                        bbox={"boxstyle": "square,pad=0.3", "fc": color if filled else "white", "ec": "none"})
    for i in range(1, N):       # element grid, under the labels
        if i % T:
            ax.plot([x0 + i, x0 + i], [y0, y0 - N], color="#cccccc", lw=0.6, zorder=1.5)
            ax.plot([x0, x0 + N], [y0 - i, y0 - i], color="#cccccc", lw=0.6, zorder=1.5)
    ax.text(x0 + N / 2, y0 + 0.35, letter, ha="center", va="bottom", fontsize=13)


def _arrow(ax, x0, y, x1, text=None):
    ax.add_patch(FancyArrowPatch((x0, y), (x1, y), arrowstyle="-|>", mutation_scale=14, color=EDGE, lw=1.4))
    if text:
        ax.text((x0 + x1) / 2, y + 0.25, text, ha="center", va="bottom", fontsize=11, color=EDGE)


@style.styled
def draw_4x4(N: int, T: int, s: int) -> Figure:
    """Every K step of C00 and its single write, with the Byte counted by `walk.tiled(N, T, s, s)`."""
    w = walk.tiled(N, T, s, s)
    n = N // T
    steps = w.tile_steps((0, 0))
    gap = 2.2
    width = 3 * N + 2 * gap + T + gap + 9.5
    row_h = N + 1.6
    x_lo, y_top = -4.2, 3.0
    y_lo = -len(steps) * row_h - N - 0.4
    fig, ax = _fitted_axes(x_lo, width, y_lo, y_top, inches=8)
    xA, xB = 0, N + gap
    xacc = 2 * N + 2 * gap
    xtext = xacc + T + gap
    for number, step in enumerate(steps):
        y = -number * row_h
        k_from, k_to = step.k * T, step.k * T + T - 1
        ax.text(-0.4, y - N / 2, f"K 단계 {number + 1}\n(k = {k_from}…{k_to})", ha="right", va="center", fontsize=12)
        _grid(ax, xA, y, N, T, "A", step.A, A_COLOR)
        ax.text(N + gap / 2, y - N / 2, "@", ha="center", va="center", fontsize=16)
        _grid(ax, xB, y, N, T, "B", step.B, B_COLOR)
        _arrow(ax, 2 * N + gap + 0.3, y - N / 2, xacc - 0.3)
        ax.add_patch(Rectangle((xacc, y - T - (N - T) / 2), T, T, facecolor=ACC_COLOR, edgecolor=EDGE, lw=1.6))
        ax.text(xacc + T / 2, y - (N - T) / 2 + 0.35, "acc (온칩)", ha="center", va="bottom", fontsize=12)
        a, b = tile_name("A", *step.A, n), tile_name("B", *step.B, n)
        update = f"acc = 0 + {a} @ {b}" if number == 0 else f"acc += {a} @ {b}"
        ax.text(xtext, y - N / 2 + 1.0, update, ha="left", va="center", fontsize=12, family="DejaVu Sans Mono")
        ax.text(xtext, y - N / 2 - 0.5,
                f"HBM에서 읽기: {a}, {b}\n{fmt.integer(step.loads)}원소 × {s} B = {fmt.integer(step.loads * s)} B",
                ha="left", va="center", fontsize=12)
    y = -len(steps) * row_h
    c_name = tile_name("C", 0, 0, n)
    _grid(ax, xA, y, N, T, "C", (0, 0), ACC_COLOR)
    ax.add_patch(Rectangle((xacc, y - T - (N - T) / 2), T, T, facecolor=ACC_COLOR, edgecolor=EDGE, lw=1.6))
    ax.text(xacc + T / 2, y - (N - T) / 2 + 0.35, "acc (온칩)", ha="center", va="bottom", fontsize=12)
    _arrow(ax, xacc - 0.3, y - N / 2, N + 0.4, "마지막에 한 번 쓰기")
    ax.text(xtext, y - N / 2,
            f"HBM에 {c_name} 쓰기: {fmt.integer(T * T)}원소 × {s} B = {fmt.integer(T * T * s)} B\n"
            f"중간 합은 끝까지 칩 안에 둔다", ha="left", va="center", fontsize=12)
    total = sum(st.loads for st in steps) * s
    ax.text((x_lo + width) / 2, y_top - 0.3, f"{N}×{N} 행렬곱, {T}×{T} 출력 타일: {c_name}을 만드는 {len(steps)}개 K 단계 "
            f"(읽기 {fmt.integer(total)} B, 쓰기 {fmt.integer(T * T * s)} B)", ha="center", va="top", fontsize=13)
    return fig


def _fitted_axes(x0: float, x1: float, y0: float, y1: float, inches: float):
    """A figure `inches` wide whose single axes fills it and shows [x0, x1]×[y0, y1] at equal scale:
    the figure's aspect is the data's, so there is no empty band (no constrained layout, no title box)."""
    fig = Figure(figsize=(inches, inches * (y1 - y0) / (x1 - x0)), layout="none")
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_axis_off()
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_aspect("equal")
    return fig, ax


@style.styled
def draw_reuse(T: int) -> Figure:
    """One K step: rows a_i of the A tile (horizontal strips of T elements) times columns b_j of the
    B tile (vertical strips of T elements); each row and column is used T times."""
    w = walk.tiled(T, T)
    step = w.steps[0]
    uses = (step.flops // 2) // (step.loads // 2)     # multiplies per loaded element = T
    cell, e, gap = 1.5, 0.45, 0.35                    # product cell, one element of a strip, strip-to-grid gap
    strip = T * e
    x_lo, x_hi = -gap - strip - 0.9, T * cell + 2.3
    y_lo, y_top = -T * cell - 0.9, gap + strip + 1.45
    fig, ax = _fitted_axes(x_lo, x_hi, y_lo, y_top, inches=min(9.5, 0.62 * (x_hi - x_lo)))
    for j in range(T):         # column b_j of the B tile: a vertical strip of T elements above column j
        x = j * cell + (cell - e) / 2
        for k in range(T):
            ax.add_patch(Rectangle((x, gap + strip - (k + 1) * e), e, e, facecolor=B_COLOR, edgecolor=EDGE, lw=1))
        ax.text(x + e / 2, gap + strip + 0.08, f"$b_{{{j}}}$", ha="center", va="bottom", fontsize=12)
    for i in range(T):         # row a_i of the A tile: a horizontal strip of T elements left of row i
        y = -(i + 1) * cell + (cell - e) / 2
        for k in range(T):
            ax.add_patch(Rectangle((-gap - strip + k * e, y), e, e, facecolor=A_COLOR, edgecolor=EDGE, lw=1))
        ax.text(-gap - strip - 0.1, y + e / 2, f"$a_{{{i}}}$", ha="right", va="center", fontsize=12)
        for j in range(T):
            ax.add_patch(Rectangle((j * cell, -(i + 1) * cell), cell, cell, facecolor="white", edgecolor=EDGE))
            ax.text(j * cell + cell / 2, -(i + 0.5) * cell, f"$a_{{{i}}} \\cdot b_{{{j}}}$", ha="center",
                    va="center", fontsize=11)
        ax.text(T * cell + 0.2, -(i + 0.5) * cell, f"$a_{{{i}}}$: {uses}번 사용", ha="left", va="center", fontsize=10)
    for j in range(T):
        ax.text(j * cell + cell / 2, -T * cell - 0.25, f"$b_{{{j}}}$: {uses}번 사용", ha="center", va="top",
                fontsize=10)
    ax.text((x_lo + x_hi) / 2, y_top - 0.1, f"K 단계 하나 ({T}×{T} 타일): A 조각의 행 $a_i$와 B 조각의 열 $b_j$\n"
            f"둘 다 원소 {T}개인 벡터", ha="center", va="top", fontsize=11)
    return fig


@style.styled
def draw_cache(N: int, tiles, s: int, capacities, group_size_M: int) -> Figure:
    """HBM reads per input element against cache capacity (MiB), row-major and grouped order, per tile side."""
    fig = Figure(figsize=(7.2, 2.3 * len(tiles) + 1.0))
    axes = fig.subplots(len(tiles), 1, sharex=True, sharey=True, squeeze=False)[:, 0]
    per_element = 2 * N * N
    x_min = 0.25                                      # MiB: below this no tile order differs much
    x_max = 2 * (2 * s * N * N) / 2**20               # twice A and B together
    for number, (ax, T) in enumerate(zip(axes, tiles), start=1):
        line = s * T * T
        top = 4 * (N // T) ** 2 + 1                 # beyond every input tile: everything fits
        color = style.case_color(number)            # the tile's colour in every week-4 figure (0 = 재사용 없음)
        for order, label, dashes, group in ((cachesim.ROW, "행 우선 순서 (실선)", "-", None),
                                            (cachesim.GROUPED, f"묶음 순서 (파선, GROUP_SIZE_M = {group_size_M})",
                                             "--", group_size_M)):
            d = cachesim.distances(N, T, order, group)
            caps, misses = miss_curve(d, top)
            ax.step(caps * line / 2**20, misses * T * T / per_element, where="post", color=color, ls=dashes,
                    lw=2.4 if dashes == "-" else 2, label=label)
        ax.axhline(N // T, color="gray", ls="--", lw=1)
        ax.axhline(1, color="gray", ls=":", lw=1)
        ax.text(x_min * 1.15, N // T * 1.15, "타일 사이 재사용 없음 (N/T)", fontsize=9, color="dimgray")
        ax.text(x_min * 1.15, 1.15, "각 원소 한 번", fontsize=9, color="dimgray")
        for capacity in capacities:
            ax.axvline(capacity / 2**20, color="#999999", lw=0.8, ls="-.")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(x_min, x_max)
        ax.set_ylim(0.7, N // min(tiles) * 2)
        style.plain_log_ticks(ax)
        ax.set_title(f"T = {T} (타일 하나 {fmt.kib(line)})", fontsize=11, color=color, fontweight="bold")
        ax.set_ylabel("원소당 읽기 횟수")
    axes[-1].set_xlabel("캐시 용량 (MiB, 로그 축)")
    # the legend names the line styles; the colour is the panel's tile
    handles = [Line2D([], [], color="black", ls="-", lw=2.4), Line2D([], [], color="black", ls="--", lw=2)]
    labels = [line.get_label() for line in axes[0].get_lines()[:2]]
    fig.legend(handles, labels, loc="outside lower center", ncol=2, fontsize=10, frameon=False)
    fig.suptitle(f"{N}×{N} 행렬곱: 입력 원소당 HBM 읽기 (로그 축)\nLRU 캐시 용량과 타일 순서에 따라 (세로 선: 본문 표의 용량)",
                 fontsize=12)
    return fig


@figure("week4-tiling-4x4", "week4")
def week4_tiling_4x4(w4) -> Figure:
    return draw_4x4(w4.small_N, w4.small_T, w4.s)


@figure("week4-tiling-reuse", "week4")
def week4_tiling_reuse(w4) -> Figure:
    return draw_reuse(w4.small_T)


@figure("week4-tiling-cache", "week4")
def week4_tiling_cache(w4) -> Figure:
    return draw_cache(w4.N, w4.tiles, w4.s, w4.cache.capacities, w4.cache.group_size_M)
