"""④ tile size (chapters/w4_4_tile_size.md, roofline.show.pages.w4_4_tile_size): the page's tables, sentences and
glued values, its box against its explorer, and the explorer's states and form in Python.
"""
from __future__ import annotations

import json
import re

import pytest

from conftest import CHAPTERS, seed_page
from coursebook import derivations as site_why
from roofline import buffers, kernels, occupancy
from roofline.show import engine, fmt, why
from roofline.show.pages import w4_4_tile_size as tile_size


def test_tile_size_page_values():
    g = seed_page("w4_4_tile_size")
    for cell in ("4,096 B (4 KiB)", "16,384 B (16 KiB)", "65,536 B (64 KiB)", "| 12 KiB |", "| 48 KiB |", "| 192 KiB |"):
        assert cell in g["table-single"]
    assert "| 256 KiB |" in g["table-double"] and "| 320 KiB |" in g["table-double"]
    assert (g["outputs-small"], g["threads"], g["per-thread-small"], g["outputs-big"]) == ("1,024", "256", "4", "16,384")
    assert (g["scalar-in"], g["scalar-acc"], g["scalar-total"]) == ("8", "4", "12")
    assert "2{,}097{,}152" in g["cancel"] and g["table-tk"].count("8,589,934,592") == 6
    assert (g["t-compute"], g["t-memory"], g["I-big"], g["ridge"]) == ("6.872", "4.362", "31.508", "20")
    assert g["big-verdict"].startswith("I가 분기점을 넘었으므로 T = 128 타일은 연산 한계다")
    assert "compute-tiles" not in g          # the verdict says it once, not three times
    assert (g["q-two-full"], g["q-two-full-verdict"], g["q-acc"], g["q-smem"]) == ("256 KiB", "넘는다", "64 KiB", "227 KiB")
    assert g["q-fit"].startswith("N의 약수 가운데 들어가는 가장 큰 T_K는 64다. 그때 두 벌의 입력 버퍼는 128 KiB다.")
    assert g["storage-dtype"] == "FP32면"
    assert "| 6개, 75.0% | 레지스터 |" in g["table-resident"] and "올라가지 않음" in g["table-resident"]
    assert "| 1개, 12.5% | Shared Memory |" in g["table-resident"]
    assert g["occ-headline"].startswith("NVIDIA H100 SXM의 SM 하나에는 입력을 단일 버퍼로 둔 T = 128 타일의 블록이 1개")
    assert "min(8, 2, 1, 32) = 1" in g["occ-step-7"] and g["occ-verdict"].startswith("가장 작은 한도는 Shared Memory다.")


def test_tile_size_box_and_explorer_agree():
    """The box above the explorer and the explorer speak of the same resident blocks (no 'real limits are lower')."""
    md = (CHAPTERS / "w4_4_tile_size.md").read_text(encoding="utf-8")
    assert "실제 한도는 이보다 낮을 수 있다" not in md and "Shared Memory로 본" not in md
    assert "`nvcc -Xptxas -v`" in md and "**가정**" in md
    g = seed_page("w4_4_tile_size")
    assert g["misfits"].endswith("블록이 하나도 올라가지 않는다.") and "버퍼링다" not in g["misfits"]
    prose = re.sub(r"```\{code-cell\}.*?\n```", "", md.split("\n---\n", 1)[1], flags=re.S)
    assert "kernels" not in prose and "matmul_tiles" not in prose


def test_occupancy_tables_and_sentences(seed):
    """④'s occupancy words from roofline.occupancy: the box's table and sentence, the worked example, the limits."""
    w4 = seed.week4
    gpus = [w4.catalog.preset(k) for k in ("H100_SXM", "T4")]
    cases = {(g.key, T, c): occupancy.tile_case(g, T, 4, c, 256, 32) for g in gpus for T in (32, 64, 128) for c in (1, 2)}
    assert tile_size.occupancy_misfits(gpus, cases, why.sources(w4)) == (
        "NVIDIA H100 SXM에서 T = 128을 이중 버퍼링하면, 그리고 NVIDIA T4에서 T = 128이면 단일 버퍼든 이중 버퍼링이든 "
        "블록이 하나도 올라가지 않는다.")
    small = {k: v for k, v in cases.items() if k[1] == 32}
    assert tile_size.occupancy_misfits(gpus, small, why.sources(w4)) == "이 표의 경우는 모두 SM 하나에 블록이 하나 이상 올라간다."
    table = tile_size.gpus_table(gpus, cases).data.replace("\u00a0", " ")
    assert "| NVIDIA T4 | T = 32 | 4개, 100.0% | 워프 수 | 4개, 100.0% | 워프 수·Shared Memory |" in table
    assert "| NVIDIA H100 SXM | T = 128 | 1개, 12.5% | Shared Memory | 올라가지 않음 | — |" in table
    assert "(Colab" not in table
    h100 = gpus[0]
    own = [occupancy.tile_case(h100, T, 4, c, 256, 32) for T in (32, 64, 128) for c in (1, 2)]
    worked = tile_size.worked_case(own)
    assert (worked.T, worked.copies) == (128, 1)
    lines = tile_size.worked_steps(h100, worked, w4)
    steps = "\n".join(lines.values())
    for part in ("중간 합 64개 + 여유분 32개 = 96개", "⌈256 ÷ 32⌉ = 8개", "⌊64 ÷ 8⌋ = 8",
                 "⌈96 × 32 ÷ 256⌉ × 256 = 3,072개", "⌊20 ÷ 8⌋ = 2", "⌈(131,072 + 예약 1,024) ÷ 128⌉ × 128 = 132,096 Byte",
                 "⌊233,472 ÷ 132,096⌋ = 1", "min(8, 2, 1, 32) = 1", "8 ÷ 64 = 12.5%"):
        assert part in steps, part
    for line in lines.values():   # every number of the worked example is a button with its record
        assert [p["length"] for p in line.why["parts"]], line
        assert not site_why.uncovered(line, line.why), line
    assert tile_size.worked_verdict(h100, worked, w4).startswith("가장 작은 한도는 Shared Memory다.")
    headline = tile_size.occupancy_headline(h100, worked, w4)
    assert headline.startswith(
        "NVIDIA H100 SXM의 SM 하나에는 입력을 단일 버퍼로 둔 T = 128 타일의 블록이 1개 상주하고, 점유율은 12.5%다.")
    assert [p["shown"] for p in headline.why["parts"]] == ["128", "1", "12.5%"]   # each number with its record
    words = tile_size.occupancy_words(own[-1], h100)
    assert words["blocks"] == "—" and words["verdict"].startswith("블록당 Shared Memory(입력 버퍼) 256 KiB가 블록 하나의 최대 227 KiB를 넘어")
    over = occupancy.tile_case(h100, 256, 4, 1, 64, 32)
    assert over.over == "smem"
    over = occupancy.tile_case(h100, 128, 4, 1, 64, 32)     # 256 partial sums per thread
    assert over.over == "registers" and "한도 255개를 넘는다" in tile_size.occupancy_words(over, h100)["verdict"]
    limits = tile_size.sm_table(h100).data
    assert "| 블록 하나의 최대 Shared Memory (opt-in) | 227 KiB |" in limits and "| SM당 최대 상주 블록 | 32 |" in limits


def test_k_widths():
    assert tile_size.k_widths(4096, 64) == [8, 16, 32, 64, 128, 256]
    assert tile_size.k_widths(96, 12) == [3, 6, 12, 24, 48]
    assert tile_size.k_widths(64, 64) == [8, 16, 32, 64]


def test_k_width_table_reads_the_same_for_every_width():
    N, T, s = 4096, 64, 4
    by = {T_K: kernels.matmul_tiles(N, N, N, T, T, T_K, s, s) for T_K in tile_size.k_widths(N, T)}
    table = tile_size.k_width_table(N, T, s, by).data
    assert table.count("| 8,589,934,592 |") == 6 and table.count("| 2,097,152 |") == 6
    assert "| T_K = 8 | 512 | 4,096 | 2,097,152 | 8,589,934,592 | 4 KiB | 16 KiB |" in table.replace("\u00a0", " ")
    assert r"2{,}097{,}152" in tile_size.cancel_math(N, T, s).data


def test_per_thread_and_verdict(seed_cases):
    assert tile_size.per_thread(1024, 256) == "4" and tile_size.per_thread(16384, 256) == "64"
    assert tile_size.per_thread(1000, 256) == "3.91"
    assert tile_size.big_verdict(seed_cases[-1].timing, 128, {"T": "toml:week4.tiles"}).startswith("I가 분기점을 넘었으므로 T = 128 타일은 연산 한계다.")
    assert tile_size.big_verdict(seed_cases[-2].timing, 64, {"T": "toml:week4.tiles"}).startswith("I가 아직 분기점에 못 미치므로 T = 64 타일도 메모리 한계다.")


def test_storage_and_buffer_tables():
    assert "| A 입력 조각 | T_M×T_K | 4·T_M·T_K Byte |" in tile_size.storage_table(4, "FP32").data
    single = {T: buffers.tile_buffers(T, T, T, 4, 4) for T in (32, 128)}
    double = {T: buffers.tile_buffers(T, T, T, 4, 4, 2) for T in (32, 128)}
    assert "| T = 128 | 65,536 B (64 KiB) | 65,536 B (64 KiB) | 128 KiB | 64 KiB | 192 KiB |" in \
        tile_size.buffer_table(single).data.replace("\u00a0", " ")
    assert "| T = 128 | 128 KiB | 256 KiB | 64 KiB | 192 KiB | 320 KiB |" in \
        tile_size.double_table(single, double).data.replace("\u00a0", " ")


def live(page, **values):
    return json.loads(engine.live(page, json.dumps({k: str(v) for k, v in values.items()})))


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
    text = (CHAPTERS / "w4_4_tile_size.md").read_text(encoding="utf-8")
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


class _Number(str):
    """A TOML float as written (66.9e12), so that the copy reads exactly as the original."""


def _toml(value) -> str:
    """A value of a parameter file as TOML."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str) and not isinstance(value, _Number):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def with_preset_copy(text: str, key: str, new: str) -> str:
    """The parameter file `text` with preset `key`'s tables once more under the name `new` (its name marked)."""
    import tomllib

    raw = tomllib.loads(text, parse_float=_Number)["presets"][key]
    top = {k: v for k, v in raw.items() if k != "sm"}
    top["name"] = f"{top['name']} ({new})"
    lines = [f"\n[presets.{new}]"] + [f"{k} = {_toml(v)}" for k, v in top.items()]
    if "sm" in raw:
        lines += [f"\n[presets.{new}.sm]"] + [f"{k} = {_toml(v)}" for k, v in raw["sm"].items()]
    return text.rstrip("\n") + "\n" + "\n".join(lines) + "\n"


def test_a_preset_needs_only_its_table(tmp_path, course):
    """Every preset with per-SM limits is ④'s GPU choice, in course.toml's order, and can be the page's `gpu` and in its
    `gpus`; a preset added to course.toml (its table, nothing else) is offered, its states computed, at once."""
    import roofline
    from conftest import LIVE_TOML

    w4 = course.week4
    gpus = [k for k, p in course.presets.items() if p.sm]
    assert list(tile_size.tile_options(w4).gpus) == gpus
    for key in gpus:
        at = w4.with_(gpu=key, gpus=[key])
        assert tile_size.occupancy_section(at)["occ-gpu"].startswith(tile_size.gpu_name(course.presets[key]))
        assert tile_size.gpu_name(course.presets[key]) in tile_size.residency_section(at)["table-resident"].data.replace("\u00a0", " ")
        assert tile_size.k_width_question_section(at)["q-gpu"] == course.presets[key].name
    new = "ADDED"
    while new in course.presets:               # a key no term has
        new += "_X"
    path = tmp_path / "course.toml"
    path.write_text(with_preset_copy(LIVE_TOML.read_text(encoding="utf-8"), gpus[0], new), encoding="utf-8")
    added = roofline.load(path)
    options = tile_size.tile_options(added.week4)
    assert options.gpus == (*gpus, new)
    explorer = tile_size.tile_explorer(added.week4.with_(gpu=new), added.week4.tiles[-1])
    assert explorer.states == len(options.Ts) * 2 * len(options.gpus)
    assert f'value="{new}"' in explorer.html


def test_a_tile_over_the_block_maximum_names_the_buffers_it_compares(seed):
    """The sentence for a tile whose input buffers pass the per-block maximum names them as the table does
    ("블록당 Shared Memory(입력 버퍼)"): the record called "블록당 Shared Memory" adds the reserved 1 KiB and holds another
    value (a student who opened both read 1,024 KiB and 1,025 KiB under one name)."""
    w4 = seed.week4
    for key in ("H100_SXM", "RTX_A6000"):
        gpu = w4.catalog.preset(key)
        case = occupancy.tile_case(gpu, 256, 4, 2, 256, 32)
        assert case.over == "smem"
        for made in (tile_size.over_text(case, gpu), tile_size.over_text(case, gpu, w4)):
            assert str(made).startswith(f"블록당 Shared Memory(입력 버퍼) {fmt.kib(case.smem)}"), made
