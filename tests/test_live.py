"""The live mode's engine (roofline.show.engine) and the book's Pyodide files, in Python.

The engine is what the page runs (in Pyodide) and what the build precomputes with: its states are compared
here with values computed directly from the model (kernels, cost, gemm) and fmt, its errors with the Korean
ParameterError naming the field, and the explorers' precomputed states with the engine's output. The engine
imports neither NumPy, matplotlib nor IPython (checked with those three blocked in a fresh interpreter).
"""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import zipfile
from fractions import Fraction
from pathlib import Path

import pytest

import roofline as rl
from roofline import buffers, gemm, kernels, occupancy
from roofline.cost import Timing
from roofline.show import engine, fmt, ko
from coursebook.assets import explorer_data

ROOT = Path(__file__).resolve().parents[1]
TERA = 10**12


@pytest.fixture(scope="module")
def course():
    return rl.load()


def live(page, **values):
    return json.loads(engine.live(page, json.dumps({k: str(v) for k, v in values.items()})))


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
        "out = json.loads(engine.live('roofline', json.dumps({'hardware': 'H100_SXM', 'dtype': 'BF16', 'N': '3000', "
        "'tiles': '[40, 75]'})))\n"
        "assert 'state' in out, out\n"
        "out = json.loads(engine.live('tile-size', json.dumps({'dtype': 'FP32', 'N': '3000', 'tiles': '[40, 75]', "
        "'threads': '384', 'gpu': 'T4', 'extra_registers': '40', 'T': '75', 'copies': '1'})))\n"
        "assert 'state' in out, out\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'matplotlib', 'IPython')))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def expected_roofline_rows(course, hardware, dtype, N, tiles):
    hw = course.catalog.roofline(hardware, dtype)
    s = course.dtypes[dtype]
    costs = [("재사용 없음", kernels.matmul_no_reuse(N, s, s))] + [(f"T = {T}", kernels.matmul_tiled(N, T, s, s)) for T in tiles]
    rows = []
    for label, cost in costs:
        t = Timing(cost, hw)
        rows.append([label.replace(" ", "\u00a0"), fmt.decimal(cost.I, 6), fmt.tera(t.R_roof, 6), fmt.ms(t.t_ideal, 6),
                     ("HBM 대역폭" if t.t_memory > t.t_compute else "연산 성능").replace(" ", "\u00a0")])
    return hw, rows


@pytest.mark.parametrize("hardware, dtype, N, tiles", [("H100_SXM", "BF16", 3000, [40, 75]), ("course", "FP32", 6144, [32, 96]),
                                                       ("T4", "FP16", 123, [3, 41])])
def test_roofline_state_is_the_model(course, hardware, dtype, N, tiles):
    out = live("roofline", hardware=hardware, dtype=dtype, N=N, tiles=tiles)["state"]
    hw, rows = expected_roofline_rows(course, hardware, dtype, N, tiles)
    assert out["tables"]["cases"]["rows"] == rows
    f = out["fields"]
    assert f["machine"] == f"{course.presets[hardware].name}, {dtype}"
    assert (f["P"], f["BW"], f["ridge"]) == (fmt.number(hw.P / TERA, 3), fmt.number(hw.BW / TERA, 3), fmt.number(hw.ridge, 3))
    plot = out["plots"]["roofline"]
    assert len(plot["y"]) == len(plot["series"]) == len(tiles) + 2
    assert plot["xrange"][0] < min(x for x in plot["x"]) * 1.0001


def test_matmul_state_is_the_model(course):
    out = live("matmul", hardware="course", dtype="FP32", N=3000, tiles=[40, 75], T=75)["state"]
    hw, s = course.catalog.roofline("course", "FP32"), 4
    base, chosen = Timing(kernels.matmul_no_reuse(3000, s, s), hw), Timing(kernels.matmul_tiled(3000, 75, s, s), hw)
    f = out["fields"]
    assert [f[f"r1-{j}"] for j in (1, 2, 3, 7)] == [fmt.integer(chosen.cost.F), fmt.integer(chosen.cost.Q),
                                                     fmt.decimal(chosen.cost.I, 6), fmt.ms(chosen.t_ideal, 6)]
    assert f["r1-9"] == fmt.ratio(base.t_ideal / chosen.t_ideal)
    assert f["r0-7"] == fmt.ms(base.t_ideal, 6)
    # the curve runs over the powers of two dividing 3000 (8) and the tiles
    assert out["plots"]["intensity"]["x"] == [8.0, 40.0, 75.0]


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


@pytest.mark.parametrize("kind, sizes, cost", [
    ("vector_add", {"L": 123_456_789}, lambda s: kernels.vector_add(123_456_789, s)),
    ("matmul", {"N": 3000, "T": 75}, lambda s: kernels.matmul_tiled(3000, 75, s, s)),
    ("gemv", {"M": 4096, "K": 8192}, lambda s: gemm.gemm(4096, 1, 8192, s)),
    ("batched_gemm", {"b": 16, "N": 4096, "K": 4096}, lambda s: gemm.gemm(16, 4096, 4096, s)),
    ("custom", {"F": 10**12, "Q": 10**9}, lambda s: rl.Cost(10**12, 10**9, 0)),
])
def test_my_kernel_is_the_model(course, kind, sizes, cost):
    out = live("kernel", hardware="H100_SXM", dtype="BF16", kernel=kind, t_ms="0.25", **sizes)["state"]
    hw = course.catalog.roofline("H100_SXM", "BF16")
    c = cost(course.dtypes["BF16"])
    t = Timing(c, hw)
    achieved = c.F / (Fraction(1, 4) / 1000)
    f = out["fields"]
    assert (f["k-F"], f["k-Q"], f["k-I"], f["k-R"], f["k-bound"]) == (
        fmt.integer(c.F), fmt.integer(c.Q), fmt.decimal(c.I, 6), fmt.tera(t.R_roof, 6), ko.bound(t))
    assert (f["k-achieved"], f["k-share"]) == (fmt.tera(achieved, 6), fmt.percent(achieved / t.R_roof, 1))
    assert out["flags"]["above"] is (achieved > t.R_roof)
    assert ("불가능한 값" in f["k-verdict"]) is (achieved > t.R_roof)


def test_my_kernel_without_a_time(course):
    f = live("kernel", hardware="T4", dtype="FP32", kernel="custom", F=1000, Q=10, t_ms="")["state"]["fields"]
    assert (f["k-achieved"], f["k-share"], f["k-verdict"]) == ("–", "–", "")


TILE_LIMITS = {"warps": "워프 수", "registers": "레지스터", "smem": "Shared Memory", "blocks": "블록 수"}


def expected_tile_occupancy(preset, T, s, copies, threads, extra) -> dict:
    """④'s occupancy cells computed here from roofline.occupancy.occupancy (the rules), not from tile_case."""
    smem = copies * 2 * s * T * T
    regs = -(-s * T * T // (4 * threads))
    sm = preset.sm
    want = {"smem": fmt.kib(smem), "regs": f"{regs} + {extra} = {regs + extra}"}
    if threads > sm.threads_per_block or smem > sm.smem_per_block or regs + extra > sm.registers_per_thread:
        return {**want, "blocks": "—", "occupancy": "—", "binding": "—"}
    r = occupancy.occupancy(preset, threads, regs + extra, smem)
    return {**want, "blocks": fmt.integer(r.blocks), "warps": f"{fmt.integer(r.warps)} / {fmt.integer(r.max_warps)}",
            "occupancy": fmt.percent(r.occupancy, 1), "binding": "·".join(TILE_LIMITS[k] for k in r.binding),
            **{f"lim-{k}": "제한 없음" if n is None else fmt.integer(n) for k, n in r.limits.items()}}


@pytest.mark.parametrize("dtype, N, tiles, threads, gpu, extra, T, copies", [
    ("FP32", 3000, [40, 75], 256, "T4", 32, 75, 1),
    ("FP32", 3000, [40, 75], 384, "H100_SXM", 40, 40, 2),
    ("BF16", 6144, [48, 96, 192], 96, "A100_SXM", 24, 192, 2),
    ("FP16", 1000, [8, 125], 2048, "H200_SXM", 16, 125, 1),     # over the threads per block: no number, the reason
    ("FP32", 4096, [32, 128], 32, "T4", 200, 128, 1),           # over the registers per thread
])
def test_tile_state_is_the_model(course, dtype, N, tiles, threads, gpu, extra, T, copies):
    out = live("tile-size", dtype=dtype, N=N, tiles=tiles, threads=threads, gpu=gpu, extra_registers=extra, T=T,
               copies=copies)["state"]
    preset, s = course.presets[gpu], course.dtypes[dtype]
    f = out["fields"]
    b = buffers.tile_buffers(T, T, T, s, s, copies)
    assert [f[f"b{j}"] for j in range(5)] == [f"{fmt.integer(b.A)} B ({fmt.kib(b.A)})", f"{fmt.integer(b.B)} B ({fmt.kib(b.B)})",
                                               fmt.kib(b.inputs), fmt.kib(b.acc), fmt.kib(b.total)]
    assert f["tile"] == f"T = {T}, {'단일 버퍼' if copies == 1 else '이중 버퍼링'}"
    want = expected_tile_occupancy(preset, T, s, copies, threads, extra)
    assert {k: f[k] for k in want} == want
    name = preset.name.split(" (")[0]
    if want["blocks"] == "—":
        assert "넘" in f["verdict"] and out["flags"]["misfit"] is True
    else:
        assert f["verdict"].startswith(f"{name}의 SM 하나에") and want["binding"] in f["verdict"]
    assert (f["dtype"], f["s"], f["gpu-name"], f["threads"], f["extra"]) == (dtype, str(s), name, fmt.integer(threads),
                                                                             fmt.integer(extra))
    rows = out["tables"]["tiles"]["rows"]
    assert [row[0] for row in rows] == [f"T\u00a0=\u00a0{fmt.integer(t)}" for t in tiles]
    for row, t in zip(rows, tiles):
        for cells, c in ((row[1:3], 1), (row[3:5], 2)):
            w = expected_tile_occupancy(preset, t, s, c, threads, extra)
            shown = [x.replace("\u00a0", " ") for x in cells]
            assert shown == (["올라가지 않음", "—"] if w["blocks"] == "—" else [f"{w['blocks']}개, {w['occupancy']}", w["binding"]])


def test_tile_form_is_the_parameter_cell():
    """④'s live form: the chapter's parameter-cell names with the same Korean comments, then the explorer's T and copies."""
    text = (ROOT / "chapters" / "w4_4_tile_size.md").read_text(encoding="utf-8")
    cell = text.split(":tags: [parameters", 1)[1].split("```", 1)[0]
    comments = {}
    for line in cell.splitlines():
        if "=" in line and "#" in line and not line.startswith("#"):
            name = line.split("=", 1)[0].strip()
            comments[name] = line.split("#", 1)[1].strip()
    fields = engine.form("tile-size").fields
    for name, label in fields:
        if name in comments:
            assert label == comments[name], name
    assert [n for n, _ in fields if n not in comments] == ["T", "copies"]
    assert {"dtype", "N", "tiles", "threads", "gpu", "extra_registers"} <= {n for n, _ in fields}


TILE = {"dtype": "FP32", "N": 3000, "tiles": "[40, 75]", "threads": 256, "gpu": "T4", "extra_registers": 32, "T": 75,
        "copies": 1}


@pytest.mark.parametrize("page, values, field", [
    ("roofline", {"hardware": "course", "dtype": "FP32", "N": 0, "tiles": "[32]"}, "N"),
    ("roofline", {"hardware": "course", "dtype": "FP32", "N": 3000, "tiles": "[40, 64]"}, "tiles"),
    ("roofline", {"hardware": "T4", "dtype": "BF16", "N": 4096, "tiles": "[32]"}, "dtype"),
    ("roofline", {"hardware": "H300", "dtype": "FP32", "N": 4096, "tiles": "[32]"}, "hardware"),
    ("matmul", {"hardware": "course", "dtype": "FP32", "N": 3000, "tiles": "[40]", "T": 64}, "T"),
    ("vector-add", {"hardware": "course", "dtype": "FP32", "L": "-5", "capacity": 10, "kP": 1, "kBW": 1, "kcap": 1}, "L"),
    ("vector-add", {"hardware": "course", "dtype": "FP32", "L": 5, "capacity": 10, "kP": 0, "kBW": 1, "kcap": 1}, "kP"),
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
    states = data(w4_2_roofline.roofline_explorer(w4))["parts"][0]["states"]
    assert states["H100_SXM|BF16"] == json.loads(json.dumps(w4_2_roofline.roofline_state(w4.with_(hardware="H100_SXM", dtype="BF16"))))
    for key, state in states.items():
        hardware, dtype = key.split("|")
        assert state == live("roofline", hardware=hardware, dtype=dtype, N=w4.N, tiles=list(w4.tiles))["state"]
    T = w4.tiles[1]
    states = data(w4_5_matmul.matmul_explorer(w4, T))["parts"][0]["states"]
    assert states[f"{w4.N}|{T}"] == live("matmul", hardware=w4.hardware_key, dtype=w4.dtype, N=w4.N,
                                           tiles=list(w4.tiles), T=T)["state"]
    T = w4.tiles[-1]
    tile = data(w4_4_tile_size.tile_explorer(w4, T))
    sizes, occ, cases = (part["states"] for part in tile["parts"])
    assert len(occ) == w4_4_tile_size.tile_options(w4).count
    for key, state in occ.items():
        t, copies, gpu = key.split("|")
        both = {k: {**sizes[f"{t}|{copies}"].get(k, {}), **state.get(k, {}), **cases[gpu].get(k, {})}
                for k in ("fields", "widths", "flags", "tables")}
        out = live("tile-size", dtype=w4.dtype, N=w4.N, tiles=list(w4.tiles), threads=w4.threads, gpu=gpu,
                   extra_registers=w4.extra_registers, T=t, copies=copies)["state"]
        assert out == both, key
    fields = dict((name, value) for name, _, value in tile["live"]["fields"])
    assert (fields["T"], fields["copies"], fields["gpu"]) == (str(T), "1", w4.gpu)
    parts = data(week3_vector_add.vector_explorer(w3))["parts"]
    both = {**parts[0]["states"]["4|1/2"]["fields"], **parts[1]["states"]["1/8"]["fields"], **parts[2]["states"][""]["fields"]}
    out = live("vector-add", hardware=w3.hardware_key, dtype=w3.dtype, L=w3.L, capacity=w3.capacity, kP=4, kBW="1/2",
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
    assert data["parts"][0]["states"][""] == live("kernel", hardware=w4.hardware_key, dtype=w4.dtype, kernel="matmul",
                                                  N=w4.N, T=T, t_ms="")["state"]
    fields = dict((name, value) for name, _, value in data["live"]["fields"])
    assert fields["L"] == f"{course.week3.L:_}" and fields["N"] == str(w4.N)
