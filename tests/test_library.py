"""The course library against the seed's own numbers (week guide and ①), its invariants, and bad input.

Expected values are the ones printed in seed 000 (rounded as it rounds them), not outputs of the code.
"""
from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import roofline as rl
from roofline import fmt, formulas, kernels, params
from roofline.hardware import Roofline

TOML = Path(rl.params.DEFAULT_PATH).read_text(encoding="utf-8")


# --- the parameter file -------------------------------------------------------------------------

def test_course_parameters_are_the_seeds(course):
    w4 = course.week4
    assert (w4.hardware.P, w4.hardware.BW) == (20 * 10**12, 10**12)
    assert (w4.N, w4.dtype, w4.s, w4.tiles) == (4096, "FP32", 4, (32, 64, 128))
    assert (w4.small_N, w4.small_T) == (4, 2)
    assert (course.week3.L, course.week3.s) == (10**8, 4)


def test_presets_match_the_errata_table(course):
    h100 = course.preset("H100_SXM")
    assert h100.P("FP32") == Fraction("66.9e12") and h100.P("FP16") == Fraction("989.4e12")
    assert h100.BW == Fraction("3.35e12") and h100.SMs == 132
    assert course.preset("A100_SXM").BW == Fraction("2.039e12")
    assert course.preset("T4").P("FP32") == Fraction("8.1e12")
    assert course.preset("TPU_v5e").P("BF16") == 197 * 10**12
    for preset in course.presets.values():
        assert preset.source.startswith("https://")


def write_variant(tmp_path, old, new, count=1):
    assert old in TOML, old
    path = tmp_path / "course.toml"
    path.write_text(TOML.replace(old, new, count), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "old, new, message",
    [
        ("N = 4096", "N = 4100", r"week4\.tiles: N = 4100 is not a multiple of T = 32"),
        ("N = 4096", "N = -4096", r"week4\.N must be a positive whole number"),
        ("tiles = [32, 64, 128]", "tiles = [32, 0]", r"week4\.tiles must be a positive whole number"),
        ("tiles = [32, 64, 128]", "tiles = [64, 32]", r"distinct and increasing"),
        ("BW = 1e12", "BW = -1e12", r"presets\.course\.BW must be positive"),
        ('dtype = "FP32"             # [dtypes]', 'dtype = "FP33"             # [dtypes]', r"week4\.dtype: unknown dtype 'FP33'; known dtypes: FP32"),
        ('hardware = "course"        # 아래', 'hardware = "H100"        # 아래', r"week4\.hardware: unknown preset 'H100'; known presets: course, H100_SXM"),
        ("small_T = 2 ", "small_T = 3 ", r"small_N = 4 is not a multiple of small_T = 3"),
        ("N = 4096", "Nn = 4096", r"unknown key\(s\) in \[week4\]: Nn"),
        ("L = 100_000_000", 'L = "1e8"', r"week3\.L must be a positive whole number"),
        ('source = "https://www.nvidia.com/en-us/data-center/h100/"', 'source = "http://x"', r"presets\.H100_SXM\.source must be an https:// URL"),
        ("peak = { FP32 = 8.1e12,", "peak = { FP64 = 8.1e12,", r"presets\.T4\.peak\.FP64: unknown dtype"),
    ],
)
def test_bad_parameter_files_name_the_problem(tmp_path, old, new, message):
    with pytest.raises(ValueError, match=message):
        params.load(write_variant(tmp_path, old, new))


def test_a_preset_without_the_weeks_dtype_is_refused(tmp_path):
    path = write_variant(tmp_path, 'hardware = "course"        # 아래', 'hardware = "TPU_v5e"        # 아래')
    with pytest.raises(ValueError, match=r"preset 'TPU_v5e' has no FP32 peak; it has: BF16, INT8"):
        params.load(path)


def test_broken_toml_is_reported_with_the_file(tmp_path):
    path = tmp_path / "course.toml"
    path.write_text("[week4\nN = 1", encoding="utf-8")
    with pytest.raises(ValueError, match=r"course\.toml: not valid TOML"):
        params.load(path)


def test_unknown_preset_and_dtype_lookups(course):
    with pytest.raises(ValueError, match=r"unknown preset 'B200'"):
        course.preset("B200")
    with pytest.raises(ValueError, match=r"unknown dtype 'FP4'"):
        course.bytes_per("FP4")
    with pytest.raises(ValueError, match=r"has no peak for dtype 'FP64'"):
        course.preset("H100_SXM").roofline("FP64")


# --- the model: week guide and ① -----------------------------------------------------------------

def test_ridge_point_is_20_flops_per_byte(course):
    assert course.week4.hardware.ridge == 20


def test_vector_add_intensity_is_one_twelfth():
    cost = kernels.vector_add(10**8, 4)
    assert (cost.F, cost.Q) == (10**8, 12 * 10**8)
    assert cost.I == Fraction(1, 12)
    assert fmt.decimal(cost.I, 5) == "0.08333"


def test_chapter_one_table_at_4096():
    N = 4096
    assert kernels.matmul_no_reuse(N).I == Fraction(N, 4 * N + 2)
    assert fmt.decimal(kernels.matmul_no_reuse(N).I, 6) == "0.249969"
    assert kernels.matmul_no_reuse(N).Q == 8 * N**3 + 4 * N**2
    assert kernels.matmul_tiled(N, 64).Q == 8 * N**3 // 64 + 4 * N**2
    assert kernels.matmul_ideal(N).I == Fraction(N, 6)
    assert fmt.decimal(kernels.matmul_ideal(N).I, 3) == "682.667"
    assert 2 * N**3 == 137_438_953_472


def test_closed_forms_as_text():
    assert formulas.intensity_no_reuse(4, 4) == "N/(4N+2)"
    assert formulas.intensity_tiled(4, 4) == "NT/(4N+2T)"
    assert formulas.intensity_ideal(4, 4) == "N/6"
    assert formulas.q_no_reuse(4, 4) == "8N³ + 4N²"
    assert formulas.q_tiled(2, 4) == "4N³/T + 4N²"


def test_fp16_variants_of_chapter_one():
    N, T = 4096, 64
    fp32 = kernels.matmul_tiled(N, T, 4, 4)
    inputs_fp16 = kernels.matmul_tiled(N, T, 2, 4)
    all_fp16 = kernels.matmul_tiled(N, T, 2, 2)
    assert inputs_fp16.Q == 4 * N**3 // T + 4 * N**2
    assert all_fp16.I == 2 * fp32.I
    assert fp32.I < inputs_fp16.I < 2 * fp32.I


def test_the_seeds_four_points_and_times(course):
    expected = {  # seed 000 ②/⑤: R_roof (TFLOPs/s), t_ideal (ms), limit
        "재사용 없음": ("0.249969", "549.822923", rl.MEMORY),
        "T = 32": ("7.968872", "17.246978", rl.MEMORY),
        "T = 64": ("15.875969", "8.657043", rl.MEMORY),
        "T = 128": ("20.000000", "6.871948", rl.COMPUTE),
    }
    cases = rl.problems.week4_cases(course.week4)
    assert [c.label for c in cases] == list(expected)
    for case in cases:
        t = case.timing
        assert (fmt.tera(t.R_roof), fmt.ms(t.t_ideal), t.bound) == expected[case.label]
    assert fmt.ms(cases[0].timing.t_compute, 10) == "6.8719476736"


def test_threshold_tile_side(course):
    assert kernels.tile_threshold(4096, 20) == Fraction(80 * 4096, 4096 - 40)
    assert fmt.decimal(kernels.tile_threshold(4096, 20), 3) == "80.789"
    assert kernels.tile_threshold(10, 20) is None  # 2N ≤ s_out I*: no tile reaches the ridge


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
        (lambda: kernels.matmul_tiled(4096, 48), r"N = 4096 is not a multiple of T = 48; T must divide N"),
        (lambda: kernels.matmul_tiled(4096, 0), r"T must be a positive whole number, got 0"),
        (lambda: kernels.matmul_tiled(4096, -32), r"T must be a positive whole number, got -32"),
        (lambda: kernels.vector_add(0), r"L must be a positive whole number"),
        (lambda: kernels.matmul_no_reuse(4096, s_in=0), r"s_in must be a positive whole number"),
        (lambda: Roofline(20 * 10**12, -(10**12)), r"BW must be a positive number"),
        (lambda: Roofline(0, 10**12), r"P must be a positive number"),
        (lambda: rl.Cost(10, -1, 0), r"Q_read must not be negative"),
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
    assert fmt.percent(Fraction(243, 1000)) == "24.3 %"
    assert re.fullmatch(r"\d+\.\d{6}", fmt.ms(Fraction(1, 3)))
