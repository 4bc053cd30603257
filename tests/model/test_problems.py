"""roofline.problems: the week-4 cases (no reuse and each tile) with their costs and times, and the tile-size sweep
(`divisors`, `sweep`). Seed literals are checked for the frozen seed parameters (`seed`: tests/seed/course.toml), as the
seed documents round them; the cases' properties for the live and the next term (BOTH_TERMS).
"""
from __future__ import annotations

from fractions import Fraction

import roofline as rl
from conftest import SEED_COST, SEED_TABLE, SEED_TIME
from roofline import kernels
from roofline import problems as tile_sweep
from roofline.show import fmt, ko

BOTH_TERMS = True   # every test that takes `course` runs for the live and the next term (tests/conftest.py)


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


def test_live_cases_are_bound_where_their_intensity_says(course):
    """For the live parameters, whatever they are: a case is memory-bound exactly when I < I*, F is 2N³ for every
    case, and Q falls as the tile grows."""
    w4 = course.week4
    cases = rl.problems.week4_cases(w4)
    assert [ko.case(c) for c in cases] == ["재사용 없음"] + [f"T = {T}" for T in w4.tiles]
    assert {c.cost.F for c in cases} == {2 * w4.N**3}
    assert all(a.cost.Q > b.cost.Q for a, b in zip(cases, cases[1:]))
    for case in cases:
        assert case.timing.memory_bound == (case.cost.I < w4.roofline.ridge)
        assert case.timing.bound == (rl.MEMORY if case.timing.memory_bound else rl.COMPUTE)


def test_week4_cases_give_the_seeds_time_table(seed_cases):
    got = [(ko.case(c), fmt.tera(c.timing.R_roof, 6), fmt.ms(c.timing.t_ideal, 6)) for c in seed_cases]
    assert got == SEED_TABLE


def test_same_F_for_every_case(seed_cases):
    assert {c.cost.F for c in seed_cases} == {137_438_953_472}
    assert fmt.integer(seed_cases[0].cost.F) == "137,438,953,472"


def test_four_points_in_the_summary_digits(seed_cases):
    # "재사용 없음·32 타일·64 타일은 각각 약 0.250·7.969·15.876 TFLOPs/s … 128 타일의 I는 약 31.508 … 20 TFLOPs/s"
    assert [fmt.tera(c.timing.R_roof, 3) for c in seed_cases] == ["0.250", "7.969", "15.876", "20.000"]
    assert fmt.decimal(seed_cases[-1].cost.I, 3) == "31.508"


def test_only_the_128_tile_reaches_the_ceiling(seed_cases):
    # guide caption: "교점은 20 FLOPs/Byte이고 128 타일만 연산 상한에 도달한다"
    assert [c.timing.memory_bound for c in seed_cases] == [True, True, True, False]
    assert [c.T for c in seed_cases if not c.timing.memory_bound] == [128]
    assert seed_cases[-1].timing.R_roof == seed_cases[-1].timing.hw.P


def test_a_case_reaches_the_ceiling_exactly_when_its_I_reaches_the_ridge(cases):
    for c in cases:
        hw = c.timing.hw
        assert (c.timing.R_roof == hw.P) == (c.cost.I >= hw.ridge) == (not c.timing.memory_bound), ko.case(c)


def test_128_tile_times(seed_cases):
    # ⑤/guide: "최소 F/P ≈ 6.872 ms … 메모리 이동 시간은 Q/BW ≈ 4.362 ms"
    t = seed_cases[-1].timing
    assert (fmt.ms(t.t_compute, 3), fmt.ms(t.t_memory, 3)) == ("6.872", "4.362")


def test_T128_is_compute_bound_by_the_numbers(seed_cases):
    t = seed_cases[-1].timing
    assert (fmt.ms(t.t_compute, 3), fmt.ms(t.t_memory, 3), fmt.decimal(t.cost.I, 3)) == ("6.872", "4.362", "31.508")
    assert t.t_compute > t.t_memory and ko.bound(t) == "연산 성능"


SEED_SUMMARY = [  # label, I (3), ideal ms (3), limit
    ("재사용 없음", "0.250", "549.823", "HBM 대역폭"),
    ("T = 32", "7.969", "17.247", "HBM 대역폭"),
    ("T = 64", "15.876", "8.657", "HBM 대역폭"),
    ("T = 128", "31.508", "6.872", "연산 성능"),
]


def test_cost_table(seed_cases):
    got = [(ko.case(c), fmt.integer(c.cost.F), fmt.integer(c.cost.Q_read), fmt.integer(c.cost.Q_write),
            fmt.integer(c.cost.Q), fmt.giga(c.cost.Q), fmt.decimal(c.cost.I, 6)) for c in seed_cases]
    assert got == SEED_COST


def test_time_table(seed_cases):
    t0 = seed_cases[0].timing.t_ideal
    got = [(ko.case(c), fmt.tera(c.timing.memory_rate), fmt.tera(c.timing.R_roof), fmt.ms(c.timing.t_compute),
            fmt.ms(c.timing.t_memory), fmt.ms(c.timing.t_ideal), ko.bound(c.timing), fmt.ratio(t0 / c.timing.t_ideal))
           for c in seed_cases]
    assert got == SEED_TIME


def test_summary_table(seed_cases):
    got = [(ko.case(c), fmt.decimal(c.cost.I, 3), fmt.ms(c.timing.t_ideal, 3), ko.bound(c.timing)) for c in seed_cases]
    assert got == SEED_SUMMARY


def test_common_values_and_no_reuse(seed_cases):
    base = seed_cases[0]
    assert base.cost.F == 137_438_953_472 and base.cost.Q_write == 67_108_864   # 2N³, 4N²
    assert base.timing.t_compute == Fraction("0.0068719476736")                # F/P in s
    assert base.cost.I == Fraction(4096, 4 * 4096 + 2)                         # N/(4N+2)
    assert fmt.decimal(base.cost.I, 9) == "0.249969486"
    assert base.timing.t_memory * 1000 == Fraction("549.822922752")


def test_T64_walk_through(seed_cases):
    """(N/T)² = 4,096 output tiles, N/T = 64 K steps each, 8T² = 32,768 Byte per step, plus 4N² of C."""
    step = kernels.matmul_tiles(64, 64, 64, 64, 64, 64)
    assert step.Q_read == 32_768 and step.Q_write == 16_384
    T64 = seed_cases[2]
    assert T64.T == 64 and T64.cost.Q_read == 4096 * 64 * 32_768
    assert T64.cost.Q == 8_657_043_456


def test_64_to_128_improvement(seed_cases):
    prev, last = seed_cases[2].timing.t_ideal, seed_cases[3].timing.t_ideal
    assert (fmt.ms(prev, 3), fmt.ms(last, 3)) == ("8.657", "6.872")
    assert fmt.ms(prev - last, 3) == "1.785"
    assert fmt.percent((prev - last) / prev, 1) == "20.6%"


def test_divisors():
    assert tile_sweep.divisors(4096) == [2**k for k in range(13)]
    assert tile_sweep.divisors(12) == [1, 2, 3, 4, 6, 12]
    assert tile_sweep.divisors(1) == [1]


def test_sweep_data_for_the_seed(seed):
    by_T = {p.T: p for p in tile_sweep.sweep(seed.week4)}
    assert [fmt.decimal(by_T[T].I, 6) for T in seed.week4.tiles] == ["7.968872", "15.875969", "31.507692"]


def test_sweep_data(course):
    w4, hw = course.week4, course.week4.roofline
    points = tile_sweep.sweep(w4)
    assert [p.T for p in points] == tile_sweep.divisors(w4.N)
    assert points[-1].I == kernels.matmul_ideal(w4.N, w4.s, w4.s).I
    assert all(p.I == kernels.matmul_tiled(w4.N, p.T, w4.s, w4.s).I for p in points)
    T_star = kernels.tile_threshold(w4.N, hw.ridge, w4.s, w4.s)
    assert [p.T for p in points if p.I >= hw.ridge] == [p.T for p in points if T_star is not None and p.T >= T_star]
