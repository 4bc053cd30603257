"""The week-3 note (chapters/week3_vector_add.md): the seed's numbers (seed 004), the BF16 costs,
the live measurement, and the split between model values (checked by nbval) and measured ones.

Expected values are the ones printed in seed 004 ("108" there is 10⁸, see ERRATA), not outputs of the code; they
are checked for the seed's parameters (`seed`, `seed_glued`: tests/seed/course.toml). The model's properties are
checked for the live parameters too.
"""
from __future__ import annotations

import ast
import re
from fractions import Fraction
from pathlib import Path

import pytest

import roofline as rl
from coursebook import editions
from roofline import kernels, measure
from roofline.show import fmt, ko
from roofline.errors import ParameterError

from conftest import seed_glued

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = ROOT / "chapters" / "week3_vector_add.md"
MS = Fraction(1, 1000)


@pytest.fixture()
def vadd(seed):
    w3 = seed.week3
    return kernels.vector_add(w3.L, w3.s)


def test_the_seeds_problem(seed):
    w3 = seed.week3
    assert (w3.L, w3.dtype, w3.s) == (100_000_000, "FP32", 4)
    assert w3.capacity == 16_000_000_000                 # "용량이 16 GB라면 세 벡터를 담을 수 있다"
    assert 3 * w3.s * w3.L <= w3.capacity < 3 * w3.s * w3.L * 14
    assert (w3.hardware.P, w3.hardware.BW) == (20 * 10**12, 10**12)


def test_amounts_of_vector_add(vadd, seed):
    s, L = seed.week3.s, seed.week3.L
    assert s * L == 400_000_000                     # A read: 400 MB (and B read, C written)
    assert vadd.Q_read == 800_000_000               # inputs: 800 MB
    assert vadd.Q_write == 400_000_000              # C: 400 MB
    assert vadd.Q == 1_200_000_000                  # Q: 1.2 GB
    assert vadd.F == 100_000_000                    # F: 10⁸ FLOPs
    assert 3 * s * L == vadd.Q                      # footprint of A, B, C equals Q here (each moved once)


def test_times_of_vector_add(vadd, seed):
    t = rl.Timing(vadd, seed.week3.hardware)
    assert t.t_compute == Fraction(5, 10**6) == Fraction("0.005") * MS
    assert t.t_memory == Fraction("1.2") * MS
    assert t.t_ideal == Fraction("1.2") * MS
    assert t.t_memory / t.t_compute == 240
    assert t.memory_bound and ko.bound(t) == "HBM 대역폭"
    assert vadd.Q_read / seed.week3.hardware.BW == Fraction("0.8") * MS   # forgetting the write
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
    hw = seed.week3.hardware
    machine = {"기준": hw, "P ×2": hw.with_(P=2 * hw.P), "BW ×2": hw.with_(BW=2 * hw.BW), "용량 ×2": hw}[change]
    base, t = rl.Timing(vadd, hw), rl.Timing(vadd, machine)
    assert t.t_compute == Fraction(t_compute_ms) * MS
    assert t.t_memory == Fraction(t_memory_ms) * MS
    assert t.t_ideal == Fraction(t_ideal_ms) * MS
    assert base.t_ideal / t.t_ideal == speedup


def test_per_element_costs_fp32_and_bf16(seed):
    fp32 = kernels.vector_add(1, seed.bytes_per("FP32"))
    bf16 = kernels.vector_add(1, seed.bytes_per("BF16"))
    assert (fp32.Q_read, fp32.F, fp32.Q_write, fp32.Q) == (8, 1, 4, 12)     # 4+4, 1 FLOP, 4, 12 bytes
    assert (bf16.Q_read, bf16.F, bf16.Q_write, bf16.Q) == (4, 1, 2, 6)      # 2+2, 1 FLOP, 2, 6 bytes
    assert (fp32.I, bf16.I) == (Fraction(1, 12), Fraction(1, 6))


def test_bf16_vector_add_on_the_course_hardware(seed):
    t = rl.Timing(kernels.vector_add(seed.week3.L, seed.bytes_per("BF16")), seed.week3.hardware)
    assert t.cost.Q == 600_000_000 and t.t_memory == Fraction("0.6") * MS and t.memory_bound


def test_live_vector_add_is_memory_bound_and_only_BW_speeds_it_up(course):
    """For any live machine whose ridge exceeds 1/(3s): doubling P leaves the time, doubling BW halves it."""
    w3 = course.week3
    hw, add = w3.hardware, kernels.vector_add(w3.L, w3.s)
    assert add.I == Fraction(1, 3 * w3.s) and (add.F, add.Q) == (w3.L, 3 * w3.s * w3.L)
    base = rl.Timing(add, hw)
    assert base.memory_bound == (add.I < hw.ridge)
    if base.memory_bound:
        assert rl.Timing(add, hw.with_(P=2 * hw.P)).t_ideal == base.t_ideal
        assert rl.Timing(add, hw.with_(BW=2 * hw.BW)).t_ideal == base.t_ideal / 2


def test_h100_figures_used_on_the_page(seed):
    h100 = seed.preset("H100_SXM")
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
    with pytest.raises(ParameterError, match=rf"^n: 양의 정수여야 한다\. 받은 값: {re.escape(repr(n))}$"):
        measure.achieved_bandwidth(n, 2)


@pytest.mark.parametrize("repeats", [0, -1, 1.0])
def test_achieved_bandwidth_rejects_bad_repeats(repeats):
    with pytest.raises(ParameterError, match=rf"^repeats: 양의 정수여야 한다\. 받은 값: {re.escape(repr(repeats))}$"):
        measure.achieved_bandwidth(1000, repeats)


def test_achieved_bandwidth_rejects_an_unknown_dtype():
    with pytest.raises(ValueError, match=r"^dtype: 모르는 자료형 'BF17'\. 쓸 수 있는 값: FP32"):
        measure.achieved_bandwidth(1000, 1, "BF17")


# --- the chapter and its edition ---------------------------------------------------------------------

def test_chapter_glues_the_seeds_model_numbers():
    values = {name: next(b[m] for m in ("text/markdown", "text/latex", "text/plain") if m in b)
              for name, b in seed_glued("week3_vector_add").items()}
    assert (values["t-memory"], values["t-compute"], values["mem-over-compute"]) == ("1.2", "0.005", "240")
    assert (values["Q"], values["t-ideal"]) == ("1.2 GB", "1.2")
    assert values["bound-kind"] == "메모리 한계"
    assert (values["A-size"], values["smem-share"]) == ("400 MB", "약 13분의 1")   # Shared Memory of all SMs vs vector A
    assert (values["capacity"], values["fits"]) == ("16 GB", "세 벡터가 모두 들어간다")
    assert "| 메모리 용량만 2배 (16 GB → 32 GB) | 0.005 ms | 1.2 ms | 1.2 ms | 1배 |" in values["table-double"]
    # the measured traffic: the exact Byte count (with MiB beside it), never MiB divided into GB/s
    assert values["meas-Q"] == "201,326,592 Byte(192 MiB)" and values["meas-array"] == "64 MiB(67,108,864 Byte)"
    # write-allocate: C's lines read before written add one array, so the shown bandwidth is 25 % low
    assert (values["meas-Q-write-allocate"], values["meas-wa-low"]) == ("268,435,456 Byte", "25%")
    assert values["bound-explain"].count("HBM 대역폭이다.") == 1 and values["long-side"] == "메모리 시간을"


def test_only_measured_values_sit_in_cells_left_out_of_the_comparison():
    """nbval and `coursebook check` skip cells tagged nbval-ignore-output: only the live measurement may be there."""
    glued = editions.recompute(CHAPTER)
    assert glued.measured == {"meas-bw", "meas-ms", "meas-gflops", "meas-L-ms", "meas-cpu", "meas-cores", "meas-numpy"}
    assert {"t-memory", "t-compute", "Q", "meas-Q", "meas-array"} <= set(glued) - glued.measured


def test_measured_prose_says_it_depends_on_the_machine():
    text = CHAPTER.read_text(encoding="utf-8")
    assert "컴퓨터마다" in text and "측정값" in text and "{glue:text}`meas-cpu`" in text
    assert re.search(r":tags: \[nbval-ignore-output\]\nbw = measure\.achieved_bandwidth\(n, repeats\)", text)


def test_visible_code_uses_only_names_from_visible_cells():
    """A student reads only the visible cells: every name they use must be defined in one of them."""
    import builtins
    nb = editions.read_source(CHAPTER)
    defined = set(dir(builtins)) | {"rl", "kernels", "machine", "measure", "page", "course"}   # the imports cell: modules, and the catalog of dtypes and presets
    for cell in nb.cells:
        if cell.cell_type != "code" or "remove-cell" in cell.metadata.get("tags", []):
            continue
        tree = ast.parse(cell.source)
        stores = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        loads = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        missing = loads - defined - stores
        assert not missing, f"visible cell uses names defined only in removed cells: {sorted(missing)}\n{cell.source}"
        defined |= stores


def test_no_helper_is_defined_in_a_hidden_cell():
    """Helpers live in the library; hidden cells only call it (issue 10)."""
    nb = editions.read_source(CHAPTER)
    for cell in nb.cells:
        tags = set(cell.metadata.get("tags", []))
        if cell.cell_type == "code" and tags & {"remove-cell", "remove-input", "hide-input"}:
            assert not re.search(r"^\s*(def |class |\w+ = lambda)", cell.source, re.M), cell.source


def test_page_module_speaks_korean_particles(seed):
    """The glued sentences take their particles from the word before them (any bound, any long side)."""
    from roofline.show.pages import week3_vector_add as page
    w3 = seed.week3
    add = kernels.vector_add(w3.L, w3.s)
    hw = w3.hardware
    fast = hw.with_(P=hw.P / 10**6)            # now compute-bound
    t = rl.Timing(add, fast)
    assert not t.memory_bound
    timings = {"기준": t, "P": rl.Timing(add, fast.with_(P=2 * fast.P)), "BW": rl.Timing(add, fast.with_(BW=2 * fast.BW)),
               "용량": t}
    values = page.doubling(w3, add, timings, 2)
    assert values["long-side"] == "연산 시간을" and values["double-winner"] == "“P” 하나뿐이다"
    assert page.bf16(w3, rl.Timing(add, hw))["bf16-bound"] == "HBM 대역폭이다"
    assert page.hierarchy(w3)["smem-share"] == "약 13분의 1"


def test_machine_description_reads_cpu_and_blas():
    from roofline import machine
    assert machine.cpu_name("processor : 0\nmodel name\t: AMD EPYC 7B13 64-Core Processor\n") == \
        "AMD EPYC 7B13 64-Core Processor"
    assert machine.blas_name({"Build Dependencies": {"blas": {"name": "scipy-openblas", "version": "0.3.27"}}}) == \
        "scipy-openblas 0.3.27"
    assert machine.blas_name({}) == "알 수 없음"
    here = machine.describe()
    assert here.cores >= 1 and here.cpu and here.numpy == __import__("numpy").__version__
