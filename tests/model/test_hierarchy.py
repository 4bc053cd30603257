"""The two-level bound (roofline.hierarchy) and the published kernels under it (roofline.published), re-evaluated
here with Fraction from the tile parameters and the preset, independently of the derivation terms; for the live
term and the next (BOTH_TERMS)."""
from __future__ import annotations

import re
from fractions import Fraction
from math import ceil
from pathlib import Path

import pytest

from roofline import hierarchy as h
from roofline import published as pub
from roofline.errors import ParameterError

BOTH_TERMS = True
ROOT = Path(__file__).resolve().parents[2]


def by_hand(preset, s, M, N, K, t):
    """(R_DRAM, R_smem or None) from the formulas of the module docstring, in plain Fractions."""
    P = preset.P("FP32")
    F = Fraction(2 * M * N * K)
    loads = M * K * ceil(N / t.BN) + K * N * ceil(M / t.BM)
    Q = s * (loads + M * N)
    R_hbm = min(P, preset.BW * F / Q)
    if not t.TM:
        return R_hbm, None
    f = preset.P("FP32") / (preset.SMs * preset.fp32_per_clock)
    bw_smem = preset.smem_per_clock * f * preset.SMs
    Qs = Fraction(s * M * N * K * (t.TM + t.TN), t.TM * t.TN) + s * loads
    return R_hbm, min(P, bw_smem * F / Qs)


def test_every_sgemm_bound_is_the_formulas(course):
    for k in pub.sgemm_ladder():
        if k.tiling is None:
            continue
        preset = course.preset(k.gpu)
        b = h.bound(preset, "FP32", course.bytes_per("FP32"), *k.size, k.tiling)
        R_hbm, R_smem = by_hand(preset, course.bytes_per("FP32"), *k.size, k.tiling)
        assert b.R_DRAM.value == R_hbm
        assert (b.R_smem.value if b.R_smem else None) == R_smem
        assert b.R_bound.value == min(x for x in (R_hbm, R_smem) if x is not None)


def test_no_reuse_is_a_one_by_one_block_tile():
    s, n = 4, 64
    q = h.dram_traffic(n, n, n, s, h.Tiling(1, 1))
    assert q.value == s * (2 * n**3 + n**2)


def test_smem_bandwidth_is_per_clock_times_clock_times_SMs(course):
    a6000 = course.preset("RTX_A6000")
    f = Fraction(a6000.P("FP32")) / (a6000.SMs * a6000.fp32_per_clock)
    assert h.clock(a6000).value == f
    assert h.smem_bandwidth(a6000).value == a6000.smem_per_clock * f * a6000.SMs
    assert h.smem_bandwidth(a6000).term.formula == "smem_per_clock·f·SMs"


def test_thread_tile_traffic_per_k():
    assert h.thread_smem_per_k(4, 8, 8).value == 64
    assert h.thread_smem_per_k(4, 8, 1).value == 36


def test_binding_level_is_the_lowest_bound():
    assert h.binding(10, 3, 5) == "DRAM"
    assert h.binding(10, 5, 3) == "Shared Memory"
    assert h.binding(10, 10, 12) == "연산"
    assert h.binding(10, 4) == "DRAM"


@pytest.mark.parametrize("bad", [dict(BM=0, BN=1), dict(BM=8, BN=8, BK=8, TM=8), dict(BM=8, BN=8, BK=8, TM=3, TN=8),
                                 dict(BM=8, BN=8, TM=8, TN=8)])
def test_bad_tiling_is_one_korean_error(bad):
    with pytest.raises(ParameterError) as error:
        h.Tiling(**bad)
    assert re.search(r"[가-힣]", str(error.value)) and "\n" not in str(error.value)


def test_a_preset_without_clock_has_no_smem_level(course):
    with pytest.raises(ParameterError, match="smem_per_clock"):
        h.smem_bandwidth(course.preset("TPU_v5e"))


# ---------------------------------------------------------------- the published kernels

BIB = (ROOT / "references.bib").read_text(encoding="utf-8")


def test_at_least_ten_kernels_each_with_a_bib_entry_and_a_locator():
    assert len(pub.KERNELS) >= 10
    for k in pub.KERNELS:
        assert re.search(rf"^@\w+\{{{re.escape(k.bibkey)},", BIB, re.M), k.bibkey
        assert k.locator.strip(), k.key
        assert (k.tiling is None) == (not k.tiling_locator), k.key
        assert (k.rate is None) == (k.F is not None and k.t is not None), k.key


def test_every_kernel_is_under_its_binding_bound_or_the_model_says_why(course):
    for pl in pub.placements(course.catalog):
        R, bound = pl.R_meas.value, pl.R_bound.value
        if R <= bound:
            assert pl.above is None and pl.reason is None
            continue
        assert pl.above in ("DRAM", "Shared Memory") and pl.reason is not None, pl.kernel.key
        if pl.above == "DRAM":   # the caches gave at least this much reuse; with the block's inputs kept, under
            assert pl.reason.value == R / pl.R_DRAM.value > 1
            assert pl.cached_R is not None and pl.cached_R.value >= R, pl.kernel.key
        else:   # shared memory ran at a clock above the one the FP32 peak implies
            preset = course.preset(pl.kernel.gpu)
            assert pl.reason.value > h.clock(preset).value


def test_measured_rates_are_the_published_numbers():
    naive = next(k for k in pub.KERNELS if k.key == "sgemm-1")
    assert naive.measured == Fraction(309) * 10**9
    flash = next(k for k in pub.KERNELS if k.key == "attn-flash")
    assert flash.measured == Fraction("75.2e9") / Fraction("7.3e-3")


def test_model_order_agrees_with_the_measured_ladder_where_tiles_differ(course):
    """Where two kernels of the ladder differ by a tiling parameter and the model ranks them apart, the measured
    order is the model's; ρ (Spearman) over the ladder is reported by the page and is high."""
    ladder = [pl for pl in pub.placements(course.catalog) if pl.kernel.family == "sgemm" and pl.kernel.tiling]
    for a in ladder:
        for b in ladder:
            if a.kernel.tiling != b.kernel.tiling and a.R_bound.value < b.R_bound.value:
                assert a.R_meas.value < b.R_meas.value, (a.kernel.key, b.kernel.key)
    rho = h.spearman([pl.R_bound.value for pl in ladder], [pl.R_meas.value for pl in ladder])
    assert rho > Fraction(8, 10)


def test_spearman_of_known_orders():
    assert h.spearman([1, 2, 3], [10, 20, 30]) == 1
    assert h.spearman([1, 2, 3], [30, 20, 10]) == -1
    assert h.ranks([5, 1, 5]) == [Fraction(5, 2), 1, Fraction(5, 2)]
