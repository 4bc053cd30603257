"""roofline.kernels: F, Q and I of Vector Add and of matmul without reuse, tiled (square and general tiles) and ideal,
the tile threshold, their invariants (hypothesis) and bad input. Seed literals are checked for the frozen seed parameters (`seed`: tests/seed/course.toml).
"""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import roofline as rl
from roofline import buffers, kernels
from roofline import problems as tile_sweep
from roofline.errors import ParameterError
from roofline.hardware import Roofline
from roofline.show import fmt


def test_vector_add_intensity_is_one_twelfth(seed):
    w3 = seed.week3
    cost = kernels.vector_add(w3.L, w3.s)
    assert (cost.F, cost.Q) == (10**8, 12 * 10**8)
    assert cost.I == Fraction(1, 12)
    assert fmt.decimal(cost.I, 5) == "0.08333"


def test_chapter_one_table_at_4096(seed):
    N, s = seed.week4.N, seed.week4.s
    none, ideal = kernels.matmul_no_reuse(N, s, s), kernels.matmul_ideal(N, s, s)
    assert none.F == 137_438_953_472
    assert none.I == Fraction(4096, 4 * 4096 + 2)
    assert fmt.decimal(none.I, 6) == "0.249969"
    assert none.Q == 549_822_922_752                       # 8N³ + 4N²
    assert kernels.matmul_tiled(N, 64, s, s).Q == 8_657_043_456   # 8N³/64 + 4N²
    assert ideal.I == Fraction(4096, 6)
    assert fmt.decimal(ideal.I, 3) == "682.667"


def test_fp16_variants_of_chapter_one(seed):
    N, T = seed.week4.N, 64
    fp32 = kernels.matmul_tiled(N, T, 4, 4)
    inputs_fp16 = kernels.matmul_tiled(N, T, seed.bytes_per("FP16"), 4)
    all_fp16 = kernels.matmul_tiled(N, T, seed.bytes_per("FP16"), seed.bytes_per("FP16"))
    assert inputs_fp16.Q == 4_362_076_160                  # 4N³/T + 4N²
    assert all_fp16.I == 2 * fp32.I
    assert fp32.I < inputs_fp16.I < 2 * fp32.I


def test_threshold_tile_side(seed):
    w4 = seed.week4
    T_star = kernels.tile_threshold(w4.N, w4.roofline.ridge, w4.s, w4.s)
    assert T_star == Fraction(80 * 4096, 4096 - 40)
    assert fmt.decimal(T_star, 3) == "80.789"
    assert kernels.tile_threshold(10, 20) is None  # 2N ≤ s_out I*: no tile reaches the ridge


divisor_pairs = st.integers(1, 9).flatmap(
    lambda k: st.tuples(st.just(2**k), st.integers(0, k).map(lambda j: 2**j))
).map(lambda nt: (nt[0] * 3, nt[1]))


@settings(max_examples=200, deadline=None)
@given(divisor_pairs)
def test_Q_falls_as_T_grows_and_I_T_stays_below_N_over_6(pair):
    N, T = pair
    cost = kernels.matmul_tiled(N, T)
    if N % (2 * T) == 0:
        assert kernels.matmul_tiled(N, 2 * T).Q < cost.Q
    assert cost.I <= Fraction(N, 6)
    assert cost.F == 2 * N**3


@settings(max_examples=300, deadline=None)
@given(st.integers(41, 10**5), st.integers(1, 4096))
def test_I_T_reaches_20_exactly_when_T_reaches_80N_over_N_minus_40(N, T):
    I_T = Fraction(2 * N**3, 8 * N**3 / Fraction(T) + 4 * N**2)
    assert (I_T >= 20) == (T >= Fraction(80 * N, N - 40))
    assert (I_T >= 20) == (T >= kernels.tile_threshold(N, 20))


def test_general_tiles_cancel_the_K_width():
    M = N = K = 1024
    reads = {kernels.matmul_tiles(M, N, K, 64, 32, T_K).Q_read for T_K in (8, 16, 32, 64, 128)}
    assert reads == {4 * K * (M * N // 32 + M * N // 64)}


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: kernels.matmul_tiled(4096, 48), r"^T: N = 4096의 약수가 아닌 값 48\. 타일 한 변은 N의 약수여야 한다$"),
        (lambda: kernels.matmul_tiled(4096, 0), r"^T: 양의 정수여야 한다\. 받은 값: 0$"),
        (lambda: kernels.matmul_tiled(4096, -32), r"^T: 양의 정수여야 한다\. 받은 값: -32$"),
        (lambda: kernels.matmul_tiled(4096.0, 32), r"^N: 양의 정수여야 한다\. 받은 값: 4096\.0$"),
        (lambda: kernels.vector_add(0), r"^L: 양의 정수여야 한다\. 받은 값: 0$"),
        (lambda: kernels.matmul_no_reuse(4096, s_in=0), r"^s_in: 양의 정수여야 한다\. 받은 값: 0$"),
        (lambda: Roofline(20 * 10**12, -(10**12)), r"^BW: 0보다 커야 한다\. 받은 값: -1000000000000$"),
        (lambda: Roofline(0, 10**12), r"^P: 0보다 커야 한다\. 받은 값: 0$"),
        (lambda: Roofline(20 * 10**12, float("inf")), r"^BW: 유한한 수여야 한다 \(inf, nan은 쓸 수 없다\)"),
        (lambda: rl.Cost(10, -1, 0), r"^Q_read: 음수일 수 없다\. 받은 값: -1$"),
        (lambda: fmt.integer(Fraction(1, 2)), r"needs a whole number"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_K_width_cancels():
    """(K/T_K) · s(T_M T_K + T_K T_N) = s K (T_M + T_N): the same HBM bytes for every T_K."""
    one_tile = {kernels.matmul_tiles(64, 64, 4096, 64, 64, T_K).Q_read for T_K in (8, 16, 32, 64, 128, 256)}
    assert one_tile == {2_097_152}                          # 4 × 4,096 × (64 + 64)
    reads = {kernels.matmul_tiles(4096, 4096, 4096, 64, 64, T_K).Q_read for T_K in (8, 16, 32, 64, 128, 256)}
    assert reads == {8_589_934_592}                         # (4096/64)² output tiles of 2,097,152 B


def test_threshold_and_storage(seed):
    w4 = seed.week4
    T_star = kernels.tile_threshold(w4.N, w4.roofline.ridge, w4.s, w4.s)
    assert [T for T in w4.tiles if T >= T_star] == [128]
    ideal = kernels.matmul_ideal(w4.N, w4.s, w4.s)
    assert ideal.Q == 201_326_592 and fmt.mib(ideal.Q) == "192 MiB"          # 12N²: A, B and C once
    assert ideal.I == Fraction(4096, 6)
    assert fmt.decimal(ideal.I, 3) == "682.667"


Ns = st.sampled_from([64, 96, 128, 256, 360, 1000, 1024, 4096, 6144])
sizes = st.sampled_from([1, 2, 4])


@settings(max_examples=60, deadline=None)
@given(N=Ns, data=st.data(), s=sizes)
def test_Q_falls_as_T_grows(N, data, s):
    divs = tile_sweep.divisors(N)
    Qs = [kernels.matmul_tiled(N, T, s, s).Q for T in divs]
    assert all(a > b for a, b in zip(Qs, Qs[1:]))
    assert kernels.matmul_no_reuse(N, s, s).Q == kernels.matmul_tiled(N, 1, s, s).Q


@settings(max_examples=60, deadline=None)
@given(N=Ns, data=st.data())
def test_I_T_never_exceeds_N_over_6(N, data):
    T = data.draw(st.sampled_from(tile_sweep.divisors(N)))
    I = kernels.matmul_tiled(N, T).I
    assert I <= Fraction(N, 6)
    assert (I == Fraction(N, 6)) == (T == N)


@settings(max_examples=100, deadline=None)
@given(N=Ns, data=st.data(), s=sizes, ridge=st.fractions(min_value=Fraction(1, 10), max_value=400))
def test_ridge_reached_exactly_from_the_threshold(N, data, s, ridge):
    T = data.draw(st.sampled_from(tile_sweep.divisors(N)))
    T_star = kernels.tile_threshold(N, ridge, s, s)
    reaches = kernels.matmul_tiled(N, T, s, s).I >= ridge
    assert reaches == (T_star is not None and T >= T_star)


def test_threshold_on_the_live_tiles_agrees_with_the_timing(course, cases):
    w4 = course.week4
    T_star = kernels.tile_threshold(w4.N, w4.roofline.ridge, w4.s, w4.s)
    for case in cases[1:]:
        assert (not case.timing.memory_bound) == (T_star is not None and case.T >= T_star)


POSITIVE = r": 양의 정수여야 한다\. 받은 값: "


@pytest.mark.parametrize("call, words", [
    (lambda seed: buffers.tile_buffers(0, 32, 32), "^T_M" + POSITIVE + "0$"),
    (lambda seed: buffers.tile_buffers(32, 32, 32, copies=0), "^copies" + POSITIVE + "0$"),
    (lambda seed: buffers.tile_buffers(32, 32, 32.5), "^T_K" + POSITIVE + r"32\.5$"),
    (lambda seed: buffers.resident_blocks(65536, 0), "^per_block" + POSITIVE + "0$"),
    (lambda seed: kernels.matmul_tiles(4096, 4096, 4096, 64, 64, 48),
     r"^T_K: K = 4096의 약수가 아닌 값 48\. 타일 한 변은 K의 약수여야 한다$"),
    (lambda seed: kernels.matmul_tiled(4096, 100), r"^T: N = 4096의 약수가 아닌 값 100\. 타일 한 변은 N의 약수여야 한다$"),
    (lambda seed: kernels.matmul_tiled(4096, -32), "^T" + POSITIVE + "-32$"),
    (lambda seed: kernels.tile_threshold(0, 20), "^N" + POSITIVE + "0$"),
    (lambda seed: tile_sweep.divisors(0), "^N" + POSITIVE + "0$"),
    (lambda seed: tile_sweep.divisors(True), "^N" + POSITIVE + "True$"),
    (lambda seed: rl.Roofline(-1, 10**12), r"^P: 0보다 커야 한다\. 받은 값: -1$"),
    (lambda seed: seed.preset("H300"), r"^hardware: 모르는 하드웨어 프리셋 'H300'\. 쓸 수 있는 값: course, "),
    (lambda seed: seed.preset("TPU_v5e").P("FP32"),
     r"^dtype: 하드웨어 'TPU_v5e'에는 FP32 최대 성능이 없다\. 쓸 수 있는 자료형: BF16, INT8$"),
])
def test_bad_input_is_a_clear_error(seed, call, words):
    with pytest.raises(ParameterError, match=words):
        call(seed)


def test_threshold_none_when_no_tile_can_reach():
    assert kernels.tile_threshold(8, 10**6) is None


@pytest.fixture()
def vadd(seed):
    w3 = seed.week3
    return kernels.vector_add(w3.L, w3.s)


def test_amounts_of_vector_add(vadd, seed):
    s, L = seed.week3.s, seed.week3.L
    assert s * L == 400_000_000                     # A read: 400 MB (and B read, C written)
    assert vadd.Q_read == 800_000_000               # inputs: 800 MB
    assert vadd.Q_write == 400_000_000              # C: 400 MB
    assert vadd.Q == 1_200_000_000                  # Q: 1.2 GB
    assert vadd.F == 100_000_000                    # F: 10⁸ FLOPs
    assert 3 * s * L == vadd.Q                      # footprint of A, B, C equals Q here (each moved once)


def test_per_element_costs_fp32_and_bf16(seed):
    fp32 = kernels.vector_add(1, seed.bytes_per("FP32"))
    bf16 = kernels.vector_add(1, seed.bytes_per("BF16"))
    assert (fp32.Q_read, fp32.F, fp32.Q_write, fp32.Q) == (8, 1, 4, 12)     # 4+4, 1 FLOP, 4, 12 bytes
    assert (bf16.Q_read, bf16.F, bf16.Q_write, bf16.Q) == (4, 1, 2, 6)      # 2+2, 1 FLOP, 2, 6 bytes
    assert (fp32.I, bf16.I) == (Fraction(1, 12), Fraction(1, 6))
