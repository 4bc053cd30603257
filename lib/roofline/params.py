"""The course parameters: read once from one file (`course.toml`), validated, handed on as values.

`load()` parses every table of the file and returns a `Course`: the week-4 problem (`Week4`), the week-3
problem (`Week3`), the FlashAttention note's problem (`Note`) and the `Catalog` of data types and hardware
presets. Nothing below `load()` reads the file again: tables and figures get a problem object.

A chapter's parameter cell holds plain literals (`N = 4096`); `course.week4.with_(N=N, …)` checks them with
the same rules as the file and returns the problem the rest of the chapter uses. `CELL_KEYS` says which
key of the file each cell variable stands for (the site's tooling writes the file's values into the cells).

Every bad value raises `ParameterError` (a ValueError) whose Korean message names the key
(`week4.N`) or the cell variable (`N`).
"""
from __future__ import annotations

import dataclasses
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from roofline.errors import ParameterError, check_divides, choice, int_list, positive_int, positive_number, text
from roofline.hardware import Preset, Roofline, SMLimits

DEFAULT_PATH = Path(__file__).with_name("course.toml")
ENVIRONMENT = "ROOFLINE_COURSE"   # another parameter file for `load()` (the tooling runs a chapter for another term)


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
            raise ParameterError(f"{where_dtype}: 하드웨어 {hardware!r}에는 {dtype} 최대 성능이 없다. "
                                 f"쓸 수 있는 자료형: {', '.join(preset.peak)}")
        return preset.roofline(dtype)


def check_keys(table, where: str, required, optional=()) -> dict:
    """`table` must be a TOML table holding every key of `required` and no key outside `required | optional`."""
    if not isinstance(table, dict):
        raise ParameterError(f"[{where}]: 표(table)여야 한다. 받은 값: {table!r}")
    allowed = set(required) | set(optional)
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise ParameterError(f"[{where}]: 모르는 키 {', '.join(unknown)}. 쓸 수 있는 키: {', '.join(sorted(allowed))}")
    missing = sorted(set(required) - set(table))
    if missing:
        raise ParameterError(f"[{where}]: 빠진 키 {', '.join(missing)}")
    return table


SM_COUNTS = ("warp_size", "threads_per_block", "threads", "warps", "blocks", "registers", "registers_per_block",
             "registers_per_thread", "register_unit", "register_partitions", "smem_per_block", "smem_unit")
SM_KEYS = ("compute_capability", *SM_COUNTS, "smem_reserved", "source", "architecture")


def _https(value, where: str) -> str:
    url = text(value, where)
    if not url.startswith("https://"):
        raise ParameterError(f"{where}: https:// 주소여야 한다. 받은 값: {url!r}")
    return url


def parse_sm(key: str, table, smem_per_SM: int | None) -> SMLimits:
    """[presets.KEY.sm]: an NVIDIA GPU's per-SM limits; every count a whole number, each rule checked."""
    where = f"presets.{key}.sm"
    check_keys(table, where, SM_KEYS)
    if smem_per_SM is None:
        raise ParameterError(f"{where}: SM 한도를 쓰려면 presets.{key}.smem_per_SM도 있어야 한다")
    cc = text(table["compute_capability"], f"{where}.compute_capability")
    if not re.fullmatch(r"\d+\.\d+", cc):
        raise ParameterError(f"{where}.compute_capability: \"9.0\"처럼 주.부 번호여야 한다. 받은 값: {cc!r}")
    counts = {k: positive_int(table[k], f"{where}.{k}") for k in SM_COUNTS}
    reserved = table["smem_reserved"]
    if isinstance(reserved, bool) or not isinstance(reserved, int) or reserved < 0:
        raise ParameterError(f"{where}.smem_reserved: 0 이상의 정수여야 한다. 받은 값: {reserved!r}")
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


def parse_preset(key: str, table, dtypes: dict[str, int]) -> Preset:
    where = f"presets.{key}"
    check_keys(table, where, {"name", "peak", "BW", "memory", "source"}, {"sparse", "SMs", "smem_per_SM", "sm"})
    peaks = {}
    for kind in ("peak", "sparse"):
        entries = table.get(kind, {})
        if not isinstance(entries, dict):
            raise ParameterError(f"{where}.{kind}: 자료형 = FLOPs/s 꼴의 표여야 한다. 받은 값: {entries!r}")
        for dtype in entries:
            choice(dtype, f"{where}.{kind}.{dtype}", dtypes, "자료형")
        peaks[kind] = {d: positive_number(v, f"{where}.{kind}.{d}") for d, v in entries.items()}
    if not peaks["peak"]:
        raise ParameterError(f"{where}.peak: 자료형을 하나 이상 적어야 한다")
    source = _https(table["source"], f"{where}.source")
    counts = {k: positive_int(table[k], f"{where}.{k}") for k in ("SMs", "smem_per_SM") if k in table}
    if "sm" in table:
        counts["sm"] = parse_sm(key, table["sm"], counts.get("smem_per_SM"))
    return Preset(key=key, name=text(table["name"], f"{where}.name"), peak=peaks["peak"], sparse=peaks["sparse"],
                  BW=positive_number(table["BW"], f"{where}.BW"), memory=text(table["memory"], f"{where}.memory"),
                  source=source, **counts)


# ---------------------------------------------------------------- the three problems

def _named(where: str):
    """How a message names key `k`: `week4.N` for the file, `N` for a parameter cell (where = "")."""
    return lambda key: f"{where}.{key}" if where else key


class OnMachine:
    """A problem in `dtype` on preset `hardware_key` (Week4, Week3): its Roofline, preset and Byte per element."""

    @property
    def hardware(self) -> Roofline:
        return self.catalog.roofline(self.hardware_key, self.dtype)

    @property
    def preset(self) -> Preset:
        return self.catalog.presets[self.hardware_key]

    @property
    def s(self) -> int:
        """Byte per element (inputs, partial sums and output alike)."""
        return self.catalog.dtypes[self.dtype]


@dataclass(frozen=True)
class Week4(OnMachine):
    """The week-4 problem: C = A @ B, all N×N, in `dtype` on preset `hardware_key`; tile sides `tiles`;
    ③'s small example (small_N×small_N, small_T tiles) and its LRU cache settings; ④'s real GPUs."""

    hardware_key: str
    dtype: str
    N: int
    tiles: tuple[int, ...]
    small_N: int
    small_T: int
    threads: int                          # ④: threads of one block (an example; the roofline has none)
    gpus: tuple[str, ...]                 # ④ and the summary: real GPU presets beside the hypothetical one
    gpu: str                              # ④'s occupancy example: an NVIDIA GPU preset with per-SM limits
    extra_registers: int                  # ④'s occupancy example: registers per thread besides the partial sums
    small_capacities: tuple[int, ...]     # ③: capacities of the small example, in input tiles
    capacities: tuple[int, ...]           # ③: capacities for the N×N problem, in Byte
    group_size_M: int                     # ③: GROUP_SIZE_M of the grouped tile order
    catalog: Catalog = field(repr=False, compare=False)

    FILE_KEYS = ("hardware", "dtype", "N", "tiles", "small_N", "small_T", "threads", "gpus", "gpu", "extra_registers")
    CACHE_KEYS = ("small_capacities", "capacities", "group_size_M")

    @classmethod
    def parse(cls, values: dict, catalog: Catalog, name, pair: bool = True) -> "Week4":
        """`pair`: check now that the preset has a peak for the dtype (a chapter that never asks for the
        hardware, like ①, may pick a dtype the hypothetical machine lacks; `.hardware` checks it then)."""
        catalog.preset(values["hardware"], name("hardware"))
        catalog.bytes_per(values["dtype"], name("dtype"))
        if pair:
            catalog.roofline(values["hardware"], values["dtype"], name("hardware"), name("dtype"))
        N = positive_int(values["N"], name("N"))
        tiles = int_list(values["tiles"], name("tiles"))
        for T in tiles:
            check_divides(name("tiles"), T, "N", N)
        small_N = positive_int(values["small_N"], name("small_N"))
        small_T = positive_int(values["small_T"], name("small_T"))
        check_divides(name("small_T"), small_T, "small_N", small_N)
        gpus = values["gpus"]
        if not isinstance(gpus, (list, tuple)) or not gpus:
            raise ParameterError(f"{name('gpus')}: 프리셋 이름을 하나 이상 담은 목록이어야 한다. 받은 값: {gpus!r}")
        for key in gpus:
            preset = catalog.preset(key, name("gpus"))
            if preset.SMs is None or preset.smem_per_SM is None:
                raise ParameterError(f"{name('gpus')}: 프리셋 {key!r}에는 SMs와 smem_per_SM이 없다 (실제 GPU여야 한다)")
            if preset.sm is None:
                raise ParameterError(f"{name('gpus')}: 프리셋 {key!r}에는 SM 한도(presets.{key}.sm)가 없어 점유율을 "
                                     "계산할 수 없다 (NVIDIA GPU여야 한다)")
        gpu = catalog.preset(values["gpu"], name("gpu"))
        if gpu.sm is None:
            with_sm = [k for k, p in catalog.presets.items() if p.sm]
            raise ParameterError(f"{name('gpu')}: 프리셋 {gpu.key!r}에는 SM 한도(presets.{gpu.key}.sm)가 없어 점유율을 "
                                 f"계산할 수 없다. 쓸 수 있는 GPU: {', '.join(with_sm)}")
        return cls(values["hardware"], values["dtype"], N, tiles, small_N, small_T,
                   positive_int(values["threads"], name("threads")), tuple(gpus), gpu.key,
                   positive_int(values["extra_registers"], name("extra_registers")),
                   int_list(values["small_capacities"], name("small_capacities")),
                   int_list(values["capacities"], name("capacities")),
                   positive_int(values["group_size_M"], name("group_size_M")), catalog)

    def with_(self, **changes) -> "Week4":
        """The same problem with the parameter cell's values, checked like the file (messages name the variable)."""
        return _with(self, changes, self.FILE_KEYS + self.CACHE_KEYS, {"hardware": "hardware_key"})


@dataclass(frozen=True)
class Week3(OnMachine):
    """The week-3 problem: vector add of length L in `dtype` on preset `hardware_key`, memory `capacity`
    (Byte: the roofline has none, it only decides what fits), and the real GPU `gpu` of the explanations."""

    hardware_key: str
    dtype: str
    L: int
    capacity: int
    gpu: str
    catalog: Catalog = field(repr=False, compare=False)

    FILE_KEYS = ("hardware", "dtype", "L", "capacity", "gpu")

    @classmethod
    def parse(cls, values: dict, catalog: Catalog, name) -> "Week3":
        catalog.roofline(values["hardware"], values["dtype"], name("hardware"), name("dtype"))
        gpu = catalog.preset(values["gpu"], name("gpu"))
        if gpu.SMs is None or gpu.smem_per_SM is None:
            raise ParameterError(f"{name('gpu')}: 프리셋 {values['gpu']!r}에는 SMs와 smem_per_SM이 없다 (실제 GPU여야 한다)")
        return cls(values["hardware"], values["dtype"], positive_int(values["L"], name("L")),
                   positive_int(values["capacity"], name("capacity")), values["gpu"], catalog)

    def with_(self, **changes) -> "Week3":
        return _with(self, changes, self.FILE_KEYS, {"hardware": "hardware_key"})


NOTE_PARTS = {  # sub-table → keys; a key in NOTE_LISTS holds a non-empty list of whole numbers (or of pairs)
    "gpt3": ("d_model", "n_layers", "n_heads", "n_ctx", "n_vocab"),
    "attention": ("seq", "heads", "d_head", "layers"),
    "gemm": ("N", "K", "batches"),
    "blas": ("dtype", "n"),
    "cache": ("line", "tile", "K", "CPU_L1", "GPU_L1"),
    "measure": ("naive_N", "tiled_N", "T", "blas_N"),
    "flash_check": ("d", "N", "blocks"),
    "tensor_core": ("m", "n", "k", "align", "tc_per_SM", "tc_flops", "cuda_per_SM", "cuda_flops"),
    "latency": ("L1", "shared", "L2", "HBM"),
}
NOTE_LISTS = {("gemm", "batches"), ("cache", "CPU_L1"), ("flash_check", "N"), ("flash_check", "blocks"),
              ("latency", "L1")}


@dataclass(frozen=True)
class Note:
    """The matmul / FlashAttention note: the preset `hardware_key` and Tensor Core `dtype` of its bounds,
    and its examples (each sub-table a dict of whole numbers; lists kept as tuples)."""

    hardware_key: str
    dtype: str
    gpt3: dict
    attention: dict
    gemm: dict
    blas: dict
    cache: dict
    measure: dict
    flash_check: dict
    tensor_core: dict
    latency: dict
    catalog: Catalog = field(repr=False, compare=False)

    @property
    def hardware(self) -> Preset:
        return self.catalog.presets[self.hardware_key]

    @property
    def s(self) -> int:
        return self.catalog.dtypes[self.dtype]

    @property
    def seq(self) -> int:
        return self.attention["seq"]

    @classmethod
    def parse(cls, values: dict, catalog: Catalog, name) -> "Note":
        _check_gpu(values["hardware"], values["dtype"], catalog, name)
        parts = {}
        for part, keys in NOTE_PARTS.items():
            table = check_keys(values[part], f"note.{part}", keys)
            parts[part] = {key: _note_value(part, key, table[key], catalog, name(f"{part}.{key}")) for key in keys}
        parts["blas"]["s"] = catalog.dtypes[parts["blas"]["dtype"]]   # Byte per element of the BLAS table
        if parts["cache"]["K"] % parts["cache"]["tile"]:
            check_divides(name("cache.tile"), parts["cache"]["tile"], "K", parts["cache"]["K"])
        return cls(values["hardware"], values["dtype"], **parts, catalog=catalog)

    def with_(self, *, hardware: str | None = None, dtype: str | None = None, seq: int | None = None) -> "Note":
        """The note with the parameter cell's preset, dtype and sequence length, checked like the file."""
        values = {"hardware": self.hardware_key if hardware is None else hardware,
                  "dtype": self.dtype if dtype is None else dtype}
        _check_gpu(values["hardware"], values["dtype"], self.catalog, lambda key: key)
        attention = dict(self.attention, seq=self.seq if seq is None else positive_int(seq, "seq"))
        return dataclasses.replace(self, hardware_key=values["hardware"], dtype=values["dtype"], attention=attention)


def _check_gpu(hardware, dtype, catalog: Catalog, name) -> None:
    """The note's bounds need a GPU: a dtype peak, SMs and shared memory per SM (FlashAttention's SRAM M)."""
    preset = catalog.preset(hardware, name("hardware"))
    catalog.roofline(hardware, dtype, name("hardware"), name("dtype"))
    if preset.SMs is None or preset.smem_per_SM is None:
        gpus = [k for k, p in catalog.presets.items() if p.SMs and p.smem_per_SM]
        raise ParameterError(f"{name('hardware')}: 프리셋 {hardware!r}에는 SMs와 smem_per_SM이 없다. "
                             f"쓸 수 있는 GPU: {', '.join(gpus)}")


def _note_value(part: str, key: str, value, catalog: Catalog, where: str):
    if key == "dtype":
        catalog.bytes_per(value, where)
        return value
    if (part, key) in NOTE_LISTS:
        if not isinstance(value, list) or not value:
            raise ParameterError(f"{where}: 비어 있지 않은 목록이어야 한다. 받은 값: {value!r}")
        if key == "blocks":
            if not all(isinstance(v, list) and len(v) == 2 for v in value):
                raise ParameterError(f"{where}: [B_r, B_c] 쌍의 목록이어야 한다. 받은 값: {value!r}")
            return tuple(tuple(positive_int(b, where) for b in v) for v in value)
        return tuple(positive_int(v, where) for v in value)
    return positive_int(value, where)


def _with(problem, changes: dict, keys: tuple[str, ...], fields: dict[str, str]):
    """`problem` re-parsed with `changes` (the parameter cell's variables): a message names the variable."""
    unknown = sorted(set(changes) - set(keys))
    if unknown:
        raise ParameterError(f"모르는 매개변수 {', '.join(unknown)}. 쓸 수 있는 매개변수: {', '.join(keys)}")
    values = {key: getattr(problem, fields.get(key, key)) for key in keys}
    values.update(changes)

    def name(key: str) -> str:   # a changed value is the cell's variable; an unchanged one came from the file
        return key if key in changes else f"{problem.WHERE.get(key, problem.TABLE)}.{key}"

    extra = {"pair": False} if isinstance(problem, Week4) else {}
    return type(problem).parse(values, problem.catalog, name, **extra)


Week4.TABLE, Week4.WHERE = "week4", {k: "week4_cache" for k in Week4.CACHE_KEYS}
Week3.TABLE, Week3.WHERE = "week3", {}


# ---------------------------------------------------------------- the course

# A parameter cell's variable → the key of course.toml it stands for, per problem (the tooling writes the
# file's value into the cell; the staleness check names a cell that disagrees with the file).
CELL_KEYS = {
    "week4": {**{k: f"week4.{k}" for k in Week4.FILE_KEYS}, **{k: f"week4_cache.{k}" for k in Week4.CACHE_KEYS}},
    "week3": {k: f"week3.{k}" for k in Week3.FILE_KEYS},
    "note": {"hardware": "note.hardware", "dtype": "note.dtype", "seq": "note.attention.seq"},
}


@dataclass(frozen=True)
class Course:
    week4: Week4
    week3: Week3
    note: Note
    catalog: Catalog
    path: Path
    raw: dict = field(repr=False, compare=False)   # the parsed file, for `value()`

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

    def value(self, dotted: str):
        """The file's value of key `dotted` ("week4.N", "note.attention.seq"), as TOML gave it."""
        node = self.raw
        for part in dotted.split("."):
            node = node[part]
        return node


def load(path: str | Path | None = None) -> Course:
    """Read and validate the course parameters (default: $ROOFLINE_COURSE if set, else the package's course.toml).
    The one reader of the file."""
    path = Path(path if path is not None else os.environ.get(ENVIRONMENT) or DEFAULT_PATH)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise ParameterError(f"{path.name}: TOML 문법 오류: {err}") from err
    check_keys(raw, path.name, {"week4", "week3", "dtypes", "presets", "note", "week4_cache"})
    dtypes = _dtypes(raw["dtypes"])
    if not isinstance(raw["presets"], dict) or not raw["presets"]:
        raise ParameterError("[presets]: 프리셋이 하나 이상 있어야 한다")
    catalog = Catalog(dtypes, {k: parse_preset(k, t, dtypes) for k, t in raw["presets"].items()})
    w4 = {**check_keys(raw["week4"], "week4", Week4.FILE_KEYS),
          **check_keys(raw["week4_cache"], "week4_cache", Week4.CACHE_KEYS)}
    week4 = Week4.parse(w4, catalog, lambda k: f"{'week4_cache' if k in Week4.CACHE_KEYS else 'week4'}.{k}")
    week3 = Week3.parse(check_keys(raw["week3"], "week3", Week3.FILE_KEYS), catalog, _named("week3"))
    note = Note.parse(check_keys(raw["note"], "note", ("hardware", "dtype", *NOTE_PARTS)), catalog, _named("note"))
    return Course(week4, week3, note, catalog, path, raw)


def _dtypes(table) -> dict[str, int]:
    if not isinstance(table, dict) or not table:
        raise ParameterError("[dtypes]: 자료형 = 원소당 Byte 꼴로 하나 이상 적어야 한다")
    return {d: positive_int(v, f"dtypes.{d}") for d, v in table.items()}
