"""④ tile size, ⑤ matmul, summary: every value of the seed's tables (as the seed rounds them),
the model's invariants, bad input, the sweep figure's data, and the three chapters' glued values and prose."""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import roofline as rl
from roofline import buffers, fmt, kernels, problems
from roofline.figures import FIGURES, tile_sweep

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = ROOT / "chapters"
MINE = ["w4_4_tile_size", "w4_5_matmul", "w4_summary"]

COURSE = rl.load()
W4 = COURSE.week4
HW = W4.hardware
CASES = problems.week4_cases(W4)


# ---------------------------------------------------------------- the seed's parameters
def test_parameters_are_the_seeds():
    assert (W4.N, W4.tiles, W4.s, W4.dtype) == (4096, (32, 64, 128), 4, "FP32")
    assert (HW.P, HW.BW, HW.ridge) == (20 * 10**12, 10**12, 20)


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


def test_no_reuse_minimal_unit():
    assert (2 * 4, 4, 3 * 4) == (8, 4, 12)   # A·B scalars 8 B, acc 4 B, 12 B: the seed's row


def test_residency_on_real_presets():
    """Illustration beyond the hypothetical hardware: ⌊smem_per_SM / inputs⌋, single and double buffering."""
    h100, t4 = COURSE.preset("H100_SXM"), COURSE.preset("T4")
    assert (h100.smem_per_SM, t4.smem_per_SM) == (228 * 1024, 64 * 1024)
    got = {
        (gpu.key, T, c): buffers.resident_blocks(gpu.smem_per_SM, buffers.tile_buffers(T, T, T, 4, 4, c).inputs)
        for gpu in (h100, t4) for T in (32, 64, 128) for c in (1, 2)
    }
    assert got == {
        ("H100_SXM", 32, 1): 28, ("H100_SXM", 32, 2): 14, ("H100_SXM", 64, 1): 7, ("H100_SXM", 64, 2): 3,
        ("H100_SXM", 128, 1): 1, ("H100_SXM", 128, 2): 0,
        ("T4", 32, 1): 8, ("T4", 32, 2): 4, ("T4", 64, 1): 2, ("T4", 64, 2): 1, ("T4", 128, 1): 0, ("T4", 128, 2): 0,
    }


def test_outputs_are_not_threads():
    assert 32 * 32 == 1024 and Fraction(1024, 256) == 4
    assert fmt.integer(128 * 128) == "16,384"


def test_K_width_cancels():
    """(K/T_K) · s(T_M T_K + T_K T_N) = s K (T_M + T_N): the same HBM bytes for every T_K."""
    per_tile = 4 * 4096 * (64 + 64)
    assert per_tile == 2_097_152
    reads = {kernels.matmul_tiles(4096, 4096, 4096, 64, 64, T_K).Q_read for T_K in (8, 16, 32, 64, 128, 256)}
    assert reads == {(4096 // 64) ** 2 * per_tile} == {8_589_934_592}


def test_T_K_smaller_shrinks_inputs_not_acc():
    full, half = buffers.tile_buffers(64, 64, 64), buffers.tile_buffers(64, 64, 32)
    assert (fmt.kib(full.inputs), fmt.kib(half.inputs)) == ("32 KiB", "16 KiB")
    assert half.acc == full.acc == 16384


def test_T128_is_compute_bound_by_the_numbers():
    t = CASES[-1].timing
    assert (fmt.ms(t.t_compute, 3), fmt.ms(t.t_memory, 3), fmt.decimal(t.cost.I, 3)) == ("6.872", "4.362", "31.508")
    assert t.t_compute > t.t_memory and t.bound == "연산 성능"


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


def test_cost_table():
    got = [(c.label, fmt.integer(c.cost.F), fmt.integer(c.cost.Q_read), fmt.integer(c.cost.Q_write),
            fmt.integer(c.cost.Q), fmt.giga(c.cost.Q), fmt.decimal(c.cost.I, 6)) for c in CASES]
    assert got == SEED_COST


def test_time_table():
    t0 = CASES[0].timing.t_ideal
    got = [(c.label, fmt.tera(c.timing.memory_rate), fmt.tera(c.timing.R_roof), fmt.ms(c.timing.t_compute),
            fmt.ms(c.timing.t_memory), fmt.ms(c.timing.t_ideal), c.timing.bound, fmt.ratio(t0 / c.timing.t_ideal))
           for c in CASES]
    assert got == SEED_TIME


def test_summary_table():
    got = [(c.label, fmt.decimal(c.cost.I, 3), fmt.ms(c.timing.t_ideal, 3), c.timing.bound) for c in CASES]
    assert got == SEED_SUMMARY


def test_common_values_and_no_reuse():
    F = 2 * 4096**3
    assert F == 137_438_953_472 and 4 * 4096**2 == 67_108_864
    assert Fraction(F, 20 * 10**12) == Fraction("0.0068719476736")
    base = CASES[0]
    assert base.cost.I == Fraction(4096, 4 * 4096 + 2)                     # N/(4N+2)
    assert fmt.decimal(base.cost.I, 9) == "0.249969486"
    assert base.timing.t_memory * 1000 == Fraction("549.822922752")


def test_T64_walk_through():
    assert (4096 // 64) ** 2 == 4096 and 4096 // 64 == 64 and 8 * 64 * 64 == 32_768
    assert 4096 * 64 * 32_768 + 67_108_864 == 8_657_043_456 == CASES[2].cost.Q


def test_64_to_128_improvement():
    prev, last = CASES[2].timing.t_ideal, CASES[3].timing.t_ideal
    assert (fmt.ms(prev, 3), fmt.ms(last, 3)) == ("8.657", "6.872")
    assert fmt.ms(prev - last, 3) == "1.785"
    assert fmt.percent((prev - last) / prev, 1) == "20.6 %"


def test_threshold_and_storage():
    T_star = kernels.tile_threshold(4096, 20)
    assert T_star == Fraction(80 * 4096, 4096 - 40)                        # 80N/(N−40)
    assert fmt.decimal(T_star, 3) == "80.789"
    assert [T for T in (32, 64, 128) if T >= T_star] == [128]
    assert 12 * 4096**2 == 201_326_592 and fmt.mib(201_326_592) == "192 MiB"
    assert kernels.matmul_ideal(4096).I == Fraction(4096, 6)
    assert fmt.decimal(Fraction(4096, 6), 3) == "682.667"


def test_precision_step_ratios_from_the_H100_preset():
    """ERRATA: FP32 (CUDA cores) → TF32 (tensor cores) is ≈7.4×; between tensor-core formats ≈2×."""
    h100 = COURSE.preset("H100_SXM")
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


def test_threshold_on_the_seed_tiles_agrees_with_the_timing():
    T_star = kernels.tile_threshold(W4.N, HW.ridge, W4.s, W4.s)
    for case in CASES[1:]:
        assert (not case.timing.memory_bound) == (case.T >= T_star)


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("call, words", [
    (lambda: buffers.tile_buffers(0, 32, 32), "T_M"),
    (lambda: buffers.tile_buffers(32, 32, 32, copies=0), "copies"),
    (lambda: buffers.tile_buffers(32, 32, 32.5), "T_K"),
    (lambda: buffers.resident_blocks(65536, 0), "per_block"),
    (lambda: kernels.matmul_tiles(4096, 4096, 4096, 64, 64, 48), "T_K"),
    (lambda: kernels.matmul_tiled(4096, 100), "multiple"),
    (lambda: kernels.matmul_tiled(4096, -32), r"\bT(_M)?\b.*positive"),
    (lambda: kernels.tile_threshold(0, 20), "N"),
    (lambda: tile_sweep.divisors(0), "N"),
    (lambda: tile_sweep.divisors(True), "N"),
    (lambda: rl.Roofline(-1, 10**12), "P"),
    (lambda: COURSE.preset("H300"), "known presets"),
    (lambda: COURSE.preset("TPU_v5e").P("FP32"), "FP32"),
])
def test_bad_input_is_a_clear_error(call, words):
    with pytest.raises(ValueError, match=words):
        call()


def test_threshold_none_when_no_tile_can_reach():
    assert kernels.tile_threshold(8, 10**6) is None


# ---------------------------------------------------------------- the sweep figure
def test_divisors():
    assert tile_sweep.divisors(4096) == [2**k for k in range(13)]
    assert tile_sweep.divisors(12) == [1, 2, 3, 4, 6, 12]
    assert tile_sweep.divisors(1) == [1]


def test_sweep_data():
    points = tile_sweep.sweep(W4)
    assert [p.T for p in points] == tile_sweep.divisors(W4.N)
    assert points[-1].I == Fraction(W4.N, 6)
    by_T = {p.T: p for p in points}
    assert [fmt.decimal(by_T[T].I, 6) for T in W4.tiles] == ["7.968872", "15.875969", "31.507692"]
    T_star = kernels.tile_threshold(W4.N, HW.ridge)
    assert [p.T for p in points if p.I >= HW.ridge] == [p.T for p in points if p.T >= T_star]


def test_sweep_figure_marks_the_crossing(recwarn):
    fig = FIGURES["week4-tile-sweep"](COURSE)
    left, right = fig.axes[:2]
    assert left.get_xscale() == right.get_xscale() == left.get_yscale() == "log"
    T_star = float(kernels.tile_threshold(W4.N, HW.ridge))
    for ax in (left, right):
        assert any(list(line.get_xdata()) == [T_star, T_star] for line in ax.get_lines())
    labels = [t.get_text() for t in left.texts]
    assert any("80.789" in text for text in labels)
    fig.savefig(__import__("io").BytesIO(), format="png")
    assert not [w for w in recwarn if "Glyph" in str(w.message)]
    assert "4096" in fig._suptitle.get_text()


# ---------------------------------------------------------------- the chapters
def unquote(text: str) -> str:
    """A text record as meant: a quoted Python string literal is unquoted, anything else is as is."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        import ast

        try:
            value = ast.literal_eval(text)
        except (SyntaxError, ValueError):
            return text
        return value if isinstance(value, str) else text
    return text


def records(name: str) -> dict[str, str]:
    nb = json.loads((CHAPTERS / f"{name}.ipynb").read_text(encoding="utf-8"))
    found = {}
    for cell in nb["cells"]:
        for output in cell.get("outputs", []):
            key = output.get("metadata", {}).get("scrapbook", {}).get("name")
            if key:
                data = output["data"]
                found[key] = (data.get("application/papermill.record/text/markdown",
                                      data.get("application/papermill.record/text/latex",
                                               unquote(data.get("application/papermill.record/text/plain", ""))))).replace("\u00a0", " ")
            assert output.get("name") != "stderr", f"{name}: stderr output {output.get('text')!r}"
    return found


def test_tile_size_page_values():
    g = records("w4_4_tile_size")
    for cell in ("4,096 B (4 KiB)", "16,384 B (16 KiB)", "65,536 B (64 KiB)", "| 12 KiB |", "| 48 KiB |", "| 192 KiB |"):
        assert cell in g["table-single"]
    assert "| 256 KiB |" in g["table-double"] and "| 320 KiB |" in g["table-double"]
    assert (g["outputs-small"], g["threads"], g["per-thread-small"], g["outputs-big"]) == ("1,024", "256", "4", "16,384")
    assert "2{,}097{,}152" in g["cancel"] and g["table-tk"].count("8,589,934,592") == 6
    assert (g["t-compute"], g["t-memory"], g["I-big"], g["ridge"]) == ("6.872", "4.362", "31.508", "20")
    assert g["big-verdict"].startswith("I가 분기점을 넘었으므로 T = 128 타일은 연산 한계다")
    assert "compute-tiles" not in g          # the review: said three times; the verdict says it once
    assert (g["q-in-full"], g["q-in-half"], g["q-acc"]) == ("32 KiB", "16 KiB", "16 KiB")
    assert "| 28 |" in g["table-resident"] and "0 (안 들어감)" in g["table-resident"]


def test_matmul_page_values():
    g = records("w4_5_matmul")
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
    assert (g["gain-ms"], g["gain-pct"], g["prev-t"], g["t-last"]) == ("1.785", "20.6 %", "8.657", "6.872")
    assert "8.657 ms" in g["gain-story"] and "1.785 ms(20.6 %)" in g["gain-story"]
    assert (g["store-bytes"], g["store-mib"], g["I-ideal-formula"], g["I-ideal"]) == ("201,326,592", "192 MiB", "N/6", "682.667")
    assert (g["F-giga"], g["Q-first-gb"], g["Q-last-gb"]) == ("137.439", "549.823", "4.362")


def test_summary_page_values():
    g = records("w4_summary")
    for label, I, t, bound in SEED_SUMMARY:
        assert f"| {label} | {I} | {t} | {bound}" in g["table-summary"]
    assert "연산 성능 (I* = 20 초과)" in g["table-summary"]
    assert (g["r-tf32-fp32"], g["p-tf32"], g["p-fp32"]) == ("7.4배", "494.7", "66.9")
    assert "7.4배" in g["table-remedies"]


@pytest.mark.parametrize("name", MINE)
def test_glued_text_shows_as_glued(name):
    """myst-nb passes a glued text/plain through ast.literal_eval before showing it: "16,384" would
    appear as "(16, 384)" unless the record is a quoted string literal (lib/roofline/glue.py)."""
    from myst_nb.core.variables import format_plain_text

    nb = json.loads((CHAPTERS / f"{name}.ipynb").read_text(encoding="utf-8"))
    wrong = {}
    for cell in nb["cells"]:
        for output in cell.get("outputs", []):
            key = output.get("metadata", {}).get("scrapbook", {}).get("name")
            data = output.get("data", {})
            mime = "application/papermill.record/text/plain"
            if key and mime in data and len(data) == 1:
                raw = data[mime]
                meant = unquote(raw)
                if format_plain_text(raw, "") != meant:
                    wrong[key] = (meant, format_plain_text(raw, ""))
    assert wrong == {}


@pytest.mark.parametrize("name", MINE)
def test_one_parameter_cell(name):
    md = (CHAPTERS / f"{name}.md").read_text(encoding="utf-8")
    assert md.count(":tags: [parameters, hide-input]\n# ▶ 매개변수 셀:") == 1
    assert md.count("**한 줄 답.**") >= 1
    assert "4096" not in md.split("\n# ", 1)[1].split("\n", 1)[0]


# ---------------------------------------------------------------- fix pass: ⑤ and the summary
@pytest.mark.parametrize("name", ["w4_5_matmul", "w4_summary"])
def test_canonical_terms_and_shapes(name):
    md = (CHAPTERS / f"{name}.md").read_text(encoding="utf-8")
    for wrong in ("Occupancy", "바운드", "연산 제한", "메모리 제한", "병목에서 연산 병목", "{glue:text}`N`×"):
        assert wrong not in md, wrong
    for term in ("산술 강도", "Roofline", "메모리 한계", "연산 한계", "점유율"):
        assert "{term}`" + term + "`" in md, term
    assert records(name)["shape"] == "4096×4096"


def test_matmul_fix_pass_wording():
    md = (CHAPTERS / "w4_5_matmul.md").read_text(encoding="utf-8")
    g = records("w4_5_matmul")
    assert "FLOPs 둘로" not in md and "{glue:text}`fma-flops` FLOPs로" in md and g["fma-flops"] == "2"
    assert "threshold-text" not in md and "≈ 80.789이다" not in g["threshold-tiles"]
    assert g["regimes"] == "메모리 한계인 경우는 재사용 없음·T = 32·T = 64이고, 연산 한계인 경우는 T = 128이다"
    assert r"\mathbb{R}^{4096 \times 4096}" in g["problem"]
    for key in ("common", "no-reuse", "mid-Q", "tiled-formula", "threshold-math"):   # broken over lines for phones
        assert r"\begin{aligned}" in g[key] and g[key].count(r"\\") >= 2, key


def test_summary_fix_pass_wording():
    md = (CHAPTERS / "w4_summary.md").read_text(encoding="utf-8")
    g = records("w4_summary")
    assert "커널의 병목을 메모리에서 연산 쪽으로 옮긴다" in md
    for item in ("GQA/MQA", "speculative decoding", "prefill"):
        assert item in g["table-remedies"], item
    assert g["p-fp8"] == "1,979" and "FP16 2:4 희소 peak와 같은 숫자" in g["fp8-note"]
    assert "dense GEMM은 그 희소 처리량을 쓸 수 없다" in g["fp8-note"]
    assert g["summary-shift"] == "T = 128에서는 제한 자원이 이미 연산 성능으로 바뀌었다."


def test_matmul_times_figure():
    fig = FIGURES["week4-matmul-times"](COURSE)
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
    from roofline import style
    assert colours == [to_rgba(style.case_color(i)) for i in range(4)]


def test_sweep_figure_uses_the_case_colours():
    from matplotlib.colors import to_hex
    from roofline import style
    fig = FIGURES["week4-tile-sweep"](COURSE)
    top = fig.axes[0]
    marked = {int(line.get_xdata()[0]): to_hex(line.get_color()) for line in top.get_lines()
              if len(line.get_xdata()) == 1}
    assert marked == {32: style.case_color(1), 64: style.case_color(2), 128: style.case_color(3)}
