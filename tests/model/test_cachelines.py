"""roofline.cachelines: the cache-line walk of a matrix by rows and by columns, and its miss count against an LRU.
"""
from __future__ import annotations

import pytest


def test_cache_line_walk_row_hits_column_misses():
    from roofline import cachelines
    row = cachelines.walk(4096, 4, 64, cachelines.ROW)
    col = cachelines.walk(4096, 4, 64, cachelines.COLUMN)
    assert [a.hit for a in row[:17]] == [False] + [True] * 15 + [False]      # 16 FP32 elements per 64-Byte line
    assert sum(not a.hit for a in row) == 4096 // 16 and all(not a.hit for a in col)
    assert [a.line for a in col[:3]] == [0, 256, 512]                        # one row = 4096·4/64 lines further


@pytest.mark.parametrize("n, s, line, cache", [(8, 4, 16, 64), (16, 4, 16, 64), (16, 4, 16, 1024), (12, 2, 8, 40)])
def test_whole_matrix_misses_formula_matches_the_lru_simulation(n, s, line, cache):
    from roofline import cachelines
    for along in (cachelines.ROW, cachelines.COLUMN):
        assert cachelines.whole_matrix_misses(n, s, line, cache, along) == cachelines.lru_misses(n, s, line, cache, along)


def test_column_order_misses_sixteen_times_more_in_a_48_kib_l1():
    from roofline import cachelines
    row = cachelines.whole_matrix_misses(4096, 4, 64, 49152, cachelines.ROW)
    col = cachelines.whole_matrix_misses(4096, 4, 64, 49152, cachelines.COLUMN)
    assert (row, col) == (4096 * 4096 // 16, 4096 * 4096)
