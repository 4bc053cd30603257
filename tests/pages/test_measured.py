"""모델과 실측 (chapters/measured.md, roofline.show.pages.measured): every measured value is a citation with a locator,
every kernel is under its binding bound or the page says the model's reason, the ladder's rank correlation, the
explorer's predict part, the exercise; for the live term and the next (BOTH_TERMS)."""
from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

from conftest import CHAPTERS, seed_page
from roofline import hierarchy, published
from roofline.show.pages import measured as page

BOTH_TERMS = True
ROOT = Path(__file__).resolve().parents[2]
BIB = (ROOT / "references.bib").read_text(encoding="utf-8")


def records_of(value) -> list[dict]:
    return list(value.why["records"].values())


def test_every_measured_value_on_the_page_cites_its_source_with_a_locator(course):
    note = course.note
    rows = page.ladder_rows(note)
    assert len(rows) == len(published.sgemm_ladder())
    for row, kernel in zip(rows, published.sgemm_ladder()):
        cell = row[5]
        meas = [r for r in records_of(cell) if r["symbol"] == "R_meas"]
        assert meas and meas[0]["origin"] == f"cite:{kernel.bibkey}, {kernel.locator}", kernel.key
        assert re.search(rf"^@\w+\{{{kernel.bibkey},", BIB, re.M)
        assert f"[{kernel.bibkey}]" in cell


def test_the_page_places_at_least_ten_published_kernels():
    g = seed_page("measured")
    shown = g["table-ladder"].count("\n| ") + g["table-attention"].count("\n| ")
    assert shown - 4 >= 10   # each table's header and rule rows start with "| " too


def test_every_point_above_its_bound_is_explained_on_the_page(course):
    """For every kernel: its measured rate at or under the binding bound, or the page's sentence that names it and
    says the model's reason (the caches' reuse with the bound of the cached block tile, or the clock)."""
    note = course.note
    text = str(page.above_sentences(note))
    for p in published.placements(note.catalog):
        if p.R_meas.value <= p.R_bound.value:
            assert p.kernel.name + "의" not in text
            continue
        assert p.kernel.name + "의 측정값" in text, p.kernel.key
        assert ("캐시" in text) if p.above == "DRAM" else ("클럭" in text)


def test_bounds_in_the_table_are_the_independent_formulas(course):
    note = course.note
    a6000 = note.catalog.presets["RTX_A6000"]
    P, BW = Fraction(a6000.P("FP32")), Fraction(a6000.BW)
    f = P / (a6000.SMs * a6000.fp32_per_clock)
    bw_smem = a6000.smem_per_clock * f * a6000.SMs
    for p in published.placements(note.catalog):
        k = p.kernel
        if k.family != "sgemm" or k.tiling is None:
            continue
        M, N, K = k.size
        t = k.tiling
        loads = M * K * -(-N // t.BN) + K * N * -(-M // t.BM)
        F = 2 * M * N * K
        assert p.R_DRAM.value == min(P, BW * F / (4 * (loads + M * N)))
        if t.TM:
            Qs = Fraction(4 * M * N * K * (t.TM + t.TN), t.TM * t.TN) + 4 * loads
            assert p.R_smem.value == min(P, bw_smem * F / Qs)


def test_rank_correlation_is_reported_and_high(course):
    rho, n = page.rank_correlation(course.note)
    assert n == sum(1 for k in published.sgemm_ladder() if k.tiling)
    assert rho > Fraction(9, 10)
    g = seed_page("measured")
    assert g["rho"] == "0.93" and g["rho-n"] == "8"


def test_explorer_asks_the_binding_level_before_showing_it(course):
    note = course.note
    for k in published.sgemm_ladder():
        if k.tiling is None:
            continue
        state = page.kernel_state(note, k.key)
        q = state["predict"]["questions"][0]
        p = published.place(k, note.catalog)
        assert q["answer"] == p.level
        assert {"k-level", "k-dram", "k-smem", "k-share"} <= set(state["predict"]["hide"]["fields"])


def test_exercise_is_a_thread_tiles_reads(course):
    note = course.note
    sheet = page.exercises(note)
    q = sheet.questions[0]
    s = q.params["s"]   # the note's dtype, or FP32 on the A6000 when the note's GPU has no shared-memory clock keys
    TM, TN = q.params["TM"], q.params["TN"]
    assert q.value == s * (TM + TN) == hierarchy.thread_smem_per_k(s, TM, TN).value
    published_tiles = {(k.tiling.TM, k.tiling.TN) for k in published.KERNELS if k.tiling}
    assert (TM, TN) not in published_tiles   # a thread tile the page does not compute
    assert f"{q.value} Byte" not in (CHAPTERS / "measured.md").read_text(encoding="utf-8")


def test_seed_values_and_wording():
    g = seed_page("measured")
    assert (g["a6000-smem-bw"], g["a6000-clock"], g["a6000-per-clock"]) == ("19.35", "1,799.7", "128")
    assert "| 단순 구현 | Shared Memory 없음 | 0.19 | – | GDDR6 (넘음) | 0.31 [boehm2022sgemm] |" in g["table-ladder"]
    assert "1D 블록 타일의 측정값은 Shared Memory 상한의 101.3%다" in g["above"]
    md = (CHAPTERS / "measured.md").read_text(encoding="utf-8")
    assert "{cite:p}`boehm2022sgemm`" in md and "{cite:p}`dao2022flashattention`" in md
    for number in ("309", "1986", "21779", "40.3", "41.7", "7.3"):   # measured values are glued, never typed
        assert number not in re.sub(r"```\{code-cell\}.*?```", "", md, flags=re.S), number


def test_the_figure_draws_every_tiled_kernel(course):
    fig = page.ladder_figure(course.note)
    ax = fig.axes[0]
    tiled = sum(1 for k in published.sgemm_ladder() if k.tiling)
    bounds = [published.place(k, course.note.catalog).bound for k in published.sgemm_ladder() if k.tiling]
    xs = {b.F.value / b.Q_DRAM.value for b in bounds}
    assert len(ax.texts) == len(xs) and tiled > len(xs)   # kernels at one DRAM intensity share a label
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
