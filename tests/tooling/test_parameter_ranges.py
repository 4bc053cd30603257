"""Every parameter has a range (roofline.params: Range), documented in docs/parameters.md, and the sweep holds it:
for each range, its two ends are accepted by the loader (the whole file still loads, with the few values that must
agree with it moved along) and one step outside each end is refused, in one Korean line naming the key, the range
and the value. Two whole terms at the ends (every largest value, every smallest) pass the dry run of `make refresh`,
and the measured cells at their largest sizes run in one process that stays under 2 GB.

The values are set in the live course.toml (tests/course_copies.set_key), so the sweep holds for any valid term.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import chapter_memo
from course_copies import set_key, set_peak
from coursebook import __main__ as coursebook
from coursebook import paramdoc
from roofline import params

ROOT = Path(__file__).resolve().parents[2]
COURSE = params.DEFAULT_PATH
HANGUL = re.compile("[가-힣]")


def live_text() -> str:
    return COURSE.read_text(encoding="utf-8")


def with_values(text: str, values: dict) -> str:
    for key, value in values.items():
        text = set_key(text, key, value)
    return text


def load_text(tmp_path: Path, text: str):
    path = tmp_path / "course.toml"
    path.write_text(text, encoding="utf-8")
    return params.load(path)


# values that must move along when a range's end is tried (the rules between keys: docs/parameters.md)
ALONG = {
    ("week4.N", "lo"): {"week4.tiles": [1, 2]},
    ("week4.tiles", "lo"): {"week4.N": 2, "week4.tiles": [1, 2]},
    ("week4.tiles", "hi"): {"week4.N": 65_536, "week4.tiles": [32, 65_536]},
    ("week4.small_T", "hi"): {"week4.small_N": 32},
    ("week4.small_N", "lo"): {"week4.small_T": 1},
    ("week4.small_N", "hi"): {"week4.small_T": 1},   # (any term's small_T: 1 divides every small_N)
    ("note.cache.tile", "hi"): {"note.cache.K": 1024},
    ("note.cache.K", "lo"): {"note.cache.tile": 1},
    ("note.measure.naive_N", "hi"): {"note.measure.T": 64},
    ("note.measure.tiled_N", "hi"): {"note.measure.T": 64},
    ("note.measure.T", "lo"): {"note.measure.naive_N": 32, "note.measure.tiled_N": 32},
    ("note.flash_check.N", "hi"): {"note.flash_check.blocks": [[64, 64]]},
    ("note.flash_check.blocks", "lo"): {"note.flash_check.N": [16]},
}


def field_cases() -> list:
    return [pytest.param(f, id=f.path) for cls in params.PROBLEMS.values() for f in params.fields(cls)
            if f.range is not None]


def end_value(f: params.Field, live, end):
    """The live value of field `f` with its numbers replaced by `end` (a list keeps its shape)."""
    value = f.of(live)
    if isinstance(value, tuple):
        if value and isinstance(value[0], tuple):
            return [[end, end]]
        return [end]
    return end


def test_every_numeric_parameter_has_a_range():
    """Every parameter but a name (a preset, a dtype) has a range: the sweep covers 100 % of them."""
    live = params.load(COURSE)
    for cls in params.PROBLEMS.values():
        for f in params.fields(cls):
            value = f.of(getattr(live, cls.TABLE))
            if not isinstance(value, str) and not (isinstance(value, tuple) and isinstance(value[0], str)):
                assert f.range is not None, f.path


def test_the_documented_ranges_are_the_table():
    """docs/parameters.md is generated from the table (python -m coursebook.paramdoc), and README and
    docs/instructor.md link it."""
    assert (ROOT / "docs/parameters.md").read_text(encoding="utf-8") == paramdoc.page()
    for doc in ("README.md", "docs/instructor.md"):
        assert "parameters.md" in (ROOT / doc).read_text(encoding="utf-8"), doc


@pytest.mark.parametrize("f", field_cases())
def test_a_range_s_ends_load_and_one_step_outside_is_refused(f, tmp_path):
    live = params.load(COURSE)
    problem = getattr(live, f.table)
    text = live_text()
    for end, inside, outside in (("lo", f.range.lo, f.range.lo - 1), ("hi", f.range.hi, f.range.hi + 1)):
        along = ALONG.get((f.path, end), {})
        values = {f.path: end_value(f, problem, inside), **along}
        load_text(tmp_path, with_values(text, values))          # the end itself: the whole file loads
        values[f.path] = end_value(f, problem, outside)
        with pytest.raises(params.ParameterError) as refused:
            load_text(tmp_path, with_values(text, values))
        said = str(refused.value)
        assert said.startswith(f.path + ":") and HANGUL.search(said) and "\n" not in said, said


PRESET_CASES = [("presets.course.BW", params.BW_RANGE), ("presets.H100_SXM.peak.FP16", params.PEAK_RANGE),
                ("presets.H100_SXM.sparse.FP16", params.PEAK_RANGE), ("dtypes.FP32", params.DTYPE_RANGE),
                *((f"presets.H100_SXM.{k}" if k in ("SMs", "smem_per_SM") else f"presets.H100_SXM.sm.{k}", r)
                  for k, r in params.SM_RANGES.items())]


def set_preset(text: str, dotted: str, value) -> str:
    """course.toml with a key of [dtypes], [presets.KEY] or [presets.KEY.sm] (or a dtype of an inline peak table)
    set to `value`, found by its line."""
    parts = dotted.split(".")
    if parts[-2] in ("peak", "sparse"):
        table, key, dtype = ".".join(parts[:2]), parts[2], parts[3]
        return re.sub(rf"(^\[{re.escape(table)}\][^\[]*?^{key} = {{[^}}\n]*\b{dtype} = )[^,}}]+", rf"\g<1>{value!r}",
                   text, count=1, flags=re.M | re.S)
    table, key = ".".join(parts[:-1]), parts[-1]
    return re.sub(rf"(^\[{re.escape(table)}\][^\n]*\n(?:[^\[].*\n|\n)*?{key} = )[^#\n]+?(\s*(?:#.*)?)$", rf"\g<1>{value!r}\g<2>",
                  text, count=1, flags=re.M)


@pytest.mark.parametrize("key, bounds", PRESET_CASES, ids=[k for k, _ in PRESET_CASES])
def test_a_machine_s_numbers_have_ranges_and_a_unit_slip_is_named(key, bounds, tmp_path):
    """Below the range is refused with the key and, for a speed, the unit (BW = 1.0 meant 1 TB/s); the ends pass the
    range (another rule between the SM's numbers may still refuse them, naming its own key)."""
    text = live_text()
    for value in (bounds.lo - 1, bounds.hi + 1):
        changed = set_preset(text, key, int(value))
        assert changed != text, key
        with pytest.raises(params.ParameterError) as refused:
            load_text(tmp_path, changed)
        said = str(refused.value)
        assert said.startswith(key + ":") and HANGUL.search(said), said
        if bounds.unit and value < bounds.lo and bounds.slip:
            assert bounds.unit in said and bounds.slip in said, said
    for value in (bounds.lo, bounds.hi):
        try:
            load_text(tmp_path, set_preset(text, key, int(value)))
        except params.ParameterError as err:
            assert not str(err).startswith(key + ":") or "이상" not in str(err), err


def test_a_tb_per_s_slip_names_the_unit(tmp_path):
    said = ""
    try:
        load_text(tmp_path, set_preset(live_text(), "presets.course.BW", 1.0))
    except params.ParameterError as err:
        said = str(err)
    assert said.startswith("presets.course.BW:") and "Byte/s" in said and "1e12" in said, said


def extreme_term(end: str) -> dict:
    """Every parameter that costs time or memory at one end of its range, in one valid term (③'s small example with
    its most tiles: 32×32 of them, 32 K steps)."""
    if end == "hi":
        return {"week4.N": 65_536, "week4.tiles": [32, 65_536], "week4.small_N": 32, "week4.small_T": 1,
                "week4.cache.group_size_M": 2048, "note.measure": None}
    # (N = 64: a smaller N on the course's machine has no tile reaching the ridge, a sentence ⑤ has no derivation for,
    # which the dry run refuses: test_the_dry_run_holds_the_site_build_s_derivation_gate)
    return {"week4.N": 64, "week4.tiles": [32, 64], "week4.small_N": 2, "week4.small_T": 1,
            "week4.cache.small_capacities": [1], "week4.cache.capacities": [1024], "week4.cache.group_size_M": 1}


@pytest.mark.parametrize("end", ["lo", "hi"])
def test_a_term_at_the_ends_passes_the_dry_run(end, tmp_path):
    """The dry run of `make refresh` (every chapter's code in-process) runs a term at the ends of the ranges."""
    values = {k: v for k, v in extreme_term(end).items() if v is not None}
    course = load_text(tmp_path, with_values(live_text(), values))
    coursebook.validate_term(course, memo=chapter_memo(course.path))


def test_the_dry_run_holds_the_site_build_s_derivation_gate(tmp_path):
    """F-1: a term whose pages would stop the site build (a glued number without its derivation: fuzz-2's BW = 1.0
    case, here a tiny N on the course's machine) is refused by the dry run, before anything is written, in one
    Korean line naming the chapter and the glued value."""
    # (set_peak: its CUDA cores' FP32 too when they ran at the peak, as week 3's vector add requires in any term)
    text = set_peak(set_preset(live_text(), "presets.course.BW", 10**12), "course", "FP32", 20 * 10**12)
    course = load_text(tmp_path, with_values(text, {"week4.hardware": "course", "week4.dtype": "FP32",
                                                    "week4.N": 16, "week4.tiles": [8, 16]}))
    with pytest.raises(params.ParameterError) as refused:
        coursebook.validate_term(course, memo=chapter_memo(course.path))
    said = str(refused.value)
    assert said.startswith("chapters/") and "유도가 없어 사이트 빌드가 멈춘다" in said and "\n" not in said, said


MEASURED = """
import resource
from roofline import attention, matmul_timing, params
import numpy as np
matmul_timing.implementations(params.MAX_NAIVE_N, params.MAX_MEASURED_N, params.MAX_MEASURED_N, 64, repeats=1)
N = params.MAX_FLASH_N
Q, K, V = np.random.default_rng(1).standard_normal((3, N, 256))
attention.standard_forward(Q, K, V)
attention.flash_forward(Q, K, V, 64, 64, attention.Traffic())   # (N/64)² = 1,024 steps ≤ MAX_FLASH_STEPS
del Q, K, V
matmul_timing.stride(params.MAX_STRIDE_N, repeats=1)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def test_the_measured_cells_at_their_largest_sizes_stay_under_2_GB():
    """note.measure, note.flash_check and note.gemm.N (the copies the note times) at their upper ends (the cells the
    dry run leaves to the kernel) run in one process whose peak memory is under 2 GB."""
    done = subprocess.run([sys.executable, "-c", MEASURED], capture_output=True, text=True, check=True)
    assert int(done.stdout.split()[-1]) * 1024 < 2 * 10**9
