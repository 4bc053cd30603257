"""④ tile size, ⑤ matmul, summary: every value of the seed's tables (as the seed rounds them),
the model's invariants, bad input, the sweep figure's data, and the three chapters' glued values and prose.

The seed's literal values are checked for the seed's parameters (`seed`, `seed_glued`: tests/seed/course.toml);
properties of the model and the figures for the live parameters, whatever an instructor made them."""
from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import roofline as rl
from roofline import buffers, kernels, occupancy, problems
from roofline.show import fmt, ko
from roofline.errors import ParameterError
from roofline import problems as tile_sweep
from roofline.show.figures import FIGURES

from conftest import live_glued, seed_glued

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = ROOT / "chapters"
PAGES = ["w4_4_tile_size", "w4_5_matmul", "w4_summary"]


@pytest.fixture(scope="module")
def SEED_CASES(seed):
    return problems.week4_cases(seed.week4)


@pytest.fixture(scope="module")
def CASES(course):
    """The live parameters' cases."""
    return problems.week4_cases(course.week4)


# ---------------------------------------------------------------- the seed's parameters
def test_parameters_are_the_seeds(seed):
    w4, hw = seed.week4, seed.week4.hardware
    assert (w4.N, w4.tiles, w4.s, w4.dtype, w4.threads) == (4096, (32, 64, 128), 4, "FP32", 256)
    assert (hw.P, hw.BW, hw.ridge) == (20 * 10**12, 10**12, 20)


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


def test_residency_on_real_presets(seed):
    """Beyond the hypothetical hardware: resident blocks with every limit (roofline.occupancy), 256 threads and
    32 registers besides the partial sums; never more than the SM's cap (32 on H100, 16 on T4)."""
    h100, t4 = seed.preset("H100_SXM"), seed.preset("T4")
    assert (h100.smem_per_SM, t4.smem_per_SM) == (228 * 1024, 64 * 1024)
    got = {}
    for gpu in (h100, t4):
        for T in (32, 64, 128):
            for c in (1, 2):
                case = occupancy.tile_case(gpu, T, 4, c, 256, 32)
                got[gpu.key, T, c] = case.result.blocks if case.result else None
                assert case.result is None or case.result.blocks <= gpu.sm.blocks
    assert got == {
        ("H100_SXM", 32, 1): 6, ("H100_SXM", 32, 2): 6, ("H100_SXM", 64, 1): 5, ("H100_SXM", 64, 2): 3,
        ("H100_SXM", 128, 1): 1, ("H100_SXM", 128, 2): None,
        ("T4", 32, 1): 4, ("T4", 32, 2): 4, ("T4", 64, 1): 2, ("T4", 64, 2): 1, ("T4", 128, 1): None, ("T4", 128, 2): None,
    }


def test_K_width_cancels():
    """(K/T_K) · s(T_M T_K + T_K T_N) = s K (T_M + T_N): the same HBM bytes for every T_K."""
    one_tile = {kernels.matmul_tiles(64, 64, 4096, 64, 64, T_K).Q_read for T_K in (8, 16, 32, 64, 128, 256)}
    assert one_tile == {2_097_152}                          # 4 × 4,096 × (64 + 64)
    reads = {kernels.matmul_tiles(4096, 4096, 4096, 64, 64, T_K).Q_read for T_K in (8, 16, 32, 64, 128, 256)}
    assert reads == {8_589_934_592}                         # (4096/64)² output tiles of 2,097,152 B


def test_T_K_smaller_shrinks_inputs_not_acc():
    full, half = buffers.tile_buffers(64, 64, 64), buffers.tile_buffers(64, 64, 32)
    assert (fmt.kib(full.inputs), fmt.kib(half.inputs)) == ("32 KiB", "16 KiB")
    assert half.acc == full.acc == 16384


def test_T128_is_compute_bound_by_the_numbers(SEED_CASES):
    t = SEED_CASES[-1].timing
    assert (fmt.ms(t.t_compute, 3), fmt.ms(t.t_memory, 3), fmt.decimal(t.cost.I, 3)) == ("6.872", "4.362", "31.508")
    assert t.t_compute > t.t_memory and ko.bound(t) == "연산 성능"


# ---------------------------------------------------------------- ⑤ the three tables
SEED_COST = [  # label, F, A·B reads, C writes, Q, Q GB, I
    ("재사용 없음", "137,438,953,472", "549,755,813,888", "67,108,864", "549,822,922,752", "549.822923", "0.249969"),
    ("T = 32", "137,438,953,472", "17,179,869,184", "67,108,864", "17,246,978,048", "17.246978", "7.968872"),
    ("T = 64", "137,438,953,472", "8,589,934,592", "67,108,864", "8,657,043,456", "8.657043", "15.875969"),
    ("T = 128", "137,438,953,472", "4,294,967,296", "67,108,864", "4,362,076,160", "4.362076", "31.507692"),
]
SEED_TIME = [  # label, BW×I, R_roof, compute, memory, ideal, limit, t0/t
    ("재사용 없음", "0.249969", "0.249969", "6.871948", "549.822923", "549.822923", "HBM 대역폭", "1.00배"),
    ("T = 32", "7.968872", "7.968872", "6.871948", "17.246978", "17.246978", "HBM 대역폭", "31.88배"),
    ("T = 64", "15.875969", "15.875969", "6.871948", "8.657043", "8.657043", "HBM 대역폭", "63.51배"),
    ("T = 128", "31.507692", "20.000000", "6.871948", "4.362076", "6.871948", "연산 성능", "80.01배"),
]
SEED_SUMMARY = [  # label, I (3), ideal ms (3), limit
    ("재사용 없음", "0.250", "549.823", "HBM 대역폭"),
    ("T = 32", "7.969", "17.247", "HBM 대역폭"),
    ("T = 64", "15.876", "8.657", "HBM 대역폭"),
    ("T = 128", "31.508", "6.872", "연산 성능"),
]


def test_cost_table(SEED_CASES):
    got = [(ko.case(c), fmt.integer(c.cost.F), fmt.integer(c.cost.Q_read), fmt.integer(c.cost.Q_write),
            fmt.integer(c.cost.Q), fmt.giga(c.cost.Q), fmt.decimal(c.cost.I, 6)) for c in SEED_CASES]
    assert got == SEED_COST


def test_time_table(SEED_CASES):
    t0 = SEED_CASES[0].timing.t_ideal
    got = [(ko.case(c), fmt.tera(c.timing.memory_rate), fmt.tera(c.timing.R_roof), fmt.ms(c.timing.t_compute),
            fmt.ms(c.timing.t_memory), fmt.ms(c.timing.t_ideal), ko.bound(c.timing), fmt.ratio(t0 / c.timing.t_ideal))
           for c in SEED_CASES]
    assert got == SEED_TIME


def test_summary_table(SEED_CASES):
    got = [(ko.case(c), fmt.decimal(c.cost.I, 3), fmt.ms(c.timing.t_ideal, 3), ko.bound(c.timing)) for c in SEED_CASES]
    assert got == SEED_SUMMARY


def test_common_values_and_no_reuse(SEED_CASES):
    base = SEED_CASES[0]
    assert base.cost.F == 137_438_953_472 and base.cost.Q_write == 67_108_864   # 2N³, 4N²
    assert base.timing.t_compute == Fraction("0.0068719476736")                # F/P in s
    assert base.cost.I == Fraction(4096, 4 * 4096 + 2)                         # N/(4N+2)
    assert fmt.decimal(base.cost.I, 9) == "0.249969486"
    assert base.timing.t_memory * 1000 == Fraction("549.822922752")


def test_T64_walk_through(SEED_CASES):
    """(N/T)² = 4,096 output tiles, N/T = 64 K steps each, 8T² = 32,768 Byte per step, plus 4N² of C."""
    step = kernels.matmul_tiles(64, 64, 64, 64, 64, 64)
    assert step.Q_read == 32_768 and step.Q_write == 16_384
    T64 = SEED_CASES[2]
    assert T64.T == 64 and T64.cost.Q_read == 4096 * 64 * 32_768
    assert T64.cost.Q == 8_657_043_456


def test_64_to_128_improvement(SEED_CASES):
    prev, last = SEED_CASES[2].timing.t_ideal, SEED_CASES[3].timing.t_ideal
    assert (fmt.ms(prev, 3), fmt.ms(last, 3)) == ("8.657", "6.872")
    assert fmt.ms(prev - last, 3) == "1.785"
    assert fmt.percent((prev - last) / prev, 1) == "20.6%"


def test_threshold_and_storage(seed):
    w4 = seed.week4
    T_star = kernels.tile_threshold(w4.N, w4.hardware.ridge, w4.s, w4.s)
    assert [T for T in w4.tiles if T >= T_star] == [128]
    ideal = kernels.matmul_ideal(w4.N, w4.s, w4.s)
    assert ideal.Q == 201_326_592 and fmt.mib(ideal.Q) == "192 MiB"          # 12N²: A, B and C once
    assert ideal.I == Fraction(4096, 6)
    assert fmt.decimal(ideal.I, 3) == "682.667"


def test_precision_step_ratios_from_the_H100_preset(seed):
    """ERRATA: FP32 (CUDA cores) → TF32 (tensor cores) is ≈7.4×; between tensor-core formats ≈2×."""
    h100 = seed.preset("H100_SXM")
    assert fmt.ratio(h100.P("TF32") / h100.P("FP32"), 1) == "7.4배"
    assert h100.P("TF32") / h100.P("FP32") == Fraction("494.7") / Fraction("66.9")
    assert fmt.ratio(h100.P("FP16") / h100.P("TF32"), 1) == "2.0배"
    assert fmt.ratio(h100.P("FP8") / h100.P("FP16"), 1) == "2.0배"


# ---------------------------------------------------------------- invariants
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
@given(N=Ns, data=st.data(), s=sizes,
       P=st.fractions(min_value=1, max_value=10**15), BW=st.fractions(min_value=1, max_value=10**13))
def test_R_roof_times_t_ideal_is_F(N, data, s, P, BW):
    T = data.draw(st.sampled_from(tile_sweep.divisors(N)))
    t = rl.Timing(kernels.matmul_tiled(N, T, s, s), rl.Roofline(P, BW))
    assert t.R_roof * t.t_ideal == t.cost.F
    assert t.t_ideal == max(t.t_compute, t.t_memory)


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


def test_threshold_on_the_live_tiles_agrees_with_the_timing(course, CASES):
    w4 = course.week4
    T_star = kernels.tile_threshold(w4.N, w4.hardware.ridge, w4.s, w4.s)
    for case in CASES[1:]:
        assert (not case.timing.memory_bound) == (T_star is not None and case.T >= T_star)


# ---------------------------------------------------------------- bad input
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


# ---------------------------------------------------------------- the sweep figure
def test_divisors():
    assert tile_sweep.divisors(4096) == [2**k for k in range(13)]
    assert tile_sweep.divisors(12) == [1, 2, 3, 4, 6, 12]
    assert tile_sweep.divisors(1) == [1]


def test_sweep_data_for_the_seed(seed):
    by_T = {p.T: p for p in tile_sweep.sweep(seed.week4)}
    assert [fmt.decimal(by_T[T].I, 6) for T in seed.week4.tiles] == ["7.968872", "15.875969", "31.507692"]


def test_sweep_data(course):
    w4, hw = course.week4, course.week4.hardware
    points = tile_sweep.sweep(w4)
    assert [p.T for p in points] == tile_sweep.divisors(w4.N)
    assert points[-1].I == kernels.matmul_ideal(w4.N, w4.s, w4.s).I
    assert all(p.I == kernels.matmul_tiled(w4.N, p.T, w4.s, w4.s).I for p in points)
    T_star = kernels.tile_threshold(w4.N, hw.ridge, w4.s, w4.s)
    assert [p.T for p in points if p.I >= hw.ridge] == [p.T for p in points if T_star is not None and p.T >= T_star]


def crossing_lines(ax) -> list[float]:
    return [line.get_xdata()[0] for line in ax.get_lines()
            if len(line.get_xdata()) == 2 and line.get_xdata()[0] == line.get_xdata()[1]]


def test_sweep_figure_marks_the_seeds_crossing(seed, recwarn):
    fig = FIGURES["week4-tile-sweep"](seed.week4)
    left, right = fig.axes[:2]
    assert left.get_xscale() == right.get_xscale() == left.get_yscale() == "log"
    T_star = float(Fraction(80 * 4096, 4096 - 40))
    for ax in (left, right):
        assert crossing_lines(ax) == [T_star]
    labels = [t.get_text() for t in left.texts]
    assert any("80.789" in text for text in labels)
    fig.savefig(__import__("io").BytesIO(), format="png")
    assert not [w for w in recwarn if "Glyph" in str(w.message)]
    assert "4096×4096" in fig._suptitle.get_text()


def test_sweep_figure_marks_the_live_crossing(course):
    """The vertical line stands at T* = the library's threshold for the live N and machine, if a tile reaches it."""
    w4 = course.week4
    fig = FIGURES["week4-tile-sweep"](w4)
    T_star = kernels.tile_threshold(w4.N, w4.hardware.ridge, w4.s, w4.s)
    expected = [float(T_star)] if T_star is not None and T_star <= w4.N else []
    for ax in fig.axes[:2]:
        assert crossing_lines(ax) == expected
    assert f"{w4.N}×{w4.N}" in fig._suptitle.get_text()


# ---------------------------------------------------------------- the chapters
def seed_page(name: str) -> dict[str, str]:
    """What chapter `name` shows, run with the seed's parameters: table, equation or text (no-break spaces as spaces)."""
    return {key: next(bundle[m] for m in ("text/markdown", "text/latex", "text/plain") if m in bundle).replace("\u00a0", " ")
            for key, bundle in seed_glued(name).items()}


def test_tile_size_page_values():
    g = seed_page("w4_4_tile_size")
    for cell in ("4,096 B (4 KiB)", "16,384 B (16 KiB)", "65,536 B (64 KiB)", "| 12 KiB |", "| 48 KiB |", "| 192 KiB |"):
        assert cell in g["table-single"]
    assert "| 256 KiB |" in g["table-double"] and "| 320 KiB |" in g["table-double"]
    assert (g["outputs-small"], g["threads"], g["per-thread-small"], g["outputs-big"]) == ("1,024", "256", "4", "16,384")
    assert (g["scalar-in"], g["scalar-acc"], g["scalar-total"]) == ("8", "4", "12")
    assert "2{,}097{,}152" in g["cancel"] and g["table-tk"].count("8,589,934,592") == 6
    assert (g["t-compute"], g["t-memory"], g["I-big"], g["ridge"]) == ("6.872", "4.362", "31.508", "20")
    assert g["big-verdict"].startswith("I가 분기점을 넘었으므로 T = 128 타일은 연산 한계다")
    assert "compute-tiles" not in g          # the verdict says it once, not three times
    assert (g["q-two-full"], g["q-two-full-verdict"], g["q-acc"], g["q-smem"]) == ("256 KiB", "넘는다", "64 KiB", "228 KiB")
    assert g["q-fit"].startswith("들어가는 가장 큰 T_K는 64다. 그때 두 벌의 입력 버퍼는 128 KiB다.")
    assert g["storage-dtype"] == "FP32면"
    assert "| 6개, 75.0% | 레지스터 |" in g["table-resident"] and "올라가지 않음" in g["table-resident"]
    assert "| 1개, 12.5% | Shared Memory |" in g["table-resident"]
    assert g["occ-headline"].startswith("NVIDIA H100 SXM의 SM 하나에는 입력을 단일 버퍼로 둔 T = 128 타일의 블록이 1개")
    assert "min(8, 2, 1, 32) = 1" in g["occ-steps"] and g["occ-verdict"].startswith("가장 작은 한도는 Shared Memory다.")


def test_matmul_page_values():
    g = seed_page("w4_5_matmul")
    for row in SEED_COST:
        assert "| " + " | ".join(row) + " |" in g["table-cost"]
    for row in SEED_TIME:
        assert "| " + " | ".join(row) + " |" in g["table-time"]
    assert "196,608 (192 KiB)" in g["table-buffers"] and "| 재사용 없음 | 1원소 = 4 B | 1원소 = 4 B | 8 | 4 | 12 |" in g["table-buffers"]
    assert "137{,}438{,}953{,}472" in g["common"] and "0.0068719476736" in g["common"] and "6.8719476736" in g["common"]
    assert "549{,}822{,}922{,}752" in g["no-reuse"] and "0.249969486" in g["no-reuse"] and r"\frac{N}{4N+2}" in g["no-reuse"]
    assert "8{,}657{,}043{,}456" in g["mid-Q"] and (g["T-mid"], g["mid-tiles"], g["mid-per-step"]) == ("64", "4,096", "32,768")
    assert r"\frac{80N}{N - 40}" in g["threshold-math"] and "80.789" in g["threshold-math"]
    assert g["threshold-tiles"].endswith("128뿐이다.")
    assert g["gain-story"] == "T를 64에서 128로 키우면 이상적 시간은 8.657 ms에서 6.872 ms로 약 1.785 ms(20.6%) 줄어든다."
    assert (g["store-bytes"], g["store-mib"], g["I-ideal-formula"], g["I-ideal"]) == ("201,326,592", "192 MiB", "N/6", "682.667")
    assert (g["ridge-again"], g["T-mid-example"]) == ("20을", "T = 64면")
    assert (g["T-over-s-compared"], g["T-over-s-approx"], g["acc-dtype"]) == ("T/4와", "T/4는", "FP32로")
    assert (g["q-sq-shape"], g["q-rect-shape"], g["q-read-ratio"], g["q-rect-in"]) == ("64×64를", "128×32로", "1.25배", "40 KiB로")
    assert "약 137.439 GFLOPs" in g["headline"] and "약 549.823 GB에서 T = 128의 4.362 GB로" in g["headline"]


def test_summary_page_values():
    g = seed_page("w4_summary")
    for label, I, t, bound in SEED_SUMMARY:
        assert f"| {label} | {I} | {t} | {bound}" in g["table-summary"]
    assert "연산 성능 (I* = 20 초과)" in g["table-summary"]
    assert (g["p-tf32"], g["p-fp32"]) == ("494.7", "66.9") and g["tf32-step"].startswith("7.4배로 ")
    assert "7.4배" in g["table-remedies"]


def test_matmul_page_follows_the_live_parameters(course, CASES):
    """Run with the live parameters, ⑤'s cost table has the library's row for every live case."""
    g = {key: next(b[m] for m in ("text/markdown", "text/latex", "text/plain") if m in b).replace("\u00a0", " ")
         for key, b in live_glued("w4_5_matmul").items()}
    for c in CASES:
        row = (ko.case(c), fmt.integer(c.cost.F), fmt.integer(c.cost.Q_read), fmt.integer(c.cost.Q_write),
               fmt.integer(c.cost.Q), fmt.giga(c.cost.Q), fmt.decimal(c.cost.I, 6))
        assert "| " + " | ".join(row) + " |" in g["table-cost"], row
    assert g["shape"] == f"{course.week4.N}×{course.week4.N}"
    assert g["tile-list"] == "·".join(str(T) for T in course.week4.tiles)


@pytest.mark.parametrize("name", PAGES)
def test_one_parameter_cell(name):
    md = (CHAPTERS / f"{name}.md").read_text(encoding="utf-8")
    assert len(re.findall(r":tags: \[parameters, hide-input\]\n:params: week4\n(?::[^\n]*\n)*# ▶ 매개변수 셀:", md)) == 1
    assert md.count("**한 줄 답.**") >= 1
    title = md.split("\n# ", 1)[1].split("\n", 1)[0]
    assert not re.search(r"\d{3,}", title), title     # no problem size in the title: it changes with the parameters


# ---------------------------------------------------------------- ⑤ and the summary: terms and wording
@pytest.mark.parametrize("name", ["w4_5_matmul", "w4_summary"])
def test_canonical_terms_and_shapes(name):
    md = (CHAPTERS / f"{name}.md").read_text(encoding="utf-8")
    for wrong in ("Occupancy", "바운드", "연산 제한", "메모리 제한", "병목에서 연산 병목", "{glue:text}`N`×"):
        assert wrong not in md, wrong
    for term in ("산술 강도", "Roofline", "메모리 한계", "연산 한계", "점유율"):
        assert "{term}`" + term + "`" in md, term
    assert seed_page(name)["shape"] == "4096×4096"


def test_matmul_wording():
    md = (CHAPTERS / "w4_5_matmul.md").read_text(encoding="utf-8")
    g = seed_page("w4_5_matmul")
    assert "FLOPs 둘로" not in md and "{glue:text}`fma-flops` FLOPs로" in md and g["fma-flops"] == "2"
    assert "threshold-text" not in md and "≈ 80.789이다" not in g["threshold-tiles"]
    assert g["regimes"] == "메모리 한계인 경우는 재사용 없음·T = 32·T = 64이고, 연산 한계인 경우는 T = 128이다"
    assert r"\mathbb{R}^{4096 \times 4096}" in g["problem"]
    for key in ("common", "no-reuse", "mid-Q", "tiled-formula", "threshold-math"):   # broken over lines for phones
        assert r"\begin{aligned}" in g[key] and g[key].count(r"\\") >= 2, key


def test_summary_wording():
    md = (CHAPTERS / "w4_summary.md").read_text(encoding="utf-8")
    g = seed_page("w4_summary")
    assert "커널의 병목을 메모리에서 연산 쪽으로 옮긴다" in md
    for item in ("GQA/MQA", "speculative decoding", "prefill"):
        assert item in g["table-remedies"], item
    assert g["p-fp8"] == "1,979" and g["fp8-note"].startswith("FP8의 dense peak 1,979는 FP16의 2:4 희소 peak와 숫자만 같다.")
    assert "쓸 수 없다" not in g["fp8-note"]          # the FP8 dense peak is usable; only the coincidence is noted
    assert "1,979 TFLOPs/s로, 한 단계 내려갈 때마다 {glue:text}`tensor-steps` 늘어난다" in md.replace("{glue:text}`p-fp8`", "1,979")
    assert g["tensor-steps"] == "2.0배씩" and "FLOP/s" not in md.replace("FLOPs/s", "")
    assert g["summary-shift"] == "T = 128에서는 제한 자원이 이미 연산 성능으로 바뀌었다."


def test_matmul_times_figure(seed):
    fig = FIGURES["week4-matmul-times"](seed.week4)
    ax = fig.axes[0]
    assert ax.get_xscale() == "log"
    widths = [round(bar.get_width(), 6) for bar in ax.patches]
    assert widths == [549.822923, 17.246978, 8.657043, 4.362076]       # Q/BW in ms, one bar per case
    assert [t.get_text() for t in ax.get_yticklabels()] == ["재사용 없음", "T = 32", "T = 64", "T = 128"]
    texts = [t.get_text() for t in ax.texts]
    assert texts[:4] == ["549.823 ms", "17.247 ms", "8.657 ms", "6.872 ms"]  # t_ideal = max(F/P, Q/BW)
    assert any("6.872" in t and "F/P" in t for t in texts)
    colours = [bar.get_facecolor() for bar in ax.patches]
    from matplotlib.colors import to_rgba
    from roofline.show import style
    assert colours == [to_rgba(style.case_color(i)) for i in range(4)]


def test_sweep_figure_uses_the_case_colours(course):
    from matplotlib.colors import to_hex
    from roofline.show import style
    fig = FIGURES["week4-tile-sweep"](course.week4)
    top = fig.axes[0]
    marked = {int(line.get_xdata()[0]): to_hex(line.get_color()) for line in top.get_lines()
              if len(line.get_xdata()) == 1}
    assert marked == {T: style.case_color(k) for k, T in enumerate(course.week4.tiles, start=1)}


def test_matmul_times_figure_shows_the_live_cases(course, CASES):
    """One bar per live case, Q/BW long (ms), labelled with the case and with t_ideal at its end."""
    ax = FIGURES["week4-matmul-times"](course.week4).axes[0]
    assert [bar.get_width() for bar in ax.patches] == pytest.approx([float(c.timing.t_memory) * 1000 for c in CASES])
    assert [t.get_text() for t in ax.get_yticklabels()] == [ko.case(c) for c in CASES]
    assert [t.get_text() for t in ax.texts][:len(CASES)] == [f"{fmt.ms(c.timing.t_ideal, 3)} ms" for c in CASES]


# ---------------------------------------------------------------- no spoilers, the seed's caveats
@pytest.mark.parametrize("name", PAGES)
def test_discussion_answers_stay_in_the_fold(name):
    """Under a "토론" heading, a 한 줄 답 only inside the dropdown (the answer is folded until the reader opens it)."""
    md = (CHAPTERS / f"{name}.md").read_text(encoding="utf-8")
    for section in re.split(r"\n## ", md)[1:]:
        if not section.startswith("토론"):
            continue
        before_fold = section.split(":class: dropdown", 1)[0]
        assert "한 줄 답" not in before_fold, section[:40]
        assert "답 펼쳐 보기" in section


def test_matmul_headline_keeps_the_compute_limit():
    """Seed ⑤: "…6.872 ms로 줄지만, 128 타일에서는 연산 성능이 한계다" — the top answer says where time stops following Q."""
    g = seed_page("w4_5_matmul")
    md = (CHAPTERS / "w4_5_matmul.md").read_text(encoding="utf-8")
    assert md.split("\n```", 1)[0].rstrip().endswith("**한 줄 답.** {glue:text}`headline`")
    assert g["headline"].endswith("6.872 ms로 줄지만, T = 128에서는 연산 성능이 한계다.")
    assert "재사용 없음의 약 549.823 GB" in g["headline"]


def test_tile_size_box_and_explorer_agree():
    """The box above the explorer and the explorer speak of the same resident blocks (no 'real limits are lower')."""
    md = (CHAPTERS / "w4_4_tile_size.md").read_text(encoding="utf-8")
    assert "실제 한도는 이보다 낮을 수 있다" not in md and "Shared Memory로 본" not in md
    assert "`nvcc -Xptxas -v`" in md and "**가정**" in md
    g = seed_page("w4_4_tile_size")
    assert g["misfits"].endswith("블록이 하나도 올라가지 않는다.") and "버퍼링다" not in g["misfits"]
    prose = re.sub(r"```\{code-cell\}.*?\n```", "", md.split("\n---\n", 1)[1], flags=re.S)
    assert "kernels" not in prose and "matmul_tiles" not in prose
