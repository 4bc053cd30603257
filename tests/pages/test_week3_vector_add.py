"""The week-3 note (chapters/week3_vector_add.md, roofline.show.pages.week3_vector_add): the seed's model numbers
glued, the split between model values (checked by nbval) and measured ones, the visible code, the Korean
particles, and the explorer's states in Python.
"""
from __future__ import annotations

import ast
import json
import re
from fractions import Fraction

import roofline as rl
from conftest import CHAPTERS, seed_glued
from coursebook import editions
from roofline import kernels
from roofline.cost import Timing
from roofline.show import engine, fmt

CHAPTER = CHAPTERS / "week3_vector_add.md"


def test_chapter_glues_the_seeds_model_numbers():
    values = {name: next(b[m] for m in ("text/markdown", "text/latex", "text/plain") if m in b)
              for name, b in seed_glued("week3_vector_add").items()}
    assert (values["t-memory"], values["t-compute"], values["mem-over-compute"]) == ("1.2", "0.005", "240")
    assert (values["Q"], values["t-ideal"]) == ("1.2 GB", "1.2")
    assert values["bound-kind"] == "메모리 한계"
    assert (values["A-size"], values["smem-share"]) == ("400 MB", "약 13배")   # Shared Memory of all SMs vs vector A
    assert (values["capacity"], values["fits"]) == ("16 GB", "세 벡터가 모두 들어간다")
    assert "| 메모리 용량만 2배 (16 GB → 32 GB) | 0.005 ms | 1.2 ms | 1.2 ms | 1배 |" in values["table-double"]
    # the measured traffic: the exact Byte count (with MiB beside it), never MiB divided into GB/s
    assert values["meas-Q"] == "201,326,592 Byte(192 MiB)" and values["meas-array"] == "64 MiB(67,108,864 Byte)"
    # write-allocate: C's lines read before written add one array, so the shown bandwidth is 25 % low
    assert (values["meas-Q-write-allocate"], values["meas-wa-low"]) == ("268,435,456 Byte", "25%")
    assert values["bound-explain"].count("HBM 대역폭이다.") == 1 and values["long-side"] == "메모리 시간을"


def test_only_measured_values_sit_in_cells_left_out_of_the_comparison():
    """nbval and `coursebook check` skip cells tagged nbval-ignore-output: only the live measurement may be there."""
    glued = editions.recompute(CHAPTER, measured=True)
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
    hw = w3.roofline
    fast = hw.with_(P=hw.P / 10**6)            # now compute-bound
    t = rl.Timing(add, fast)
    assert not t.memory_bound
    timings = {"기준": t, "P": rl.Timing(add, fast.with_(P=2 * fast.P)), "BW": rl.Timing(add, fast.with_(BW=2 * fast.BW)),
               "용량": t}
    values = page.doubling(w3, add, timings, 2)
    assert values["long-side"] == "연산 시간을" and values["double-winner"] == "“P” 하나뿐이다"
    assert page.bf16(w3, rl.Timing(add, hw))["bf16-bound"] == "HBM 대역폭이다"
    assert page.hierarchy(w3)["smem-share"] == "약 13배"


def live(page, **values):
    return json.loads(engine.live(page, json.dumps({k: str(v) for k, v in values.items()})))


def test_vector_state_is_the_model(course):
    out = live("vector-add", hardware="course", dtype="FP32", L="123_456_789", capacity="16_000_000_000",
               kP=3, kBW="1/4", kcap="1/32")["state"]
    hw = course.catalog.roofline("course", "FP32")
    add = kernels.vector_add(123_456_789, 4)
    t = Timing(add, hw.with_(P=3 * hw.P, BW=hw.BW / 4))
    f = out["fields"]
    assert f["t2"] == fmt.number(t.t_ideal * 1000) + " ms"
    assert f["t3"] == fmt.number(Timing(add, hw).t_ideal / t.t_ideal) + "배"
    assert f["capacity"] == fmt.number(Fraction(16_000_000_000, 32 * 10**9)) + " GB"
    assert out["flags"]["misfit"] is (3 * 4 * 123_456_789 > Fraction(16_000_000_000, 32))


def _records(value):
    """Every derivation record in a glued value's "why" data (sentences, tables, explorer pools), at any depth."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "records" and isinstance(item, dict):
                yield from item.values()
            else:
                yield from _records(item)
    elif isinstance(value, list):
        for item in value:
            yield from _records(item)


def test_the_scaled_capacity_has_one_name_in_the_table_and_the_reading():
    """capacity' (the memory capacity times the factor) is named once on the page: the doubling table's name is the
    reading's, the explorer's and the live form's (roofline.show.pages.week3_vector_add.SCALED)."""
    from golden_values import DATA
    from roofline.show.pages.week3_vector_add import SCALED
    from roofline.show.why import WHY_MIME

    names = set()
    for bundle in seed_glued("week3_vector_add").values():
        pools = [bundle.get(WHY_MIME)] + [json.loads(d).get("why") for _, d in DATA.findall(bundle.get("text/html", ""))]
        names |= {r["name"] for r in _records(pools) if isinstance(r, dict) and r.get("symbol") == "capacity'"}
    assert names == {SCALED[("name", "capacity'")][0]}, names
