"""roofline.buffers: on-chip storage of a tile (inputs, accumulator, single and double buffering), the seed's ④ table.
"""
from __future__ import annotations

import pytest

from roofline import buffers
from roofline.show import fmt

# ---------------------------------------------------------------- ④ storage and buffers
SEED_BUFFERS = {  # T: (A, B, inputs KiB, acc KiB, total KiB) — seed ④ table 2 and ⑤ table 7
    32: ("4,096", "4,096", "8 KiB", "4 KiB", "12 KiB", "8,192", "4,096", "12,288"),
    64: ("16,384", "16,384", "32 KiB", "16 KiB", "48 KiB", "32,768", "16,384", "49,152"),
    128: ("65,536", "65,536", "128 KiB", "64 KiB", "192 KiB", "131,072", "65,536", "196,608"),
}


@pytest.mark.parametrize("T", [32, 64, 128])
def test_single_buffer_table(T):
    b = buffers.tile_buffers(T, T, T, 4, 4)
    got = (fmt.integer(b.A), fmt.integer(b.B), fmt.kib(b.inputs), fmt.kib(b.acc), fmt.kib(b.total),
           fmt.integer(b.inputs), fmt.integer(b.acc), fmt.integer(b.total))
    assert got == SEED_BUFFERS[T]
    assert b.inputs == 8 * T * T and b.acc == 4 * T * T     # 8T², 4T²


@pytest.mark.parametrize("T", [32, 64, 128])
def test_double_buffering_doubles_inputs_only(T):
    one, two = buffers.tile_buffers(T, T, T, 4, 4, 1), buffers.tile_buffers(T, T, T, 4, 4, 2)
    assert two.inputs == 2 * one.inputs == 16 * T * T
    assert two.acc == one.acc


def test_doubling_a_side_quadruples_storage():
    a, b = buffers.tile_buffers(32, 32, 32), buffers.tile_buffers(64, 64, 64)
    assert (b.inputs, b.acc, b.total) == (4 * a.inputs, 4 * a.acc, 4 * a.total)


def test_no_reuse_minimal_unit(seed):
    """Without reuse the unit of work is one output element: the 1×1 tile (A·B scalars 8 B, acc 4 B, 12 B)."""
    s = seed.week4.s
    one = buffers.tile_buffers(1, 1, 1, s, s)
    assert (one.inputs, one.acc, one.total) == (8, 4, 12)


def test_T_K_smaller_shrinks_inputs_not_acc():
    full, half = buffers.tile_buffers(64, 64, 64), buffers.tile_buffers(64, 64, 32)
    assert (fmt.kib(full.inputs), fmt.kib(half.inputs)) == ("32 KiB", "16 KiB")
    assert half.acc == full.acc == 16384
