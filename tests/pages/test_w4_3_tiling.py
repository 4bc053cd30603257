"""③ Tiling (chapters/w4_3_tiling.md, roofline.show.pages.w4_3_tiling): the page's shape, its glued values for the
seed and the live parameters, its three figures, its Korean lists, and the chapter at a large size in bounded memory.
"""
from __future__ import annotations

import re
import warnings

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

import roofline as rl
from conftest import CHAPTERS, live_glued, seed_glued
from roofline import cachesim
from roofline.show import fmt
from roofline.show.figures import FIGURES
from roofline.show.pages import w4_3_tiling as tiling_figures

BOTH_TERMS = True   # every test that takes `course` runs for the live and the next term (tests/conftest.py)
SOURCE = CHAPTERS / "w4_3_tiling.md"
BOUNDED = """
import resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))   # 2 GB of address space for this process
import io
import roofline
from roofline.show import style
from roofline.show.pages import w4_3_tiling as tiling
start = time.perf_counter()
w4 = roofline.load().week4.with_(N=16384, tiles=[16, 32])
glued = {**tiling.general(w4), **tiling.cache_big(w4)}
glued["fig-cache"].savefig(io.BytesIO(), format="svg", metadata=style.SVG_METADATA)
print(f"{time.perf_counter() - start:.1f} s, peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MiB")
print(glued["table-cache-big"].data)
"""


def test_chapter_3_at_16384_with_16_and_32_tiles_runs_in_bounded_memory():
    """2·1024³ tile accesses at T = 16 (and 2·512³ at T = 32): ③'s general table, LRU table, verdicts and figure within 2 GB of address space
    (the time and memory are printed as figures, not asserted)."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", BOUNDED], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    print("\n③ at N = 16384, T = 16 and 32:", run.stdout.splitlines()[0])
    assert f"| {fmt.mib(rl.load().week4.cache.capacities[0])} |" in run.stdout


NAMES = ["week4-tiling-4x4", "week4-tiling-reuse", "week4-tiling-cache"]


@pytest.mark.parametrize("name", NAMES)
def test_figures_draw_without_warnings_and_without_u2212(course, name):
    with warnings.catch_warnings():
        warnings.simplefilter("error")            # "Glyph … missing" is a warning
        fig = FIGURES[name](course.week4)
        FigureCanvasAgg(fig).draw()
    texts = [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))]
    assert not any("\u2212" in text for text in texts)
    assert fig.get_facecolor()[:3] == (1.0, 1.0, 1.0)


def test_4x4_figure_shows_the_walked_bytes(seed):
    fig = FIGURES["week4-tiling-4x4"](seed.week4)
    texts = " ".join(t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text")))
    assert "acc = 0 + A00 @ B00" in texts and "acc += A01 @ B10" in texts
    assert texts.count("8원소 × 4 B = 32 B") == 2
    assert "4원소 × 4 B = 16 B" in texts
    assert "읽기 64 B, 쓰기 16 B" in texts


def test_reuse_figure_counts_uses(seed):
    fig = FIGURES["week4-tiling-reuse"](seed.week4)
    texts = [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))]
    assert sum("2번 사용" in text for text in texts) == 4       # two rows and two columns, each used T = 2 times


def test_page_shape():
    md = SOURCE.read_text(encoding="utf-8")
    assert "(ch-tiling)=" in md
    assert md.count(":tags: [parameters, hide-input]") == 1 and "# ▶ 매개변수 셀:" in md
    assert "https://mlc.ai/chapter_gpu_acceleration/part1.html#local-blocking" in md
    assert "https://mlc.ai/chapter_gpu_acceleration/part1.html#shared-memory-blocking" in md
    assert "https://triton-lang.org/main/getting-started/tutorials/03-matrix-multiplication.html" in md
    assert ":class: dropdown" in md
    sections = re.split(r"^## ", md, flags=re.M)[1:]
    assert all("**한 줄 답.**" in section for section in sections if not section.startswith(("토론", "더 알아보기", "연습 문제")))
    # the cache simulation is an optional section after the discussion, not part of its answer
    discussion = next(s for s in sections if s.startswith("토론"))
    assert "cachesim" not in discussion and "OrderedDict" not in discussion
    more = next(s for s in sections if s.startswith("더 알아보기"))
    assert "OrderedDict" in more and "**재사용 거리**(reuse distance)" in more and "이 절은 선택이다" in more
    # no machinery of the site in the prose, no self-check on the page
    text = re.sub(r"```\{code-cell\}.*?```", "", re.sub(r"\A---\n.*?\n---\n", "", md, flags=re.S), flags=re.S)
    for word in ("라이브러리", "walk", "kernels", "cachesim", "matmul_tiled", "걸어서 센", "assert"):
        assert not re.search(rf"\b{word}\b", text), word


def shown(glued: dict[str, dict]) -> dict[str, str]:
    """name → what the page shows: the table (Markdown), the equation (LaTeX) or the text."""
    return {name: next(bundle[m] for m in ("text/markdown", "text/latex", "text/plain") if m in bundle)
            for name, bundle in glued.items()}


def test_values_for_the_seed():
    glued = shown(seed_glued("w4_3_tiling"))
    assert "| 재사용 없음 | 128 | 512 + 64 = 576 | 2/9 ≈ 0.2222 |" in glued["table-methods"]
    assert "| 타일 재사용 (2×2) | 128 | 256 + 64 = 320 | 2/5 = 0.4 |" in glued["table-methods"]
    # the seed's concrete reuse: A00's first row for C[0,0] and C[0,1], B00's first column for C[0,0] and C[1,0]
    assert (glued["A00"], glued["reuse-row"], glued["B00"], glued["reuse-column"]) == (
        "A00", "C[0,0]과 C[0,1]을", "B00", "C[0,0]과 C[1,0]을")
    assert glued["next-step"] == "A01 @ B10"
    assert (glued["read-shrink"], glued["Q-shrink"]) == ("1/2로", "5/9로")
    assert (glued["q-A-shared"], glued["q-C"]) == ("A00은", "C00과 C01")
    assert glued["group"] == "Triton 튜토리얼이 쓰는 값과 같은 8이다"
    assert "가장 큰 64 MiB는 행렬 B 하나의 크기 64 MiB와 같다." in glued["capacities"]
    assert "| 총 이동량 Q | 320 Byte | 192 Byte |" in glued["table-ideal"]
    assert "2/3 ≈ 0.6667" in glued["table-ideal"]
    assert (glued["ideal-Q"], glued["ideal-I"]) == ("192", "2/3")
    assert (glued["reads-none"], glued["reads-tile"], glued["read-ratio"]) == ("4", "2", "1/2")
    assert (glued["n"], glued["uses"]) == ("4", "4")
    assert "| 32 | 16 MiB | 64.5 | 15.754 | 8.5 | 113.778 | 묶음 |" in glued["table-cache-big"]
    assert "C_{00} = A_{00}\\,B_{00} + A_{01}\\,B_{10}" in glued["c00-equation"]


def test_cache_table_follows_the_live_parameters(course):
    """Run with the live parameters, the big cache table has one row per live tile side and capacity, with the
    simulation's reads per element for both orders."""
    w4 = course.week4
    table = shown(live_glued("w4_3_tiling"))["table-cache-big"]
    rows = [line for line in table.splitlines()[2:] if line.startswith("|")]
    assert len(rows) == len(w4.tiles) * len(w4.cache.capacities)
    for T in w4.tiles:
        for capacity in w4.cache.capacities:
            row = cachesim.simulate(w4.N, T, capacity_bytes=capacity, order="row", s_in=w4.s, s_out=w4.s)
            grouped = cachesim.simulate(w4.N, T, capacity_bytes=capacity, order="grouped",
                                        group_size_M=w4.cache.group_size_M, s_in=w4.s, s_out=w4.s)
            start = f"| {fmt.integer(T)} | {fmt.mib(capacity)} | {fmt.number(row.reads_per_element, 3)} |"
            assert any(r.startswith(start) for r in rows), start
            assert any(f"| {fmt.number(grouped.reads_per_element, 3)} |" in r for r in rows if r.startswith(start))


def test_cache_figure_uses_the_shared_case_colours(course):
    """Panel k (T = tiles[k-1]) is drawn in style.case_color(k), as in the roofline figure; solid = row, dashed = grouped."""
    from matplotlib.colors import to_hex

    from roofline.show import style

    fig = FIGURES["week4-tiling-cache"](course.week4)
    for number, (ax, T) in enumerate(zip(fig.axes, course.week4.tiles), start=1):
        steps = [line for line in ax.get_lines() if line.get_label().startswith(("행 우선", "묶음"))]
        assert [to_hex(line.get_color()) for line in steps] == [style.CASE_COLORS[number]] * 2, T
        assert [line.get_linestyle() for line in steps] == ["-", "--"]
        assert f"T = {T}" in ax.get_title()


def test_reuse_figure_draws_rows_and_columns_as_strips(course):
    """a_i: T squares side by side (a horizontal strip); b_j: T squares stacked (a vertical strip)."""
    T = course.week4.small_T
    fig = FIGURES["week4-tiling-reuse"](course.week4)
    ax = fig.axes[0]
    A = [p for p in ax.patches if p.get_facecolor()[:3] == pytest.approx(_rgb(tiling_figures.A_COLOR))]
    B = [p for p in ax.patches if p.get_facecolor()[:3] == pytest.approx(_rgb(tiling_figures.B_COLOR))]
    assert len(A) == len(B) == T * T
    for strip in range(T):
        row = A[strip * T:(strip + 1) * T]
        column = B[strip * T:(strip + 1) * T]
        assert len({p.get_y() for p in row}) == 1 and len({p.get_x() for p in row}) == T       # horizontal
        assert len({p.get_x() for p in column}) == 1 and len({p.get_y() for p in column}) == T  # vertical


@pytest.mark.parametrize("N, T", [(32, 1), (32, 32), (12, 3)])
def test_small_example_figures_keep_every_text_inside_at_the_ends_of_the_ranges(N, T):
    """③'s two pictures at the sizes course.toml allows (week4.small_N up to params.MAX_SMALL_N, small_T any divisor):
    drawn (a tile of 32×32 one-element tiles, 32 K steps: the first two, "⋮", the last; a 32×32 product grid
    named at its first and last rows), and every text lies inside the figure (the margins are inches, not elements)."""
    assert N <= rl.params.MAX_SMALL_N
    for fig in (tiling_figures.draw_4x4(N, T, 4), tiling_figures.draw_reuse(T)):
        canvas = FigureCanvasAgg(fig)
        fig.draw_without_rendering()
        renderer = canvas.get_renderer()
        inside = fig.bbox.padded(1)
        texts = [t for t in fig.findobj(lambda a: hasattr(a, "get_text")) if t.get_text() and t.get_visible()]
        assert texts
        for text in texts:
            box = text.get_window_extent(renderer)
            assert inside.contains(box.x0, box.y0) and inside.contains(box.x1, box.y1), \
                f"{N}×{N}, T = {T}: {text.get_text()!r} leaves the figure"


def _rgb(color):
    from matplotlib.colors import to_rgb

    return to_rgb(color)


def test_4x4_labels_sit_above_the_element_grid_and_the_figure_has_no_empty_band(course):
    fig = FIGURES["week4-tiling-4x4"](course.week4)
    ax = fig.axes[0]
    grid = [line for line in ax.get_lines()]
    labels = [t for t in ax.texts if re.fullmatch(r"[ABC]\d\d", t.get_text())]
    assert grid and labels
    assert min(t.get_zorder() for t in labels) > max(line.get_zorder() for line in grid)
    assert all(t.get_bbox_patch() is not None for t in labels)                  # an opaque box hides the grid
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    assert fig.get_figheight() / fig.get_figwidth() == pytest.approx((y1 - y0) / (x1 - x0))
    assert tuple(ax.get_position().bounds) == (0, 0, 1, 1)


def test_korean_lists_and_particles_for_other_sizes(seed):
    """The glued words follow the small example's sizes: three tiles a side, a 1/3 ratio takes 으로."""
    from roofline.show.pages import w4_3_tiling as tiling

    assert [tiling.joined(w) for w in (["C00"], ["C00", "C01"], ["C00", "C01", "C02"])] == [
        "C00", "C00과 C01", "C00, C01과 C02"]
    w4 = seed.week4.with_(small_N=6, small_T=3)
    small = tiling.small_example(w4)
    assert small["reuse-row"] == "C[0,0], C[0,1]과 C[0,2]를"
    counts = tiling.counts(w4)
    assert (counts["read-ratio"], counts["read-shrink"]) == ("1/3", "1/3으로")
    assert tiling.discussion(w4)["q-C"] == "C00과 C01"
    other = str(tiling.cache_small(seed.week4.with_(group_size_M=4))["group"])
    assert other == "4다. Triton 튜토리얼은 8을 쓴다"
