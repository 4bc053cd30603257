"""Number formatting in the seeds' style. Exact values in, strings out; the only place that rounds.

    integer(137438953472) → "137,438,953,472"      decimal(Fraction(1, 4), 6) → "0.250000"
    ratio(x) → "80.01배"   ms(t) → "549.822923"    kib(12288) → "12 KiB"    gb(Q) → "549.822923"

A number a reader reads (an integer, a time, a rate, an amount, a solution's value) has thousands separators:
"20,874.673521 ms", "4,096×4,096"; `decimal` alone writes none unless asked (a formula's digits, a ratio).
"""
from __future__ import annotations

import math
import re
from fractions import Fraction

TERA = 10**12   # FLOPs/s and Byte/s per tera

# a rate's unit → the same rate in 10¹² (the pages' scale for P, R and BW): integers' TOPS as the notes teach it
TERA_UNITS = {"FLOPs/s": "TFLOPs/s", "OPs/s": "TOPS", "Byte/s": "TB/s"}
# what an integer dtype counts instead of floating-point operations: OPs (chapters/flashattention.md: "정수형은 FLOP
# 대신 정수 연산(OP)을 세므로 … TOPS와 OPs/Byte로 읽는다")
INTEGER_UNITS = {"FLOP": "OP", "FLOPs": "OPs", "GFLOPs": "GOPs", "FLOPs/s": "OPs/s", "TFLOPs/s": TERA_UNITS["OPs/s"],
                 "FLOPs/Byte": "OPs/Byte"}


INTEGER_UNITS_FLOAT = {v: k for k, v in INTEGER_UNITS.items()}   # OPs → FLOPs, TOPS → TFLOPs/s, …


def integer_dtype(dtype: str) -> bool:
    """An integer dtype (INT8, INT4): its work is counted in OPs, not FLOPs."""
    return dtype.startswith("INT")


def unit(name: str, dtype: str) -> str:
    """`name`, a unit of floating-point work (FLOP, FLOPs, FLOPs/s, TFLOPs/s, FLOPs/Byte), as `dtype` counts it: the same
    for a floating-point dtype, in integer operations for an integer one (OP, OPs, OPs/s, TOPS, OPs/Byte). Any other
    unit (Byte, TB/s, ms) is the same for every dtype."""
    return INTEGER_UNITS.get(name, name) if integer_dtype(dtype) else name


_WORK = re.compile(r"(?<![A-Za-z])(?:" + "|".join(re.escape(k) for k in sorted(INTEGER_UNITS, key=len, reverse=True))
                   + r")(?![A-Za-z])")


def in_units(text: str, dtype: str) -> str:
    """`text`, about the work of one `dtype`, with each unit of floating-point work in it named as `unit` names it
    for that dtype: "곱셈·덧셈 한 쌍은 2 FLOPs다" stays for FP16 and is "… 2 OPs다" for INT8 (the particle after it
    is the same: both end in s)."""
    return _WORK.sub(lambda m: unit(m[0], dtype), text) if integer_dtype(dtype) else text


_ANY_WORK = re.compile(r"(?<![A-Za-z])(?:" + "|".join(re.escape(k) for k in sorted(
    {*INTEGER_UNITS, *INTEGER_UNITS.values()}, key=len, reverse=True)) + r")(?![A-Za-z])")


def stray_units(text: str, dtype: str, dtypes=()) -> list[str]:
    """The units of work in `text` that `dtype` does not count in (FLOPs in an INT8 question, TOPS in an FP16 one);
    a quantity tagged with another of `dtypes` ("FP32 256 FLOPs", "FP32 최대 66.9 TFLOPs/s") is judged by its own."""
    found = []
    for m in _ANY_WORK.finditer(text):
        tag = re.search(r"([A-Z]+[0-9]+)(?: 최대)? [0-9][0-9,.]*(?: × 10[⁰¹²³⁴⁵⁶⁷⁸⁹]+)? $", text[:m.start()])
        counted = tag[1] if tag and tag[1] in dtypes else dtype
        if m[0] != unit(INTEGER_UNITS_FLOAT.get(m[0], m[0]), counted):
            found.append(m[0])
    return found


def _exact(x) -> Fraction:
    if isinstance(x, float):
        return Fraction(repr(x))
    return Fraction(x)


def _ratio(x) -> tuple[int, int]:
    """x as numerator and denominator (the denominator > 0), exactly; an int or a Fraction as it is."""
    if type(x) is int:
        return x, 1
    if not isinstance(x, Fraction):
        x = _exact(x)
    return x.numerator, x.denominator


def _magnitude(p: int, q: int, scale: int) -> int:
    """⌊|p/q|·scale + 1/2⌋ in integers: |p/q| rounded half up to 1/scale, counted in units of 1/scale."""
    return (2 * abs(p) * scale + q) // (2 * q)


def rounded(x, digits: int) -> Fraction:
    """x rounded half away from zero to `digits` decimals, exactly."""
    p, q = _ratio(x)
    scale = 10**digits
    magnitude = _magnitude(p, q, scale)
    return Fraction(magnitude if p >= 0 else -magnitude, scale)


def decimal(x, digits: int = 6, grouping: bool = False) -> str:
    """Fixed decimals: decimal(Fraction(2, 9), 4) → "0.2222". (Integer arithmetic only: every number on a page and
    in a derivation passes here.)"""
    p, q = _ratio(x)
    scale = 10**digits
    magnitude = _magnitude(p, q, scale)
    sign = "-" if p < 0 and magnitude else ""
    whole, part = divmod(magnitude, scale)
    head = f"{whole:,}" if grouping else str(whole)
    return sign + head + (f".{part:0{digits}d}" if digits else "")


def root(square, digits: int = 6) -> str:
    """√square to `digits` decimals, rounded half up exactly (no float): root(Fraction(65536, 3), 1) → "147.8"."""
    y = _exact(square) * 10 ** (2 * digits)
    if y < 0:
        raise ValueError(f"root() needs a number ≥ 0, got {square}")
    twice = math.isqrt(math.floor(4 * y))        # ⌊2√y⌋, so ⌊√y + 1/2⌋ = (⌊2√y⌋ + 1) // 2
    return decimal(Fraction((twice + 1) // 2, 10**digits), digits)


def integer(n) -> str:
    """Thousands separators: 137438953472 → "137,438,953,472". Refuses a non-integer."""
    n = _exact(n)
    if n.denominator != 1:
        raise ValueError(f"integer() needs a whole number, got {n}")
    return f"{n.numerator:,}"


def number(x, digits: int = 6) -> str:
    """With separators, an integer when whole, else `digits` decimals without trailing zeros: 20 → "20",
    2/3 → "0.666667", 4096/3 → "1,365.333333"."""
    x = _exact(x)
    if x.denominator == 1:
        return integer(x)
    return decimal(x, digits, grouping=True).rstrip("0").rstrip(".")


def fraction(x) -> str:
    """Exact fraction: Fraction(1, 12) → "1/12", 20 → "20"."""
    x = _exact(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def ratio(x, digits: int = 2) -> str:
    """A ratio as the seeds write it: "80.01배"."""
    return decimal(x, digits) + "배"


def percent(x, digits: int = 1) -> str:
    """A share as a percentage, the sign right after the number (Korean style): Fraction(1, 4) → "25.0%"."""
    return decimal(_exact(x) * 100, digits, grouping=True) + "%"


def ms(seconds, digits: int = 6) -> str:
    """Seconds shown in milliseconds (1 ms = 10⁻³ s): 0.0068719476736 → "6.871948", 20.874673521 → "20,874.673521"."""
    return decimal(_exact(seconds) * 1000, digits, grouping=True)


def tera(rate, digits: int = 6) -> str:
    """FLOPs/s shown in TFLOPs/s (10¹²): 7.968872e12 → "7.968872" (with separators: "1,979.000000")."""
    return decimal(_exact(rate) / 10**12, digits, grouping=True)


def giga(count, digits: int = 6) -> str:
    """Byte or FLOPs shown in units of 10⁹ (GB, GFLOPs): 549822922752 → "549.822923" (with separators above 1,000)."""
    return decimal(_exact(count) / 10**9, digits, grouping=True)


def kib(nbytes) -> str:
    """Byte in KiB (1 KiB = 1024 Byte): 12288 → "12 KiB"."""
    return number(_exact(nbytes) / 1024, 3) + " KiB"


def mib(nbytes) -> str:
    """Byte in MiB (2²⁰ Byte): 201326592 → "192 MiB"."""
    return number(_exact(nbytes) / 2**20, 3) + " MiB"


def gib(nbytes) -> str:
    """Byte in GiB (2³⁰ Byte): 1073741824 → "1 GiB"."""
    return number(_exact(nbytes) / 2**30, 3) + " GiB"


def engineering(x) -> tuple[Fraction, int]:
    """(a, n) with x = a × 10ⁿ, n a multiple of 3 and a < 1000, exactly: 20e12 → (20, 12)."""
    x = _exact(x)
    if x <= 0:
        raise ValueError(f"power10() needs a positive number, got {x}")
    exponent = 0
    while x >= 1000:
        x /= 1000
        exponent += 3
    return x, exponent


def power10(x) -> str:
    """A value as a × 10ⁿ with a superscript exponent: 20e12 → "20 × 10¹²"."""
    mantissa, exponent = engineering(x)
    sup = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
    return f"{number(mantissa, 3)} × 10{str(exponent).translate(sup)}"
