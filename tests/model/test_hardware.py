"""roofline.hardware: the Roofline of a machine (its ridge point, R_roof and `with_`) and the presets' peak rates
and ratios that the pages quote. Seed literals are checked for the frozen seed parameters (`seed`: tests/seed/course.toml);
the Roofline's properties for the live parameters (and the next term's: BOTH_TERMS).
"""
from __future__ import annotations

from fractions import Fraction

from roofline.show import fmt

BOTH_TERMS = True   # every test that takes `course` runs for the live and the next term (tests/conftest.py)
TERA = 10**12


def test_ridge_point_is_20_flops_per_byte(seed):
    ridge = seed.week4.roofline.ridge
    assert ridge == 20 and isinstance(ridge, Fraction)
    assert fmt.number(ridge, 3) == "20"


def test_doubling_P_or_BW_at_I_10(seed):
    # seed: "각각 10 TFLOPs/s 유지, 20 TFLOPs/s로 증가"
    hw = seed.week4.roofline
    I = hw.ridge / 2
    assert I == 10
    assert hw.R_roof(I) == 10 * TERA
    assert hw.with_(P=2 * hw.P).R_roof(I) == 10 * TERA
    assert hw.with_(BW=2 * hw.BW).R_roof(I) == 20 * TERA
    assert hw.with_(P=2 * hw.P).ridge == 40 and hw.with_(BW=2 * hw.BW).ridge == 10


def test_doubling_P_or_BW_at_half_the_live_ridge(course):
    """② discussion for any machine: below the ridge only BW counts; doubling BW halves the ridge to I itself."""
    hw = course.week4.roofline
    I = hw.ridge / 2
    assert hw.R_roof(I) == hw.BW * I < hw.P
    assert hw.with_(P=2 * hw.P).R_roof(I) == hw.R_roof(I)
    assert hw.with_(BW=2 * hw.BW).R_roof(I) == 2 * hw.R_roof(I) == hw.P
    assert (hw.with_(P=2 * hw.P).ridge, hw.with_(BW=2 * hw.BW).ridge) == (2 * hw.ridge, I)


def test_precision_step_ratios_from_the_H100_preset(seed):
    """ERRATA: FP32 (CUDA cores) → TF32 (tensor cores) is ≈7.4×; between tensor-core formats ≈2×."""
    h100 = seed.preset("H100_SXM")
    assert fmt.ratio(h100.P("TF32") / h100.P("FP32"), 1) == "7.4배"
    assert h100.P("TF32") / h100.P("FP32") == Fraction("494.7") / Fraction("66.9")
    assert fmt.ratio(h100.P("FP16") / h100.P("TF32"), 1) == "2.0배"
    assert fmt.ratio(h100.P("FP8") / h100.P("FP16"), 1) == "2.0배"


def test_h100_figures_used_on_the_page(seed):
    h100 = seed.preset("H100_SXM")
    assert fmt.kib(h100.smem_per_SM) == "228 KiB"
    assert fmt.ratio(h100.P("BF16") / h100.P("FP32"), 1) == "14.8배"
    assert fmt.ratio(Fraction(400_000_000) / (h100.smem_per_SM * h100.SMs), 1) == "13.0배"


def test_h100_ridge_is_dense(h100, seed):
    assert fmt.decimal(h100.ridge, 1) == "295.3"
    assert fmt.decimal(seed.preset("H100_SXM").sparse["FP16"] / h100.BW, 1) == "590.7"   # the seed's, from the sparse peak


def test_tensor_core_ratios(seed):
    h = seed.preset("H100_SXM")
    assert fmt.ratio(h.P("TF32") / h.P("FP32"), 1) == "7.4배"
    assert fmt.ratio(h.P("FP16") / h.P("FP32"), 1) == "14.8배"
    assert "INT4" not in h.peak and "INT4" not in h.sparse


def test_tf32_ratios(seed):
    h100, a100 = seed.preset("H100_SXM"), seed.preset("A100_SXM")
    assert fmt.ratio(h100.P("TF32") / h100.P("FP32"), 1) == "7.4배"
    assert a100.P("TF32") / a100.P("FP32") == 8
