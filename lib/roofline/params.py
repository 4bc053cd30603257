"""The course parameters: read once from one file (`course.toml`), validated, handed on as values.

`load()` parses every table of the file and returns a `Course`: the week-4 problem (`Week4`), the week-3
problem (`Week3`), the FlashAttention note's problem (`Note`) and the `Catalog` of data types and hardware
presets. Nothing below `load()` reads the file again: tables and figures get a problem object.

Each problem is declared once, as a dataclass whose fields are its parameters: `param(check, about)` says how a
value is checked and what it means (Korean), and a field whose type is a small dataclass of parameters is a
sub-table of the file (`Week4.cache` is `[week4.cache]`, `Note.attention` is `note.attention = { … }`). From
that one field table come the loading, `with_`, the parameter cells the tooling writes (`cell_fields`), the
staleness check and the error messages. Adding a parameter is one line in its class (and, if a chapter shows
it, one line of that chapter's parameter cell).

A chapter's parameter cell holds plain literals (`N = 4096`); `course.week4.with_(N=N, …)` checks them with
the same rules as the file and returns the problem the rest of the chapter uses.

Every bad value raises `ParameterError` (a ValueError) whose Korean message names the key
(`week4.N`, `week4.cache.capacities`) or the cell variable (`N`).
"""
from __future__ import annotations

import dataclasses
import functools
import os
import re
import tomllib
import typing
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Callable

from roofline.errors import ParameterError, check_divides, choice, int_list, positive_int, positive_number, shown, text
from roofline.hardware import Preset, Roofline, SMLimits

DEFAULT_PATH = Path(__file__).with_name("course.toml")
ENVIRONMENT = "ROOFLINE_COURSE"   # another parameter file for `load()` (the tooling runs a chapter for another term)


# ---------------------------------------------------------------- ranges

@dataclass(frozen=True)
class Range:
    """The values one parameter may take, lo ≤ value ≤ hi (each number of a list), and why the ends are there:
    what the model and the build machine compute in bounded time and memory (no value makes a chapter run for
    more than a minute or hold more than 2 GB), or what a real course's machine can be. `slip`: what a value below
    `lo` almost surely is (a unit slip: 1.0 for 1 TB/s written where Byte/s is meant), said with the unit.
    docs/parameters.md lists every one (generated from this table: tools/coursebook/paramdoc.py)."""

    lo: int | Fraction
    hi: int | Fraction
    why: str
    unit: str = ""
    slip: str = ""

    def check(self, value, where: str, above_only: bool = False):
        """`value` (a number or a list of them, nested) if every number lies in the range, else ParameterError
        naming `where`, the range and the value (`above_only`: only a number above the range)."""
        for number in _numbers(value):
            if number > self.hi or not above_only and number < self.lo:
                unit = f" {self.unit}" if self.unit else ""
                slip = f" {self.slip}" if number < self.lo and self.slip else ""
                raise ParameterError(f"{where}: {plain_number(self.lo)}{unit} 이상 {plain_number(self.hi)}{unit} "
                                     f"이하여야 한다 ({self.why}). 받은 값: {plain_number(number)}{unit}.{slip}")
        return value


def _numbers(value):
    if isinstance(value, (list, tuple)):
        for item in value:
            yield from _numbers(item)
    elif isinstance(value, (int, Fraction)) and not isinstance(value, bool):
        yield value


def plain_number(value) -> str:
    """4,096 or 1e+12 (a message's number: exact for whole numbers up to 10¹², else three digits)."""
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{float(value):.3g}"
    value = int(value)
    return f"{value:,}" if abs(value) < 10**12 else f"{float(value):.3g}"


KiB, MiB, TiB = 2**10, 2**20, 2**40
# a machine's two numbers, in the units the file uses: below 1 GFLOP/s or 1 GB/s is another unit written as a number
PEAK_RANGE = Range(10**9, 10**19, "최대 성능 1 GFLOP/s부터 10 EFLOP/s까지: 이보다 작거나 크면 단위 실수다", "FLOPs/s",
                   "FLOPs/s로 적는다: 20 TFLOP/s는 20e12")
BW_RANGE = Range(10**9, 10**16, "대역폭 1 GB/s부터 10 PB/s까지: 이보다 작거나 크면 단위 실수다", "Byte/s",
                 "Byte/s로 적는다: 1 TB/s는 1e12, 320 GB/s는 320e9")
DTYPE_RANGE = Range(1, 16, "원소 하나의 Byte: FP8의 1부터 FP128의 16까지", "Byte")
SM_RANGES = {
    "SMs": Range(1, 1024, "GPU 하나의 SM 수"),
    "smem_per_SM": Range(KiB, 16 * MiB, "SM 하나의 Shared Memory (Byte): 1 KiB부터 16 MiB까지", "Byte",
                         "Byte로 적는다: 228 KiB는 233_472"),
    "warp_size": Range(1, 128, "워프 하나의 스레드"),
    "threads_per_block": Range(1, 8192, "블록 하나의 스레드"),
    "threads": Range(1, 16384, "SM에 상주하는 스레드"),
    "warps": Range(1, 1024, "SM에 상주하는 워프"),
    "blocks": Range(1, 1024, "SM에 상주하는 블록"),
    "registers": Range(1, 2**20, "SM의 32비트 레지스터"),
    "registers_per_block": Range(1, 2**20, "블록 하나의 레지스터"),
    "registers_per_thread": Range(1, 1024, "스레드 하나의 레지스터"),
    "register_unit": Range(1, 4096, "워프 하나의 레지스터 할당 단위"),
    "register_partitions": Range(1, 64, "SM 분할 수"),
    "smem_per_block": Range(1, 16 * MiB, "블록 하나의 Shared Memory (Byte)", "Byte"),
    "smem_reserved": Range(0, 64 * KiB, "블록마다 예약하는 Shared Memory (Byte)", "Byte"),
    "smem_unit": Range(1, 64 * KiB, "Shared Memory 할당 단위 (Byte)", "Byte"),
}


# ---------------------------------------------------------------- data types and presets

@dataclass(frozen=True)
class Catalog:
    """What the parameter file knows about data types (Byte per element) and machines (presets)."""

    dtypes: dict[str, int]
    presets: dict[str, Preset]

    def preset(self, key: str, where: str = "hardware") -> Preset:
        return self.presets[choice(key, where, self.presets, "하드웨어 프리셋")]

    def bytes_per(self, dtype: str, where: str = "dtype") -> int:
        return self.dtypes[choice(dtype, where, self.dtypes, "자료형")]

    def roofline(self, hardware: str, dtype: str, where_hw: str = "hardware", where_dtype: str = "dtype") -> Roofline:
        """Roofline(P, BW) of preset `hardware` for `dtype`, which the preset must have a peak for."""
        preset = self.preset(hardware, where_hw)
        self.bytes_per(dtype, where_dtype)
        if dtype not in preset.peak:
            raise ParameterError(f"{where_dtype}: 하드웨어 {shown(hardware)}에는 {dtype} 최대 성능이 없다. "
                                 f"쓸 수 있는 자료형: {', '.join(preset.peak)}")
        return preset.roofline(dtype)


def check_keys(table, where: str, required, optional=(), about: dict | None = None) -> dict:
    """`table` must be a TOML table holding every key of `required` and no key outside `required | optional`
    (`about`: key → what it means, named with a missing key)."""
    if not isinstance(table, dict):
        raise ParameterError(f"[{where}]: 표(table)여야 한다. 받은 값: {shown(table)}")
    allowed = set(required) | set(optional)
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise ParameterError(f"[{where}]: 모르는 키 {', '.join(unknown)}. 쓸 수 있는 키: {', '.join(sorted(allowed))}")
    missing = sorted(set(required) - set(table))
    if missing:
        about = about or {}
        raise ParameterError(f"[{where}]: 빠진 키 {', '.join(k + (f' ({about[k]})' if k in about else '') for k in missing)}")
    return table


SM_COUNTS = ("warp_size", "threads_per_block", "threads", "warps", "blocks", "registers", "registers_per_block",
             "registers_per_thread", "register_unit", "register_partitions", "smem_per_block", "smem_unit")
SM_KEYS = ("compute_capability", *SM_COUNTS, "smem_reserved", "source", "architecture")


def _https(value, where: str) -> str:
    url = text(value, where)
    if not url.startswith("https://"):
        raise ParameterError(f"{where}: https:// 주소여야 한다. 받은 값: {shown(url)}")
    return url


def parse_sm(key: str, table, smem_per_SM: int | None) -> SMLimits:
    """[presets.KEY.sm]: an NVIDIA GPU's per-SM limits; every count a whole number, each rule checked."""
    where = f"presets.{key}.sm"
    check_keys(table, where, SM_KEYS)
    if smem_per_SM is None:
        raise ParameterError(f"{where}: SM 한도를 쓰려면 presets.{key}.smem_per_SM도 있어야 한다")
    cc = text(table["compute_capability"], f"{where}.compute_capability")
    if not re.fullmatch(r"[1-9]\d?\.\d", cc):
        raise ParameterError(f"{where}.compute_capability: \"9.0\"처럼 주.부 번호여야 한다. 받은 값: {shown(cc)}")
    counts = {k: SM_RANGES[k].check(positive_int(table[k], f"{where}.{k}"), f"{where}.{k}") for k in SM_COUNTS}
    reserved = table["smem_reserved"]
    if isinstance(reserved, bool) or not isinstance(reserved, int) or reserved < 0:
        raise ParameterError(f"{where}.smem_reserved: 0 이상의 정수여야 한다. 받은 값: {shown(reserved)}")
    SM_RANGES["smem_reserved"].check(reserved, f"{where}.smem_reserved")
    if counts["warps"] * counts["warp_size"] != counts["threads"]:
        raise ParameterError(f"{where}.warps: warps × warp_size = threads여야 한다. 받은 값: {counts['warps']} × "
                             f"{counts['warp_size']} ≠ {counts['threads']}")
    if counts["registers"] % counts["register_partitions"]:
        raise ParameterError(f"{where}.register_partitions: registers = {counts['registers']}의 약수여야 한다. "
                             f"받은 값: {counts['register_partitions']}")
    if counts["smem_per_block"] + reserved > smem_per_SM:
        raise ParameterError(f"{where}.smem_per_block: smem_per_block + smem_reserved가 smem_per_SM = {smem_per_SM}보다 "
                             f"클 수 없다. 받은 값: {counts['smem_per_block']} + {reserved}")
    if counts["threads_per_block"] > counts["threads"]:
        raise ParameterError(f"{where}.threads_per_block: threads = {counts['threads']}보다 클 수 없다. "
                             f"받은 값: {counts['threads_per_block']}")
    return SMLimits(compute_capability=cc, smem=smem_per_SM, smem_reserved=reserved,
                    source=_https(table["source"], f"{where}.source"),
                    architecture=_https(table["architecture"], f"{where}.architecture"), **counts)


# what the site's typesetting would change in a name it shows (Sphinx's smart quotes turn " ' -- ... into “ ’ – …, and
# Markdown reads ` * _ [ ] < > \\ as markup): the page would then differ from the record the build checks it against
UNSAFE_TEXT = ('"', "'", "`", "--", "...", "*", "_", "[", "]", "<", ">", "\\", "$", "{", "}", "|")


def plain_text(value, where: str) -> str:
    """A name the pages show word for word: a non-empty one-line string of at most 60 characters without any of
    UNSAFE_TEXT."""
    value = text(value, where)
    bad = [t for t in UNSAFE_TEXT if t in value]
    if bad or "\n" in value or len(value) > 60:
        why = (f"글자 {' '.join(bad)}는 쓸 수 없다 (사이트가 따옴표·기호를 바꾸거나 마크업으로 읽는다)" if bad else
               "한 줄, 60자 이하여야 한다")
        raise ParameterError(f"{where}: {why}. 받은 값: {shown(value)}")
    return value


CLOCK_KEYS = ("smem_per_clock", "fp32_per_clock")   # Byte and FP32 FLOPs per clock of one SM (roofline.hierarchy)


def parse_clock_keys(where: str, table, counts: dict, peak: dict) -> dict:
    """Both or neither of CLOCK_KEYS, whole and positive; with them the preset needs SMs and an FP32 peak (the clock
    is P_FP32 / (SMs · fp32_per_clock))."""
    given = {k: positive_int(table[k], f"{where}.{k}") for k in CLOCK_KEYS if k in table}
    if given and (len(given) < len(CLOCK_KEYS) or "SMs" not in counts or "FP32" not in peak):
        raise ParameterError(f"{where}: smem_per_clock를 쓰려면 fp32_per_clock, SMs, peak.FP32가 함께 있어야 한다")
    return given


def parse_preset(key: str, table, dtypes: dict[str, int]) -> Preset:
    where = f"presets.{key}"
    check_keys(table, where, {"name", "peak", "BW", "memory", "source"},
               {"sparse", "cuda", "SMs", "smem_per_SM", "sm", *CLOCK_KEYS})
    peaks = {}
    for kind in ("peak", "sparse", "cuda"):
        entries = table.get(kind, {})
        if not isinstance(entries, dict):
            raise ParameterError(f"{where}.{kind}: 자료형 = FLOPs/s 꼴의 표여야 한다. 받은 값: {shown(entries)}")
        for dtype in entries:
            choice(dtype, f"{where}.{kind}.{dtype}", dtypes, "자료형")
        peaks[kind] = {d: PEAK_RANGE.check(positive_number(v, f"{where}.{kind}.{d}"), f"{where}.{kind}.{d}")
                       for d, v in entries.items()}
    if not peaks["peak"]:
        raise ParameterError(f"{where}.peak: 자료형을 하나 이상 적어야 한다")
    source = _https(table["source"], f"{where}.source")
    counts = {k: SM_RANGES[k].check(positive_int(table[k], f"{where}.{k}"), f"{where}.{k}")
              for k in ("SMs", "smem_per_SM") if k in table}
    if "sm" in table:
        counts["sm"] = parse_sm(key, table["sm"], counts.get("smem_per_SM"))
    counts.update(parse_clock_keys(where, table, counts, peaks["peak"]))
    return Preset(key=key, name=plain_text(table["name"], f"{where}.name"), peak=peaks["peak"], sparse=peaks["sparse"],
                  cuda=peaks["cuda"],
                  BW=BW_RANGE.check(positive_number(table["BW"], f"{where}.BW"), f"{where}.BW"),
                  memory=plain_text(table["memory"], f"{where}.memory"),
                  source=source, **counts)


# ---------------------------------------------------------------- the field tables

@dataclass(frozen=True)
class Field:
    """One parameter: its `key` in the problem's table of course.toml (`N`, `cache.capacities`), the object's
    attribute path (`attr`), the `check` that turns a file's or cell's value into the model's, what it means
    (`about`, Korean), and whether a chapter's parameter cell may set it (as the variable `cell`)."""

    table: str
    key: str
    attr: tuple[str, ...]
    check: Callable
    about: str
    cell: str | None
    range: Range | None = None

    @property
    def path(self) -> str:
        """The key as the file names it: `week4.N`, `week4.cache.capacities`, `note.attention.seq`."""
        return f"{self.table}.{self.key}"

    def of(self, problem):
        """This parameter's value in `problem`."""
        value = problem
        for name in self.attr:
            value = getattr(value, name)
        return value


def param(check: Callable, about: str, *, cell: bool = True, range: Range | None = None):
    """A parameter field, named in the file as in the model: `check(value, where, parsing)` returns the model's
    value or raises ParameterError naming `where`; `cell`: a parameter cell may set it; `range`: the numbers it may
    hold (checked after `check`, in the file and in a parameter cell alike)."""
    return field(metadata={"param": (check, about, cell, range)})


def part(about: str):
    """A sub-table of parameters (the field's type is a dataclass of `param` fields)."""
    return field(metadata={"part": about})


@dataclass
class Parsing:
    """What a check may use: the catalog, the values checked so far (by key), how a message names a key,
    and `strict` (the file: every pairing checked now; a parameter cell: only what the chapter uses)."""

    catalog: Catalog
    name: Callable[[str], str]
    got: dict = field(default_factory=dict)
    strict: bool = True

    def __getitem__(self, key: str):
        return self.got[key]


@functools.cache
def fields(cls, table: str | None = None, prefix: str = "", attr: tuple[str, ...] = ()) -> tuple[Field, ...]:
    """The field table of problem class `cls` (sub-tables flattened, in declaration order): read once per class
    (`with_`, the parameter cell's writer and every live-form answer ask for it)."""
    table = table or cls.TABLE
    hints = typing.get_type_hints(cls)
    found = []
    for f in dataclasses.fields(cls):
        if "part" in f.metadata:
            found += fields(hints[f.name], table, f"{prefix}{f.name}.", (*attr, f.name))
        elif "param" in f.metadata:
            check, about, cell, bounds = f.metadata["param"]
            found.append(Field(table, prefix + f.name, (*attr, f.name), check, about, f.name if cell else None, bounds))
    return tuple(found)


def _build(cls, got: dict, catalog: Catalog, prefix: str = ""):
    hints = typing.get_type_hints(cls)
    values = {}
    for f in dataclasses.fields(cls):
        if "part" in f.metadata:
            values[f.name] = _build(hints[f.name], got, catalog, f"{prefix}{f.name}.")
        elif "param" in f.metadata:
            values[f.name] = got[prefix + f.name]
        elif f.name == "catalog":
            values[f.name] = catalog
    return cls(**values)


def _parse(cls, values: dict, catalog: Catalog, name: Callable[[str], str], strict: bool = True):
    """`values` (key → value, every field) checked in the table's order and built into a `cls`."""
    parsing = Parsing(catalog, name, strict=strict)
    for f in fields(cls):
        if f.range:   # a value too large never reaches a rule that computes with it; then each value as checked
            f.range.check(values[f.key], name(f.key), above_only=True)
        parsing.got[f.key] = f.check(values[f.key], name(f.key), parsing)
        if f.range:
            f.range.check(parsing.got[f.key], name(f.key))
    return _build(cls, parsing.got, catalog)


def _file_values(cls, table, where: str) -> dict:
    """key → value of the file's table [where] (and its sub-tables), each table holding exactly its keys."""
    hints = typing.get_type_hints(cls)
    keys = {f.name: f for f in dataclasses.fields(cls) if "part" in f.metadata}
    own = [f.name for f in dataclasses.fields(cls) if "param" in f.metadata]
    about = {**{f.name: f.metadata["param"][1] for f in dataclasses.fields(cls) if "param" in f.metadata},
             **{name: f.metadata["part"] for name, f in keys.items()}}
    check_keys(table, where, [*own, *keys], about=about)
    values = {key: table[key] for key in own}
    for name in keys:
        values.update({f"{name}.{k}": v for k, v in _file_values(hints[name], table[name], f"{where}.{name}").items()})
    return values


class Problem:
    """What the three problems share: loading from their table, `with_` from a parameter cell."""

    TABLE = ""

    @classmethod
    def from_file(cls, table, catalog: Catalog):
        return _parse(cls, _file_values(cls, table, cls.TABLE), catalog, lambda key: f"{cls.TABLE}.{key}")

    def with_(self, **changes):
        """The same problem with the parameter cell's values, checked like the file (a changed value's message
        names the cell variable; an unchanged one names the file's key)."""
        by_cell = cell_fields(self.TABLE)
        unknown = sorted(set(changes) - set(by_cell))
        if unknown:
            known = ", ".join(f"{name} ({field.about})" for name, field in by_cell.items())
            raise ParameterError(f"모르는 매개변수 {', '.join(unknown)}. 쓸 수 있는 매개변수: {known}")
        values = {f.key: f.of(self) for f in fields(type(self))}
        changed = {by_cell[name].key: name for name in changes}
        values.update({by_cell[name].key: value for name, value in changes.items()})
        made = _parse(type(self), values, self.catalog,
                      lambda key: changed.get(key) or f"{self.TABLE}.{key}", strict=False)
        # which values the parameter cell changed from the file's (`origin`): kept beside the fields, not compared
        from_cell = dict(getattr(self, "_from_cell", {}))
        for name in changes:
            if by_cell[name].of(made) != by_cell[name].of(self):
                from_cell[by_cell[name].key] = name
        object.__setattr__(made, "_from_cell", from_cell)
        return made

    def with_cell(self, namespace: dict):
        """`with_` of a chapter's parameter cell: every variable of this problem's field table (`cell_fields`) that
        `namespace` holds (the chapter's `globals()` after its parameter cell). A chapter names its variables once,
        in the cell; adding one to the field table and the cell is enough for the chapter to use it."""
        return self.with_(**{name: namespace[name] for name in cell_fields(self.TABLE) if name in namespace})

    def typed(self, *keys: str) -> str:
        """The names a message gives for fields `keys`: the parameter cell's variables among them that the cell changed
        (the reader typed those), else their file keys ("week4.N, week4.tiles")."""
        cell = getattr(self, "_from_cell", {})
        changed = [cell[key] for key in keys if key in cell]
        return ", ".join(changed or [f"{self.TABLE}.{key}" for key in keys])

    def origin(self, key: str) -> str:
        """Where the value of field `key` comes from: "cell:N" when a parameter cell changed it, else the file's
        key "toml:week4.N"."""
        cell = getattr(self, "_from_cell", {}).get(key)
        return f"cell:{cell}" if cell else f"toml:{self.TABLE}.{key}"


# ---------------------------------------------------------------- the checks (value, where, parsing) → value

def whole(value, where: str, parsing: Parsing) -> int:
    return positive_int(value, where)


def increasing(value, where: str, parsing: Parsing) -> tuple[int, ...]:
    return int_list(value, where)


def preset_key(value, where: str, parsing: Parsing) -> str:
    return parsing.catalog.preset(value, where).key


def dtype_name(value, where: str, parsing: Parsing) -> str:
    parsing.catalog.bytes_per(value, where)
    return value


def dtype_of_hardware(value, where: str, parsing: Parsing) -> str:
    """A dtype the problem's preset has a peak for."""
    parsing.catalog.roofline(parsing["hardware"], value, parsing.name("hardware"), where)
    return value


def dtype_of_cuda_cores(value, where: str, parsing: Parsing) -> str:
    """A dtype the preset's CUDA cores run at its peak (`cuda` = `peak` for it): week 3's kernels are element-wise,
    which a Tensor Core cannot run, so their P is the CUDA cores' (the page says so; roofline.show.variants'
    `element_wise_peak` keeps every variant to it too)."""
    dtype_of_hardware(value, where, parsing)
    key = parsing["hardware"]
    preset = parsing.catalog.presets[key]
    usable = ", ".join(d for d, P in preset.cuda.items() if preset.peak.get(d) == P)
    usable = f" 쓸 수 있는 자료형: {usable}" if usable else ""
    if not preset.cuda:
        machines = [k for k, p in parsing.catalog.presets.items() if p.cuda]
        raise ParameterError(f"{parsing.name('hardware')}: 하드웨어 {shown(key)}에는 CUDA Core 최대 성능(presets.{key}.cuda)이 "
                             f"없다. 원소별 연산은 텐서 코어를 쓰지 못해 P가 CUDA Core의 값이다. "
                             f"쓸 수 있는 하드웨어: {', '.join(machines)}")
    if value not in preset.cuda:
        raise ParameterError(f"{where}: 하드웨어 {shown(key)}에는 {value} CUDA Core 최대 성능(presets.{key}.cuda.{value})이 "
                             f"없다. 원소별 연산은 텐서 코어를 쓰지 못해 P가 CUDA Core의 값이다.{usable}")
    if preset.cuda[value] != preset.peak[value]:
        raise ParameterError(f"{where}: presets.{key}.peak.{value} = {plain_number(preset.peak[value])}가 "
                             f"presets.{key}.cuda.{value} = {plain_number(preset.cuda[value])}와 다르다. 원소별 연산의 P는 "
                             f"CUDA Core의 값이므로 두 값이 같아야 한다.{usable}")
    return value


def dtype_of_hardware_if_strict(value, where: str, parsing: Parsing) -> str:
    """A dtype; in the file, one the preset has a peak for (a chapter that never asks for the hardware, like ①,
    may pick a dtype the hypothetical machine lacks; `.roofline` checks it then)."""
    return (dtype_of_hardware if parsing.strict else dtype_name)(value, where, parsing)


def gpu_preset(catalog: Catalog, key, where: str, sm: bool = False) -> Preset:
    """A real GPU preset: SMs and shared memory per SM, and with `sm` the per-SM limits of occupancy."""
    preset = catalog.preset(key, where)
    if sm and preset.sm is None:
        gpus = [k for k, p in catalog.presets.items() if p.sm and p.SMs]
        raise ParameterError(f"{where}: 프리셋 {shown(key)}에는 SM 한도(presets.{key}.sm)가 없어 점유율을 계산할 수 없다 "
                             f"(NVIDIA GPU여야 한다). 쓸 수 있는 GPU: {', '.join(gpus)}")
    if preset.SMs is None or preset.smem_per_SM is None:
        gpus = [k for k, p in catalog.presets.items() if p.SMs and p.smem_per_SM]
        raise ParameterError(f"{where}: 프리셋 {shown(key)}에는 SMs와 smem_per_SM이 없다 (실제 GPU여야 한다). "
                             f"쓸 수 있는 GPU: {', '.join(gpus)}")
    return preset


def real_gpu(value, where: str, parsing: Parsing) -> str:
    return gpu_preset(parsing.catalog, value, where).key


def gpu_with_limits(value, where: str, parsing: Parsing) -> str:
    return gpu_preset(parsing.catalog, value, where, sm=True).key


def gpus_with_limits(value, where: str, parsing: Parsing) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)) or not value:
        raise ParameterError(f"{where}: 프리셋 이름을 하나 이상 담은 목록이어야 한다. 받은 값: {shown(value)}")
    return tuple(gpu_preset(parsing.catalog, key, where, sm=True).key for key in value)


def divides(of: str):
    """A positive whole number that divides the parameter `of` checked before it."""
    def check(value, where: str, parsing: Parsing) -> int:
        check_divides(where, positive_int(value, where), of, parsing[of])
        return value
    return check


MIN_TILES = 2   # a chapter compares tiles (⑤: the gain from the second largest to the largest)
MAX_TILES = 6   # tile sides a chapter compares at most (each case has its colour: show.palette.CASE_COLORS)
# the measured cells and the note's check, bounded so that each runs in seconds and holds well under 2 GB:
MAX_SMALL_N = 32             # ③'s small example, walked element by element (roofline.walk) and made into exercises
MAX_NAIVE_N = 128            # the pure-Python triple loop: N³ = 2,097,152 steps
MAX_MEASURED_N = 2048        # the tiled loop and BLAS in float64: two N×N inputs and the product, 96 MiB at 2,048
MEASURED = "float64 행렬 둘과 그 곱: 2,048이면 96 MiB, BLAS 한 번에 1초 안"
MAX_TILE_STEPS = 2**15       # the tiled loop's small products, (⌈N/T⌉)³: each a NumPy call
MAX_STRIDE_N = 8192          # note.gemm.N is also the side of the copies the note times (FP32, two of them: 512 MiB)
MAX_FLASH_N = 2048           # FlashAttention's check: the N×N score matrix, 32 MiB at 2,048
MAX_FLASH_STEPS = 2**16      # its blocks, Σ ⌈N/B_r⌉·⌈N/B_c⌉ over every N and block: each a few NumPy calls
MAX_SIMULATED_SIDE = 2048   # output tiles per side, N/T, the LRU simulation of ③ holds: (N/T)² = 4M tiles take 0.6 GB, 2 s


def tiles_dividing(of: str):
    """Distinct increasing tile sides, each dividing the parameter `of`; in the file (every chapter draws them, and
    ③'s cache simulation runs for each), at most MAX_TILES of them and at most MAX_SIMULATED_SIDE tiles per side of
    `of` (a parameter cell's are checked where they are used: show.palette.case_color, cachesim)."""
    def check(value, where: str, parsing: Parsing) -> tuple[int, ...]:
        tiles = int_list(value, where)
        for T in tiles:
            check_divides(where, T, of, parsing[of])
        if len(tiles) < MIN_TILES:
            raise ParameterError(f"{where}: 타일 한 변을 {MIN_TILES}개 이상 적어 비교한다 (예: [32, 64]). "
                                 f"받은 값: {shown(list(tiles))}")
        if parsing.strict:
            if len(tiles) > MAX_TILES:
                raise ParameterError(f"{where}: 타일 한 변은 {MAX_TILES}개까지 비교한다 (그림마다 한 색씩). "
                                     f"받은 값: {len(tiles)}개 {shown(list(tiles))}")
            for T in tiles:
                simulated_side(parsing[of] // T, where, f"{parsing.name(of)} = {parsing[of]:,}, T = {T}")
        return tiles
    return check


def tiles_on_chip(value, where: str, parsing: Parsing) -> tuple[int, ...]:
    """week4.tiles: `tiles_dividing("N")`; in the file, each tile's input buffers (A and B pieces, s·2T² Byte,
    roofline.buffers) fit the Shared Memory one block may take on week4.hardware (a machine without per-SM limits holds
    any): the pages time every tile on that machine, which a tile that does not fit cannot run (④'s rule; the
    exercises' variants keep it too, roofline.show.variants.on_chip_fits)."""
    from roofline import buffers

    tiles = tiles_dividing("N")(value, where, parsing)
    if not parsing.strict:
        return tiles
    key = parsing["hardware"]
    preset, s = parsing.catalog.presets[key], parsing.catalog.dtypes[parsing["dtype"]]
    limit = preset.block_smem
    for T in tiles:
        held = buffers.tile_buffers(T, T, T, s, s).inputs
        if limit is not None and held > limit:
            raise ParameterError(f"{where}: T = {T:,}의 입력 버퍼 s·2T² = {held:,} Byte가 {parsing.name('hardware')} = "
                                 f"{shown(key)}의 블록 하나가 쓸 수 있는 Shared Memory {limit:,} Byte보다 크다. "
                                 f"들어가는 타일만 적자 (T ≤ {max_side(limit, s):,})")
    return tiles


def max_side(limit: int, s: int) -> int:
    """The largest T with s·2T² ≤ limit (Byte)."""
    from math import isqrt

    return isqrt(limit // (2 * s))


def simulated_side(n: int, where: str, what: str) -> None:
    """n = N/T output tiles per side must fit in the cache simulation (MAX_SIMULATED_SIDE)."""
    if n > MAX_SIMULATED_SIDE:
        raise ParameterError(f"{where}: 캐시 시뮬레이션은 한 변에 타일 {MAX_SIMULATED_SIDE:,}개(N/T ≤ {MAX_SIMULATED_SIDE:,})"
                             f"까지 다룬다. 받은 값: {what}이면 N/T = {n:,}")


def whole_list(value, where: str, parsing: Parsing) -> tuple[int, ...]:
    """A non-empty list of positive whole numbers (in any order)."""
    if not isinstance(value, (list, tuple)) or not value:
        raise ParameterError(f"{where}: 비어 있지 않은 목록이어야 한다. 받은 값: {shown(value)}")
    return tuple(positive_int(v, where) for v in value)


def pairs(value, where: str, parsing: Parsing) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, (list, tuple)) or not value:
        raise ParameterError(f"{where}: 비어 있지 않은 목록이어야 한다. 받은 값: {shown(value)}")
    if not all(isinstance(v, (list, tuple)) and len(v) == 2 for v in value):
        raise ParameterError(f"{where}: [B_r, B_c] 쌍의 목록이어야 한다. 받은 값: {shown(value)}")
    return tuple(tuple(positive_int(b, where) for b in v) for v in value)


def note_gpu_dtype(value, where: str, parsing: Parsing) -> str:
    """The note's bounds need a GPU (SMs, shared memory per SM: FlashAttention's SRAM M) with a peak for `dtype`."""
    dtype_of_hardware(value, where, parsing)
    gpu_preset(parsing.catalog, parsing["hardware"], parsing.name("hardware"))
    return value


# ---------------------------------------------------------------- the three problems

MACHINE = '하드웨어 프리셋 이름: "course"(가상 하드웨어) 또는 실제 GPU'   # week4.hardware and week3.hardware


class OnMachine(Problem):
    """A problem in `dtype` on preset `hardware` (Week4, Week3): its Roofline, preset and Byte per element."""

    @property
    def roofline(self) -> Roofline:
        return self.catalog.roofline(self.hardware, self.dtype)

    @property
    def preset(self) -> Preset:
        return self.catalog.presets[self.hardware]

    @property
    def s(self) -> int:
        """Byte per element (inputs, partial sums and output alike)."""
        return self.catalog.dtypes[self.dtype]


@dataclass(frozen=True)
class TileCache:
    """[week4.cache] ③'s discussion: reuse between output tiles, simulated with an LRU cache (roofline.cachesim)."""

    small_capacities: tuple[int, ...] = param(increasing, "작은 예의 캐시 용량 (입력 타일 개수)", range=Range(
        1, 2 * MAX_SMALL_N**2, "입력 타일 개수: 작은 예의 두 입력 행렬 전체의 타일 수까지"))
    capacities: tuple[int, ...] = param(increasing, "N×N 행렬의 캐시 용량 (Byte)", range=Range(
        KiB, TiB, "캐시 용량 1 KiB부터 1 TiB까지", "Byte", "Byte로 적는다: 4 MiB는 4_194_304"))
    group_size_M: int = param(whole, "묶음 순서의 GROUP_SIZE_M", range=Range(
        1, MAX_SIMULATED_SIDE, "묶음의 행 수: 시뮬레이션이 다루는 한 변의 타일 수(N/T)까지"))


@dataclass(frozen=True)
class Week4(OnMachine):
    """[week4] The week-4 problem: C = A @ B, all N×N, in `dtype` on preset `hardware`; tile sides `tiles`;
    ③'s small example (small_N×small_N, small_T tiles) and its LRU cache; ④'s real GPUs."""

    TABLE = "week4"

    hardware: str = param(preset_key, MACHINE)
    dtype: str = param(dtype_of_hardware_if_strict, "자료형: 입력·중간 합·출력 모두")
    N: int = param(whole, "정사각 행렬 한 변 (M = N = K)", range=Range(
        2, 65_536, "한 변 65,536이면 FP32 행렬 하나가 16 GiB로 GPU 하나의 메모리다. N의 약수 찾기(√N번)와 ④의 T_K 찾기"
                   "(T번)가 1초 안에 끝난다"))
    tiles: tuple[int, ...] = param(tiles_on_chip, "비교할 정사각 타일 한 변 T (N의 약수)", range=Range(
        1, 65_536, f"N의 약수, {MIN_TILES}–{MAX_TILES}개, 각각 N/T ≤ {MAX_SIMULATED_SIDE:,} (③의 캐시 시뮬레이션)"))
    small_N: int = param(whole, "③의 작은 예: small_N×small_N 행렬", range=Range(
        2, MAX_SMALL_N, f"③은 원소 하나하나를 따라가며 small_N³번 세고 그 예로 문제를 만든다: {MAX_SMALL_N}이면 모든 장의 "
                        "실행이 15초 안, 64면 1분이 넘는다"))
    small_T: int = param(divides("small_N"), "③의 작은 예: small_T×small_T 출력 타일 (small_N의 약수)",
                         range=Range(1, MAX_SMALL_N, "small_N의 약수"))
    threads: int = param(whole, "④의 예: 블록 하나의 스레드 수", range=Range(
        1, 8192, "블록 하나의 스레드: 프리셋의 한도(1,024)를 넘는 값은 ④가 '들어가지 않는다'고 보인다"))
    gpus: tuple[str, ...] = param(gpus_with_limits, "④·정리: 가상 하드웨어 곁에 비교할 실제 GPU 프리셋")
    gpu: str = param(gpu_with_limits, "④의 점유율 예: SM 한도가 있는 NVIDIA GPU 프리셋")
    extra_registers: int = param(whole, "④의 점유율 예: 중간 합 말고 스레드 하나가 더 쓰는 레지스터 "
                                        "(주소, 루프 변수, 곱할 입력 값)",
                                 range=Range(1, 255, "CUDA에서 스레드 하나가 쓸 수 있는 레지스터는 255개까지다"))
    cache: TileCache = part("③ 토론: LRU 캐시 시뮬레이션")
    catalog: Catalog = field(repr=False, compare=False)


@dataclass(frozen=True)
class Week3(OnMachine):
    """[week3] The week-3 problem: vector add of length L in `dtype` on preset `hardware`, memory `capacity`
    (Byte: the roofline has none, it only decides what fits), and the real GPU `gpu` of the explanations."""

    TABLE = "week3"

    hardware: str = param(preset_key, MACHINE)
    dtype: str = param(dtype_of_cuda_cores, "자료형 (그 하드웨어의 CUDA Core 최대 성능이 있는 것)")
    L: int = param(whole, "벡터 길이", range=Range(1_000, 10**13, "원소 1,000개부터 10조 개까지 (닫힌 꼴로만 센다)"))
    capacity: int = param(whole, "메모리 용량 (Byte)", range=Range(
        MiB, 2**50, "메모리 용량 1 MiB부터 1 PiB까지", "Byte", "Byte로 적는다: 16 GB는 16_000_000_000"))
    gpu: str = param(real_gpu, "GPU 구조와 메모리 계층을 설명할 때 예로 드는 실제 GPU 프리셋")
    catalog: Catalog = field(repr=False, compare=False)


def measured_tile(value, where: str, parsing: Parsing) -> int:
    """note.measure.T: the tiled loop makes (⌈N/T⌉)³ small products at naive_N and tiled_N (checked before it)."""
    T = positive_int(value, where)
    for key in ("measure.naive_N", "measure.tiled_N"):
        steps = -(-parsing[key] // T) ** 3
        if steps > MAX_TILE_STEPS:
            raise ParameterError(f"{where}: 타일 루프는 ({parsing.name(key)}/T)³번 작은 곱을 한다: {MAX_TILE_STEPS:,}번 "
                                 f"이하여야 한다. 받은 값: T = {T}, {parsing[key]}이면 {steps:,}번")
    return T


def flash_blocks(value, where: str, parsing: Parsing) -> tuple[tuple[int, int], ...]:
    """note.flash_check.blocks: Σ ⌈N/B_r⌉·⌈N/B_c⌉ over every N of the check and every block is the number of the
    FlashAttention loop's steps (each a few NumPy calls)."""
    blocks = pairs(value, where, parsing)
    steps = sum(-(-N // B_r) * -(-N // B_c) for N in parsing["flash_check.N"] for B_r, B_c in blocks)
    if steps > MAX_FLASH_STEPS:
        raise ParameterError(f"{where}: 검산의 블록 반복(N/B_r × N/B_c의 합)은 {MAX_FLASH_STEPS:,}번 이하여야 한다. "
                             f"받은 값: {steps:,}번 (N = {list(parsing['flash_check.N'])})")
    return blocks


def short_list(check, most: int = 8):
    """`check` of a list, and at most `most` items (each runs, or is a row of a table)."""
    def checked(value, where: str, parsing: Parsing):
        items = check(value, where, parsing)
        if len(items) > most:
            raise ParameterError(f"{where}: {most}개까지 적을 수 있다. 받은 값: {len(items)}개")
        return items
    return checked


@dataclass(frozen=True)
class GPT3:
    """note.gpt3: GPT-3 175B's configuration (FLOPs per token)."""

    d_model: int = param(whole, "모델 폭 d_model", cell=False,
        range=Range(1, 10**6, "모델 폭"))
    n_layers: int = param(whole, "층 수", cell=False,
        range=Range(1, 10**4, "층 수"))
    n_heads: int = param(whole, "헤드 수", cell=False,
        range=Range(1, 10**4, "헤드 수"))
    n_ctx: int = param(whole, "문맥 길이", cell=False,
        range=Range(1, 10**8, "문맥 길이"))
    n_vocab: int = param(whole, "어휘 수", cell=False,
        range=Range(1, 10**8, "어휘 수"))


@dataclass(frozen=True)
class Attention:
    """note.attention: the attention example."""

    seq: int = param(whole, "어텐션 예의 시퀀스 길이 N", range=Range(
        1, 2**20, "시퀀스 길이: 이동량과 시간은 닫힌 꼴로 센다 (N×N 점수 행렬을 만들지 않는다)"))
    heads: int = param(whole, "헤드 수", cell=False,
        range=Range(1, 10**4, "헤드 수"))
    d_head: int = param(whole, "헤드 하나의 폭 d", cell=False,
        range=Range(1, 2**16, "헤드 하나의 폭"))
    layers: int = param(whole, "층 수", cell=False,
        range=Range(1, 10**4, "층 수"))


@dataclass(frozen=True)
class GemmExample:
    """note.gemm: (b×K)·(K×N) for each batch b."""

    N: int = param(whole, "출력 열 수 N", cell=False,
        range=Range(1, MAX_STRIDE_N, "행 순서와 열 순서로 옮겨 적는 시간을 재는 셀이 FP32 N×N 행렬 둘을 잡는다: "
                                     "8,192이면 512 MiB"))
    K: int = param(whole, "안쪽 차원 K", cell=False,
        range=Range(1, 2**24, "안쪽 차원 (닫힌 꼴로만 센다)"))
    batches: tuple[int, ...] = param(short_list(whole_list, 16), "배치 b의 목록", cell=False,
        range=Range(1, 2**24, "배치 크기"))


@dataclass(frozen=True)
class Blas:
    """note.blas: the BLAS-levels table."""

    dtype: str = param(dtype_name, "BLAS 수준 표의 자료형", cell=False)
    n: int = param(whole, "벡터·행렬 크기 n", cell=False,
        range=Range(1, 2**24, "벡터·행렬 크기 (닫힌 꼴로만 센다)"))


def multiple_of_tile(value, where: str, parsing: Parsing) -> int:
    """note.cache.K: a multiple of note.cache.tile (checked before it)."""
    check_divides(parsing.name("cache.tile"), parsing["cache.tile"], "K", positive_int(value, where))
    return value


@dataclass(frozen=True)
class CacheExample:
    """note.cache: cache lines and L1 sizes (Byte), the tile example."""

    line: int = param(whole, "캐시 라인 (Byte)", cell=False,
        range=Range(1, 4096, "캐시 라인", "Byte"))
    tile: int = param(whole, "타일 예의 한 변", cell=False,
        range=Range(1, 1024, "타일 한 변"))
    K: int = param(multiple_of_tile, "타일 예의 K (tile의 배수)", cell=False,
        range=Range(1, 2**16, "타일 예의 K"))
    CPU_L1: tuple[int, ...] = param(whole_list, "CPU L1 용량 (Byte)", cell=False,
        range=Range(KiB, 16 * MiB, "L1 용량", "Byte", "Byte로 적는다: 32 KiB는 32768"))
    GPU_L1: int = param(whole, "GPU L1 용량 (Byte)", cell=False,
        range=Range(KiB, 16 * MiB, "L1 용량", "Byte", "Byte로 적는다: 256 KiB는 262144"))


@dataclass(frozen=True)
class Measure:
    """note.measure: sizes measured on the build machine."""

    naive_N: int = param(whole, "단순 루프의 N", cell=False,
        range=Range(1, MAX_NAIVE_N, f"파이썬 삼중 루프는 N³번 돈다: {MAX_NAIVE_N}³ ≈ 2백만 번이면 몇 초"))
    tiled_N: int = param(whole, "타일 루프의 N", cell=False,
        range=Range(1, MAX_MEASURED_N, MEASURED))
    T: int = param(measured_tile, "타일 한 변", cell=False,
        range=Range(1, MAX_MEASURED_N, "타일 한 변"))
    blas_N: int = param(whole, "BLAS의 N", cell=False,
        range=Range(1, MAX_MEASURED_N, MEASURED))


@dataclass(frozen=True)
class FlashCheck:
    """note.flash_check: FlashAttention checked against plain attention."""

    d: int = param(whole, "헤드 폭 d", cell=False,
        range=Range(1, 256, "헤드 폭 d"))
    N: tuple[int, ...] = param(short_list(whole_list), "시퀀스 길이 목록", cell=False,
        range=Range(1, MAX_FLASH_N, f"N×N 점수 행렬 (FP64 {MAX_FLASH_N:,}²이면 128 MiB)"))
    blocks: tuple[tuple[int, int], ...] = param(short_list(flash_blocks), "[B_r, B_c] 블록 목록", cell=False,
        range=Range(1, MAX_FLASH_N, "블록 한 변 B_r, B_c"))


@dataclass(frozen=True)
class TensorCore:
    """note.tensor_core: an MMA shape, the dimension multiple, FLOPs per clock of one SM."""

    m: int = param(whole, "MMA 예의 m", cell=False,
        range=Range(1, 1024, "MMA 모양"))
    n: int = param(whole, "MMA 예의 n", cell=False,
        range=Range(1, 1024, "MMA 모양"))
    k: int = param(whole, "MMA 예의 k", cell=False,
        range=Range(1, 1024, "MMA 모양"))
    align: int = param(whole, "차원 배수", cell=False,
        range=Range(1, 1024, "차원 배수"))
    tc_per_SM: int = param(whole, "SM 하나의 Tensor Core 수", cell=False,
        range=Range(1, 1024, "Tensor Core 수"))
    tc_flops: int = param(whole, "Tensor Core 하나의 클럭당 FLOPs", cell=False,
        range=Range(1, 2**20, "클럭당 FLOPs"))
    cuda_per_SM: int = param(whole, "SM 하나의 CUDA Core 수", cell=False,
        range=Range(1, 4096, "CUDA Core 수"))
    cuda_flops: int = param(whole, "CUDA Core 하나의 클럭당 FLOPs", cell=False,
        range=Range(1, 1024, "클럭당 FLOPs"))


@dataclass(frozen=True)
class Latency:
    """note.latency: load latencies (cycles)."""

    L1: tuple[int, ...] = param(whole_list, "L1 지연 (사이클)", cell=False,
        range=Range(1, 10**5, "지연 (사이클)"))
    shared: int = param(whole, "Shared Memory 지연", cell=False,
        range=Range(1, 10**5, "지연 (사이클)"))
    L2: int = param(whole, "L2 지연", cell=False,
        range=Range(1, 10**5, "지연 (사이클)"))
    HBM: int = param(whole, "HBM 지연", cell=False,
        range=Range(1, 10**5, "지연 (사이클)"))


@dataclass(frozen=True)
class Note(Problem):
    """[note] The matmul / FlashAttention note: the preset `hardware` and Tensor Core `dtype` of its bounds
    (a real GPU), and its examples, one small part each."""

    TABLE = "note"

    hardware: str = param(preset_key, "GEMM·어텐션 상한을 계산할 실제 GPU 프리셋")
    dtype: str = param(note_gpu_dtype, "Tensor Core 자료형")
    gpt3: GPT3 = part("GPT-3 175B")
    attention: Attention = part("어텐션 예")
    gemm: GemmExample = part("(b×K)·(K×N) GEMM")
    blas: Blas = part("BLAS 수준 표")
    cache: CacheExample = part("캐시 예")
    measure: Measure = part("빌드 기계 측정")
    flash_check: FlashCheck = part("FlashAttention 검산")
    tensor_core: TensorCore = part("MMA 예, 차원 배수, 클럭당 FLOPs")
    latency: Latency = part("H100 지연 (사이클)")
    catalog: Catalog = field(repr=False, compare=False)

    @property
    def preset(self) -> Preset:
        return self.catalog.presets[self.hardware]

    @property
    def s(self) -> int:
        return self.catalog.dtypes[self.dtype]

    @property
    def seq(self) -> int:
        return self.attention.seq


# ---------------------------------------------------------------- the course

PROBLEMS = {cls.TABLE: cls for cls in (Week4, Week3, Note)}   # a table of course.toml → its problem


def cell_fields(problem: str) -> dict[str, Field]:
    """A parameter cell's variable → its field, for problem `problem` ("week4", "week3", "note")."""
    return {f.cell: f for f in fields(PROBLEMS[problem]) if f.cell}


@dataclass(frozen=True)
class Course:
    week4: Week4
    week3: Week3
    note: Note
    catalog: Catalog
    path: Path

    @property
    def dtypes(self) -> dict[str, int]:
        return self.catalog.dtypes

    @property
    def presets(self) -> dict[str, Preset]:
        return self.catalog.presets

    def preset(self, key: str) -> Preset:
        return self.catalog.preset(key)

    def bytes_per(self, dtype: str) -> int:
        return self.catalog.bytes_per(dtype)


def load(path: str | Path | None = None) -> Course:
    """Read and validate the course parameters (default: $ROOFLINE_COURSE if set, else the package's course.toml).
    The one reader of the file."""
    path = Path(path if path is not None else os.environ.get(ENVIRONMENT) or DEFAULT_PATH)
    raw = _toml(path)
    check_keys(raw, path.name, {*PROBLEMS, "dtypes", "presets"})
    dtypes = _dtypes(raw["dtypes"])
    if not isinstance(raw["presets"], dict) or not raw["presets"]:
        raise ParameterError("[presets]: 프리셋이 하나 이상 있어야 한다")
    catalog = Catalog(dtypes, {k: parse_preset(k, t, dtypes) for k, t in raw["presets"].items()})
    problems = {table: cls.from_file(raw[table], catalog) for table, cls in PROBLEMS.items()}
    return Course(**problems, catalog=catalog, path=path)


def _toml(path: Path) -> dict:
    """The parsed file, or ParameterError naming it (and $ROOFLINE_COURSE if that chose it) and what to do."""
    chosen = f" (${ENVIRONMENT}가 가리키는 파일)" if os.environ.get(ENVIRONMENT) and path == Path(os.environ[ENVIRONMENT]) else ""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        fix = (f"${ENVIRONMENT}를 있는 파일로 고치거나 지우자" if chosen else
               "git checkout lib/roofline/course.toml 로 되살리자" if path == DEFAULT_PATH else "경로를 확인하자")
        raise ParameterError(f"{path}{chosen}: 파일이 없다. {fix}") from None
    except OSError as err:
        raise ParameterError(f"{path}{chosen}: 파일을 읽을 수 없다 ({err.strerror}). 권한과 경로를 확인하자") from None
    if data.startswith(b"\xef\xbb\xbf"):
        raise ParameterError(f"{path.name}{chosen}: 파일이 BOM(U+FEFF)으로 시작한다. BOM 없는 UTF-8로 저장하자")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[:err.start].count(b"\n") + 1
        raise ParameterError(f"{path.name}{chosen}: {line}번째 줄이 UTF-8이 아니다 (바이트 {data[err.start:err.start + 1]!r}). "
                             "UTF-8로 저장하자") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        where = re.search(r"^(?P<what>.*?)\s*\((?:at )?line (?P<line>\d+), column (?P<column>\d+)\)$", str(err))
        if not where:
            raise ParameterError(f"{path.name}{chosen}: TOML 문법 오류: {err}") from None
        number = int(where["line"])
        lines = text.split("\n")
        shown_line = lines[number - 1].strip() if number <= len(lines) else ""
        raise ParameterError(f"{path.name}{chosen}: TOML 문법 오류: {number}번째 줄 {where['column']}번째 글자 "
                             f"({where['what']}). 그 줄: {shown(shown_line)}") from None


def _dtypes(table) -> dict[str, int]:
    if not isinstance(table, dict) or not table:
        raise ParameterError("[dtypes]: 자료형 = 원소당 Byte 꼴로 하나 이상 적어야 한다")
    return {d: DTYPE_RANGE.check(positive_int(v, f"dtypes.{d}"), f"dtypes.{d}") for d, v in table.items()}
