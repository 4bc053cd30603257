"""roofline.cachesim: the LRU cache simulation of the tile orders (row, grouped), the fast simulation against the
OrderedDict reference, the closed-form reuse distances, the miss curve, and bad input.
"""
from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from roofline import cachesim, kernels
from roofline.show import fmt

MiB = 2**20


@pytest.fixture(scope="module")
def small(seed):
    w4 = seed.week4
    return w4.small_N, w4.small_T, w4.s


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


def test_cache_curve_is_the_simulation():
    d = cachesim.distances(256, 32, "grouped", 2)
    caps, misses = cachesim.miss_curve(d, 200)
    assert caps[0] == 1 and caps[-1] == 200 and len(caps) < 200      # only where the step function changes
    for capacity in (1, 2, 5, 17, 64, 128, 200):
        at = misses[np.searchsorted(caps, capacity, side="right") - 1]   # drawn with where="post"
        assert at == cachesim.simulate(256, 32, capacity_tiles=capacity, order="grouped",
                                                         group_size_M=2).misses
