"""roofline.ncu: an Nsight Compute CSV export (raw and details pages) read into F, Q and the time, exactly.

The cases are tests/fixtures/ncu/cases.toml: for every good fixture the values as the file prints them, which this
test scales itself (decimal prefixes) and combines with Fraction (F = fadd + fmul + 2·ffma); for every bad one the
field its one Korean line names and what that line says. Then each through ②'s "내 커널" (the live mode's entry,
`engine.live`): the numbers it places and where their derivations say they come from (the metric and its row).
"""
from __future__ import annotations

import json
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from roofline import ncu
from roofline.errors import ParameterError
from roofline.show import engine, fmt

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ncu"
CASES = tomllib.loads((FIXTURES / "cases.toml").read_text(encoding="utf-8"))
PREFIX = {"": 1, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}
SECONDS_IN_MS = {"nsecond": Fraction(1, 10**6), "usecond": Fraction(1, 10**3), "msecond": 1, "second": 1000}


def printed(value: str, unit: str) -> Fraction:
    """A value as the case table writes it ("1,250.75", "usecond"), in ms, Byte or instructions."""
    number = Fraction(value.replace(",", ""))
    if unit in SECONDS_IN_MS:
        return number * SECONDS_IN_MS[unit]
    for base in ("byte", "inst"):
        if unit.endswith(base):
            return number * PREFIX[unit.removesuffix(base)]
    raise AssertionError(unit)


def expected(case: dict) -> tuple[Fraction, Fraction, Fraction]:
    F = printed(*case["fadd"]) + printed(*case["fmul"]) + 2 * printed(*case["ffma"])
    Q = printed(*case["bytes"]) if "bytes" in case else printed(*case["read"]) + printed(*case["write"])
    return F, Q, printed(*case["time"])


def text(case: dict) -> str:
    return (FIXTURES / case["file"]).read_text(encoding="utf-8")


def test_fixtures_follow_the_two_layouts():
    """The good fixtures are ncu's layouts: raw = a header of launch columns and metric names, then a units row
    (blank under the launch columns), then one row per kernel; details = one row per (kernel, section, metric)."""
    for case in CASES["good"]:
        lines = text(case).splitlines()
        rows = lines[next(k for k, line in enumerate(lines) if line.startswith('"ID",')):]   # the program's output first
        header = rows[0]
        assert header.startswith('"ID","Process ID","Process Name","Host Name","Kernel Name"'), case["file"]
        if case["page"] == "details":
            assert '"Section Name","Metric Name","Metric Unit","Metric Value"' in header
        else:
            assert '"Metric Name"' not in header and rows[1].startswith('"",""')
            assert all(metric in header for metric in (ncu.TIME, *ncu.FLOPS.values()))


@pytest.mark.parametrize("case", CASES["good"], ids=lambda c: f"{c['file']}:{c.get('id', '')}")
def test_good_file(case):
    reading = ncu.read(text(case), case.get("id"))
    F, Q, t_ms = expected(case)
    assert (reading.F.value, reading.Q.value, reading.t_ms) == (F, Q, t_ms)
    assert reading.kernel.startswith(case["kernel"]) or case["kernel"] in reading.kernel
    assert reading.F.term.formula == "n_fadd + n_fmul + 2·n_ffma"
    assert (reading.Q.term.formula if reading.Q.derived else "Q") == ("Q" if "bytes" in case else "Q_read + Q_write")
    cost = reading.cost
    assert (cost.F, cost.Q, cost.I) == (F, Q, F / Q)
    # each input names its metric, the value and unit as printed, and its row
    said = {"n_fadd": case["fadd"], "n_fmul": case["fmul"], "n_ffma": case["ffma"], "t_ms": case["time"],
            **({"Q": case["bytes"]} if "bytes" in case else {"Q_read": case["read"], "Q_write": case["write"]})}
    for symbol, (value, unit) in said.items():
        origin = reading.origins[symbol]
        assert origin.startswith("measured:") and f" = {value} {unit} (Nsight Compute CSV " in origin, origin
    assert f"CSV {case['line']}행" in reading.origins["t_ms"] or case["page"] == "details"


@pytest.mark.parametrize("case", CASES["bad"], ids=lambda c: f"{c['file']}:{c.get('id', '')}")
def test_bad_file(case):
    with pytest.raises(ParameterError) as caught:
        ncu.read(text(case), case.get("id"))
    message = str(caught.value)
    assert message.startswith(f"{case['field']}: ") and "\n" not in message
    for words in case["says"]:
        assert words in message, (words, message)


def test_not_text():
    for value in (None, "", "   \n", 42):
        with pytest.raises(ParameterError, match="^ncu: 비어 있다"):
            ncu.read(value)


def test_units_and_numbers_as_ncu_prints_them():
    """Every unit the module reads scales exactly by a decimal prefix; a value keeps its thousands separators."""
    for unit, (kind, scale) in ncu.UNITS.items():
        base = {"time": "msecond", "bytes": "byte", "inst": "inst"}[kind]
        assert scale == printed("1", unit) / printed("1", base), unit
    for good in ("0", "1,024", "68,719,476,736", "1,250.75", "4.0e-05", "536.87"):
        assert ncu.NUMBER.fullmatch(good), good
    for bad in ("n/a", "9,00", "1,0000", "-5", "", "1.2.3", "0x10"):
        assert not ncu.NUMBER.fullmatch(bad), bad


def test_command_asks_for_what_is_read():
    assert ncu.COMMAND.startswith("ncu --csv --page raw ") and ncu.COMMAND.endswith("./app > 내커널.csv")
    assert f"--metrics {','.join(ncu.METRICS)} " in ncu.COMMAND
    assert set(ncu.METRICS) == {ncu.TIME, ncu.BYTES, *ncu.FLOPS.values()}


def fp32_preset(course) -> str:
    return next(key for key, preset in course.presets.items() if "FP32" in preset.peak)


@pytest.mark.parametrize("case", CASES["good"], ids=lambda c: f"{c['file']}:{c.get('id', '')}")
def test_my_kernel_from_the_file(live_course, case):
    """The file's kernel through ②'s "내 커널" (the live mode's call): F, Q, I, the measured rate and its share as
    the formatter writes the values computed here, and the panels' origins: the metrics with their rows."""
    hardware = fp32_preset(live_course)
    values = {"hardware": hardware, "dtype": "FP32", "kernel": "ncu", "ncu": text(case), "ncu_id": case.get("id", "")}
    out = json.loads(engine.live("kernel", json.dumps(values), live_course))
    assert "state" in out, out
    fields = out["state"]["fields"]
    F, Q, t_ms = expected(case)
    hw = live_course.catalog.roofline(hardware, "FP32")
    achieved = F / (t_ms / 1000)
    assert fields["k-F"] == fmt.integer(F) and fields["k-Q"] == fmt.integer(Q)
    assert fields["k-I"] == fmt.decimal(F / Q, 6)
    assert fields["k-achieved"] == fmt.tera(achieved, 6)
    assert fields["k-share"] == fmt.percent(achieved / hw.R_roof(F / Q), 1)
    records = out["why"]["r"]
    F_record = records[out["why"]["g"][out["state"]["why"]["fields"]["k-F"]]["of"]]
    assert F_record["formula"] == "n_fadd + n_fmul + 2·n_ffma"
    origins = [x["origin"] for x in F_record["inputs"]]
    assert all(o.startswith("measured:sm__sass_thread_inst_executed_op_f") and "행)" in o for o in origins)
    rate = records[out["why"]["g"][out["state"]["why"]["fields"]["k-achieved"]]["of"]]
    assert any(x["origin"].startswith(f"measured:{ncu.TIME} = ") for x in rate["inputs"])


def test_my_kernel_bad_files_place_nothing(live_course):
    """A bad file, several kernels without an ID, or another dtype than FP32: the Korean line and its field, no
    state."""
    hardware = fp32_preset(live_course)
    for case in CASES["bad"]:
        values = {"hardware": hardware, "dtype": "FP32", "kernel": "ncu", "ncu": text(case), "ncu_id": case.get("id", "")}
        out = json.loads(engine.live("kernel", json.dumps(values), live_course))
        assert set(out) == {"error", "field"} and out["field"] == case["field"], (case["file"], out)
    hardware, other = next((key, d) for key, preset in live_course.presets.items() for d in preset.peak
                           if d != "FP32" and "FP32" in preset.peak)
    good = {"hardware": hardware, "dtype": other, "kernel": "ncu", "ncu": text(CASES["good"][0])}
    out = json.loads(engine.live("kernel", json.dumps(good), live_course))
    assert out["field"] == "dtype" and "FP32" in out["error"]
