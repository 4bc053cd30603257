"""roofline.attention: standard attention and the NumPy FlashAttention (equal outputs, the online softmax), the
score-matrix sizes, the HBM-traffic model, the block sizes, and bad input. Seed literals are checked for the frozen seed parameters (`seed`: tests/seed/course.toml).
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from roofline import attention, gemm, transformer
from roofline.show import fmt


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


def test_traffic_curve_data(note):
    from roofline.show.pages.flashattention import traffic_curves

    standard, flash, M, B_c = traffic_curves(note, [1024, 4096])
    assert standard == [attention.standard_traffic(N, 128) * 2 for N in (1024, 4096)]
    assert flash == [attention.flash_traffic(N, 128, 228) * 2 for N in (1024, 4096)]
    assert (M, B_c) == (116_736, 228)


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


def test_attention_time_with_and_without_qkvo(seed):
    h100 = seed.preset("H100_SXM")
    quad = 32 * attention.standard_traffic_quadratic(4096) * 2
    linear = 32 * 4 * 4096 * 128 * 2
    assert (quad, linear) == (4 * 2**30, 128 * 2**20)
    assert fmt.ms(quad / h100.BW, 2) == "1.28"
    assert fmt.ms((quad + linear) / h100.BW, 2) == "1.32"


def test_flash_traffic_still_grows_as_n_squared(note):
    M = note.preset.smem_per_SM // note.s
    _, B_c = attention.flash_blocks(M, 128)
    ratio = Fraction(attention.flash_traffic(8192, 128, B_c), attention.flash_traffic(4096, 128, B_c))
    assert fmt.ratio(ratio, 2) == "3.90배"   # T_c doubles (18 → 36): close to 4, the N² of Θ(N²d²/M)


def test_fa1_quoted_values():
    assert attention.FA1_A100_SRAM == (19 * 10**12, 20 * 10**6)
    assert attention.FA1_SHARE_OF_PEAK == (Fraction(1, 4), Fraction(2, 5))


def test_one_heads_score_bytes_and_all_heads_have_two_symbols():
    """Q_S = N²·s (one head) and Q_S,헤드 = h·N²·s (all heads) are two quantities: a page that shows 32 MiB and 1 GiB
    never calls both Q_S (a fresh read of the note's panels, issue 54)."""
    one, every = attention.score_bytes_term(4096, 2), attention.score_bytes_term(4096, 2, 32)
    assert (one.symbol, one.term.formula) == ("Q_S", "N²·s")
    assert (every.symbol, every.term.formula) == ("Q_S,헤드", "h·N²·s")
    assert every.value == 32 * one.value == attention.score_bytes(4096, 2, 32)
