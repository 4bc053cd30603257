"""roofline.cost: Cost and Timing, the Roofline time of a kernel (t_compute, t_memory, t_ideal, R_roof, the bound).
Seed literals are checked for the frozen seed parameters (`seed`: tests/seed/course.toml);
the identities (R_roof·t_ideal = F, min/max duality) for any machine and for the live and next term (BOTH_TERMS).
"""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import roofline as rl
from roofline import kernels
from roofline import problems as tile_sweep
from roofline.hardware import Roofline
from roofline.show import fmt, ko

BOTH_TERMS = True   # every test that takes `course` runs for the live and the next term (tests/conftest.py)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10**15), st.integers(1, 10**15), st.integers(1, 10**6), st.integers(1, 10**6))
def test_R_roof_times_t_ideal_is_F(F, Q, P_tera, BW_giga):
    hw = Roofline(P_tera * 10**12, BW_giga * 10**9)
    t = rl.Timing(rl.Cost(F, Q, 0), hw)
    assert t.R_roof * t.t_ideal == F
    assert t.t_ideal == max(t.t_compute, t.t_memory)
    assert (t.bound == rl.MEMORY) == (t.cost.I < hw.ridge)


def test_min_max_duality(cases):
    # R_roof = F / max(F/P, Q/BW) = min(P, BW × I), exactly
    for c in cases:
        t, hw = c.timing, c.timing.hw
        assert t.t_ideal == max(c.cost.F / hw.P, c.cost.Q / hw.BW)
        assert t.R_roof == c.cost.F / t.t_ideal == min(hw.P, hw.BW * c.cost.I)


Ns = st.sampled_from([64, 96, 128, 256, 360, 1000, 1024, 4096, 6144])
sizes = st.sampled_from([1, 2, 4])


@settings(max_examples=60, deadline=None)
@given(N=Ns, data=st.data(), s=sizes,
       P=st.fractions(min_value=1, max_value=10**15), BW=st.fractions(min_value=1, max_value=10**13))
def test_R_roof_times_t_ideal_is_F_for_every_tile(N, data, s, P, BW):
    T = data.draw(st.sampled_from(tile_sweep.divisors(N)))
    t = rl.Timing(kernels.matmul_tiled(N, T, s, s), rl.Roofline(P, BW))
    assert t.R_roof * t.t_ideal == t.cost.F
    assert t.t_ideal == max(t.t_compute, t.t_memory)


MS = Fraction(1, 1000)


@pytest.fixture()
def vadd(seed):
    w3 = seed.week3
    return kernels.vector_add(w3.L, w3.s)


def test_times_of_vector_add(vadd, seed):
    t = rl.Timing(vadd, seed.week3.roofline)
    assert t.t_compute == Fraction(5, 10**6) == Fraction("0.005") * MS
    assert t.t_memory == Fraction("1.2") * MS
    assert t.t_ideal == Fraction("1.2") * MS
    assert t.t_memory / t.t_compute == 240
    assert t.memory_bound and ko.bound(t) == "HBM 대역폭"
    assert vadd.Q_read / seed.week3.roofline.BW == Fraction("0.8") * MS   # forgetting the write
    assert fmt.number(t.t_compute / MS) == "0.005" and fmt.number(t.t_memory / MS) == "1.2"


@pytest.mark.parametrize(
    "change, t_compute_ms, t_memory_ms, t_ideal_ms, speedup",
    [
        ("기준", "0.005", "1.2", "1.2", 1),
        ("P ×2", "0.0025", "1.2", "1.2", 1),
        ("BW ×2", "0.005", "0.6", "0.6", 2),
        ("용량 ×2", "0.005", "1.2", "1.2", 1),   # the model has no capacity: nothing changes
    ],
)
def test_double_one_resource(vadd, seed, change, t_compute_ms, t_memory_ms, t_ideal_ms, speedup):
    hw = seed.week3.roofline
    machine = {"기준": hw, "P ×2": hw.with_(P=2 * hw.P), "BW ×2": hw.with_(BW=2 * hw.BW), "용량 ×2": hw}[change]
    base, t = rl.Timing(vadd, hw), rl.Timing(vadd, machine)
    assert t.t_compute == Fraction(t_compute_ms) * MS
    assert t.t_memory == Fraction(t_memory_ms) * MS
    assert t.t_ideal == Fraction(t_ideal_ms) * MS
    assert base.t_ideal / t.t_ideal == speedup


def test_bf16_vector_add_on_the_course_hardware(seed):
    t = rl.Timing(kernels.vector_add(seed.week3.L, seed.bytes_per("BF16")), seed.week3.roofline)
    assert t.cost.Q == 600_000_000 and t.t_memory == Fraction("0.6") * MS and t.memory_bound


def test_live_vector_add_is_memory_bound_and_only_BW_speeds_it_up(course):
    """For any live machine whose ridge exceeds 1/(3s): doubling P leaves the time, doubling BW halves it."""
    w3 = course.week3
    hw, add = w3.roofline, kernels.vector_add(w3.L, w3.s)
    assert add.I == Fraction(1, 3 * w3.s) and (add.F, add.Q) == (w3.L, 3 * w3.s * w3.L)
    base = rl.Timing(add, hw)
    assert base.memory_bound == (add.I < hw.ridge)
    if base.memory_bound:
        assert rl.Timing(add, hw.with_(P=2 * hw.P)).t_ideal == base.t_ideal
        assert rl.Timing(add, hw.with_(BW=2 * hw.BW)).t_ideal == base.t_ideal / 2
