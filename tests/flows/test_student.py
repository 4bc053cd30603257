"""A student edits a value in a chapter's parameter cell and runs all cells: everything below follows.

For every chapter with a parameter cell and every variable in it, the cell's TEXT is edited (the parameter
file is left alone) and the chapter is run. Its glued values, tables, sentences and figures (a figure's
glued text is a fingerprint of its plotted data) must equal what the library gives when the instructor puts
the same value in course.toml and refreshes — so no cell below reads a parameter from anywhere but the cell —
and the values that do not depend on that parameter stay as they were. A bad typed value stops with a
Korean message naming the variable, and in a real kernel the student sees the new values below the cell.
"""
from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from conftest import live_glued
from course_copies import cell_of, set_key
from coursebook import editions, paramcell
from coursebook.__main__ import chapter_sources
from roofline import kernels, params
from roofline.show import fmt
from roofline.show.glue import shown_text

pytestmark = pytest.mark.heavy(50)   # rough seconds, for the order of the run (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[2]
LIVE = params.load()


def other_value(problem: str, name: str, value, values: dict):
    """A different value for one variable that is valid with the others unchanged (None: there is none)."""
    catalog = LIVE.catalog
    problem_now = getattr(LIVE, problem)
    if name in {"N", "L", "small_N", "seq"} and value % 4 == 0:
        return value // 2          # a smaller problem: as telling as a larger one, and quicker to simulate
    if name in {"N", "L", "capacity", "threads", "small_N", "seq", "extra_registers"}:
        return value * 2
    if name in {"tiles", "small_capacities", "capacities"}:
        return [v // 2 for v in value] if all(v % 2 == 0 and v > 1 for v in value) else [v * 2 for v in value]
    if name == "group_size_M":
        return value * 2
    if name == "small_T":
        divisors = [d for d in range(1, problem_now.small_N + 1) if problem_now.small_N % d == 0 and d != value]
        return divisors[0]
    if name == "dtype":
        hardware = values.get("hardware", problem_now.hardware)
        needs_peak = "hardware" in values or problem == "note"
        allowed = catalog.presets[hardware].peak if needs_peak else catalog.dtypes
        if problem == "week3":   # a vector add: a dtype the machine's CUDA cores run at its peak (params.dtype_of_cuda_cores)
            preset = catalog.presets[hardware]
            allowed = [d for d, P in preset.cuda.items() if preset.peak.get(d) == P]
        others = [d for d in allowed if d != value and catalog.dtypes[d] != catalog.dtypes[value]]
        return others[0] if others else None
    if name in {"hardware", "gpu"}:
        dtype = values.get("dtype", getattr(problem_now, "dtype"))
        gpu_only = problem == "note" or name == "gpu"
        others = [k for k, p in catalog.presets.items() if k != value and (name == "gpu" or dtype in p.peak)
                  and (problem != "week3" or name == "gpu" or p.cuda.get(dtype) == p.peak[dtype])   # a vector add's
                  and (not gpu_only or (p.SMs and p.smem_per_SM))
                  and (not (problem == "week4" and name == "gpu") or p.sm)]   # ④'s occupancy needs per-SM limits
        return others[0] if others else None
    if name == "gpus":
        gpus = [k for k, p in catalog.presets.items() if p.sm]   # ④ compares occupancy: per-SM limits
        return [g for g in gpus if g not in value][:1] + list(value[:1])
    raise AssertionError(f"no rule for a changed {name}: add one to other_value")


def typed(source: str, name: str, value) -> str:
    """The cell's text with `name = value` typed over the old literal (the comment kept)."""
    new, count = re.subn(rf"^({re.escape(name)}\s*=\s*)(.+?)(\s+#.*)?$",
                         lambda m: m[1] + paramcell.literal(value) + (m[3] or ""), source, count=1, flags=re.M)
    assert count == 1, f"no line {name} = … in the parameter cell"
    return new


def unknown(names) -> str:
    """A name that is not among `names` (the catalog's presets or dtypes): whatever an instructor adds."""
    name = "없는이름"
    while name in names:
        name += "_"
    return name


def valid(problem: str, changes: dict) -> bool:
    try:
        problem_now = getattr(LIVE, problem)
        problem_now.with_(**changes)
        if problem == "week4" and "dtype" in changes and "hardware" in changes:
            LIVE.catalog.roofline(changes["hardware"], changes["dtype"])
        return True
    except params.ParameterError:
        return False


def together(problem: str, values: dict) -> tuple[dict, list[str]]:
    """Another value for as many of the cell's variables as stay valid together ({name: new}), and the
    variables that have no other valid value with the rest unchanged."""
    changes, none = {}, []
    for name, value in values.items():
        new = other_value(problem, name, value, {**values, **changes})
        if new is None:
            none.append(name)
        elif valid(problem, {**changes, name: new}):
            changes[name] = new
        elif valid(problem, {name: new}):
            continue      # valid alone, not with the others: checked alone below
    return changes, none


def instructor_file(problem: str, changes: dict, tmp_path: Path) -> Path:
    """course.toml with the same values as the instructor would write them."""
    text = params.DEFAULT_PATH.read_text(encoding="utf-8")
    for name, new in changes.items():
        text = set_key(text, params.cell_fields(problem)[name].path, new)
    problem_now = getattr(LIVE, problem)
    dtype = changes.get("dtype")
    if dtype is not None and "hardware" not in changes and dtype not in LIVE.presets[problem_now.hardware].peak:
        # ① never asks for the machine, so it may use a dtype the week's machine lacks; the file must name a
        # machine that has it (the chapter's values cannot depend on which)
        machine = next(k for k, p in LIVE.presets.items() if dtype in p.peak)
        text = set_key(text, f"{problem}.hardware", machine)
    toml = tmp_path / f"course-{len(list(tmp_path.iterdir()))}.toml"
    toml.write_text(text, encoding="utf-8")
    return toml


def typed_problems(md: Path, problem: str, changes: dict, tmp_path: Path) -> list[str]:
    """What differs when the student types `changes` into the cell instead of the instructor writing them in
    course.toml (empty: the chapter follows the cell), and whether anything changed on the page at all."""
    source = cell_of(md)[0]
    for name, new in changes.items():
        source = typed(source, name, new)
    student = editions.recompute(md, source, pictures=True)   # the figures drawn, as the student's run draws them
    instructor = editions.recompute(md, course_path=instructor_file(problem, changes, tmp_path))
    found = editions.value_changes(instructor, student, limit=20, source="the chapter shows")
    before = live_glued(md.stem)
    changed = [key for key in student if key not in student.measured
               and any(shown_text(student[key].get(m, "")) != before.get(key, {}).get(m, "")
                       for m in ("text/plain", "text/markdown", "text/latex"))]
    return found + ([] if changed else ["changed nothing on the page"])


CHAPTERS = [md for md in chapter_sources() if cell_of(md)]


@pytest.mark.parametrize("md", CHAPTERS, ids=[md.stem for md in CHAPTERS])
def test_typed_values_reach_every_output(md, tmp_path):
    """All of the cell's variables changed in one run; only if that fails, one by one, to name the variable."""
    _, problem, values = cell_of(md)
    changes, none = together(problem, values)
    alone = [name for name in values if name not in changes and name not in none]
    failures = {}
    if changes and typed_problems(md, problem, changes, tmp_path):
        failures = {name: lines for name in changes
                    if (lines := typed_problems(md, problem, {name: changes[name]}, tmp_path))}
        assert failures, f"{md.stem}: typing {changes} together differs from the file, but no value alone does"
    for name in alone:
        new = other_value(problem, name, values[name], values)
        if lines := typed_problems(md, problem, {name: new}, tmp_path):
            failures[name] = lines
    for name in none:
        # no other valid value exists with the rest of the cell unchanged: then typing one must fail clearly
        bad = unknown(LIVE.dtypes if name == "dtype" else LIVE.presets)
        with pytest.raises(editions.ChapterError) as caught:
            editions.recompute(md, typed(cell_of(md)[0], name, bad))
        assert isinstance(caught.value.__cause__, params.ParameterError) and name in str(caught.value.__cause__)
    assert not failures, f"{md.stem}: typed into the cell, these values are not the library's for them " \
        "(a cell below reads the parameter elsewhere?):\n" + "\n".join(f"{name} = {changes.get(name)!r}: " + "; ".join(lines)
                                                                 for name, lines in failures.items())


def test_the_parameter_cell_is_what_the_student_reads(md=ROOT / "chapters" / "w4_5_matmul.md"):
    """Plain literals with a Korean comment each, after the title and its one-line answer; values from the file."""
    text = md.read_text(encoding="utf-8")
    cell, problem = paramcell.find(text)
    before = text[:cell.start()]
    assert re.search(r"^# .+\n\n\*\*한 줄 답\.\*\*", before, re.M), "the cell must come after the title and its answer"
    for line in cell["body"].strip().split("\n"):
        if line.startswith("#"):
            continue
        match = paramcell.LINE.match(line)
        assert match and match["comment"] and re.search("[가-힣]", match["comment"]), line
    assert paramcell.disagreements(text, LIVE) == []
    assert paramcell.assignments(cell["body"])["N"] == LIVE.week4.N


def test_every_chapter_with_parameters_has_exactly_one_cell():
    for md in chapter_sources():
        text = md.read_text(encoding="utf-8")
        cell, problem = paramcell.find(text)
        assert cell is not None, f"{md.stem} has no parameter cell"
        assert "rl.load()" not in cell["body"] and "course" not in re.sub(r'"[^"]*"', "", cell["body"]), \
            f"{md.stem}: the parameter cell holds literals only"
        below = text[cell.end():]
        for variable, field in params.cell_fields(problem).items():
            assert not re.search(rf"course\.{re.escape(field.path)}\b", below), \
                f"{md.stem}: below the cell, {field.path} is read from the file, not from the cell"


def edition_with(md: Path, replace) -> nbformat.NotebookNode:
    """The committed edition, outputs cleared, its parameter cell rewritten by `replace(source)`."""
    nb = nbformat.read(md.with_suffix(".ipynb"), as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    cell = editions.parameter_cell(nb)
    new = replace(cell.source)
    assert new != cell.source, f"{md.stem}: the parameter cell has nothing to change:\n{cell.source}"
    cell.source = new
    return nb


def test_in_a_kernel_the_student_sees_the_new_values_below_the_cell(tmp_path):
    md = ROOT / "chapters" / "w4_1_intensity.md"
    N = LIVE.week4.N * 2
    nb = edition_with(md, lambda src: re.sub(r"^N = \S+", f"N = {N}", src, count=1, flags=re.M))
    with editions.book_mode(False):
        editions.execute(nb, tmp_path, timeout=180)
    glued = {k: {m: shown_text(v) if m == "text/plain" else v for m, v in b.items()} for k, b in editions.records(nb).items()}
    s = LIVE.week4.s
    assert glued["N"]["text/plain"] == fmt.integer(N)
    assert glued["I0"]["text/plain"] == fmt.decimal(kernels.matmul_no_reuse(N, s, s).I, 6)
    shown = [o["text/plain"] for c in nb.cells for o in (x.get("data", {}) for x in c.get("outputs", []))
             if "text/plain" in o]
    assert f"I0 = {glued['I0']['text/plain']}" in shown, "the student does not see the new value below the cell"


BAD = {   # parameter line → a bad value and the variable its message must name (unknown names: none of the catalog's)
    "N": ("N = -4096", "N"),
    "L": ("L = 0", "L"),
    "tiles": ("tiles = [64, 32]", "tiles"),
    "hardware": (f'hardware = "{unknown(LIVE.presets)}"', "hardware"),
    "dtype": (f'dtype = "{unknown(LIVE.dtypes)}"', "dtype"),
    "seq": ("seq = 1.5", "seq"),
}


@pytest.mark.parametrize("md", chapter_sources(), ids=[md.stem for md in chapter_sources()])
def test_a_bad_typed_value_stops_with_a_korean_message_naming_it(md):
    source = editions.parameter_cell(editions.read_source(md)).source
    tried = 0
    for name, (bad, mentioned) in BAD.items():
        if not re.search(rf"^{name} = ", source, re.M):
            continue
        tried += 1
        with pytest.raises(editions.ChapterError) as caught:
            editions.recompute(md, re.sub(rf"^{name} = .*$", bad, source, count=1, flags=re.M))
        cause = caught.value.__cause__
        assert isinstance(cause, params.ParameterError), f"{md.stem}: `{bad}` gave {caught.value}"
        assert re.match(rf"{mentioned}: ", str(cause)) and re.search("[가-힣]", str(cause)), \
            f"{md.stem}: `{bad}` → {cause} does not name {mentioned} first, in Korean"
    assert tried, f"{md.stem}: its parameter cell sets none of {', '.join(BAD)}: add a case to BAD"


def test_in_a_kernel_a_bad_typed_value_shows_one_korean_line_not_a_traceback(tmp_path):
    md = ROOT / "chapters" / "w4_1_intensity.md"
    nb = edition_with(md, lambda src: re.sub(r"^N = \S+", "N = -4096", src, count=1, flags=re.M))
    with editions.book_mode(False), pytest.raises(Exception):
        editions.execute(nb, tmp_path, timeout=180)
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.output_type == "error"]
    assert len(errors) == 1 and errors[0].ename == "ParameterError", errors
    assert errors[0].traceback == ["ParameterError: N: 양의 정수여야 한다. 받은 값: -4096"]
