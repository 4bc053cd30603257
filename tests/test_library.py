"""The course library against the seed's own numbers (week guide and ①), its invariants, and bad input.

Expected values are the ones printed in seed 000 (rounded as it rounds them), not outputs of the code. They are
checked against the frozen parameter file of that term (the `seed` fixture, tests/seed/course.toml); bad parameter
files are variants of that file, so an instructor's change to the live course.toml changes none of them.
"""
from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import roofline as rl
from roofline import kernels, params
from roofline.show import fmt, formulas, ko
from roofline.errors import ParameterError
from roofline.hardware import Roofline

from conftest import SEED_TOML

SEED_TEXT = SEED_TOML.read_text(encoding="utf-8")


# --- the parameter file -------------------------------------------------------------------------

def test_seed_parameters_are_the_seeds(seed):
    w4 = seed.week4
    assert (w4.hardware.P, w4.hardware.BW) == (20 * 10**12, 10**12)
    assert (w4.N, w4.dtype, w4.s, w4.tiles) == (4096, "FP32", 4, (32, 64, 128))
    assert (w4.small_N, w4.small_T) == (4, 2)
    assert (seed.week3.L, seed.week3.s) == (10**8, 4)


def test_presets_match_the_errata_table(seed):
    h100 = seed.preset("H100_SXM")
    assert h100.P("FP32") == Fraction("66.9e12") and h100.P("FP16") == Fraction("989.4e12")
    assert h100.BW == Fraction("3.35e12") and h100.SMs == 132
    assert seed.preset("A100_SXM").BW == Fraction("2.039e12")
    assert seed.preset("T4").P("FP32") == Fraction("8.1e12")
    assert seed.preset("TPU_v5e").P("BF16") == 197 * 10**12


def test_every_live_preset_cites_an_https_source(course):
    assert course.presets
    for preset in course.presets.values():
        assert preset.source.startswith("https://"), preset.key


def write_variant(tmp_path, old, new, count=1):
    """The seed's parameter file with `old` replaced by `new` (a bad file an instructor might write)."""
    assert old in SEED_TEXT, old
    path = tmp_path / "course.toml"
    path.write_text(SEED_TEXT.replace(old, new, count), encoding="utf-8")
    return path


W4_DTYPE = 'dtype = "FP32"             # [dtypes]'
W4_HARDWARE = 'hardware = "course"        # 아래'


@pytest.mark.parametrize(
    "old, new, message",
    [
        ("N = 4096", "N = 4100", r"^week4\.tiles: N = 4100의 약수가 아닌 값 32\. 타일 한 변은 N의 약수여야 한다$"),
        ("N = 4096", "N = -4096", r"^week4\.N: 양의 정수여야 한다\. 받은 값: -4096$"),
        ("N = 4096", "N = 4096.0", r"^week4\.N: 양의 정수여야 한다\. 받은 값: 4096\.0$"),
        ("tiles = [32, 64, 128]", "tiles = [32, 0]", r"^week4\.tiles: 양의 정수여야 한다\. 받은 값: 0$"),
        ("tiles = [32, 64, 128]", "tiles = [64, 32]",
         r"^week4\.tiles: 값이 서로 다르고 작은 것부터 커져야 한다\. 받은 값: \[64, 32\]$"),
        ("BW = 1e12", "BW = -1e12", r"^presets\.course\.BW: 0보다 커야 한다\. 받은 값: -1000000000000\.0$"),
        ("BW = 1e12", "BW = inf", r"^presets\.course\.BW: 유한한 수여야 한다 \(inf, nan은 쓸 수 없다\)\. 받은 값: inf$"),
        ("BW = 1e12", "BW = nan", r"^presets\.course\.BW: 유한한 수여야 한다 \(inf, nan은 쓸 수 없다\)\. 받은 값: nan$"),
        (W4_DTYPE, W4_DTYPE.replace("FP32", "FP33"), r"^week4\.dtype: 모르는 자료형 'FP33'\. 쓸 수 있는 값: FP32, TF32, "),
        (W4_HARDWARE, W4_HARDWARE.replace('"course"', '"H100"'),
         r"^week4\.hardware: 모르는 하드웨어 프리셋 'H100'\. 쓸 수 있는 값: course, H100_SXM, "),
        ("small_T = 2 ", "small_T = 3 ", r"^week4\.small_T: small_N = 4의 약수가 아닌 값 3\. 타일 한 변은 small_N의 약수여야 한다$"),
        ("N = 4096", "Nn = 4096", r"^\[week4\]: 모르는 키 Nn\. 쓸 수 있는 키: N, cache, dtype, "),
        ("L = 100_000_000", 'L = "1e8"', r"^week3\.L: 양의 정수여야 한다\. 받은 값: '1e8'$"),
        ('source = "https://www.nvidia.com/en-us/data-center/h100/"', 'source = "http://x"',
         r"^presets\.H100_SXM\.source: https:// 주소여야 한다\. 받은 값: 'http://x'$"),
        ("peak = { FP32 = 8.1e12,", "peak = { FP64 = 8.1e12,", r"^presets\.T4\.peak\.FP64: 모르는 자료형 'FP64'\. "),
        ("[week3]", "[week33]", r"^\[course\.toml\]: 모르는 키 week33\. 쓸 수 있는 키: "),
    ],
    ids=["N-not-a-multiple", "N-negative", "N-float", "tiles-zero", "tiles-order", "BW-negative", "BW-inf", "BW-nan",
         "dtype-unknown", "hardware-unknown", "small_T-not-a-divisor", "key-unknown", "L-string", "source-http",
         "peak-dtype-unknown", "table-unknown"],
)
def test_bad_parameter_files_name_the_key(tmp_path, old, new, message):
    with pytest.raises(ParameterError, match=message):
        params.load(write_variant(tmp_path, old, new))


def test_a_preset_without_the_weeks_dtype_is_refused(tmp_path):
    path = write_variant(tmp_path, W4_HARDWARE, W4_HARDWARE.replace('"course"', '"TPU_v5e"'))
    with pytest.raises(ParameterError, match=r"^week4\.dtype: 하드웨어 'TPU_v5e'에는 FP32 최대 성능이 없다\. "
                                             r"쓸 수 있는 자료형: BF16, INT8$"):
        params.load(path)


def test_broken_toml_is_reported_with_the_file(tmp_path):
    path = tmp_path / "course.toml"
    path.write_text("[week4\nN = 1", encoding="utf-8")
    with pytest.raises(ParameterError, match=r"^course\.toml: TOML 문법 오류: "):
        params.load(path)


def test_unknown_preset_and_dtype_lookups(seed):
    with pytest.raises(ParameterError, match=r"^hardware: 모르는 하드웨어 프리셋 'B200'\. 쓸 수 있는 값: course, "):
        seed.preset("B200")
    with pytest.raises(ParameterError, match=r"^dtype: 모르는 자료형 'FP4'\. 쓸 수 있는 값: FP32, "):
        seed.bytes_per("FP4")
    with pytest.raises(ParameterError, match=r"^dtype: 하드웨어 'H100_SXM'에는 FP64 최대 성능이 없다\. "):
        seed.preset("H100_SXM").roofline("FP64")


# --- the model: week guide and ① -----------------------------------------------------------------

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


def test_closed_forms_as_text():
    assert formulas.intensity_no_reuse(4, 4) == "N/(4N+2)"
    assert formulas.intensity_tiled(4, 4) == "NT/(4N+2T)"
    assert formulas.intensity_ideal(4, 4) == "N/6"
    assert formulas.q_no_reuse(4, 4) == "8N³ + 4N²"
    assert formulas.q_tiled(2, 4) == "4N³/T + 4N²"


def test_fp16_variants_of_chapter_one(seed):
    N, T = seed.week4.N, 64
    fp32 = kernels.matmul_tiled(N, T, 4, 4)
    inputs_fp16 = kernels.matmul_tiled(N, T, seed.bytes_per("FP16"), 4)
    all_fp16 = kernels.matmul_tiled(N, T, seed.bytes_per("FP16"), seed.bytes_per("FP16"))
    assert inputs_fp16.Q == 4_362_076_160                  # 4N³/T + 4N²
    assert all_fp16.I == 2 * fp32.I
    assert fp32.I < inputs_fp16.I < 2 * fp32.I


def test_the_seeds_four_points_and_times(seed):
    expected = {  # seed 000 ②/⑤: R_roof (TFLOPs/s), t_ideal (ms), limit
        "재사용 없음": ("0.249969", "549.822923", "HBM 대역폭"),
        "T = 32": ("7.968872", "17.246978", "HBM 대역폭"),
        "T = 64": ("15.875969", "8.657043", "HBM 대역폭"),
        "T = 128": ("20.000000", "6.871948", "연산 성능"),
    }
    cases = rl.problems.week4_cases(seed.week4)
    assert [ko.case(c) for c in cases] == list(expected)
    for case in cases:
        t = case.timing
        assert (fmt.tera(t.R_roof), fmt.ms(t.t_ideal), ko.bound(t)) == expected[ko.case(case)]
    assert fmt.ms(cases[0].timing.t_compute, 10) == "6.8719476736"


def test_threshold_tile_side(seed):
    w4 = seed.week4
    T_star = kernels.tile_threshold(w4.N, w4.hardware.ridge, w4.s, w4.s)
    assert T_star == Fraction(80 * 4096, 4096 - 40)
    assert fmt.decimal(T_star, 3) == "80.789"
    assert kernels.tile_threshold(10, 20) is None  # 2N ≤ s_out I*: no tile reaches the ridge


def test_live_cases_are_bound_where_their_intensity_says(course):
    """For the live parameters, whatever they are: a case is memory-bound exactly when I < I*, F is 2N³ for every
    case, and Q falls as the tile grows."""
    w4 = course.week4
    cases = rl.problems.week4_cases(w4)
    assert [ko.case(c) for c in cases] == ["재사용 없음"] + [f"T = {T}" for T in w4.tiles]
    assert {c.cost.F for c in cases} == {2 * w4.N**3}
    assert all(a.cost.Q > b.cost.Q for a, b in zip(cases, cases[1:]))
    for case in cases:
        assert case.timing.memory_bound == (case.cost.I < w4.hardware.ridge)
        assert case.timing.bound == (rl.MEMORY if case.timing.memory_bound else rl.COMPUTE)


# --- invariants -----------------------------------------------------------------------------------

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


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10**15), st.integers(1, 10**15), st.integers(1, 10**6), st.integers(1, 10**6))
def test_R_roof_times_t_ideal_is_F(F, Q, P_tera, BW_giga):
    hw = Roofline(P_tera * 10**12, BW_giga * 10**9)
    t = rl.Timing(rl.Cost(F, Q, 0), hw)
    assert t.R_roof * t.t_ideal == F
    assert t.t_ideal == max(t.t_compute, t.t_memory)
    assert (t.bound == rl.MEMORY) == (t.cost.I < hw.ridge)


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


# --- bad input ------------------------------------------------------------------------------------

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


# --- formatting -----------------------------------------------------------------------------------

def test_formatting_in_the_seeds_style():
    assert fmt.integer(549_822_922_752) == "549,822,922,752"
    assert fmt.decimal(Fraction(2, 9), 4) == "0.2222"
    assert fmt.decimal(Fraction(1, 8), 2) == "0.13"           # half away from zero
    assert fmt.ratio(Fraction(549_822_922_752, 6_871_947_673_600) * 1000) == "80.01배"
    assert fmt.giga(549_822_922_752) == "549.822923"
    assert fmt.kib(196_608) == "192 KiB"
    assert fmt.mib(201_326_592) == "192 MiB"
    assert fmt.gib(2**30) == "1 GiB"
    assert fmt.power10(20 * 10**12) == "20 × 10¹²"
    assert fmt.percent(Fraction(243, 1000)) == "24.3%"
    assert re.fullmatch(r"\d+\.\d{6}", fmt.ms(Fraction(1, 3)))
