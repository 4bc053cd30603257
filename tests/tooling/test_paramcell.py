"""A parameter cell's values as `make check` reads them (coursebook.paramcell.assignments): literals, and an integer
written as a power or product of integers, as a person writes a large constant."""
from __future__ import annotations

import pytest

from coursebook import paramcell
from roofline.errors import ParameterError


def test_a_power_of_ten_is_read_as_the_integer_python_gives():
    cell = "L = 10**9  # 벡터 길이\ncapacity = 16 * 10**9\nN = 4_096\ntiles = [32, 64]\ndtype = \"FP32\""
    assert paramcell.assignments(cell) == {"L": 10**9, "capacity": 16 * 10**9, "N": 4096, "tiles": [32, 64],
                                           "dtype": "FP32"}


@pytest.mark.parametrize("code", ["N = 2**10**10", "N = f(3)", "N = 10**N", "N = open('x')"])
def test_anything_else_is_refused(code):
    with pytest.raises(ParameterError):
        paramcell.assignments(code)
