"""The week-3 note (chapters/week3_vector_add.md): the seed's numbers (seed 004), the BF16 costs,
the live measurement, and the split between model values (checked by nbval) and measured ones.

Expected values are the ones printed in seed 004 ("108" there is 10⁸, see ERRATA), not outputs of the code.
"""
from __future__ import annotations

import ast
import re
from fractions import Fraction
from pathlib import Path

import nbformat
import pytest

import roofline as rl
from roofline import fmt, kernels, measure

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = ROOT / "chapters" / "week3_vector_add.md"
EDITION = CHAPTER.with_suffix(".ipynb")
MS = Fraction(1, 1000)


@pytest.fixture()
def vadd(course):
    w3 = course.week3
    return kernels.vector_add(w3.L, w3.s)


def test_the_seeds_problem(course):
    w3 = course.week3
    assert (w3.L, w3.dtype, w3.s) == (100_000_000, "FP32", 4)
    assert w3.capacity == 16_000_000_000                 # "용량이 16 GB라면 세 벡터를 담을 수 있다"
    assert 3 * w3.s * w3.L <= w3.capacity < 3 * w3.s * w3.L * 14
    assert (w3.hardware.P, w3.hardware.BW) == (20 * 10**12, 10**12)


def test_amounts_of_vector_add(vadd, course):
    s, L = course.week3.s, course.week3.L
    assert s * L == 400_000_000                     # A read: 400 MB (and B read, C written)
    assert vadd.Q_read == 800_000_000               # inputs: 800 MB
    assert vadd.Q_write == 400_000_000              # C: 400 MB
    assert vadd.Q == 1_200_000_000                  # Q: 1.2 GB
    assert vadd.F == 100_000_000                    # F: 10⁸ FLOPs
    assert 3 * s * L == vadd.Q                      # footprint of A, B, C equals Q here (each moved once)


def test_times_of_vector_add(vadd, course):
    t = rl.Timing(vadd, course.week3.hardware)
    assert t.t_compute == Fraction(5, 10**6) == Fraction("0.005") * MS
    assert t.t_memory == Fraction("1.2") * MS
    assert t.t_ideal == Fraction("1.2") * MS
    assert t.t_memory / t.t_compute == 240
    assert t.memory_bound and t.bound == "HBM 대역폭"
    assert vadd.Q_read / course.week3.hardware.BW == Fraction("0.8") * MS   # forgetting the write
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
def test_double_one_resource(vadd, course, change, t_compute_ms, t_memory_ms, t_ideal_ms, speedup):
    hw = course.week3.hardware
    machine = {"기준": hw, "P ×2": hw.with_(P=2 * hw.P), "BW ×2": hw.with_(BW=2 * hw.BW), "용량 ×2": hw}[change]
    base, t = rl.Timing(vadd, hw), rl.Timing(vadd, machine)
    assert t.t_compute == Fraction(t_compute_ms) * MS
    assert t.t_memory == Fraction(t_memory_ms) * MS
    assert t.t_ideal == Fraction(t_ideal_ms) * MS
    assert base.t_ideal / t.t_ideal == speedup


def test_per_element_costs_fp32_and_bf16(course):
    fp32 = kernels.vector_add(1, course.bytes_per("FP32"))
    bf16 = kernels.vector_add(1, course.bytes_per("BF16"))
    assert (fp32.Q_read, fp32.F, fp32.Q_write, fp32.Q) == (8, 1, 4, 12)     # 4+4, 1 FLOP, 4, 12 bytes
    assert (bf16.Q_read, bf16.F, bf16.Q_write, bf16.Q) == (4, 1, 2, 6)      # 2+2, 1 FLOP, 2, 6 bytes
    assert (fp32.I, bf16.I) == (Fraction(1, 12), Fraction(1, 6))


def test_bf16_vector_add_on_the_course_hardware(course):
    t = rl.Timing(kernels.vector_add(course.week3.L, course.bytes_per("BF16")), course.week3.hardware)
    assert t.cost.Q == 600_000_000 and t.t_memory == Fraction("0.6") * MS and t.memory_bound


def test_h100_figures_used_on_the_page(course):
    h100 = course.preset("H100_SXM")
    assert fmt.kib(h100.smem_per_SM) == "228 KiB"
    assert fmt.ratio(h100.P("BF16") / h100.P("FP32"), 1) == "14.8배"
    assert fmt.ratio(Fraction(400_000_000) / (h100.smem_per_SM * h100.SMs), 1) == "13.0배"


# --- the live measurement -------------------------------------------------------------------------

def test_achieved_bandwidth_is_a_positive_float():
    bw = measure.achieved_bandwidth(2**16, 2)
    assert type(bw) is float and bw > 0


def test_achieved_bandwidth_counts_three_arrays(monkeypatch):
    monkeypatch.setattr(measure, "vector_add_seconds", lambda n, repeats, dtype: 0.5)
    assert measure.achieved_bandwidth(1000, 3) == 3 * 4 * 1000 / 0.5
    assert measure.achieved_bandwidth(1000, 3, "FP64") == 3 * 8 * 1000 / 0.5


@pytest.mark.parametrize("n", [0, -5, 2.5, True, "1000", None])
def test_achieved_bandwidth_rejects_bad_n(n):
    with pytest.raises(ValueError, match=r"n must be a positive whole number"):
        measure.achieved_bandwidth(n, 2)


@pytest.mark.parametrize("repeats", [0, -1, 1.0])
def test_achieved_bandwidth_rejects_bad_repeats(repeats):
    with pytest.raises(ValueError, match=r"repeats must be a positive whole number"):
        measure.achieved_bandwidth(1000, repeats)


def test_achieved_bandwidth_rejects_an_unknown_dtype():
    with pytest.raises(ValueError, match=r"unknown dtype 'BF17'; allowed: FP32"):
        measure.achieved_bandwidth(1000, 1, "BF17")


# --- the chapter and its edition ---------------------------------------------------------------------

def glued(nb) -> dict[tuple[int, str], str]:
    found = {}
    for index, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []):
            name = output.get("metadata", {}).get("scrapbook", {}).get("name")
            if name:
                text = output["data"].get("application/papermill.record/text/plain", "")
                found[(index, name)] = ast.literal_eval(text) if text[:1] in ("'", '"') else text
    return found


def test_edition_glues_the_model_numbers_outside_the_measured_cells():
    if not EDITION.exists():
        pytest.fail(f"{EDITION.relative_to(ROOT)} is missing: run `python -m roofline notebooks {CHAPTER.relative_to(ROOT)}`")
    nb = nbformat.read(EDITION, as_version=4)
    values = {name: value for (_, name), value in glued(nb).items()}
    assert (values["t-memory"], values["t-compute"], values["mem-over-compute"]) == ("1.2", "0.005", "240")
    assert (values["Q"], values["A-read"], values["t-ideal"]) == ("1.2 GB", "400 MB", "1.2")
    assert values["bound-kind"] == "메모리 한계"
    assert (values["A-size"], values["smem-share"]) == ("400 MB", "13.0분의 1")   # Shared Memory of all SMs vs vector A
    assert (values["capacity"], values["fits"]) == ("16 GB", "세 벡터가 모두 들어간다")
    assert "메모리 용량만 2배 (16 GB → 32 GB)" in EDITION.read_text(encoding="utf-8")   # the doubling table
    # the measured traffic: the exact Byte count (with MiB beside it), never MiB divided into GB/s
    assert values["meas-Q"] == "201,326,592 Byte(192 MiB)" and values["meas-array"] == "67,108,864 Byte(64 MiB)"
    ignored = {i for i, cell in enumerate(nb.cells) if "nbval-ignore-output" in cell.metadata.get("tags", [])}
    assert ignored, "the measurement cells must be tagged nbval-ignore-output"
    measured = {name for (index, name) in glued(nb) if index in ignored}
    assert measured == {"meas-bw", "meas-ms", "meas-gflops", "meas-L-ms"}, "only measured values may sit in ignored cells"


def test_measured_prose_says_it_depends_on_the_machine():
    text = CHAPTER.read_text(encoding="utf-8")
    assert "기계마다" in text and "측정값" in text
    assert re.search(r":tags: \[nbval-ignore-output\]\nbw = measure\.achieved_bandwidth\(n, repeats\)", text)


def test_visible_code_uses_only_names_from_visible_cells():
    """A student reads only the visible cells: every name they use must be defined in one of them."""
    import builtins
    nb = nbformat.read(EDITION, as_version=4)
    defined = set(dir(builtins)) | {"rl", "fmt", "glue", "kernels", "measure", "tables", "Fraction", "Markdown", "Math"}
    for cell in nb.cells:
        if cell.cell_type != "code" or "remove-cell" in cell.metadata.get("tags", []):
            continue
        tree = ast.parse(cell.source)
        stores = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        loads = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        missing = loads - defined - stores
        assert not missing, f"visible cell uses names defined only in removed cells: {sorted(missing)}\n{cell.source}"
        defined |= stores


def test_every_section_opens_with_a_one_line_answer():
    text = CHAPTER.read_text(encoding="utf-8")
    prose = re.sub(r"```\{code-cell\} ipython3\n:tags: \[remove-cell[^\n]*\n.*?```\n+", "", text, flags=re.S)   # hidden plumbing
    for heading, body in re.findall(r"^## (.+)\n\n(.*)$", prose, flags=re.M):
        assert body.startswith("**한 줄 답.**"), heading
