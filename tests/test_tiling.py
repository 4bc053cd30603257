"""Chapter ③ Tiling (ch-tiling): the loop-nest walk, the cache simulation, the figures, the page.

Literal expected values are the seed's (seeds/000, "③ Tiling"), typed as the seed prints them, and checked for the
seed's parameters (`seed`, `seed_glued`); the figures' structure is checked for the live parameters.
"""
from __future__ import annotations

import random
import re
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

import roofline as rl
from roofline import cachesim, kernels, walk
from roofline.show import fmt
from roofline.errors import ParameterError
from roofline.show.figures import FIGURES
from roofline.show.pages import w4_3_tiling as tiling_figures

from conftest import SEED_TOML, live_glued, seed_glued

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "chapters" / "w4_3_tiling.md"
MiB = 2**20


@pytest.fixture(scope="module")
def small(seed):
    w4 = seed.week4
    return w4.small_N, w4.small_T, w4.s


# ---- the seed's small example, counted by walking the loop nest ------------------------------

def test_small_example_parameters_are_the_seeds(small):
    assert small == (4, 2, 4)


def test_walk_gives_the_seeds_counts(small):
    n, t, s = small
    none, tile = walk.no_reuse(n, s, s), walk.tiled(n, t, s, s)
    assert none.cost.F == tile.cost.F == 128
    assert none.cost.Q_read == 512 and tile.cost.Q_read == 256
    assert none.cost.Q_write == tile.cost.Q_write == 64
    assert none.cost.Q == 576 and tile.cost.Q == 320
    assert none.cost.I == Fraction(2, 9) and fmt.decimal(none.cost.I, 4) == "0.2222"
    assert tile.cost.I == Fraction(2, 5) and fmt.number(tile.cost.I, 4) == "0.4"


def test_walk_per_tile_and_per_element(small):
    n, t, s = small
    tile = walk.tiled(n, t, s, s)
    steps = tile.tile_steps((0, 0))
    assert [(st.A, st.B) for st in steps] == [((0, 0), (0, 0)), ((0, 1), (1, 0))]   # C00 = A00 B00 + A01 B10
    assert sum(st.flops for st in steps) == 32
    assert sum(st.loads for st in steps) * s == 64                                   # 2 × (4 + 4) × 4 B
    assert tile.writes == 16 and t * t * s == 16
    assert tile.reads_per_element() == {2}                                           # each input read twice
    assert walk.no_reuse(n, s, s).reads_per_element() == {4}
    assert walk.uses(n) == (4, 4)


@pytest.mark.parametrize("N, T", [(1, 1), (4, 1), (4, 2), (4, 4), (6, 2), (6, 3), (8, 2), (8, 4), (12, 3), (12, 4)])
@pytest.mark.parametrize("s_in, s_out", [(4, 4), (2, 4), (2, 2)])
def test_walk_equals_closed_forms(N, T, s_in, s_out):
    assert walk.tiled(N, T, s_in, s_out).cost == kernels.matmul_tiled(N, T, s_in, s_out)
    assert walk.tiled(N, T, s_in, s_out).reads_per_element() == {N // T}
    assert walk.no_reuse(N, s_in, s_out).cost == kernels.matmul_no_reuse(N, s_in, s_out)


def test_no_reuse_is_the_one_by_one_tile():
    assert walk.tiled(8, 1).cost == walk.no_reuse(8).cost


@pytest.mark.parametrize("call, message", [
    (lambda: walk.tiled(4, 3), r"^T: N = 4의 약수가 아닌 값 3\. 타일 한 변은 N의 약수여야 한다$"),
    (lambda: walk.tiled(4, 0), r"^T: 양의 정수여야 한다\. 받은 값: 0$"),
    (lambda: walk.tiled(0, 1), r"^N: 양의 정수여야 한다\. 받은 값: 0$"),
    (lambda: walk.no_reuse(walk.MAX_N + 1), r"^N: 원소 하나하나를 따라가기에는 너무 크다"),
    (lambda: walk.tiled(4, 2, s_in=0), r"^s_in: 양의 정수여야 한다\. 받은 값: 0$"),
])
def test_walk_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# ---- the cache simulation -------------------------------------------------------------------

def test_unbounded_cache_gives_the_seeds_192_bytes(small):
    n, t, s = small
    run = cachesim.simulate(n, t, capacity_tiles=None, s_in=s, s_out=s)
    assert run.Q_read == 128 and run.cost.Q == 192
    assert run.cost.I == Fraction(2, 3) and fmt.decimal(run.cost.I, 4) == "0.6667"
    assert run.reads_per_element == 1


def test_small_cache_loses_reuse(small):
    n, t, s = small
    for capacity in (0, 1, 2, 3):
        assert cachesim.simulate(n, t, capacity_tiles=capacity).cost == kernels.matmul_tiled(n, t)   # 320 B, 0.4
    assert cachesim.simulate(n, t, capacity_tiles=4).cost.Q == 256
    assert cachesim.simulate(n, t, capacity_tiles=8).cost.Q == 192


@pytest.mark.parametrize("N, T", [(4, 1), (4, 2), (8, 2), (12, 3), (16, 4), (4096, 128), (4096, 32)])
@pytest.mark.parametrize("order, group", [("row", None), ("grouped", 8), ("grouped", 3)])
def test_unbounded_reads_each_input_once_and_tiny_cache_reads_like_no_cache(N, T, order, group):
    unbounded = cachesim.simulate(N, T, order=order, group_size_M=group)
    assert unbounded.Q_read == kernels.matmul_ideal(N).Q_read                     # 2 s_in N²
    assert unbounded.reads_per_element == 1
    for capacity in (0, 1):
        run = cachesim.simulate(N, T, capacity_tiles=capacity, order=order, group_size_M=group)
        assert run.cost == kernels.matmul_tiled(N, T)                              # no reuse across tiles
        assert run.misses == run.accesses == 2 * (N // T) ** 3


def test_capacity_in_bytes_is_whole_tiles():
    T = 32
    line = 4 * T * T
    a = cachesim.simulate(256, T, capacity_bytes=10 * line + line - 1)
    b = cachesim.simulate(256, T, capacity_tiles=10)
    assert a.misses == b.misses and a.capacity_tiles == 10


def random_orders(seed: int, count: int):
    rng = random.Random(seed)
    for _ in range(count):
        n = rng.choice([1, 2, 3, 4, 5, 6])
        T = rng.choice([1, 2, 3])
        tiles = [(i, j) for i in range(n) for j in range(n)]
        rng.shuffle(tiles)
        yield n * T, T, tiles


def test_fast_simulation_equals_the_ordereddict_lru():
    """The stack-distance shortcut and the obvious OrderedDict LRU agree access for access in total."""
    checked = 0
    for N, T, tiles in random_orders(seed=3, count=120):
        for capacity in (0, 1, 2, 3, 4, 5, 7, 10, 16, 40, None):
            fast = cachesim.simulate(N, T, capacity_tiles=capacity, order=tiles)
            slow = cachesim.lru_reference(N, T, capacity, tiles)
            assert fast.misses == slow.misses, (N, T, tiles, capacity)
            checked += 1
    for n in (2, 5, 8, 11):
        for order, group in (("row", None), ("grouped", 1), ("grouped", 2), ("grouped", 3), ("grouped", 8)):
            for capacity in (0, 2, 6, 9, 13, 20, 33, None):
                fast = cachesim.simulate(2 * n, 2, capacity_tiles=capacity, order=order, group_size_M=group)
                slow = cachesim.lru_reference(2 * n, 2, capacity, order, group)
                assert fast.misses == slow.misses, (n, order, group, capacity)
                checked += 1
    assert checked > 1000


def test_triton_grouped_order():
    """pid → (pid_m, pid_n) as in Triton's tutorial; GROUP_SIZE_M = 1 is row-major, ≥ rows is column-major."""
    order = cachesim.tile_order(4, "grouped", 2).tolist()
    assert order[:6] == [[0, 0], [1, 0], [0, 1], [1, 1], [0, 2], [1, 2]]
    assert order[8:10] == [[2, 0], [3, 0]]
    assert (cachesim.tile_order(5, "grouped", 1) == cachesim.tile_order(5, "row")).all()
    column_major = cachesim.tile_order(5, "grouped", 9)
    assert (column_major[:, ::-1] == cachesim.tile_order(5, "row")).all()
    uneven = cachesim.tile_order(5, "grouped", 2)                         # last group has one row
    assert sorted(map(tuple, uneven.tolist())) == [(i, j) for i in range(5) for j in range(5)]


def test_grouped_order_reads_less_when_a_group_fits(seed):
    N, G = seed.week4.N, seed.week4.cache.group_size_M
    for T in seed.week4.tiles:
        row = cachesim.simulate(N, T, capacity_bytes=64 * MiB, order="row")
        grouped = cachesim.simulate(N, T, capacity_bytes=64 * MiB, order="grouped", group_size_M=G)
        assert grouped.Q_read <= row.Q_read
        assert grouped.Q_read < row.Q_read
    # the chapter's numbers at T = 32 (4 KiB tiles)
    row = cachesim.simulate(N, 32, capacity_bytes=16 * MiB, order="row")
    grouped = cachesim.simulate(N, 32, capacity_bytes=16 * MiB, order="grouped", group_size_M=G)
    assert row.reads_per_element == Fraction(129, 2)      # A once, B N/T times
    assert grouped.reads_per_element == Fraction(17, 2)   # A once, B once per group of 8 tile rows


def test_grouped_order_can_lose_when_a_group_does_not_fit(seed):
    """Not a law: below the group's working set, LRU evicts the A panels just before their reuse."""
    N, G = seed.week4.N, seed.week4.cache.group_size_M
    row = cachesim.simulate(N, 128, capacity_bytes=16 * MiB, order="row")
    grouped = cachesim.simulate(N, 128, capacity_bytes=16 * MiB, order="grouped", group_size_M=G)
    assert grouped.Q_read > row.Q_read


def test_grouped_never_worse_over_a_range_where_groups_fit():
    for capacity_mib in (8, 12, 16, 24, 32, 48, 64):
        row = cachesim.simulate(4096, 32, capacity_bytes=capacity_mib * MiB, order="row")
        grouped = cachesim.simulate(4096, 32, capacity_bytes=capacity_mib * MiB, order="grouped", group_size_M=8)
        assert grouped.Q_read <= row.Q_read, capacity_mib


def dense_distances(n: int, tiles) -> np.ndarray:
    """Every access's stack distance listed one by one (the simulation as it was before the histogram was
    streamed: 2n³ numbers in memory), from the walked links. The reference where it fits."""
    pA, pB, LA, LB = cachesim._links_walked(n, np.asarray(tiles, dtype=np.int64))
    U = len(pA)
    u = np.arange(U)
    next_row, next_col = np.full(U, U), np.full(U, U)
    next_row[pA[pA >= 0]] = u[pA >= 0]
    next_col[pB[pB >= 0]] = u[pB >= 0]
    k = np.arange(n)[None, :]
    a, b = pA >= 0, pB >= 0
    dA = (n * LA[a] + n - 1)[:, None] + (next_col[pA[a]] >= u[a])[:, None] * (n - k) + (pB[a] < pA[a])[:, None] * k
    dB = (n * LB[b] + n - 1)[:, None] + (next_row[pB[b]] >= u[b])[:, None] * (n - 1 - k) + (pA[b] < pB[b])[:, None] * (k + 1)
    return np.bincount(np.concatenate([dA.ravel(), dB.ravel()]))


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 13, 64, 128])
def test_named_orders_in_closed_form_equal_the_listed_simulation(n):
    """The row and grouped orders' links in closed form, streamed into a histogram, equal listing every access
    (N = 4096, T = 32 is n = 128: 4.2 million accesses), for every GROUP_SIZE_M up to beyond the rows."""
    for order, group in [("row", None)] + [("grouped", g) for g in sorted({1, 2, 3, 8, n - 1, n, n + 1} - {0})]:
        d = cachesim.distances(2 * n, 2, order, group)
        listed = dense_distances(n, cachesim.tile_order(n, order, group))
        assert np.array_equal(d.histogram, np.trim_zeros(listed, "b")), (n, order, group)
        assert d.accesses == 2 * n**3 and d.cold + int(d.histogram.sum()) == d.accesses


BOUNDED = """
import resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))   # 2 GB of address space for this process
import io
import roofline
from roofline.show import style
from roofline.show.pages import w4_3_tiling as tiling
start = time.perf_counter()
w4 = roofline.load().week4.with_(N=16384, tiles=[16])
glued = {**tiling.general(w4), **tiling.cache_big(w4)}
glued["fig-cache"].savefig(io.BytesIO(), format="svg", metadata=style.SVG_METADATA)
print(f"{time.perf_counter() - start:.1f} s, peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MiB")
print(glued["table-cache-big"].data)
"""


def test_chapter_3_at_16384_with_16_tiles_runs_in_bounded_memory():
    """2·1024³ tile accesses: ③'s general table, LRU table, verdicts and figure within 2 GB of address space
    (the time and memory are printed as figures, not asserted)."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", BOUNDED], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    print("\n③ at N = 16384, T = 16:", run.stdout.splitlines()[0])
    assert f"| {fmt.mib(rl.load().week4.cache.capacities[0])} |" in run.stdout


@pytest.mark.parametrize("call, message", [
    (lambda: cachesim.simulate(4, 3), r"^T: N = 4의 약수가 아닌 값 3\. 타일 한 변은 N의 약수여야 한다$"),
    (lambda: cachesim.simulate(4, 2, capacity_tiles=-1), r"^capacity_tiles: 0 이상의 정수여야 한다"),
    (lambda: cachesim.simulate(4, 2, capacity_bytes=-16), r"^capacity_bytes: 0 이상의 정수여야 한다"),
    (lambda: cachesim.simulate(4, 2, capacity_tiles=1.5), "capacity_tiles"),
    (lambda: cachesim.simulate(4, 2, capacity_tiles=1, capacity_bytes=16), "가운데 하나로만"),
    (lambda: cachesim.simulate(4, 2, order="diagonal"), r"^order: 모르는 타일 순서"),
    (lambda: cachesim.simulate(4, 2, order="grouped"), "group_size_M"),
    (lambda: cachesim.simulate(4, 2, order="grouped", group_size_M=0), r"^group_size_M: 양의 정수여야 한다\. 받은 값: 0$"),
    (lambda: cachesim.simulate(4, 2, order=[(0, 0), (0, 1), (1, 0), (1, 0)]), r"^order: .*한 번씩"),
    (lambda: cachesim.lru_reference(4, 2, -1), "capacity_tiles"),
])
def test_cachesim_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_cache_parameters_are_validated(seed, tmp_path):
    assert (seed.week4.cache.group_size_M, seed.week4.cache.small_capacities) == (8, (2, 4))
    assert seed.week4.cache.capacities == (4 * MiB, 16 * MiB, 64 * MiB)
    text = SEED_TOML.read_text(encoding="utf-8")
    bad = tmp_path / "course.toml"
    for old, new, message in [
        ("group_size_M = 8", "group_size_M = 0", r"^week4\.cache\.group_size_M: 양의 정수여야 한다\. 받은 값: 0$"),
        ("group_size_M = 8", "group_size_M = 8\ncolour = 1", r"^\[week4\.cache\]: 모르는 키 colour\. 쓸 수 있는 키: "),
        ("small_capacities = [2, 4]", "small_capacities = [4, 2]",
         r"^week4\.cache\.small_capacities: 값이 서로 다르고 작은 것부터 커져야 한다"),
        ("capacities = [4_194_304,", "capacities = [-4_194_304,", r"^week4\.cache\.capacities: 양의 정수여야 한다"),
    ]:
        assert old in text, old
        bad.write_text(text.replace(old, new, 1), encoding="utf-8")
        with pytest.raises(ParameterError, match=message):
            rl.load(bad)


# ---- figures --------------------------------------------------------------------------------

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


def test_cache_curve_is_the_simulation():
    d = cachesim.distances(256, 32, "grouped", 2)
    caps, misses = cachesim.miss_curve(d, 200)
    assert caps[0] == 1 and caps[-1] == 200 and len(caps) < 200      # only where the step function changes
    for capacity in (1, 2, 5, 17, 64, 128, 200):
        at = misses[np.searchsorted(caps, capacity, side="right") - 1]   # drawn with where="post"
        assert at == cachesim.simulate(256, 32, capacity_tiles=capacity, order="grouped",
                                                         group_size_M=2).misses


# ---- the page -------------------------------------------------------------------------------

def test_page_shape():
    md = PAGE.read_text(encoding="utf-8")
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
    assert "| 2×2 타일 재사용 | 128 | 256 + 64 = 320 | 2/5 = 0.4 |" in glued["table-methods"]
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
    other = tiling.cache_small(seed.week4.with_(group_size_M=4))["group"].data
    assert other == "4다. Triton 튜토리얼은 8을 쓴다"
