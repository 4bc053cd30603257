"""roofline.measure: the achieved bandwidth of Vector Add on this machine (a positive float, three arrays counted)
and its Korean errors for bad input. Nothing here asserts a time.
"""
from __future__ import annotations

import re

import pytest

from roofline import measure
from roofline.errors import ParameterError


def test_achieved_bandwidth_is_a_positive_float():
    bw = measure.achieved_bandwidth(2**16, 2)
    assert type(bw) is float and bw > 0


def test_achieved_bandwidth_counts_three_arrays(monkeypatch):
    monkeypatch.setattr(measure, "vector_add_seconds", lambda n, repeats, dtype: 0.5)
    assert measure.achieved_bandwidth(1000, 3) == 3 * 4 * 1000 / 0.5
    assert measure.achieved_bandwidth(1000, 3, "FP64") == 3 * 8 * 1000 / 0.5


@pytest.mark.parametrize("n", [0, -5, 2.5, True, "1000", None])
def test_achieved_bandwidth_rejects_bad_n(n):
    with pytest.raises(ParameterError, match=rf"^n: 양의 정수여야 한다\. 받은 값: {re.escape(repr(n))}$"):
        measure.achieved_bandwidth(n, 2)


@pytest.mark.parametrize("repeats", [0, -1, 1.0])
def test_achieved_bandwidth_rejects_bad_repeats(repeats):
    with pytest.raises(ParameterError, match=rf"^repeats: 양의 정수여야 한다\. 받은 값: {re.escape(repr(repeats))}$"):
        measure.achieved_bandwidth(1000, repeats)


def test_achieved_bandwidth_rejects_an_unknown_dtype():
    with pytest.raises(ValueError, match=r"^dtype: 모르는 자료형 'BF17'\. 쓸 수 있는 값: FP32"):
        measure.achieved_bandwidth(1000, 1, "BF17")
