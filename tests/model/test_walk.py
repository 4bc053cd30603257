"""roofline.walk: the loop-nest walk of a tiled matmul (the seed's small example, counted element by element),
against the closed forms of roofline.kernels, and bad input.
"""
from __future__ import annotations

from fractions import Fraction

import pytest

from roofline import kernels, walk
from roofline.show import fmt


@pytest.fixture(scope="module")
def small(seed):
    w4 = seed.week4
    return w4.small_N, w4.small_T, w4.s


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
