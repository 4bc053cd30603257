"""One kernel's F, Q and time from an Nsight Compute CSV export (`ncu --csv`), exactly: ②'s "내 커널" places it.

    F = n_fadd + n_fmul + 2·n_ffma     (FP32 thread instructions executed, predicate on; an FFMA is two FLOPs)
    Q = dram__bytes.sum                 (or Q_read + Q_write: dram__bytes_read.sum + dram__bytes_write.sum)
    t = gpu__time_duration.sum

The two layouts of the Nsight Compute CLI (`--page`), after whatever the profiled program printed first:
- raw: a header row (the launch columns "ID", "Process ID", …, "Kernel Name", … then one column per metric, a
  metric's name holding "__"), a units row (blank under the launch columns), then one row per profiled kernel;
- details: a header row with "ID", "Kernel Name", "Section Name", "Metric Name", "Metric Unit", "Metric Value" (newer
  versions add rule columns), then one row per (kernel, section, metric).
ncu's own lines ("==PROF== …") and blank lines are skipped. A value is printed with thousands separators
("10,196,000"); its unit is a base unit ("nsecond", "byte", "inst") or, without `--print-units base`, one scaled by a
decimal (SI) prefix ("usecond", "Mbyte"): each becomes an exact value (Fraction) here. Anything else is one Korean
ParameterError naming the field ("ncu", or "ncu_id" when the file holds several kernels), its row and metric.
Pure standard library (csv), no rounding.
"""
from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from fractions import Fraction

from roofline.cost import Cost
from roofline.derive import Quantity, named, var
from roofline.errors import ParameterError, shown

TIME = "gpu__time_duration.sum"
BYTES = "dram__bytes.sum"
READ, WRITE = "dram__bytes_read.sum", "dram__bytes_write.sum"
FLOPS = {f"n_{op}": f"sm__sass_thread_inst_executed_op_{op}_pred_on.sum" for op in ("fadd", "fmul", "ffma")}
METRICS = (TIME, BYTES, *FLOPS.values())   # what the page's command asks for
COMMAND = f"ncu --csv --page raw --print-units base --metrics {','.join(METRICS)} ./app > 내커널.csv"

# a unit as ncu prints it → (what it measures, its value in the unit the model takes: ms, Byte, one instruction)
UNITS = {
    "nsecond": ("time", Fraction(1, 10**6)), "usecond": ("time", Fraction(1, 1000)), "msecond": ("time", Fraction(1)),
    "second": ("time", Fraction(1000)),
    **{f"{prefix}byte": ("bytes", Fraction(10**(3 * k))) for k, prefix in enumerate(("", "K", "M", "G", "T"))},
    **{f"{prefix}inst": ("inst", Fraction(10**(3 * k))) for k, prefix in enumerate(("", "K", "M", "G"))},
}
KINDS = {"time": "시간 단위(nsecond, usecond, msecond, second)", "bytes": "바이트 단위(byte, Kbyte, Mbyte, Gbyte)",
         "inst": "명령 수 단위(inst)"}
KIND_OF = {TIME: "time", BYTES: "bytes", READ: "bytes", WRITE: "bytes", **{m: "inst" for m in FLOPS.values()}}
OTHER_FLOPS = re.compile(r"sm__sass_thread_inst_executed_op_([hd])(add|mul|fma)_pred_on\.sum")
NUMBER = re.compile(r"(\d{1,3}(,\d{3})+|\d+)(\.\d+)?([eE][+-]?\d+)?")
DETAILS = ("Metric Name", "Metric Unit", "Metric Value")
SHOWN_KERNELS = 6   # kernels a "which kernel?" message lists

# the Korean names of the symbols a reading's derivation uses (a page puts them in its `why` sources)
NAMES = {"n_fadd": ("실행한 FP32 덧셈 스레드 명령 (FADD)", ""), "n_fmul": ("실행한 FP32 곱셈 스레드 명령 (FMUL)", ""),
         "n_ffma": ("실행한 FP32 FMA 스레드 명령 (FFMA)", ""), "Q_read": ("DRAM에서 읽은 양", "Byte"),
         "Q_write": ("DRAM에 쓴 양", "Byte")}


@dataclass(frozen=True)
class Reading:
    """One kernel of the file: its ID, name and line; F and Q with their formulas (`derive` quantities), the time
    in ms, and where each measured input comes from (`origins`: symbol → "measured:<metric = value unit (its row)>")."""

    id: str
    kernel: str
    line: int
    F: Quantity
    Q: Quantity
    t_ms: Fraction
    origins: dict

    @property
    def cost(self) -> Cost:
        """The kernel's F and Q as a Cost whose derivations are the file's (F = n_fadd + n_fmul + 2·n_ffma …)."""
        measured = {x.symbol: x.value for x in self.Q.term.inputs} if self.Q.derived else {"Q_read": self.Q.value}
        return Cost(F=self.F.value, Q_read=measured["Q_read"], Q_write=measured.get("Q_write", 0),
                    how={"F": self.F, "Q": self.Q, "I": named("I", self.F / self.Q)})


@dataclass(frozen=True)
class _Value:
    text: str
    unit: str
    line: int


def _fail(message: str, key: str = "ncu"):
    raise ParameterError(f"{key}: {message}")


def _rows(text: str) -> list[tuple[int, list[str]]]:
    """(line number, cells) of every CSV row from the header on; the header is the first row whose cells hold "ID"
    and "Kernel Name"."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip() and not line.startswith("==")]
    rows = []
    try:
        for n, line in lines:
            rows.extend((n, cells) for cells in csv.reader([line], strict=True))
    except csv.Error as error:
        _fail(f"{n}행을 CSV로 읽지 못했다 ({error}). ncu --csv가 쓴 파일을 그대로 붙여 넣는다.")
    for k, (_, cells) in enumerate(rows):
        if "ID" in cells and "Kernel Name" in cells:
            return rows[k:]
    _fail('Nsight Compute CSV가 아니다: "ID"와 "Kernel Name" 열이 있는 머리글 행이 없다. '
          "페이지에 적힌 ncu 명령이 쓴 파일을 붙여 넣는다.")


def _kernels(rows) -> dict[str, dict]:
    """ID → {"name", "line", "metrics": {metric: _Value}}, in the file's order, from either layout."""
    (_, header), body = rows[0], rows[1:]
    for n, cells in body:
        if len(cells) != len(header):
            _fail(f"{n}행의 열이 {len(cells)}개다. 머리글 행의 열은 {len(header)}개다.")
    at = {name: k for k, name in enumerate(header)}
    kernels: dict[str, dict] = {}

    def put(n, cells, metric, value: _Value):
        kernel = kernels.setdefault(cells[at["ID"]], {"name": cells[at["Kernel Name"]], "line": n, "metrics": {}})
        before = kernel["metrics"].setdefault(metric, value)
        if (before.text, before.unit) != (value.text, value.unit):
            _fail(f"ID {cells[at['ID']]} 커널의 {metric} 값이 {before.line}행과 {n}행에서 다르다.")

    if all(name in at for name in DETAILS):
        for n, cells in body:
            put(n, cells, cells[at["Metric Name"]], _Value(cells[at["Metric Value"]], cells[at["Metric Unit"]], n))
        return kernels
    metrics = [k for k, name in enumerate(header) if "__" in name]
    if not body or body[0][1][at["ID"]] != "":
        _fail(f"{rows[0][0] + 1}행에 단위 행이 없다. raw 페이지는 머리글 행 다음에 지표마다 단위를 적는다.")
    (_, units), data = body[0], body[1:]
    for n, cells in data:
        for k in metrics:
            put(n, cells, header[k], _Value(cells[k], units[k], n))
    return kernels


def _short(name: str, width: int = 40) -> str:
    """A kernel's name for a message: C++ signatures are long."""
    return name if len(name) <= width else name[:width - 1] + "…"


def _choose(kernels: dict, kernel_id) -> str:
    """The ID of the kernel to read: the file's only one, or the one the reader named (field ncu_id)."""
    wanted = "" if kernel_id is None else str(kernel_id).strip()
    listed = ", ".join(f"ID {key} {_short(k['name'])} ({k['line']}행)" for key, k in list(kernels.items())[:SHOWN_KERNELS])
    more = f" 외 {len(kernels) - SHOWN_KERNELS}개" if len(kernels) > SHOWN_KERNELS else ""
    if not kernels:
        _fail("머리글 행 다음에 커널 행이 없다. 프로파일한 커널이 하나도 없다.")
    if wanted:
        if wanted not in kernels:
            _fail(f"파일에 ID {shown(wanted)}인 커널이 없다. 있는 커널: {listed}{more}.", "ncu_id")
        return wanted
    if len(kernels) > 1:
        _fail(f"파일에 커널이 {len(kernels)}개 있다: {listed}{more}. 읽을 커널의 ID를 적는다.", "ncu_id")
    return next(iter(kernels))


def _value(metrics: dict, metric: str, where: str) -> tuple[Fraction, str]:
    """A metric's exact value in the model's unit (ms, Byte, instructions) and its origin."""
    if metric not in metrics:
        family = metric.split(".", 1)[0]
        near = sorted(m for m in metrics if m.split(".", 1)[0] == family)
        also = f" (비슷한 지표: {', '.join(near)})" if near else ""
        _fail(f"{where}에 {metric} 지표가 없다{also}. 페이지의 ncu 명령대로 --metrics에 넣어 다시 잰다.")
    v = metrics[metric]
    kind = KIND_OF[metric]
    if UNITS.get(v.unit, (None,))[0] != kind:
        _fail(f"{v.line}행 {metric}의 단위가 {KINDS[kind]}가 아니다: {shown(v.unit)}")
    if NUMBER.fullmatch(v.text.strip()) is None:
        _fail(f"{v.line}행 {metric}의 값이 수가 아니다: {shown(v.text)}")
    value = Fraction(v.text.strip().replace(",", "")) * UNITS[v.unit][1]
    if kind != "time" and value.denominator != 1:
        _fail(f"{v.line}행 {metric}의 값이 정수 개가 아니다: {v.text} {v.unit}")
    return value, f"measured:{metric} = {v.text.strip()} {v.unit} (Nsight Compute CSV {v.line}행)"


def read(text, kernel_id=None) -> Reading:
    """The kernel of an `ncu --csv` export (raw or details page): its F, Q and time (see the module's formulas).
    `kernel_id`: the "ID" of the kernel to read when the file holds several."""
    if not isinstance(text, str) or not text.strip():
        _fail("비어 있다. 페이지에 적힌 ncu 명령이 쓴 CSV 파일을 붙여 넣거나 끌어다 놓는다.")
    kernels = _kernels(_rows(text))
    key = _choose(kernels, kernel_id)
    kernel = kernels[key]
    metrics, where = kernel["metrics"], f"ID {key} 커널({kernel['name']}, {kernel['line']}행)"
    for metric, v in metrics.items():
        other = OTHER_FLOPS.fullmatch(metric)
        if other and NUMBER.fullmatch(v.text.strip()) and Fraction(v.text.strip().replace(",", "")) != 0:
            width = {"h": "FP16", "d": "FP64"}[other.group(1)]
            _fail(f"{v.line}행 {metric}: 이 커널은 {width} 연산도 한다. 이 페이지의 F는 FP32 명령(fadd, fmul, ffma)만 센다.")
    origins: dict = {}
    counts = {}
    for symbol, metric in FLOPS.items():
        counts[symbol], origins[symbol] = _value(metrics, metric, where)
    F = named("F", var("n_fadd", counts["n_fadd"]) + var("n_fmul", counts["n_fmul"]) + 2 * var("n_ffma", counts["n_ffma"]))
    if BYTES in metrics or not (READ in metrics and WRITE in metrics):
        q, origins["Q"] = _value(metrics, BYTES, where)
        Q = var("Q", q)
    else:
        (r, origins["Q_read"]), (w, origins["Q_write"]) = _value(metrics, READ, where), _value(metrics, WRITE, where)
        Q = named("Q", var("Q_read", r) + var("Q_write", w))
    t_ms, origins["t_ms"] = _value(metrics, TIME, where)
    for value, metric, why in ((F.value, "FP32 연산 지표", "FP32 명령을 실행하지 않았다 (F = 0)"),
                               (Q.value, BYTES, "DRAM과 데이터를 주고받지 않았다 (Q = 0)"), (t_ms, TIME, "시간이 0이다")):
        if value == 0:
            _fail(f"{where}: {why}. Roofline에 놓을 수 없다 ({metric}).")
    return Reading(key, kernel["name"], kernel["line"], F, Q, t_ms, origins)
