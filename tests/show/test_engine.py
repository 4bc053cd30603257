"""roofline.show.engine, the live mode's engine, and the book's Pyodide files, in Python.

The engine is what the page runs (in Pyodide) and what the build precomputes with. Here: it imports neither NumPy,
matplotlib nor IPython (checked with those three blocked in a fresh interpreter); a bad value gives the Korean
ParameterError naming its field, for every page's form; the explorers' precomputed states are the engine's output;
Pyodide is pinned and the wheel holds the model only. Each explorer's states against the model are tested with its
page (tests/pages/test_<page>.py).
"""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT
from coursebook.assets import explorer_data
from roofline.show import engine, why


def live(page, **values):
    return json.loads(engine.live(page, json.dumps({k: str(v) for k, v in values.items()})))


ALIKE = {"control": "cell", "typed": "cell"}   # a precomputed state names its control, the live mode the typed field


def resolved(state: dict, pool: dict, alike: dict | None = None) -> dict:
    """`state` with each number's entry id replaced by what its panel shows (the entry, its records linked in), an
    explorer's control and the live mode's typed field named alike: a record's id is its content
    (why.record_id), so the two name the same derivation by different ids. `alike`: more origins named alike
    (origin → name)."""
    def record(key):
        r = pool["r"][key]

        def origin(o):
            kind, _, what = (alike or {}).get(o, o).partition(":")
            return record(what) if kind == "derived" else f"{ALIKE.get(kind, kind)}:{what}"

        return {**r, "inputs": [{**x, "origin": origin(x["origin"])} for x in r["inputs"]],
                **({"origin": origin(r["origin"])} if "origin" in r else {})}

    def entry(found):   # an entry's id, a sentence's [[at, length, id], …], or 0
        if isinstance(found, list):
            return [[at, length, entry(key)] for at, length, key in found]
        return {**pool["g"][found], "of": record(pool["g"][found]["of"])} if found else found

    if "why" not in state:
        return state
    why_ = state["why"]
    fields = {k: entry(v) for k, v in why_.get("fields", {}).items()}
    tables = {k: [[entry(c) for c in row] for row in t] for k, t in why_.get("tables", {}).items()}
    return {**state, "why": {**({"fields": fields} if "fields" in why_ else {}),
                             **({"tables": tables} if "tables" in why_ else {})}}


def live_resolved(page, alike=None, **values):
    out = live(page, **values)
    return resolved(out["state"], out["why"], alike)


def test_engine_imports_without_numpy_matplotlib_ipython():
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name.split('.')[0] in ('numpy', 'matplotlib', 'IPython'):\n"
        "            raise ImportError('blocked ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import json\n"
        "from roofline.show import engine\n"
        "out = json.loads(engine.live('w4_2_roofline:roofline', json.dumps({'hardware': 'H100_SXM', 'dtype': 'BF16', 'N': '3000', "
        "'tiles': '[40, 75]'})))\n"
        "assert 'state' in out, out\n"
        "out = json.loads(engine.live('w4_4_tile_size:tile-size', json.dumps({'dtype': 'FP32', 'N': '3000', 'tiles': '[40, 75]', "
        "'threads': '384', 'gpu': 'T4', 'extra_registers': '40', 'T': '75', 'copies': '1'})))\n"
        "assert 'state' in out, out\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'matplotlib', 'IPython')))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


TILE = {"dtype": "FP32", "N": 3000, "tiles": "[40, 75]", "threads": 256, "gpu": "T4", "extra_registers": 32, "T": 75,
        "copies": 1}


@pytest.mark.parametrize("page, values, field", [
    ("roofline", {"hardware": "course", "dtype": "FP32", "N": 0, "tiles": "[32, 64]"}, "N"),
    ("roofline", {"hardware": "course", "dtype": "FP32", "N": 3000, "tiles": "[40, 64]"}, "tiles"),
    ("roofline", {"hardware": "T4", "dtype": "BF16", "N": 4096, "tiles": "[32, 64]"}, "dtype"),
    ("roofline", {"hardware": "H300", "dtype": "FP32", "N": 4096, "tiles": "[32, 64]"}, "hardware"),
    ("matmul", {"hardware": "course", "dtype": "FP32", "N": 3000, "tiles": "[40, 60]", "T": 64}, "T"),
    ("vector-add", {"hardware": "course", "dtype": "FP32", "L": "-5", "capacity": 10, "kP": 1, "kBW": 1, "kcap": 1}, "L"),
    ("vector-add", {"hardware": "course", "dtype": "FP32", "L": 5_000, "capacity": 2**30, "kP": 0, "kBW": 1, "kcap": 1}, "kP"),
    ("kernel", {"hardware": "course", "dtype": "FP32", "kernel": "matmul", "N": 3000, "T": 64, "t_ms": ""}, "T"),
    ("tile-size", {**TILE, "N": 0}, "N"),
    ("tile-size", {**TILE, "tiles": "[40, 64]"}, "tiles"),
    ("tile-size", {**TILE, "T": 64}, "T"),
    ("tile-size", {**TILE, "threads": 0}, "threads"),
    ("tile-size", {**TILE, "threads": "many"}, "threads"),
    ("tile-size", {**TILE, "gpu": "course"}, "gpu"),
    ("tile-size", {**TILE, "extra_registers": -1}, "extra_registers"),
    ("tile-size", {**TILE, "copies": 3}, "copies"),
    ("tile-size", {**TILE, "dtype": "FP12"}, "dtype"),
    ("kernel", {"hardware": "course", "dtype": "FP32", "kernel": "gemv", "M": "x", "K": 4, "t_ms": ""}, "M"),
    ("kernel", {"hardware": "course", "dtype": "FP32", "kernel": "gemv", "M": 4, "K": 4, "t_ms": "-1"}, "t_ms"),
])
def test_a_bad_value_names_its_field_in_korean(page, values, field):
    out = live(page, **values)
    assert "state" not in out
    assert out["field"] == field and out["error"].startswith(f"{field}: ")
    assert any("\uac00" <= ch <= "\ud7a3" for ch in out["error"])


def test_the_precomputed_states_are_the_engines(course):
    from roofline.show.pages import w4_2_roofline, w4_4_tile_size, w4_5_matmul, week3_vector_add

    def data(e):
        return explorer_data(e.html)[0]

    w4, w3 = course.week4, course.week3
    explorer = data(w4_2_roofline.roofline_explorer(w4))
    states, pool = explorer["parts"][0]["states"], explorer["why"]
    state = w4_2_roofline.roofline_state(w4.with_(hardware="H100_SXM", dtype="BF16"))
    alone: dict = {}
    state = json.loads(json.dumps(why.pooled(state, alone)))
    assert resolved(states["H100_SXM|BF16"], pool) == resolved(state, alone)   # its numbers name their records
    for key, state in states.items():
        hardware, dtype = key.split("|")
        assert resolved(state, pool) == live_resolved("roofline", hardware=hardware, dtype=dtype, N=w4.N,
                                                      tiles=list(w4.tiles))
    T = w4.tiles[1]
    explorer = data(w4_5_matmul.matmul_explorer(w4, T))
    assert resolved(explorer["parts"][0]["states"][f"{w4.N}|{T}"], explorer["why"]) == live_resolved(
        "matmul", hardware=w4.hardware, dtype=w4.dtype, N=w4.N, tiles=list(w4.tiles), T=T)
    T = w4.tiles[-1]
    tile = data(w4_4_tile_size.tile_explorer(w4, T))
    sizes, occ, cases = ({k: resolved(v, tile["why"]) for k, v in part["states"].items()} for part in tile["parts"])
    assert len(occ) == w4_4_tile_size.tile_options(w4).count
    for key, state in occ.items():
        t, copies, gpu = key.split("|")
        three = (sizes[f"{t}|{copies}"], state, cases[gpu])
        both = {k: {name: value for part in three for name, value in part.get(k, {}).items()}
                for k in ("fields", "widths", "flags", "tables", "predict")}
        if not both["predict"]:        # a state whose values are all in the page's tables asks nothing (issue 55)
            del both["predict"]
        both["why"] = {k: {name: value for part in three for name, value in part.get("why", {}).get(k, {}).items()}
                       for k in ("fields", "tables")}
        out = live_resolved("tile-size", dtype=w4.dtype, N=w4.N, tiles=list(w4.tiles), threads=w4.threads, gpu=gpu,
                            extra_registers=w4.extra_registers, T=t, copies=copies)
        assert out == both, key
    fields = dict((name, value) for name, _, value in tile["live"]["fields"])
    assert (fields["T"], fields["copies"], fields["gpu"]) == (str(T), "1", w4.gpu)
    parts = data(week3_vector_add.vector_explorer(w3))["parts"]
    both = {**parts[0]["states"]["4|1/2"]["fields"], **parts[1]["states"]["1/8"]["fields"], **parts[2]["states"][""]["fields"]}
    out = live("vector-add", hardware=w3.hardware, dtype=w3.dtype, L=w3.L, capacity=w3.capacity, kP=4, kBW="1/2",
               kcap="1/8")["state"]
    assert out["fields"] == both


def test_pyodide_is_pinned_and_the_wheel_holds_the_model_only():
    sys.path.insert(0, str(ROOT / "tools"))
    from coursebook import live as book_live

    folder = book_live.pyodide_files()
    tarball = folder / f"pyodide-{book_live.PYODIDE_VERSION}.tgz"
    assert hashlib.sha256(tarball.read_bytes()).hexdigest() == book_live.PYODIDE_SHA256
    name, data = book_live.wheel_bytes()
    assert name == "roofline_course-1.0.0-py3-none-any.whl"
    assert data == book_live.wheel_bytes()[1]          # the same sources give the same bytes
    import io
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert "roofline/show/engine.py" in names and "roofline/course.toml" in names
    assert "roofline/show/figures.py" in names   # the registry the page modules import (figures draw lazily)
    assert {n.split("/")[0] for n in names} == {"roofline", "roofline_course-1.0.0.dist-info"}


def test_my_kernel_default_example_is_the_engines(course):
    """The build shows "내 커널" for the chapter's machine and an N×N matmul with the middle tile: the same function."""
    from roofline.show.pages import w4_2_roofline

    w4 = course.week4
    e = w4_2_roofline.kernel_explorer(w4, course.week3, course.note)
    data = explorer_data(e.html)[0]
    T = w4.tiles[len(w4.tiles) // 2]
    engine_state = live_resolved("kernel", hardware=w4.hardware, dtype=w4.dtype, kernel="matmul", N=w4.N, T=T, t_ms="")
    assert "predict" in engine_state            # the live mode's predict part: the page's own state is shown as it is
    typed = {"toml:week4.N": "cell:N", "toml:week4.tiles": "cell:T"}   # the page's example: the file's N and T; the
    # live mode's: the sizes the reader typed (the same values)
    assert resolved(data["parts"][0]["states"][""], data["why"], typed) == {k: v for k, v in engine_state.items()
                                                                             if k != "predict"}
    fields = dict((name, value) for name, _, value in data["live"]["fields"])
    assert fields["L"] == f"{course.week3.L:_}" and fields["N"] == str(w4.N)
