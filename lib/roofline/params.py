"""The course parameters, read from one file (`course.toml`) and validated on load.

`load()` returns a `Course`; every chapter starts from it. A typo, a missing key,
a wrong type or an impossible value raises `ValueError` naming the key.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from .hardware import Preset, Roofline

DEFAULT_PATH = Path(__file__).with_name("course.toml")


@dataclass(frozen=True)
class Week4:
    """The week-4 problem: C = A @ B, all N×N, tile sides T, and the small example."""

    hardware: Roofline
    dtype: str
    s: int               # Byte per element (inputs, partial sums and output alike)
    N: int
    tiles: tuple[int, ...]
    small_N: int
    small_T: int


@dataclass(frozen=True)
class Week3:
    """The week-3 problem: vector add of length L."""

    hardware: Roofline
    dtype: str
    s: int
    L: int
    capacity: int   # memory capacity (Byte); the roofline model has none, it only decides what fits


@dataclass(frozen=True)
class Course:
    week4: Week4
    week3: Week3
    dtypes: dict[str, int]
    presets: dict[str, Preset]
    path: Path

    def preset(self, key: str) -> Preset:
        if key not in self.presets:
            raise ValueError(f"unknown preset {key!r}; known presets: {', '.join(self.presets)}")
        return self.presets[key]

    def bytes_per(self, dtype: str) -> int:
        if dtype not in self.dtypes:
            raise ValueError(f"unknown dtype {dtype!r}; known dtypes: {', '.join(self.dtypes)}")
        return self.dtypes[dtype]


def number(value, key: str) -> Fraction:
    """A TOML number as an exact Fraction (20e12 → 20000000000000, 3.35e12 exactly)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{key} must be a number, got {value!r}")
    exact = Fraction(value) if isinstance(value, int) else Fraction(repr(value))
    if exact <= 0:
        raise ValueError(f"{key} must be positive, got {value!r}")
    return exact


def positive_int(value, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"{key} must be a positive whole number, got {value!r}")
    return value


def text(value, key: str) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError(f"{key} must be a non-empty string, got {value!r}")
    return value


def check_keys(table: dict, key: str, required: set[str], optional: set[str] = frozenset()):
    if not isinstance(table, dict):
        raise ValueError(f"[{key}] must be a table, got {table!r}")
    unknown = set(table) - required - optional
    if unknown:
        allowed = ", ".join(sorted(required | optional))
        raise ValueError(f"unknown key(s) in [{key}]: {', '.join(sorted(unknown))}; allowed: {allowed}")
    missing = required - set(table)
    if missing:
        raise ValueError(f"missing key(s) in [{key}]: {', '.join(sorted(missing))}")


def parse_preset(key: str, table: dict, dtypes: dict[str, int]) -> Preset:
    where = f"presets.{key}"
    check_keys(table, where, {"name", "peak", "BW", "memory", "source"}, {"sparse", "SMs", "smem_per_SM"})
    peaks = {}
    for kind in ("peak", "sparse"):
        entries = table.get(kind, {})
        if not isinstance(entries, dict):
            raise ValueError(f"{where}.{kind} must be a table of dtype = FLOPs/s, got {entries!r}")
        for dtype in entries:
            if dtype not in dtypes:
                raise ValueError(f"{where}.{kind}.{dtype}: unknown dtype; known dtypes: {', '.join(dtypes)}")
        peaks[kind] = {d: number(v, f"{where}.{kind}.{d}") for d, v in entries.items()}
    if not peaks["peak"]:
        raise ValueError(f"{where}.peak must name at least one dtype")
    source = text(table["source"], f"{where}.source")
    if not source.startswith("https://"):
        raise ValueError(f"{where}.source must be an https:// URL, got {source!r}")
    optional_int = {k: positive_int(table[k], f"{where}.{k}") for k in ("SMs", "smem_per_SM") if k in table}
    return Preset(
        key=key,
        name=text(table["name"], f"{where}.name"),
        peak=peaks["peak"],
        sparse=peaks["sparse"],
        BW=number(table["BW"], f"{where}.BW"),
        memory=text(table["memory"], f"{where}.memory"),
        source=source,
        **optional_int,
    )


def machine(table: dict, where: str, presets: dict[str, Preset], dtypes: dict[str, int]):
    """(Roofline, dtype, Byte per element) for a week's `hardware` and `dtype` keys."""
    key = text(table["hardware"], f"{where}.hardware")
    if key not in presets:
        raise ValueError(f"{where}.hardware: unknown preset {key!r}; known presets: {', '.join(presets)}")
    dtype = text(table["dtype"], f"{where}.dtype")
    if dtype not in dtypes:
        raise ValueError(f"{where}.dtype: unknown dtype {dtype!r}; known dtypes: {', '.join(dtypes)}")
    if dtype not in presets[key].peak:
        raise ValueError(f"{where}: preset {key!r} has no {dtype} peak; it has: {', '.join(presets[key].peak)}")
    return presets[key].roofline(dtype), dtype, dtypes[dtype]


@dataclass(frozen=True)
class Note:
    """[note]: the matmul / FlashAttention note. Each sub-table is a dict of whole numbers (lists kept as tuples)."""

    hardware: Preset
    dtype: str
    s: int
    gpt3: dict
    attention: dict
    gemm: dict
    blas: dict
    cache: dict
    measure: dict
    flash_check: dict
    tensor_core: dict
    latency: dict


NOTE_KEYS = {  # sub-table → keys; a key in LISTS holds a non-empty list of whole numbers (or of pairs)
    "gpt3": {"d_model", "n_layers", "n_heads", "n_ctx", "n_vocab"},
    "attention": {"seq", "heads", "d_head", "layers"},
    "gemm": {"N", "K", "batches"},
    "blas": {"dtype", "n"},
    "cache": {"line", "tile", "K", "CPU_L1", "GPU_L1"},
    "measure": {"naive_N", "tiled_N", "T", "blas_N"},
    "flash_check": {"d", "N", "blocks"},
    "tensor_core": {"m", "n", "k", "align", "tc_per_SM", "tc_flops", "cuda_per_SM", "cuda_flops"},
    "latency": {"L1", "shared", "L2", "HBM"},
}
NOTE_LISTS = {"batches", "CPU_L1", "N", "blocks", "L1"}


def note(course: Course) -> Note:
    """Read and validate [note] of the course's parameter file (only the note chapter needs it)."""
    raw = tomllib.loads(course.path.read_text(encoding="utf-8"))
    if "note" not in raw:
        raise ValueError(f"{course.path}: the table [note] is missing")
    table = raw["note"]
    check_keys(table, "note", {"hardware", "dtype", *NOTE_KEYS})
    preset = course.preset(text(table["hardware"], "note.hardware"))
    dtype = text(table["dtype"], "note.dtype")
    preset.P(dtype)
    parts = {}
    for name, keys in NOTE_KEYS.items():
        check_keys(table[name], f"note.{name}", keys)
        part = {}
        for key, value in table[name].items():
            where = f"note.{name}.{key}"
            if key == "dtype":
                part[key] = text(value, where)
                part["s"] = course.bytes_per(value)
            elif key in NOTE_LISTS and (name, key) != ("gemm", "N"):
                if not isinstance(value, list) or not value:
                    raise ValueError(f"{where} must be a non-empty list, got {value!r}")
                if key == "blocks":
                    if not all(isinstance(v, list) and len(v) == 2 for v in value):
                        raise ValueError(f"{where} must be a list of [B_r, B_c] pairs, got {value!r}")
                    part[key] = tuple(tuple(positive_int(b, where) for b in v) for v in value)
                else:
                    part[key] = tuple(positive_int(v, where) for v in value)
            else:
                part[key] = positive_int(value, where)
        parts[name] = part
    if parts["cache"]["K"] % parts["cache"]["tile"]:
        raise ValueError("note.cache: K must be a multiple of tile")
    return Note(preset, dtype, course.bytes_per(dtype), **parts)


@dataclass(frozen=True)
class Week4Cache:
    """[week4_cache]: ③'s cache simulation of reuse across output tiles."""

    small_capacities: tuple[int, ...]   # small example: capacities in input tiles
    capacities: tuple[int, ...]         # N×N problem: capacities in Byte
    group_size_M: int                   # GROUP_SIZE_M of the grouped tile order


def week4_cache(course: Course) -> Week4Cache:
    """Read and validate [week4_cache] of the course's parameter file (only ③ needs it)."""
    raw = tomllib.loads(course.path.read_text(encoding="utf-8"))
    if "week4_cache" not in raw:
        raise ValueError(f"{course.path}: the table [week4_cache] is missing")
    table = raw["week4_cache"]
    check_keys(table, "week4_cache", {"small_capacities", "capacities", "group_size_M"})
    lists = {}
    for key in ("small_capacities", "capacities"):
        value = table[key]
        if not isinstance(value, list) or not value:
            raise ValueError(f"week4_cache.{key} must be a non-empty list of whole numbers, got {value!r}")
        lists[key] = tuple(positive_int(v, f"week4_cache.{key}") for v in value)
        if list(lists[key]) != sorted(set(lists[key])):
            raise ValueError(f"week4_cache.{key} must be distinct and increasing, got {value!r}")
    return Week4Cache(lists["small_capacities"], lists["capacities"],
                      positive_int(table["group_size_M"], "week4_cache.group_size_M"))


def load(path: str | Path | None = None) -> Course:
    """Read and validate the course parameters (default: the package's course.toml)."""
    path = Path(path) if path is not None else DEFAULT_PATH
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"{path}: not valid TOML: {err}") from err
    check_keys(raw, "course.toml", {"week4", "week3", "dtypes", "presets"}, {"note", "week4_cache"})

    dtypes = raw["dtypes"]
    check_keys(dtypes, "dtypes", set(dtypes))
    dtypes = {d: positive_int(v, f"dtypes.{d}") for d, v in dtypes.items()}
    if not isinstance(raw["presets"], dict) or not raw["presets"]:
        raise ValueError("[presets] must hold at least one preset")
    presets = {k: parse_preset(k, t, dtypes) for k, t in raw["presets"].items()}

    w4 = raw["week4"]
    check_keys(w4, "week4", {"hardware", "dtype", "N", "tiles", "small_N", "small_T"})
    hw4, dtype4, s4 = machine(w4, "week4", presets, dtypes)
    N = positive_int(w4["N"], "week4.N")
    if not isinstance(w4["tiles"], list) or not w4["tiles"]:
        raise ValueError(f"week4.tiles must be a non-empty list of tile sides, got {w4['tiles']!r}")
    tiles = tuple(positive_int(T, "week4.tiles") for T in w4["tiles"])
    for T in tiles:
        if N % T:
            raise ValueError(f"week4.tiles: N = {N} is not a multiple of T = {T}; every tile side must divide N")
    if list(tiles) != sorted(set(tiles)):
        raise ValueError(f"week4.tiles must be distinct and increasing, got {list(tiles)}")
    small_N = positive_int(w4["small_N"], "week4.small_N")
    small_T = positive_int(w4["small_T"], "week4.small_T")
    if small_N % small_T:
        raise ValueError(f"week4.small_T: small_N = {small_N} is not a multiple of small_T = {small_T}")

    w3 = raw["week3"]
    check_keys(w3, "week3", {"hardware", "dtype", "L", "capacity"})
    hw3, dtype3, s3 = machine(w3, "week3", presets, dtypes)

    return Course(
        week4=Week4(hw4, dtype4, s4, N, tiles, small_N, small_T),
        week3=Week3(hw3, dtype3, s3, positive_int(w3["L"], "week3.L"), positive_int(w3["capacity"], "week3.capacity")),
        dtypes=dtypes,
        presets=presets,
        path=path,
    )
