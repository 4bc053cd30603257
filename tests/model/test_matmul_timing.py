"""roofline.matmul_timing: the note's measured matmuls carry their dtype and repeats (no time is asserted).
"""
from __future__ import annotations


def test_measurements_carry_dtype_and_repeats():
    from roofline import matmul_timing
    runs = matmul_timing.implementations(8, 16, 32, 4, repeats=2)
    assert [(r.label, r.N, r.repeats) for r in runs] == [
        ("naive", 8, 1), ("tiled", 8, 2), ("blas", 8, 2), ("tiled", 16, 2), ("blas", 16, 2), ("blas", 32, 2)]
    assert all(r.seconds > 0 for r in runs) and all(r.error < 1e-12 for r in runs if r.error is not None)
    assert matmul_timing.DTYPE == "FP64"
    stride = matmul_timing.stride(64, 2)
    assert stride.itemsize == 4 and stride.row_seconds > 0 and stride.column_seconds > 0
