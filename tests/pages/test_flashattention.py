"""The matmul / FlashAttention note (chapters/flashattention.md, roofline.show.pages.flashattention): its figures,
diagrams, shown code, quoted tables, discussions and one-line answers.
"""
from __future__ import annotations

import io
import warnings
from fractions import Fraction

import pytest

from conftest import CHAPTERS, ISSUE_36, RANDOM, term_path
from roofline import attention, gemm
from roofline.show import fmt
from roofline.show.figures import FIGURES


def test_figures_draw_without_warnings(course):
    for name in ("flash-hbm-traffic", "gemm-batch-roofline"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            FIGURES[name](course.note).savefig(io.BytesIO(), format="png")


def test_live_traffic_curves_use_the_live_preset(course):
    """Whatever the live note's GPU and dtype: M is its shared memory per SM in elements, B_c is FA1's block for
    that M, and both curves are the traffic model's counts in Byte. (Whether FlashAttention moves less depends on
    M > 3d², so it is not asserted here; the seed's H100 case is checked above.)"""
    from roofline.show.pages.flashattention import traffic_curves

    note = course.note
    d = note.attention.d_head
    N_values = [note.seq, 2 * note.seq, 4 * note.seq]
    standard, flash, M, B_c = traffic_curves(note, N_values)
    assert M == note.preset.smem_per_SM // note.s
    assert attention.flash_blocks(M, d)[1] == B_c
    assert standard == [attention.standard_traffic(N, d) * note.s for N in N_values]
    assert flash == [attention.flash_traffic(N, d, B_c) * note.s for N in N_values]
    ax = FIGURES["flash-hbm-traffic"](note).axes[0]
    marked = [t.get_text() for t in ax.texts if t.get_text().startswith(f"N = {fmt.integer(note.seq)}: ")]
    assert len(marked) == 2                                   # the live sequence length, on both curves
    assert f"M = {fmt.integer(M)} 원소, B_c = {B_c}" in ax.get_title() and note.dtype in ax.get_title()


def test_shown_code_fits_80_columns():
    import inspect
    for function in (gemm.naive_matmul, gemm.tiled_matmul, attention.flash_forward):
        lines = inspect.getsource(function).splitlines()
        assert max(len(line) for line in lines) <= 76, function.__name__


def test_tile_diagram_is_seed_003s_block_picture():
    from roofline.show.pages import flashattention as flash_note
    src = {"K": "toml:note.cache.K", "T": "toml:note.cache.tile"}
    text = flash_note.tile_diagram(8, 4, src)
    for line in ("C00 = A00·B00 + A01·B10", "C01 = A00·B01 + A01·B11", "C10 = A10·B00 + A11·B10",
                 "C11 = A10·B01 + A11·B11"):
        assert line in text
    assert "C02" not in text and "C21 = A20·B01 + A21·B11 + A22·B21" in flash_note.tile_diagram(12, 4, src)


def test_memory_box_and_flash_diagram_follow_the_note(note):
    from roofline.show.pages import flashattention as flash_note
    box = flash_note.hierarchy_diagram(note)
    assert "228 KiB" in box and "256 KiB" in box and "33–41 (Shared 29)" in box and "479" in box and "3.35 TB/s" in box
    M = note.preset.smem_per_SM // note.s
    B_r, B_c = flash_note.fitting_blocks(M, 128, note.tensor_core.align)
    flash = flash_note.flash_diagram(note)
    assert f"{B_r}×{B_c}" in flash and f"M = {fmt.integer(M)}" in flash
    a100 = flash_note.flash_diagram(note.with_(hardware="A100_SXM"))
    assert "164 KiB" in a100 and a100 != flash                             # a typed parameter reaches the picture


def test_quoted_batch_table_is_about_200_times_below_the_bound(seed):
    from roofline.show.pages import flashattention as flash_note
    values = flash_note.gemm_roofline(seed.note)
    assert values["gap-small"] == "약 201–213배" and values["gap-big"] == "b = 1,024에서는 약 70배"


def test_no_helper_is_defined_in_a_hidden_cell():
    import re

    from coursebook import editions
    nb = editions.read_source(CHAPTERS / "flashattention.md")
    for cell in nb.cells:
        tags = set(cell.metadata.get("tags", []))
        if cell.cell_type == "code" and tags & {"remove-cell", "remove-input", "hide-input"}:
            assert not re.search(r"^\s*(def |class |\w+ = lambda)", cell.source, re.M), cell.source


def test_the_sram_diagram_s_blocks_fit_the_sram_it_names(course, seed):
    """FA1's B_c = ⌈M/(4d)⌉ only bounds SRAM by O(M): at the seed's H100 FP16 its blocks take 120,576 elements >
    M = 116,736. The diagram keeps B_r and takes the largest aligned B_c whose blocks fit; the sum it prints is the
    blocks', on every GPU of the term in force (whatever its presets are called)."""
    from roofline.show.pages import flashattention as flash_note
    for key in sorted(k for k, p in course.presets.items() if p.smem_per_SM):
        note = course.note.with_(hardware=key)
        d, M = note.attention.d_head, note.preset.smem_per_SM // note.s
        B_r, B_c = flash_note.fitting_blocks(M, d, note.tensor_core.align)
        total = B_r * d * 2 + 2 * B_c * d + B_r * B_c + 2 * B_r             # Q_i, O_i, K_j, V_j, S_ij, m_i, ℓ_i
        assert total <= M and B_c % note.tensor_core.align == 0
        rule_r, rule_c = attention.flash_blocks(M, d)
        assert B_r == rule_r and B_c <= rule_c
        assert f"{fmt.integer(total * note.s)} Byte ≤ {fmt.integer(note.preset.smem_per_SM)} Byte" in flash_note.flash_diagram(note)
    h100 = seed.note.with_(hardware="H100_SXM", dtype="FP16")             # a seed literal: the frozen seed file
    said = flash_note.flash_blocks_text(h100)
    assert said["sram-rule-elems"] == "120,576" and said["sram-rule-bytes"] == "241,152" and said["sram-rule-verdict"] == "넘는다"


def test_the_one_line_answer_says_all_heads_make_one_gib():
    source = (CHAPTERS / "flashattention.md").read_text(encoding="utf-8")
    line = next(l for l in source.splitlines() if l.startswith("**한 줄 답.** 표준 어텐션은"))
    assert "헤드 {glue:text}`heads`개의 점수 행렬을 합치면 {glue:text}`score-all`" in line
    assert "점수 행렬 하나가" not in line
    assert "이다이다" not in source and "{glue:text}`q-b-bound`이다" not in source


@pytest.mark.parametrize("term", ["live", "next_term", RANDOM, ISSUE_36])
def test_the_discussions_of_the_note_ask_what_the_body_does_not_compute(term):
    """For this term, the next, a random one and issue 36's: the discussions' numbers are the traffic model's for
    the note's GPU (FA1's blocks at d and 2d, standard attention beside them) and the GEMM's times in FP32 and TF32,
    whatever the GPU: no preset's name, ratio between presets or peaks, or size is assumed."""
    import roofline as rl
    from roofline.show.pages import flashattention as flash_note

    note = rl.load(term_path(term)).note
    N, d, M = note.seq, note.attention.d_head, note.preset.smem_per_SM // note.s
    B_c, B_c2 = -(-M // (4 * d)), -(-M // (8 * d))          # FA1: B_c = ⌈M/(4d)⌉, at d and at 2d

    def flash(d, B_c):                                        # 3Nd + 2N + ⌈N/B_c⌉·(3Nd + 4N) elements
        return 3 * N * d + 2 * N + -(-N // B_c) * (3 * N * d + 4 * N)

    said = flash_note.head_dim_discussion(note, attention.flash_blocks(M, d)[1])
    assert said["q-2d"].startswith(fmt.integer(2 * d)) and said["q-Bc"] == fmt.integer(B_c)
    assert said["q-Bc2"].startswith(fmt.integer(B_c2))
    assert said["q-flash-d-ratio"] == fmt.ratio(Fraction(flash(2 * d, B_c2), flash(d, B_c)), 2)
    assert said["q-std-d-ratio"] == fmt.ratio(Fraction(8 * N * d + 4 * N * N, 4 * N * d + 4 * N * N), 2)
    tf = flash_note.tf32_discussion(note, 256)
    fp32, tf32 = note.preset.roofline("FP32"), note.preset.roofline("TF32")
    cost = gemm.gemm(256, note.gemm.N, note.gemm.K, 4)
    gain = rl.Timing(cost, fp32).t_ideal / rl.Timing(cost, tf32).t_ideal
    # max(F/P, Q/BW) with the same F, Q and BW: the gain lies between 1 and the ratio of the two peaks
    peaks = tf32.P / fp32.P
    assert tf["q-tf-gain"] == fmt.ratio(gain, 1) and min(1, peaks) <= gain <= max(1, peaks)


def _timings(note, blas_tiled: float, blas_big: float):
    """The timing table's runs (matmul_timing.implementations' plan) with chosen times: BLAS at tiled_N taking
    `blas_tiled` s (the tiled kernel there takes 1 ms), BLAS at blas_N `blas_big` s."""
    from roofline.matmul_timing import Run

    m = note.measure
    return [Run("naive", m.naive_N, 0.3, 1, 1e-13), Run("tiled", m.naive_N, 4e-5, 3, 1e-14),
            Run("blas", m.naive_N, 1e-5, 3, None), Run("tiled", m.tiled_N, 1e-3, 3, 1e-13),
            Run("blas", m.tiled_N, blas_tiled, 3, None), Run("blas", m.blas_N, blas_big, 3, None)]


def test_the_timing_table_is_read_in_the_direction_it_was_measured(seed):
    """content-5 #29: what the note says of BLAS follows the measurement. BLAS slower than the tiled kernel at the
    same N, or slower per multiply-add at the large N, is said, with both times from the table, and why (a small
    product in one thread, a large one in several, on the machine's few shared cores); a measurement in the usual
    direction says only that a call's fixed cost makes the small N slower per multiply-add."""
    from coursebook.derivations import uncovered
    from roofline.machine import Machine
    from roofline.show.pages import flashattention as page

    note = seed.note
    m, box = note.measure, Machine(cpu="CPU", cores=2, blas="openblas", numpy="2")
    usual = page.measured(_timings(note, 2e-4, 1e-5 * (m.blas_N / m.naive_N) ** 3 / 4), note, box)["blas-reading"]
    assert "스레드" not in usual and "한 번 부르는 비용" in usual
    slow = page.measured(_timings(note, 15.725e-3, 1e-5 * (m.blas_N / m.naive_N) ** 3 / 4), note, box)["blas-reading"]
    assert f"N = {fmt.integer(m.tiled_N)}에서는 BLAS(15.725 ms)가 타일 구현(1.000 ms)보다 느렸다" in slow
    assert "여러 스레드" in slow and "논리 코어 2개" in slow
    late = page.measured(_timings(note, 2e-4, 1e-5 * (m.blas_N / m.naive_N) ** 3 * 4), note, box)["blas-reading"]
    assert "오히려 오래 걸렸다" in late and "여러 스레드" in late
    for said in (usual, slow, late):
        assert uncovered(str(said), said.why, ()) == []     # every number is the table's, with its record


def test_the_check_tables_counted_traffic_is_the_models_count_not_a_measurement():
    """"센 이동" is what attention.flash_forward counts: the same on every computer, so its origin is the model's
    simulation (with its inputs), never "이 기계에서 잰 값" (a fresh read of the panels, issue 54)."""
    from roofline.show.pages import flashattention as page

    table = page.check_table([(100, 32, 64, 1e-17, 15_400)], 16)["check-table"]
    origins = {r["origin"] for cell in table.why_cells for r in cell["records"].values() if r["symbol"] == "센 이동"}
    assert origins and all(o.startswith("simulated:") and "(N = 100, B_r = 32, B_c = 64)" in o for o in origins), origins
