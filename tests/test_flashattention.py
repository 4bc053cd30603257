"""The matmul / FlashAttention note: exact values (ERRATA's table for seed 003), the NumPy
FlashAttention against standard attention, the HBM-traffic counts, and bad input.

The seed's literal values are checked for the seed's parameters (`seed`: tests/seed/course.toml, the note on an
H100 with N = 4096); the figures and the traffic model's properties for the live note, whatever its preset."""
from __future__ import annotations

from pathlib import Path
import io
import warnings
from fractions import Fraction

import numpy as np
import pytest

from roofline import attention, gemm, params, transformer
from roofline.show import claims, fmt
from roofline.errors import ParameterError
from roofline.show.figures import FIGURES

from conftest import SEED_TOML


@pytest.fixture(scope="module")
def note(seed):
    return seed.note


@pytest.fixture(scope="module")
def gpt3(note):
    return transformer.Transformer.from_table(note.gpt3)


@pytest.fixture(scope="module")
def h100(seed):
    return seed.preset("H100_SXM").roofline("FP16")


def test_the_seeds_note_is_on_the_H100_in_FP16(note):
    assert (note.hardware_key, note.dtype, note.s, note.seq) == ("H100_SXM", "FP16", 2, 4096)
    assert (note.attention.heads, note.attention.d_head) == (32, 128)


# ----- why matmul: GPT-3 175B per token -----

def test_gpt3_config_is_the_papers(gpt3):
    assert (gpt3.d_model, gpt3.n_layers, gpt3.n_ctx, gpt3.n_heads) == (12288, 96, 2048, 96)


def test_gpt3_shares_without_mask(gpt3):
    shares = {k: fmt.percent(v) for k, v in transformer.shares(gpt3).items()}
    assert shares == {transformer.QKV: "24.3%", transformer.OUT: "8.1%", transformer.FFN: "64.9%",
                      transformer.ATTN: "2.7%"}
    assert sum(transformer.shares(gpt3).values()) == 1


def test_gpt3_layer_formula(gpt3):
    d, n = 12288, 2048
    flops = transformer.layer_flops(gpt3)
    assert flops == {transformer.QKV: 6 * d * d, transformer.OUT: 2 * d * d, transformer.FFN: 16 * d * d,
                     transformer.ATTN: 4 * n * d}
    assert transformer.shares(gpt3)[transformer.QKV] == Fraction(6 * d, 24 * d + 4 * n)


def test_gpt3_causal_attention_and_rest(gpt3):
    assert fmt.percent(transformer.shares(gpt3, causal=True)[transformer.ATTN]) == "1.4%"
    assert transformer.layer_flops(gpt3, causal=True)[transformer.ATTN] == 2 * 12288 * 2049
    assert transformer.rest_share(gpt3) < Fraction(1, 100)
    assert fmt.percent(transformer.rest_share(gpt3)) == "0.3%"
    assert transformer.softmax_elements_share(gpt3) < Fraction(1, 10_000)


# ----- matmul, cache, BLAS -----

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


# ----- GEMM roofline on H100 (FP16, dense) -----

def test_h100_ridge_is_dense(h100, seed):
    assert fmt.decimal(h100.ridge, 1) == "295.3"
    assert fmt.decimal(seed.preset("H100_SXM").sparse["FP16"] / h100.BW, 1) == "590.7"   # the seed's, from the sparse peak


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


def test_tensor_core_ratios(seed):
    h = seed.preset("H100_SXM")
    assert fmt.ratio(h.P("TF32") / h.P("FP32"), 1) == "7.4배"
    assert fmt.ratio(h.P("FP16") / h.P("FP32"), 1) == "14.8배"
    assert "INT4" not in h.peak and "INT4" not in h.sparse


# ----- standard attention -----

def test_score_matrix_size():
    assert attention.score_bytes(4096, 2) == 33_554_432 == 32 * 2**20
    assert attention.score_bytes(4096, 2, heads=32) == 1_073_741_824 == 2**30
    assert fmt.gib(attention.score_bytes(4096, 2, heads=32)) == "1 GiB"


def test_standard_traffic_at_least_4_GiB(h100):
    quad = 32 * attention.standard_traffic_quadratic(4096) * 2
    assert quad == 4 * 2**30 == 4_294_967_296
    assert 32 * attention.standard_traffic_quadratic(4096, separate_scale=True) * 2 == 6 * 2**30
    assert 32 * attention.standard_traffic(4096, 128) * 2 == quad + 128 * 2**20
    assert fmt.ms(quad / h100.BW, 2) == "1.28"


def test_backward_storage_by_dtype():
    assert fmt.gib(32 * 32 * attention.score_bytes(4096, 2)) == "32 GiB"
    assert fmt.gib(32 * 32 * attention.score_bytes(4096, 4)) == "64 GiB"


# ----- FlashAttention -----

CASES = [(N, B_r, B_c) for N in (1, 64, 100, 257) for B_r, B_c in ((16, 16), (32, 64), (48, 20), (7, 300))]


@pytest.mark.parametrize("N,B_r,B_c", CASES)
def test_flash_equals_standard(N, B_r, B_c):
    rng = np.random.default_rng(N * 1000 + B_r)
    Q, K, V = rng.standard_normal((3, N, 16))
    counted = attention.Traffic()
    O = attention.flash_forward(Q, K, V, B_r, B_c, counted)
    assert np.abs(O - attention.standard_forward(Q, K, V)).max() <= attention.TOLERANCE
    assert counted.total == attention.flash_traffic(N, 16, B_c)


def test_flash_with_large_scores_and_other_value_width():
    rng = np.random.default_rng(7)
    Q, K = 30 * rng.standard_normal((2, 50, 8))       # exp would overflow without the running max
    V = rng.standard_normal((50, 5))
    O = attention.flash_forward(Q, K, V, 16, 12)
    assert np.isfinite(O).all()
    assert np.abs(O - attention.standard_forward(Q, K, V)).max() <= attention.TOLERANCE


def test_tolerance_text_matches():
    assert attention.TOLERANCE == 1e-10 and attention.TOLERANCE_TEXT == "10⁻¹⁰"


def test_online_softmax():
    x = np.random.default_rng(3).standard_normal(37) * 10
    expected = np.exp(x - x.max()) / np.exp(x - x.max()).sum()
    for block in (1, 5, 37, 100):
        assert np.abs(attention.online_softmax(x, block) - expected).max() <= 1e-15


def test_flash_blocks_and_traffic_model(seed):
    M = seed.preset("H100_SXM").smem_per_SM // 2
    assert M == 116_736
    assert attention.flash_blocks(M, 128) == (128, 228)
    # Θ(N²d²/M): doubling N roughly quadruples the traffic, and the flash model stays below the standard one
    for N in (1024, 4096, 16384):
        assert attention.flash_traffic(N, 128, 228) < attention.standard_traffic(N, 128)
    ratio = Fraction(attention.flash_traffic(65536, 128, 228), attention.flash_traffic(32768, 128, 228))
    assert abs(ratio - 4) < Fraction(1, 50)


def test_paper_claims_are_the_papers():
    texts = [claims.claim_text(c) for c in claims.CLAIMS]
    assert texts == ["최대 7.6배", "최대 3.0배", "15%", "약 2.0배", "50–73%", "최대 225 TFLOPs/s",
                     "1.5–2.0배", "최대 740 TFLOPs/s", "약 1.2 PFLOPs/s"]


# ----- figures -----

def test_figures_draw_without_warnings(course):
    for name in ("flash-hbm-traffic", "gemm-batch-roofline"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            FIGURES[name](course.note).savefig(io.BytesIO(), format="png")


def test_traffic_curve_data(note):
    from roofline.show.pages.flashattention import traffic_curves

    standard, flash, M, B_c = traffic_curves(note, [1024, 4096])
    assert standard == [attention.standard_traffic(N, 128) * 2 for N in (1024, 4096)]
    assert flash == [attention.flash_traffic(N, 128, 228) * 2 for N in (1024, 4096)]
    assert (M, B_c) == (116_736, 228)


def test_live_traffic_curves_use_the_live_preset(course):
    """Whatever the live note's GPU and dtype: M is its shared memory per SM in elements, B_c is FA1's block for
    that M, and both curves are the traffic model's counts in Byte. (Whether FlashAttention moves less depends on
    M > 3d², so it is not asserted here; the seed's H100 case is checked above.)"""
    from roofline.show.pages.flashattention import traffic_curves

    note = course.note
    d = note.attention.d_head
    N_values = [note.seq, 2 * note.seq, 4 * note.seq]
    standard, flash, M, B_c = traffic_curves(note, N_values)
    assert M == note.hardware.smem_per_SM // note.s
    assert attention.flash_blocks(M, d)[1] == B_c
    assert standard == [attention.standard_traffic(N, d) * note.s for N in N_values]
    assert flash == [attention.flash_traffic(N, d, B_c) * note.s for N in N_values]
    ax = FIGURES["flash-hbm-traffic"](note).axes[0]
    marked = [t.get_text() for t in ax.texts if t.get_text().startswith(f"N = {fmt.integer(note.seq)}: ")]
    assert len(marked) == 2                                   # the live sequence length, on both curves
    assert f"M = {fmt.integer(M)} 원소, B_c = {B_c}" in ax.get_title() and note.dtype in ax.get_title()


# ----- bad input -----

@pytest.mark.parametrize("call", [
    lambda: attention.flash_forward(np.ones((4, 2)), np.ones((4, 2)), np.ones((4, 2)), 0, 2),
    lambda: attention.flash_forward(np.ones((4, 2)), np.ones((4, 3)), np.ones((4, 2)), 2, 2),
    lambda: attention.flash_forward(np.ones((4, 2)), np.ones((4, 2)), np.ones((5, 2)), 2, 2),
    lambda: attention.flash_forward([[1.0]], np.ones((1, 1)), np.ones((1, 1)), 1, 1),
    lambda: attention.standard_forward(np.ones(4), np.ones((4, 1)), np.ones((4, 1))),
    lambda: attention.score_bytes(0, 2),
    lambda: attention.flash_traffic(16, 4, -1),
    lambda: attention.online_softmax(np.ones(3), 0),
    lambda: gemm.gemm(0, 4, 4),
    lambda: gemm.tile_step(4, 0),
    lambda: gemm.naive_matmul(np.ones((2, 3)), np.ones((2, 3))),
    lambda: gemm.tiled_matmul(np.ones((2, 2)), np.ones((2, 2)), 0),
    lambda: transformer.Transformer(12288, 96, 7, 2048, 50257),
    lambda: transformer.Transformer(12288, 0, 96, 2048, 50257),
])
def test_bad_input_is_a_value_error(call):
    with pytest.raises(ValueError):
        call()


NOTE_VARIANTS = [
    ("gpt3 = { d_model = 12288,", "gpt3 = { d_modle = 12288,", r"^\[note\.gpt3\]: 모르는 키 d_modle\. 쓸 수 있는 키: d_model, "),
    ('hardware = "H100_SXM"      #', 'hardware = "H300"      #', r"^note\.hardware: 모르는 하드웨어 프리셋 'H300'\. "),
    ('hardware = "H100_SXM"      #', 'hardware = "TPU_v5e"      #', r"^note\.dtype: 하드웨어 'TPU_v5e'에는 FP16 최대 성능이 없다\. "),
    ("blocks = [[16, 16],", "blocks = [[16, 16, 2],", r"^note\.flash_check\.blocks: \[B_r, B_c\] 쌍의 목록이어야 한다\. "),
    ("naive_N = 64,", "naive_N = -64,", r"^note\.measure\.naive_N: 양의 정수여야 한다\. 받은 값: -64$"),
    ('blas = { dtype = "FP32",', 'blas = { dtype = "FP31",', r"^note\.blas\.dtype: 모르는 자료형 'FP31'\. "),
    ("latency = { L1 = [33, 41],", "latency = { L0 = [33, 41],", r"^\[note\.latency\]: 모르는 키 L0\. 쓸 수 있는 키: "),
    ("tc_flops = 1024,", "tc_flops = 0,", r"^note\.tensor_core\.tc_flops: 양의 정수여야 한다\. 받은 값: 0$"),
    ("blas_N = 1024 }", "blas_N = 1024, extra = 1 }", r"^\[note\.measure\]: 모르는 키 extra\. 쓸 수 있는 키: "),
    ("seq = 4096,", "seq = 4096.0,", r"^note\.attention\.seq: 양의 정수여야 한다\. 받은 값: 4096\.0$"),
]


@pytest.mark.parametrize("old, new, message", NOTE_VARIANTS, ids=[v[1].split("=")[0].strip(" {") for v in NOTE_VARIANTS])
def test_note_table_is_strict(tmp_path, old, new, message):
    text = SEED_TOML.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / "course.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ParameterError, match=message):
        params.load(path)


# ----- per-clock rates, latencies, GEMV, the 0.5 ms claim, TF32, attention time -----

def test_tensor_core_per_clock_is_16x_not_256x(note, seed):
    tc, cuda = gemm.per_clock(note.tensor_core)
    assert (tc, cuda) == (4 * 1024, 128 * 2)
    assert Fraction(tc, cuda) == 16
    h100 = seed.preset("H100_SXM")
    assert fmt.ratio(h100.P("FP16") / h100.P("FP32"), 1) == "14.8배"
    # the clocks behind the two peaks differ (≈1.83 vs ≈1.98 GHz), hence 14.8× rather than 16×
    assert fmt.decimal(h100.P("FP16") / (h100.SMs * tc) / 10**9, 2) == "1.83"
    assert fmt.decimal(h100.P("FP32") / (h100.SMs * cuda) / 10**9, 2) == "1.98"


def test_luo_latencies_and_ratio(note):
    lat = note.latency
    assert (lat.L1, lat.shared, lat.L2, lat.HBM) == ((33, 41), 29, 263, 479)
    assert fmt.decimal(Fraction(lat.HBM, max(lat.L1)), 0) == "12"
    assert fmt.decimal(Fraction(lat.HBM, min(lat.L1)), 1) == "14.5"


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


def test_tf32_ratios(seed):
    h100, a100 = seed.preset("H100_SXM"), seed.preset("A100_SXM")
    assert fmt.ratio(h100.P("TF32") / h100.P("FP32"), 1) == "7.4배"
    assert a100.P("TF32") / a100.P("FP32") == 8


def test_attention_time_with_and_without_qkvo(seed):
    h100 = seed.preset("H100_SXM")
    quad = 32 * attention.standard_traffic_quadratic(4096) * 2
    linear = 32 * 4 * 4096 * 128 * 2
    assert (quad, linear) == (4 * 2**30, 128 * 2**20)
    assert fmt.ms(quad / h100.BW, 2) == "1.28"
    assert fmt.ms((quad + linear) / h100.BW, 2) == "1.32"


def test_flash_traffic_still_grows_as_n_squared(note):
    M = note.hardware.smem_per_SM // note.s
    _, B_c = attention.flash_blocks(M, 128)
    ratio = Fraction(attention.flash_traffic(8192, 128, B_c), attention.flash_traffic(4096, 128, B_c))
    assert fmt.ratio(ratio, 2) == "3.90배"   # T_c doubles (18 → 36): close to 4, the N² of Θ(N²d²/M)


def test_fa1_quoted_values():
    assert attention.FA1_A100_SRAM == (19 * 10**12, 20 * 10**6)
    assert attention.FA1_SHARE_OF_PEAK == (Fraction(1, 4), Fraction(2, 5))


def test_shown_code_fits_80_columns():
    import inspect
    for function in (gemm.naive_matmul, gemm.tiled_matmul, attention.flash_forward):
        lines = inspect.getsource(function).splitlines()
        assert max(len(line) for line in lines) <= 76, function.__name__


# ----- the restored pictures, the cache-line count and the measurements (issue 11, item 5) -----

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


def test_tile_diagram_is_seed_003s_block_picture():
    from roofline.show.pages import flashattention as flash_note
    text = flash_note.tile_diagram(8, 4)
    for line in ("C00 = A00·B00 + A01·B10", "C01 = A00·B01 + A01·B11", "C10 = A10·B00 + A11·B10",
                 "C11 = A10·B01 + A11·B11"):
        assert line in text
    assert "C02" not in text and "C21 = A20·B01 + A21·B11 + A22·B21" in flash_note.tile_diagram(12, 4)


def test_memory_box_and_flash_diagram_follow_the_note(note):
    from roofline.show.pages import flashattention as flash_note
    box = flash_note.hierarchy_diagram(note)
    assert "228 KiB" in box and "256 KiB" in box and "33–41 (Shared 29)" in box and "479" in box and "3.35 TB/s" in box
    M = note.hardware.smem_per_SM // note.s
    B_r, B_c = flash_note.fitting_blocks(M, 128, note.tensor_core.align)
    flash = flash_note.flash_diagram(note)
    assert f"{B_r}×{B_c}" in flash and f"M = {fmt.integer(M)}" in flash
    a100 = flash_note.flash_diagram(note.with_(hardware="A100_SXM"))
    assert "164 KiB" in a100 and a100 != flash                             # a typed parameter reaches the picture


def test_measurements_carry_dtype_and_repeats():
    from roofline import matmul_timing
    runs = matmul_timing.implementations(8, 16, 32, 4, repeats=2)
    assert [(r.label, r.N, r.repeats) for r in runs] == [
        ("naive", 8, 1), ("tiled", 8, 2), ("blas", 8, 2), ("tiled", 16, 2), ("blas", 16, 2), ("blas", 32, 2)]
    assert all(r.seconds > 0 for r in runs) and all(r.error < 1e-12 for r in runs if r.error is not None)
    assert matmul_timing.DTYPE == "FP64"
    stride = matmul_timing.stride(64, 2)
    assert stride.itemsize == 4 and stride.row_seconds > 0 and stride.column_seconds > 0


def test_quoted_batch_table_is_about_200_times_below_the_bound(seed):
    from roofline.show.pages import flashattention as flash_note
    values = flash_note.gemm_roofline(seed.note)
    assert values["gap-small"] == "약 201–213배" and values["gap-big"] == "b = 1,024에서는 약 70배"


def test_no_helper_is_defined_in_a_hidden_cell():
    import re
    from coursebook import editions
    nb = editions.read_source(Path(__file__).resolve().parents[1] / "chapters" / "flashattention.md")
    for cell in nb.cells:
        tags = set(cell.metadata.get("tags", []))
        if cell.cell_type == "code" and tags & {"remove-cell", "remove-input", "hide-input"}:
            assert not re.search(r"^\s*(def |class |\w+ = lambda)", cell.source, re.M), cell.source


def test_the_sram_diagram_s_blocks_fit_the_sram_it_names(course):
    """FA1's B_c = ⌈M/(4d)⌉ only bounds SRAM by O(M): at H100 FP16 its blocks take 120,576 elements > M = 116,736.
    The diagram keeps B_r and takes the largest aligned B_c whose blocks fit; the sum it prints is the blocks'."""
    from roofline.show.pages import flashattention as flash_note
    for key in ("H100_SXM", "A100_SXM", "T4"):
        note = course.note.with_(hardware=key)
        d, M = note.attention.d_head, note.hardware.smem_per_SM // note.s
        B_r, B_c = flash_note.fitting_blocks(M, d, note.tensor_core.align)
        total = B_r * d * 2 + 2 * B_c * d + B_r * B_c + 2 * B_r             # Q_i, O_i, K_j, V_j, S_ij, m_i, ℓ_i
        assert total <= M and B_c % note.tensor_core.align == 0
        rule_r, rule_c = attention.flash_blocks(M, d)
        assert B_r == rule_r and B_c <= rule_c
        assert f"{fmt.integer(total * note.s)} Byte ≤ {fmt.integer(note.hardware.smem_per_SM)} Byte" in flash_note.flash_diagram(note)
    h100 = course.note.with_(hardware="H100_SXM", dtype="FP16")
    said = flash_note.flash_blocks_text(h100)
    assert said["sram-rule-elems"] == "120,576" and said["sram-rule-bytes"] == "241,152" and said["sram-rule-verdict"] == "넘는다"


def test_the_one_line_answer_says_all_heads_make_one_gib():
    from pathlib import Path
    source = (Path(__file__).resolve().parents[1] / "chapters" / "flashattention.md").read_text(encoding="utf-8")
    line = next(l for l in source.splitlines() if l.startswith("**한 줄 답.** 표준 어텐션은"))
    assert "헤드 {glue:text}`heads`개의 점수 행렬을 합치면 {glue:text}`score-all`" in line
    assert "점수 행렬 하나가" not in line
    assert "이다이다" not in source and "{glue:text}`q-b-bound`이다" not in source


def test_the_discussions_of_the_note_ask_what_the_body_does_not_compute(course):
    from roofline.show.pages import flashattention as flash_note
    note = course.note
    d = flash_note.head_dim_discussion(note, attention.flash_blocks(note.hardware.smem_per_SM // note.s,
                                                                    note.attention.d_head)[1])
    assert d["q-2d"].startswith(fmt.integer(2 * note.attention.d_head))
    assert 3.5 < float(d["q-flash-d-ratio"].rstrip("배")) < 4.5 and float(d["q-std-d-ratio"].rstrip("배")) < 1.5
    tf = flash_note.tf32_discussion(note, 256)
    fp32 = note.hardware.roofline("FP32")
    tf32 = note.hardware.roofline("TF32")
    from roofline import gemm
    cost = gemm.gemm(256, note.gemm.N, note.gemm.K, 4)
    import roofline as rl
    gain = rl.Timing(cost, fp32).t_ideal / rl.Timing(cost, tf32).t_ideal
    assert tf["q-tf-gain"] == fmt.ratio(gain, 1) and gain < tf32.P / fp32.P
