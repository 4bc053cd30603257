"""The library's one kind of input error and its checks (the one copy of each rule).

Messages are Korean (the readers are Korean students) and name the key or the parameter-cell variable
in English, so it can be searched: `week4.N: 양의 정수여야 한다. 받은 값: -4096`.
"""
from __future__ import annotations

import math
import numbers
from fractions import Fraction


class ParameterError(ValueError):
    """A bad parameter: a key of course.toml, a variable of a chapter's parameter cell, or an argument."""


SHOWN = 80   # characters of a bad value a message repeats (a 200,000-character value is not echoed whole)


def shown(value, width: int = SHOWN) -> str:
    """`repr(value)` for a message, shortened to `width` characters (with how long it was) if it is longer."""
    text = repr(value)
    if len(text) <= width:
        return text
    return f"{text[:width - 1]}… ({len(text):,}자)"


def positive_int(value, key: str) -> int:
    """`value` if it is a whole number > 0 (int or NumPy integer, not bool), else ParameterError naming `key`."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ParameterError(f"{key}: 양의 정수여야 한다. 받은 값: {shown(value)}")
    return int(value)


def check_positive(**values) -> None:
    """Each keyword value must be a positive whole number."""
    for key, value in values.items():
        positive_int(value, key)


def positive_number(value, key: str) -> Fraction:
    """A finite number > 0 as an exact Fraction (a TOML float 3.35e12 is read from its decimal text, exactly)."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Rational, float)):
        raise ParameterError(f"{key}: 0보다 큰 수여야 한다. 받은 값: {shown(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ParameterError(f"{key}: 유한한 수여야 한다 (inf, nan은 쓸 수 없다). 받은 값: {shown(value)}")
    exact = Fraction(repr(value)) if isinstance(value, float) else Fraction(value)
    if exact <= 0:
        raise ParameterError(f"{key}: 0보다 커야 한다. 받은 값: {shown(value)}")
    return exact


def text(value, key: str) -> str:
    if not isinstance(value, str) or not value:
        raise ParameterError(f"{key}: 비어 있지 않은 문자열이어야 한다. 받은 값: {shown(value)}")
    return value


def int_list(value, key: str) -> tuple[int, ...]:
    """A non-empty list of positive whole numbers, distinct and increasing."""
    if not isinstance(value, (list, tuple)) or not value:
        raise ParameterError(f"{key}: 양의 정수를 하나 이상 담은 목록이어야 한다 (예: [32, 64]). 받은 값: {shown(value)}")
    items = tuple(positive_int(v, key) for v in value)
    if list(items) != sorted(set(items)):
        raise ParameterError(f"{key}: 값이 서로 다르고 작은 것부터 커져야 한다. 받은 값: {shown(list(value))}")
    return items


def check_divides(T_key: str, T: int, N_key: str, N: int) -> None:
    """N must be a multiple of T."""
    if N % T:
        raise ParameterError(f"{T_key}: {N_key} = {N}의 약수가 아닌 값 {T}. 타일 한 변은 {N_key}의 약수여야 한다")


def choice(value, key: str, allowed, what: str) -> str:
    """`value` if it is one of `allowed` (names of presets, dtypes, …)."""
    value = text(value, key)
    if value not in allowed:
        raise ParameterError(f"{key}: 모르는 {what} {shown(value)}. 쓸 수 있는 값: {', '.join(allowed)}")
    return value
