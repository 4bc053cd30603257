"""What a "why this number" panel says, read as a student would (issue 54, content-5 items 15–19): a rule of rounding
only when something was rounded, one unit, times in ms in the numbers line, two equal-looking table cells each with
its own case's record."""
from __future__ import annotations

from fractions import Fraction

from coursebook import derivations as site_why
from roofline.derive import named, tmax, var
from roofline.show import why

SRC = {"P": "toml:presets.course.peak.FP32", "BW": "toml:presets.course.BW", "F": "toml:week4.N", "Q": "toml:week4.N",
       "x": "toml:week4.N", ("name", "x"): ("시험 값", "")}


def test_an_exact_value_states_no_rounding_rule():
    exact, rounded = var("x", Fraction(129, 2)), var("x", Fraction(1024, 65))
    assert why.decimal(exact, 3, SRC).why["rounding"] == ""   # "64.500": nothing rounded
    assert why.number(exact, 3, SRC).why["rounding"] == ""    # "64.5"
    assert why.kib(var("Q", 4096), SRC).why["rounding"] == ""   # "4 KiB"
    assert why.decimal(rounded, 3, SRC).why["rounding"] == "소수 3자리로 반올림"
    record = why.decimal(exact, 3, SRC).why
    assert why.result_text(record, record["records"][record["of"]]) == "64.500 (= 129/2)"


def test_a_unit_is_written_once():
    P = var("P", 20 * 10**12)
    entry = why.power10(P, SRC).why
    assert (str(why.power10(P, SRC)), entry["unit"]) == ("20 × 10¹²", "FLOPs/s")   # not "× 10¹² × 10¹² FLOPs/s"
    inside = why.shown(var("BW", 3_350_000_000_000), "3.35 TB/s (HBM3)", SRC, digits=2,
                       scale=Fraction(1, 10**12), unit="TB/s").why
    assert inside["unit"] == ""
    assert why.ratio(var("x", Fraction(254, 4)), 2, SRC).why["shown"] == "63.50배"


def test_a_times_numbers_line_reads_in_ms_and_the_exact_numbers_stay():
    F, P, Q, BW = var("F", 137_438_953_472), var("P", 20 * 10**12), var("Q", 549_822_922_752), var("BW", 10**12)
    t = named("t_ideal", tmax(named("t_compute", F / P), named("t_memory", Q / BW)))
    key, recs = why.records(t, SRC)
    record = recs[key]
    assert record["numbers"] == "max(8,388,608/1,220,703,125, 134,234,112/244,140,625)"
    assert record["said"] == "max(약 6.871948 ms, 약 549.822923 ms)"
    plain = recs[record["inputs"][0]["origin"].removeprefix("derived:")]
    assert "said" not in plain   # F / P: no time put in


def test_a_readable_value_reads_at_every_size():
    assert why.readable(Fraction(12_597_656_250, 7), "Hz") == "약 1.8 × 10⁹ Hz"   # not "1799665178.571429"
    assert why.readable(Fraction(2048, 8193), "FLOPs/Byte") == "약 0.249969 FLOPs/Byte"
    assert why.readable(Fraction(4096, 3), "FLOPs/Byte") == "약 1,365.333333 FLOPs/Byte"
    assert why.readable(Fraction(131_072, 241_552_734_375), "s") == "약 0.542623 µs"   # not "0.001 × 10⁰ ms"
    assert why.readable(Fraction(1, 18_944), "") == "약 5.279 × 10⁻⁵"


def test_a_number_led_sentence_passes_the_gate_only_when_its_parts_cover_it():
    """"48 / 64" and "6개, 75.0%" (an explorer's field or cell): each number its own button, none left bare."""
    entries = {"a": {}, "b": {}}
    assert site_why._parts_cover("48 / 64", [[0, 2, "a"], [5, 2, "b"]], entries)
    assert site_why._parts_cover("6개, 75.0%", [[0, 1, "a"], [4, 5, "b"]], entries)
    assert not site_why._parts_cover("48 / 64", [[0, 2, "a"]], entries)   # the 64 bare
    assert not site_why._parts_cover("48 / 64", [[0, 2, "a"], [5, 2, "c"]], entries)   # an entry the pool lacks


def test_a_ratio_symbol_reads_as_one_operand():
    """A named quantity whose symbol is a ratio ("F/L") is bracketed where it is divided or multiplied: week 3's
    I = (F/L) / (Q/L), never "F/L / Q/L" (which reads ((F/L)/Q)/L); a sum, a call, a ⌈…⌉ need no brackets."""
    L = var("L", 100_000_000)
    F, Q = named("F/L", named("F", L) / L), named("Q/L", var("s", 4) * 3)
    assert named("I", F / Q).term.formula == "(F/L) / (Q/L)"
    assert (2 * F).formula == "2·(F/L)" and (F + Q).formula == "F/L + Q/L"
    t = named("t", tmax(var("F", 8) / var("P", 2), var("Q", 6) / var("BW", 3)))
    assert (t / var("k", 2)).formula == "t / k" and named("r", t / var("k", 2)).term.formula == "t / k"


def test_a_shown_text_that_says_its_exact_value_is_not_followed_by_it_again():
    """Week 3's "64 MiB(67,108,864 Byte)" reads once, not "64 MiB(67,108,864 Byte) (= 67,108,864 Byte)" (why-panel.js
    follows the same rule); "16 GB" still gets its exact Byte."""
    Q = var("Q", 67_108_864)
    record = why.shown(Q, "64 MiB(67,108,864 Byte)", SRC, digits=3, scale=Fraction(1, 2**20), unit="MiB").why
    assert why.result_text(record, record["records"][record["of"]]) == "64 MiB(67,108,864 Byte)"
    plain = why.shown(var("Q", 16 * 10**9), "16 GB", SRC, digits=None, scale=Fraction(1, 10**9), unit="GB").why
    assert why.result_text(plain, plain["records"][plain["of"]]) == "16 GB (= 16,000,000,000 Byte)"
