"""A student changes the marked parameter cell and re-runs: every table and figure below follows,
and a bad value stops with a clear message.

- every chapter: the parameter cell's `rl.load()` is pointed at other course parameters (other P, BW,
  N, tiles, L, note preset); the edition, run by nbclient, must give exactly what the library gives when
  the instructor puts those parameters in course.toml — so no cell below bypasses the parameter cell —
  and differ from the committed edition;
- chapter ①: typing `N = 2048` changes its numbers to the library's values for N = 2048;
- a bad value (N < 0, L = 0) stops at a ValueError that names the parameter.
"""
from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from roofline import editions, fmt, kernels, params
from roofline.__main__ import chapter_sources
from roofline.glue import shown_text

from course_copies import next_term

ROOT = Path(__file__).resolve().parents[1]
SOURCES = chapter_sources()
IDS = [md.stem for md in SOURCES]


@pytest.fixture(scope="module")
def other_toml(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("student") / "course.toml"
    path.write_text(next_term(params.DEFAULT_PATH.read_text(encoding="utf-8")), encoding="utf-8")
    course = params.load(path)                       # valid, and really different
    assert (course.week4.N, course.week4.tiles, course.week4.hardware.ridge) == (2048, (32, 128, 256), 12.5)
    return path


# ---------------------------------------------------------------- helpers

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


def run(nb, tmp_path):
    with editions.book_mode(False):
        return editions.execute(nb, tmp_path, timeout=180)


def as_instructor(md: Path, toml: Path) -> editions.Glued:
    """What the chapter gives when course.toml itself holds `toml`'s parameters."""
    saved = params.DEFAULT_PATH
    params.DEFAULT_PATH = toml
    try:
        return editions.recompute(md)
    finally:
        params.DEFAULT_PATH = saved


def pointed_at(toml: Path):
    def replace(source: str) -> str:
        assert "rl.load()" in source, "the parameter cell must start from rl.load()"
        return source.replace("rl.load()", f"rl.load({str(toml)!r})", 1)
    return replace


# ---------------------------------------------------------------- the tests

@pytest.mark.parametrize("md", SOURCES, ids=IDS)
def test_changed_parameters_flow_into_every_output(md, other_toml, tmp_path):
    nb = run(edition_with(md, pointed_at(other_toml)), tmp_path)
    student = editions.glued_of(nb)
    instructor = as_instructor(md, other_toml)
    changes = editions.value_changes(instructor, student, limit=20, source="the notebook shows")
    assert not changes, (f"{md.stem}: with other parameters in its parameter cell the notebook does not give what the "
                         "library gives for them (a cell below ignores the parameter cell?):\n" + "\n".join(changes))
    committed = editions.records(nbformat.read(md.with_suffix(".ipynb"), as_version=4), compared_only=True)
    if committed:
        assert editions.value_changes(committed, student), f"{md.stem}: nothing changed with other parameters"
    for name, bundle in committed.items():
        if "image/png" in bundle:
            assert student[name].get("image/png"), f"{md.stem}: figure {name!r} not redrawn"


def test_chapter_one_follows_a_typed_N(tmp_path):
    md = ROOT / "chapters" / "w4_1_intensity.md"
    nb = run(edition_with(md, lambda src: re.sub(r"^N = .*$", "N = 2048", src, count=1, flags=re.M)), tmp_path)
    glued = {k: {m: shown_text(v) if m == "text/plain" else v for m, v in b.items()} for k, b in editions.records(nb).items()}
    assert glued["N"]["text/plain"] == fmt.integer(2048) == "2,048"
    assert glued["I0"]["text/plain"] == fmt.decimal(kernels.matmul_no_reuse(2048, 4, 4).I, 6)
    assert "N = 2048" in glued["table-four"]["text/markdown"] or "2,048" in glued["table-four"]["text/markdown"]
    shown = [o["text/plain"] for c in nb.cells for o in (x.get("data", {}) for x in c.get("outputs", []))
             if "text/plain" in o]
    assert f"I0 = {glued['I0']['text/plain']}" in shown, "the student does not see the new value below the cell"


BAD = {   # parameter line → a bad value and the name the message must mention
    "N": ("N = -4096", "[MNK]"),    # M = N = K in the tile chapters: the general matmul names M first
    "L": ("L = 0", "L"),
    "preset": ('preset = course.preset("B200")', "B200"),
}


@pytest.mark.parametrize("md", SOURCES, ids=IDS)
def test_a_bad_parameter_stops_with_a_clear_message(md):
    source = editions.parameter_cell(editions.read_source(md)).source
    tried = 0
    for name, (bad, mentioned) in BAD.items():
        if not re.search(rf"^{name} = ", source, re.M):
            continue
        tried += 1
        with pytest.raises(editions.ChapterError) as caught:
            editions.recompute(md, re.sub(rf"^{name} = .*$", bad, source, count=1, flags=re.M))
        cause = caught.value.__cause__
        assert isinstance(cause, ValueError), f"{md.stem}: `{bad}` gave {caught.value}, not a ValueError"
        assert re.search(rf"\b{mentioned}\b", str(cause)), f"{md.stem}: `{bad}` → {cause!r} does not name {mentioned}"
    assert tried, f"{md.stem}: its parameter cell sets none of {', '.join(BAD)}: add a case to BAD"
