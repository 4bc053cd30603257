"""The presentation helpers of ④ tile size, ⑤ the worked matmul and 정리 (roofline.show.pages.w4_4_tile_size, .w4_5_matmul,
.w4_summary), and ⑤'s plain-Python hand calculation against the values the page glues.

Seed literals use the frozen seed (`seed`); the other checks hold for any machine and problem."""
from __future__ import annotations

import contextlib
import io
import re
from fractions import Fraction
from pathlib import Path

import pytest

import roofline as rl
from roofline import buffers, kernels, problems
from roofline import occupancy
from roofline.show import fmt, ko
from roofline.show.pages import w4_4_tile_size as tile_size, w4_5_matmul as matmul, w4_summary as summary

from conftest import live_glued, seed_glued

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = ROOT / "chapters"


@pytest.fixture(scope="module")
def seed_cases(seed):
    return problems.week4_cases(seed.week4)


def text(bundle: dict) -> str:
    return next(bundle[m] for m in ("text/markdown", "text/latex", "text/plain") if m in bundle).replace("\u00a0", " ")


# ---------------------------------------------------------------- ⑤ sentences
def test_headline_keeps_the_compute_caveat(seed_cases):
    """The seed's one-line answer ends "…6.872 ms로 줄지만, 128 타일에서는 연산 성능이 한계다"."""
    assert matmul.headline(seed_cases) == (
        "계산량은 어느 방식이나 약 137.439 GFLOPs로 같다. HBM 이동량은 재사용 없음의 약 549.823 GB에서 T = 128의 "
        "4.362 GB로 줄고, 이상적 시간도 549.823 ms에서 6.872 ms로 줄지만, T = 128에서는 연산 성능이 한계다.")


def test_headline_follows_the_machine(seed):
    w4 = seed.week4
    fast = problems.week4_cases(w4, rl.Roofline(10**18, 10**12))        # ridge 10⁶: every case on the slope
    assert matmul.headline(fast).endswith("줄며, 비교한 경우는 모두 아직 HBM 대역폭이 한계다.")
    slow = problems.week4_cases(w4, rl.Roofline(10**12, 10**12))        # ridge 1: every tile on the roof
    assert matmul.headline(slow).endswith("줄지만, T = 32·T = 64·T = 128에서는 연산 성능이 한계다.")
    assert matmul.regimes(slow) == "메모리 한계인 경우는 재사용 없음이고, 연산 한계인 경우는 T = 32·T = 64·T = 128이다"
    assert matmul.regimes(fast) == "메모리 한계인 경우는 재사용 없음·T = 32·T = 64·T = 128이다"


def test_regimes_on_the_live_problem(course):
    cases = problems.week4_cases(course.week4)
    words = matmul.regimes(cases)
    for c in cases:
        group = "연산 한계인 경우는" if c.timing.t_compute >= c.timing.t_memory else "메모리 한계인 경우는"
        assert ko.case(c) in words.split(group, 1)[1].split("이고,")[0], (c, words)


def test_gain_story(seed, seed_cases):
    assert matmul.gain_story(seed_cases[2], seed_cases[3]) == (
        "T를 64에서 128로 키우면 이상적 시간은 8.657 ms에서 6.872 ms로 약 1.785 ms(20.6%) 줄어든다.")
    slow = problems.week4_cases(seed.week4, rl.Roofline(10**12, 10**12))
    assert matmul.gain_story(slow[2], slow[3]) == (
        "T = 64와 T = 128의 이상적 시간은 137.439 ms로 같다. 두 경우 모두 이미 연산 한계이기 때문이다.")
    assert slow[2].timing.t_ideal == slow[3].timing.t_ideal == Fraction(2 * 4096**3, 10**12)


def test_last_story_and_verdicts(seed, seed_cases):
    assert matmul.last_story(seed_cases[-1]).startswith("T = 128에서 메모리는 약 4.362 ms 안에")
    assert matmul.no_reuse_verdict(seed_cases[0].timing).endswith("이 경우는 메모리 한계다")
    fast = problems.week4_cases(seed.week4, rl.Roofline(10**18, 10**12))
    assert matmul.last_story(fast[-1]).startswith("T = 128에서도 메모리 시간 약 4.362 ms가")
    slow = problems.week4_cases(seed.week4, rl.Roofline(10**9, 10**12))   # ridge 1/1000: even no reuse on the roof
    assert matmul.no_reuse_verdict(slow[0].timing).endswith("이 경우는 연산 한계다")


def test_bw_check_and_about_ms():
    assert matmul.bw_check(rl.Roofline(20 * 10**12, 10**12)).startswith("BW = 1 TB/s이므로 Q를 GB로 적은 숫자가 곧")
    assert matmul.bw_check(rl.Roofline(20 * 10**12, 2 * 10**12)) == (
        "BW = 2 TB/s이므로 메모리 시간(ms)은 Q(GB)를 2로 나눈 값이다.")
    assert matmul.about_ms(Fraction("0.549822922752")) == "549.822922752"
    assert matmul.about_ms(Fraction(1, 3)) == "약 333.333333"


def test_threshold(seed):
    math, words = matmul.threshold(seed.week4)
    assert r"\frac{80N}{N - 40}" in math.data and "80.789" in math.data
    assert words == "비교한 타일 32, 64, 128 가운데 이를 넘는 것은 128뿐이다."


def test_threshold_when_no_tile_reaches(seed):
    """2N ≤ s·I*: the denominator is not positive, no tile reaches the ridge."""
    w4 = seed.week4.with_(N=8, tiles=[2, 4], hardware="H100_SXM")
    ridge = w4.hardware.ridge
    assert kernels.tile_threshold(8, ridge, 4, 4) is None        # H100's FP32 ridge ≈ 20 > 2·8/4
    _, words = matmul.threshold(w4)
    assert words.startswith("분모가 0 이하이므로 어떤 T도") and words.endswith("비교한 타일은 모두 메모리 한계다.")


def test_tables_and_equations(seed, seed_cases):
    w4 = seed.week4
    assert "| 크기 | M = N = K = 4,096," in matmul.assumptions(w4).data
    assert "20 × 10¹² FLOPs/s" in matmul.assumptions(w4).data
    assert "| T = 64 | 137,438,953,472 | 8,589,934,592 | 67,108,864 | 8,657,043,456 | 8.657043 | 15.875969 |" in \
        matmul.cost_table(seed_cases).data.replace("\u00a0", " ")
    assert "| T = 128 | 31.507692 | 20.000000 | 6.871948 | 4.362076 | 6.871948 | 연산 성능 | 80.01배 |" in \
        matmul.time_table(seed_cases).data.replace("\u00a0", " ")
    assert matmul.tile_walk(4096, 64, 4) == (4096, 64, 32_768)
    tiles_, steps, per_step = matmul.tile_walk(4096, 64, 4)
    assert tiles_ * steps * per_step + 4 * 4096**2 == kernels.matmul_tiled(4096, 64).Q
    assert "8{,}657{,}043{,}456" in matmul.tile_walk_math(4096, 64, 4).data
    assert r"\frac{NT}{4N+2T}" in matmul.tiled_formula(4).data
    assert r"\frac{N}{4N+2}" in matmul.no_reuse(w4, seed_cases[0]).data
    assert "0.0068719476736" in matmul.common(w4, seed_cases[0]).data
    buf = matmul.buffer_table(4, seed_cases).data.replace("\u00a0", " ")
    assert "| 재사용 없음 | 1원소 = 4 B | 1원소 = 4 B | 8 | 4 | 12 |" in buf and "196,608 (192 KiB)" in buf


# ---------------------------------------------------------------- ④
def test_occupancy_tables_and_sentences(seed):
    """④'s occupancy words from roofline.occupancy: the box's table and sentence, the worked example, the limits."""
    w4 = seed.week4
    gpus = [w4.catalog.preset(k) for k in ("H100_SXM", "T4")]
    cases = {(g.key, T, c): occupancy.tile_case(g, T, 4, c, 256, 32) for g in gpus for T in (32, 64, 128) for c in (1, 2)}
    assert tile_size.occupancy_misfits(gpus, cases) == (
        "NVIDIA H100 SXM에서 T = 128을 이중 버퍼링하면, 그리고 NVIDIA T4에서 T = 128이면 단일 버퍼든 이중 버퍼링이든 "
        "블록이 하나도 올라가지 않는다.")
    small = {k: v for k, v in cases.items() if k[1] == 32}
    assert tile_size.occupancy_misfits(gpus, small) == "이 표의 경우는 모두 SM 하나에 블록이 하나 이상 올라간다."
    table = tile_size.gpus_table(gpus, cases).data.replace("\u00a0", " ")
    assert "| NVIDIA T4 | T = 32 | 4개, 100.0% | 워프 수 | 4개, 100.0% | 워프 수·Shared Memory |" in table
    assert "| NVIDIA H100 SXM | T = 128 | 1개, 12.5% | Shared Memory | 올라가지 않음 | — |" in table
    assert "(Colab" not in table
    h100 = gpus[0]
    own = [occupancy.tile_case(h100, T, 4, c, 256, 32) for T in (32, 64, 128) for c in (1, 2)]
    worked = tile_size.worked_case(own)
    assert (worked.T, worked.copies) == (128, 1)
    steps = tile_size.worked_steps(h100, worked).data
    for part in ("⌈128² × 4 Byte ÷ (4 Byte × 256)⌉ = 64개 + 여유분 32개 = 96개", "⌊64 ÷ 8⌋ = 8",
                 "⌈96 × 32 ÷ 256⌉ × 256 = 3,072개", "⌊20 ÷ 8⌋ = 2", "⌈(131,072 + 예약 1,024) ÷ 128⌉ × 128 = 132,096 Byte",
                 "⌊233,472 ÷ 132,096⌋ = 1", "min(8, 2, 1, 32) = 1", "8 ÷ 64 = 12.5%"):
        assert part in steps, part
    assert tile_size.worked_verdict(h100, worked).startswith("가장 작은 한도는 Shared Memory다.")
    assert tile_size.occupancy_headline(h100, worked).startswith(
        "NVIDIA H100 SXM의 SM 하나에는 입력을 단일 버퍼로 둔 T = 128 타일의 블록이 1개 상주하고, 점유율은 12.5%다.")
    words = tile_size.occupancy_words(own[-1], h100)
    assert words["blocks"] == "—" and words["verdict"].startswith("블록당 Shared Memory 256 KiB가 블록 하나의 최대 227 KiB를 넘어")
    over = occupancy.tile_case(h100, 256, 4, 1, 64, 32)
    assert over.over == "smem"
    over = occupancy.tile_case(h100, 128, 4, 1, 64, 32)     # 256 partial sums per thread
    assert over.over == "registers" and "한도 255개를 넘는다" in tile_size.occupancy_words(over, h100)["verdict"]
    limits = tile_size.sm_table(h100).data
    assert "| 블록 하나의 최대 Shared Memory (opt-in) | 227 KiB |" in limits and "| SM당 최대 상주 블록 | 32 |" in limits


def test_k_widths():
    assert tile_size.k_widths(4096, 64) == [8, 16, 32, 64, 128, 256]
    assert tile_size.k_widths(96, 12) == [3, 6, 12, 24, 48]
    assert tile_size.k_widths(64, 64) == [8, 16, 32, 64]


def test_k_width_table_reads_the_same_for_every_width():
    N, T, s = 4096, 64, 4
    by = {T_K: kernels.matmul_tiles(N, N, N, T, T, T_K, s, s) for T_K in tile_size.k_widths(N, T)}
    table = tile_size.k_width_table(N, T, s, by).data
    assert table.count("| 8,589,934,592 |") == 6 and table.count("| 2,097,152 |") == 6
    assert "| T_K = 8 | 512 | 4,096 | 2,097,152 | 8,589,934,592 | 4 KiB | 16 KiB |" in table.replace("\u00a0", " ")
    assert r"2{,}097{,}152" in tile_size.cancel_math(N, T, s).data


def test_per_thread_and_verdict(seed_cases):
    assert tile_size.per_thread(1024, 256) == "4" and tile_size.per_thread(16384, 256) == "64"
    assert tile_size.per_thread(1000, 256) == "3.91"
    assert tile_size.big_verdict(seed_cases[-1].timing, 128).startswith("I가 분기점을 넘었으므로 T = 128 타일은 연산 한계다.")
    assert tile_size.big_verdict(seed_cases[-2].timing, 64).startswith("I가 아직 분기점에 못 미치므로 T = 64 타일도 메모리 한계다.")


def test_storage_and_buffer_tables():
    assert "| A 입력 조각 | T_M×T_K | 4·T_M·T_K Byte |" in tile_size.storage_table(4, "FP32").data
    single = {T: buffers.tile_buffers(T, T, T, 4, 4) for T in (32, 128)}
    double = {T: buffers.tile_buffers(T, T, T, 4, 4, 2) for T in (32, 128)}
    assert "| T = 128 | 65,536 B (64 KiB) | 65,536 B (64 KiB) | 128 KiB | 64 KiB | 192 KiB |" in \
        tile_size.buffer_table(single).data.replace("\u00a0", " ")
    assert "| T = 128 | 128 KiB | 256 KiB | 64 KiB | 192 KiB | 320 KiB |" in \
        tile_size.double_table(single, double).data.replace("\u00a0", " ")


# ---------------------------------------------------------------- 정리
def test_precision_steps_on_the_H100(seed):
    got = summary.precision_steps(seed.preset("H100_SXM"))
    assert (got["p-fp32"], got["p-tf32"], got["p-fp16"], got["p-fp8"]) == ("66.9", "494.7", "989.4", "1,979")
    assert got["tensor-steps"] == "2.0배씩"
    assert got["tf32-step"] == "7.4배로 연산 유닛 자체가 바뀌는 만큼 두 배를 훌쩍 넘는다"
    # ERRATA: 1,979 is both the FP8 dense peak and the FP16 2:4-sparse peak; the note must not call the dense peak unusable
    assert got["fp8-note"].startswith("FP8의 dense peak 1,979는 FP16의 2:4 희소 peak와 숫자만 같다.")
    assert "dense GEMM이 FP8로 닿을 수 있는 상한" in got["fp8-note"] and "쓸 수 없다" not in got["fp8-note"]


def test_precision_step_words():
    assert summary._step([2, 2]) == "2.0배씩" and summary._step([2, Fraction(21, 10)]) == "각각 2.0배, 2.1배"
    assert [summary._beyond(r) for r in (Fraction(74, 10), Fraction(25, 10), 2, Fraction(3, 2))] == [
        "두 배를 훌쩍 넘는다", "두 배를 넘는다", "두 배다", "두 배에 못 미친다"]


def test_summary_limit_and_shift(seed, seed_cases):
    assert summary.limit_cell(seed_cases[-1], 20) == "연산 성능 (I* = 20 초과)"
    assert summary.limit_cell(seed_cases[0], 20) == "HBM 대역폭"
    assert summary.shift(seed_cases) == "T = 128에서는 제한 자원이 이미 연산 성능으로 바뀌었다."
    fast = problems.week4_cases(seed.week4, rl.Roofline(10**18, 10**12))
    assert summary.shift(fast).startswith("비교한 경우는 모두 아직 메모리 한계")
    assert "제한적으로 쓴다" in summary.remedies_table(seed.preset("H100_SXM")).data


# ---------------------------------------------------------------- ⑤'s hand calculation
def hand_cell() -> str:
    """The visible plain-Python cell of ⑤ (no tags) that recounts the tables."""
    md = (CHAPTERS / "w4_5_matmul.md").read_text(encoding="utf-8")
    cells = re.findall(r"```\{code-cell\} ipython3\n(.*?)```", md, re.S)
    hand = [c for c in cells if c.startswith("# 손계산")]
    assert len(hand) == 1, "⑤ has one visible hand-calculation cell"
    return hand[0]


def run_hand_cell(w4) -> dict[int, tuple[str, str, str, str]]:
    """T → (Q_T, I_T, ideal ms, limit) as the cell prints them, run on the parameter cell's names."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(hand_cell(), {"N": w4.N, "s": w4.s, "hw": w4.hardware, "tiles": list(w4.tiles)})
    rows = {}
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 * (1 + len(w4.tiles)), lines
    for first, second in zip(lines[::2], lines[1::2]):
        m = re.fullmatch(r"T = (\d+): Q_T = ([\d,]+) Byte, I_T = ([\d.]+) FLOPs/Byte", first)
        n = re.fullmatch(r" +이상적 시간 = ([\d.]+) ms \((메모리 한계|연산 한계)\)", second)
        assert m and n, (first, second)
        rows[int(m[1])] = (m[2], m[3], n[1], n[2])
    return rows


def test_hand_cell_is_plain_visible_python():
    src = hand_cell()
    assert "import" not in src and "roofline" not in src and "glue" not in src
    for name in ("F = 2 * N**3", "Q_T =", "I_T = F / Q_T", "max(F / P, Q_T / BW)"):
        assert name in src, name
    for start in ("P =", "BW =", "F =", "for T", "    Q_T =", "    I_T =", "    t ="):    # each with a Korean comment
        line = next(line for line in src.splitlines() if line.startswith(start))
        assert re.search(r"#.*[가-힣]", line), line


@pytest.mark.parametrize("glued, w4", [(seed_glued, "seed"), (live_glued, "course")])
def test_hand_cell_agrees_with_the_glued_tables(glued, w4, request):
    w4 = request.getfixturevalue(w4).week4
    g = {k: text(b) for k, b in glued("w4_5_matmul").items()}
    rows = run_hand_cell(w4)
    assert sorted(rows) == [1, *sorted(w4.tiles)]
    cost = {line.split(" | ")[0].lstrip("| "): line.strip("| ").split(" | ") for line in g["table-cost"].splitlines()[2:]}
    time = {line.split(" | ")[0].lstrip("| "): line.strip("| ").split(" | ") for line in g["table-time"].splitlines()[2:]}
    for T, (Q, I, t, limit) in rows.items():
        label = "재사용 없음" if T == 1 else f"T = {T}"
        assert (Q, I) == (cost[label][4], cost[label][6]), label       # 총 Q (Byte), I
        assert t == time[label][5], label                              # 이상적 시간 (ms)
        assert limit == ("메모리 한계" if time[label][6] == "HBM 대역폭" else "연산 한계"), label
