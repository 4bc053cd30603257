"""roofline.gemm: GEMM and GEMV cost and time, the BLAS levels, the cache-tile step, the batch sweep and crossover,
the tensor-core rate per clock, and the three matmuls of the note (naive, tiled, BLAS) agreeing. Seed literals are checked for the frozen seed parameters (`seed`: tests/seed/course.toml).
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from roofline import gemm
from roofline.show import fmt


def test_cache_tile_step_is_64_mac_not_256():
    mac, nbytes = gemm.tile_step(4, 4)
    assert (mac, nbytes) == (64, 128)
    assert mac * (8 // 4) == 128        # per 4×4 output tile with K = 8


def test_tile_side_for_caches():
    assert gemm.tile_area_for(256 * 1024, 4) == Fraction(256 * 1024, 12)
    assert fmt.root(gemm.tile_area_for(256 * 1024, 4), 1) == "147.8"
    assert fmt.root(gemm.tile_area_for(32 * 1024, 4), 1) == "52.3"
    assert fmt.root(gemm.tile_area_for(48 * 1024, 4), 1) == "64.0"


def test_blas_levels_intensity():
    levels = {L.name: L for L in gemm.blas_levels(4096, 4)}
    assert levels["axpy"].cost.I == Fraction(1, 6)
    assert levels["gemm"].cost.I == Fraction(2 * 4096, 12)
    assert fmt.decimal(levels["gemv"].cost.I, 3) == "0.500"
    assert [L.level for L in gemm.blas_levels(8, 4)] == [1, 1, 2, 3]


def test_three_matmuls_agree():
    rng = np.random.default_rng(0)
    A, B = rng.standard_normal((2, 20, 20))
    assert np.abs(gemm.naive_matmul(A, B) - A @ B).max() < 1e-12
    assert np.abs(gemm.tiled_matmul(A, B, 8) - A @ B).max() < 1e-12   # 20 is not a multiple of 8


def test_batch_intensity_formula(h100):
    for b in (1, 4, 16, 64, 256, 1024, 4096):
        assert gemm.gemm(b, 4096, 4096, 2).I == Fraction(4096 * b, 2 * b + 4096)
    assert fmt.decimal(gemm.gemm(256, 4096, 4096, 2).I, 1) == "227.6"
    assert fmt.decimal(gemm.gemm(1024, 4096, 4096, 2).I, 1) == "682.7"
    assert fmt.decimal(gemm.gemm(4096, 4096, 4096, 2).I, 1) == "1365.3"


def test_gemv_intensity():
    # I(1) = 4096/4098 = 0.99951… ERRATA's "0.9998" is 4096/4097, which leaves out one of the two vectors.
    assert gemm.gemm(1, 4096, 4096, 2).I == Fraction(4096, 4098)
    assert fmt.decimal(gemm.gemm(1, 4096, 4096, 2).I, 4) == "0.9995"


def test_batch_bounds(h100):
    rows = gemm.batch_sweep([1, 4, 16, 64, 256, 1024, 4096], 4096, 4096, h100, 2)
    assert [fmt.decimal(r.timing.R_roof / 10**12, 1) for r in rows] == [
        "3.3", "13.4", "53.2", "207.9", "762.3", "989.4", "989.4"]
    assert [r.timing.memory_bound for r in rows] == [True] * 5 + [False] * 2
    assert all(r.timing.R_roof <= h100.P for r in rows)          # never above the dense peak (the seed's 1,847)


def test_crossover_batch(h100):
    b = gemm.crossover_batch(4096, 4096, h100, 2)
    assert fmt.decimal(b, 1) == "345.1"
    assert gemm.gemm(345, 4096, 4096, 2).I < h100.ridge <= gemm.gemm(346, 4096, 4096, 2).I
    assert gemm.crossover_batch(4096, 4096, h100.with_(P=h100.BW * 5000), 2) is None


def test_square_gemm_time(h100):
    F = gemm.gemm(4096, 4096, 4096, 2).F
    assert F == 137_438_953_472                   # 2 × 68,719,476,736 multiply-adds
    assert fmt.ms(F / h100.P, 3) == "0.139"


def test_tensor_core_per_clock_is_16x_not_256x(note, seed):
    tc, cuda = gemm.per_clock(note.tensor_core)
    assert (tc, cuda) == (4 * 1024, 128 * 2)
    assert Fraction(tc, cuda) == 16
    h100 = seed.preset("H100_SXM")
    assert fmt.ratio(h100.P("FP16") / h100.P("FP32"), 1) == "14.8배"
    # the clocks behind the two peaks differ (≈1.83 vs ≈1.98 GHz), hence 14.8× rather than 16×
    assert fmt.decimal(h100.P("FP16") / (h100.SMs * tc) / 10**9, 2) == "1.83"
    assert fmt.decimal(h100.P("FP32") / (h100.SMs * cuda) / 10**9, 2) == "1.98"


def test_gemv_counts_output_write():
    gemv = gemm.gemm(1, 4096, 4096, 2)
    assert gemv.I == Fraction(2048, 2049) and fmt.decimal(gemv.I, 4) == "0.9995"
    no_out = Fraction(gemv.F, gemv.Q_read)
    assert no_out == Fraction(4096, 4097) and fmt.decimal(no_out, 4) == "0.9998"


def test_claimed_square_gemm_is_corrected(h100):
    t, rate = gemm.CLAIMED_SQUARE_GEMM
    F = 2 * 4096**3
    assert fmt.decimal(Fraction(F) / t / 10**12, 1) == "274.9"
    assert rate > h100.P
    assert fmt.ms(Fraction(F) / h100.P, 3) == "0.139"
    lo, hi = gemm.SCALING_BOOK_EFFICIENCY
    assert (fmt.ms(Fraction(F) / (h100.P * hi), 3), fmt.ms(Fraction(F) / (h100.P * lo), 3)) == ("0.163", "0.174")
    assert abs(gemm.SCALING_BOOK_RIDGE - h100.ridge) < 5
