"""roofline.show.fmt: the formatter writes numbers the way the seed documents print them.
"""
from __future__ import annotations

import re
from fractions import Fraction

from roofline.show import fmt


def test_formatting_in_the_seeds_style():
    assert fmt.integer(549_822_922_752) == "549,822,922,752"
    assert fmt.decimal(Fraction(2, 9), 4) == "0.2222"
    assert fmt.decimal(Fraction(1, 8), 2) == "0.13"           # half away from zero
    assert fmt.ratio(Fraction(549_822_922_752, 6_871_947_673_600) * 1000) == "80.01배"
    assert fmt.giga(549_822_922_752) == "549.822923"
    assert fmt.kib(196_608) == "192 KiB"
    assert fmt.mib(201_326_592) == "192 MiB"
    assert fmt.gib(2**30) == "1 GiB"
    assert fmt.power10(20 * 10**12) == "20 × 10¹²"
    assert fmt.percent(Fraction(243, 1000)) == "24.3%"
    assert re.fullmatch(r"\d+\.\d{6}", fmt.ms(Fraction(1, 3)))


def test_one_number_format_for_what_a_reader_reads():
    """Separators in every number a reader reads (issue 55): a whole number, a decimal, a share; none in
    `decimal` unless asked (a formula's digits)."""
    assert fmt.number(Fraction(4096, 3)) == "1,365.333333" and fmt.number(4096) == "4,096"
    assert fmt.number(Fraction(121, 1), 3) == "121"        # no padded zeros: never "121.000000"
    assert fmt.percent(Fraction(10348, 1000)) == "1,034.8%"
    assert fmt.decimal(Fraction(4096, 3), 2) == "1365.33" and fmt.decimal(Fraction(4096, 3), 2, grouping=True) == "1,365.33"


def test_unit_counts_an_integer_dtype_in_ops():
    """One place names the unit of work by dtype: OPs, TOPS and OPs/Byte for an integer dtype (as the notes teach),
    the floating-point units unchanged for a float, any other unit unchanged for both."""
    assert [fmt.unit(u, "INT8") for u in ("FLOPs", "FLOPs/s", "TFLOPs/s", "FLOPs/Byte")] == ["OPs", "OPs/s", "TOPS",
                                                                                           "OPs/Byte"]
    for dtype in ("FP32", "TF32", "FP16", "BF16", "FP8", ""):
        assert [fmt.unit(u, dtype) for u in ("FLOPs", "TFLOPs/s", "FLOPs/Byte")] == ["FLOPs", "TFLOPs/s", "FLOPs/Byte"]
    assert [fmt.unit(u, "INT8") for u in ("Byte", "TB/s", "ms")] == ["Byte", "TB/s", "ms"]
    assert fmt.TERA_UNITS[fmt.unit("FLOPs/s", "INT8")] == fmt.unit("TFLOPs/s", "INT8")
