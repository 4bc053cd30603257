"""Helpers shared by the tests that change the course or copy the repository (student, instructor, Colab)."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def inline(value) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {inline(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(inline(v) for v in value) + "]"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def set_value(text: str, table: str, key: str, value) -> str:
    """course.toml with `key` of [table] set to `value` (the line's comment kept)."""
    lines, current = text.split("\n"), None
    for number, line in enumerate(lines):
        header = re.match(r"^\[([^\]]+)\]", line)
        if header:
            current = header[1]
        elif current == table and re.match(rf"^{re.escape(key)}\s*=", line):
            comment = re.search(r"\s+#[^\"']*$", line)
            lines[number] = f"{key} = {inline(value)}" + (comment.group(0) if comment else "")
            return "\n".join(lines)
    raise KeyError(f"no {key} in [{table}] of course.toml")


def set_key(text: str, dotted: str, value) -> str:
    """course.toml with key `dotted` ("week4.N", "week4.cache.capacities", "note.attention.seq") set to `value`."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):   # the longest [table] prefix that is a table header of the file
        table, rest = ".".join(parts[:cut]), parts[cut:]
        if re.search(rf"^\[{re.escape(table)}\]", text, re.M):
            break
    else:
        raise KeyError(f"no table for {dotted} in course.toml")
    if len(rest) == 1:
        return set_value(text, table, rest[0], value)
    inline = tomllib.loads(text)
    for part in parts[:cut + 1]:
        inline = inline[part]
    return set_value(text, table, rest[0], {**inline, rest[1]: value})


NEW_PRESET = "L4"
NEW_PRESET_TABLE = f"""
[presets.{NEW_PRESET}]
name = "NVIDIA L4"
peak = {{ FP32 = 30.3e12, TF32 = 60e12, FP16 = 121e12, BF16 = 121e12, FP8 = 242.5e12, INT8 = 242.5e12 }}
sparse = {{ TF32 = 120e12, FP16 = 242e12, BF16 = 242e12, FP8 = 485e12, INT8 = 485e12 }}
BW = 300e9
memory = "GDDR6"
SMs = 58
smem_per_SM = 102_400      # 100 KiB
source = "https://www.nvidia.com/en-us/data-center/l4/"

[presets.{NEW_PRESET}.sm]   # Ada AD104, compute capability 8.9
compute_capability = "8.9"
warp_size = 32
threads_per_block = 1024
threads = 1536
warps = 48
blocks = 24
registers = 65_536
registers_per_block = 65_536
registers_per_thread = 255
register_unit = 256
register_partitions = 4
smem_per_block = 101_376   # 99 KiB (opt-in)
smem_reserved = 1_024
smem_unit = 128
source = "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#features-and-technical-specifications-technical-specifications-per-compute-capability"
architecture = "https://docs.nvidia.com/cuda/ada-tuning-guide/index.html"
"""


def next_term(text: str) -> str:
    """Next term's parameters: P 30 TFLOPs/s, BW 2.4 TB/s (ridge 12.5), N 2048, tiles 32/128/256, a 6×6 small
    example with 3×3 tiles, L 5×10⁷; a GPU preset of its own (L4), compared in ④ and the summary, and the note
    on it with a shorter sequence. Which week-4 tiles are memory-bound changes too."""
    raw = tomllib.loads(text)
    if NEW_PRESET not in raw.get("presets", {}):
        text = text.rstrip("\n") + "\n" + NEW_PRESET_TABLE
        raw = tomllib.loads(text)
    text = set_value(text, "presets.course", "peak", {**raw["presets"]["course"]["peak"], "FP32": 30e12})
    text = set_value(text, "presets.course", "BW", 2.4e12)
    text = set_value(text, "week4", "N", 2048)
    text = set_value(text, "week4", "tiles", [32, 128, 256])
    text = set_value(text, "week4", "small_N", 6)
    text = set_value(text, "week4", "small_T", 3)
    text = set_value(text, "week3", "L", 50_000_000)
    text = set_value(text, "week4", "gpus", [raw["week4"]["gpus"][0], NEW_PRESET])
    if "note" in raw:
        text = set_value(text, "note", "hardware", NEW_PRESET)
        text = set_value(text, "note", "attention", {**raw["note"]["attention"], "seq": 2048})
    return text
